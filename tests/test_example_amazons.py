"""The Game of the Amazons (docs/examples/amazons), written from the docs alone, played beside OpenSpiel's ``amazons``:
OpenSpiel numbers the 100 squares row by row from the top (``y * 10 + x``, our cells with ``y`` down), and a move is
three actions in both, each one a square: the amazon, where it goes, where its arrow lands.  Its scenarios and random
games are tested with the other genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import os
import random


from tests.oracle import EXAMPLES, needs_oracle, pyspiel
from tests.conftest import shipped_game




def _square(text: str) -> int:
    """OpenSpiel's number of the square an action names last (``choose White at 3,9``, ``choose 3,5``)."""
    x, y = text.rsplit(" ", 1)[1].split(",")
    return int(y) * 10 + int(x)


@needs_oracle
def test_amazons_plays_as_openspiels() -> None:
    """Random games beside OpenSpiel's amazons: at every decision the same squares (an amazon that can move, a square
    it reaches, a square its arrow reaches from there, through the square it left), the same player to move, the same
    end and winner (the player who cannot move loses)."""
    game, theirs = shipped_game(str(EXAMPLES / "amazons")), pyspiel.load_game("amazons")
    ends = set()
    for seed in range(int(os.environ.get("AMAZONS_GAMES", "4"))):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = {_square(t): t for t in s.legal_actions().texts()}
            assert sorted(ours) == sorted(o.legal_actions()), (seed, str(o))
            move = rng.choice(sorted(ours))
            s.apply(ours[move])
            o.apply_action(move)
        assert s.is_terminal and s.returns() == [1.0 if r > 0 else 0.0 for r in o.returns()], (seed, str(o))
        ends.add(tuple(s.returns()))
    assert ends == {(1.0, 0.0), (0.0, 1.0)}  # both seats win some games
