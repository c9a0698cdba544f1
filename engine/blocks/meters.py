"""A meter of tiles: a per-component counter read as a track from its start down to a bottom tile at 0.

A ruleset declares one meter over a counter, the size of a tile, the kinds of
special tile (with what they do, in the effect language), the attribute
where each component lists its own special tiles, and the words for the
bottom::

    counters:
      hits: {per: unit, start: self.hits, min: 0, max: self.hits}
    meter:
      counter: hits
      tile: 10                   # each tile is 10 hits
      tiles: track               # a `table` attribute: {90: backlash 20, 50: ward, 30: dodge}
      sources: source            # the type naming where damage comes from (attack, status, ...)
      unstoppable: [last_words]  # sources nothing prevents: a tile that nullifies does not block what they give
      bottom: wreck              # the tile at 0, as explain shows the track (default: bottom)
      at_bottom: wrecked         # what a component there is, in the log and on the board (default: out)
      kinds:
        backlash:
          text: the attacker takes N when an opponent's attack lands the marker here
          on_damage: "if source == attack and foe(attacker, self): damage(attacker, value, backlash)"
        ward: {nullifies: [Sting]}

``damage(TARGET, AMOUNT [, SOURCE] [, by = ATTACKER])`` moves the marker down,
``heal(...)`` up (never past the counter's max; never off the bottom).  Where
the marker lands, the tile's ``on_damage`` / ``on_heal`` program runs with
``self`` (the bearer), ``attacker``, ``source``, ``amount`` and ``value`` (the
tile's number, ``backlash 20`` -> 20) bound; a tile that ``nullifies`` a
status removes it on landing and blocks it while the marker rests there.
Then the bearer's statuses' ``on_damage`` hooks run.  A marker reaching 0 is
at the bottom (the log says ``Scout is wrecked``): its statuses' ``on_defeat``
hooks run (knowing the ``attacker`` and ``source`` of the blow), its statuses
are removed, and it stays there.
The source defaults to the one the block running the code declares (an
action's code deals ``action`` damage); ``by`` defaults to ``self``.

``defeated_by(TARGET)`` and ``defeat_source(TARGET)`` read, at any time
afterwards, who dealt the blow that brought a component to 0 and from what
source (none before; none for a component that brought itself there), so a
last action taken later can strike back::

    last_words: {name: Reprisal, do: "damage(defeated_by(self), 30)"}

>>> parse_tile("backlash 20"), parse_tile("dodge")
(('backlash', 20), ('dodge', 0))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks import statuses
from engine.blocks.block import Block, Drawing, Line, declare, withdraw_functions
from engine.blocks.hooks import Hook, compile_hook, label, local_slot, running, source_of
from engine.core.errors import EffectRuntimeError, SourcePos, did_you_mean
from engine.core.showtext import abbreviations
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, ANY_COMPONENT, EFFECT, INT, Component, Enum, Type
from engine.core.slices import HookTrail
from engine.core.yamlsource import Mapping

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.blocks.counters import CounterSpec

TILE = re.compile(r"\s*([A-Za-z_]\w*)(?:\s+(-?\d+))?\s*\Z")
MAX_DEPTH = 20


class MeterWork(NamedTuple):
    """The meter block's slice of the state."""

    depth: int | None = None  # how deeply damage and healing are nested inside each other's hooks
    hits: tuple[tuple[int, Any], ...] | None = None  # (component, source) damaged while a block records them (the action roll does)
    defeats: tuple[tuple[Any, ...], ...] | None = None  # (component, attacker, source) of each component brought to 0, in the order they fell
    block = "meter"
    saved = ("meter depth", "hits", "defeats")


NO_WORK = MeterWork()


def meter_work(s: "StateView") -> MeterWork:
    """The meter's slice of ``s`` (empty when there is none yet)."""
    return s.slices.get(MeterWork.block, NO_WORK)


META = ("counter", "tile", "tiles", "sources", "unstoppable", "bottom", "at_bottom", "kinds")


def parse_tile(text: str) -> tuple[str, int] | None:
    """``KIND`` or ``KIND N``: a special tile's kind and number (0 when none)."""
    m = TILE.match(text)
    return (m.group(1), int(m.group(2) or 0)) if m else None


