"""The ``place`` step: put a component from a zone onto the board.

Options (all from YAML):

* ``from``: the zone to take from (a per-role zone means the current role's);
* ``face``: ``choose`` (the player picks a face; faces that look the same are
  offered once) or ``as-is``;
After the first piece (which goes at 0,0), the cell must be adjacent to a
piece under the board's adjacency, and the board's bounding-box limits apply.  Text form:
``place A/B as B at 1,0`` (component, the face's label, the cell).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from engine.actions import Action, ActionSpace, ListSpace, ProductSpace
from engine.blocks.grid import format_cell, parse_cell
from engine.blocks.steps import Step, step_kind
from engine.errors import SourcePos

if TYPE_CHECKING:
    from engine.compiler import Builder
    from engine.state import State
    from engine.yamlsource import Mapping

ORIGIN = ((0, 0),)


@step_kind
class Place(Step):
    kind = "place"
    keys = ("if", "from", "to", "face")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "Builder") -> None:
        super().__init__(index, spec, pos, b)
        self.source = b.zone_ref(spec, "from")
        b.require_board(spec, "to")
        self.choose_face = b.choice(spec, "face", ("choose", "as-is"), "choose") == "choose"
        self.game = b.game
        grid = b.game.grid
        big = 1 << 30
        self.limited = bool(grid and (grid.max_width or grid.max_height))
        self.width = (grid.max_width or big) if grid else big
        self.height = (grid.max_height or big) if grid else big

    # -- decisions

    def enter(self, s: "State") -> bool:
        space = self.actions(s)
        if len(space) == 0:
            s.note(lambda: f"{s.current_role} cannot place anything and passes")
            return False
        s._actions = space  # this is now the pending decision: keep what we computed
        return True

    def cells(self, s: "State") -> list[tuple[int, int]]:
        """The cells a piece may go to now."""
        if not s.grid:
            return list(ORIGIN)
        if not self.limited:
            return list(s.frontier)
        bx0, bx1, by0, by1 = s.bbox
        x0, x1, y0, y1 = bx1 - self.width + 1, bx0 + self.width - 1, by1 - self.height + 1, by0 + self.height - 1
        return [c for c in s.frontier if x0 <= c[0] <= x1 and y0 <= c[1] <= y1]

    def actions(self, s: "State") -> ActionSpace:
        hand = s.zones[self.source.resolve(s)]
        if not hand:
            return ListSpace(self, [])
        if self.choose_face:
            options = self.game.piece_options
            pieces = [p for cid in hand for p in options[cid]]
        else:
            pieces = [(cid, s.face[cid]) for cid in hand]
        return ProductSpace(self, pieces, self.cells(s))

    def apply(self, s: "State", args: tuple[Any, ...]) -> bool:
        cid, face, cell = args
        s.place(cid, cell, face)
        s.scratch["placed"] = cid
        if s.log is not None:
            s.log.append(f"{s.current_role} places {self.game.describe_piece(cid, face)} at ({format_cell(cell)})")
        return True

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return (args[0],)

    # -- text

    def format(self, args: tuple[Any, ...]) -> str:
        cid, face, cell = args
        g = self.game
        return f"place {g.component_names[cid]} as {g.face_labels[cid][face]} at {format_cell(cell)}"

    def parse(self, s: "State", text: str) -> Action:
        """Also accepts ``place ID at X,Y`` when the component shows only one face (or faces are not chosen)."""
        m = re.fullmatch(r"\s*place\s+(\S+)\s+at\s+(.+)", text)
        if m:
            cid = self.game.component_ids.get(m.group(1))
            cell = parse_cell(m.group(2))
            if cid is not None and cell is not None:
                faces = self.game.distinct_faces[cid] if self.choose_face else (s.face[cid],)
                if len(faces) == 1:
                    action = Action(self, (cid, faces[0], cell))
                    if action in self.actions(s):
                        return action
        return super().parse(s, text)

    def why_illegal(self, s: "State", text: str) -> str | None:
        m = re.fullmatch(r"\s*place\s+(\S+)\s+(?:as\s+(\S+)\s+)?at\s+(.+)", text)
        if not m:
            return f"'{text}' is not a placement; write it like 'place {self._example(s)}'"
        name, label, cell_text = m.groups()
        g = self.game
        cid = g.component_ids.get(name)
        if cid is None:
            from engine.errors import did_you_mean

            hint = did_you_mean(name, g.component_ids)
            return f"there is no component '{name}'" + (f" ({hint})" if hint else "")
        if cid not in s.zones[self.source(s)]:
            return f"{name} is not in {self.source.describe(s)}"
        if label is not None and label not in g.face_labels[cid]:
            return f"{name} has no face '{label}' (its faces are {' and '.join(g.face_labels[cid])})"
        if label is None and len(g.distinct_faces[cid]) > 1 and self.choose_face:
            return f"say which face of {name} to show: 'place {name} as {g.face_labels[cid][0]} at {cell_text}'"
        cell = parse_cell(cell_text)
        if cell is None:
            return f"'{cell_text}' is not a cell; write it like 1,0"
        if cell in s.grid:
            return f"cell {format_cell(cell)} is already taken"
        if s.grid and cell not in s.frontier:
            return f"cell {format_cell(cell)} does not touch any piece"
        if not g.grid.fits(s.bbox, cell):
            return f"cell {format_cell(cell)} would make the board larger than {g.grid.max_width}x{g.grid.max_height}"
        if not s.grid and cell not in ORIGIN:
            return "the first piece goes at 0,0"
        return None

    def _example(self, s: "State") -> str:
        legal = self.actions(s)
        return str(legal[0])[len("place "):] if len(legal) else "CARD as FACE at X,Y"

    def describe(self) -> str:
        face = "with the face of their choice up" if self.choose_face else "as it is"
        where = "touching a piece already there (the first one anywhere)"
        g = self.game.grid
        limit = f", keeping all pieces within {g.max_width}x{g.max_height}" if g.max_width else ""
        return f"place a component from the {self.source.name} onto the board {face}, {where}{limit}"
