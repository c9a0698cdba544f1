"""Any ruleset as an OpenSpiel game (engine.rl.openspiel): OpenSpiel's own checks on every shipped ruleset, CFR on
Kuhn poker reaching the game's value, the classics' legal moves against OpenSpiel's native games, chance one draw at
a time, each seat's information state, and the refusals.

Needs OpenSpiel (``pip install '.[oracle]'``); skipped without it, except under CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import copy
import inspect
import json
import os
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core import limits
from engine.core.errors import RulecraftError

if os.environ.get("CI"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -e '.[oracle]'")

import numpy as np  # noqa: E402  # OpenSpiel needs it, as engine.rl does
from open_spiel.python import policy, rl_environment  # noqa: E402
from open_spiel.python.algorithms import cfr, evaluate_bots, expected_game_score, exploitability, ismcts, mcts  # noqa: E402

from open_spiel.python.algorithms import generate_playthrough, get_all_states, minimax  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from engine.rl.chance import TooManyOutcomes, drawn, may_draw  # noqa: E402
from engine.rl import openspiel  # noqa: E402
from engine.rl.openspiel import TooDeep, load_game  # noqa: E402
from tests.conftest import shipped_game  # noqa: E402
from tests.test_openspiel import CLASSICS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "docs" / "examples" / "pig" / "ruleset.yaml")


@pytest.mark.parametrize("ruleset", engine.builtin_names())
def test_openspiels_random_simulation_test_passes_on_every_shipped_ruleset(ruleset: str) -> None:
    """OpenSpiel's own check of a game: random games played to the end, with its states cloned, serialised and
    loaded again, observed and valued at every step."""
    pyspiel.random_sim_test(load_game(ruleset), num_sims=2, serialize=ruleset in ("kuhn-poker", "liars-dice"),
                            verbose=False)


def test_kuhn_pokers_deal_is_two_chance_nodes_as_openspiels() -> None:
    """The shuffle of three cards dealt one each: three equally likely values, then two; six deals, as OpenSpiel's."""
    state = load_game("kuhn-poker").new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    first = str(state)
    state.apply_action(2)
    assert state.is_chance_node() and [p for _, p in state.chance_outcomes()] == [0.5, 0.5]
    assert str(state) != first  # two chance nodes before the setup is done: OpenSpiel's tools tell states by text
    state.apply_action(0)
    assert state.current_player() == 0 and [state.action_to_string(a) for a in state.legal_actions()] == [
        "choose pass", "choose bet"]


def test_kuhn_pokers_information_states_are_openspiels() -> None:
    """Each seat tells apart exactly the histories OpenSpiel's Kuhn poker does (12 information states in all), and
    the uniform policy is exploitable by exactly as much: a seat's information state shows nothing hidden from it."""
    ours, theirs = load_game("kuhn-poker", utility="zero-sum-scores"), pyspiel.load_game("kuhn_poker")
    assert len(policy.TabularPolicy(ours).state_lookup) == len(policy.TabularPolicy(theirs).state_lookup) == 12
    assert exploitability.exploitability(ours, policy.UniformRandomPolicy(ours)) == pytest.approx(
        exploitability.exploitability(theirs, policy.UniformRandomPolicy(theirs)), abs=1e-12)


def test_cfr_on_kuhn_poker_reaches_the_games_value() -> None:
    """CFR+ for a second or two: the first player's value is -1/18, the policy nearly unexploitable."""
    game = load_game("kuhn-poker", utility="zero-sum-scores")
    solver = cfr.CFRPlusSolver(game)
    for _ in range(40):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    assert value[0] == pytest.approx(-1 / 18, abs=0.002) and value[1] == pytest.approx(1 / 18, abs=0.002)
    assert exploitability.exploitability(game, average) < 0.01


def test_openspiels_mcts_beats_a_random_player() -> None:
    """OpenSpiel's MCTS bot and its evaluate_bots on the adapter's tic-tac-toe: 100 simulations a move, it never
    loses to OpenSpiel's uniform random bot and mostly wins."""
    game = load_game("tic-tac-toe")
    rng = np.random.RandomState(1)
    results = [evaluate_bots.evaluate_bots(game.new_initial_state(), [
        mcts.MCTSBot(game, 2, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        pyspiel.make_uniform_random_bot(1, seed)], rng)[0] for seed in range(5)]
    assert min(results) >= 0.5 and results.count(1.0) >= 3, results


def test_a_state_resampled_from_an_information_state_deals_the_hidden_cards_again() -> None:
    """Kuhn poker, the first player to bet: a resampled state reads the same to it, and the other card is either
    of the two it does not hold; OpenSpiel's ISMCTS bot, which asks for one at every iteration, plays it out."""
    game = load_game("kuhn-poker", utility="zero-sum-scores")
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    mine = state.node.position.observation(1)["zones"]["hand of First"]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(0, sampler) for _ in range(20)]
    assert {s.information_state_string(0) for s in samples} == {state.information_state_string(0)}
    theirs = {card for s in samples for card in s.node.position.observation(2)["zones"]["hand of Second"]}
    assert len(theirs) == 2 and not theirs & set(mine)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.5, 50, random_state=rng)
    while not state.is_terminal():
        state.apply_action(bot.step(state) if state.current_player() == 0 else state.legal_actions()[0])
    assert state.returns()[0] in (-2.0, -1.0, 1.0, 2.0)


