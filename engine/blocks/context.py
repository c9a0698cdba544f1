"""What a building block may ask of the compiler, and of the game and state it runs on: the narrow interfaces blocks are written against.

The compiler, ``Game`` and ``State`` sit above the mechanisms, so a block
never imports them, not even for a type annotation.  A block compiles against
a :class:`BuildContext` (settings, positions, errors, compiling code, zone
references, the game's parts) and runs against a :class:`GameView` and a
:class:`StateView`; the compiler's ``Builder``, ``Game`` and ``State`` satisfy
them structurally.  ``tests/test_views.py`` checks that they do, and that the
blocks ask for nothing these protocols leave out.

Each widens the protocol of the layer below:

>>> [[p.__name__ for p in view.__mro__ if p.__module__.startswith("engine.")] for view in (BuildContext, GameView, StateView)]
[['BuildContext', 'CodeContext'], ['GameView', 'CodeGame', 'GameData'], ['StateView', 'StateData']]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, Self, Sequence, runtime_checkable

from engine.core.actions import ActionSpace
from engine.core.decisions import Decision
from engine.core.errors import SourcePos
from engine.core.kept_cells import CellKind
from engine.core.views import StateData
from engine.core.yamlsource import Mapping
from engine.lang.context import CodeContext, CodeGame
from engine.lang.program import Program
from engine.lang.scope import Compiled
from engine.lang.types import Type

if TYPE_CHECKING:
    from engine.blocks.cellnames import CellNames
    from engine.blocks.choices import Pending, Tape
    from engine.blocks.counters import CounterSpec
    from engine.blocks.grid import SquareGrid
    from engine.blocks.hexgrid import HexGrid
    from engine.blocks.pointsboard import PointsBoard
    from engine.blocks.outcome import Outcome
    from engine.blocks.steps import Step

Cell = tuple[int, int]


class ZoneRef:
    """A zone named by a step; per-role zones resolve to the current role's (``by_role``: role -> zone).

    >>> hand = ZoneRef("hand", lambda s: 3)
    >>> hand.name, hand(None)
    ('hand', 3)
    """

    __slots__ = ("name", "resolve", "by_role")

    def __init__(self, name: str, resolve: Callable[[StateView], int], by_role: dict[str, int] | None = None) -> None:
        self.name = name
        self.resolve = resolve
        self.by_role = by_role

    def __call__(self, s: StateView) -> int:
        by_role = self.by_role
        if by_role is None:
            return self.resolve(s)
        decisions = s.decisions  # the acting role, read here: steps resolve their zones at every decision
        return by_role[decisions[-1].role if decisions else s.order[s.turn]]

    def describe(self, s: StateView) -> str:
        return s.game.zone_names[self.resolve(s)]


@runtime_checkable
class GameView(CodeGame, Protocol):
    """A compiled game as the blocks read it: components and faces, zones, the board, roles and teams, each block's part."""

    options: dict[str, Any]
    component_names: list[str]
    component_ids: dict[str, int]
    piece_names: list[str]
    identical: dict[str, tuple[int, ...]]
    face_names: dict[str, tuple[str, ...]]
    face_labels: list[tuple[str, ...]]
    distinct_faces: list[tuple[int, ...]]
    piece_options: list[tuple[tuple[int, int], ...]]
    attribute_types: dict[str, str]
    code_texts: dict[str, dict[str, str]]
    zone_names: list[str]
    zone_index: dict[tuple[str, str | int | None], int]
    board_zone: int
    grid: SquareGrid | HexGrid | PointsBoard | None
    counters: dict[str, CounterSpec]
    teams: dict[int, tuple[tuple[int, ...], ...]]
    parts: dict[str, Any]
    queues_placements: bool
    no_move: str
    record_position: Callable[..., None] | None  # set by a ruleset's repetition section: notes each position a turn leaves

    @property
    def steps(self) -> list[Step]: ...

    def score(self, s: Any) -> Outcome: ...

    def team_outcome(self, outcome: Outcome, players: int) -> Outcome: ...

    def describe_piece(self, cid: int, face: int) -> str: ...

    cell_names: CellNames  # how cells are written and read (cell_text, read_cell): compared with PLAIN for speed

    def cell_text(self, cell: tuple[int, int], brackets: bool = False) -> str: ...

    def read_cell(self, text: str) -> tuple[int, int] | None: ...


