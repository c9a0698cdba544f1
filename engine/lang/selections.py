"""Selections, ``x in C where P``: the effect language's way of naming some of a collection — its syntax node
and the compiled selection that gives the items, spends the step budget for each item it looks at, and is written
as generated source where it can be.

>>> from engine.lang.parser import parse_expression
>>> parse_expression("count(c in board where c.hue == h)").args[0].describe()
'c in board where the hue of c is h'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import SourcePos
from engine.lang import codegen
from engine.lang.ast import Name, Node, a_type, as_collection, expect, nodes, noop
from engine.lang.budgets import out_of_steps, scope_limits, spending, weight
from engine.lang.scope import Code, Compiled, Fn, Scope
from engine.lang.types import (
    ANY,
    ZONE,
    BOOL,
    Component,
    Enum,
    ListOf,
    Type,
)


@dataclass
class Selection(Node):
    """``c in board where c.hue == h`` (or ``c.value for c in hand(r)``) as a function argument."""

    var: str
    source: Node
    where: Node | None = None
    value: Node | None = None

    def describe(self) -> str:
        text = f"{self.var} in {self.source.describe()}"
        if self.where is not None:
            text += f" where {self.where.describe()}"
        if self.value is not None:
            text = f"{self.value.describe()} for each {text}"
        return text

    def compile(self, scope: Scope) -> Compiled:
        """A selection used as a plain value: the list of matching items, or of their values (``c.rank for c in
        hand``: the ranks)."""
        sel = self.compile_parts(scope)
        if sel.value is None:
            return Compiled(ListOf(sel.item_type), sel.items)
        items, slot, value = sel.items, sel.slot, sel.value.fn

        def values(s: Any, e: list[Any]) -> list[Any]:
            found = []
            for x in items(s, e):
                e[slot] = x
                found.append(value(s, e))
            return found

        return Compiled(ListOf(sel.value.type), values)

    def compile_parts(self, scope: Scope) -> "CompiledSelection":
        """Compile source, filter and mapping with the variable bound in a child scope."""
        raw = self.source.compile(scope)
        constant = raw.fn(None, []) if raw.constant and (raw.type is ZONE or isinstance(raw.type, ListOf)) else None
        src = as_collection(raw, self.source)
        if isinstance(src.type, Component):  # one component selects itself (none selects nothing)
            one, item_type = src.fn, src.type
            src = Compiled(ListOf(item_type), lambda s, e: [] if (x := one(s, e)) is None else [x])
        elif src.type is ANY:  # not known when compiled (first([]), say): none selects nothing there too
            unknown = src.fn
            src = Compiled(ANY, lambda s, e: [] if (x := unknown(s, e)) is None else x)
        size = src.size
        if isinstance(src.type, ListOf):
            item_type = src.type.item
        elif isinstance(src.type, Component):
            pass
        else:
            if src.type is not ANY:
                scope.error(self.source.pos, f"'{self.source.describe()}' is {a_type(src.type)}, not a collection")
            item_type = ANY
        inner = scope.child()
        inner.work = scope.work * _size_bound(scope, raw, constant, src.type)
        most = scope_limits(scope).condition_items
        if scope.work <= most < inner.work:
            scope.error(self.pos, f"selections nested this deep may look at up to {inner.work:,} items each time this runs "
                                  f"(the limit is {most:,}): each level multiplies the work by the size of its collection",
                        "narrow an outer collection with 'where', or split the rule into smaller conditions; "
                        "or raise the limit with --limit condition_items=N")
        walkable = raw.type is ZONE or (src.code is not None and src.code.walkable)  # a zone's list, or one the state keeps
        listed = src.code if walkable else None  # that, or a list that never changes: for loops written inline
        if isinstance(constant, list):
            name = codegen.fresh("k")
            listed = Code(name, None, ((name, constant),))
        scope.check_new_name(self.var, self.pos, f"wherever this {self.var} is read")
        slot = inner.bind(self.var, item_type)
        inlined = inner.inlined[0]
        inner.in_where = True  # a choice here would be asked once for every item looked at
        where, pure = unchanging(self.where, inner) if self.where is not None else (None, True)
        inner.in_where = scope.in_where
        test = None  # the condition's own source, for a generated filter
        if where is not None and self.where is not None:
            expect(inner, self.where, where, BOOL, "the condition after 'where'")
            test = where.code
            where = codegen.finish(where, self.where.pos, inner)
        value, value_pure = unchanging(self.value, inner) if self.value is not None else (None, True)
        if value is not None and self.value is not None:
            value = codegen.finish(value, self.value.pos, inner)
        steps = weight(nodes(self.where) + nodes(self.value) + inner.inlined[0] - inlined)
        src = Compiled(src.type, spending(src.fn, self.pos, "selection", steps))
        fast, rights = None, ()
        if where is not None and where.hint is not None and where.hint[1] == slot:
            fast = tuple((table, right.fn, same_on_every_face(table)) for table, right in where.hint[2])
            rights = tuple(right.code if right.code is not None and right.code.lines is None else None
                           for _, right in where.hint[2])
        board = scope.vocab.data.get("board_zone")
        selection = CompiledSelection(src.fn, slot, item_type, where.fn if where else None, value, fast, constant,
                                      listed=listed, pos=self.pos, test=test, size=size, rights=rights,
                                      on_board=raw.type is ZONE and isinstance(board, int) and constant == board,
                                      pure=pure and value_pure and (scope.pure or listed is not None), steps=steps)
        if fast is not None:
            generated = _fast_filter(selection, inner)
        else:
            generated = _filter(selection, test, inner) if test is not None else None
        if generated is not None:
            selection.items, selection.generated = generated, True
        return selection


@dataclass
class Joined(Node):
    """The lists a selection's value gives for its items, one after the other: the loop of one ``for`` of
    ``VALUE for a in A for b in B`` around the ones after it (``lists`` gives a list per ``a``).

    >>> from types import SimpleNamespace
    >>> from engine.lang.parser import parse_expression
    >>> from engine.lang.scope import Vocabulary
    >>> joined = parse_expression("list(a * 10 + b for a in [1, 2] for b in [3, 4])").args[0].source
    >>> joined.compile(Scope(Vocabulary())).fn(SimpleNamespace(budget=99), [None, None, None])
    [13, 14, 23, 24]
    """

    lists: Selection

    def compile(self, scope: Scope) -> Compiled:
        each = self.lists.compile(scope)
        item = each.type.item.item if isinstance(each.type, ListOf) and isinstance(each.type.item, ListOf) else ANY
        lists = each.fn
        return Compiled(ListOf(item), lambda s, e: [x for found in lists(s, e) for x in found])

    def describe(self) -> str:
        value, loops = self.parts()
        return f"{value} for {' and '.join(loops)}"

    def parts(self) -> tuple[str, list[str]]:
        """The value described, and each loop's words, outermost first."""
        loops, sel = [], self.lists
        while isinstance(sel.value, Joined):
            loops.append(_loop_words(sel))
            sel = sel.value.lists
        loops.append(_loop_words(sel))
        inner = sel.value  # the innermost loop, its value the chain's
        assert isinstance(inner, Selection) and inner.value is not None
        loops.append(_loop_words(inner))
        return inner.value.describe(), loops


