"""Classic games written from their rules alone, in docs/examples: each one's scenario files, random games that keep
its invariants, and, where OpenSpiel has the game, random games played beside OpenSpiel's move for move.

Kalah (docs/examples/kalah) sows seeds with a counter per pit and gives another turn with ``play_again()``; it is
played beside OpenSpiel's ``mancala``.  Dots and Boxes (docs/examples/dots-and-boxes) draws lines on the empty cells
between dots and claims closed boxes, also with ``play_again()``; it is played beside OpenSpiel's ``dots_and_boxes``
on 3x3 boxes.  Nim (docs/examples/nim) takes stones by pointing at one in a column; it is played beside OpenSpiel's
``nim``, misère (as written) and normal play (the variant ``normal-play``).  Gomoku (docs/examples/gomoku) is five or
more in a line (``longest_line``) on 9x9, played beside OpenSpiel's ``gomoku(size=9)``.  Checkers
(docs/examples/checkers) is a piece and then a square to choose, compulsory jumps that go on with ``play_again()``,
crowning by a flip and a draw after 40 quiet moves; it is played beside OpenSpiel's ``checkers``.  Grundy's game
(docs/examples/grundy), which OpenSpiel lacks, is solved whole and compared with a solver of its own here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import pytest

import engine
from tests.oracle import EXAMPLES, needs_oracle, pyspiel
from engine.core.actions import Action
from engine.runner.scenario import run_scenario
from engine.runner.simulate import simulate
from tests.conftest import shipped_game

GAMES = ("kalah", "dots-and-boxes", "nim", "gomoku", "checkers", "grundy")

oracle = needs_oracle


@pytest.mark.parametrize("path", sorted(p for g in GAMES for p in (EXAMPLES / g / "scenarios").glob("*.yaml")),
                         ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario(path: Path, compiled_once: None) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end_and_keep_the_invariants(name: str) -> None:
    game = shipped_game(str(EXAMPLES / name))
    report = simulate(game, players=2, n=10, seed=0, agents="random")
    assert report.games == 10
    for seed in range(5):
        s = game.new_state(players=2, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            assert game.broken_invariants(s) == []
        assert s.outcome.ended == "end condition"


def play_beside(game: engine.Game, theirs: "pyspiel.Game", seeds: int,
                moves: Callable[[engine.State, "pyspiel.State"], dict[int, tuple[Action, ...]]]) -> None:
    """Random games of ours beside OpenSpiel's, one per seed: at every step the same player to move and the same
    legal moves (``moves`` names each of ours by OpenSpiel's action: our decisions that make it), then the same
    end and result."""
    for seed in range(seeds):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = moves(s, o)
            assert sorted(ours) == sorted(o.legal_actions()), (seed, str(o))
            move = rng.choice(sorted(ours))
            for decision in ours[move]:
                s.apply(decision)
            o.apply_action(move)
        assert s.is_terminal
        assert s.returns() == [1.0 if r > 0 else 0.0 if r < 0 else 0.5 for r in o.returns()], (seed, str(o))


def by_text(o: "pyspiel.State", ours: dict[str, tuple[Action, ...]]) -> dict[int, tuple[Action, ...]]:
    """Our moves keyed by OpenSpiel's text of a move, keyed by its action instead (-1: a text OpenSpiel lacks)."""
    actions = {o.action_to_string(a): a for a in o.legal_actions()}
    return {actions.get(text, -1): decisions for text, decisions in ours.items()}


def kalah_to_openspiel(action: str) -> int:
    """``choose S3 at 3,0`` -> 3 (South's pits are OpenSpiel's 1-6), ``choose N2 at 5,1`` -> 9 (North's are 8-13)."""
    pit = action.split()[1]
    return int(pit[1:]) + (0 if pit[0] == "S" else 7)


@oracle
def test_kalah_plays_as_openspiels_mancala() -> None:
    """300 random games: the same legal moves, the same player to move (extra turns too), the same end and result."""
    play_beside(shipped_game(str(EXAMPLES / "kalah")), pyspiel.load_game("mancala"), 300,
                lambda s, o: {kalah_to_openspiel(str(a)): (a,) for a in s.legal_actions()})


def dots_to_openspiel(action: str) -> int:
    """``choose 3,0`` (x, y on the 7x7 board) -> OpenSpiel's line: horizontal ones first, row by row, then vertical.

    >>> dots_to_openspiel("choose 5,2"), dots_to_openspiel("choose 6,3")   # P1(h,1,2), P1(v,1,3)
    (5, 19)
    """
    x, y = map(int, action.split()[1].split(","))
    return y // 2 * 3 + (x - 1) // 2 if y % 2 == 0 else 12 + (y - 1) // 2 * 4 + x // 2


@oracle
def test_dots_and_boxes_plays_as_openspiels() -> None:
    """300 random games on 3x3 boxes: the same lines to draw, the same player to move (another line after a box), the
    same result."""
    play_beside(shipped_game(str(EXAMPLES / "dots-and-boxes")), pyspiel.load_game("dots_and_boxes(num_rows=3,num_cols=3)"),
                300, lambda s, o: {dots_to_openspiel(str(a)): (a,) for a in s.legal_actions()})


def nim_to_openspiel(action: str, heights: dict[int, int]) -> str:
    """``choose stone at 3,4`` with 7 stones in pile 3 (x) -> ``pile:4, take:3;``, OpenSpiel's text of the move.

    >>> nim_to_openspiel("choose stone at 3,4", {3: 7})
    'pile:4, take:3;'
    """
    x, y = map(int, action.split()[-1].split(","))
    return f"pile:{x + 1}, take:{heights[x] - y};"


@oracle
@pytest.mark.parametrize("variant, misere", [(None, True), ("normal-play", False)])
def test_nim_plays_as_openspiels(variant: str | None, misere: bool) -> None:
    """200 random games from 1, 3, 5 and 7 stones: the same moves, the same player to move, the same winner."""
    def moves(s: engine.State, o: "pyspiel.State") -> dict[int, tuple[Action, ...]]:
        cells = [tuple(map(int, str(a).split()[-1].split(","))) for a in s.legal_actions()]  # every stone is offered
        heights = {x: max(y for x2, y in cells if x2 == x) + 1 for x, _ in cells}
        return by_text(o, {nim_to_openspiel(str(a), heights): (a,) for a in s.legal_actions()})

    play_beside(shipped_game(str(EXAMPLES / "nim"), variant), pyspiel.load_game("nim", {"is_misere": misere}), 200, moves)


@oracle
def test_gomoku_plays_as_openspiels() -> None:
    """100 random games on 9x9: the same free points, the same player to move, the same end and winner."""
    def moves(s: engine.State, o: "pyspiel.State") -> dict[int, tuple[Action, ...]]:
        cells = {a: tuple(map(int, str(a).split()[-1].split(","))) for a in s.legal_actions()}
        return {y * 9 + x: (a,) for a, (x, y) in cells.items()}  # OpenSpiel numbers the points row by row

    play_beside(shipped_game(str(EXAMPLES / "gomoku")), pyspiel.load_game("gomoku(size=9)"), 100, moves)


def checkers_moves(s: engine.State) -> dict[str, tuple[Action, Action]]:
    """Every move as OpenSpiel writes it (``c3d4``) -> our two decisions: the piece, then the square it goes to (the
    board names its squares as OpenSpiel does, ``cell_names: algebraic``: ``choose Black at c3``, ``choose d4``)."""
    moves = {}
    for piece in s.legal_actions():
        after = s.clone()
        after.apply(piece)
        for to in after.legal_actions():
            moves[str(piece).split()[-1] + str(to).split()[-1]] = (piece, to)
    return moves


@oracle
def test_checkers_plays_as_openspiels() -> None:
    """12 random games: the same moves (each jump of a multiple jump is a move of its own in both), the same player
    to move, the same end — a win or the draw after 40 moves without a capture — and result."""
    play_beside(shipped_game(str(EXAMPLES / "checkers")), pyspiel.load_game("checkers"), 12,
                lambda s, o: by_text(o, checkers_moves(s)))


@lru_cache(maxsize=None)
def grundy_mover_wins(heaps: tuple[int, ...], misere: bool) -> bool:
    """Whether the player to move wins Grundy's game from these heaps (sorted), by brute force on the rules.

    >>> grundy_mover_wins((3,), False), grundy_mover_wins((4,), False), grundy_mover_wins((7,), False)
    (True, False, False)
    """
    children = {tuple(sorted(heaps[:i] + heaps[i + 1:] + (a, h - a)))
                for i, h in enumerate(heaps) for a in range(1, h) if 2 * a != h}
    if not children:  # the player to move cannot split: the last split was the opponent's
        return misere
    return any(not grundy_mover_wins(child, misere) for child in children)


def engine_mover_wins(s: engine.State) -> bool:
    """Whether the seat to move wins with perfect play, searching the ruleset's own game tree."""
    seat = s.current_player
    for action in s.legal_actions():
        after = s.clone()
        after.apply(action)
        if after.is_terminal:
            if after.returns()[seat - 1] == 1.0:
                return True
        elif (after.current_player == seat) == engine_mover_wins(after):
            return True
    return False


@pytest.mark.parametrize("variant, misere", [(None, False), ("misere", True)])
def test_grundy_is_won_by_whom_its_rules_say(variant: str | None, misere: bool) -> None:
    """From one heap of 3 to 8 stones, the ruleset's whole game tree gives the first player a win exactly when a
    solver of the rules written here does (a second-player win from 7, as Grundy values say, in normal play)."""
    for heap in range(3, 9):
        game = engine.load(EXAMPLES / "grundy", variant, {"heap": str(heap)})
        assert engine_mover_wins(game.new_state(players=2, seed=0)) == grundy_mover_wins((heap,), misere), heap
