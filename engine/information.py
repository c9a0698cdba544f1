"""What a seat may know, and full states sampled from it (determinizations).

A zone's declared ``hidden`` level says what each seat sees of it, exactly as
:meth:`State.observation` shows it:

* ``none``: everyone sees the contents in order;
* ``others``: the owning role's seat sees the contents in order, other seats
  only the count (a zone without an owner shows only its count);
* ``order``: the owner sees which components are there but not their order,
  other seats only the count;
* ``all``: everyone sees only the count.

Search agents that must not cheat plan on a *determinization*: a clone of the
real state in which everything the seat cannot see is drawn again at random.
The components of every zone the seat sees only as a count are pooled, sorted
by id, shuffled and dealt back zone by zone (each zone keeps its count); each
such component shows its first face, the face every component starts with
(faces of unseen components are unseen too).  Zones whose contents the seat
sees but not their order are reshuffled in place.  The state's own generator
is reseeded, so future chance is not known either.

The result depends only on what the seat observes and on ``rng``: two states
that differ only in what the seat cannot see give equal determinizations for
equal generators.  It is consistent with the current observation, not with
the history of the game (a hand the rules dealt face down is sampled from all
unseen components, even if the rules fixed what it holds).

Example::

    sample = determinize(state, 1, random.Random(0))
    assert sample.observation(1) == state.observation(1)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.state import State

SEEN = "seen"
UNORDERED = "unordered"
UNSEEN = "unseen"


def zone_view(state: "State", zone: int, seat: int) -> str:
    """How ``seat`` sees a zone: SEEN (contents and order), UNORDERED (contents only) or UNSEEN (count only)."""
    game = state.game
    hidden = game.zone_spec_of[zone].hidden
    if hidden == "none":
        return SEEN
    owner = game.zone_owner[zone]
    mine = owner is not None and state.seat_of.get(owner) == seat
    if mine and hidden == "others":
        return SEEN
    if mine and hidden == "order":
        return UNORDERED
    return UNSEEN


def zones_seen_as(state: "State", seat: int, view: str) -> list[int]:
    """The indices of the zones ``seat`` sees as ``view``."""
    return [z for z in range(len(state.zones)) if zone_view(state, z, seat) == view]


def determinize(state: "State", seat: int, rng: random.Random) -> "State":
    """A clone of ``state`` with everything ``seat`` may not see drawn at random from ``rng``."""
    sample = state.clone()
    _deal_unseen(sample, zones_seen_as(sample, seat, UNSEEN), rng)
    for zone in zones_seen_as(sample, seat, UNORDERED):
        items = sample.zones[zone]
        items.sort()
        rng.shuffle(items)
    sample.rng = rng.getrandbits(64)
    sample._actions = None  # a different position: its legal actions are worked out again
    return sample


def _deal_unseen(sample: "State", zones: list[int], rng: random.Random) -> None:
    """Pool the components of ``zones``, shuffle them and deal them back, each zone keeping its count."""
    pool = sorted(cid for zone in zones for cid in sample.zones[zone])
    rng.shuffle(pool)
    start = 0
    for zone in zones:
        count = len(sample.zones[zone])
        dealt = pool[start : start + count]
        start += count
        sample.zones[zone] = dealt
        for cid in dealt:
            sample.zone_of[cid] = zone
            sample.face[cid] = 0
