"""The syntax trees of a ruleset's code are kept under the hash of the code, in memory and in the private cache folder.

A ruleset compiled again reads its trees back instead of parsing its code (the largest part of compiling): the games
it plays, its generated code and its errors' positions must be exactly those of a ruleset parsed anew.
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest

import engine
from engine.core import kept_files, limits, paths
from engine.core.errors import RulesetError
from engine.lang import kept_trees, parser


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kept_trees.forget()
    yield tmp_path / "rulecraft" / "trees"
    kept_trees.forget()


def _kept(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*/*") if not p.name.startswith(".")) if folder.is_dir() else []


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, start: str, locate: object) -> None:
        raise AssertionError(f"parsed again: {text!r}")
    monkeypatch.setattr(parser, "_read", refuse)


def _played(game: engine.Game, seed: int) -> list[str]:
    state = game.new_state(players=2, seed=seed, record=True)
    rand = random.Random(seed)
    while state.outcome is None:
        state.play(int(rand.random() * len(state.legal_actions())))
    return list(state.log)


@pytest.mark.parametrize("name", ["nine-domains", "spell-cycles", "othello"])
def test_a_ruleset_compiled_again_reads_its_trees_from_disk_and_plays_the_same(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fresh = engine.load(name)
    kept = _kept(cache_home)
    folders = (cache_home.parent, cache_home, kept[0].parent)
    assert kept and {oct(folder.stat().st_mode & 0o777) for folder in folders} == {"0o700"}
    kept_trees.forget()  # as a new process: nothing in memory
    _no_parsing(monkeypatch)
    again = engine.load(name)
    assert [_played(again, seed) for seed in (1, 2)] == [_played(fresh, seed) for seed in (1, 2)]
    assert _kept(cache_home) == kept


CODE = "count(3) > 1"  # a type error: count() takes a collection


def _ruleset(folder: Path, blank_lines: int) -> Path:
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: t\nplayers: [2]\n" + "\n" * blank_lines + "components:\n  disc: {instances: [{id: d, count: 2}]}\n"
        "board: {kind: square-grid, width: 3, height: 3}\nturn:\n  - place: {from: supply, to: board}\n"
        f"end:\n  when: {CODE}\n", encoding="utf-8")
    return folder


def _error_at(folder: Path) -> str:
    with pytest.raises(RulesetError) as raised:
        engine.load(str(folder))
    return str(raised.value)


def test_kept_code_in_another_place_reports_errors_at_its_own_place(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first = _error_at(_ruleset(tmp_path / "a", 0))
    assert f"a{os.sep}ruleset.yaml:9:15" in first
    _no_parsing(monkeypatch)
    kept_trees.forget()
    second = _error_at(_ruleset(tmp_path / "b", 4))  # the same code four lines further down, in another file
    assert f"b{os.sep}ruleset.yaml:13:15" in second
    assert second.replace(f"b{os.sep}", f"a{os.sep}").replace(":13:", ":9:") == first


@pytest.mark.parametrize("damage", [b"", b"junk", None])
def test_a_damaged_file_is_parsed_again_and_written_anew(cache_home: Path, damage: bytes | None) -> None:
    tree = parser.parse_program("let a = 1\nif a == 1:\n  pass\n")
    (kept,) = _kept(cache_home)
    whole = kept.read_bytes()
    heading = whole[: whole.index(b"\n") + 1]  # the file's key: what follows it is damaged
    kept.write_bytes(whole[: len(whole) // 2] if damage is None else heading + damage)
    kept_trees.forget()
    again = parser.parse_program("let a = 1\nif a == 1:\n  pass\n")
    assert again.describe() == tree.describe()
    assert kept.read_bytes() == whole


def test_code_that_does_not_parse_is_not_kept(cache_home: Path) -> None:
    for _ in range(2):
        with pytest.raises(RulesetError, match="syntax error"):
            parser.parse_expression("1 +* 2")
    assert _kept(cache_home) == []


def test_a_tree_read_under_a_higher_limit_is_not_taken_under_the_usual_one(cache_home: Path) -> None:
    big = "1" * 150
    with limits.using(limits.Limits(integer_digits=200)):
        assert parser.parse_expression(f"{big} > 2").describe()
    with pytest.raises(RulesetError, match="more than 100 digits"):
        parser.parse_expression(f"{big} > 2")


def test_nothing_is_kept_in_a_folder_others_may_write_in(cache_home: Path) -> None:
    cache_home.parent.mkdir(parents=True)
    os.chmod(cache_home.parent, 0o777)
    assert paths.private_cache_dir() is None
    parser.parse_expression("2 + 2 > 3")
    assert not cache_home.exists()
    kept_trees.forget()
    assert parser.parse_expression("2 + 2 > 3").describe()  # parsed each time instead


def test_the_oldest_trees_go_past_the_most_kept(tmp_path: Path) -> None:
    for n in range(10):
        (tmp_path / f"{n:02d}").mkdir()
        made = tmp_path / f"{n:02d}" / f"tree{n}"
        made.write_bytes(b"x")
        os.utime(made, ns=(n * 10**9, n * 10**9))
    kept_files.prune(tmp_path, 8)
    assert sorted(p.name for p in tmp_path.glob("*/*")) == [f"tree{n}" for n in range(6, 10)]


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links")
def test_pruning_does_not_follow_a_link_in_a_folders_place(tmp_path: Path) -> None:
    """A link put where a folder of kept files was led pruning into the folder it names, deleting its files."""
    kept, elsewhere = tmp_path / "kept", tmp_path / "elsewhere"
    elsewhere.mkdir()
    for n in range(4):
        (elsewhere / f"file{n}").write_bytes(b"x")
    kept.mkdir()
    (kept / "ab").symlink_to(elsewhere)
    kept_files.prune(kept, 2)
    assert sorted(p.name for p in elsewhere.iterdir()) == [f"file{n}" for n in range(4)]


def _counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    read = parser._read

    def counting(text: str, start: str, locate: parser.Locate) -> object:
        parsed.append(text)
        return read(text, start, locate)
    monkeypatch.setattr(parser, "_read", counting)
    return parsed


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links")
def test_a_link_where_a_kept_file_was_is_not_followed(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    parser.parse_expression("3 + 4 > 5")
    (kept,) = _kept(cache_home)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(kept.read_bytes())  # a file out of the private folder: pickle may run what it holds
    kept.unlink()
    kept.symlink_to(elsewhere)
    kept_trees.forget()
    parsed = _counting_parses(monkeypatch)
    assert parser.parse_expression("3 + 4 > 5").describe()
    assert parsed == ["3 + 4 > 5"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")
def test_a_pipe_where_a_kept_file_was_does_not_hang_compiling(cache_home: Path) -> None:
    parser.parse_expression("3 + 4 > 6")
    (kept,) = _kept(cache_home)
    kept.unlink()
    os.mkfifo(kept)
    kept_trees.forget()
    done: list[str] = []
    reading = threading.Thread(target=lambda: done.append(parser.parse_expression("3 + 4 > 6").describe()), daemon=True)
    reading.start()
    reading.join(10)
    assert done, "reading the kept tree waited for a writer to the pipe"


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a file to another user takes root")
def test_a_kept_file_of_another_user_is_not_read_back(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parser.parse_expression("3 + 4 > 7")
    (kept,) = _kept(cache_home)
    os.chown(kept, 65534, 65534)
    kept_trees.forget()
    parsed = _counting_parses(monkeypatch)
    assert parser.parse_expression("3 + 4 > 7").describe()
    assert parsed == ["3 + 4 > 7"]


def test_a_tree_kept_under_another_lark_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The trees are made from lark's parse: one kept under another lark version (an upgrade) is parsed again."""
    import lark

    before = kept_trees._key("expression_start", "1 + 1 > 1")
    monkeypatch.setattr(lark, "__version__", lark.__version__ + ".other")
    kept_trees._version.cache_clear()
    try:
        assert kept_trees._key("expression_start", "1 + 1 > 1") != before
    finally:
        monkeypatch.undo()
        kept_trees._version.cache_clear()
    assert kept_trees._key("expression_start", "1 + 1 > 1") == before


