"""How a finished game is scored: ranking with tie-breaks, a points table, goals.

``scoring`` ranks items (usually roles) by a list of keys — the first key
decides, later keys break ties, larger is better — pays the points table by
rank to the seat that controls each item (or, with ``points: key``, each item
scores its first key, so equal keys score alike), and the seats with the most
points win (several tied seats share the win).  ``goals`` are conditions: the seats
win if any goal holds at the end (used for solo play).

>>> Outcome.from_scores((5, 5)).returns
(0.5, 0.5)
>>> Outcome.from_scores((3, 7)).winners
(2,)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from engine.lang.scope import Fn

if TYPE_CHECKING:
    from engine.blocks.context import StateView

_KEYS = itemgetter(0)
"""A scored row's keys (what a ranking sorts its rows by)."""


class RankLines:
    """An outcome's text for a ranking, written out when first read: one line per item, best first.

    >>> print(RankLines([("first", (5, 2), 4, 1), ("second", (3, 1), 1, 0)]))
    1. first [5, 2]: 4 points to seat 1
    2. second [3, 1]: 1 point to nobody
    """

    __slots__ = ("rows",)

    def __init__(self, rows: list[tuple[Any, tuple[Any, ...], int, int]]) -> None:
        self.rows = rows  # (item, its keys, its points, the seat paid, 0 for nobody), by rank

    def __str__(self) -> str:
        return "\n".join([f"{rank}. {item} {list(key)}: {pts} point{'' if pts == 1 else 's'} to "
                          f"{f'seat {seat}' if seat else 'nobody'}" for rank, (item, key, pts, seat) in enumerate(self.rows, 1)])


