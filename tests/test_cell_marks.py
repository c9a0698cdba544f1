"""A counter keyed by the board's cells (``counters: {trail: {key: cell}}``) is drawn on the board, in the terminal and
on the page: its value in each empty cell (hex, point) where it is not 0.  Trails' marks were listed under the board,
``trail: 0,0=1, 1,0=1, 6,5=2``, to be matched cell by cell with the drawing; the list now says only what the board
cannot show, a value under a piece."""

from __future__ import annotations

import io
import re
from pathlib import Path

import engine
from cli import board_drawing, render, zone_listing
from cli.cell_marks import board_marks
from cli.web.svg import board_svg
from cli.web.view import table_html
from engine.model.state import State
from tests.oracle import EXAMPLES


def drawn(state: State) -> list[str]:
    """The terminal's board, its key and the lines under it, as plain lines."""
    text = io.StringIO()
    out = render.make_console(width=100, file=text)
    out.print(board_drawing.board(state))
    for line in zone_listing.zones(state, 1):
        out.print(line)
    return text.getvalue().splitlines()


def marked(state: State, cell: tuple[int, int], value: int) -> None:
    spec = state.game.counters["trail"]
    state.counters[spec.offset + spec.owners.index((None, cell))] = value


def test_the_trails_marks_are_drawn_in_their_cells_in_the_terminal_and_on_the_page() -> None:
    state = engine.load(EXAMPLES / "trails").new_state(players=2, seed=2)
    state.apply("choose 1,0")  # Blue leaves 0,0: its trail there
    lines = drawn(state)
    assert lines[2].split()[:3] == ["0", "1", "B"], lines  # row 0: the mark where Blue stood, then Blue
    assert any("; a number: the trail of an empty cell;" in line for line in lines), lines  # the board's key
    assert not any(line.startswith("trail") for line in lines), lines  # no longer listed
    svg = board_svg(state)
    cell = re.search(r'<g class="cell" data-cell="0,0"><title>0,0, trail 1</title>.*?</g>', svg)
    assert cell is not None and '>1</text>' in cell.group(0) and 'class="mark"' in cell.group(0)
    assert svg.count('class="mark"') == 1
    page = table_html(state, 1)
    assert re.search(r"<li>trail: the numbers in the board(&#x27;|&#39;|')s empty cells</li>", page), page
    assert "0,0=1" not in page


def test_a_mark_under_a_piece_is_listed_under_the_board() -> None:
    state = engine.load(EXAMPLES / "trails").new_state(players=2, seed=2)
    marked(state, (0, 0), 2)  # under Blue
    assert board_marks(state) is not None and board_marks(state).under_pieces(state) == {(0, 0): 2}
    lines = drawn(state)
    assert "trail under pieces: 0,0=2" in lines and not any("a number:" in line for line in lines)
    assert 'class="mark"' not in board_svg(state) and "0,0, trail 2" in board_svg(state)  # the piece drawn, its title says
    assert "trail under pieces: 0,0=2" in table_html(state, 1)


HEX = """\
name: hex-marks
players: [2]
types:
  side: [Red, Blue]
roles: {of: side}
components:
  stone:
    attributes: {side: side}
    instances: [{id: R, side: Red}, {id: B, side: Blue}]
zones:
  stock: {kind: hand}
board: {kind: hex, radius: 1}
counters:
  heat: {key: cell, min: 0}
COUNTERS
setup: |
  heat((1, 0)) = 3
  move(c in supply, stock)
turn:
  - place: {from: stock}
end:
  when: count(c in stock) == 0
scoring: {rank: r in roles, by: [0], points: key}
"""


def test_a_hex_boards_marks_are_drawn_and_two_such_counters_are_listed_instead(tmp_path: Path) -> None:
    """A hex holds its value in place of its coordinates; with two game-wide counters keyed by cells, which of them
    a number in a cell would be cannot be told: neither is drawn, both are listed as before."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(HEX.replace("COUNTERS\n", ""), encoding="utf-8")
    state = engine.load(path).new_state(players=2, seed=1)
    lines = drawn(state)
    assert any(re.search(r"(^|\s)3(\s|$)", line) for line in lines[1:4]), lines
    assert "a number: the heat of an empty hex" in lines[0] and not any(line.startswith("heat") for line in lines)
    assert re.search(r'<title>1,0, heat 3</title><polygon[^>]*/><text[^>]*class="mark"[^>]*>3</text>', board_svg(state))
    path.write_text(HEX.replace("COUNTERS\n", "  glow: {key: cell, min: 0}\n"), encoding="utf-8")
    state = engine.load(path).new_state(players=2, seed=1)
    assert board_marks(state) is None and 'class="mark"' not in board_svg(state)
    assert "heat: 1,0=3" in drawn(state)
