"""Longest lines kept up to date (engine/blocks/kept_lines.py): what a state keeps equals a search of the board.

``longest_line(x in board where x.a == v)`` is searched once per state and
value, then kept as pieces are put down: each placement measures the lines
through its own cell.  Over random playouts, and over random placements,
removals and swaps on a board of pieces with two attributes, every answer kept
is checked against :func:`longest_line` of the pieces as they lie.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.grid import longest_line
from engine.lang.program import Program
from engine.model.state import State
from tests.conftest import shipped_game
from tests.text_games import BOARDS, game_from_text


def searched(s: State) -> dict[Any, dict[Any, int]]:
    """Every answer the state keeps, searched again from the board."""
    board, cell_of = s.game.board_zone, s.cell_of
    return {kind: {value: longest_line([cell_of[c] for c in s.zones[board] if kind.row[c] == value and cell_of[c] is not None],
                                       kind.offsets) for value in lengths}
            for kind, lengths in s.lines.items()}


def kept(s: State) -> dict[Any, dict[Any, int]]:
    return {kind: dict(lengths) for kind, lengths in s.lines.items()}


@settings(max_examples=25)
@given(name=st.sampled_from(["connect-four", "tic-tac-toe"]), seed=st.integers(0, 2**32 - 1))
def test_kept_lines_follow_every_placement(name: str, seed: int) -> None:
    """Each answer kept during a random game equals a search of the board after every action, and in a clone."""
    game = shipped_game(name)
    s = game.new_state(players=2, seed=seed)
    choose = random.Random(seed)
    grown = 0
    while not s.is_terminal:
        before = kept(s)
        s.play(choose.randrange(len(s.legal_actions())))
        assert kept(s) == searched(s)
        grown += any(n > before.get(kind, {}).get(value, n) for kind, lengths in s.lines.items() for value, n in lengths.items())
        copy = s.clone()
        assert kept(copy) == kept(s) and all(copy.lines[k] is not s.lines[k] for k in s.lines)
    assert s.lines and grown  # the end condition reads the lines: kept, and lengthened by placements


RULESET = """
name: lines
players: [2]
types:
  side: [A, B]
  size: [small, big]
components:
  stone:
    attributes: {side: side, size: size}
    instances:
      - {id: As, side: A, size: small, count: 10}
      - {id: Ab, side: A, size: big, count: 10}
      - {id: Bs, side: B, size: small, count: 10}
      - {id: Bb, side: B, size: big, count: 10}
board: BOARD
roles:
  of: side
  seating: {2: [1, 2]}
turn:
  - place: {from: supply, face: as-is}
end: {when: count(empty_cells) == 0}
scoring:
  rank: r in roles
  by: [longest_line(x in board where x.side == r)]
  points: key
"""

READS = ["longest_line(x in board where x.side == A)", "longest_line(x in board where x.side == B)",
         "longest_line(x in board where x.side == A and x.size == big)",
         "longest_line(x in board where x.size == small and x.side == B)"]


def lines_game(board: str) -> engine.Game:
    return game_from_text(RULESET.replace("BOARD", BOARDS[board]))


@lru_cache(maxsize=None)
def reads(board: str, text: str, n: int) -> Program:
    return lines_game(board).compile_condition(f"{text} == {n}")


def agree(board_name: str, s: State) -> bool:
    """Whether what the code reads (kept answers where the board does not stack) is what a search of the board says."""
    game = lines_game(board_name)
    board = s.zones[game.board_zone]
    names = game.component_names
    wanted = [lambda c: names[c].startswith("A"), lambda c: names[c].startswith("B"),
              lambda c: names[c].startswith("Ab"), lambda c: names[c].startswith("Bs")]
    offsets = game.grid.offsets  # type: ignore[union-attr]
    found = [longest_line([s.cell_of[c] for c in board if want(c) and s.cell_of[c] is not None], offsets) for want in wanted]
    return all(reads(board_name, text, n).test(s) for text, n in zip(READS, found))


@pytest.mark.parametrize("board", list(BOARDS))
@settings(max_examples=20)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_lines_follow_removals_and_swaps(board: str, seed: int) -> None:
    """Pieces put down, moved, taken off and swapped (with two attributes read together): the same answers as a search."""
    game = lines_game(board)
    stacking = board == "stacking"
    cells = game.grid.cells or [(x, y) for x in range(-2, 3) for y in range(-2, 3)]  # type: ignore[union-attr]
    s = game.new_state(players=2, seed=1)
    supply = game.zone_index[("supply", None)]
    rng = random.Random(seed)
    assert agree(board, s)
    for _ in range(40):
        op, a, b, cell = rng.randrange(4), rng.randrange(40), rng.randrange(40), rng.choice(cells)
        if op == 0 and (stacking or cell not in s.grid) or op == 1 and rng.random() < 0.1:
            s.place(a, cell)  # from the supply or from another cell; now and then onto a piece, even where none stack
        elif op == 2:
            s.move(a, supply)  # off the board, if it was on it
        elif a != b:
            s.swap(a, b)
        assert agree(board, s)
    assert bool(s.lines) is not stacking  # a board that stacks searches each time (see LongestLine)


def test_the_same_line_is_kept_once_and_read_by_every_call() -> None:
    """Two calls measuring the same pieces share one answer; a value never asked keeps nothing."""
    game = shipped_game("connect-four")
    s = game.new_state(players=2, seed=3)
    stock = s.zones[game.zone_index[("stock", "Red")]]
    for cell in [(0, 0), (1, 1), (2, 2)]:
        s.place(stock[0], cell)
    assert game.compile_condition("longest_line(d in board where d.colour == Red) == 3").test(s)
    assert game.compile_condition("longest_line(e in board where e.colour == Red) >= 3").test(s)
    (kind, answers), = s.lines.items()
    assert answers == {"Red": 3}
    s.place(stock[0], (3, 3))
    assert answers == {"Red": 4}
