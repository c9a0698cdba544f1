"""A scenario's expectations: compiled once, checked against a state, and explained when false.

An expectation is an effect-language condition.  When it is false the
explanation shows the values of its parts, the way pytest shows an
assertion: a comparison gives both sides' values, ``A and B`` names the side
that was false and why, ``A or B`` why both were, ``not A`` the value of
``A``, ``all(...)`` the first item that fails.  Example::

    expected at(0, 0).value == A and count(c in board) == 3
        (the value of the piece at (0, 0) is A and the number of c in board is 3)
        found: the right side of 'and' is false: the number of c in board is 3
            the number of c in board = 2, 3 = 3

:func:`waiting_for` says who must decide what, for a scenario whose actions
ran out before the game got where its expectations look.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import DiagnosticSink, RulesetError, SourcePos
from engine.core.yamlsource import Text
from engine.lang import ast, selections
from engine.lang.functions import as_selection
from engine.lang.parser import TOO_DEEP, parse_expression
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, BOOL, NONE_T, ZONE, Component, ListOf, Type
from engine.model.game import Game
from engine.model.state import State

SHOWN_ACTIONS = 4  # the most offered actions a "waiting for" line lists (more are counted)


@dataclass(frozen=True)
class Expectation:
    """A compiled condition, with its text and syntax tree (to explain it when it is false)."""

    text: Any
    node: ast.Node
    compiled: Compiled
    slots: int

    def holds(self, state: State) -> bool:
        """Whether the condition is true in ``state``."""
        return self.compiled.fn(state, [None] * max(self.slots, 1)) is True


def compile_expectation(game: Game, text: Any) -> Expectation:
    """Compile a condition written in a scenario file; errors are at their place in the file (RulesetError).

    Example: ``compile_expectation(game, "count(c in board) == 0").holds(state)``.
    """
    locate = text.locate if isinstance(text, Text) else (lambda line, col: SourcePos("<expect>", line, col))
    node = parse_expression(str(text), locate)
    sink = DiagnosticSink()
    scope = Scope(game.vocab, sink)
    scope.pure = True
    _name_seats(game, scope)
    try:
        compiled = node.compile(scope)
        if compiled.type == NONE_T:  # none: never true, read as a failure 'found: nothing = nothing'
            sink.error(node.pos, "an expectation must be true or false, not none")
        elif not BOOL.accepts(compiled.type):
            sink.error(node.pos, f"an expectation must be true or false, but '{node.describe()}' is {compiled.type}")
    except RecursionError:
        raise RulesetError.at(node.pos, TOO_DEEP) from None
    sink.raise_if_any()
    return Expectation(text, node, compiled, scope.slots)



def _name_seats(game: Game, scope: Scope) -> None:
    """In a game without a ``roles`` section, let an expectation name each seat's role as the scenario's position does
    (``banked(seat1) == 27``, where effect-language code writes ``nth(roles, 1)``); a name the ruleset gives anything
    else keeps its meaning.

    Example: with pig's ruleset, ``compile_expectation(game, "banked(seat1) == 0")`` compiles.
    """
    if game.roles is None or game.roles.type_name in game.types:
        return
    role_type = game.vocab.data.get("role_type", ANY)
    for role in game.roles.values:
        if not scope.defines(role):
            scope.alias(role, Compiled(role_type, lambda s, e, r=role: r, True))


def explain(game: Game, state: State, node: ast.Node) -> list[str]:
    """Why the condition ``node`` is false in ``state``: lines, indented by four spaces per level.

    Example: ``explain(game, state, parse_expression("count(c in board) == 0 and count(c in board) > 4"))``
    on an empty board is ``["the right side of 'and' is false: the number of c in board is more than 4",
    "    the number of c in board = 0, 4 = 4"]``.
    """
    _value(game, state, node, {})  # compiled first: names get their English words
    return _why(game, state, node, False, {})


Bound = dict[str, tuple[Any, Type]]  # the variables of the selections a part is inside: name -> (value, type)


def _why(game: Game, state: State, node: ast.Node, value: bool, bound: Bound) -> list[str]:
    """Why ``node`` is ``value`` in ``state``: the sides of ``and`` / ``or`` that decide it, the item an
    ``all`` / ``any`` fails on, down to the values compared."""
    word = "true" if value else "false"
    if isinstance(node, ast.BoolOp):
        one_decides = (node.op == "and") != value  # then the first side with the value decides, and the other is not evaluated
        deciding = []
        for side, part in (("left", node.left), ("right", node.right)):
            if (_value(game, state, part, bound)[0] is True) == value:
                deciding.append((side, part))
                if one_decides:
                    break
        lines = []
        for side, part in deciding:
            lines += [f"the {side} side of '{node.op}' is {word}: {part.describe()}", *_indent(_why(game, state, part, value, bound))]
        return lines
    if isinstance(node, ast.Not):
        inner = "false" if value else "true"
        _value(game, state, node.operand, bound)  # compiled first: names get their English words
        return [f"{node.operand.describe()} is {inner}", *_indent(_why(game, state, node.operand, not value, bound))]
    if isinstance(node, ast.Call) and node.func in ("all", "any") and len(node.args) == 1 and value == (node.func == "any"):
        return _quantifier(game, state, node, value, bound)
    return _parts(game, state, node, bound)


def _quantifier(game: Game, state: State, node: ast.Call, value: bool, bound: Bound) -> list[str]:
    """Why ``all(...)`` is false (the first item that fails its test) or ``any(...)`` true (the first that passes)."""
    sel = as_selection(node.args[0])
    test = sel.value or sel.where
    source = sel.source if sel.value is None or sel.where is None else selections.Selection(sel.pos, sel.var, sel.source, sel.where)
    if test is None:
        return _parts(game, state, node, bound)
    items, item_type = _value(game, state, source, bound)
    if isinstance(item_type, ListOf):
        item_type = item_type.item
    for item in items:
        inner = {**bound, sel.var: (item, item_type)}
        if (_value(game, state, test, inner)[0] is True) == value:
            return [f"for {sel.var} = {show(game, item, item_type)}: {test.describe()} is {'true' if value else 'false'}",
                    *_indent(_why(game, state, test, value, inner))]
    return _parts(game, state, node, bound)


def _parts(game: Game, state: State, node: ast.Node, bound: Bound) -> list[str]:
    """The values of a condition's parts: both sides of a comparison or membership, else its own value."""
    if isinstance(node, ast.Compare):
        pairs = [node.left, node.right]
    elif isinstance(node, ast.Member):
        pairs = [node.item, node.collection]
    else:
        pairs = [node]
    return [", ".join(f"{_named(part)} = {show(game, *_value(game, state, part, bound))}" for part in pairs)]


