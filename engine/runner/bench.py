"""Speed: random playouts per second, the number ``rulecraft bench`` reports, and an agent's decisions per second
(``bench --agent``: :func:`bench_agent`).

Each playout makes a fresh state (seeded from the run seed and its index) and
applies a uniformly random legal action until the game ends, with no log.
The games are played ``repeats`` times and the fastest run counts.

Example::

    result = bench(engine.load("my-game"), players=2, playouts=500, seed=0)
    print(result["playouts_per_second"], result["actions_per_game"])
"""

from __future__ import annotations

import functools
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.core.errors import EffectRuntimeError, RulecraftError
from engine.model.game import Game
from engine.model.state import State
from engine.runner.agents import make_agent
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


def bench_positions(game: Game, players: int, count: int, seed: int) -> list[State]:
    """``count`` positions with a real choice (two or more legal actions), one from each random game."""
    positions: list[State] = []
    index = 0
    while len(positions) < count and index < count * 10:
        choose = random.Random(derive_seed(seed, index))
        state = game.new_state(players=players, seed=derive_seed(seed, index))
        index += 1
        candidates: list[State] = []
        while not state.is_terminal:
            actions = state.legal_actions()
            if len(actions) > 1:
                candidates.append(state.clone())
            state.apply(actions[choose.randrange(len(actions))], undo=False)
        if candidates:
            positions.append(candidates[choose.randrange(len(candidates))])
    return positions


def bench_agent(
    game: Game, players: int, spec: str, decisions: int, seed: int, repeats: int = 3,
    advance: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Time ``agent.choose`` on positions from random games; the fastest of ``repeats`` runs counts.

    An agent that searches reports its last search as ``agent.last.iterations``
    (see engine.runner.agents); their sum over a run divided by the run's time is
    ``iterations_per_second`` (None for an agent that reports no iterations).
    ``advance(done, total)`` is told after each decision how many of the runs'
    decisions were made.  Interrupted (Ctrl-C), it reports the runs finished so
    far, marked ``partial``; interrupted during the first, it raises KeyboardInterrupt.

    bench_agent(engine.load("my-game"), 2, "mcts:400", decisions=10, seed=0)["iterations_per_second"]
    """
    players, decisions, seed, repeats = (whole(name, value) for name, value in
                                         (("players", players), ("decisions", decisions), ("seed", seed), ("repeats", repeats)))
    if decisions < 1 or repeats < 1:  # nothing timed: min() of no runs was a ValueError of its own
        raise ValueError(f"bench_agent times at least one decision in at least one run, not {decisions} in {repeats}")
    positions = bench_positions(game, players, decisions, seed)
    if not positions:
        raise RulecraftError(f"{game.name}: no position with a choice of actions in {decisions * 10} random games")
    runs: list[tuple[float, int | None]] = []
    try:
        for run in range(repeats):
            told = None if advance is None else functools.partial(_told, advance, run * len(positions), repeats * len(positions))
            runs.append(_time_decisions(spec, positions, seed, told))
    except KeyboardInterrupt:
        if not runs:
            raise
    seconds, iterations = min(runs, key=lambda run: run[0] / (run[1] or 1))  # least time per iteration

    def speed(count: float) -> float:
        return count / seconds if seconds > 0 else float("inf")

    return {
        "ruleset": game.name,
        "variants": list(game.variants),
        "set_options": dict(game.set_options),
        "players": players,
        "agent": spec,
        "decisions": len(positions),
        "repeats": repeats,
        "seconds": seconds,
        "decisions_per_second": speed(len(positions)),
        "iterations_per_decision": iterations / len(positions) if iterations is not None else None,
        "iterations_per_second": speed(iterations) if iterations is not None else None,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        **({"partial": True, "runs": len(runs)} if len(runs) < repeats else {}),
    }


def _told(advance: Callable[[int, int], None], before: int, total: int, number: int) -> None:
    """``advance`` told of the ``number``-th decision of a run that follows ``before`` others, of ``total``."""
    advance(before + number, total)


def _time_decisions(
    spec: str, positions: list[State], seed: int, advance: Callable[[int], None] | None = None,
) -> tuple[float, int | None]:
    """Seconds that fresh agents took to decide on ``positions``, and their iterations (None if unreported);
    ``advance(n)`` after the ``n``-th decision, outside the time measured."""
    agents = [make_agent(spec, derive_seed(seed, i)) for i in range(len(positions))]
    seconds = 0.0
    counted: int | None = 0
    for number, (agent, state) in enumerate(zip(agents, positions), 1):
        start = time.perf_counter()
        agent.choose(state)
        seconds += time.perf_counter() - start
        if advance is not None:
            advance(number)
        last = getattr(agent, "last", None)
        if last is None:
            counted = None
        elif counted is not None:
            counted += last.iterations
    return seconds, counted
