"""What the docs show of ``rulecraft explain`` is real: each marked excerpt is found in the command's output.

A block of explain output is checked when the line just above its fence
gives the command's arguments::

    <!-- explain: docs/examples/my-spells -->
    ```text
    Hearthstone: red, yellow, red, black in the shape 'tee': ...
    ...
    ```

Every line of the block but ``...`` (which stands for lines left out) must
be a line of the real output, leading spaces aside, in the order shown.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.conftest import docs_blocks

ROOT = Path(__file__).resolve().parent.parent
MARKED = re.compile(r"^<!-- explain: (.+?) -->\n```text\n(.*?)^```[ \t]*$", re.S | re.M)


def excerpts() -> list[tuple[str, str, str]]:
    """(where in the docs, the explain arguments, the block's text) for every marked block."""
    return [(where, m.group(1), m.group(2)) for where, m in docs_blocks(MARKED)]


def missing_lines(shown: str, real: str) -> list[str]:
    """The lines of ``shown`` (``...`` skipped) not found in ``real`` in order, leading spaces aside.

    >>> missing_lines("a\\n...\\n c", "a\\nb\\nc\\n")
    []
    >>> missing_lines("c\\na", "a\\nb\\nc\\n")
    ['a']
    """
    lines = [line.strip() for line in real.splitlines()]
    at, missing = 0, []
    for line in (s.strip() for s in shown.splitlines()):
        if line == "...":
            continue
        try:
            at = lines.index(line, at) + 1
        except ValueError:
            missing.append(line)
    return missing


EXCERPTS = excerpts()


def test_there_are_excerpts() -> None:
    assert len(EXCERPTS) >= 2


@pytest.mark.parametrize(("where", "args", "shown"), EXCERPTS, ids=[w for w, _, _ in EXCERPTS])
def test_the_excerpt_is_in_the_real_output(where: str, args: str, shown: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["explain", *shlex.split(args)])
    assert result.exit_code == 0, result.output
    assert missing_lines(shown, result.output) == [], f"{where}: not in 'rulecraft explain {args}' (in this order)"
