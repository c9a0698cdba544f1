"""The board's frontier not yet worked out: the board's order when it was last known, and the moves since.

A state's frontier (the empty cells next to a piece, in the order the moves
made them so; see ``State.frontier``) is worked out from the board when first
read, as long as no piece has left the board: the board's cells are then in
the order they were filled.  Once a piece leaves, that order no longer tells
the frontier's, and a game that never reads the frontier (pieces put
anywhere, no bracketing) would still pay for keeping it at every move.
Instead the state notes a :class:`FrontierLog`: the board's cells in order
then, and each cell filled or emptied since (:meth:`FrontierLog.note`); the
first read replays them (:meth:`FrontierLog.replay`) into exactly the
frontier keeping it all along would have made, which the state keeps from
then on.  A log of more than :data:`LOGGED` moves is replayed at once, so a
clone never copies a long one.

>>> line = lambda c: [(c[0] - 1, 0), (c[0] + 1, 0)]
>>> log = FrontierLog({(0, 0): 0, (1, 0): 1})
>>> log.note((1, 0), False), log.note((3, 0), True)
(False, False)
>>> list(log.replay(line))
[(-1, 0), (1, 0), (2, 0), (4, 0)]
"""

from __future__ import annotations

from typing import Callable, Iterable

Cell = tuple[int, int]

LOGGED = 256  # the most moves a log holds before it is replayed into a kept frontier


class FrontierLog(list):  # type: ignore[type-arg]
    """The board's cells in order when the log began (``board``), then ``(cell, filled)`` for each cell filled
    (True) or emptied (False) since, in order."""

    __slots__ = ("board",)

    def __init__(self, board: Iterable[Cell]) -> None:
        super().__init__()
        self.board = tuple(board)

    def copy(self) -> "FrontierLog":  # type: ignore[override]
        """A log of its own with the same moves (for a clone of the state)."""
        copy = FrontierLog(self.board)
        copy.extend(self)
        return copy

    def note(self, cell: Cell, filled: bool) -> bool:
        """Note that ``cell`` was filled (a piece put on it, empty before) or emptied; True once the log is full
        (replay it)."""
        self.append((cell, filled))
        return len(self) > LOGGED

    def replay(self, neighbours: Callable[[Cell], Iterable[Cell]]) -> dict[Cell, None]:
        """The frontier the moves made: the board's (as :func:`frontier_of` works it out from the cells in order),
        then each move kept as ``State.place`` and ``State._lift`` keep it."""
        frontier: dict[Cell, None] = {}
        taken: set[Cell] = set()
        put_down(frontier, taken, self.board, neighbours)
        for cell, filled in self:
            if filled:
                put_down(frontier, taken, (cell,), neighbours)
                continue
            taken.discard(cell)
            for n in neighbours(cell):
                if n in frontier and taken.isdisjoint(neighbours(n)):
                    del frontier[n]
            if not taken.isdisjoint(neighbours(cell)):
                frontier[cell] = None
        return frontier


def frontier_of(grid: Iterable[Cell], neighbours: Callable[[Cell], Iterable[Cell]]) -> dict[Cell, None]:
    """The empty cells next to the pieces of ``grid``, in the order putting its cells down one by one, in the
    grid's order, leaves them (a filled cell leaves it, its empty neighbours not yet listed join at the end).

    >>> line = lambda c: [(c[0] - 1, 0), (c[0] + 1, 0)]
    >>> list(frontier_of({(0, 0): 0, (1, 0): 1}, line))
    [(-1, 0), (2, 0)]
    """
    frontier: dict[Cell, None] = {}
    put_down(frontier, set(), grid, neighbours)
    return frontier


def put_down(frontier: dict[Cell, None], taken: set[Cell], cells: Iterable[Cell],
             neighbours: Callable[[Cell], Iterable[Cell]]) -> None:
    """Keep ``frontier`` as pieces are put on ``cells`` one by one (``taken``: the cells filled so far, kept too)."""
    for cell in cells:
        frontier.pop(cell, None)
        taken.add(cell)
        for n in neighbours(cell):
            if n not in taken:
                frontier[n] = None
