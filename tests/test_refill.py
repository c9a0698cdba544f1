"""``refill: ZONE`` on a pile: a draw that runs short shuffles ZONE under what is left, then goes on drawing.

A deck-builder said its reshuffle by hand wherever it drew (the turn's clean-up, every card that draws), a loop of
one-card draws each checking for an empty deck; ``docs/examples/market-row`` wrote it twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError

DECKS = """\
name: decks
players: [2]
components:
  card:
    attributes: {coins: int}
    instances: [{id: Copper, coins: 1, count: 10}, {id: Gold, coins: 3, count: 4}]
zones:
  deck: {kind: pile, per: role, hidden: all, refill: discard}
  hand: {kind: hand, per: role, hidden: others}
  discard: {kind: pile, per: role}
setup: |
  for r in roles where seated(r):
    move(c in supply where c.id == "Copper", deck(r), 3)
    move(c in supply where c.id == "Gold", discard(r), 2)
turn:
  - do:
      effect: |
        let n = choose(k in numbers(1, 5), text = "draw how many")
        move(x in deck(current_role), hand(current_role), n)
end:
  when: turn >= 4
scoring: {rank: r in roles, by: [count(hand(r))], points: key}
"""


def _game(tmp_path: Path, text: str = DECKS) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(text)
    return engine.load(tmp_path)


def test_a_draw_past_the_end_of_the_deck_shuffles_the_discard_pile_under_it(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = game.new_state(players=2, seed=1, record=True)
    deck, discard, hand = (game.zone_names.index(f"{z} of seat1") for z in ("deck", "discard", "hand"))
    s.apply("choose 2")  # the deck holds 3: no refill
    assert len(s.zones[hand]) == 2 and len(s.zones[discard]) == 2 and "is shuffled into" not in " ".join(s.log)
    s.apply("choose 1")  # seat 2 draws one
    s.apply("choose 4")  # 1 Copper left, then the two Golds shuffled under it: three drawn, the deck empty
    names = [game.piece_names[c] for c in s.zones[hand]]
    assert sorted(names) == ["Copper", "Copper", "Copper", "Gold", "Gold"] and not s.zones[deck] and not s.zones[discard]
    assert "discard of seat1 is shuffled into deck of seat1" in s.log, s.log


def test_a_pile_drawn_by_the_draw_step_or_refilled_from_nowhere_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:
        _game(tmp_path, DECKS.replace("refill: discard", "refill: discrad"))
    assert "zone 'deck' is refilled from 'discrad', which is no zone declared under 'zones' (did you mean " \
           "'discard'?)" in err.value.format()
    with pytest.raises(RulesetError) as err:
        _game(tmp_path, DECKS.replace("turn:\n", "turn:\n  - draw: {from: deck, to: hand}\n"))
    assert "the draw step does not refill 'deck' from 'discard' (draw with move() in a do step, which refills it: " \
           "move(x in deck(current_role), TO, N))" in err.value.format()


def test_explain_says_which_pile_refills(tmp_path: Path) -> None:
    from cli.explain import explain

    assert "  deck: a pile, one per role, hidden from everyone, refilled from the discard (shuffled) when a draw runs " \
           "short" in explain(_game(tmp_path))
