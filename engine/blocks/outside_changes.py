"""What changes on a paused state outside its effect, between the pause and the answer.

While an effect waits for a choice (:mod:`engine.blocks.choices`), taking the
decision notes things on the state (such as the turn of the last decision),
and a save, a clone or a replay of the effect must start from a position that
has them too.  A pause notes the state's fields (:meth:`Noticed.snapshot`);
the answer finds what changed since (:meth:`Noticed.changes`): single values
(numbers, text, tuples, none) and the entries of dicts are compared, any other
field (a list) is kept only so that an unchanged state compares equal in one
go.  :func:`apply_changes` puts them on a copy of the position before the
effect, when that position is read.

Both are read from the fields by code generated once per state class (plain
attribute reads, the fastest Python has), since every decision taken inside
an effect does both.

Example::

    noticed = Noticed(("turn", "grid"))
    noted = noticed.snapshot(s)          # at the pause
    ...                                  # the decision is taken: s.turn changes
    noticed.changes(s, noted)            # (("turn", 3, None),)
    apply_changes(start, noticed.changes(s, noted))
"""

from __future__ import annotations

import operator
from itertools import compress
from typing import Any

SINGLE = (int, str, tuple, type(None))
"""The kinds of single values compared as a whole (bool is an int)."""


class Noticed:
    """The fields of a state class a pause notes, and readers of them generated for those names.

    >>> class Point:
    ...     def __init__(self): self.x, self.seen, self.path = 1, {"a": 1}, [0]
    >>> noticed = Noticed(("x", "seen", "path"))
    >>> p = Point(); noted = noticed.snapshot(p)
    >>> p.x, p.seen["a"], p.seen["b"] = 2, 5, 6
    >>> p.path.append(1)  # a list: not compared
    >>> noticed.changes(p, noted)
    (('x', 2, None), ('seen', {'a': 5, 'b': 6}, ()))
    """

    __slots__ = ("names", "read", "snapshot", "indices")

    def __init__(self, names: tuple[str, ...]) -> None:
        if not names or not all(name.isidentifier() for name in names):
            raise ValueError(f"not field names: {names!r}")
        self.names = names
        self.indices = range(len(names))
        fields = ", ".join(f"s.{name}" for name in names)
        copies = ", ".join(f"(x.copy() if type(x := s.{name}) is dict else dict(x) if isinstance(x, dict) else x)"
                           for name in names)
        self.read = eval(f"lambda s: ({fields},)")  # noqa: S307 - built from identifiers only (checked above)
        self.snapshot = eval(f"lambda s: ({copies},)")  # noqa: S307 - the same
        """The fields' values, dicts copied (kept as the pause's ``noted``)."""

    def changes(self, s: Any, noted: tuple[Any, ...]) -> tuple[tuple[str, Any, Any], ...]:
        """What changed on ``s`` since ``noted`` (a :attr:`snapshot`): ``(name, value, None)`` for a field given a new
        value, ``(name, changed entries, removed keys)`` for a dict changed in place; empty when nothing did."""
        now = self.read(s)
        if now == noted:  # the usual answer: nothing noted changed (one comparison, in C)
            return ()
        found: list[tuple[str, Any, Any]] = []
        for i in compress(self.indices, map(operator.ne, now, noted)):
            then, value = noted[i], now[i]
            if isinstance(then, dict):
                if isinstance(value, dict):
                    found.append((self.names[i], {k: v for k, v in value.items() if k not in then or then[k] != v},
                                  tuple(k for k in then if k not in value)))
                else:
                    found.append((self.names[i], value, None))
            elif isinstance(then, SINGLE):
                found.append((self.names[i], value, None))
        return tuple(found)


def apply_changes(target: Any, changes: tuple[tuple[str, Any, Any], ...]) -> None:
    """Give ``target`` the ``changes`` (of :meth:`Noticed.changes`), in order; a dict changed is replaced by a copy
    (``target`` may share it with the position it was copied from).

    >>> class Box: pass
    >>> b = Box(); b.n, b.d = 1, {"a": 1, "b": 2}
    >>> shared = b.d
    >>> apply_changes(b, (("n", 4, None), ("d", {"a": 3}, ("b",))))
    >>> b.n, b.d, shared
    (4, {'a': 3}, {'a': 1, 'b': 2})
    """
    for name, value, gone in changes:
        if gone is None:  # a new value: a dict is copied too (a kept structure made since, say)
            setattr(target, name, value.copy() if isinstance(value, dict) else value)
            continue
        entries = dict(getattr(target, name))
        entries.update(value)
        for key in gone:
            entries.pop(key, None)
        setattr(target, name, entries)
