"""Executors: where the work of a simulation runs.

The simulation runner hands an executor a picklable function and a list of
picklable work items (chunks of games, described by value) and reads back
the results in the items' order.  :class:`LocalExecutor` runs them in this
process or in a pool of local worker processes; a distributed executor only
has to offer the same two members to run the same simulation elsewhere,
without any change to the runner or the report.

>>> list(LocalExecutor(jobs=1).map(abs, [-1, 2, -3]))
[1, 2, 3]

Typical use::

    executor = LocalExecutor(jobs=4)
    for result in executor.map(play_chunk, chunks):   # in the order of chunks
        ...
"""

from __future__ import annotations

import multiprocessing
from typing import Callable, Iterator, Protocol, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    """Runs a function over work items and yields the results in the items' order."""

    @property
    def workers(self) -> int:
        """How many items it runs at once (the runner sizes its chunks by it)."""
        ...

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]: ...


class LocalExecutor:
    """``jobs`` local worker processes (one means: in this process, no pool)."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    @property
    def workers(self) -> int:
        return self.jobs

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        if self.jobs == 1 or len(items) <= 1:
            yield from map(fn, items)
            return
        with multiprocessing.get_context().Pool(min(self.jobs, len(items))) as pool:
            yield from pool.imap(fn, items)
