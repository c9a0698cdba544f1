"""The placement step's kept offers: the pieces it offers from a small zone, kept by the zone's contents, are the ones
worked out afresh.

``Place.pieces`` keeps what it found for each content of a zone of at most
``KEPT_ZONE`` pieces (and, for pieces put down as they are, the faces they
show); these tests play random games of every shipped ruleset with a
``place`` step and compare, at every decision, the kept offers with a fresh
look at the zone, also after turning the zone's pieces to random faces.
"""

from __future__ import annotations

import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.placement import KEPT_ZONE, Place
from engine.model.state import State
from tests.conftest import shipped_game


def load(name: str) -> engine.Game:
    """A shipped ruleset, compiled once per test process and shared with every module's tests (collection too)."""
    return shipped_game(name)


PLACING = [name for name in engine.builtin_names() if any(isinstance(step, Place) for step in load(name).steps)]


def fresh(step: Place, s: State) -> tuple[tuple[int, int], ...]:
    """The step's offers looked for afresh, without the kept ones."""
    zone = step.source(s)
    return step._offers(s, s.zones[zone], zone)


def check_offers(game: engine.Game, s: State) -> None:
    """Every place step of the game offers now what a fresh look at its zone finds."""
    for step in game.steps:
        if isinstance(step, Place):
            assert step.pieces(s) == fresh(step, s)


def test_some_shipped_rulesets_place_from_zones_small_enough_to_keep() -> None:
    def smallest(name: str) -> int:
        game = load(name)
        s = game.new_state(players=min(game.player_counts))
        return min(len(s.zones[step.source(s)]) for step in game.steps if isinstance(step, Place))

    assert PLACING and any(smallest(name) <= KEPT_ZONE for name in PLACING)


@pytest.mark.parametrize("name", PLACING)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_offers_are_the_offers_found_afresh_over_random_games(name: str, seed: int) -> None:
    game = load(name)
    s = game.new_state(players=random.Random(seed).choice(game.player_counts), seed=seed)
    choose = random.Random(seed)
    while s.outcome is None:
        check_offers(game, s)
        s.play(choose.randrange(len(s.legal_actions())))
    check_offers(game, s)


@pytest.mark.parametrize("name", PLACING)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_offers_follow_the_faces_of_the_zones_pieces(name: str, seed: int) -> None:
    """Pieces put down as they are offer the face they show: turning a zone's pieces over changes the offers.

    Zones of any size are kept here, so that large zones of pieces with several faces are kept too.
    """
    game = load(name)
    s = game.new_state(players=random.Random(seed).choice(game.player_counts), seed=seed)
    choose = random.Random(seed)
    with mock.patch("engine.blocks.placement.KEPT_ZONE", 1 << 30):
        while s.outcome is None:
            for step in game.steps:
                if isinstance(step, Place):
                    for cid in s.zones[step.source(s)]:
                        s.show(cid, choose.randrange(game.face_count[cid]))  # as the state turns pieces
            check_offers(game, s)
            s.play(choose.randrange(len(s.legal_actions())))


@pytest.mark.parametrize("name", PLACING)
def test_entering_a_plain_place_step_lists_what_its_actions_list(name: str) -> None:
    """A place step with nothing but pieces and cells to weigh lists its placements as it is entered
    (``Place.plain``); at every decision of random games they are the step's actions worked out the general way."""
    game = load(name)
    plain = [step for step in game.steps if isinstance(step, Place) and step.plain]
    for seed in range(3):
        s = game.new_state(players=random.Random(seed).choice(game.player_counts), seed=seed)
        choose = random.Random(seed)
        while not s.is_terminal:
            step = game.steps[s.step] if s.pending is None and s.chance is None and s.step >= 0 else None
            if step in plain:
                assert s.legal_actions().all_args() == step.actions(s).all_args()
            s.play(choose.randrange(len(s.legal_actions())))
    assert name != "iconoclasm-cards" or plain  # its step is plain


def test_a_big_zone_of_copies_of_one_piece_offers_its_first_piece_without_a_walk() -> None:
    """A zone of more than ``KEPT_ZONE`` pieces whose count of copies the state keeps, holding copies of one piece
    only, is not walked: its offers are the kept offers of its first piece, the same as those found afresh."""
    game = load("othello")
    s = game.new_state(players=2, seed=5)
    choose = random.Random(5)
    for _ in range(6):
        s.play(choose.randrange(len(s.legal_actions())))
    step = next(step for step in game.steps if isinstance(step, Place))
    zone = step.source(s)
    assert len(s.zones[zone]) > KEPT_ZONE and step.copy_tallies.get(zone)
    expected = fresh(step, s)
    with mock.patch.object(Place, "_firsts", side_effect=AssertionError("the zone was walked")):
        assert step.pieces(s) == expected


def test_a_stock_of_a_few_dozen_one_faced_pieces_is_read_back_by_its_contents() -> None:
    """A zone of a few dozen pieces, none of which has a second face, is kept by its contents alone: the second
    game dealt the same stocks reads the offers back without walking the zone."""
    game = load("connect-four")
    step = next(step for step in game.steps if isinstance(step, Place))
    assert not step.faces_vary
    for seed in range(2):
        s = game.new_state(players=2, seed=seed)
        zone = step.source(s)
        assert 12 < len(s.zones[zone]) <= KEPT_ZONE
        expected = fresh(step, s)
        if seed:
            with mock.patch.object(Place, "_firsts", side_effect=AssertionError("the zone was walked")):
                assert step.pieces(s) == expected
        else:
            assert step.pieces(s) == expected


def test_a_zone_whose_count_of_copies_is_kept_is_read_by_it_once_it_is_small() -> None:
    """Othello's stock, counted since it was big, holds copies of one piece to the end: once it is down to
    ``KEPT_ZONE`` pieces or fewer its offers are still its first piece's, not found by a walk nor keyed by
    its contents."""
    game = load("othello")
    s = game.new_state(players=2, seed=3)
    choose = random.Random(3)
    step = next(step for step in game.steps if isinstance(step, Place))
    while s.outcome is None and not (s.step >= 0 and s.pending is None and len(s.zones[step.source(s)]) <= KEPT_ZONE):
        s.play(choose.randrange(len(s.legal_actions())))
    assert s.outcome is None
    zone = step.source(s)
    assert step.copy_tallies.get(zone)
    expected = fresh(step, s)
    with mock.patch.object(Place, "_firsts", side_effect=AssertionError("the zone was walked")):
        assert step.pieces(s) == expected
    assert tuple(s.zones[zone]) not in step.kept_offers and (*s.zones[zone], *(s.face[c] for c in s.zones[zone])) not in step.kept_offers
