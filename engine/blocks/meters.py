"""A meter of tiles: a per-component counter read as a track from its start down to a bottom tile at 0.

A ruleset declares one such meter over a counter (as many other tracks as it
wants, without the bottom, statuses and defeats, are ``meters:``, see
:mod:`engine.blocks.named_meters`): the size of a tile, the kinds of special
tile (with what they do, in the effect language), the attribute where each
component lists its own special tiles, and the words for the bottom::

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
Then the bearer's statuses' ``on_damage`` (or, healed, ``on_heal``) hooks run.  A marker reaching 0 is
at the bottom (the log says ``Scout is wrecked``): its statuses' ``on_defeat``
hooks run (knowing the ``attacker`` and ``source`` of the blow), its statuses
are removed, and it stays there.  ``thresholds`` (see
:mod:`engine.blocks.thresholds`) run when damage, healing or an assignment
takes the counter past a mark.
The source defaults to the one the block running the code declares (an
action's code deals ``action`` damage); ``by`` defaults to ``self``.

``defeated_by(TARGET)`` and ``defeat_source(TARGET)`` read, at any time
afterwards, who dealt the blow that brought a component to 0 and from what
source (none before; none for a component that brought itself there), so a
last action taken later can strike back::

    last_words: {name: Reprisal, do: "damage(defeated_by(self), 30)"}

``defeat_order(TARGET)`` is the place in which it reached 0 among all that
did (1 for the first, 0 while it has not), so a scoring rule can tell which
side was wiped out first when both fall in one turn.

>>> parse_tile("backlash 20"), parse_tile("dodge"), parse_tile("dodge " + "9" * 5000)
(('backlash', 20), ('dodge', 0), None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from engine.blocks import statuses
from engine.blocks.block import Block, Drawing, Line, declare, withdraw_functions
from engine.blocks.counters import owner_type
from engine.blocks.hooks import Hook, Running, ToldAsHidden, compile_hook, label, local_reader, source_of, unseen
from engine.blocks.thresholds import Threshold, read_thresholds, run_crossed
from engine.core.errors import EffectRuntimeError, SourcePos, did_you_mean
from engine.core.facedown import told_name
from engine.core.limits import whole_key
from engine.core.showtext import abbreviations, cut
from engine.core.slice_shapes import ComponentId
from engine.core.slices import HookTrail
from engine.core.yamlsource import Mapping
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, ANY_COMPONENT, EFFECT, INT, Component, Enum, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.blocks.counters import CounterSpec

TILE = re.compile(r"\s*([A-Za-z_]\w*)(?:\s+(-?\d+))?\s*\Z")
MAX_DEPTH = 20


class MeterWork(NamedTuple):
    """The meter block's slice of the state."""

    depth: int | None = None  # how deeply damage and healing are nested inside each other's hooks
    hits: tuple[tuple[ComponentId, str | None], ...] | None = None  # (component, source) damaged while a block records them (the action roll does)
    defeats: tuple[tuple[ComponentId, ComponentId | None, str | None], ...] | None = None  # (component, attacker, source) of each component brought to 0, in the order they fell
    block = "meter"
    saved = ("meter depth", "hits", "defeats")


NO_WORK = MeterWork()


def meter_work(s: "StateView") -> MeterWork:
    """The meter's slice of ``s`` (empty when there is none yet)."""
    return s.slices.get(MeterWork.block, NO_WORK)


META = ("counter", "tile", "tiles", "sources", "unstoppable", "bottom", "at_bottom", "kinds", "thresholds")


