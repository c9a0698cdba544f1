"""docs/api.md stays true: every ``>>>`` example in its ```pycon blocks runs and prints what the page shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest

from engine.runner import agents

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)


def test_the_api_page_has_examples() -> None:
    assert len(BLOCK.findall(DOC.read_text(encoding="utf-8"))) >= 8


def test_every_api_example_runs_as_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks run in order in one namespace, as a reader would type them; failures name the page's lines.

    An agent kind the page registers is forgotten afterwards, so other tests see only the built-in ones.
    """
    monkeypatch.setattr(agents.registry, "AGENT_KINDS", dict(agents.AGENT_KINDS))
    monkeypatch.setattr(agents.registry, "AGENT_FORMS", dict(agents.AGENT_FORMS))
    text = DOC.read_text(encoding="utf-8")
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict[str, Any] = {}
    failures: list[str] = []
    for block in BLOCK.finditer(text):
        line = text.count("\n", 0, block.start(1))
        test = parser.get_doctest(block.group(1), namespace, "docs/api.md", str(DOC), line)
        test.globs = namespace  # share what earlier blocks made (get_doctest copies the dict)
        runner.run(test, out=failures.append, clear_globs=False)
    assert runner.failures == 0, "".join(failures)


def test_variants_of_another_kind_are_refused_by_name() -> None:
    """engine.load(NAME, 3) failed with "TypeError: 'int' object is not iterable" from deep inside the loader."""
    import engine

    with pytest.raises(TypeError, match=r"the variants are a name .* or a list of names, not int 3"):
        engine.load("tic-tac-toe", 3)


def test_variants_are_given_by_the_name_a_game_keeps_them_under_or_the_old_one() -> None:
    """engine.load(..., variants=...) raised Python's bare TypeError (the keyword was only 'variant'), though a game
    keeps them as game.variants; both are taken, one at a time."""
    import engine

    assert engine.load("spell-cycles", variants=["short", "duel"]).variants == ("short", "duel")
    assert engine.load("spell-cycles", variants="short+duel").variants == engine.load("spell-cycles", "short+duel").variants
    with pytest.raises(TypeError, match="variant or variants"):
        engine.load("spell-cycles", variant="short", variants="duel")
