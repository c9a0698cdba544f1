"""A ruleset's text is data: never given to Python's ``format`` or ``%`` machinery.

The English of a ruleset's own function (``text:`` with ``{param}``) and a
``choose`` question (``{CODE}``, effect-language code read when it is asked)
are the places a ruleset's text is filled in; format specifications and
attribute lookups in braces are refused where written (in a function's text
they name no parameter; in a question they are no code), and ``%`` fields
stay as written, instead of allocating gigabytes or printing Python's
internals.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from budget_cli import BASE, run_cli, write_ruleset

HOSTILE_TEXTS = ["{r:>2000000000}", "{r.__class__.__mro__}", "{r!r:%s%s%s}", "%s %(r)s %d", "{0} {} {1:%}"]


def _explained(tmp_path: Path, words: str):  # type: ignore[no-untyped-def]
    functions = f"functions:\n  emptied(role r):\n    is: count(t in hand(r)) == 0\n    text: '{words} ({{r}} has no tiles)'\n"
    text = BASE.replace("  when: all(count(t in hand(r)) == 0 for r in roles)", "  when: all(emptied(r) for r in roles)")
    return run_cli(["explain", str(write_ruleset(tmp_path, text + functions))])


@pytest.mark.parametrize("words", [w for w in HOSTILE_TEXTS if "{" in w])
def test_format_fields_in_a_function_text_are_refused_where_written(tmp_path: Path, words: str) -> None:
    ended = _explained(tmp_path, words)
    assert ended.code == 1, ended.out + ended.err
    told = ended.out + ended.err
    assert "which names none of its parameters" in told and "write {r} where the argument goes" in told
    assert "<class" not in told
    ended.assert_bounded()


@pytest.mark.parametrize("words", [w for w in HOSTILE_TEXTS if "{" not in w])
def test_percent_fields_in_a_function_text_are_shown_as_written(tmp_path: Path, words: str) -> None:
    ended = _explained(tmp_path, words)
    assert ended.code == 0, ended.out + ended.err
    assert f"{words} (r has no tiles)" in ended.out.replace("\n", " ")
    ended.assert_bounded()


@pytest.mark.parametrize("words", HOSTILE_TEXTS)
def test_format_fields_in_a_question_are_code_refused_where_written(tmp_path: Path, words: str) -> None:
    """A question's braces hold effect-language code, read when it is asked (``{gold}``): a format specification or an
    attribute lookup of Python's in them is no code, refused at its line, never handed to Python's formatting."""
    turn = ("  - do:\n      effect: |\n        let t = choose(x in hand(current_role), text = 'pick ({gold}) "
            + words.replace("'", "''") + "')\n        move(x in hand(current_role) where x == t, supply)\n")
    text = BASE.replace("  - place: {from: hand, face: choose}\n", turn)
    path = write_ruleset(tmp_path, text)
    ended = run_cli(["validate", str(path)])
    if "{" in words:  # r is no name here, and ':' no operator: each refused at its place
        ended.assert_refused(str(path))
    else:  # nothing in braces but {gold}: the rest stands as written
        assert ended.code == 0, ended.out + ended.err
    assert "class" not in (ended.out + ended.err).replace(words, "")
    ended.assert_bounded()
