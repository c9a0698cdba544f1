"""The scenario runs and simulations the docs show are real: each unmarked ``$ rulecraft check PATH`` block is the
command's output, and so is each ``$ rulecraft simulate ...`` or ``$ rulecraft sweep ...`` block (but for the time
the run took).

A ```` ```text ```` block whose first line is ``$ rulecraft check PATH``, ``PATH`` a file or folder of the clone,
is run from the clone's root (as a reader following the page types it) and must print the rest of the block,
line for line.  Blocks marked ``<!-- output: ... -->`` are made from broken copies and checked by
``tests/test_doc_output.py``; these are the plain runs of shipped files (characters.md's reprisal, kindling and
cinder-witch, spells.md's my-spells, rulesets.md's rulebook clash example), which nothing compared with the command.
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
BLOCK = re.compile(r"^(<!-- output: [\w-]+ -->\n)?```text\n\$ (rulecraft check [^\n]+)\n(.*?)^```[ \t]*$", re.S | re.M)


def runs() -> list[tuple[str, str, str]]:
    """(where in the docs, the command, the output shown) for every unmarked check of the clone's files."""
    return [(where, m.group(2), m.group(3)) for where, m in docs_blocks(BLOCK)
            if m.group(1) is None and (ROOT / shlex.split(m.group(2))[-1]).exists()]


def test_the_docs_show_such_runs() -> None:
    assert len(runs()) >= 6
    assert len(simulations()) >= 5


RUN = re.compile(r"^```text\n\$ (rulecraft (?:simulate|sweep) [^\n]+)\n(.*?)^```[ \t]*$", re.S | re.M)
TIMING = re.compile(r"^(\d+ games in )\d+\.\d\d s$", re.M)
"""The last line of a report, the time the run took: the one figure that changes from run to run."""


def simulations() -> list[tuple[str, str, str]]:
    """(where in the docs, the command, the output shown) for every ``$ rulecraft simulate`` or ``sweep`` block."""
    return [(where, m.group(1), m.group(2)) for where, m in docs_blocks(RUN)]


@pytest.mark.parametrize(("where", "command", "shown"), simulations(), ids=[r[0] for r in simulations()])
def test_a_simulation_the_docs_show_prints_what_they_show(monkeypatch: pytest.MonkeyPatch, where: str, command: str,
                                                         shown: str) -> None:
    """Reports are the same for a seed on any machine, but for the time the run took, which is not compared."""
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    assert TIMING.sub(r"\1(time) s", result.output) == TIMING.sub(r"\1(time) s", shown), where


@pytest.mark.parametrize(("where", "command", "shown"), runs(), ids=[r[0] for r in runs()])
def test_a_check_the_docs_show_prints_what_they_show(monkeypatch: pytest.MonkeyPatch, where: str, command: str,
                                                      shown: str) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    assert result.output == shown, where
