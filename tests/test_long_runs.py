"""Long runs: a report counts its games as they arrive (its memory does not grow with the games), and an interrupted
``simulate`` or ``sweep`` on the command line goes on from the file it wrote (``--resume``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner, Result

from cli.commands.runs import _own_temporary_file
from cli.main import main
import engine
import engine.runner.simulate as simulating
import engine.runner.sweep as sweeping
from engine.runner.report import SimulationReport
from engine.runner.simulate import simulate
from engine.runner.sweep import Sweep, sweep

GAME = "tic-tac-toe"


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture
def stopped_once(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The next run the command line starts is stopped (as by Ctrl-C) after 20 games; later runs are not."""
    real, calls = simulating.simulate, []

    def stopping(*args: Any, **kwargs: Any) -> SimulationReport:
        calls.append(1)
        if len(calls) == 1:
            def stop(done: int) -> None:
                if done >= 20:
                    raise KeyboardInterrupt
            kwargs["progress"] = stop
        return real(*args, **kwargs)

    monkeypatch.setattr(simulating, "simulate", stopping)
    monkeypatch.setattr(sweeping, "simulate", stopping)
    yield


def test_a_report_counts_its_games_without_keeping_them_and_says_the_same() -> None:
    """A report kept every game's result, ~1.5 KB a game in the main process (10 million games, 15 GB): now it counts
    them as they arrive, and keeps them only when asked (by default for runs of at most 100,000 games).  Its figures
    are the same to the last bit, and what it holds does not grow with the games."""
    kept = simulate(GAME, n=300, seed=2, keep_results=True)
    counted = simulate(GAME, n=300, seed=2, keep_results=False)
    assert kept.kept and not counted.kept and counted.to_json() == kept.to_json()
    with pytest.raises(ValueError, match=r"^this report kept no game's result, only the counts .*keep_results=True"):
        list(counted.results)
    seen: list[int] = []
    few = simulate(GAME, n=30, seed=2, keep_results=False, on_game=lambda result: seen.append(result.seed))
    assert seen == [r.seed for r in kept.results[:30]]
    assert len(json.dumps(counted.tally.to_json())) < 1.3 * len(json.dumps(few.tally.to_json()))


def test_a_partial_report_goes_on_from_its_json_to_the_whole_run_s_report() -> None:
    """``SimulationReport.from_json`` reads the counts an interrupted run's JSON holds, and ``resume`` goes on from it."""

    def stop(done: int) -> None:
        if done >= 20:
            raise KeyboardInterrupt

    partial = simulate(GAME, n=60, seed=4, progress=stop)
    again = SimulationReport.from_json(json.loads(json.dumps(partial.to_json())))
    assert simulate(GAME, n=60, seed=4, resume=again).to_json() == simulate(GAME, n=60, seed=4).to_json()
    old = simulate(GAME, n=5).to_json()
    del old["counts"]  # as a finished run's report was written
    with pytest.raises(ValueError, match="^it holds no counts to go on from"):
        SimulationReport.from_json(old)


def test_a_finished_run_goes_on_from_its_json_to_a_longer_run_s_report() -> None:
    """A finished run's JSON held no counts, so a run could not be made longer: 1,000 games, then 5,000, played the
    first 1,000 again.  Its counts are kept now, and resumed with a larger n it plays only the games after its own."""
    played: list[int] = []
    short = SimulationReport.from_json(json.loads(json.dumps(simulate(GAME, n=20, seed=6).to_json())))
    longer = simulate(GAME, n=50, seed=6, resume=short, on_game=lambda result: played.append(result.seed))
    assert longer.to_json() == simulate(GAME, n=50, seed=6).to_json() and len(played) == 30


def resume_file(output: str, name: str) -> Path:
    """The file an interrupted run's message names to go on from: ``name``.partial.json in this user's own folder of
    the temporary folder."""
    kept = Path(tempfile.gettempdir()) / f"rulecraft-{os.getuid()}" / f"{name}.partial.json"
    assert output.rstrip().endswith(f"go on with the same command and --resume {kept}"), output
    return kept


