"""Counters: declared whole numbers per role, per component or for the whole game.

They start from their `start` (clamped), change only through `=`, `+=`, `-=`
in programs, stay within `min`..`max` ("do as much as you can"), are saved
and compared with the rest of the state, and are refused with a positioned
error when misused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.model.savefile import SaveError

RULESET = """\
name: counters-demo
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
options:
  starting_gold: 3
components:
  unit:
    attributes: {toughness: int}
    instances:
      - {id: u1, toughness: 3}
      - {id: u2, toughness: 5}
counters:
  gold: {per: role, start: starting_gold, min: 0, doc: coins in the purse}
  wounds: {per: unit, min: 0, max: self.toughness}
  round: {start: 1}
setup: |
  SETUP
turn:
  - draw: {from: supply, to: supply, count: 0}
end:
  when: END
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def build(tmp_path: Path, setup: str = "pass", end: str = "true") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", setup.replace("\n", "\n  ")).replace("END", end))
    return engine.load(path)


def test_counters_start_from_their_declared_values(tmp_path: Path) -> None:
    s = build(tmp_path).new_state(players=2)
    assert s.observation(1)["counters"] == {"gold": {"A": 3, "B": 3}, "wounds": {"u1": 0, "u2": 0}, "round": 1}


def test_changes_are_clamped_to_min_and_max_per_owner(tmp_path: Path) -> None:
    setup = "gold(A) += 4\ngold(B) -= 10\nfor u in units:\n  wounds(u) += 4\nround = round * 6"
    s = build(tmp_path, setup).new_state(players=2)
    assert s.observation(1)["counters"] == {"gold": {"A": 7, "B": 0}, "wounds": {"u1": 3, "u2": 4}, "round": 6}


def test_counters_are_read_by_conditions_and_scores(tmp_path: Path) -> None:
    s = build(tmp_path, "gold(B) += 1").new_state(players=2)
    assert s.is_terminal and s.outcome.winners == (2,)
    assert build(tmp_path).compile_condition("gold(A) == starting_gold and round == 1").test(s)


def test_every_change_is_logged(tmp_path: Path) -> None:
    s = build(tmp_path, "gold(A) -= 1\ngold(A) -= 0").new_state(players=2, record=True)
    assert "gold of A: 3 -> 2" in s.log and len([line for line in s.log if line.startswith("gold")]) == 1


