"""Numbers written in option values (``mcts:400``, ``--seed 7``, ``2=random``): the digits 0-9 only.

Python's ``int`` and ``float`` also read other scripts' digits (``int("٣")`` is 3) and underscores (``1_000``),
which the docs' "a number" does not mean; a value written so is refused, saying which character is not a digit 0-9.

>>> in_digits("400"), in_digits("-7"), in_digits("٣"), in_digits("1_000"), in_digits("0.5", whole=False)
(True, True, False, False, True)
>>> not_digits("1_000"), not_digits("٣")
("'_' is not a digit: write the number with the digits 0-9 alone", "'٣' (ARABIC-INDIC DIGIT THREE) is not a digit 0-9: write the number with the digits 0-9 alone")
"""

from __future__ import annotations

import re
import unicodedata

WHOLE = re.compile(r"[-+]?[0-9]+")
DECIMAL = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")


def in_digits(text: str, whole: bool = True) -> bool:
    """Whether ``text`` (spaces around it aside) is a number written with the digits 0-9: a whole one, or with
    ``whole=False`` one with a decimal point or an exponent too."""
    return (WHOLE if whole else DECIMAL).fullmatch(text.strip()) is not None


def odd_digits(text: str) -> bool:
    """Whether ``text`` holds an underscore or another script's digit: a number Python reads that is not written
    with the digits 0-9 (``1_000``, ``٣``)."""
    return any(c == "_" or (c.isdigit() and not c.isascii()) for c in text)


def not_digits(text: str) -> str:
    """Why ``text`` is not a number in the digits 0-9, naming its first character that is another script's digit or
    an underscore; a plain request for digits when there is none."""
    odd = next((c for c in text if odd_digits(c)), None)
    if odd == "_":
        return "'_' is not a digit: write the number with the digits 0-9 alone"
    if odd is not None:
        return f"'{odd}' ({unicodedata.name(odd, 'a digit')}) is not a digit 0-9: write the number with the digits 0-9 alone"
    return "write the number with the digits 0-9"