def _loop_words(sel: Selection) -> str:
    """One loop of a chain in words: ``a in A where P``."""
    return f"{sel.var} in {sel.source.describe()}" + (f" where {sel.where.describe()}" if sel.where is not None else "")


@dataclass
class Chained(Selection):
    """``VALUE for a in A [where P] for b in B [where Q] ...`` as a function's argument: the values for every
    combination of the loops' items, the later loops inside the earlier ones (each may read the names before
    it), as the comprehension ``x for x in`` those values, so that every function taking ``VALUE for x in C``
    takes it.

    >>> from engine.lang.parser import parse_expression
    >>> chain = parse_expression("list(a + b for a in [1, 2] where a > 1 for b in [10, 20])").args[0]
    >>> chain.describe(), chain.loops()
    ('a plus b for a in [1, 2] where a is more than 1 and b in [10, 20]', 'a in [1, 2] where a is more than 1 and b in [10, 20]')
    """

    def describe(self) -> str:
        return self.source.describe()

    def value_words(self) -> str:
        """The value the loops give, in words."""
        assert isinstance(self.source, Joined)
        return self.source.parts()[0]

    def loops(self) -> str:
        """The loops, in words, outermost first."""
        assert isinstance(self.source, Joined)
        return " and ".join(self.source.parts()[1])


