"""Pieces lying face down on the board: who may see which piece lies on a cell.

A ruleset with ``face_down: true`` may turn pieces on its board face down
(``turn_down(...)``) and up again (``turn_up(...)``).  A face-down piece is
seen by nobody, or only by the seat playing the role it was turned down for
(``seen_by = r``: a player's own pieces, whose ranks the others do not see).
Every other seat sees only its *back*: that a piece of its kind lies there,
and for whom (``face-down piece of North``) — not its name, its face, its
values or its counters.  A piece that leaves the board is turned up (a
captured piece is shown), and a piece placed from a zone lies face up.

What is kept is one slice of the state (:class:`FaceDown`): the face-down
pieces and the role each is seen by.  Search bots plan on samples in which the
face-down pieces a seat cannot see are dealt again among their cells, each
among the pieces of its kind seen by the same role (:meth:`FaceDown.determinize`).

>>> down = FaceDown(((3, None), (5, "North")))
>>> down.seen_by(3), down.seen_by(5), down.seen_by(4)
(None, 'North', False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from engine.core.shown import shown_to
from engine.core.slices import slice_kind

if TYPE_CHECKING:
    import random

    from engine.core.views import StateData

NOBODY = 0
"""The seat of a view that sees no face-down piece (the public view of the web page)."""


@slice_kind
class FaceDown(NamedTuple):
    """The pieces lying face down on the board, each with the role that still sees it (None: nobody), by id."""

    pieces: tuple[tuple[int, str | None], ...] | None = None
    block = "face down"
    saved = ("face down",)

    def seen_by(self, cid: int) -> str | Literal[False] | None:
        """The role that sees face-down piece ``cid`` (None: nobody); False when it lies face up."""
        for c, role in self.pieces or ():
            if c == cid:
                return role
        return False

    def observe(self, s: Any, seat: int) -> dict[str, Any]:
        """The cells of every face-down piece (which of them the seat itself sees, its observation's board says)."""
        if not self.pieces:
            return {}
        return {"face_down": [f"{x},{y}" for x, y in sorted(s.cell_of[c] for c, _ in self.pieces)]}

    def determinize(self, sample: Any, seat: int, rng: "random.Random") -> "FaceDown":
        """Deal the face-down pieces ``seat`` cannot see again among their cells: each goes to a cell held by a piece
        of its kind seen by the same role, and shows its first face (its face is unseen too).  A choice waiting
        for an answer offers, at each cell, the piece now there (its options are the pieces, its labels the cells)."""
        moved: dict[int, int] = {}  # each piece dealt again -> the piece now on its cell
        pools: dict[tuple[str, str | None], list[int]] = {}
        for cid, role in self.pieces or ():
            if (role is None or sample.seat_of.get(role) != seat) and not shown_to(sample, cid, seat):
                pools.setdefault((sample.game.component_kind[cid], role), []).append(cid)
        for key in sorted(pools, key=lambda k: (k[0], k[1] or "")):
            pieces = sorted(pools[key])
            cells = [sample.cell_of[c] for c in pieces]
            drawn = pieces[:]
            rng.shuffle(drawn)
            for cell, cid in zip(cells, drawn):
                there = sample.grid[cell]
                if there != cid:
                    sample.swap(there, cid)
            for cid in drawn:
                sample.show(cid, 0)
            moved.update(zip(pieces, drawn))
            _deal_counters(sample, pieces, rng)
        pending = sample.pending
        if pending is not None and pending.components and any(o in moved for o in pending.options):
            sample.pending = pending.with_options(tuple(moved.get(o, o) for o in pending.options))
        return self


def face_down(s: "StateData") -> FaceDown | None:
    """The state's face-down pieces (None when none lies face down)."""
    down: FaceDown | None = s.slices.get(FaceDown.block)
    return down if down is not None and down.pieces else None


def hidden_from(s: "StateData", cid: int, seat: int | None) -> bool:
    """Whether ``seat`` sees only the back of component ``cid`` (a face-down piece not turned down for its role, nor
    shown to it: :mod:`engine.core.shown`).

    ``seat`` None sees everything (a finished game, a table of bots); :data:`NOBODY` (0) sees no face-down piece.
    """
    if seat is None:
        return False
    down = face_down(s)
    if down is None:
        return False
    role = down.seen_by(cid)
    return role is not False and (role is None or s.seat_of.get(role) != seat) and not shown_to(s, cid, seat)


def back_label(s: "StateData", cid: int) -> str:
    """What everyone sees of face-down piece ``cid``: ``face-down tile``, or ``face-down piece of North`` when it was
    turned down for a role (roles are open: ``face_down`` is refused with hidden roles)."""
    down = face_down(s)
    role = down.seen_by(cid) if down is not None else None
    kind = s.game.component_kind[cid]
    return f"face-down {kind} of {role}" if isinstance(role, str) else f"face-down {kind}"


def back_labels(kinds: list[str], roles: list[str]) -> list[str]:
    """Every back :func:`back_label` may give in a game of these kinds and roles (for a fixed encoding or action table).

    >>> back_labels(["tile"], ["A"])
    ['face-down tile', 'face-down tile of A']
    """
    return [label for kind in sorted(set(kinds)) for label in (f"face-down {kind}", *(f"face-down {kind} of {o}" for o in roles))]


def _deal_counters(sample: Any, pieces: list[int], rng: "random.Random") -> None:
    """Deal the values of the face-down ``pieces``' own counters again among them (from their sorted values): the
    seat knows how many of them hold each value, not which piece (a mark on a hidden piece is as hidden as the piece).

    Nothing is drawn when they all hold the same values, so a game whose face-down pieces carry no mark is
    sampled as it was."""
    slots = [sample.game.counter_slots[c] for c in pieces]
    values = sorted(tuple(sample.counters[i] for i in slot) for slot in slots)
    if not slots[0] or values[0] == values[-1]:
        return
    rng.shuffle(values)
    for slot, value in zip(slots, values):
        for i, v in zip(slot, value):
            sample.counters[i] = v


def public_name(s: "StateData", cid: int, name: str) -> str:
    """``name`` for a piece every seat sees; a face-down piece's back instead (for log lines and action text, which
    every seat reads)."""
    down = face_down(s)
    return back_label(s, cid) if down is not None and down.seen_by(cid) is not False else name


def told_name(s: "StateData", cid: int, zone: int | None = None) -> str | None:
    """How a message every seat reads (an error shown at the table) may name component ``cid``: None when every seat
    sees it where it lies (its own name may be used), its back when it lies face down, else ``a hidden component``
    (in a zone some seat does not see: a hand, a deck).

    Example: a card in a hand hidden from the others gives ``'a hidden component'``, a piece on the board face up
    None, the same piece turned down ``'face-down piece'``.  ``zone``: where it lay (when it may have moved since).
    """
    zone = s.zone_of[cid] if zone is None else zone
    if zone != s.game.board_zone and s.game.zone_spec_of[zone].hidden != "none":
        return "a hidden component"
    down = face_down(s)
    return back_label(s, cid) if down is not None and down.seen_by(cid) is not False else None


def turn_down(s: "StateData", cid: int, role: str | None) -> None:
    """Lay piece ``cid`` (on the board) face down, seen only by ``role``'s seat (None: by nobody)."""
    down = s.slices.get(FaceDown.block) or FaceDown()
    kept = tuple(p for p in down.pieces or () if p[0] != cid)
    s.slices[FaceDown.block] = FaceDown(tuple(sorted((*kept, (cid, role)), key=lambda p: p[0])))


def turn_up(s: "StateData", cid: int) -> bool:
    """Turn piece ``cid`` face up; whether it lay face down."""
    down = face_down(s)
    if down is None or down.seen_by(cid) is False:
        return False
    kept = tuple(p for p in down.pieces or () if p[0] != cid)
    if kept:
        s.slices[FaceDown.block] = FaceDown(kept)
    else:
        del s.slices[FaceDown.block]
    return True
