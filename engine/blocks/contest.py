"""Contests: the ``contest`` step, where two components fight for a prize, and the functions code calls to make any
two fight (``contest_winner``) or to read a fight's figures (``strength``, ``modifier_of``).

The rules they fight by (overrides, strength with modifiers, tie-breaks) are
declared once, by a ``contest:`` section or on the step, and kept in
:class:`~engine.blocks.contest_rules.ContestRules`.

Code makes any two components fight with ``contest_winner(a, b)`` (the
winner, or none when nobody wins; the fight is logged; programs only, since a
contest may roll dice).  With ``roll``, the dice of its last fight stay part of
``strength()`` until the next fight, so ``strength(w) - strength(l)`` is the
margin it was won by.  A ruleset without the section declares the rules on
its contest step, and ``contest_winner()`` fights by those.

The ``contest`` step: the components just revealed in each slot fight for that slot's prize.

Settings (all from YAML; with a ``contest:`` section, only ``in`` to ``void``, ``on_win`` and ``if``)::

    - contest:
        in: played               # a per-role zone laid out in slots; its newest row fights
        prizes: [prize_a, prize_b]  # one zone per slot: the winner takes its top component ...
        to: won                  # ... into their own per-role zone
        void: discard            # where a prize nobody wins goes (it leaves the game)
        strength: c.value        # base strength of a component c
        modifier: modifier       # a text attribute of effect-language code: what `self` adds to `target`
        beats: beats             # a text attribute: a condition on `self` and `other` -- self wins, whatever the strengths
        loses_to: loses_to       # a text attribute: a condition on `self` and `other` -- self loses, whatever the strengths
        symbol: sign             # an enum attribute: among equals, earlier values of its type win
        ties: [bonus, identical, symbol]   # the tie-breaks in order (or an option holding the list)
        on_win: on_win           # a text attribute: a program run when `self` wins (`other`, `margin` bound)
        roll: 6                  # each fighter adds a die of this many sides to its strength (0: none; or an option)

Any code may also read ``modifier_of(giver, target)``: what ``giver``'s
modifier code adds to ``target`` (0 when it has none), as the contest counts it,
and ``strength(c)``: c's strength as the contest computes it (``strength`` plus
every modifier in play).

>>> sorted(f.name for f in ADDED_FUNCTIONS)
['contest_winner', 'modifier_of', 'strength']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.card_code import CardCode, card_code
from engine.blocks.contest_rules import RULES, ContestRules, Rolls, compile_section
from engine.blocks.exchange import Winners
from engine.blocks.hooks import ToldAsHidden, label, told_at
from engine.blocks.slots import Revealed, _check_laid_out, _slot_row
from engine.blocks.steps import Step, step_kind
from engine.core.errors import EffectRuntimeError, SourcePos, did_you_mean
from engine.core.facedown import told_name
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY_COMPONENT, INT, Component
from engine.lang.budgets import refill

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.core.yamlsource import Mapping


@step_kind
class Contest(Step):
    """The ``contest`` step: the components played in a zone fight slot by slot (overrides, strength with modifiers,
    tie-breaks) and each slot's winner takes its prize to its ``to`` zone, its ``on_win`` effect run after.

    Built from, e.g., ``- contest: {in: played, prizes: [left, middle, right], to: won, strength: self.value}``.
    """
    kind = "contest"
    keys = ("if", "in", "prizes", "to", "void", "strength", "modifier", "beats", "loses_to", "symbol", "ties", "on_win", "roll")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        g = self.game = b.game
        self.slots = _slot_row(b, pos)
        self.zone = str(spec.get("in", ""))
        b.zone_ref(spec, "in")
        _check_laid_out(b, spec, "in", self.slots)
        self.prizes = self._prize_zones(b, spec)
        self.to = str(spec.get("to", ""))
        b.zone_ref(spec, "to")
        if self.to in g.zone_specs and not g.zone_specs[self.to].per_role:
            b.error(b.pos(spec, "to"), "'to' must be a per-role zone: the winner's own")
        self.void = b.zone_ref(spec, "void")
        self.won_zones = {role: i for (name, role), i in g.zone_index.items() if name == self.to}  # by the winner's role
        self.in_zone = {role: i for (name, role), i in g.zone_index.items() if name == self.zone and role is not None}
        none = CardCode((None,) * len(g.component_names), 2, fixed=True)
        self.on_win = card_code(b, str(spec["on_win"]), "", "other", b.pos(spec, "on_win"), program=True) if "on_win" in spec else none
        self.own_rules = "contest" not in b.tree  # else the section's rules, shared
        if self.own_rules:
            self.rules = ContestRules(b, spec, self.in_zone)
            if g.parts.get("contest") is None:
                g.parts["contest"] = self.rules  # the one strength() and contest_winner() read
        else:
            for key in RULES:
                if key in spec:
                    b.error(b.pos(spec, key), f"'{key}' is declared by the 'contest:' section: a contest step reads it from there",
                            "move it to the section, or remove it from the step")
            self.rules = g.parts["contest"]

    def _prize_zones(self, b: "BuildContext", spec: "Mapping") -> tuple[int, ...]:
        raw = spec.get("prizes") or []
        if not isinstance(raw, list) or len(raw) != len(self.slots.names):
            b.error(b.pos(spec, "prizes"), f"'prizes' must list one zone per slot ({len(self.slots.names)})")
            return ()
        zones = []
        for i, name in enumerate(raw):
            if (str(name), None) not in self.game.zone_index:
                b.error(b.pos(raw, i), f"'{name}' is not a shared zone", did_you_mean(str(name), self.game.zone_specs))
                zones.append(0)
            else:
                zones.append(self.game.zone_index[(str(name), None)])
        return tuple(zones)

    # -- flow

    def enter(self, s: "StateView") -> bool:
        try:
            return self._fight_row(s)
        except EffectRuntimeError as err:
            told_at(err, self.pos)  # a hidden fighter's or giver's own code failing: told at this step
            raise

    def _fight_row(self, s: "StateView") -> bool:
        """The revealed row fights, slot by slot: the winners take the prizes and run their win effects."""
        s.slices.pop(Winners.block, None)  # who won the last contest: read by the steps that follow it this turn
        revealed = s.slices.pop(Revealed.block, None)  # consumed: each revealed row fights once
        row = revealed.row if revealed else None
        if row is None:
            return False
        g, n, sides = self.game, len(self.slots.names), self.rules.sides
        lines = [] if s.log is not None else None
        winners: list[tuple[int, int]] = []
        zones, in_zone = s.zones, self.in_zone
        rows = [zones[in_zone[role]] for role in s.order]
        pair = rows if len(rows) == 2 else None  # the usual duel: its two fighters read without a comprehension
        rules, carries = self.rules, self.rules.modifier.fns
        givers = rules.givers_in_play(s)  # until a win effect runs or a prize carrying a modifier moves
        for slot in range(n):
            at = (row - 1) * n + slot
            if pair is not None and at < len(pair[0]) and at < len(pair[1]):
                fighters = [pair[0][at], pair[1][at]]
            else:
                fighters = [items[at] for items in rows if at < len(items)]
            if sides:
                s.slices[Rolls.block] = Rolls(tuple((c, s.roll(sides)) for c in fighters))
            known: dict[int, tuple[int, int, int]] = {}  # the strengths measured in this slot's fight (see ContestRules.measure)
            other, margin = None, 0  # the strongest component the winner beat (none: it fought nobody), and by how much
            if lines is None and len(fighters) == 2:  # the usual duel, nothing logged
                winner, margin = rules.quiet_duel(s, fighters[0], fighters[1], known, givers)
                other = fighters[1] if winner == fighters[0] else fighters[0]
            else:
                winner = self._winner(s, fighters, lines, known)
                if winner is not None and len(fighters) > 1:
                    other, margin = self._beaten(s, winner, fighters, known)
            prize = self._award(s, slot, winner, lines)
            if prize is not None and carries[prize] is not None:
                givers = rules.givers_in_play(s)
            if other is not None and winner is not None:
                winners.append((winner, other))
                if self.on_win.fns[winner] is not None:
                    if lines is not None:
                        lines.append(f"{g.piece_names[winner]} won by {margin}: its win effect runs" if told_name(s, winner) is None
                                     else f"{label(s, winner)} won: its win effect runs")
                        if s.log is not None:  # the fights so far go before what the effect logs
                            s.log.extend(lines)
                            lines.clear()
                    refill(s)
                    with ToldAsHidden(s, winner, "win effect of {}"):
                        self.on_win(s, winner, other, margin)
                    givers = rules.givers_in_play(s)
        s.slices.pop(Rolls.block, None)
        if winners:
            s.slices[Winners.block] = Winners(tuple(winners))
        if lines is not None and s.log is not None:
            s.log.extend(lines)
        return False

    def _winner(self, s: "StateView", fighters: list[int], lines: list[str] | None,
                known: dict[int, tuple[int, int, int]]) -> int | None:
        """The component that wins against every other one (None: nobody); each pair's fight is logged."""
        if len(fighters) == 1:
            return fighters[0]
        fight = self.rules.fight
        if len(fighters) == 2:  # the usual duel: its winner wins
            outcome = fight(s, fighters[0], fighters[1], self._slot_name(s, fighters[0]) if lines is not None else None, known)
            if lines is not None:
                lines.append(outcome.text)
            return outcome.winner
        beaten: dict[int, int] = {c: 0 for c in fighters}
        for i, a in enumerate(fighters):
            for b in fighters[i + 1:]:
                outcome = fight(s, a, b, self._slot_name(s, a) if lines is not None else None, known)
                if outcome.winner is not None:
                    beaten[outcome.winner] += 1
                if lines is not None:
                    lines.append(outcome.text)
        return next((c for c, wins in beaten.items() if wins == len(fighters) - 1), None)

    def _award(self, s: "StateView", slot: int, winner: int | None, lines: list[str] | None) -> int | None:
        """Move the top of ``slot``'s prize pile to the winner's zone (nobody: the void); the prize moved, if any."""
        if not self.prizes or not s.zones[self.prizes[slot]]:
            return None
        prize = s.zones[self.prizes[slot]][0]
        seen = lines is None or told_name(s, prize) is None  # every seat saw it, or sees it where it goes: named
        if winner is None:
            s.move(prize, self.void(s))
            if lines is not None:
                named = self.game.piece_names[prize] if seen or told_name(s, prize) is None else "a component"
                lines.append(f"{self.slots.names[slot]}: nobody wins {named}; it goes to the {self.void.name}")
            return prize
        role = self.game.zone_owner[s.zone_of[winner]]
        s.move(prize, self.won_zones[role])
        if lines is not None:
            named = self.game.piece_names[prize] if seen or told_name(s, prize) is None else "a component"
            lines.append(f"{self.slots.names[slot]}: {role} wins {named}")
        return prize

    def _beaten(self, s: "StateView", winner: int, fighters: list[int], known: dict[int, tuple[int, int, int]]) -> tuple[int, int]:
        """The strongest component the winner beat, and the strength it won by (the strengths the fight compared)."""
        measure = self.rules.measure
        if len(fighters) == 2:  # the usual duel (measured in the fighters' order, as below)
            first, second = (v[0] for v in self.rules.measure_both(s, fighters[0], fighters[1], known))
            return (fighters[1], first - second) if winner == fighters[0] else (fighters[0], second - first)
        strength = {c: measure(s, c, known)[0] for c in fighters}
        other = max((c for c in fighters if c != winner), key=lambda c: strength[c])
        return other, strength[winner] - strength[other]

    def _slot_name(self, s: "StateView", c: int) -> str:
        found = self.slots.where(s, c)
        return self.slots.names[found[1] % len(self.slots.names)] if found else "?"

    def details(self) -> list[str]:
        lines = self.rules.details() if self.own_rules else []
        return lines + [f"when {name} wins (against other, by margin): {text}" for name, text in self.on_win.texts]

    def describe(self) -> str:
        return ("in each slot the components just revealed fight for the top of that slot's prize pile: "
                + self.rules.describe() + f"; the winner takes the prize into their {self.to}, otherwise it goes to the {self.void.name}")