CHAINED_ITEM = "each value"
"""The name a chain of loops (:class:`Chained`) gives its values, read only by the chain itself (the loops and their
value are its source, which does not see it): two words, which no name of a ruleset or of its code can be."""


def chained(pos: SourcePos | None, value: Node, loops: list[tuple[str, Node, Node | None]]) -> Selection:
    """``VALUE for NAME in SOURCE [where CONDITION]`` for each of ``loops`` in turn (two or more), as a
    :class:`Chained` selection: each loop but the last a :class:`Joined` around the ones after it.

    >>> chained(None, Name(None, "b"), [("a", Name(None, "xs"), None), ("b", Name(None, "ys"), None)]).describe()
    'b for a in xs and b in ys'
    """
    var, source, where = loops[-1]
    node: Node = Selection(pos, var, source, where, value)
    for var, source, where in reversed(loops[:-1]):
        node = Joined(pos, Selection(pos, var, source, where, node))
    return Chained(pos, CHAINED_ITEM, node, None, Name(pos, CHAINED_ITEM))


def unchanging(node: Node, scope: Scope) -> tuple[Compiled, bool]:
    """``node`` compiled as code that changes nothing when it is such code (a selection's filter nearly always
    is, even in a program), so that its source can be plain Python (see ``codegen.FALLIBLE``); else as written.
    With it, whether it is such code.

    Code compiles as changing nothing unless it rolls, chooses or assigns —
    each of which is an error where nothing may change.
    """
    if scope.pure:
        return node.compile(scope), True
    errors, generated = len(scope.sink.items), scope.vocab.data.setdefault(codegen.GENERATED, [])
    before = len(generated)
    scope.pure = True
    try:
        compiled = node.compile(scope)
    finally:
        scope.pure = False
    if len(scope.sink.items) == errors:
        return compiled, True
    del scope.sink.items[errors:], generated[before:]  # it changes something (or is wrong): compile it as written
    return node.compile(scope), False


def _filter(sel: "CompiledSelection", test: Code, scope: Scope) -> Fn | None:
    """A generated function listing the items of ``sel``'s source that pass ``test`` (each in its slot while
    tested); ``sel.items`` lists them with closures."""
    text, consts = codegen.expr(Compiled(BOOL, noop, code=test))
    head, items, listed = sel.listing(copy=False)
    x = codegen.fresh("x")
    condition = codegen.read_as(text, sel.slot, x, sel.present, sel.placed)
    lines = ("found = []", *head, f"for {x} in {items}:", *codegen.kept_item(sel.slot, x, condition), f"    if {condition}:",
             f"        found.append({x})", "return found")
    return codegen.function(lines, consts + listed, sel.pos, scope, sel.items, sel.pure)


