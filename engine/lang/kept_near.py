"""Kept tests near a piece: ``any``/``all`` over the board's pieces whose test reads only the cells around each piece.

A line check written plainly, ``any(four(r, p.cell.x, p.cell.y, 1, 0) or ... for p in board where p.colour == r)``,
tests every piece of the colour after every move, though a move changes one cell.  When the test, as generated
source, reads nothing of the state but its item's cell and the cells at fixed offsets from it (``at(x + 1, y)``),
the pieces' faces and printed attributes — and otherwise only constants, the aggregate's filter values and the
enclosing code's locals — its answer for a piece can change only when one of those cells changes.  The
aggregate then keeps, for each value of what it reads besides the board (the filter's values, the locals), the
cells whose piece passes (for ``all``: fails), with the node of the board's change log
(engine/core/board_changes.py) it was worked out at.  The next call asks the log which cells changed since, and
tests again only the pieces on those cells and on the cells whose pieces read them (a changed cell less each
offset); anything else — no shared node within a few changes, another state's log, a stacked board, an error —
runs the loop as written.

The step budget is spent as the loop spends it (the zone's size times the selection's steps, at the start), and
anything failing in the kept path (a budget too short, an error of the test) gives the budget back and runs the
loop as written, which fails where it fails.  ``offsets`` reads the generated source:

>>> offsets("(s.grid.get(((s.cell_of[e[1]])[0] + 1, (s.cell_of[e[1]])[1])) is not None) and e[0] > 2", 1, {})
(frozenset({(1, 0)}), (0,))
>>> offsets("k3(s, e)", 1, {"k3": len}) is None
True
"""

from __future__ import annotations

import ast as pyast
from typing import Any, Callable

from engine.core.board_changes import Node, between, root
from engine.lang import codegen

Fn = Callable[[Any, list[Any]], Any]

MOST_CHANGES = 48
"""The most changed cells a kept answer is brought up to date through; past it the cells are all tested again."""

KEPT_KEYS = 256
"""The most answers one aggregate keeps (one per value of what it reads besides the board); past it they are dropped."""

_ANY = ("?",)  # a value the test may compute freely but never a cell nor a piece's place


class _Unknown(Exception):
    """The source reads something this module cannot follow."""


