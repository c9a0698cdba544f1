"""``greedy``: one ply, each result scored by the running score or short random rollouts.

>>> from engine.runner.agents import make_agent
>>> make_agent("greedy", seed=0).name
'greedy'
"""

from __future__ import annotations

import math
import random
import time
from statistics import fmean
from typing import TYPE_CHECKING, Sequence

from engine.core.actions import Action
from engine.core.information import determinize
from engine.core.numerals import in_digits, not_digits, odd_digits
from engine.runner.agents.registry import Agent, agent_kind
from engine.runner.agents.rollouts import MAX_DEPTH, estimated_returns, play_out, play_random
from engine.runner.agents.seats import detach, refuse_no_seat

if TYPE_CHECKING:
    from engine.model.state import State


MAX_GREEDY_WORK = 100_000_000
"""The most random actions ``greedy:work=N`` may let the greedy bot's rollouts play for one decision."""

GREEDY_DEPTH = 100
"""Random actions each of the greedy bot's rollouts plays at most (``greedy:depth=D`` changes it): it plays
several rollouts per candidate action at every decision, so a long game without a running score would otherwise
take minutes per decision."""

GREEDY_WORK = 2000
"""Random actions the greedy bot's rollouts play at most in all for one decision (``greedy:work=N`` changes it),
shared evenly among its options: a long game without a running score played 16,000 a decision (8 rollouts of
100 actions for each of 20 ways to move), about 12 seconds.  A short game's rollouts never reach it (a shipped game's decision plays under 250)."""

Value = tuple[int, float]
"""How good a result is for a seat: (2 outright win | 1 game goes on or is shared | 0 loss, score)."""


