"""Counters: whole numbers a ruleset declares — a resource per role, a meter per component, a game-wide tally.

A ruleset lists them under ``counters:``::

    counters:
      gold: {per: role, start: 3, min: 0}          # gold(r)
      wounds: {per: unit, start: 0, max: self.toughness}   # wounds(u), kept within 0..toughness
      round: {start: 1}                            # one for the whole game: round

Code reads them like any value (``gold(r) >= 2``) and changes them with
``=``, ``+=`` and ``-=`` in programs (``gold(current_role) -= 2``).  A change
is clamped to ``min``/``max`` (numbers or expressions of ``self``, the owner),
so "lose 3 gold" with 2 left leaves 0 — do as much as you can.

All counters live in one flat list of ints in the state (cheap to clone);
:class:`CounterSpec` maps an owner to its index.

>>> spec = CounterSpec("gold", "role", offset=4, owners=("A", "B"))
>>> spec.index_of("B")
5
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from engine.blocks.hooks import SOURCE_LOCAL, local_reader
from engine.core.errors import EffectRuntimeError, did_you_mean
from engine.core import limits
from engine.core.facedown import told_name
from engine.core.yamlsource import Mapping
from engine.lang import ast, codegen, statements
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, CELL, INT, NONE_T, Component, Enum, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.core.errors import SourcePos

Bound = Callable[["StateView", Any], int | None]  # (state, owner) -> a bound, or None for none
Watch = Callable[["StateView", Any, int, int, Any, Any, "SourcePos | None"], None]  # (state, owner, old, new, by, source, where)
GAME = "game"
GAME_TYPE = NONE_T  # `self` of a game-wide counter is none


@dataclass
class CounterSpec:
    """One declared counter: who owns a value (``role``, a component kind, or the whole ``game``) and its bounds."""

    name: str
    per: str
    offset: int = 0
    owners: tuple[Any, ...] = (None,)  # role names, component ids, or (None,) for one game-wide value
    start: Bound = field(default=lambda s, owner: 0, repr=False)
    low: Bound | None = field(default=None, repr=False)
    high: Bound | None = field(default=None, repr=False)
    doc: str = ""
    shown: bool = True  # drawn with the board, its changes logged (false: bookkeeping that players never look at)
    watch: Watch | None = field(default=None, repr=False)  # told of every change (a meter's thresholds); None: nothing watches it
    floor: int | None = None  # ``min`` when it is a fixed number (written so, or an option): None when absent or read from play
    ceiling: int | None = None  # ``max`` likewise
    keys: tuple[Any, ...] | None = None  # ``key:``: one value per owner and key (its owners are (owner, key) pairs)
    key_of: str = ""  # what the keys are, as written: a type, a component kind, or numbers ``2..12``
    _index: dict[Any, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index = {owner: self.offset + i for i, owner in enumerate(self.owners)}

    def index_of(self, owner: Any) -> int | None:
        """The slot of ``owner``'s value in ``State.counters`` (None: it has no such counter)."""
        return self._index.get(owner)

    def clamp(self, s: "StateView", owner: Any, value: int) -> int:
        """``value`` kept within the counter's bounds for ``owner``."""
        if self.high is not None:
            high = self.high(s, owner)
            if high is not None and value > high:
                value = high
        if self.low is not None:
            low = self.low(s, owner)
            if low is not None and value < low:
                value = low
        return value

    @property
    def keyed_by_numbers(self) -> bool:
        """Whether the counter is kept per key of a range of whole numbers (``key: 2..12``), a row of numbers a view
        may draw as a grid.

        >>> CounterSpec("climb", "role", keys=(2, 3), key_of="2..3").keyed_by_numbers, CounterSpec("gold", "role").keyed_by_numbers
        (True, False)
        """
        return self.keys is not None and RANGE.fullmatch(self.key_of) is not None

    @property
    def columns(self) -> tuple[Any, ...] | None:
        """The numbers a view draws across a grid of the counter's values: its keys when it is kept per numbers
        (``key: 2..12``), the second keys when kept per a row and numbers (``key: [colour, 1..6]``, a row of the grid
        per first key); None for any other.

        >>> CounterSpec("marks", "role", keys=(("R", 1), ("R", 2), ("B", 1), ("B", 2)), key_of="colour x 1..2").columns
        (1, 2)
        """
        if self.keyed_by_numbers:
            return self.keys
        parts = key_parts(self)
        if len(parts) != 2 or not RANGE.fullmatch(parts[1]) or not self.keys:
            return None
        return tuple(dict.fromkeys(column for _, column in self.keys))

    def fixed_range(self) -> tuple[int | None, int | None]:
        """The lowest and highest values the counter ever holds, whatever the game does: its ``min`` and ``max`` when
        they are fixed numbers (every change and start is clamped to them; a min above the max keeps it at the min).
        None where a bound is absent or depends on the position (``max: self.toughness``).

        >>> CounterSpec("gold", "role", floor=0, ceiling=9).fixed_range(), CounterSpec("x", "game", floor=5, ceiling=2).fixed_range()
        ((0, 9), (5, 5))
        """
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            return self.floor, self.floor
        return self.floor, self.ceiling


