"""Longest lines a state keeps up to date: ``longest_line(x in board where x.a == v)`` read back, not searched.

When the pieces measured are picked by printed attributes the same on every
face (``x.colour == r``, or ``x.a == u and x.b == v``), the state keeps each
answer once it is first asked (one search of the board, :func:`longest_line`).
A piece put on an empty cell can only lengthen the lines of its own value,
and only through its cell: :func:`extend_lines` measures the runs through that
cell alone, along each direction.  A piece that leaves the board, or any
stacking, forgets the answers it may change (:func:`forget_lines`); they are
searched again when next asked.  A clone copies what its state keeps.

>>> from types import SimpleNamespace
>>> colour = ["A", "B", "A", "A"]
>>> kind = LineKind(colour, ((1, 0), (-1, 0)))
>>> s = SimpleNamespace(grid={(0, 0): 0, (1, 0): 1}, cell_of=[(0, 0), (1, 0), None, None],
...                     zones=[[2, 3], [0, 1]], lines={})
>>> kept_longest(s, kind, 1, "A")
1
>>> s.grid[(-1, 0)] = 2; s.cell_of[2] = (-1, 0); s.zones = [[3], [0, 1, 2]]
>>> extend_lines(s, 2, (-1, 0)); kept_longest(s, kind, 1, "A")
2
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from engine.blocks.grid import Cell, line_directions, longest_line


class LineKind(tuple):  # type: ignore[type-arg]
    """What a kept line measures: the pieces whose value in ``row`` (one per component) is the one asked, along
    ``offsets`` (the board's adjacency); ``attributes`` names what the values are (by default the row itself).
    ``contains`` tells the cells of a board with edges (None: a board without), whose straight runs out of each
    cell are listed once, the first time a piece lands there (:meth:`through`).

    A tuple of what the values are and which offsets (the offsets by identity: a tuple's hash is not kept, and
    the board's offsets are one tuple), so that finding the kept answers is a look-up Python hashes and compares
    in C:

    >>> hue = ["A", "B"]
    >>> LineKind(hue, ((1, 0),)) == LineKind(hue, ((1, 0),)), LineKind(hue, ((1, 0),)).directions
    (True, ((1, 0),))
    """

    row: Sequence[Any]
    offsets: tuple[Cell, ...]
    directions: tuple[Cell, ...]  # one offset of each opposite pair: a run is as long read either way
    contains: Callable[[Cell], bool] | None
    spans: dict[Cell, tuple[tuple[tuple[Cell, ...], tuple[Cell, ...]], ...]]  # cell -> (ahead, behind) by direction

    def __new__(cls, row: Sequence[Any], offsets: tuple[Cell, ...], attributes: Any = None,
                contains: Callable[[Cell], bool] | None = None) -> "LineKind":
        kind = super().__new__(cls, (id(row) if attributes is None else attributes, id(offsets)))
        kind.row, kind.offsets, kind.directions = row, offsets, line_directions(offsets)
        kind.contains, kind.spans = contains, {}
        return kind

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return self.row, self.offsets, self[0], self.contains

    def __repr__(self) -> str:
        return f"LineKind({len(self.directions)} directions)"

    def through(self, grid: dict[Cell, int], value: Any, cell: Cell) -> int:
        """The longest straight run through ``cell`` of the pieces on ``grid`` showing ``value`` (``cell``'s does).

        >>> kind = LineKind(["A", "A", "B"], ((1, 0), (-1, 0)), contains=lambda c: 0 <= c[0] < 4 and c[1] == 0)
        >>> kind.through({(0, 0): 0, (1, 0): 1, (2, 0): 2}, "A", (1, 0)), kind.spans[(1, 0)]
        (2, ((((2, 0), (3, 0)), ((0, 0),)),))
        """
        row = self.row
        spans = self.spans.get(cell)
        if spans is None:
            if self.contains is None:  # no edges: step out until the run ends
                return _stepped(grid, row, value, cell, self.directions)
            spans = self.spans[cell] = tuple((ahead, behind) for dx, dy in self.directions
                                             if (ahead := self._ray(cell, dx, dy)) + (behind := self._ray(cell, -dx, -dy)))
        best = 1
        for ahead, behind in spans:
            n = 1
            for c in ahead:
                p = grid.get(c)
                if p is None or row[p] != value:
                    break
                n += 1
            for c in behind:
                p = grid.get(c)
                if p is None or row[p] != value:
                    break
                n += 1
            if n > best:
                best = n
        return best

    def _ray(self, cell: Cell, dx: int, dy: int) -> tuple[Cell, ...]:
        """The cells from ``cell`` (left out) to the board's edge, one step of (dx, dy) apart."""
        assert self.contains is not None
        (x, y), ray = cell, []
        while self.contains((x := x + dx, y := y + dy)):
            ray.append((x, y))
        return tuple(ray)


def _stepped(grid: dict[Cell, int], row: Sequence[Any], value: Any, cell: Cell, directions: tuple[Cell, ...]) -> int:
    """:meth:`LineKind.through` on a board without edges, a step at a time."""
    (x, y), best = cell, 1
    for dx, dy in directions:
        n = 1
        while (p := grid.get((x + n * dx, y + n * dy))) is not None and row[p] == value:
            n += 1
        m = 1
        while (p := grid.get((x - m * dx, y - m * dy))) is not None and row[p] == value:
            m += 1
        if n + m - 1 > best:
            best = n + m - 1
    return best


class Lined(Protocol):
    """What kept lines read: the board, the zones, and the answers kept so far."""

    grid: dict[Cell, int]
    cell_of: list[Cell | None]
    zones: list[list[int]]
    lines: dict[LineKind, dict[Any, int]]


def kept_longest(s: Lined, kind: LineKind, board: int, value: Any) -> int:
    """The longest line of the pieces on the board (zone ``board``) showing ``value`` in ``kind.row``: kept, or
    searched once and kept."""
    lengths = s.lines.get(kind)
    if lengths is None:
        lengths = s.lines[kind] = {}
    n = lengths.get(value)
    if n is None:
        row, cell_of = kind.row, s.cell_of
        cells = [cell for c in s.zones[board] if row[c] == value and (cell := cell_of[c]) is not None]
        n = lengths[value] = longest_line(cells, kind.offsets)
    return n


def runs_reached(row: Sequence[Any], board: int,
                 shortest: tuple[tuple[Cell, int], ...]) -> Callable[[Any, Any], bool | None]:
    """Whether the board (zone ``board``) has, along some direction of ``shortest``, a straight run of pieces
    showing a value in ``row`` at least as long as that direction's length: read from the runs the state keeps
    (a kind of line per length), None on a board that stacks.  Line checks written plainly read it
    (engine/lang/line_checks.py).

    >>> from types import SimpleNamespace
    >>> grid = SimpleNamespace(stacking=False, fixed=False)
    >>> s = SimpleNamespace(game=SimpleNamespace(grid=grid), grid={(0, 0): 0, (1, 1): 1}, cell_of=[(0, 0), (1, 1)],
    ...                     zones=[[0, 1]], lines={})
    >>> reached = runs_reached(["A", "A"], 0, (((1, 0), 2), ((1, 1), 2)))
    >>> reached(s, "A"), reached(s, "B")
    (True, False)
    """
    lengths = sorted({n for _, n in shortest})
    groups = tuple((tuple(o for d, m in shortest if m == n for o in (d, (-d[0], -d[1]))), n) for n in lengths)
    made: list[Any] = [None, ()]  # the board last seen and its kinds of line: one board per game, in practice

    def reached(s: Any, value: Any) -> bool | None:
        grid = s.game.grid
        if grid is None or grid.stacking:
            return None
        if made[0] is not grid:
            contains = grid.contains if grid.fixed else None
            made[:] = grid, tuple((LineKind(row, offsets, None, contains), n) for offsets, n in groups)
        lines = s.lines
        for kind, n in made[1]:
            kept = lines.get(kind)
            m = None if kept is None else kept.get(value)
            if (kept_longest(s, kind, board, value) if m is None else m) >= n:
                return True
        return False

    return reached


def extend_lines(s: Lined, cid: int, cell: Cell) -> None:
    """Keep the answers up to date after ``cid`` was put on ``cell``, empty before, of a board without stacks:
    each answer of its value is the longer of what it was and the run through ``cell``."""
    for kind, lengths in s.lines.items():
        value = kind.row[cid]
        best = lengths.get(value)
        if best is not None:
            n = kind.through(s.grid, value, cell)
            if n > best:
                lengths[value] = n


def forget_lines(s: Lined, cid: int) -> None:
    """Forget the answers ``cid`` counts in, before it leaves its cell (or another piece is stacked with it)."""
    for kind, lengths in s.lines.items():
        lengths.pop(kind.row[cid], None)
