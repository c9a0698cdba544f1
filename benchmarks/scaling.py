"""Throughput of one simulation on 1 and 2 workers, local processes and Ray; the reports must be identical.

    python benchmarks/scaling.py                              # iconica, 2000 random games
    python benchmarks/scaling.py --ruleset tutorial-tiles --games 20000 --agents random

Prints a table (wall time of the simulation itself, Ray's start-up not
counted) and exits 1 when any report differs from the one of 1 local
process.  Needs the ray extra for the Ray rows.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import engine  # noqa: E402
from engine.distributed import RayExecutor  # noqa: E402
from engine.executor import Executor, LocalExecutor  # noqa: E402
from engine.simulate import simulate  # noqa: E402


def timed(game: engine.Game, args: argparse.Namespace, executor: Executor) -> tuple[float, str]:
    start = time.perf_counter()
    report = simulate(game, players=args.players or min(c for c in game.player_counts if c >= 2), n=args.games,
                      seed=args.seed, agents=args.agents, executor=executor)
    return time.perf_counter() - start, json.dumps(report.to_json(), sort_keys=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="iconica")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = engine.load(args.ruleset)
    rows, reports = [], []
    for workers in (1, 2):
        seconds, report = timed(game, args, LocalExecutor(workers))
        rows.append(("local", workers, seconds))
        reports.append(report)
    try:
        import ray
    except ImportError:
        ray = None
    if ray is not None:
        for workers in (1, 2):
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            try:
                seconds, report = timed(game, args, RayExecutor())
            finally:
                ray.shutdown()
            rows.append(("ray", workers, seconds))
            reports.append(report)
    print(f"{args.ruleset}: {args.games} games, agents {args.agents}, seed {args.seed}; load average {os.getloadavg()[0]:.1f}")
    print("\n| backend | workers | seconds | games per second |\n| --- | ---: | ---: | ---: |")
    for backend, workers, seconds in rows:
        print(f"| {backend} | {workers} | {seconds:.1f} | {args.games / seconds:,.0f} |")
    same = all(r == reports[0] for r in reports)
    print("\nreports identical" if same else "\nREPORTS DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
