"""A piece lying face down on the board (``face_down: true``) reaches no seat that may not see it: not its observation,
the reinforcement-learning vector, the log, ``play``'s board, the web page, nor a bot's sample.

HIDDEN_RANKS is a duel in the manner of Stratego: each side's pieces are turned down for their own side
(``seen_by``), so North sees its ranks and South sees only "face-down piece of North".
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

import engine
from budget_cli import write_ruleset
from cli import render, zone_listing
from cli.web.view import public_observation, table_html
from engine.core.errors import RulesetError
from engine.core.information import determinize, has_hidden_information
from engine.model.savefile import SaveError
from engine.rl.encoding import Encoder

HIDDEN_RANKS = """\
name: hidden-ranks
players: [2]
types:
  side: [North, South]
roles:
  of: side
  seating:
    2: [1, 2]
components:
  piece:
    attributes: {side: side, rank: int}
    instances:
      - {id: Marshal, side: North, rank: 9}
      - {id: Scout, side: North, rank: 2}
      - {id: Sapper, side: South, rank: 3}
      - {id: Spy, side: South, rank: 1}
counters:
  wounds: {per: piece, start: 0}
board: {kind: square-grid, width: 3, height: 4}
face_down: true
zones:
  taken: {kind: pile}
setup: |
  place(p in supply where p.id == "Marshal", (0, 0))
  place(p in supply where p.id == "Scout", (2, 0))
  place(p in supply where p.id == "Sapper", (0, 3))
  place(p in supply where p.id == "Spy", (2, 3))
  for r in roles:
    turn_down(p in board where p.side == r, seen_by = r)
  wounds(first(p in board where p.id == "Marshal")) += 1
turn:
  - move:
      side: side
      forward: {North: up, South: down}
      steps:
        - {by: [0, 1], onto: empty-or-rival}
      capture_to: taken
end:
  when: count(taken) > 0
scoring:
  rank: r in roles
  by: [count(p in taken where p.side != r)]
  points: [1, 0]
"""
NORTH = ("Marshal", "Scout")
"""North's pieces: seat 2 (South) may not learn which lies where."""


def _game(tmp_path: Path, text: str = HIDDEN_RANKS) -> engine.Game:
    return engine.load(str(write_ruleset(tmp_path, text)))


def _north_swapped(state: engine.State) -> engine.State:
    """The same position with North's two face-down pieces exchanged: South cannot tell it from ``state``."""
    other = state.clone()
    names = other.game.piece_names
    other.swap(names.index("Marshal"), names.index("Scout"))
    return other


def test_a_face_down_piece_is_only_its_back_in_the_observation_of_a_seat_that_may_not_see_it(tmp_path: Path) -> None:
    state = _game(tmp_path).new_state(players=2, seed=0)
    south, north = state.observation(2), state.observation(1)
    assert south["board"]["0,0"] == ["face-down piece of North", None]
    assert north["board"]["0,0"][0] == "Marshal"  # North sees its own pieces
    assert south["board"]["0,3"][0] == "Sapper" and north["board"]["0,3"][0] == "face-down piece of South"
    assert south["face_down"] == north["face_down"] == ["0,0", "0,3", "2,0", "2,3"]
    text = json.dumps(south)  # the board zone's list and the counters too
    assert not any(name in text for name in NORTH), text
    assert _north_swapped(state).observation(2) == south
    assert _north_swapped(state).observation(1) != north


def test_the_reinforcement_learning_vector_does_not_tell_face_down_pieces_apart(tmp_path: Path) -> None:
    game = _game(tmp_path)
    state = game.new_state(players=2, seed=0)
    encoder = Encoder(game, 2)
    other = _north_swapped(state)
    assert (encoder.encode(state.observation(2)) == encoder.encode(other.observation(2))).all()
    assert (encoder.encode(state.observation(1)) != encoder.encode(other.observation(1))).any()
    assert any("face down" in line for line in encoder.describe())


def test_the_terminal_and_the_page_draw_a_face_down_piece_as_its_back(tmp_path: Path) -> None:
    state = _game(tmp_path).new_state(players=2, seed=0)
    for seat in (2, None):  # South, and the web page's view of what every seat sees
        page = re.sub(r"<[^>]+>", " ", table_html(state, seat))
        assert not any(name in page for name in NORTH), (seat, page)
    assert "Marshal" in table_html(state, 1)  # North's own page shows its pieces
    assert not any(name in json.dumps(public_observation(state)) for name in NORTH + ("Sapper", "Spy"))
    console = Console(width=100, record=True)
    for part in render.position(state, 2):
        console.print(part)
    drawn = console.export_text()
    assert "?" in drawn and not any(name in drawn for name in NORTH), drawn
    assert not any(line.plain.startswith("wounds") for line in zone_listing.zones(state, 2))
    console = Console(width=100, record=True)
    for part in render.position(state, 1):  # North's own face-down pieces are marked as such
        console.print(part)
    assert "* face down to the others" in " ".join(console.export_text().split())  # the key may wrap
    assert "Marshal (face down to the others), wounds 1 at 0,0" in table_html(state, 1)
    console = Console(width=100, record=True)
    for part in render.position(state, None):  # every piece shown (a finished game, a table of bots)
        console.print(part)
    assert "Marshal" in console.export_text()


