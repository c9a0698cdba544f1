"""The commands that play many games and report on them: ``simulate`` and ``sweep`` (a run per value of an option).

    $ rulecraft simulate my-game -n 1000 --jobs 2 --html report.html
    $ rulecraft sweep my-game 'width=[5, 6, 7]' -n 500
"""

from __future__ import annotations

import io
import json
import os
import shlex
import time
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

import click

from cli.allow import allow_option
from cli.counts import Count, CountOrFile, WHOLE
from cli.extra_words import SpacedValuesCommand
from cli.messages import echo, fail
from cli.options import (AGENT_KINDS_HELP, agent_specs, backend_options, check_output, check_separate_outputs,
                         limit_option, load_game, note_timed_agents, pick_players, players_option, report_format,
                         report_format_option, rotate_option, ruleset_options, run_executor, variant_option)
from cli.options import agent_timeout_option
from cli.places import named
from cli.stop_signals import finishing, how_stopped
import engine
from engine.core.showtext import cut, json_safe, players as players_text, shown
from engine.runner.backends import MAX_GAMES

RESUMED_BYTES = 20 * 1024 * 1024  # the report of an interrupted run, read to go on from: a run of a large game writes
# a few tens of KB
T = TypeVar("T")

if TYPE_CHECKING:
    from engine import Game
    from engine.runner.executor import Executor
    from engine.runner.comparison import Comparison
    from engine.runner.report import GameResult, SimulationReport
    from engine.runner.sweep import Sweep


@click.command(cls=SpacedValuesCommand)
@ruleset_options
@click.option("-n", "n", type=Count(1, MAX_GAMES, "games"), default=None, metavar="N",
              help=f"Number of games (at most {MAX_GAMES:,}).  [default: 100]")
