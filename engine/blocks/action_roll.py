"""The ``action_roll`` step: roll some dice, then use one component's action numbered as one of them.

::

    - action_roll:
        actors: c in crew(current_role) where alive(c)    # who may act
        actions: actions            # the table attribute of numbered actions (see engine.blocks.numbered)
        source: action              # where the damage and statuses the actions deal come from
        dice:
          low: {}                                    # any action numbered as the low die (a d6)
          high:                                      # or an action flagged `break: true` numbered as the high die,
            only: break                              #   which first runs the bonus
            bonus: |
              heal(self, 20)
              dispel(self)
        strengths: strengths        # a table attribute: [{vs: CONDITION, do: PROGRAM, text: ...}], after the action

The dice are rolled when the step begins (and shown); the decision is which
action, by which die: ``low: Scout 3 Quick Cut``.  Then, in one effect
(which may ``choose`` targets): the die's ``bonus`` (``self`` is the actor),
the actor's statuses' ``on_act`` hooks (``cancel()`` makes the action fail),
the action's ``do`` — unless it failed or the actor's meter is at 0 — and then,
for each component the action damaged, each strength bonus whose ``vs``
holds (``self`` the actor, ``target`` the damaged one).  With no actor or no
usable action the step passes.

>>> ActionRoll.keys
('if', 'actors', 'actions', 'source', 'dice', 'strengths')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from engine.blocks.block import Block, declare
from engine.blocks.choices import run_effect
from engine.blocks.enumeration import Texts, distinct
from engine.blocks.hooks import Hook, compile_hook, label, reach_of
from engine.blocks.meters import MeterWork, instance_tables, meter_work
from engine.blocks.numbered import ENTRY_KEYS, ActionTable, action_table
from engine.blocks.statuses import Attempt, hook_reach, run_hook
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace, normalise
from engine.core.decisions import Die as DieResults
from engine.core.decisions import fair_die
from engine.core.errors import SourcePos, did_you_mean
from engine.core.limits import whole_key
from engine.core.yamlsource import Mapping
from engine.lang.defined import parse_selection
from engine.lang.functions import as_selection
from engine.lang.scope import Fn, Scope
from engine.lang.types import ANY_COMPONENT, Component

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping as MappingT


class Roll(NamedTuple):
    """The action roll's slice of the state."""

    dice: tuple[tuple[str, int], ...] | None = None  # the dice rolled for the decision at hand, as (name, value) pairs
    acting: tuple[int, int] | None = None  # (actor, number) while an action's code runs (delay() reads it)
    block = "action_roll"
    saved = ("dice", "acting")


NO_ROLL = Roll()


def rolled(s: "StateView") -> Roll:
    """The action roll's slice of ``s`` (empty when there is none)."""
    return s.slices.get(Roll.block, NO_ROLL)


@dataclass(frozen=True)
class Die:
    """One die of the roll: its sides, the flag an action needs to be used with it, its bonus."""

    name: str
    sides: int = 6
    only: str | None = None
    bonus: Hook | None = None


@dataclass(frozen=True)
class Strength:
    """A bonus after an action, against each component it damaged that satisfies ``vs``."""

    vs: tuple[Fn, int]
    do: Hook
    text: str


