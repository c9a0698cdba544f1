"""Simulations on Ray: the report of ``--backend ray`` is byte-identical to ``--jobs 1`` on every shipped ruleset.

One local Ray with 2 CPUs is started for the module (start-up takes seconds), in one worker of the run.  Needs the ``ray`` extra;
without it these tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import importlib
import operator
import os
import tempfile
import time
from collections.abc import Iterator
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
from engine.runner.simulate import Chunk, play_chunk

# One worker of the run takes every test of this module (--dist loadgroup): two local clusters started at once by two
# workers on a 2-core machine crashed Ray's own core now and then ("Tried to complete task that was not pending").
pytestmark = pytest.mark.xdist_group("ray")

ray: Any = importlib.import_module("ray") if os.environ.get("CI") else pytest.importorskip(
    "ray", reason="needs the ray extra: pip install -e '.[ray]'")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """A local cluster for the module, one at a time on this machine whatever the scheduling: in a full run two workers
    still started theirs in the same second now and then (the group was split), and Ray's core crashed in one of them
    ("An unexpected system state has occurred"), killing the worker and hanging the run at its end.  (The file lock
    comes with Ray.)"""
    from filelock import FileLock

    with FileLock(Path(tempfile.gettempdir()) / "rulecraft-tests-local-ray.lock", timeout=900):
        # address "local": a cluster of its own, not one named by RAY_ADDRESS or started by `ray start` on this
        # machine, which Ray's default joins (there num_cpus was refused, or the tests ran on someone else's cluster)
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            yield
        finally:
            ray.shutdown()


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", sorted(engine.builtin_names()))
def test_simulate_on_ray_equals_one_job(name: str) -> None:
    alone = _run("simulate", name, "-n", "200", "--format", "json", "--jobs", "1")
    assert _run("simulate", name, "-n", "200", "--format", "json", "--backend", "ray") == alone


def test_sweep_on_ray_equals_one_job() -> None:
    args = ["sweep", "tutorial-tiles", "board_size=[3, 4]", "-n", "60", "--format", "json"]
    assert _run(*args, "--backend", "ray") == _run(*args)


def test_the_executor_uses_the_cluster_and_keeps_order() -> None:
    executor = make_executor("ray")
    assert isinstance(executor, RayExecutor) and executor.workers == 2
    assert list(executor.map(abs, [-3, 1, -2, 5])) == [3, 1, 2, 5]


def test_an_engine_error_in_a_task_comes_back_as_one() -> None:
    """A worker refuses a ruleset that changed since the run started; the message arrives as the engine's error."""
    stale = Chunk(replace(GameRef.of(engine.load("tutorial-tiles")), content_hash="not-the-content-hash"),
                  2, ("random", "random"), 0, 0, 1)
    with pytest.raises(RulecraftError, match="changed since the game was loaded"):
        list(make_executor("ray").map(play_chunk, [stale]))


def test_a_game_failing_on_a_worker_keeps_the_games_finished_before_it() -> None:
    """A task's engine error came back as a plain RulecraftError: a game's failing effect was no longer one, so a run on
    Ray lost every game finished before it where local workers keep them."""
    from engine.runner.simulate import GameFailed, simulate

    failing = engine.load(str(Path(__file__).parent / "data" / "failing-effect"))
    with pytest.raises(GameFailed, match="in the game of seed ") as info:
        simulate(failing, players=2, n=200, seed=0, agents="random", executor=make_executor("ray"))
    with pytest.raises(GameFailed) as local:
        simulate(failing, players=2, n=200, seed=0, agents="random", jobs=1)
    assert str(info.value) == str(local.value) and info.value.report is not None and info.value.report.partial


def test_a_task_lost_with_its_worker_stops_the_run_with_the_games_before_it() -> None:
    """A Ray worker killed while it played (out of memory, a kill -9) ended the command with Ray's WorkerCrashedError
    and its traceback, every game finished before it lost; it is now the engine's WorkerLost, and simulate keeps the
    games of the tasks read before it, marked partial, as when a game fails."""
    from engine.runner.executor import WorkerLost
    from engine.runner.simulate import GameFailed, simulate

    with pytest.raises(WorkerLost, match=r"^a Ray task was lost \(WorkerCrashedError: .*\): the work it was running was lost"):
        list(make_executor("ray").map(os._exit, [1]))

    class Losing(RayExecutor):
        """Ray's executor whose third task's worker exits (each task calls what it is given, to be found on the workers)."""

        def map(self, fn: Any, items: Any) -> Any:
            calls = [partial(os._exit, 1) if i == 2 else partial(fn, item) for i, item in enumerate(items)]
            return super().map(operator.methodcaller("__call__"), calls)

    with pytest.raises(GameFailed, match=r"a Ray task was lost .*; the run stopped at game (\d+) of 200$") as info:
        simulate("tutorial-tiles", n=200, seed=0, executor=Losing())
    report = info.value.report
    assert report is not None and report.partial and report.games == 2 * (200 // 16)
    assert report.results == simulate("tutorial-tiles", n=report.games, seed=0).results


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


def test_tasks_not_read_are_cancelled() -> None:
    """Stopping early (as Ctrl-C does) cancels the tasks still running: the cluster's CPUs are free again at once."""
    results = make_executor("ray").map(time.sleep, [0, 60, 60, 60])
    assert next(results) is None
    results.close()
    deadline = time.monotonic() + 90  # a loaded 2-core machine took over 20 s once to report a cancelled task's CPU free
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2


def test_an_interrupted_ray_run_keeps_the_games_finished_as_docs_scaling_says() -> None:
    """Ctrl-C during a Ray run gives the partial report of the games finished, and docs/scaling.md says so."""
    from engine.runner.simulate import simulate

    def interrupt(finished: int) -> None:
        raise KeyboardInterrupt

    game = engine.load("tutorial-tiles")
    report = simulate(game, players=2, n=400, seed=3, agents="random", executor=make_executor("ray"), progress=interrupt)
    assert report.partial and report.planned == 400 and 0 < report.games < 400
    whole = simulate(game, players=2, n=400, seed=3, agents="random")
    assert report.results == whole.results[:report.games]
    doc = " ".join((Path(__file__).resolve().parent.parent / "docs" / "scaling.md").read_text(encoding="utf-8").split())
    assert "Ctrl-C cancels the tasks not yet finished and, as with local workers, prints" in doc
    assert "marked `PARTIAL REPORT`" in doc
