"""Where a move's log lines pass into the next turn: a view prints that turn's own lines (its draws, its upkeep)
under the turn's heading, not above it.

The state notes where each turn begins in its log, and whose it is (``State.turn_starts``, kept beside the log, which
holds no mark of its own).  Example: a move whose lines are ``["A ends its turn", "B draws a card"]``, ending A's turn
4, gives 1: the second line is turn 5's, headed ``turn 5: seat 2 (B)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cli.render import seat_label

if TYPE_CHECKING:
    from engine import State


def turn_marks(state: "State", start: int, turn_before: int, count: int, told: Sequence[tuple[int, str]] = (),
               current: bool = True) -> dict[int, int]:
    """Where, among ``count`` log lines printed from ``start`` (with ``told``'s lines put in, as in :func:`turn_cut`),
    each turn after ``turn_before`` begins: {index: turn number}.  A turn that wrote nothing there is left out: one
    that ended before the next began, or one that begins after the last line (a bot's, whose move line says whose
    it is); ``current`` False leaves out the turn ``state`` is in (a human's, headed by its own rule).

    >>> from types import SimpleNamespace as Seen
    >>> from engine.model.state_fields import TurnStart as At
    >>> s = Seen(turn_number=6, turn_starts={4: At(0, "A"), 5: At(2, "B"), 6: At(2, "A")}, log=["a", "b", "c"])
    >>> turn_marks(s, 1, 4, 2), turn_marks(s, 1, 4, 2, current=False), turn_marks(s, 1, 4, 1)
    ({1: 6}, {}, {})
    """
    found: dict[int, int] = {}
    for turn, (begun, _) in sorted((state.turn_starts or {}).items()):
        if turn <= turn_before or begun < start:
            continue
        index = begun - start + sum(1 for at, _ in told if at < begun)
        if index < count:
            found[index] = turn  # a later turn begun at the same line: the earlier wrote nothing
    return found if current else {index: turn for index, turn in found.items() if turn != state.turn_number}


def turn_cut(state: "State", start: int, turn_before: int, told: Sequence[tuple[int, str]] = ()) -> int | None:
    """The index, among the log's lines from ``start`` (with ``told``'s lines, each (its place in the log, its text),
    put in as :meth:`ForcedPicks.merged` puts them), where the turn ``state`` is in began; None when it began before
    ``start`` (still ``turn_before``) or where is not known (no log kept).

    >>> from types import SimpleNamespace as Seen
    >>> from engine.model.state_fields import TurnStart as At
    >>> s = Seen(turn_number=5, turn_starts={4: At(0, "A"), 5: At(3, "B")}, log=["a", "b", "c", "d"])
    >>> turn_cut(s, 2, 4), turn_cut(s, 2, 5), turn_cut(s, 2, 4, [(2, "told"), (3, "told at the turn")])
    (1, None, 2)
    """
    if state.turn_number == turn_before:
        return None
    begun = (state.turn_starts or {}).get(state.turn_number, (-1, ""))[0]
    if not start <= begun <= len(state.log or ()):
        return None
    return begun - start + sum(1 for at, _ in told if at < begun)


def whose_turn(state: "State", turn: int, viewer: int | None = None) -> str:
    """Whose turn ``turn`` was, as its heading names it: ``seat 2 (B)``, the role kept where the turn began
    (``State.turn_starts``), so that a turn that asked nobody is named too; its role alone when no seat plays it;
    ``""`` when not known (no log kept). ``viewer``: the seat reading it (hidden roles are named only to their own).

    >>> from types import SimpleNamespace as Seen
    >>> from engine.model.state_fields import TurnStart as At
    >>> s = Seen(turn_starts={5: At(3, "B")}, seat_of={"A": 1, "B": 2}, game=Seen(roles=None), current_role="A")
    >>> whose_turn(s, 5), whose_turn(s, 6)
    ('seat 2 (B)', '')
    """
    began = (state.turn_starts or {}).get(turn)
    if began is None:
        return ""
    seat = state.seat_of.get(began.role)
    if seat:
        return seat_label(state, seat, own=viewer == seat, role=began.role)
    return "" if state.game.roles is not None and state.game.roles.hidden else began.role


def turn_heading(state: "State", turn: int) -> str:
    """The line over a turn nobody human opens, in ``rulecraft play`` and ``replay``: ``turn 4: seat 2 (B)``, whose
    turn it was as the log kept it (:func:`whose_turn`), one that passed asking nobody too (it said ``turn 3`` alone).

    >>> from types import SimpleNamespace as Seen
    >>> from engine.model.state_fields import TurnStart as At
    >>> s = Seen(turn_starts={4: At(3, "B")}, seat_of={"B": 2}, game=Seen(roles=None), current_role="B")
    >>> turn_heading(s, 4), turn_heading(s, 5)
    ('turn 4: seat 2 (B)', 'turn 5')
    """
    whose = whose_turn(state, turn)
    return f"turn {turn}: {whose}" if whose else f"turn {turn}"


def turns_begun(state: "State") -> list[dict[str, Any]]:
    """Where in ``state``'s log each turn begun so far begins, in order, and whose it is (``{"at": 4, "number": 1,
    "whose": "seat 1 (A)"}``: turn 1's lines from the log's fifth), as a move's ``turn`` says it: the start's lines
    (before the first move) under their turns' headings, its setup above them (a page showed a first turn's rolls and
    draws as the setup's).

    >>> from types import SimpleNamespace as Seen
    >>> from engine.model.state_fields import TurnStart as At
    >>> s = Seen(turn_starts={1: At(4, "A")}, log=["a", "b", "c", "d", "e"], seat_of={"A": 1}, game=Seen(roles=None))
    >>> turns_begun(s)
    [{'at': 4, 'number': 1, 'whose': 'seat 1 (A)'}]
    """
    return [{"at": began.at, "number": turn, "whose": whose_turn(state, turn)}
            for turn, began in sorted((state.turn_starts or {}).items(), key=lambda item: item[1].at)
            if began.at <= len(state.log or ())]
