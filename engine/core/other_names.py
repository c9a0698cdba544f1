"""Components' other names (``also:``): a text a user wrote, each word that is another name written as the id.

>>> as_ids("commit * to left", {"*": "star"})
'commit star to left'
"""

from __future__ import annotations

from collections.abc import Mapping


def as_ids(text: str, other_names: Mapping[str, str]) -> str:
    """``text`` with each word that is one of ``other_names`` written as the id it stands for (the text itself when
    none is: its spacing kept).

    >>> as_ids("swap  a for b", {"*": "star"})
    'swap  a for b'
    >>> as_ids("play *2", {"*": "star"})
    'play *2'
    """
    if not other_names:
        return text
    words = text.split()
    if not any(word in other_names for word in words):
        return text
    return " ".join(other_names.get(word, word) for word in words)
