"""Processes: --jobs is capped by the cores; Ctrl-C stops a run cleanly with a partial report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from cli.main import main
import engine
from engine.runner.executor import LocalExecutor, TooManyJobs, max_jobs
from engine.runner.simulate import simulate
import engine.runner.simulate
import engine.runner.sweep
from engine.runner.sweep import sweep
from budget_cli import run_cli
from engine.runner.backends import MAX_GAMES
from hostile_cli import HANG, ROOT, assert_refused, rulecraft

TILES = engine.load("tutorial-tiles")


def raise_at(monkeypatch: pytest.MonkeyPatch, call: int, error: BaseException) -> None:
    """Game number ``call`` of the run (counted from 1, over the whole run) raises ``error`` as it is played."""
    real: Callable[..., Any] = engine.runner.simulate.play_game
    calls = 0

    def play(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == call:
            raise error
        return real(*args)

    monkeypatch.setattr(engine.runner.simulate, "play_game", play)


def interrupt_at(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Ctrl-C arrives while game number ``call`` (counted from 1, over the whole run) is being played."""
    raise_at(monkeypatch, call, KeyboardInterrupt())


# ---------------------------------------------------------------- --jobs


@pytest.mark.parametrize("command", [["simulate", "tutorial-tiles"], ["sweep", "tutorial-tiles", "board_size=[3, 4]"]])
def test_a_thousand_jobs_are_refused_naming_the_cores(command: list[str]) -> None:
    cores = max_jobs()
    run = rulecraft(*command, "--jobs", "1000")
    assert_refused(run, f"--jobs 1000: 1000 worker processes is more than this machine's {cores} core")
    assert f"use at most {cores}" in run.err


def test_the_executor_refuses_more_workers_than_cores() -> None:
    with pytest.raises(TooManyJobs, match=f"use at most {max_jobs()}"):
        LocalExecutor(max_jobs() + 1)
    assert LocalExecutor(max_jobs()).workers == max_jobs()


# ---------------------------------------------------------------- Ctrl-C, in this process


def test_an_interrupted_simulation_reports_the_games_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_at(monkeypatch, 30)  # 100 games go out in chunks of 12: two chunks are done
    report = simulate(TILES, players=2, n=100, seed=0, agents="random")
    assert report.partial and report.games == 24 and report.planned == 100
    monkeypatch.undo()
    assert report.results == simulate(TILES, players=2, n=24, seed=0, agents="random").results  # the same games
    data = report.to_json()
    assert data["partial"] is True and data["games_planned"] == 100 and data["games"] == 24


def test_a_finished_simulation_is_not_marked_partial() -> None:
    report = simulate(TILES, players=2, n=5, seed=0, agents="random")
    assert not report.partial and "partial" not in report.to_json()


def test_an_interrupted_sweep_keeps_its_runs_and_compares_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_at(monkeypatch, 30)  # the first value's 20 games, then 8 of the second's (chunks of 2)

    def load(options: dict[str, str]) -> engine.Game:
        return engine.load("tutorial-tiles", set_options=options)

    result = sweep(load, "board_size", ["3", "4", "5"], players=2, n=20, seed=0, agents="random")
    assert result.partial and [run.report.games for run in result.runs] == [20, 8]
    assert all(run.comparison is None for run in result.runs)
    data = result.to_json()
    assert data["partial"] is True and data["values_planned"] == 3 and data["runs"][1]["partial"] is True


def kept_file(name: str) -> Path:
    """The file an interrupted run names to go on from: ``name``.partial.json in this user's own folder of the
    temporary folder."""
    return Path(tempfile.gettempdir()) / f"rulecraft-{os.getuid()}" / f"{name}.partial.json"


def test_an_interrupted_simulate_command_prints_the_partial_report(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    interrupt_at(monkeypatch, 30)
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "100", "--format", "json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["games"] == 24
    kept = kept_file("tutorial-tiles-seed0")
    assert result.stderr == ("interrupted (Ctrl-C) after 24 of 100 games: the report is partial; go on with the same "
                             f"command and --resume {kept}\n")
    assert json.loads(kept.read_text())["counts"]["games"] == 24 and not list(tmp_path.iterdir())


@pytest.mark.parametrize("told", [signal.SIGTERM, signal.SIGINT])
def test_told_to_stop_while_the_report_is_written_the_report_is_written_first(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, told: signal.Signals) -> None:
    """Every game played, a stop arriving while the report was built ended the command ('Aborted!') with nothing
    written; now the report and the games' rows are written, then the command stops as told."""
    import cli.commands.runs as runs

    real = runs._write_report

    def told_while_writing(*args: Any) -> None:
        handler = signal.getsignal(told)  # what the command put in force; a real signal could end this test's process
        assert callable(handler), f"nothing handles {told.name} while the report is written ({handler!r})"
        handler(told, None)
        real(*args)

    monkeypatch.setattr(runs, "_write_report", told_while_writing)
    out, rows = tmp_path / "report.json", tmp_path / "games.csv"
    # the handlers of a command started from a terminal, whatever this process was given (a test worker ignores SIGINT)
    before = {sig: signal.signal(sig, handler)
              for sig, handler in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL))}
    try:
        result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "20", "--out", str(out), "--games", str(rows)])
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    assert result.exit_code == 1 and isinstance(result.exception, (KeyboardInterrupt, SystemExit)), result.output
    assert json.loads(out.read_text())["games"] == 20
    assert len(rows.read_text().splitlines()) == 21  # a header and a row per game


