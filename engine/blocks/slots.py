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
  Sequential hidden commits play like a simultaneous one.
* ``reveal: {from: sealed, to: played}`` — on the turn of the last role of
  the round (everyone has committed), every seated role's committed row moves
  in slot order to the end of its (public) ``to`` zone, as one new row.

>>> SlotRow(("a", "b", "c"), ((1,), (0, 2), (1,)), frozenset()).describe()
'3 slots (a, b, c), each touching the slots beside it'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.core.actions import ActionSpace, ListSpace
from engine.blocks.block import Block, declare
from engine.blocks.steps import Step, step_kind
from engine.blocks.enumeration import Texts, distinct, names
from engine.core.errors import SourcePos, did_you_mean
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY_COMPONENT, INT, Component, ListOf

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


class Revealed(NamedTuple):
    """The slots block's slice of the state: the row just revealed, until a contest fights over it."""

    row: int | None = None
    block = "slots"
    saved = ("revealed",)


ADJACENCIES = ("line", "none", "all")


@dataclass(frozen=True)
class SlotRow:
    """The slots of one player's row: names, which slots touch, which zones are laid out in rows of them."""

    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]  # per slot (0-based), the slots that touch it
    zones: frozenset[int]  # zone instances laid out in rows of slots

    def describe(self) -> str:
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
    if not isinstance(listed, list) or not listed:
        b.error(b.pos(spec, "zones"), "'zones' must list the zones laid out in rows of these slots")
    return SlotRow(tuple(str(x) for x in names), neighbours, frozenset(zones))


def declare_slots(b: "BuildContext") -> None:
    """Read the ``slots`` section into ``game.parts["slots"]`` (None when the ruleset has none), before steps ask for it."""
    b.game.parts["slots"] = read_slots(b, b.tree.get("slots"), b.pos(b.tree, "slots"))


def _slot_row(b: "BuildContext", pos: SourcePos) -> SlotRow:
    """The ruleset's slots, for a step that needs them (reported when missing)."""
    if b.game.parts.get("slots") is None:
        b.error(pos, "this step needs a 'slots' section (the row of slots each player fills)")
        return SlotRow(("slot",), ((),), frozenset())
    return b.game.parts.get("slots")


def _check_laid_out(b: "BuildContext", spec: "Mapping", key: str, slots: SlotRow) -> None:
    name = str(spec.get(key, ""))
    if name in b.game.zone_specs:
        if not b.game.zone_specs[name].per_role:
            b.error(b.pos(spec, key), f"'{key}' must be a per-role zone ('per: role'): each player has a row")
        elif not any(z in slots.zones for (zone, _), z in b.game.zone_index.items() if zone == name):
            b.error(b.pos(spec, key), f"zone '{name}' is not laid out in slots; list it under 'slots: zones'")


# ---------------------------------------------------------------- steps


