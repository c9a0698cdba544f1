"""A setup that draws nothing at random runs once per seating; later states start as a copy of its result."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.model.dealing import Deal
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


def test_a_setup_that_shuffles_and_deals_by_attributes_is_replayed_with_each_seeds_shuffle() -> None:
    game = engine.load("nine-domains")
    for seed in range(40):
        assert game.new_state(players=2, seed=seed) == _fresh(game, 2, seed)
    assert any(isinstance(kept, Deal) for kept in game.set_up.values())
    piles = {tuple(game.new_state(players=2, seed=seed).zones[game.zone_index[("pile1", None)]]) for seed in range(5)}
    assert len(piles) > 1  # each seed its own deal


@pytest.mark.parametrize("name", ["kuhn-poker", "liars-dice", "spell-cycles"])
def test_a_setup_dealing_otherwise_runs_for_every_state(name: str) -> None:
    # kuhn-poker deals the shuffled deck without a condition, liars-dice rolls, spell-cycles shuffles three times
    game = engine.load(name)
    players = game.player_counts[0]
    for seed in range(3):
        assert game.new_state(players=players, seed=seed) == _fresh(game, players, seed)
    assert not any(isinstance(kept, (Deal, State)) for kept in game.set_up.values())


def test_a_deal_whose_conditions_mix_classes_is_not_kept(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the first move takes specials and base cards alike, which later moves tell apart: renaming within
    # classes would not give the seed's deal, so the setup runs for every state
    (tmp_path / "ruleset.yaml").write_text(
        "name: mixed-deal\nextends: nine-domains\nsetup: |\n"
        "  shuffle(supply)\n"
        "  move(c in supply where c.kind == \"card\", box, 4)\n"
        "  for r in roles:\n"
        "    move(c in supply where c.kind == \"card\" and c.special, hand(r), 3)\n"
        "    move(c in supply where c.kind == \"card\" and not c.special, hand(r), 6)\n"
        "  move(d in supply where d.kind == \"domain\", pile1, 3)\n"
        "  move(d in supply where d.kind == \"domain\", pile2, 3)\n"
        "  move(d in supply where d.kind == \"domain\", pile3, 3)\n")
    game = engine.load(tmp_path / "ruleset.yaml")
    for seed in range(10):
        assert game.new_state(players=2, seed=seed) == _fresh(game, 2, seed)
    assert not any(isinstance(kept, Deal) for kept in game.set_up.values())


@pytest.mark.parametrize("name", engine.builtin_names())
def test_a_kept_start_is_the_state_the_long_way_gives(name: str) -> None:
    # every seed's new state, whether copied from the kept start of its seating or made the long way (a state that
    # keeps a log is), is the same state with the same budget left and the same first decision
    game = engine.load(name)
    for players in game.player_counts:
        for explicit_chance in (False, True):
            for seed in range(30):
                kept = game.new_state(players=players, seed=seed, explicit_chance=explicit_chance)
                fresh = game.new_state(players=players, seed=seed, explicit_chance=explicit_chance, record=True)
                assert kept == fresh and kept.budget == fresh.budget
                assert kept.legal_actions().all_args() == fresh.legal_actions().all_args()


def test_a_start_is_kept_per_seating_and_copied_not_shared() -> None:
    game = engine.load("iconoclasm-cards")
    states = [game.new_state(players=4, seed=seed) for seed in range(200)]
    seatings = {s.positions for s in states}
    assert len(seatings) > 1 and len([k for k in game.starts if k[:2] == (4, False)]) == len(seatings)  # one per seating
    b = states[0]
    a = next(s for s in states[1:] if s.positions == b.positions)
    before = b.clone()
    a.play(0)
    assert b == before and a.rng != b.rng


def test_the_kept_starts_of_a_game_hold_a_bounded_number_of_components(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for the components of two starts only, a game of many seatings keeps two, and the rest start the
    long way (the same states)."""
    game = engine.load("iconoclasm")
    game.starts.clear()  # those kept as the ruleset was checked on loading
    monkeypatch.setattr("engine.model.game.KEPT_START_PIECES", 2 * len(game.component_names) + 1)
    states = [game.new_state(players=4, seed=seed) for seed in range(40)]
    assert len({s.positions for s in states}) > 2 and len(game.starts) == 2
    assert all(s == _fresh(game, 4, seed) for seed, s in enumerate(states))


def test_a_start_drawing_more_than_the_seating_is_not_kept() -> None:
    game = engine.load("kuhn-poker")  # the setup deals a shuffled deck
    for seed in range(5):
        assert game.new_state(players=2, seed=seed) == _fresh(game, 2, seed)
    assert not game.starts


def test_a_start_dealt_by_a_kept_deal_replays_the_deal_for_each_seed() -> None:
    # the setup shuffles, so no state is kept as the start; the deal is, and each later seed of the seating replays it
    # with its own generator and enters its first steps: the state the long way gives, its own copy
    game = engine.load("nine-domains")
    states = [game.new_state(players=2, seed=seed) for seed in range(30)]
    assert game.dealt_starts and not game.starts
    for seed, s in enumerate(states):
        fresh = game.new_state(players=2, seed=seed, record=True)
        assert s == fresh and s.budget == fresh.budget
        assert s.legal_actions().all_args() == fresh.legal_actions().all_args()
    a, b = states[1], states[2]
    before = b.clone()
    a.play(0)
    assert b == before


PLAIN = [pytest.param(str(p), id=p.name) for p in sorted((Path(__file__).parent.parent / "benchmarks" / "rulesets").iterdir())
         if p.is_dir()]
"""The plainly written rulesets of the benchmarks (their first decision is a ``choose`` inside an effect)."""


@pytest.mark.parametrize("name", [*engine.builtin_names(), *PLAIN])
def test_a_new_game_saved_at_once_plays_on_as_it_would_have(name: str) -> None:
    """A save of a new game (a copy of a kept start, or a game whose first decision is asked inside an effect) loads
    into the same game: the same moves give the same positions.  A start paused inside an effect was kept once, and its
    copies saved the first game's generator with the effect's position before it."""
    game = engine.load(name)
    for players in game.player_counts:
        for seed in (5, 6):
            played = game.new_state(players=players, seed=seed)
            loaded, choose = game.state_from_json(played.to_json()), random.Random(seed)
            for _ in range(30):
                if played.is_terminal:
                    break
                index = choose.randrange(len(played.legal_actions()))
                played.play(index)
                loaded.play(index)
            assert loaded.to_json() == played.to_json()


@pytest.mark.parametrize("name", PLAIN)
def test_a_start_paused_in_an_effect_that_asks_first_is_kept_and_plays_as_the_long_way(name: str) -> None:
    """A first decision asked by an effect that changed nothing before asking leaves the state at the position before
    the effect: such a start is kept, and its copies (each with its own generator) play as states made the long way."""
    game = engine.load(name)
    game.starts.clear()
    for seed in range(12):
        kept, fresh = game.new_state(players=2, seed=seed), _fresh(game, 2, seed)
        assert kept.pending is not None and kept.pending.here
        choose = random.Random(seed)
        while not fresh.is_terminal:
            assert kept == fresh and kept.to_json() == fresh.to_json()
            index = choose.randrange(len(fresh.legal_actions()))
            kept.play(index)
            fresh.play(index)
        assert kept == fresh and kept.is_terminal
    assert game.starts  # kept: nothing but the seating draws before the first decision
