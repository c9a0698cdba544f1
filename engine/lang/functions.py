"""The effect language's own functions, one small class each.

A function checks its arguments, compiles them to a closure, and describes a
call in English.  Aggregates take a *selection* — ``c in board where
c.hue == h`` — or any collection.  Functions that read or change the game
(zones, boards, roles) are defined by the mechanisms with the same
:class:`Function` interface; :data:`engine.lang.language.LANGUAGE` holds the ones that need no game
at all (those that make lists are in :mod:`engine.lang.list_functions`).  There is no shared registry: each ruleset's vocabulary
(:class:`~engine.lang.scope.Vocabulary`) is handed the functions its code may
call, and compiling a call binds it to its function.

>>> by_name([Count("count", "count(x in COLLECTION [where CONDITION]) -> int", "", "")])["count"].signature
'count(x in COLLECTION [where CONDITION]) -> int'
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from operator import countOf
from typing import Any, Callable, ClassVar, Iterable

from engine.core.errors import EffectRuntimeError, SourcePos, did_you_mean
from engine.core.kept_cells import CellKind, kept_cells
from engine.core.tallies import Tally, tally_count, tally_of
from engine.lang import ast, budgets, codegen, kept, line_checks, selections
from engine.lang.scope import DRAWS, Compiled, Fn, Scope
from engine.lang.types import ANY, BOOL, CELL, DIE, INT, ListOf, Type


@dataclass(frozen=True)
class Function:
    """Base of every function: name, signature, documentation and an example."""

    name: str
    signature: str
    doc: str
    example: str

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self, call: ast.Call) -> str:
        return f"{self.name}({', '.join(a.describe() for a in call.args)})"

    # -- helpers for subclasses
    def arity(self, call: ast.Call, scope: Scope, low: int, high: int | None = None) -> list[ast.Node]:
        """The positional arguments, reporting a wrong number of them."""
        args = call.positional()
        high = low if high is None else high
        if not unknown_options(self, call, scope, low, high) and not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            scope.error(call.pos, f"{self.name}() takes {want} argument{'s' if high != 1 else ''}, not {len(args)}", f"usage: {self.signature}")
        return args

    def value(self, scope: Scope, node: ast.Node, wanted: Type, what: str) -> Compiled:
        c = node.compile(scope)
        ast.expect(scope, node, c, wanted, f"the {what} of {self.name}()")
        return c


def unknown_options(fn: Function, call: ast.Call, scope: Scope, low: int, high: int, known: Iterable[str] = ()) -> bool:
    """Report each option of ``call`` that ``fn`` does not have (``known`` it has); True when they stand for the
    arguments it lacks (``move(c, to = discard)``), whose count is then not reported again.

    Such an option is told to be written as the argument it stands for, without its name.
    """
    known = list(known)
    args, unknown = call.positional(), [kw for kw in call.keywords().values() if kw.name not in known]
    instead = len(args) < low and low <= len(args) + len(unknown) <= high
    for i, kw in enumerate(unknown, start=len(args) + 1):
        hint = (f"write its value as argument {i}, without '{kw.name} =': {fn.signature}" if instead
                else did_you_mean(kw.name, known) or f"usage: {fn.signature}")
        scope.error(kw.pos, f"{fn.name}() has no option '{kw.name}'", hint)
    return instead


def by_name(*groups: Iterable[Function]) -> dict[str, Function]:
    """The functions of ``groups`` by name, as a vocabulary holds them; two functions of one name are a mistake in the engine.

    >>> sorted(by_name([Count("count", "", "", ""), Fold("sum", "", "", "")]))
    ['count', 'sum']
    """
    found: dict[str, Function] = {}
    for group in groups:
        for fn in group:
            assert fn.name not in found, f"two functions are named {fn.name}"
            found[fn.name] = fn
    return found


def as_selection(node: ast.Node) -> selections.Selection:
    """Read an argument as a selection: ``c in X where P``, ``c in X``, or a bare collection ``X``."""
    if isinstance(node, selections.Selection):
        return node
    if isinstance(node, ast.Member) and (name := ast.item_name(node.item)) is not None:
        return selections.Selection(node.pos, name, node.collection)
    return selections.Selection(node.pos, "_", node)


def number_of(fn: Function, call: ast.Call, scope: Scope, sel_node: selections.Selection, sel: Any, done: str, needs: str) -> Fn:
    """The number each item of a selection gives ``fn`` (``sum``, ``sorted``...): ``VALUE`` of ``VALUE for x in C``,
    else the item itself, which must then be a number (an error at the call says what ``fn`` ``needs`` otherwise);
    ``done`` says what ``fn`` does with it, for the error of a ``VALUE`` that is no number.

    >>> from engine.lang.parser import parse_expression
    >>> from engine.lang.scope import Vocabulary
    >>> node = parse_expression("sum(k * 2 for k in [1, 2])").args[0]
    >>> scope = Scope(Vocabulary())
    >>> number_of(Function("sum", "", "", ""), node, scope, node, node.compile_parts(scope), "summed", "")(None, [3])
    6
    """
    if sel.value is not None:
        ast.expect(scope, sel_node.value or sel_node, sel.value, INT, f"the value {done} by {fn.name}()")
        return sel.value.fn
    if not INT.accepts(sel.item_type):
        scope.error(call.pos, f"{fn.name}() of {sel.item_type} values needs {needs}, as in {fn.example}")
    return lambda s, e, i=sel.slot: e[i]


def describe_selection(node: ast.Node) -> str:
    """A selection in English: ``c in hand where c.power > 2``."""
    sel = as_selection(node)
    if isinstance(sel, selections.Chained):
        return sel.loops()
    text = sel.source.describe() if sel.var == "_" else f"{sel.var} in {sel.source.describe()}"
    if sel.where is not None:
        text += f" where {sel.where.describe()}"
    return text


def described_value(sel: selections.Selection) -> str:
    """What a selection gives for each item, in English: its value written before ``for`` (``c.power`` in ``c.power
    for c in hand``), else the item's name.

    >>> from engine.lang.parser import parse_expression
    >>> described_value(as_selection(parse_expression("count(c in hand)").positional()[0]))
    'c'
    """
    if isinstance(sel, selections.Chained):
        return sel.value_words()
    return sel.value.describe() if sel.value is not None else sel.var


# ------------------------------------------------------------------ aggregates


def _spent_size(size: Fn, pos: SourcePos | None) -> Fn:
    """A collection's size, spending a step of the state's budget per item, as listing the items would.

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(budget=5)
    >>> _spent_size(lambda s, e: 3, None)(s, []), s.budget
    (3, 2)
    """

    def spent(s: Any, e: list[Any]) -> int:
        n = size(s, e)
        s.budget -= n
        if s.budget < 0:
            raise budgets.out_of_steps(s, pos, "selection")
        return n

    return spent


@dataclass(frozen=True)
class Aggregate(Function):
    """A function over a selection: its value is kept by the contents of the zones it reads when it may be
    (see engine.lang.kept), else compiled afresh."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        return kept.keep(call, scope, self.compile_fresh)

    def compile_fresh(self, call: ast.Call, scope: Scope) -> Compiled:  # pragma: no cover - abstract
        """The call compiled to compute its value every time (when it cannot be kept)."""
        raise NotImplementedError


