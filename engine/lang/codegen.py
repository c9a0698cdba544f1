"""Code generation: the effect language's operators and statements as Python source.

The closure compiler (``Node.compile``) gives every syntax node a closure
``fn(state, env)``; a condition such as ``alive(f) and team(f) != t`` then
costs a closure call per operator.  Alongside each closure, the operators,
locals, literals and statements also give their :class:`Code`: Python source
over ``s`` (the state) and ``e`` (the locals' slots), and so do the
vocabulary's reads (attributes, cells, counters, ``at``) and, in code that
changes nothing, the calls of the ruleset's own functions (written inline);
the closures of everything else — the library's functions and selections —
are named constants.  :func:`finish` turns the code of a whole
program, condition or ``where`` into one Python function, so the work
between two library calls runs as plain Python.  Within one function, a pure
read written again where its first occurrence always runs before is computed
once (:mod:`engine.lang.shared`), and a selection's loop that changes nothing
reads what its item does not change once, before it (:mod:`engine.lang.hoisted`).

Only the parsed tree is turned into source: every name in it is one this
module makes up (``e[3]``, ``k12``, ``x7``), every value a ``repr`` of a
number, truth value, text or none, everything else a constant the function
receives — so nothing a ruleset says can become code.  Errors keep their
positions (the closures and helpers raise them with the node's position),
and loops spend the step budget exactly as the closures do.  The closures
stay as the reference: ``ENABLED = False`` runs them instead, and the tests
play the shipped rulesets both ways.

>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Scope, Vocabulary
>>> from engine.lang.types import INT
>>> scope = Scope(Vocabulary())
>>> _ = scope.bind("n", INT)
>>> print(source(finish(parse_expression("n > 2 and not n == 5").compile(scope), None, scope)))  # doctest: +ELLIPSIS
def f...(s, e):
    return (order(gt, e[0], 2, k...) and (not (e[0] == 5)))
<BLANKLINE>
"""

from __future__ import annotations

import ast as pyast
import dataclasses
import itertools
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any

from engine.core.errors import SourcePos
from engine.core.showtext import one_line
from engine.lang import kept_code
from engine.lang.hoisted import hoist
from engine.lang.shared import parse_python, pure_read, share

if TYPE_CHECKING:
    from engine.lang.scope import Compiled, Scope

ENABLED = True
"""Whether :func:`finish` generates functions (False: the closures run, as the reference)."""

SHARING = True
"""Whether a generated function computes a repeated pure read once (see :mod:`engine.lang.shared`)."""

HOISTING = True
"""Whether a generated loop that changes nothing reads what does not change with its item once, before it
(see :mod:`engine.lang.hoisted`)."""

GENERATED = "generated"
"""Vocabulary data key: the source of every function generated for the ruleset, in order, with its position."""

SIMPLE_VALUES = (int, str, type(None))


@dataclass(frozen=True)
class Code:
    """Python source for a node: an expression, or statements (one per line)."""

    expr: str = ""
    lines: tuple[str, ...] | None = None  # statements; None for an expression
    consts: tuple[tuple[str, Any], ...] = ()  # the named values the source uses
    number: bool = False  # whether the value is always an int (a sum, a difference or a product)
    walkable: bool = False  # a read of items, never none, that only the game's changes change: loops walk it inline
    present: bool = False  # a value never none (a zone a table gives: a key not there raises KeyError, see LOOKUP)

_names = itertools.count(1)


def fresh(prefix: str) -> str:
    """A name no other generated code uses (``k12``; numbered anew in each function, see :func:`numbered`); a
    ruleset's names never become Python names."""
    return f"{prefix}{next(_names)}"


def expr(c: Compiled) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """Source computing ``c``'s value, with its constants (a closure without code of its own is called)."""
    if c.code is not None and c.code.lines is None:
        return c.code.expr, c.code.consts
    name = fresh("k")
    return f"{name}(s, e)", ((name, c.fn),)


