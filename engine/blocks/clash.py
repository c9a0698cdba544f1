"""Pairwise clash tables and the ``clash`` step.

A clash table says, for the value a piece shows (row) against the value of the
piece it clashes with (column), which of the two flip to their next face:
``nothing``, ``placed`` (the row piece), ``neighbour`` (the column piece) or
``both``.  Pairs not listed take the table's ``missing`` outcome; without
``missing`` every pair must be listed (validation checks it).

The ``clash`` step clashes the piece just placed with each of its neighbours,
one at a time — every piece placed since the step last ran, in the order they
were placed, whether a ``place`` step or an effect's ``place()`` put it there
(two of them side by side clash once).  With ``order: player`` the player chooses which clash comes
next (a decision); a flipped placed piece uses its new face for the rest.
With ``chain: true`` a flipped neighbour then clashes with its own neighbours
(each pair of pieces at most once per turn, whichever started it).

>>> t = ClashTable("t", {("A", "B"): (False, True)}, (False, False))
>>> t.describe()
['A against B: the neighbour flips', 'any other pair: nothing happens']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import re

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import Texts, neighbour_pairs
from engine.blocks.placement import Placed, Queued, make_slice
from engine.blocks.steps import Step, step_kind
from engine.core.actions import Action, ActionSpace, ListSpace
from engine.core.errors import SourcePos, did_you_mean
from engine.core.slices import to_json

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


class Clashes(NamedTuple):
    """The clash block's slice of the state."""

    pending: tuple[tuple[Any, Any], ...] | None = None  # the (cell, neighbour) pairs still to clash
    done: tuple[tuple[Any, Any], ...] | None = None  # the pairs clashed since the piece was placed (with chain: true)
    block = "clash"
    saved = ("pending", "done")

    def observe(self, s: "StateView", seat: int) -> dict[str, Any]:
        """The pairs still to clash, open to every seat: ``{"pending": [[cell, neighbour], ...]}``."""
        return {"pending": to_json(self).get("pending", [])}


NO_CLASHES = Clashes()

OUTCOMES: dict[str, tuple[bool, bool]] = {
    "nothing": (False, False),
    "placed": (True, False),
    "neighbour": (False, True),
    "both": (True, True),
}


@dataclass(frozen=True)
class ClashTable:
    """Who flips, for each (row value, column value) pair."""

    name: str
    outcomes: dict[tuple[str, str], tuple[bool, bool]]
    missing: tuple[bool, bool] | None

    def describe(self) -> list[str]:
        """One English line per listed pair, for ``explain``."""
        lines = [f"{row} against {column}: {_WORDS[flips]}" for (row, column), flips in self.outcomes.items()]
        if self.missing is not None:
            lines.append(f"any other pair: {_WORDS[self.missing]}")
        return lines


_WORDS = {
    (False, False): "nothing happens",
    (True, False): "the placed piece flips",
    (False, True): "the neighbour flips",
    (True, True): "both flip",
}


def _seen(pair: tuple[Any, Any], pairs: tuple[tuple[Any, Any], ...]) -> bool:
    """Whether the pair, in either direction, is among ``pairs``."""
    return pair in pairs or (pair[1], pair[0]) in pairs


