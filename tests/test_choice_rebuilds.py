"""A clone of a state paused inside an effect rebuilds the effect's coroutine by replaying its answers.

A search clones or samples such a state at every iteration: the replay must not list the options of every answer
again (an effect asking many times cost the square of its answers over a turn), and the rebuilt effect must go on
exactly as the original would, its step budget included.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.blocks import choices, choose_function
from engine.core import limits
from engine.core.errors import EffectRuntimeError

RULESET = """\
name: picks
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
CARDS
zones:
  hand: {kind: hand, per: role, hidden: others}
counters:
  picks: {per: role}
setup: |
  for r in roles:
    move(c in cards where c.value % 2 == (if r == A then 0 else 1), hand(r))
turn:
  - do:
      effect: |
        while choose(x in hand(nth(roles, 1)), optional = true, text = "pick") != none:
          picks(current_role) += 1
end:
  when: turn >= 4
scoring:
  rank: r in roles
  by: [picks(r)]
  points: key
"""


def load(tmp_path: Path) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    cards = "\n".join(f"      - {{id: c{i}, value: {i}}}" for i in range(1, 25))
    path.write_text(RULESET.replace("CARDS", cards))
    return engine.load(path)


@pytest.mark.skipif(choices.greenlet is None, reason="rebuilding a coroutine needs greenlet")
def test_a_rebuild_takes_the_answers_back_without_listing_their_options(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """After 40 answers, answering a clone listed the options of all 40 again (a search did it every iteration)."""
    s = load(tmp_path).new_state(players=2, seed=1)
    for _ in range(40):
        s.play(0)
    listed = [0]
    distinct = choose_function.distinct_options

    def counted(*args: object) -> object:
        listed[0] += 1
        return distinct(*args)

    monkeypatch.setattr(choose_function, "distinct_options", counted)
    t = s.clone()
    t.play(0)
    assert listed[0] <= 2  # the question asked again, and the next one
    monkeypatch.setattr(choose_function, "distinct_options", distinct)
    s.play(0)
    assert t == s and t.legal_actions().texts() == s.legal_actions().texts() and t.log == s.log


@pytest.mark.parametrize("steps", [150, 397, 1000])
def test_a_rebuilt_clone_plays_on_as_the_original_to_its_step_budget(tmp_path: Path, steps: int) -> None:
    """One step budget covers all the answers of an effect: a clone answered at any pause runs out of it at the same
    answer as the original (the replay that takes answers back unlisted spends fewer steps than the run did)."""
    with limits.using(limits.Limits(steps=steps)):
        game = load(tmp_path)
        s = game.new_state(players=2, seed=1)
        answered, clones = 0, []
        with pytest.raises(EffectRuntimeError, match="step budget"):
            while True:
                clones.append((answered, s.clone()))
                s.play(0)
                answered += 1
        assert answered > 3
        for start, clone in clones[1:]:
            for played in range(start, answered + 1):
                if played == answered:
                    with pytest.raises(EffectRuntimeError, match="step budget"):
                        clone.play(0)
                else:
                    clone.play(0)



LOOKS = """\
name: looks
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
CARDS
zones:
  deck: {kind: pile, hidden: all}
  hand: {kind: hand, per: role}
  discard: {kind: pile}
counters:
  gold: {per: role}
setup: |
  move(c in cards, deck)
  shuffle(deck)
turn:
  - do:
      effect: |
        while count(deck) > 0 and choose(x in ["look", "stop"], text = "look or stop") == "look":
          let c = first(deck)
          if choose(x in ["keep", "drop"], text = "keep it?") == "keep":
            move(x in deck where x == c, hand(current_role))
            gold(current_role) += c.value
          else:
            move(x in deck where x == c, discard)
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


@pytest.mark.skipif(choices.greenlet is None, reason="rebuilding a coroutine needs greenlet")
def test_a_copy_of_a_sample_answered_since_it_was_drawn_goes_on_as_the_sample(tmp_path: Path) -> None:
    """A search's sample is drawn at a pause (its deck in another order), answered, and copied for the next step down
    the tree: the copy replayed every answer from the real position, so the card it then looked at was the real deck's
    top, not the sample's (17 copies of 20 kept another card than the sample; market-row's MCTS stopped on 'the effect
    no longer stops at the choice it was waiting for')."""
    from engine.core.information import determinize

    path = tmp_path / "ruleset.yaml"
    path.write_text(LOOKS.replace("CARDS", "\n".join(f"      - {{id: c{i}, value: {i}}}" for i in range(1, 9))))
    game = engine.load(path)
    for seed in range(20):
        real = game.new_state(players=2, seed=seed)
        real.apply("choose look")
        sample = determinize(real, 1, random.Random(seed))
        sample.apply("choose keep")
        sample.apply("choose look")
        copy = sample.clone()
        copy.apply("choose keep")
        sample.apply("choose keep")
        assert copy == sample and copy.legal_actions().texts() == sample.legal_actions().texts()
