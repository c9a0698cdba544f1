"""Line checks written plainly, read as straight runs: "N in a row" said by looking at the cells next to each piece.

A designer writes four in a row as ``any(four(r, p.cell.x, p.cell.y, 1, 0) or four(r, ..., 0, 1) or ... for p in
board where p.colour == r)``, ``four`` asking whether the three cells one, two and three steps away hold pieces of
the colour.  Each part of such a test asks whether N cells in a straight line, the piece's own among them, all
hold a piece showing the filter's value: there is such a piece exactly when the longest straight run of the
value's pieces along that direction is N or more — what the board keeps up to date for ``longest_line``
(engine/blocks/kept_lines.py), a piece placed re-measuring the runs through its cell.

:func:`runs` reads the quantifier's test as generated source and tells, when it says nothing else, the value its
cells are compared with and, for each direction, the run it asks for; the quantifier then reads the kept runs
instead of testing every piece (``Quantifier`` in engine/lang/functions.py).  Anything else the source reads (a
call, a face, another table, a cell not on a line through the piece, a test of a cell that is not its value, an
``all``) leaves the loop as written.

>>> text = ("((s.grid.get((s.cell_of[e[1]][0] + 1, s.cell_of[e[1]][1])) is not None) and (k2[s.grid.get("
...         "(s.cell_of[e[1]][0] + 1, s.cell_of[e[1]][1]))] == e[0]))")
>>> row = ["A", "B"]
>>> runs(text, 1, {"k2": row}, row)
(('slot', 0), (((1, 0), 2),))
"""

from __future__ import annotations

import ast as pyast
from typing import Any

ENABLED = True
"""Whether line checks written plainly read the kept runs (False: the loop as written, the reference tests compare with)."""

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
"""The straight lines through a cell, one direction of each: a run is as long read either way."""

MOST_PARTS = 64
"""The most parts (ways to be true) a test is taken apart into; a longer one is left as written."""

Offset = tuple[int, int]


class _Unknown(Exception):
    """The source says something a line check does not."""


