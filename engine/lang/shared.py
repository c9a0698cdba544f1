"""Shared sub-expressions: a generated function computes a repeated read once.

The code generator (:mod:`engine.lang.codegen`) writes each node's source
where it is used, so a ruleset's function written inline twice, or a
condition naming ``at(x, y)`` twice, computes the same read twice.
:func:`share` takes the body of a generated function and, where a pure
sub-expression is written again after an occurrence that is always
evaluated before it (it *dominates* it), names the first occurrence
(``(t7 := ...)``) and reads the name at the later ones.

Only the dominating case is shared, so nothing is evaluated on a path where
it was not before: an error (none as a number, a missing key, division by
zero) is raised by the same occurrence as before, and no step of the budget
moves.  Pure means built of locals, literals, reads of the state's
attributes (and of theirs: ``s.game.sizes``), subscripts, ``s.grid.get(...)``,
a constant table's ``get``, the state's reads (``r5(s, x)``, see :data:`READ`),
operators and conditionals — no other call, no assignment.  A later occurrence is shared only when nothing
it reads can have changed in between: a call of anything else (a library
closure may change the state or any local) forgets everything, a write of a
local's slot (``e.__setitem__(3, ...)``, ``e[3] = ...``) or of a name
forgets what reads it, and every loop, ``if`` or ``try`` statement starts
and ends with nothing known.

>>> import itertools
>>> names = (f"t{i}" for i in itertools.count(100))
>>> print(share(("return ((s.grid.get((e[1], e[2])) != None) and (k3[s.grid.get((e[1], e[2]))] == e[0]))",),
...             lambda prefix: next(names))[0])
return (((t100 := s.grid.get((e[1], e[2]))) != None) and (k3[t100] == e[0]))
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

ALL = ("all",)
"""The kill of a call the sharing knows nothing of: every known value is forgotten."""

Dep = tuple  # ("slot", 3), ("name", "t7"), ("state", "grid")

ANY_STATE = ("state", "*")
"""What a read of the state through a function (``r5(s, x)``) depends on: any part of the state."""

COMPUTED = frozenset({"current_role", "seat_to_move"})
"""The state's attributes whose read runs code (properties that look through the turn's decisions): a read of one
is worth naming once, like a look-up, and an argument reading one is not cheap to write again where it is used.

