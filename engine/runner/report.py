"""Simulation reports: what a run of games says about a ruleset, and how sure it is.

A report is computed from the counts of its games (:class:`~engine.runner.tally.RunTally`, one
:class:`GameResult` added per game as it arrives; the results themselves kept only when asked): win rates per
seat and per agent with 95% Wilson intervals, draws, the points each seat
scored when a result paid different points in different games (a gammon
worth 2), game length, the
first player's advantage, how decisive games were (lead changes in the
ruleset's ``running_score``, and the final margin in it, or in the final
scores when there is none), and per-content
statistics: how often each component (and each kind) was played, picked or
cast, and how the seats that used it did.  For balance: whether the seats (or
teams) won more unevenly than chance would make them (a chi-square test,
:class:`SeatBalance`), the length in turns, the win rate of each role dealt
and of each component a seat held as the game started (a hand, a secret
side), and how often each answer to a choice (words, numbers, components by name) was
offered and taken.  :func:`~engine.runner.comparison.compare` sets two
reports of the same seeds side by side with significance tests (each seat's
mean points too, when either run's points vary).

A seat *wins* a game when it is the only winner, or, with teams, when its
team is the only winning team (any other shared win is a draw).
Content is flagged ``unused`` when no decision used it, ``strong`` when even
the low end of the 95% Wilson interval of its users' win rate is above the
mean win rate of a seat (sole wins / (games x players)), and ``weak`` when
the high end is below it.  A run in which no game had a decision (every step
automatic) has no first mover and flags nothing: no decision could use
anything.  A piece a choice took as its one option, without asking, counts as
used by its chooser (no decision, but the piece was played).  A kind of
component that no decision of the run used at all
(cards the game turns up by itself) is not flagged ``unused``, nor are its components: its zero uses
show that no player chose it, not that players passed it by.  In a
cooperative game (every seat one team) nothing is flagged ``strong`` or
``weak``: every seat shares each result, so its users' wins measure how long
the games lasted (how many chances there were to use it), not the item.

Example::

    report = simulate(engine.load("my-game"), players=2, n=1000, seed=0, agents="random")
    report.win_rate[1].low, report.win_rate[1].high     # seat 1's 95% interval
    [c.name for c in report.content_uses if c.flag]     # content to look at
    compare(report, other_report).seats[1].p            # did seat 1's win rate change?

The statistics it rests on (intervals, p-values, summaries, flags) are
:mod:`engine.runner.significance`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator, Sequence

from engine.core.showtext import cut
from engine.runner.significance import (ALPHA, Points, Rate, Summary, detectable_gap, even_chance_p, flag,
                                        one_proportion_p)
from engine.runner.spread import Spread
from engine.runner.tally import ContentUse, RunTally, rivals_of


# ---------------------------------------------------------------- games and reports


@dataclass(frozen=True)
class GameResult:
    """What a report needs from one finished game."""

    winners: tuple[int, ...]
    returns: tuple[float, ...]
    length: int
    first: int = 0  # the seat whose turn came first (0: the game needed no decision)
    used: tuple[tuple[int, ...], ...] = ()  # per seat: the component ids its decisions used, in order
    lead_changes: int | None = None  # None when the ruleset declares no running_score
    margin: float | None = None  # how far the top seat or team finished ahead of the next, in running_score (else final score)
    team_win: bool = False  # the winners are one team (see Outcome.teams): a win for each of them, not a draw
    seed: int = 0  # the game's own seed (derived from the run's seed and the game's index)
    scores: tuple[int, ...] = ()  # each seat's final score
    turn_limit: bool = False  # the game was stopped by the turn limit (end: max_turns), not by a rule of its own
    sealed_start: bool = False  # the first decision was sealed, every seat choosing at once: nobody moved first
    tie_by_order: bool = False  # the first place went by the order ``rank`` lists the items, tied on every key
    turns: int = 0  # the turns the game took (the turn it ended in)
    roles: tuple[tuple[str, ...], ...] = ()  # per seat: the roles it was dealt (when the ruleset declares roles)
    held: tuple[tuple[int, ...], ...] = ()  # per seat: the component ids in its own zones as the game started
    answers: tuple[tuple[tuple[str, str], ...], ...] = ()  # per seat: (choice, answer) of its choices (components by name)
    offered: tuple[tuple[tuple[str, str], int], ...] = ()  # each (choice, answer) offered, and how often
    agents: tuple[str, ...] = ()  # the agent of each seat, when the run turned them round (else the report's)

    @property
    def draw(self) -> bool:
        """Several seats share the win, and they are not one team."""
        return len(self.winners) > 1 and not self.team_win

    def won(self, seat: int) -> bool:
        """True when ``seat`` is the only winner, or one of a team that won alone."""
        return seat in self.winners and not self.draw


NEVER, ALWAYS = "never taken", "always taken"
"""Answer flags: offered but never taken (an option the players pass by), taken every time it was offered."""


@dataclass(frozen=True)
class AnswerUse:
    """How one answer to a choice (``pass``, ``stop``, a component's name) was offered and taken over a run,
    and how the seats that took it did."""

    choice: str  # what was asked (the choice's text)
    answer: str
    offered: int  # decisions that offered it
    taken: int  # decisions that took it
    users: Rate  # seat-games in which that seat took it, and how many of them it won
    flag: str

    @property
    def share(self) -> float:
        """How often it was taken when offered."""
        return self.taken / self.offered if self.offered else 0.0

    def to_json(self) -> dict[str, Any]:
        """The answer's counts, its users' win rate and its flag, as a report's JSON lists them."""
        return {"choice": self.choice, "answer": self.answer, "offered": self.offered, "taken": self.taken,
                "share": self.share, **self.users.to_json(), "flag": self.flag}


def answer_flag(offered: int, taken: int, users: Rate, baseline: float | None) -> str:
    """``never taken``, ``always taken``, else as content is flagged (``strong``, ``weak`` or '').

    >>> answer_flag(10, 0, Rate(0, 0), 0.5), answer_flag(10, 10, Rate(5, 10), 0.5), answer_flag(10, 4, Rate(4, 4), 0.2)
    ('never taken', 'always taken', 'strong')
    """
    if taken == 0:
        return NEVER
    if taken == offered:
        return ALWAYS
    return flag(taken, users, baseline)


@dataclass(frozen=True)
class FirstPlayer:
    """How the seat that moved first did against the other seats."""

    first: Rate  # games the first mover won
    others: Rate  # seat-games of its rivals (the other seats; with teams, the other teams' seats), and how many they won
    expected: float = 0.0  # how often a side (a seat, or a team) won, over every side of those games: the even share

    @property
    def advantage(self) -> float:
        """The first mover's win rate minus its rivals'."""
        return self.first.rate - self.others.rate

    @property
    def p(self) -> float:
        """The p-value of the first mover's win rate against the even share (a one-proportion z-test): how likely a
        rate this far from it is by chance alone.  Not a test of the first mover against its rivals as two samples:
        they are the same games (with two seats and no draw, one's wins are the other's losses), which made a fair
        coin's 163 wins of 300 'significant' (p 0.034) where they are not (p 0.133)."""
        return one_proportion_p(self.first.wins, self.first.trials, self.expected)

    @property
    def significant(self) -> bool:
        """Whether the first mover's rate is significantly off the even share (``p < ALPHA``)."""
        return self.p < ALPHA

    def to_json(self) -> dict[str, Any]:
        """Both rates, the advantage, the even share and the test, as a report's JSON holds them."""
        return {"first": self.first.to_json(), "others": self.others.to_json(), "advantage": self.advantage,
                "expected": self.expected, "p": self.p, "significant": self.significant}


@dataclass(frozen=True)
class SeatBalance:
    """Whether the sides (the seats, or with teams the teams) won alone more unevenly than chance would make them if
    every side were as likely to win: the chi-square goodness-of-fit test of their sole wins against equal chances.

    >>> balance = SeatBalance(((1,), (2,)), (60, 40), 100)
    >>> round(balance.p, 4), balance.significant, balance.most
    (0.0455, True, 0)
    """

    sides: tuple[tuple[int, ...], ...]
    wins: tuple[int, ...]  # each side's sole wins, in the order of ``sides``
    games: int

    @property
    def p(self) -> float:
        """The chi-square test's p-value: how likely wins this uneven are when every side is as likely to win."""
        return even_chance_p(self.wins)

    @property
    def significant(self) -> bool:
        """Whether the sides won significantly unevenly (``p < ALPHA``)."""
        return self.p < ALPHA

    @property
    def most(self) -> int:
        """The index of the side that won most (the first of them on a tie)."""
        return self.wins.index(max(self.wins))

    @property
    def detectable(self) -> float:
        """The gap between two sides' win rates this many games find four times in five (smaller ones may go unseen)."""
        return detectable_gap(sum(self.wins) / max(self.games * len(self.sides), 1), self.games)

    def to_json(self) -> dict[str, Any]:
        """Each side's wins by its seats (``"1"``, or a team's ``"1 3"``), the test and the gap a run could miss.

        >>> SeatBalance(((1, 3), (2, 4)), (60, 40), 100).to_json()["wins"]
        {'1 3': 60, '2 4': 40}
        """
        return {"wins": {" ".join(map(str, side)): wins for side, wins in zip(self.sides, self.wins)}, "p": self.p,
                "significant": self.significant, "detectable_gap": self.detectable}


def seats_text(seats: Sequence[int]) -> str:
    """Seat numbers in words.

    >>> seats_text((1, 3)), seats_text((1, 2, 4))
    ('1 and 3', '1, 2 and 4')
    """
    words = list(map(str, seats))
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


class NotKept(Sequence[GameResult]):
    """The ``results`` of a report that kept no game's result, only the counts of its games (a long run's; see
    :class:`~engine.runner.tally.RunTally`): reading it is a ValueError saying so, not an empty list that looks like
    a run of no games.  It carries the counts, so a copy of the report (``dataclasses.replace``) keeps them.

    >>> list(NotKept(RunTally(2, ("random", "random"), (), [])))
    Traceback (most recent call last):
    ValueError: this report kept no game's result, only the counts its figures come from: simulate(..., keep_results=True) keeps them (or on_game=... sees each as it comes; the command line's --games FILE.csv writes them)
    """

    def __init__(self, tally: RunTally) -> None:
        self.tally = tally

    def _refuse(self) -> Any:
        raise ValueError("this report kept no game's result, only the counts its figures come from: "
                         "simulate(..., keep_results=True) keeps them (or on_game=... sees each as it comes; the "
                         "command line's --games FILE.csv writes them)")

    def __len__(self) -> int:
        return self._refuse()

    def __getitem__(self, index: Any) -> Any:
        return self._refuse()

    def __iter__(self) -> Iterator[GameResult]:
        return self._refuse()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NotKept) and other.tally.to_json() == self.tally.to_json()

    def __repr__(self) -> str:
        return f"<{self.tally.games} games not kept>"


