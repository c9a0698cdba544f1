"""Text from a ruleset, a log or a save shown as data: escaped, and cut when long.

A ruleset's titles, names, messages and actions reach terminals, JSON and
CSV output.  :func:`shown` writes every control character as an escape
(``\\x1b``), so no escape sequence can clear a screen or retitle a window,
and no bidirectional override can reorder what is printed; line breaks
and tabs stay.  :func:`json_safe` does the same to JSON text, in JSON's own
escapes, and :func:`html_safe` to HTML text.  :func:`cut` shortens a long value quoted in a message;
:func:`abbreviations` gives names the short labels a drawing uses.

>>> shown("Title\\x1b]0;pwned\\x07 \\u202egnp.exe")
'Title\\\\x1b]0;pwned\\\\x07 \\\\u202egnp.exe'
>>> json_safe('{"title": "a\\x9bb"}')
'{"title": "a\\\\u009bb"}'
>>> cut("x" * 4_194_304, 10)
'xxxxxxxxxx... (4,194,304 characters)'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable, Sequence

CUT_AT = 200
"""Characters of a long value kept in a message."""

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""Control characters (all but tab and line feed), bidirectional controls, line separators, lone surrogates."""


def _escape(match: re.Match[str]) -> str:
    return _escape_char(match.group())


def shown(text: str) -> str:
    """``text`` with every unsafe character written as an escape (line breaks and tabs kept)."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """``text`` as :func:`shown` writes it, its line breaks written as escapes too: safe in a line of generated
    source's comment, where a line break would end the comment and make the rest code.

    >>> one_line('folder\\nimport os\\r\\u2028')
    'folder\\\\nimport os\\\\x0d\\\\u2028'
    """
    return shown(text).replace("\n", "\\n")


def as_one_line(text: str) -> str:
    """``text`` standing in one line as it reads: every control character, line break, tab, bidirectional control and
    invisible character (zero-width space, byte-order mark) written as an escape, the rest as it is -- a text offered
    as an option in an action, which a line break would split into a line that looks like another action.

    >>> as_one_line("take"), as_one_line("a\\n[2] place X"), as_one_line("x\\u200by\\tz")
    ('take', 'a\\\\n[2] place X', 'x\\\\u200by\\\\tz')
    """
    if text.isprintable():
        return text
    return "".join({"\n": "\\n", "\t": "\\t"}.get(ch) or (_escape_char(ch) if _UNSAFE.match(ch)
                   or unicodedata.category(ch) == "Cf" else ch) for ch in text)


LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""The characters that end a line (those ``str.splitlines`` splits at)."""


def breaking_character(text: str, line_breaks_only: bool = False) -> str | None:
    """The first line break or other control character of ``text`` (``line_breaks_only``: the first line break), None
    when it has none: a name holding one cannot stand in one line of output, an action's text or a command line.

    >>> breaking_character("Mill 2"), breaking_character("a\\tb"), breaking_character("a\\u2028")
    (None, '\\t', '\\u2028')
    >>> breaking_character("ok\\x1b[2J", line_breaks_only=True) is None
    True
    """
    if line_breaks_only:
        return next((ch for ch in text if ch in LINE_BREAKS), None)
    return next((ch for ch in text if unicodedata.category(ch) in ("Cc", "Zl", "Zp")), None)


def invisible_character(text: str) -> str | None:
    """The first character of ``text`` that is not seen where it stands, None when it has none: a bidirectional
    control (which reorders what follows it), a zero-width space or joiner, a soft hyphen, a byte-order mark (the
    format characters of Unicode): text holding one reads otherwise than it is written.

    >>> invisible_character("the pot boils over"), invisible_character("a\u202eb"), invisible_character("a\u200bb")
    (None, '\u202e', '\u200b')
    """
    return next((ch for ch in text if unicodedata.category(ch) == "Cf"), None)


def quoted_line(text: str, col: int) -> tuple[str, int]:
    """A line of a file as an error quotes it above its caret, and the caret's column in it: every unsafe or invisible
    character (a control, a bidirectional control, a zero-width space, a byte-order mark) written as an escape, so
    the line reads as it is and the caret stays under the character it points at.

    >>> quoted_line("name: a\u200bb", 8)
    ('name: a\\\\u200bb', 8)
    >>> quoted_line("\u200bname: \u202ex", 8)
    ('\\\\u200bname: \\\\u202ex', 13)
    """
    def escaped(part: str) -> str:
        return "".join(_escape_char(ch) if _UNSAFE.match(ch) or unicodedata.category(ch) == "Cf" else ch for ch in part)

    return escaped(text), len(escaped(text[: max(col - 1, 0)])) + 1


def _escape_char(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def json_safe(text: str) -> str:
    """JSON text with the unsafe characters left by ``json.dumps`` written as ``\\u`` escapes (still valid JSON)."""
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def html_safe(text: str) -> str:
    """``text`` for HTML: control characters shown as escapes, then ``<``, ``&`` and quotes escaped.

    >>> html_safe('<b title="x">\\x1b[2J</b>')
    '&lt;b title=&quot;x&quot;&gt;\\\\x1b[2J&lt;/b&gt;'
    """
    import html

    return html.escape(shown(text))


def cut(text: str, limit: int = CUT_AT) -> str:
    """``text`` itself, or its first ``limit`` characters and how long it was.

    >>> cut("short")
    'short'
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def abbreviations(labels: Iterable[str], least: int = 1) -> dict[str, str]:
    """The shortest prefixes (of at least ``least`` characters) that tell the labels apart.

    >>> abbreviations(["Stone", "Storm", "Ice"])
    {'Ice': 'Ice', 'Stone': 'Ston', 'Storm': 'Stor'}
    """
    distinct = sorted(set(labels))
    longest = max((len(x) for x in distinct), default=1)
    for size in range(min(least, longest), longest + 1):
        short = {label: label[:size] for label in distinct}
        if len(set(short.values())) == len(distinct):
            return short
    return {label: label for label in distinct}


def players(counts: int | str | Iterable[int]) -> str:
    """``N players`` for a player count or a list of them, in the singular for one player alone.

    >>> players(1), players(3), players([1]), players([2, 3]), players("1..4")
    ('1 player', '3 players', '1 player', '2, 3 players', '1..4 players')
    """
    if isinstance(counts, (int, str)):
        text = str(counts)
    else:
        text = ", ".join(map(str, counts))
    return f"{text} player" if text == "1" else f"{text} players"


def and_list(words: Sequence[str]) -> str:
    """``1, 2 and 3``: words as a sentence lists them.

    >>> and_list(["1"]), and_list(["1", "2", "3"])
    ('1', '1, 2 and 3')
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
