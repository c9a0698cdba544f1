"""The effect language's syntax tree, its expressions: one small class per construct (the statements of a
program are in :mod:`engine.lang.statements`, selections in :mod:`engine.lang.selections`, what code may
spend in :mod:`engine.lang.budgets`).

Every node keeps its source position and knows three things:

* ``compile(scope)`` — check names and types (reporting problems to the scope)
  and return a :class:`~engine.lang.scope.Compiled` closure ``fn(state, env)``;
  compiled code never walks the tree again.
* ``describe()`` — the construct in English, for ``rulecraft explain``.
* its fields, which are its syntax.

>>> from engine.lang.language import LANGUAGE, by_name
>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Scope, Vocabulary
>>> node = parse_expression("count(c in board where c.hue == h) >= 7")
>>> _ = node.compile(Scope(Vocabulary(functions=by_name(LANGUAGE))))  # binds count() (unknown names go to the scope's sink)
>>> node.describe()
'(the number of c in board where the hue of c is h) is at least 7'
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from engine.core.errors import EffectRuntimeError, SourcePos
from engine.core.showtext import as_one_line
from engine.lang import codegen
from engine.lang.budgets import out_of_steps, scope_limits, too_large_message
from engine.lang.scope import RUNS, Code, Compiled, Fn, Scope
from engine.lang.types import (
    ANY,
    BUILT_IN,
    ANY_COMPONENT,
    ZONE,
    BOOL,
    CELL,
    DIE,
    EFFECT,
    INT,
    NONE_T,
    STR,
    Enum,
    FaceOf,
    ListOf,
    Type,
)


# ------------------------------------------------------------------ base


class Describes(Protocol):
    """What a call needs of the function it names: its English (engine.lang.functions.Function has it)."""

    def describe(self, call: "Call") -> str: ...


@dataclass
class Node:
    """A construct of the language, with where it was written (``pos``: file, line, column)."""

    pos: SourcePos | None = field(repr=False, compare=False)

    def compile(self, scope: Scope) -> Compiled:  # pragma: no cover - abstract
        """Type-check against ``scope`` (reporting problems to its sink) and return the function that runs it."""
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        """The code in English, for ``rulecraft explain`` and error messages."""
        raise NotImplementedError


def expect(scope: Scope, node: Node, compiled: Compiled, wanted: Type, what: str, hint: str | None = None) -> None:
    """Report a type error unless ``compiled`` fits ``wanted``, with ``hint`` when no hint of its own fits better.
    The word ``none`` where true or false is wanted (``sorted(x, highest_first = none)``, ``if none:``) is one too:
    it was read as false without a word.
    """
    if wanted == BOOL and isinstance(node, Literal) and node.value is None:
        scope.error(node.pos, f"{what} must be true or false, not none", "write false if it never holds")
        return
    if not wanted.accepts(compiled.type):
        words = "a whole number" if wanted == INT else "true or false" if wanted == BOOL else a_type(wanted)  # as the YAML uses say
        if _option_named(scope, node, compiled) and scope.sink.option_misused(node.name, node.pos, words):  # type: ignore[attr-defined]
            return
        scope.error(node.pos, f"{what} must be {a_type(wanted)}, but '{node.describe()}' is {a_type(compiled.type)}",
                    _die_hint(node, compiled.type, wanted) or _quoted_value(scope, node, wanted) or hint)


def _die_hint(node: Node, got: Type, wanted: Type) -> str | None:
    """How to write a die where a number was written (``roll(6)``), or to roll one where a number is wanted (``+= d6``).

    >>> _die_hint(Literal(None, 6, INT), INT, DIE), _die_hint(Die(None, 6, "d6"), DIE, INT)
    ('a die is written d6: roll(d6)', 'a die is rolled with roll(d6)')
    """
    if wanted == DIE and isinstance(node, Literal) and got in (INT, STR):
        sides = str(node.value).lower().lstrip("d")
        return f"a die is written d{sides}: roll(d{sides})" if sides.isdigit() else "a die is written like d6: roll(d6)"
    if wanted == INT and got == DIE:
        return f"a die is rolled with roll({node.text if isinstance(node, Die) and node.text else 'd6'})"
    return None


def _option_named(scope: Scope, node: Node, compiled: Compiled) -> bool:
    """True when ``node`` is the bare name of one of the ruleset's options (not a local of that name)."""
    known = scope.vocab.globals.get(node.name) if isinstance(node, Name) else None
    return known is not None and compiled.fn is known.fn and node.name in scope.vocab.data.get("options", ())


def a_type(t: Type) -> str:
    """The type with its article, for a message: ``a number``, ``an int``.

    >>> a_type(INT)
    'an int'
    """
    s = str(t)
    vowel = s[:1] in "aeio" or s[:1] == "u" and not s.startswith(("uni", "use", "usu"))
    return ("an " if vowel else "a ") + s


def _a_value(node: Node, c: Compiled) -> str:
    """What ``node`` is, for a message: ``a zone``, ``an empty list`` (not ``a list of any``, the type of ``[]``), a
    local name with its type (``'n', a component``: a parameter written without a type is one).

    >>> _a_value(Name(None, "n"), Compiled(INT, None, slot=0))
    "'n', an int"
    """
    if isinstance(node, Name) and c.slot is not None:
        return f"'{node.name}', {a_type(c.type)}"
    return "an empty list" if isinstance(node, ListLit) and not node.items else a_type(c.type)


