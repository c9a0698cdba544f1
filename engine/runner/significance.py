"""The statistics a simulation report rests on: 95% Wilson intervals of win rates, the p-values of its tests
(two proportions, one proportion against an expected one, Welch's t for means, chi-square for seats' balance), the
smallest gap a run can detect, summaries of lengths and points, length histograms, and the flags of content whose
users win far above or below the rest.

>>> tuple(round(x, 3) for x in wilson(5, 10))
(0.237, 0.763)
>>> round(two_proportion_p(60, 100, 40, 100), 4)
0.0047
>>> flag(uses=30, users=Rate(25, 30), baseline=0.5)
'strong'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from engine.runner.spread import Spread


Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

ALPHA = 0.05
"""Differences with a p-value below this are reported as significant."""

UNUSED, STRONG, WEAK = "unused", "strong", "weak"
"""Content flags (see the module docstring for how they are decided)."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ((0, 1) when there are no trials).  No success gives a low end of
    exactly 0, all successes a high end of exactly 1 (the sums leave a trace of rounding, 8.7e-19, that made a
    component nobody won with "strong" against a baseline of 0).

    >>> wilson(0, 255)[0], wilson(255, 255)[1]
    (0.0, 1.0)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    return (low, 1.0 if successes == trials else min(1.0, centre + half))


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal deviate."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_p(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test of x1/n1 against x2/n2.

    1.0 when the test cannot tell them apart at all (no trials, or both 0% or both 100%).
    """
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return 1.0 if se == 0 else normal_p((x1 / n1 - x2 / n2) / se)


def one_proportion_p(x: int, n: int, expected: float) -> float:
    """Two-sided p-value of the z-test of ``x`` successes in ``n`` trials against the rate ``expected``; 1.0 when it
    cannot tell (no trials, or an expected rate of 0 or 1 met exactly).

    >>> round(one_proportion_p(163, 300, 0.5), 3), one_proportion_p(0, 10, 0.0)
    (0.133, 1.0)
    """
    if n == 0:
        return 1.0
    se = math.sqrt(expected * (1 - expected) / n)
    if se == 0:
        return 1.0 if x == expected * n else 0.0
    return normal_p((x / n - expected) / se)


def welch_p(a: Sequence[float] | Spread, b: Sequence[float] | Spread) -> float:
    """Two-sided p-value of Welch's t-test for a difference between the means of ``a`` and ``b`` (numbers, or their
    :class:`~engine.runner.spread.Spread`).

    Student's t with the Welch–Satterthwaite degrees of freedom v is mapped to a
    normal deviate, z = t (1 - 1/4v) / sqrt(1 + t^2/2v), which gives p within
    about 0.002 of the exact value from v = 10 on, slightly above it (simulations
    have hundreds of degrees of freedom).

    >>> round(welch_p([1, 2, 3, 4] * 5, [2, 3, 4, 5] * 5), 4)   # exact: 0.0089
    0.009
    """
    a, b = (x if isinstance(x, Spread) else Spread.of(x) for x in (a, b))
    if a.count < 2 or b.count < 2:
        return 1.0
    va, vb = a.variance / a.count, b.variance / b.count
    diff = a.mean - b.mean
    if va + vb == 0:
        return 1.0 if diff == 0 else 0.0
    t = diff / math.sqrt(va + vb)
    v = (va + vb) ** 2 / (va * va / (a.count - 1) + vb * vb / (b.count - 1))
    return normal_p(t * (1 - 1 / (4 * v)) / math.sqrt(1 + t * t / (2 * v)))


def chi_square_p(x: float, df: int) -> float:
    """The upper tail of the chi-square distribution with ``df`` degrees of freedom at ``x``: the p-value of a
    chi-square statistic (closed forms: a sum of Poisson terms for even ``df``, the normal tail and a series for odd).

    >>> round(chi_square_p(3.841458820694124, 1), 4), round(chi_square_p(5.991464547107979, 2), 4)
    (0.05, 0.05)
    >>> round(chi_square_p(7.814727903251178, 3), 4), chi_square_p(0.0, 4)
    (0.05, 1.0)
    """
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    root = math.sqrt(x)
    term, total = root, 0.0
    for i in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, math.erfc(root / math.sqrt(2)) + math.sqrt(2 / math.pi) * math.exp(-half) * total)


def even_chance_p(counts: Sequence[int]) -> float:
    """The p-value of the chi-square goodness-of-fit test of ``counts`` against equal chances: how likely counts at
    least this uneven are when each is as likely as any other (1.0 with fewer than two counts or nothing counted).

    >>> round(even_chance_p([60, 40]), 4), even_chance_p([50, 50]), even_chance_p([0, 0])
    (0.0455, 1.0, 1.0)
    """
    total = sum(counts)
    if len(counts) < 2 or total == 0:
        return 1.0
    expected = total / len(counts)
    return chi_square_p(sum((n - expected) ** 2 / expected for n in counts), len(counts) - 1)


Z80 = 0.8416212335729143
"""The normal quantile of 80% power: a gap of (Z95 + Z80) standard errors is found four times in five."""


def detectable_gap(rate: float, trials: int) -> float:
    """The gap between two rates near ``rate``, each over ``trials``, that a test at p < 0.05 finds four times in
    five (80% power): smaller ones may well go unseen.

    >>> round(detectable_gap(0.5, 1000), 3)
    0.063
    """
    if trials == 0:
        return 1.0
    return (Z95 + Z80) * math.sqrt(2 * rate * (1 - rate) / trials)


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``trials``, with its 95% Wilson interval."""

    wins: int
    trials: int

    @property
    def rate(self) -> float:
        """``wins / trials`` (0 without trials).

        >>> r = Rate(54, 100); r.rate, round(r.low, 3), round(r.high, 3)
        (0.54, 0.443, 0.634)
        """
        return self.wins / self.trials if self.trials else 0.0

    @property
    def low(self) -> float:
        """The 95% interval's lower end."""
        return wilson(self.wins, self.trials)[0]

    @property
    def high(self) -> float:
        """The 95% interval's upper end."""
        return wilson(self.wins, self.trials)[1]

    @property
    def spread(self) -> float:
        """Half the width of the 95% interval: the ``± 3%`` of ``54% ± 3%``."""
        low, high = wilson(self.wins, self.trials)
        return (high - low) / 2

    def to_json(self) -> dict[str, Any]:
        """The wins, trials, rate and its interval, as a report's JSON holds them."""
        return {"wins": self.wins, "trials": self.trials, "rate": self.rate, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Summary:
    """Mean, median, standard deviation and range of some numbers (all 0 when there are none)."""

    mean: float = 0.0
    median: float = 0.0
    stdev: float = 0.0
    min: float = 0.0
    max: float = 0.0

    @classmethod
    def of(cls, values: Sequence[float] | Spread) -> "Summary":
        """The summary of ``values`` (numbers, or their :class:`~engine.runner.spread.Spread`).

        >>> Summary.of([4, 8, 6]) == Summary.of(Spread.of([4, 8, 6])), Summary.of([]).mean
        (True, 0.0)
        """
        counted = values if isinstance(values, Spread) else Spread.of(values)
        if not counted.count:
            return cls()
        return cls(counted.mean, counted.median, counted.stdev, counted.low, counted.high)

    def to_json(self) -> dict[str, float]:
        """The mean, median, standard deviation and range, as a report's JSON holds them."""
        return {"mean": self.mean, "median": self.median, "stdev": self.stdev, "min": self.min, "max": self.max}


@dataclass(frozen=True)
class Points:
    """The points one seat's outcome paid over a run: how many games paid each value, their mean and its 95% interval
    (the normal approximation: the mean plus or minus 1.96 standard errors, kept within the lowest and highest value
    paid; the mean itself for fewer than 2 games).

    >>> p = Points({0: 2, 1: 1, 3: 1})
    >>> p.games, p.mean, tuple(round(x, 2) for x in (p.low, p.high))
    (4, 1.0, (0.0, 2.39))
    """

    counts: dict[float, int]  # each value paid, from the lowest, and the games that paid it

    @property
    def games(self) -> int:
        """The games counted."""
        return sum(self.counts.values())

    @property
    def mean(self) -> float:
        """The mean of the points paid (0 without games)."""
        return sum(value * n for value, n in self.counts.items()) / self.games if self.games else 0.0

    @property
    def stdev(self) -> float:
        """The sample standard deviation of the points paid (0 for fewer than 2 games)."""
        if self.games < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum(n * (value - mean) ** 2 for value, n in self.counts.items()) / (self.games - 1))

    @property
    def low(self) -> float:
        """The 95% interval's lower end, not below the lowest value paid."""
        return float(max(self.mean - self._half_width, min(self.counts, default=0.0)))

    @property
    def high(self) -> float:
        """The 95% interval's upper end, not above the highest value paid."""
        return float(min(self.mean + self._half_width, max(self.counts, default=0.0)))

    @property
    def _half_width(self) -> float:
        return Z95 * self.stdev / math.sqrt(max(self.games, 1))

    def to_json(self) -> dict[str, Any]:
        """The mean, its interval, the standard deviation and each value's count, as a report's JSON holds them."""
        return {"mean": self.mean, "low": self.low, "high": self.high, "stdev": self.stdev,
                "counts": {str(value): n for value, n in self.counts.items()}}


def binned(counts: dict[int, int], most: int) -> list[tuple[int, int, int]]:
    """``counts`` (how many games took each length) in at most ``most`` bins of one width, from the shortest:
    ``(first, last, games)`` per bin, the empty bins between too (the last bin ends at the longest).

    >>> binned({5: 2, 6: 1, 9: 4}, 3)
    [(5, 6, 3), (7, 8, 0), (9, 9, 4)]
    >>> binned({}, 3)
    []
    """
    if not counts:
        return []
    low, high = min(counts), max(counts)
    width = max(1, -(-(high - low + 1) // most))
    bins = [0] * (-(-(high - low + 1) // width))
    for length, games in counts.items():
        bins[(length - low) // width] += games
    return [(low + i * width, min(low + (i + 1) * width - 1, high), games) for i, games in enumerate(bins)]


def flag(uses: int, users: Rate, baseline: float | None) -> str:
    """``unused``, ``strong`` (users win above ``baseline`` even at the interval's low end), ``weak`` or ''
    (never ``strong`` nor ``weak`` without a baseline)."""
    if uses == 0:
        return UNUSED
    if baseline is None:
        return ""
    if users.low > baseline:
        return STRONG
    if users.high < baseline:
        return WEAK
    return ""


