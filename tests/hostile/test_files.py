"""Files a stranger's ruleset, log or scenario names: confined to their folders, read only when regular.

Each reproducer runs the real command: exit status 1, a clear message, no
traceback and no line of the file it tried to reach.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from engine.core.confine import allowing
from engine.core.errors import RulesetError
from engine.core.paths import rulesets_dir
from engine.runner.agents import read_policy
from budget_cli import run_cli
from hostile_cli import HANG, assert_refused, rulecraft, rulecraft_here

OUTSIDE = "is outside the folders it may be read from"
PASSWD_LINE = "root:x:0:0"  # the first line of /etc/passwd, which must never be quoted


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def copy_tiles(folder: Path, name: str = "my-tiles") -> Path:
    """A copy of the tutorial ruleset in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (rulesets_dir() / "tutorial-tiles" / "ruleset.yaml").read_text(encoding="utf-8")
    return write(folder / "ruleset.yaml", text.replace("name: tutorial-tiles", f"name: {name}", 1))


def fifo(path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    os.mkfifo(path)
    return path


# ---------------------------------------------------------------- include and extends


def test_an_include_of_an_absolute_path_is_refused_unread(tmp_path: Path) -> None:
    ruleset = write(tmp_path / "game" / "ruleset.yaml", "name: sneaky\ninclude: /etc/passwd\n")
    run = rulecraft("validate", str(ruleset))
    assert_refused(run, f"{ruleset}:2:10: included file '/etc/passwd' {OUTSIDE}", "--allow PATH")
    assert PASSWD_LINE not in run.text


@pytest.mark.parametrize(("key", "what"), [("include", "included file"), ("extends", "extended ruleset")])
def test_a_nul_character_in_an_include_or_extends_is_a_positioned_error(tmp_path: Path, key: str, what: str) -> None:
    ruleset = write(tmp_path / "game" / "ruleset.yaml", f'name: sneaky\n{key}: "tutorial-tiles\\0"\n')
    run = rulecraft("validate", str(ruleset))
    assert_refused(run, f"{ruleset}:2:{len(key) + 3}: {what} 'tutorial-tiles\\x00' is not a file name (it holds a NUL character)")


@pytest.mark.parametrize(("key", "what"), [("include", "included file"), ("extends", "extended ruleset")])
def test_a_name_too_long_for_the_file_system_is_a_positioned_error(tmp_path: Path, key: str, what: str) -> None:
    ruleset = write(tmp_path / "game" / "ruleset.yaml", f"name: sneaky\n{key}: {'a' * 5000}\n")
    run = rulecraft("validate", str(ruleset))
    assert_refused(run, f"{ruleset}:2:{len(key) + 3}: {what} 'aaa", "(5,000 characters)' cannot be read: File name too long")


def test_extends_up_the_tree_is_refused_unread(tmp_path: Path) -> None:
    ruleset = write(tmp_path / "game" / "ruleset.yaml", "name: sneaky\nextends: ../../../../../../../../etc/passwd\n")
    run = rulecraft("simulate", str(ruleset), "-n", "1")
    assert_refused(run, f"extended ruleset '../../../../../../../../etc/passwd' {OUTSIDE}")
    assert PASSWD_LINE not in run.text


def test_a_link_inside_the_folder_cannot_lead_outside(tmp_path: Path) -> None:
    game = tmp_path / "game"
    write(game / "ruleset.yaml", "name: sneaky\ninclude: [parts/]\n")
    (game / "parts").mkdir()
    (game / "parts" / "a.yaml").symlink_to("/etc/passwd")
    run = rulecraft("validate", str(game))
    assert_refused(run, f"included file '{game / 'parts' / 'a.yaml'}' {OUTSIDE}")
    assert PASSWD_LINE not in run.text
    write(game / "ruleset.yaml", "name: sneaky\ninclude: link.yaml\n")
    (game / "link.yaml").symlink_to("/etc/passwd")
    assert_refused(rulecraft("validate", str(game)), f"included file 'link.yaml' {OUTSIDE}")


@pytest.mark.parametrize(("key", "what"), [("include", "included file"), ("extends", "extended ruleset")])
def test_symbolic_links_in_a_loop_are_a_positioned_error(tmp_path: Path, key: str, what: str) -> None:
    """A link leading round in a loop made Path.resolve raise RuntimeError: a traceback for the ruleset's author."""
    game = tmp_path / "game"
    ruleset = write(game / "ruleset.yaml", f"name: sneaky\n{key}: loop.yaml\n")
    (game / "loop.yaml").symlink_to("round.yaml")
    (game / "round.yaml").symlink_to("loop.yaml")
    run = rulecraft("validate", str(ruleset))
    assert_refused(run, f"{ruleset}:2:{len(key) + 3}: {what} 'loop.yaml' cannot be read: Too many levels of symbolic links")


def test_an_output_through_symbolic_links_in_a_loop_is_refused_before_any_work(tmp_path: Path) -> None:
    (tmp_path / "report.json").symlink_to("round.json")
    (tmp_path / "round.json").symlink_to("report.json")
    run = rulecraft("simulate", "tutorial-tiles", "-n", "1", "--out", str(tmp_path / "report.json"))
    assert run.code == 2 and "Traceback" not in run.text, run.text
    assert "cannot write the report to" in run.err and "Too many levels of symbolic links" in run.err, run.err


def test_a_sibling_ruleset_is_read_only_when_allowed(tmp_path: Path) -> None:
    copy_tiles(tmp_path / "shared", "shared-tiles")
    child = write(tmp_path / "game" / "ruleset.yaml", "name: child\nextends: ../shared\n")
    assert_refused(rulecraft("validate", str(child)), f"extended ruleset '../shared' {OUTSIDE}")
    allowed = rulecraft("validate", "--allow", str(tmp_path / "shared"), str(child))
    assert allowed.code == 0 and f"ok: {child}" in allowed.out, allowed
    ran = rulecraft("simulate", str(child), "--allow", str(tmp_path / "shared"), "-n", "4", "--jobs", "2")
    assert ran.code == 0 and "4 games" in ran.out, ran


def test_the_python_api_allows_folders_for_a_block(tmp_path: Path) -> None:
    copy_tiles(tmp_path / "shared", "shared-tiles")
    child = write(tmp_path / "game" / "ruleset.yaml", "name: child\nextends: ../shared\n")
    with pytest.raises(RulesetError, match=OUTSIDE):
        engine.load(str(child))
    with allowing([tmp_path / "shared"]):
        assert engine.load(str(child)).name == "child"
    with pytest.raises(RulesetError, match=OUTSIDE):
        engine.load(str(child))


def test_includes_inside_the_folder_and_built_in_bases_still_load(tmp_path: Path) -> None:
    game = tmp_path / "game"
    write(game / "ruleset.yaml", "name: tight\nextends: tutorial-tiles\ninclude: parts/size.yaml\n")
    write(game / "parts" / "size.yaml", "options:\n  board_size: {default: 4}\n")
    assert engine.load(str(game)).options["board_size"] == 4


# ---------------------------------------------------------------- rulesets named by logs and scenarios


def test_a_replay_naming_proc_self_environ_is_refused_unread(tmp_path: Path) -> None:
    log = write(tmp_path / "game.json", json.dumps(
        {"ruleset": "/proc/self/environ", "variant": [], "players": 2, "seed": 1, "actions": []}))
    for command in (["replay", str(log)], ["play", "--load", str(log)]):
        assert_refused(rulecraft(*command), f"{log}: the game log's ruleset '/proc/self/environ' {OUTSIDE}")


def test_a_replay_names_a_ruleset_only_inside_its_places(tmp_path: Path) -> None:
    """A log may name a ruleset in its own folder tree, the folder its folder belongs to, the folder Rulecraft runs in,
    or an allowed folder; any other ruleset — even a real one — needs --allow, and a link to /etc/passwd is refused."""
    ruleset = copy_tiles(tmp_path / "game")
    log = {"ruleset": str(ruleset), "variant": [], "players": 2, "seed": 1, "actions": []}  # a format-1 log
    elsewhere = write(tmp_path / "elsewhere" / "game.json", json.dumps(log))
    assert_refused(rulecraft("replay", str(elsewhere)), f"the game log's ruleset '{ruleset}' {OUTSIDE}")
    assert rulecraft("replay", str(elsewhere), "--allow", str(tmp_path / "game")).code == 0
    assert rulecraft("replay", str(elsewhere), cwd=tmp_path).code == 0  # run from the project's folder
    beside = write(tmp_path / "game" / "logs" / "game.json", json.dumps(log | {"ruleset": ".."}))
    assert rulecraft("replay", str(beside)).code == 0  # the ruleset the log's folder belongs to
    (tmp_path / "trap").mkdir()
    (tmp_path / "trap" / "ruleset.yaml").symlink_to("/etc/passwd")  # a link named like a ruleset
    write(elsewhere, json.dumps(log | {"ruleset": str(tmp_path / "trap")}))
    run = rulecraft("replay", str(elsewhere), cwd=tmp_path / "elsewhere")
    assert_refused(run, OUTSIDE)
    assert PASSWD_LINE not in run.text


def test_a_scenario_naming_a_file_outside_is_refused_unread(tmp_path: Path) -> None:
    scenario = write(tmp_path / "scenarios" / "s.yaml", "ruleset: /etc/passwd\nactions: []\n")
    run = rulecraft("check", str(scenario))
    assert_refused(run, f"{scenario}:1:10: the scenario's ruleset '/etc/passwd' {OUTSIDE}")
    assert PASSWD_LINE not in run.text
    dotfile = write(tmp_path / ".secret", f"token: {'x' * 5}\n")
    write(scenario, "ruleset: ../.secret\nactions: []\n")  # an ancestor's file that is not a ruleset.yaml
    assert_refused(rulecraft("check", str(scenario)), f"the scenario's ruleset '../.secret' {OUTSIDE}")
    assert dotfile.exists()


@pytest.mark.parametrize("named", ["../outside", "../missing", "../outside/nothing.yaml"])
def test_a_log_or_scenario_tells_nothing_of_what_lies_outside(tmp_path: Path, named: str) -> None:
    """A log or scenario naming a path outside its places was looked up before it was refused: a folder there was
    "directory '...' has no ruleset.yaml", a missing one "unknown ruleset", a file "outside the folders" — which
    told whoever wrote it what exists on the reader's machine.  Each is now refused alike, unread and unlooked-at."""
    (tmp_path / "outside").mkdir()
    log = write(tmp_path / "logs" / "game.json", json.dumps(
        {"ruleset": named, "variant": [], "players": 2, "seed": 1, "actions": []}))
    scenario = write(tmp_path / "logs" / "s.yaml", f"ruleset: {named}\nactions: []\n")
    for command in (["replay", str(log)], ["play", "--load", str(log)]):
        assert_refused(rulecraft_here(*command), f"{log}: the game log's ruleset '{named}' {OUTSIDE}")
    assert_refused(rulecraft_here("check", str(scenario)), f"{scenario}:1:10: the scenario's ruleset '{named}' {OUTSIDE}")


def test_a_nul_character_in_the_ruleset_a_log_or_scenario_names_is_refused_by_name(tmp_path: Path) -> None:
    log = write(tmp_path / "game.json", json.dumps({"ruleset": "a\0b", "players": 2, "seed": 1, "actions": []}))
    scenario = write(tmp_path / "s.yaml", 'ruleset: "a\\0b"\nactions: []\n')
    assert_refused(rulecraft_here("replay", str(log)), f"{log}: the game log's ruleset 'a\\x00b' is not a file name")
    assert_refused(rulecraft_here("check", str(scenario)), "the scenario's ruleset 'a\\x00b' is not a file name")


def test_a_scenario_may_name_the_ruleset_above_it(tmp_path: Path) -> None:
    copy_tiles(tmp_path / "game")
    scenario = write(tmp_path / "game" / "scenarios" / "s.yaml", "ruleset: ..\nplayers: 2\nactions: []\n")
    run = rulecraft("check", str(scenario))
    assert run.code == 0 and "1 passed, 0 failed" in run.out, run


# ---------------------------------------------------------------- only regular files, of bounded size


def test_a_save_opened_from_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "save.json")
    for command in (["play", "--load", str(pipe)], ["replay", str(pipe)]):
        assert_refused(rulecraft(*command), f"cannot read '{pipe}': not a regular file")


