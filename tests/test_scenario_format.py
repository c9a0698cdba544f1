"""The scenario format: checkpoints, refusals in place, offered decisions, seats for the real setup,
positions that list a component twice, and failures that say what was found."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
import yaml

import engine
from engine.lang.parser import parse_expression
from engine.core.errors import RulesetError
from engine.runner.expectations import compile_expectation, explain, waiting_for
from engine.runner.scenario import ScenarioResult, load_scenario, run_scenario, validate_scenario

# The rulebook clash example's position: Fire places next to a Water (which it beats) and an Earth.
CLASH = """\
ruleset: iconoclasm-cards
players: 4
position:
  seats: {Fire: 1, Water: 2, Earth: 3, Air: 4}
  board:
    "1,0": Water/Fire as Water
    "2,0": Air/Air
    "0,1": Earth/Earth
  zones:
    hand(Fire): [Fire/Water]
    hand(Water): [Water/Water]
"""


def run(tmp_path: Path, text: str, name: str = "case.yaml") -> ScenarioResult:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return run_scenario(path)


def test_a_checkpoint_is_checked_after_its_action_not_at_the_end(tmp_path: Path) -> None:
    """Fire must order its clashes before the turn passes: true half-way, false at the end."""
    middle = CLASH + """\
actions:
  - place Fire/Water as Fire at 0,0
  - expect:
      - current_role == Fire
      - count(c in board) == 4
  - clash 1,0
expect:
  - current_role == Water
"""
    assert run(tmp_path, middle).passed
    at_end = run(tmp_path, middle.replace("  - current_role == Water\n", "  - current_role == Fire\n"))
    assert len(at_end.failures) == 1 and "case.yaml:19:5: expected current_role == Fire" in at_end.failures[0]


def test_a_failing_checkpoint_reports_its_line(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + """\
actions:
  - place Fire/Water as Fire at 0,0
  - expect: [count(c in board) == 5]
""")
    assert len(result.failures) == 1
    assert result.failures[0].startswith("{}:14:14: expected count(c in board) == 5".format(tmp_path / "case.yaml"))
    assert "found: the number of c in board = 4, 5 = 5" in result.failures[0]


def test_several_refusals_in_one_file_each_in_place(tmp_path: Path) -> None:
    refusals = CLASH + """\
actions:
  - action: place Fire/Water as Fire at 3,3
    expect_error: does not touch any piece
  - action: place Water/Water as Water at 0,0
    expect_error: is not in hand of Fire
  - place Fire/Water as Fire at 0,0
  - action: clash 2,0
    expect_error: clash
    expect: [count(c in board) == 4]
  - clash 1,0
expect:
  - at(1, 0).element == Fire
"""
    result = run(tmp_path, refusals)
    assert result.passed, result.failures
    wrong = run(tmp_path, refusals.replace("expect_error: does not touch any piece", "expect_error: out of cards"))
    assert len(wrong.failures) == 1
    assert "case.yaml:13:13: action 1: expected an error containing 'out of cards', got: cell 3,3 does not touch any piece" in wrong.failures[0]


def test_a_refusal_that_is_accepted_stops_the_run(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + """\
actions:
  - action: place Fire/Water as Fire at 0,0
    expect_error: does not touch
  - clash 1,0
expect:
  - count(c in board) == 99
""")
    assert "action 1: expected 'place Fire/Water as Fire at 0,0' to fail with 'does not touch', but it was accepted" in result.failures[0]
    assert not any("action 2" in failure for failure in result.failures)  # the run stopped there


def test_an_unexpected_refusal_is_told_once_with_what_the_run_left_unchecked(tmp_path: Path) -> None:
    """Every expectation after a refused action failed too, each in its own block, on a game that had stopped."""
    result = run(tmp_path, CLASH + """\
actions:
  - place Fire/Water as Fire at 5,5
  - clash 1,0
  - expect: [count(c in board) == 4]
expect:
  - count(c in board) == 4
expect_log:
  - flipped
""")
    assert len(result.failures) == 1, result.failures
    assert "action 1: action 'place Fire/Water as Fire at 5,5' was refused" in result.failures[0]
    assert result.failures[0].endswith("the run stopped here; not checked: the 2 steps after it, the expectations at "
                                       "the end (expect, expect_log)")


def test_the_files_expected_error_is_for_its_last_action_even_before_a_checkpoint(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + """\
actions:
  - place Fire/Water as Fire at 3,3
  - expect: [count(c in board) == 3]
expect_error: does not touch any piece
""")
    assert result.passed, result.failures


def test_a_refused_action_must_be_named_in_a_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "no-action.yaml"
    path.write_text(CLASH + "actions:\n  - expect_error: does not touch\n")
    assert [d.message for d in validate_scenario(path)] == ["actions/0: 'expect_error' needs 'action' beside it"]


OFFERED = CLASH + """\
actions:
  - place Fire/Water as Fire at 0,0
  - expect_offered:
      - clash 0,0 with 1,0
      - clash 0,0 with 0,1
    expect_offered_include:
      - clash 0,0 with 0,1
"""


def test_the_offered_decisions_exactly_or_at_least(tmp_path: Path) -> None:
    assert run(tmp_path, OFFERED).passed
    exact = run(tmp_path, OFFERED.replace("      - clash 0,0 with 1,0\n      - clash 0,0 with 0,1\n    expect_offered_include",
                                          "      - clash 0,0 with 1,0\n    expect_offered_include"))
    assert len(exact.failures) == 1
    assert "expected exactly these actions to be offered\n    offered too: clash 0,0 with 0,1" in exact.failures[0]
    include = run(tmp_path, OFFERED.replace("    expect_offered_include:\n      - clash 0,0 with 0,1",
                                            "    expect_offered_include:\n      - clash 0,0 with 0,1\n      - pass"))
    assert len(include.failures) == 1
    assert "expected at least these actions to be offered\n    not offered: pass" in include.failures[0]


def test_the_offered_decisions_at_the_end(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + """\
actions:
  - place Fire/Water as Fire at 0,0
expect_offered_include:
  - clash 0,0 with 1,0
  - clash 0,0 with 2,0
""")
    assert len(result.failures) == 1 and "not offered: clash 0,0 with 2,0" in result.failures[0]


def test_actions_expected_refused_are_tried_on_a_copy_and_must_be_refused_by_a_rule(tmp_path: Path) -> None:
    refused = CLASH + """\
