"""Zones kept per key (``key:``): one shared zone per value of a type, or per whole number of a range.

One pile per colour (``discard(Red)``), seven columns (``column(3)``): before ``key:``, a ruleset declared each zone by
hand and listed them in a function.  The name alone is the list of them all (``for z in column``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, RulesetError
from engine.runner.scenario import run_scenario

RULESET = """\
name: keyed-zones
players: [1]
options:
  columns: {default: 3}
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
zones:
  stock: {kind: pile, hidden: all}
  discard: {kind: pile, key: colour}
  column: {kind: pile, key: {from: 1, to: columns}}
setup: |
  move(c in cards, stock)
  for z in column:
    move(c in stock, z, 2)
turn:
  - do:
      effect: |
        EFFECT
end:
  when: sum(count(z) for z in column) == 0
goals:
  players: [1]
  any_of:
    red:
      text: Discard every red card.
      when: count(discard(Red)) == 3
"""

PLAY = """\
let z = choose(y in column where count(y) > 0)
let c = first(z)
move(x in cards where x == c, discard(c.colour), on_top = true)"""


def build(tmp_path: Path, effect: str = PLAY, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("EFFECT", effect.replace("\n", "\n        ")))
    return engine.load(path)


def test_one_zone_per_key_named_by_its_key(tmp_path: Path) -> None:
    game = build(tmp_path)
    assert game.zone_names[-5:] == ["discard Red", "discard Blue", "column 1", "column 2", "column 3"]
    s = game.new_state(players=1, seed=1)
    assert [len(z) for z in s.zones[-3:]] == [2, 2, 2]  # the setup's loop over `column` dealt each


def test_code_names_a_zone_by_its_key_and_the_log_names_it(tmp_path: Path) -> None:
    s = build(tmp_path).new_state(players=1, seed=1, record=True)
    assert [str(a) for a in s.legal_actions()] == ["choose column 1", "choose column 2", "choose column 3"]
    top = s.zones[s.game.zone_index[("column", 2)]][0]
    s.apply("choose column 2")
    colour = s.game.piece_names[top][0]
    pile = {"R": "Red", "B": "Blue"}[colour]
    assert s.zones[s.game.zone_index[("discard", pile)]] == [top]
    assert f"column 2: {s.game.piece_names[top]} -> the top of discard {pile}" in (s.log or [])


def test_saved_and_loaded_with_its_zones(tmp_path: Path) -> None:
    game = build(tmp_path)
    s = game.new_state(players=1, seed=2)
    s.apply("choose column 3")
    again = game.state_from_json(s.to_json())
    assert again.zones == s.zones and [str(a) for a in again.legal_actions()] == [str(a) for a in s.legal_actions()]
    assert set(s.observation(1)["zones"]) >= {"discard Red", "column 3"}


def test_a_key_the_zone_has_not_stops_the_game_naming_its_keys(tmp_path: Path) -> None:
    effect = "let z = choose(y in column)\nmove(x in column(if z == column(1) then 4 else 1), discard(Red))"
    s = build(tmp_path, effect).new_state(players=1, seed=1)
    with pytest.raises(EffectRuntimeError, match=r"column has no key 4: its keys are 1\.\.3"):
        s.apply("choose column 1")


def test_the_range_may_end_at_an_option(tmp_path: Path) -> None:
    game = build(tmp_path, text=RULESET.replace("columns: {default: 3}", "columns: {default: 5}"))
    assert game.zone_names[-1] == "column 5"


def test_a_range_may_run_through_negative_numbers_written_either_way(tmp_path: Path) -> None:
    """``key: -1..1`` was taken and ``key: {from: -1, to: 1}`` refused ("'from' must be a whole number, 0 or more"):
    both forms say the same keys."""
    for key in ("-1..1", "{from: -1, to: 1}"):
        game = build(tmp_path, PLAY.replace("discard(c.colour)", "discard(0)"), RULESET.replace(
            "{kind: pile, key: colour}", f"{{kind: pile, key: {key}}}").replace("discard(Red)", "discard(0)"))
        assert [name for name in game.zone_names if name.startswith("discard")] == ["discard -1", "discard 0",
                                                                                    "discard 1"]


@pytest.mark.parametrize("zone, message", [
    ("{kind: pile, key: hue}", r"ruleset.yaml:17:30: a zone's key is a type \(one zone per value\), a component kind "
                               r"\(one zone per component\) or whole numbers"),
    ("{kind: pile, key: 5..1}", r"ruleset.yaml:17:30: the keys 5\.\.1 must run up"),
    ("{kind: pile, key: {from: 1}}", r"ruleset.yaml:17:30: zones/discard/key: 'to' is a required property"),
])
def test_a_bad_key_is_refused_where_it_is_written(tmp_path: Path, zone: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message) as refused:
        build(tmp_path, text=RULESET.replace("{kind: pile, key: colour}", zone))
    assert "\n" not in str(refused.value)  # its uses, discard(Red), are no more errors


def test_a_step_naming_the_zones_of_every_key_is_refused(tmp_path: Path) -> None:
    text = RULESET.replace("  - do:\n      effect: |\n        EFFECT", "  - draw: {from: column, to: stock}")
    with pytest.raises(RulesetError, match=r"zone 'column' is kept per key \(1\.\.3\): a step names one zone"):
        build(tmp_path, text=text)


def test_a_wrong_key_type_is_refused_in_code(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"discard\(\)"):
        build(tmp_path, "move(x in column(1), discard(2))")


def scenario(tmp_path: Path, body: str) -> list[str]:
    build(tmp_path)
    path = tmp_path / "case.yaml"
    path.write_text("ruleset: ruleset.yaml\nplayers: 1\n" + textwrap.dedent(body))
    return run_scenario(path).failures


def test_a_scenario_sets_and_expects_the_zone_of_a_key(tmp_path: Path) -> None:
    assert scenario(tmp_path, """\
        position:
          zones:
            column(1): [R1]
            column(2): [R3, B1]
            discard(Blue): [B2]
        actions: [choose column 2]
        expect:
          - list(c.id for c in discard(Red)) == ["R3"]
          - count(discard(Blue)) == 1 and count(column(2)) == 1
        """) == []


@pytest.mark.parametrize("zone, message", [
    ("column(9)", "column has no key 9: its keys are 1..3"),
    ("column", "zone 'column' is kept per key (1..3): name one of them"),
])
def test_a_scenario_naming_no_zone_of_the_keys_is_refused(tmp_path: Path, zone: str, message: str) -> None:
    failures = scenario(tmp_path, f"position:\n  zones:\n    {zone}: [R3]\n")
    assert len(failures) == 1 and message in failures[0]


def test_code_over_every_zone_of_the_key_sees_them_change(tmp_path: Path) -> None:
    """An aggregate over ``column`` that walks a zone inside is kept by the contents of the zones it reads: every
    column, besides the stock (kept by the stock alone, its value never changed and the game never ended)."""
    end = "sum(count(z) + count(c in stock where c.rank > 9) for z in column) == 0"
    text = RULESET.replace("when: sum(count(z) for z in column) == 0", f"when: {end}")
    s = build(tmp_path, text=text).new_state(players=1, seed=1)
    for _ in range(6):  # six cards, a choice each at most (one with a single option is taken at once)
        if not s.is_terminal:
            s.apply(str(s.legal_actions()[0]))
    assert s.is_terminal and all(not z for z in s.zones[-3:])


def test_every_zone_of_a_hidden_key_is_hidden(tmp_path: Path) -> None:
    text = RULESET.replace("column: {kind: pile, key:", "column: {kind: pile, hidden: all, key:")
    zones = build(tmp_path, text=text).new_state(players=1, seed=1).observation(1)["zones"]
    assert zones["column 1"] == zones["column 3"] == {"hidden": 2} and zones["discard Red"] == []
