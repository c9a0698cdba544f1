"""A question's words with values of the moment filled in: ``text = "pay how many of your {gold(current_role)} coins?"``.

Each ``{CODE}`` in the text of a ``choose`` is an expression, read when the question is asked and written as the
log writes a value (a cell by its name, a component as every seat may know it); the rest stands as written.  Python's
formatting is never used: the text is cut at its braces, and only the effect language reads what is inside them.

>>> from engine.lang.scope import Scope, Vocabulary
>>> from engine.lang.types import INT
>>> vocab = Vocabulary(); vocab.define("gold", INT, lambda s, e: 7)
>>> question = compile_question("pay how many of your {gold} coins?", None, Scope(vocab))
>>> question.fill(None, []), question.fixed
('pay how many of your 7 coins?', False)
>>> compile_question("play a card", None, Scope(vocab)).fill(None, [])
'play a card'
>>> scope = Scope(vocab); _ = compile_question("pay {gold coins", None, scope)
>>> scope.sink.items[0].message
"the question's '{' opens braces it never closes, so the players would read it as written"
>>> vocab.define("names", STR, lambda s, e: "x" * 500)
>>> compile_question("{names}", None, Scope(vocab)).fill(None, [])[-24:]
'xxxx... (500 characters)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from engine.blocks.choice_labels import labeller, seen_label
from engine.blocks.hooks import label
from engine.core.errors import RulesetError, SourcePos
from engine.core.showtext import as_one_line, cut
from engine.lang import ast
from engine.lang.parser import parse_expression
from engine.lang.scope import Scope
from engine.lang.selections import Selection
from engine.lang.types import STR, Component, ListOf, Type

if TYPE_CHECKING:
    from engine.blocks.context import StateView

FIELD = re.compile(r"\{([^{}]*)\}")
"""A value to fill in: ``{CODE}``; ``{}`` and blank braces stay as written (they name nothing)."""

Fill = Callable[["StateView", list[Any]], str]
LONGEST = 200
"""The most characters a value filled into a question shows (a list of a thousand items is told by its length)."""


@dataclass(frozen=True)
class Question:
    """A question's parts: texts as they stand, and the values to fill in between them."""

    parts: tuple[str | Fill, ...]

    def fill(self, s: "StateView", e: list[Any]) -> str:
        """The question with this moment's values in it."""
        return "".join(p if isinstance(p, str) else p(s, e) for p in self.parts)

    @property
    def fixed(self) -> bool:
        """Whether the question is the same words each time (nothing in braces)."""
        return all(isinstance(p, str) for p in self.parts)


def compile_question(text: str, pos: SourcePos | None, scope: Scope) -> Question:
    """The question ``text`` (a literal written at ``pos``), each ``{CODE}`` in it compiled as a value in ``scope``:
    a problem in it is reported at its own line and column.  The code only reads the position (a condition's
    rules: no ``choose``, no dice)."""
    parts: list[str | Fill] = []
    at = 0
    for field in FIELD.finditer(text):
        if not field.group(1).strip():
            continue
        parts.append(text[at:field.start()])
        filled = _compiled(field.group(1), _locate(pos, field.start(1)), scope)
        if filled is not None:
            parts.append(filled)
        at = field.end()
    parts.append(text[at:])
    for stray in re.finditer(r"[{}]", FIELD.sub(lambda m: " " * len(m.group()), text)):  # would be shown as written
        said = "opens braces it never closes" if stray.group() == "{" else "closes braces it never opened"
        scope.error(_locate(pos, stray.start())(1, 1), f"the question's '{stray.group()}' {said}, so the players would "
                    "read it as written", "a value of the moment is written {CODE}, each brace paired")
    return Question(tuple(p for p in parts if p != ""))


