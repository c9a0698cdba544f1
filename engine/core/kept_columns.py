"""The lowest empty cell of each column of a square board with edges, kept by the state once read.

A piece dropped into a column (a place step's ``drop``) falls to its lowest
empty cell; listing where pieces may go walks every column from the bottom
at every decision.  The state instead works the cells out when first asked
(:func:`lowest_cells`) and keeps them: a piece put on a column's lowest
empty cell moves that column's up past the pieces above it (:func:`rise`),
a cell emptied below it moves it down (:func:`sink`); a clone copies them.
Columns are the board's ``columns``, column ``x`` holding the cells
``(x, 0)``, ``(x, 1)``, ... from the bottom; a full column has None.

>>> columns = (((0, 0), (0, 1)), ((1, 0), (1, 1)))
>>> grid = {(0, 0): 0}
>>> lows = lowest_cells(grid, columns); lows
[(0, 1), (1, 0)]
>>> grid[(0, 1)] = 1; rise(lows, grid, columns, (0, 1)); lows
[None, (1, 0)]
>>> del grid[(0, 0)]; sink(lows, columns, (0, 0)); lows
[(0, 0), (1, 0)]
"""

from __future__ import annotations

from typing import Sequence

Cell = tuple[int, int]


def lowest_cells(grid: dict[Cell, int], columns: Sequence[Sequence[Cell]]) -> list[Cell | None]:
    """For each column, its lowest cell without a piece in ``grid`` (None for a full column)."""
    lows: list[Cell | None] = []
    for column in columns:
        lows.append(next((cell for cell in column if cell not in grid), None))
    return lows


def rise(lows: list[Cell | None], grid: dict[Cell, int], columns: Sequence[Sequence[Cell]], cell: Cell) -> None:
    """Keep ``lows`` up to date after a piece was put on ``cell``, empty before (``grid`` holds it now)."""
    x, y = cell
    if 0 <= x < len(lows) and lows[x] == cell:
        column = columns[x]
        top = len(column)
        y += 1
        while y < top and column[y] in grid:
            y += 1
        lows[x] = column[y] if y < top else None


def sink(lows: list[Cell | None], columns: Sequence[Sequence[Cell]], cell: Cell) -> None:
    """Keep ``lows`` up to date after ``cell`` was emptied: it is its column's lowest empty cell if it lies below
    the one kept (a cell off the board changes nothing)."""
    x, y = cell
    if 0 <= x < len(lows) and 0 <= y < len(columns[x]):
        low = lows[x]
        if low is None or y < low[1]:
            lows[x] = cell
