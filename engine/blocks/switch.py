"""The ``switch_role`` step: the player may give up the role whose turn it is for a role nobody plays.

At this point of the turn, the current seat decides: ``keep`` its role, or
take over a role no seat plays (one for which the condition ``allowed``
holds, with ``role`` the candidate; default: any).  The new role takes the
old one's place in the turn order, so the seats keep their order; the old
role is then played by nobody.  A seat may switch again on a later turn.  With nothing to switch to, the step does
nothing; when the turn cannot go on (a later step would end the game at once,
like ``place`` with ``if_none: end`` and nothing to place), the game ends
before the choice.

With hidden roles (``roles: {hidden: true}``) the seat does not know which
roles nobody plays: it may only ``switch`` blindly (to one of them drawn with
the game's generator), and the log says only that it switched.

Example (YAML)::

    - switch_role:
        if: player_count == 3
        allowed: role != Neutral     # never take over this one

Text forms: ``keep``, ``switch to B`` (open roles) or ``switch`` (hidden roles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import Texts
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace
from engine.core.errors import SourcePos
from engine.lang.scope import Fn
from engine.lang.types import ANY

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping

KEEP = ("keep",)
BLIND = ("switch",)


@step_kind
class SwitchRole(Step):
    """The ``switch_role`` step: the player may keep the role whose turn it is or take over a role nobody plays; the
    new role takes the old one's place in the turn order.

    Built from, e.g., ``- switch_role: {if: player_count == 3, allowed: role != Neutral}``.
    """
    kind = "switch_role"
    keys = ("if", "allowed")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        roles = b.game.roles
        self.hidden = roles is not None and roles.hidden
        self.allowed_text = b.describe(spec["allowed"]) if "allowed" in spec else ""
        self.allowed: Fn | None = None
        self.allowed_env: list[Any] = []
        if "allowed" in spec:
            role = b.game.vocab.data.get("role_type", ANY)
            compiled, slots = b.expression(spec["allowed"], "bool", bind={"role": role}, pos=b.pos(spec, "allowed"))
            self.allowed, self.allowed_env = compiled.fn, [None] * slots

    def candidates(self, s: "StateView") -> list[str]:
        """The roles nobody plays that the current seat may take over."""
        seat_of, allowed = s.seat_of, self.allowed
        found = [r for r in s.game.roles.values if seat_of.get(r, 0) == 0]  # type: ignore[union-attr]
        if allowed is None:
            return found
        env = self.allowed_env
        return [r for r in found if _holds(allowed, s, env, r)]

    def enter(self, s: "StateView") -> bool:
        if any(step.ends_game_now(s) for step in s.game.steps[self.index + 1:]):
            return False  # the turn cannot go on: the game ends before anyone switches
        return bool(self.candidates(s))

    def actions(self, s: "StateView") -> ActionSpace:
        if self.hidden:
            return ListSpace(self, [KEEP, BLIND])
        return ListSpace(self, [KEEP, *((role,) for role in self.candidates(s))])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        if args == KEEP:
            return True
        if args == BLIND:
            options = self.candidates(s)
            args = (options[s.random_below(len(options))],)
        old, new = s.order[s.turn], args[0]
        actor = s.actor
        seat_of = dict(s.seat_of)  # states share this dict until it changes
        seat_of[new], seat_of[old] = seat_of[old], 0
        s.seat_of = seat_of
        s.order = tuple(new if r == old else r for r in s.order)
        s._actions = None
        s.note(lambda: f"{actor} switches role" if self.hidden else f"{old} switches to {new}; nobody plays {old} now")
        return True

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``keep``, and ``switch`` (roles hidden) or ``switch to ROLE`` for every role."""
        if self.hidden:
            return Texts((self.format(KEEP), self.format(BLIND)))
        roles = game.roles.values if game.roles is not None else ()
        return Texts((self.format(KEEP), *(self.format((role,)) for role in roles)))

    def format(self, args: tuple[Any, ...]) -> str:
        return args[0] if args in (KEEP, BLIND) else f"switch to {args[0]}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        legal = ", ".join(str(a) for a in self.actions(s))
        return f"'{text}' is not possible now; choose one of: {legal}"

    def describe(self) -> str:
        how = "blindly, to one of them at random (roles are hidden)" if self.hidden else "choosing which"
        which = f" (only a role for which {self.allowed_text})" if self.allowed_text else ""
        return (f"the player may keep their role or take over a role nobody plays{which}, {how}; "
                "the new role takes the old one's place in the turn order")


def _holds(condition: Fn, s: "StateView", env: list[Any], role: str) -> bool:
    """Whether ``condition`` holds with ``role`` bound (slot 0)."""
    env[0] = role
    return bool(condition(s, env))


BLOCK = declare(Block(
    "switch_role",
    steps={
        "switch_role": {
            "description": ("The player may keep the role whose turn it is or take over a role nobody plays; the "
                            "new role takes the old one's place in the turn order."),
            "$ref": "#/$defs/switchRoleStep",
        },
    },
    defs={
        "switchRoleStep": {
            "description": ("`switch_role: {allowed: role != X}`: keep your role, or take over one nobody plays "
                            "(`keep`, `switch to B`; with hidden roles a blind `switch`)."),
            "type": ["object", "null"],
            "properties": {
                "if": {
                    "description": "Do this step only when the condition holds, e.g. `player_count == 3`.",
                    "$ref": "#/$defs/condition",
                },
                "allowed": {
                    "description": ("A condition on `role`: which of the roles nobody plays may be taken over (any, "
                                    "if left out)."),
                    "$ref": "#/$defs/condition",
                    "examples": ["role != Neutral"],
                },
            },
            "additionalProperties": False,
        },
    },
))