def initial_values(s: "StateView", specs: dict[str, CounterSpec]) -> list[int]:
    """Every counter's start value, clamped (the order of ``State.counters``)."""
    values: list[int] = []
    for spec in specs.values():
        values.extend(spec.clamp(s, owner, spec.start(s, owner)) for owner in spec.owners)
    return values


def owner_type(spec: CounterSpec, scope: Scope) -> Type:
    """The effect-language type of a counter's owner (of a keyed counter: the owner's, the key aside)."""
    if spec.per == GAME:
        return GAME_TYPE
    return scope.vocab.data.get("role_type", ANY) if spec.per == "role" else Component(spec.per)


@dataclass(frozen=True)
class CounterOf(Function):
    """``gold(r)``: the value of a per-role or per-component counter.  Made by the vocabulary for each one."""

    spec: CounterSpec | None = None
    bare: ClassVar[bool] = False

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        owner = self._owner(call, scope)
        slot = owner.slot
        spec, pos, slots = self.spec, call.pos, self.spec._index  # type: ignore[union-attr]
        code = None
        if scope.pure:  # an owner without the counter is a KeyError, which the closures say in words (codegen.LOOKUP)
            (who, consts), table = codegen.expr(owner), codegen.fresh("k")
            code = codegen.Code(f"s.counters[{table}[{who}]]", None, consts + ((table, slots), (codegen.LOOKUP, True)))
        if slot is None:
            fn = owner.fn

            def value(s: Any, e: list[Any]) -> int:  # the slot and the read in one call: games read counters a lot
                who = fn(s, e)
                i = slots.get(who)
                if i is None:
                    raise no_counter(s, spec, who, pos)  # type: ignore[arg-type]
                return s.counters[i]

            return Compiled(INT, value, code=code)

        def local(s: Any, e: list[Any]) -> int:  # gold(r), r a local: one look-up
            i = slots.get(e[slot])
            if i is None:
                raise no_counter(s, spec, e[slot], pos)  # type: ignore[arg-type]
            return s.counters[i]

        return Compiled(INT, local, code=code)

    def _owner(self, call: ast.Call, scope: Scope) -> Compiled:
        """The owner ``call`` names (none when it names nothing)."""
        assert self.spec is not None
        args = self.arity(call, scope, 1)
        return self.value(scope, args[0], owner_type(self.spec, scope), "owner") if args else Compiled(NONE_T, lambda s, e: None)

    def compile_index(self, call: ast.Call, scope: Scope) -> Callable[[Any, list[Any]], int]:
        """A closure giving the slot of the counter named by ``call`` (an error at run time if the owner has none)."""
        return self._index(self._owner(call, scope).fn, call.pos)

    def _index(self, owner: Callable[[Any, list[Any]], Any], pos: Any) -> Callable[[Any, list[Any]], int]:
        """The slot of the counter of whom ``owner`` gives (an error at ``pos`` when it has none)."""
        spec, slots = self.spec, self.spec._index  # type: ignore[union-attr]

        def index(s: Any, e: list[Any]) -> int:
            who = owner(s, e)
            i = slots.get(who)
            if i is None:
                raise no_counter(s, spec, who, pos)  # type: ignore[arg-type]
            return i

        return index

    def compile_write(self, target: ast.Node, scope: Scope) -> statements.Writer:
        """``gold(r) += 2``: the closure that changes the named owner's value."""
        assert isinstance(target, ast.Call) and self.spec is not None
        index = self.compile_index(target, scope)
        if self.spec.watch is None:
            return writer(self.spec, index)
        return watched_writer(self.spec, index, local_reader(scope, "self"), local_reader(scope, SOURCE_LOCAL), target.pos)

    def describe(self, call: ast.Call) -> str:
        return f"the {self.name} of {call.args[0].describe()}" if len(call.args) == 1 else super().describe(call)


