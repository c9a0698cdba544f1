"""The built-in rulesets at a glance — name, title, players, variants — remembered between runs.

Telling what a ruleset is means loading it, and loading every built-in
ruleset takes most of a second, so ``rulecraft list`` keeps what it found in
the user's cache folder (``$XDG_CACHE_HOME/rulecraft``, else
``~/.cache/rulecraft``) under a key hashed from everything the answer depends
on: the built-in rulesets' files, the schemas and the engine's own code.
Changing any of them loads the rulesets again; a cache that cannot be read or
written is simply not used.

The key is made from each file's status (size, modification and change
times, inode), not its bytes, so that checking it reads no file: any write
to a file sets its change time to the present, which no program can set back.
Two writes within one tick of the file system's clock could leave the same
times, so an answer is only remembered once every file has been left alone
for :data:`SETTLE_SECONDS`.

>>> entries = summaries()
>>> [entry["name"] for entry in entries] == builtin_names()
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Iterator

from engine.core.paths import builtin_names, cache_dir, rulesets_dir, schemas_dir

ENGINE_DIR = Path(__file__).resolve().parent.parent
FIELDS = {"name", "title", "players", "variants"}
SETTLE_SECONDS = 2.0
"""An answer is remembered only when no file it depends on changed in this many seconds before it was read."""


def summaries() -> list[dict[str, Any]]:
    """One entry per built-in ruleset: ``name``, ``title``, ``players``, ``variants`` — or ``name`` and ``error``."""
    key, settled = _inputs()
    path = cache_dir() / f"list-{key}.json"
    kept = _read(path)
    if kept is not None and [entry["name"] for entry in kept] == builtin_names():
        return kept
    entries = [summary(name) for name in builtin_names()]
    if not settled:  # a file changed a moment ago: it may change again without its times showing it
        return entries
    from engine.core.atomic import WriteFailed, write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(entries, ensure_ascii=False))
        _forget_others(path)
    except (OSError, WriteFailed):  # a read-only home: answer without remembering
        pass
    return entries


def _forget_others(kept: Path) -> None:
    """Remove the answers remembered for earlier rulesets or engines: only the newest ``list-*.json`` stays."""
    for old in kept.parent.glob("list-*.json"):
        if old != kept:
            old.unlink(missing_ok=True)


def summary(name: str) -> dict[str, Any]:
    """What ``rulecraft list`` says of one built-in ruleset, loading it (the first line of the error if it fails)."""
    from engine.compiling.loading import load
    from engine.core.errors import RulecraftError

    try:
        game = load(name)
    except RulecraftError as err:
        return {"name": name, "error": str(err).splitlines()[0]}
    return {"name": name, "title": game.title, "players": list(game.player_counts), "variants": list(game.available_variants)}


def inputs_key() -> str:
    """A hash of the status of every file the summaries depend on: the built-in rulesets, the schemas, the engine's code."""
    return _inputs()[0]


def _inputs() -> tuple[str, bool]:
    """:func:`inputs_key`, and whether every one of those files is older than :data:`SETTLE_SECONDS`."""
    settled_before = time.time_ns() - int(SETTLE_SECONDS * 1e9)
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    newest = 0
    for folder, suffixes in ((rulesets_dir(), ("",)), (schemas_dir(), ("",)), (ENGINE_DIR, (".py", ".lark"))):
        for name, info in _files(str(folder), "", suffixes):
            digest.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0{info.st_ino}\0".encode())
            newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
    return digest.hexdigest()[:20], newest < settled_before


def _files(folder: str, prefix: str, suffixes: tuple[str, ...]) -> Iterator[tuple[str, os.stat_result]]:
    """The files under ``folder`` whose names end with one of ``suffixes``, by relative name in sorted order, with
    their status; ``__pycache__`` folders and links to folders are skipped, and a folder that cannot be read has no files."""
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                yield from _files(entry.path, f"{prefix}{entry.name}/", suffixes)
        elif entry.is_file() and entry.name.endswith(suffixes):
            yield f"{prefix}{entry.name}", entry.stat()


def _read(path: Path) -> list[dict[str, Any]] | None:
    """The entries kept at ``path``, or None when there are none or they are not what this module writes."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(entries, list) or not all(_well_formed(entry) for entry in entries):
        return None
    return entries


def _well_formed(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        return False
    if set(entry) == {"name", "error"}:
        return isinstance(entry["error"], str)
    return (set(entry) == FIELDS and isinstance(entry["title"], str)
            and isinstance(entry["players"], list) and all(isinstance(p, int) for p in entry["players"])
            and isinstance(entry["variants"], list) and all(isinstance(v, str) for v in entry["variants"]))
