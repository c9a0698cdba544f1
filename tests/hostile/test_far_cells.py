"""Cells far apart given to ``between()`` (engine/blocks/board_functions.py), and far cells on a growing board.

``between((0, 0), (300000000, 0))`` listed every cell of the way for no step of the budget: 7 GB in a minute, and
more.  Each cell listed now spends a step, so the call stops at the budget at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core import limits
from engine.runner.validate import validate_path

RULESET = """\
name: far-cells
players: [2]
types:
  side: [A, B]
roles: {of: side}
board:
  kind: square-grid
  width: 8
  height: 8
setup: |
  if count(between((0, 0), (FAR, 0))) > 0:
    pass
turn:
  - do: {effect: pass}
end:
  when: turn > 2
scoring:
  rank: r in roles
  by: [1]
  points: key
"""


def problems(tmp_path: Path, far: int) -> list[str]:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("FAR", str(far)))
    with limits.using(limits.parse_limits(["steps=3000"])):
        return [f"{d.pos.line}:{d.pos.col} {d.message}" for d in validate_path(str(path))]


def test_between_cells_far_apart_spends_a_step_for_each_cell_it_lists(tmp_path: Path) -> None:
    """3,000 steps: a way of 999 cells is listed (and counted), one of a million cells stops at between() (it was
    listed whole, for no step), and so does one of 10^12 cells."""
    assert problems(tmp_path, 1000) == []
    for far in (10**6, 10**12):
        assert problems(tmp_path, far) == [
            "11:12 setting up 2 players fails: effect ran out of its step budget in this between() (limit steps=3,000; "
            "raise it with --limit steps=N)"]


def test_a_growing_board_remembers_the_neighbours_of_a_bounded_number_of_cells(monkeypatch: Any) -> None:
    """A growing board's one grid serves every game of the process: code asking the neighbours of cells ever further
    off (a loop over numbers(1, 10000) each turn) kept each, without end."""
    from engine.blocks import grid

    monkeypatch.setattr(grid, "CELLS_REMEMBERED", 50)
    board = grid.SquareGrid()
    assert all(board.neighbours((x, 0)) == ((x + 1, 0), (x - 1, 0), (x, 1), (x, -1)) for x in range(1000))
    assert len(board.around()) == 50
