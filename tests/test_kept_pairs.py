"""Pairs of pieces kept by step (engine/core/kept_pairs.py): the sets a state keeps equal a fresh scan of the board
after every action of random games of every shipped ruleset with a board, and after any placement, removal and swap,
in clones too; a pattern search reading them finds what one reading every piece finds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.casting import Cast
from engine.blocks.pattern_finding import Board, find, lies_on
from engine.core.kept_pairs import kept_pairs
from engine.model.state import State
from tests import text_games
from tests.conftest import shipped_game
from tests.text_games import game_from_text

BOARDS = [name for name in engine.builtin_names() if shipped_game(name).grid is not None]
STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy] + [(2, 1), (0, -3)]
"""Every step to a neighbour of a square board, and two longer ones (a template's first step may be any)."""

Pairs = dict[tuple[int, int], set[tuple[int, int]]]


def scanned(s: State) -> Pairs:
    """Every step the state keeps, worked out again from the board."""
    return {(dx, dy): {(x, y) for x, y in s.grid if (x + dx, y + dy) in s.grid} for dx, dy in s.pairs}


def play_checked(game: engine.Game, players: int, seed: int, actions: int = 300) -> State:
    """A random game of at most ``actions`` actions, its kept pairs checked after each."""
    s = game.new_state(players=players, seed=seed)
    for step in STEPS:
        kept_pairs(s, step)
    choose = random.Random(seed)
    for _ in range(actions):
        if s.is_terminal:
            break
        s.play(choose.randrange(len(s.legal_actions())))
        assert s.pairs == scanned(s)
    copy = s.clone()
    assert copy.pairs == s.pairs and all(copy.pairs[step] is not s.pairs[step] for step in s.pairs)
    return s


@pytest.mark.parametrize("name", BOARDS)
def test_kept_pairs_equal_a_fresh_scan(name: str) -> None:
    game = shipped_game(name)
    for seed in range(2):
        play_checked(game, game.player_counts[0], seed)


def test_a_skipped_update_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A removal that empties a cell without telling the kept pairs leaves them stale, and the check says so."""
    game = shipped_game("spell-cycles")
    play_checked(game, 2, 0)
    monkeypatch.setattr("engine.model.position_edits.unpair", lambda pairs, cell: None)
    with pytest.raises(AssertionError):
        play_checked(game, 2, 0)


RULESET = """
name: dots
players: [2]
types:
  hue: [A, B, C]
components:
  dot:
    attributes: {hue: hue}
    instances:
      - {id: a, hue: A, count: 8}
      - {id: b, hue: B, count: 8}
      - {id: c, hue: C, count: 8}
board: BOARD
zones:
  pool: {kind: pile}
setup: move(d in dots, pool)
turn:
  - place: {from: pool}
end: {when: count(d in pool) == 0}
scoring:
  rank: r in roles
  by: [0]
  points: key
"""

KINDS = {name: text_games.BOARDS[name] for name in ("fixed", "growing", "hex", "stacking")}


@pytest.mark.parametrize("board", list(KINDS))
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_pairs_follow_placements_removals_and_swaps(board: str, seed: int) -> None:
    """Pieces put down (onto others where the board stacks), taken off and swapped: the kept pairs equal a scan
    after each, and a line's search through them (as casting reads the board) finds what one through every piece
    finds, with and without pieces read as other values."""
    game = game_from_text(RULESET.replace("BOARD", KINDS[board]))
    cells = game.grid.cells or [(x, y) for x in range(-2, 3) for y in range(-2, 3)]  # type: ignore[union-attr]
    pool = game.zone_index[("pool", None)]
    table = game.attributes["hue"]
    s = game.new_state(players=2, seed=1)
    for step in STEPS:
        kept_pairs(s, step)
    rng = random.Random(seed)
    for _ in range(60):
        op, a, b, cell = rng.randrange(3), rng.randrange(24), rng.randrange(24), rng.choice(cells)
        if op == 0 and (board == "stacking" or cell not in s.grid):
            s.place(a, cell)
        elif op == 1:
            s.move(a, pool)
        elif op == 2 and a != b:
            s.swap(a, b)
        assert s.pairs == scanned(s)
        read = lambda c: table[s.face[c]][c]  # noqa: E731
        paired, plain = Board(s, read, table=table, paired=True), Board(s, read)
        values = tuple(rng.choice("ABC") for _ in range(rng.randrange(1, 4)))
        for budget in range(3):
            shape = game.parts["patterns"]["line"]
            assert find(paired, shape, values, budget) == find(plain, shape, values, budget)
            assert lies_on(paired, shape, values, budget) == lies_on(plain, shape, values, budget)
    assert s.clone().pairs == s.pairs


def test_casting_reads_the_kept_pairs() -> None:
    """A cast step's board reads the state's pairs: once it has looked for a pattern, the state keeps them."""
    game = shipped_game("spell-cycles")
    s = game.new_state(players=2, seed=3)
    cast = next(step for step in game.steps if isinstance(step, Cast))
    while not s.pairs and not s.is_terminal:
        s.play(0)
    assert s.pairs and cast.board(s).pairs is s.pairs
