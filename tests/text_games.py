"""Rulesets written out in a test, compiled once per test session.

    game = game_from_text("name: tiny\nplayers: [2]\n...")
"""

from __future__ import annotations

import tempfile
import textwrap
from functools import lru_cache
from pathlib import Path

import engine


@lru_cache(maxsize=None)
def game_from_text(text: str) -> engine.Game:
    """The ruleset ``text`` (dedented) compiled from a file of a temporary folder, as a designer's file would be."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ruleset.yaml"
        path.write_text(textwrap.dedent(text))
        return engine.load(str(path))