>>> Facts(None).worth(ast.parse("s.current_role", mode="eval").body), Facts(None).worth(ast.parse("s.grid", mode="eval").body)
(True, False)
"""

READ = "r"
"""The prefix of a constant's name that marks a function reading the state, called as ``r5(s, value)``: it
changes nothing and spends no step (a vocabulary function of one value, say)."""


@dataclass
class _Known:
    """A value computed at an occurrence that dominates what follows: its name and what it reads."""

    name: str | None  # None until a later occurrence asks for it (then the first occurrence gets one)
    node: ast.expr  # the first occurrence (wrapped in ``(name := ...)`` when it gets a name)
    deps: frozenset


@dataclass
class _Walk:
    """One pass over a function body in the order Python evaluates it."""

    fresh: Callable[[str], str]
    facts: Facts
    known: dict[int, _Known] = field(default_factory=dict)
    kills: list[list[Dep]] = field(default_factory=list)  # the kills of each conditional part being walked
    wraps: dict[int, tuple[ast.expr, str]] = field(default_factory=dict)  # id(first occurrence) -> it, its name
    reuses: dict[int, tuple[ast.expr, str]] = field(default_factory=dict)  # id(later occurrence) -> it, the name

    # ---------------------------------------------------------------- what is known

    def kill(self, dep: Dep) -> None:
        """Forget every known value reading ``dep`` (everything for :data:`ALL`)."""
        for log in self.kills:
            log.append(dep)
        if dep == ALL:
            self.known = {}
        else:
            self.known = {k: v for k, v in self.known.items()
                          if dep not in v.deps and ("name", v.name) != dep  # nor a value kept in a name written again
                          and not (dep[0] == "state" and ANY_STATE in v.deps)}  # nor a read of any of the state

    def branch(self, node: ast.AST | list[ast.AST]) -> None:
        """Walk code that may not run: what it learns is dropped after it, what it kills stays killed."""
        saved = dict(self.known)
        self.kills.append([])
        if isinstance(node, list):
            for n in node:
                self.visit(n)
        else:
            self.visit(node)
        killed = self.kills.pop()
        self.known = saved
        for dep in killed:
            self.kill(dep)

    # ---------------------------------------------------------------- expressions

    def visit(self, node: ast.AST) -> None:
        """Walk ``node`` in evaluation order, sharing its pure parts with what dominates them."""
        deps = self.facts.deps(node)
        if deps is not None and self.facts.worth(node):
            key = self.facts.key(node)
            found = self.known.get(key)
            if found is not None:
                if found.name is None:
                    found.name = self.fresh("t")
                    self.wraps[id(found.node)] = (found.node, found.name)
                self.reuses[id(node)] = (node, found.name)
                return
            self.children(node)
            self.known[key] = _Known(None, node, deps)
            return
        self.children(node)

    def children(self, node: ast.AST) -> None:
        """Walk the parts of ``node``, each in the order and under the condition Python evaluates it."""
        match node:
            case ast.BoolOp(values=[first, *rest]):
                self.visit(first)
                self.branch(rest)
            case ast.IfExp(test=test, body=body, orelse=orelse):
                self.visit(test)
                self.branch(body)
                self.branch(orelse)
            case ast.Compare(left=left, comparators=[first, *rest]):
                self.visit(left)
                self.visit(first)
                self.branch(rest)
            case ast.NamedExpr(target=ast.Name(id=name), value=value):
                self.visit(value)
                self.kill(("name", name))
                found = self.known.get(self.facts.key(value))
                if found is not None and found.node is value and found.name is None and ("name", name) not in found.deps:
                    found.name = name  # the first occurrence is already named
            case ast.Call(func=func, args=args, keywords=keywords):
                self.visit(func)
                for part in [*args, *(k.value for k in keywords)]:
                    self.visit(part)
                self.kill(_call_kill(node, self.facts))
            case ast.BinOp() | ast.UnaryOp() | ast.Subscript() | ast.Attribute() | ast.Tuple() | ast.List() \
                    | ast.Name() | ast.Constant() | ast.Slice() | ast.Starred() | ast.keyword():
                for child in ast.iter_child_nodes(node):
                    if not isinstance(child, (ast.expr_context, ast.operator, ast.unaryop)):
                        self.visit(child)
            case _:  # comprehensions, lambdas and anything else: not entered, and they may change anything
                self.kill(ALL)

    # ---------------------------------------------------------------- statements

    def statements(self, body: list[ast.stmt]) -> None:
        """Walk a block of statements in order."""
        for stmt in body:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        """Walk one statement; compound statements start and end with nothing known."""
        match stmt:
            case ast.Return(value=value) | ast.Expr(value=value):
                if value is not None:
                    self.visit(value)
            case ast.Assign(targets=targets, value=value):
                self.visit(value)
                for target in targets:
                    self.store(target)
            case ast.AugAssign(target=target, value=value):
                self.visit(value)
                self.store(target)
            case ast.Raise(exc=exc):
                if exc is not None:
                    self.visit(exc)
            case ast.If(test=test, body=body, orelse=orelse):
                self.visit(test)
                self.block(body)
                self.block(orelse)
                self.kill(ALL)
            case ast.For(iter=it, body=body, orelse=orelse):
                self.visit(it)
                self.kill(ALL)
                self.block(body)
                self.block(orelse)
                self.kill(ALL)
            case ast.While(body=body, orelse=orelse) | ast.Try(body=body, orelse=orelse):
                self.kill(ALL)
                self.block(body)
                self.block(orelse)
                for handler in getattr(stmt, "handlers", []):
                    self.block(handler.body)
                self.kill(ALL)
            case ast.Pass() | ast.Break() | ast.Continue():
                pass
            case _:
                self.kill(ALL)

    def block(self, body: list[ast.stmt]) -> None:
        """Walk a nested block that starts with nothing known (its own value names stay inside it)."""
        self.kill(ALL)
        self.statements(body)

    def store(self, target: ast.expr) -> None:
        """Forget what reads ``target`` once it is written."""
        match target:
            case ast.Name(id=name):
                self.kill(("name", name))
            case ast.Subscript(value=ast.Name(id="e"), slice=ast.Constant(value=int() as slot)):
                self.kill(("slot", slot))
            case ast.Attribute(value=ast.Name(id="s"), attr=attr):
                self.kill(("state", attr))
            case _:
                self.kill(ALL)


_PARSING = threading.Lock()


def parse_python(text: str, mode: str = "exec") -> ast.AST:
    """``ast.parse(text, mode=mode)``, one thread at a time: CPython 3.11 keeps the depth of the syntax tree it is
    building in one counter for every thread, so two threads parsing at once may fail with "AST constructor recursion
    depth mismatch" (a server compiling two rulesets for two pages at once).

    >>> type(parse_python("e[1] + 2", "eval").body).__name__
    'BinOp'
    """
    with _PARSING:
        return ast.parse(text, mode=mode)


def _call_kill(call: ast.Call, facts: Facts) -> Dep:
    """What a call may change: nothing (a pure read), one local's slot (``e.__setitem__(3, v)``), or anything."""
    if facts.deps(call) is not None:
        return ("none",)
    match call:
        case ast.Call(func=ast.Attribute(value=ast.Name(id="e"), attr="__setitem__"),
                      args=[ast.Constant(value=int() as slot), _], keywords=[]):
            return ("slot", slot)
    return ALL