def statements(c: Compiled) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """Source running ``c`` as statements, with its constants."""
    if c.code is not None and c.code.lines is not None:
        return c.code.lines, c.code.consts
    text, consts = expr(c)
    return (text,), consts


def constant(value: Any) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A value as source: a literal for a number, truth value, text or none, else a named constant."""
    if type(value) in SIMPLE_VALUES or value is True or value is False:
        return repr(value), ()
    name = fresh("k")
    return name, ((name, value),)


def indent(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Statements one level deeper (``pass`` when there are none)."""
    return tuple("    " + line for line in lines) or ("    pass",)


LOCAL = re.compile(r"e\[\d+\]|[a-z]\d+")
"""Source cheap enough to write twice: a local's slot (``e[3]``) or a generated name (``t7``)."""


_TEXT = r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
"""In generated source: a text literal."""
_SLOTS = re.compile(_TEXT + r"|\be\[(\d+)\]|\be\b")
"""In generated source: a text literal (left alone), a read of a local's slot (``e[3]``), or any other ``e``."""


def passes_locals(text: str) -> bool:
    """Whether source names the locals' slots other than to read one (``k5(s, e)``: a closure that may read any).

    >>> passes_locals("(v3 + e[1] == 'e')"), passes_locals("k5(s, e)")
    (False, True)
    """
    return any(m.group(1) is None and m.group(2) is None for m in _SLOTS.finditer(text))


def read_as(text: str, slot: int, name: str, present: bool = False, placed: bool = False) -> str:
    """``text`` reading the Python name ``name`` where it reads the local's slot ``slot``, when it hands the
    locals to nothing (:func:`passes_locals`): a loop's item, held in a local of the generated function as well
    as in its slot, is read from there.  With ``present`` (the item is never none: a component of a zone)
    its reads drop the guard against none (see :func:`guarded`); with ``placed`` too (a piece of the board, in a
    loop that changes nothing) so do the reads of its cell.  Text literals are left alone.

    >>> read_as("(k2[e[4]] == e[0]) and e[4] != 'e[4]'", 4, "x1"), read_as("k5(s, e) + e[4]", 4, "x1")
    ("(k2[x1] == e[0]) and x1 != 'e[4]'", 'k5(s, e) + e[4]')
    >>> read_as("(None if e[4] is None else k2[e[4]]) == 3", 4, "x1", present=True)
    '(k2[x1]) == 3'
    >>> read_as("(None if (None if e[4] is None else s.cell_of[e[4]]) is None else (None if e[4] is None else "
    ...         "s.cell_of[e[4]])[1])", 4, "x1", present=True, placed=True)
    '((s.cell_of[x1])[1])'
    """
    if passes_locals(text):
        return text
    text = _SLOTS.sub(lambda m: name if m.group(2) == str(slot) else m.group(0), text)
    guards = [_ITEM_GUARD] if present else []
    if present and placed:  # (the item's guard gone, its cell's reads are written thus)
        guards.append(_CELL_GUARD)
    for guard in guards:
        text = guard.sub(lambda m: "(" if m.group(2) == name else m.group(0), text)
    return text


_ITEM_GUARD = re.compile(_TEXT + r"|\(None if (\w+) is None else ")
"""In generated source: a text literal, or the guard against none of a read of a name (``(None if x1 is None else ``).
One pattern for every name: a pattern per name overran the ``re`` module's cache of 512 compiled patterns."""
_CELL_GUARD = re.compile(_TEXT + r"|\(None if \(s\.cell_of\[(\w+)\]\) is None else ")
"""In generated source: a text literal, or the guard against none of the cell of a name's piece."""


def kept_item(slot: int, x: str, *texts: str) -> tuple[str, ...]:
    """The line of a generated loop over ``x`` keeping its item in the local's slot ``slot``, for ``texts`` (the
    loop's code, the item read from ``x`` where it can be, see :func:`read_as`) that read the slot or hand the
    locals on; none when they do neither (the closures a failure runs keep their items themselves).

    >>> kept_item(2, "x5", "(k3[x5] == e[0])"), kept_item(2, "x5", "k4(s, e)")
    ((), ('    e[2] = x5',))
    """
    if any(passes_locals(text) or f"e[{slot}]" in text for text in texts):
        return (f"    e[{slot}] = {x}",)
    return ()