actions:
  - expect_refused:
      - place Fire/Water as Fire at 3,3
      - place Water/Water as Water at 0,0
  - place Fire/Water as Fire at 0,0
expect_refused:
  - clash 0,0 with 2,0
expect:
  - count(c in board) == 4
"""
    assert run(tmp_path, refused).passed  # away from every piece; another's card; no group to clash with there
    accepted = run(tmp_path, refused.replace("at 3,3", "at 0,0"))
    assert len(accepted.failures) == 1
    assert "expected 'place Fire/Water as Fire at 0,0' to be refused now, but it was accepted" in accepted.failures[0]
    slip = run(tmp_path, refused.replace("place Water/Water as Water", "place Waterr/Water as Water"))
    assert len(slip.failures) == 1
    assert "refused only as naming nothing the game has: there is no component 'Waterr/Water'" in slip.failures[0]


def test_actions_that_run_out_mid_decision_say_who_must_decide_what(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + """\
actions:
  - place Fire/Water as Fire at 0,0
expect:
  - current_role == Water
""")
    assert result.failures[0].endswith("the game is waiting for Fire: clash 0,0 with 1,0 or clash 0,0 with 0,1")


def test_an_unexpected_refusal_says_what_was_offered(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + """\
actions:
  - place Fire/Water as Fire at 0,0
  - clash 2,0
""")
    assert "action 2: action 'clash 2,0' was refused" in result.failures[0]
    assert result.failures[0].endswith("the game is waiting for Fire: clash 0,0 with 1,0 or clash 0,0 with 0,1")


@pytest.fixture(scope="module")
def clash_state() -> engine.State:
    path = Path(__file__).resolve().parents[1] / "rulesets/iconoclasm-cards/scenarios/rulebook-clash-example.yaml"
    from engine.runner.scenario import set_up

    sc = load_scenario(path)
    return set_up(sc.game, sc.doc, sc.doc["position"])


@pytest.mark.parametrize("condition,lines", [
    ("at(1, 0).element == Water and at(2, 0).element == Water", [
        "the right side of 'and' is false: the element of the piece at (2, 0) is Water",
        "    the element of the piece at (2, 0) = Air, Water = Water"]),
    ("at(1, 0).element == Fire and at(2, 0).element == Air", [
        "the left side of 'and' is false: the element of the piece at (1, 0) is Fire",
        "    the element of the piece at (1, 0) = Water, Fire = Fire"]),
    ("current_role == Water or count(c in board) > 3", [
        "the left side of 'or' is false: the current role is Water",
        "    the current role = Fire, Water = Water",
        "the right side of 'or' is false: the number of c in board is more than 3",
        "    the number of c in board = 3, 3 = 3"]),
    ("not (current_role == Fire)", [
        "the current role is Fire is true",
        "    the current role = Fire, Fire = Fire"]),
    ("at(0, 1) in hand(Fire)", ["the piece at (0, 1) = Earth/Earth, the hand of Fire = [Fire/Water]"]),
    ("seated(Air) and not seated(Fire)", [
        "the right side of 'and' is false: not (Fire is played by a seat)",
        "    Fire is played by a seat is true",
        "        Fire is played by a seat = true"]),
])
def test_a_false_expectation_shows_the_values_of_its_parts(clash_state: engine.State, condition: str, lines: list[str]) -> None:
    assert explain(clash_state.game, clash_state, parse_expression(condition)) == lines


def test_waiting_for_a_finished_game(clash_state: engine.State) -> None:
    over = clash_state.clone()
    while not over.is_terminal:
        over.apply(over.legal_actions()[0])
    assert waiting_for(over) == ("the game is over: a whole round of turns went by in which nobody could do anything "
                                 f"(end: stalled), after turn {over.turn_number}")


def test_a_position_whose_forced_turns_end_the_game_says_how_it_ended(tmp_path: Path) -> None:
    """Every hand empty: each turn is a forced pass, taken without asking, and the game ends stalled before the
    scenario's first checkpoint.  The failure said only "the game is over", leaving the designer to guess why (a
    route-building example's scenario met it: every option of its position was forced)."""
    result = run(tmp_path, """\
        name: stalled at once
        ruleset: iconoclasm-cards
        players: 2
        position:
          board:
            "0,0": Fire/Fire
        actions:
          - expect:
              - current_role == Fire
        """)
    assert not result.passed
    assert ("the game is over: a whole round of turns went by in which nobody could do anything (end: stalled), "
            "after turn 4") in result.failures[0]


# --- seats for the ruleset's own setup -------------------------------------------------------------

def test_seats_choose_the_deal_of_the_real_setup(tmp_path: Path) -> None:
    """Two players, two elements each: the seats chosen, the rest of the setup as the ruleset says."""
    result = run(tmp_path, """\
ruleset: iconoclasm-cards
players: 2
seats: {Air: 1, Fire: 2, Earth: 1, Water: 2}
expect:
  - seat(Air) == 1 and seat(Earth) == 1 and seat(Fire) == 2 and seat(Water) == 2
  - turn_position(Air) == 1 and turn_position(Fire) == 2 and turn_position(Earth) == 3
  - current_role == Air
  - all(count(c in hand(r)) == 4 for r in roles)
""")
    assert result.passed, result.failures


@pytest.mark.parametrize("seats,message", [
    ("{Air: 1, Fire: 3}", "3:8: Fire cannot be at seat 3: with 2 players the roles are dealt to the seats 1, 2, 1, 2"),
    ("{Air: 1, Earth: 1, Fire: 1}", "3:8: Fire cannot be at seat 1"),
    ("{Air: 1, Lava: 2}", "3:17: unknown role 'Lava'"),
])
def test_seats_the_setup_cannot_deal_are_refused(tmp_path: Path, seats: str, message: str) -> None:
    result = run(tmp_path, f"ruleset: iconoclasm-cards\nplayers: 2\nseats: {seats}\n")
    assert len(result.failures) == 1 and f"case.yaml:{message}" in result.failures[0]


def test_seats_deal_groups_of_roles_whole(tmp_path: Path) -> None:
    """Iconoclasm with 2 players deals the deities in pairs: seating Water seats its partner Fire with it."""
    result = run(tmp_path, """\
ruleset: iconoclasm
players: 2
seats: {Water: 1, Air: 2}
expect:
  - seat(Fire) == 1 and seat(Water) == 1 and seat(Earth) == 2 and seat(Air) == 2
""")
    assert result.passed, result.failures
    apart = run(tmp_path, "ruleset: iconoclasm\nplayers: 2\nseats: {Water: 1, Earth: 1}\n")
    assert ("Earth cannot be at seat 1: with 2 players the roles are dealt in groups that stay together "
            "(Fire and Water, Earth and Air) to the seats 1+1, 2+2") in apart.failures[0]