def test_the_log_and_the_actions_never_name_a_face_down_piece(tmp_path: Path) -> None:
    state = _game(tmp_path).new_state(players=2, seed=0, record=True)
    assert "move 0,0 to 0,1" in [str(a) for a in state.legal_actions()]
    state.apply("move 0,0 to 0,1")
    assert state.log[-1] == "North moves face-down piece of North from (0,0) to (0,1)", state.log
    state.apply("move 0,3 to 0,2")
    state.apply("move 0,1 to 0,2")  # the Marshal takes the Sapper: taken off the board, it is turned up
    assert "North moves face-down piece of North from (0,1) to (0,2), taking Sapper" in state.log, state.log
    assert state.log[0] == "wounds of face-down piece of North changes", state.log  # its counters reach no other seat
    assert not any(name in line for line in state.log or [] for name in NORTH), state.log


def test_search_bots_deal_the_face_down_pieces_they_may_not_see_again(tmp_path: Path) -> None:
    game = _game(tmp_path)
    assert has_hidden_information(game)
    state = game.new_state(players=2, seed=0)
    marshal = game.piece_names.index("Marshal")
    cells = set()
    for seed in range(20):
        sample = determinize(state, 2, random.Random(seed))
        assert sample.observation(2) == state.observation(2)
        cells.add(sample.cell_of[marshal])
        assert determinize(state, 1, random.Random(seed)).cell_of[marshal] == (0, 0)  # North knows where it is
    assert cells == {(0, 0), (2, 0)}, cells


def test_a_choice_among_face_down_pieces_offers_in_a_sample_the_piece_the_sample_put_on_each_cell() -> None:
    """A choice waiting for an answer held the real pieces as its options: a bot answering "the tile at 1,2" in its
    sample turned up the real tile, wherever the sample had put it, and so played on what it could not see."""
    game = engine.load(str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "memory"))
    state = game.new_state(players=2, seed=3)
    assert state.pending is not None and state.pending.components
    moved = 0
    for seed in range(5):
        sample = determinize(state, 1, random.Random(seed))
        for option, label in zip(sample.pending.options, sample.pending.labels):
            x, y = map(int, label.rsplit(" at ", 1)[1].split(","))
            assert sample.cell_of[option] == (x, y), (label, sample.cell_of[option])
        moved += sample.pending.options != state.pending.options
    assert moved, "no sample dealt the tiles again: the test proves nothing"


def test_a_save_whose_face_down_pieces_do_not_fit_is_refused(tmp_path: Path) -> None:
    game = _game(tmp_path)
    data = game.new_state(players=2, seed=0).to_json()
    data["scratch"]["face down"] = [[game.piece_names.index("Marshal"), "Nobody"]]
    data.pop("checksum", None)
    with pytest.raises(SaveError, match="face-down pieces do not fit"):
        game.state_from_json(data)


