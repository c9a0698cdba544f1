"""The ``rulecraft`` command line: a thin layer over the engine's public API.

Every RULESET argument is a built-in name or a path.  A mistake in what the
user gave (a bad ruleset, an illegal action in a log, a damaged save) is
printed to stderr with its position and exits with status 1, never with a
traceback; a malformed command line exits with status 2.

    $ rulecraft validate my-game/
    $ rulecraft play my-game --players 2 --seat 2=human
    $ rulecraft simulate my-game -n 1000 --jobs 4 --format json
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

import click
from rich.progress import Progress
from rich.table import Table

import engine
from cli import render
from cli.explain import explain as explain_lines
from cli.gamelog import GameLog, replay as replay_actions, ruleset_ref
from cli.play import Session, ask, parse_seats
from engine.bench import bench as run_bench
from engine.errors import RulecraftError, RulesetError
from engine.game import Game
from engine.simulate import SimulationReport, seat_specs, simulate as run_simulation

F = TypeVar("F", bound=Callable[..., Any])


class RulecraftGroup(click.Group):
    """A group that turns the user's mistakes into messages on stderr and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RulesetError as err:
            fail(err.format())
        except RulecraftError as err:
            fail(str(err))
        except OSError as err:
            fail(f"{err.filename}: {err.strerror}" if err.filename else str(err))


def fail(message: str) -> None:
    """Print ``message`` to stderr and exit with status 1."""
    click.echo(message, err=True)
    raise click.exceptions.Exit(1)


