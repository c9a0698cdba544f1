"""Every action text a compiled game could ever offer, listed from the game itself (never by playing it).

A learning agent wants a fixed, finite set of actions: each turn-step kind
lists the texts it could produce from the game's components, cells, faces,
slots and roles (:meth:`engine.blocks.steps.Step.action_texts`), and the
answers to ``choose(...)`` are listed from the type of what is chosen
(components, cells, enumerations, lists written out in the ruleset).  The
lists are supersets: a text is listed if some position could offer it, and
the legal actions of a position are always among them.

Where a list cannot be written down — a cast pattern may lie on any of
countless combinations of places, a choice among computed numbers — the
step says so in :attr:`Texts.unlisted`, and those decisions are offered by
their rank among the position's legal actions instead (see
:mod:`engine.rl.actions`).

>>> from engine.blocks.grid import SquareGrid
>>> len(grid_cells(SquareGrid(max_width=3, max_height=3), pieces=10))
25
>>> Texts(("pass",)).complete
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from engine.blocks.grid import format_cell

if TYPE_CHECKING:
    from engine.game import Game

Cell = tuple[int, int]

CHOOSE_WORD = "choose"
"""The word that starts the answer to a choice an effect asks: ``choose NAME``."""

CHOICE_ITEMS = "choice items"
"""Key in ``game.vocab.data``: what each ``choose(...)`` of the ruleset chooses, recorded when it compiles."""

LARGEST = 200_000
"""More texts than this for one kind of choice are not listed (they are offered by rank instead)."""


@dataclass(frozen=True)
class Texts:
    """Action texts in a stable order, and what could not be listed ("" when the list is complete)."""

    texts: tuple[str, ...] = ()
    unlisted: str = ""

    @property
    def complete(self) -> bool:
        return not self.unlisted


def distinct(texts: Iterable[str]) -> tuple[str, ...]:
    """``texts`` without repeats, in first-seen order."""
    return tuple(dict.fromkeys(texts))


def grid_cells(grid: Any, pieces: int) -> tuple[Cell, ...]:
    """Every cell a piece could ever stand on: a fixed board's cells; on a growing board (whose first
    piece goes at 0,0 and each next one touches another) the cells within reach of ``pieces`` pieces
    and of the board's width and height limits."""
    if grid.fixed:
        return tuple(grid.cells)
    reach = max(pieces - 1, 0)
    rx = min(reach, grid.max_width - 1) if grid.max_width else reach
    ry = min(reach, grid.max_height - 1) if grid.max_height else reach
    return tuple((x, y) for y in range(-ry, ry + 1) for x in range(-rx, rx + 1))


def board_cells(game: "Game") -> tuple[Cell, ...]:
    """Every cell of ``game``'s board a piece could stand on (none without a board)."""
    return () if game.grid is None else grid_cells(game.grid, len(game.component_names))


def neighbour_pairs(game: "Game") -> list[tuple[Cell, Cell]]:
    """Every (cell, neighbour) pair of the board, in cell order."""
    cells = board_cells(game)
    on = set(cells)
    assert game.grid is not None
    return [(a, b) for a in cells for b in game.grid.neighbours(a) if b in on]


def names(game: "Game", cids: Iterable[int] | None = None) -> tuple[str, ...]:
    """The names actions use for components (identical copies once), in component order."""
    every = range(len(game.piece_names)) if cids is None else cids
    return distinct(game.piece_names[c] for c in every)


def cell_texts(cells: Iterable[Cell]) -> list[str]:
    return [format_cell(c) for c in cells]


# ---------------------------------------------------------------- choose(...)


def record_choice(data: dict[str, Any], item_type: Any, values: tuple[Any, ...] | None) -> None:
    """Note (while compiling) that a ``choose`` picks items of ``item_type`` (from ``values``, when written out)."""
    data.setdefault(CHOICE_ITEMS, {})[(item_type, values)] = None


def choice_texts(game: "Game") -> Texts:
    """Every ``choose LABEL`` answer the ruleset's ``choose(...)`` calls could offer."""
    texts: list[str] = []
    unlisted: list[str] = []
    for item_type, values in game.vocab.data.get(CHOICE_ITEMS, {}):
        labels, why = _labels(game, item_type, values)
        texts += labels
        if why:
            unlisted.append(why)
    return Texts(distinct(f"{CHOOSE_WORD} {label}" for label in texts), "; ".join(dict.fromkeys(unlisted)))


def _labels(game: "Game", item_type: Any, values: tuple[Any, ...] | None) -> tuple[list[str], str]:
    """The labels of one kind of choice, and why some cannot be listed ("" when all are)."""
    from engine.lang.types import CELL, Component, Enum

    if values is not None:
        return [",".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in values], ""
    if isinstance(item_type, Component):
        return _component_labels(game, item_type.name)
    if item_type == CELL:
        return cell_texts(board_cells(game)), ""
    if isinstance(item_type, Enum) and item_type.name in game.types:
        return list(game.types[item_type.name]), ""
    if game.roles is not None and isinstance(item_type, Enum) and item_type.name == game.roles.type_name:
        return list(game.roles.values), ""
    return [], f"a choice among computed values of type {item_type}"


def _component_labels(game: "Game", kind: str) -> tuple[list[str], str]:
    """A component by name, or on the board by name and place (``NAME at X,Y``, ``:D`` below the top)."""
    cids = [c for c, k in enumerate(game.component_kind) if kind in ("component", k)]
    found = list(names(game, cids))
    cells = cell_texts(board_cells(game))
    stacking = game.grid is not None and game.grid.stacking
    depths = [""] + [f":{d}" for d in range(2, len(game.component_names) + 1)] if stacking else [""]
    if len(found) * len(cells) * len(depths) > LARGEST:
        return found, f"a choice of a component of kind {kind} by its place on the board (too many places to list)"
    return found + [f"{name} at {cell}{depth}" for name in found for cell in cells for depth in depths], ""
