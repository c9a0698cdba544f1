"""The file an interrupted ``simulate`` or ``sweep`` goes on from (``--resume``): tampered, cut short, nested
without end, a FIFO, another run's, or a run of rules changed since — each refused at the command line (exit
status 2) saying why, never a traceback, a hang, or a report mixing games it should not.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from engine.core.paths import rulesets_dir
from engine.runner.report import SimulationReport
from engine.runner.simulate import simulate
from engine.runner.sweep import sweep
from hostile_cli import Run, rulecraft, rulecraft_here

GAME = "tic-tac-toe"


@pytest.fixture(scope="module")
def partial() -> dict[str, Any]:
    """The JSON report of a run of 20 games stopped after 5."""
    report = simulate(GAME, n=5, seed=0)
    report.planned = 20
    return json.loads(json.dumps(report.to_json()))


def refused(run: Run, *expected: str) -> None:
    """Refused as a bad --resume (exit status 2), saying each ``expected``, without a traceback."""
    assert run.code == 2 and "Traceback" not in run.text, run.text
    assert "Invalid value for --resume" in run.text, run.text
    for text in expected:
        assert text in run.text, run.text


def counts(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    return lambda data: change(data["counts"])


TAMPERED = {  # each failed inside the run (a traceback), ran on to a wrong report, or set up a billion seats
    "a text for a seat's wins": (counts(lambda c: c.update(wins=["a", "b"])), "'wins' of seat 1 is 'a'"),
    "one seat's wins missing": (counts(lambda c: c.update(wins=[1])), "'wins' is [1]: a list of one item per seat"),
    "a text for a seat's returns": (counts(lambda c: c.update(returns=["x", 0])), "'returns' of seat 1 is 'x'"),
    "an agent's trials in text": (counts(lambda c: c.update(agent_trials={"random": "x"})),
                                  "'agent_trials'['random'] is 'x'"),
    "more wins than games": (counts(lambda c: c.update(wins=[10**50, 0])), "a whole number from 0 to 5"),
    "a negative count of games": (counts(lambda c: c.update(games=-5)), "'games' is -5"),
    "a decimal count of games": (counts(lambda c: c.update(games=2.5)), "'games' is 2.5"),
    "draws in no game": (counts(lambda c: c.update(games=0)), "'draws' is"),
    "not a number returned": (counts(lambda c: c.update(returns=[float("nan"), 0])), "is nan: a finite number"),
    "lengths of other games": (counts(lambda c: c.update(length=[[9, 1]])), "'length' counts another number of games"),
    "points of a text": (counts(lambda c: c.update(points=[[["a", 5]], [[1, 5]]])), "is 'a': a finite number"),
    "a billion seats": (lambda d: (d.update(players=10**9), d["counts"].update(players=10**9, wins=[], returns=[],
                                                                              points=[])),
                        "'players' is 1000000000: a whole number from 1 to 100"),
}


@pytest.mark.parametrize("name", list(TAMPERED))
def test_a_tampered_report_is_refused_naming_what_is_wrong(tmp_path: Path, partial: dict[str, Any], name: str) -> None:
    """Counts were read with only their outer shape checked: a text where a count goes failed as the run added its
    first game (``can only concatenate str``), more wins than games in the report's square root (``math domain
    error``), a negative or impossible count ran on to a report of games never played, and ``players: 10**9``
    set up a list of a billion zeros (minutes, gigabytes).  Each is now refused before any game is played."""
    change, expected = TAMPERED[name]
    data = json.loads(json.dumps(partial))
    change(data)
    path = tmp_path / "run.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused(rulecraft("simulate", GAME, "-n", "20", "--resume", str(path)), "the counts of the run are damaged: ",
            expected)


@pytest.mark.parametrize(("field", "value"), [("seed", float("inf")), ("players", float("inf")), ("seed", 2.7)])
def test_a_report_whose_run_is_no_whole_number_is_refused(tmp_path: Path, partial: dict[str, Any], field: str,
                                                          value: float) -> None:
    """JSON reads 1e400 (or Infinity) as infinity: int() failed on it with an OverflowError's traceback, and read 2.7
    as 2."""
    path = tmp_path / "run.json"
    path.write_text(json.dumps(partial | {field: value}), encoding="utf-8")
    refused(rulecraft_here("simulate", GAME, "-n", "20", "--resume", str(path)),
            f"the report is damaged: its {field} is {value!r}, not a whole number")


def test_the_untouched_report_goes_on(tmp_path: Path, partial: dict[str, Any]) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(partial), encoding="utf-8")
    done = rulecraft_here("simulate", GAME, "-n", "20", "--resume", str(path))
    assert done.code == 0 and "20 games" in done.text, done.text


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000],
                         ids=["lists", "mappings"])
def test_json_nested_past_python_s_stack_is_refused(tmp_path: Path, text: str) -> None:
    """It was a RecursionError's traceback."""
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    refused(rulecraft_here("simulate", GAME, "-n", "20", "--resume", str(path)), "its JSON nests too deeply")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """It was opened and read as text: the command waited for ever for something to write into it."""
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    refused(rulecraft("simulate", GAME, "-n", "20", "--resume", str(fifo)), "not a regular file")


