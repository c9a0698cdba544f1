"""None where a value is needed (sum, max, min, abs, nth, move, shuffle, damage, heal, statuses): never Python's error.

A sealed number nobody sealed, or an attribute a component does not have,
reads as none; arithmetic and comparisons on it were already a positioned
error ("... has no value here"), but the folds and ``abs`` let Python's
``TypeError`` out — a traceback from ``rulecraft validate``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.errors import EffectRuntimeError, RulesetError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bids() -> engine.State:
    """A sealed-bid game just set up: nobody has sealed a number, so ``committed_number(r)`` is none."""
    return engine.load(ROOT / "docs" / "examples" / "sealed-bids").new_state(players=2, seed=0)


@pytest.mark.parametrize("code, word", [
    ("max(committed_number(r) for r in roles) == 0", "max()"),
    ("min(committed_number(r) for r in roles) == 0", "min()"),
    ("sum(committed_number(r) for r in roles) == 0", "sum()"),
    ("max(x for x in [1, committed_number(Red)]) == 1", "max()"),
    ("abs(committed_number(Red)) == 0", "abs()"),
])
def test_none_in_a_number_function_is_an_error_at_its_place(bids: engine.State, code: str, word: str) -> None:
    condition = bids.game.compile_condition(code)
    with pytest.raises(EffectRuntimeError, match=rf"^<expression>:1:1: .* has no value here .*, so {word[:-2]}\(\) cannot"):
        condition.test(bids)


@pytest.mark.parametrize("code, said", [
    ("max([1, committed_number(Red)]) == 1", "an item of [1, the number committed by Red] has no value here"),
    ("sum([committed_number(Red)]) == 1", "an item of [the number committed by Red] has no value here"),
])
def test_none_in_a_list_folded_bare_is_named_by_the_list(bids: engine.State, code: str, said: str) -> None:
    """``max([1, x])`` with x none said "_ has no value here": the engine's own name for the items of a bare list."""
    with pytest.raises(EffectRuntimeError, match=rf"^<expression>:1:1: {re.escape(said)} \(nothing is written for it\)"):
        bids.game.compile_condition(code).test(bids)


@pytest.mark.parametrize("code", [
    "count(nth([[1], [2]], 5)) == 0",
    "sum(x for x in nth([[1], [2]], committed_number(Red))) == 0",
    "not any(x > 0 for x in nth([[1]], 5)) and first(nth([[1]], 5)) == none",
    "nth(nth([[1]], 5), 1) == none",
    "not (1 in nth([[1]], 5))",
])
def test_a_list_that_is_none_holds_nothing(bids: engine.State, code: str) -> None:
    """A list of lists read past its end gives none; selecting from it, nth() of it and 'in' it raised Python's
    "TypeError: 'NoneType' object is not iterable", a traceback under rulecraft validate. None holds nothing."""
    assert bids.game.compile_condition(code).test(bids)


def test_a_list_written_with_none_first_takes_the_type_of_its_other_items(bids: engine.State) -> None:
    """``[1, none]`` was a list of numbers but ``[none, 1]`` refused: "every item of a list must be a none"."""
    assert bids.game.compile_condition("nth([none, 3], 2) == 3 and count(x in [none, 1]) == 2").test(bids)
    with pytest.raises(RulesetError, match="every item of a list must be an int, but 'Red' is"):
        bids.game.compile_condition("count(x in [none, 1, Red]) == 3")


def test_nth_at_no_position_is_none(bids: engine.State) -> None:
    assert bids.game.compile_condition("nth(numbers(1, 3), committed_number(Red)) == none").test(bids)


def test_a_fold_of_numbers_still_folds(bids: engine.State) -> None:
    assert bids.game.compile_condition("max(x for x in numbers(1, 5)) == 5 and sum(x for x in [2, 3]) == 5").test(bids)
    assert bids.game.compile_condition("min(x for x in []) == 0 and abs(0 - 4) == 4").test(bids)