@pytest.mark.parametrize("value", ["x", None, float("nan"), float("inf"), -0.5, True])
def test_a_sampler_giving_no_number_from_0_to_1_is_refused_saying_so(value: object) -> None:
    """The sampler's value was multiplied by 2**53 and read as a whole number: a text made a string of 2**53 copies
    (a MemoryError), NaN and infinity Python's own ValueError and OverflowError."""
    state = load_game("kuhn-poker").new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    with pytest.raises(ValueError, match=f"^the sampler gives a number from 0 to 1, not {re.escape(repr(value))}$"):
        state.resample_from_infostate(0, lambda: value)
    assert state.resample_from_infostate(0, lambda: np.float32(0.25)).information_state_string(0) == \
        state.information_state_string(0)


def test_no_observer_shows_a_seats_hidden_card_as_public() -> None:
    """Kuhn poker: OpenSpiel's observer of the public part alone (or of the private part alone, or of every seat's)
    is not offered — None, as OpenSpiel's make_observation says of a kind a game does not support — where it was
    the seat's whole view, its own card in a "public" observation (generate_playthrough printed it so); the seat's
    observation and information state are as before."""
    game = load_game("kuhn-poker")
    kinds = pyspiel.IIGObservationType, pyspiel.PrivateInfoType
    for public, private in ((True, kinds[1].NONE), (False, kinds[1].SINGLE_PLAYER), (True, kinds[1].ALL_PLAYERS)):
        for recall in (False, True):
            assert make_observation(game, kinds[0](public_info=public, perfect_recall=recall, private_info=private)) is None
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    mine = state.node.position.observation(1)["zones"]["hand of First"]
    seen = make_observation(game, kinds[0](perfect_recall=False))
    assert seen is not None and f'"hand of First": {json.dumps(mine)}' in seen.string_from(state, 0)
    assert make_observation(game, kinds[0](perfect_recall=True)) is not None
    lines = generate_playthrough.playthrough_lines("rulecraft(ruleset=kuhn-poker)", seed=1)
    assert not [line for line in lines if line.startswith("PublicObservationString") and "hand of" in line]


@pytest.mark.parametrize("classic", CLASSICS[:2], ids=lambda c: c.ruleset)
def test_the_classics_legal_moves_agree_with_openspiels_native_games(classic: Any) -> None:
    """Along random games, the adapter's tic-tac-toe and connect-four offer OpenSpiel's legal moves, end when they
    end, and pay the same (1 a win, 1/2 a draw: OpenSpiel's +1, 0)."""
    ours, theirs = load_game(classic.ruleset), pyspiel.load_game(classic.openspiel)
    pick = random.Random(7)
    for _ in range(40):
        mine, oracle = ours.new_initial_state(), theirs.new_initial_state()
        while not oracle.is_terminal():
            assert not mine.is_terminal() and mine.current_player() == oracle.current_player()
            offered = {classic.ours(mine.action_to_string(a)): a for a in mine.legal_actions()}
            expected = {classic.theirs(oracle.action_to_string(a)): a for a in oracle.legal_actions()}
            assert offered.keys() == expected.keys()
            key = pick.choice(sorted(expected, key=str))
            mine.apply_action(offered[key])
            oracle.apply_action(expected[key])
        assert mine.is_terminal() and mine.returns() == [(r + 1) / 2 for r in oracle.returns()]


def test_a_move_that_rolls_is_followed_by_the_chance_node_of_its_die() -> None:
    """Pig: the turn's first roll, forced, is a chance node of the setup; rolling again is one after the move; a 1
    loses the pot and the next seat's forced roll is the move's next chance node; each seat was told the move."""
    game = load_game(PIG, set_options={"goal": "8"}, utility="scores")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(v, 1 / 6) for v in range(6)]
    state.apply_action(3)  # a 4
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["choose roll", "choose bank"]
    state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node() and len(state.chance_outcomes()) == 6
    state.apply_action(0)  # a 1: the pot is lost, the other seat rolls
    assert state.is_chance_node() and len(state.chance_outcomes()) == 6
    state.apply_action(1)  # a 2
    assert state.current_player() == 1
    assert state.information_state_string(1).splitlines()[1:] == ["seat 1: choose roll", state.observation_string(1)]
    assert state.information_state_string(0).splitlines()[1] == "I: choose roll"
    assert '"pot": 2' in state.observation_string(0) and '"player": 1' in state.observation_string(0)


TWO_ROLLS = """
name: two-rolls
title: Two rolls
version: 1
description: Each player in turn rolls a three-sided die, adding it to their total, or stays; the higher total wins.
players: [2]
counters:
  rolled: {per: role, min: 0, doc: the total rolled}
turn:
  - do:
      effect: |
        let action = choose(a in ["roll", "stay"], text = "roll or stay")
        if action == "roll":
          rolled(current_role) += roll(d3)
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [rolled(r)]
  points: key
"""


