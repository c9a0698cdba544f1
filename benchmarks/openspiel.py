"""Random playouts of the classic rulesets against OpenSpiel's own games, both driven from Python, in one run.

For each game both sides play the same number of whole random games (a new
state, then a uniformly random legal action — chance outcomes drawn by their
probabilities on OpenSpiel's side, by the ruleset's seeded setup on ours —
until the end).  Runs alternate between the two, so both see the same load,
and the fastest run of each counts, as in ``rulecraft bench``.  The ratio is
Rulecraft's time per playout over OpenSpiel's: how many times slower the
interpreter is than a C++ implementation called from a Python loop.

    pip install -e '.[oracle]'
    python benchmarks/openspiel.py                       # every classic, 1,000 playouts, fastest of 3
    python benchmarks/openspiel.py othello --playouts 200
    python benchmarks/openspiel.py connect-four plain-connect-four

The rows ``plain-tic-tac-toe``, ``plain-connect-four`` and ``plain-othello`` are the same
games written plainly (``benchmarks/rulesets/``), run against the same OpenSpiel
games.  Tic-tac-toe and connect-four are also written straight in Python
(``benchmarks/plain_python.py``), timed in the same turns: the column
"plain Python / OpenSpiel" says what hand-written Python reaches here.
    python benchmarks/openspiel.py --format json

Exit status 2 when OpenSpiel is not installed.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

import engine
from engine.runner.bench import bench

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plain_python import PLAYERS  # noqa: E402  (a script beside this one, not a package)

GAMES = {
    "tic-tac-toe": "tic_tac_toe",
    "connect-four": "connect_four",
    "othello": "othello",
    "breakthrough": "breakthrough",
    "kuhn-poker": "kuhn_poker",
    "liars-dice": "liars_dice",
    "plain-tic-tac-toe": "tic_tac_toe",
    "plain-connect-four": "connect_four",
    "plain-othello": "othello",
}

PLAIN = Path(__file__).resolve().parent / "rulesets"
"""The plainly written rulesets (``plain-...``), not tuned for speed."""


def load(name: str) -> engine.Game:
    """A shipped classic, or a plain one from ``benchmarks/rulesets``."""
    return engine.load(str(PLAIN / name) if name.startswith("plain-") else name)


def openspiel_playouts(game: Any, playouts: int, seed: int) -> tuple[float, int]:
    """Seconds for ``playouts`` random games of an OpenSpiel game, and the decisions they took (chance excluded)."""
    choose = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(choose.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            actions = state.legal_actions()
            state.apply_action(actions[choose.randrange(len(actions))])
            decisions += 1
    return time.perf_counter() - start, decisions


def compare(name: str, playouts: int, repeats: int, seed: int) -> dict[str, Any]:
    """One row: both sides' fastest playouts per second and actions per game, and the ratio."""
    import pyspiel

    ours_game, theirs_game = load(name), pyspiel.load_game(GAMES[name])
    ours: list[float] = []
    theirs: list[float] = []
    plain: list[float] = []
    our_actions = their_actions = 0.0
    for _ in range(repeats):
        result = bench(ours_game, players=2, playouts=playouts, seed=seed, repeats=1)
        ours.append(result["playouts_per_second"])
        our_actions = result["actions_per_game"]
        seconds, decisions = openspiel_playouts(theirs_game, playouts, seed)
        theirs.append(playouts / seconds)
        their_actions = decisions / playouts
        if name in PLAYERS:
            plain.append(playouts / PLAYERS[name](playouts, seed)[0])
    return {
        "ruleset": name,
        "openspiel": GAMES[name],
        "playouts": playouts,
        "repeats": repeats,
        "rulecraft_playouts_per_second": max(ours),
        "openspiel_playouts_per_second": max(theirs),
        "rulecraft_actions_per_game": our_actions,
        "openspiel_actions_per_game": their_actions,
        "ratio": max(theirs) / max(ours),
        "plain_python_playouts_per_second": max(plain) if plain else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--playouts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}: choose from {', '.join(GAMES)}")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install -e '.[oracle]'", file=sys.stderr)
        return 2
    rows = [compare(name, args.playouts, args.repeat, args.seed) for name in args.games or GAMES]
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return 0
    print(f"random playouts, fastest of {args.repeat} runs of {args.playouts}, runs alternating; "
          f"Python {platform.python_version()}")
    print()
    print("| ruleset | Rulecraft playouts/s | OpenSpiel playouts/s | OpenSpiel / Rulecraft | Rulecraft / OpenSpiel "
          "| plain Python / OpenSpiel | actions per game (ours / OpenSpiel's) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        hand = r["plain_python_playouts_per_second"]
        hand_ratio = f"{hand / r['openspiel_playouts_per_second']:.2f}x" if hand else "–"
        print(f"| {r['ruleset']} | {r['rulecraft_playouts_per_second']:,.0f} | {r['openspiel_playouts_per_second']:,.0f} | "
              f"{r['ratio']:,.0f}x | {1 / r['ratio']:.3f}x | {hand_ratio} "
              f"| {r['rulecraft_actions_per_game']:.1f} / {r['openspiel_actions_per_game']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
