"""How Iconoclasm's 5-player games end, and how often the Spirit wins.

Plays ``--games`` 5-player games of ``iconoclasm`` (or a variant) with the
seeds 0, 1, ...: every seat plays ``random``, except the Spirit's seat, which
plays ``--spirit`` (``random`` by default).  Prints how each game ended (a
deity's win at once, or scored), the icons on the board at the end, and the
Spirit's wins.  See docs/rules/iconoclasm.md, "The Spirit with 5 players".

    python benchmarks/spirit_seat.py                        # 200 random games
    python benchmarks/spirit_seat.py --variant third-parties
    python benchmarks/spirit_seat.py --games 12 --spirit mcts:150
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.runner.agents import make_agent  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the table; 0 always (this measures, it sets no bar)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--spirit", default="random", help="the agent of the Spirit's seat (others play random)")
    args = parser.parse_args(argv)
    game = engine.load("iconoclasm", args.variant)
    altar = game.zone_index[("altar", None)]
    endings: collections.Counter[str] = collections.Counter()
    icons: collections.Counter[int] = collections.Counter()
    spirit_wins = 0
    for seed in range(args.games):
        state = game.new_state(players=5, seed=seed)
        spirit = state.seat_of["Spirit"]
        agent = make_agent(args.spirit, seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            mover = state.seat_to_move
            state.apply(agent.choose(state) if mover == spirit else rng.choice(state.legal_actions()))
        outcome = state.outcome
        assert outcome is not None
        endings["scored" if outcome.text.startswith("1.") else "a deity wins at once"] += 1
        icons[len(state.zones[altar])] += 1
        spirit_wins += spirit in outcome.winners
    print(f"iconoclasm{'+' + args.variant if args.variant else ''}, 5 players, {args.games} games, "
          f"Spirit's seat: {args.spirit}, the others random")
    print("endings:", ", ".join(f"{name} {n}" for name, n in sorted(endings.items())))
    print("icons on the board at the end:", ", ".join(f"{k}: {n}" for k, n in sorted(icons.items())))
    print(f"Spirit wins: {spirit_wins} of {args.games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