@pytest.mark.parametrize("device", ["fifo", "/dev/zero"])
def test_a_policy_file_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, device: str) -> None:
    path = fifo(tmp_path / "policy.json") if device == "fifo" else Path(device)
    ended = run_cli(["simulate", "tutorial-tiles", "-n", "1", "--agents", f"policy:{path}"], timeout=HANG)
    assert ended.code == 2 and "Traceback" not in ended.err, ended
    assert f"cannot read '{path}': not a regular file (a policy file must be a file)" in ended.err
    ended.assert_bounded()


@pytest.mark.parametrize(("text", "message"), [
    ("[" * 100_000, "its JSON nests too deeply"),
    ('{"format": "rulecraft-policy", "values": {"pass": NaN}}', "'values' should map action texts to numbers"),
    ('{"format": "rulecraft-policy", "values": {"pass": 1' + "0" * 400 + '}}', "'values' should map action texts to numbers"),
    ('{"format": "rulecraft-policy", "default": -1' + "0" * 400 + ', "values": {}}', "and 'default' be a number"),
], ids=["deep", "NaN", "huge value", "huge default"])
def test_a_damaged_policy_file_is_refused_with_a_reason(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "policy.json", text)
    with pytest.raises(ValueError, match=re.escape(message)):
        read_policy(str(path))


