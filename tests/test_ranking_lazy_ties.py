"""A state nobody reads but for its returns (``State.dropped``: a search's rollout) is ranked with its later keys worked
out only for the items tied on the first (engine/blocks/outcome.py, ``Ranking._break_ties``): the same scores,
winners, returns, ranking, points and first-place note as the ranking that works out every key."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.blocks.outcome import Ranking
from tests.conftest import shipped_game


def _both(s: engine.State) -> tuple[engine.Outcome, engine.Outcome]:
    """The ranking of the finished ``s`` worked out whole and as a dropped state's."""
    ranking = next(block for counts, block in s.game.outcomes if s.players in counts)
    assert isinstance(ranking, Ranking) and len(ranking.keys) > 1
    whole, dropped = s.clone(), s.clone()
    dropped.dropped = True
    return ranking.evaluate(whole, s.players), ranking.evaluate(dropped, s.players)


def _same(whole: engine.Outcome, lazy: engine.Outcome) -> None:
    for field in ("scores", "winners", "returns", "ranking", "points", "tie_by_order", "together"):
        assert getattr(lazy, field) == getattr(whole, field), field


@pytest.mark.parametrize("name, players", [("tutorial-tiles", 2), ("tutorial-tiles", 3), ("iconoclasm-cards", 4)])
def test_a_dropped_state_ranks_as_the_whole_ranking_does(name: str, players: int) -> None:
    game, choose, widths = shipped_game(name), random.Random(3), set()
    for seed in range(40):
        s = game.new_state(players=players, seed=seed)
        while s.outcome is None:
            s.play(choose.randrange(len(s.legal_actions())))
        whole, lazy = _both(s)
        _same(whole, lazy)
        widths |= {len(key) for _, key, _, _ in lazy.__dict__["_text"].rows}  # the keys worked out, row by row
    assert widths == {1, len(whole.__dict__["_text"].rows[0][1])}, "rows tied on the first key and rows tied with none"


def test_the_later_keys_break_a_tie_of_the_first_for_the_win(tmp_path: Path) -> None:
    """Every item tied on the first key, the second decides who comes first: on a dropped state too."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: ranked\nextends: tutorial-tiles\nscoring:\n  rank: r in roles\n  by: [0, 'seat(r)', '-seat(r)']\n"
                    "  points: [3, 1]\n", encoding="utf-8")
    s = engine.load(path).new_state(players=3, seed=1)
    while not s.is_terminal:
        s.play(0)
    whole, lazy = _both(s)
    _same(whole, lazy)
    assert lazy.winners == (3,) and lazy.ranking[0] == whole.ranking[0]