class _Reads:
    """One walk over a test's source: the offsets of the cells it reads and the local slots it reads."""

    def __init__(self, slot: int, consts: dict[str, Any]) -> None:
        self.slot, self.consts = slot, consts
        self.names: dict[str, tuple[Any, ...]] = {}
        self.offsets: set[tuple[int, int]] = set()
        self.slots: set[int] = set()

    def value(self, node: pyast.AST) -> tuple[Any, ...]:  # noqa: C901 - one branch per kind of node
        """What ``node`` gives: ("n", v) a constant, ("cell",) the item's cell, ("x", a) / ("y", a) a coordinate of
        it plus ``a``, ("item",) the item, ("piece",) a piece read at an offset, ("tuple", a, b), or :data:`_ANY`."""
        if isinstance(node, pyast.Constant):
            return ("n", node.value)
        if isinstance(node, pyast.Name):
            if node.id in self.names:
                return self.names[node.id]
            known = self.consts.get(node.id, _ANY)
            if known is _ANY or callable(known):
                raise _Unknown(node.id)
            return ("n", known) if isinstance(known, (int, str)) else _ANY
        if isinstance(node, pyast.NamedExpr):
            found = self.names[node.target.id] = self.value(node.value)
            return found
        if isinstance(node, pyast.BoolOp):
            for part in node.values:
                self.value(part)
            return _ANY
        if isinstance(node, pyast.Compare):
            left = self.value(node.left)
            rights = [self.value(part) for part in node.comparators]
            if (len(rights) == 1 and isinstance(node.ops[0], (pyast.Is, pyast.IsNot)) and rights[0] == ("n", None)
                    and left[0] in ("cell", "item")):
                return ("n", isinstance(node.ops[0], pyast.IsNot))  # the item and its cell are never none
            return _ANY
        if isinstance(node, pyast.IfExp):
            test = self.value(node.test)
            if test[0] == "n":
                return self.value(node.body if test[1] else node.orelse)
            self.value(node.body)
            self.value(node.orelse)
            return _ANY
        if isinstance(node, pyast.UnaryOp):
            operand = self.value(node.operand)
            if isinstance(node.op, pyast.UAdd):
                return operand
            if isinstance(node.op, pyast.USub) and operand[0] == "n" and isinstance(operand[1], int):
                return ("n", -operand[1])
            return _ANY
        if isinstance(node, pyast.BinOp):
            return self.binary(node)
        if isinstance(node, pyast.Tuple):
            parts = [self.value(part) for part in node.elts]
            return ("tuple", *parts) if len(parts) == 2 else _ANY
        if isinstance(node, pyast.Subscript):
            return self.subscript(node)
        if isinstance(node, pyast.Call):
            func = node.func
            if (isinstance(func, pyast.Attribute) and func.attr == "get" and _attribute(func.value, "grid")
                    and len(node.args) == 1 and not node.keywords):
                self.offsets.add(self.offset(self.value(node.args[0])))
                return ("piece",)
        raise _Unknown(pyast.dump(node)[:60])

    def binary(self, node: pyast.BinOp) -> tuple[Any, ...]:
        """A sum or difference moving a coordinate by a constant, constants folded; anything else :data:`_ANY`."""
        left, right = self.value(node.left), self.value(node.right)
        plus, minus = isinstance(node.op, pyast.Add), isinstance(node.op, pyast.Sub)
        numbers = [v[0] == "n" and isinstance(v[1], int) and not isinstance(v[1], bool) for v in (left, right)]
        if all(numbers) and (plus or minus or isinstance(node.op, pyast.Mult)):
            a, b = left[1], right[1]
            return ("n", a + b if plus else a - b if minus else a * b)
        if (plus or minus) and left[0] in ("x", "y") and numbers[1]:
            return (left[0], left[1] + right[1] if plus else left[1] - right[1])
        if plus and right[0] in ("x", "y") and numbers[0]:
            return (right[0], right[1] + left[1])
        return _ANY

    def subscript(self, node: pyast.Subscript) -> tuple[Any, ...]:
        """``e[i]`` (the item, or a local read), ``s.cell_of[item]``, ``s.face[piece]``, a cell's coordinate, a
        constant table's entry."""
        base, index = node.value, node.slice
        if isinstance(base, pyast.Name) and base.id == "e":
            if not (isinstance(index, pyast.Constant) and type(index.value) is int):
                raise _Unknown("e")
            if index.value == self.slot:
                return ("item",)
            self.slots.add(index.value)
            return _ANY
        if _attribute(base, "cell_of"):
            if self.value(index) != ("item",):
                raise _Unknown("cell_of")
            return ("cell",)
        if _attribute(base, "face"):
            if self.value(index)[0] not in ("item", "piece"):
                raise _Unknown("face")
            return _ANY
        if isinstance(base, pyast.Attribute) or (isinstance(base, pyast.Name) and base.id == "s"):
            raise _Unknown("s")
        whole, at = self.value(base), self.value(index)
        if whole == ("cell",) and at[0] == "n" and at[1] in (0, 1):
            return ("x" if at[1] == 0 else "y", 0)
        if whole[0] in ("cell", "item", "piece", "x", "y", "tuple"):
            raise _Unknown("index")
        return _ANY

    @staticmethod
    def offset(cell: tuple[Any, ...]) -> tuple[int, int]:
        """The offset of a cell read from the item's cell (it must be one)."""
        if cell == ("cell",):
            return (0, 0)
        if cell[0] == "tuple" and cell[1][0] == "x" and cell[2][0] == "y":
            return (cell[1][1], cell[2][1])
        raise _Unknown("cell")


def _attribute(node: pyast.AST, name: str) -> bool:
    """Whether ``node`` is ``s.NAME``."""
    return (isinstance(node, pyast.Attribute) and node.attr == name and isinstance(node.value, pyast.Name)
            and node.value.id == "s")


def offsets(text: str, slot: int, consts: dict[str, Any]) -> tuple[frozenset[tuple[int, int]], tuple[int, ...]] | None:
    """For a test's generated source whose item is in ``slot``: the offsets of the cells it reads from its item's
    cell and the other local slots it reads, or None when it reads anything else of the state, calls anything,
    or reads a cell not at a fixed offset."""
    try:
        tree = pyast.parse(text, mode="eval")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None
    walk = _Reads(slot, consts)
    try:
        walk.value(tree.body)
    except (_Unknown, RecursionError, KeyError):
        return None
    return frozenset(walk.offsets), tuple(sorted(walk.slots))


