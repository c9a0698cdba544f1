"""Numbers counted by value: how many games took each length, paid each score, finished by each margin.

A run of ten million games keeps a few hundred counts, not ten million numbers, and its mean, median,
standard deviation and variance are exactly those :mod:`statistics` gives for the numbers written out one by
one (the same float, to the last bit): the sums are taken exactly, as fractions, and rounded once.

>>> lengths = Spread()
>>> for n in (9, 7, 9, 8):
...     lengths.add(n)
>>> lengths.count, lengths.mean, lengths.median, round(lengths.stdev, 6), lengths.low, lengths.high
(4, 8.25, 8.5, 0.957427, 7, 9)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable


@dataclass
class Spread:
    """How many times each number came; the order of first coming is kept (a report lists them sorted)."""

    counts: Counter[float] = field(default_factory=Counter)

    @classmethod
    def of(cls, values: Iterable[float]) -> "Spread":
        """The spread of ``values``.

        >>> Spread.of([2, 2, 5]).counts
        Counter({2: 2, 5: 1})
        """
        return cls(Counter(values))

    def add(self, value: float) -> None:
        """Count ``value`` once more."""
        self.counts[value] += 1

    @property
    def count(self) -> int:
        """How many numbers were counted."""
        return sum(self.counts.values())

    @property
    def low(self) -> float:
        """The smallest number counted."""
        return min(self.counts)

    @property
    def high(self) -> float:
        """The largest number counted."""
        return max(self.counts)

    def _total(self) -> Fraction:
        return sum((Fraction(value) * n for value, n in self.counts.items()), Fraction(0))

    @property
    def mean(self) -> float:
        """As ``statistics.fmean``: the exact sum rounded once, divided by the count.

        >>> Spread.of([0.1] * 10).mean == __import__("statistics").fmean([0.1] * 10)
        True
        """
        return float(self._total()) / self.count

    @property
    def median(self) -> float:
        """As ``statistics.median``: the middle value, or the mean of the two middle ones.

        >>> Spread.of([1, 5, 2, 9]).median, Spread.of([3]).median
        (3.5, 3.0)
        """
        middle, seen, below = self.count // 2, 0, None
        for value in sorted(self.counts):
            seen += self.counts[value]
            if self.count % 2 == 0 and seen == middle:
                below = value
            elif seen > middle:
                return float(value if self.count % 2 or below is None else (below + value) / 2)
        raise ValueError("the median of no numbers")

    def _squares(self) -> Fraction:
        """The exact sum of the squared distances from the exact mean."""
        mean = self._total() / self.count
        return sum((n * (Fraction(value) - mean) ** 2 for value, n in self.counts.items()), Fraction(0))

    @property
    def variance(self) -> float:
        """As ``statistics.variance`` (the sample variance), for two numbers or more."""
        return float(self._squares() / (self.count - 1))

    @property
    def stdev(self) -> float:
        """As ``statistics.stdev``: the square root of the exact sample variance, rounded once (0 for fewer than 2).

        >>> import statistics
        >>> data = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
        >>> Spread.of(data).stdev == statistics.stdev(data), Spread.of([7]).stdev
        (True, 0.0)
        """
        return sqrt_of(self._squares() / (self.count - 1)) if self.count > 1 else 0.0

    def to_json(self) -> list[list[float]]:
        """``[[value, count], ...]``, in the order the values first came (a number stays an int or a float)."""
        return [[value, n] for value, n in self.counts.items()]

    @classmethod
    def from_json(cls, data: Any) -> "Spread":
        """The spread :meth:`to_json` wrote.

        >>> Spread.from_json(Spread.of([1, 1, 2.5]).to_json()).counts
        Counter({1: 2, 2.5: 1})
        """
        return cls(Counter({value: n for value, n in data}))


def sqrt_of(q: Fraction) -> float:
    """The float nearest the square root of ``q`` (>= 0), as ``statistics.stdev`` rounds it.

    >>> sqrt_of(Fraction(2)) == 2 ** 0.5, sqrt_of(Fraction(0))
    (True, 0.0)
    """
    guess = math.sqrt(q)
    for value in (guess, math.nextafter(guess, 0.0), math.nextafter(guess, math.inf)):
        below = (Fraction(math.nextafter(value, 0.0)) + Fraction(value)) / 2
        above = (Fraction(value) + Fraction(math.nextafter(value, math.inf))) / 2
        if below * below <= q <= above * above:
            return value
    return guess
