"""The ``rulecraft`` command line: a thin layer over the engine's public API.

Every RULESET argument is a built-in name or a path.  A mistake in what the
user gave (a bad ruleset, an illegal action in a log, a damaged save) is
printed to stderr with its position and exits with status 1, never with a
traceback; a malformed command line exits with status 2.

    $ rulecraft validate my-game/
    $ rulecraft play my-game --players 2 --seat 2=human
    $ rulecraft simulate my-game -n 1000 --jobs 4 --format json

A command imports what it needs when it runs (the compiler, rich, the
web server), so ``rulecraft --help`` starts in a few hundredths of a second.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, TypeVar

import click
from click.core import ParameterSource

from cli.allow import allow_option
from cli.counts import Count, count_option_hint
from cli.extra_words import SpacedValuesCommand
from cli.places import PathOrBuiltin, named
from cli.stop_signals import how_stopped, stops_as_ctrl_c
import engine
from engine.core.showtext import cut, json_safe, players as players_text, shown
from engine.runner.backends import BACKENDS, MAX_GAMES

if TYPE_CHECKING:
    from rich.table import Table

    from cli.gamelog import GameLog
    from engine import Game
    from engine.runner.executor import Executor
    from engine.runner.report import Comparison, SimulationReport
    from engine.runner.sweep import Sweep

F = TypeVar("F", bound=Callable[..., Any])

UNCHECKED_LOG = ("note: this is a format-1 log, without the recorded positions and ruleset content hash: only "
                 "that each action is legal is checked, not that it leads where it did")
"""What ``replay`` and ``play --load`` say of a log written before logs recorded their positions."""

MAX_BENCH_REPEATS = 100
"""The most times ``bench`` plays its games over (the fastest run counts)."""
MAX_BENCH_DECISIONS = 10_000
"""The most positions ``bench --agent`` times its agent on: each is played to and kept in memory first."""
AGENT_KINDS_HELP = ("(random, greedy, mcts:N, mcts:Ts, ismcts:N, policy:FILE, or a class of your own Python file: "
                    "my_bots.py:Cautious; a search's or greedy's rollouts stop after D actions with :depth=D, "
                    "e.g. mcts:200:depth=60, greedy:depth=30)")
"""The agents every option naming one may take, in its help (--agents, --seat, --agent)."""


OTHER_NAMES = {
    "test": "scenario files are run by 'rulecraft check'",
    "tests": "scenario files are run by 'rulecraft check'",
    "lint": "a ruleset is checked by 'rulecraft validate'",
    "run": "a game is played by 'rulecraft play', many by 'rulecraft simulate'",
    "rules": "a ruleset's rules are told by 'rulecraft explain'",
    "web": "the browser's table is 'rulecraft serve'",
}
"""What a command other tools have is here: words a designer types first, not spelt like the command they mean."""


class RulecraftGroup(click.Group):
    """A group that turns the user's mistakes into messages on stderr and exit status 1.

    The engine's errors are imported only once something has gone wrong, so a
    command that never loads the engine (``list`` from what it remembered) does
    not load them either.  Its commands say how to write an option's values given with spaces
    (:class:`cli.extra_words.SpacedValuesCommand`).
    """

    command_class = SpacedValuesCommand

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with stops_as_ctrl_c():  # kill, or the terminal closed: stopped as Ctrl-C stops it, nothing lost
                return super().invoke(ctx)
        except click.NoSuchOption as err:
            raise count_option_hint(err) or self.owned_elsewhere(err) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise  # click's own: a command's --help, a usage mistake
        except Exception as err:
            from engine.core.errors import RulecraftError, RulesetError

            if isinstance(err, RulesetError):
                fail(err.format())
            if isinstance(err, RulecraftError):
                fail(str(err))
            if isinstance(err, BrokenPipeError):  # the reader went away (``rulecraft ... | head``): stop quietly
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                raise click.exceptions.Exit(1) from None
            if isinstance(err, OSError):  # the file's name may come from a file (a log's ruleset): cut it
                fail(f"{cut(str(err.filename), 200)}: {err.strerror}" if err.filename else f"cannot go on: {err.strerror or err}")
            raise


    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """The command ``args`` names; a name other tools give a command of this one is told which it is.

        >>> main.resolve_command(click.Context(main), ["test", "my-game"])
        Traceback (most recent call last):
        click.exceptions.UsageError: No such command 'test' (scenario files are run by 'rulecraft check').
        """
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            said = OTHER_NAMES.get(args[0]) if args else None
            if said is None:
                raise
            raise click.UsageError(f"No such command '{args[0]}' ({said}).", ctx) from None

    def owned_elsewhere(self, err: click.NoSuchOption) -> click.UsageError:
        """``err``, saying which other commands take the option when some do (``simulate --seat``: play's option),
        instead of guessing at this command's options spelt alike (``--seed``, ``--set``).

        >>> import click
        >>> err = main.owned_elsewhere(click.NoSuchOption("--seat", ctx=click.Context(main.commands["simulate"])))
        >>> err.format_message()
        "No such option: --seat (it is an option of 'rulecraft play'; 'rulecraft simulate --help' lists this command's)"
        """
        name, here = err.option_name, err.ctx.command.name if err.ctx is not None else None
        owners = [f"'rulecraft {cmd}'" for cmd, command in sorted(self.commands.items()) if cmd != here
                  and any(name in param.opts for param in command.params if isinstance(param, click.Option))]
        if not owners or here is None:
            return err
        listed = owners[0] if len(owners) == 1 else f"{', '.join(owners[:-1])} and {owners[-1]}"
        return click.UsageError(f"No such option: {name} (it is an option of {listed}; 'rulecraft {here} --help' "
                                "lists this command's)", err.ctx)


def echo(message: str = "", err: bool = False, nl: bool = True) -> None:
    """Print ``message`` (to stderr with ``err``), its control characters shown as escapes."""
    click.echo(shown(message), err=err, nl=nl)


def fail(message: str) -> NoReturn:
    """Print ``message`` to stderr and exit with status 1."""
    echo(message, err=True)
    raise click.exceptions.Exit(1)


@click.group(cls=RulecraftGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulecraft", message="rulecraft %(version)s")
def main() -> None:
    """Rulecraft: play, check and simulate tabletop games written as YAML rulesets."""


# ---------------------------------------------------------------- shared options


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


players_option = click.option("--players", type=int, help="Number of players (default: the smallest count from 2 up).")


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


def _agent_specs(agents: str, count: int, backend: str) -> list[str]:
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


def _executor(backend: str, jobs: int, address: str | None) -> Executor:
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


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON (non-ASCII kept as is)."""
    echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))