@dataclass
class TileKind:
    """A kind of special tile: what it does when the marker lands on it, and the statuses it nullifies."""

    name: str
    text: str = ""
    on_damage: Hook | None = None
    on_heal: Hook | None = None
    nullifies: tuple[str, ...] = ()

    def describe(self) -> str:
        """The kind in English: its text, or what its code does."""
        parts = [self.text] if self.text else []
        if not self.text:
            parts += [f"when damage lands here: {self.on_damage.words}"] if self.on_damage else []
            parts += [f"when healing lands here: {self.on_heal.words}"] if self.on_heal else []
            parts += [f"nullifies {', '.join(self.nullifies)}"] if self.nullifies else []
        return "; ".join(parts)


@dataclass
class Meter:
    """The compiled ``meter`` section."""

    counter: "CounterSpec"
    size: int
    source_type: Type
    unstoppable: frozenset[str] = frozenset()  # sources whose statuses no tile that nullifies them blocks
    bottom: str = "bottom"  # the tile at 0, as the track shows it
    at_bottom: str = "out"  # what a component whose marker is at 0 is: ``Scout is out``
    kinds: dict[str, TileKind] = field(default_factory=dict)
    tiles: dict[int, dict[int, tuple[str, int]]] = field(default_factory=dict)  # component -> {position: (kind, number)}

    def tile_at(self, cid: int, value: int) -> tuple[str, int] | None:
        """The special tile at ``value`` on a component's meter, if any."""
        return self.tiles.get(cid, {}).get(value)

    def describe_track(self, s: "StateView", cid: int) -> list[str]:
        """The meter from its start down to the bottom, one entry per tile (special tiles named)."""
        top = self.counter.clamp(s, cid, self.counter.start(s, cid))
        out = []
        for value in range(top, -1, -self.size):
            kind, number = self.tile_at(cid, value) or ("", 0)
            name = "start" if value == top else self.bottom if value == 0 else kind + (f" {number}" if number else "")
            out.append(f"{value}" + (f" {name}" if name else ""))
        return out


# ------------------------------------------------------------------ reading the section


def declare_meter(b: "BuildContext") -> None:
    """The meter's counter, tile size and source type (before any code is compiled)."""
    spec = b.tree.get("meter")
    if spec is None:
        return
    if not isinstance(spec, Mapping):
        b.error(b.pos(b.tree, "meter"), "'meter' must be a mapping such as {counter: hits, tile: 10, kinds: {...}}")
        return
    b.unknown_keys(spec, META, "meter")
    g = b.game
    name = str(spec.get("counter", ""))
    counter = g.counters.get(name)
    if counter is None or counter.per in ("role", "game"):
        b.error(b.pos(spec, "counter"), f"the meter's 'counter' must be a counter kept per component, not '{name}'",
                did_you_mean(name, [n for n, c in g.counters.items() if c.per not in ("role", "game")]))
        return
    size = b.int_setting(spec, "tile", 10) or 10
    type_name = str(spec.get("sources", ""))
    source_type: Type = ANY
    if type_name in g.types:
        source_type = Enum(type_name)
    elif "sources" in spec:
        b.error(b.pos(spec, "sources"), f"unknown type '{type_name}'", did_you_mean(type_name, g.types))
    unstoppable = spec.get("unstoppable") or []
    for i, value in enumerate(unstoppable):
        if type_name in g.types and str(value) not in g.types[type_name]:
            b.error(b.pos(unstoppable, i), f"unknown {type_name} '{value}'", did_you_mean(str(value), g.types[type_name]))
    g.parts["meter"] = Meter(counter, size, source_type, frozenset(map(str, unstoppable)),
                    bottom=_word(b, spec, "bottom", "bottom"), at_bottom=_word(b, spec, "at_bottom", "out"))


def _word(b: "BuildContext", spec: Mapping, key: str, default: str) -> str:
    """A word or a few the meter is said with (``bottom: wreck``), ``default`` when not given."""
    if key not in spec:
        return default
    value = spec[key]
    if not isinstance(value, str) or not value.strip():
        b.error(b.pos(spec, key), f"the meter's '{key}' is a word or a few, like '{default}', not {value!r}")
        return default
    return value.strip()


