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

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.compiling.loading import load
    from engine.core.decisions import CHANCE, SIMULTANEOUS, TERMINAL
    from engine.core.errors import IllegalActionError, RulecraftError, RulesetError
    from engine.core.paths import builtin_names
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

_HOMES = {
    "CHANCE": "engine.core.decisions",
    "SIMULTANEOUS": "engine.core.decisions",
    "TERMINAL": "engine.core.decisions",
    "IllegalActionError": "engine.core.errors",
    "RulecraftError": "engine.core.errors",
    "RulesetError": "engine.core.errors",
    "builtin_names": "engine.core.paths",
    "load": "engine.compiling.loading",
    "Game": "engine.model.game",
    "State": "engine.model.state",
}
"""The module each public name comes from."""


def __getattr__(name: str) -> Any:
    """Each public name, imported from its module on first use: ``import engine`` loads nothing else.

    The compiler and the effect language load only when a program asks for
    them (``rulecraft --help`` never does), and ``engine.core.X`` modules
    load without the others; after the first use the name is an ordinary
    attribute of the package.

    >>> import engine
    >>> engine.TERMINAL
    -1
    """
    if name not in _HOMES:
        raise AttributeError(f"module 'engine' has no attribute '{name}'")
    value = getattr(import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's names with the public ones not used yet, so tab completion and ``dir(engine)`` list them.

    >>> import engine
    >>> "load" in dir(engine)
    True
    """
    return sorted({*globals(), *__all__})