def test_a_bookkeeping_counter_changes_unlogged(tmp_path: Path) -> None:
    """``shown: false``: neither drawn nor logged (a pass's bookkeeping logged 'played_by of 2C: 0 -> 3' at every
    card); programs and observations still read it."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("round: {start: 1}", "round: {start: 1, shown: false}")
                    .replace("SETUP", "round += 2\n  gold(A) -= 1").replace("END", "round == 3"))
    s = engine.load(path).new_state(players=2, record=True)
    assert "gold of A: 3 -> 2" in s.log and not [line for line in s.log if line.startswith("round")]
    assert s.is_terminal and s.observation(1)["counters"]["round"] == 3


def test_clones_and_saves_keep_counters(tmp_path: Path) -> None:
    game = build(tmp_path, "gold(A) += 2", end="false")
    s = game.new_state(players=2)
    c = s.clone()
    c.counters[0] = 99
    assert s.counters[0] == 5 and c != s
    data = s.to_json()
    assert data["counters"] == s.counters and game.state_from_json(data) == s


@pytest.mark.parametrize("bad", [[1, 2], [1, 2, 3, 4, "5"], "many", [1, 2, 3, 4, True]])
def test_saves_with_wrong_counters_are_refused(tmp_path: Path, bad: object) -> None:
    game = build(tmp_path, end="false")
    data = game.new_state(players=2).to_json()
    data["counters"] = bad
    with pytest.raises(SaveError, match="counters"):
        game.state_from_json(data)


@pytest.mark.parametrize(
    "setup, message",
    [
        ("foo(A) += 1", "only a counter can be changed with '+='"),
        ("gold = 3", "'gold' is kept per owner: write gold(OWNER) = ..."),
        ("round(A) = 1", "'round' is one number for the whole game: write round = ..."),
        ("gold(A) += true", "the value in '+=' must be an int"),
        ("wounds(A) += 1", "the owner of wounds() must be a unit"),
        ("gold(A) == 3", "a comparison can't be a line of a program on its own"),
    ],
)
def test_misused_counters_are_positioned_errors(tmp_path: Path, setup: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, setup)
    text = str(err.value)
    assert message in text and "ruleset.yaml:" in text


def test_a_condition_cannot_change_a_counter(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="changing a counter is a line of a program"):
        build(tmp_path, end="gold(A) += 1")


def test_a_counter_per_type_says_what_to_count_on(tmp_path: Path) -> None:
    """A price per company written 'per: firm', firm a type, was told only what a counter may belong to; the roles'
    own type is read as 'per: role' (its uses are no more errors), another type is told to become a kind."""
    path = tmp_path / "ruleset.yaml"
    text = RULESET.replace("SETUP", "pass").replace("END", "true").replace("  side: [A, B]\n", "  side: [A, B]\n  firm: [X, Y]\n")
    path.write_text(text.replace("per: role,", "per: side,").replace("per: unit,", "per: firm,"))
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    lines = [d.headline().split(": ", 1)[1] for d in err.value.diagnostics]
    assert lines == [
        "a counter belongs to 'role', 'game' or a component kind, not 'side' (the roles are the values of 'side': a "
        "counter each keeps is 'per: role')",
        "a counter belongs to 'role', 'game' or a component kind, not 'firm' ('firm' is a type: its values carry no "
        "counters; make a kind of components, one for each value (an attribute of type firm says which), and keep "
        "the counter per that kind)"], lines


def test_counter_declarations_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", "pass").replace("END", "true").replace("per: unit", "per: units"))
    with pytest.raises(RulesetError, match="a counter belongs to 'role', 'game' or a component kind, not 'units'"):
        engine.load(path)


def test_assignments_read_as_english() -> None:
    from engine.lang.parser import parse_program

    assert parse_program("gold(r) -= 2\nround = 1\n").describe() == "take 2 from the gold of r; then set round to 1"


@pytest.mark.parametrize("read", ["wounds(u) > 0", "wounds(first(x in units where x.toughness > 9)) > 0"])
def test_reading_the_counter_of_nothing_is_a_positioned_error(tmp_path: Path, read: str) -> None:
    """Whether the owner is a local (read in one look-up) or any expression, nothing has no counter."""
    setup = f"let u = first(x in units where x.toughness > 9)\nif {read}:\n  round += 1"
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: setting up 2 players fails: nothing has no wounds"):
        build(tmp_path, setup)


def test_a_counter_named_score_is_told_what_the_built_in_is_and_names_to_give_it(tmp_path: Path) -> None:
    """``score`` and ``points`` are the final score and a ranked item's points, read after the game: a designer's
    counter of points won so named was refused with no word of what the name is taken by or what to call it."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("  round: {start: 1}", "  round: {start: 1}\n  score: {per: role}")
                    .replace("SETUP", "pass").replace("END", "true"))
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    [found] = err.value.diagnostics
    assert found.message == "the name 'score' is already a built-in function; pick another name for this counter"
    assert found.hint == ("score(SEAT) -> int: a seat's final score (0 until the game is over); a counter of the game's "
                          "own is named for what it counts: vp, chips, banked")


@pytest.mark.parametrize("declared", ["  d1: {per: role}", "  d1: {}"])
def test_a_counter_named_like_a_die_is_refused_where_it_is_declared(tmp_path: Path, declared: str) -> None:
    """Code reads ``d1`` as a die: ``d1 = roll(d6)`` was refused as "'a 1-sided die' is not a counter (declare it
    under 'counters:')" though it was declared there, and ``d1(r)`` was a syntax error."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("  round: {start: 1}", f"  round: {{start: 1}}\n{declared}")
                    .replace("SETUP", "pass").replace("END", "true"))
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    [found] = err.value.diagnostics
    assert found.message == ("counter name 'd1' reads as a die in code (d1: a 1-sided die), so the counter could not be "
                             "changed (d1 = 3) or read per owner (d1(r))")
    assert found.hint == "pick another name, such as die1 or d1_"
    assert found.pos is not None and found.pos.line == declared_line(path, "d1:")


def declared_line(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip().startswith(text))
