"""Searches on samples of what a seat cannot see: components that stay with their owner (``owner_known``) when every
hidden one of a kind does, and an error met only on a sample said to be one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError
from engine.core.information import determinize
from engine.runner.agents import make_agent

# Each player holds two tokens of their own in a hidden hand, a third of each lies in a hidden bag; a player plays a
# token a turn or passes, and playing another's divides by zero.
TOKENS = """\
name: own-tokens
players: [2]
components:
  token:
    attributes: {of: int}
    instances:
      - {id: a, of: 1, count: 3}
      - {id: b, of: 2, count: 3}
zones:
  hand: {kind: hand, per: role, hidden: others}
  played: {kind: pile}
  bag: {kind: pile, hidden: all}
counters:
  banked: {per: role}
setup: |
  for r in roles:
    move(t in supply where t.of == seat(r), hand(r), 2)
  move(t in supply, bag)
turn:
  - do:
      effect: |
        let t = choose(x in hand(current_role), optional = true)
        if t != none:
          banked(current_role) += 1 / (if t.of == seat(current_role) then 1 else 0)
          move(x in hand(current_role) where x == t, played, 1)
end:
  when: turn >= 4
scoring:
  rank: r in roles
  by: [banked(r)]
  points: key
"""


def tokens(tmp_path: Path, owner_known: bool) -> engine.Game:
    text = TOKENS
    if owner_known:  # the bag open: every token a seat cannot see is in the other's hand, and known to stay there
        text = text.replace("hidden: others}", 'hidden: others, owner_known: "true"}').replace("bag: {kind: pile, hidden: all}", "bag: {kind: pile}")
    (tmp_path / "ruleset.yaml").write_text(text)
    return engine.load(str(tmp_path / "ruleset.yaml"))


def test_a_kind_whose_every_hidden_component_stays_with_its_owner_is_sampled(tmp_path: Path) -> None:
    """Every unseen token is its owner's: a sample deals each player their own again (it stopped with a KeyError)."""
    state = tokens(tmp_path, owner_known=True).new_state(players=2, seed=1)
    for i in range(5):
        sample = determinize(state, 1, random.Random(i))
        assert sorted(sample.game.piece_names[c] for c in sample.zones[sample.game.zone_index[("hand", "seat2")]]) == ["b", "b"]
    assert make_agent("ismcts:20", seed=1).choose(state) is not None


def test_an_error_met_only_on_a_sample_says_it_was_met_there(tmp_path: Path) -> None:
    """Without owner_known a sample may deal a player the other's tokens; the error says it came from a sample."""
    state = tokens(tmp_path, owner_known=False).new_state(players=2, seed=1)
    with pytest.raises(EffectRuntimeError) as err:
        for seed in range(20):
            make_agent("ismcts:30", seed=seed).choose(state)
    assert "division by zero" in err.value.message
    assert "while a search bot played seat 1's move on a sample of the game" in err.value.message
    assert "'owner_known'" in err.value.message
