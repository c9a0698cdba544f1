"""The move step's reach: each cell's steps that stay on a board with edges, worked out once per direction.

``Move.moves`` lists a role's moves piece by piece in the board's order; on a
board with edges it reads, for each cell, the steps a piece may take from it
without leaving the board (``Move.reaches``) instead of building each step's
cell and asking the board whether it holds it.  These tests hold the moves
listed so to the moves found by walking every step, on random positions.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks.movement import Move
from tests.conftest import shipped_game

GAME = shipped_game("breakthrough")
STEP = next(step for step in GAME.steps if isinstance(step, Move))


def walked(step: Move, s: Any) -> list[tuple[Any, Any]]:
    """The moves found by trying every step of every piece of the acting role, cell by cell of the board."""
    role, grid, board = s.acting_role, s.game.grid, s.grid
    values, face, found = step.values, s.face, []
    for cell in grid.cells:
        piece = board.get(cell)
        if piece is None or values[face[piece]][piece] != role:
            continue
        for (dx, dy), onto in step.by_direction[step.forward.get(role, "up")]:
            to = (cell[0] + dx, cell[1] + dy)
            if not grid.contains(to):
                continue
            there = board.get(to)
            if (onto != "rival") if there is None else (onto != "empty" and values[face[there]][there] != role):
                found.append((cell, to))
    return found


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_moves_read_from_each_cells_reach_are_those_found_by_walking_every_step(data: st.DataObject) -> None:
    """Pawns of both colours put anywhere, either side to move: the same moves, in the same order."""
    s = GAME.new_state(players=2, seed=0)
    for cid in list(s.zones[GAME.board_zone]):
        s.move(cid, 0)
    cells = data.draw(st.lists(st.sampled_from(list(GAME.grid.cells)), unique=True, max_size=32))
    stock = list(s.zones[0])
    for cell in cells:
        s.place(stock.pop(data.draw(st.integers(0, len(stock) - 1))), cell)
    s.turn = data.draw(st.integers(0, 1))
    assert STEP.moves(s) == walked(STEP, s)
    assert STEP.reach and STEP.by_place  # read from the kept reach, by each cell's place in the board's order


def test_the_moves_of_random_games_are_those_found_by_walking_every_step() -> None:
    for seed in range(3):
        s, choose = GAME.new_state(players=2, seed=seed), random.Random(seed)
        while not s.is_terminal:
            assert STEP.moves(s) == walked(STEP, s)
            s.play(choose.randrange(len(s.legal_actions())))


class CountingBoard(dict):  # type: ignore[type-arg]
    """A board that counts how many cells are looked up."""

    looked = 0

    def get(self, cell: Any, default: Any = None) -> Any:
        self.looked += 1
        return super().get(cell, default)


def test_where_nothing_stacks_the_moves_look_at_the_side_s_pieces_not_at_every_cell() -> None:
    """Only the cells the side's pieces may step to are looked up on the board, not each of its 64 cells."""
    s = GAME.new_state(players=2, seed=0)
    s.grid = CountingBoard(s.grid)
    moves = STEP.moves(s)
    own = [s.cell_of[p] for p in s.zones[GAME.board_zone] if STEP.values[s.face[p]][p] == s.acting_role]
    reach = STEP.reach[STEP.forward[s.acting_role]]
    assert moves and s.grid.looked == sum(len(reach[cell]) for cell in own) < len(GAME.grid.cells)