@step_kind
class Commit(Step):
    """``commit: {from: hand, to: sealed}`` — fill the row of slots, one decision per slot."""

    kind = "commit"
    sealed = True  # the others see only that a slot was filled
    keys = ("if", "from", "to", "face")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.game = b.game
        self.slots = _slot_row(b, pos)
        self.choose_face = b.choice(spec, "face", ("as-is", "choose"), "as-is") == "choose"
        self.source = b.zone_ref(spec, "from")
        self.target = b.zone_ref(spec, "to")
        _check_laid_out(b, spec, "to", self.slots)

    def _next_slot(self, s: "StateView") -> int | None:
        """The slot to fill now, or None when the row is full or nothing is left to commit."""
        filled = len(s.zones[self.target(s)])
        if filled >= len(self.slots.names) or not s.zones[self.source(s)]:
            return None
        return filled

    def enter(self, s: "StateView") -> bool:
        return self._next_slot(s) is not None

    def actions(self, s: "StateView") -> ActionSpace:
        slot = self._next_slot(s)
        if slot is None:
            return ListSpace(self, [])
        if self.choose_face:
            faces = self.game.distinct_faces
            return ListSpace(self, [(cid, slot, face) for cid in s.zones[self.source(s)] for face in faces[cid]])
        return ListSpace(self, [(cid, slot) for cid in s.zones[self.source(s)]])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        cid, slot = args[0], args[1]
        s.move(cid, self.target(s))
        if len(args) == 3:
            s.face[cid] = args[2]
        s.note(lambda: f"{s.actor} commits a card face down to {self.slots.names[slot]}")
        return self._next_slot(s) is None

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return (args[0],)

    def action_texts(self, game: "GameView") -> Texts:
        """``commit NAME to SLOT`` (or ``commit NAME as FACE to SLOT``) for every component, face and slot."""
        if self.choose_face:
            pieces = distinct(self._piece(game, cid, face) for cid in range(len(game.component_names)) for face in game.distinct_faces[cid])
            return Texts(tuple(f"commit {piece} to {slot}" for piece in pieces for slot in self.slots.names))
        return Texts(tuple(f"commit {name} to {slot}" for name in names(game) for slot in self.slots.names))

    @staticmethod
    def _piece(game: "GameView", cid: int, face: int) -> str:
        """``A/B as B``, or the name alone for a component with one face."""
        return game.piece_names[cid] if game.face_count[cid] == 1 else f"{game.piece_names[cid]} as {game.face_labels[cid][face]}"

    def format(self, args: tuple[Any, ...]) -> str:
        cid, slot = args[0], args[1]
        piece = self._piece(self.game, cid, args[2]) if len(args) == 3 else self.game.piece_names[cid]
        return f"commit {piece} to {self.slots.names[slot]}"

    def public_format(self, args: tuple[Any, ...]) -> str:
        return f"commit a card to {self.slots.names[args[1]]}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        slot = self._next_slot(s)
        if slot is None:
            return None
        cards = ", ".join(self.game.piece_names[c] for c in s.zones[self.source(s)])
        return f"'{text}' is not legal: commit one of {cards} to {self.slots.names[slot]} (e.g. 'commit {cards.split(', ')[0]} to {self.slots.names[slot]}')"

    def describe(self) -> str:
        face = ", choosing the face it will show," if self.choose_face else ""
        return (f"the player commits a component from the {self.source.name} face down{face} to each slot in turn "
                f"({', '.join(self.slots.names)}), into the {self.target.name}")


@step_kind
class Reveal(Step):
    """``reveal: {from: sealed, to: played}`` — once everyone has committed, turn every row face up together."""

    kind = "reveal"
    keys = ("if", "from", "to")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.game = b.game
        self.slots = _slot_row(b, pos)
        self.source = str(spec.get("from", ""))
        self.target = str(spec.get("to", ""))
        b.zone_ref(spec, "from")
        b.zone_ref(spec, "to")
        _check_laid_out(b, spec, "from", self.slots)
        _check_laid_out(b, spec, "to", self.slots)

    def enter(self, s: "StateView") -> bool:
        if s.turn != len(s.order) - 1:  # not everyone has committed yet
            return False
        index = self.game.zone_index
        rows = []
        for role in s.order:
            sealed, shown = index[(self.source, role)], index[(self.target, role)]
            cards = list(s.zones[sealed])
            for cid in cards:
                s.move(cid, shown)
            rows.append((role, cards))
        s.slices[Revealed.block] = Revealed(len(s.zones[shown]) // len(self.slots.names))
        if s.log is not None:
            slot_names = self.slots.names
            for role, cards in rows:
                s.log.append(f"{role} reveals " + ", ".join(f"{self.game.describe_piece(c, s.face[c])} at {slot_names[i]}" for i, c in enumerate(cards)))
        return False

    def describe(self) -> str:
        return (f"when every player has committed, every {self.source} row is revealed together "
                f"and added as a new row of the {self.target}")


# ---------------------------------------------------------------- effect-language functions


@dataclass(frozen=True)
class SlotFunction(Function):
    """A function of one component read through the slotted zone it lies in (``read`` computes it)."""

    words: str = "{}"
    gives: str = "int"  # "int", "component" (the argument's type) or "list" (a list of them)

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        arg = self.value(scope, args[0], ANY_COMPONENT, "component")
        item = arg.type if isinstance(arg.type, Component) else ANY_COMPONENT
        result = {"int": INT, "component": item, "list": ListOf(item)}[self.gives]
        f, read, empty = arg.fn, self.read, self._empty()

        def run(s: Any, e: list[Any]) -> Any:
            c = f(s, e)
            slots = s.game.parts.get("slots")
            if c is None or slots is None:
                return empty
            found = slots.where(s, c)
            return empty if found is None else read(slots, found[0], found[1])

        return Compiled(result, run)

    def _empty(self) -> Any:
        return {"int": 0, "component": None, "list": []}[self.gives]

    def read(self, slots: SlotRow, items: list[int], index: int) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self, call: ast.Call) -> str:
        return self.words.format(call.args[0].describe() if call.args else "?")


