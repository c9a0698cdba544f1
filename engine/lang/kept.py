"""Kept values: an aggregate whose body walks zones again and again, worked out anew only when those zones change.

``count(q in roles where all(any(d in won(q) where d.hue == h) for h in hues))``
walks every role's ``won`` zone once per hue each time it runs, and a game's
end condition, its scoring and its steps may run it after every action,
while the zones it reads change far less often.  Such an aggregate is *kept*
when it reads nothing but

- the contents of zones (named outright, or a zone of each role: ``won(q)``),
- names whose values the key holds (``roles``: the state's roles),
- constants, attributes that are the same on every face, and its own variables,

and its body nests another selection walking a zone (a count the state
already tallies, or a zone's plain size, costs nothing to read: it does not
count).  Its value is then kept in a table keyed by the contents of every
zone it may read (and the values of those names), so the work is done once
per distinct contents:

>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Scope, Vocabulary
>>> from engine.lang.types import ZONE
>>> from engine.lang.language import LANGUAGE, by_name
>>> vocab = Vocabulary(functions=by_name(LANGUAGE))
>>> vocab.define_constant("pool", ZONE, 0); vocab.define_constant("bag", ZONE, 1)
>>> node = parse_expression("count(x in pool where count(y in bag where y == x) > 0)")
>>> reading(node, Scope(vocab))
Reading(zones=(0, 1), names=())

The kept value is the value the code would compute, step budget included:
a value found in the table spends the steps its computation spent (and is
worked out again, to fail where it fails, when the budget is too short).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable

from engine.lang import ast, codegen, selections
from engine.lang.scope import Compiled, Fn, Global, Scope
from engine.lang.types import ANY, ZONE, ListOf

KEPT_VALUES = 4096
"""The most values one aggregate keeps; past it the table is emptied (a playout rarely needs more than a few)."""

KEEPING = "keeping"
"""Vocabulary data key: true while a kept aggregate's own code compiles (an aggregate inside it is not kept)."""

ZONE_FAMILIES = "zone_families"
"""Vocabulary data key: the per-role zones' functions, by name, with the indexes of their zones (``won`` -> [4, 5])."""

KEPT = "kept"
"""Vocabulary data key: the kept values' tables, one per piece of code (by its :func:`shape`)."""

KEPT_LAST = "kept last"
"""Vocabulary data key: per piece of code (by its :func:`shape`), the value it last read and the contents it was
read for, in a list of one tuple (replaced whole: a thread reading it sees one tuple or the other)."""

FIXED_ATTRIBUTES = "fixed_attributes"
"""Vocabulary data key: the (type, attribute) pairs whose value no state changes (the same on every face)."""


@dataclass(frozen=True)
class Reading:
    """What a kept aggregate's value depends on: the zones whose contents it may read, and the state's names it reads."""

    zones: tuple[int, ...]
    names: tuple[str, ...]


def _is_aggregate(scope: Scope, name: str) -> bool:
    """Whether ``name`` calls an aggregate: a function over a selection (count, sum, any, ...) that compiles its call
    afresh with ``compile_fresh``, which :func:`keep` wraps (``engine.lang.functions.Aggregate``)."""
    return callable(getattr(scope.vocab.functions.get(name), "compile_fresh", None))


def _local(scope: Scope, name: str) -> bool:
    """Whether ``name`` is a variable (or an inline call's argument) of the enclosing code."""
    at: Scope | None = scope
    while at is not None:
        if name in at.locals or name in at.aliases:
            return True
        at = at.parent
    return False


