"""What a state's board looks like now: the frontier of empty cells beside pieces, the empty cells, the lowest
free cell of each column, the box of the pieces, each worked out when first asked and kept until a move changes it.

The methods of :class:`~engine.model.state.State` that do it, kept in their own class for the reader
(``State`` inherits it; it holds no data of its own).

Example::

    s = engine.load("my-game").new_state(players=2)
    s.empty, s.frontier, s.bbox      # kept until the next move changes the board
"""

from __future__ import annotations

from itertools import filterfalse
from typing import Collection

from engine.core.kept_columns import lowest_cells
from engine.core.kept_frontier import FrontierLog, frontier_of
from engine.model.state_fields import Cell, StateFields


UNKNOWN = object()
"""The board's box while it is not known (a piece left its edge): worked out when next asked."""


def box(cells: Collection[Cell]) -> tuple[int, int, int, int] | None:
    """The smallest box holding every cell, as the board keeps it: (least x, greatest x, least y, greatest y);
    None for no cells.

    >>> box([(0, 1), (2, -1), (1, 0)]), box([])
    ((0, 2, -1, 1), None)
    """
    if not cells:
        return None
    xs, ys = zip(*cells)
    return min(xs), max(xs), min(ys), max(ys)


class BoardViews(StateFields):
    """What the board looks like now, worked out when asked and kept until a move changes it."""

    __slots__ = ()

    @property
    def frontier(self) -> dict[Cell, None]:
        """The empty cells next to a piece, in the order the moves made them so (see :func:`frontier_of`).

        On a board with fixed edges, not kept until first asked (rules that never read it pay nothing per move;
        a growing board's keeps it from the start): the first read
        works it out from the board, whose cells are in the order they were filled while nothing left it (once a
        piece leaves the board while it is not kept, the moves are noted and replayed when it is first read,
        engine/core/kept_frontier.py); from then on every move keeps it.
        Read it, never change it.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> s.frontier == frontier_of(s.grid, game.grid.neighbours) if game.grid else True
        True
        """
        kept = self._frontier
        if kept is None:
            kept = self._frontier = frontier_of(self.grid, self.game.grid.neighbours) if self.game.grid else {}
        elif kept.__class__ is FrontierLog:  # moves since a piece left the board: replayed once, kept from then on
            kept = self._frontier = kept.replay(self.game.grid.neighbours)
        return kept

    @property
    def empty(self) -> dict[Cell, None]:
        """The empty cells of the board, in the board's order (``game.grid.cells``; a board without edges lists none).

        Not kept until first asked (rules that never read it pay nothing per move): the first read works it out
        from the board, then every placement on an empty cell takes its cell out; a piece leaving a cell empty
        drops it (the cell would go back in the middle), to be worked out again when next read.  A clone copies it.
        Read it, never change it.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> list(s.empty) == [c for c in game.grid.cells if c not in s.grid] if game.grid else True
        True
        """
        kept = self._empty
        if kept is None:
            kept = self._empty = dict.fromkeys(filterfalse(self.grid.__contains__, self.game.grid.cells))
        return kept

    @property
    def lowest(self) -> list[Cell | None]:
        """The lowest empty cell of each column of a square board with edges (``game.grid.columns``; None for a
        full column), where a piece dropped into it comes to rest.

        Not kept until first asked, then kept by every placement and removal (engine/core/kept_columns.py); a
        clone copies it.  Read it, never change it.

        >>> import engine
        >>> from engine.core.kept_columns import lowest_cells
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> s.lowest == lowest_cells(s.grid, game.grid.columns) if game.grid and hasattr(game.grid, "columns") else True
        True
        """
        kept = self._lows
        if kept is None:
            kept = self._lows = lowest_cells(self.grid, self.game.grid.columns)
        return kept

    @property
    def bbox(self) -> tuple[int, int, int, int] | None:
        """The smallest box holding every piece on the board (see :func:`box`); None while it is empty.

        On a board with fixed edges worked out when first asked, then kept as pieces are put down; after a piece leaves the box's edge it is
        worked out again when next asked.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> s.bbox == box(s.grid)
        True
        """
        kept = self._box
        if kept is UNKNOWN:
            kept = self._box = box(self.grid)
        return kept  # type: ignore[return-value]
