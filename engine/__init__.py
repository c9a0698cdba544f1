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

from typing import TYPE_CHECKING, Any

from engine.core.decisions import CHANCE, SIMULTANEOUS, TERMINAL
from engine.core.errors import IllegalActionError, RulecraftError, RulesetError
from engine.core.paths import builtin_names

if TYPE_CHECKING:
    from engine.compiling.loading import load
    from engine.model.game import Game
    from engine.model.state import State

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


def __getattr__(name: str) -> Any:
    """``load``, ``Game`` and ``State``, imported on first use: ``import engine`` stays cheap.

    The compiler and the effect language load only when a program asks for
    them (``rulecraft --help`` never does); after the first use the name is
    an ordinary attribute of the package.
    """
    if name == "load":
        from engine.compiling.loading import load as value
    elif name == "Game":
        from engine.model.game import Game as value
    elif name == "State":
        from engine.model.state import State as value
    else:
        raise AttributeError(f"module 'engine' has no attribute '{name}'")
    globals()[name] = value
    return value