def test_a_ruleset_or_scenario_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "ruleset.yaml")
    assert_refused(rulecraft("validate", str(pipe), fresh=True), "not a regular file")  # a new interpreter, as a user's
    assert_refused(rulecraft("simulate", str(pipe)), "is not a ruleset file or a folder holding ruleset.yaml")
    assert_refused(rulecraft("check", str(pipe)), "not a regular file")
    game = tmp_path / "game"
    write(game / "ruleset.yaml", "name: piped\ninclude: part.yaml\n")
    fifo(game / "part.yaml")
    assert_refused(rulecraft("validate", str(game)), "not a regular file")


def test_an_oversized_log_is_refused_with_its_size(tmp_path: Path) -> None:
    log = tmp_path / "huge.json"
    with log.open("wb") as file:
        file.truncate(21 * 1024 * 1024)
    assert_refused(rulecraft("replay", str(log)), "is larger than 20 MB (22,020,096 bytes): a game log is at most 20 MB")


def test_a_built_in_ruleset_copied_with_its_folder_still_loads(tmp_path: Path) -> None:
    shutil.copytree(rulesets_dir() / "iconica", tmp_path / "my-iconica")
    text = (tmp_path / "my-iconica" / "ruleset.yaml").read_text(encoding="utf-8")
    write(tmp_path / "my-iconica" / "ruleset.yaml", text.replace("name: iconica", "name: my-iconica", 1))
    assert engine.load(str(tmp_path / "my-iconica")).name == "my-iconica"


