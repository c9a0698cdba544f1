"""A time limit for one example of a fuzz test: a hang (or a runaway allocation) fails instead of stalling the run.

    with time_limit(5):
        engine.load(path)        # raises Hang after 5 s
"""

from __future__ import annotations

import contextlib
import signal
from typing import Any, Iterator


class Hang(AssertionError):
    """An example ran past its time limit: a hang (or a runaway allocation) to fix."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail (raise Hang) when the block runs longer than ``seconds`` (Unix; no limit elsewhere)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