def compile_meter(b: "BuildContext") -> None:
    """The tile kinds (their code) and every component's special tiles."""
    meter, spec = b.game.parts.get("meter"), b.tree.get("meter")
    if meter is None or not isinstance(spec, Mapping):
        return
    kinds = spec.get("kinds") or {}
    for name, kind in kinds.items():
        b.check_identifier(name, kinds.key_pos.get(name), "tile kind")
        meter.kinds[str(name)] = _tile_kind(b, str(name), kind if isinstance(kind, Mapping) else Mapping(kinds.pos_of(name)))
    attribute = str(spec.get("tiles", ""))
    if "tiles" in spec and b.game.attribute_types.get(attribute) != "table":
        b.error(b.pos(spec, "tiles"), f"'tiles' must name a table attribute listing each component's special tiles, not '{attribute}'")
        return
    for cids, table, pos in instance_tables(b, attribute):
        if not isinstance(table, Mapping):
            b.error(pos, "special tiles are a mapping from a position on the meter to a tile, like {90: backlash 20, 30: dodge}")
            continue
        tiles: dict[int, tuple[str, int]] = {}
        for key, text in table.items():
            where = table.pos_of(key)
            tile = parse_tile(str(text))
            if not str(key).isdigit() or int(key) <= 0 or int(key) % meter.size:
                b.error(table.key_pos.get(key, where), f"a special tile sits at a positive multiple of {meter.size}, not at '{key}'")
            elif tile is None or tile[0] not in meter.kinds:
                b.error(where, f"unknown tile '{text}'", did_you_mean(tile[0] if tile else str(text), meter.kinds) or
                        f"known kinds: {', '.join(meter.kinds)}; write KIND or KIND N")
            else:
                tiles[int(key)] = tile
        for cid in cids:
            meter.tiles[cid] = tiles


def _tile_kind(b: "BuildContext", name: str, spec: Mapping) -> TileKind:
    b.unknown_keys(spec, ("text", "on_damage", "on_heal", "nullifies"), f"tile kind '{name}'")
    kind = TileKind(name, str(spec.get("text") or ""))
    bind = tile_bindings(b)
    if "on_damage" in spec:
        kind.on_damage = compile_hook(b, spec["on_damage"], spec.pos_of("on_damage"), bind)
    if "on_heal" in spec:
        kind.on_heal = compile_hook(b, spec["on_heal"], spec.pos_of("on_heal"), bind)
    statuses = b.game.parts.get("statuses")
    nullified = spec.get("nullifies") or []
    listed = nullified if isinstance(nullified, list) else [nullified]
    for i, status in enumerate(listed):
        if statuses is None or str(status) not in statuses.by_name:
            b.error(b.pos(nullified, i) if isinstance(nullified, list) else spec.pos_of("nullifies"), f"unknown status '{status}'",
                    did_you_mean(str(status), statuses.by_name if statuses else []))
    kind.nullifies = tuple(str(x) for x in listed)
    return kind


def tile_bindings(b: "BuildContext") -> dict[str, Type]:
    """What a tile's code may read: the bearer, who caused the move, its source and amount, the tile's number."""
    meter = b.game.parts.get("meter")
    assert meter is not None
    return {"self": Component(meter.counter.per), "attacker": ANY_COMPONENT, "source": meter.source_type,
            "amount": INT, "value": INT}


def instance_tables(b: "BuildContext", attribute: str) -> list[tuple[tuple[int, ...], Any, SourcePos | None]]:
    """Every component instance giving ``attribute``: its component ids (copies share it), the raw value and where it is."""
    g = b.game
    found = []
    for spec in (b.tree.get("components") or {}).values():
        for inst in (spec.get("instances") or []) if isinstance(spec, Mapping) else []:
            if not isinstance(inst, Mapping) or attribute not in inst:
                continue
            ident = str(inst.get("id", ""))
            cids = g.identical.get(ident) or ((g.component_ids[ident],) if ident in g.component_ids else ())
            found.append((cids, inst[attribute], inst.pos_of(attribute)))
    return found


# ------------------------------------------------------------------ moving the marker


