"""docs/rules/: every shipped game has its rules in our words, and they stay tied to the ruleset.

Each page must exist, name every option and variant of its ruleset (the
readings a designer can switch), and every scenario file it cites must
exist, so a renamed scenario or a new option without its line in the rules
fails here.  Nothing in the repository's docs or rulesets may point at the
rulebooks or readings kept outside it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.compose import variant_names
from engine.core.paths import builtin_names, find_ruleset, rulesets_dir
from tests.conftest import shipped_game

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SCENARIO = re.compile(r"`([\w*-]+\.yaml)`")
OUTSIDE = re.compile(r"\.\./shared|RULES\.md|seeds/")


def page(name: str) -> str:
    return (RULES / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", builtin_names())
def test_every_shipped_game_has_its_rules_page(name: str) -> None:
    assert (RULES / f"{name}.md").is_file(), f"docs/rules/{name}.md is missing"
    assert f"rulesets/{name}/ruleset.yaml" in page(name), "the page links its ruleset"


@pytest.mark.parametrize("name", builtin_names())
def test_the_rules_page_names_every_option_and_variant(name: str) -> None:
    text = page(name)
    game = shipped_game(name)
    missing = [f"option {o}" for o in game.options if f"`{o}`" not in text]
    missing += [f"variant {v}" for v in variant_names(find_ruleset(name)) if f"`{v}`" not in text]
    assert not missing, f"docs/rules/{name}.md does not mention: {', '.join(missing)}"


@pytest.mark.parametrize("name", builtin_names())
def test_every_scenario_the_rules_page_cites_exists(name: str) -> None:
    folder = rulesets_dir() / name / "scenarios"
    cited = SCENARIO.findall(page(name))
    assert cited, "the page cites the scenarios that prove its rules"
    missing = [c for c in cited if not list(folder.glob(c)) and not (rulesets_dir() / name / c).is_file()]
    assert not missing, f"docs/rules/{name}.md cites files {name} does not have: {missing}"


def test_nothing_points_outside_the_repository() -> None:
    files = [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *rulesets_dir().glob("**/*.yaml")]
    found = [f"{f.relative_to(ROOT)}:{i}: {line.strip()}"
             for f in files for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", builtin_names())
def test_the_readme_row_names_every_variant(name: str) -> None:
    """The README's table of shipped games lists each one's variants: `dice` (nine-domains), `kaleidoscope`
    (spell-cycles) and the card game's three were missing, so a reader never learned they could be played."""
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith(f"| `{name}` |"))
    missing = [v for v in variant_names(find_ruleset(name)) if f"`{v}`" not in row]
    assert missing == []
