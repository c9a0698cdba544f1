"""How long a search thinks and how it explores: ``mcts:400``, ``ismcts:0.5s:c=2:depth=60``.

>>> spec = SearchSpec.parse("mcts", "400:c=2"); spec.budget.iterations, spec.exploration
(400, 2.0)
"""

from __future__ import annotations

import math
import random
import time
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TypeVar

from engine.core.actions import Action
from engine.core.numerals import in_digits, not_digits, odd_digits
from engine.runner.agents.registry import AGENT_FORMS
from engine.runner.agents.rollouts import MAX_DEPTH, ROLLOUT_CAP
from engine.runner.agents.seats import refuse_no_seat
from engine.runner.collector import collector_paused

if TYPE_CHECKING:
    from engine.model.state import State


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
    if not in_digits(text, whole=convert is int):  # int() and float() read '٣' and '1_000' too
        if odd_digits(text):
            raise ValueError(f"'{kind}:{argument}': {not_digits(text)}")
        value = None
    else:
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
        """The action the search finds best (the only legal one at once, unsearched)."""
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
