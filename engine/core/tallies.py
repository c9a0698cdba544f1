"""Counts kept up to date: how many components of each value of an attribute one zone holds.

``count(c in pool where c.kind_of == k)`` (or ``... where c.a == u and c.b == v``)
reads a tally instead of walking the zone when the zone is named outright
and the attributes are the same on every face of every component: the state
makes a zone's tally the first time it is asked (one pass over the zone) and
keeps it up to date on every move, placement and swap after that; a clone
copies the tallies it has.

>>> hue = ["A", "B", "A"]
>>> class Two:
...     zones, tallies = [[0, 1, 2], []], {}
>>> s, tally = Two(), Tally(0, hue)
>>> tally_count(s, tally, "A")
2
>>> s.zones = [[1], [0, 2]]
>>> retally(s.tallies, 0, 0, 1); retally(s.tallies, 2, 0, 1)
>>> tally_count(s, tally, "A"), tally_count(s, tally, "B")
(0, 1)
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol, Sequence


class Tally(tuple):  # type: ignore[type-arg]
    """One zone and one value per component (an attribute the same on every face, or several together): what a
    tally counts.  ``attributes`` names what the values are (by default the row itself: the game keeps its rows,
    so the same row is the same attribute).

    A tally is the tuple (zone, what the values are), so that finding its counts is a look-up Python hashes and
    compares in C (every count reads one):

    >>> hue = ["A", "B", "A"]
    >>> Tally(0, hue) == Tally(0, hue), Tally(0, hue) == Tally(1, hue), Tally(0, hue).row is hue
    (True, False, True)
    """

    zone: int
    row: Sequence[Any]

    def __new__(cls, zone: int, row: Sequence[Any], attributes: Any = None) -> "Tally":
        tally = super().__new__(cls, (zone, id(row) if attributes is None else attributes))
        tally.zone, tally.row = zone, row
        return tally

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return self.zone, self.row, self[1]

    def __repr__(self) -> str:
        return f"Tally(zone {self.zone})"


class Tallied(Protocol):
    """What a tally reads: the zones, and the tallies made so far."""

    zones: list[list[int]]
    tallies: dict[Tally, dict[Any, int]]


def tally_count(s: Tallied, tally: Tally, value: Any) -> int:
    """How many components in the tally's zone show ``value`` (the tally is made on first use)."""
    counts = s.tallies.get(tally)
    if counts is None:
        counts = tally_of(s, tally)
    return counts.get(value, 0)


def tally_of(s: Tallied, tally: Tally) -> dict[Any, int]:
    """The tally's counts by value, made on first use.

    Generated code reads a count inline as ``(s.tallies.get(T) or tally_of(s, T)).get(v, 0)``: an empty tally
    is falsy and comes back from here as it is.

    >>> class One:
    ...     zones, tallies = [[0, 1]], {}
    >>> tally_of(One(), Tally(0, ["A", "A"]))
    {'A': 2}
    """
    counts = s.tallies.get(tally)
    if counts is None:
        counts = s.tallies[tally] = dict(Counter(map(tally.row.__getitem__, s.zones[tally.zone])))
    return counts


def retally(tallies: dict[Tally, dict[Any, int]], cid: int, old: int, new: int) -> None:
    """Keep ``tallies`` up to date after ``cid`` went from zone ``old`` to zone ``new``."""
    if old == new:
        return
    for tally, counts in tallies.items():
        if tally.zone == old:
            counts[tally.row[cid]] -= 1
        elif tally.zone == new:
            value = tally.row[cid]
            counts[value] = counts.get(value, 0) + 1