@click.option("--games", "games", type=CountOrFile(Count(1, MAX_GAMES, "games"), ".csv"), metavar="N|FILE.csv",
              help="The number of games, as -n (and as sweep and check write it); or FILE.csv: also write one row per "
                   "game (seed, agents, winner, length, scores, winners, draw, returns) with the command that plays it "
                   "again; with --compare, the compared run's games too.")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Seed of the run (games' seeds derive from it).")
@click.option("--agents", default="random", show_default=True,
              help=f"One agent for every seat, or one per seat: mcts:400,random {AGENT_KINDS_HELP}.")
@click.option("--jobs", type=Count(1, None, "worker processes", 2), default=1, show_default=True,
              help="Worker processes (the report is the same for any number).")
@backend_options
@report_format_option("one row per figure (section, item, statistic, value)")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the report to this file.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the report as a self-contained HTML page with charts.")
@rotate_option
@click.option("--compare", "compare_with", metavar="OTHER", callback=named,
              help="Also play OTHER (a ruleset; default: this one) on the same seeds and test the differences.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE.json",
              help="Go on from an interrupted run: the JSON it wrote (its --format json report, or the .partial.json "
                   "file it named). The games it lacks are played; the report is the whole run's. A finished run's "
                   "report goes on to a larger -n the same way. A file of another run is refused, saying what differs.")
@click.option("--compare-variant", "compare_variants", multiple=True, metavar="V",
              help="Variant(s) of the compared run ('a+b' or repeat; default: none).")
@click.option("--compare-set", "compare_set_texts", multiple=True, metavar="NAME=VALUE",
              help="Options set in the compared run (repeat for several; default: none).")
@agent_timeout_option
def simulate(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, n: int | None,
    games: int | Path | None, seed: int, agents: str, jobs: int, backend: str, address: str | None, fmt: str | None,
    out: Path | None, html_path: Path | None, rotate: bool, compare_with: str | None,
    compare_variants: tuple[str, ...], compare_set_texts: tuple[str, ...], resume_path: Path | None,
) -> None:
    """Play many games between agents and report what they say about the ruleset.

    Win rates per seat and per agent with 95% intervals, draws, game length,
    the first player's advantage, lead changes and final margins, and how
    often each component was used and how its users did (flagged when never
    used or when its users win far above or below average).  With --compare
    or --compare-variant or --compare-set, a second run on the same seeds
    and the significance of each difference (p < 0.05 is marked; each
    seat's mean points too when a result paid different points); the
    compared run has only the --compare-variant and --compare-set changes:

    \b
    rulecraft simulate my-game -n 1000 --compare-set width=5

    Interrupted (Ctrl-C, a worker lost), it reports the games finished and
    names a file to go on from with --resume: the games' counts are kept
    as they arrive, not the games themselves, so a run's memory does not
    grow with -n.
    """
    from engine.runner.comparison import compare
    from engine.runner.report import SimulationReport
    from engine.runner.simulate import GameFailed

    fmt = report_format(fmt, out)
    games_csv = games if isinstance(games, Path) else None
    if isinstance(games, int):
        if n is not None and n != games:
            raise click.BadParameter(f"-n says {n} games and --games {games}: give the number once", param_hint="--games")
        n = games
    n = 100 if n is None else n
    game = load_game(ruleset, variants, set_texts)
    for path, flag, what in ((out, "--out", "the report"), (html_path, "--html", "the report"), (games_csv, "--games", "the games")):
        check_output(path, flag, what)
    check_separate_outputs((out, "--out"), (html_path, "--html"), (games_csv, "--games"))
    count = pick_players(game, players)
    specs = agent_specs(agents, count, backend)
    note_timed_agents(specs)
    other = None
    if compare_with is not None or compare_variants or compare_set_texts:
        other = load_game(compare_with or ruleset, compare_variants, compare_set_texts, "--compare-set")
        if count not in other.player_counts:
            both = [n for n in game.player_counts if n in other.player_counts]
            raise click.BadParameter(
                f"{other.name} is played by {players_text(other.player_counts)}, not {count}: "
                + (f"give --players {' or '.join(map(str, both))}, a count both are played by" if both
                   else f"it shares no player count with {game.name}"),
                param_hint="--compare")
    resumed = _read_resumed(resume_path, SimulationReport.from_json) if resume_path is not None else None
    executor = run_executor(backend, jobs, address)
    rows = None
    if games_csv is not None:
        from cli.games_csv import GameRows

        rows = GameRows(games_csv, count, compared=other is not None)
    start = time.perf_counter()
    try:
        try:
            report = _simulate_with_progress(game, count, n, seed, specs, executor, rotate, resumed,
                                             rows.run("this run", ruleset, game.variants, game.set_options, specs,
                                                      resumed.games + 1 if resumed else 1) if rows else None)
        except GameFailed as err:  # the games finished before it are reported, marked partial, then the error
            assert err.report is not None
            report = err.report
        except ValueError as err:  # the report resumed is of another run
            if resumed is None:
                raise
            raise click.BadParameter(f"{resume_path}: {err}", param_hint="--resume") from None
        compared = None
        if other and not report.partial:
            compared = _simulate_with_progress(other, count, n, seed, specs, executor, rotate, None, rows.run(
                "other", compare_with or ruleset, other.variants, other.set_options, specs) if rows else None)
    except BaseException:
        if rows is not None:
            rows.abandon()
        raise
    with finishing():  # the games are played: told to stop now, the report is written first
        comparison = compare(report, compared) if compared and not compared.partial else None
        _write_report(report, comparison, fmt, out, time.perf_counter() - start)
        if html_path is not None:
            from cli.web.charts import report_html
            from engine.core.atomic import write_atomic

            write_atomic(html_path, report_html(report, comparison, time.perf_counter() - start))
            echo(f"report with charts written to {html_path}", err=out is None and fmt != "text")
        if rows is not None:
            written = rows.finish()
            echo(f"{written} game{'s' * (written != 1)} written to {games_csv}", err=fmt != "text")
        again = _resumable(report.to_json(), fmt, out, f"{game.name}-seed{seed}") if report.partial else ""
    if report.failed is not None:
        fail(f"{report.failed}\nthe run stopped there, after {report.games} of {n} games: the report"
             f"{' written' * bool(out)} covers every game before the one that failed{again}")
    if report.partial:
        fail(f"interrupted ({how_stopped()}) after {report.games} of {n} games: the report{' written' * bool(out)} "
             f"is partial{again}")
    if compared is not None and compared.partial:
        fail(f"interrupted during the compared run ({compared.games} of {n} games): the comparison was not made")


@click.command(cls=SpacedValuesCommand)
@click.argument("ruleset")
@click.argument("values", metavar="NAME=[V1,V2,...]")
@variant_option
@players_option
@allow_option
@limit_option
@click.option("-n", "--games", "n", type=Count(1, MAX_GAMES, "games"), default=100, show_default=True,
              help=f"Games per value (at most {MAX_GAMES:,}).")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Seed of every run (the same games for each value).")
@click.option("--agents", default="random", show_default=True,
              help=f"One agent for every seat, or one per seat: mcts:400,random {AGENT_KINDS_HELP}.")
@click.option("--jobs", type=Count(1, None, "worker processes", 2), default=1, show_default=True,
              help="Worker processes (the table is the same for any number).")
@backend_options
@report_format_option("one row per value and figure (value, section, item, statistic, figure)")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the table to this file.")
@rotate_option
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE.json",
              help="Go on from an interrupted sweep: the JSON it wrote (its --format json table, or the .partial.json "
                   "file it named). The runs finished are kept, the partial one goes on; the table is the whole "
                   "sweep's. A finished sweep's table goes on to a larger -n or more values the same way. A file of "
                   "another sweep is refused, saying what differs.")
