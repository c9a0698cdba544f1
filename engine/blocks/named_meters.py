"""Named meters: as many tracks as a ruleset wants, each carried by every role or every component of a kind.

A ruleset lists them under ``meters:``; each is a counter (read ``NAME(x)``,
changed with ``=``, ``+=``, ``-=``) drawn as a track, with special tiles
given as data and thresholds whose code runs when a change crosses them::

    meters:
      resolve:
        per: role                  # or a component kind: one track per component
        start: 5
        min: 0                     # the default
        max: 8
        tiles: {6: rally 1}        # one mapping for every carrier, or a `table` attribute of each component
        sources: cause             # the type saying where a change comes from (optional)
        kinds:
          rally: {on_heal: "gain(resolve(self), value, by = by)"}
        thresholds:
          - {below: 3, text: the side wavers, do: "lose(resolve(self), 1, source)"}

``gain(METER(X), N [, SOURCE] [, by = WHO])`` and ``lose(...)`` move the
marker (within ``min``..``max``): the special tile where it stops reacts
(``on_heal`` for a gain, ``on_damage`` for a loss; its code reads ``self``,
``by``, ``source``, ``amount`` and ``value``), then the thresholds the
change crosses run (see :mod:`engine.blocks.thresholds`).  An assignment
(``resolve(r) -= 2``) sets the value: no tile reacts, the thresholds it crosses run;
so do a step's own changes (an ``advance`` moving markers that are a meter, a cast's payment).
Without a third argument the source is the one the block running the code
declares (an action's), else none.  The meter ``damage`` and ``heal`` move
stays the ``meter:`` section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from engine.blocks.block import Block, declare
from engine.blocks.counters import CounterOf, CounterSpec, PastLimit, owner_type, read_bound
from engine.blocks.hooks import SOURCE_LOCAL, local_reader
from engine.blocks.meters import Meter, attacker_of, read_track, shift, watcher
from engine.core.errors import did_you_mean
from engine.core.yamlsource import Mapping
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, EFFECT, INT, Enum, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext

KEYS = ("per", "start", "min", "max", "doc", "tile", "tiles", "sources", "kinds", "thresholds")


def declare_meters(b: "BuildContext") -> None:
    """Each entry of ``meters:`` as a counter of its carriers (before any code is compiled, so code can read it)."""
    g = b.game
    meters: dict[str, Meter] = {}
    offset = sum(len(c.owners) for c in g.counters.values())
    past = PastLimit()  # the meters past the counter_values limit, told once
    for name, spec, pos in b.named_entries("meters", "meter", "{per: role, start: 5, max: 8}",
                                             "read per owner ({n}(r))"):
        b.unknown_keys(spec, KEYS, f"meter '{name}'")
        if name in g.counters:
            b.error(pos, f"meter '{name}' has the name of a counter; a meter is a counter of its own, so give it another name")
            continue
        per = str(spec.get("per", ""))
        if per != "role" and per not in g.kinds:
            b.error(b.pos(spec, "per"), f"a meter is carried by 'role' or a component kind, not '{per}'",
                    did_you_mean(per, ["role", *g.kinds]))
            continue
        owners: tuple[Any, ...] = (g.roles.values if g.roles else ()) if per == "role" else tuple(g.kinds[per])
        if not past.fits(offset, len(owners), pos, f"meter '{name}'"):
            continue
        counter = g.counters[name] = CounterSpec(name, per, offset, owners, doc=str(spec.get("doc") or ""))
        offset += len(owners)
        meters[name] = Meter(counter, b.int_setting(spec, "tile", 1) or 1, _source_type(b, spec), cause="by",
                             summary=summary(spec))
        if spec.get("thresholds"):  # a meter without thresholds is not watched: its changes cost nothing more
            counter.watch = watcher(meters[name])
    past.tell(b)
    g.parts["meters"] = meters


def summary(spec: Mapping) -> str:
    """A meter's carriers and range as written, for explain.

    >>> summary({"per": "role", "start": 5, "max": 8})
    'one per role, starting at 5, within 0..8'
    >>> summary({"per": "unit", "start": "self.toughness", "max": "self.toughness"})
    'one per unit, starting at self.toughness, within 0..self.toughness'
    """
    top = f"..{spec['max']}" if "max" in spec else " and up"
    return f"one per {spec.get('per')}, starting at {spec.get('start', 0)}, within {spec.get('min', 0)}{top}"


def _source_type(b: "BuildContext", spec: Mapping) -> Type:
    """The type a meter's changes name their source with (any value when the meter does not say)."""
    if "sources" not in spec:
        return ANY
    name = str(spec["sources"])
    if name not in b.game.types:
        b.error(b.pos(spec, "sources"), f"unknown type '{name}'", did_you_mean(name, b.game.types))
        return ANY
    return Enum(name)


