"""Laying out a board of points (``board: {kind: points}``) in characters: each point where it lies, links between.

A point's position ``x, y`` is drawn :data:`ACROSS` characters per unit
across and :data:`DOWN` lines per unit down (up with ``y_axis: up``).  A
link along a row is drawn ``─``, along a column ``│``, along a diagonal
``\\`` or ``/``; a link any other way is listed under the board instead.
cli.board_drawing writes each point's piece over its ``o`` (``·`` when empty);
nothing is drawn where there is no point.

>>> from engine.blocks.pointsboard import PointsBoard
>>> board = PointsBoard(points=(("a", (0, 0)), ("b", (2, 0)), ("c", (1, 1)), ("d", (1, 3))),
...                     links=(((0, 0), (2, 0)), ((2, 0), (1, 1)), ((1, 1), (0, 0)), ((1, 1), (1, 4 - 1))))
>>> lines, where, crooked = layout(board)
>>> print("\\n".join(lines))
o───────o
  \\   /
    o
    │
    │
    │
    o
>>> where[(1, 1)], crooked
((2, 4), [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.blocks.pointsboard import PointsBoard

Cell = tuple[int, int]
ACROSS, DOWN = 4, 2
"""Characters across, and lines down, per unit of a point's position."""
MOST_WIDE = 200
"""A board drawn wider (or taller) than this is drawn smaller, ``ACROSS``/``DOWN`` shrunk to fit."""


def layout(board: "PointsBoard") -> tuple[list[str], dict[Cell, tuple[int, int]], list[tuple[Cell, Cell]]]:
    """The board's lines of characters (``o`` at each point), where each point is drawn (line, column), and the
    links that could not be drawn straight."""
    xs = [x for x, _ in board.cells] or [0]
    ys = [y for _, y in board.cells] or [0]
    across, down = ACROSS, DOWN
    while across > 1 and (max(xs) - min(xs)) * across > MOST_WIDE:
        across -= 1
    while down > 1 and (max(ys) - min(ys)) * down > MOST_WIDE:
        down -= 1
    top, left = max(ys) if board.y_up else min(ys), min(xs)
    where = {(x, y): (abs(y - top) * down, (x - left) * across) for x, y in board.cells}
    rows = [[" "] * ((max(xs) - left) * across + 1) for _ in range((max(ys) - min(ys)) * down + 1)]
    crooked: list[tuple[Cell, Cell]] = []
    for a, b in board.links:
        (r1, c1), (r2, c2) = where[a], where[b]
        dr, dc = r2 - r1, c2 - c1
        if dr == 0:
            for c in range(min(c1, c2) + 1, max(c1, c2)):
                rows[r1][c] = "─"
        elif dc == 0:
            for r in range(min(r1, r2) + 1, max(r1, r2)):
                rows[r][c1] = "│"
        elif abs(a[0] - b[0]) == abs(a[1] - b[1]) and dc % dr == 0:
            mark = "\\" if (dr > 0) == (dc > 0) else "/"
            for i in range(1, abs(dr)):
                r = r1 + i * (1 if dr > 0 else -1)
                rows[r][c1 + (r - r1) * dc // dr] = mark
        else:
            crooked.append((a, b))
    for r, c in where.values():
        rows[r][c] = "o"
    return ["".join(row).rstrip() for row in rows], where, crooked