@step_kind
class Clash(Step):
    """The ``clash`` step: the piece just placed meets the pieces around it (or ``with`` others) by a clash table of
    its ``attribute``'s values (row: the placed piece's value, column: the other's), and what the table says happens.

    Built from, e.g., ``- clash: {table: beats, attribute: symbol, with: neighbours, order: fixed}``.
    """
    kind = "clash"
    keys = ("if", "table", "attribute", "with", "order", "chain")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.table: ClashTable = clash_table(b, spec, "table")
        self.values = b.face_attribute(spec, "attribute")
        b.choice(spec, "with", ("neighbours",), "neighbours")
        self.player_orders = b.choice(spec, "order", ("player", "fixed"), "player") == "player"
        self.chain = b.bool_setting(spec, "chain", False)
        # a board with walls: the neighbours of the board the state plays on, with the walls standing now
        self.neighbours = None if getattr(b.game.grid, "walled", False) else b.game.grid.neighbours if b.game.grid \
            else (lambda cell: ())
        self.lookup = self.table.outcomes.get
        self.missing = self.table.missing or (False, False)
        b.game.queues_placements = True

    # -- flow

    def enter(self, s: "StateView") -> bool:
        slices = s.slices
        slices.pop(Placed.block, None)  # consumed: a later pass must not clash it again
        queued = slices.pop(Queued.block, None)
        if queued is None or not queued.cids or queued.turn != s.turn_number:
            return False
        pending = self._pairs(s, queued.cids)
        if not pending:
            return False
        return self._settle(s, pending, () if self.chain else slices.get(Clashes.block, NO_CLASHES).done)

    def _pairs(self, s: "StateView", cids: tuple[int, ...]) -> tuple[tuple[Any, Any], ...]:
        """The (cell, neighbour) pairs the pieces ``cids`` clash in, in order: two pieces side by side clash once."""
        grid, cell_of, neighbours = s.grid, s.cell_of, self.neighbours or s.game.grid.neighbours
        if len(cids) == 1:
            cell = cell_of[cids[0]]
            if cell is None or grid.get(cell) != cids[0]:  # taken off the board, or covered, since
                return ()
            return tuple([(cell, n) for n in neighbours(cell) if n in grid])
        pending: list[tuple[Any, Any]] = []
        pairs: set[tuple[Any, Any]] = set()
        for cid in cids:
            cell = cell_of[cid]
            if cell is None or grid.get(cell) != cid:
                continue
            for n in neighbours(cell):
                if n in grid and (n, cell) not in pairs:
                    pairs.add((cell, n))
                    pending.append((cell, n))
        return tuple(pending)

    def actions(self, s: "StateView") -> ActionSpace:
        return ListSpace(self, s.slices[Clashes.block].pending)

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        work = s.slices[Clashes.block]
        pending = list(work.pending)
        pending.remove(args)
        return not self._settle(s, tuple(pending), work.done, args)

    def _settle(self, s: "StateView", pending: tuple[tuple[Any, Any], ...], done: Any,
                chosen: tuple[Any, Any] | None = None) -> bool:
        """Resolve the ``chosen`` clash, then those that need no choice; True while the player must choose.

        The pairs left (and, with ``chain``, those done) are kept in the state's clash slice.
        """
        choose, chain = self.player_orders, self.chain
        while chosen is not None or (pending and not (choose and len(pending) > 1)):
            if chosen is None:
                chosen, pending = pending[0], pending[1:]
            flipped = self._resolve(s, *chosen)
            if chain:
                done, pending = self._chained(s, chosen, flipped, done, pending)
            chosen = None
        s.slices[Clashes.block] = make_slice(Clashes, (pending, done))
        return bool(pending)

    def _resolve(self, s: "StateView", cell_a: tuple[int, int], cell_b: tuple[int, int]) -> bool:
        """Clash the pieces on two cells, flipping as the table says; whether the second one flipped."""
        a, b = s.grid[cell_a], s.grid[cell_b]
        values, face = self.values, s.face
        va, vb = values[face[a]][a], values[face[b]][b]
        flip_a, flip_b = self.lookup((va, vb), self.missing)
        log = s.log
        if flip_a:
            s.flip(a)
            if log is not None:
                log.append(self._flip_text(s, a, va, vb, b))
        if flip_b:
            s.flip(b)
            if log is not None:
                log.append(self._flip_text(s, b, vb, va, a))
        if log is not None and not flip_a and not flip_b:
            log.append(f"{va} at {s.game.cell_text(cell_a, brackets=True)} against {vb} at {s.game.cell_text(cell_b, brackets=True)}: nothing flips")
        return flip_b

    def _chained(self, s: "StateView", pair: tuple[Any, Any], flipped: bool, done: tuple[tuple[Any, Any], ...],
                 pending: tuple[tuple[Any, Any], ...]) -> tuple[tuple[tuple[Any, Any], ...], tuple[tuple[Any, Any], ...]]:
        """With ``chain``: ``pair`` joins the pairs done and, when its neighbour flipped, that neighbour's own clashes
        not yet done nor pending join the pending ones; returns both."""
        done += (pair,)
        if flipped:
            grid, cell = s.grid, pair[1]
            pending += tuple(
                (cell, n)
                for n in s.game.grid.neighbours(cell)
                if n in grid and not _seen((cell, n), done) and not _seen((cell, n), pending)
            )
        return done, pending

    def _flip_text(self, s: "StateView", cid: int, was: str, other: str, other_cid: int) -> str:
        g = self.game  # pieces by the name actions give them (identical copies share one), told apart by their cells
        now = self.values[s.face[cid]][cid]
        if now == was:
            return (
                f"{g.piece_names[cid]} at {s.game.cell_text(s.cell_of[cid], brackets=True)} turned over, still {now}: "
                f"clash with {other} at {s.game.cell_text(s.cell_of[other_cid], brackets=True)}"
            )
        return (
            f"{g.piece_names[cid]} at {s.game.cell_text(s.cell_of[cid], brackets=True)} flipped from {was} to {now}: "
            f"clash with {other} at {s.game.cell_text(s.cell_of[other_cid], brackets=True)}"
        )

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``clash X,Y with X,Y`` for every cell of the board and each of its neighbours."""
        return Texts(tuple(self.format(pair) for pair in neighbour_pairs(game)))

    def format(self, args: tuple[Any, ...]) -> str:
        a, b = args
        return f"clash {self.game.cell_text(a)} with {self.game.cell_text(b)}"

    def parse(self, s: "StateView", text: str) -> Action:
        """Also accepts the short form ``clash X,Y`` naming only the other piece's cell."""
        m = re.fullmatch(r"\s*clash\s+(.+?)\s*", text)
        cell = s.game.read_cell(m.group(1)) if m else None
        if cell is not None:
            matches = [a for a in s.legal_actions() if a.args[1] == cell]
            if len(matches) == 1:
                return matches[0]
        return super().parse(s, text)

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        targets = ", ".join(s.game.cell_text(b) for _, b in s.slices[Clashes.block].pending)
        return f"'{text}' is not a pending clash; choose the next clash among: {targets} (e.g. 'clash {targets.split(', ')[0]}')"

    def describe(self) -> str:
        order = "in the order the player chooses" if self.player_orders else "in a fixed order"
        chain = "; a flipped neighbour clashes in turn with its own neighbours" if self.chain else "; flipped neighbours start no new clashes"
        return f"each piece placed since the last clash clashes with each orthogonal neighbour ({self.table.name}), one at a time, {order}{chain}"


