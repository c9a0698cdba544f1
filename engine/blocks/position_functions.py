"""Effect-language functions about order and place: values in their type, components in zones and stacks.

* ``previous(v)`` / ``next(v)``: the value before / after ``v`` in its declared
  type (``none`` past either end) — "one size smaller" is ``previous(p.size)``;
* ``first(x in C where P)``: the first selected item, or ``none``;
* ``position(c)``: a component's place in its zone (1 = first); ``following(c)``:
  the component after it there, or ``none``;
* ``stack(cell)``: the pieces on a board cell, from the top down;
* ``swap(a, b)``: two components exchange places (zone places, cells, heights in stacks);
* ``place_each(CELL for x in C where P)``: every selected piece goes to its own cell, all at once (a region of the
  board turned, slid or mirrored).

Every ruleset's vocabulary offers them (:data:`POSITION_FUNCTIONS`):

>>> from engine.lang.functions import by_name
>>> by_name(POSITION_FUNCTIONS)["previous"].signature
'previous(VALUE) -> value'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.blocks.state_functions import placed_text
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.lang import ast, budgets, codegen, selections
from engine.lang.functions import Function, as_selection, describe_selection
from engine.lang.scope import Compiled, Fn, Scope
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, CELL, EFFECT, INT, Component, Enum, ListOf


@dataclass(frozen=True)
class Neighbour(Function):
    """``previous(v)`` / ``next(v)``: the value ``step`` places away from ``v`` in its type (none past the end)."""

    step: int = 1
    words: str = "the value after"

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(ANY, lambda s, e: None)
        value = args[0].compile(scope)
        if not isinstance(value.type, Enum):
            if value.type is not ANY:
                scope.error(args[0].pos, f"{self.name}() needs a value of a declared type (like a size), not {value.type}")
            return Compiled(ANY, lambda s, e: None)
        values = scope.vocab.data.get("types", {}).get(value.type.name, ())
        shifted = {v: values[i + self.step] if 0 <= i + self.step < len(values) else None for i, v in enumerate(values)}
        f = value.fn
        code = None
        if value.code is not None and value.code.lines is None:  # a table's get: a pure read (engine.lang.shared)
            text, consts = codegen.expr(value)
            name = codegen.fresh("k")
            code = codegen.Code(f"{name}.get({text})", None, consts + ((name, shifted),))
        return Compiled(value.type, lambda s, e: shifted.get(f(s, e)), code=code)

    def describe(self, call: ast.Call) -> str:
        return f"{self.words} {call.args[0].describe()}" if call.args else self.words


@dataclass(frozen=True)
class EndOf(Function):
    """``first(x in C where P)`` / ``last(x in C where P)``: the first / last selected item (the top or the bottom of
    a pile, an end of a line), or none; one class, ``last`` telling which end.

    >>> from engine.lang.functions import by_name
    >>> from engine.lang.parser import parse_expression
    >>> by_name(POSITION_FUNCTIONS)["last"].describe(parse_expression("last(line)"))
    'the last of line'
    >>> by_name(POSITION_FUNCTIONS)["first"].describe(parse_expression("first(c in deck where c.value == 1)"))
    'the first c in deck where the value of c is 1'
    """

    last: bool = False

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(ANY, lambda s, e: None)
        sel = as_selection(args[0]).compile_parts(scope)
        src, slot, where = sel.source, sel.slot, sel.where
        if self.last:
            def last(s: Any, e: list[Any]) -> Any:
                found = None
                for x in src(s, e):
                    if where is not None:
                        e[slot] = x
                        if not where(s, e):
                            continue
                    found = x
                return found

            return Compiled(sel.item_type, last)

        def first(s: Any, e: list[Any]) -> Any:
            for x in src(s, e):
                if where is None:
                    return x
                e[slot] = x
                if where(s, e):
                    return x
            return None

        return Compiled(sel.item_type, _generated_first(sel, call, scope, first) or first)

    def describe(self, call: ast.Call) -> str:
        if not call.args:
            return "nothing"
        end = "last" if self.last else "first"
        if as_selection(call.args[0]).var == "_":  # a whole collection: ``first(line)``
            return f"the {end} of {call.args[0].describe()}"
        return f"the {end} {describe_selection(call.args[0])}"


def _generated_first(sel: selections.CompiledSelection, call: ast.Call, scope: Scope, reference: Fn) -> Fn | None:
    """``first(x in C where P)`` as one generated function: the steps of ``C`` spent up front, then ``P`` written
    inside the loop, which stops at the first item passing it, as the closure does (None without a
    filter's source).

    The loop of ``first(c in hand where c.value == 3)``, C a zone::

        t1 = s.zones[2]  (its steps spent)
        for x3 in t1:
            e[0] = x3
            if (k2[x3] == 3):
                return x3
        return None
    """
    if sel.where is None or sel.test is None:
        return None
    text, consts = codegen.expr(Compiled(BOOL, sel.where, code=sel.test))
    head, items, listed = sel.listing(copy=False)
    x = codegen.fresh("x")
    condition = codegen.read_as(text, sel.slot, x, sel.present, sel.placed)
    lines = (*head, f"for {x} in {items}:", *codegen.kept_item(sel.slot, x, condition), f"    if {condition}:",
             f"        return {x}", "return None")
    return codegen.function(lines, consts + listed, call.pos, scope, reference, sel.pure)


def _place_in_zone(s: Any, c: int, pos: Any, what: str) -> tuple[list[int], int]:
    """The zone holding ``c`` and ``c``'s index in it, having spent a step of the budget per component looked at
    to find it, as a selection spends (``sum(position(c) for c in cards)`` in an end condition looked at every
    card of a 10,000-card zone for each card, a second a test, for one step each).

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(zones=[[4, 7, 9]], zone_of={9: 0}, budget=5)
    >>> _place_in_zone(s, 9, None, "position"), s.budget
    (([4, 7, 9], 2), 2)
    """
    zone = s.zones[s.zone_of[c]]
    i = zone.index(c)
    try:
        s.budget -= i + 1
    except AttributeError:  # no state: constant code folded while compiling, which spends nothing
        return zone, i
    if s.budget < 0:
        raise budgets.out_of_steps(s, pos, what)
    return zone, i


@dataclass(frozen=True)
class Position(Function):
    """``position(c)``: the component's place in its zone, 1 for the first (0 for none); ``position(v)`` of a value of
    a declared type: its place in the type (``position(low)`` is 1 for ``level: [low, high]``), as a rule reads
    a colour as a column."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        value = args[0].compile(scope)
        if isinstance(value.type, Enum):
            places = {v: i for i, v in enumerate(scope.vocab.data.get("types", {}).get(value.type.name, ()), 1)}
            f = value.fn
            return Compiled(INT, lambda s, e: places.get(f(s, e), 0))
        if not ANY_COMPONENT.accepts(value.type):
            scope.error(args[0].pos, f"{self.name}() needs a component (its place in its zone) or a value of a declared "
                        f"type (its place in the type), but '{args[0].describe()}' is {value.type}")
        item = value.fn
        pos = call.pos

        def position(s: Any, e: list[Any]) -> int:
            c = item(s, e)
            return 0 if c is None else _place_in_zone(s, c, pos, "position()")[1] + 1

        return Compiled(INT, position)

    def describe(self, call: ast.Call) -> str:
        return f"the place of {call.args[0].describe()} in its zone or type" if call.args else "0"


@dataclass(frozen=True)
class Following(Function):
    """``following(c)``: the component after ``c`` in its zone, or none."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(ANY_COMPONENT, lambda s, e: None)
        compiled = self.value(scope, args[0], ANY_COMPONENT, "component")
        item = compiled.fn
        pos = call.pos

        def following(s: Any, e: list[Any]) -> Any:
            c = item(s, e)
            if c is None:
                return None
            zone, i = _place_in_zone(s, c, pos, "following()")
            return zone[i + 1] if i + 1 < len(zone) else None

        return Compiled(compiled.type if isinstance(compiled.type, Component) else ANY_COMPONENT, following)

    def describe(self, call: ast.Call) -> str:
        return f"the component after {call.args[0].describe()} in its zone" if call.args else "nothing"


@dataclass(frozen=True)
class Stack(Function):
    """``stack(cell)``: the pieces on a board cell, from the top down."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        cell = self.value(scope, args[0], CELL, "cell").fn if args else (lambda s, e: None)
        return Compiled(ListOf(ANY_COMPONENT), lambda s, e: list(s.stack(cell(s, e))))

    def describe(self, call: ast.Call) -> str:
        return f"the pieces on {call.args[0].describe()}, from the top down" if call.args else "no pieces"


@dataclass(frozen=True)
class Swap(Function):
    """``swap(a, b)``: two components exchange places (nothing happens if either is none); the log says which, from
    where (``A at (1,0) and B in discard swap places``)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) != 2:
            return Compiled(EFFECT, lambda s, e: None)
        a, b = (self.value(scope, arg, ANY_COMPONENT, "component").fn for arg in args)

        def swap(s: Any, e: list[Any]) -> None:
            x, y = a(s, e), b(s, e)
            if x is not None and y is not None and x != y:
                if s.log is not None and s.step >= 0:
                    s.log.append(f"{placed_text(s, x)} and {placed_text(s, y)} swap places")
                s.swap(x, y)

        return Compiled(EFFECT, swap)

    def describe(self, call: ast.Call) -> str:
        return f"swap the places of {call.args[0].describe()} and {call.args[1].describe()}" if len(call.args) == 2 else "swap"


@dataclass(frozen=True)
class PlaceEach(Function):
    """``place_each(CELL for x in COLLECTION [where CONDITION])``: every selected component goes to the cell worked out
    for it, all at once: every cell is worked out on the position before any piece moves, so a piece may go where
    another one leaves (a region of the board turned a quarter, slid along a row, mirrored).  Without ``stacking``, two
    pieces may not go to one cell, nor onto a piece that stays.  The log says who went where in one line
    (``pieces move at once: A at (0,0) to (2,0), B at (2,0) to (2,2)``).

    >>> from engine.lang.functions import by_name
    >>> from engine.lang.parser import parse_expression
    >>> by_name(POSITION_FUNCTIONS)["place_each"].describe(parse_expression("place_each((p.cell.x + 1, 0) for p in board)"))
    'move every p in board to (the x of the cell of p plus 1, 0), all at once'
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(EFFECT, lambda s, e: None)
        node = as_selection(args[0])
        sel = node.compile_parts(scope)
        if sel.value is None:
            scope.error(args[0].pos, f"{self.name}() needs the cell each piece goes to, written before 'for'",
                        f"as in {self.example}")
            return Compiled(EFFECT, lambda s, e: None)
        ast.expect(scope, node.value or node, sel.value, CELL, f"the cell each piece goes to in {self.name}()")
        if sel.item_type is not ANY and not isinstance(sel.item_type, Component):
            scope.error(node.source.pos, f"{self.name}() moves components, not {sel.item_type}", f"as in {self.example}")
        items, slot, to, pos = sel.items, sel.slot, sel.value.fn, call.pos

        def place_each(s: Any, e: list[Any]) -> None:
            moves: dict[int, Any] = {}
            for x in items(s, e):
                e[slot] = x
                cell = to(s, e)
                if not isinstance(x, int):
                    raise EffectRuntimeError(f"place_each() moves components, not {x!r}", pos)
                if x in moves:
                    raise EffectRuntimeError(f"place_each() selected {placed_text(s, x)} twice", pos)
                moves[x] = cell
            _check_cells(s, moves, pos)
            shifted = [(x, c) for x, c in moves.items() if s.cell_of[x] != c]
            if not shifted:
                return
            if s.log is not None and s.step >= 0:
                s.log.append("pieces move at once: " + ", ".join(f"{placed_text(s, x)} to {s.game.cell_text(c, brackets=True)}" for x, c in shifted))
            s.place_at_once(shifted)

        return Compiled(EFFECT, place_each)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 1:
            return "place each piece"
        sel = as_selection(call.args[0])
        where = f" where {sel.where.describe()}" if sel.where is not None else ""
        cell = sel.value.describe() if sel.value is not None else "its cell"
        return f"move every {sel.var} in {sel.source.describe()}{where} to {cell}, all at once"


def _check_cells(s: Any, moves: dict[int, Any], pos: SourcePos | None) -> None:
    """Refuse cells that are none, off the board, past a growing board's limits, or (without stacking) taken twice or
    held by a piece that stays where it is."""
    grid = s.game.grid
    stacking = grid is not None and grid.stacking
    taken: dict[Any, int] = {}
    for x, cell in moves.items():
        if cell is None:
            raise EffectRuntimeError(f"place_each() was given no cell (none) for {placed_text(s, x)}", pos)
        if grid is None or not grid.contains(cell):
            raise EffectRuntimeError(f"place_each() would put {placed_text(s, x)} onto {s.game.cell_text(cell)}, which is not on the board", pos)
        if not grid.fixed and not grid.fits(s.bbox, cell):
            raise EffectRuntimeError(f"place_each() would put {placed_text(s, x)} onto {s.game.cell_text(cell)}, "
                                     "which would take the board past its limits", pos)
        if stacking:
            continue
        if cell in taken:
            raise EffectRuntimeError(f"place_each() would put {placed_text(s, taken[cell])} and {placed_text(s, x)} "
                                     f"both onto {s.game.cell_text(cell)}", pos)
        taken[cell] = x
        held = s.grid.get(cell)
        if held is not None and held not in moves:
            raise EffectRuntimeError(f"place_each() would put {placed_text(s, x)} onto {s.game.cell_text(cell)}, which "
                                     f"{placed_text(s, held)} holds and does not leave", pos)


POSITION_FUNCTIONS: tuple[Function, ...] = (
    Neighbour("previous", "previous(VALUE) -> value", "The value before this one in its declared type (none for the first).",
              "previous(p.size)", step=-1, words="the value before"),
    Neighbour("next", "next(VALUE) -> value", "The value after this one in its declared type (none for the last).",
              "next(p.size)"),
    EndOf("first", "first(x in COLLECTION [where CONDITION]) -> item", "The first selected item, or none.",
          "first(c in deck where c.value == 1)"),
    EndOf("last", "last(x in COLLECTION [where CONDITION]) -> item", "The last selected item, or none.",
          "last(c in deck where c.value == 1)", last=True),
    Position("position", "position(COMPONENT or VALUE) -> int", "The component's place in its zone (1 = first), or a "
             "declared type's value's place in its type; 0 for none.", "position(c) == 1"),
    Following("following", "following(COMPONENT) -> component", "The component after it in its zone, or none.",
              "following(c) == none"),
    Stack("stack", "stack(CELL) -> list", "The pieces on a board cell, from the top down.", "count(stack((0, 0))) >= 2"),
    Swap("swap", "swap(COMPONENT, COMPONENT)", "Two components exchange places: in zones, on board cells, in stacks.",
         "swap(a, b)"),
    PlaceEach("place_each", "place_each(CELL for x in COLLECTION [where CONDITION])",
              "Every selected component goes to the cell given for it, all at once (each cell worked out before any "
              "piece moves): a region of the board turned, slid or mirrored.",
              "place_each((2 - p.cell.y, p.cell.x) for p in board where p.cell.x <= 2 and p.cell.y <= 2)"),
)
"""The functions of order and place that every ruleset may call."""
