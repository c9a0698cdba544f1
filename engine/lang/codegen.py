"""Code generation: the effect language's operators and statements as Python source.

The closure compiler (``Node.compile``) gives every syntax node a closure
``fn(state, env)``; a condition such as ``alive(f) and team(f) != t`` then
costs a closure call per operator.  Alongside each closure, the operators,
locals, literals and statements also give their :class:`Code`: Python source
over ``s`` (the state) and ``e`` (the locals' slots), with the closures of
everything else — the functions, attributes and selections the vocabulary
compiles — as named constants.  :func:`finish` turns the code of a whole
program, condition or ``where`` into one Python function, so the work
between two library calls runs as plain Python.

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

import dataclasses
import itertools
import operator
from typing import TYPE_CHECKING, Any

from engine.core.errors import SourcePos
from engine.lang.scope import Code

if TYPE_CHECKING:
    from engine.lang.scope import Compiled, Scope

ENABLED = True
"""Whether :func:`finish` generates functions (False: the closures run, as the reference)."""

GENERATED = "generated"
"""Vocabulary data key: the source of every function generated for the ruleset, in order, with its position."""

SIMPLE_VALUES = (int, str, type(None))

_names = itertools.count(1)


def fresh(prefix: str) -> str:
    """A name no other generated code uses (``k12``); a ruleset's names never become Python names."""
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


# ------------------------------------------------------------------ run-time helpers the generated code calls


HELPERS: dict[str, Any] = {  # the names generated code may use besides its constants (which bring their helpers)
    "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "__builtins__": {"range": range},
}


# ------------------------------------------------------------------ functions


def finish(c: Compiled, pos: SourcePos | None, scope: Scope) -> Compiled:
    """``c`` with its closure replaced by one generated function, when it has code worth generating.

    Code Python cannot compile (nested beyond its parser's limits) keeps its closure.
    """
    if not ENABLED or c.code is None:
        return c
    lines, consts = statements(c) if c.code.lines is not None else (("return " + c.code.expr,), c.code.consts)
    fn = function(lines, consts, pos, scope)
    if fn is None:
        return c
    return dataclasses.replace(c, fn=fn)  # its code stays, to be written inline where it is used


def function(lines: tuple[str, ...], consts: tuple[tuple[str, Any], ...], pos: SourcePos | None, scope: Scope) -> Any:
    """A function ``f(s, e)`` with body ``lines`` (None when Python cannot compile it, or generation is off).

    Its source is kept in the vocabulary, for ``rulecraft compile --show``.
    """
    if not ENABLED:
        return None
    name = fresh("f")
    where = f"{pos.file}:{pos.line}:{pos.col}" if pos is not None else "<code>"
    text = "\n".join((f"def {name}(s, e):", *indent(lines))) + "\n"
    namespace = dict(HELPERS)
    namespace.update(consts)
    try:
        exec(compile(text, f"<generated from {where}>", "exec"), namespace)  # noqa: S102 - our own source, see above
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None
    fn = namespace[name]
    fn.generated_source = text
    scope.vocab.data.setdefault(GENERATED, []).append((where, text))
    return fn


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
    parts = [f"# {title}: {count} function{'s' * (count != 1)} generated from the effect language "
             "(the closures of library calls are constants k1, k2, ...)\n"]
    parts += [f"# {where}\n{text}" for where, text in functions]
    return "\n".join(parts)

