"""Rulecraft: a data-driven tabletop ruleset interpreter.

The public API (see DESIGN.md):

Example::

    import engine
    game = engine.load("my-game")              # a built-in name or a path
    state = game.new_state(players=2, seed=3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])  # or text: state.apply("place ...")
    print(state.returns())                     # [1.0, 0.0]: seat 1 won
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.decisions import CHANCE, SIMULTANEOUS, TERMINAL
from engine.errors import IllegalActionError, RulecraftError, RulesetError
from engine.game import Game
from engine.loading import load_path, parse_variants
from engine.paths import builtin_names, find_ruleset
from engine.state import State

__all__ = [
    "CHANCE",
    "Game",
    "IllegalActionError",
    "RulecraftError",
    "RulesetError",
    "SIMULTANEOUS",
    "State",
    "TERMINAL",
    "builtin_names",
    "load",
]


def load(
    name_or_path: str | Path, variant: str | Sequence[str] | None = None, set_options: Mapping[str, str] | None = None
) -> Game:
    """Load, validate and compile a ruleset (a built-in name or a path).

    ``variant`` is one variant name, several joined by '+' (``duel+short``), or a
    list of names; they are applied in order.  ``set_options`` maps option
    names to values written as in YAML (``{"width": "4"}``); they replace
    the options' defaults, after the variants.
    """
    return load_path(find_ruleset(str(name_or_path)), parse_variants(variant), set_options)
