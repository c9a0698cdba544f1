"""Pairs of pieces a state keeps: for a step ``(dx, dy)``, the cells holding a piece with another one that step away.

A search for a pattern laid out in a shape (engine/blocks/pattern_finding.py) can
only start a window at a piece with another piece the layout's first step
away, and on a sparse board few pieces have one: reading the kept pairs
skips the others without looking at them.  The first time a step is read the
state scans its board once (:func:`kept_pairs`); from then on every piece put
on an empty cell and every cell emptied updates each step's set
(:func:`pair_up`, :func:`unpair`), and a clone copies them.  Only whether a
cell holds a piece counts: stacking, swaps and turning over change nothing.

>>> from types import SimpleNamespace
>>> s = SimpleNamespace(grid={(0, 0): 0, (1, 0): 1}, pairs={})
>>> kept_pairs(s, (1, 0)), kept_pairs(s, (-1, 0)), kept_pairs(s, (0, 1))
({(0, 0)}, {(1, 0)}, set())
>>> s.grid[(0, 1)] = 2; pair_up(s.pairs, s.grid, (0, 1))
>>> kept_pairs(s, (0, 1))
{(0, 0)}
>>> del s.grid[(0, 0)]; unpair(s.pairs, (0, 0))
>>> kept_pairs(s, (1, 0)), kept_pairs(s, (0, 1))
(set(), set())
"""

from __future__ import annotations

from typing import Protocol

Cell = tuple[int, int]


class Paired(Protocol):
    """What kept pairs read: the board (cell -> its top piece) and the sets kept so far, by step."""

    grid: dict[Cell, int]
    pairs: dict[Cell, set[Cell]]


def kept_pairs(s: Paired, step: Cell) -> set[Cell]:
    """The cells holding a piece with another one ``step`` away: kept, or scanned once and kept.

    The set is the state's own: read it, never change it.
    """
    cells = s.pairs.get(step)
    if cells is None:
        grid, (dx, dy) = s.grid, step
        cells = s.pairs[step] = {(x, y) for x, y in grid if (x + dx, y + dy) in grid}
    return cells


def pair_up(pairs: dict[Cell, set[Cell]], grid: dict[Cell, int], cell: Cell) -> None:
    """Keep the sets up to date after a piece was put on ``cell``, empty before (``grid`` holds it now)."""
    x, y = cell
    for (dx, dy), cells in pairs.items():
        if (x + dx, y + dy) in grid:
            cells.add(cell)
        if (before := (x - dx, y - dy)) in grid:
            cells.add(before)


def unpair(pairs: dict[Cell, set[Cell]], cell: Cell) -> None:
    """Keep the sets up to date after ``cell`` was emptied: it starts no pair, and the piece one step before it
    loses its partner there."""
    x, y = cell
    for (dx, dy), cells in pairs.items():
        cells.discard(cell)
        cells.discard((x - dx, y - dy))
