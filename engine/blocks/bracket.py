"""Bracketing captures: the lines of other pieces a placed piece closes off with one of its own.

A piece put at a cell *brackets* a line when, going from that cell in one of
the board's adjacency directions, one or more pieces whose attribute differs
from the placed piece's come first and then a piece with the placed piece's
value.  The pieces in between are captured: turned to their next face or
moved to a zone.  A place step says so with ``bracket:``::

    - place:
        from: stock
        face: as-is
        touching: false
        bracket: {attribute: side, capture: flip, required: true}

>>> from engine.blocks.grid import SquareGrid
>>> grid = SquareGrid(adjacency="all", width=4, height=1)
>>> board = {(1, 0): "b", (2, 0): "b", (3, 0): "a"}
>>> bracketed(grid.offsets, lambda cell: board.get(cell), (0, 0), "a")
[(1, 0), (2, 0)]

On a board with walls (``walls:``) a line ends at a wall, whether the board declares it or code built it in play:
the lines are the board's rays as the walls standing leave them (``SquareGrid.rays``), read at each call.

>>> walled = SquareGrid(adjacency="all", width=4, height=1, walls=frozenset({((1, 0), (2, 0))}), walled=True)
>>> closed_lines(walled.rays()[(0, 0)], lambda cell: board.get(cell), "a")
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from engine.blocks.bitboard import BitBoard
from engine.blocks.grid import SquareGrid
from engine.blocks.pointsboard import PointsBoard
from engine.core.errors import did_you_mean
from engine.core.kept_cells import CellKind, kept_cells
from engine.core.yamlsource import Mapping

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView

Cell = tuple[int, int]
FLIP = "flip"


def bracketed(offsets: Iterable[Cell], value_at: Callable[[Cell], Any], cell: Cell, value: Any) -> list[Cell]:
    """The cells of every line that a piece of ``value`` at ``cell`` brackets (``value_at`` is None on an empty cell)."""
    x, y = cell
    found: list[Cell] = []
    for dx, dy in offsets:
        run: list[Cell] = []
        cx, cy = x + dx, y + dy
        while True:
            other = value_at((cx, cy))
            if other is None:
                break
            if other == value:
                found.extend(run)
                break
            run.append((cx, cy))
            cx, cy = cx + dx, cy + dy
    return found


def closed_lines(lines: Iterable[tuple[Cell, ...]], value_at: Callable[[Cell], Any], value: Any) -> list[Cell]:
    """The cells of every line of ``lines`` (each from next to the placed piece outwards, ended by the board's edge or
    a wall) that a piece of ``value`` closes off (``value_at`` is None on an empty cell)."""
    found: list[Cell] = []
    for line in lines:
        for i, c in enumerate(line):
            other = value_at(c)
            if other is None:
                break
            if other == value:
                found.extend(line[:i])
                break
    return found


@dataclass(frozen=True)
class Bracket:
    """A place step's ``bracket:`` setting: which attribute makes pieces rivals, and what happens to bracketed ones."""

    values: list[list[Any]]  # the attribute's values, by face then component
    attribute: str
    zone: str | None  # where captured pieces go; None: they are flipped
    zone_index: int
    required: bool  # only placements that bracket something are legal
    board: BitBoard | None  # the board's cells as bits, on a square board with edges where nothing stacks
    kind: CellKind | None  # the cells of each value as bits, as the state keeps them (with ``board``)
    walled: bool = False  # the board has walls (``walls:``): its lines end at those standing in the state

    def cells(self, s: "StateView", cell: Cell, value: Any) -> list[Cell]:
        """The cells of the pieces a piece of ``value`` put at ``cell`` would capture in ``s``: each line's, from
        ``cell`` outwards, the lines in the order of the board's steps.  On a board of bits (``board``), read along
        the cell's lines with the kept bits of each value (a line whose first cell is not a rival's is passed over
        at once); elsewhere walked cell by cell."""
        if self.board is not None:
            own, rival = self._sides(s, value)
            return self.board.closed(cell, own, rival)
        grid, face, values = s.grid, s.face, self.values

        def value_at(c: Cell) -> Any:
            p = grid.get(c)
            return None if p is None else values[face[p]][p]

        if self.walled:
            return closed_lines(s.game.grid.rays().get(cell, ()), value_at, value)
        return bracketed(s.game.grid.offsets, value_at, cell, value)

    def _sides(self, s: "StateView", value: Any) -> tuple[int, int]:
        """The bits of the cells showing ``value`` and of those showing another value (a board with ``board``)."""
        assert self.kind is not None
        table = s.by_value.get(self.kind) or kept_cells(s, self.kind)
        own, rival = table[value], 0
        for v, bits in table.items():
            if v != value:
                rival |= bits
        return own, rival

    def anywhere(self, s: "StateView", value: Any) -> list[Cell]:
        """The empty cells of the board where a piece of ``value`` would capture something, in the board's order
        (a board with ``board``: see :meth:`bracketing`)."""
        assert self.board is not None
        return self.board.cells_of(self.found(s, value, False))

    def found(self, s: "StateView", value: Any, taken: bool) -> int:
        """The bits of the cells where a piece of ``value`` would capture something (a board with ``board``): the
        empty ones, or with ``taken`` every cell (as if the piece there showed ``value``)."""
        assert self.board is not None
        own, rival = self._sides(s, value)
        board = self.board
        return board.bracketing(own, rival, board.full if taken else board.full ^ (own | rival))

    def bracketing(self, s: "StateView", cells: list[Cell], value: Any) -> list[Cell]:
        """Those of ``cells`` where a piece of ``value`` would capture something, in order.

        On a square board with edges where nothing stacks the state keeps each value's cells as the bits of one
        number (:mod:`engine.blocks.bitboard`), and every line of rivals closed by a piece of ``value`` is found
        by shifting them all at once, a step at a time; elsewhere each cell's lines are walked.
        """
        if self.board is not None:
            bits, found = self.board.bits, self.found(s, value, True)
            return [cell for cell in cells if bits[cell] & found]
        if self.walled:
            return [cell for cell in cells if self.cells(s, cell, value)]
        offsets = s.game.grid.offsets
        return [cell for cell in cells if self._brackets(s, offsets, cell, value)]

    def _brackets(self, s: "StateView", offsets: tuple[Cell, ...], cell: Cell, value: Any) -> bool:
        """Whether a piece of ``value`` at ``cell`` brackets a line along one of ``offsets`` (any board)."""
        grid, face, values = s.grid, s.face, self.values
        x, y = cell
        for dx, dy in offsets:
            cx, cy = x + dx, y + dy
            p = grid.get((cx, cy))
            if p is None or values[face[p]][p] == value:
                continue  # a line must start with a rival
            while True:
                cx, cy = cx + dx, cy + dy
                p = grid.get((cx, cy))
                if p is None:
                    break
                if values[face[p]][p] == value:
                    return True
        return False

    def capture(self, s: "StateView", cell: Cell, value: Any) -> int:
        """Capture what a piece of ``value`` just put at ``cell`` brackets; how many pieces were captured."""
        if self.board is not None:  # (cells(), without its call)
            own, rival = self._sides(s, value)
            cells = self.board.closed(cell, own, rival)
        else:
            cells = self.cells(s, cell, value)
        if self.zone is None:
            s.flip_cells(cells)
        else:
            for c in cells:
                s.move(s.grid[c], self.zone_index)
        return len(cells)

    def describe(self) -> str:
        what = "turned over" if self.zone is None else f"moved to the {self.zone}"
        rule = "; it must bracket at least one" if self.required else ""
        return (f"every straight line of pieces with another {self.attribute} that the placed piece closes off with a piece "
                f"of its own {self.attribute} is {what}{rule}")


