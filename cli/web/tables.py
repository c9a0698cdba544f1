"""The games the server keeps: played, watched or replayed, each behind its own lock.

A :class:`Table` holds a recorded state, the bots by seat and what the page
shows of the moves.  Humans move with :meth:`Table.act`, bots one move at a
time with :meth:`Table.advance` (the page calls it on a timer, so watching
can pause, step and change speed); :meth:`Table.undo` takes back the last
human move (or, with bots only, the last move) and puts back the bots whose
moves it takes back as they were, so that stepping forward again plays the
same moves; a replay moves to any position with :meth:`Table.goto`.  Work
that may take long (a searching bot) is done on a copy (of the state and of
the bot) and kept only if the request is still waiting for it (see
``expired``), so a request cut off by the server's time cap leaves the
table as it was.

Typical use::

    table = Table.new("t1", "my-game", engine.load("my-game"), players=2, seed=3, bots={2: "random"})
    table.act("place A at 0,0")      # seat 1, a human
    table.advance()                  # True: seat 2's bot moved
    table.undo()                     # 'took back 2 moves'; advancing after the same move again plays the same reply
"""

from __future__ import annotations

import copy
import random
import secrets
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

from engine.blocks.choice_labels import ForcedPicks
from engine.core.errors import IllegalActionError, RulecraftError, told_to_seats
from engine.core.information import determinizer
from cli.menu import why_refused, why_typed_refused
from cli.piles import Arrivals, Growth, pile_arrivals, pile_growth
from cli.turn_lines import turn_marks, turns_begun, whose_turn
from cli.web.params import MAX_SECONDS
from engine.runner.agents import Agent, GreedyAgent, SearchSpec, make_agent
from engine.runner.replay import Replay, replay
from engine.runner.simulate import derive_seed

if TYPE_CHECKING:
    from engine import Game, State

T = TypeVar("T")


class TableError(Exception):
    """A request the table refuses, with the reason in words."""


class Abandoned(TableError):
    """Work whose request was already refused as too long, stopped between two moves (its table as it was)."""


Change = tuple[tuple[int, int], "int | None", "int | None"]
"""A cell of the board a move changed: the cell, the component on top before (None: empty) and after."""


def board_changes(before: "State", after: "State") -> tuple[Change, ...]:
    """The cells whose top piece differs between two positions, or shows another face, in the board's order.

    >>> import engine
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> t = s.clone(); t.apply(t.legal_actions()[0])               # a piece put down on an empty cell
    >>> [(old, new == t.grid[cell]) for cell, old, new in board_changes(s, t)]
    [(None, True)]
    """
    old, new, faces_before, faces_after = before.grid, after.grid, before.face, after.face
    cells = [cell for cell in {**old, **new} if old.get(cell) != new.get(cell)
             or new.get(cell) is not None and faces_before[new[cell]] != faces_after[new[cell]]]
    return tuple((cell, old.get(cell), new.get(cell)) for cell in sorted(cells, key=lambda c: (c[1], c[0])))


@dataclass
class Move:
    """A move as the page shows it: who made it, its text, what the other seats saw of it, what it did (the log lines)."""

    number: int
    seat: int
    text: str
    public: str  # the text as the other seats see it (a sealed choice hides what was chosen)
    lines: list[str]
    changed: tuple[Change, ...] = ()  # the board's cells whose top piece it changed (see board_changes)
    grew: Growth = ()  # the piles it laid components on, on top or under (see cli.piles.pile_growth)
    arrived: Arrivals = ()  # what it put into piles of nobody's, and from where (see cli.piles.pile_arrivals)
    # the turns it began, in order: each where in ``lines`` (its own lines after, to the next one's), its number, whose
    turns: tuple[tuple[int, int, str], ...] = ()

    def to_json(self, seat: int | None) -> dict[str, Any]:
        """As ``seat`` sees it (None: everything, as a replay shows it; 0, nobody's seat: as every seat sees it);
        ``turns``: ``[{"at": 2, "number": 5, "whose": "seat 1 (A)"}]`` when the move began seat 1's turn 5, its lines
        from the third that turn's (see :func:`cli.turn_lines.whose_turn`); a turn that asked nobody in the middle of
        the move's lines has its own (a forced play of the other seat's read as the move's).

        >>> Move(1, 2, "pass", "pass", ["x", "y"], turns=((1, 5, "seat 1 (A)"),)).to_json(None)["turns"]
        [{'at': 1, 'number': 5, 'whose': 'seat 1 (A)'}]
        """
        shown = self.text if seat is None or seat == self.seat else self.public
        turns = {"turns": [{"at": at, "number": number, "whose": whose} for at, number, whose in self.turns]} if self.turns else {}
        return {"number": self.number, "seat": self.seat, "text": shown, "lines": self.lines, **turns}


