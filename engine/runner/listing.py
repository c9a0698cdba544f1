"""The built-in rulesets at a glance — name, title, players, variants — remembered between runs.

Telling what a ruleset is means loading it, and loading every built-in
ruleset takes most of a second, so ``rulecraft list`` keeps what it found in
the user's cache folder (``$XDG_CACHE_HOME/rulecraft``, else
``~/.cache/rulecraft``) under a key hashed from everything the answer depends
on: the built-in rulesets' files, the schemas and the engine's own code.
Changing any of them loads the rulesets again; a cache that cannot be read or
written is simply not used.

>>> entries = summaries()
>>> [entry["name"] for entry in entries] == builtin_names()
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from engine.core.atomic import WriteFailed, write_atomic
from engine.core.errors import RulecraftError
from engine.core.paths import builtin_names, rulesets_dir, schemas_dir

ENGINE_DIR = Path(__file__).resolve().parent.parent
FIELDS = {"name", "title", "players", "variants"}


def summaries() -> list[dict[str, Any]]:
    """One entry per built-in ruleset: ``name``, ``title``, ``players``, ``variants`` — or ``name`` and ``error``."""
    key = inputs_key()
    path = cache_dir() / f"list-{key}.json"
    kept = _read(path)
    if kept is not None and [entry["name"] for entry in kept] == builtin_names():
        return kept
    entries = [summary(name) for name in builtin_names()]
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

    try:
        game = load(name)
    except RulecraftError as err:
        return {"name": name, "error": str(err).splitlines()[0]}
    return {"name": name, "title": game.title, "players": list(game.player_counts), "variants": list(game.available_variants)}


def inputs_key() -> str:
    """A hash of every file the summaries depend on: the built-in rulesets, the schemas, the engine's code."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for folder, pattern in ((rulesets_dir(), "*"), (schemas_dir(), "*"), (ENGINE_DIR, "*.py"), (ENGINE_DIR, "*.lark")):
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def cache_dir() -> Path:
    """Where Rulecraft keeps what it may compute again: ``$XDG_CACHE_HOME/rulecraft``, else ``~/.cache/rulecraft``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulecraft"


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
