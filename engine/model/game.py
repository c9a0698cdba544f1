"""The immutable, compiled form of a ruleset.

A :class:`Game` is built once by :mod:`engine.compiling.builder` and never changes:
component tables, zones, the board geometry, compiled setup programs, turn
steps, end condition and scoring.  It makes states:

Example::

    game = engine.load("my-game")
    state = game.new_state(players=2, seed=7)   # roles dealt, setup program run
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from engine.blocks.cellnames import PLAIN, CellNames
from engine.blocks.counters import initial_values
from engine.core import limits as limits_module
from engine.core import rng
from engine.core.confine import allowed_folders
from engine.core.errors import RulesetError, SetupError, SourcePos
from engine.core.showtext import cut, players as players_text
from engine.core.slices import NO_CHANCE, Chance, TurnOrder
from engine.core.specs import RoleSpec, ZoneSpec
from engine.lang.program import Program, compile_condition
from engine.lang.scope import Vocabulary

if TYPE_CHECKING:
    from engine.blocks.counters import CounterSpec
    from engine.blocks.grid import SquareGrid
    from engine.blocks.hexgrid import HexGrid
    from engine.blocks.pointsboard import PointsBoard
    from engine.blocks.outcome import Goals, Outcome, Ranking
    from engine.blocks.steps import Step
    from engine.model.dealing import Deal
    from engine.model.state import State


_UNSEEN = object()  # a setup not run yet for a seating (see Game._set_up)

KEPT_STARTS = 4096
"""At most this many kept starts per game (see Game._started): past it, later seatings start the long way."""

KEPT_START_PIECES = 1_000_000
"""At most this many components in all the kept starts of a game (a state holds a few slots per component): a
ruleset of many components keeps fewer starts, so that memory stays within tens of megabytes."""


def seat_draws(state: int, groups: int) -> tuple[int, tuple[int, ...]]:
    """The generator's draws that deal ``groups`` groups of roles to their places (Fisher–Yates, from the last group
    down: the k-th draw is below ``groups - k + 1``), and the generator after them.

    >>> after, draws = seat_draws(rng.seed_state(1), 4)
    >>> len(draws), all(j <= k for j, k in zip(draws, (3, 2, 1)))
    (3, True)
    """
    draws = []
    for k in range(groups, 1, -1):
        state, j = rng.below(state, k)
        draws.append(j)
    return state, tuple(draws)

ROLL_OFFS = ("lowest-roll", "highest-roll")  # ``first_seat`` values: a roll-off decides who starts


def _team_turn_first(order: list[str], seat_of: dict[str, int], teams: tuple[tuple[int, ...], ...]) -> list[str]:
    """``order`` (the roll-off's winner first) with the winner's teammates that play just before it moved
    to just after it: the winner's team takes its turn first, the winner first.

    >>> _team_turn_first(["B", "C", "D", "A"], {"A": 1, "B": 3, "C": 2, "D": 4}, ((1, 3), (2, 4)))
    ['B', 'A', 'C', 'D']
    """
    team = {seat: i for i, members in enumerate(teams) for seat in members}
    mine = team[seat_of[order[0]]]
    back = 0
    while back < len(order) - 1 and team[seat_of[order[-1 - back]]] == mine:
        back += 1
    return order[:1] + order[len(order) - back:] + order[1:len(order) - back]


@dataclass(eq=False, repr=False)
class Game:
    """A compiled ruleset; create states with :meth:`new_state`.

    A game is itself and nothing else: it compares and hashes by identity, so it may key a dict or a cache
    (``content_hash`` tells two loads of the same files apart from others).

    What a building block compiles (a meter, statuses, clash tables ...) is
    kept under the block's name in ``parts`` (see :mod:`engine.blocks.block`):
    ``game.parts.get("meter")`` is None in a ruleset without a meter.

    Once built, setting an attribute raises AttributeError.  The guard is
    shallow: the dicts and lists it holds (``parts`` too) are shared with the
    compiled steps and must not be changed either.  ``dataclasses.replace(game, field=...)``
    gives a copy whose steps still refer to the original game, so it suits
    only fields read from the game itself (as a test may do with
    ``running_score``).
    """

    name: str
    title: str
    version: int
    description: str
    source: str
    content_hash: str = ""
    variants: tuple[str, ...] = ()
    set_options: dict[str, str] = field(default_factory=dict)  # options set from outside the files (``--set``), as YAML text
    replaced: tuple[tuple[SourcePos | None, str], ...] = ()  # what overlays replaced: (where the new one is, note)
    available_variants: dict[str, str] = field(default_factory=dict)
    player_counts: tuple[int, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    option_docs: dict[str, str] = field(default_factory=dict)
    option_checks: dict[str, str] = field(default_factory=dict)  # an option's check, in words (see compiling.option_checks)
    types: dict[str, tuple[str, ...]] = field(default_factory=dict)
    display: dict[str, dict[str, str]] = field(default_factory=dict)  # value -> {style, short, colour}: how the terminal and the browser show it
    # components
    component_names: list[str] = field(default_factory=list)
    component_ids: dict[str, int] = field(default_factory=dict)
    piece_names: list[str] = field(default_factory=list)  # what actions call a component: identical copies share one
    identical: dict[str, tuple[int, ...]] = field(default_factory=dict)  # a counted id -> its copies
    other_names: dict[str, str] = field(default_factory=dict)  # a name a user may write (``also:``) -> the id it stands for
    component_kind: list[str] = field(default_factory=list)
    kinds: dict[str, list[int]] = field(default_factory=dict)
    face_names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    face_count: list[int] = field(default_factory=list)
    face_labels: list[tuple[str, ...]] = field(default_factory=list)
    distinct_faces: list[tuple[int, ...]] = field(default_factory=list)
    piece_options: list[tuple[tuple[int, int], ...]] = field(default_factory=list)  # (cid, face) per distinct face
    attributes: dict[str, list[list[Any]]] = field(default_factory=dict)  # name -> [face][cid]
    attribute_types: dict[str, str] = field(default_factory=dict)  # name -> enum name, int, text, bool, cell (or "list of" one)
    wildcards: set[str] = field(default_factory=set)  # list attributes that may hold pattern wildcards (see engine.blocks.patterns)
    # zones, board, roles
    zone_specs: dict[str, ZoneSpec] = field(default_factory=dict)
    zone_names: list[str] = field(default_factory=list)
    zone_spec_of: list[ZoneSpec] = field(default_factory=list)  # the declared zone of each zone instance
    zone_owner: list[str | None] = field(default_factory=list)
    zone_index: dict[tuple[str, str | int | None], int] = field(default_factory=dict)  # (name, role or key)
    board_zone: int = -1
    grid: "SquareGrid | HexGrid | PointsBoard | None" = None
    cell_names: CellNames = PLAIN  # how cells are written and read (the board's ``cell_names``): see cell_text
    roles: RoleSpec | None = None
    counters: "dict[str, CounterSpec]" = field(default_factory=dict)  # declared counters, in State.counters order
    teams: dict[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)  # per player count: the seats of each team
    parts: dict[str, Any] = field(default_factory=dict)  # what each block the ruleset uses compiled, by the block's name
    first_seat: int = 1
    first_roll: str = ""  # "lowest" or "highest": a roll-off decides the first seat instead (``first_seat: lowest-roll``)
    limits: limits_module.Limits = field(default_factory=limits_module.current)  # the budgets it was compiled and runs under
    allowed: tuple[Path, ...] = field(default_factory=allowed_folders)  # the folders it was loaded with leave to read (--allow)
    # play
    setup: dict[int | str, Program] = field(default_factory=dict)
    steps: list["Step"] = field(default_factory=list)
    end_condition: Program | None = None
    max_turns: int = 1000
    end_when_stalled: bool = False  # ``end: {stalled: true}``: a round of turns without a decision ends the game
    no_move: str = ""  # ``end: {no_move: loses | draw | passes}``: what befalls a player with no legal move ("" unsaid)
    # ``repetition:``: notes the position after setup (first=True) and at every turn's end, before the end condition
    # reads it (engine.blocks.repetition); None, and nothing noted, in a game without the section
    record_position: Callable[..., None] | None = None
    outcomes: list[tuple[tuple[int, ...], "Ranking | Goals"]] = field(default_factory=list)
    running_score: Program | None = None  # how well seat ``me`` is doing during play (slot 0 holds me)
    invariants: dict[str, Program] = field(default_factory=dict)  # conditions true after every action
    # The turn as generated functions (engine.compiling.turn_code): what State.advance and State._act run (None: their
    # own loops), and the latter the playout kernel's.  Not copied by dataclasses.replace: they read this game's
    # fields, so a changed copy walks its turn with the state's loops, which read the copy's.
    turn: Callable[["State"], None] | None = field(default=None, init=False, repr=False, compare=False)
    act: Callable[["State", tuple[Any, ...], bool], None] | None = field(default=None, init=False, repr=False,
                                                                         compare=False)
    queues_placements: bool = False  # a clash step acts on every piece placed since it last ran (see engine.blocks.clash)
    code_texts: dict[str, dict[str, str]] = field(default_factory=dict)  # text attribute holding code -> component -> English
    vocab: Vocabulary = field(default_factory=Vocabulary)
    # Setups that drew nothing at random, as they left the state, by the state they started from (see _set_up):
    # a cache filled while playing, the one thing of a built game that changes (a changed copy starts its own).
    set_up: dict[tuple[Any, ...], Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # By player count, the positions of each group of roles the seating deals (see _deal_places), filled while playing.
    deal_places: dict[int, list[tuple[int, ...]]] = field(default_factory=dict, init=False, repr=False, compare=False)
    # By player count, a seating that deals nothing and rolls nothing, the same in every game: (positions, seat_of, order),
    # filled while playing (states share a seat_of dict until it changes).
    seatings: dict[int, tuple[tuple[str, ...], dict[str, int], tuple[str, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # By player count and explicit_chance, the number of groups of roles the seating deals, for a seating whose new
    # states are kept in ``starts`` (see _started), filled while playing.
    start_groups: dict[tuple[int, bool], int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # By player count, explicit_chance and the seating's draws, the state every new game so seated starts as.
    starts: dict[tuple[int, bool, tuple[int, ...]], "State"] = field(default_factory=dict, init=False, repr=False,
                                                                      compare=False)
    # The same for a setup kept as a deal (engine.model.dealing): the deal each new game so seated replays with its own
    # generator, then enters its first steps.
    dealt_starts: dict[tuple[int, bool, tuple[int, ...]], "Deal"] = field(default_factory=dict, init=False, repr=False,
                                                                          compare=False)
    # By the walls standing, this game on its board with those walls (see with_walls), filled while playing: shared by
    # every such copy.
    boards_with_walls: dict[frozenset[Any], "Game"] = field(default_factory=dict, init=False, repr=False, compare=False)
    built: bool = field(default=False, repr=False, compare=False)  # set by the compiler when the game is complete

    def __repr__(self) -> str:
        """The game in one line, not its compiled tables (hundreds of thousands of characters).

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> repr(game) == f"<Game {game.name}, for {', '.join(map(str, game.player_counts))} players>"
        True
        """
        chosen = [f"variant {'+'.join(self.variants)}"] if self.variants else []
        chosen += [f"set {name}={value}" for name, value in self.set_options.items()]
        return f"<Game {', '.join([self.name, *chosen])}, for {', '.join(map(str, self.player_counts))} players>"

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "built", False):
            raise AttributeError(f"a compiled game cannot change: '{name}' was set after it was built")
        object.__setattr__(self, name, value)

    def with_walls(self, walls: frozenset[Any]) -> "Game":
        """This game on its board with ``walls`` standing between cells instead (a board that says ``walls:``): the
        game a state plays on once code has built or removed a wall (engine.blocks.walls).  A copy sharing everything
        but its board, made once for each set of walls and kept (a few thousand at most, fewer of a large board:
        :attr:`engine.blocks.grid.SquareGrid.boards_kept`).

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> game.with_walls(frozenset()) is game
        True

        A state begun by a copy is the game's own (``game.with_walls(walls).new_state()``: the board as declared).
        """
        if self.grid is None or walls == getattr(self.grid, "walls", frozenset()):
            return self
        found = self.boards_with_walls.get(walls)
        if found is None:
            if len(self.boards_with_walls) >= self.grid.boards_kept:  # type: ignore[union-attr]
                self.boards_with_walls.clear()
            found = self.boards_with_walls[walls] = object.__new__(Game)  # not copy.copy: a game pickles as its name
            # New states and saves read back start from the game's own board (the walls are a state's to change).
            found.__dict__.update(self.__dict__, grid=self.grid.with_walls(walls),  # type: ignore[union-attr]
                                  new_state=self.new_state, state_from_json=self.state_from_json)
        return found

    def finish(self) -> None:
        """Mark the game complete: from now on, setting any attribute raises AttributeError."""
        object.__setattr__(self, "built", True)

    # ------------------------------------------------------------ cells as text

    def cell_text(self, cell: tuple[int, int], brackets: bool = False) -> str:
        """How actions, logs and messages write ``cell``: ``4,1``, or its name (``e2``) on a board whose
        ``cell_names`` says so; with ``brackets``, as a log line writes it (``(4,1)``; a name stands alone).

        >>> Game("g", "G", 1, "", "").cell_text((4, 1)), Game("g", "G", 1, "", "").cell_text((4, 1), brackets=True)
        ('4,1', '(4,1)')
        """
        if type(cell) is not tuple or len(cell) != 2:  # a list [x, y] (read from JSON) is that cell
            if not isinstance(cell, (tuple, list)) or len(cell) != 2:
                raise TypeError(f"cell_text() takes a cell, two whole numbers (x, y), not {cut(repr(cell), 60)}")
            cell = (cell[0], cell[1])
        return self.cell_names.text(cell, brackets)

    def read_cell(self, text: str) -> tuple[int, int] | None:
        """The cell ``text`` writes (its name, or ``x,y`` on any board); None when it writes none.

        >>> Game("g", "G", 1, "", "").read_cell("(4, 1)")
        (4, 1)
        """
        if not isinstance(text, str):
            raise TypeError(f"read_cell() takes a text such as '4,1' or 'e2', not {cut(repr(text), 60)}")
        return self.cell_names.read(text)

    # ------------------------------------------------------------ states

    @property
    def default_players(self) -> int:
        """The player count used when none is given: the smallest from 2 up, else the smallest (a solo game).

        >>> Game("g", "G", 1, "", "", player_counts=(1, 2, 3)).default_players, Game("g", "G", 1, "", "", player_counts=(1,)).default_players
        (2, 1)
        """
        return min((count for count in self.player_counts if count >= 2), default=min(self.player_counts))

    def new_state(self, players: int | None = None, seed: int = 0, record: bool = False,
                  seats: dict[str, int] | None = None, explicit_chance: bool = False, dice: tuple[int, ...] = (),
                  begin: bool = True, set_up: bool = True) -> "State":
        """A fresh game for ``players`` seats (by default :attr:`default_players`); ``record`` keeps an event log
        and history.

        ``dice``: the results the first dice rolled give, from the setup's on
        (a scenario's ``dice:``), instead of the seeded generator's.

        ``explicit_chance`` makes the dice that turn steps roll CHANCE decisions
        (``state.chance_outcomes()``) instead of samples of the seeded generator.

        ``seats`` (role -> seat, 0 for absent) chooses the deal of the roles
        the ruleset shuffles, instead of the seed: a deal the setup could have
        made, else SetupError.  The rest of the setup runs as usual.

        ``begin=False`` returns the game as the setup leaves it, before its first
        step begins (a scenario's position ``from_setup`` changes it first, then
        begins it with ``advance()``); ``set_up=False`` (with ``begin=False``)
        before its setup runs too, every component in the supply (for a
        condition on the options and what the components are).
        """
        from engine.model.state import State

        if players is None:
            players = self.default_players
        try:  # a whole number (numpy's too): 2.0 passed 'in player_counts' and failed deep in the setup
            count = None if isinstance(players, bool) else operator.index(players)
        except TypeError:
            count = None
        if count not in self.player_counts:
            raise SetupError(f"{self.name} is played by {players_text(self.player_counts)}, not {cut(repr(players), 60)}")
        players = count
        if self.first_seat > players:
            raise SetupError(f"first_seat is {self.first_seat}, but a {players}-player game has no seat {self.first_seat}")
        try:
            if isinstance(seed, bool):  # True would be seed 1
                raise TypeError
            seeded = rng.seed_state(operator.index(seed))  # numpy's whole numbers too (an RL library's seeds)
        except TypeError:  # a text, a decimal number, a truth value
            raise TypeError(f"seed must be a whole number, not {cut(repr(seed), 60)}") from None
        if dice:
            dice = _loaded_dice(dice)
        plain = not (record or dice) and seats is None and begin  # a start every such game with the same seating shares (see _started)
        if plain:
            started = self._started(players, seeded, explicit_chance)
            if started is not None:
                return started
        s = State(self, players, rng=seeded, budget=self.limits.steps, explicit_chance=explicit_chance,
                  log=[] if record else None, history=[] if record else None)
        if dice:
            s.slices[Chance.block] = NO_CHANCE._replace(loaded=tuple(dice))
        draws = self._seat_roles(s, players, seats)
        seated = s.rng
        s.counters = initial_values(s, self.counters)
        program = self.setup.get(players) or self.setup.get("default")
        setup_key = None if program is None else self._set_up_key(s, program)
        dealt_alike = plain and draws is not None and s.rng == seated  # only the seating drew before the setup
        if program is not None and set_up:
            s = self._set_up(s, program, setup_key)
        if not begin:
            return s
        if self.record_position is not None:
            self.record_position(s, first=True)
        s.turn_begins()
        s.advance()
        if dealt_alike and s.rng == seated and (s.pending is None or s.pending.here):
            self._keep_start(s, draws)  # type: ignore[arg-type]  # dealt_alike: draws is not None
        elif dealt_alike and setup_key is not None:
            from engine.model.dealing import Deal  # the setup kept as a deal: later such games replay it at once

            if isinstance(deal := self.set_up.get(setup_key), Deal):
                self._keep_start(s, draws, deal)  # type: ignore[arg-type]
        return s

    def _started(self, players: int, seed_rng: int, explicit_chance: bool) -> "State | None":
        """The new state of a seed (no log, dice or chosen seats) as a copy of a kept start of its seating, or None
        when no start is kept for it (yet).

        A new state differs from another of the same seating only by its generator until something draws from it.
        When nothing but the seating drew, from seating the roles to the first decision (the counters' start values,
        the setup, entering the turn's first steps), every seed dealt that seating starts alike: the first such state
        is kept (:meth:`_keep_start`) and later ones are copies, with their own generator.  A first decision asked
        inside an effect is not kept, unless the effect asked before changing anything (its position is the state,
        see :func:`engine.blocks.choices.asks_first`): the paused effect holds the position before it, generator
        included, which a save writes and a load replays.  When the setup is kept as a deal (engine.model.dealing) and nothing but the
        seating drew before it, the deal is kept instead: a later state is the deal replayed with its own generator,
        then entering its first steps, as the long way does.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> players = game.player_counts[-1]
        >>> a = game.new_state(players=players, seed=3)
        >>> b = game.new_state(players=players, seed=3, record=True)
        >>> a == b and a.legal_actions().all_args() == b.legal_actions().all_args()
        True
        """
        groups = self.start_groups.get((players, explicit_chance))
        if groups is None:
            return None
        after, draws = seat_draws(seed_rng, groups)
        kept = self.starts.get((players, explicit_chance, draws))
        if kept is None:
            deal = self.dealt_starts.get((players, explicit_chance, draws))
            if deal is None:
                return None
            dealt = deal.deal(self, after)  # a setup that shuffles: this seed's deal, as _set_up replays it
            dealt.advance()
            return dealt
        copy = kept.clone()
        copy.rng = after
        return copy

    def _keep_start(self, s: "State", draws: tuple[int, ...], deal: "Deal | None" = None) -> None:
        """Keep ``s``, a new state whose generator only its seating's ``draws`` changed, as the start of that seating;
        or, when ``deal`` is the kept setup ``s`` was dealt by after nothing but the seating drew, that deal."""
        room = min(KEPT_STARTS, KEPT_START_PIECES // max(1, len(self.component_names)))
        if len(self.starts) + len(self.dealt_starts) < room:
            self.start_groups[(s.players, s.explicit_chance)] = len(draws) + 1
            if deal is None:
                self.starts[(s.players, s.explicit_chance, draws)] = s.clone()
            else:
                self.dealt_starts[(s.players, s.explicit_chance, draws)] = deal

    def _set_up(self, s: "State", program: Program, key: tuple[Any, ...] | None = None) -> "State":
        """``s`` once the setup program has run: a setup that does the same to every game is worked out once.

        Before its setup, a new state differs from another of the same seating only
        by its generator.  A setup that leaves the generator as it was never drew
        from it, so it does the same to every such state: its result is kept and
        later states start as a copy of it, with their own generator.  A setup that
        shuffles a zone and deals from it by printed attributes is kept as a deal
        (see :mod:`engine.model.dealing`) and replayed with each state's shuffle.
        Not for states that keep a log: the setup may write in it.
        """
        if s.log is not None or s.history is not None or Chance.block in s.slices:
            program.run(s)
            return s
        from engine.model.dealing import Deal, make_deal

        if key is None:
            key = self._set_up_key(s, program)
        kept = self.set_up.get(key, _UNSEEN)
        if isinstance(kept, Deal):
            return kept.replay(s)
        if kept is not None and kept is not _UNSEEN:
            copy = kept.clone()
            copy.game, copy.rng = self, s.rng
            return copy
        if kept is None:  # neither: run it
            program.run(s)
            return s
        if self._plain_deal(program):
            s, self.set_up[key] = make_deal(s, program.run)
            return s
        before = s.rng
        program.run(s)
        self.set_up[key] = s.clone() if s.rng == before else None
        return s

    @staticmethod
    def _set_up_key(s: "State", program: Program) -> tuple[Any, ...]:
        """What a setup's result is kept by in ``set_up``: the program and the state it starts from, but for its
        generator."""
        return id(program), s.players, s.positions, tuple(s.seat_of.items()), s.order, tuple(s.counters), s.explicit_chance

    def _plain_deal(self, program: Program) -> bool:
        """Whether the setup ``program`` is a shuffle and moves by printed attributes (engine.model.dealing), asked once."""
        from engine.lang.fixed import fixed_with
        from engine.lang.parser import parse_program
        from engine.lang.types import ANY, ANY_COMPONENT
        from engine.model.dealing import plain_deal

        verdict = self.set_up.get(("plain deal", id(program)))
        if verdict is None:
            specs, globals_ = self.zone_specs, self.vocab.globals
            try:
                tree = parse_program(program.text)
            except RulesetError:
                tree = None
            verdict = tree is not None and plain_deal(
                tree,
                lambda name: name in specs and not specs[name].per_role,
                lambda name: name in specs and specs[name].per_role,
                lambda node, names: fixed_with(self.vocab, node, {**{n: ANY for n in names[:-1]}, names[-1]: ANY_COMPONENT}),
                lambda name: name in globals_ and globals_[name].constant)
            self.set_up[("plain deal", id(program))] = verdict
        return bool(verdict)

    def _seat_roles(self, s: "State", players: int, seats: dict[str, int] | None = None) -> tuple[int, ...] | None:
        """Seat the roles for ``players`` (``seats``: the deal chosen, else the generator's); a seating that deals and
        rolls nothing is worked out once per player count.  Returns the generator's draws that dealt the roles (see
        :func:`seat_draws`), or None when the seats were chosen or a roll-off decided who starts.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> a, b = game.new_state(players=2, seed=1), game.new_state(players=2, seed=2)
        >>> (a.positions, a.order) == (b.positions, b.order) and a.seat_of is b.seat_of
        True
        """
        assert self.roles is not None
        fixed = self.seatings.get(players) if seats is None else None
        if fixed is not None:
            s.positions, s.seat_of, s.order = fixed
            return ()
        positions = list(self.roles.values)
        groups, places = self._deal_places(players)
        draws: tuple[int, ...] | None = None
        if seats is not None:
            groups = self._chosen_deal(players, seats, groups, places)
        else:
            s.rng, draws = seat_draws(s.rng, len(groups))
            for k, j in zip(range(len(groups) - 1, 0, -1), draws):  # Fisher–Yates over the groups
                groups[k], groups[j] = groups[j], groups[k]
        for group, place in zip(groups, places):
            for role, i in zip(group, place):
                positions[i] = role
        seating = self.roles.seating[players]
        s.positions = tuple(positions)
        s.seat_of = {role: seating[i] for i, role in enumerate(positions)}
        order = [r for r in positions if s.seat_of[r]]
        first_seat = self._roll_off(s, players) if self.first_roll else self.first_seat
        first = next((i for i, r in enumerate(order) if s.seat_of[r] == first_seat), 0)
        order = order[first:] + order[:first]
        if self.first_roll and self.teams.get(players):
            order = _team_turn_first(order, s.seat_of, self.teams[players])
        s.order = tuple(order)
        if seats is None and not groups and not self.first_roll:  # nothing dealt or rolled: every game's seating
            self.seatings[players] = (s.positions, s.seat_of, s.order)
        return None if self.first_roll else draws

    def _deal_places(self, players: int) -> tuple[list[tuple[str, ...]], list[tuple[int, ...]]]:
        """The groups of roles dealt at random with ``players`` players, and the positions each group takes (a fresh list
        of the groups, to deal; the places are worked out once per player count).

        >>> import engine
        >>> engine.load(engine.builtin_names()[0])._deal_places(2)[1] in ([], [(0,), (1,)])
        True
        """
        assert self.roles is not None
        groups = list(self.roles.groups(players))
        places = self.deal_places.get(players)
        if places is None:
            positions = self.roles.values
            places = self.deal_places[players] = [tuple(positions.index(r) for r in group) for group in groups]
        return groups, places

    def _roll_off(self, s: "State", players: int) -> int:
        """``first_seat: lowest-roll`` (or ``highest-roll``): every seat rolls a d6, the tied best roll again; the seat that starts.

        The rolls are logged, like ``roll-off: seat 1 rolls 3, seat 2 rolls 5; seat 1 starts``.
        """
        seats = list(range(1, players + 1))
        rounds = []
        while len(seats) > 1:
            rolls = {seat: s.random_below(6) + 1 for seat in seats}
            rounds.append(", ".join(f"seat {seat} rolls {roll}" for seat, roll in rolls.items()))
            best = (min if self.first_roll == "lowest" else max)(rolls.values())
            seats = [seat for seat in seats if rolls[seat] == best]
        s.note(lambda: f"roll-off ({self.first_roll} starts): {'; then '.join(rounds)}; seat {seats[0]} starts")
        return seats[0]

    def _chosen_deal(self, players: int, seats: dict[str, int], groups: list[tuple[str, ...]],
                     places: list[tuple[int, ...]]) -> list[tuple[str, ...]]:
        """The deal that gives each role in ``seats`` its seat: the group of roles at each of ``places``.

        Roles the setup does not deal keep their seat; the groups with a role
        in ``seats`` take the first places that fit, in the order ``seats``
        lists them (so among same-seat places, the order written is the
        order on the table); the other groups fill the places left in turn.
        """
        assert self.roles is not None
        roles, seating = self.roles.values, self.roles.seating[players]
        if not isinstance(seats, Mapping):
            raise SetupError(f"seats is a mapping of roles to seats (0 for absent), not {type(seats).__name__}")
        unknown = next((role for role in seats if role not in roles), None)
        if unknown is not None:
            raise SetupError(f"seats names {cut(repr(unknown), 60)}, which is not a role (roles: {', '.join(roles)})")
        for role, seat in seats.items():  # True passed as seat 1 and 2.0 as seat 2
            if isinstance(seat, bool) or not hasattr(type(seat), "__index__") or operator.index(seat) < 0:
                raise SetupError(f"seats gives {role} {cut(repr(seat), 60)}: a seat is a whole number from 1 to {players} "
                                 "(0 for absent)")

        def at(seat: int) -> str:
            return "absent" if seat == 0 else f"at seat {seat}"

        dealt = {role for group in groups for role in group}
        for role, seat in seats.items():
            if role not in dealt and seat != seating[roles.index(role)]:
                raise SetupError(f"{role} is always {at(seating[roles.index(role)])} with {players_text(players)} (the setup does not deal it)")
        listed = list(seats)
        order = sorted(groups, key=lambda group: min((listed.index(r) for r in group if r in seats), default=len(listed)))
        taken: list[tuple[str, ...] | None] = [None] * len(places)
        for group in order:
            k = next((k for k, place in enumerate(places)
                      if taken[k] is None and all(seating[i] == seats[r] for r, i in zip(group, place) if r in seats)), None)
            if k is None:
                named = [r for r in group if r in seats]
                free = ", ".join("+".join(str(seating[i]) if seating[i] else "absent" for i in place) for place in places)
                together = "" if all(len(g) == 1 for g in groups) else (
                    f" in groups that stay together ({', '.join(' and '.join(g) for g in groups)})")
                raise SetupError(f"{' and '.join(named)} cannot be {' and '.join(at(seats[r]) for r in named)}: "
                                 f"with {players_text(players)} the roles are dealt{together} to the seats {free}")
            taken[k] = group
        return [group for group in taken if group is not None]

    def end_turn(self, s: "State") -> bool:
        """After a turn's last step: end the game if due (True), else pass the turn."""
        assert self.end_condition is not None
        stalled = self.end_when_stalled and s.turn_number - (s.decided or 0) >= len(s.order)
        if self.record_position is not None:
            self.record_position(s)
        if TurnOrder.block not in s.slices:  # the usual turn: nobody left the turn order, plays again or plays next
            met = self.end_condition.test(s)
            if met or stalled or s.turn_number >= self.max_turns:
                return self._over(s, "end condition" if met else "stalled" if stalled else "turn limit")
            s.turn = (s.turn + 1) % len(s.order)
            s.turn_number += 1
            s.turn_begins()
            return False
        left = s.left_roles()
        nobody = bool(left) and all(role in left for role in s.order)  # every role left the turn order
        met = self.end_condition.test(s)
        if met or stalled or nobody or s.turn_number >= self.max_turns:
            return self._over(s, "end condition" if met else "stalled" if stalled
                              else "nobody is left in the turn order" if nobody else "turn limit")
        s.turn = s.next_turn()
        s.turn_number += 1
        s.turn_begins()
        return False

    def cannot_move(self, s: "State", role: str) -> bool:
        """``role`` has no legal action at the first decision of its turn (``end: {no_move: ...}``): the game ends, it
        losing or all drawn (True), or its turn ends and the next begins (False, ``passes``).

        Losing scores it 0 and every other seat 1 (they share the win); a draw scores every seat 1.
        """
        name = s.actor if role == s.acting_role else str(role)
        if self.no_move == "passes":
            s.note(lambda: f"{name} has no legal move and passes")
            return False
        from engine.blocks.outcome import Outcome  # only when a game ends so

        seat = s.seat_of.get(role, 0)
        scores = tuple(0 if self.no_move == "loses" and i == seat else 1 for i in range(1, s.players + 1))
        result = "loses" if self.no_move == "loses" else "the game is drawn"
        text = f"{name} has no legal move: {result}"
        s.outcome = self.team_outcome(Outcome.from_scores(scores, text=text), s.players).ending("no legal move")
        if s.log is not None:
            s.log.append(f"game over: {s.outcome.text}")
        return True

    def _over(self, s: "State", ended: str) -> bool:
        """End the game, scored, for the reason ``ended``; True (see :meth:`end_turn`)."""
        s.outcome = self.score(s).ending(ended)
        if s.log is not None:
            s.log.append(f"game over: {s.outcome.text}")
        return True

    def score(self, s: "State") -> "Outcome":
        """The outcome of a finished game, by the block that applies to its player count."""
        for counts, block in self.outcomes:
            if s.players in counts:
                return self.team_outcome(block.evaluate(s, s.players), s.players)
        from engine.blocks.outcome import Outcome  # only when no block scores this player count

        return Outcome.from_scores((0,) * s.players, text="no scoring for this player count")

    def cooperative(self, players: int) -> bool:
        """Whether ``players`` win or lose together: the outcome for that player count is ``goals``.

        >>> from types import SimpleNamespace
        >>> from engine.blocks.outcome import Goals
        >>> together = SimpleNamespace(outcomes=[((2, 3), Goals((), (), 0))])
        >>> Game.cooperative(together, 3), Game.cooperative(together, 4)
        (True, False)
        """
        from engine.blocks.outcome import Goals  # (the outcome blocks import the model's views)

        return any(isinstance(block, Goals) for counts, block in self.outcomes if players in counts)

    def team_outcome(self, outcome: "Outcome", players: int) -> "Outcome":
        """``outcome`` with the seats' scores pooled by team, when ``players`` play in teams (else unchanged)."""
        teams = self.teams.get(players)
        return outcome if not teams else outcome.for_teams(teams)

    def score_of(self, s: "State", seat: int) -> int:
        """The ruleset's ``running_score`` for a seat (0 when the ruleset declares none)."""
        if self.running_score is None:
            return 0
        env = self.running_score.env
        env[0] = seat
        return self.running_score.fn(s, env)

    def broken_invariants(self, s: "State") -> list[str]:
        """The names of the declared invariants that do not hold in ``s``."""
        return [name for name, check in self.invariants.items() if not check.test(s)]

    def state_from_json(self, data: Any, where: str | None = None) -> "State":
        """Read a state written by :meth:`State.to_json`; refuses one from another ruleset, or holding what no game of
        this ruleset holds (a :class:`~engine.model.savefile.SaveError` naming the field, after ``where``, the file it
        was read from, when given): ``game.state_from_json(json.loads(text), where="saved.json")``."""
        from engine.model.savefile import state_from_json
        from engine.model.state import State

        return state_from_json(self, data, State, where)

    @functools.cached_property
    def counter_slots(self) -> list[tuple[int, ...]]:
        """By component, where its own counters (those ``per:`` its kind) sit in ``State.counters``, in declared order.

        A seat's determinization deals the values of the components it cannot see again among them
        (:mod:`engine.core.information`); a game with no such counter has only empty tuples.
        """
        slots: list[tuple[int, ...]] = [() for _ in self.component_names]
        for spec in self.counters.values():
            for i, owner in enumerate(spec.owners):
                if isinstance(owner, tuple):  # a keyed counter's (owner, key): a component's own when it is one
                    owner = owner[0]
                if isinstance(owner, int):
                    slots[owner] += (spec.offset + i,)
        return slots

    # ------------------------------------------------------------ words

    def describe_piece(self, cid: int, face: int) -> str:
        """``A/B as B``: a component (identical copies by their shared name) and the face it shows."""
        labels = self.face_labels[cid]
        if len(set(labels)) <= 1:
            return self.piece_names[cid]
        return f"{self.piece_names[cid]} as {labels[face]}"

    def end_reasons(self, s: "State") -> list[str]:
        """The parts of ``end: when`` (those its outermost ``or`` joins) that hold in ``s``, in words: why a game
        that ended by its condition ended (a race's ``turn > draw_after or any(won(r) == 1 for r in roles)``, the
        race drawn: ``['turn is more than draw_after']``); none where the condition does not hold (a game ended
        otherwise).

        >>> import engine
        >>> state = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> state.game.end_reasons(state)
        []
        """
        from engine.lang.program import condition_parts  # (the parser loads only when asked)

        if self.end_condition is None or not self.end_condition.test(s):
            return []
        parts = condition_parts(self.vocab, self.end_condition.text, "end")
        return [part.description for part in parts if part.test(s)] if len(parts) > 1 else [self.end_condition.description]

    def compile_condition(self, text: str, where: str = "<expression>") -> Program:
        """Compile an effect-language condition against this game (for scenarios and tools)."""
        if not isinstance(text, str):
            raise TypeError(f"compile_condition() takes the condition's text, not {cut(repr(text), 60)}")
        return compile_condition(self.vocab, text, where)


def _loaded_dice(dice: Any) -> tuple[int, ...]:
    """``new_state``'s ``dice`` as whole numbers (numpy's too); TypeError naming what else it holds.

    >>> _loaded_dice([3, 5])
    (3, 5)
    >>> _loaded_dice(["3"])
    Traceback (most recent call last):
    TypeError: dice must be a list of whole numbers (the results of the next rolls), not ['3']
    """
    try:
        if isinstance(dice, (str, bytes)) or any(isinstance(d, bool) for d in dice):
            raise TypeError
        return tuple(operator.index(d) for d in dice)
    except TypeError:
        raise TypeError(f"dice must be a list of whole numbers (the results of the next rolls), not {cut(repr(dice), 60)}") from None
