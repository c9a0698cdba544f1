"""Keyed counters: one value per owner and key (``key:``), read and changed as ``gems(r, Red)`` or ``height(7)``.

A track per player per resource (gems of each colour), a marker per player per column: before ``key:``, a ruleset
kept one component per step of every column and player.  The keys come from a declared list — a type's values,
a kind's components, whole numbers ``FROM..TO`` — so observations keep a fixed size.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.model.savefile import SaveError, counter_values
from engine.rl.encoding import Encoder

RULESET = """\
name: keyed-demo
players: [2]
types:
  side: [A, B]
  colour: [Red, Blue, Green]
roles: {of: side, seating: {2: [1, 2]}}
components:
  column:
    attributes: {top: int}
    instances:
      - {id: low, top: 2}
      - {id: high, top: 4}
counters:
  gems: {per: role, key: colour, min: 0, max: 5, doc: the gems of each colour}
  marker: {per: role, key: column, max: key.top}
  height: {key: 2..4, start: key}
setup: |
  SETUP
turn:
  - do:
      effect: |
        let c = choose(x in colours, text = "take a gem")
        gems(current_role, c) += 1
        marker(current_role, first(x in columns where x.top == 4)) += 3
        height(3) -= 1
end:
  when: END
scoring:
  rank: r in roles
  by: ['sum(gems(r, c) for c in colours)']
  points: key