@dataclass
class Table:
    """One game on the server."""

    id: str
    ruleset: str  # the name the catalog knows it by
    log: Replay  # ruleset reference, variants, options, players and seed; the actions when saved or replayed
    state: State
    bots: dict[int, str]  # seat -> agent spec
    agents: dict[int, Agent] = field(default_factory=dict)
    before: dict[int, tuple[int, Agent]] = field(default_factory=dict)  # bot move's position -> (seat, its agent before it)
    moves: list[Move] = field(default_factory=list)
    opening: list[str] = field(default_factory=list)  # the log of the start: setup and what ran before the first move
    opening_turns: list[dict[str, Any]] = field(default_factory=list)  # where its turns begin (cli.turn_lines.turns_begun)
    mode: str = "play"  # play, watch or replay
    keys: dict[int, str] = field(default_factory=dict, repr=False)  # a played table's human seats -> their keys
    returns: dict[int, str] = field(default_factory=dict, repr=False)  # the same seats -> their holders' way back
    position: int = 0  # a replay's position: the number of actions applied
    version: int = 0  # counts the changes, so that pages following the table know when to draw it again
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def new(cls, table_id: str, ruleset: str, game: Game, players: int, seed: int, bots: dict[int, str],
            ref: str | None = None) -> "Table":
        """A new game; ``bots`` maps seats to agent specs (the other seats are human)."""
        log = Replay(ref or ruleset, list(game.variants), players, seed, set_options=dict(game.set_options))
        log.game = game
        state = game.new_state(players=players, seed=seed, record=True)
        mode = "watch" if len(bots) == players else "play"
        table = cls(table_id, ruleset, log, state, dict(bots), mode=mode, opening=list(state.log or []),
                    opening_turns=turns_begun(state))
        table.keys = new_keys([s for s in range(1, players + 1) if s not in bots]) if mode == "play" else {}
        table.returns = new_keys(table.keys)
        table.agents = {seat: page_agent(make_agent(spec, derive_seed(seed, seat))) for seat, spec in bots.items()}
        return table

    @classmethod
    def from_replay(cls, table_id: str, ruleset: str, game: Game, log: Replay, mode: str,
                    expired: Callable[[], bool] = lambda: False) -> "Table":
        """A saved game (``mode`` play: continue it, humans at every seat) or a replay to scrub through.

        Raises SaveError naming the first action that is refused or leads elsewhere than recorded, and
        :class:`Abandoned` once ``expired()`` is true (its request was refused as too long).
        """
        log.game = game
        state = game.new_state(players=log.players, seed=log.seed, record=True)
        table = cls(table_id, ruleset, log, state, {}, mode=mode)
        table.keys = new_keys(range(1, log.players + 1)) if mode == "play" else {}
        table.returns = new_keys(table.keys)
        table._play(state, log.actions, list(log.hashes), expired)
        table.position = len(log.actions)
        return table

    # ------------------------------------------------------------ moving

    def act(self, text: str, by: int | None = None, seen: int | None = None,
            expired: Callable[[], bool] = lambda: False, typed: bool = False) -> None:
        """Apply a human's action (its text), for seat ``by`` when given (None: whoever is to move); raises TableError
        when no human is to move, it is not ``by``'s turn, or the action is illegal.

        ``seen``: the version of the table the page showed when the action was picked; when the table has moved on
        since (the same click arriving twice, a move made on another page), nothing is played.
        ``expired()`` true once the action is played: its request was refused as too long, so it is not kept.
        An action refused is told with the legal action nearest it (:func:`cli.menu.why_refused`); ``typed``: the text
        was typed where actions are looked for by a part of them and named none (:func:`cli.menu.why_typed_refused`).
        """
        if seen is not None and seen != self.version:
            raise TableError("the game moved on since this page showed it: nothing was played (choose again)")
        if self.mode == "replay":
            raise TableError("this is a replay: move through it with the slider, or load it as a game to continue it")
        if self.state.is_terminal:
            raise TableError("the game is over")
        seat = self.state.seat_to_move
        if seat in self.bots:
            raise TableError(f"seat {seat} is played by a bot ({self.bots[seat]}), not from the page")
        if by is not None and by != seat:
            raise TableError(f"it is seat {seat}'s turn, not seat {by}'s: nothing was played")
        self._apply(text, seat, expired, typed)

    def advance(self, expired: Callable[[], bool] = lambda: False, seen: int | None = None) -> bool:
        """Let the bot to move play one move; False when no bot is to move (a human's turn, or the end).

        ``seen``: the version of the table the asking page drew.  When the table has changed since (another page
        of the same table already asked for that move), nothing is played: every page of a table runs the bots on
        a timer, and the table moves once per position, not once per page.
        """
        if self.state.is_terminal or self.mode == "replay" or (seen is not None and seen != self.version):
            return False
        seat = self.state.seat_to_move
        agent = self.agents.get(seat)
        if agent is None:
            return False
        thinking = copy.deepcopy(agent)  # the agent as it was stays, for an undo (and a request cut off changes nothing)
        action = thinking.choose(self.state.clone())
        if expired():
            return False
        position = len(self.state.history or [])
        self._apply(str(action), seat)
        self.before[position] = (seat, agent)
        self.agents[seat] = thinking
        return True

    def _apply(self, text: str, seat: int, expired: Callable[[], bool] = lambda: False, typed: bool = False) -> None:
        """Play ``text`` for ``seat`` on a copy, kept unless it fails or ``expired()`` says its request was refused
        (``typed``: see :meth:`act`)."""
        before = len(self.state.log or [])
        played = self.state.clone(record=True)
        public = "this move"  # until the move is read: its own text may be hidden from the others
        try:
            action = played.parse_action(text)
            public = played.public_text(action)  # read on the position it is taken in
            with ForcedPicks(played, telling=True) as forced:  # a choice of one option: told with the move's lines
                played.apply(action, undo=False)  # a copy already: dropped if the ruleset fails
        except IllegalActionError as err:
            raise TableError((why_typed_refused if typed else why_refused)(self.state, text, err)) from None
        except RulecraftError as err:  # the ruleset failed while carrying the move out: the table stays as it was
            raise TableError(f"the ruleset failed while playing '{public}': {told_to_seats(err)} "
                             "(the game is as it was before that move)") from None
        if expired():
            return
        changed, grew, arrived = board_changes(self.state, played), pile_growth(self.state, played), pile_arrivals(self.state, played)
        lines = forced.merged(played.log or [], before)
        # each turn begun among its lines, one begun at their end too (headed, its lines to come with the next move)
        marks = turn_marks(played, before, self.state.turn_number, len(lines) + 1, forced.told)
        self.state = played
        self.moves.append(Move(len(self.moves) + 1, seat, str(action), public, lines, changed, grew, arrived,
                               tuple((at, turn, whose_turn(played, turn)) for at, turn in sorted(marks.items()))))
        self.version += 1

    def undo(self, seats: frozenset[int] | None = None, seen: int | None = None,
             expired: Callable[[], bool] = lambda: False) -> str:
        """Take back the last human move and the bots' moves after it (with bots only: the last move); what was done.

        ``seats``: the seats the asking page plays (None: every seat, one screen shared). At a table of several
        humans, only the seat that made the last human move may take it back, and, from a page playing only some of
        the human seats, not when the moves taken back showed that seat what it could not see before (see
        :func:`showed_hidden`).
        ``seen``: the version of the table the page showed when undo was clicked; when the table has changed since
        (the second click of a double click), nothing is taken back.
        """
        if seen is not None and seen != self.version:
            raise TableError("the game moved on since this page showed it: nothing was taken back (click undo again)")
        refused = self.undo_refused(seats)
        if refused is not None:
            raise TableError(refused)
        history = list(self.state.history or [])
        movers = [m.seat for m in self.moves]
        humans = [i for i, mover in enumerate(movers) if mover not in self.bots]
        keep = len(history) - 1 if self.mode == "watch" else humans[-1]
        taken = len(history) - keep
        # a page playing only some of the human seats (each human at a browser of their own) keeps their secrets
        apart = seats is not None and any(s not in seats and s not in self.bots for s in range(1, self.log.players + 1))
        last = movers[humans[-1]] if humans else None
        shown = seen_components(self.state, last) if last is not None and apart and self.mode == "play" else None
        saved = (self.state, self.moves, self.version)
        self._restart(history[:keep], expired)
        if shown is not None and last is not None and (shown - seen_components(self.state, last)
                                                       or showed_hidden(self.state, history[keep:], saved[0], last)):
            self.state, self.moves, self.version = saved
            raise TableError(f"seat {last}'s last move showed seat {last} what it could not see before (such as a "
                             f"card revealed or drawn, a hidden role, or a counter of a hidden card): at a table of "
                             f"several humans it is not taken back, or it could be played again knowing it")
        restored: set[int] = set()
        for position in sorted(p for p in self.before if p >= keep):  # each bot as before its first move taken back
            seat, agent = self.before.pop(position)
            if seat not in restored:
                self.agents[seat] = agent
                restored.add(seat)
        return f"took back {taken} move{'s' * (taken != 1)}"

    def undo_refused(self, seats: frozenset[int] | None) -> str | None:
        """Why a page playing ``seats`` (None: every seat, one screen shared) may not take back a move now, or None
        when it may try (a move that showed its seat something hidden is refused only when tried): a page playing no
        seat never takes one back, and at a table of several humans only the seat that made the last human move does.

        Example: at a table of two humans after seat 1's move, ``table.undo_refused(frozenset({2}))`` is
        ``"the last move was seat 1's: only seat 1 can take it back"``; the page then shows no undo button.
        """
        if self.mode == "replay":
            return "a replay has no moves to take back: move the slider instead"
        movers = [m.seat for m in self.moves]
        humans = [mover for mover in movers if mover not in self.bots]
        if self.mode == "watch":
            return None if self.state.history else "nothing to take back: no move has been made"
        if seats is not None and not seats:
            return "this page plays no seat: only a seat's browser takes back its move"
        several = sum(1 for s in range(1, self.log.players + 1) if s not in self.bots) > 1
        if seats is not None and several and humans and humans[-1] not in seats:
            return f"the last move was seat {humans[-1]}'s: only seat {humans[-1]} can take it back"
        return None if humans else "nothing to take back: no human has moved yet"

    def kept_unless(self, expired: Callable[[], bool], work: Callable[[], T]) -> T:
        """``work()`` (an undo, a move through a replay), undone when ``expired()`` is then true: its request was
        refused as too long and told nothing changed.  The table's state is replaced, never changed in place,
        so putting back what it held puts the table back.

        Example: ``table.kept_unless(expired, lambda: table.undo(frozenset({1})))``.
        """
        saved = (self.state, list(self.moves), dict(self.agents), dict(self.before), self.position, self.version)
        try:
            result = work()
        except BaseException:  # stopped half-way (Abandoned): nothing changed
            self.state, self.moves, self.agents, self.before, self.position, self.version = saved
            raise
        if expired():
            self.state, self.moves, self.agents, self.before, self.position, self.version = saved
        return result

    def goto(self, position: int, expired: Callable[[], bool] = lambda: False) -> None:
        """Show a replay after ``position`` of its actions (0: the start); :class:`Abandoned` once ``expired()``."""
        if self.mode != "replay":
            raise TableError("only a replay can be moved through")
        if not 0 <= position <= len(self.log.actions):
            raise TableError(f"there is no position {position}: this replay has positions 0 to {len(self.log.actions)}")
        moves = self.moves
        self._restart(self.log.actions[:position], expired)
        self.moves = moves  # a replay keeps every move's explanation
        self.position = position
        self.version += 1

    def _restart(self, actions: list[str], expired: Callable[[], bool]) -> None:
        game = self.state.game
        state = game.new_state(players=self.log.players, seed=self.log.seed, record=True)
        self.moves = []
        self._play(state, actions, None, expired)
        self.version += 1

    def _play(self, state: State, actions: list[str], hashes: list[str] | None, expired: Callable[[], bool]) -> None:
        """Play ``actions`` from ``state`` (a fresh start), recording the moves.

        With ``hashes`` (a loaded file), they are first checked on a copy: ReplayDiverged names the first
        action that is refused or leads elsewhere than recorded.  Raises :class:`Abandoned` between two
        actions once ``expired()`` is true: a long game's request refused at the cap stops its thread too.
        """
        def stop_if_expired(*_: object) -> None:
            if expired():
                raise Abandoned("this request was refused as too long: its work stopped (nothing was changed)")

        if hashes is not None:
            replay(state.clone(), actions, stop_if_expired, hashes)
        self.state = state
        self.opening, self.opening_turns = list(state.log or []), turns_begun(state)
        for text in actions:
            stop_if_expired()
            self._apply(text, self.state.seat_to_move)

    # ------------------------------------------------------------ saving

    def unsaved_for(self, seats: frozenset[int]) -> str | None:
        """Why a page playing ``seats`` (none: a page that plays no seat) may not save the game now, or None when it may.

        A save is the whole game: every choice, and the seed, which tells every card dealt face down and every die
        still to be rolled (chance is drawn from it, not recorded, so a save without it could not be replayed).
        Before the game is over it goes only to a page that plays every human seat (one screen shared, or one human
        against bots): from any other, a seat could read in it what the other humans hold, or try its moves
        against the dice to come.  The server cannot tell whether a game has chance left, so this holds for games
        played in the open too.

        Example (two humans)::

            table = Table.new("t1", "my-game", engine.load("my-game"), players=2, seed=3, bots={})
            table.unsaved_for(frozenset({1, 2}))   # None: one screen shared
            table.unsaved_for(frozenset({1}))      # "a save holds the whole game ... seat 2's hidden cards ..."
        """
        if self.mode != "play" or self.state.is_terminal:
            return None
        others = sorted(set(self.keys) - seats)
        if not others:
            return None
        whose = " and ".join(f"seat {s}" for s in others)
        return (f"a save holds the whole game, {whose}'s hidden cards and choices too, and the seed, which tells "
                "the dice still to come: it can be saved from this page once the game is over")

    def seats_held(self, presented: Callable[[int], str | None]) -> frozenset[int]:
        """The human seats whose key is presented (``presented(seat)``: the key a request carries for that seat).

        Example: with ``table.keys == {1: "abc", 2: "xyz"}``, ``table.seats_held({1: "abc", 2: "abd"}.get)`` is
        ``frozenset({1})``.
        """
        return frozenset(seat for seat, key in self.keys.items()
                         if secrets.compare_digest((presented(seat) or "").encode(), key.encode()))

    def renew_key(self, seat: int) -> str:
        """A new key for ``seat``, handed to another browser: the browser that held the seat holds it no more, nor
        can its way back take it again (the version changes, so that the pages following the table draw it again
        with the seats they hold now)."""
        self.keys[seat] = secrets.token_urlsafe(16)
        self.returns[seat] = secrets.token_urlsafe(16)
        self.version += 1
        return self.keys[seat]

    def seats_returned(self, tokens: Iterable[str]) -> list[int]:
        """The seats a browser coming back with ``tokens`` (their ways back) holds again: those whose token is
        among them (not a seat handed to another browser since).

        Example: ``table.seats_returned([table.returns[1], "nonsense"]) == [1]``.
        """
        given = [token.encode() for token in tokens]
        return [seat for seat, kept in sorted(self.returns.items())
                if any(secrets.compare_digest(token, kept.encode()) for token in given)]

    def save(self, seats: frozenset[int]) -> dict[str, Any]:
        """The game so far in the command line's save format (``rulecraft play --load``, ``rulecraft replay``),
        for a page playing ``seats``; TableError when that page may not save it now (see :meth:`unsaved_for`)."""
        refused = self.unsaved_for(seats)
        if refused is not None:
            raise TableError(refused)
        if self.mode == "replay":
            actions = list(self.log.actions)
        else:
            actions = list(self.state.history or [])
        log = Replay(self.log.ruleset, list(self.log.variant), self.log.players, self.log.seed, actions,
                     set_options=dict(self.log.set_options))
        log.seal(self.state.game)
        return log.to_json()


