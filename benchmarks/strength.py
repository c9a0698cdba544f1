"""Strength: a search agent against random in 2-player games of every shipped ruleset.

For each shipped ruleset that allows 2 players, game ``i`` is seeded from
(``--seed``, ``i``), the agent takes seat 1 in even games and seat 2 in odd
ones, and each agent's generator is seeded from (game seed, seat), so the
table depends only on the options, never on ``--jobs``.  A game counts as a
win when the agent wins alone and as a draw when it shares the win.  The
table gives the win rate with its 95% Wilson interval and the search's
iterations per second (over all its decisions, on one core).

    python benchmarks/strength.py                          # mcts:400, 100 games per ruleset
    python benchmarks/strength.py --games 20 --jobs 2
    python benchmarks/strength.py --agent ismcts:400 --ruleset tutorial-tiles

Exit status 1 when the agent's win rate is below ``--min`` (default 0.85) on
any ruleset.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from dataclasses import dataclass
from functools import lru_cache

import engine
from engine.runner.agents import make_agent
from engine.runner.simulate import derive_seed

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Game:
    """One game to play: which ruleset, its seed, the agent's seat, the two specs."""

    ruleset: str
    seed: int
    seat: int
    agent: str
    opponent: str


@dataclass(frozen=True)
class Result:
    """How one game went for the agent, and how much it searched."""

    ruleset: str
    share: float  # the agent's return: 1 sole win, 1/k shared, 0 lost
    iterations: int
    seconds: float


@lru_cache(maxsize=None)
def load(name: str) -> engine.Game:
    return engine.load(name)


def play(game: Game) -> Result:
    """Play one 2-player game between the agent and its opponent."""
    state = load(game.ruleset).new_state(players=2, seed=game.seed)
    seats = {
        game.seat: make_agent(game.agent, derive_seed(game.seed, game.seat)),
        3 - game.seat: make_agent(game.opponent, derive_seed(game.seed, 3 - game.seat)),
    }
    iterations, seconds = 0, 0.0
    while not state.is_terminal:
        agent = seats[state.seat_to_move]
        state.apply(agent.choose(state))
        stats = getattr(agent, "last", None) if agent is seats[game.seat] else None
        if stats is not None:
            iterations, seconds = iterations + stats.iterations, seconds + stats.seconds
    return Result(game.ruleset, state.returns()[game.seat - 1], iterations, seconds)


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p, z2 = successes / trials, Z95 * Z95
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Row:
    """The results of one ruleset."""

    ruleset: str
    wins: int = 0
    draws: int = 0
    games: int = 0
    iterations: int = 0
    seconds: float = 0.0

    def add(self, result: Result) -> None:
        self.games += 1
        self.wins += result.share >= 1.0
        self.draws += 0.0 < result.share < 1.0
        self.iterations += result.iterations
        self.seconds += result.seconds

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        speed = f"{self.iterations / self.seconds:,.0f}" if self.seconds else "-"
        losses = self.games - self.wins - self.draws
        return (
            f"| {self.ruleset} | {self.games} | {self.wins} | {self.draws} | {losses} "
            f"| {self.rate:.1%} | {low:.1%} – {high:.1%} | {speed} |"
        )


HEADER = (
    "| ruleset | games | wins | draws | losses | win rate | 95% interval | iterations/s |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
)


def games_to_play(rulesets: list[str], n: int, seed: int, agent: str, opponent: str) -> list[Game]:
    return [
        Game(name, derive_seed(seed, i), 1 + i % 2, agent, opponent) for name in rulesets for i in range(n)
    ]


def run(games: list[Game], jobs: int) -> list[Result]:
    if jobs <= 1:
        return [play(g) for g in games]
    with multiprocessing.get_context().Pool(jobs) as pool:
        return pool.map(play, games, chunksize=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    two_player = [name for name in engine.builtin_names() if 2 in load(name).player_counts]
    parser.add_argument("--games", type=int, default=100, help="games per ruleset (default 100)")
    parser.add_argument("--agent", default="mcts:400", help="the agent measured (default mcts:400)")
    parser.add_argument("--opponent", default="random", help="its opponent (default random)")
    parser.add_argument("--ruleset", action="append", choices=two_player, help="only these rulesets (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the table is the same for any number)")
    parser.add_argument("--min", type=float, default=0.85, help="the lowest acceptable win rate (default 0.85)")
    args = parser.parse_args(argv)
    make_agent(args.agent, 0), make_agent(args.opponent, 0)  # refuse a bad spec before playing
    rulesets = args.ruleset or two_player
    start = time.perf_counter()
    results = run(games_to_play(rulesets, args.games, args.seed, args.agent, args.opponent), args.jobs)
    rows = {name: Row(name) for name in rulesets}
    for result in results:
        rows[result.ruleset].add(result)
    print(f"{args.agent} against {args.opponent}, 2 players, seats alternating, seed {args.seed}\n")
    print(HEADER)
    for row in rows.values():
        print(row.line())
    print(f"\n{len(results)} games in {time.perf_counter() - start:.0f} s with {args.jobs} job(s)")
    weak = [row.ruleset for row in rows.values() if row.rate < args.min]
    if weak:
        print(f"below {args.min:.0%}: {', '.join(weak)}", file=sys.stderr)
    return 1 if weak else 0


if __name__ == "__main__":
    sys.exit(main())