CACHED = ("content_uses", "kind_uses", "held_uses", "role_bound", "answer_uses")
"""The figures a report computes once; a game added forgets them."""


@dataclass(repr=False)
class SimulationReport:
    """Everything a run of games says, computed from the counts of its games (:attr:`tally`), and its games' results
    themselves when it keeps them (``results``; a :class:`NotKept` when it does not)."""

    ruleset: str
    variants: list[str]
    players: int
    agents: list[str]
    seed: int
    content: list[tuple[str, str]]  # (name, kind) of every component, by id (identical copies share their name)
    results: Sequence[GameResult] = field(default_factory=list)
    set_options: dict[str, str] = field(default_factory=dict)  # options set from outside the files (``--set``)
    planned: int | None = None  # games asked for, when the run was interrupted (Ctrl-C) before all finished
    failed: str | None = None  # the error of the game that stopped the run, when one failed (the run is partial too)
    teams: tuple[tuple[int, ...], ...] = ()  # the seats of each team, when the seats play in teams
    rotated: bool = False  # the agents were turned round one seat a game (``agents`` is the first game's seating)
    secret_roles: bool = False  # the roles are hidden (known only to the seat playing each): sides dealt in secret
    content_hash: str = ""  # the ruleset's (Game.content_hash): a run goes on only from games of the same rules
    tally: RunTally = field(init=False, compare=False)

    def __post_init__(self) -> None:
        """The counts of the results given (a :class:`NotKept`'s own, copied)."""
        if isinstance(self.results, NotKept):
            self.tally = copy.deepcopy(self.results.tally)
            self.results = NotKept(self.tally)
            return
        self.results = list(self.results)
        self.tally = RunTally(self.players, tuple(self.agents), tuple(self.teams), self.content)
        for result in self.results:
            self.tally.add(result)

    @property
    def kept(self) -> bool:
        """True when the report keeps every game's result in ``results`` (else only the counts)."""
        return not isinstance(self.results, NotKept)

    def add(self, results: Sequence[GameResult]) -> None:
        """Count ``results``, the next games of the run (and keep them, when the report keeps its games)."""
        for result in results:
            self.tally.add(result)
        if self.kept:
            assert isinstance(self.results, list)
            self.results.extend(results)
        for name in CACHED:
            self.__dict__.pop(name, None)

    def forget_results(self) -> None:
        """Keep only the counts from now on: ``results`` becomes a :class:`NotKept`."""
        self.results = NotKept(self.tally)

    def __repr__(self) -> str:
        """The run at a glance, not every game's result (a report of 1,000 games printed 222,913 characters).

        >>> SimulationReport("my-game", [], 2, ["random", "random"], 7, [])
        <SimulationReport my-game, 2 players, 0 games (seed 7; random, random): wins by seat 1: 0, 2: 0; draws 0>
        """
        game = "+".join([self.ruleset, *self.variants]) + "".join(f" {k}={v}" for k, v in self.set_options.items())
        games = f"{self.games} of {self.planned}" if self.partial else str(self.games)
        wins = ", ".join(f"{seat}: {n}" for seat, n in self.wins_by_seat.items())
        return (f"<SimulationReport {game}, {self.players} players, {games} games (seed {self.seed}; "
                f"{', '.join(self.agents)}): wins by seat {wins}; draws {self.draws}>")

    @property
    def games(self) -> int:
        """The games counted so far."""
        return self.tally.games

    @property
    def partial(self) -> bool:
        """True when the run was interrupted: the report covers only the games finished (a prefix of the seeds)."""
        return self.planned is not None

    @property
    def seats(self) -> range:
        """The seats, 1 to ``players``."""
        return range(1, self.players + 1)

    @property
    def wins_by_seat(self) -> dict[int, int]:
        """Games each seat won alone."""
        return {seat: self.tally.wins[seat - 1] for seat in self.seats}

    @property
    def draws(self) -> int:
        """Games whose win several seats (not one team) shared."""
        return self.tally.draws

    @property
    def no_winner(self) -> int:
        """Games nobody won (a lost solo game)."""
        return self.tally.no_winner

    @property
    def mean_returns(self) -> dict[int, float]:
        """Mean return per seat (a shared win counts 1/k)."""
        n = max(self.games, 1)
        return {seat: self.tally.returns[seat - 1] / n for seat in self.seats}

    @property
    def points_vary(self) -> bool:
        """True when the points the outcome paid say more than who won: some result (a win, a shared win, a loss)
        paid different points in different seat-games (a gammon worth 2, a pot of chips, a count of discs).

        >>> won, lost = GameResult((1,), (1.0, 0.0), 9, scores=(1, 0)), GameResult((1,), (1.0, 0.0), 9, scores=(2, 0))
        >>> SimulationReport("g", [], 2, ["random"] * 2, 0, [], [won, won]).points_vary
        False
        >>> SimulationReport("g", [], 2, ["random"] * 2, 0, [], [won, lost]).points_vary
        True
        """
        return any(len(values) > 1 for values in self.tally.paid.values())

    @property
    def points(self) -> dict[int, Points] | None:
        """Per seat, the points its outcome paid (see :class:`Points`); None when they tell no more than the win rates
        do (``points_vary`` is False)."""
        return self.points_paid if self.points_vary else None

    @property
    def points_paid(self) -> dict[int, Points]:
        """Per seat, the points its outcome paid, whether or not they vary (a compared run's other side may not)."""
        return {seat: Points(dict(sorted(self.tally.points[seat - 1].items()))) for seat in self.seats}

    def points_of(self, seat: int) -> Spread:
        """The points ``seat``'s outcome paid, counted by value."""
        return Spread(self.tally.points[seat - 1])

    @property
    def win_rate(self) -> dict[int, Rate]:
        """Each seat's sole wins over the games, with its 95% interval."""
        return {seat: Rate(wins, self.games) for seat, wins in self.wins_by_seat.items()}

    @property
    def win_rate_by_agent(self) -> dict[str, Rate]:
        """Per agent spec: the seat-games it played and how many of them it won.

        >>> games = [GameResult((1,), (1.0, 0.0), 9, agents=("a", "b")), GameResult((1,), (1.0, 0.0), 9, agents=("b", "a"))]
        >>> report = SimulationReport("g", [], 2, ["a", "b"], 0, [], games, rotated=True)
        >>> {spec: (rate.wins, rate.trials) for spec, rate in report.win_rate_by_agent.items()}
        {'a': (1, 2), 'b': (1, 2)}
        """
        trials = {**dict.fromkeys(self.agents, 0), **self.tally.agent_trials}
        return {spec: Rate(self.tally.agent_wins[spec], trials[spec]) for spec in trials}

    @property
    def mean_seat_win_rate(self) -> float:
        """How often a seat wins a game, over all seats: the baseline content is measured against."""
        return sum(self.wins_by_seat.values()) / max(self.games * self.players, 1)

    @property
    def length(self) -> Summary:
        """Game length in actions (decisions)."""
        return Summary.of(self.tally.length)

    @property
    def turns(self) -> Summary:
        """Game length in turns."""
        return Summary.of(self.tally.turns)

    @property
    def length_counts(self) -> dict[int, int]:
        """How many games took each number of actions (decisions), from the shortest."""
        return {int(length): games for length, games in sorted(self.tally.length.counts.items())}

    @property
    def turn_counts(self) -> dict[int, int]:
        """How many games took each number of turns, from the shortest."""
        return {int(turns): games for turns, games in sorted(self.tally.turns.counts.items())}

    @property
    def win_rate_by_role(self) -> dict[str, Rate]:
        """Per role the seats were dealt (by name): the games a seat played it, and how many of them that seat won
        (alone, or with its team alone).  Empty when the ruleset declares no roles.

        >>> games = [GameResult((1,), (1.0, 0.0), 9, roles=(("North",), ("South",))),
        ...          GameResult((1,), (1.0, 0.0), 9, roles=(("South",), ("North",)))]
        >>> {role: (rate.wins, rate.trials) for role, rate in SimulationReport("g", [], 2, ["random"] * 2, 0, [],
        ...                                                                     games).win_rate_by_role.items()}
        {'North': (1, 2), 'South': (1, 2)}
        """
        trials, wins = self.tally.role_trials, self.tally.role_wins
        return {role: Rate(wins[role], trials[role]) for role in sorted(trials)}

    @property
    def roles_dealt(self) -> bool:
        """True when some role was played by different seats in different games (dealt at random): then its win rate
        says something the seats' do not."""
        return any(len(played) > 1 for played in self.tally.role_seats.values())

    @property
    def role_baseline(self) -> float | None:
        """What a role's win rate is measured against: how often the seat playing a role won, over every role dealt;
        None in a cooperative game (every seat shares each result) or without roles."""
        rates = self.win_rate_by_role.values()
        trials = sum(rate.trials for rate in rates)
        return None if self.together or not trials else sum(rate.wins for rate in rates) / trials

    def role_flag(self, role: str) -> str:
        """``strong`` when even the low end of the 95% interval of ``role``'s win rate is above :attr:`role_baseline`,
        ``weak`` when even the high end is below it, else ''."""
        rate = self.win_rate_by_role[role]
        return flag(rate.trials, rate, self.role_baseline) if self.role_baseline is not None else ""

    @property
    def seat_balance(self) -> SeatBalance | None:
        """Whether the seats (or teams) won alone more unevenly than chance would make them (see :class:`SeatBalance`);
        None for one player, when the seats play together, when the seats have different bots that kept their seats
        (the figure would measure the bots; see :attr:`seats_measured`), or before any game.

        >>> games = [GameResult((1,), (1.0, 0.0), 9)] * 60 + [GameResult((2,), (0.0, 1.0), 9)] * 40
        >>> SimulationReport("g", [], 2, ["random"] * 2, 0, [], games).seat_balance.wins
        (60, 40)
        """
        if self.players < 2 or self.together or not self.seats_measured or not self.games:
            return None
        sides = self.teams or tuple((seat,) for seat in self.seats)
        wins = tuple(self.tally.wins[side[0] - 1] for side in sides)
        return SeatBalance(tuple(sides), wins, self.games)

    @property
    def games_without_decisions(self) -> int:
        """Games over before any seat had a decision to make (every step ran on its own)."""
        return self.tally.without_decisions

    @property
    def games_at_turn_limit(self) -> int:
        """Games stopped by the turn limit: their end condition never held (a hint that it cannot)."""
        return self.tally.at_turn_limit

    @property
    def games_tied_by_order(self) -> int:
        """Games whose first place went by the order ``rank`` lists the items: items of two seats tied on every key,
        the one listed first paid more (with ``points: [1, 0]`` and keys that always tie, seat 1 wins every game)."""
        return self.tally.tied_by_order

    @property
    def games_opened_sealed(self) -> int:
        """Games whose first decision was sealed, every seat choosing at once: no seat moved first."""
        return self.tally.opened_sealed

    @property
    def no_decisions(self) -> bool:
        """No game of the run had a decision: no seat moved first, and no decision could use a component."""
        return bool(self.games) and self.games_without_decisions == self.games

    def rivals(self, seat: int) -> list[int]:
        """The seats playing against ``seat``: every other seat, or, with teams, the seats of the other teams.

        >>> SimulationReport("g", [], 4, ["random"] * 4, 0, [], teams=((1, 3), (2, 4))).rivals(1)
        [2, 4]
        """
        return rivals_of(seat, self.players, self.teams)

    @property
    def mixed_agents(self) -> bool:
        """True when the seats are not all played by the same bot.

        >>> SimulationReport("g", [], 2, ["greedy", "random"], 0, []).mixed_agents
        True
        """
        return len(set(self.agents)) > 1

    @property
    def seats_measured(self) -> bool:
        """True when the seats' figures (the first player, the seat balance) measure the seats, not the bots: every seat
        has the same bot, or the run turned the bots round so that every seat played each in turn."""
        return not self.mixed_agents or self.rotated

    @property
    def together(self) -> bool:
        """True when the seats are one team: a cooperative game, its goal won or lost by all the players together.

        >>> SimulationReport("g", [], 2, ["random"] * 2, 0, [], teams=((1, 2),)).together
        True
        """
        return self.players > 1 and len(self.teams) == 1

    @property
    def first_player(self) -> FirstPlayer | None:
        """The first mover's win rate against its rivals' (with teams, not its partners', who win with it), over the
        games with a decision.

        None for one player, when no game had a first mover (no decision, or a sealed one first), when the
        seats have different bots that kept their seats (``seats_measured``): the figure would measure the bots, not
        the seat, and when
        the seats play together (``together``): nobody plays against the first mover.
        """
        t = self.tally
        if self.players < 2 or not t.first_games or not self.seats_measured or self.together:
            return None
        sides = len(self.teams) or self.players
        return FirstPlayer(Rate(t.first_wins, t.first_games), Rate(t.rival_wins, t.rival_trials),
                           t.side_wins / (t.first_games * sides))

    @property
    def lead_changes(self) -> Summary | None:
        """Lead changes per game (None when the ruleset declares no running_score)."""
        return Summary.of(self.tally.lead_changes) if self.tally.lead_changes.count else None

    @property
    def games_without_lead_change(self) -> int:
        """The games whose sole leader in the running score never changed."""
        return self.tally.no_lead_change

    @property
    def margin(self) -> Summary | None:
        """The final margin per game (None for one player): in running_score when lead changes are counted."""
        return Summary.of(self.tally.margins) if self.tally.margins.count else None

    @cached_property
    def content_uses(self) -> list[ContentUse]:
        """Every component, used or not, by name."""
        tally = self.tally.used
        chosen = {use.kind for use in self.kind_uses if use.uses}
        return [tally.use(name, kind, self.baseline, not self.no_decisions and kind in chosen)
                for name, kind in dict.fromkeys(self.content)]

    @cached_property
    def kind_uses(self) -> list[ContentUse]:
        """Every kind of component, with the uses of all its components together."""
        tally = self.tally.kinds
        judged = not self.no_decisions
        return [tally.use(kind, kind, self.baseline, judged and bool(tally.uses[kind]))
                for kind in dict.fromkeys(kind for _, kind in self.content)]

    @cached_property
    def held_uses(self) -> list[ContentUse]:
        """Every component some seat held in its own zones as a game started (its hand, its secret side), by name: the
        seat-games it held it in and how many of them that seat won, flagged ``strong`` or ``weak`` as used content
        is (never ``unused``).  Its ``uses`` count the copies held."""
        tally = self.tally.held
        left_out = self.role_bound | self.held_by_every_seat
        return [tally.use(name, kind, self.baseline) for name, kind in dict.fromkeys(self.content)
                if tally.trials[name] and name not in left_out]

    @cached_property
    def held_by_every_seat(self) -> set[str]:
        """The components every seat held as every game started (a player's own tokens, a Yes and a No ballot each):
        their holders are all the seats, whose win rate is the mean, so they are left out of :attr:`held_uses`.

        >>> games = [GameResult((1,), (1.0, 0.0), 9, held=((0, 2), (1, 3))),
        ...          GameResult((2,), (0.0, 1.0), 9, held=((0, 3), (1, 2)))]
        >>> content = [("Yes", "ballot"), ("Yes", "ballot"), ("K", "card"), ("Q", "card")]
        >>> sorted(SimulationReport("g", [], 2, ["random"] * 2, 0, content, games).held_by_every_seat)
        ['Yes']
        """
        return set(self.tally.held_by_all or ())

    @cached_property
    def role_bound(self) -> set[str]:
        """The components every seat that held one held with one same role (a role's own hand): their holders' figures
        are that role's (:attr:`win_rate_by_role`), so they are left out of :attr:`held_uses`.

        >>> games = [GameResult((1,), (1.0, 0.0), 9, roles=(("North",), ("South",)), held=((0,), (1,))),
        ...          GameResult((1,), (1.0, 0.0), 9, roles=(("South",), ("North",)), held=((1,), (0,)))]
        >>> sorted(SimulationReport("g", [], 2, ["random"] * 2, 0, [("N", "piece"), ("S", "piece")], games).role_bound)
        ['N', 'S']
        """
        return {name for name, roles in self.tally.held_roles.items() if roles}

    @cached_property
    def answer_uses(self) -> list[AnswerUse]:
        """Every answer offered to a choice (words, numbers, components by name), by choice then answer as first offered: how often
        it was offered and taken, and how the seats that took it did (flagged ``never taken``, ``always taken``,
        else ``strong`` or ``weak`` as content is)."""
        t = self.tally
        offered, taken, trials, wins = t.offered, t.taken, t.answer_trials, t.answer_wins
        order = sorted(offered, key=lambda key: key[0])  # stable: each choice's answers in the order first offered
        return [AnswerUse(choice, answer, offered[key], taken[key], Rate(wins[key], trials[key]),
                          answer_flag(offered[key], taken[key], Rate(wins[key], trials[key]), self.baseline))
                for key in order for choice, answer in [key]]

    def answers_json(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The answers as data: by choice, then by answer, its figures (a nest ``--format csv`` flattens to rows of
        ``answers,CHOICE.ANSWER,taken,12``)."""
        data: dict[str, dict[str, dict[str, Any]]] = {}
        for use in self.answer_uses:
            figures = use.to_json()
            del figures["choice"], figures["answer"]
            data.setdefault(use.choice, {})[use.answer] = figures
        return data

    @property
    def held_at_random(self) -> bool:
        """True when some component was held as the game started by different seats in different games (dealt at
        random), and not always with one same role (:attr:`role_bound`) nor by every seat (:attr:`held_by_every_seat`):
        then how its holders did says something
        the seats' and the roles' win rates do not."""
        left_out = self.role_bound | self.held_by_every_seat
        return any(len(holders) > 1 for name, holders in self.tally.holders.items() if name not in left_out)

    @property
    def side_win_rate(self) -> dict[str, Rate]:
        """The win rate of each side the ruleset makes, by name, where the seats' say little: each team when the seats
        play in teams (``team 1 (seats 1 and 3)``), else each hidden role dealt at random (``role Spy``: the seat-games
        a seat played it in, and how many it won), else, when every seat held exactly one component as every game
        started (a side dealt in secret, a badge), each such component (``held SpyBadge``); empty when there are none.

        >>> games = [GameResult((1,), (1.0, 0.0), 9, roles=(("North",), ("South",))),
        ...          GameResult((1,), (1.0, 0.0), 9, roles=(("South",), ("North",)))]
        >>> {side: (rate.wins, rate.trials) for side, rate in SimulationReport("g", [], 2, ["random"] * 2, 0, [],
        ...                                                                     games, secret_roles=True).side_win_rate.items()}
        {'role North': (1, 2), 'role South': (1, 2)}
        """
        if self.teams and not self.together:
            return {f"team {i} (seats {seats_text(team)})": self.win_rate[team[0]] for i, team in enumerate(self.teams, 1)}
        if self.secret_roles and self.roles_dealt:
            return {f"role {role}": rate for role, rate in self.win_rate_by_role.items()}
        if self.tally.one_held and self.held_at_random:
            return {f"held {use.name}": use.users for use in self.held_uses}
        return {}

    @property
    def baseline(self) -> float | None:
        """What content's users' win rate is measured against: the mean win rate of a seat; None in a cooperative game
        (``together``), where every seat shares each result and a component's users win as often as the games that ran
        long enough to use it do.

        >>> SimulationReport("g", [], 2, ["random"] * 2, 0, [], teams=((1, 2),)).baseline is None
        True
        """
        return None if self.together else self.mean_seat_win_rate

    def to_json(self) -> dict[str, Any]:
        """The report as data; an interrupted run starts with ``"partial": true`` and the games planned.  Every
        report ends with the counts its figures come from (``counts``), so a run may be gone on from — an interrupted
        one finished, a finished one made longer (:meth:`from_json`)."""
        length = self.length
        first, changes, margin, points = self.first_player, self.lead_changes, self.margin, self.points
        balance = self.seat_balance
        marked: dict[str, Any] = {"partial": True, "games_planned": self.planned} if self.partial else {}
        if self.failed is not None:
            marked["failed"] = self.failed
        return marked | {
            "ruleset": self.ruleset,
            "variants": self.variants,
            "set_options": self.set_options,
            "players": self.players,
            "agents": self.agents,
            "rotated": self.rotated,
            "seed": self.seed,
            "games": self.games,
            "wins_by_seat": {str(s): w for s, w in self.wins_by_seat.items()},
            "draws": self.draws,
            "no_winner": self.no_winner,
            "together": self.together,
            "win_rate": {str(s): r.to_json() for s, r in self.win_rate.items()},
            "win_rate_by_agent": {spec: r.to_json() for spec, r in self.win_rate_by_agent.items()},
            "mean_returns": {str(s): v for s, v in self.mean_returns.items()},
            **({"points": {str(s): p.to_json() for s, p in points.items()}} if points else {}),
            "mean_seat_win_rate": self.mean_seat_win_rate,
            "mean_length": length.mean,
            "median_length": length.median,
            "min_length": length.min,
            "max_length": length.max,
            "length": length.to_json(),
            "length_counts": {str(n): games for n, games in self.length_counts.items()},
            "turns": self.turns.to_json(),
            "turn_counts": {str(n): games for n, games in self.turn_counts.items()},
            "first_player": first.to_json() if first else None,
            "seat_balance": balance.to_json() if balance else None,
            "win_rate_by_role": {role: rate.to_json() | {"flag": self.role_flag(role)}
                                 for role, rate in self.win_rate_by_role.items()},
            "roles_dealt": self.roles_dealt,
            "games_without_decisions": self.games_without_decisions,
            "games_opened_sealed": self.games_opened_sealed,
            "games_at_turn_limit": self.games_at_turn_limit,
            "games_tied_by_order": self.games_tied_by_order,
            "lead_changes": changes.to_json() if changes else None,
            "games_without_lead_change": self.games_without_lead_change if changes else None,
            "margin": margin.to_json() if margin else None,
            "content": {c.name: c.to_json() for c in self.content_uses},
            "kinds": {k.name: k.to_json() for k in self.kind_uses},
            "held_at_start": {c.name: c.to_json() for c in self.held_uses},
            "held_at_random": self.held_at_random,
            "answers": self.answers_json(),
            "counts": self.counts_json(),
        }

    def counts_json(self) -> dict[str, Any]:
        """The counts of the games (:meth:`RunTally.to_json`) and what else a report read back needs of the run."""
        return self.tally.to_json() | {"secret_roles": self.secret_roles, "content_hash": self.content_hash}

    @classmethod
    def from_json(cls, data: Any) -> "SimulationReport":
        """The report of a run from the JSON it wrote (:meth:`to_json`: the counts of its games are under ``counts``),
        to go on from (``simulate(..., resume=...)``): an interrupted run to its end, a finished one to more games on
        the same seeds; its games' results are not kept.  Anything else (a sweep's table, a report written before
        finished runs kept their counts, a file edited by hand) is a ValueError saying what is missing.

        >>> from engine.runner.report import GameResult
        >>> run = SimulationReport("g", [], 2, ["random"] * 2, 7, [], [GameResult((1,), (1.0, 0.0), 9)], planned=10,
        ...                        content_hash="3f0c")
        >>> again = SimulationReport.from_json(run.to_json())
        >>> again.games, again.planned, again.to_json() == run.to_json()
        (1, 10, True)
        """
        if not isinstance(data, dict) or "ruleset" not in data or "win_rate" not in data:
            raise ValueError("it is not the JSON report of a run (rulecraft simulate --format json)")
        if "counts" not in data:
            raise ValueError("it holds no counts to go on from (a report written before finished runs kept theirs: "
                             "run it again)")
        tally, content_hash = RunTally.from_json(data["counts"]), recorded_hash(data["counts"])
        whole_numbers(data, ("players", "seed"), "the report")
        try:
            report = cls(data["ruleset"], list(data["variants"]), int(data["players"]), list(data["agents"]),
                         int(data["seed"]), list(tally.content), NotKept(tally), dict(data["set_options"]),
                         data.get("games_planned"), data.get("failed"), tally.teams, bool(data["rotated"]),
                         bool(data["counts"].get("secret_roles")), content_hash)
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            raise ValueError(f"the report is damaged ({type(err).__name__}: {err})") from None
        if tally.players != report.players or list(tally.agents) != report.agents:
            raise ValueError("the report is damaged: its counts are of another run than its figures")
        return report


def whole_numbers(data: dict[str, Any], names: Sequence[str], what: str) -> None:
    """Refuse (ValueError) a report read back whose ``names`` are not whole numbers: ``"seed": 1e400`` is infinity
    to JSON, which ``int()`` failed on with an OverflowError, and ``2.7`` was read as 2.

    >>> whole_numbers({"seed": 7, "players": 2}, ("players", "seed"), "the report")
    >>> whole_numbers({"seed": 1e400}, ("seed",), "the report")
    Traceback (most recent call last):
    ValueError: the report is damaged: its seed is inf, not a whole number
    """
    for name in names:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{what} is damaged: its {name.replace('_', ' ')} is {cut(repr(value), 40)}, not a whole "
                             "number")


def recorded_hash(counts: dict[str, Any]) -> str:
    """The content hash of the ruleset whose games ``counts`` (a partial report's) holds; a ValueError when it records
    none, as the counts written before reports recorded it do: their games could be of rules changed since.

    >>> recorded_hash({"content_hash": "3f0c"})
    '3f0c'
    >>> recorded_hash({})
    Traceback (most recent call last):
    ValueError: it records no content hash of its ruleset (it was written by an older Rulecraft), so its games cannot be told to be of these rules: run them again
    """
    found = counts.get("content_hash")
    if not isinstance(found, str) or not found:
        raise ValueError("it records no content hash of its ruleset (it was written by an older Rulecraft), so its "
                         "games cannot be told to be of these rules: run them again")
    return found


# ---------------------------------------------------------------- csv


def flat_rows(data: dict[str, Any]) -> Iterator[tuple[str, str, str, Any]]:
    """A JSON report as (section, item, statistic, value) rows: one row per value.

    >>> list(flat_rows({"games": 2, "win_rate": {"1": {"rate": 0.5}}, "agents": ["a", "b"]}))
    [('run', '', 'games', 2), ('win_rate', '1', 'rate', 0.5), ('run', '', 'agents', 'a,b')]
    """
    for key, value in data.items():
        yield from _rows((key,), value)


def _rows(path: tuple[str, ...], value: Any) -> Iterator[tuple[str, str, str, Any]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _rows((*path, str(key)), inner)
        return
    if isinstance(value, list):
        value = ",".join(map(str, value))
    if len(path) == 1:
        yield ("run", "", path[0], value)
    else:
        yield (path[0], ".".join(path[1:-1]), path[-1], value)
