"""Whole numbers past the ``integer_digits`` limit, wherever they are written or reached, and YAML 1.1 base-60 numbers.

Python refuses to turn an integer of more than 4,300 digits into text (a
``ValueError``), and big integers make arithmetic slow: every such number is
refused with a positioned error naming the limit, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from budget_cli import BASE, run_cli, write_ruleset

def line(path: Path, needle: str) -> str:
    """``PATH:LINE``, the start of a position on the first line of ``path`` holding ``needle``."""
    number = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)
    return f"{path}:{number}"


HUGE = {
    "hex": "0x" + "f" * 5000,
    "octal": "0" + "7" * 5000,
    "binary": "0b" + "1" * 20000,
    "decimal": "9" * 5000,
}


@pytest.mark.parametrize("form", sorted(HUGE))
def test_a_huge_number_in_yaml_is_refused_at_its_place(tmp_path: Path, form: str) -> None:
    path = write_ruleset(tmp_path, BASE.replace("gold: {start: 2}", f"gold: {{start: {HUGE[form]}}}"))
    run_cli(["validate", str(path)]).assert_refused(line(path, "gold:"), "more than 100 digits", "--limit integer_digits=N")


@pytest.mark.parametrize("form", ["hex", "decimal"])
def test_a_huge_number_given_with_set_is_refused(tmp_path: Path, form: str) -> None:
    path = write_ruleset(tmp_path, BASE + "options:\n  bonus: {default: 3}\n")
    ended = run_cli(["simulate", str(path), "-n", "1", "--set", f"bonus={HUGE[form]}"])
    text = ended.out + ended.err  # a value given on the command line is told by its option, with no line or column
    assert ended.code == 1 and "Traceback" not in text and "--set bonus: '" in text and "more than 100 digits" in text, text
    ended.assert_bounded()


def test_a_huge_number_in_code_is_refused_at_its_place(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, BASE.replace("setup: |\n", f"setup: |\n  gold = {'9' * 5000}\n"))
    run_cli(["validate", str(path)]).assert_refused(line(path, "gold = 9"), "more than 100 digits")


def test_a_die_with_a_huge_number_of_sides_is_refused(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, BASE.replace("setup: |\n", f"setup: |\n  roll d{'9' * 5000}:\n    odd: pass\n"))
    run_cli(["validate", str(path)]).assert_refused(line(path, "roll d"), "more than 100 digits")


def test_arithmetic_growing_past_the_limit_stops_at_the_line(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, BASE.replace("setup: |\n", "setup: |\n  repeat 40:\n    gold = gold * gold\n"))
    run_cli(["validate", str(path)]).assert_refused(line(path, "gold * gold"), "more than 100 digits", "--limit integer_digits=N")


def test_a_counter_doubled_past_the_limit_stops_at_the_line(tmp_path: Path) -> None:
    text = BASE.replace("setup: |\n", "setup: |\n  repeat 400:\n    gold += gold\n")
    path = write_ruleset(tmp_path, text)
    run_cli(["simulate", str(path), "-n", "1"]).assert_refused(line(path, "gold += gold"), "more than 100 digits")


def test_constant_arithmetic_past_the_limit_is_refused_when_compiled(tmp_path: Path) -> None:
    big = "1" + "0" * 99
    path = write_ruleset(tmp_path, BASE.replace("setup: |\n", f"setup: |\n  gold = {big} * {big}\n"))
    run_cli(["validate", str(path)]).assert_refused(line(path, "gold = 1"), "more than 100 digits")


def test_the_digit_limit_can_be_raised_for_one_run(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, BASE.replace("gold: {start: 2}", f"gold: {{start: {'9' * 150}}}"))
    assert run_cli(["validate", str(path), "--limit", "integer_digits=200"]).code == 0


def test_base_sixty_numbers_are_text_and_read_in_linear_time(tmp_path: Path) -> None:
    sexagesimal = "1" + ":59" * 200_000
    path = write_ruleset(tmp_path, BASE + f"description: {sexagesimal}\n")
    ended = run_cli(["validate", str(path)])
    assert ended.code == 0, ended.out + ended.err
    ended.assert_bounded()


def test_a_base_sixty_number_tagged_as_a_number_is_refused(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, BASE.replace("gold: {start: 2}", "gold: {start: !!int 1" + ":59" * 200_000 + "}"))
    run_cli(["validate", str(path)]).assert_refused(line(path, "gold:"), "base-60 numbers are not read")


def test_the_digit_limit_is_raised_no_further_than_python_writes_numbers(tmp_path: Path) -> None:
    """Raised past Python's own limit (4,300 digits), a number the game reached past it crashed 'play' with a
    traceback as its log line was written ('Exceeds the limit (4300 digits) for integer string conversion')."""
    most = sys.get_int_max_str_digits()
    path = write_ruleset(tmp_path, BASE.replace("setup: |\n", "setup: |\n  gold = 10\n  repeat 14:\n    gold = gold * gold\n"))
    ended = run_cli(["play", str(path), "--limit", f"integer_digits={5 * most}"])
    text = ended.out + ended.err
    assert ended.code == 2 and "Traceback" not in text, text
    assert f"--limit integer_digits={5 * most}: at most {most}, the digits Python writes of a whole number" in text
    ended = run_cli(["play", str(path), "--limit", f"integer_digits={most}"])  # as far as it goes: stopped at the line
    ended.assert_refused(line(path, "gold * gold"), f"more than {most} digits")
