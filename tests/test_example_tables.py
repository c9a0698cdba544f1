"""Backgammon (docs/examples/tables), a game written from the docs alone, played beside OpenSpiel's
``backgammon(scoring_type=full_scoring)``.  The two do not split a turn alike: OpenSpiel's action is two checker moves
(a double is two actions), ours one choice of a checker and one of a die per move.  So a turn is compared whole: from
the same position and the same dice, the positions each can leave at the end of the turn (every checker on its point,
on the bar or borne off) are the same set.  The dice are ours (rolled by the ruleset from the game's seed), read in
the log and given to OpenSpiel as its chance outcome.  Our columns are OpenSpiel's points 0..23; our White (seat 1) is
its player 0, ``x``, moving up them."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engine
from tests.oracle import EXAMPLES, needs_oracle, pyspiel, slow_seeds

COLOURS = ("White", "Black")


Position = tuple[tuple[int, ...], ...]


def _ours(s: Any) -> Position:
    """Our position: for each colour its checkers on each of the 24 points, on the bar and borne off."""
    seen = s.observation(1)
    rows = []
    for colour in COLOURS:
        points = [0] * 24
        for cell, (top, _face) in seen["board"].items():
            if top == colour:
                points[int(cell.split(",")[0])] = 1 + len(seen.get("stacks", {}).get(cell, []))
        rows.append(tuple(points) + (len(seen["zones"][f"bar of {colour}"]), len(seen["zones"][f"off of {colour}"])))
    return tuple(rows)


def _theirs(o: Any) -> Position:
    """OpenSpiel's position, in the same form (its bar and borne-off checkers read from its text)."""
    text = str(o)
    bar = text.split("Bar:")[1].split("\n")[0]
    scores = re.search(r"Scores, X: (\d+), O: (\d+)", text)
    assert scores is not None
    return tuple(tuple(o.board(p, i) for i in range(24)) + (bar.count("xo"[p]), int(scores.group(1 + p)))
                 for p in (0, 1))


def _our_turns(s: Any) -> dict[Position, list[str]]:
    """Each position our player can leave at the end of the turn, with the choices that leave it."""
    ends: dict[Position, list[str]] = {}
    turn = s.observation(1)["turn"]
    walked: set[tuple[Position, str, str]] = set()

    def walk(t: Any, line: list[str]) -> None:
        seen = t.observation(1 if t.is_terminal else t.current_player)
        if t.is_terminal or seen["turn"] != turn:
            ends.setdefault(_ours(t), line)
            return
        # What follows depends only on the position and the dice left, and once a checker is chosen, on its point:
        # two orders of the same moves are walked once.
        key = (_ours(t), repr(sorted(seen["counters"].items())), line[-1] if seen["choice"]["prompt"] == "by the die" else "")
        if key in walked:
            return
        walked.add(key)
        for text in t.legal_actions().texts():
            u = t.clone()
            u.apply(text)
            walk(u, line + [text])

    walk(s, [])
    return ends


def _their_turns(o: Any) -> dict[Position, list[int]]:
    """Each position OpenSpiel's player can leave at the end of the turn (a double is two of its actions)."""
    ends: dict[Position, list[int]] = {}
    player = o.current_player()

    def walk(t: Any, line: list[int]) -> None:
        if t.is_terminal() or t.is_chance_node() or t.current_player() != player:
            ends.setdefault(_theirs(t), line)
            return
        for action in t.legal_actions():
            u = t.clone()
            u.apply_action(action)
            walk(u, line + [action])

    walk(o, [])
    return ends


def _roll(o: Any, dice: tuple[int, int], player: int | None = None) -> None:
    """Give OpenSpiel our dice (and, at the opening roll, our first player) as its chance outcome."""
    for outcome, _p in o.chance_outcomes():
        t = o.clone()
        t.apply_action(outcome)
        shown = str(t).split("Dice: ")[1].split("\n")[0]
        if sorted(shown) == sorted(f"{dice[0]}{dice[1]}") and player in (None, t.current_player()):
            o.apply_action(outcome)
            return
    raise AssertionError(f"no chance outcome of OpenSpiel's for {dice}")


