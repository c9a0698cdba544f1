"""Effect-language functions about the board: the largest group of like pieces and the group of one, a walk
along a direction, the longest line, the piece at a cell, a cell's neighbours and the cells between two.

They are part of every ruleset's vocabulary (:data:`engine.blocks.state_functions.STATE_FUNCTIONS`).

>>> cells_between((0, 0), (3, 3), [(1, 1), (1, 0), (0, 1)])   # along a diagonal
[(1, 1), (2, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from engine.core.kept_cells import kept_cells
from engine.lang import ast, budgets, codegen
from engine.lang.codegen import Code
from engine.lang.functions import Function, as_selection, board_by_value, describe_selection, unknown_options
from engine.lang.scope import Compiled, Fn, Scope
from engine.lang.types import ANY, ANY_COMPONENT, CELL, INT, Component, ListOf


@dataclass(frozen=True)
class LargestGroup(Function):
    """The size of the largest connected group of selected pieces on the board."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        sel = as_selection(args[0]).compile_parts(scope)
        items = sel.items

        def largest(s: Any, e: list[Any]) -> int:
            cell_of = s.cell_of
            return s.game.grid.largest_group([cell_of[c] for c in items(s, e) if cell_of[c] is not None])

        kind = board_by_value(sel, scope)
        if kind is None:
            return Compiled(INT, largest)
        (_, right, _), = sel.fast  # type: ignore[misc]

        def largest_kept(s: Any, e: list[Any]) -> int:
            """``x in board where x.attr == v``: the cells the state keeps for ``v`` (each one piece while nothing is
            stacked)."""
            if s.stacks:
                return largest(s, e)
            cells = kept_cells(s, kind).get(right(s, e))
            return 0 if not cells else s.game.grid.largest_group(cells)

        return Compiled(INT, largest_kept)

    def describe(self, call: ast.Call) -> str:
        return f"the size of the largest connected group of {describe_selection(call.args[0])}" if call.args else "0"


