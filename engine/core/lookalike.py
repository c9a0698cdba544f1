"""Names that look alike but are not the same: a letter of another script standing in for a Latin one.

Code may name things in any script (``let côté = 2``), so a Cyrillic ``а`` (U+0430) typed or pasted for the
Latin ``a`` makes a name that reads the same on the screen and means something else: ``unknown name 'а'``,
or, worse, a second name beside the first.  A name's *skeleton* reads each such letter as the Latin one it
looks like (and full-width or styled letters, ``ａ`` or ``𝐚``, as plain ones), so two names that differ only
by such letters have one skeleton, and the message can say which letter is which.

>>> skeleton("раss") == skeleton("pass"), "раss" == "pass"
(True, False)
>>> lookalike("а", ["A", "a", "b"])
'a'
>>> told_apart("а", "a")
"its 'а' is CYRILLIC SMALL LETTER A (U+0430), not the Latin 'a'"
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

_LATIN_LOOKALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԍ": "G", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
    # Greek
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "υ": "u", "ι": "i", "κ": "k", "τ": "t", "χ": "x", "γ": "y",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin letters that pass for others
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g",
    # dashes that pass for a hyphen-minus (word processors write them: half‐time)
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-",
}
"""Letters that look like a Latin letter (and dashes like '-'), by the one they pass for (after NFKC, which already reads full-width and
styled letters as plain ones)."""


def skeleton(name: str) -> str:
    """``name`` with every letter that passes for a Latin one read as that letter (and NFKC-normalized).

    >>> skeleton("ｇоld"), skeleton("côté") == skeleton("côté"), skeleton("gold")
    ('gold', True, 'gold')
    """
    return "".join(_LATIN_LOOKALIKES.get(ch, ch) for ch in unicodedata.normalize("NFKC", name))


def lookalike(name: str, candidates: Iterable[str]) -> str | None:
    """The first of ``candidates`` that looks like ``name`` (one skeleton) without being it, else None.

    >>> lookalike("Fіzz", ["Fizz", "Buzz"]), lookalike("Fizz", ["Fizz", "fizz"])
    ('Fizz', None)
    """
    shape, plain = skeleton(name), name.isascii()  # two names of ASCII alone look alike only when they are one
    return next((c for c in candidates if c != name and not (plain and c.isascii()) and skeleton(c) == shape), None)


def told_apart(name: str, other: str) -> str:
    """Which letters of ``name`` are not the ones of ``other`` they look like, each by its Unicode name.

    >>> told_apart("Fіzz", "Fizz")
    "its 'і' is CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I (U+0456), not the Latin 'i'"
    >>> told_apart("a", "а")
    "its 'a' is the Latin 'a', where 'а' has CYRILLIC SMALL LETTER A (U+0430)"
    >>> told_apart("half‐time", "half-time")
    "its '‐' is HYPHEN (U+2010), not the plain '-'"
    >>> told_apart("file", "ﬁle")
    "'ﬁle' has LATIN SMALL LIGATURE FI (U+FB01)"
    """
    if len(name) != len(other):  # a letter NFKC reads as two (a ligature): name the ones outside ASCII
        own = [f"'{ch}' is {_named(ch)}" for ch in dict.fromkeys(name) if not ch.isascii()]
        others = [_named(ch) for ch in dict.fromkeys(other) if not ch.isascii()]
        return "; ".join((["its " + ", ".join(own)] if own else []) + ([f"'{other}' has " + ", ".join(others)]
                                                                        if others else []))
    told = []
    for mine, theirs in dict.fromkeys((a, b) for a, b in zip(name, other) if a != b):
        if mine.isascii():
            told.append(f"'{mine}' is {_plain(mine)}, where '{other}' has {_named(theirs)}")
        elif theirs.isascii():
            told.append(f"'{mine}' is {_named(mine)}, not {_plain(theirs)}")
        else:
            told.append(f"'{mine}' is {_named(mine)}, where '{other}' has {_named(theirs)}")
    return "its " + "; ".join(told)


def _plain(ch: str) -> str:
    """``the Latin 'a'``, ``the plain '-'``."""
    return f"the Latin '{ch}'" if ch.isalpha() else f"the plain '{ch}'"


def _named(ch: str) -> str:
    """``CYRILLIC SMALL LETTER A (U+0430)``."""
    return f"{unicodedata.name(ch, 'a letter')} (U+{ord(ch):04X})"
