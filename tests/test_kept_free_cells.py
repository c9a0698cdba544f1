"""The board's empty cells and each column's lowest one, kept only once asked (``State.empty``, ``State.lowest``,
engine/model/board_views.py, engine/core/kept_columns.py): after every action of random games of every shipped ruleset
with a board with edges (and the plainly written ones), a state that reads them from the start, one that reads
them only at random moments, and their clones all hold what a fresh scan of the board finds (the empty cells in
the board's order); placements, removals, moves and stacks included."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.kept_columns import lowest_cells
from engine.model.state import State
from tests.conftest import shipped_game, twin_games

PLAIN = Path(__file__).resolve().parent.parent / "benchmarks" / "rulesets"
FIXED = [name for name in [*engine.builtin_names(), str(PLAIN / "plain-tic-tac-toe"), str(PLAIN / "plain-connect-four")]
         if shipped_game(name).grid is not None and shipped_game(name).grid.fixed]


def scanned(s: State) -> list[tuple[int, int]]:
    """The empty cells, worked out again from the board, in its order."""
    return [c for c in s.game.grid.cells if c not in s.grid]


def lowest(s: State) -> list[tuple[int, int] | None]:
    """Each column's lowest empty cell (None when full), worked out again by walking the columns."""
    return [next((c for c in column if c not in s.grid), None) for column in getattr(s.game.grid, "columns", ())]


def kept(s: State) -> tuple[list[tuple[int, int]], list[tuple[int, int] | None]]:
    """What the state keeps (read now, so kept from now on)."""
    return list(s.empty), (s.lowest if hasattr(s.game.grid, "columns") else [])


def play_both(game: engine.Game, seed: int, asks: set[int], actions: int = 250) -> None:
    """The same random game twice: one state reads its empty cells from the start and is checked after each
    action, the other reads them only after the actions numbered in ``asks`` (and is cloned on the way)."""
    for i, pair in twin_games(game, seed, actions):
        always, lazy = pair
        if i < 0:
            kept(always)
            continue
        assert kept(always) == (scanned(always), lowest(always))
        if i in asks:
            assert kept(lazy) == (scanned(lazy), lowest(lazy))
        elif i % 5 == 2:
            copy = lazy.clone()
            assert copy._empty is None or copy._empty is not lazy._empty
            assert copy._lows is None or copy._lows is not lazy._lows
            pair[1] = copy
    always, lazy = pair
    assert kept(lazy) == kept(always) == (scanned(always), lowest(always))


@pytest.mark.parametrize("name", FIXED)
def test_free_cells_kept_through_random_games(name: str) -> None:
    for seed in range(3):
        play_both(shipped_game(name), seed, asks=set(range(0, 250, 3)))


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(FIXED), seed=st.integers(0, 10_000), asks=st.sets(st.integers(0, 120), max_size=6))
def test_free_cells_read_at_any_moment_are_the_board_s(name: str, seed: int, asks: set[int]) -> None:
    play_both(shipped_game(name), seed, asks, actions=120)


SQUARE = [name for name in FIXED if hasattr(shipped_game(name).grid, "columns")]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SQUARE), st.lists(st.tuples(st.integers(0, 20), st.booleans()), min_size=1, max_size=80))
def test_placements_and_removals_keep_the_free_cells(name: str, moves: list[tuple[int, bool]]) -> None:
    """Random moves on the first cells of a board: a piece put on a cell (on top of one there, or on an empty
    one), or a cell's top piece taken off, with the free cells read after each; they are always a fresh scan's."""
    game = shipped_game(name)
    s = State(game, game.player_counts[0])
    kept(s)
    free = list(range(len(game.component_names)))
    for index, put in moves:
        cell = game.grid.cells[index % len(game.grid.cells)]
        if put or cell not in s.grid:
            s.place(free.pop(0), cell)
        else:
            top = s.grid[cell]
            s.move(top, 0)
            free.insert(0, top)
        assert kept(s) == (scanned(s), lowest(s))
    assert kept(s.clone()) == kept(s) and lowest_cells(s.grid, game.grid.columns) == s.lowest
