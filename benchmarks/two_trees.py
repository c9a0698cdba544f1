"""The engine of two checkouts side by side: random playouts by CPU time, or MCTS iterations per second.

    git worktree add /tmp/before 52cd32e
    python benchmarks/two_trees.py /tmp/before .                      # playouts, median of 15 paired ratios
    python benchmarks/two_trees.py /tmp/before . --rounds 9 nine-domains connect-four
    python benchmarks/two_trees.py /tmp/before . --mcts --rounds 7    # mcts:200 iterations/s, median of 7 paired ratios

Playouts: one long-lived worker process per checkout (its folder first on
``sys.path``) plays the same fixed-seed random games on request and answers
with their CPU time; the two take turns, the order swapped every round, and
the median of the per-round ratios counts (time before / time after: above
1, the second checkout is faster).  The games are played once by each before
timing, so loading and first-time tables stay out of it.  MCTS: the same
long-lived workers make the decisions of ``rulecraft bench RULESET --agent
mcts:200 --decisions 5 --seed 1`` (the same positions and agents' seeds) and
answer with their CPU time and iterations; the rounds alternate likewise, the
median of the per-round ratios of iterations per second counts, and each
side's best round is shown beside it.  Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

PLAYOUTS = {"iconoclasm-cards": (4, 1500), "iconoclasm": (4, 300), "nine-domains": (2, 2400), "spell-cycles": (2, 240),
            "tutorial-tiles": (2, 1500), "tic-tac-toe": (2, 3000), "connect-four": (2, 1200), "othello": (2, 240),
            "plain-tic-tac-toe": (2, 1500), "plain-connect-four": (2, 400), "iconica": (2, 40), "breakthrough": (2, 160),
            "hex-glyphs": (2, 100), "plain-othello": (2, 20)}
"""Player count and games per timed run (about a third of a second each on the benchmark machine).  A name of
benchmarks/rulesets/ (the plainly written rulesets) is loaded from there, the same files for both checkouts."""

PLAIN = Path(__file__).resolve().parent / "rulesets"

SEARCHES = [("iconoclasm-cards", 2), ("iconoclasm-cards", 4), ("tutorial-tiles", 2), ("nine-domains", 2),
            ("iconoclasm", 4), ("spell-cycles", 2), ("iconica", 2), ("tic-tac-toe", 2), ("connect-four", 2),
            ("othello", 2), ("breakthrough", 2), ("kuhn-poker", 2), ("liars-dice", 2)]

WORKER = """
import random, sys, time
import engine
from engine.runner.simulate import derive_seed
games = {}
for line in sys.stdin:
    name, players, n = line.split()
    players, n = int(players), int(n)
    game = games.get(name) or games.setdefault(name, engine.load(name))
    choose = random.Random(0)
    start = time.process_time()
    for i in range(n):
        state = game.new_state(players=players, seed=derive_seed(0, i))
        while state.outcome is None:
            state.play(choose.randrange(len(state.legal_actions())))
    print(time.process_time() - start, flush=True)
"""

SEARCHER = """
import sys, time
import engine
from engine.runner.agents import make_agent
from engine.runner.simulate import derive_seed
try:
    from engine.runner.bench import bench_positions
except ImportError:  # the morning's checkout kept it in simulate
    from engine.runner.simulate import bench_positions
positions = {}
for line in sys.stdin:
    name, players, spec = line.split()
    key = (name, int(players))
    if key not in positions:
        positions[key] = bench_positions(engine.load(name), int(players), 5, 1)
    iterations, start = 0, time.process_time()
    while iterations == 0 or time.process_time() - start < 0.3:  # the five decisions again, for a third of a second
        for i, state in enumerate(positions[key]):  # fresh agents seeded as bench_agent seeds them
            agent = make_agent(spec, derive_seed(1, i))
            agent.choose(state)
            iterations += agent.last.iterations
    print(time.process_time() - start, iterations, flush=True)
"""



class Worker:
    """A process running one checkout's engine, timing random playouts or searches on request."""

    def __init__(self, tree: Path, code: str = WORKER) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree.anchor)

    def ask(self, request: str) -> list[float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(request + "\n")
        self.process.stdin.flush()
        return [float(word) for word in self.process.stdout.readline().split()]

    def time(self, name: str, players: int, games: int) -> float:
        return self.ask(f"{name} {players} {games}")[0]

    def search(self, name: str, players: int) -> float:
        """Iterations per second of CPU time of ``mcts:200`` on the bench's positions of ``name``."""
        seconds, iterations = self.ask(f"{name} {players} mcts:200")
        return iterations / seconds


def playouts(before: Path, after: Path, rounds: int, names: list[str]) -> None:
    sides = Worker(before), Worker(after)
    print(f"| ruleset | players | games | before, CPU s (best) | after, CPU s (best) | before / after, median of {rounds} |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        players, games = PLAYOUTS[name]
        name = str(PLAIN / name) if (PLAIN / name).is_dir() else name
        for side in sides:
            side.time(name, players, games)
        times: tuple[list[float], list[float]] = ([], [])
        for k in range(rounds):
            for i in ((0, 1) if k % 2 == 0 else (1, 0)):
                times[i].append(sides[i].time(name, players, games))
        ratio = statistics.median(b / a for b, a in zip(*times))
        print(f"| {Path(name).name} | {players} | {games} | {min(times[0]):.3f} | {min(times[1]):.3f} | {ratio:.2f}x |", flush=True)


def searches(before: Path, after: Path, rounds: int, names: list[str]) -> None:
    sides = Worker(before, SEARCHER), Worker(after, SEARCHER)
    print(f"| ruleset | players | before, iterations/s (best) | after, iterations/s (best) | after / before, median of {rounds} |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, players in SEARCHES:
        if name not in names:
            continue
        for side in sides:
            side.search(name, players)
        speeds: tuple[list[float], list[float]] = ([], [])
        for k in range(rounds):
            for i in ((0, 1) if k % 2 == 0 else (1, 0)):
                speeds[i].append(sides[i].search(name, players))
        ratio = statistics.median(a / b for b, a in zip(*speeds))
        print(f"| {name} | {players} | {max(speeds[0]):,.0f} | {max(speeds[1]):,.0f} | {ratio:.2f}x |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path, help="a checkout of the engine (the reference)")
    parser.add_argument("after", type=Path, help="another checkout (the one measured against it)")
    parser.add_argument("rulesets", nargs="*", help="which rows (default: all)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--mcts", action="store_true", help="MCTS iterations per second (CPU time) instead of random playouts")
    args = parser.parse_intermixed_args()
    before, after = args.before.resolve(), args.after.resolve()
    if args.mcts:
        searches(before, after, args.rounds, args.rulesets or [name for name, _ in SEARCHES])
    else:
        playouts(before, after, args.rounds, args.rulesets or list(PLAYOUTS))
    print(f"\nload average {os.getloadavg()[0]:.1f} (1 minute, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