def parse_tile(text: str) -> tuple[str, int] | None:
    """``KIND`` or ``KIND N``: a special tile's kind and number (0 when none)."""
    m = TILE.match(text)
    try:
        return (m.group(1), int(m.group(2) or 0)) if m else None
    except ValueError:  # more digits than Python reads as a number: no tile
        return None


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
    """A compiled meter: the ``meter`` section (the one ``damage`` and ``heal`` move) or an entry of ``meters``."""

    counter: "CounterSpec"
    size: int
    source_type: Type
    unstoppable: frozenset[str] = frozenset()  # sources whose statuses no tile that nullifies them blocks
    bottom: str = "bottom"  # the tile at 0, as the track shows it
    at_bottom: str = "out"  # what a component whose marker is at 0 is: ``Scout is out``
    kinds: dict[str, TileKind] = field(default_factory=dict)
    tiles: dict[Any, dict[int, tuple[str, int]]] = field(default_factory=dict)  # carrier -> {position: (kind, number)}
    shared: dict[int, tuple[str, int]] = field(default_factory=dict)  # the special tiles of every carrier not in ``tiles``
    thresholds: tuple[Threshold, ...] = ()
    cause: str = "attacker"  # the name tile code reads who moved the marker by
    summary: str = ""  # its carriers and range as written (a meter of `meters:`), for explain

    @property
    def name(self) -> str:
        """The meter's name: that of the counter it shows."""
        return self.counter.name

    def tile_at(self, cid: Any, value: int) -> tuple[str, int] | None:
        """The special tile at ``value`` on a carrier's meter, if any."""
        return self.tiles.get(cid, self.shared).get(value)

    def describe(self) -> list[str]:
        """Its kinds of special tile and its thresholds, in English, a line each."""
        return [f"{name}: {kind.describe()}" for name, kind in self.kinds.items()] + [t.describe() for t in self.thresholds]

    def describe_track(self, s: "StateView", cid: Any) -> list[str]:
        """The meter from its start down to the bottom, one entry per tile (special tiles named)."""
        top = self.counter.clamp(s, cid, self.counter.start(s, cid))
        out = []
        for value in range(top, -1, -self.size):
            kind, number = self.tile_at(cid, value) or ("", 0)
            tile = kind + (f" {number}" if number else "")
            name = " ".join(filter(None, ("start", tile))) if value == top else self.bottom if value == 0 else tile
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
    if counter is None or counter.per in ("role", "game") or counter.keys is not None:
        b.error(b.pos(spec, "counter"), f"the meter's 'counter' must be a counter kept per component (without a key), not '{name}'",
                did_you_mean(name, [n for n, c in g.counters.items() if c.per not in ("role", "game") and c.keys is None]))
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
    meter = g.parts["meter"] = Meter(counter, size, source_type, frozenset(map(str, unstoppable)),
                                     bottom=_word(b, spec, "bottom", "bottom"), at_bottom=_word(b, spec, "at_bottom", "out"))
    if spec.get("thresholds"):
        counter.watch = watcher(meter)


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
    """The tile kinds (their code), every component's special tiles and the thresholds."""
    meter, spec = b.game.parts.get("meter"), b.tree.get("meter")
    if meter is None or not isinstance(spec, Mapping):
        return
    read_track(b, meter, spec, "the meter")


def read_track(b: "BuildContext", meter: Meter, spec: Mapping, what: str, named: bool = False) -> None:
    """A meter's tile kinds, special tiles and thresholds.

    The special tiles are a ``table`` attribute of each carrier or, for a
    ``named`` meter (of ``meters:``), one mapping for all; only the ``meter``
    section's tiles nullify statuses.
    """
    kinds = spec.get("kinds") or {}
    for name, kind in kinds.items():
        b.check_identifier(name, kinds.key_pos.get(name), "tile kind")
        meter.kinds[str(name)] = _tile_kind(b, meter, str(name), kind if isinstance(kind, Mapping) else Mapping(kinds.pos_of(name)),
                                            not named)
    meter.thresholds = read_thresholds(b, spec, what, threshold_bindings(b, meter))
    attribute = spec.get("tiles", "")
    if isinstance(attribute, Mapping) and named:
        meter.shared = _tiles(b, meter, attribute)
        top = _highest(b, meter, spec)
        if isinstance(top, int):
            _unreached(b, meter, meter.shared, attribute, top, b.pos(spec, "tiles"))
        return
    if "tiles" in spec and meter.counter.per == "role":
        b.error(b.pos(spec, "tiles"), f"the special tiles of {what}, carried by roles, are one mapping for all, like {{3: rally 1}}")
        return
    if "tiles" in spec and b.game.attribute_types.get(str(attribute)) != "table":
        b.error(b.pos(spec, "tiles"), f"'tiles' must name a table attribute listing each component's special tiles, not '{attribute}'")
        return
    highest = _highest(b, meter)
    for cids, table, pos in instance_tables(b, str(attribute)):
        if not isinstance(table, Mapping):
            b.error(pos, "special tiles are a mapping from a position on the meter to a tile, like {90: backlash 20, 30: dodge}")
            continue
        tiles = _tiles(b, meter, table)
        top = highest.get(cids[0]) if isinstance(highest, dict) and cids else highest
        if isinstance(top, int):
            _unreached(b, meter, tiles, table, top, pos)
        for cid in cids:
            meter.tiles[cid] = tiles


