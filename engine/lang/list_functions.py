"""The effect language's functions that make lists: ``sorted``, ``nth``, ``numbers``, ``list`` and ``combinations``.

Each is a :class:`~engine.lang.functions.Function`, as the aggregates are; a list made is charged to the step budget
or bounded, so no code makes one without end.

>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Vocabulary
>>> from types import SimpleNamespace
>>> call = parse_expression("combinations(numbers(1, 3), 2)")
>>> vocab = Vocabulary(functions={"numbers": Numbers("numbers", "", "", ""), "combinations": Combinations("combinations", "", "", "")})
>>> call.compile(Scope(vocab)).fn(SimpleNamespace(budget=99), [])
[[1, 2], [1, 3], [2, 3]]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from engine.core.errors import EffectRuntimeError
from engine.lang import ast, budgets, codegen, selections
from engine.lang.functions import Function, as_selection, describe_selection, described_value, number_of, unknown_options
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, BOOL, INT, ListOf


@dataclass(frozen=True)
class Sorted(Function):
    """``sorted(LIST)`` or ``sorted(VALUE for x in COLLECTION [where CONDITION])``: the numbers, lowest first; with
    ``highest_first = true``, highest first — dice compared pair by pair, highest against highest:
    ``nth(sorted(attack, highest_first = true), 2)`` is the attacker's second highest die.

    >>> from engine.lang.parser import parse_expression
    >>> from engine.lang.scope import Vocabulary
    >>> from types import SimpleNamespace
    >>> def run(code: str) -> list:
    ...     return Sorted("sorted", "", "", "").compile_call(parse_expression(code), Scope(Vocabulary())).fn(SimpleNamespace(budget=99), [None])
    >>> run("sorted([3, 6, 1])"), run("sorted([3, 6, 1], highest_first = true)"), run("sorted(k * k for k in [-2, 1])")
    ([1, 3, 6], [6, 3, 1], [1, 4])

    ``sorted(x in COLLECTION [where CONDITION], by = KEY)``: the items themselves, ordered by the number ``KEY`` gives
    each (items of one key in the collection's order) — programmed cards run by their priority:

    >>> run("sorted(k in [3, -4, 1], by = k * k)"), run("sorted(k in [1, 2, 3], by = 0, highest_first = true)")
    ([1, 3, -4], [1, 2, 3])
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, down_kw, by_kw = call.positional(), call.keywords().get("highest_first"), call.keywords().get("by")
        if not unknown_options(self, call, scope, 1, 1, known=("highest_first", "by")) and len(args) != 1:
            scope.error(call.pos, f"{self.name}() takes 1 argument, not {len(args)}", f"usage: {self.signature}")
        down = self.value(scope, down_kw.value, BOOL, "highest_first").fn if down_kw is not None else None
        if len(args) != 1:
            return Compiled(ListOf(INT), lambda s, e: [])
        sel_node = as_selection(args[0])
        if by_kw is not None:
            return self._by_key(call, scope, sel_node, by_kw.value, down)
        sel = sel_node.compile_parts(scope)
        value_fn = number_of(self, call, scope, sel_node, sel, "sorted", "numbers to sort")
        items, slot, pos = sel.items, sel.slot, call.pos
        words = f"an item of {sel_node.source.describe()}" if sel_node.var == "_" else ""
        node = sel_node.value or ast.Name(sel_node.pos, sel_node.var, words)

        def ordered(s: Any, e: list[Any]) -> list[int]:
            values = []
            for x in items(s, e):
                e[slot] = x
                values.append(value_fn(s, e))
            if None in values:
                raise ast.no_value(f"{self.name}()", ((node, None),), pos)
            return sorted(values, reverse=down is not None and down(s, e) is True)

        return Compiled(ListOf(INT), ordered)

    def _by_key(self, call: ast.Call, scope: Scope, sel_node: selections.Selection, key: ast.Node, down: Any) -> Compiled:
        """``sorted(x in C, by = KEY)``: the items ordered by their keys, a stable sort (equal keys keep their order)."""
        if sel_node.value is not None:
            scope.error(call.pos, f"{self.name}(..., by = ...) orders the items themselves, so it takes a selection "
                                  f"without a value first", f"write {self.name}(x in COLLECTION, by = KEY)")
        keyed = dataclasses.replace(sel_node, value=key)
        sel = keyed.compile_parts(scope)
        key_fn = number_of(self, call, scope, keyed, sel, "ordered", "a number to order by")
        items, slot, pos = sel.items, sel.slot, call.pos

        def ordered(s: Any, e: list[Any]) -> list[Any]:
            pairs = []
            for x in items(s, e):
                e[slot] = x
                pairs.append((key_fn(s, e), x))
            if any(k is None for k, _ in pairs):
                raise ast.no_value(f"{self.name}()", ((key, None),), pos)
            pairs.sort(key=lambda pair: pair[0], reverse=down is not None and down(s, e) is True)
            return [x for _, x in pairs]

        return Compiled(ListOf(sel.item_type), ordered)

    def describe(self, call: ast.Call) -> str:
        args, down = call.positional(), call.keywords().get("highest_first")
        if len(args) != 1:
            return "the numbers in order"
        sel, by = as_selection(args[0]), call.keywords().get("by")
        order = "lowest first" if down is None else f"highest first if {down.value.describe()}, else lowest first"
        if down is not None and isinstance(down.value, ast.Literal) and isinstance(down.value.value, bool):
            order = "highest first" if down.value.value else "lowest first"
        if by is not None:
            return f"the {describe_selection(args[0])}, ordered by {by.value.describe()}, {order}"
        what = sel.source.describe() if sel.var == "_" and sel.where is None else f"{described_value(sel)}, over {describe_selection(args[0])}"
        return f"the numbers of {what}, {order}"


@dataclass(frozen=True)
class Nth(Function):
    """``nth(LIST, N)``: the N-th item of a list or zone (1 is the first), none when there is no such item."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ANY, lambda s, e: None)
        items = ast.as_collection(args[0].compile(scope), args[0])  # a zone: its components, in order
        if not isinstance(items.type, ListOf) and items.type is not ANY:
            scope.error(args[0].pos, f"the first argument of nth() must be a list, but '{args[0].describe()}' is not one",
                        "an option holding a list, a list like [3, 4, 5], or a zone")
        n = self.value(scope, args[1], INT, "position").fn
        got = items.fn

        def nth(s: Any, e: list[Any]) -> Any:
            values, i = got(s, e), n(s, e)
            values = values if isinstance(values, (list, tuple)) else [] if values is None else list(values)
            return values[i - 1] if i is not None and 1 <= i <= len(values) else None

        return Compiled(items.type.item if isinstance(items.type, ListOf) else ANY, nth)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        return f"item {ast.grouped(args[1])} of {ast.grouped(args[0])}" if len(args) == 2 else "an item"


MAX_NUMBERS = 10_000
"""The most numbers ``numbers(FROM, TO)`` gives: a longer run stops the effect (it would only fill memory)."""


@dataclass(frozen=True)
class Numbers(Function):
    """``numbers(FROM, TO)``: the whole numbers from FROM to TO, both included (an empty list when TO is smaller, or
    either is none) — the amounts a player may bid, say: ``choose(n in numbers(1, count(hand(current_role))))``.

    >>> from engine.lang.parser import parse_expression
    >>> Numbers("numbers", "", "", "").describe(parse_expression("numbers(2, high + 1)"))
    'the numbers from 2 to high plus 1'
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(INT), lambda s, e: [])
        a, b = self.value(scope, args[0], INT, "first number"), self.value(scope, args[1], INT, "last number")
        low, high, pos = a.fn, b.fn, call.pos

        def listed(s: Any, first: int | None, last: int | None) -> list[int]:
            if first is None or last is None or last < first:
                return []
            if last - first >= MAX_NUMBERS:
                raise EffectRuntimeError(f"numbers({first}, {last}) would list {last - first + 1} numbers; at most "
                                         f"{MAX_NUMBERS} are allowed", pos,  # the seats read no number: it may be
                                         f"{pos}: numbers() would list more than {MAX_NUMBERS} numbers")  # a hidden one's
            s.budget -= last - first + 1  # a step per number listed: a loop listing 10,000 each pass stops early
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, "numbers()")
            return list(range(first, last + 1))

        def numbers(s: Any, e: list[Any]) -> list[int]:
            return listed(s, low(s, e), high(s, e))

        # numbers(0, 7) holds 8 numbers wherever it runs: a selection over it looks at 8 items, not at as many as
        # a list of unknown length may hold (which a chain of loops, for a in A for o in numbers(0, 7), multiplies)
        since, until = (low(None, []), high(None, [])) if a.constant and b.constant else (None, None)
        most = max(until - since + 1, 0) if isinstance(since, int) and isinstance(until, int) else None
        if not scope.pure:
            return Compiled(ListOf(INT), numbers, most=most)
        # In code that changes nothing, generated source lists them itself (and a loop over them walks the list inline).
        (first, ca), (last, cb), k = codegen.expr(a), codegen.expr(b), codegen.fresh("k")
        return Compiled(ListOf(INT), numbers, code=codegen.Code(f"{k}(s, {first}, {last})", None, ca + cb + ((k, listed),),
                                                               walkable=True), most=most)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        return f"the numbers from {args[0].describe()} to {args[1].describe()}" if len(args) == 2 else "numbers"


