"""Walls built in a loop on a large board, and a way far off the board (engine/blocks/walls.py, engine/blocks/grid.py).

Each wall built made the whole board again (every cell's neighbours, 50 ms on a board of 10,000 cells) and kept it,
4,096 boards at most: a setup building a wall beside each cell of a 100x100 board,
``for c in all_cells where c.x < 99: build_wall(c, (c.x + 1, c.y))``, ran for minutes and took 9 GB.  A board is now
made again only beside the wall that changed, fewer boards of a large board are kept, and a wall built or removed
spends a step of the budget for each 100 cells and walls of its board, so the loop stops at the budget at once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks import grid as grid_module
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


def crossed_step_by_step(grid: SquareGrid, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """wall_between as it was: every step of the way from a to b looked at."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(abs(dx), abs(dy))
    if n == 0 or dx not in (0, n, -n) or dy not in (0, n, -n):
        return False
    (sx, sy), (x, y) = (dx // n, dy // n), a
    return any(wall_pair((x + k * sx, y + k * sy), (x + (k + 1) * sx, y + (k + 1) * sy)) in grid.walls for k in range(n))


WAYS = st.tuples(st.integers(-6, 10), st.integers(-6, 9))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.tuples(st.integers(0, 4), st.integers(0, 3)), st.integers(0, 7)), min_size=1, max_size=10),
       WAYS, WAYS)
def test_a_way_is_crossed_by_a_wall_as_when_every_step_was_looked_at(walls: list, a: tuple[int, int],
                                                                     b: tuple[int, int]) -> None:
    plain = SquareGrid(width=5, height=4, adjacency="all")
    standing = frozenset(wall_pair(c, plain.neighbours(c)[i % len(plain.neighbours(c))]) for c, i in walls)
    grid = SquareGrid(width=5, height=4, adjacency="all", walls=standing, walled=True)
    assert grid.wall_across(a, b) == crossed_step_by_step(grid, a, b)


def test_a_way_far_off_the_board_is_looked_at_on_the_board_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """wall_between((5, 5), (10**11, 10**11)) walked the 10^11 steps of the way, one step of the budget: it hung."""
    grid = SquareGrid(width=100, height=100, adjacency="all", walls=frozenset({((98, 98), (99, 99))}), walled=True)
    looked = []

    def counted(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
        looked.append(a)
        assert len(looked) < 1000, "the way is walked off the board"
        return wall_pair(a, b)

    monkeypatch.setattr(grid_module, "wall_pair", counted)
    assert grid.wall_across((5, 5), (10**11, 10**11)) and not grid.wall_across((-10**11, 0), (10**11, 0))
    assert grid.wall_across((10**11, 10**11), (-10**11, -10**11))