def compile_meters(b: "BuildContext") -> None:
    """Each meter's bounds, tile kinds, special tiles and thresholds (once the vocabulary exists, before other blocks' code)."""
    b.game.vocab.data["meters"] = b.game.parts.get("meters") or {}
    tree = b.tree.get("meters") or {}
    for name, meter in (b.game.parts.get("meters") or {}).items():
        spec, counter = tree[name], meter.counter
        self_type = owner_type(counter, Scope(b.game.vocab))
        counter.start = read_bound(b, spec, "start", self_type) or (lambda s, owner: 0)
        counter.low = read_bound(b, spec, "min", self_type) or (lambda s, owner: 0)
        counter.high = read_bound(b, spec, "max", self_type)
        read_track(b, meter, spec, f"meter '{name}'", named=True)


# ------------------------------------------------------------------ the functions


@dataclass(frozen=True)
class MeterShift(Function):
    """``gain(METER(X), N [, SOURCE] [, by = WHO])`` and ``lose(...)``: move a carrier's marker up or down its meter."""

    down: bool = False

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = call.positional()
        if not 2 <= len(args) <= 3:
            scope.error(call.pos, f"{self.name}() takes 2 or 3 arguments, not {len(args)}", f"usage: {self.signature}")
            return Compiled(EFFECT, lambda s, e: None)
        found = meter_of(self, scope, args[0])
        amount = self.value(scope, args[1], INT, "amount").fn
        if found is None:
            return Compiled(EFFECT, lambda s, e: None)
        meter, index = found
        source = self.value(scope, args[2], meter.source_type, "source").fn if len(args) == 3 else local_reader(scope, SOURCE_LOCAL)
        by = attacker_of(self, scope, call, ANY)
        down, pos = self.down, call.pos

        def move(s: Any, e: list[Any]) -> None:
            shift(s, meter, index(s, e), amount(s, e), source(s, e), by(s, e), down, pos)

        return Compiled(EFFECT, move)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) < 2:
            return self.name
        source = f" ({args[2].describe()})" if len(args) == 3 else ""
        return f"{'lower' if self.down else 'raise'} {args[0].describe()} by {args[1].describe()}{source}"


def meter_of(fn: Function, scope: Scope, node: ast.Node) -> tuple[Meter, Callable[[Any, list[Any]], int]] | None:
    """The meter a ``gain``/``lose`` names (``resolve(r)``) and the closure finding the carrier's slot; reported when none."""
    meters: dict[str, Meter] = scope.vocab.data.get("meters") or {}
    name = node.func if isinstance(node, ast.Call) else getattr(node, "name", "")
    counter = scope.vocab.functions.get(name) if isinstance(node, ast.Call) else None
    if name not in meters or not isinstance(counter, CounterOf):
        scope.error(node.pos, f"the first argument of {fn.name}() must be a meter and its carrier, like "
                    f"{next(iter(meters), 'NAME')}(x), not '{node.describe()}'",
                    did_you_mean(name, meters) if name else f"meters: {', '.join(meters) or 'none'}")
        return None
    return meters[name], counter.compile_index(node, scope)


ADDED_FUNCTIONS = (
    MeterShift("gain", "gain(METER(CARRIER), AMOUNT [, SOURCE] [, by = WHO])",
               "Move a carrier's marker up a meter of `meters:` (never past its max): the special tile it stops on reacts "
               "(`on_heal`), then the thresholds the change crosses run, knowing `by` and `source`.",
               "gain(resolve(r), 2)"),
    MeterShift("lose", "lose(METER(CARRIER), AMOUNT [, SOURCE] [, by = WHO])",
               "Move a carrier's marker down a meter of `meters:` (never past its min): the special tile it stops on "
               "reacts (`on_damage`), then the thresholds the change crosses run, knowing `by` and `source`.",
               "lose(resolve(r), 1, battle, by = self)", down=True),
)


