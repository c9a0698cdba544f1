"""The ``move`` step: the player moves one of their pieces on the board by one of the allowed steps.

A player's pieces are those whose ``side`` attribute is the player's role;
every other piece is a rival.  Steps are written relative to the direction
each role faces (``forward``: ``up`` is +y, ``down`` -y, ``right`` +x,
``left`` -x), as ``[sideways, forward]`` offsets, with what the target cell
may hold: ``empty``, ``rival`` (capturing it), or ``empty-or-rival``.  A
piece never moves onto one of its own side.  A captured piece goes to the
``capture_to`` zone.  With no move possible, the turn passes (``if_none:
pass``, no decision) or the player must take the action ``pass``
(``must-pass``).

Example (YAML)::

    - move:
        side: owner
        forward: {South: up, North: down}
        steps:
          - {by: [0, 1], onto: empty}             # straight ahead onto an empty square
          - {by: [-1, 1], onto: empty-or-rival}   # diagonally ahead, capturing there
          - {by: [1, 1], onto: empty-or-rival}
        capture_to: taken

On a board of points (``board: {kind: points}``) a step may go along a link
instead, to any point a link joins to the piece's: ``{along: link, onto:
empty}``; ``forward`` is then not needed.

``to:`` (with or instead of ``steps``) is a condition over ``piece`` and
``cell``: the piece may also move to any cell of a board with edges where it
holds (empty, or a rival's with ``capture_to``), one action per piece and
cell — a man that "flies" to any empty point when its side has three left::

    - move: {side: colour, to: "men(piece.colour) == 3 or cell in neighbours(piece.cell)"}

Text form: ``move 3,1 to 4,2``.

>>> facing((1, 2), "down")
(-1, -2)
>>> facing((1, 2), "right")
(2, -1)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import MOST_TEXTS, Texts, board_cells, distinct
from engine.blocks.pointsboard import PointsBoard
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace
from engine.core.errors import SourcePos, did_you_mean
from engine.core.facedown import public_name
from engine.core.yamlsource import Mapping, Sequence
from engine.lang import budgets
from engine.lang.scope import Fn
from engine.lang.types import ANY_COMPONENT, CELL

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView

Cell = tuple[int, int]
PASS = ("pass",)
DIRECTIONS = ("up", "down", "right", "left")
ONTO = ("empty", "rival", "empty-or-rival")


def facing(offset: Cell, direction: str) -> Cell:
    """A ``[sideways, forward]`` offset as a board offset for a piece facing ``direction``."""
    side, ahead = offset
    return {"up": (side, ahead), "down": (-side, -ahead), "right": (ahead, -side), "left": (-ahead, side)}[direction]


@step_kind
class Move(Step):
    """The ``move`` step: the player moves one of their pieces on the board by one of the allowed steps, written
    relative to the way their side faces, capturing where a step allows.

    Built from, e.g., ``- move: {side: side, forward: {A: up, B: down}, steps: [{by: [0, 1], onto: empty}]}``.
    """
    kind = "move"
    keys = ("if", "side", "forward", "steps", "to", "capture_to", "if_none")

    def __init__(self, index: int, spec: Mapping, pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        g = b.game
        if g.grid is None:
            b.error(pos, "step 'move' needs a 'board'")
        self.game = g
        self.side = str(spec.get("side", ""))
        self.values = b.face_attribute(spec, "side")
        roles = list(g.roles.values) if g.roles else []
        forward = spec.get("forward")
        self.forward: dict[str, str] = {role: "up" for role in roles}
        written_steps = spec.get("steps")
        linked_only = isinstance(written_steps, Sequence) and all(
            isinstance(step, Mapping) and "along" in step for step in written_steps)
        if forward is None and (linked_only or "steps" not in spec and "to" in spec):  # nobody faces anywhere
            pass
        elif not isinstance(forward, Mapping):
            b.error(b.pos(spec, "forward"), "'forward' must map each role to the way it faces: up, down, left or right")
        else:
            for role, way in forward.items():
                if role not in roles:
                    b.error(forward.key_pos.get(role), f"unknown role '{role}'", did_you_mean(str(role), roles))
                elif str(way) not in DIRECTIONS:
                    b.error(b.pos(forward, role), f"'{way}' is not a direction: up, down, left or right")
                else:
                    self.forward[str(role)] = str(way)
            missing = [role for role in roles if role not in forward]
            if missing:
                b.error(b.pos(spec, "forward"), f"'forward' gives no direction for {', '.join(missing)}",
                        "give every role the way it faces: up, down, left or right")
        self.steps: list[tuple[Cell, str]] = []
        written = spec.get("steps")
        if "to" in spec and "steps" not in spec:
            written = []
        elif not isinstance(written, Sequence) or not written:
            b.error(b.pos(spec, "steps"), "'steps' must list the moves: {by: [sideways, forward], onto: empty} (or 'to' "
                                          "say the cells a piece may move to)")
            written = []
        self.along: list[str] = []  # what a step along a link may land on, one entry per such step
        for i, step in enumerate(written):
            if isinstance(step, Mapping) and "along" in step:
                b.unknown_keys(step, ("along", "onto"), "a move step")
                if str(step["along"]) != "link":
                    b.error(b.pos(step, "along"), f"'along' is 'link' (to a point a link joins), not '{step['along']}'")
                elif not isinstance(g.grid, PointsBoard):
                    b.error(b.pos(step, "along"), "'along: link' needs a board of points (board: {kind: points}); "
                                                  "on a grid write the step's offset, 'by: [sideways, forward]'")
                self.along.append(b.choice(step, "onto", ONTO, "empty"))
                continue
            by = step.get("by") if isinstance(step, Mapping) else None
            if not (isinstance(by, Sequence) and len(by) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in by)):
                b.error(b.pos(written, i), "each step needs 'by: [sideways, forward]' (two whole numbers)"
                        + (", or 'along: link'" if isinstance(g.grid, PointsBoard) else ""))
                continue
            b.unknown_keys(step, ("by", "onto"), "a move step")
            onto = b.choice(step, "onto", ONTO, "empty")
            self.steps.append(((int(by[0]), int(by[1])), onto))
        self.zone: int | None = None
        self.zone_name = str(spec.get("capture_to", ""))
        if "capture_to" in spec:
            zone = g.zone_specs.get(self.zone_name)
            if zone is None:
                b.error(b.pos(spec, "capture_to"), f"'capture_to' must be a shared zone, not '{self.zone_name}'",
                        did_you_mean(self.zone_name, g.zone_specs))
            elif zone.per_role or zone.keys:
                b.error(b.pos(spec, "capture_to"), f"'capture_to' must be a shared zone; '{self.zone_name}' is one zone "
                                                   f"per {'role' if zone.per_role else 'key'}")
            else:
                self.zone = g.zone_index[(self.zone_name, None)]
        elif any(onto != "empty" for _, onto in self.steps) or any(onto != "empty" for onto in self.along):
            b.error(pos, "a move that captures needs 'capture_to': the zone captured pieces go to")
        self.must_pass = b.choice(spec, "if_none", ("pass", "must-pass"), "pass") == "must-pass"
        self.to: Fn | None = None  # the condition over piece and cell of a move to a chosen cell (see chosen_moves)
        self.to_text = ""
        self.to_pos = b.pos(spec, "to") if "to" in spec else None
        if "to" in spec:
            compiled, self.to_slots = b.expression(spec["to"], "bool", bind={"piece": ANY_COMPONENT, "cell": CELL},
                                                   pos=b.pos(spec, "to"))
            self.to, self.to_text = compiled.fn, b.describe(spec["to"])
            if g.grid is not None and not b.has_edges():
                b.error(b.pos(spec, "to"), "'to' chooses among the cells of a board with edges (width and height, a hex "
                                           "board or a board of points); a growing board has none to list")
        # the board offsets of each step, by the direction a role faces
        self.by_direction = {d: [(facing(by, d), onto) for by, onto in self.steps] for d in DIRECTIONS}
        # by the direction (and on a board with walls standing, the walls): see reaches and place_steps
        self.reach: dict[Any, dict[Cell, tuple[tuple[Cell, str], ...]]] = {}
        self.by_place: dict[Any, list[tuple[tuple[Cell, bool, bool, tuple[Cell, Cell]], ...]]] = {}
        self.places: dict[Cell, int] = {}  # see board_places
        self.walled = bool(getattr(g.grid, "walled", False))  # a board with walls: the steps follow those standing

    # -- decisions

    def moves(self, s: "StateView") -> list[tuple[Cell, Cell]]:
        """Every (from, to) move of the current role's pieces, piece by piece in board order.

        Where nothing stacks the role's pieces are found among the board's (a look at each piece, not at each
        cell) and put in the board's order; each one's steps are read from the cell's reach (see :meth:`reaches`),
        on a board with edges by the cell's place in the board's order (see :meth:`place_steps`).
        """
        role = s.acting_role
        values, face, grid = self.values, s.face, s.game.grid
        board = s.grid
        found: list[tuple[Cell, Cell]] = []
        direction = self.forward.get(role, "up")
        if self.walled and grid.walls:  # the steps on the board with the walls standing now
            direction = self.walled_key(grid, direction)
        if grid.fixed and not grid.stacking:  # the pieces' places sorted as numbers, each place's steps worked out once
            steps = self.by_place.get(direction) or self.place_steps(grid, direction)
            places, cell_of = self.places or self.board_places(grid), s.cell_of
            at = [places[cell_of[p]] for p in s.zones[s.game.board_zone] if values[face[p]][p] == role]
            at.sort()
            append, get = found.append, board.get
            for place in at:
                for to, may_be_empty, may_be_rival, move in steps[place]:
                    there = get(to)
                    if there is None:
                        if may_be_empty:
                            append(move)
                    elif may_be_rival and values[face[there]][there] != role:
                        append(move)
            return found
        if grid.fixed:  # each cell's steps that stay on the board, worked out once
            reach = self.reach.get(direction) or self.reaches(grid, direction)
        else:  # a board without edges: every step stays on it
            offsets = self.by_direction[direction]
            reach = {(x, y): tuple(((x + dx, y + dy), onto) for (dx, dy), onto in offsets) for x, y in sorted(board)}
        if grid.stacking:  # the top piece of each cell
            cells = [cell for cell in reach if (p := board.get(cell)) is not None and values[face[p]][p] == role]
        else:  # the role's pieces, one a cell, put in the board's order
            cell_of = s.cell_of
            cells = [cell_of[p] for p in s.zones[s.game.board_zone] if values[face[p]][p] == role]
            cells.sort()
        for cell in cells:
            for to, onto in reach[cell]:
                there = board.get(to)
                if there is None:
                    ok = onto != "rival"
                else:
                    ok = onto != "empty" and values[face[there]][there] != role
                if ok:
                    found.append((cell, to))
        return found

    def walled_key(self, grid: Any, direction: str) -> tuple[str, Any]:
        """What the steps of a piece facing ``direction`` are kept under on a board with walls standing: the
        direction and the walls (a few thousand sets of walls at most are kept).

        >>> from types import SimpleNamespace
        >>> step = Move.__new__(Move); step.reach, step.by_place = {"up": {}}, {}
        >>> step.walled_key(SimpleNamespace(walls=frozenset({((0, 0), (0, 1))})), "up")[0], step.reach
        ('up', {'up': {}})
        """
        if len(self.reach) > 4096:
            self.reach.clear()
            self.by_place.clear()
        return direction, grid.walls

    def place_steps(self, grid: Any, direction: Any) -> list[tuple[tuple[Cell, bool, bool, tuple[Cell, Cell]], ...]]:
        """For a board with edges, by each cell's place in the board's order, the steps of its :meth:`reaches` as
        (the cell reached, whether it may be empty, whether it may hold a rival, the move); kept by the step.

        >>> from types import SimpleNamespace
        >>> step = Move.__new__(Move); step.reach, step.by_place, step.along = {}, {}, []
        >>> step.by_direction = {"up": [((0, 1), "empty"), ((1, 1), "empty-or-rival")]}
        >>> board = SimpleNamespace(cells=[(0, 0), (1, 0), (0, 1), (1, 1)], contains=lambda c: 0 <= min(c) <= max(c) <= 1)
        >>> step.place_steps(board, "up")[0]
        (((0, 1), True, False, ((0, 0), (0, 1))), ((1, 1), True, True, ((0, 0), (1, 1))))
        """
        reach = self.reach.get(direction) or self.reaches(grid, direction)
        found = self.by_place[direction] = [
            tuple((to, onto != "rival", onto != "empty", (cell, to)) for to, onto in reach[cell]) for cell in grid.cells]
        return found

    def board_places(self, grid: Any) -> dict[Cell, int]:
        """Each cell's place in the board's order (a board with edges), kept by the step."""
        self.places = {cell: i for i, cell in enumerate(grid.cells)}
        return self.places

    def reaches(self, grid: Any, direction: Any) -> dict[Cell, tuple[tuple[Cell, str], ...]]:
        """For a board with edges, each cell (in the board's order) with the steps a piece facing ``direction``
        may take from it and stay on the board, as (the cell reached, what it may land on), in the steps' order;
        kept by the step.  A step along a row, a column or a diagonal is barred by a wall across its way
        (``direction``: with the walls standing, see :meth:`walled_key`); a knight's jump crosses walls.

        >>> from types import SimpleNamespace
        >>> step = Move.__new__(Move); step.reach, step.along = {}, []; step.by_direction = {"up": [((0, 1), "empty")]}
        >>> board = SimpleNamespace(cells=[(0, 0), (0, 1)], contains=lambda c: c in ((0, 0), (0, 1)))
        >>> step.reaches(board, "up")
        {(0, 0): (((0, 1), 'empty'),), (0, 1): ()}
        """
        offsets = self.by_direction[direction if isinstance(direction, str) else direction[0]]
        walled = grid.wall_across if getattr(grid, "walls", None) else (lambda a, b: False)
        found = self.reach[direction] = {
            (x, y): tuple(((x + dx, y + dy), onto) for (dx, dy), onto in offsets
                          if grid.contains((x + dx, y + dy)) and not walled((x, y), (x + dx, y + dy)))
            + tuple((to, onto) for onto in self.along for to in grid.neighbours((x, y)))
            for x, y in grid.cells}
        return found

    def enter(self, s: "StateView") -> bool:
        space = self.actions(s)
        if len(space) == 0:
            s.no_move(s.acting_role)
            s.note(lambda: f"{s.actor} cannot move and passes")
            return False
        s._actions = space
        return True

    def chosen_moves(self, s: "StateView") -> list[tuple[Cell, Cell]]:
        """The steps' moves (:meth:`moves`), then every move of a piece of the current role's to a cell of the board
        where ``to`` holds (``piece`` the piece, ``cell`` the cell): an empty cell, or one of a rival's with
        ``capture_to``; never its own cell or one of its own side's. Pieces in the board's order, then cells.

        Each test of ``to`` spends a step of the budget: thousands of pieces that may each go to thousands of cells
        stop at the limit, not after millions of tests and moves."""
        found = dict.fromkeys(self.moves(s))
        role, values, face, board = s.acting_role, self.values, s.face, s.grid
        to, captures = self.to, self.zone is not None
        assert to is not None
        env: list[Any] = [None] * self.to_slots
        pieces = sorted((s.cell_of[p], p) for p in s.zones[s.game.board_zone] if values[face[p]][p] == role)
        cells = [cell for cell in s.game.grid.cells  # empty, or a rival's to take: never one of the side's own
                 if (there := board.get(cell)) is None or captures and values[face[there]][there] != role]
        for start, piece in pieces:
            if board.get(start) != piece:  # beneath another piece
                continue
            s.budget -= len(cells)
            if s.budget < 0:
                raise budgets.out_of_steps(s, self.to_pos, "move's 'to'")
            for cell in cells:
                env[0], env[1] = piece, cell
                if to(s, env):
                    found[(start, cell)] = None
        return list(found)

    def actions(self, s: "StateView") -> ActionSpace:
        moves = self.moves(s) if self.to is None else self.chosen_moves(s)
        if not moves and self.must_pass:
            return ListSpace(self, [PASS])
        return ListSpace(self, moves)

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        if args == PASS:
            s.note(lambda: f"{s.actor} passes")
            return True
        start, to = args
        piece = s.grid[start]
        taken = s.grid.get(to)
        names = self.game.piece_names
        moved = public_name(s, piece, names[piece])  # a face-down piece moves as its back
        if taken is not None and self.zone is not None:
            s.move(taken, self.zone)
        s.place(piece, to)
        if s.log is not None:
            capture = f", taking {public_name(s, taken, names[taken])}" if taken is not None else ""  # off the board: up
            at = self.game.cell_text
            s.log.append(f"{s.actor} moves {moved} from {at(start, brackets=True)} to {at(to, brackets=True)}{capture}")
        return True

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``move A to B`` for every cell A of the board and every cell B a step reaches from it, whichever way its
        role faces (with ``to``: every other cell); ``pass`` when passing is forced. With ``to`` on a board of more
        than :data:`MOST_TEXTS` pairs of cells the moves are not listed (offered by rank instead)."""
        cells = board_cells(game)
        on = set(cells)
        pairs = len(cells) * (len(cells) - 1)
        if self.to is not None and pairs > MOST_TEXTS:
            return Texts(("pass",) if self.must_pass else (), unlisted=f"which piece moves where ('move X,Y to X,Y'): "
                                                                      f"{pairs:,} pairs of cells, more than {MOST_TEXTS:,}")
        offsets = dict.fromkeys(by for direction in sorted(set(self.forward.values())) for by, _ in self.by_direction[direction])
        linked = game.grid.neighbours if self.along and game.grid is not None else (lambda cell: ())
        moves = [f"move {game.cell_text(a)} to {game.cell_text(b)}" for a in cells
                 for b in (cells if self.to is not None else
                           dict.fromkeys([*((a[0] + dx, a[1] + dy) for dx, dy in offsets), *linked(a)]))
                 if b in on and b != a]
        return Texts(distinct([*(["pass"] if self.must_pass else []), *moves]))

    def format(self, args: tuple[Any, ...]) -> str:
        if args == PASS:
            return "pass"
        start, to = args
        return f"move {self.game.cell_text(start)} to {self.game.cell_text(to)}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        m = re.fullmatch(r"\s*move\s+(.+?)\s+to\s+(.+)", text)
        if not m:
            return f"'{text}' is not a move; write it like 'move 3,1 to 3,2'"
        start, to = s.game.read_cell(m.group(1)), s.game.read_cell(m.group(2))
        unknown = next((part for part, cell in ((m.group(1), start), (m.group(2), to)) if cell is None), None)
        if unknown is not None:  # a point's name is a position here already: this names no place of the board
            names = list(getattr(s.game.grid, "names", {}))
            hint = did_you_mean(unknown, names) if names else None
            return f"'{unknown}' is no cell of the board{f' ({hint})' if hint else ''}; write a move like 'move 3,1 to 3,2'"
        piece = s.grid.get(start)
        if piece is None:
            return f"there is no piece at {s.game.cell_text(start)}"
        if self.values[s.face[piece]][piece] != s.acting_role:
            return f"the piece at {s.game.cell_text(start)} is not {s.acting_role}'s"
        return f"the piece at {s.game.cell_text(start)} cannot move to {s.game.cell_text(to)}"

    def describe(self) -> str:
        ways = ", ".join(f"{role} {way}" for role, way in self.forward.items())
        onto = {"empty": "onto an empty cell", "rival": "only capturing", "empty-or-rival": "onto an empty cell or capturing"}
        steps = "; ".join([*(f"{step_words(by)} {onto[o]}" for by, o in self.steps),
                           *(f"along a link {onto[o]}" for o in self.along),
                           *([f"to any cell where {self.to_text} " + onto["empty-or-rival" if self.zone is not None else "empty"]]
                             if self.to is not None else [])])
        facing_ = f"; facing {ways}" if self.steps else ""
        text = (f"move one of your pieces (those whose {self.side} is your role{facing_}): {steps}; "
                f"captured pieces go to the {self.zone_name}")
        if self.must_pass:
            text += "; a player who cannot move must pass"
        return text


def step_words(by: Cell) -> str:
    """A ``[sideways, forward]`` step in English.

    >>> step_words((0, 1)), step_words((-1, 1)), step_words((2, 0)), step_words((1, 2))
    ('1 straight ahead', '1 diagonally ahead to the left', '2 to the right', '2 ahead and 1 to the right')
    """
    side, ahead = by
    hand = "right" if side > 0 else "left"
    if side == 0:
        return f"{abs(ahead)} straight {'ahead' if ahead > 0 else 'back'}"
    if ahead == 0:
        return f"{abs(side)} to the {hand}"
    if abs(side) == abs(ahead):
        return f"{abs(ahead)} diagonally {'ahead' if ahead > 0 else 'back'} to the {hand}"
    return f"{abs(ahead)} {'ahead' if ahead > 0 else 'back'} and {abs(side)} to the {hand}"


BLOCK = declare(Block(
    "movement",
    steps={
        "move": {
            "description": ("The player moves one of their pieces on the board by one of the allowed steps (written "
                            "relative to the way their role faces), capturing where a step allows."),
            "$ref": "#/$defs/moveStep",
        },
    },
    defs={
        "moveStep": {
            "description": ("`move: {side: colour, forward: {Light: up, Dark: down}, steps: [{by: [0, 1], onto: "
                            "empty}], capture_to: taken}`."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "side": {
                    "description": ("The attribute whose value is the owning role: a player moves the pieces "
                                    "showing their role; the others are rivals."),
                    "type": "string",
                },
                "forward": {
                    "description": ("The way each role faces: up (+y), down (-y), right (+x) or left (-x) (not "
                                    "needed when every step is `along: link`)."),
                    "type": "object",
                    "additionalProperties": {"enum": ["up", "down", "right", "left"]},
                },
                "steps": {
                    "description": "The steps a piece may take, relative to the way its role faces.",
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "properties": {
                            "by": {
                                "description": "[sideways, forward] offset.",
                                "type": "array",
                                "items": {"type": "integer"},
                                "minItems": 2,
                                "maxItems": 2,
                            },
                            "along": {
                                "description": ("`link`: to any point a link joins to the piece's (a board of "
                                                "points), instead of `by`."),
                                "enum": ["link"],
                            },
                            "onto": {
                                "description": ("What the target cell may hold: `empty`, `rival` (captured) or "
                                                "`empty-or-rival`; never a piece of one's own."),
                                "enum": ["empty", "rival", "empty-or-rival"],
                                "default": "empty",
                            },
                        },
                        "additionalProperties": False,
                    },
                },
                "to": {
                    "description": ("A condition over `piece` (the piece moved) and `cell` (a cell of the board): the "
                                    "piece may also move to any cell where it holds, one action per piece and cell "
                                    "(an empty cell, or a rival's with `capture_to`), e.g. `flying(piece.colour) or "
                                    "cell in neighbours(piece.cell)`."),
                    "$ref": "#/$defs/condition",
                },
                "capture_to": {"description": "The shared zone captured pieces go to.", "$ref": "#/$defs/zoneName"},
                "if_none": {
                    "description": ("When no move is possible: `pass` the turn (no decision) or `must-pass` (the "
                                    "player's only action is `pass`)."),
                    "enum": ["pass", "must-pass"],
                    "default": "pass",
                },
            },
            "required": ["side"],
            "additionalProperties": False,
        },
    },
))
