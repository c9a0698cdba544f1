"""The terminal shows what the browser shows: the final position, the board after every move (--watch),
legends for square boards and meters, and long action lists that a typed part of an action narrows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner, Result

from cli import board_drawing, render, zone_listing
from cli.main import main
import engine
from engine.runner.agents import RandomAgent
from engine.runner.replay import Replay
from tests.conftest import shipped_game


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    return result


def plain(renderable: object) -> str:
    console = render.make_console(width=120)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def test_a_long_action_list_is_cut_and_a_typed_part_lists_the_matching_actions() -> None:
    result = run("play", "spell-cycles", "--players", "2", "--seed", "1", input="3,4\nquit\n")
    listed = result.output.split("seat 1 (Ash)>")[0]
    assert "[60] place red-large at 3,7" in listed and "[61]" not in listed
    assert "... and 196 more: type part of an action" in listed
    after = result.output.split("seat 1 (Ash)>")[1]
    assert "4 actions contain '3,4':" in after
    lines = [line.strip() for line in after.split("4 actions contain '3,4':")[1].strip().splitlines()[:4]]
    assert lines == ["[36] place red-large at 3,4", "[100] place yellow-large at 3,4",  # in the stash's order
                     "[164] place blue-large at 3,4", "[228] place white-large at 3,4"]


def test_a_number_from_a_filtered_list_plays_that_action(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    run("play", "spell-cycles", "--players", "2", "--seed", "1", input="3,4\n100\nsave " + str(log) + "\nquit\n")
    assert json.loads(log.read_text())["actions"][0] == "place yellow-large at 3,4"  # [100], as listed


def test_text_matching_no_action_still_gets_the_reason() -> None:
    result = run("play", "spell-cycles", "--players", "2", "--seed", "1", input="zzz\nquit\n")
    assert "'zzz' is not a placement; write it like 'place blue-large at 0,0'" in result.output


def test_the_final_position_is_drawn_after_play() -> None:
    result = run("play", "tutorial-tiles", "--seed", "2", "--seat", "1=random")
    end = result.output.split("the final position")[1]
    assert "y\\x" in end and "x across, y down" in end and "game over; scores:" in end


def test_watch_draws_the_board_after_every_move() -> None:
    quiet = run("play", "tutorial-tiles", "--seed", "2", "--seat", "1=random").output
    watched = run("play", "tutorial-tiles", "--seed", "2", "--seat", "1=random", "--watch").output
    moves = watched.count("[random]:")
    assert quiet.count("y\\x") == 1  # only the final position
    assert watched.count("y\\x") == moves  # after every move but the last, then the final position


def test_watch_does_not_draw_the_board_twice_before_a_human_turn() -> None:
    """The board after the bot's move was drawn, then drawn again at once as the human's turn began."""
    played = run("play", "tic-tac-toe", "--seed", "1", "--watch", input="1\nquit\n").output
    turns = played.count(" to play ─")
    assert turns == 2 and played.count("y\\x") == turns + 1  # each turn, and after the human's move (a bot is next)


def test_watch_shows_the_zones_of_a_game_without_a_board() -> None:
    """kuhn-poker --watch showed nothing between moves: it has no board. Its zones are shown instead."""
    alone = run("play", "kuhn-poker", "--seed", "1", "--seat", "1=random", "--seat", "2=random", "--watch").output
    moves = alone.split("the final position")[0]
    assert moves.count("stake: ") == alone.count("[random]:") - 1  # after every move but the last
    assert "hand of First: Jack" in moves  # bots alone: every zone open, as in the final position
    human = run("play", "kuhn-poker", "--seed", "1", "--watch", input="1\nquit\n").output
    after = human.split("seat 1 (First)>")[1]
    assert "hand of First (yours): Jack" in after and "hand of Second: 1 hidden" in after


def test_watch_shows_the_zones_too_while_the_board_is_empty() -> None:
    """frontiers' lands are held in zones, its board of points only draws the map: --watch drew an empty map after
    every move and never who held what. While no piece is on the board its zones come too (as on a human's turn)."""
    frontiers = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "frontiers")
    watched = run("play", frontiers, "--seed", "3", "--seat", "1=random", "--seat", "2=random", "--watch").output
    drawn = watched.count("an empty point")  # the map: after every move but the last, then the final position
    assert drawn == watched.count("[random]:") and len(re.findall(r"^held of seat1: ", watched, re.M)) == drawn
    tiles = run("play", "tutorial-tiles", "--seed", "2", "--seat", "1=random", "--watch").output
    final = run("play", "tutorial-tiles", "--seed", "2", "--seat", "1=random").output
    assert tiles.count("supply") == final.count("supply")  # a piece is on the board: the board alone, as before


