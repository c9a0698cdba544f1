"""Zones kept per role and key (``per: role`` beside ``key:``), and zones keyed by a component kind (``key: tile``).

Each player's row of each colour (a Lost Cities expedition, a tableau's columns) was one per-role zone read colour by
colour (``c in row(r) where c.colour == k``); a pile under each tile was a zone written out per tile.  Now
``row(r, Red)`` is one zone, ``row(r)`` the role's list, ``row`` every one; ``under(t)`` the pile of tile t.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, RulesetError
from engine.runner.scenario import run_scenario

RULESET = """\
name: role-keyed-zones
players: [2]
types:
  colour: [Red, Blue]
components:
  card:
    attributes: {colour: colour, rank: int}
    instances:
      - each:
          colour: {R: Red, B: Blue}
          rank: {1: 1, 2: 2, 3: 3}
        id: "{colour}{rank}"
  tile:
    instances: [{id: T1}, {id: T2}]
zones:
  deck: {kind: pile, hidden: all}
  hand: {kind: hand, per: role, hidden: others}
  row: {kind: pile, per: role, key: colour, hidden: ROW_HIDDEN}
  under: {kind: pile, key: tile}
setup: |
  move(c in cards, deck)
  for r in roles:
    move(c in deck, hand(r), 3)
turn:
  - do:
      effect: |
        EFFECT
end:
  when: all(count(hand(r)) == 0 for r in roles)
scoring:
  rank: r in roles
  by: [sum(count(z) for z in row(r)) + count(under(first(t in tiles)))]
  points: key
"""

PLAY = """\
let c = choose(x in hand(current_role))
move(x in hand(current_role) where x == c, row(current_role, c.colour), on_top = true)
if count(row(current_role, Red)) == 2:
  move(x in row(current_role, Red), under(first(t in tiles)), 1)"""


def build(tmp_path: Path, effect: str = PLAY, hidden: str = "none", text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("EFFECT", effect.replace("\n", "\n        ")).replace("ROW_HIDDEN", hidden))
    return engine.load(path)


def test_one_zone_per_role_and_key_and_one_per_component(tmp_path: Path) -> None:
    game = build(tmp_path)
    assert game.zone_names[-6:] == ["row Red of seat1", "row Blue of seat1", "row Red of seat2", "row Blue of seat2",
                                    "under T1", "under T2"]
    assert game.zone_owner[-6:] == ["seat1", "seat1", "seat2", "seat2", None, None]


def test_code_moves_into_and_out_of_them_and_the_log_names_them(tmp_path: Path) -> None:
    s = build(tmp_path).new_state(players=2, seed=1, record=True)
    s.apply("choose R1")
    s.apply("choose B1")  # seat2
    s.apply("choose R2")  # seat1's second red: its top goes under the first tile
    assert s.log is not None and "hand of seat1: R1 -> the top of row Red of seat1" in s.log
    assert "row Red of seat1: R2 -> under T1" in s.log
    index = s.game.zone_index
    assert [s.game.piece_names[c] for c in s.zones[index[("under", s.game.kinds["tile"][0])]]] == ["R2"]
    assert [s.game.piece_names[c] for c in s.zones[index[("row", ("seat1", "Red"))]]] == ["R1"]


def test_the_role_alone_is_its_list_and_the_name_alone_every_one(tmp_path: Path) -> None:
    effect = """\
