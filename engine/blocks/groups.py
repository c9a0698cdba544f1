"""Pattern groups: the ``form_groups`` step.

A group is a set of cells given by offsets from an anchor (``pattern``), all
filled with pieces that are not yet in a group.  When a placement completes
one, it forms: the majority of an attribute among its pieces (ties broken by
a support table, see :mod:`engine.blocks.majority`) decides its owner; a
marker of that value moves from one zone to another (``marker: {from, to}``)
and every piece turns to the group face (``face``).  An unresolved tie (or no
value that may win) forms nothing.  Groups never overlap.  When several
groups could form, the player chooses which forms first (a decision), then
the rest are checked again.  When the winner has no marker left,
``if_no_marker: win`` ends the game at once with that value's seat winning
(a value nobody plays: a draw); ``no-group`` forms nothing.

Groups live in ``State.groups`` (anchor cell -> marker component).
Text form of the decision: ``form group at 1,0`` (the anchor).

Example (YAML)::

    - form_groups:
        pattern: [[0, 0], [1, 0], [0, 1], [1, 1]]   # a 2x2 square on a square grid
        attribute: colour
        support: colour-support
        face: back
        marker: {from: reserve, to: scored}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import ActionSpace, ListSpace
from engine.blocks.grid import format_cell
from engine.blocks.majority import Verdict
from engine.blocks.outcome import Outcome
from engine.blocks.steps import Step, step_kind
from engine.errors import SourcePos

from engine.yamlsource import Mapping

if TYPE_CHECKING:
    from engine.compiler import Builder
    from engine.state import State

Cell = tuple[int, int]


@step_kind
class FormGroups(Step):
    kind = "form_groups"
    keys = ("if", "pattern", "attribute", "support", "face", "marker", "order", "if_no_marker")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "Builder") -> None:
        super().__init__(index, spec, pos, b)
        self.game = b.game
        if b.game.grid is None:
            b.error(pos, "the 'form_groups' step needs a 'board'")
        self.pattern: tuple[Cell, ...] = self._pattern(spec, b)
        self.values = b.face_attribute(spec, "attribute")
        self.attribute = str(spec.get("attribute", ""))
        self.table = b.support_table(spec, "support")
        face = str(spec.get("face", ""))
        kinds, faces = b.game.component_kind, b.game.face_names
        if not any(face in f for f in faces.values()):
            b.error(b.pos(spec, "face"), f"no component has a face '{face}'")
        self.group_face: list[int] = [faces[k].index(face) if face in faces[k] else 0 for k in kinds]
        self.face_name = face
        marker = spec.get("marker")
        if not isinstance(marker, Mapping):
            b.error(b.pos(spec, "marker"), "'marker' needs 'from' and 'to' zones, like {from: reserve, to: altar}")
            marker = spec
        self.marker_from = b.zone_ref(marker, "from")
        self.marker_to = b.zone_ref(marker, "to")
        self.player_orders = b.choice(spec, "order", ("player", "fixed"), "player") == "player"
        self.no_marker_wins = b.choice(spec, "if_no_marker", ("win", "no-group"), "win") == "win"

    @staticmethod
    def _pattern(spec: "Mapping", b: "Builder") -> tuple[Cell, ...]:
        raw = spec.get("pattern")
        ok = isinstance(raw, list) and raw and all(
            isinstance(o, list) and len(o) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in o) for o in raw
        )
        if not ok:
            b.error(b.pos(spec, "pattern"), "'pattern' must list the cells of a group as [x, y] offsets from its anchor, like [[0, 0], [1, 0]]")
            return ((0, 0),)
        cells = tuple((int(o[0]), int(o[1])) for o in raw)
        if len(set(cells)) != len(cells):
            b.error(b.pos(spec, "pattern"), "'pattern' lists a cell twice")
        return cells

    # -- geometry

    def grouped(self, s: "State", cell: Cell) -> bool:
        """Whether a cell belongs to a group on the board."""
        groups = s.groups
        if not groups:
            return False
        x, y = cell
        return any((x - dx, y - dy) in groups for dx, dy in self.pattern)

    def members(self, anchor: Cell) -> list[Cell]:
        x, y = anchor
        return [(x + dx, y + dy) for dx, dy in self.pattern]

    def candidates(self, s: "State", changed: list[Cell]) -> list[Cell]:
        """Anchors of complete groups of free pieces that include one of the changed cells (incremental)."""
        grid, found = s.grid, []
        for x, y in changed:
            for dx, dy in self.pattern:
                anchor = (x - dx, y - dy)
                if anchor not in found and self._complete(s, anchor, grid):
                    found.append(anchor)
        return found

    def _complete(self, s: "State", anchor: Cell, grid: dict[Cell, int]) -> bool:
        cells = self.members(anchor)
        return all(c in grid for c in cells) and not any(self.grouped(s, c) for c in cells)

    def verdict(self, s: "State", anchor: Cell) -> Verdict:
        counts: dict[str, int] = {}
        values, face, grid = self.values, s.face, s.grid
        for cell in self.members(anchor):
            c = grid[cell]
            v = values[face[c]][c]
            counts[v] = counts.get(v, 0) + 1
        return self.table.decide(counts)

    # -- flow

    def enter(self, s: "State") -> bool:
        placed = s.scratch.get("placed")
        if placed is None or s.cell_of[placed] is None:
            return False
        s.scratch["forming"] = tuple(self.candidates(s, [s.cell_of[placed]]))
        return self._settle(s)

    def _settle(self, s: "State") -> bool:
        """Form the groups that need no choice; True while the player must choose which forms next."""
        while True:
            grid = s.grid
            ready = tuple(a for a in s.scratch["forming"] if self._complete(s, a, grid) and self.verdict(s, a).winner is not None)
            if len(ready) > 1 and self.player_orders:
                s.scratch["forming"] = ready
                return True
            if not ready:
                del s.scratch["forming"]
                return False
            s.scratch["forming"] = ready[1:]
            self._form(s, ready[0])
            if s.outcome is not None:
                del s.scratch["forming"]
                return False

    def actions(self, s: "State") -> ActionSpace:
        return ListSpace(self, [(a,) for a in s.scratch["forming"]])

    def apply(self, s: "State", args: tuple[Any, ...]) -> bool:
        anchor = args[0]
        s.scratch["forming"] = tuple(a for a in s.scratch["forming"] if a != anchor)
        self._form(s, anchor)
        if s.outcome is not None:
            del s.scratch["forming"]
            return True
        return not self._settle(s)

    def _form(self, s: "State", anchor: Cell) -> None:
        verdict = self.verdict(s, anchor)
        winner = verdict.winner
        g = self.game
        values = self.values
        source = s.zones[self.marker_from(s)]
        marker = next((c for c in source if values[s.face[c]][c] == winner), None)
        where = f"({format_cell(anchor)})"
        if marker is None:
            if self.no_marker_wins:
                seat = s.seat_of.get(str(winner), 0)
                scores = tuple(1 if i + 1 == seat else 0 for i in range(s.players))
                text = f"{winner} would place another marker at {where} with none left: {winner} wins"
                s.outcome = Outcome.from_scores(scores, text=text if seat else text + " (played by nobody: a draw)", ended="end condition")
                s.note(lambda: f"game over: {text}")
            else:
                s.note(lambda: f"no group at {where}: {winner} has no marker left")
            return
        s.move(marker, self.marker_to(s))
        s.groups[anchor] = marker
        group_face, grid, face = self.group_face, s.grid, s.face
        for cell in self.members(anchor):
            c = grid[cell]
            face[c] = group_face[c]
        s.note(lambda: f"a group forms at {where}: {verdict.explain()} — {winner} wins ({verdict.decided_by}); "
                       f"{g.piece_names[marker]} placed")

    # -- text

    def format(self, args: tuple[Any, ...]) -> str:
        return f"form group at {format_cell(args[0])}"

    def why_illegal(self, s: "State", text: str) -> str | None:
        anchors = ", ".join(format_cell(a) for a in s.scratch.get("forming", ()))
        return f"'{text}' is not a group that can form now; choose which forms first among: {anchors} (e.g. 'form group at {anchors.split(', ')[0]}')"

    def describe(self) -> str:
        order = "the player chooses which forms first" if self.player_orders else "they form in board order"
        return (f"when a placement fills a group of {len(self.pattern)} cells with pieces in no group, it forms: "
                f"the majority of {self.attribute} (ties: support table {self.table.name}) places its marker and the pieces "
                f"turn to their {self.face_name} face; if several could form, {order}")