class SlotOf(SlotFunction):
    def read(self, slots: SlotRow, items: list[int], index: int) -> int:
        return index % len(slots.names) + 1


class RowOf(SlotFunction):
    def read(self, slots: SlotRow, items: list[int], index: int) -> int:
        return index // len(slots.names) + 1


class SlotNeighbours(SlotFunction):
    def read(self, slots: SlotRow, items: list[int], index: int) -> list[int]:
        n = len(slots.names)
        start = index - index % n
        return [items[start + j] for j in slots.neighbours[index % n] if start + j < len(items)]


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


@dataclass(frozen=True)
class SlotStep(SlotFunction):
    """The component ``rows`` rows later (negative: earlier) in the same slot, or none."""

    rows: int = 1

    def read(self, slots: SlotRow, items: list[int], index: int) -> int | None:
        j = index + self.rows * len(slots.names)
        return items[j] if 0 <= j < len(items) else None


ADDED_FUNCTIONS = (
    SlotOf("slot_of", "slot_of(COMPONENT) -> int", "The slot (1 = first) a component lies in, 0 if it is not in a slotted zone.",
           "slot_of(c) == 2", words="the slot of {}"),
    RowOf("row_of", "row_of(COMPONENT) -> int", "The row of its slotted zone (usually the round it was played in, 1 = first) a component lies in, 0 if none.",
          "row_of(self) == 3", words="the row of {}"),
    SlotNeighbours("slot_neighbours", "slot_neighbours(COMPONENT) -> list", "The components in the slots touching a component's slot, in the same row of the same zone.",
                   "count(slot_neighbours(self)) == 1", words="the components beside {}", gives="list"),
    SlotFacing("slot_facing", "slot_facing(COMPONENT) -> list", "The components facing a component: at the same slot and row of the other players' instances of its zone.",
               "sum(o.value for o in slot_facing(self))", words="the components facing {}", gives="list"),
    SlotStep("slot_next", "slot_next(COMPONENT) -> component", "The component in the same slot of the next row of the same zone, or none.",
             "t == slot_next(self)", words="the next component in the slot of {}", gives="component", rows=1),
    SlotStep("slot_previous", "slot_previous(COMPONENT) -> component", "The component in the same slot of the previous row of the same zone, or none.",
             "slot_previous(c).id == \"1+\"", words="the previous component in the slot of {}", gives="component", rows=-1),
)


BLOCK = declare(Block(
    "slots",
    slices=(Revealed,),
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
                    "description": "The per-role zones laid out in rows of these slots.",
                    "type": "array",
                    "minItems": 1,
                    "items": {"$ref": "#/$defs/zoneName"},
                },
            },
            "required": ["names", "zones"],
            "additionalProperties": False,
        },
        "commitStep": {
            "description": ("`commit: {from: hand, to: sealed}`: one decision per slot (`commit 3 to left`); `to` "
                            "should be a per-role zone with `hidden: others`."),
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
            },
            "required": ["from", "to"],
            "additionalProperties": False,
        },
        "revealStep": {
            "description": ("`reveal: {from: sealed, to: played}`: on the turn of the last player of the round, "
                            "every player's committed row moves, in slot order, to the end of their `to` zone."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {"description": "The per-role zone holding the committed row.", "$ref": "#/$defs/zoneName"},
                "to": {
                    "description": "The per-role zone (laid out in slots, usually public) that gets the row.",
                    "$ref": "#/$defs/zoneName",
                },
            },
            "required": ["from", "to"],
            "additionalProperties": False,
        },
    },
    functions=ADDED_FUNCTIONS,
    declare=declare_slots,
    rank=40,
))
