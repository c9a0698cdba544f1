"""Every action text a compiled game could ever offer, listed from the game itself (never by playing it).

A learning agent wants a fixed, finite set of actions: each turn-step kind
lists the texts it could produce from the game's components, cells, faces,
slots and roles (:meth:`engine.blocks.steps.Step.action_texts`), and the
answers to ``choose(...)`` are listed from the type of what is chosen
(components, cells, enumerations, lists written out in the ruleset).  The
lists are supersets: a text is listed if some position could offer it, and
the legal actions of a position are always among them.

Some texts carry a part that follows from the position: which pieces a
pattern reads as other values (``match 3,4 4,4 with 4,4 as A``), or the name
of the piece at a place of the board.  A step may list its texts without
that part — a cast's matches always, a choice on the board when names times
places would make more than :data:`LARGEST` texts — and says how an offered
text is shortened in :attr:`Texts.canonical`; no decision offers two actions
that differ only in that part, so the shortened list still names each legal
action exactly.

Only where no list can be written down — a choice among computed numbers —
does the step say so in :attr:`Texts.unlisted`, and those decisions are
offered by their rank among the position's legal actions instead (see
:mod:`engine.rl.actions`).

>>> from engine.blocks.grid import SquareGrid
>>> len(grid_cells(SquareGrid(max_width=3, max_height=3), pieces=10))
25
>>> Texts(("pass",)).complete
True
>>> by_place("choose p7 at 3,4:2"), by_place("choose 5")
('choose at 3,4:2', 'choose 5')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from engine.blocks.choice_labels import CHOOSE_WORD, labeller
from engine.blocks.grid import format_cell
from engine.blocks.shapes import Place, Shape, place_text
from engine.core.facedown import FaceDown, back_labels

if TYPE_CHECKING:
    from engine.blocks.context import GameView

Cell = tuple[int, int]

CHOICE_ITEMS = "choice items"
"""Key in ``game.vocab.data``: what each ``choose(...)`` of the ruleset chooses, recorded when it compiles."""

LARGEST = 200_000
"""The longest list of one kind of decision: a longer one is shortened (a choice on the board: by place alone) or, where
nothing can be left out, not listed (a pattern on more place sequences than this)."""

MOST_TEXTS = 1_000_000
"""The most texts one step lists (about 200 MB): past it — every two cells of a large board, a large board times
many components — the step's decisions are not listed but offered by rank (see :mod:`engine.rl.actions`)."""


@dataclass(frozen=True)
class Texts:
    """Action texts in a stable order; what could not be listed ("" when the list is complete); how an offered
    text not in the list is shortened to the one listed for it (None: every text is listed as it is), and what
    the shortening leaves out, in English."""

    texts: tuple[str, ...] = ()
    unlisted: str = ""
    canonical: Callable[[str], str] | None = None
    shortened: str = ""

    @property
    def complete(self) -> bool:
        """True when every action text is listed."""
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
    rx, ry = reach(grid, pieces)
    return tuple((x, y) for y in range(-ry, ry + 1) for x in range(-rx, rx + 1))


def reach(grid: Any, pieces: int) -> tuple[int, int]:
    """How far from 0,0 across and down a piece of a growing board may ever stand (see :func:`grid_cells`).

    >>> from engine.blocks.grid import SquareGrid
    >>> reach(SquareGrid(max_width=3), 10)
    (2, 9)
    """
    most = max(pieces - 1, 0)
    return (min(most, grid.max_width - 1) if grid.max_width else most,
            min(most, grid.max_height - 1) if grid.max_height else most)


def reach_text(grid: Any, pieces: int) -> str:
    """Why a growing board's pieces stand near 0,0, in words (see :func:`reach`).

    >>> from engine.blocks.grid import SquareGrid
    >>> reach_text(SquareGrid(max_width=3), 10)
    'its first piece goes at 0,0 and each next one beside another, so with 10 components and its max_width and max_height a piece stands at most 2 across and 9 down from 0,0'
    """
    across, down = reach(grid, pieces)
    limits = " and its max_width and max_height" if grid.max_width or grid.max_height else ""
    return (f"its first piece goes at 0,0 and each next one beside another, so with {pieces} components{limits} a piece "
            f"stands at most {across} across and {down} down from 0,0")


