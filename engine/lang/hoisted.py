"""Loop-invariant reads: a generated loop that changes nothing reads what its item does not change once.

A selection's loop (``x in pieces where near(x, c)``) tests every item with
the same source, so a pure read that does not involve the item — the cell of
``c`` — is computed again for each one.  :func:`hoist` takes the body
of a generated function whose loops change nothing and computes each such
read once, at the start of the body, into a fresh name (``h7``) the loops
read instead.

A read moves when it is pure (see :class:`engine.lang.shared.Facts`) and
reads no local, name or part of the state the function writes (the loop's
item, the names it assigns, the step budget): in a loop that changes nothing,
every other read gives the same value for every item.  A moved read runs even
where the loop would not have run it (an empty selection, a test cut short by
``and``) and may then raise: so the moved reads run first, under ``try``, and
when one raises the function runs the closures it stands for instead — nothing
is spent or changed by then, so they spend and answer (or fail) exactly as the
loop would have.

>>> import itertools
>>> names = (f"h{i}" for i in itertools.count(1))
>>> body = ("n = 0", "for x2 in k1:", "    e[1] = x2", "    if k3[x2] == k3[e[0]] + 1:", "        n += 1", "return n")
>>> print("\\n".join(hoist(body, lambda prefix: next(names), {"k1": [], "k3": {}}, "k9")))
try:
    h1 = k3[e[0]] + 1
except Exception:  # a read moved out of the loop failed: the closures decide (nothing is spent yet)
    return k9(s, e)
n = 0
for x2 in k1:
    e[1] = x2
    if k3[x2] == h1:
        n += 1
return n
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.lang.shared import Facts, parse_python

_NOT_ENTERED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
"""Expressions with names of their own: nothing inside them moves."""


def hoist(lines: Iterable[str], fresh: Callable[[str], str], consts: Mapping[str, Any], reference: str) -> tuple[str, ...]:
    """The statements ``lines`` (a function body whose loops change nothing) with the loops' invariant reads
    computed once, first; ``reference`` names the closures to run when one of them raises.

    ``fresh(prefix)`` makes the names of the values moved; ``consts`` are the
    values of the constants the source names.  Lines that are not a function
    body Python can parse, or that write anything but locals, names and the
    step budget, are returned as they are.
    """
    lines = tuple(lines)
    text = "def _(s, e):\n" + "".join(f"    {line}\n" for line in lines)
    try:
        tree = parse_python(text)
        written = _written(tree)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return lines
    if written is None:
        return lines
    facts = Facts(consts)
    names: dict[int, tuple[str, ast.expr]] = {}  # a read's key -> its name, its first occurrence
    moved: list[tuple[ast.expr, str]] = []  # each occurrence moved, with its name
    seen: set[int] = set()

    def visit(node: ast.AST) -> None:
        if id(node) in seen or isinstance(node, _NOT_ENTERED) or not isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            return
        seen.add(id(node))
        if isinstance(node, ast.expr):
            deps = facts.deps(node)
            if deps is not None and not deps & written and facts.worth(node):
                key = facts.key(node)
                if key not in names:
                    names[key] = (fresh("h"), node)
                moved.append((node, names[key][0]))
                return
        for child in ast.iter_child_nodes(node):
            visit(child)

    try:
        for loop in [n for n in ast.walk(tree) if isinstance(n, ast.For)]:
            for stmt in loop.body:
                visit(stmt)
    except RecursionError:
        return lines
    if not moved:
        return lines
    head = ("try:", *(f"    {name} = {ast.get_source_segment(text, node)}" for name, node in names.values()),
            "except Exception:  # a read moved out of the loop failed: the closures decide (nothing is spent yet)",
            f"    return {reference}(s, e)")
    return (*head, *_replaced(text, moved))


def _written(tree: ast.AST) -> frozenset | None:
    """What the function writes — its names, its locals' slots, the step budget — as the dependencies of
    :class:`Facts`; None when it writes anything else (another part of the state, a slot found as it runs)."""
    found: set[tuple] = {("state", "budget")}
    for node in ast.walk(tree):
        match node:
            case ast.Name(id=name, ctx=ast.Store() | ast.Del()):
                found.add(("name", name))
            case ast.Subscript(value=ast.Name(id="e"), slice=ast.Constant(value=int() as slot), ctx=ast.Store()):
                found.add(("slot", slot))
            case ast.Call(func=ast.Attribute(value=ast.Name(id="e"), attr="__setitem__"),
                          args=[ast.Constant(value=int() as slot), _]):
                found.add(("slot", slot))
            case ast.Call(func=ast.Attribute(value=ast.Name(id="e"), attr="__setitem__")):
                return None  # a slot found as it runs
            case ast.Attribute(value=ast.Name(id="s"), attr="budget", ctx=ast.Store()) \
                    | ast.Attribute(value=ast.Name(id="e"), attr="__setitem__"):
                pass
            case ast.Attribute(value=ast.Name(id="e")):
                return None  # another change of the locals
            case ast.Subscript(ctx=ast.Store() | ast.Del()) | ast.Attribute(ctx=ast.Store() | ast.Del()):
                return None
            case ast.Global() | ast.Nonlocal():
                return None
    return frozenset(found)


def _replaced(text: str, moved: list[tuple[ast.expr, str]]) -> tuple[str, ...]:
    """The body in ``text`` (under its ``def`` line) with each moved occurrence replaced by its name."""
    data = text.encode("utf-8")  # the parser's columns count bytes
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = sorted((starts[node.lineno - 1] + node.col_offset,
                    starts[node.end_lineno - 1] + node.end_col_offset, name)  # type: ignore[operator]
                   for node, name in moved)
    out, cursor = [], 0
    for start, end, name in spans:
        out += [data[cursor:start], name.encode()]
        cursor = end
    out.append(data[cursor:])
    return tuple(line[4:] for line in b"".join(out).decode("utf-8").split("\n")[1:-1])
