"""The engine beside hand-written Python implementations of the same games, in one sitting.

    python benchmarks/references.py REFERENCES_FOLDER              # every row, fastest of 3 rounds
    python benchmarks/references.py REFERENCES_FOLDER --rounds 5 --only nine-domains

REFERENCES_FOLDER holds the hand-written references (one script per game,
run as ``python SCRIPT N [ARGS]``; each plays N random playouts and prints
``... = R playouts/s``).  They are not part of this repository: the folder is
given on the command line.  For each row the engine's random playouts
(``rulecraft bench``, in this process, no log) and the reference's run in
turn, ``--rounds`` times, and the fastest of each counts, so both see the
same load.  Prints a Markdown table with the ratio engine / reference (the
goal: 1.0 or more, never below 0.5) and the load average; exits 1 when a
reference is missing or prints no rate.

A reference may play a simpler game than the ruleset (the Spell Cycles one
never recolours with Essence, so it plays fewer actions per game): compare
actions per game too.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import engine  # noqa: E402
from engine.runner.bench import bench  # noqa: E402


@dataclass(frozen=True)
class Row:
    """One game: the ruleset and players, the engine's playouts per run, the reference script and its arguments."""

    ruleset: str
    players: int
    playouts: int
    script: str
    reference_playouts: int
    reference_args: tuple[str, ...] = ()


ROWS = [
    Row("iconoclasm-cards", 4, 2000, "iconoclasm_cards_ref.py", 2000),
    Row("iconoclasm", 4, 300, "iconoclasm_board_ref.py", 300),
    Row("nine-domains", 2, 2000, "nine_domains_ref.py", 20000),
    Row("spell-cycles", 2, 200, "spell_cycles_ref.py", 1000, ("2",)),
]

RATE = re.compile(r"= ([0-9.]+) playouts")


def reference_rate(folder: Path, row: Row) -> float:
    """Random playouts per second the reference script reports for itself."""
    out = subprocess.run([sys.executable, str(folder / row.script), str(row.reference_playouts), *row.reference_args],
                         capture_output=True, text=True, check=True).stdout
    found = RATE.search(out)
    if found is None:
        raise SystemExit(f"{row.script} printed no rate: {out.strip()!r}")
    return float(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder of the hand-written reference scripts")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", action="append", help="only this ruleset (repeat for several)")
    args = parser.parse_args()
    missing = [row.script for row in ROWS if not (args.folder / row.script).is_file()]
    if missing:
        print(f"{args.folder}: no {', '.join(missing)}", file=sys.stderr)
        return 1
    loads = [os.getloadavg()[0]]
    print("| ruleset | players | engine playouts/s | reference playouts/s | ratio | engine actions per game |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in ROWS:
        if args.only and row.ruleset not in args.only:
            continue
        game = engine.load(row.ruleset)
        ours = theirs = 0.0
        actions = 0.0
        for _ in range(args.rounds):
            result = bench(game, row.players, row.playouts, seed=1, repeats=1)
            ours, actions = max(ours, result["playouts_per_second"]), result["actions_per_game"]
            theirs = max(theirs, reference_rate(args.folder, row))
            loads.append(os.getloadavg()[0])
        print(f"| {row.ruleset} | {row.players} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f} | {actions:.1f} |", flush=True)
    print(f"\nfastest of {args.rounds} alternating rounds; load average {min(loads):.1f} to {max(loads):.1f} "
          f"(1 minute, {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
