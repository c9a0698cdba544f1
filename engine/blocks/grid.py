"""Square grids: fixed or growing, with a bounding-box limit and an adjacency.

Cells are ``(x, y)`` tuples.  A growing grid has no edges: the first piece
goes at ``(0, 0)`` and the bounding box of all pieces may not exceed
``max_width`` x ``max_height``.  A fixed grid (``width`` x ``height``) holds
the cells ``0..width-1`` x ``0..height-1`` and nothing else.  With
``stacking``, pieces may be put on top of others (see ``State.place``).

>>> g = SquareGrid(adjacency="orthogonal", max_width=3, max_height=3)
>>> sorted(g.neighbours((0, 0)))
[(-1, 0), (0, -1), (0, 1), (1, 0)]
>>> g.fits((0, 0, 0, 0), (3, 0))
False
>>> g.largest_group({(0, 0), (1, 0), (5, 5)})
2
>>> fixed = SquareGrid(adjacency="all", width=8, height=8)
>>> len(fixed.cells), sorted(fixed.neighbours((0, 0))), fixed.contains((8, 0)), fixed.columns[1][:2]
(64, [(0, 1), (1, 0), (1, 1)], False, ((1, 0), (1, 1)))
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

Cell = tuple[int, int]
BBox = tuple[int, int, int, int]  # min_x, max_x, min_y, max_y

ADJACENCY: dict[str, tuple[Cell, ...]] = {
    "orthogonal": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "diagonal": ((1, 1), (1, -1), (-1, 1), (-1, -1)),
    "all": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)),
}


@dataclass(frozen=True)
class Geometry:
    """How shapes lie on a kind of board: the steps of straight lines, and how a shape turns and reflects.

    ``turns`` turns of :meth:`turn` make a full circle; ``lines`` maps a
    ``directions:`` word to the steps between neighbouring cells of a line.

    >>> SQUARE.turn((1, 0)), SQUARE.reflect((1, 2)), SQUARE.turns
    ((0, 1), (-1, 2), 4)
    """

    name: str
    turns: int
    lines: dict[str, tuple[Cell, ...]]
    turn: Callable[[Cell], Cell]
    reflect: Callable[[Cell], Cell]


SQUARE = Geometry("square", 4, dict(ADJACENCY), lambda c: (-c[1], c[0]), lambda c: (-c[0], c[1]))
"""A square grid: lines orthogonal or diagonal, quarter turns, reflections left to right."""


def grow_bbox(bbox: BBox | None, cell: Cell) -> BBox:
    """The bounding box ``(x0, x1, y0, y1)`` after adding ``cell`` (a box of that cell alone after none).

    >>> grow_bbox(None, (2, 3)), grow_bbox((0, 1, 0, 1), (3, -1))
    ((2, 2, 3, 3), (0, 3, -1, 1))
    """
    x, y = cell
    if bbox is None:
        return (x, x, y, y)
    x0, x1, y0, y1 = bbox
    return (min(x0, x), max(x1, x), min(y0, y), max(y1, y))


class ListedCells:
    """What a fixed board whose cells and neighbours are listed once, when it is made, answers from that list:
    a board of hexes, a board of points.  The class sets ``_around`` (each cell's neighbours, in order).

    >>> class Three(ListedCells):
    ...     _around = {(0, 0): ((1, 0),), (1, 0): ((0, 0), (2, 0)), (2, 0): ((1, 0),)}
    >>> Three().neighbours((1, 0)), Three().contains((5, 5)), Three().fits(None, (2, 0))
    (((0, 0), (2, 0)), False, True)
    """

    _around: dict[Cell, tuple[Cell, ...]]
    grow = staticmethod(grow_bbox)

    def contains(self, cell: Cell) -> bool:
        """Whether the cell is on the board."""
        return cell in self._around

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells next to ``cell`` on the board, as listed (none for a cell off the board)."""
        return self._around.get(cell, ())

    def fits(self, bbox: BBox | None, cell: Cell) -> bool:
        """Whether a piece may go to ``cell``: it must be on the board."""
        return cell in self._around

    def around(self) -> dict[Cell, tuple[Cell, ...]]:
        """Every cell of the board with its neighbours, as listed: read by walks that visit many cells."""
        return self._around


CELLS_REMEMBERED = 200_000
"""The most cells whose neighbours a growing board remembers (see :meth:`SquareGrid.neighbours`)."""


@dataclass(frozen=True)
class SquareGrid:
    """Geometry of a square grid; the occupied cells live in the game state.

    Whether it has fixed edges is worked out once, a field of its own (end conditions read it at every move):

    >>> SquareGrid(width=3, height=2).fixed, SquareGrid().fixed, "fixed" in vars(SquareGrid())
    (True, False, True)
    """

    adjacency: str = "orthogonal"
    max_width: int = 0  # 0: unlimited
    max_height: int = 0
    width: int = 0  # with height: a fixed board of width x height cells (0: a growing one)
    height: int = 0
    stacking: bool = False  # pieces may be put on top of others
    y_up: bool = False  # drawn with row 0 at the bottom (``y_axis: up``), as a rack stands; it changes no rule
    lines_every: int = 0  # drawn with a heavier line every this many cells (``lines_every: 3``); it changes no rule
    thin: str = ""  # "odd" or "even": the columns and rows of such a number drawn thin (``thin: odd``); it changes no rule
    walls: frozenset[tuple[Cell, Cell]] = frozenset()  # the walls standing between neighbouring cells (see wall_pair)
    walled: bool = False  # the board says ``walls:``: walls may stand, and code may build and remove them in play
    offsets: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    fixed: bool = field(init=False, repr=False, compare=False)  # fixed edges (width x height) rather than growing
    cells: tuple[Cell, ...] = field(init=False, repr=False, compare=False)  # a fixed board's cells, row by row
    columns: tuple[tuple[Cell, ...], ...] = field(init=False, repr=False, compare=False)  # ... column by column, row 0 first
    geometry = SQUARE
    _around: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False, compare=False)
    _rays: dict[Cell, tuple[tuple[Cell, ...], ...]] = field(init=False, repr=False, compare=False)
    _with: dict[frozenset[tuple[Cell, Cell]], "SquareGrid"] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "offsets", ADJACENCY[self.adjacency])
        object.__setattr__(self, "fixed", self.width > 0 and self.height > 0)  # a field, not a property: read at every move
        cells = tuple((x, y) for y in range(self.height) for x in range(self.width)) if self.fixed else ()
        on = set(cells)
        around = {(x, y): tuple((x + dx, y + dy) for dx, dy in self.offsets if (x + dx, y + dy) in on) for x, y in cells}
        if self.walls:  # a wall parts two cells that would touch
            around = {c: tuple(n for n in near if not parted(c, n, self.walls)) for c, near in around.items()}
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "columns", tuple(tuple((x, y) for y in range(self.height)) for x in range(self.width)))
        object.__setattr__(self, "_around", around)
        object.__setattr__(self, "_rays", {})
        object.__setattr__(self, "_with", {})

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The adjacent cells (memoised: boards revisit the same few cells constantly); on a fixed board, those on it.
        A growing board keeps those of :data:`CELLS_REMEMBERED` cells at most: its one board serves every game of the
        process, and code asking the neighbours of cells ever further off filled its memory without end.

        >>> SquareGrid().neighbours((5, 0))
        ((6, 0), (4, 0), (5, 1), (5, -1))
        """
        found = self._around.get(cell)
        if found is None:
            if self.fixed:
                return ()
            x, y = cell
            found = tuple([(x + dx, y + dy) for dx, dy in self.offsets])
            if len(self._around) < CELLS_REMEMBERED:
                self._around[cell] = found
        return found

    def rays(self) -> dict[Cell, tuple[tuple[Cell, ...], ...]]:
        """For each cell of a fixed board, the straight lines of cells going out from it along each offset to the
        edge, those of two cells or more (worked out once; empty on a growing board, which has no edge).

        >>> SquareGrid(adjacency="orthogonal", width=3, height=1).rays()[(0, 0)]
        (((1, 0), (2, 0)),)
        """
        if not self._rays and self.fixed:
            for cell in self.cells:
                self._rays[cell] = tuple(ray for ray in (self._ray(cell, step) for step in self.offsets) if len(ray) > 1)
        return self._rays

    def _ray(self, cell: Cell, step: Cell) -> tuple[Cell, ...]:
        (x, y), (dx, dy), ray, walls = cell, step, [], self.walls
        while (x + dx, y + dy) in self._around and not (walls and parted((x, y), (x + dx, y + dy), walls)):
            x, y = x + dx, y + dy
            ray.append((x, y))
        return tuple(ray)

    def with_walls(self, walls: frozenset[tuple[Cell, Cell]]) -> "SquareGrid":
        """This board with ``walls`` standing instead of its own (each made once and kept, a few thousand at most):
        the board a state plays on once code has built or removed a wall.

        >>> g = SquareGrid(width=2, height=2, walled=True)
        >>> walled = g.with_walls(frozenset({((0, 0), (1, 0))}))
        >>> walled.neighbours((0, 0)), walled is g.with_walls(walled.walls), walled.with_walls(frozenset()) == g
        (((0, 1),), True, True)
        """
        found = self._with.get(walls)
        if found is None:
            if len(self._with) >= self.boards_kept:
                self._with.clear()
            found = self._with[walls] = self._walled(walls)
            object.__setattr__(found, "_with", self._with)  # every board of the same cells shares one memo
        return found

    @property
    def boards_kept(self) -> int:
        """How many boards of other walls :meth:`with_walls` keeps (and the games on them): 4,096 of a small board,
        fewer of a large one, a million cells' neighbours in all (4,096 boards of 10,000 cells took 9 GB).

        >>> SquareGrid(width=7, height=7).boards_kept, SquareGrid(width=100, height=100).boards_kept
        (4096, 100)
        """
        return max(16, min(4096, 1_000_000 // max(1, len(self.cells))))

    def _walled(self, walls: frozenset[tuple[Cell, Cell]]) -> "SquareGrid":
        """This board with ``walls`` standing, its cells' neighbours worked out again only beside the walls that
        differ from its own when they are few (a wall built or removed): the whole board was worked out again for
        each wall built, 50 ms on a board of 10,000 cells.

        >>> g = SquareGrid(width=3, height=3, walled=True)
        >>> walls = frozenset({((0, 0), (1, 0)), ((1, 1), (1, 2))})
        >>> g._walled(walls)._around == dataclasses.replace(g, walls=walls)._around
        True
        """
        changed = walls ^ self.walls
        if len(changed) > 64:
            return dataclasses.replace(self, walls=walls)
        around = dict(self._around)
        ends = {cell for wall in changed for cell in wall}  # a diagonal beside a wall's end is parted too
        for x, y in ends | {(x + dx, y + dy) for x, y in ends for dx in (-1, 0, 1) for dy in (-1, 0, 1)}:
            if (x, y) in around:
                around[(x, y)] = tuple(n for n in ((x + dx, y + dy) for dx, dy in self.offsets)
                                       if n in around and not parted((x, y), n, walls))
        found = copy.copy(self)
        for name, value in (("walls", walls), ("_around", around), ("_rays", {})):
            object.__setattr__(found, name, value)
        return found

    def touches(self, a: Cell, b: Cell) -> bool:
        """Whether ``a`` and ``b`` are cells of the board next to each other under its adjacency, whatever walls stand
        between them.

        >>> g = SquareGrid(width=2, height=1, walls=frozenset({((0, 0), (1, 0))}))
        >>> g.touches((0, 0), (1, 0)), g.touches((0, 0), (2, 0)), g.neighbours((0, 0))
        (True, False, ())
        """
        return self.contains(a) and self.contains(b) and (b[0] - a[0], b[1] - a[1]) in self.offsets

    def wall_across(self, a: Cell, b: Cell) -> bool:
        """Whether a wall stands on the straight way from ``a`` to ``b`` (``b`` a whole number of steps along one of
        the eight directions): between two of the cells along it.  A knight's jump crosses no wall, and only the
        part of the way on the board is looked at (walls stand between its cells).

        >>> g = SquareGrid(width=4, height=1, walls=frozenset({((1, 0), (2, 0))}))
        >>> g.wall_across((0, 0), (3, 0)), g.wall_across((0, 0), (1, 0)), g.wall_across((3, 0), (2, 0))
        (True, False, False)
        """
        walls = self.walls
        if not walls:
            return False
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = max(abs(dx), abs(dy))
        if n == 0 or dx not in (0, n, -n) or dy not in (0, n, -n):
            return False
        (sx, sy), (x, y) = (dx // n, dy // n), a
        # the steps k, from the k-th cell of the way to the next, that may cross a wall: those on the board alone (a way
        # of 10^11 cells was walked step by step, and hung)
        lo, hi = 0, n - 1
        for c, step, size in ((x, sx, self.width), (y, sy, self.height)):
            if step == 0 and not 0 <= c < size:
                return False
            if step != 0:
                first, last = (-c, size - 1 - c) if step > 0 else (c - size + 1, c)  # the cells of the board
                lo, hi = max(lo, first), min(hi, last - 1)
        return any(parted((x + k * sx, y + k * sy), (x + (k + 1) * sx, y + (k + 1) * sy), walls)
                   for k in range(lo, hi + 1))

    def contains(self, cell: Cell) -> bool:
        """Whether the cell exists: a growing grid has no edges (its limit is :meth:`fits`)."""
        return not self.fixed or cell in self._around

    def fits(self, bbox: BBox | None, cell: Cell) -> bool:
        """Whether adding ``cell`` keeps the bounding box within the limits (on a fixed board: whether it is on it)."""
        if self.fixed:
            return cell in self._around
        if bbox is None:
            return True
        x, y = cell
        x0, x1, y0, y1 = bbox
        if self.max_width and max(x1, x) - min(x0, x) >= self.max_width:
            return False
        if self.max_height and max(y1, y) - min(y0, y) >= self.max_height:
            return False
        return True

    grow = staticmethod(grow_bbox)

    def around(self) -> dict[Cell, tuple[Cell, ...]]:
        """On a board with edges, every cell with the cells next to it (read by walks that visit many cells); on a
        growing board, the cells met so far.

        >>> SquareGrid(width=2, height=1).around()
        {(0, 0): ((1, 0),), (1, 0): ((0, 0),)}
        """
        return self._around

    def describe(self) -> str:
        """The board in English, for ``rulecraft explain``."""
        stacks = "; pieces may be stacked" if self.stacking else ""
        if self.walled:
            n = len(self.walls)
            stacks += f"; walls between cells, {n} standing at the start (code may build and remove them)"
        if self.fixed:
            return f"a square grid of {self.width}x{self.height} cells with {self.adjacency} adjacency{stacks}"
        limits = [f"{self.max_width} wide" if self.max_width else "", f"{self.max_height} tall" if self.max_height else ""]
        bound = " and ".join(x for x in limits if x)
        return f"a square grid with {self.adjacency} adjacency" + (f", at most {bound}" if bound else "") + stacks

    def largest_group(self, cells: Iterable[Cell]) -> int:
        """Size of the largest connected group of ``cells`` under this adjacency."""
        return largest_group(cells, self.neighbours, self._around)


def wall_pair(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    """A wall between two cells as the board keeps it: the two cells, the lower first (either way round is one wall).

    >>> wall_pair((2, 1), (1, 1)) == wall_pair((1, 1), (2, 1)) == ((1, 1), (2, 1))
    True
    """
    return (a, b) if a <= b else (b, a)


def largest_group(cells: Iterable[Cell], neighbours: Callable[[Cell], Iterable[Cell]],
                  known: dict[Cell, tuple[Cell, ...]] | None = None) -> int:
    """Size of the largest group of ``cells`` connected through ``neighbours`` (any board shape); ``known``: the
    neighbours of cells worked out already (a board's memo), read without calling ``neighbours``.

    >>> largest_group([(0, 0), (1, 0), (5, 5)], SquareGrid().neighbours)
    2
    """
    todo = set(cells)
    best = 0
    known = known or {}
    while len(todo) > best:  # fewer cells left than the largest group so far: none of them is in a larger one
        stack = [todo.pop()]
        size = 0
        while stack:
            size += 1
            cell = stack.pop()
            for n in known.get(cell) or neighbours(cell):
                if n in todo:
                    todo.remove(n)
                    stack.append(n)
        if size > best:
            best = size
    return best


def longest_line(cells: Iterable[Cell], offsets: Iterable[Cell]) -> int:
    """Length of the longest straight run of ``cells``, each one step of an offset from the one before.

    >>> longest_line([(0, 0), (1, 1), (2, 2), (0, 1)], ADJACENCY["all"])
    3
    >>> longest_line([(0, 0), (1, 1)], ADJACENCY["orthogonal"])
    1
    """
    on = set(cells)
    best = 1 if on else 0
    for dx, dy in line_directions(tuple(offsets)):
        for x, y in on:
            if (x - dx, y - dy) in on:  # not the start of a run this way
                continue
            n = 1
            while (x + n * dx, y + n * dy) in on:
                n += 1
            if n > best:
                best = n
    return best


def parted(a: Cell, b: Cell, walls: frozenset[tuple[Cell, Cell]]) -> bool:
    """Whether ``walls`` bar the step between two neighbouring cells: a wall between them, or, for a diagonal step,
    walls on both ways round the corner it passes (a wall line running through the corner, or two walls boxing one
    of the cells in there): a diagonal does not slip through the joint of two walls, but passes the end of one.

    >>> line = frozenset({((0, 0), (0, 1)), ((1, 0), (1, 1))})          # a wall under 0,0 and 1,0
    >>> parted((0, 0), (1, 1), line), parted((0, 0), (1, 1), frozenset({((0, 0), (0, 1))}))
    (True, False)
    """
    if wall_pair(a, b) in walls:
        return True
    dx, dy = b[0] - a[0], b[1] - a[1]
    if not dx or not dy:
        return False
    side, other = (a[0] + dx, a[1]), (a[0], a[1] + dy)
    return ((wall_pair(a, side) in walls or wall_pair(side, b) in walls)
            and (wall_pair(a, other) in walls or wall_pair(other, b) in walls))


def longest_open_line(cells: Iterable[Cell], offsets: Iterable[Cell], walls: frozenset[tuple[Cell, Cell]]) -> int:
    """Length of the longest straight run of ``cells``, each one step of an offset from the one before and no wall
    between the two (:func:`longest_line` on a board with walls).

    >>> longest_open_line([(0, 0), (1, 0), (2, 0)], ADJACENCY["orthogonal"], frozenset({((1, 0), (2, 0))}))
    2
    """
    on = set(cells)
    best = 1 if on else 0
    for dx, dy in line_directions(tuple(offsets)):
        for x, y in on:
            if (x - dx, y - dy) in on and not parted((x - dx, y - dy), (x, y), walls):
                continue  # not the start of a run this way
            n = 1
            while (x + n * dx, y + n * dy) in on and not parted((x + (n - 1) * dx, y + (n - 1) * dy),
                                                                (x + n * dx, y + n * dy), walls):
                n += 1
            best = max(best, n)
    return best


def line_through(cells: frozenset[Cell] | set[Cell], cell: Cell, directions: Iterable[Cell]) -> int:
    """Length of the longest straight run of ``cells`` through ``cell`` (one of them) along ``directions``.

    >>> line_through({(0, 0), (1, 1), (2, 2), (0, 1)}, (1, 1), line_directions(ADJACENCY["all"]))
    3
    """
    x, y = cell
    best = 1
    for dx, dy in directions:
        n = 1
        while (x + n * dx, y + n * dy) in cells:
            n += 1
        m = 1
        while (x - m * dx, y - m * dy) in cells:
            m += 1
        if n + m - 1 > best:
            best = n + m - 1
    return best


class LineMemo:
    """:func:`longest_line` of sequences of cells, remembered: a sequence one cell longer than one seen before — its
    last cell added, as a board's pieces are — is worked out from the line through that cell alone.

    Sequences are remembered in their order (a tuple hashes faster than a set is built); the same cells in
    another order are only worked out again.  Only the sequences seen last are kept (``size``), so memory
    stays bounded; the answers are :func:`longest_line`'s, whatever was seen before.

    >>> memo = LineMemo(ADJACENCY["all"])
    >>> memo.longest([(0, 0), (1, 1)]), memo.longest([(0, 0), (1, 1), (2, 2)]), memo.longest([(5, 5)])
    (2, 3, 1)
    """

    def __init__(self, offsets: tuple[Cell, ...], size: int = 4096) -> None:
        self.offsets, self.size = offsets, size
        self.directions = line_directions(offsets)
        self.seen: dict[tuple[Cell, ...], int] = {}

    def longest(self, cells: Sequence[Cell]) -> int:
        """The longest straight run of ``cells``."""
        key = tuple(cells)
        seen = self.seen
        best = seen.get(key)
        if best is not None:
            return best
        before = seen.get(key[:-1]) if key else None
        best = longest_line(key, self.offsets) if before is None else max(before, line_through(set(key), key[-1], self.directions))
        if len(seen) >= self.size:
            seen.clear()
        seen[key] = best
        return best


@functools.lru_cache(maxsize=None)
def line_directions(offsets: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The offsets a line may run along, one of each opposite pair (a run is as long read either way).

    >>> line_directions(ADJACENCY["orthogonal"])
    ((1, 0), (0, 1))
    """
    kept: list[Cell] = []
    for dx, dy in offsets:
        if (-dx, -dy) not in kept:
            kept.append((dx, dy))
    return tuple(kept)


def format_cell(cell: Cell) -> str:
    """The text form of a cell: ``1,-2``."""
    return f"{cell[0]},{cell[1]}"


CELL_TEXT = re.compile(r"\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?")
"""A cell as written in an action: two whole numbers in the digits 0-9 (not ``int()``'s ``+1``, ``1_0`` or ``０``)."""


def parse_cell(text: str) -> Cell | None:
    """Read ``1,-2`` or ``(1, -2)``; None when it is not a cell.

    >>> parse_cell("(1, -2)"), parse_cell("\uff10,0"), parse_cell("1_0,0"), parse_cell("9" * 5000 + ",0")
    ((1, -2), None, None, None)
    """
    m = CELL_TEXT.fullmatch(text.strip())
    try:
        return (int(m.group(1)), int(m.group(2))) if m else None
    except ValueError:  # more digits than Python reads as a number (4,300): a cell of no board
        return None
