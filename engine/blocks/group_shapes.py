"""The cells of pattern groups on a board: a group's cells from its anchor, the groups through a cell, those that
overlap one, the ring of cells around one, complete groups of free pieces, and which cell a reform gives up first —
memoised, since they depend on the board only.  The ``form_groups`` step (:mod:`engine.blocks.groups`) is built on
them.

Example: after a placement at ``c``, ``step.candidates(s, [c])`` are the anchors of the complete groups of free
pieces through ``c``, and ``step.members(a)`` the cells of the one at ``a``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from engine.blocks.hexgrid import leftmost_key

if TYPE_CHECKING:
    from engine.blocks.context import GameView, StateView

Cell = tuple[int, int]
Pair = tuple[Cell, Cell]


class GroupShapes:
    """The geometry of a step's groups: its ``pattern`` laid on its game's board (see the module)."""

    game: GameView
    pattern: tuple[Cell, ...]
    _anchor_cache: dict[Cell, tuple[Cell, ...]]
    _member_cache: dict[Cell, tuple[Cell, ...]]
    _member_sets: dict[Cell, frozenset[Cell]]
    _ring_cache: dict[Cell, tuple[Cell, ...]]
    _around_cache: dict[Cell, tuple[tuple[Cell, frozenset[Cell], frozenset[Cell]], ...]]
    _overlap_cache: dict[Cell, tuple[tuple[Cell, frozenset[Cell]], ...]]
    _nearest_cache: dict[tuple[Cell, Cell], tuple[Cell, ...]]

    def members(self, anchor: Cell) -> tuple[Cell, ...]:
        """The cells of the group anchored at ``anchor``."""
        cells = self._member_cache.get(anchor)
        if cells is None:
            x, y = anchor
            cells = self._member_cache[anchor] = tuple((x + dx, y + dy) for dx, dy in self.pattern)
        return cells

    def anchors(self, cell: Cell) -> tuple[Cell, ...]:
        """The anchors of every group that would include ``cell`` and fits on the board."""
        found = self._anchor_cache.get(cell)
        if found is None:
            x, y = cell
            on = self.game.grid.contains
            found = tuple(a for a in ((x - dx, y - dy) for dx, dy in self.pattern) if all(on(c) for c in self.members(a)))
            self._anchor_cache[cell] = found
        return found

    def _member_set(self, anchor: Cell) -> frozenset[Cell]:
        """The cells of the group anchored at ``anchor``, as a set (memoised)."""
        cells = self._member_sets.get(anchor)
        if cells is None:
            cells = self._member_sets[anchor] = frozenset(self.members(anchor))
        return cells

    def fillable(self, s: "StateView", anchor: Cell) -> bool:
        """Whether every cell of the group at ``anchor`` holds a piece that is in no group (two set operations).

        Example: after a placement at ``c``, ``[a for a in step.anchors(c) if step.fillable(s, a)]``.
        """
        cells = self._member_set(anchor)
        return s.grid.keys() >= cells and s.members.keys().isdisjoint(cells)

    def around(self, cell: Cell) -> tuple[tuple[Cell, frozenset[Cell], frozenset[Cell]], ...]:
        """For each group that would include ``cell`` (see :meth:`anchors`): its anchor, its cells, and its cells but
        ``cell`` (memoised: it depends on the board only).

        Example: ``[a for a, cells, _ in step.around(c) if s.grid.keys() >= cells]``, the complete groups through ``c``.
        """
        found = self._around_cache.get(cell)
        if found is None:
            found = self._around_cache[cell] = tuple((a, self._member_set(a), self._member_set(a) - {cell})
                                                     for a in self.anchors(cell))
        return found

    def overlapping(self, anchor: Cell) -> tuple[tuple[Cell, frozenset[Cell]], ...]:
        """Every group that shares a cell with the group at ``anchor`` (itself too), with its cells, in the order
        :meth:`candidates` meets them from ``members(anchor)`` (memoised: it depends on the board only).

        Example: ``[a for a, cells in step.overlapping(b) if s.grid.keys() >= cells]`` is what
        ``candidates(s, step.members(b))`` finds while no cell is in a group.
        """
        found = self._overlap_cache.get(anchor)
        if found is None:
            seen = dict.fromkeys(a for cell in self.members(anchor) for a, _, _ in self.around(cell))
            found = self._overlap_cache[anchor] = tuple((a, self._member_set(a)) for a in seen)
        return found

    def candidates(self, s: "StateView", changed: Iterable[Cell]) -> list[Cell]:
        """Anchors of complete groups of free pieces that include one of the changed cells (incremental).

        Example: after a placement at ``c``, ``candidates(s, [c])``.
        """
        filled, taken, found = s.grid.keys(), s.members.keys(), []
        for cell in changed:
            for anchor, cells, _ in self.around(cell):
                if filled >= cells and taken.isdisjoint(cells) and anchor not in found:
                    found.append(anchor)
        return found

    def completing(self, s: "StateView", cell: Cell, free: set[Cell] | None = None) -> list[Cell]:
        """What :meth:`candidates` would find were a piece put on ``cell``, without putting it there; ``free``, the
        cells of free pieces (``s.grid.keys() - s.members.keys()``), when the caller asks for many cells: a set keeps
        its entries' hashes, so each group is one subset test.

        Example: ``step.completing(s, c)`` for an empty cell ``c`` next to six free pieces of a 7-cell pattern.
        """
        if cell in s.members:
            return []
        if free is None:
            free = s.grid.keys() - s.members.keys()
        return [anchor for anchor, _, others in self.around(cell) if others <= free]

    def ring(self, anchor: Cell) -> tuple[Cell, ...]:
        """The cells next to the group anchored at ``anchor`` and not in it, each once, in the order its cells'
        neighbours list them (memoised: it depends on the board only).

        Example: ``ring((0, 0))`` on a hexagonal board with a 7-hex flower pattern: the 12 hexes around it.
        """
        found = self._ring_cache.get(anchor)
        if found is None:
            inside, around = self._member_set(anchor), self.game.grid.neighbours
            found = self._ring_cache[anchor] = tuple(dict.fromkeys(n for c in self.members(anchor) for n in around(c)
                                                                   if n not in inside))
        return found

    def nearest(self, anchor: Cell, deformed: Cell) -> tuple[Cell, ...]:
        """The cells of the group at ``anchor``, the one a reform gives up first when the group at ``deformed`` lost
        to it first: closest to ``deformed``, then leftmost seen from there, the anchor last (memoised: it depends
        on the board only; a stable sort, so cells that tie stay in the pattern's order).

        Example: ``next(c for c in step.nearest(a, b) if step.value(s, c) == value)``, the piece a reform replaces.
        """
        found = self._nearest_cache.get((anchor, deformed))
        if found is None:
            dist = self.game.grid.distance
            found = self._nearest_cache[(anchor, deformed)] = tuple(sorted(
                self.members(anchor), key=lambda c: (c == anchor, dist(c, deformed), -leftmost_key(c, deformed, anchor))))
        return found
