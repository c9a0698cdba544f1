"""A note for a deal that moves the same component again: ``move(x in KINDS where ..., ZONE(r), N)`` in a loop over
``r``.

A kind's list (``cards``, ``ballots``) holds every component of the kind wherever it lies, so a counted move from it
takes the first that pass the test wherever they are: in a loop dealing one to each role, the second pass takes the
card the first just dealt, and the last role ends with it, the others with none.  Nothing fails, so nothing said so
(a game of hidden sides dealt every player's Yes ballot to the last player).  Deal from where they lie,
``x in supply where ...``, or make the test read the loop's role.

>>> from engine.core.yamlsource import load_yaml
>>> tree = load_yaml("r.yaml", '''
... components: {ballot: {attributes: {yes: bool}, instances: [{id: Aye, yes: true, count: 3}]}}
... setup: |
...   for r in roles:
...     move(b in ballots where b.yes, votes(r), 1)
...     move(b in ballots where b.yes and b in supply, votes(r), 1)
... ''')
>>> [(pos.line, pos.col, text) for pos, text in moved_again(tree)]  # doctest: +NORMALIZE_WHITESPACE
[(5, 5, 'move() with a count takes the first ballots its test finds wherever they lie, so each pass of this loop over
r may take a ballot the pass before moved to the votes of r and move it on (the last r ends with it): deal from where
they lie (b in supply where ...), or let the test read r')]
"""

from __future__ import annotations

from typing import Any, Iterator

from engine.core.errors import RulecraftError, SourcePos
from engine.core.yamlsource import Mapping, Text
from engine.lang import ast, selections, statements
from engine.lang.parser import parse_program
from engine.lang.scope import english_plural

ENGLISH = frozenset({"description", "title", "doc", "text"})
"""Keys whose values are English for readers, never code."""


def moved_again(tree: Mapping) -> list[tuple[SourcePos | None, str]]:
    """Each counted ``move`` from a kind's list inside a loop whose destination, not whose test, reads the loop's
    name (see the module): where it is, and what to write instead."""
    kinds = tree.get("components")
    lists = {name: kind for kind in (kinds if isinstance(kinds, Mapping) else ())
             for name in (f"{kind}s", english_plural(str(kind)))}
    if not lists:
        return []
    found: dict[tuple[SourcePos | None, str], None] = {}
    for code in _code(tree):
        try:
            program = parse_program(code, code.locate if isinstance(code, Text) else None)
        except RulecraftError:
            continue  # what does not parse is reported where the game compiles it
        for loop in _nodes(program, statements.For):
            for call in _nodes(loop.body, ast.Call):
                note = _dealt_again(call, loop.var, lists)
                if note is not None:
                    found[call.pos, note] = None
    return list(found)


def _dealt_again(call: ast.Call, var: str, lists: dict[str, str]) -> str | None:
    """The note for ``call`` when it is a counted move from a kind's list dealing to a zone of the loop's ``var``."""
    args = call.positional()
    if call.func != "move" or len(args) != 3:
        return None
    what = args[0]
    if isinstance(what, ast.Member) and isinstance(what.item, ast.Name):
        item, source, where = what.item.name, what.collection, None
    elif isinstance(what, selections.Selection) and what.value is None:
        item, source, where = what.var, what.source, what.where
    else:
        return None
    if not isinstance(source, ast.Name) or source.name not in lists:
        return None
    if where is not None and (_reads(where, var) or any(True for _ in _nodes(where, ast.Member))):
        return None  # the test picks each pass's own, or where they lie
    if not _reads(args[1], var):
        return None
    kind, many = lists[source.name], source.name
    return (f"move() with a count takes the first {many} its test finds wherever they lie, so each pass of this loop "
            f"over {var} may take a {kind} the pass before moved to {args[1].describe()} and move it on (the last {var} "
            f"ends with it): deal from where they lie ({item} in supply where ...), or let the test read {var}")


def _reads(node: Any, name: str) -> bool:
    """Whether ``node`` reads the name ``name``."""
    return any(n.name == name for n in _nodes(node, ast.Name))


def _nodes(node: Any, kind: type) -> Iterator[Any]:
    """Every syntax node of ``kind`` in ``node``, at any depth."""
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, ast.Node):
            if isinstance(item, kind):
                yield item
            todo.extend(vars(item).values())


def _code(node: object) -> Iterator[str]:
    """Every text of ``node`` that may hold a move: its values at any depth, but for its English (:data:`ENGLISH`)."""
    if isinstance(node, str):
        if "move(" in node:
            yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in ENGLISH:
                yield from _code(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _code(value)