def once(c: Compiled) -> tuple[str, str, tuple[tuple[str, Any], ...]] | None:
    """``c``'s value as (source computing it, a name for it after that, constants), or None when it has no
    expression: ``e[3]`` serves as both; anything else is computed into a fresh local ``t7`` by ``:=``."""
    if c.code is None or c.code.lines is not None:
        return None
    text = c.code.expr
    if LOCAL.fullmatch(text) or (SHARING and pure_read(text, dict(c.code.consts))):  # a pure read: shared when written again
        return text, text, c.code.consts
    name = fresh("t")
    return f"({name} := {text})", name, c.code.consts


def guarded(base: Compiled, template: str, value: Any = None) -> Code | None:
    """The source of reading something of ``base``'s value, none staying none (None when ``base`` has no source).

    ``template`` writes the read with ``{x}`` for the base's value and ``{k}``
    for ``value``, a constant (a table of the ruleset, say):

    >>> from engine.lang.scope import Compiled
    >>> from engine.lang.types import INT
    >>> print(guarded(Compiled(INT, None, code=Code("e[2]")), "{x}[0]").expr)
    (None if e[2] is None else e[2][0])
    """
    parts = once(base)
    if parts is None:
        return None
    first, then, consts = parts
    if "{k}" in template:
        name = fresh("k")
        template, consts = template.replace("{k}", name), consts + ((name, value),)
    return Code(f"(None if {first} is None else {template.replace('{x}', then)})", None, consts)


def known_present(test: str, then: str) -> str:
    """``then``, run only once ``test`` held, without the guards against none of what ``test`` found present
    (``test`` is ``(X is not None)``, X a local or a pure read): in code that changes nothing,
    ``at(x, y) != none and at(x, y).hue == h`` reads the hue without asking again.

    >>> known_present("(s.grid.get((e[1], 0)) is not None)", "((None if s.grid.get((e[1], 0)) is None else k2[s.grid.get((e[1], 0))]) == 3)")
    '((k2[s.grid.get((e[1], 0))]) == 3)'
    """
    if not test.endswith(" is not None)"):
        return then
    try:
        node = parse_python(test, "eval").body
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return then
    if not (isinstance(node, pyast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], pyast.IsNot)
            and isinstance(node.comparators[0], pyast.Constant) and node.comparators[0].value is None):
        return then
    present = pyast.get_source_segment(test, node.left)
    if present is None or not (LOCAL.fullmatch(present) or pure_read(present)):
        return then
    return then.replace(f"(None if {present} is None else ", "(")


FALLIBLE = "fallible"
"""A constant name marking source that may meet none where a number is needed (``e[1] + 1``, ``e[0] > 2``).

Such source is written only where nothing changes (conditions, scores, the
ruleset's functions): the function generated from it catches Python's
``TypeError`` and runs the closures it replaces, which raise the error at
the node that met none, with its position.
"""


LOOKUP = "lookup"
"""A constant name marking source that may look up a key that is not there (``k3[('hand', e[1])]``, a zone of
none): like :data:`FALLIBLE`, written only where nothing changes; the function catches the ``KeyError`` and
runs the closures it replaces, which raise the error at the node."""


