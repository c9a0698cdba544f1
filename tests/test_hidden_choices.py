"""A choice of a component some seat cannot see is told to the other seats by its kind and place, never its name.

"discard a card face down" was said as ``let c = choose(x in hand(current_role))`` then a move to a hidden pile: the
move's log line hid the card, but the choice's own log line (``A chooses coin``) and the action text shown to the other
seats (``choose coin``, at the terminal and on the web page) named it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from cli.web.tables import Table

FACE_DOWN = """\
name: face-down
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
      - {id: coin, value: 1}
      - {id: crown, value: 2}
      - {id: sword, value: 3}
      - {id: shield, value: 4}
      - {id: open, value: 5}
zones:
  hand: {kind: hand, per: role, hidden: others}
  secret: {kind: pile, hidden: all}
  table: {kind: pile}
setup: |
  move(c in cards where c.value <= 2, hand(A))
  move(c in cards where c.value > 2 and c.value < 5, hand(B))
  move(c in cards where c.value == 5, table)
turn:
  - do:
      effect: |
        let c = choose(x in cards where x in hand(current_role) or x in table, text = "put a card face down")
        move(x in cards where x == c, secret)
end:
  when: count(c in secret) >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


@pytest.fixture
def game(tmp_path: Path) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(FACE_DOWN)
    return engine.load(tmp_path)


def test_the_log_and_the_other_seats_see_a_hidden_choice_as_its_kind_and_place(game: engine.Game) -> None:
    s = game.new_state(players=2, seed=1, record=True)
    choice = s.parse_action("choose crown")
    assert s.public_text(choice) == "choose a card from hand of A"
    assert s.public_text(s.parse_action("choose open")) == "choose open"  # an open pile: everyone sees it
    s.apply(choice)
    assert "crown" not in " ".join(s.log) and "A chooses a card from hand of A" in s.log


def test_the_web_page_shows_other_seats_a_hidden_choice_as_its_kind_and_place(game: engine.Game) -> None:
    table = Table.new("t1", "face-down", game, 2, 1, {})
    table.act("choose crown", by=1)
    move = table.moves[-1]
    assert move.to_json(1)["text"] == "choose crown"  # the chooser sees what they chose
    for seat in (2, 0):
        seen = move.to_json(seat)
        assert seen["text"] == "choose a card from hand of A" and "crown" not in " ".join(seen["lines"])


@pytest.mark.parametrize("spec", ["mcts:60", "ismcts:60"])
def test_no_seat_sees_inside_the_search_a_card_another_chose_from_a_hidden_hand(game: engine.Game, spec: str) -> None:
    """A card chosen from a hand hidden from the others was an edge of its own in every seat's tree, so the other
    seat's replies could depend on which card went face down; that seat now sees one edge for the hidden cards (as
    State.public_text says), and the card of the open pile as it is."""
    from engine.runner.agents import make_agent

    state = game.new_state(players=2, seed=1)
    assert sorted(state.legal_actions().texts()) == ["choose coin", "choose crown", "choose open"]
    trees, done = make_agent(spec, seed=1).grow(state, lambda i: i < 60)
    me, other = state.seat_to_move, 3 - state.seat_to_move
    assert done == 60 and len(trees[me].children) == 3
    assert sorted(edge[1] for edge in trees[other].children) == [("choose a card from hand of A",), ("open",)]



SEARCH = """\
name: deck-search
players: [2]
components:
  card:
    instances: [{id: a1}, {id: b2}, {id: c3}, {id: d4}, {id: e5}]
zones:
  deck: {kind: pile, per: role, hidden: HIDDEN}
  gone: {kind: pile}
  hand: {kind: hand, per: role}
setup: |
  move(c in cards, deck(nth(roles, 1)))
  shuffle(deck(nth(roles, 1)))
turn:
  - do:
      effect: |
        let c = choose(x in deck(current_role), text = "search your deck")
        move(x in deck(current_role) where x == c, gone)
        move(x in deck(current_role), hand(current_role), 1)
end:
  when: count(gone) >= 1
scoring:
  rank: r in roles
  by: [count(x in hand(r))]
  points: key
"""