def _const(c: Compiled) -> Compiled:
    """Fold a constant expression to a closure returning its value (code whose types are wrong, already reported, stays)."""
    if c.constant:
        try:
            value = c.fn(None, [])
        except (TypeError, EffectRuntimeError):  # reported when it runs, at its position
            return Compiled(c.type, c.fn)
        text, consts = codegen.constant(value)
        return Compiled(c.type, lambda s, e, v=value: v, True, code=Code(text, None, consts))
    return c


# ------------------------------------------------------------------ literals


@dataclass
class Literal(Node):
    """A value written as itself: ``3``, ``true``, ``none``, ``"pass"``."""

    value: Any
    type: Type = ANY

    def compile(self, scope: Scope) -> Compiled:
        v = self.value
        text, consts = codegen.constant(v)
        return Compiled(self.type, lambda s, e: v, True, code=Code(text, None, consts))

    def describe(self) -> str:
        if self.value is None:
            return "nothing"
        if self.value is True or self.value is False:
            return "true" if self.value else "false"
        if isinstance(self.value, str) and self.type is STR:  # in one line: a line break in it began a line of its own
            return f'"{as_one_line(self.value)}"'
        return str(self.value)


@dataclass
class Die(Node):
    """``d6``: a die with a number of sides (used by ``roll`` and ``roll(d6)``).

    A name written like a die (a function's parameter ``d2``) is that name where one is defined.
    """

    sides: int
    text: str = field(default="", compare=False)  # as written: ``d6``
    named: bool = field(default=False, compare=False)  # set when compiled: the text names a variable

    def compile(self, scope: Scope) -> Compiled:
        if self.text and scope.defines(self.text):
            self.named = True
            return scope.lookup(self.text, self.pos)
        n = self.sides
        return Compiled(DIE, lambda s, e: n, True)

    def describe(self) -> str:
        article = "an" if str(self.sides)[:1] == "8" or self.sides in (11, 18) else "a"  # an 8-, an 11-, an 18-sided die
        return self.text if self.named else f"{article} {self.sides}-sided die"


@dataclass
class TupleLit(Node):
    """``(x, y)``: a cell on a board."""

    items: list[Node]

    def compile(self, scope: Scope) -> Compiled:
        parts = [i.compile(scope) for i in self.items]
        for node, c in zip(self.items, parts):
            expect(scope, node, c, INT, "a coordinate")
        if len(parts) != 2:
            scope.error(self.pos, f"a cell has 2 coordinates, not {len(parts)}")
        fns = [p.fn for p in parts]
        if all(p.constant for p in parts):
            value = tuple(f(None, []) for f in fns)
            return Compiled(CELL, lambda s, e: value, True)
        return Compiled(CELL, lambda s, e: tuple(f(s, e) for f in fns),
                        code=_listed_code(parts, "({})") if len(parts) == 2 else None)

    def describe(self) -> str:
        return "(" + ", ".join(i.describe() for i in self.items) + ")"


@dataclass
class ListLit(Node):
    """A list written out: ``[1, 2, 3]``, ``["yes", "no"]``."""

    items: list[Node]

    def compile(self, scope: Scope) -> Compiled:
        parts = [i.compile(scope) for i in self.items]
        typed = [p.type for p in parts if p.type is not NONE_T]  # none fits a list of anything: [none, 1] as [1, none]
        item = typed[0] if typed else parts[0].type if parts else ANY
        for node, c in zip(self.items, parts):
            expect(scope, node, c, item, "every item of a list",
                   None if {item, c.type} & {INT, BOOL, STR} else MIXED_LIST)
        fns = [p.fn for p in parts]
        constant = all(p.constant for p in parts)
        return Compiled(ListOf(item), lambda s, e: [f(s, e) for f in fns], constant,
                        code=None if constant or len(parts) > LISTED_CODE else _listed_code(parts, "[{}]"))

    def describe(self) -> str:
        return "[" + ", ".join(i.describe() for i in self.items) + "]"


MIXED_LIST = ("a list holds values of one type, its first item's: a choice of two things of different types, such as "
              "what to do and what to do it to, is two choose() one after the other")
"""The hint to a list written with items of two types (``[a, c]``: a value of one type and a component), which cannot
be one option."""

LISTED_CODE = 64
"""The most items a list written out in code is built by generated source from: a longer one (thousands of values
written out) stays the closure, as the source would only make the function's passes long for no gain."""


def _listed_code(parts: list[Compiled], form: str) -> Code | None:
    """Source building a cell (``form`` ``"({})"``) or a list (``"[{}]"``) of ``parts``, each computed in order as
    the closure does; None when no part has source of its own (calling the closure is then as quick).

    >>> from engine.lang.types import INT
    >>> print(_listed_code([Compiled(INT, None, code=Code("e[1]")), Compiled(INT, None, code=Code("2"))], "({})").expr)
    (e[1], 2)
    """
    if not parts or all(p.code is None for p in parts):
        return None
    texts, consts = [], ()
    for p in parts:
        text, more = codegen.expr(p)
        texts.append(text)
        consts += more
    return Code(form.format(", ".join(texts)), None, consts)