def test_a_relative_cache_home_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """XDG_CACHE_HOME=cache (relative) kept a cache folder, and up to 10,000 trees, in each folder a command ran from."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert paths.cache_dir() == tmp_path / "home" / ".cache" / "rulecraft"
    kept_trees.forget()
    try:
        parser.parse_expression("5 + 5 > 9")
    finally:
        kept_trees.forget()
    assert not (tmp_path / "cache").exists() and _kept(tmp_path / "home" / ".cache" / "rulecraft" / "trees")


def test_a_tree_parsed_with_one_position_for_every_place_is_not_taken_elsewhere(cache_home: Path) -> None:
    """Code not read from a file is placed at one position, the same object for every line and column; its tree was
    kept, and the same code in a file then took it with every position at one place (1:36 for 'x', said at 1:1)."""
    from engine.core.errors import SourcePos

    code = "count(c in deck where c.v > 2) > 1 and x == 3"
    one = SourcePos("<option>", 7, 7)
    parser.parse_expression(code, lambda line, col: one)
    placed = lambda line, col: SourcePos("f.yaml", line + 10, col + 4)  # noqa: E731
    kept, fresh = parser.parse_expression(code, placed), parser._read(code, "expression_start", placed)
    assert (kept.pos, kept.right.pos, kept.right.left.pos) == (fresh.pos, fresh.right.pos, fresh.right.left.pos)
    assert kept.right.left.pos == SourcePos("f.yaml", 11, 44)


def test_every_module_whose_classes_a_tree_holds_changes_the_trees_hash() -> None:
    """A kept tree is a pickle of the nodes the parser builds: a change to the module of any of them must change the
    hash, or a tree kept by the code before would be read back into the new classes.  The statements' and the
    selections' modules were not counted."""
    from engine.lang.ast import Node

    classes, todo = set(), [Node]
    while todo:
        for sub in todo.pop().__subclasses__():
            classes.add(sub)
            todo.append(sub)
    built = {sub.__module__.rsplit(".", 1)[1] + ".py" for sub in classes if sub.__module__.startswith("engine.lang.")}
    assert {"ast.py", "statements.py", "selections.py"} <= built <= set(kept_trees.MADE_FROM)
