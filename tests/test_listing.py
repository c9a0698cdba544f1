"""``rulecraft list`` remembers what it found, and forgets it when anything it depends on changes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import engine
from engine.runner import listing


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "rulecraft"


def test_the_summaries_are_what_loading_says(cache: Path) -> None:
    entries = listing.summaries()
    game = engine.load("tutorial-tiles")
    tiles = next(e for e in entries if e["name"] == "tutorial-tiles")
    assert tiles == {"name": "tutorial-tiles", "title": game.title, "players": list(game.player_counts),
                     "variants": list(game.available_variants)}
    assert [e["name"] for e in entries] == engine.builtin_names()


def test_a_second_run_reads_what_the_first_wrote(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = listing.summaries()
    monkeypatch.setattr(listing, "summary", lambda name: pytest.fail(f"{name} was loaded again"))
    assert listing.summaries() == first


def quick(name: str) -> dict[str, object]:
    """A stand-in for loading a ruleset, where what it says does not matter."""
    return {"name": name, "title": name.upper(), "players": [2], "variants": []}


def test_a_damaged_cache_is_not_believed(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "summary", quick)
    first = listing.summaries()
    [kept] = cache.glob("list-*.json")
    for text in ("not json", json.dumps([{"name": "x", "title": 3}]), json.dumps({"a": 1}),
                 json.dumps([{**first[0], "players": "all"}])):
        kept.write_text(text, encoding="utf-8")
        assert listing.summaries() == first
    assert json.loads(kept.read_text(encoding="utf-8")) == first


def test_another_engine_or_another_ruleset_is_another_key(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    before = listing.inputs_key()
    copy = tmp_path / "rulesets"
    copy.mkdir()
    (copy / "extra.yaml").write_text("title: changed\n", encoding="utf-8")
    monkeypatch.setattr(listing, "rulesets_dir", lambda: copy)
    assert listing.inputs_key() != before


def test_a_file_changed_in_any_way_is_another_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    copy = tmp_path / "rulesets"
    copy.mkdir()
    ruleset = copy / "ruleset.yaml"
    ruleset.write_text("title: one\n", encoding="utf-8")
    monkeypatch.setattr(listing, "rulesets_dir", lambda: copy)
    keys = [listing.inputs_key()]
    ruleset.write_text("title: three\n", encoding="utf-8")  # another size
    keys.append(listing.inputs_key())
    info = ruleset.stat()
    os.utime(ruleset, ns=(info.st_atime_ns, info.st_mtime_ns - 10**9))  # the same size, another time
    keys.append(listing.inputs_key())
    replacement = copy / "replacement"
    replacement.write_text("title: there\n", encoding="utf-8")
    os.utime(replacement, ns=(info.st_atime_ns, info.st_mtime_ns - 10**9))
    os.replace(replacement, ruleset)  # the same size and times, another file
    keys.append(listing.inputs_key())
    assert len(set(keys)) == len(keys)


def test_an_answer_is_remembered_only_once_the_files_have_settled(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "summary", quick)
    monkeypatch.setattr(listing, "SETTLE_SECONDS", 10.0**12)  # as if every file had just been written
    first = listing.summaries()
    assert not cache.exists()
    monkeypatch.setattr(listing, "SETTLE_SECONDS", 0.0)
    assert listing.summaries() == first
    assert [p.name for p in cache.iterdir()] == [f"list-{listing.inputs_key()}.json"]


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file where the folder should be
    monkeypatch.setattr(listing, "summary", quick)
    assert [e["name"] for e in listing.summaries()] == engine.builtin_names()


def test_only_the_newest_answer_is_kept(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "summary", quick)
    cache.mkdir(parents=True)
    (cache / "list-0123456789abcdef0123.json").write_text("[]", encoding="utf-8")  # an older engine's answer
    (cache / "other.json").write_text("{}", encoding="utf-8")  # not ours to remove
    listing.summaries()
    assert sorted(p.name for p in cache.iterdir()) == sorted([f"list-{listing.inputs_key()}.json", "other.json"])