@runtime_checkable
class StateView(StateData, Protocol):
    """A game in progress as the blocks read and change it: the board, counters, whose turn it is, pending decisions."""

    grid: dict[Cell, int]
    stacks: dict[Cell, tuple[int, ...]]  # the pieces under each top one, where there are any
    cell_of: list[Cell | None]

    @property
    def frontier(self) -> dict[Cell, None]: ...  # read it, never change it (as the three below)

    @property
    def empty(self) -> dict[Cell, None]: ...  # the empty cells of a board with edges, in its order, kept once read

    @property
    def lowest(self) -> list[Cell | None]: ...  # the lowest empty cell of each column of a square board with edges

    @property
    def bbox(self) -> tuple[int, int, int, int] | None: ...

    groups: dict[Cell, int]
    members: dict[Cell, Cell]
    by_value: dict[CellKind, dict[Any, Any]]  # the board's cells by value, kept up to date (engine.core.kept_cells)
    pairs: dict[Cell, set[Cell]]  # the cells with a piece another one a step away, by step, kept up to date (engine.core.kept_pairs)
    turn: int
    turn_number: int
    counters: list[int]
    outcome: Outcome | None
    pending: Pending | None
    decisions: tuple[Decision, ...]
    tape: Tape | None
    dropped: bool  # a copy nobody reads once played on (a search's rollout): its effects keep no position before them
    log: list[str] | None

    @property
    def game(self) -> GameView: ...

    @property
    def current_role(self) -> str | None: ...

    @property
    def acting_role(self) -> str: ...

    @property
    def actor(self) -> str: ...

    def clone(self) -> Self: ...

    def legal_actions(self, seat: int | None = None) -> ActionSpace: ...

    def listed(self, space: ActionSpace) -> None: ...

    def roll(self, sides: int) -> int: ...

    def random_below(self, n: int) -> int: ...

    def note(self, make: Callable[[], str]) -> None: ...

    def no_move(self, role: str) -> None: ...

    def move(self, cid: int, zone: int) -> None: ...

    def place(self, cid: int, cell: Cell, face: int | None = None) -> None: ...

    def stack(self, cell: Cell) -> tuple[int, ...]: ...

    def left_roles(self) -> tuple[str, ...]: ...

    def next_in_order(self) -> int: ...

    def swap(self, a: int, b: int) -> None: ...

    def set_walls(self, walls: frozenset[tuple[Cell, Cell]]) -> None: ...

    def flip(self, cid: int) -> None: ...

    def flip_cells(self, cells: Sequence[Cell]) -> None: ...

    def show(self, cid: int, face: int) -> None: ...

    def set_counter(self, spec: CounterSpec, owner: Any, index: int, value: int,
                    by: Any = None, source: Any = None, pos: SourcePos | None = None) -> None: ...


@runtime_checkable
class BuildContext(CodeContext, Protocol):
    """What a block may ask of the compiler: its settings read and checked, zones and tables by name, code compiled."""

    @property
    def game(self) -> GameView: ...

    def named_entries(self, section: str, what: str, example: str,
                      read_as: str | None = None) -> Iterator[tuple[str, Mapping, SourcePos | None]]: ...

    def check_value(self, value: Any, type_name: str, pos: SourcePos | None, what: str) -> None: ...

    def choice(self, spec: Mapping, key: str, allowed: tuple[str, ...], default: str) -> str: ...

    def setting(self, spec: Mapping, key: str, default: Any) -> Any: ...

    def int_setting(self, spec: Mapping, key: str, default: int) -> int: ...

    def bool_setting(self, spec: Mapping, key: str, default: bool) -> bool: ...

    def zone_ref(self, spec: Mapping, key: str, offered: bool = False) -> ZoneRef: ...

    def require_board(self, spec: Mapping, key: str) -> None: ...

    def has_edges(self) -> bool: ...

    def face_attribute(self, spec: Mapping, key: str) -> list[list[Any]]: ...

    def expression(self, text: Any, want: str | None = None, bind: dict[str, Type] | None = None,
                   pos: SourcePos | None = None) -> tuple[Compiled, int]: ...

    def describe(self, text: Any) -> str: ...

    def program(self, text: Any, pos: SourcePos | None, bind: dict[str, Type] | None = None, nested: bool = True) -> Program: ...
