"""A square board with walls between its cells, drawn in the terminal as a ruleset draws it: a ``+`` where four cells
meet, ``---`` under a cell a wall parts from the one below, ``|`` between two cells a wall parts, the frame around.

>>> from rich.text import Text
>>> from types import SimpleNamespace
>>> plain = SimpleNamespace(row=str, column=str)
>>> drawn = {(x, y): Text("·") for x in range(2) for y in range(2)}
>>> print(walled_rows(drawn, [0, 1], [0, 1], frozenset({((0, 0), (1, 0)), ((1, 0), (1, 1))}), plain).plain)
     0   1
   +---+---+
 0 | · | · |
   +   +---+
 1 | ·   · |
   +---+---+
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from rich.text import Text

from engine.blocks.grid import wall_pair

Cell = tuple[int, int]
WALL_STYLE = "bold"


def walled_rows(drawn: dict[Cell, Text], xs: Sequence[int], ys: Sequence[int], walls: frozenset[tuple[Cell, Cell]],
                names: Any) -> Text:
    """The cells ``drawn`` (each cell's text), columns ``xs`` across and rows ``ys`` down, with the ``walls`` between
    them and the columns' and rows' names along the top and the left (``names``: the game's ``cell_names``, whose
    ``column(x)`` and ``row(y)`` name them)."""
    wide = max([text.cell_len for text in drawn.values()] + [1])
    labels = {y: names.row(y) for y in ys}
    left = " " * (max(map(len, labels.values()), default=1) + 2)
    out = Text(left, style="dim")
    out.append(" " + "".join(names.column(x).center(wide + 2) + " " for x in xs).rstrip() + "\n", style="dim")
    out.append(left + _rule(xs, lambda x: True, wide) + "\n", style=WALL_STYLE)
    for j, y in enumerate(ys):
        out.append(labels[y].rjust(len(left) - 1) + " ", style="dim")
        out.append("|", style=WALL_STYLE)
        for i, x in enumerate(xs):
            text = drawn[x, y].copy()
            pad = wide - text.cell_len
            out.append(" " * (1 + pad // 2))
            out.append_text(text)
            out.append(" " * (1 + pad - pad // 2))
            parted = i + 1 == len(xs) or wall_pair((x, y), (xs[i + 1], y)) in walls
            out.append("|" if parted else " ", style=WALL_STYLE)
        out.append("\n")
        below = ys[j + 1] if j + 1 < len(ys) else None
        out.append(left + _rule(xs, lambda x: below is None or wall_pair((x, y), (x, below)) in walls, wide),
                   style=WALL_STYLE)
        if below is not None:
            out.append("\n")
    return out


def _rule(xs: Sequence[int], walled: Callable[[int], bool], wide: int) -> str:
    """A line between two rows: ``+`` where cells meet, ``---`` under each cell ``walled`` says a wall parts."""
    return "+" + "".join(("-" if walled(x) else " ") * (wide + 2) + "+" for x in xs)