"""


def build(tmp_path: Path, setup: str = "pass", end: str = "turn >= 3", text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("SETUP", setup.replace("\n", "\n  ")).replace("END", end))
    return engine.load(path)


def played(game: engine.Game, *answers: str) -> engine.State:
    s = game.new_state(players=2, seed=1, record=True)
    for answer in answers:
        s.apply(answer)
    return s


def test_values_are_kept_per_owner_and_key_and_start_from_the_key(tmp_path: Path) -> None:
    s = played(build(tmp_path), "choose Red", "choose Blue", "choose Red")
    assert s.observation(2)["counters"] == {
        "gems": {"A": {"Red": 2, "Blue": 0, "Green": 0}, "B": {"Red": 0, "Blue": 1, "Green": 0}},
        "marker": {"A": {"low": 0, "high": 4}, "B": {"low": 0, "high": 3}},  # max: key.top keeps A's at 4
        "height": {"2": 2, "3": 0, "4": 4}}


def test_changes_are_logged_with_their_key(tmp_path: Path) -> None:
    log = played(build(tmp_path), "choose Green").log or []
    assert "gems of A (Green): 0 -> 1" in log and "height (3): 3 -> 2" in log and "marker of A (high): 0 -> 3" in log


def test_code_reads_compares_and_iterates_the_keys(tmp_path: Path) -> None:
    game = build(tmp_path, setup="gems(A, Blue) = 4\nfor c in colours:\n  gems(B, c) += 1", end="gems(A, Blue) > gems(B, Blue)")
    s = game.new_state(players=2, seed=1)
    assert s.is_terminal is False and s.counters[:6] == [0, 4, 0, 1, 1, 1]
    s.apply("choose Red")
    assert s.is_terminal


def test_saves_keep_them_and_refuse_a_value_out_of_bounds(tmp_path: Path) -> None:
    game = build(tmp_path)
    s = played(game, "choose Red")
    data = s.to_json()
    assert game.state_from_json(data) == s
    data["counters"][0] = 9  # gems of A (Red): max 5
    with pytest.raises(SaveError, match=r"counter gems\(A, Red\)"):
        game.state_from_json(data)


@pytest.mark.parametrize("code, message", [
    ("gems(A) += 1", "gems() takes 2 arguments, not 1"),
    ("gems(A, 3) += 1", "the key of gems() must be a colour"),
    ("height(Red) += 1", "the key of height() must be an int"),
    ("height = 1", "'height' is kept per key: write height(KEY) = ..."),
    ("gems = 1", "'gems' is kept per role and key: write gems(ROLE, KEY) = ..."),
])
def test_misuse_is_a_positioned_error(tmp_path: Path, code: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, setup=code)
    assert message in str(err.value) and "ruleset.yaml:" in str(err.value)


def test_a_number_beyond_the_keys_stops_the_game_saying_the_keys(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"height has no key 7: its keys are 2\.\.4"):
        build(tmp_path, setup="height(7) += 1")


@pytest.mark.parametrize("key, message", [
    ("colours", "a counter's key is a type, a component kind, numbers FROM..TO (like 2..12) or cell (the board's "
                "cells), not 'colours' (did you mean 'colour'?)"),
    ("5..1", "the keys 5..1 must run up, at most 1000 numbers (like 2..12)"),
    ("1..5000", "the keys 1..5000 must run up"),
])
def test_keys_must_be_a_declared_list(tmp_path: Path, key: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, text=RULESET.replace("key: colour,", f"key: {key},"))
    assert message in str(err.value)


def test_the_rl_vector_holds_every_value_at_a_fixed_place(tmp_path: Path) -> None:
    game = build(tmp_path)
    encoder, s = Encoder(game, 2), played(game, "choose Blue")
    assert "counters: gems of A Red, gems of A Blue" in "\n".join(encoder.describe())
    at = next(seg.offset for seg in encoder.segments if seg.name == "counters")
    assert list(encoder.encode(s.observation(1))[at:at + 13]) == [0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 2, 2, 4]
    assert len(encoder.encode(s.observation(2))) == len(encoder)


def test_a_scenario_position_writes_owner_and_key(tmp_path: Path) -> None:
    from engine.runner.scenario import run_scenario

    build(tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nruleset: ruleset.yaml\nplayers: 2\nposition:\n  counters:\n    gems(A, Blue): 4\n"
                        "    height(2): 0\nactions: [choose Blue]\nexpect:\n  - gems(A, Blue) == 5 and height(2) == 0\n")
    assert run_scenario(scenario).passed
    scenario.write_text(scenario.read_text().replace("gems(A, Blue): 4", "gems(A, Purple): 4"))
    result = run_scenario(scenario)
    assert not result.passed and "write the counter as gems(ROLE, KEY), like gems(A, Red): 'gems' is kept per role " \
        "and key (colour (Red, Blue, Green)), and gems(A, Purple) names none of its values" in "\n".join(result.failures)


def test_play_and_explain_show_them(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli import zone_listing
    from cli.main import main

    s = played(build(tmp_path), "choose Blue")
    assert [line.plain for line in zone_listing.counters(s, seat=1)] == [
        "gems of A: Blue=1", "gems of B: none", "marker of A: high=3", "marker of B: none",
        "        2  3  4", "height  2  2  4"]  # keyed by numbers: a grid, the keys across
    out = CliRunner().invoke(main, ["explain", str(tmp_path / "ruleset.yaml")]).output
    assert "gems: one per role and colour — the gems of each colour" in out and "height: one for each of 2..4" in out


def test_a_key_lying_hidden_is_told_as_an_owner_lying_there_would_be(tmp_path: Path) -> None:
    """A counter keyed by a kind of cards, changed for the card left in a player's hidden hand: the log, which every
    seat reads, said 'seen of seat1 (Guard-3): 0 -> 1', and the other seat's observation held the value under
    Guard-3's name, telling it the card in that hand (a counter per card was told as 'a component in hand of ...')."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "glance" / "ruleset.yaml").read_text()
    played = "        move(x in hand(me) where x == card, discard, 1)\n"
    assert played in text
    text = text.replace("counters:\n", "counters:\n  seen: {per: role, key: card}\n", 1)
    (tmp_path / "ruleset.yaml").write_text(text.replace(played, played + "        seen(me, first(hand(me))) += 1\n"))
    s = engine.load(tmp_path).new_state(players=2, seed=3, record=True)
    s.apply(s.legal_actions()[0])
    held = s.game.component_names[s.zones[s.game.zone_index[("hand", "seat1")]][0]]
    assert "seen of seat1 (a component in hand of seat1) changes" in s.log
    assert not any(held in line for line in s.log if line.startswith("seen"))
    assert s.is_terminal  # the game over, its observations hide nothing: the counters as they were while it went on
    assert all(held not in keyed for keyed in counter_values(s, 2)["seen"].values())
    assert counter_values(s, 1)["seen"]["seat1"][held] == 1  # its holder sees it