def test_replay_watch_shows_the_zones_of_a_game_without_a_board(tmp_path: Path) -> None:
    path, length = recorded("kuhn-poker", tmp_path)
    watched = run("replay", str(path), "--watch").output
    assert watched.split("the final position")[0].count("stake: ") == length - 1


def recorded(name: str, tmp_path: Path, players: int = 2) -> tuple[Path, int]:
    state = shipped_game(name).new_state(players=players, seed=4, record=True)
    agent = RandomAgent(4)
    while not state.is_terminal:
        state.apply(agent.choose(state))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(Replay.record(state, name, 4).to_json()))
    return path, len(state.history or [])


def test_replay_watch_and_the_final_position(tmp_path: Path) -> None:
    path, length = recorded("tutorial-tiles", tmp_path)
    plain_replay = run("replay", str(path)).output
    watched = run("replay", str(path), "--watch").output
    assert plain_replay.count("y\\x") == 1 and watched.count("y\\x") == length
    assert "the final position" in plain_replay


def test_a_replay_without_a_board_draws_every_zone_at_the_end(tmp_path: Path) -> None:
    path, _ = recorded("iconica", tmp_path)
    end = run("replay", str(path)).output.split("the final position")[1]
    assert "meters: health left/top" in end
    assert "fallen of" in end and "hidden" not in end


def test_a_square_board_has_a_legend_of_what_lies_on_it() -> None:
    state = engine.load("spell-cycles").new_state(players=2, seed=1)
    state.apply("place red-large at 3,4")
    text = plain(board_drawing.board(state))
    assert text.rstrip().splitlines()[-1] == "x across, y down; · an empty cell; 3 large, R red"
    cards = engine.load("iconoclasm-cards").new_state(players=2, seed=1)
    cards.apply(cards.legal_actions()[1])
    assert "a cell shows the face up and, dimmed, the other faces" in plain(board_drawing.board(cards))


def test_meters_have_a_legend_of_their_tiles() -> None:
    state = engine.load("iconica").new_state(players=2, seed=1)
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    legend = [line for line in lines if line.strip().startswith("meters:")]
    assert legend == ["  meters: health left/top, █ a tile left, ░ a tile lost; KIND[N]@AT a special tile at that health: "
                      "re reaction, pa parry, an antidote, co courage, ev evasion, fo focus, cl clarity"]


