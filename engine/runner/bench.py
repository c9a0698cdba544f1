"""Random playouts per second: the number ``rulecraft bench`` reports.

Each playout makes a fresh state (seeded from the run seed and its index) and
applies a uniformly random legal action until the game ends, with no log.
The games are played ``repeats`` times and the fastest run counts.

Example::

    result = bench(engine.load("my-game"), players=2, playouts=500, seed=0)
    print(result["playouts_per_second"], result["actions_per_game"])
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from typing import Any

from engine.model.game import Game
from engine.runner.simulate import derive_seed


def playout(game: Game, players: int, seed: int, choose: random.Random) -> int:
    """One random game; returns the number of actions it took (no Action object is built)."""
    state = game.new_state(players=players, seed=seed)
    length = 0
    while state.outcome is None:
        state.play(choose.randrange(len(state.legal_actions())))
        length += 1
    return length


def bench(game: Game, players: int, playouts: int, seed: int, repeats: int = 3) -> dict[str, Any]:
    """Time ``repeats`` runs of ``playouts`` random games each (the same games every run).

    Like ``timeit``, the speed reported is that of the fastest run: timing
    noise on a shared machine only ever slows a run down.  The median run's
    speed is reported beside it.
    """
    rates = []
    actions = 0
    for _ in range(repeats):
        choose = random.Random(seed)
        start = time.perf_counter()
        actions = sum(playout(game, players, derive_seed(seed, i), choose) for i in range(playouts))
        seconds = time.perf_counter() - start
        rates.append(playouts / seconds if seconds > 0 else float("inf"))
    best = max(rates)
    return {
        "ruleset": game.name,
        "variants": list(game.variants),
        "set_options": dict(game.set_options),
        "players": players,
        "playouts": playouts,
        "repeats": repeats,
        "seconds": playouts / best,
        "playouts_per_second": best,
        "median_playouts_per_second": statistics.median(rates),
        "actions_per_game": actions / playouts if playouts else 0.0,
        "actions_per_second": actions * best / playouts if playouts else 0.0,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
    }