def board_by_value(sel: selections.CompiledSelection, scope: Scope) -> CellKind | None:
    """For a selection ``x in board where x.attr == v``: what the state keeps the board's cells by to answer it
    (engine/core/kept_cells.py: the cells whose top piece shows each value), else None.  While something is stacked
    the kept cells name only the top pieces: read the selection then.

    >>> from engine.lang.scope import Vocabulary
    >>> board_by_value(selections.CompiledSelection(None, 0, None, None, None), Scope(Vocabulary())) is None
    True
    """
    fast = sel.fast
    if (fast is None or len(fast) != 1 or sel.constant_source is None
            or sel.constant_source != scope.vocab.data.get("board_zone")
            or not all(isinstance(v, Hashable) for row in fast[0][0] for v in row)):
        return None
    return CellKind(fast[0][0])


@dataclass(frozen=True)
class Count(Aggregate):
    """``count(c in hand(r) where c.value > 2)``: how many items a selection (or a zone, or a list) has."""

    def compile_fresh(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        node = as_selection(args[0])
        unequal = self._unequal(node, scope)
        if unequal is not None:
            return unequal
        sel = node.compile_parts(scope)
        src, slot, where = sel.source, sel.slot, sel.where
        if where is None:
            if sel.constant_source is not None:
                value = sel.constant_source
                if isinstance(value, list):
                    n = len(value)
                    return Compiled(INT, lambda s, e: n, True, code=codegen.Code(repr(n), number=True))
                return Compiled(INT, lambda s, e: len(s.zones[value]),  # a zone
                                code=codegen.Code(f"len(s.zones[{value!r}])", number=True))
            counted = lambda s, e: len(src(s, e))  # noqa: E731
            if sel.size is not None:
                return Compiled(INT, _spent_size(sel.size, sel.pos))
            if sel.listed is None:
                return Compiled(INT, counted)
            head, items, listed = sel.listing(copy=False)  # a zone found as the code runs: read inline
            return Compiled(INT, codegen.function((*head, f"return len({items})"), listed, call.pos, scope, counted) or counted)
        if sel.fast is not None and isinstance(sel.constant_source, int) and all(row is not None for _, _, row in sel.fast):
            return self._tallied(sel.constant_source, sel.fast, sel.rights)  # in a zone named outright: its tally, kept up to date
        if sel.fast is not None and len(sel.fast) == 1 and sel.fast[0][2] is None and board_by_value(sel, scope):
            return self._celled(sel)  # x.attr == v on the board, the attribute changing with the face: kept cells
        if sel.fast is not None and len(sel.fast) == 1 and sel.fast[0][2] is not None:  # x.attr == v, the same on every face: counted in C
            read, right = sel.fast[0][2].__getitem__, sel.fast[0][1]
            return Compiled(INT, lambda s, e: countOf(map(read, src(s, e)), right(s, e)))
        if sel.fast is not None:
            items = sel.items  # a fast filter
            return Compiled(INT, lambda s, e: len(items(s, e)))

        def count(s: Any, e: list[Any]) -> int:
            n = 0
            for x in src(s, e):
                e[slot] = x
                if where(s, e):
                    n += 1
            return n

        return Compiled(INT, self._generated(sel, call, scope, count) or count)

    @staticmethod
    def _generated(sel: selections.CompiledSelection, call: ast.Call, scope: Scope, reference: Fn) -> Fn | None:
        """The count as one generated function: the filter written inside the loop over the items (a zone's read
        inline)."""
        assert sel.where is not None
        text, consts = codegen.expr(Compiled(BOOL, sel.where, code=sel.test))  # a filter without source is called
        head, items, listed = sel.listing(copy=False)
        x = codegen.fresh("x")
        condition = codegen.read_as(text, sel.slot, x, sel.present, sel.placed)
        lines = ("n = 0", *head, f"for {x} in {items}:", *codegen.kept_item(sel.slot, x, condition), f"    if {condition}:",
                 "        n += 1", "return n")
        return codegen.function(lines, consts + listed, call.pos, scope, reference, sel.pure)

    @staticmethod
    def _unequal(node: selections.Selection, scope: Scope) -> Compiled | None:
        """``count(x in ZONE where x.a != v)``, the attribute the same on every face: the zone's size less its tally
        of ``v`` (see :meth:`_tallied`), spending a step per item and reading ``v`` once there is an item, as the
        loop does; None for any other count (and then nothing compiled here is kept).

        >>> from engine.lang.parser import parse_expression
        >>> from engine.lang.scope import Vocabulary
        >>> from engine.lang.types import ZONE
        >>> from engine.lang.language import LANGUAGE
        >>> vocab = Vocabulary(functions=by_name(LANGUAGE))
        >>> vocab.define_constant("pool", ZONE, 0)
        >>> scope = Scope(vocab)
        >>> Count._unequal(parse_expression("count(x in pool where x != 5)").args[0], scope), scope.sink.items
        (None, [])
        """
        where = node.where
        if node.value is not None or not (isinstance(where, ast.Compare) and where.op == "!="):
            return None
        errors, generated = len(scope.sink.items), scope.vocab.data.setdefault(codegen.GENERATED, [])
        before = len(generated)
        equal = selections.Selection(node.pos, node.var, node.source, ast.Compare(where.pos, "==", where.left, where.right))
        sel = equal.compile_parts(scope)
        if (len(scope.sink.items) != errors or sel.fast is None or len(sel.fast) != 1 or sel.fast[0][2] is None
                or not isinstance(sel.constant_source, int)):
            del scope.sink.items[errors:], generated[before:]  # compiled as written instead
            return None
        (_, right, row), = sel.fast
        zone, pos = sel.constant_source, node.pos
        tally = Tally(zone, row)

        def unequal(s: Any, e: list[Any]) -> int:
            n = len(s.zones[zone])
            s.budget -= n
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, "selection")
            return n - tally_count(s, tally, right(s, e)) if n else 0

        return Compiled(INT, unequal)

    @staticmethod
    def _tallied(zone: int, fast: tuple[tuple[Any, Fn, Any], ...], sources: tuple[codegen.Code | None, ...] = ()) -> Compiled:
        """``count(x in ZONE where x.a == u [and x.b == v ...])``, attributes the same on every face: the zone's tally.

        Where every value compared has source of its own (``sources``), generated code reads the tally inline:
        ``(s.tallies.get(k7) or k8(s, k7)).get(e[0], 0)``.
        """
        if len(fast) == 1:
            (_, right, row), = fast
            tally = Tally(zone, row)
            fn: Fn = lambda s, e: tally_count(s, tally, right(s, e))  # noqa: E731
        else:
            rows, rights = [row for _, _, row in fast], [right for _, right, _ in fast]
            tally = Tally(zone, list(zip(*rows)), tuple(map(id, rows)))  # each component's values, together
            fn = lambda s, e: tally_count(s, tally, tuple([right(s, e) for right in rights]))  # noqa: E731
        if len(sources) != len(fast) or any(code is None for code in sources):
            return Compiled(INT, fn)
        t, make = codegen.fresh("k"), codegen.fresh("k")
        consts: tuple[tuple[str, Any], ...] = ((t, tally), (make, tally_of))
        values = []
        for code in sources:
            assert code is not None
            values.append(code.expr)
            consts += code.consts
        value = values[0] if len(values) == 1 else f"({', '.join(values)},)"
        return Compiled(INT, fn, code=codegen.Code(f"(s.tallies.get({t}) or {make}(s, {t})).get({value}, 0)", None, consts,
                                                   number=True))

    @staticmethod
    def _celled(sel: selections.CompiledSelection) -> Compiled:
        """``count(x in board where x.a == v)``, ``a`` changing with the face: the number of cells the state keeps
        for ``v`` (engine/core/kept_cells.py), each holding one piece while nothing is stacked; counted as a
        filter while something is."""
        (table, right, _), = sel.fast  # type: ignore[misc]
        kind, items = CellKind(table), sel.items

        def count(s: Any, e: list[Any]) -> int:
            if s.stacks:
                return len(items(s, e))
            cells = kept_cells(s, kind).get(right(s, e))
            return 0 if cells is None else len(cells)

        return Compiled(INT, count)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if not args:
            return "0"
        bare = as_selection(args[0]).var == "_"  # count(hand(r)): a collection, not a selection
        return f"the number of {'items in ' * bare}{describe_selection(args[0])}"