class _Text:
    """The descriptor of :attr:`Outcome.text`: given as text, or as a :class:`RankLines` written out when first read,
    so that a game nobody reads the outcome's words of builds none.  Every read (equality, ``repr``, ``to_json``,
    ``dataclasses.replace``) sees the text."""

    def __get__(self, outcome: "Outcome | None", owner: type | None = None) -> str:
        if outcome is None:
            return ""  # the field's default
        text = outcome.__dict__["_text"]
        if text.__class__ is not str:
            text = outcome.__dict__["_text"] = str(text)
        return text

    def __set__(self, outcome: "Outcome", text: "str | RankLines") -> None:
        outcome.__dict__["_text"] = text


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    ranking: tuple[str, ...] = ()
    points: dict[str, int] = field(default_factory=dict)
    goals: tuple[str, ...] = ()
    text: str = _Text()  # type: ignore[assignment]  # a RankLines may be given: written out when first read
    ended: str = "end condition"  # or "stalled" (a round with no possible decision), "turn limit", "no legal move"
    teams: tuple[tuple[int, ...], ...] = ()  # the seats of each team, when seats play in teams
    # the first place went by the order ``rank`` lists the items: the first item tied on every key with another seat's
    # item that was paid less (a note for reports; not saved, not compared)
    tie_by_order: bool = field(default=False, compare=False)
    # ``winners: together``: the winners are one side (sides dealt in secret), a win for each of them, not a draw
    together: bool = False

    @classmethod
    def from_scores(cls, scores: tuple[int, ...], **details: Any) -> "Outcome":
        """Seats with the top score win; k tied winners get 1/k each."""
        top = max(scores) if scores else 0
        winners = tuple([i + 1 for i, v in enumerate(scores) if v == top])
        share = 1.0 / len(winners) if winners else 0.0
        returns = tuple([share if v == top else 0.0 for v in scores])
        return cls(scores, winners, returns, **details)

    @classmethod
    def ranked(cls, scores: tuple[int, ...], ranking: tuple[str, ...], points: dict[str, int], text: RankLines,
               winners: tuple[int, ...] | None = None, tie_by_order: bool = False, together: bool = False) -> "Outcome":
        """:meth:`from_scores` of a ranking (the end of most games): the same outcome, its fields written at once
        rather than one by one through the frozen class's guard (which costs a short game's end a few percent).
        ``winners`` given (the seats of the first-ranked items) win instead of the seats with the top score; none
        of them (the first items are nobody's) is a draw between all seats.  ``together``: the winners are one side.

        >>> a = Outcome.ranked((2, 2, 1), ("x", "y", "z"), {"x": 2}, RankLines([]))
        >>> a == Outcome.from_scores((2, 2, 1), ranking=("x", "y", "z"), points={"x": 2}, text=""), a.winners, a.returns
        (True, (1, 2), (0.5, 0.5, 0.0))
        >>> Outcome.ranked((2, 2, 1), ("x", "y", "z"), {"x": 2}, RankLines([]), winners=(2,)).returns
        (0.0, 1.0, 0.0)
        """
        if winners is None:  # (loops, not comprehensions: each of those is a call, and every game ends here)
            top, found = max(scores) if scores else 0, []
            for seat, v in enumerate(scores, 1):
                if v == top:
                    found.append(seat)
            winners = tuple(found)
        elif not winners:
            winners = tuple(range(1, len(scores) + 1))
        share = 1.0 / len(winners) if winners else 0.0
        paid = [0.0] * len(scores)
        for seat in winners:
            paid[seat - 1] = share
        outcome = object.__new__(cls)
        outcome.__dict__.update(scores=scores, winners=winners, returns=tuple(paid),
                                ranking=ranking, points=points, goals=(), _text=text, ended="end condition", teams=(),
                                tie_by_order=tie_by_order, together=together)
        return outcome

    def for_teams(self, teams: tuple[tuple[int, ...], ...]) -> "Outcome":
        """Each seat scores its team's total (the sum of its seats' scores); the seats of the top team(s) win."""
        total = {seat: sum(self.scores[t - 1] for t in team) for team in teams for seat in team}
        pooled = tuple(total[seat] for seat in range(1, len(self.scores) + 1))
        lines = [f"team of seats {' and '.join(map(str, team))}: {total[team[0]]}" for team in teams]
        text = "\n".join([self.text, *lines]) if self.text else "\n".join(lines)
        details = {k: getattr(self, k) for k in ("ranking", "points", "goals", "ended", "tie_by_order")}
        return Outcome.from_scores(pooled, **details, text=text, teams=teams)

    def ending(self, ended: str) -> "Outcome":
        """This outcome, ended as ``ended`` says: itself when it says so already, else a copy that differs only there,
        its text left as it is (``dataclasses.replace`` would write a ranking's text out).

        >>> o = Outcome.from_scores((1, 0), text=RankLines([]))
        >>> o.ending("end condition") is o, o.ending("stalled").ended, type(o.ending("stalled").__dict__["_text"]).__name__
        (True, 'stalled', 'RankLines')
        """
        if ended == self.ended:
            return self
        copy = object.__new__(Outcome)
        copy.__dict__.update(self.__dict__)
        copy.__dict__["ended"] = ended
        return copy

    @property
    def is_draw(self) -> bool:
        """Several seats (or, in teams, several teams) share the win; a solo loss has no winner and is no draw.  The
        winners of one side (``winners: together``) are no draw unless they are every seat.

        >>> Outcome.ranked((1, 0, 1), ("a", "b", "c"), {}, RankLines([]), together=True).is_draw
        False
        """
        if self.together:
            return len(self.winners) == len(self.scores) > 1
        if self.teams:
            return sum(1 for team in self.teams if set(team) & set(self.winners)) > 1
        return len(self.winners) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "returns": list(self.returns),
            "ranking": list(self.ranking),
            "points": dict(self.points),
            "goals": list(self.goals),
            "text": self.text,
            "ended": self.ended,
            **({"teams": [list(t) for t in self.teams]} if self.teams else {}),
            **({"together": True} if self.together else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Outcome":
        return cls(
            tuple(data["scores"]),
            tuple(data["winners"]),
            tuple(data["returns"]),
            tuple(data["ranking"]),
            dict(data["points"]),
            tuple(data["goals"]),
            str(data["text"]),
            str(data.get("ended", "end condition")),
            tuple(tuple(t) for t in data.get("teams", ())),
            together=data.get("together") is True,
        )


def _played(rows: list[tuple[Any, tuple[Any, ...], int, int]], seat_of: dict[str, int], by_key: bool = False) -> list:
    """The rows of a ranking worth a line: all but the roles no seat plays ranked after every other item (more
    roles than players: an unplayed role that took a place before a seat's keeps its line, its points went to nobody);
    with ``by_key`` (each item scores its own key: no place is paid) none of the roles no seat plays ranked after a
    seat's, which changed nothing (a two-player game of four roles listed the two unplayed ones between the seats',
    ``2. C [0]: 0 points to nobody``), but those ranked before every seat's, which came first for nobody.

    >>> rows = [("A", (5,), 5, 1), ("C", (4,), 4, 0), ("B", (3,), 3, 2), ("D", (0,), 0, 0)]
    >>> seat_of = {"A": 1, "B": 2, "C": 0, "D": 0}
    >>> [row[0] for row in _played(rows, seat_of)], [row[0] for row in _played(rows, seat_of, by_key=True)]
    (['A', 'C', 'B'], ['A', 'B'])
    >>> [row[0] for row in _played(rows[1:], seat_of, by_key=True)]  # C first: kept
    ['C', 'B']
    """
    def unplayed(row: tuple[Any, tuple[Any, ...], int, int]) -> bool:
        return row[3] == 0 and row[0].__class__ is str and seat_of.get(row[0]) == 0

    if by_key:
        first = next((i for i, row in enumerate(rows) if not unplayed(row)), len(rows))  # the first seat's place
        return rows[:first] + [row for row in rows[first:] if not unplayed(row)]
    cut = len(rows)
    while cut and unplayed(rows[cut - 1]):
        cut -= 1
    return rows if cut == len(rows) else rows[:cut]


@dataclass(frozen=True)
class Ranking:
    """Rank items by keys; pay points by rank to the seat controlling each item."""

    items: Fn  # (state, env) -> list of items
    slot: int  # where the current item is bound for the keys
    keys: tuple[Fn, ...]
    points: tuple[int, ...]
    owner: Fn  # (state, env) -> the role (or seat number) that gets the item's points
    slots: int
    key_texts: tuple[str, ...] = ()
    by_key: bool = False  # ``points: key``: each item scores its first key (equal keys, equal scores)
    items_text: str = ""  # the items in English, as the keys name them: "r in roles"
    first_ranked: bool = False  # ``winners: first-ranked``: the seats of the items first on every key win
    together: bool = False  # ``winners: together``: the seats with the most points win as one side, not in a draw
    nobody: Fn | None = None  # ``nobody_wins``: when this holds at the end, no seat wins, whatever the ranking
    nobody_text: str = ""  # that condition in English

    def evaluate(self, s: "StateView", players: int) -> Outcome:
        """The outcome of the finished game ``s``.  A state nobody reads but for its returns (``s.dropped``: a
        search's rollout) is ranked with the later keys worked out only for the items tied on the first (see
        :meth:`_break_ties`): the same order, places, points and winners, its text showing the keys worked out."""
        env: list[Any] = [None] * self.slots
        scored = []
        slot, keys, owner = self.slot, self.keys, self.owner
        lazy = len(keys) > 1 and s.dropped
        first = keys[0] if len(keys) == 1 or lazy else None  # one key (the usual): no list of keys made per item
        for order, item in enumerate(self.items(s, env)):
            env[slot] = item
            key = (first(s, env),) if first is not None else tuple([k(s, env) for k in keys])
            scored.append((key, order, item, owner(s, env)))
        scored.sort(key=_KEYS, reverse=True)  # by key, stable: full ties keep item order
        if lazy and len(scored) > 1:
            last = env[slot]
            self._break_ties(s, env, scored)
            env[slot] = last  # as the keys left it for the items' last (what ``nobody`` reads after them)
        seat_scores = [0] * players
        points: dict[str, int] = {}
        rows, ranking, by_key, paid, seat_of = [], [], self.by_key, self.points, s.seat_of
        shared = self.first_ranked and not by_key  # items tied on every key share a place: each is paid its first
        place, unpaid = 0, False
        for rank, (key, _, item, role) in enumerate(scored):
            if not shared or rank == 0 or key != scored[rank - 1][0]:
                place = rank
            pts = key[0] if by_key else paid[place] if place < len(paid) else 0
            name = str(item)
            points[name] = pts
            ranking.append(name)
            seat = seat_of.get(role, 0) if isinstance(role, str) else role if isinstance(role, int) and 1 <= role <= players else 0
            if seat:
                seat_scores[seat - 1] += pts
            else:
                unpaid = True
            rows.append((item, key, pts, seat))
        shown = _played(rows, seat_of, by_key) if unpaid else rows  # every row paid to a seat: none is left out
        winners, by_order = None, False
        if self.nobody is not None and self.nobody(s, env):
            text = f"{RankLines(shown)}\nnobody wins: {self.nobody_text}"
            return Outcome(tuple(seat_scores), (), (0.0,) * players, tuple(ranking), points, text=text)
        if self.first_ranked and rows:
            best = rows[0][1]
            winners = tuple(sorted({seat for _, key, _, seat in rows if key == best and seat}))
        elif len(rows) > 1 and rows[1][1] == rows[0][1]:  # the first two tie on every key: did the order pay one more?
            _, best, top, first_seat = rows[0]
            by_order = any(seat != first_seat and pts < top for _, key, pts, seat in rows[1:] if key == best)
        return Outcome.ranked(tuple(seat_scores), tuple(ranking), points, RankLines(shown), winners, by_order,
                              self.together)

    def _break_ties(self, s: "StateView", env: list[Any], scored: list[tuple[tuple[Any, ...], int, Any, Any]]) -> None:
        """Rows ``scored`` (first key, item order, item, owner), sorted by their first key, sorted by every key: each
        run of rows tied on the first key gets its later keys and is sorted again (stable, as one sort by every key
        would leave it); a row tied with none keeps its first key alone, which already tells it from its neighbours.

        >>> from types import SimpleNamespace
        >>> keys = (lambda s, e: e[0] % 2, lambda s, e: e[0])  # odd first, then larger
        >>> rank = Ranking(None, 0, keys, (), None, 1)
        >>> rows = sorted([((k % 2,), k, k, None) for k in (4, 1, 3, 2)], key=lambda r: r[0], reverse=True)
        >>> rank._break_ties(SimpleNamespace(), [None], rows); [row[2] for row in rows], rows[0][0]
        ([3, 1, 4, 2], (1, 3))
        """
        slot, later = self.slot, self.keys[1:]
        i, n = 0, len(scored)
        while i < n:
            head, j = scored[i][0], i + 1
            while j < n and scored[j][0] == head:
                j += 1
            if j - i > 1:
                run = []
                for key, order, item, role in scored[i:j]:
                    env[slot] = item
                    run.append(((*key, *[k(s, env) for k in later]), order, item, role))
                run.sort(key=_KEYS, reverse=True)
                scored[i:j] = run
            i = j


@dataclass(frozen=True)
class Goals:
    """Named conditions; every seat wins if any holds when the game ends."""

    names: tuple[str, ...]
    tests: tuple[Fn, ...]
    slots: int

    def evaluate(self, s: "StateView", players: int) -> Outcome:
        """The outcome in ``s``: every seat wins (together) when a goal holds, else none."""
        env: list[Any] = [None] * self.slots
        reached = tuple(n for n, t in zip(self.names, self.tests) if t(s, env))
        score = 1 if reached else 0
        text = f"goal reached: {', '.join(reached)}" if reached else "no goal reached"
        scores = (score,) * players
        returns = (float(score),) * players
        winners = tuple(range(1, players + 1)) if reached else ()
        return Outcome(scores, winners, returns, goals=reached, text=text)
