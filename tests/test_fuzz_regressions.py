"""Inputs the long fuzz campaigns (benchmarks/fuzz.py) found crashing, each now a positioned error in its file.

Each test names the campaign's falsifying example in a small form; all failed with a Python exception before the fix.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError
from engine.core.paths import rulesets_dir
from engine.runner.validate import validate_path

from timelimit import time_limit


def problems(path: Path) -> list[str]:
    """validate's headlines for one file (each ``file:line:col: message``)."""
    return [d.headline() for d in validate_path(str(path))]


def test_an_unclosed_flow_node_at_the_end_of_a_file_points_inside_the_file(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_bytes(b"[")  # no final newline: the parser marks line 2, which the file does not have
    assert problems(path) == [f"{path}:1:2: invalid YAML: did not find expected node content (while parsing a flow node at line 1)"]


@pytest.mark.parametrize("tag", ["int", "float", "bool"])
def test_an_explicitly_tagged_empty_number_is_refused_at_its_value(tmp_path: Path, tag: str) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(f'k0: &a0 !!{tag} ""\n', encoding="utf-8")  # PyYAML's int constructor indexed the empty text
    assert problems(path) == [f"{path}:1:5: '' is not a valid !!{tag}"]


def test_arithmetic_with_none_written_in_the_code_is_refused_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    base = (rulesets_dir() / "tutorial-tiles" / "ruleset.yaml").read_text(encoding="utf-8")
    path.write_text(base.replace("name: tutorial-tiles", "name: folded") + "functions:\n  zero(): 0 * none\n", encoding="utf-8")
    line = path.read_text(encoding="utf-8").count("\n")
    assert problems(path) == [f"{path}:{line}:13: '*' needs a number, not none"]


def test_a_counter_per_role_when_the_roles_type_is_missing_is_diagnosed(tmp_path: Path) -> None:
    """Roles 'of' a type the file no longer declares: the counters kept per role must not crash the compiler."""
    path = tmp_path / "ruleset.yaml"
    text = (rulesets_dir() / "kuhn-poker" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "types:\n  position: [First, Second]\n" in text
    path.write_text(text.replace("types:\n  position: [First, Second]\n", "types: {}\n"), encoding="utf-8")
    found = problems(path)
    assert found and "roles must be 'of' a declared type, not 'position'" in found[0]


def test_a_function_that_calls_a_later_one_is_refused_at_once(tmp_path: Path) -> None:
    """``f`` names ``g`` before ``g`` is defined, and ``g`` and ``h`` call ``f`` three times each.

    ``f`` is refused; before the fix its syntax was still written inline where ``g`` called it, where ``g`` then
    meant the function defined later, so writing ``h`` inline recursed through ``f`` and ``g`` until Python's
    stack ran out, again and again (three ways at every level): loading took hours.
    """
    path = tmp_path / "ruleset.yaml"
    base = (rulesets_dir() / "tutorial-tiles" / "ruleset.yaml").read_text(encoding="utf-8")
    functions = ("functions:\n  f(int n): 'none % g()'\n  g(int n): f(n) + f(n) - f(n)\n"
                 "  h(int n): g(n) * g(n) + g(n)\n")
    path.write_text(base.replace("name: tutorial-tiles", "name: ahead") + functions, encoding="utf-8")
    line = path.read_text(encoding="utf-8").count("\n") - 2
    with time_limit(20.0):
        found = problems(path)
    assert found == [f"{path}:{line}:21: unknown function 'g' ('g' is defined further down under 'functions:': a function "
                     "may use only the functions defined above it, so move 'g' above the one calling it)"]


def test_groups_that_form_and_break_up_without_end_stop_at_the_budget_at_the_step(tmp_path: Path) -> None:
    """A groups step with ``connect`` but no ``deform``: the loser of a clash keeps its pieces on the board, free, so
    the same group forms again at once and clashes again; settling never ended (the campaign's mutant of the
    shipped groups game lost its ``deform`` line).  Now the passes count against the step budget and the decision
    fails at the step's line, in well under a second."""
    path = tmp_path / "ruleset.yaml"
    text = (rulesets_dir() / "banner-clash" / "ruleset.yaml").read_text(encoding="utf-8")
    deform = next(line for line in text.splitlines(keepends=True) if line.strip().startswith("deform:"))
    path.write_text(text.replace(deform, ""), encoding="utf-8")
    step = next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "form_groups:" in line)
    game = engine.load(path)
    state, choose = game.new_state(players=3, seed=3), random.Random(3)
    with time_limit(20.0), pytest.raises(EffectRuntimeError, match="groups keep forming and breaking up") as err:
        while not state.is_terminal:
            state.play(choose.randrange(len(state.legal_actions())))
    assert str(err.value).startswith(f"{path}:{step}:5: ") and "limit steps=100,000" in str(err.value)


def test_a_list_written_as_the_value_of_a_grouped_attribute_is_refused_at_its_component(tmp_path: Path) -> None:
    """Iconoclasm with ``deity: []`` for one follower: form_groups weighed each deity by its value, a list, and
    crashed with 'unhashable type: list' (the steps reading a face's attribute now see none there)."""
    text = (rulesets_dir() / "iconoclasm" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "      - {id: Water, deity: Water, count: 13}\n" in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("      - {id: Water, deity: Water, count: 13}\n",
                                 "      - {id: Water, deity: [], count: 13}\n"), encoding="utf-8")
    found = problems(path)
    assert len(found) == 1 and found[0].startswith(f"{path}:63:28: unknown deity '[]' in deity"), found


@pytest.mark.parametrize("by", ["  by: []\n", ""])
def test_points_paid_by_key_without_a_key_are_refused_at_the_scoring(tmp_path: Path, by: str) -> None:
    """``points: key`` with an empty or missing ``by``: scoring a finished game read the first key of none
    (IndexError in validate's random games); now refused where the scoring says so."""
    text = (rulesets_dir() / "tic-tac-toe" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "  by: [if line(r) >= 3 then 1 else 0]\n" in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("  by: [if line(r) >= 3 then 1 else 0]\n", by), encoding="utf-8")
    where = "60:7" if by else "59:3"
    assert problems(path) == [f"{path}:{where}: 'points: key' pays each item its first 'by' key, but 'by' lists none "
                              "(write the key, like 'by: [score(r)]')"]
