"""File names made from a ruleset's own words (its ``name:``), which may hold anything a YAML text holds.

A name such as ``../../x`` joined to a folder named a file outside it; ``a/b`` a folder below it that is not
there; a name of 300 letters more than a file name holds.  :func:`name_part` keeps letters, digits, ``-``, ``_``
and inner dots, and writes every other run of characters as one ``-``.

>>> name_part("my-game"), name_part("../../x"), name_part("a b/ç"), name_part("..")
('my-game', 'x', 'a-b-ç', 'game')
"""

from __future__ import annotations

import re

LONGEST = 80
"""Characters of a name kept in a file name (a file name holds 255 bytes, and the name is followed by more)."""


def name_part(name: str, empty: str = "game") -> str:
    """``name`` as a part of a file name: no separator, no leading or trailing dot or dash, at most :data:`LONGEST`
    characters (``empty`` when nothing is left).

    >>> name_part("x" * 300) == "x" * LONGEST, name_part("\\x00\\n")
    (True, 'game')
    """
    kept = re.sub(r"[^\w.-]+", "-", name, flags=re.UNICODE)
    kept = re.sub(r"\.{2,}", "-", kept)
    kept = kept[:LONGEST].strip(".-")
    return kept or empty
