"""Walls built in a loop on a large board (engine/blocks/walls.py, engine/blocks/grid.py).

Each wall built made the whole board again (every cell's neighbours, 50 ms on a board of 10,000 cells) and kept it,
4,096 boards at most: a setup building a wall beside each cell of a 100x100 board,
``for c in all_cells where c.x < 99: build_wall(c, (c.x + 1, c.y))``, ran for minutes and took 9 GB.  A board is now
made again only beside the wall that changed, fewer boards of a large board are kept, and a wall built or removed
spends a step of the budget for each 100 cells and walls of its board, so the loop stops at the budget at once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks.grid import SquareGrid, wall_pair
from engine.core import limits
from engine.runner.validate import validate_path

RULESET = """\
name: wall-loop
players: [2]
types:
  side: [A, B]
roles: {of: side}
board:
  kind: square-grid
  width: 100
  height: 100
  walls: []
setup: |
  for c in all_cells where c.x < 99 and c.y < 3:
    build_wall(c, (c.x + 1, c.y))
turn:
  - do: {effect: pass}
end:
  when: turn > 2
scoring:
  rank: r in roles
  by: [1]
  points: key
"""


def test_walls_built_in_a_loop_on_a_large_board_stop_at_the_step_budget(tmp_path: Path) -> None:
    """297 walls on a board of 10,000 cells under a budget of 20,000 steps: 15 s before, and no error (each wall a
    step at most), now stopped at the budget, a hundred steps a wall."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET)
    with limits.using(limits.parse_limits(["steps=20000"])):
        found = [f"{d.pos.line}:{d.pos.col} {d.message}" for d in validate_path(str(path))]
    assert found == ["13:5 setting up 2 players fails: effect ran out of its step budget in this build_wall() (limit "
                     "steps=20,000; raise it with --limit steps=N)"], found


def test_a_large_board_keeps_few_boards_of_other_walls() -> None:
    grid = SquareGrid(width=100, height=100, walled=True)
    walls: frozenset[tuple[tuple[int, int], tuple[int, int]]] = frozenset()
    for x in range(150):
        walls = walls | {wall_pair((x % 99, x // 99), (x % 99 + 1, x // 99))}
        grid = grid.with_walls(walls)
    assert len(grid._with) <= grid.boards_kept == 100


CELLS = st.tuples(st.integers(0, 4), st.integers(0, 3))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["orthogonal", "all"]), st.lists(st.tuples(CELLS, st.integers(0, 7)), max_size=8))
def test_a_board_made_again_beside_a_wall_is_the_board_made_whole(adjacency: str, changes: list) -> None:
    """Walls built and removed one at a time (a neighbour of a cell, by its index): the board worked out beside each
    changed wall has the neighbours of the board worked out whole with those walls."""
    grid = SquareGrid(width=5, height=4, adjacency=adjacency, walled=True)
    walls = frozenset()
    for cell, which in changes:
        near = SquareGrid(width=5, height=4, adjacency=adjacency).neighbours(cell)
        wall = wall_pair(cell, near[which % len(near)])
        walls = walls - {wall} if wall in walls else walls | {wall}
        grid = grid.with_walls(walls)
        whole = dataclasses.replace(SquareGrid(width=5, height=4, adjacency=adjacency, walled=True), walls=walls)
        assert grid.walls == walls and grid._around == whole._around and grid.rays() == whole.rays()