# ---------------------------------------------------------------- the effect-language function


class Strength(Function):
    """``strength(c)``: a component's strength as the ruleset's contest step computes it.

    Only a ruleset whose turn has a contest step offers it.

    >>> ADDED_FUNCTIONS[0].signature
    'strength(COMPONENT) -> int'
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        arg = self.value(scope, args[0], ANY_COMPONENT, "component") if args else Compiled(ANY_COMPONENT, lambda s, e: None)
        f = arg.fn

        pos = call.pos

        def run(s: Any, e: list[Any]) -> int:
            c, contest = f(s, e), s.game.parts.get("contest")
            try:
                return 0 if c is None or contest is None else contest.computed(s, c)
            except EffectRuntimeError as err:
                told_at(err, pos)  # a hidden component's modifier: told here
                raise

        return Compiled(INT, run)

    def describe(self, call: ast.Call) -> str:
        return f"the strength of {call.args[0].describe() if call.args else '?'} in the contest"


class ModifierOf(Function):
    """``modifier_of(giver, target)``: what the giver's modifier code adds to the target, as the contest counts it.

    >>> [f.signature for f in ADDED_FUNCTIONS if f.name == "modifier_of"]
    ['modifier_of(COMPONENT, COMPONENT) -> int']
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) != 2:
            return Compiled(INT, lambda s, e: 0)
        giver = self.value(scope, args[0], ANY_COMPONENT, "component").fn
        target = self.value(scope, args[1], ANY_COMPONENT, "component").fn

        pos = call.pos

        def run(s: Any, e: list[Any]) -> int:
            g, t, contest = giver(s, e), target(s, e), s.game.parts.get("contest")
            try:
                return 0 if g is None or t is None or contest is None else contest.given(s, g, t)
            except EffectRuntimeError as err:
                told_at(err, pos)  # a hidden component's modifier: told here
                raise

        return Compiled(INT, run)

    def describe(self, call: ast.Call) -> str:
        giver, target = (a.describe() for a in call.args[:2]) if len(call.args) >= 2 else ("?", "?")
        return f"what {giver} adds to the strength of {target}"


