"""The options several commands share (variants and options, limits, players, agents, formats, where games run)
and what they do with them: the ruleset loaded with its changes, the players checked, outputs refused before any work.

>>> report_format(None, Path("runs.csv"))
'csv'
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

import click
from click.core import ParameterSource

from cli.allow import allow_option
from cli.counts import AGENT_SECONDS, DecimalRange, WHOLE
from cli.messages import echo, fail
import engine
from engine.core.showtext import players as players_text
from engine.runner.backends import BACKENDS

if TYPE_CHECKING:
    from engine import Game
    from engine.runner.executor import Executor


F = TypeVar("F", bound=Callable[..., Any])


AGENT_KINDS_HELP = ("(random, greedy, mcts:N, mcts:Ts, ismcts:N, policy:FILE, or a class of your own Python file: "
                    "my_bots.py:Cautious; a search's or greedy's rollouts stop after D actions with :depth=D, "
                    "e.g. mcts:200:depth=60, greedy:depth=30)")
"""The agents every option naming one may take, in its help (--agents, --seat, --agent)."""


def variant_option(fn: F) -> F:
    """--variant and --set: how this run changes the ruleset as written."""
    fn = click.option(
        "--set", "set_texts", multiple=True, metavar="NAME=VALUE",
        help="Set an option, its value written as in YAML (--set width=4); repeat for several.",
    )(fn)
    return click.option(
        "--variant", "variants", multiple=True, metavar="V", help="Variant to apply ('a+b' or repeat the option)."
    )(fn)


def limit_option(fn: F) -> F:
    """--limit NAME=VALUE: change one of the budgets rulesets run under, for this command."""

    def apply(ctx: click.Context, param: click.Parameter, texts: tuple[str, ...]) -> None:
        if not texts:
            return
        from engine.core import limits

        try:
            chosen = limits.parse_limits(texts)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--limit") from None
        ctx.with_resource(limits.using(chosen))

    return click.option(
        "--limit", "limit_texts", multiple=True, metavar="NAME=VALUE", expose_value=False, callback=apply,
        help="Change a budget for this run (--limit steps=1000000); see docs/hardening.md for the names.",
    )(fn)


players_option = click.option("--players", type=WHOLE, help="Number of players (default: the smallest count from 2 up).")


def ruleset_options(fn: F) -> F:
    """RULESET, --variant, --set, --players, --limit and --allow."""
    return click.argument("ruleset")(variant_option(players_option(limit_option(allow_option(fn)))))


def load_game(ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...] = (), flag: str = "--set") -> Game:
    """The ruleset with the variants and the ``NAME=VALUE`` options of ``flag`` applied."""
    from engine.compiling.loading import parse_set_options

    try:
        set_options = parse_set_options(set_texts)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint=flag) from None
    return engine.load(ruleset, variants, set_options, set_by=dict.fromkeys(set_options, flag))


def pick_players(game: Game, players: int | None) -> int:
    """``players`` if the ruleset allows it; by default the smallest count >= 2 (else the smallest)."""
    counts = game.player_counts
    if players is None:
        return game.default_players
    if players not in counts:
        raise click.BadParameter(f"{game.name} is played by {players_text(counts)}, not {players}", param_hint="--players")
    return players


def check_output(path: Path | None, flag: str, what: str) -> None:
    """Refuse, before any work, an output file in a folder that does not exist, or one that would replace a file
    of a ruleset in use (``--log ruleset.yaml``).

    check_output(Path("runs/report.txt"), "--out", "the report")   # BadParameter when there is no folder runs
    """
    from engine.core.atomic import ruleset_file
    from engine.core.confine import resolved

    if path is None:
        return
    try:
        folder = resolved(path).parent
    except OSError as err:  # symbolic links in a loop
        raise click.BadParameter(f"cannot write {what} to {path}: {err.strerror}", param_hint=flag) from None
    if not folder.is_dir():
        raise click.BadParameter(f"there is no folder {folder} to write {what} in", param_hint=flag)
    if ruleset_file(path):
        raise click.BadParameter(f"{path} is a file of the ruleset in use: write to another file", param_hint=flag)


def check_separate_outputs(*outputs: tuple[Path | None, str]) -> None:
    """Refuse, before any work, two options writing the same file (``--out r.json --html r.json``): the second
    written replaced the first, and the report was lost without a word.  A device or a pipe (``/dev/null``) may take
    both.

    check_separate_outputs((Path("r.json"), "--out"), (Path("./r.json"), "--html"))   # BadParameter for --html
    """
    from engine.core.confine import resolved

    taken: dict[Path, str] = {}
    for path, flag in outputs:
        if path is None or (path.exists() and not path.is_file()):
            continue
        where = resolved(path)
        if where in taken:
            raise click.BadParameter(f"{path} is the file {taken[where]} writes too: give each output a file of its own",
                                     param_hint=flag)
        taken[where] = flag


def report_format_option(rows: str) -> Callable[[F], F]:
    """--format text|json|csv for a report; without it, ``--out`` ending in .json or .csv chooses that format."""

    def option(fn: F) -> F:
        return click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default=None,
                            help=f"csv: {rows}.  [default: text, or json or csv when --out ends in .json or .csv]")(fn)

    return option


def report_format(fmt: str | None, out: Path | None) -> str:
    """The format a report is written in: ``fmt`` when given, else the one ``out``'s suffix names, else text.

    >>> report_format(None, Path("runs.json")), report_format(None, Path("runs.CSV")), report_format("text", Path("a.json"))
    ('json', 'csv', 'text')
    """
    if fmt is not None:
        return fmt
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    return suffix if suffix in ("json", "csv") else "text"


def agent_specs(agents: str, count: int, backend: str) -> list[str]:
    """The agent of each seat from ``--agents`` (agents from the user's files loaded first); a bad one is a usage error.

    An agent from a file runs on this machine only: not on a Ray cluster, whose workers do not have the file.
    """
    from cli.agent_files import is_agent_file, register_agent_files
    from engine.runner.simulate import seat_specs

    given = [a.strip() for a in agents.split(",")]
    try:
        register_agent_files(given)
        specs = seat_specs(given, count)
    except ValueError as err:
        spaced = next((a for a in given if len(a.split()) > 1), None)  # 'greedy random': one per seat, with commas
        hint = f" (the agents of several seats are separated by commas: {','.join(spaced.split())})" if spaced else ""
        raise click.BadParameter(f"{err}{hint}", param_hint="--agents") from None
    if backend != "local" and any(map(is_agent_file, specs)):
        raise click.BadParameter("an agent from a file plays only on this machine: use --backend local (with --jobs N "
                                 "for several processes)", param_hint="--agents")
    return specs


def note_timed_agents(specs: list[str]) -> None:
    """Say on stderr that a search given seconds (``mcts:2s``) makes a report that does not repeat for its seed."""
    from engine.runner.agents import SearchAgent, make_agent

    timed = sorted({spec for spec in specs if isinstance(agent := make_agent(spec, 0), SearchAgent)
                    and agent.spec.budget.seconds is not None})
    if timed:
        echo(f"note: {', '.join(timed)} searches for a time, so its decisions depend on this machine's speed and load: "
             "the same seed will not give the same report (give iterations, e.g. mcts:400, for one that does)",
             err=True)


def agent_timeout_option(fn: F) -> F:
    """``--agent-timeout SECONDS``: the time an agent from the user's file (``my_bots.py:Cautious``) has for one
    decision (:data:`cli.agent_files.DECISION_SECONDS`), past which it is stopped and told as that agent's fault."""

    def keep(ctx: click.Context, param: click.Parameter, seconds: float) -> float:
        import cli.agent_files

        cli.agent_files.DECISION_SECONDS = seconds
        return seconds

    return click.option("--agent-timeout", type=DecimalRange(min=0), default=AGENT_SECONDS, show_default=True,
                        metavar="SECONDS", expose_value=False, callback=keep, is_eager=True,
                        help="The time an agent from a file (my_bots.py:Cls) has for one decision (its file's loading "
                             "and its constructor have at least 60 s); past it the agent is stopped, its fault told (0: "
                             "no limit).")(fn)


def rotate_option(fn: F) -> F:
    """``--rotate-seats``: the bots turned round one seat a game, so that bots of different strength are measured apart
    from the seats they play (and the seats apart from the bots)."""
    return click.option("--rotate-seats", "rotate", is_flag=True,
                        help="Turn the bots round one seat a game (seat 1's bot to seat 2...): each bot plays each seat "
                             "in turn, so bots of different strength are told apart from the seats.")(fn)


def format_option(fn: F) -> F:
    """--format text|json."""
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                        help="json: the same, for tools.")(fn)