def arithmetic(op: str, a: Compiled, b: Compiled, bound: int, error: Any) -> Code:
    """``a + b``, ``a - b`` or ``a * b`` as source, for code that changes nothing (see :data:`FALLIBLE`).

    A product past ``bound`` (the ``integer_digits`` limit) calls ``error(s)``,
    as the closure does.  A sum or a difference is written plainly: in code
    that changes nothing each one at most doubles the larger of its operands,
    which every counter, option and literal keeps within the limit, so it
    cannot grow a number long enough to cost time or memory.

    >>> from engine.lang.scope import Compiled
    >>> from engine.lang.types import INT
    >>> print(arithmetic("+", Compiled(INT, None, code=Code("e[1]")), Compiled(INT, None, code=Code("1")), 10, None).expr)
    (e[1] + 1)
    """
    (left, ca), (right, cb) = expr(a), expr(b)
    if op != "*":
        kept = _plus_zero(a, right) or (_plus_zero(b, left) if op == "+" else None)
        if kept is not None:
            return kept
        return Code(f"({left} {op} {right})", None, ca + cb + ((FALLIBLE, True),), number=True)
    t, k = fresh("t"), fresh("k")
    return Code(f"({t} if -bound < ({t} := {left} * {right}) < bound else {k}(s))", None,
                ca + cb + (("bound", bound), (k, error), (FALLIBLE, True)), number=True)


def negation(a: Compiled) -> Code:
    """``-a`` as source, for code that changes nothing: none raises ``TypeError`` (see :data:`FALLIBLE`), and a
    number's negation is no longer than the number.

    >>> from engine.lang.scope import Compiled
    >>> from engine.lang.types import INT
    >>> print(negation(Compiled(INT, None, code=Code("e[1]"))).expr)
    (-e[1])
    """
    text, consts = expr(a)
    return Code(f"(-{text})", None, consts + ((FALLIBLE, True),), number=True)


def _plus_zero(x: Compiled, zero: str) -> Code | None:
    """``x + 0`` (``x - 0``, ``0 + x``) as ``x`` when ``x`` is always an int, else as ``+x``: both give an int
    for an int or a truth value and raise ``TypeError`` for none, as the sum does (None when ``zero`` is not 0).

    >>> from engine.lang.scope import Compiled
    >>> from engine.lang.types import INT
    >>> print(_plus_zero(Compiled(INT, None, code=Code("e[1]")), "0").expr)
    (+e[1])
    """
    if zero != "0":
        return None
    text, consts = expr(x)
    if x.code is not None and x.code.number:
        return x.code
    return Code(f"(+{text})", None, consts + ((FALLIBLE, True),), number=True)


def ordered(op: str, a: Compiled, b: Compiled) -> Code:
    """``a < b`` (or another order) as source, for code that changes nothing (see :data:`FALLIBLE`)."""
    (left, ca), (right, cb) = expr(a), expr(b)
    return Code(f"({left} {op} {right})", None, ca + cb + ((FALLIBLE, True),))


# ------------------------------------------------------------------ run-time helpers the generated code calls


HELPERS: dict[str, Any] = {  # the names generated code may use besides its constants (which bring their helpers)
    "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
    "__builtins__": {"range": range, "len": len, "list": list, "TypeError": TypeError, "KeyError": KeyError,
                     "Exception": Exception},
}


# ------------------------------------------------------------------ functions


def finish(c: Compiled, pos: SourcePos | None, scope: Scope) -> Compiled:
    """``c`` with its closure replaced by one generated function, when it has code worth generating.

    Code Python cannot compile (nested beyond its parser's limits) keeps its closure.
    """
    if not ENABLED or c.code is None:
        return c
    lines, consts = statements(c) if c.code.lines is not None else (("return " + c.code.expr,), c.code.consts)
    fn = function(lines, consts, pos, scope, c.fn)
    if fn is None:
        return c
    return dataclasses.replace(c, fn=fn)  # its code stays, to be written inline where it is used


