"""Where a move's log lines pass into the next turn: a view prints that turn's own lines (its draws, its upkeep)
under the turn's heading, not above it.

The state notes where each turn begins in its log (``State.turn_starts``, kept beside the log, which holds no mark
of its own).  Example: a move whose lines are ``["A ends its turn", "B draws a card"]``, ending A's turn 4, gives 1:
the second line is turn 5's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import State


def turn_marks(state: "State", start: int, turn_before: int, count: int, told: Sequence[tuple[int, str]] = (),
               current: bool = True) -> dict[int, int]:
    """Where, among ``count`` log lines printed from ``start`` (with ``told``'s lines put in, as in :func:`turn_cut`),
    each turn after ``turn_before`` begins: {index: turn number}.  A turn that wrote nothing there is left out: one
    that ended before the next began, or one that begins after the last line (a bot's, whose move line says whose
    it is); ``current`` False leaves out the turn ``state`` is in (a human's, headed by its own rule).

    >>> from types import SimpleNamespace as Seen
    >>> s = Seen(turn_number=6, turn_starts={4: 0, 5: 2, 6: 2}, log=["a", "b", "c"])
    >>> turn_marks(s, 1, 4, 2), turn_marks(s, 1, 4, 2, current=False), turn_marks(s, 1, 4, 1)
    ({1: 6}, {}, {})
    """
    found: dict[int, int] = {}
    for turn, begun in sorted((state.turn_starts or {}).items()):
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
    >>> s = Seen(turn_number=5, turn_starts={4: 0, 5: 3}, log=["a", "b", "c", "d"])
    >>> turn_cut(s, 2, 4), turn_cut(s, 2, 5), turn_cut(s, 2, 4, [(2, "told"), (3, "told at the turn")])
    (1, None, 2)
    """
    if state.turn_number == turn_before:
        return None
    begun = (state.turn_starts or {}).get(state.turn_number, -1)
    if not start <= begun <= len(state.log or ()):
        return None
    return begun - start + sum(1 for at, _ in told if at < begun)


def turns_begun(state: "State") -> list[dict[str, int]]:
    """Where in ``state``'s log each turn begun so far begins, in order (``{"at": 4, "number": 1}``: turn 1's lines
    from the log's fifth), as a move's ``turn`` says it: the start's lines (before the first move) under their
    turns' headings, its setup above them (a page showed a first turn's rolls and draws as the setup's).

    >>> from types import SimpleNamespace as Seen
    >>> turns_begun(Seen(turn_starts={1: 4}, log=["a", "b", "c", "d", "e"]))
    [{'at': 4, 'number': 1}]
    """
    return [{"at": at, "number": turn} for turn, at in sorted((state.turn_starts or {}).items(), key=lambda item: item[1])
            if at <= len(state.log or ())]