def _named(part: ast.Node) -> str:
    """A part's English before its value, bracketed when it ends in a "where" condition (the value is not the
    condition's).

    >>> _named(ast.Name(None, "x"))
    'x'
    """
    text = part.describe()
    return f"({text})" if " where " in text and not text.startswith("(") else text


def _value(game: Game, state: State, node: ast.Node, bound: Bound) -> tuple[Any, Type]:
    """A part of a condition evaluated in ``state`` with the ``bound`` variables set, and its type (a zone as its components)."""
    scope = Scope(game.vocab)
    _name_seats(game, scope)
    env_values = [(scope.bind(name, type_), item) for name, (item, type_) in bound.items()]
    compiled = node.compile(scope)
    if compiled.type == ZONE:
        compiled = ast.as_collection(compiled, node)
    env: list[Any] = [None] * max(scope.slots, 1)
    for slot, item in env_values:
        env[slot] = item
    return compiled.fn(state, env), compiled.type


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def show(game: Game, value: Any, type_: Type) -> str:
    """A value as a designer writes it: components by name, true/false, ``nothing``.

    Example: ``show(game, [0, 1], ListOf(Component("card")))`` is ``'[gem-1, gem-2]'`` (the first two cards' ids).
    """
    if value is None:
        return "nothing"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(type_, Component) and isinstance(value, int):
        return game.component_names[value]
    if isinstance(value, (list, tuple)) and isinstance(type_, ListOf):
        return "[" + ", ".join(show(game, item, type_.item) for item in value) + "]"
    return str(value)


ENDED = {"end condition": "its end condition held",
         "stalled": "a whole round of turns went by in which nobody could do anything (end: stalled)",
         "turn limit": "it reached its turn limit (end: max_turns)",
         "no legal move": "the player to move had no legal move (end: no_move)"}
"""Why a game ended, by its outcome's ``ended``, in a scenario's words (a step that lists a single option takes it
without asking, so a position may run to its end before any action of the scenario)."""


def waiting_for(state: State) -> str:
    """Who must decide now and between what, or that the game is over and why (``the game is over: its end condition
    held, after turn 12``).

    Example: ``the game is waiting for North: clash 3,2 or clash 4,2``; with more than
    :data:`SHOWN_ACTIONS` actions, ``the game is waiting for North: 9 actions, such as place ...``.  A choice in
    an effect says what is chosen: ``waiting for North to choose c in hand of North: ...`` in the selection's
    words, ``waiting for North to answer "your bid": ...`` for the question a ruleset wrote (``text = "..."``),
    which may be any phrase.
    """
    if state.is_terminal:
        ended = getattr(state.outcome, "ended", None)
        why = ENDED.get(ended, ended)
        return f"the game is over: {why}, after turn {state.turn_number}" if why else "the game is over"
    seat = state.seat_to_move
    role = state.current_role
    who = role if role is not None and state.seat_of.get(role) == seat else f"seat {seat}"
    if state.pending is not None and state.pending.prompt:
        prompt = state.pending.words  # a choice in the middle of an effect: what is chosen
        who += f" to {prompt}" if prompt.startswith("choose ") else f' to answer "{prompt}"'
    texts = state.legal_actions().texts()
    if not texts:
        return f"the game is waiting for {who}, who has no action"
    if len(texts) > SHOWN_ACTIONS:
        return f"the game is waiting for {who}: {len(texts)} actions, such as {texts[0]}"
    listed = ", ".join(texts[:-1]) + " or " + texts[-1] if len(texts) > 1 else texts[0]
    return f"the game is waiting for {who}: {listed}"