class ContestWinner(Function):
    """``contest_winner(a, b)``: the two components fight once under the ruleset's contest rules; the winner, or none.

    >>> [f.signature for f in ADDED_FUNCTIONS if f.name == "contest_winner"]
    ['contest_winner(COMPONENT, COMPONENT) -> component']
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if scope.pure:
            scope.error(call.pos, "contest_winner() can't be used in a condition or score: a contest is an event of "
                        "the game (it is logged, and with 'roll' or a 'reroll' tie-break it rolls dice)",
                        "run the contest in a program (setup, a do step's effect) and keep the winner with 'let'; "
                        "strength() and modifier_of() read a contest's figures anywhere")
        if len(args) != 2:
            return Compiled(ANY_COMPONENT, lambda s, e: None)
        a = self.value(scope, args[0], ANY_COMPONENT, "first component")
        b = self.value(scope, args[1], ANY_COMPONENT, "second component")
        fa, fb = a.fn, b.fn

        pos = call.pos

        def run(s: Any, e: list[Any]) -> int | None:
            x, y, contest = fa(s, e), fb(s, e), s.game.parts.get("contest")
            try:
                return None if x is None or y is None or x == y or contest is None else contest.duel(s, x, y)
            except EffectRuntimeError as err:
                told_at(err, pos)  # a hidden fighter's or giver's own code: told here
                raise

        return Compiled(a.type if a.type == b.type and isinstance(a.type, Component) else ANY_COMPONENT, run)

    def describe(self, call: ast.Call) -> str:
        a, b = (x.describe() for x in call.args[:2]) if len(call.args) >= 2 else ("?", "?")
        return f"the winner of a contest between {a} and {b}"


ADDED_FUNCTIONS = (
    Strength("strength", "strength(COMPONENT) -> int",
             "A component's strength as the contest step computes it: its base strength plus every modifier in play. "
             "Inside a modifier it reads one level deep (see the contest step).",
             "sum(strength(o) for o in slot_facing(self))"),
    ModifierOf("modifier_of", "modifier_of(COMPONENT, COMPONENT) -> int",
               "What the first component's modifier code adds to the second's strength in the contest (0 when it has none).",
               "modifier_of(o, self) < 0"),
    ContestWinner("contest_winner", "contest_winner(COMPONENT, COMPONENT) -> component",
                  ("Two components fight once, wherever they lie, under the contest's rules (the 'contest:' section, or the "
                   "contest step's): overrides, strength with modifiers, tie-breaks; the fight is logged. The winner, or none "
                   "when nobody wins. In programs only: a contest is an event of the game (logged, and it may roll dice)."),
                  "contest_winner(first(deck(North)), first(deck(South)))"),
)


RULE_SCHEMA: dict[str, Any] = {
    "strength": {
        "description": "A component's base strength; `c` is the component.",
        "$ref": "#/$defs/expression",
        "examples": ["c.value"],
    },
    "modifier": {
        "description": ("A text attribute holding a number in the effect language: what the component "
                        "`self` adds to the strength of `target` (any component in play)."),
        "type": "string",
        "examples": ["modifier"],
    },
    "beats": {
        "description": ("A text attribute holding a condition on `self` and `other`: self wins, "
                        "whatever the strengths."),
        "type": "string",
        "examples": ["beats"],
    },
    "loses_to": {
        "description": ("A text attribute holding a condition on `self` and `other`: self loses, "
                        "whatever the strengths."),
        "type": "string",
        "examples": ["loses_to"],
    },
    "symbol": {
        "description": ("An attribute of a declared type: among equals, earlier values of its type win "
                        "(the `symbol` tie-break)."),
        "type": "string",
        "examples": ["sign"],
    },
    "ties": {
        "description": ("The tie-breaks in order, among `bonus` (greater sum of modifiers), `identical` "
                        "(same id: nobody wins), `symbol`, `reroll` (the tied components roll their die again until one "
                        "is higher); or an option name."),
        "type": ["array", "string"],
        "items": {"enum": ["bonus", "identical", "symbol", "reroll"]},
        "examples": [["bonus", "identical", "symbol"], "tie_order"],
    },
    "roll": {
        "description": ("Each component fighting rolls a die of this many sides and adds it to its strength "
                        "(0: none); or an option name."),
        "type": ["integer", "string"],
        "examples": [6, "bonus_die"],
    },
}
"""The JSON Schema of each setting of :data:`RULES`, shared by the step and the section."""


BLOCK = declare(Block(
    "contest",
    slices=(Rolls,),
    keys={
        "contest": {
            "description": ("How two components fight, declared once for the `contest` steps and `contest_winner(a, b)`: "
                            "strength with modifiers, overrides, tie-breaks."),
            "$ref": "#/$defs/contestRules",
        },
    },
    steps={
        "contest": {
            "description": ("In each slot, the components just revealed fight for that slot's prize: overrides, "
                            "strength with modifiers, then tie-breaks."),
            "$ref": "#/$defs/contestStep",
        },
    },
    defs={
        "contestRules": {
            "description": ("`contest: {strength: c.value, modifier: A, in_play: [board], beats: A, loses_to: A, "
                            "symbol: A, ties: [bonus, reroll], roll: 6}`: the rules every contest fights by."),
            "type": "object",
            "properties": {
                **RULE_SCHEMA,
                "in_play": {
                    "description": ("The zones whose components' `modifier`s count (every role's instance of a "
                                    "per-role zone); needed with `modifier`."),
                    "type": "array",
                    "items": {"$ref": "#/$defs/zoneName"},
                    "examples": [["board"], ["played"]],
                },
            },
            "additionalProperties": False,
        },
        "contestStep": {
            "description": ("`contest: {in: played, prizes: [p1, p2, p3], to: won, void: discard, strength: "
                            "c.value, modifier: A, beats: A, loses_to: A, symbol: A, ties: [bonus, identical, "
                            "symbol], on_win: A}`."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "in": {
                    "description": "The per-role zone laid out in slots whose newest row fights, slot by slot.",
                    "$ref": "#/$defs/zoneName",
                },
                "prizes": {
                    "description": "One shared zone per slot: the slot's winner takes its top component.",
                    "type": "array",
                    "items": {"$ref": "#/$defs/zoneName"},
                },
                "to": {"description": "The per-role zone a won prize goes to.", "$ref": "#/$defs/zoneName"},
                "void": {"description": "The zone a prize nobody wins goes to.", "$ref": "#/$defs/zoneName"},
                **{key: RULE_SCHEMA[key] for key in ("strength", "modifier", "beats", "loses_to", "symbol", "ties")},
                "on_win": {
                    "description": ("A text attribute holding an effect-language program run when the component "
                                    "`self` wins, after the prize is taken; `other` is the strongest loser, "
                                    "`margin` the strength it won by."),
                    "type": "string",
                    "examples": ["on_win"],
                },
                "roll": RULE_SCHEMA["roll"],
            },
            "required": ["in", "prizes", "to", "void"],
            "additionalProperties": False,
        },
    },
    functions=ADDED_FUNCTIONS,
    compile=compile_section,
    usage="a 'contest' step in the turn or a 'contest:' section in the ruleset",
))
