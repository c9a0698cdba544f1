"""Throughput of one simulation on 1 and 2 workers, local processes and Ray; the reports must be identical.

    python benchmarks/scaling.py                              # iconica, 2000 random games
    python benchmarks/scaling.py --ruleset tutorial-tiles --games 20000 --agents random
    python benchmarks/scaling.py --ruleset iconoclasm-cards --players 4 --games 4000 --rounds 3 --no-ray

Prints a table (wall time of the simulation itself, Ray's start-up not
counted; the fastest of ``--rounds`` rounds, 1 and 2 workers alternating)
and exits 1 when any report differs from the one of 1 local process.  Needs
the ray extra for the Ray rows.

On a shared machine the wall times say little (a second worker finds no free
core), so the local rows also give the CPU time the run took in all its
processes (the runner and its workers).  Its overhead over 1 process bounds
the speed-up 2 workers can reach on an idle 2-core machine:
``2 * cpu(1 worker) / cpu(2 workers)``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import engine  # noqa: E402
from engine.distributed import RayExecutor  # noqa: E402
from engine.executor import Executor, LocalExecutor  # noqa: E402
from engine.simulate import simulate  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the workers of a finished pool)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(game: engine.Game, args: argparse.Namespace, executor: Executor) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (every process) and the report of one simulation."""
    start, cpu = time.perf_counter(), cpu_seconds()
    report = simulate(game, players=args.players or min(c for c in game.player_counts if c >= 2), n=args.games,
                      seed=args.seed, agents=args.agents, executor=executor)
    return time.perf_counter() - start, cpu_seconds() - cpu, json.dumps(report.to_json(), sort_keys=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="iconica")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=1, help="alternate 1 and 2 local workers this many times; the fastest counts")
    parser.add_argument("--no-ray", action="store_true", help="local processes only")
    args = parser.parse_args()
    game = engine.load(args.ruleset)
    rows, reports = [], []
    loads = [os.getloadavg()[0]]
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}  # workers -> (wall, CPU) of each round
    for _ in range(args.rounds):
        for workers in (1, 2):
            seconds, cpu, report = timed(game, args, LocalExecutor(workers))
            runs[workers].append((seconds, cpu))
            reports.append(report)
            loads.append(os.getloadavg()[0])
    best = {workers: (min(w for w, _ in timings), min(c for _, c in timings)) for workers, timings in runs.items()}
    rows += [("local", workers, seconds, cpu) for workers, (seconds, cpu) in best.items()]
    try:
        import ray
    except ImportError:
        ray = None
    if ray is not None and not args.no_ray:
        for workers in (1, 2):
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            try:
                seconds, _, report = timed(game, args, RayExecutor())
            finally:
                ray.shutdown()
            rows.append(("ray", workers, seconds, None))
            reports.append(report)
    print(f"{args.ruleset}: {args.games} games, agents {args.agents}, seed {args.seed}; "
          f"load average {min(loads):.1f} to {max(loads):.1f} (1 minute, {os.cpu_count()} cores)")
    print("\n| backend | workers | seconds | games per second | CPU seconds (all processes) |\n| --- | ---: | ---: | ---: | ---: |")
    for backend, workers, seconds, cpu in rows:
        print(f"| {backend} | {workers} | {seconds:.2f} | {args.games / seconds:,.0f} | {'' if cpu is None else f'{cpu:.2f}'} |")
    one, two = best[1], best[2]
    print(f"\n2 workers: {one[0] / two[0]:.2f}x the games per second of 1 here; "
          f"CPU overhead {two[1] / one[1] - 1:+.1%}, so at most {2 * one[1] / two[1]:.2f}x on an idle 2-core machine")
    same = all(r == reports[0] for r in reports)
    print("\nreports identical" if same else "\nREPORTS DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
