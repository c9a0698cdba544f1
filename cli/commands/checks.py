"""The commands that check a ruleset: ``validate`` (every problem with its position, and a few random games) and
``check`` (scenario files, or random games with the invariants tested after every action).

    $ rulecraft validate my-game
    $ rulecraft check my-game/scenarios
    $ rulecraft check --invariants my-game --games 500
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from cli.allow import allow_option
from cli.counts import Count, WHOLE
from cli.extra_words import SpacedValuesCommand
from cli.messages import echo, echo_json, fail
from cli.options import (AGENT_KINDS_HELP, agent_specs, format_option, games_bar, limit_option, load_game,
                         pick_players, status_line, variant_option)
from cli.options import agent_timeout_option
from cli.places import PathOrBuiltin
from engine.runner.backends import MAX_GAMES

if TYPE_CHECKING:
    from engine import Game


@click.command(cls=SpacedValuesCommand)
@click.argument("paths", nargs=-1, required=True, type=PathOrBuiltin())
@click.option("--set", "set_texts", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rulesets checked, as written and in each variant (--set width=9); repeat for several.")
@click.option("--agents", "agent", default="random", show_default=True,
              help="The agent that plays again, at every seat, the games of a player count whose random games all "
                   "stopped at the turn limit (greedy, mcts:50, ...): a game random players rarely finish is judged as "
                   f"players trying to win play it {AGENT_KINDS_HELP}.")
@allow_option
@format_option
@limit_option
@agent_timeout_option
def validate(paths: tuple[str, ...], set_texts: tuple[str, ...], agent: str, fmt: str) -> None:
    """Check rulesets (or scenario files) and report every problem with its position; a ruleset is also
    played, four random games per player count (one per variant), to find code that fails only when it
    runs and an 'end: when' that none of them met (the --agents bot plays again the games random players
    never finished), and its invariants are checked once each player count is set up.

    PATHS are files or folders, or built-in rulesets by name:

    \b
    rulecraft validate my-game another-game
    rulecraft validate my-game --set width=9     # the game as it plays with that option
    rulecraft validate my-game --agents greedy   # played by bots that try to win
    rulecraft validate my-game/scenarios/first-move.yaml --format json
    """
    from engine.compiling.loading import parse_set_options
    from engine.core.set_options import normal_text
    from engine.runner.validate import notes_for_path, validate_path

    try:
        set_options = parse_set_options(set_texts)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--set") from None
    if "," in agent:
        raise click.BadParameter(f"'{agent}': validate plays every player count, so one agent plays every seat "
                                 "(e.g. --agents greedy)", param_hint="--agents")
    agent = agent_specs(agent, 1, "local")[0]
    with status_line() as tell:
        found = {path: validate_path(path, set_options or None, agent, tell) for path in paths}
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
        """Click's parsing, with ``--invariants`` given no ruleset told what it takes."""
        try:
            return super().parse_args(ctx, args)
        except click.BadOptionUsage as err:
            if err.option_name != "--invariants":
                raise
            raise click.BadOptionUsage(err.option_name, f"{err.message.rstrip('.')}: the ruleset whose games to play "
                                       f"goes after it; {INVARIANTS_USAGE}", ctx) from None


@click.command(cls=CheckCommand)
@click.argument("paths", nargs=-1, type=PathOrBuiltin())
@click.option("--verbose", "-v", is_flag=True, help="Print each scenario's log.")
@allow_option
@click.option("--invariants", "invariants_of", metavar="RULESET", is_eager=True, callback=_ruleset_not_option,
              help="Instead of scenarios: play random games of RULESET, checking its invariants after every action.")
@click.option("--games", type=Count(1, MAX_GAMES, "games"), default=100, show_default=True,
              help=f"With --invariants: games per player count (at most {MAX_GAMES:,}).")
@click.option("--players", type=WHOLE, help="With --invariants: only this player count (default: every count).")
@variant_option
@click.option("--seed", type=WHOLE, default=0, show_default=True,
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
    from engine.runner.shared_games import one_compile_per_game

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
        with one_compile_per_game():
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
            with games_bar(f"{game.name}, {count} player{'s' * (count != 1)}", games) as advance:
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
        if save_dir is not None:
            for result in failures[SHOWN_FAILURES:]:
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
    echo(f"{total - failed} game{'s' * (total - failed != 1)} passed, {failed} failed")
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
    from cli.file_names import name_part
    from cli.gamelog import ruleset_ref
    from engine.core.errors import RulecraftError

    log = result.replay(ruleset_ref(ruleset), game)
    if result.error is not None and log.actions:
        log.actions = log.actions[:-1]  # the last action raised: replay up to just before it
    path = folder / f"{name_part(game.name)}-{result.players}p-seed{result.seed}.json"  # the name may say ../
    try:
        folder.mkdir(parents=True, exist_ok=True)
        log.write(path)
    except OSError as err:
        return f"{NOT_WRITTEN}cannot make the folder {folder}: {err.strerror or err}"
    except RulecraftError as err:
        return f"{NOT_WRITTEN}{err}"
    return str(path)
