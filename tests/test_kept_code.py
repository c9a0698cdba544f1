"""The generated functions are kept under the hash of their code, in memory and in the private cache folder.

A ruleset loaded again takes its functions (and its turn) as kept instead of sharing, hoisting and compiling their
source again: the games it plays and the source ``rulecraft compile --show`` prints must be exactly those of functions
made anew, and a function is taken only for code the passes would have made the same function of.
"""

from __future__ import annotations

import marshal
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import engine
from engine.core import paths
from engine.lang import codegen, kept_code, kept_trees
from engine.lang.scope import Scope, Vocabulary


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    kept_code.forget()
    kept_trees.forget()
    yield tmp_path / "cache" / "rulecraft" / "code"
    kept_code.forget()
    kept_trees.forget()


def _kept(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*/*") if not p.name.startswith(".")) if folder.is_dir() else []


def _counting_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    make = codegen._made

    def counting(lines: tuple[str, ...], *rest: Any) -> Any:
        made.append("\n".join(lines))
        return make(lines, *rest)
    monkeypatch.setattr(codegen, "_made", counting)
    return made


def _played(game: engine.Game, players: int, seed: int) -> list[str]:
    state = game.new_state(players=players, seed=seed, record=True)
    rand = random.Random(seed)
    while state.outcome is None:
        state.play(int(rand.random() * len(state.legal_actions())))
    return [*state.log, repr(state.outcome)]


@pytest.mark.parametrize("name", paths.builtin_names())
def test_every_ruleset_plays_the_same_with_its_functions_read_back_from_disk(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fresh = engine.load(name)
    kept = _kept(cache_home)
    assert kept and oct(cache_home.stat().st_mode & 0o777) == "0o700"
    kept_code.forget()  # as a new process: nothing in memory
    made = _counting_made(monkeypatch)
    monkeypatch.setattr(kept_code, "keep", lambda *made: pytest.fail("a function was made again"))
    again = engine.load(name)
    assert made == []
    players = fresh.player_counts[0]
    assert [_played(again, players, seed) for seed in (1, 2)] == [_played(fresh, players, seed) for seed in (1, 2)]
    assert again.vocab.data[codegen.GENERATED] == fresh.vocab.data[codegen.GENERATED]


def test_compile_shows_the_same_source_at_every_load(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The names in generated source were numbered across the process: each load of a ruleset had other ones."""
    from cli.main import main

    shown = [CliRunner().invoke(main, ["compile", "nine-domains", "--show"]) for _ in range(2)]
    kept_code.forget()
    made = _counting_made(monkeypatch)
    shown.append(CliRunner().invoke(main, ["compile", "nine-domains", "--show"]))
    assert [run.exit_code for run in shown] == [0, 0, 0] and made == []
    assert shown[0].output == shown[1].output == shown[2].output and "def f" in shown[0].output


def _function(lines: tuple[str, ...], consts: tuple[tuple[str, Any], ...], reference: Any = None) -> Any:
    return codegen.function(lines, consts, None, Scope(Vocabulary()), reference)


def test_constants_the_sharing_reads_as_one_are_not_taken_for_two(cache_home: Path) -> None:
    """``k1[e[0]]`` and ``k2[e[0]]`` read the same when k1 and k2 are one table: the second is shared.  The same
    code over two tables must not take that function."""
    table, other = {0: 1}, {0: 2}
    line = ("return ((k1[e[0]] + 1) == (k2[e[0]] + 1))",)
    one = _function(line, (("k1", table), ("k2", table)))
    assert ":=" in one.generated_source and one(None, [0])
    two = _function(line, (("k1", table), ("k2", other)))
    assert ":=" not in two.generated_source and not two(None, [0])


class _Counting:
    """A constant with a ``get`` that is not a table's: each call counts."""

    def __init__(self) -> None:
        self.calls = 0

    def get(self, key: object) -> int:
        self.calls += 1
        return 1


def test_a_constant_read_as_a_table_only_when_it_is_one(cache_home: Path) -> None:
    line = ("return ((k1.get(e[0]) + 1) == (k1.get(e[0]) + 1))",)
    assert ":=" in _function(line, (("k1", {0: 1}),)).generated_source
    counting = _Counting()
    fn = _function(line, (("k1", counting),))
    assert fn(None, [0]) and counting.calls == 2


def test_a_change_to_a_file_that_makes_functions_changes_every_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert {"codegen.py", "shared.py", "hoisted.py", "kept_code.py"} <= set(kept_code.MADE_FROM)
    here = Path(kept_code.__file__).parent
    for name in kept_code.MADE_FROM:
        shutil.copy(here / name, tmp_path / name)
    monkeypatch.setattr(kept_code, "__file__", str(tmp_path / "kept_code.py"))
    try:
        kept_code._version.cache_clear()
        before = kept_code.key("function", "return e[0]")
        with open(tmp_path / "shared.py", "a", encoding="utf-8") as file:
            file.write("\n# changed\n")
        kept_code._version.cache_clear()
        assert kept_code.key("function", "return e[0]") != before
    finally:
        monkeypatch.undo()
        kept_code._version.cache_clear()


LINE = ("return ((k1[e[0]] + 1) == (k1[e[0]] + 1))",)


@pytest.mark.parametrize("damage", [b"", b"junk", None, marshal.dumps(("not code", "", ()))])
def test_a_damaged_file_is_made_again_and_written_anew(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes | None) -> None:
    first = _function(LINE, (("k1", {0: 1}),))
    (kept,) = _kept(cache_home)
    whole = kept.read_bytes()
    heading = whole[: whole.index(b"\n") + 1]  # the file's key: what follows it is damaged
    kept.write_bytes(whole[: len(whole) // 2] if damage is None else heading + damage)
    kept_code.forget()
    made = _counting_made(monkeypatch)
    again = _function(LINE, (("k1", {0: 1}),))
    assert len(made) == 1 and again.generated_source == first.generated_source and again(None, [0])
    assert kept.read_bytes() == whole


def test_another_functions_file_in_a_kept_files_place_is_not_taken_for_it(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file copied over another's (each a whole function) was run as the function its name says: a turn's module
    ran a function in its place and loading stopped with a traceback, or a game played another rule."""
    _function(("return e[0] + 1",), ())
    (plus,) = _kept(cache_home)
    _function(("return e[0] * 10",), ())
    (times,) = [p for p in _kept(cache_home) if p != plus]
    times.write_bytes(plus.read_bytes())
    kept_code.forget()
    made = _counting_made(monkeypatch)
    assert _function(("return e[0] * 10",), ())(None, [3]) == 30
    assert len(made) == 1


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links")
def test_a_link_where_a_kept_file_was_is_not_followed(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _function(LINE, (("k1", {0: 1}),))
    (kept,) = _kept(cache_home)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(kept.read_bytes())  # a file out of the private folder: its code would run
    kept.unlink()
    kept.symlink_to(elsewhere)
    kept_code.forget()
    made = _counting_made(monkeypatch)
    assert _function(LINE, (("k1", {0: 1}),))(None, [0])
    assert len(made) == 1


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a file to another user takes root")
def test_a_kept_file_of_another_user_is_not_read_back(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _function(LINE, (("k1", {0: 1}),))
    (kept,) = _kept(cache_home)
    os.chown(kept, 65534, 65534)
    kept_code.forget()
    made = _counting_made(monkeypatch)
    assert _function(LINE, (("k1", {0: 1}),))(None, [0])
    assert len(made) == 1


def test_nothing_is_kept_on_disk_in_a_folder_others_may_write_in(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_home.parent.mkdir(parents=True)
    os.chmod(cache_home.parent, 0o777)
    _function(LINE, (("k1", {0: 1}),))
    assert not cache_home.exists()
    made = _counting_made(monkeypatch)
    assert _function(LINE, (("k1", {0: 1}),))(None, [0]) and made == []  # kept in memory
    kept_code.forget()
    assert _function(LINE, (("k1", {0: 1}),))(None, [0]) and len(made) == 1