def _unreached(b: "BuildContext", meter: Meter, tiles: dict[int, tuple[str, int]], table: Mapping, top: int,
               pos: SourcePos | None) -> None:
    """An error at each special tile above ``top``, the most the meter's counter holds: the marker never gets there."""
    for at in (at for at in tiles if at > top):
        b.error(table.key_pos.get(at, table.key_pos.get(str(at), pos)),
                f"the tile at {at} is never reached: the marker goes no higher than {top} (the most '{meter.counter.name}' can hold)")


def _highest(b: "BuildContext", meter: Meter, spec: Any = None) -> int | dict[int, int] | None:
    """The highest the marker can go, when the counter's ``max`` says it without a game: a number, or one per carrier.

    ``max: 100`` or an option: that number; ``max: self.ATTR``: each carrier's printed ATTR; other code
    (or none): None, nothing known.  ``spec`` holds the ``max`` (a named meter's entry); by default, the counter's.
    """
    spec = spec if spec is not None else (b.tree.get("counters") or {}).get(meter.counter.name)
    bound = spec.get("max") if isinstance(spec, Mapping) else None
    if isinstance(bound, str) and bound in b.game.options:
        bound = b.game.options[bound]
    if isinstance(bound, int) and not isinstance(bound, bool):
        return bound
    if isinstance(bound, str) and bound.startswith("self.") and bound[len("self."):].isidentifier():
        return {cid: value for cids, value, _ in instance_tables(b, bound[len("self."):]) for cid in cids
                if isinstance(value, int) and not isinstance(value, bool)}
    return None


def _tiles(b: "BuildContext", meter: Meter, table: Mapping) -> dict[int, tuple[str, int]]:
    """The special tiles written as ``{position: KIND or KIND N}``, each at a positive multiple of the tile size."""
    tiles: dict[int, tuple[str, int]] = {}
    for key, text in table.items():
        where = table.pos_of(key)
        tile = parse_tile(str(text))
        at = whole_key(key) or 0
        if at <= 0 or at % meter.size:
            b.error(table.key_pos.get(key, where), f"a special tile sits at a positive multiple of {meter.size}, not at '{key}'")
        elif tile is None or tile[0] not in meter.kinds:
            known = f"known kinds: {', '.join(meter.kinds)}; write KIND or KIND N" if meter.kinds else \
                "this meter has no tile kinds: declare them under 'kinds'"
            b.error(where, f"unknown tile '{cut(str(text), 60)}'", did_you_mean(tile[0] if tile else str(text), meter.kinds) or known)
        else:
            tiles[at] = tile
    return tiles


def _tile_kind(b: "BuildContext", meter: Meter, name: str, spec: Mapping, nullifying: bool) -> TileKind:
    allowed = ("text", "on_damage", "on_heal", "nullifies") if nullifying else ("text", "on_damage", "on_heal")
    b.unknown_keys(spec, allowed, f"tile kind '{name}'")
    kind = TileKind(name, str(spec.get("text") or ""))
    bind = tile_bindings(b, meter)
    if "on_damage" in spec:
        kind.on_damage = compile_hook(b, spec["on_damage"], spec.pos_of("on_damage"), bind)
    if "on_heal" in spec:
        kind.on_heal = compile_hook(b, spec["on_heal"], spec.pos_of("on_heal"), bind)
    if not nullifying:
        return kind
    statuses = b.game.parts.get("statuses")
    nullified = spec.get("nullifies") or []
    listed = nullified if isinstance(nullified, list) else [nullified]
    for i, status in enumerate(listed):
        if statuses is None or str(status) not in statuses.by_name:
            b.error(b.pos(nullified, i) if isinstance(nullified, list) else spec.pos_of("nullifies"), f"unknown status '{status}'",
                    did_you_mean(str(status), statuses.by_name if statuses else []))
    kind.nullifies = tuple(str(x) for x in listed)
    return kind


