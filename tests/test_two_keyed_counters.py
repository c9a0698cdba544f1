"""Counters kept per two keys: ``key: [colour, 1..3]``, one value per row and column of a grid, ``marks(r, Red, 2)``.

A roll-and-write sheet (a box per row and number) or a grid of resources was a counter per row, each keyed by the
numbers, read through a chain of ``if k == Red ... elif ...``: one counter keyed by the pair reads as the sheet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from cli.zone_listing import key_grids
from engine.core.errors import RulesetError
from engine.rl.encoding import Encoder

RULESET = """\
name: two-keys
players: [2]
types:
  side: [A, B]
  colour: [Red, Blue]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    instances: [{id: c1}, {id: c2}]
counters:
  marks: {per: role, key: [colour, 1..3], max: 1}
  owed: {key: [side, colour], start: 2, min: 0}
setup: |
  SETUP
turn:
  - do:
      effect: |
        let k = choose(x in colours, text = "a row")
        marks(current_role, k, turn) += 5
        owed(current_role, k) -= 1
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: ['marks(r, Red, 1)']
  points: key
"""


def build(tmp_path: Path, setup: str = "pass", text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("SETUP", setup.replace("\n", "\n  ")), encoding="utf-8")
    return engine.load(path)


def test_a_value_per_row_and_column_read_logged_observed_and_drawn_as_a_grid(tmp_path: Path) -> None:
    game = build(tmp_path)
    s = game.new_state(players=2, seed=1, record=True)
    s.apply("choose Blue")
    assert "marks of A (Blue, 1): 0 -> 1" in (s.log or []) and "owed (A, Blue): 2 -> 1" in (s.log or [])  # max: 1
    assert s.observation(2)["counters"]["marks"]["A"] == {"Red, 1": 0, "Red, 2": 0, "Red, 3": 0,
                                                          "Blue, 1": 1, "Blue, 2": 0, "Blue, 3": 0}
    assert s.observation(2)["counters"]["owed"] == {"A, Red": 2, "A, Blue": 1, "B, Red": 2, "B, Blue": 2}
    assert game.compile_condition("marks(A, Blue, 1) == 1 and marks(A, Red, 1) == 0 and owed(A, Blue) == 1").test(s)
    [(columns, rows)] = key_grids(s)
    assert columns == ["1", "2", "3"]
    assert [(label, values) for _, label, values in rows] == [
        ("marks of A (Red)", [0, 0, 0]), ("marks of A (Blue)", [1, 0, 0]),
        ("marks of B (Red)", [0, 0, 0]), ("marks of B (Blue)", [0, 0, 0])]


def test_the_rl_vector_holds_a_value_per_owner_and_pair(tmp_path: Path) -> None:
    game = build(tmp_path)
    encoder = Encoder(game, 2)
    assert "counters: marks of A Red, 1, marks of A Red, 2" in "\n".join(encoder.describe())
    assert len(encoder.encode(game.new_state(players=2, seed=1).observation(1))) == len(encoder)


def test_a_scenario_position_writes_the_owner_then_both_keys(tmp_path: Path) -> None:
    from engine.runner.scenario import run_scenario

    build(tmp_path)
    scenario = tmp_path / "sheet.yaml"
    scenario.write_text("name: sheet\nruleset: ruleset.yaml\nplayers: 2\nposition:\n  counters:\n"
                        "    marks(A, Red, 3): 1\n    owed(B, Blue): 0\nactions: [choose Red]\n"
                        "expect:\n  - marks(A, Red, 3) == 1 and marks(A, Red, 1) == 1\n  - owed(B, Blue) == 0\n",
                        encoding="utf-8")
    result = run_scenario(scenario)
    assert result.passed, result.failures
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("marks(A, Red, 3): 1", "marks(A, 3): 1"), encoding="utf-8")
    failed = run_scenario(scenario)
    assert not failed.passed and "write the counter as marks(ROLE, ROW, COLUMN), like marks(A, Red, 1)" in "\n".join(failed.failures)


@pytest.mark.parametrize("code, message", [
    ("marks(A, Red) += 1", "ruleset.yaml:14:3: marks() takes 3 arguments, not 2 (usage: marks(ROLE, ROW, COLUMN) -> int)"),
    ("marks(A, 1, Red) += 1", "ruleset.yaml:14:12: the row key of marks() must be a colour, but '1' is an int"),
    ("owed(A, 2) = 1", "ruleset.yaml:14:11: the column key of owed() must be a colour, but '2' is an int"),
    ("marks = 1", "ruleset.yaml:14:3: 'marks' is kept per role and key: write marks(ROLE, ROW, COLUMN) = ..."),
])
def test_misuse_is_refused_where_it_is_written(tmp_path: Path, code: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, setup=code)
    assert message in str(err.value)


def test_a_number_beyond_the_columns_stops_the_game_naming_the_pair(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"marks has no key \(Red, 7\): its keys are colour x 1\.\.3"):
        build(tmp_path, setup="marks(A, Red, 7) += 1")


@pytest.mark.parametrize("key, message", [
    ("[colour, 1..3, side]", "ruleset.yaml:11:27: a counter is kept per one key (key: colour) or per two, a row and a "
                             "column of a grid (key: [colour, 2..12]), not per 3 (keep a counter for each of the other keys)"),
    ("[colour, colours]", "ruleset.yaml:11:36: a counter's key is a type, a component kind, numbers FROM..TO (like "
                          "2..12) or cell (the board's cells), not 'colours' (did you mean 'colour'?)"),
    ("[card, card]", "ruleset.yaml:11:27: a counter kept per two keys may have one component kind among them, not two "
                     "(card and card) (keep it per card (per: card) and key it by card)"),
    ("[1..100, 1..100]", "ruleset.yaml:11:27: the keys 1..100 x 1..100 make 10,000 pairs, more than a counter may keep "
                         "(1,000)"),
])
def test_keys_must_be_two_declared_lists(tmp_path: Path, key: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, text=RULESET.replace("key: [colour, 1..3]", f"key: {key}"))
    assert message in str(err.value)
