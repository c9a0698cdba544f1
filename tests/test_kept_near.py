"""Tests kept near a piece (engine/lang/kept_near.py): ``any``/``all`` over the board's pieces whose test reads only
the cells at fixed offsets from each piece keep their answers by the board's change log
(engine/core/board_changes.py).  The kept answer and the steps it spends equal the loop as written after every
action of random games, after pieces put down, lifted, swapped and turned over at random, on copies of earlier
positions (the branches of a search), and where the budget is too short; a change the log misses is caught."""

from __future__ import annotations

import functools
import random
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.board_changes import between, noted, root
from engine.core.errors import EffectRuntimeError
from engine.lang import kept_near
from engine.model.state import State
from tests.text_games import game_from_text

ROOT = engine.__file__.rsplit("/", 2)[0]

NEAR_LINES = """
    name: near-lines
    title: Lines of discs that turn over
    version: 1
    description: Discs whose colour is the face they show; three in a line win.
    players: [2]
    types:
      colour: [Black, White]
    components:
      disc:
        faces: [dark, light]
        attributes:
          colour: {type: colour, per_face: true}
        instances:
          - {id: disc, colour: [Black, White], count: 30}
    board:
      kind: square-grid
      width: 6
      height: 5
    roles:
      of: colour
      seating:
        2: [1, 2]
    turn:
      - do:
          effect: |
            let c = choose(x in empty_cells, always_ask = true)
            place(d in supply, c)
            if current_role == White:
              flip(p in board where p.cell == c)
    functions:
      mine(colour r, int x, int y): at(x, y) != none and at(x, y).colour == r
      three(colour r, int x, int y, int dx, int dy): mine(r, x + dx, y + dy) and mine(r, x + 2 * dx, y + 2 * dy)
      won(colour r): >-
        any(three(r, p.cell.x, p.cell.y, 1, 0) or three(r, p.cell.x, p.cell.y, 0, 1)
            or three(r, p.cell.x, p.cell.y, 1, -1) for p in board where p.colour == r)
      held(colour r): all(p.cell.y == 0 or at(p.cell.x, p.cell.y - 1) != none for p in board where p.colour == r)
    end:
      when: any(won(r) for r in roles) or count(empty_cells) == 0
    scoring:
      rank: r in roles
      by: [if won(r) then 1 else 0, if held(r) then 1 else 0]
      points: key
"""

Pair = tuple[Callable[[Any, list[Any]], Any], Callable[[Any, list[Any]], Any]]


def kept_pairs(load: Callable[[], engine.Game]) -> tuple[engine.Game, list[Pair]]:
    """The game ``load`` gives, with each kept quantifier compiled for it and the loop as written it stands for."""
    made: list[Pair] = []
    original = kept_near.kept_function

    def noting(*args: Any) -> Any:
        fn = original(*args)
        if fn is not None:
            made.append((fn, args[9]))
        return fn

    kept_near.kept_function = noting
    try:
        return load(), made
    finally:
        kept_near.kept_function = original


@functools.cache
def near_lines() -> tuple[engine.Game, list[Pair]]:
    """The test ruleset above, with its kept quantifiers."""
    return kept_pairs(lambda: game_from_text(NEAR_LINES))


def answers(fn: Callable[[Any, list[Any]], Any], s: State, env: list[Any], budget: int) -> tuple[Any, int]:
    """What ``fn`` answers on ``s`` with ``budget`` steps (or the error it raises), and the steps left."""
    s.budget = budget
    try:
        found: Any = fn(s, list(env))
    except EffectRuntimeError as error:
        found = ("error", str(error))
    return found, s.budget


def check(s: State, pairs: list[Pair], budget: int = 10**6) -> int:
    """Every kept quantifier answers on ``s`` what its loop as written does, for each role, spending the same steps;
    how many answers were true."""
    true = 0
    for kept, written in pairs:
        for role in s.positions or (None,):
            env = [role] + [None] * 15
            want = answers(written, s, env, budget)
            assert answers(kept, s, env, budget) == want
            true += want[0] is True
    return true