class Facts:
    """What the walk asks of the nodes of one tree, each worked out once.

    >>> table: dict = {}
    >>> facts = Facts({"k3": table, "k7": table, "k8": {}})
    >>> sorted(facts.deps(ast.parse("s.grid.get((e[1] + 1, t2))", mode="eval").body))
    [('name', 't2'), ('slot', 1), ('state', 'grid')]
    >>> facts.deps(ast.parse("k3(s, e)", mode="eval").body) is None
    True
    >>> facts.worth(ast.parse("e[1] is None", mode="eval").body), facts.worth(ast.parse("k3[e[1]] == 2", mode="eval").body)
    (False, True)
    >>> k3, k7, k8 = (facts.key(ast.parse(f"{k}[e[1]]", mode="eval").body) for k in ("k3", "k7", "k8"))
    >>> k3 == k7, k3 == k8
    (True, False)
    """

    def __init__(self, consts: Mapping[str, Any] | None) -> None:
        self.consts = consts or {}
        self.keys: dict[tuple, int] = {}
        self.memo_key: dict[ast.AST, int] = {}
        self.memo_deps: dict[ast.AST, frozenset | None] = {}
        self.memo_costly: dict[ast.AST, bool] = {}

    def key(self, node: ast.AST) -> int:
        """A number equal for nodes written alike, a constant counting as its value (two names of one table)."""
        found = self.memo_key.get(node)
        if found is None:
            if isinstance(node, ast.Name) and node.id in self.consts:
                parts: tuple = ("const", id(self.consts[node.id]))
            else:
                parts = (type(node).__name__, *(self._part(value) for _, value in ast.iter_fields(node)))
            found = self.memo_key[node] = self.keys.setdefault(parts, len(self.keys))
        return found

    def _part(self, value: Any) -> Any:
        if isinstance(value, ast.AST):
            return self.key(value)
        if isinstance(value, list):
            return tuple(self._part(v) for v in value)
        return type(value).__name__, value

    def deps(self, node: ast.AST) -> frozenset | None:
        """What ``node`` reads (slots, names, the state's attributes), or None when it is not a pure read."""
        if node not in self.memo_deps:
            self.memo_deps[node] = self._deps(node)
        return self.memo_deps[node]

    def _deps(self, node: ast.AST) -> frozenset | None:
        match node:
            case ast.Constant():
                return frozenset()
            case ast.Name(id="s" | "e"):
                return None  # the state or the slots as a whole: only their parts are read
            case ast.Name(id=name):
                return frozenset({("name", name)})
            case ast.Attribute(value=ast.Name(id="s"), attr=attr):
                return frozenset({("state", attr)})
            case ast.Subscript(value=ast.Name(id="e"), slice=ast.Constant(value=int() as slot)):
                return frozenset({("slot", slot)})
            case ast.Attribute(value=ast.Attribute() as inner):  # s.game.table: a part of a part of the state
                return self.deps(inner)
            case ast.Call(func=ast.Attribute(value=ast.Attribute(value=ast.Name(id="s"), attr=attr), attr="get"),
                          args=[key, *default], keywords=[]) if len(default) <= 1:
                return self._all(key, *default, state=attr)
            case ast.Call(func=ast.Attribute(value=ast.Name(id=name), attr="get"), args=[key], keywords=[]) \
                    if type(self.consts.get(name)) is dict:  # a table of the ruleset's, which never changes
                return self.deps(key)
            case ast.Call(func=ast.Name(id=name), args=[ast.Name(id="s"), value], keywords=[]) \
                    if name.startswith(READ) and name[len(READ):].isdigit() and name in self.consts:
                return self._all(value, state="*")  # a read of the state (see engine.lang.codegen.READ)
            case ast.Subscript(value=value, slice=index):
                return self._all(value, index)
            case ast.BinOp(left=left, right=right):
                return self._all(left, right)
            case ast.UnaryOp(operand=operand):
                return self._all(operand)
            case ast.BoolOp(values=values):
                return self._all(*values)
            case ast.Compare(left=left, comparators=comparators):
                return self._all(left, *comparators)
            case ast.IfExp(test=test, body=body, orelse=orelse):
                return self._all(test, body, orelse)
            case ast.Tuple(elts=elts):
                return self._all(*elts)
        return None

    def _all(self, *nodes: ast.AST, state: str = "") -> frozenset | None:
        found: frozenset = frozenset({("state", state)}) if state else frozenset()
        for node in nodes:
            deps = self.deps(node)
            if deps is None:
                return None
            found |= deps
        return found

    def worth(self, node: ast.AST) -> bool:
        """Whether computing ``node`` costs more than keeping it in a local: it looks something up (a subscript
        other than a slot, a call) or does arithmetic, and it is not a tuple (whose brackets are not always part
        of its place in the source)."""
        return not isinstance(node, ast.Tuple) and self._costly(node)

    def _costly(self, node: ast.AST) -> bool:
        found = self.memo_costly.get(node)
        if found is None:
            found = (isinstance(node, (ast.Call, ast.BinOp)) or (isinstance(node, ast.Subscript) and not _slot(node))
                     or isinstance(node, ast.Attribute) and node.attr in COMPUTED and _of_state(node))
            found = self.memo_costly[node] = found or any(self._costly(n) for n in ast.iter_child_nodes(node))
        return found


