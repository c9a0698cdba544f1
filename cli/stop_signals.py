"""Being told to stop (SIGTERM: ``kill``; SIGHUP: the terminal window closed) handled as Ctrl-C is.

Ctrl-C stops a command cleanly: ``play`` writes the game so far to ``--log``, ``simulate`` its partial report,
``check`` and ``bench`` say what ran, and the workers are ended without a word.  SIGTERM and SIGHUP ended the
process at once instead: the game or the report was lost, and the workers, their pipe gone, printed tracebacks.
Every command now runs inside :func:`stops_as_ctrl_c`, so those signals take Ctrl-C's way (a SIGHUP ignored, as
``nohup`` has it, stays ignored); ``serve``, whose server handles them itself, keeps them as they were
(:func:`handled_as_before`).

Example::

    with stops_as_ctrl_c():
        run()          # kill (SIGTERM) raises KeyboardInterrupt here, as Ctrl-C would
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

STOP_SIGNALS = tuple(sig for sig in (getattr(signal, name, None) for name in ("SIGTERM", "SIGHUP")) if sig is not None)
"""The signals that tell a process to stop, besides Ctrl-C's SIGINT (SIGHUP is missing on Windows)."""

_BEFORE: dict[int, Any] = {}
"""The handlers :func:`stops_as_ctrl_c` replaced, while it is in force (for :func:`handled_as_before`)."""

_TOLD: list[str] = []
"""The signals that stopped this command, by name (empty when it was Ctrl-C, or nothing)."""


def how_stopped() -> str:
    """What stopped the command, as its messages say it: ``Ctrl-C``, or the signal it was told to stop by.

    >>> how_stopped()
    'Ctrl-C'
    """
    return _TOLD[-1] if _TOLD else "Ctrl-C"


@contextmanager
def stops_as_ctrl_c() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP raise KeyboardInterrupt as Ctrl-C does; the handlers are put back after.
    Outside the main thread (where no handler can be set) it does nothing.

    >>> try:
    ...     with stops_as_ctrl_c():
    ...         signal.raise_signal(signal.SIGTERM)
    ... except KeyboardInterrupt as stop:
    ...     print(stop)
    told to stop (SIGTERM)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        _TOLD.append(signal.Signals(signum).name)
        raise KeyboardInterrupt(f"told to stop ({_TOLD[-1]})")

    kept = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS
            if signal.getsignal(sig) is not signal.SIG_IGN}  # nohup's ignored SIGHUP stays ignored
    _BEFORE.update(kept)
    try:
        yield
    finally:
        _BEFORE.clear()
        for sig, handler in kept.items():
            signal.signal(sig, handler)


@contextmanager
def handled_as_before() -> Iterator[None]:
    """Inside a :func:`stops_as_ctrl_c` block, SIGTERM and SIGHUP handled as they were before it: for a server whose
    own loop handles being told to stop (uvicorn's), where a KeyboardInterrupt raised in the loop would end in a
    traceback.

    >>> with stops_as_ctrl_c(), handled_as_before():
    ...     signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    True
    """
    if threading.current_thread() is not threading.main_thread() or not _BEFORE:
        yield
        return
    now = {sig: signal.signal(sig, handler) for sig, handler in _BEFORE.items()}
    try:
        yield
    finally:
        for sig, handler in now.items():
            signal.signal(sig, handler)


@contextmanager
def finishing() -> Iterator[None]:
    """Inside the block, the first Ctrl-C, SIGTERM or SIGHUP waits for it to end, then stops the command as it
    would have (a KeyboardInterrupt); a second one stops it at once.  For writing out work already done: a report of
    every game played, told to stop while it was being written, was lost ('Aborted!', nothing written).
    Outside the main thread it does nothing.

    >>> try:
    ...     with finishing():
    ...         signal.raise_signal(signal.SIGTERM)
    ...         print("written")
    ... except KeyboardInterrupt as stop:
    ...     print(stop)
    written
    told to stop (SIGTERM)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[str] = []

    def hold(signum: int, frame: object) -> None:
        name = signal.Signals(signum).name
        if held:
            raise KeyboardInterrupt(f"told to stop ({name})" if name != "SIGINT" else "")
        held.append(name)

    kept = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, *STOP_SIGNALS)
            if signal.getsignal(sig) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
    if held:
        raise KeyboardInterrupt(f"told to stop ({held[0]})" if held[0] != "SIGINT" else "")