def _fast_filter(sel: "CompiledSelection", scope: Scope) -> Fn | None:
    """A generated function doing what ``sel.items`` does with its fast filter (``x.attr == v [and ...]``):
    the source read inline where it can be (see ``CompiledSelection.listing``), then one list comprehension
    per attribute compared.

    >>> from types import SimpleNamespace
    >>> from engine.lang.scope import Vocabulary
    >>> sel = CompiledSelection(None, 0, None, None, None, fast=(([[5, 7, 5]], lambda s, e: 5, [5, 7, 5]),),
    ...                         listed=Code("s.zones[0]"))
    >>> _fast_filter(sel, Scope(Vocabulary()))(SimpleNamespace(zones=[[0, 1, 2]], budget=9, face=[0, 0, 0]), [])
    [0, 2]
    """
    assert sel.fast is not None
    head, found, consts = sel.listing(copy=False)
    lines = [*head, *(["face = s.face"] if any(row is None for _, _, row in sel.fast) else [])]
    for table, right, row in sel.fast:
        x, v, k, read = codegen.fresh("x"), codegen.fresh("v"), codegen.fresh("k"), codegen.fresh("k")
        value = f"{read}[{x}]" if row is not None else f"{read}[face[{x}]][{x}]"
        lines += [f"{v} = {k}(s, e)", f"found = [{x} for {x} in {found} if {value} == {v}]"]
        consts += ((k, right), (read, row if row is not None else table))
        found = "found"
    return codegen.function((*lines, "return found"), consts, sel.pos, scope, sel.items)


def _size_bound(scope: Scope, raw: Compiled, constant: Any, collection: Type) -> int:
    """The most items a selection's source can hold: a constant's length, else the ruleset's sizes for its item type.

    The vocabulary's ``sizes`` give, per type name, how many values exist
    (components of a kind, values of an enumeration) and
    ``"*"`` how many components there are in all.
    """
    if isinstance(constant, list):
        return max(len(constant), 1)
    if raw.most is not None:
        return max(raw.most, 1)
    sizes: dict[str, int] = scope.vocab.data.get("sizes", {})
    everything = sizes.get("*", 100)
    if isinstance(raw.type, Component):
        return 1
    if isinstance(collection, ListOf) and isinstance(collection.item, (Component, Enum)):
        return sizes.get(collection.item.name, everything)
    return everything


def same_on_every_face(table: list[list[Any]]) -> list[Any] | None:
    """An attribute's row when every face shows the same value (rows hold None past a component's last face), else None."""
    return table[0] if all(a is None or a == b for r in table for a, b in zip(r, table[0])) else None


