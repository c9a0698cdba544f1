"""An outcome's text is written out when first read (engine.blocks.outcome.RankLines): a game with no log builds
none, and every read of it — the log, equality, saves, copies — sees the text the ranking gives."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

import engine
from engine.blocks.outcome import Outcome, RankLines
from engine.model.state import State
from tests.conftest import shipped_game


def _played(game: engine.Game, players: int, seed: int, record: bool) -> State:
    s = game.new_state(players=players, seed=seed, record=record)
    choose = random.Random(seed)
    while s.outcome is None:
        s.play(choose.randrange(len(s.legal_actions())))
    return s


@pytest.mark.parametrize("name", ["iconoclasm-cards", "nine-domains", "tic-tac-toe", "iconoclasm"])
def test_the_text_read_late_is_the_text_the_log_shows(name: str) -> None:
    game = shipped_game(name)
    for players in game.player_counts:
        for seed in range(3):
            quiet, logged = _played(game, players, seed, False), _played(game, players, seed, True)
            assert logged.log is not None and logged.log[-1].endswith(f"game over: {logged.outcome.text}")  # type: ignore[union-attr]
            outcome = quiet.outcome
            assert outcome is not None
            ranked = isinstance(outcome.__dict__["_text"], RankLines)
            assert ranked or isinstance(outcome.__dict__["_text"], str)
            again = copy.deepcopy(outcome), pickle.loads(pickle.dumps(outcome))  # copies made before the text is read
            assert outcome == logged.outcome and outcome.text == logged.outcome.text  # type: ignore[union-attr]
            assert all(a == outcome and a.text == outcome.text for a in again)
            assert Outcome.from_json(outcome.to_json()) == outcome
            assert dataclasses.replace(outcome, ended="stalled").text == outcome.text
            assert isinstance(outcome.__dict__["_text"], str)  # written out once read


def test_a_ranking_outcome_writes_no_text_until_read() -> None:
    game = engine.load("iconoclasm-cards")
    outcome = _played(game, 4, 1, False).outcome
    assert outcome is not None and isinstance(outcome.__dict__["_text"], RankLines)
    assert outcome.text.startswith("1. ") and outcome.text.count("\n") == 3


def test_text_given_as_text_and_the_default() -> None:
    assert Outcome((1,), (1,), (1.0,)).text == ""
    assert Outcome.from_scores((2, 1), text="plain").text == "plain"
    with pytest.raises(dataclasses.FrozenInstanceError):
        Outcome.from_scores((2, 1)).text = "changed"  # type: ignore[misc]


def test_an_outcome_ended_otherwise_keeps_its_text_unwritten() -> None:
    """A game that ends as a step finds nothing to place (or by a stall, a turn limit) copies its outcome with
    ``Outcome.ending``, which leaves the ranking's text unwritten; the copy is what ``dataclasses.replace`` makes."""
    game = engine.load("iconoclasm")
    ranked = (s.outcome for s in (_played(game, 4, seed, False) for seed in range(40)) if s.outcome and s.outcome.ranking)
    outcome = next(ranked)  # a game the place step ended (no follower could be placed), scored by its ranking
    assert outcome.ended == "end condition"
    assert isinstance(outcome.__dict__["_text"], RankLines)  # its text still unwritten
    assert outcome.ending("end condition") is outcome
    stalled = outcome.ending("stalled")
    assert isinstance(stalled.__dict__["_text"], RankLines) and stalled.ended == "stalled"
    assert stalled == dataclasses.replace(outcome, ended="stalled") and stalled.text == outcome.text


def test_a_ranked_outcome_pays_the_seats_from_scores_would() -> None:
    """A ranking's outcome (written without comprehensions, every game ends there) has the winners and returns of
    ``from_scores`` for the same scores, and pays only the winners it is given, shared evenly (none given: a draw)."""
    import itertools

    for players in range(1, 5):
        for scores in itertools.product((0, 1, 3), repeat=players):
            plain = Outcome.from_scores(scores)
            ranked = Outcome.ranked(scores, (), {}, RankLines([]))
            assert (ranked.scores, ranked.winners, ranked.returns) == (plain.scores, plain.winners, plain.returns)
            for k in range(players + 1):
                for given in itertools.combinations(range(1, players + 1), k):
                    paid = Outcome.ranked(scores, (), {}, RankLines([]), winners=given).returns
                    chosen = given or tuple(range(1, players + 1))
                    assert paid == tuple(1 / len(chosen) if seat in chosen else 0.0 for seat in range(1, players + 1))


def test_the_ranking_lists_no_role_left_unplayed_after_every_seat() -> None:
    """More roles than players: the roles nobody plays, ranked after the seats', get no line; one that took a place
    before a seat's keeps it (its points went to nobody), and the scores are the ranking's either way."""
    game = engine.load("spell-cycles")  # five mages, two of them played
    s = _played(game, 2, 1, True)
    assert s.outcome is not None and [line.split()[1] for line in s.outcome.text.splitlines()] == list(s.outcome.ranking[:2])
    assert not any(seat == 0 for seat in (s.seat_of[r] for r in s.outcome.ranking[:2])) and "nobody" not in s.outcome.text
    cards = engine.load("iconoclasm-cards")  # three players: the undrawn element is ranked and paid, to nobody
    for seed in range(20):
        s = _played(cards, 3, seed, False)
        assert s.outcome is not None
        absent = next(r for r, seat in s.seat_of.items() if seat == 0)
        last = s.outcome.ranking[-1]
        assert (absent in s.outcome.text) == (last != absent)


def test_a_ranking_of_points_by_key_lists_only_the_roles_seats_play() -> None:
    """Iconica's two-player game-over lines ranked the two roles nobody plays between the seats' (``2. Amber [0]: 0
    points to nobody``, then ``3. Azure [0]: 0 points to seat 2``): with ``points: key`` each role scores its own key,
    so an unplayed role's place pays and changes nothing.  Only the seated roles are listed, numbered among
    themselves; the ranking and the scores stay the whole ranking's."""
    game = engine.load("iconica")
    for seed in range(4):
        s = _played(game, 2, seed, False)
        assert s.outcome is not None
        seated = [role for role in s.outcome.ranking if s.seat_of[role]]
        assert len(s.outcome.ranking) == 4 and len(seated) == 2
        assert [line.split()[:2] for line in s.outcome.text.splitlines()] == [["1.", seated[0]], ["2.", seated[1]]]
        assert "nobody" not in s.outcome.text
