"""Chess (docs/examples/chess), a game written from the docs alone, played beside OpenSpiel's ``chess`` move for
move.  A move is one action of OpenSpiel's (``e2e4``, ``e7e8q``, castling ``e1g1``) and two or three of ours: the
man (``choose P at e2``), the square (``choose e4``) and, for a promotion, what the pawn becomes
(``choose queen``).  The board names its squares as chess does (``cell_names: algebraic``): files a..h are our
columns 0..7, ranks 1..8 our rows 0..7.  OpenSpiel's player 0 is Black, so our seat 1 (White) is its player
1.  A position repeated three times is a
draw in both."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.oracle import EXAMPLES, needs_oracle, pyspiel, slow_seeds
from tests.conftest import shipped_game

FIGURES = {"queen": "q", "rook": "r", "bishop": "b", "knight": "n"}

if pyspiel is not None:
    from pyspiel import chess as spiel_chess


def _square(text: str) -> str:
    """The square an action names last, in chess notation as the board names it: ``choose P at e2`` is ``e2``."""
    return text.rsplit(" ", 1)[1]


def _chess_moves(s: Any) -> dict[str, list[str]]:
    """Each whole move of the side to move, by its long algebraic notation: the man, the square, and for a pawn
    reaching the far row what it becomes."""
    moves: dict[str, list[str]] = {}
    for man in s.legal_actions().texts():
        t = s.clone()
        t.apply(man)
        for to in t.legal_actions().texts():
            move = _square(man) + _square(to)
            if man.split(" ")[1] in "Pp" and move[-1] in "18":  # a pawn reaching the far row: what it becomes
                for becomes, letter in FIGURES.items():
                    moves[move + letter] = [man, to, f"choose {becomes}"]
            else:
                moves[move] = [man, to]
    return moves


def _play_beside(game: Any, theirs: Any, seed: int, back: float) -> Any:
    """One random game of ours beside OpenSpiel's, the same legal moves at every position; with chance ``back`` a
    player undoes its last move when it can (its man goes back where it was), so that positions come again."""
    rng = random.Random(seed)
    s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
    played: list[str] = []
    while not o.is_terminal():
        assert not s.is_terminal and s.current_player == 2 - o.current_player(), (seed, str(o))
        ours = _chess_moves(s)
        board = o.board()
        lans = {spiel_chess.action_to_move(a, board).to_lan(): a for a in o.legal_actions()}
        assert sorted(ours) == sorted(lans), (seed, str(o))
        undo = played[-2][2:] + played[-2][:2] if len(played) >= 2 else ""
        move = undo if back and undo in ours and rng.random() < back else rng.choice(sorted(ours))
        for text in ours[move]:
            s.apply(text)
        o.apply_action(lans[move])
        played.append(move)
    theirs_returns = [1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in reversed(o.returns())]
    assert s.is_terminal and s.returns() == theirs_returns, (seed, str(o))
    return o


ENDS = {1447: "mate", 887: "other draw", 1590: "stalemate"}
"""The suite's games beside OpenSpiel's and how each ends (see test_chess_plays_as_openspiels)."""

SLOW = {1590}
"""The game the suite leaves to a longer run (some 9 s of CPU, the other two's 9 s together): its short castling,
bishop's promotion and stalemate are the scenarios' castling-moves-the-rook, promotion-to-any-of-four and
stalemate-is-a-draw, its legal moves at every position the other two games' kind of check."""


@needs_oracle
@pytest.mark.parametrize("seed", slow_seeds("CHESS_GAMES", tuple(ENDS), SLOW))
def test_chess_plays_as_openspiels(seed: int) -> None:
    """Random games beside OpenSpiel's chess: the same legal moves at every position (en passant, castling only
    when the king is not in check and crosses no attacked square, promotions to four men, no move leaving one's
    king attacked), the same side to move, the same end and result (mate, stalemate, fifty moves, no mating
    material).

    Three games picked among the first 2,000 seeds so that the moves played include castling on both wings, en
    passant and promotion to each of the four men, and the games end by mate, stalemate and want of mating material,
    at about half the work of seeds 0 to 2, which only mate: 1447 takes en passant, promotes to a rook and mates in 39
    moves; 887 castles long, promotes to a queen and knights and ends with too few men to mate; 1590 castles short,
    promotes to a queen and a bishop and is stalemate (a slow test: see SLOW).  Each game is a test of its own (the three in one test were
    the longest test of the suite, on one worker), and ends as said.  ``CHESS_GAMES=N`` plays seeds 0..N-1 too (0 to
    42 agreed, about 4 s of CPU a game)."""
    game, theirs = shipped_game(str(EXAMPLES / "chess")), pyspiel.load_game("chess")
    ended = _play_beside(game, theirs, seed, back=0.0)
    end = "mate" if ended.returns()[0] else "stalemate" if not ended.board().has_legal_moves() else "other draw"
    assert end == ENDS.get(seed, end), (seed, end)


@needs_oracle
def test_chess_draws_a_position_repeated_three_times_as_openspiel() -> None:
    """Games whose players often take their last move back: OpenSpiel draws a position seen for the third time (the
    same men, player to move, castlings and en passant), and so does the ruleset, at the same move."""
    game, theirs = shipped_game(str(EXAMPLES / "chess")), pyspiel.load_game("chess")
    repeated = [_play_beside(game, theirs, seed, back=0.9).is_repetition_draw() for seed in range(3)]
    assert any(repeated), repeated


def test_a_player_reads_the_castling_rights_and_the_quiet_moves_not_the_bookkeeping() -> None:
    """The counters a player of chess reads are drawn and logged (castling rights, the moves toward the fifty-move
    draw); the en passant square, the flags of the end and the position's key are kept out of sight (shown: false):
    ``ep_x: -1 -> 4`` in the log after a pawn's double step, ``lost: White 0, Black 0`` under the board, read as noise."""
    from cli import render, zone_listing

    state = shipped_game(str(EXAMPLES / "chess")).new_state(players=2, seed=1, record=True)
    for text in ("choose P at e2", "choose e4"):
        state.apply(text)
    console = render.make_console(width=100)
    with console.capture() as captured:
        for part in zone_listing.zones(state, 1):
            console.print(part)
    listed = captured.get()
    assert "short_castle: White 1, Black 1" in listed and "quiet: 0" in listed
    assert not any(name in listed or name in "\n".join(state.log or []) for name in ("ep_", "lost", "drawn"))
