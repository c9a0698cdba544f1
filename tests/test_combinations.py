"""``combinations(LIST, K)``: every way to take K items of a list or a zone.  A rule asking for the best of several
cards taken together (the best five of seven in poker, the best three dice of five) could not be said: no expression
listed the sets of K items, so a designer could only write each set out by hand, for one hand size."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, RulesetError

BEST_OF = """\
name: best-of
players: [2]
types: {suit: [hearts, spades]}
components:
  card:
    attributes: {rank: int, suit: suit}
    instances:
      - {id: h2, rank: 2, suit: hearts}
      - {id: h9, rank: 9, suit: hearts}
      - {id: h5, rank: 5, suit: hearts}
      - {id: s7, rank: 7, suit: spades}
      - {id: s3, rank: 3, suit: spades}
      - {id: s8, rank: 8, suit: spades}
zones:
  hand: {kind: hand, per: role, hidden: others}
  discard: {kind: pile}
functions:
  flush(list of card h): all(c.suit == nth(h, 1).suit for c in h)
  best(role r): max(sum(c.rank for c in h) for h in combinations(hand(r), 2) where flush(h))
setup: |
  move(c in cards where c.suit == hearts, hand(nth(roles, 1)))
  move(c in cards where c.suit == spades, hand(nth(roles, 2)))
  move(c in hand(nth(roles, 2)) where c.rank == 3, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let two = choose(h in combinations(hand(current_role), 2), text = "the two cards to throw away")
        for c in two:
          move(x in hand(current_role) where x == c, discard)
end:
  when: count(discard) >= 2
scoring:
  rank: r in roles
  by: [best(r)]
  points: key
"""


def _game(tmp_path: Path, text: str = BEST_OF) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def test_the_best_pair_of_one_suit_is_found_among_every_pair(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = game.new_state(players=2)
    assert game.compile_condition("best(nth(roles, 1)) == 14").test(s)  # 9 + 5 of hearts; the 3 of spades pairs none
    assert game.compile_condition("best(nth(roles, 2)) == 15").test(s)  # 7 + 8


def test_a_choice_among_combinations_offers_each_set_once_in_the_order_the_cards_lie(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2)
    offered = [str(a) for a in s.legal_actions()]
    assert len(offered) == 6 and len(set(offered)) == 6  # 4 cards taken 2 at a time
    assert all(a.startswith("choose [") for a in offered)
    assert offered[0] == "choose [h2, h9]"  # as they lie in the hand: h2, h9, h5, s3
    s.apply(offered[0])  # the best pair thrown away: h5 and s3 are left, of two suits
    assert s.is_terminal and s.outcome.winners == (2,)  # no pair of one suit (the max of none: 0) against 7 + 8


@pytest.mark.parametrize(("code", "value"), [
    ("count(combinations([1, 2, 3, 4], 2))", 6),
    ("count(combinations([1, 2], 3))", 0),
    ("count(combinations([1, 2], 0))", 1),
    ("count(combinations([1, 2], -1))", 0),
    ("sum(nth(h, 1) for h in combinations([4, 5, 6], 2))", 13),
])
def test_counts_and_order(tmp_path: Path, code: str, value: int) -> None:
    game = _game(tmp_path)
    assert game.compile_condition(f"{code} == {value}").test(game.new_state(players=2))


def test_too_many_lists_stop_the_effect_with_the_number(tmp_path: Path) -> None:
    game = _game(tmp_path)
    with pytest.raises(EffectRuntimeError, match="40 items taken 20 at a time would make 137,846,528,820 lists; at "
                                                 "most 10,000 are allowed"):
        game.compile_condition("count(combinations(numbers(1, 40), 20)) > 0").test(game.new_state(players=2))


def test_a_first_argument_that_is_no_list_is_refused_where_written(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="the first argument of combinations\\(\\) must be a list, but '3' is not one"):
        _game(tmp_path).compile_condition("count(combinations(3, 2)) > 0")


def test_cards_chosen_together_from_a_hidden_hand_are_not_named_to_the_other_seats(tmp_path: Path) -> None:
    """A choice among lists of components said their names in the log and in what the other seats read of the move
    (``seat1 chooses [h2, h9]``), though they came from a hand the others do not see and went to a face-down pile;
    each is now told as a single hidden card is, by its kind and zone."""
    game = _game(tmp_path, BEST_OF.replace("discard: {kind: pile}", "discard: {kind: pile, hidden: all}"))
    s = game.new_state(players=2, record=True)
    action = s.legal_actions()[0]
    assert str(action) == "choose [h2, h9]"  # the chooser reads the names
    assert s.public_text(action) == "choose [a card from hand of seat1, a card from hand of seat1]"
    s.apply(action)
    assert s.log[0] == "seat1 chooses [a card from hand of seat1, a card from hand of seat1]"
    assert not any("h2" in line or "h9" in line for line in s.log)


def test_cards_chosen_together_in_the_open_are_named(tmp_path: Path) -> None:
    game = _game(tmp_path, BEST_OF.replace("hand: {kind: hand, per: role, hidden: others}", "hand: {kind: hand, per: role}"))
    s = game.new_state(players=2, record=True)
    action = s.legal_actions()[0]
    assert s.public_text(action) == "choose [h2, h9]"
    s.apply(action)
    assert s.log[0] == "seat1 chooses [h2, h9]"


def test_a_pending_choice_of_cards_together_is_listed_saved_and_loaded(tmp_path: Path) -> None:
    """`rulecraft play` listing such a choice crashed (``list indices must be integers or slices, not list``): its
    menu read each option as one component."""
    import json

    from cli.menu import menu, played_components
    from cli.render import make_console, numbered_actions

    game = _game(tmp_path, BEST_OF.replace("discard: {kind: pile}", "discard: {kind: pile, hidden: all}"))
    s = game.new_state(players=2, record=True)
    console = make_console(width=80)
    with console.capture() as captured:
        console.print(numbered_actions(s, 80))
    assert "choose [h2, h9]" in captured.get()
    assert sorted(str(a) for a in menu(s)) == sorted(str(a) for a in s.legal_actions())
    first = s.legal_actions()[0]
    assert [game.component_names[c] for c in played_components(s, first)] == ["h2", "h9"]
    loaded = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert [str(a) for a in loaded.legal_actions()] == [str(a) for a in s.legal_actions()]
    assert loaded.public_text(str(first)) == "choose [a card from hand of seat1, a card from hand of seat1]"
    loaded.apply(str(first))
    assert loaded.is_terminal and loaded.outcome.winners == (2,)


def test_a_simulation_counts_the_cards_chosen_together_by_name(tmp_path: Path) -> None:
    """The report's count of answers read each option of a choice among components as one component: a list of them
    stopped the run with a TypeError."""
    from engine.runner.simulate import simulate

    report = simulate(_game(tmp_path), players=2, n=4, seed=0, agents="random")
    assert report.games == 4
    taken = {use.answer for use in report.answer_uses}
    assert taken and all(answer.startswith("[") for answer in taken)