@dataclass(frozen=True)
class Listed(Function):
    """``list(VALUE for x in COLLECTION [where CONDITION])``: the value for each selected item, in the collection's
    order — the cells a piece would cover, offered as one option of a ``choose``; ``list(x in COLLECTION where
    CONDITION)``: the items selected.

    >>> from engine.lang.parser import parse_expression
    >>> from engine.lang.scope import Vocabulary
    >>> from types import SimpleNamespace
    >>> def run(code: str) -> list:
    ...     return Listed("list", "", "", "").compile_call(parse_expression(code), Scope(Vocabulary())).fn(SimpleNamespace(budget=99), [None])
    >>> run("list((k, 0) for k in [1, 2])"), run("list(k in [1, 2, 3] where k > 1)")
    ([(1, 0), (2, 0)], [2, 3])
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(ListOf(ANY), lambda s, e: [])
        selected = as_selection(args[0]).compile(scope)  # the items selected, or their values, as a selection gives them
        found = selected.fn
        return Compiled(selected.type, lambda s, e: list(found(s, e)))

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) != 1:
            return "a list"
        sel = as_selection(args[0])
        if sel.value is None:
            return f"the list of {describe_selection(args[0])}"
        return f"the list of {described_value(sel)}, for {describe_selection(args[0])}"


MAX_COMBINATIONS = 10_000
"""The most sub-lists ``combinations(LIST, K)`` gives: more stops the effect (52 cards taken 5 at a time are 2.6
million lists)."""


@dataclass(frozen=True)
class Combinations(Function):
    """``combinations(LIST, K)``: every way to take K items of a list or a zone, each a list in the order the items
    lie — the best five of seven cards, ``max(rank_of(h) for h in combinations(cards_of(r), 5))``.  An empty list
    when K is below 0 or above the list's length (K = 0: one empty list).  Charged to the step budget by the items
    of the lists made (one for an empty list); more than 10,000 lists stop the effect with an error.

    >>> from engine.lang.parser import parse_expression
    >>> from engine.lang.scope import Vocabulary
    >>> from types import SimpleNamespace
    >>> def run(code: str) -> list:
    ...     return Combinations("combinations", "", "", "").compile_call(parse_expression(code), Scope(Vocabulary())).fn(SimpleNamespace(budget=99), [None])
    >>> run("combinations([1, 2, 3], 2)"), run("combinations([1, 2], 3)"), run("combinations([1, 2], 0)")
    ([[1, 2], [1, 3], [2, 3]], [], [[]])
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(ListOf(ANY)), lambda s, e: [])
        items = ast.as_collection(args[0].compile(scope), args[0])  # a zone: its components, in order
        if not isinstance(items.type, ListOf) and items.type is not ANY:
            scope.error(args[0].pos, f"the first argument of combinations() must be a list, but "
                                     f"'{args[0].describe()}' is not one", "a list like [3, 4, 5], a zone, or list(...)")
        size = self.value(scope, args[1], INT, "count").fn
        got, pos = items.fn, call.pos
        item = items.type.item if isinstance(items.type, ListOf) else ANY

        def taken(s: Any, e: list[Any]) -> list[list[Any]]:
            values, k = got(s, e), size(s, e)
            values = list(values) if values is not None else []
            if k is None or k < 0 or k > len(values):
                return []
            many = comb(len(values), k)
            if many > MAX_COMBINATIONS:
                raise EffectRuntimeError(f"combinations() of {len(values)} items taken {k} at a time would make "
                                         f"{many:,} lists; at most {MAX_COMBINATIONS:,} are allowed", pos)
            s.budget -= many * max(k, 1)  # a step per item of every list made: 10,000 lists of 9,999 items are 800 MB
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, "combinations()")
            return [list(c) for c in combinations(values, k)]

        return Compiled(ListOf(ListOf(item)), taken)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) != 2:
            return "the ways to take some items of a list"
        return f"every way to take {args[1].describe()} of {ast.grouped(args[0])}"
