"""engine.model.savefile.transposition_key: equal positions reached in different orders key alike (identical copies
on swapped cells), different positions never do, and a save's checksum is unchanged."""

from __future__ import annotations

import itertools

import pytest

import engine
from engine.model import savefile
from engine.core.slices import unread_keys
from engine.model.savefile import transposition_key
from engine.runner.replay import state_hash


def _played(moves: list[str]) -> engine.State:
    state = engine.load("tic-tac-toe").new_state(players=2, seed=0)
    for move in moves:
        state.apply(move)
    return state


def test_two_orders_of_the_same_moves_key_alike() -> None:
    """The crosses at 0,0 and 2,2 are identical copies, put there in either order: the positions were told apart
    (which copy lies where), so a transposition table missed them; their key is now the same, their checksum not."""
    first = _played(["place X at 0,0", "place O at 1,1", "place X at 2,2", "place O at 0,1"])
    other = _played(["place X at 2,2", "place O at 1,1", "place X at 0,0", "place O at 0,1"])
    assert first.grid != other.grid and first != other and state_hash(first) != state_hash(other)
    assert transposition_key(first) == transposition_key(other) == transposition_key(other.clone())


def test_different_positions_key_apart() -> None:
    """Another layout, or another seat to move, key apart; the piece just placed counts where a step reads it (a
    clash or a group step), not in a game without one."""
    base = ["place X at 0,0", "place O at 1,1", "place X at 2,2", "place O at 0,1"]
    key = transposition_key(_played(base))
    assert key != transposition_key(_played(["place X at 0,0", "place O at 1,1", "place X at 2,2", "place O at 1,0"]))
    assert key != transposition_key(_played(base[:3]))
    assert key == transposition_key(_played(["place X at 0,0", "place O at 0,1", "place X at 2,2", "place O at 1,1"]))
    assert "placed" in unread_keys({"place"}) and "placed" not in unread_keys({"place", "clash"})


def test_a_part_that_may_hold_ids_unsaid_keeps_the_copies_as_they_lie(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sound: were the piece just placed a slice that does not declare its components, renaming the copies could
    make two different positions key alike; such a position keys with its copies as they lie."""
    first = _played(["place X at 0,0", "place O at 1,1", "place X at 2,2", "place O at 0,1"])
    other = _played(["place X at 2,2", "place O at 1,1", "place X at 0,0", "place O at 0,1"])
    monkeypatch.setattr(savefile, "component_keys", lambda: set())
    monkeypatch.setattr(savefile, "unread_keys", lambda kinds: set())
    assert transposition_key(first) != transposition_key(other)
    assert transposition_key(first) == transposition_key(first.clone())


def test_every_order_of_four_tic_tac_toe_moves_meets_its_transposition() -> None:
    """All 3,024 orders of four moves: each position (the board's marks) is reached in four orders; the keys tell
    exactly the 756 positions apart, where the checksums told 3,024."""
    game = engine.load("tic-tac-toe")
    start = game.new_state(players=2, seed=0)
    keys: dict[str, tuple[object, ...]] = {}
    hashes = set()
    for moves in itertools.permutations(sorted(game.grid.cells), 4):
        state = start.clone()
        for n, (x, y) in enumerate(moves):
            state.apply(f"place {'XO'[n % 2]} at {x},{y}")
        position = (frozenset(moves[0::2]), frozenset(moves[1::2]))
        assert keys.setdefault(transposition_key(state), position) == position
        hashes.add(state_hash(state))
    assert len(keys) == len(set(keys.values())) == 756 and len(hashes) == 3024