def test_a_roll_in_a_moves_code_is_worth_exactly_its_expectation(tmp_path: Path) -> None:
    """A d3 rolled by a move's effect: OpenSpiel's expected value of a policy over the chance nodes is the one worked
    out by hand.  The first player always rolls (a total of 2 on average), the second rolls or stays at random:
    the first wins 1/2 + 1/2 * 1/3 of the games and ties 1/2 * 1/3, for a return of 3/4."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(TWO_ROLLS, encoding="utf-8")
    for utility, first in (("scores", 2.0), ("returns", 3 / 4)):
        game = load_game(str(ruleset), utility=utility)
        rolls = policy.TabularPolicy(game)
        for state_text, row in rolls.state_lookup.items():
            if state_text.count("\n") == 0:  # the first player's one decision: nothing happened before it
                rolls.action_probability_array[row] = [1.0, 0.0] + [0.0] * (game.num_distinct_actions() - 2)
        value = expected_game_score.policy_value(game.new_initial_state(), [rolls, policy.UniformRandomPolicy(game)])
        assert list(value) == pytest.approx([first, 1.0 if utility == "scores" else 1 - first])


def test_a_draw_of_too_many_values_is_refused_and_a_step_that_draws_otherwise_too() -> None:
    """A draw of more values than a chance node may list is refused with a reason, never sampled; so is a step
    that draws among another number of values from the same generator state when played again."""
    game = engine.load(PIG)
    setup = lambda: game.new_state(players=2, seed=0, record=True)  # noqa: E731
    size, at = drawn(setup, {})
    assert size == 6 and drawn(setup, {at: (3, 6)}).counters == drawn(setup, {at: (3, 6)}).counters
    with pytest.raises(TooManyOutcomes, match=r"the setup of pig draws among 6 values, more than the 5 a chance node"):
        drawn(setup, {}, "the setup of pig", limit=5)
    with pytest.raises(RulecraftError, match="the setup of pig draws among 6 values where it drew among 4 before"):
        drawn(setup, {at: (1, 4)}, "the setup of pig")


def test_an_effect_played_again_after_a_choice_draws_the_values_it_drew(tmp_path: Path) -> None:
    """The engine plays a paused effect again from its start when a copy of the position answers its choice: its
    shuffle must fall as it fell at the chance nodes, not as the generator would shuffle.  Market row with three
    players failed ('the effect no longer stops at the choice it was waiting for') when its deck, reshuffled in an
    effect that then asks, was dealt again from the generator."""
    pyspiel.random_sim_test(load_game(str(ROOT / "docs" / "examples" / "market-row" / "ruleset.yaml"), players=3),
                            num_sims=2, serialize=False, verbose=False)


ROLL_THEN_PICK = """
name: roll-then-pick
title: Roll then pick
version: 1
description: Each player in turn rolls two three-sided dice and keeps one of them; the higher total wins.
players: [2]
counters:
  kept: {per: role, min: 0, doc: the dice kept}
turn:
  - do:
      effect: |
        let first = roll(d3)
        let second = roll(d3)
        if choose(a in ["first", "second"], text = "keep which") == "first":
          kept(current_role) += first
        else:
          kept(current_role) += second
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [kept(r)]
  points: key
"""


def test_the_values_drawn_before_a_waiting_effect_began_are_let_go(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A state kept every value drawn since the start, and every move copied them all: a game of n rolls took time
    growing as n squared (Pig).  Only an effect played again from its start draws again, so a position keeps the
    values its waiting effect drew: here the two dice of the seat choosing, not the other seat's before them.
    The game's tree is the one a state keeping them all has: the same states and value of the uniform policy."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(ROLL_THEN_PICK, encoding="utf-8")
    game = load_game(str(ruleset))
    state = game.new_initial_state()
    kept = []
    while not state.is_terminal():
        if not state.is_chance_node():
            kept.append(len(state.node.chosen))
        state.apply_action(state.chance_outcomes()[1][0] if state.is_chance_node() else state.legal_actions()[-1])
    assert kept == [2, 2]

    def tree(game: Any) -> tuple[int, list[float]]:
        states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                               include_chance_states=True, to_string=str)
        value = expected_game_score.policy_value(game.new_initial_state(), [policy.UniformRandomPolicy(game)] * 2)
        return len(states), list(value)

    pruned = tree(game)
    monkeypatch.setattr(openspiel, "_still_read", lambda chosen, position: chosen)
    assert tree(load_game(str(ruleset))) == pruned
    monkeypatch.undo()

    pig = load_game(PIG, set_options={"goal": "1000"})
    state, pick, most = pig.new_initial_state(), random.Random(0), 0
    for _ in range(600):
        if state.is_chance_node():
            state.apply_action(pick.randrange(6))
        else:
            state.apply_action(state.legal_actions()[0])  # roll: a long game of rolls, turn after turn
        most = max(most, len(state.node.chosen))
    assert most <= 3  # it kept every value of a roll: some 300 here


def test_the_game_is_registered_and_its_states_serialise() -> None:
    """``pyspiel.load_game`` makes it by name, options included; a state serialised mid-game loads as it was."""
    game = pyspiel.load_game(f"rulecraft(ruleset={PIG},options=goal:8,utility=scores)")
    state = game.new_initial_state()
    for action in (2, 0, 4):
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node() else action)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(0) == state.information_state_string(0)


def test_load_game_reads_a_ruleset_edited_since(tmp_path: Path) -> None:
    """OpenSpiel loads a game by name again for every state it deserialises, so games are kept compiled; but
    ``load_game`` compiles afresh, so a designer's edit is seen without a new process."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(Path(PIG).read_text(encoding="utf-8"), encoding="utf-8")
    assert load_game(str(ruleset)).num_players() == 2
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("players: [2, 3, 4]", "players: [3, 4]"),
                       encoding="utf-8")
    assert load_game(str(ruleset)).num_players() == 3


