"""A newcomer's slips in a ruleset's YAML: validate points at the slip and says what to write, in one message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from engine.core.paths import find_ruleset


def validate(path: Path) -> list[str]:
    """Validate ``path``: the lines validate prints, with the folder left out."""
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    folder = path if path.is_dir() else path.parent
    return result.output.replace(str(folder) + "/", "").splitlines()


@pytest.mark.parametrize("text, message", [
    ("title:Slips\nversion: 2\n", "slips.yaml:3:6: invalid YAML: could not find expected ':' (no space after "
     "'title:', so YAML reads the line as one text: write 'title: Slips')"),
    ("board:\n  kind:square-grid\n  max_width: 4\n", "slips.yaml:4:7: invalid YAML: mapping values are not allowed in "
     "this context (no space after 'kind:', so YAML reads the line as one text: write 'kind: square-grid')"),
    ("options:\n  board_size:\n    default: 4   # wider\n      doc: wider\n", "slips.yaml:6:7: invalid YAML: did not "
     "find expected key (line 6 is indented further than line 5, which already has its value (4): YAML reads it as "
     "more of that value; indent it like the keys it belongs with)"),
    ("setup:\n  name: deal\n    do: pass\n", "slips.yaml:5:7: invalid YAML: mapping values are not allowed in this "
     "context (line 5 is indented further than line 4, which already has its value (deal): YAML reads it as more of "
     "that value; indent it like the keys it belongs with)"),
    ("title: Slips: a test\n", "slips.yaml:3:13: invalid YAML: mapping values are not allowed in this context (a value "
     "holding ': ' must be in quotes (title: 'Slips: a test'), or on the lines under 'title: >-')"),
    ("turn:\n  - {name: place, place: {from: hand, face: choose}}\n   - {name: clash, clash: {table: beats}}\n",
     "slips.yaml:5:4: invalid YAML: did not find expected '-' indicator (the items of a list start with '-', each "
     "lined up under the first: line 5 is not in line with the list that starts at line 4)"),
    ("turn:\n  - do: {effect: pass}\n  - [1, 2] == [1, 2]\n", "slips.yaml:5:12: invalid YAML: did not find expected "
     "'-' indicator (this item starts with '[', so YAML reads it as a list and stops at what follows its ']': a text "
     "that starts with a bracket, such as code, is written in quotes (- \"...\"))"),
    ("setup:\n  - {name: deal, do: \"let x = \"a\"\"}\n", "slips.yaml:4:31: invalid YAML: did not find expected ',' or "
     "'}' (the value of 'do' is in double quotes, so the \" here ends it: write the quotes inside as single ones ('a'), "
     "or write the value on the lines under 'do: |')"),
    ("running_score: 'if turn > 1 then 'a' else 0'\n", "slips.yaml:3:34: invalid YAML: did not find expected key (the "
     "value of 'running_score' is in single quotes, so the ' here ends it: write the quotes inside as double ones "
     "(\"a\"), or write the value on the lines under 'running_score: |')"),
    ("setup:\n  - name: deal\n    do:\n      for r in roles:\n        pass\n", "slips.yaml:6:7: setup/0/do: {for r in "
     "roles: pass} is not a text (do: effect-language statements, one per line, with indented blocks (write it as a "
     "`|` block), like move(c in cards, deck); shuffle(deck))"),
    ("setup:\n  - name: deal\n    do: |\n      shuffle(hand(Sun))\n    shuffle(hand(Moon))\n", "slips.yaml:7:5: invalid "
     "YAML: could not find expected ':' (line 7 is indented less than the lines under 'do: |' (line 5), so YAML ends "
     "them above it: indent it as they are (6 spaces))"),
    ("setup:\n  for r in roles:\n    pass\n", "slips.yaml:4:3: unknown key 'for r in roles' in setup (this is a line "
     "of code: a program goes after '|' (setup: |), its lines indented under it)"),
    ("turn:\n  - do:\n      effect:\n        let n = 1\n        if n == 1:\n          pass\n", "slips.yaml:7:18: invalid "
     "YAML: mapping values are not allowed in this context (the lines under 'effect:' (line 5) are code: write "
     "'effect: |' so that YAML keeps them as they are)"),
    ("turn:\n  do:\n    effect: |\n      pass\n", "slips.yaml:4:3: turn: {do: ...} is not a list "
     "(like [a, b]) (turn holds a list: start each item with '- ' (turn: then '- do: ...' under it))"),
    ("options:\n  bonus:\n    defualt: 4\n    doc: more\n", "slips.yaml:5:5: unknown key 'defualt' in options/bonus "
     "(did you mean 'default'?)"),
    ("setup:\n  - name: deal\n    do:\n      move(t in tiles, hand(Sun))\n      shuffle(hand(Sun))\n", "slips.yaml:7:7: "
     "syntax error: unexpected 'shuffle'; expected '.', ';', '=', '+=' or '-=', the end of the line (YAML joined the "
     "lines of this program into one, as it does with a value written without '|': write 'do: |' and the program on "
     "the lines under it)"),
    ("functions:\n  steps(): [(1, 0), (0, 1)]\n", "slips.yaml:4:12: functions/steps(): [(1, 0), (0, 1)] is not a text, "
     "true/false, a whole number or a mapping (like {key: value}) (YAML reads [...] as a list: a text that starts with "
     "a bracket, such as code giving a list, is written in quotes: \"[...]\")"),
    ("turn:\n  - phase: rest\n    if: turn % 3 == 0\n    steps:\n      - do: {effect: pass}\n", "slips.yaml:5:5: "
     "unknown key 'if' in turn/0 (a phase holds no 'if' of its own: give each of its steps the condition (- do: {if: "
     "..., effect: ...}), read when that step's turn comes)"),
])
def test_a_slip_of_layout_or_a_misspelt_key_is_one_message_at_the_slip(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "slips.yaml"
    path.write_text(f"name: slips\nextends: tutorial-tiles\n{text}", encoding="utf-8")
    lines = validate(path)
    assert lines[0] == message
    assert lines[-1] == "1 problem in 1 file"


@pytest.mark.parametrize("line", [f"title: {'a' * 3000}: more\n", f"title:{'a' * 3000}\nversion: 2\n",
                                  f"setup:\n  name: {'a' * 3000}\n    do: pass\n"],
                         ids=["a value holding ': '", "no space after ':'", "indented further"])
def test_a_slip_on_a_long_line_quotes_it_cut(tmp_path: Path, line: str) -> None:
    """The hint quotes the value it would have written: a line of 3,000 characters made a message of 2,300."""
    path = tmp_path / "slips.yaml"
    path.write_text(f"name: slips\nextends: tutorial-tiles\n{line}", encoding="utf-8")
    lines = validate(path)
    assert len(lines[0]) < 700 and "characters" in lines[0], lines[0]


@pytest.mark.parametrize("key, misspelt", [("players", "plyers"), ("turn", "trun")])
def test_a_misspelt_required_section_is_not_also_reported_missing(tmp_path: Path, key: str, misspelt: str) -> None:
    text = find_ruleset("tutorial-tiles").read_text(encoding="utf-8")
    line = text[:text.index(f"\n{key}:") + 1].count("\n") + 1
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(f"\n{key}:", f"\n{misspelt}:", 1), encoding="utf-8")
    lines = validate(path)
    assert lines[0] == f"ruleset.yaml:{line}:1: unknown key '{misspelt}' in the top level (did you mean '{key}'?)"
    assert lines[-1] == "1 problem in 1 file"


@pytest.mark.parametrize("written, shown", [('"true"', "the text 'true'"), ("yes please", "the text 'yes please'"),
                                            ("1", "1")])
def test_a_flag_of_an_action_written_as_text_is_named_as_a_flag(tmp_path: Path, written: str, shown: str) -> None:
    """'break: "true"' on a character's action was "unknown setting 'break' in an action", though break is the flag."""
    shutil.copytree(find_ruleset("iconica").parent, tmp_path / "game")
    vex = tmp_path / "game" / "characters" / "vex.yaml"
    text = vex.read_text(encoding="utf-8")
    line = text[:text.index("break: true, do:")].count("\n") + 1
    col = text.index("break: true, do:") - text.rfind("\n", 0, text.index("break: true, do:")) + len("break: ")
    vex.write_text(text.replace("break: true, do:", f"break: {written}, do:", 1), encoding="utf-8")
    lines = validate(vex.parent.parent)
    assert lines[0] == (f"characters/vex.yaml:{line}:{col}: 'break' in an action is a true/false flag, not {shown} "
                        "(write 'break: true', or leave 'break' out for false)")
