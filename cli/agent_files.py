"""Agents of the user's own, from a Python file named on the command line: ``--agents my_bots.py:Cautious``.

``PATH.py:NAME`` names a class of the file at ``PATH`` (relative to the current
folder) with a ``choose(state)`` method returning one of
``state.legal_actions()`` — the agent of docs/api.md.  Each game makes one:
``NAME()``, or ``NAME(rng)`` when its constructor takes an argument (a seeded
``random.Random``, so the run repeats for its seed).  The file runs because the
user's own command names it, as ``python my_bots.py`` would; a ruleset can
never name one.  ``--agents``, ``--seat N=...`` and ``--hint-agent`` take it
wherever they take an agent::

    rulecraft simulate my-game --agents my_bots.py:Cautious,random
    rulecraft play my-game --seat 2=my_bots.py:Cautious

A missing file, a file that fails to load, a name it lacks, something that is not
an agent class, and an agent that fails or chooses what is not legal are each
told in a message, without a traceback.  So is an agent that takes longer than
``DECISION_SECONDS`` over one decision (``--agent-timeout SECONDS`` sets it,
0 for no limit): a hanging ``choose`` no longer waits for Ctrl-C.  The file's
own lines and the constructor have a time too, each: ``LOAD_SECONDS``, or the
decision's time when it is longer (a file that imports a large library may
take seconds to load for a bot that decides in a millisecond).  It decides
on a copy of the game, so the game is as it was before that decision.

>>> is_agent_file("bots/mine.py:Cautious"), is_agent_file("mcts:400"), is_agent_file("policy:p.json")
(True, False, False)
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import random
import signal
import sys
import threading
import traceback
import weakref
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Iterator

from cli.agent_exits import AgentFault, agent_code_guarded
from cli.counts import AGENT_SECONDS
from engine.core.actions import Action
from engine.core.errors import AgentError, did_you_mean
from engine.core.showtext import cut
from engine.runner.agents import AGENT_KINDS, Agent

DECISION_SECONDS = AGENT_SECONDS
"""The time an agent from a file has for one decision, in seconds (0: no limit); ``--agent-timeout`` sets it."""

LOAD_SECONDS = AGENT_SECONDS
"""The least time an agent file's own lines, as it loads, and its constructor have, each, in seconds: the decision's
time when it is longer, none when it is 0 (no limit).  They had no limit: a file looping as it loads waited for
Ctrl-C."""


def load_seconds() -> float:
    """The time an agent file's own lines, or its constructor, have: :data:`LOAD_SECONDS`, or the decision's when
    longer; 0 (no limit) when a decision has no limit.

    >>> load_seconds() == max(DECISION_SECONDS, LOAD_SECONDS)
    True
    """
    return 0.0 if DECISION_SECONDS == 0 else max(DECISION_SECONDS, LOAD_SECONDS)

_LOADED: dict[Path, ModuleType] = {}
"""The files loaded so far, by resolved path: a file named by several specs runs once."""


def is_agent_file(spec: str) -> bool:
    """Whether an agent spec names a Python file (``PATH.py:NAME``)."""
    return spec.strip().partition(":")[0].strip().lower().endswith(".py")


def register_agent_files(specs: Iterable[str]) -> None:
    """Load every file an agent spec names and register it as a kind of agent, so ``make_agent`` makes its agents.

    Raises ValueError saying what is wrong: the file is missing or fails to load, it has no such name, or the name is
    not a class with a ``choose(state)`` method taking no argument or one.
    """
    for spec in specs:
        if not is_agent_file(spec):
            continue
        path_text, _, name = (part.strip() for part in spec.strip().partition(":"))
        if not name:
            raise ValueError(f"'{spec}': name the agent class of {path_text} too, as {path_text}:ClassName")
        module = _load(path_text)
        _agent_class(module, path_text, name.partition(":")[0].strip())
        # made by make_agent as any kind is, but left out of the kinds its messages list: one entry per file loaded
        # would pile up in a long-lived process
        AGENT_KINDS.setdefault(path_text.lower(), _factory(module, path_text))


def _load(path_text: str) -> ModuleType:
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise ValueError(f"no file {path_text} (an agent from a file is PATH.py:ClassName, the path from the current folder)")
    resolved = path.resolve()
    if resolved in _LOADED:
        return _LOADED[resolved]
    module_name = f"rulecraft_agents_{len(_LOADED)}_{resolved.stem}"
    found = importlib.util.spec_from_file_location(module_name, resolved)
    if found is None or found.loader is None:
        raise ValueError(f"{path_text} cannot be loaded as Python")
    module = importlib.util.module_from_spec(found)
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    seconds = load_seconds()
    try:
        with _in_this_process(path_text, "file's own lines"), _time_budget(seconds):
            found.loader.exec_module(module)
    except BaseException as err:  # the user's code: whatever it raises (a SystemExit too) is told, not shown as ours
        del sys.modules[module_name]
        if isinstance(err, KeyboardInterrupt):
            raise
        if isinstance(err, OutOfTime):  # a file looping as it loads waited for Ctrl-C
            raise ValueError(f"{path_text} took longer than {seconds:g} s to load ({TOO_LONG})") from None
        raise ValueError(f"{path_text} failed to load: {_where(err, resolved)}") from None
    _LOADED[resolved] = module
    return module


def _agent_class(module: ModuleType, path_text: str, name: str) -> type:
    """The agent class ``name`` of ``module``; ValueError when it lacks one or it is no agent class."""
    found = getattr(module, name, None)
    agents = sorted(n for n, v in vars(module).items() if inspect.isclass(v) and callable(getattr(v, "choose", None)))
    if found is None:
        hint = did_you_mean(name, agents) or (f"its agent classes: {', '.join(agents)}" if agents else "it has no class with a "
                                                                                                      "choose(state) method")
        raise ValueError(f"{path_text} has no '{name}' ({hint})")
    if not inspect.isclass(found) or not callable(getattr(found, "choose", None)):
        raise ValueError(f"{path_text}:{name} is not an agent class: an agent is a class with a choose(state) method "
                         "returning one of state.legal_actions() (see docs/api.md)")
    try:
        needed = [p for p in inspect.signature(found).parameters.values()
                  if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        needed = []
    if len(needed) > 1:
        raise ValueError(f"{path_text}:{name}() must take no argument, or one (a seeded random.Random), not "
                         f"{len(needed)} ({', '.join(p.name for p in needed)})")
    return found


def _factory(module: ModuleType, path_text: str) -> Any:
    """Makes the agent a spec of this file names (the text after ':' is the class), wrapped to report its failures."""

    def make(argument: str | None, rng: random.Random) -> Agent:
        name = (argument or "").partition(":")[0].strip()
        cls = _agent_class(module, path_text, name)
        takes_rng = any(p.default is p.empty for p in inspect.signature(cls).parameters.values()
                        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        seconds = load_seconds()
        try:
            with _in_this_process(f"{path_text}:{name}", "constructor"), _time_budget(seconds):
                inner = cls(rng) if takes_rng else cls()
        except KeyboardInterrupt:
            raise
        except OutOfTime:
            raise AgentError(f"{path_text}:{name}() took longer than {seconds:g} s to make the agent ({TOO_LONG})") \
                from None
        except BaseException as err:  # a sys.exit() too
            raise AgentError(f"{path_text}:{name}() failed: {_where(err, Path(path_text).resolve())}") from None
        return FileAgent(inner, f"{path_text}:{name}")

    return make


class FileAgent:
    """An agent from the user's file, whose failures and illegal choices are told as the user's, not the engine's.

    It decides on a copy of the game sharing nothing it could change (its history and log too): an agent that tries
    a move out with ``state.apply`` and forgets to undo it, or changes what it reads (``state.seat_of.clear()``),
    changes nothing but its copy, never the game being played.
    """

    def __init__(self, inner: Any, spec: str) -> None:
        self.inner = inner
        self.name = spec

    def choose(self, state: Any) -> Any:
        """The user's agent's choice, made on a detached copy of ``state`` in its time; its failures told as its own."""
        seconds = DECISION_SECONDS
        try:
            with _in_this_process(self.name, "choose()"), _time_budget(seconds):
                action = self.inner.choose(state.detached())
        except KeyboardInterrupt:
            raise
        except OutOfTime:
            raise AgentError(f"the agent {self.name} took longer than {seconds:g} s to decide ({TOO_LONG}); the game "
                             "is as it was before that decision") from None
        except BaseException as err:  # the user's code: a sys.exit() in it ended the run, its game and report lost
            raise AgentError(f"the agent {self.name} failed in choose(): "
                                 f"{_where(err, Path(self.name.rpartition(':')[0]).resolve())}") from None
        legal = state.legal_actions()
        if isinstance(action, str) and any(str(a) == action for a in legal):
            raise AgentError(f"the agent {self.name} chose the text {action!r}: return the action itself, the one of "
                                 "state.legal_actions() whose str() is that text")
        # the legal action itself is played, found without the user's code: an Action made up with arguments of a
        # class of the user's, equal to anything, passed 'in legal' and stopped the game with a traceback deep inside
        chosen = next((a for a in legal if a.step is action.step and _same(action.args, a.args)), None) \
            if type(action) is Action else None
        if chosen is None:
            raise AgentError(f"the agent {self.name} chose {_shown(action)}, which is not one of the legal actions "
                                 f"(state.legal_actions(): {', '.join(map(str, list(legal)[:5]))}"
                                 f"{', ...' if len(legal) > 5 else ''})")
        return chosen


def _same(theirs: Any, ours: Any) -> bool:
    """Whether what an agent returned, ``theirs``, is ``ours`` (a legal action's arguments), compared by the type of
    ``ours`` alone, so no ``==`` of the user's own runs: a value of another type (a subclass too) is not ours.

    >>> _same((1, (2, 3)), (1, (2, 3))), _same((True,), (1,)), _same((type("Any", (int,), {})(1),), (1,))
    (True, False, False)
    """
    if type(theirs) is not type(ours):
        return False
    if type(ours) is tuple:
        return len(theirs) == len(ours) and all(_same(t, o) for t, o in zip(theirs, ours))
    return bool(ours == theirs)


_STARTED: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()
"""The threads, not daemon threads, that the agents' code started: the file's own lines, a constructor, choose()."""


@contextmanager
def _threads_noted() -> Iterator[None]:
    """Run the agent's code, noting in :data:`_STARTED` the threads it starts and leaves running (not daemons).

    >>> with _threads_noted():
    ...     pass
    """
    before = set(threading.enumerate())
    try:
        yield
    finally:
        _STARTED.update(thread for thread in threading.enumerate() if thread not in before and not thread.daemon)


@contextmanager
def _in_this_process(name: str, what: str) -> Iterator[None]:
    """Run the agent's code, and end at once any process it forked that comes back out of it: that copy of the
    command played the rest of the run again beside the first, the report printed once more for each fork (an agent
    forking at each decision printed it 128 times), its files written over each other's.  A line on stderr says so.

    >>> with _in_this_process("bots.py:Mine", "choose()"):
    ...     pass
    """
    pid = os.getpid()
    try:
        with _threads_noted(), _surroundings_kept(), agent_code_guarded():
            yield
    finally:
        if os.getpid() != pid:
            os.write(2, f"a process the agent {name} forked in its {what} came back out of it: ended (the game is "
                        f"played by the command's own process alone)\n".encode("utf-8", "replace"))
            os._exit(0)


@contextmanager
def _surroundings_kept() -> Iterator[None]:
    """Run the agent's code, then put back the command's working folder and standard streams if it changed them: an
    agent that moved to another folder (``os.chdir('/')``) had the report of ``--out report.json`` written there, and
    one that silenced itself (``sys.stdout = open(os.devnull, 'w')``, or ``sys.stdout.close()``) lost the report, or
    stopped the command with a traceback as it wrote its last line.

    >>> here = os.getcwd()
    >>> with _surroundings_kept():
    ...     os.chdir("/")
    >>> os.getcwd() == here
    True
    """
    folder, streams = os.getcwd(), (sys.stdout, sys.stderr)
    try:
        yield
    finally:
        try:
            moved = os.getcwd() != folder
        except OSError:  # the folder it moved to is gone
            moved = True
        if moved:
            os.chdir(folder)
        for name, kept, descriptor in (("stdout", streams[0], 1), ("stderr", streams[1], 2)):
            if kept is not None and getattr(kept, "closed", False):  # closed by the agent: its descriptor, anew
                kept = open(descriptor, "w", encoding=getattr(kept, "encoding", None) or "utf-8",
                            errors=getattr(kept, "errors", None) or "strict", closefd=False)
            setattr(sys, name, kept)


def exit_status(status: Any) -> int:
    """The process's exit status for a ``SystemExit``'s ``status``: None is 0, a text (a message) 1.

    >>> exit_status(None), exit_status(2), exit_status("failed")
    (0, 2, 1)
    """
    return 0 if status is None else status if isinstance(status, int) else 1


def end_if_threads_left(status: Any) -> None:
    """As the command ends with exit ``status``: when a file's agent left a thread of its own running (not a daemon
    thread), say so on stderr and end the process at once.  Python waits for such a thread before it exits: the
    report printed, the command went on waiting, for ever for a thread that never ends.  Nothing when no agent file
    was loaded or no such thread is left; threads the command's own machinery started are none of the agents'.

    >>> end_if_threads_left(0)  # no thread left: returns, and the command ends as usual
    """
    left = sorted(thread.name for thread in list(_STARTED) if thread.is_alive())
    if not left:
        return
    code = exit_status(status)
    files = ", ".join(sorted(str(path) for path in _LOADED))
    shown = ", ".join(cut(name, 60) for name in left[:3]) + (f" and {len(left) - 3} more" if len(left) > 3 else "")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os.write(2, f"the agents of {files} left {len(left)} thread{'s' * (len(left) > 1)} running ({shown}): the command "
                f"ends without waiting for {'them' if len(left) > 1 else 'it'} (make it a daemon thread, or end it "
                f"before choose() returns)\n".encode("utf-8", "replace"))
    os._exit(code)


TOO_LONG = "the time an agent from a file has for a decision, and its file's lines and its constructor at least " \
           f"{LOAD_SECONDS:g} s; --agent-timeout SECONDS gives more, 0 no limit"
"""What the time an agent from a file overran is, and how to give it more."""


class OutOfTime(BaseException):
    """Raised inside an agent's ``choose`` when its time is up (a BaseException: its ``except Exception`` lets it by)."""


