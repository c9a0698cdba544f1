"""Every shipped scenario file (the rulebook examples among them) passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.runner.scenario import run_scenario
from tests.conftest import scenario_files


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario(path: Path, compiled_once: None) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


def test_there_are_rulebook_scenarios() -> None:
    names = {p.stem for p in scenario_files()}
    assert {"rulebook-clash-example", "rulebook-end-scoring", "rulebook-three-player-setup"} <= names


def test_failing_expectation_reports_both_sides(tmp_path: Path) -> None:
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(
        "ruleset: iconoclasm-cards\nplayers: 4\nseed: 1\n"
        "expect:\n  - count(c in board) == 3\n"
    )
    result = run_scenario(scenario)
    assert not result.passed
    assert "wrong.yaml:5:5: expected count(c in board) == 3" in result.failures[0]
    assert "found: the number of c in board = 0, 3 = 3" in result.failures[0]


def test_failing_expectation_in_words_is_not_bracketed_twice(tmp_path: Path) -> None:
    """The English of an expectation is shown as it reads, with only the brackets its own parts need."""
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(
        "ruleset: iconoclasm-cards\nplayers: 4\nseed: 1\n"
        "expect:\n  - count(c in board where c.element == Fire) == 3\n"
    )
    failure = run_scenario(scenario).failures[0]
    assert "((" not in failure
    assert "in words: (the number of c in board where the element of c is Fire) is 3\n" in failure
    assert "found: (the number of c in board where the element of c is Fire) = 0, 3 = 3\n" in failure  # not "Fire = 0"


def test_expected_error_that_does_not_happen_fails(tmp_path: Path) -> None:
    scenario = tmp_path / "no-error.yaml"
    scenario.write_text(
        "ruleset: iconoclasm-cards\nplayers: 3\nseed: 2\n"
        "actions:\n  - clash 1,0\nexpect_error: nonsense that is never said\n"
    )
    result = run_scenario(scenario)
    assert not result.passed
    assert "expected an error containing 'nonsense that is never said'" in result.failures[0]
