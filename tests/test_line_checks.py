"""Line checks written plainly (engine/lang/line_checks.py): "N in a row" said cell by cell reads the kept runs.

A designer's ``any(... for p in board where p.side == r)`` whose test asks whether the cells one, two, ... steps
from each piece hold pieces of the side is answered from the straight runs the board keeps up to date.  The
answers must be the loop's: over random placements, removals and swaps on every kind of board (and on copies),
each function is compared with the same ruleset loaded with line checks off; the plainly written Connect Four
plays the same games both ways.
"""

from __future__ import annotations

import random
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.lang import line_checks
from engine.lang.program import Program
from tests.test_codegen import PLAIN, playthrough
from tests.text_games import BOARDS

RULESET = """
name: plain-lines
players: [2]
types:
  side: [A, B]
components:
  stone:
    attributes: {side: side}
    instances:
      - {id: A, side: A, count: 20}
      - {id: B, side: B, count: 20}
board: BOARD
roles:
  of: side
  seating: {2: [1, 2]}
turn:
  - place: {from: supply, face: as-is}
functions:
  mine(side r, int x, int y): at(x, y) != none and at(x, y).side == r
  three(side r, int x, int y, int dx, int dy): mine(r, x + dx, y + dy) and mine(r, x + 2 * dx, y + 2 * dy)
  across(side r): any(three(r, p.cell.x, p.cell.y, 1, 0) or three(r, p.cell.x, p.cell.y, 1, -1) for p in board where p.side == r)
  centred(side r): any(mine(r, p.cell.x - 1, p.cell.y - 1) and mine(r, p.cell.x + 1, p.cell.y + 1) for p in board where p.side == r)
  mixed(side r): >-
    any(three(r, p.cell.x, p.cell.y, 0, 1) or mine(r, p.cell.x + 1, p.cell.y) and mine(r, p.cell.x - 1, p.cell.y)
        or mine(r, p.cell.x + 1, p.cell.y + 1) or mine(r, p.cell.x, p.cell.y - 1) for p in board where p.side == r)
  bare(side r): any(at(p.cell.x + 1, p.cell.y).side == r and at(p.cell.x + 2, p.cell.y).side == r for p in board where p.side == r)
  as_a(side r): any(three(r, p.cell.x, p.cell.y, 0, 1) for p in board where p.side == A)
  corner(side r): any(mine(r, p.cell.x + 1, p.cell.y) and mine(r, p.cell.x, p.cell.y + 1) for p in board where p.side == r)
  spaced(side r): any(mine(r, p.cell.x + 2, p.cell.y) for p in board where p.side == r)
end: {when: count(empty_cells) == 0}
scoring:
  rank: r in roles
  by: [if across(r) then 1 else 0]
  points: key
"""

LINES = ["across", "centred", "mixed", "bare", "as_a"]
"""The functions that are line checks (bare reads a side of an empty cell as none, as_a compares the cells with its
argument, the pieces with A)."""

OTHERS = ["corner", "spaced"]
"""Functions of the same look that are not: an L of three cells, a cell two steps off."""


def plain_lines(board: str, checks: bool) -> tuple[engine.Game, list[Any]]:
    """The ruleset on ``board``, loaded with line checks on or off, and what :func:`line_checks.runs` found."""
    found: list[Any] = []
    runs = line_checks.runs

    def noted(*args: Any) -> Any:
        found.append(runs(*args))
        return found[-1]

    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        patch.setattr(line_checks, "ENABLED", checks)
        patch.setattr(line_checks, "runs", noted)
        path = Path(folder) / "ruleset.yaml"
        path.write_text(textwrap.dedent(RULESET.replace("BOARD", BOARDS[board])))
        return engine.load(str(path)), found


GAMES: dict[tuple[str, bool], tuple[engine.Game, list[Any], dict[str, Program]]] = {}


def loaded(board: str, checks: bool) -> tuple[engine.Game, list[Any], dict[str, Program]]:
    """The game, what was found in its functions, and a condition per function and side, loaded once."""
    if (board, checks) not in GAMES:
        game, found = plain_lines(board, checks)
        calls = {f"{name}({side})": game.compile_condition(f"{name}({side})")
                 for name in LINES + OTHERS for side in "AB"}
        GAMES[board, checks] = game, found, calls
    return GAMES[board, checks]


def test_line_checks_are_found_and_other_tests_are_not() -> None:
    """Each line check is read as runs by direction (the shortest run a direction asks for), the others are not."""
    _, found, _ = loaded("fixed", True)
    lines = {shortest for found_ in found if found_ is not None for shortest in [found_[1]]}
    assert lines == {(((1, -1), 3), ((1, 0), 3)), (((1, 1), 3),), (((0, 1), 2), ((1, 0), 3), ((1, 1), 2)),
                     (((1, 0), 3),), (((0, 1), 3),)}
    assert None in found  # corner and spaced
    assert loaded("fixed", False)[1] == []


@pytest.mark.parametrize("board", list(BOARDS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_line_checks_answer_as_the_loop_does(board: str, seed: int) -> None:
    """Pieces put down, moved, taken off and swapped: every function answers as the loop as written, in copies too."""
    game, _, kept = loaded(board, True)
    _, _, written = loaded(board, False)
    cells = game.grid.cells or [(x, y) for x in range(-2, 3) for y in range(-2, 3)]  # type: ignore[union-attr]
    s = game.new_state(players=2, seed=1)
    supply = game.zone_index[("supply", None)]
    rng = random.Random(seed)
    states = [s]
    for _ in range(40):
        op, a, b, cell = rng.randrange(4), rng.randrange(40), rng.randrange(40), rng.choice(cells)
        if op <= 1 and (board == "stacking" or cell not in s.grid):
            s.place(a, cell)  # from the supply or from another cell
        elif op == 2:
            s.move(a, supply)
        elif a != b:
            s.swap(a, b)
        if rng.random() < 0.2:
            states.append(s.clone())
        for t in (s, rng.choice(states)):
            assert {call: kept[call].test(t) for call in kept} == {call: written[call].test(t) for call in written}


def test_the_plain_connect_four_reads_kept_runs_and_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its `won` reads the runs the state keeps (the loop as written keeps none): the same games."""
    kept = engine.load(str(PLAIN / "plain-connect-four"))
    monkeypatch.setattr(line_checks, "ENABLED", False)
    written = engine.load(str(PLAIN / "plain-connect-four"))
    for game, keeps in ((kept, True), (written, False)):
        s = game.new_state(players=2, seed=0)
        s.play(0)  # the end condition asks whether either side has won
        assert bool(s.lines) is keeps
    for seed in range(6):
        assert playthrough(kept, 2, seed) == playthrough(written, 2, seed)
