"""What the docs say a refused answer reads, and where they say that equal keys under ``points: key`` draw: the
docs showed only a switch_role step's words ("choose one of: ...") for a refused action, and told of equal keys only
in the classics' section."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine


def test_the_docs_show_a_refused_answer_as_the_engine_words_it() -> None:
    """The docs showed only "choose one of: ..." (a switch_role step's words) for a refused action; an answer to a
    choose is refused with "does not answer the question (...); the options are: ...", and now the docs say so."""
    from engine.core.errors import IllegalActionError

    root = Path(__file__).resolve().parent.parent
    s = engine.load(root / "docs" / "examples" / "amazons").new_state(players=2, seed=1)
    s.apply("choose White at 0,6")
    with pytest.raises(IllegalActionError) as err:
        s.apply("choose 9,9")
    said = str(err.value)
    assert said.startswith("'choose 9,9' does not answer the question (the square it goes to); the options are: choose ")
    for page in ("rulesets.md", "effects.md"):
        text = " ".join((root / "docs" / page).read_text(encoding="utf-8").split())
        assert "'choose 9,9' does not answer the question (the square it goes to); the options are: choose" in text, page


def test_the_docs_say_equal_keys_draw_where_scoring_is_documented() -> None:
    root = Path(__file__).resolve().parent.parent
    text = " ".join((root / "docs" / "rulesets.md").read_text(encoding="utf-8").split())
    scoring = text[text.index("### scoring"):text.index("### goals")]
    assert "equal first keys are a draw" in scoring