@dataclass(frozen=True)
class GroupOf(Function):
    """``group_of(PIECE, x in COLLECTION [where CONDITION])``: the selected pieces on the board connected to PIECE's
    cell, each touching the next under the board's adjacency — a chain of stones from one edge to another, a group
    and its liberties.  Example: ``any(t.cell.y == 4 for t in group_of(s, x in board where x.colour == s.colour))``.
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(ANY_COMPONENT), lambda s, e: [])
        start = self.value(scope, args[0], ANY_COMPONENT, "piece").fn
        sel = as_selection(args[1]).compile_parts(scope)
        items = sel.items

        def group_of(s: Any, e: list[Any]) -> list[Any]:
            piece = start(s, e)
            cell_of = s.cell_of
            first = cell_of[piece] if piece is not None else None
            if first is None:  # not on the board: connected to nothing
                return []
            chosen = [c for c in items(s, e) if cell_of[c] is not None]
            cells = {cell_of[c] for c in chosen}
            if first not in cells:
                return []
            grid, reached, todo = s.game.grid, {first}, [first]
            while todo:
                for n in grid.neighbours(todo.pop()):
                    if n in cells and n not in reached:
                        reached.add(n)
                        todo.append(n)
            return [c for c in chosen if cell_of[c] in reached]

        item = sel.item_type if isinstance(sel.item_type, Component) else ANY_COMPONENT
        return Compiled(ListOf(item), group_of)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 2:
            return "a group"
        return f"the {describe_selection(call.args[1])} connected to {call.args[0].describe()}"


@dataclass(frozen=True)
class Walk(Function):
    """``walk(CELL, x in COLLECTION [where CONDITION])``: the cells a walk from CELL reaches over the board's
    adjacency, never stepping onto a cell where a selected piece stands — CELL first, then the others in the order the
    walk finds them.  The selected pieces bar the way, every other piece is walked over: the empty region around a
    cell (``walk(c, x in board)``), the squares a piece could still walk to between barriers.  Only on a board with
    edges (a growing board has no end to walk to).  Example::

        any(q.y == 0 for q in walk(p.cell, x in board where x.kind == "barrier"))
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, most = call.positional(), call.keywords().get("steps")
        if not unknown_options(self, call, scope, 2, 2, known=("steps",)) and len(args) != 2:
            scope.error(call.pos, f"{self.name}() takes 2 arguments, not {len(args)}", f"usage: {self.signature}")
        if len(args) < 2:
            return Compiled(ListOf(CELL), lambda s, e: [])
        start = self.value(scope, args[0], CELL, "first argument").fn
        sel = as_selection(args[1]).compile_parts(scope)
        if not scope.vocab.data.get("board_with_edges"):
            scope.error(call.pos, f"{self.name}() needs a board with edges, and this ruleset has none",
                        "give the board a width and a height (or make it hexes or points); on a growing board the "
                        "walk would never end")
            return Compiled(ListOf(CELL), lambda s, e: [])
        items, pos = sel.items, call.pos
        if most is not None:
            return Compiled(ListOf(CELL), _short_walk(start, items, self.value(scope, most.value, INT, "steps").fn, pos))

        def walk(s: Any, e: list[Any]) -> list[Any]:
            first = start(s, e)
            if first is None:
                return []
            cell_of, around = s.cell_of, s.game.grid.around().get
            seen = {cell for c in items(s, e) if (cell := cell_of[c]) is not None}  # the barred cells: never entered
            seen.add(first)
            found = [first]
            add, append = seen.add, found.append
            for here in found:  # the list grows as the walk goes
                for n in around(here, ()):
                    if n not in seen:
                        add(n)
                        append(n)
            s.budget -= len(found)  # a board with edges has at most 10,000 cells: one walk always ends
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, "walk")
            return found

        return Compiled(ListOf(CELL), walk)

    def describe(self, call: ast.Call) -> str:
        args, most = call.positional(), call.keywords().get("steps")
        if len(args) != 2:
            return "the cells reached"
        within = f" in at most {most.value.describe()} steps" if most is not None else ""
        return (f"the cells a walk from {ast.grouped(args[0])} reaches{within}, never onto the cell of "
                f"{describe_selection(args[1])}")


def _distances(s: Any, first: Any, barred: set[Any], most: int | None, pos: Any, name: str) -> dict[Any, int]:
    """The cells a walk from ``first`` reaches on the state's board (never onto ``barred``), each with the fewest steps
    it takes, in the order the walk finds them; only those ``most`` steps away at most, when given."""
    around = s.game.grid.around().get
    found, layer, steps = {first: 0}, [first], 0
    while layer and (most is None or steps < most):
        steps += 1
        nxt = []
        for here in layer:
            for n in around(here, ()):
                if n not in found and n not in barred:
                    found[n] = steps
                    nxt.append(n)
        layer = nxt
    s.budget -= len(found)  # a board with edges has at most 10,000 cells: one walk always ends
    if s.budget < 0:
        raise budgets.out_of_steps(s, pos, name)
    return found


def _short_walk(start: Fn, items: Fn, most: Fn, pos: Any) -> Fn:
    """``walk(CELL, x in C, steps = N)``: the cells a walk reaches in at most N steps (none for a cell off the board)."""

    def walk(s: Any, e: list[Any]) -> list[Any]:
        first, n = start(s, e), most(s, e)
        if first is None or n is None:
            return []
        cell_of = s.cell_of
        barred = {cell for c in items(s, e) if (cell := cell_of[c]) is not None and cell != first}
        return list(_distances(s, first, barred, max(n, 0), pos, "walk"))

    return walk


