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
prints both for a ruleset (:func:`describe`).
"""

from __future__ import annotations

from engine.compiling.loading import GameRef
from engine.core.showtext import players as players_text
from engine.model.game import Game
from engine.rl.actions import ActionTable
from engine.rl.encoding import Encoder
from engine.rl.environment import RulecraftEnv, env

__all__ = ["ActionTable", "Encoder", "RulecraftEnv", "describe", "env"]


def describe(game: Game, players: int) -> list[str]:
    """The environment's spaces for ``game`` and ``players`` in English: the action table, then the observation.

    The first line is the call that makes the environment: a built-in ruleset by name, another by its file.
    """
    table, encoder = ActionTable(game), Encoder(game, players)
    call = f"env({GameRef.of(game).source!r}, players={players}"
    call += f", variant={'+'.join(game.variants)!r}" if game.variants else ""
    call += f", set_options={dict(game.set_options)!r})" if game.set_options else ")"
    return [
        f"environment of {game.name} for {players_text(players)}: from engine.rl import env; {call}",
        "action space: Discrete(" + str(len(table)) + ")",
        *("  " + line for line in table.summary()),
        "observation: {'observation': Box(int32, " + str(len(encoder)) + "), 'action_mask': Box(int8, " + str(len(table)) + ")}",
        *("  " + line for line in encoder.describe()),
        "rewards: 0 until the end, then each seat's return (1 a sole winner, 1/k for k tied winners, else 0)",
    ]
