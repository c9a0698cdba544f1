"""Slips of layout behind YAML's parser errors, said in a designer's words with what to write instead.

YAML's own words name what its parser met ("mapping values are not allowed in this context"), not what the writer
did: a key with no space after its ':', a line indented too far, a text holding ': ', a list item out of line.

>>> layout_slip("board:\\n  kind:square-grid\\n  max_width: 3\\n", "mapping values are not allowed here", 2, 11, None)
Slip(line=1, column=6, hint="no space after 'kind:', so YAML reads the line as one text: write 'kind: square-grid'")
>>> layout_slip("title: Tiles: a game\\n", "mapping values are not allowed here", 0, 12, None).hint
"a value holding ': ' must be in quotes (title: 'Tiles: a game'), or on the lines under 'title: >-'"
>>> layout_slip("expect:\\n  - [1, 2] == [1, 2]\\n", "did not find expected '-' indicator", 1, 11, 1).hint[:60]
"this item starts with '[', so YAML reads it as a list and st"
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.core.showtext import CUT_AT, cut

_NO_SPACE = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*):(?=[^\s:/\[{'\"])(\S.*?)\s*(?:#.*)?$")
_BRACKETED_ITEM = re.compile(r"^\s*-\s+([\[{])")
_KEY_VALUE = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*):\s+(?![|>]\s*(?:#.*)?$)(\S.*?)(?:\s+#.*)?\s*$")


class Slip(NamedTuple):
    """Where the slip is (0-based; ``column`` None: where YAML stopped) and what to write instead."""

    line: int
    column: int | None
    hint: str


def layout_slip(text: str, problem: str, line: int, column: int, context_line: int | None) -> Slip | None:
    """The slip behind YAML's ``problem`` at 0-based ``line`` and ``column`` (with the line YAML names as context),
    or None.

    >>> layout_slip("a:\\n  b: 1\\n    c: 2\\n", "mapping values are not allowed here", 2, 5, None).hint
    'line 3 is indented further than line 2, which already has its value (1): YAML reads it as more of that value; indent it like the keys it belongs with'
    """
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    closed = _quote_closed_early(lines[line], line, column)
    if closed is not None:
        return closed
    if "could not find expected ':'" in problem and context_line is not None:
        return _no_space(lines, context_line) or _out_of_block(lines, context_line)
    if "expected '-' indicator" in problem and context_line is not None:
        bracketed = _BRACKETED_ITEM.match(lines[line])
        if bracketed is not None and column > bracketed.start(1):  # stopped after the item's closing bracket
            opening = bracketed.group(1)
            kind, closing = ("list", "]") if opening == "[" else ("mapping", "}")
            return Slip(line, None, f"this item starts with '{opening}', so YAML reads it as a {kind} and stops at "
                                    f"what follows its '{closing}': a text that starts with a bracket, such as code, "
                                    "is written in quotes (- \"...\")")
        return Slip(line, None, f"the items of a list start with '-', each lined up under the first: line {line + 1} "
                                f"is not in line with the list that starts at line {context_line + 1}")
    if "mapping values are not allowed" not in problem and "did not find expected key" not in problem:
        return None
    bare = _code_without_bar(lines, line)
    if bare is not None:
        return bare
    above = next((n for n in range(line - 1, -1, -1) if lines[n].strip() and not lines[n].lstrip().startswith("#")), None)
    if above is not None:
        hint = _no_space(lines, above)
        if hint:
            return hint
        written = _KEY_VALUE.match(lines[above])
        if written and _indent(lines[line]) > _indent(lines[above]):
            return Slip(line, None, f"line {line + 1} is indented further than line {above + 1}, which already has its "
                                    f"value ({cut(written.group(2))}): YAML reads it as more of that value; indent it like "
                                    "the keys it belongs with")
    written = _KEY_VALUE.match(lines[line])
    if written and ": " in written.group(2) and not written.group(2).startswith(("'", '"')):
        key, value = written.groups()
        quote = "'" if "'" not in value else '"'
        shown = f"{quote}{value}{quote}" if len(value) <= CUT_AT else f"{quote}{value[:CUT_AT]}...{quote}, {len(value):,} characters"
        return Slip(line, None, f"a value holding ': ' must be in quotes ({key}: {shown}), or on the lines under '{key}: >-'")
    return None


def _quote_closed_early(text: str, line: int, column: int) -> Slip | None:
    """The slip of a quote inside a quoted value (``do: "let x = "a""``), which ends the value early; YAML stops
    right after it (0-based ``column``).

    >>> print(_quote_closed_early('do: "let x = "a""', 0, 14).hint)
    the value of 'do' is in double quotes, so the " here ends it: write the quotes inside as single ones ('a'), or write the value on the lines under 'do: |'
    """
    quote = text[column - 1:column] if column > 0 else ""
    if quote not in ("'", '"'):
        return None
    opened = re.search(r"(?:^|[\s{,])([A-Za-z_][\w-]*):\s+" + re.escape(quote) + r"[^" + quote + r"]*$", text[:column - 1])
    if opened is None:
        return None
    kind, other, inside = ("double", "single", "'a'") if quote == '"' else ("single", "double", '"a"')
    return Slip(line, column - 1, f"the value of '{opened.group(1)}' is in {kind} quotes, so the {quote} here ends "
                                  f"it: write the quotes inside as {other} ones ({inside}), or write the value on the "
                                  f"lines under '{opened.group(1)}: |'")


def _code_without_bar(lines: list[str], number: int) -> Slip | None:
    """The slip of code written under ``effect:`` without ``|``: YAML reads its lines as one text until a line ending
    in ':' (``if ...:``), which it takes for a key.

    >>> print(_code_without_bar(["do:", "  effect:", "    let n = 1", "    if n == 1:", "      pass"], 3).hint)
    the lines under 'effect:' (line 2) are code: write 'effect: |' so that YAML keeps them as they are
    """
    indent, code = _indent(lines[number]), lines[number].strip()
    if not re.match(r"(for|if|elif|else|while|repeat|roll)\b.*:\s*(#.*)?$", code):
        return None
    for above in range(number - 1, -1, -1):
        if not lines[above].strip() or _indent(lines[above]) >= indent:
            continue
        opener = re.match(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*):\s*(?:#.*)?$", lines[above])
        if opener is None:
            return None
        return Slip(number, None, f"the lines under '{opener.group(1)}:' (line {above + 1}) are code: write "
                                  f"'{opener.group(1)}: |' so that YAML keeps them as they are")
    return None


def _out_of_block(lines: list[str], number: int) -> Slip | None:
    """The slip of a line of code indented less than the ``key: |`` block it was meant for, which YAML ended above it.

    >>> print(_out_of_block(["do: |", "  pass", " pass", "end: 1"], 2).hint)
    line 3 is indented less than the lines under 'do: |' (line 1), so YAML ends them above it: indent it as they are (2 spaces)
    """
    indent = _indent(lines[number])
    for above in range(number - 1, -1, -1):
        if not lines[above].strip():
            continue
        opener = re.match(r"^(\s*)(?:-\s+)?([A-Za-z_][\w-]*):\s*[|>][-+]?\s*(?:#.*)?$", lines[above])
        if opener is None and _indent(lines[above]) > indent:
            continue  # a line of the block
        if opener is None or len(opener.group(1)) > indent:
            return None
        code = next((line for line in lines[above + 1:number] if line.strip()), None)
        if code is None or _indent(code) <= indent:
            return None
        return Slip(number, indent, f"line {number + 1} is indented less than the lines under '{opener.group(2)}: "
                                    f"{lines[above].split(':', 1)[1].strip()}' (line {above + 1}), so YAML ends them "
                                    f"above it: indent it as they are ({_indent(code)} spaces)")
    return None


def _no_space(lines: list[str], number: int) -> Slip | None:
    """The slip of a ``key:value`` with no space after the colon on 0-based line ``number`` (at the colon), or None."""
    found = _NO_SPACE.match(lines[number]) if 0 <= number < len(lines) else None
    if found is None:
        return None
    key, value = found.groups()
    return Slip(number, found.end(1), f"no space after '{key}:', so YAML reads the line as one text: write '{key}: {cut(value)}'")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
