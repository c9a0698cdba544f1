"""``place: {cells: ...}``: the cells a piece may go to, named by an expression — a tile laid on the square in front
of the player's marker, a stone in the player's home row.  Written with ``refuse_if_after`` instead, every empty cell
was tried for every piece and face (a game of paths in the manner of Tsuro ran 50 actions a second, not 5,000), and
the rule read the position after the step's ``then`` had moved the marker on."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import IllegalActionError, RulesetError

PATHS = """\
name: paths
players: [2]
types:
  colour: [Red, Blue]
roles: {of: colour}
components:
  tile:
    faces: [r0, r1]
    attributes: {turns: {type: int, per_face: true}}
    instances:
      - {id: A, turns: [0, 1]}
      - {id: B, turns: [0, 1]}
      - {id: C, turns: [0, 1]}
      - {id: D, turns: [0, 1]}
board: {kind: square-grid, width: 4, height: 4, adjacency: orthogonal}
zones:
  hand: {kind: hand, per: role}
counters:
  mx: {per: role, doc: the column the marker faces}
functions:
  front(colour r): (mx(r), 0)
  home(colour r): c in empty_cells where c.y == (if r == Red then 0 else 3)
setup: |
  move(t in tiles where t.id == "A" or t.id == "B", hand(Red))
  move(t in tiles where t.id == "C" or t.id == "D", hand(Blue))
  mx(Red) = 1
  mx(Blue) = 2
turn:
  - place:
      from: hand
      CELLS
      then: mx(current_role) += 1
end:
  when: count(board) == 4
scoring:
  rank: r in roles
  by: [mx(r)]
  points: key
"""


def _game(tmp_path: Path, cells: str) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(PATHS.replace("CELLS", cells), encoding="utf-8")
    return engine.load(path)


def test_only_the_cell_named_is_offered_on_any_empty_square_of_the_board(tmp_path: Path) -> None:
    s = _game(tmp_path, "cells: front(current_role)").new_state(players=2)
    offered = sorted(str(a) for a in s.legal_actions())
    assert offered == ["place A as 0 at 1,0", "place A as 1 at 1,0", "place B as 0 at 1,0", "place B as 1 at 1,0"]
    s.apply("place A as 1 at 1,0")  # the marker moves on: Blue's turn, Blue's square
    assert sorted(str(a) for a in s.legal_actions())[0] == "place C as 0 at 2,0"


def test_a_cell_typed_elsewhere_is_refused_with_the_rule_and_the_game_unchanged(tmp_path: Path) -> None:
    s = _game(tmp_path, "cells: front(current_role)").new_state(players=2)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=r"cell 3,3 is not one of the cells this step allows \(front of the "
                                                 r"current role\)"):
        s.apply("place A as 0 at 3,3")
    assert s.to_json() == before


def test_a_list_of_cells_is_met_with_the_steps_own_rule_when_it_says_touching(tmp_path: Path) -> None:
    game = _game(tmp_path, "cells: home(current_role)")
    s = game.new_state(players=2)
    assert {str(a).rsplit(" ", 1)[1] for a in s.legal_actions()} == {"0,0", "1,0", "2,0", "3,0"}  # Red's row, anywhere
    s.apply("place A as 0 at 2,0")
    assert {str(a).rsplit(" ", 1)[1] for a in s.legal_actions()} == {"0,3", "1,3", "2,3", "3,3"}
    touching = _game(tmp_path, "cells: home(current_role)\n      touching: true").new_state(players=2)
    touching.apply("place A as 0 at 0,0")  # the first piece goes at 0,0, as ever
    # Blue's row touches no piece: Blue passes, and Red may place only beside its tile, in its row
    assert touching.current_role == "Red"
    assert {str(a).rsplit(" ", 1)[1] for a in touching.legal_actions()} == {"1,0"}


def test_cells_that_are_no_cells_are_refused_where_written(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:
        _game(tmp_path, "cells: mx(current_role)")
    assert "'cells' must be a cell or a list of cells (say empty_cells), not int" in str(err.value)
    assert ":31:14:" in err.value.format()  # the line of the setting


def test_explain_says_where_the_piece_goes(tmp_path: Path) -> None:
    step = _game(tmp_path, "cells: front(current_role)").steps[0]
    assert step.describe().endswith("with the face of their choice up, on front of the current role; then add 1 to "
                                     "the mx of the current role")
    step = _game(tmp_path, "cells: home(current_role)").steps[0]
    assert "up, on the cells given by home of the current role;" in step.describe()


def test_a_face_typed_by_its_declared_name_is_told_how_actions_write_it(tmp_path: Path) -> None:
    """Faces named r0, r1 whose per-face attribute shows 0, 1 are written 'as 0': 'as r1' was refused with the list
    of faces alone ('its faces are 0 and 1'), which did not say why the face's own name was not one of them."""
    s = _game(tmp_path, "cells: front(current_role)").new_state(players=2)
    with pytest.raises(IllegalActionError, match=r"A has no face 'r1' \(its faces are 0 and 1\): a face is written "
                                                 r"as the values its per-face attributes show, so face r1 is '1'"):
        s.apply("place A as r1 at 1,0")


def test_the_face_of_a_one_faced_piece_typed_is_told_to_leave_it_out(tmp_path: Path) -> None:
    """A piece of a single face is placed as 'place E at 0,0'; 'as face' was refused as no legal action, the list of
    actions beside it showing the text without it."""
    text = PATHS.replace("CELLS", "face: as-is").replace("      - {id: D, turns: [0, 1]}\n", "      - {id: D, turns: [0, 1]}\n  stone:\n    instances: [E]\n")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace('t.id == "A" or t.id == "B", hand(Red))', 't.id == "A" or t.id == "B", hand(Red))\n  move(e in stones, hand(Red), on_top = true)'), encoding="utf-8")
    s = engine.load(path).new_state(players=2)
    assert "place E at 0,0" in [str(a) for a in s.legal_actions()]
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=r"E has a single face, which a placement does not name: 'place E at "
                                                 r"0,0'"):
        s.apply("place E as face at 0,0")
    assert s.to_json() == before
