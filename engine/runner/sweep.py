"""One option, several values: a simulation per value on the same seeds, side by side.

A designer asks "how wide should the grid be?" and gets, for each width, the
seats' win rates, the draws and the game length (and each seat's mean points
when a result paid different points in different games of some run), each run compared with the
baseline run (the option's value in the ruleset when it is among the values,
else the first value) by the tests of :func:`engine.runner.comparison.compare`.

The values are written as one YAML list, ``NAME=[V1, V2, ...]``; each is
applied like ``--set NAME=V`` (see :func:`engine.core.set_options.apply_options`).

Example::

    result = sweep("my-game", "width", [5, 6, 7], players=2, n=500)   # or parse_sweep("width=[5, 6, 7]")'s
    for run in result.runs:
        print(run.value, run.report.win_rate[1].rate, run.comparison.draws.significant if run.comparison else "-")

>>> parse_sweep("width=[4, 5, 'six', [1, 2]]")
('width', ['4', '5', 'six', '[1, 2]'])
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine.compiling.loading import GameRef, parse_set_options
from engine.compiling.loading import load as load_ruleset
from engine.core import limits
from engine.core.confine import allowing
from engine.core.errors import RulesetError, did_you_mean
from engine.core.showtext import cut
from engine.core.yamlsource import load_yaml, plain, yaml_text
from engine.model.game import Game
from engine.runner.backends import MAX_GAMES
from engine.runner.executor import Executor
from engine.runner.comparison import Comparison, compare
from engine.runner.report import NotKept, SimulationReport, recorded_hash, whole_numbers
from engine.runner.tally import RunTally
from engine.runner.simulate import KEEP_AT_MOST, GameFailed, Progress, simulate, whole


@dataclass
class SweepRun:
    """The run of one value: its report, and its comparison with the baseline run (None for the baseline)."""

    value: str
    report: SimulationReport
    comparison: Comparison | None = None


@dataclass
class Sweep:
    """The runs of every value of one option, in the order given."""

    option: str
    baseline: int  # index of the run the others are compared with
    runs: list[SweepRun]
    planned: int | None = None  # values asked for, when the sweep was interrupted (Ctrl-C) or stopped by a game
    failed: str | None = None  # the error of the game that stopped the sweep, when one failed

    @property
    def partial(self) -> bool:
        """True when interrupted: the last run is partial, later values were not run, nothing is compared."""
        return self.planned is not None

    @property
    def points_vary(self) -> bool:
        """True when some run's points say more than who won (:attr:`SimulationReport.points_vary`): then every run
        gives each seat's mean points, and every comparison their differences."""
        return any(run.report.points_vary for run in self.runs)

    @property
    def baseline_value(self) -> str | None:
        """The baseline run's value (None when an interrupted sweep did not reach it)."""
        return self.runs[self.baseline].value if self.baseline < len(self.runs) else None

    def to_json(self) -> dict[str, Any]:
        """The sweep as data: the runs' setting, then per value its figures and differences from the baseline."""
        first = self.runs[0].report
        marked: dict[str, Any] = {"partial": True, "values_planned": self.planned} if self.partial else {}
        if self.failed is not None:
            marked["failed"] = self.failed
        return marked | {
            "ruleset": first.ruleset,
            "variants": first.variants,
            "set_options": {k: v for k, v in first.set_options.items() if k != self.option},
            "players": first.players,
            "agents": first.agents,
            "seed": first.seed,
            "games": first.planned or first.games,
            "rotated": first.rotated,
            "option": self.option,
            "baseline": self.baseline_value,
            "runs": [_run_json(run, self.points_vary) | {"counts": run.report.counts_json()} for run in self.runs],
        }

    @classmethod
    def from_json(cls, data: Any) -> "Sweep":
        """The sweep its JSON (:meth:`to_json`) describes, to go on from (``sweep(..., resume=...)``): its JSON holds the
        counts of every run it began, so an interrupted sweep goes on to its end, and a finished one to more games
        per value or more values.  Anything else is a ValueError saying why.

        >>> from engine.runner.report import GameResult
        >>> run = SimulationReport("g", [], 2, ["random"] * 2, 7, [], [GameResult((1,), (1.0, 0.0), 9)], {"w": "5"},
        ...                        planned=10, content_hash="3f0c")
        >>> again = Sweep.from_json(Sweep("w", 0, [SweepRun("5", run)], planned=2).to_json())
        >>> again.option, again.runs[0].report.to_json() == run.to_json()
        ('w', True)
        """
        if not isinstance(data, dict) or "option" not in data or "runs" not in data:
            raise ValueError("it is not the JSON table of a sweep (rulecraft sweep --format json)")
        ran = data["runs"]
        if isinstance(ran, list) and any(isinstance(run, dict) and "counts" not in run for run in ran):
            raise ValueError("it holds no counts to go on from (a table written before finished sweeps kept theirs: "
                             "run it again)")
        whole_numbers(data, ("players", "seed", *(("values_planned",) if "values_planned" in data else ())), "the sweep's table")
        try:
            option, runs = data["option"], []
            for run in data["runs"]:
                tally, content_hash = RunTally.from_json(run["counts"]), recorded_hash(run["counts"])
                report = SimulationReport(data["ruleset"], list(data["variants"]), int(data["players"]),
                                          list(data["agents"]), int(data["seed"]), list(tally.content), NotKept(tally),
                                          {**data["set_options"], option: run["value"]}, run.get("games_planned"),
                                          teams=tally.teams, rotated=bool(data["rotated"]),
                                          secret_roles=bool(run["counts"].get("secret_roles")),
                                          content_hash=content_hash)
                runs.append(SweepRun(run["value"], report))
            planned = data.get("values_planned")
            return cls(option, 0, runs, planned=None if planned is None else int(planned), failed=data.get("failed"))
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
            raise ValueError(f"the sweep's table is damaged ({type(err).__name__}: {err})") from None


