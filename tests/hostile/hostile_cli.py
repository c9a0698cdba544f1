"""Running the ``rulecraft`` command as a user would, for the hostile-input tests.

>>> result = rulecraft("list")
>>> result.code, "Traceback" in result.err
(0, False)
"""

from __future__ import annotations

import os
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

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


def rulecraft(*args: str, cwd: Path | None = None) -> Run:
    """Run ``rulecraft ARGS`` in a fresh process (this tree first on the path); a hang fails the test."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULECRAFT_TEST_SECRET": SECRET}
    command = [sys.executable, "-c", "from cli.main import main; main()", *args]
    done = subprocess.run(command, capture_output=True, cwd=cwd or ROOT, env=env, timeout=HANG, stdin=subprocess.DEVNULL)
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


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