class _Walk:
    """One walk over an aggregate's syntax: the zones and names it reads, or ``ok`` false when it reads anything else."""

    def __init__(self, scope: Scope) -> None:
        self.scope, self.zones, self.names, self.ok = scope, dict[int, None](), dict[str, None](), True
        data = scope.vocab.data
        self.families: dict[str, list[int]] = data.get(ZONE_FAMILIES, {})
        fixed: set[tuple[str, str]] = data.get(FIXED_ATTRIBUTES, set())
        changing = {attr for type_, attr in scope.vocab.attributes if (type_, attr) not in fixed}
        self.fixed = {attr for _, attr in fixed} - changing  # the same on every face, whatever it is read of

    def node(self, node: ast.Node | None, bound: frozenset[str]) -> None:
        """Walk ``node``, where the names in ``bound`` are the variables of the aggregate's own selections."""
        if node is None or not self.ok:
            return
        if isinstance(node, ast.Literal):
            return
        if isinstance(node, ast.Name):
            self.name(node.name, bound)
        elif isinstance(node, ast.Attr):
            if node.name not in self.fixed:
                self.ok = False
            self.node(node.base, bound)
        elif isinstance(node, (ast.Neg, ast.Not)):
            self.node(node.operand, bound)
        elif isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
            self.node(node.left, bound)
            self.node(node.right, bound)
        elif isinstance(node, ast.Member):
            self.node(node.item, bound)
            self.node(node.collection, bound)
        elif isinstance(node, ast.Cond):
            for part in (node.test, node.then, node.otherwise):
                self.node(part, bound)
        elif isinstance(node, (ast.ListLit, ast.TupleLit)):
            for item in node.items:
                self.node(item, bound)
        elif isinstance(node, selections.Selection):
            self.node(node.source, bound)
            inner = bound | {node.var}
            self.node(node.where, inner)
            self.node(node.value, inner)
        elif isinstance(node, ast.Call) and not node.keywords() and (
                _is_aggregate(self.scope, node.func) or node.func in self.families):
            self.zones.update(dict.fromkeys(self.families.get(node.func, ())))
            for arg in node.args:
                self.node(arg, bound)
        else:
            self.ok = False

    def name(self, name: str, bound: frozenset[str]) -> None:
        """A name read: one of the aggregate's variables, a constant (a zone: read), a list of the state's (keyed)."""
        if name in bound:
            return
        known = self.scope.vocab.globals.get(name)
        if _local(self.scope, name) or known is None:
            self.ok = False
        elif known.constant:
            if known.type is ZONE:
                self.zones[known.fn(None, [])] = None
            elif known.type == ListOf(ZONE):  # the zones kept per key (column: column(1), column(2), ...)
                self.zones.update(dict.fromkeys(known.fn(None, [])))
        elif isinstance(known.type, ListOf) and not isinstance(known.type.item, ListOf) and known.type.item is not ANY:
            self.names[name] = None  # a list of plain values: its values, as a tuple, join the key
        else:
            self.ok = False


def reading(call: ast.Node, scope: Scope) -> Reading | None:
    """What ``call`` reads when it reads only zones, keyed names and constants (see the module); else None."""
    walk = _Walk(scope)
    walk.node(call, frozenset())
    return Reading(tuple(walk.zones), tuple(walk.names)) if walk.ok else None


def _cheap(call: ast.Call, scope: Scope) -> bool:
    """A count the state answers without walking a zone: a zone's size, or a tally (``count(c in pool where c.hue == h)``:
    a zone named outright, attributes compared with values the item does not decide)."""
    args = call.positional()
    if call.func != "count" or len(args) != 1:
        return False
    sel = args[0]
    if not isinstance(sel, selections.Selection) or sel.where is None and sel.value is None:
        return True  # a collection's size
    if sel.value is not None:
        return False
    known = scope.vocab.globals.get(sel.source.name) if isinstance(sel.source, ast.Name) else None
    if known is None or not known.constant or known.type is not ZONE:
        return False
    fixed = _Walk(scope).fixed
    tests, found = [sel.where], []
    while tests:
        test = tests.pop()
        if isinstance(test, ast.BoolOp) and test.op == "and":
            tests += [test.left, test.right]
        elif isinstance(test, ast.Compare) and test.op == "==":
            found.append(test)
        else:
            return False
    for test in found:
        sides = (test.left, test.right)
        item = [side for side in sides if isinstance(side, ast.Attr) and isinstance(side.base, ast.Name)
                and side.base.name == sel.var and side.name in fixed]
        if len(item) != 1 or sel.var in _names(sides[1] if item[0] is sides[0] else sides[0]):
            return False
    return True


def _names(node: Any) -> set[str]:
    """Every name written in ``node``."""
    if isinstance(node, ast.Name):
        return {node.name}
    if isinstance(node, ast.Node):
        found: set[str] = set()
        for value in vars(node).values():
            for part in value if isinstance(value, list) else [value]:
                found |= _names(part)
        return found
    return set()


def _nests(node: Any, scope: Scope, inside: bool) -> bool:
    """Whether an aggregate inside ``node`` (the body of a selection when ``inside``) walks a zone."""
    if isinstance(node, ast.Call) and inside and _is_aggregate(scope, node.func) and not _cheap(node, scope):
        args = node.positional()
        source = args[0].source if args and isinstance(args[0], selections.Selection) else (args[0] if args else None)
        if isinstance(source, ast.Call) and source.func in scope.vocab.data.get(ZONE_FAMILIES, {}):
            return True
        if isinstance(source, ast.Name) and getattr(scope.vocab.globals.get(source.name), "type", None) is ZONE:
            return True
    if isinstance(node, selections.Selection):
        return _nests(node.source, scope, inside) or any(_nests(part, scope, True) for part in (node.where, node.value))
    if isinstance(node, ast.Node):
        return any(_nests(part, scope, inside) for value in vars(node).values()
                   for part in (value if isinstance(value, list) else [value]))
    return False