LONGEST_TIMER = 10**8
"""Seconds past which a time is no limit (over three years; the system's timer takes no time past a few decades, and
``inf`` or ``1e300`` made it fail inside every decision, told as the agent's fault)."""


AGAIN_AFTER = 0.01
"""The shortest time between two interruptions of code that swallowed the first: a timer going off every microsecond
(``--agent-timeout 1e-300``) interrupted its own handler, over and over, and the command hung."""


@contextmanager
def _time_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`OutOfTime` in the code run inside once ``seconds`` have passed, and again each ``seconds`` after
    (code that swallowed it is interrupted again; at least :data:`AGAIN_AFTER` after).  Only in the main thread where the platform has ``SIGALRM`` (not
    Windows); elsewhere, for 0 and for more than :data:`LONGEST_TIMER`, no limit.

    The timer is started inside the ``try`` and the handler raises only until the block is left, so a time that
    runs out at once (``1e-5``) stops the block and never the code after it: the timer went off before the block
    began, outside the ``finally`` that stops it, and went on interrupting whatever ran next, every few microseconds,
    for ever.

    >>> import time
    >>> try:
    ...     with _time_budget(0.05):
    ...         while True:
    ...             time.sleep(0.01)
    ... except OutOfTime:
    ...     print("stopped")
    stopped
    """
    if not 0 < seconds <= LONGEST_TIMER or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    running = True

    def out_of_time(signum: int, frame: Any) -> None:
        if running:
            raise OutOfTime

    before = signal.signal(signal.SIGALRM, out_of_time)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds, max(seconds, AGAIN_AFTER))
        yield
    finally:
        running = False  # first: nothing is interrupted from here on, however often the timer still goes off
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def _shown(value: Any) -> str:
    """What an agent returned, quoted: its text, or its type where its ``str()`` fails.

    >>> _shown("pass"), _shown(object.__new__(type("Odd", (), {"__str__": lambda self: 1 / 0})))
    ("'pass'", 'an Odd whose str() fails')
    """
    try:
        return repr(cut(str(value), 80))
    except Exception:
        name = type(value).__name__
        return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} whose str() fails"


def _where(err: BaseException, path: Path) -> str:
    """The error in one line, with the line of ``path`` it came from when it did (``bots.py:12``)."""
    text = str(err) if isinstance(err, AgentFault) else \
        "".join(traceback.format_exception_only(type(err), err)).strip().splitlines()[-1]
    if isinstance(err, SyntaxError) and err.lineno:
        return f"{text} (line {err.lineno})"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if Path(f.filename).resolve() == path]
    return f"{text} (line {frames[-1].lineno})" if frames else text
