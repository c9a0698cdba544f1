"""Writes are atomic: a log, save or report is replaced whole, or the old one stays and the command says so."""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from engine.core.atomic import WriteFailed, write_atomic
from engine.core.paths import rulesets_dir
import engine.core.atomic


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write fails as on a full disk (when the data is flushed to it)."""

    def no_space(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(engine.core.atomic.os, "fsync", no_space)


def test_a_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "log.json"
    write_atomic(target, "old\n")
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["log.json"]


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    write_atomic(target, "x")
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_failed_write_keeps_the_old_file_and_says_so(tmp_path: Path, full_disk: None) -> None:
    target = tmp_path / "log.json"
    target.write_text("a good log\n")
    with pytest.raises(WriteFailed, match=r"cannot write .*log.json: No space left on device \(the old file is kept\)"):
        write_atomic(target, "a newer log\n")
    assert target.read_text() == "a good log\n"
    assert [p.name for p in tmp_path.iterdir()] == ["log.json"]  # no temporary file left behind


def test_a_failed_write_of_a_new_file_leaves_nothing(tmp_path: Path, full_disk: None) -> None:
    with pytest.raises(WriteFailed, match=r"\(nothing was written\)"):
        write_atomic(tmp_path / "new.json", "{}")
    assert list(tmp_path.iterdir()) == []


def test_a_report_that_cannot_be_written_exits_1_and_keeps_the_old_one(tmp_path: Path, full_disk: None) -> None:
    out = tmp_path / "report.txt"
    out.write_text("last week's report\n")
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "2", "--out", str(out)])
    assert result.exit_code == 1
    assert f"cannot write {out}: No space left on device (the old file is kept)" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert out.read_text() == "last week's report\n"


def test_a_game_log_that_cannot_be_written_exits_1_and_keeps_the_old_one(tmp_path: Path, full_disk: None) -> None:
    log = tmp_path / "game.json"
    log.write_text("{}\n")
    args = ["play", "tutorial-tiles", "--seed", "3", "--seat", "1=random", "--log", str(log)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert f"cannot write {log}: No space left on device (the old file is kept)" in result.output
    assert log.read_text() == "{}\n"


def test_a_report_sent_into_a_fifo_is_written_into_it_and_the_fifo_stays(tmp_path: Path) -> None:
    """simulate --out PIPE replaced the FIFO with a regular file (and, run as root, --out /dev/null replaced the
    machine's /dev/null: a report is moved over its target); now a FIFO or a device is written into."""
    fifo = tmp_path / "report.pipe"
    os.mkfifo(fifo)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 10
        while reader.is_alive() and time.monotonic() < deadline:  # the reader opens the FIFO, then the write goes
            try:
                write_atomic(fifo, "a report\n")
                break
            except WriteFailed:  # nothing reads it yet
                time.sleep(0.01)
    finally:
        reader.join(10)
    assert read == [b"a report\n"] and stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["report.pipe"]


def test_a_fifo_nothing_reads_is_refused_at_once_and_stays(tmp_path: Path) -> None:
    fifo = tmp_path / "log.pipe"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "2", "--out", str(fifo)])
    assert result.exit_code == 1 and f"cannot write {fifo}: nothing is reading it (nothing was written)" in result.output
    assert stat.S_ISFIFO(fifo.stat().st_mode) and [p.name for p in tmp_path.iterdir()] == ["log.pipe"]


@pytest.mark.skipif(not os.path.exists("/dev/full") or not stat.S_ISCHR(os.stat("/dev/full").st_mode),
                    reason="needs /dev/full")
def test_a_device_is_written_into_never_replaced() -> None:
    write_atomic("/dev/null", "a report\n")
    with pytest.raises(WriteFailed, match=r"cannot write /dev/full: No space left on device"):
        write_atomic("/dev/full", "a report\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_write_into_a_missing_folder_is_refused_cleanly(tmp_path: Path) -> None:
    with pytest.raises(WriteFailed, match=r"cannot write .*: No such file or directory \(nothing was written\)"):
        write_atomic(tmp_path / "gone" / "log.json", "{}")


def test_save_to_a_name_holding_a_nul_character_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "tic-tac-toe", "--seed", "1"],
                                input=f"save {tmp_path}/a\0b.json\nsave {tmp_path}/kept.json\nquit\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "a file name cannot hold a NUL character (nothing was written)" in result.output
    assert "saved 0 actions to" in result.output and (tmp_path / "kept.json").exists()
    with pytest.raises(WriteFailed, match="cannot hold a NUL character"):
        write_atomic(tmp_path / "x\0y", "text")


@pytest.mark.parametrize("suffix", ["", ".yaml"])
def test_save_to_a_name_too_long_for_a_file_is_refused_and_the_game_goes_on(tmp_path: Path, suffix: str) -> None:
    """'save aaa...' (5,000 characters) ended the game with exit status 1: asking whether the file existed raised
    'File name too long' before the write could refuse it (with .yaml, in the check for a ruleset's own file)."""
    name = "a" * 5000 + suffix
    result = CliRunner().invoke(main, ["play", "tic-tac-toe", "--seed", "1"],
                                input=f"save {name}\nsave {tmp_path}/kept.json\nquit\n")
    assert result.exit_code == 0, result.output[-300:]
    assert "File name too long (nothing was written)" in result.output
    assert "saved 0 actions to" in result.output and (tmp_path / "kept.json").exists()


@pytest.fixture
def my_game(tmp_path: Path) -> Path:
    """A fresh ruleset folder made by ``rulecraft new``."""
    folder = tmp_path / "my-game"
    assert CliRunner().invoke(main, ["new", str(folder), "--from", "tutorial-tiles"]).exit_code == 0
    return folder


