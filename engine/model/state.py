"""The mutable state of one game: small, cheap to clone, and the turn flow.

Everything that does not change during play lives in the immutable
:class:`~engine.model.game.Game`; a :class:`State` holds only what changes: which
face each component shows, what each zone holds, the board, whose turn it is,
which step of the turn is waiting for a decision, and the random generator.

The class is read in parts: its fields (:mod:`engine.model.state_fields`), the board's kept views
(:mod:`engine.model.board_views`), the changes effects make (:mod:`engine.model.position_edits`), the turn's walk
(:mod:`engine.model.turn_flow`) and taking an action (:mod:`engine.model.taking_actions`); this module holds the
rest: making, copying and saving a state, and what a seat may do and see.

Example::

    s = engine.load("my-game").new_state(players=3, seed=1)
    s.current_player                 # 1, 2 or 3; engine.TERMINAL when over (see engine.core.decisions)
    s2 = s.clone()
    s2.apply(s2.legal_actions()[0])  # s is unchanged
"""

from __future__ import annotations

import copy
from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING, Any, Callable

from engine.blocks.choice_labels import CHOICE
from engine.core import limits, rng
from engine.core.actions import Action, ActionSpace, EmptySpace, ListSpace
from engine.core.decisions import CHANCE, SIMULTANEOUS, TERMINAL, ChanceEvent, Decision, formatter
from engine.core.errors import EffectRuntimeError, LoadedDieError
from engine.core.showtext import cut
from engine.core.slices import Chance, HookTrail
from engine.model.board_views import UNKNOWN, BoardViews
from engine.model.position_edits import PositionEdits
from engine.model.state_fields import Cell, StateFields, TurnStart
from engine.model.taking_actions import TakingActions
from engine.model.turn_flow import TurnFlow

if TYPE_CHECKING:
    from engine.blocks.choices import Pending
    from engine.blocks.outcome import Outcome
    from engine.model.game import Game

class State(TakingActions, TurnFlow, PositionEdits, BoardViews):
    """One game in progress.  Create with :meth:`Game.new_state` (all states are made by ``__init__``)."""

    __slots__ = ()  # its fields are declared, and held, by StateFields

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
        self.turn_starts = None if log is None else {}  # see turn_begins
        self._actions = actions
        self.dropped = False  # see StateFields.dropped; a clone is not dropped
        self.tallies = {}  # counts kept up to date (engine/core/tallies.py), made when first read
        self.face_tallies = {}  # counts by face kept up to date (engine/core/face_tallies.py), likewise
        self.same_faces = {}  # ... and for a zone of copies of one value, that value (likewise)
        self.firsts = {}  # big zones' first component of each name (engine/core/kept_firsts.py); a copy notes none
        self.lines = {}  # longest lines kept up to date (engine/blocks/kept_lines.py), made when first read
        self.by_value = {}  # cells by value kept up to date (engine/core/kept_cells.py), made when first read
        self.pairs = {}  # pairs of pieces by step kept up to date (engine/core/kept_pairs.py), made when first read
        self.spent = 0  # the steps the game's actions spent before the last one (see limits game_steps)

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
            copy.turn_starts = None if self.turn_starts is None else self.turn_starts.copy()
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
        copy.spent = self.spent
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
        for name in StateFields.__slots__:
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
        return _unpickled, (self.game, self.to_json(), self.log, self.history, self.turn_starts)

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

    # ------------------------------------------------------------ moves

    # ------------------------------------------------------------ zone operations


_SHARED_WHEN_DETACHED = ("game", "_actions", "pending", "tape", "_box")
"""What :meth:`State.detached` shares: the compiled game; the box of the pieces, a tuple or :data:`UNKNOWN` (a
copy of which would not be it); a paused effect's question, frozen, which refers to the
position the effect started from (a copy would read that back from its save); the answers a trial run reads back,
set only while it runs; the legal actions are worked out again."""


def _unpickled(game: Any, data: dict[str, Any], log: list[str] | None, history: list[str] | None,
               turn_starts: dict[int, TurnStart] | None = None) -> State:
    """A recorded state read back from a pickle: its save, then the log, history and turns' starts it had."""
    state: State = game.state_from_json(data)
    state.log, state.history = log, history
    state.turn_starts = turn_starts if turn_starts is not None or log is None else {}
    return state


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