# ------------------------------------------------------------------ names


@dataclass
class Name(Node):
    """A name: a local (``let``, a loop's variable, a parameter) or one the ruleset or the engine defines
    (``roles``, ``current_role``, an option, a type's value)."""

    name: str
    words: str = field(default="", compare=False)  # set when compiled, for a built-in name with English of its own

    def compile(self, scope: Scope) -> Compiled:
        compiled = scope.lookup(self.name, self.pos)
        if compiled.slot is None:  # not a local variable
            self.words = scope.vocab.data.get("spoken", {}).get(self.name, "")
        return compiled

    def describe(self) -> str:
        return self.words or self.name


@dataclass
class Attr(Node):
    """``base.name``: an attribute the vocabulary defines for the base's type."""

    base: Node
    name: str
    printed: bool = field(default=False, compare=False)  # a counter has the same name: say "the printed ..."

    def compile(self, scope: Scope) -> Compiled:
        base = self.base.compile(scope)
        self.printed = self.name in scope.vocab.data.get("assignable", {})
        if base.type is ANY:
            if not scope.reported_here:  # else it follows from a problem already reported (an unknown name, say)
                scope.error(self.pos, f"cannot read '{self.name}' of '{self.base.describe()}': its type is not known")
            return Compiled(ANY, base.fn)
        key = _type_key(base.type)
        entry = scope.vocab.attributes.get((key, self.name))
        if entry is None:
            from engine.core.errors import did_you_mean

            names = scope.vocab.attribute_names(key)
            hint = did_you_mean(self.name, names)
            if hint is None and self.name in scope.vocab.functions:  # current_role.hand: a zone or counter per role
                of = self.base.name if isinstance(self.base, Name) else "..."
                hint = f"'{self.name}' is a function: write {self.name}({of})"
            if hint is None and names:
                hint = "known: " + ", ".join(names)
            scope.error(self.pos, f"{a_type(base.type)} has no attribute '{self.name}'", hint)
            return Compiled(ANY, base.fn)
        _type, compile_, _text = entry
        return compile_(base)

    def describe(self) -> str:
        return f"the {'printed ' * self.printed}{self.name} of {self.base.describe()}"


def as_collection(c: Compiled, node: "Node | None" = None) -> Compiled:
    """A zone used where a collection is expected reads as the zone's contents.  A zone worked out during play
    (``nth(piles, i)``, a ``let``) may be none: reading it stops the game with an error at ``node``, the code that
    gave it, as a ``move`` to none does, where Python's own error escaped.

    >>> read = as_collection(Compiled(ZONE, lambda s, e: None), Name(None, "pile"))
    >>> try:
    ...     read.fn(None, [])
    ... except EffectRuntimeError as err:
    ...     print(err)
    there is no zone to read here: 'pile' is none
    """
    if c.type is ZONE:
        f = c.fn
        zone, consts = codegen.expr(c)
        if c.constant:
            return Compiled(ListOf(ANY_COMPONENT), lambda s, e: s.zones[f(s, e)], code=Code(f"s.zones[{zone}]", None, consts))
        words = node.describe() if node is not None else "it"
        pos = node.pos if node is not None else None

        def contents(s: Any, z: Any) -> list[int]:
            if z is None:
                raise EffectRuntimeError(f"there is no zone to read here: '{words}' is none", pos)
            return s.zones[z]

        if c.code is not None and c.code.present:  # a zone a table gives (a role's hand), never none: read in place
            code = Code(f"s.zones[{zone}]", None, consts)
        else:
            name = codegen.fresh("k")
            code = Code(f"{name}(s, {zone})", None, consts + ((name, contents),))
        return Compiled(ListOf(ANY_COMPONENT), lambda s, e: contents(s, f(s, e)), code=code)
    return c


def _type_key(t: Type) -> str:
    """The vocabulary key for attributes of values of type ``t``."""
    if isinstance(t, FaceOf):
        return f"face of {t.name}"
    if isinstance(t, Enum):
        return "enum"
    return t.name


# ------------------------------------------------------------------ operators


def negative_count(word: str, node: Node, count: int, pos: SourcePos | None) -> EffectRuntimeError:
    """The error for a count below 0 (``move(..., n)``, ``repeat n:``), which did nothing without a word.

    >>> str(negative_count("move()'s count", Name(None, "n"), -1, SourcePos("r.yaml", 3, 5)))
    "r.yaml:3:5: move()'s count is -1 here (n): a count is 0 or more (where less means none, write max(0, ...) around it)"
    """
    return EffectRuntimeError(f"{word} is {count} here ({node.describe()}): a count is 0 or more "
                              "(where less means none, write max(0, ...) around it)", pos)


def refuse_negative_constant(scope: Any, word: str, node: Node, compiled: Any) -> None:
    """At load, the error for a count written as a constant below 0 (``move(c in deck, hand, -1)``)."""
    if compiled.constant:
        value = compiled.fn(None, [])
        if value.__class__ is int and value < 0:
            scope.error(node.pos or None, f"{word} is {value}: a count is 0 or more")