def read_clash_tables(b: "BuildContext") -> None:
    """``clash_tables``: who flips for each pair of values, kept in ``game.parts["clash"]`` by name.

    ::

        clash_tables:
          beats:
            of: sign                      # a declared type
            missing: nothing              # pairs not listed do nothing (without it, every pair must be listed)
            outcomes:
              rock: {scissors: neighbour, paper: placed}

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "clash_tables: {beats: {of: sign, outcomes: {rock: {scissors: neighbour}}}}\\n"))
    >>> b.game.types["sign"] = ("rock", "scissors")
    >>> read_clash_tables(b)
    >>> b.game.parts["clash"]["beats"].describe()
    ['rock against scissors: the neighbour flips']
    >>> print(b.sink.items[0].message)
    clash table 'beats' does not cover 3 pairs (rock/rock, scissors/rock, scissors/scissors)
    """
    g = b.game
    tables = b.tree.get("clash_tables") or {}
    clash = g.parts["clash"] = {}
    for name, spec in tables.items():
        b.unknown_keys(spec, ("of", "missing", "outcomes"), f"clash table '{name}'")
        type_name = str(spec.get("of", ""))
        values = g.types.get(type_name)
        if values is None:
            b.error(b.pos(spec, "of"), f"unknown type '{type_name}'", did_you_mean(type_name, g.types))
            continue
        missing = None
        if "missing" in spec:
            missing = OUTCOMES[b.choice(spec, "missing", tuple(OUTCOMES), "nothing")]
        outcomes: dict[tuple[str, str], tuple[bool, bool]] = {}
        rows = spec.get("outcomes") or {}
        for row, cols in rows.items():
            if row not in values:
                b.error(rows.key_pos.get(row), f"unknown {type_name} '{row}'", did_you_mean(row, values))
                continue
            for col, word in (cols or {}).items():
                if col not in values:
                    b.error(cols.key_pos.get(col), f"unknown {type_name} '{col}'", did_you_mean(col, values))
                    continue
                if word not in OUTCOMES:
                    b.error(cols.pos_of(col), f"unknown outcome '{word}'", did_you_mean(str(word), OUTCOMES) or f"use one of {', '.join(OUTCOMES)}")
                    continue
                outcomes[(row, col)] = OUTCOMES[word]
        if missing is None:
            gaps = [f"{a}/{b}" for a in values for b in values if (a, b) not in outcomes]
            if gaps:
                b.error(b.pos(spec, "outcomes"), f"clash table '{name}' does not cover {len(gaps)} pairs ({', '.join(gaps[:4])}{', ...' if len(gaps) > 4 else ''})",
                        "list them, or say what missing pairs mean with 'missing: nothing'")
        clash[name] = ClashTable(name, outcomes, missing)


