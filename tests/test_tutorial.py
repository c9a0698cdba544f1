"""docs/tutorial.md builds its game a step at a time: each ``# step N`` block of YAML gives whole top-level sections,
added to the file or put in place of those of the same name.  Built so, the file validates at every step, each step
plays a random game to its end, and the last step is the finished example, docs/examples/ladders (compared as data:
its comments aside)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

import engine
from engine.runner.validate import validate_path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "tutorial.md"
STEP = re.compile(r"^```yaml\n# step (\d+)\n(.*?)^```", re.S | re.M)


def steps() -> list[tuple[int, dict[str, Any]]]:
    """Each step's number and the whole file as it stands after it."""
    built: dict[str, Any] = {}
    found = []
    for m in STEP.finditer(PAGE.read_text(encoding="utf-8")):
        built = {**built, **yaml.safe_load(m.group(2))}
        found.append((int(m.group(1)), built))
    return found


def test_the_steps_are_numbered_in_order_and_end_with_the_example() -> None:
    numbers = [n for n, _ in steps()]
    assert numbers == sorted(numbers) and len(numbers) >= 4
    finished = yaml.safe_load((ROOT / "docs" / "examples" / "ladders" / "ruleset.yaml").read_text(encoding="utf-8"))
    assert steps()[-1][1] == finished


@pytest.mark.parametrize(("number", "ruleset"), steps(), ids=[f"step-{n}" for n, _ in steps()])
def test_each_step_validates_and_plays_to_its_end(number: int, ruleset: dict[str, Any], tmp_path: Path) -> None:
    folder = tmp_path / "ladders"
    folder.mkdir()
    path = folder / "ruleset.yaml"
    path.write_text(yaml.safe_dump(ruleset, sort_keys=False), encoding="utf-8")
    problems = [d for d in validate_path(str(folder)) if not d.message.startswith("note: ")]
    assert problems == [], f"step {number}: {problems}"
    state = engine.load(folder).new_state(players=3, seed=number)
    while not state.is_terminal:
        state.play(0)  # roll on: the game still ends, by a 1 or by the goal
    assert state.outcome is not None and len(state.outcome.winners) == 1
