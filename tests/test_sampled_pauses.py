"""A search's sample of a state whose effect waits for a choice goes on from the pause as the real game would.

A sample (:func:`engine.core.information.determinize`) gets a generator of its own.  An effect that shuffled and
drew before its question is answered on a sample by replaying it from the position before it with the answers
given so far; that replay must shuffle as the real game did, or the cards it draws differ and an answer given
(a card drawn) is no longer an option ("a recorded choice ... is no longer an option here").  The sample's own
redeal is put back after the replay, and its generator draws what comes after the answer.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.core.information import determinize

DRAW_THEN_PICK = """\
name: draw-then-pick
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
      - {id: c1, value: 1}
      - {id: c2, value: 2}
      - {id: c3, value: 3}
      - {id: c4, value: 4}
      - {id: c5, value: 5}
      - {id: c6, value: 6}
      - {id: c7, value: 7}
      - {id: c8, value: 8}
zones:
  deck: {kind: pile, per: role, hidden: order}
  hand: {kind: hand, per: role, hidden: others}
  kept: {kind: pile, per: role}
setup: |
  move(c in cards where c.value <= 4, deck(A))
  move(c in cards where c.value > 4, deck(B))
turn:
  - do:
      effect: |
        let me = current_role
        shuffle(deck(me))
        move(x in deck(me), hand(me), 2)
        let first = choose(x in hand(me), text = "keep a card")
        move(x in hand(me) where x == first, kept(me))
        let second = choose(x in cards where x in deck(me) or x in hand(me), text = "keep another")
        move(x in cards where x == second, kept(me))
        move(x in hand(me), deck(me))
end:
  when: count(kept(A)) >= 4
scoring:
  rank: r in roles
  by: [count(kept(r))]
  points: key
"""


@pytest.fixture
def game(tmp_path: Path) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(DRAW_THEN_PICK)
    return engine.load(tmp_path)


def test_a_sample_answers_an_effect_that_shuffled_and_drew_before_it_asked(game: engine.Game) -> None:
    for seed in range(6):
        s = game.new_state(players=2, seed=seed)
        s.play(0)  # the first card drawn is kept: the effect now waits for the second
        assert s.pending is not None and len(s.pending.tape) == 1
        for k in range(8):
            sample = determinize(s, s.current_player, random.Random(k))
            assert sample.observation(1) == s.observation(1)
            for i in range(len(sample.legal_actions())):
                after = sample.clone()
                after.play(i)  # before the fix: 'a recorded choice (...) is no longer an option here'
                assert after.current_player == 2  # the effect finished: the other seat decides


def test_a_sample_draws_what_comes_after_the_answer_with_its_own_generator(game: engine.Game) -> None:
    s = game.new_state(players=2, seed=3)
    s.play(0)
    s.play(0)  # A's turn ends; B's effect shuffles B's deck with the game's generator
    s.play(0)  # B keeps a drawn card: B's effect waits
    futures = set()
    for k in range(12):
        sample = determinize(s, 2, random.Random(k))
        sample.play(0)
        sample.play(0)  # A's next turn: A's deck shuffled by the sample's generator
        futures.add(tuple(sample.observation(2)["zones"].items()).__repr__())
    assert len(futures) > 1  # not the real game's future every time
