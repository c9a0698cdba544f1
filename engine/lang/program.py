"""Compiled effect-language code ready to run on a state, and conditions compiled on request.

A :class:`Program` is what the compiler keeps of a setup, an end condition or
an invariant; :func:`compile_condition` compiles a condition against a
game's vocabulary (``game.compile_condition`` is the usual way in)::

    program = compile_condition(game.vocab, "count(c in board) > 2")
    program.test(state)            # True or False

>>> Program(lambda s, e: len(e), 3).fn(None, [None] * 3)
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.errors import DiagnosticSink, RulesetError, SourcePos, remember_source
from engine.lang.scope import Fn, Scope, Vocabulary
from engine.lang.types import BOOL, NONE_T
from engine.lang.budgets import refill

if TYPE_CHECKING:
    from engine.core.views import StateData


@dataclass
class Program:
    """Compiled effect-language code with the number of local slots it needs."""

    fn: Fn
    slots: int
    text: str = ""
    description: str = ""
    reach: frozenset[str] = frozenset()  # what it may do besides computing (see Scope.reach)

    def run(self, s: "StateData") -> Any:
        """Run the program with the full step budget (``Limits.steps``)."""
        refill(s)
        return self.fn(s, [None] * self.slots)

    def test(self, s: "StateData") -> Any:
        """Evaluate a condition (no effects, so one environment list is reused) with a step budget of its own.

        A test made while a program runs takes what it spends from that program's budget when it ends.
        """
        saved, steps = s.budget, s.game.limits.steps
        s.budget = steps
        try:
            return self.fn(s, self.env)
        finally:
            s.budget = saved - (steps - s.budget)

    @property
    def env(self) -> list[Any]:
        """The program's locals, one list made when first read and kept."""
        env = self.__dict__.get("_env")
        if env is None:
            env = self.__dict__["_env"] = [None] * self.slots
        return env


def condition_parts(vocab: Vocabulary, text: str, where: str = "<expression>") -> list[Program]:
    """The parts a condition joins with its outermost ``or`` (itself alone when it has none), each compiled alone,
    its description its words: a tool tells by them which part held (why a game ended).  The condition compiled
    already, so a part raises nothing a compile of the whole would not have.

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> [part.description for part in condition_parts(game.vocab, "turn > 3 or (turn == 1 or turn == 2)")]
    ['turn is more than 3', 'turn is 1', 'turn is 2']
    """
    from engine.lang.ast import BoolOp  # (the parser and the tree load only when code is compiled)
    from engine.lang.parser import parse_expression

    nodes, parts = [parse_expression(text, lambda line, col: SourcePos(where, line, col))], []
    while nodes:
        node = nodes.pop()
        if isinstance(node, BoolOp) and node.op == "or":
            nodes += [node.right, node.left]  # the left first: the parts in the order written
            continue
        scope = Scope(vocab, DiagnosticSink())
        scope.pure = True
        parts.append(Program(node.compile(scope).fn, scope.slots, "", node.describe()))
    return parts


def compile_condition(vocab: Vocabulary, text: str, where: str = "<expression>") -> Program:
    """Compile a boolean effect-language condition against a game's vocabulary (raises RulesetError)."""
    from engine.lang.parser import TOO_DEEP, parse_expression  # the parser (and lark) load only when code is compiled

    remember_source(where, text)
    sink = DiagnosticSink()
    node = parse_expression(text, lambda line, col: SourcePos(where, line, col))
    scope = Scope(vocab, sink)
    scope.pure = True
    try:
        compiled = node.compile(scope)
        if compiled.type == NONE_T:  # none: read as false without a word
            sink.error(node.pos, "a condition must be true or false, not none",
                       "write false if it never holds")
        elif not BOOL.accepts(compiled.type):
            sink.error(node.pos, f"a condition must be true or false, but '{node.describe()}' is {compiled.type}")
        sink.raise_if_any()
        return Program(compiled.fn, scope.slots, text, node.describe())
    except RecursionError:
        raise RulesetError.at(node.pos, TOO_DEEP) from None