@agent_timeout_option
def sweep(
    ruleset: str, values: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, n: int,
    seed: int, agents: str, jobs: int, backend: str, address: str | None, fmt: str | None, out: Path | None,
    rotate: bool, resume_path: Path | None,
) -> None:
    """Simulate once per value of an option, on the same seeds, and tabulate the runs.

    Each value is applied like --set NAME=V; each run is compared with the
    baseline (the option's own value when it is among them, else the first),
    in win rates, draws, length and, when a result paid different points in
    different games, each seat's mean points:

    \b
    rulecraft sweep my-game 'width=[5, 6, 7, 8]' --players 4 -n 500
    """
    from cli import balance, render, report_tables
    from engine.compiling.loading import parse_set_options
    from engine.runner.report import flat_rows
    from engine.runner.sweep import Sweep, check_games, parse_sweep

    fmt = report_format(fmt, out)
    try:
        name, texts = parse_sweep(values)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="NAME=[V1,V2,...]") from None
    try:
        check_games(len(texts), n)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="-n") from None
    try:
        fixed = parse_set_options(set_texts)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--set") from None
    if name in fixed:
        raise click.BadParameter(f"{name} is the option being swept; it cannot also be set", param_hint="--set")

    def load(extra: dict[str, str]) -> Game:
        return engine.load(ruleset, variants, {**fixed, **extra},
                           set_by={**dict.fromkeys(fixed, "--set"), **dict.fromkeys(extra, "sweep")})

    count = pick_players(load({}), players)
    check_output(out, "--out", "the table")
    specs = agent_specs(agents, count, backend)
    note_timed_agents(specs)
    resumed = _read_resumed(resume_path, Sweep.from_json) if resume_path is not None else None
    start = time.perf_counter()
    try:
        result = _sweep_with_progress(load, name, texts, count, n, seed, specs, run_executor(backend, jobs, address),
                                      rotate, resumed)
    except ValueError as err:
        if resumed is None:
            raise
        raise click.BadParameter(f"{resume_path}: {err}", param_hint="--resume") from None
    buffer = io.StringIO()
    if fmt == "json":
        buffer.write(json_safe(json.dumps(result.to_json(), indent=2, ensure_ascii=False)) + "\n")
    elif fmt == "csv":
        import csv

        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([name, "section", "item", "statistic", "value"])
        for run in result.to_json()["runs"]:
            value = run.pop("value")
            run.pop("counts")  # for --resume
            writer.writerows((value, *row) for row in flat_rows(run))
    else:
        console = render.make_console(width=None if out is None else 120, file=None if out is None else buffer)
        console.print(report_tables.sweep_table(result))
        if not result.partial:
            for line in balance.sweep_balance(result):
                console.print(line)
        played = sum(run.report.games for run in result.runs)
        console.print(f"{played} game{'s' * (played != 1)} in {time.perf_counter() - start:.2f} s",
                      style="dim")
    if fmt != "text" or out is not None:
        _emit(buffer.getvalue(), out)
    again = _resumable(result.to_json(), fmt, out, f"{result.runs[0].report.ruleset}-{name}-seed{seed}") \
        if result.partial else ""
    if result.failed is not None:
        fail(f"{result.failed}\nthe sweep stopped there: {len(result.runs)} of {len(texts)} values run, the last one "
             f"partial{again}")
    if result.partial:
        fail(f"interrupted: {len(result.runs)} of {len(texts)} values run, the last one partial{again}")