def function(lines: tuple[str, ...], consts: tuple[tuple[str, Any], ...], pos: SourcePos | None, scope: Scope,
             reference: Any = None, unchanging: bool = False) -> Any:
    """A function ``f(s, e)`` with body ``lines`` (None when Python cannot compile it, or generation is off).

    Where the source may meet none as a number (see :data:`FALLIBLE`, :data:`LOOKUP`), the
    body runs under ``try`` and ``reference`` — the closures computing the
    same — says what went wrong (without one, such source is not generated).
    With ``unchanging`` (nothing its loops run changes anything but the step budget and their own locals)
    and a ``reference``, the loops' invariant reads are computed once, before them (:mod:`engine.lang.hoisted`).
    Its names are numbered anew (:func:`numbered`), so the same code gives the same function at every load, which
    is kept under the hash of its code (:mod:`engine.lang.kept_code`) and not made again.
    Its source is kept in the vocabulary, for ``rulecraft compile --show``.
    """
    if not ENABLED:
        return None
    lines, consts, fresh_here = numbered(lines, consts)
    where = f"{pos.file}:{pos.line}:{pos.col}" if pos is not None else "<code>"
    namespace = dict(HELPERS)
    namespace.update(consts)
    fallible, lookup = namespace.pop(FALLIBLE, False), namespace.pop(LOOKUP, False)
    if (fallible or lookup) and reference is None:
        return None
    hoisting = HOISTING and unchanging and reference is not None
    found = kept_code.key("function", "\n".join(lines), _constants(namespace, reference),
                          repr((bool(fallible), bool(lookup), hoisting, SHARING, reference is not None)))
    made = kept_code.built(found)
    if made is None:
        made = _made(lines, namespace, fresh_here, reference, hoisting, fallible, lookup, where)
        if made is None:
            return None
        kept_code.keep(found, *made)
    code, text, closures = made
    namespace.update(dict.fromkeys(closures, reference))
    fn = FunctionType(kept_code.placed(code, f"<generated from {where}>"), namespace)
    fn.generated_source = text
    scope.vocab.data.setdefault(GENERATED, []).append((where, text))
    return fn


def _made(lines: tuple[str, ...], namespace: dict[str, Any], fresh_here: Callable[[str], str], reference: Any,
          hoisting: bool, fallible: bool, lookup: bool, where: str) -> kept_code.Built | None:
    """The function of :func:`function` made anew: its code, its source and the names its namespace gives
    ``reference`` (None when Python cannot compile it).  The passes read ``namespace`` (see :func:`_constants`)."""
    name, closures = fresh_here("f"), []
    if hoisting:
        closures.append(fresh_here("k"))
        lines = hoist(lines, fresh_here, namespace, closures[-1])
        namespace[closures[-1]] = reference
    if SHARING:
        lines = share(lines, fresh_here, namespace)
    if fallible or lookup:
        closures.append(fresh_here("k"))
        namespace[closures[-1]] = reference
        caught = "(TypeError, KeyError)" if lookup else "TypeError"
        why = "none where a number is needed" + (", or a key that is not there" if lookup else "")
        lines = ("try:", *indent(lines), f"except {caught}:  # {why}: the closures say where",
                 f"    return {closures[-1]}(s, e)")
    text = "\n".join(wrap(line) for line in (f"def {name}(s, e):", *indent(lines))) + "\n"
    try:
        module = compile(text, f"<generated from {where}>", "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None
    code = next(c for c in module.co_consts if isinstance(c, CodeType) and c.co_name == name)
    return code, text, tuple(closures)


_GENERATED_NAME = re.compile(_TEXT + r"|#.*|(?<![\w.])([a-z])(\d+)\b")
"""In generated source: a text literal or a comment (left alone), or a name :func:`fresh` made (``k12``), not an
attribute's."""


def numbered(lines: tuple[str, ...], consts: tuple[tuple[str, Any], ...]
             ) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...], Callable[[str], str]]:
    """``lines`` and ``consts`` with the names :func:`fresh` made numbered anew, in order of first appearance (in
    the lines, then the constants), and a ``fresh`` of this function's own going on from there: :func:`fresh`
    numbers names across the whole process, so the same code had another source at each load.

    >>> lines, consts, more = numbered(("return k40[x37] + 'k40'  # x37's",), (("k40", {}), ("k2", 3)))
    >>> lines, consts, more("t")
    (("return k1[x2] + 'k40'  # x37's",), (('k1', {}), ('k3', 3)), 't4')
    """
    count = itertools.count(1)
    names: dict[str, str] = {}

    def renamed(match: re.Match[str]) -> str:
        if match.group(2) is None:
            return match.group(0)
        old = match.group(0)
        new = names.get(old)
        if new is None:
            new = names[old] = f"{match.group(2)}{next(count)}"
        return new

    lines = tuple(_GENERATED_NAME.sub(renamed, line) for line in lines)
    consts = tuple((_GENERATED_NAME.sub(renamed, name), value) for name, value in consts)
    return lines, consts, lambda prefix: f"{prefix}{next(count)}"