def move_marker(s: "StateView", target: Any, amount: int, source: Any, attacker: Any, down: bool, pos: SourcePos | None) -> None:
    """Damage (``down``) or heal a component: move its marker, land on a tile, run the hooks, stop it at 0."""
    meter = s.game.parts.get("meter")
    assert meter is not None  # only rulesets with a meter offer damage() and heal()
    if target is None or amount <= 0:
        return
    i = meter.counter.index_of(target)
    if i is None:
        raise EffectRuntimeError(f"{s.game.component_names[target]} has no {meter.counter.name}", pos)
    old = s.counters[i]
    if old <= 0:
        return  # at the bottom: nothing moves the marker any more
    new = meter.counter.clamp(s, target, old - amount if down else old + amount)
    if new == old:
        return
    s.counters[i] = new
    s._actions = None
    what = "damage" if down else "healing"
    s.note(lambda: f"{label(s, target)} takes {abs(old - new)} {what}"
                   f"{f' from {label(s, attacker)}' if attacker is not None and attacker != target else ''}"
                   f"{f' ({source})' if source else ''}: {meter.counter.name} {old} -> {new}")
    work = meter_work(s)
    if down and work.hits is not None:
        work = s.slices[MeterWork.block] = MeterWork(work.depth, work.hits + ((target, source),), work.defeats)
    depth = work.depth or 0
    if depth >= MAX_DEPTH:
        trail = s.slices.get(HookTrail.block)
        involved = ", ".join(dict.fromkeys(trail.running if trail else ()))
        raise EffectRuntimeError(f"tiles and statuses keep damaging and healing each other (more than {MAX_DEPTH} deep)"
                                 f"{f': {involved}' if involved else ''}", pos)
    s.slices[MeterWork.block] = MeterWork(depth + 1, work.hits, work.defeats)
    try:
        _land(s, meter, target, new, source, attacker, abs(old - new), down)
        if down and s.counters[i] > 0:
            statuses.run_hook(s, target, "on_damage", attacker, source, abs(old - new))
    finally:
        work = meter_work(s)
        s.slices[MeterWork.block] = MeterWork(depth or None, work.hits, work.defeats)
    if s.counters[i] == 0:
        s.note(lambda: f"{label(s, target)} is {meter.at_bottom}")
        _defeated(s, target, attacker, source, abs(old - new))
        statuses.clear(s, target)


def _defeated(s: "StateView", target: int, attacker: Any, source: Any, amount: int) -> None:
    """The marker reached 0: keep who did it and from what, then run the ``on_defeat`` hooks."""
    if defeat_of(s, target) is None:
        work = meter_work(s)
        s.slices[MeterWork.block] = MeterWork(work.depth, work.hits,
                                              (*(work.defeats or ()), (target, None if attacker == target else attacker, source)))
    statuses.run_hook(s, target, "on_defeat", attacker, source, amount)


def defeat_of(s: "StateView", cid: Any) -> tuple[Any, Any] | None:
    """Who brought a component to 0 and from what source, (attacker, source); None while it is not there.

    >>> class S: slices = {MeterWork.block: MeterWork(defeats=((3, 1, "action"),))}
    >>> defeat_of(S(), 3), defeat_of(S(), 4)
    ((1, 'action'), None)
    """
    for cid_, attacker, source in meter_work(s).defeats or ():
        if cid_ == cid:
            return attacker, source
    return None


def _land(s: "StateView", meter: Meter, target: int, value: int, source: Any, attacker: Any, amount: int, down: bool) -> None:
    """The marker came to rest on ``value``: a special tile there nullifies statuses and runs its code."""
    tile = meter.tile_at(target, value)
    if tile is None:
        return
    kind = meter.kinds[tile[0]]
    for name in kind.nullifies:
        statuses.remove(s, target, name, because=f"its {kind.name} tile")
    hook = kind.on_damage if down else kind.on_heal
    if hook is not None:
        with running(s, f"the {kind.name} tile"):
            hook.run(s, target, attacker, source, amount, tile[1])


# ------------------------------------------------------------------ the functions


@dataclass(frozen=True)
class MeterMove(Function):
    """``damage(TARGET, AMOUNT [, SOURCE] [, by = ATTACKER])`` and ``heal(...)``: move a component's marker."""

    down: bool = True

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        meter = scope.vocab.data["meter"]  # only rulesets with a meter offer these functions (see attach)
        args = call.positional()
        if not 2 <= len(args) <= 3:
            scope.error(call.pos, f"{self.name}() takes 2 or 3 arguments, not {len(args)}", f"usage: {self.signature}")
            return Compiled(EFFECT, lambda s, e: None)
        target = self.value(scope, args[0], Component(meter.counter.per), "target").fn
        amount = self.value(scope, args[1], INT, "amount").fn
        source = source_of(self, scope, call, args[2] if len(args) == 3 else None, meter.source_type)
        attacker = attacker_of(self, scope, call)
        down, pos = self.down, call.pos

        def move(s: Any, e: list[Any]) -> None:
            move_marker(s, target(s, e), amount(s, e), source(s, e), attacker(s, e), down, pos)

        return Compiled(EFFECT, move)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) < 2:
            return self.name
        source = f" ({args[2].describe()})" if len(args) == 3 else ""
        if self.down:
            return f"deal {args[1].describe()} damage{source} to {args[0].describe()}"
        return f"heal {args[0].describe()} by {args[1].describe()}{source}"


