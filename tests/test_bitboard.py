"""Bit boards (engine/blocks/bitboard.py): the cells found by shifting sets of bits are those a walk along each
line of the board finds, on boards of every size and adjacency."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks.bitboard import BitBoard
from engine.blocks.bracket import bracketed
from engine.blocks.grid import ADJACENCY, SquareGrid


@st.composite
def boards(draw: st.DrawFn) -> tuple[SquareGrid, dict[tuple[int, int], str]]:
    """A board with edges and pieces of three values on some of its cells."""
    grid = SquareGrid(adjacency=draw(st.sampled_from(sorted(ADJACENCY))),
                      width=draw(st.integers(1, 9)), height=draw(st.integers(1, 9)))
    values = draw(st.lists(st.sampled_from([None, "a", "b", "c"]), min_size=len(grid.cells), max_size=len(grid.cells)))
    return grid, {cell: v for cell, v in zip(grid.cells, values) if v is not None}


@settings(max_examples=300, deadline=None)
@given(boards(), st.sampled_from("abc"), st.booleans())
def test_bracketing_bits_equal_walking_each_line(drawn: tuple[SquareGrid, dict[tuple[int, int], str]],
                                                 value: str, taken: bool) -> None:
    grid, pieces = drawn
    board = BitBoard(grid)
    own = board.mask(c for c, v in pieces.items() if v == value)
    rival = board.mask(c for c, v in pieces.items() if v != value)
    among = board.full if taken else board.full & ~(own | rival)
    walked = [c for c in grid.cells if (taken or c not in pieces) and bracketed(grid.offsets, pieces.get, c, value)]
    assert board.cells_of(board.bracketing(own, rival, among)) == walked


@settings(max_examples=100, deadline=None)
@given(boards())
def test_bits_read_back_as_cells_in_the_boards_order(drawn: tuple[SquareGrid, dict[tuple[int, int], str]]) -> None:
    grid, pieces = drawn
    board = BitBoard(grid)
    assert board.cells_of(board.mask(pieces)) == [c for c in grid.cells if c in pieces]
    assert board.cells_of(board.full) == list(grid.cells)
