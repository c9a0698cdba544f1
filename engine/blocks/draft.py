"""The ``draft`` step: players take turns picking components into their own zone, under rules written in YAML.

::

    - draft:
        from: pool                # where the candidates are
        to: crew                  # each role's own zone (per: role)
        picks: 3                  # how many each role picks (a number or an option)
        order: teams              # turn: in turn order; teams: alternating between teams
        rules:                    # name -> a condition on the candidate `self` (the picker is current_role)
          one leader per crew: not (self.leader and any(c in crew(current_role) where c.leader))

The draft runs once, before the first turn's other steps: the decision is lent to each picker in turn — in turn
order, or with ``order: teams`` one role of each team after the other
(``A1, B1, A2, B2, A1, ...``) — as a pending decision on the state's stack
(see :mod:`engine.core.decisions`); the turn stays the first player's.  A
candidate may be picked when every rule holds; a pick breaking one is refused
with the rule's name.  A role with nothing it may pick is passed over (do as
much as you can).  Identical copies are one candidate: ``pick Scout`` takes
the first.

Text form: ``pick NAME``.

>>> Draft.keys
('if', 'from', 'to', 'picks', 'order', 'rules')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import Texts, names
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace, normalise
from engine.core.decisions import Decision
from engine.core.errors import SourcePos
from engine.core.information import listed
from engine.lang.scope import Fn
from engine.lang.types import ANY_COMPONENT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping



class Drafted(NamedTuple):
    """The draft's slice of the state: the draft steps that are over (a draft happens once)."""

    done: tuple[int, ...] | None = None
    block = "draft"
    saved = ("drafts done",)


def _done(s: "StateView") -> tuple[int, ...]:
    part = s.slices.get(Drafted.block)
    return part.done or () if part is not None else ()


