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

import gc
import os
import signal
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator, Protocol, Sequence, TypeVar

from engine.core.errors import RulecraftError

if TYPE_CHECKING:
    import multiprocessing.pool
    import multiprocessing.process

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    """Runs a function over work items and yields the results in the items' order."""

    @property
    def workers(self) -> int:
        """How many items it runs at once (the runner sizes its chunks by it)."""
        ...

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``fn`` of each item, in the items' order."""


class TooManyJobs(RulecraftError, ValueError):
    """More worker processes asked for than the machine has cores."""


class WorkerLost(RulecraftError):
    """A worker process (or a cluster's worker or node) died while work was given to it: killed by the system's
    out-of-memory killer, by hand, or lost with its machine.  What it was running is lost; nothing is retried.

    >>> str(WorkerLost("worker process 41 was killed by SIGKILL"))
    'worker process 41 was killed by SIGKILL'
    """


WATCH_SECONDS = 1.0
"""How often a run on local worker processes checks, while it waits for a result, that none of them has died."""


def max_jobs() -> int:
    """The cores this process may run on: the most worker processes a local run starts.

    >>> max_jobs() >= 1
    True
    """
    available = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    return max(1, len(available))


class LocalExecutor:
    """``jobs`` local worker processes (one means: in this process, no pool), at most one per core.

    The workers ignore Ctrl-C (SIGINT): the parent alone stops the run,
    keeping the results finished so far, and terminates them; no worker
    prints anything.  A worker that dies (the out-of-memory killer, a
    ``kill -9``) stops the run with :class:`WorkerLost` within
    :data:`WATCH_SECONDS`, where the pool put another in its place and waited
    for the lost work for ever.
    """

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        cores = max_jobs()
        if jobs > cores:
            raise TooManyJobs(
                f"{jobs} worker processes is more than this machine's {cores} core{'s' * (cores != 1)}: "
                f"use at most {cores}"
            )
        self.jobs = jobs

    @property
    def workers(self) -> int:
        """The worker processes it runs (``jobs``)."""
        return self.jobs

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``fn`` of each item, here (one job or one item) or in ``jobs`` worker processes, in the items' order."""
        if self.jobs == 1 or len(items) <= 1:
            yield from map(fn, items)
            return
        import multiprocessing

        before = set(multiprocessing.active_children())
        with _forked_pool(min(self.jobs, len(items))) as pool:  # leaving it (done, interrupted) terminates the workers
            workers = set(multiprocessing.active_children()) - before
            results = pool.imap(fn, items)
            for _ in items:
                yield _watched(results, workers)


def _watched(results: multiprocessing.pool.IMapIterator[R], workers: set[multiprocessing.process.BaseProcess]) -> R:
    """The next of ``results``, checking every :data:`WATCH_SECONDS` while it waits that no worker has died: a
    pool replaces a dead worker but never gives back the work it held, so the wait would never end.

    Raises :class:`WorkerLost` naming the worker and how it ended.
    """
    import multiprocessing

    while True:
        try:
            return results.next(timeout=WATCH_SECONDS)
        except multiprocessing.TimeoutError:
            dead = sorted((worker for worker in workers if not worker.is_alive()), key=lambda worker: worker.pid or 0)
            if dead:
                raise WorkerLost(f"worker process {dead[0].pid} {_ended(dead[0].exitcode)}: the work it was running "
                                 "was lost with it (nothing is retried)") from None


def _ended(code: int | None) -> str:
    """How a process ended, from its exit code: a signal by name (the out-of-memory killer's is SIGKILL).

    >>> _ended(-9), _ended(1)
    ('was killed by SIGKILL (the out-of-memory killer sends it, as kill -9 does)', 'exited with status 1')
    """
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}" + (" (the out-of-memory killer sends it, as kill -9 does)" if name == "SIGKILL" else "")
    return f"exited with status {code}"


@contextmanager
def _forked_pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` processes, forked where the platform can (else spawned), terminated on leaving.

    Forked workers start at once with everything this process has loaded
    (a simulation's compiled game among it).  The objects alive at the fork
    are frozen out of the garbage collector's sweeps meanwhile, so that no
    worker's collection touches, and so copies, the pages it shares with
    this process.  Ctrl-C (and SIGTERM, SIGHUP) is held back while the pool starts: pressed
    between two workers' starts, it would leave the started ones running
    with no pool to end them (and holding the output open), so it takes
    effect once the pool is there to be terminated.
    """
    import multiprocessing  # not at the top: only a run on several workers needs it

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    held = hasattr(signal, "pthread_sigmask")
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        gc.freeze()
        try:
            pool = context.Pool(workers, initializer=_ignore_interrupts)
        finally:
            gc.unfreeze()
        with pool:
            if held:
                held = False
                signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # a Ctrl-C (or kill) meanwhile lands here
            yield pool
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)


STOPS = {sig for sig in (getattr(signal, name, None) for name in ("SIGINT", "SIGTERM", "SIGHUP")) if sig is not None}
"""The signals held back while a pool starts: Ctrl-C, kill and a closed terminal (SIGHUP is missing on Windows)."""


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C, and a closed terminal's SIGHUP, to the parent process, which ends the workers; the
    SIGTERM that ends them (the pool's terminate) acts at once, whatever handler the parent had set for it.  The
    worker was forked with them held back (see :func:`_forked_pool`), so none ran the parent's handler meanwhile: a
    SIGTERM sent since lands now, and ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
