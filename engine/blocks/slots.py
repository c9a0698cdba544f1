"""Rows of named slots, sealed commitments into them, and the reveal.

A ruleset declares one row of slots per player and the zones laid out in it::

    slots:
      names: [left, middle, right]   # (or an option holding a list of names)
      adjacency: line                # line: a slot touches the slots beside it; none; all
      zones: [sealed, played]        # per-role zones read as rows of these slots

A zone laid out in slots is read in rows: its first ``N`` components are row
1 (one per slot, in slot order), the next ``N`` row 2, and so on — a row per
round.  No extra state is kept: a component's slot and row come from its
position in its zone.  The effect language reads them with ``slot_of(c)``,
``row_of(c)``, ``slot_neighbours(c)`` (the components in adjacent slots of
the same row of the same zone), ``slot_facing(c)`` (the other players'
components at the same slot and row), ``slot_next(c)`` and ``slot_previous(c)``
(the component in the same slot one row later / earlier).

Two steps use the slots:

* ``commit: {from: hand, to: sealed}`` — the player to move fills the slots
  one decision at a time (``commit 3 to left``; with ``face: choose``, also the
  face the component will show, sealed with it: ``commit A/B as B to
  left``), from a zone into a per-role
  zone that should be ``hidden: others``: the other seats see only how many
  cards are committed, so observations and determinizations never leak them.
  Sequential hidden commits play like a simultaneous one.  With ``cells:
  LIST`` (say ``empty_cells``) each decision also seals a cell of the board
  (``commit A/B as B to left at 1,0``); with ``cells`` and no ``from``/``to``
  it seals a cell alone (``commit 1,0 to left``).  A sealed cell is kept
  apart from the zones (:class:`Aims`): no other seat sees it before the
  reveal, and a bot's sample draws it again among the cells offered.
* ``reveal: {from: sealed, to: played}`` — on the turn of the last role of
  the round (everyone has committed), every seated role's committed row moves
  in slot order to the end of its (public) ``to`` zone, as one new row, and
  every sealed cell is revealed: ``committed_cell(r)`` (or ``committed_cell(c)``
  for the component committed with it) reads it until the next reveal, so the
  ruleset resolves the cells in an effect (same cell: a clash, a contest, or
  nobody places; different cells: each places).

>>> SlotRow(("a", "b", "c"), ((1,), (0, 2), (1,)), frozenset()).describe()
'3 slots (a, b, c), each touching the slots beside it'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from engine.blocks.block import Block, declare
from engine.blocks.context import ZoneRef
from engine.blocks.enumeration import Texts, board_cells, cell_texts, distinct, names
from engine.blocks import sealed_numbers
from engine.blocks.grid import format_cell
from engine.blocks.seat_functions import TURN_CHANGES
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, EachSpace, ListSpace
from engine.core.errors import SourcePos, did_you_mean
from engine.core.information import listed
from engine.lang import ast, codegen
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY_COMPONENT, CELL, INT, Component, Enum, ListOf

if TYPE_CHECKING:
    import random

    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


class Revealed(NamedTuple):
    """The slots block's slice of the state: the row just revealed, until a contest fights over it."""

    row: int | None = None
    block = "slots"
    saved = ("revealed",)


Cell = tuple[int, int]