@click.group(cls=RulecraftGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Rulecraft: play, check and simulate tabletop games written as YAML rulesets."""


# ---------------------------------------------------------------- shared options


variant_option = click.option(
    "--variant", "variants", multiple=True, metavar="V", help="Variant to apply ('a+b' or repeat the option)."
)
players_option = click.option("--players", type=int, help="Number of players (default: the smallest count from 2 up).")


def ruleset_options(fn: F) -> F:
    """RULESET, --variant and --players."""
    return click.argument("ruleset")(variant_option(players_option(fn)))


def load_game(ruleset: str, variants: tuple[str, ...]) -> Game:
    return engine.load(ruleset, [v for text in variants for v in text.split("+") if v])


def pick_players(game: Game, players: int | None) -> int:
    """``players`` if the ruleset allows it; by default the smallest count >= 2 (else the smallest)."""
    counts = game.player_counts
    if players is None:
        return min((c for c in counts if c >= 2), default=min(counts))
    if players not in counts:
        allowed = ", ".join(map(str, counts))
        raise click.BadParameter(f"{game.name} is played by {allowed} players, not {players}", param_hint="--players")
    return players


def format_option(fn: F) -> F:
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)(fn)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- list, validate, schema, explain


@main.command("list")
def list_rulesets() -> None:
    """List the built-in rulesets."""
    table = Table("ruleset", "title", "players", "variants")
    for name in engine.builtin_names():
        try:
            game = engine.load(name)
        except RulecraftError as err:
            table.add_row(name, f"(does not load: {str(err).splitlines()[0]})", "", "")
            continue
        counts = ", ".join(map(str, game.player_counts))
        table.add_row(name, game.title, counts, ", ".join(game.available_variants) or "-")
    render.make_console().print(table)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option
def validate(paths: tuple[str, ...], fmt: str) -> None:
    """Check rulesets (or scenario files) and report every problem with its position."""
    from engine.validate import validate_path

    found = {path: validate_path(path) for path in paths}
    if fmt == "json":
        files = [{"path": p, "valid": not ds, "diagnostics": [d.to_json() for d in ds]} for p, ds in found.items()]
        echo_json({"valid": not any(found.values()), "files": files})
    else:
        for path, diagnostics in found.items():
            click.echo("\n".join(d.format() for d in diagnostics) if diagnostics else f"ok: {path}")
        problems, bad = sum(map(len, found.values())), sum(1 for ds in found.values() if ds)
        if bad:
            click.echo(f"{problems} problem{'s' * (problems != 1)} in {bad} file{'s' * (bad != 1)}")
    if any(found.values()):
        raise click.exceptions.Exit(1)


@main.command()
@click.argument("kind", type=click.Choice(["ruleset", "scenario"]), default="ruleset")
def schema(kind: str) -> None:
    """Print the JSON Schema for rulesets (or scenario files)."""
    from engine.schema import schema_text

    click.echo(schema_text(kind).rstrip("\n"))


@main.command()
@click.argument("ruleset")
@variant_option
def explain(ruleset: str, variants: tuple[str, ...]) -> None:
    """Summarise a ruleset's rules in English."""
    console = render.make_console()
    for line in explain_lines(load_game(ruleset, variants)):
        console.print(line)


# ---------------------------------------------------------------- play and replay


@main.command()
@click.argument("ruleset", required=False)
@variant_option
@players_option
@click.option("--seed", type=int, help="Seed of the game (default: a random one, printed).")
@click.option(
    "--seat", "seats", multiple=True, metavar="N=WHO",
    help="Who plays seat N: human or an agent (default: 1=human, others random).",
)
@click.option(
    "--load", "load_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Continue a game saved with 'save FILE' (it names the ruleset, variants, players and seed).",
)
@click.option(
    "--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log here when the game ends.",
)
def play(
    ruleset: str | None,
    variants: tuple[str, ...],
    players: int | None,
    seed: int | None,
    seats: tuple[str, ...],
    load_path: Path | None,
    log_path: Path | None,
) -> None:
    """Play a game at the terminal against bots (or other humans)."""
    if load_path is not None and (ruleset or variants or players is not None or seed is not None):
        raise click.UsageError("--load takes the ruleset, variants, players and seed from the file; give none of them")
    if load_path is None and ruleset is None:
        raise click.UsageError("give a RULESET (or --load SAVE.json)")
    log, state = _start_loaded(load_path) if load_path else _start_new(str(ruleset), variants, players, seed)
    try:
        bots = parse_seats(seats, log.players, log.seed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--seat") from None
    console = render.make_console()
    humans = [s for s in range(1, log.players + 1) if s not in bots]
    who = f"humans at seat {', '.join(map(str, humans))}" if humans else "bots only"
    console.print(f"{state.game.title}: {log.players} players, seed {log.seed}; {who}")
    finished = Session(console, state, log, bots).run()
    if finished and log_path is not None:
        log.actions = list(state.history or [])
        log.write(log_path)
        console.print(f"game log written to {log_path}")


def _start_new(
    ruleset: str, variants: tuple[str, ...], players: int | None, seed: int | None
) -> tuple[GameLog, engine.State]:
    game = load_game(ruleset, variants)
    count = pick_players(game, players)
    seed = random.randrange(1 << 31) if seed is None else seed
    log = GameLog(ruleset_ref(ruleset), list(game.variants), count, seed)
    return log, game.new_state(players=count, seed=seed, record=True)


def _start_loaded(path: Path) -> tuple[GameLog, engine.State]:
    log = GameLog.read(path)
    _, state = log.start()
    replay_actions(state, log.actions)
    return log, state


@main.command()
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", is_flag=True, help="Wait for Enter between actions.")
def replay(log_file: Path, step: bool) -> None:
    """Replay a game log, printing each action and what it did."""
    log = GameLog.read(log_file)
    _, state = log.start()
    console = render.make_console()
    console.print(f"{state.game.title}: {log.players} players, seed {log.seed}, {len(log.actions)} actions")
    printed = len(state.log or [])

    def each(number: int, text: str, seat: int) -> None:
        nonlocal printed, step
        console.print(f"{number}. seat {seat}: {text}")
        for line in render.log_lines((state.log or [])[printed:]):
            console.print(line, style="dim")
        printed = len(state.log or [])
        if step and number < len(log.actions) and ask("(Enter for the next action)") is None:
            step = False

    replay_actions(state, log.actions, each)
    if state.game.grid is not None:
        console.print(render.board(state))
    for line in render.outcome(state):
        console.print(line)


# ---------------------------------------------------------------- simulate and bench


@main.command()
@ruleset_options
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run (games' seeds derive from it).")
@click.option("--agents", default="random", show_default=True, help="One agent for all seats, or one per seat: a,b,...")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@format_option
def simulate(
    ruleset: str, variants: tuple[str, ...], players: int | None, n: int, seed: int, agents: str, jobs: int, fmt: str
) -> None:
    """Play many games between agents and report win rates per seat."""
    game = load_game(ruleset, variants)
    count = pick_players(game, players)
    try:
        specs = seat_specs([a.strip() for a in agents.split(",")], count)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--agents") from None
    console = render.make_console()
    start = time.perf_counter()
    if console.is_terminal:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("playing", total=n)
            report = run_simulation(game, count, n, seed, specs, jobs, lambda done: bar.update(task, completed=done))
    else:
        report = run_simulation(game, count, n, seed, specs, jobs)
    if fmt == "json":
        echo_json(report.to_json())
    else:
        _print_report(report, time.perf_counter() - start)


def _print_report(report: SimulationReport, seconds: float) -> None:
    table = Table("seat", "agent", "wins", "win rate", "95% interval", "mean return")
    table.title = f"{report.ruleset}: {report.games} games"
    for seat, (rate, low, high) in report.win_rate.items():
        wins, mean = report.wins_by_seat[seat], report.mean_returns[seat]
        interval = f"{low:.1%} – {high:.1%}"
        table.add_row(str(seat), report.agents[seat - 1], str(wins), f"{rate:.1%}", interval, f"{mean:.3f}")
    console = render.make_console()
    console.print(table)
    console.print(f"shared wins (draws): {report.draws}; games nobody won: {report.no_winner}")
    console.print(
        f"length in actions: mean {report.mean_length:.1f}, median {report.median_length:g}, "
        f"min {report.min_length}, max {report.max_length}; {seconds:.2f} s"
    )


@main.command()
@ruleset_options
@click.option("--playouts", type=click.IntRange(min=1), default=500, show_default=True, help="Number of random games.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--repeat", "repeats", type=click.IntRange(min=1), default=3, show_default=True,
              help="Play the games this many times; the fastest run counts (timing noise only slows runs down).")
@format_option
def bench(ruleset: str, variants: tuple[str, ...], players: int | None, playouts: int, seed: int, repeats: int, fmt: str) -> None:
    """Measure random playouts per second."""
    game = load_game(ruleset, variants)
    result = run_bench(game, pick_players(game, players), playouts, seed, repeats)
    if fmt == "json":
        echo_json(result)
        return
    click.echo(
        f"{result['ruleset']}, {result['players']} player{'' if result['players'] == 1 else 's'}: {result['playouts']} random playouts in "
        f"{result['seconds']:.2f} s (fastest of {result['repeats']} runs): {result['playouts_per_second']:.0f} playouts/s "
        f"(median run {result['median_playouts_per_second']:.0f}), "
        f"{result['actions_per_game']:.1f} actions per game, {result['actions_per_second']:.0f} actions/s "
        f"(Python {result['python']})"
    )


# ---------------------------------------------------------------- check


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--verbose", "-v", is_flag=True, help="Print each scenario's log.")
def check(paths: tuple[Path, ...], verbose: bool) -> None:
    """Run scenario files (folders are searched for *.yaml)."""
    from engine.scenario import run_scenario

    files = [f for p in paths for f in (sorted(p.rglob("*.yaml")) if p.is_dir() else [p])]
    if not files:
        raise click.UsageError(f"no scenario files (*.yaml) in {', '.join(map(str, paths))}")
    failed = 0
    for path in files:
        result = run_scenario(path)
        failed += not result.passed
        click.echo(f"{'PASS' if result.passed else 'FAIL'} {result.name} ({path})")
        for failure in result.failures:
            click.echo("  " + failure.replace("\n", "\n  "))
        if verbose:
            click.echo("".join("    | " + line.replace("\n", "\n    | ") + "\n" for line in result.log), nl=False)
    click.echo(f"{len(files) - failed} passed, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)
