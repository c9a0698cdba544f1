"""Every shipped ruleset x variant x player count, played at random, obeys the engine's contract.

For each configuration: the game terminates; legal actions are non-empty
unless it is over; every action's text parses back to the same action;
clone and JSON round-trip give identical states at every step; the ruleset's
declared invariants hold after every action; the same seed and actions give
the same game; an illegal action changes nothing.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.core.errors import IllegalActionError
from tests.conftest import ruleset_configs, shipped_game

GAMES_PER_CONFIG = 3


EVERY_SAVE = 30
"""Actions after which a checked game is saved and loaded again each time; later it is every ``SAVE_EVERY``-th."""

SAVE_EVERY = 8
"""A save is loaded by replaying its actions, so saving after every action made a long game's check quadratic:
five-player games of 220 actions spent 95% of their time replaying (1.2 s of a checked game, 0.05 s unchecked).
The clone and the action's text are still checked after every action."""


def saved_here(actions_taken: int) -> bool:
    """Whether a checked game is saved and loaded again after ``actions_taken`` actions.

    >>> [n for n in range(50) if saved_here(n)][-5:]
    [28, 29, 32, 40, 48]
    """
    return actions_taken < EVERY_SAVE or actions_taken % SAVE_EVERY == 0


def play(game: engine.Game, players: int, seed: int, check: bool) -> list[str]:
    state = game.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    history: list[str] = []
    for _ in range(10_000):
        assert not game.broken_invariants(state), f"invariants broken after {history}"
        if state.is_terminal:
            assert len(state.legal_actions()) == 0
            assert abs(sum(state.returns()) - (1.0 if state.outcome.winners else 0.0)) < 1e-9
            return history
        actions = state.legal_actions()
        assert len(actions) > 0, f"no legal actions for seat {state.current_player} at {history}"
        action = actions[rng.randrange(len(actions))]
        if check:
            assert state.parse_action(str(action)) == action
            copy = state.clone()
            twins = [copy]
            if saved_here(len(history)):
                twins.append(game.state_from_json(json.loads(json.dumps(state.to_json()))))
            assert all(twin == state for twin in twins)
            for twin in twins:
                twin.apply(str(action) if twin is not copy else action)
        state.apply(action)
        if check:
            assert all(twin == state for twin in twins)
        history.append(str(action))
    raise AssertionError("the game did not end within 10,000 actions")


@pytest.mark.parametrize("name,variant,players", ruleset_configs(), ids=lambda v: str(v))
def test_random_playouts(name: str, variant: str | None, players: int) -> None:
    game = shipped_game(name, variant)
    for seed in range(GAMES_PER_CONFIG):
        first = play(game, players, seed, check=seed == 0)
        assert play(game, players, seed, check=False) == first  # same seed, same game


@pytest.mark.parametrize("name,variant,players", ruleset_configs(), ids=lambda v: str(v))
def test_illegal_action_changes_nothing(name: str, variant: str | None, players: int) -> None:
    state = shipped_game(name, variant).new_state(players=players, seed=9)
    before = state.clone()
    with pytest.raises(IllegalActionError):
        state.apply("this is not an action")
    assert state == before
    assert len(state.legal_actions()) > 0


@pytest.mark.parametrize("name,variant,players", ruleset_configs(), ids=lambda v: str(v))
def test_stale_and_wrong_step_actions_change_nothing(name: str, variant: str | None, players: int) -> None:
    """Mid-game: an action object from an earlier decision, and the text of another step's action, are refused.

    The earlier action is the first one played that is not legal now (a decision
    like "keep my role" may come back; a placement never does).
    """
    game = shipped_game(name, variant)
    state = game.new_state(players=players, seed=4)
    rng = random.Random(4)
    played = [state.legal_actions()[0]]
    state.apply(played[0])
    for _ in range(5):
        if state.is_terminal:
            return
        actions = state.legal_actions()
        played.append(actions[rng.randrange(len(actions))])
        state.apply(played[-1])
    if state.is_terminal:
        return
    legal = {str(a) for a in state.legal_actions()}
    earlier = next(a for a in played if str(a) not in legal)
    earlier_text = str(earlier)
    before = json.dumps(state.to_json(), sort_keys=True)
    for attempt in (earlier, earlier_text):
        with pytest.raises(IllegalActionError):
            state.apply(attempt)
        assert json.dumps(state.to_json(), sort_keys=True) == before
