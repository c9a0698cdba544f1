"""Agents: who chooses an action when it is a seat's turn.

An agent decides only from what its seat may see: it plans on a
determinization (:func:`engine.core.information.determinize`) of the state, never
on the hidden parts of the real one.  Agents are made from short spec strings,
``name`` or ``name:argument``; each name is registered with :func:`agent_kind`
(with the forms it accepts, for error messages), so new agents slot in without
touching the parser.

* ``random``: a uniformly random legal action;
* ``greedy``: one ply, scored with the ruleset's ``running_score`` (or short
  random rollouts when the ruleset declares none, at most :data:`GREEDY_DEPTH`
  actions each, or D with ``greedy:depth=D``, and :data:`GREEDY_WORK` in all
  a decision, or N with ``greedy:work=N``);
* ``mcts:N`` / ``mcts:Ts``: UCT with random rollouts on one determinization,
  N iterations or T seconds per decision (``mcts:400``, ``mcts:0.5s``);
* ``ismcts:N`` / ``ismcts:Ts``: information-set MCTS, a fresh determinization
  every iteration — the search that suits games with hidden information
  (:func:`default_search`).
* ``policy:FILE``: the legal action a saved policy (JSON, see
  :class:`PolicyAgent`) values most, e.g. one trained with :mod:`engine.rl`.

Both searches keep one tree per seat, each holding the game as that seat
observed it (:class:`MultiObserverSearch`), so a sealed decision — a card
committed face down, revealed later with the others — is searched as
simultaneous: no seat's choice depends on another's sealed choice.

Both searches take an exploration constant as ``:c=C`` (``mcts:400:c=2``), and
the most random actions a rollout plays as ``:depth=D`` (``mcts:200:depth=60``;
default :data:`ROLLOUT_CAP`): a rollout cut off there scores the position by the
ruleset's ``running_score`` (the leading seats share the win), or as a draw
among all seats when the ruleset declares none.  Long games (thousands of
actions) need a depth to be searched in reasonable time.
In a game created with ``explicit_chance=True`` they, and the random rollouts,
draw each chance event's result by its probability (``state.chance_outcomes()``);
the results are edges every seat's tree shares.

Example::

    state = engine.load("my-game").new_state(players=2, seed=7)
    agent = make_agent("mcts:50", seed=1)
    action = agent.choose(state)          # decided from what seat to move may see

>>> make_agent("oracle", seed=0)
Traceback (most recent call last):
ValueError: unknown agent 'oracle'; known agents: random, greedy, mcts:N, mcts:Ts, ismcts:N, ismcts:Ts, policy:FILE (searches also take :c=C and :depth=D, e.g. mcts:400:c=2:depth=60)
"""

from __future__ import annotations

import json
import math
import operator
import random
import time
from pathlib import Path
import dataclasses
from dataclasses import dataclass
from itertools import repeat
from statistics import fmean
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol, Sequence, TypeVar

from engine.blocks.choices import CHOICE, hides_a_component, public_choice
from engine.blocks.outcome import Outcome
from engine.core.actions import Action
from engine.core.confine import FileRefused, read_bytes
from engine.core.decisions import CHANCE
from engine.core.information import determinize, determinizer, has_hidden_information
from engine.core.errors import RulecraftError
from engine.core.showtext import cut, players as players_text
from engine.runner.collector import collector_paused

if TYPE_CHECKING:
    from engine.core.actions import ActionSpace
    from engine.model.game import Game
    from engine.model.state import State


class Agent(Protocol):
    """Chooses one of the current player's legal actions: ``state.apply(agent.choose(state))``."""

    name: str

    def choose(self, state: "State") -> "Action":
        """One of ``state.legal_actions()``, decided from what the seat to move may see."""
        ...


AgentFactory = Callable[[str | None, random.Random], Agent]
"""Makes an agent from the spec's argument (text after ':', or None) and its generator."""

AGENT_KINDS: dict[str, AgentFactory] = {}
AGENT_FORMS: dict[str, str] = {}
"""The spec forms each kind accepts, in words for error messages (``mcts:N, mcts:Ts``)."""

SEARCH_FORMS_NOTE = "searches also take :c=C and :depth=D, e.g. mcts:400:c=2:depth=60"


