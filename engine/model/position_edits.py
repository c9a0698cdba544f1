"""The changes effects make to a position: a component moved between zones, placed on or lifted from the board,
stacked, swapped, shuffled, flipped or shown, and counters set, each keeping the state's kept tallies up to date.

The methods of :class:`~engine.model.state.State` that do it, kept in their own class for the reader
(``State`` inherits it; it holds no data of its own).

Example::

    s.move(cid, zone)                # what an effect's move() does, its tallies kept
    s.set_counter(index, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from engine.blocks.counters import component_key, key_label
from engine.blocks.hooks import unseen
from engine.blocks.kept_lines import extend_lines, forget_lines
from engine.blocks.walls import Walls
from engine.core import rng
from engine.core.errors import SourcePos
from engine.core.face_tallies import joined, reface_counts, rezone
from engine.core.kept_firsts import arrive, leave
from engine.core.facedown import FaceDown, public_name, turn_up
from engine.core.shown import Shown, forget
from engine.core.kept_cells import flip_cells, recell, reface
from engine.core.kept_columns import rise, sink
from engine.core.kept_frontier import FrontierLog
from engine.core.kept_pairs import pair_up, unpair
from engine.core.tallies import retally
from engine.model.board_views import UNKNOWN
from engine.model.state_fields import Cell, StateFields

if TYPE_CHECKING:
    from engine.blocks.counters import CounterSpec


class PositionEdits(StateFields):
    """The changes effects make to a position: moving, placing, stacking, swapping, shuffling, flipping, showing, counting."""

    __slots__ = ()

    def move(self, cid: int, zone: int, at: int | None = None) -> None:
        """Move a component to the end of a zone (off the board if it was on it); ``at``: to that index instead (0 is
        the top of a pile)."""
        self._actions = None
        old = self.zone_of[cid]
        firsts = self.firsts
        if firsts and old in firsts:
            leave(firsts, self.game.piece_names, self.zones[old], cid, old)
        else:
            self.zones[old].remove(cid)
        if self.cell_of[cid] is not None:
            self._lift(cid)
        self.zone_of[cid] = zone
        if FaceDown.block in self.slices:  # a piece leaving the board is turned up
            turn_up(self, cid)
        if Shown.block in self.slices and old != zone:  # what a role was shown is forgotten when it moves away
            forget(self, (cid,))
        if at is None:
            self.zones[zone].append(cid)
            if firsts and zone in firsts:
                arrive(firsts, self.game.piece_names, cid, zone)
        else:
            self.zones[zone].insert(at, cid)
            if firsts:
                firsts.pop(zone, None)
        if self.tallies:
            retally(self.tallies, cid, old, zone)
        if self.face_tallies:
            rezone(self.face_tallies, self.face, cid, old, zone)
        if self.same_faces and old != zone:
            joined(self.same_faces, self.face, cid, zone)

    def stack(self, cell: Cell) -> tuple[int, ...]:
        """The pieces on a cell, from the top down (empty when there are none)."""
        top = self.grid.get(cell)
        return () if top is None else (top, *self.stacks.get(cell, ()))

    def place(self, cid: int, cell: Cell, face: int | None = None) -> None:
        """Put a component on the board at ``cell`` (optionally showing ``face``), on top of any piece already there."""
        self._actions = None
        old = self.zone_of[cid]
        firsts = self.firsts
        if firsts and old in firsts:  # (the board is never noted: its pieces come and go anywhere)
            leave(firsts, self.game.piece_names, self.zones[old], cid, old)
        else:
            self.zones[old].remove(cid)
        if self.cell_of[cid] is not None:
            self._lift(cid)
        board = self.game.board_zone
        self.zone_of[cid] = board
        self.zones[board].append(cid)
        if Shown.block in self.slices and old != board:
            forget(self, (cid,))
        if self.tallies:
            retally(self.tallies, cid, old, board)
        if self.face_tallies:  # (the board has none: its pieces turn over freely; nor do same_faces note it)
            rezone(self.face_tallies, self.face, cid, old, board)
        self.cell_of[cid] = cell
        if face is not None:
            self.face[cid] = face
        grid = self.grid
        below = grid.get(cell)
        grid[cell] = cid
        if self.by_value:
            recell(self.by_value, self.face, cell, below, cid)
        if below is not None:  # stacking: the piece that was there goes beneath
            self.stacks[cell] = (below, *self.stacks.get(cell, ()))
            if self.lines:
                forget_lines(self, cid)
            return
        if self.lines:
            if self.stacks:  # a cell's pieces beneath count too: searched again when asked
                forget_lines(self, cid)
            else:
                extend_lines(self, cid, cell)
        if self.pairs:
            pair_up(self.pairs, grid, cell)
        if self._empty is not None:
            self._empty.pop(cell, None)
        if self._lows is not None:
            rise(self._lows, grid, self.game.grid.columns, cell)
        frontier = self._frontier
        if frontier.__class__ is FrontierLog:
            if frontier.note(cell, True):
                self._frontier = frontier.replay(self.game.grid.neighbours)
        elif frontier is not None:
            frontier.pop(cell, None)
            for n in self.game.grid.neighbours(cell):
                if n not in grid:
                    frontier[n] = None
        bbox = self._box
        if bbox is not UNKNOWN:
            x, y = cell
            if bbox is None:
                self._box = (x, x, y, y)
            else:
                x0, x1, y0, y1 = bbox  # type: ignore[misc]
                if not (x0 <= x <= x1 and y0 <= y <= y1):
                    self._box = (x if x < x0 else x0, x if x > x1 else x1, y if y < y0 else y0, y if y > y1 else y1)

    def place_at_once(self, moves: list[tuple[int, Cell]]) -> None:
        """Put each component on its cell together: every one is lifted off the board first, so one may go where
        another was (``[(a, (1, 0)), (b, (0, 0))]`` swaps two pieces), then each is placed in the order given."""
        for cid, _ in moves:
            if self.cell_of[cid] is not None:
                self._lift(cid)
        for cid, cell in moves:
            self.place(cid, cell)

    def _lift(self, cid: int) -> None:
        """Take a component off the board and update the board's frontier and box around its cell."""
        cell = self.cell_of[cid]
        self.cell_of[cid] = None
        if self.lines:
            forget_lines(self, cid)
        if self.by_value and self.grid[cell] == cid:
            recell(self.by_value, self.face, cell, cid, self.stacks[cell][0] if cell in self.stacks else None)
        below = self.stacks.pop(cell, None) if self.stacks else None
        if below is not None:  # the cell keeps a piece
            if self.grid[cell] == cid:
                self.grid[cell], below = below[0], below[1:]
            else:
                below = tuple(c for c in below if c != cid)
            if below:
                self.stacks[cell] = below
            return
        frontier = self._frontier
        if frontier is None:  # the board's order of cells no longer tells the moves' order: noted from here on
            frontier = self._frontier = FrontierLog(self.grid)
        del self.grid[cell]
        self._empty = None  # the cell would go back in the middle: worked out again when next read
        if self._lows is not None:
            sink(self._lows, self.game.grid.columns, cell)
        if self.pairs:
            unpair(self.pairs, cell)
        grid, around = self.grid, self.game.grid.neighbours
        if frontier.__class__ is FrontierLog:
            if frontier.note(cell, False):
                self._frontier = frontier.replay(around)
        else:
            apart = grid.keys().isdisjoint  # no piece among the cells given (a look-up each, in C)
            for n in around(cell):
                if n in frontier and apart(around(n)):
                    del frontier[n]
            if not apart(around(cell)):
                frontier[cell] = None
        x, y = cell
        bbox = self._box
        if bbox is not None and bbox is not UNKNOWN and (x in bbox[:2] or y in bbox[2:]):  # type: ignore[index]
            self._box = UNKNOWN  # on the edge: the box may shrink, worked out again when asked

    def set_walls(self, walls: frozenset[tuple[Cell, Cell]]) -> None:
        """Stand ``walls`` between the board's cells instead of those standing (``build_wall``, ``remove_wall``): from
        now on the state plays on its game's board with those walls (:meth:`Game.with_walls`), and saves them."""
        self._actions = None
        self.game = self.game.with_walls(walls)
        self.slices[Walls.block] = Walls(tuple(sorted(walls)))
        self._frontier = None  # the empty cells next to a piece: worked out again when asked (a board with walls has edges)

    def swap(self, a: int, b: int) -> None:
        """Exchange the places of two components: places in zones, board cells, heights in stacks."""
        self._actions = None
        za, zb = self.zone_of[a], self.zone_of[b]
        ia, ib = self.zones[za].index(a), self.zones[zb].index(b)
        self.zones[za][ia], self.zones[zb][ib] = b, a
        if self.firsts:
            self.firsts.pop(za, None)
            self.firsts.pop(zb, None)
        self.zone_of[a], self.zone_of[b] = zb, za
        if Shown.block in self.slices and za != zb:
            forget(self, (a, b))
        if self.tallies:
            retally(self.tallies, a, za, zb)
            retally(self.tallies, b, zb, za)
        if self.face_tallies:
            rezone(self.face_tallies, self.face, a, za, zb)
            rezone(self.face_tallies, self.face, b, zb, za)
        if self.same_faces and za != zb:
            joined(self.same_faces, self.face, a, zb)
            joined(self.same_faces, self.face, b, za)
        ca, cb = self.cell_of[a], self.cell_of[b]
        if self.lines and (ca is not None or cb is not None):
            forget_lines(self, a)
            forget_lines(self, b)
        for cell in dict.fromkeys(c for c in (ca, cb) if c is not None):
            pieces = [b if c == a else a if c == b else c for c in self.stack(cell)]
            if self.by_value and self.grid[cell] != pieces[0]:
                recell(self.by_value, self.face, cell, self.grid[cell], pieces[0])
            self.grid[cell] = pieces[0]
            if len(pieces) > 1:
                self.stacks[cell] = tuple(pieces[1:])
        self.cell_of[a], self.cell_of[b] = cb, ca
        if FaceDown.block in self.slices:  # a piece leaving the board is turned up
            for c in (a, b):
                if self.cell_of[c] is None:
                    turn_up(self, c)

    def shuffle(self, zone: int) -> None:
        """Shuffle a zone's order with the state's generator (Fisher–Yates); what was shown of it is forgotten."""
        self._actions = None
        self.rng = rng.shuffle(self.rng, self.zones[zone])
        if self.firsts:
            self.firsts.pop(zone, None)
        if Shown.block in self.slices:  # nobody knows where a shown component lies in it any more
            forget(self, self.zones[zone])

    def _whose(self, owner: Any, spec: "CounterSpec | None" = None) -> str:
        """`` of OWNER`` in the log line of a counter's change: a component by name where every seat sees it (one of
        identical copies by where it lies too: `` of X at (2,0)``), else only where it lies (`` of a component in hand
        of A``); '' for a game-wide counter; a keyed counter's key after it (`` of A (X)``, `` (7)``: ``spec``'s)."""
        if owner is None:
            return ""
        if isinstance(owner, tuple):  # a keyed counter's: `` of A (X)``, `` (7)``, `` of A (a component in hand of B)``
            who, key = owner
            keyed = component_key(spec, owner) if spec is not None else None
            hidden = keyed is not None and unseen(self, keyed)  # told as where it lies, as an owner lying there is
            return f"{self._whose(who)} ({self._whose(keyed)[4:] if hidden else key_label(self.game, spec, key)})"
        if not isinstance(owner, int):
            return f" of {owner}"
        g, zone = self.game, self.zone_of[owner]
        if g.component_names[owner] != g.piece_names[owner]:  # a copy: its id is no reader's word, its place tells it
            from engine.blocks.state_functions import placed_text

            return f" of {placed_text(self, owner)}"
        if zone == g.board_zone or g.zone_spec_of[zone].hidden == "none":
            return f" of {public_name(self, owner, g.component_names[owner])}"
        return f" of a component in {g.zone_names[zone]}"

    def set_counter(self, spec: "CounterSpec", owner: Any, index: int, value: int,
                    by: Any = None, source: Any = None, pos: SourcePos | None = None) -> None:
        """Store a counter's new value (clamped to its bounds) at ``index``, say so in the log (unless the counter is
        bookkeeping, ``shown: false``), and tell its watcher.

        Every change of a counter in play goes through here (code's ``gold(r) -= 2``, a step's own writes), so a
        meter's thresholds run whoever moves it; ``by`` and ``source`` say who and what did, ``pos`` where.
        A counter nothing watches (``spec.watch`` is None, as the compiler decided) pays nothing more::

            s.set_counter(game.counters["marks"], cid, i, s.counters[i] - 1, by=s.current_role)
        """
        self._actions = None
        old = self.counters[index]
        new = self.counters[index] = spec.clamp(self, owner, value)
        if new == old:
            return
        log = self.log if spec.shown else None  # a bookkeeping counter (shown: false) is not logged
        if log is not None and len(log) <= self.game.limits.log_lines:  # a loop's changes stop at the limit
            keyed = component_key(spec, owner)
            if unseen(self, owner) or keyed is not None and unseen(self, keyed):  # not every seat's to read
                log.append(f"{spec.name}{self._whose(owner, spec)} changes")
            else:
                log.append(f"{spec.name}{self._whose(owner, spec)}: {old} -> {new}")
        if spec.watch is not None:
            spec.watch(self, owner, old, new, by, source, pos)

    def flip(self, cid: int) -> None:
        """Turn a component to its next face."""
        self.show(cid, (self.face[cid] + 1) % self.game.face_count[cid])

    def flip_cells(self, cells: Sequence[Cell]) -> None:
        """Turn the top piece of each of ``cells`` (each once) to its next face: :meth:`flip` of each, in one loop
        (the board's pieces have no face tallies: only the cells kept by value follow the faces, in the same call).

        Example: ``s.flip_cells([(3, 3), (4, 3)])`` is ``s.flip(s.grid[(3, 3)]); s.flip(s.grid[(4, 3)])``.
        """
        self._actions = None
        if self.by_value:
            flip_cells(self.by_value, cells, self.grid, self.face, self.game.face_count)
            return
        grid, face, count = self.grid, self.face, self.game.face_count
        for cell in cells:
            cid = grid[cell]
            face[cid] = (face[cid] + 1) % count[cid]

    def show(self, cid: int, face: int) -> None:
        """Turn a component to ``face``: every change of face comes here (:meth:`flip` too), so that what the state
        keeps by face stays up to date.

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> s.show(0, 0); s.face[0]
        0
        """
        self._actions = None
        old = self.face[cid]
        self.face[cid] = face
        if (self.face_tallies or self.same_faces) and self.cell_of[cid] is None:  # off the board
            if self.face_tallies:
                reface_counts(self.face_tallies, self.zone_of[cid], cid, old, face)
            if self.same_faces:
                joined(self.same_faces, self.face, cid, self.zone_of[cid])
        if self.by_value and (cell := self.cell_of[cid]) is not None and self.grid[cell] == cid:
            reface(self.by_value, cell, cid, old, face)