@pytest.mark.parametrize(("params", "message"), [
    ({"ruleset": "kuhn-poker", "players": 3}, "kuhn-poker is played by 2 players, not 3"),
    ({"ruleset": "kuhn-poker", "utility": "chips"}, "utility is one of returns, zero-sum-returns, scores, zero-sum-scores, not 'chips'"),
    ({"ruleset": "kuhn-poker", "options": "goal"}, "options are name:value pairs joined by ';', not 'goal'"),
    ({"ruleset": "iconoclasm-cards", "players": 1, "utility": "zero-sum-returns"},
     "utility=zero-sum-returns needs a game of two players or more whose returns sum to 1"),
    ({}, r"the game needs its ruleset, a built-in name or a path: rulecraft\(ruleset=NAME\)"),
    ({"ruleset": "no-such-game"}, "unknown ruleset 'no-such-game'"),
])
def test_bad_parameters_are_refused_with_a_reason(params: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, RulecraftError), match=message):
        pyspiel.load_game("rulecraft", params)


def test_an_action_that_is_not_legal_is_refused_and_the_state_is_unchanged() -> None:
    """OpenSpiel does not check a Python game's actions: a chance outcome the draw cannot give was played as a die
    showing it (liar's dice: a die of face 1,000,000), and an index not legal now was a bare KeyError."""
    state = load_game("liars-dice").new_initial_state()
    before = str(state)
    for outcome in (6, 1_000_000, -2):
        with pytest.raises(engine.IllegalActionError, match=f"{outcome} is not an outcome of this chance node: the "
                           "setup of liars-dice draws one of 6 values, 0 to 5"):
            state.apply_action(outcome)
    assert str(state) == before and state.is_chance_node()
    state = load_game("tic-tac-toe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(engine.IllegalActionError, match=r"action 4 \(place X at 1,1\) is not legal now: player 1 may "
                       r"play \[9, 10, 11, 12, 14, 15, 16, 17\]"):
        state.apply_action(4)
    with pytest.raises(engine.IllegalActionError, match=r"action 99 \(outside the action table\) is not legal now"):
        state.apply_action(99)
    for action in (9, 3, 10, 5):  # O at 0,0, X at 0,1, O at 1,0, X at 2,1: X's row 0,1 1,1 2,1
        state.apply_action(action)
    assert state.is_terminal()
    with pytest.raises(engine.IllegalActionError, match=r"action 11 \(place O at 2,0\) is not legal now: the game is over"):
        state.apply_action(11)


def test_load_game_takes_a_path_and_refuses_a_compiled_game_or_players_that_are_no_whole_number() -> None:
    """load_game(engine.load(...)) was TypeError: 'Game' object is not iterable, a Path the same; players="2" or None
    was OpenSpiel's 'Wrong type for parameter players. Expected type: kInt, got kString'."""
    folder = Path(engine.__file__).resolve().parent.parent / "rulesets" / "tic-tac-toe"
    assert load_game(folder).num_players() == 2 and load_game("tic-tac-toe", players=None).num_players() == 2
    assert load_game("tic-tac-toe", players=np.int64(2)).num_players() == 2
    with pytest.raises(TypeError, match="^load_game takes a ruleset's name or path .*, not Game"):
        load_game(engine.load("tic-tac-toe"))  # type: ignore[arg-type]
    for players in ("2", 2.0):
        with pytest.raises(TypeError, match=f"^players is a whole number \\(0: the fewest, two if it can\\), not {players!r}$"):
            load_game("tic-tac-toe", players=players)  # type: ignore[arg-type]
    for players in (-1, 2**31, 10**100):  # past C++'s int: pybind11's 'Unable to cast Python instance of type int'
        with pytest.raises(ValueError, match=r"^players is from 0 \(the fewest, two if it can\) to 100, the most a game has"):
            load_game("tic-tac-toe", players=players)


def test_load_game_refuses_a_variant_utility_or_options_of_the_wrong_kind() -> None:
    """variant=None was Python's 'can only join an iterable', variant=[1] 'sequence item 0: expected str instance',
    utility=None OpenSpiel's 'Wrong type for parameter utility', set_options as pairs "no attribute 'items'"."""
    for given, said in [({"variant": None}, "^variant is a variant's name, or a list of names, not None$"),
                        ({"variant": [1]}, "^variant is .* not \\[1\\]$"),
                        ({"utility": None}, "^utility is a text .* not None$"),
                        ({"set_options": [("a", "b")]}, "^set_options maps option names to values .* not \\[")]:
        with pytest.raises(TypeError, match=said):
            load_game("tic-tac-toe", **given)  # type: ignore[arg-type]
    assert load_game("tic-tac-toe", variant=[]).num_players() == 2


