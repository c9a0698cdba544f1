"""Roles dealt at random (``roles.shuffle``): alone or in groups dealt as one, and dealt again by determinizations."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.information import determinize, hidden_roles

RULESET = """
name: pairs
players: [2, 4]
types:
  house: [A, B, C, D]
roles:
  of: house
  hidden: true
  shuffle: {2: [[A, C], [B, D]], 4: true}
  seating: {2: [1, 2, 1, 2], 4: [1, 2, 3, 4]}
board: {kind: hex, radius: 1}
components:
  stone:
    instances: [{id: s, count: 9}]
setup: place(c in supply where position(c) == 1, (0, 0))
turn:
  - place: {from: supply}
end:
  when: count(c in supply) == 0
scoring:
  rank: r in roles
  by: [turn_position(r)]
  points: key
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    return engine.load(str(path))


def test_a_group_of_roles_is_dealt_as_one(tmp_path: Path) -> None:
    game = load(tmp_path)
    deals = {tuple(game.new_state(players=2, seed=seed).order) for seed in range(20)}
    assert deals == {("A", "B", "C", "D"), ("B", "A", "D", "C")}
    for seed in range(20):
        s = game.new_state(players=2, seed=seed)
        assert s.seat_of["A"] == s.seat_of["C"] != s.seat_of["B"] == s.seat_of["D"]


def test_roles_dealt_alone_reach_every_seat(tmp_path: Path) -> None:
    game = load(tmp_path)
    seats_of_a = {game.new_state(players=4, seed=seed).seat_of["A"] for seed in range(40)}
    assert seats_of_a == {1, 2, 3, 4}


def test_a_pair_known_by_elimination_is_not_dealt_again(tmp_path: Path) -> None:
    """Holding one of two pairs, a seat knows the other: determinizations keep the deal and the turn order."""
    game = load(tmp_path)
    s = game.new_state(players=2, seed=1)
    assert hidden_roles(s, 1) == []
    for seed in range(5):
        assert determinize(s, 1, random.Random(seed)).order == s.order


@pytest.mark.parametrize(("shuffle", "message"), [
    ("[[A, C], [B]]", "roles dealt in groups need groups of one size"),
    ("[[A, C], [B, A]]", "role 'A' is listed twice in 'shuffle'"),
    ("[[A, C], [B, E]]", "unknown role 'E'"),
])
def test_a_bad_deal_is_reported_at_its_line(tmp_path: Path, shuffle: str, message: str) -> None:
    with pytest.raises(engine.RulesetError, match=message) as info:
        load(tmp_path, RULESET.replace("shuffle: {2: [[A, C], [B, D]], 4: true}", f"shuffle: {shuffle}"))
    assert "ruleset.yaml:9:" in str(info.value)  # the shuffle line


def test_iconoclasm_deals_open_deities_and_keeps_the_two_player_pairs() -> None:
    game = engine.load("iconoclasm")
    absent = {next(r for r in game.roles.values[:4] if not game.new_state(players=3, seed=seed).seat_of[r]) for seed in range(30)}
    assert absent == {"Fire", "Earth", "Water", "Air"}
    assert {game.new_state(players=5, seed=seed).seat_of["Spirit"] for seed in range(40)} == {1, 2, 3, 4, 5}
    for seed in range(10):
        s = game.new_state(players=2, seed=seed)
        assert s.seat_of["Fire"] == s.seat_of["Water"] and s.seat_of["Earth"] == s.seat_of["Air"]
    teams = engine.load("iconoclasm", "teams").new_state(players=4, seed=1)
    assert teams.seat_of["Fire"] % 2 == teams.seat_of["Water"] % 2