def out_of_reach(grid: Any, cells: Iterable[Cell], pieces: int) -> str | None:
    """Why pieces on ``cells`` of a growing board are a position no game reaches (None when they may be, or when the
    board is fixed, whose cells are checked by ``contains``): a cell beyond :func:`reach` of 0,0, or the cells
    together wider or taller than the board's ``max_width`` and ``max_height``.  A game with ``pieces`` components.

    >>> from engine.blocks.grid import SquareGrid
    >>> grid = SquareGrid(max_width=3, max_height=3)
    >>> out_of_reach(grid, [(0, 0), (1, 0)], 10) is None
    True
    >>> out_of_reach(grid, [(-1, 0), (1, 0), (2, 0)], 10)
    'cells -1,0 and 2,0 take the board past its limits (at most 3 wide and 3 tall)'
    >>> out_of_reach(grid, [(0, 0), (10**9, 10**9)], 10)[:60]
    "cell 1000000000,1000000000 is out of this growing board's re"
    """
    if grid is None or grid.fixed:
        return None
    across, down = reach(grid, pieces)
    cells = list(cells)
    for x, y in cells:
        if abs(x) > across or abs(y) > down:
            return f"cell {format_cell((x, y))} is out of this growing board's reach: {reach_text(grid, pieces)}"
    wide, tall = grid.max_width, grid.max_height
    for axis, most in ((0, wide), (1, tall)):
        if most and cells:
            low, high = min(cells, key=lambda c: c[axis]), max(cells, key=lambda c: c[axis])
            if high[axis] - low[axis] >= most:
                bound = " and ".join(x for x in (f"{wide} wide" if wide else "", f"{tall} tall" if tall else "") if x)
                return (f"cells {format_cell(low)} and {format_cell(high)} take the board past its limits "
                        f"(at most {bound})")
    return None


def board_cells(game: "GameView") -> tuple[Cell, ...]:
    """Every cell of ``game``'s board a piece could stand on (none without a board)."""
    return () if game.grid is None else grid_cells(game.grid, len(game.component_names))


def neighbour_pairs(game: "GameView") -> list[tuple[Cell, Cell]]:
    """Every (cell, neighbour) pair of the board, in cell order; on a board with walls (``walls:``), every pair a
    wall may part too, since code may take it down in play (a clash between them is then an action as any other).

    >>> from types import SimpleNamespace
    >>> from engine.blocks.grid import SquareGrid
    >>> walled = SquareGrid(width=2, height=1, walls=frozenset({((0, 0), (1, 0))}), walled=True)
    >>> neighbour_pairs(SimpleNamespace(grid=walled, component_names=["a"]))
    [((0, 0), (1, 0)), ((1, 0), (0, 0))]
    """
    cells = board_cells(game)
    on = set(cells)
    assert game.grid is not None
    grid = game.grid.with_walls(frozenset()) if getattr(game.grid, "walled", False) else game.grid
    return [(a, b) for a in cells for b in grid.neighbours(a) if b in on]


def names(game: "GameView", cids: Iterable[int] | None = None) -> tuple[str, ...]:
    """The names actions use for components (identical copies once), in component order."""
    every = range(len(game.piece_names)) if cids is None else cids
    return distinct(game.piece_names[c] for c in every)


def cell_texts(game: "GameView", cells: Iterable[Cell]) -> list[str]:
    """The cells as ``game``'s actions write them (``4,1``, or ``e2`` where the board names its cells)."""
    text = game.cell_text
    return [text(c) for c in cells]


# ---------------------------------------------------------------- patterns on the board


def pattern_places(game: "GameView", shape: Shape, length: int) -> Iterator[tuple[Place, ...]]:
    """Every sequence of places a pattern of ``length`` values in ``shape`` could lie on, in a stable order:
    each layout of the shape from every cell of the board (below the top piece only on a stacking board);
    a chain, every path of neighbouring cells that visits no cell twice.

    >>> from types import SimpleNamespace
    >>> from engine.blocks.grid import SquareGrid
    >>> from engine.blocks.shapes import DEFAULT_SHAPE
    >>> game = SimpleNamespace(grid=SquareGrid(width=3, height=3), component_names=())
    >>> len(list(pattern_places(game, DEFAULT_SHAPE, 3)))   # 8 lines of a 3x3 board, each read from either end
    16
    """
    cells = board_cells(game)
    on = set(cells)
    if shape.kind == "chain":
        yield from _paths(cells, on, shape.directions, length)
        return
    stacking = game.grid is not None and game.grid.stacking
    for layout in shape.layouts(length):
        if not stacking and any(depth for _, _, depth in layout):
            continue
        kx, ky, _ = layout[0]
        for x, y in cells:
            places = tuple(((x - kx + dx, y - ky + dy), depth) for dx, dy, depth in layout)
            if all(cell in on for cell, _ in places):
                yield places


def _paths(cells: tuple[Cell, ...], on: set[Cell], steps: tuple[Cell, ...], length: int) -> Iterator[tuple[Place, ...]]:
    """Every path of ``length`` cells of ``on``, each a step from the one before, no cell twice (depth-first)."""
    for start in cells:
        stack = [(start,)]
        while stack:
            path = stack.pop()
            if len(path) == length:
                yield tuple((cell, 0) for cell in path)
                continue
            x, y = path[-1]
            for dx, dy in reversed(steps):
                cell = (x + dx, y + dy)
                if cell in on and cell not in path:
                    stack.append(path + (cell,))


def places_text(game: "GameView", places: tuple[Place, ...]) -> str:
    """``3,4 4,4 5,4:2``: places in order, as a match writes them (the cells as ``game`` writes them)."""
    return " ".join(place_text(p, game.cell_text) for p in places)


# ---------------------------------------------------------------- choose(...)


def record_choice(data: dict[str, Any], item_type: Any, values: tuple[Any, ...] | None) -> None:
    """Note (while compiling) that a ``choose`` picks items of ``item_type`` (from ``values``, when written out)."""
    data.setdefault(CHOICE_ITEMS, {})[(item_type, values)] = None


