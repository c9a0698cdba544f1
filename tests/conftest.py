"""Shared fixtures: the shipped rulesets, their variants and scenario files."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.compose import variant_names
from engine.paths import builtin_names, find_ruleset, rulesets_dir


def ruleset_configs() -> list[tuple[str, str | None, int]]:
    """Every shipped ruleset x (no variant + each variant) x declared player count."""
    configs = []
    for name in builtin_names():
        for variant in [None, *variant_names(find_ruleset(name))]:
            game = engine.load(name, variant)
            configs.extend((name, variant, n) for n in game.player_counts)
    return configs


def scenario_files() -> list[Path]:
    return sorted(rulesets_dir().glob("*/scenarios/*.yaml"))


@pytest.fixture(scope="session")
def cards() -> engine.Game:
    return engine.load("iconoclasm-cards")
