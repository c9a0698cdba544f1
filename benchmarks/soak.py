"""Soak: many random games of every ruleset x variant x player count, with invariants checked.

Every game chooses uniformly among the legal actions (game ``i`` of a
configuration has seed ``seed + i``; its choices are seeded by the same
number), tests the ruleset's declared invariants after setup and after every
action, and stops at the first error or broken invariant.  The table gives,
for each configuration, the games played, the games that raised an error,
the games that broke an invariant, random playouts per second *per core with
the invariants on* (so slower than ``rulecraft bench``), and actions per game.

    python benchmarks/soak.py                      # 10,000 games of each configuration
    python benchmarks/soak.py --games 300 --jobs 2
    python benchmarks/soak.py --ruleset tutorial-tiles --format json

Exit status 1 when any game failed; the first failures are listed with their
seed and action number (``rulecraft check --invariants RULESET --players P
--seed SEED --games 1 --save DIR`` writes a replay of one).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import engine
from engine.core.compose import variant_names
from engine.core.paths import builtin_names, find_ruleset
from engine.runner.executor import max_jobs
from engine.runner.replay import checked_playout

Config = tuple[str, "str | None", int]
CHUNK = 250
KEEP_FAILURES = 5


@dataclass
class Row:
    """The soak of one configuration."""

    ruleset: str
    variant: str | None
    players: int
    games: int = 0
    errors: int = 0
    broken: int = 0
    actions: int = 0
    seconds: float = 0.0  # summed over workers: time of the games themselves
    failures: list[str] = field(default_factory=list)

    @property
    def playouts_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0

    def add(self, other: "Row") -> None:
        self.games += other.games
        self.errors += other.errors
        self.broken += other.broken
        self.actions += other.actions
        self.seconds += other.seconds
        self.failures = (self.failures + other.failures)[:KEEP_FAILURES]


def configurations(rulesets: list[str] | None = None) -> list[Config]:
    """Every ruleset (default: the built-in ones) x (no variant + each variant) x declared player count."""
    configs: list[Config] = []
    for name in rulesets or builtin_names():
        for variant in [None, *variant_names(find_ruleset(name))]:
            configs.extend((name, variant, n) for n in _game(name, variant).player_counts)
    return configs


@lru_cache(maxsize=None)
def _game(name: str, variant: str | None) -> engine.Game:
    return engine.load(name, variant)


def _run_chunk(task: tuple[Config, int, int]) -> tuple[Config, Row]:
    """Play games ``first .. first + count - 1`` of one configuration (in a worker, or here)."""
    (name, variant, players), first, count = task
    game = _game(name, variant)
    row = Row(name, variant, players)
    start = time.perf_counter()
    for seed in range(first, first + count):
        result = checked_playout(game, players, seed)
        row.games += 1
        row.actions += len(result.actions)
        if result.ok:
            continue
        if result.broken:
            row.broken += 1
        else:
            row.errors += 1
        if len(row.failures) < KEEP_FAILURES:
            row.failures.append(result.problem())
    row.seconds = time.perf_counter() - start
    return (name, variant, players), row


def soak(configs: list[Config], games: int, jobs: int = 1, seed: int = 0, progress: bool = False) -> list[Row]:
    """Play ``games`` checked random games of each configuration; one row per configuration, in order."""
    rows = {config: Row(*config) for config in configs}
    tasks = [(config, seed + first, min(CHUNK, games - first)) for config in configs for first in range(0, games, CHUNK)]
    done = 0
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for config, row in pool.imap_unordered(_run_chunk, tasks):
                rows[config].add(row)
                done += 1
                _report(progress, done, len(tasks))
    else:
        for task in tasks:
            config, row = _run_chunk(task)
            rows[config].add(row)
            done += 1
            _report(progress, done, len(tasks))
    return [rows[config] for config in configs]


def _report(progress: bool, done: int, total: int) -> None:
    if progress:
        print(f"\r{done}/{total} chunks", end="" if done < total else "\n", file=sys.stderr, flush=True)


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| ruleset | variant | players | games | errors | broken invariants | playouts/s | actions/game |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r.ruleset} | {r.variant or '—'} | {r.players} | {r.games:,} | {r.errors} | {r.broken} | "
            f"{r.playouts_per_second:,.0f} | {r.actions_per_game:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per configuration (default 10,000)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of each configuration's first game")
    parser.add_argument("--ruleset", action="append", help="only this ruleset (repeatable; default: all built-in)")
    parser.add_argument("--format", choices=["markdown", "json"], default="markdown")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if args.jobs > max_jobs():
        parser.error(f"--jobs {args.jobs}: this machine has {max_jobs()} cores; use at most {max_jobs()}")
    configs = configurations(args.ruleset)
    start = time.perf_counter()
    rows = soak(configs, args.games, args.jobs, args.seed, progress=sys.stderr.isatty())
    wall = time.perf_counter() - start
    total = sum(r.games for r in rows)
    failed = sum(r.errors + r.broken for r in rows)
    if args.format == "json":
        print(json.dumps({"rows": [asdict(r) | {"playouts_per_second": r.playouts_per_second,
                                                 "actions_per_game": r.actions_per_game} for r in rows],
                          "games": total, "failed": failed, "wall_seconds": wall, "jobs": args.jobs,
                          "python": platform.python_version()}, indent=2))
    else:
        print(table(rows))
        print(f"\n{total:,} games in {wall:.0f} s with {args.jobs} job{'s' * (args.jobs != 1)} "
              f"(Python {platform.python_version()}); {failed} failed")
        for r in rows:
            for failure in r.failures:
                print(f"  {r.ruleset} {r.variant or ''} {r.players}p: {failure}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