def no_counter(s: Any, spec: CounterSpec, who: Any, pos: Any) -> EffectRuntimeError:
    """The error for reading or writing a counter of an owner that has none."""
    shown = "nothing" if who is None else s.game.component_names[who] if isinstance(who, int) else who
    told = told_name(s, who) if isinstance(who, int) else None
    public = None if told is None else f"{pos}: {told} has no {spec.name}"
    return EffectRuntimeError(f"{shown} has no {spec.name}", pos, public)


@dataclass(frozen=True)
class GameCounter:
    """A game-wide counter as an assignment target: ``round += 1``."""

    spec: CounterSpec
    bare: ClassVar[bool] = True

    def compile_write(self, target: ast.Node, scope: Scope) -> statements.Writer:
        spec, i = self.spec, self.spec.offset
        return lambda s, e, combine: s.set_counter(spec, None, i, combine(s.counters[i]))


def writer(spec: CounterSpec, index: Callable[[Any, list[Any]], int]) -> statements.Writer:
    """The assignment closure for a counter whose slot ``index`` finds."""

    def write(s: Any, e: list[Any], combine: Callable[[int], int]) -> None:
        i = index(s, e)
        s.set_counter(spec, spec.owners[i - spec.offset], i, combine(s.counters[i]))

    return write


def watched_writer(spec: CounterSpec, index: Callable[[Any, list[Any]], int], by: Callable[[Any, list[Any]], Any],
                   source: Callable[[Any, list[Any]], Any], pos: "SourcePos | None") -> statements.Writer:
    """The assignment closure (at ``pos``) for a counter a block watches: the change says who made it and from what."""

    def write(s: Any, e: list[Any], combine: Callable[[int], int]) -> None:
        i = index(s, e)
        s.set_counter(spec, spec.owners[i - spec.offset], i, combine(s.counters[i]), by(s, e), source(s, e), pos)

    return write


# ------------------------------------------------------------------ reading `counters:`

COUNTER_KEYS = ("per", "key", "start", "min", "max", "doc", "shown")
_SEATS = ("player", "players", "seat", "seats")
"""What a designer may write for ``per: role``: a counter each player keeps."""


def declare_counters(b: "BuildContext") -> None:
    """The first pass over ``counters:``: names, owners and slots (bounds need the vocabulary, see :func:`compile_counters`)."""
    g = b.game
    offset = 0
    past = PastLimit()  # the counters past the counter_values limit, told once
    for name, spec, pos in b.named_entries("counters", "counter", "{per: role, start: 0}",
                                             "changed ({n} = 3) or read per owner ({n}(r))"):
        b.unknown_keys(spec, COUNTER_KEYS, f"counter '{name}'")
        per = str(spec.get("per", GAME))
        choices = ["role", GAME, *g.kinds]
        if per not in choices:
            hint = "each seat plays a role: a counter per player is 'per: role'" if per in _SEATS else did_you_mean(per, choices)
            if per in g.types and per == getattr(g.roles, "type_name", None):
                hint = f"the roles are the values of '{per}': a counter each keeps is 'per: role'"
            elif per in g.types:
                hint = (f"'{per}' is a type: its values carry no counters; make a kind of components, one for each "
                        f"value (an attribute of type {per} says which), and keep the counter per that kind")
            b.error(b.pos(spec, "per"), f"a counter belongs to 'role', 'game' or a component kind, not '{per}'", hint)
            seats = per in _SEATS or per == getattr(g.roles, "type_name", None)
            meant = "role" if seats else next((c for c in choices if hint == f"did you mean '{c}'?"), None)
            if meant is None:
                continue
            per = meant  # read on as meant: its uses are no more errors
        if per == "role":
            owners: tuple[Any, ...] = g.roles.values if g.roles else ()
        elif per == GAME:
            owners = (None,)
        else:
            owners = tuple(g.kinds[per])
        shown = spec.get("shown", True) is not False
        keys, key_of = read_keys(b, spec) if spec.get("key") is not None else (None, "")
        if not past.fits(offset, len(owners) * len(keys or (None,)), pos, f"counter '{name}'"):
            continue
        if keys is not None:
            owners = tuple((owner, key) for owner in owners for key in keys)
        g.counters[str(name)] = CounterSpec(str(name), per, offset, owners, doc=str(spec.get("doc") or ""), shown=shown,
                                            keys=keys, key_of=key_of)
        offset += len(owners)
    past.tell(b)


