"""An attribute named like a hook whose values are code, which nothing runs, is a problem at its declaration."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cli.main import main

LOSER = """\
name: losers
extends: nine-domains
components:
  card:
    attributes:
      on_lose: text
    instances+:
      - id: "9x"
        value: 3
        sign: plus
        special: true
        rule: When this card loses, its owner takes a token.
        on_lose: move(t in supply where t.kind == "token", vp_tokens(owner(self)), 1)
"""


def validate(tmp_path: Path, text: str) -> tuple[int, str]:
    folder = tmp_path / "losers"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output.replace(f"{folder}/", "")


def test_a_hook_nothing_runs_is_reported_with_the_hooks_that_do_run(tmp_path: Path) -> None:
    """'on_lose' on a card of a ruleset extending nine-domains validated "ok", though the contest step runs only
    'on_win': the card's program never ran."""
    code, output = validate(tmp_path, LOSER)
    assert code == 1
    assert ("ruleset.yaml:6:7: attribute 'on_lose' of card holds code, but no step, section or code names it, so "
            "nothing runs it (steps or code here run modifier, beats, loses_to, on_win; a step runs the attribute its "
            "settings name, like a contest's 'on_win: on_win', and perform(c, on_lose) runs one 'programs: [on_lose]' "
            "lists)") in output, output


def test_a_hook_another_program_performs_is_not_reported(tmp_path: Path) -> None:
    text = LOSER + "programs: [on_lose]\n"
    text = text.replace("        rule: When this card loses", "        on_win: perform(self, on_lose)\n        rule: When this card wins")
    code, output = validate(tmp_path, text)
    assert code == 0 and "on_lose" not in output, output


def test_an_english_text_named_like_a_hook_is_not_code(tmp_path: Path) -> None:
    code, output = validate(tmp_path, LOSER.replace('on_lose: move(t in supply where t.kind == "token", '
                                                    'vp_tokens(owner(self)), 1)', "on_lose: Its owner takes a token."))
    assert code == 0, output


def test_code_in_an_attribute_of_any_name_that_nothing_runs_is_reported(tmp_path: Path) -> None:
    """Regression: only attributes named 'on_...' were looked at, so 'when_lost: text' holding code nobody runs
    validated ok."""
    code, output = validate(tmp_path, LOSER.replace("on_lose", "when_lost"))
    assert code == 1
    assert "ruleset.yaml:6:7: attribute 'when_lost' of card holds code, but no step, section or code names it" in output


def test_a_name_in_english_or_as_a_key_does_not_run_an_attribute(tmp_path: Path) -> None:
    """Regression: any mention of the name outside the components silenced the check — a description saying it, or
    a step's key of the same name ('do: {effect: ...}' runs no attribute 'effect'), or a card's rule."""
    text = LOSER.replace("on_lose", "effect").replace(
        "name: losers\n", "name: losers\ndescription: Each card's effect happens when it loses.\n")
    text += 'turn+:\n  - do: {effect: "elements_ignored += 0"}\n'
    text = text.replace("rule: When this card loses", "rule: When this card loses, its effect")
    code, output = validate(tmp_path, text)
    assert code == 1 and "attribute 'effect' of card holds code" in output, output


def test_an_attribute_no_component_gives_is_a_note(tmp_path: Path) -> None:
    """An attribute a component leaves out reads none (shipped rulesets rely on it); one that no component of its
    kind gives was silent too, though every component then reads none: validate notes it, and the ruleset is valid."""
    text = "name: losers\nextends: tic-tac-toe\ncomponents:\n  token:\n    attributes: {mark: mark, power: int}\n"
    code, output = validate(tmp_path, text)
    assert code == 0, output
    assert "note: ruleset.yaml:5:30: attribute 'power' of token is given by no token, so every token reads none" in output
    code, output = validate(tmp_path / "given", text.replace("power: int}", "power: int}\n    instances:\n"
                                                             "      - {id: X, mark: X, count: 5, power: 1}\n"
                                                             "      - {id: O, mark: O, count: 4}\n"))
    assert code == 0 and "given by no" not in output, output  # one left out: a value left out is none, as documented


def test_a_zone_nothing_names_is_a_note(tmp_path: Path) -> None:
    """A zone left over from a draft (blackjack's 'used' pile, which the deal never used) validated "ok" with no word:
    validate notes it, and the ruleset is valid."""
    text = "name: losers\nextends: tic-tac-toe\nzones:\n  used: {kind: pile}\n"
    code, output = validate(tmp_path, text)
    assert code == 0, output
    assert "note: ruleset.yaml:4:3: zone 'used' is named by no step, setting or code, so nothing is ever put there" in output
    code, output = validate(tmp_path / "named", text + "running_score: count(used)\n")
    assert code == 0 and "zone 'used'" not in output, output


def test_a_deal_that_moves_the_same_component_again_is_a_note(tmp_path: Path) -> None:
    """A game of hidden sides dealt each player a Yes ballot with move(b in ballots where b.yes, voting(r), 1) in a
    loop over the roles: a kind's list holds every ballot wherever it lies, so each pass took the Yes the pass before
    had dealt, the last player ended with it and nothing said so. validate notes it, and the ruleset is valid; dealt
    from the supply, or by a test reading the loop's role, it is not noted."""
    text = ("name: ballots\nextends: tic-tac-toe\ncomponents:\n  ballot:\n    attributes: {yes: bool}\n"
            "    instances: [{id: Aye, yes: true, count: 2}]\nzones:\n  voting: {kind: hand, per: role}\n"
            "setup: |\n  for r in roles:\n    move(t in tokens where t.mark == r, marks(r))\n"
            "    move(b in ballots where b.yes, voting(r), 1)\n")
    code, output = validate(tmp_path, text)
    assert code == 0, output
    assert ("note: ruleset.yaml:12:5: move() with a count takes the first ballots its test finds wherever they lie, so "
            "each pass of this loop over r may take a ballot the pass before moved to the voting of r") in output, output
    for fixed in ("b in supply and b.yes", "b.yes and r != none"):
        code, output = validate(tmp_path / fixed.split()[-1], text.replace("b.yes,", f"{fixed},"))
        assert code == 0 and "move() with a count" not in output, output
