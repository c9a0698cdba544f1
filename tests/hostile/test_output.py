"""Text from a ruleset is data in every output: escapes shown, never sent; long values cut.

The commands run in this process (none of these inputs can hang it); tests/hostile/test_files.py runs them as
separate processes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.errors import IllegalActionError
from engine.core.showtext import cut, json_safe, shown
from hostile_cli import Run, assert_refused, rulecraft_here as rulecraft

RAW = ("\x1b", "\x9b", "\x07", "\u202e")
"""Characters that must never reach a terminal from a ruleset (escape, CSI, bell, right-to-left override)."""

LOUD = """\
name: loud-tiles
extends: tutorial-tiles
title: "Tiles\\e]0;pwned\\a\\e[2J\\u202e\\x9b31m"
description: "clear\\e[2J\\e[3J"
invariants:
  "ok\\e[2J": "true"
"""


def assert_no_raw_controls(run: Run) -> None:
    assert "Traceback" not in run.text, run.text
    for raw in RAW:
        assert raw not in run.text, (raw, run.text[:2000])


@pytest.fixture(scope="module")
def loud(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ruleset whose title, description and an invariant's name hold escape sequences."""
    path = tmp_path_factory.mktemp("loud") / "ruleset.yaml"
    path.write_text(LOUD, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [
    ["explain", "{loud}"],
    ["play", "{loud}", "--seed", "1", "--seat", "1=random"],
    ["check", "--invariants", "{loud}", "--games", "2"],
])
def test_escape_sequences_in_a_ruleset_are_shown_escaped(loud: Path, command: list[str]) -> None:
    run = rulecraft(*(part.format(loud=loud) for part in command))
    assert run.code == 0, run
    assert_no_raw_controls(run)
    assert "\\x1b[2J" in run.out  # shown as text, not dropped


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_reports_of_such_a_ruleset_carry_no_raw_control(loud: Path, fmt: str) -> None:
    for command in (["simulate", str(loud), "-n", "3"], ["sweep", str(loud), "board_size=[3, 4]", "-n", "2"]):
        run = rulecraft(*command, "--format", fmt)
        assert run.code == 0, run
        assert_no_raw_controls(run)


