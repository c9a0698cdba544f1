"""Rulesets written out in a test, compiled once per test session.

    game = game_from_text("name: tiny\nplayers: [2]\n...")
    game = game_from_text(RULESET.replace("BOARD", BOARDS["hex"]))
"""

from __future__ import annotations

import tempfile
import textwrap
from functools import lru_cache
from pathlib import Path

import engine

BOARDS = {
    "fixed": "{kind: square-grid, width: 4, height: 4, adjacency: all}",
    "orthogonal": "{kind: square-grid, width: 4, height: 4, adjacency: orthogonal}",
    "growing": "{kind: square-grid, adjacency: all}",
    "hex": "{kind: hex, radius: 2}",
    "stacking": "{kind: square-grid, width: 4, height: 4, adjacency: all, stacking: true}",
}
"""Small boards of each kind, as a ruleset's ``board:`` writes them: fixed, growing, hex and stacking."""


@lru_cache(maxsize=None)
def game_from_text(text: str) -> engine.Game:
    """The ruleset ``text`` (dedented) compiled from a file of a temporary folder, as a designer's file would be."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ruleset.yaml"
        path.write_text(textwrap.dedent(text))
        return engine.load(str(path))
