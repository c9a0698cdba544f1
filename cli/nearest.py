"""The legal action nearest a refused one: by its words first, then by its numbers.

A typed action whose words are a legal action's but whose numbers are not (a cell off the board, a bid too high) is
nearest the action of the same words with the nearest numbers: ``place X at 9,9`` on a 3x3 board is nearest
``place X at 2,2``, whatever the spelling of the numbers makes alike.  Words mistyped are matched as names are
(:func:`engine.core.errors.did_you_mean`), then the nearest numbers among the actions of the words found.

>>> nearest("place X at 9,9", ["place X at 0,0", "place X at 2,2", "place O at 9,9"])
'place X at 2,2'
>>> nearest("plce X at 1,7", ["pass", "place X at 0,0", "place X at 1,2"])
'place X at 1,2'
>>> nearest("go west 3", ["place X at 0,0"]) is None  # no action near: the reason alone
True
>>> nearest("pass", ["pass", "place X at 0,0"]) is None  # no number: a name's "did you mean"
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core.errors import did_you_mean

NUMBER = re.compile(r"(?<![\w.-])-?\d+(?![\w.])")
"""A number standing alone in an action's text (``1,-2``: two), not one inside a word (``seat2``, ``d6``)."""


LONGEST = 4000
"""Digits of a number read as it is written; a longer one is read as 10**LONGEST (with its sign), as far from every
action's numbers: Python reads no whole number of more than 4,300 digits, and an action typed with one (``place X at
999...9,0``) stopped ``rulecraft play`` with a traceback, its game not written to ``--log``, and the server with 500."""


def words_and_numbers(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` with each number replaced by ``#``, and its numbers.

    >>> words_and_numbers("place A at -1,2 for seat2")
    ('place A at #,# for seat2', (-1, 2))
    >>> words_and_numbers("bid " + "9" * 5000)[1] == (10**LONGEST,)
    True
    """
    numbers = tuple(_read(n) for n in NUMBER.findall(text) if n.lstrip("-").isascii())
    return NUMBER.sub("#", text), numbers


def _read(number: str) -> int:
    """``number``'s value, or ±10**LONGEST for one longer than :data:`LONGEST` digits."""
    if len(number.lstrip("-")) <= LONGEST:
        return int(number)
    return -10**LONGEST if number.startswith("-") else 10**LONGEST


def nearest(text: str, actions: Sequence[str]) -> str | None:
    """The action of ``actions`` nearest ``text`` when ``text`` has numbers: among those of its words (or, with words
    mistyped, of the words of the action a name's "did you mean" finds), with as many numbers, the one whose numbers
    differ least (in all; the first listed of those as near); else None."""
    words, numbers = words_and_numbers(text)
    if not numbers:
        return None
    alike: dict[str, list[tuple[int, int]]] = {}
    for i, action in enumerate(actions):
        shape, theirs = words_and_numbers(action)
        if len(theirs) == len(numbers):
            alike.setdefault(shape, []).append((sum(abs(a - b) for a, b in zip(theirs, numbers)), i))
    if words not in alike:
        hint = did_you_mean(text, actions)
        named = next((a for a in actions if hint is not None and hint.startswith(f"did you mean '{a}'?")), None)
        if named is None:
            return None
        words = words_and_numbers(named)[0]
        if words not in alike:
            return named
    return actions[min(alike[words])[1]]
