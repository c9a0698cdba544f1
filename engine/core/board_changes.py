"""The board's change log: which cells changed between two positions, for what is kept across moves.

A state that keeps a log (``s.changes``, None until something asks for it)
holds a *node*: ``(depth, cell, before, log)``, the cell the last change
touched, the node before it and the log's own token.  Every change of the board — a piece put down,
lifted, swapped or turned to another face — adds a node; nothing else ever
changes a node, so a copy of the state shares its log up to the copy and two
states holding the same node hold the same board.  A new log starts at a
:func:`root` of its own.

What is kept (engine/lang/kept_near.py) remembers the node it was worked out
at; :func:`between` gives the cells that may differ between that position
and the one asked about, by walking both back to the node they share:

>>> start = root()
>>> a = noted(noted(start, (0, 0)), (1, 0))
>>> b = noted(start, (2, 2))
>>> sorted(between(a, b, 8)), between(a, a, 8), between(a, root(), 8)
([(0, 0), (1, 0), (2, 2)], [], None)
"""

from __future__ import annotations

from typing import Any

Node = tuple[int, Any, Any, object]
"""(depth, the cell changed, the node before, the log's token): a log's entry (a root's cell and 'before' are None)."""


def root() -> Node:
    """A new log's first node, unlike any other: its token is an object of its own, which every later node carries."""
    return (0, None, None, object())


def noted(node: Node, cell: Any) -> Node:
    """The node after ``node`` once ``cell`` changed (what :class:`State` does at each change of the board)."""
    return (node[0] + 1, cell, node, node[3])


def between(old: Node, new: Node, most: int) -> list[Any] | None:
    """The cells changed on the way from ``old`` back to the node it shares with ``new`` and from there on to
    ``new`` (a cell may come twice); None when the two share none within ``most`` steps (logs of other games, or
    too far apart: work it out afresh)."""
    if old[3] is not new[3]:
        return None  # two logs
    cells: list[Any] = []
    while old is not new:
        if len(cells) >= most:
            return None
        if old[0] >= new[0]:
            cells.append(old[1])
            old = old[2]
        else:
            cells.append(new[1])
            new = new[2]
    return cells