def test_a_scenario_folder_does_not_read_a_link_leading_out(tmp_path: Path) -> None:
    """check FOLDER read every *.yaml below it, links too: a link to a file elsewhere that is not YAML was listed
    as a scenario that cannot be read, and its refusal quoted that file's line."""
    secret = write(tmp_path / "elsewhere" / "notes.txt", "password: [hunter2\n")
    game = tmp_path / "game"
    copy_tiles(game)
    write(game / "scenarios" / "starts.yaml", "name: starts\nruleset: ..\nplayers: 2\nexpect: [\"true\"]\n")
    (game / "scenarios" / "leak.yaml").symlink_to(secret)
    run = rulecraft("check", str(game))
    assert run.code == 0, run.text
    assert "hunter2" not in run.text and "leak.yaml" not in run.text, run.text
    assert "1 passed, 0 failed" in run.text, run.text


def test_a_log_naming_its_ruleset_with_half_a_character_is_told_so(tmp_path: Path) -> None:
    """A JSON log may write a lone surrogate ("\\ud800"), which no file name holds: it was refused as holding a NUL
    character, which it does not."""
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"ruleset": "tic\ud800", "players": 2, "seed": 0, "actions": []}), encoding="utf-8")
    run = rulecraft("replay", str(log))
    assert_refused(run, "the game log's ruleset 'tic\\ud800' is not a file name (it holds U+D800, half of a character")
    assert "NUL" not in run.text


@pytest.mark.parametrize("how", ["include: part.yaml", "include: parts/", "extends: part.yaml", "include: big.yaml"])
def test_a_file_an_include_or_extends_names_that_cannot_be_read_is_told_at_the_include(tmp_path: Path, how: str) -> None:
    """A FIFO (or a file past 5 MB) named by an include or extends was refused with no position, the line naming it
    not said: 'cannot read '.../part.yaml': not a regular file'."""
    game = tmp_path / "game"
    ruleset = write(game / "ruleset.yaml", f"name: piped\n{how}\n")
    fifo(game / "part.yaml")
    (game / "parts").mkdir()
    fifo(game / "parts" / "a.yaml")
    with (game / "big.yaml").open("wb") as file:
        file.truncate(6 * 1024 * 1024)
    said = ("is larger than 5 MB" if "big" in how else "is not a ruleset file" if "extends" in how  # found, not read
            else "not a regular file")
    assert_refused(rulecraft("validate", str(game)), f"{ruleset}:2:{how.index(':') + 3}: ", said)


def test_check_goes_on_when_a_folder_vanishes_while_it_walks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``check /`` walks /proc, whose folders go when their processes end: a folder listed and then removed before
    it was read stopped the walk (``rglob`` does not pass over it) with FileNotFoundError's traceback."""
    game = tmp_path / "game"
    copy_tiles(game)
    write(game / "scenarios" / "starts.yaml", "name: starts\nruleset: ..\nplayers: 2\nexpect: [\"true\"]\n")
    (tmp_path / "going" / "deeper").mkdir(parents=True)
    listing = os.scandir

    def removed_before_read(path: str | int) -> Iterator[os.DirEntry[str]]:  # 'going' listed, then removed by another
        if not isinstance(path, int) and Path(path) == tmp_path / "going":
            shutil.rmtree(path)
        return listing(path)

    monkeypatch.setattr(os, "scandir", removed_before_read)
    run = rulecraft_here("check", str(tmp_path))
    assert run.code == 0, run.text
    assert "1 passed, 0 failed" in run.text, run.text
