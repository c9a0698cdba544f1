"""Shapes a pattern of values may take on the board, and the patterns' values (see :mod:`engine.blocks.patterns`).

A shape lists its layouts (where each value of a pattern of a given length
lies, from a first cell) once per length; a pattern's values are values to
find, ``_`` (any piece), ``$NAME`` (one value, whichever, wherever NAME
appears) and ``.`` (an empty square).

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
from functools import cached_property, lru_cache
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from engine.blocks.grid import ADJACENCY, SQUARE, Geometry, format_cell

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


def fits(want: Any, value: Any, bound: dict[Any, Any]) -> bool:
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
            found = self._walks[length] = tuple(steps_from_first(layout) for layout in self.layouts(length))
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
                j = index.get(reversed_layout(layout)[0])
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



DEFAULT_SHAPE = Shape("line", "line", directions=DIRECTIONS["all"], doc="the default: a straight line, read from either end")


def default_shape(geometry: Geometry) -> Shape:
    """The ``line`` shape a component without a shape uses: a straight line along any of the board's directions."""
    if geometry is SQUARE:
        return DEFAULT_SHAPE
    return Shape("line", "line", directions=geometry.lines["all"], doc=DEFAULT_SHAPE.doc, geometry=geometry)

@lru_cache(maxsize=None)
def steps_from_first(layout: tuple[Spot, ...]) -> tuple[Cell, ...]:
    """Where a flat layout's places after the first lie, from the first one's cell.

    >>> steps_from_first(((1, 0, 0), (1, 1, 0), (0, 1, 0)))
    ((0, 1), (-1, 1))
    """
    fx, fy, _ = layout[0]
    return tuple((x - fx, y - fy) for x, y, _ in layout[1:])


@lru_cache(maxsize=None)
def reversed_layout(layout: tuple[Spot, ...]) -> tuple[tuple[Spot, ...], Spot]:
    """The layout of the same places in the opposite order, from its own first place; and the last place of ``layout``
    (a window of the one at base ``b`` is a window of the other, reversed, at ``b`` minus that place).

    >>> reversed_layout(((0, 0, 0), (1, 0, 0), (2, 0, 0)))
    (((0, 0, 0), (-1, 0, 0), (-2, 0, 0)), (2, 0, 0))
    """
    lx, ly, _ = last = layout[-1]
    return tuple((x - lx, y - ly, depth) for x, y, depth in reversed(layout)), last