class _Walk:
    """One walk over a test's source, its item in slot ``slot``: what each node gives (a tagged tuple).

    ("n", v) a constant, ("item",) the item, ("cell",) its cell, ("x", a) / ("y", a) a coordinate of it plus ``a``,
    ("tuple", a, b) a cell, ("piece", offset) the piece on a cell, ("row", offset, table) a printed value of it,
    ("guarded", offset, table) that value or none on an empty cell, ("empty", offset) whether a cell is empty,
    ("table", t) a constant table, ("slot", i) a local, ("f", formula) a truth: True, False, ("occ", offset),
    ("match", offset, table, value), ("and", parts), ("or", parts); anything else raises :class:`_Unknown`.
    """

    def __init__(self, slot: int, consts: dict[str, Any]) -> None:
        self.slot, self.consts = slot, consts
        self.names: dict[str, tuple[Any, ...]] = {}

    def value(self, node: pyast.AST) -> tuple[Any, ...]:  # noqa: C901 - one branch per kind of node
        if isinstance(node, pyast.Constant):
            return ("n", node.value)
        if isinstance(node, pyast.Name):
            if node.id in self.names:
                return self.names[node.id]
            known = self.consts.get(node.id, self)
            if isinstance(known, list):
                return ("table", known)
            if known is None or isinstance(known, (int, str)):
                return ("n", known)
            raise _Unknown(node.id)
        if isinstance(node, pyast.NamedExpr):
            found = self.names[node.target.id] = self.value(node.value)
            return found
        if isinstance(node, pyast.BoolOp):
            return self.boolean(node)
        if isinstance(node, pyast.Compare) and len(node.ops) == 1:
            return self.compare(node.ops[0], self.value(node.left), self.value(node.comparators[0]))
        if isinstance(node, pyast.IfExp):
            test = self.value(node.test)
            if test[0] == "n":
                return self.value(node.body if test[1] else node.orelse)
            body, orelse = self.value(node.body), self.value(node.orelse)
            if test[0] == "empty" and body == ("n", None) and orelse[0] == "row" and orelse[1] == test[1]:
                return ("guarded", *orelse[1:])  # a cell's piece's value, none on an empty cell
            raise _Unknown("if")
        if isinstance(node, pyast.UnaryOp):
            operand = self.value(node.operand)
            if isinstance(node.op, pyast.UAdd) and operand[0] in ("n", "x", "y"):
                return operand
            if isinstance(node.op, pyast.USub) and operand[0] == "n" and type(operand[1]) is int:
                return ("n", -operand[1])
            raise _Unknown("unary")
        if isinstance(node, pyast.BinOp):
            return self.binary(node)
        if isinstance(node, pyast.Tuple) and len(node.elts) == 2:
            return ("tuple", *(self.value(part) for part in node.elts))
        if isinstance(node, pyast.Subscript):
            return self.subscript(node)
        if (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) and node.func.attr == "get"
                and _attribute(node.func.value, "grid") and len(node.args) == 1 and not node.keywords):
            return ("piece", _offset(self.value(node.args[0])))
        raise _Unknown(type(node).__name__)

    def boolean(self, node: pyast.BoolOp) -> tuple[Any, ...]:
        """``and`` / ``or`` as a truth; a part that is no truth (``(v := x) and None``, a name bound on the way) is
        allowed where a constant part decides the whole."""
        every = isinstance(node.op, pyast.And)
        parts: list[Any] = []
        unknown = False
        for part in node.values:
            found = self.value(part)
            truth = bool(found[1]) if found[0] == "n" else found[1] if found[0] == "f" else None
            if truth is None:
                unknown = True
            elif truth is (not every):  # a false part of an `and`, a true part of an `or`: the whole
                return ("f", truth)
            elif truth is not every:
                parts.append(truth)
        if unknown:
            raise _Unknown("truth")
        if not parts:
            return ("f", every)
        return ("f", parts[0] if len(parts) == 1 else ("and" if every else "or", tuple(parts)))

    @staticmethod
    def compare(op: pyast.cmpop, left: tuple[Any, ...], right: tuple[Any, ...]) -> tuple[Any, ...]:
        """A cell holding a piece, a piece's printed value equal to a local or a constant."""
        if isinstance(op, (pyast.Is, pyast.IsNot)) and right == ("n", None):
            if left[0] in ("item", "cell"):
                return ("n", isinstance(op, pyast.IsNot))  # the item and its cell are never none
            if left[0] == "piece":
                return ("f", ("occ", left[1])) if isinstance(op, pyast.IsNot) else ("empty", left[1])
        if isinstance(op, pyast.Eq):
            if right[0] in ("row", "guarded"):
                left, right = right, left
            if left[0] == "row" and right[0] in ("slot", "n"):
                return ("f", ("match", left[1], left[2], right))
            if left[0] == "guarded" and right[0] in ("slot", "n"):  # the value is not none (the quantifier makes sure)
                return ("f", ("and", (("occ", left[1]), ("match", left[1], left[2], right))))
        raise _Unknown("compare")

    def binary(self, node: pyast.BinOp) -> tuple[Any, ...]:
        """A coordinate moved by a constant, constants folded."""
        left, right = self.value(node.left), self.value(node.right)
        plus, minus, times = (isinstance(node.op, kind) for kind in (pyast.Add, pyast.Sub, pyast.Mult))
        numbers = [v[0] == "n" and type(v[1]) is int for v in (left, right)]
        if all(numbers) and (plus or minus or times):
            a, b = left[1], right[1]
            return ("n", a + b if plus else a - b if minus else a * b)
        if (plus or minus) and left[0] in ("x", "y") and numbers[1]:
            return (left[0], left[1] + right[1] if plus else left[1] - right[1])
        if plus and right[0] in ("x", "y") and numbers[0]:
            return (right[0], right[1] + left[1])
        raise _Unknown("arithmetic")

    def subscript(self, node: pyast.Subscript) -> tuple[Any, ...]:
        """``e[i]`` (the item or a local), ``s.cell_of[item]``, a cell's coordinate, a table's row of a piece."""
        base, index = node.value, node.slice
        if isinstance(base, pyast.Name) and base.id == "e":
            if not (isinstance(index, pyast.Constant) and type(index.value) is int):
                raise _Unknown("e")
            return ("item",) if index.value == self.slot else ("slot", index.value)
        if _attribute(base, "cell_of"):
            if self.value(index) != ("item",):
                raise _Unknown("cell_of")
            return ("cell",)
        whole, at = self.value(base), self.value(index)
        if whole == ("cell",) and at in (("n", 0), ("n", 1)):
            return ("x" if at[1] == 0 else "y", 0)
        if whole[0] == "table" and at[0] == "piece":
            return ("row", at[1], whole[1])
        raise _Unknown("index")


