"""Counts by face kept up to date (engine/core/face_tallies.py): a state's face tallies equal a fresh count of
their zones, and a zone noted as showing one value shows only it, after every action of random games of every
shipped ruleset, and after any move, placement, swap, flip and change of face (hypothesis), in clones too; the
pieces a placement offers from a big zone, read with them, are the first of each name (and face) a walk over the
whole zone finds."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.placement import COUNT_SKIPS, KEPT_ZONE, Place
from engine.core.face_tallies import FaceTally, distinct_values
from engine.model.state import State
from tests.conftest import shipped_game


def table_of(game: engine.Game) -> list[list[tuple[str, int]]]:
    """Each component's name and face, by face then component: what tells identical copies apart."""
    return [[(name, f) for name in game.piece_names] for f in range(max(game.face_count, default=1))]


def track_every_zone(s: State, table: list[list[tuple[str, int]]]) -> None:
    """A face tally of every zone but the board."""
    for zone in range(len(s.zones)):
        if zone != s.game.board_zone:
            distinct_values(s, FaceTally(zone, table))


def counted(s: State, tally: FaceTally) -> dict:
    return dict(Counter(tally.table[s.face[c]][c] for c in s.zones[tally.zone]))


def check(s: State, table: list[list[tuple[str, int]]]) -> None:
    for tally, counts in s.face_tallies.items():
        assert counts == counted(s, tally), tally
    for tally, value in s.same_faces.items():
        assert set(counted(s, tally)) <= {value}, tally
        assert tally not in s.face_tallies
    for zone in range(len(s.zones)):  # what a placement asks: how many values a zone shows
        if zone != s.game.board_zone:
            tally = FaceTally(zone, table)
            assert distinct_values(s, tally) == len(counted(s, tally))


@pytest.mark.parametrize("name", engine.builtin_names())
def test_face_tallies_equal_a_fresh_count(name: str) -> None:
    game = shipped_game(name)
    table = table_of(game)
    for seed in range(2):
        s = game.new_state(players=game.player_counts[0], seed=seed)
        track_every_zone(s, table)
        choose = random.Random(seed)
        for _ in range(200):
            if s.is_terminal:
                break
            s.play(choose.randrange(len(s.legal_actions())))
            check(s, table)
        copy = s.clone()
        assert copy.face_tallies == s.face_tallies and copy.same_faces == s.same_faces
        assert all(copy.face_tallies[t] is not s.face_tallies[t] for t in s.face_tallies)
        assert copy.same_faces is not s.same_faces or not s.same_faces


BOARDED = [name for name in engine.builtin_names() if shipped_game(name).grid is not None]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(BOARDED), data=st.data())
def test_face_tallies_follow_any_change(name: str, data: st.DataObject) -> None:
    game = shipped_game(name)
    s = game.new_state(players=game.player_counts[0], seed=0)
    table = table_of(game)
    track_every_zone(s, table)
    n, cells = len(game.component_names), list(game.grid.cells)[:30] if game.grid.fixed else [(0, 0), (1, 0), (0, 1)]
    for _ in range(data.draw(st.integers(1, 25))):
        what, cid = data.draw(st.sampled_from(["move", "place", "swap", "flip", "show"])), data.draw(st.integers(0, n - 1))
        if what == "move":
            s.move(cid, data.draw(st.sampled_from([z for z in range(len(s.zones)) if z != game.board_zone] or [0])))
        elif what == "place":
            cell = data.draw(st.sampled_from(cells))
            if cell not in s.grid or game.grid.stacking:
                s.place(cid, cell, data.draw(st.integers(0, game.face_count[cid] - 1)))
        elif what == "swap":
            s.swap(cid, data.draw(st.integers(0, n - 1)))
        elif what == "flip":
            s.flip(cid)
        else:
            s.show(cid, data.draw(st.integers(0, game.face_count[cid] - 1)))
        check(s, table)
        if data.draw(st.booleans()):
            s = s.clone()


def walked(step: Place, face: list[int], hand: list[int]) -> list[int]:
    """The first of each name (and face, put down as-is) in ``hand``, a copy at a time."""
    first: dict[object, int] = {}
    for cid in hand:
        first.setdefault(step.piece_keys[face[cid]][cid] if step.as_is else step.game.piece_names[cid], cid)
    return list(first.values())


PLACING = [name for name in engine.builtin_names() if any(isinstance(step, Place) for step in shipped_game(name).steps)]


@pytest.mark.parametrize("name", PLACING)
def test_the_firsts_offered_are_the_walked_ones(name: str) -> None:
    game = shipped_game(name)
    step = next(step for step in game.steps if isinstance(step, Place))
    for seed in range(3):
        s = game.new_state(players=game.player_counts[0], seed=seed)
        choose = random.Random(seed)
        for _ in range(150):
            if s.is_terminal:
                break
            zone = step.source(s)
            assert list(step._firsts(s, s.zones[zone], zone)) == walked(step, s.face, s.zones[zone])
            s.play(choose.randrange(len(s.legal_actions())))


@settings(max_examples=100, deadline=None)
@given(names=st.lists(st.sampled_from("abc"), min_size=KEPT_ZONE + 1, max_size=COUNT_SKIPS + 20), data=st.data())
def test_a_big_zone_offers_the_first_of_each(names: list[str], data: st.DataObject) -> None:
    """However the copies of a big zone lie and whatever faces they show, the walk that stops early finds them all."""
    faces = [data.draw(st.integers(0, 1)) for _ in names]
    keys = [[(n, f) for n in names] for f in (0, 1)]
    for as_is, counted_first in [(True, False), (True, True), (False, False), (False, True)]:
        copy_keys = keys if as_is else [names, names]
        step = SimpleNamespace(as_is=as_is, piece_keys=keys, game=SimpleNamespace(piece_names=names, board_zone=-1),
                               copy_keys=copy_keys, copy_tallies={0: FaceTally(0, copy_keys)} if counted_first else {})
        s = SimpleNamespace(zones=[list(range(len(names)))], face=faces, face_tallies={}, same_faces={}, firsts={})
        for _ in range(2):  # (a fresh step decides on its first walk whether to count the zone)
            assert list(Place._firsts(step, s, s.zones[0], 0)) == walked(step, faces, s.zones[0])