@step_kind
class Draft(Step):
    """The ``draft`` step: players pick components from a zone into their own, one at a time in the draft's order,
    under rules written as conditions.

    Built from, e.g., ``- draft: {from: pool, to: squad, picks: 2}``.
    """
    kind = "draft"
    keys = ("if", "from", "to", "picks", "order", "rules")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        from engine.core.yamlsource import Mapping

        self.source = b.zone_ref(spec, "from", offered=True)
        self.target = str(spec.get("to", ""))
        b.zone_ref(spec, "to")
        if self.target in b.game.zone_specs and not b.game.zone_specs[self.target].per_role:
            b.error(b.pos(spec, "to"), "'to' must be a per-role zone ('per: role'): each player's own")
        self.picks = b.int_setting(spec, "picks", 1)
        self.order = b.choice(spec, "order", ("turn", "teams"), "turn")
        self.rules: list[tuple[str, Fn, int]] = []
        self.rule_texts: list[tuple[str, str]] = []
        rules = spec.get("rules")
        if rules is None:
            rules = Mapping(pos)
        elif not isinstance(rules, Mapping):
            b.error(b.pos(spec, "rules"), "'rules' must map each rule's name to a condition on the candidate `self`")
            rules = Mapping(pos)
        for name, text in rules.items():
            compiled, slots = b.expression(text, "bool", bind={"self": ANY_COMPONENT}, pos=rules.pos_of(name))
            self.rules.append((str(name), compiled.fn, slots))
            self.rule_texts.append((str(name), b.describe(text)))

    # -- who picks, and what

    def _zone(self, s: "StateView", role: str) -> int:
        return self.game.zone_index[(self.target, role)]

    def _sequence(self, s: "StateView") -> list[str]:
        """The seated roles in picking order."""
        if self.order == "turn":
            return list(s.order)
        teams: dict[int, list[str]] = {}
        for role in s.order:
            teams.setdefault(_team(s, role), []).append(role)
        rows = list(teams.values())
        return [row[i] for i in range(max(map(len, rows), default=0)) for row in rows if i < len(row)]

    def broken_rule(self, s: "StateView", cid: int) -> str | None:
        """The first rule a candidate breaks for the current role (None: it may be picked)."""
        for name, fn, slots in self.rules:
            env: list[Any] = [None] * slots
            env[0] = cid
            if not fn(s, env):
                return name
        return None

    def _candidates(self, s: "StateView", first: bool = False) -> list[int]:
        """One legal candidate per distinct name, in the source zone's order (``first``: stop at the first)."""
        names = self.game.piece_names
        seen: set[str] = set()
        out = []
        for cid in listed(s, self.source(s)):
            if names[cid] in seen:
                continue
            seen.add(names[cid])
            if self.broken_rule(s, cid) is None:
                out.append(cid)
                if first:
                    break
        return out

    def _next_picker(self, s: "StateView") -> str | None:
        """The role to pick now: fewest picks so far, earliest in picking order, able to pick something.

        The pick is lent to it: the draft's decision on top of the state's stack names it (None: the draft is over
        and its decision is off the stack).
        """
        sequence = self._sequence(s)
        waiting = sorted((len(s.zones[self._zone(s, r)]), i, r) for i, r in enumerate(sequence)
                         if len(s.zones[self._zone(s, r)]) < self.picks)
        below = s.decisions[:-1] if s.decisions and s.decisions[-1].step == self.index else s.decisions
        for _, _, role in waiting:
            s.decisions = below + (Decision(self.index, role),)
            if self._candidates(s, first=True):
                return role
        s.decisions = below
        return None

    # -- flow

    def enter(self, s: "StateView") -> bool:
        if self.index in _done(s):
            return False
        s._actions = None
        if self._next_picker(s) is None:
            s.slices[Drafted.block] = Drafted(_done(s) + (self.index,))
            return False
        return True

    def actions(self, s: "StateView") -> ActionSpace:
        return ListSpace(self, [(cid,) for cid in self._candidates(s)])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        cid = args[0]
        role = s.current_role
        s.move(cid, self._zone(s, role))
        s.note(lambda: f"{role} picks {self.game.piece_names[cid]}")
        return not self.enter(s)

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return (args[0],)

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``pick NAME`` for every component."""
        return Texts(tuple(f"pick {name}" for name in names(game)))

    def format(self, args: tuple[Any, ...]) -> str:
        return f"pick {self.game.piece_names[args[0]]}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        """The rule a pick breaks (checked even when no copy is left to pick), or that none is left."""
        wanted = normalise(text).removeprefix("pick ").strip()
        names = self.game.piece_names
        named = [cid for cid in range(len(names)) if normalise(names[cid]) == wanted]
        if not named:
            return None
        rule = self.broken_rule(s, named[0])
        if rule is not None:
            return f"{s.current_role} can't pick {names[named[0]]}: {rule}"
        return f"{names[named[0]]} is not in the {self.source.name} any more"

    def describe(self) -> str:
        order = "alternating between teams" if self.order == "teams" else "in turn order"
        return (f"until each player has {self.picks} in their {self.target}, the players pick from the {self.source.name} "
                f"one at a time, {order}")

    def details(self) -> list[str]:
        return [f"rule '{name}': {text}" for name, text in self.rule_texts]


def _team(s: "StateView", role: str) -> int:
    """The team of the seat playing ``role`` (see ``teams:``); without teams, the seat itself."""
    seat = s.seat_of.get(role, 0)
    teams = s.game.teams.get(s.players)
    return next((i for i, team in enumerate(teams, 1) if seat in team), seat) if teams else seat


BLOCK = declare(Block(
    "draft",
    slices=(Drafted,),
    steps={
        "draft": {
            "description": ("Players pick components into their own zones, one at a time, under rules written as "
                            "conditions."),
            "$ref": "#/$defs/draftStep",
        },
    },
    defs={
        "draftStep": {
            "description": ("`draft: {from: pool, to: crew, picks: 3, order: teams, rules: {NAME: CONDITION}}`: "
                            "players pick components one at a time (`pick NAME`) until each has `picks`; a pick "
                            "must satisfy every rule (a condition on the candidate `self`, the picker being "
                            "`current_role`) or it is refused with the rule's name."),
            "type": ["object", "null"],
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {"description": "The zone the candidates are in.", "$ref": "#/$defs/zoneName"},
                "to": {
                    "description": "Each player's own zone (`per: role`) the picks go to.",
                    "$ref": "#/$defs/zoneName",
                },
                "picks": {
                    "description": "How many components each player picks. A number or an option name.",
                    "$ref": "#/$defs/count",
                    "default": 1,
                },
                "order": {
                    "description": ("`turn`: players pick in turn order; `teams`: one player of each team after the "
                                    "other (A1, B1, A2, B2, ...)."),
                    "enum": ["turn", "teams"],
                    "default": "turn",
                },
                "rules": {
                    "description": ("Rules by name, each a condition on the candidate `self` (the picker is "
                                    "`current_role`) that must hold for it to be picked."),
                    "type": ["object", "null"],
                    "additionalProperties": {"$ref": "#/$defs/condition"},
                    "examples": [
                        {
                            "one leader per crew": ("not (self.leader and any(c in crew(current_role) where "
                                                     "c.leader))"),
                        },
                    ],
                },
            },
            "required": ["from", "to"],
            "additionalProperties": False,
        },
    },
))
