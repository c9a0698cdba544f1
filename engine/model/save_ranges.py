"""What a saved state's numbers may be: a table of the ranges the ruleset allows, checked when a save is read.

A checksum catches an edit, not a forger who works it out again; the probe that plays on from a loaded state catches
what crashes, not a number no game reaches.  So every number a save carries that the game keeps within bounds is
checked against them, each by a row of :data:`RANGES`: the turn number (from 1 up to the game's ``max_turns``), the
turn of the last decision (not after the turn number), every counter whose ``min``/``max`` are fixed numbers, the
generator's state, a pending draw's seat and size.  (The seats, the turn within the order, the step, the components'
places and faces are checked where the save is read, in :mod:`engine.model.savefile`.)  Before any of them, no whole
number anywhere in the save may have more digits than arithmetic ever makes (the ``integer_digits`` limit).

>>> [row.field for row in RANGES]
['turn_number', 'decided', 'counters', 'rng', 'chance']
>>> outside(-5, 1, 200), outside(3, 0, None), outside(-1, 0, None)
('it is a whole number from 1 to 200', None, 'it is a whole number of at least 0')

``out_of_range(game, Save(data, ...))`` says what the first number out of its range is: ``the saved turn_number is -5: it is a
whole number from 1 to 200 (turns are counted from 1 and the game ends by its max_turns)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

from engine.blocks.counters import owner_text
from engine.core.limits import exceeded
from engine.core.rng import MASK

if TYPE_CHECKING:
    from engine.model.game import Game

@dataclass(frozen=True)
class Save:
    """A save being read: its data, the key the blocks' slices are saved under and, in them, the key of the turn of the
    last decision (as :mod:`engine.model.savefile` writes them)."""

    data: dict[str, Any]
    slices: str
    decided: str


Bounded = tuple[str, Any, "int | None", "int | None"]
"""One number of a save: what it is called (as the save names it), its value, its lowest and highest allowed values
(None: no bound that way)."""


@dataclass(frozen=True)
class Range:
    """A row of the table: the numbers of one field of a save (``numbers`` lists them with their bounds), and why the
    bounds are what they are, in words."""

    field: str
    numbers: Callable[["Game", Save], Iterator[Bounded]]
    why: str


def _turn_number(g: "Game", save: Save) -> Iterator[Bounded]:
    yield "turn_number", save.data["turn_number"], 1, g.max_turns


def _decided(g: "Game", save: Save) -> Iterator[Bounded]:
    slices, turn = save.data[save.slices], save.data["turn_number"]
    if isinstance(slices, dict) and save.decided in slices:
        yield f"{save.slices}.{save.decided}", slices[save.decided], 1, turn if isinstance(turn, int) else None


def _counters(g: "Game", save: Save) -> Iterator[Bounded]:
    values = save.data.get("counters", [])
    if not isinstance(values, list) or len(values) != sum(len(spec.owners) for spec in g.counters.values()):
        return  # not the ruleset's counters at all: said where the save is read
    for spec in g.counters.values():
        low, high = spec.fixed_range()
        if low is None and high is None:
            continue
        for i, owner in enumerate(spec.owners):
            who = f"({owner_text(g, spec, owner)})" if spec.per != "game" or spec.keys is not None else ""
            yield f"counter {spec.name}{who}", values[spec.offset + i], low, high


def _rng(g: "Game", save: Save) -> Iterator[Bounded]:
    raw = save.data["rng"]  # written as text; a number read as it is
    try:
        value = int(raw) if isinstance(raw, str) else raw
    except ValueError:  # no number, or too long a text to read: where the save is read, it is damaged
        return
    yield "rng", value, 0, MASK


def _chance(g: "Game", save: Save) -> Iterator[Bounded]:
    chance = save.data.get("chance")
    if isinstance(chance, dict) and "pool" in chance:
        yield "chance.draws", chance.get("draws"), 1, len(g.component_names)
        yield "chance.seer", chance.get("seer"), 0, save.data["players"]


RANGES: tuple[Range, ...] = (
    Range("turn_number", _turn_number, "turns are counted from 1 and the game ends by its max_turns"),
    Range("decided", _decided, "the turn of the last decision, not after the turn number"),
    Range("counters", _counters, "every change of a counter is kept within its min and max"),
    Range("rng", _rng, "the dice's generator is one 64-bit number"),
    Range("chance", _chance, "a draw takes at least one component, at most every one, and its seat is one of the "
                             "game's (0: none)"),
)
"""Every number of a save the game keeps within bounds, a row per field."""


def out_of_range(g: "Game", save: Save) -> str | None:
    """Why a save's numbers are not ones a game of ``g`` holds (None when every one is within its range)."""
    too_long = _too_long(g, save.data, "")
    if too_long is not None:
        return too_long
    for row in RANGES:
        for name, value, low, high in row.numbers(g, save):
            if not isinstance(value, int) or isinstance(value, bool):
                continue  # no whole number at all: where the save is read, it is damaged
            wrong = outside(value, low, high)
            if wrong is not None:
                return f"the saved {name} is {value}: {wrong} ({row.why})"
    return None


def outside(value: int, low: int | None, high: int | None) -> str | None:
    """Why ``value`` is not from ``low`` to ``high`` (None: no bound that way), or None when it is."""
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    span = (f"from {low} to {high}" if low is not None and high is not None
            else f"of at least {low}" if low is not None else f"of at most {high}")
    return f"it is a whole number {span}"


def _too_long(g: "Game", value: Any, path: str) -> str | None:
    """The first whole number in ``value`` (at ``path``) with more digits than the game's ``integer_digits`` allow."""
    if isinstance(value, int) and not isinstance(value, bool):
        if g.limits.too_large(value):
            return (f"the saved {path or 'state'} is a number of more than {g.limits.integer_digits} digits, more than "
                    f"a game ever holds {exceeded('integer_digits', g.limits.integer_digits)}")
        return None
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _too_long(g, item, f"{path}.{key}" if path and not isinstance(key, int) else f"{path}[{key}]"
                          if path else str(key))
        if found is not None:
            return found
    return None
