"""Nested aggregates written inline: a generated function's call of another generated function becomes its body.

An aggregate inside an aggregate, ``count(q in roles where all(any(d in won(q)
where d.hue == h) for h in hues))``, compiles to one generated function per
aggregate (:mod:`engine.lang.codegen`), the outer loop calling the inner
function once per item: a Python call, a frame and the item kept in a local's
slot for the callee to read, at every item.  :func:`inline` takes the body of
a generated function and writes, in place of each call ``k7(s, e)`` of a
generated function that hands over its body (:class:`Body`), that body
itself:

- its names get fresh ones, and each ``return X`` assigns X to a fresh name
  the call's place then reads: a ``return`` inside the body's loop also leaves
  the loop (``break``), the statements after the loop moving to its ``else``,
  and one inside an ``if`` that always returns leaves the statements after it
  to the ``if``'s other branch;
- the expression around the call is taken apart in the order Python evaluates
  it, so that the body runs exactly where and when the call did: ``A or B``
  becomes ``v = A`` and ``if not v:`` (B's body, then ``v = B``), a
  conditional becomes an ``if``, and what an operator evaluates before the
  call is kept in a fresh name first — nothing runs that did not, and the
  step budget is spent in the same order;
- a loop that kept its item in a local's slot only for code now written
  inside it reads the item from its own name.

A body that may meet none as a number or a missing key (``codegen.FALLIBLE``,
``codegen.LOOKUP``) is written only into a function that may run its closures
again from its start (``retry``: it changes nothing), which then catches the
error for it; the constants of the body join the caller's.

>>> import itertools
>>> counter = itertools.count(50)
>>> def fresh(prefix): return f"{prefix}{next(counter)}"
>>> inner = Body(("n = 0", "for x1 in s.zones[e[0]]:", "    if k2[x1] == 3:", "        n += 1", "return n"),
...              {"k2": {}}, False, False, "r.yaml:4:9")
>>> def k3(s, e): pass
>>> k3.inline_body = inner
>>> namespace = {"k3": k3}
>>> lines, fallible, lookup = inline(("for x4 in k5:", "    e[0] = x4", "    if k3(s, e) >= 2 or e[0] == 7:",
...                                   "        return True", "return False"), namespace, fresh, retry=True)
>>> print("\\n".join(comments(lines)))
for x4 in k5:
    # r.yaml:4:9
    r50 = 0
    for x52 in s.zones[x4]:
        if k2[x52] == 3:
            r50 += 1
    if r50 >= 2 or x4 == 7:
        return True
return False
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.lang.shared import parse_python

BODY = "inline_body"
"""The attribute of a generated function holding its :class:`Body`, for the functions that call it."""

LONGEST = 6000
"""The most characters of a body written inline: a longer one stays a call."""

MARK = "@inline@ "
"""How a body written inline starts, in the source (a string statement, which Python drops), until
:func:`comments` turns it into a comment naming where the body is written in the ruleset."""


@dataclass
class Body:
    """What a generated function hands to the functions that call it, to be written where it is called: its
    statements (before the loops' invariant reads move and the repeated reads are shared: the caller does that
    over the whole), the constants they name, whether they may meet none as a number or a missing key (see
    ``codegen.FALLIBLE``, ``codegen.LOOKUP``), and where in the ruleset it is written.

    >>> Body(("for x1 in k2:", "    while True:", "        return 1", "return 0"), {}, False, False, "").writable
    False
    """

    lines: tuple[str, ...]
    consts: Mapping[str, Any]
    fallible: bool
    lookup: bool
    where: str

    @cached_property
    def writable(self) -> bool:
        """Whether its ``return`` statements can become assignments (see the module) and it is short enough."""
        if sum(map(len, self.lines)) > LONGEST:
            return False
        try:
            return _returnless(_parse(self.lines).body, "r") is not None
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return False


def inline(lines: tuple[str, ...], namespace: dict[str, Any], fresh: Callable[[str], str],
           retry: bool) -> tuple[tuple[str, ...], bool, bool]:
    """``lines`` (a generated function's body) with the calls of generated functions written inline (see the
    module), their constants added to ``namespace``; with whether a body written inline may meet none as a
    number, and whether it may look up a key that is not there.  ``fresh(prefix)`` makes new names.

    Lines Python cannot parse, or with no call to write inline, are returned as they are.
    """
    lines = tuple(lines)
    if not any(getattr(namespace.get(name), BODY, None) for name in _CALLED.findall("\n".join(lines))):
        return lines, False, False
    try:
        tree = _parse(lines)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return lines, False, False
    writer = _Writer(namespace, fresh, retry)
    try:
        tree.body = writer.block(tree.body)
    except RecursionError:
        return lines, False, False
    if not writer.written:
        return lines, False, False
    for loop in [node for node in ast.walk(tree) if isinstance(node, ast.For)]:
        _item_by_name(loop)
    namespace.update(writer.consts)
    return _commented(lines, ast.unparse(tree).split("\n")[1:]), writer.fallible, writer.lookup


def comments(lines: tuple[str, ...]) -> tuple[str, ...]:
    """``lines`` with each mark of a body written inline (see :data:`MARK`) as a comment naming its place.

    >>> comments(("    '@inline@ r.yaml:3:5'", "    n = 0", "    " + '"' * 3 + "@inline@ r.yaml:4:1" + '"' * 3))
    ('    # r.yaml:3:5', '    n = 0', '    # r.yaml:4:1')
    """
    return tuple(_MARKED.sub(r"\1# \3", line) for line in lines)


def _commented(before: tuple[str, ...], after: list[str]) -> tuple[str, ...]:
    """The body lines ``after`` (written again from the syntax tree, which keeps no comments) with the comments that
    ended lines of ``before`` put back at the end of the first line written alike.

    >>> _commented(("except TypeError:  # none among the values",), ["    n = 0", "    except TypeError:"])
    ('n = 0', 'except TypeError:  # none among the values')
    """
    comments = {}
    for line in before:
        code, sep, comment = line.partition("  # ")
        if sep and code.strip() and "'" not in code and '"' not in code:
            comments.setdefault(code.strip(), comment)
    out = []
    for line in after:
        comment = comments.pop(line.strip(), None)
        out.append(line[4:] + (f"  # {comment}" if comment is not None else ""))
    return tuple(out)


_CALLED = re.compile(r"\b(k\d+)\(s, e\)")
"""In generated source: a call of a constant with the state and the locals."""

_MARKED = re.compile(r"^(\s*)(\"\"\"|'|\")" + re.escape(MARK) + r"(.*)\2$")
"""A line holding only a mark of a body written inline."""


def _parse(lines: tuple[str, ...]) -> ast.FunctionDef:
    """``lines`` as the body of a function ``_(s, e)``."""
    tree = parse_python("def _(s, e):\n" + "".join(f"    {line}\n" for line in lines)).body[0]  # type: ignore[attr-defined]
    assert isinstance(tree, ast.FunctionDef)
    return tree


def _name(name: str, store: bool = False) -> ast.Name:
    return ast.Name(name, ast.Store() if store else ast.Load())


def _assign(name: str, value: ast.expr) -> list[ast.stmt]:
    """``name = value`` (no statement when ``value`` is ``name``)."""
    if isinstance(value, ast.Name) and value.id == name:
        return []
    return [ast.Assign([_name(name, store=True)], value, lineno=0)]  # (a line, for ``ast.unparse``)


# ------------------------------------------------------------------ returns as assignments


def _exits(body: list[ast.stmt]) -> bool:
    """Whether every path through ``body`` ends in ``return`` (or ``raise``)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    return isinstance(last, ast.If) and _exits(last.body) and _exits(last.orelse)