def clash_table(b: "BuildContext", spec: "Mapping", key: str) -> ClashTable:
    """The clash table ``spec[key]`` names (an empty one, reported, when there is none of that name)."""
    name = str(spec.get(key, ""))
    table = b.game.parts["clash"].get(name)
    if table is None:
        b.error(b.pos(spec, key), f"unknown clash table '{name}'", did_you_mean(name, b.game.parts["clash"]))
        return ClashTable(name, {}, (False, False))
    return table


BLOCK = declare(Block(
    "clash",
    slices=(Clashes,),
    keys={
        "clash_tables": {
            "description": ("Pairwise tables saying what happens when two values meet (row: the placed piece's "
                            "value; column: the neighbour's). Used by `clash` steps."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/clashTable"},
        },
    },
    steps={
        "clash": {
            "description": "Each piece placed since the last clash step clashes with its neighbours, using a clash table.",
            "$ref": "#/$defs/clashStep",
        },
    },
    defs={
        "clashStep": {
            "description": "`clash: {table: T, attribute: A, with: neighbours, order: player, chain: false}`.",
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "table": {
                    "description": "The clash table to use (declared under `clash_tables`).",
                    "type": "string",
                    "examples": ["beats"],
                },
                "attribute": {
                    "description": ("The attribute whose values are looked up in the table (the face showing is "
                                    "used)."),
                    "type": "string",
                    "examples": ["hue"],
                },
                "with": {
                    "description": "What the placed piece clashes with: `neighbours` (each adjacent piece).",
                    "enum": ["neighbours"],
                    "default": "neighbours",
                },
                "order": {
                    "description": ("`player`: the player chooses the order of the clashes, one at a time; `fixed`: "
                                    "they resolve in board order."),
                    "enum": ["player", "fixed"],
                    "default": "player",
                },
                "chain": {
                    "description": ("Whether a flipped neighbour clashes in turn with its own neighbours (each pair "
                                    "at most once per turn): true/false or an option name."),
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
            },
            "required": ["table", "attribute"],
            "additionalProperties": False,
        },
        "clashTable": {
            "description": "Who flips when a value (row) meets another (column).",
            "type": "object",
            "properties": {
                "of": {
                    "description": "The type whose values are the rows and columns.",
                    "type": "string",
                    "examples": ["hue"],
                },
                "missing": {
                    "description": "What pairs not listed do. Without it, every pair must be listed.",
                    "$ref": "#/$defs/clashOutcome",
                },
                "outcomes": {
                    "description": "Row value -> column value -> outcome.",
                    "type": ["object", "null"],
                    "additionalProperties": {
                        "description": "The outcomes of this row value against each column value.",
                        "type": ["object", "null"],
                        "additionalProperties": {"$ref": "#/$defs/clashOutcome"},
                    },
                    "examples": [{"Oak": {"Elm": "neighbour", "Fir": "both", "Yew": "placed"}}],
                },
            },
            "required": ["of", "outcomes"],
            "additionalProperties": False,
        },
        "clashOutcome": {
            "description": ("Which piece flips to its next face: `nothing`, `placed` (the row piece), `neighbour` "
                            "(the column piece) or `both`."),
            "enum": ["nothing", "placed", "neighbour", "both"],
        },
    },
    compile=read_clash_tables,
    rank=50,
))
