"""Odd input at the command line: refused with a reason and the right exit status, never a traceback.

Each case here was once answered badly (a traceback, silence, or success
where there was a problem).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
RULESET = "iconoclasm-cards"


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_a_set_value_that_is_not_utf8_is_refused() -> None:
    result = run("explain", RULESET, "--set", "grid_width=\udcff")
    assert result.exit_code == 1
    assert "--set grid_width: text is not valid UTF-8: character '\\udcff'" in result.output


@pytest.mark.parametrize(
    "name, message",
    [
        ("", "no ruleset named: give a built-in name"),
        ("/dev/null", "'/dev/null' is not a ruleset file or a folder holding ruleset.yaml"),
    ],
)
def test_a_ruleset_that_is_no_file_or_folder_is_refused(name: str, message: str) -> None:
    result = run("explain", name)
    assert result.exit_code == 1 and message in result.output


@pytest.mark.parametrize("args", [
    ["validate", ""], ["validate", RULESET, ""], ["check", ""], ["serve", ""],
    ["new", "my-copy", "--from", ""], ["simulate", RULESET, "-n", "1", "--compare", ""],
])
def test_an_empty_ruleset_name_is_refused_not_read_as_a_default(args: list[str], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """'' was the current folder to validate and check (in a home folder they read every file below it), the
    tutorial to new --from, the ruleset itself to --compare, and serve served the folder it ran in."""
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2 and "an empty text names no ruleset" in result.output, result.output
    assert not (tmp_path / "my-copy").exists()


def test_a_scenario_for_a_player_count_the_ruleset_does_not_allow_is_invalid(tmp_path: Path) -> None:
    scenario = tmp_path / "nine.yaml"
    scenario.write_text(f"ruleset: {RULESET}\nplayers: 9\nactions: []\n")
    for command in ("validate", "check"):
        result = run(command, str(scenario))
        assert result.exit_code == 1
        assert f"{scenario}:2:10: {RULESET} is played by 1, 2, 3, 4 players, not 9" in result.output


def test_check_of_a_ruleset_folder_runs_only_its_scenarios() -> None:
    result = run("check", str(ROOT / "rulesets" / "tutorial-tiles"))
    assert result.exit_code == 0, result.output
    assert "ruleset.yaml" not in result.output
    ran = [line for line in result.output.splitlines() if line.startswith("PASS")]
    assert ran and len(ran) == len(list((ROOT / "rulesets" / "tutorial-tiles" / "scenarios").glob("*.yaml")))


@pytest.mark.parametrize(
    "flags, named",
    [(["--players", "2"], "--players goes"), (["--games", "3", "--seed", "2"], "--games, --seed go"),
     (["--save", "x"], "--save goes")],
)
def test_check_of_scenarios_refuses_the_flags_of_random_games(flags: list[str], named: str) -> None:
    result = run("check", str(ROOT / "rulesets" / "tutorial-tiles" / "scenarios"), *flags)
    assert result.exit_code == 2
    assert f"{named} with --invariants; a scenario file names its own ruleset" in result.output


def test_bench_can_time_the_random_agent() -> None:
    result = run("bench", RULESET, "--agent", "random", "--decisions", "3", "--repeat", "1")
    assert result.exit_code == 0, result.output
    assert "random decided 3 positions" in result.output


def test_a_log_in_a_missing_folder_is_refused_before_the_game_starts(tmp_path: Path) -> None:
    log = tmp_path / "missing" / "game.json"
    result = run("play", RULESET, "--seed", "1", "--log", str(log), input="1\n" * 300)
    assert result.exit_code == 2
    assert f"there is no folder {log.parent} to write the log in" in result.output
    assert "turn 1" not in result.output


def test_save_without_a_file_asks_for_one() -> None:
    result = run("play", RULESET, "--seed", "1", input="save\nquit\n")
    assert "save where? type save FILE" in result.output
    assert "is not a placement" not in result.output


def test_a_reader_that_goes_away_stops_the_command_quietly() -> None:
    """The reader is gone before the command writes anything (deterministic: the pipe's read end is closed first)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    command = [sys.executable, "-c", "from cli.main import main; main()", "explain", "iconica"]
    try:
        process = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT, timeout=60)
    finally:
        os.close(write_end)
    assert process.returncode == 1
    assert process.stderr.decode() == ""


def test_a_part_no_action_contains_is_said_to_be_one_before_the_refusal() -> None:
    """The README's '1,0' on a first turn, where only 0,0 is offered: told it matches nothing, not only that it is no move."""
    result = run("play", "iconoclasm-cards", "--players", "2", "--seed", "7", input="1,0\nquit\n")
    assert "no action contains '1,0'; read as an action: '1,0' is not a placement" in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["simulate", RULESET, "--seat", "1=random"], "No such option: --seat (it is an option of 'rulecraft play'; "
                                                   "'rulecraft simulate --help' lists this command's)"),
    (["play", RULESET, "--agents", "random"], "No such option: --agents (it is an option of 'rulecraft simulate', "
                                               "'rulecraft sweep' and 'rulecraft validate'; 'rulecraft play --help' lists "
                                               "this command's)"),
])
def test_an_option_of_another_command_says_whose_it_is(args: list[str], said: str) -> None:
    """'simulate --seat' was answered "Did you mean '--seed', '--set'?": play gives seats with --seat, simulate with --agents."""
    result = run(*args)
    assert result.exit_code == 2 and said in " ".join(result.output.split()), result.output


