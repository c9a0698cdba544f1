"""The ``exchange`` step: a contest's winner may swap two components between zones.

After a ``contest``, each winning component whose ``when`` condition holds
gives its owner one decision: swap one component of the ``give`` zone with
one of the ``take`` zone — each takes the other's place, so rows of slots
stay whole — or, when ``optional``, keep things as they are.  The decision
belongs to the winner's seat: it is a pending decision on the state's stack
(see :mod:`engine.core.decisions`) that also holds the winners still to decide.
``self`` is the winning component and ``other`` the one it beat::

    - exchange:
        when: self.id == "swapper"
        give: won(owner(self))       # one of the winner's prizes ...
        take: won(owner(other))      # ... for one of the loser's
        optional: true

Text form: ``exchange A for B`` or ``keep``.

>>> Exchange.keys
('if', 'when', 'give', 'take', 'optional')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import MOST_TEXTS, Texts, names
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace
from engine.core.decisions import Decision
from engine.core.errors import SourcePos
from engine.core.information import listed
from engine.lang.fixed import PairTable, fixed_with
from engine.lang.types import ANY_COMPONENT, ZONE

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping

KEEP = ("keep",)


class Winners(NamedTuple):
    """The (winner, other) pairs of the last contest, set by the contest step for the steps after it this turn."""

    pairs: tuple[tuple[int, int], ...] | None = None
    block = "contest winners"
    saved = ("winners",)


@step_kind
class Exchange(Step):
    """The ``exchange`` step: after a contest, a winner whose component satisfies ``when`` swaps (or, if optional,
    may swap) one component of the ``give`` zone with one of the ``take`` zone; each takes the other's place.

    Built from, e.g., ``- exchange: {when: self.swaps, give: won(owner(self)), take: won(owner(other)), optional: true}``.
    """
    kind = "exchange"
    keys = ("if", "when", "give", "take", "optional")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        bind = {"self": ANY_COMPONENT, "other": ANY_COMPONENT}
        when, self.env_slots = b.expression(spec.get("when", "true"), "bool", bind=bind, pos=b.pos(spec, "when"))
        self.when = when.fn
        node = b.parse(spec["when"], b.pos(spec, "when")) if "when" in spec and not b.sink.items else None
        fixed = "when" not in spec or fixed_with(b.game.vocab, node, bind)
        self.when_table = PairTable(self.when, self.env_slots) if fixed else None  # a winner's 'when' worked out once
        # a 'when' reading only the winner's printed attributes: worked out once per component and face shown
        self.faces = max(b.game.face_count, default=1)
        alone = "when" not in spec or fixed_with(b.game.vocab, node, {"self": ANY_COMPONENT})
        self.when_alone: list[bool | None] | None = [None] * len(b.game.component_names) * self.faces if alone else None
        self.when_text = b.describe(spec.get("when", "true"))
        self.zones = []
        for key in ("give", "take"):
            compiled, n = b.expression(spec.get(key, ""), None, bind=bind, pos=b.pos(spec, key))
            if compiled.type is not ZONE:
                b.error(b.pos(spec, key), f"'{key}' must be a zone, like won(owner(self)), not {compiled.type}")
            self.zones.append(compiled.fn)
            self.env_slots = max(self.env_slots, n)
        self.texts = [b.describe(spec.get(key, "")) for key in ("give", "take")]
        self.optional = b.bool_setting(spec, "optional", True)

    def _env(self, pair: tuple[int, int]) -> list[Any]:
        env: list[Any] = [None] * self.env_slots
        env[0], env[1] = pair
        return env

    def _zones(self, s: "StateView", pair: tuple[int, int]) -> tuple[int, int]:
        env = self._env(pair)
        return self.zones[0](s, env), self.zones[1](s, env)

    # -- flow

    def enter(self, s: "StateView") -> bool:
        won = s.slices.get(Winners.block)
        table = self.when_table
        if won is None or not won.pairs:
            pairs: tuple[tuple[int, int], ...] = ()
        elif self.when_alone is not None:
            pairs = self._holding(s, won.pairs, self.when_alone)
        elif table is not None:
            pairs = tuple([p for p in won.pairs if table(s, p[0], p[1])])
        else:
            pairs = tuple([p for p in won.pairs if self.when(s, self._env(p))])
        if not pairs and not (s.decisions and s.decisions[-1].step == self.index):
            return False  # nobody decides, and no decision of this step to take off the stack
        return self._next(s, pairs)

    def _holding(self, s: "StateView", pairs: tuple[tuple[int, int], ...], known: list[bool | None]) -> tuple[tuple[int, int], ...]:
        """The pairs whose winner satisfies a ``when`` that reads only the winner: ``known`` keeps the answer per
        component and face (``component * faces + face``), worked out the first time it is asked."""
        face, faces, found = s.face, self.faces, []
        for pair in pairs:
            at = pair[0] * faces + face[pair[0]]
            holds = known[at]
            if holds is None:
                holds = known[at] = bool(self.when(s, self._env(pair)))
            if holds:
                found.append(pair)
        return tuple(found)

    def _next(self, s: "StateView", pending: tuple[tuple[int, int], ...]) -> bool:
        """Lend the decision to the next of the ``pending`` winners with something to exchange (the step's decision
        on top of the stack names it, and the winners still to decide); True while a decision is pending."""
        below = s.decisions[:-1] if s.decisions and s.decisions[-1].step == self.index else s.decisions
        while pending:
            give, take = self._zones(s, pending[0])
            if s.zones[give] and s.zones[take]:
                role = self.game.zone_owner[s.zone_of[pending[0][0]]]
                s.decisions = below + (Decision(self.index, str(role), pending),)
                s._actions = None
                return True
            pending = pending[1:]
        s.decisions = below
        return False

    def _pending(self, s: "StateView") -> tuple[tuple[int, int], ...]:
        """The winners still to decide, the one deciding now first."""
        return s.decisions[-1].data

    def actions(self, s: "StateView") -> ActionSpace:
        give, take = self._zones(s, self._pending(s)[0])
        options = [(a, b) for a in listed(s, give) for b in listed(s, take)]
        return ListSpace(self, ([KEEP] if self.optional else []) + options)

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        if args != KEEP:
            a, b = args
            said = f"{s.actor} {self.public_text_at(s, args).replace('exchange', 'exchanges', 1)}" if s.log is not None else ""
            s.swap(a, b)
            s.note(lambda: said)
        else:
            s.note(lambda: f"{s.actor} keeps things as they are")
        return not self._next(s, self._pending(s)[1:])

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``keep`` when optional, and ``exchange NAME for NAME`` for every two components (not listed past
        :data:`MOST_TEXTS`: 20,000 components make 400 million)."""
        every = names(game)
        keep = ["keep"] if self.optional else []
        if len(every) ** 2 > MOST_TEXTS:
            return Texts(tuple(keep), unlisted=f"which two components are exchanged ('exchange NAME for NAME'): "
                                               f"{len(every) ** 2:,} pairs, more than {MOST_TEXTS:,}")
        return Texts((*keep, *(f"exchange {a} for {b}" for a in every for b in every)))

    def public_text_at(self, s: "StateView", args: tuple[Any, ...]) -> str:
        """The exchange as the other seats and the log see it (``state.public_text``): a component lying where some
        seat does not see it, and going where some seat does not see it either (one hidden hand for another), by its
        kind and where it lies, ``exchange a card from hand of A for 3`` (3: seen before or after).

        Example: ``step.public_text_at(state, (a, b))`` is ``exchange 2 for 3-`` when either lies in the open.
        """
        if args == KEEP:
            return "keep"
        a, b = args
        return f"exchange {self._seen(s, a, s.zone_of[b])} for {self._seen(s, b, s.zone_of[a])}"

    def hides_now(self, s: "StateView") -> bool:
        """Whether the exchange waiting now swaps between two zones some seat does not see (two hidden hands): the
        other seats see it as :meth:`public_text_at` says, so the searches' trees split there."""
        give, take = self._zones(s, self._pending(s)[0])
        specs, board = self.game.zone_spec_of, self.game.board_zone
        return give != board and take != board and specs[give].hidden != "none" and specs[take].hidden != "none"

    def _seen(self, s: "StateView", c: int, to: int) -> str:
        """Component ``c`` by name when every seat sees it where it lies or where it goes (zone ``to``), else by kind
        and place."""
        g = self.game
        zone = s.zone_of[c]
        if zone == g.board_zone or to == g.board_zone or g.zone_spec_of[zone].hidden == "none" or g.zone_spec_of[to].hidden == "none":
            return g.piece_names[c]
        return f"a {g.component_kind[c]} from {g.zone_names[zone]}"

    def format(self, args: tuple[Any, ...]) -> str:
        if args == KEEP:
            return "keep"
        names = self.game.piece_names
        return f"exchange {names[args[0]]} for {names[args[1]]}"

    def describe(self) -> str:
        may = "may" if self.optional else "must"
        return (f"when the winning component (self, against other) satisfies {self.when_text}, its owner {may} "
                f"exchange one of {self.texts[0]} for one of {self.texts[1]} (each takes the other's place)")


