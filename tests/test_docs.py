"""The effect-language reference (docs/effects.md) stays true.

Examples marked as checkable in docs/effects.md are fenced blocks:

* ```` ```effect ```` — expressions, one per line (a line that starts with
  whitespace continues the example above it; ``#`` lines are comments);
* ```` ```effect-program ```` — the whole block is one program.

Each must parse, and type-check against the card game (iconoclasm-cards),
with ``c`` bound to a card and ``r``, ``e`` to roles, as the page says.
Every function in the language's registry must appear in at least one
checkable example, so the page cannot fall behind the language.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

import engine
from engine.errors import DiagnosticSink
from engine.lang.functions import FUNCTIONS
from engine.lang.parser import parse_expression, parse_program
from engine.lang.scope import Scope
from engine.lang.types import Component

DOC = Path(__file__).resolve().parent.parent / "docs" / "effects.md"
FENCE = re.compile(r"^([ \t]*)```(effect|effect-program)[ \t]*\n(.*?)^\1```[ \t]*$", re.S | re.M)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@lru_cache(maxsize=1)
def examples() -> tuple[tuple[str, int, str], ...]:
    """(kind, line in effects.md, text) for every checkable example."""
    text = DOC.read_text(encoding="utf-8")
    found: list[tuple[str, int, str]] = []
    for m in FENCE.finditer(text):
        indent, kind = m.group(1), m.group(2)
        body = "".join(line[len(indent):] if line.startswith(indent) else line
                       for line in m.group(3).splitlines(keepends=True))
        first = _line_of(text, m.start(3))
        if kind == "effect-program":
            found.append((kind, first, body))
            continue
        for i, line in enumerate(body.splitlines()):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[:1].isspace() and found and found[-1][0] == "effect":
                k, n, prev = found[-1]
                found[-1] = (k, n, prev + "\n" + line)
            else:
                found.append((kind, first + i, line))
    return tuple(found)


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.load("iconoclasm-cards")


def _scope(game: engine.Game) -> Scope:
    scope = Scope(game.vocab, DiagnosticSink())
    role = game.vocab.data["role_type"]
    scope.bind("c", Component("card"))
    scope.bind("r", role)
    scope.bind("e", role)
    return scope


def test_there_are_examples_of_both_kinds() -> None:
    kinds = {kind for kind, _, _ in examples()}
    assert kinds == {"effect", "effect-program"}, "docs/effects.md lost its checkable examples"
    assert len(examples()) > 50


def test_every_example_parses_and_type_checks(game: engine.Game) -> None:
    problems = []
    for kind, line, text in examples():
        try:
            node = parse_program(text) if kind == "effect-program" else parse_expression(text)
        except engine.RulesetError as err:
            problems.append(f"docs/effects.md:{line}: {text!r} does not parse:\n{err}")
            continue
        scope = _scope(game)
        node.compile(scope)
        for d in scope.sink.items:
            problems.append(f"docs/effects.md:{line}: {text!r}: {d.headline()}")
    assert not problems, "\n".join(problems)


def test_every_function_is_documented_with_an_example() -> None:
    text = DOC.read_text(encoding="utf-8")
    code = "\n".join(t for _, _, t in examples())
    missing = [
        name
        for name in sorted(FUNCTIONS)
        if f"#### {name}" not in text or not re.search(rf"\b{re.escape(name)}\s*\(", code)
    ]
    assert not missing, f"docs/effects.md lacks a '#### name' section with a checkable example for: {missing}"