def _read_resumed(path: Path, read: Callable[[object], T]) -> T:
    """What ``read`` makes of the JSON in ``path`` (``--resume``); a file that is not one is refused saying why: not a
    regular file (a FIFO was waited on for ever), larger than :data:`RESUMED_BYTES`, not JSON, or nesting deeper than
    Python's stack follows (a RecursionError's traceback)."""
    from engine.core.confine import FileRefused, read_bytes

    try:
        data = json.loads(read_bytes(path, RESUMED_BYTES, "report to go on from").decode("utf-8"))
    except FileRefused as err:
        raise click.BadParameter(str(err), param_hint="--resume") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise click.BadParameter(f"{path}: cannot read it as JSON ({cut(str(err), 80)})", param_hint="--resume") from None
    except RecursionError:
        raise click.BadParameter(f"{path}: not a report (its JSON nests too deeply)", param_hint="--resume") from None
    try:
        return read(data)
    except ValueError as err:
        raise click.BadParameter(f"{path}: {err}", param_hint="--resume") from None


def _resumable(data: dict[str, object], fmt: str, out: Path | None, name: str) -> str:
    """Where an interrupted command's output can be gone on from, as the end of its message: its report, when written
    as JSON to a file, else a ``.partial.json`` file written now beside ``--out``, or, when the report went to the
    screen, in the system's temporary folder (not the folder the command ran in, which it is not asked to write in),
    in a folder of this user's own there (``/tmp/rulecraft-1000/my-game-seed3.partial.json``).  A name known in
    advance in the shared folder itself was another's to take first (a file of another user's, which this one may not
    replace, or a link to ``/dev/null`` the counts were written into), and the run could not be gone on from; when
    that folder of one's own is not (another made it, or a link stands there), the file is a new one of the
    temporary folder, under a name made for it."""
    from cli.file_names import name_part
    from engine.core.atomic import WriteFailed, write_atomic

    if fmt == "json" and out is not None:
        path = out
    elif out is not None:
        path = out.with_name(f"{out.stem}.partial.json")
    else:
        try:  # a ruleset's name is any text: name_part makes it a part of a file's name
            path = _own_temporary_file(f"{name_part(name)}.partial.json")
            write_atomic(path, json_safe(json.dumps(data, ensure_ascii=False)) + "\n")
        except (OSError, WriteFailed) as err:
            return f"; it cannot be gone on from ({err})"
    return f"; go on with the same command and --resume {shlex.quote(str(path))}"


def _own_temporary_file(name: str) -> Path:
    """``name`` in this user's own folder of the temporary folder (``rulecraft-UID``, made with mode 700; one that is
    a link, another user's, or one others may write in is not used), else a new file of the temporary folder named
    after it (``rulecraft-NAME-k3j9xq2w.partial.json``).

    >>> _own_temporary_file("x.partial.json").parent.name.startswith("rulecraft-")
    True
    """
    import stat
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"rulecraft-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        status = folder.lstat()  # a link standing there is not followed
        mine = not hasattr(os, "getuid") or status.st_uid == os.getuid()
        if stat.S_ISDIR(status.st_mode) and mine and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return folder / name
    except OSError:
        pass
    stem, _, suffix = name.partition(".")
    descriptor, made = tempfile.mkstemp(prefix=f"rulecraft-{stem}-", suffix=f".{suffix}")
    os.close(descriptor)
    return Path(made)


