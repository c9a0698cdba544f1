"""``all_cells``: every cell of a board with edges, empty or not, in the board's order (engine/compiling/vocabulary.py).
``empty_cells`` gives only the free ones, so a move that may land on a rival's piece (a capture) had no list of
squares to choose from: docs/examples/chess wrote its 64 cells out as a list."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import engine
from cli.main import main

RULESET = """\
name: corners
title: Corners
version: 1
players: [2]
components:
  stone:
    instances:
      - {id: stone, count: 9}
BOARD
setup: |
  place(s in supply, (0, 0))
turn:
  - do:
      effect: |
        let c = choose(x in all_cells where x != (0, 0) or at(x) != none, always_ask = true)
        place(s in supply, c)
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""
FIXED = "board:\n  kind: square-grid\n  width: 3\n  height: 2\n  stacking: true\n"


def _write(tmp_path: Path, board: str) -> Path:
    folder = tmp_path / "corners"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(RULESET.replace("BOARD", board))
    return folder


def test_all_cells_lists_every_cell_of_a_board_with_edges_full_or_empty(tmp_path: Path) -> None:
    """The choice offers the six cells of a 3x2 board row by row, the one holding a stone too."""
    game = engine.load(_write(tmp_path, FIXED))
    state = game.new_state(players=2, seed=0)
    assert state.legal_actions().texts() == ["choose 0,0", "choose 1,0", "choose 2,0", "choose 0,1", "choose 1,1",
                                             "choose 2,1"]


def test_all_cells_on_a_board_without_edges_says_what_to_write(tmp_path: Path) -> None:
    """A growing board has no fixed cells: the name is refused at its place, pointing at empty_cells."""
    folder = _write(tmp_path, "board:\n  kind: square-grid\n")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    assert "ruleset.yaml:17:29: unknown name 'all_cells'" in result.output
    assert "a board with edges" in result.output and "empty_cells" in result.output
