"""A first ruleset written from scratch (a dice race), and the slips made writing it: each is one message at the slip
that says what to write."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main

RACE = """name: race
title: Race to 20
players: [2, 3]
counters:
  pts: {per: role, start: 0}
turn:
  - do:
      effect: |
        pts(current_role) += roll(d6)
end:
  when: any(pts(r) >= 20 for r in roles)
scoring:
  rank: r in roles
  by: [pts(r)]
  points: key
"""


def validate(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "race.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert "Traceback" not in result.output, result.output
    return result.output.replace(f"{tmp_path}/", "").splitlines()


def test_the_race_as_written_validates(tmp_path: Path) -> None:
    assert validate(tmp_path, RACE) == ["ok: race.yaml"]


@pytest.mark.parametrize("old, new, message", [
    ("roll(d6)", "roll(6)", "race.yaml:9:35: the die of roll() must be a die, but '6' is an int (a die is written d6: "
     "roll(d6))"),
    ("roll(d6)", 'roll("d6")', "race.yaml:9:35: the die of roll() must be a die, but '\"d6\"' is a text (a die is "
     "written d6: roll(d6))"),
    ("roll(d6)", "d6", "race.yaml:9:30: the value in '+=' must be an int, but 'a 6-sided die' is a die (a die is rolled "
     "with roll(d6))"),
    ("  - do:\n      effect: |", "  - effect: |", "race.yaml:7:5: unknown key 'effect' in turn/0 ('effect' goes inside "
     "'do': do: {effect: ...})"),
    ("  - do:\n", "  - name: roll\n    if: turn > 0\n    do:\n", "race.yaml:8:5: unknown key 'if' in turn/0 (a step's 'if' "
     "goes in its settings: do: {if: CONDITION, ...} (beside 'name' only 'refuse_if_after' is written))"),
    ("per: role", "per: player", "race.yaml:5:14: a counter belongs to 'role', 'game' or a component kind, not "
     "'player' (each seat plays a role: a counter per player is 'per: role')"),
    ("rank: r in roles", "rank: roles", "race.yaml:13:9: 'rank' gives no name to the items it ranks, so 'by' cannot "
     "score them (write 'rank: x in roles', and 'by' scores each x)"),
    ("rank: r in roles", "rank: roles where seated(r)", "race.yaml:13:9: 'where' needs a selection that names its "
     "items: write 'r in roles where ...'"),
    ("any(pts(r) >= 20 for r in roles)", "any(roles where pts(r) >= 20)", "race.yaml:11:13: 'where' needs a selection "
     "that names its items: write 'r in roles where ...'"),
    ("pts(current_role) += roll(d6)", "move(c in supply, to = supply)", "race.yaml:9:27: move() has no option 'to' "
     "(write its value as argument 2, without 'to =': move(x in COLLECTION [where CONDITION], ZONE [, COUNT] [, "
     "on_top = true]))"),
    ("any(pts(r) >= 20 for r in roles)", "abs(value = 3) > 2", "race.yaml:11:13: abs() has no option 'value' (write "
     "its value as argument 1, without 'value =': abs(NUMBER) -> int)"),
    ("players: [2, 3]", "players: 2", "race.yaml:3:10: players: 2 is not a list (like [a, b]) (a list of one is "
     "written in brackets: players: [2])"),
    ("points: key", "points: highest", "race.yaml:15:11: unknown option 'highest' ('points' is the points paid by "
     "place (like [1, 0]), 'key', or the name of an option)"),
    ("when: any(pts(r) >= 20 for r in roles)", "when: pts(r) >= 20", "race.yaml:11:13: unknown name 'r' ('r' exists "
     "only inside what names it: for r in C:, or any(... for r in C) (all, sum alike))"),
    ("per: role", "per: rol", "race.yaml:5:14: a counter belongs to 'role', 'game' or a component kind, not 'rol' "
     "(did you mean 'role'?)"),
])
def test_a_slip_in_a_first_ruleset_is_one_message_saying_what_to_write(tmp_path: Path, old: str, new: str,
                                                                      message: str) -> None:
    lines = validate(tmp_path, RACE.replace(old, new, 1))
    assert lines[0] == message
    assert lines[-1] == "1 problem in 1 file"  # a counter's uses are not reported again


@pytest.mark.parametrize("text, message", [
    ("zones:\n  hand: {kind: hand, per: player, hidden: others}\n", "first.yaml:4:27: zones/hand/per: 'player' is not "
     "one of role, shared (each seat plays a role: write 'role')"),
    ("components:\n  token:\n    attributes: {worth: number}\n    instances: [a]\n", "first.yaml:5:25: unknown type "
     "'number' (write 'int')"),
    ("components:\n  token:\n    attributes: {worth: {type: string}}\n    instances: [a]\n", "first.yaml:5:32: unknown "
     "type 'string' (write 'text')"),
    ("options:\n  rank_points:\n    default: 3, 1, 0\n", "first.yaml:5:5: 'points' must be a list of numbers (or an "
     "option holding one), or 'key' -- at tutorial-tiles/ruleset.yaml:81:11, in the 'scoring' of tutorial-tiles (which "
     "this file extends), because of this change (the option 'rank_points' holds the text '3, 1, 0': write it as a list, "
     "[3, 1, 0]; fix it here: undo this change, or override 'scoring' in this file)"),
])
def test_a_slip_in_a_file_extending_the_tutorial_is_told_what_to_write(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "first.yaml"
    path.write_text(f"name: first\nextends: tutorial-tiles\n{text}", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.output.replace(f"{tmp_path}/", "").splitlines()[0] == message


def test_a_question_in_a_place_steps_then_is_refused_where_it_is_written(tmp_path: Path) -> None:
    """A follower put on the tile just placed, asked in the place step's 'then:', stopped a game only once it had two
    answers to offer ('choose() needs a player to decide ... by a step that allows choices'), found by validate's
    random games at best: the 'then' is refused where it is written, with where to ask instead."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nturn:\n  - place:\n      from: hand\n      face: choose\n"
                    "      then: |\n        let k = choose(r in roles)\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(path)
    assert "ruleset.yaml:7:13: a place step's 'then' cannot ask a player (choose)" in str(info.value)
    assert "ask in a 'do' step after the place step" in str(info.value)
