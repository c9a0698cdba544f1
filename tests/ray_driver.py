"""A driver process of its own for the tests of the Ray backend (tests/test_ray_backend.py).

Ray's core, a C++ library loaded into the process that calls ``ray.init``, ends that process now and then (Ray 2.60:
"An unexpected system state has occurred", in TaskManager::CompletePendingTask).  Run in a pytest worker, it killed
the worker, and with ``--max-worker-restart 0`` the whole run.  So the tests hand their bodies to a :class:`Driver`,
a process that started the local Ray (:func:`local_ray`): should Ray's core end it, the test running fails with
:class:`DriverLost`, saying so and quoting the last lines the driver wrote, the next test starts a fresh driver, and
the run goes on.

A body is a module-level function (the driver imports it by name) whose return value pickles: the tests check what
it returns where they can, so a failing check is reported with pytest's own explanation.  An exception raised in the
driver is raised again in the test, with the driver's traceback as its cause.

Example, in a driver that starts nothing::

>>> driver = Driver()
>>> driver.call(abs, -3)
3
>>> driver.close()
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

CALL_SECONDS = 300.0
"""The longest a body may take before its driver is stopped and the test fails (a hung cluster ends no run)."""

SAID_LINES = 30
"""How many of the driver's last lines of output a test failing with it quotes."""


class DriverLost(Exception):
    """The driver process ended (or was stopped) while it ran a test's body: the body's outcome is unknown."""


Setup = Callable[[], Callable[[], Any]]
"""Run first in a driver (a module-level function, or a partial of one), giving what its end runs."""


def local_ray(cpus: int) -> Callable[[], Any]:
    """Start a local Ray of ``cpus`` CPUs in this process (a driver's setup); its ``ray.shutdown``.

    The address "local": a cluster of its own, not one named by RAY_ADDRESS or started by `ray start` on this machine,
    which Ray's default joins (there num_cpus was refused, or the tests ran on someone else's cluster).
    """
    import ray

    ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    return ray.shutdown


class Driver:
    """A process that runs ``setup`` (``local_ray``), then the bodies it is given: started at the first :meth:`call`
    (or :meth:`start`), and again at the call after it died."""

    def __init__(self, setup: Setup | None = None) -> None:
        self.setup = setup
        self._process: Any = None
        self._conn: Connection | None = None
        self._said: Path | None = None  # the file the driver's output goes to

    def call(self, fn: Callable[..., Any], *args: Any, seconds: float = CALL_SECONDS) -> Any:
        """``fn(*args)`` in the driver; its value, or its exception again here, with the driver's traceback.

        Raises :class:`DriverLost` when the driver ends or takes longer than ``seconds``.
        """
        conn = self._started()
        conn.send((fn, args))
        if not conn.poll(seconds):
            said = self._tail()
            self.close()
            raise DriverLost(f"{fn.__name__} took over {seconds:.0f} s in the driver process, which was stopped{said}")
        try:
            kind, value, text = conn.recv()
        except (EOFError, ConnectionError):
            self._process.join(5)
            code, said = self._process.exitcode, self._tail()
            self._forget()
            raise DriverLost(f"the driver process ended (exit code {code}) while it ran {fn.__name__}: Ray's core ends "
                             f"its process now and then (Ray 2.60); the next test starts another{said}") from None
        if kind == "raised":
            raise value from RemoteTraceback(text)
        return value

    def close(self) -> None:
        """Stop the driver (its Ray with it), if it runs."""
        if self._process is None:
            return
        assert self._conn is not None
        try:
            self._conn.send(None)
        except (OSError, ValueError):
            pass
        self._process.join(30)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._forget()

    def start(self) -> None:
        """Start the driver now (it starts its Ray while the caller goes on), unless it runs."""
        self._started()

    def _started(self) -> Connection:
        if self._process is not None and not self._process.is_alive():
            self._forget()
        if self._process is None:
            context = multiprocessing.get_context("spawn")  # never a fork of a pytest worker's threads and state
            self._conn, theirs = context.Pipe()
            handle, said = tempfile.mkstemp(prefix="rulecraft-ray-driver-", suffix=".txt")
            os.close(handle)
            self._said = Path(said)
            self._process = context.Process(target=_serve, args=(theirs, self.setup, said), daemon=True,
                                            name="ray-driver")
            self._process.start()
            theirs.close()  # theirs alone now: the driver's end closing is our end's EOF
        assert self._conn is not None
        return self._conn

    def _forget(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._said is not None:
            self._said.unlink(missing_ok=True)
        self._process = self._conn = self._said = None

    def _tail(self) -> str:
        if self._said is None:
            return ""
        try:
            lines = self._said.read_text(encoding="utf-8", errors="replace").splitlines()[-SAID_LINES:]
        except OSError:
            return ""
        return "; its last output:\n" + "\n".join(lines) if lines else ""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in the driver, shown as the cause of the one raised again here."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


def _serve(conn: Connection, setup: Setup | None, said: str) -> None:
    """The driver: run ``setup``, then the bodies sent until told to stop (``None``) or the pipe closes."""
    with open(said, "a", encoding="utf-8") as output:
        os.dup2(output.fileno(), 1)  # Ray's core writes to the file descriptors, not to sys.stderr
        os.dup2(output.fileno(), 2)
    end = setup() if setup is not None else None
    try:
        while True:
            try:
                work = conn.recv()
            except EOFError:
                return
            if work is None:
                return
            fn, args = work
            try:
                conn.send(("returned", fn(*args), ""))
            except BaseException as err:  # noqa: BLE001 - every failure goes back to the test
                try:
                    conn.send(("raised", err, traceback.format_exc()))
                except Exception:  # the exception does not pickle: its text does
                    conn.send(("raised", AssertionError(f"{type(err).__name__}: {err}"), traceback.format_exc()))
    finally:
        if end is not None:
            end()
