"""The plainly written classics of benchmarks/rulesets/ play the same games as the shipped ones.

They are benchmarked beside the shipped rulesets (docs/performance.md), so
they must be the same games: at every position of random games the plain
ruleset offers the same cells as the shipped one, and the games end alike.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine

PLAIN = Path(__file__).resolve().parent.parent / "benchmarks" / "rulesets"


def cell_of(text: str) -> str:
    """The cell an action names: ``place Red at 3,0`` and ``choose 3,0`` both give ``3,0``."""
    return text.split()[-1]


@pytest.mark.parametrize("shipped, games", [("tic-tac-toe", 12), ("connect-four", 12), ("othello", 6)])
def test_the_plain_ruleset_offers_the_same_cells_and_ends_alike(shipped: str, games: int) -> None:
    """The shipped Othello offers `pass` to a player with no move; the plain one passes that turn by itself
    (`no_move: passes`)."""
    plain_game, shipped_game = engine.load(str(PLAIN / f"plain-{shipped}")), engine.load(shipped)
    for seed in range(games):
        plain, ours = plain_game.new_state(players=2, seed=seed), shipped_game.new_state(players=2, seed=seed)
        choose = random.Random(seed)
        while not ours.is_terminal:
            if ours.legal_actions().texts() == ["pass"]:
                ours.apply("pass")
                continue
            offered = sorted(map(cell_of, ours.legal_actions().texts()))
            assert not plain.is_terminal and sorted(map(cell_of, plain.legal_actions().texts())) == offered
            cell = choose.choice(offered)
            ours.apply(next(a for a in ours.legal_actions() if cell_of(str(a)) == cell))
            plain.apply(f"choose {cell}")
        assert plain.is_terminal and plain.returns() == ours.returns()


def test_the_generated_code_docs_performance_md_shows_is_real() -> None:
    """docs/performance.md shows `rulecraft compile ... --show` for one function of the plain Connect Four: it showed
    a loop over a selection's closure after the code had learnt to walk the board's empty cells (`s.empty`) inline."""
    from click.testing import CliRunner

    from cli.main import main

    page = (PLAIN.parent.parent / "docs" / "performance.md").read_text(encoding="utf-8")
    shown = page.split("$ rulecraft compile benchmarks/rulesets/plain-connect-four --show\n...\n", 1)[1].split("```", 1)[0]
    real = CliRunner().invoke(main, ["compile", str(PLAIN / "plain-connect-four"), "--show"]).output
    numbered = re.compile(r"\b([fktxv])\d+\b")  # generated names are numbered in the order a process compiles,

    def plain(code: str) -> str:  # and lines are cut by their length, so by the names' lengths too
        return " ".join(numbered.sub(r"\1N", code).split())

    assert plain(shown.replace("benchmarks/rulesets/", f"{PLAIN}/")) in plain(real)
