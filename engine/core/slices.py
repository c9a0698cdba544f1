"""Typed slices of the state: what a block remembers between actions, each in a class of its own.

A block keeps its work in progress (the clashes still to resolve, the
components cast this turn ...) in one slice: a ``NamedTuple`` whose fields
default to None (absent), with ``block``, the name ``State.slices`` keeps it
under, and ``saved``, the key each field is saved as.  A slice never changes:
a block stores a new one, so cloning a state copies only the dict that holds
them.  Register a kind of slice with :func:`slice_kind` (a block lists its
kinds in its ``Block``, which registers them).

What a seat knows of a slice is the slice's own business.  A kind may
define two methods:

* ``observe(self, state, seat) -> dict``: what ``seat`` may see of it, merged into
  :meth:`State.observation` (called with an empty slice when the state has
  none, so the keys are always there).  Without it a seat sees nothing of
  the slice: a block's work in progress is its own bookkeeping.
* ``determinize(self, state, seat, rng) -> slice``: the slice with what ``seat``
  may not see drawn again from ``rng``, for search on a sample of the
  hidden information (:func:`engine.core.information.determinize`).  Without it
  the slice is kept as it is.

Saves write every present field under its saved key, the keys saves have
always used, so saves and replays written before slices existed load and
positions keep their checksums:

>>> from typing import NamedTuple
>>> class Work(NamedTuple):
...     pending: tuple | None = None
...     done: int | None = None
...     block = "work"
...     saved = ("pending", "work done")
>>> to_json(Work(((1, 2),)))
{'pending': [[1, 2]]}
>>> from_json(Work, {"work done": 3})
Work(pending=None, done=3)
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

S = TypeVar("S")

SLICES: dict[str, Any] = {}
"""Every kind of slice by the name it is kept under."""


def slice_kind(cls: type[S]) -> type[S]:
    """Class decorator: register a kind of slice under its block's name (each saved key belongs to one slice)."""
    block, saved, fields = getattr(cls, "block", ""), getattr(cls, "saved", ()), getattr(cls, "_fields", ())
    assert block and block not in SLICES and len(saved) == len(fields), cls
    taken = {key for other in SLICES.values() for key in other.saved} & set(saved)
    assert not taken, f"{cls.__name__} saves under keys another slice uses: {taken}"
    ids = getattr(cls, "components", ())
    assert isinstance(ids, tuple) and set(ids) <= set(saved), f"{cls.__name__}.components must name saved keys: {ids!r}"
    SLICES[block] = cls
    return cls


def to_json(part: Any) -> dict[str, Any]:
    """A slice's present fields under their saved keys, as JSON-ready data (tuples become lists)."""
    return {key: _lists(value) for key, value in zip(part.saved, part) if value is not None}


def from_json(cls: type[S], data: dict[str, Any]) -> S | None:
    """The slice of kind ``cls`` saved in ``data`` (other keys are ignored); None when none of its keys is there."""
    saved = getattr(cls, "saved")
    if not any(key in data for key in saved):
        return None
    return cls(*(_tuples(data.get(key)) for key in saved))


def slices_to_json(slices: dict[str, Any]) -> dict[str, Any]:
    """Every slice's saved keys, in one mapping (as saves have always written them)."""
    data: dict[str, Any] = {}
    for part in slices.values():
        data.update(to_json(part))
    return data


def slices_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """The slices saved in ``data`` (keys of no slice are ignored)."""
    found = {name: from_json(cls, data) for name, cls in SLICES.items()}
    return {name: part for name, part in found.items() if part is not None}


def observed(state: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` may see of every kind of slice that says (see the module): their ``observe`` merged, in
    registration order; a kind the state does not hold is observed empty.

    Example: with the clash block declared, in a state with no pairs to clash, ``observed(state, 1)`` holds
    ``"pending": []``.
    """
    seen: dict[str, Any] = {}
    slices = state.slices
    for name, cls in SLICES.items():
        if hasattr(cls, "observe"):
            part = slices.get(name)
            seen.update((part if part is not None else cls()).observe(state, seat))
    return seen


def determinized(sample: Any, seat: int, rng: Any) -> dict[str, Any]:
    """The slices of ``sample`` with what ``seat`` may not see drawn again (each kind's ``determinize``; the others kept).

    >>> import random
    >>> class Roll(NamedTuple):
    ...     value: int | None = None
    ...     def determinize(self, state: Any, seat: int, rng: random.Random) -> "Roll":
    ...         return Roll(rng.randint(1, 6))
    >>> class Sample:
    ...     slices = {"roll": Roll(4), "chance": NO_CHANCE}
    >>> drawn = determinized(Sample(), 1, random.Random(3))
    >>> drawn["roll"].value in range(1, 7), drawn["chance"] is NO_CHANCE
    (True, True)
    """
    return {name: part.determinize(sample, seat, rng) if hasattr(part, "determinize") else part
            for name, part in sample.slices.items()}


def saved_keys() -> set[str]:
    """Every key a slice is saved under."""
    return {key for cls in SLICES.values() for key in cls.saved}


def component_keys() -> set[str]:
    """The saved keys whose values are components (an id, or a list of ids), as a kind of slice declares them in
    ``components``: what a position's key renames with the components (see
    :func:`engine.model.savefile.transposition_key`); a kind that declares none may hold ids all the same.

    Example: ``"placed" in component_keys()`` (the piece just placed).
    """
    return {key for cls in SLICES.values() for key in getattr(cls, "components", ())}


def unread_keys(step_kinds: set[str]) -> set[str]:
    """The saved keys of the slices that only steps of other kinds read, as a kind of slice declares them in
    ``read_by`` (the step kinds that read it; none declared: anything may): what a game with only steps of
    ``step_kinds`` never reads again, and a position's key leaves out.

    Example: ``"placed" in unread_keys({"place"})`` (the piece just placed, read by a clash or a group step).
    """
    return {key for cls in SLICES.values() if getattr(cls, "read_by", None) and not step_kinds & set(cls.read_by)
            for key in cls.saved}


@slice_kind
class Chance(NamedTuple):
    """The state's own slice for chance: the dice scenarios load, what ``toss()`` threw, the draws chosen at CHANCE nodes."""

    loaded: tuple[int, ...] | None = None  # results the next die rolls give instead of the generator's (a scenario's ``dice:``)
    tossed: tuple[str, ...] | None = None  # the component kinds toss() has thrown; a seat that cannot see one does not know its face
    drawn: tuple[str, ...] | None = None  # the names the next draws take, chosen at CHANCE nodes (explicit chance)
    block = "chance"
    saved = ("loaded dice", "tossed kinds", "loaded draws")


NO_CHANCE = Chance()


@slice_kind
class HookTrail(NamedTuple):
    """The hooks running now, outermost first (see engine.blocks.hooks.running): to name a runaway cycle and log their dice."""

    running: tuple[str, ...] | None = None
    block = "hooks"
    saved = ("hook trail",)


@slice_kind
class TurnOrder(NamedTuple):
    """The roles that left the turn order (``leave(r)``), in the order they left; their turns are passed over.
    ``again``: the role whose turn it is takes the next turn too (``play_again()``), once.  ``next``: the role that
    takes the next turn instead of the one after the current role (``play_next(r)``), once."""

    left: tuple[str, ...] | None = None
    again: bool | None = None
    next: str | None = None
    block = "turn order"
    saved = ("left", "plays again", "plays next")


def _lists(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_lists(x) for x in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(x) for x in value)
    return value