@dataclass(frozen=True)
class StepsTo(Function):
    """``steps_to(FROM, TO [, x in COLLECTION [where CONDITION]])``: the fewest steps a walk from FROM takes to TO over
    the board's adjacency (its walls too), never onto a cell where a selected piece stands (TO may hold one: a walk
    ends there; without a collection, nothing bars the way but the walls); -1 when no walk reaches it.  How far a
    runner is from the goal, around the walls and the other runners::

        steps_to(p.cell, (3, 3), x in runners where x != p)
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2, 3)
        if len(args) < 2:
            return Compiled(INT, lambda s, e: -1)
        a, b = self.value(scope, args[0], CELL, "first cell").fn, self.value(scope, args[1], CELL, "second cell").fn
        items = as_selection(args[2]).compile_parts(scope).items if len(args) == 3 else (lambda s, e: ())
        if not scope.vocab.data.get("board_with_edges"):
            scope.error(call.pos, f"{self.name}() needs a board with edges, and this ruleset has none",
                        "give the board a width and a height (or make it hexes or points)")
            return Compiled(INT, lambda s, e: -1)
        pos = call.pos

        def steps_to(s: Any, e: list[Any]) -> int:
            first, goal = a(s, e), b(s, e)
            if first is None or goal is None:
                return -1
            cell_of = s.cell_of
            barred = {cell for c in items(s, e) if (cell := cell_of[c]) is not None and cell not in (first, goal)}
            return _distances(s, first, barred, None, pos, "steps_to").get(goal, -1)

        return Compiled(INT, steps_to)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) not in (2, 3):
            return "the steps of a walk"
        barred = f", never onto the cell of {describe_selection(args[2])}" if len(args) == 3 else ""
        return f"the fewest steps from {args[0].describe()} to {args[1].describe()}{barred}"


@dataclass(frozen=True)
class LongestLine(Function):
    """The length of the longest straight line of selected pieces on the board (on a board of points: of linked
    points, every link the same way)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        from engine.blocks.grid import LineMemo, longest_open_line

        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        sel = as_selection(args[0]).compile_parts(scope)
        items = sel.items
        if scope.vocab.data.get("geometry") == "points":  # straight runs of linked points

            def along_links(s: Any, e: list[Any]) -> int:
                cell_of = s.cell_of
                return s.game.grid.longest_line([cell for c in items(s, e) if (cell := cell_of[c]) is not None])

            return Compiled(INT, along_links)
        if scope.vocab.data.get("walls"):  # runs that no wall cuts, on the board with the walls standing now

            def between_walls(s: Any, e: list[Any]) -> int:
                cell_of, grid = s.cell_of, s.game.grid
                return longest_open_line([cell for c in items(s, e) if (cell := cell_of[c]) is not None], grid.offsets,
                                         grid.walls)

            return Compiled(INT, between_walls)
        memos: dict[tuple[tuple[int, int], ...], LineMemo] = {}  # by the board's offsets: one per game, in practice

        def longest(s: Any, e: list[Any]) -> int:
            cell_of, offsets = s.cell_of, s.game.grid.offsets
            memo = memos.get(offsets) or memos.setdefault(offsets, LineMemo(offsets))
            return memo.longest([cell for c in items(s, e) if (cell := cell_of[c]) is not None])

        board = scope.vocab.data.get("board_zone")
        if (sel.fast is not None and isinstance(board, int) and sel.constant_source == board
                and all(row is not None for _, _, row in sel.fast)):
            made: list[Any] = [None, None]  # the board last seen and its kind of line: one board per game, in practice
            kept = _kept_longest(sel.fast, board, longest, made)
            right = sel.rights[0] if len(sel.fast) == 1 and sel.rights else None
            return Compiled(INT, kept, code=_kept_code(made, right, kept) if right is not None and scope.pure else None)
        return Compiled(INT, longest)

    def describe(self, call: ast.Call) -> str:
        return f"the length of the longest straight line of {describe_selection(call.args[0])}" if call.args else "0"