def test_validate_reports_a_fold_of_unsealed_numbers_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "bids"
    shutil.copytree(ROOT / "docs" / "examples" / "sealed-bids", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert '"numbers(0, coins(current_role))"' in text
    ruleset.write_text(text.replace('"numbers(0, coins(current_role))"', '"numbers(1, 0)"'))  # nothing to seal
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if row.strip().startswith("top():"))
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"ruleset.yaml:{line}:10: a game of 2 or 3 players, set up, fails before anyone decides: the number committed by r has no value here" in result.output


@pytest.mark.parametrize("old, new, said", [
    ("move(c in stock, hand(r), hand_size)", "move(c in stock, hand(r), nth([1], 5))",
     "item 5 of [1] has no value here (nothing is written for it), so move()'s count cannot use it"),
    ("move(c in stock where c.rank != 8, discard, 1, on_top = true)",
     "move(c in stock where c.rank != 8, discard, nth([1], 5), on_top = true)", "so move()'s count cannot use it"),
    ("move(c in stock where c.rank != 8, discard, 1, on_top = true)",
     "move(c in stock where c.rank != 8, if count(stock) > 99 then discard else none, 1)",
     "move() needs a zone, but 'discard if the number of items in stock is more than 99, else nothing' is none here"),
    ("  shuffle(stock)", "  shuffle(if count(stock) > 99 then stock else none)", "shuffle() needs a zone, but"),
])
def test_a_move_or_shuffle_given_none_is_an_error_at_its_line(tmp_path: Path, old: str, new: str, said: str) -> None:
    folder = tmp_path / "eights"
    shutil.copytree(ROOT / "docs" / "examples" / "crazy-eights", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert old in text
    ruleset.write_text(text.replace(old, new))
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if new.strip() in row)
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"ruleset.yaml:{line}:" in result.output and said in result.output, result.output


KESTRA = 'member(Crimson, "Kestra")'


@pytest.mark.parametrize("effect", [
    f"damage({KESTRA}, nth([1], 5), status)",
    f"heal({KESTRA}, nth([1], 5), status)",
    f"give({KESTRA}, first(statuses_of({KESTRA})), status)",
    f"remove({KESTRA}, first(statuses_of({KESTRA})))",
])
def test_none_as_a_meters_amount_or_as_a_status_does_nothing(tmp_path: Path, effect: str) -> None:
    """As adding none to a counter does nothing, damage or healing of none moves no marker, and giving, removing or
    asking for no status (``first(statuses_of(t))`` of a component without one) gives, removes or finds nothing:
    they crashed with "'<=' not supported between 'NoneType' and 'int'" and "KeyError: None"."""
    scenario = tmp_path / "none.yaml"
    scenario.write_text(f"""\
name: none as an amount or a status
ruleset: iconica
players: 2
position:
  seats: {{Crimson: 1, Azure: 2}}
  zones:
    party(Crimson): [Kestra]
    party(Azure): [Aelin]
  effect: '{effect}'
actions: []
expect:
  - health({KESTRA}) == 110
  - not has({KESTRA}, first(statuses_of({KESTRA})))
  - count(statuses_of({KESTRA})) == 0
""")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 0 and "1 passed, 0 failed" in result.output, (result.output, result.exception)


@pytest.mark.parametrize("code, holds", [("3 != none", True), ("3 == none", False), ("none == 3", False),
                                         ("none == none", True), ("none != none", False)])
def test_a_literal_compared_with_none_warns_nothing_on_the_screen(bids: engine.State, code: str, holds: bool) -> None:
    """The generated code read ``3 != none`` as ``(3 is not None)``, and Python printed 'SyntaxWarning: "is not" with
    a literal' under ``rulecraft validate`` (a function ``goal(r)`` testing ``r == Black``, called as ``goal(none)``)."""
    import warnings

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        condition = bids.game.compile_condition(f"count(x in [1, 2] where {code}) == {2 if holds else 0}")
    assert not [w for w in shown if issubclass(w.category, SyntaxWarning)], [str(w.message) for w in shown]
    assert condition.test(bids)