class Aims(NamedTuple):
    """The cells committed with ``commit: {cells: ...}``: sealed ones until the reveal, then the row revealed.

    ``sealed`` holds ``(step, role, slot, x, y)`` per decision, seen only by the role's own seat;
    ``shown`` holds ``(role, slot, x, y, component)`` (component -1 for a cell alone), public until the
    next reveal replaces it.

    >>> aims = Aims(sealed=((0, "A", 0, 1, 0),))
    >>> aims.observe_for({"A": 1, "B": 2}, 2, ("tile",))
    {'committed_cells': {'sealed': [], 'revealed': []}}
    >>> aims.observe_for({"A": 1, "B": 2}, 1, ("tile",))
    {'committed_cells': {'sealed': [['A', 'tile', '1,0']], 'revealed': []}}
    """

    sealed: tuple[tuple[int, str, int, int, int], ...] | None = None
    shown: tuple[tuple[str, int, int, int, int], ...] | None = None
    block = "committed cells"
    saved = ("sealed cells", "revealed cells")

    def observe(self, s: "StateView", seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its own sealed cells and every revealed one (see :func:`engine.model.savefile.observation`);
        nothing before any cell is committed."""
        if self.sealed is None and self.shown is None:
            return {}
        return self.observe_for(s.seat_of, seat, sealed_numbers.slot_names(s))

    def observe_for(self, seat_of: dict[str, int], seat: int, names: tuple[str, ...]) -> dict[str, Any]:
        """:meth:`observe` given who sits where and the slots' names."""
        label = sealed_numbers.slot_label
        own = [[role, label(names, i), format_cell((x, y))] for _, role, i, x, y in self.sealed or ()
               if seat_of.get(role) == seat]
        shown = [[role, label(names, i), format_cell((x, y))] for role, i, x, y, _ in self.shown or ()]
        return {"committed_cells": {"sealed": own, "revealed": shown}}

    def determinize(self, sample: "StateView", seat: int, rng: "random.Random") -> "Aims":
        """The slice in a sample for ``seat`` (see :func:`engine.core.information.determinize`): every cell another seat
        sealed is drawn again among the cells its step offers in the sample."""
        sealed = []
        for step, role, slot, x, y in self.sealed or ():
            if sample.seat_of.get(role) != seat:
                offered = sample.game.steps[step].cell_options(sample)
                x, y = offered[rng.randrange(len(offered))] if offered else (0, 0)
            sealed.append((step, role, slot, x, y))
        return self._replace(sealed=tuple(sealed))


def closing_turn(s: "StateView") -> int:
    """The place in turn order of the turn that ends a sealed round: the last role's that has not left the turn order.

    (A role that leaves passes over its turns, so the reveal waits for the last one still playing.)
    """
    last = len(s.order) - 1
    left = s.left_roles()
    while last > 0 and s.order[last] in left:
        last -= 1
    return last


def _turn_place(s: "StateView", role: str) -> int:
    """Where ``role`` plays in the round (sealed cells are kept in turn order, however the seats decided)."""
    return s.order.index(role) if role in s.order else len(s.order)


def committed(s: "StateView", role: str, slot: int) -> Cell | None:
    """The cell ``role`` committed at ``slot`` (0-based) in the row last revealed, or None."""
    aims = s.slices.get(Aims.block)
    return next(((x, y) for r, i, x, y, _ in aims.shown or () if r == role and i == slot), None) if aims else None


ADJACENCIES = ("line", "none", "all")
SLOTS = "slots"  # the vocabulary's entry for the ruleset's SlotRow (None: no slots section)


@dataclass(frozen=True)
class SlotRow:
    """The slots of one player's row: names, which slots touch, which zones are laid out in rows of them."""

    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]  # per slot (0-based), the slots that touch it
    zones: frozenset[int]  # zone instances laid out in rows of slots

    def describe(self) -> str:
        """The row in words, for ``explain``: how many slots, their names, which touch.

        >>> SlotRow(("pick",), ((),), frozenset()).describe()
        '1 slot (pick)'
        >>> SlotRow(("left", "right"), ((1,), (0,)), frozenset()).describe()
        '2 slots (left, right), each touching the slots beside it'
        """
        if len(self.names) == 1:
            return f"1 slot ({self.names[0]})"
        if not any(self.neighbours):
            touching = "none touching another"
        elif all(set(n) <= {i - 1, i + 1} for i, n in enumerate(self.neighbours)):
            touching = "each touching the slots beside it"
        else:
            touching = "each touching every other"
        return f"{len(self.names)} slots ({', '.join(self.names)}), {touching}"

    def where(self, s: "StateView", cid: int) -> tuple[list[int], int] | None:
        """The contents of the slotted zone holding ``cid`` and its index there (None: not in one)."""
        zone = s.zone_of[cid]
        if zone not in self.zones:
            return None
        items = s.zones[zone]
        return items, items.index(cid)


NO_SLOTS = SlotRow(("slot",), ((),), frozenset())  # what a function reads its sizes from in a ruleset without slots


def read_slots(b: "BuildContext", spec: Any, pos: SourcePos | None) -> SlotRow | None:
    """Compile the ``slots`` section (None when the ruleset has none)."""
    from engine.core.yamlsource import Mapping

    if spec is None:
        return None
    if not isinstance(spec, Mapping):
        b.error(pos, "'slots' must be a mapping like {names: [left, middle, right], zones: [played]}")
        return None
    b.unknown_keys(spec, ("names", "adjacency", "zones"), "slots")
    names = b.setting(spec, "names", [])
    if not isinstance(names, list) or not names or len(set(map(str, names))) != len(names):
        b.error(b.pos(spec, "names"), "'names' must list the slots, each once (or name an option holding such a list)")
        names = ["slot"]
    n = len(names)
    rule = b.choice(spec, "adjacency", ADJACENCIES, "line")
    if rule == "line":
        neighbours = tuple(tuple(j for j in (i - 1, i + 1) if 0 <= j < n) for i in range(n))
    elif rule == "all":
        neighbours = tuple(tuple(j for j in range(n) if j != i) for i in range(n))
    else:
        neighbours = tuple(() for _ in range(n))
    zones: set[int] = set()
    listed = spec.get("zones") or []
    for i, name in enumerate(listed if isinstance(listed, list) else []):
        if str(name) not in b.game.zone_specs:
            b.error(b.pos(listed, i), f"unknown zone '{name}'", did_you_mean(str(name), b.game.zone_specs))
            continue
        zones.update(z for (zone, _), z in b.game.zone_index.items() if zone == str(name))
    if not isinstance(listed, list) or ("zones" in spec and not listed):
        b.error(b.pos(spec, "zones"), "'zones' must list the zones laid out in rows of these slots")
    return SlotRow(tuple(str(x) for x in names), neighbours, frozenset(zones))


def declare_slots(b: "BuildContext") -> None:
    """Read the ``slots`` section into ``game.parts["slots"]`` (None when the ruleset has none), before steps ask for it."""
    b.game.parts["slots"] = read_slots(b, b.tree.get("slots"), b.pos(b.tree, "slots"))


def attach_slots(b: "BuildContext") -> None:
    """Tell the slot functions about the row (once the vocabulary exists): they read its sizes as they compile."""
    b.game.vocab.data[SLOTS] = b.game.parts["slots"]


