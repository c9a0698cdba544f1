"""A drawing is printed again from memory only when it would be drawn the same: same subject, same terminal, same code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from cli import drawn

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "rulecraft"


class Drawer:
    """Draws a line naming its subject, counting how often it was asked to."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, subject: str) -> None:
        def draw(console: Console) -> None:
            self.calls += 1
            console.print(f"a drawing of {subject}")

        drawn.print_drawing(subject, draw)


def test_the_same_drawing_is_printed_from_memory(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    draw = Drawer()
    draw("x")
    first = capsys.readouterr().out
    draw("x")
    assert capsys.readouterr().out == first == "a drawing of x\n"
    assert draw.calls == 1


def test_another_subject_or_another_terminal_is_drawn_again(cache: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    draw = Drawer()
    draw("x")
    draw("y")
    monkeypatch.setenv("COLUMNS", "33")
    draw("y")
    monkeypatch.setenv("NO_COLOR", "1")
    draw("y")
    assert draw.calls == 4
    assert capsys.readouterr().out == "a drawing of x\n" + "a drawing of y\n" * 3


def test_a_damaged_or_unwritable_memory_is_drawn_again(cache: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    draw = Drawer()
    draw("x")
    kept = cache / drawn.DRAWING_FILE
    for text in ("not json", '{"key": 1, "text": "x"}', '["a drawing of x"]'):
        kept.write_text(text, encoding="utf-8")
        draw("x")
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file where the folder should be
    draw("x")
    assert draw.calls == 5
    assert capsys.readouterr().out == "a drawing of x\n" * 5


def test_where_rich_asks_the_system_more_it_always_draws(cache: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    draw = Drawer()
    draw("x")
    draw("x")
    assert draw.calls == 2 and not cache.exists()
    assert capsys.readouterr().out == "a drawing of x\n" * 2


def test_list_prints_from_memory_what_rich_draws(tmp_path: Path) -> None:
    """At each width: a remembered table, after another width's, is the table rich draws with no memory at all.  (Each
    ``rulecraft list`` is a process of its own: seven, where a third width and listing the two again made twelve.)"""
    remembering, fresh = tmp_path / "remembering", tmp_path / "fresh"
    _list(remembering, 80)  # the rulesets are loaded once, then remembered
    drawn_at = {}
    for width in (40, 100):
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.copytree(remembering / "rulecraft", fresh / "rulecraft", ignore=shutil.ignore_patterns(drawn.DRAWING_FILE))
        drawn_at[width] = _list(fresh, width)
        assert _list(remembering, width) == drawn_at[width]
        assert _list(remembering, width) == drawn_at[width]  # from memory
    assert drawn_at[40] != drawn_at[100]


def _list(cache: Path, width: int) -> str:
    """What ``rulecraft list`` prints with the cache folder ``cache``, ``width`` columns wide."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(cache), "COLUMNS": str(width)}
    code = "import sys; from cli.main import main; main(['list'], prog_name='rulecraft')"
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=300).stdout