def tile_bindings(b: "BuildContext", meter: Meter) -> dict[str, Type]:
    """What a tile's code may read: the bearer, who caused the move, its source and amount, the tile's number."""
    by = ANY if meter.cause == "by" else ANY_COMPONENT  # damage and healing are dealt by components
    return {"self": owner_type(meter.counter, Scope(b.game.vocab)), meter.cause: by, "source": meter.source_type, "amount": INT, "value": INT}


def threshold_bindings(b: "BuildContext", meter: Meter) -> dict[str, Type]:
    """What a threshold's code may read: the carrier, who made the change and from what source, the values before and after."""
    by = ANY if meter.cause == "by" else ANY_COMPONENT  # damage and healing are dealt by components
    return {"self": owner_type(meter.counter, Scope(b.game.vocab)), "by": by, "source": meter.source_type, "old": INT, "new": INT}


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
    if target is None or amount is None or amount <= 0:  # none: as adding nothing to a counter, nothing happens
        return
    i = meter.counter.index_of(target)
    if i is None:
        told = told_name(s, target)
        raise EffectRuntimeError(f"{s.game.component_names[target]} has no {meter.counter.name}", pos,
                                 None if told is None else f"{pos}: {told} has no {meter.counter.name}")
    old = s.counters[i]
    if old <= 0 or _step(s, meter, target, i, amount, down) is None:
        return  # at the bottom nothing moves the marker any more; nor at the top does healing
    new = s.counters[i]
    what = "damage" if down else "healing"
    hidden = unseen(s, target)  # its marker is not every seat's to read
    s.note(lambda: f"{label(s, target)} takes {'' if hidden else f'{abs(old - new)} '}{what}"
                   f"{f' from {label(s, attacker)}' if attacker is not None and attacker != target else ''}"
                   f"{f' ({source})' if source else ''}{'' if hidden else f': {meter.counter.name} {old} -> {new}'}")
    work = meter_work(s)
    if down and work.hits is not None:
        s.slices[MeterWork.block] = MeterWork(work.depth, work.hits + ((target, source),), work.defeats)
    with Nested(s, pos):
        _react(s, meter, target, old, new, source, attacker, down, pos)
        if s.counters[i] > 0:
            statuses.run_hook(s, target, "on_damage" if down else "on_heal", attacker, source, abs(old - new), pos)
    if s.counters[i] == 0:
        s.note(lambda: f"{label(s, target)} is {meter.at_bottom}")
        _defeated(s, target, attacker, source, abs(old - new), pos)
        statuses.clear(s, target, pos=pos)


class Nested:
    """``with Nested(s, pos):`` one level deeper in code that moves markers from inside the hooks of a move; refused
    past ``MAX_DEPTH``.  A class rather than a generator: it runs around every move of a marker, and costs less so.

    >>> class S: slices = {}
    >>> s = S()
    >>> with Nested(s, None):
    ...     meter_work(s).depth
    1
    >>> meter_work(s)
    MeterWork(depth=None, hits=None, defeats=None)
    """

    __slots__ = ("s", "pos", "depth")

    def __init__(self, s: "StateView", pos: SourcePos | None) -> None:
        self.s, self.pos = s, pos

    def __enter__(self) -> None:
        s = self.s
        work = meter_work(s)
        depth = work.depth or 0
        if depth >= MAX_DEPTH:
            trail = s.slices.get(HookTrail.block)
            involved = ", ".join(dict.fromkeys(trail.running if trail else ()))
            raise EffectRuntimeError(f"tiles, thresholds and statuses keep damaging and healing each other (more than {MAX_DEPTH} deep)"
                                     f"{f': {involved}' if involved else ''}", self.pos)
        self.depth = depth
        s.slices[MeterWork.block] = MeterWork(depth + 1, work.hits, work.defeats)

    def __exit__(self, *exc: object) -> None:
        work = meter_work(self.s)
        self.s.slices[MeterWork.block] = MeterWork(self.depth or None, work.hits, work.defeats)


