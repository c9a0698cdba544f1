"""The playout kernel: playing a decision by its index is applying that action, on every shipped ruleset.

Random playouts (``rulecraft bench``) and search rollouts call
``State.play(i)`` instead of ``state.apply(state.legal_actions()[i])``; the
search reads the legal actions as argument tuples (``ActionSpace.all_args``).
These tests hold the shortcuts to the long way: the same arguments, the same
games, the same logs.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.grid import ADJACENCY, longest_line
from engine.blocks.hexgrid import HEX_OFFSETS
from engine.runner.simulate import derive_seed
from tests.conftest import shipped_game


def load(name: str) -> engine.Game:
    """A shipped ruleset, compiled once per test process and shared with the other modules' tests of it."""
    return shipped_game(name)


def players_of(game: engine.Game) -> int:
    return min(game.player_counts, key=lambda n: abs(n - 2))


@pytest.mark.parametrize("name", engine.builtin_names())
def test_play_is_apply_of_the_same_action(name: str) -> None:
    """Two random games from one seed, one played with apply and one with play: same arguments, history, log, state."""
    game = load(name)
    players = players_of(game)
    for index in range(2):
        seed = derive_seed(5, index)
        slow = game.new_state(players=players, seed=seed, record=True)
        fast = game.new_state(players=players, seed=seed, record=True)
        choose = random.Random(seed)
        while not slow.is_terminal:
            space = slow.legal_actions()
            args = space.all_args()
            assert args == [action.args for action in space]
            i = choose.randrange(len(space))
            assert space.args_at(i) == args[i]
            slow.apply(space[i])
            fast.play(i)
            assert fast.history == slow.history
        assert fast.is_terminal and fast.log == slow.log and fast == slow and fast.returns() == slow.returns()


def test_play_refuses_an_index_out_of_range_and_changes_nothing() -> None:
    game = load(engine.builtin_names()[0])
    state = game.new_state(players=players_of(game), seed=1)
    before = state.clone()
    with pytest.raises(IndexError):
        state.play(len(state.legal_actions()) + 5)
    assert state == before


def longest_by_definition(cells: list[tuple[int, int]], offsets: tuple[tuple[int, int], ...]) -> int:
    """The longest run of cells along any offset, counted from every cell along every offset."""
    on = set(cells)
    best = 0
    for x, y in on:
        for dx, dy in offsets:
            n = 1
            while (x + n * dx, y + n * dy) in on:
                n += 1
            best = max(best, n)
    return best


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([*ADJACENCY.values(), HEX_OFFSETS]),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=30),
)
def test_longest_line_reads_each_direction_once_with_the_same_result(offsets: tuple, cells: list) -> None:
    assert longest_line(cells, offsets) == longest_by_definition(cells, offsets)


@pytest.mark.parametrize("name", engine.builtin_names())
def test_play_randomly_plays_the_indices_play_would(name: str) -> None:
    """Search rollouts' loop (``State.play_randomly``) against ``play(int(rand() * count))`` one at a time: the same
    games, stopped at the same CHANCE nodes (dice made decisions) and after as many decisions as asked."""
    game = load(name)
    for record in (False, True):
        seed = derive_seed(9, record)
        slow = game.new_state(players=players_of(game), seed=seed, record=record, explicit_chance=True)
        fast = game.new_state(players=players_of(game), seed=seed, record=record, explicit_chance=True)
        a, b, most = random.Random(seed), random.Random(seed), random.Random(seed + 1)
        while not slow.is_terminal:
            if slow.chance is not None:
                slow.apply(slow.legal_actions()[0])
                fast.apply(fast.legal_actions()[0])
                continue
            limit = most.randrange(1, 6)
            played = 0
            while played < limit and slow.outcome is None and slow.chance is None:
                slow.play(int(a.random() * len(slow.legal_actions())))
                played += 1
            assert fast.play_randomly(b.random, limit) == played
            assert fast == slow and fast.history == slow.history
        assert fast.is_terminal and fast.play_randomly(b.random, 5) == 0