@dataclass
class CompiledSelection:
    """A compiled selection: iterate ``items(s, e)`` (filtered) and read ``value``."""

    source: Fn
    slot: int
    item_type: Type
    where: Fn | None
    value: Compiled | None
    # where is  x.attr == v [and x.attr2 == v2 ...]: ((table [face][x], v, the row when the attribute is the same on every face), ...)
    fast: tuple[tuple[list[list[Any]], Fn, list[Any] | None], ...] | None = None
    constant_source: Any = None  # the source's value when it never changes (a list) or a zone index
    generated: bool = False  # True when ``items`` is a generated function (see engine.lang.codegen), not the method
    listed: Code | None = None  # when the source is a zone or a constant list: the source of its list, unspent (see ``listing``)
    test: Code | None = None  # the source of ``where``, when it has one
    pos: SourcePos | None = None  # where the selection is written: where it runs out of steps
    size: Fn | None = None  # the number of the source's items, unspent, when it is known without listing them
    pure: bool = False  # whether the source, ``where`` and ``value`` change nothing (but the step budget and their own locals)
    rights: tuple[Code | None, ...] = ()  # with ``fast``: the source of each value compared, when it is an expression
    on_board: bool = False  # whether the source is the board's zone, named outright
    steps: int = 1  # the steps each item spends: more when ``where`` and ``value`` are long (see ``weight``)

    def listing(self, copy: bool) -> tuple[tuple[str, ...], str, tuple[tuple[str, Any], ...]]:
        """Generated source reading the source's items, unfiltered, for a loop, spending a step per item as ``source`` does:
        (statements to run first, an expression giving the items, constants).  With ``copy`` the loop walks a
        copy, as ``items`` gives one.  A zone's list is read inline; any other source is called.

        >>> sel = CompiledSelection(None, 0, None, None, None, listed=Code("s.zones[3]"))
        >>> head, items, _ = sel.listing(copy=True)
        >>> print("\\n".join(head)); print(items)  # doctest: +ELLIPSIS
        t... = list(s.zones[3])
        s.budget -= len(t...)
        if s.budget < 0:
            raise out_of_steps(s, k..., 'selection')
        t...
        """
        if self.listed is None:
            name = codegen.fresh("k")
            return (), f"list({name}(s, e))" if copy else f"{name}(s, e)", ((name, self.source),)
        t, where = codegen.fresh("t"), codegen.fresh("k")
        read = f"list({self.listed.expr})" if copy else self.listed.expr
        spent = f"len({t})" if self.steps == 1 else f"len({t}) * {self.steps}"
        head = (f"{t} = {read}", f"s.budget -= {spent}", "if s.budget < 0:", f"    raise out_of_steps(s, {where}, 'selection')")
        return head, t, self.listed.consts + ((where, self.pos), ("out_of_steps", out_of_steps))

    @property
    def present(self) -> bool:
        """Whether every item of the source is a value, never none: a zone's components, or a constant list
        without none (a source found otherwise may give none).

        >>> CompiledSelection(None, 0, None, None, None, listed=Code("s.zones[3]")).present
        True
        """
        return self.listed is not None and not (isinstance(self.constant_source, list) and None in self.constant_source)

    @property
    def placed(self) -> bool:
        """Whether every item is a piece on the board, with a cell, while it is read: the board's pieces, in a
        selection that changes nothing.

        >>> CompiledSelection(None, 0, None, None, None, listed=Code("s.zones[1]"), on_board=True, pure=True).placed
        True
        """
        return self.on_board and self.pure and self.present

    def loop(self, x: str) -> tuple[tuple[str, ...], str, tuple[tuple[str, Any], ...], str]:
        """Generated source for a loop over ``x`` walking a zone or constant list with a fast filter (``x.attr == v
        [and ...]``) itself, without listing the items that pass first, where nothing the loop runs changes
        the source: (statements to run first, the
        expression to loop over, constants, the test an item must pass).  The steps are spent and each ``v``
        computed before the loop, as ``items`` does; the test spends nothing and cannot fail, so a loop that
        stops early does what ``items`` and a loop over its list do.

        >>> sel = CompiledSelection(None, 0, None, None, None, fast=(([[5, 7]], None, [5, 7]),), listed=Code("s.zones[3]"))
        >>> head, items, _, test = sel.loop("x1")
        >>> print(head[-1]); print(test)  # doctest: +ELLIPSIS
        v... = k...(s, e)
        k...[x1] == v...
        """
        assert self.fast is not None and self.listed is not None
        head, items, consts = self.listing(copy=False)
        if any(row is None for _, _, row in self.fast):
            head += ("face = s.face",)
        tests = []
        for table, right, row in self.fast:
            v, k, read = codegen.fresh("v"), codegen.fresh("k"), codegen.fresh("k")
            head += (f"{v} = {k}(s, e)",)
            tests.append(f"{read}[{x}] == {v}" if row is not None else f"{read}[face[{x}]][{x}] == {v}")
            consts += ((k, right), (read, row if row is not None else table))
        return head, items, consts, " and ".join(tests)

    def items(self, s: Any, e: list[Any]) -> list[Any]:
        """The items of the selection in ``s``: the source's, filtered by ``where`` when it has one."""
        src, slot, where = self.source, self.slot, self.where
        if where is None:
            return list(src(s, e))
        if self.fast is not None:
            found, face = src(s, e), s.face
            for table, right, row in self.fast:
                v = right(s, e)
                if row is not None:
                    found = [x for x in found if row[x] == v]
                else:
                    found = [x for x in found if table[face[x]][x] == v]
            return found
        out = []
        for x in src(s, e):
            e[slot] = x
            if where(s, e):
                out.append(x)
        return out
