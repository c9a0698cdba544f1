"""Running the ``rulecraft`` command as a user would, for the hostile-input tests.

>>> result = rulecraft("list", fresh=True)
>>> result.code, "Traceback" in result.err
(0, False)
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

import forked_cli

ROOT = Path(__file__).resolve().parents[2]
SECRET = "swordfish-4711"
"""A value put in the command's environment: no output may ever show it."""

HANG = 30
"""Seconds after which a command counts as hung (each should end within about two)."""


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def rulecraft(*args: str, cwd: Path | None = None, fresh: bool = False) -> Run:
    """Run ``rulecraft ARGS`` in a process of its own (this tree first on the path); a hang fails the test.

    The process is forked from one that has imported the command (``forked_cli.py``); ``fresh``: a new
    interpreter, as a user starts it.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULECRAFT_TEST_SECRET": SECRET}
    done = forked_cli.run(list(args), env, cwd=cwd or ROOT, timeout=HANG, fresh=fresh)
    if done is None:
        raise AssertionError(f"rulecraft {' '.join(args)[:200]} did not end in {HANG} s")
    return Run(done.code, done.out, done.err)


def rulecraft_here(*args: str) -> Run:
    """Run ``rulecraft ARGS`` in this process (faster; for inputs that cannot hang): an exception counts as a traceback."""
    result = CliRunner().invoke(main, list(args))
    crash = "" if result.exception is None or isinstance(result.exception, SystemExit) else "".join(
        ["Traceback (most recent call last):\n", *traceback.format_exception(result.exception)])
    return Run(result.exit_code, result.stdout, result.stderr + crash)


def assert_refused(run: Run, *expected: str) -> None:
    """Exit status 1, each ``expected`` text in the output, no traceback, no secret."""
    assert run.code == 1, run
    assert "Traceback" not in run.text, run.text
    assert SECRET not in run.text
    for text in expected:
        assert text in run.text, run.text
