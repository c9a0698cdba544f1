"""Every figure of docs/performance.md in one sitting: one command, one Markdown page, ratios first.

    python benchmarks/sitting.py --references PATH/TO/REFERENCES > /tmp/sitting.md
    python benchmarks/sitting.py --references REFS --morning /tmp/morning --before /tmp/start
    python benchmarks/sitting.py --quick --only references --only startup --references REFS

Runs the other scripts of this folder one after the other, each in its own
process and on this checkout, and prints their tables under one heading that
says when, on which commit and on what machine they were taken (the load
average before each part, too: a figure taken on a busy machine says so):

- ``references``: the engine beside the hand-written references (``references.py``; needs ``--references``);
- ``openspiel``: the classics beside OpenSpiel's C++ games (``openspiel.py``; needs the oracle extra);
- ``mcts``: MCTS iterations per second against an older checkout (``two_trees.py --mcts``; needs ``--morning``,
  a worktree of the commit the issue's targets count from);
- ``playouts``: random playouts against another checkout (``two_trees.py``; needs ``--before``);
- ``scaling``: one simulation on 1 and 2 local workers (``scaling.py --no-ray``), a card game and a board game;
- ``startup``: the command line's own start-up (``startup.py``).

A part that cannot run (its folder or extra missing) is named as skipped, and
one that fails prints its last lines; the exit status is 1 when any part
failed.  Progress goes to standard error.  ``--quick`` runs every part with
its fewest rounds and games, to check the sitting runs before a long one (its
figures are too noisy to publish).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Part:
    """One part of a sitting: its name, heading and the script's arguments (full and quick)."""

    name: str
    heading: str
    full: list[str]
    quick: list[str]


def parts(args: argparse.Namespace) -> list[Part | str]:
    """The parts this sitting runs, in order; a text for each that cannot run here (why it is skipped).

    >>> ns = argparse.Namespace(references=None, morning=None, before=None)
    >>> [p if isinstance(p, str) else p.name for p in parts(ns)][-2:]
    ['scaling', 'startup']
    """
    out: list[Part | str] = []
    if args.references:
        refs = str(Path(args.references).resolve())
        out.append(Part("references", "Against hand-written references",
                        ["references.py", refs, "--rounds", "5"], ["references.py", refs, "--rounds", "1"]))
    else:
        out.append("references: skipped (no --references folder)")
    if importlib.util.find_spec("pyspiel") is not None:
        out.append(Part("openspiel", "The classics against OpenSpiel",
                        ["openspiel.py", "--playouts", "1000", "--repeat", "5"],
                        ["openspiel.py", "tic-tac-toe", "--playouts", "50", "--repeat", "1"]))
    else:
        out.append("openspiel: skipped (OpenSpiel is not installed: pip install -e '.[oracle]')")
    if args.morning:
        morning = str(Path(args.morning).resolve())
        out.append(Part("mcts", f"MCTS iterations per second against {_commit(Path(morning))}",
                        ["two_trees.py", morning, str(ROOT), "--mcts", "--rounds", "2"],
                        ["two_trees.py", morning, str(ROOT), "--mcts", "--rounds", "1", "tic-tac-toe"]))
    else:
        out.append("mcts: skipped (no --morning checkout)")
    if args.before:
        before = str(Path(args.before).resolve())
        out.append(Part("playouts", f"Random playouts against {_commit(Path(before))}",
                        ["two_trees.py", before, str(ROOT), "--rounds", "9"],
                        ["two_trees.py", before, str(ROOT), "--rounds", "1", "tic-tac-toe"]))
    else:
        out.append("playouts: skipped (no --before checkout)")
    scaling = []
    for ruleset, players in (("iconoclasm-cards", "4"), ("nine-domains", "2")):
        scaling.append(["scaling.py", "--ruleset", ruleset, "--players", players, "--games", "30000",
                        "--rounds", "2", "--no-ray"])
    out.append(Part("scaling", "Simulations on 2 workers", *_joined(scaling),))
    out.append(Part("startup", "Start-up", ["startup.py", "--runs", "7"], ["startup.py", "--runs", "1"]))
    return out