def _items(sel: selections.CompiledSelection, x: str, scope: Scope) -> tuple[tuple[str, ...], str, tuple[tuple[str, Any], ...], str | None]:
    """Generated source giving what ``sel.items`` gives, for a loop over ``x``: (statements to run first, the
    expression to loop over, constants, a test ``x`` must pass or None).  Unfiltered, the source is read inline
    (see ``CompiledSelection.listing``), and copied unless the loop changes nothing; with a fast filter (``x.attr == v``, see ``CompiledSelection.loop``)
    where nothing may change, the loop walks the source and tests each item itself; else it walks the
    filter's list.

    >>> sel = selections.CompiledSelection(None, 0, None, None, None, listed=codegen.Code("s.zones[3]"))
    >>> _items(sel, "x", None)[1:]  # doctest: +ELLIPSIS
    ('t...', (...), None)
    """
    if sel.where is None:  # a loop that changes nothing walks the source's own list, which it cannot change
        return (*sel.listing(copy=not sel.pure), None)
    if sel.fast is not None and sel.listed is not None and scope.pure:  # nothing the loop runs changes the source
        return sel.loop(x)
    name = codegen.fresh("k")
    return (), f"{name}(s, e)", ((name, sel.items),), None


def _skip(x: str, test: str | None) -> tuple[str, ...]:
    """The lines skipping an item of a loop over ``x`` that fails ``test`` (none without a test).

    >>> _skip("x1", "k2[x1] == v3")
    ('    if not (k2[x1] == v3):', '        continue')
    """
    return () if test is None else (f"    if not ({test}):", "        continue")