def _slot_row(b: "BuildContext", pos: SourcePos) -> SlotRow:
    """The ruleset's slots, for a step that needs them (reported when missing)."""
    if b.game.parts.get("slots") is None:
        b.error(pos, "this step needs a 'slots' section (the row of slots each player fills)")
        return NO_SLOTS
    return b.game.parts.get("slots")


def check_turn_changes(b: "BuildContext") -> None:
    """A ruleset with a ``reveal`` step refuses ``play_again()``, ``play_next()`` and ``rejoin()``: its sealed round gives every
    player one turn, in turn order, and reveals on the last one's, so an extra or skipped turn would reveal before
    everyone has committed (or leave a player's commit for the next round)."""
    reveal = next((step for step in b.game.steps if isinstance(step, Reveal)), None)
    if reveal is None:
        return
    where = f" ({reveal.pos.file}:{reveal.pos.line})" if reveal.pos else ""
    for name, pos in b.game.vocab.data.get(TURN_CHANGES, ()):
        b.error(pos, f"{name} can't be used in a ruleset with a 'reveal' step{where}: each sealed round gives every "
                     "player one turn, in turn order, and reveals on the last one's, so an extra or a skipped turn "
                     "would reveal before everyone has committed",
                "keep the turn order as it is in a game of sealed rounds; leave(ROLE) may still take a player out")


def _check_laid_out(b: "BuildContext", spec: "Mapping", key: str, slots: SlotRow) -> None:
    name = str(spec.get(key, ""))
    if name in b.game.zone_specs:
        if not b.game.zone_specs[name].per_role:
            b.error(b.pos(spec, key), f"'{key}' must be a per-role zone ('per: role'): each player has a row")
        elif not any(z in slots.zones for (zone, _), z in b.game.zone_index.items() if zone == name):
            b.error(b.pos(spec, key), f"zone '{name}' is not laid out in slots; list it under 'slots: zones'")


def _ends_by_role(source: ZoneRef, target: ZoneRef) -> dict[str, tuple[int, int]] | None:
    """The zones each role moves components from and to, when both are per-role zones (else None: resolved one by one).

    >>> _ends_by_role(ZoneRef("hand", lambda s: 0, {"A": 1, "B": 2}), ZoneRef("row", lambda s: 0, {"A": 3, "B": 4}))
    {'A': (1, 3), 'B': (2, 4)}
    """
    if source.by_role is None or target.by_role is None or source.by_role.keys() != target.by_role.keys():
        return None
    return {role: (zone, target.by_role[role]) for role, zone in source.by_role.items()}


# ---------------------------------------------------------------- steps


