"""Whether an expression reads nothing but its bound locals' printed attributes and constants.

Such an expression gives the same value for the same components (showing
the same faces) in every state of every game of one ruleset: ``other.id ==
"5"`` or ``self.value > other.value + 1``, never ``count(c in hand(owner(self)))``.
A block may then work its value out once per pair of components and keep it
in a table instead of running the code at every fight.

Accepted: literals, lists and cells of them, local variables, constants
(options, enum values), attributes read from a local variable (``id``,
``kind``, declared attributes, on the face shown or a named face), and the
operators (arithmetic, comparisons, ``in``, ``and``/``or``/``not``,
``if ... then ... else``).  Anything else — a function call, a selection, a
state query such as ``turn`` or a counter — reads the state, and is refused.

>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Scope, Vocabulary
>>> from engine.lang.types import INT
>>> scope = Scope(Vocabulary()); _ = scope.bind("x", INT)
>>> reads_only_locals(parse_expression("x + 2 == 5 or not (x in [1, 7])"), scope)
True
>>> reads_only_locals(parse_expression("x + y"), scope)
False
"""

from __future__ import annotations

from typing import Any

from engine.errors import DiagnosticSink
from engine.lang import ast
from engine.lang.scope import Fn, Scope, Vocabulary
from engine.lang.types import Type

_OPERATORS = (ast.Neg, ast.Not, ast.BinOp, ast.Compare, ast.Member, ast.BoolOp, ast.Cond, ast.ListLit, ast.TupleLit)


def reads_only_locals(node: ast.Node, scope: Scope) -> bool:
    """True when ``node`` (an expression compiled in ``scope``) depends only on the locals' printed attributes and constants.

    ``scope`` is not changed and gets no diagnostics: the names are looked up in a
    scope of its own, over the same locals.
    """
    quiet = Scope(scope.vocab, DiagnosticSink(), scope)
    return _fixed(node, quiet)


def fixed_with(vocab: Vocabulary, node: ast.Node | None, bind: dict[str, Type]) -> bool:
    """Whether ``node``, with ``bind``'s names as its locals (slots 0, 1, ... in order), reads only them and constants."""
    if node is None:
        return False
    scope = Scope(vocab, DiagnosticSink())
    for name, type_ in bind.items():
        scope.bind(name, type_)
    return reads_only_locals(node, scope)


class PairTable:
    """The value of fixed code of two components (``self`` and ``other``, in slots 0 and 1), worked out once per pair.

    A component's attributes depend on the face it shows, so the faces are part of
    the pair.  The first time a pair is asked, the code runs on the state at hand
    (an error it raises is raised as usual and nothing is kept); afterwards its
    value is read back.

    >>> from types import SimpleNamespace
    >>> runs = []
    >>> table = PairTable(lambda s, e: runs.append(e[:2]) or e[0] + e[1], 2)
    >>> s = SimpleNamespace(face=[0, 0, 0])
    >>> table(s, 1, 2), table(s, 1, 2), runs
    (3, 3, [[1, 2]])
    """

    __slots__ = ("fn", "slots", "known")

    def __init__(self, fn: Fn, slots: int) -> None:
        self.fn = fn
        self.slots = slots
        self.known: dict[tuple[int, int, int, int], Any] = {}

    def __call__(self, s: Any, a: int, b: int) -> Any:
        face = s.face
        key = (a, b, face[a], face[b])
        known = self.known
        if key in known:
            return known[key]
        env: list[Any] = [None] * self.slots
        env[0], env[1] = a, b
        value = known[key] = self.fn(s, env)
        return value


def _fixed(node: ast.Node, scope: Scope) -> bool:
    if isinstance(node, ast.Literal):
        return True
    if isinstance(node, ast.Name):
        found = scope.lookup(node.name, None)
        return found.slot is not None or found.constant
    if isinstance(node, ast.Attr):
        return node.compile(scope).table is not None and not scope.sink.items
    if isinstance(node, _OPERATORS):
        return all(_fixed(part, scope) for part in _parts(node))
    return False


def _parts(node: ast.Node) -> list[ast.Node]:
    """The operands of an operator node."""
    if isinstance(node, (ast.Neg, ast.Not)):
        return [node.operand]
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return [node.left, node.right]
    if isinstance(node, ast.Member):
        return [node.item, node.collection]
    if isinstance(node, ast.Cond):
        return [node.test, node.then, node.otherwise]
    assert isinstance(node, (ast.ListLit, ast.TupleLit))
    return list(node.items)