@pytest.mark.parametrize("example, old, new, said", [
    ("nim", "repeat nth(piles, x + 1):", "repeat nth(piles, x + 9):",
     "item (x plus 9) of piles has no value here (nothing is written for it), so 'repeat' cannot use it"),
    ("pig", "roll(d6)", "roll(none)", "roll() needs a die to roll, not none"),
    ("standoff", "gain(nerve(current_role), 1, rally)", "gain(nerve(current_role), nth([1], 4), rally)", None),
])
def test_a_repeat_roll_or_gain_given_none(tmp_path: Path, example: str, old: str, new: str, said: str | None) -> None:
    """``repeat`` of none and ``roll(none)`` crashed with Python's TypeError; now a positioned error.  ``gain`` of none,
    as adding none to a counter, does nothing (it crashed: "'<=' not supported between 'NoneType' and 'int'")."""
    folder = tmp_path / example
    shutil.copytree(ROOT / "docs" / "examples" / example, folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert old in text
    ruleset.write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if said is None:
        assert result.exit_code == 0, result.output
        return
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if new.strip() in row)
    assert result.exit_code == 1 and f"ruleset.yaml:{line}:" in result.output and said in result.output, result.output


def test_a_selection_over_none_of_a_type_not_known_when_compiled_selects_nothing(bids: engine.State) -> None:
    """``first([])`` has no known type (an empty list's items have none): selecting over it iterated none, a
    TypeError ('NoneType' object is not iterable); a component known to be none already selected nothing."""
    assert bids.game.compile_condition("count(x in first([])) == 0 and count(first([])) == 0").test(bids)


def test_placing_the_first_of_an_empty_list_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "tiles"
    shutil.copytree(ROOT / "rulesets" / "sealed-tiles", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert "place(first(played(r)), choose(" in text
    ruleset.write_text(text.replace("place(first(played(r)), choose(", "place(first([]), choose("))
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if "place(first([])" in row)
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1 and f"ruleset.yaml:{line}:11: place() selected 0 components" in result.output, result.output


