"""The classic rulesets against OpenSpiel, move for move.

OpenSpiel (DeepMind's library of game implementations, ``pip install
'.[oracle]'``) is an independent oracle: from the start, the number of action
sequences to each depth ("perft") must equal OpenSpiel's, and along random
games the legal actions (matched through their text: cells, columns), the
terminal test and the returns must agree at every step.  For the games with
chance and hidden cards or dice (Kuhn poker, liar's dice): the deals are
OpenSpiel's chance outcomes, equally likely; the number of terminal
histories and the expected returns of uniform random play are equal
exactly; and each seat's observation tells positions apart exactly as
OpenSpiel's information state does.  docs/classics.md says it in full.

Without OpenSpiel these tests skip on a workstation, but fail when the ``CI``
environment variable is set, so the oracle can never silently go missing.
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import pytest

from tests.conftest import shipped_game

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None
    if os.environ.get("CI"):
        raise ImportError("the OpenSpiel oracle is missing: pip install '.[oracle]' (CI must run these tests)") from None
    pytestmark = pytest.mark.skip(reason="OpenSpiel is not installed (pip install '.[oracle]')")


Key = Any


def _cell_of(text: str) -> Key:
    """Our action text ``place X at 2,1`` (or ``pass``) as the cell it names."""
    if text == "pass":
        return "pass"
    m = re.fullmatch(r"place \S+(?: as \S+)? at (\d+),(\d+)", text)
    assert m, f"unexpected action text {text!r}"
    return int(m.group(1)), int(m.group(2))


def _ttt(text: str) -> Key:
    """OpenSpiel's ``x(row,col)``: our cell is (col, row)."""
    m = re.fullmatch(r"[xo]\((\d),(\d)\)", text)
    assert m, text
    return int(m.group(2)), int(m.group(1))


def _column(text: str) -> Key:
    """OpenSpiel's connect-four ``x3``: the column."""
    return int(text[1:])