def _returning(body: list[ast.stmt], found: set[int]) -> bool:
    """Whether ``body`` holds a ``return``; the ids of its statements (at any depth) that hold one go in ``found``."""
    holds = False
    for stmt in body:
        inner = isinstance(stmt, ast.Return)
        for field in ("body", "orelse", "finalbody"):
            inner |= _returning(getattr(stmt, field, []), found)
        for handler in getattr(stmt, "handlers", []):
            inner |= _returning(handler.body, found)
        if inner:
            found.add(id(stmt))
            holds = True
    return holds


def _breaks(body: list[ast.stmt]) -> bool:
    """Whether ``body`` (a loop's) holds a ``break`` of its own loop."""
    for stmt in body:
        if isinstance(stmt, ast.Break):
            return True
        if not isinstance(stmt, (ast.For, ast.While)) and any(
                _breaks(part) for part in (getattr(stmt, "body", []), getattr(stmt, "orelse", []),
                                           getattr(stmt, "finalbody", []), *[h.body for h in getattr(stmt, "handlers", [])])):
            return True
    return False


def _returnless(body: list[ast.stmt], target: str, returning: set[int] | None = None) -> list[ast.stmt] | None:
    """``body`` with every ``return X`` assigning X to ``target`` and ending the body's run (None where it cannot)."""
    if returning is None:
        returning = set()
        _returning(body, returning)
    out: list[ast.stmt] = []
    for i, stmt in enumerate(body):
        rest = body[i + 1:]
        if isinstance(stmt, ast.Return):
            out += _assign(target, stmt.value or ast.Constant(None))
            return out
        if id(stmt) not in returning:
            out.append(stmt)
            continue
        if isinstance(stmt, ast.If):
            if _exits(stmt.body):
                then, otherwise = _returnless(stmt.body, target, returning), _returnless(stmt.orelse + rest, target, returning)
            elif _exits(stmt.orelse):
                then, otherwise = _returnless(stmt.body + rest, target, returning), _returnless(stmt.orelse, target, returning)
            else:
                return None
            if then is None or otherwise is None:
                return None
            out.append(ast.If(stmt.test, then or [ast.Pass()], otherwise))
            return out
        if (isinstance(stmt, ast.For) and not stmt.orelse and not _breaks(stmt.body)
                and not any(id(loop) in returning for loop in ast.walk(stmt) if loop is not stmt
                            and isinstance(loop, (ast.For, ast.While)))):
            after = _returnless(rest, target, returning)
            loop_body = _breaking(stmt.body, target, returning)
            if after is None or loop_body is None:
                return None
            out.append(ast.For(stmt.target, stmt.iter, loop_body, after, None, lineno=stmt.lineno))
            return out
        return None
    out += _assign(target, ast.Constant(None))  # the end of a function: it returns none
    return out