def seen_components(state: State, seat: int) -> Counter[str]:
    """The components ``seat`` sees, by name, counted (a zone hidden from it counts none), and the other seats'
    numbers revealed to it (a sealed number, as ``ROLE SLOT NUMBER``): what a move showed it is what this counts
    more of after it.

    Example: after a reveal of sealed cards, ``seen_components(after, 2) - seen_components(before, 2)`` holds the
    card seat 1 had sealed; after seat 2 was shown a card of seat 1's hand, that card.
    """
    observed = state.observation(seat)
    seen: Counter[str] = Counter()
    for content in observed["zones"].values():
        if isinstance(content, list):
            seen.update(content)
        else:  # a hidden zone: the components shown to this seat there (show(..., to = r))
            seen.update(name for _, name in content.get("seen", ()))
    revealed = (observed.get("committed_numbers") or {}).get("revealed", [])
    seen.update(" ".join(map(str, entry)) for entry in revealed if state.seat_of.get(entry[0]) != seat)
    return seen


WORLDS = 6
"""Positions :func:`showed_hidden` draws as a seat sees the position before the moves taken back."""


def showed_hidden(before: State, actions: list[str], after: State, seat: int) -> bool:
    """Whether playing ``actions`` from ``before`` (to ``after``) showed ``seat`` something hidden from it: its
    observation of ``after`` (every zone, counter, role and sealed part it sees) differs from the one the same
    actions leave in some of :data:`WORLDS` positions drawn as ``seat`` sees ``before`` (what it cannot see drawn
    again, chance falling as it fell), among those where the actions are legal.

    Example: seat 2 sealed its card last and the sealed cards were revealed: ``showed_hidden(before, taken, after,
    2)`` is True, seat 1's card being another in the positions drawn.
    """
    seen = after.observation(seat)
    draw = determinizer(before, seat)
    for n in range(WORLDS):
        world = draw(random.Random(n))
        world.rng = before.rng  # only what the seat could not see is drawn again: a die falls as it fell
        try:
            for action in actions:
                world.apply(action, undo=False)
        except RulecraftError:  # a position the actions rule out (a card played that it does not hold)
            continue
        if world.observation(seat) != seen:
            return True
    return False