def too_many_values(b: "BuildContext", offset: int, count: int, pos: "SourcePos | None", what: str) -> bool:
    """Whether ``count`` more values after the ``offset`` already kept pass the ``counter_values`` limit (an error
    at ``pos`` then, naming ``what`` keeps them), before any is made.

    Example: a counter per component of a kind of 20,000 keyed by that kind would keep 400,000,000 values.
    """
    past = PastLimit()
    if past.fits(offset, count, pos, what):
        return False
    past.tell(b)
    return True


class PastLimit:
    """What would pass the ``counter_values`` limit among a list of counters (or meters), told in one error naming them
    all, at the first: 200 counters past it were 100 errors saying the same.

    >>> past = PastLimit(); past.fits(0, 10, None, "counter 'a'"), past.fits(999_999, 10, None, "counter 'b'")
    (True, False)
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.count = 0
        self.pos: "SourcePos | None" = None

    def fits(self, offset: int, count: int, pos: "SourcePos | None", what: str) -> bool:
        """Whether ``count`` more values after the ``offset`` kept stay within the limit; else ``what`` is noted."""
        if offset + count <= limits.current().counter_values:
            return True
        if not self.names:
            self.pos = pos
        self.names.append(what)
        self.count += count
        return False

    def tell(self, b: "BuildContext") -> None:
        """The one error for what did not fit, if any."""
        if not self.names:
            return
        most = limits.current().counter_values
        shown = ", ".join(self.names[:5]) + (f" and {len(self.names) - 5:,} more" if len(self.names) > 5 else "")
        keeps = "keeps" if len(self.names) == 1 else f"({len(self.names):,}) keep"
        b.error(self.pos, f"{shown} {keeps} {self.count:,} values (one per owner and key), and the counters, meters and "
                          f"statuses would keep more than {most:,} in all {limits.exceeded('counter_values')}")


RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*")
CELL_KEYS = "cell"
"""``key: cell``: one value per cell of the board (a mark on a square that holds no piece: territory, a visited
square, fog), keyed as code writes a cell, ``(x, y)``."""
MOST_KEYS = 1000
"""The most keys a counter may have: each is a value every observation holds."""


PAIRED = " x "
"""Between the two things a counter is keyed by, as ``key_of`` says them: ``colour x 2..12``."""


def read_keys(b: "BuildContext", spec: Mapping) -> tuple[tuple[Any, ...] | None, str]:
    """A counter's ``key:``, its keys and what they are: a type's values, a component kind's components (by id), the
    whole numbers ``FROM..TO`` or the board's cells; or two of these, ``[colour, 2..12]``, whose keys are the pairs
    (a row and a number of a sheet: ``("X", 7)``), said ``hue x 2..12``; (None, "") with an error where it is
    none of these.

    Example: ``key: hue`` gives the hues, ``key: 2..12`` the numbers 2 to 12, ``key: [hue, 1..3]`` the pairs
    ``(hue, 1)``, ``(hue, 2)``, ... of each hue.
    """
    written = spec.get("key")
    if not isinstance(written, list):
        return _read_key(b, str(written), b.pos(spec, "key"))
    pos = b.pos(spec, "key")
    if len(written) != 2:
        b.error(pos, f"a counter is kept per one key (key: colour) or per two, a row and a column of a grid "
                     f"(key: [colour, 2..12]), not per {len(written)}",
                f"write key: {written[0]}" if len(written) == 1 else "keep a counter for each of the other keys")
        return None, ""
    parts = [_read_key(b, str(item), b.pos(written, i)) for i, item in enumerate(written)]
    if any(keys is None for keys, _ in parts):
        return None, ""
    kinds = [of for _, of in parts if of in b.game.kinds]
    if len(kinds) == 2:
        b.error(pos, f"a counter kept per two keys may have one component kind among them, not two ({kinds[0]} and "
                     f"{kinds[1]})", f"keep it per {kinds[0]} (per: {kinds[0]}) and key it by {kinds[1]}")
        return None, ""
    (rows, row_of), (columns, column_of) = parts
    if len(rows) * len(columns) > MOST_KEYS:
        b.error(pos, f"the keys {row_of}{PAIRED}{column_of} make {len(rows) * len(columns):,} pairs, more than a "
                     f"counter may keep ({MOST_KEYS:,})")
        return None, ""
    return tuple((row, column) for row in rows for column in columns), f"{row_of}{PAIRED}{column_of}"


def _read_key(b: "BuildContext", text: str, pos: "SourcePos | None") -> tuple[tuple[Any, ...] | None, str]:
    """One key of a counter, written ``text`` at ``pos`` (see :func:`read_keys`)."""
    g = b.game
    if text in g.types:
        return tuple(g.types[text]), text
    if text in g.kinds:
        return tuple(g.kinds[text]), text
    if text == CELL_KEYS:
        grid = g.grid
        if grid is None or not grid.fixed:
            b.error(pos, f"a counter keyed by cell keeps a value for each cell of a board with edges (a square grid's "
                         f"width and height, a hex board or a board of points), and this ruleset has "
                         f"{'no board' if grid is None else 'a growing board, whose cells are not known before play'}",
                    "give the board a width and a height, or key the counter by numbers FROM..TO")
            return (), CELL_KEYS  # read on as keyed by cell: its uses are no more errors
        return tuple(grid.cells), CELL_KEYS
    m = RANGE.fullmatch(text)
    if m is not None:
        low, high = int(m.group(1)), int(m.group(2))
        if low > high or high - low >= MOST_KEYS:
            b.error(pos, f"the keys {text} must run up, at most {MOST_KEYS} numbers (like 2..12)")
            return None, ""
        return tuple(range(low, high + 1)), f"{low}..{high}"
    b.error(pos, f"a counter's key is a type, a component kind, numbers FROM..TO (like 2..12) or cell (the board's "
                 f"cells), not '{text}'", did_you_mean(text, [*g.types, *g.kinds, CELL_KEYS]))
    return None, ""


def key_parts(spec: CounterSpec) -> tuple[str, ...]:
    """What each key of a keyed counter is, as written: one for ``key: colour``, two for ``key: [colour, 2..12]``.

    >>> key_parts(CounterSpec("marks", "role", keys=(("X", 2),), key_of="hue x 2..12"))
    ('hue', '2..12')
    >>> key_parts(CounterSpec("gold", "role"))
    ()
    """
    return () if spec.keys is None else tuple(spec.key_of.split(PAIRED))


def key_type(spec: CounterSpec, scope: Scope) -> Type:
    """The effect-language type of a keyed counter's key: a type's value, a component of a kind, a number or a cell."""
    return part_type(spec.key_of, scope)


def part_type(part: str, scope: Scope) -> Type:
    """The effect-language type of one key of a counter, written ``part``: a type's value, a component, a number or
    a cell."""
    if part in scope.vocab.data.get("types", {}):
        return Enum(part)
    if part == CELL_KEYS:
        return CELL
    return INT if RANGE.fullmatch(part) else Component(part)


def component_key(spec: CounterSpec, owner: Any) -> int | None:
    """The component a keyed counter's ``(owner, key)`` has as its key (a counter keyed by a kind: ``seen(r, c)``;
    of two keys, the one that is a component), else None: where it lies hidden, the key says no more of it than an
    owner lying there would.

    >>> component_key(CounterSpec("seen", "role", keys=(0, 1), key_of="card"), ("A", 1))
    1
    >>> component_key(CounterSpec("marker", "role", keys=(2, 3), key_of="2..3"), ("A", 3)) is None
    True
    >>> component_key(CounterSpec("held", "role", keys=((2, 0),), key_of="2..3 x card"), ("A", (2, 0)))
    0
    """
    if type(owner) is not tuple or spec.keys is None:
        return None
    parts = key_parts(spec)
    keys = owner[1] if len(parts) > 1 else (owner[1],)
    return next((key for part, key in zip(parts, keys) if type(key) is int and not RANGE.fullmatch(part)), None)


def key_label(game: Any, spec: CounterSpec, key: Any) -> str:
    """A key as observations and the log name it: a value or number as written, a component by its name, a cell as the
    board names it (``2,3``, ``e4``); the two keys of a counter kept per two, ``X, 7``."""
    parts = key_parts(spec)
    if len(parts) > 1:
        return ", ".join(_part_label(game, part, k) for part, k in zip(parts, key))
    return _part_label(game, spec.key_of, key)


def _part_label(game: Any, part: str, key: Any) -> str:
    """One key, written ``part`` in the counter's declaration, as :func:`key_label` names it."""
    if part == CELL_KEYS:
        return game.cell_text(key)
    return game.component_names[key] if isinstance(key, int) and not RANGE.fullmatch(part) else str(key)