def attacker_of(fn: Function, scope: Scope, call: ast.Call) -> Any:
    """The closure giving who causes the change: ``by = ...``, else ``self`` where the code has one, else none."""
    keywords = call.keywords()
    for name, kw in keywords.items():
        if name != "by":
            scope.error(kw.pos, f"{fn.name}() has no option '{name}'", f"usage: {fn.signature}")
    if "by" in keywords:
        return fn.value(scope, keywords["by"].value, ANY_COMPONENT, "by").fn
    found = local_slot(scope, "self")
    if found is None:
        return lambda s, e: None
    slot = found[0]
    return lambda s, e: e[slot]


@dataclass(frozen=True)
class Defeat(Function):
    """``defeated_by(TARGET)`` and ``defeat_source(TARGET)``: who brought a component to 0, and from what source."""

    part: int = 0  # 0: the attacker, 1: the source

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        meter: Meter = scope.vocab.data["meter"]  # only rulesets with a meter offer these functions (see attach)
        result_type = ANY_COMPONENT if self.part == 0 else meter.source_type
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(result_type, lambda s, e: None)
        target = self.value(scope, args[0], ANY_COMPONENT, "target").fn
        part = self.part

        def read(s: Any, e: list[Any]) -> Any:
            found = defeat_of(s, target(s, e))
            return None if found is None else found[part]

        return Compiled(result_type, read)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        what = "who defeated" if self.part == 0 else "the source of the blow that defeated"
        return f"{what} {args[0].describe()}" if args else self.name


def attach(b: "BuildContext") -> None:
    """Tell the meter's functions about it (once the vocabulary exists); a meter with errors (reported) offers none."""
    b.game.vocab.data["meter"] = b.game.parts.get("meter")
    if b.game.parts.get("meter") is None:
        withdraw_functions(b.game.vocab, BLOCK)


def draw(s: "StateView", seat: int | None) -> Drawing | None:
    """Each component on the meter as a line, and the legend of the lines; the meter's counter is drawn with them.

    ``  Scout         70/110 ███████░░░░  r10@80 p@40  Sting``: the bar has a
    cell per tile from the start (left) down to the bottom, full for what is
    left of the counter, light for what is lost; then the special tiles
    (``r10@80``: the kind's letters, its number, where it sits) and the statuses.
    """
    meter = s.game.parts.get("meter")
    if meter is None:
        return None
    short = abbreviations(meter.kinds)
    lines = {cid: _meter_line(s, meter, cid, short) for cid in range(len(s.game.component_names))
             if meter.counter.index_of(cid) is not None}
    kinds = ", ".join(f"{short[kind]} {kind}" for kind in meter.kinds)
    counter = meter.counter.name
    legend = f"  meters: {counter} left/top, █ a tile left, ░ a tile lost; KIND[N]@AT a special tile at that {counter}: {kinds}"
    return Drawing(lines, legend=(((legend, "dim"),),), counters=frozenset({counter}))


