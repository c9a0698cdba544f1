"""A tile's sides on the board, drawn from what its kind declares: edge-matching tiles show each side's value.

A kind is drawn with its sides when one of its attributes is a list of a declared type that holds, on every
component of the kind, one value per side of the board's cells (4 on a square grid, 6 on a hex board): side 0 is
the top (north) on a square, the upper right on a pointy-top hex, and the others follow clockwise.  The tile is
turned when the kind has as many faces as sides and a whole-number attribute per face that counts the turns
(the values 0 to sides - 1, one per face): turned ``r`` steps clockwise, side ``d`` shows the value printed on
side ``d - r``.  A list that differs from face to face is the face's own, drawn as it is, never turned.

Typical use::

    found = tile_sides(game, 4)                  # {'tile': Sides(values='edges', turns='turns')}
    shown = side_values(state, cid, found)       # ['a', 'c', 'b', 'a']: north, east, south, west
    glyph = glyph_svg(shown, 4, colours, "#ccc") # the same, small, for a chip in a hand
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from cli.menu import played_components
from engine.blocks.hexgrid import HexGrid
from engine.blocks.pointsboard import PointsBoard
from engine.core.errors import RulecraftError

if TYPE_CHECKING:
    from engine import Game, State
    from engine.core.actions import Action


class Sides(NamedTuple):
    """The attributes a kind's sides are drawn from: ``values``, the list with a value per side, and ``turns``, the
    per-face count of turns (None: never turned)."""

    values: str
    turns: str | None


def side_count(grid: object) -> int:
    """How many sides a cell of the board has: 4 on a square grid, 6 on a hex board, 0 on a board of points (its
    points have none) or without a board."""
    if grid is None or isinstance(grid, PointsBoard):
        return 0
    return 6 if isinstance(grid, HexGrid) else 4


def tile_sides(game: Game, sides: int) -> dict[str, Sides]:
    """The kinds drawn with their sides (see the module's text), by kind; none without sides to draw.

    A list attribute is one of a side's values only if every component of the kind holds exactly ``sides`` of them,
    so a pattern of colours (a list of another length on some component) is never mistaken for one.
    """
    if not sides:
        return {}
    lists = [name for name, kind in game.attribute_types.items()
             if kind.startswith("list of ") and kind[len("list of "):] in game.types]
    if not lists:
        return {}
    members: dict[str, list[int]] = {}
    for cid, kind in enumerate(game.component_kind):
        members.setdefault(kind, []).append(cid)
    found: dict[str, Sides] = {}
    for kind, cids in members.items():
        values = next((name for name in lists if all(_each_face(game, name, cid, sides) for cid in cids)), None)
        if values is not None:
            found[kind] = Sides(values, None if _per_face(game, values, cids) else _turns(game, cids, sides))
    return found


def _each_face(game: Game, name: str, cid: int, sides: int) -> bool:
    """Whether ``cid`` holds a list of ``sides`` values in ``name`` on each of its faces."""
    return all(isinstance(v := game.attributes[name][f][cid], list) and len(v) == sides
               for f in range(game.face_count[cid]))


def _per_face(game: Game, name: str, cids: list[int]) -> bool:
    """Whether some component's ``name`` differs from face to face (each face printed with its own list)."""
    return any(game.attributes[name][f][cid] != game.attributes[name][0][cid]
               for cid in cids for f in range(game.face_count[cid]))


def _turns(game: Game, cids: list[int], sides: int) -> str | None:
    """The whole-number attribute that counts a face's turns: on every component of the kind, one face per side
    and the faces' values 0 to ``sides`` - 1, each once (None when the kind has none)."""
    if any(game.face_count[cid] != sides for cid in cids):
        return None
    for name, kind in game.attribute_types.items():
        if kind == "int" and all(sorted(game.attributes[name][f][cid] for f in range(sides)) == list(range(sides))
                                 for cid in cids):
            return name
    return None


def side_values(state: State, cid: int, found: dict[str, Sides]) -> list[str] | None:
    """The value each side of ``cid`` shows as it lies, from side 0 clockwise (None for a kind without sides).

    A tile printed ``[a, b, c, d]`` (north, east, south, west) turned once clockwise shows ``[d, a, b, c]``.
    """
    return face_sides(state.game, cid, state.face[cid], found)


def face_sides(game: Game, cid: int, face: int, found: dict[str, Sides]) -> list[str] | None:
    """The value each side of ``cid`` shows with ``face`` up, from side 0 clockwise (None for a kind without sides):
    what :func:`side_values` says of a tile on the board, for one in a hand too."""
    spec = found.get(game.component_kind[cid])
    if spec is None:
        return None
    printed = [str(v) for v in game.attributes[spec.values][face][cid]]
    turned = game.attributes[spec.turns][face][cid] if spec.turns else 0
    return [printed[(d - turned) % len(printed)] for d in range(len(printed))]


def laid_sides(state: State, action: Action, tiles: dict[str, Sides]) -> list[str] | None:
    """The values the sides of the tile ``action`` plays would show, as it would lie (``place T1 as 1 at 2,0``: its
    sides one step clockwise), from side 0 clockwise; None for an action playing no tile with sides (``tiles``), or
    one the ruleset fails on.  The action is played on a copy, and the tile's face read there.

    Example: for ``place T1 as 1 at 2,0``, a tile printed ``[a, b, c, d]``, ``laid_sides(state, action,
    tile_sides(game, 4))`` is ``['d', 'a', 'b', 'c']``.
    """
    game = state.game
    played = [cid for cid in played_components(state, action) if game.component_kind[cid] in tiles]
    if not played:
        return None
    after = state.clone()
    try:
        after.apply(action, undo=False)
    except RulecraftError:
        return None
    return face_sides(game, played[0], after.face[played[0]], tiles)


MOST_PICTURED = 600
"""The most actions a decision offers whose tiles are shown beside them (each is played on a copy to see how the
tile lies): beyond, they are listed as text alone."""


def sides_svg(corners: list[tuple[float, float]], centre: tuple[float, float], values: list[str],
              colours: dict[str, str], neutral: str) -> str:
    """A triangle from ``centre`` to each side (side ``d`` runs from corner ``d`` to corner ``d + 1``), in the colour
    of the value that side shows, thin light lines between them.

    >>> sides_svg([(0, 0), (2, 0), (2, 2), (0, 2)], (1, 1), ["a", "b", "a", "b"], {"a": "#f00"}, "#ccc").count("#f00")
    2
    """
    cx, cy = centre
    parts = []
    for d, value in enumerate(values):
        (x1, y1), (x2, y2) = corners[d], corners[(d + 1) % len(corners)]
        parts.append(f'<polygon class="side" points="{x1:.1f},{y1:.1f} {x2:.1f},{y2:.1f} {cx:.1f},{cy:.1f}" '
                     f'fill="{colours.get(value, neutral)}"/>')
    return "".join(parts)


def square_corners(left: float, top: float, side: float) -> list[tuple[float, float]]:
    """A square's corners from its top left, clockwise: side 0 (top, north) runs from the first to the second.

    >>> square_corners(0, 0, 2)
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    """
    return [(left, top), (left + side, top), (left + side, top + side), (left, top + side)]


def hex_corners(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """A pointy-top hex's corners from its top, clockwise: side 0 (upper right) runs from the first to the second.

    >>> [(round(x), round(y)) for x, y in hex_corners(0, 0, 10)][:2]
    [(0, -10), (9, -5)]
    """
    return [(cx + radius * math.cos(math.radians(60 * k - 90)), cy + radius * math.sin(math.radians(60 * k - 90)))
            for k in range(6)]


GLYPH = 14
"""The side of a tile's small drawing on a chip, in pixels."""


def glyph_svg(values: list[str], sides: int, colours: dict[str, str], neutral: str) -> str:
    """A tile's sides drawn small (:data:`GLYPH` pixels), for its chip in a zone: a square of four triangles or a hex
    of six, as the board draws it.

    >>> glyph_svg(["a", "b", "a", "b"], 4, {"a": "#f00"}, "#ccc").count('class="side"')
    4
    """
    corners = square_corners(0, 0, GLYPH) if sides == 4 else hex_corners(GLYPH / 2, GLYPH / 2, GLYPH / 2)
    return (f'<svg class="tile-glyph" width="{GLYPH}" height="{GLYPH}" viewBox="0 0 {GLYPH} {GLYPH}" aria-hidden="true">'
            + sides_svg(corners, (GLYPH / 2, GLYPH / 2), values, colours, neutral) + "</svg>")
