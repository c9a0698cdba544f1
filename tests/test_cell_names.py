"""A square board that names its cells as players do (``board: {cell_names: algebraic}``): columns a, b, c ... from
x = 0, rows 1, 2, 3 ... from y = 0.  Every text form of a cell uses the names — action texts, logs, messages, the
drawn board's edges, scenarios — and ``x,y`` is still read; without the setting nothing changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from cli.render import make_console
from cli.board_drawing import board
from cli.web.svg import board_svg
from cli.web.view import actions
from engine.core.errors import IllegalActionError, RulesetError
from engine.runner.scenario import run_scenario
from engine.runner.validate import validate_path

MARKS = """\
name: marks
title: Marks
version: 1
description: Two players put marks on a 3x3 board; three in a line win.
players: [2]
types:
  mark: [X, O]
components:
  token:
    attributes: {mark: mark}
    instances:
      - {id: X, mark: X, count: 5}
      - {id: O, mark: O, count: 4}
board:
  kind: square-grid
  width: 3
  height: 3
  adjacency: all
  cell_names: algebraic
roles:
  of: mark
  seating: {2: [1, 2]}
zones:
  marks: {kind: hand, per: role}
setup: |
  for r in roles:
    move(t in tokens where t.mark == r, marks(r))
turn:
  - place: {from: marks, face: as-is, touching: false}
end:
  when: any(longest_line(t in board where t.mark == r) >= 3 for r in roles) or count(empty_cells) == 0
scoring:
  rank: r in roles
  by: [longest_line(t in board where t.mark == r)]
  points: key
"""


def _ruleset(tmp_path: Path, text: str = MARKS) -> Path:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    return path


def _game(tmp_path: Path, text: str = MARKS) -> engine.Game:
    return engine.load(str(_ruleset(tmp_path, text)))


def test_actions_name_the_cells(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2, seed=1)
    assert s.legal_actions().texts()[:4] == ["place X at a1", "place X at b1", "place X at c1", "place X at a2"]


def test_without_the_setting_cells_stay_x_y(tmp_path: Path) -> None:
    s = _game(tmp_path, MARKS.replace("  cell_names: algebraic\n", "")).new_state(players=2, seed=1, record=True)
    assert s.legal_actions().texts()[:2] == ["place X at 0,0", "place X at 1,0"]
    s.apply("place X at 1,1")
    assert s.log[-1] == "X places X at (1,1)"


def test_a_player_types_the_name_or_x_y(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2, seed=1, record=True)
    assert s.parse_action("place X at b2") == s.parse_action("place X at 1,1") == s.parse_action("place X at B2")
    s.apply("place X at 1,1")
    s.apply("place O at c3")
    assert s.log[-2:] == ["X places X at b2", "O places O at c3"]  # the name alone, not '(1,1)'


def test_a_refusal_names_the_cell(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2, seed=1)
    s.apply("place X at b2")
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="cell b2 is already taken"):
        s.apply("place O at 1,1")
    with pytest.raises(IllegalActionError, match="cell d4 is not on the board"):
        s.apply("place O at d4")
    assert s.to_json() == before


def test_the_terminal_board_shows_letters_and_numbers_on_its_edges(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2, seed=1)
    s.apply("place X at b2")
    console = make_console(width=80)
    with console.capture() as out:
        console.print(board(s))
    lines = [line.rstrip() for line in out.get().splitlines()]
    assert lines[0].split() == ["a", "b", "c"]
    assert [line.split()[0] for line in lines[2:5]] == ["1", "2", "3"]
    assert lines[3].split() == ["2", "·", "X", "·"]
    assert "columns a, b ... across, rows 1, 2 ... down" in out.get()


def test_the_page_labels_the_edges_and_finds_the_cells_of_named_actions(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2, seed=1)
    s.apply("place X at b2")
    drawn = board_svg(s)
    assert re.findall(r'class="coord"[^>]*>([^<]*)<', drawn) == ["a", "b", "c", "1", "2", "3"]
    assert '<g class="cell" data-cell="1,1"><title>b2</title>' in drawn
    assert actions(s, 2)[0] == {"text": "place O at a1", "cells": ["0,0"], "cell_words": ["0,0", "a1"], "zones": ["marks of O"]}


def test_a_scenario_writes_cells_by_name(tmp_path: Path) -> None:
    _ruleset(tmp_path)
    scenario = tmp_path / "named.yaml"
    scenario.write_text("ruleset: ruleset.yaml\nplayers: 2\nposition:\n  from_setup: true\n  board:\n    a1: X\n"
                        "    b2: X\n    a3: O\n  turn: O\nactions:\n  - place O at c3\n  - expect_offered_include:\n"
                        "      - place X at b1\n      - place X at 2,1\n  - place X at 1,0\n"
                        "expect_log:\n  - X places X at b1\nexpect:\n  - at(2, 2).mark == O and at(1, 0).mark == X\n")
    result = run_scenario(scenario)
    assert result.passed, result.failures


def test_a_scenario_cell_that_is_no_name_is_refused_where_it_is_written(tmp_path: Path) -> None:
    _ruleset(tmp_path)
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text("ruleset: ruleset.yaml\nplayers: 2\nposition:\n  board:\n    d9: X\n")
    failures = run_scenario(scenario).failures
    assert failures[0].startswith(f"{scenario}:5:5: cell d9 is not on the board (its cells are a1 to c3)"), failures


def test_code_keeps_cells_as_pairs(tmp_path: Path) -> None:
    """A text in code is no cell, even one that reads as a cell's name."""
    game = _game(tmp_path)
    assert game.compile_condition("at((1, 1)) == none").test(game.new_state(players=2))
    with pytest.raises(RulesetError, match="the cell of at\\(\\) must be a cell"):
        game.compile_condition('at("b2") == none')


