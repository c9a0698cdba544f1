"""Errors in a base ruleset caused by the file that ``extends`` it, reported at the designer's own line.

A designer who extends a built-in ruleset and changes a type, an option or a
counter can break a line of the built-in file they never opened.  Each such
problem is moved to the line of the designer's file that most likely caused
it (the change that names what the message names), keeps where in the base it
shows, and says how to fix it from the designer's file: undo the change, or
override the base's section that relies on it.

Example (a file that drops a value the base still uses)::

    fewer.yaml:4:3: unknown mark 'X' in mark -- at base-game/ruleset.yaml:49:44, in the
    'components' of base-game (which this file extends), because of this change (fix it here: undo
    this change, or override 'components' in this file)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.set_options import set_outside
from engine.core.errors import Diagnostic, RulesetError, SourcePos, position_key
from engine.core.paths import rulesets_dir
from engine.core.yamlsource import Mapping, Sequence, load_yaml

QUOTED = re.compile(r"'([^']+)'")
WORD = re.compile(r"[A-Za-z_][\w-]*")
META = {"name", "title", "version", "description", "extends", "include"}
"""Keys of a designer's file that change no rule, so cause nothing in the base."""


@dataclass(frozen=True)
class Change:
    """One key (or list item) the designer's file writes: its path of keys, where, and its scalar value."""

    keys: tuple[str, ...]
    pos: SourcePos
    value: str | None
    item: bool = False  # an item of a list: about its value only

    def value_names(self) -> set[str]:
        """The value this change writes, as a word: ``z`` for an item ``kind+: [z]``; none for a number.

        >>> Change(("types", "kind+"), SourcePos("f", 1, 1), "z", item=True).value_names()
        {'z'}
        """
        return {self.value} if self.value is not None and not self.value.lstrip("-").isdigit() else set()

    def number_names(self) -> set[str]:
        """The value this change writes when it is a whole number: the weakest evidence, named last.

        >>> Change(("options", "points", "default"), SourcePos("f", 1, 1), "3", item=True).number_names()
        {'3'}
        """
        return {self.value} if self.value is not None and self.value.lstrip("-").isdigit() else set()

    def key_names(self) -> set[str]:
        """The keys this change writes (without ``+``/``-``); none for a list item, which is about its value."""
        return set() if self.item else {key.rstrip("+-") for key in self.keys}


def blame_extension(path: Path, err: RulesetError) -> RulesetError:
    """``err`` with each diagnostic inside an extended base moved to the designer's line that caused it.

    ``path`` is the ruleset the designer loaded; diagnostics in its own files
    (it and the files it includes) are kept as they are.  When every
    diagnostic is in ``path`` itself, the file is not read again.
    """
    if all(not _in_base(d, {_resolved(path)}) for d in err.diagnostics):
        return err
    try:
        doc = load_yaml(path)
    except RulesetError:
        return err
    if not isinstance(doc, Mapping) or "extends" not in doc:
        return err
    own = {_resolved(p) for p in _own_files(path, doc)}
    changes = [c for c in _changes(doc, ()) if c.keys[0] not in META]
    base = str(doc["extends"])
    # the designer's own problems first, in their order, then the base's, in the base's order: the same wherever the
    # base lies (sorted by path, a base under /tmp/a came before a designer's file under /tmp/b, and after it elsewhere)
    ordered = sorted(err.diagnostics, key=lambda d: (_in_base(d, own), *position_key(d)))
    return RulesetError([_blamed(d, changes, base, doc) if _in_base(d, own) else d for d in ordered])


def _in_base(d: Diagnostic, own: set[str]) -> bool:
    if d.pos is None or set_outside(d.pos.file):
        return False
    return _resolved(Path(d.pos.file)) not in own


def _resolved(path: Path) -> str:
    """``path`` made absolute, its links followed (as it is, when it cannot be)."""
    try:
        return str(path.resolve())
    except OSError:
        return str(path)