def _sweep_with_progress(
    load: Callable[[dict[str, str]], Game], name: str, texts: list[str], players: int, n: int, seed: int,
    specs: list[str], executor: Executor, rotate: bool = False, resume: Sweep | None = None,
) -> Sweep:
    """Run a sweep, with a progress bar per value on stderr when it is a terminal; the runs keep their games'
    counts, not the games."""
    from cli import render
    from cli.console import progress_bar
    from engine.runner.sweep import sweep as run_sweep

    console = render.make_console(stderr=True)
    run_sweep = partial(run_sweep, resume=resume, keep_results=False)
    if not console.is_terminal:
        return run_sweep(load, name, texts, players, n, seed, specs, executor=executor, rotate=rotate)
    with progress_bar(console) as bar:
        def progress(index: int, count: int) -> Callable[[int], None]:
            task = bar.add_task(f"{name}={texts[index]} ({index + 1} of {count})", total=n)
            return lambda done: bar.update(task, completed=done)

        return run_sweep(load, name, texts, players, n, seed, specs, executor=executor, progress=progress, rotate=rotate)


FEW_GAMES = 10
"""A run of at most this many games, played in this process, shows the decisions of the game being played too."""


def _simulate_with_progress(
    game: Game, players: int, n: int, seed: int, specs: list[str], executor: Executor, rotate: bool = False,
    resume: SimulationReport | None = None, on_game: Callable[[GameResult], None] | None = None,
) -> SimulationReport:
    """Run a simulation, with a progress bar on stderr when it is a terminal; the report keeps the games' counts,
    not the games (``on_game`` sees each as it comes)."""
    from cli import render
    from cli.console import progress_bar
    from engine.runner.executor import LocalExecutor
    from engine.runner.simulate import counting_decisions, simulate as run_simulation

    console = render.make_console(stderr=True)
    run = partial(run_simulation, game, players, n, seed, specs, executor=executor, rotate=rotate, resume=resume,
                  keep_results=False, on_game=on_game)
    if not console.is_terminal:
        return run()
    with progress_bar(console) as bar:
        task = bar.add_task(f"playing {game.name}", total=n)
        done = [resume.games if resume else 0]
        if resume:  # the games played before count
            bar.update(task, completed=resume.games)

        def progress(games: int) -> None:
            done[0] = games
            bar.update(task, completed=games, description=f"playing {game.name}")

        def decided(decisions: int) -> None:
            bar.update(task, description=f"playing {game.name}: game {done[0] + 1}, decision {decisions}")

        # a few games played here: how far the one being played has got (the bar alone moves once a game ends)
        few = n <= FEW_GAMES and isinstance(executor, LocalExecutor) and (executor.workers == 1 or n == 1)
        with counting_decisions(decided) if few else nullcontext():
            return run(progress=progress)


def _write_report(
    report: SimulationReport, comparison: Comparison | None, fmt: str, out: Path | None, seconds: float
) -> None:
    """The report as text, json or csv, on stdout or in ``out``."""
    from cli import render, report_tables
    from engine.runner.report import flat_rows

    data = report.to_json()
    if comparison is not None:
        data["compare"] = comparison.to_json()
    buffer = io.StringIO()
    if fmt == "json":
        buffer.write(json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
    elif fmt == "csv":
        import csv

        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["section", "item", "statistic", "value"])
        writer.writerows(flat_rows({key: value for key, value in data.items() if key != "counts"}))  # for --resume
    else:
        console = render.make_console(width=None if out is None else 120, file=buffer)
        for part in report_tables.simulation_report(report, comparison):
            console.print(part)
        played = report.games * (2 if comparison else 1)
        console.print(f"{played} game{'s' * (played != 1)} in {seconds:.2f} s", style="dim")
    _emit(buffer.getvalue(), out)


def _emit(text: str, out: Path | None) -> None:
    """``text`` on stdout, or written to ``out`` (atomically) with a one-line note on stdout; control characters escaped."""
    if out is None:
        echo(text, nl=False)
    else:
        from engine.core.atomic import write_atomic

        write_atomic(out, shown(text))
        echo(f"report written to {out}")
