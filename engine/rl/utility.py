"""What a finished game is worth to each seat, for learning: the engine's returns or the game's scores.

Shared by the PettingZoo environment (its rewards) and the OpenSpiel game (its ``returns``), so the same
``utility`` means the same numbers in both:

* ``returns``: :meth:`State.returns` — 1 a sole winner, 1/k for k seats sharing a win, else 0 (1 for every seat
  when goals decide and one is reached);
* ``zero-sum-returns``: the same made zero-sum, each return times the number of players, less 1 (with two players
  1 a win, -1 a loss, 0 a draw), for a game of two seats or more that goals do not decide;
* ``scores``: each seat's final score (the chips won or lost, the points);
* ``zero-sum-scores``: the scores, which must sum to 0 (a final position whose scores do not is an error).

Example::

    sums_to_one = checked_utility(game, 2, "zero-sum-returns")
    rewards = final_utilities(state, "zero-sum-returns", sums_to_one)   # [1.0, -1.0]: seat 1 won
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.blocks.outcome import Ranking
from engine.core.errors import RulecraftError
from engine.core.showtext import cut

if TYPE_CHECKING:
    from engine.model.game import Game
    from engine.model.state import State

UTILITIES = ("returns", "zero-sum-returns", "scores", "zero-sum-scores")
"""The utilities a game's end may be valued by, the default first."""


def checked_utility(game: "Game", players: int, utility: object) -> bool:
    """Whether ``game``'s returns for ``players`` sum to 1 (two seats or more, no goals, no ``nobody_wins``: a game
    that may end with no winner pays every seat 0) when ``utility`` reads them;
    a utility that is no text is a TypeError, one not in :data:`UTILITIES` or ``zero-sum-returns`` for a game whose
    returns do not sum to 1 a ValueError, each saying what it takes.

    >>> import engine
    >>> checked_utility(engine.load(engine.builtin_names()[0]), 2, "returns")
    True
    >>> checked_utility(engine.load(engine.builtin_names()[0]), 2, "chips")
    Traceback (most recent call last):
    ValueError: utility is one of returns, zero-sum-returns, scores, zero-sum-scores, not 'chips'
    """
    if not isinstance(utility, str):
        raise TypeError(f"utility is a text (returns, zero-sum-returns, scores, zero-sum-scores), not {cut(repr(utility), 60)}")
    if utility not in UTILITIES:
        raise ValueError(f"utility is one of {', '.join(UTILITIES)}, not {cut(repr(utility), 60)}")
    nobody = any(isinstance(block, Ranking) and block.nobody is not None for counts, block in game.outcomes
                 if players in counts)  # nobody_wins: a game may end with every return 0
    constant = (utility in ("returns", "zero-sum-returns") and players >= 2 and not game.cooperative(players)
                and not nobody)
    if utility == "zero-sum-returns" and not constant:
        raise ValueError(f"utility=zero-sum-returns needs a game of two players or more whose returns sum to 1 (not "
                         f"one that goals decide, nor one that may end with nobody winning: nobody_wins): {game.name} "
                         f"for {players} players is not; use returns")
    return constant


def final_utilities(state: "State", utility: str, constant_sum: bool) -> list[float]:
    """Each seat's value of the finished game ``state`` by ``utility`` (see the module's docstring); returns that
    should sum to 1 (``constant_sum``, from :func:`checked_utility`) and do not, or scores that should sum to 0 and
    do not, are a RulecraftError rather than a wrong result.

    >>> import engine
    >>> state = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> while not state.is_terminal:
    ...     state.play(0)
    >>> final_utilities(state, "zero-sum-returns", True) == [2 * r - 1 for r in state.returns()]
    True
    """
    if utility in ("returns", "zero-sum-returns"):
        values = [float(v) for v in state.returns()]
        if constant_sum and abs(sum(values) - 1.0) > 1e-9:
            raise RulecraftError(f"{state.game.name}: the returns {values} do not sum to 1, as a game without "
                                 "goals should")
        return values if utility == "returns" else [v * state.players - 1.0 for v in values]
    assert state.outcome is not None
    values = [float(v) for v in state.outcome.scores]
    if utility == "zero-sum-scores" and sum(values) != 0:
        raise RulecraftError(f"{state.game.name}: the final scores {values} do not sum to 0: "
                             "use utility=scores for a game that is not zero-sum")
    return values
