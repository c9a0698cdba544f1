"""Without an optional extra, ``pytest`` still runs: the engine's modules that need it are left out of the doctest
collection (conftest.py), as their tests skip; under CI a missing extra still fails.  And what needs only NumPy
(``rulecraft explain --observation``, the OpenSpiel game) does not ask for PettingZoo."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COLLECT = """
import sys
for name in ("pyspiel", "pettingzoo"):
    sys.modules[name] = None  # as if the oracle and rl extras were not installed
import pytest
sys.exit(pytest.main(["--collect-only", "-q", "-n0", "-p", "no:cacheprovider", "engine/rl"]))
"""


def _collect(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run([sys.executable, "-c", COLLECT], capture_output=True, text=True, cwd=ROOT,
                          env={**clean, **env}, timeout=300, check=False)


def test_the_doctests_of_engine_rl_are_collected_without_the_rl_and_oracle_extras() -> None:
    """It failed the whole run at collection: 'ERROR engine/rl/environment.py' (No module named 'pettingzoo')."""
    run = _collect()
    assert run.returncode == 0, run.stdout[-2000:]
    assert "engine/rl/__init__.py" in run.stdout and "environment.py" not in run.stdout


def test_under_ci_a_missing_extra_still_fails() -> None:
    run = _collect(CI="1")
    assert run.returncode != 0 and "ERROR engine/rl/environment.py" in run.stdout


def test_explain_observation_needs_numpy_but_not_pettingzoo() -> None:
    """The spaces ``rulecraft explain --observation`` prints need only NumPy: without PettingZoo it was refused
    ('--observation needs the learning extra (pettingzoo is missing)'), since engine.rl imported the environment."""
    code = """
import sys
sys.modules["pettingzoo"] = None
from click.testing import CliRunner
from cli.main import main
result = CliRunner().invoke(main, ["explain", "tic-tac-toe", "--observation"])
print(result.exit_code)
print(result.output)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300,
                         check=False, env={k: v for k, v in os.environ.items() if k != "CI"})
    assert run.stdout.splitlines()[:2] == ["0", "environment of tic-tac-toe for 2 players: from engine.rl import env; "
                                                "env('tic-tac-toe', players=2)"], run.stdout + run.stderr
