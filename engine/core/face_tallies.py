"""Counts by face kept up to date: how many components of one zone show each value of a table by face and component.

A :class:`~engine.core.tallies.Tally` counts values the same on every face;
a face tally counts ``table[face][cid]``, which may change when a piece turns
over (a number for each name and face, say).  The state makes a zone's face
tally the first time it is asked (one pass over the zone, :func:`distinct_values`)
and keeps it up to date on every move, placement, swap and change of face
after that (:func:`rezone`, :func:`reface_counts`); a clone copies them.  A
value no component of the zone shows has no entry, so ``len`` of the counts
is how many different values the zone holds.  The board zone has none: the
faces of pieces on the board turn without telling them (groups set them
directly, and a move there would pay for every disc turned over).

A zone found holding one value only (a stock of copies of one piece) keeps
no counts: the state notes that value in ``same_faces`` instead.  A piece
leaving the zone leaves it so, and costs nothing; a piece coming in, or
turning over in it, showing another value drops the note (:func:`joined`),
and the next question counts the zone afresh.

>>> key = [["a0", "a0", "b0"], ["a1", "a1", "b1"]]      # by face, then component
>>> class Two:
...     zones, face, face_tallies, same_faces = [[0, 1, 2], []], [0, 0, 0], {}, {}
>>> s, tally = Two(), FaceTally(0, key)
>>> distinct_values(s, tally), s.face_tallies[tally]
(2, {'a0': 2, 'b0': 1})
>>> s.face[1] = 1; reface_counts(s.face_tallies, 0, 1, 0, 1); s.face_tallies[tally]
{'a0': 1, 'b0': 1, 'a1': 1}
>>> s.zones = [[1], [0, 2]]; rezone(s.face_tallies, s.face, 0, 0, 1); rezone(s.face_tallies, s.face, 2, 0, 1)
>>> s.face_tallies[tally]
{'a1': 1}
>>> s.face_tallies = {}; distinct_values(s, tally), s.same_faces[tally]    # one value: noted, not counted
(1, 'a1')
>>> s.zones[0].append(0); joined(s.same_faces, s.face, 0, 0); tally in s.same_faces, distinct_values(s, tally)
(False, 2)
"""

from __future__ import annotations

from collections import Counter
from operator import getitem
from typing import Any, Protocol, Sequence


class FaceTally(tuple):  # type: ignore[type-arg]
    """One zone and a value for each face and component (``table[face][cid]``): what a face tally counts.

    A tuple of the zone and the table by identity, so that finding its counts is a look-up Python hashes and
    compares in C:

    >>> key = [["a"]]
    >>> FaceTally(0, key) == FaceTally(0, key), FaceTally(0, key) == FaceTally(1, key), FaceTally(0, key).table is key
    (True, False, True)
    """

    zone: int
    table: Sequence[Sequence[Any]]

    def __new__(cls, zone: int, table: Sequence[Sequence[Any]]) -> "FaceTally":
        tally = super().__new__(cls, (zone, id(table)))
        tally.zone, tally.table = zone, table
        return tally

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return self.zone, self.table

    def __repr__(self) -> str:
        return f"FaceTally(zone {self.zone})"


class FaceTallied(Protocol):
    """What a face tally reads: the zones, each component's face, and the face tallies made so far."""

    zones: list[list[int]]
    face: list[int]
    face_tallies: dict[FaceTally, dict[Any, int]]
    same_faces: dict[FaceTally, Any]


def distinct_values(s: FaceTallied, tally: FaceTally) -> int:
    """How many different values the components of the tally's zone show (the counts made on first use and kept
    after, or, for a zone of one value, that value noted); never ask it of the board zone."""
    counts = s.face_tallies.get(tally)
    if counts is not None:
        return len(counts)
    if tally in s.same_faces:
        return 1 if s.zones[tally.zone] else 0
    zone = s.zones[tally.zone]  # each piece's value, table[face[cid]][cid], looked up in C
    values = map(getitem, map(tally.table.__getitem__, map(s.face.__getitem__, zone)), zone)
    counts = dict(Counter(values))
    if len(counts) == 1:  # copies of one value: nothing to count as pieces leave
        s.same_faces[tally], = counts
    else:
        s.face_tallies[tally] = counts
    return len(counts)


def joined(same_faces: dict[FaceTally, Any], face: list[int], cid: int, zone: int) -> None:
    """``cid`` came into ``zone`` or turned over in it: a zone noted as showing one value that it does not show
    is noted no longer (counted afresh when next asked)."""
    stale = [tally for tally, value in same_faces.items()
             if tally.zone == zone and tally.table[face[cid]][cid] != value]
    for tally in stale:
        del same_faces[tally]


def rezone(face_tallies: dict[FaceTally, dict[Any, int]], face: list[int], cid: int, old: int, new: int) -> None:
    """Keep ``face_tallies`` up to date after ``cid`` (showing ``face[cid]``) went from zone ``old`` to ``new``."""
    if old == new:
        return
    for tally, counts in face_tallies.items():
        if tally.zone == old:
            value = tally.table[face[cid]][cid]
            left = counts[value] - 1
            if left:
                counts[value] = left
            else:
                del counts[value]
        elif tally.zone == new:
            value = tally.table[face[cid]][cid]
            counts[value] = counts.get(value, 0) + 1


def reface_counts(face_tallies: dict[FaceTally, dict[Any, int]], zone: int, cid: int, old: int, new: int) -> None:
    """Keep ``face_tallies`` up to date after ``cid``, in ``zone``, turned from face ``old`` to ``new``."""
    for tally, counts in face_tallies.items():
        if tally.zone == zone:
            was, now = tally.table[old][cid], tally.table[new][cid]
            if was != now:
                left = counts[was] - 1
                if left:
                    counts[was] = left
                else:
                    del counts[was]
                counts[now] = counts.get(now, 0) + 1
