"""Two runs of the same seeds side by side: did a rule change move the win rates, the draws, the length?

:func:`compare` tests each figure of one :class:`~engine.runner.report.SimulationReport` against another's
(two-proportion z-tests for rates, Welch's t-tests for means) and returns a :class:`Comparison` of
:class:`Difference` rows, each with its p-value and whether it is significant at 5%.

>>> Difference(0.6, 0.5, 0.01).significant, round(Difference(0.6, 0.5, 0.01).difference, 2)
(True, 0.1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.runner.report import SimulationReport
from engine.runner.significance import ALPHA, two_proportion_p, welch_p
from engine.runner.spread import Spread


@dataclass(frozen=True)
class Difference:
    """A figure in this run and in the other, and the p-value of the difference."""

    this: float
    other: float
    p: float

    @property
    def difference(self) -> float:
        """This run's figure minus the other's."""
        return self.this - self.other

    @property
    def significant(self) -> bool:
        """Whether the difference is significant at 5% (``p < ALPHA``)."""
        return self.p < ALPHA

    def to_json(self) -> dict[str, Any]:
        """Both figures, their difference, its p-value and whether it is significant."""
        keys = ("this", "other", "difference", "p", "significant")
        return {key: getattr(self, key) for key in keys}


@dataclass(frozen=True)
class Comparison:
    """This run against another on the same seeds: per-seat win rates, draws and length, and per seat its mean points
    when a result paid different points in different games of either run (else None)."""

    other: SimulationReport
    seats: dict[int, Difference]
    draws: Difference
    length: Difference
    points: dict[int, Difference] | None = None
    sides: dict[str, Difference] = field(default_factory=dict)  # per side both runs have (SimulationReport.side_win_rate)

    def to_json(self) -> dict[str, Any]:
        """The other run (ruleset, variants, options, games) and each difference, as ``--compare`` writes JSON."""
        return {
            "ruleset": self.other.ruleset,
            "variants": self.other.variants,
            "set_options": self.other.set_options,
            "games": self.other.games,
            "seats": {str(s): d.to_json() for s, d in self.seats.items()},
            "draws": self.draws.to_json(),
            "length": self.length.to_json(),
            **({"points": {str(s): d.to_json() for s, d in self.points.items()}} if self.points else {}),
            **({"sides": {side: d.to_json() for side, d in self.sides.items()}} if self.sides else {}),
        }


def compare(this: SimulationReport, other: SimulationReport, points: bool | None = None) -> Comparison:
    """Win rates (two-proportion z-tests), mean lengths and each seat's mean points (Welch's t-tests) of two runs; the
    points only when ``points`` says so, by default when either run's points vary (:attr:`SimulationReport.points_vary`).

    >>> from engine.runner.report import GameResult
    >>> won, gammon = GameResult((1,), (1.0, 0.0), 9, scores=(1, 0)), GameResult((1,), (1.0, 0.0), 9, scores=(2, 0))
    >>> plain, paid = (SimulationReport("g", [], 2, ["random"] * 2, 0, [], games) for games in ([won] * 4, [won, gammon] * 2))
    >>> compare(plain, plain).points is None, compare(paid, plain).points[1].difference
    (True, 0.5)
    """
    if this.players != other.players:
        raise ValueError(f"cannot compare runs of {this.players} and {other.players} players")
    n, m = this.games, other.games
    mine, theirs = this.wins_by_seat, other.wins_by_seat
    seats = {
        s: Difference(mine[s] / max(n, 1), theirs[s] / max(m, 1), two_proportion_p(mine[s], n, theirs[s], m))
        for s in this.seats
    }
    draws = Difference(this.draws / max(n, 1), other.draws / max(m, 1), two_proportion_p(this.draws, n, other.draws, m))
    length = Difference(this.length.mean, other.length.mean, welch_p(this.tally.length, other.tally.length))
    if points is None:
        points = this.points_vary or other.points_vary
    paid = {s: _mean_difference(this.points_of(s), other.points_of(s)) for s in this.seats} if points else None
    theirs_by_side = other.side_win_rate
    sides = {side: Difference(rate.rate, theirs_by_side[side].rate, two_proportion_p(
                 rate.wins, rate.trials, theirs_by_side[side].wins, theirs_by_side[side].trials))
             for side, rate in this.side_win_rate.items() if side in theirs_by_side}
    return Comparison(other, seats, draws, length, paid, sides)


def _mean_difference(a: Spread, b: Spread) -> Difference:
    """The means of ``a`` and ``b`` (0 when empty) and the p-value of Welch's t-test."""
    return Difference(a.mean if a.count else 0.0, b.mean if b.count else 0.0, welch_p(a, b))
