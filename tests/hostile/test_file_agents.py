"""Agents from a file that misbehave with the machinery around them.

``--agent-timeout SECONDS`` at its edges: a time too short to measure, one past what the system's timer takes, nan.

A time of a few microseconds or less (``1e-300``) hung the command: the timer went off before the agent's block
began, outside the ``finally`` that stops it, and then every microsecond, interrupting its own handler, for ever.
``1e300`` and ``inf`` failed inside every decision (``OverflowError: timestamp out of range for platform time_t``),
told as the agent's fault, and ``nan`` likewise (``ValueError: Invalid value NaN``).

An agent that forks: the copy of the command coming back out of ``choose`` played the rest of the run again, the
report printed once more for each fork (128 times for an agent forking at each decision of two games).

An agent that leaves a thread running (not a daemon): the report printed, the command waited for the thread before
it exited, for ever for one that waits.

An agent that makes up an Action with arguments of its own class, equal to anything: it passed as legal and stopped
the game with a traceback deep inside (``list indices must be integers or slices, not Evil``).

An agent that changes the command's working folder or standard output: ``--out report.json`` was written in the
folder it moved to, a report to the screen went to the file it silenced itself with, and a closed ``sys.stdout``
stopped the command with a traceback as it wrote its last line.

An agent that ends the process itself (``os._exit(0)``, ``os.abort()``), in its file's lines, its constructor or its
``choose``: the command ended at once with the agent's status, 0 reading as a run that went well though nothing was
reported.  One that raises KeyboardInterrupt itself: the run stopped as if Ctrl-C had been pressed, a partial report
and ``--resume`` offered; a Ctrl-C or SIGTERM that really comes while an agent decides still stops the run so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile_cli import assert_refused, rulecraft

BOTS = '''\
class First:
    def choose(self, state):
        return state.legal_actions()[0]


class Forker:
    def choose(self, state):
        import os
        os.fork()
        return state.legal_actions()[0]


class ForksBorn:
    def __init__(self):
        import os
        os.fork()

    def choose(self, state):
        return state.legal_actions()[0]


class Evil:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class Forger:
    def choose(self, state):
        from engine.core.actions import Action
        first = state.legal_actions()[0]
        return Action(first.step, tuple(Evil() for _ in first.args), origin=first.origin)


class Threads:
    """Starts a thread that waits for ever, and leaves it running."""

    def __init__(self):
        import threading
        threading.Thread(target=threading.Event().wait, name="waits-for-ever").start()

    def choose(self, state):
        return state.legal_actions()[0]


class Mover:
    """Moves to a folder of its own at each decision."""

    def choose(self, state):
        import os
        os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "elsewhere"))
        return state.legal_actions()[0]


class Silenced:
    """Silences its prints, and forgets to put the screen back."""

    def choose(self, state):
        import os
        import sys
        sys.stdout = open(os.devnull, "w")
        return state.legal_actions()[0]


class Closer:
    def choose(self, state):
        import sys
        sys.stdout.close()
        return state.legal_actions()[0]


class Exits:
    def choose(self, state):
        import os
        os._exit(0)


class ExitsBorn:
    def __init__(self):
        import os
        os._exit(0)

    def choose(self, state):
        return state.legal_actions()[0]


class Aborts:
    def choose(self, state):
        import posix
        posix.abort()


class Interrupts:
    def choose(self, state):
        raise KeyboardInterrupt


class Signalled:
    """Gets a signal as it decides, as from Ctrl-C or kill."""

    def choose(self, state):
        import os
        import signal
        os.kill(os.getpid(), getattr(signal, os.environ.get("SIGNAL_NAME", "SIGTERM")))
        return state.legal_actions()[0]


class ThreadExits:
    def choose(self, state):
        import os
        import threading
        ends = threading.Thread(target=os._exit, args=(0,))
        ends.start()
        ends.join()
        return state.legal_actions()[0]


class ExitsLater:
    """Leaves a daemon thread that ends the process with status 0 once the command is over (the command's exit
    handlers wait for it), and fails at its third decision, in a run of two games, or never."""

    def __init__(self):
        self.decisions = 0

    def choose(self, state):
        import atexit
        import os
        import threading
        self.decisions += 1
        if self.decisions == 1:
            ends = threading.Thread(target=lambda: (threading.main_thread().join(), os._exit(0)), daemon=True)
            ends.start()
            atexit.register(ends.join)
        if self.decisions == 3 and os.environ.get("FAILS"):
            raise ValueError("out of ideas")
        return state.legal_actions()[0]


class SlowStart:
    """Hangs as it is made."""

    def __init__(self):
        import time
        time.sleep(3600)

    def choose(self, state):
        return state.legal_actions()[0]


class Stubborn:
    """Hangs, and swallows what interrupts it as long as it can."""

    def choose(self, state):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
'''


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    return path


@pytest.mark.parametrize(("seconds", "agent"), [("1e-300", "First"), ("1e-300", "Stubborn"), ("0.00002", "Stubborn")])
def test_a_time_too_short_to_decide_in_stops_the_agent_not_the_command(bots: Path, seconds: str, agent: str) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:{agent},random",
                      "--agent-timeout", seconds)
    if agent == "Stubborn" or ended.code:
        assert_refused(ended, f"the agent {bots}:{agent} took longer than {float(seconds):g} s to decide")
    else:  # the first action is found before the timer goes off
        assert "2 games in" in ended.text, ended.text


@pytest.mark.parametrize("seconds", ["1e300", "inf"])
def test_a_time_longer_than_the_timer_takes_is_no_limit(bots: Path, seconds: str) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:First,random",
                      "--agent-timeout", seconds)
    assert ended.code == 0 and "2 games in" in ended.text and "failed" not in ended.text, ended.text


def test_a_time_that_is_no_number_is_refused_on_the_command_line(bots: Path) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:First,random", "--agent-timeout", "nan")
    assert ended.code == 2 and "Invalid value for '--agent-timeout': 'nan' is not a number" in ended.text, ended.text


@pytest.mark.parametrize("agent", ["Forker", "ForksBorn"])
def test_a_process_an_agent_forks_ends_as_it_comes_back_to_the_command(bots: Path, agent: str) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:{agent},random")
    assert ended.code == 0 and ended.out.count("2 games in") == 1, ended.text
    assert "Traceback" not in ended.text
    assert f"a process the agent {bots}:{agent} forked in its " in ended.err, ended.err


def test_an_action_made_up_with_arguments_equal_to_anything_is_refused(bots: Path) -> None:
    ended = rulecraft("simulate", "iconoclasm-cards", "-n", "2", "--agents", f"{bots}:Forger,random")
    assert_refused(ended, f"the agent {bots}:Forger chose ", "which is not one of the legal actions")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_thread_an_agent_leaves_running_does_not_keep_the_command_waiting(bots: Path, jobs: str) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--jobs", jobs, "--agents", f"{bots}:Threads,random")
    assert ended.code == 0 and ended.out.count("2 games in") == 1, ended.text
    assert "Traceback" not in ended.text
    assert f"the agents of {bots} left " in ended.err and "(waits-for-ever" in ended.err, ended.err
    assert "the command ends without waiting for" in ended.err


def test_a_thread_the_agents_did_not_start_is_not_theirs_to_end(bots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the threads the agents' code started are left behind: one of the process's own (a test's, a pool's)
    running as a command that loaded an agent file ends is waited for as before, the process not ended."""
    import os
    import threading

    from cli import agent_files

    def ended(code: int) -> None:
        raise AssertionError(f"the process was ended ({code})")

    monkeypatch.setattr(os, "_exit", ended)
    agent_files.register_agent_files([f"{bots}:First"])
    done = threading.Event()
    ours = threading.Thread(target=done.wait)
    ours.start()
    try:
        agent_files.end_if_threads_left(0)  # returns: the thread is none of the agents'
    finally:
        done.set()
        ours.join()