def test_moves_read_and_write_names(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text("extends: breakthrough\nname: named-breakthrough\nboard:\n  cell_names: algebraic\n")
    s = engine.load(str(tmp_path / "ruleset.yaml")).new_state(players=2, seed=1, record=True)
    assert "move a7 to a6" in s.legal_actions().texts()
    s.apply("move 0,6 to 0,5")
    assert s.log[-1] == "Black moves Black from a7 to a6"
    with pytest.raises(IllegalActionError, match="the piece at a1 cannot move to a6"):
        s.apply("move a1 to a6")


def test_columns_past_z_go_on_as_aa(tmp_path: Path) -> None:
    wide = MARKS.replace("width: 3", "width: 28").replace("height: 3", "height: 1")
    texts = _game(tmp_path, wide).new_state(players=2, seed=1).legal_actions().texts()
    assert texts[25:28] == ["place X at z1", "place X at aa1", "place X at ab1"]


@pytest.mark.parametrize(("board", "said"), [
    ("  kind: hex\n  radius: 2\n  cell_names: algebraic\n",
     "ruleset.yaml:17:15: 'cell_names' names the cells of a square grid ('kind: square-grid' with a 'width' and a "
     "'height') or the points of a board of points, not of a hex board"),
    ("  kind: square-grid\n  max_width: 3\n  max_height: 3\n  cell_names: algebraic\n",
     "ruleset.yaml:18:15: 'cell_names' names the cells of a board of a fixed size: give 'width' and 'height'"),
    ("  kind: points\n  points: {a: [0, 0], b: [1, 0]}\n  links: [[a, b]]\n  cell_names: algebraic\n",
     "ruleset.yaml:18:15: 'cell_names' must be one of numbers, names, not 'algebraic'"),
    ("  kind: points\n  points: [[0, 0], [1, 0]]\n  links: [[\"0,0\", \"1,0\"]]\n  cell_names: names\n",
     "ruleset.yaml:18:15: 'cell_names: names' writes the points by their names, and these points have none"),
    ("  kind: square-grid\n  width: 3\n  height: 3\n  cell_names: chess\n",
     "ruleset.yaml:18:15: board/cell_names: 'chess' is not one of numbers, algebraic, names"),
])
def test_the_setting_is_refused_where_it_names_nothing(tmp_path: Path, board: str, said: str) -> None:
    text = re.sub(r"board:\n(  .*\n)+", "board:\n" + board, MARKS).replace("touching: false", "touching: true")
    path = _ruleset(tmp_path, text)
    found = [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]
    assert any(line.startswith(said) for line in found), found


def test_the_play_command_lists_the_actions_at_a_cell_written_either_way(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli.main import main

    result = CliRunner().invoke(main, ["play", str(_ruleset(tmp_path)), "--seed", "1"], input="2,1\nc2\nquit\n")
    assert "Traceback" not in result.output
    assert result.output.count("1 action contains 'c2':\n[6] place X at c2") == 2, result.output


def test_a_typed_cell_lists_the_actions_at_that_cell_only(tmp_path: Path) -> None:
    """On a board of ten rows or more, a typed 'a1' (or '0,0', read as a1) listed the actions at a10, a11 and a12
    too, whose text holds 'a1': now a whole cell lists that cell only, at the terminal as on the page; a longer
    text still lists every action containing it."""
    from click.testing import CliRunner

    from cli.main import main

    wide = _ruleset(tmp_path, MARKS.replace("width: 3", "width: 12").replace("height: 3", "height: 12"))
    result = CliRunner().invoke(main, ["play", str(wide), "--seed", "1"], input="a1\n0,0\nA1\nX at a1\nquit\n")
    assert "Traceback" not in result.output
    assert result.output.count("1 action contains 'a1':\n[1] place X at a1\n") == 2, result.output
    assert "1 action contains 'A1':\n[1] place X at a1\n" in result.output
    assert "4 actions contain 'X at a1':" in result.output  # a1, a10, a11 and a12
    listed = actions(engine.load(str(wide)).new_state(players=2, seed=1), 1)
    assert listed[0] == {"text": "place X at a1", "cells": ["0,0"], "cell_words": ["0,0", "a1"], "zones": ["marks of X"]}
    assert listed[108]["cell_words"] == ["0,9", "a10"]


def test_a_typed_cell_written_x_y_lists_that_cell_only() -> None:
    """At the terminal, a typed hex 1,1 listed the actions at -1,1 as well (as the page did before)."""
    from click.testing import CliRunner

    from cli.main import main

    result = CliRunner().invoke(main, ["play", "iconoclasm", "--players", "2", "--seed", "7"], input="1,1\nquit\n")
    listed = result.output.split("5 actions contain '1,1':\n")[1].split(">")[0].split()
    assert listed.count("1,1") == 5 and "-1,1" not in listed, result.output


@pytest.mark.parametrize("named", [True, False])
def test_a_number_too_long_to_read_is_no_cell(tmp_path: Path, named: bool) -> None:
    """A typed or written x,y with more digits than Python reads as a number (4,300) is refused, not a crash: in an
    action (read again as a name on a board naming its cells), in a scenario's position and as a cell attribute's
    value, where it is written."""
    game = _game(tmp_path, MARKS if named else MARKS.replace("  cell_names: algebraic\n", ""))
    huge = "9" * 5000
    s = game.new_state(players=2, seed=1)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(f"place X at {huge},1")
    assert s.to_json() == before and game.read_cell(f"{huge},1") is None
    assert game.cell_names.typed(f"place X at {huge},1 or 1,1") == f"place X at {huge},1 or " + ("b2" if named else "1,1")
    scenario = tmp_path / "huge.yaml"
    scenario.write_text(f'ruleset: ruleset.yaml\nplayers: 2\nposition:\n  board:\n    ? "{huge},0"\n    : X\n')
    failures = run_scenario(scenario).failures
    assert failures[0].startswith(f"{scenario}:5:7: '{huge[:60]}... (5,002 characters)' is not a cell"), failures[0][:300]
    spot = MARKS.replace("attributes: {mark: mark}", "attributes: {mark: mark, spot: cell}").replace(
        "{id: O, mark: O, count: 4}", f'{{id: O, mark: O, count: 4, spot: "{huge},1"}}')
    found = [d.headline() for d in validate_path(str(_ruleset(tmp_path, spot)))]
    assert found == [f"{tmp_path / 'ruleset.yaml'}:13:42: spot '{huge[:60]}... (5,002 characters)' is no cell of the board"]


@pytest.mark.parametrize(("size", "said"), [
    ("  width: 10001\n  height: 1\n", "ruleset.yaml:16:10: a fixed board has at most 10000 cells, not 10001"),
    ("  width: 5\n", "ruleset.yaml:16:10: a fixed board needs both 'width' and 'height'"),
])
def test_a_board_refused_for_its_size_is_not_refused_for_its_names_too(tmp_path: Path, size: str, said: str) -> None:
    """The largest boards name their cells (a 10000-wide row ends at ntp1, a 10000-tall column at a10000); past the
    size, or with a width alone, the size is the one fault said: not also that cell_names wants a width and height,
    nor that the steps' 'touching: false' and 'drop: true' need a board with fixed edges (the board refused is built
    growing), nor that a cell attribute lies out of a growing board's reach."""
    for width, height, last in ((10000, 1, "ntp1"), (1, 10000, "a10000")):
        game = _game(tmp_path, MARKS.replace("width: 3", f"width: {width}").replace("height: 3", f"height: {height}"))
        assert game.cell_text((width - 1, height - 1)) == last and game.read_cell(last.upper()) == (width - 1, height - 1)
    for text in (MARKS, MARKS.replace("touching: false", "touching: false, drop: true"),
                 MARKS.replace("attributes: {mark: mark}", "attributes: {mark: mark, spot: cell}").replace(
                     "{id: O, mark: O, count: 4}", "{id: O, mark: O, count: 4, spot: [9000, 0]}")):
        path = _ruleset(tmp_path, text.replace("  width: 3\n  height: 3\n", size))
        found = [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]
        assert found == [said], found


def test_a_cell_past_what_a_name_writes_stays_x_y(tmp_path: Path) -> None:
    """Names read back up to column zzz and row 999999: a cell past them is written x,y, so a refusal quotes what
    can be typed again (99999,0 was named eqxd1, which reads as no cell)."""
    game = _game(tmp_path)
    for cell in ((99999, 0), (0, 999999), (18277, 999998)):
        assert game.read_cell(game.cell_text(cell)) == cell
    with pytest.raises(IllegalActionError, match="cell 99999,0 is not on the board"):
        game.new_state(players=2, seed=1).apply("place X at 99999,0")


def test_a_cell_typed_with_a_leading_zero_is_that_cell() -> None:
    """'01,1' listed nothing (the filter compared texts); it is cell 1,1, at the terminal as on the page."""
    from click.testing import CliRunner

    from cli.main import main

    result = CliRunner().invoke(main, ["play", "tic-tac-toe", "--seed", "1"], input="01,1\nquit\n")
    assert "1 action contains '01,1':\n[5] place X at 1,1\n" in result.output, result.output