def backend_options(fn: F) -> F:
    """--backend local|ray and --address: where the games are played (the report is the same)."""
    fn = click.option("--address", metavar="ADDR",
                      help="With --backend ray: the cluster to use ('auto', or HOST:PORT; default: start a local Ray).")(fn)
    return click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
                        help="local: --jobs processes here; ray: tasks on a Ray cluster (pip install 'rulecraft[ray]').")(fn)


def run_executor(backend: str, jobs: int, address: str | None) -> Executor:
    """Where this command's games run; a local Ray gets --jobs CPUs only when --jobs is given (else every core).

    Local ``--jobs`` above the machine's cores is refused (exit 1).
    """
    from engine.runner.distributed import make_executor
    from engine.runner.executor import TooManyJobs

    given = click.get_current_context().get_parameter_source("jobs") is ParameterSource.COMMANDLINE
    try:
        return make_executor(backend, jobs if given or backend == "local" else None, address)
    except TooManyJobs as err:
        fail(f"--jobs {jobs}: {err}")


@contextmanager
def status_line() -> Iterator[Callable[[str], None]]:
    """A line on stderr, when it is a terminal, saying what a long command does now; yields the call that changes it.

    with status_line() as tell:
        tell("my-game: 2 players, seed 0, greedy")   # nothing is shown when stderr is not a terminal
    """
    from cli import render

    console = render.make_console(stderr=True)
    if not console.is_terminal:
        yield lambda text: None
        return
    with console.status("") as shown:
        yield lambda text: shown.update(text)


@contextmanager
def games_bar(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar of ``total`` games on stderr when it is a terminal; yields the call that moves it on.

    with games_bar("my-game, 2 players", 500) as advance:
        advance(1)   # one game played (nothing is shown when stderr is not a terminal)
    """
    from cli import render
    from cli.console import progress_bar

    console = render.make_console(stderr=True)
    if not console.is_terminal:
        yield lambda done: None
        return
    with progress_bar(console) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)
