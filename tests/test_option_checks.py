"""``options: NAME: {check: CONDITION}``: a value that fails its option's check, given the other options and the
components, is refused at load, at the value, in words (Spell Cycles' line of spells and its four stashes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.explain import explain
import engine

CHECK_FAILS = "option 'line_length' is 12, but its check does not hold: line_length is at least 1"


def test_four_stashes_refuse_a_line_longer_than_their_eleven_spells() -> None:
    """Eleven spells of the deck name only red, yellow, green and blue: a line of 12 would be dealt 11."""
    with pytest.raises(engine.RulesetError) as info:
        engine.load("spell-cycles", "four-stashes", set_options={"line_length": "12"})
    [refused] = [d for d in info.value.diagnostics if not d.message.startswith("note:")]
    assert refused.message.startswith(CHECK_FAILS)
    assert refused.pos is not None and refused.pos.file == "set_options['line_length']"
    assert refused.hint is not None and "eleven with four stashes" in refused.hint


def test_eleven_spells_with_four_stashes_and_twelve_with_six_are_played() -> None:
    four = engine.load("spell-cycles", "four-stashes", set_options={"line_length": "11"})
    for game in (four, engine.load("spell-cycles", set_options={"line_length": "12"})):
        state = game.new_state(players=2, seed=3)
        assert game.broken_invariants(state) == [] and len(state.zones[game.zone_index[("line", None)]]) == game.options["line_length"]


def test_a_line_of_no_spell_is_refused_before_its_setup_fails() -> None:
    """The check is read before the setup runs: the setup's own failure (no first spell to put the Crescents on) is
    not what the designer is told."""
    with pytest.raises(engine.RulesetError) as info:
        engine.load("spell-cycles", set_options={"line_length": "0"})
    messages = [d.message for d in info.value.diagnostics if not d.message.startswith("note:")]
    assert len(messages) == 1 and messages[0].startswith("option 'line_length' is 0, but its check does not hold")


def test_a_default_failing_its_check_is_refused_at_the_default(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: long-line\nextends: spell-cycles\noptions:\n  line_length: {default: 30}\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(path))
    [refused] = info.value.diagnostics
    assert refused.pos is not None and (refused.pos.file, refused.pos.line) == (str(path), 4)
    assert refused.message.startswith("option 'line_length' is 30, but its check does not hold")


def test_a_check_that_is_no_condition_is_an_error_at_the_check(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: checked\nextends: spell-cycles\noptions:\n  line_length: {default: 8, check: lenght > 2}\n",
                    encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(path))
    [wrong] = info.value.diagnostics
    assert wrong.pos is not None and wrong.pos.line == 4 and "lenght" in wrong.message


def test_explain_tells_the_check_beside_the_option() -> None:
    [line] = [x for x in explain(engine.load("spell-cycles")) if x.strip().startswith("line_length = 8:")]
    assert line.endswith("(it must hold that line_length is at least 1 and line_length is at most the number of sp in "
                         "spells where not (for some k in [red, yellow, green, blue, white, black], k is in the pattern "
                         "of sp and not (k is in stashes)))")


@pytest.mark.parametrize("check, found", [
    ("line_length / (line_length - 8) > 0", "6:24: option 'line_length' is 8, and its check cannot be read for it: "
                                            "division by zero"),
    ("all(line_length > 0 for n in numbers(1, 1000000))",
     "6:41: option 'line_length' is 8, and its check cannot be read for it: numbers(1, 1000000) would list 1000000 "
     "numbers; at most 10000 are allowed"),
    ("count(n in numbers(1, 9000) where count(m in numbers(1, 20) where m > n) >= line_length) >= 0",
     "option 'line_length' is 8, and its check cannot be read for it: effect ran out of its step budget"),
])
def test_a_check_that_cannot_be_read_is_refused_at_its_fault(tmp_path: Path, check: str, found: str) -> None:
    """A check that failed with an error (a division by zero, the step budget spent) let every value by, without a
    word: the load went on as though it held."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(f"name: checked\nextends: spell-cycles\noptions:\n  line_length:\n    default: 8\n    check: {check}\n",
                    encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(path))
    [wrong] = info.value.diagnostics
    assert found in f"{wrong.pos.line}:{wrong.pos.col}: {wrong.message}", wrong