MARKS = """\
name: marks-demo
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  stone: {instances: [{id: stone, count: 9}]}
board: {kind: square-grid, width: 3, height: 3, cell_names: algebraic}
counters:
  claim: {key: cell, min: 0, doc: whose each square is}
  seen: {per: role, key: cell, max: 1, start: "if key.x == 0 then 1 else 0"}
turn:
  - do:
      effect: |
        let c = choose(x in all_cells where claim(x) == 0, text = "claim a square ({count(x in all_cells where claim(x) == 0)} left)")
        claim(c) = seat(current_role)
        seen(current_role, c) = 1
end:
  when: all(claim(c) > 0 for c in all_cells)
scoring:
  rank: r in roles
  by: ['count(c in all_cells where claim(c) == seat(r))']
  points: key
"""


def test_a_counter_keyed_by_cell_marks_squares_without_pieces(tmp_path: Path) -> None:
    """``key: cell``: a number for every cell of the board (territory, a visited square, fog), read and written with
    a cell as the key; before it a mark was a piece (filling the square) or a counter keyed by x * width + y."""
    game = build(tmp_path, text=MARKS)
    s = played(game, "choose b1", "choose c3")
    assert s.pending.prompt == "claim a square (7 left)"
    assert "claim (b1): 0 -> 1" in s.log and "seen of B (c3): 0 -> 1" in s.log
    values = counter_values(s)
    assert values["claim"]["b1"] == 1 and values["claim"]["c3"] == 2 and sum(values["claim"].values()) == 3
    assert values["seen"]["A"] == {"a1": 1, "b1": 1, "c1": 0, "a2": 1, "b2": 0, "c2": 0, "a3": 1, "b3": 0, "c3": 0}
    assert [c for c in s.legal_actions().texts()] == [f"choose {c}" for c in ("a1", "c1", "a2", "b2", "c2", "a3", "b3")]
    out = __import__("click.testing", fromlist=["CliRunner"]).CliRunner().invoke(
        __import__("cli.main", fromlist=["main"]).main, ["explain", str(tmp_path / "ruleset.yaml")]).output
    assert "claim: one for each cell — whose each square is" in out and "seen: one per role and cell" in out


def test_a_scenario_writes_a_cell_key_as_the_board_names_it(tmp_path: Path) -> None:
    from engine.runner.scenario import run_scenario

    build(tmp_path, text=MARKS)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nruleset: ruleset.yaml\nplayers: 2\nposition:\n  counters:\n    claim(a1): 2\n"
                        "    seen(B, c2): 1\nactions: [choose b1]\nexpect:\n  - claim((0, 0)) == 2 and claim((1, 0)) == 1\n"
                        "  - seen(B, (2, 1)) == 1\n")
    assert run_scenario(scenario).passed, run_scenario(scenario).failures
    scenario.write_text(scenario.read_text().replace("claim(a1): 2", "claim(d9): 2"))
    result = run_scenario(scenario)
    assert not result.passed and "write the counter as claim(KEY), like claim(a1): 'claim' is kept per key (the 9 " \
        "cells of the board), and claim(d9) names none of its values" in "\n".join(result.failures)


def test_a_cell_off_the_board_stops_the_game_naming_it(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"claim has no key \(5, 5\): its keys are the 9 cells of the board"):
        build(tmp_path, setup="claim((5, 5)) = 1", text=MARKS.replace("turn:", "setup: |\n  SETUP\nturn:"))


@pytest.mark.parametrize("board, what", [
    ("board: {kind: square-grid}", "a growing board, whose cells are not known before play"),
    ("", "no board"),
])
def test_keying_by_cell_needs_a_board_with_edges(tmp_path: Path, board: str, what: str) -> None:
    text = MARKS.replace("board: {kind: square-grid, width: 3, height: 3, cell_names: algebraic}", board)
    with pytest.raises(RulesetError) as err:
        build(tmp_path, text=text)
    assert f"ruleset.yaml:10:16: a counter keyed by cell keeps a value for each cell of a board with edges (a square " \
           f"grid's width and height, a hex board or a board of points), and this ruleset has {what}" in str(err.value)
    assert "unknown function 'claim'" not in str(err.value)  # read on as keyed by cell: its uses are no more errors
