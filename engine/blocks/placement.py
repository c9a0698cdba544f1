"""The ``place`` step: put a component from a zone onto the board.

Options (all from YAML):

* ``from``: the zone to take from (a per-role zone means the current role's);
* ``face``: ``choose`` (the player picks a face; faces that look the same are
  offered once), ``as-is``, or the name of a face (every piece is put down
  showing that face);
* identical components (``count:`` in the ruleset) are offered once per zone:
  ``place stone at 1,0`` takes any one of them;
* ``only_triggering``: a condition; while it holds, only placements that make
  a later step of the turn act (e.g. form a group, or make two groups of
  different markers clash: linking groups of one marker is no clash) are legal;
* ``if_none``: when nothing may be placed, ``pass`` (the default: the turn
  passes without a decision), ``end`` the game (scored as usual), or
  ``must-pass``: the player's only action is ``pass`` (a move the game
  counts) — unless no player could place anything, when the game ends;
* ``touching``: true (the default): after the first piece (which goes at
  0,0; on a board of points, on any point), the cell must be adjacent to a piece under the board's adjacency, and
  the board's bounding-box limits apply; false (fixed boards only): any empty
  cell of the board;
* ``cells``: an expression giving the cells a piece may go to now (``front(current_role)``, the square in front
  of the player's marker): only those of them the step allows otherwise are offered; on a board with edges it
  makes ``touching`` false unless the step says otherwise;
* ``optional``: the player may ``pass`` instead of placing;
* ``then``: a program run after the piece is placed (``placed`` is the piece),
  e.g. to pay for it;
* ``drop``: (fixed boards) the piece goes to the lowest empty cell of a
  column (the smallest ``y``), one choice per column that has room;
* ``bracket``: lines of rival pieces the placed piece closes off are
  captured (see :mod:`engine.blocks.bracket`).
On a board with ``stacking``, a piece may also go on top of another.  Text form:
``place A/B as B at 1,0`` (component, the face's label, the cell), ``pass``.

Example (a turn of one step: a piece from the hand, its face chosen, next to
the pieces already down)::

    turn:
      - place: {from: hand, face: choose, touching: true}
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple, Sequence

from engine.blocks.bitboard import BitBoard, CellSpace
from engine.blocks.pointsboard import PointsBoard
from engine.blocks.block import Block, declare
from engine.blocks.bracket import read_bracket
from engine.blocks.enumeration import MOST_TEXTS, Texts, board_cells, cell_texts, distinct
from engine.blocks.grid import SquareGrid
from engine.blocks.steps import Step, step_kind
from engine.core.actions import Action, ActionSpace, ChainSpace, ListSpace, ProductSpace
from engine.core.errors import SourcePos
from engine.core.face_tallies import FaceTally, distinct_values
from engine.core.kept_cells import CellKind
from engine.core.information import listed
from engine.core.slice_shapes import ComponentId
from engine.lang.scope import ASKS
from engine.lang.types import ANY, ANY_COMPONENT, CELL, ListOf
from engine.lang.budgets import refill

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


class Placed(NamedTuple):
    """The placement block's slice of the state: the piece just placed, until a step after it takes it up."""

    cid: ComponentId | None = None
    block = "placement"
    saved = ("placed",)
    components = ("placed",)  # saved keys holding components (see engine.core.slices.component_keys)
    read_by = ("clash", "form_groups")  # the steps that read it (see engine.core.slices.unread_keys)


class Queued(NamedTuple):
    """The pieces put on the board this turn since a clash step last ran, in order (placed by a step or by an effect)."""

    cids: tuple[ComponentId, ...] | None = None
    turn: int | None = None  # the turn they were placed in: a turn whose clash step did not run leaves them unclashed
    block = "clash queue"
    saved = ("placed since the clash", "placed in turn")
    components = ("placed since the clash",)


make_slice = tuple.__new__
"""``make_slice(Queued, (cids, turn))`` is ``Queued(cids, turn)`` without the Python call of a NamedTuple's
constructor: for slices made at every move (give every field)."""


def note_placed(s: "StateView", cid: int) -> None:
    """Remember a piece just put on the board, for the next ``clash`` step (only in games that have one)."""
    if s.game.queues_placements:
        slices, turn = s.slices, s.turn_number
        queued = slices.get(Queued.block)
        cids = (*queued.cids, cid) if queued is not None and queued.turn == turn and queued.cids else (cid,)
        slices[Queued.block] = make_slice(Queued, (cids, turn))


