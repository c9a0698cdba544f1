"""Throughput of one simulation on 1 and 2 workers, local processes and Ray; the reports must be identical.

    python benchmarks/scaling.py                              # iconica, 2000 random games
    python benchmarks/scaling.py --ruleset tutorial-tiles --games 20000 --agents random
    python benchmarks/scaling.py --rounds 2                   # everything twice, to see the noise
    python benchmarks/scaling.py --ruleset iconoclasm-cards --players 4 --games 10000 --rounds 2 --no-ray

Prints a table (wall time of the simulation itself, Ray's start-up not
counted, with the machine's 1-minute load average just before each run and,
for local processes, the CPU seconds of all the run's processes and the
cores the run actually got — CPU seconds per second — so a figure taken on a
busy machine says so) and exits 1 when any report differs from the one of 1
local process.  Needs the ray extra for the Ray rows.

The CPU seconds measure the work, which a busy machine does not change much:
their overhead with 2 local workers over 1 bounds the speed-up 2 workers can
reach on an idle 2-core machine, ``2 * cpu(1 worker) / cpu(2 workers)``
(the least CPU of the rounds for each).
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
from engine.runner.distributed import RayExecutor  # noqa: E402
from engine.runner.executor import Executor, LocalExecutor  # noqa: E402
from engine.runner.simulate import simulate  # noqa: E402


def timed(game: engine.Game, args: argparse.Namespace, executor: Executor) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of this process and its finished children, and the report as JSON."""
    start, cpu = time.perf_counter(), _cpu_seconds()
    report = simulate(game, players=args.players or min(c for c in game.player_counts if c >= 2), n=args.games,
                      seed=args.seed, agents=args.agents, executor=executor)
    return time.perf_counter() - start, _cpu_seconds() - cpu, json.dumps(report.to_json(), sort_keys=True)


def _cpu_seconds() -> float:
    """CPU time used so far by this process and the worker processes it has waited for (not Ray's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="iconica")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=1, help="how many times to run every row")
    parser.add_argument("--no-ray", action="store_true", help="local processes only")
    args = parser.parse_args()
    game = engine.load(args.ruleset)
    try:
        import ray
    except ImportError:
        ray = None
    # round, backend, workers, load average before, seconds, cores used (CPU seconds per second; None: not measured)
    rows: list[tuple[int, str, int, float, float, float | None]] = []
    reports = []
    cpus: dict[int, list[float]] = {1: [], 2: []}  # local workers -> CPU seconds of each round
    for round_ in range(1, args.rounds + 1):
        for workers in (1, 2):
            load = os.getloadavg()[0]
            seconds, cpu, report = timed(game, args, LocalExecutor(workers))
            rows.append((round_, "local", workers, load, seconds, cpu / seconds))
            cpus[workers].append(cpu)
            reports.append(report)
        for workers in (1, 2) if ray is not None and not args.no_ray else ():
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            try:
                load = os.getloadavg()[0]
                seconds, _, report = timed(game, args, RayExecutor())
            finally:
                ray.shutdown()
            rows.append((round_, "ray", workers, load, seconds, None))
            reports.append(report)
    print(f"{args.ruleset}: {args.games} games, agents {args.agents}, seed {args.seed}; {os.cpu_count()} cores")
    print("\n| round | backend | workers | load average before | seconds | games per second | CPU seconds | cores used |\n"
          "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for round_, backend, workers, load, seconds, cores in rows:
        cpu, used = (f"{cores * seconds:.2f}", f"{cores:.2f}") if cores is not None else ("—", "—")
        print(f"| {round_} | {backend} | {workers} | {load:.1f} | {seconds:.1f} | {args.games / seconds:,.0f} | {cpu} | {used} |")
    one, two = min(cpus[1]), min(cpus[2])
    print(f"\nCPU seconds with 2 local workers {two / one - 1:+.1%} over 1: "
          f"at most {2 * one / two:.2f}x the games per second of 1 on an idle 2-core machine")
    same = all(r == reports[0] for r in reports)
    print("\nreports identical" if same else "\nREPORTS DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
