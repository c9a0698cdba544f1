"""What an agent from a file does to end or stop the command, told as the agent's fault instead.

``os._exit(0)`` (or ``os.abort()``) in an agent's code ended the whole command at once with that status: a run that
had played nothing read as a success, its report never written.  A ``KeyboardInterrupt`` the agent raised itself
read as Ctrl-C: the run stopped as if the user had asked, a partial report and ``--resume`` offered.  Inside
:func:`agent_code_guarded` the first raises :class:`EndedByAgent` in the agent's code, and the second comes out as
:class:`InterruptByAgent` unless a signal (Ctrl-C, SIGTERM, SIGHUP) really came meanwhile: both are ``BaseException``
s the agent's wrapper tells as its failure.  The handlers of those signals are put back as they were after the block,
so an agent that ignores Ctrl-C (``signal.signal(SIGINT, SIG_IGN)``) does so only while it decides.

>>> try:
...     with agent_code_guarded():
...         raise KeyboardInterrupt
... except InterruptByAgent as err:
...     print(err)
KeyboardInterrupt, raised by the agent's own code (no Ctrl-C or signal came)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

STOPPING = tuple(sig for sig in (getattr(signal, name, None) for name in ("SIGINT", "SIGTERM", "SIGHUP"))
                 if sig is not None)
"""The signals that stop a command (``cli.stop_signals``); SIGHUP is missing on Windows."""

_ENDING = ("_exit", "abort")
"""The functions of ``os`` that end the process without a word and without unwinding (sys.exit raises, and is told)."""


class AgentFault(BaseException):
    """Something an agent's code did that would have stopped the command, told as the agent's failure (its text is
    the message; a BaseException, so an ``except Exception`` in the agent lets it by)."""


class EndedByAgent(AgentFault):
    """Raised in the agent's code in place of ``os._exit(status)`` or ``os.abort()``."""


class InterruptByAgent(AgentFault):
    """A KeyboardInterrupt the agent's code raised itself, no signal having come."""


_SYSTEM = sys.modules.get(os.name)
"""The module ``os`` takes them from (``posix``, ``nt``), where an agent could find them too."""

_REAL_EXIT = os._exit
"""``os._exit`` itself, for ending the process whatever an agent's code made of it meanwhile."""

_GUARDED: list[int] = []
"""The process ids of the agent code running now, innermost last: ``os._exit`` raises only in them."""

_RAN_AGENTS: set[int] = set()
"""The processes in which agents' code has run: there, a thread calling ``os._exit`` is an agent's, whenever it calls."""

_ENDED: dict[int, int] = {}
"""The status each process's command ended with, once it has (:func:`command_ends`)."""


def command_ends(status: int | None) -> None:
    """Note that the command of this process ends with exit ``status`` (None: it begins again, as a test running
    commands in its own process does): an agent's thread that ends the process after that ends it with ``status``.

    >>> command_ends(None)
    """
    if status is None:
        _ENDED.pop(os.getpid(), None)
    else:
        _ENDED[os.getpid()] = status


@contextmanager
def agent_code_guarded() -> Iterator[None]:
    """Run an agent's code so that ending the process and raising KeyboardInterrupt itself are its failures.

    In the main thread of this process ``os._exit``/``os.abort`` raise :class:`EndedByAgent`; in another thread of
    this process, where nothing can be raised to the command, they end it with status 1 and a line on stderr, not
    the status the agent chose (or with the command's own status, once it has ended), and so they do in such a
    thread after the agent's code has returned: ``os._exit`` and ``os.abort`` stay guarded for the rest of the
    process, as a thread the agent started may call them at any time (a daemon thread calling ``os._exit(0)``
    after the last decision ended a run that failed with status 0).  In a process the agent forked they end it as
    they would (the parent goes on), and so they do in the main thread outside the agents' code (the command's own
    ``os._exit``, a worker process's end).

    >>> with agent_code_guarded():
    ...     try:
    ...         os._exit(0)
    ...     except EndedByAgent as err:
    ...         print(err)
    it called os._exit(0), which would have ended the command at once (with status 0)
    """
    main = threading.current_thread() is threading.main_thread()
    came: list[int] = []
    kept = {sig: signal.getsignal(sig) for sig in STOPPING} if main else {}
    for sig, handler in kept.items():
        if callable(handler):
            signal.signal(sig, _noting(handler, came))
    for module in (os, _SYSTEM):
        for name in _ENDING if module is not None else ():
            if not isinstance(getattr(module, name), _Guarded):
                setattr(module, name, _Guarded(name, getattr(module, name)))
    _GUARDED.append(os.getpid())
    _RAN_AGENTS.add(os.getpid())
    try:
        yield
    except KeyboardInterrupt as err:
        if came or not main:
            raise
        raise InterruptByAgent("KeyboardInterrupt, raised by the agent's own code (no Ctrl-C or signal came)") \
            .with_traceback(err.__traceback__) from None
    finally:
        _GUARDED.pop()
        for sig, handler in kept.items():
            if signal.getsignal(sig) is not handler:
                signal.signal(sig, handler)


def _noting(handler: Callable[..., Any], came: list[int]) -> Callable[[int, Any], Any]:
    """``handler``, noting in ``came`` that its signal came."""

    def noted(signum: int, frame: Any) -> Any:
        came.append(signum)
        return handler(signum, frame)

    return noted


class _Guarded:
    """``os.<name>`` as it is once agents' code has run in the process: see :func:`agent_code_guarded`."""

    def __init__(self, name: str, function: Callable[..., Any]) -> None:
        self.name, self.function = name, function

    def __call__(self, *args: Any) -> Any:
        called = f"os.{self.name}({', '.join(map(repr, args))})"
        pid, main = os.getpid(), threading.current_thread() is threading.main_thread()
        if main and _GUARDED and pid == _GUARDED[-1]:
            status = f" (with status {args[0]!r})" if args else ""
            raise EndedByAgent(f"it called {called}, which would have ended the command at once{status}")
        if main or pid not in _RAN_AGENTS:
            return self.function(*args)  # the command's own, or a forked copy ending itself, as a fork does
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        ended = _ENDED.get(pid)
        told = "with status 1 as the run did not finish" if ended is None else f"with its own status, {ended}"
        os.write(2, f"a thread of an agent called {called}: the command ends, {told}\n".encode("utf-8", "replace"))
        return _REAL_EXIT(1 if ended is None else ended)
