"""``show(..., to = r)``: a component shown to one role only (Love Letter's Priest, a peek at a face-down piece).

Before it, a card was hidden from a seat or revealed to all.  Now the seat shown a card sees it where it lies
(its observation, the RL vector, ``rulecraft play``'s zones, the web table), search bots planning for it keep it
there instead of dealing it again, while every other seat reads only ``A is shown a card from hand of B``; the card
is forgotten once it moves to another zone or its zone is shuffled, and saves keep what was shown.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.core.information import determinize
from engine.core.shown import show, shown_to
from engine.model.savefile import SaveError
from engine.runner.agents import make_agent
from tests.oracle import EXAMPLES, needs_oracle
from tests.conftest import shipped_game

RULESET = """\
name: peek
players: [3]
components:
  card:
    attributes: {rank: int}
    instances:
      - {id: one, rank: 1}
      - {id: two, rank: 2}
      - {id: three, rank: 3}
      - {id: four, rank: 4}
      - {id: five, rank: 5}
      - {id: six, rank: 6}
zones:
  deck: {kind: pile, hidden: all}
  hand: {kind: hand, per: role, hidden: others}
counters:
  named: {per: role}
setup: |
  shuffle(supply)
  for r in roles:
    move(x in supply, hand(r), 1)
  move(x in supply, deck)
turn:
  - do:
      effect: |
        let r = nth(roles, turn_position(current_role) % 3 + 1)
        SHOW
        let g = choose(n in numbers(1, 6), text = "name the card")
        if any(c.rank == g for c in hand(r)):
          named(current_role) += 1
end:
  when: turn >= 3
scoring:
  rank: r in roles
  by: [named(r)]
  points: key
"""


def build(tmp_path: Path, show_line: str = "show(hand(r), to = current_role)") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SHOW", show_line))
    return engine.load(path)


def shown_state(tmp_path: Path, seed: int = 1) -> engine.State:
    """Seat 1's turn: it was shown seat 2's card and is asked to name it."""
    return build(tmp_path).new_state(players=3, seed=seed, record=True)


def card_of(s: engine.State, seat: int) -> str:
    zone = s.game.zone_names.index(f"hand of seat{seat}")
    return s.game.component_names[s.zones[zone][0]]


def test_the_seat_shown_sees_the_card_and_no_other_seat_does(tmp_path: Path) -> None:
    from cli import zone_listing
    from cli.web import view

    s = shown_state(tmp_path)
    card = card_of(s, 2)
    assert s.observation(1)["zones"]["hand of seat2"] == {"hidden": 1, "seen": [[0, card]]}
    assert s.observation(3)["zones"]["hand of seat2"] == {"hidden": 1}
    assert view.public_observation(s)["zones"]["hand of seat2"] == {"hidden": 1}
    assert f"hand of seat2: 1 hidden (you saw: {card})" in [line.plain for line in zone_listing.zones(s, 1)]
    assert f"you saw: {card}" in view.table_html(s, 1) and "you saw" not in view.table_html(s, 3)
    assert "seat1 is shown a card from hand of seat2" in (s.log or [])
    assert not any(card in line for line in s.log or [])  # every seat reads the log


def test_search_bots_keep_the_card_shown_and_name_it(tmp_path: Path) -> None:
    for seed in range(4):
        s = shown_state(tmp_path, seed)
        card, zone = card_of(s, 2), s.game.zone_names.index("hand of seat2")
        samples = [determinize(s, 1, random.Random(i)) for i in range(20)]
        assert {s.game.component_names[x.zones[zone][0]] for x in samples} == {card}
        assert len({s.game.component_names[determinize(s, 3, random.Random(i)).zones[zone][0]] for i in range(20)}) > 1
        rank = ["one", "two", "three", "four", "five", "six"].index(card) + 1
        assert str(make_agent("ismcts:60", seed=seed).choose(s)) == f"choose {rank}"


def test_what_the_seat_cannot_see_changes_nothing_for_its_bots(tmp_path: Path) -> None:
    """The no-cheating check: seat 3's card and the deck dealt otherwise, seat 1 sees the same and plays the same."""
    s = shown_state(tmp_path)
    other = s.clone()
    hand3, deck = (s.game.zone_names.index(n) for n in ("hand of seat3", "deck"))
    a, b = other.zones[hand3][0], other.zones[deck][0]
    other.swap(a, b)
    assert other.observation(1) == s.observation(1) and other.observation(3) != s.observation(3)
    for spec in ("random", "ismcts:40", "mcts:40"):
        assert str(make_agent(spec, seed=3).choose(s)) == str(make_agent(spec, seed=3).choose(other))


