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

from numbers import Integral
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from engine.core.actions import Action, ActionSpace

if TYPE_CHECKING:
    from engine.blocks.grid import SquareGrid

Cell = tuple[int, int]


class BitBoard:
    """The bits of a fixed square board's cells and the shifts of its adjacency's steps."""

    __slots__ = ("bits", "cells", "full", "ups", "downs", "rays")

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
        # Each cell's lines to the edge (SquareGrid.rays: two cells or more), each as its cells' bits and its cells.
        self.rays: dict[Cell, tuple[tuple[tuple[int, ...], tuple[Cell, ...]], ...]] = {
            cell: tuple((tuple(self.bits[c] for c in ray), ray) for ray in rays) for cell, rays in grid.rays().items()}

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
        found = 0  # the cell past each rival of every line, one step at a time: kept only where it is one of ``among``
        for n in self.ups:
            run = (own << n) & rival
            while run:
                run <<= n
                found |= run
                run &= rival
        for n in self.downs:
            run = (own >> n) & rival
            while run:
                run >>= n
                found |= run
                run &= rival
        return found & among

    def closed(self, cell: Cell, own: int, rival: int) -> list[Cell]:
        """The cells of every line from ``cell`` along one of the board's steps of one or more ``rival`` cells then an
        ``own`` one: what a piece put at ``cell`` closes off, line by line, each from ``cell`` outwards.

        >>> from engine.blocks.grid import SquareGrid
        >>> board = BitBoard(SquareGrid(adjacency="all", width=4, height=2))
        >>> board.closed((0, 0), board.mask([(3, 0), (0, 1)]), board.mask([(1, 0), (2, 0), (1, 1)]))
        [(1, 0), (2, 0)]
        """
        found: list[Cell] = []
        for bits, ray in self.rays[cell]:
            if bits[0] & rival:  # a line that starts with a rival: how far its rivals go, and whether its own ends them
                for i, bit in enumerate(bits):
                    if not bit & rival:
                        if bit & own:
                            found += ray[:i]
                        break
        return found


class CellSpace(ActionSpace):
    """The placements of one piece showing one face (``piece``: (component, face)) on the cells of a set of bits, in
    the board's order, as an action space: a cell is read from the bits only when its action is asked for (a random
    playout asks for one), and the number of actions is the number of bits.

    >>> from engine.blocks.grid import SquareGrid
    >>> board = BitBoard(SquareGrid(adjacency="all", width=3, height=2))
    >>> space = CellSpace(None, (7, 0), board, board.mask([(2, 1), (0, 0)]))
    >>> len(space), space.args_at(1), space.all_args(), space.contains_args((7, 0, (2, 1)))
    (2, (7, 0, (2, 1)), [(7, 0, (0, 0)), (7, 0, (2, 1))], True)
    """

    __slots__ = ("step", "piece", "board", "mask", "size")

    def __init__(self, step: Any, piece: tuple[int, int], board: BitBoard, mask: int) -> None:
        self.step = step
        self.piece = piece
        self.board = board
        self.mask = mask
        self.size = mask.bit_count()

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [Action(self.step, args, self, j) for j, args in zip(range(*i.indices(self.size)), self.all_args()[i])]
        if type(i) is not int and not isinstance(i, Integral) or not -self.size <= i < self.size:
            raise self.missing(i)
        return Action(self.step, self.args_at(i), self, i)

    def __iter__(self) -> Iterator[Action]:
        step = self.step
        return (Action(step, args, self, i) for i, args in enumerate(self.all_args()))

    def built(self, action: Action) -> bool:
        """As :meth:`ActionSpace.built`, without counting bits up to the action's number: its piece and cell are this
        space's own objects and the cell's bit is in the space (a cell's number is its bit's).

        >>> from engine.blocks.grid import SquareGrid
        >>> board = BitBoard(SquareGrid(adjacency="all", width=3, height=2))
        >>> space = CellSpace(None, (7, 0), board, board.mask([(2, 1), (0, 0)]))
        >>> space.built(space[1]), space.built(Action(None, (7, 0, (1, 1)), space, 1))
        (True, False)
        """
        args = action.args
        if (action.origin is not self or action.step is not self.step or type(action.at) is not int
                or type(args) is not tuple or len(args) != 3):
            return False
        cell, bit = args[2], self.board.bits.get(args[2], 0) if type(args[2]) is tuple else 0
        return (args[0] is self.piece[0] and args[1] is self.piece[1] and bool(bit & self.mask)
                and self.board.cells[bit.bit_length() - 1] is cell)

    def contains_args(self, args: tuple[Any, ...]) -> bool:
        if len(args) != 3 or args[:2] != self.piece or not isinstance(args[2], tuple):
            return False
        return bool(self.board.bits.get(args[2], 0) & self.mask)

    def args_at(self, i: int) -> tuple[Any, ...]:
        if i < 0:  # from the end, as in a list
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError(i)
        mask = self.mask
        for _ in range(i):
            mask &= mask - 1  # without its lowest bit
        return self.piece + (self.board.cells[(mask & -mask).bit_length() - 1],)

    def all_args(self) -> list[tuple[Any, ...]]:
        cid, face = self.piece
        return [(cid, face, cell) for cell in self.board.cells_of(self.mask)]
