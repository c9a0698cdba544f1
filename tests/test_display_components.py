"""``display:`` names components by their id too: a piece that holds no value of a declared type (Amazons' arrow)
gets a short text and a style on the board, in the legend and in the browser; an unknown key is refused where it
is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

import engine
from cli.board_drawing import board, square_legend
from cli.piece_labels import value_styles
from cli.web.svg import _labels, piece_look, value_colours
from engine.core.errors import RulesetError
from tests.conftest import shipped_game

WALLS = """\
name: walls
players: [2]
types: {side: [A, B]}
roles: {of: side, seating: {2: [1, 2]}}
components:
  stone:
    attributes: {side: side}
    instances: [{id: A, side: A, count: 3}, {id: B, side: B, count: 3}]
  wall:
    instances: [{id: wall, count: 2}]
board: {kind: square-grid, width: 3, height: 1}
display:
  A: {short: a}
  WALL: {short: "#", style: bold red, colour: "#804000"}
setup: |
  place(w in supply where w.id == "wall", (1, 0))
turn:
  - do:
      effect: |
        let c = choose(c in empty_cells, always_ask = true)
        place(s in supply where s.side == current_role, c)
end:
  when: count(empty_cells) == 0
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def _load(tmp_path: Path, key: str = "wall") -> engine.Game:
    path = tmp_path / "walls.yaml"
    path.write_text(WALLS.replace("WALL", key), encoding="utf-8")
    return engine.load(path)


def _text(renderable: object) -> str:
    console = Console(width=80, color_system=None)
    with console.capture() as out:
        console.print(renderable)
    return out.get()


def test_a_component_named_in_display_is_drawn_with_its_short_text(tmp_path: Path) -> None:
    game = _load(tmp_path)
    s = game.new_state(players=2, seed=1)
    s.apply("choose 0,0")
    drawn = _text(board(s))
    assert "a   #   ·" in drawn, drawn
    legend = square_legend(s, {}, value_styles(game))
    assert "# wall" in legend.plain and "a A" in legend.plain
    assert value_styles(game)["wall"] == "bold red"


def test_the_browser_draws_it_in_its_colour_with_its_short_text(tmp_path: Path) -> None:
    game = _load(tmp_path)
    s = game.new_state(players=2, seed=1)
    wall = s.grid[(1, 0)]
    fill, label, title, _ = piece_look(game, s, wall, value_colours(game), _labels(game))
    assert (fill, label, title) == ("#804000", "#", "wall")


def test_a_display_value_without_a_short_text_is_abbreviated_and_keyed(tmp_path: Path) -> None:
    """A value that display styles but gives no short text was drawn by its whole name on a square board (Amber
    filled its cell, in the terminal and in the browser) while a hex abbreviated it; it is abbreviated as on a hex
    (Am) and the key says what it stands for, as it does a short text."""
    path = tmp_path / "walls.yaml"
    path.write_text(WALLS.replace("[A, B]", "[Amber, Basalt]").replace("{id: A, side: A,", "{id: Am, side: Amber,")
                    .replace("{id: B, side: B,", "{id: Ba, side: Basalt,")
                    .replace("  A: {short: a}\n", "  Amber: {style: yellow}\n  Basalt: {short: b}\n").replace("WALL", "wall"),
                    encoding="utf-8")
    game = engine.load(path)
    s = game.new_state(players=2, seed=1)
    s.apply("choose 0,0")
    s.apply("choose 2,0")
    drawn = _text(board(s))
    assert "Am   #   b" in drawn, drawn
    assert "Am Amber" in drawn and "b Basalt" in drawn, drawn
    amber = s.grid[(0, 0)]
    assert piece_look(game, s, amber, value_colours(game), _labels(game))[1:3] == ("Am", "Am")


