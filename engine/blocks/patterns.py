"""Patterns on the board: a sequence of values laid out in a shape, found among the pieces.

A ruleset declares shapes under ``shapes:``; a component names one and lists
the values to find, in order (see the ``cast`` step), or any code names one
(see :class:`PatternSearch`)::

    shapes:
      line: {kind: line}                       # a straight line of adjacent cells, read from either end
      chain: {kind: chain}                     # each next piece orthogonally next to the one before
      hook: {kind: template, cells: [[0, 0], [1, 0], [1, 1]], rotate: true, mirror: true}
      tower: {kind: stack}                     # one cell, the pieces from the top down

* ``line``: ``directions`` is ``all`` (the default: orthogonal and diagonal),
  ``orthogonal`` or ``diagonal``; ``either_end: false`` reads lines only left
  to right and top to bottom.
* ``chain``: consecutive values on adjacent cells (``adjacency``, default
  orthogonal), no cell twice.
* ``template``: the cells ``[x, y]`` (or ``[x, y, depth]``: depth 1 is the piece
  right under the top one) of the values, in order; ``rotate`` allows the
  board's turns, ``mirror`` the reflections.

Geometry belongs to the board: on a hexagonal board a line runs along the six
directions between neighbouring hexes (``orthogonal`` and ``diagonal`` are
square words and are refused there), a chain steps between neighbouring hexes,
and a template turns in sixths of a circle.
* ``stack``: every value on one cell, from the top piece down.

A pattern may hold two kinds of free values besides the values to find:
``_`` is any value, and ``$NAME`` (a variable) any value, the same at every
place the same variable appears — ``[$a, $a, $a, $a]`` is four pieces of one
value, whichever.  Free values are never read as another value (they match
anything already), so ``budget`` only ever pays for the fixed ones.  ``.``
asks for a square of the board with no piece (in a line or a template of top
pieces, beside at least one piece: :func:`empty_problem`); it is never read as
another value either, and the search lays such a pattern from its pieces
(:func:`_with_empty`).

Any code may look for a pattern too (:class:`PatternSearch`): ``pattern_found("hook", s.hue for s in board,
["$a", "_", "$a"])``, ``pattern_count(...)`` and ``pattern_pieces(...)`` read the pieces a selection names, in the
same search.

A cell that is not in a stack is read by its top piece.  Finding is fast: the
layouts of a shape are computed once per length.  A shape that reads only top
pieces (a line, a flat template) is walked out from each piece that may hold
the first value, as far as its places hold pieces (:func:`lies_on` stops at
the first fit); with values read as others allowed, only from the pieces with
another one the layout's first step away, which the state keeps
(engine/core/kept_pairs.py), and whether the pattern lies at all reads the
windows of a line read from either end once for the values both ways
(:meth:`Shape.both_ways`).  One that reads stacks has a board read each layout's windows
(the values wherever all its places hold a piece) once for every pattern of
that length, from the windows of the layout one place shorter; a pattern is
then one look-up among them (or, with ``budget`` values that may differ —
read as another value at a price — one comparison per distinct window).

>>> line = Shape("line", "line", directions=DIRECTIONS["all"])
>>> len(line.layouts(3)), line.layouts(2)[0]
(8, ((0, 0, 0), (1, 0, 0)))
>>> hook = Shape("hook", "template", cells=((0, 0, 0), (1, 0, 0), (1, 1, 0)), rotate=True, mirror=True)
>>> len(hook.layouts(3))
8
>>> is_free("_"), is_free("$a"), is_free("red_1")
(True, True, False)
>>> from engine.blocks.hexgrid import HEX
>>> triangle = Shape("triangle", "template", cells=((0, 0, 0), (1, 0, 0), (0, 1, 0)), rotate=True, geometry=HEX)
>>> len(triangle.layouts(3))
6
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cached_property, lru_cache
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from engine.blocks.block import Block, declare
from engine.blocks.grid import ADJACENCY, SQUARE, Geometry, format_cell
from engine.blocks.pointsboard import NO_SHAPES, POINTS
from engine.core.errors import EffectRuntimeError, did_you_mean
from engine.core.kept_pairs import kept_pairs
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection
from engine.lang.scope import Compiled, Fn, Scope
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, CELL, INT, STR, Component, ListOf, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView

Cell = tuple[int, int]
Spot = tuple[int, int, int]  # x, y, depth (0: the top piece of the cell)
Place = tuple[Cell, int]  # a cell and a depth in its stack


class Match(NamedTuple):
    """Where a pattern lies: the place of each value in order, and the values read as another (``recolour``).

    A named tuple (a search may make many): matches of one pattern compare, and sort, by their places first.
    """

    places: tuple[Place, ...]
    recolour: tuple[int, ...] = ()  # indexes of the values whose piece shows something else

    def text(self, values: tuple[Any, ...], cell_text: Callable[[Cell], str] = format_cell) -> str:
        """``3,4 4,4 5,4 with 4,4 as A``: the places in order (``x,y:2`` is the second piece from the top), each cell
        as ``cell_text`` writes it (a game's ``cell_text``: its names, where the board names its cells)."""
        cells = " ".join(place_text(p, cell_text) for p in self.places)
        if not self.recolour:
            return cells
        return cells + " with " + ", ".join(f"{place_text(self.places[i], cell_text)} as {values[i]}" for i in self.recolour)


def place_text(place: Place, cell_text: Callable[[Cell], str] = format_cell) -> str:
    """``3,4`` for a top piece, ``3,4:2`` for the second piece from the top (the cell as ``cell_text`` writes it)."""
    cell, depth = place
    return cell_text(cell) + (f":{depth + 1}" if depth else "")


ANY_VALUE = "_"  # a pattern value matching any piece
EMPTY = "."  # a pattern value asking for a square of the board with no piece on it
VARIABLE = "$"  # ``$NAME``: any value, the same wherever NAME appears in the pattern
VARIABLE_NAME = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*\Z")


def values_text(values: Sequence[Any]) -> str:
    """A pattern's values as a player reads them: an empty square (``.``) in words, every other value as written.

    >>> values_text(("A", "_", "$a", "."))
    'A, _, $a, an empty square'
    """
    return ", ".join(["an empty square" if v == EMPTY else str(v) for v in values])


def is_free(value: Any) -> bool:
    """Whether a pattern value is ``_`` or a ``$NAME`` variable rather than a value to find."""
    return value == ANY_VALUE or (isinstance(value, str) and value.startswith(VARIABLE))


def _fits(want: Any, value: Any, bound: dict[Any, Any]) -> bool:
    """Whether a piece showing ``value`` fits the free pattern value ``want`` (binding its variable in ``bound``)."""
    if want == ANY_VALUE:
        return True
    return bound.setdefault(want, value) == value


def empty_problem(shape: "Shape", values: Sequence[Any]) -> str:
    """What is wrong with the empty squares (``.``) of a pattern for ``shape`` ("" when nothing is).

    >>> empty_problem(DEFAULT_SHAPE, ("A", ".", "A")), empty_problem(DEFAULT_SHAPE, (".", "."))
    ('', "lists only empty squares ('.'): a pattern needs at least one piece to find, a value, '_' or '$NAME'")
    >>> empty_problem(Shape("tower", "stack"), ("A", "."))
    "asks for an empty square ('.'), which only a line or a template of top pieces can hold, not the stack 'tower'"
    """
    if EMPTY not in values:
        return ""
    if shape.kind == "chain" or shape.windowed:
        return (f"asks for an empty square ('{EMPTY}'), which only a line or a template of top pieces can hold, "
                f"not the {shape.kind} '{shape.name}'")
    if all(v == EMPTY for v in values):
        return (f"lists only empty squares ('{EMPTY}'): a pattern needs at least one piece to find, a value, "
                f"'{ANY_VALUE}' or '{VARIABLE}NAME'")
    return ""


KINDS = ("line", "chain", "template", "stack")
SHAPE_KEYS = {"line": ("kind", "directions", "either_end", "doc"), "chain": ("kind", "adjacency", "doc"),
              "template": ("kind", "cells", "rotate", "mirror", "doc"), "stack": ("kind", "doc")}
DIRECTIONS = {"all": ADJACENCY["all"], "orthogonal": ADJACENCY["orthogonal"], "diagonal": ADJACENCY["diagonal"]}


@dataclass(frozen=True)
class Shape:
    """How the values of a pattern lie on the board (see the module's text)."""

    name: str
    kind: str
    directions: tuple[Cell, ...] = ()  # line: the steps from one value to the next; chain: the adjacency
    cells: tuple[Spot, ...] = ()  # template
    rotate: bool = False
    mirror: bool = False
    way: str = "all"  # line: all, orthogonal or diagonal
    either_end: bool = True  # line: read in both directions
    doc: str = ""
    geometry: Geometry = SQUARE  # the board's: how a template turns and reflects
    _layouts: dict[int, tuple[tuple[Spot, ...], ...]] = field(default_factory=dict, repr=False, compare=False)
    _walks: dict[int, tuple[tuple[Cell, ...], ...]] = field(default_factory=dict, repr=False, compare=False)
    _distinct: dict[tuple[Any, ...], tuple[int, ...]] = field(default_factory=dict, repr=False, compare=False)
    _plans: dict[tuple[Any, ...], tuple[tuple[tuple[Cell, ...], tuple[tuple[int, Cell, Any], ...]], ...]] = field(
        default_factory=dict, repr=False, compare=False)
    _both_ways: dict[tuple[Any, ...], tuple[tuple[Cell, bool, tuple[tuple[int, int, Any, Any], ...]], ...]] = field(
        default_factory=dict, repr=False, compare=False)

    def layouts(self, length: int) -> tuple[tuple[Spot, ...], ...]:
        """Every placement of ``length`` values relative to the first one's cell (memoised); chains have none."""
        found = self._layouts.get(length)
        if found is None:
            found = self._layouts[length] = tuple(dict.fromkeys(self._make(length)))
        return found

    def walks(self, length: int) -> tuple[tuple[Cell, ...], ...]:
        """Each of :meth:`layouts` of a flat shape as the steps from its first place's cell to the others' (memoised).

        >>> Shape("line", "line", directions=((1, 0), (0, 1))).walks(3)
        (((1, 0), (2, 0)), ((0, 1), (0, 2)))
        """
        found = self._walks.get(length)
        if found is None:
            found = self._walks[length] = tuple(_steps_from_first(layout) for layout in self.layouts(length))
        return found

    def _make(self, length: int) -> Iterator[tuple[Spot, ...]]:
        if self.kind == "line":
            for dx, dy in self.directions:
                yield tuple((i * dx, i * dy, 0) for i in range(length))
        elif self.kind == "stack":
            yield tuple((0, 0, d) for d in range(length))
        elif self.kind == "template":
            turns = self.geometry.turns if self.rotate else 1
            for flip in ((False, True) if self.mirror else (False,)):
                for turn in range(turns):
                    yield tuple(_orient(self.geometry, spot, turn, flip) for spot in self.cells)

    def plan(self, values: tuple[Any, ...]) -> tuple[tuple[tuple[Cell, ...], tuple[tuple[int, Cell, Any], ...]], ...]:
        """For each of :meth:`walks` of a flat shape that :meth:`distinct` keeps: its steps, and each place after the
        first with its step and the value to find there (memoised: a search walks the same ones over and over).

        >>> Shape("line", "line", directions=((1, 0),)).plan(("A", "B"))
        ((((1, 0),), ((1, (1, 0), 'B'),)),)
        """
        found = self._plans.get(values)
        if found is None:
            walks = self.walks(len(values))
            found = self._plans[values] = tuple((walks[i], tuple(zip(range(1, len(values)), walks[i], values[1:])))
                                                for i in self.distinct(values))
        return found

    def both_ways(self, values: tuple[Any, ...]) -> tuple[tuple[Cell, bool, tuple[tuple[int, int, Any, Any], ...]], ...]:
        """The layouts whether ``values`` lie on the board needs, for a flat shape: each that :meth:`distinct` keeps but
        one that reads another's places backwards (a line read from either end), as its first step, whether its windows
        are read for the values both ways, and each place after the first with its step, its value and the value read
        backwards (memoised).

        >>> Shape("line", "line", directions=((1, 0), (-1, 0), (0, 1))).both_ways(("A", "B"))
        (((1, 0), True, ((1, 0, 'B', 'A'),)), ((0, 1), False, ((0, 1, 'B', 'A'),)))
        """
        found = self._both_ways.get(values)
        if found is None:
            layouts = self.layouts(len(values))
            index = {layouts[i]: i for i in self.distinct(values)}
            kept: dict[int, bool] = {}
            for layout, i in index.items():
                j = index.get(_backwards(layout)[0])
                if j is not None and j != i and j in kept:
                    kept[j] = True
                else:
                    kept[i] = False
            walks, backwards = self.walks(len(values)), values[::-1]
            found = self._both_ways[values] = tuple(
                (walks[i][0], both, tuple((dx, dy, want, back) for (dx, dy), want, back in zip(walks[i], values[1:], backwards[1:])))
                for i, both in kept.items())
        return found

    def distinct(self, values: tuple[Any, ...]) -> tuple[int, ...]:
        """The layouts a search of ``values`` reads, by their index in :meth:`layouts`: the first of those that put
        the values on the same places (a palindrome on a line read from either end), whose matches are the same
        (memoised; a chain has no layouts).

        >>> line = Shape("line", "line", directions=DIRECTIONS["all"])
        >>> len(line.distinct(("A", "B", "A"))), len(line.distinct(("A", "B", "C"))), len(line.distinct(("$x", "_", "$x")))
        (4, 8, 4)
        """
        found = self._distinct.get(values)
        if found is None:
            first: dict[frozenset[tuple[Spot, Any]], int] = {}
            for i, layout in enumerate(self.layouts(len(values))):
                x0, y0 = min(x for x, _, _ in layout), min(y for _, y, _ in layout)
                first.setdefault(frozenset(((x - x0, y - y0, depth), value) for (x, y, depth), value in zip(layout, values)), i)
            found = self._distinct[values] = tuple(first.values())
        return found

    @cached_property
    def deep(self) -> bool:
        """Whether the shape reads pieces under the top ones (a template cell with a depth)."""
        return any(depth for _, _, depth in self.cells)

    @cached_property
    def windowed(self) -> bool:
        """Whether a search reads the board's windows (a stack, or a template reading under the top pieces) rather
        than walking out from the pieces.

        >>> Shape("tower", "stack").windowed, DEFAULT_SHAPE.windowed
        (True, False)
        """
        return self.kind == "stack" or self.deep

    def size(self, length: int) -> int:
        """How many values the shape holds (a template: its cells; the others: any number)."""
        return len(self.cells) if self.kind == "template" else length

    def describe(self) -> str:
        """The shape in English."""
        if self.kind == "line" and self.geometry is not SQUARE:
            ends = "read from either end" if self.either_end else "read in one direction"
            return f"in order on a straight line of neighbouring cells along any of the board's directions, {ends}"
        if self.kind == "line":
            way = {"all": "orthogonal or diagonal"}.get(self.way, self.way)
            ends = "read from either end" if self.either_end else "read left to right or top to bottom"
            return f"in order on a straight {way} line of adjacent cells, {ends}"
        if self.kind == "chain":
            return "in order on a chain of adjacent cells (each next to the one before, no cell twice)"
        if self.kind == "stack":
            return "in one stack, from the top piece down"
        cells = " ".join(f"{x},{y}" + (f":{d + 1}" if d else "") for x, y, d in self.cells)
        turns = ", ".join(w for w, on in (("turned", self.rotate), ("mirrored", self.mirror)) if on)
        return f"on the cells {cells} of a template" + (f" (it may be {turns})" if turns else "")


def _orient(geometry: Geometry, spot: Spot, turn: int, flip: bool) -> Spot:
    """A template cell after ``turn`` of the board's turns (and a reflection first, if ``flip``)."""
    cell = (spot[0], spot[1])
    if flip:
        cell = geometry.reflect(cell)
    for _ in range(turn):
        cell = geometry.turn(cell)
    return (cell[0], cell[1], spot[2])


# ------------------------------------------------------------------ finding


class Board:
    """What one search reads of a state: the value each top piece shows, the cells by value, and the windows.

    Built once per decision and shared by every pattern looked for in it: a
    layout's windows (see :meth:`windows`) are read once for all the patterns
    of its length.
    """

    __slots__ = ("state", "read", "top", "stacked", "pairs", "_by_value", "_windows")

    def __init__(self, s: "StateView", read: Callable[[int], Any], pieces: Iterable[tuple[Cell, int]] | None = None,
                 table: Sequence[Sequence[Any]] | None = None, paired: bool = False) -> None:
        """``pieces``: the cells read, with their top pieces (default: the whole board); a piece under one of them that
        is not read is one ``read`` gives :data:`_MISSING` for (see :func:`selected_board`).  ``table``: when ``read``
        gives an attribute's value, its table ``[face][component]``, which the top pieces are read from directly
        (``read(c)`` is ``table[s.face[c]][c]``), without a call per piece.  ``paired``: the whole board of a state
        that keeps pairs of pieces (engine/core/kept_pairs.py): ``pairs`` is then the state's, read by :meth:`starts`."""
        self.state = s
        self.read = read
        self.pairs: dict[Cell, set[Cell]] | None = s.pairs if paired and pieces is None else None
        face, read_pieces = s.face, s.grid.items() if pieces is None else pieces
        if table is None:
            self.top: dict[Cell, Any] = {cell: read(cid) for cell, cid in read_pieces}
        elif len(table) == 1:  # one face: no face to read
            column = table[0]
            self.top = {cell: column[cid] for cell, cid in read_pieces}
        else:
            self.top = {cell: table[face[cid]][cid] for cell, cid in read_pieces}
        self.stacked = bool(s.stacks)
        self._by_value: dict[Any, list[Cell]] | None = None
        self._windows: dict[tuple[Spot, ...], dict[tuple[Any, ...], list[Cell]]] = {}

    @property
    def by_value(self) -> dict[Any, list[Cell]]:
        """The cells read, by the value they show (worked out when first asked: many searches need none).

        >>> class Two:
        ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
        >>> Board(Two(), "AA".__getitem__).by_value
        {'A': [(0, 0), (1, 0)]}
        """
        found = self._by_value
        if found is None:
            found = self._by_value = {}
            for cell, value in self.top.items():
                cells = found.get(value)
                if cells is None:
                    found[value] = [cell]
                else:
                    cells.append(cell)
        return found

    def share(self, other: "Board | None") -> "Board":
        """This board, reading the windows ``other`` reads when both show the same values on the same cells and
        neither has a stack (a decision that changed nothing the patterns read: their windows are read once).

        >>> class One:
        ...     grid, face, stacks = {(0, 0): 0}, [0], {}
        >>> a, b = Board(One(), "A".__getitem__), Board(One(), "A".__getitem__)
        >>> b.share(a)._windows is a._windows, Board(One(), "B".__getitem__).share(a)._windows is a._windows
        (True, False)
        """
        if other is not None and not (self.stacked or other.stacked) and other.top == self.top:
            self._windows = other._windows
        return self

    def starts(self, step: Cell) -> Iterable[Cell]:
        """The cells read whose piece may have another one ``step`` away: those that do, when the state keeps them
        (see ``paired``); else every cell read.

        >>> class Three:
        ...     grid, face, stacks, pairs = {(0, 0): 0, (1, 0): 1, (5, 5): 2}, [0, 0, 0], {}, {}
        >>> sorted(Board(Three(), "ABC".__getitem__, paired=True).starts((1, 0))), len(Board(Three(), "ABC".__getitem__).starts((1, 0)))
        ([(0, 0)], 3)
        """
        if self.pairs is None:
            return self.top
        cells = self.pairs.get(step)
        return kept_pairs(self.state, step) if cells is None else cells  # type: ignore[arg-type]

    def value_at(self, cell: Cell, depth: int) -> tuple[bool, Any]:
        """(whether a piece is there, the value it shows); ``depth`` 0 is the top piece."""
        if depth == 0:
            return (True, self.top[cell]) if cell in self.top else (False, None)
        pieces = self.state.stack(cell)
        return (True, self.read(pieces[depth])) if depth < len(pieces) else (False, None)

    def windows(self, layout: tuple[Spot, ...]) -> dict[tuple[Any, ...], list[Cell]]:
        """Wherever every place of ``layout`` holds a piece: the values read there, each with the bases (first cells) it is read at.

        Memoised: every pattern of the layout's length reads the same windows.

        >>> class Two:
        ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1, (1, 1): 2}, [0, 0, 0], {}
        >>> board = Board(Two(), "ABA".__getitem__)
        >>> board.windows(((0, 0, 0), (1, 0, 0))), board.windows(((0, 0, 0), (0, 1, 0)))
        ({('A', 'B'): [(0, 0)]}, {('B', 'A'): [(1, 0)]})
        """
        found = self._windows.get(layout)
        if found is None:
            found = self._windows[layout] = self._read_windows(layout)
        return found

    def _read_windows(self, layout: tuple[Spot, ...]) -> dict[tuple[Any, ...], list[Cell]]:
        """The windows of ``layout``: those of the same places read backwards, reversed (a line the other way), when
        the board has them; else its shorter layout's (see :func:`_plan`) one place longer, or read cell by cell."""
        backwards, (lx, ly, _) = _backwards(layout)
        known = self._windows.get(backwards)
        if known is not None:
            return {read[::-1]: [(bx - lx, by - ly) for bx, by in bases] for read, bases in known.items()}
        shorter, (dx, dy, depth) = _plan(layout)
        found: dict[tuple[Any, ...], list[Cell]] = {}
        missing = _MISSING
        if shorter is not None:
            get = self.top.get
            for read, bases in self.windows(shorter).items():
                for bx, by in bases:
                    value = get((bx + dx, by + dy), missing) if depth == 0 else self._read(bx + dx, by + dy, depth)
                    if value is not missing:
                        found.setdefault((*read, value), []).append((bx, by))
        elif len(layout) == 1:  # one top piece: the cells by value
            for value, cells in self.by_value.items():
                found[(value,)] = [(x - dx, y - dy) for x, y in cells]
        else:
            for x, y in self.top:
                bx, by = x - dx, y - dy
                read = tuple(self._read(bx + sx, by + sy, sd) for sx, sy, sd in layout)
                if missing not in read:
                    found.setdefault(read, []).append((bx, by))
        return found

    def _read(self, x: int, y: int, depth: int) -> Any:
        there, value = self.value_at((x, y), depth)
        return value if there else _MISSING


def find(board: Board, shape: Shape, values: tuple[Any, ...], budget: int = 0) -> list[Match]:
    """The matches of ``values`` in ``shape``, with at most ``budget`` values read as another.

    Two layouts that put the same values on the same places are one match (a
    palindrome read from either end): the first layout's is kept (the others
    are not read, :meth:`Shape.distinct`; a chain's paths are merged so).
    Matches come sorted by their places.
    """
    if EMPTY in values:
        return sorted(_with_empty(board, shape, values, budget))
    if not _possible(board, shape, values, budget):
        return []
    matches = _search(board, shape, values, budget)
    if shape.kind != "chain":  # every match is on places of its own
        return sorted(matches)
    found: dict[frozenset[tuple[Place, Any]], Match] = {}
    for match in matches:
        found.setdefault(frozenset(zip(match.places, values)), match)
    return sorted(found.values())


def lies_on(board: Board, shape: Shape, values: tuple[Any, ...], budget: int = 0) -> bool:
    """Whether ``find`` would find a match (stopping at the first one).

    >>> class Two:
    ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
    >>> board = Board(Two(), "AB".__getitem__)
    >>> lies_on(board, DEFAULT_SHAPE, ("B", "A")), lies_on(board, DEFAULT_SHAPE, ("B", "B")), lies_on(board, DEFAULT_SHAPE, ("B", "B"), 1)
    (True, False, True)
    """
    if EMPTY in values:
        return next(_with_empty(board, shape, values, budget), None) is not None
    if not _possible(board, shape, values, budget):
        return False
    if budget and len(values) > 1 and shape.kind != "chain" and not shape.windowed and True not in _pattern(values)[0]:
        return _lies_walked(board, shape, values, budget)
    return next(_search(board, shape, values, budget), None) is not None


def _with_empty(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """The matches of a pattern asking for empty squares (``.``) in a flat shape: each layout laid from every piece
    that may hold its first value asking for a piece; a place asking for an empty square must be on the board with no
    piece there at all (one a selection leaves out is still a piece).  Its place is in the match, read as nothing.

    >>> class Three:
    ...     grid, face, stacks, game = {(0, 0): 0, (2, 0): 1, (1, 1): 2}, [0, 0, 0], {}, None
    >>> [m.text(("A", ".", "A")) for m in _with_empty(Board(Three(), "AAA".__getitem__), DEFAULT_SHAPE, ("A", ".", "A"), 0)]
    ['0,0 1,0 2,0']
    """
    problem = empty_problem(shape, values)
    if problem:
        raise EffectRuntimeError(f"the pattern ({', '.join(map(str, values))}) {problem}")
    s, top, missing = board.state, board.top, _MISSING
    grid = getattr(s.game, "grid", None)
    on_board: Callable[[Cell], bool] = grid.contains if grid is not None else (lambda cell: True)
    occupied = s.grid
    asked = tuple(i for i, v in enumerate(values) if v != EMPTY)
    wanted = tuple(values[i] for i in asked)
    free = _pattern(wanted)[0]
    first = asked[0]
    starts = board.by_value.get(wanted[0], ()) if budget == 0 and not free[0] else top
    layouts = shape.layouts(len(values))
    for layout in (layouts[i] for i in shape.distinct(values)):
        fx, fy, _ = layout[first]
        for x, y in starts:
            bx, by = x - fx, y - fy
            cells = tuple((bx + dx, by + dy) for dx, dy, _ in layout)
            if any(values[i] == EMPTY and (cell in occupied or not on_board(cell)) for i, cell in enumerate(cells)):
                continue
            read = tuple(top.get(cells[i], missing) for i in asked)
            if missing in read:
                continue
            recolour = _misread(read, wanted, free, budget)
            if recolour is not None:
                yield Match(tuple((cell, 0) for cell in cells), tuple(asked[i] for i in recolour))


def _lies_walked(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> bool:
    """Whether values to find (none free, ``budget`` 1 or more) lie on the top pieces in a flat shape: :func:`_walks`
    with the layouts that read others' places backwards left out, each window of the others read once for the values
    both ways (:meth:`Shape.both_ways`)."""
    top, missing = board.top, _MISSING
    get, first, last = top.get, values[0], values[-1]
    for step, both, rows in shape.both_ways(values):
        for x, y in board.starts(step):
            shown = top[(x, y)]
            ahead, behind = shown != first, (shown != last if both else budget + 1)
            for dx, dy, want, back in rows:
                shown = get((x + dx, y + dy), missing)
                if shown is missing:
                    break
                if shown != want:
                    ahead += 1
                if shown != back:
                    behind += 1
                if ahead > budget and behind > budget:
                    break
            else:
                return True
    return False


def _search(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """The matches, one at a time: a chain's path by path, a flat shape's walked out from the pieces, the others'
    from the board's windows."""
    if shape.kind == "chain":
        return _chains(board, shape, values, budget)
    if shape.windowed:
        return _layouts(board, shape, values, budget)
    return _walks(board, shape, values, budget)


def _walks(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """The matches of ``values`` on the top pieces in the layouts of a flat shape, layout by layout: each walked out
    from a piece that may hold the first value, as far as the places hold pieces (one question needs no windows,
    which read them all).

    A window is checked before the rest of its cells are read: a piece with none the layout's first step away
    starts none (the board may keep which, :meth:`Board.starts`), one whose second piece cannot fit (a value to find
    exactly, or the first piece's variable) neither, and without free values a window is given up at the first
    piece missing or read as another value past ``budget``."""
    free = _pattern(values)[0]
    top, missing = board.top, _MISSING
    get = top.get
    if True not in free and (budget == 0 or len(values) > 1):
        first = values[0]
        for steps, counted in shape.plan(values):
            if budget == 0:  # only the pieces showing the first value may start a match
                for x, y in board.by_value.get(first, ()):
                    for _, (dx, dy), want in counted:
                        if get((x + dx, y + dy), missing) != want:
                            break
                    else:
                        yield Match((((x, y), 0), *[((x + dx, y + dy), 0) for dx, dy in steps]), ())
                continue
            for x, y in board.starts(steps[0]):
                recolour = () if top[(x, y)] == first else (0,)  # budget is 1 or more here
                for i, (dx, dy), want in counted:
                    shown = get((x + dx, y + dy), missing)
                    if shown is missing:
                        break
                    if shown != want:
                        if len(recolour) == budget:
                            break
                        recolour += (i,)
                else:
                    yield Match((((x, y), 0), *[((x + dx, y + dy), 0) for dx, dy in steps]), recolour)
        return
    # Whether the second piece can be checked before the rest are read: one variable holding the first piece's
    # value, or a value to find exactly.
    want_second = values[1] if len(values) > 1 else ANY_VALUE
    same = free[0] and is_free(want_second) and want_second == values[0] != ANY_VALUE
    exact_second = budget == 0 and not is_free(want_second)
    walks = shape.walks(len(values))
    for steps in (walks[i] for i in shape.distinct(values)):
        if not steps:  # one value: every piece is a window
            for cell, shown in top.items():
                recolour = _misread((shown,), values, free, budget)
                if recolour is not None:
                    yield Match(((cell, 0),), recolour)
            continue
        (sx, sy), rest = steps[0], steps[1:]
        for x, y in board.starts(steps[0]):
            shown = top[(x, y)]
            second = get((x + sx, y + sy), missing)
            if second is missing:  # most pieces have none the first step away: no window starts there
                continue
            if (same and second != shown) or (exact_second and second != want_second):  # the second piece can't fit
                continue
            read = [shown, second]
            for dx, dy in rest:
                shown = get((x + dx, y + dy), missing)
                if shown is missing:
                    break
                read.append(shown)
            else:
                recolour = _misread(read, values, free, budget)
                if recolour is not None:
                    yield Match((((x, y), 0), *(((x + dx, y + dy), 0) for dx, dy in steps)), recolour)


@lru_cache(maxsize=None)
def _steps_from_first(layout: tuple[Spot, ...]) -> tuple[Cell, ...]:
    """Where a flat layout's places after the first lie, from the first one's cell.

    >>> _steps_from_first(((1, 0, 0), (1, 1, 0), (0, 1, 0)))
    ((0, 1), (-1, 1))
    """
    fx, fy, _ = layout[0]
    return tuple((x - fx, y - fy) for x, y, _ in layout[1:])


def _possible(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> bool:
    """False when the board has too few pieces for a flat pattern (see :func:`_enough`); else True."""
    return shape.windowed or _enough(board, values, budget)


def _enough(board: Board, values: tuple[Any, ...], budget: int) -> bool:
    """Whether the board holds enough pieces for a flat pattern: as many as its values, and all but ``budget`` showing them."""
    if len(board.top) < len(values):
        return False
    free, wanted = _pattern(values)
    need = len(values) - free.count(True) - budget
    if need <= 0:  # any pieces will do, read as the values
        return True
    by_value, showing = board.by_value, 0
    for value, n in wanted:
        cells = by_value.get(value)
        if cells is not None:
            showing += n if n < len(cells) else len(cells)
    return showing >= need


@lru_cache(maxsize=4096)
def _pattern(values: tuple[Any, ...]) -> tuple[tuple[bool, ...], tuple[tuple[Any, int], ...]]:
    """Which of a pattern's values are free, and how many times each fixed value appears (worked out once).

    >>> _pattern(("A", "_", "A", "$x"))
    ((False, True, False, True), (('A', 2),))
    """
    free = tuple(is_free(v) for v in values)
    return free, tuple(Counter(v for v, loose in zip(values, free) if not loose).items())


def _layouts(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """Every layout of the shape, wherever the board's pieces read the values (see :meth:`Board.windows`)."""
    for layout, bases, recolour in _readings(board, shape, values, budget):
        for bx, by in bases:
            yield Match(tuple(((bx + dx, by + dy), depth) for dx, dy, depth in layout), recolour)


def _readings(board: Board, shape: Shape, values: tuple[Any, ...],
              budget: int) -> Iterator[tuple[tuple[Spot, ...], list[Cell], tuple[int, ...]]]:
    """Each layout of the shape with the bases of its windows that read the values, and the places read otherwise."""
    free = _pattern(values)[0]
    exact = budget == 0 and True not in free
    known, layouts = board._windows, shape.layouts(len(values))
    for layout in (layouts[i] for i in shape.distinct(values)):
        windows = known.get(layout)
        if windows is None:
            windows = board.windows(layout)
        if exact:  # one look-up: the windows reading exactly the values
            bases = windows.get(values)
            if bases is not None:
                yield layout, bases, ()
            continue
        for read, bases in windows.items():
            recolour = _misread(read, values, free, budget)
            if recolour is not None:
                yield layout, bases, recolour


def _misread(read: Sequence[Any], values: tuple[Any, ...], free: tuple[bool, ...], budget: int) -> tuple[int, ...] | None:
    """The places where ``read`` shows other values than ``values`` (None: more than ``budget``, or a variable does not fit).

    >>> _misread(("A", "B", "C"), ("A", "X", "C"), (False, False, False), 1)
    (1,)
    >>> _misread(("A", "B", "C"), ("$a", "$a", "C"), (True, True, False), 1) is None
    True
    """
    recolour: list[int] = []
    bound: dict[Any, Any] = {}
    i = 0
    for value, want, loose in zip(read, values, free):
        if loose:
            if want != ANY_VALUE and bound.setdefault(want, value) != value:  # _fits, inline: it runs for every window
                return None
        elif value != want:
            if len(recolour) == budget:
                return None
            recolour.append(i)
        i += 1
    return tuple(recolour)


_MISSING = object()


@lru_cache(maxsize=None)
def _plan(layout: tuple[Spot, ...]) -> tuple[tuple[Spot, ...] | None, Spot]:
    """How to read a layout's windows: (the layout one place shorter, the place it adds) when that one has a top
    piece to start from; else (None, the first top piece's place), to read every window from the board's cells.

    >>> _plan(((0, 0, 0), (1, 0, 0))), _plan(((0, 0, 1), (0, 0, 0)))
    ((((0, 0, 0),), (1, 0, 0)), (None, (0, 0, 0)))
    """
    if len(layout) > 1 and any(depth == 0 for _, _, depth in layout[:-1]):
        return layout[:-1], layout[-1]
    return None, next(spot for spot in layout if spot[2] == 0)


@lru_cache(maxsize=None)
def _backwards(layout: tuple[Spot, ...]) -> tuple[tuple[Spot, ...], Spot]:
    """The layout of the same places in the opposite order, from its own first place; and the last place of ``layout``
    (a window of the one at base ``b`` is a window of the other, reversed, at ``b`` minus that place).

    >>> _backwards(((0, 0, 0), (1, 0, 0), (2, 0, 0)))
    (((0, 0, 0), (-1, 0, 0), (-2, 0, 0)), (2, 0, 0))
    """
    lx, ly, _ = last = layout[-1]
    return tuple((x - lx, y - ly, depth) for x, y, depth in reversed(layout)), last


def _chains(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """Depth-first from every cell that may hold the first value, one adjacent occupied cell at a time (a piece
    that must show a value to find is compared on the spot, without a call)."""
    top, steps, n = board.top, shape.directions, len(values)
    get, missing, free = top.get, _MISSING, _pattern(values)[0]
    starts = board.by_value.get(values[0], ()) if budget == 0 and not is_free(values[0]) else top
    s = board.state  # each path looked at spends a step: their number grows exponentially with the chain's length
    for start in starts:
        first = _step(values[0], top[start], {}, (), 0, budget)
        if first is None:
            continue
        stack: list[tuple[tuple[Cell, ...], tuple[int, ...], dict[Any, Any]]] = [((start,), *first)]
        while stack:
            path, recolour, bound = stack.pop()
            try:
                s.budget -= 1
            except AttributeError:  # a board read outside a game (a test's), which has no budget
                pass
            else:
                if s.budget < 0:
                    raise ast.out_of_steps(s, None, "search for a chain")
            if len(path) == n:
                yield Match(tuple((c, 0) for c in path), recolour)
                continue
            i = len(path)
            x, y = path[-1]
            want, exact = values[i], not free[i] and len(recolour) == budget  # exact: only the value itself fits
            for dx, dy in reversed(steps):
                cell = (x + dx, y + dy)
                value = get(cell, missing)
                if value is missing or cell in path:
                    continue
                if exact:  # what _step says of a value to find when nothing more may be read as another
                    if value == want:
                        stack.append((path + (cell,), recolour, bound))
                    continue
                if not free[i]:  # ... and when one more may
                    stack.append((path + (cell,), recolour if value == want else recolour + (i,), bound))
                    continue
                found = _step(want, value, bound, recolour, i, budget)
                if found is not None:
                    stack.append((path + (cell,), *found))


def _step(want: Any, value: Any, bound: dict[Any, Any], recolour: tuple[int, ...], i: int,
          budget: int) -> tuple[tuple[int, ...], dict[Any, Any]] | None:
    """A chain's next piece at place ``i``: (the places read as another value, the variables bound), or None: it can't be."""
    if is_free(want):
        bound = dict(bound)
        return (recolour, bound) if _fits(want, value, bound) else None
    if value == want:
        return recolour, bound
    return (recolour + (i,), bound) if len(recolour) < budget else None


# ------------------------------------------------------------------ reading `shapes:`

DEFAULT_SHAPE = Shape("line", "line", directions=DIRECTIONS["all"], doc="the default: a straight line, read from either end")


def default_shape(geometry: Geometry) -> Shape:
    """The ``line`` shape a component without a shape uses: a straight line along any of the board's directions."""
    if geometry is SQUARE:
        return DEFAULT_SHAPE
    return Shape("line", "line", directions=geometry.lines["all"], doc=DEFAULT_SHAPE.doc, geometry=geometry)


def read_shapes(b: "BuildContext") -> None:
    """The ruleset's ``shapes:`` (plus the default ``line`` unless it declares its own), in the board's geometry, kept in
    ``game.parts["patterns"]`` by name (and offered to the pattern functions, :class:`PatternSearch`)."""
    grid = b.game.grid
    geometry: Geometry = grid.geometry if grid is not None else SQUARE
    default = default_shape(geometry)
    shapes = {default.name: default}
    if geometry is POINTS and b.tree.get("shapes"):
        b.error(b.pos(b.tree, "shapes"), NO_SHAPES)
        b.game.parts["patterns"] = b.game.vocab.data["shapes"] = shapes
        return
    for name, spec, pos in b.named_entries("shapes", "shape", "{kind: line}"):
        kind = b.choice(spec, "kind", KINDS, "line")
        b.unknown_keys(spec, SHAPE_KEYS[kind], f"a {kind} shape")
        doc = str(spec.get("doc") or "")
        if kind == "line":
            way = b.choice(spec, "directions", tuple(DIRECTIONS), "all")
            steps = _steps(b, spec, "directions", way, geometry)
            either_end = b.bool_setting(spec, "either_end", True)
            directions = steps if either_end else tuple(d for d in steps if d[1] > 0 or (d[1] == 0 and d[0] > 0))
            shapes[str(name)] = Shape(str(name), kind, directions=directions, way=way, either_end=either_end, doc=doc,
                                      geometry=geometry)
        elif kind == "chain":
            way = b.choice(spec, "adjacency", tuple(ADJACENCY), "orthogonal" if geometry is SQUARE else "all")
            shapes[str(name)] = Shape(str(name), kind, directions=_steps(b, spec, "adjacency", way, geometry), doc=doc,
                                      geometry=geometry)
        elif kind == "template":
            cells = _template_cells(b, spec)
            shapes[str(name)] = Shape(str(name), kind, cells=cells, rotate=b.bool_setting(spec, "rotate", False),
                                      mirror=b.bool_setting(spec, "mirror", False), doc=doc, geometry=geometry)
        else:
            shapes[str(name)] = Shape(str(name), kind, doc=doc, geometry=geometry)
    b.game.parts["patterns"] = b.game.vocab.data["shapes"] = shapes


def _steps(b: "BuildContext", spec: Any, key: str, way: str, geometry: Geometry) -> tuple[Cell, ...]:
    """The steps between neighbouring cells a shape's ``directions``/``adjacency`` word means on this board."""
    steps = geometry.lines.get(way)
    if steps is None:
        b.error(b.pos(spec, key), f"'{key}: {way}' has no meaning on a {geometry.name} board: its lines run along "
                                  "the directions between neighbouring cells", f"write '{key}: all' or leave it out")
        return geometry.lines["all"]
    return steps


def _template_cells(b: "BuildContext", spec: Any) -> tuple[Spot, ...]:
    """``cells: [[x, y], [x, y, depth], ...]``: distinct; in each cell the depths used run 0, 1, 2, ... without a gap."""
    raw = spec.get("cells")
    pos = b.pos(spec, "cells")
    if not isinstance(raw, list) or not raw:
        b.error(pos, "a template needs 'cells': a list of [x, y] (or [x, y, depth]) cells, one per value")
        return ((0, 0, 0),)
    cells: list[Spot] = []
    for i, cell in enumerate(raw):
        ok = isinstance(cell, list) and len(cell) in (2, 3) and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        if not ok or (len(cell) == 3 and cell[2] < 0):
            b.error(b.pos(raw, i), f"a template cell is [x, y] or [x, y, depth] (depth 0 or more), not {cell!r}")
            continue
        spot = (cell[0], cell[1], cell[2] if len(cell) == 3 else 0)
        if spot in cells:
            b.error(b.pos(raw, i), f"the template lists {cell!r} twice")
            continue
        cells.append(spot)
    for x, y, _ in cells:
        depths = sorted(d for cx, cy, d in cells if (cx, cy) == (x, y))
        if depths != list(range(len(depths))):
            b.error(pos, f"at {x},{y} the template reads depths {depths}: they must start at 0 (the top piece) without gaps")
            break
    return tuple(cells) or ((0, 0, 0),)


def shape_named(b: "BuildContext", shapes: dict[str, Shape], name: Any, pos: Any) -> Shape:
    """The shape a component names (reported when unknown)."""
    shape = shapes.get(str(name))
    if shape is None:
        b.error(pos, f"unknown shape '{name}'", did_you_mean(str(name), shapes) or f"known: {', '.join(shapes)}")
        return DEFAULT_SHAPE
    return shape


# ------------------------------------------------------------------ patterns in any code


def selected_board(s: "StateView", shown: dict[int, Any]) -> Board:
    """The board as a selection reads it: only the pieces in ``shown`` (piece -> the value it shows) are there.

    >>> class Two:
    ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
    >>> selected_board(Two(), {1: "B"}).top
    {(1, 0): 'B'}
    """
    return Board(s, lambda cid: shown.get(cid, _MISSING), [(cell, cid) for cell, cid in s.grid.items() if cid in shown])


def _wrong_length(shape: Shape, length: int) -> str:
    """What is wrong with a pattern of ``length`` values for ``shape`` ("" when it fits).

    >>> _wrong_length(Shape("triangle", "template", cells=((0, 0, 0), (1, 0, 0), (0, 1, 0))), 4)
    "lists 4 values, but shape 'triangle' has 3 cells"
    >>> _wrong_length(Shape("line", "line"), 0)
    "lists no values: a pattern needs one for each place of the shape 'line'"
    """
    if length == 0:
        return f"lists no values: a pattern needs one for each place of the shape '{shape.name}'"
    if shape.size(length) != length:
        return f"lists {length} values, but shape '{shape.name}' has {len(shape.cells)} cells"
    return ""


RESULTS = {"found": BOOL, "count": INT, "pieces": ListOf(ANY_COMPONENT)}
"""What each pattern function gives: whether the pattern lies on the board, in how many places, or its pieces."""


@dataclass(frozen=True)
class PatternSearch(Function):
    """``pattern_found("SHAPE", VALUES [, PATTERN] [, at = CELL])`` and its siblings ``pattern_count``, ``pattern_pieces``.

    ``VALUES`` selects the board's pieces that are read and what each shows
    (``s.colour for s in board where ...``; a plain selection reads the pieces
    themselves); ``PATTERN`` is the list of values to find in the shape's order
    (``"_"`` is any piece, ``"$a"`` one value whichever; left out, a template
    asks for any piece on every cell); ``at`` keeps the places that use a cell.
    The search is the ``cast`` step's (:func:`find`, :func:`lies_on`) in the
    board's own geometry.
    """

    result: str = "found"  # found, count or pieces (:data:`RESULTS`)

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, result, kind = call.positional(), RESULTS[self.result], self.result
        nothing: Fn = lambda s, e: [] if kind == "pieces" else 0 if kind == "count" else False  # noqa: E731
        keywords = call.keywords()
        for name, kw in keywords.items():
            if name != "at":
                scope.error(kw.pos, f"{self.name}() has no option '{name}'", f"usage: {self.signature}")
        if not 2 <= len(args) <= 3:
            scope.error(call.pos, f"{self.name}() takes 2 to 3 arguments, not {len(args)}", f"usage: {self.signature}")
            return Compiled(result, nothing)
        shape = self._shape(scope, args[0])
        sel_node = as_selection(args[1])
        sel = sel_node.compile_parts(scope)
        if sel.value is not None:
            value_type, value_fn = sel.value.type, sel.value.fn
        else:
            value_type, slot_of = sel.item_type, sel.slot
            value_fn = lambda s, e: e[slot_of]  # noqa: E731
        if not isinstance(sel.item_type, Component) and sel.item_type is not ANY:
            scope.error(args[1].pos, f"{self.name}() reads pieces on the board, so its second argument selects components "
                                     f"(like s.colour for s in board), not {sel.item_type} values")
        pattern = self._pattern(scope, args[2] if len(args) == 3 else None, shape, value_type, call)
        at = self.value(scope, keywords["at"].value, CELL, "at").fn if "at" in keywords else None
        if shape is None or pattern is None:
            return Compiled(result, nothing)
        items, slot = sel.items, sel.slot
        written, pos = (args[2].describe() if len(args) == 3 else ""), call.pos

        def search(s: Any, e: list[Any]) -> Any:
            shown: dict[int, Any] = {}
            for x in items(s, e):
                e[slot] = x
                shown[x] = value_fn(s, e)
            found = pattern(s, e)
            values = () if found is None else tuple(found)
            if found is None or _wrong_length(shape, len(values)):
                raise EffectRuntimeError(f"{self.name}(): the pattern {written} is none, not a list of values" if found is None else
                                         f"{self.name}(): the pattern {written} {_wrong_length(shape, len(values))}", pos)
            board = selected_board(s, shown)
            try:
                if kind == "found" and at is None:
                    return lies_on(board, shape, values)
                matches = find(board, shape, values)
            except EffectRuntimeError as err:  # a chain's search out of steps: said at this call
                if err.pos is not None:
                    raise
                raise EffectRuntimeError(err.message, pos) from None
            if at is not None:
                cell = at(s, e)
                matches = [m for m in matches if any(c == cell for c, _ in m.places)]
            if kind == "found":
                return bool(matches)
            if kind == "count":
                return len({frozenset(m.places) for m in matches})
            return list(dict.fromkeys(s.stack(c)[depth] for m in matches for (c, depth), want in zip(m.places, values)
                                      if want != EMPTY))

        return Compiled(result, search)

    def _shape(self, scope: Scope, node: ast.Node) -> Shape | None:
        """The shape a call names in quotes (reported, None, when it names none)."""
        shapes: dict[str, Shape] = scope.vocab.data.get("shapes", {})
        if any(shape.geometry is POINTS for shape in shapes.values()):
            scope.error(node.pos, f"{self.name}() looks for a pattern of cells; {NO_SHAPES}")
            return None
        name = node.value if isinstance(node, ast.Literal) and isinstance(node.value, str) else None
        shape = shapes.get(name) if name is not None else None
        if shape is None and name is not None:
            scope.error(node.pos, f"unknown shape '{name}'", did_you_mean(name, shapes) or f"known: {', '.join(shapes)}")
        elif shape is None:
            known = ", ".join(f'"{n}"' for n in shapes)
            scope.error(node.pos, f"{self.name}() needs a shape's name in quotes first (shapes: {known})")
        return shape

    def _pattern(self, scope: Scope, node: ast.Node | None, shape: Shape | None, value_type: Type,
                 call: ast.Call) -> Fn | None:
        """The values to find, as a closure: a list literal may hold ``"_"``, ``"$NAME"`` and ``"."`` among values of
        ``value_type``; any other list is read as it is when the code runs; none: any piece on each cell of a template."""
        if node is None:
            if shape is not None and shape.kind != "template":
                scope.error(call.pos, f"a {shape.kind} has no length of its own: give {self.name}() the values to find",
                            f'like {self.name}("{shape.name}", s.colour for s in board, ["_", "_", "_"])')
                return None
            free = (ANY_VALUE,) * (len(shape.cells) if shape is not None else 0)
            return lambda s, e: free
        if not isinstance(node, ast.ListLit):
            whole = node.compile(scope)
            ast.expect(scope, node, whole, ListOf(value_type), f"the values {self.name}() finds")
            return whole.fn
        if shape is not None and _wrong_length(shape, len(node.items)):
            scope.error(node.pos, f"the pattern {_wrong_length(shape, len(node.items))}")
        parts: list[Fn] = []
        written = [item.value if isinstance(item, ast.Literal) else ANY_VALUE for item in node.items]  # code: a piece
        problem = empty_problem(shape, written) if shape is not None else ""
        if problem:
            scope.error(node.pos, f"the pattern {problem}")
        for item in node.items:
            if isinstance(item, ast.Literal) and item.type is STR and item.value == EMPTY:
                parts.append(lambda s, e: EMPTY)
                continue
            if isinstance(item, ast.Literal) and item.type is STR and is_free(item.value):
                if item.value != ANY_VALUE and not VARIABLE_NAME.match(item.value):
                    scope.error(item.pos, f"'{item.value}' is not a pattern variable: "
                                          f"write '{VARIABLE}' and one word, like '{VARIABLE}a'")
                parts.append(lambda s, e, v=item.value: v)
                continue
            part = item.compile(scope)
            ast.expect(scope, item, part, value_type, f"a value {self.name}() finds")
            parts.append(part.fn)
        return lambda s, e: [part(s, e) for part in parts]

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) < 2:
            return self.name
        sel = as_selection(args[1])
        shown = f", each piece read as {sel.value.describe()}" if sel.value is not None else ""
        pattern = args[2].describe() if len(args) == 3 else "pieces on every cell"
        at = call.keywords().get("at")
        through = f" through {at.value.describe()}" if at is not None else ""
        where = f"{pattern} lies in the shape {args[0].describe()}{through} (among {describe_selection(args[1])}{shown})"
        return {"found": "", "count": "the number of places where ", "pieces": "the pieces where "}[self.result] + where


PATTERN_FUNCTIONS: tuple[Function, ...] = (
    PatternSearch("pattern_found", 'pattern_found("SHAPE", VALUES [, PATTERN] [, at = CELL]) -> bool',
                  ("Whether the pattern lies on the board in the shape named in quotes, among the pieces VALUES "
                   "selects and reading what it says of each; the pattern may hold \"_\" (any piece), \"$NAME\" "
                   "(one value, whichever) and \".\" (a square with no piece); a template without one asks for any piece on every cell; at: only "
                   "places using that cell."),
                  'pattern_found("triangle", s.colour for s in board, ["$a", "$a", "$a"])'),
    PatternSearch("pattern_count", 'pattern_count("SHAPE", VALUES [, PATTERN] [, at = CELL]) -> int',
                  ("How many places the pattern lies on (as pattern_found() finds it; the same cells count once, "
                   "however the shape is turned or read)."),
                  'pattern_count("line", s.colour for s in board, [dark, dark, dark])', result="count"),
    PatternSearch("pattern_pieces", 'pattern_pieces("SHAPE", VALUES [, PATTERN] [, at = CELL]) -> list',
                  "The pieces of every place the pattern lies on (as pattern_found() finds it), each once.",
                  'count(pattern_pieces("triangle", s in board where s.colour == dark))', result="pieces"),
)
"""The functions that find a pattern in any code of a ruleset with ``shapes:``."""


BLOCK = declare(Block(
    "patterns",
    keys={
        "shapes": {
            "description": ("Shapes patterns of values may take on the board (used by `cast` steps, and by "
                            "`pattern_found()`, `pattern_count()` and `pattern_pieces()` in any code): `line` (a "
                            "straight line of adjacent cells; declared or not, it is the default), `chain` (each "
                            "value next to the one before), `template` (given cells, which may turn and mirror) or "
                            "`stack` (one cell, from the top piece down)."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/shape"},
            "examples": [
                {"hook": {"kind": "template", "cells": [[0, 0], [1, 0], [1, 1]], "rotate": True, "mirror": True}},
            ],
        },
    },
    defs={
        "shape": {
            "description": ("One shape of pattern. `line`: `directions` (all, orthogonal, diagonal) and "
                            "`either_end`; `chain`: `adjacency`; `template`: `cells`, `rotate`, `mirror`; `stack`: "
                            "nothing more."),
            "type": "object",
            "properties": {
                "kind": {
                    "description": "`line`, `chain`, `template` or `stack`.",
                    "enum": ["line", "chain", "template", "stack"],
                    "default": "line",
                },
                "directions": {
                    "description": ("Lines: the directions a line may run: `all` (across, down and diagonal), "
                                    "`orthogonal` or `diagonal`."),
                    "enum": ["all", "orthogonal", "diagonal"],
                    "default": "all",
                },
                "either_end": {
                    "description": ("Lines: whether a line may be read from either end (false: only left to right "
                                    "and top to bottom)."),
                    "$ref": "#/$defs/flag",
                    "default": True,
                },
                "adjacency": {
                    "description": ("Chains: how each value's cell touches the one before: `orthogonal`, `diagonal` "
                                    "or `all`."),
                    "enum": ["orthogonal", "diagonal", "all"],
                    "default": "orthogonal",
                },
                "cells": {
                    "description": ("Templates: the cell of each value, in order, as [x, y] (or [x, y, depth]: "
                                    "depth 1 is the piece under the top one)."),
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 3},
                    "examples": [[[0, 0], [1, 0], [1, 1]]],
                },
                "rotate": {
                    "description": "Templates: whether the quarter turns of the template match too.",
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "mirror": {
                    "description": "Templates: whether the mirror images of the template match too.",
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "doc": {"description": "The shape in English, for people.", "type": "string"},
            },
            "additionalProperties": False,
        },
    },
    functions=PATTERN_FUNCTIONS,
    attach=read_shapes,  # before the ruleset's functions: the pattern functions name shapes
    rank=10,
))