def page_agent(agent: Agent) -> Agent:
    """``agent`` as the page's bots run: a search stops after :data:`~cli.web.params.MAX_SECONDS` whatever its
    iterations (``mcts:5000`` took a minute a move on a slow game, past the request's cap, its thread running on),
    and greedy tries no option after them (on a choice among 10,000 numbers it tried thousands, minutes on end).

    Example: ``page_agent(make_agent("mcts:5000", 1)).spec.budget.at_most == 5.0``; a random agent is as it was.
    """
    spec = getattr(agent, "spec", None)
    if isinstance(spec, SearchSpec):
        agent.spec = replace(spec, budget=replace(spec.budget, at_most=MAX_SECONDS))  # type: ignore[attr-defined]
    if isinstance(agent, GreedyAgent):
        agent.at_most = MAX_SECONDS
    return agent


def new_keys(seats: Iterable[int]) -> dict[int, str]:
    """A key per seat, unguessable (``secrets.token_urlsafe``): whoever presents it plays that seat.

    >>> sorted(new_keys([1, 3])), len(new_keys([1])[1]) > 20
    ([1, 3], True)
    """
    return {seat: secrets.token_urlsafe(16) for seat in seats}


class ServerFull(TableError):
    """No table may be forgotten for a new one: every one holds a game being played, asked for lately."""