let c = choose(x in hand(current_role))
move(x in hand(current_role) where x == c, row(current_role, c.colour))
if count(row(current_role)) != 2 or count(row) != 4:
  say("wrong")"""
    s = build(tmp_path, effect).new_state(players=2, seed=1, record=True)
    s.apply("choose R1")
    assert s.log is not None and not any("wrong" in line for line in s.log)


def test_saved_and_loaded_with_its_zones_and_hashed_by_them(tmp_path: Path) -> None:
    from engine.runner.replay import state_hash

    game = build(tmp_path)
    s = game.new_state(players=2, seed=1)
    for action in ("choose R1", "choose B1", "choose R2"):
        s.apply(action)
    again = game.state_from_json(s.to_json())
    assert again.zones == s.zones and again.to_json() == s.to_json() and state_hash(again) == state_hash(s)
    moved = s.clone()  # the same cards, one in the other role's row of its colour
    index = game.zone_index
    card = moved.zones[index[("row", ("seat2", "Blue"))]][0]
    moved.move(card, index[("row", ("seat1", "Blue"))])
    assert state_hash(moved) != state_hash(s)


def test_a_role_s_hidden_zones_are_hidden_from_the_others_alone(tmp_path: Path) -> None:
    s = build(tmp_path, hidden="others").new_state(players=2, seed=1)
    s.apply("choose R1")
    mine, theirs = s.observation(1)["zones"], s.observation(2)["zones"]
    assert mine["row Red of seat1"] == ["R1"] and theirs["row Red of seat1"] == {"hidden": 1}


def test_a_step_naming_them_is_refused_with_an_example(tmp_path: Path) -> None:
    text = RULESET.replace("  - do:\n      effect: |\n        EFFECT", "  - draw: {from: deck, to: row}")
    with pytest.raises(RulesetError, match=r"zone 'row' is kept per key \(colour\): a step names one zone \(name one "
                                           r"in a do step's code, like row\(current_role, Red\)\)"):
        build(tmp_path, text=text)


@pytest.mark.parametrize("effect, message", [
    ("move(x in hand(current_role), row(Red))", r"the role of row\(\) must be"),
    ("move(x in hand(current_role), row(current_role, 3))", r"the key of row\(\) must be a colour"),
    ("move(x in hand(current_role), under(Red))", r"the key of under\(\) must be a tile"),
    ("move(x in hand(current_role), row(current_role, Red, Blue))", r"row\(\) takes 1 to 2 arguments, not 3"),
])
def test_a_wrong_role_or_key_is_refused_where_it_is_written(tmp_path: Path, effect: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        build(tmp_path, effect)


def test_a_key_that_is_no_type_kind_or_numbers_is_refused_naming_the_kinds(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"ruleset.yaml:19:28: a zone's key is a type .*, not 'tiles' .*did you "
                                           r"mean 'tile'"):
        build(tmp_path, text=RULESET.replace("key: tile}", "key: tiles}"))


def scenario(tmp_path: Path, body: str) -> list[str]:
    build(tmp_path)
    path = tmp_path / "case.yaml"
    path.write_text("ruleset: ruleset.yaml\nplayers: 2\n" + textwrap.dedent(body))
    return run_scenario(path).failures


def test_a_scenario_sets_and_expects_them(tmp_path: Path) -> None:
    assert scenario(tmp_path, """\
        position:
          zones:
            row(seat1, Red): [R3]
            under(T2): [B3]
            hand(seat1): [R1]
            hand(seat2): [B1]
            deck: [R2, B2]
        actions: []          # a choice of one card is taken at once: both seats play
        expect:
          - list(c.id for c in row(nth(roles, 1), Red)) == ["R3"]
          - list(c.id for c in under(first(t in tiles))) == ["R1"]
          - list(c.id for c in under(nth(list(tiles), 2))) == ["B3"]
        """) == []


@pytest.mark.parametrize("zone, message", [
    ("row(seat1)", "zone 'row' is kept per role and key (colour): name one of them (like row(seat1, Red))"),
    ("row", "zone 'row' is kept per role and key (colour): name one of them"),
    ("row(seat1, Green)", "row has no key Green: its keys are colour"),
    ("row(seat3, Red)", "there is no row of seat3"),
    ("under(T1, Red)", "zone 'under' is kept per key (tile): name one of them (like under(T1))"),
    ("under(T9)", "under has no key T9: its keys are tile"),
    ("deck(seat1, Red)", "zone 'deck' is not kept per role and key: name it deck"),
])
def test_a_scenario_naming_no_zone_of_them_is_refused(tmp_path: Path, zone: str, message: str) -> None:
    failures = scenario(tmp_path, f"position:\n  zones:\n    {zone}: [R3]\n")
    assert len(failures) == 1 and message in failures[0]


def test_a_component_of_another_kind_as_the_key_stops_the_game_naming_it(tmp_path: Path) -> None:
    """A component of any kind is taken where a tile is written (``first(x in hand(r))``: a component), and found
    to be none of the zone's keys in play: the message names it, not its number."""
    effect = "let c = choose(x in hand(current_role))\nmove(x in hand(current_role) where x == c, under(first(x in hand(current_role))))"
    s = build(tmp_path, effect).new_state(players=2, seed=1)
    with pytest.raises(EffectRuntimeError, match=r"ruleset.yaml:\d+:\d+: under has no key R1: its keys are tile"):
        s.apply(str(s.legal_actions()[0]))
