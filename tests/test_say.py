"""``say("TEXT")``: a line of the game's log in the ruleset's own words.  A rule that empties a pot (a push-your-luck
game's bust) left the log with the chips moving back and nothing saying why; no function wrote a line of the log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.errors import RulesetError

GAME = """\
name: bust
players: [2]
counters:
  pot: {min: 0}
turn:
  - do:
      effect: |
        pot += 1
        if pot > 2:
          pot = 0
          say(SAID)
end:
  when: turn >= 6
scoring:
  rank: r in roles where seated(r)
  by: [0]
  points: [1, 0]
"""


def _path(tmp_path: Path, said: str, where: str = "") -> Path:
    path = tmp_path / "ruleset.yaml"
    text = GAME.replace("SAID", said)
    if where:
        text = text.replace("  when: turn >= 6", f"  when: turn >= 6 and {where}")
    path.write_text(text, encoding="utf-8")
    return path


def test_say_writes_its_line_in_the_log_and_explain_reads_it(tmp_path: Path) -> None:
    path = _path(tmp_path, '"the pot boils over"')
    s = engine.load(path).new_state(players=2, seed=1, record=True)
    assert s.is_terminal and s.log.count("the pot boils over") == 2  # turns 3 and 6
    assert 'say "the pot boils over"' in CliRunner().invoke(main, ["explain", str(path)]).output


@pytest.mark.parametrize("said, message", [
    ('"{r} wins"', "a name in braces is not filled in"),
    ('"a\\tb"', "holds a line break or another control character"),
    ('"a\u202eb"', "holds a character that is not seen where it stands (\\u202e, a bidirectional control"),
    ('"a\\u2066b"', "holds a character that is not seen where it stands (\\u2066"),
    ('"a\u200bb"', "holds a character that is not seen where it stands (\\u200b"),
    ('"a\ufeffb"', "holds a character that is not seen where it stands (\\ufeff"),
    ('"' + "x" * 301 + '"', "the text of say() is 301 characters long, more than 300: it is one line of the log"),
    ("pot", "the text of say() must be a text, but 'pot' is an int"),
    ('""', "put the words in quotes"),
    ("none", "put the words in quotes"),
])
def test_a_text_that_would_not_be_written_as_it_reads_is_refused_where_written(tmp_path: Path, said: str,
                                                                              message: str) -> None:
    with pytest.raises(RulesetError, match=re.escape(message)):
        engine.load(_path(tmp_path, said))


def test_a_text_of_the_longest_length_is_written_whole(tmp_path: Path) -> None:
    said = "x" * 300
    s = engine.load(_path(tmp_path, f'"{said}"')).new_state(players=2, seed=1, record=True)
    assert said in s.log


def test_the_refusal_says_where_the_text_is_written(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["validate", str(_path(tmp_path, '"a\u202eb"'))])
    assert result.exit_code == 1 and "ruleset.yaml:11:15: the text of say() holds a character" in result.output
    assert "\u202e" not in result.output  # the caret line shows it as an escape, not reordering the terminal


@pytest.mark.parametrize("said", ['"a\u200bb"', '"\u200b\u202ex"'])
def test_the_quoted_line_shows_an_invisible_character_and_keeps_the_caret_under_the_text(tmp_path: Path,
                                                                                     said: str) -> None:
    """The line above the caret printed a zero-width space as it is (unseen), and a bidirectional control as an
    escape six characters wide with the caret not moved along: the caret stood under the wrong character."""
    result = CliRunner().invoke(main, ["validate", str(_path(tmp_path, said))])
    quoted, caret = result.output.splitlines()[1:3]
    assert "\u200b" not in quoted and "\u202e" not in quoted and "\\u200b" in quoted
    assert quoted[len(caret) - 1:].startswith('"')  # the caret under the text's opening quote, where say's text starts


def test_say_in_a_condition_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="say\\(\\) writes a line of the log, which a condition or score can't do"):
        engine.load(_path(tmp_path, '"x"', 'say("y")'))
