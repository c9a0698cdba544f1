"""A long randomized fuzz campaign: every ``fuzz``-marked test, again and again, until the time is up.

    python benchmarks/fuzz.py --minutes 30

Each round runs ``pytest -m fuzz`` under the hypothesis profile "campaign"
(fresh random examples, many per test; see tests/conftest.py), so no two
rounds try the same inputs.  A round that is still running when the time
is up stops after its current test.  At the end it prints, per test, the
rounds run, the examples tried and the failures, and exits with status 1
if anything failed (the failing tests' reports, with hypothesis's
reproducing blobs, are printed as they happen).

In CI the same tests run under the "ci" profile: few examples, fixed seeds.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
_COUNTS = re.compile(r"(\d+) passing examples?, (\d+) failing examples?, (\d+) invalid examples?")


@dataclass
class Figures:
    """What the campaign did to one test."""

    rounds: int = 0
    examples: int | None = None  # None: not a hypothesis test (or its examples are not reported)
    failures: int = 0

    def add_examples(self, count: int) -> None:
        self.examples = (self.examples or 0) + count


class Campaign:
    """A pytest plugin that counts examples and failures, and stops a round when the time is up."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.figures: dict[str, Figures] = defaultdict(Figures)
        self._started: dict[str, int] = {}

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        machine = getattr(getattr(item, "cls", None), "machine", None)
        if machine is not None:
            self._started[item.nodeid] = machine.examples_started

    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[Any]) -> None:
        if call.when != "call":
            return
        figures = self.figures[item.nodeid]
        figures.rounds += 1
        figures.failures += call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception)
        machine = getattr(getattr(item, "cls", None), "machine", None)
        if machine is not None:  # a stateful test counts the examples it starts
            figures.add_examples(machine.examples_started - self._started.pop(item.nodeid, 0))
        elif hasattr(item, "hypothesis_statistics"):
            counts = _COUNTS.findall(item.hypothesis_statistics)
            figures.add_examples(sum(int(passing) + int(failing) for passing, failing, _ in counts))

    def pytest_runtest_logfinish(self) -> None:
        if time.monotonic() >= self.deadline:
            self.session.shouldstop = "the campaign's time is up"

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, required=True, help="how long to run (a round in progress stops after its current test)")
    parser.add_argument("-k", dest="keyword", help="only the fuzz tests matching this pytest -k expression")
    args = parser.parse_args(argv)
    if args.minutes <= 0:
        parser.error("--minutes must be more than 0")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    start = time.monotonic()
    campaign = Campaign(start + args.minutes * 60)
    command = ["-m", "fuzz", "--hypothesis-profile", "campaign", "-p", "no:cacheprovider", "-q", "--no-header",
               "-o", "addopts=", "tests"]
    if args.keyword:
        command += ["-k", args.keyword]
    rounds = 0
    while time.monotonic() < campaign.deadline:
        code = pytest.main(command, plugins=[campaign])
        rounds += 1
        if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.INTERRUPTED):
            print(f"pytest stopped with {code!r}", file=sys.stderr)
            return 2
    return report(campaign, rounds, time.monotonic() - start)


def _short(nodeid: str, width: int = 120) -> str:
    """A test's id, its parameters cut when long (some are whole nested expressions)."""
    return nodeid if len(nodeid) <= width else nodeid[: width - 3] + "..."


def report(campaign: Campaign, rounds: int, seconds: float) -> int:
    """Print the figures as a markdown table; 1 when anything failed."""
    print(f"\nfuzz campaign: {rounds} round{'s' * (rounds != 1)} in {seconds / 60:.1f} minutes (Python {sys.version.split()[0]})\n")
    print("| test | rounds | examples | failures |\n| --- | ---: | ---: | ---: |")
    for nodeid, figures in sorted(campaign.figures.items()):
        examples = "—" if figures.examples is None else f"{figures.examples:,}"
        print(f"| `{_short(nodeid)}` | {figures.rounds} | {examples} | {figures.failures} |")
    examples = sum(f.examples or 0 for f in campaign.figures.values())
    failures = sum(f.failures for f in campaign.figures.values())
    print(f"\n{examples:,} examples counted (— : a test that is not a hypothesis test, run as it is), "
          f"{failures} failure{'s' * (failures != 1)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