def test_place_down_from_an_empty_zone_names_itself_and_says_what_is_empty(tmp_path: Path) -> None:
    """A secret set-up laying more cells than an army holds was told ``place() selected 0 components; it needs
    exactly one`` at a ``place_down`` call: the message named another function, and not that the zone ran out."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: army\nplayers: [2]\ntypes: {side: [North, South]}\nroles: {of: side, seating: {2: [1, 2]}}\n"
        "board: {kind: square-grid, width: 3, height: 1}\nface_down: true\n"
        "components: {piece: {attributes: {side: side}, instances: [{id: N, side: North, count: 2}]}}\n"
        "setup: |\n  for x in numbers(0, 2):\n    place_down(p in supply where p == first(supply), (x, 0), seen_by = North)\n"
        "turn: [{do: {effect: 'say(\"x\")'}}]\nend: {when: 'true'}\n"
        "scoring: {rank: r in roles, by: [1], points: key}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1 and "ruleset.yaml:10:5: setting up 2 players fails: place_down() selected 0 " \
        "components; it needs exactly one (nothing meets the selection: is what it selects from empty?)" in result.output, \
        result.output


def test_a_counter_set_to_none_says_which_value_is_none(tmp_path: Path) -> None:
    """``coins(buyer) = nth([1], 5)`` was refused as "'=' needs a number, not None": Python's word, and no hint of
    which value had none."""
    folder = tmp_path / "bids"
    shutil.copytree(ROOT / "docs" / "examples" / "sealed-bids", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert "coins(buyer) -= top()" in text
    ruleset.write_text(text.replace("coins(buyer) -= top()", "coins(buyer) = nth([1], 5)"))
    result = CliRunner().invoke(main, ["simulate", str(ruleset), "-n", "5"])
    assert result.exit_code == 1, result.output
    assert "item 5 of [1] has no value here (nothing is written for it), so '=' cannot use it" in result.output, result.output


def test_a_choice_by_no_role_says_so_not_none_in_python_words(tmp_path: Path) -> None:
    """``choose(..., by = none)`` stopped with "choose(by = None): nobody plays None"."""
    folder = tmp_path / "arena"
    shutil.copytree(ROOT / "docs" / "examples" / "arena", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert 'do: "give(choose(foes(self)), Bleeding)"' in text
    ruleset.write_text(text.replace('do: "give(choose(foes(self)), Bleeding)"',
                                    'do: "give(choose(foes(self), by = none), Bleeding)"', 1))
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1, result.output
    assert "choose(by = ...) names no role here (it is none), so nobody may decide" in result.output, result.output
    assert "None" not in result.output


@pytest.mark.parametrize("old, new, said", [
    ("move(c in stock, hand(r), hand_size)", "move(c in stock, hand(r), -1)", "move()'s count is -1: a count is 0 or more"),
    ("move(c in stock, hand(r), hand_size)", "move(c in stock, hand(r), hand_size - 99)",  # an option: a constant
     "move()'s count is -94: a count is 0 or more"),
    ("move(c in stock, hand(r), hand_size)", "move(c in stock, hand(r), count(stock) - 999)",
     "move()'s count is -9"),
    ("move(c in stock, hand(r), hand_size)", "repeat -2:\n        move(c in stock, hand(r), 1)",
     "the count of 'repeat' is -2: a count is 0 or more"),
    ("move(c in stock, hand(r), hand_size)", "repeat count(stock) - 999:\n        move(c in stock, hand(r), 1)",
     "the count of 'repeat' is -9"),
])
def test_a_negative_count_is_refused_where_it_is_written(tmp_path: Path, old: str, new: str, said: str) -> None:
    """move(..., -1) moved nothing and 'repeat -2:' ran nothing, without a word: a constant below 0 is refused at
    load, a count found below 0 as the game runs is an error at its line."""
    folder = tmp_path / "eights"
    shutil.copytree(ROOT / "docs" / "examples" / "crazy-eights", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert old in text
    ruleset.write_text(text.replace(old, new))
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if new.split("\n")[0].strip() in row)
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"ruleset.yaml:{line}:" in result.output and said in result.output, result.output
    assert "count(stock)" not in new or "here (" in result.output and "write max(0, ...) around it" in result.output, result.output


def test_a_running_score_of_none_is_an_error_at_its_line(tmp_path: Path) -> None:
    """A running score of none (a seat's bid nobody sealed, 'if ... then none') stopped simulate, validate and the
    greedy bot with a TypeError's traceback (the report takes the highest score)."""
    text = (ROOT / "rulesets" / "tic-tac-toe" / "ruleset.yaml").read_text()
    written = "running_score: sum(line(r) for r in roles where seat(r) == me)"
    assert written in text
    (tmp_path / "ruleset.yaml").write_text(text.replace(written, 'running_score: "if turn > 2 then none else 0"'))
    said = "has no value here (nothing is written for it): it is a number for every seat, at every turn"
    for args in (["validate", str(tmp_path)], ["simulate", str(tmp_path), "-n", "2", "--agents", "greedy,random"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert re.search(rf"ruleset\.yaml:\d+:\d+: the running score \(.*\) {re.escape(said)}", result.output), result.output


@pytest.mark.parametrize("code, said", [
    ("nth(sorted([2, 1], highest_first = none), 1) == 1", "the highest_first of sorted()"),
    ("not none", "the operand of 'not'"),
    ("count(r in roles where none) == 0", "the condition after 'where'"),
    ("(if none then 1 else 2) == 2", "the condition of 'if'"),
    ("none", "a condition"),
])
def test_none_written_where_true_or_false_is_wanted_is_refused_at_its_place(bids: engine.State, code: str,
                                                                           said: str) -> None:
    """The word none where true or false is wanted (a flag, a condition) was read as false without a word:
    ``sorted(x, highest_first = none)`` sorted lowest first, ``where none`` selected nothing."""
    with pytest.raises(RulesetError, match=rf"^<expression>:1:\d+: {re.escape(said)} must be true or false, not none"):
        bids.game.compile_condition(code)


def test_none_as_a_rule_s_condition_is_refused_in_the_file(tmp_path: Path) -> None:
    """A YAML condition written ``none`` (the end's ``when``) is the same mistake, told at its line."""
    folder = tmp_path / "tiles"
    shutil.copytree(ROOT / "rulesets" / "tutorial-tiles", folder)
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text().replace("  when: all(count(t in hand(r)) == 0 for r in roles)", "  when: none"))
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    assert re.search(r"ruleset\.yaml:74:9: .*must be true or false, not none", result.output), result.output
