"""The mutable state of one game: small, cheap to clone, and the turn flow.

Everything that does not change during play lives in the immutable
:class:`~engine.model.game.Game`; a :class:`State` holds only what changes: which
face each component shows, what each zone holds, the board, whose turn it is,
which step of the turn is waiting for a decision, and the random generator.

Example::

    s = engine.load("my-game").new_state(players=3, seed=1)
    s.current_player                 # 1, 2 or 3; engine.TERMINAL when over (see engine.core.decisions)
    s2 = s.clone()
    s2.apply(s2.legal_actions()[0])  # s is unchanged
"""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction
from itertools import filterfalse
from numbers import Integral
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Sequence

from engine.blocks import choices
from engine.blocks.choice_labels import CHOICE, parse as parse_answer, public_choice
from engine.blocks.counters import component_key, key_label
from engine.blocks.hooks import unseen
from engine.blocks.kept_lines import LineKind, extend_lines, forget_lines
from engine.core import limits, rng
from engine.core.actions import Action, ActionSpace, EmptySpace, ListSpace, find_text, normalise
from engine.core.decisions import CHANCE, SIMULTANEOUS, TERMINAL, ChanceEvent, Decision, formatter
from engine.core.errors import EffectRuntimeError, IllegalActionError, LoadedDieError, NoMove, SourcePos
from engine.core.face_tallies import FaceTally, joined, reface_counts, rezone
from engine.core.facedown import FaceDown, public_name, turn_up
from engine.core.shown import Shown, forget
from engine.core.kept_cells import CellKind, flip_cells, recell, reface
from engine.core.kept_columns import lowest_cells, rise, sink
from engine.core.kept_frontier import FrontierLog, frontier_of
from engine.core.kept_pairs import pair_up, unpair
from engine.core.showtext import cut
from engine.core.slices import NO_CHANCE, Chance, HookTrail, TurnOrder
from engine.core.tallies import Tally, retally

if TYPE_CHECKING:
    from engine.blocks.choices import Pending, Tape
    from engine.blocks.counters import CounterSpec
    from engine.blocks.outcome import Outcome
    from engine.model.game import Game

Cell = tuple[int, int]

UNKNOWN = object()
"""The board's box while it is not known (a piece left its edge): worked out when next asked."""