def test_a_card_moved_away_or_shuffled_is_forgotten(tmp_path: Path) -> None:
    s = shown_state(tmp_path)
    hand2, deck = (s.game.zone_names.index(n) for n in ("hand of seat2", "deck"))
    cid = s.zones[hand2][0]
    moved = s.clone()
    moved.move(cid, deck)
    moved.move(cid, hand2)  # back where it was seen: it could have been swapped meanwhile
    assert not shown_to(moved, cid, 1) and "seen" not in moved.observation(1)["zones"]["hand of seat2"]
    shuffled = s.clone()
    shuffled.shuffle(hand2)
    assert not shown_to(shuffled, cid, 1) and shown_to(s, cid, 1)


def test_saves_keep_what_was_shown_and_refuse_what_does_not_fit(tmp_path: Path) -> None:
    s = shown_state(tmp_path)
    game = s.game
    s.apply(s.legal_actions()[0])  # seat 2 is now shown seat 3's card, mid-effect: the save replays the effect
    loaded = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert loaded == s and loaded.observation(1) == s.observation(1) and loaded.observation(2) == s.observation(2)
    data = s.to_json()
    data["scratch"]["shown to"] = [[0, ["nobody"]]]
    data.pop("checksum")
    from engine.model.savefile import position_hash

    data["checksum"] = position_hash(data)
    with pytest.raises(SaveError, match="shown to some roles do not fit"):
        game.state_from_json(data)


def test_the_rl_vector_holds_the_card_at_its_place(tmp_path: Path) -> None:
    from engine.rl.encoding import Encoder

    s = shown_state(tmp_path)
    encoder = Encoder(s.game, 3)
    at = next(seg.offset for seg in encoder.segments if seg.name == "zones")
    zone, width = s.game.zone_names.index("hand of seat2"), 2 + encoder.capacity
    held = encoder.encode(s.observation(1))[at + zone * width:at + zone * width + 3]
    assert list(held) == [0, 1, encoder.names[card_of(s, 2)]]
    assert list(encoder.encode(s.observation(3))[at + zone * width:at + zone * width + 3]) == [0, 1, 0]


def test_a_face_down_piece_peeked_at_is_seen_by_that_seat_alone() -> None:
    game = shipped_game(str(EXAMPLES / "memory"))
    s = game.new_state(players=2, seed=2)
    (cell, cid) = next(iter(s.grid.items()))
    show(s, cid, (s.positions[0],))
    key = f"{cell[0]},{cell[1]}"
    assert s.observation(1)["board"][key][0] == game.piece_names[cid]
    assert s.observation(2)["board"][key][0].startswith("face-down")
    assert all(x.grid[cell] == cid for x in (determinize(s, 1, random.Random(i)) for i in range(10)))


@pytest.mark.parametrize("line, message", [
    ("show(hand(r))", "show() needs to = ROLE"),
    ("show(hand(r), to = 3)", "the role of show() must be"),
    ("show(hand(r), hand(r), to = current_role)", "show() takes 1 argument besides to, not 2"),
])
def test_misuse_is_a_positioned_error(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, line)
    assert message in str(err.value) and "ruleset.yaml:" in str(err.value)


@needs_oracle
def test_openspiel_information_states_hold_the_card_for_its_seat_only(tmp_path: Path) -> None:
    from engine.rl.openspiel import load_game

    build(tmp_path)
    state = load_game(str(tmp_path / "ruleset.yaml"), players=3).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    card = json.loads(state.information_state_string(0).splitlines()[-1])["zones"]["hand of seat2"]
    assert "seen" in card and "seen" not in json.loads(state.information_state_string(2).splitlines()[-1])["zones"]["hand of seat2"]