def test_a_report_larger_than_any_run_writes_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as file:
        file.truncate(21 * 1024 * 1024)
    refused(rulecraft_here("simulate", GAME, "-n", "20", "--resume", str(path)), "is larger than 20 MB")


def copy_of_game(folder: Path) -> Path:
    shutil.copytree(rulesets_dir() / GAME, folder)
    return folder


def change_rules(folder: Path) -> None:
    """Three in a line won; now two do (the components, and so the report's list of them, stay the same)."""
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert "line(r) >= 3 for r" in text
    path.write_text(text.replace("line(r) >= 3 for r", "line(r) >= 2 for r"), encoding="utf-8")


def test_a_run_of_rules_changed_since_is_refused(tmp_path: Path) -> None:
    """A designer stops a run, changes a rule, and goes on: the report counted the games of both rules as one run,
    without a word (it compared the ruleset's name, options and components, not its rules)."""
    game = copy_of_game(tmp_path / "my-game")
    report = simulate(str(game), n=5, seed=0)
    report.planned = 20
    path = tmp_path / "run.json"
    path.write_text(json.dumps(report.to_json()), encoding="utf-8")
    assert rulecraft_here("simulate", str(game), "-n", "20", "--resume", str(path)).code == 0
    change_rules(game)
    refused(rulecraft_here("simulate", str(game), "-n", "20", "--resume", str(path)),
            "its ruleset has changed since (content hash", "run them again")
    with pytest.raises(ValueError, match="its ruleset has changed since"):
        simulate(str(game), n=20, seed=0, resume=SimulationReport.from_json(report.to_json()))


def test_a_report_recording_no_content_hash_is_refused(tmp_path: Path, partial: dict[str, Any]) -> None:
    """An older Rulecraft's report cannot say which rules its games were played by."""
    data = json.loads(json.dumps(partial))
    del data["counts"]["content_hash"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused(rulecraft_here("simulate", GAME, "-n", "20", "--resume", str(path)),
            "it records no content hash of its ruleset")


def test_a_sweep_of_rules_changed_since_and_a_tampered_sweep_are_refused(tmp_path: Path) -> None:
    """The same for ``sweep --resume``: each run's counts are checked, and its rules."""
    game = tmp_path / "tiles"
    shutil.copytree(rulesets_dir() / "tutorial-tiles", game)

    def stop(run: int, count: int) -> Callable[[int], None]:
        def told(finished: int) -> None:
            if run == 1 and finished >= 2:
                raise KeyboardInterrupt
        return told

    table = sweep(str(game), "board_size", [3, 4], n=6, progress=stop).to_json()
    args = ["sweep", str(game), "board_size=[3, 4]", "-n", "6", "--resume", str(tmp_path / "sweep.json")]
    tampered = json.loads(json.dumps(table))
    (tmp_path / "sweep.json").write_text(json.dumps(table | {"values_planned": float("inf")}), encoding="utf-8")
    refused(rulecraft_here(*args), "the sweep's table is damaged: its values planned is inf, not a whole number")
    tampered["runs"][0]["counts"]["wins"] = ["a", 0]
    (tmp_path / "sweep.json").write_text(json.dumps(tampered), encoding="utf-8")
    refused(rulecraft_here(*args), "the counts of the run are damaged: 'wins' of seat 1 is 'a'")
    (tmp_path / "sweep.json").write_text(json.dumps(table), encoding="utf-8")
    assert rulecraft_here(*args).code == 0
    path = game / "ruleset.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("version: 1", "version: 2", 1), encoding="utf-8")
    refused(rulecraft_here(*args), "its ruleset has changed since")