class State:
    """One game in progress.  Create with :meth:`Game.new_state` (all states are made by ``__init__``)."""

    __slots__ = (
        "game",
        "players",
        "face",
        "zone_of",
        "zones",
        "grid",
        "stacks",
        "cell_of",
        "_frontier",
        "_box",
        "_empty",
        "_lows",
        "groups",
        "members",
        "positions",
        "seat_of",
        "order",
        "turn",
        "turn_number",
        "step",
        "slices",
        "decided",
        "counters",
        "rng",
        "budget",
        "outcome",
        "pending",
        "decisions",
        "chance",
        "explicit_chance",
        "tape",
        "log",
        "history",
        "_actions",
        "tallies",
        "face_tallies",
        "same_faces",
        "lines",
        "by_value",
        "pairs",
    )

    game: "Game"
    players: int
    face: list[int]
    zone_of: list[int]
    zones: list[list[int]]
    grid: dict[Cell, int]  # cell -> the piece on it (the top one of a stack)
    stacks: dict[Cell, tuple[int, ...]]  # cell -> the pieces beneath its top one, from the top down (stacking boards only)
    cell_of: list[Cell | None]
    _frontier: dict[Cell, None] | FrontierLog | None  # empty cells next to a piece, in a stable order (see frontier); None: not kept
    _box: "tuple[int, int, int, int] | None | object"  # the box of the pieces (see bbox), or UNKNOWN
    _empty: dict[Cell, None] | None  # the board's empty cells, in its order (see empty); None: not kept
    _lows: list[Cell | None] | None  # the lowest empty cell of each column (see lowest); None: not kept
    groups: dict[Cell, int]  # pattern groups on the board: anchor cell -> the component marking it (-1: none)
    members: dict[Cell, Cell]  # every cell in a pattern group -> the group's anchor (kept with ``groups``)
    positions: tuple[str, ...]
    seat_of: dict[str, int]
    order: tuple[str, ...]
    turn: int
    turn_number: int
    step: int
    slices: dict[str, Any]  # each block's slice of the state (engine.core.slices), by the block's name
    decided: int | None  # the turn of the last decision (a round without any decision ends the game); None before the first
    counters: list[int]  # every declared counter's values, laid out by engine.blocks.counters.CounterSpec
    rng: int
    budget: int
    outcome: "Outcome | None"
    pending: "Pending | None"  # a choice an effect waits for (engine.blocks.choices); its seat decides next
    decisions: tuple[Decision, ...]  # decisions lent to other roles than the turn's, the top one (last) decides next
    chance: ChanceEvent | None  # the dice a step waits for (only with explicit_chance)
    explicit_chance: bool  # whether the dice steps roll become CHANCE decisions instead of being sampled
    tape: "Tape | None"  # answers a trial run of an effect reads back (only while one runs)
    log: list[str] | None
    history: list[str] | None
    _actions: ActionSpace | None

    # ------------------------------------------------------------ identity

    def __init__(
        self,
        game: "Game",
        players: int,
        face: list[int] | None = None,
        zone_of: list[int] | None = None,
        zones: list[list[int]] | None = None,
        grid: dict[Cell, int] | None = None,
        stacks: dict[Cell, tuple[int, ...]] | None = None,
        cell_of: list[Cell | None] | None = None,
        frontier: dict[Cell, None] | None = None,
        bbox: tuple[int, int, int, int] | None = None,
        groups: dict[Cell, int] | None = None,
        members: dict[Cell, Cell] | None = None,
        positions: tuple[str, ...] = (),
        seat_of: dict[str, int] | None = None,
        order: tuple[str, ...] = (),
        turn: int = 0,
        turn_number: int = 1,
        step: int = -1,
        slices: dict[str, Any] | None = None,
        decided: int | None = None,
        counters: list[int] | None = None,
        rng: int = 0,
        budget: int = 0,
        outcome: "Outcome | None" = None,
        pending: "Pending | None" = None,
        decisions: tuple[Decision, ...] = (),
        chance: ChanceEvent | None = None,
        explicit_chance: bool = False,
        log: list[str] | None = None,
        history: list[str] | None = None,
        actions: ActionSpace | None = None,
    ) -> None:
        """The one way a state is made: a new game, a clone, a save read back and a scenario's position all come here.

        The position — ``face`` to ``members`` — is given whole, or left out
        for the empty one: every component in the first zone showing its first
        face, nothing on the board.  Left out too: no roles seated yet, the
        first step of the turn not entered (``step`` -1).  The arguments are
        taken as they are (a clone passes copies).

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> empty = State(game, game.player_counts[0])
        >>> empty.zones[0] == list(range(len(game.component_names))), empty.grid, empty.step
        (True, {}, -1)
        """
        self.game = game
        self.players = players
        if face is None:  # the empty position
            n = len(game.component_names)
            face, zone_of, cell_of = [0] * n, [0] * n, [None] * n
            zones = [[] for _ in game.zone_names]
            zones[0] = list(range(n))
            grid, stacks, groups, members = {}, {}, {}, {}
            if game.grid is not None and game.grid.fixed:  # worked out when first asked, kept from then on
                frontier, bbox = None, UNKNOWN
            else:  # a growing board's free cells are its frontier, read at every placement: kept from the start
                frontier, bbox = {}, None
        self.face = face
        self.zone_of = zone_of  # the rest of the position comes with face
        self.zones = zones
        self.grid = grid
        self.stacks = stacks
        self.cell_of = cell_of
        self._frontier = frontier
        self._box = bbox
        self._empty = None  # made when first read (see empty)
        self._lows = None  # likewise (see lowest)
        self.groups = groups
        self.members = members
        self.positions = positions
        self.seat_of = {} if seat_of is None else seat_of
        self.order = order
        self.turn = turn
        self.turn_number = turn_number
        self.step = step
        self.slices = {} if slices is None else slices
        self.decided = decided
        self.counters = [] if counters is None else counters
        self.rng = rng
        self.budget = budget
        self.outcome = outcome
        self.pending = pending
        self.decisions = decisions
        self.chance = chance
        self.explicit_chance = explicit_chance
        self.tape = None
        self.log = log
        self.history = history
        self._actions = actions
        self.tallies: dict[Tally, dict[Any, int]] = {}  # counts kept up to date (engine/core/tallies.py), made when first read
        self.face_tallies: dict[FaceTally, dict[Any, int]] = {}  # counts by face kept up to date (engine/core/face_tallies.py), likewise
        self.same_faces: dict[FaceTally, Any] = {}  # ... and for a zone of copies of one value, that value (likewise)
        self.lines: dict[LineKind, dict[Any, int]] = {}  # longest lines kept up to date (engine/blocks/kept_lines.py), made when first read
        self.by_value: dict[CellKind, dict[Any, Any]] = {}  # cells by value kept up to date (engine/core/kept_cells.py), made when first read
        self.pairs: dict[Cell, set[Cell]] = {}  # pairs of pieces by step kept up to date (engine/core/kept_pairs.py), made when first read

    def clone(self, record: bool = False) -> "State":
        """An independent copy; the log and history are copied too only with ``record`` (searches clone without them).

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> s.clone().history, s.clone(record=True).history == s.history
        (None, True)
        """
        if record:
            copy = self.clone()
            copy.history = None if self.history is None else self.history[:]
            copy.log = None if self.log is None else self.log[:]
            return copy
        copy = State(  # positionally, in the order of __init__'s parameters: the fastest call (search clones a lot)
            self.game, self.players, self.face[:], self.zone_of[:], list(map(list.copy, self.zones)), self.grid.copy(),
            self.stacks.copy() if self.stacks else {}, self.cell_of[:],
            None if self._frontier is None else self._frontier.copy(), self._box,
            self.groups.copy() if self.groups else {}, self.members.copy() if self.members else {}, self.positions,
            self.seat_of, self.order, self.turn, self.turn_number, self.step,
            self.slices.copy() if self.slices else {}, self.decided, self.counters[:],
            self.rng, self.budget, self.outcome, self.pending, self.decisions, self.chance, self.explicit_chance,
            None, None,
            self._actions,  # the same position has the same legal actions (spaces are never changed)
        )
        if self._empty is not None:
            copy._empty = self._empty.copy()
        if self._lows is not None:
            copy._lows = self._lows[:]
        if self.tallies:
            copy.tallies = {tally: counts.copy() for tally, counts in self.tallies.items()}
        if self.face_tallies:
            copy.face_tallies = {tally: counts.copy() for tally, counts in self.face_tallies.items()}
        if self.same_faces:
            copy.same_faces = self.same_faces.copy()
        if self.lines:
            copy.lines = {kind: lengths.copy() for kind, lengths in self.lines.items()}
        if self.by_value:
            copy.by_value = {kind: kind.copy(table) for kind, table in self.by_value.items()}
        if self.pairs:
            copy.pairs = {step: cells.copy() for step, cells in self.pairs.items()}
        return copy

    def detached(self) -> "State":
        """A copy sharing nothing it could change with this state, its log and history copied too: :meth:`clone`
        shares what the engine replaces and never changes in place (the seats, the slices' contents, the pending
        question, the legal actions), so code that may change anything it is given (an agent of the user's own)
        gets this one.  Only the compiled game is shared.

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> mine = s.detached()
        >>> mine.seat_of.clear(); mine.history.append("x")
        >>> bool(s.seat_of), "x" in s.history
        (True, False)
        """
        mine = self.clone(record=True)
        memo: dict[int, Any] = {id(self.game): self.game}
        for name in State.__slots__:
            if name not in _SHARED_WHEN_DETACHED:
                setattr(mine, name, copy.deepcopy(getattr(mine, name), memo))
        mine._actions = None
        return mine

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`Game.state_from_json` reads it back exactly."""
        from engine.model.savefile import state_to_json

        return state_to_json(self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its save (:meth:`to_json`) with its log and history, read back by its game: kept tables are
        rebuilt, not sent.

        >>> import engine, pickle
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> pickle.loads(pickle.dumps(s)).history == s.history
        True
        """
        if self.log is None and self.history is None:
            return self.game.state_from_json, (self.to_json(),)
        return _unpickled, (self.game, self.to_json(), self.log, self.history)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        from engine.model.savefile import comparable

        return comparable(self) == comparable(other)

    __hash__ = None

    def __repr__(self) -> str:
        """Which game, how far, and who decides: ``<my-game, 2 players, turn 3: North (seat 1) to play>``.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> repr(game.new_state(players=2, seed=1)).startswith(f"<{game.name}, 2 players, turn ")
        True
        """
        where = f"<{self.game.name}, {self.players} player{'s' * (self.players != 1)}"
        if self.outcome is not None:
            winners = " and ".join(f"seat {w}" for w in self.outcome.winners) or "nobody"
            return f"{where}, over after {self.turn_number} turns: {winners} won>"
        if self.pending is not None:
            who = f"seat {self.pending.seat} to choose"
        elif self.chance is not None:
            who = "a die to roll"
        else:
            actor = self.actor  # "seat N" when roles are hidden
            who = f"{actor} to play" if actor.startswith("seat ") else f"{actor} (seat {self.seat_to_move}) to play"
        return f"{where}, turn {self.turn_number}: {who}>"

    # ------------------------------------------------------------ queries

    @property
    def frontier(self) -> dict[Cell, None]:
        """The empty cells next to a piece, in the order the moves made them so (see :func:`frontier_of`).

        On a board with fixed edges, not kept until first asked (rules that never read it pay nothing per move;
        a growing board's keeps it from the start): the first read
        works it out from the board, whose cells are in the order they were filled while nothing left it (once a
        piece leaves the board while it is not kept, the moves are noted and replayed when it is first read,
        engine/core/kept_frontier.py); from then on every move keeps it.
        Read it, never change it.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> s.frontier == frontier_of(s.grid, game.grid.neighbours) if game.grid else True
        True
        """
        kept = self._frontier
        if kept is None:
            kept = self._frontier = frontier_of(self.grid, self.game.grid.neighbours) if self.game.grid else {}
        elif kept.__class__ is FrontierLog:  # moves since a piece left the board: replayed once, kept from then on
            kept = self._frontier = kept.replay(self.game.grid.neighbours)
        return kept

    @property
    def empty(self) -> dict[Cell, None]:
        """The empty cells of the board, in the board's order (``game.grid.cells``; a board without edges lists none).

        Not kept until first asked (rules that never read it pay nothing per move): the first read works it out
        from the board, then every placement on an empty cell takes its cell out; a piece leaving a cell empty
        drops it (the cell would go back in the middle), to be worked out again when next read.  A clone copies it.
        Read it, never change it.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> list(s.empty) == [c for c in game.grid.cells if c not in s.grid] if game.grid else True
        True
        """
        kept = self._empty
        if kept is None:
            kept = self._empty = dict.fromkeys(filterfalse(self.grid.__contains__, self.game.grid.cells))
        return kept

    @property
    def lowest(self) -> list[Cell | None]:
        """The lowest empty cell of each column of a square board with edges (``game.grid.columns``; None for a
        full column), where a piece dropped into it comes to rest.

        Not kept until first asked, then kept by every placement and removal (engine/core/kept_columns.py); a
        clone copies it.  Read it, never change it.

        >>> import engine
        >>> from engine.core.kept_columns import lowest_cells
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> s.lowest == lowest_cells(s.grid, game.grid.columns) if game.grid and hasattr(game.grid, "columns") else True
        True
        """
        kept = self._lows
        if kept is None:
            kept = self._lows = lowest_cells(self.grid, self.game.grid.columns)
        return kept

    @property
    def bbox(self) -> tuple[int, int, int, int] | None:
        """The smallest box holding every piece on the board (see :func:`box`); None while it is empty.

        On a board with fixed edges worked out when first asked, then kept as pieces are put down; after a piece leaves the box's edge it is
        worked out again when next asked.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> s = game.new_state(players=game.player_counts[0], seed=1)
        >>> s.bbox == box(s.grid)
        True
        """
        kept = self._box
        if kept is UNKNOWN:
            kept = self._box = box(self.grid)
        return kept  # type: ignore[return-value]

    @property
    def is_terminal(self) -> bool:
        """True once the game has an outcome: no more actions, ``returns()`` is final."""
        return self.outcome is not None

    @property
    def current_role(self) -> str | None:
        """The role deciding now (the top lent decision's, else the one whose turn it is); None when the game is over."""
        return None if self.outcome is not None else self.acting_role

    @property
    def acting_role(self) -> str:
        """The role deciding now: the top of the stack of lent decisions, else the role whose turn it is."""
        decisions = self.decisions
        return decisions[-1].role if decisions else self.order[self.turn]

    @property
    def actor(self) -> str:
        """Who is acting, as the log names them: the role deciding now, or ``seat N`` when roles are hidden.

        Example: ``s.note(lambda: f"{s.actor} passes")`` logs "A passes" (or "seat 2 passes").
        """
        role = self.acting_role
        roles = self.game.roles
        return f"seat {self.seat_of[role]}" if roles is not None and roles.hidden else role

    @property
    def current_player(self) -> int:
        """Who decides now: a seat (1-based), :data:`~engine.core.decisions.CHANCE`, :data:`~engine.core.decisions.SIMULTANEOUS`
        (several seats' sealed decisions, see :meth:`apply_joint`) or :data:`~engine.core.decisions.TERMINAL`.

        Example: ``engine.load("my-game").new_state(players=2, seed=1).current_player`` is ``1`` in a game whose
        first seat starts, ``engine.SIMULTANEOUS`` in one that starts with every seat sealing a card.
        """
        seat = self.seat_to_move
        return SIMULTANEOUS if seat > 0 and len(self.simultaneous_seats()) > 1 else seat

    @property
    def seat_to_move(self) -> int:
        """The seat whose action :meth:`apply` takes next, one decision at a time (CHANCE or TERMINAL when none).

        At a SIMULTANEOUS node it is the seat whose turn it is: playing the seats' sealed decisions one after
        the other, as the turn order has them, is the same game.
        """
        if self.outcome is not None:
            return TERMINAL
        if self.pending is not None:
            return self.pending.seat
        if self.chance is not None:
            return CHANCE
        return self.seat_of[self.acting_role]

    def simultaneous_seats(self) -> tuple[int, ...]:
        """The seats deciding the current sealed step together: the seat to move, then every seat playing a later
        role of this round that will have a decision at the same step (empty when the step is not sealed).

        Nothing a sealed decision does is visible to the others, so the rest of the round's sealed decisions
        may be taken at once (see :meth:`apply_joint`).
        """
        if self.outcome is not None or self.pending is not None or self.decisions or self.chance is not None:
            return ()
        step = self.game.steps[self.step]
        if not step.sealed:
            return ()
        seats = [self.seat_of[self.order[self.turn]]]
        left = self.left_roles()  # their turns are passed over
        for turn in range(self.turn + 1, len(self.order)):
            seat = self.seat_of[self.order[turn]]
            if seat not in seats and self.order[turn] not in left and len(self._seat_view(turn, step.actions)):
                seats.append(seat)
        return tuple(seats)

    def _seat_view(self, turn: int, query: Callable[["State"], Any]) -> Any:
        """``query`` asked of this state as if it were the turn of the role at ``turn`` (nothing else changes)."""
        saved, actions = self.turn, self._actions
        self.turn = turn
        try:
            step = self.game.steps[self.step]
            if step.condition is not None and not step.condition(self, step.env):
                return ListSpace(step, [])
            return query(self)
        finally:
            self.turn, self._actions = saved, actions

    def legal_actions(self, seat: int | None = None) -> ActionSpace:
        """The actions of the player to move (empty once the game is over); at a CHANCE node, the results.

        With ``seat``: that seat's actions — its part of a SIMULTANEOUS node, the actions of the seat to
        move, or none when it has nothing to decide now.
        """
        if seat is not None:
            self.check_seat(seat)  # True or 1.0 is no seat, though it equals 1
            if seat != self.seat_to_move:
                if seat in self.simultaneous_seats():
                    return self._seat_view(self._turn_of(seat), self.game.steps[self.step].actions)
                return EmptySpace()
        if self._actions is None:
            self.budget = self.game.limits.steps  # listing the actions is one evaluation
            if self.outcome is not None:
                self._actions = EmptySpace()
            elif self.pending is not None:
                self._actions = ListSpace(CHOICE, [(label,) for label in self.pending.labels])
            elif self.chance is not None:
                self._actions = ListSpace(formatter(self.chance), [(value,) for value, _ in self.chance.outcomes()])
            else:
                step = self.game.steps[self.step]
                space = self._bounded(step.actions(self))  # before any is tried on a copy (refuse_if_after)
                self._actions = space if step.refusal is None else step.refusal.allowed(self, step, space)
        return self._bounded(self._actions)  # a step lists its actions as it begins, too

    def _bounded(self, space: ActionSpace) -> ActionSpace:
        """``space``, unless it holds more actions than one decision may (``limits.actions``): then the error."""
        if len(space) > self.game.limits.actions:
            raise self.too_many_actions(len(space))
        return space

    def too_many_actions(self, count: int) -> EffectRuntimeError:
        """The error of a step offering ``count`` actions, more than ``limits.actions``, at the step: the searches,
        the observation and the list of moves at ``rulecraft play`` would work out every one.

        >>> import engine
        >>> print(engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1).too_many_actions(10 ** 6).message)
        this step offers 1,000,000 actions, more than one decision may (limit actions=100,000; raise it with --limit actions=N)
        """
        step = self.game.steps[self.step] if 0 <= self.step < len(self.game.steps) else None
        return EffectRuntimeError(f"this step offers {count:,} actions, more than one decision may "
                                  f"{limits.exceeded('actions', self.game.limits.actions)}",
                                  step.pos if step is not None else None)

    def listed(self, space: ActionSpace) -> None:
        """Keep ``space`` as the legal actions of this position: a step that worked them out as it began says so.

        Anything that changes the position lists them again, as usual (see :meth:`legal_actions`).  Example: a
        step that must know whether it offers anything keeps what it found, ``s.listed(ListSpace(self, options))``.
        """
        self._actions = space

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a CHANCE node, each action resolving it with its probability (they sum to 1); else empty.

        >>> import engine
        >>> engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1).chance_outcomes()
        []
        """
        if self.chance is None or self.outcome is not None or self.pending is not None:
            return []
        space = self.legal_actions()
        return [(action, p) for action, (_, p) in zip(space, self.chance.outcomes())]

    def _turn_of(self, seat: int) -> int:
        """The first position of the round from the current turn on played by ``seat``."""
        return next(t for t in range(self.turn, len(self.order)) if self.seat_of[self.order[t]] == seat)

    def returns(self) -> list[float]:
        """Per seat (index 0 is seat 1): 1 for a sole winner, 1/k for k seats sharing a win, else 0 (goals: 1 each when reached)."""
        if self.outcome is None:
            return [0.0] * self.players
        return list(self.outcome.returns)

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` (a seat) may know: others' hands and deck order hidden."""
        from engine.model.savefile import observation

        self.check_seat(player)
        return observation(self, int(player))  # a NumPy seat too: the observation stays JSON-ready

    def check_seat(self, seat: object) -> None:
        """Refuse (ValueError) what is not one of this game's seats, 1 to ``players``: seat 0 is nobody's.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> game.new_state(players=min(game.player_counts)).check_seat(0)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ValueError: there is no seat 0: the seats are 1 to ...
        """
        if not (isinstance(seat, Integral) and not isinstance(seat, bool) and 1 <= seat <= self.players):
            raise ValueError(f"there is no seat {cut(repr(seat), 60)}: the seats are 1 to {self.players}")

    def roll(self, sides: int) -> int:
        """A die roll from the state's own seeded generator (1..sides), or the next loaded die (scenarios).

        An effect re-run after a choice (see engine.blocks.choices) rolls the dice it
        rolled before the choice again — the generator moves on as it did —
        and they fall as they fell, even if the generator was reseeded since.  ``sides`` is a whole number from 1
        to :data:`MOST_SIDES` (a ValueError or TypeError otherwise).
        """
        if type(sides) is not int or not 1 <= sides <= MOST_SIDES:
            sides = _sides(sides)
        tape = self.tape
        if tape is None and Chance.block not in self.slices:  # the usual roll: nothing loaded, nothing to roll again
            self.rng, v = rng.below(self.rng, sides)
            return v + 1
        value = self._new_roll(sides)
        if tape is not None:
            again = tape.replay()
            if again is not None:
                value = again
            tape.rolled.append(value)
        return value

    def roll_in_effect(self, sides: int, by: str | None = None) -> int:
        """A die roll an effect makes (``roll d6:``, ``roll(d6)``), noted in the log with who rolls it.

        Logs "North rolls a d6: 4" for a roll ``by`` a role (``roll(d6, by = North)``; "seat 2 rolls ..." when roles
        are hidden), "Sting's before_roll rolls a d6: 4" inside a hook, else "a d6 is rolled: 4".
        """
        value = self.roll(sides)
        if self.log is not None:
            trail = self.slices.get(HookTrail.block)
            roles = self.game.roles
            if by is not None and roles is not None and roles.hidden and by in self.seat_of:
                by = f"seat {self.seat_of[by]}"
            roller = by if by is not None else trail.running[-1] if trail else None
            self.log.append(f"{roller} rolls a d{sides}: {value}" if roller is not None else f"a d{sides} is rolled: {value}")
        return value

    def _new_roll(self, sides: int) -> int:
        chance = self.slices.get(Chance.block)
        loaded = chance.loaded if chance else None
        if loaded:
            self.slices[Chance.block] = chance._replace(loaded=loaded[1:])
            if not 1 <= loaded[0] <= sides:
                raise LoadedDieError(f"the next loaded die shows {loaded[0]}, but a d{sides} is rolled", left=len(loaded))
            return loaded[0]
        self.rng, v = rng.below(self.rng, sides)
        return v + 1

    def random_below(self, n: int) -> int:
        """A uniform whole number in ``range(n)`` from the state's generator (a shuffle's draw)."""
        self.rng, v = rng.below(self.rng, n)
        return v

    def note(self, make: Callable[[], str]) -> None:
        """Record an event in words (only when this state keeps a log, and while it is within ``log_lines``)."""
        if self.log is not None and len(self.log) <= self.game.limits.log_lines:
            self.log.append(make())

    # ------------------------------------------------------------ moves

    def public_text(self, action: Action | str) -> str:
        """How ``action``, one of the legal actions now (or its text), reads to the seats that do not take it: a sealed commit
        without what it seals, a choice of a component some seat cannot see by its kind and place
        (``choose a card from hand of A``), anything else as it is.  An action not legal now raises
        IllegalActionError, as :meth:`apply` does (what it hides depends on the position it is taken in).

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> s.public_text(s.legal_actions()[0]) == str(s.legal_actions()[0])
        True
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not isinstance(action, Action):
            raise TypeError(f"public_text() takes one of legal_actions() or its text, not {type(action).__name__} "
                            f"{cut(repr(action), 60)}")
        elif not (action.origin is not None and action.origin is self._actions) and action not in self.legal_actions():
            raise IllegalActionError(f"'{action}' is not a legal action now")  # its public form is this position's
        if action.step is CHOICE and action.args:
            hidden = public_choice(self, str(action.args[0]))
            if hidden is not None:
                return hidden
        seen = getattr(action.step, "public_text_at", None)  # a step whose public text depends on where things lie
        return seen(self, action.args) if seen is not None else action.step.public_format(action.args)

    def parse_action(self, text: str) -> Action:
        """The legal action written as ``text``; raises IllegalActionError with the reason.

        On a board of points a point may be written by its name (``choose d6``): a text that is not legal as
        written is read again with each word naming a point written as the point's position (``choose 3,1``).
        On a board that names its cells (``cell_names``), a cell written ``x,y`` is read again as its name.
        """
        try:
            return self._parse_as_written(text)
        except IllegalActionError:
            named = self.game.cell_names.typed(text)  # a cell written x,y on a board that names its cells: its name
            names = getattr(self.game.grid, "names", None)
            words = text.split()
            if named == text and (not names or not any(word in names for word in words)):
                raise
        if named != text:
            return self._parse_as_written(named)
        return self._parse_as_written(" ".join(f"{names[w][0]},{names[w][1]}" if w in names else w for w in words))

    def _parse_as_written(self, text: str) -> Action:
        """The legal action ``text`` writes, each word as it is; raises IllegalActionError with the reason."""
        if self.outcome is not None:
            raise IllegalActionError(f"'{text}' is not possible: the game is over")
        if self.pending is not None:
            return Action(CHOICE, (parse_answer(self, text),), self.legal_actions())
        if self.chance is not None:
            return self._parse_roll(text)
        step = self.game.steps[self.step]
        try:
            action = step.parse(self, text)
        except IllegalActionError as err:
            if step.refusal is not None and any(normalise(str(a)) == normalise(text) for a in step.actions(self)):
                raise IllegalActionError(step.refusal.reason(text)) from None
            verb = text.split()[0].lower() if text.split() else ""
            later = [i for i, step in enumerate(self.game.steps) if i != self.step and verb in step.verbs]
            if later and verb not in self.game.steps[self.step].verbs:
                ahead = [i for i in later if i > self.step]  # a step before this one is over for this turn
                at = ahead[0] if ahead else later[0]
                past = "" if ahead else ", already past in this one"
                raise IllegalActionError(
                    f"{err} ('{verb}' comes in step {at + 1} of the turn{past}; this is step {self.step + 1})") from None
            raise
        if step.refusal is not None and action not in self.legal_actions():  # a step reading text its own way
            raise IllegalActionError(step.refusal.reason(text))
        return action

    def _parse_roll(self, text: str) -> Action:
        """The chance action ``roll N`` / ``draw NAME`` (or just ``N`` / ``NAME``) written as ``text``; raises with the possible results."""
        assert self.chance is not None
        verb = self.chance.verb
        said = " ".join(text.split())
        said = said if said.lower().startswith(verb + " ") else f"{verb} {said}"
        legal = self.legal_actions()
        found = find_text(said, [f"{verb} {action.args[0]}" for action in legal])
        if found is not None:
            return legal[found]
        results = ", ".join(str(a) for a in self.legal_actions())
        what = "the die being rolled" if verb == "roll" else "the draw"
        raise IllegalActionError(f"'{text}' is not a result of {what}; the results are: {results}")

    def apply(self, action: Action | str, undo: bool = True) -> None:
        """Apply a legal action (object or text).  An illegal one raises and changes nothing; so does one the
        ruleset fails to carry out half-way (a card's program dividing by a counter that is 0): with ``undo``
        the state is put back as it was, log and history too, before the error is raised.  ``undo=False``
        makes no copy to put back, for a state its caller drops when the ruleset fails (simulations, searches).

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> s.apply(s.legal_actions()[0]); s.turn_number
        2
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        else:
            try:
                listed = action.origin is not None and action.origin is self._actions
            except AttributeError:  # not an Action at all (an index, None): say what apply takes
                raise TypeError(f"apply() takes one of legal_actions() or its text, not {type(action).__name__} "
                                f"{cut(repr(action), 60)} (play(i) applies legal action number i)") from None
            if not listed and action not in self.legal_actions():
                foreign = all(action.step is not step for step in self.game.steps) and action.step is not CHOICE
                if foreign and self._same_ruleset(action):  # another load of these files (a pickled action): its text
                    action = self.parse_action(str(action))
                else:
                    raise IllegalActionError(f"'{action}' is not a legal action now" + (self._foreign(action) if foreign else ""))
        if not undo:
            if self.history is not None:
                self.history.append(str(action))
            self._act(action.args, False)
            return
        kept, lengths = self.clone(), self._lengths()
        if self.history is not None:
            self.history.append(str(action))
        try:
            self._act(action.args)
        except BaseException:
            self._put_back(kept, lengths)
            raise

    def _same_ruleset(self, action: Action) -> bool:
        """Whether ``action`` belongs to another load of this state's ruleset, the same files with the same variants
        and options (what a pickled action is read back as, in this process or another): its text says it here."""
        other = getattr(action.step, "game", None)
        game = self.game
        return (other is not None and other is not game and getattr(other, "content_hash", None) == game.content_hash
                and getattr(other, "variants", None) == game.variants)

    def _foreign(self, action: Action) -> str:
        """Why ``action``, listed by a state of another game, is refused: the same ruleset loaded with other variants
        or options is another game, whose text would be taken here as a move of this one; another ruleset's, or a
        load of this one some time before, may be sent as its text.

        Example: an action of ``load("my-game", ["short"])`` given to a state of ``load("my-game")`` says so.
        """
        other = getattr(action.step, "game", None)
        if getattr(other, "source", None) == self.game.source and (
                other.variants != self.game.variants or other.set_options != self.game.set_options):
            return (f": this action was listed by a state of {self.game.name} with other variants or options (there "
                    f"{_rules_text(other)}; here {_rules_text(self.game)}), a game of other rules")
        return (": this action was listed by a state of another game (another load of a ruleset lists actions of its "
                "own); apply its text, state.apply(str(action))")

    def _lengths(self) -> tuple[int, int]:
        """How long the log and the history are (0 when not kept): what :meth:`_put_back` cuts them back to."""
        return len(self.log or ()), len(self.history or ())

    def _put_back(self, kept: "State", lengths: tuple[int, int]) -> None:
        """After an action that failed: this state ``kept`` again (a clone made before it, which nobody else
        holds), its log and history cut back to ``lengths``.  An answer whose effect failed has put the position
        back itself, waiting at its choice again (with its coroutine): only the choice as it was asked (not with
        the answer's own changes noted as made outside the effect) and the turn of the last decision are given back."""
        if self.log is not None:
            del self.log[lengths[0]:]
        if self.history is not None:
            del self.history[lengths[1]:]
        if self.pending is not None and kept.pending is not None:
            self.pending, self.decided = kept.pending, kept.decided
            return
        for name in _POSITION:
            setattr(self, name, getattr(kept, name))

    def play(self, index: int) -> None:
        """Apply legal action number ``index`` without building it: the move of random playouts and rollouts.

        The same as ``apply(legal_actions()[index], undo=False)``, with no Action object and
        no text unless the state keeps a history: a ruleset failing half-way leaves the state
        part-changed (a playout drops it); play on a copy, or use :meth:`apply`, to keep it.

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> t = s.clone(); t.history = []
        >>> s.apply(s.legal_actions()[3]); t.play(3)
        >>> t == s and t.history == s.history[-1:]
        True
        """
        space = self._actions  # the pending decision's actions, kept as it was entered
        if space is None:
            space = self.legal_actions()
        if type(index) is bool:  # True is 1 to Python, but no number of an action
            raise TypeError(f"play() takes the number of a legal action (a whole number), not {index}")
        try:
            if index < 0:  # from the end, as legal_actions()[index] counts (a space's own args_at need not)
                index += len(space)
                if index < 0:
                    raise IndexError(index)
            args = space.args_at(index)
        except IndexError:
            count = len(space)
            raise IndexError(f"there is no legal action number {index - count if index < 0 else index}: "
                             + (f"there are {count} (0 to {count - 1})" if count else "there are none now")) from None
        except TypeError:  # 1.5, "3", None: say what play() takes, not how a table was indexed
            raise TypeError(f"play() takes the number of a legal action (a whole number), not {type(index).__name__} "
                            f"{cut(repr(index), 60)} (apply() takes an action or its text)") from None
        if self.history is not None:
            self.history.append(space.step.format(args))
        (self.game.act or State._act)(self, args, False)  # the generated act, or the method

    def play_randomly(self, rand: Callable[[], float], most: int) -> int:
        """Play random decisions, each ``play(int(rand() * len(legal_actions())))``, until the game ends, the dice wait
        (a CHANCE node) or ``most`` are played; how many were played.  The loop of search rollouts, with the steps of
        :meth:`play` that a drawn index never needs left out.  A turn that takes ``limits.turn_decisions`` of them
        without passing raises :meth:`endless_turn`'s error (one comparison a decision: whether the turn passed).

        >>> import engine, random
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> t = s.clone(); a, b = random.Random(5), random.Random(5)
        >>> while s.outcome is None: s.play(int(a.random() * len(s.legal_actions())))
        >>> n = t.play_randomly(b.random, 10_000)
        >>> t == s
        True
        """
        limit = self.game.limits.turn_decisions
        last = most - limit  # past it, a turn beginning can no longer reach the limit before ``most``
        turn, stop = self.turn_number, min(most, limit)  # stop: ``most``, or where this turn reaches the limit first
        played = 0
        if self.history is not None:  # each decision's text is kept: the plain way
            while played < stop and self.outcome is None and self.chance is None:
                self.play(int(rand() * len(self.legal_actions())))
                played += 1
                if self.turn_number != turn:
                    turn, stop = self.turn_number, played + limit if played < last else most
        else:
            act, legal_actions = self.game.act or State._act, self.legal_actions  # the generated act, or the method
            most_actions = self.game.limits.actions
            while played < stop and self.outcome is None and self.chance is None:
                space = self._actions
                if space is None:
                    space = legal_actions()
                count = len(space)
                if not count:
                    self.play(0)  # raises, saying there is none
                if count > most_actions:
                    raise self.too_many_actions(count)
                act(self, space.args_at(int(rand() * count)), False)
                played += 1
                if self.turn_number != turn:
                    turn, stop = self.turn_number, played + limit if played < last else most
        if played == stop < most and self.outcome is None and self.chance is None:
            raise self.endless_turn(limit)
        return played

    def endless_turn(self, most: int) -> EffectRuntimeError:
        """The error of a turn that has taken ``most`` decisions (``limits.turn_decisions``) without passing, at the
        step asking for the next one: what every loop playing a game decision after decision raises there (simulate
        and validate's games, ``rulecraft bench``'s playouts, search rollouts, ``rulecraft play``).

        >>> import engine
        >>> err = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1).endless_turn(3)
        >>> print(err.message)  # doctest: +NORMALIZE_WHITESPACE
        turn 1 has taken 3 decisions without passing: does a step offer choices that never run out?
        (limit turn_decisions=3; raise it with --limit turn_decisions=N)
        """
        step = self.game.steps[self.step] if 0 <= self.step < len(self.game.steps) else None
        return EffectRuntimeError(
            f"turn {self.turn_number} has taken {most:,} decisions without passing: does a step offer choices that "
            f"never run out? {limits.exceeded('turn_decisions', most)}", step.pos if step is not None else None)

    def _act(self, args: tuple[Any, ...], keep: bool = True) -> None:
        """Carry out a legal decision given by its arguments, then move on to the next one (``keep=False``: for a
        caller that drops the state if the ruleset fails, so no copy is made to put back, see :func:`choices.answer`):
        the game's generated ``act`` (:mod:`engine.compiling.turn_code`), or the same here."""
        generated = self.game.act
        if generated is not None:
            generated(self, args, keep)
            return
        self._actions = None
        self.budget = self.game.limits.steps  # each action has the whole step budget
        if self.chance is not None:
            self._resolve_chance(args[0])
            return
        self.decided = self.turn_number  # a round without any decision ends the game
        if self.pending is not None:
            finished = choices.answer(self, args[0], keep)
        else:
            finished = self.game.steps[self.step].apply(self, args)
        if finished:
            self.advance()
        elif self.pending is None and self.game.steps[self.step].refusal is not None:
            self._actions = None  # what the step listed for its next decision is judged when asked

    def apply_joint(self, actions: Mapping[int, Action | str]) -> None:
        """At a SIMULTANEOUS node, apply every seat's sealed decision together: ``{seat: action, ...}``.

        ``actions`` names each of :meth:`simultaneous_seats` once, with one of its
        :meth:`legal_actions` (object or text).  The later seats' decisions are
        taken first, each as if it were its turn, then the seat to move's, which
        moves the game on as :meth:`apply` does.  Anything illegal raises and
        changes nothing; so does the ruleset failing half-way (every seat's
        decision is taken back).

        Example: ``s.apply_joint({1: "commit 0 to left", 2: "commit 3 to left"})``.
        """
        if not isinstance(actions, Mapping):
            raise TypeError(f"apply_joint takes {{seat: action, ...}}, not {type(actions).__name__}")
        seats = self.simultaneous_seats()
        if len(seats) < 2:
            raise IllegalActionError("no simultaneous decision is waiting: apply one action with apply()")
        given = [seat if isinstance(seat, Integral) and not isinstance(seat, bool) else None for seat in actions]
        if None in given or sorted(given) != sorted(seats):  # type: ignore[type-var]  # None was just ruled out
            wanted = ", ".join(map(str, seats))
            named = ", ".join(str(seat) if isinstance(seat, Integral) and not isinstance(seat, bool)
                              else cut(repr(seat), 40) for seat in actions)
            raise IllegalActionError(f"a joint action needs one action for each of the seats {wanted}, not for "
                                     f"{named or 'none'}" + (" (a seat is a whole number)" if None in given else ""))
        chosen: list[tuple[int, Action]] = []
        for seat in seats:
            action, space = actions[seat], self.legal_actions(seat)
            if isinstance(action, str):
                at = find_text(action, [str(a) for a in space])
                if at is None:
                    raise IllegalActionError(f"'{action}' is not a legal action of seat {seat} now")
                action = space[at]
            elif action not in space:
                found = [a for a in space if str(a) == str(action)] if self._same_ruleset(action) else []
                if not found:  # an action of another load of these files (a pickled one) is taken as its text
                    raise IllegalActionError(f"'{action}' is not a legal action of seat {seat} now")
                action = found[0]
            chosen.append((seat, action))
        step = self.game.steps[self.step]
        kept, lengths = self.clone(), self._lengths()
        try:
            self.decided = self.turn_number  # decisions are taken: what they then find empty is no "no legal move"
            for seat, action in chosen[1:]:
                if self.history is not None:
                    self.history.append(str(action))
                self._seat_view(self._turn_of(seat), lambda s: step.apply(s, action.args))
                self._actions = None
            self.apply(chosen[0][1], undo=False)
        except BaseException:  # the ruleset failed half-way: every seat's decision is taken back
            self._put_back(kept, lengths)
            raise

    def _resolve_chance(self, result: Any) -> None:
        """Record a die's result (a drawn component's name); once the event has all it needs, the step begins with them."""
        assert self.chance is not None
        event = replace(self.chance, results=self.chance.results + (result,))
        if len(event.results) < event.size:
            self.chance = event
            return
        self.chance = None
        kept = self.slices.get(Chance.block, NO_CHANCE)
        if event.pool:
            self.slices[Chance.block] = kept._replace(drawn=event.results + (kept.drawn or ()))
        else:
            self.slices[Chance.block] = kept._replace(loaded=event.results + (kept.loaded or ()))
        step = self.game.steps[event.step]
        entered = self._enter(step)
        if entered is None:  # no legal move: the game is over, or the turn passes
            if self.outcome is None:
                self.step = len(self.game.steps) - 1
                self.advance()
        elif not entered:
            self.advance()

    def advance(self) -> None:
        """Move to the next step that needs a decision, ending turns and the game as due: the game's generated turn
        (:mod:`engine.compiling.turn_code`), or the same in a loop over the steps (:meth:`walk_turn`)."""
        turn = self.game.turn
        if turn is not None:
            turn(self)
            return
        self.walk_turn()

    def walk_turn(self) -> None:
        """:meth:`advance` as a loop over the turn's steps, reading each step's settings as it goes: the reference
        the generated turn is tested against, and the turn of a game built without one."""
        steps = self.game.steps
        last = len(steps) - 1
        i = self.step
        turn_order, explicit = TurnOrder.block, self.explicit_chance  # read once: a state never changes the latter
        while True:
            if self.outcome is not None:  # a step ended the game at once
                return
            if i >= last or (turn_order in self.slices and i >= 0 and self._left_mid_turn()):
                self.step = -1
                if self.log is not None and len(self.log) > self.game.limits.log_lines:
                    self._cut_log()
                if self.game.end_turn(self):
                    return
                i = -1
                continue
            i += 1
            step = steps[i]
            condition = step.condition
            if condition is not None and not condition(self, step.env):
                continue
            self.step = i
            if explicit:
                event = step.chance_event(self)
                if event is not None:
                    self.chance = event
                    self._actions = None
                    return
            entered = step.enter(self) if not self.game.no_move and step.refusal is None else self._enter(step)
            if entered is None:  # no legal move: the game is over, or the turn passes
                i = last
                continue
            if entered:
                return

    def _enter(self, step: Any) -> bool | None:
        """Begin ``step`` as :meth:`advance` does (True: a decision waits), in a ruleset that says what befalls a
        player with no legal move (``end: {no_move: ...}``): None when the step, at the first decision of the turn,
        offers nothing (every action refused by ``refuse_if_after`` too), the game then ended or the turn to pass.
        What the step did is undone, its log lines too.

        A step of its own actions (a ``place``, a ``move``) whose every action its ``refuse_if_after`` refuses
        passes (False), as it does with nothing to offer, without ``no_move`` or past the turn's first decision:
        the player was asked with no legal action (a random player failed with a ValueError)."""
        mark = len(self.log) if self.log is not None else 0
        try:
            entered = step.enter(self)
            if not entered or step.refusal is None:
                return entered
            self._actions = None  # what the step listed as it began is judged: now, or when asked (a question)
            if self.pending is not None or len(self.legal_actions()):
                return True
            if not self.game.no_move or self.decided == self.turn_number:
                self._actions = None
                self.note(lambda: f"{self.actor} has nothing to do that the rules allow ({step.refusal.because}) "
                                  "and passes")
                return False
            role = self.acting_role
        except NoMove as stuck:
            role = stuck.role
        if self.log is not None:
            del self.log[mark:]
        self._actions = None
        self.game.cannot_move(self, role)
        return None

    def no_move(self, role: str) -> None:
        """A step (or a ``choose``) found nothing to offer ``role``: at the first decision of a turn, in a ruleset
        that says what then happens (``end: {no_move: ...}``), raise :class:`NoMove` for :meth:`advance` to catch;
        else return, the step passing as usual.  Example: a step with no move calls ``s.no_move(s.acting_role)``."""
        if self.game.no_move and self.decided != self.turn_number:
            raise NoMove(role)

    def _cut_log(self) -> None:
        """Leave out the lines past the ``log_lines`` limit (a ruleset logging 60,000 changes a turn filled the
        memory of ``rulecraft play``); the first line left out becomes one saying so.  (Counter changes and noted
        events stop at the limit as they come; other lines, each a step of the budget at most, wait for the turn's end.)

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> s.log = ["a line"] * (s.game.limits.log_lines + 5); s._cut_log(); s._cut_log()
        >>> len(s.log) - s.game.limits.log_lines, s.log[-1][:31]
        (1, '... the log stops here: it has ')
        """
        most = self.game.limits.log_lines
        if len(self.log or ()) <= most:
            return
        assert self.log is not None
        del self.log[most:]
        self.log.append(f"... the log stops here: it has {most:,} lines, and the game's later lines are left out "
                        f"{limits.exceeded('log_lines', most)}")

    def _left_mid_turn(self) -> bool:
        """Whether the role whose turn it is left the turn order during it: the rest of its turn is skipped."""
        return self.order[self.turn] in self.left_roles()

    def next_turn(self) -> int:
        """The index in turn order of the role that plays the next turn: the same one when it was given another turn
        (``play_again()``), the one named by ``play_next(r)`` — either spent here — when it is still in the turn
        order, else the next one that has not left."""
        part = self.slices.get(TurnOrder.block)
        if part is None:
            return (self.turn + 1) % len(self.order)
        if part.again or part.next is not None:
            if part.left is None:
                del self.slices[TurnOrder.block]
            else:
                self.slices[TurnOrder.block] = part._replace(again=None, next=None)
            chosen = self.turn if part.again else self.order.index(part.next)
            if self.order[chosen] not in (part.left or ()):
                return chosen
        return self.next_in_order()

    def left_roles(self) -> tuple[str, ...]:
        """The roles that left the turn order (``leave(r)``), in the order they left."""
        part = self.slices.get(TurnOrder.block)
        return part.left if part is not None and part.left else ()

    def next_in_order(self) -> int:
        """The index in turn order of the role that plays after the current one, passing over those that left."""
        left = self.left_roles()
        turn = (self.turn + 1) % len(self.order)
        for _ in range(len(self.order) - 1):
            if self.order[turn] not in left:
                break
            turn = (turn + 1) % len(self.order)
        return turn

    # ------------------------------------------------------------ zone operations

    def move(self, cid: int, zone: int, at: int | None = None) -> None:
        """Move a component to the end of a zone (off the board if it was on it); ``at``: to that index instead (0 is
        the top of a pile)."""
        self._actions = None
        old = self.zone_of[cid]
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
        else:
            self.zones[zone].insert(at, cid)
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

    def swap(self, a: int, b: int) -> None:
        """Exchange the places of two components: places in zones, board cells, heights in stacks."""
        self._actions = None
        za, zb = self.zone_of[a], self.zone_of[b]
        ia, ib = self.zones[za].index(a), self.zones[zb].index(b)
        self.zones[za][ia], self.zones[zb][ib] = b, a
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


_SHARED_WHEN_DETACHED = ("game", "_actions", "pending", "tape", "_box")
"""What :meth:`State.detached` shares: the compiled game; the box of the pieces, a tuple or :data:`UNKNOWN` (a
copy of which would not be it); a paused effect's question, frozen, which refers to the
position the effect started from (a copy would read that back from its save); the answers a trial run reads back,
set only while it runs; the legal actions are worked out again."""

_POSITION = tuple(name for name in State.__slots__ if name not in ("game", "players", "log", "history"))
"""The fields :meth:`State.apply` puts back when the ruleset fails half-way through an action."""


def box(cells: Collection[Cell]) -> tuple[int, int, int, int] | None:
    """The smallest box holding every cell, as the board keeps it: (least x, greatest x, least y, greatest y);
    None for no cells.

    >>> box([(0, 1), (2, -1), (1, 0)]), box([])
    ((0, 2, -1, 1), None)
    """
    if not cells:
        return None
    xs, ys = zip(*cells)
    return min(xs), max(xs), min(ys), max(ys)


def _unpickled(game: Any, data: dict[str, Any], log: list[str] | None, history: list[str] | None) -> State:
    """A recorded state read back from a pickle: its save, then the log and history it had."""
    state: State = game.state_from_json(data)
    state.log, state.history = log, history
    return state


def _rules_text(game: Any) -> str:
    """The variants and options ``game`` was loaded with, in words.

    >>> from types import SimpleNamespace
    >>> _rules_text(SimpleNamespace(variants=("short",), set_options={"width": "5"})), _rules_text(SimpleNamespace(variants=(), set_options={}))
    ('variants short, options width=5', 'no variant, no option set')
    """
    variants = f"variants {', '.join(game.variants)}" if game.variants else "no variant"
    options = ", ".join(f"{name}={value}" for name, value in game.set_options.items())
    return f"{variants}, {f'options {options}' if options else 'no option set'}"


MOST_SIDES = 2 ** 64
"""The most sides a die given to :meth:`State.roll` has: the generator draws 64 bits, so a larger die would show only
some of its faces (roll(10 ** 400) gave numbers ending in hundreds of zeros)."""


def _sides(sides: Any) -> int:
    """The number of sides a die given to :meth:`State.roll` has: a whole number from 1 to :data:`MOST_SIDES` (NumPy's
    too).

    >>> _sides(6)
    6
    >>> _sides(0)
    Traceback (most recent call last):
    ValueError: a die has at least one side, not 0
    """
    if isinstance(sides, bool) or not isinstance(sides, Integral):
        raise TypeError(f"a die's number of sides is a whole number, not {cut(repr(sides), 60)}")
    if sides < 1:
        raise ValueError(f"a die has at least one side, not {sides}")
    if sides > MOST_SIDES:
        raise ValueError(f"a die has at most 2**64 sides, the numbers the generator draws, not {cut(str(sides), 40)}")
    return int(sides)
