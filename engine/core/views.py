"""What code below the game layer may read of a compiled game and a state: the narrow views it is written against.

``Game`` and ``State`` sit above the core, the language and the mechanisms
(their methods run the turn and set games up), so lower code never imports
them, not even for a type annotation.  It names these protocols instead; the
real ``Game`` and ``State`` satisfy them structurally, and
``tests/test_views.py`` checks both that they do and that lower code asks for
nothing the protocols leave out.  The mechanisms widen them
(:mod:`engine.blocks.context`).

>>> class Seating:
...     players, seat_of = 2, {"A": 1, "B": 2}
>>> isinstance(Seating(), StateData)  # a state has every member of StateData; this has two
False
"""

from __future__ import annotations

from typing import Any, Protocol, Self, Sequence, runtime_checkable

from engine.core.face_tallies import FaceTally
from engine.core.limits import Limits
from engine.core.specs import RoleSpec, ZoneSpec
from engine.core.tallies import Tally


class StepData(Protocol):
    """What the core reads of a turn step: whether the other seats see its decisions."""

    @property
    def sealed(self) -> bool: ...


@runtime_checkable
class GameData(Protocol):
    """The parts of a compiled game the core and the language read: components, zones, roles, budgets."""

    component_kind: list[str]
    face_count: list[int]
    kinds: dict[str, list[int]]
    types: dict[str, tuple[str, ...]]
    zone_specs: dict[str, ZoneSpec]
    zone_spec_of: list[ZoneSpec]
    zone_owner: list[str | None]
    board_zone: int  # the board's zone (-1: no board)
    roles: RoleSpec | None
    limits: Limits
    parts: dict[str, Any]  # each block's compiled part, by name

    @property
    def steps(self) -> Sequence[StepData]: ...

    @property
    def counter_slots(self) -> list[tuple[int, ...]]: ...


@runtime_checkable
class StateData(Protocol):
    """The parts of a state the core and the language read and deal again: zones, faces, seating, budget."""

    players: int
    face: list[int]
    zone_of: list[int]
    zones: list[list[int]]
    positions: tuple[str, ...]
    seat_of: dict[str, int]
    order: tuple[str, ...]
    slices: dict[str, Any]
    rng: int
    budget: int
    tallies: dict[Tally, dict[Any, int]]  # counts kept up to date (engine.core.tallies); dealing a zone anew drops its
    by_value: dict[Any, Any]  # the board's cells by value, kept up to date (engine.core.kept_cells); dealing the board anew drops them
    face_tallies: dict[FaceTally, dict[Any, int]]  # counts by face kept up to date (engine.core.face_tallies); dealing a zone anew drops its
    same_faces: dict[FaceTally, Any]  # the one value of a zone of copies, noted instead of counted (likewise)
    firsts: dict[int, dict[str, int]]  # big zones' first component of each name, kept by moves (engine.core.kept_firsts)
    counters: list[int]  # every counter's value (a component's own at the slots of ``game.counter_slots``)
    pending: Any  # the effect waiting for a decision, if any (engine.blocks.choices.Pending, a layer up)
    _actions: Any  # the legal actions worked out for this position (None: to work out again)

    @property
    def game(self) -> GameData: ...

    @property
    def acting_role(self) -> str: ...

    def clone(self) -> Self: ...
