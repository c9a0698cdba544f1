"""How much CPU the command line spends before it does anything: ``rulecraft --help`` and ``rulecraft list``.

    python benchmarks/startup.py              # best of 5 runs each; exits 1 above the bar
    python benchmarks/startup.py --runs 10

Each command runs in a fresh interpreter; its user + system CPU time is read
from ``resource.getrusage(RUSAGE_CHILDREN)``, and the best run counts (load
from other processes only makes a run slower).  ``list`` is measured twice:
the first time it loads every built-in ruleset (with an empty cache folder),
then as every later run does, from what it remembered.

Every command is measured as an installed Rulecraft runs it, with the
bytecode of its modules compiled once and kept (here in a private folder,
``PYTHONPYCACHEPREFIX``, filled by an untimed run of ``list`` first), and
again as it runs where ``PYTHONDONTWRITEBYTECODE`` is set, compiling every
module of Rulecraft from source on every run.  The bar (issue 19), on the
first: ``--help`` and a remembered ``list`` under 0.15 s of CPU.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BAR = 0.15
RUN = "import sys; from cli.main import main; main(sys.argv[1:], prog_name='rulecraft')"
COMMANDS = [
    ("python -c pass", ["-c", "pass"], None),
    ("rulecraft --help", ["-c", RUN, "--help"], BAR),
    ("rulecraft list", ["-c", RUN, "list"], BAR),
    ("rulecraft list --format json", ["-c", RUN, "list", "--format", "json"], None),
]
"""What is measured: a name, the interpreter's arguments, and the bar (None: none)."""


def environments(scratch: Path) -> dict[str, dict[str, str]]:
    """The two ways of running: bytecode kept between runs, and compiled from source each run; each with its own cache folder."""
    base = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    base["PYTHONPATH"] = str(ROOT)
    return {
        "kept": {**base, "PYTHONPYCACHEPREFIX": str(scratch / "bytecode"), "XDG_CACHE_HOME": str(scratch / "kept")},
        "compiled": {**base, "PYTHONDONTWRITEBYTECODE": "1", "XDG_CACHE_HOME": str(scratch / "compiled")},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command; the fastest counts")
    runs = parser.parse_args().runs
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        envs = environments(Path(scratch))
        warm_up = {**envs["kept"], "XDG_CACHE_HOME": str(Path(scratch) / "warm-up")}
        cpu_seconds_of([sys.executable, "-c", RUN, "list"], warm_up)  # writes the bytecode of every module list loads
        first = {way: cpu_seconds_of([sys.executable, "-c", RUN, "list"], env) for way, env in envs.items()}
        best = {(name, way): float("inf") for name, _, _ in COMMANDS for way in envs}
        for _ in range(runs):  # the commands and ways alternate, so that each sees the same load
            for name, args, _ in COMMANDS:
                for way, env in envs.items():
                    best[name, way] = min(best[name, way], cpu_seconds_of([sys.executable, *args], env))
    print(f"Python {sys.version.split()[0]}, best of {runs} runs, user + system CPU; "
          f"load average {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end\n")
    print("| command | CPU | CPU, compiling every module each run | bar |\n| --- | ---: | ---: | ---: |")
    failed = False
    for name, _, bar in COMMANDS:
        if name == "rulecraft list":
            print(f"| rulecraft list, the first time (loads every ruleset) | {first['kept']:.3f} s | {first['compiled']:.3f} s | |")
        kept, compiled = best[name, "kept"], best[name, "compiled"]
        print(f"| {name} | {kept:.3f} s | {compiled:.3f} s | {'' if bar is None else f'{bar:.2f} s'} |")
        failed |= bar is not None and kept >= bar
    return 1 if failed else 0


def cpu_seconds_of(command: list[str], env: dict[str, str]) -> float:
    """User + system CPU time of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


if __name__ == "__main__":
    sys.exit(main())
