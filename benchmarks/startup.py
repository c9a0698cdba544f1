"""How much CPU the command line spends before it does anything: ``rulecraft --help`` and ``rulecraft list``.

    python benchmarks/startup.py              # best of 5 runs each; exits 1 above the bar
    python benchmarks/startup.py --runs 10

Each command runs in a fresh interpreter; its user + system CPU time is read
from ``resource.getrusage(RUSAGE_CHILDREN)``, and the best run counts (load
from other processes only makes a run slower).  ``list`` is measured twice:
the first time it loads every built-in ruleset (with an empty cache folder),
then as every later run does, from what it remembered.  The bar (issue 19):
``--help`` and a remembered ``list`` under 0.15 s of CPU.
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


def cpu_seconds(args: list[str], env: dict[str, str]) -> float:
    """User + system CPU time of one run of ``rulecraft ARGS`` (as ``python -c RUN ARGS``)."""
    return cpu_seconds_of([sys.executable, "-c", RUN, *args], env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command; the fastest counts")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": cache}
        rows = [("python -c pass", min(cpu_seconds_of([sys.executable, "-c", "pass"], env) for _ in range(runs)), None)]
        rows.append(("rulecraft --help", min(cpu_seconds(["--help"], env) for _ in range(runs)), BAR))
        rows.append(("rulecraft list (first run: loads every ruleset)", cpu_seconds(["list"], env), None))
        rows.append(("rulecraft list", min(cpu_seconds(["list"], env) for _ in range(runs)), BAR))
    print(f"Python {sys.version.split()[0]}, best of {runs} runs, user + system CPU\n")
    print("| command | CPU | bar |\n| --- | ---: | ---: |")
    failed = False
    for name, seconds, bar in rows:
        print(f"| {name} | {seconds:.3f} s | {'' if bar is None else f'{bar:.2f} s'} |")
        failed |= bar is not None and seconds >= bar
    return 1 if failed else 0


def cpu_seconds_of(command: list[str], env: dict[str, str]) -> float:
    """User + system CPU time of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


if __name__ == "__main__":
    sys.exit(main())