class Tables:
    """The tables of one server; beyond ``limit``, one is forgotten for a new one, whichever costs least: the least
    recently asked for among those whose loss costs nobody a game (bots only, a replay, a game over), else among
    those where no human has moved yet, else among games being played that nobody asked for in ``idle`` seconds.
    When every table is a game being played and asked for lately, the new one is refused (:class:`ServerFull`):
    a stranger opening table after table closes nobody's game.

    A table's id is its number and a mark drawn when the server starts (``t1-4f9a2c``), so that a page left open
    across a restart names no table of the new server: its clicks are refused, not played in another game.

    >>> import engine
    >>> name = engine.builtin_names()[0]
    >>> game, tables = engine.load(name), Tables(limit=1)
    >>> played = tables.add(Table.new(tables.next_id(), name, game, 2, 1, {}))
    >>> played.act(str(played.state.legal_actions()[0]))  # a human moves: the game is being played
    >>> try:
    ...     tables.add(Table.new(tables.next_id(), name, game, 2, 1, {1: "random", 2: "random"}))
    ... except ServerFull as full:
    ...     print(str(full)[:67])
    this server keeps at most 1 tables, and each is a game being played
    >>> tables.get(played.id) is played
    True
    """

    def __init__(self, limit: int = 200, idle: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.idle = idle
        self.clock = clock
        self.run = secrets.token_hex(3)  # this server's mark
        self._tables: OrderedDict[str, Table] = OrderedDict()  # the least recently asked for first
        self._asked: dict[str, float] = {}  # table id -> when it was last asked for (or opened)
        self._lock = threading.Lock()
        self._count = 0

    def next_id(self) -> str:
        """A new table's id: ``t1-4f9a2c``, ``t2-4f9a2c``... (the mark is this server's)."""
        with self._lock:
            self._count += 1
            return f"t{self._count}-{self.run}"

    def add(self, table: Table) -> Table:
        """Keep ``table``, forgetting another when there are ``limit`` already; :class:`ServerFull` when none may go."""
        with self._lock:
            while len(self._tables) >= self.limit:
                del self._tables[self._to_forget()]
            self._tables[table.id] = table
            self._asked[table.id] = self.clock()
            for gone in [key for key in self._asked if key not in self._tables]:
                del self._asked[gone]
        return table

    def _to_forget(self) -> str:
        """The id of the table whose loss costs least (see the class), or :class:`ServerFull`."""
        kept = self._tables.items()
        lately = self.clock() - self.idle
        for costs_nothing in (_spare, _unplayed, lambda t: self._asked.get(t.id, 0.0) < lately):
            found = next((key for key, table in kept if costs_nothing(table)), None)
            if found is not None:
                return found
        raise ServerFull(f"this server keeps at most {self.limit} tables, and each is a game being played, asked for "
                         f"in the last {self.idle / 60:g} minutes: none is closed for a new one (try again later)")

    def get(self, table_id: str) -> Table:
        table = self.touch(table_id)
        if table is None:
            raise TableError(f"there is no game '{table_id}' on this server (it may have been closed, or the server "
                             "started again since: start a new one)")
        return table

    def touch(self, table_id: str) -> Table | None:
        """The table ``table_id``, marked as asked for now (a page following it: the last to be forgotten), or None.

        >>> Tables().touch("t9-000000") is None
        True
        """
        with self._lock:
            table = self._tables.get(table_id)
            if table is not None:
                self._tables.move_to_end(table_id)
                self._asked[table_id] = self.clock()
        return table


def _spare(table: Table) -> bool:
    """Whether forgetting ``table`` costs nobody a game: it has no human seat (watched, replayed) or is over."""
    return not table.keys or table.state.is_terminal


def _unplayed(table: Table) -> bool:
    """Whether no human has moved at ``table`` yet (a game opened and left): forgetting it loses no one's move."""
    return all(move.seat in table.bots for move in table.moves)