def test_a_meter_without_special_tiles_keys_none() -> None:
    state = engine.load(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "arena")).new_state(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    assert [line for line in lines if line.strip().startswith("meters:")] == [
        "  meters: health left/top, █ a tile left, ░ a tile lost"]


def test_no_line_of_a_board_ends_in_spaces() -> None:
    """A table pads its cells to their column's width, and a hex row its last hex: each row ended in blanks."""
    cards = engine.load("iconoclasm-cards").new_state(players=2, seed=3)
    hexes = engine.load("iconoclasm").new_state(players=2, seed=5)
    for state in (cards, hexes):
        for _ in range(3):
            state.apply(state.legal_actions()[0])
    for state in (cards, hexes):
        lines = plain(board_drawing.board(state, 1)).splitlines()
        assert len(lines) > 5 and "·" in "".join(lines)
        assert [line for line in lines if line.endswith(" ")] == []


def test_a_counter_of_a_component_listed_with_its_attributes_is_told_once() -> None:
    """Hex glyphs' lectern shows each glyph's pattern and points, and its charges beside them: a line of every
    glyph's charges told them again."""
    from cli.web.view import table_html

    state = engine.load("hex-glyphs").new_state(players=2, seed=5)
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    assert "  Ember: red red red; points 3  charges 2" in lines
    assert [line for line in lines if line.startswith("charges")] == []
    html = table_html(state, 1)
    assert html.count("charges 2") == 4 and "<small>red red red; points 3; charges 2</small>" in html  # 'points 3 charges 2'


def test_a_hidden_zone_holding_nothing_is_shown_empty() -> None:
    """An opponent's sealed choice not yet made (or a hand played out, a deck drawn to its end) is a count every seat
    sees: the zone was left out, as if the game had none, where an open one was marked empty."""
    from cli.web.view import table_html

    state = engine.load("nine-domains").new_state(players=2, seed=2)
    assert state.observation(1)["zones"]["sealed of West"] == {"hidden": 0}
    empty = next(line.plain for line in zone_listing.zones(state, 1) if line.plain.startswith("empty:"))
    assert "sealed of East (yours), sealed of West," in empty
    assert '<section class="zone empty" data-zone="sealed of West">' in table_html(state, 1)


def test_a_board_that_says_y_up_is_drawn_with_row_0_at_the_bottom() -> None:
    from cli.web.svg import board_svg

    state = engine.load("connect-four").new_state(players=2, seed=1)
    state.apply("place Red at 3,0")
    lines = plain(board_drawing.square_board(state)).splitlines()
    rows = [line.split()[0] for line in lines if line.strip()[:1].isdigit()]
    assert rows == ["5", "4", "3", "2", "1", "0"]
    assert "R" in next(line for line in lines if line.strip().startswith("0 "))
    assert lines[-1].startswith("x across, y up;")
    row_labels = re.findall(r'<text x="14.0" y="[\d.]+" class="coord"[^>]*>(\d+)</text>', board_svg(state))
    assert row_labels == ["5", "4", "3", "2", "1", "0"]  # the browser draws the rows top to bottom the same way
    piece = re.search(r'<title>Red at 3,0</title><rect x="[\d.]+" y="([\d.]+)"', board_svg(state))
    assert piece is not None and float(piece.group(1)) > 250  # Red's disc sits in the bottom row
    flat = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    assert plain(board_drawing.square_board(flat)).splitlines()[-1].startswith("x across, y down;")


def test_the_legend_names_no_piece_drawn_as_its_name_and_does_not_key_the_empty_cell() -> None:
    """Tic-tac-toe's legend read "· an empty cell: O, X", as if an empty cell were an O or an X."""
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    state.apply("place X at 1,1")
    assert plain(board_drawing.board(state)).rstrip().splitlines()[-1] == "x across, y down; · an empty cell"
    four = engine.load("connect-four").new_state(players=2, seed=1)
    four.apply(four.legal_actions()[0])
    assert plain(board_drawing.board(four)).rstrip().splitlines()[-1] == "x across, y up; · an empty cell; R Red"


def test_a_game_the_turn_limit_stopped_says_so_at_the_end(tmp_path: Path) -> None:
    """A game whose end condition never held ended 'game over; ... seat 1 wins' like any other."""
    path = tmp_path / "never.yaml"
    path.write_text("name: never\nextends: tutorial-tiles\nend: {when: 'false', stalled: false, max_turns: 12}\n")
    game = engine.load(str(path))
    state = game.new_state(players=2, seed=1)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert render.outcome(state)[-1] == "stopped by the turn limit (end: max_turns, 12): 'end: when' never held"
    finished = engine.load("tutorial-tiles").new_state(players=2, seed=1)
    while not finished.is_terminal:
        finished.apply(finished.legal_actions()[0])
    assert not any("turn limit" in line for line in render.outcome(finished))