def test_an_unknown_display_key_is_refused_where_it_is_written(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:
        _load(tmp_path, "wal")
    assert "walls.yaml:14:3: unknown value or component 'wal': display names a value of a declared type or a " \
           "component's id (did you mean 'wall'?)" in err.value.format()


EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def test_the_terminal_draws_a_boards_sections_and_its_thin_rows_and_columns() -> None:
    """``board: {lines_every: 3}`` and ``thin: odd`` (see docs/rulesets.md) are drawn in the terminal too: Pentago's
    quadrants apart, Quoridor's grooves blank and narrow, a wall in one a bar (┃ or ━) and, on the post it covers,
    its short text; before, every groove and post was a column of '·' and 'p' like the squares."""
    pentago = shipped_game(str(EXAMPLES / "pentago")).new_state(players=2, seed=1)
    rows = [line for line in _text(board(pentago)).splitlines() if line.strip()[:1].isdigit()]
    assert [line.count("│") for line in rows] == [1] * 6, rows
    assert _text(board(pentago)).splitlines()[:9][5].strip() == ""  # a blank line between rows 2 and 3
    quoridor = shipped_game(str(EXAMPLES / "quoridor")).new_state(players=2, seed=1)
    quoridor.apply("choose 1,0")  # an upright wall: the grooves 1,0 and 1,2, the post 1,1 between
    lines = _text(board(quoridor)).splitlines()
    assert lines[0].split() == ["y\\x", *(str(x) for x in range(0, 17, 2))]  # the grooves' numbers left out
    first, post, second = lines[2], lines[3], lines[4]
    assert first.split()[:3] == ["0", "·", "┃"] and second.split()[:3] == ["2", "·", "┃"]
    assert post.split()[:2] == ["w", "p"] and first.index("┃") == post.index("w") == second.index("┃")


def test_the_terminal_lists_a_hand_as_its_components_are_declared() -> None:
    """As the page does (tests/test_web.py): Hearts' hands were printed '... TS, JS, AS, 9H, 2S, KS' once the three
    passed cards had joined their end; a hand is listed sorted, as the ruleset declares its cards."""
    from cli.zone_listing import zones
    from engine.runner.agents import RandomAgent

    game = shipped_game(str(EXAMPLES / "hearts"))
    state, agent, received = game.new_state(players=4, seed=5), RandomAgent(1), False
    for _ in range(40):
        for line in zones(state, None):
            if line.plain.startswith("hand of "):
                names = line.plain.split(": ", 1)[1].split(", ")
                assert names == sorted(names, key=game.piece_names.index), line.plain
        hands = [len(state.zones[game.zone_names.index(f"hand of {r}")]) for r in ("North", "East", "South", "West")]
        state.apply(agent.choose(state))
        received = received or any(len(state.zones[game.zone_names.index(f"hand of {r}")]) > n
                                   for r, n in zip(("North", "East", "South", "West"), hands))
    assert received


RANKS = """\
name: ranks
players: [2]
types: {side: [North, South]}
roles: {of: side, seating: {2: [1, 2]}}
board: {kind: square-grid, width: 2, height: 2}
face_down: true
components:
  piece:
    attributes: {side: side, rank: int}
    instances:
      - {id: N-marshal, side: North, rank: 10}
      - {id: N-bomb, side: North, rank: 11}
      - {id: S-marshal, side: South, rank: 10}
      - {id: S-bomb, side: South, rank: 11}
display:
  North: {colour: "#36c"}
  South: {colour: "#c33"}
  N-marshal: {short: "10"}
  N-bomb: {short: B}
setup: |
  place_down(p in supply where p.id == "N-marshal", (0, 0), seen_by = North)
  place(p in supply where p.id == "N-bomb", (1, 0))
  place_down(p in supply where p.id == "S-marshal", (0, 1), seen_by = South)
turn:
  - do:
      effect: |
        let c = choose(c in empty_cells, always_ask = true)
        place(s in supply where s.side == current_role, c)
end:
  when: count(empty_cells) == 0
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_pieces_own_short_text_wins_over_its_sides(tmp_path: Path) -> None:
    """Pieces told apart only by a number (``rank: int``) and given each a short text by id, beside a colour for
    each side, were all drawn ``Nort`` (the side's name, abbreviated among every name display gives, the ids'
    too): their owner could not tell the marshal from the bomb.  The piece's own short text is drawn, in its
    side's colour, and the key says what it stands for; a back is its side abbreviated as a side is (``So?``)."""
    path = tmp_path / "ranks.yaml"
    path.write_text(RANKS, encoding="utf-8")
    game = engine.load(path)
    s = game.new_state(players=2, seed=1)
    drawn = _text(board(s, 1))
    assert "10*" in drawn and " B " in drawn and "So?" in drawn and "Nort" not in drawn, drawn
    assert "10 N-marshal" in drawn and "B N-bomb" in drawn, drawn
    bomb = s.grid[(1, 0)]
    assert piece_look(game, s, bomb, value_colours(game), _labels(game))[:3] == ("#36c", "B", "N-bomb")