def _breaking(body: list[ast.stmt], target: str, returning: set[int]) -> list[ast.stmt] | None:
    """A loop's ``body`` with each ``return X`` assigning X to ``target`` and leaving the loop (None where it cannot)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.Return):
            out += [*_assign(target, stmt.value or ast.Constant(None)), ast.Break()]
        elif isinstance(stmt, ast.If) and id(stmt) in returning:
            then, otherwise = _breaking(stmt.body, target, returning), _breaking(stmt.orelse, target, returning)
            if then is None or otherwise is None:
                return None
            out.append(ast.If(stmt.test, then, otherwise))
        elif id(stmt) in returning:
            return None
        else:
            out.append(stmt)
    return out


# ------------------------------------------------------------------ the caller's statements


class _Writer:
    """One pass over a caller's statements, writing the bodies of the generated functions it calls in their place."""

    def __init__(self, namespace: dict[str, Any], fresh: Callable[[str], str], retry: bool) -> None:
        self.namespace, self.fresh, self.retry = namespace, fresh, retry
        self.consts: dict[str, Any] = {}
        self.written = self.fallible = self.lookup = False
        self.held: dict[int, tuple[ast.AST, bool]] = {}

    def callee(self, node: ast.AST) -> Body | None:
        """The body to write for ``node`` when it is a call ``kN(s, e)`` of a function that hands one over and may be
        written here (its constants agree with the caller's, and a body that may fail goes only where the
        caller may run again)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords
                and [getattr(a, "id", None) for a in node.args] == ["s", "e"]):
            return None
        found: Body | None = getattr(self.namespace.get(node.func.id), BODY, None)
        if found is None or ((found.fallible or found.lookup) and not self.retry) or not found.writable:
            return None
        for name, value in found.consts.items():
            known = self.consts.get(name, self.namespace.get(name, value))
            if known is not value and not (type(known) is type(value) is int and known == value):
                return None
        return found

    def holds(self, node: ast.AST) -> bool:
        """Whether ``node`` holds a call to write inline (remembered until the statement's calls are written)."""
        known = self.held.get(id(node))
        if known is not None:
            return known[1]
        found = self.callee(node) is not None or any(self.holds(child) for child in ast.iter_child_nodes(node))
        self.held[id(node)] = (node, found)  # the node kept alive, so that its id names no other
        return found

    def written_body(self, found: Body, target: str) -> list[ast.stmt]:
        """``found``'s statements assigning its value to ``target``, its names fresh, under its mark (a local that
        every ``return`` returns is ``target`` itself)."""
        tree = _parse(found.lines)
        nodes = [node for node in ast.walk(tree) if isinstance(node, (ast.Name, ast.Return))]
        stores = {node.id for node in nodes if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        names = {name: self.fresh(name.rstrip("0123456789") or "v") for name in sorted(stores)}
        returned = {getattr(node.value, "id", None) for node in nodes if isinstance(node, ast.Return)}
        if len(returned) == 1 and (only := returned.pop()) in stores and only != target:
            names[only] = target
        for node in nodes:  # its own locals renamed where they stand (the tree is its own)
            if isinstance(node, ast.Name) and node.id in names:
                node.id = names[node.id]
        stmts = _returnless(tree.body, target)
        assert stmts is not None  # checked by body()
        self.consts.update(found.consts)
        self.written = True
        self.fallible |= found.fallible
        self.lookup |= found.lookup
        return [ast.Expr(ast.Constant(MARK + found.where)), *stmts]

    # ---------------------------------------------------------------- statements

    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """A block of statements with the calls in them written inline."""
        out: list[ast.stmt] = []
        for stmt in body:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(stmt, field, None), list):
                    setattr(stmt, field, self.block(getattr(stmt, field)))
            for handler in getattr(stmt, "handlers", []):
                handler.body = self.block(handler.body)
            field = _FIELDS.get(type(stmt))
            value = getattr(stmt, field) if field else None
            if isinstance(stmt, ast.AugAssign) and not isinstance(stmt.target, ast.Name):
                value = None  # its target is read before its value
            lowered = self.lower(value) if value is not None and self.holds(value) and self.lowers(value) else None
            self.held.clear()
            if lowered is not None:
                before, value = lowered
                out += before
                setattr(stmt, field, value)  # type: ignore[arg-type]
            out.append(stmt)
        return out

    # ---------------------------------------------------------------- expressions

    def lowers(self, node: ast.expr) -> bool:
        """Whether :meth:`lower` can take ``node`` apart (it changes nothing until it is known that it can)."""
        if not self.holds(node) or self.callee(node) is not None:
            return True
        if isinstance(node, ast.BoolOp):
            return all(self.lowers(value) for value in node.values)
        if isinstance(node, ast.IfExp):
            return all(self.lowers(part) for part in (node.test, node.body, node.orelse))
        parts = _PARTS.get(type(node))
        if parts is None or isinstance(node, ast.Compare) and len(node.ops) != 1:
            return False
        found = [_get(holder, field, index) for holder, field, index in parts(node)]
        return any(map(self.holds, found)) and all(map(self.lowers, found))

    def lower(self, node: ast.expr, into: str | None = None) -> tuple[list[ast.stmt], ast.expr]:
        """Statements to run first, and an expression then giving ``node``'s value, its calls written inline
        (``node`` is one :meth:`lowers` takes apart; its operators are changed in place).  A call written inline
        assigns its value to ``into`` when given."""
        if not self.holds(node):
            return [], node
        found = self.callee(node)
        if found is not None:
            target = into or self.fresh("r")
            return self.written_body(found, target), _name(target)
        if isinstance(node, ast.BoolOp):
            return self.either(node)
        if isinstance(node, ast.IfExp):
            (before, test), (then_before, then), (else_before, otherwise) = map(self.lower, (node.test, node.body, node.orelse))
            v = self.fresh("v")
            return [*before, ast.If(test, [*then_before, *_assign(v, then)], [*else_before, *_assign(v, otherwise)])], _name(v)
        return self.operands(node, _PARTS[type(node)])

    def either(self, node: ast.BoolOp) -> tuple[list[ast.stmt], ast.expr]:
        """``A or B`` as ``v = A`` then ``if not v: v = B`` (``and``: ``if v:``), up to the last operand with a call
        to write inline; the operands after it stay in the expression."""
        last = max(i for i, value in enumerate(node.values) if self.holds(value))
        if last == 0:  # only the first: its statements, then the whole as it was
            before, node.values[0] = self.lower(node.values[0])
            return before, node
        v = self.fresh("v")
        parts = [self.lower(value, into=v) for value in node.values[:last + 1]]

        def go_on() -> ast.expr:  # whether the next operand is evaluated
            return _name(v) if isinstance(node.op, ast.And) else ast.UnaryOp(ast.Not(), _name(v))

        block: list[ast.stmt] = []
        for before, value in reversed(parts):
            block = [*before, *_assign(v, value), *([ast.If(go_on(), block, [])] if block else [])]
        rest = node.values[last + 1:]
        return block, (ast.BoolOp(node.op, [_name(v), *rest]) if rest else _name(v))

    def operands(self, node: ast.expr, parts: Callable[[Any], list[tuple[Any, str, int | None]]]) -> tuple[list[ast.stmt], ast.expr]:
        """An operator's operands in the order Python evaluates them: those before the last with a call to write
        inline kept in fresh names first (unless they are constants or names), so the order stays."""
        found = parts(node)
        last = max(i for i, (holder, field, index) in enumerate(found) if self.holds(_get(holder, field, index)))
        stmts: list[ast.stmt] = []
        for i, (holder, field, index) in enumerate(found[:last + 1]):
            before, value = self.lower(_get(holder, field, index))
            stmts += before
            if i < last and not isinstance(value, (ast.Constant, ast.Name)):
                t = self.fresh("t")
                stmts += _assign(t, value)
                value = _name(t)
            _set(holder, field, index, value)
        return stmts, node


_FIELDS: dict[type, str] = {ast.If: "test", ast.Return: "value", ast.Expr: "value", ast.Assign: "value",
                            ast.AugAssign: "value", ast.For: "iter"}
"""The expression of each kind of statement that runs before anything else of it."""


def _get(holder: Any, field: str, index: int | None) -> Any:
    value = getattr(holder, field)
    return value if index is None else value[index]


def _set(holder: Any, field: str, index: int | None, value: Any) -> None:
    if index is None:
        setattr(holder, field, value)
    else:
        getattr(holder, field)[index] = value


def _many(field: str) -> Callable[[Any], list[tuple[Any, str, int | None]]]:
    return lambda node: [(node, field, i) for i in range(len(getattr(node, field)))]


_PARTS: dict[type, Callable[[Any], list[tuple[Any, str, int | None]]]] = {
    ast.BinOp: lambda n: [(n, "left", None), (n, "right", None)],
    ast.UnaryOp: lambda n: [(n, "operand", None)],
    ast.Compare: lambda n: [(n, "left", None), (n, "comparators", 0)],
    ast.Call: lambda n: [(n, "func", None), *[(n, "args", i) for i in range(len(n.args))]] if not n.keywords else [],
    ast.Subscript: lambda n: [(n, "value", None), (n, "slice", None)],
    ast.Attribute: lambda n: [(n, "value", None)],
    ast.Tuple: _many("elts"),
    ast.List: _many("elts"),
    ast.NamedExpr: lambda n: [(n, "value", None)],
}
"""Each operator's operands, as (node, field, index in a list field), in the order Python evaluates them."""


# ------------------------------------------------------------------ a loop's item read from its name


def _slot_of(stmt: ast.stmt, item: ast.expr) -> int | None:
    """The slot ``stmt`` keeps ``item`` in, when it is ``e[K] = item``."""
    match stmt:
        case ast.Assign(targets=[ast.Subscript(value=ast.Name(id="e"), slice=ast.Constant(value=int() as slot))],
                        value=ast.Name(id=name)) if isinstance(item, ast.Name) and name == item.id:
            return slot
    return None


def _item_by_name(loop: ast.For) -> None:
    """A loop that keeps its item in a slot (``e[3] = x7``) only for code inside it that reads the slot (and hands the
    locals to no call) reads ``x7`` instead, and keeps nothing."""
    slot = _slot_of(loop.body[0], loop.target) if loop.body else None
    if slot is None:
        return
    reads, bases = [], set()
    for node in (node for part in loop.body[1:] for node in ast.walk(part)):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "e":
            if not (isinstance(node.slice, ast.Constant) and type(node.slice.value) is int):
                return
            bases.add(id(node.value))
            if node.slice.value == slot:
                if not isinstance(node.ctx, ast.Load):
                    return
                reads.append(node)
        elif isinstance(node, ast.Name) and node.id == "e" and id(node) not in bases:
            return  # the locals handed on (a slot's read is walked before its ``e``)
    if any(isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "e"
           and isinstance(node.slice, ast.Constant) and node.slice.value == slot
           for part in loop.orelse for node in ast.walk(part)):
        return
    target = loop.target
    assert isinstance(target, ast.Name)
    for part in loop.body[1:]:
        _Replacer({id(read) for read in reads}, target.id).visit(part)
    loop.body = loop.body[1:] or [ast.Pass()]


class _Replacer(ast.NodeTransformer):
    """The reads in ``reads`` (by id) as the name ``name``."""

    def __init__(self, reads: set[int], name: str) -> None:
        self.reads, self.name = reads, name

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if id(node) in self.reads:
            return _name(self.name)
        self.generic_visit(node)
        return node
