"""Sealed numbers: a ``commit`` step whose decision is a number (a sealed bid), kept apart until the ``reveal``.

::

    slots: {names: [bid]}
    turn:
      - commit: {numbers: numbers(0, coins(current_role))}   # commit 3 to bid; the others read: commit a number to bid
      - reveal: {}                                          # every sealed number turned up together
      - do: {effect: "... committed_number(r) ..."}         # read until the next reveal

Each decision seals one of the numbers the list gives, one per slot.  Until
the reveal no other seat sees it: not in an observation (a seat's own sealed
numbers are listed under ``committed_numbers``), not in a bot's sample, which
draws another seat's sealed number again among those its step offers that
seat.  The reveal turns every one up; ``committed_number(ROLE [, SLOT])``
reads it until the next reveal.

>>> bids = Bids(sealed=((0, "A", 0, 7),))
>>> bids.observe_for({"A": 1, "B": 2}, 2, ("bid",)), bids.observe_for({"A": 1, "B": 2}, 1, ("bid",))
({'committed_numbers': {'sealed': [], 'revealed': []}}, {'committed_numbers': {'sealed': [['A', 'bid', 7]], 'revealed': []}})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.seat_functions import role_type
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import INT

if TYPE_CHECKING:
    import random

    from engine.blocks.context import StateView


def slot_names(s: "StateView") -> tuple[str, ...]:
    """The names of the slots section's slots (none without one), as sealed choices are observed under."""
    slots = s.game.parts.get("slots")
    return slots.names if slots is not None else ()


def slot_label(names: tuple[str, ...], i: int) -> str:
    """Slot ``i`` (0-based) by its name, or its number from 1 past the names.

    >>> slot_label(("bid",), 0), slot_label(("bid",), 1)
    ('bid', '2')
    """
    return names[i] if i < len(names) else str(i + 1)


class Bids(NamedTuple):
    """The numbers committed with ``commit: {numbers: ...}``: sealed ones until the reveal, then those revealed.

    ``sealed`` holds ``(step, role, slot, number)`` per decision, seen only by the role's own seat; ``shown`` holds
    ``(role, slot, number)``, public until the next reveal replaces it.
    """

    sealed: tuple[tuple[int, str, int, int], ...] | None = None
    shown: tuple[tuple[str, int, int], ...] | None = None
    block = "committed numbers"
    saved = ("sealed numbers", "revealed numbers")

    def observe(self, s: "StateView", seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its own sealed numbers and every revealed one; nothing before any is committed."""
        if self.sealed is None and self.shown is None:
            return {}
        return self.observe_for(s.seat_of, seat, slot_names(s))

    def observe_for(self, seat_of: dict[str, int], seat: int, names: tuple[str, ...]) -> dict[str, Any]:
        """:meth:`observe` given who sits where and the slots' names."""
        own = [[role, slot_label(names, i), n] for _, role, i, n in self.sealed or () if seat_of.get(role) == seat]
        shown = [[role, slot_label(names, i), n] for role, i, n in self.shown or ()]
        return {"committed_numbers": {"sealed": own, "revealed": shown}}

    def determinize(self, sample: "StateView", seat: int, rng: "random.Random") -> "Bids":
        """The slice in a sample for ``seat``: every number another seat sealed is drawn again among the numbers its
        step offers that seat's role in the sample."""
        sealed = []
        for step, role, slot, n in self.sealed or ():
            if sample.seat_of.get(role) != seat:
                offered = sample.game.steps[step].number_options(sample, role)
                n = offered[rng.randrange(len(offered))] if offered else n
            sealed.append((step, role, slot, n))
        return self._replace(sealed=tuple(sealed))


def seal(s: "StateView", step: int, role: str, slot: int, number: int, place: int) -> None:
    """Keep ``number`` sealed by ``role`` at ``slot`` (``place``: where the role plays in the round, to keep them in
    turn order)."""
    bids = s.slices.get(Bids.block, Bids())
    order = {r: i for i, r in enumerate(s.order)}
    sealed = (*(bids.sealed or ()), (step, role, slot, number))
    s.slices[Bids.block] = bids._replace(sealed=tuple(sorted(sealed, key=lambda b: (b[0], order.get(b[1], place), b[2]))))


def sealed_by(s: "StateView", step: int, role: str) -> int:
    """How many numbers ``role`` sealed in step ``step`` since the last reveal."""
    bids = s.slices.get(Bids.block)
    return sum(1 for b in bids.sealed or () if b[0] == step and b[1] == role) if bids else 0


def reveal(s: "StateView") -> tuple[tuple[str, int, int], ...]:
    """Turn every sealed number up (they replace those revealed before); the numbers revealed."""
    bids = s.slices.get(Bids.block)
    if bids is None:
        return ()
    shown = tuple((role, slot, n) for _, role, slot, n in bids.sealed or ())
    s.slices[Bids.block] = Bids(shown=shown)
    return shown


def committed_number(s: "StateView", role: Any, slot: int) -> int | None:
    """The number ``role`` committed at ``slot`` (0-based) that was revealed last, or None."""
    bids = s.slices.get(Bids.block)
    return next((n for r, i, n in bids.shown or () if r == role and i == slot), None) if bids else None


@dataclass(frozen=True)
class CommittedNumber(Function):
    """``committed_number(r)`` / ``committed_number(r, slot)``: the number a role sealed, once revealed."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1, 2)
        if not args:
            return Compiled(INT, lambda s, e: None)
        role = self.value(scope, args[0], role_type(scope), "role").fn
        slot = self.value(scope, args[1], INT, "slot").fn if len(args) == 2 else (lambda s, e: 1)
        def read(s: Any, e: list[Any]) -> int | None:
            at = slot(s, e)
            return None if at is None else committed_number(s, role(s, e), at - 1)

        return Compiled(INT, read)

    def describe(self, call: ast.Call) -> str:
        what = call.args[0].describe() if call.args else "?"
        slot = f" for slot {call.args[1].describe()}" if len(call.args) == 2 else ""
        return f"the number committed by {what}{slot}"


COMMITTED_NUMBER = CommittedNumber(
    "committed_number", "committed_number(ROLE [, SLOT]) -> int",
    "The number a role sealed (at a slot, 1 = first) with `commit: {numbers: ...}`, once revealed and until the next "
    "reveal; none if none.", "committed_number(r) > committed_number(other)")
