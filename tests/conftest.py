"""Shared fixtures: the shipped rulesets, their variants and scenario files."""

from __future__ import annotations

import os
import random
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import engine
import engine.runner.shared_games
from engine.core.compose import compose, variant_names
from engine.core.paths import builtin_names, find_ruleset, rulesets_dir


# Hypothesis profiles.  "ci", the default: fixed seeds (derandomized), so every run tries the same examples, and
# quick.  "campaign": fresh random examples, many of them (`pytest --hypothesis-profile campaign -m fuzz`, or
# `python benchmarks/fuzz.py --minutes N`); fuzz tests read the count with `examples()` (tests/hostile/campaign.py).
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.register_profile(
    "campaign", derandomize=False, deadline=None, max_examples=100, print_blob=True, suppress_health_check=_QUIET
)


_CACHE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Load the profile named by ``--hypothesis-profile``, else "ci"; and keep what Rulecraft caches (parsed code,
    generated functions, drawn pictures) in a private folder of this run, shared by its workers (they inherit the
    environment) and removed at its end, not in the user's cache folder."""
    settings.load_profile(config.getoption("hypothesis_profile", None) or "ci")
    if "PYTEST_XDIST_WORKER" not in os.environ:
        config.stash[_CACHE] = os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="rulecraft-tests-")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ``slow`` unless asked for: ``RULECRAFT_SLOW_TESTS=1`` runs them with the rest, and a
    ``-m`` naming ``slow`` (``pytest -m slow``) selects them.  The suite stays within its time on a 2-core machine
    while each slow test keeps a cheaper sibling in it (see the marks' reasons)."""
    if os.environ.get("RULECRAFT_SLOW_TESTS") or "slow" in (config.getoption("markexpr", "") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with RULECRAFT_SLOW_TESTS=1, or pytest -m slow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the run's cache folder."""
    folder = config.stash.get(_CACHE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def docs_blocks(pattern: "re.Pattern[str]") -> list[tuple[str, "re.Match[str]"]]:
    """Each match of ``pattern`` in the pages of docs/, with where it begins (``docs/api.md:120``), page by page.

    Example: ``for where, m in docs_blocks(re.compile(r"^```text\n(.*?)^```", re.S | re.M)): ...``.
    """
    root = Path(__file__).resolve().parent.parent
    found = []
    for page in sorted((root / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        found += [(f"{page.relative_to(root)}:{text.count(chr(10), 0, m.start()) + 1}", m) for m in pattern.finditer(text)]
    return found


def shipped_game(name: str, variant: str | None = None) -> engine.Game:
    """A shipped ruleset (and variant), compiled once per test session: games never change.  ``shipped_game(name)``
    and ``shipped_game(name, None)`` are the same game (a cache of the call as written compiled it twice).

    Example: ``shipped_game("tic-tac-toe") is shipped_game("tic-tac-toe", None)``.
    """
    return _compiled(name, variant)


@lru_cache(maxsize=None)
def _compiled(name: str, variant: str | None) -> engine.Game:
    return engine.load(name, variant)


def twin_games(game: engine.Game, seed: int, actions: int) -> Iterator[tuple[int, list[engine.State]]]:
    """The same random game on two states, action by action: yields the action's number and the pair
    ``[first, second]`` after it (a test may put a clone in its place; the next action is played on that).

    Example: ``for i, (always, lazy) in twin_games(game, 3, 100): assert always == lazy``.
    """
    players = game.player_counts[0]
    pair = [game.new_state(players=players, seed=seed), game.new_state(players=players, seed=seed)]
    yield -1, pair  # before the first action: a test may read what it keeps from the start
    choose = random.Random(seed)
    for i in range(actions):
        if pair[0].is_terminal:
            return
        pick = choose.randrange(len(pair[0].legal_actions()))
        pair[0].play(pick)
        pair[1].play(pick)
        yield i, pair


def ruleset_configs() -> list[tuple[str, str | None, int]]:
    """Every shipped ruleset x (no variant + each variant) x declared player count.

    The counts are read from the composed YAML, not from the compiled game: a module's parameters are made when
    each test worker collects it, and compiling the 114 games there took 6.4 s of every worker's time, where each
    worker compiles only the games of the tests it is given.
    """
    return [(name, variant, n) for name in builtin_names() for variant in [None, *variant_names(find_ruleset(name))]
            for n in player_counts(name, variant)]


@lru_cache(maxsize=None)
def declared(name: str, variant: str | None = None) -> Mapping:
    """A ruleset (a built-in name or a path; and variant) as its files put together say it, not compiled: what a
    module's parameters are read from when its tests are collected, once per test process (compiling there cost every
    worker the compilation of games it never plays).

    Example: ``declared("tic-tac-toe")["players"] == [2]``.
    """
    return compose(find_ruleset(name), [variant] if variant else [])


def player_counts(name: str, variant: str | None = None) -> list[int]:
    """The player counts a ruleset (and variant) declares, read as :func:`declared`, in the compiled game's order.

    Example: ``player_counts("iconica") == list(shipped_game("iconica").player_counts)``.
    """
    return sorted(set(declared(name, variant)["players"]))


def scenario_files() -> list[Path]:
    return sorted(rulesets_dir().glob("*/scenarios/*.yaml"))


@pytest.fixture(scope="session")
def cards() -> engine.Game:
    return engine.load("iconoclasm-cards")


@pytest.fixture(scope="module")
def compiled_once() -> Iterator[None]:
    """Each ruleset, with the variants and options a scenario sets, compiled once for all the scenarios that use it
    (the shipped 283 use 38 such games, and compiling them again was 28 s of their 30 s), in the tests of one
    module; everything else a scenario does (reading and checking its file, its setup, actions and expectations)
    is done for each, as ``rulecraft check`` runs a folder.

    Example: ``def test_scenario(path, compiled_once): assert run_scenario(path).passed``.
    """
    with engine.runner.shared_games.one_compile_per_game():
        yield
