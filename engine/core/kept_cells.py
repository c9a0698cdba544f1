"""Cells a state keeps by value: which cells of the board show each value of an attribute, read, not scanned.

A block that asks "where are the pieces showing ``v``?" over and over (a
bracketing check lists the rivals' cells at every decision) names what the
values are with a :class:`CellKind`: a table of each component's value by
face, so the value may change when a piece turns over.  The first time a
kind is read the state scans its board once (:func:`kept_cells`); from then
on every placement, removal, swap and change of face updates each kind's
sets (:func:`recell`, :func:`reface`), and a clone copies them.  A cell
counts with the value of its top piece, the one ``grid`` names.

>>> from types import SimpleNamespace
>>> side = [["A", "B"], ["B", "A"]]                  # by face, then component
>>> s = SimpleNamespace(grid={(0, 0): 0, (1, 0): 1}, face=[0, 0], by_value={})
>>> kind = CellKind(side)
>>> sorted(kept_cells(s, kind)["A"]), sorted(kept_cells(s, kind)["B"])
([(0, 0)], [(1, 0)])
>>> s.face[1] = 1; reface(s.by_value, (1, 0), 1, 0, 1)
>>> sorted(kept_cells(s, kind)["A"]), sorted(kept_cells(s, kind)["B"])
([(0, 0), (1, 0)], [])
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

Cell = tuple[int, int]


class CellKind(tuple):  # type: ignore[type-arg]
    """What kept cells are grouped by: ``values[face][cid]``, a component's value when it shows ``face``.

    A tuple of what the values are (the table by identity: the game keeps its tables, so the same table is the
    same attribute), so that finding the kept sets is a look-up Python hashes and compares in C:

    >>> side = [["A", "B"]]
    >>> CellKind(side) == CellKind(side), CellKind(side).values is side
    (True, True)
    """

    values: Sequence[Sequence[Any]]

    def __new__(cls, values: Sequence[Sequence[Any]], attributes: Any = None) -> "CellKind":
        kind = super().__new__(cls, (id(values) if attributes is None else attributes,))
        kind.values = values
        return kind

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return self.values, self[0]

    def __repr__(self) -> str:
        return f"CellKind({len(self.values)} faces)"


class Celled(Protocol):
    """What kept cells read: the board, each component's face, and the sets kept so far."""

    grid: dict[Cell, int]
    face: list[int]
    by_value: dict[CellKind, dict[Any, set[Cell]]]


def kept_cells(s: Celled, kind: CellKind) -> dict[Any, set[Cell]]:
    """The board's cells by the value their top piece shows in ``kind``: kept, or scanned once and kept.

    Every value of the table has its set, empty or not.  The sets are the state's own: read them, never change
    them.
    """
    table = s.by_value.get(kind)
    if table is None:
        values, face = kind.values, s.face
        table = s.by_value[kind] = {v: set() for row in values for v in row}
        for cell, p in s.grid.items():
            table[values[face[p]][p]].add(cell)
    return table


def recell(by_value: dict[CellKind, dict[Any, set[Cell]]], face: list[int], cell: Cell, old: int | None,
           new: int | None) -> None:
    """Keep the sets up to date after the top piece of ``cell`` went from ``old`` to ``new`` (None: empty)."""
    for kind, table in by_value.items():
        values = kind.values
        if old is not None:
            table[values[face[old]][old]].discard(cell)
        if new is not None:
            table[values[face[new]][new]].add(cell)


def reface(by_value: dict[CellKind, dict[Any, set[Cell]]], cell: Cell, cid: int, old: int, new: int) -> None:
    """Keep the sets up to date after ``cid``, the top piece of ``cell``, turned from face ``old`` to ``new``."""
    for kind, table in by_value.items():
        values = kind.values
        was, now = values[old][cid], values[new][cid]
        if was != now:
            table[was].discard(cell)
            table[now].add(cell)
