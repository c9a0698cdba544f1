"""Run ``rulecraft`` on a hostile input in a child process, bounded in time and memory, and check how it ended.

Every reproducer under ``tests/hostile/`` must end quickly with a positioned
error (``file:line:col:``), exit status 1 and no traceback.  The child runs
with its address space capped (``resource.RLIMIT_AS``), so a runaway
allocation fails the test instead of the machine; it reports its own peak
resident memory (``VmHWM``) and processor time as it exits.  It is forked
from a process that has imported the command (``forked_cli.py``); a test
that passes ``fresh=True`` starts a new interpreter, as a user does.

Example::

    ended = run_cli(["validate", str(path)])
    ended.assert_refused(path.name, "more than 50 deep")
"""

from __future__ import annotations

import functools
import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hypothesis import settings

import forked_cli

SECONDS = 2.0
"""The most CPU time a reproducer may take (the command's own, from the fork; with ``fresh``, the interpreter's
start-up and imports too) on a machine as fast as the one the bounds were set on; a slower machine gets
proportionally more (see :func:`slowness`)."""
PLAIN_SECONDS = 0.09
"""The CPU time of a plain ``rulecraft validate tutorial-tiles`` forked as :func:`run_cli` runs it (the imports
done, the parser's tables kept) on the machine the bounds were set on (a 2-core virtual machine, CPython 3.11),
where a fresh interpreter's took 0.3 s."""
MEGABYTES = 300
"""The most memory a reproducer may use (the child's address space is capped a little above)."""
REPOSITORY = Path(__file__).resolve().parents[2]

BASE = """\
name: hostile
players: [2]
types:
  symbol: [Sun, Moon]
components:
  tile:
    faces: [front, back]
    attributes:
      symbol: {type: symbol, per_face: true}
    instances: [Sun/Moon, Moon/Sun, Sun/Sun, Moon/Moon]
board: {kind: square-grid, max_width: 3, max_height: 3, adjacency: orthogonal}
roles:
  of: symbol
  seating: {2: [1, 2]}
zones:
  hand: {kind: hand, per: role}
counters:
  gold: {start: 2}
setup: |
  for r in roles:
    move(t in tiles where t.front.symbol == r, hand(r))
turn:
  - place: {from: hand, face: choose}
end:
  when: all(count(t in hand(r)) == 0 for r in roles)
scoring:
  rank: s in roles
  by: [count(t in board where t.symbol == s)]
  points: [1, 0]
"""
"""A small valid ruleset that hostile code is added to."""


@dataclass
class Ended:
    """How the command ended: status, output, processor time (start-up included) and peak memory.

    Processor time rather than wall time: the test machine is shared, and
    a hang shows as the ``timeout`` of :func:`run_cli` anyway.
    """

    code: int
    out: str
    err: str
    seconds: float
    megabytes: float

    def assert_refused(self, where: str, *words: str) -> None:
        """Exit status 1, a positioned error holding ``words``, no traceback, within time and memory.

        ``where`` is the start of the position: a file (``PATH``, or the start of its name), or ``PATH:LINE``.
        """
        text = self.out + self.err
        assert self.code == 1, f"exit status {self.code}: {text[-2000:]}"
        assert "Traceback" not in text, text[-2000:]
        assert re.search(re.escape(where) + r"[^\s:]*(?::\d+)?:\d+: ", text), f"no position in {where}...: {text[:2000]}"
        for word in words:
            assert word in text, f"{word!r} not in: {text[:2000]}"
        self.assert_bounded()

    def assert_bounded(self) -> None:
        bound = SECONDS * slowness()
        assert self.seconds < bound, f"took {self.seconds:.2f} s (the bound on this machine: {bound:.2f} s)"
        assert self.megabytes < MEGABYTES, f"used {self.megabytes:.0f} MB"


def run_cli(args: list[str], cwd: Path | None = None, timeout: float = 60, fresh: bool = False) -> Ended:
    """``rulecraft ARGS`` in a child process capped at :data:`MEGABYTES` (+ a margin) of address space.

    The child is forked from a process that has imported the command (see ``forked_cli.py``), so its processor
    time is the command's own; ``fresh``: a new interpreter, its start-up and imports counted too.
    """
    # The bound is for the command, not for compiling the engine's modules: the child may keep their bytecode.
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY), "COLUMNS": "200"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    report = tempfile.NamedTemporaryFile(prefix="peak-", delete=False)
    report.close()
    start = time.perf_counter()  # for a child that could not report (killed by its memory cap)
    ended = forked_cli.run(args, env, cwd=cwd, timeout=timeout, megabytes=MEGABYTES + 200, report=report.name,
                           prog_name=True, fresh=fresh)
    wall = time.perf_counter() - start
    if ended is None:
        os.unlink(report.name)
        raise AssertionError(f"rulecraft {' '.join(args)[:200]} did not end in {timeout} s")
    peak, seconds = (Path(report.name).read_text() or f"inf {wall}").split()  # the child writes them as it exits
    os.unlink(report.name)
    return Ended(ended.code, ended.out, ended.err, float(seconds), float(peak) / 1024)


@functools.cache
def slowness() -> float:
    """How many times slower than the machine the bounds were set on this one runs a plain command (at least 1).

    A bound is there to catch work that grows without limit, which no machine's speed hides; a slower machine
    (a shared CI runner) must not fail an input that stays within the limits.

    >>> slowness() >= 1
    True
    """
    plain = run_cli(["validate", "tutorial-tiles"])
    assert plain.code == 0, plain.out + plain.err
    return max(1.0, plain.seconds / PLAIN_SECONDS)


def examples(ci: int) -> int:
    """How many examples a fuzz test tries: ``ci`` under a derandomized profile (CI), else the profile's own count.

    >>> examples(5) >= 1
    True
    """
    current = settings.default
    return ci if current.derandomize else current.max_examples


def write_ruleset(folder: Path, text: str, name: str = "ruleset.yaml") -> Path:
    """Write ``text`` as ``folder/name`` and return its path."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path