@pytest.mark.parametrize("command", [["simulate", "-n", "2", "--out"], ["simulate", "-n", "2", "--html"],
                                     ["sweep", "board_size=[3, 4]", "-n", "2", "--out"],
                                     ["play", "--seat", "1=random", "--log"]])
def test_an_output_over_the_ruleset_itself_is_refused_before_any_work(my_game: Path, command: list[str]) -> None:
    ruleset = my_game / "ruleset.yaml"
    before = ruleset.read_text(encoding="utf-8")
    args = [command[0], str(my_game), *command[1:], str(ruleset)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "is a file of the ruleset in use: write to another file" in result.output
    assert ruleset.read_text(encoding="utf-8") == before


def test_a_save_over_a_ruleset_file_during_play_is_refused_and_the_game_goes_on(my_game: Path) -> None:
    scenario = next((my_game / "scenarios").glob("*.yaml"))
    before = scenario.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(my_game), "--seat", "2=random"],
                                input=f"save {scenario}\n1\nsave {my_game / 'game.json'}\nquit\n")
    assert "it is a file of a ruleset in use (nothing was written; choose another name)" in result.output
    assert scenario.read_text(encoding="utf-8") == before
    assert "saved 2 actions to" in result.output and (my_game / "game.json").is_file()


def test_a_new_yaml_file_or_one_outside_the_rulesets_in_use_is_written(my_game: Path, tmp_path: Path) -> None:
    for target in (my_game / "report.yaml", tmp_path / "elsewhere.yaml"):
        result = CliRunner().invoke(main, ["simulate", str(my_game), "-n", "2", "--out", str(target)])
        assert result.exit_code == 0 and target.is_file()


def broken_invariant(folder: Path) -> Path:
    """Tic-tac-toe with an invariant the first move breaks, so every checked game fails and is saved."""
    text = (rulesets_dir() / "tic-tac-toe" / "ruleset.yaml").read_text()
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(text.replace("invariants:\n", "invariants:\n  empty board: count(t in board) == 0\n", 1))
    return folder


@pytest.mark.parametrize("save", ["pipe", "pipe/inside", "file/inside"])
def test_a_save_folder_that_cannot_be_one_is_refused_before_any_game(tmp_path: Path, save: str) -> None:
    """A pipe passed click's check (it refuses only a plain file), every game was played, and the first replay
    written ended the command with "pipe: File exists": the report and the other games' replays were lost."""
    ruleset = broken_invariant(tmp_path / "game")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(main, ["check", "--invariants", str(ruleset), "--games", "3", "--save", str(tmp_path / save)])
    assert result.exit_code == 2 and "is not a folder: give a folder to write the failing games' replays in" in result.output
    assert "game seed" not in result.output and isinstance(result.exception, (SystemExit, type(None)))


def test_a_replay_that_cannot_be_written_is_said_and_the_others_are_still_written(tmp_path: Path) -> None:
    ruleset = broken_invariant(tmp_path / "game")
    (tmp_path / "saved" / "tic-tac-toe-2p-seed1.json").mkdir(parents=True)  # a folder where one replay goes
    result = CliRunner().invoke(main, ["check", "--invariants", str(ruleset), "--games", "3", "--save", str(tmp_path / "saved")])
    assert result.exit_code == 1 and "0 games passed, 3 failed" in result.output, result.output
    assert "replay: not written: cannot write" in result.output
    assert sorted(p.name for p in (tmp_path / "saved").iterdir() if p.is_file()) == [
        "tic-tac-toe-2p-seed0.json", "tic-tac-toe-2p-seed2.json"]


@pytest.mark.parametrize(("first", "second"), [("--out", "--html"), ("--out", "--games"), ("--html", "--games")])
def test_two_outputs_naming_one_file_are_refused_before_any_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               first: str, second: str) -> None:
    """--out r.json --html r.json wrote the report, then the charts over it: the report was lost without a word."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kept.csv").write_text("an earlier run\n")
    result = CliRunner().invoke(main, ["simulate", "tic-tac-toe", "-n", "2", first, "kept.csv", second, "./kept.csv"])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {second}: kept.csv is the file {first} writes too" in result.output
    assert (tmp_path / "kept.csv").read_text() == "an earlier run\n"


def test_a_device_may_take_every_output(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", "tic-tac-toe", "-n", "2", "--out", os.devnull, "--html", os.devnull])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name, written", [("../../escaped", "escaped"), ("a/b c", "a-b-c"), ("x" * 300, "x" * 80)],
                         ids=["parent", "separator", "long"])
def test_a_failing_game_s_replay_is_written_in_the_folder_asked_whatever_the_ruleset_s_name(
        tmp_path: Path, name: str, written: str) -> None:
    """``check --invariants --save DIR`` names each replay after the ruleset's ``name:``, which the ruleset's author
    writes: ``../../escaped`` wrote the replay two folders above DIR, ``a/b`` below it in a folder not there (not
    written), 300 letters a name too long for a file (not written)."""
    folder = tmp_path / "game"
    folder.mkdir()
    text = (rulesets_dir() / "tic-tac-toe" / "ruleset.yaml").read_text()
    text = text.replace("name: tic-tac-toe", f"name: {name!r}").replace(
        "  marks alternate: count(t in board where t.mark == X) - count(t in board where t.mark == O) in [0, 1]",
        "  marks alternate: count(t in board) < 3")
    (folder / "ruleset.yaml").write_text(text)
    saves = tmp_path / "out" / "here" / "saves"
    result = CliRunner().invoke(main, ["check", "--invariants", str(folder), "--games", "1", "--save", str(saves)])
    assert result.exit_code == 1 and "0 games passed, 1 failed" in result.output, result.output
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob("*.json")] == [
        Path("out", "here", "saves", f"{written}-2p-seed0.json")], result.output