ORIGIN = ((0, 0),)
KEPT_ZONE = 32
"""The offers of a zone of at most this many pieces are kept, keyed by its contents (see :meth:`Place.pieces`)."""
KEPT_HANDS = 4096
"""At most this many zone contents are kept per step: past it, the kept offers are forgotten and kept afresh."""
COUNT_SKIPS = 32
"""A zone's count of copies is kept when stopping at its last different piece skips more than this many (see
:meth:`Place._firsts`): over fewer, walking them costs less than keeping the count at every move."""
PASS = ("pass",)


@step_kind
class Place(Step):
    """The ``place`` step: the player puts a component from a zone on a cell of the board (touching the pieces there,
    dropped to the lowest free cell of a column, or bracketing rivals' lines), showing a face it chooses, keeps or is
    given; with nothing to place it passes, ends the game or passes the turn as ``if_none`` says.

    Built from, e.g., ``- place: {from: stock, face: as-is, touching: false, bracket: {attribute: colour}}``.
    """
    kind = "place"
    keys = ("if", "from", "to", "face", "only_triggering", "if_none", "touching", "cells", "optional", "then", "drop",
            "bracket")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.source = b.zone_ref(spec, "from", offered=True)
        b.require_board(spec, "to")
        names = sorted({f for faces in b.game.face_names.values() for f in faces})
        rule = b.choice(spec, "face", ("choose", "as-is", *names), "choose")
        self.choose_face = rule == "choose"
        self.as_is = rule == "as-is"
        self.face_rule = rule
        # With a named face: the index of that face for each component (None: its kind has no such face).
        kinds, faces = b.game.component_kind, b.game.face_names
        self.fixed: list[int | None] = [faces[k].index(rule) if rule in faces[k] else None for k in kinds]
        self.placed = [Placed(cid) for cid in range(len(kinds))]  # the slice saying each piece was just placed
        seen: dict[tuple[str, int], int] = {}  # a number for each name and face: identical copies showing one face share it
        self.piece_keys = [[seen.setdefault((name, face), len(seen)) for name in b.game.piece_names]
                           for face in range(max(b.game.face_count, default=1))]  # by face, then component
        self.kept_offers: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}  # zone contents -> pieces() of them
        self.faces_vary = self.as_is and max(b.game.face_count, default=1) > 1  # the faces shown tell offers apart
        # What tells identical copies apart, by face then component (a number for each name and face put down
        # as-is, else the name), and a zone's count of each kept by the state (see _firsts), by zone.
        self.copy_keys = self.piece_keys if self.as_is else [b.game.piece_names] * len(self.piece_keys)
        self.copy_tallies: dict[int, FaceTally | None] = {}  # zone -> its count, None: not worth keeping
        self.restrict: Any = None
        self.restrict_text = ""
        if "only_triggering" in spec:
            compiled, slots = b.expression(spec["only_triggering"], "bool", pos=b.pos(spec, "only_triggering"))
            self.restrict, self.restrict_env = compiled.fn, [None] * slots
            self.restrict_text = b.describe(spec["only_triggering"])
        if_none = b.choice(spec, "if_none", ("pass", "end", "must-pass"), "pass")
        self.ends = if_none == "end"
        self.must_pass = if_none == "must-pass"
        self.allowed: Any = None  # the compiled list of cells a piece may go to, when the step names them
        self.allowed_slots, self.allowed_text, self.one_cell = 1, "", False
        if "cells" in spec:
            compiled, self.allowed_slots = b.expression(spec["cells"], None, pos=b.pos(spec, "cells"))
            self.one_cell = CELL.accepts(compiled.type) and compiled.type != ANY
            if not (self.one_cell or ListOf(CELL).accepts(compiled.type)):
                b.error(b.pos(spec, "cells"), f"'cells' must be a cell or a list of cells (say empty_cells), not "
                        f"{compiled.type}")
            self.allowed, self.allowed_text = compiled.fn, b.describe(spec["cells"])
        self.touching = b.bool_setting(spec, "touching", self.allowed is None or not b.has_edges())
        grid = b.game.grid
        if not self.touching and grid is not None and not b.has_edges():
            b.error(b.pos(spec, "touching"), "'touching: false' needs a board with fixed edges (width and height, or a hex board)")
            self.touching = True
        self.drop = b.bool_setting(spec, "drop", False)
        if self.drop and not (isinstance(grid, SquareGrid) and b.has_edges()):
            b.error(b.pos(spec, "drop"), "'drop: true' needs a square board with fixed edges (width and height)")
            self.drop = False
        self.bracket = read_bracket(b, spec)
        self.optional = b.bool_setting(spec, "optional", False)
        self.then = b.program(spec["then"], b.pos(spec, "then"), bind={"placed": ANY_COMPONENT}) if "then" in spec else None
        if self.then is not None and ASKS in self.then.reach:  # it runs inside the placement: nobody could be asked
            b.error(b.pos(spec, "then"), "a place step's 'then' cannot ask a player (choose): it runs as part of the "
                    "placement, which is the player's one decision", "ask in a 'do' step after the place step; a counter "
                    "set in 'then' (marked(placed) = 1) tells it which piece was placed")
        self.stacking = bool(grid and grid.stacking)
        self.board_order = {c: i for i, c in enumerate(grid.cells)} if grid is not None else {}  # cell -> its place in the board's list
        big = 1 << 30
        self.limited = bool(grid and (grid.max_width or grid.max_height))
        self.origin = grid.cells if isinstance(grid, PointsBoard) else ORIGIN  # where a first piece touching none may go
        self.width = (grid.max_width or big) if grid else big
        self.height = (grid.max_height or big) if grid else big
        # Whether the placements are every piece on offer on every cell allowed (no restriction, bracket, pass):
        # then entering the step lists them straight away.
        self.plain = self.restrict is None and self.bracket is None and not (self.optional or self.must_pass)
        # Whether they are the empty cells where a piece brackets a line, read from a bit board (see _placements),
        # with no pass beside them: then entering lists them straight away too, while there are some.
        self.bit_bracket = (self.restrict is None and self.allowed is None and self.bracket is not None
                            and self.bracket.required and self.bracket.board is not None
                            and not (self.touching or self.drop or self.optional))

    def flips_on_bits(self) -> "tuple[BitBoard, CellKind, list[list[Any]]] | None":
        """(the bit board, the kind of cells kept by value, the bracket's values by face then component) when this
        step's placements go where their one piece brackets on a bit board (see :attr:`bit_bracket`), what they
        bracket is turned over and nothing follows a placement (no ``then``, no queue of placements): what a turn
        written out as source (engine/compiling/turn_code.py) does inline; None for any other step."""
        bracket = self.bracket
        if (not self.bit_bracket or bracket is None or bracket.board is None or bracket.kind is None
                or bracket.zone is not None or self.then is not None or self.game.queues_placements):
            return None
        return bracket.board, bracket.kind, bracket.values

    def plain_cells(self) -> "Callable[[StateView], list[tuple[int, int]]] | None":
        """What lists the cells a piece may go to now (:meth:`cells`; the kept lowest cells of the columns, for a
        step that drops its pieces into them) when this step's placements are every piece on offer on every cell
        allowed (see :attr:`plain`) and nothing follows a placement (no ``then``, no queue of placements): what a
        turn written out as source (engine/compiling/turn_code.py) lists and applies inline; None for any other
        step."""
        if not self.plain or self.then is not None or self.game.queues_placements:
            return None
        return self._lowest if self.drop and self.allowed is None else self.cells

    # -- decisions

    def enter(self, s: "StateView") -> bool:
        if self.plain:  # nothing but pieces and cells to weigh: the placements, unless there are none
            pieces = self.pieces(s)
            if pieces:
                cells = self.cells(s)
                if cells:
                    s._actions = ProductSpace(self, pieces, cells)  # the pending decision: keep it
                    return True
        elif self.bit_bracket:  # one piece on offer: the cells where it brackets, read from the bits when asked for
            pieces = self.pieces(s)
            if len(pieces) == 1:
                (cid, face), = pieces
                bracket = self.bracket
                assert bracket is not None and bracket.board is not None
                found = bracket.found(s, bracket.values[face][cid], False)
                if found:
                    s._actions = CellSpace(self, (cid, face), bracket.board, found)
                    return True
        space = self._placements(s)
        if len(space) == 0:
            if self.must_pass:
                if self._nobody_can_place(s):
                    actor = s.actor
                    s.outcome = self.game.score(s).ending("end condition")
                    s.note(lambda: f"{actor} cannot place anything, nor can anyone else: game over: "
                                   f"{s.outcome.text if s.outcome else ''}")
                    return False
                s._actions = ListSpace(self, [PASS])
                return True
            s.no_move(s.acting_role)
            if not self._end(s):
                s.note(lambda: f"{s.actor} cannot place anything and passes")
            return False
        # the pending decision: keep it (with placements, only an optional step adds a pass)
        s._actions = self._with_pass(space) if self.optional else space
        return True

    def _nobody_can_place(self, s: "StateView") -> bool:
        """Whether no other role could place anything either, were it its turn now."""
        for turn in range(len(s.order)):
            if turn != s.turn:
                other = s.clone()
                other.turn = turn
                if len(self._placements(other)):
                    return False
        return True

    def ends_game_now(self, s: "StateView") -> bool:
        """With ``if_none: end``: when nothing may be placed, the game ends now."""
        if not self.ends or (self.condition is not None and not self.condition(s, self.env)):
            return False
        return len(self.actions(s)) == 0 and self._end(s)

    def _end(self, s: "StateView") -> bool:
        """With ``if_none: end``, end and score the game (True); else do nothing."""
        if not self.ends:
            return False
        actor = s.actor
        s.outcome = self.game.score(s).ending("end condition")
        s.note(lambda: f"{actor} cannot place anything: game over: {s.outcome.text if s.outcome else ''}")
        return True

    def cells(self, s: "StateView") -> list[tuple[int, int]]:
        """The cells a piece may go to now: those the board and the step allow, and of them, with ``cells``, only
        the ones it names."""
        found = self._board_cells(s)
        if self.allowed is None:
            return found
        named = self.named_cells(s)
        return [c for c in found if c in named]

    def named_cells(self, s: "StateView") -> set[tuple[int, int]]:
        """The cells the step's ``cells`` names now (one cell or a list; none dropped)."""
        value = self.allowed(s, [None] * self.allowed_slots)
        if value is None:
            return set()
        if self.one_cell or (isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)):
            return {tuple(value)}  # one cell (also when its type was not known before play)
        return {tuple(c) for c in value if isinstance(c, tuple)}

    def _board_cells(self, s: "StateView") -> list[tuple[int, int]]:
        """The cells the board and the step's ``touching`` and ``drop`` allow now."""
        if self.drop:
            return self._lowest(s)
        if not self.touching:
            return list(self.game.grid.cells) if self.stacking else list(s.empty)
        if not s.grid:
            return list(self.origin)
        free = list(s.frontier)
        if self.limited:
            bx0, bx1, by0, by1 = s.bbox
            width, height = self.width, self.height
            if bx1 - bx0 + 1 >= width or by1 - by0 + 1 >= height:  # else every cell next to the box fits the limits
                x0, x1, y0, y1 = bx1 - width + 1, bx0 + width - 1, by1 - height + 1, by0 + height - 1
                free = [c for c in free if x0 <= c[0] <= x1 and y0 <= c[1] <= y1]
        return [*s.grid, *free] if self.stacking else free

    def _lowest(self, s: "StateView") -> list[tuple[int, int]]:
        """The lowest empty cell of each column that has room (``drop``), as the state keeps them."""
        return list(filter(None, s.lowest))

    def pieces(self, s: "StateView") -> tuple[tuple[int, int], ...]:
        """The (component, face) pairs on offer: identical components in the zone once, by the first of them.

        For a zone of at most :data:`KEPT_ZONE` pieces they are kept, keyed by the zone's contents (and, put down as
        they are in a game where some piece has more than one face, the faces they show), so the same hand is looked
        through once (a key of a few dozen numbers is hashed and compared in C): a decision after one that placed
        nothing from it, or another game dealt the same hand, reads them back.  A zone whose count of copies the
        state keeps (see :meth:`_firsts`: a big one, when first walked) and that holds copies of one piece only
        offers what its first piece alone would, whatever its size now: read back the same way.
        """
        zone = self.source(s)
        hand = listed(s, zone)
        tally = self.copy_tallies.get(zone) if self.copy_tallies else None
        if tally is not None and hand and (tally in s.same_faces or distinct_values(s, tally) == 1):  # copies of one
            first = hand[0]
            hand = [first]
            key = (first, s.face[first]) if self.faces_vary else (first,)  # the key of that one-piece zone
        elif len(hand) <= KEPT_ZONE:
            key = (*hand, *map(s.face.__getitem__, hand)) if self.faces_vary else tuple(hand)
        else:
            return self._offers(s, hand, zone)
        kept = self.kept_offers.get(key)
        if kept is None:
            if len(self.kept_offers) >= KEPT_HANDS:
                self.kept_offers.clear()
            kept = self.kept_offers[key] = self._offers(s, hand, zone)
        return kept

    def _offers(self, s: "StateView", hand: Sequence[int], zone: int) -> tuple[tuple[int, int], ...]:
        """The (component, face) pairs on offer from ``hand``, the contents of ``zone``, worked out afresh (see
        :meth:`pieces`)."""
        if self.game.identical:
            hand = self._firsts(s, hand, zone)
        if self.choose_face:
            options = self.game.piece_options
            return tuple([p for cid in hand for p in options[cid]])
        if self.as_is:
            face = s.face
            return tuple([(cid, face[cid]) for cid in hand])
        fixed = self.fixed  # the step names the face: identical copies show the same one, or have none
        return tuple([(cid, fixed[cid]) for cid in hand if fixed[cid] is not None])  # type: ignore[misc]

    def _firsts(self, s: "StateView", hand: Sequence[int], zone: int) -> Iterable[int]:
        """The components of ``hand``, the contents of ``zone``, that stand for identical copies after them (in a
        game that has some): the first of each name (of each name and face, when the piece is put down as it is),
        in order.

        Identical copies share their name, faces and face options, so the rest would only offer the same again.
        In a zone of more than :data:`KEPT_ZONE` pieces whose last different piece, the first time the step walks
        it, has more than :data:`COUNT_SKIPS` copies after it (a stock of many copies), the state counts each name
        (and face) the zone holds (engine.core.face_tallies), so the walk stops once it has met as many as there
        are (a count kept where it would save little costs more per move than it saves).  Not on the board, whose
        faces groups turn by hand.  Where copies differ by name only and the zone is offered as it lies, the state
        notes what the walk found and its moves keep the note (engine/core/kept_firsts.py): read back, not walked.
        """
        different = -1  # how many different copies the zone holds (-1: not known, the whole zone is walked)
        big = len(hand) > KEPT_ZONE and zone != self.game.board_zone
        noting = big and not self.as_is and hand is s.zones[zone]  # (a zone offered in another order is walked)
        if noting:
            note = s.firsts.get(zone)
            if note is not None:
                return note.values()
        tally = self.copy_tallies.get(zone, False) if big else None
        if tally:
            different = distinct_values(s, tally)
        first: dict[Any, int] = {}
        if self.as_is:
            face, keys = s.face, self.piece_keys
            for cid in hand:
                key = keys[face[cid]][cid]
                if key not in first:
                    first[key] = cid
                    if len(first) == different:
                        break
        else:
            names = self.game.piece_names
            for cid in hand:
                name = names[cid]
                if name not in first:
                    first[name] = cid
                    if len(first) == different:
                        break
        if tally is False:  # the first walk of this zone: keep its count if stopping early skips most of it
            last = hand.index(next(reversed(first.values())))
            self.copy_tallies[zone] = FaceTally(zone, self.copy_keys) if len(hand) - last - 1 > COUNT_SKIPS else None
        if noting:
            s.firsts[zone] = first
        return first.values()

    def actions(self, s: "StateView") -> ActionSpace:
        return self._with_pass(self._placements(s))

    def _with_pass(self, space: ActionSpace) -> ActionSpace:
        """The placements and, when the step allows it, ``pass``."""
        if self.optional and len(space):
            return ChainSpace(self, ListSpace(self, [PASS]), space)
        if self.must_pass and not len(space):
            return ListSpace(self, [PASS])
        return space

    def _placements(self, s: "StateView") -> ActionSpace:
        pieces = self.pieces(s)
        if not pieces:
            return ListSpace(self, [])
        if self.restrict is not None and self.restrict(s, self.restrict_env):
            return ListSpace(self, self._triggering(s, pieces, self.cells(s)))
        bracket = self.bracket
        if bracket is not None and bracket.required:
            values = bracket.values
            if bracket.board is not None and not (self.touching or self.drop):  # any empty cell: those that bracket
                if len(pieces) == 1 and self.allowed is None:  # the cells read from the bits only when asked for
                    (cid, face), = pieces
                    return CellSpace(self, (cid, face), bracket.board, bracket.found(s, values[face][cid], False))
                named = self.named_cells(s) if self.allowed is not None else None
                return ListSpace(self, [(cid, face, cell) for cid, face in pieces
                                        for cell in bracket.anywhere(s, values[face][cid]) if named is None or cell in named])
            frontier = s.frontier  # a cell that brackets a piece is next to it (and, without stacking, empty)
            if self.touching or self.drop or self.stacking:
                cells = [c for c in self.cells(s) if c in frontier]
            else:  # every cell is free: those of the frontier, in the board's order
                named = self.named_cells(s) if self.allowed is not None else None
                cells = sorted([c for c in frontier if named is None or c in named], key=self.board_order.__getitem__)
            return ListSpace(self, [(cid, face, cell) for cid, face in pieces
                                    for cell in bracket.bracketing(s, cells, values[face][cid])])
        return ProductSpace(self, pieces, self.cells(s))

    def _triggering(self, s: "StateView", pieces: Sequence[tuple[int, int]], cells: list[tuple[int, int]]) -> list[tuple[Any, ...]]:
        """The placements of ``pieces`` on ``cells`` that make a later step of the turn act, piece by piece."""
        later = self.game.steps[self.index + 1:]
        acting: dict[tuple[int, int], set[int]] = {}
        for step in later:
            for cell, found in step.triggering(s, cells, pieces).items():
                acting.setdefault(cell, set()).update(found)
        cells = [cell for cell in cells if cell in acting]  # (in their order: most cells make nothing act)
        return [(cid, face, cell) for i, (cid, face) in enumerate(pieces) for cell in cells if i in acting[cell]]

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        if args == PASS:
            s.note(lambda: f"{s.actor} passes" if self.must_pass else f"{s.actor} places nothing more")
            return True
        cid, face, cell = args
        on = s.grid.get(cell) if s.log is not None else None  # the piece beneath, for the log
        s.place(cid, cell, face)
        s.slices[Placed.block] = self.placed[cid]
        if self.game.queues_placements:
            note_placed(s, cid)
        log = s.log
        if log is not None:
            top = f" on {self.game.describe_piece(on, s.face[on])}" if on is not None else ""
            log.append(f"{s.actor} places {self.game.describe_piece(cid, face)} at {self.game.cell_text(cell, brackets=True)}{top}")
        if self.bracket is not None:
            captured = self.bracket.capture(s, cell, self.bracket.values[face][cid])
            if log is not None:
                s.note(lambda: f"{captured} bracketed piece{'s' if captured != 1 else ''} captured")
        if self.then is not None:
            refill(s)
            env = [None] * self.then.slots
            env[0] = cid
            self.then.fn(s, env)
        return True

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return () if args == PASS else (args[0],)

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``pass`` when optional or forced, and ``place NAME [as FACE] at X,Y`` for every component, face it may show and cell."""
        pieces: list[str] = []
        for cid, name in enumerate(game.piece_names):
            if not (self.choose_face or self.as_is):
                pieces += [name] if self.fixed[cid] is not None else []
            elif game.face_count[cid] == 1:
                pieces.append(name)
            else:
                faces = [face for _, face in game.piece_options[cid]] if self.choose_face else range(game.face_count[cid])
                pieces += [f"{name} as {game.face_labels[cid][face]}" for face in faces]
        cells = cell_texts(game, board_cells(game))
        passes = ["pass"] if self.optional or self.must_pass else []
        pieces = list(distinct(pieces))
        if len(pieces) * len(cells) > MOST_TEXTS:  # a large board times many components: too many to hold in memory
            return Texts(tuple(passes), unlisted=f"where a component goes ('place NAME at X,Y'): {len(pieces):,} "
                                                 f"components times {len(cells):,} cells, more than {MOST_TEXTS:,}")
        return Texts(distinct([*passes, *(f"place {p} at {c}" for p in pieces for c in cells)]))

    def format(self, args: tuple[Any, ...]) -> str:
        if args == PASS:
            return "pass"
        cid, face, cell = args
        g = self.game
        if not (self.choose_face or self.as_is) or g.face_count[cid] == 1:  # the step names the face, or there is only one
            return f"place {g.piece_names[cid]} at {self.game.cell_text(cell)}"
        return f"place {g.piece_names[cid]} as {g.face_labels[cid][face]} at {self.game.cell_text(cell)}"

    def parse(self, s: "StateView", text: str) -> Action:
        """Also accepts ``place ID at X,Y`` when the component shows only one face (or faces are not chosen)."""
        m = re.fullmatch(r"\s*place\s+(\S+)\s+at\s+(.+)", text)
        if m:
            cid = self._component(s, m.group(1))
            cell = self.game.read_cell(m.group(2))
            if cid is not None and cell is not None:
                fixed = self.fixed[cid]
                faces = self.game.distinct_faces[cid] if self.choose_face else (s.face[cid],) if self.as_is else (fixed,)
                if len(faces) == 1 and faces[0] is not None:
                    action = Action(self, (cid, faces[0], cell))
                    if action in self.actions(s):
                        return action
        return super().parse(s, text)

    def _component(self, s: "StateView", name: str) -> int | None:
        """The component a name means: itself, or for identical copies the first one in the source zone."""
        g = self.game
        cid = g.component_ids.get(name)
        if cid is not None or name not in g.identical:
            return cid
        names = g.piece_names
        return next((c for c in s.zones[self.source(s)] if names[c] == name), None)

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        m = re.fullmatch(r"\s*place\s+(\S+)\s+(?:as\s+(\S+)\s+)?at\s+(.+)", text)
        if not m:
            may_pass = " (or 'pass')" if any(a.args == PASS for a in self.actions(s)) else ""
            return f"'{text}' is not a placement; write it like 'place {self._example(s)}'{may_pass}"
        name, label, cell_text = m.groups()
        g = self.game
        cid = self._component(s, name)
        if cid is None and name in g.identical:
            return f"there is no {name} left in {self.source.describe(s)}"
        if cid is None:
            from engine.core.errors import did_you_mean

            hint = did_you_mean(name, [*g.component_ids, *g.identical])
            return f"there is no component '{name}'" + (f" ({hint})" if hint else "")
        if self.fixed[cid] is None and not (self.choose_face or self.as_is):
            return f"{name} has no {self.face_rule} face to show"
        if cid not in s.zones[self.source(s)]:
            return f"{name} is not in {self.source.describe(s)}"
        if label is not None and label not in g.face_labels[cid]:
            return f"{name} has no face '{label}' (its faces are {' and '.join(g.face_labels[cid])}){_named(g, cid, label)}"
        if label is not None and g.face_count[cid] == 1:  # its one face is never written
            return f"{name} has a single face, which a placement does not name: 'place {name} at {cell_text}'"
        if label is None and len(g.distinct_faces[cid]) > 1 and self.choose_face:
            return f"say which face of {name} to show: 'place {name} as {g.face_labels[cid][0]} at {cell_text}'"
        cell = g.read_cell(cell_text)
        if cell is None:
            return f"'{cell_text}' is not a cell; write it like 1,0"
        if not g.grid.contains(cell):
            return f"cell {g.cell_text(cell)} is not on the board"
        if cell in s.grid and not self.stacking:
            return f"cell {g.cell_text(cell)} is already taken"
        if self.drop and cell not in self._lowest(s):
            return f"cell {g.cell_text(cell)} is not the lowest empty cell of its column"
        if self.allowed is not None and cell not in self.named_cells(s):
            return f"cell {g.cell_text(cell)} is not one of the cells this step allows ({self.allowed_text})"
        if self.bracket is not None and self.bracket.required and cell not in [a.args[2] for a in self.actions(s) if a.args != PASS]:
            return f"a piece at {g.cell_text(cell)} would not bracket any line of pieces with another {self.bracket.attribute}"
        if not self.touching:
            return None
        if s.grid and cell not in s.frontier and cell not in s.grid:
            return f"cell {g.cell_text(cell)} does not touch any piece"
        if not g.grid.fits(s.bbox, cell):
            return f"cell {g.cell_text(cell)} would make the board larger than {g.grid.max_width}x{g.grid.max_height}"
        if not s.grid and cell not in self.origin:
            return "the first piece goes at 0,0"
        return None

    def _example(self, s: "StateView") -> str:
        """A placement offered now, without its verb, to show how one is written (an optional step's ``pass`` is
        no placement): ``PIECE at 0,0``."""
        placed = next((a for a in self.actions(s) if a.args != PASS), None)
        return str(placed)[len("place "):] if placed is not None else "CARD as FACE at X,Y"

    def describe(self) -> str:
        face = "with the face of their choice up" if self.choose_face else "as it is" if self.as_is else f"with its {self.face_rule} face up"
        where = "touching a piece already there (the first one anywhere)" if self.touching else "on any empty cell"
        if self.drop:
            where = "dropped into a column, where it falls to the lowest empty cell"
        if self.stacking:
            where += " or on top of a piece"
        if self.allowed is not None:
            named = f"on {self.allowed_text}" if self.one_cell else f"on the cells given by {self.allowed_text}"
            where = f"{where}, {named}" if self.touching or self.drop or self.stacking else named
        g = self.game.grid
        limit = f", keeping all pieces within {g.max_width}x{g.max_height}" if g.max_width else ""
        text = f"place a component from the {self.source.name} onto the board {face}, {where}{limit}"
        if self.optional:
            text = "the player may " + text
        if self.then is not None:
            text += f"; then {self.then.description}"
        if self.restrict is not None:
            text += (f"; once {self.restrict_text}, only a placement that makes a later step act (forms a group, or makes "
                     f"two groups of different markers clash) is allowed")
        if self.bracket is not None:
            text += f"; {self.bracket.describe()}"
        if self.ends:
            text += "; when nothing may be placed, the game ends"
        if self.must_pass:
            text += "; a player who cannot place must pass, and when nobody can place the game ends"
        return text


def _named(game: "GameView", cid: int, label: str) -> str:
    """The hint for a face typed by the name its kind declares where actions write what it shows: faces named
    ``[r0, r1]`` with a per-face attribute ``turns: [0, 1]`` are written ``as 0``, ``as 1``."""
    faces = game.face_names[game.component_kind[cid]]
    if label not in faces:
        return ""
    shown = game.face_labels[cid][faces.index(label)]
    return f": a face is written as the values its per-face attributes show, so face {label} is '{shown}'"


BLOCK = declare(Block(
    "placement",
    slices=(Placed, Queued,),
    steps={
        "place": {
            "description": "The player places a component from a zone onto the board.",
            "$ref": "#/$defs/placeStep",
        },
    },
    defs={
        "placeStep": {
            "description": "`place: {from: hand, to: board, face: choose}`.",
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {
                    "description": "The zone to take the component from (a per-role zone means the current role's).",
                    "$ref": "#/$defs/zoneName",
                },
                "to": {"description": "Where the component goes: the board.", "enum": ["board"], "default": "board"},
                "face": {
                    "description": ("`choose`: the player picks the face shown; `as-is`: the component keeps its "
                                    "current face; a face name (e.g. `single`): the component is put down showing "
                                    "that face."),
                    "type": "string",
                    "default": "choose",
                    "examples": ["choose", "as-is", "single"],
                },
                "only_triggering": {
                    "description": ("While this condition holds, only placements that make a later step of the turn "
                                    "act (e.g. form or connect a group) are legal."),
                    "$ref": "#/$defs/condition",
                },
                "if_none": {
                    "description": ("When nothing may be placed: `pass` the turn (no decision), `end` the game "
                                    "(scored as usual), or `must-pass`: the player's only action is `pass`, a move "
                                    "the game counts (when no player could place, the game ends)."),
                    "enum": ["pass", "end", "must-pass"],
                    "default": "pass",
                },
                "drop": {
                    "description": ("The piece is dropped into a column and falls to its lowest empty cell (a board "
                                    "with fixed edges): one choice per column with room."),
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "bracket": {
                    "description": ("Bracketing captures: every straight line of pieces with another value of "
                                    "`attribute` that the placed piece closes off with a piece of its own value is "
                                    "captured."),
                    "type": "object",
                    "properties": {
                        "attribute": {
                            "description": "The attribute that tells rival pieces apart.",
                            "type": "string",
                        },
                        "capture": {
                            "description": ("`flip`: captured pieces turn to their next face; or a shared zone they "
                                            "move to."),
                            "type": "string",
                            "default": "flip",
                        },
                        "required": {
                            "description": "Only placements that bracket at least one piece are legal.",
                            "$ref": "#/$defs/flag",
                            "default": True,
                        },
                    },
                    "required": ["attribute"],
                    "additionalProperties": False,
                },
                "touching": {
                    "description": ("true: after the first piece (at 0,0), a piece must touch one already there "
                                    "(and the board's size limits apply); false: any empty cell of a board with "
                                    "fixed edges. True/false or an option name."),
                    "$ref": "#/$defs/flag",
                    "default": True,
                },
                "cells": {
                    "description": ("The cells a piece may go to now, an expression giving a cell or a list of "
                                    "cells (`front(current_role)`): only those of them the step allows otherwise "
                                    "are offered. On a board with edges `touching` is then false unless given."),
                    "$ref": "#/$defs/expression",
                    "examples": ["front(current_role)", "home_row(current_role)"],
                },
                "optional": {
                    "description": "Whether the player may `pass` instead of placing: true/false or an option name.",
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "then": {
                    "description": ("A program run after the piece is placed (`placed` is the piece), e.g. paying "
                                    "for it."),
                    "$ref": "#/$defs/program",
                    "examples": ["gold(current_role) -= 2"],
                },
            },
            "required": ["from"],
            "additionalProperties": False,
        },
    },
))
