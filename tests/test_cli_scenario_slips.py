"""A newcomer's slips in a scenario file: rulecraft check says which seat is wrong, and that a refused action stopped the run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from engine.core.paths import find_ruleset


def check_changed(tmp_path: Path, old: str, new: str) -> list[str]:
    """``rulecraft check`` on a copy of the tutorial whose scenario has ``old`` written ``new``; what it prints."""
    folder = tmp_path / "game"
    shutil.copytree(find_ruleset("tutorial-tiles").parent, folder)
    scenario = next((folder / "scenarios").glob("*.yaml"))
    text = scenario.read_text(encoding="utf-8")
    assert old in text
    scenario.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return [line.strip() for line in result.output.replace(f"{folder}/scenarios/", "").splitlines()]


@pytest.mark.parametrize("new, message", [
    ("seats: {Sun: 1, Moon: 3, Star: absent}", "sun-beats-moon.yaml:6:25: seats must use 1..2 for 2 players: there is no "
     "seat 3 for Moon"),
    ("seats: {Sun: 1, Moon: 1, Star: absent}", "sun-beats-moon.yaml:6:10: seats must use 1..2 for 2 players: no role sits "
     "at seat 2"),
    ("seats: {Sun: one, Moon: 2, Star: absent}", "sun-beats-moon.yaml:6:16: position/seats/Sun: 'one' is not a whole "
     "number or 'absent' (Sun: the seat (1..players) that plays this role, or `absent`)"),
    ("seats: {Sun: 1, Moon: 2, Star: absnet}", "sun-beats-moon.yaml:6:34: position/seats/Star: 'absnet' is not a whole "
     "number or 'absent' (did you mean 'absent'?)"),
])
def test_seats_that_do_not_fit_the_players_say_which(tmp_path: Path, new: str, message: str) -> None:
    assert message in check_changed(tmp_path, "seats: {Sun: 1, Moon: 2, Star: absent}", new)


def test_a_refused_action_is_told_once_and_what_it_left_unchecked(tmp_path: Path) -> None:
    """After an action refused where none was expected, every expectation at the end failed too, each with its
    own block (the board's, the log's), though the run had stopped at the refusal."""
    lines = check_changed(tmp_path, "place Sun/Moon as Sun at 0,0", "place Sun/Moon as Sun at 5,5")
    assert [line for line in lines if "sun-beats-moon.yaml:" in line] == [
        "sun-beats-moon.yaml:13:5: action 1: action 'place Sun/Moon as Sun at 5,5' was refused: cell 5,5 does not "
        "touch any piece"]
    assert "the run stopped here; not checked: the expectations at the end (expect, expect_log)" in lines


def test_an_unknown_variant_a_scenario_names_is_reported_at_its_variant_key(tmp_path: Path) -> None:
    """A scenario's 'variant: [nope]' was told only "unknown variant 'nope' (...)", with no place in any file: the
    ruleset's files name no such variant, the scenario does."""
    folder = tmp_path / "ttt"
    shutil.copytree(find_ruleset("tic-tac-toe").parent, folder)
    scenario = folder / "scenarios" / "a-variant.yaml"
    scenario.write_text("name: a variant nobody declared\nruleset: ..\nvariant: [nope]\nactions: []\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 1
    assert f"{scenario}:3:10: unknown variant 'nope' (known variants: none" in " ".join(result.output.split()), result.output


def test_one_action_or_expectation_without_a_list_is_told_the_brackets(tmp_path: Path) -> None:
    """``actions: place Sun/Moon as Sun at 0,0`` was told "is not a list (like [a, b]) or empty" with a long
    description; it now says how to write a list of one, quoted where YAML would cut it at the comma."""
    lines = check_changed(tmp_path, "actions:\n  - place Sun/Moon as Sun at 0,0", "actions: place Sun/Moon as Sun at 0,0")
    assert ("sun-beats-moon.yaml:12:10: actions: 'place Sun/Moon as Sun at 0,0' is not a list (like [a, b]) or empty (a "
            "list of one is written in brackets: actions: ['place Sun/Moon as Sun at 0,0'])") in lines


def test_a_long_refused_action_is_quoted_cut(tmp_path: Path) -> None:
    """An action of 7,000 characters refused was quoted whole (the refusal itself cut it): it is cut as every long
    value a message quotes is, with its length; so is one expected to be refused but accepted, and an expected error."""
    long = "place Sun/Moon as Sun at " + "9" * 7000
    lines = check_changed(tmp_path / "refused", "place Sun/Moon as Sun at 0,0", long)
    said = next(line for line in lines if "was refused" in line)
    assert said.startswith(f"sun-beats-moon.yaml:13:5: action 1: action '{long[:200]}... (7,025 characters)' was "
                           "refused: "), said[:400]
    assert len(said) < 2_400, len(said)  # the quote cut, and the refusal as IllegalActionError cuts it (2,000)
    lines = check_changed(tmp_path / "accepted", "place Sun/Moon as Sun at 0,0",
                          "action: place Sun/Moon as Sun at 0,0\n    expect_error: " + "x" * 7000)
    said = next(line for line in lines if "but it was accepted" in line)
    assert said == (f"sun-beats-moon.yaml:13:13: action 1: expected 'place Sun/Moon as Sun at 0,0' to fail with '{'x' * 200}"
                    "... (7,000 characters)', but it was accepted"), said[:400]


def test_an_answer_written_for_a_forced_choice_is_told_it_was_answered_without_asking(tmp_path: Path) -> None:
    """A Guard with one player to choose asks only the rank: a scenario that wrote 'choose seat2' as well was told only
    that it answered no question, and its writer did not see why."""
    examples = Path(__file__).parents[1] / "docs" / "examples"
    folder = tmp_path / "court"
    shutil.copytree(examples / "court-letters", folder)
    scenario = folder / "scenarios" / "a-guard-naming-the-card-ends-the-round-and-deals-everyone-in-again.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("  - choose Guard\n", "  - choose Guard\n  - choose seat2\n", 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 1 and "'choose seat2' does not answer the question (name a rank)" in result.output
    assert ("a question with a single option is answered without asking (unless always_ask = true), and so is not "
            "written in a scenario: if this action answered one, leave it out") in result.output


def test_an_action_the_game_took_by_itself_is_told_so(tmp_path: Path) -> None:
    """A card placed beside a single neighbour clashes with it without asking: a rule case that wrote the clash was
    told only that it was no placement, and its writer did not see that the game had played it."""
    scenario = tmp_path / "case.yaml"
    scenario.write_text("""\
ruleset: iconoclasm-cards
players: 4
position:
  seats: {Fire: 1, Water: 2, Earth: 3, Air: 4}
  board:
    "0,0": Water/Earth as Water
  zones:
    hand(Fire): [Fire/Air]
    hand(Water): [Water/Water]
actions:
  - place Fire/Air as Fire at 1,0
  - clash 0,0
""", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 1 and "'clash 0,0' is not a placement" in result.output, result.output
    assert ("no action offered now starts with 'clash': if the game took the only one by itself, leave it out (a "
            "decision with a single option is played without asking, unless always_ask = true)") in result.output


def test_an_action_holding_a_colon_is_told_to_quote_it(tmp_path: Path) -> None:
    """Iconica's actions read 'white: Brask 3 Sucker Punch': written unquoted, YAML made it a mapping, refused with
    only the checkpoint's known keys."""
    scenario = tmp_path / "case.yaml"
    scenario.write_text("ruleset: iconica\nplayers: 2\nposition:\n  zones:\n    party(Crimson): [Brask]\n"
                        "    party(Azure): [Sable]\ndice: [3, 1]\nactions:\n  - white: Brask 3 Sucker Punch\n",
                        encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 1, result.output
    assert ("case.yaml:9:5: unknown key 'white' in actions/0 (an action holding ': ' is read as a mapping: quote it, "
            '- "white: Brask 3 Sucker Punch")') in result.output


def test_an_answer_quoted_as_its_yaml_id_is_told_to_drop_the_quotes(tmp_path: Path) -> None:
    """Ballots named Yes and No are quoted in the ruleset ("Yes": YAML reads Yes as true), and a scenario written
    'choose "Yes"' the same way was refused with the options, choose Yes among them, and no word that the quotes
    were the trouble."""
    examples = Path(__file__).parents[1] / "docs" / "examples"
    folder = tmp_path / "missions"
    shutil.copytree(examples / "missions", folder)
    scenario = folder / "scenarios" / "one-fail-fails-the-mission.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("  - choose Yes\n", '  - choose "Yes"\n', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 1, result.output
    assert ("""'choose "Yes"' does not answer the question (vote for the team); the options are: choose Yes, choose No """
            "(an option is written as listed, without quotes: choose Yes)") in result.output, result.output
