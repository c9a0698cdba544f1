"""The effect language's parser tables are kept in the user's private cache folder, and only there.

Working the LALR tables out costs more than compiling a whole ruleset, so lark keeps them in a file
(``cache=``), which it reads back with pickle: the file must be one only this user can have written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.core import paths
from engine.lang import kept_trees, parser


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(kept_trees, "parsed", lambda text, start, locate, parse: parse(text, start, locate))  # parse each time
    parser._parser.cache_clear()
    yield tmp_path / "rulecraft"
    parser._parser.cache_clear()


def _tables(folder: Path) -> list[Path]:
    return sorted(folder.glob("grammar-*.tables")) if folder.is_dir() else []


def test_the_tables_are_kept_and_read_back(cache_home: Path) -> None:
    parser.parse_expression("1 + 2 > 2")
    (kept,) = _tables(cache_home)
    assert oct(cache_home.stat().st_mode & 0o777) == "0o700"
    written = kept.stat().st_mtime_ns
    parser._parser.cache_clear()
    assert parser.parse_expression("count(x in [1, 2]) == 2").describe()
    assert kept.stat().st_mtime_ns == written  # read, not worked out and written again


@pytest.mark.parametrize("damage", [b"", b"junk\n", None])
def test_a_damaged_tables_file_is_worked_out_again(cache_home: Path, damage: bytes | None) -> None:
    parser.parse_expression("1")
    (kept,) = _tables(cache_home)
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2] if damage is None else damage)
    parser._parser.cache_clear()
    assert len(parser.parse_program("let a = 1\nif a == 1:\n  pass\n").body) == 2
    assert len(kept.read_bytes()) > len(whole) // 2  # written again, whole


def test_a_cache_folder_others_may_write_in_is_not_used(cache_home: Path) -> None:
    cache_home.mkdir(parents=True)
    os.chmod(cache_home, 0o777)
    assert paths.private_cache_dir() is None
    parser.parse_expression("1 + 1")
    assert _tables(cache_home) == []


def test_without_a_cache_folder_the_tables_are_worked_out_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    parser._parser.cache_clear()
    try:
        assert paths.private_cache_dir() is None
        assert parser.parse_expression("2 * 3").describe()
    finally:
        parser._parser.cache_clear()
