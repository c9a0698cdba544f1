"""A setup that draws nothing at random runs once per seating; later states start as a copy of its result."""

from __future__ import annotations

import pytest

import engine
from engine.model.state import State


def _fresh(game: engine.Game, players: int, seed: int) -> State:
    """A state set up by running the setup program (a state that keeps a log always runs it)."""
    s = game.new_state(players=players, seed=seed, record=True)
    s.log, s.history = None, None
    return s


@pytest.mark.parametrize("name", ["connect-four", "sealed-tiles", "iconoclasm-cards"])
def test_a_kept_setup_gives_the_state_the_setup_program_gives(name: str) -> None:
    game = engine.load(name)
    for players in game.player_counts:
        for seed in range(4):
            assert game.new_state(players=players, seed=seed) == _fresh(game, players, seed)
    assert game.set_up  # kept: these setups draw nothing


def test_a_kept_setup_is_copied_not_shared() -> None:
    game = engine.load("connect-four")
    a, b = game.new_state(players=2, seed=1), game.new_state(players=2, seed=2)
    a.play(0)
    assert a.zones != b.zones and b == game.new_state(players=2, seed=2)
    assert a.rng != b.rng  # each keeps its own generator


def test_a_setup_that_shuffles_is_run_for_every_state() -> None:
    game = engine.load("nine-domains")
    states = [game.new_state(players=2, seed=seed) for seed in range(3)]
    assert not game.set_up
    assert len({tuple(s.zones[game.zone_index[("pile1", None)]]) for s in states}) > 1