def test_an_interrupted_simulate_command_goes_on_with_resume(tmp_path: Path, stopped_once: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``rulecraft simulate`` had no resume, its output holding no per-game results: an interrupted run now names a
    file to go on from (its JSON report, or a .partial.json it writes in the temporary folder), and the run resumed
    reports what the run never interrupted does; its --games rows go on from the games before."""
    monkeypatch.chdir(tmp_path)
    stopped = run("simulate", GAME, "-n", "60", "--seed", "3", "--games", "first.csv")
    assert stopped.exit_code == 1
    assert "interrupted (Ctrl-C) after 2" in stopped.output
    kept = resume_file(stopped.output, "tic-tac-toe-seed3")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["first.csv"]  # nothing written where it was not asked
    resumed = run("simulate", GAME, "-n", "60", "--seed", "3", "--resume", str(kept),
                  "--games", "rest.csv", "--format", "json", "--out", "resumed.json")
    whole = run("simulate", GAME, "-n", "60", "--seed", "3", "--games", "whole.csv", "--format", "json", "--out", "whole.json")
    assert resumed.exit_code == whole.exit_code == 0, resumed.output
    assert json.loads(Path("resumed.json").read_text()) == json.loads(Path("whole.json").read_text())
    rows = Path("first.csv").read_text().splitlines() + Path("rest.csv").read_text().splitlines()[1:]
    assert rows == Path("whole.csv").read_text().splitlines()



def test_the_file_to_go_on_from_is_named_safely_whatever_the_rulesets_name(tmp_path: Path, stopped_once: None) -> None:
    """The temporary file's name was made from the ruleset's own ``name:``, which may hold separators: a ruleset named
    ``../up/and away`` named a path through folders that are not there, and the run could not be gone on from."""
    text = (Path(__file__).resolve().parents[1] / "rulesets" / GAME / "ruleset.yaml").read_text(encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(text.replace("name: tic-tac-toe", 'name: "../up/and away"'), encoding="utf-8")
    stopped = run("simulate", str(tmp_path), "-n", "60", "--seed", "3")
    assert stopped.exit_code == 1, stopped.output
    assert resume_file(stopped.output, "up-and-away-seed3").is_file()

def test_resume_refuses_a_file_of_another_run_saying_what_differs(tmp_path: Path, stopped_once: None) -> None:
    stopped = run("simulate", GAME, "-n", "60", "--seed", "3", "--format", "json", "--out", str(tmp_path / "run.json"))
    assert stopped.output.rstrip().endswith(f"--resume {tmp_path / 'run.json'}")
    other = run("simulate", GAME, "-n", "60", "--seed", "4", "--resume", str(tmp_path / "run.json"))
    assert other.exit_code == 2 and "its seed is 3, this run's 4" in other.output
    fewer = run("simulate", GAME, "-n", "10", "--seed", "3", "--resume", str(tmp_path / "run.json"))
    assert fewer.exit_code == 2 and re.search(r"holds 2\d games, more than the 10 of this run", fewer.output)
    (tmp_path / "done.json").write_text(run("simulate", GAME, "-n", "5", "--format", "json").output)
    done = run("simulate", GAME, "-n", "60", "--format", "json", "--resume", str(tmp_path / "done.json"))
    assert done.exit_code == 0 and json.loads(done.output) == json.loads(run("simulate", GAME, "-n", "60", "--format",
                                                                               "json").output)
    (tmp_path / "text.txt").write_text("seat 1 wins")
    text = run("simulate", GAME, "-n", "60", "--resume", str(tmp_path / "text.txt"))
    assert text.exit_code == 2 and "cannot read it as JSON" in text.output


def test_an_interrupted_sweep_command_goes_on_with_resume(tmp_path: Path, stopped_once: None) -> None:
    """The same for ``rulecraft sweep``: the runs finished are kept, the partial one goes on, the table is the one of
    the sweep never interrupted."""
    sweep_args = ["sweep", "tutorial-tiles", "board_size=[4, 5]", "-n", "30", "--format", "json"]
    stopped = run(*sweep_args, "--out", str(tmp_path / "sweep.json"))
    assert stopped.exit_code == 1 and "interrupted: 1 of 2 values run" in stopped.output
    resumed = run(*sweep_args, "--resume", str(tmp_path / "sweep.json"))
    assert resumed.exit_code == 0 and json.loads(resumed.output) == json.loads(run(*sweep_args).output)
    other = run("sweep", "tutorial-tiles", "board_size=[5, 6]", "-n", "30", "--resume", str(tmp_path / "sweep.json"))
    assert other.exit_code == 2 and "ran the values 4, which are not the first of 5, 6" in other.output


def test_a_finished_sweep_goes_on_to_more_games_and_more_values() -> None:
    """A finished sweep's JSON held no counts and was refused: its runs go on now, each to the larger n, and values
    may be added after its own; the table is the one of the longer sweep."""
    short = Sweep.from_json(json.loads(json.dumps(sweep("tutorial-tiles", "board_size", [4, 5], n=10, seed=1).to_json())))
    longer = sweep("tutorial-tiles", "board_size", [4, 5, 6], n=25, seed=1, resume=short)
    assert longer.to_json() == sweep("tutorial-tiles", "board_size", [4, 5, 6], n=25, seed=1).to_json()
    old = sweep("tutorial-tiles", "board_size", [4, 5], n=3).to_json()
    del old["runs"][0]["counts"]  # as a finished sweep's table was written
    with pytest.raises(ValueError, match="^it holds no counts to go on from"):
        Sweep.from_json(old)
    table = run("sweep", "tutorial-tiles", "board_size=[4, 5]", "-n", "3", "--format", "csv").output
    assert table.startswith("board_size,section,item,statistic,value\n") and ",counts," not in table


def test_a_sweep_compares_runs_that_kept_only_their_counts() -> None:
    kept = sweep("tutorial-tiles", "board_size", [4, 5], n=20, keep_results=True)
    counted = sweep("tutorial-tiles", "board_size", [4, 5], n=20, keep_results=False)
    assert counted.to_json() == kept.to_json() and not counted.runs[1].report.kept
    assert Sweep.from_json(Sweep("board_size", 0, kept.runs[:1], planned=2).to_json()).runs[0].report.games == 20


def test_a_sweep_of_a_game_with_sides_shows_the_sides_win_rates() -> None:
    """A sweep showed win rates per seat, which say little where the ruleset makes sides: now per team (seats in
    teams), per hidden role dealt at random, or per side dealt in secret, each compared with the baseline's."""
    teams = sweep(engine.load("iconoclasm", ["teams"]), "supply_size", [6, 12], players=4, n=6)
    assert list(teams.to_json()["runs"][0]["win_rate_by_side"]) == ["team 1 (seats 1 and 3)", "team 2 (seats 2 and 4)"]
    assert set(teams.runs[0].comparison.sides) == {"team 1 (seats 1 and 3)", "team 2 (seats 2 and 4)"}
    table = run("sweep", "iconoclasm", "--variant", "hidden-deities", "--players", "3", "supply_size=[6, 12]", "-n", "6").output
    header = table.split("\n", 1)[1].split("┡")[0]
    assert "role" in header and "seat 1" not in header, table


def test_a_side_dealt_in_secret_is_a_side(tmp_path: Path) -> None:
    from tests.test_secret_sides import _game

    report = simulate(_game(tmp_path), players=4, n=20, seed=1)
    rates = report.side_win_rate
    assert list(rates) == ["held LoyalBadge", "held SpyBadge"] and rates["held SpyBadge"].trials == 20
    assert simulate("tic-tac-toe", n=4).side_win_rate == {}  # no teams, roles kept by their seats, nothing held


def test_counted_numbers_summarise_as_the_numbers_themselves_do_to_the_last_bit() -> None:
    """Lengths, margins and points are counted by value; their mean, median, variance and standard deviation are
    the floats ``statistics`` gives for the numbers written out, so a report counted says what a kept one said."""
    import random
    import statistics

    from engine.runner.spread import Spread

    draw = random.Random(1)
    for _ in range(500):
        data = [draw.choice([draw.randint(0, 50), draw.random() * 10, float(draw.randint(-5, 5))])
                for _ in range(draw.randint(2, 40))]
        spread = Spread.of(data)
        assert (spread.mean, spread.median, spread.variance, spread.stdev) == (
            statistics.fmean(data), float(statistics.median(data)), statistics.variance(data), statistics.stdev(data))


def test_the_counts_are_written_in_the_same_order_by_every_process() -> None:
    """The answers (and components) a seat took were counted through a set, whose order follows the process's string
    hashing: the same run's JSON differed between processes (a local run and a Ray run of Pig: bank and roll
    swapped), now that every report holds its counts.  Hash seeds 1 and 9 ordered Pig's answers apart."""
    root = Path(__file__).resolve().parents[1]
    code = ("import json; from engine.runner.simulate import simulate; "
            f"print(json.dumps(simulate({str(root / 'docs' / 'examples' / 'pig' / 'ruleset.yaml')!r}, players=2, n=6, "
            "seed=0).tally.to_json()))")
    written = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "9")]
    assert written[0] == written[1] and '"answer_trials": [["roll again or bank the pot", "roll", 12]' in written[0]


