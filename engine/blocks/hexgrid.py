"""Hex boards: a fixed hexagon, or rhombus, of hexes in axial coordinates.

Cells are ``(q, r)`` tuples (the same text form as square cells: ``1,-2``).
A board of radius ``R`` holds every cell within distance ``R`` of ``0,0``
(radius 4: 61 hexes); a board of a ``width`` and ``height`` is a rhombus
of hexes, ``q`` from 0 to width-1 and ``r`` from 0 to height-1.  The six
neighbours of ``(q, r)`` are ``q±1``, ``r±1`` and the two diagonals
``(q+1, r-1)``, ``(q-1, r+1)``; only cells on the board are neighbours, so
the frontier of a placement never leaves the board.

"Pixel" geometry (pointy-top hexes, y up) picks pieces by position:
``x = √3·(q + r/2)``, ``y = -1.5·r``.

>>> g = HexGrid(radius=1)
>>> len(g.cells), g.contains((1, -1)), g.contains((1, 1))
(7, True, False)
>>> sorted(g.neighbours((1, 0)))
[(0, 0), (0, 1), (1, -1)]
>>> g.distance((0, 0), (2, -1)), g.largest_group({(0, 0), (1, 0), (-1, -1)})
(2, 2)
>>> rhombus = HexGrid(width=3, height=2)
>>> rhombus.cells, rhombus.neighbours((0, 1))
(((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)), ((1, 1), (1, 0), (0, 0)))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from engine.blocks.grid import Geometry, ListedCells, largest_group

Cell = tuple[int, int]

HEX_OFFSETS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial directions, counter-clockwise from east."""

SQRT3 = math.sqrt(3.0)

HEX = Geometry("hexagonal", 6, {"all": HEX_OFFSETS}, lambda c: (-c[1], c[0] + c[1]), lambda c: (c[0], -c[0] - c[1]))
"""A hex board: lines along the six directions between neighbours, turns of 60 degrees, reflections across an axis.

>>> HEX.turn((1, 0)), HEX.turn((0, 1)), HEX.reflect((1, 0))
((0, 1), (-1, 1), (1, -1))
"""


def hex_distance(a: Cell, b: Cell) -> int:
    """Steps between two hexes: ``(|dq| + |dr| + |dq + dr|) / 2``.

    >>> hex_distance((0, 0), (-2, 1))
    2
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_pixel(cell: Cell) -> tuple[float, float]:
    """The centre of a hex on the page (unit side, y up).

    >>> hex_pixel((0, 1))
    (0.8660254037844386, -1.5)
    """
    q, r = cell
    return (SQRT3 * (q + r / 2), -1.5 * r)


@dataclass(frozen=True)
class HexGrid(ListedCells):
    """Geometry of a board of hexes, a hexagon of a radius or a rhombus of a width and height; the occupied cells
    live in the game state."""

    radius: int = 4
    stacking: bool = False  # pieces may be put on top of others
    width: int = 0  # with height: a rhombus of hexes q = 0 .. width-1, r = 0 .. height-1 (radius unused)
    height: int = 0
    offsets: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    cells: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    _around: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False, compare=False)

    geometry = HEX
    # A fixed board never grows: the bounding-box limits of growing boards do not apply.
    max_width = 0
    max_height = 0
    fixed = True

    def __post_init__(self) -> None:
        n = self.radius
        if self.width:
            cells = tuple((q, r) for r in range(self.height) for q in range(self.width))
        else:
            cells = tuple((q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n)
        on = set(cells)
        around = {(q, r): tuple((q + dq, r + dr) for dq, dr in HEX_OFFSETS if (q + dq, r + dr) in on) for q, r in cells}
        object.__setattr__(self, "offsets", HEX_OFFSETS)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_around", around)

    @staticmethod
    def distance(a: Cell, b: Cell) -> int:
        """Steps between two hexes."""
        return hex_distance(a, b)

    def largest_group(self, cells: Iterable[Cell]) -> int:
        """Size of the largest connected group of ``cells``."""
        return largest_group(cells, self.neighbours, self._around)

    def describe(self) -> str:
        """The board in English, for ``rulecraft explain``."""
        if self.width:
            return f"a rhombus of hexes, {self.width} by {self.height} ({len(self.cells)} hexes)"
        return f"a hexagonal board of radius {self.radius} ({len(self.cells)} hexes)"

    def rows(self) -> tuple[tuple[int, tuple[Cell, ...]], ...]:
        """The rows of hexes as drawn (``r`` down, ``q`` across), each with its indent in half hexes from the
        leftmost hex of the board.

        >>> HexGrid(radius=1).rows()
        ((1, ((0, -1), (1, -1))), (0, ((-1, 0), (0, 0), (1, 0))), (1, ((-1, 1), (0, 1))))
        >>> [indent for indent, _ in HexGrid(width=2, height=3).rows()]
        [0, 1, 2]
        """
        left = min(2 * q + r for q, r in self.cells)
        by_row: dict[int, list[Cell]] = {}
        for cell in self.cells:
            by_row.setdefault(cell[1], []).append(cell)
        return tuple((2 * row[0][0] + r - left, tuple(row)) for r, row in sorted(by_row.items()))


def leftmost_key(cell: Cell, seen_from: Cell, facing: Cell) -> float:
    """How far left ``cell`` lies for someone at ``seen_from`` looking toward ``facing`` (larger: more to the left).

    It is the cross product ``(F - D) x (h - D)`` of pixel positions.

    >>> leftmost_key((1, -1), (0, 0), (1, 0)) > 0 > leftmost_key((0, 1), (0, 0), (1, 0))
    True
    """
    dx, dy = hex_pixel(seen_from)
    fx, fy = hex_pixel(facing)
    hx, hy = hex_pixel(cell)
    return (fx - dx) * (hy - dy) - (fy - dy) * (hx - dx)
