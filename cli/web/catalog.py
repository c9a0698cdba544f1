"""The rulesets a server offers: the built-in ones, one ruleset, or every ruleset in a folder — nothing else.

A page or an uploaded save names a ruleset; only the names listed here are
ever loaded, so a request cannot make the server read another file.
Compiled games are kept (a :class:`~engine.model.game.Game` never changes), so
each ruleset, variant and option set is compiled once — until a file of the
ruleset's folder changes: a designer who edits the YAML while the server runs
gets the new rules on the next page that loads it (a game already on a table
keeps the rules it started with).

>>> Catalog(None).load("no-such-game")  # doctest: +ELLIPSIS
Traceback (most recent call last):
cli.web.catalog.UnknownRuleset: this server has no ruleset 'no-such-game'; it offers: ...

Typical use::

    catalog = Catalog("my-rulesets/")          # every folder in it holding a ruleset.yaml
    game = catalog.load("my-game", ("short",), {"width": "5"})
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engine
from engine.core.errors import RulecraftError, RulesetError
from engine.core.paths import RULESET_FILE, builtin_names, find_ruleset
from engine.runner.listing import inputs_key, summaries
from engine.runner.replay import ruleset_ref

if TYPE_CHECKING:
    from engine import Game

CACHE_SIZE = 64
"""Compiled games kept (by ruleset, variants and options)."""

STAMPED_ENTRIES = 2000
"""The most entries of a ruleset's folder looked at to tell whether its files changed (a ruleset file lying in a
large folder is not searched through on every page)."""

YAML_SUFFIXES = (".yaml", ".yml")


COMPILING = threading.Lock()
"""One ruleset compiled at a time, whichever catalog asks, so that two pages asking for one ruleset compile it once
(the effect language's parser and the reading of generated source each take one parse at a time themselves:
CPython 3.11's ast module keeps its recursion depth in one counter for every thread)."""


class UnknownRuleset(LookupError):
    """A ruleset name this server does not offer."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Listed:
    """What the front page shows of a built-in ruleset, from ``rulecraft list``'s remembered summaries (the same
    names as a compiled game's, so the page takes either)."""

    title: str
    player_counts: tuple[int, ...]
    available_variants: tuple[str, ...]


class Catalog:
    """The rulesets of one server, by name."""

    def __init__(self, source: str | os.PathLike[str] | None) -> None:
        """``source``: None for the built-in rulesets, else a ruleset (name, file or folder, as a text or a path) or a
        folder of rulesets."""
        self._paths: dict[str, str] = {}
        if source is None:
            self._paths = {name: name for name in builtin_names()}
        elif source in builtin_names():
            self._paths = {source: source}
        elif Path(source).is_dir() and not (Path(source) / RULESET_FILE).is_file():
            for folder in sorted(p for p in Path(source).iterdir() if (p / RULESET_FILE).is_file()):
                self._paths[folder.name] = str(folder.resolve())
            if not self._paths:
                raise RulesetError.at(None, f"{source}: no ruleset here (no {RULESET_FILE}, nor folders holding one)")
        else:
            path = find_ruleset(source).resolve()  # 'serve .' names the folder it runs in, not '' (a name no link reached)
            name = path.parent.name if path.name == RULESET_FILE else path.stem
            self._paths[name or "ruleset"] = str(path)
        self._games: dict[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], tuple[Stamp, Game]] = {}
        self._lock = threading.Lock()
        self._summaries: tuple[str, dict[str, dict[str, Any]]] | None = None  # the built-ins', by what they depend on

    def names(self) -> list[str]:
        return list(self._paths)

    def entries(self) -> list[tuple[str, Game | Listed | None, str]]:
        """Each ruleset as the front page lists it: (name, the game or its summary, None and why it does not load).

        A built-in ruleset is listed from ``rulecraft list``'s remembered summaries (see
        :mod:`engine.runner.listing`): compiling all of them made a server's first page take seconds.
        """
        builtin = self._builtin_summaries() if any(n == p for n, p in self._paths.items()) else {}
        listed: list[tuple[str, Game | Listed | None, str]] = []
        for name, path in self._paths.items():
            entry = builtin.get(name) if path == name else None
            if entry is not None and "error" in entry:
                listed.append((name, None, entry["error"]))
            elif entry is not None:
                listed.append((name, Listed(entry["title"], tuple(entry["players"]), tuple(entry["variants"])), ""))
            else:
                try:
                    listed.append((name, self.load(name), ""))
                except RulecraftError as err:
                    listed.append((name, None, str(err).splitlines()[0]))
        return listed

    def _builtin_summaries(self) -> dict[str, dict[str, Any]]:
        """``rulecraft list``'s summaries by name, kept by this server too (where the user's cache folder cannot be
        written, they would be worked out again for every front page) until a file they depend on changes."""
        key = inputs_key()
        kept = self._summaries
        if kept is None or kept[0] != key:
            kept = self._summaries = (key, {entry["name"]: entry for entry in summaries()})
        return kept[1]

    def ref(self, name: str) -> str:
        """How a save names the ruleset (see :func:`engine.runner.replay.ruleset_ref`)."""
        return ruleset_ref(self._path(name))

    def name_of_ref(self, ref: str) -> str:
        """The name of the ruleset a save calls ``ref``; UnknownRuleset when this server does not offer it."""
        for name in self._paths:
            if ref in (name, self.ref(name)):
                return name
        raise UnknownRuleset(f"this server does not offer the ruleset the file names ('{ref}'); it offers: "
                             + ", ".join(self._paths))

    def load(self, name: str, variants: tuple[str, ...] = (), set_options: dict[str, str] | None = None) -> Game:
        """The compiled game; UnknownRuleset for a name not offered, RulesetError for a bad variant or option."""
        key = (name, tuple(variants), tuple(sorted((set_options or {}).items())))
        stamp = files_stamp(find_ruleset(self._path(name)).parent)
        with self._lock:
            kept = self._games.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        with COMPILING:
            with self._lock:
                kept = self._games.get(key)  # compiled meanwhile, for the request this one waited for
            if kept is not None and kept[0] == stamp:
                return kept[1]
            given = set_options or {}  # set= parameters, read as the command line's --set
            game = engine.load(self._path(name), variants, given, set_by=dict.fromkeys(given, "--set"))
            with self._lock:
                self._games.pop(key, None)
                if len(self._games) >= CACHE_SIZE:
                    self._games.pop(next(iter(self._games)))
                self._games[key] = (stamp, game)
        return game

    def _path(self, name: str) -> str:
        path = self._paths.get(name)
        if path is None:
            raise UnknownRuleset(f"this server has no ruleset '{name}'; it offers: {', '.join(self._paths)}")
        return path


Stamp = tuple[tuple[str, int, int], ...]


def files_stamp(folder: Path) -> Stamp:
    """The YAML files under ``folder`` (name, size, modification time), enough to tell that one was edited, added
    or removed; hidden folders are skipped, and no more than :data:`STAMPED_ENTRIES` entries are looked at.

    >>> files_stamp(Path("no-such-folder"))
    ()
    """
    found: list[tuple[str, int, int]] = []
    folders, seen = [folder], 0
    while folders and seen < STAMPED_ENTRIES:
        try:
            with os.scandir(folders.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if entry.name.startswith(".") or seen > STAMPED_ENTRIES:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(Path(entry.path))
                    elif entry.name.endswith(YAML_SUFFIXES):
                        info = entry.stat()
                        found.append((entry.path, info.st_size, info.st_mtime_ns))
        except OSError:  # a folder that cannot be read tells nothing
            continue
    return tuple(sorted(found))
