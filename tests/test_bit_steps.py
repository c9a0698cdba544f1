"""A bit board's steps written out as lines (engine/compiling/bit_steps.py) find what the board's own loops find:
the cells where a piece brackets, and the cells a piece put down closes off, on boards of every size and adjacency."""

from __future__ import annotations

from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks.bitboard import BitBoard
from engine.blocks.grid import ADJACENCY, SquareGrid
from engine.compiling.bit_steps import bracketing_lines, closing_lines


@st.composite
def boards(draw: st.DrawFn) -> tuple[SquareGrid, dict[tuple[int, int], str]]:
    """A board with edges and pieces of three values on some of its cells."""
    grid = SquareGrid(adjacency=draw(st.sampled_from(sorted(ADJACENCY))),
                      width=draw(st.integers(1, 9)), height=draw(st.integers(1, 9)))
    values = draw(st.lists(st.sampled_from([None, "a", "b", "c"]), min_size=len(grid.cells), max_size=len(grid.cells)))
    return grid, {cell: v for cell, v in zip(grid.cells, values) if v is not None}


def function(head: str, lines: list[str], answer: str) -> Callable[..., Any]:
    """The lines as the body of a function."""
    namespace: dict[str, Any] = {}
    exec("\n".join([head, *("    " + line for line in lines), f"    return {answer}"]), namespace)  # noqa: S102
    return next(v for k, v in namespace.items() if k != "__builtins__")


@settings(max_examples=300, deadline=None)
@given(boards(), st.sampled_from("abc"), st.data())
def test_the_lines_find_what_the_boards_loops_find(drawn: tuple[SquareGrid, dict[tuple[int, int], str]], value: str,
                                                   data: st.DataObject) -> None:
    grid, pieces = drawn
    board = BitBoard(grid)
    own = board.mask(c for c, v in pieces.items() if v == value)
    rival = board.mask(c for c, v in pieces.items() if v != value)
    bracketing = function("def bracketing(own, rival, among):", bracketing_lines(board), "found & among")
    for among in (board.full, board.full ^ (own | rival)):
        assert bracketing(own, rival, among) == board.bracketing(own, rival, among)
    closing = function("def closing(bit, own, rival):", closing_lines(board), "flips")
    cell = data.draw(st.sampled_from(grid.cells))
    assert closing(board.bits[cell], own, rival) == board.mask(board.closed(cell, own, rival))


def test_each_step_is_a_block_of_its_own_with_its_shift_written() -> None:
    board = BitBoard(SquareGrid(adjacency="all", width=8, height=8))
    text = "\n".join(closing_lines(board))
    assert [n for n in (1, 8, 9, 10) if f"run = (bit << {n}) & rival" in text and f"run = (bit >> {n}) & rival" in text] \
        == [1, 8, 9, 10]
    assert "for " not in text and "for " not in "\n".join(bracketing_lines(board))
