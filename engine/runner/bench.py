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
from collections.abc import Callable
from typing import Any

from engine.core.errors import EffectRuntimeError
from engine.model.game import Game
from engine.runner.simulate import derive_seed, whole


def playout(game: Game, players: int, seed: int, choose: random.Random) -> int:
    """One random game; returns the number of actions it took (no Action object is built).  A turn that takes
    ``limits.turn_decisions`` decisions without passing stops it, with :meth:`State.endless_turn`'s error."""
    state = game.new_state(players=players, seed=seed)
    most = game.limits.turn_decisions
    length, turn, stop = 0, state.turn_number, most  # stop: the length at which this turn reaches the limit
    while state.outcome is None:
        state.play(choose.randrange(len(state.legal_actions())))
        length += 1
        if state.turn_number != turn:
            turn, stop = state.turn_number, length + most
        elif length == stop and state.outcome is None:
            raise state.endless_turn(most)
    return length


def _told_playout(game: Game, players: int, seed: int, index: int, choose: random.Random) -> int:
    """Playout ``index`` of a run of ``seed``; an effect failing in it says which, as ``simulate`` names its game.

    >>> import engine
    >>> _told_playout(engine.load(engine.builtin_names()[0]), 2, 0, 0, random.Random(0)) > 0
    True
    """
    try:
        return playout(game, players, derive_seed(seed, index), choose)
    except EffectRuntimeError as err:
        where = (f"in random playout {index + 1} of seed {seed}, a game of seed {derive_seed(seed, index)}; "
                 f"bench --seed {seed} --playouts {index + 1} meets it again")
        raise EffectRuntimeError(f"{err.message} ({where})", err.pos, err.public) from None


def bench(
    game: Game, players: int, playouts: int, seed: int, repeats: int = 3, advance: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Time ``repeats`` runs of ``playouts`` random games each (the same games every run).

    Like ``timeit``, the speed reported is that of the fastest run: timing
    noise on a shared machine only ever slows a run down.  The median run's
    speed is reported beside it.  ``advance(n)`` is told a few times a second how
    many of the ``repeats * playouts`` games have been played.  Interrupted (Ctrl-C),
    it reports the runs finished so far, or the first run's games so far, marked
    ``partial``; interrupted before any game ended, it raises KeyboardInterrupt.

    bench(engine.load("my-game"), 2, playouts=500, seed=0, advance=bar.update)["playouts_per_second"]

    The numbers may be NumPy's (read as plain ints); anything else is a TypeError naming it.
    """
    players, playouts, seed, repeats = (whole(name, value) for name, value in
                                        (("players", players), ("playouts", playouts), ("seed", seed), ("repeats", repeats)))
    if playouts < 1 or repeats < 1:  # nothing timed: the speed was a ZeroDivisionError, max() of no runs a ValueError
        raise ValueError(f"bench plays at least one playout in at least one run, not {playouts} in {repeats}")
    rates: list[float] = []
    actions = 0
    partial = False
    for run in range(repeats):
        choose = random.Random(seed)
        start = shown = time.perf_counter()
        played = taken = 0
        try:
            for i in range(playouts):
                taken += _told_playout(game, players, seed, i, choose)
                played += 1
                if advance is not None and time.perf_counter() - shown > 0.1:  # a few times a second: timing unskewed
                    advance(run * playouts + played)
                    shown = time.perf_counter()
        except KeyboardInterrupt:
            if not rates and not played:
                raise
            partial = True
        seconds = time.perf_counter() - start
        if partial and rates:  # a whole run was measured: the cut one does not count
            break
        rates.append(played / seconds if seconds > 0 else float("inf"))
        actions = taken
        if partial:
            playouts = played
            break
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
        **({"partial": True, "runs": len(rates)} if partial else {}),
    }
