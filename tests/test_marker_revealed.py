"""Spell Cycles, Extra Credit v2: the Marker is turned face up at the end, for every seat to see.

"Before tallying points at the end of the game flip the next Prestige Certificate face-up": the Marker decides
which suit counts double, so every player must see it.  It stayed the top of the face-down deck, seen by no seat
(each observation showed the deck as a count only).  Once the game is over nothing is hidden: every seat sees the
whole deck, the Marker on top.
"""

from __future__ import annotations

import random

import engine
from tests.conftest import shipped_game


def test_every_seat_sees_the_marker_once_the_game_ends_and_none_before() -> None:
    game = shipped_game("spell-cycles", "extra-credit-v2")
    state = game.new_state(players=3, seed=1, record=True)
    rng = random.Random(1)
    while state.current_player != engine.TERMINAL:
        assert all("seen" not in state.observation(seat)["zones"]["prestige_deck"] for seat in (1, 2, 3))
        state.apply(rng.choice(list(state.legal_actions())))
    deck = game.zone_names.index("prestige_deck")
    marker = game.piece_names[state.zones[deck][0]]
    assert [state.observation(seat)["zones"]["prestige_deck"][0] for seat in (1, 2, 3)] == [marker] * 3