def _joined(commands: list[list[str]]) -> tuple[list[str], list[str]]:
    """Several runs of one script as one part: the runs joined by ``;`` (split again by :func:`run`)."""
    full = [word for command in commands for word in [*command, ";"]][:-1]
    quick = [word for command in commands
             for word in [*command[:command.index("--games") + 1], "300", "--rounds", "1", "--no-ray", ";"]][:-1]
    return full, quick


def _commit(tree: Path) -> str:
    """The short commit of a checkout, or its path when it is not one.

    >>> _commit(Path("/nowhere/at/all"))
    '/nowhere/at/all'
    """
    try:
        done = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h (%cs)"], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return str(tree)
    return f"`{done.stdout.strip()}`" if done.returncode == 0 and done.stdout.strip() else str(tree)


def run(part: Part, quick: bool) -> tuple[str, bool]:
    """Run one part's script (or scripts); its Markdown and whether every run succeeded."""
    words = part.quick if quick else part.full
    commands: list[list[str]] = [[]]
    for word in words:
        if word == ";":
            commands.append([])
        else:
            commands[-1].append(word)
    texts, ok = [], True
    for command in commands:
        shown = "python benchmarks/" + " ".join(command).replace(str(ROOT) + "/", "").replace(str(ROOT), ".")
        load = os.getloadavg()[0]
        started = time.monotonic()
        done = subprocess.run([sys.executable, str(HERE / command[0]), *command[1:]], capture_output=True,
                              text=True, cwd=ROOT)
        took = time.monotonic() - started
        texts.append(f"```sh\n{shown}\n```\n\n(load average {load:.1f} before; {took:.0f} s)\n")
        if done.returncode != 0:
            ok = ok and done.returncode == 1 and bool(done.stdout.strip())  # 1: a bar not met, the table printed
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            texts.append(f"exit status {done.returncode}" + (f":\n\n```\n{tail}\n```\n" if tail else "\n"))
        texts.append(done.stdout.strip() + "\n")
    return "\n".join(texts), ok


def header() -> str:
    """When, where and on what: the first lines of a sitting's page."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"## Figures: the sitting of {now}\n\nCommit {_commit(ROOT)}; Python {platform.python_version()} on "
            f"{platform.machine()}, {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start. "
            "Every table below was taken in this sitting, one part after the other.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--references", help="the folder of the hand-written reference scripts")
    parser.add_argument("--morning", help="a checkout to measure MCTS iterations against (the issue's start)")
    parser.add_argument("--before", help="a checkout to measure random playouts against")
    parser.add_argument("--only", action="append", default=[], help="run only this part (repeat for several)")
    parser.add_argument("--quick", action="store_true", help="fewest rounds and games: a check, not figures")
    args = parser.parse_args()
    chosen = parts(args)
    known = {p.name for p in chosen if isinstance(p, Part)} | {p.split(":")[0] for p in chosen if isinstance(p, str)}
    unknown = sorted(set(args.only) - known)
    if unknown:
        parser.error(f"no part named {', '.join(unknown)}; the parts: {', '.join(sorted(known))}")
    if args.only:
        chosen = [p for p in chosen if (p.name if isinstance(p, Part) else p.split(":")[0]) in args.only]
    print(header())
    failed = False
    runnable = [p for p in chosen if isinstance(p, Part)]
    for part in chosen:
        if isinstance(part, str):
            print(f"- {part}\n")
            continue
        print(f"[{runnable.index(part) + 1}/{len(runnable)}] {part.name} ...", file=sys.stderr, flush=True)
        text, ok = run(part, args.quick)
        failed = failed or not ok
        print(f"### {part.heading}\n\n{text}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
