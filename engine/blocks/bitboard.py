"""Bit boards: the cells of a fixed square board as the bits of one integer, so that a set of cells is an ``int``
and a step along a line is a shift of all of them at once.

Cell ``(x, y)`` is bit ``y * (width + 1) + x``: each row has a spare bit after its last cell, never a cell, so a
step off the left or right edge lands on a spare bit (or off the board) and masking with a set of cells drops it.
The bits ascend in the board's order (``SquareGrid.cells``, row by row), so reading a set from its lowest bit
lists its cells in that order.

>>> from engine.blocks.grid import SquareGrid
>>> board = BitBoard(SquareGrid(adjacency="all", width=4, height=2))
>>> own, rival = board.mask([(3, 0), (0, 1)]), board.mask([(1, 0), (2, 0)])
>>> empty = board.full & ~(own | rival)
>>> board.cells_of(board.bracketing(own, rival, empty))          # a piece of its own at (0, 0) closes the line
[(0, 0)]
>>> board.cells_of(board.mask([(3, 1), (0, 0), (2, 1)]))
[(0, 0), (2, 1), (3, 1)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from engine.blocks.grid import SquareGrid

Cell = tuple[int, int]


class BitBoard:
    """The bits of a fixed square board's cells and the shifts of its adjacency's steps."""

    __slots__ = ("bits", "cells", "full", "ups", "downs")

    def __init__(self, grid: "SquareGrid") -> None:
        assert grid.fixed, "a bit board needs a board with fixed edges"
        stride = grid.width + 1  # one spare bit per row
        self.bits: dict[Cell, int] = {(x, y): 1 << (y * stride + x) for x, y in grid.cells}
        self.cells: dict[int, Cell] = {bit.bit_length() - 1: cell for cell, bit in self.bits.items()}  # by bit number
        self.full = sum(self.bits.values())
        # A line that runs from a cell along a step (dx, dy) is found from its far end back: a shift by the opposite step.
        shifts = [-(dy * stride + dx) for dx, dy in grid.offsets]
        self.ups = tuple(n for n in shifts if n > 0)  # shifts towards higher bits
        self.downs = tuple(-n for n in shifts if n < 0)  # ... towards lower bits, by how many

    def mask(self, cells: Iterable[Cell]) -> int:
        """The set of ``cells`` as bits."""
        bits = self.bits
        return sum(bits[c] for c in cells)

    def cells_of(self, mask: int) -> list[Cell]:
        """The cells of a set, in the board's order."""
        cells, found = self.cells, []
        while mask:
            low = mask & -mask
            found.append(cells[low.bit_length() - 1])
            mask ^= low
        return found

    def bracketing(self, own: int, rival: int, among: int) -> int:
        """The cells of ``among`` from which, along one of the board's steps, one or more ``rival`` cells and then
        an ``own`` one follow: where a piece of its own would close off a line of rivals."""
        found = 0
        for n in self.ups:
            run = (own << n) & rival
            while run:
                run <<= n
                found |= run & among
                run &= rival
        for n in self.downs:
            run = (own >> n) & rival
            while run:
                run >>= n
                found |= run & among
                run &= rival
        return found
