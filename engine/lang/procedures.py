"""Procedures a ruleset defines: ``procedures:``, programs with a name and typed parameters, run from any program.

A piece of a program several rules need (score a row and what follows, mark a
box, deal a hand to a player) is written once, with its parameters, and run
by name as a line of any program::

    procedures:
      score_row(role r, int n): |
        points(r) += n
        if n >= 5:
          bonus(r) += 1
      mark(role r, int row, int n):
        do: |
          marks(r, row) += 1
          score_row(r, marks(r, row))
        text: "{r} marks {n} in row {row}"

    turn:
      - do: {effect: "mark(current_role, 2, roll(d6))"}

The parameters are written as a function's are (:func:`engine.lang.defined.parse_signature`); a call with
the wrong number of arguments, or an argument of the wrong type, is refused where it is written.  The body is
a program: it may change the game, ``choose`` (the effect calling it pauses at the question, as it would for
a ``choose`` of its own) and run procedures — those above it, and itself.  Its parameters are its only
locals.  Each call spends steps of the effect's budget by the size of the body, and procedures running inside
each other more than ``call_depth`` deep (a recursion that never ends) stop with an error at the call.

>>> PROCEDURE_DEPTH.startswith(" ")  # a local no code can name: how deeply procedures run where it is read
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.errors import EffectRuntimeError
from engine.core.yamlsource import Mapping
from engine.lang import ast, budgets
from engine.lang.defined import Defined, called, check_placeholders, defined_below, fill_in, param_pos, read_signature, too_deep
from engine.lang.scope import ASKS, ASKS_LATE, RUNS, Compiled, Fn, Scope
from engine.lang.types import EFFECT, INT

if TYPE_CHECKING:
    from engine.lang.context import CodeContext

KEY = "procedures"
PROCEDURE_DEPTH = " procedure depth"
"""The local slot, in a procedure's body, holding how many procedures run inside each other there (1 in one called
from code that is no procedure's)."""


@dataclass
class Compiling:
    """A procedure's body once compiled: filled after the procedure is named, so that its body may call it."""

    fn: Fn | None = None
    slots: int = 1
    steps: int = 1
    reach: frozenset[str] = frozenset()  # what the body may do besides computing (see Scope.reach)


@dataclass(frozen=True)
class Procedure(Defined):
    """A procedure a ruleset defines: a program with parameters (slots 0, 1, ...), run by a call as a line of code."""

    program: Compiling = field(default_factory=Compiling, compare=False)
    kind: ClassVar[str] = "procedure"

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        before = len(scope.sink.items)
        args = self.arity(call, scope, len(self.params))
        compiled = [self._argument(scope, node, type_, name) for node, (name, type_) in zip(args, self.params)]
        if self.name in scope.vocab.built_in:
            self._told_shadowing(scope.sink.items, before)
        if scope.pure:
            scope.error(call.pos, f"{self.name}() is a procedure: it changes the game, which a condition or score can't do",
                        "a value or condition written once is a function ('functions:')")
        if len(args) != len(self.params):
            return Compiled(EFFECT, lambda s, e: None)
        reach = self.program.reach
        if ASKS in reach and (ASKS in scope.reach or RUNS in scope.reach or scope.looping):
            scope.reach.add(ASKS_LATE)  # its question may come after a change, or after another question
        scope.reach.update(reach)
        outer = _depth_slot(scope)
        fns, count, program, name, pos = tuple(c.fn for c in compiled), len(compiled), self.program, self.name, call.pos

        def run(s: Any, e: list[Any]) -> None:
            depth = 1 if outer is None else e[outer] + 1
            if depth > s.game.limits.call_depth:
                most = s.game.limits.call_depth
                raise EffectRuntimeError(f"procedures run inside each other more than {most} deep, at this call of "
                                         f"'{name}': does a procedure call itself without end? (limit call_depth={most}; "
                                         f"raise it with --limit call_depth=N)", pos)
            s.budget -= program.steps
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, f"call of procedure '{name}'")
            env: list[Any] = [None] * program.slots
            for i, f in enumerate(fns):
                env[i] = f(s, e)
            env[count] = depth
            assert program.fn is not None  # compiled by now: code runs only once the ruleset is built
            try:
                program.fn(s, env)
            except RecursionError:
                raise too_deep(s, pos, name, "procedure") from None

        return Compiled(EFFECT, run)

    def describe(self, call: ast.Call) -> str:
        """A call in English: the procedure's ``text`` filled in, else ``do`` and its name's words.

        >>> from engine.lang.types import INT
        >>> p = Procedure("score_row", "", "", "score_row(int n)", (("n", INT),))
        >>> p.describe(ast.Call(None, "score_row", [ast.Name(None, "k")]))
        'do score row of k'
        """
        texts = {name: ast.grouped(arg) for (name, _), arg in zip(self.params, call.positional())}
        if self.words:
            return fill_in(self.words, texts)
        return f"do {called(self.name, list(texts.values()))}"


