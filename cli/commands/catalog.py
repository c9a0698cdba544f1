"""The commands that tell what rulesets there are and what they say: ``list``, ``schema``, ``explain``, ``compile``,
and ``new``, which starts a ruleset from one.

    $ rulecraft list
    $ rulecraft explain my-game --component Scout
    $ rulecraft new my-game --from another-game
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cli.allow import allow_option
from cli.counts import WHOLE
from cli.extra_words import SpacedValuesCommand
from cli.messages import echo, echo_json, fail
from cli.options import format_option, limit_option, load_game, pick_players, variant_option
from cli.places import named

if TYPE_CHECKING:
    from rich.table import Table


@click.command("list", cls=SpacedValuesCommand)
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


@click.command(cls=SpacedValuesCommand)
@click.argument("kind", type=click.Choice(["ruleset", "scenario", "fragment"]), default="ruleset")
def schema(kind: str) -> None:
    """Print the JSON Schema for rulesets (or scenario files, or fragments: files a ruleset includes).

    \b
    rulecraft schema > ruleset.schema.json
    rulecraft schema scenario
    """
    from engine.compiling.schema import schema_text

    echo(schema_text(kind).rstrip("\n"))


@click.command(cls=SpacedValuesCommand)
@click.argument("ruleset")
@allow_option
@variant_option
@limit_option
@click.option("--component", "--character", "component", metavar="NAME",
              help="Show one component as a card instead: its attributes, meter and actions in English.")
@click.option("--observation", is_flag=True,
              help="Show the learning environment's action space and observation encoding instead (needs rulecraft[rl]).")
@click.option("--players", type=WHOLE, help="With --observation: the number of players (default: the smallest count from 2 up).")
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

    if component is not None and not component.strip():  # it showed the whole summary, as if not given
        raise click.BadParameter("an empty text names no component: give its name (or leave --component out for "
                                 "the whole summary)", param_hint="--component")
    if observation and component is not None:
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
    for line in explain_component(game, component) if component is not None else explain_lines(game):
        console.print(line)


@click.command("new", cls=SpacedValuesCommand)
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


@click.command("compile", cls=SpacedValuesCommand)
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