def test_json_output_escapes_every_control_and_keeps_the_text(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text('name: keys\nextends: tutorial-tiles\n"odd\\e[2J\\x9bkey": 1\n', encoding="utf-8")
    run = rulecraft("validate", str(path), "--format", "json")
    assert run.code == 1
    assert_no_raw_controls(run)
    assert "\\u001b" in run.out and "\\u009b" in run.out
    messages = [d["message"] for d in json.loads(run.out)["files"][0]["diagnostics"]]
    assert any("odd\x1b[2J\x9bkey" in message for message in messages), messages


def test_a_quoted_source_line_with_a_raw_escape_is_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_bytes(b"name: raw\ntitle: Tiles\x1b]0;pwned\x07\n")
    run = rulecraft("validate", str(path))
    assert_refused(run, f"{path}:2:", "\\x1b]0;pwned\\x07")
    assert_no_raw_controls(run)


def test_a_four_megabyte_wrong_value_is_cut_in_the_error(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: big\nextends: tutorial-tiles\nplayers: ['" + "x" * 4_194_304 + "']\n", encoding="utf-8")
    run = rulecraft("validate", str(path))
    assert_refused(run, f"{path}:3:11: players/0: 'xxx", "...' (4,194,304 characters) is not a whole number")
    assert len(run.text) < 2_000


def test_a_three_megabyte_action_in_a_log_is_cut_in_the_refusal(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    action = "place O at " + "9" * 3_000_000
    log.write_text(json.dumps({"ruleset": "tic-tac-toe", "players": 2, "seed": 1, "actions": ["place X at 0,0", action]}))
    for command in (["replay", str(log)], ["play", "--load", str(log)]):
        run = rulecraft(*command)
        assert_refused(run, f"{log}: action 2 'place O at 999", "... (3,000,011 characters)' cannot be replayed")
        assert len(run.err) < 5_000


@pytest.mark.parametrize("field", ["ruleset", "players", "seed", "format", "content_hash"])
def test_a_three_megabyte_field_of_a_log_is_cut_in_the_refusal(tmp_path: Path, field: str) -> None:
    log = tmp_path / "game.json"
    game = {"format": 2, "ruleset": "tic-tac-toe", "content_hash": "0" * 16, "version": 1, "players": 2, "seed": 1, "actions": [],
            "hashes": ["0" * 12]}
    log.write_text(json.dumps({**game, field: "x" * 3_000_000}))
    run = rulecraft("replay", str(log))
    assert run.code == 1 and "Traceback" not in run.text and "xxx" in run.err, run
    assert len(run.err) < 2_500


def test_a_long_illegal_action_is_refused_in_a_message_cut_short() -> None:
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    with pytest.raises(IllegalActionError) as refused:
        state.apply("x" * 1_000_000)
    assert str(refused.value).endswith(" characters)") and len(str(refused.value)) < 2_100


@settings(max_examples=200, derandomize=True)
@given(st.text())
def test_shown_text_holds_no_control_character_and_keeps_the_rest(text: str) -> None:
    out = shown(text)
    assert not any(ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) <= 0x9F for c in out)
    assert "\u202e" not in out and "\u2066" not in out
    if all(c.isprintable() or c in "\n\t" for c in text) and "\u202e" not in text:
        assert out == text


@settings(max_examples=200, derandomize=True)  # at most 10 texts and numbers a document: nested as before, what is
@given(st.recursive(st.text() | st.integers() | st.none(),  # escaped is in the texts (100 a document took 2.5x the time)
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=10))
def test_json_safe_text_is_the_same_json(value: object) -> None:
    text = json_safe(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value
    assert shown(text) == text


def test_cut_says_how_long_the_value_was() -> None:
    assert cut("x" * 4_194_304, 5) == "xxxxx... (4,194,304 characters)"
    assert cut("short", 5) == "short"


def test_html_pages_show_escape_sequences_escaped(loud: Path) -> None:
    from cli.web.pages import index_page
    import engine

    page = index_page([("loud-tiles", engine.load(str(loud)), "")])
    assert not any(raw in page for raw in RAW)
    assert "Tiles\\x1b]0;pwned" in page


def test_a_title_holding_a_line_break_is_refused_where_written(tmp_path: Path) -> None:
    """The title is the first line of rulecraft play's game: a line break in it printed the rest as a line of its
    own ('fake line: 2 players, seed 1'). One folded by YAML with its last line break (title: >) is read as before."""
    base = (Path(__file__).resolve().parents[2] / "rulesets" / "tic-tac-toe" / "ruleset.yaml").read_text(encoding="utf-8")
    path = tmp_path / "ruleset.yaml"
    path.write_text(base.replace("title: Tic-tac-toe", 'title: "Tic-tac-toe\\nseat 1 wins"'), encoding="utf-8")
    with pytest.raises(engine.RulesetError, match=r"ruleset.yaml:\d+:\d+: the title 'Tic-tac-toe\\nseat 1 wins' holds "
                                                  r"a line break"):
        engine.load(path)
    path.write_text(base.replace("title: Tic-tac-toe", "title: >\n  Tic-tac-toe,\n  the game"), encoding="utf-8")
    assert engine.load(path).title.strip() == "Tic-tac-toe, the game"


def test_a_text_in_code_is_explained_in_one_line(tmp_path: Path) -> None:
    """explain wrote a text of the code with its line break as it is, so the rest of it began a line of its own in
    the rules ('[2] place X at 0,0'); the text's unseen characters are written as escapes, as the code writes them."""
    from cli.explain import explain

    base = (Path(__file__).resolve().parents[2] / "rulesets" / "tic-tac-toe" / "ruleset.yaml").read_text(encoding="utf-8")
    path = tmp_path / "ruleset.yaml"
    path.write_text(base.replace("turn:\n", 'turn:\n  - do:\n      effect: |\n        let a = choose(a in '
                                 '["line\\n[2] place X at 0,0", "x\\u200by"])\n', 1), encoding="utf-8")
    lines = explain(engine.load(path))
    assert not any(line.startswith("[2]") for line in lines)
    assert any('"line\\n[2] place X at 0,0", "x\\u200by"' in line for line in lines)