def test_the_file_to_go_on_from_is_one_nobody_could_take_first(tmp_path: Path, stopped_once: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Its name in the shared temporary folder was known in advance (/tmp/rulecraft-tic-tac-toe-seed3.partial.json),
    so anyone could take it first: a link to /dev/null there had the counts written into it, the message naming it to
    go on from and nothing kept (and another user's file there may not be replaced: the counts were lost).  It is
    written in a folder of this user's own there; a link standing in that folder's place is not followed."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "rulecraft-tic-tac-toe-seed3.partial.json").symlink_to("/dev/null")
    args = ["simulate", GAME, "-n", "60", "--seed", "3"]
    kept = resume_file(run(*args).output, "tic-tac-toe-seed3")  # the first run is stopped (stopped_once)
    whole = json.loads(run(*args, "--format", "json").output)
    assert kept.is_file() and not kept.is_symlink() and kept.parent.stat().st_mode & 0o777 == 0o700
    assert json.loads(run(*args, "--resume", str(kept), "--format", "json").output) == whole
    shutil.rmtree(kept.parent)
    (tmp_path / "elsewhere").mkdir()
    kept.parent.symlink_to(tmp_path / "elsewhere")
    made = _own_temporary_file("tic-tac-toe-seed3.partial.json")  # where the next interrupted run writes
    assert made.parent == tmp_path and made.name.startswith("rulecraft-tic-tac-toe-seed3-") and made.is_file()
    assert made.name.endswith(".partial.json") and not list((tmp_path / "elsewhere").iterdir())