def no_value(word: str, operands: tuple[tuple[Node, Any], ...], pos: SourcePos | None) -> EffectRuntimeError:
    """The error for a number operation given nothing: a component without the attribute read, say.

    >>> str(no_value("'>'", ((Name(None, "cost"), None), (Literal(None, 2), 2)), SourcePos("r.yaml", 3, 5)))
    "r.yaml:3:5: cost has no value here (nothing is written for it), so '>' cannot use it"
    """
    missing = next((node for node, value in operands if value is None), operands[0][0])
    if isinstance(missing, Literal):
        return EffectRuntimeError(f"{word} needs a number, not none", pos)
    left_out = ""
    if isinstance(missing, Attr) and missing.name not in BUILT_IN:  # a component that leaves its attribute out
        left_out = (f"; a component that leaves out {missing.name} reads none: write it, or give the attribute a "
                    f"default ({missing.name}: {{type: int, default: 0}})")
    return EffectRuntimeError(f"{missing.describe()} has no value here (nothing is written for it), so {word} cannot use "
                              f"it{left_out}", pos)


@dataclass
class Neg(Node):
    """``-x``: a number's opposite."""

    operand: Node

    def compile(self, scope: Scope) -> Compiled:
        c = self.operand.compile(scope)
        expect(scope, self.operand, c, INT, "the operand of '-'")
        f, node, pos = c.fn, self.operand, self.pos

        def negate(s: Any, e: list[Any]) -> int:
            value = f(s, e)
            if value is None:
                raise no_value("'-'", ((node, value),), pos)
            return -value

        code = codegen.negation(c) if scope.pure else None
        return _const(Compiled(INT, negate, c.constant, code=code))

    def describe(self) -> str:
        inner = self.operand.describe()
        return f"minus ({inner})" if " " in inner else f"minus {inner}"


@dataclass
class Not(Node):
    """``not x``: the opposite of a condition."""

    operand: Node

    def compile(self, scope: Scope) -> Compiled:
        c = self.operand.compile(scope)
        expect(scope, self.operand, c, BOOL, "the operand of 'not'")
        f = c.fn
        a, consts = codegen.expr(c)
        return Compiled(BOOL, lambda s, e: not f(s, e), c.constant, code=Code(f"(not {a})", None, consts))

    def describe(self) -> str:
        return f"not ({self.operand.describe()})"


_ARITH: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.floordiv,
    "%": operator.mod,
}
_ARITH_WORDS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}


@dataclass
class BinOp(Node):
    """Arithmetic on two numbers: ``a + b``, ``a - b``, ``a * b``, ``a / b`` (whole numbers: rounded down, as Python's ``//``), ``a % b``."""

    op: str
    left: Node
    right: Node

    def compile(self, scope: Scope) -> Compiled:
        a, b = self.left.compile(scope), self.right.compile(scope)
        if STR in (a.type, b.type):  # one problem, said once: the value it would have is unknown to the code around it
            scope.error(self.pos, f"'{self.op}' works on whole numbers, not on texts",
                        "texts are not joined or computed: write each text whole, as an action menu lists its "
                        "texts (choose(a in [\"take\", \"pass\"]))" if self.op == "+" else None)
            return Compiled(ANY, noop)
        expect(scope, self.left, a, INT, f"the left side of '{self.op}'")
        expect(scope, self.right, b, INT, f"the right side of '{self.op}'")
        fa, fb, op = a.fn, b.fn, _ARITH[self.op]
        if self.op in "/%":
            pos = self.pos

            def divide(s: Any, e: list[Any]) -> int:
                d = fb(s, e)
                if d == 0:
                    raise EffectRuntimeError("division by zero", pos)
                n = fa(s, e)
                try:
                    return op(n, d)
                except TypeError:
                    raise no_value(f"'{self.op}'", ((self.left, n), (self.right, d)), pos) from None

            return Compiled(INT, divide)
        bound, pos = scope_limits(scope).integer_bound, self.pos
        if a.constant and b.constant and INT.accepts(a.type) and INT.accepts(b.type):
            x, y = fa(None, []), fb(None, [])
            try:
                value = op(x, y)
            except TypeError:
                scope.error(pos, no_value(f"'{self.op}'", ((self.left, x), (self.right, y)), pos).message)
                value = 0
            if not -bound < value < bound:
                scope.error(pos, too_large_message(scope_limits(scope)))
                value = 0
            text, consts = codegen.constant(value)
            return Compiled(INT, lambda s, e: value, True, code=Code(text, None, consts))

        def arithmetic(s: Any, e: list[Any]) -> int:
            x, y = fa(s, e), fb(s, e)
            try:
                value = op(x, y)
            except TypeError:
                raise no_value(f"'{self.op}'", ((self.left, x), (self.right, y)), pos) from None
            if -bound < value < bound:
                return value
            raise EffectRuntimeError(too_large_message(s.game.limits), pos)

        def too_large(s: Any) -> int:
            raise EffectRuntimeError(too_large_message(s.game.limits), pos)

        code = codegen.arithmetic(self.op, a, b, bound, too_large) if scope.pure else None
        return Compiled(INT, arithmetic, code=code)

    def describe(self) -> str:
        """Operands that bind more loosely keep the brackets the source needed: ``(x + y) % 2``; so does an operand
        read out with a "where" or an "over" at its end, which would seem to run on into the operation:
        ``count(x in xs where x > 1) * 2`` is "(the number of x in xs where x is more than 1) times 2"."""
        level = _binding(self)
        return f"{_closed(self.left, level)} {_ARITH_WORDS[self.op]} {_closed(self.right, level + 1)}"