def _constants(namespace: dict[str, Any], reference: Any) -> str:
    """What the passes read of a function's constants, as text for its hash: for each name, which of the values
    before it (the helpers', the reference's) is the same object, and whether it is a table (a ``dict``).  The
    sharing and hoisting passes read nothing else of them (:class:`~engine.lang.shared.Facts`: a constant is read
    as its identity, a table's ``get`` as pure, a name with the prefix of a read of the state as one when it is a
    constant): two functions written alike whose constants differ only in value are the same function.

    >>> table = {}
    >>> _constants({"k1": table, "k2": table}, None) != _constants({"k1": table, "k2": {}}, None)
    True
    """
    seen: dict[int, int] = {id(reference): 0}
    parts = [f"{name}={seen.setdefault(id(value), len(seen))}{'d' * (type(value) is dict)}"
             for name, value in namespace.items()]
    return " ".join(parts)


WIDTH = 110
"""The longest line :func:`wrap` leaves as it is."""


def wrap(line: str) -> str:
    """A long line of generated source broken before its ``and`` / ``or`` inside brackets, outermost first.

    >>> print(wrap("    return ((" + "e[1] == 2 and " * 7 + "e[1] == 2) or e[0] == 'a or b')"))
        return ((e[1] == 2
                and e[1] == 2
                and e[1] == 2
                and e[1] == 2
                and e[1] == 2
                and e[1] == 2
                and e[1] == 2
                and e[1] == 2)
            or e[0] == 'a or b')
    """
    if len(line) <= WIDTH:
        return line
    ops = _operators(line)
    if not ops:
        return line

    def split(start: int, end: int, level: int) -> list[tuple[int, int, int]]:
        deeper = [d for p, d in ops if start < p < end and d >= level]
        if end - start <= WIDTH or not deeper:
            return [(start, end, level)]
        level = min(deeper)
        cuts = [p for p, d in ops if start < p < end and d == level]
        return [part for a, b in zip([start, *cuts], [*cuts, end]) for part in split(a, b, level + 1)]

    margin = line[:len(line) - len(line.lstrip())]
    parts = split(0, len(line), 1)
    return "\n".join(line[a:b] if i == 0 else margin + "    " * (level - 1) + line[a:b].lstrip()
                     for i, (a, b, level) in enumerate(parts))


def _operators(line: str) -> list[tuple[int, int]]:
    """Where `` and `` / `` or `` stand in ``line`` inside brackets (not in text), with how deep."""
    found, depth, quote, i = [], 0, "", 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth and ch == " " and line.startswith((" and ", " or "), i):
            found.append((i, depth))
        i += 1
    return found


def source(c: Compiled) -> str:
    """The source of the function :func:`finish` generated for ``c`` ('' for a closure)."""
    return getattr(c.fn, "generated_source", "")


def module_source(title: str, functions: list[tuple[str, str]]) -> str:
    """The functions generated for a ruleset as one module's source, each under the place it comes from.

    >>> print(module_source("my-game", [("r.yaml:3:5", "def f1(s, e):\\n    return (e[0] > 2)\\n")]))
    # my-game: 1 function generated from the effect language (the closures of library calls are constants k1, k2, ...)
    <BLANKLINE>
    # r.yaml:3:5
    def f1(s, e):
        return (e[0] > 2)
    <BLANKLINE>
    """
    count = len(functions)
    parts = [f"# {one_line(title)}: {count} function{'s' * (count != 1)} generated from the effect language "
             "(the closures of library calls are constants k1, k2, ...)\n"]
    parts += [f"# {one_line(where)}\n{text}" for where, text in functions]
    return "\n".join(parts)

