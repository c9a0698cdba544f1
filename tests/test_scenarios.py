"""Every shipped scenario file (the rulebook examples among them) passes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

import engine.runner.scenario
from engine.model.game import Game
from engine.runner.scenario import run_scenario
from tests.conftest import scenario_files


@pytest.fixture(scope="module")
def compiled_once() -> Iterator[None]:
    """Each ruleset, with the variants and options a scenario sets, compiled once for all the scenarios that use it
    (the shipped 283 use 38 such games, and compiling them again was 28 s of their 30); everything else a
    scenario does (reading and checking its file, its setup, actions and expectations) is done for each."""
    real, games = engine.runner.scenario.load_path, {}

    def load_path(path: Path, variants: Sequence[str] = (), set_options: Mapping[str, str] | None = None,
                  set_by: Mapping[str, str] | None = None) -> Game:
        key = (str(path), tuple(variants), tuple(sorted((set_options or {}).items())), tuple(sorted((set_by or {}).items())))
        if key not in games:
            games[key] = real(path, variants, set_options, set_by)
        return games[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine.runner.scenario, "load_path", load_path)
        yield


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
