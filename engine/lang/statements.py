"""The effect language's statements: the syntax tree's nodes of a program (``let``, assignments, ``if``, loops, ``roll``).

Each compiles, as the expressions of :mod:`engine.lang.ast` do, to a closure
``fn(state, env)`` and to Python source (its ``code``); a program is a
:class:`Block` of them.

>>> from engine.lang.language import LANGUAGE, by_name
>>> from engine.lang.parser import parse_program
>>> from engine.lang.scope import Scope, Vocabulary
>>> block = parse_program("let n = 2\\nif n > 1:\\n  pass")
>>> _ = block.compile(Scope(Vocabulary(functions=by_name(LANGUAGE))))
>>> block.describe()
'let n be 2; then if n is more than 1: do nothing'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from engine.core.errors import EffectRuntimeError, SourcePos
from engine.lang import codegen
from engine.lang.scope import DRAWS, RUNS, Code, Compiled, Scope
from engine.lang.ast import Call, Name, Node, a_type, expect, negative_count, no_value, nodes, noop, refuse_negative_constant
from engine.lang.budgets import out_of_steps, weight, within_digits
from engine.lang.selections import Selection
from engine.lang.types import (
    ANY,
    BOOL,
    EFFECT,
    INT,
)


@dataclass
class Block(Node):
    """Statements run in order, one per line at the same indentation (a program, or the body of ``if``, ``for``)."""

    body: list[Node]

    def compile(self, scope: Scope) -> Compiled:
        compiled = [st.compile(scope) for st in self.body]
        for st, c in zip(self.body, compiled):
            if isinstance(st, Call) and c.type is not EFFECT and c.type is not ANY:
                scope.error(st.pos, f"'{st.describe()}' computes {a_type(c.type)} but does nothing with it",
                            "a line of a program must change the game, e.g. move(...) or shuffle(...)")
        fns = tuple(c.fn for c in compiled)
        lines: tuple[str, ...] = ()
        consts: tuple[tuple[str, Any], ...] = ()
        for c in compiled:
            more, named = codegen.statements(c)
            lines, consts = lines + more, consts + named
        code = Code("", lines, consts)
        if len(fns) == 1:
            return Compiled(EFFECT, fns[0], code=code)

        def run(s: Any, e: list[Any]) -> None:
            for f in fns:
                f(s, e)

        return Compiled(EFFECT, run, code=code)

    def describe(self) -> str:
        """The statements in order; a block statement with more after it is in brackets, so that what follows it
        reads as after it, not as the end of its block: ``(if A: X); then Y``."""
        last = len(self.body) - 1
        return "; then ".join(f"({st.describe()})" if i < last and isinstance(st, BLOCK_STATEMENTS) else st.describe()
                              for i, st in enumerate(self.body))


@dataclass
class Pass(Node):
    """``pass``: a statement that does nothing."""

    def compile(self, scope: Scope) -> Compiled:
        return Compiled(EFFECT, noop, code=Code("", ("pass",)))

    def describe(self) -> str:
        return "do nothing"


@dataclass
class Let(Node):
    """``let n = count(hand(r))``: a name for a value, known to the end of its block."""

    name: str
    value: Node

    def compile(self, scope: Scope) -> Compiled:
        c = self.value.compile(scope)
        if scope.outer_defines(self.name):  # a second name, gone at the block's end: the outer one never changes
            again = ", so the loop (its test, its next pass) still reads the outer one" if scope.looping else ""
            scope.error(self.pos, f"'{self.name}' is already a name of a block around this one: this 'let' would make "
                                  f"a second '{self.name}', which ends with its block{again}",
                        f"a name keeps its value: pick another name here, or keep a value that changes in a counter "
                        f"('counters:', then '{self.name} = ...')")
        scope.check_new_name(self.name, self.pos, "in the lines after it")
        slot = scope.bind(self.name, c.type)
        if c.texts is not None:
            scope.texts[slot] = c.texts
        f = c.fn

        def let(s: Any, e: list[Any]) -> None:
            e[slot] = f(s, e)

        value, consts = codegen.expr(c)
        return Compiled(EFFECT, let, code=Code("", (f"e[{slot}] = {value}",), consts))

    def describe(self) -> str:
        return f"let {self.name} be {self.value.describe()}"


Writer = Callable[[Any, list[Any], Callable[[Any], Any]], None]
"""Changes an assignment target: ``write(state, env, combine)`` stores ``combine(old value)``."""


@dataclass
class Assign(Node):
    """``gold(r) += 2``, ``round = 1``: change a value the ruleset declares changeable (a counter).

    The target's name is looked up in the vocabulary's ``assignable`` table;
    an entry says whether it is written as a bare name (``bare``) or a call
    and compiles a :data:`Writer` for it.
    """

    target: Node
    op: str
    value: Node

    def compile(self, scope: Scope) -> Compiled:
        name = self.target.name if isinstance(self.target, Name) else self.target.func if isinstance(self.target, Call) else ""
        assignable = scope.vocab.data.get("assignable", {})
        handler = assignable.get(name)
        if handler is None and isinstance(self.target, Name) and name not in scope.vocab.globals:
            meant = self.value.compile(scope)  # its own problems, if any
            if scope.defines(name) and name in scope.unlet:
                pass  # 'x = 1' then 'x = 2': the first said to write 'let'
            elif scope.defines(name):
                scope.error(self.pos, f"'{name}' is a name ('let' or a loop's), and a name keeps its value: '{self.op}' "
                                      "cannot change it", "to keep a number that changes, declare a counter under 'counters:'")
            elif self.op == "=":
                scope.error(self.pos, f"'{name}' is not a counter, so '=' cannot change it",
                            f"to name a value, write 'let {name} = ...'; a number that changes is a counter ('counters:')")
                scope.bind(name, meant.type)  # read on as the 'let' it was meant to be: its uses are no more errors
                scope.unlet.add(name)
            else:
                self._not_a_counter(scope, name, assignable)
            return Compiled(EFFECT, noop)
        value = self.value.compile(scope)
        expect(scope, self.value, value, INT, f"the value in '{self.op}'")
        if scope.pure:
            scope.error(self.pos, f"'{self.describe()}' changes the game, which a condition or score can't do")
        scope.reach.add(RUNS)
        if handler is not None and isinstance(self.target, Name) != handler.bare:
            form = getattr(handler, "form", None) or (name if handler.bare else f"{name}(OWNER)")  # a keyed counter's own
            kept = getattr(handler, "kept", None) or ("one number for the whole game" if handler.bare else "kept per owner")
            scope.error(self.pos, f"'{name}' is {kept}: write {form} {self.op} ...")
            return Compiled(EFFECT, noop)
        if handler is None or not isinstance(self.target, (Name, Call)):
            self._not_a_counter(scope, name, assignable)
            return Compiled(EFFECT, noop)
        write, f, op, pos, node = handler.compile_write(self.target, scope), value.fn, self.op, self.pos, self.value

        def change(s: Any, e: list[Any]) -> None:
            amount = f(s, e)
            if amount is None and op != "=":  # adding or taking nothing (e.g. the value of no choice) does nothing
                return
            if amount is None:  # set to nothing: the counter would hold no number
                raise no_value(f"'{op}'", ((node, amount),), pos)
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise EffectRuntimeError(f"'{op}' needs a number, not {amount!r}", pos)
            write(s, e, (lambda old: amount) if op == "=" else (lambda old: within_digits(s, old + amount, pos)) if op == "+="
                  else (lambda old: within_digits(s, old - amount, pos)))

        return Compiled(EFFECT, change)

    def _not_a_counter(self, scope: Scope, name: str, assignable: Any) -> None:
        from engine.core.errors import did_you_mean

        scope.error(self.pos, f"only a counter can be changed with '{self.op}', and '{self.target.describe()}' is not one",
                    did_you_mean(name, assignable) or "declare it under 'counters:' in the ruleset, e.g. gold: {per: role, start: 0}")

    def describe(self) -> str:
        target, value = self.target.describe(), self.value.describe()
        if self.op == "+=":
            return f"add {value} to {target}"
        if self.op == "-=":
            return f"take {value} from {target}"
        return f"set {target} to {value}"


@dataclass
class For(Node):
    """``for c in hand(r) where c.value > 2:`` and an indented body run once per item, in order."""

    var: str
    source: Node
    where: Node | None
    body: Block

    def compile(self, scope: Scope) -> Compiled:
        looping, scope.looping = scope.looping, True  # the items may be listed as the body runs
        try:
            sel = Selection(self.pos, self.var, self.source, self.where).compile_parts(scope)
            inner = scope.child()
        finally:
            scope.looping = looping
        inner.locals[self.var] = (sel.slot, sel.item_type)
        inlined = inner.inlined[0]
        compiled = self.body.compile(inner)
        body = compiled.fn
        items, slot = sel.items, sel.slot
        steps = weight(nodes(self.body) + inner.inlined[0] - inlined)
        budget = _budget_guard(self.pos, "'for' loop", steps)

        def run(s: Any, e: list[Any]) -> None:
            for x in items(s, e):
                budget(s)
                e[slot] = x
                body(s, e)

        return Compiled(EFFECT, run, code=_loop(None, items, slot, compiled, self.pos, "'for' loop", steps))

    def describe(self) -> str:
        where = f" where {self.where.describe()}" if self.where else ""
        return f"for each {self.var} in {self.source.describe()}{where}: {self.body.describe()}"


@dataclass
class If(Node):
    """``if ...:``, any ``elif ...:`` and an optional ``else:``, each with an indented body."""

    branches: list[tuple[Node, Block]]
    otherwise: Block | None

    def compile(self, scope: Scope) -> Compiled:
        compiled = []
        lines: list[str] = []
        consts: tuple[tuple[str, Any], ...] = ()
        for i, (test, body) in enumerate(self.branches):
            t = test.compile(scope)
            expect(scope, test, t, BOOL, "the condition of 'if'")
            b = body.compile(scope.child())
            compiled.append((t.fn, b.fn))
            (condition, ct), (block, cb) = codegen.expr(t), codegen.statements(b)
            lines += [f"{'elif' if i else 'if'} {condition}:", *codegen.indent(block)]
            consts += ct + cb
        otherwise = self.otherwise.compile(scope.child()) if self.otherwise else None
        if otherwise is not None:
            block, cb = codegen.statements(otherwise)
            lines += ["else:", *codegen.indent(block)]
            consts += cb
        other = otherwise.fn if otherwise is not None else noop
        pairs = tuple(compiled)

        def run(s: Any, e: list[Any]) -> None:
            for test, body in pairs:
                if test(s, e):
                    body(s, e)
                    return
            other(s, e)

        return Compiled(EFFECT, run, code=Code("", tuple(lines), consts))

    def describe(self) -> str:
        """The branches in order; a branch holding a block statement is in brackets, so that an 'otherwise' reads as
        this 'if''s, not as the inner one's: ``if A: (if B: X; otherwise: Y); otherwise: Z``."""
        parts = [f"{'otherwise, if' if i else 'if'} {t.describe()}: {_bracketed(b)}"
                 for i, (t, b) in enumerate(self.branches)]
        if self.otherwise:
            parts.append(f"otherwise: {_bracketed(self.otherwise)}")
        return "; ".join(parts)


@dataclass
class Repeat(Node):
    """``repeat 3:`` and an indented body run that many times."""

    count: Node
    body: Block

    def compile(self, scope: Scope) -> Compiled:
        n = self.count.compile(scope)
        expect(scope, self.count, n, INT, "the count of 'repeat'")
        refuse_negative_constant(scope, "the count of 'repeat'", self.count, n)
        inner = scope.child()
        inner.looping = True
        inlined = inner.inlined[0]
        compiled = self.body.compile(inner)
        fn, body = n.fn, compiled.fn
        steps = weight(nodes(self.body) + inner.inlined[0] - inlined)
        budget = _budget_guard(self.pos, "'repeat' loop", steps)
        node = self

        def run(s: Any, e: list[Any]) -> None:
            for _ in range(_times(fn(s, e), node)):
                budget(s)
                body(s, e)

        count, cn = codegen.expr(n)
        name = codegen.fresh("k")
        code = _loop(f"range(times({count}, {name}))", None, None, compiled, self.pos, "'repeat' loop", steps)
        return Compiled(EFFECT, run, code=Code("", code.lines, cn + ((name, self), ("times", _times)) + code.consts))

    def describe(self) -> str:
        return f"{self.count.describe()} times: {self.body.describe()}"


@dataclass
class While(Node):
    """``while CONDITION:``: the block again and again while the condition holds, tested before each pass.

    Each pass spends the budget steps of the condition and the block, so a condition that always holds stops
    with the step budget's error, at the loop.
    """

    test: Node
    body: Block

    def compile(self, scope: Scope) -> Compiled:
        inner = scope.child()
        inner.looping = True  # the condition and the block run again after the block's changes
        inlined = inner.inlined[0]
        t = self.test.compile(inner)
        expect(scope, self.test, t, BOOL, "the condition of 'while'")
        compiled = self.body.compile(inner)
        test, body = t.fn, compiled.fn
        steps = weight(nodes(self.test) + nodes(self.body) + inner.inlined[0] - inlined)
        budget = _budget_guard(self.pos, "'while' loop", steps)

        def run(s: Any, e: list[Any]) -> None:
            while test(s, e):
                budget(s)
                body(s, e)

        (condition, ct), (block, cb) = codegen.expr(t), codegen.statements(compiled)
        where = codegen.fresh("k")
        spent = f"    spend(s, {where}, \"'while' loop\")" if steps == 1 else f"    spend(s, {where}, \"'while' loop\", {steps})"
        lines = (f"while {condition}:", spent, *codegen.indent(block))
        return Compiled(EFFECT, run, code=Code("", lines, ct + cb + ((where, self.pos), ("spend", _spend))))

    def describe(self) -> str:
        return f"while {self.test.describe()}: {self.body.describe()}"


@dataclass
class RollCase(Node):
    """One branch of ``roll``: ``odd``, ``even``, ``lo..hi`` or a single value."""

    kind: str
    low: int = 0
    high: int = 0

    def matches(self, value: int) -> bool:
        """Whether die result ``value`` is one this case of a ``roll`` statement takes."""
        if self.kind == "odd":
            return value % 2 == 1
        if self.kind == "even":
            return value % 2 == 0
        return self.low <= value <= self.high

    def describe(self) -> str:
        if self.kind in ("odd", "even"):
            return f"on an {self.kind} roll"
        if self.low == self.high:
            return f"on a {self.low}"
        return f"on {self.low} to {self.high}"


@dataclass
class Roll(Node):
    """``roll d6:`` with branches; the die comes from the state's seeded RNG."""

    sides: int
    cases: list[tuple[RollCase, Block]]

    def compile(self, scope: Scope) -> Compiled:
        for case, _ in self.cases:
            if case.kind in ("range", "value") and not (1 <= case.low <= case.high <= self.sides):
                scope.error(case.pos, f"{case.low}..{case.high} is not a face of a d{self.sides}")
        branches = tuple((case.matches, body.compile(scope.child()).fn) for case, body in self.cases)
        sides = self.sides
        scope.reach.add(DRAWS)

        def run(s: Any, e: list[Any]) -> None:
            value = s.roll_in_effect(sides)
            for matches, body in branches:
                if matches(value):
                    body(s, e)
                    return

        return Compiled(EFFECT, run)

    def describe(self) -> str:
        cases = "; ".join(f"{c.describe()}: {b.describe()}" for c, b in self.cases)
        return f"roll a d{self.sides} — {cases}"