def _othello(text: str) -> Key:
    """OpenSpiel's othello ``d3`` (column letter, row 1-8) or ``pass``."""
    return "pass" if text == "pass" else (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def _step(text: str) -> Key:
    """Our ``move 0,6 to 1,5`` as the two cells."""
    m = re.fullmatch(r"move (\d+),(\d+) to (\d+),(\d+)", text)
    assert m, f"unexpected action text {text!r}"
    x0, y0, x1, y1 = map(int, m.groups())
    return (x0, y0), (x1, y1)


def _breakthrough(text: str) -> Key:
    """OpenSpiel's ``a7b6`` (``*`` marks a capture): two squares, column letter and row 1-8."""
    m = re.fullmatch(r"([a-h])(\d)([a-h])(\d)\*?", text)
    assert m, text
    a, r0, b, r1 = m.groups()
    return (ord(a) - ord("a"), int(r0) - 1), (ord(b) - ord("a"), int(r1) - 1)


@dataclass(frozen=True)
class Classic:
    ruleset: str
    openspiel: str
    ours: Callable[[str], Key]  # our action text -> the key both sides share
    theirs: Callable[[str], Key]  # OpenSpiel's action text -> that key
    perft_depth: int
    games: int = 1000  # random games played beside OpenSpiel's in the suite; OPENSPIEL_GAMES=N plays N of each


CLASSICS = [
    Classic("tic-tac-toe", "tic_tac_toe", _cell_of, _ttt, 6),
    Classic("connect-four", "connect_four", lambda t: _cell_of(t)[0], _column, 6),
    # Othello's and Breakthrough's games are long (60 moves): 300 and 200 of them reach everything 1,000 do (passes,
    # draws, captures, both sides winning; no random Breakthrough game of 1,000 ends by capturing every man).
    Classic("othello", "othello", _cell_of, _othello, 6, games=300),
    Classic("breakthrough", "breakthrough", _step, _breakthrough, 4, games=200),
]


def perft(state: Any, depth: int, terminal: Callable[[Any], bool], children: Callable[[Any], list[Any]]) -> list[int]:
    """The number of action sequences from ``state`` to each depth 1..``depth`` (a game that ends early counts once).

    One walk gives every depth; the last level is counted from its parents' legal actions.
    """
    counts = [0] * (depth + 1)

    def walk(node: Any, level: int) -> None:
        if terminal(node):
            for d in range(max(level, 1), depth + 1):
                counts[d] += 1
            return
        if level:
            counts[level] += 1
        nexts = children(node)
        if level == depth - 1:
            counts[depth] += len(nexts)
            return
        for child in nexts:
            walk(child(), level + 1)

    walk(state, 0)
    return counts[1:]


def _our_children(state: Any) -> list[Callable[[], Any]]:
    def child(action: Any) -> Callable[[], Any]:
        def make() -> Any:
            c = state.clone()
            c.apply(action)
            return c
        return make
    return [child(a) for a in state.legal_actions()]


def _their_children(state: Any) -> list[Callable[[], Any]]:
    return [lambda a=a: state.child(a) for a in state.legal_actions()]


def _ours(state: Any, classic: Classic) -> dict[Key, Any]:
    return {classic.ours(str(a)): a for a in state.legal_actions()}


def _theirs(state: Any, classic: Classic) -> dict[Key, int]:
    player = state.current_player()
    return {classic.theirs(state.action_to_string(player, a)): a for a in state.legal_actions()}


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda c: c.ruleset)
def test_perft_equals_openspiel(classic: Classic) -> None:
    game = shipped_game(classic.ruleset)
    oracle = pyspiel.load_game(classic.openspiel)
    ours = perft(game.new_state(players=2), classic.perft_depth, lambda s: s.is_terminal, _our_children)
    theirs = perft(oracle.new_initial_state(), classic.perft_depth, lambda s: s.is_terminal(), _their_children)
    assert ours == theirs, f"{classic.ruleset}: perft to depth {classic.perft_depth} differs"
    assert len(ours) == classic.perft_depth and ours[0] > 1


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda c: c.ruleset)
def test_random_games_agree_with_openspiel_at_every_step(classic: Classic) -> None:
    game = shipped_game(classic.ruleset)
    oracle = pyspiel.load_game(classic.openspiel)
    pick = random.Random(18)
    for number in range(int(os.environ.get("OPENSPIEL_GAMES", classic.games))):
        ours, theirs = game.new_state(players=2, seed=number), oracle.new_initial_state()
        moves: list[str] = []
        while True:
            assert ours.is_terminal == theirs.is_terminal(), f"{classic.ruleset} game {number} after {moves}: terminal differs"
            if ours.is_terminal:
                break
            assert ours.current_player == theirs.current_player() + 1, f"game {number} after {moves}: who moves differs"
            mine, oracle_moves = _ours(ours, classic), _theirs(theirs, classic)
            assert set(mine) == set(oracle_moves), f"{classic.ruleset} game {number} after {moves}: legal actions differ"
            key = pick.choice(sorted(mine, key=str))
            moves.append(str(mine[key]))
            ours.apply(mine[key])
            theirs.apply_action(oracle_moves[key])
        assert [2 * r - 1 for r in ours.returns()] == theirs.returns(), f"{classic.ruleset} game {number}: returns differ"


# ---------------------------------------------------------------- games with chance and hidden information
#
# Rulecraft deals in ``setup`` from the game's seeded generator rather than at
# chance nodes, so the chance outcomes are found by scanning seeds: every deal
# the setup makes must be one of OpenSpiel's chance outcomes, all of them must
# occur, about equally often.  From each deal the game tree is walked in full.


def _held(state: Any, zone: str, role: str, attribute: str) -> int:
    """The ``attribute`` of the one component in ``role``'s ``zone``, on the face it shows."""
    g = state.game
    (cid,) = state.zones[g.zone_index[(zone, role)]]
    return g.attributes[attribute][state.face[cid]][cid]


@dataclass(frozen=True)
class HiddenClassic:
    ruleset: str
    openspiel: str
    deal: Callable[[Any], tuple[int, ...]]  # our dealt state -> OpenSpiel's chance actions, in order
    action: Callable[[str], str]  # our action text -> OpenSpiel's
    score: Callable[[Any], list[Fraction]]  # our finished game -> OpenSpiel's returns
    seeds: int  # how many seeds to scan for the deals
    memo: Callable[[Any], Any] | None = None  # our positions with equal keys have equal subtrees (see test)
    observation_depth: int = 99  # how deep to compare observations with information states