def test_a_deterministic_games_states_read_alike_when_their_positions_are_alike() -> None:
    """OpenSpiel's tools that tell states by their text (get_all_states(to_string=str), value_iteration) walked
    every history of tic-tac-toe (each state's text began with the actions that led to it); a game that never draws
    reads as its position, so they find OpenSpiel's own 5,478 states.  A game that draws still reads its history."""
    game = load_game("tic-tac-toe")
    states = get_all_states.get_all_states(game, to_string=str, stop_if_encountered=True)
    native = get_all_states.get_all_states(pyspiel.load_game("tic_tac_toe"), to_string=str, stop_if_encountered=True)
    assert len(states) == len(native) == 5478
    one, other = game.new_initial_state(), game.new_initial_state()
    for state, moves in ((one, ("place X at 0,0", "place O at 1,1", "place X at 2,2")),
                         (other, ("place X at 2,2", "place O at 1,1", "place X at 0,0"))):
        for move in moves:
            state.apply_action(state.string_to_action(move))
    assert str(one) == str(other) and one.history() != other.history()
    assert str(load_game("kuhn-poker").new_initial_state()).startswith("after []")


def test_a_ruleset_that_never_draws_is_deterministic_and_alpha_beta_solves_tic_tac_toe() -> None:
    """A ruleset with nothing that draws is a DETERMINISTIC game, so OpenSpiel's alpha-beta search runs on it (it
    refused even tic-tac-toe): with the returns made zero-sum, tic-tac-toe is a draw, value 0.  A game that
    draws, if only its seating, stays EXPLICIT_STOCHASTIC."""
    game = load_game("tic-tac-toe", utility="zero-sum-returns")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC and game.max_chance_outcomes() == 0
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM and (game.min_utility(), game.max_utility()) == (-1, 1)
    value, _ = minimax.alpha_beta_search(game, maximum_depth=10)
    assert value == 0.0
    for ruleset in ("kuhn-poker", "liars-dice", "tutorial-tiles", "nine-domains"):
        assert load_game(ruleset).get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, ruleset


@pytest.mark.parametrize("ruleset", [*engine.builtin_names(), *sorted(
    str(p) for p in (ROOT / "docs" / "examples").iterdir() if (p / "ruleset.yaml").exists())])
def test_a_game_declared_deterministic_never_reaches_a_chance_node(ruleset: str) -> None:
    """Sound: a game said DETERMINISTIC (nothing in its ruleset draws) meets no chance node in random games, at
    every player count; and the adapter refuses a draw in such a game rather than list it.  Three games, or as
    many as 300 moves in all reach: a long game (chess, quoridor) is played once, for 300 moves."""
    rules = shipped_game(ruleset)  # compiled once per session, shared with the other tests of the ruleset
    for players in rules.player_counts:
        if may_draw(rules, players):
            continue
        game = load_game(ruleset, players=players)
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        pick = random.Random(players)
        moves = 0
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal() and moves < 300:
                assert not state.is_chance_node(), f"{ruleset} with {players} players drew at random"
                state.apply_action(pick.choice(state.legal_actions()))
                moves += 1


@pytest.mark.parametrize(("code", "draws"), [
    ("pass", False), ("let n = roll(d6)", True), ("roll d6:\n  1: pass\n  2..6: pass", True),
    ("shuffle(supply)", True), ("toss(c in supply)", True),
])
def test_code_that_rolls_shuffles_or_tosses_makes_a_game_stochastic(tmp_path: Path, code: str, draws: bool) -> None:
    """Known from the compiled code: a ruleset otherwise without chance draws as soon as a move's code does."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(ONE_CODE.replace("CODE", code.replace("\n", "\n        ")), encoding="utf-8")
    assert may_draw(engine.load(str(ruleset)), 2) is draws
    mode = load_game(str(ruleset)).get_type().chance_mode
    assert mode == (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if draws else pyspiel.GameType.ChanceMode.DETERMINISTIC)


ONE_CODE = """\
name: one-code
version: 1
players: [2]
types: {side: [A, B]}
roles: {of: side, seating: {2: [1, 2]}}
components:
  coin:
    faces: [heads, tails]
    instances: [{id: coin}]
zones:
  hand: {kind: hand, per: role}
turn:
  - do:
      effect: |
        CODE
end: {when: "false", max_turns: 2}
scoring: {rank: r in roles, by: [0], points: [1, 0]}
"""


def test_every_draw_of_the_engine_is_one_may_draw_knows() -> None:
    """may_draw is sound only while it knows every place the engine draws from its generator: a new one (a block
    that rolls, a function that shuffles) must be added to it, and here."""
    sites = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith(("engine/rl/", "engine/core/rng.py", "engine/core/information.py", "engine/core/facedown.py")):
            continue  # the chance nodes themselves, the generator, and the searches' samples (never a game's play)
        found = len(re.findall(r"\w\.roll\(|roll_in_effect\(|random_below\(|\.shuffle\(|rng\.below\(|rng\.shuffle\(|"
                               r"seat_draws\(", "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                                                         if not line.lstrip().startswith((">>>", "def ")))))
        if found:
            sites[where] = found
    assert sites == {
        "engine/model/state.py": 4,  # roll, roll_in_effect and random_below themselves
        "engine/model/position_edits.py": 1,  # shuffle itself
        "engine/model/game.py": 4,  # the seating (roles dealt at random) and the roll-off for the first seat
        "engine/model/dealing.py": 1,  # a setup's shuffle, replayed (its code says shuffle)
        "engine/blocks/dice.py": 2,  # a die step
        "engine/blocks/contest.py": 1,  # a contest step's dice
        "engine/blocks/contest_rules.py": 4,  # a fight's dice and re-rolled ties
        "engine/blocks/switch.py": 1,  # a hidden switch of roles
        "engine/blocks/state_functions.py": 3,  # shuffle(), toss() and a pile refilled from its discard (noted as drawing)
        "engine/blocks/action_roll.py": 1,  # an action roll
        "engine/lang/functions.py": 1,  # roll(d6)
        "engine/lang/statements.py": 1,  # roll d6:
    }


COUNTING = """\
name: counting
version: 1
description: On a turn a player counts on as long as they like; the higher count wins.
players: [2]
counters:
  tally: {per: role, min: 0}
  going: {min: 0, max: 1}
