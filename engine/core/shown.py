"""Components shown to some roles only: a card in another player's hand looked at, a face-down piece peeked at.

``show(x in hand(B), to = A)`` lets the seat playing A see the selected
components where they lie, though their zone hides them from it (or, on the
board, though they lie face down): its observation lists them in that zone
at their places (``{"hidden": 2, "seen": [[0, "Baron"]]}``), on the board as
themselves; search bots planning for that seat keep them where they are
instead of dealing them again.  A component stays shown until it moves to
another zone (a card played from the hand, a piece taken off the board) or
its zone is shuffled: then nobody may know where it is any more.

What is kept is one slice of the state (:class:`Shown`): the shown
components by id, with the roles that saw each.

>>> seen = Shown(((4, ("A",)), (7, ("A", "B"))))
>>> seen.roles_of(7), seen.roles_of(5)
(('A', 'B'), ())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.core.slices import slice_kind

if TYPE_CHECKING:
    from engine.core.views import StateData

Places = dict[int, tuple[int, int]]
"""Where each shown component lay, by id: its zone and its place in it (see :func:`places_of`)."""


@slice_kind
class Shown(NamedTuple):
    """The components shown to some roles, each with the roles that saw it (sorted by id)."""

    entries: tuple[tuple[int, tuple[str, ...]], ...] | None = None  # (a slice's "components" names its saved keys that hold ids)
    block = "shown"
    saved = ("shown to",)

    def roles_of(self, cid: int) -> tuple[str, ...]:
        """The roles component ``cid`` was shown to (none: it is shown to nobody)."""
        for c, roles in self.entries or ():
            if c == cid:
                return roles
        return ()


def shown(s: "StateData") -> Shown | None:
    """The state's shown components (None when none is shown)."""
    seen: Shown | None = s.slices.get(Shown.block)
    return seen if seen is not None and seen.entries else None


def shown_to(s: "StateData", cid: int, seat: int | None) -> bool:
    """Whether component ``cid`` was shown to a role ``seat`` plays (since it came where it lies); seat 0 or None,
    nobody's, was shown nothing."""
    seen = shown(s)
    return seen is not None and bool(seat) and any(s.seat_of.get(r) == seat for r in seen.roles_of(cid))


def seen_in(s: "StateData", zone: int, seat: int) -> list[tuple[int, int]]:
    """The components of ``zone`` shown to ``seat``, as (place in the zone, id), in the zone's order."""
    if shown(s) is None:
        return []
    return [(i, c) for i, c in enumerate(s.zones[zone]) if shown_to(s, c, seat)]


def show(s: "StateData", cid: int, roles: tuple[str, ...]) -> None:
    """Show component ``cid`` to ``roles`` (besides the roles that saw it already)."""
    seen = s.slices.get(Shown.block) or Shown()
    had = seen.roles_of(cid)
    kept = tuple(p for p in seen.entries or () if p[0] != cid)
    entry = (cid, tuple(sorted(set(had) | set(roles))))
    s.slices[Shown.block] = Shown(tuple(sorted((*kept, entry), key=lambda p: p[0])))


def forget(s: "StateData", cids: Any) -> None:
    """No role knows components ``cids`` any more (they moved to another zone, or their zone was shuffled)."""
    seen = shown(s)
    if seen is None:
        return
    gone = set(cids)
    kept = tuple(p for p in seen.entries or () if p[0] not in gone)
    if kept:
        s.slices[Shown.block] = Shown(kept)
    else:
        del s.slices[Shown.block]


def places_of(s: "StateData") -> Places:
    """Where each shown component lies now: its zone and its place there (for :func:`repoint`)."""
    seen = shown(s)
    if seen is None:
        return {}
    return {c: (s.zone_of[c], s.zones[s.zone_of[c]].index(c)) for c, _ in seen.entries or ()}


def repoint(sample: "StateData", places: Places) -> None:
    """After a sample dealt again what a seat cannot see: what each role was shown is whatever now lies where the
    shown component lay (``places``, from :func:`places_of` before the deal), so the sample's other seats know as
    much as the real ones did, of the sampled components."""
    seen = shown(sample)
    if seen is None or not places:
        return
    moved = {c: sample.zones[zone][i] for c, (zone, i) in places.items() if i < len(sample.zones[zone])}
    entries = sorted(((moved.get(c, c), roles) for c, roles in seen.entries or ()), key=lambda p: p[0])
    sample.slices[Shown.block] = Shown(tuple(entries))