def _attribute(node: pyast.AST, name: str) -> bool:
    """Whether ``node`` is ``s.NAME``."""
    return (isinstance(node, pyast.Attribute) and node.attr == name and isinstance(node.value, pyast.Name)
            and node.value.id == "s")


def _offset(cell: tuple[Any, ...]) -> Offset:
    """The offset from the item's cell of a cell read (it must be one)."""
    if cell == ("cell",):
        return (0, 0)
    if cell[0] == "tuple" and cell[1][0] == "x" and cell[2][0] == "y":
        return (cell[1][1], cell[2][1])
    raise _Unknown("cell")


def _ways(formula: Any) -> list[list[Any]]:
    """The formula as ways to be true (an ``or`` of ``and``s of its tests, each in the order it is tested)."""
    if formula is True:
        return [[]]
    if formula is False:
        return []
    if formula[0] == "or":
        return [way for part in formula[1] for way in _ways(part)]
    if formula[0] == "and":
        ways: list[list[Any]] = [[]]
        for part in formula[1]:
            ways = [way + more for way in ways for more in _ways(part)]
            if len(ways) > MOST_PARTS:
                raise _Unknown("long")
        return ways
    return [[formula]]


def _line(cells: set[Offset]) -> tuple[Offset, int]:
    """The direction and length of the straight run ``cells`` are (the piece's own, (0, 0), among them).

    >>> _line({(0, 0), (1, -1), (-1, 1)})
    ((1, -1), 3)
    """
    for dx, dy in DIRECTIONS:
        steps = set()
        for x, y in cells:
            t = x * dx if dx else y * dy
            if (t * dx, t * dy) != (x, y):
                break
            steps.add(t)
        else:
            if len(cells) > 1 and max(steps) - min(steps) == len(cells) - 1:
                return (dx, dy), len(cells)
    raise _Unknown("line")


def runs(text: str, slot: int, consts: dict[str, Any], row: list[Any]) -> tuple[tuple[Any, ...], tuple[tuple[Offset, int], ...]] | None:
    """For a quantifier's test as generated source (its item in ``slot``, over pieces passing ``row[p] == v``): the
    value each cell is compared with (("slot", i) a local, ("n", v) a constant: an empty cell is taken to fail
    the comparison, so the value must not be none) and, by direction, the shortest run that makes it true; None
    when the test says anything else.

    >>> runs("s.grid.get((s.cell_of[e[1]][0] + 1, 0)) is not None", 1, {}, [])  # a row, not a run
    """
    try:
        tree = pyast.parse(text, mode="eval")
        found = _Walk(slot, consts).value(tree.body)
        if found[0] != "f":
            return None
        shortest: dict[Offset, int] = {}
        values = set()
        for way in _ways(found[1]):
            held, cells = set(), {(0, 0)}
            for test in way:
                if test[0] == "occ":
                    held.add(test[1])
                elif test[1] not in held or test[2] is not row:  # a value read on a cell not known to hold a piece
                    return None
                else:
                    cells.add(test[1])
                    values.add(test[3])
            if not held <= cells:  # a cell asked only to hold some piece
                return None
            direction, n = _line(cells)
            shortest[direction] = min(n, shortest.get(direction, n))
    except (_Unknown, SyntaxError, RecursionError, MemoryError, ValueError, TypeError):
        return None
    if len(values) != 1 or not shortest:
        return None
    return values.pop(), tuple(sorted(shortest.items()))


__all__ = ["ENABLED", "runs"]
