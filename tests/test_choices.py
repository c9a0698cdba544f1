"""Choices inside effects: ``choose(...)`` pauses an effect for a player's answer.

The effect is all-or-nothing: while the answer is pending the state is the
state before the effect (so nothing half-done can be observed, saved or
cheated on); each answer is a legal action of the deciding seat; the finished
effect is the same as if it had run straight through with those answers.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.agents import make_agent
from engine.choices import preview
from engine.errors import IllegalActionError, RulesetError

RULESET = """\
name: choose-demo
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
      - {id: c1, value: 1}
      - {id: c2, value: 2}
      - {id: c3, value: 3}
      - {id: c4, value: 4}
      - {id: c5, value: 5}
zones:
  hand: {kind: hand, per: role, hidden: others}
  discard: {kind: pile}
counters:
  gold: {per: role}
setup: |
  SETUP
turn:
  - do:
      effect: |
        gold(current_role) += 1
        let c = choose(c in hand(current_role))
        move(c, discard)
        gold(current_role) += c.value
        let d = choose(x in [1, 2, 3], by = if current_role == A then B else A)
        gold(current_role) += d * 10
end:
  when: count(c in hand(A)) + count(c in hand(B)) == 0
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""

DEAL = "move(c in cards where c.value <= 2, hand(A))\n  move(c in cards where c.value > 2, hand(B))"


def build(tmp_path: Path, setup: str = DEAL) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", setup))
    return engine.load(path)


@pytest.fixture
def game(tmp_path: Path) -> engine.Game:
    return build(tmp_path)


def test_each_choice_is_an_action_of_the_deciding_seat(game: engine.Game) -> None:
    s = game.new_state(players=2, record=True)
    assert s.current_player == 1 and s.legal_actions().texts() == ["choose c1", "choose c2"]
    s.apply("choose c2")
    assert s.current_player == 2 and s.legal_actions().texts() == ["choose 1", "choose 2", "choose 3"]
    assert s.observation(2)["choice"]["options"] == ["1", "2", "3"] and s.observation(1)["choice"] is None
    s.apply("3")  # the bare option is understood too
    assert s.counters == [33, 0] and s.current_role == "B"
    assert s.log == ["gold of A: 0 -> 1", "A chooses c2", "hand of A: 1 component -> discard", "gold of A: 1 -> 3", "B chooses 3",
                     "gold of A: 3 -> 33"]


def test_nothing_happens_until_the_last_answer(game: engine.Game) -> None:
    s = game.new_state(players=2)
    s.apply("choose c1")
    assert s.counters == [0, 0] and s.observation(1)["zones"]["discard"] == []
    mid = preview(s)
    assert mid.counters == [2, 0] and [mid.game.piece_names[c] for c in mid.zones[mid.game.zone_index[("discard", None)]]] == ["c1"]


def test_a_wrong_answer_is_refused_and_changes_nothing(game: engine.Game) -> None:
    s = game.new_state(players=2)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="the options are: choose c1, choose c2"):
        s.apply("choose c4")
    assert s.to_json() == before


def test_a_pending_choice_saves_and_continues_the_same(game: engine.Game) -> None:
    s = game.new_state(players=2)
    s.apply("choose c2")
    loaded = game.state_from_json(s.to_json())
    assert loaded == s and loaded.current_player == 2
    s.apply("choose 1")
    loaded.apply("choose 1")
    assert loaded == s


def test_one_option_is_taken_without_asking_and_none_when_empty(game: engine.Game) -> None:
    s = game.new_state(players=2)
    for text in ["choose c1", "choose 1", "choose c3", "choose 1", "choose 1"]:
        s.apply(text)  # A's last card is c2: no question, only B's answer is asked
    assert s.counters == [2 + 10 + 3 + 10, 4 + 10] and s.current_player == 2


def test_choose_in_setup_is_a_positioned_error(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: .*choose\(\) needs a player to decide"):
        build(tmp_path, "let c = choose(c in cards)")


def test_choose_in_a_condition_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("when: count(c in hand(A))", "when: choose(x in [1, 2]) == 1 or count(c in hand(A))"))
    with pytest.raises(RulesetError, match="choose\\(\\) asks a player, which a condition or score can't do"):
        engine.load(path)


@pytest.mark.parametrize("spec", ["random", "mcts:20", "ismcts:20"])
def test_agents_play_games_with_choices_to_the_end(game: engine.Game, spec: str) -> None:
    agent = make_agent(spec, seed=3)
    s = game.new_state(players=2, seed=5, record=True)
    while not s.is_terminal:
        s.apply(agent.choose(s))
    replayed = game.new_state(players=2, seed=5)
    for text in s.history:
        replayed.apply(text)
    assert replayed == s and sum(s.counters) >= 2 * 10 + 15


def test_random_answers_match_a_straight_run(game: engine.Game) -> None:
    rng = random.Random(7)
    s = game.new_state(players=2, seed=1)
    while not s.is_terminal:
        s.apply(rng.choice(list(s.legal_actions())))
        assert s.pending is None or s.current_player == s.pending.seat
    assert all(v >= 0 for v in s.counters) and s.outcome is not None