def _loop(source: str | None, items: Any, slot: int | None, body: Compiled, pos: SourcePos | None, what: str,
          steps: int = 1) -> Code:
    """A loop's source: over ``items(s, e)`` (or the Python expression ``source``), ``steps`` budget steps per pass,
    the item into ``slot`` (if any), then the body."""
    x, name, where = codegen.fresh("x"), codegen.fresh("k"), codegen.fresh("k")
    block, consts = codegen.statements(body)
    head = f"for {x} in {name}(s, e):" if source is None else f"for {x} in {source}:"
    spent = f"    spend(s, {where}, {what!r})" if steps == 1 else f"    spend(s, {where}, {what!r}, {steps})"
    lines = (head, spent, *((f"    e[{slot}] = {x}",) if slot is not None else ()), *codegen.indent(block))
    return Code("", lines, consts + ((where, pos), ("spend", _spend)) + (((name, items),) if source is None else ()))


def _times(count: int | None, node: Repeat) -> int:
    """The count of a ``repeat`` loop; none (an item a list lacks, say) is an error at the count, not Python's.

    >>> from engine.lang.ast import Literal
    >>> _times(3, Repeat(None, Literal(None, 3), Block(None, [])))
    3
    """
    if count is None:
        raise no_value("'repeat'", ((node.count, count),), node.count.pos or node.pos)
    if count < 0:
        raise negative_count("the count of 'repeat'", node.count, count, node.count.pos or node.pos)
    return count


def _spend(s: Any, pos: SourcePos | None, what: str, steps: int = 1) -> None:
    """``steps`` steps of the state's budget for a loop pass in generated code (the error once it runs out)."""
    s.budget -= steps
    if s.budget < 0:
        raise out_of_steps(s, pos, what)


def _budget_guard(pos: SourcePos | None, what: str, steps: int = 1) -> Callable[[Any], None]:
    """A closure that spends ``steps`` steps of the state's effect budget, failing when it runs out."""

    def spend(s: Any) -> None:
        s.budget -= steps
        if s.budget < 0:
            raise out_of_steps(s, pos, what)

    return spend


BLOCK_STATEMENTS = (For, If, Repeat, While, Roll)
"""Statements holding blocks of their own: described in brackets when more statements follow them."""


def _bracketed(block: Block) -> str:
    """A branch of an 'if' in words: in brackets when it holds a block statement (see :meth:`If.describe`)."""
    words = block.describe()
    return f"({words})" if any(isinstance(st, BLOCK_STATEMENTS) for st in block.body) else words