def test_a_role_the_setup_does_not_deal_keeps_its_seat(tmp_path: Path) -> None:
    result = run(tmp_path, "ruleset: nine-domains\nplayers: 2\nseats: {East: 2, West: 1}\n")
    assert len(result.failures) == 1
    assert "East is always at seat 1 with 2 players (the setup does not deal it)" in result.failures[0]


def test_seats_and_a_written_position_do_not_mix(tmp_path: Path) -> None:
    result = run(tmp_path, CLASH + "seats: {Fire: 1}\n")
    assert "case.yaml:12:1: a written position has its own seats: write them under 'position'" in result.failures[0]


# --- a component has one place ---------------------------------------------------------------------

@pytest.mark.parametrize("extra,where", [
    ("    hand(Earth): [Air/Air]\n", "case.yaml:12:19: Air/Air is listed twice (first at line 7)"),
    ("    hand(Earth): [Fire/Water]\n", "case.yaml:12:19: Fire/Water is listed twice (first at line 10)"),
])
def test_a_component_listed_twice_is_an_error_at_its_line(tmp_path: Path, extra: str, where: str) -> None:
    result = run(tmp_path, CLASH + extra)
    assert len(result.failures) == 1 and where in result.failures[0]
    assert validate_scenario(tmp_path / "case.yaml")[0].message.startswith(where.split(": ", 1)[1])


def test_a_written_position_past_the_boards_limits_is_an_error_at_its_cell(tmp_path: Path) -> None:
    """A board cell that stretches a growing board past its max_width was set up as written: the game then
    offered moves from a position it could never reach (or ended at once), and the scenario failed elsewhere."""
    result = run(tmp_path, CLASH.replace('    "0,1": Earth/Earth\n', '    "0,1": Earth/Earth\n    "9,0": Air/Earth\n'))
    where = "case.yaml:9:5: cell 9,0 takes the board past its limits (at most 7 wide and 7 tall) with the cells above it"
    assert len(result.failures) == 1 and where in result.failures[0], result.failures


def test_a_ruleset_name_too_long_for_a_file_is_an_error_at_its_line(tmp_path: Path) -> None:
    """ruleset: fff... (300 characters) ended 'rulecraft check' of a whole folder with 'File name too long' (an
    OSError from looking the name up), and engine.load of such a name raised it too."""
    result = run(tmp_path, CLASH.replace("ruleset: iconoclasm-cards", "ruleset: " + "f" * 300))
    assert len(result.failures) == 1 and "case.yaml:1:10: the scenario's ruleset 'fffff" in result.failures[0]
    assert "... (300 characters)' cannot be read: File name too long" in result.failures[0]
    with pytest.raises(engine.RulesetError, match=r"ruleset 'ggg.*\(5,000 characters\)' cannot be read: File name too long"):
        engine.load("g" * 5000)


def test_a_board_cell_with_a_coordinate_past_the_digit_limit_is_an_error_at_its_cell(tmp_path: Path) -> None:
    """A position cell '999...' (200 nines),0 was set up as written: the one number the integer_digits limit
    did not reach, and the game then offered 'place ... at 1000...0,0'."""
    result = run(tmp_path, CLASH.replace('"1,0": Water/Fire as Water', f'"{"9" * 200},0": Water/Fire as Water')
                 .replace('"2,0": Air/Air', '"0,2": Air/Air'))
    assert len(result.failures) == 1 and "case.yaml:6:5: cell '999" in result.failures[0], result.failures
    assert "has a coordinate of more than 100 digits (limit integer_digits=100" in result.failures[0]


def test_identical_copies_may_each_be_listed(tmp_path: Path) -> None:
    result = run(tmp_path, """\
ruleset: spell-cycles
players: 2
position:
  seats: {Ash: 1, Birch: 2}
  zones:
    apothecary(Birch): [green-large, green-large, red-medium]
expect:
  - count(p in apothecary(Birch) where p.colour == green and p.size == large) == 2
""")
    assert result.passed, result.failures


# --- dice rolled by effects are logged -------------------------------------------------------------

def test_a_roll_in_an_effect_is_logged(tmp_path: Path) -> None:
    """A die rolled outside any hook is logged with what it showed (here it sets a health, to compare)."""
    for shown in range(1, 7):
        result = run(tmp_path, f"""\
ruleset: iconica
players: 2
position:
  zones:
    party(Crimson): [Kestra]
    party(Azure): [Aelin]
  effect: |
    health(member(Azure, "Aelin")) = 10 * roll(d6)
expect_log:
  - "a d6 is rolled: "
expect:
  - health(member(Azure, "Aelin")) == {10 * shown}
""")
        if result.passed:
            break
    assert result.passed, result.failures
    assert f"a d6 is rolled: {shown}" in result.log


def test_a_roll_by_a_role_is_logged_as_that_roles(tmp_path: Path) -> None:
    """Dice of two sides rolled in one effect (an attacker's against a defender's) read 'a d6 is rolled: 5' each,
    nothing saying whose: roll(d6, by = r) logs 'Azure rolls a d6: 5'."""
    result = run(tmp_path, """\
ruleset: iconica
players: 2
position:
  zones:
    party(Crimson): [Kestra]
    party(Azure): [Aelin]
  effect: |
    health(member(Azure, "Aelin")) = 10 * roll(d6, by = Azure) + roll(d4, by = Crimson)
expect_log:
  - "Azure rolls a d6: "
  - "Crimson rolls a d4: "
""")
    assert result.passed, result.failures
    azure = next(int(line.rsplit(" ", 1)[1]) for line in result.log if line.startswith("Azure rolls a d6: "))
    crimson = next(int(line.rsplit(" ", 1)[1]) for line in result.log if line.startswith("Crimson rolls a d4: "))
    assert f"health of Aelin in party of Azure: 100 -> {10 * azure + crimson}" in result.log
    assert not any("is rolled" in line for line in result.log)


