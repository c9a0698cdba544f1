"""What the browser table draws, read from its SVG without a browser: stacks of several players' pieces, maps of
named points one apart, tiles whose edges the ruleset declares."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from engine.model.state import State

pytest.importorskip("starlette", reason="the web extra is not installed")

from cli.web.svg import board_svg, value_colours  # noqa: E402
from cli.web.view import table_html  # noqa: E402

DATA = Path(__file__).parent / "data"


def majority(placements: list[str], players: int = 3) -> State:
    """A game of the majority map after ``placements``, each ``COLOUR AREA`` (a cube of that colour into that area,
    whoever's turn it is: the map's areas are one apart, Northmarch at 0,0)."""
    state = engine.load(str(DATA / "majority-map")).new_state(players=players, seed=1)
    for text in placements:
        colour, area = text.split()
        cube = next(c for c in state.zones[state.game.zone_names.index(f"stock of {colour}")])
        state.place(cube, state.game.grid.names[area])
    return state


def cell_drawn(svg: str, cell: str) -> str:
    found = re.search(rf'<g class="cell" data-cell="{cell}">(.*?)</g>(?=<g class="cell"|</svg>)', svg)
    assert found is not None, f"no piece drawn at {cell}"
    return found[1]


def test_a_cell_holding_several_players_pieces_shows_each_players_count() -> None:
    """An area holding three Red cubes and two Blue ones was drawn as its top cube with '+4': whose the four were,
    nobody could read. Each player's pieces are now a disc of their colour saying how many, the top one's first."""
    state = majority(["Red Northmarch"] * 3 + ["Blue Northmarch"] * 2 + ["Green Eastwatch"])
    colours = value_colours(state.game)
    drawn = cell_drawn(board_svg(state), "0,0")
    discs = re.findall(r'<circle class="kind"[^>]*fill="([^"]+)"[^>]*/><text[^>]*>(\d+)</text>', drawn)
    assert discs == [(colours["Blue"], "2"), (colours["Red"], "3")]
    assert "above Blue, Red ×3" in drawn  # its title: the pieces from the top down, a run counted
    assert 'class="kind"' not in cell_drawn(board_svg(state), "1,0")  # a piece alone is drawn as before


def test_a_stack_of_one_kind_says_how_many_pieces_lie_there() -> None:
    """'+4' on a stack of five counted the pieces beneath, not how many stood there: the badge says ×5."""
    state = majority(["Red Southfields"] * 5)
    drawn = cell_drawn(board_svg(state), "0,1")
    assert re.search(r'class="stack"[^>]*>×5</text>', drawn) and 'class="kind"' not in drawn


def test_the_legend_names_the_colours_of_pieces_beneath_a_stacks_top() -> None:
    """The legend named only the top pieces' colours: Blue, every cube of it under a Red one, was missing from it."""
    state = majority(["Blue Westmoor"] * 8 + ["Red Westmoor"])
    assert "Blue" in re.search(r'<ul class="legend">(.*?)</ul>', table_html(state, 1))[1]


def test_the_names_of_points_one_apart_are_written_whole_at_their_size() -> None:
    """On a map whose areas lie one apart their names ran into each other (written small, 'Southfiel…'): the map is
    spread out so that each is whole, at its usual size; a map with room for its names keeps its size."""
    svg = board_svg(majority([]))
    names = re.findall(r'<text [^>]*class="point-name"([^>]*)>([^<]*)</text>', svg)
    assert sorted(name for _, name in names) == ["Eastwatch", "Northmarch", "Southfields", "Westmoor"]
    assert all("font-size" not in attrs for attrs, _ in names)
    across = re.search(r'<line class="link" x1="([\d.]+)" y1="35.0" x2="([\d.]+)" y2="35.0"/>', svg)
    assert float(across[2]) - float(across[1]) == 92  # one step is 92 units, where it was 46
    frontiers = engine.load(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "frontiers"))
    assert 'viewBox="0 0 346 ' in board_svg(frontiers.new_state(players=2, seed=1))  # 24 + 46 + 6 * 46, as before