@pytest.mark.parametrize("change, words", [
    (("board: {kind: square-grid, width: 3, height: 4}", "board: {kind: square-grid, width: 3, height: 4, stacking: true}"),
     "not possible on a board with stacking"),
    (("face_down: true\n", "face_down: true\nclash_tables:\n  beats: {of: side, missing: nothing, outcomes: {}}\n"),
     "not possible with the clash block"),
    (("  of: side\n", "  of: side\n  shuffle: true\n  hidden: true\n"), "not possible with hidden roles"),
])
def test_face_down_is_refused_where_other_blocks_would_tell_the_pieces(tmp_path: Path, change: tuple[str, str],
                                                                       words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        _game(tmp_path, HIDDEN_RANKS.replace(*change))


def test_play_with_watch_shows_no_tile_before_it_is_turned_up() -> None:
    """``rulecraft play --watch`` drew every tile of Memory on the board, face-down ones too."""
    from click.testing import CliRunner

    from cli.main import main

    memory = Path(__file__).resolve().parents[2] / "docs" / "examples" / "memory"
    ended = CliRunner().invoke(main, ["play", str(memory), "--seed", "3", "--watch"], input="quit\n")
    assert ended.exception is None or isinstance(ended.exception, SystemExit), ended.output
    before_the_end = ended.output.split("the final position")[0]
    assert "choose face-down tile at 0,0" in before_the_end and "?" in before_the_end, ended.output
    pictures = engine.load(str(memory)).types["picture"]
    assert not any(p in before_the_end for p in pictures), before_the_end


def test_the_learning_environment_offers_a_choice_of_a_face_down_piece() -> None:
    """The action table listed a piece on the board only by name and cell: Memory's first decision, "choose
    face-down tile at 0,0", was "missing from the action table" and the environment stopped."""
    from engine.rl import env

    e = env(str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "memory"), players=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"]))
    assert e.unwrapped.game_state.is_terminal


def test_explain_says_the_board_s_pieces_may_lie_face_down() -> None:
    from click.testing import CliRunner

    from cli.main import main

    memory = Path(__file__).resolve().parents[2] / "docs" / "examples" / "memory"
    explained = CliRunner().invoke(main, ["explain", str(memory)])
    assert explained.exit_code == 0, explained.output
    assert "its pieces may lie face down (turn_down, turn_up)" in explained.output
    assert "turn face down every t in board" in explained.output


CUPS = """\
name: cups
players: [2]
types:
  side: [A, B]
roles:
  of: side
  seating:
    2: [1, 2]
components:
  die:
    faces: [one, two, three, four, five, six]
    instances:
      - {id: die, count: 2}
board: {kind: square-grid, width: 2, height: 1}
face_down: true
setup: |
  for c in empty_cells:
    place(d in supply where d == first(supply), c)
  for r in roles:
    turn_down(d in board where (d.cell.x == 0) == (r == A), seen_by = r)
turn:
  - do:
      effect: |
        let n = choose(x in [1, 2], text = "toss or not")
        if n == 1:
          toss(d in board where (d.cell.x == 0) == (current_role == A))
end:
  when: turn > 6
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_face_down_die_tossed_is_logged_by_its_back_without_its_face(tmp_path: Path) -> None:
    """A die under a cup (turned down for its owner) tossed again was logged 'die at (0,0) tossed, now five', a line
    every seat reads; it is 'face-down die of A at (0,0) tossed'."""
    state = _game(tmp_path, CUPS).new_state(players=2, seed=0, record=True)
    state.apply("choose 1")
    assert state.log[-1] == "face-down die of A at (0,0) tossed", state.log
    assert not any(face in line for line in state.log for face in ("one", "two", "three", "four", "five", "six")), state.log
    assert state.observation(2)["board"]["0,0"][0] == "face-down die of A"


SECRET_SETUP = """\
name: secret-setup
players: [2]
types:
  side: [North, South]
roles:
  of: side
  seating:
    2: [1, 2]
components:
  piece:
    attributes: {side: side, rank: int}
    instances:
      - {id: Marshal, side: North, rank: 9}
      - {id: Scout, side: North, rank: 2}
      - {id: Sapper, side: South, rank: 3}
      - {id: Spy, side: South, rank: 1}
board: {kind: square-grid, width: 2, height: 2}
face_down: true
zones:
  hand: {kind: hand, per: role, hidden: others}
setup: |
  for r in roles:
    move(p in supply where p.side == r, hand(r))
turn:
  - do:
      effect: |
        let p = choose(x in hand(current_role), text = "a piece to set up")
        let c = choose(n in empty_cells where (n.y == 0) == (current_role == North), text = "where")
        place_down(x in hand(current_role) where x == p, c, seen_by = current_role)
end:
  when: count(board) == 4
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


@pytest.mark.parametrize("seed", range(4))
def test_pieces_set_up_in_secret_from_a_hidden_hand_are_never_shown_to_the_rival(tmp_path: Path, seed: int) -> None:
    """place_down puts a piece from a hidden hand face down at once: a place then a turn_down logged its name."""
    game = engine.load(write_ruleset(tmp_path, SECRET_SETUP))
    s = game.new_state(players=2, seed=seed, record=True)
    rng, public = random.Random(seed), []
    rivals = {"Marshal": 2, "Scout": 2, "Sapper": 1, "Spy": 1}
    while not s.is_terminal:
        for name in (s.game.piece_names[c] for c in s.grid.values()):  # while the game goes on
            assert name not in json.dumps(s.observation(rivals[name])["board"])  # the rival sees the back
            assert name in json.dumps(s.observation(3 - rivals[name])["board"])  # its own side sees it
        action = rng.choice(list(s.legal_actions()))
        public.append(s.public_text(action))
        s.apply(action)
    assert "face-down piece of North is put at" in " ".join(s.log)
    for name in rivals:
        assert name not in " ".join(s.log) and name not in " ".join(public)


def test_place_down_needs_face_down_and_says_so(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: unknown function 'place_down' \(place_down\(\) comes with the "
                                           r"face_down block"):
        engine.load(write_ruleset(tmp_path, SECRET_SETUP.replace("face_down: true\n", "")))
