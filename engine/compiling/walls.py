"""A square board's ``walls:``: walls standing between neighbouring cells, listed as pairs of cells or drawn.

::

    board:
      kind: square-grid
      width: 3
      height: 2
      walls:                  # a pair of neighbouring cells each: a wall between them
        - [a1, b1]            # named cells (cell_names: algebraic), "x,y", or [x, y]
        - ["1,1", "2,1"]
      # or drawn, a cell every 4 columns and 2 lines ('|' and '---' where a wall stands; the frame is the edge):
      walls: |
        +---+---+---+
        | .   . | . |
        +   +---+   +
        | .   .   . |
        +---+---+---+

``walls: []`` is a board without walls yet, where code builds them in play
(``build_wall``).  Every wall parts two cells of the board that touch under
its adjacency; anything else is refused where it is written.

>>> from engine.compiling.builder import Builder
>>> from engine.compiling.zones import read_board
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "board: {width: 2, height: 2, walls: [['0,0', '1,0']]}\\n"))
>>> read_board(b); b.game.grid.walls, b.game.grid.neighbours((0, 0))
(frozenset({((0, 0), (1, 0))}), ((0, 1),))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.grid import SquareGrid, wall_pair
from engine.compiling.components import is_pair
from engine.core.errors import SourcePos

if TYPE_CHECKING:
    from engine.compiling.builder import Builder

Cell = tuple[int, int]
Wall = tuple[Cell, Cell]


def read_walls(b: "Builder", spec: Any, grid: SquareGrid) -> frozenset[Wall]:
    """The walls ``spec`` (the board's ``walls:``) lists or draws on ``grid``; each one refused is reported and left out."""
    where = b.pos(spec, "walls")
    walls = spec.get("walls")
    if not grid.fixed:
        b.error(where, "walls stand between the cells of a board with edges, and this board grows",
                "give the board a 'width' and a 'height'")
        return frozenset()
    if isinstance(walls, str):
        return drawn_walls(b, walls, where, grid)
    if not isinstance(walls, list):
        b.error(where, "'walls' lists pairs of neighbouring cells ([[a1, a2], [\"1,0\", \"1,1\"]]) or draws them "
                       "in a text", "walls: [] for a board whose walls are all built in play")
        return frozenset()
    found: set[Wall] = set()
    for i, pair in enumerate(walls):
        at = b.pos(walls, i)
        if not isinstance(pair, list) or len(pair) != 2:
            b.error(at, "a wall is a pair of neighbouring cells, [a1, a2] or [\"0,0\", \"1,0\"]")
            continue
        ends = [_cell(b, end, b.pos(pair, j) or at) for j, end in enumerate(pair)]
        if ends[0] is not None and ends[1] is not None:
            wall = _wall(b, grid, ends[0], ends[1], at)
            if wall is not None and wall in found:
                b.error(at, f"the wall between {b.game.cell_text(wall[0])} and {b.game.cell_text(wall[1])} is listed twice")
            elif wall is not None:
                found.add(wall)
    return frozenset(found)


def _cell(b: "Builder", end: Any, at: SourcePos | None) -> Cell | None:
    """The cell one end of a wall names (reported when none of the board)."""
    cell = b.game.read_cell(end) if isinstance(end, str) else (end[0], end[1]) if is_pair(end) else None
    grid = b.game.grid
    if cell is None or grid is None or not grid.contains(cell):
        b.error(at, f"'{end}' is no cell of the board" if isinstance(end, str) else "a wall's end is a cell: \"x,y\", "
                    "[x, y] or its name")
        return None
    return cell


def _wall(b: "Builder", grid: SquareGrid, a: Cell, c: Cell, at: SourcePos | None) -> Wall | None:
    """The wall between ``a`` and ``c``; None, reported, when they do not touch on the board."""
    if c not in grid.neighbours(a):
        b.error(at, f"a wall stands between two cells that touch, and {b.game.cell_text(a)} and {b.game.cell_text(c)} "
                    f"do not (the board's adjacency is {grid.adjacency})")
        return None
    return wall_pair(a, c)


def drawn_walls(b: "Builder | None", text: str, where: SourcePos | None, grid: SquareGrid) -> frozenset[Wall]:
    """The walls of a drawn board: a line of cells for each row (row 0 first, or last with ``y_axis: up``), a cell
    every 4 columns from the third, a ``|`` (any mark) between two cells where a wall parts them; a line between two
    rows of cells, with ``---`` (any mark) under a cell where a wall parts it from the one below.  The frame, the
    board's edge, may be drawn or not: what stands there is no wall between cells.

    >>> grid = SquareGrid(width=2, height=2, walled=True)
    >>> sorted(drawn_walls(None, "+---+---+\\n| .   . |\\n+---+   +\\n| . | . |\\n+---+---+\\n", None, grid))
    [((0, 0), (0, 1)), ((0, 1), (1, 1))]
    """
    lines = text.rstrip("\n").split("\n")
    if len(lines) == 2 * grid.height - 1:  # drawn without its frame
        lines = [""] + lines + [""]
    if len(lines) != 2 * grid.height + 1:
        _refuse(b, where, f"the walls drawn have {len(lines)} lines, and a board {grid.height} cells high is drawn in "
                          f"{2 * grid.height + 1}: a line for each row of cells, one between rows and the frame")
        return frozenset()
    if grid.y_up:
        lines = lines[::-1]
    found: set[Wall] = set()
    for y in range(grid.height):
        cells, below = lines[2 * y + 1], lines[2 * y + 2] if y + 1 < grid.height else ""
        for x in range(grid.width):
            if x + 1 < grid.width and _mark(cells, 4 * x + 4):
                found.add(wall_pair((x, y), (x + 1, y)))
            if below and _mark(below, 4 * x + 2):
                found.add(wall_pair((x, y), (x, y + 1)))
        longest = 4 * grid.width + 1
        for line in (cells, below):
            if len(line.rstrip()) > longest:
                _refuse(b, where, f"a line of the walls drawn is {len(line.rstrip())} columns long, and a board "
                                  f"{grid.width} cells wide is drawn in {longest}: '{line.strip()}'")
                return frozenset()
    return frozenset(found)


def _mark(line: str, column: int) -> bool:
    return column < len(line) and not line[column].isspace()


def _refuse(b: "Builder | None", where: SourcePos | None, message: str) -> None:
    if b is not None:
        b.error(where, message, "a cell every 4 columns: '| .   . |', and under it '+---+   +'")