class GreedyAgent:
    """One ply: the action whose result scores best for the acting seat (ties broken at random).

    A result is scored with the ruleset's ``running_score`` for the seat, or,
    when the ruleset declares none, with the mean return of ``rollouts``
    random rollouts; a finished game counts as an outright win or loss.  When
    the action leaves a decision of the same turn pending (e.g. the order of
    clashes after a placement), the seat's best way to finish its turn is
    searched, up to ``lookahead`` states per action, the rest of the turn
    played at random beyond that.  A rollout stops after ``depth`` random
    actions and scores the position as :func:`estimated_returns` does.  The
    rollouts of one decision play about ``work`` random actions at most: each
    option has an even share (shared again among the ways to finish the turn
    after it), its rollouts stop once they have played it, and a rollout is
    cut at what is left of it — fewer and shorter rollouts where the game is
    long, the same ones where it is short.  With more options than ``work``,
    each option tried costs an action at least, so ``work`` of them are tried,
    drawn at random (a choice among 10,000 numbers took minutes a decision).
    With ``at_most`` seconds, it tries no option after that time has passed
    and chooses among those tried (the server's bots think at most so long).
    """

    def __init__(self, rng: random.Random, rollouts: int = 8, lookahead: int = 64, depth: int = GREEDY_DEPTH,
                 work: int = GREEDY_WORK, at_most: float | None = None) -> None:
        self.rng = rng
        self.rollouts = rollouts
        self.lookahead = lookahead
        self.depth = depth
        self.work = work
        self.at_most = at_most

    @property
    def name(self) -> str:
        """The spec that makes this agent (``greedy``, ``greedy:depth=30``), as play and its hints name it.

        >>> GreedyAgent(random.Random(0)).name, GreedyAgent(random.Random(0), depth=30, work=500).name
        ('greedy', 'greedy:depth=30:work=500')
        """
        settings = [f"depth={self.depth}"] if self.depth != GREEDY_DEPTH else []
        if self.work != GREEDY_WORK:
            settings.append(f"work={self.work}")
        return ":".join(["greedy", *settings])

    def choose(self, state: "State") -> Action:
        """The legal action worth most to the seat to move one move ahead, tried on a sample of what it cannot see."""
        refuse_no_seat(state, self.name)
        me = state.seat_to_move
        sample = determinize(state, me, self.rng)
        space = sample.legal_actions()
        options: Sequence[int] = range(len(space))
        if len(space) > self.work:  # more options than actions to spend: each option tried is one, so try that many
            options = sorted(self.rng.sample(options, self.work))
        share = self.work / len(options)
        deadline = None if self.at_most is None else time.perf_counter() + self.at_most
        values: list[Value] = []
        for i in options:
            values.append(self._value_after(sample, i, me, [self.lookahead], share))
            if deadline is not None and time.perf_counter() > deadline:
                break  # out of time: the best of the options tried
        best = max(values)
        picks = [i for i, value in zip(options, values) if value == best]
        return detach(space[self.rng.choice(picks)])

    def _value_after(self, s: "State", index: int, me: int, budget: list[int], work: float, last: bool = False) -> Value:
        """The value for ``me`` of action ``index`` of ``s`` (and the best rest of the turn), its rollouts playing
        about ``work`` random actions in all.  With ``last`` (``s`` is a state of the search's own that nothing reads
        after this action) the action is played on ``s`` itself: no copy, and an effect waiting on ``s`` goes on in
        its own coroutine instead of being replayed on a copy."""
        child = s if last else s.clone()
        turn = child.turn_number
        child.play(index)  # apply(legal_actions()[index], undo=False) with no Action built
        return self._value(child, me, turn, budget, work)

    def _value(self, s: "State", me: int, turn: int, budget: list[int], work: float) -> Value:
        if s.outcome is None and s.turn_number == turn:
            count = len(s.legal_actions())
            if s.chance is None and budget[0] >= count:  # the dice are not the seat's to choose
                budget[0] -= count
                return max(self._value_after(s, i, me, budget, work / count, i == count - 1) for i in range(count))
            self._finish_turn(s, turn)
        return self._score(s, me, work)

    def _finish_turn(self, s: "State", turn: int) -> None:
        rand = self.rng.random
        while s.outcome is None and s.turn_number == turn:
            play_random(s, rand)

    def _score(self, s: "State", me: int, work: float) -> Value:
        if s.outcome is not None:
            share = s.outcome.returns[me - 1]
            if share >= 1.0:
                return (2, 1.0)
            if share <= 0.0:
                return (0, 0.0)
        if s.game.running_score is not None:
            return (1, float(s.game.score_of(s, me)))
        return (1, self._rollouts(s, me, work))

    def _rollouts(self, s: "State", me: int, work: float) -> float:
        """``me``'s mean return over up to ``rollouts`` rollouts from ``s``, which stop once they have played ``work``
        random actions in all (the first always plays at least one), each cut at what is left of it.

        >>> import dataclasses, engine
        >>> game = dataclasses.replace(engine.load(engine.builtin_names()[0]), running_score=None)
        >>> s = game.new_state(players=2, seed=1)
        >>> GreedyAgent(random.Random(0))._rollouts(s, 1, work=2.5)  # a rollout of 2 actions, one of 1: a draw each
        0.5
        """
        rand, spent = self.rng.random, 0
        returns: list[float] = []
        while len(returns) < self.rollouts and (not returns or spent < work):
            copy = s.clone()
            copy.dropped = True  # read only for its returns (see State.dropped)
            spent += play_out(copy, rand, min(self.depth, max(1, math.ceil(work - spent))))
            returns.append(estimated_returns(copy)[me - 1])
        return fmean(returns)


@agent_kind("greedy")
def _greedy(argument: str | None, rng: random.Random) -> Agent:
    """``greedy``, ``greedy:depth=D`` for rollouts of at most D actions, ``greedy:work=N`` for rollouts playing
    at most N actions a decision in all (both: ``greedy:depth=D:work=N``).

    >>> from engine.runner.agents import make_agent
    >>> bot = make_agent("greedy:depth=30:work=500", seed=0); bot.depth, bot.work
    (30, 500)
    """
    settings: dict[str, int] = {}
    for part in argument.split(":") if argument is not None else ():
        setting, sep, value = (text.strip().lower() for text in part.partition("="))
        limit = MAX_DEPTH if setting == "depth" else MAX_GREEDY_WORK
        number = int(value) if sep and setting in ("depth", "work") and in_digits(value) else 0
        if not 1 <= number <= limit or setting in settings:
            odd = f"{not_digits(value)}; " if sep and odd_digits(value) else ""
            raise ValueError(odd +
                f"agent 'greedy' takes no argument but depth=D, the most random actions each of its rollouts plays "
                f"(a whole number from 1 to {MAX_DEPTH:,}, default {GREEDY_DEPTH}), and work=N, the most they play "
                f"in all for one decision (from 1 to {MAX_GREEDY_WORK:,}, default {GREEDY_WORK:,}), each once, e.g. "
                f"greedy:depth=60 or greedy:work=10000; got 'greedy:{argument}'")
        settings[setting] = number
    return GreedyAgent(rng, depth=settings.get("depth", GREEDY_DEPTH), work=settings.get("work", GREEDY_WORK))