def agent_kind(name: str, forms: str | None = None) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: register a factory under ``name`` for :func:`make_agent` (``forms`` defaults to the name).

    Specs are read without regard to case, so ``@agent_kind("MyBot")`` is found as ``mybot`` and ``MyBot`` alike.
    """

    def register(factory: AgentFactory) -> AgentFactory:
        AGENT_KINDS[name.strip().lower()] = factory
        AGENT_FORMS[name] = forms or name
        return factory

    return register


def kinds_only_here(specs: Iterable[str]) -> list[str]:
    """The specs whose kind was registered in ``__main__`` (a script run, an interactive session): a worker that is
    not forked from this process (a Ray task) never runs that code, so the kind is unknown there.

    >>> kinds_only_here(["random", "mcts:50"])
    []
    """
    def module(spec: str) -> str | None:
        return getattr(AGENT_KINDS.get(spec.strip().partition(":")[0].strip().lower()), "__module__", None)

    return [spec for spec in specs if module(spec) == "__main__"]


def assign_seats(entries: Iterable[str], players: int) -> dict[int, str]:
    """Who plays each seat, from ``N=WHO`` entries (``human`` or an agent spec, unchecked): seat 1 is human and
    the others random unless an entry says otherwise.

    Raises ValueError naming a malformed entry, a seat the game lacks or a seat named twice.

    >>> assign_seats(["2=greedy"], 3)
    {1: 'human', 2: 'greedy', 3: 'random'}
    >>> assign_seats(["2=human", "2=random"], 2)
    Traceback (most recent call last):
    ValueError: seat 2 is named twice (2=human, 2=random): say once who plays it
    """
    seats = {seat: "human" if seat == 1 else "random" for seat in range(1, players + 1)}
    given: dict[int, str] = {}
    for entry in entries:
        number, sep, who = entry.partition("=")
        if not sep or not number.strip().isdecimal():  # isdigit passes "²", which int() refuses
            raise ValueError(f"'{entry}' is not SEAT=WHO (e.g. 2=human or 1=random)")
        seat = int(number)
        if not 1 <= seat <= players:
            raise ValueError(f"there is no seat {seat} with {players_text(players)}")
        if seat in given:
            raise ValueError(f"seat {seat} is named twice ({given[seat]}, {entry.strip()}): say once who plays it")
        given[seat] = entry.strip()
        seats[seat] = who.strip()
    return seats


def make_agent(spec: str, seed: int) -> Agent:
    """The agent a spec names (``name`` or ``name:argument``), seeded with ``seed``.

    A spec is text: an agent object is refused with a TypeError saying how to name its kind.

    >>> make_agent("mcts:50", seed=1).name
    'mcts:50'
    """
    if not isinstance(spec, str):
        raise TypeError(f"an agent spec is text such as 'random' or 'mcts:400', not {type(spec).__name__} "
                        f"{cut(repr(spec), 60)} (an agent class of your own is named once registered with "
                        "engine.runner.agents.agent_kind)")
    name, sep, argument = spec.strip().partition(":")
    factory = AGENT_KINDS.get(name.strip().lower())
    if factory is None:
        known = ", ".join(AGENT_FORMS.values())
        raise ValueError(f"unknown agent '{spec}'; known agents: {known} ({SEARCH_FORMS_NOTE})")
    try:
        seeded = random.Random(operator.index(seed))  # NumPy's ints too
    except TypeError:
        raise TypeError(f"an agent's seed is a whole number, not {cut(repr(seed), 60)}") from None
    return factory(argument.strip() if sep else None, seeded)


def default_search(game: "Game", budget: str = "200") -> str:
    """The search bot that suits a game: ``ismcts`` where some seat may not see everything, else ``mcts``.

    Example: ``default_search(engine.load("my-game"))`` is ``"ismcts:200"`` for a game with hidden hands.
    """
    return f"{'ismcts' if has_hidden_information(game) else 'mcts'}:{budget}"


def detach(action: Action) -> Action:
    """The same decision, no longer tied to the (sampled) state that listed it."""
    return Action(action.step, action.args)


def refuse_no_seat(state: "State", agent: str) -> None:
    """Raise ValueError when no seat decides now — the game is over, or it waits for a chance result — so no agent
    may choose.

    >>> import engine
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> refuse_no_seat(s, "random") is None
    True
    """
    if state.chance is not None:
        raise ValueError(f"{agent} was asked to choose at a chance node (state.current_player is engine.CHANCE): "
                         "no seat decides there; apply one of state.chance_outcomes(), or "
                         "engine.runner.agents.sample_chance(state, rng.random) to draw one by its probability")
    if state.outcome is not None:
        raise ValueError(f"{agent} was asked to choose in a game that is over (state.is_terminal): no seat decides")


def choose_for_seat(agent: Agent, state: "State", seat: int, rng: random.Random) -> Action:
    """``seat``'s part of the decision now, chosen by ``agent`` — at a SIMULTANEOUS node, without any other seat's
    sealed choice.

    For the seat to move this is ``agent.choose(state)``.  For a later seat of a
    simultaneous round, the seats before it are played at random on a
    determinization from its view (their choices are sealed: whatever they are,
    ``seat`` sees the same), and ``agent`` chooses there; the answer is one of
    ``state.legal_actions(seat)``, for :meth:`State.apply_joint`.

    Example: ``{seat: choose_for_seat(bots[seat], state, seat, rng) for seat in state.simultaneous_seats()}``
    is a joint action (see :func:`joint_choice`).
    """
    if seat == state.seat_to_move:
        return agent.choose(state)
    if seat not in state.simultaneous_seats():
        raise ValueError(f"seat {seat} has no decision now (deciding: {', '.join(map(str, state.simultaneous_seats() or (state.seat_to_move,)))})")
    view = determinize(state, seat, rng)
    while view.seat_to_move != seat:
        view.play(rng.randrange(len(view.legal_actions())))
    text = str(agent.choose(view))
    for action in state.legal_actions(seat):
        if str(action) == text:
            return action
    raise ValueError(f"{agent.name} chose '{text}' for seat {seat}, which is not one of its actions")


def joint_choice(agents: "dict[int, Agent]", state: "State", rng: random.Random) -> dict[int, Action]:
    """Every deciding seat's action at a SIMULTANEOUS node, each chosen by its own agent without the others' (see
    :func:`choose_for_seat`); elsewhere the one action of the seat to move.  Apply it with ``state.apply_joint``."""
    refuse_no_seat(state, "joint_choice")
    seats = state.simultaneous_seats() or (state.seat_to_move,)
    missing = [str(seat) for seat in seats if seat not in agents]
    if missing:
        raise ValueError(f"joint_choice needs an agent for every deciding seat ({', '.join(map(str, seats))}): "
                         f"none for {', '.join(missing)}")
    return {seat: choose_for_seat(agents[seat], state, seat, rng) for seat in seats}


# ---------------------------------------------------------------- random


class RandomAgent:
    """Picks a legal action uniformly at random with an injected generator."""

    name = "random"

    def __init__(self, rng: random.Random | int = 0) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, state: "State") -> "Action":
        if state.chance is not None or state.outcome is not None:
            refuse_no_seat(state, self.name)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the random agent was asked to move with no legal action")
        return actions[self.rng.randrange(len(actions))]


@agent_kind("random")
def _random(argument: str | None, rng: random.Random) -> Agent:
    if argument is not None:
        raise ValueError(f"agent 'random' takes no argument (got 'random:{argument}')")
    return RandomAgent(rng)


# ---------------------------------------------------------------- playouts

ROLLOUT_CAP = 1000
"""Random actions a rollout plays at most before the running score decides (a search's ``:depth=D`` changes it)."""

MAX_DEPTH = 1_000_000
"""The largest rollout depth a search spec may give."""

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

    >>> import engine
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


# ---------------------------------------------------------------- greedy

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

    def _value_after(self, s: "State", index: int, me: int, budget: list[int], work: float) -> Value:
        """The value for ``me`` of action ``index`` of ``s`` (and the best rest of the turn), its rollouts playing
        about ``work`` random actions in all."""
        child = s.clone()
        turn = child.turn_number
        child.apply(child.legal_actions()[index], undo=False)
        return self._value(child, me, turn, budget, work)

    def _value(self, s: "State", me: int, turn: int, budget: list[int], work: float) -> Value:
        if s.outcome is None and s.turn_number == turn:
            count = len(s.legal_actions())
            if s.chance is None and budget[0] >= count:  # the dice are not the seat's to choose
                budget[0] -= count
                return max(self._value_after(s, i, me, budget, work / count) for i in range(count))
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

        >>> import engine
        >>> game = dataclasses.replace(engine.load(engine.builtin_names()[0]), running_score=None)
        >>> s = game.new_state(players=2, seed=1)
        >>> GreedyAgent(random.Random(0))._rollouts(s, 1, work=2.5)  # a rollout of 2 actions, one of 1: a draw each
        0.5
        """
        rand, returns, spent = self.rng.random, [], 0
        while len(returns) < self.rollouts and (not returns or spent < work):
            copy = s.clone()
            spent += play_out(copy, rand, min(self.depth, max(1, math.ceil(work - spent))))
            returns.append(estimated_returns(copy)[me - 1])
        return fmean(returns)


@agent_kind("greedy")
def _greedy(argument: str | None, rng: random.Random) -> Agent:
    """``greedy``, ``greedy:depth=D`` for rollouts of at most D actions, ``greedy:work=N`` for rollouts playing
    at most N actions a decision in all (both: ``greedy:depth=D:work=N``).

    >>> bot = make_agent("greedy:depth=30:work=500", seed=0); bot.depth, bot.work
    (30, 500)
    """
    settings: dict[str, int] = {}
    for part in argument.split(":") if argument is not None else ():
        setting, sep, value = (text.strip().lower() for text in part.partition("="))
        limit = MAX_DEPTH if setting == "depth" else MAX_GREEDY_WORK
        number = int(value) if sep and setting in ("depth", "work") and value.isdecimal() else 0
        if not 1 <= number <= limit or setting in settings:
            raise ValueError(
                f"agent 'greedy' takes no argument but depth=D, the most random actions each of its rollouts plays "
                f"(a whole number from 1 to {MAX_DEPTH:,}, default {GREEDY_DEPTH}), and work=N, the most they play "
                f"in all for one decision (from 1 to {MAX_GREEDY_WORK:,}, default {GREEDY_WORK:,}), each once, e.g. "
                f"greedy:depth=60 or greedy:work=10000; got 'greedy:{argument}'")
        settings[setting] = number
    return GreedyAgent(rng, depth=settings.get("depth", GREEDY_DEPTH), work=settings.get("work", GREEDY_WORK))


# ---------------------------------------------------------------- search budgets and specs

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 1.4
MAX_ITERATIONS = 10_000_000
"""The most iterations a search may run per decision (``mcts:N``)."""
MAX_SECONDS = 3600.0
"""The most seconds a search may think per decision (``mcts:Ts``): an hour."""


@dataclass(frozen=True)
class Budget:
    """How long a search runs per decision: ``iterations``, or ``seconds`` when that is set; with ``at_most``,
    ``iterations`` stop after that many seconds too (the server's bots: ``mcts:5000`` on a slow game).

    >>> run = Budget(iterations=10**9, at_most=0.0).runner()
    >>> run(0), run(1)
    (True, False)
    """

    iterations: int = DEFAULT_ITERATIONS
    seconds: float | None = None
    at_most: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)

    def runner(self) -> Callable[[int], bool]:
        """A test ``may iteration i run?`` starting now (the first iteration always runs)."""
        if self.seconds is None:
            limit = self.iterations
            if self.at_most is None:
                return lambda i: i < limit
            cut_off = time.perf_counter() + self.at_most
            return lambda i: i == 0 or i < limit and time.perf_counter() < cut_off
        deadline = time.perf_counter() + min(self.seconds, self.at_most if self.at_most is not None else self.seconds)
        return lambda i: i == 0 or time.perf_counter() < deadline


@dataclass(frozen=True)
class SearchStats:
    """What the last search did: iterations run and seconds taken."""

    iterations: int
    seconds: float


@dataclass(frozen=True)
class SearchSpec:
    """A search's settings, read from the argument of ``mcts:...`` / ``ismcts:...``."""

    kind: str
    budget: Budget = Budget()
    exploration: float = DEFAULT_EXPLORATION
    depth: int = ROLLOUT_CAP  # the most random actions a rollout plays before the running score decides

    @property
    def name(self) -> str:
        """The canonical spec (``mcts:400``, ``ismcts:2s:c=2``, ``mcts:200:depth=60``)."""
        c = "" if self.exploration == DEFAULT_EXPLORATION else f":c={self.exploration:g}"
        depth = "" if self.depth == ROLLOUT_CAP else f":depth={self.depth}"
        return f"{self.kind}:{self.budget}{c}{depth}"

    @classmethod
    def parse(cls, kind: str, argument: str | None) -> "SearchSpec":
        """``N``, ``Ts``, ``c=C`` and ``depth=D`` parts separated by ':' (any may be left out); ValueError otherwise.

        >>> SearchSpec.parse("mcts", "200:depth=60").depth
        60
        """
        spec = cls(kind)
        parts = argument.lower().split(":") if argument else []
        seen: set[str] = set()
        for part in map(str.strip, parts):
            setting = part.partition("=")[0].strip() if "=" in part else ""
            if setting not in ("", "c", "depth"):
                raise ValueError(f"'{kind}:{argument}' has no setting '{setting}': a search takes N iterations or Ts "
                                 "seconds, c=C and depth=D (e.g. mcts:400:c=2:depth=60)")
            said = setting or ("budget" if part else "")
            if said and said in seen:
                what = {"c": "exploration constant c", "depth": "rollout depth"}.get(said, said)
                raise ValueError(f"'{kind}:{argument}' gives its {what} twice: give it once")
            seen.add(said)
            value = part.partition("=")[2].strip()
            if setting == "c":
                spec = dataclasses.replace(spec, exploration=_number(value, float, kind, argument, 0.0))
            elif setting == "depth":
                spec = dataclasses.replace(spec, depth=_number(value, int, kind, argument, 1, MAX_DEPTH))
            elif part.endswith("s"):
                spec = dataclasses.replace(spec, budget=Budget(seconds=_number(part[:-1], float, kind, argument, 1e-9, MAX_SECONDS)))
            else:
                spec = dataclasses.replace(spec, budget=Budget(iterations=_number(part, int, kind, argument, 1, MAX_ITERATIONS)))
        return spec


Number = TypeVar("Number", int, float)


def _number(
    text: str, convert: Callable[[str], Number], kind: str, argument: str | None, minimum: Number,
    maximum: Number | None = None,
) -> Number:
    """``text`` as a finite number from ``minimum`` to ``maximum``; a ValueError showing the spec's forms otherwise.

    >>> _number("5000", int, "mcts", "5000", 1, MAX_ITERATIONS)
    5000
    """
    try:
        value = convert(text)
    except ValueError:
        value = None
    if value is not None and maximum == MAX_DEPTH and maximum < value < math.inf:
        raise ValueError(f"'{kind}:{argument}' asks for rollouts of {text} actions; a rollout plays at most "
                         f"{maximum:,.0f} actions")
    if value is not None and maximum is not None and maximum < value < math.inf:
        unit = "seconds" if convert is float else "iterations"
        raise ValueError(f"'{kind}:{argument}' asks for {text} {unit} per decision; a search runs at most "
                         f"{maximum:,.0f} {unit} per decision")
    if value is None or not minimum <= value < math.inf:
        raise ValueError(
            f"'{kind}:{argument}' is not a valid {kind} agent; write {AGENT_FORMS[kind]}, optionally followed "
            f"by :c=C and :depth=D (N iterations or T seconds per decision, e.g. {kind}:400 or {kind}:0.5s; "
            f"C the exploration constant, default {DEFAULT_EXPLORATION}; D the most random actions a rollout "
            f"plays before the running score decides, a whole number, default {ROLLOUT_CAP})"
        )
    return value


LOGS_AT_ONCE = 1024
"""How many more logarithms of availability counts are listed when a search needs more (see :func:`logs_past`)."""

_LOGS: list[float] = [-math.inf]  # math.log(n) at each n >= 1: replaced by a longer list, never changed


def logs_past(count: int) -> list[float]:
    """``math.log(n)`` at each index ``n`` from 1 to past ``count``, listed once for every search in the process:
    UCB reads an availability count's logarithm from it instead of calling ``math.log`` for every child.

    >>> logs = logs_past(5); len(logs) > 5 and logs[4] == math.log(4)
    True
    """
    global _LOGS
    logs = _LOGS
    if count >= len(logs):  # a new, longer list: a search reading the old one keeps it whole
        end = (count // LOGS_AT_ONCE + 1) * LOGS_AT_ONCE
        logs = _LOGS = logs + list(map(math.log, range(len(logs), end)))
    return logs


class SearchAgent:
    """What both searches share: settings, the time or iteration budget, and ``last``.

    A subclass searches with :meth:`search`; a decision with one legal action
    is taken without searching.
    """

    def __init__(self, rng: random.Random, spec: SearchSpec) -> None:
        self.rng = rng
        self.spec = spec
        self.name = spec.name
        self.last: SearchStats | None = None
        self._logs = logs_past(1)  # for UCB (see MultiObserverSearch._select)

    def choose(self, state: "State") -> Action:
        refuse_no_seat(state, self.name)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last = SearchStats(0, 0.0)
            return legal[0]
        start = time.perf_counter()
        with collector_paused():  # the tree only grows until the decision: the collector would find nothing to free
            action, iterations = self.search(state, self.spec.budget.runner())
        self.last = SearchStats(iterations, time.perf_counter() - start)
        return action

    def search(self, state: "State", running: Callable[[int], bool]) -> tuple[Action, int]:
        """The chosen action and the number of iterations run while ``running(i)`` held."""
        raise NotImplementedError


# ---------------------------------------------------------------- multi-observer trees

ActionKey = tuple[int, tuple[Any, ...]]
"""An action as one seat observes it: its step and arguments, or, for another seat's sealed decision, its step
and its public text (``commit a card``).  The same in every determinization, and faster than text."""


class _Node:
    """A node of one seat's tree: the history as that seat observed it; ``total`` sums the mover's returns.

    Where every seat has seen every decision so far, on MCTS's one determinization, the seats' trees are copies
    of each other, and one node stands for all of them; ``seats`` then holds each seat's own node (index 0
    unused) for what follows a decision that not every seat sees (see :meth:`MultiObserverSearch._iterate`).
    """

    __slots__ = ("action", "visits", "total", "available", "children", "seats")

    def __init__(self, action: Action | None) -> None:
        self.action = action  # the decision leading here (kept in the tree of the seat that made it)
        self.visits = 0
        self.total = 0.0
        self.available = 1  # iterations in which this action could be chosen at its parent
        self.children: dict[ActionKey, _Node] = {}
        self.seats: list[_Node] | None = None

    def split(self, players: int) -> list["_Node"]:
        """Each seat's own node from here on (index 0 unused), made the first time it is asked for."""
        if self.seats is None:
            self.seats = [_Node(None) for _ in range(players + 1)]
        return self.seats


Choices = tuple[int, Any, list[ActionKey], list["_Node | None"], list[int]]
"""What the mover may do at a position: the seat, the step deciding, the keys of its legal actions, the mover's
children for them (None: not expanded yet) and the indices of those not expanded, all in the legal order."""


class _Replay:
    """The way down one iteration of a fresh determinization: every action is played on the iteration's own sample.

    Example: ``walk = _Replay(determinize(state, me, rng)).play(key, 0)`` plays action 0 on that sample.
    """

    __slots__ = ("state",)

    def __init__(self, state: "State") -> None:
        self.state = state

    def choices(self, node: _Node | None, nodes: list[_Node]) -> Choices:
        """The :data:`Choices` at the sample's position, the children those of ``node`` (when None, of the
        mover's node among ``nodes``), looked up again at every step."""
        state = self.state
        mover = state.seat_to_move
        step, legal = _keys(state.legal_actions())
        children = (nodes[mover] if node is None else node).children
        found = [children.get(key) for key in legal]
        return mover, step, legal, found, [i for i, child in enumerate(found) if child is None]

    def expanded(self, node: _Node) -> None:
        """``node`` gained the child its choices show (nothing is kept here)."""

    def play(self, key: ActionKey, index: int) -> "_Replay":
        """On, after legal action ``index`` (its key ``key``)."""
        self.state.play(index)
        return self

    def resolve(self, key: ActionKey, action: Action) -> "_Replay":
        """On, after the chance result ``action`` (its key ``key``)."""
        self.state.apply(action, undo=False)
        return self

    def leaf(self) -> "State":
        """The state to roll out from (the sample itself: nothing else needs it)."""
        return self.state


KEPT_POSITIONS = 5_000
"""The most positions one MCTS search keeps (a state each, a few KB to tens of KB): past it, iterations play on."""


class _Position:
    """A position of the one determinization MCTS searches, kept with its legal keys and the positions after them.

    Playing the same actions on the same determinization leads to the same
    position, so an iteration walks down the positions earlier iterations
    reached instead of playing the tree's actions again: each edge is played
    once per search, and only the rollout's start is cloned.  A position's
    state is never changed.  Once the search keeps :data:`KEPT_POSITIONS`
    (``room`` is shared by all of its positions), a new position is not kept:
    the iteration goes on playing on a copy (:class:`_Replay`), as before.
    The position also keeps the mover's children for its legal keys (see
    :meth:`choices`), so a step down does not look them up one by one again.

    Example: ``root = _Position(determinize(state, me, rng)); child = root.play(root.choices(tree, [])[2][0], 0)``.
    """

    __slots__ = ("state", "after", "room", "_moves", "_node", "_size", "_choices")

    def __init__(self, state: "State", room: list[int] | None = None) -> None:
        self.state = state
        self.after: dict[ActionKey, _Position] = {}
        self.room = room if room is not None else [KEPT_POSITIONS]
        self._moves: tuple[int, Any, list[ActionKey], bool] | None = None  # mover, step, keys, whether no key repeats
        self._node: _Node | None = None  # whose children _choices holds, while it has _size of them
        self._size = 0
        self._choices: Choices | None = None

    def choices(self, node: _Node | None, nodes: list[_Node]) -> Choices:
        """The :data:`Choices` here, the children those of ``node`` (when None, of the mover's node among
        ``nodes``).  The legal keys are listed once; the children are looked up once, then kept as long as
        the node gains no child but through :meth:`expanded` (children are never taken away).  The lists are
        the caller's to change: an expansion fills its child in and takes its index out of the untried ones."""
        moves = self._moves
        if moves is None:
            step, legal = _keys(self.state.legal_actions())
            moves = self._moves = (self.state.seat_to_move, step, legal, len(set(legal)) == len(legal))
        mover, step, legal, unique = moves
        if node is None:
            node = nodes[mover]
        children = node.children
        if node is self._node and len(children) == self._size:
            return self._choices  # type: ignore[return-value]  # kept with _node
        found = [children.get(key) for key in legal]
        choices = mover, step, legal, found, [i for i, child in enumerate(found) if child is None]
        if unique:  # (an action listed twice has one child for both: looked up again each time)
            self._node, self._size, self._choices = node, len(children), choices
        return choices

    def expanded(self, node: _Node) -> None:
        """``node`` gained the child its choices (changed in place by the caller) now show."""
        if node is self._node:
            self._size += 1

    def play(self, key: ActionKey, index: int) -> _Walk:
        """The position after legal action ``index`` (its key ``key``), played the first time it is asked for."""
        child = self.after.get(key)
        return child if child is not None else self._reach(key, lambda s: s.play(index))

    def resolve(self, key: ActionKey, action: Action) -> _Walk:
        """The position after the chance result ``action`` (its key ``key``)."""
        child = self.after.get(key)
        return child if child is not None else self._reach(key, lambda s: s.apply(action, undo=False))

    def _reach(self, key: ActionKey, move: Callable[["State"], object]) -> _Walk:
        """The walk after ``move`` made on a copy of this position: kept as the position after ``key`` while there is
        room, else played on."""
        state = self.state.clone()
        move(state)
        if self.room[0] <= 0:
            return _Replay(state)
        self.room[0] -= 1
        child = self.after[key] = _Position(state, self.room)
        return child

    def leaf(self) -> "State":
        """A copy of the position to roll out from, its legal actions listed first: the copy and, if an iteration
        comes back, the position itself use the one list (spaces are never changed)."""
        state = self.state
        state.legal_actions()
        return state.clone()


_Walk = _Replay | _Position
"""How an iteration goes down from the root: on its own sample, or through the positions kept for one."""


def _keys(space: "ActionSpace") -> tuple[Any, list[ActionKey]]:
    """``space``'s step and the keys of its actions: no Action object per option."""
    step = space.step
    index = step.index
    return step, [(index, args) for args in space.all_args()]


class MultiObserverSearch(SearchAgent):
    """Information-set MCTS with one tree per seat (MO-ISMCTS; Cowling, Powley and Whitehouse, 2012).

    Every seat's decisions are chosen in that seat's own tree, whose nodes are
    the history *as that seat observed it*: another seat's sealed decision
    (a card committed face down) is one edge whatever was committed.  So no
    seat's choice ever depends on a choice another seat has sealed but not yet
    revealed — simultaneous decisions are searched as simultaneous, and hidden
    choices are not "answered" inside the tree.  Only the children legal in
    the current determinization compete, and UCB counts how often each child
    was available instead of the parent's visits.  Subclasses say which
    determinization each iteration searches (:meth:`starts`), and whether it is
    always the same one (``one_sample``): then, as long as every seat has seen
    every decision, the seats' trees are the same and are kept as one (see
    :meth:`_iterate`).
    """

    one_sample = False

    def starts(self, state: "State", me: int) -> Iterator[_Walk]:
        """Where each iteration starts down the trees, one after the other: a walk on the determinization it searches."""
        raise NotImplementedError

    def search(self, state: "State", running: Callable[[int], bool]) -> tuple[Action, int]:
        me = state.seat_to_move
        trees, done = self.grow(state, running)
        best = max(trees[me].children.values(), key=lambda n: (n.visits, n.total))
        assert best.action is not None
        return best.action, done

    def grow(self, state: "State", running: Callable[[int], bool]) -> tuple[list[_Node], int]:
        """Every seat's tree (``trees[seat]``; index 0 unused) after the iterations ``running`` allows."""
        root, players = _Node(None), state.players
        if not self.one_sample:
            root.split(players)
        starts = self.starts(state, state.seat_to_move)
        done, logs = 0, self._logs
        while running(done):
            if done + 2 >= len(logs):  # a child is available at most once an iteration: its count's logarithm is listed
                logs = self._logs = logs_past(done + 2)
            self._iterate(root, players, next(starts))
            done += 1
        trees = root.seats or [root] * (players + 1)
        for tree in trees[1:]:
            tree.visits = done
        return trees, done

    def _iterate(self, root: _Node, players: int, walk: _Walk) -> None:
        """Descend every seat's tree along one history, expand one node, roll out and back the result up.

        On one determinization (``one_sample``), a history every seat has seen whole is one position, and the
        seats' nodes for it would be copies of each other: they are one node, and a step down is one step, until
        a decision comes that some seat does not see (a sealed step, a hidden draw).  There the node splits into
        a node per seat (:meth:`_Node.split`), and each seat goes down its own tree from then on.
        """
        rand, node, select = self.rng.random, root, self._select
        common: list[tuple[_Node, int]] = []  # the nodes entered while all seats share them, each with the seat that moved
        expanded = False
        while node.seats is None and (s := walk.state).outcome is None:
            chance = s.chance
            if chance is not None:
                if chance.hidden:
                    break
                action = sample_chance(s, rand)
                key = (CHANCE, action.args)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(None)
                node = child
                walk = walk.resolve(key, action)
                continue
            mover, step, legal, children, untried = walk.choices(node, [])
            if step.sealed or step is CHOICE and _hides_a_choice(s) or _hides_an_exchange(s, step):  # seen differently:
                break  # a tree per seat from here
            if untried:
                index = untried.pop(int(rand() * len(untried)))
                key = legal[index]
                child = children[index] = node.children[key] = _Node(Action(step, key[1]))
                walk.expanded(node)
                expanded = True
            else:
                index = select(children)  # type: ignore[arg-type]  # all expanded
                key, child = legal[index], children[index]
            common.append((child, mover))  # type: ignore[arg-type]
            node = child  # type: ignore[assignment]
            walk = walk.play(key, index)
            if expanded:
                break
        paths: list[list[tuple[_Node, int]]] = []
        if not expanded and walk.state.outcome is None:
            paths, walk = self._iterate_split(node.split(players), walk, rand)
        returns = rollout(walk.leaf(), rand, self.spec.depth) if walk.state.outcome is None else list(walk.state.outcome.returns)
        for node, mover in common:
            node.visits += 1
            node.total += returns[mover - 1]
        for path in paths:
            for node, mover in path:
                node.visits += 1
                node.total += returns[mover - 1]

    def _iterate_split(self, trees: list[_Node], walk: _Walk,
                       rand: Callable[[], float]) -> tuple[list[list[tuple[_Node, int]]], _Walk]:
        """Descend each seat's own tree from ``trees[seat]`` and expand one node: each seat's path (the nodes entered,
        each with the seat that moved into it), and the walk where the iteration stopped."""
        seats, select = range(1, len(trees)), self._select
        nodes = trees[:]
        paths: list[list[tuple[_Node, int]]] = [[] for _ in trees]
        while (s := walk.state).outcome is None:
            if s.chance is not None:  # the dice fall as they may: an edge of every seat's tree, with no statistics
                action = sample_chance(s, rand)
                key = (CHANCE, action.args)
                hidden, seer = s.chance.hidden, s.chance.seer
                for seat in seats:
                    seen = key if not hidden or seat == seer else (CHANCE, ())  # a hidden draw: only its drawer knows what
                    child = nodes[seat].children.get(seen)
                    if child is None:
                        child = nodes[seat].children[seen] = _Node(None)
                    nodes[seat] = child
                walk = walk.resolve(key, action)
                continue
            mover, step, legal, children, untried = walk.choices(None, nodes)
            expanded = bool(untried)
            if expanded:
                index = untried.pop(int(rand() * len(untried)))
                key = legal[index]
                own = nodes[mover]
                own.children[key] = _Node(Action(step, key[1]))
                children[index] = own.children[key]
                walk.expanded(own)
            else:
                index = select(children)  # type: ignore[arg-type]  # all expanded
                key = legal[index]
            public_key = _public_key(s, step, key)
            for seat in seats:
                seen = key if seat == mover else public_key
                child = nodes[seat].children.get(seen)
                if child is None:
                    child = nodes[seat].children[seen] = _Node(None)
                nodes[seat] = child
                paths[seat].append((child, mover))
            walk = walk.play(key, index)
            if expanded:
                break
        return paths, walk

    def _select(self, children: list[_Node]) -> int:
        """Among the children legal now, the index of the highest UCB with availability counts (each count's
        logarithm read from :func:`logs_past`'s list: the very values ``math.log`` gives, without a call)."""
        c, logs, sqrt = self.spec.exploration, self._logs, math.sqrt
        best, best_score = 0, -math.inf
        for i, child in enumerate(children):
            available = child.available = child.available + 1
            visits = child.visits
            score = child.total / visits + c * sqrt(logs[available] / visits)
            if score > best_score:
                best, best_score = i, score
        return best


# ---------------------------------------------------------------- MCTS (one determinization per decision)


def _hides_a_choice(s: "State") -> bool:
    """Whether the choice waiting now picks among components some seat cannot see (from a hidden hand, say): the
    other seats see it as :meth:`State.public_text` says, by the components' kind and place."""
    pending = s.pending
    hides = pending.hides  # kept on the choice once worked out: searches ask at every step down the tree
    return hides if hides is not None else hides_a_component(s, pending)


def _hides_an_exchange(s: "State", step: Any) -> bool:
    """Whether the decision waiting now swaps components between zones some seat sees neither of (two hidden
    hands): the other seats see it by the components' kind and place, as :meth:`State.public_text` says."""
    hides = getattr(step, "hides_now", None)
    return hides is not None and hides(s)


def _public_key(s: "State", step: Any, key: ActionKey) -> ActionKey:
    """The edge the seats that do not take decision ``key`` follow in their trees: a sealed decision's public text,
    a choice or an exchange of components they cannot see by their kind and place, anything else the decision itself."""
    if step.sealed:
        return (step.index, (step.public_format(key[1]),))
    if step is CHOICE and s.pending is not None and hides_a_component(s, s.pending):
        hidden = public_choice(s, str(key[1][0]))
        if hidden is not None:
            return (step.index, (hidden,))
    seen = getattr(step, "public_text_at", None)  # an exchange between hidden hands: by the cards' kind and place
    if seen is not None:
        public = seen(s, key[1])
        if public != step.format(key[1]):
            return (step.index, (public,))
    return key


class MCTSAgent(MultiObserverSearch):
    """UCT with uniformly random rollouts on one determinization per decision.

    The seat's unseen information is sampled once per decision, then searched
    with one tree per seat (see :class:`MultiObserverSearch`), so sealed
    decisions stay sealed even on a sample; children are expanded in a random
    order; the most visited root action is played.
    """

    one_sample = True

    def starts(self, state: "State", me: int) -> Iterator[_Walk]:
        return repeat(_Position(determinize(state, me, self.rng)))


@agent_kind("mcts", "mcts:N, mcts:Ts")
def _mcts(argument: str | None, rng: random.Random) -> Agent:
    return MCTSAgent(rng, SearchSpec.parse("mcts", argument))


# ---------------------------------------------------------------- ISMCTS (a fresh determinization every iteration)


class ISMCTSAgent(MultiObserverSearch):
    """Multi-observer information-set MCTS: a fresh determinization of what the seat cannot see every iteration."""

    def starts(self, state: "State", me: int) -> Iterator[_Walk]:
        draw, rng = determinizer(state, me), self.rng
        while True:
            yield _Replay(draw(rng))


@agent_kind("ismcts", "ismcts:N, ismcts:Ts")
def _ismcts(argument: str | None, rng: random.Random) -> Agent:
    return ISMCTSAgent(rng, SearchSpec.parse("ismcts", argument))


# ---------------------------------------------------------------- a saved policy

POLICY_FORMAT = "rulecraft-policy"
"""The ``format`` a policy file declares."""

POLICY_MAX_BYTES = 20 * 1024 * 1024
"""Policy files larger than this are refused unread (a shipped game's whole action table takes under 1 MB)."""


class PolicyAgent:
    """Plays the legal action with the highest value in a table of action texts; ties are broken at random.

    A policy file is JSON: ``{"format": "rulecraft-policy", "ruleset": NAME,
    "default": V, "values": {"ACTION TEXT": VALUE, ...}}``; an action the table
    does not name is valued ``default``.  An action may be named by its text or
    by the shorter text the action table of :mod:`engine.rl` lists it as
    (:attr:`engine.blocks.enumeration.Texts.canonical`), so a policy written from that
    table's texts values every action it learned.  It decides from the seat's
    own legal actions only.

    >>> agent = PolicyAgent({"pick b": 1.0}, default=0.0, rng=random.Random(0))
    >>> agent.best(["pick a", "pick b"])
    'pick b'
    """

    name = "policy"

    def __init__(self, values: dict[str, float], default: float, rng: random.Random, ruleset: str | None = None) -> None:
        self.values = values
        self.default = default
        self.rng = rng
        self.ruleset = ruleset  # the ruleset the policy was written for (None: any)
        self._game: Any = None
        self._shortening: dict[int, Callable[[str], str] | None] = {}

    def best(self, texts: list[str]) -> str:
        """The most valued of ``texts`` (a random one of the best when several tie)."""
        value = self.values.get
        top = max(value(t, self.default) for t in texts)
        best = [t for t in texts if value(t, self.default) == top]
        return best[self.rng.randrange(len(best))]

    def choose(self, state: "State") -> "Action":
        refuse_no_seat(state, self.name)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the policy agent was asked to move with no legal action")
        if self.ruleset is not None and self.ruleset != state.game.name:
            raise RulecraftError(f"the policy file was written for the ruleset {cut(self.ruleset, 80)}, not {state.game.name} "
                             "(its 'ruleset' names the game whose action texts it values)")
        texts = [self.named(state, a) for a in actions]
        return actions[texts.index(self.best(texts))]

    def named(self, state: "State", action: "Action") -> str:
        """The text the policy names ``action`` by: its own, else its shortened one if the policy names that."""
        text = str(action)
        if text in self.values:
            return text
        shorten = self._shorten(state.game, action.step.index)
        return shorten(text) if shorten is not None and shorten(text) in self.values else text

    def _shorten(self, game: "Game", step: int) -> Callable[[str], str] | None:
        """How the action table shortens the texts of ``step`` (-1: the answers to ``choose``), kept per game."""
        from engine.blocks.enumeration import choice_texts

        if game is not self._game:
            self._game, self._shortening = game, {}
        if step not in self._shortening:
            texts = choice_texts(game) if step < 0 else game.steps[step].action_texts(game)
            self._shortening[step] = texts.canonical
        return self._shortening[step]


def read_policy(path: str) -> tuple[dict[str, float], float, str | None]:
    """The action values, default value and ruleset (None when not named) of a policy file; ValueError says what is
    wrong with it."""
    try:
        raw = read_bytes(Path(path), POLICY_MAX_BYTES, "policy file")  # a regular file only: never /dev/zero or a FIFO
    except FileRefused as err:
        raise ValueError(str(err)) from None
    except OSError as err:
        raise ValueError(f"cannot read the policy file {path}: {err.strerror or err}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:  # JSONDecodeError is a ValueError
        raise ValueError(f"{path} is not a policy file (not JSON: {err})") from None
    except RecursionError:
        raise ValueError(f"{path} is not a policy file (its JSON nests too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != POLICY_FORMAT:
        raise ValueError(f"{path} is not a policy file (it should say \"format\": \"{POLICY_FORMAT}\")")
    values, default = data.get("values"), data.get("default", 0.0)
    def number(value: object) -> bool:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:  # NaN
            return False
        try:
            float(value)
        except OverflowError:  # a whole number of hundreds of digits
            return False
        return True

    if not isinstance(values, dict) or not all(number(v) for v in values.values()) or not number(default):
        raise ValueError(f"{path}: 'values' should map action texts to numbers, and 'default' be a number")
    ruleset = data.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise ValueError(f"{path}: 'ruleset' should be the name of the ruleset the policy was written for")
    return {str(k): float(v) for k, v in values.items()}, float(default), ruleset


@agent_kind("policy", "policy:FILE")
def _policy(argument: str | None, rng: random.Random) -> Agent:
    if not argument:
        raise ValueError("agent 'policy' needs a policy file: policy:FILE (see docs/rl.md)")
    values, default, ruleset = read_policy(argument)
    return PolicyAgent(values, default, rng, ruleset)