@step_kind
class Commit(Step):
    """``commit: {from: hand, to: sealed}`` — fill the row of slots, one decision per slot.

    With ``cells: LIST`` a decision also seals one of the listed cells (``commit A to left at 1,0``), and
    without ``from``/``to`` it seals a cell alone (``commit 1,0 to left``); its arguments are then
    ``(component or None, slot, face or None, cell)``.  With ``numbers: LIST`` (alone) it seals a number
    (``commit 3 to bid``, engine.blocks.sealed_numbers): ``(None, slot, None, None, number)``.
    """

    kind = "commit"
    sealed = True  # the others see only that a slot was filled
    keys = ("if", "from", "to", "face", "cells", "numbers")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.slots = _slot_row(b, pos)
        self.choose_face = b.choice(spec, "face", ("as-is", "choose"), "as-is") == "choose"
        self.cells: Any = None  # the compiled list of cells a decision may seal, when it seals one
        self.cell_slots, self.cells_text = 1, ""
        self.size = len(self.slots.names)
        if "cells" in spec:
            compiled, self.cell_slots = b.expression(spec["cells"], None, pos=b.pos(spec, "cells"))
            if not ListOf(CELL).accepts(compiled.type):
                b.error(b.pos(spec, "cells"), f"'cells' must be a list of cells (say empty_cells), not {compiled.type}")
            self.cells, self.cells_text = compiled.fn, b.describe(spec["cells"])
        self.numbers: Any = None  # the compiled list of numbers a decision may seal, when it seals a number
        self.number_slots, self.numbers_text = 1, ""
        if "numbers" in spec:
            compiled, self.number_slots = b.expression(spec["numbers"], None, pos=b.pos(spec, "numbers"))
            if not ListOf(INT).accepts(compiled.type):
                b.error(b.pos(spec, "numbers"), f"'numbers' must be a list of numbers (say numbers(0, 10)), not {compiled.type}")
            others = [key for key in ("from", "to", "face", "cells") if key in spec]
            if others:
                b.error(b.pos(spec, "numbers"), f"'numbers' seals a number alone: leave out {', '.join(repr(k) for k in others)}",
                        "a second 'commit' step may seal components or cells beside it")
            self.numbers, self.numbers_text = compiled.fn, b.describe(spec["numbers"])
            self.cells, self.choose_face = None, False  # (told above when given)
        self.components = self.numbers is None and ("from" in spec or "to" in spec or self.cells is None)
        self.ends: dict[str, tuple[int, int]] | None = None  # by role, when both zones are per role
        if self.components and not ("from" in spec and "to" in spec):
            b.error(pos, "step 'commit' needs both 'from' and 'to' (or neither, with 'cells', to commit a cell alone)")
        elif self.components:
            self.source = b.zone_ref(spec, "from", offered=True)
            self.target = b.zone_ref(spec, "to")
            _check_laid_out(b, spec, "to", self.slots)
            self.ends = _ends_by_role(self.source, self.target)
        elif self.choose_face:
            b.error(b.pos(spec, "face"), "'face: choose' needs components to commit: add 'from' and 'to'")
        self.plain = self.components and self.cells is None and not self.choose_face  # a component, as it is
        spec_from = b.game.zone_specs.get(self.source.name) if self.ends is not None else None
        # the role committing sees the order of its own source zone: offered as it lies, without asking (see listed)
        self.own_order = spec_from is not None and spec_from.hidden in ("none", "others")

    def cell_options(self, s: "StateView") -> list[Cell]:
        """The cells a decision may seal now, in a stable order without repeats (none when it seals no cell)."""
        if self.cells is None:
            return []
        found = self.cells(s, [None] * self.cell_slots) or []
        return list(dict.fromkeys(tuple(c) for c in found if c is not None))

    def number_options(self, s: "StateView", role: str | None = None) -> list[int]:
        """The numbers a decision may seal now (for ``role``, else the acting role), in a stable order without repeats."""
        if self.numbers is None:
            return []
        saved = s.turn
        if role is not None and role in s.order:
            s.turn = s.order.index(role)  # the list may read whose turn it is: as that role's own turn would
        try:
            found = self.numbers(s, [None] * self.number_slots) or []
        finally:
            s.turn = saved
        return list(dict.fromkeys(n for n in found if isinstance(n, int) and not isinstance(n, bool)))

    def _cells_sealed(self, s: "StateView") -> int:
        """How many cells the acting role sealed in this step (its filled slots, when it commits cells alone)."""
        aims = s.slices.get(Aims.block)
        role = s.acting_role
        return sum(1 for entry in aims.sealed or () if entry[0] == self.index and entry[1] == role) if aims else 0

    def _zones(self, s: "StateView") -> tuple[int, int]:
        """The zones the acting role commits from and to (both resolved with one look-up when both are per role)."""
        ends = self.ends
        if ends is None:
            return self.source(s), self.target(s)
        decisions = s.decisions
        return ends[decisions[-1].role if decisions else s.order[s.turn]]

    def _next_slot(self, s: "StateView", zones: tuple[int, int] | None = None) -> int | None:
        """The slot to fill now, or None when the row is full or nothing is left to commit (``zones``: the zones
        committed from and to, when the caller has them)."""
        if self.components:
            source, target = self._zones(s) if zones is None else zones
            filled = len(s.zones[target])
            return None if filled >= self.size or not s.zones[source] else filled
        filled = self._cells_sealed(s) if self.numbers is None else sealed_numbers.sealed_by(s, self.index, s.acting_role)
        return None if filled >= self.size else filled

    def enter(self, s: "StateView") -> bool:
        space = self.actions(s)  # none when the row is full, nothing is left to commit or no cell may be sealed
        if not len(space):
            return False
        s.listed(space)  # the decision waits on these: not worked out again
        return True

    def actions(self, s: "StateView") -> ActionSpace:
        zones = self._zones(s) if self.components else None
        slot = self._next_slot(s, zones)
        if slot is None:
            return ListSpace(self, [])
        return self._space(s, slot, zones)

    def _space(self, s: "StateView", slot: int, zones: tuple[int, int] | None = None) -> ActionSpace:
        """The decisions filling ``slot``, the slot to fill now (``zones`` as for :meth:`_next_slot`)."""
        if self.plain:  # the usual commit: a component of the source, as it is
            source = self._zones(s)[0] if zones is None else zones[0]
            return EachSpace(self, self._offered(s, source), (slot,))
        if self.numbers is not None:
            return ListSpace(self, [(None, slot, None, None, n) for n in self.number_options(s)])
        if self.cells is not None:
            cells = self.cell_options(s)
            if not self.components:
                return ListSpace(self, [(None, slot, None, cell) for cell in cells])
            faces = self.game.distinct_faces
            return ListSpace(self, [(cid, slot, face if self.choose_face else None, cell) for cid in self._offered(s, self.source(s))
                                    for face in (faces[cid] if self.choose_face else (None,)) for cell in cells])
        if self.choose_face:
            faces = self.game.distinct_faces
        return ListSpace(self, [(cid, slot, face) for cid in self._offered(s, self.source(s)) for face in faces[cid]])

    def _offered(self, s: "StateView", source: int) -> tuple[int, ...]:
        """The components of ``source`` a decision may commit, in the order offered: identical copies (``count:``)
        once, by the first of them (of each face they show, when the face is not chosen), as a ``place`` step
        offers them; they would only be the same action again, listed twice."""
        held = s.zones[source] if self.own_order else listed(s, source)
        if not self.game.identical or len(held) < 2:
            return tuple(held)
        names = self.game.piece_names
        if len(set(map(names.__getitem__, held))) == len(held):  # no two copies of one component: each offered
            return tuple(held)
        face, by_face = s.face, not self.choose_face
        first: dict[Any, int] = {}
        for cid in held:
            first.setdefault((names[cid], face[cid]) if by_face else names[cid], cid)
        return tuple(first.values())

    def _offered_names(self, s: "StateView") -> list[str]:
        """The names of the components a decision may commit, as the actions are listed to a player: from a hand, in
        the order the ruleset declares them (as a player sorts a hand, and as ``rulecraft play`` and the web list
        its actions); from another zone, as they lie."""
        source = self.source(s)
        names = [self.game.piece_names[c] for c in self._offered(s, source)]
        if self.game.zone_spec_of[source].kind == "hand":
            declared = {name: i for i, name in reversed(list(enumerate(self.game.piece_names)))}
            names.sort(key=lambda name: declared.get(name, len(declared)))
        return names

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        if self.plain:  # the usual commit, in one pass: what _next_slot and _space say, for a component as it is
            source, target = self._zones(s)
            s.move(args[0], target)
            if s.log is not None:
                s.log.append(f"{s.actor} commits a card face down to {self.slots.names[args[1]]}")
            held, filled = s.zones[source], len(s.zones[target])
            if filled >= self.size or not held:
                return True
            s.listed(EachSpace(self, self._offered(s, source), (filled,)))  # the next decision's
            return False
        cid, slot = args[0], args[1]
        zones = None
        if cid is not None:
            zones = self._zones(s)
            s.move(cid, zones[1])
        if len(args) > 2 and args[2] is not None:
            s.show(cid, args[2])
        if len(args) == 5:
            sealed_numbers.seal(s, self.index, s.acting_role, slot, args[4], _turn_place(s, s.acting_role))
        if len(args) == 4:
            aims = s.slices.get(Aims.block, Aims())
            x, y = args[3]
            sealed = (*(aims.sealed or ()), (self.index, s.acting_role, slot, x, y))
            s.slices[Aims.block] = aims._replace(sealed=tuple(sorted(sealed, key=lambda a: (a[0], _turn_place(s, a[1]), a[2]))))
        if s.log is not None:
            s.log.append(f"{s.actor} commits {self._sealed_words(args)} face down to {self.slots.names[slot]}")
        slot = self._next_slot(s, zones)
        if slot is None:
            return True
        s.listed(self._space(s, slot, zones))  # the next decision's, worked out here rather than asked again
        return False

    def _sealed_words(self, args: tuple[Any, ...]) -> str:
        if len(args) == 5:
            return "a number"
        if len(args) < 4:
            return "a card"
        return "a card and a cell" if args[0] is not None else "a cell"

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return (args[0],) if args[0] is not None else ()

    def action_texts(self, game: "GameView") -> Texts:
        """``commit NAME to SLOT`` (``commit NAME as FACE to SLOT``, ``... at X,Y``, ``commit X,Y to SLOT``) for every
        component, face, slot and cell."""
        if self.components and self.choose_face:
            pieces = distinct(self._piece(game, cid, face) for cid in range(len(game.component_names)) for face in game.distinct_faces[cid])
        else:
            pieces = names(game) if self.components else ()
        if self.numbers is not None:
            return Texts((), f"numbers computed during play ({self.numbers_text})")
        if self.cells is None:
            return Texts(tuple(f"commit {piece} to {slot}" for piece in pieces for slot in self.slots.names))
        cells = cell_texts(game, board_cells(game))
        if not self.components:
            return Texts(tuple(f"commit {cell} to {slot}" for cell in cells for slot in self.slots.names))
        return Texts(tuple(f"commit {piece} to {slot} at {cell}" for piece in pieces for slot in self.slots.names for cell in cells))

    @staticmethod
    def _piece(game: "GameView", cid: int, face: int) -> str:
        """``A/B as B``, or the name alone for a component with one face."""
        return game.piece_names[cid] if game.face_count[cid] == 1 else f"{game.piece_names[cid]} as {game.face_labels[cid][face]}"

    def format(self, args: tuple[Any, ...]) -> str:
        cid, slot = args[0], args[1]
        if len(args) == 5:
            return f"commit {args[4]} to {self.slots.names[slot]}"
        if cid is None:
            return f"commit {self.game.cell_text(args[3])} to {self.slots.names[slot]}"
        piece = self._piece(self.game, cid, args[2]) if len(args) > 2 and args[2] is not None else self.game.piece_names[cid]
        at = f" at {self.game.cell_text(args[3])}" if len(args) == 4 else ""
        return f"commit {piece} to {self.slots.names[slot]}{at}"

    def public_format(self, args: tuple[Any, ...]) -> str:
        return f"commit {self._sealed_words(args)} to {self.slots.names[args[1]]}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        slot = self._next_slot(s)
        if slot is None:
            return None
        legal = s.legal_actions()
        if self.numbers is not None:
            if not legal:
                return f"'{text}' is not legal: no number may be committed now"
            numbers = " ".join(map(str, self.number_options(s)))
            return f"'{text}' is not legal: commit one of the numbers {numbers} to {self.slots.names[slot]} (e.g. '{legal[0]}')"
        if self.cells is not None:
            if not legal:
                return f"'{text}' is not legal: no cell may be committed now"
            cells = " ".join(s.game.cell_text(c) for c in self.cell_options(s))
            what = f"one of {', '.join(self._offered_names(s))} " if self.components else ""
            return f"'{text}' is not legal: commit {what}to {self.slots.names[slot]} at one of the cells {cells} (e.g. '{legal[0]}')"
        cards = ", ".join(self._offered_names(s))
        return f"'{text}' is not legal: commit one of {cards} to {self.slots.names[slot]} (e.g. 'commit {cards.split(', ')[0]} to {self.slots.names[slot]}')"

    def describe(self) -> str:
        if self.numbers is not None:
            return f"the player commits one of {self.numbers_text} face down to each slot in turn ({', '.join(self.slots.names)})"
        if not self.components:
            return f"the player commits one of {self.cells_text} face down to each slot in turn ({', '.join(self.slots.names)})"
        face = ", choosing the face it will show," if self.choose_face else ""
        cell = f" with one of {self.cells_text}" if self.cells is not None else ""
        return (f"the player commits a component from the {self.source.name} face down{face}{cell} to each slot in turn "
                f"({', '.join(self.slots.names)}), into the {self.target.name}")


