"""The effect-language reference (docs/effects.md) stays true.

Examples marked as checkable in docs/effects.md are fenced blocks:

* ```` ```effect ```` — expressions, one per line (a line that starts with
  whitespace continues the example above it; ``#`` lines are comments);
* ```` ```effect-program ```` — the whole block is one program.

Each must parse, and type-check against the card game (iconoclasm-cards),
with ``c`` bound to a card and ``r``, ``e`` to roles, as the page says.  A
fence naming another ruleset (```` ```effect-program iconica ````: a
built-in ruleset or a folder of docs/examples/) is checked against it, with
``c``, ``t`` and ``self`` bound to its first kind of component and the code
read as an action's (its damage source and a ``later`` part to ``delay``).
Every function in the language's registry must appear in at least one
checkable example, so the page cannot fall behind the language.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import engine
from engine.blocks.hooks import SOURCE_LOCAL
from engine.blocks.numbered import LATER_LOCAL
from engine.compiling.vocabulary import built_in_functions
from engine.core.errors import DiagnosticSink
from engine.lang.parser import parse_expression, parse_program
from engine.lang.scope import Scope
from engine.lang.types import BOOL, Component

DOC = Path(__file__).resolve().parent.parent / "docs" / "effects.md"
FENCE = re.compile(r"^([ \t]*)```(effect|effect-program)(?:[ \t]+([\w-]+))?[ \t]*\n(.*?)^\1```[ \t]*$", re.S | re.M)
CARDS = "iconoclasm-cards"


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@lru_cache(maxsize=1)
def examples() -> tuple[tuple[str, int, str, str], ...]:
    """(kind, line in effects.md, text, ruleset) for every checkable example."""
    text = DOC.read_text(encoding="utf-8")
    found: list[tuple[str, int, str, str]] = []
    for m in FENCE.finditer(text):
        indent, kind, ruleset = m.group(1), m.group(2), m.group(3) or CARDS
        body = "".join(line[len(indent):] if line.startswith(indent) else line
                       for line in m.group(4).splitlines(keepends=True))
        first = _line_of(text, m.start(4))
        if kind == "effect-program":
            found.append((kind, first, body, ruleset))
            continue
        for i, line in enumerate(body.splitlines()):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[:1].isspace() and found and found[-1][0] == "effect":
                k, n, prev, r = found[-1]
                found[-1] = (k, n, prev + "\n" + line, r)
            else:
                found.append((kind, first + i, line, ruleset))
    return tuple(found)


@lru_cache(maxsize=None)
def _game(name: str) -> engine.Game:
    example = DOC.parent / "examples" / name
    return engine.load(example if example.is_dir() else name)


def _scope(name: str) -> Scope:
    game = _game(name)
    scope = Scope(game.vocab, DiagnosticSink())
    role = game.vocab.data["role_type"]
    if name == CARDS:
        scope.bind("c", Component("card"))
        scope.bind("r", role)
        scope.bind("e", role)
        return scope
    kind = Component(next(iter(game.kinds)))
    for var in ("c", "t", "self"):
        scope.bind(var, kind)
    scope.bind("r", role)
    scope.bind(SOURCE_LOCAL, game.parts.get("meter").source_type if game.parts.get("meter") else kind)
    scope.bind(LATER_LOCAL, BOOL)
    return scope


def test_there_are_examples_of_both_kinds() -> None:
    kinds = {kind for kind, _, _, _ in examples()}
    assert kinds == {"effect", "effect-program"}, "docs/effects.md lost its checkable examples"
    assert len(examples()) > 50


def test_every_example_parses_and_type_checks() -> None:
    problems = []
    for kind, line, text, ruleset in examples():
        try:
            node = parse_program(text) if kind == "effect-program" else parse_expression(text)
        except engine.RulesetError as err:
            problems.append(f"docs/effects.md:{line}: {text!r} does not parse:\n{err}")
            continue
        scope = _scope(ruleset)
        node.compile(scope)
        for d in scope.sink.items:
            problems.append(f"docs/effects.md:{line}: {text!r}: {d.headline()}")
    assert not problems, "\n".join(problems)


def test_every_function_is_documented_with_an_example() -> None:
    text = DOC.read_text(encoding="utf-8")
    code = "\n".join(t for _, _, t, _ in examples())
    missing = [
        name
        for name in sorted(built_in_functions())
        if f"#### {name}" not in text or not re.search(rf"\b{re.escape(name)}\s*\(", code)
    ]
    assert not missing, f"docs/effects.md lacks a '#### name' section with a checkable example for: {missing}"


def test_every_optional_argument_of_a_function_is_documented() -> None:
    """Each '[, NAME]' of a function's usage appears in its '#### name' section: move()'s COUNT once did not."""
    text = DOC.read_text(encoding="utf-8")
    missing = []
    for name, function in sorted(built_in_functions().items()):
        found = re.search(rf"^#### {re.escape(name)}\n(.*?)(?=^#|\Z)", text, re.M | re.S)
        section = found.group(1) if found else ""
        for optional in re.findall(r"\[,\s*([^\]]+?)\]", function.signature):
            word = optional.split("=")[0].strip()
            if word not in section:
                missing.append(f"{name}: {word} (usage: {function.signature})")
    assert not missing, f"docs/effects.md does not document: {missing}"