def test_an_option_no_command_has_still_gets_its_guess() -> None:
    result = run("simulate", RULESET, "--sed", "3")
    assert result.exit_code == 2 and "Did you mean one of: '--seed', '--set'?" in result.output, result.output


@pytest.mark.parametrize(("args", "said"), [
    (["simulate", RULESET, "-n", "ten"], "'ten' is not a whole number of games: write it in digits, e.g. 100"),
    (["sweep", RULESET, "grid_width=[3,4]", "--games", "²"], "'²' is not a whole number of games"),
    (["check", "--invariants", RULESET, "--games", "lots"], "'lots' is not a whole number of games"),
    (["simulate", RULESET, "--jobs", "two"], "'two' is not a whole number of worker processes: write it in digits, "
                                             "e.g. 2"),
    (["simulate", RULESET, "--num-games", "5"], "No such option: --num-games (the number of games is given with -n, "
                                                "e.g. -n 100; 'rulecraft simulate --help' lists the options)"),
    (["sweep", RULESET, "grid_width=[3,4]", "--n", "5"], "the number of games is given with -n/--games"),
])
def test_a_number_of_games_said_wrongly_is_told_how_to_say_it(args: list[str], said: str) -> None:
    """'-n ten' was answered "'ten' is not a valid integer range", and '--num-games' "Did you mean '--games'?" (in
    simulate the option writing a CSV file of the games, not their number)."""
    result = run(*args)
    assert result.exit_code == 2 and said in " ".join(result.output.split()), result.output


def test_a_seat_number_in_other_digits_is_refused_plainly() -> None:
    """'--seat ²=random' was answered "invalid literal for int() with base 10: '²'" (str.isdigit passes '²')."""
    result = run("play", "tic-tac-toe", "--seat", "²=random")
    assert result.exit_code == 2 and "'²=random' is not SEAT=WHO (e.g. 2=human or 1=random)" in result.output, result.output


def test_the_note_on_options_set_from_outside_is_not_counted_as_a_problem() -> None:
    """'validate tutorial-tiles --set board_size=-1' listed two problems and a note, and ended "3 problems in 1 file"."""
    result = run("validate", "tutorial-tiles", "--set", "board_size=-1")
    assert result.exit_code == 1 and "note: these options were set from outside" in result.output
    assert result.output.count("must be a whole number, 0 or more") == 2
    assert result.output.rstrip().endswith("2 problems in 1 file"), result.output


@pytest.mark.parametrize(("name", "said"), [("test", "scenario files are run by 'rulecraft check'"),
                                            ("lint", "a ruleset is checked by 'rulecraft validate'")])
def test_a_command_named_as_other_tools_name_it_is_told_which_command_it_is(name: str, said: str) -> None:
    """'rulecraft test my-game/scenarios', as a designer used to test runners types it, was 'No such command' alone."""
    result = run(name, "my-game")
    assert result.exit_code == 2
    assert f"No such command '{name}' ({said})." in result.output


DIGITS = "with the digits 0-9 alone"


@pytest.mark.parametrize(("args", "said"), [
    (["simulate", "tic-tac-toe", "-n", "3", "--agents", "mcts:٣"], "'mcts:٣': '٣' (ARABIC-INDIC DIGIT THREE) is not a digit 0-9"),
    (["simulate", "tic-tac-toe", "-n", "3", "--agents", "mcts:1_000"], "'mcts:1_000': '_' is not a digit"),
    (["simulate", "tic-tac-toe", "-n", "3", "--agents", "mcts:10:depth=٦٠"], "'٦' (ARABIC-INDIC DIGIT SIX) is not a digit"),
    (["simulate", "tic-tac-toe", "-n", "3", "--agents", "mcts:٠.٥s"], "'٠' (ARABIC-INDIC DIGIT ZERO) is not a digit"),
    (["simulate", "tic-tac-toe", "-n", "3", "--agents", "greedy:work=1_000"], "'_' is not a digit"),
    (["simulate", "tic-tac-toe", "-n", "١٠"], "'١٠' is not a whole number of games"),
    (["simulate", "tic-tac-toe", "-n", "1_0"], "'1_0' is not a whole number of games"),
    (["simulate", "tic-tac-toe", "-n", "3", "--seed", "٣"], "'٣' is not a number: '٣' (ARABIC-INDIC DIGIT THREE)"),
    (["play", "tic-tac-toe", "--seat", "٢=random"], "'٢=random' is not SEAT=WHO (e.g. 2=human or 1=random): '٢'"),
    (["play", "tic-tac-toe", "--players", "1_0"], "'1_0' is not a number: '_' is not a digit"),
])
def test_a_number_in_another_scripts_digits_or_with_underscores_is_refused(args: list[str], said: str) -> None:
    """Python's int() read 'mcts:٣' as 3 iterations and 'mcts:1_000' as 1000: where the docs say a number, the digits
    0-9 alone are one."""
    result = run(*args)
    assert result.exit_code != 0 and said in result.output and DIGITS in result.output, result.output
