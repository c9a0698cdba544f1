"""Attributes of type ``cell``: a component tied to a place of the board, so code follows the board's links between
components (a map's lands), as docs/examples/frontiers does.

The map here is a triangle of lands a-b-c and an island d-e, two parts the links do not join::

    a . b     d - e
     \\ /
      c
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import engine
from engine.runner.validate import validate_path

RULESET = """
name: map-test
players: [2]
board:
  kind: points
  points: {a: [0, 0], b: [2, 0], c: [1, 1], d: [4, 0], e: [5, 0]}
  links: [[a, b, c, a], [d, e]]
components:
  land:
    attributes: {spot: cell, coast: {type: cell, list: true}}
    instances:
      - {id: North, spot: a, coast: [b, "1,1"]}
      - {id: South, spot: "2,0"}
      - {id: West, spot: [1, 1]}
      - {id: Isle, spot: d}
zones:
  held: {kind: pile, per: role}
functions:
  borders(land t, land u): u.spot in neighbours(t.spot)
counters:
  moves: {}
turn:
  - do: {effect: "moves += 1"}
end:
  when: turn > 2
scoring:
  rank: r in roles
  by: [moves]
  points: key
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_a_cell_attribute_reads_as_the_cell_it_names(tmp_path: Path) -> None:
    game = engine.load(str(write(tmp_path, RULESET)))
    s = game.new_state(players=2)
    ask = lambda text: game.compile_condition(text).run(s)  # noqa: E731
    land = lambda name: f'first(x in lands where x.id == "{name}")'  # noqa: E731
    assert ask(f"{land('North')}.spot == a and {land('North')}.spot.x == 0 and {land('North')}.coast == [b, c]")
    assert ask(f"{land('South')}.spot == b and {land('West')}.spot == c and {land('Isle')}.spot == d")
    assert ask(f"borders({land('North')}, {land('South')}) and borders({land('West')}, {land('North')})")
    assert ask(f"count(x in lands where borders({land('Isle')}, x)) == 0")  # e, its one neighbour, is no land
    assert ask('first(x in lands where x.spot == c).id == "West" and first(x in lands where x.spot == e) == none')


@pytest.mark.parametrize("instance, at, message", [
    ("{id: Isle, spot: f}", "f}", "spot 'f' is no point of the board"),
    ("{id: Isle, spot: \"9,9\"}", '"9,9"', "spot '9,9' is no point of the board"),
    ("{id: Isle, spot: 3}", "3}", "spot is a cell of the board: a point's name, \"x,y\" or [x, y] of whole numbers, not '3'"),
    # regressions: a pair that is no two numbers was told in Python's words ('[True, 1]'), and a wrong item of a list
    # of cells was reported at the list's '['
    ("{id: Isle, spot: [true, 1]}", "[true",
     "spot is a cell of the board: a point's name, \"x,y\" or [x, y] of whole numbers, not '[true, 1]'"),
    ("{id: Isle, spot: d, coast: [e, g]}", "g]", "coast 'g' is no point of the board"),
    ("{id: Isle, spot: d, coast: [e, [1, 2, 3]]}", "[1, 2, 3]",
     "an item of coast is a cell of the board: a point's name, \"x,y\" or [x, y] of whole numbers, not '[1, 2, 3]'"),
    ("{id: Isle, spot: d, coast: 1}", "1}", "coast must be a list, like [a, b], not '1'"),  # once: a TypeError traceback
])
def test_a_cell_that_is_no_place_of_the_board_is_reported_where_written(tmp_path: Path, instance: str, at: str,
                                                                         message: str) -> None:
    text = RULESET.replace("{id: Isle, spot: d}", instance)
    found = [(d.pos.line, d.pos.col, d.message) for d in validate_path(str(write(tmp_path, text)))]
    lines = textwrap.dedent(text).splitlines()
    line = lines.index("      - " + instance) + 1
    assert found == [(line, lines[line - 1].index(at) + 1, message)]



def test_a_cell_out_of_a_growing_boards_reach_is_reported_where_written(tmp_path: Path) -> None:
    """On a board without edges any cell was accepted: ``spot: [1000000000, 0]`` put a piece where none could ever
    stand (the first at 0,0, each next beside another), past the cells the learning environment's action table
    lists, and the drawings of the board grew to the box around it. Four lands reach 3 cells from 0,0."""
    start, end = RULESET.index("board:"), RULESET.index("components:")
    text = RULESET[:start] + "board: {kind: square-grid}\n" + RULESET[end:]
    text = text.replace("coast: [b, \"1,1\"]", "coast: [\"-3,3\", [1000000000, 0]]").replace(
        "spot: a,", "spot: \"0,0\",").replace("spot: d}", "spot: \"0,4\"}").replace("borders(land t, land u): u.spot in neighbours(t.spot)", "borders(land t, land u): true")
    found = [(d.pos.line, d.message) for d in validate_path(str(write(tmp_path, text)))]
    lines = textwrap.dedent(text).splitlines()
    reach = "is out of this growing board's reach: its first piece goes at 0,0 and each next one beside another, " \
            "so with 4 components a piece stands at most 3 across and 3 down from 0,0"
    assert found == [(lines.index("      - {id: North, spot: \"0,0\", coast: [\"-3,3\", [1000000000, 0]]}") + 1,
                      f"coast '1000000000,0' {reach}"),
                     (lines.index("      - {id: Isle, spot: \"0,4\"}") + 1, f"spot '0,4' {reach}")]

def test_a_cell_attribute_needs_a_board(tmp_path: Path) -> None:
    start, end = RULESET.index("board:"), RULESET.index("components:")
    found = [d.message for d in validate_path(str(write(tmp_path, RULESET[:start] + RULESET[end:])))]
    assert found == ["spot is a cell of the board, but this ruleset has no board",  # once for each attribute
                     "coast is a cell of the board, but this ruleset has no board"]


def test_the_terminal_and_explain_name_the_point_a_cell_attribute_holds(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli import zone_listing
    from cli.main import main

    path = write(tmp_path, RULESET.replace("  held: {kind: pile, per: role}", "  held: {kind: pile, per: role}\n"
                                           "  atlas: {kind: pile, show: [spot, coast]}")
                 + "setup: |\n  move(t in lands, atlas)\n")
    state = engine.load(str(path)).new_state(players=2)
    shown = [line.plain for line in zone_listing.zones(state, None)]
    assert "  North: spot a b c" in [line.rstrip() for line in shown]  # not (0, 0) (2, 0) (1, 1)
    card = CliRunner().invoke(main, ["explain", str(path), "--component", "North"]).output
    assert "spot: a" in card and "coast: [b, c]" in card
