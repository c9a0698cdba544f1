"""OpenSpiel, the independent implementation the classic games and examples are checked against (the ``oracle``
extra), and the folder of the examples.

Without the extra the tests that need it are skipped, except where the ``CI`` environment variable is set: there
the import fails, so the oracle can never silently go missing from a run meant to check everything.

Example::

    from tests.oracle import EXAMPLES, needs_oracle, pyspiel

    @needs_oracle
    def test_my_game_plays_as_openspiels() -> None:
        theirs = pyspiel.load_game("amazons")
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
"""The examples written from the docs (``docs/examples``)."""


def _openspiel() -> ModuleType | None:
    """``pyspiel``, or None when the oracle extra is missing (an ImportError under CI)."""
    try:
        import pyspiel
    except ImportError:
        if os.environ.get("CI"):
            raise ImportError("the OpenSpiel oracle is missing: pip install '.[oracle]' (CI must run these tests)") from None
        return None
    return pyspiel


pyspiel: ModuleType | None = _openspiel()

needs_oracle = pytest.mark.skipif(pyspiel is None, reason="OpenSpiel is not installed (pip install '.[oracle]')")
"""Marks a test that plays beside OpenSpiel."""


def seeds(variable: str, chosen: tuple[int, ...]) -> tuple[int, ...]:
    """The seeds of a cross-check's random games: ``chosen`` (picked so that the suite's few games reach every rule
    the check is about), and with the environment variable ``variable`` set to N the seeds 0..N-1 too, for a longer
    run that looks for rare disagreements.

    Example: ``seeds("CHESS_GAMES", (67, 191))`` is ``(67, 191)``, and ``(0, 1, 2, 67, 191)`` under
    ``CHESS_GAMES=3``.
    """
    more = range(int(os.environ.get(variable, "0")))
    return (*more, *(seed for seed in chosen if seed not in more))


def slow_seeds(variable: str, chosen: tuple[int, ...], slow: set[int]) -> list[object]:
    """:func:`seeds` as a test's parameters, those of ``chosen`` in ``slow`` marked slow (run with
    ``RULECRAFT_SLOW_TESTS=1`` or ``-m slow``): a game whose rules the suite's other games or the example's scenarios
    reach, kept for a longer run.

    Example: ``slow_seeds("CHESS_GAMES", (67, 191), {191})`` is ``[67, pytest.param(191, marks=pytest.mark.slow)]``.
    """
    return [pytest.param(seed, marks=pytest.mark.slow) if seed in slow else seed for seed in seeds(variable, chosen)]


def games(variable: str, default: int) -> int:
    """How many random games a cross-check plays: ``default`` in the suite, or the environment variable ``variable``
    for a longer run (``GO_GAMES=1000``).

    Example: ``for seed in range(games("GO_GAMES", 30)): ...``
    """
    return int(os.environ.get(variable, str(default)))
