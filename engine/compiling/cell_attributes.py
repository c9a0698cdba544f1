"""Attributes of type ``cell``: a component tied to a place of the board, read in code as that cell.

A map game's lands are components (a zone holds them, counters count their
armies) and the board's points are its places: ``spot: cell`` ties each land
to its point, so code follows the board's links from one land to another::

    board: {kind: points, points: {north: [0, 0], south: [0, 2]}, links: [[north, south]]}
    components:
      land:
        attributes: {spot: cell}
        instances: [{id: upland, spot: north}, {id: lowland, spot: south}]
    functions:
      borders(land t, land u): u.spot in neighbours(t.spot)

A value names a point (on a board of points), or is ``"x,y"`` or ``[x, y]``;
it must be a cell of the board (on a growing board, within reach of 0,0: see
:func:`engine.blocks.enumeration.reach`).  The values
are read once the board is, and each problem is reported where it is written.

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "board: {kind: points, points: {a: [0, 0], b: [1, 0]}, links: [[a, b]]}\\n"
...                                  "components: {land: {attributes: {spot: cell}, instances: [{id: x, spot: b}, "
...                                  "{id: y, spot: c}]}}\\n"))
>>> b.build() and None
>>> b.game.attributes["spot"], [d.headline() for d in b.sink.items if "spot" in d.message]
([[(1, 0), None]], ["r.yaml:2:91: spot 'c' is no point of the board (the points are a, b)"])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.enumeration import reach, reach_text
from engine.blocks.grid import format_cell
from engine.compiling.components import CELL, is_pair
from engine.core.showtext import cut
from engine.lang.types import LIST_OF

if TYPE_CHECKING:
    from engine.compiling.builder import Builder
    from engine.core.errors import SourcePos

Cell = tuple[int, int]


def read_cell_attributes(b: "Builder") -> None:
    """Turn every value of an attribute of type ``cell`` (or a list of them) into its cell; each value that names no
    cell of the board is reported where written, and left empty."""
    g = b.game
    if CELL in g.types:  # a ruleset's own type of that name: its values are its own
        return
    for attr, type_name in g.attribute_types.items():
        if type_name.removeprefix(LIST_OF) != CELL:
            continue
        if g.grid is None:  # once for the attribute, where its first value is written
            where = next((at[0] if isinstance(at, list) and at else at for (name, _), places in b.cell_places.items()
                          if name == attr for at in places), None)
            b.error(where, f"{attr} is a cell of the board, but this ruleset has no board",
                    "add a 'board:' (a board of points names its places: {kind: points, points: {a: [0, 0]}, links: []})")
            continue
        for face, row in enumerate(g.attributes[attr]):
            for cid, value in enumerate(row):
                if value is None:
                    continue
                places = b.cell_places.get((attr, cid))
                where = places[face] if places and face < len(places) else None
                if not type_name.startswith(LIST_OF):
                    row[cid] = _cell(b, attr, value, where)
                elif not isinstance(value, list):  # reported already (engine.compiling.components.check_value)
                    row[cid] = None
                elif isinstance(where, list):  # a list of cells: each item where it is written
                    row[cid] = [_cell(b, attr, v, where[i] if i < len(where) else None) for i, v in enumerate(value)]
                else:
                    row[cid] = [_cell(b, attr, v, where) for v in value]


def _cell(b: "Builder", attr: str, value: Any, where: "SourcePos | None") -> Cell | None:
    """The cell ``value`` (written at ``where``) names on the board; None, reported, when it names none."""
    grid = b.game.grid
    if grid is None:
        return None
    names: dict[str, Cell] = getattr(grid, "names", {})
    if isinstance(value, str):
        cell = names.get(str(value)) or b.game.read_cell(str(value))  # x,y, or the cell's name (cell_names)
    elif is_pair(value):
        cell = (value[0], value[1])
    else:
        return None  # neither text nor a pair of whole numbers: reported already (engine.compiling.components.check_value)
    if cell is None or (grid.fixed and not grid.contains(cell)):
        shown = b.game.cell_text(cell) if cell is not None else cut(str(value), 60)
        kind = "point" if names or hasattr(grid, "links") else "cell"
        b.error(where, f"{attr} '{shown}' is no {kind} of the board",
                f"the points are {', '.join(list(names)[:8])}{', ...' if len(names) > 8 else ''}" if names else None)
        return None
    if not b.has_edges():  # a board growing as written (not one refused for its size, built growing)
        pieces = len(b.game.component_names)
        across, down = reach(grid, pieces)
        if abs(cell[0]) > across or abs(cell[1]) > down:
            b.error(where, f"{attr} '{format_cell(cell)}' is out of this growing board's reach: {reach_text(grid, pieces)}")
            return None
    return cell