turn:
  - do:
      effect: |
        going = 1
        while going == 1:
          if choose(x in ["more", "stop"]) == "stop":
            going = 0
          else:
            tally(current_role) += 1
end: {when: false, max_turns: 2}
scoring: {rank: r in roles, by: [tally(r)], points: key}
"""


def test_max_game_length_bounds_a_turn_of_many_decisions(tmp_path: Path) -> None:
    """Two turns of one step each, a step counting on as long as its player likes: the game's max_game_length was
    turns x steps x players, 4 here, so OpenSpiel's own check failed on a game of 6 decisions ("game_length <=
    game.MaxGameLength()").  A turn is bounded by limits.turn_decisions, as every loop of the engine playing a
    game bounds it; so is the adapter's, with the engine's message."""
    (tmp_path / "ruleset.yaml").write_text(COUNTING, encoding="utf-8")
    game = load_game(str(tmp_path / "ruleset.yaml"))
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])  # more
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])  # stop
    assert state.move_number() == 32 <= game.max_game_length()
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    with limits.using(limits.parse_limits(["turn_decisions=5"])):
        bounded = load_game(str(tmp_path / "ruleset.yaml"))
    assert bounded.max_game_length() == 10
    state = bounded.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    before = str(state)
    with pytest.raises(RulecraftError, match="turn 1 has taken 5 decisions without passing"):
        state.apply_action(state.legal_actions()[0])
    assert str(state) == before


def test_a_game_loaded_by_a_relative_path_is_read_back_in_another_folder(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A state of a game loaded by a relative path pickles and serialises with the ruleset's absolute path (as an
    engine game does), so a worker in another folder reads it back; it named the path as given, and there the
    ruleset was 'unknown'."""
    monkeypatch.chdir(ROOT)
    game = load_game("docs/examples/pig")
    assert game.get_parameters()["ruleset"] == PIG
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    saved, pickled = pyspiel.serialize_game_and_state(game, state), pickle.dumps(state)
    monkeypatch.chdir(tmp_path)
    openspiel._rules_of.cache_clear()  # loaded afresh, as in another process
    assert pyspiel.deserialize_game_and_state(saved)[1].history() == pickle.loads(pickled).history() == state.history()
    assert load_game("kuhn-poker").get_parameters()["ruleset"] == "kuhn-poker"  # a built-in is found by name


def test_an_information_state_tensor_asked_for_says_there_is_none() -> None:
    """information_state_tensor() gave an empty list (and the tensor's size 0), which a network trained on it took
    for a game of no inputs: it now says there is none and what to use; the tools that ask the game first, such as
    OpenSpiel's rl_environment, use the observation tensor as before."""
    game = load_game("kuhn-poker")
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    with pytest.raises(NotImplementedError, match="no information-state tensor .* state.observation_tensor"):
        state.information_state_tensor(0)
    assert state.information_state_string(0) and len(state.observation_tensor(0)) == game.observation_tensor_size() > 0
    assert len(rl_environment.Environment(game).reset().observations["info_state"][0]) == game.observation_tensor_size()


def test_a_game_pickles_and_plays_on_the_other_side() -> None:
    """A game sent to a pool's worker (pickled) was made again without its rules, and failed at new_initial_state
    ("'RulecraftGame' object has no attribute 'root'"); it is loaded again from its parameters."""
    game = load_game(PIG, players=3, set_options={"goal": "20"})
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert str(again) == str(game) and again.rules.game.options["goal"] == 20 and again.num_players() == 3
        state, rng = again.new_initial_state(), random.Random(0)
        while not state.is_terminal():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                          else state.legal_actions()))
        assert sum(state.returns()) == 1.0


def test_undo_says_to_play_on_a_copy_and_changes_nothing() -> None:
    """OpenSpiel's undo_action on a Python game failed with "UndoAction function is not overridden; not undoing."
    (a SpielError, and a line on stderr): it now says what to do instead, and the state is as it was."""
    state = load_game("tic-tac-toe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(NotImplementedError, match=r"takes back no move .* state\.child\(action\) or state\.clone\(\)"):
        state.undo_action(0, 4)
    reply = state.legal_actions()[0]
    assert state.history() == [4] and state.child(reply).history() == [4, reply]


def test_a_game_tree_too_deep_for_cfr_is_a_clear_error_not_a_recursion_error() -> None:
    """Pig to 2 points: a run of 1s changes nothing and may go on until the turn limit, so CFR, which recurses along
    the tree, went beyond Python's recursion limit; it now stops with what is wrong and what to use.  The stack is
    made short here (200 frames more than the test's own), so the tree is too deep some 150 actions down rather
    than 1,000: each chance node of the run plays the turns from the start again, and the walk down took 10 s."""
    game = load_game(PIG, set_options={"goal": "2"})
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 200)
    try:
        with pytest.raises(TooDeep, match="deeper than Python's recursion .* play it with MCTS"):
            cfr.CFRSolver(game).evaluate_and_update_policy()
    finally:
        sys.setrecursionlimit(old)


