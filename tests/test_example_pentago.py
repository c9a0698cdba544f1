"""Pentago (docs/examples/pentago), written from the docs alone, played beside OpenSpiel's ``pentago``: a turn is one
action of OpenSpiel's, ``(y * 6 + x) * 8 + 2 * quadrant + way`` (``a1s``: the cell, then the quadrant, 0 the top left
and on clockwise, and the way, 0 anticlockwise), and three of ours: the cell, the quadrant, the way.  Its scenarios
and random games are tested with the other genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import os
import random
from typing import Any


from tests.oracle import EXAMPLES, needs_oracle, pyspiel
from tests.conftest import shipped_game

QUADRANTS = ("NW", "NE", "SE", "SW")  # OpenSpiel's order
WAYS = ("anticlockwise", "clockwise")



def _turns(s: Any) -> dict[int, tuple[str, str, str]]:
    """Each whole turn of the seat deciding, by OpenSpiel's number: a cell, a quadrant, a way (the last two always the
    same eight, so they are checked as offered once, from the first cell)."""
    cells = s.legal_actions().texts()
    t = s.clone()
    t.apply(cells[0])
    assert sorted(t.legal_actions().texts()) == sorted(f"choose {q}" for q in QUADRANTS)
    t.apply("choose NW")
    assert sorted(t.legal_actions().texts()) == sorted(f"choose {w}" for w in WAYS)
    turns = {}
    for cell in cells:
        x, y = (int(n) for n in cell.rsplit(" ", 1)[1].split(","))
        for q, quadrant in enumerate(QUADRANTS):
            for w, way in enumerate(WAYS):
                turns[(y * 6 + x) * 8 + 2 * q + w] = (cell, f"choose {quadrant}", f"choose {way}")
    return turns


@needs_oracle
def test_pentago_plays_as_openspiels() -> None:
    """Random games beside OpenSpiel's pentago: the same whole turns at every decision (every empty cell, then any
    quadrant turned either way), the same position after each (the marbles of the quadrant turned), the same player to
    move, the same end and result (five in a row wins, five for both at once or a full board draws)."""
    game, theirs = shipped_game(str(EXAMPLES / "pentago")), pyspiel.load_game("pentago")
    ends = set()
    # seeds 3 and 4 fill the board with no five (a draw), 23 wins on the last cell, 46 makes five for both at once
    for seed in (*range(int(os.environ.get("PENTAGO_GAMES", "12"))), 23, 46):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = _turns(s)
            assert sorted(ours) == sorted(o.legal_actions()), (seed, str(o))
            move = rng.choice(sorted(ours))
            for text in ours[move]:
                s.apply(text)
            o.apply_action(move)
            rows = str(o).splitlines()[2:8]
            marks = {"O": "White", "@": "Black"}
            board = {(x, y): marks[rows[y][4 + 2 * x]] for y in range(6) for x in range(6) if rows[y][4 + 2 * x] != "."}
            assert {c: s.game.piece_names[p] for c, p in s.grid.items()} == board, (seed, str(o))
        assert s.is_terminal and s.returns() == [1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in o.returns()], (
            seed, str(o))
        ends.add(tuple(o.returns()))
    assert ends == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}  # both seats win some games, and some are drawn