def owner_text(game: Any, spec: CounterSpec, owner: Any) -> str:
    """The owner of one of a counter's values as a scenario writes it in ``stock(A, X)``: ``A``, ``A, X``, ``7``
    (a game-wide keyed counter's key), a component by its name."""
    if isinstance(owner, tuple):
        who, key = owner
        keyed = key_label(game, spec, key)
        if CELL_KEYS in key_parts(spec):  # 2,3 written as the scenario's commas are read: 2, 3
            keyed = re.sub(r",\s*", ", ", keyed)
        return keyed if who is None else f"{owner_text(game, spec, who)}, {keyed}"
    return game.component_names[owner] if isinstance(owner, int) else str(owner)


def compile_counters(b: "BuildContext") -> None:
    """The second pass: ``start``, ``min`` and ``max`` — numbers, options or expressions of ``self`` (the owner)."""
    tree = b.tree.get("counters") or {}
    for name, counter in b.game.counters.items():
        if name not in tree:
            continue  # declared by a block (a meter of `meters:`), which reads its bounds
        spec = tree[name]
        scope = Scope(b.game.vocab)
        self_type = owner_type(counter, scope)
        keyed = None if counter.keys is None else key_type(counter, scope) if len(key_parts(counter)) == 1 else PAIRED
        counter.start = read_bound(b, spec, "start", self_type, keyed) or (lambda s, owner: 0)
        counter.low, counter.floor = read_bounds(b, spec, "min", self_type, keyed)
        counter.high, counter.ceiling = read_bounds(b, spec, "max", self_type, keyed)