def _of_state(node: ast.Attribute) -> bool:
    """Whether ``node`` reads an attribute of the state itself (``s.current_role``)."""
    return isinstance(node.value, ast.Name) and node.value.id == "s"


def _slot(node: ast.Subscript) -> bool:
    """Whether ``node`` reads a local's slot (``e[3]``)."""
    return isinstance(node.value, ast.Name) and node.value.id == "e" and isinstance(node.slice, ast.Constant)


def pure_read(text: str, consts: Mapping[str, Any] | None = None) -> bool:
    """Whether the expression ``text`` is a pure read :func:`share` names where it is written again, dominated
    (see :class:`Facts`): one that looks something up, changes nothing and raises nothing it would not raise
    the first time.

    >>> pure_read("s.cell_of[x3]"), pure_read("k5(s, e)"), pure_read("e[2]"), pure_read("(t2 := s.cell_of[x3])")
    (True, False, False, False)
    """
    try:
        node = parse_python(text, "eval").body
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return False
    facts = Facts(consts)
    return facts.deps(node) is not None and facts.worth(node)


def share(lines: Iterable[str], fresh: Callable[[str], str], consts: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The statements ``lines`` (a function body, one statement line each) with repeated pure reads shared.

    ``fresh(prefix)`` makes the names of the values shared; ``consts`` are
    the values of the constants the source names, so that two names of one
    table (``k3[e[1]]``, ``k7[e[1]]``) read the same.  Lines that are not a
    whole function body Python can parse are returned as they are.
    """
    lines = tuple(lines)
    text = "def _(s, e):\n" + "".join(f"    {line}\n" for line in lines)
    try:
        tree = parse_python(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return lines
    walk = _Walk(fresh, Facts(consts))
    try:
        walk.statements(tree.body[0].body)  # type: ignore[attr-defined]
    except RecursionError:
        return lines
    if not walk.reuses:
        return lines
    return _rewrite(text, walk)


def _rewrite(text: str, walk: _Walk) -> tuple[str, ...]:
    """``text`` with each first occurrence named and each later one reading the name, as body lines again."""
    data = text.encode("utf-8")  # the parser's columns count bytes
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def span(node: ast.expr) -> tuple[int, int]:
        return (starts[node.lineno - 1] + node.col_offset,
                starts[node.end_lineno - 1] + node.end_col_offset)  # type: ignore[operator]

    events: list[tuple[int, int, int, int, bytes]] = []  # (where, kind, order, end of a replaced span, text)
    for node, name in walk.wraps.values():
        start, end = span(node)
        events.append((start, 1, -end, start, f"({name} := ".encode()))  # outer ones open first
        events.append((end, 0, -start, end, b")"))  # and close last
    for node, name in walk.reuses.values():
        start, end = span(node)
        events.append((start, 2, 0, end, name.encode()))
    out, cursor = [], 0
    for where, _, _, end, piece in sorted(events):
        out += [data[cursor:where], piece]
        cursor = max(where, end)
    out.append(data[cursor:])
    body = b"".join(out).decode("utf-8").split("\n")[1:-1]
    return tuple(line[4:] for line in body)