def test_a_roll_by_a_hidden_role_is_logged_as_its_seats(tmp_path: Path) -> None:
    """With roles dealt in secret the log names seats (as it does who acts): 'North rolls' would tell every seat."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: hidden\nplayers: [2]\ntypes:\n  side: [North, South]\nroles: {of: side, shuffle: true, "
                    "hidden: true}\ncounters:\n  pts: {per: role}\nturn:\n  - do: {effect: \"pts(current_role) += "
                    "roll(d6, by = current_role)\"}\nend: {when: turn >= 2}\nscoring: {rank: r in roles, by: [\"pts(r)\"], "
                    "points: key}\n", encoding="utf-8")
    s = engine.load(path).new_state(players=2, seed=1, record=True)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert [line.split(" rolls")[0] for line in s.log or [] if " rolls a d6: " in line] == ["seat 1", "seat 2"]


def test_a_load_error_in_a_checkpoint_expectation_is_positioned(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(CLASH + "actions:\n  - expect: [count(c in bord) == 1]\n")
    assert str(validate_scenario(path)[0].pos) == f"{path}:13:25"


def test_not_of_and_shows_both_true_sides(clash_state: engine.State) -> None:
    assert explain(clash_state.game, clash_state, parse_expression("not (current_role == Fire and count(c in board) == 3)")) == [
        "the current role is Fire and the number of c in board is 3 is true",
        "    the left side of 'and' is true: the current role is Fire",
        "        the current role = Fire, Fire = Fire",
        "    the right side of 'and' is true: the number of c in board is 3",
        "        the number of c in board = 3, 3 = 3"]


def test_a_choice_in_the_middle_of_an_effect_says_what_is_chosen(tmp_path: Path) -> None:
    """Crimson's Confused character hurts one of Crimson's own: the actions stop before Crimson picks which (the
    character the status's code runs for named, where it said 'self')."""
    shipped = Path(__file__).resolve().parents[1] / "rulesets/iconica/scenarios/status-confusion-even-hurt-mine.yaml"
    text = shipped.read_text(encoding="utf-8").replace("ruleset: iconica\n", "ruleset: " + str(shipped.parents[1] / "ruleset.yaml") + "\n")
    text = text.replace("  - choose Vex\n", "")
    result = run(tmp_path, text)
    assert result.failures[0].endswith(
        "the game is waiting for Crimson to choose c in the party of the owner of Crimson's Kestra where c is in play (asked by "
        "Confusion's on_act): choose Kestra or choose Vex")


def test_a_question_the_ruleset_wrote_is_quoted_where_the_game_waits(tmp_path: Path) -> None:
    """An auction asks its bid with `text = "your bid"`: a failure said `the game is waiting for seat1 to your bid`,
    as if every question a designer writes were a verb.  Their own words are quoted as the question answered."""
    ruleset = Path(__file__).resolve().parents[1] / "docs/examples/going-once/ruleset.yaml"
    result = run(tmp_path, f"""\
        ruleset: {ruleset}
        players: 2
        actions:
          - choose bid
        expect:
          - high_bid == 1
        """)
    assert result.failures[0].endswith('the game is waiting for seat1 to answer "your bid (you hold 10 coins)": 10 actions, such as choose 1')


def test_every_key_of_a_scenario_file_is_documented() -> None:
    """docs/rulesets.md names (as `key`) every key the scenario schema allows: the file, its position, its checkpoints."""
    import json

    root = Path(__file__).resolve().parents[1]
    schema = json.loads((root / "schemas/scenario.schema.json").read_text(encoding="utf-8"))
    keys = {*schema["properties"], *schema["properties"]["position"]["properties"], *schema["$defs"]["checkpoint"]["properties"]}
    guide = (root / "docs/rulesets.md").read_text(encoding="utf-8")
    assert sorted(key for key in keys if f"`{key}`" not in guide) == []


def test_a_side_that_decides_alone_is_the_only_one_evaluated(clash_state: engine.State) -> None:
    """`and` stops at a false left side, as the condition itself does: 1 / 0 is never worked out."""
    assert explain(clash_state.game, clash_state, parse_expression("count(c in board) == 0 and 1 / 0 == 1")) == [
        "the left side of 'and' is false: the number of c in board is 0",
        "    the number of c in board = 3, 0 = 0"]


@pytest.mark.parametrize("condition,lines", [
    ("all(count(c in hand(r)) == 0 for r in roles where seated(r))", [
        "for r = Fire: the number of c in the hand of r is 0 is false",
        "    the number of c in the hand of r = 1, 0 = 0"]),
    ("all(c in board where c.element != Air)", [
        "for c = Air/Air: the element of c is not Air is false",
        "    the element of c = Air, Air = Air"]),
    ("not any(c.element == Earth for c in board)", [
        "for some c in board, the element of c is Earth is true",
        "    for c = Earth/Earth: the element of c is Earth is true",
        "        the element of c = Earth, Earth = Earth"]),
    ("any(c in board where c.element == Fire)", ["for some c in board, the element of c is Fire = false"]),
])
def test_all_and_any_show_the_item_that_decides(clash_state: engine.State, condition: str, lines: list[str]) -> None:
    assert explain(clash_state.game, clash_state, parse_expression(condition)) == lines


def test_validate_reports_every_bad_expectation_not_only_the_first(tmp_path: Path) -> None:
    """Three mistakes in three places: one run of ``check --validate`` shows all three, each at its line."""
    path = tmp_path / "bad.yaml"
    path.write_text(CLASH + "expect: [count(c in bord) == 1, count(c in board) == 1, 3 + ]\n"
                    "actions:\n  - expect: [count(x in bored) == 1]\n")
    found = validate_scenario(path)
    assert [d.pos.line for d in found] == [12, 12, 14], [str(d) for d in found]
    assert "bord" in found[0].message and "bored" in found[2].message


def test_loaded_dice_reach_the_rolls_the_setup_and_the_first_turn_make(tmp_path: Path) -> None:
    """Without a position, ``dice:`` applies from the game's first roll: here the setup's, then the first turn's."""
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(textwrap.dedent("""\
        name: rolled-start
        extends: tutorial-tiles
        counters:
          gold: {per: role, min: 0}
        setup+:
          after: deal
          add:
            - name: purses
              do: |
                for r in roles where seated(r):
                  gold(r) = roll(d6)
        turn+:
          before: place
          add:
            - name: tithe
              do: {effect: "gold(current_role) += roll(d6)"}
        """))
    result = run(tmp_path, """\
        ruleset: game/ruleset.yaml
        players: 2
        dice: [6, 2, 3]
        expect:
          - gold(Sun) == 9 and gold(Star) == 2
        """)
    assert result.passed, result.failures


def test_a_ruleset_not_found_is_an_error_at_its_line_with_the_path_to_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario of one's own game naming it ('ruleset: my-game') is read from its folder, not from where one stands."""
    shutil.copytree(Path(__file__).resolve().parents[1] / "rulesets" / "tutorial-tiles", tmp_path / "my-game")
    path = tmp_path / "my-game" / "scenarios" / "mine.yaml"
    path.write_text("name: mine\nruleset: my-game\nplayers: 2\n")
    monkeypatch.chdir(tmp_path / "my-game")
    found = validate_scenario(path)
    assert [str(d.pos) for d in found] == [f"{path}:2:10"]
    assert found[0].message.startswith("unknown ruleset 'my-game'")
    assert found[0].hint == "a path is read from the scenario's folder: the ruleset in the folder above is 'ruleset: ..'"


def test_code_yaml_ended_at_a_comma_says_to_quote_it(tmp_path: Path) -> None:
    """In '[...]' YAML ends unquoted code at its first comma: 'max(1' ends too early, and the error says why."""
    path = tmp_path / "cut.yaml"
    path.write_text(CLASH + "expect: [count(c in board) == max(1, 2)]\n")
    first = validate_scenario(path)[0]  # (the second item, ' 2)', is an error of its own)
    assert (str(first.pos), first.hint) == (
        f"{path}:12:35", "YAML ended the code at a comma inside [...] or {...}: put the code in quotes")
    path.write_text(CLASH + "expect: ['count(c in board) == max(1, 2']\n")  # quoted: no comma to blame
    assert [d.hint for d in validate_scenario(path)] == [None]


def test_an_action_naming_a_cell_cut_at_its_comma_in_brackets_says_to_quote_it(tmp_path: Path) -> None:
    """``expect_offered: [choose 3,0, choose 3,2]``: YAML reads 'choose 3', 0, 'choose 3', 2; the error said only
    '0 is not a text (1: an action, e.g. `clash 1,0`)', with an example that looks like what was written."""
    path = tmp_path / "cut.yaml"
    path.write_text(CLASH + "actions: [place Fire/Fire as Fire at 1,0]\nexpect_offered: [clash 1,-1, pass]\n")
    found = [(str(d.pos), d.hint) for d in validate_scenario(path)]
    assert found == [
        (f"{path}:12:40", "YAML cut 'place Fire/Fire as Fire at 1,0' at its comma inside [...]: write "
                          "\"place Fire/Fire as Fire at 1,0\" in quotes, or the list one item a line (- place Fire/Fire as Fire at 1,0)"),
        (f"{path}:13:26", "YAML cut 'clash 1,-1' at its comma inside [...]: write \"clash 1,-1\" in quotes, "
                          "or the list one item a line (- clash 1,-1)")]
    path.write_text(CLASH + "expect_offered: [clash 1, 0]\n")  # a space after the comma: no cell was meant
    assert [d.hint for d in validate_scenario(path)][0] != found[1][1]


def test_a_loaded_die_the_game_cannot_roll_is_reported_at_that_die(tmp_path: Path) -> None:
    """A 9 loaded where a d6 is rolled: once only 'the next loaded die shows 9 ...', without a place (or at 1:1)."""
    shutil.copytree(Path(__file__).resolve().parents[1] / "docs" / "examples" / "tiles-with-dice", tmp_path / "game")
    path = tmp_path / "game" / "scenarios" / "dice.yaml"
    path.write_text("ruleset: ..\nplayers: 2\ndice: [1, 9, 2]\nactions:\n  - choose 1\n")  # three d6 before the choice
    assert run_scenario(path).failures[0].startswith(f"{path}:3:11: the next loaded die shows 9, but a d6 is rolled")
    assert [d.headline() for d in validate_scenario(path)] == [f"{path}:3:11: the next loaded die shows 9, but a d6 is rolled"]


def test_a_missing_log_line_shows_the_log_with_every_line_indented(tmp_path: Path) -> None:
    """The final scores, one log entry of two lines, printed its second line flush left, out of the failure."""
    text = "ruleset: tutorial-tiles\nplayers: 2\nseats: {Sun: 1, Moon: 2}\nexpect_log: [nobody says this]\nactions:\n"
    state = engine.load("tutorial-tiles").new_state(players=2, seed=0, seats={"Sun": 1, "Moon": 2, "Star": 0})
    while not state.is_terminal:
        action = state.legal_actions()[0]
        text += f"  - {action}\n"
        state.apply(action)
    failure = run(tmp_path, text).failures[0]
    assert "game over: 1." in failure
    assert all(line.startswith("    ") for line in failure.splitlines()[1:]), failure


def test_an_action_the_rulesets_code_fails_on_names_that_action(tmp_path: Path) -> None:
    """The failure was only 'ruleset.yaml:26:17: division by zero': not which action of the file set it off."""
    shutil.copytree(Path(__file__).resolve().parent / "data" / "failing-effect", tmp_path / "game")
    path = tmp_path / "game" / "boom.yaml"
    path.write_text("ruleset: .\nplayers: 2\nactions:\n  - choose A0\n")
    failures = run_scenario(path).failures
    assert failures[0].startswith(f"{path}:4:5: action 1: the ruleset failed while playing 'choose A0': ")
    assert failures[0].endswith("division by zero")


def test_a_counters_owner_written_as_code_says_to_name_it(tmp_path: Path) -> None:
    """``hits(nth(roles, 1)): 3`` under a position's counters was 'unknown counter' though the counter exists: the
    owner must be written by its name (or the value set in the position's effect), and the message says so."""
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(textwrap.dedent("""\
        name: counted
        extends: tutorial-tiles
        counters:
          hits: {per: role}
        """))
    result = run(tmp_path, """\
        ruleset: game/ruleset.yaml
        players: 2
        position:
          counters:
            hits(nth(roles, 1)): 3
        expect:
          - turn == 1
        """)
    assert not result.passed
    assert ("case.yaml:5:5: write the owner of hits by its name, like hits(Sun) (owners: Sun, Moon, Star), or set it "
            "from code in the position's effect (hits(nth(roles, 1)) = 3)") in result.failures[0], result.failures


def test_a_counter_of_identical_copies_written_by_their_shared_name_says_to_name_the_copy(tmp_path: Path) -> None:
    """``steps(Red): 5`` for pieces declared with ``count: 2`` was "'Red' has no steps (did you mean 'Red-2'?)",
    though every copy has the counter: the message now says to name the copy, and which copy a position's first
    Red is."""
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(textwrap.dedent("""\
        name: copies
        players: [2]
        components:
          piece:
            attributes: {n: int}
            instances:
              - {id: Red, n: 1, count: 2}
        board: {kind: square-grid, width: 4, height: 1}
        counters:
          steps: {per: piece}
        setup: "place(p in supply, (0, 0))"
        turn:
          - do: {effect: "steps(choose(p in board)) += 1"}
        end: {when: turn > 4}
        scoring: {rank: r in roles, by: [0], points: key}
        """))
    text = """\
        ruleset: game/ruleset.yaml
        position:
          board:
            "0,0": Red
            "3,0": Red
          counters:
            steps(OWNER): 5
        expect:
          - steps(at(0, 0)) == 5 and steps(at(3, 0)) == 0
        """
    result = run(tmp_path, text.replace("OWNER", "Red"))
    assert not result.passed
    assert ("case.yaml:7:5: 'Red' names 2 identical copies: write the copy, Red-1 to Red-2, like steps(Red-1) (a "
            "position gives out copies in the order it lists them, the board's before the zones': the first Red "
            "listed is Red-1)") in result.failures[0], result.failures
    assert run(tmp_path, text.replace("OWNER", "Red-1")).passed
    keyed = (tmp_path / "game" / "ruleset.yaml").read_text(encoding="utf-8").replace(
        "steps: {per: piece}", "steps: {per: piece, key: 1..2}").replace("steps(choose(p in board))", "steps(choose(p in board), 1)")
    (tmp_path / "game" / "ruleset.yaml").write_text(keyed, encoding="utf-8")
    text = text.replace("steps(OWNER)", "steps(OWNER, 2)").replace("steps(at(0, 0))", "steps(at(0, 0), 2)").replace(
        "steps(at(3, 0))", "steps(at(3, 0), 2)")
    # kept per copy and key, it was "... names none of its values (did you mean 'Red-2, 2'?)", not the first Red's copy
    result = run(tmp_path, text.replace("OWNER", "Red"))
    assert ("'Red' names 2 identical copies: write the copy, Red-1 to Red-2, like steps(Red-1, 2) (a position gives "
            "out copies") in result.failures[0], result.failures
    assert run(tmp_path, text.replace("OWNER", "Red-1")).passed


def test_set_options_for_a_scenario_as_set_does(tmp_path: Path) -> None:
    """A scenario could not set an option: a rule an option chooses needed a variant of its own to be pinned."""
    chain = CLASH + "set: {chain_reactions: true}\nactions:\n  - place Fire/Water as Fire at 0,0\n  - clash 1,0\n"
    assert run(tmp_path, chain + "expect:\n  - at(1, 0).element == Fire\nexpect_offered_include:\n  - clash 1,0 with 2,0\n").passed
    assert run(tmp_path, chain.replace("true}", "false}") + "expect:\n  - current_role == Water\n").passed


@pytest.mark.parametrize(("written", "where", "message"), [
    ("set: {chain_reaction: true}", "case.yaml:12:7", "no option 'chain_reaction' in this ruleset (options: "),
    ("set: {grid_width: wide}", "case.yaml:12:19", "option 'grid_width' holds a whole number (7 in the ruleset), not text"),
])
def test_a_wrong_option_set_by_a_scenario_is_refused_at_its_place(tmp_path: Path, written: str, where: str,
                                                                   message: str) -> None:
    result = run(tmp_path, CLASH + written + "\nactions:\n  - place Fire/Water as Fire at 0,0\n")
    assert not result.passed and f"{where}: {message}" in result.failures[0], result.failures


def test_a_ruleset_named_from_the_scenarios_folder_is_reported_at_its_own_path(tmp_path: Path) -> None:
    """``ruleset: ..`` from a scenarios folder: an error in that ruleset was reported at
    ``.../scenarios/../ruleset.yaml:4:10`` instead of the ruleset's own path."""
    game = tmp_path / "game"
    (game / "scenarios").mkdir(parents=True)
    (game / "ruleset.yaml").write_text("name: game\nextends: tutorial-tiles\noptions:\n  board_size: {default: three}\n")
    result = run(game / "scenarios", "ruleset: ..\nplayers: 2\nexpect:\n  - turn == 1\n")
    assert not result.passed
    assert f"{game / 'ruleset.yaml'}:4:" in result.failures[0] and "/../" not in result.failures[0], result.failures


@pytest.mark.parametrize("written, message", [
    ("rope(Sun): 2", "write the counter as rope: 'rope' is one number for the whole game (rope: 2)"),
    ("pull: 2", "write the counter as pull(ROLE): 'pull' is kept per role (pull(ROLE): 2)"),
])
def test_a_counter_written_in_the_wrong_form_says_how_it_is_kept(tmp_path: Path, written: str, message: str) -> None:
    """'rope(Sun): 2' for a counter of the whole game was told only "write the counter as rope"."""
    (tmp_path / "ruleset.yaml").write_text("name: kept\nextends: tutorial-tiles\ncounters:\n  rope: {start: 0}\n"
                                           "  pull: {per: role, start: 0}\n", encoding="utf-8")
    path = tmp_path / "case.yaml"
    path.write_text(f"ruleset: ruleset.yaml\nposition:\n  seats: {{Sun: 1, Moon: 2, Star: absent}}\n  counters:\n"
                    f"    {written}\nactions: []\n", encoding="utf-8")
    result = run_scenario(path)
    assert [f.split("\n")[0] for f in result.failures] == [f"{path}:5:5: {message}"], result.failures


# --- a position from the ruleset's setup -----------------------------------------------------------

QUORIDOR = f"ruleset: {Path(__file__).resolve().parents[1] / 'docs/examples/quoridor/ruleset.yaml'}\nplayers: 2\n"


def test_a_position_from_setup_keeps_the_setups_furniture_and_moves_what_it_lists(tmp_path: Path) -> None:
    """Quoridor's setup places 64 posts and gives ten walls each: the position moves a pawn and puts a wall in,
    the post where the wall goes ends in the supply, and nothing is placed twice."""
    result = run(tmp_path, QUORIDOR + """\
position:
  from_setup: true
  board:
    "8,8": South
    "8,5": wall
    "9,5": wall
    "10,5": wall
  counters: {walls_left(North): 3}
expect:
  - at(8, 8).id == "South" and at(8, 16) == none and at(8, 0).id == "North"
  - count(p in board where p.id == "South") == 1
  - at(9, 5).id == "wall" and at(8, 5).id == "wall" and at(10, 5).id == "wall"
  - count(p in board where p.id == "post") == 63 and count(p in supply where p.id == "post") == 1
  - count(p in board where p.id == "wall") == 3
  - walls_left(South) == 10 and walls_left(North) == 3
  - current_role == South
""")
    assert result.passed, result.failures


def test_a_position_from_setup_lists_zones_exactly_and_empties_cells(tmp_path: Path) -> None:
    """Three players: the setup puts the absent element's Water/Water on 0,0 and deals five cards a hand.  Emptying
    the cell sends the card to the supply; a hand listed holds exactly what is listed, its other cards going to the
    supply, the listed card taken from another hand."""
    result = run(tmp_path, """\
ruleset: iconoclasm-cards
players: 3
position:
  from_setup: true
  board:
    "0,0": []
    "1,0": Air/Fire as Fire
  zones:
    hand(Fire): [Earth/Earth, Fire/Fire]
expect:
  - at(0, 0) == none and at(1, 0).element == Fire
  - count(c in board) == 1
  - count(c in hand(Fire)) == 2 and first(c in hand(Fire)).id == "Earth/Earth"
  - count(c in hand(Earth)) == 4 and count(c in hand(Air)) == 4
  - count(c in supply) == 5
""")
    assert result.passed, result.failures


def test_a_position_from_setup_deals_the_seats_it_writes(tmp_path: Path) -> None:
    result = run(tmp_path, """\
ruleset: iconoclasm-cards
players: 2
position:
  from_setup: true
  seats: {Air: 1, Fire: 2, Earth: 1, Water: 2}
  turn: Fire
expect:
  - seat(Air) == 1 and seat(Fire) == 2 and current_role == Fire
  - all(count(c in hand(r)) == 4 for r in roles)
""")
    assert result.passed, result.failures


@pytest.mark.parametrize("position,where", [
    ('  board:\n    "8,8": South\n    "8,6": South\n', "7:12: South is listed twice (first at line 6)"),
    ('  board:\n    "18,0": wall\n', "6:5: cell 18,0 is not on the board"),
    ('  board:\n    "1,1": wall\n    "1, 1": []\n', "7:5: cell 1, 1 is listed twice"),
    ('  zones:\n    supply: [post]\n', "6:5: 'supply' takes what the position sets aside, so it cannot be listed exactly"),
    ('  zones:\n    hand: [post]\n', "6:5: unknown zone 'hand'"),
    ('  board:\n    "8,8": Pawn\n', "6:12: unknown component 'Pawn'"),
])
def test_a_position_from_setup_that_cannot_work_is_refused_at_its_place(tmp_path: Path, position: str, where: str) -> None:
    result = run(tmp_path, QUORIDOR + "position:\n  from_setup: true\n" + position)
    assert len(result.failures) == 1 and f"case.yaml:{where}" in result.failures[0], result.failures


def test_an_unknown_component_near_no_name_lists_the_names(tmp_path: Path) -> None:
    """A name the ruleset spells otherwise (a card printed "✱", named star, also "*") is near no name: the
    message lists the names a position may use, so the reader finds the one meant."""
    (tmp_path / "case.yaml").write_text('ruleset: nine-domains\nplayers: 2\nposition:\n  zones:\n'
                                        '    hand(East): ["\u2731"]\n', encoding="utf-8")
    result = run_scenario(tmp_path / "case.yaml")
    assert len(result.failures) == 1, result.failures
    assert "5:18: unknown component '\u2731' (the components are named: 0, 1, 2, 3, 4, 5, 1-," in result.failures[0]
    assert " 4+, star, volcano," in result.failures[0]


def test_a_component_written_in_words_is_told_its_id(tmp_path: Path) -> None:
    """A rulebook's "Red large" (a Spell Component) for the id red-large was told only to write 'ID' or 'ID as FACE'."""
    (tmp_path / "case.yaml").write_text('ruleset: spell-cycles\nplayers: 2\nposition:\n  board:\n'
                                        '    "3,3": Red large\n', encoding="utf-8")
    result = run_scenario(tmp_path / "case.yaml")
    assert len(result.failures) == 1, result.failures
    assert ("5:12: 'Red large' is not a component (write 'ID' or 'ID as FACE') (did you mean 'red-large'?)"
            in result.failures[0]), result.failures


def test_a_written_position_still_starts_from_an_empty_table(tmp_path: Path) -> None:
    """Without from_setup (or with it false) nothing of the setup is kept: no post, no wall to place."""
    for flag in ("", "  from_setup: false\n"):
        result = run(tmp_path, QUORIDOR + "position:\n" + flag + '  board:\n    "8,8": South\n    "8,0": North\n' + """\
expect:
  - count(p in board) == 2 and walls_left(South) == 0
""")
        assert result.passed, result.failures


# --- a written position holds only what a game holds ------------------------------------------------

def test_a_piece_out_of_a_growing_boards_reach_is_an_error_at_its_cell(tmp_path: Path) -> None:
    """A first piece at 1000000000,1000000000 fitted the board's 7x7 limits (nothing else on it yet) and was set up:
    the game then offered cells next to it, 10**9 away from any cell a game reaches."""
    text = CLASH.replace('    "1,0": Water/Fire as Water\n    "2,0": Air/Air\n    "0,1": Earth/Earth\n',
                         '    "1000000000,1000000000": Water/Fire as Water\n')
    result = run(tmp_path, text)
    where = ("case.yaml:6:5: cell 1000000000,1000000000 is out of this growing board's reach: its first piece goes at "
             "0,0 and each next one beside another, so with 16 components and its max_width and max_height a piece "
             "stands at most 6 across and 6 down from 0,0")
    assert len(result.failures) == 1 and where in result.failures[0], result.failures


GLYPHS = """\
ruleset: hex-glyphs
players: 2
position:
  seats: {Amber: 1, Jade: 2}
  board:
    "0,0": red
"""


@pytest.mark.parametrize(("extra", "where"), [
    ("  counters: {renown(Amber): -3}\n",
     "case.yaml:7:14: renown(Amber): -3 is out of the counter's min 0: every change of a counter is kept within them, "
     "so no game holds it"),
    ("  turn_number: 201\n", "case.yaml:7:16: turn_number 201 is no turn of this game: turns are counted from 1 to "
                             "its max_turns, 200"),
    ("  turn_number: 1000000000\n", "case.yaml:7:16: turn_number 1000000000 is no turn of this game"),
])
def test_a_number_no_game_holds_is_an_error_at_its_line(tmp_path: Path, extra: str, where: str) -> None:
    """A counter below its fixed min and a turn number after the last were set up as written (a counter's change is
    clamped to its min and max; turns end by max_turns; the schema keeps turn_number from 1)."""
    result = run(tmp_path, GLYPHS + extra)
    assert len(result.failures) == 1 and where in result.failures[0], result.failures
    assert run(tmp_path, GLYPHS + "  counters: {renown(Amber): 3}\n  turn_number: 200\n").passed


def test_a_log_line_holding_a_colon_read_as_a_mapping_says_to_quote_it(tmp_path: Path) -> None:
    """``expect_log: [- ... is turned up: S-ship]``: YAML reads a mapping of one key; the error said only that it is not
    a text, with the schema's example of a log line, which has no colon to blame."""
    path = tmp_path / "colon.yaml"
    path.write_text(CLASH + "expect_log:\n  - Fire/Fire is placed: at 0,0\n")
    found = [(str(d.pos), d.hint) for d in validate_scenario(path)]
    assert found == [(f"{path}:13:5", 'YAML read the text as a mapping at its colon: write it in quotes, '
                                      '"Fire/Fire is placed: at 0,0"')], found


def test_the_quoted_log_line_told_is_one_yaml_reads_back(tmp_path: Path) -> None:
    """A log line holding a double quote and a colon was told to be written "Fire "hot": at 0,0", which YAML cannot
    read: the text told is quoted and escaped as YAML reads it."""
    path = tmp_path / "colon.yaml"
    path.write_text(CLASH + 'expect_log:\n  - Fire "hot" is placed: at 0,0\n')
    (hint,) = [d.hint for d in validate_scenario(path)]
    assert yaml.safe_load(hint.split("write it in quotes, ", 1)[1]) == 'Fire "hot" is placed: at 0,0', hint


def test_a_mapping_written_in_braces_is_not_told_to_be_quoted(tmp_path: Path) -> None:
    """``- {Fire is placed: here}`` is a mapping the designer wrote, not a text YAML cut at its colon: it was told
    to quote "Fire is placed: here", as if the braces were not there."""
    path = tmp_path / "braces.yaml"
    path.write_text(CLASH + "expect_log:\n  - {Fire is placed: here}\n")
    (hint,) = [d.hint for d in validate_scenario(path)]
    assert "colon" not in (hint or ""), hint


GIVE_THEN_PLACE = """\
name: give-then-place
players: [2]
types: {side: [A, B]}
roles: {of: side}
board: {width: 3, height: 1}
components:
  piece: {instances: [P1, P2, P3]}
zones:
  pool: {kind: pile}
  given: {kind: pile}
setup: move(p in pieces, pool)
turn:
  - place: {if: count(given) > 0, from: given, face: as-is, touching: false}
  - do:
      if: count(pool) > 0
      effect: |
        let p = choose(x in pool, text = "the piece your rival places")
        move(x in pool where x == p, given)
end:
  when: count(board) == 3
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_written_position_does_not_inherit_the_question_the_setups_first_turn_asked(tmp_path: Path) -> None:
    """The real setup's first turn stops at a choice among the whole pool; a written position whose turn begins
    with a placement is played from that placement (it was refused as not answering the setup's question)."""
    (tmp_path / "ruleset.yaml").write_text(GIVE_THEN_PLACE)
    result = run(tmp_path, """\
        ruleset: ruleset.yaml
        position:
          seats: {A: 1, B: 2}
          zones: {given: [P2], pool: [P3]}
          turn: B
        actions:
          - place P2 at 1,0
        expect:
          - at(1, 0).id == "P2"
          - count(given) == 1
        """)
    assert result.passed, result.failures


def test_expectations_name_the_seats_of_a_game_without_roles(tmp_path: Path) -> None:
    """A scenario's position wrote ``banked(seat1): 27``, but its ``expect`` lines could only say ``banked(nth(roles,
    1))``: ``banked(seat1)`` was an unknown name.  A failing one is explained with the seat's name too."""
    shutil.copytree(Path(__file__).resolve().parents[1] / "docs" / "examples" / "pig", tmp_path / "pig")
    path = tmp_path / "seats.yaml"
    path.write_text(textwrap.dedent("""\
        ruleset: pig
        players: 2
        position:
          counters:
            banked(seat1): 27
        expect:
          - banked(seat1) == 27 and banked(seat2) == 0 and current_role == seat1
          - banked(seat2) == 5
    """), encoding="utf-8")
    result = run_scenario(path)
    assert not result.passed
    failures = "\n".join(result.failures)
    assert "seats.yaml:7:" not in failures and "seats.yaml:8:" in failures  # the first holds, the second is false
    assert "the banked of seat2 = 0, 5 = 5" in failures


@pytest.mark.parametrize("counters,where", [
    ("    jumps(Blue): 0\n    jumps( Blue ): 1\n", "s.yaml:9:5: jumps( Blue ) is jumps(Blue) again, listed before (line 8)"),
    ("    trail(1,0): 1\n    trail(1, 0): 2\n", "s.yaml:9:5: trail(1, 0) is trail(1,0) again, listed before (line 8)"),
])
def test_a_counter_written_twice_in_other_spellings_is_an_error_at_its_line(tmp_path: Path, counters: str,
                                                                             where: str) -> None:
    """YAML refuses a key written twice, but not the one counter named in two spellings: the last value was kept
    without a word, as a cell written twice so is refused."""
    shutil.copytree(Path(__file__).parents[1] / "docs" / "examples" / "trails", tmp_path / "trails")
    path = tmp_path / "trails" / "s.yaml"
    path.write_text("ruleset: ruleset.yaml\nplayers: 2\nposition:\n  board:\n    0,0: Blue\n    6,6: Orange\n"
                    "  counters:\n" + counters)
    result = run_scenario(path)
    assert len(result.failures) == 1 and where in result.failures[0], result.failures
    assert "a counter has one value" in result.failures[0]


def test_none_as_an_expectation_is_refused_where_it_is_written() -> None:
    """``expect: [none]`` was run, and failed as "expected none, in words: nothing, found: nothing = nothing", where
    the word none in place of a condition is refused everywhere else when the file is read."""
    game = engine.load("tic-tac-toe")
    with pytest.raises(RulesetError, match="an expectation must be true or false, not none"):
        compile_expectation(game, "none")
    assert compile_expectation(game, "winners == none or true").holds(game.new_state(players=2))
