"""What one game says, measured as it is played: the sides that win together, who leads and by how much, what
each seat held and was dealt as the game started, and the answers a choice offered and took.

:func:`~engine.runner.simulate.play_game` records these in each game's
:class:`~engine.runner.report.GameResult`; a report counts them over a run.

>>> count_lead_changes([leader(s) for s in ([1, 0], [1, 2], [3, 2], [3, 3])])
2
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.model.game import Game
from engine.model.state import State


def sides(teams: Sequence[tuple[int, ...]] | None, players: int) -> tuple[tuple[int, ...], ...]:
    """The seats that win together: the teams when there are teams, else each seat alone.

    >>> sides(None, 3), sides(((1, 3), (2, 4)), 4)
    (((1,), (2,), (3,)), ((1, 3), (2, 4)))
    """
    return tuple(teams) if teams else tuple((seat,) for seat in range(1, players + 1))


def teams_of(game: Game, players: int) -> tuple[tuple[int, ...], ...]:
    """The teams a report knows the seats by: the ruleset's teams for that player count, or every seat in one team
    when the count's outcome is ``goals`` (a cooperative game: the players win or lose together); else none.

    >>> from types import SimpleNamespace
    >>> together = SimpleNamespace(teams={}, cooperative=lambda players: True)
    >>> teams_of(together, 3), teams_of(together, 1), teams_of(SimpleNamespace(teams={4: [(1, 3), (2, 4)]}), 4)
    (((1, 2, 3),), (), ((1, 3), (2, 4)))
    """
    if game.teams.get(players):
        return tuple(game.teams[players])
    return (tuple(range(1, players + 1)),) if players > 1 and game.cooperative(players) else ()


def side_scores(scores: Sequence[float], seats: Sequence[tuple[int, ...]]) -> list[float]:
    """Each side's score from the seats' (a team's seats each score the team's total, so the best of them).

    >>> side_scores([7, 2, 7, 2], ((1, 3), (2, 4)))
    [7, 2]
    """
    return [max(scores[seat - 1] for seat in side) for side in seats]


def leader(scores: Sequence[float]) -> int:
    """The side (1, 2, ...) alone at the top of ``scores``, or 0 when the top is shared.

    >>> leader([3, 5, 1]), leader([5, 5, 1])
    (2, 0)
    """
    top = max(scores)
    return scores.index(top) + 1 if scores.count(top) == 1 else 0


def opposed(scores: Sequence[float]) -> bool:
    """Whether the top two scores are opposite, as when each score is a lead already (mine minus theirs).

    >>> opposed([4, -4]), opposed([0, 0]), opposed([5, 3])
    (True, True, False)
    """
    top, second = sorted(scores, reverse=True)[:2]
    return top == -second


def margin(scores: Sequence[float], leads: bool) -> float:
    """How far the top side finished ahead of the next: the top score minus the next one, or, when the
    scores are leads already (``leads``: mine minus theirs), the top score itself, not that lead twice.

    >>> margin([5, 2, 1], leads=False), margin([-3, 3], leads=True)
    (3.0, 3.0)
    """
    top, second = sorted(scores, reverse=True)[:2]
    return float(top if leads else top - second)


def count_lead_changes(leaders: Sequence[int]) -> int:
    """How often a new sole leader differs from the previous one (0 in ``leaders`` means a shared lead).

    >>> count_lead_changes([0, 1, 1, 0, 1, 2, 0, 2, 1])
    2
    """
    changes, last = 0, 0
    for now in leaders:
        if now and last and now != last:
            changes += 1
        last = now or last
    return changes


def held_by_rival(state: State, cid: int, seat: int, teams: Sequence[tuple[int, ...]], zone: int | None = None) -> bool:
    """True when component ``cid`` lies in a zone of a role played by a seat of another side than ``seat``'s (or lay
    there: in ``zone``, when given).

    A choice that picks such a component (a target among the opponents' pieces) does not make it the
    chooser's: it is not counted as used by the chooser, so the per-component table says how the seats
    that played a component did, not the seats that aimed at it.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(zone_owner=[None, "North", "South"])  # a shared zone, then a zone per role
    >>> state = SimpleNamespace(game=game, zone_of=[0, 1, 2], seat_of={"North": 1, "South": 2})
    >>> [held_by_rival(state, cid, 1, ((1,), (2,))) for cid in (0, 1, 2)]  # what seat 1 picks
    [False, False, True]
    >>> held_by_rival(state, 2, 1, ((1, 2),))  # a partner's component is its side's
    False
    """
    owner = state.game.zone_owner[state.zone_of[cid] if zone is None else zone]
    holder = state.seat_of.get(owner, 0) if owner is not None else 0
    return bool(holder) and not any(seat in side and holder in side for side in teams)


MOST_ANSWERS = 20
"""A choice is counted answer by answer (offered, taken) when it offers at most this many: an amount chosen from 0 to
1,000 would be a thousand rows of every report, and kept in every game's result."""


def answer_texts(state: State, label: str) -> tuple[list[str], str] | None:
    """What a report counts of the choice ``state`` is asking, answered with ``label``: the answers offered (words,
    numbers, or components by name, identical copies once, a pass by its word) and the one taken; None when it
    offers more than :data:`MOST_ANSWERS`.  A choice among components is counted by their names: which card was
    discarded, which character struck, and which were offered and passed by.

    >>> from types import SimpleNamespace
    >>> pending = SimpleNamespace(components=True, options=(4, 7, 9, None), labels=("c4", "c7", "c9", "pass"))
    >>> state = SimpleNamespace(pending=pending, game=SimpleNamespace(piece_names=["x"] * 4 + ["Oak"] * 4 + ["Elm"] * 2))
    >>> answer_texts(state, "c9"), answer_texts(state, "pass")[1]
    ((['Oak', 'Elm', 'pass'], 'Elm'), 'pass')
    """
    pending = state.pending
    assert pending is not None
    if not pending.components:
        texts = list(pending.labels)
        taken = label
    else:
        names = [label if option is None else _piece_names(state, option)
                 for option, label in zip(pending.options, pending.labels)]
        texts = list(dict.fromkeys(names))
        taken = names[pending.labels.index(label)] if label in pending.labels else label
    return (texts, taken) if len(texts) <= MOST_ANSWERS else None


def _piece_names(state: State, option: Any) -> str:
    """A component option by its piece's name (identical copies alike), a list of them as the names in brackets.

    >>> from types import SimpleNamespace
    >>> _piece_names(SimpleNamespace(game=SimpleNamespace(piece_names=["Oak", "Elm"])), [1, 0])
    '[Elm, Oak]'
    """
    names = state.game.piece_names
    return f"[{', '.join(names[c] for c in option)}]" if isinstance(option, (list, tuple)) else names[option]


def opening_seat(state: State) -> int:
    """The seat whose turn came first: the first role of the turn order as the setup left it (after any roll-off),
    whether or not that turn asked it anything — a first roll that ends the turn at once still gives the first seat
    its turn (the seat to decide next would be the second).

    >>> import engine
    >>> opening_seat(engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)) in (1, 2)
    True
    """
    return state.seat_of[state.order[0]] if state.order else state.seat_to_move


def held_components(state: State) -> tuple[tuple[int, ...], ...]:
    """Per seat, the components lying in the zones of the roles it plays (its hand, its pile...), by id: what it was
    dealt, when asked as the game starts.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(zone_owner=[None, "North", "South"])  # a shared zone, then a zone per role
    >>> held_components(SimpleNamespace(game=game, players=2, zone_of=[0, 1, 2, 1], seat_of={"North": 1, "South": 2}))
    ((1, 3), (2,))
    """
    seat_of_zone = [state.seat_of.get(owner, 0) if owner is not None else 0 for owner in state.game.zone_owner]
    held: list[list[int]] = [[] for _ in range(state.players)]
    for cid, zone in enumerate(state.zone_of):
        seat = seat_of_zone[zone]
        if seat:
            held[seat - 1].append(cid)
    return tuple(map(tuple, held))


def dealt_roles(state: State) -> tuple[tuple[str, ...], ...]:
    """Per seat, the roles it plays as the game starts, in the order of the ruleset's ``roles``; none when the
    ruleset declares no roles (each seat plays the one named after it).

    >>> import engine
    >>> dealt_roles(engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)) != ()
    True
    """
    if state.game.roles is None:
        return ()
    return tuple(tuple(role for role in state.game.roles.values if state.seat_of.get(role) == seat)
                 for seat in range(1, state.players + 1))


def final_margin(game: Game, state: State, leads: bool) -> float | None:
    """How far the top side (seat or team) finished ahead of the next, in ``running_score`` where declared,
    else in final scores (see :func:`margin`); None with a single side.

    The scores are leads already (mine minus theirs) when the top two were opposite after every action
    (``leads``, for a running score) or at the end (for final scores).
    """
    teams = sides(teams_of(game, state.players), state.players)
    if len(teams) < 2 or state.outcome is None:
        return None
    if game.running_score is None:
        scores = side_scores(state.outcome.scores, teams)
    else:
        scores = side_scores([game.score_of(state, seat) for seat in range(1, state.players + 1)], teams)
    return margin(scores, leads and opposed(scores))