def _closed(node: Node, level: int) -> str:
    """An operand of arithmetic, in brackets when it binds more loosely than ``level`` or its words end in a condition
    or a range ("where ...", "over ...") that the operation's words would seem to belong to.

    >>> _closed(Name(None, "x"), 5)
    'x'
    """
    text = grouped(node, level)
    return f"({text})" if not text.startswith("(") and (" where " in text or ", over " in text) else text


OPERAND = 6
"""Binds tighter than any operation: a name, a literal, a call or an attribute."""


def _binding(node: Node) -> int:
    """How tightly ``node`` binds as an operand, as the grammar ranks it (higher binds tighter).

    >>> _binding(BinOp(None, "*", Name(None, "a"), Name(None, "b"))) > _binding(BinOp(None, "+", Name(None, "a"), Name(None, "b")))
    True
    """
    if isinstance(node, Cond):
        return 0
    if isinstance(node, BoolOp):
        return 1
    if isinstance(node, Not):
        return 2
    if isinstance(node, (Compare, Member)):
        return 3
    if isinstance(node, BinOp):
        return 4 if node.op in "+-" else 5
    return 9


def grouped(node: Node, level: int = OPERAND) -> str:
    """``node`` described, in brackets when it binds more loosely than ``level`` (by default: any operation, as
    an argument read out "of" it needs).

    >>> grouped(BinOp(None, "+", Name(None, "x"), Name(None, "y")), 5)
    '(x plus y)'
    """
    text = node.describe()
    return f"({text})" if _binding(node) < level else text


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_COMPARE_WORDS = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
}


def _quoted_value(scope: Scope, node: Node, other: Type) -> str | None:
    """A hint when ``node`` is text naming a value of ``other``, a declared type: such a value is written unquoted."""
    if not (isinstance(node, Literal) and node.type is STR and isinstance(other, Enum)):
        return None
    known = scope.vocab.globals.get(node.value)
    if known is None or known.type != other:
        return None
    return f"write {node.value} without quotes: the values of {other} are names, not text"


def _empty_zone(node: "Compare", left: Type, right: Type) -> str | None:
    """The hint for a zone compared with a list (``hand(r) == []``): zones are counted.

    >>> _empty_zone(Compare(None, "==", Name(None, "deck"), ListLit(None, [])), ZONE, ListOf(ANY))
    'to test that a zone is empty, write count(ZONE) == 0 (!= 0: it holds something)'
    """
    if ZONE not in (left, right) or not any(isinstance(side, ListLit) for side in (node.left, node.right)):
        return None
    return "to test that a zone is empty, write count(ZONE) == 0 (!= 0: it holds something)"


@dataclass
class Compare(Node):
    """A comparison: ``a == b``, ``a != b``, ``a < b``, ``a <= b``, ``a > b``, ``a >= b``."""

    op: str
    left: Node
    right: Node

    def compile(self, scope: Scope) -> Compiled:
        a, b = self.left.compile(scope), self.right.compile(scope)
        if self.op in ("==", "!="):
            if not (a.type.accepts(b.type) or b.type.accepts(a.type)):
                named = "," if isinstance(self.left, Name) and a.slot is not None else ""  # 'n', a component, with
                scope.error(self.pos, f"cannot compare {_a_value(self.left, a)}{named} with {_a_value(self.right, b)}",
                            _quoted_value(scope, self.right, a.type) or _quoted_value(scope, self.left, b.type)
                            or _empty_zone(self, a.type, b.type))
            else:
                _never_offered(scope, self, a, b) or _never_offered(scope, self, b, a)
        else:
            expect(scope, self.left, a, INT, f"the left side of '{self.op}'")
            expect(scope, self.right, b, INT, f"the right side of '{self.op}'")
        hint = None
        if self.op == "==" and a.table is not None and (b.constant or (b.slot is not None and b.slot != a.table[0])):
            hint = ("eq", a.table[0], ((a.table[1], b),))
        return Compiled(BOOL, _comparison(self, a, b), a.constant and b.constant, hint=hint, code=self._code(a, b, scope))

    def _code(self, a: Compiled, b: Compiled, scope: Scope) -> Code:
        (left, ca), (right, cb) = codegen.expr(a), codegen.expr(b)
        if self.op in ("==", "!=") and "None" in (left, right):  # none equals none alone: asked by identity
            other, known = (right, b) if left == "None" else (left, a)
            if known.constant:  # a literal: decided now (Python warns of 'is' with a literal, on the user's screen)
                return Code(repr((known.fn(None, []) is None) == (self.op == "==")), None, ca + cb)
            return Code(f"({other} {'is' if self.op == '==' else 'is not'} None)", None, ca + cb)
        if self.op in ("==", "!="):
            return Code(f"({left} {self.op} {right})", None, ca + cb)
        plain = codegen.ordered(self.op, a, b) if scope.pure else None
        if plain is not None:
            return plain
        name = codegen.fresh("k")
        words = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[self.op]
        return Code(f"order({words}, {left}, {right}, {name})", None, ca + cb + ((name, self), ("order", _order)))

    def describe(self) -> str:
        """A comparison, a condition or a choice compared keeps its brackets: ``(x == 1) == flag``; so does a
        selection with a condition, whose "where" would seem to run on into the comparison."""
        return f"{_selected(self.left)} {_COMPARE_WORDS[self.op]} {grouped(self.right, 4)}"