def _own_files(path: Path, doc: Mapping) -> list[Path]:
    """The designer's file and the files it includes (one level is enough to tell them from the base's)."""
    files = [path]
    entries = doc.get("include")
    for entry in [entries] if isinstance(entries, str) else entries if isinstance(entries, list) else []:
        target = path.parent / str(entry)
        files += sorted(target.glob("*.yaml")) if target.is_dir() else [target]
    return files


def _changes(node: Any, keys: tuple[str, ...]) -> list[Change]:
    """Every key and scalar the designer wrote, deepest first within each branch."""
    found: list[Change] = []
    if isinstance(node, Mapping):
        for key, value in node.items():
            inner = _changes(value, keys + (str(key),))
            scalar = None if isinstance(value, (Mapping, Sequence)) else str(value)
            found += inner + [Change(keys + (str(key),), node.key_pos.get(key, node.pos), scalar)]
    elif isinstance(node, Sequence):
        for index, item in enumerate(node):
            if not isinstance(item, (Mapping, Sequence)):
                found.append(Change(keys, node.pos_of(index), str(item), item=True))
            else:
                found += _changes(item, keys)
    return found


def _blamed(d: Diagnostic, changes: list[Change], base: str, doc: Mapping) -> Diagnostic:
    """``d`` (in the base) reported at the change that caused it, else at the ``extends`` line."""
    assert d.pos is not None
    section = _section(d.pos)
    cause = _cause(d, changes)
    where = f"at {_shown(d.pos)}, in {f'the {section!r} of ' if section else ''}{base} (which this file extends)"
    fix = f"override '{section}' in this file" if section else "override the part of the base that uses it"
    if cause is None:
        return Diagnostic(doc.pos_of("extends"), f"{d.message} -- {where}, after the changes this file makes",
                          _joined(d.hint, f"fix it here: {fix}, or undo the change that broke it"))
    return Diagnostic(cause.pos, f"{d.message} -- {where}, because of this change",
                      _joined(d.hint, f"fix it here: undo this change, or {fix}"))


def _shown(pos: SourcePos) -> str:
    """A base position as a designer can find it: under the built-in rulesets, else as given.

    >>> _shown(SourcePos(str(rulesets_dir() / "my-game" / "ruleset.yaml"), 3, 5))
    'my-game/ruleset.yaml:3:5'
    """
    path = Path(pos.file).resolve()
    root = rulesets_dir().resolve()
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else pos.file
    return f"{shown}:{pos.line}:{pos.col}"


def _joined(first: str | None, second: str) -> str:
    return f"{first}; {second}" if first else second


def _cause(d: Diagnostic, changes: list[Change]) -> Change | None:
    """The change whose value or keys the message names: quoted names first, then any word of it.

    A value named beats a key named: in "seating for 2 players lists 2 seats
    but there are 3 roles (x, y, z)" the cause is the item ``z`` the file
    added (``kind+: [z]``), not its ``players`` key.  A number is named last:
    in "setup key '3' must be ... one of the player counts in 'players'" the
    cause is the ``players`` the file wrote, not a 3 among its points per rank.
    """
    quoted = set(QUOTED.findall(d.message + " " + (d.hint or "")))
    words = set(WORD.findall(d.message))
    for pool in (quoted, words):
        for named in (Change.value_names, Change.key_names, Change.number_names):
            for change in changes:
                if named(change) & pool:
                    return change
    return None


def _section(pos: SourcePos) -> str | None:
    """The top-level key of the base file whose block holds ``pos``'s line."""
    try:
        tree = load_yaml(Path(pos.file))
    except (RulesetError, OSError):
        return None
    if not isinstance(tree, Mapping):
        return None
    best = None
    for key in tree:
        start = tree.key_pos.get(key)
        if start is not None and start.line <= pos.line and (best is None or start.line >= best[1]):
            best = (str(key), start.line)
    return best[0] if best else None
