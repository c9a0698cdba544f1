"""Random-game logs of every shipped ruleset x variant x player count, to diff before and after a change.

A redesign of the engine must leave games unchanged: run this before and
after, into two folders, and compare them (``diff -r before after``).  Each
file holds, per game, every action, every event the log records and the
position's hash after each action; the games are played by random agents
seeded from ``--seed``, as ``rulecraft simulate`` seeds them.

Example::

    python benchmarks/game_logs.py --games 10 --seed 1 /tmp/before
    # ... change the engine ...
    python benchmarks/game_logs.py --games 10 --seed 1 /tmp/after
    diff -r /tmp/before /tmp/after && echo identical
"""

from __future__ import annotations

import argparse
from pathlib import Path

import engine
from engine.runner.agents import make_agent
from engine.runner.replay import state_hash
from engine.runner.simulate import derive_seed


def game_lines(game: engine.Game, players: int, seed: int) -> list[str]:
    """One random game as text: actions, events and position hashes, in order."""
    state = game.new_state(players=players, seed=seed, record=True)
    agents = [make_agent("random", derive_seed(seed, i + 1)) for i in range(players)]
    lines = [f"start {state_hash(state)}"]
    seen = 0
    while not state.is_terminal:
        action = agents[state.seat_to_move - 1].choose(state)
        state.apply(action)
        log = state.log or []
        lines.extend(f"  {event}" for event in log[seen:])
        seen = len(log)
        lines.append(f"{action} -> {state_hash(state)}")
    lines.append(f"returns {state.returns()}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", action="append", help="only these rulesets (repeat; default: every shipped one)")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    for name in args.ruleset or engine.builtin_names():
        base = engine.load(name)
        for variant in [None, *base.available_variants]:
            game = base if variant is None else engine.load(name, variant=variant)
            for players in game.player_counts:
                lines: list[str] = []
                for i in range(args.games):
                    lines.append(f"# game {i + 1}")
                    lines.extend(game_lines(game, players, derive_seed(args.seed, i)))
                out = args.folder / f"{name}{'+' + variant if variant else ''}-{players}p.log"
                out.write_text("\n".join(lines) + "\n", encoding="utf-8")
                print(out.name, len(lines), "lines", flush=True)


if __name__ == "__main__":
    main()