def naming_given(node: ast.Node, words: Callable[[], str], scope: Scope) -> Question | None:
    """The English ``words()`` gives of code holding ``node``, each name the engine gives this code (``self``,
    ``actor``) that ``node`` reads told by its value of the moment: ``choose foe of self`` asks ``choose foe of
    North's Scout``.  None when ``node`` reads no such name.  It is what a player reads; the question as ``words()`` says it
    stays the one a position keeps (and its checksum), so saved games keep their checksums.

    >>> from engine.lang.scope import Vocabulary
    >>> scope = Scope(Vocabulary()); _ = scope.give("self", STR); _ = scope.bind("n", STR)
    >>> node = parse_expression("f(self, n)")
    >>> question = naming_given(node, lambda: f"choose {node.args[0].describe()} or {node.args[1].describe()}", scope)
    >>> question.fill(None, ["Ann", "x"])
    'choose Ann or n'
    >>> naming_given(parse_expression("f(n)"), lambda: "choose", scope) is None
    True
    """
    if scope.reported_here:  # a ruleset that does not load asks nothing (and its names' problems are told once)
        return None
    nodes = _names(node)
    looped = {n.var for n in nodes if isinstance(n, Selection)}  # a loop's own name is its item, not the given one
    found = [n for n in nodes if isinstance(n, ast.Name) and not n.words and n.name not in looped and _given(scope, n.name)]
    if not found:
        return None
    for name in found:
        name.words = f"{_MARK}{name.name}{_MARK}"
    try:
        text = words()
    finally:
        for name in found:
            name.words = ""
    parts = [_told(part, scope) if i % 2 else part for i, part in enumerate(text.split(_MARK))]
    return Question(tuple(p for p in parts if p != ""))


def _told(name: str, scope: Scope) -> Fill:
    """A name the engine gives the code, told by its value: a component as the log names it (``North's Scout``: both
    sides may have one), anything else as a question's braces write it."""
    compiled = scope.lookup(name, None)
    value = compiled.fn
    if isinstance(compiled.type, Component):
        return lambda s, e: label(s, value(s, e))
    as_text = _as_text(compiled.type)
    return lambda s, e: cut(as_text(s, value(s, e)), LONGEST)


_MARK = "\x00"
"""Marks a name in English being written (no description holds it: a question's text may not)."""


def _names(node: object) -> list[ast.Node]:
    """The syntax nodes of ``node``, itself included."""
    found, todo = [], [node]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, ast.Node):
            found.append(item)
            todo.extend(vars(item).values())
    return found


def _given(scope: Scope, name: str) -> bool:
    """Whether ``name`` here is a name the engine gives this code (see :meth:`Scope.give`), not a local of its own."""
    at: Scope | None = scope
    while at is not None:
        if name in at.locals:
            return name in at.given
        at = at.parent
    return False


def _locate(pos: SourcePos | None, offset: int) -> Callable[[int, int], SourcePos]:
    """Where the code starting ``offset`` characters into a text written in quotes at ``pos`` stands in the file."""
    if pos is None:
        return lambda line, col: SourcePos("<text>", line, offset + col)
    return lambda line, col: SourcePos(pos.file, pos.line + line - 1, (pos.col + offset if line == 1 else 0) + col)


def _compiled(code: str, locate: Callable[[int, int], SourcePos], scope: Scope) -> Fill | None:
    """The code of one pair of braces as a closure giving its text; None after a reported problem."""
    try:
        node = parse_expression(code, locate)
    except RulesetError as err:
        for d in err.diagnostics:
            scope.error(d.pos, f"in braces of the question: {d.message}", d.hint)
        return None
    inner = scope.child()
    inner.pure = True  # read when asked, perhaps several times: it changes nothing, not even the dice
    compiled = node.compile(inner)
    value = compiled.fn
    as_text = _as_text(compiled.type)
    return lambda s, e: cut(as_text(s, value(s, e)), LONGEST)


def _as_text(kind: Type) -> Callable[["StateView", Any], str]:
    """How a value of ``kind`` reads in a question: as the log says it (a text as it is, in one line; a component
    as every seat may know it, since every seat sees who is deciding what; none as ``none``).

    >>> _as_text(STR)(None, "a\\nb"), _as_text(ListOf(STR))(None, ["x", "y"]), _as_text(STR)(None, None)
    ('a\\\\nb', '[x, y]', 'none')
    """
    label = labeller(kind)
    item = kind.item if isinstance(kind, ListOf) else kind
    components = isinstance(item, Component)

    def as_text(s: "StateView", v: Any) -> str:
        if v is None:
            return "none"
        if kind is STR:
            return as_one_line(str(v))
        shown = label(s, v)
        return as_one_line(seen_label(s, v, shown, True) if components else shown)

    return as_text
