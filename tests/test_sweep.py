"""Sweeping an option: one simulation per value on the same seeds, compared with the baseline run."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
import engine
from engine.core.errors import RulesetError
from engine.runner.simulate import simulate
from engine.runner.sweep import parse_sweep, sweep

RULESET = "iconoclasm-cards"


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def load(extra: dict[str, str]) -> engine.Game:
    return engine.load(RULESET, set_options=extra)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("width=[5, 6]", ("width", ["5", "6"])),
        ("names=[ann, 'true', true, 'on']", ("names", ["ann", "'true'", "true", "'on'"])),
        ("ratio=[1.0e+20, .inf]", ("ratio", ["1.0e+20", ".inf"])),
        ("points=[[4, 3], [6, 0]]", ("points", ["[4, 3]", "[6, 0]"])),
    ],
)
def test_values_become_yaml_texts_that_read_back_as_the_same_values(text: str, expected: tuple[str, list[str]]) -> None:
    assert parse_sweep(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("width", "'width' is not NAME=[V1, V2, ...] with two values or more"),
        ("width=5", "is not NAME=[V1, V2, ...] with two values or more"),
        ("width=[5]", "is not NAME=[V1, V2, ...] with two values or more"),
        ("width=[5, 6", "invalid YAML"),
        ("width=[4, 04, 0x4]", "gives the value 4 more than once"),
    ],
)
def test_a_sweep_that_is_not_a_list_of_values_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace(".", r"\.")):
        parse_sweep(text)


def test_a_sweep_of_too_many_values_is_refused() -> None:
    # width=[3, 4, ..., 20002] compiled the ruleset 20,000 times before playing a game
    with pytest.raises(ValueError, match="'--sweep width' gives 20,000 values; a sweep tries at most 100"):
        parse_sweep("width=[" + ", ".join(map(str, range(3, 20003))) + "]")


def test_each_run_is_the_simulation_with_that_value_set() -> None:
    result = sweep(load, "grid_width", ["3", "7"], players=2, n=40, seed=5, agents="random")
    for value, swept in zip(["3", "7"], result.runs):
        alone = simulate(load({"grid_width": value}), 2, 40, 5, "random")
        assert swept.report.wins_by_seat == alone.wins_by_seat
        assert [r.length for r in swept.report.results] == [r.length for r in alone.results]
    assert [r.length for r in result.runs[0].report.results] != [r.length for r in result.runs[1].report.results]


def test_a_sweep_takes_a_rulesets_name_or_a_compiled_game_as_simulate_does() -> None:
    """sweep("tutorial-tiles", ...) from Python raised "TypeError: 'str' object is not callable", and players, n,
    seed and agents had no defaults: it now takes what simulate takes, a game by name keeps nothing else set, a
    compiled game keeps its variants and options, and values may be given as themselves."""
    by_name = sweep(RULESET, "grid_width", [3, 7], n=10)
    assert [run.value for run in by_name.runs] == ["3", "7"]
    assert by_name.to_json() == sweep(load, "grid_width", ["3", "7"], players=2, n=10, seed=0, agents="random").to_json()
    compiled = engine.load(RULESET, variant="small-grid", set_options={"rank_points": "[4, 3, 2, 1]"})
    kept = sweep(compiled, "grid_width", ["3", "7"], players=3, n=10, seed=2).to_json()
    assert kept["variants"] == ["small-grid"] and kept["set_options"] == {"rank_points": "[4, 3, 2, 1]"}
    assert kept["players"] == 3 and kept["seed"] == 2
    with pytest.raises(TypeError, match="^a sweep plays a ruleset's name or path, a compiled game"):
        sweep(7, "grid_width", ["3", "7"])


def test_the_baseline_is_the_rulesets_own_value_and_the_others_are_compared_with_it() -> None:
    result = sweep(load, "rank_points", ["[6, 3, 1, 0]", "[4, 3, 2, 1]"], players=2, n=200, seed=0, agents="random")
    assert result.baseline == 1 and result.runs[1].comparison is None
    changed = result.runs[0]
    assert changed.comparison is not None and changed.comparison.other is result.runs[1].report
    assert changed.report.draws == 0 and result.runs[1].report.draws > 40  # paying ranks apart ends the draws
    assert changed.comparison.draws.significant


def test_without_the_rulesets_value_the_first_run_is_the_baseline() -> None:
    result = sweep(load, "grid_width", ["4", "5"], players=2, n=5, seed=0, agents="random")
    assert result.baseline == 0 and result.runs[0].comparison is None and result.runs[1].comparison is not None


def test_an_unknown_option_is_refused_before_any_game() -> None:
    with pytest.raises(RulesetError, match="no option 'grid_widht' to sweep in this ruleset") as info:
        sweep(load, "grid_widht", ["3", "4"], players=2, n=5, seed=0, agents="random")
    assert info.value.diagnostics[0].hint == "did you mean 'grid_width'?"


def test_a_sweep_of_no_values_or_of_a_text_is_refused() -> None:
    """sweep(..., values=[]) returned a sweep of no runs, and values="34" swept "3" and "4", its characters."""
    load = lambda options: engine.load("tutorial-tiles", set_options=options)  # noqa: E731
    for values in ([], "34"):
        with pytest.raises(ValueError, match="^a sweep takes a list of values for board_size, not "):
            sweep(load, "board_size", values, players=2, n=2, seed=0, agents="random")


def test_the_command_tabulates_the_runs_and_marks_differences() -> None:
    result = run("sweep", RULESET, "rank_points=[[4, 3, 2, 1], [6, 3, 1, 0]]", "-n", "200")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{RULESET}, 2 players, 200 games per value, seed 0"
    assert any("[4, 3, 2, 1] (baseline)" in line for line in lines)
    assert any("[6, 3, 1, 0]" in line and "0.0% *" in line for line in lines)
    assert "* differs from the baseline ([4, 3, 2, 1]) with p < 0.05" in result.output


def test_in_a_narrow_terminal_each_figure_keeps_its_line_and_its_mark() -> None:
    """In 80 columns the last header was cut ('leng…') and a length's mark went to a line of its own."""
    result = CliRunner().invoke(main, ["sweep", "tutorial-tiles", "board_size=[3, 4, 5]", "--players", "3", "-n", "30"],
                                env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    assert len(rows) == 3 and all(line.rstrip(" │").endswith(("*", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"))
                                  for line in rows), result.output
    assert "length" in result.output and "leng…" not in result.output and any(" * │" in line for line in rows)


def test_the_command_json_keeps_the_other_options_set_and_does_not_depend_on_jobs() -> None:
    args = ["sweep", RULESET, "grid_width=[3, 5]", "-n", "16", "--set", "grid_height=4", "--format", "json"]
    one, two = run(*args), run(*args, "--jobs", "2")
    data = json.loads(one.output)
    assert json.loads(two.output) == data
    assert data["option"] == "grid_width" and data["set_options"] == {"grid_height": "4"}
    assert [r["value"] for r in data["runs"]] == ["3", "5"] and data["baseline"] == "3"
    assert data["runs"][0]["compared_with_baseline"] is None
    assert set(data["runs"][1]["compared_with_baseline"]) >= {"seats", "draws", "length"}


def test_the_command_csv_has_one_row_per_value_and_figure() -> None:
    result = run("sweep", RULESET, "grid_width=[3, 5]", "-n", "4", "--format", "csv")
    rows = list(csv.reader(io.StringIO(result.output)))
    assert rows[0] == ["grid_width", "section", "item", "statistic", "value"]
    assert {row[0] for row in rows[1:]} == {"3", "5"}
    assert ["3", "run", "", "draws", rows[[r[3] for r in rows].index("draws")][4]] in rows


def test_the_runs_give_each_seat_s_mean_points_when_a_result_pays_different_points(tmp_path: Path) -> None:
    """With two players rank_points pays each seat's two elements by their ranks, so a win pays 7 or 6 or 5: the sweep
    gave win rates alone, and how the mean points move from one points table to the next was not to be seen.  Each
    run now gives each seat's mean points (as simulate does) and each comparison their difference (Welch's t-test),
    in text, JSON and CSV; a game paying only a win or a loss shows nothing new."""
    args = ("sweep", RULESET, "rank_points=[[4, 3, 2, 1], [6, 3, 1, 0]]", "-n", "12")
    data = json.loads(run(*args, "--format", "json").output)
    for swept in data["runs"]:
        alone = simulate(load({"rank_points": swept["value"]}), 2, 12, 0, "random")
        assert swept["points"] == {str(seat): paid.to_json() for seat, paid in alone.points.items()}
    baseline, changed = data["runs"]
    paid = changed["compared_with_baseline"]["points"]["1"]
    assert paid["this"] == pytest.approx(changed["points"]["1"]["mean"])
    assert paid["other"] == pytest.approx(baseline["points"]["1"]["mean"]) and paid["difference"] != 0
    assert run(*args, "--out", str(tmp_path / "sweep.txt")).exit_code == 0
    text = (tmp_path / "sweep.txt").read_text(encoding="utf-8")
    assert "seat 1 mean points" in text and "Welch's t-test for length and mean points" in text
    row = next(line for line in text.splitlines() if "[6, 3, 1, 0]" in line)
    assert f"{changed['points']['1']['mean']:.2f}" in row and f"{changed['points']['2']['mean']:.2f}" in row
    rows = list(csv.reader(io.StringIO(run(*args, "--format", "csv").output)))
    assert ["[6, 3, 1, 0]", "points", "2", "mean", str(changed["points"]["2"]["mean"])] in rows
    assert ["[6, 3, 1, 0]", "compared_with_baseline", "points.1", "p", str(paid["p"])] in rows
    plain = run("sweep", "connect-four", "columns=[6, 7]", "-n", "4", "--format", "json")
    assert all("points" not in swept and "points" not in (swept["compared_with_baseline"] or {})
               for swept in json.loads(plain.output)["runs"])
    assert "mean points" not in run("sweep", "connect-four", "columns=[6, 7]", "-n", "4").output


@pytest.mark.parametrize(
    "values, code, message",
    [
        ("grid_width=7", 2, "is not NAME=[V1, V2, ...] with two values or more"),
        ("grid_widht=[3, 4]", 1, "no option 'grid_widht' to sweep in this ruleset"),
        ("grid_width=[3, four]", 1, "option 'grid_width' holds a whole number (7 in the ruleset), not text"),
        ("rank_points=[[4, 3, 2, 1], [4, 3, 2, 1]]", 2, "gives the value [4, 3, 2, 1] more than once"),
    ],
)
def test_the_command_refuses_bad_sweeps(values: str, code: int, message: str) -> None:
    result = run("sweep", RULESET, values, "-n", "2")
    assert result.exit_code == code and message in result.output


def test_the_swept_option_cannot_also_be_set() -> None:
    result = run("sweep", RULESET, "grid_width=[3, 4]", "--set", "grid_width=5", "-n", "2")
    assert result.exit_code == 2 and "grid_width is the option being swept; it cannot also be set" in result.output


def test_a_value_under_which_the_games_stop_at_the_turn_limit_says_so() -> None:
    """Codebreak swept with max_guesses=0 (a guesser whose count is never 0 after a guess guesses on) played every
    game to the turn limit, and the sweep reported its win rates as any other value's; simulate said so, sweep not."""
    example = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "codebreak")
    result = run("sweep", example, "max_guesses=[0, 8]", "-n", "4")
    assert result.exit_code == 0, result.output
    stopped = [line for line in result.output.splitlines() if "stopped by the turn limit" in line]
    assert len(stopped) == 1 and stopped[0].startswith("  max_guesses=0: ") and stopped[0].endswith(
        "4 of 4 games stopped by the turn limit (end: max_turns): their 'end: when' never held"), result.output


def test_an_interrupted_sweep_resumes_to_the_sweep_never_interrupted() -> None:
    """``sweep(..., resume=partial)`` keeps the finished runs and goes on from the partial one (an interrupted sweep
    could only start again from its first value); a sweep of another option or values is refused."""
    def progress(run: int, count: int) -> Callable[[int], None]:
        def told(finished: int) -> None:
            if run == 1 and finished >= 20:
                raise KeyboardInterrupt
        return told

    partial = sweep("tutorial-tiles", "board_size", [3, 4, 5], n=40, progress=progress)
    assert partial.partial and [run.value for run in partial.runs] == ["3", "4"] and partial.runs[1].report.partial
    resumed = sweep("tutorial-tiles", "board_size", [3, 4, 5], n=40, resume=partial)
    assert not resumed.partial
    assert resumed.to_json() == sweep("tutorial-tiles", "board_size", [3, 4, 5], n=40).to_json()
    with pytest.raises(ValueError, match=r"^the sweep resumed is of the option board_size, not win_score$"):
        sweep("tutorial-tiles", "win_score", [3, 4], n=40, resume=partial)
    with pytest.raises(ValueError, match=r"^the sweep resumed ran the values 3, 4, which are not the first of 4, 3$"):
        sweep("tutorial-tiles", "board_size", [4, 3], n=40, resume=partial)