def _rolls(lines: list[str]) -> list[int]:
    """The dice the log lines say were rolled, in order."""
    return [int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("a d6 is rolled: ")]


def play_beside(game: Any, theirs: Any, seed: int) -> tuple[int, float]:
    """One random game of ours beside OpenSpiel's, the same whole turns from every position; the winner's seat and
    OpenSpiel's return to it (1, 2 for a gammon, 3 for a backgammon)."""
    rng = random.Random(seed)
    s, o = game.new_state(players=2, seed=seed, record=True), theirs.new_initial_state()
    opening = _rolls(s.log or [])[-2:]
    _roll(o, (opening[0], opening[1]), 0 if opening[0] > opening[1] else 1)
    rolls: list[int] = []
    seen = len(s.log or [])
    while not o.is_terminal():
        if o.is_chance_node():
            assert len(rolls) >= 2, (seed, str(o))
            _roll(o, (rolls[0], rolls[1]))
            rolls = rolls[2:]
            continue
        mine = _their_turns(o)
        if rolls:
            # we rolled for later turns too: this one had no move, our turn found nothing to choose and went on
            # (with two such turns running, the same player decides next in both games), and OpenSpiel passes
            assert len(o.legal_actions()) == 1 and list(mine) == [_theirs(o)], (seed, str(o))
            o.apply_action(o.legal_actions()[0])
            continue
        assert s.current_player - 1 == o.current_player(), (seed, str(o))
        assert _ours(s) == _theirs(o), (seed, str(o))
        ours = _our_turns(s)
        assert sorted(ours) == sorted(mine), (seed, str(o), set(ours) ^ set(mine))
        end = rng.choice(sorted(mine))
        for text in ours[end]:
            s.apply(text)
        for action in mine[end]:
            o.apply_action(action)
        rolls += _rolls((s.log or [])[seen:])
        seen = len(s.log or [])
    assert s.is_terminal and _ours(s) == _theirs(o), (seed, str(o))
    winner = s.returns().index(1.0)
    assert s.outcome.scores[winner] == o.returns()[winner], (seed, str(o))
    return winner, o.returns()[winner]


RESULTS = {2: (1, 1), 3: (0, 2), 36: (0, 3)}
"""The suite's games beside OpenSpiel's and how each ends: the winner (0 White, 1 Black) and the score."""

SLOW = {2}
"""The game the suite leaves to a longer run (some 8 s of CPU): its single game's score is the scenario
a-single-win-counts-one's, its turns at every position the other two games' kind of check."""


@needs_oracle
@pytest.mark.parametrize("seed", slow_seeds("TABLES_GAMES", tuple(RESULTS), SLOW))
def test_tables_plays_as_openspiels(seed: int) -> None:
    """Random games beside OpenSpiel's backgammon: the same positions reachable in every turn (hits, entering from
    the bar, bearing off by a higher die from the furthest point only, both dice used when they can be and the
    larger when only one can), the same winner and the same score (1, a gammon 2, a backgammon 3).  Every forced
    move is asked (``ask_forced``), so that each turn ends where OpenSpiel's does.  In seed 36 White, then Black,
    has no move: two passes running, after which White decides again.  Three games reach all of it: seed 2 Black
    wins a single game (a slow test: see SLOW), 3 White a gammon, 36 White a backgammon, each a test of its own (the three in one test were
    among the longest tests of the suite, on one worker); ``TABLES_GAMES=N`` plays seeds 0..N-1 too (0 to 13
    agree; 12 and 13, once in the suite too, are a single game won by White and a backgammon by Black)."""
    game = engine.load(EXAMPLES / "tables", None, {"ask_forced": "true"})
    theirs = pyspiel.load_game("backgammon(scoring_type=full_scoring)")
    result = play_beside(game, theirs, seed)
    assert result == RESULTS.get(seed, result), (seed, result)
