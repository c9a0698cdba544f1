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

The rows are written as the games arrive, so a run of any length keeps none of them in memory.

Example::

    rows = GameRows(Path("games.csv"), players=2)
    simulate(game, 2, n=1000, on_game=rows.run("", "my-game", ["short"], {"width": "5"}, ["random", "random"]))
    rows.finish()    # each row ends 'rulecraft play my-game --variant short --set width=5 --players 2 --seed ...'
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from engine.core import limits
from engine.core.atomic import WriteFailed
from engine.core.confine import allowed_folders
from engine.core.showtext import shown
from engine.runner.replay import ruleset_ref
from engine.runner.report import GameResult
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


def game_row(number: int, r: GameResult, agents: Sequence[str], command: Callable[[int, Sequence[str]], str]) -> list[object]:
    """The row of game ``number`` of a run whose agents are ``agents`` (each game's own when the run turned them
    round); ``command(seed, agents)`` is the command that plays it again."""
    seating = r.agents or agents
    return [number, r.seed, *seating, winner_text(r), r.length, *r.scores, " ".join(map(str, r.winners)), r.draw,
            *r.returns, r.turns, command(r.seed, seating)]


class GameRows:
    """The per-game CSV, written as the games arrive (a run of ten million games keeps none of them in memory): to a
    temporary file beside ``path``, moved over it by :meth:`finish` (so a file that was there stays whole until the
    new one is), or straight into a device or a pipe (``/dev/null``).  Control characters are escaped.

    With ``compared`` (``--compare``), a first column ``run`` says which run each row is from: ``this run`` or
    ``other``, as the comparison's table names them.

    >>> import tempfile
    >>> from engine.runner.report import GameResult
    >>> path = Path(tempfile.mkdtemp()) / "games.csv"
    >>> rows = GameRows(path, 2)
    >>> import engine
    >>> see = rows.run("", engine.builtin_names()[0], [], {}, ["random", "random"])
    >>> see(GameResult((1,), (1.0, 0.0), 9, seed=42))
    >>> rows.finish(), path.read_text().splitlines()[1].split(",")[:6]
    (1, ['1', '42', 'random', 'random', '1', '9'])
    """

    def __init__(self, path: Path, players: int, compared: bool = False) -> None:
        self.path, self.count, self.compared = path, 0, compared
        self.direct = path.exists() and not path.is_file()  # a device or a pipe: written into, never replaced
        if self.direct:
            self.file: IO[str] = open(path, "w", encoding="utf-8", newline="")
        else:
            handle, self.temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
            self.file = os.fdopen(handle, "w", encoding="utf-8", newline="")
        self._write(["run", *header(players)] if compared else header(players))

    def _write(self, row: Sequence[object]) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(row)
        self.file.write(shown(buffer.getvalue()))

    def run(self, label: str, ruleset: str, variants: Sequence[str], set_options: Mapping[str, str],
            agents: Sequence[str], first: int = 1) -> Callable[[GameResult], None]:
        """What writes the rows of a run's games as they come (``simulate(..., on_game=...)``), numbered from
        ``first``, each led by ``label`` when the file holds two runs; each command names the folders the run was
        allowed to read and the budgets it ran under (``--allow``, ``--limit``), as the run was given them."""
        ref = ruleset_ref(ruleset)
        allowed = [str(folder) for folder in allowed_folders()]
        changed = limits.as_pairs(limits.current())
        players = len(agents)
        numbers = iter(range(first, MAX_NUMBER))

        def command(seed: int, seating: Sequence[str]) -> str:
            return play_command(ref, variants, set_options, players, seed, seating, allowed, changed)

        def write(result: GameResult) -> None:
            row = game_row(next(numbers), result, agents, command)
            self._write([label, *row] if self.compared else row)
            self.count += 1
        return write

    def finish(self) -> int:
        """Put the file in place; the number of rows written."""
        try:
            self.file.flush()
            if not self.direct:
                os.fsync(self.file.fileno())
            self.file.close()
            if not self.direct:
                os.replace(self.temporary, self.path)
        except OSError as err:
            self.abandon()
            raise WriteFailed(f"cannot write {self.path}: {err.strerror} (nothing was written)") from None
        return self.count

    def abandon(self) -> None:
        """Close and remove the temporary file (the run wrote no rows after all)."""
        self.file.close()
        if not self.direct and os.path.exists(self.temporary):
            os.remove(self.temporary)


MAX_NUMBER = 2**63
"""Rows are numbered up to here (no run comes near it)."""