def _kuhn_action(text: str) -> str:
    return {"choose pass": "Pass", "choose bet": "Bet"}[text]


def _liars_key(state: Any) -> Any:
    """What a liar's-dice position's future depends on: the dice, the last bid, its bidder and who is to move."""
    return (_held(state, "cup", "First", "pips"), _held(state, "cup", "Second", "pips"), state.current_player,
            tuple(state.counters))


HIDDEN = [
    HiddenClassic(
        "kuhn-poker", "kuhn_poker",
        deal=lambda s: (_held(s, "hand", "First", "rank") - 1, _held(s, "hand", "Second", "rank") - 1),
        action=_kuhn_action,
        score=lambda s: [Fraction(v) for v in s.outcome.scores],  # the chips won or lost
        seeds=600,
    ),
    HiddenClassic(
        "liars-dice", "liars_dice",
        deal=lambda s: (_held(s, "cup", "First", "pips") - 1, _held(s, "cup", "Second", "pips") - 1),
        action=lambda text: text.removeprefix("choose "),
        score=lambda s: [Fraction(2 * r - 1) for r in s.returns()],  # win 1, lose -1
        seeds=1800,
        memo=_liars_key,
        observation_depth=3,
    ),
]


def _deals(classic: HiddenClassic) -> tuple[dict[tuple[int, ...], Any], dict[tuple[int, ...], int]]:
    """Our deals, by OpenSpiel's chance actions: a starting state for each, and how often the seeds made it."""
    game = shipped_game(classic.ruleset)
    starts: dict[tuple[int, ...], Any] = {}
    seen: dict[tuple[int, ...], int] = {}
    for seed in range(classic.seeds):
        state = game.new_state(players=2, seed=seed)
        deal = classic.deal(state)
        starts.setdefault(deal, state)
        seen[deal] = seen.get(deal, 0) + 1
    return starts, seen


def _their_deals(oracle: Any) -> dict[tuple[int, ...], Fraction]:
    """OpenSpiel's chance outcomes before the first decision, with their probabilities."""
    found: dict[tuple[int, ...], Fraction] = {}

    def walk(state: Any, actions: tuple[int, ...], p: Fraction) -> None:
        if not state.is_chance_node():
            found[actions] = p
            return
        for a, q in state.chance_outcomes():
            walk(state.child(a), actions + (a,), p * Fraction(q).limit_denominator(10**6))

    walk(oracle.new_initial_state(), (), Fraction(1))
    return found


def _their_start(oracle: Any, deal: tuple[int, ...]) -> Any:
    state = oracle.new_initial_state()
    for a in deal:
        state.apply_action(a)
    return state


def _by_text(state: Any) -> dict[str, int]:
    return {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}


@pytest.mark.parametrize("classic", HIDDEN, ids=lambda c: c.ruleset)
def test_deals_are_openspiels_chance_outcomes_equally_likely(classic: HiddenClassic) -> None:
    starts, seen = _deals(classic)
    theirs = _their_deals(pyspiel.load_game(classic.openspiel))
    assert set(starts) == set(theirs)
    assert len(set(theirs.values())) == 1  # OpenSpiel's deals are equally likely ...
    share = 1 / len(theirs)
    error = (share * (1 - share) / classic.seeds) ** 0.5
    for deal, times in seen.items():  # ... and so are ours, within 4 standard errors over the seeds
        assert abs(times / classic.seeds - share) < 4 * error, f"deal {deal}: {times} of {classic.seeds} seeds"


