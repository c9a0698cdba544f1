"""``options: NAME: {values: [...]}``: an option limited to the values a ruleset knows refuses any other, at its line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine


def test_a_value_the_ruleset_knows_is_accepted() -> None:
    for value in ("ring", "dealt", "spread"):
        game = engine.load("iconoclasm", set_options={"start_hexes": value})
        assert game.options["start_hexes"] == value


def test_another_value_is_refused_with_the_values_and_a_did_you_mean() -> None:
    with pytest.raises(engine.RulesetError) as info:
        engine.load("iconoclasm", set_options={"start_hexes": "spred"})
    assert "option 'start_hexes' may be ring, dealt, spread, not 'spred' (did you mean 'spread'?)" in str(info.value)
    assert "set_options['start_hexes']: option 'start_hexes' may be" in str(info.value)


def test_a_number_outside_the_values_gets_no_did_you_mean(tmp_path: Path) -> None:
    """``size: 13`` against values 3..11 was told "did you mean '3'?": digits alike are no typo."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: sized\nextends: tutorial-tiles\noptions:\n  board_size: {default: 3, values: [3, 5, 7, 9, 11]}\n",
                    encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(path), set_options={"board_size": "13"})
    assert "option 'board_size' may be 3, 5, 7, 9, 11, not 13" in str(info.value)
    assert "did you mean" not in str(info.value)


def test_a_default_outside_its_values_is_an_error_at_the_default(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: odd\nextends: iconoclasm\noptions:\n  start_hexes: {default: circle}\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError, match=r"ruleset.yaml:4:26: option 'start_hexes' may be ring, dealt, spread, not 'circle'"):
        engine.load(str(path))


def test_a_default_its_uses_cannot_take_is_one_error_at_the_default(tmp_path: Path) -> None:
    """``board_size: {default: three}`` was four errors at the four uses, none at the option."""
    text = (Path(__file__).parents[1] / "rulesets/tutorial-tiles/ruleset.yaml").read_text(encoding="utf-8")
    assert "    default: 3\n" in text
    (tmp_path / "ruleset.yaml").write_text(text.replace("    default: 3\n", "    default: three\n", 1), encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(tmp_path / "ruleset.yaml"))
    [only] = info.value.diagnostics
    default_line = text.splitlines().index("    default: 3") + 1
    assert only.pos is not None and only.pos.line == default_line
    assert only.message.startswith("option 'board_size' holds text ('three'), but it is used as a whole number at lines ")
    assert "; as " not in only.message  # the YAML's uses and the code's are said alike


def test_the_option_s_value_is_written_as_in_yaml(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\noptions:\n  board_size: {default: true}\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(path))
    [only] = info.value.diagnostics
    assert only.message.startswith("option 'board_size' holds true/false (true), but it is used as a whole number at lines 36, 37, 90 ")


def test_a_value_outside_the_values_is_one_error_not_two_with_its_uses() -> None:
    """``--set first_seat='1'`` (text, where the values list the number 1) was refused for not being listed and again
    for being text where a whole number is used: the second error said the same thing less clearly."""
    with pytest.raises(engine.RulesetError) as info:
        engine.load("iconica", set_options={"first_seat": "'1'"})
    [only] = [d for d in info.value.diagnostics if not d.message.startswith("note:")]
    assert "option 'first_seat' may be lowest-roll, highest-roll, 1, 2, 3, 4, not '1'" in only.message


@pytest.mark.parametrize("value, kind", [("5.5", "a decimal number (5.5)"), (".nan", "a decimal number (.nan)"),
                                         ("five", "text ('five')"), ("null", "null (null)")])
def test_an_option_of_another_kind_used_only_in_code_is_one_error_not_a_crash(tmp_path: Path, value: str, kind: str) -> None:
    """``hand_size: {default: 5.5}`` used only in code (``move(c in stock, hand(r), hand_size)``): its misuse was
    reported after the build, but the build first set a game up with it, and that crashed ('slice indices must be
    integers', "'>' not supported between 'int' and 'str'")."""
    folder = tmp_path / "eights"
    folder.mkdir()
    text = (Path(__file__).parents[1] / "docs/examples/crazy-eights/ruleset.yaml").read_text(encoding="utf-8")
    assert "    default: 5\n" in text and "move(c in stock, hand(r), hand_size)" in text
    (folder / "ruleset.yaml").write_text(text.replace("    default: 5\n", f"    default: {value}\n", 1), encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(folder / "ruleset.yaml"))
    [only] = info.value.diagnostics
    assert only.message.startswith(f"option 'hand_size' holds {kind}, but it is used as a whole number at line "), only


@pytest.mark.parametrize("value", ['[1, "x", 5, 7]', "[1, 2.5, 5, 7]", "[[1], 2, 3, 4]"])
def test_an_option_s_list_mixing_kinds_is_refused_where_code_computes_with_an_item(tmp_path: Path, value: str) -> None:
    """Nim's ``piles: {default: [1, 2.5, 5, 7]}`` read as ``repeat nth(piles, x + 1)``: a list mixing kinds had the
    type "any", which the checker trusts, and the set-up crashed ("'float' object cannot be interpreted as an
    integer")."""
    folder = tmp_path / "nim"
    folder.mkdir()
    text = (Path(__file__).parents[1] / "docs/examples/nim/ruleset.yaml").read_text(encoding="utf-8")
    assert "    default: [1, 3, 5, 7]\n" in text and "    repeat nth(piles, x + 1):\n" in text
    (folder / "ruleset.yaml").write_text(text.replace("    default: [1, 3, 5, 7]\n", f"    default: {value}\n", 1),
                                         encoding="utf-8")
    with pytest.raises(engine.RulesetError) as info:
        engine.load(str(folder / "ruleset.yaml"))
    line = text.splitlines().index("    repeat nth(piles, x + 1):") + 1
    [only] = info.value.diagnostics
    assert only.pos is not None and only.pos.line == line, only
    assert only.message == ("the count of 'repeat' must be an int, but 'item (x plus 1) of piles' is an item of an "
                            "option's list that mixes kinds")


@pytest.mark.parametrize("count", ["0", "2", "5"])
def test_the_nine_domains_refuses_a_special_count_its_rounds_cannot_hold(count: str) -> None:
    """``specials_per_player`` other than 3 broke the invariant 'every player holds nine cards' in every game: fewer
    than 3 cannot fill the third round's slots, and the nine specials cannot give two players 5 each."""
    with pytest.raises(engine.RulesetError) as info:
        engine.load("nine-domains", set_options={"specials_per_player": count})
    assert f"option 'specials_per_player' may be 3, 4, not {count}" in str(info.value)


def test_the_nine_domains_with_four_specials_keeps_its_invariants_and_ends_after_three_rounds() -> None:
    """With ten cards a player keeps one back: the invariants count six plus the option, and no fourth round
    starts (it used to, with one card a player and no domain to fight for).  Four elements may end a game sooner."""
    game = engine.load("nine-domains", set_options={"specials_per_player": "4"})
    full = 0
    for seed in range(10):
        state, choose = game.new_state(players=2, seed=seed), random.Random(seed)
        while not state.is_terminal:
            assert game.broken_invariants(state) == []
            state.apply(choose.choice(state.legal_actions()))
        played, held = ([len(state.zones[game.zone_index[(zone, side)]]) for side in ("East", "West")]
                        for zone in ("played", "hand"))
        assert max(played) <= 9 and [p + h for p, h in zip(played, held)] == [10, 10]
        full += played == [9, 9]
    assert full >= 3  # most random games reach the third round
