"""A designer's Python habits in effect code: validate names the habit at file:line:col and says what to write."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main


def validate_setup(tmp_path: Path, code: str) -> str:
    """Validate a ruleset extending the tutorial whose setup program is ``code``; its first message line."""
    lines = "".join(f"      {line}\n" for line in code.splitlines())
    path = tmp_path / "habits.yaml"
    path.write_text(f"name: habits\nextends: tutorial-tiles\nsetup:\n  - name: deal\n    do: |\n{lines}", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result.output.splitlines()[0].replace(str(tmp_path) + "/", "")


@pytest.mark.parametrize("code, message", [
    ("def deal(r):\n  pass", "habits.yaml:6:11: syntax error: the effect language has no 'def': name a value or "
     "condition of your own under 'functions:' in the ruleset (like 'total(role r): count(hand(r))'), and write a "
     "program's steps where they run"),
    ("import random", "habits.yaml:6:14: syntax error: nothing is imported: every function of the effect language is "
     "always there (docs/effects.md lists them)"),
    ("pass\nreturn", "habits.yaml:7:13: syntax error: there is no 'return': a program runs to its end (put the steps "
     "to skip under if/else), and a function under 'functions:' is one expression, which is its value"),
    ("if turn == 1:\n  pass\nelse if turn == 2:\n  pass", "habits.yaml:8:12: syntax error: write 'elif' for 'else if'"),
    ("if at(0, 0) is none:\n  pass", "habits.yaml:6:19: syntax error: 'is' is not a comparison here: write '==' "
     "(a == none), or '!=' for 'is not'"),
    ("if Sun not in roles:\n  pass", "habits.yaml:6:14: syntax error: write 'not X in C' for 'X not in C'"),
    ("choose(t in tiles, text = f\"a tile\")", "habits.yaml:6:34: syntax error: there are no f-strings: write the "
     "text in plain quotes, as it is"),
    ("pass  // deal nothing", "habits.yaml:6:13: syntax error: '//' is not in the language: '#' starts a comment, "
     "and '/' divides whole numbers (rounding down)"),
    ("turn++", "habits.yaml:6:11: syntax error: write '+= 1' for '++' (only a counter can change: see 'counters:')"),
    ("let xs = [Sun]\nxs.append(Moon)", "habits.yaml:7:16: syntax error: '.append(...)': a list cannot be changed "
     "once made; pick what you need where you use it (count(c in hand(r) where ...)), or move components between "
     "zones with move(...)"),
    ("let n = hand(Sun).count()", "habits.yaml:6:30: syntax error: '.count(...)': values have attributes (t.symbol) "
     "but no methods; if 'count' is a function, write count(VALUE)"),
    ("for r in roles {\n  pass\n}", "habits.yaml:6:22: syntax error: unexpected character '{' (a block is not written "
     "in braces: end its first line with ':' and indent the lines under it)"),
    ("if seated(Sun) & seated(Moon):\n  pass", "habits.yaml:6:22: syntax error: unexpected character '&' "
     "(write 'and')"),
    ("let n = 2 ** 3", "habits.yaml:6:18: syntax error: there is no power operator: multiply (2 * 2 * 2)"),
    ("let n = roll(2d6)", "habits.yaml:6:21: syntax error: '2d6' is not written so: each roll(...) rolls one die, so 2 "
     "of them are roll(d6) + roll(d6) (a 'roll dN:' statement rolls one die)"),
    ("let n = roll(1d6)", "habits.yaml:6:21: syntax error: '1d6' is not written so: roll(d6) rolls one die (a 'roll "
     "dN:' statement rolls one die)"),
    ("let n = roll(20000d6)", "habits.yaml:6:25: syntax error: '20000d6' is not written so: roll(d6) rolls one die (a "
     "'roll dN:' statement rolls one die)"),
    ("let n = 2 ^ 3", "habits.yaml:6:17: syntax error: unexpected character '^' (there is no power operator: multiply "
     "(2 * 2 * 2))"),
    ("for i in 1..3:\n  pass", "habits.yaml:6:18: syntax error: write the numbers as a list, like [1, 2, 3]"),
    ("let xs = [t.symbol for t in tiles]", "habits.yaml:6:26: syntax error: a list is not built with '[VALUE for x in "
     "C]': write list(VALUE for x in C where CONDITION), or list(x in C where CONDITION) for the items themselves"),
    ("for r in roles:\n  break", "habits.yaml:7:14: syntax error: there is no 'break': a 'while' loop ends when its "
     "condition fails, and the steps to skip go under if/else"),
    ("let n = 0\nlet n += 1", "habits.yaml:7:13: syntax error: 'let' names a value once; a number that changes is a "
     "counter (declare it under 'counters:')"),
    ("if turn == 1 AND turn == 2:\n  pass", "habits.yaml:6:20: syntax error: write 'and', in lower case"),
    ("if turn <> 1:\n  pass", "habits.yaml:6:16: syntax error: write '!=' for '<>'"),
    ("if 1 < turn < 3:\n  pass", "habits.yaml:6:19: syntax error: comparisons do not chain: write 'a < x and x < b'"),
    ("let n = 1 if turn == 1 else 2", "habits.yaml:6:17: syntax error: a value chosen by a condition is written 'if "
     "CONDITION then A else B'"),
    ("let n = turn == 1 ? 1 : 2", "habits.yaml:6:25: syntax error: unexpected character '?' (a value chosen by a "
     "condition is written 'if CONDITION then A else B')"),
    ("for r in roles if seated(r):\n  pass", "habits.yaml:6:22: syntax error: to pick some of the items, write 'where': "
     "for x in C where CONDITION"),
    ("print(turn)", "habits.yaml:6:7: unknown function 'print' (there is no print: the game's log says what each "
     "action did (rulecraft play; rulecraft check -v))"),
    ("let x = null", "habits.yaml:6:15: unknown name 'null' (write 'none')"),
    ("let mine = lambda t: t.symbol == Sun", "habits.yaml:6:25: syntax error: there is no 'lambda': name a value or "
     "condition of your own under 'functions:' in the ruleset (like 'mine(tile t): t.symbol == current_role'), or "
     "write the condition where it is used (x in C where CONDITION)"),
    ("let three = lambda: 3", "habits.yaml:6:25: syntax error: there is no 'lambda': name a value or "
     "condition of your own under 'functions:' in the ruleset (like 'mine(tile t): t.symbol == current_role'), or "
     "write the condition where it is used (x in C where CONDITION)"),
    ("move(t in sort(tiles) where t.symbol == Sun, hand(Sun))", "habits.yaml:6:17: unknown function 'sort' (a "
     "selection keeps its zone's order (the top first); numbers in order are sorted(VALUE for x in C), the largest "
     "value is max(VALUE for x in C), the item holding it first(x in C where VALUE == max(...)), and the N-th item "
     "nth(ZONE, N))"),
    ("move(t in sorted(tiles) where t.symbol == Sun, hand(Sun))", "habits.yaml:6:17: sorted() of tile values needs "
     "numbers to sort, as in sorted(c.rank for c in hand(r), highest_first = true)"),
    ("for r in roles:\n  move(t in r.hand, supply)", "habits.yaml:7:21: a symbol has no attribute 'hand' ('hand' is a "
     "function: write hand(r))"),
    ("end_turn()", "habits.yaml:6:7: unknown function 'end_turn' (a turn ends by itself when its steps are done (the "
     "next role plays); play_again() gives the same role another turn)"),
    ("if empty(hand(Sun)):\n  pass", "habits.yaml:6:10: unknown function 'empty' (to test that a zone is empty, write "
     "count(ZONE) == 0)"),
    ("let n = options.board_size", "habits.yaml:6:15: unknown name 'options' (an option is read by its own name: write "
     "NAME, not options.NAME)"),
    ("let t = choose(t in tiles, \"pick a tile\")", "habits.yaml:6:15: choose() takes 1 argument, not 2 (the question "
     "is an option: write text = \"pick a tile\")"),
    ("for s in symbols:\n  pass", "habits.yaml:6:16: unknown name 'symbols' (the values of symbol are the roles: "
     "write roles)"),
    ("if hand(Sun) == []:\n  pass", "habits.yaml:6:20: cannot compare a zone with an empty list (to test that a zone "
     "is empty, write count(ZONE) == 0 (!= 0: it holds something))"),
    ("var n = 1", "habits.yaml:6:11: syntax error: write 'let' for 'var': let n = ..."),
    ("let n: int = 1", "habits.yaml:6:12: syntax error: a name takes no type: write let n = ..."),
    ("log(\"dealt\")", "habits.yaml:6:7: unknown function 'log' (the game's log is written by the game: each action "
     "and change is logged (rulecraft play; rulecraft check -v))"),
    ("move(t in filter(tiles), hand(Sun))", "habits.yaml:6:17: unknown function 'filter' (to pick some of the items, "
     "write a selection with 'where': x in COLLECTION where CONDITION)"),
])
def test_a_python_habit_is_named_with_what_to_write(tmp_path: Path, code: str, message: str) -> None:
    assert validate_setup(tmp_path, code) == message


def test_a_name_written_in_other_capitals_is_suggested_before_names_spelt_alike(tmp_path: Path) -> None:
    path = tmp_path / "capitals.yaml"  # 'stun' is spelt like the built-in 'turn', and is 'Stun' in other capitals
    path.write_text("name: capitals\nextends: tutorial-tiles\ntypes+:\n  mark: [Stun]\nsetup:\n  - name: deal\n"
                    "    do: |\n      let m = stun\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.output.splitlines()[0] == f"{path}:8:15: unknown name 'stun' (did you mean 'Stun'?)"


def test_a_value_named_without_let_is_one_problem_not_one_per_use(tmp_path: Path) -> None:
    path = tmp_path / "habits.yaml"
    path.write_text("name: habits\nextends: tutorial-tiles\nsetup:\n  - name: deal\n    do: |\n      n = 2\n"
                    "      if n == 2:\n        move(t in tiles where t.front.symbol == Sun, hand(Sun), n)\n",
                    encoding="utf-8")
    lines = CliRunner().invoke(main, ["validate", str(path)]).output.replace(f"{tmp_path}/", "").splitlines()
    assert lines[0] == ("habits.yaml:6:7: 'n' is not a counter, so '=' cannot change it (to name a value, write "
                        "'let n = ...'; a number that changes is a counter ('counters:'))")
    assert lines[-1] == "1 problem in 1 file"


def test_a_value_set_twice_without_let_is_one_problem(tmp_path: Path) -> None:
    """``x = 1`` then ``x = 2`` gave a second message for the one slip: "'x' is a name ('let' or a loop's) ..."."""
    path = tmp_path / "habits.yaml"
    path.write_text("name: habits\nextends: tutorial-tiles\nsetup:\n  - name: deal\n    do: |\n      n = 1\n"
                    "      n = 2\n      let m = 1\n      m = 2\n", encoding="utf-8")
    lines = CliRunner().invoke(main, ["validate", str(path)]).output.replace(f"{tmp_path}/", "").splitlines()
    assert [line for line in lines if line.startswith("habits.yaml:")] == [
        "habits.yaml:6:7: 'n' is not a counter, so '=' cannot change it (to name a value, write 'let n = ...'; a "
        "number that changes is a counter ('counters:'))",
        "habits.yaml:9:7: 'm' is a name ('let' or a loop's), and a name keeps its value: '=' cannot change it (to keep "
        "a number that changes, declare a counter under 'counters:')"]


@pytest.mark.parametrize("code, message", [
    ('if "Sun" in roles:\n  pass', "habits.yaml:6:10: a text is never in a list of symbol (write Sun without quotes: "
     "the values of symbol are names, not text)"),
    ('move(t in tiles, hand("Sun"))', "habits.yaml:6:29: the role of hand() must be a symbol, but '\"Sun\"' is a text "
     "(write Sun without quotes: the values of symbol are names, not text)"),
])
def test_a_value_of_a_type_written_in_quotes_is_told_to_drop_them(tmp_path: Path, code: str, message: str) -> None:
    assert validate_setup(tmp_path, code) == message


@pytest.mark.parametrize("function, message", [
    ("def tiles_of(role r): count(t in hand(r))", "habits.yaml:4:3: 'def tiles_of(role r)' must be written like name(c) "
     "or name(role r, int n) (leave out 'def': write tiles_of(role r))"),
    ("tiles_of(role r): return count(t in hand(r))", "habits.yaml:4:28: syntax error: there is no 'return': a program "
     "runs to its end (put the steps to skip under if/else), and a function under 'functions:' is one expression, which "
     "is its value"),
])
def test_a_function_written_as_in_python_is_told_what_to_leave_out(tmp_path: Path, function: str, message: str) -> None:
    path = tmp_path / "habits.yaml"
    path.write_text(f"name: habits\nextends: tutorial-tiles\nfunctions:\n  {function}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.output.replace(f"{tmp_path}/", "").splitlines()[0] == message


def test_a_line_indented_under_a_line_that_opens_no_block_is_named(tmp_path: Path) -> None:
    """It was 'unexpected indentation; expected ...' at the end of the line before."""
    assert validate_setup(tmp_path, "shuffle(hand(Sun))\n    shuffle(hand(Moon))") == (
        "habits.yaml:7:11: this line is indented further than the line before, which opens no block (only a line "
        "ending in ':' does): line it up with the lines of its block")


def test_a_type_read_as_a_list_is_told_to_list_its_values(tmp_path: Path) -> None:
    """'for m in mark:' (a type's name) got no hint; its plural lists its values; the roles' type says 'roles'."""
    path = tmp_path / "types.yaml"
    path.write_text("name: types\nextends: tutorial-tiles\ntypes+:\n  mark: [Stun, Glow, Ward, Hex]\nsetup:\n"
                    "  - name: deal\n    do: |\n      for m in mark:\n        pass\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.output.splitlines()[0] == (f"{path}:8:16: unknown name 'mark' ('mark' is a type, not a list in "
                                             "code: its values are marks)")


def test_the_dice_a_hint_adds_up_are_as_many_as_numbers_lists() -> None:
    """'20000d6' was told to be written sum(roll(d6) for i in numbers(1, 20000)), which stops the game: numbers() lists
    at most MAX_NUMBERS."""
    from engine.lang import habits, list_functions

    assert habits.MAX_DICE == list_functions.MAX_NUMBERS


def test_dice_of_thousands_of_digits_are_a_syntax_error_not_a_crash(tmp_path: Path) -> None:
    """`roll(111...1d6)` (5,000 digits) crashed validate with Python's ValueError: the hint read the count with int(),
    which Python refuses past 4,300 digits; the count is now read only when it is at most 6 digits."""
    found = validate_setup(tmp_path, f"let n = roll({'1' * 5000}d6)")
    assert found.startswith("habits.yaml:6:") and "syntax error" in found and "Traceback" not in found
