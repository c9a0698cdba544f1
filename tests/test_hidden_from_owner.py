"""``hidden: owner``: a hand held facing away, as in Hanabi — every seat sees it but its owner's.

A cooperative game whose players see each other's cards and not their own could not be written: ``hidden`` said
``none``, ``others``, ``order`` or ``all``, and none of them hides a zone from its owner alone.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, RulesetError
from engine.core.information import determinize

FACING_AWAY = """\
name: facing-away
players: [2, 3]
components:
  card:
    attributes: {rank: int}
    instances: [{id: c1, rank: 1}, {id: c2, rank: 2}, {id: c3, rank: 3}, {id: c4, rank: 4}, {id: c5, rank: 5},
                {id: c6, rank: 6}, {id: c7, rank: 7}, {id: c8, rank: 8}, {id: c9, rank: 9}]
zones:
  deck: {kind: pile, hidden: all}
  hand: {kind: pile, per: role, hidden: owner}
  played: {kind: pile}
setup: |
  move(c in cards, deck)
  for r in roles where seated(r):
    move(c in deck, hand(r), 2)
turn:
  - do:
      effect: |
        let me = current_role
        let act = choose(a in ["play", "point"], text = "your action")
        if act == "play":
          let i = choose(n in numbers(1, count(hand(me))), text = "which card of your hand")
          move(x in hand(me) where x == nth(hand(me), i), played)
        else:
          let o = first(r in roles where seated(r) and r != me)
          let c = choose(x in hand(o), text = "point at one of their cards")
          move(x in hand(o) where x == c, played)
        move(x in deck, hand(me), 1)
end:
  when: count(played) >= 4
scoring:
  rank: r in roles
  by: [count(x in played)]
  points: key
"""


@pytest.fixture
def game(tmp_path: Path) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(FACING_AWAY)
    return engine.load(tmp_path)


def test_every_seat_sees_a_hand_held_facing_away_but_its_owner(game: engine.Game) -> None:
    s = game.new_state(players=3, seed=1)
    mine, theirs = s.observation(1)["zones"], s.observation(2)["zones"]
    assert mine["hand of seat1"] == {"hidden": 2} and len(mine["hand of seat2"]) == 2
    assert theirs["hand of seat2"] == {"hidden": 2} and theirs["hand of seat1"] == [
        game.piece_names[c] for c in s.zones[game.zone_names.index("hand of seat1")]]


def test_a_search_redeals_only_the_cards_its_seat_cannot_see(game: engine.Game) -> None:
    s = game.new_state(players=2, seed=1)
    hand1, hand2 = game.zone_names.index("hand of seat1"), game.zone_names.index("hand of seat2")
    redealt = set()
    for i in range(30):
        sample = determinize(s, 1, random.Random(i))
        assert sample.zones[hand2] == s.zones[hand2]  # seat 1 sees seat 2's hand
        assert sample.observation(1) == s.observation(1)
        redealt.add(tuple(sample.zones[hand1]))
    assert len(redealt) > 1  # its own hand is drawn again from what it cannot see


def test_a_card_pointed_at_in_anothers_hand_is_not_named_to_its_owner(game: engine.Game) -> None:
    s = game.new_state(players=2, seed=1, record=True)
    s.apply("choose point")
    first = game.piece_names[s.zones[game.zone_names.index("hand of seat2")][0]]
    choice = s.parse_action(f"choose {first}")  # the chooser sees the card by name
    assert s.public_text(choice) == "choose a card from hand of seat2"
    s.apply(choice)
    assert f"chooses {first}" not in " ".join(s.log) and "seat1 chooses a card from hand of seat2" in s.log


def test_a_choice_naming_its_owner_the_cards_it_cannot_see_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(FACING_AWAY.replace(
        "let i = choose(n in numbers(1, count(hand(me))), text = \"which card of your hand\")\n"
        "          move(x in hand(me) where x == nth(hand(me), i), played)",
        "let c = choose(x in hand(me), text = \"which card of your hand\")\n"
        "          move(x in hand(me) where x == c, played)"))
    s = engine.load(tmp_path).new_state(players=2, seed=1)
    with pytest.raises(EffectRuntimeError) as err:
        s.apply("choose play")
    assert "choose() would name to seat1 the components of hand of seat1, which is held facing away from its owner " \
           "(hidden: owner): choose a place in it instead" in str(err.value)
    assert s.observation(1)["legal_actions"] == ["choose play", "choose point"]  # the state is unchanged


def test_a_zone_of_nobody_cannot_be_hidden_from_its_owner(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(FACING_AWAY.replace("deck: {kind: pile, hidden: all}",
                                                               "deck: {kind: pile, hidden: owner}"))
    with pytest.raises(RulesetError) as err:
        engine.load(tmp_path)
    assert "ruleset.yaml:9:30: 'hidden: owner' hides a zone from the role it belongs to, and zone 'deck' belongs " \
           "to nobody" in err.value.format()


@pytest.mark.parametrize("step", ["commit: {from: hand, to: sealed}", "place: {from: hand, touching: false}",
                                  "draft: {from: hand, to: played}"], ids=["commit", "place", "draft"])
def test_a_step_offering_a_hand_held_facing_away_by_name_is_refused_where_written(tmp_path: Path, step: str) -> None:
    """A commit step from a hand held facing away listed its owner's cards by name, 'commit c7 to pick', under
    'hand of seat1 (yours): 2 hidden': a choose() among them is an error, the steps said nothing."""
    text = FACING_AWAY.replace("  played: {kind: pile}\n", "  played: {kind: pile}\n  sealed: {kind: pile, per: role}\n")
    text = text.replace("components:\n", "slots: {names: [pick], zones: [sealed]}\nboard: {kind: square-grid, width: 3, "
                                         "height: 3}\ncomponents:\n")
    text = text.replace("turn:\n  - do:\n", f"turn:\n  - {step}\n  - do:\n")
    (tmp_path / "ruleset.yaml").write_text(text)
    with pytest.raises(RulesetError) as err:
        engine.load(tmp_path)
    assert re.search(r"ruleset\.yaml:\d+:\d+: this step offers the components of 'hand' by name, and 'hand' is held "
                     r"facing away from its owner \(hidden: owner\)", err.value.format()), err.value.format()