def fail_at(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Game number ``call`` of the run (counted from 1) fails in the ruleset's code."""
    from engine.core.errors import EffectRuntimeError

    raise_at(monkeypatch, call, EffectRuntimeError("division by zero"))


def test_a_game_failing_in_a_run_keeps_the_games_finished_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing game stopped simulate with its error alone: the games finished before it (hours of a search bot's
    play) were lost.  The error now carries them as a partial report, which the command prints (or writes to
    --out) before the error, exit status 1."""
    from engine.runner.simulate import GameFailed, derive_seed

    fail_at(monkeypatch, 30)  # 100 games go out in chunks of 12: the 29 before the 30th are kept, its chunk's too
    with pytest.raises(GameFailed, match=rf"^division by zero \(in the game of seed {derive_seed(0, 29)}; watch it") as info:
        simulate(TILES, players=2, n=100, seed=0, agents="random")
    report = info.value.report
    assert report is not None and report.partial and report.games == 29 and report.failed == str(info.value)
    fail_at(monkeypatch, 30)
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "100", "--format", "json"])
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["games"] == 29 and data["partial"] is True and data["games_planned"] == 100
    assert data["failed"].startswith("division by zero (in the game of seed ")
    assert result.stderr == (f"{data['failed']}\nthe run stopped there, after 29 of 100 games: the report covers every "
                             "game before the one that failed; go on with the same command and --resume "
                             f"{kept_file('tutorial-tiles-seed0')}\n")
    fail_at(monkeypatch, 1)
    text = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "100"]).stdout
    assert text.startswith("PARTIAL REPORT: stopped by a game that failed after 0 of 100 games")
    assert "no game finished: nothing to sum up" in text and "first player" not in text


def test_a_game_failing_in_a_sweep_keeps_the_runs_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game failing in the second value's run lost the first value's run too: the sweep said only the error."""
    fail_at(monkeypatch, 30)  # the first value's 20 games, then the 9 of the second's before its 10th

    def load(options: dict[str, str]) -> engine.Game:
        return engine.load("tutorial-tiles", set_options=options)

    result = sweep(load, "board_size", ["3", "4", "5"], players=2, n=20, seed=0, agents="random")
    assert result.partial and [run.report.games for run in result.runs] == [20, 9]
    assert result.failed is not None and result.failed.startswith("division by zero (in the game of seed ")
    data = result.to_json()
    assert data["failed"] == result.failed and data["values_planned"] == 3 and data["runs"][1]["partial"] is True
    fail_at(monkeypatch, 30)
    run = CliRunner().invoke(main, ["sweep", "tutorial-tiles", "board_size=[3, 4, 5]", "-n", "20"])
    assert run.exit_code == 1 and "PARTIAL: stopped by a game that failed in the run of 4 (9 of 20 games)" in run.stdout
    kept = kept_file("tutorial-tiles-board_size-seed0")
    assert run.stderr.endswith("\nthe sweep stopped there: 2 of 3 values run, the last one partial; go on with the same "
                               f"command and --resume {kept}\n")


def test_an_interrupted_check_says_what_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.runner.scenario

    real = engine.runner.scenario.run_scenario
    calls = 0

    def run_scenario(path: Path) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(path)

    monkeypatch.setattr(engine.runner.scenario, "run_scenario", run_scenario)
    result = CliRunner().invoke(main, ["check", str(ROOT / "rulesets" / "iconoclasm-cards" / "scenarios")])
    assert result.exit_code == 1
    assert "PARTIAL: interrupted after 2 of " in result.stdout and "2 passed, 0 failed" in result.stdout
    assert result.stderr == "interrupted\n"


def interrupt_bench_at(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Ctrl-C arrives while bench plays its playout number ``call`` (counted from 1 over all its runs)."""
    import engine.runner.bench

    real = engine.runner.bench.playout
    calls = 0

    def playout(*args: Any) -> int:
        nonlocal calls
        calls += 1
        if calls == call:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(engine.runner.bench, "playout", playout)


@pytest.mark.parametrize(("call", "measured"), [(9, "measured 1 run of 5 playouts, not 3 of 5"),
                                                (4, "measured 1 run of 3 playouts, not 3 of 5")])
def test_an_interrupted_bench_reports_what_it_measured(monkeypatch: pytest.MonkeyPatch, call: int, measured: str) -> None:
    interrupt_bench_at(monkeypatch, call)
    result = CliRunner().invoke(main, ["bench", "tutorial-tiles", "--playouts", "5", "--format", "json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["partial"] is True and report["playouts_per_second"] > 0
    assert result.stderr == f"interrupted (Ctrl-C): {measured}\n"


def test_a_bench_interrupted_before_a_game_ended_says_nothing_was_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_bench_at(monkeypatch, 1)
    result = CliRunner().invoke(main, ["bench", "tutorial-tiles", "--playouts", "5"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "interrupted (Ctrl-C) before a game was played: nothing was measured\n"


def interrupt_agent_bench_at(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Ctrl-C arrives during decision number ``call`` of bench --agent (counted from 1 over all its runs)."""
    import engine.runner.bench

    real = engine.runner.bench.make_agent
    calls = 0

    class Interrupted:
        def __init__(self, agent: Any) -> None:
            self.agent, self.name = agent, agent.name

        def choose(self, state: Any) -> Any:
            nonlocal calls
            calls += 1
            if calls == call:
                raise KeyboardInterrupt
            return self.agent.choose(state)

    monkeypatch.setattr(engine.runner.bench, "make_agent", lambda spec, seed: Interrupted(real(spec, seed)))


def test_an_interrupted_agent_bench_reports_the_runs_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_agent_bench_at(monkeypatch, 5)  # the third run of two decisions
    result = CliRunner().invoke(main, ["bench", "tutorial-tiles", "--agent", "greedy", "--decisions", "2"])
    assert result.exit_code == 1
    assert "greedy decided 2 positions in " in result.stdout and "(fastest of 2 runs)" in result.stdout
    assert result.stderr == "interrupted (Ctrl-C): measured 2 runs of 3\n"


def test_an_agent_bench_interrupted_in_its_first_run_says_nothing_was_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_agent_bench_at(monkeypatch, 1)
    first = CliRunner().invoke(main, ["bench", "tutorial-tiles", "--agent", "greedy", "--decisions", "2", "--format", "json"])
    assert (first.exit_code, first.stdout) == (1, "")
    assert first.stderr == "interrupted (Ctrl-C) during the first run: nothing was measured\n"


# ---------------------------------------------------------------- Ctrl-C, for real


def children(pid: int) -> list[str]:
    """The process ids of ``pid``'s children (Linux)."""
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def _default_ctrl_c() -> None:
    """In the child, before it runs: Ctrl-C (SIGINT) handled the default way."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(args: list[str], settle: float = 0.5,
                sig: int = signal.SIGINT) -> tuple[subprocess.CompletedProcess[bytes], float]:
    """Run ``rulecraft ARGS`` (with workers), press Ctrl-C (or send ``sig``) ``settle`` seconds after its workers run,
    and wait for it to end."""
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        pytest.skip("needs /proc to see the worker processes")
    command = [sys.executable, "-c", "from cli.main import main; main()", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # a shell without job control starts background commands with Ctrl-C ignored, and Python keeps it so: the
    # command under test gets Ctrl-C's default whatever started the tests
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env,
                               preexec_fn=_default_ctrl_c)
    deadline = time.monotonic() + HANG
    while len(children(process.pid)) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    time.sleep(settle)  # let some games finish
    pressed = time.monotonic()
    process.send_signal(sig)
    out, err = process.communicate(timeout=HANG)
    return subprocess.CompletedProcess(args, process.returncode, out, err), time.monotonic() - pressed


def test_ctrl_c_stops_simulate_with_a_partial_report_in_out(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done, seconds = interrupted(["simulate", "tutorial-tiles", "-n", "10000000", "--jobs", "2", "--format", "json",
                                 "--out", str(out)])
    errors = done.stderr.decode()
    assert done.returncode == 1, errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors and "Aborted" not in errors
    report = json.loads(out.read_text())
    assert report["partial"] is True and report["games_planned"] == 10_000_000 and report["games"] < 10_000_000
    assert errors == (f"interrupted (Ctrl-C) after {report['games']} of 10000000 games: the report written is partial; "
                      f"go on with the same command and --resume {out}\n")
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]
    assert seconds < HANG


@pytest.mark.parametrize("sig", [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)])
def test_killed_or_its_terminal_closed_simulate_stops_as_on_ctrl_c(tmp_path: Path, sig: int) -> None:
    """SIGTERM (kill) and SIGHUP (the terminal closed) ended simulate at once: no partial report, and the workers,
    their pipe gone, printed tracebacks.  They now stop it as Ctrl-C does."""
    out = tmp_path / "report.json"
    done, seconds = interrupted(["simulate", "tutorial-tiles", "-n", "10000000", "--jobs", "2", "--format", "json",
                                 "--out", str(out)], sig=sig)
    errors = done.stderr.decode()
    assert done.returncode == 1 and "Traceback" not in errors, errors
    report = json.loads(out.read_text())
    assert report["partial"] is True and report["games"] < 10_000_000
    name = signal.Signals(sig).name  # the message says what stopped it (it said Ctrl-C)
    assert errors == (f"interrupted ({name}) after {report['games']} of 10000000 games: the report written is partial; "
                      f"go on with the same command and --resume {out}\n")
    assert seconds < HANG


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_pressed_as_the_workers_start_still_stops_the_run(attempt: int) -> None:
    """Pressed while the pool is still starting (its workers forked, its threads not yet), Ctrl-C once left the
    workers running with no pool to end them, holding the output open: the command never ended."""
    done, seconds = interrupted(["simulate", "tutorial-tiles", "-n", "10000000", "--jobs", "2"], settle=0.0)
    assert done.returncode == 1 and "Traceback" not in done.stderr.decode()
    assert seconds < HANG


def test_ctrl_c_stops_sweep_and_no_worker_prints_anything() -> None:
    done, _ = interrupted(["sweep", "tutorial-tiles", "board_size=[3, 4]", "-n", "5000000", "--jobs", "2"])
    assert done.returncode == 1
    kept = kept_file("tutorial-tiles-board_size-seed0")
    assert done.stderr.decode() == ("interrupted: 1 of 2 values run, the last one partial; go on with the same command "
                                    f"and --resume {kept}\n")
    assert "PARTIAL: interrupted in the run of 3" in done.stdout.decode()


# ---------------------------------------------------------------- how many games


@pytest.mark.parametrize("command", [["simulate", "tutorial-tiles", "-n"], ["sweep", "tutorial-tiles", "board_size=[3, 4]", "-n"]])
def test_a_number_of_games_past_the_most_a_run_plays_is_refused_at_once(command: list[str]) -> None:
    ended = run_cli([*command, "99999999999999999999"], timeout=HANG)
    assert ended.code == 2 and "Traceback" not in ended.err, ended
    assert "99999999999999999999 is not in the range 1<=x<=10000000" in ended.err
    ended.assert_bounded()


def test_simulate_refuses_a_number_of_games_past_the_most_a_run_plays() -> None:
    for n in (0, MAX_GAMES + 1, 10**20):
        with pytest.raises(ValueError, match="a run plays from 1 to 10,000,000 games"):
            simulate(TILES, 2, n, 0, "random")


def test_a_sweep_whose_runs_play_too_many_games_in_all_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each -n was capped, not their product: 100 values of 10,000,000 games each would keep a billion results (about
    600 GB) until the runs are compared; two such values already twice what one run may keep."""

    def play(*args: Any) -> Any:
        raise AssertionError("a game was played")

    monkeypatch.setattr(engine.runner.sweep, "simulate", play)
    ended = CliRunner().invoke(main, ["sweep", "tutorial-tiles", "board_size=[3, 4]", "-n", str(MAX_GAMES)])
    assert ended.exit_code == 2, ended.output
    assert "2 values of 10,000,000 games each is 20,000,000 games" in ended.output
    assert "use -n 5,000,000 or fewer" in ended.output
    with pytest.raises(ValueError, match="a sweep plays at most 10,000,000 in all, as a run does"):
        sweep(lambda options: TILES, "board_size", ["3", "4", "5"], 2, MAX_GAMES // 2, 0, "random")


# ---------------------------------------------------------------- play, told to stop


@pytest.mark.parametrize("sig", [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)])
def test_a_game_played_is_kept_in_its_log_when_the_terminal_closes_or_it_is_killed(tmp_path: Path, sig: int) -> None:
    """Ctrl-C kept the game so far in --log, but SIGHUP (the terminal window closed) and SIGTERM (kill) ended the
    process at once and the game was lost; both now stop it as Ctrl-C does."""
    log = tmp_path / "game.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", "play", "tic-tac-toe",
                                "--seed", "1", "--log", str(log)], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"1\n")
    process.stdin.flush()
    seen = b""
    while seen.count(b"(X)>") < 2:  # the move and the bot's reply are played: the second prompt waits
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    process.send_signal(sig)
    out, err = process.communicate(timeout=HANG)
    assert "Traceback" not in err.decode()
    assert json.loads(log.read_text())["actions"] == ["place X at 0,0", "place O at 2,1"]