# ---------------------------------------------------------------- list, validate, schema, explain


@main.command("list")
@format_option
def list_rulesets(fmt: str) -> None:
    """List the built-in rulesets (--format json: name, title, players, variants and any load error).

    \b
    rulecraft list
    rulecraft list --format json
    """
    from engine.runner.listing import summaries

    entries = summaries()
    if fmt == "json":
        echo_json(entries)
        return
    from cli.drawn import print_drawing

    print_drawing(entries, lambda console: console.print(_rulesets_table(entries)))


def _rulesets_table(entries: list[dict[str, Any]]) -> Table:
    """The rich table ``list`` prints: a row per ruleset (its load error in place of its title when it fails)."""
    from rich.table import Column, Table

    # names are what a designer types: wrapped onto more lines when narrow, never cut with an ellipsis
    table = Table(Column("ruleset", overflow="fold"), "title", "players", Column("variants", overflow="fold"))
    for entry in entries:
        if "error" in entry:
            table.add_row(entry["name"], f"(does not load: {entry['error']})", "", "")
        else:
            players = ", ".join(map(str, entry["players"]))
            table.add_row(entry["name"], entry["title"], players, ", ".join(entry["variants"]) or "-")
    return table


@main.command()
@click.argument("paths", nargs=-1, required=True, type=PathOrBuiltin())
@click.option("--set", "set_texts", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rulesets checked, as written and in each variant (--set width=9); repeat for several.")
@click.option("--agents", "agent", default="random", show_default=True,
              help="The agent playing every seat of the games a ruleset is played in (greedy, mcts:50, ...): a game random "
                   f"players rarely finish is judged as players trying to win play it {AGENT_KINDS_HELP}.")
@allow_option
@format_option
@limit_option
def validate(paths: tuple[str, ...], set_texts: tuple[str, ...], agent: str, fmt: str) -> None:
    """Check rulesets (or scenario files) and report every problem with its position; a ruleset is also
    played, four random games per player count (or games of the --agents bots), to find code that fails
    only when it runs and an 'end: when' that none of them met, and its invariants are checked once each
    player count is set up.

    PATHS are files or folders, or built-in rulesets by name:

    \b
    rulecraft validate my-game another-game
    rulecraft validate my-game --set width=9     # the game as it plays with that option
    rulecraft validate my-game --agents greedy   # played by bots that try to win
    rulecraft validate my-game/scenarios/first-move.yaml --format json
    """
    from engine.compiling.loading import parse_set_options
    from engine.core.compose import normal_text
    from engine.runner.validate import notes_for_path, validate_path

    try:
        set_options = parse_set_options(set_texts)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--set") from None
    if "," in agent:
        raise click.BadParameter(f"'{agent}': validate plays every player count, so one agent plays every seat "
                                 "(e.g. --agents greedy)", param_hint="--agents")
    agent = _agent_specs(agent, 1, "local")[0]
    found = {path: validate_path(path, set_options or None, agent) for path in paths}
    changed = (f" (with {', '.join(f'{name}={normal_text(value)}' for name, value in set_options.items())})"
               if set_options else "")
    notes = {path: [] if found[path] else notes_for_path(path) for path in paths}
    if fmt == "json":
        files = [{"path": p, "valid": not ds, "diagnostics": [d.to_json() for d in ds], "notes": [n.to_json() for n in notes[p]]}
                 for p, ds in found.items()]
        echo_json({"valid": not any(found.values()), "files": files})
    else:
        for path, diagnostics in found.items():
            for note in notes[path]:
                echo(f"note: {note.headline()}")
            echo("\n".join(d.format() for d in diagnostics) if diagnostics else f"ok: {path}{changed}")
        problems = sum(1 for ds in found.values() for d in ds if not d.message.startswith("note: "))  # a note is none
        bad = sum(1 for ds in found.values() if ds)
        if bad:
            echo(f"{problems} problem{'s' * (problems != 1)} in {bad} file{'s' * (bad != 1)}")
    if any(found.values()):
        raise click.exceptions.Exit(1)


@main.command()
@click.argument("kind", type=click.Choice(["ruleset", "scenario", "fragment"]), default="ruleset")
def schema(kind: str) -> None:
    """Print the JSON Schema for rulesets (or scenario files, or fragments: files a ruleset includes).

    \b
    rulecraft schema > ruleset.schema.json
    rulecraft schema scenario
    """
    from engine.compiling.schema import schema_text

    echo(schema_text(kind).rstrip("\n"))


@main.command()
@click.argument("ruleset")
@allow_option
@variant_option
@limit_option
@click.option("--component", "--character", "component", metavar="NAME",
              help="Show one component as a card instead: its attributes, meter and actions in English.")
@click.option("--observation", is_flag=True,
              help="Show the learning environment's action space and observation encoding instead (needs rulecraft[rl]).")
@click.option("--players", type=int, help="With --observation: the number of players (default: the smallest count from 2 up).")
def explain(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], component: str | None, observation: bool,
    players: int | None,
) -> None:
    """Summarise a ruleset's rules in English (or one component's card, or its learning environment).

    \b
    rulecraft explain my-game
    rulecraft explain my-game --variant short --component Scout
    rulecraft explain my-game --observation --players 3
    """
    from cli import render
    from cli.explain import explain as explain_lines
    from cli.explain import explain_component

    if observation and component:
        raise click.UsageError("--component shows a card and --observation the learning environment: give one of them")
    if players is not None and not observation:
        raise click.UsageError("--players is for --observation: the summary covers every player count")
    console = render.make_console()
    game = load_game(ruleset, variants, set_texts)
    if observation:
        try:
            from engine.rl import describe
        except ImportError as err:
            fail(f"--observation needs the learning extra ({err.name} is missing): pip install 'rulecraft[rl]'")
        for line in describe(game, pick_players(game, players)):
            click.echo(line)
        return
    for line in explain_component(game, component) if component else explain_lines(game):
        console.print(line)