@pytest.mark.parametrize("folder", ["a,b", "c=d", "e(f)"])
def test_a_ruleset_path_a_game_string_cannot_carry_is_refused(tmp_path: Path, folder: str) -> None:
    """A ruleset under a folder named 'a,b' loaded, but its states could not be deserialised (OpenSpiel read the
    path as two parameters); it is refused up front, by either way of loading, saying why and what to do."""
    where = tmp_path / folder
    where.mkdir()
    (where / "ruleset.yaml").write_text(Path(PIG).read_text(encoding="utf-8"), encoding="utf-8")
    for load in (lambda: load_game(str(where)), lambda: pyspiel.load_game("rulecraft", {"ruleset": str(where)})):
        with pytest.raises(ValueError, match="OpenSpiel's game strings give a meaning of their own.*rename the folder"):
            load()
    with pytest.raises(ValueError, match="the option 'goal=3;4' cannot be written"):
        load_game(PIG, set_options={"goal": "3;4"})



def test_a_game_string_giving_an_option_twice_is_refused() -> None:
    """``options=goal:5;goal:8`` played to 8 without a word (the command line refuses ``--set goal=5 --set goal=8``);
    it is refused as --set refuses it, and spaces around a name are left out as --set leaves them."""
    with pytest.raises(ValueError, match="set goal twice, to 5 and to 8: give it once"):
        pyspiel.load_game(f"rulecraft(ruleset={PIG},options=goal:5;goal:8)")
    with pytest.raises(ValueError, match="name:value pairs joined by ';', not ':5'"):
        pyspiel.load_game(f"rulecraft(ruleset={PIG},options=:5)")
    game = pyspiel.load_game(f"rulecraft(ruleset={PIG},options= goal : 8 ;goal:8)")
    assert game.rules.game.set_options == {"goal": "8"}

def test_a_zero_sum_claim_is_checked_at_the_end() -> None:
    """Tic-tac-toe's scores are 1 and 0: declared zero-sum, its end says so rather than mislead an algorithm."""
    state = load_game("tic-tac-toe", utility="zero-sum-scores").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(RulecraftError, match=re.escape("the final scores [1.0, 0.0] do not sum to 0")):
        state.returns()


def test_the_doc_example_runs_and_prints_what_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rl.md's OpenSpiel example: CFR+ on Kuhn poker, its output as the comment after it says."""
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    block, = (b for b in re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M) if "cfr.CFRPlusSolver" in b)
    exec(compile(block, "docs/rl.md", "exec"), {})
    shown = block.rstrip().splitlines()[-1]
    assert shown.startswith("# ") and capsys.readouterr().out.strip() == shown[2:]


def _q_learning_block() -> str:
    """docs/rl.md's example of OpenSpiel's Q-learner trained on tic-tac-toe."""
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    block, = (b for b in re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M) if "tabular_qlearner" in b)
    return block