def _run_json(run: SweepRun, points: bool) -> dict[str, Any]:
    report = run.report
    balance, first, sides = report.seat_balance, report.first_player, report.side_win_rate
    return {
        "value": run.value,
        **({"partial": True, "games_planned": report.planned} if report.partial else {}),
        "wins_by_seat": {str(s): w for s, w in report.wins_by_seat.items()},
        "win_rate": {str(s): r.to_json() for s, r in report.win_rate.items()},
        **({"win_rate_by_side": {side: r.to_json() for side, r in sides.items()}} if sides else {}),
        "draws": report.draws,
        "mean_length": report.length.mean,
        "turns": report.turns.to_json(),
        "seat_balance": balance.to_json() if balance else None,
        "first_player": first.to_json() if first else None,
        **({"points": {str(s): p.to_json() for s, p in report.points_paid.items()}} if points else {}),
        "compared_with_baseline": run.comparison.to_json() if run.comparison else None,
    }


MAX_SWEEP_VALUES = 100
"""The most values one sweep tries: each is compiled, kept and simulated, so ``[3, 4, ..., 20002]`` is refused."""


def check_games(values: int, n: int) -> None:
    """Raise ValueError when ``values`` runs of ``n`` games each play more than :data:`MAX_GAMES` games in all: a
    sweep is one study, held to a run's cap (its runs keep their games' counts, not the games).

    >>> check_games(100, 100_000)
    >>> check_games(100, 10_000_000)
    Traceback (most recent call last):
    ValueError: 100 values of 10,000,000 games each is 1,000,000,000 games; a sweep plays at most 10,000,000 in all, as a run does (use -n 100,000 or fewer)
    """
    if values * n > MAX_GAMES:
        raise ValueError(f"{values:,} values of {n:,} games each is {values * n:,} games; a sweep plays at most "
                         f"{MAX_GAMES:,} in all, as a run does (use -n {MAX_GAMES // values:,} or fewer)")


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``NAME=[V1, V2, ...]`` as the option's name and each value as YAML text; ValueError says what is wrong."""
    shape = f"'{text}' is not NAME=[V1, V2, ...] with two values or more (for example width=[5, 6, 7])"
    try:
        name, value = next(iter(parse_set_options([text]).items()))
    except ValueError:  # no '=' or no name
        raise ValueError(shape) from None
    where = f"--sweep {name}"
    try:
        values = load_yaml(where, value)
    except RulesetError as err:
        raise ValueError(f"'{text}': {err.diagnostics[0].message}") from None
    if not isinstance(values, list) or len(values) < 2:
        raise ValueError(shape)
    if len(values) > MAX_SWEEP_VALUES:
        raise ValueError(f"'--sweep {name}' gives {len(values):,} values; a sweep tries at most {MAX_SWEEP_VALUES} "
                         "(split it into several sweeps)")
    texts = [yaml_text(v) for v in plain(values)]
    twice = next((text for i, text in enumerate(texts) if text in texts[:i]), None)
    if twice is not None:
        raise ValueError(f"'{text}' gives the value {twice} more than once")
    return name, texts