def shift(s: "StateView", meter: Meter, i: int, amount: int, source: Any, by: Any, down: bool, pos: SourcePos | None) -> None:
    """``gain``/``lose``: move the marker in slot ``i`` of a meter by ``amount`` (within its bounds), land, cross thresholds."""
    counter = meter.counter
    owner = counter.owners[i - counter.offset]
    old = _step(s, meter, owner, i, amount, down)
    if old is None:
        return
    new = s.counters[i]
    hidden = unseen(s, owner)  # its marker is not every seat's to read
    s.note(lambda: f"{carrier(s, owner)} {'loses' if down else 'gains'} {'' if hidden else f'{abs(old - new)} '}{counter.name}"
                   f"{f' from {carrier(s, by)}' if by is not None and by != owner else ''}"
                   f"{f' ({source})' if source else ''}{'' if hidden else f': {old} -> {new}'}")
    with Nested(s, pos):
        _react(s, meter, owner, old, new, source, by, down, pos)


def _step(s: "StateView", meter: Meter, owner: Any, i: int, amount: int, down: bool) -> int | None:
    """Move the marker in slot ``i`` by ``amount`` (not past the bounds): the value it left, None when it did not move."""
    if amount is None or amount <= 0:  # none: as adding nothing to a counter, nothing happens
        return None
    old = s.counters[i]
    new = meter.counter.clamp(s, owner, old - amount if down else old + amount)
    if new == old:
        return None
    s.counters[i] = new
    s._actions = None
    return old


def _react(s: "StateView", meter: Meter, owner: Any, old: int, new: int, source: Any, by: Any, down: bool,
           pos: SourcePos | None) -> None:
    """After a move from ``old`` to ``new`` (by the code at ``pos``): the tile where the marker stopped reacts, then the
    thresholds crossed run."""
    _land(s, meter, owner, new, source, by, abs(old - new), down, pos)
    if meter.thresholds:
        run_crossed(s, meter.thresholds, meter.name, owner, carrier(s, owner), old, new, by, source, pos)


def watcher(meter: Meter) -> Callable[["StateView", Any, int, int, Any, Any, SourcePos | None], None]:
    """What a meter's counter calls when anything else moves it (code's ``morale(r) -= 2`` at ``pos``, an ``advance``
    step, a cast's payment): the thresholds the change crosses run.

    Only a meter with thresholds is watched (the compiler decides), so a counter without pays nothing.  ``by`` is
    whoever made the change; the ``meter`` section's thresholds read it as a component, so a role (a step's
    current role) reaches them as none.
    """
    components_only = meter.cause != "by"

    def changed(s: "StateView", owner: Any, old: int, new: int, by: Any, source: Any, pos: SourcePos | None) -> None:
        if components_only and not isinstance(by, int):
            by = None
        with Nested(s, pos):
            run_crossed(s, meter.thresholds, meter.name, owner, carrier(s, owner), old, new, by, source, pos)

    return changed


def carrier(s: "StateView", owner: Any) -> str:
    """A meter's carrier in a log line: a component as :func:`label` says it, a role by its name."""
    return label(s, owner) if isinstance(owner, int) and not isinstance(owner, bool) else str(owner)


def _defeated(s: "StateView", target: int, attacker: Any, source: Any, amount: int, pos: SourcePos | None) -> None:
    """The marker reached 0: keep who did it and from what, then run the ``on_defeat`` hooks."""
    if defeat_of(s, target) is None:
        work = meter_work(s)
        s.slices[MeterWork.block] = MeterWork(work.depth, work.hits,
                                              (*(work.defeats or ()), (target, None if attacker == target else attacker, source)))
    statuses.run_hook(s, target, "on_defeat", attacker, source, amount, pos)


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


def defeat_place(s: "StateView", cid: Any) -> int:
    """The place in which a component's marker reached 0 among all that did, from 1; 0 while it has not.

    >>> class S: slices = {MeterWork.block: MeterWork(defeats=((3, 1, "action"), (5, None, "sting")))}
    >>> defeat_place(S(), 5), defeat_place(S(), 3), defeat_place(S(), 4)
    (2, 1, 0)
    """
    for place, (cid_, _, _) in enumerate(meter_work(s).defeats or (), start=1):
        if cid_ == cid:
            return place
    return 0


