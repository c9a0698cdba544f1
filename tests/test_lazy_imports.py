"""The command line starts light: the compiler, the effect language's parser, jsonschema, rich and the web server load
only for the commands that need them (the time it takes is measured in benchmarks/startup.py, not here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("lark", "jsonschema", "rich", "starlette", "uvicorn", "engine.compiling.builder", "engine.lang.parser", "engine.model.game")

PROBE = """
import json, sys
from cli.main import main
try:
    main(sys.argv[1:], prog_name="rulecraft")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in {heavy} if m in sys.modules)), file=sys.stderr)
"""


def loaded_after(*args: str) -> list[str]:
    """The heavy modules loaded once ``rulecraft ARGS`` has run, in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    return json.loads(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["simulate", "--help"], ["play", "--help"]])
def test_help_loads_nothing_heavy(args: list[str]) -> None:
    assert loaded_after(*args) == []


def test_importing_the_package_loads_nothing_heavy() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = f"import sys, engine; print(sorted(m for m in {HEAVY} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]"


def test_a_command_that_compiles_still_loads_the_compiler() -> None:
    assert "engine.compiling.builder" in loaded_after("explain", "tic-tac-toe")


def test_list_remembers_the_rulesets_and_then_loads_no_compiler(tmp_path: Path) -> None:
    env_cache = {"XDG_CACHE_HOME": str(tmp_path)}
    first, second = (_listed(env_cache) for _ in range(2))
    assert first[0] == second[0] and "engine.compiling.builder" in first[1] and second[1] == []
    assert len(list((tmp_path / "rulecraft").glob("list-*.json"))) == 1


NEW_MODULES = """
import json, sys
before = set(sys.modules)
from cli.main import main
try:
    main(sys.argv[1:], prog_name="rulecraft")
except SystemExit:
    pass
print(json.dumps(sorted(set(sys.modules) - before)), file=sys.stderr)
"""

STARTING = {"engine", "engine.core", "engine.core.showtext", "engine.runner", "engine.runner.backends"}
"""The engine modules every command loads: the package, the text escaping of ``echo`` and the choices of --backend."""

REMEMBERING = STARTING | {"engine.core.paths", "engine.runner.listing"}
"""The engine modules ``rulecraft list`` loads to print what it remembered."""

NEVER_AT_START = ("yaml", "lark", "jsonschema", "multiprocessing", "socket", "logging", "difflib", "csv")
"""Modules of the compiler or of particular commands that neither --help nor a remembered list needs."""


def newly_loaded(*args: str, extra_env: dict[str, str] | None = None) -> set[str]:
    """The modules ``rulecraft ARGS`` loads beyond those the interpreter had loaded before it (site hooks vary)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(extra_env or {})}
    done = subprocess.run([sys.executable, "-c", NEW_MODULES, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def ours(modules: set[str]) -> set[str]:
    """The engine's modules among ``modules``."""
    return {m for m in modules if m == "engine" or m.startswith("engine.")}


@pytest.mark.parametrize("args", [["--help"], ["list", "--help"], ["simulate", "--help"]])
def test_help_loads_only_the_engine_modules_every_command_needs(args: list[str]) -> None:
    loaded = newly_loaded(*args)
    assert ours(loaded) <= STARTING
    assert not loaded & set(NEVER_AT_START)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_remembered_list_loads_no_ruleset_machinery(tmp_path: Path, fmt: str) -> None:
    cache = {"XDG_CACHE_HOME": str(tmp_path)}
    newly_loaded("list", extra_env=cache)  # the first run remembers
    loaded = newly_loaded("list", "--format", fmt, extra_env=cache)
    assert ours(loaded) <= REMEMBERING
    assert not loaded & set(NEVER_AT_START)
    assert "rich" not in loaded  # the table too was remembered, as drawn for this terminal (cli.drawn)


def _listed(extra_env: dict[str, str]) -> tuple[str, list[str]]:
    """What ``rulecraft list --format json`` prints, and the heavy modules it loaded."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra_env}
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), "list", "--format", "json"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


def test_dir_of_the_package_lists_the_public_names_before_their_first_use() -> None:
    """In a fresh interpreter dir(engine) (what tab completion in a notebook shows) was ['Any', 'TYPE_CHECKING',
    'annotations', 'import_module']: the public names load on first use, and nothing listed them before."""
    probe = "import engine, json; print(json.dumps(dir(engine)))"
    done = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    import engine

    assert set(engine.__all__) <= set(json.loads(done.stdout))