def _kept_code(made: list[Any], right: Code, kept: Fn) -> Code:
    """The source of ``longest_line(x in board where x.a == v)`` in code that changes nothing: the state's kept
    answer for ``v`` (``right``) read inline, ``kept`` called when there is none yet (or the board stacks).

    ``made`` holds the kind of line ``kept`` made for the board; answers the state keeps under it are the
    state's own, whichever board made it (the state keeps them for its pieces, along its board's lines).
    """
    value, consts = codegen.expr(Compiled(ANY, kept, code=right))
    n, lengths, k, m = codegen.fresh("t"), codegen.fresh("t"), codegen.fresh("k"), codegen.fresh("k")
    return Code(f"({n} if ({lengths} := s.lines.get({m}[1])) is not None and ({n} := {lengths}.get({value})) "
                        f"is not None else {k}(s, e))", None, consts + ((k, kept), (m, made)))


def _kept_longest(fast: tuple[tuple[Any, Fn, Any], ...], board: int, searched: Fn, made: list[Any]) -> Fn:
    """``longest_line(x in board where x.a == u [and x.b == v ...])``, attributes the same on every face: the answer
    the state keeps up to date (:mod:`engine.blocks.kept_lines`); ``searched`` on a board that stacks.  ``made``
    holds the board last seen and its kind of line (one board per game, in practice)."""
    from engine.blocks.kept_lines import LineKind, kept_longest

    if len(fast) == 1:
        (_, right, row), = fast
        rights, attributes = None, None
    else:
        rows, rights = [row for _, _, row in fast], [right for _, right, _ in fast]
        row, attributes = list(zip(*rows)), tuple(map(id, rows))  # each component's values, together

    def longest(s: Any, e: list[Any]) -> int:
        grid = s.game.grid
        if grid.stacking:
            return searched(s, e)
        if made[0] is not grid:
            made[:] = grid, LineKind(row, grid.offsets, attributes, grid.contains if grid.fixed else None)
        kind = made[1]
        value = right(s, e) if rights is None else tuple([right(s, e) for right in rights])
        lengths = s.lines.get(kind)
        n = None if lengths is None else lengths.get(value)
        return kept_longest(s, kind, board, value) if n is None else n

    return longest


@dataclass(frozen=True)
class At(Function):
    """``at(x, y)`` or ``at(cell)``: the piece on a board cell, or none."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1, 2)
        if len(args) == 2:
            cx, cy = (self.value(scope, a, INT, "coordinate") for a in args)
            x, y = cx.fn, cy.fn
            (left, lc), (right, rc) = codegen.expr(cx), codegen.expr(cy)
            return Compiled(ANY_COMPONENT, lambda s, e: s.grid.get((x(s, e), y(s, e))),
                            code=Code(f"s.grid.get(({left}, {right}))", None, lc + rc))
        if not args:
            return Compiled(ANY_COMPONENT, lambda s, e: s.grid.get((0, 0)), code=Code("s.grid.get((0, 0))"))
        c = self.value(scope, args[0], CELL, "cell")
        cell, (text, consts) = c.fn, codegen.expr(c)
        return Compiled(ANY_COMPONENT, lambda s, e: s.grid.get(cell(s, e)), code=Code(f"s.grid.get({text})", None, consts))

    def describe(self, call: ast.Call) -> str:
        return f"the piece at ({', '.join(a.describe() for a in call.args)})"


@dataclass(frozen=True)
class Neighbours(Function):
    """``neighbours(CELL)``: the cells touching CELL under the board's adjacency — on a board with edges (or of hexes)
    only those on it, none for a cell off it.  Example, a piece with an empty cell beside it (a liberty)::

        any(at(n) == none for n in neighbours(c.cell))
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1, 2)
        cell = self.value(scope, args[0], CELL, "cell").fn if args else (lambda s, e: None)
        if len(args) == 2:
            return self._by_kind(call, scope, cell, args[1])

        def neighbours(s: Any, e: list[Any]) -> list[tuple[int, int]]:
            grid, here = s.game.grid, cell(s, e)
            if grid is None or here is None:
                return []
            if grid.fixed:
                return list(grid.neighbours(here))
            x, y = here  # a growing board: every adjacent cell, worked out here (the board's memo is for its pieces)
            return [(x + dx, y + dy) for dx, dy in grid.offsets]

        return Compiled(ListOf(CELL), neighbours)

    def _by_kind(self, call: ast.Call, scope: Scope, cell: Fn, kind_node: ast.Node) -> Compiled:
        """``neighbours(CELL, KIND)``: the points a link of that kind joins to CELL, on a board whose links have kinds
        (``links: {Road: [...], Rail: [...]}``)."""
        kind_type = scope.vocab.data.get("link_type")
        if kind_type is None:
            scope.error(call.pos, "neighbours(CELL, KIND) reads the kinds of a board of points' links, and this "
                                  "board's links have none", "links: {Road: [[a, b]], Rail: [[b, c]]}, the kinds "
                                                             "values of a type; or neighbours(CELL)")
            return Compiled(ListOf(CELL), lambda s, e: [])
        kind = self.value(scope, kind_node, kind_type, "kind of link").fn

        def neighbours_by(s: Any, e: list[Any]) -> list[tuple[int, int]]:
            here = cell(s, e)
            return [] if here is None else list(s.game.grid.neighbours_by(here, kind(s, e)))

        return Compiled(ListOf(CELL), neighbours_by)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) == 2:
            return f"the points a {call.args[1].describe()} link joins to {call.args[0].describe()}"
        return f"the cells touching {call.args[0].describe()}" if call.args else "the cells touching"


