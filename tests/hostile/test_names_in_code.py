"""Names in the effect language that read the same as another and mean something else.

Code may use letters of any script, so a Cyrillic 'а' (U+0430) pasted for the Latin 'a' made a name that looks
like the one meant: it was told as an unknown name with a hint that pointed elsewhere ("did you mean 'A'?"), or, as
a second name beside the first, it went unsaid and the code read the other value.  A 'let', a loop or a selection
could also give a name of the ruleset (one of its values, an option, a kind's list) a second meaning, silently: the
code after it read the new one.  Each is now an error at its place, naming the letters that differ.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine

RULESET = """\
name: lookalikes
players: [2]
types: {side: [A, B]}
components:
  stone:
    attributes: {side: side}
    instances: [{id: S, side: A, count: 3}]
board: {kind: square-grid, width: 5, height: 5, adjacency: orthogonal}
roles: {of: side, seating: {2: [1, 2]}}
counters:
  gold: {per: role, start: 0}
options:
  heap: {default: 3}
setup: |
  SETUP
turn:
  - do:
      effect: pass
end:
  when: turn > 3
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def refused(tmp_path: Path, setup: str) -> str:
    """The message loading a ruleset whose setup is ``setup`` is refused with."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", setup.replace("\n", "\n  ")), encoding="utf-8")
    with pytest.raises(engine.RulesetError) as caught:
        engine.load(path)
    return str(caught.value)


def loads(tmp_path: Path, setup: str) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", setup.replace("\n", "\n  ")), encoding="utf-8")
    return engine.load(path)


def test_an_unknown_name_that_looks_like_a_known_one_is_told_by_its_letter(tmp_path: Path) -> None:
    """The hint was "did you mean 'A'?", or, for the Cyrillic one, where such a name comes from (a loop)."""
    latin_used = refused(tmp_path, "let а = 1\ngold(A) = a")
    assert "unknown name 'a' (did you mean 'а'? its 'a' is the Latin 'a', where 'а' has CYRILLIC SMALL LETTER A " \
           "(U+0430))" in latin_used
    cyrillic_used = refused(tmp_path, "let a = 1\ngold(A) = а")
    assert "unknown name 'а' (did you mean 'a'? its 'а' is CYRILLIC SMALL LETTER A (U+0430), not the Latin 'a')" \
           in cyrillic_used
    selection = refused(tmp_path, "gold(A) = count(с in stones where c.side == A)")
    assert "unknown name 'c' (did you mean 'с'? its 'c' is the Latin 'c', where 'с' has CYRILLIC SMALL LETTER ES" \
           in selection


def test_a_second_name_that_looks_like_the_first_is_refused(tmp_path: Path) -> None:
    """It loaded, and gold(A) became 1 where the code reads as if it were 2."""
    message = refused(tmp_path, "let a = 1\nlet а = 2\ngold(A) = a")
    assert ":16:3: 'а' looks like 'a', another name here, but is not it: its 'а' is CYRILLIC SMALL LETTER A " \
           "(U+0430), not the Latin 'a'" in message


@pytest.mark.parametrize(("setup", "said"), [
    ("let A = B\ngold(A) = 5", ":15:3: 'A' already means the side A: a name given here would hide it in the lines "
                               "after it (pick another name)"),
    ("for A in roles:\n  gold(A) = 1", ":15:3: 'A' already means the side A: a name given here would hide it "
                                       "wherever this A is read"),
    ("let heap = 1\ngold(A) = heap", ":15:3: 'heap' already means the option heap"),
    ("gold(A) = count(stones for stones in [1])", ":15:19: 'stones' already means all stones"),
])
def test_code_cannot_give_a_name_of_the_ruleset_another_meaning(tmp_path: Path, setup: str, said: str) -> None:
    """Each loaded: 'let A = B' then 'gold(A) = 5' gave B the 5."""
    assert said in refused(tmp_path, setup)


@pytest.mark.parametrize(("function", "said"), [
    ("f(int A): A + 1", "'A' already means the side A: a name given here would hide it in the function's body"),
    ("f(int a): {let: {heap: a}, is: heap}", "'heap' already means the option heap"),
])
def test_a_functions_parameter_or_let_cannot_hide_a_name_of_the_ruleset(tmp_path: Path, function: str, said: str) -> None:
    """A parameter named 'A' read the argument where the body reads as the side A."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("setup: |", f"functions:\n  {function}\nsetup: |").replace("SETUP", "pass"))
    with pytest.raises(engine.RulesetError, match=re.escape(said)):
        engine.load(path)


