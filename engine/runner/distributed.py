"""Simulations beyond one machine: an executor that runs a run's chunks as Ray tasks.

The simulation runner (:mod:`engine.runner.simulate`) sends chunks of games,
described by value, to an executor and merges the results in the chunks'
order; every game is seeded from the run's seed and its own index.  So a run
on a Ray cluster gives exactly the report of ``--jobs 1``: :class:`RayExecutor`
only changes where the chunks are played.  Ray is imported when a Ray
executor is made, so the rest of the engine does not need it (``pip install
'rulecraft[ray]'``).

Every worker loads the ruleset itself, by the path the run started with (a
built-in ruleset by its place in the installed package), and refuses to play
if its content differs: on a real cluster, install the same Rulecraft on every
node and keep your own rulesets at the same path on each (a shared disk).

Example::

    executor = make_executor("ray")                 # a local Ray on this machine
    executor = make_executor("ray", address="auto")  # the cluster this node belongs to
    report = simulate(engine.load("my-game"), players=2, n=10_000, seed=0, agents="random", executor=executor)

>>> make_executor("local", jobs=2).workers
2
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence, TypeVar

from engine.core.errors import RulecraftError
from engine.runner.backends import BACKENDS
from engine.runner.executor import Executor, LocalExecutor, WorkerLost

T = TypeVar("T")
R = TypeVar("R")

CANCEL_ATTEMPTS, CANCEL_WAIT = 5, 0.5
"""How often, and how many seconds apart, unfinished tasks are cancelled when a run stops early."""

REACH_SECONDS = 5.0
"""How long to wait for a cluster's address to answer before saying it cannot be reached (Ray itself retries for minutes)."""


def make_executor(backend: str = "local", jobs: int | None = None, address: str | None = None) -> Executor:
    """The executor of ``backend``: ``jobs`` local processes (default 1), or Ray at ``address``.

    Without an address a local Ray is started with ``jobs`` CPUs (default: every core of this machine).
    """
    if backend == "local":
        if address is not None:
            raise RulecraftError("--address names a Ray cluster: use it with --backend ray")
        return LocalExecutor(jobs or 1)
    if backend == "ray":
        return RayExecutor(address, cpus=jobs)
    raise RulecraftError(f"unknown backend '{backend}' (choose one of: {', '.join(BACKENDS)})")


class RayExecutor:
    """Runs work items as Ray tasks and yields their results in the items' order.

    Connects to the Ray cluster at ``address`` ("auto": the one this node
    belongs to), or starts a local Ray of its own with ``cpus`` CPUs (Ray's
    default without an address joined the cluster named by ``RAY_ADDRESS`` or
    last started by ``ray start`` on this machine, or failed trying); a Ray already
    started in this process is used as it is.  When the caller stops reading
    (an error, Ctrl-C), the tasks not yet read are cancelled.
    """

    def __init__(self, address: str | None = None, cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise RulecraftError("the ray backend needs Ray: pip install 'rulecraft[ray]'") from None
        self._ray = ray
        if not ray.is_initialized():
            if address is not None:
                _reachable(address)
            import logging

            try:
                ray.init(
                    address="local" if address is None else address,  # never another cluster (RAY_ADDRESS, ray start)
                    num_cpus=cpus if address is None else None,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                    configure_logging=True,
                )
            except (ConnectionError, RuntimeError, ValueError) as err:
                where = f"the Ray cluster at {address}" if address else "a local Ray"
                raise RulecraftError(f"cannot start or reach {where}: {err}") from None

    @property
    def workers(self) -> int:
        """The CPUs of the cluster (the runner cuts the work into chunks by it)."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``fn`` (importable on the workers: a module-level function) over ``items``, as Ray tasks, in order."""
        ray = self._ray
        task = ray.remote(max_retries=0)(_apply)
        refs = [task.remote(fn, item) for item in items]
        done = 0
        try:
            for ref in refs:
                value = _result(ray, ref)
                done += 1
                yield value
        finally:
            _cancel(ray, refs[done:])  # interrupted, failed or abandoned: nothing more is wanted


def _reachable(address: str, seconds: float = REACH_SECONDS) -> None:
    """Refuse at once a ``HOST:PORT`` (or ``ray://HOST:PORT``) that does not accept a connection.

    ``auto`` and other forms Ray resolves itself are left to Ray.

    >>> _reachable("auto")
    >>> _reachable("127.0.0.1:1", seconds=0.5)
    Traceback (most recent call last):
    engine.core.errors.RulecraftError: cannot reach the Ray cluster at 127.0.0.1:1: nothing answers there (is `ray start --head` running on it?)
    """
    where = address.removeprefix("ray://")
    host, colon, port = where.rpartition(":")
    if not colon or not host or not port.isdigit():
        return
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError:
        raise RulecraftError(f"cannot reach the Ray cluster at {address}: nothing answers there "
                             "(is `ray start --head` running on it?)") from None


def _cancel(ray: Any, refs: list[Any]) -> None:
    """Cancel the tasks not finished yet, again for any still unfinished a moment later (a task being handed to a
    worker may miss the first).  The first time asks them to stop (a running task is interrupted where it stands), the
    later ones stop them by force.  A task that has finished is never cancelled: force-cancelling one whose result
    was on its way crashed Ray's core in the caller's process now and then ("An unexpected system state has occurred",
    in TaskManager::CompletePendingTask), killing it."""
    for attempt in range(CANCEL_ATTEMPTS):
        refs = ray.wait(refs, num_returns=len(refs), timeout=0)[1] if refs else []  # the unfinished ones alone
        for ref in refs:
            ray.cancel(ref, force=attempt > 0)
        refs = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_WAIT)[1] if refs else []
        if not refs:
            return


def _apply(fn: Callable[[T], R], item: T) -> R:
    """One work item, on a Ray worker."""
    return fn(item)


def _result(ray: Any, ref: Any) -> Any:
    """The value of a finished task; an error raised in it comes back as the engine's own error, of its own kind (a
    game's failing effect stays an EffectRuntimeError, so that simulate keeps the games finished before it).  A task
    lost with its worker or node (killed, out of memory, its machine gone) is :class:`WorkerLost`, saying what Ray
    said; it was Ray's own error, whose traceback ended the command and lost every game finished before it."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as err:
        cause = err.cause
        if isinstance(cause, RulecraftError):
            raise cause from None
        raise
    except ray.exceptions.RayError as err:
        said = str(err).strip().splitlines()
        raise WorkerLost(f"a Ray task was lost ({type(err).__name__}: {said[0] if said else 'no reason given'}): the "
                         "work it was running was lost with it (tasks are not retried)") from None
