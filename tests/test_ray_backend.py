"""Simulations on Ray: the report of ``--backend ray`` is byte-identical to ``--jobs 1`` on shipped rulesets of each
kind (COMPARED; every shipped ruleset with the slow tests).

One local Ray with 2 CPUs is started for the module (start-up takes seconds), in one worker of the run, and not in
that worker's own process: in a driver process of its own (tests/ray_driver.py), to which the tests hand what they
run on Ray, so that Ray's core ending its process now and then fails a test, not the whole run.  Needs the ``ray``
extra; without it these tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import importlib
import operator
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import main
import engine
from engine.compiling.loading import GameRef
from engine.core.errors import RulecraftError
from engine.runner.distributed import RayExecutor, make_executor
from engine.runner.executor import WorkerLost
from engine.runner.simulate import Chunk, GameFailed, play_chunk, simulate
from tests.ray_driver import Driver, DriverLost, local_ray

# One worker of the run takes every test of this module (--dist loadgroup): two local clusters started at once by two
# workers on a 2-core machine crashed Ray's own core now and then ("Tried to complete task that was not pending").
pytestmark = pytest.mark.xdist_group("ray")

ray: Any = importlib.import_module("ray") if os.environ.get("CI") else pytest.importorskip(
    "ray", reason="needs the ray extra: pip install -e '.[ray]'")

GAMES = 40
"""Games per ruleset in the comparison with ``--jobs 1``: 16 chunks of 2 on 2 CPUs, each worker playing games in an
order of its own (it was 200, the suite's slowest module for no more than a game's seed and index already decide)."""


@pytest.fixture(scope="module")
def on_ray() -> Iterator[Driver]:
    """A driver process with a local cluster for the module, one at a time on this machine whatever the scheduling: in
    a full run two workers still started theirs in the same second now and then (the group was split), and Ray's core
    crashed in one of them ("An unexpected system state has occurred").  (The file lock comes with Ray.)"""
    from filelock import FileLock

    with FileLock(Path(tempfile.gettempdir()) / "rulecraft-tests-local-ray.lock", timeout=900):
        driver = Driver(partial(local_ray, 2))
        driver.start()
        try:
            yield driver
        finally:
            driver.close()


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


COMPARED = {"kuhn-poker", "tutorial-tiles", "spell-cycles"}
"""The rulesets whose simulations are compared in every run: chance and hidden hands, a board and hands, and a ruleset
of several files (included on each Ray worker); the others' comparisons are slow tests (all fifteen took some 150 s of
a loaded machine, banner-clash's 57 s)."""


@pytest.mark.parametrize("name", [name if name in COMPARED else pytest.param(name, marks=pytest.mark.slow)
                                  for name in sorted(engine.builtin_names())])
def test_simulate_on_ray_equals_one_job(name: str, on_ray: Driver) -> None:
    args = ("simulate", name, "-n", str(GAMES), "--format", "json")
    assert on_ray.call(_run, *args, "--backend", "ray") == _run(*args, "--jobs", "1")


def test_sweep_on_ray_equals_one_job(on_ray: Driver) -> None:
    args = ("sweep", "tutorial-tiles", "board_size=[3, 4]", "-n", "60", "--format", "json")
    assert on_ray.call(_run, *args, "--backend", "ray") == _run(*args)


def _used_cluster() -> tuple[str, int, list[int]]:
    executor = make_executor("ray")
    return type(executor).__name__, executor.workers, list(executor.map(abs, [-3, 1, -2, 5]))


def test_the_executor_uses_the_cluster_and_keeps_order(on_ray: Driver) -> None:
    assert on_ray.call(_used_cluster) == ("RayExecutor", 2, [3, 1, 2, 5])


def _raised(fn: Callable[[], Any]) -> Exception:
    """The error ``fn()`` raises (none: a failing test), to be checked where the test runs."""
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - whichever it is, the test says what it expected
        return err
    raise AssertionError("it raised nothing")


def _stale_chunk() -> Exception:
    stale = Chunk(replace(GameRef.of(engine.load("tutorial-tiles")), content_hash="not-the-content-hash"),
                  2, ("random", "random"), 0, 0, 1)
    return _raised(lambda: list(make_executor("ray").map(play_chunk, [stale])))


def test_an_engine_error_in_a_task_comes_back_as_one(on_ray: Driver) -> None:
    """A worker refuses a ruleset that changed since the run started; the message arrives as the engine's error."""
    err = on_ray.call(_stale_chunk)
    assert isinstance(err, RulecraftError) and "changed since the game was loaded" in str(err)


def _failing_on_ray(path: str) -> tuple[Exception, Any]:
    """The error and (an exception pickles without it) the report."""
    err = _raised(lambda: simulate(engine.load(path), players=2, n=200, seed=0, agents="random",
                                   executor=make_executor("ray")))
    return err, getattr(err, "report", None)


def test_a_game_failing_on_a_worker_keeps_the_games_finished_before_it(on_ray: Driver) -> None:
    """A task's engine error came back as a plain RulecraftError: a game's failing effect was no longer one, so a run on
    Ray lost every game finished before it where local workers keep them."""
    path = str(Path(__file__).parent / "data" / "failing-effect")
    failed, report = on_ray.call(_failing_on_ray, path)
    with pytest.raises(GameFailed) as local:
        simulate(engine.load(path), players=2, n=200, seed=0, agents="random", jobs=1)
    assert isinstance(failed, GameFailed) and "in the game of seed " in str(failed)
    assert str(failed) == str(local.value) and report is not None and report.partial


