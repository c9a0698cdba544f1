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


@contextmanager
def agent_code_guarded() -> Iterator[None]:
    """Run an agent's code so that ending the process and raising KeyboardInterrupt itself are its failures.

    In the main thread of this process ``os._exit``/``os.abort`` raise :class:`EndedByAgent`; in another thread of
    this process, where nothing can be raised to the command, they end it with status 1 and a line on stderr, not
    the status the agent chose; in a process the agent forked they end it as they would (the parent goes on).

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
    modules = [module for module in (os, _SYSTEM) if module is not None]
    originals = {name: getattr(os, name) for name in _ENDING}
    _GUARDED.append(os.getpid())
    for name, function in originals.items():
        for module in modules:
            setattr(module, name, _refusing(name, function))
    try:
        yield
    except KeyboardInterrupt as err:
        if came or not main:
            raise
        raise InterruptByAgent("KeyboardInterrupt, raised by the agent's own code (no Ctrl-C or signal came)") \
            .with_traceback(err.__traceback__) from None
    finally:
        _GUARDED.pop()
        for name, function in originals.items():
            for module in modules:
                setattr(module, name, function)
        for sig, handler in kept.items():
            if signal.getsignal(sig) is not handler:
                signal.signal(sig, handler)


def _noting(handler: Callable[..., Any], came: list[int]) -> Callable[[int, Any], Any]:
    """``handler``, noting in ``came`` that its signal came."""

    def noted(signum: int, frame: Any) -> Any:
        came.append(signum)
        return handler(signum, frame)

    return noted


def _refusing(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``os.<name>`` as an agent's code finds it: see :func:`agent_code_guarded`."""

    def ending(*args: Any) -> Any:
        called = f"os.{name}({', '.join(map(repr, args))})"
        status = f" (with status {args[0]!r})" if args else ""
        if not _GUARDED or os.getpid() != _GUARDED[-1]:
            return function(*args)  # a forked copy ending itself, as a fork does
        if threading.current_thread() is threading.main_thread():
            raise EndedByAgent(f"it called {called}, which would have ended the command at once{status}")
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os.write(2, f"a thread of an agent called {called}: the command ends, with status 1 as the run did not "
                    f"finish\n".encode("utf-8", "replace"))
        return _REAL_EXIT(1)

    return ending