@step_kind
class ActionRoll(Step):
    """The ``action_roll`` step: dice are rolled and one actor uses the action its attribute numbers as a die shows
    (a die may require a flag of the actor and give a bonus); the player picks which actor and which die.

    Built from, e.g., ``- action_roll: {actors: units(current_role), actions: moves, dice: [first, second]}``.
    """
    kind = "action_roll"
    keys = ("if", "actors", "actions", "source", "dice", "strengths")

    def __init__(self, index: int, spec: "MappingT", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.source = str(spec["source"]) if "source" in spec else None
        self.actors, self.actors_text = _selection(b, spec, "actors")
        self.table: ActionTable = action_table(b, str(spec.get("actions", "")), self.source, True, b.pos(spec, "actions"))
        self.dice = self._dice(b, spec)
        self._check_table(b, str(spec.get("actions", "")))
        self.names = tuple(die.name for die in self.dice)
        self._usable: dict[int, tuple[frozenset[int], ...]] = {}  # see _usable_of
        self.strengths = self._strengths(b, spec)

    def _dice(self, b: "BuildContext", spec: "MappingT") -> tuple[Die, ...]:
        raw = spec.get("dice")
        if not isinstance(raw, Mapping) or not raw:
            b.error(b.pos(spec, "dice"), "'dice' must name the dice, like {low: {}, high: {only: break}}")
            return (Die("die"),)
        dice = []
        for name, die in raw.items():
            die = die if isinstance(die, Mapping) else Mapping(raw.pos_of(name))
            b.unknown_keys(die, ("sides", "only", "bonus"), f"die '{name}'")
            bonus = None
            if "bonus" in die:
                bonus = compile_hook(b, die["bonus"], die.pos_of("bonus"), {"self": ANY_COMPONENT}, self.source)
            dice.append(Die(str(name), b.int_setting(die, "sides", 6) or 6, str(die["only"]) if "only" in die else None, bonus))
        return tuple(dice)

    def _check_table(self, b: "BuildContext", attribute: str) -> None:
        """What the dice can never read is an error where it is written: an action numbered above every die's
        sides, a flag (``break: true``) no die asks for with ``only``."""
        top = max(die.sides for die in self.dice)
        wanted = sorted({die.only for die in self.dice if die.only is not None})
        for _, raw, _ in instance_tables(b, attribute):
            for key in raw if isinstance(raw, Mapping) else ():
                if (whole_key(key) or 0) > top:
                    b.error(raw.key_pos.get(key), f"no die can roll {key}: the dice of this step roll 1 to {top}",
                            f"number the actions 1 to {top}, or give a die more 'sides'")
                entry = raw[key]
                for flag, value in entry.items() if isinstance(entry, Mapping) else ():
                    if flag not in ENTRY_KEYS and isinstance(value, bool) and flag not in wanted:
                        b.error(entry.key_pos.get(flag), f"no die of this step asks for the flag '{flag}'",
                                did_you_mean(str(flag), wanted) or f"the flags its dice ask for: {', '.join(wanted) or 'none'}")

    def _strengths(self, b: "BuildContext", spec: "MappingT") -> dict[int, tuple[Strength, ...]]:
        attribute = str(spec.get("strengths", ""))
        if "strengths" not in spec:
            return {}
        if b.game.attribute_types.get(attribute) != "table":
            b.error(b.pos(spec, "strengths"), f"'strengths' must name a table attribute listing strength bonuses, not '{attribute}'")
            return {}
        found: dict[int, tuple[Strength, ...]] = {}
        for cids, raw, where in instance_tables(b, attribute):
            entries = []
            for i, entry in enumerate(raw if isinstance(raw, list) else []):
                if not isinstance(entry, Mapping) or "vs" not in entry or "do" not in entry:
                    b.error(b.pos(raw, i), "a strength bonus is {vs: CONDITION on target, do: PROGRAM, text: ...}")
                    continue
                b.unknown_keys(entry, ("vs", "do", "text"), "a strength bonus")
                actor = Component(b.game.component_kind[cids[0]]) if cids else ANY_COMPONENT
                bind = {"self": actor, "target": ANY_COMPONENT}
                vs, slots = b.expression(entry["vs"], "bool", bind=bind, pos=entry.pos_of("vs"))
                do = compile_hook(b, entry["do"], entry.pos_of("do"), bind, self.source)
                text = " ".join(str(entry.get("text") or "").split()) or f"against {b.describe(entry['vs'])}: {do.words}"
                entries.append(Strength((vs.fn, slots), do, text))
            if not isinstance(raw, list):
                b.error(where, "strength bonuses are a list of {vs: CONDITION, do: PROGRAM}")
            for cid in cids:
                found[cid] = tuple(entries)
        return found

    # -- the decision

    def _options(self, s: "StateView", actors: list[Any] | None = None,
                 numbers: list[int | None] | None = None) -> list[tuple[int, int, int]]:
        """(die, actor, number) for every action the dice allow now (``actors``: who may act, ``numbers``: each die's
        number, if already known)."""
        if numbers is None:
            dice = dict(rolled(s).dice or ())
            numbers = [dice.get(die.name) for die in self.dice]
        if actors is None:
            actors = self.actors(s)
        usable, out = self._usable, []
        for i, number in enumerate(numbers):
            key = number or 0
            for actor in actors:
                found = usable.get(actor) or self._usable_of(actor)
                if key in found[i]:
                    out.append((i, actor, number))
        return out

    def _usable_of(self, actor: int) -> tuple[frozenset[int], ...]:
        """For each die, the numbers of ``actor``'s actions it may pick (kept once worked out)."""
        actions = self.table.of(actor)
        found = self._usable[actor] = tuple(
            frozenset(n for n, action in actions.items() if die.only is None or die.only in action.flags) for die in self.dice)
        return found

    def chances(self, s: "StateView") -> tuple[DieResults, ...]:
        """Every die, each result equally likely (none when nobody may act: nothing is rolled)."""
        return tuple(fair_die(die.sides) for die in self.dice) if self.actors(s) else ()

    def enter(self, s: "StateView") -> bool:
        actors = self.actors(s)
        if not actors:
            return False
        numbers: list[int | None] = [s.roll(die.sides) for die in self.dice]
        dice = tuple(zip(self.names, numbers))
        s.slices[Roll.block] = Roll(dice, rolled(s).acting)
        s.note(lambda: f"{s.current_role} rolls " + ", ".join(f"{name} {value}" for name, value in dice))
        options = self._options(s, actors, numbers)  # a condition cannot read the dice: rolling them changes no actor
        if not options:
            s.note(lambda: "no action can be used")
            s.slices[Roll.block] = Roll(None, rolled(s).acting)
            return False
        s.listed(ListSpace(self, options))  # the decision waits on these: not worked out again
        return True

    def actions(self, s: "StateView") -> ActionSpace:
        return ListSpace(self, self._options(s))

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        return run_effect(s, self.index, ("act", *args), [])

    def effect(self, key: Any) -> Fn:
        _, die, actor, number = key
        return lambda s, e: self._act(s, self.dice[die], actor, number)

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        """What the die's bonus, the statuses' ``on_act``, the action and the actor's strengths may do."""
        _, die, actor, number = key
        action = self.table.of(actor).get(number)
        codes = [self.dice[die].bonus, action.do if action else None, *(st.do for st in self.strengths.get(actor, ()))]
        return reach_of(codes) | hook_reach(game, "on_act")

    def _act(self, s: "StateView", die: Die, actor: int, number: int) -> None:
        action = self.table.of(actor)[number]
        if Roll.block in s.slices:
            s.slices[Roll.block] = Roll(None, rolled(s).acting)
        s.note(lambda: f"{label(s, actor)} uses {number} {action.name} ({die.name} die)")
        if die.bonus is not None:
            die.bonus.run(s, actor)
        s.slices[Attempt.block] = Attempt(False)
        run_hook(s, actor, "on_act", pos=self.pos)
        failed = s.slices.pop(Attempt.block).failed
        if failed or not _standing(s, actor) or action.do is None:
            return
        s.slices[Roll.block] = Roll(rolled(s).dice, (actor, number))
        work = meter_work(s)
        s.slices[MeterWork.block] = MeterWork(work.depth, (), work.defeats)
        action.do.run(s, actor)
        work = meter_work(s)
        hits = work.hits
        s.slices[MeterWork.block] = MeterWork(work.depth, None, work.defeats)
        s.slices[Roll.block] = Roll(rolled(s).dice, None)
        seen: list[int] = []
        for target, source in hits:
            if source == self.source and target not in seen:
                seen.append(target)
        for target in seen:
            for strength in self.strengths.get(actor, ()):
                fn, slots = strength.vs
                env: list[Any] = [None] * slots
                env[0], env[1] = actor, target
                if fn(s, env):
                    s.note(lambda: f"{label(s, actor)}'s strength: {strength.text}")
                    strength.do.run(s, actor, target)

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``DIE: NAME NUMBER ACTION`` for every die and every numbered action a component has that the die may pick."""
        return Texts(distinct(
            self.format((i, actor, number))
            for i, die in enumerate(self.dice)
            for actor in sorted(self.table.by_component)
            for number, action in sorted(self.table.of(actor).items())
            if die.only is None or die.only in action.flags
        ))

    def format(self, args: tuple[Any, ...]) -> str:
        die, actor, number = args
        return f"{self.dice[die].name}: {self.game.piece_names[actor]} {number} {self.table.of(actor)[number].name}"

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return (args[1],)

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        """An action written without its die (``Hero 1 Strike``, as the log names it): which die to write first."""
        written = normalise(text)
        dice = [str(a).split(": ", 1)[0] for a in s.legal_actions() if normalise(str(a).split(": ", 1)[-1]) == written]
        if not dice:
            return None
        whole = " or ".join(f"'{die}: {text.strip()}'" for die in dice)
        return f"'{text.strip()}' names no die: write {whole}" + (" (either die may pick it)" if len(dice) > 1 else "")

    def situation(self, s: "StateView") -> list[str]:
        dice = rolled(s).dice
        return ["dice: " + ", ".join(f"{name} {value}" for name, value in dice)] if dice else []

    def describe(self) -> str:
        dice = []
        for die in self.dice:
            text = f"any action numbered as the {die.name} d{die.sides}" if die.only is None else \
                f"an action marked '{die.only}' numbered as the {die.name} d{die.sides}"
            if die.bonus is not None:
                text += f", which first does: {die.bonus.words}"
            dice.append(text)
        return f"roll the dice; one {self.actors_text} uses " + "; or ".join(dice)

    def describe_component(self, cid: int) -> list[str]:
        lines = []
        for number, action in sorted(self.table.of(cid).items()):
            dice = [die.name for die in self.dice if die.only is None or die.only in action.flags]
            flags = "".join(f" [{flag}]" for flag in sorted(action.flags))
            lines.append(f"{number}{flags} {action.describe()} (with the {' or '.join(dice)} die)")
        lines += [f"strength: {strength.text}" for strength in self.strengths.get(cid, ())]
        return lines

    def details(self) -> list[str]:
        return ["then the actor's statuses' on_act hooks run (a hook that cancels makes the action fail); then the action; "
                "then its strength bonuses against each component it damaged"]


def _standing(s: "StateView", cid: int) -> bool:
    """Whether a component can still act: its meter (if any) is not at the bottom."""
    meter = s.game.parts.get("meter")
    i = meter.counter.index_of(cid) if meter else None
    return i is None or s.counters[i] > 0


def _selection(b: "BuildContext", spec: "MappingT", key: str) -> tuple[Callable[[Any], list[Any]], str]:
    """A selection setting (``c in crew(current_role) where alive(c)``): the closure listing its items, and its English."""
    node = parse_selection(b, spec.get(key, ""), b.pos(spec, key))
    if node is None:
        return (lambda s: []), ""
    scope = Scope(b.game.vocab, b.sink)
    scope.pure = True
    sel = as_selection(node)
    parts = sel.compile_parts(scope)
    items, slots = parts.items, max(scope.slots, 1)
    return (lambda s: items(s, [None] * slots)), sel.describe() if sel.var != "_" else node.describe()


BLOCK = declare(Block(
    "action_roll",
    slices=(Roll,),
    steps={
        "action_roll": {
            "description": ("Roll dice; one actor uses its action numbered as one of them (a die may require a flag "
                            "and give a bonus)."),
            "$ref": "#/$defs/actionRollStep",
        },
    },
    defs={
        "actionRollStep": {
            "description": ("`action_roll: {actors: SELECTION, actions: ATTRIBUTE, source: SOURCE, dice: {NAME: "
                            "{...}}, strengths: ATTRIBUTE}`: roll the dice, then one actor uses its action numbered "
                            "as one of them (`light: Scout 3 Quick Cut`). The die's bonus, the actor's statuses' "
                            "`on_act` hooks (`cancel()` makes it fail), the action, then its strength bonuses, all "
                            "in one effect that may `choose`."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "actors": {
                    "description": "Who may act: a selection such as `c in crew(current_role) where alive(c)`.",
                    "type": "string",
                },
                "actions": {
                    "description": ("The `table` attribute holding each component's numbered actions: `{1: {name: "
                                    "..., do: PROGRAM, later: PROGRAM, text: ..., FLAG: true}, ...}`."),
                    "type": "string",
                    "examples": ["actions"],
                },
                "source": {
                    "description": ("The source of the damage, healing and statuses the actions' code deals (a "
                                    "value of the meter's `sources` type)."),
                    "type": "string",
                    "examples": ["action"],
                },
                "dice": {
                    "description": "The dice, by name, in order; each allows the actions numbered as its roll.",
                    "type": "object",
                    "minProperties": 1,
                    "additionalProperties": {
                        "description": "One die.",
                        "type": ["object", "null"],
                        "properties": {
                            "sides": {
                                "description": "How many sides. A number or an option name.",
                                "$ref": "#/$defs/count",
                                "default": 6,
                            },
                            "only": {
                                "description": "A flag an action must have (`break: true`) to be used with this die.",
                                "type": "string",
                                "examples": ["break"],
                            },
                            "bonus": {
                                "description": ("A program run first when an action is used with this die (`self` "
                                                "is the actor)."),
                                "$ref": "#/$defs/program",
                            },
                        },
                        "additionalProperties": False,
                    },
                },
                "strengths": {
                    "description": ("The `table` attribute holding each component's strength bonuses: a list of "
                                    "`{vs: CONDITION, do: PROGRAM, text: ...}`, run after the action for each "
                                    "component it damaged (`self` the actor, `target` the damaged one)."),
                    "type": "string",
                    "examples": ["strengths"],
                },
            },
            "required": ["actors", "actions", "dice"],
            "additionalProperties": False,
        },
    },
))