def _depth_slot(scope: Scope) -> int | None:
    """The slot holding how deeply procedures run where ``scope`` is: a procedure body's (None outside any)."""
    found: Scope | None = scope
    while found is not None:
        if PROCEDURE_DEPTH in found.locals:
            return found.locals[PROCEDURE_DEPTH][0]
        found = found.parent
    return None


def define_procedures(b: "CodeContext") -> None:
    """Compile the ``procedures:`` section into the vocabulary, in order: each may run those above it and itself."""
    section = b.tree.get(KEY)
    if section is None:
        return
    if not isinstance(section, Mapping):
        b.error(b.pos(b.tree, KEY), "'procedures' must map 'name(type param, ...)' to a program")
        return
    vocab = b.game.vocab
    below = defined_below(section, "procedure", " and itself")
    kept = {name: vocab.elsewhere[name] for name in below if name in vocab.elsewhere}
    vocab.elsewhere.update(below)
    try:
        for key, spec in section.items():
            _define(b, key, spec, section, below)
    finally:  # the hints speak only of the section: code elsewhere sees every procedure it defines
        for name in below:
            vocab.elsewhere.pop(name, None)
        vocab.elsewhere.update(kept)


def _define(b: "CodeContext", key: Any, spec: Any, section: Mapping, below: dict[str, str]) -> None:
    """Name one procedure of ``section`` (so that its body may call it), then compile its body."""
    pos = section.key_pos.get(key, section.pos)
    read = read_signature(b, key, pos, below, "procedure")
    if read is None:
        return
    name, params, typed = read
    body, words = (spec.get("do"), str(spec.get("text") or "")) if isinstance(spec, Mapping) else (spec, "")
    if isinstance(spec, Mapping):
        b.unknown_keys(spec, ("do", "text"), f"procedure '{name}'")
        check_placeholders(b, spec, name, [param for param, _ in params], "procedure")
    if not isinstance(body, str) or not body.strip():
        b.error(pos, f"procedure '{name}' needs a program: write its lines after the name, or under 'do'",
                f"{key}: |\n  gold(r) += 1")
        return
    vocab, program = b.game.vocab, Compiling()
    signature = f"{name}({', '.join(f'{t} {p}' for p, t in params)})"
    procedure = Procedure(name, signature, " ".join(body.split()), str(key), tuple(typed), words=words, program=program)
    vocab.functions[name] = procedure  # named first: its body may call it
    scope = Scope(vocab, b.sink)
    for param, type_ in typed:
        scope.check_new_name(param, param_pos(str(key), param, pos), "in the procedure's body")
        scope.bind(param, type_)
    scope.bind(PROCEDURE_DEPTH, INT)
    node = b.parse(body, spec.pos_of("do") if isinstance(spec, Mapping) else section.pos_of(key), program=True)
    if node is None:
        return
    compiled = b.compile_node(node, scope, nested=False)  # its reach is its callers': each call adds it to theirs
    reach = set(scope.reach)
    if ASKS in reach and _calls_itself(node, name):
        reach.add(ASKS_LATE)  # a call of itself asks again
    program.fn, program.slots = compiled.fn, max(scope.slots, 1)
    program.steps, program.reach = budgets.weight(ast.nodes(node) + scope.inlined[0]), frozenset(reach)
    vocab.functions[name] = Procedure(name, signature, procedure.doc, str(key), tuple(typed), words=words,
                                      meaning=node.describe(), program=program)


def _calls_itself(node: ast.Node, name: str) -> bool:
    """Whether the program ``node`` calls ``name`` anywhere in it.

    >>> from engine.lang.parser import parse_program
    >>> _calls_itself(parse_program("if n > 0:\\n  walk(n - 1)"), "walk"), _calls_itself(parse_program("pass"), "walk")
    (True, False)
    """
    todo: list[Any] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, ast.Node):
            if isinstance(item, ast.Call) and item.func == name:
                return True
            todo.extend(vars(item).values())
    return False

