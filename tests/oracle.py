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