TEAMS = """
name: duo
players: [2, 4]
types:
  house: [A, B, C, D]
roles:
  of: house
  seating: {2: [1, absent, 2, absent], 4: [1, 3, 2, 4]}
teams: {4: [[1, 3], [2, 4]]}
first_seat: lowest-roll
board: {kind: hex, radius: 2}
components:
  stone:
    instances: [{id: s, count: 19}]
setup: place(c in supply where position(c) == 1, (0, 0))
turn:
  - team_order: {}
  - place: {from: supply}
end:
  when: count(c in supply) == 0
scoring:
  rank: r in roles
  by: [turn_position(r)]
  points: key
"""


def test_a_roll_off_decides_who_starts_and_is_logged(tmp_path: Path) -> None:
    game = load(tmp_path, TEAMS)
    starts = set()
    for seed in range(12):
        s = game.new_state(players=2, seed=seed, record=True)
        assert s.log is not None and s.log[0].startswith("roll-off (lowest starts): seat 1 rolls ")
        winner = int(s.log[0].rsplit("seat ", 1)[1].split()[0])
        assert s.seat_of[s.order[0]] == winner
        starts.add(winner)
        assert game.new_state(players=2, seed=seed).order == s.order  # the seed decides
    assert starts == {1, 2}
    high = load(tmp_path, TEAMS.replace("lowest-roll", "highest-roll")).new_state(players=2, seed=2, record=True)
    assert high.log is not None and "highest starts" in high.log[0]


def test_with_teams_the_roll_off_winner_s_team_starts_the_winner_first(tmp_path: Path) -> None:
    game = load(tmp_path, TEAMS)
    for seed in range(12):
        s = game.new_state(players=4, seed=seed, record=True)
        winner = int(s.log[0].rsplit("seat ", 1)[1].split()[0])
        teams = [game.teams[4][0] if s.seat_of[r] in game.teams[4][0] else game.teams[4][1] for r in s.order]
        assert s.seat_of[s.order[0]] == winner
        assert teams[0] == teams[1] != teams[2] == teams[3]  # each team's roles follow each other


def test_the_team_chooses_who_acts_first_at_the_start_of_its_turn(tmp_path: Path) -> None:
    game = load(tmp_path, TEAMS.replace("first_seat: lowest-roll", "first_seat: 1"))
    s = game.new_state(players=4, seed=0)
    assert s.order == ("A", "B", "C", "D")
    assert [str(a) for a in s.legal_actions()] == ["A first", "B first"]
    with pytest.raises(engine.IllegalActionError, match="choose one of: A first, B first"):
        s.apply("C first")
    s.apply("B first")
    assert s.order == ("B", "A", "C", "D") and s.current_role == "B" and s.current_player == 3
    s.apply(str(s.legal_actions()[0]))  # B places
    assert s.current_role == "A" and not any(str(a).endswith(" first") for a in s.legal_actions())
    s.apply(str(s.legal_actions()[0]))  # A places: the other team's turn begins with its choice
    assert [str(a) for a in s.legal_actions()] == ["C first", "D first"]
    two = game.new_state(players=2, seed=0)
    assert not any(str(a).endswith(" first") for a in two.legal_actions())  # no teams: nothing to choose


def test_without_roles_there_is_a_role_per_seat_of_the_largest_count(tmp_path: Path) -> None:
    """As docs/rulesets.md#teams says: two players of a game for 2-4 have four roles, the last two played by nobody."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: t\nplayers: [2, 3, 4]\ncounters:\n  taken: {per: role}\nturn:\n  - do: {effect: 'taken(current_role) += 1'}\n"
                    "end: {when: turn >= 4}\nscoring:\n  rank: r in roles where seated(r)\n  by: [taken(r)]\n  points: key\n",
                    encoding="utf-8")
    game = engine.load(path)
    s = game.new_state(players=2, seed=0)
    assert game.compile_condition("count(r in roles) == 4 and count(r in roles where seated(r)) == 2").test(s)
    assert s.is_terminal  # no decision in the game: it plays itself out, two turns each
    assert game.compile_condition("min(taken(r) for r in roles) == 0 and min(taken(r) for r in roles where seated(r)) == 2").test(s)
