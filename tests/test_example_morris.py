"""Nine Men's Morris (docs/examples/morris), a game written from the docs alone, played beside OpenSpiel's
``nine_mens_morris``: the 24 points of its board of points lie on a 7x7 lattice, OpenSpiel numbering them row by row from the top, as our cells
sort by ``(y, x)``.  A move is one action of OpenSpiel's (``Move 4 -> 7``) and two of ours (the man, then the point);
placing a man and removing one are one action in both.  Its scenarios and random games are tested with the other
genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import random
from typing import Any


from tests.oracle import EXAMPLES, needs_oracle, pyspiel, seeds
from tests.conftest import shipped_game

POINTS = sorted(((x, y) for x in range(7) for y in range(7)
                 if (x, y) != (3, 3) and (x == 3 or y == 3 or abs(x - 3) == abs(y - 3))), key=lambda c: (c[1], c[0]))
# the point's name as actions write it (cell_names: names): its column a..g from the left, its row 7..1 from the top
POINT = {f"{'abcdefg'[x]}{7 - y}": i for i, (x, y) in enumerate(POINTS)}



def _point(text: str) -> int:
    """OpenSpiel's number of the point an action names last (``choose d7``, ``choose White at d7``)."""
    return POINT[text.rsplit(" ", 1)[1]]


def _morris_moves(s: Any) -> dict[int, list[str]]:
    """Each whole action of the seat deciding, by OpenSpiel's number: a point to place on or a man to remove (one
    action), or a man to move then its point (two)."""
    mover = "White" if s.current_player == 1 else "Black"
    moves: dict[int, list[str]] = {}
    for text in s.legal_actions().texts():
        if not text.startswith(f"choose {mover} at "):  # a point to place on, or a rival's man to remove
            moves[_point(text)] = [text]
            continue
        t = s.clone()
        t.apply(text)
        for to in t.legal_actions().texts():
            moves[24 + _point(text) * 24 + _point(to)] = [text, to]
    return moves


def test_points_are_openspiels() -> None:
    """The 24 points, in OpenSpiel's order: three squares' corners and middles, the outer one's first row on top;
    they are the ruleset's points, in the same order, each linked to the points next to it on its lines."""
    assert len(POINTS) == 24 and POINTS[:3] == [(0, 0), (3, 0), (6, 0)] and POINTS[9:15] == [
        (0, 3), (1, 3), (2, 3), (4, 3), (5, 3), (6, 3)]
    board = shipped_game(str(EXAMPLES / "morris")).grid
    assert list(board.cells) == POINTS and len(board.links) == 32
    assert sorted(board.neighbours((3, 1))) == [(1, 1), (3, 0), (3, 2), (5, 1)]


@needs_oracle
def test_morris_plays_as_openspiels() -> None:
    """Random games beside OpenSpiel's nine_mens_morris: the same whole actions (placing, moving and flying,
    removing a man not in a mill unless all are), the same player to move, the same end and winner (a player down to
    two men or unable to move loses; 200 turns are a draw).  Six games of the first 30 (610 turns of their 4,809)
    where each seat wins (4, 12, 22 and 14, 15) and one is drawn after 46 flights (9); every game places, moves and
    removes, and all but 12 and 14 fly more than once.  ``MORRIS_GAMES=N`` plays seeds 0..N-1 too (in 400 random
    games none ended by a player unable to move)."""
    game, theirs = shipped_game(str(EXAMPLES / "morris")), pyspiel.load_game("nine_mens_morris")
    ends = set()
    for seed in seeds("MORRIS_GAMES", (4, 9, 12, 14, 15, 22)):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = _morris_moves(s)
            assert sorted(ours) == sorted(o.legal_actions()), (seed, str(o))
            move = rng.choice(sorted(ours))
            for text in ours[move]:
                s.apply(text)
            o.apply_action(move)
        assert s.is_terminal and s.returns() == [1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in o.returns()], (
            seed, str(o))
        ends.add(tuple(o.returns()))
    assert ends == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}  # both seats win some games, and some are drawn
