"""What the counts of a run read back from JSON must hold before a run goes on from them (``--resume``).

:meth:`RunTally.from_json <engine.runner.tally.RunTally.from_json>` reads a file a person may have edited, cut
short, or taken from another run.  Each value is checked for the type and range a tally of real games gives, and
the wins of each rate against its trials, so a damaged file is refused with what is wrong instead of failing
later, as the run adds its games (``'str' + int``), writes its report (a square root of a negative number, from
more wins than games) or sets up its counts (``players: 1000000000`` made a list of a billion zeros).

>>> check_counts({"players": 0})
Traceback (most recent call last):
ValueError: 'players' is 0: a whole number from 1 to 100
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from engine.compiling.seating import MAX_PLAYERS
from engine.runner.backends import MAX_GAMES

MOST = 10**18  # more than any count a run of at most MAX_GAMES games reaches; a float still holds it nearly
# the counts of games, each at most the games of the run
GAME_COUNTS = ("draws", "no_winner", "without_decisions", "at_turn_limit", "tied_by_order", "opened_sealed",
               "first_games", "no_lead_change", "team_wins")
OTHER_COUNTS = ("first_wins", "rival_trials", "rival_wins", "side_wins")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def whole(value: Any, where: str, low: int = 0, high: int = MOST) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (not True or False, not 2.0); else ValueError.

    >>> whole(3, "'games'"), whole(True, "'games'")
    Traceback (most recent call last):
    ValueError: 'games' is True: a whole number from 0 to 1000000000000000000
    """
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{where} is {_show(value)}: a whole number from {low} to {high}")
    return value


def number(value: Any, where: str) -> float:
    """``value`` when it is a finite number (whole or decimal); else ValueError.

    >>> number(0.5, "'returns'"), number(float("nan"), "'returns'")
    Traceback (most recent call last):
    ValueError: 'returns' is nan: a finite number
    """
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or abs(value) > MOST:
        raise ValueError(f"{where} is {_show(value)}: a finite number")
    return value


def _kind(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind):
        named = {list: "list", dict: "mapping", str: "text"}[kind]
        raise ValueError(f"{where} is {_show(value)}: a {named}")
    return value


def _texts(value: Any, where: str) -> list[str]:
    for item in _kind(value, list, where):
        _kind(item, str, f"an item of {where}")
    return value


def _seats(value: Any, where: str, players: int) -> None:
    for seat in _kind(value, list, where):
        whole(seat, f"a seat in {where}", 1, players)


def _counter(value: Any, where: str) -> Mapping[str, int]:
    for key, n in _kind(value, dict, where).items():
        whole(n, f"{where}[{key!r}]")
    return value


def _at_most(wins: Mapping[Any, int], trials: Mapping[Any, int], where: str) -> None:
    for key, n in wins.items():
        if n > trials.get(key, 0):
            raise ValueError(f"{where} counts {n} wins for {key!r} in {trials.get(key, 0)} trials")


def _spread(value: Any, where: str) -> int:
    """The numbers counted in a spread (``[[value, n], ...]``)."""
    total = 0
    for pair in _kind(value, list, where):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"an item of {where} is {_show(pair)}: a [value, count] pair")
        number(pair[0], f"a value of {where}")
        total += whole(pair[1], f"a count of {where}", 1)
    return total


def _answers(value: Any, where: str) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for item in _kind(value, list, where):
        if not isinstance(item, list) or len(item) != 3 or not all(isinstance(text, str) for text in item[:2]):
            raise ValueError(f"an item of {where} is {_show(item)}: a [choice, answer, count] triple")
        counts[item[0], item[1]] = whole(item[2], f"a count of {where}")
    return counts


def check_counts(data: Any) -> None:
    """Refuse (ValueError, saying what and where) counts that no run of games writes.

    >>> from engine.runner.tally import RunTally
    >>> check_counts(RunTally(2, ("random", "random"), (), []).to_json())
    >>> check_counts(RunTally(2, ("random", "random"), (), []).to_json() | {"wins": [0, 1]})
    Traceback (most recent call last):
    ValueError: 'wins' of seat 2 is 1: a whole number from 0 to 0
    """
    _kind(data, dict, "counts")
    players = whole(data["players"], "'players'", 1, MAX_PLAYERS)
    games = whole(data["games"], "'games'", 0, MAX_GAMES)
    for name in GAME_COUNTS:
        whole(data[name], repr(name), 0, games)
    for name in OTHER_COUNTS:
        whole(data[name], repr(name))
    if data["first_wins"] > data["first_games"] or data["rival_wins"] > data["rival_trials"]:
        raise ValueError("the first player's counts hold more wins than games")
    for name in ("agents", "wins", "returns", "points"):
        if not isinstance(data[name], list) or len(data[name]) != players:
            raise ValueError(f"{name!r} is {_show(data[name])}: a list of one item per seat ({players})")
    _texts(data["agents"], "'agents'")
    for seat, (wins, returns, points) in enumerate(zip(data["wins"], data["returns"], data["points"]), 1):
        whole(wins, f"'wins' of seat {seat}", 0, games)
        number(returns, f"'returns' of seat {seat}")
        if _spread(points, f"the points of seat {seat}") > games:  # a game without scores counts none
            raise ValueError(f"the points of seat {seat} are counted for more games than {games}")
    for team in _kind(data["teams"], list, "'teams'"):
        _seats(team, "'teams'", players)
    for item in _kind(data["content"], list, "'content'"):
        if not isinstance(item, list) or len(item) != 2 or not all(isinstance(text, str) for text in item):
            raise ValueError(f"an item of 'content' is {_show(item)}: a [name, kind] pair")
    for kind, values in _kind(data["paid"], dict, "'paid'").items():
        for value in _kind(values, list, f"paid[{kind!r}]"):
            number(value, f"paid[{kind!r}]")
    for trials, wins in (("agent_trials", "agent_wins"), ("role_trials", "role_wins")):
        _at_most(_counter(data[wins], repr(wins)), _counter(data[trials], repr(trials)), repr(wins))
    for name in ("length", "turns"):
        if _spread(data[name], repr(name)) != games:
            raise ValueError(f"{name!r} counts another number of games than {games}")
    for name in ("lead_changes", "margins"):
        _spread(data[name], repr(name))
    for name in ("used", "kinds", "held"):
        part = _kind(data[name], dict, repr(name))
        counts = {what: _counter(part[what], f"{name}.{what}") for what in ("uses", "games", "trials", "wins")}
        _at_most(counts["wins"], counts["trials"], repr(name))
    if not isinstance(data["one_held"], bool):
        raise ValueError(f"'one_held' is {_show(data['one_held'])}: true or false")
    for name in ("role_seats", "holders"):
        for key, seats in _kind(data[name], dict, repr(name)).items():
            _seats(seats, f"{name}[{key!r}]", players)
    for key, roles in _kind(data["held_roles"], dict, "'held_roles'").items():
        _texts(roles, f"held_roles[{key!r}]")
    if data.get("held_by_all") is not None:
        _texts(data["held_by_all"], "'held_by_all'")
    answers = {name: _answers(data[name], repr(name)) for name in ("offered", "taken", "answer_trials", "answer_wins")}
    _at_most(answers["answer_wins"], answers["answer_trials"], "'answer_wins'")