BLOCK = declare(Block(
    "meters",
    keys={
        "meters": {
            "description": ("Named meters, as many as the game needs, each a track carried by every role (`per: "
                            "role`) or every component of a kind: read `NAME(x)`, moved by `gain(NAME(x), N)` and "
                            "`lose(NAME(x), N)` (the special tile it stops on reacts) or set by `NAME(x) = ...`; "
                            "thresholds run code when a change crosses them."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/namedMeter"},
            "examples": [{"resolve": {"per": "role", "start": 5, "max": 8,
                                      "thresholds": [{"below": 3, "do": "lose(resolve(self), 1)"}]}}],
        },
    },
    defs={
        "namedMeter": {
            "description": "One meter: `{per: role, start: 5, min: 0, max: 8, tiles: {6: rally 1}, thresholds: [...]}`.",
            "type": "object",
            "properties": {
                "per": {
                    "description": "Who carries one: `role`, or a component kind (one track per component of that kind).",
                    "type": "string",
                    "examples": ["role"],
                },
                "start": {
                    "description": ("Its value when the game starts: a whole number, an option name, or an expression "
                                    "of `self` (the carrier)."),
                    "type": ["integer", "string"],
                    "default": 0,
                },
                "min": {
                    "description": "The lowest it goes (a change below stops there): as `start`.",
                    "type": ["integer", "string"],
                    "default": 0,
                },
                "max": {
                    "description": "The highest it goes (a change above stops there): as `start`; none when not given.",
                    "type": ["integer", "string"],
                },
                "doc": {"description": "What it means, in English (shown by `rulecraft explain`).", "type": "string"},
                "tile": {
                    "description": "How much one tile is worth (special tiles sit at multiples of it). A number or an option name.",
                    "$ref": "#/$defs/count",
                    "default": 1,
                },
                "tiles": {
                    "description": ("The special tiles: one mapping for every carrier (position -> `KIND` or `KIND "
                                    "N`, e.g. `{6: rally 1}`), or, for a meter carried by components, the `table` "
                                    "attribute in which each component lists its own."),
                    "type": ["object", "string"],
                    "examples": [{"6": "rally 1"}],
                },
                "sources": {
                    "description": ("The declared type naming where a change comes from; `gain`/`lose` pass one, "
                                    "tiles and thresholds read it as `source` (any value when not given)."),
                    "type": "string",
                    "examples": ["cause"],
                },
                "kinds": {
                    "description": "The kinds of special tile, by name.",
                    "type": ["object", "null"],
                    "additionalProperties": {
                        "description": "One kind of special tile.",
                        "type": ["object", "null"],
                        "properties": {
                            "text": {"description": "What it does, in English (for explain).", "type": "string"},
                            "on_damage": {
                                "description": ("A program run when `lose` stops the marker here: `self` (the "
                                                "carrier), `by`, `source`, `amount`, `value` (the tile's number) "
                                                "are bound."),
                                "$ref": "#/$defs/program",
                            },
                            "on_heal": {
                                "description": "A program run when `gain` stops the marker here (same names as `on_damage`).",
                                "$ref": "#/$defs/program",
                            },
                        },
                        "additionalProperties": False,
                    },
                },
                "thresholds": {
                    "description": "Code run when a change takes the value past a mark: `[{below: 3, do: ...}]`.",
                    "$ref": "#/$defs/thresholds",
                },
            },
            "required": ["per"],
            "additionalProperties": False,
        },
        "thresholds": {
            "description": ("Code run when a change crosses a mark, once per crossing: `below: N` (from N or more to "
                            "less), `above: N` (from N or less to more), `at: N` (reaching or passing N). The code "
                            "reads `self` (the carrier), `by` (who made the change), `source`, `old` and `new`."),
            "type": "array",
            "items": {
                "description": "One threshold: `{below: 3, text: the side wavers, do: ...}`.",
                "type": "object",
                "properties": {
                    "below": {"description": "Fires when a change takes the value from this or more to less.", "$ref": "#/$defs/count"},
                    "above": {"description": "Fires when a change takes the value from this or less to more.", "$ref": "#/$defs/count"},
                    "at": {"description": "Fires when a change reaches or passes this value, from another.", "$ref": "#/$defs/count"},
                    "text": {"description": "What it does, in English (for explain).", "type": "string"},
                    "do": {"description": "The program run when a change crosses the mark.", "$ref": "#/$defs/program"},
                },
                "required": ["do"],
                "additionalProperties": False,
            },
        },
    },
    functions=ADDED_FUNCTIONS,
    declare=declare_meters,
    compile=compile_meters,
    rank=15,  # its compile hook runs before the meter's and the statuses': their code may move these meters
))
