"""docs/rulesets.md's mechanisms table stays true: every step kind is a general mechanism.

Each step kind the compiler knows has a row naming the shipped rulesets that
use it — exactly those that do — and a kind used by fewer than two of them
names an example, in a game it did not come from, that validates and uses
it.  Examples are the page's ```yaml blocks whose first line is
``# example: KIND, ...`` and the rulesets under docs/examples/ that open with
such a line.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

import engine
from engine.blocks.catalogue import all_blocks
from engine.blocks.steps import STEP_KINDS
from engine.core.confine import allowing
from engine.core.paths import builtin_names
from tests.conftest import shipped_game

all_blocks()  # importing every block registers every step kind, whichever tests ran before
ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rulesets.md"
ROW = re.compile(r"^\| `(\w+)` \| ([^|]*) \| ([^|]*) \|$", re.M)
EXAMPLE = re.compile(r"```yaml\n(# example: ([\w, ]+)\n.*?)```", re.S)
EXTENDS = re.compile(r"^extends: (\S+)$", re.M)


def table() -> dict[str, tuple[list[str], str]]:
    """Step kind -> (the rulesets its row names, its example cell)."""
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("## Mechanisms: which rulesets use each"):text.index("## Reference: every section and key")]
    rows = {}
    for kind, users, example in ROW.findall(section):
        rows[kind] = ([u.strip() for u in users.split(",")] if users.strip() != "—" else [], example.strip())
    return rows


@lru_cache(maxsize=None)
def users() -> dict[str, list[str]]:
    """Step kind -> the shipped rulesets whose turn has such a step."""
    found: dict[str, list[str]] = {kind: [] for kind in STEP_KINDS}
    for name in builtin_names():
        for kind in sorted({step.kind for step in shipped_game(name).steps}):
            found[kind].append(name)
    return found


def examples(tmp: Path) -> list[tuple[str, set[str], str, Path]]:
    """(name, the kinds it says it shows, the ruleset it extends or "", folder) for every example."""
    found = []
    for body, kinds in EXAMPLE.findall(PAGE.read_text(encoding="utf-8")):
        name = re.search(r"^name: (\S+)$", body, re.M)
        assert name, f"an example needs a name:\n{body}"
        folder = tmp / name.group(1)
        folder.mkdir()
        (folder / "ruleset.yaml").write_text(body, encoding="utf-8")
        base = EXTENDS.search(body)
        found.append((name.group(1), {k.strip() for k in kinds.split(",")}, base.group(1) if base else "", folder))
    for path in sorted((ROOT / "docs" / "examples").glob("*/ruleset.yaml")):
        head = re.search(r"^# example: ([\w, ]+)$", path.read_text(encoding="utf-8"), re.M)
        if head:
            base = EXTENDS.search(path.read_text(encoding="utf-8"))
            found.append((path.parent.name, {k.strip() for k in head.group(1).split(",")}, base.group(1) if base else "", path.parent))
    return found


def test_every_step_kind_has_a_row_naming_the_rulesets_that_use_it() -> None:
    rows = table()
    missing = sorted(set(STEP_KINDS) - set(rows))
    assert not missing, f"docs/rulesets.md's mechanisms table has no row for: {', '.join(missing)}"
    wrong = {kind: (rows[kind][0], users()[kind]) for kind in STEP_KINDS if sorted(rows[kind][0]) != users()[kind]}
    assert not wrong, "rows naming other rulesets than those using the step (row, real): " + repr(wrong)


def test_each_step_kind_is_used_twice_or_shown_in_an_example_that_validates(tmp_path: Path) -> None:
    shown: dict[str, list[str]] = {}
    with allowing([tmp_path]):
        for name, kinds, base, folder in examples(tmp_path):
            game = engine.load(folder)  # raises with file:line:col if the example does not validate
            used = {step.kind for step in game.steps}
            assert kinds <= used, f"example {name} says it shows {sorted(kinds - used)} but has no such step"
            for kind in kinds:
                assert users()[kind] != [base], f"example {name} shows {kind} inside the only game using it ({base})"
                shown.setdefault(kind, []).append(name)
    rows = table()
    for kind in STEP_KINDS:
        if len(users()[kind]) >= 2:
            continue
        assert shown.get(kind), f"step '{kind}' is used by {users()[kind] or 'no shipped ruleset'} and has no example"
        assert any(name in rows[kind][1] for name in shown[kind]), f"the row of '{kind}' does not name its example"



@pytest.mark.parametrize("path", sorted((ROOT / "docs" / "examples").glob("*/scenarios/*.yaml")),
                         ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_example_scenario_passes(path: Path, compiled_once: None) -> None:
    """The examples under docs/examples prove their rules with scenario files, like the shipped rulesets."""
    from engine.runner.scenario import run_scenario

    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)
