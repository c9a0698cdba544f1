"""Boards of points joined by links: a morris board, a map of lands, a race track with branches.

Each point is a cell ``(x, y)`` where it is drawn, so everything that reads
cells keeps its meaning (``c.x``, ``at(c)``, ``"3,0"`` in a scenario); a
point may have a name too, which code reads as that cell.  Two points are
neighbours when a link joins them, whatever their positions: ``neighbours``,
connected groups, placing next to a piece and the ``move`` step's
``along: link`` follow the links, and a straight line is a run of linked
points every link of which points the same way (:meth:`PointsBoard.longest_line`).  The board's cells are its points, in the
order written, and nothing else.

::

    board:
      kind: points
      points: {a: [0, 0], b: [2, 0], c: [1, 1], d: [1, 3]}   # or a list of positions: [[0, 0], [2, 0], ...]
      links: [[a, b, c, a], [c, d]]                          # each a path: a-b, b-c, c-a; c-d

>>> board = PointsBoard(points=(("a", (0, 0)), ("b", (2, 0)), ("c", (1, 1)), ("d", (1, 3))),
...                     links=(((0, 0), (2, 0)), ((2, 0), (1, 1)), ((1, 1), (0, 0)), ((1, 1), (1, 3))))
>>> board.cells, board.neighbours((1, 1)), board.contains((1, 2))
(((0, 0), (2, 0), (1, 1), (1, 3)), ((2, 0), (0, 0), (1, 3)), False)
>>> board.largest_group({(0, 0), (1, 3), (2, 0)}), board.name_of((1, 3)), board.describe()
(2, 'd', 'a board of 4 points joined by 4 links')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from engine.blocks.grid import Geometry, ListedCells, largest_group

Cell = tuple[int, int]

POINTS = Geometry("points", 1, {"all": ()}, lambda c: c, lambda c: c)
"""A board of points: no lines of cells or turns of its own (shapes and patterns are refused on it)."""

NO_SHAPES = ("a board of points has no shapes: its points lie on no grid of cells. Name what counts with functions "
             "over the points, e.g. in_line(cell a, cell b): a.y == b.y")
"""Why shapes, patterns and straight lines are refused on a board of points."""


@dataclass(frozen=True)
class PointsBoard(ListedCells):
    """Geometry of a board of points and links; the occupied points live in the game state.

    ``points``: each point's name ("" for an unnamed one) and position, in the order written; ``links``: the
    pairs of positions joined, each once.  ``kinds``: on a board whose links have kinds (``links: {Road: [...],
    Rail: [...]}``), each kind, a value of the type ``kind_type``, with the pairs it joins; two points may be
    joined by links of several kinds, one pair of ``links``.

    >>> board = PointsBoard(points=(("a", (0, 0)), ("b", (1, 0)), ("c", (2, 0))), links=(((0, 0), (1, 0)), ((1, 0), (2, 0))),
    ...                     kinds=(("Rail", (((0, 0), (1, 0)),)), ("Road", (((0, 0), (1, 0)), ((1, 0), (2, 0))))), kind_type="line")
    >>> board.neighbours_by((1, 0), "Rail"), board.neighbours_by((1, 0), "Road"), board.describe()
    (((0, 0),), ((0, 0), (2, 0)), 'a board of 3 points joined by 2 links (1 Rail, 2 Road)')
    """

    points: tuple[tuple[str, Cell], ...]
    links: tuple[tuple[Cell, Cell], ...]
    stacking: bool = False  # pieces may be put on top of others
    y_up: bool = False  # drawn with y growing upwards; it changes no rule
    kinds: tuple[tuple[str, tuple[tuple[Cell, Cell], ...]], ...] = ()  # the links of each kind, when they have kinds
    kind_type: str = ""  # the declared type whose values the kinds are
    cells: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    names: dict[str, Cell] = field(init=False, repr=False, compare=False)
    _named: dict[Cell, str] = field(init=False, repr=False, compare=False)
    _around: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False, compare=False)
    _ways: dict[Cell, dict[Cell, tuple[Cell, ...]]] = field(init=False, repr=False, compare=False)
    _around_by: dict[str, dict[Cell, tuple[Cell, ...]]] = field(init=False, repr=False, compare=False)

    geometry = POINTS
    offsets: tuple[Cell, ...] = ()  # no fixed steps: neighbours are the points a link joins
    # A fixed board never grows: the bounding-box limits of growing boards do not apply.
    max_width = 0
    max_height = 0
    fixed = True

    def __post_init__(self) -> None:
        cells = tuple(cell for _, cell in self.points)
        around: dict[Cell, list[Cell]] = {cell: [] for cell in cells}
        for a, b in self.links:
            around[a].append(b)
            around[b].append(a)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "names", {name: cell for name, cell in self.points if name})
        object.__setattr__(self, "_named", {cell: name for name, cell in self.points if name})
        object.__setattr__(self, "_around", {cell: tuple(near) for cell, near in around.items()})
        ways: dict[Cell, dict[Cell, list[Cell]]] = {cell: {} for cell in cells}
        for cell, near in around.items():
            for n in near:
                ways[cell].setdefault(way(cell, n), []).append(n)
        object.__setattr__(self, "_ways", {cell: {step: tuple(ns) for step, ns in by.items()} for cell, by in ways.items()})
        by_kind: dict[str, dict[Cell, tuple[Cell, ...]]] = {}
        for kind, pairs in self.kinds:
            near_by: dict[Cell, list[Cell]] = {}
            for a, b in pairs:
                near_by.setdefault(a, []).append(b)
                near_by.setdefault(b, []).append(a)
            by_kind[kind] = {cell: tuple(near) for cell, near in near_by.items()}
        object.__setattr__(self, "_around_by", by_kind)

    def neighbours_by(self, cell: Cell, kind: str) -> tuple[Cell, ...]:
        """The points a link of ``kind`` joins to ``cell`` (none for a kind or a cell without such links)."""
        return self._around_by.get(kind, {}).get(cell, ())

    def largest_group(self, cells: Iterable[Cell]) -> int:
        """Size of the largest group of ``cells`` connected through links."""
        return largest_group(cells, self.neighbours, self._around)

    def longest_line(self, cells: Iterable[Cell]) -> int:
        """Length of the longest straight run of ``cells``: each linked to the one before, every link of the run
        pointing the same way (``3,0`` to ``6,0`` continues ``0,0`` to ``3,0``; a bend ends the run).

        >>> board = PointsBoard(points=(("a", (0, 0)), ("b", (3, 0)), ("c", (6, 0)), ("d", (3, 1))),
        ...                     links=(((0, 0), (3, 0)), ((3, 0), (6, 0)), ((3, 0), (3, 1))))
        >>> board.longest_line({(0, 0), (3, 0), (6, 0)}), board.longest_line({(0, 0), (3, 0), (3, 1)})
        (3, 2)
        """
        on = set(cells)
        best = 1 if on else 0
        for cell in on:
            ways = self._ways.get(cell, {})
            for step, ahead in ways.items():
                if not any(n in on for n in ahead) \
                        or any(n in on for n in ways.get((-step[0], -step[1]), ())):
                    continue  # no run this way, or not where it starts
                length, here = 1, cell
                while (ahead := next((n for n in self._ways[here].get(step, ()) if n in on), None)) is not None:
                    length, here = length + 1, ahead
                best = max(best, length)
        return best

    def name_of(self, cell: Cell) -> str:
        """The point's name, else its position as text (``3,0``)."""
        return self._named.get(cell) or f"{cell[0]},{cell[1]}"

    def parts(self) -> int:
        """How many parts the links make: points no path of links joins are in different parts (an island map has
        several; a board without links, one per point).

        >>> PointsBoard(points=(("a", (0, 0)), ("b", (1, 0)), ("c", (3, 0))), links=(((0, 0), (1, 0)),)).parts()
        2
        """
        seen: set[Cell] = set()
        parts = 0
        for start in self.cells:
            if start in seen:
                continue
            parts += 1
            seen.add(start)
            todo = [start]
            while todo:
                for near in self._around[todo.pop()]:
                    if near not in seen:
                        seen.add(near)
                        todo.append(near)
        return parts

    def describe(self) -> str:
        """The board in English, for ``rulecraft explain``: a board in several parts says so (no path of links
        joins them: an island map, or a mistake)."""
        stacks = "; pieces may be stacked" if self.stacking else ""
        parts = self.parts() if self.links else 1
        apart = f", in {parts} parts no link joins" if parts > 1 else ""
        kinds = f" ({', '.join(f'{len(pairs)} {kind}' for kind, pairs in self.kinds)})" if self.kinds else ""
        return f"a board of {len(self.cells)} points joined by {len(self.links)} links{kinds}{apart}{stacks}"


def way(a: Cell, b: Cell) -> Cell:
    """The direction from ``a`` to ``b``, its steps divided by their greatest common divisor.

    >>> way((0, 0), (3, 0)), way((1, 1), (3, 5))
    ((1, 0), (1, 2))
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    g = math.gcd(dx, dy) or 1
    return (dx // g, dy // g)
