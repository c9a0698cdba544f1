"""What pattern groups hold and how they link: the values of their pieces, the support table's verdict on a group
or on two clashing ones (remembered by the pieces' weights when nothing logs), the pairs of groups connected by
touching or by a path of free pieces, and which pieces put on an empty cell would make a group form or two clash.
The ``form_groups`` step (:mod:`engine.blocks.groups`) is built on them.

Example: ``step.verdict(s, a).winner`` is the value that would own a group formed at ``a``; ``step.links(s, [c])``
the pairs of groups connected through the cell ``c``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from engine.blocks.group_shapes import Cell, GroupShapes, Pair
from engine.blocks.majority import MEMO_SIZE, SupportTable, Verdict

if TYPE_CHECKING:
    from engine.blocks.context import StateView


class Neighbours(dict):  # type: ignore[type-arg]
    """A board's neighbours of each cell, asked of the grid once per cell: a plain dict lookup after that.

    >>> from engine.blocks.hexgrid import HexGrid
    >>> Neighbours(HexGrid(1).neighbours)[(0, 0)]
    ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    """

    def __init__(self, neighbours: Callable[[Cell], tuple[Cell, ...]]) -> None:
        super().__init__()
        self.ask = neighbours

    def __missing__(self, cell: Cell) -> tuple[Cell, ...]:
        found = self[cell] = self.ask(cell)
        return found


class GroupLinks(GroupShapes):
    """A step's groups as the pieces on them make them: values, verdicts and links (see the module)."""

    values: list[list[Any]]
    weights: dict[Any, int]
    weight: list[list[int]]
    table: SupportTable
    through: frozenset[str]
    passable: list[list[bool]]
    touch_through: bool
    neighbours: Neighbours
    walled: bool  # the board has walls (``walls:``): groups and paths touch only where the walls standing leave them
    _around_by_walls: dict[frozenset[Pair], Neighbours]
    connects: bool
    _verdicts: dict[int, Verdict]
    _wins: dict[int, bool]
    _clash_verdicts: dict[tuple[int, int, tuple[Any, Any] | None], Verdict]

    def value(self, s: "StateView", cell: Cell) -> Any:
        """The attribute value the piece at ``cell`` shows."""
        c = s.grid[cell]
        return self.values[s.face[c]][c]

    def counts(self, s: "StateView", anchors: Iterable[Cell]) -> dict[str, int]:
        """How many pieces of the groups at ``anchors`` show each value."""
        counts: dict[str, int] = {}
        values, face, grid = self.values, s.face, s.grid
        for anchor in anchors:
            for cell in self.members(anchor):
                c = grid[cell]
                v = values[face[c]][c]
                counts[v] = counts.get(v, 0) + 1
        return counts

    def verdict(self, s: "StateView", anchor: Cell) -> Verdict:
        """The support table's verdict on the pieces of the group at ``anchor``.

        Who wins and what decided do not depend on the order of the counts, only the verdict's words do: a state
        that keeps no log gets the verdict remembered by the sum of the pieces' weights (which values, how often),
        a state that keeps one the verdict on the counts in the order of the group's cells.

        Example: ``step.verdict(s, a).winner``, the value that would own a group formed at ``a``.
        """
        if s.log is not None:
            return self.table.decide(self.counts(s, (anchor,)))
        key = self.weight_of(s, anchor)
        verdict = self._verdicts.get(key)
        if verdict is None:
            if len(self._verdicts) >= MEMO_SIZE:
                self._verdicts.clear()
            verdict = self._verdicts[key] = self.table.decide(self.counts(s, (anchor,)))
        return verdict

    def marker_value(self, s: "StateView", anchor: Cell) -> Any:
        """The value the marker of the group at ``anchor`` shows."""
        m = s.groups[anchor]
        return self.values[s.face[m]][m]

    def links(self, s: "StateView", seeds: Iterable[Cell]) -> list[Pair]:
        """The pairs of groups connected through the seed cells: touching, or linked by a path of free pieces
        whose value is in ``through``.  Example: ``links(s, [placed_cell])``."""
        if len(s.groups) < 2:
            return []
        grid, members, face, passable = s.grid, s.members, s.face, self.passable
        seen: set[Cell] = set()
        rung: set[Cell] = set()  # the groups whose ring is walked already (a second walk would find nothing new)
        pairs: dict[Pair, None] = {}

        def add_all(touched: set[Cell]) -> None:
            ordered = sorted(touched)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    pairs[(a, b)] = None

        for seed in seeds:
            if seed not in grid:
                continue
            anchor = members.get(seed)
            if anchor is None:
                if seed not in seen and passable[face[grid[seed]]][grid[seed]]:
                    seen.add(seed)
                    add_all(self._touched(s, seed, seen))
                continue
            if anchor in rung:
                continue
            rung.add(anchor)
            for n in self.ring(anchor) if not self.walled else self._ring_in(s, anchor):
                other = members.get(n)
                if other is not None:
                    if not self.touch_through or self._touch_counts(s, anchor, n):
                        pairs[(anchor, other) if anchor < other else (other, anchor)] = None
                elif n not in seen and (c := grid.get(n)) is not None and passable[face[c]][c]:
                    seen.add(n)
                    add_all(self._touched(s, n, seen))
        return list(pairs)

    def around_in(self, s: "StateView") -> Neighbours:
        """The neighbours of each cell on the board ``s`` plays on: the board's own, or on a board with walls those the
        walls standing in ``s`` leave, so that a wall built in play parts two groups, or a group and a path, as one the
        board declares does (each set of walls' neighbours kept, a few thousand sets at most).

        Example: ``step.around_in(s)[(0, 0)]``, the cells next to 0,0 in ``s``.
        """
        if not self.walled:
            return self.neighbours
        grid = s.game.grid
        found = self._around_by_walls.get(grid.walls)
        if found is None:
            if len(self._around_by_walls) >= 4096:
                self._around_by_walls.clear()
            found = self._around_by_walls[grid.walls] = Neighbours(grid.neighbours)
        return found

    def _ring_in(self, s: "StateView", anchor: Cell) -> tuple[Cell, ...]:
        """The cells next to the group at ``anchor`` and not in it, on a board with walls as they stand in ``s`` (see
        :meth:`ring`, the same on a board without)."""
        inside, around = frozenset(self.members(anchor)), self.around_in(s)
        return tuple(dict.fromkeys(n for c in self.members(anchor) for n in around[c] if n not in inside))

    def _touch_counts(self, s: "StateView", anchor: Cell, cell: Cell) -> bool:
        """Whether the piece on ``cell`` (of another group) touches the group at ``anchor`` through a piece of a
        ``through`` value: its own, or that of a member of the group next to it (``touch_through``).

        Example: ``self._touch_counts(s, (0, 0), (2, 0))`` is false when the piece at 2,0 and every piece of the
        group at 0,0 next to it are neutral (Spirits meeting Spirits).
        """
        grid, face, values, through, members = s.grid, s.face, self.values, self.through, s.members
        c = grid[cell]
        if values[face[c]][c] in through:
            return True
        return any(members.get(n) == anchor and values[face[m := grid[n]]][m] in through for n in self.around_in(s)[cell])

    def _touched(self, s: "StateView", start: Cell, seen: set[Cell]) -> set[Cell]:
        """The anchors of the groups touching the path of free ``through`` pieces that runs through ``start``
        (``start`` itself counts as a path piece; cells in ``seen`` are not entered again, and are added to it)."""
        grid, members, face, passable, around = s.grid, s.members, s.face, self.passable, self.around_in(s)
        touched: set[Cell] = set()
        stack = [start]
        while stack:
            for n in around[stack.pop()]:
                anchor = members.get(n)
                if anchor is not None:
                    touched.add(anchor)
                elif n not in seen and (c := grid.get(n)) is not None and passable[face[c]][c]:
                    seen.add(n)
                    stack.append(n)
        return touched

    def triggering(self, s: "StateView", cells: list[Cell], pieces: Sequence[tuple[int, int]]) -> dict[Cell, set[int]]:
        """For each empty cell, which of ``pieces`` ((component, face) pairs) put there would make a group form or
        two groups clash.  Linking only groups of one marker is no clash (it may win the game with ``if_same``,
        but it is not a clash), so it does not count.

        Which groups fill up and which groups a path piece there would link do
        not depend on the piece: they are found once per cell (the paths of
        free pieces once for all cells, see :meth:`_paths`); only the majority
        is decided piece by piece.
        """
        paths = self._paths(s) if self.connects and len(s.groups) >= 2 else None
        values, through = self.values, self.through
        free = s.grid.keys() - s.members.keys()  # the cells of free pieces, once for every cell
        acting: dict[Cell, set[int]] = {}
        for cell in cells:
            anchors = self.completing(s, cell, free)
            linking = paths is not None and len({self.marker_value(s, a) for a in paths(cell)}) >= 2
            if not anchors and not linking:
                continue
            without = [(anchor, self._weight_without(s, anchor, cell)) for anchor in anchors]
            found = acting[cell] = set()
            for i, (cid, face) in enumerate(pieces):
                value = values[face][cid]
                if (linking and value in through) or any(self._wins_with(s, anchor, cell, rest, value) for anchor, rest in without):
                    found.add(i)
        return acting

    def _paths(self, s: "StateView") -> Callable[[Cell], set[Cell]]:
        """A function giving, for an empty cell, the anchors of the groups a path piece put there would touch (what
        ``_touched`` finds from it); each path of free pieces is walked once, however many cells ask.

        Example: ``self._paths(s)(cell)``, for every empty cell of a decision.
        """
        grid, members, face, passable, around = s.grid, s.members, s.face, self.passable, self.around_in(s)
        reached: dict[Cell, set[Cell]] = {}  # a free path piece -> the groups its path touches (shared by the path)

        def touched(cell: Cell) -> set[Cell]:
            found: set[Cell] = set()
            for n in around[cell]:
                anchor = members.get(n)
                if anchor is not None:
                    found.add(anchor)
                elif n in reached:
                    found |= reached[n]
                elif (c := grid.get(n)) is not None and passable[face[c]][c]:
                    seen = {n}
                    groups = self._touched(s, n, seen)
                    for c in seen:
                        reached[c] = groups
                    found |= groups
            return found

        return touched

    def weight_of(self, s: "StateView", anchor: Cell) -> int:
        """The sum of the weights of the pieces of the group at ``anchor``: which values it holds, how often.

        Example: ``step.weight_of(s, a) == step.weight_of(s, b)`` when the groups at ``a`` and ``b`` hold the same values.
        """
        weight, face, grid = self.weight, s.face, s.grid
        return sum([weight[face[c]][c] for c in map(grid.__getitem__, self.members(anchor))])

    def _weight_without(self, s: "StateView", anchor: Cell, cell: Cell) -> int:
        """The sum of the weights of the pieces of the group at ``anchor``, leaving out ``cell`` (see :meth:`verdict`)."""
        weight, face, grid = self.weight, s.face, s.grid
        return sum([weight[face[c]][c] for c in [grid[member] for member in self.members(anchor) if member != cell]])

    def _counts_without(self, s: "StateView", anchor: Cell, cell: Cell) -> dict[str, int]:
        """The values of the pieces of the group at ``anchor``, leaving out ``cell``."""
        counts: dict[str, int] = {}
        values, face, grid = self.values, s.face, s.grid
        for member in self.members(anchor):
            if member != cell:
                c = grid[member]
                v = values[face[c]][c]
                counts[v] = counts.get(v, 0) + 1
        return counts

    def _wins_with(self, s: "StateView", anchor: Cell, cell: Cell, rest: int, value: Any) -> bool:
        """Whether some value wins the group at ``anchor`` with a piece of ``value`` on ``cell`` (``rest``: the
        weights of its other pieces), remembered by the weights (which values, how often: who wins does not
        depend on their order).

        Example: ``step._wins_with(s, a, c, step._weight_without(s, a, c), "A")``.
        """
        key = rest + self.weights[value]
        wins = self._wins.get(key)
        if wins is None:
            if len(self._wins) >= MEMO_SIZE:
                self._wins.clear()
            more = self._counts_without(s, anchor, cell)
            more[value] = more.get(value, 0) + 1
            wins = self._wins[key] = self.table.decide(more).winner is not None
        return wins

    def clash_verdict(self, s: "StateView", a: Cell, b: Cell, among: tuple[Any, Any] | None) -> Verdict:
        """The support table's verdict on the pieces of the groups at ``a`` and ``b`` together, ``among`` the values
        that may win (None: every value); remembered by the two groups' weights in a state that keeps no log (see
        :meth:`verdict`: who wins, the totals and what decided do not depend on the order of the counts).

        Example: ``step.clash_verdict(s, a, b, (step.marker_value(s, a), step.marker_value(s, b))).winner``.
        """
        if s.log is not None:
            return self.table.decide(self.counts(s, (a, b)), among)
        key = (self.weight_of(s, a), self.weight_of(s, b), among)
        verdict = self._clash_verdicts.get(key)
        if verdict is None:
            if len(self._clash_verdicts) >= MEMO_SIZE:
                self._clash_verdicts.clear()
            verdict = self._clash_verdicts[key] = self.table.decide(self.counts(s, (a, b)), among)
        return verdict
