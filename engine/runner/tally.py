"""A run's figures counted as its games arrive: what a report says, without keeping every game.

A :class:`RunTally` adds each :class:`~engine.runner.report.GameResult` to counts (wins per seat, lengths by
value, uses per component, answers per choice...) and forgets it, so the memory of a run of ten million games
is that of a run of a hundred: a few counts per seat, per length, per component.  Its :meth:`RunTally.to_json`
holds every count, so an interrupted run written as JSON goes on where it stopped (``--resume``), with the
report an uninterrupted run gives.

>>> from engine.runner.report import GameResult
>>> tally = RunTally(2, ("random", "random"), (), [])
>>> tally.add(GameResult((1,), (1.0, 0.0), 9)); tally.add(GameResult((1, 2), (0.5, 0.5), 7))
>>> tally.games, tally.wins, tally.draws, tally.length.median
(2, [1, 0], 1, 8.0)
>>> RunTally.from_json(tally.to_json()).to_json() == tally.to_json()
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine.runner.significance import Rate, flag
from engine.runner.spread import Spread
from engine.runner.tally_shape import check_counts

if TYPE_CHECKING:
    from engine.runner.report import GameResult


@dataclass(frozen=True)
class ContentUse:
    """How one component (or one kind of component) was used over a run, and how its users did."""

    name: str
    kind: str
    uses: int  # decisions that used it
    games: int  # games in which some decision used it
    users: Rate  # seat-games in which that seat used it, and how many of them it won
    flag: str

    def to_json(self) -> dict[str, Any]:
        """The item's uses, games, its users' win rate and its flag, as a report's JSON lists them."""
        return {"kind": self.kind, "uses": self.uses, "games": self.games, **self.users.to_json(), "flag": self.flag}


def result_kind(game: "GameResult", seat: int) -> str:
    """What ``game`` was for ``seat``: ``won`` (alone, or with its team alone), ``shared`` (a draw), ``lost``, or
    ``nobody won``.

    >>> from engine.runner.report import GameResult
    >>> result_kind(GameResult((1, 2), (0.5, 0.5), 9), 2), result_kind(GameResult((), (0.0, 0.0), 9), 1)
    ('shared', 'nobody won')
    """
    if game.won(seat):
        return "won"
    if seat in game.winners:
        return "shared"
    return "lost" if game.winners else "nobody won"


def rivals_of(seat: int, players: int, teams: Sequence[tuple[int, ...]]) -> list[int]:
    """The seats playing against ``seat``: every other seat, or, with teams, the seats of the other teams.

    >>> rivals_of(1, 4, ((1, 3), (2, 4))), rivals_of(2, 3, ())
    ([2, 4], [1, 3])
    """
    team = next((members for members in teams if seat in members), (seat,))
    return [other for other in range(1, players + 1) if other not in team]


@dataclass
class ContentTally:
    """Counts of uses, games, and users' seat-games and wins, by a key (a name or a kind)."""

    uses: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    trials: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)

    def add(self, result: "GameResult", key: Callable[[int], str], held: bool = False) -> None:
        """Count ``result``'s components by ``key``: those its seats' decisions used, or (``held``) those each seat held
        as the game started."""
        in_game: dict[str, None] = {}  # the keys in their first order, not a set's: a set's follows the process's
        for seat, used in enumerate(result.held if held else result.used, 1):  # string hashing, and so did the
            keys = [key(cid) for cid in used]  # order of the counts in a report's JSON (local and Ray runs differed)
            self.uses.update(keys)
            mine = list(dict.fromkeys(keys))
            self.trials.update(mine)
            if result.won(seat):
                self.wins.update(mine)
            in_game.update(dict.fromkeys(mine))
        self.games.update(list(in_game))

    def use(self, name: str, kind: str, baseline: float | None, judged: bool = True) -> ContentUse:
        """The figures of ``name``; flagged only when ``judged`` (some decision could have used it), and never
        ``strong`` nor ``weak`` without a ``baseline`` (a cooperative game's)."""
        users = Rate(self.wins[name], self.trials[name])
        marked = flag(self.uses[name], users, baseline) if judged else ""
        return ContentUse(name, kind, self.uses[name], self.games[name], users, marked)

    def to_json(self) -> dict[str, dict[str, int]]:
        """The counts by name, as a partial report's JSON keeps them to go on from."""
        return {"uses": dict(self.uses), "games": dict(self.games), "trials": dict(self.trials), "wins": dict(self.wins)}

    @classmethod
    def from_json(cls, data: dict[str, dict[str, int]]) -> "ContentTally":
        """The counts :meth:`to_json` wrote."""
        return cls(*(Counter(data[part]) for part in ("uses", "games", "trials", "wins")))


Answer = tuple[str, str]  # (what was asked, the answer)