def test_an_agent_moving_to_another_folder_leaves_the_report_where_it_was_asked(bots: Path) -> None:
    (bots.parent / "elsewhere").mkdir()
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:Mover,random", "--format", "json",
                      "--out", "report.json", cwd=bots.parent)
    assert ended.code == 0 and "Traceback" not in ended.text, ended.text
    assert (bots.parent / "report.json").is_file() and not (bots.parent / "elsewhere" / "report.json").exists()


@pytest.mark.parametrize("agent", ["Silenced", "Closer"])
def test_an_agent_silencing_the_screen_leaves_the_report_on_it(bots: Path, agent: str) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:{agent},random")
    assert ended.code == 0 and "Traceback" not in ended.text, ended.text
    assert "2 games in" in ended.out, ended.text


@pytest.mark.parametrize(("agent", "says"), [
    ("Exits", "the agent {bots}:Exits failed in choose(): it called os._exit(0), which would have ended the command at "
              "once (with status 0) (line {line})"),
    ("ExitsBorn", "{bots}:ExitsBorn() failed: it called os._exit(0), which would have ended the command at once (with "
                  "status 0) (line {line})"),
    ("Aborts", "the agent {bots}:Aborts failed in choose(): it called os.abort(), which would have ended the command at "
               "once (line {line})"),
    ("Interrupts", "the agent {bots}:Interrupts failed in choose(): KeyboardInterrupt, raised by the agent's own code (no "
                   "Ctrl-C or signal came) (line {line})")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_agent_ending_or_interrupting_the_command_itself_is_told_as_its_failure(bots: Path, agent: str, says: str,
                                                                                 jobs: str) -> None:
    lines = BOTS.splitlines()
    start = lines.index(f"class {agent}:")
    line = next(i for i in range(start, len(lines)) if "_exit(0)" in lines[i] or "abort()" in lines[i]
                or "raise KeyboardInterrupt" in lines[i]) + 1
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--jobs", jobs, "--agents", f"{bots}:{agent},random")
    assert_refused(ended, says.format(bots=bots, line=line))
    assert "interrupted" not in ended.text and "--resume" not in ended.text


def test_an_agent_file_ending_the_command_as_it_loads_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ends.py").write_text("import os\nos._exit(0)\n")
    (tmp_path / "stops.py").write_text("raise KeyboardInterrupt\n")
    for name, says in (("ends", "it called os._exit(0)"), ("stops", "KeyboardInterrupt, raised by the agent's own code")):
        ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{tmp_path}/{name}.py:X,random")
        assert ended.code == 2 and f"{tmp_path}/{name}.py failed to load: {says}" in ended.text, ended.text


def test_an_agent_file_or_constructor_that_hangs_is_stopped_after_its_time(bots: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a decision had a time: a file looping as it loads, or a constructor that waits, waited for Ctrl-C.  Each
    now has LOAD_SECONDS (60 s, or the decision's time when longer); here 0.3 s."""
    import cli.agent_files
    from engine.core.errors import AgentError
    from engine.runner.agents import make_agent

    monkeypatch.setattr(cli.agent_files, "LOAD_SECONDS", 0.3)
    monkeypatch.setattr(cli.agent_files, "DECISION_SECONDS", 0.1)
    (bots.parent / "loops.py").write_text("while True:\n    pass\n")
    with pytest.raises(ValueError, match=f"{bots.parent}/loops.py took longer than 0.3 s to load"):
        cli.agent_files.register_agent_files([f"{bots.parent}/loops.py:X"])
    cli.agent_files.register_agent_files([f"{bots}:SlowStart"])
    with pytest.raises(AgentError, match=r"bots.py:SlowStart\(\) took longer than 0.3 s to make the agent"):
        make_agent(f"{bots}:SlowStart", 0)
    monkeypatch.setattr(cli.agent_files, "DECISION_SECONDS", 0)  # no limit for a decision: none for loading either
    assert cli.agent_files.load_seconds() == 0


def test_play_keeps_its_game_when_an_agent_ends_the_process(bots: Path) -> None:
    log = bots.parent / "game.json"
    ended = rulecraft("play", "tic-tac-toe", "--seed", "2", "--seat", f"1={bots}:First", "--seat", f"2={bots}:Exits",
                      "--log", str(log))
    assert_refused(ended, f"the agent {bots}:Exits failed in choose(): it called os._exit(0)")
    assert '"place X at 0,0"' in log.read_text()


def test_a_thread_of_an_agent_ending_the_process_ends_it_as_a_failure(bots: Path) -> None:
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:ThreadExits,random")
    assert ended.code == 1 and "a thread of an agent called os._exit(0): the command ends, with status 1" in ended.err


@pytest.mark.parametrize("fails", [True, False])
def test_a_daemon_thread_of_an_agent_ending_the_process_after_the_run_keeps_its_status(
        bots: Path, monkeypatch: pytest.MonkeyPatch, fails: bool) -> None:
    """A daemon thread left by an agent calling ``os._exit(0)`` after the last decision, when the guard on the
    agent's code was off: a run that failed ended with status 0."""
    if fails:
        monkeypatch.setenv("FAILS", "1")
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:ExitsLater,random")
    assert ended.code == (1 if fails else 0), ended.text
    assert f"a thread of an agent called os._exit(0): the command ends, with its own status, {ended.code}" in ended.err
    assert ("out of ideas" if fails else "2 games in") in ended.text, ended.text


@pytest.mark.parametrize(("signal_name", "told"), [("SIGTERM", "SIGTERM"), ("SIGINT", "Ctrl-C")])
def test_a_signal_that_comes_while_an_agent_decides_still_stops_the_run(bots: Path, monkeypatch: pytest.MonkeyPatch,
                                                                         signal_name: str, told: str) -> None:
    monkeypatch.setenv("SIGNAL_NAME", signal_name)
    ended = rulecraft("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:Signalled,random")
    assert ended.code == 1 and f"interrupted ({told}) after 0 of 2 games" in ended.text, ended.text
    assert "Traceback" not in ended.text and "failed in choose()" not in ended.text


def test_an_agent_making_ctrl_c_do_nothing_does_so_only_while_it_decides() -> None:
    import signal

    from cli.agent_exits import agent_code_guarded

    outside = signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal (an xdist worker ignores it)
    try:
        before = signal.getsignal(signal.SIGINT)
        with agent_code_guarded():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGINT) is before
        with pytest.raises(KeyboardInterrupt), agent_code_guarded():  # a Ctrl-C that comes is Ctrl-C, not the agent's
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, outside)
