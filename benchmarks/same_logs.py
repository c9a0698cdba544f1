"""Dump the logs of random games of every shipped ruleset x variant x player count, to compare two versions.

Each game is played as ``rulecraft simulate RULESET --seed SEED`` plays it (random agents seeded the same way)
with its log and history kept; one file per ruleset, variant and player count.  Games that keep no log take
other paths through the engine (nothing is explained, no text is built), so each file then lists random
playouts without a log, as ``rulecraft bench`` plays them: for each, its length, the hash of its final
position and its returns.  Run it on two versions of the engine and diff the folders: a change that keeps
behaviour leaves every file identical.

    PYTHONPATH=$PWD python benchmarks/same_logs.py /tmp/before      # on the old version
    PYTHONPATH=$PWD python benchmarks/same_logs.py /tmp/after       # on the new one
    diff -r /tmp/before /tmp/after && echo same
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import engine
from engine.runner.agents import make_agent
from engine.runner.replay import state_hash
from engine.runner.simulate import derive_seed


def game_text(game: engine.Game, players: int, seed: int) -> str:
    """The log, the history and the result of one game of random agents seeded from ``seed``."""
    state = game.new_state(players=players, seed=seed, record=True)
    seats = [make_agent("random", derive_seed(seed, i + 1)) for i in range(players)]
    while not state.is_terminal:
        state.apply(seats[state.seat_to_move - 1].choose(state))
    assert state.log is not None and state.history is not None
    return "\n".join([*state.log, "--- history", *state.history, f"--- returns {state.returns()}"])


def playout_line(game: engine.Game, players: int, seed: int) -> str:
    """A random playout with no log (uniform over the legal actions, by index): its length, final position, returns."""
    state, choose, length = game.new_state(players=players, seed=seed), random.Random(seed), 0
    while not state.is_terminal:
        state.play(choose.randrange(len(state.legal_actions())))
        length += 1
    return f"{seed} {length} {state_hash(state)} {state.returns()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="where to write one file per ruleset, variant and player count")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--playouts", type=int, default=40, help="games without a log, per file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    for name in engine.builtin_names():
        base = engine.load(name)
        for variant in (None, *base.available_variants):
            game = engine.load(name, variant) if variant else base
            for players in game.player_counts:
                texts = [game_text(game, players, derive_seed(args.seed, k)) for k in range(args.games)]
                quiet = [playout_line(game, players, derive_seed(args.seed + 1, k)) for k in range(args.playouts)]
                path = args.folder / f"{name}{'+' + variant if variant else ''}-{players}p.log"
                path.write_text("\n=== next game\n".join(texts) + "\n=== playouts without a log\n" + "\n".join(quiet) + "\n")
                print(path.name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
