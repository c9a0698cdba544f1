"""The first component of each name in a big zone, kept by the state's moves (engine/core/kept_firsts.py): every
note a state holds equals a walk of its zone, after every action of random games of every shipped ruleset that
places pieces (and the pieces a place step offers, read with them, equal those a walk finds), and after any move,
placement, insertion, swap and shuffle (hypothesis); a copy notes nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.placement import KEPT_ZONE, Place
from engine.model.state import State
from tests.conftest import shipped_game


def walk(s: State, zone: int) -> dict[str, int]:
    """The first component of each name in ``zone``, in its order, a component at a time."""
    first: dict[str, int] = {}
    for cid in s.zones[zone]:
        first.setdefault(s.game.piece_names[cid], cid)
    return first


def check(s: State) -> None:
    for zone, note in s.firsts.items():
        assert zone != s.game.board_zone
        assert list(note.items()) == list(walk(s, zone).items()), zone


PLACING = [name for name in engine.builtin_names() if any(isinstance(step, Place) for step in shipped_game(name).steps)]


@pytest.mark.parametrize("name", PLACING)
def test_notes_equal_a_walk_in_random_games(name: str) -> None:
    game = shipped_game(name)
    steps = [step for step in game.steps if isinstance(step, Place)]
    noted = 0
    for seed in range(3):
        for players in game.player_counts:
            s = game.new_state(players=players, seed=seed)
            choose = random.Random(seed)
            for _ in range(300):
                if s.is_terminal:
                    break
                s.play(choose.randrange(len(s.legal_actions())))
                check(s)
                noted += len(s.firsts)
                for step in steps:  # what a step offers read with the notes, and walked on a copy that has none
                    assert step.pieces(s) == step.pieces(s.clone())
            assert s.clone().firsts == {}
    if name == "iconoclasm":  # its supply of some sixty followers is noted: the test reads notes, not only walks
        assert noted > 0


def noted(s: State) -> int:
    """The zone Iconoclasm's place step offers from (its supply), walked once so that the state notes it."""
    step = next(step for step in s.game.steps if isinstance(step, Place))
    zone = step.source(s)
    step._firsts(s, s.zones[zone], zone)
    return zone


def test_iconoclasm_offers_its_supply_from_the_note() -> None:
    s = shipped_game("iconoclasm").new_state(players=4, seed=0)
    zone = noted(s)
    assert len(s.zones[zone]) > KEPT_ZONE and list(s.firsts) == [zone]
    s.firsts[zone] = {"a note": -1}  # what is read is the note, not a walk
    step = next(step for step in s.game.steps if isinstance(step, Place))
    assert list(step._firsts(s, s.zones[zone], zone)) == [-1]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 50), data=st.data())
def test_notes_follow_any_change(seed: int, data: st.DataObject) -> None:
    game = shipped_game("iconoclasm")
    s = game.new_state(players=4, seed=seed)
    supply = noted(s)
    zones = [z for z in range(len(s.zones)) if z != game.board_zone]
    n, cells = len(game.component_names), list(game.grid.cells)
    for _ in range(data.draw(st.integers(1, 30))):
        zone = supply if data.draw(st.booleans()) else data.draw(st.sampled_from(zones))  # the noted zone, often
        what = data.draw(st.sampled_from(["take", "take", "move", "new", "insert", "place", "swap", "shuffle", "walk"]))
        names = {game.piece_names[c] for c in s.zones[zone]}
        others = [c for c in range(n) if game.piece_names[c] not in names]
        if what == "take" and s.zones[zone]:  # a first leaves, as a placement from the zone takes it
            s.place(s.zones[zone][0] if data.draw(st.booleans()) else data.draw(st.sampled_from(s.zones[zone])),
                    data.draw(st.sampled_from([c for c in cells if c not in s.grid])))
        elif what == "move":
            s.move(data.draw(st.integers(0, n - 1)), zone)
        elif what == "new" and others:  # a name the zone does not hold comes in
            s.move(data.draw(st.sampled_from(others)), zone)
        elif what == "insert":
            s.move(data.draw(st.integers(0, n - 1)), zone, data.draw(st.integers(0, len(s.zones[zone]))))
        elif what == "place":
            cell = data.draw(st.sampled_from(cells))
            if cell not in s.grid:
                s.place(data.draw(st.integers(0, n - 1)), cell)
        elif what == "swap":
            s.swap(data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1)))
        elif what == "shuffle":
            s.shuffle(zone)
        else:  # a note made afresh, of whichever zone is big
            if len(s.zones[zone]) > KEPT_ZONE:
                s.firsts[zone] = walk(s, zone)
        check(s)
