"""The board's frontier and box, kept only once asked (engine/model/state.py): a state that first reads them at
any moment of a random game, or never before its end, finds what one reading them from the start keeps, in the
same order, and both equal a fresh scan of the board, after every action of random games of every shipped
ruleset with a board (placements, removals, stacks), in clones too."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.model.state import UNKNOWN, State, box, frontier_of
from tests.conftest import shipped_game

BOARDS = [name for name in engine.builtin_names() if shipped_game(name).grid is not None]
FIXED = [name for name in BOARDS if shipped_game(name).grid.fixed]


def scanned(s: State) -> set[tuple[int, int]]:
    """The empty cells next to a piece, worked out again from the board."""
    around = s.game.grid.neighbours
    return {n for cell in s.grid for n in around(cell) if n not in s.grid}


def play_both(game: engine.Game, seed: int, asks: set[int], actions: int = 250) -> tuple[State, State]:
    """The same random game twice: one state reads the frontier and box from the start and is checked after each
    action, the other reads them only after the actions numbered in ``asks`` (and is cloned unread on the way)."""
    players = game.player_counts[0]
    always, lazy = game.new_state(players=players, seed=seed), game.new_state(players=players, seed=seed)
    always.frontier, always.bbox
    choose = random.Random(seed)
    for i in range(actions):
        if always.is_terminal:
            break
        pick = choose.randrange(len(always.legal_actions()))
        always.play(pick)
        lazy.play(pick)
        assert set(always.frontier) == scanned(always) and always.bbox == box(always.grid)
        if i in asks:
            assert list(lazy.frontier) == list(always.frontier) and lazy.bbox == always.bbox
        elif i % 7 == 3:
            lazy = lazy.clone()
    return always, lazy


@pytest.mark.parametrize("name", BOARDS)
def test_a_frontier_first_read_late_is_the_kept_one(name: str) -> None:
    for seed in range(2):
        always, lazy = play_both(shipped_game(name), seed, asks=set())
        assert list(lazy.frontier) == list(always.frontier) and lazy.bbox == always.bbox
        copy = always.clone()
        assert list(copy.frontier) == list(always.frontier) and copy.frontier is not always.frontier


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(BOARDS), seed=st.integers(0, 10_000), asks=st.sets(st.integers(0, 120), max_size=4))
def test_a_frontier_read_at_any_moment_is_the_kept_one(name: str, seed: int, asks: set[int]) -> None:
    play_both(shipped_game(name), seed, asks, actions=120)


def test_a_fixed_board_keeps_neither_until_asked() -> None:
    """Nothing is kept per move on a board with fixed edges nobody asked about (a growing one keeps them)."""
    game = shipped_game(FIXED[0])
    s = State(game, game.player_counts[0])
    first, second = game.grid.cells[:2]
    s.place(0, first)
    assert s._frontier is None and s._box is UNKNOWN
    assert list(s.frontier) == list(frontier_of(s.grid, game.grid.neighbours)) and s.bbox == box(s.grid)
    s.place(1, second)
    assert s._frontier is not None and list(s.frontier) == list(frontier_of(s.grid, game.grid.neighbours))
    assert s._box == box(s.grid)