def choice_texts(game: "GameView") -> Texts:
    """Every ``choose LABEL`` answer the ruleset's ``choose(...)`` calls could offer."""
    from engine.lang.types import Component

    texts: list[str] = []
    unlisted: list[str] = []
    shortened = False
    faced: list[str] = []  # copies showing different faces are told apart by it: listed last, after the texts above
    for item_type, values in game.vocab.data.get(CHOICE_ITEMS, {}):
        if isinstance(item_type, Component) and values is None:
            labels, by_places = _component_labels(game, item_type.name)
            shortened = shortened or by_places
            faced += _faced_labels(game, item_type.name)
            faced += _zoned_labels(game, item_type.name)
        else:
            labels, why = _labels(game, item_type, values)
            if why:
                unlisted.append(why)
        texts += labels
    texts += faced
    return Texts(distinct(f"{CHOOSE_WORD} {label}" for label in texts), "; ".join(dict.fromkeys(unlisted)),
                 by_place if shortened else None, "the name of a component chosen on the board ('at X,Y': the place names it)")


def _labels(game: "GameView", item_type: Any, values: tuple[Any, ...] | None) -> tuple[list[str], str]:
    """The labels of a choice that is not of a component on the board, and why some cannot be listed ("" when all are)."""
    from engine.lang.types import CELL, Enum

    if values is not None:  # each as the choice labels it: true, not Python's True
        label = labeller(item_type)
        return [game.cell_text(v) if isinstance(v, tuple) and len(v) == 2 else label(None, v) for v in values], ""
    if item_type == CELL:
        return cell_texts(game, board_cells(game)), ""
    if isinstance(item_type, Enum) and item_type.name in game.types:
        return list(game.types[item_type.name]), ""
    if game.roles is not None and isinstance(item_type, Enum) and item_type.name == game.roles.type_name:
        return list(game.roles.values), ""
    return [], f"a choice among computed values of type {item_type}"


def _of_kind(game: "GameView", kind: str) -> list[int]:
    """The ids of the components of ``kind`` (``component``: every component) a choice among them may offer."""
    return [c for c, k in enumerate(game.component_kind) if kind in ("component", k)]


def _component_labels(game: "GameView", kind: str) -> tuple[list[str], bool]:
    """A component by name, or on the board by name and place (``NAME at X,Y``, ``:D`` below the top); and
    whether the ones on the board are listed by place alone (``at X,Y``: too many names at too many places)."""
    cids = _of_kind(game, kind)
    found = list(names(game, cids))
    cells = cell_texts(game, board_cells(game))
    stacking = game.grid is not None and game.grid.stacking
    depths = [""] + [f":{d}" for d in range(2, len(game.component_names) + 1)] if stacking else [""]
    places = [f"at {cell}{depth}" for cell in cells for depth in depths]
    if FaceDown.block in game.parts:  # a face-down piece is offered by its back (see engine.core.facedown)
        roles = list(game.roles.values) if game.roles is not None else []
        found = found + back_labels([game.component_kind[c] for c in cids], roles)
    if len(found) * len(places) > LARGEST:
        return found + places, True
    return found + [f"{name} {place}" for name in found for place in places], False


def _faced_labels(game: "GameView", kind: str) -> list[str]:
    """``NAME as FACE`` for each face of a component whose faces look different: a choice among copies showing
    different faces names the face (see engine.blocks.choices)."""
    cids = _of_kind(game, kind)
    return list(distinct(f"{game.piece_names[c]} as {face}" for c in cids if len(set(game.face_labels[c])) > 1
                         for face in game.face_labels[c]))


def _zoned_labels(game: "GameView", kind: str) -> list[str]:
    """``NAME from ZONE`` (and ``NAME as FACE from ZONE``) for each name several copies share and each zone off the
    board: a choice among copies lying in different zones names the zone (see engine.blocks.choice_labels)."""
    cids = _of_kind(game, kind)
    shared = [name for name, count in Counter(game.piece_names[c] for c in cids).items() if count > 1]
    faces = {game.piece_names[c]: game.face_labels[c] for c in cids if len(set(game.face_labels[c])) > 1}
    zones = [name for z, name in enumerate(game.zone_names) if z != game.board_zone]
    told = [label for name in shared for label in (name, *(f"{name} as {face}" for face in faces.get(name, ())))]
    return list(distinct(f"{label} from {zone}" for label in told for zone in zones))


PLACED = re.compile(r"(\S+) .+ (at (?:-?\d+,-?\d+|[a-zA-Z]{1,3}[1-9]\d*)(?::\d+)?)")


def by_place(text: str) -> str:
    """``choose NAME at X,Y[:D]`` listed by place alone, ``choose at X,Y[:D]`` (the place names the piece; a cell's
    name too, on a board that names its cells).

    >>> by_place("choose P at 4,1:2"), by_place("choose P at e2"), by_place("choose P")
    ('choose at 4,1:2', 'choose at e2', 'choose P')
    """
    placed = PLACED.fullmatch(text)
    return f"{placed[1]} {placed[2]}" if placed else text