@dataclass(frozen=True)
class Between(Function):
    """``between(A, B)``: the cells strictly between two cells on one straight line of the board's directions (its
    adjacency: along a row, a column or, with ``adjacency: all``, a diagonal; the six lines of a hex board), from
    A's side; an empty list when they are not on one such line, or are neighbours or the same cell.  Whether the
    way of a piece that slides from a to b is clear::

        all(at(c) == none for c in between(a, b))
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(CELL), lambda s, e: [])
        a, b = self.value(scope, args[0], CELL, "first cell").fn, self.value(scope, args[1], CELL, "second cell").fn
        pos = call.pos

        def between(s: Any, e: list[Any]) -> list[tuple[int, int]]:
            grid, start, end = s.game.grid, a(s, e), b(s, e)
            if grid is None or start is None or end is None:
                return []
            offsets = getattr(grid, "offsets", ())
            # a step for each cell listed: between((0, 0), (300000000, 0)) listed them all, 7 GB and more, for no step
            s.budget -= max(line_steps(start, end, offsets)[0] - 1, 0)
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, "between()")
            return cells_between(start, end, offsets)

        return Compiled(ListOf(CELL), between)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        return (f"the cells strictly between {args[0].describe()} and {args[1].describe()} on a line" if len(args) == 2
                else "the cells between")


def cells_between(a: tuple[int, int], b: tuple[int, int], offsets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells strictly between ``a`` and ``b`` when ``b`` is whole steps of one of ``offsets`` from ``a`` (the
    shortest such step), from ``a``'s side; else none.

    >>> all8 = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    >>> cells_between((0, 0), (3, 3), all8), cells_between((4, 1), (1, 1), all8), cells_between((0, 0), (1, 2), all8)
    ([(1, 1), (2, 2)], [(3, 1), (2, 1)], [])
    """
    most, step = line_steps(a, b, offsets)
    if most < 2:
        return []
    return [(a[0] + i * step[0], a[1] + i * step[1]) for i in range(1, most)]


def line_steps(a: tuple[int, int], b: tuple[int, int], offsets: Sequence[tuple[int, int]]) -> tuple[int, tuple[int, int]]:
    """How many of the shortest step of ``offsets`` lead from ``a`` to ``b``, and that step; (0, (0, 0)) when none
    does.

    >>> line_steps((0, 0), (3, 3), [(1, 0), (1, 1)]), line_steps((0, 0), (1, 2), [(1, 0), (1, 1)])
    ((3, (1, 1)), (0, (0, 0)))
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    most, step = 0, (0, 0)
    for ox, oy in offsets:
        k = dx // ox if ox else dy // oy if oy else 0
        if k > most and k * ox == dx and k * oy == dy:
            most, step = k, (ox, oy)
    return most, step
