"""The fields of a game's state, declared once: :class:`~engine.model.state.State` and the classes whose methods it
inherits (:mod:`~engine.model.board_views`, :mod:`~engine.model.position_edits`, :mod:`~engine.model.turn_flow`,
:mod:`~engine.model.taking_actions`) all read and write them, so each of those classes derives from
:class:`StateFields`, which holds them (its ``__slots__``) and says what each holds.

Example::

    s = engine.load("my-game").new_state(players=2)
    s.zones[s.game.zone_index["deck", None]]   # what a shared zone holds, in its order (StateFields.zones)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from engine.core.actions import ActionSpace
from engine.core.decisions import ChanceEvent, Decision
from engine.core.face_tallies import FaceTally
from engine.core.kept_cells import CellKind
from engine.core.kept_frontier import FrontierLog
from engine.core.tallies import Tally
from engine.blocks.kept_lines import LineKind

if TYPE_CHECKING:
    from engine.blocks.choices import Pending, Tape
    from engine.blocks.outcome import Outcome
    from engine.core.errors import EffectRuntimeError
    from engine.model.game import Game
    from engine.model.state import State
    from engine.blocks.context import StateView as Declared  # a state is one: the checker knows the classes' members by it
else:
    Declared = object

Cell = tuple[int, int]


class TurnStart(NamedTuple):
    """Where a turn began in a state's log, and whose it was: the log's length then and the role whose turn it is.

    >>> TurnStart(4, "North")
    TurnStart(at=4, role='North')
    """

    at: int
    role: str


class StateFields(Declared):
    """What a state holds, field by field (no methods): the position, the turn, and what is kept to answer quickly."""

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
        "turn_starts",
        "step",
        "slices",
        "decided",
        "counters",
        "rng",
        "budget",
        "spent",
        "outcome",
        "pending",
        "decisions",
        "chance",
        "explicit_chance",
        "tape",
        "log",
        "history",
        "_actions",
        "dropped",
        "tallies",
        "face_tallies",
        "same_faces",
        "firsts",
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
    spent: int  # the steps the game's actions spent before the last one (engine.core.limits: game_steps)
    outcome: "Outcome | None"
    pending: "Pending | None"  # a choice an effect waits for (engine.blocks.choices); its seat decides next
    decisions: tuple[Decision, ...]  # decisions lent to other roles than the turn's, the top one (last) decides next
    chance: ChanceEvent | None  # the dice a step waits for (only with explicit_chance)
    explicit_chance: bool  # whether the dice steps roll become CHANCE decisions instead of being sampled
    tape: "Tape | None"  # answers a trial run of an effect reads back (only while one runs)
    log: list[str] | None
    turn_starts: dict[int, TurnStart] | None  # turn number -> where in the log it began and whose, while a log is kept
    history: list[str] | None
    _actions: ActionSpace | None
    dropped: bool  # a copy its maker drops once played on (a search's rollout): its effects keep no position to go back to
    tallies: dict[Tally, dict[Any, int]]  # counts kept up to date (engine/core/tallies.py), made when first read
    face_tallies: dict[FaceTally, dict[Any, int]]  # counts by face kept up to date (engine/core/face_tallies.py), likewise
    same_faces: dict[FaceTally, Any]  # ... and for a zone of copies of one value, that value (likewise)
    firsts: dict[int, dict[str, int]]  # big zones' first component of each name, kept by moves (engine/core/kept_firsts.py); a copy has none
    lines: dict[LineKind, dict[Any, int]]  # longest lines kept up to date (engine/blocks/kept_lines.py), made when first read
    by_value: dict[CellKind, dict[Any, Any]]  # cells by value kept up to date (engine/core/kept_cells.py), made when first read
    pairs: dict[Cell, set[Cell]]  # pairs of pieces by step kept up to date (engine/core/kept_pairs.py), made when first read

    if TYPE_CHECKING:  # what the classes State inherits call on one another besides StateView's: State's own, declared
        def simultaneous_seats(self) -> tuple[int, ...]: ...
        def too_many_actions(self, count: int) -> EffectRuntimeError: ...
        def _seat_view(self, turn: int, query: Callable[["State"], Any]) -> Any: ...
        def _turn_of(self, seat: int) -> int: ...
        def advance(self) -> None: ...  # TurnFlow's
        def endless_turn(self, most: int) -> EffectRuntimeError: ...
        def _enter(self, step: Any) -> bool | None: ...