class _Losing(RayExecutor):
    """Ray's executor whose third task's worker exits (each task calls what it is given, to be found on the workers)."""

    def map(self, fn: Any, items: Any) -> Any:
        calls = [partial(os._exit, 1) if i == 2 else partial(fn, item) for i, item in enumerate(items)]
        return super().map(operator.methodcaller("__call__"), calls)


def _losing_runs() -> tuple[Exception, Exception, Any]:
    stopped = _raised(lambda: simulate("tutorial-tiles", n=200, seed=0, executor=_Losing()))
    return _raised(lambda: list(make_executor("ray").map(os._exit, [1]))), stopped, getattr(stopped, "report", None)


def test_a_task_lost_with_its_worker_stops_the_run_with_the_games_before_it(on_ray: Driver) -> None:
    """A Ray worker killed while it played (out of memory, a kill -9) ended the command with Ray's WorkerCrashedError
    and its traceback, every game finished before it lost; it is now the engine's WorkerLost, and simulate keeps the
    games of the tasks read before it, marked partial, as when a game fails."""
    lost, stopped, report = on_ray.call(_losing_runs)
    assert isinstance(lost, WorkerLost) and re.match(
        r"a Ray task was lost \(WorkerCrashedError: .*\): the work it was running was lost", str(lost)), repr(lost)
    assert isinstance(stopped, GameFailed) and re.search(
        r"a Ray task was lost .*; the run stopped at game (\d+) of 200$", str(stopped)), repr(stopped)
    assert report is not None and report.partial and report.games == 2 * (200 // 16)
    assert report.results == simulate("tutorial-tiles", n=report.games, seed=0).results


def test_a_driver_ended_by_its_core_fails_the_test_and_the_next_starts_another() -> None:
    """Ray's core ending its process (an abort, as in TaskManager::CompletePendingTask) killed the pytest worker running
    this module, and with it the run; it ends the driver now, which fails the one test, quoting what the driver said."""
    driver = Driver()
    try:
        with pytest.raises(DriverLost, match=r"(?s)the driver process ended \(exit code -6\) while it ran _aborting: .*"
                                             r"its last output:\n.*the core said so"):
            driver.call(_aborting, "the core said so")
        assert driver.call(abs, -3) == 3
    finally:
        driver.close()


def _aborting(said: str) -> None:
    os.write(2, f"{said}\n".encode())
    os.abort()


def test_the_local_ray_is_one_of_its_own_whatever_ray_address_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--backend ray`` without ``--address`` (and this module's cluster) called ray.init without an address, which
    joins the cluster RAY_ADDRESS names or the last one ``ray start`` began on the machine: beside another Ray it
    failed ('When connecting to an existing cluster, num_cpus and num_gpus must not be provided', or 'cannot start or
    reach a local Ray: Failed to connect to Ray cluster at ...') or ran on the other cluster."""
    asked: list[dict[str, Any]] = []
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **options: asked.append(options))
    RayExecutor(cpus=2)
    RayExecutor("auto")
    assert [(options["address"], options["num_cpus"]) for options in asked] == [("local", 2), ("auto", None)]


def test_address_without_ray_backend_is_refused() -> None:
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "5", "--address", "auto"])
    assert result.exit_code == 1
    assert "--address names a Ray cluster: use it with --backend ray" in result.output


def _cpus_free_after_stopping() -> tuple[Any, float]:
    results = make_executor("ray").map(time.sleep, [0, 60, 60, 60])
    first = next(results)
    results.close()
    deadline = time.monotonic() + 90  # a loaded 2-core machine took over 20 s once to report a cancelled task's CPU free
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    return first, ray.available_resources().get("CPU", 0)


def test_tasks_not_read_are_cancelled(on_ray: Driver) -> None:
    """Stopping early (as Ctrl-C does) cancels the tasks still running: the cluster's CPUs are free again at once."""
    assert on_ray.call(_cpus_free_after_stopping) == (None, 2)


def _interrupted_on_ray() -> Any:
    def interrupt(finished: int) -> None:
        raise KeyboardInterrupt

    game = engine.load("tutorial-tiles")
    return simulate(game, players=2, n=400, seed=3, agents="random", executor=make_executor("ray"), progress=interrupt)


def test_an_interrupted_ray_run_keeps_the_games_finished_as_docs_scaling_says(on_ray: Driver) -> None:
    """Ctrl-C during a Ray run gives the partial report of the games finished, and docs/scaling.md says so."""
    report = on_ray.call(_interrupted_on_ray)
    assert report.partial and report.planned == 400 and 0 < report.games < 400
    whole = simulate(engine.load("tutorial-tiles"), players=2, n=400, seed=3, agents="random")
    assert report.results == whole.results[:report.games]
    doc = " ".join((Path(__file__).resolve().parent.parent / "docs" / "scaling.md").read_text(encoding="utf-8").split())
    assert "Ctrl-C cancels the tasks not yet finished and, as with local workers, prints" in doc
    assert "marked `PARTIAL REPORT`" in doc