def _land(s: "StateView", meter: Meter, target: int, value: int, source: Any, attacker: Any, amount: int, down: bool,
          pos: SourcePos | None) -> None:
    """The marker came to rest on ``value``: a special tile there nullifies statuses and runs its code."""
    tile = meter.tile_at(target, value)
    if tile is None:
        return
    kind = meter.kinds[tile[0]]
    which = "" if unseen(s, target) else f"{kind.name} "  # which tile would tell where its marker is
    for name in kind.nullifies:
        statuses.remove(s, target, name, because=f"its {which}tile", pos=pos)
    hook = kind.on_damage if down else kind.on_heal
    if hook is not None:
        with Running(s, f"the {which}tile"), ToldAsHidden(s, target, "tile under the marker of {}", pos):
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


def attacker_of(fn: Function, scope: Scope, call: ast.Call, wanted: Type = ANY_COMPONENT) -> Any:
    """The closure giving who causes the change: ``by = ...`` (a ``wanted``), else ``self`` where the code has one, else none."""
    keywords = call.keywords()
    for name, kw in keywords.items():
        if name != "by":
            scope.error(kw.pos, f"{fn.name}() has no option '{name}'", f"usage: {fn.signature}")
    if "by" in keywords:
        return fn.value(scope, keywords["by"].value, wanted, "by").fn
    return local_reader(scope, "self")


@dataclass(frozen=True)
class Defeat(Function):
    """``defeated_by(TARGET)``, ``defeat_source(TARGET)`` and ``defeat_order(TARGET)``: who brought a component to 0,
    from what source, and in which place among all that reached 0."""

    part: int = 0  # 0: the attacker, 1: the source, 2: the place

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        meter: Meter = scope.vocab.data["meter"]  # only rulesets with a meter offer these functions (see attach)
        result_type = (ANY_COMPONENT, meter.source_type, INT)[self.part]
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(result_type, lambda s, e: None)
        target = self.value(scope, args[0], ANY_COMPONENT, "target").fn
        part = self.part
        if part == 2:
            return Compiled(INT, lambda s, e: defeat_place(s, target(s, e)))

        def read(s: Any, e: list[Any]) -> Any:
            found = defeat_of(s, target(s, e))
            return None if found is None else found[part]

        return Compiled(result_type, read)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if not args:
            return self.name
        if self.part == 2:
            return f"the place in which {args[0].describe()} fell"
        what = "who defeated" if self.part == 0 else "the source of the blow that defeated"
        return f"{what} {args[0].describe()}"


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
    legend = f"  meters: {counter} left/top, █ a tile left, ░ a tile lost"
    if kinds:  # a meter without special tiles keys none (its legend ended in a colon, naming nothing)
        legend += f"; KIND[N]@AT a special tile at that {counter}: {kinds}"
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
    Defeat("defeat_order", "defeat_order(TARGET) -> int",
           "The place in which a component's meter reached 0 among all that did, counting from 1 for the first; "
           "0 while it has not.",
           "max(defeat_order(c) for c in units)", part=2),
)


BLOCK = declare(Block(
    "meter",
    slices=(MeterWork,),
    keys={
        "meter": {
            "description": ("A per-component counter read as a track of tiles, from its start down to the bottom tile at 0: "
                            "`damage(TARGET, AMOUNT [, SOURCE])` moves the marker down and `heal(...)` up; the "
                            "special tile where it lands reacts (its code runs, statuses it nullifies end), the "
                            "bearer's statuses' `on_damage` (healed: `on_heal`) hooks run, and a marker reaching 0 is at the bottom (its "
                            "statuses end; it stays there; `bottom` and `at_bottom` name it)."),
            "$ref": "#/$defs/meter",
        },
    },
    defs={
        "meter": {
            "description": "`meter: {counter: stamina, tile: 10, tiles: meter, sources: source, kinds: {...}}`.",
            "type": "object",
            "properties": {
                "counter": {
                    "description": ("The counter the marker shows: one kept per component (`per: <component "
                                    "kind>`), usually with `min: 0` and a `max`."),
                    "type": "string",
                    "examples": ["stamina"],
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
                "thresholds": {
                    "description": ("Code run when damage, healing, an assignment or a step (`advance`) takes the counter past "
                                    "a mark (see `meters`)."),
                    "$ref": "#/$defs/thresholds",
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
