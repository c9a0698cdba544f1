"""Hexagonal boards: axial geometry, neighbours on the board only, pixel positions, placement stays on the board."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest

import engine
from engine.blocks.hexgrid import HEX_OFFSETS, HexGrid, hex_distance, hex_pixel, leftmost_key
from engine.core.errors import IllegalActionError


@pytest.mark.parametrize("radius,cells", [(0, 1), (1, 7), (2, 19), (4, 61)])
def test_a_board_of_radius_r_has_3r_r_plus_1_plus_1_hexes(radius: int, cells: int) -> None:
    g = HexGrid(radius)
    assert len(g.cells) == len(set(g.cells)) == cells
    assert all(hex_distance((0, 0), c) <= radius for c in g.cells)


def test_neighbours_are_the_six_adjacent_hexes_on_the_board() -> None:
    g = HexGrid(4)
    assert set(g.neighbours((0, 0))) == set(HEX_OFFSETS)
    assert all(hex_distance((0, 0), n) == 1 for n in g.neighbours((0, 0)))
    assert len(g.neighbours((4, 0))) == 3  # a corner
    assert len(g.neighbours((4, -2))) == 4  # an edge
    assert g.neighbours((5, 0)) == () and not g.contains((5, 0)) and g.contains((-4, 4))
    for c in g.cells:  # symmetric
        assert all(c in g.neighbours(n) for n in g.neighbours(c))


def test_distance_and_pixels_agree() -> None:
    assert hex_distance((0, 0), (2, -1)) == 2
    assert hex_distance((-2, 1), (1, 1)) == 3
    for c in HexGrid(2).cells:  # each step moves the centre by sqrt(3)
        for n in HexGrid(2).neighbours(c):
            (x0, y0), (x1, y1) = hex_pixel(c), hex_pixel(n)
            assert math.isclose(math.hypot(x1 - x0, y1 - y0), math.sqrt(3))


def test_leftmost_is_seen_from_one_hex_toward_another() -> None:
    # Looking east from 0,0: 1,-1 (north-east, y up) is on the left, 0,1 (south-east) on the right.
    assert leftmost_key((1, -1), (0, 0), (2, 0)) > 0 > leftmost_key((0, 1), (0, 0), (2, 0))
    assert leftmost_key((3, 0), (0, 0), (2, 0)) == pytest.approx(0)


def test_largest_group_uses_hex_adjacency() -> None:
    g = HexGrid(3)
    assert g.largest_group({(0, 0), (1, -1), (2, -2), (0, 2)}) == 3
    assert g.largest_group([]) == 0


RULESET = """
name: hex-test
players: [2]
components:
  piece:
    instances: [{id: a}, {id: b}, {id: c}]
board: {kind: hex, radius: 1}
setup: |
  place(c in pieces where c.id == "a", (1, 0))
turn:
  - place: {from: supply}
end:
  when: count(c in supply) == 0
scoring:
  rank: r in roles
  by: [turn_position(r)]
  points: [1, 0]
"""


@pytest.fixture()
def hex_game(tmp_path: Path) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(RULESET))
    return engine.load(str(path))


def test_placement_offers_only_empty_hexes_on_the_board_next_to_a_piece(hex_game: engine.Game) -> None:
    s = hex_game.new_state(players=2)
    cells = {a.args[-1] for a in s.legal_actions()}
    assert cells == {(0, 0), (1, -1), (0, 1)}  # 2,0 2,-1 1,1 are off a radius-1 board
    with pytest.raises(IllegalActionError, match="not on the board"):
        s.apply("place b at 2,0")
    s.apply("place b at 0,1")
    assert (-1, 1) in {a.args[-1] for a in s.legal_actions()}
    assert hex_game.state_from_json(s.to_json()) == s


def test_a_hex_board_refuses_square_settings(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(RULESET).replace("radius: 1}", "radius: 1, adjacency: all}"))
    with pytest.raises(engine.RulesetError, match="unknown setting 'adjacency' in a hex board"):
        engine.load(str(path))


def test_a_hex_board_of_a_width_and_height_is_a_rhombus(tmp_path: Path) -> None:
    """``board: {kind: hex, width: 3, height: 2}``: hexes q = 0..2, r = 0..2 (Hex's board), each with its six
    neighbours on the board; placed anywhere with ``touching: false``, drawn row under row, each half a hex further."""
    from cli import board_drawing
    from cli.web.svg import board_svg

    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(RULESET).replace("radius: 1}", "width: 3, height: 2}")
                    .replace("(1, 0))", "(0, 0))").replace("{from: supply}", "{from: supply, touching: false}"))
    game = engine.load(str(path))
    assert game.grid.cells == ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1))
    assert sorted(game.grid.neighbours((1, 0))) == [(0, 0), (0, 1), (1, 1), (2, 0)]
    s = game.new_state(players=2)
    assert {a.args[-1] for a in s.legal_actions()} == set(game.grid.cells) - {(0, 0)}
    with pytest.raises(IllegalActionError, match="not on the board"):
        s.apply("place b at -1,1")
    s.apply("place b at 2,1")
    rows = [t.plain for t in board_drawing.hex_board(s).renderables][1:]  # after the key
    assert rows == ["  a    1,0   2,0", "    0,1   1,1    b"]  # the second row half a hex (3) further right; no row ends in spaces
    assert board_svg(s).count('class="hexagon"') == 6


@pytest.mark.parametrize("board, message", [
    ("width: 3}", "a hex board is a hexagon of a 'radius', or a rhombus of a 'width' and a 'height'"),
    ("width: 3, height: 3, radius: 2}", "a hex board is a hexagon of a 'radius', or a rhombus of a 'width' and a 'height'"),
    ("width: 200, height: 200}", "a hex board has at most 10000 hexes, not 40000"),
])
def test_a_rhombus_needs_both_sides_and_no_radius(tmp_path: Path, board: str, message: str) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(RULESET).replace("radius: 1}", board))
    with pytest.raises(engine.RulesetError, match=message):
        engine.load(str(path))
