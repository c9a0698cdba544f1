"""Quoridor (docs/examples/quoridor), written from the docs alone, played beside OpenSpiel's ``quoridor`` (9x9, ten
walls each): our board is OpenSpiel's own 17x17 lattice of squares, grooves and the points between, so a cell names a
move as OpenSpiel's action strings do — a square ``x,y`` (both even) is the square ``a``+x/2, row y/2+1 (``8,14`` is
``e8``), a groove with an odd column starts an upright wall (``1,0`` is ``a1v``), with an odd row a lying one (``0,1``
is ``a1h``).  OpenSpiel numbers pawn moves relative to the pawn in some versions, so the moves are matched by their
strings.  Its scenarios and random games are tested with the other genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import os
import random


from tests.oracle import EXAMPLES, needs_oracle, pyspiel
from tests.conftest import shipped_game



def openspiel_name(text: str) -> str:
    """OpenSpiel's string for the move an action names by its cell (``choose 8,14`` is ``e8``, ``choose 1,0`` ``a1v``)."""
    x, y = (int(n) for n in text.rsplit(" ", 1)[1].split(","))
    return f"{chr(ord('a') + x // 2)}{y // 2 + 1}" + ("v" if x % 2 else "h" if y % 2 else "")


def test_openspiel_name() -> None:
    assert openspiel_name("choose 8,14") == "e8" and openspiel_name("choose 1,0") == "a1v"
    assert openspiel_name("choose 14,15") == "h8h" and openspiel_name("choose 0,16") == "a9"


@needs_oracle
def test_quoridor_plays_as_openspiels() -> None:
    """Random games beside OpenSpiel's quoridor: at every decision the same moves (steps, jumps straight and aside,
    every wall that fits, crosses nothing and cuts no pawn off), the same player to move, the same end and winner.
    Three games by default (seeds 0-2: South wins two, North one); ``QUORIDOR_GAMES=44`` plays 44, as was done when
    the example was written (all equal, 16 of them drawn at 324 moves)."""
    game, theirs = shipped_game(str(EXAMPLES / "quoridor")), pyspiel.load_game("quoridor")
    ends = set()
    for seed in range(int(os.environ.get("QUORIDOR_GAMES", "3"))):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = {openspiel_name(t): t for t in s.legal_actions().texts()}
            named = {o.action_to_string(a): a for a in o.legal_actions()}
            assert sorted(ours) == sorted(named), (seed, str(o))
            move = rng.choice(sorted(ours))
            s.apply(ours[move])
            o.apply_action(named[move])
        assert s.is_terminal and s.returns() == [0.5 if r == 0 else 1.0 if r > 0 else 0.0 for r in o.returns()], (seed, str(o))
        ends.add(tuple(s.returns()))
    assert {(1.0, 0.0), (0.0, 1.0)} <= ends  # both seats win some games
