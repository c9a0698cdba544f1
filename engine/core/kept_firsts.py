"""The first component of each name in a big zone, in the zone's order, kept up to date by the state's moves instead
of walked for at every decision.

A place step offers the first of each name in its zone (identical copies after it would offer the same again): in a
stock of some sixty pieces of five names that walk is most of listing the pieces.  The state notes, per zone, what
the walk found (``State.firsts``: zone -> {name: first component}, in the zone's order), and its moves keep the
note or drop it:

- a component leaving the zone that was the first of its name hands the note to the component now at its place
  when that one has the same name (a stock's copies lie together), and drops the note otherwise;
- one coming in at the end adds its name, last, unless an earlier copy is first already;
- one put anywhere else, a swap or a shuffle drops the note (walked again when next asked).

A copy of a state notes nothing (its first walk notes again): a copy whose zones are dealt or reordered in place
(a determinised sample, a kept deal) must not read a note of the order it was copied with.

Example::

    >>> names = ["A", "A", "B", "B"]
    >>> items, firsts = [0, 1, 2, 3], {0: {"A": 0, "B": 2}}
    >>> leave(firsts, names, items, 0, 0); firsts
    {0: {'A': 1, 'B': 2}}
    >>> leave(firsts, names, items, 1, 0); firsts        # no A left at its place: not known here, dropped
    {}
"""

from __future__ import annotations

from typing import Sequence

Firsts = dict[int, dict[str, int]]
"""Zone -> the first component of each name it holds, in the zone's order."""


def leave(firsts: Firsts, names: Sequence[str], items: list[int], cid: int, zone: int) -> None:
    """Take ``cid`` out of ``items``, the contents of ``zone`` (noted in ``firsts``), keeping the note or dropping it.

    >>> firsts = {3: {"A": 5, "B": 6}}
    >>> items = [5, 6, 7]
    >>> leave(firsts, ["", "", "", "", "", "A", "B", "B"], items, 7, 3); items, firsts   # not a first: kept as it is
    ([5, 6], {3: {'A': 5, 'B': 6}})
    """
    i = items.index(cid)
    del items[i]
    note = firsts[zone]
    name = names[cid]
    if note.get(name) == cid:
        if i < len(items) and names[items[i]] == name:  # the next copy took its place: first now, at the same place
            note[name] = items[i]
        else:
            del firsts[zone]


def arrive(firsts: Firsts, names: Sequence[str], cid: int, zone: int) -> None:
    """``cid`` was put at the end of ``zone`` (noted in ``firsts``): first of its name unless a copy is there already.

    >>> firsts = {0: {"A": 1}}
    >>> arrive(firsts, ["A", "A", "B"], 2, 0); arrive(firsts, ["A", "A", "B"], 0, 0); firsts
    {0: {'A': 1, 'B': 2}}
    """
    firsts[zone].setdefault(names[cid], cid)
