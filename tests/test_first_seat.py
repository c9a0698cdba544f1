"""``first_seat``: a seat that only some player counts have may start the games that have it.

A ruleset played by 1 to 4 (the card game's solo included) could not make seat 2 start a 4-player game: the
seat was checked against every player count at load, so ``--set first_seat=2`` was refused outright.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from engine.core.errors import SetupError
from cli.main import main

RULESET = """
name: seats
players: [2, 3, 4]
types:
  house: [A, B, C, D]
roles:
  of: house
  seating: {2: [1, 2, absent, absent], 3: [1, 2, 3, absent], 4: [1, 2, 3, 4]}
board: {kind: hex, radius: 1}
components:
  stone:
    instances: [{id: s, count: 7}]
options:
  first_seat: {default: 1}
first_seat: first_seat
turn:
  - place: {from: supply}
end:
  when: count(c in supply) == 0
scoring:
  rank: r in roles
  by: [turn_position(r)]
  points: key
"""


def load(tmp_path: Path, first_seat: str) -> engine.Game:
    path = tmp_path / "seats.yaml"
    path.write_text(RULESET)
    return engine.load(path, set_options={"first_seat": first_seat})


def test_a_seat_only_larger_games_have_starts_them(tmp_path: Path) -> None:
    game = load(tmp_path, "3")
    assert game.new_state(players=3, seed=1).current_role == "C"
    assert game.new_state(players=4, seed=1).current_role == "C"


def test_a_game_without_that_seat_is_refused_with_the_reason(tmp_path: Path) -> None:
    game = load(tmp_path, "3")
    with pytest.raises(SetupError, match="first_seat is 3, but a 2-player game has no seat 3"):
        game.new_state(players=2, seed=1)


def test_a_seat_no_player_count_has_is_refused_at_load(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError, match="first_seat is 5, but a 4-player game has no seat 5"):
        load(tmp_path, "5")


def test_simulate_with_a_later_first_seat(tmp_path: Path) -> None:
    (tmp_path / "seats.yaml").write_text(RULESET)
    args = ["simulate", str(tmp_path / "seats.yaml"), "--players", "4", "-n", "4", "--set", "first_seat=3", "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    refused = CliRunner().invoke(main, [*args[:3], "2", *args[4:]])
    assert refused.exit_code != 0 and "2-player game has no seat 3" in refused.output
    assert "Traceback" not in refused.output


def test_an_option_whose_values_are_listed_takes_any_of_them_whatever_their_kind(tmp_path: Path) -> None:
    """A roll-off by default, or a seat: ``--set first_seat=2`` was refused ('holds text, not a whole number')."""
    path = tmp_path / "seats.yaml"
    path.write_text(RULESET.replace("first_seat: {default: 1}", "first_seat: {default: lowest-roll, values: [lowest-roll, 1, 2]}"))
    assert engine.load(path, set_options={"first_seat": "2"}).new_state(players=2, seed=1).current_role == "B"
    assert engine.load(path).first_roll == "lowest"
    with pytest.raises(engine.RulesetError, match=r"may be lowest-roll, 1, 2, not 5"):
        engine.load(path, set_options={"first_seat": "5"})


def test_the_roll_off_of_the_shipped_ruleset_can_be_set_to_a_seat() -> None:
    args = ["simulate", "iconica", "--players", "2", "-n", "2", "--set", "first_seat=2", "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert engine.load("iconica", set_options={"first_seat": "2"}).new_state(players=2, seed=1).current_player == 2
