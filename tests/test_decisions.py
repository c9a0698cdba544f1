"""Who decides: seats, CHANCE, SIMULTANEOUS and TERMINAL, and decisions lent to other roles (engine.core.decisions)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import engine
from engine.core.decisions import Decision
from engine.core.errors import IllegalActionError
from engine.model.savefile import CHECKSUM, position_hash
from engine.model.state import State
from engine.runner.agents import choose_for_seat, joint_choice, make_agent, rollout, sample_chance


@pytest.fixture(scope="module")
def nine() -> engine.Game:
    return engine.load("nine-domains")


@pytest.fixture(scope="module")
def iconica() -> engine.Game:
    return engine.load("iconica")


def round_trip(state: State) -> State:
    return state.game.state_from_json(json.loads(json.dumps(state.to_json())))


# ---------------------------------------------------------------- simultaneous


def test_the_first_commit_is_one_simultaneous_decision(nine: engine.Game) -> None:
    state = nine.new_state(players=2, seed=1)
    assert state.current_player == engine.SIMULTANEOUS
    assert state.simultaneous_seats() == (1, 2) and state.seat_to_move == 1
    mine, theirs = state.legal_actions(1), state.legal_actions(2)
    assert len(mine) == len(theirs) == 9 and mine.texts() == state.legal_actions().texts()
    assert {a.args[0] for a in mine}.isdisjoint({a.args[0] for a in theirs}), "each seat commits from its own hand"


def test_each_seat_of_a_simultaneous_decision_observes_its_own_actions(nine: engine.Game) -> None:
    """The later seat of a sealed step saw ``legal_actions: []`` in its observation though it had 9 to choose from."""
    state = nine.new_state(players=2, seed=1)
    for seat in (1, 2):
        assert state.observation(seat)["legal_actions"] == state.legal_actions(seat).texts()
    while state.seat_to_move == 1:  # seat 1 seals its row: seat 2 alone decides then
        state.play(0)
    assert state.observation(1)["legal_actions"] == [] and state.observation(2)["legal_actions"] == state.legal_actions().texts()


def test_a_joint_round_is_the_round_played_one_decision_at_a_time(nine: engine.Game) -> None:
    for seed in range(4):
        rand = random.Random(seed)
        joint, one_by_one = nine.new_state(players=2, seed=seed), nine.new_state(players=2, seed=seed)
        firsts, seconds = [], []
        for _ in range(3):  # every slot of the row is one joint decision
            assert joint.current_player == engine.SIMULTANEOUS
            a = rand.choice(joint.legal_actions(1).texts())
            b = rand.choice(joint.legal_actions(2).texts())
            firsts.append(a)
            seconds.append(b)
            joint.apply_joint({1: a, 2: b})
        for text in firsts + seconds:
            one_by_one.apply(text)
        for seat in (1, 2):
            assert joint.observation(seat) == one_by_one.observation(seat)
        assert joint.zones == one_by_one.zones and joint.rng == one_by_one.rng and joint.turn == one_by_one.turn


def test_no_seat_sees_another_seats_sealed_choice_before_the_reveal(nine: engine.Game) -> None:
    a, b = nine.new_state(players=2, seed=5), nine.new_state(players=2, seed=5)
    a.apply_joint({1: a.legal_actions(1)[0], 2: a.legal_actions(2)[0]})
    b.apply_joint({1: b.legal_actions(1)[4], 2: b.legal_actions(2)[0]})
    assert a != b
    assert a.observation(2) == b.observation(2)
    assert a.legal_actions(2).texts() == b.legal_actions(2).texts()


def test_a_bad_joint_action_is_refused_and_changes_nothing(nine: engine.Game) -> None:
    state = nine.new_state(players=2, seed=1)
    before = state.clone()
    mine, theirs = state.legal_actions(1)[0], state.legal_actions(2)[0]
    with pytest.raises(IllegalActionError, match="one action for each of the seats 1, 2"):
        state.apply_joint({1: mine})
    with pytest.raises(IllegalActionError, match="one action for each of the seats 1, 2, not for 1, 2, 3"):
        state.apply_joint({1: mine, 2: theirs, 3: theirs})
    with pytest.raises(IllegalActionError, match="not a legal action of seat 2"):
        state.apply_joint({1: mine, 2: "commit 0 to middle"})
    with pytest.raises(IllegalActionError, match="not a legal action of seat 2"):
        state.apply_joint({1: mine, 2: mine})  # seat 1's card is not in seat 2's hand
    # seats given as text read as the seats themselves ('not for 1, 2'); mixed keys were a TypeError of sorted()
    with pytest.raises(IllegalActionError, match=r"seats 1, 2, not for '1', '2' \(a seat is a whole number\)$"):
        state.apply_joint({"1": mine, "2": theirs})
    with pytest.raises(IllegalActionError, match=r"seats 1, 2, not for 1, '2' \(a seat is a whole number\)$"):
        state.apply_joint({1: mine, "2": theirs})
    with pytest.raises(TypeError, match=r"^apply_joint takes \{seat: action, ...\}, not list$"):
        state.apply_joint([mine, theirs])  # type: ignore[arg-type]
    assert state == before
    tutorial = engine.load("tutorial-tiles").new_state(players=2, seed=1)
    with pytest.raises(IllegalActionError, match="no simultaneous decision"):
        tutorial.apply_joint({1: tutorial.legal_actions()[0]})
    assert tutorial.legal_actions(2).texts() == [], "a seat not to move has nothing to decide"


def test_whole_games_of_joint_decisions_save_load_and_end(nine: engine.Game) -> None:
    for seed in range(3):
        rand = random.Random(seed)
        state = nine.new_state(players=2, seed=seed)
        joints = 0
        while not state.is_terminal:
            if state.current_player == engine.SIMULTANEOUS:
                assert round_trip(state) == state
                state.apply_joint({seat: rand.choice(list(state.legal_actions(seat))) for seat in state.simultaneous_seats()})
                joints += 1
            else:
                assert state.current_player == state.seat_to_move
                state.apply(rand.choice(list(state.legal_actions())))
        assert joints == 9 and state.current_player == engine.TERMINAL  # three rows of three slots


def test_each_seat_of_a_simultaneous_node_is_answered_by_its_own_agent(nine: engine.Game) -> None:
    rand = random.Random(0)
    bots = {1: make_agent("ismcts:20", seed=1), 2: make_agent("random", seed=2)}
    state = nine.new_state(players=2, seed=1)
    joint = joint_choice(bots, state, rand)
    assert set(joint) == {1, 2} and all(joint[seat] in state.legal_actions(seat) for seat in (1, 2))
    joints = 0
    while not state.is_terminal:
        if state.current_player == engine.SIMULTANEOUS:
            state.apply_joint(joint_choice(bots, state, rand))
            joints += 1
        else:
            state.apply(bots[state.seat_to_move].choose(state))
    assert joints > 1 and sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_a_later_seats_search_sees_no_sealed_choice(nine: engine.Game) -> None:
    state = nine.new_state(players=2, seed=1)
    answers = set()
    for seed in range(3):  # seat 1's commits differ; seat 2's search, seeded alike, cannot tell
        played, rand = state.clone(), random.Random(seed)
        while played.seat_to_move == 1:
            played.apply(rand.choice(list(played.legal_actions())))
        answers.add(str(make_agent("ismcts:30", seed=5).choose(played)))
    assert len(answers) == 1
    with pytest.raises(ValueError, match="seat 3 has no decision now"):
        choose_for_seat(make_agent("random", seed=0), state, 3, random.Random(0))


# ---------------------------------------------------------------- chance


def at_first_roll(game: engine.Game, seed: int) -> State:
    state = game.new_state(players=2, seed=seed, explicit_chance=True)
    while state.current_player != engine.CHANCE:
        state.apply(state.legal_actions()[0])
    return state


def test_an_action_roll_is_a_chance_node_of_six_outcomes_per_die(iconica: engine.Game) -> None:
    state = at_first_roll(iconica, 1)
    for result in (4, 2):  # the white die, then the black one
        outcomes = state.chance_outcomes()
        assert [str(a) for a, _ in outcomes] == [f"roll {v}" for v in range(1, 7)]
        assert sum(p for _, p in outcomes) == 1 and {p for _, p in outcomes} == {Fraction(1, 6)}
        assert state.current_player == engine.CHANCE and state.legal_actions().texts() == [str(a) for a, _ in outcomes]
        state.apply(f"roll {result}")
    assert state.current_player == 1 and state.chance_outcomes() == []
    assert state.game.steps[state.step].situation(state) == ["dice: white 4, black 2"]
    assert all(" 4 " in text or " 2 " in text for text in state.legal_actions().texts())


def test_a_result_that_is_not_possible_is_refused(iconica: engine.Game) -> None:
    state = at_first_roll(iconica, 1)
    before = state.clone()
    with pytest.raises(IllegalActionError, match="the results are: roll 1, roll 2"):
        state.apply("roll 7")
    assert state == before


def test_a_state_waiting_for_dice_saves_and_loads(iconica: engine.Game) -> None:
    state = at_first_roll(iconica, 2)
    state.apply("roll 3")
    loaded = round_trip(state)
    assert loaded == state and loaded.current_player == engine.CHANCE
    loaded.apply("roll 5")
    state.apply("roll 5")
    assert loaded == state


def test_without_explicit_chance_the_generator_rolls_as_before(iconica: engine.Game) -> None:
    state = iconica.new_state(players=2, seed=1)
    rand = random.Random(1)
    while not state.is_terminal:
        assert state.current_player in (1, 2) and state.chance_outcomes() == []
        state.apply(rand.choice(list(state.legal_actions())))


def test_searches_and_playouts_draw_chance_by_probability(iconica: engine.Game) -> None:
    state = at_first_roll(iconica, 3)
    rand = random.Random(0)
    seen = {str(sample_chance(state, rand.random)) for _ in range(200)}
    assert seen == {f"roll {v}" for v in range(1, 7)}
    finished = state.clone()
    returns = rollout(finished, rand.random)
    assert finished.is_terminal and sum(returns) == pytest.approx(1.0)
    state.apply("roll 6")
    state.apply("roll 1")
    for spec in ("mcts:8", "ismcts:8"):
        assert make_agent(spec, seed=1).choose(state) in state.legal_actions()


@pytest.fixture(scope="module")
def solo() -> engine.Game:
    return engine.load("iconoclasm-cards")  # solo: a draw step from a shuffled deck into a hidden hand


def test_a_draw_from_an_unknown_order_is_a_chance_node_over_the_names_left(solo: engine.Game) -> None:
    state = solo.new_state(players=1, seed=2, explicit_chance=True)
    deck = state.zones[state.game.zone_index[("deck", None)]]
    names = sorted(state.game.component_names[c] for c in deck)
    outcomes = state.chance_outcomes()
    assert state.current_player == engine.CHANCE
    assert sorted(str(a).removeprefix("draw ") for a, _ in outcomes) == names
    assert sum(p for _, p in outcomes) == 1 and {p for _, p in outcomes} == {Fraction(1, len(names))}
    assert outcomes[0][0].step.public_format(outcomes[0][0].args) == "draw a component"  # the hand is hidden
    chosen = names[-1]
    state.apply(f"draw {chosen}")
    hand = state.zones[state.game.zone_index[("hand", state.current_role)]]
    assert [state.game.component_names[c] for c in hand] == [chosen] and state.current_player == 1
    assert len(state.zones[state.game.zone_index[("deck", None)]]) == len(names) - 1


def test_a_draw_that_is_not_possible_is_refused_and_a_waiting_draw_saves(solo: engine.Game) -> None:
    state = solo.new_state(players=1, seed=2, explicit_chance=True)
    before = state.clone()
    with pytest.raises(IllegalActionError, match="is not a result of the draw; the results are: draw "):
        state.apply("draw nothing-of-the-kind")
    assert state == before
    loaded = round_trip(state)
    assert loaded == state and loaded.current_player == engine.CHANCE
    text = str(loaded.chance_outcomes()[3][0])
    loaded.apply(text)
    state.apply(text)
    assert loaded == state


def test_games_with_chance_draws_end_and_search_plays_them(solo: engine.Game) -> None:
    rand = random.Random(3)
    state = solo.new_state(players=1, seed=4, explicit_chance=True)
    draws = 0
    while not state.is_terminal:
        if state.current_player == engine.CHANCE:
            draws += 1
            state.apply(sample_chance(state, rand.random))
        else:
            state.apply(rand.choice(list(state.legal_actions())))
    assert draws > 1
    state = solo.new_state(players=1, seed=4, explicit_chance=True)
    state.apply(state.chance_outcomes()[0][0])
    for spec in ("mcts:8", "ismcts:8"):
        assert make_agent(spec, seed=1).choose(state) in state.legal_actions()
    plain = solo.new_state(players=1, seed=4)
    assert plain.current_player == 1 and plain.chance_outcomes() == []


# ---------------------------------------------------------------- decisions lent to another role


def test_draft_picks_are_lent_decisions_and_the_turn_stays(iconica: engine.Game) -> None:
    state = iconica.new_state(players=2, seed=1)
    first = state.order[state.turn]
    pickers = []
    while state.decisions:
        assert state.order[state.turn] == first and state.decisions[-1].step == state.step
        pickers.append(state.current_role)
        assert state.current_player == state.seat_of[state.current_role]
        assert round_trip(state) == state
        state.apply(state.legal_actions()[0])
    assert pickers == [first, *[r for r in state.order if r != first]] * 3
    assert not any("turn before" in key for key in state.to_json()["scratch"])


def test_an_exchange_belongs_to_the_winner_whatever_the_turn(nine: engine.Game) -> None:
    state = nine.new_state(players=2, seed=32)  # East's exchange comes in West's turn of the last round
    rand = random.Random(32)
    while not (state.decisions and state.decisions[-1].role != state.order[state.turn]):
        state.apply(rand.choice(list(state.legal_actions())))
    lent = state.decisions[-1]
    assert isinstance(lent, Decision) and lent.data, "the winners still to decide are kept with the decision"
    assert state.current_role == lent.role and state.current_player == state.seat_of[lent.role]
    copy = state.clone()
    copy.apply("keep")
    assert state.decisions == (lent,) and copy.decisions != state.decisions, "a clone's stack is its own"
    assert copy.order[copy.turn] == state.order[state.turn]
    assert round_trip(state) == state


def test_a_damaged_stack_in_a_save_is_refused(nine: engine.Game) -> None:
    state = nine.new_state(players=2, seed=2)
    data = state.to_json()
    for bad in ([[99, "East", []]], [[0, "Nobody", []]], "x"):
        edited = {**data, "decisions": bad}
        edited[CHECKSUM] = position_hash(edited)
        with pytest.raises(engine.RulecraftError, match="pending decisions"):
            nine.state_from_json(edited)