@main.command("new")
@click.argument("folder", metavar="NAME", type=click.Path(file_okay=False, path_type=Path))
@allow_option
@click.option("--from", "source", metavar="RULESET", callback=named,
              help="The ruleset to start from (a built-in name or a path; default: the built-in ruleset that says "
                   "'starter: true', the tutorial to copy).")
def new_command(folder: Path, source: str | None) -> None:
    """Make a new ruleset folder NAME: a copy of a ruleset, with its scenarios and schema lines, validated.

    \b
    rulecraft new my-game
    rulecraft new my-variant --from another-game
    """
    from cli.new import create, smallest_builtin
    from engine.core.confine import allowed_folders
    from engine.core.errors import RulecraftError

    source = source or smallest_builtin()
    made = create(folder, source)
    click.echo(f"created {folder} from {source}:")
    click.echo("".join(f"  {path.relative_to(folder).as_posix()}\n" for path in made.files), nl=False)
    for problem in made.problems + made.scenario_failures:
        click.echo(problem, err=True)
    if not made.ok:
        raise RulecraftError(f"the copy of {source} does not pass: see above")
    n = made.scenarios_passed
    click.echo(f"ok: {folder} validates, {n} scenario{'s' * (n != 1)} pass{'es' * (n == 1)}")
    allow = "".join(f" --allow {shlex.quote(str(path))}" for path in allowed_folders())  # the copy reads there too
    click.echo(f"next: edit {folder / 'ruleset.yaml'}, then rulecraft validate {folder}{allow} && "
               f"rulecraft check {folder}{allow}")


# ---------------------------------------------------------------- play and replay