def _never_offered(scope: Scope, compare: "Compare", choice: Compiled, text: Compiled) -> bool:
    """Report a text compared with a choice among texts written out that is none of them (``act == "no thank"``
    after ``let act = choose(a in ["no thanks", "take"])``): the test would never hold.  Whether it reported."""
    if choice.texts is None or not text.constant or text.type != STR:
        return False
    value = text.fn(None, [])
    if not isinstance(value, str) or value in choice.texts:
        return False
    from engine.core.errors import did_you_mean

    offered = ", ".join(f'"{t}"' for t in choice.texts)
    passed = "a pass (optional = true) gives none: compare with none" if value == "pass" else None
    scope.error(compare.pos, f"'{value}' is never chosen here: the texts offered are {offered}, so this test "
                             f"{'never holds' if compare.op == '==' else 'always holds'}",
                passed or did_you_mean(value, choice.texts, strict=True))
    return True


def _selected(node: Node) -> str:
    """The left side of a comparison: in brackets when it binds more loosely or ends in a "where" condition.

    >>> _selected(Name(None, "x"))
    'x'
    """
    text = grouped(node, 4)
    return f"({text})" if " where " in text and not text.startswith("(") else text


def _comparison(node: Compare, a: Compiled, b: Compiled) -> Fn:
    """The closure for ``a op b``, specialised for the common equality shapes; an order asked of none is an error."""
    op, fa, fb = node.op, a.fn, b.fn
    if op in ("==", "!=") and (b.constant or b.slot is not None):
        if b.constant:
            v = b.fn(None, [])
            if op == "==":
                return lambda s, e: fa(s, e) == v
            return lambda s, e: fa(s, e) != v
        j = b.slot
        if op == "==":
            return lambda s, e: fa(s, e) == e[j]
        return lambda s, e: fa(s, e) != e[j]
    compare, word, pos = _COMPARE[op], f"'{op}'", node.pos
    if op in ("==", "!="):
        return lambda s, e: compare(fa(s, e), fb(s, e))

    def ordered(s: Any, e: list[Any]) -> bool:
        x, y = fa(s, e), fb(s, e)
        try:
            return compare(x, y)
        except TypeError:
            raise no_value(word, ((node.left, x), (node.right, y)), pos) from None

    return ordered


def item_name(node: "Node") -> str | None:
    """The name ``x in C`` gives its items when it is a selection: a name, or one written like a die (``d2 in
    rolled``, a die's name wherever no name is defined, names the items there as a loop's ``for d2 in`` does);
    None for anything else.

    >>> item_name(Name(None, "c")), item_name(Die(None, 2, "d2")), item_name(Die(None, 6)), item_name(Literal(None, 1, INT))
    ('c', 'd2', None, None)
    """
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Die) and node.text:
        return node.text
    return None


@dataclass
class Member(Node):
    """``x in collection``."""

    item: Node
    collection: Node

    def compile(self, scope: Scope) -> Compiled:
        a, b = self.item.compile(scope), as_collection(self.collection.compile(scope), self.collection)
        if not isinstance(b.type, ListOf) and b.type is not ANY:
            scope.error(self.collection.pos, f"'in' needs a collection, but '{self.collection.describe()}' is {a_type(b.type)}")
        elif isinstance(b.type, ListOf) and not (b.type.item.accepts(a.type) or a.type.accepts(b.type.item)):
            scope.error(self.pos, f"{a_type(a.type)} is never in a list of {b.type.item}",
                        _quoted_value(scope, self.item, b.type.item))
        fa, fb = a.fn, b.fn
        (left, ca), (right, cb) = codegen.expr(a), codegen.expr(b)
        few = isinstance(self.collection, ListLit) or (b.constant and _few(b.fn(None, [])))
        if few:  # a list written in the ruleset, or a short constant one: no steps spent
            return Compiled(BOOL, lambda s, e: fa(s, e) in fb(s, e), code=Code(f"({left} in {right})", None, ca + cb))
        pos, where = self.pos, codegen.fresh("k")  # a zone or a list the game makes: a step per item it looks at
        return Compiled(BOOL, lambda s, e: _member(s, fa(s, e), fb(s, e), pos),
                        code=Code(f"member(s, {left}, {right}, {where})", None, ca + cb + ((where, pos), ("member", _member))))

    def describe(self) -> str:
        if isinstance(self.collection, ListLit) and len(self.collection.items) > 1:
            *rest, last = (i.describe() for i in self.collection.items)
            return f"{self.item.describe()} is one of {', '.join(rest)} or {last}"
        return f"{self.item.describe()} is in {self.collection.describe()}"