def read_bound(b: "BuildContext", spec: Mapping, key: str, self_type: Type, keyed: Type | str | None = None) -> Bound | None:
    """``spec[key]`` as a bound: a number, an option, or an expression of ``self`` (None when not given)."""
    return read_bounds(b, spec, key, self_type, keyed)[0]


def read_bounds(b: "BuildContext", spec: Mapping, key: str, self_type: Type,
                keyed: Type | str | None = None) -> tuple[Bound | None, int | None]:
    """``spec[key]`` as a bound (see :func:`read_bound`), and its value when it is fixed: a whole number written so, or
    an option (None when it reads the position or the owner).  ``keyed``: the type of a keyed counter's key, which the
    expression reads as ``key`` (``self`` is the owner); :data:`PAIRED` for a counter kept per two keys, whose bound
    reads ``self`` alone."""
    if key not in spec or spec[key] is None:
        return None, None
    value = spec[key]
    if isinstance(value, int) and not isinstance(value, bool):
        return (lambda s, owner, v=value: v), value
    bind = {"self": self_type} if keyed is None or keyed == PAIRED else {"self": self_type, "key": keyed}
    compiled, slots = b.expression(value, "int", bind=bind, pos=b.pos(spec, key))
    f = compiled.fn
    fixed = None
    if compiled.constant:
        try:
            fixed = f(None, [None] * slots)
        except Exception:  # noqa: BLE001 - the bound fails in play too, where it says why
            fixed = None
        if not isinstance(fixed, int) or isinstance(fixed, bool):
            fixed = None

    def bound(s: "StateView", owner: Any) -> int:
        env: list[Any] = [None] * slots
        env[0] = owner
        return f(s, env)

    def keyed_bound(s: "StateView", owner: Any) -> int:
        env: list[Any] = [None] * slots
        env[0], env[1] = owner
        return f(s, env)

    def paired_bound(s: "StateView", owner: Any) -> int:
        env: list[Any] = [None] * slots
        env[0] = owner[0]
        return f(s, env)

    return bound if keyed is None else paired_bound if keyed == PAIRED else keyed_bound, fixed