def source(board: int, steps: int, fast: tuple[tuple[Any, Fn, Any], ...], x: str, condition: str, every: bool,
           near: frozenset[tuple[int, int]], slots: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """The kept quantifier's body (see the module) and its constants, besides ``REF`` (the loop as written) and
    ``KEPT`` (its answers): ``condition`` is the test reading its item from ``x``.

    >>> lines, _ = source(1, 1, (), "x1", "(s.grid.get(((s.cell_of[x1])[0] + 1, 0)) is None)", False, frozenset({(1, 0)}), ())
    >>> print(next(line for line in lines if "near = AROUND[cell]" in line))
                    near = AROUND[cell] = tuple(filter(s.game.grid.contains, ((cx, cy), (cx - 1, cy),)))
    """
    consts: list[tuple[str, Any]] = [("root", root), ("between", between), ("set", set), ("len", len), ("tuple", tuple),
                                     ("filter", filter),
                                     ("MOST", MOST_CHANGES), ("KEYS", KEPT_KEYS)]
    values, tests = [], []
    for table, right, row in fast:
        v, k, read = codegen.fresh("v"), codegen.fresh("k"), codegen.fresh("k")
        values.append(f"{v} = {k}(s, e)")
        tests.append(f"{read}[{x}] == {v}" if row is not None else f"{read}[s.face[{x}]][{x}] == {v}")
        consts += [(k, right), (read, row if row is not None else table)]
    key = [line.split(" = ")[0] for line in values] + [f"e[{i}]" for i in slots]
    counts = " and ".join([*tests, f"not {condition}" if every else f"{condition}"])
    at = ", ".join(f"({_moved('cx', -dx)}, {_moved('cy', -dy)})" for dx, dy in sorted(near | {(0, 0)}))
    lines = (
        "if s.stacks:  # pieces beneath share a cell: the loop as written",
        "    return REF(s, e)",
        f"t = s.zones[{board}]",
        f"spent = len(t) * {steps}",
        "budget = s.budget",
        "if budget < spent:",
        "    return REF(s, e)",
        "s.budget = budget - spent",
        "try:",
        *("    " + line for line in values),
        f"    key = ({''.join(part + ', ' for part in key)})",
        "    node = s.changes",
        "    if node is None:",
        "        node = s.changes = root()",
        "    kept = KEPT.get(key)",
        "    if kept is None:",
        "        cells = None",
        "    elif node[2] is kept[0]:  # one change since: the usual case",
        "        cells = (node[1],)",
        "    else:",
        "        cells = between(kept[0], node, MOST)",
        "    if cells is None:",
        "        hits = set()",
        f"        for {x} in t:",
        f"            if {counts}:",
        f"                hits.add(s.cell_of[{x}])",
        "        if len(KEPT) >= KEYS:",
        "            KEPT.clear()",
        "        KEPT[key] = [node, hits]",
        "    else:",
        "        hits = kept[1]",
        "        grid = s.grid",
        "        for cell in cells:",
        "            near = AROUND.get(cell)",
        "            if near is None:",
        "                cx, cy = cell",
        f"                near = AROUND[cell] = tuple(filter(s.game.grid.contains, ({at},)))",
        "            for at in near:",
        f"                {x} = grid.get(at)",
        f"                if {x} is not None and {counts}:",
        "                    hits.add(at)",
        "                else:",
        "                    hits.discard(at)",
        "        kept[0] = node",
        "except Exception:  # an error, a value that is no key: the loop as written says what happens",
        "    s.budget = budget",
        "    KEPT.clear()",
        "    return REF(s, e)",
        f"return {'not hits' if every else 'len(hits) > 0'}",
    )
    return lines, tuple(consts)


def _moved(name: str, by: int) -> str:
    """``name`` moved by a constant, as source.

    >>> _moved("cx", 0), _moved("cx", 2), _moved("cy", -1)
    ('cx', 'cx + 2', 'cy - 1')
    """
    return name if by == 0 else f"{name} + {by}" if by > 0 else f"{name} - {-by}"


def kept_function(board: int, steps: int, fast: tuple[tuple[Any, Fn, Any], ...], slot: int, text: str,
                  consts: tuple[tuple[str, Any], ...], every: bool, near: frozenset[tuple[int, int]],
                  slots: tuple[int, ...], reference: Fn, pos: Any, scope: Any) -> Fn | None:
    """The kept quantifier as one generated function (None when it cannot be generated)."""
    x = codegen.fresh("x")
    condition = codegen.read_as(text, slot, x, present=True, placed=True)
    if codegen.passes_locals(condition) or f"e[{slot}]" in condition:
        return None
    lines, more = source(board, steps, fast, x, condition, every, near, slots)
    made = codegen.function(lines, (*consts, *more, ("REF", reference), ("KEPT", {}), ("AROUND", {})), pos, scope,
                            reference)
    return made


__all__ = ["Node", "kept_function", "offsets"]