@dataclass
class BoolOp(Node):
    """``a and b`` / ``a or b`` (the right side is evaluated only when needed)."""

    op: str
    left: Node
    right: Node

    def compile(self, scope: Scope) -> Compiled:
        a, b = self.left.compile(scope), self.right.compile(scope)
        expect(scope, self.left, a, BOOL, f"each side of '{self.op}'")
        expect(scope, self.right, b, BOOL, f"each side of '{self.op}'")
        fa, fb = a.fn, b.fn
        (left, ca), (right, cb) = codegen.expr(a), codegen.expr(b)
        if self.op == "and" and scope.pure:
            right = codegen.known_present(left, right)
        code = Code(f"({left} {self.op} {right})", None, ca + cb)
        if self.op == "and":
            hint = None
            if a.hint is not None and b.hint is not None and a.hint[1] == b.hint[1]:  # x.p == u and x.q == v
                hint = ("eq", a.hint[1], a.hint[2] + b.hint[2])
            return Compiled(BOOL, lambda s, e: fa(s, e) and fb(s, e), hint=hint, code=code)
        return Compiled(BOOL, lambda s, e: fa(s, e) or fb(s, e), code=code)

    def describe(self) -> str:
        """Mixed ``and`` / ``or`` keep their grouping: ``(a and b) or c``; so does a choice among them, ``a and (b if
        c, else d)``, read ``a and b if c, else d`` as though the ``if`` chose between all of it.

        >>> from engine.lang.parser import parse_expression
        >>> parse_expression("a > 0 and (if b then c and e else d)").describe()
        'a is more than 0 and ((c and e) if b, else d)'

        A side that is ``any`` or ``all`` of a test (compiled: its English starts ``for some`` / ``for every``) is in
        brackets too: ``for some r in roles, r is a or b`` read as though ``b`` were part of the test.
        """
        return f"{self._side(self.left)} {self.op} {self._side(self.right)}"

    def _side(self, node: Node) -> str:
        text = node.describe()
        grouped = isinstance(node, BoolOp) and node.op != self.op or isinstance(node, Cond)
        return f"({text})" if grouped or text.startswith(("for some ", "for every ")) else text


@dataclass
class Cond(Node):
    """``if c then a else b``."""

    test: Node
    then: Node
    otherwise: Node

    def compile(self, scope: Scope) -> Compiled:
        t, a, b = self.test.compile(scope), self.then.compile(scope), self.otherwise.compile(scope)
        expect(scope, self.test, t, BOOL, "the condition of 'if'")
        if not (a.type.accepts(b.type) or b.type.accepts(a.type)):
            scope.error(self.pos, f"both branches must have one type, not {a_type(a.type)} and {a_type(b.type)}")
        ft, fa, fb = t.fn, a.fn, b.fn
        (test, ct), (then, ca), (other, cb) = codegen.expr(t), codegen.expr(a), codegen.expr(b)
        return Compiled(a.type if a.type is not NONE_T else b.type, lambda s, e: fa(s, e) if ft(s, e) else fb(s, e),
                        code=Code(f"({then} if {test} else {other})", None, ct + ca + cb))

    def describe(self) -> str:
        then = self.then.describe()
        if isinstance(self.then, (Cond, BoolOp)) or " where " in then:  # a choice, 'a and b', or a selection's
            then = f"({then})"  # condition, that the "if" would seem to continue: keep the first branch in one piece
        return f"{then} if {self.test.describe()}, else {self.otherwise.describe()}"


# ------------------------------------------------------------------ calls


def nodes(node: Any) -> int:
    """How many syntax nodes ``node`` has (0 for none).

    >>> from engine.lang.parser import parse_expression
    >>> nodes(parse_expression("n + 1 > f(n)"))
    6
    """
    count, todo = 0, [node]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, Node):
            count += 1
            todo.extend(vars(item).values())
    return count


@dataclass
class Keyword(Node):
    """A call's named argument: ``by = r`` in ``choose(c in hand(r), by = r)``."""

    name: str
    value: Node

    def describe(self) -> str:
        return f"{self.name} {self.value.describe()}"


_TURN_ENDS = ("a turn ends by itself when its steps are done (the next role plays); play_again() gives the same "
              "role another turn")
_UNSORTED = ("a selection keeps its zone's order (the top first); numbers in order are sorted(VALUE for x in C), "
             "the largest value is max(VALUE for x in C), the item holding it first(x in C where VALUE == max(...)), "
             "and the N-th item nth(ZONE, N)")

