"""What a compiled game keeps of the zones and roles a ruleset declares.

They are plain data, read by every layer: the core deals hidden zones and
roles again (:mod:`engine.core.information`), blocks resolve zones by name,
the compiler builds them from the ruleset's ``zones`` and ``roles``.

>>> RoleSpec("side", ("A", "B"), {2: frozenset({"A", "B"})}, {2: (1, 2)}).groups(2)
(('A',), ('B',))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class ZoneSpec:
    """A declared zone: ``kind`` (pile, hand, board), one per role or shared, what is hidden."""

    name: str
    kind: str
    per_role: bool
    hidden: str  # "none", "others" (contents), "order" (order and contents), "all", "owner" (from its owner alone)
    show: tuple[str, ...] = ()  # attributes the terminal shows beside each component
    owner_known: "Callable[[Any, int], bool] | None" = field(default=None, compare=False)  # hidden components known to stay with the owner
    doc: str = ""  # what it is, in English (``rulecraft explain``, the words a program may use)
    shown: bool = True  # drawn while empty (false: a zone that holds things only in the middle of an effect)
    refill: str = ""  # the zone shuffled into this one when a draw from it runs short (a deck-builder's discard)
    keys: tuple[Any, ...] = ()  # ``key:``: one zone per key (a type's values, whole numbers, components), ``column(3)``
    key_of: str = ""  # what the keys are, as written: the type's name, a component kind, or ``1..7``
    key_texts: tuple[str, ...] = ()  # each key as the zone's name and a position write it (a component by its name)


@dataclass(frozen=True)
class RoleSpec:
    """Roles (what plays in turn order) and which seat plays each, by player count.

    ``shuffled[n]`` lists the roles whose positions are dealt at random with
    ``n`` players (the others keep theirs); ``dealt[n]`` splits them into the
    groups dealt as one (each role alone unless the ruleset groups them: a
    group of two roles takes the two positions of another group); ``hidden``
    roles are known only to the seat playing them.
    """

    type_name: str
    values: tuple[str, ...]
    shuffled: dict[int, frozenset[str]]
    seating: dict[int, tuple[int, ...]]  # seat per position; 0 = absent
    hidden: bool = False
    dealt: dict[int, tuple[tuple[str, ...], ...]] = field(default_factory=dict)

    def groups(self, players: int) -> tuple[tuple[str, ...], ...]:
        """The groups of roles dealt at random with ``players`` players, in the order they are listed.

        Example: ``shuffle: [[A, C], [B, D]]`` gives ``(('A', 'C'), ('B', 'D'))``; ``shuffle: [A, B]`` gives
        ``(('A',), ('B',))``.
        """
        if players in self.dealt:
            return self.dealt[players]
        return tuple((r,) for r in self.values if r in self.shuffled.get(players, frozenset()))