@dataclass(frozen=True)
class Fold(Aggregate):
    """sum / max / min of a value over a selection."""

    combine: Callable[[list[int]], int] = sum
    empty: int = 0
    words: str = "the total of"  # "the largest of", ...

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        """Values given one by one, ``max(a, b)``, are the list of them, ``max([a, b])``.

        >>> from engine.lang.parser import parse_expression
        >>> from types import SimpleNamespace
        >>> from engine.lang.scope import Vocabulary
        >>> from engine.lang.language import LANGUAGE
        >>> LANGUAGE[2].compile_call(parse_expression("max(1, 7 - 5, -3)"), Scope(Vocabulary())).fn(SimpleNamespace(budget=99), [])
        2
        """
        args = call.positional()
        if len(args) > 1 and not any(isinstance(a, (selections.Selection, ast.Member)) for a in args):
            call = ast.Call(call.pos, call.func, [ast.ListLit(args[0].pos, args), *call.keywords().values()], self)
        return super().compile_call(call, scope)

    def compile_fresh(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        sel_node = as_selection(args[0])
        sel = sel_node.compile_parts(scope)
        value_fn = number_of(self, call, scope, sel_node, sel, "summed", "a number to add up")
        items, slot, combine, empty = sel.items, sel.slot, self.combine, self.empty
        failed = self._no_value(sel_node, call.pos)

        def fold(s: Any, e: list[Any]) -> int:
            values = []
            for x in items(s, e):
                e[slot] = x
                values.append(value_fn(s, e))
            if not values:
                return empty
            try:
                result = combine(values)
            except TypeError:  # none among the values
                result = None
            if result is None:  # max or min of a single none gives none
                raise failed()
            return result

        value = sel.value or Compiled(INT, value_fn, code=codegen.Code(f"e[{slot}]"))
        return Compiled(INT, self._generated(sel, value, call, scope, fold, failed) or fold)

    def _no_value(self, sel_node: selections.Selection, pos: SourcePos | None) -> Callable[[], EffectRuntimeError]:
        """The error for a fold meeting none among its values (a component without the attribute summed, say).

        >>> from engine.lang.parser import parse_expression
        >>> call = parse_expression("max(c.cost for c in hand)")
        >>> from engine.lang.language import LANGUAGE
        >>> str(LANGUAGE[2]._no_value(as_selection(call.positional()[0]), None)())  # doctest: +NORMALIZE_WHITESPACE
        'the cost of c has no value here (nothing is written for it), so max() cannot use it; a component that leaves
        out cost reads none: write it, or give the attribute a default (cost: {type: int, default: 0})'
        >>> str(LANGUAGE[2]._no_value(as_selection(parse_expression("max([1, none])").positional()[0]), None)())
        'an item of [1, nothing] has no value here (nothing is written for it), so max() cannot use it'
        """
        words = f"an item of {sel_node.source.describe()}" if sel_node.var == "_" else ""  # a list given bare: no name
        node = sel_node.value or ast.Name(sel_node.pos, sel_node.var, words)
        return lambda: ast.no_value(f"{self.name}()", ((node, None),), pos)

    def _generated(self, sel: selections.CompiledSelection, value: Compiled, call: ast.Call, scope: Scope,
                   reference: Fn, failed: Callable[[], EffectRuntimeError]) -> Fn | None:
        """The fold as one generated function: the value written inside the loop over the items (unfiltered, a
        zone's read inline; filtered, the filter's list first, as ``items`` gives it)."""
        term, consts = codegen.expr(value)
        x, combine, error = codegen.fresh("x"), codegen.fresh("k"), codegen.fresh("k")
        head, items, listed, test = _items(sel, x, scope)
        term = codegen.read_as(term, sel.slot, x, sel.present, sel.placed)
        lines = ("values = []", *head, f"for {x} in {items}:", *_skip(x, test), *codegen.kept_item(sel.slot, x, term),
                 f"    values.append({term})",
                 "if not values:", f"    return {self.empty!r}",
                 "try:", f"    result = {combine}(values)", "except TypeError:  # none among the values",
                 "    result = None", "if result is None:", f"    raise {error}()", "return result")
        return codegen.function(lines, consts + listed + ((combine, self.combine), (error, failed)), call.pos, scope,
                                reference, sel.pure)

    def describe(self, call: ast.Call) -> str:
        """In English; values given one by one are each said.

        >>> from engine.lang.parser import parse_expression
        >>> from engine.lang.language import LANGUAGE
        >>> LANGUAGE[3].describe(parse_expression("min(2, x, 4)"))
        'the smallest of 2, x and 4'
        """
        args = call.positional()
        if not args:
            return "0"
        if len(args) > 1 and not any(isinstance(a, (selections.Selection, ast.Member)) for a in args):  # max(a, b)
            said = [a.describe() for a in args]
            return f"{self.words} {', '.join(said[:-1])} and {said[-1]}"
        sel = as_selection(args[0])
        if sel.value is None and sel.var == "_":  # a list given bare: its items have no name to read
            return f"{self.words} {describe_selection(args[0])}"
        return f"{self.words} {described_value(sel)}, over {describe_selection(args[0])}"


@dataclass(frozen=True)
class Quantifier(Aggregate):
    """any / all: whether some / every selected item satisfies a condition."""

    every: bool = False

    def compile_fresh(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(BOOL, lambda s, e: self.every)
        sel_node = as_selection(args[0])
        if sel_node.value is None and sel_node.where is not None:
            # any(x in C where P): the condition is the test, over all of C.
            sel_node = selections.Selection(sel_node.pos, sel_node.var, sel_node.source, None, sel_node.where)
        sel = sel_node.compile_parts(scope)
        test: Fn
        if sel.value is not None:
            ast.expect(scope, sel_node.value or sel_node, sel.value, BOOL, f"the test of {self.name}()")
            test = sel.value.fn
        else:
            test = lambda s, e: True  # noqa: E731  (any(C): C is not empty)
        items, slot = sel.items, sel.slot
        if self.every:

            def quantify(s: Any, e: list[Any]) -> bool:
                for x in items(s, e):
                    e[slot] = x
                    if not test(s, e):
                        return False
                return True

        else:

            def quantify(s: Any, e: list[Any]) -> bool:
                for x in items(s, e):
                    e[slot] = x
                    if test(s, e):
                        return True
                return False

        if sel.value is not None:
            generated = self._generated(sel, sel.value, call, scope, quantify)
            if generated is not None:
                return Compiled(BOOL, self._runs(sel, scope, generated) or generated)
        return Compiled(BOOL, quantify)

    def _runs(self, sel: selections.CompiledSelection, scope: Scope, reference: Fn) -> Fn | None:
        """``any`` over the board's pieces of a value whose test asks for N of them in a row (see
        engine/lang/line_checks.py), read from the runs the board keeps; None for any other quantifier.  The step
        budget is spent as the loop spends it; where the runs cannot answer (a board that stacks, a filter's value
        that is none or not the one the cells are compared with, too few steps left) the loop as written runs."""
        board, reach = scope.vocab.data.get("board_zone"), scope.vocab.data.get("runs_reached")
        test = sel.value
        if (self.every or not line_checks.ENABLED or reach is None or not scope.pure or not isinstance(board, int)
                or sel.constant_source != board or sel.listed is None or sel.listed.expr != f"s.zones[{board}]"
                or sel.fast is None or len(sel.fast) != 1 or sel.fast[0][2] is None
                or test is None or test.code is None or test.code.lines is not None):
            return None
        (_, right, row), = sel.fast
        found = line_checks.runs(test.code.expr, sel.slot, dict(test.code.consts), row)
        if found is None:
            return None
        (kind, compared), shortest = found
        reached, steps = reach(row, board, shortest), sel.steps

        def kept(s: Any, e: list[Any]) -> bool:
            value = right(s, e)
            spent = len(s.zones[board]) * steps
            if value is None or value != (e[compared] if kind == "slot" else compared) or s.budget < spent:
                return reference(s, e)
            answer = reached(s, value)
            if answer is None:
                return reference(s, e)
            s.budget -= spent
            return answer

        return kept

    def _generated(self, sel: selections.CompiledSelection, test: Compiled, call: ast.Call, scope: Scope,
                   reference: Fn) -> Fn | None:
        """The quantifier as one generated function: the test written inside the loop over the items (unfiltered,
        a zone's read inline; filtered, the filter's list first, as ``items`` gives it)."""
        text, consts = codegen.expr(test)
        x = codegen.fresh("x")
        condition = codegen.read_as(text, sel.slot, x, sel.present, sel.placed)
        head, items, listed, test = _items(sel, x, scope)
        lines = (*head, f"for {x} in {items}:", *_skip(x, test), *codegen.kept_item(sel.slot, x, condition),
                 f"    if not {condition}:" if self.every else f"    if {condition}:",
                 f"        return {not self.every}", f"return {self.every}")
        return codegen.function(lines, consts + listed, call.pos, scope, reference, sel.pure)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if not args:
            return str(self.every).lower()
        sel = as_selection(args[0])
        who = "every" if self.every else "some"
        if isinstance(sel, selections.Chained):
            return f"for {who} {sel.loops()}, {sel.value_words()}"
        test = sel.value or sel.where
        source = sel.source.describe()
        if sel.value is not None and sel.where is not None:
            source += f" where {sel.where.describe()}"
        return f"for {who} {sel.var} in {source}, {test.describe()}" if test else f"{source} is not empty"


def _sign(value: int) -> int:
    """1, 0 or -1: the sign of ``value``."""
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class OfANumber(Function):
    """A function of one whole number, ``NAME(N)``: ``of`` the number, none refused at the call (what it was given
    says where it came from)."""

    of: ClassVar[Callable[[int], int]]

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        c = self.value(scope, args[0], INT, "argument") if args else Compiled(INT, lambda s, e: 0)
        f, node, pos, of, name = c.fn, args[0] if args else None, call.pos, type(self).of, f"{self.name}()"

        def number(s: Any, e: list[Any]) -> int:
            value = f(s, e)
            if value is None:
                raise ast.no_value(name, ((node, value),), pos)
            return of(value)

        if not scope.pure:
            return Compiled(INT, number, c.constant)
        text, consts = codegen.expr(c)  # none raises TypeError: the function falls back to the closure, which says where
        k = codegen.fresh("k")
        return Compiled(INT, number, c.constant, code=codegen.Code(f"{k}({text})", None, consts + ((k, of), (codegen.FALLIBLE, True)),
                                                                 number=True))


@dataclass(frozen=True)
class Abs(OfANumber):
    """``abs(x)``: a number without its sign."""

    of = abs

    def describe(self, call: ast.Call) -> str:
        return f"the absolute value of {call.args[0].describe()}" if call.args else "0"


@dataclass(frozen=True)
class Sgn(OfANumber):
    """``sgn(N)``: the sign of a number, 1, 0 or -1 — the step from one cell toward another along a line,
    ``(a.x + sgn(b.x - a.x), a.y + sgn(b.y - a.y))``.

    >>> from engine.lang.parser import parse_expression
    >>> Sgn("sgn", "", "", "").describe(parse_expression("sgn(b.x - a.x)"))
    'the sign of the x of b minus the x of a (1, 0 or -1)'
    """

    of = _sign

    def describe(self, call: ast.Call) -> str:
        return f"the sign of {call.args[0].describe()} (1, 0 or -1)" if call.args else "0"


@dataclass(frozen=True)
class RollValue(Function):
    """``roll(d6)``: a number from the state's seeded random generator; ``roll(d6, by = r)`` logs the roll as role
    ``r``'s (``North rolls a d6: 4``, where ``a d6 is rolled: 4`` told nobody whose die it was)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, by_kw = call.positional(), call.keywords().get("by")
        if not unknown_options(self, call, scope, 1, 1, known=("by",)) and len(args) != 1:
            scope.error(call.pos, f"{self.name}() takes 1 argument, not {len(args)}", f"usage: {self.signature}")
        by = (self.value(scope, by_kw.value, scope.vocab.data.get("role_type", ANY), "role given by 'by ='").fn
              if by_kw is not None else None)
        if scope.pure:
            scope.error(call.pos, "roll() can't be used in a condition or score: it would change the game's dice",
                        "roll in a program (setup, effects) and keep the result with 'let'")
        c = self.value(scope, args[0], DIE, "die") if args else Compiled(DIE, lambda s, e: 6)
        scope.reach.add(DRAWS)
        f, pos = c.fn, call.pos

        def roll(s: Any, e: list[Any]) -> int:
            sides = f(s, e)
            if sides is None:
                raise EffectRuntimeError("roll() needs a die to roll, not none", pos)
            return s.roll_in_effect(sides, by(s, e) if by is not None else None)

        return Compiled(INT, roll)

    def describe(self, call: ast.Call) -> str:
        args, by = call.positional(), call.keywords().get("by")
        rolled = f"a roll of {args[0].describe()}" if args else "a roll"
        return f"{rolled} by {by.value.describe()}" if by is not None else rolled


@dataclass(frozen=True)
class Reachable(Function):
    """``reachable(CELL, ENDS for x in COLLECTION [where CONDITION])``: the cells a walk from CELL reaches through the
    selected items, each joining the cells its ENDS list (a link component's two cell attributes, ``[x.a, x.b]``):
    CELL first, then the others in the order the walk finds them; none among the ends joins nothing.

    >>> from engine.lang.parser import parse_expression
    >>> from engine.lang.scope import Vocabulary
    >>> from types import SimpleNamespace
    >>> def walk(code: str) -> list:
    ...     return Reachable("reachable", "", "", "").compile_call(parse_expression(code), Scope(Vocabulary())).fn(SimpleNamespace(budget=99), [None])
    >>> walk("reachable((1, 0), [p, (9, 9)] for p in [(0, 0), (1, 0)])")  # (1, 0) to (9, 9) to (0, 0)
    [(1, 0), (9, 9), (0, 0)]
    >>> walk("reachable((2, 2), [p, (9, 9)] for p in [(0, 0), (1, 0)])")
    [(2, 2)]
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(CELL), lambda s, e: [])
        start = self.value(scope, args[0], CELL, "first argument").fn
        sel_node = as_selection(args[1])
        sel = sel_node.compile_parts(scope)
        if sel.value is None:
            scope.error(args[1].pos, f"{self.name}() needs the cells each item joins, written before 'for'",
                        f"as in {self.example}")
            return Compiled(ListOf(CELL), lambda s, e: [])
        ast.expect(scope, sel_node.value or sel_node, sel.value, ListOf(CELL), f"the ends given to {self.name}()")
        items, slot, ends, pos = sel.items, sel.slot, sel.value.fn, call.pos

        def reachable(s: Any, e: list[Any]) -> list[Any]:
            first = start(s, e)
            if first is None:
                return []
            joined: dict[Any, list[Any]] = {}
            for x in items(s, e):
                e[slot] = x
                cells = [c for c in ends(s, e) or () if c is not None]
                s.budget -= len(cells)
                if s.budget < 0:
                    raise budgets.out_of_steps(s, pos, "walk")
                for a, b in zip(cells, cells[1:]):  # each end joined to the next: all of them joined, in one pass
                    joined.setdefault(a, []).append(b)
                    joined.setdefault(b, []).append(a)
            found, seen = [first], {first}
            for c in found:  # the list grows as the walk goes
                for d in joined.get(c, ()):
                    if d not in seen:
                        seen.add(d)
                        found.append(d)
            return found

        return Compiled(ListOf(CELL), reachable)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) != 2:
            return "the cells reached"
        sel = as_selection(args[1])
        return f"the cells reached from {ast.grouped(args[0])} through {described_value(sel)}, for {describe_selection(args[1])}"