@dataclass
class RunTally:
    """Every count a report is computed from, added to game by game (see the module's docstring)."""

    players: int
    agents: tuple[str, ...]  # the run's seating of the agents (a game's own when the run turned them round)
    teams: tuple[tuple[int, ...], ...]
    content: Sequence[tuple[str, str]]  # (name, kind) of every component, by id
    games: int = 0
    wins: list[int] = field(default_factory=list)  # per seat: games it won alone (or with its team alone)
    draws: int = 0
    no_winner: int = 0
    returns: list[float] = field(default_factory=list)  # per seat: the sum of its returns
    paid: dict[str, set[float]] = field(default_factory=dict)  # per result (won, lost...): the points it paid
    points: list[Counter[float]] = field(default_factory=list)  # per seat: the games that paid it each value
    agent_trials: Counter[str] = field(default_factory=Counter)
    agent_wins: Counter[str] = field(default_factory=Counter)
    length: Spread = field(default_factory=Spread)
    turns: Spread = field(default_factory=Spread)
    role_trials: Counter[str] = field(default_factory=Counter)
    role_wins: Counter[str] = field(default_factory=Counter)
    role_seats: dict[str, set[int]] = field(default_factory=dict)  # per role: the seats that played it
    without_decisions: int = 0
    at_turn_limit: int = 0
    tied_by_order: int = 0
    opened_sealed: int = 0
    first_games: int = 0  # games with a first mover (a decision, not a sealed one)
    first_wins: int = 0  # ...that it won
    rival_trials: int = 0  # its rivals' seat-games in them
    rival_wins: int = 0
    side_wins: int = 0  # wins of every side (a seat, or a team) in them
    lead_changes: Spread = field(default_factory=Spread)
    no_lead_change: int = 0
    margins: Spread = field(default_factory=Spread)
    used: ContentTally = field(default_factory=ContentTally)  # by component name
    kinds: ContentTally = field(default_factory=ContentTally)  # by kind
    held: ContentTally = field(default_factory=ContentTally)  # held as the game started, by name
    held_roles: dict[str, set[str]] = field(default_factory=dict)  # per name: the roles every holder of it played
    holders: dict[str, set[int]] = field(default_factory=dict)  # per name: the seats that held it as a game started
    held_by_all: set[str] | None = None  # the names every seat held as every game started (None: no game yet)
    offered: Counter[Answer] = field(default_factory=Counter)
    taken: Counter[Answer] = field(default_factory=Counter)
    answer_trials: Counter[Answer] = field(default_factory=Counter)
    answer_wins: Counter[Answer] = field(default_factory=Counter)
    team_wins: int = 0  # games whose winners were one team (Outcome.teams), declared or dealt in secret
    one_held: bool = True  # every seat held exactly one component as every game started (its side, dealt in secret)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.returns = self.returns or [0] * self.players
        self.points = self.points or [Counter() for _ in range(self.players)]

    def add(self, r: "GameResult") -> None:
        """Count one game's result."""
        seats = range(1, self.players + 1)
        self.games += 1
        for seat in seats:
            self.wins[seat - 1] += r.won(seat)
            self.returns[seat - 1] += r.returns[seat - 1]
        self.draws += r.draw
        self.no_winner += not r.winners
        for seat, points in zip(seats, r.scores):
            self.paid.setdefault(result_kind(r, seat), set()).add(points)
            self.points[seat - 1][points] += 1
        for seat, spec in enumerate(r.agents or self.agents, 1):
            self.agent_trials[spec] += 1
            self.agent_wins[spec] += r.won(seat)
        self.length.add(r.length)
        self.turns.add(r.turns)
        for seat, roles in enumerate(r.roles, 1):
            self.role_trials.update(roles)
            if r.won(seat):
                self.role_wins.update(roles)
            for role in roles:
                self.role_seats.setdefault(role, set()).add(seat)
        self.without_decisions += not r.first
        self.at_turn_limit += r.turn_limit
        self.tied_by_order += r.tie_by_order
        self.opened_sealed += bool(r.first and r.sealed_start)
        if r.first and not r.sealed_start:
            self._first(r)
        if r.lead_changes is not None:
            self.lead_changes.add(r.lead_changes)
            self.no_lead_change += r.lead_changes == 0
        if r.margin is not None:
            self.margins.add(r.margin)
        self._content(r)
        self._answers(r)
        self.team_wins += r.team_win
        self.one_held = self.one_held and len(r.held) == self.players and all(len(held) == 1 for held in r.held)

    def _first(self, r: "GameResult") -> None:
        """Count a game with a first mover: its win, its rivals', every side's."""
        rivals = rivals_of(r.first, self.players, self.teams)
        self.first_games += 1
        self.first_wins += r.won(r.first)
        self.rival_trials += len(rivals)
        self.rival_wins += sum(r.won(seat) for seat in rivals)
        sides = self.teams or tuple((seat,) for seat in range(1, self.players + 1))
        self.side_wins += sum(r.won(side[0]) for side in sides)

    def _content(self, r: "GameResult") -> None:
        """Count the components the seats used and held, and the roles the holders played."""
        self.used.add(r, lambda cid: self.content[cid][0])
        self.kinds.add(r, lambda cid: self.content[cid][1])
        self.held.add(r, lambda cid: self.content[cid][0], held=True)
        for seat, held in enumerate(r.held, 1):
            names = {self.content[cid][0] for cid in held}
            self.held_by_all = names if self.held_by_all is None else self.held_by_all & names
            roles = set(r.roles[seat - 1]) if r.roles else set()
            for cid in held:
                name = self.content[cid][0]
                self.held_roles[name] = self.held_roles[name] & roles if name in self.held_roles else set(roles)
                self.holders.setdefault(name, set()).add(seat)

    def _answers(self, r: "GameResult") -> None:
        """Count the answers offered and taken, and how the seats that took each did."""
        self.offered.update(dict(r.offered))
        for seat, answers in enumerate(r.answers, 1):
            self.taken.update(answers)
            distinct = list(dict.fromkeys(answers))  # in their order: a set's changes with the process (see ContentTally)
            self.answer_trials.update(distinct)
            if r.won(seat):
                self.answer_wins.update(distinct)

    # ------------------------------------------------------------ as data, to go on from

    COUNTERS = ("agent_trials", "agent_wins", "role_trials", "role_wins")
    SPREADS = ("length", "turns", "lead_changes", "margins")
    CONTENT = ("used", "kinds", "held")
    ANSWERS = ("offered", "taken", "answer_trials", "answer_wins")
    NUMBERS = ("games", "draws", "no_winner", "without_decisions", "at_turn_limit", "tied_by_order", "opened_sealed",
               "first_games", "first_wins", "rival_trials", "rival_wins", "side_wins", "no_lead_change", "team_wins")

    def to_json(self) -> dict[str, Any]:
        """Every count, as JSON (what :meth:`from_json` reads back; numbers keep their type, orders are kept)."""
        return {
            "players": self.players, "agents": list(self.agents), "teams": [list(team) for team in self.teams],
            "content": [list(item) for item in self.content],
            **{name: getattr(self, name) for name in self.NUMBERS},
            "wins": self.wins, "returns": self.returns,
            "paid": {kind: sorted(values) for kind, values in self.paid.items()},
            "points": [[[value, n] for value, n in counts.items()] for counts in self.points],
            **{name: dict(getattr(self, name)) for name in self.COUNTERS},
            **{name: getattr(self, name).to_json() for name in self.SPREADS},
            **{name: getattr(self, name).to_json() for name in self.CONTENT},
            "one_held": self.one_held,
            "role_seats": {role: sorted(seats) for role, seats in self.role_seats.items()},
            "held_roles": {name: sorted(roles) for name, roles in self.held_roles.items()},
            "holders": {name: sorted(seats) for name, seats in self.holders.items()},
            "held_by_all": None if self.held_by_all is None else sorted(self.held_by_all),
            **{name: [[*key, n] for key, n in getattr(self, name).items()] for name in self.ANSWERS},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RunTally":
        """The tally :meth:`to_json` wrote; a part missing or of another shape is a ValueError (a file edited by
        hand, or not a run's), and so are counts no run of games writes (:func:`~engine.runner.tally_shape.check_counts`:
        a count of another type or out of its range, more wins than trials).

        >>> RunTally.from_json(RunTally(2, ("random", "random"), (), []).to_json() | {"games": -5})
        Traceback (most recent call last):
        ValueError: the counts of the run are damaged: 'games' is -5: a whole number from 0 to 10000000
        """
        try:
            check_counts(data)
        except KeyError as err:
            raise ValueError(f"the counts of the run are damaged: they hold no {err}") from None
        except ValueError as err:
            raise ValueError(f"the counts of the run are damaged: {err}") from None
        try:
            parts: dict[str, Any] = {
                **{name: int(data[name]) for name in cls.NUMBERS},
                **{name: Counter(data[name]) for name in cls.COUNTERS},
                **{name: Spread.from_json(data[name]) for name in cls.SPREADS},
                **{name: ContentTally.from_json(data[name]) for name in cls.CONTENT},
                **{name: Counter({(choice, answer): n for choice, answer, n in data[name]}) for name in cls.ANSWERS},
            }
            return cls(
                data["players"], tuple(data["agents"]), tuple(tuple(team) for team in data["teams"]),
                [tuple(item) for item in data["content"]],
                wins=list(data["wins"]), returns=list(data["returns"]),
                paid={kind: set(values) for kind, values in data["paid"].items()},
                points=[Counter({value: n for value, n in counts}) for counts in data["points"]],
                one_held=bool(data["one_held"]),
                role_seats={role: set(seats) for role, seats in data["role_seats"].items()},
                held_roles={name: set(roles) for name, roles in data["held_roles"].items()},
                holders={name: set(seats) for name, seats in data["holders"].items()},
                held_by_all=None if data.get("held_by_all") is None else set(data["held_by_all"]),
                **parts,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"the counts of the run are damaged ({type(err).__name__}: {err})") from None
