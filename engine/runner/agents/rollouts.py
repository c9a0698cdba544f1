"""Random playouts from a position, as searches and the greedy bot play them, and their estimated returns.

>>> import engine, random
>>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
>>> len(rollout(s, random.Random(0).random))
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from engine.blocks.outcome import Outcome
from engine.core.actions import Action

if TYPE_CHECKING:
    from engine.model.state import State


ROLLOUT_CAP = 1000
"""Random actions a rollout plays at most before the running score decides (a search's ``:depth=D`` changes it)."""

MAX_DEPTH = 1_000_000
"""The largest rollout depth a search spec may give."""

def estimated_returns(state: "State") -> list[float]:
    """The returns of a finished game; otherwise the seats leading on ``running_score`` share the win.

    Without a running score every seat gets an equal share.
    """
    if state.outcome is not None:
        return list(state.outcome.returns)
    game, players = state.game, state.players
    if game.running_score is None:
        return [1.0 / players] * players
    scores = tuple(game.score_of(state, seat) for seat in range(1, players + 1))
    return list(Outcome.from_scores(scores).returns)


def sample_chance(state: "State", rand: Callable[[], float]) -> Action:
    """At a CHANCE node, one of ``state.chance_outcomes()`` drawn by its probability (``rand()`` in [0, 1)).

    >>> class Die:  # a stand-in for a state at a chance node: a die that shows 1 or 2, 2 three times in four
    ...     def chance_outcomes(self): return [("roll 1", 0.25), ("roll 2", 0.75)]
    >>> sample_chance(Die(), lambda: 0.2), sample_chance(Die(), lambda: 0.3)
    ('roll 1', 'roll 2')
    """
    outcomes = state.chance_outcomes()
    x = rand()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def play_random(state: "State", rand: Callable[[], float]) -> None:
    """Play a uniformly random legal action on ``state``, or at a CHANCE node a result drawn by its probability."""
    if state.chance is not None:
        state.apply(sample_chance(state, rand), undo=False)
    else:
        state.play(int(rand() * len(state.legal_actions())))


def rollout(state: "State", rand: Callable[[], float], cap: int = ROLLOUT_CAP) -> list[float]:
    """Play random actions (as :func:`play_random` does) on ``state`` (changing it) to the end, or ``cap`` actions;
    the returns.  The loop of every search iteration: each move is a legal action's index, played by the kernel."""
    play_out(state, rand, cap)
    return estimated_returns(state)


def play_out(state: "State", rand: Callable[[], float], cap: int) -> int:
    """Play random actions on ``state`` to the end, or ``cap`` actions, as :func:`rollout` does; how many it played.

    >>> import engine, random
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> play_out(s, random.Random(0).random, 3)
    3
    """
    left = cap
    while left > 0 and state.outcome is None:
        if state.chance is not None:
            state.apply(sample_chance(state, rand), undo=False)
            left -= 1
        else:
            left -= state.play_randomly(rand, left)
    return cap - left
