"""``simulate --games FILE.csv``: one row per game, with the command that plays that exact game again.

A row gives the game's number and seed, the agent at each seat, the winner
(several seats when they share the win, ``draw`` after their numbers when
they are not a team), the number of actions, each seat's score, the same
winners again in columns a data-frame library reads without parsing text
(``winners``: the seat numbers, empty when nobody won; ``draw``: True or
False; ``return N``: each seat's return, 1 a win, shared in a draw), the
number of turns (``turns``, added last but for the command), and a
``rulecraft play`` command with every seat played by the same bot, so an odd
result can be opened and watched (with ``--rotate-seats``, each game's own
seating of the bots).  With ``--compare``, the compared run's
games follow, each row led by the run it is from.

Example::

    rows = game_rows(report, "my-game", ["short"], {"width": "5"})
    rows[0][-1]      # 'rulecraft play my-game --variant short --set width=5 --players 2 --seed ... --seat 1=random ...'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.core import limits
from engine.core.atomic import write_atomic
from engine.core.confine import allowed_folders
from engine.core.showtext import shown
from engine.runner.replay import ruleset_ref
from engine.runner.report import GameResult, SimulationReport
from engine.runner.simulate import play_command


def header(players: int) -> list[str]:
    """The CSV header for ``players`` seats.

    >>> header(2)  # doctest: +NORMALIZE_WHITESPACE
    ['game', 'seed', 'seat 1', 'seat 2', 'winner', 'length', 'score 1', 'score 2',
     'winners', 'draw', 'return 1', 'return 2', 'turns', 'replay']
    """
    seats = range(1, players + 1)
    return ["game", "seed", *(f"seat {s}" for s in seats), "winner", "length", *(f"score {s}" for s in seats),
            "winners", "draw", *(f"return {s}" for s in seats), "turns", "replay"]


def winner_text(result: GameResult) -> str:
    """The winning seats, ``draw`` marked when several share a win that is not a team's.

    >>> winner_text(GameResult(winners=(2,), returns=(0.0, 1.0), length=9))
    '2'
    >>> winner_text(GameResult(winners=(1, 2), returns=(0.5, 0.5), length=9))
    '1 2 (draw)'
    """
    seats = " ".join(map(str, result.winners))
    return f"{seats} (draw)" if result.draw else seats or "none"


def game_rows(report: SimulationReport, ruleset: str, variants: Sequence[str], set_options: Mapping[str, str]) -> list[list[object]]:
    """One row per game of ``report``, in the order they were played; each command names the folders the run was
    allowed to read and the budgets it ran under (``--allow``, ``--limit``), as the run was given them."""
    ref = ruleset_ref(ruleset)
    allowed = [str(folder) for folder in allowed_folders()]
    changed = limits.as_pairs(limits.current())
    return [
        [number, r.seed, *report.agents_of(r), winner_text(r), r.length, *r.scores,
         " ".join(map(str, r.winners)), r.draw, *r.returns, r.turns,
         play_command(ref, variants, set_options, report.players, r.seed, report.agents_of(r), allowed, changed)]
        for number, r in enumerate(report.results, 1)
    ]


Run = tuple[SimulationReport, str, Sequence[str], Mapping[str, str]]
"""A run's report and what it played: the ruleset as given, its variants and its options set."""


def write_games(path: Path, report: SimulationReport, ruleset: str, variants: Sequence[str],
                set_options: Mapping[str, str], compared: Run | None = None) -> None:
    """Write the per-game CSV of ``report`` to ``path`` (atomically; control characters escaped).

    With a ``compared`` run (``--compare``), its games follow, and a first column ``run`` says which run each
    row is from: ``this run`` or ``other``, as the comparison's table names them.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if compared is None:
        writer.writerow(header(report.players))
        writer.writerows(game_rows(report, ruleset, variants, set_options))
    else:
        writer.writerow(["run", *header(report.players)])
        writer.writerows(["this run", *row] for row in game_rows(report, ruleset, variants, set_options))
        writer.writerows(["other", *row] for row in game_rows(*compared))
    write_atomic(path, shown(buffer.getvalue()))