def sweep(
    load: Callable[[dict[str, str]], Game] | Game | str | os.PathLike[str],
    option: str,
    values: Sequence[Any],
    players: int | None = None,
    n: int = 100,
    seed: int = 0,
    agents: Sequence[str] | str = "random",
    executor: Executor | None = None,
    progress: Callable[[int, int], Progress] | None = None,
    rotate: bool = False,
    resume: Sweep | None = None,
    keep_results: bool | None = None,
) -> Sweep:
    """Simulate ``n`` games (same seeds) for each value of ``option``.  ``load`` is a ruleset's name or path, a
    compiled game (swept with its own variants and options), or a function making each game from the options it
    sets, ``load(set_options)``; ``players``, ``n``, ``seed`` and ``agents`` default as :func:`simulate`'s.  A value
    is written as in YAML (``"7"``), or given as itself (``7``).

    Every game is loaded (and so checked) before any is played.  The baseline is the run
    whose value is the one the option has without the sweep, else the first.  A game that fails
    stops the sweep as Ctrl-C does, the runs so far kept and the error in ``failed``.
    ``progress(i, count)`` may give a progress callback for run ``i`` of ``count``; ``rotate`` turns the agents round
    one seat a game, as :func:`simulate`'s does.  ``resume``, an earlier sweep of the same option and values, goes on
    from each of its runs (``simulate(..., resume=...)``): an interrupted one to the sweep never interrupted, a
    finished one to more games per value or more values; one of another option, or whose values are not the first
    of ``values``, is a ValueError.  It may be read back from the JSON a sweep wrote (:meth:`Sweep.from_json`).  Each run keeps its games'
    results as ``keep_results`` says (by default when all the runs together play at most
    :data:`~engine.runner.simulate.KEEP_AT_MOST` games); their counts are enough to compare them.
    Raises ValueError when the runs would play more than :data:`MAX_GAMES` games in all (:func:`check_games`), or
    ``values`` is empty or a text.

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[-1])
    >>> option, value = next((k, v) for k, v in game.options.items() if type(v) is int)
    >>> [run.value for run in sweep(game, option, [value, value + 1], n=2).runs] == [str(value), str(value + 1)]
    True
    """
    load = _loader(load)
    if isinstance(values, str) or not values:  # a text would sweep its characters; no value, nothing
        raise ValueError(f"a sweep takes a list of values for {option}, not {cut(repr(values), 60)}")
    values = [value if isinstance(value, str) else yaml_text(value) for value in values]
    earlier = _resumed_runs(resume, option, values)
    n = whole("n", n)
    check_games(len(values), n)
    options = load({}).options
    if option not in options:
        known = ", ".join(options) or "none: this ruleset declares no options"
        raise RulesetError.at(None, f"no option '{option}' to sweep in this ruleset (options: {known})",
                              did_you_mean(option, options))
    written = options[option]  # the value it has without the sweep
    games = [load({option: value}) for value in values]
    players = games[0].default_players if players is None else players
    baseline = next((i for i, game in enumerate(games) if game.options.get(option) == written), 0)
    runs: list[SweepRun] = []
    keep = len(values) * n <= KEEP_AT_MOST if keep_results is None else keep_results
    for i, (value, game) in enumerate(zip(values, games)):
        try:
            report = simulate(game, players, n, seed, agents, executor=executor,
                              progress=progress(i, len(games)) if progress else None, rotate=rotate,
                              resume=earlier[i] if i < len(earlier) else None, keep_results=keep)
        except GameFailed as err:  # the runs so far are kept, the last one partial, as when interrupted
            assert err.report is not None
            return Sweep(option, baseline, [*runs, SweepRun(value, err.report)], planned=len(values), failed=str(err))
        runs.append(SweepRun(value, report))
        if report.partial:  # Ctrl-C: the runs so far, the last one partial; no comparison with unfinished runs
            return Sweep(option, baseline, runs, planned=len(values))
    result = Sweep(option, baseline, runs)
    for i, run in enumerate(runs):
        if i != baseline:
            run.comparison = compare(run.report, runs[baseline].report, points=result.points_vary)
    return result



def _resumed_runs(resume: Sweep | None, option: str, values: Sequence[str]) -> list[SimulationReport]:
    """The reports of the runs ``resume`` finished or began, for a sweep of ``option`` over ``values`` to go on from
    (none without it); a sweep of another option, or whose values are not the first of ``values``, is refused.

    >>> _resumed_runs(None, "width", ["4", "5"])
    []
    >>> _resumed_runs(Sweep("width", 0, [], planned=2), "height", ["4", "5"])
    Traceback (most recent call last):
    ValueError: the sweep resumed is of the option width, not height
    """
    if resume is None:
        return []
    if not isinstance(resume, Sweep):
        raise TypeError(f"resume takes the Sweep of an interrupted sweep, not {cut(repr(resume), 60)}")
    if resume.option != option:
        raise ValueError(f"the sweep resumed is of the option {resume.option}, not {option}")
    ran = [run.value for run in resume.runs]
    if ran != list(values[:len(ran)]):
        raise ValueError(f"the sweep resumed ran the values {', '.join(ran)}, which are not the first of "
                         f"{', '.join(values)}")
    return [run.report for run in resume.runs]


def _loader(load: Any) -> Callable[[dict[str, str]], Game]:
    """What makes each game of a sweep from the options it sets: ``load`` itself when it is a function, else the
    ruleset of that name or path, or the compiled game's ruleset, variants, options and leave to read folders."""
    if isinstance(load, (str, os.PathLike)):
        ruleset = load
        return lambda options: load_ruleset(ruleset, set_options=options)
    if isinstance(load, Game):
        ref = GameRef.of(load)

        def again(options: dict[str, str]) -> Game:
            with limits.using(limits.Limits(**dict(ref.limits))), allowing(ref.allowed):
                return load_ruleset(ref.source, list(ref.variants), {**dict(ref.set_options), **options})
        return again
    if not callable(load):
        raise TypeError(f"a sweep plays a ruleset's name or path, a compiled game (engine.load) or a function making "
                        f"the game from the options it sets, not {cut(repr(load), 60)}")
    return load
