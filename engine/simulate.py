"""Many games between agents, and how often each seat wins.

Game ``i`` of a run is seeded from (run seed, ``i``) alone and its agents from
(game seed, seat), so a report depends only on its inputs, never on ``jobs``.
With ``jobs > 1`` worker processes each load the ruleset again by path and
variants (a compiled Game holds closures and is not sent between processes).

Example::

    report = simulate(engine.load("my-game"), players=2, n=1000, seed=0, agents="random", jobs=4)
    print(report.win_rate[1])        # (rate, low, high) of seat 1

>>> derive_seed(0, 1) == derive_seed(0, 1) != derive_seed(0, 2)
True
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine import rng
from engine.agents import Agent, make_agent
from engine.errors import RulecraftError, RulesetError
from engine.game import Game

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class GameResult:
    """What a report needs from one finished game."""

    winners: tuple[int, ...]
    returns: tuple[float, ...]
    length: int


@dataclass
class SimulationReport:
    """Wins per seat, draws and game lengths over a run of games."""

    ruleset: str
    variants: list[str]
    players: int
    agents: list[str]
    seed: int
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins_by_seat(self) -> dict[int, int]:
        """Games each seat won alone."""
        wins = {seat: 0 for seat in range(1, self.players + 1)}
        for r in self.results:
            if len(r.winners) == 1:
                wins[r.winners[0]] += 1
        return wins

    @property
    def draws(self) -> int:
        """Games whose win several seats shared."""
        return sum(1 for r in self.results if len(r.winners) > 1)

    @property
    def no_winner(self) -> int:
        """Games nobody won (a lost solo game)."""
        return sum(1 for r in self.results if not r.winners)

    @property
    def mean_returns(self) -> dict[int, float]:
        """Mean return per seat (a shared win counts 1/k)."""
        n = max(self.games, 1)
        seats = range(1, self.players + 1)
        return {seat: sum(r.returns[seat - 1] for r in self.results) / n for seat in seats}

    @property
    def win_rate(self) -> dict[int, tuple[float, float, float]]:
        """Per seat: (rate, low, high) with a 95% Wilson interval."""
        n = self.games
        return {seat: (wins / max(n, 1), *wilson(wins, n)) for seat, wins in self.wins_by_seat.items()}

    @property
    def lengths(self) -> list[int]:
        return [r.length for r in self.results]

    @property
    def mean_length(self) -> float:
        return statistics.fmean(self.lengths) if self.results else 0.0

    @property
    def median_length(self) -> float:
        return float(statistics.median(self.lengths)) if self.results else 0.0

    @property
    def min_length(self) -> int:
        return min(self.lengths, default=0)

    @property
    def max_length(self) -> int:
        return max(self.lengths, default=0)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "variants": self.variants,
            "players": self.players,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.games,
            "wins_by_seat": {str(s): w for s, w in self.wins_by_seat.items()},
            "draws": self.draws,
            "no_winner": self.no_winner,
            "win_rate": {str(s): {"rate": r, "low": lo, "high": hi} for s, (r, lo, hi) in self.win_rate.items()},
            "mean_returns": {str(s): v for s, v in self.mean_returns.items()},
            "mean_length": self.mean_length,
            "median_length": self.median_length,
            "min_length": self.min_length,
            "max_length": self.max_length,
        }


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    >>> tuple(round(x, 3) for x in wilson(5, 10))
    (0.237, 0.763)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def derive_seed(seed: int, index: int) -> int:
    """A seed for item ``index`` of something seeded with ``seed`` (games of a run, seats of a game)."""
    return rng.next_u64((rng.seed_state(seed) + index) & rng.MASK)[1]


def seat_specs(agents: Sequence[str] | str, players: int) -> list[str]:
    """One agent spec per seat: one spec for every seat, or exactly one per seat."""
    specs = [agents] if isinstance(agents, str) else list(agents)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"give one agent for every seat or one per seat ({players}), not {len(specs)}")
    for spec in specs:
        make_agent(spec, 0)
    return specs


def play_game(game: Game, players: int, seed: int, specs: Sequence[str]) -> GameResult:
    """One game between the agents ``specs`` (one per seat), seeded with ``seed``."""
    state = game.new_state(players=players, seed=seed)
    seats: list[Agent] = [make_agent(spec, derive_seed(seed, i + 1)) for i, spec in enumerate(specs)]
    length = 0
    while not state.is_terminal:
        state.apply(seats[state.current_player - 1].choose(state))
        length += 1
    assert state.outcome is not None
    return GameResult(state.outcome.winners, tuple(state.returns()), length)


Progress = Callable[[int], None]
"""Called with the number of games finished so far."""


def simulate(
    game: Game,
    players: int,
    n: int,
    seed: int,
    agents: Sequence[str] | str,
    jobs: int = 1,
    progress: Progress | None = None,
) -> SimulationReport:
    """Play ``n`` games and report wins per seat, draws and lengths."""
    specs = seat_specs(agents, players)
    report = SimulationReport(game.name, list(game.variants), players, specs, seed)
    if jobs <= 1 or n <= 1:
        for i in range(n):
            report.results.append(play_game(game, players, derive_seed(seed, i), specs))
            if progress:
                progress(i + 1)
    else:
        report.results = _parallel(game, players, n, seed, specs, jobs, progress)
    return report


# ---------------------------------------------------------------- worker processes

@dataclass(frozen=True)
class Chunk:
    """Games ``start..stop-1`` of a run, for a worker: everything it needs, by value."""

    source: str
    variants: tuple[str, ...]
    content_hash: str
    players: int
    specs: tuple[str, ...]
    seed: int
    start: int
    stop: int


_worker_games: dict[tuple[str, tuple[str, ...]], Game] = {}


def _play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play a chunk in a worker, loading the ruleset once per process."""
    game = _worker_game(chunk)
    seeds = (derive_seed(chunk.seed, i) for i in range(chunk.start, chunk.stop))
    return [play_game(game, chunk.players, seed, chunk.specs) for seed in seeds]


def _worker_game(chunk: Chunk) -> Game:
    """The chunk's ruleset, refused if it is no longer the one the run started with.

    A RulesetError (which does not survive pickling) is passed back as its text.
    """
    from engine import load

    key = (chunk.source, chunk.variants)
    try:
        if key not in _worker_games:
            _worker_games[key] = load(chunk.source, list(chunk.variants))
    except RulesetError as err:
        raise RulecraftError(err.format()) from None
    game = _worker_games[key]
    if game.content_hash != chunk.content_hash:
        raise RulecraftError(f"{chunk.source} changed while the simulation was running")
    return game


def _parallel(
    game: Game, players: int, n: int, seed: int, specs: list[str], jobs: int, progress: Progress | None
) -> list[GameResult]:
    size = max(1, n // (jobs * 8))
    chunks = [
        Chunk(game.source, game.variants, game.content_hash, players, tuple(specs), seed, start, min(start + size, n))
        for start in range(0, n, size)
    ]
    results: list[GameResult] = []
    with multiprocessing.get_context().Pool(jobs) as pool:
        for part in pool.imap(_play_chunk, chunks):
            results.extend(part)
            if progress:
                progress(len(results))
    return results