@main.command()
@click.argument("ruleset", required=False)
@allow_option
@variant_option
@players_option
@limit_option
@click.option("--seed", type=int, help="Seed of the game (default: a random one, printed).")
@click.option(
    "--seat", "seats", multiple=True, metavar="N=WHO",
    help=f"Who plays seat N: human or an agent {AGENT_KINDS_HELP} (default: 1=human, others random).",
)
@click.option(
    "--load", "load_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Continue a game saved with 'save FILE' (it names the ruleset, variants, players and seed).",
)
@click.option(
    "--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log here when the game ends, or the game so far when it stops (quit, Ctrl-C, a failure).",
)
@click.option(
    "--hint-agent", "hint_spec", metavar="SPEC",
    help="The agent that answers 'hint' (default: ismcts:200 where something is hidden, else mcts:200).",
)
@click.option("--watch", is_flag=True, help="Draw the board after every move, bots' moves too (the zones without a board, and with it while it is empty).")
def play(
    ruleset: str | None,
    variants: tuple[str, ...],
    set_texts: tuple[str, ...],
    players: int | None,
    seed: int | None,
    seats: tuple[str, ...],
    load_path: Path | None,
    log_path: Path | None,
    hint_spec: str | None,
    watch: bool,
) -> None:
    """Play a game at the terminal against bots (or other humans).

    Any mix of humans and bots: --seat 1=human --seat 2=mcts:400.  At a
    human's turn type an action's number or text, or help, board, hint,
    undo (take back the last human move and the bots' replies), save FILE
    or quit.

    \b
    rulecraft play my-game --players 3 --seed 7 --watch
    rulecraft play --load saved.json
    """
    from cli import render
    from cli.play import Session, hint_agent, parse_seats

    if load_path is not None and (ruleset or variants or set_texts or players is not None or seed is not None):
        raise click.UsageError("--load takes the ruleset, variants, options, players and seed from the file; give none of them")
    if load_path is None and ruleset is None:
        raise click.UsageError("give a RULESET (or --load SAVE.json)")
    log, state = _start_loaded(load_path) if load_path else _start_new(str(ruleset), variants, set_texts, players, seed)
    check_output(log_path, "--log", "the log")
    try:
        bots = parse_seats(seats, log.players, log.seed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--seat") from None
    try:
        hint = hint_agent(state.game, hint_spec, log.seed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--hint-agent") from None
    console = render.make_console()
    humans = [s for s in range(1, log.players + 1) if s not in bots]
    who = f"humans at seat {', '.join(map(str, humans))}" if humans else "bots only"
    changes = render.run_changes(list(state.game.variants), state.game.set_options)
    console.print(f"{state.game.title}{changes}: {players_text(log.players)}, seed {log.seed}; {who}")
    if load_path is not None and not log.checked:
        console.print(UNCHECKED_LOG)
    session = Session(console, state, log, bots, hint, watch=watch, resumed=load_path is not None)
    try:
        session.run()
        interrupted = False
    except KeyboardInterrupt:  # Ctrl-C, at a prompt or while a bot thinks (or kill, or the terminal closed)
        interrupted = True
    if log_path is not None and not session.save(log_path):  # ended or not, the game so far is kept
        raise click.exceptions.Exit(1)
    if interrupted:  # said after the log is written: a terminal that closed may take no more output
        console.print("interrupted; the game is not over")
    if session.failed or interrupted:  # the exit status says it did not end
        raise click.exceptions.Exit(1)


def _start_new(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, seed: int | None
) -> tuple[GameLog, engine.State]:
    from cli.gamelog import GameLog, ruleset_ref

    game = load_game(ruleset, variants, set_texts)
    count = pick_players(game, players)
    import random

    seed = random.randrange(1 << 31) if seed is None else seed
    log = GameLog(ruleset_ref(ruleset), list(game.variants), count, seed, set_options=dict(game.set_options))
    return log, game.new_state(players=count, seed=seed, record=True)


def _start_loaded(path: Path) -> tuple[GameLog, engine.State]:
    from cli.gamelog import GameLog, ReplayDiverged
    from engine.runner.replay import EXPLICIT_CHANCE_LOG

    log = GameLog.read(path)
    if log.explicit_chance:
        fail(f"{path}: {EXPLICIT_CHANCE_LOG}")
    _, state = log.start()
    try:
        log.play(state)  # every position checked against the recorded one, as `rulecraft replay` does
    except ReplayDiverged as err:
        fail(f"{path}: {err}")
    return log, state


@main.command()
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@allow_option
@click.option("--step", is_flag=True, help="Wait for Enter between actions.")
@click.option("--force", is_flag=True, help="Replay even if the ruleset changed since; report the first action that diverges.")
@click.option("--watch", is_flag=True, help="Draw the board after every action (the zones without a board, and with it while it is empty).")
@limit_option
def replay(log_file: Path, step: bool, force: bool, watch: bool) -> None:
    """Replay a game log, printing each action and what it did.

    A log records the ruleset's content hash and the position after every
    action: a log whose ruleset changed is refused (unless --force), and an
    action that is refused or leads elsewhere than recorded stops the replay.

    \b
    rulecraft replay game.json --watch
    """
    from cli import render
    from cli.gamelog import GameLog, ReplayDiverged, RulesetChanged
    from cli.play import ask
    from engine.blocks.choices import ForcedPicks

    log = GameLog.read(log_file)
    try:
        game, state = log.start(force=force)
    except RulesetChanged as err:
        fail(f"{log_file}: {err}\n(replay it anyway with --force to find the first action that diverges)")
    changed = log.changed(game)
    console = render.make_console()
    if changed:
        console.print(f"warning: {changed}; replaying anyway")
    if not log.checked:
        console.print(UNCHECKED_LOG)
    changes = render.run_changes(list(state.game.variants), state.game.set_options)
    console.print(f"{state.game.title}{changes}: {players_text(log.players)}, seed {log.seed}, {len(log.actions)} actions")
    for line in render.log_lines(state.log or []):  # what setting up, and the automatic steps before the first action, did
        console.print(line, style="dim")
    printed = len(state.log or [])

    forced = ForcedPicks(state, telling=True)  # a choice of one option: told with its action's lines (the log has none)

    def each(number: int, text: str, seat: int) -> None:
        nonlocal printed, step
        console.print(f"{number}. seat {seat}: {text}")
        for line in render.log_lines(forced.merged(state.log or [], printed)):
            console.print(line, style="dim")
        forced.told.clear()
        printed = len(state.log or [])
        if watch and number < len(log.actions):  # the board (and the zones while it is empty), all open
            for part in render.watched(state, None):
                console.print(part)
        if step and number < len(log.actions) and ask("(Enter for the next action)") is None:
            step = False

    try:
        with forced:
            log.play(state, each)
    except ReplayDiverged as err:
        fail(f"{log_file}: {'first divergence: ' if changed else ''}{err}")
    console.rule("the final position", style="dim")
    for part in render.position(state, None):
        console.print(part)
    for line in render.outcome(state):
        console.print(line)
    if changed:
        console.print("the ruleset (or the log) changed, but every action still leads to the recorded position")


# ---------------------------------------------------------------- simulate and bench


@main.command()
@ruleset_options
@click.option("-n", "n", type=Count(1, MAX_GAMES, "games"), default=100, show_default=True, metavar="N",
              help=f"Number of games (at most {MAX_GAMES:,}).")
@click.option("--games", "games_csv", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.csv",
              help="Also write one row per game (seed, agents, winner, length, scores, winners, draw, returns) with the command that plays it "
                   "again; with --compare, the compared run's games too.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run (games' seeds derive from it).")
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
@click.option("--compare-variant", "compare_variants", multiple=True, metavar="V",
              help="Variant(s) of the compared run ('a+b' or repeat; default: none).")
@click.option("--compare-set", "compare_set_texts", multiple=True, metavar="NAME=VALUE",
              help="Options set in the compared run (repeat for several; default: none).")
def simulate(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, n: int,
    games_csv: Path | None, seed: int, agents: str, jobs: int, backend: str, address: str | None, fmt: str | None,
    out: Path | None, html_path: Path | None, rotate: bool, compare_with: str | None,
    compare_variants: tuple[str, ...], compare_set_texts: tuple[str, ...],
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
    """
    from engine.runner.report import compare
    from engine.runner.simulate import GameFailed

    fmt = report_format(fmt, out)
    if games_csv is not None and games_csv.suffix.lower() != ".csv":
        raise click.BadParameter(f"'{games_csv}' is not a .csv file (the number of games is given with -n)", param_hint="--games")
    game = load_game(ruleset, variants, set_texts)
    for path, flag, what in ((out, "--out", "the report"), (html_path, "--html", "the report"), (games_csv, "--games", "the games")):
        check_output(path, flag, what)
    check_separate_outputs((out, "--out"), (html_path, "--html"), (games_csv, "--games"))
    count = pick_players(game, players)
    specs = _agent_specs(agents, count, backend)
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
    executor = _executor(backend, jobs, address)
    start = time.perf_counter()
    try:
        report = _simulate_with_progress(game, count, n, seed, specs, executor, rotate)
    except GameFailed as err:  # the games finished before it are reported, marked partial, then the error
        assert err.report is not None
        report = err.report
    compared = _simulate_with_progress(other, count, n, seed, specs, executor, rotate) if other and not report.partial else None
    comparison = compare(report, compared) if compared and not compared.partial else None
    _write_report(report, comparison, fmt, out, time.perf_counter() - start)
    if html_path is not None:
        from cli.web.charts import report_html
        from engine.core.atomic import write_atomic

        write_atomic(html_path, report_html(report, comparison, time.perf_counter() - start))
        echo(f"report with charts written to {html_path}", err=out is None and fmt != "text")
    if games_csv is not None:
        from cli.games_csv import write_games

        both = None
        if compared is not None and other is not None:
            both = (compared, compare_with or ruleset, other.variants, other.set_options)
        count = report.games + (compared.games if compared is not None else 0)
        write_games(games_csv, report, ruleset, game.variants, game.set_options, both)
        echo(f"{count} games written to {games_csv}", err=fmt != "text")
    if report.failed is not None:
        fail(f"{report.failed}\nthe run stopped there, after {report.games} of {n} games: the report"
             f"{' written' * bool(out)} covers those before the chunk of the one that failed")
    if report.partial:
        fail(f"interrupted ({how_stopped()}) after {report.games} of {n} games: the report{' written' * bool(out)} is partial")
    if compared is not None and compared.partial:
        fail(f"interrupted during the compared run ({compared.games} of {n} games): the comparison was not made")


@main.command()
@click.argument("ruleset")
@click.argument("values", metavar="NAME=[V1,V2,...]")
@variant_option
@players_option
@allow_option
@limit_option
@click.option("-n", "--games", "n", type=Count(1, MAX_GAMES, "games"), default=100, show_default=True,
              help=f"Games per value (at most {MAX_GAMES:,}).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every run (the same games for each value).")
@click.option("--agents", default="random", show_default=True,
              help=f"One agent for every seat, or one per seat: mcts:400,random {AGENT_KINDS_HELP}.")
@click.option("--jobs", type=Count(1, None, "worker processes", 2), default=1, show_default=True,
              help="Worker processes (the table is the same for any number).")
@backend_options
@report_format_option("one row per value and figure (value, section, item, statistic, figure)")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the table to this file.")
@rotate_option
def sweep(
    ruleset: str, values: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, n: int,
    seed: int, agents: str, jobs: int, backend: str, address: str | None, fmt: str | None, out: Path | None,
    rotate: bool,
) -> None:
    """Simulate once per value of an option, on the same seeds, and tabulate the runs.

    Each value is applied like --set NAME=V; each run is compared with the
    baseline (the option's own value when it is among them, else the first),
    in win rates, draws, length and, when a result paid different points in
    different games, each seat's mean points:

    \b
    rulecraft sweep my-game 'width=[5, 6, 7, 8]' --players 4 -n 500
    """
    from cli import balance, render
    from engine.compiling.loading import parse_set_options
    from engine.runner.report import flat_rows
    from engine.runner.sweep import check_games, parse_sweep

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
    specs = _agent_specs(agents, count, backend)
    note_timed_agents(specs)
    start = time.perf_counter()
    result = _sweep_with_progress(load, name, texts, count, n, seed, specs, _executor(backend, jobs, address), rotate)
    buffer = io.StringIO()
    if fmt == "json":
        buffer.write(json_safe(json.dumps(result.to_json(), indent=2, ensure_ascii=False)) + "\n")
    elif fmt == "csv":
        import csv

        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([name, "section", "item", "statistic", "value"])
        for run in result.to_json()["runs"]:
            value = run.pop("value")
            writer.writerows((value, *row) for row in flat_rows(run))
    else:
        console = render.make_console(width=None if out is None else 120, file=None if out is None else buffer)
        console.print(render.sweep_table(result))
        if not result.partial:
            for line in balance.sweep_balance(result):
                console.print(line)
        console.print(f"{sum(run.report.games for run in result.runs)} games in {time.perf_counter() - start:.2f} s",
                      style="dim")
    if fmt != "text" or out is not None:
        _emit(buffer.getvalue(), out)
    if result.failed is not None:
        fail(f"{result.failed}\nthe sweep stopped there: {len(result.runs)} of {len(texts)} values run, the last one partial")
    if result.partial:
        fail(f"interrupted: {len(result.runs)} of {len(texts)} values run, the last one partial")


def _sweep_with_progress(
    load: Callable[[dict[str, str]], Game], name: str, texts: list[str], players: int, n: int, seed: int,
    specs: list[str], executor: Executor, rotate: bool = False,
) -> Sweep:
    """Run a sweep, with a progress bar per value on stderr when it is a terminal."""
    from cli import render
    from cli.console import progress_bar
    from engine.runner.sweep import sweep as run_sweep

    console = render.make_console(stderr=True)
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
    game: Game, players: int, n: int, seed: int, specs: list[str], executor: Executor, rotate: bool = False
) -> SimulationReport:
    """Run a simulation, with a progress bar on stderr when it is a terminal."""
    from cli import render
    from cli.console import progress_bar
    from engine.runner.executor import LocalExecutor
    from engine.runner.simulate import counting_decisions, simulate as run_simulation

    console = render.make_console(stderr=True)
    if not console.is_terminal:
        return run_simulation(game, players, n, seed, specs, executor=executor, rotate=rotate)
    with progress_bar(console) as bar:
        task = bar.add_task(f"playing {game.name}", total=n)
        done = [0]

        def progress(games: int) -> None:
            done[0] = games
            bar.update(task, completed=games, description=f"playing {game.name}")

        def decided(decisions: int) -> None:
            bar.update(task, description=f"playing {game.name}: game {done[0] + 1}, decision {decisions}")

        # a few games played here: how far the one being played has got (the bar alone moves once a game ends)
        few = n <= FEW_GAMES and isinstance(executor, LocalExecutor) and (executor.workers == 1 or n == 1)
        with counting_decisions(decided) if few else nullcontext():
            return run_simulation(game, players, n, seed, specs, executor=executor, progress=progress, rotate=rotate)


def _write_report(
    report: SimulationReport, comparison: Comparison | None, fmt: str, out: Path | None, seconds: float
) -> None:
    """The report as text, json or csv, on stdout or in ``out``."""
    from cli import render
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
        writer.writerows(flat_rows(data))
    else:
        console = render.make_console(width=None if out is None else 120, file=buffer)
        for part in render.simulation_report(report, comparison):
            console.print(part)
        console.print(f"{report.games * (2 if comparison else 1)} games in {seconds:.2f} s", style="dim")
    _emit(buffer.getvalue(), out)


def _emit(text: str, out: Path | None) -> None:
    """``text`` on stdout, or written to ``out`` (atomically) with a one-line note on stdout; control characters escaped."""
    if out is None:
        echo(text, nl=False)
    else:
        from engine.core.atomic import write_atomic

        write_atomic(out, shown(text))
        echo(f"report written to {out}")


@main.command()
@ruleset_options
@click.option("--playouts", type=Count(1, MAX_GAMES, "games"), default=500, show_default=True,
              help=f"Number of random games (without --agent; at most {MAX_GAMES:,}).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the games played (with --agent: of the games the positions come from).")
@click.option("--repeat", "repeats", type=click.IntRange(1, MAX_BENCH_REPEATS), default=3, show_default=True,
              help="Play the games this many times; the fastest run counts (timing noise only slows runs down; "
                   f"at most {MAX_BENCH_REPEATS}).")
@click.option("--agent", "agent_spec", metavar="SPEC",
              help=f"Time this agent's decisions instead: decisions and search iterations per second; an agent "
                   f"{AGENT_KINDS_HELP}.")
@click.option("--decisions", type=click.IntRange(1, MAX_BENCH_DECISIONS), default=10, show_default=True,
              help=f"With --agent: positions (from random games) the agent decides on (at most {MAX_BENCH_DECISIONS:,}).")
@format_option
def bench(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, playouts: int, seed: int,
    repeats: int, agent_spec: str | None, decisions: int, fmt: str,
) -> None:
    """Measure random playouts per second, or an agent's speed (--agent mcts:400).

    \b
    rulecraft bench my-game --players 4
    rulecraft bench my-game --agent mcts:400 --decisions 20
    """
    from cli.agent_files import register_agent_files
    from engine.runner.agents import make_agent
    from engine.runner.bench import bench as run_bench
    from engine.runner.simulate import bench_agent

    unused = "playouts" if agent_spec is not None else "decisions"
    if click.get_current_context().get_parameter_source(unused) is not ParameterSource.DEFAULT:
        raise click.UsageError("--playouts times random games, without --agent; --decisions goes with --agent")
    game = load_game(ruleset, variants, set_texts)
    count = pick_players(game, players)
    if agent_spec is not None:
        try:
            register_agent_files([agent_spec])
            make_agent(agent_spec, 0)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--agent") from None
        try:
            with _games_bar(f"{game.name}, {agent_spec.strip()}", decisions * repeats) as advance:
                measured = bench_agent(game, count, agent_spec.strip(), decisions, seed, repeats,
                                       lambda done, total: advance(done * decisions * repeats // total))
        except KeyboardInterrupt:
            fail(f"interrupted ({how_stopped()}) during the first run: nothing was measured")
        _bench_agent(measured, fmt)
        if measured.get("partial"):
            fail(f"interrupted ({how_stopped()}): measured {measured['runs']} run{'s' * (measured['runs'] != 1)} of {repeats}")
        return
    try:
        with _games_bar(f"{game.name}, {count} player{'s' * (count != 1)}", playouts * repeats) as advance:
            result = run_bench(game, count, playouts, seed, repeats, advance)
    except KeyboardInterrupt:
        fail(f"interrupted ({how_stopped()}) before a game was played: nothing was measured")
    if fmt == "json":
        echo_json(result)
    else:
        _bench_text(result)
    if result.get("partial"):
        fail(f"interrupted ({how_stopped()}): measured {result['runs']} run{'s' * (result['runs'] != 1)} of {result['playouts']} "
             f"playouts, not {repeats} of {playouts}")


def _fastest(runs: int) -> str:
    """``fastest of 3 runs``, or ``one run`` when there was one to choose from.

    >>> _fastest(3), _fastest(1)
    ('fastest of 3 runs', 'one run')
    """
    return f"fastest of {runs} runs" if runs != 1 else "one run"


def _bench_text(result: dict[str, Any]) -> None:
    """The line ``bench`` prints for random playouts."""
    runs = _fastest(result['repeats']) if not result.get("partial") else f"{result['runs']} run{'s' * (result['runs'] != 1)} measured"
    echo(
        f"{result['ruleset']}, {result['players']} player{'' if result['players'] == 1 else 's'}: {result['playouts']} random playouts in "
        f"{result['seconds']:.2f} s ({runs}): {result['playouts_per_second']:.0f} playouts/s "
        f"(median run {result['median_playouts_per_second']:.0f}), "
        f"{result['actions_per_game']:.1f} actions per game, {result['actions_per_second']:.0f} actions/s "
        f"(Python {result['python']})"
    )


@main.command("compile")
@click.argument("ruleset")
@allow_option
@variant_option
@limit_option
@click.option("--show", is_flag=True, help="Print the generated Python source.")
def compile_command(ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], show: bool) -> None:
    """Compile a ruleset's effect-language code to Python functions: how many, or their source (--show).

    \b
    rulecraft compile my-game --show
    """
    from engine.compiling.turn_code import source as turn_source
    from engine.lang.codegen import GENERATED, module_source

    game = load_game(ruleset, variants, set_texts)
    functions = game.vocab.data.get(GENERATED, [])
    turn = turn_source(game)
    if show:
        echo(module_source(game.name, functions).rstrip("\n") + (f"\n\n{turn}".rstrip("\n") if turn else ""))
        return
    lines = sum(text.count("\n") for _, text in functions)
    turn_lines = f", and the turn in {turn.count(chr(10)) - 1:,} lines" if turn else ""
    echo(f"{game.name}: {len(functions)} function{'s' * (len(functions) != 1)}, {lines:,} lines of Python "
         f"generated from the effect language{turn_lines} (--show prints them)")


def _bench_agent(result: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        echo_json(result)
        return
    iterations = result["iterations_per_second"]
    searched = f", {iterations:.0f} iterations/s ({result['iterations_per_decision']:.0f} per decision)" if iterations else ""
    echo(
        f"{result['ruleset']}, {result['players']} player{'' if result['players'] == 1 else 's'}: {result['agent']} "
        f"decided {result['decisions']} positions in {result['seconds']:.2f} s ({_fastest(result.get('runs', result['repeats']))}): "
        f"{result['decisions_per_second']:.2f} decisions/s{searched} (Python {result['python']})"
    )


# ---------------------------------------------------------------- serve


def _a_number(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``value`` unless it is not a number (``nan``, which a range lets through: every request then failed)."""
    if value != value:
        raise click.BadParameter(f"{value} is not a number of seconds")
    return value


@main.command()
@click.argument("ruleset", required=False, callback=named)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (other machines can reach 0.0.0.0).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free one, printed).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--cap", type=click.FloatRange(min=0.1, max=86_400.0), default=20.0, show_default=True, callback=_a_number,
              help="Seconds a request may spend loading or running a ruleset before it is refused (at most a day).")
def serve(ruleset: str | None, host: str, port: int, open_browser: bool, cap: float) -> None:
    """Play, watch and replay games in the browser: the built-in rulesets, RULESET, or every ruleset in a FOLDER.

    \b
    rulecraft serve --open
    rulecraft serve my-game --port 8080
    """
    from cli.stop_signals import handled_as_before
    from cli.web.serve import run

    with handled_as_before():  # the server handles being told to stop itself
        run(ruleset, host, port, open_browser, cap)


# ---------------------------------------------------------------- check


INVARIANT_FLAGS = {"games": "--games", "players": "--players", "variants": "--variant", "set_texts": "--set",
                   "seed": "--seed", "save_dir": "--save"}
"""The options of ``check`` that only random games (``--invariants``) use, by parameter name."""


INVARIANTS_USAGE = "write rulecraft check --invariants RULESET [--games N] ..., e.g. rulecraft check --invariants my-game --games 5"
"""How ``--invariants`` is written, told when its ruleset is missing."""


def _ruleset_not_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--invariants``'s value, refused when it is the next option (``check my-game --invariants --games 5``).

    Checked first (the option is eager), before the paths: otherwise the option's value after it
    (``5``) was refused as a scenario folder that does not exist.
    """
    if value is not None and value.startswith("-"):
        raise click.BadParameter(f"it takes the ruleset whose games to play, and was given the option '{value}': {INVARIANTS_USAGE}")
    return value


class CheckCommand(SpacedValuesCommand):
    """``check``, whose ``--invariants`` given last, without its ruleset, says what goes after it.

    ``rulecraft check --invariants`` said only "Option '--invariants' requires an argument".
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.BadOptionUsage as err:
            if err.option_name != "--invariants":
                raise
            raise click.BadOptionUsage(err.option_name, f"{err.message.rstrip('.')}: the ruleset whose games to play "
                                       f"goes after it; {INVARIANTS_USAGE}", ctx) from None


@main.command(cls=CheckCommand)
@click.argument("paths", nargs=-1, type=PathOrBuiltin())
@click.option("--verbose", "-v", is_flag=True, help="Print each scenario's log.")
@allow_option
@click.option("--invariants", "invariants_of", metavar="RULESET", is_eager=True, callback=_ruleset_not_option,
              help="Instead of scenarios: play random games of RULESET, checking its invariants after every action.")
@click.option("--games", type=Count(1, MAX_GAMES, "games"), default=100, show_default=True,
              help=f"With --invariants: games per player count (at most {MAX_GAMES:,}).")
@click.option("--players", type=int, help="With --invariants: only this player count (default: every count).")
@variant_option
@click.option("--seed", type=int, default=0, show_default=True,
              help="With --invariants: the first game's seed (game i has seed + i).")
@click.option("--save", "save_dir", type=click.Path(file_okay=False, path_type=Path),
              help="With --invariants: write a replay of each failing game into this folder.")
@limit_option
@click.pass_context
def check(
    ctx: click.Context, paths: tuple[str, ...], verbose: bool, invariants_of: str | None, games: int,
    players: int | None, variants: tuple[str, ...], set_texts: tuple[str, ...], seed: int, save_dir: Path | None,
) -> None:
    """Run scenario files (folders are searched for scenario *.yaml files), or check a ruleset's invariants.

    \b
    rulecraft check rulesets/my-game/scenarios
    rulecraft check another-game                 (a built-in ruleset's own scenarios)
    rulecraft check --invariants my-game --games 500 [--players 3] [--variant V] [--set NAME=VALUE]
    """
    if invariants_of is not None:
        if paths:
            raise click.UsageError("give scenario files or --invariants RULESET, not both")
        _check_invariants(invariants_of, variants, set_texts, players, games, seed, save_dir)
        return
    if not paths:
        raise click.UsageError("give scenario files or folders (or --invariants RULESET)")
    given = [flag for name, flag in INVARIANT_FLAGS.items() if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT]
    if given:
        raise click.UsageError(
            f"{', '.join(given)} go{'es' * (len(given) == 1)} with --invariants; "
            "a scenario file names its own ruleset, variants, players and seed, and sets options with 'set:'"
        )
    from engine.runner.scenario import run_scenario, scenario_files

    files = scenario_files([Path(p) for p in paths])
    if not files:
        from engine.core.paths import RULESET_FILE

        rulesets = [p for p in paths if (Path(p) / RULESET_FILE).is_file()]
        raise click.UsageError(
            f"no scenario files (*.yaml with 'ruleset:') in {', '.join(map(str, paths))}"
            + (f"; to play random games of a ruleset checking its invariants: rulecraft check --invariants {rulesets[0]}"
               if rulesets else ""))
    failed = ran = 0
    try:
        for path in files:
            result = run_scenario(path)
            failed += not result.passed
            ran += 1
            echo(f"{'PASS' if result.passed else 'FAIL'} {result.name} ({path})")
            for failure in result.failures:
                echo("  " + failure.replace("\n", "\n  "))
            if verbose:
                echo("".join("    | " + line.replace("\n", "\n    | ") + "\n" for line in result.log), nl=False)
    except KeyboardInterrupt:
        echo(f"PARTIAL: interrupted after {ran} of {len(files)} scenario files: {ran - failed} passed, {failed} failed")
        fail("interrupted")
    echo(f"{len(files) - failed} passed, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)


@contextmanager
def _games_bar(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar of ``total`` games on stderr when it is a terminal; yields the call that moves it on.

    with _games_bar("my-game, 2 players", 500) as advance:
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


SHOWN_FAILURES = 10  # failing games listed per player count; the rest are counted (and saved with --save)


def _check_invariants(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, games: int, seed: int,
    save_dir: Path | None,
) -> None:
    """``check --invariants``: random games with the invariants tested after every action."""
    from cli import render
    from engine.runner.replay import checked_playout

    game = load_game(ruleset, variants, set_texts)
    _check_save_folder(save_dir)
    counts = [pick_players(game, players)] if players is not None else list(game.player_counts)
    named = game.name + render.run_changes(list(game.variants), game.set_options)
    if game.invariants:
        n = len(game.invariants)
        echo(f"{named}: checking {n} invariant{'s' * (n != 1)} after every action: {', '.join(game.invariants)}")
    else:
        echo(f"{named} declares no invariants; checking only that random games run without errors")
    failed = total = 0
    for count in counts:
        failures, actions, played = [], 0, 0
        try:
            with _games_bar(f"{game.name}, {count} player{'s' * (count != 1)}", games) as advance:
                for i in range(games):
                    result = checked_playout(game, count, seed + i)
                    actions += len(result.actions)
                    played += 1
                    advance(played)
                    if not result.ok:
                        failures.append(result)
        except KeyboardInterrupt:
            interrupted = True
        else:
            interrupted = False
        total += played
        failed += len(failures)
        label = f"{count} player{'s' * (count != 1)}"
        status = "ok" if not failures else f"{len(failures)} FAILED"
        echo(f"  {label}: {played} game{'s' * (played != 1)}, {actions / max(played, 1):.1f} actions per game: {status}")
        for result in failures[:SHOWN_FAILURES]:
            echo(f"    {result.problem()}")
            if save_dir is not None:
                echo(f"      replay: {_save_failure(result, ruleset, game, save_dir)}")
        for result in failures[SHOWN_FAILURES:] if save_dir is not None else ():
            saved = _save_failure(result, ruleset, game, save_dir)
            if saved.startswith(NOT_WRITTEN):
                echo(f"    game seed {result.seed}: replay {saved}")
        if len(failures) > SHOWN_FAILURES:
            more = len(failures) - SHOWN_FAILURES
            echo(f"    ... and {more} more failing game{'s' * (more != 1)} "
                 + (f"(their replays are in {save_dir})" if save_dir is not None else "(--save DIR writes a replay of each)"))
        if interrupted:
            echo(f"PARTIAL: interrupted after {total} games: {total - failed} passed, {failed} failed")
            fail("interrupted")
    echo(f"{total - failed} games passed, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)


NOT_WRITTEN = "not written: "
"""How a failing game's replay that ``--save`` could not write begins in place of its path."""


def _check_save_folder(folder: Path | None) -> None:
    """Refuse, before any game is played, a ``--save`` folder that cannot be made: it, or the nearest of its
    ancestors that exists, is not a folder (a pipe, a device, a file: click refuses only a plain file)."""
    if folder is None:
        return
    there = next((p for p in (folder, *folder.parents) if p.exists() or p.is_symlink()), None)
    if there is not None and not there.is_dir():
        raise click.BadParameter(f"{there} is not a folder: give a folder to write the failing games' replays in",
                                 param_hint="--save")


def _save_failure(result: Any, ruleset: str, game: Game, folder: Path) -> str:
    """Write the failing game as a replay (up to the action that failed, or before it when it raised): its path, or
    why it could not be written (the other games' replays are still written, and the run still reported)."""
    from cli.gamelog import ruleset_ref
    from engine.core.errors import RulecraftError

    log = result.replay(ruleset_ref(ruleset), game)
    if result.error is not None and log.actions:
        log.actions = log.actions[:-1]  # the last action raised: replay up to just before it
    path = folder / f"{game.name}-{result.players}p-seed{result.seed}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        log.write(path)
    except OSError as err:
        return f"{NOT_WRITTEN}cannot make the folder {folder}: {err.strerror or err}"
    except RulecraftError as err:
        return f"{NOT_WRITTEN}{err}"
    return str(path)


if __name__ == "__main__":  # python -m cli.main, as python -m cli
    main(prog_name="rulecraft")