def test_the_q_learning_example_plays_openspiels_learning_loop_on_a_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """The doc's example, its games cut to a few (the whole run is the slow test below): OpenSpiel's
    rl_environment, Q-learner and random agent play the game to its end and the first player's results add up."""
    block = _q_learning_block().replace("range(1000)", "range(10)").replace("range(300)", "range(10)")
    exec(compile(block, "docs/rl.md", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert re.fullmatch(r"first player against random: -?\d\.\d\d playing at random, -?\d\.\d\d after 1000 games "
                        r"of Q-learning", printed), printed


@pytest.mark.slow  # some 12 s of CPU
def test_the_q_learning_example_beats_random_as_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    """The doc's example as written: the learner's greedy play beats random play from the first seat, and the run
    prints what its comment says (NumPy's generator seeded: the same games every run)."""
    block = _q_learning_block()
    exec(compile(block, "docs/rl.md", "exec"), {})
    shown = block.rstrip().splitlines()[-1]
    assert shown.startswith("# ") and capsys.readouterr().out.strip() == shown[2:]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT.parent,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)


def test_without_openspiel_the_import_says_which_extra_to_install() -> None:
    run = _python("import sys; sys.modules['pyspiel'] = None\nimport engine.rl.openspiel")
    assert "engine.rl.openspiel needs OpenSpiel (pyspiel is missing): pip install 'rulecraft[oracle]'" in run.stderr


def test_the_openspiel_game_needs_no_pettingzoo() -> None:
    """The oracle extra alone is enough: engine.rl loads PettingZoo only for its environment."""
    run = _python("import sys; sys.modules['pettingzoo'] = None\nfrom engine.rl.openspiel import load_game\n"
                  "print(load_game('tic-tac-toe').num_distinct_actions())")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["18"]  # X or O at each of nine cells


def test_a_move_copies_the_position_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move of the game copied the position, then State.apply copied the copy again to put it back on failure:
    two copies per move on the path CFR walks.  The copy is dropped on failure, so one is enough."""
    from engine.model.state import State

    game = load_game("tic-tac-toe")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    clones = 0
    cloned = State.clone

    def counted(self: State, *args: Any, **kwargs: Any) -> State:
        nonlocal clones
        clones += 1
        return cloned(self, *args, **kwargs)

    monkeypatch.setattr(State, "clone", counted)
    state.apply_action(state.legal_actions()[0])
    assert clones == 1


LONG_GAME = """
name: long-game
title: Long game
version: 1
description: a choice of two numbers every turn, for 300 turns
players: [2]
types:
  side: [A, B]
roles:
  of: side
  seating:
    2: [1, 2]
counters:
  total: {per: role, start: 0}
turn:
  - do:
      effect: |
        total(current_role) += choose(n in numbers(1, 2))
end:
  when: false
  max_turns: 300
scoring:
  rank: r in roles
  by: [total(r)]
  points: key
"""


def test_information_states_asked_at_every_move_of_a_long_game_keep_little(tmp_path: Path) -> None:
    """``pyspiel.random_sim_test`` asks every seat's information state at every move.  Each node kept the whole text
    it was asked, as long as the game so far: a game of 10,000 moves (a game that never ends, stopped by its
    max_turns) took the machine's memory and was killed.  What the nodes keep is now a few times the final text."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(LONG_GAME, encoding="utf-8")
    state = load_game(str(ruleset)).new_initial_state()
    rng = random.Random(0)
    texts = []
    while not state.is_terminal():
        texts.append(state.information_state_string(0))
        state.apply_action(rng.choice(state.legal_actions()))
    final = state.information_state_string(0)
    assert len(texts) == 300 and final.count("\n") == 600 and all(final.startswith(text) for text in texts[::50])
    kept, node = 0, state.node
    while node is not None:
        kept += sum(len(text) for text in node.written.values())
        node = node.parent
    assert kept < 4 * len(final)


@pytest.mark.parametrize("how", ["argument", "in force"])
def test_the_limits_a_game_was_loaded_under_are_carried_by_its_string_and_its_pickle(tmp_path: Path, how: str) -> None:
    """A game loaded under a custom limit (turn_decisions=5) was loaded again from its string, or unpickled in a
    pool's worker, under the default limits: its max_game_length and its turns' bound changed on the way."""
    (tmp_path / "ruleset.yaml").write_text(COUNTING, encoding="utf-8")
    bounded = limits.parse_limits(["turn_decisions=5"])
    if how == "argument":
        game = load_game(str(tmp_path / "ruleset.yaml"), limits=bounded)
    else:
        with limits.using(bounded):
            game = load_game(str(tmp_path / "ruleset.yaml"))
    assert game.get_parameters()["limits"] == "turn_decisions:5" and "limits=turn_decisions:5" in str(game)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    saved, pickled, named = pyspiel.serialize_game_and_state(game, state), pickle.dumps(game), str(game)
    openspiel._rules_of.cache_clear()  # loaded afresh, as in another process
    for again in (pyspiel.load_game(named), pickle.loads(pickled), pyspiel.deserialize_game_and_state(saved)[0]):
        assert again.max_game_length() == 10
        moved = again.new_initial_state()
        for _ in range(5):
            moved.apply_action(moved.legal_actions()[0])
        with pytest.raises(RulecraftError, match="turn 1 has taken 5 decisions without passing"):
            moved.apply_action(moved.legal_actions()[0])


def test_limits_written_wrong_are_refused_saying_so() -> None:
    with pytest.raises(ValueError, match=r"the limits 'stpes:5': unknown limit 'stpes' \(did you mean 'steps'\?\)"):
        pyspiel.load_game("rulecraft(ruleset=kuhn-poker,limits=stpes:5)")
    with pytest.raises(TypeError, match="limits is an engine.core.limits.Limits"):
        load_game("kuhn-poker", limits={"steps": 5})  # type: ignore[arg-type]


def test_a_game_that_may_end_with_nobody_winning_is_not_constant_sum() -> None:
    """A ruleset with ``nobody_wins`` was declared CONSTANT_SUM 1, and a game that every seat lost stopped OpenSpiel's
    own check with 'the returns [0.0, 0.0, 0.0] do not sum to 1'; it is GENERAL_SUM, and zero-sum-returns is refused."""
    game = load_game(str(Path(__file__).parent.parent / "docs" / "examples" / "sleuth"), players=3)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)
    with pytest.raises(ValueError, match="nor one that may end with nobody winning: nobody_wins"):
        load_game(str(Path(__file__).parent.parent / "docs" / "examples" / "sleuth"), players=3, utility="zero-sum-returns")


def test_chance_outcomes_away_from_a_chance_node_and_a_resample_for_no_player_are_refused_saying_why() -> None:
    """chance_outcomes() at a decision was an assertion (with ``python -O``, an AttributeError); a resample for
    OpenSpiel's player 5 of two said 'there is no seat 6'."""
    state = load_game("kuhn-poker").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="^chance_outcomes\\(\\) is asked at a chance node, and this state is none: "
                                         "player 0 is to move$"):
        state.chance_outcomes()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in (5, -1, None, True):
        with pytest.raises(ValueError, match=f"^there is no player {re.escape(repr(player))}: the players are 0 to 1 "
                                             "\\(OpenSpiel's player k is the ruleset's seat k \\+ 1\\)$"):
            state.resample_from_infostate(player, sampler)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="this state is none: the game is over$"):
        state.chance_outcomes()