def _meter_line(s: "StateView", meter: Meter, cid: int, short: dict[str, str]) -> Line:
    value = s.counters[meter.counter.index_of(cid)]
    top = meter.counter.clamp(s, cid, meter.counter.start(s, cid))
    left = value // meter.size
    runs = [(f"  {s.game.piece_names[cid]:<12} {value:>3}/{top:<3} ", ""), ("█" * left, "bold"), ("░" * (top // meter.size - left), "dim")]
    special = [f"{short[kind]}{number or ''}@{at}" for at, (kind, number) in sorted(meter.tiles.get(cid, {}).items(), reverse=True)]
    if special:
        runs.append(("  " + " ".join(special), "dim"))
    if value <= 0:
        runs.append((f"  {meter.at_bottom}", "bold"))
    names = statuses.statuses_of(s, cid)
    if names:
        runs.append(("  " + ", ".join(names), "bold"))
    return tuple(runs)


ADDED_FUNCTIONS = (
    MeterMove("damage", "damage(TARGET, AMOUNT [, SOURCE] [, by = ATTACKER])",
              "Move a component's marker down its meter (see meter:): the tile it lands on reacts, its statuses' "
              "on_damage hooks run, and at 0 its statuses end and it stays there. The source defaults to the one of the code's block.",
              "damage(t, 20, action)"),
    MeterMove("heal", "heal(TARGET, AMOUNT [, SOURCE] [, by = HEALER])",
              "Move a component's marker up its meter, never past its max nor off the bottom; the tile it lands on reacts.",
              "heal(self, 20)", down=False),
    Defeat("defeated_by", "defeated_by(TARGET) -> component",
           "Who dealt the damage that brought a component's meter to 0 (its `by`); none before that, or when it did so itself.",
           "damage(defeated_by(self), 30)"),
    Defeat("defeat_source", "defeat_source(TARGET) -> source",
           "The source of the damage that brought a component's meter to 0; none before that.",
           "defeat_source(self) == action", part=1),
)


BLOCK = declare(Block(
    "meter",
    slices=(MeterWork,),
    keys={
        "meter": {
            "description": ("A per-component counter read as a track of tiles, from its start down to the bottom tile at 0: "
                            "`damage(TARGET, AMOUNT [, SOURCE])` moves the marker down and `heal(...)` up; the "
                            "special tile where it lands reacts (its code runs, statuses it nullifies end), the "
                            "bearer's statuses' `on_damage` hooks run, and a marker reaching 0 is at the bottom (its "
                            "statuses end; it stays there; `bottom` and `at_bottom` name it)."),
            "$ref": "#/$defs/meter",
        },
    },
    defs={
        "meter": {
            "description": "`meter: {counter: vigour, tile: 10, tiles: meter, sources: source, kinds: {...}}`.",
            "type": "object",
            "properties": {
                "counter": {
                    "description": ("The counter the marker shows: one kept per component (`per: <component "
                                    "kind>`), usually with `min: 0` and a `max`."),
                    "type": "string",
                    "examples": ["vigour"],
                },
                "tile": {
                    "description": ("How much one tile is worth (special tiles sit at multiples of it). A number or "
                                    "an option name."),
                    "$ref": "#/$defs/count",
                    "default": 10,
                },
                "tiles": {
                    "description": ("The `table` attribute in which each component lists its special tiles: "
                                    "position -> `KIND` or `KIND N`, e.g. `{90: backlash 20, 50: shield, 30: "
                                    "guard}`."),
                    "type": "string",
                    "examples": ["meter"],
                },
                "sources": {
                    "description": ("The declared type naming where damage and healing come from (action, status, "
                                    "final act, ...); code passes one to `damage`/`heal`/`give`, and tiles and "
                                    "statuses read it as `source`."),
                    "type": "string",
                    "examples": ["source"],
                },
                "unstoppable": {
                    "description": ("Sources nothing can prevent: a tile that nullifies a status does not block one "
                                    "given from these."),
                    "type": "array",
                    "items": {"type": "string"},
                    "examples": [["last_gasp"]],
                },
                "bottom": {
                    "description": "What the tile at 0 is called, as `explain` shows the track (`100 start · 90 · ... · 0 bottom`).",
                    "type": "string",
                    "default": "bottom",
                    "examples": ["wreck"],
                },
                "at_bottom": {
                    "description": "What a component whose marker reached 0 is, in the log (`Scout is out`) and on the board.",
                    "type": "string",
                    "default": "out",
                    "examples": ["wrecked"],
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
                                "description": ("A program run when damage lands the marker here: `self` (the "
                                                "bearer), `attacker`, `source`, `amount`, `value` (the tile's "
                                                "number) are bound."),
                                "$ref": "#/$defs/program",
                            },
                            "on_heal": {
                                "description": ("A program run when healing lands the marker here (same names as "
                                                "`on_damage`)."),
                                "$ref": "#/$defs/program",
                            },
                            "nullifies": {
                                "description": ("Statuses this tile ends when the marker lands on it, and blocks "
                                                "while it rests there."),
                                "type": ["array", "string"],
                                "items": {"type": "string"},
                                "examples": [["Sting"]],
                            },
                        },
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["counter"],
            "additionalProperties": False,
        },
    },
    functions=ADDED_FUNCTIONS,
    declare=declare_meter,
    attach=attach,
    compile=compile_meter,
    rank=20,
    draw=draw,
))