# Functions a newcomer reaches for (from programming languages, or named like a turn step), and this language's way.
_REACHED_FOR = {
    "draw": "to move the first N components of a zone, write move(x in ZONE, TO_ZONE, N)",
    "len": "to count a collection, write count(x in COLLECTION) or count(ZONE)",
    "length": "to count a collection, write count(x in COLLECTION) or count(ZONE)",
    "size": "to count a collection, write count(x in COLLECTION) or count(ZONE)",
    "range": "write the numbers as a list, like [1, 2, 3]",
    "random": "to roll a die, write roll(d6)",
    "randint": "to roll a die, write roll(d6)",
    "print": "there is no print: the game's log says what each action did (rulecraft play; rulecraft check -v)",
    "log": "the game's log is written by the game: each action and change is logged (rulecraft play; rulecraft "
           "check -v)",
    "end_turn": _TURN_ENDS, "next_turn": _TURN_ENDS, "pass_turn": _TURN_ENDS,
    "empty": "to test that a zone is empty, write count(ZONE) == 0",
    "is_empty": "to test that a zone is empty, write count(ZONE) == 0",
    "sort": _UNSORTED, "reversed": _UNSORTED,
    "filter": "to pick some of the items, write a selection with 'where': x in COLLECTION where CONDITION",
    "map": "to take a value of each item, write it with 'for' inside sum, max, min, any or all: "
           "sum(VALUE for x in COLLECTION)",
    "enumerate": "an item's place in its zone is position(x), 1 for the first",
    "round": "'/' divides whole numbers, rounding down; every number is whole",
    "int": "every number is whole: '/' divides rounding down",
}


@dataclass
class Call(Node):
    """``f(args)``: a function from the vocabulary (see engine/lang/functions.py).

    Compiling a call binds it to the function the vocabulary names, whose English then describes it;
    a call not compiled yet is described as written.
    """

    func: str
    args: list[Node]
    function: Describes | None = field(default=None, compare=False)  # set when compiled: it describes the call

    def positional(self) -> list[Node]:
        """The arguments given without a name, in order."""
        return [a for a in self.args if not isinstance(a, Keyword)]

    def keywords(self) -> dict[str, Keyword]:
        """The arguments given by name (``by = r``), by name."""
        return {a.name: a for a in self.args if isinstance(a, Keyword)}

    def compile(self, scope: Scope) -> Compiled:
        fn = scope.vocab.functions.get(self.func)
        if fn is None:
            from engine.core.errors import did_you_mean

            hint = (scope.vocab.elsewhere.get(self.func) or _REACHED_FOR.get(self.func)
                    or did_you_mean(self.func, scope.vocab.functions, strict=True)
                    or f"a ruleset defines its own functions under 'functions:', like '{self.func}(role r): EXPRESSION'")
            scope.error(self.pos, f"unknown function '{self.func}'", hint)
            return Compiled(ANY, noop)
        self.function = fn
        named: set[str] = set()
        for arg in self.args:
            if isinstance(arg, Keyword):
                if arg.name in named:  # the last would win unseen
                    scope.error(arg.pos, f"{self.func}() is given '{arg.name}' twice", f"keep one '{arg.name} = ...'")
                named.add(arg.name)
        reported = len(scope.sink.items)
        compiled = fn.compile_call(self, scope)
        if compiled.type is EFFECT and scope.pure and len(scope.sink.items) == reported:
            # a condition, a score, a question's braces, a function's body: they only look at the game, yet a call
            # that changes it was let through inside a list or an 'if' ([move(...)], if A then move(...) else ...),
            # and ran at every test: an end condition moved the cards each time it was read
            scope.error(self.pos, f"{self.func}() changes the game, which a condition or score can't do",
                        "change it in a program (an effect, setup); code elsewhere only looks at the game")
        if compiled.type is EFFECT or compiled.type is ANY:  # it may change the game, and so run a hook
            scope.reach.add(RUNS)
        return compiled

    def describe(self) -> str:
        if self.function is not None:
            return self.function.describe(self)
        if len(self.args) == 1:
            return f"the {self.func} of {self.args[0].describe()}"
        return f"{self.func}({', '.join(a.describe() for a in self.args)})"


def noop(s: Any, e: list[Any]) -> None:
    """Compiled code that does nothing (``pass``, an empty branch)."""
    return None


FEW_ITEMS = 100
"""The longest constant list an 'in' test looks through without spending steps (``x in roles``, an option's list)."""


def _few(items: Any) -> bool:
    """Whether the constant ``items`` is a collection of at most :data:`FEW_ITEMS` (so ``in`` spends nothing).

    >>> _few([1, 2, 3]), _few(list(range(1000)))
    (True, False)
    """
    try:
        return len(items) <= FEW_ITEMS
    except TypeError:
        return False


def _member(s: Any, x: Any, items: Any, pos: SourcePos | None) -> bool:
    """``x in items``, spending a step of the state's budget per item it may look at (as a selection does).

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(budget=5)
    >>> _member(s, 2, [1, 2, 3], None), s.budget
    (True, 2)
    >>> _member(s, 2, None, None)  # nothing is in none
    False
    """
    try:
        s.budget -= len(items)
    except AttributeError:  # no state: constant code folded while compiling, which spends nothing
        return x in items
    except TypeError:  # a collection without a length, or none (an item past the end of a list of lists)
        items = [] if items is None else list(items)
        s.budget -= len(items)
    if s.budget < 0:
        raise out_of_steps(s, pos, "'in' test")
    return x in items


def _order(compare: Any, x: Any, y: Any, node: Compare) -> bool:
    """``x < y`` (or another order) in generated code; an order asked of none is the closures' error, at the node."""
    try:
        return compare(x, y)
    except TypeError:
        raise no_value(f"'{node.op}'", ((node.left, x), (node.right, y)), node.pos) from None
