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

from engine.errors import DiagnosticSink
from engine.lang import ast
from engine.lang.scope import Scope

_OPERATORS = (ast.Neg, ast.Not, ast.BinOp, ast.Compare, ast.Member, ast.BoolOp, ast.Cond, ast.ListLit, ast.TupleLit)


def reads_only_locals(node: ast.Node, scope: Scope) -> bool:
    """True when ``node`` (an expression compiled in ``scope``) depends only on the locals' printed attributes and constants.

    ``scope`` is not changed and gets no diagnostics: the names are looked up in a
    scope of its own, over the same locals.
    """
    quiet = Scope(scope.vocab, DiagnosticSink(), scope)
    return _fixed(node, quiet)


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