@pytest.mark.parametrize("hidden", ["order", "all"])
def test_a_search_through_a_deck_does_not_list_it_in_the_order_it_lies(tmp_path: Path, hidden: str) -> None:
    """Its owner sees which cards a 'hidden: order' deck holds, not their order; searching it listed the options in
    the deck's order ('choose c3', 'choose e5', 'choose a1', ...), so the chooser knew the next draw."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(SEARCH.replace("HIDDEN", hidden), encoding="utf-8")
    game = engine.load(str(path))
    deck = game.zone_index[("deck", "seat1")]
    orders = set()
    for seed in range(4):
        state = game.new_state(players=2, seed=seed)
        orders.add(tuple(game.piece_names[c] for c in state.zones[deck]))
        assert [str(a) for a in state.legal_actions()] == [f"choose {x}" for x in ("a1", "b2", "c3", "d4", "e5")]
    assert len(orders) > 1  # the decks were shuffled differently


def test_a_search_through_a_deck_its_owner_sees_in_order_lists_it_in_order(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(SEARCH.replace("HIDDEN", "others"), encoding="utf-8")
    game = engine.load(str(path))
    state = game.new_state(players=2, seed=1)
    deck = state.zones[game.zone_index[("deck", "seat1")]]
    assert [str(a) for a in state.legal_actions()] == [f"choose {game.piece_names[c]}" for c in deck]


@pytest.mark.parametrize("ruleset", ["tutorial-tiles", "sealed-tiles", "nine-domains"])
def test_a_step_lists_a_hand_its_owner_sees_without_order_in_no_order_of_its_own(tmp_path: Path, ruleset: str) -> None:
    """A hand ``hidden: order`` (its owner knows which tiles, not their order): the place and commit steps offered
    its tiles in the order they lay, so the order of the actions told the owner what it may not see."""
    import re
    import shutil

    folder = tmp_path / ruleset
    shutil.copytree(Path(__file__).resolve().parents[1] / "rulesets" / ruleset, folder)
    path = folder / "ruleset.yaml"
    text, found = re.subn(r"(\n  hand: {kind: \w+, per: role, hidden: )others", r"\1HIDDEN", path.read_text(encoding="utf-8"))
    assert found == 1
    for hidden in ("order", "others"):
        path.write_text(text.replace("HIDDEN", hidden), encoding="utf-8")
        game = engine.load(str(folder))
        state = game.new_state(players=2, seed=1)
        zone = game.zone_index[("hand", state.current_role)]
        before = [str(a) for a in state.legal_actions()]
        state.zones[zone].reverse()  # the same hand, in another order
        state._actions = None
        after = [str(a) for a in state.legal_actions()]
        assert sorted(before) == sorted(after)
        assert (before == after) == (hidden == "order"), (hidden, before, after)


def test_a_refused_commit_lists_a_hand_its_owner_sees_without_order_in_no_order_of_its_own(tmp_path: Path) -> None:
    """'commit one of 0, 1, 2, ...' listed the hand as it lay: the refusal told its order too."""
    import shutil

    from engine.core.errors import IllegalActionError

    folder = tmp_path / "nine-domains"
    shutil.copytree(Path(__file__).resolve().parents[1] / "rulesets" / "nine-domains", folder)
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  hand: {kind: hand, per: role, hidden: others",
                                                            "  hand: {kind: hand, per: role, hidden: order"), encoding="utf-8")
    state = engine.load(str(folder)).new_state(players=2, seed=1)
    said = []
    for _ in range(2):
        with pytest.raises(IllegalActionError) as err:
            state.apply("commit 9 to left")
        said.append(str(err.value))
        state.zones[state.game.zone_index[("hand", state.current_role)]].reverse()
        state._actions = None
    assert said[0] == said[1] and "commit one of " in said[0], said