def test_a_parameter_hiding_a_name_is_shown_where_the_parameter_is_written(tmp_path: Path) -> None:
    """The message pointed at the body ('A + 1'), where the name is only read; the parameter is in the key."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("setup: |", "functions:\n  f(int n, int A): n + A\nsetup: |").replace("SETUP", "pass"))
    with pytest.raises(engine.RulesetError) as caught:
        engine.load(path)
    found = re.search(r"ruleset\.yaml:(\d+):(\d+): 'A' already means the side A", str(caught.value))
    assert found is not None
    line, col = int(found.group(1)), int(found.group(2))
    assert path.read_text().splitlines()[line - 1][col - 1:].startswith("A): n + A")


def test_a_condition_cannot_hide_a_value_either() -> None:
    with pytest.raises(engine.RulesetError, match="'X' already means the mark X"):
        engine.load("tic-tac-toe").compile_condition("count(X in tokens) > 0")


def test_names_of_any_script_that_look_like_no_other_still_work(tmp_path: Path) -> None:
    game = loads(tmp_path, "let côté = 2\nlet кол = côté + 1\ngold(A) = кол")
    assert game.compile_condition("gold(A) == 3").test(game.new_state(players=2, seed=1))


def test_a_ruleset_named_with_a_dash_for_a_hyphen_is_told_by_the_dash() -> None:
    """A name pasted from a word processor ('tic‐tac‐toe', U+2010) was offered 'tic-tac-toe' with no word of why."""
    from cli.main import main
    from click.testing import CliRunner

    ended = CliRunner().invoke(main, ["validate", "tic‐tac‐toe"])
    assert ended.exit_code == 2 and "did you mean 'tic-tac-toe'? its '‐' is HYPHEN (U+2010), not the plain '-'" \
        in ended.output


def test_a_value_named_as_a_kinds_list_is_told_in_words(tmp_path: Path) -> None:
    """The message read 'pick another name for this the collection'."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("side: [A, B]", "side: [A, B, stones]").replace("SETUP", "pass"))
    with pytest.raises(engine.RulesetError) as caught:
        engine.load(path)
    assert ":5:3: the name 'stones' is already a value of type 'side'; pick another name for this collection\n" \
        in str(caught.value) + "\n"


def test_component_ids_that_look_alike_are_refused_where_written(tmp_path: Path) -> None:
    """A Cyrillic 'о' in a second stone's id ('Sоft' beside 'Soft') made two components whose actions, scenario lines
    and log lines read the same; the ruleset loaded."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", "pass").replace(
        "instances: [{id: S, side: A, count: 3}]",
        "instances: [{id: Soft, side: A}, {id: Hard, side: B}, {id: S\u043eft, side: B}]"), encoding="utf-8")
    with pytest.raises(engine.RulesetError) as caught:
        engine.load(path)
    assert (f"{path}:7:" in str(caught.value) and "component 'S\u043eft' looks like the component 'Soft' listed "
            "before: its '\u043e' is CYRILLIC SMALL LETTER O (U+043E), not the Latin 'o'" in str(caught.value))


def test_a_piece_of_copies_that_looks_like_another_id_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", "pass").replace(
        "instances: [{id: S, side: A, count: 3}]", "instances: [{id: S, side: A, count: 3}, {id: \u0405, side: B}]"),
        encoding="utf-8")
    with pytest.raises(engine.RulesetError, match="component '\u0405' looks like the component 'S' listed before"):
        engine.load(path)


def test_points_whose_names_look_alike_are_refused(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "frontiers" / "ruleset.yaml").read_text(
        encoding="utf-8")
    assert "    Birch: [2, 0]\n" in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("    Birch: [2, 0]\n", "    Birch: [2, 0]\n    \u0412irch: [2, 8]\n"), encoding="utf-8")
    with pytest.raises(engine.RulesetError) as caught:
        engine.load(path)
    assert f"{path}:" in str(caught.value)
    assert "points 'Birch' and '\u0412irch' look alike: its '\u0412' is CYRILLIC CAPITAL LETTER VE (U+0412)" \
        in str(caught.value)