def keep(call: ast.Call, scope: Scope, fresh: Callable[[ast.Call, Scope], Compiled]) -> Compiled:
    """``call`` compiled by ``fresh``, its value kept by the contents of the zones it reads when it may be (see the
    module); else as ``fresh`` compiles it.  The same code written twice (an end condition and a score) shares
    one table: reading nothing of its surroundings, it has one value for each contents."""
    data = scope.vocab.data
    if data.get(KEEPING):
        return fresh(call, scope)
    found = reading(call, scope) if _nests(call, scope, False) else None
    if found is None or not found.zones:
        return fresh(call, scope)
    data[KEEPING] = True
    try:
        compiled = fresh(call, scope)
    finally:
        data[KEEPING] = False
    if compiled.constant:
        return compiled
    names = [scope.vocab.globals[name] for name in found.names]
    values = data.setdefault(KEPT, {}).setdefault(shape(call), {})
    closure = kept(compiled.fn, found.zones, tuple(name.fn for name in names), values)
    return Compiled(compiled.type, _generated(compiled.fn, found.zones, names, values, call, scope, closure) or closure)


def _generated(fn: Fn, zones: tuple[int, ...], names: list[Global], values: dict[tuple[Any, ...], tuple[Any, int]],
               call: ast.Call, scope: Scope, reference: Fn) -> Fn | None:
    """What :func:`kept` does as one generated function, the key written out (``(tuple(z[4]), tuple(z[5]))``).

    Before the key is made, the contents are compared with those of the value last read (``LAST[0]``: the value,
    its steps, then the zones' lists and the names' tuples), which the same code shares wherever it is written: a
    game reads its kept values again and again between the changes of the zones they read (an end condition after
    a step's condition), and comparing lists costs less than making the key's tuples and hashing them."""
    fresh, table, last = codegen.fresh("k"), codegen.fresh("k"), codegen.fresh("k")
    holder = scope.vocab.data.setdefault(KEPT_LAST, {}).setdefault(shape(call), [(None, 0, *[None] * (len(zones) + len(names)))])
    parts, consts = [f"tuple(z[{i}])" for i in zones], [(fresh, fn), (table, values), (last, holder), ("KEPT_VALUES", KEPT_VALUES),
                                                         ("tuple", tuple), ("len", len), ("list", list)]
    same = [f"z[{i}] == was[{2 + n}]" for n, i in enumerate(zones)]
    for name in names:
        text, more = codegen.expr(Compiled(name.type, name.fn, code=name.code))
        same.append(f"tuple({text}) == was[{2 + len(same)}]")
        parts.append(f"tuple({text})")
        consts += more
    copies = [f"list(key[{n}])" for n in range(len(zones))] + [f"key[{n}]" for n in range(len(zones), len(parts))]
    lines = ("z = s.zones", "budget = s.budget", f"was = {last}[0]", f"if {' and '.join(same)} and budget >= was[1]:",
             "    s.budget = budget - was[1]", "    return was[0]",
             f"key = ({', '.join(parts)},)", f"known = {table}.get(key)",
             "if known is None or budget < known[1]:", f"    found = {fresh}(s, e)", f"    if len({table}) >= KEPT_VALUES:",
             f"        {table}.clear()", f"    known = {table}[key] = (found, budget - s.budget)", "else:",
             "    s.budget = budget - known[1]", f"{last}[0] = (*known, {', '.join(copies)},)", "return known[0]")
    return codegen.function(lines, tuple(consts), call.pos, scope, reference)


def shape(node: Any) -> Any:
    """``node`` as a value equal for the same code wherever it is written (positions and English left out).

    >>> from engine.lang.parser import parse_expression
    >>> shape(parse_expression("count(x in a)")) == shape(parse_expression("count( x in a )"))
    True
    """
    if isinstance(node, list):
        return tuple(map(shape, node))
    if isinstance(node, ast.Node):
        return (type(node).__name__, *[shape(getattr(node, f.name)) for f in fields(node) if f.compare])
    return node


def kept(fn: Fn, zones: tuple[int, ...], names: tuple[Fn, ...], values: dict[tuple[Any, ...], tuple[Any, int]]) -> Fn:
    """``fn`` with its values kept in ``values`` by the contents of ``zones`` and the values of ``names`` (lists, read
    as tuples), each with the steps its computation spent.

    >>> from types import SimpleNamespace
    >>> calls = []
    >>> size = kept(lambda s, e: calls.append(1) or len(s.zones[0]), (0,), (), {})
    >>> s = SimpleNamespace(zones=[[3, 4]], budget=10)
    >>> size(s, []), size(s, []), len(calls)
    (2, 2, 1)
    >>> s.zones[0].append(5); size(s, []), len(calls)
    (3, 2)
    """

    def value(s: Any, e: list[Any]) -> Any:
        key = tuple(map(tuple, map(s.zones.__getitem__, zones)))
        if names:
            key += tuple([tuple(name(s, e)) for name in names])
        known = values.get(key)
        budget = s.budget
        if known is not None and budget >= known[1]:
            s.budget = budget - known[1]
            return known[0]
        found = fn(s, e)
        if len(values) >= KEPT_VALUES:
            values.clear()
        values[key] = (found, budget - s.budget)
        return found

    return value