def shuffled_board(s: State, rand: random.Random, changes: int) -> None:
    """``changes`` random changes of the board: pieces put down, lifted, swapped, turned over."""
    board, supply = s.game.board_zone, 0
    cells = [c for c in s.game.grid.cells]
    for _ in range(changes):
        on, off = s.zones[board], s.zones[supply]
        kind = rand.randrange(4)
        empty = [c for c in cells if c not in s.grid]
        if kind == 0 and off and empty:
            s.place(rand.choice(off), rand.choice(empty))
        elif kind == 1 and on:
            s.move(rand.choice(on), supply)
        elif kind == 2 and on:
            s.swap(rand.choice(on), rand.choice(on + off))
        elif kind == 3 and on:
            cells_on = [s.cell_of[c] for c in rand.sample(on, min(3, len(on)))]
            if rand.random() < 0.5:
                s.flip_cells(cells_on)
            else:
                s.flip(s.grid[cells_on[0]])


def test_the_line_checks_are_kept() -> None:
    """The plain Connect Four's ``won`` and the test ruleset's ``won`` and ``held`` are kept; they read the cells
    ahead of each piece."""
    _, made = kept_pairs(lambda: engine.load(f"{ROOT}/benchmarks/rulesets/plain-connect-four"))
    assert made and all("KEPT" in fn.generated_source for fn, _ in made)
    assert len(near_lines()[1]) >= 2
    assert kept_near.offsets("(s.grid.get((s.cell_of[e[1]][0] + 1, s.cell_of[e[1]][1] * 2)) is None)", 1, {}) is None
    assert kept_near.offsets("s.grid.get(e[0]) is None", 1, {}) is None  # a cell that is no offset of the item's


@pytest.mark.parametrize("path", ["benchmarks/rulesets/plain-connect-four", "rulesets/connect-four"])
def test_kept_answers_equal_the_loop_over_random_games(path: str) -> None:
    game, pairs = kept_pairs(lambda: engine.load(f"{ROOT}/{path}"))
    assert pairs
    true = 0
    for seed in range(40):
        s = game.new_state(players=2, seed=seed)
        rand = random.Random(seed)
        while not s.is_terminal:
            true += check(s, pairs)
            s.play(rand.randrange(len(s.legal_actions())))
        true += check(s, pairs)
    if "plain" in path:
        assert true > 0  # won games were seen


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 12))
def test_kept_answers_equal_the_loop_under_any_change(seed: int, rounds: int) -> None:
    """Pieces put down, lifted, swapped and turned over at random between moves, answers asked on copies of earlier
    positions in any order (as a search's branches do), and budgets too short for the loop."""
    game, pairs = near_lines()
    rand = random.Random(seed)
    s = game.new_state(players=2, seed=seed)
    earlier = [s.clone()]
    for _ in range(rounds):
        if not s.is_terminal and rand.random() < 0.6:
            s.play(rand.randrange(len(s.legal_actions())))
        else:
            shuffled_board(s, rand, rand.randrange(1, 6))
        check(s, pairs)
        earlier.append(s.clone())
        other = rand.choice(earlier)
        check(other, pairs, budget=rand.choice([10**6, len(other.zones[game.board_zone]) * 3 - 1, 0]))
        if rand.random() < 0.3:
            s = rand.choice(earlier).clone()  # another branch
    check(s, pairs)


def test_a_change_the_log_misses_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece lifted without its cell noted in the change log leaves the kept answer stale: the check says so."""
    game, pairs = near_lines()
    s = game.new_state(players=2, seed=1)
    for cell in [(0, 0), (1, 0), (2, 0)]:
        s.place(s.zones[0][0], cell)
    assert check(s, pairs) > 0  # three dark discs in a row: won
    lift = State._lift

    def unnoted(self: State, cid: int) -> None:
        node = self.changes
        lift(self, cid)
        self.changes = node

    monkeypatch.setattr(State, "_lift", unnoted)
    s.move(s.grid[(1, 0)], 0)
    with pytest.raises(AssertionError):
        check(s, pairs)


def test_the_log_between_two_positions() -> None:
    start = root()
    a = noted(start, (1, 1))
    b, c = noted(a, (2, 2)), noted(a, (3, 3))
    assert between(b, c, 10) == [(2, 2), (3, 3)]
    assert between(a, noted(c, (4, 4)), 10) == [(4, 4), (3, 3)]
    assert between(start, c, 1) is None  # too far
    assert between(root(), c, 10) is None  # another log