BLOCK = declare(Block(
    "exchange",
    slices=(Winners,),
    steps={
        "exchange": {
            "description": ("After a contest, a winner whose card satisfies a condition may swap one component of "
                            "one zone with one of another (each takes the other's place)."),
            "$ref": "#/$defs/exchangeStep",
        },
    },
    defs={
        "exchangeStep": {
            "description": ("`exchange: {when: self.id == \"2-\", give: won(owner(self)), take: won(owner(other)), "
                            "optional: true}`: the winner's decision (`exchange A for B` or `keep`)."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "when": {
                    "description": ("Which winners get the choice: a condition on the winning component `self` and "
                                    "the one it beat, `other`."),
                    "$ref": "#/$defs/condition",
                    "examples": ["self.id == \"2-\""],
                },
                "give": {
                    "description": "The zone one component comes from (`self` and `other` bound).",
                    "$ref": "#/$defs/expression",
                    "examples": ["won(owner(self))"],
                },
                "take": {
                    "description": "The zone the other component comes from.",
                    "$ref": "#/$defs/expression",
                    "examples": ["won(owner(other))"],
                },
                "optional": {
                    "description": ("Whether the winner may keep things as they are (`keep`): true/false or an "
                                    "option name."),
                    "$ref": "#/$defs/flag",
                    "default": True,
                },
            },
            "required": ["when", "give", "take"],
            "additionalProperties": False,
        },
    },
))