@pytest.mark.parametrize("classic", HIDDEN, ids=lambda c: c.ruleset)
def test_terminal_histories_and_expected_returns_equal_openspiels(classic: HiddenClassic) -> None:
    """Exact: the number of terminal histories, chance included, and the expected returns of uniform random play.

    With ``memo``, positions with equal keys share one walk of their subtree (in liar's dice what follows depends
    only on the dice, the last bid and who is to move; the random games below check the rest along the way).
    """
    starts, _ = _deals(classic)
    oracle = pyspiel.load_game(classic.openspiel)
    theirs = _their_deals(oracle)
    cache: dict[Any, tuple[int, list[Fraction]]] = {}

    def ours(state: Any) -> tuple[int, list[Fraction]]:
        if state.is_terminal:
            return 1, classic.score(state)
        key = classic.memo(state) if classic.memo else None
        if key is not None and key in cache:
            return cache[key]
        count, total = 0, [Fraction(0), Fraction(0)]
        actions = state.legal_actions()
        for action in actions:
            child = state.clone()
            child.apply(action)
            n, value = ours(child)
            count += n
            total = [t + v / len(actions) for t, v in zip(total, value)]
        if key is not None:
            cache[key] = (count, total)
        return count, total

    def their(state: Any) -> tuple[int, list[Fraction]]:
        if state.is_terminal():
            return 1, [Fraction(r) for r in state.returns()]
        count, total = 0, [Fraction(0), Fraction(0)]
        actions = state.legal_actions()
        for a in actions:
            n, value = their(state.child(a))
            count += n
            total = [t + v / len(actions) for t, v in zip(total, value)]
        return count, total

    our_count, our_value, their_count, their_value = 0, [Fraction(0)] * 2, 0, [Fraction(0)] * 2
    for deal, p in theirs.items():
        n, value = ours(starts[deal])
        our_count += n
        our_value = [t + v * p for t, v in zip(our_value, value)]
        n, value = their(_their_start(oracle, deal))
        their_count += n
        their_value = [t + v * p for t, v in zip(their_value, value)]
    assert our_count == their_count
    assert our_value == their_value


@pytest.mark.parametrize("classic", HIDDEN, ids=lambda c: c.ruleset)
def test_each_seat_sees_what_openspiels_information_state_holds(classic: HiddenClassic) -> None:
    """Two decision points look the same to a seat in Rulecraft exactly when they do in OpenSpiel."""
    starts, _ = _deals(classic)
    oracle = pyspiel.load_game(classic.openspiel)
    pairs: set[tuple[int, str, str]] = set()

    def walk(ours: Any, theirs: Any, depth: int) -> None:
        if ours.is_terminal or depth > classic.observation_depth:
            return
        for seat in (1, 2):
            seen = json.dumps(ours.observation(seat), sort_keys=True)
            pairs.add((seat, seen, theirs.information_state_string(seat - 1)))
        moves = _by_text(theirs)
        for action in ours.legal_actions():
            child = ours.clone()
            child.apply(action)
            walk(child, theirs.child(moves[classic.action(str(action))]), depth + 1)

    for deal, start in starts.items():
        walk(start, _their_start(oracle, deal), 0)
    for seat in (1, 2):
        ours = {(seen, info) for s, seen, info in pairs if s == seat}
        assert len({seen for seen, _ in ours}) == len({info for _, info in ours}) == len(ours), (
            f"seat {seat}: Rulecraft's observations and OpenSpiel's information states group the positions differently")


@pytest.mark.parametrize("classic", HIDDEN, ids=lambda c: c.ruleset)
def test_random_hidden_games_agree_with_openspiel_at_every_step(classic: HiddenClassic) -> None:
    game = shipped_game(classic.ruleset)
    oracle = pyspiel.load_game(classic.openspiel)
    pick = random.Random(18)
    for number in range(1000):
        ours = game.new_state(players=2, seed=number)
        theirs = _their_start(oracle, classic.deal(ours))
        while not ours.is_terminal:
            assert not theirs.is_terminal() and ours.current_player == theirs.current_player() + 1
            mine = {classic.action(str(a)): a for a in ours.legal_actions()}
            moves = _by_text(theirs)
            assert set(mine) == set(moves), f"{classic.ruleset} game {number}: legal actions differ"
            text = pick.choice(sorted(mine))
            ours.apply(mine[text])
            theirs.apply_action(moves[text])
        assert theirs.is_terminal() and classic.score(ours) == [Fraction(r) for r in theirs.returns()]
