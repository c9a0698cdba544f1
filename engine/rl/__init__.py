"""Learning agents' view of any ruleset: a PettingZoo AEC environment (``pip install 'rulecraft[rl]'``).

Example::

    from engine.rl import env
    e = env("my-game", players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        mask = None if terminated else observation["action_mask"]
        e.step(None if terminated else e.action_space(agent).sample(mask))

The fixed action table is :mod:`engine.rl.actions`, the observation layout
:mod:`engine.rl.encoding`; ``rulecraft explain RULESET --observation``
prints both for a ruleset (:func:`describe`).  The same game for OpenSpiel's
algorithms is :mod:`engine.rl.openspiel` (``pip install 'rulecraft[oracle]'``),
which needs NumPy but not PettingZoo: ``env`` and ``RulecraftEnv`` load
PettingZoo when first used.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from engine.compiling.loading import GameRef
from engine.core.showtext import players as players_text
from engine.model.game import Game
from engine.rl.actions import ActionTable
from engine.rl.encoding import Encoder

if TYPE_CHECKING:
    from engine.rl.environment import RulecraftEnv, env

__all__ = ["ActionTable", "Encoder", "RulecraftEnv", "describe", "env"]


def __getattr__(name: str) -> Any:
    """``env`` and ``RulecraftEnv``, imported on first use: the package's other modules need no PettingZoo.

    >>> import engine.rl
    >>> engine.rl.env.__name__
    'env'
    """
    if name not in ("RulecraftEnv", "env"):
        raise AttributeError(f"module 'engine.rl' has no attribute '{name}'")
    value = getattr(import_module("engine.rl.environment"), name)
    globals()[name] = value
    return value


def describe(game: Game, players: int) -> list[str]:
    """The environment's spaces for ``game`` and ``players`` in English: the action table, then the observation.

    The first line is the call that makes the environment: a built-in ruleset by name, another by its file (inside
    ``allowing([...])`` when it was loaded with leave to read other folders).
    """
    table, encoder = ActionTable(game), Encoder(game, players)
    call = f"env({GameRef.of(game).source!r}, players={players}"
    call += f", variant={'+'.join(game.variants)!r}" if game.variants else ""
    call += f", set_options={dict(game.set_options)!r})" if game.set_options else ")"
    if game.allowed:  # the folders --allow named: the call loads the ruleset only where they are allowed
        call += f" inside engine.core.confine.allowing({[str(folder) for folder in game.allowed]!r})"
    return [
        f"environment of {game.name} for {players_text(players)}: from engine.rl import env; {call}",
        "action space: Discrete(" + str(len(table)) + ")",
        *("  " + line for line in table.summary()),
        "observation: {'observation': Box(int32, " + str(len(encoder)) + "), 'action_mask': Box(int8, " + str(len(table)) + ")}",
        *("  " + line for line in encoder.describe()),
        "rewards: 0 until the end, then each seat's return " + _returns(game, players),
    ]


def _returns(game: Game, players: int) -> str:
    """What each seat's return is for ``players``: shared among the winners, or every seat's when goals decide.

    >>> import engine
    >>> _returns(engine.load(engine.builtin_names()[0]), 2)
    '(1 a sole winner, 1/k for k seats sharing a win, else 0)'
    """
    return "(1 for every seat if a goal is reached, else 0)" if game.cooperative(players) else "(1 a sole winner, 1/k for k seats sharing a win, else 0)"
