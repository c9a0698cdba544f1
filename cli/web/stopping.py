"""Work the server can stop: a simulation that checks, between two decisions, whether its request gave up.

A worker thread cannot be killed, so a request cut off by the time cap asks
its work to stop instead; :class:`StoppingExecutor` runs a simulation's
chunks in the request's thread, a few games each, and raises
:class:`Stopped` at the first decision after ``expired()`` turns true (a
game between search bots can take longer than the cap).  The report of a
whole run is the same as with any other executor.

>>> list(StoppingExecutor(lambda: False, games=10).map(abs, [-1, 2]))
[1, 2]
>>> list(StoppingExecutor(lambda: True, games=10).map(abs, [-1, 2]))
Traceback (most recent call last):
cli.web.stopping.Stopped: the request gave up waiting
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence, TypeVar

from engine.runner.simulate import counting_decisions

T = TypeVar("T")
R = TypeVar("R")

GAMES_PER_CHUNK = 4
"""About how many games run between two checks."""


class Stopped(Exception):
    """The work stopped because its request gave up waiting."""


class StoppingExecutor:
    """Runs chunks one by one in this thread, stopping when ``expired()``; sized for ``games`` games."""

    def __init__(self, expired: Callable[[], bool], games: int) -> None:
        self.expired = expired
        self.games = games

    @property
    def workers(self) -> int:
        # The runner cuts n games into chunks of n // (workers * 8): ask for small ones.
        return max(1, self.games // (GAMES_PER_CHUNK * 8))

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        for item in items:
            self.check()
            with counting_decisions(self.check):  # checked again after each decision of the chunk's games
                result = fn(item)
            yield result

    def check(self, decisions: int = 0) -> None:
        """Raise :class:`Stopped` if the request gave up waiting (``decisions``: how far the game got, unused)."""
        if self.expired():
            raise Stopped("the request gave up waiting")
