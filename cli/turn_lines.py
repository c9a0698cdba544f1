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