def read_bracket(b: "BuildContext", spec: "Mapping") -> Bracket | None:
    """The ``bracket: {attribute, capture, required}`` setting of a step (None when it has none)."""
    node = spec.get("bracket")
    if node is None:
        return None
    if not isinstance(node, Mapping) or "attribute" not in node:
        b.error(b.pos(spec, "bracket"), "'bracket' needs 'attribute': the attribute that tells rival pieces apart")
        return None
    b.unknown_keys(node, ("attribute", "capture", "required"), "bracket")
    if isinstance(b.game.grid, PointsBoard):
        b.error(b.pos(spec, "bracket"), "'bracket' captures along straight lines of cells; a board of points has none")
    values = b.face_attribute(node, "attribute")
    capture = str(node.get("capture", FLIP))
    zone_index = 0
    if capture != FLIP:
        zone_spec = b.game.zone_specs.get(capture)
        if zone_spec is None:
            b.error(b.pos(node, "capture"), f"'capture' must be 'flip' or a shared zone, not '{capture}'",
                    did_you_mean(capture, [FLIP, *b.game.zone_specs]))
        elif zone_spec.per_role or zone_spec.keys:
            b.error(b.pos(node, "capture"), f"'capture' must be 'flip' or a shared zone; '{capture}' is one zone per "
                                            f"{'role' if zone_spec.per_role else 'key'}")
        else:
            zone_index = b.game.zone_index[(capture, None)]
    grid = b.game.grid
    walled = getattr(grid, "walled", False)  # walls end lines, and code may build them: the bits see none
    board = BitBoard(grid) if isinstance(grid, SquareGrid) and grid.fixed and not grid.stacking and not walled else None
    return Bracket(values, str(node["attribute"]), None if capture == FLIP else capture, zone_index,
                   b.bool_setting(node, "required", True), board, None if board is None else CellKind(values, bits=board.bits),
                   walled)
