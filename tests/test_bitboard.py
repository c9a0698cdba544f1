"""Bit boards (engine/blocks/bitboard.py): the cells found by shifting sets of bits are those a walk along each
line of the board finds, on boards of every size and adjacency, and placements read from bits are those listed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks.bitboard import BitBoard, CellSpace
from engine.blocks.bracket import Bracket, bracketed
from engine.blocks.grid import ADJACENCY, SquareGrid
from engine.core.actions import ListSpace
from engine.core.kept_cells import CellKind


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


@settings(max_examples=100, deadline=None)
@given(boards(), st.integers(0, 5), st.integers(0, 1))
def test_a_cell_space_lists_what_a_list_of_placements_lists(drawn: tuple[SquareGrid, dict[tuple[int, int], str]],
                                                            cid: int, face: int) -> None:
    """The placements read from bits, one at a time or all together, are those of a list of them, in order."""
    grid, pieces = drawn
    board = BitBoard(grid)
    space = CellSpace(None, (cid, face), board, board.mask(pieces))
    listed = ListSpace(None, [(cid, face, cell) for cell in grid.cells if cell in pieces])
    assert len(space) == len(listed) and space.all_args() == listed.all_args()
    assert [space.args_at(i) for i in range(-len(space), len(space))] \
        == [listed.args_at(i) for i in range(-len(listed), len(listed))]
    for i in (len(space), -len(space) - 1):
        with pytest.raises(IndexError):
            space.args_at(i)
    assert [a.args for a in space] == [a.args for a in listed] == [space[i].args for i in range(-len(space), 0)]
    assert [a.args for a in space[1:3]] == [a.args for a in listed[1:3]]
    for cell in grid.cells:
        for args in ((cid, face, cell), (cid, 1 - face, cell), (cid + 1, face, cell), (cid, face)):
            assert space.contains_args(args) == listed.contains_args(args)


@settings(max_examples=200, deadline=None)
@given(boards(), st.sampled_from("abc"), st.data())
def test_captured_cells_read_along_rays_are_those_walked(drawn: tuple[SquareGrid, dict[tuple[int, int], str]],
                                                        value: str, data: st.DataObject) -> None:
    """What a piece of ``value`` put on a cell captures, read along the cell's rays with the kept bits (a line whose
    first cell is empty or its own is passed over at once), is what a walk along each line finds, in its order."""
    grid, pieces = drawn
    cell = data.draw(st.sampled_from(grid.cells))
    cells = list(pieces)
    values = [[*(pieces[c] for c in cells), *"abc"]]  # one face; component i is on cells[i], the last three off the board
    board = BitBoard(grid)
    bracket = Bracket(values, "side", None, 0, True, board, CellKind(values, bits=board.bits))
    s = SimpleNamespace(grid={c: i for i, c in enumerate(cells)}, face=[0] * len(values[0]), by_value={},
                        game=SimpleNamespace(grid=grid))
    assert bracket.cells(s, cell, value) == bracketed(grid.offsets, pieces.get, cell, value)


def test_a_bracket_step_lists_its_cells_as_it_is_entered() -> None:
    """A place step whose placements are a bracket's cells on a bit board keeps them as it is entered: the same
    placements, in the same order, as listing them afresh, at every decision of random games (passes too)."""
    import random

    from engine.blocks.placement import Place
    from tests.conftest import shipped_game

    game = shipped_game("othello")
    step = next(step for step in game.steps if isinstance(step, Place))
    assert step.bit_bracket
    entered = 0
    for seed in range(4):
        s = game.new_state(players=2, seed=seed)
        choose = random.Random(seed)
        while not s.is_terminal:
            kept = s._actions
            if isinstance(kept, CellSpace):
                entered += 1
            fresh = s.clone()
            fresh._actions = None
            assert kept is not None and kept.all_args() == fresh.legal_actions().all_args()
            s.play(choose.randrange(len(s.legal_actions())))
    assert entered > 100
