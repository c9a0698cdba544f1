"""Cells a state keeps by value: which cells of the board show each value of an attribute, read, not scanned.

A block that asks "where are the pieces showing ``v``?" over and over (a
bracketing check lists the rivals' cells at every decision) names what the
values are with a :class:`CellKind`: a table of each component's value by
face, so the value may change when a piece turns over.  The first time a
kind is read the state scans its board once (:func:`kept_cells`); from then
on every placement, removal, swap and change of face updates each kind's
sets (:func:`recell`, :func:`reface`), and a clone copies them.  A cell
counts with the value of its top piece, the one ``grid`` names.  A kind
with ``bits`` (a bit for each cell of a board with edges, see
``engine.blocks.bitboard``) keeps each value's cells as one ``int``, the
sum of their bits, instead of a set.

>>> from types import SimpleNamespace
>>> side = [["A", "B"], ["B", "A"]]                  # by face, then component
>>> s = SimpleNamespace(grid={(0, 0): 0, (1, 0): 1}, face=[0, 0], by_value={})
>>> kind = CellKind(side)
>>> sorted(kept_cells(s, kind)["A"]), sorted(kept_cells(s, kind)["B"])
([(0, 0)], [(1, 0)])
>>> s.face[1] = 1; reface(s.by_value, (1, 0), 1, 0, 1)
>>> sorted(kept_cells(s, kind)["A"]), sorted(kept_cells(s, kind)["B"])
([(0, 0), (1, 0)], [])
>>> bits = CellKind(side, bits={(0, 0): 1, (1, 0): 2})
>>> kept_cells(s, bits)
{'A': 3, 'B': 0}
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

Cell = tuple[int, int]


class CellKind(tuple):  # type: ignore[type-arg]
    """What kept cells are grouped by: ``values[face][cid]``, a component's value when it shows ``face``.

    With ``bits`` (cell -> its bit) each value's cells are kept as the sum of their bits.

    A tuple of what the values are (the table by identity: the game keeps its tables, so the same table is the
    same attribute) and of the bits, by identity too, so that finding the kept sets is a look-up Python hashes
    and compares in C:

    >>> side = [["A", "B"]]
    >>> CellKind(side) == CellKind(side), CellKind(side).values is side, CellKind(side) == CellKind(side, bits={})
    (True, True, False)

    Its values, each once (a table names each for every face and component), are listed once, for the tables:

    >>> CellKind([["A", "B", "A"], ["B", "A", "B"]]).distinct
    ('A', 'B')
    """

    values: Sequence[Sequence[Any]]
    bits: dict[Cell, int] | None
    distinct: tuple[Any, ...]  # the values, each once, in the table's order

    def __new__(cls, values: Sequence[Sequence[Any]], attributes: Any = None,
                bits: dict[Cell, int] | None = None) -> "CellKind":
        kind = super().__new__(cls, (id(values) if attributes is None else attributes, bits is not None and id(bits)))
        kind.values, kind.bits = values, bits
        kind.distinct = tuple(dict.fromkeys(v for row in values for v in row))
        return kind

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return self.values, self[0], self.bits

    def __repr__(self) -> str:
        return f"CellKind({len(self.values)} faces{', bits' if self.bits is not None else ''})"

    def copy(self, table: dict[Any, Any]) -> dict[Any, Any]:
        """A copy of a table of this kind that shares nothing with it (for a clone of the state)."""
        return dict(table) if self.bits is not None else {v: cells.copy() for v, cells in table.items()}


class Celled(Protocol):
    """What kept cells read: the board, each component's face, and the sets kept so far."""

    grid: dict[Cell, int]
    face: list[int]
    by_value: dict[CellKind, dict[Any, Any]]


def kept_cells(s: Celled, kind: CellKind) -> dict[Any, Any]:
    """The board's cells by the value their top piece shows in ``kind``: kept, or scanned once and kept.

    Every value of the table has its set (its bits, for a kind with ``bits``), empty or not.  The sets are the
    state's own: read them, never change them.
    """
    table = s.by_value.get(kind)
    if table is None:
        values, face, bits = kind.values, s.face, kind.bits
        if bits is not None:
            table = s.by_value[kind] = dict.fromkeys(kind.distinct, 0)
            for cell, p in s.grid.items():
                table[values[face[p]][p]] |= bits[cell]
            return table
        table = s.by_value[kind] = {v: set() for v in kind.distinct}
        for cell, p in s.grid.items():
            table[values[face[p]][p]].add(cell)
    return table


def recell(by_value: dict[CellKind, dict[Any, Any]], face: list[int], cell: Cell, old: int | None,
           new: int | None) -> None:
    """Keep the sets up to date after the top piece of ``cell`` went from ``old`` to ``new`` (None: empty)."""
    for kind, table in by_value.items():
        values, bits = kind.values, kind.bits
        if bits is not None:  # the cell's bit is set in the old piece's value, clear in the new one's
            bit = bits[cell]
            if old is not None:
                table[values[face[old]][old]] ^= bit
            if new is not None:
                table[values[face[new]][new]] ^= bit
            continue
        if old is not None:
            table[values[face[old]][old]].discard(cell)
        if new is not None:
            table[values[face[new]][new]].add(cell)


def reface(by_value: dict[CellKind, dict[Any, Any]], cell: Cell, cid: int, old: int, new: int) -> None:
    """Keep the sets up to date after ``cid``, the top piece of ``cell``, turned from face ``old`` to ``new``."""
    for kind, table in by_value.items():
        values = kind.values
        was, now = values[old][cid], values[new][cid]
        if was != now:
            if kind.bits is not None:
                bit = kind.bits[cell]
                table[was] ^= bit
                table[now] ^= bit
            else:
                table[was].discard(cell)
                table[now].add(cell)


def flip_cells(by_value: dict[CellKind, dict[Any, Any]], cells: Sequence[Cell], grid: dict[Cell, int], face: list[int],
               face_count: Sequence[int]) -> None:
    """Turn the top piece of each of ``cells`` (each once) to its next face and keep the sets up to date: what
    :func:`reface` does for each piece, in one call.

    >>> side = [["A", "B"], ["B", "A"]]
    >>> s = type("S", (), {})(); s.grid, s.face, s.by_value = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
    >>> table = kept_cells(s, CellKind(side)); flip_cells(s.by_value, [(1, 0)], s.grid, s.face, [2, 2])
    >>> s.face, sorted(table["A"]), sorted(table["B"])
    ([0, 1], [(0, 0), (1, 0)], [])
    """
    for cell in cells:
        cid = grid[cell]
        old = face[cid]
        new = face[cid] = (old + 1) % face_count[cid]
        for kind, table in by_value.items():
            values = kind.values
            was, now = values[old][cid], values[new][cid]
            if was != now:
                bits = kind.bits
                if bits is not None:
                    bit = bits[cell]
                    table[was] ^= bit
                    table[now] ^= bit
                else:
                    table[was].discard(cell)
                    table[now].add(cell)