@step_kind
class Reveal(Step):
    """``reveal: {from: sealed, to: played}`` — once everyone has committed, turn every row face up together.

    Every sealed cell (``commit: {cells: ...}``) is revealed too; ``reveal: {}`` reveals cells alone.
    """

    kind = "reveal"
    keys = ("if", "from", "to")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.slots = _slot_row(b, pos)
        self.source = str(spec.get("from", ""))
        self.target = str(spec.get("to", ""))
        self.components = "from" in spec or "to" in spec
        if self.components and not ("from" in spec and "to" in spec):
            b.error(pos, "step 'reveal' needs both 'from' and 'to' (or neither, to reveal committed cells alone)")
        elif self.components:
            b.zone_ref(spec, "from")
            b.zone_ref(spec, "to")
            _check_laid_out(b, spec, "from", self.slots)
            _check_laid_out(b, spec, "to", self.slots)

    def enter(self, s: "StateView") -> bool:
        if s.turn != closing_turn(s):  # not everyone has committed yet
            return False
        rows: dict[str, list[int]] = {}
        if self.components:
            index = self.game.zone_index
            for role in s.order:
                sealed, shown = index[(self.source, role)], index[(self.target, role)]
                cards = list(s.zones[sealed])
                for cid in cards:
                    s.move(cid, shown)
                rows[role] = cards
            s.slices[Revealed.block] = Revealed(len(s.zones[shown]) // len(self.slots.names))
        cells = self._reveal_cells(s, rows)
        numbers = sealed_numbers.reveal(s)
        if s.log is not None:
            slot_names = self.slots.names
            for role, cards in rows.items():
                if not cards:  # nothing committed (it left the turn order, or had nothing left to commit)
                    continue
                s.log.append(f"{role} reveals " + ", ".join(f"{self.game.describe_piece(c, s.face[c])} at {slot_names[i]}" for i, c in enumerate(cards)))
            for role, slot, x, y, _ in cells:
                s.log.append(f"{role} reveals the cell {s.game.cell_text((x, y))} for {slot_names[slot]}")
            for role, slot, n in numbers:
                s.log.append(f"{role} reveals the number {n} for {slot_names[slot]}")
        return False

    @staticmethod
    def _reveal_cells(s: "StateView", rows: dict[str, list[int]]) -> tuple[tuple[str, int, int, int, int], ...]:
        """Turn every sealed cell up, with the component committed beside it (-1 for none); the cells revealed."""
        aims = s.slices.get(Aims.block)
        if aims is None:
            return ()
        shown = tuple((role, slot, x, y, rows[role][slot] if slot < len(rows.get(role, ())) else -1)
                      for _, role, slot, x, y in aims.sealed or ())
        s.slices[Aims.block] = Aims(shown=shown)
        return shown

    def describe(self) -> str:
        if not self.components:
            return "when every player has committed, every sealed cell and number is revealed together"
        return (f"when every player has committed, every {self.source} row is revealed together "
                f"and added as a new row of the {self.target}")


# ---------------------------------------------------------------- effect-language functions


@dataclass(frozen=True)
class SlotFunction(Function):
    """A function of one component read through the slotted zone it lies in (``reads`` says which).

    Generated code calls one function per use, the row's sizes bound in it as the code compiles:

    >>> from types import SimpleNamespace
    >>> three = SlotRow(("left", "middle", "right"), ((1,), (0, 2), (1,)), frozenset({7}))
    >>> s = SimpleNamespace(zone_of={10: 7, 11: 7, 12: 7, 13: 7, 14: 7}, zones={7: [10, 11, 12, 13, 14]})
    >>> [f.fetcher(three)(s, 14) for f in ADDED_FUNCTIONS if isinstance(f, SlotFunction) and f.reads != "facing"]
    [2, 2, [13], None, 11]
    """

    words: str = "{}"
    gives: str = "int"  # "int", "component" (the argument's type) or "list" (a list of them)
    reads: str = "slot"  # "slot" (1 = first), "row", "neighbours", "step" (``rows`` rows on) or "facing"
    rows: int = 1

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        arg = self.value(scope, args[0], ANY_COMPONENT, "component")
        item = arg.type if isinstance(arg.type, Component) else ANY_COMPONENT
        result = {"int": INT, "component": item, "list": ListOf(item)}[self.gives]
        slots: SlotRow | None = scope.vocab.data.get(SLOTS)  # the ruleset's row (none: nothing is ever in a slot)
        fetch, f, local = self.fetcher(slots or NO_SLOTS), arg.fn, arg.slot
        (text, consts), name = codegen.expr(arg), codegen.fresh("k")
        code = codegen.Code(f"{name}(s, {text})", None, consts + ((name, fetch),))
        if local is not None:  # a local variable (say self) is read, not called
            return Compiled(result, lambda s, e: fetch(s, e[local]), code=code)
        return Compiled(result, lambda s, e: fetch(s, f(s, e)), code=code)

    def fetcher(self, slots: SlotRow) -> Callable[[Any, int | None], Any]:
        """``(state, component) -> value``: the function for a component (none, or one in no slotted zone: 0, none
        or an empty list), the row's sizes read once and the branch for what it reads taken here, not at each call
        (modifiers read the slots at every fight)."""
        zones, n, reads = slots.zones, len(slots.names), self.reads
        empty = {"int": 0, "component": None, "list": []}[self.gives]
        if reads == "step":
            step = self.rows * n

            def stepped(s: Any, c: int | None) -> Any:
                if c is None:
                    return empty
                zone = s.zone_of[c]  # SlotRow.where, inlined
                if zone not in zones:
                    return empty
                items = s.zones[zone]
                j = items.index(c) + step
                return items[j] if 0 <= j < len(items) else None

            return stepped
        if reads == "neighbours":
            offsets = tuple(tuple(j - i for j in near) for i, near in enumerate(slots.neighbours))  # from the slot itself

            def neighbours(s: Any, c: int | None) -> Any:
                if c is None:
                    return empty
                zone = s.zone_of[c]
                if zone not in zones:
                    return empty
                items = s.zones[zone]
                index = items.index(c)
                size, found = len(items), []
                for d in offsets[index % n]:  # a loop: a comprehension is one more call
                    if index + d < size:
                        found.append(items[index + d])
                return found

            return neighbours
        row = reads != "slot"

        def place(s: Any, c: int | None) -> Any:
            if c is None:
                return empty
            zone = s.zone_of[c]
            if zone not in zones:
                return empty
            index = s.zones[zone].index(c)
            return index // n + 1 if row else index % n + 1

        return place

    def describe(self, call: ast.Call) -> str:
        return self.words.format(call.args[0].describe() if call.args else "?")


class SlotFacing(SlotFunction):
    """Reads the state: the other players' instances of the zone, at the same slot and row."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        arg = self.value(scope, args[0], ANY_COMPONENT, "component") if args else Compiled(ANY_COMPONENT, lambda s, e: None)
        item = arg.type if isinstance(arg.type, Component) else ANY_COMPONENT
        f = arg.fn

        def facing(s: Any, e: list[Any]) -> list[int]:
            c = f(s, e)
            slots = s.game.parts.get("slots")
            if c is None or slots is None or s.zone_of[c] not in slots.zones:
                return []
            g, zone = s.game, s.zone_of[c]
            index = s.zones[zone].index(c)
            name = g.zone_spec_of[zone].name
            return [s.zones[z][index] for (n, _), z in g.zone_index.items()
                    if n == name and z != zone and index < len(s.zones[z])]

        return Compiled(ListOf(item), facing)


class CommittedCell(Function):
    """``committed_cell(r)`` / ``committed_cell(r, slot)`` / ``committed_cell(c)``: a revealed committed cell."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1, 2)
        if not args:
            return Compiled(CELL, lambda s, e: None)
        first = args[0].compile(scope)
        role_type = scope.vocab.data.get("role_type")
        by_role = isinstance(first.type, Enum) and first.type == role_type
        if not by_role and not ANY_COMPONENT.accepts(first.type):
            scope.error(args[0].pos, f"committed_cell() takes a role or a component, not {first.type}", f"usage: {self.signature}")
        slot = self.value(scope, args[1], INT, "slot") if len(args) == 2 else Compiled(INT, lambda s, e: 1)
        if len(args) == 2 and not by_role:
            scope.error(args[1].pos, "committed_cell() takes a slot only with a role: a component's slot is its own")
        f, g = first.fn, slot.fn

        def of_role(s: Any, e: list[Any]) -> Any:
            at = g(s, e)  # (none when it comes from a number not revealed: committed_number(r))
            return None if at is None else committed(s, f(s, e), at - 1)

        def of_component(s: Any, e: list[Any]) -> Any:
            c, aims = f(s, e), s.slices.get(Aims.block)
            return next(((x, y) for _, _, x, y, cid in aims.shown or () if cid == c), None) if aims and c is not None else None

        return Compiled(CELL, of_role if by_role else of_component)

    def describe(self, call: ast.Call) -> str:
        what = call.args[0].describe() if call.args else "?"
        slot = f" for slot {call.args[1].describe()}" if len(call.args) == 2 else ""
        return f"the cell committed by {what}{slot}"


ADDED_FUNCTIONS = (
    SlotFunction("slot_of", "slot_of(COMPONENT) -> int", "The slot (1 = first) a component lies in, 0 if it is not in a slotted zone.",
                 "slot_of(c) == 2", words="the slot of {}", reads="slot"),
    SlotFunction("row_of", "row_of(COMPONENT) -> int", "The row of its slotted zone (usually the round it was played in, 1 = first) a component lies in, 0 if none.",
                 "row_of(self) == 3", words="the row of {}", reads="row"),
    SlotFunction("slot_neighbours", "slot_neighbours(COMPONENT) -> list", "The components in the slots touching a component's slot, in the same row of the same zone.",
                 "count(slot_neighbours(self)) == 1", words="the components beside {}", gives="list", reads="neighbours"),
    SlotFacing("slot_facing", "slot_facing(COMPONENT) -> list", "The components facing a component: at the same slot and row of the other players' instances of its zone.",
               "sum(o.value for o in slot_facing(self))", words="the components facing {}", gives="list", reads="facing"),
    SlotFunction("slot_next", "slot_next(COMPONENT) -> component", "The component in the same slot of the next row of the same zone, or none.",
                 "t == slot_next(self)", words="the next component in the slot of {}", gives="component", reads="step", rows=1),
    SlotFunction("slot_previous", "slot_previous(COMPONENT) -> component", "The component in the same slot of the previous row of the same zone, or none.",
                 "slot_previous(c).id == \"1+\"", words="the previous component in the slot of {}", gives="component", reads="step", rows=-1),
    sealed_numbers.COMMITTED_NUMBER,
    CommittedCell("committed_cell", "committed_cell(ROLE [, SLOT]) or committed_cell(COMPONENT) -> cell",
                  ("The cell a role sealed (at a slot, 1 = first) with `commit: {cells: ...}`, or the one sealed with a "
                   "component, once revealed and until the next reveal; none if none."),
                  "place(first(played(r)), committed_cell(r))"),
)


BLOCK = declare(Block(
    "slots",
    slices=(Revealed, Aims, sealed_numbers.Bids),
    keys={
        "slots": {
            "description": ("A row of named slots each player fills (e.g. one card in front of each of three "
                            "prizes), and the per-role zones laid out in rows of them: a zone's first N components "
                            "are row 1, the next N row 2 (a row per round). Read in the effect language with "
                            "`slot_of`, `row_of`, `slot_neighbours`, `slot_next`, `slot_previous`; used by "
                            "`commit`, `reveal` and `contest` steps."),
            "$ref": "#/$defs/slots",
        },
    },
    steps={
        "commit": {
            "description": ("The player fills their row of slots, one decision per slot, face down into a hidden "
                            "per-role zone."),
            "$ref": "#/$defs/commitStep",
        },
        "reveal": {
            "description": "Once every player has committed, every committed row is turned face up together.",
            "$ref": "#/$defs/revealStep",
        },
    },
    defs={
        "slots": {
            "description": "`slots: {names: [left, middle, right], adjacency: line, zones: [sealed, played]}`.",
            "type": "object",
            "properties": {
                "names": {
                    "description": "The slots of a row, in order (or the name of an option holding the list).",
                    "$ref": "#/$defs/names",
                    "examples": [["left", "middle", "right"]],
                },
                "adjacency": {
                    "description": "Which slots touch: `line` (the slots beside it), `none`, `all`.",
                    "enum": ["line", "none", "all"],
                    "default": "line",
                },
                "zones": {
                    "description": ("The per-role zones laid out in rows of these slots (none when only cells are "
                                    "committed)."),
                    "type": "array",
                    "minItems": 1,
                    "items": {"$ref": "#/$defs/zoneName"},
                },
            },
            "required": ["names"],
            "additionalProperties": False,
        },
        "commitStep": {
            "description": ("`commit: {from: hand, to: sealed}`: one decision per slot (`commit 3 to left`); `to` "
                            "should be a per-role zone with `hidden: others`. `cells: empty_cells` seals a cell "
                            "with each (`commit: {cells: empty_cells}`: a cell alone); `numbers: numbers(0, 10)` "
                            "seals a number alone (a sealed bid)."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {
                    "description": "The zone the components come from (a per-role zone means the current role's).",
                    "$ref": "#/$defs/zoneName",
                },
                "to": {
                    "description": ("The per-role zone laid out in slots where committed components wait, hidden "
                                    "from the others."),
                    "$ref": "#/$defs/zoneName",
                },
                "face": {
                    "description": ("`as-is` (default): a component keeps the face it shows; `choose`: the player "
                                    "also chooses the face it will show, sealed with it (`commit A/B as B to left`)."),
                    "enum": ["as-is", "choose"],
                },
                "cells": {
                    "description": ("The cells of the board a decision may seal with the component (`commit A to "
                                    "left at 1,0`), e.g. `empty_cells`; without `from` and `to`, a cell alone "
                                    "(`commit 1,0 to left`). Read after the reveal with `committed_cell(r)`."),
                    "$ref": "#/$defs/expression",
                },
                "numbers": {
                    "description": ("A number sealed alone (a sealed bid): the numbers a decision may seal, e.g. "
                                    "`numbers(0, coins(current_role))` (`commit 3 to bid`; the others read `commit a "
                                    "number to bid`). Without `from`, `to`, `face` or `cells`. Read after the reveal "
                                    "with `committed_number(r)`."),
                    "$ref": "#/$defs/expression",
                    "examples": ["numbers(0, 10)"],
                },
            },
            "additionalProperties": False,
        },
        "revealStep": {
            "description": ("`reveal: {from: sealed, to: played}`: on the turn of the last player of the round, "
                            "every player's committed row moves, in slot order, to the end of their `to` zone, and "
                            "every sealed cell and number is revealed (`reveal: {}`: cells or numbers alone)."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {"description": "The per-role zone holding the committed row.", "$ref": "#/$defs/zoneName"},
                "to": {
                    "description": "The per-role zone (laid out in slots, usually public) that gets the row.",
                    "$ref": "#/$defs/zoneName",
                },
            },
            "additionalProperties": False,
        },
    },
    functions=ADDED_FUNCTIONS,
    declare=declare_slots,
    attach=attach_slots,
    check=check_turn_changes,
    rank=40,
))
