"""The ``rulecraft`` command line: a thin layer over the engine's public API.

Every RULESET argument is a built-in name or a path.  A mistake in what the
user gave (a bad ruleset, an illegal action in a log, a damaged save) is
printed to stderr with its position and exits with status 1, never with a
traceback; a malformed command line exits with status 2.

    $ rulecraft validate my-game/
    $ rulecraft play my-game --players 2 --seat 2=human
    $ rulecraft simulate my-game -n 1000 --jobs 4 --format json

The commands are defined in :mod:`cli.commands`, a module per group of
them, over the options they share (:mod:`cli.options`); this module
gathers them under one group, which turns errors into messages.  A command
imports what it needs when it runs (the compiler, rich, the web server),
so ``rulecraft --help`` starts in a few hundredths of a second.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from cli.commands import bench, catalog, checks, games, runs, serve
from cli.counts import count_option_hint
from cli.extra_words import SpacedValuesCommand
from cli.messages import fail
from cli.stop_signals import stops_as_ctrl_c
from engine.core.showtext import cut

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
        """Run the command, a user's mistake told on stderr with exit status 1, a stop signal taken as Ctrl-C."""
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


    def main(self, *args: Any, **kwargs: Any) -> Any:
        """The command, run as click runs it; after it, a thread an agent from a file left running does not keep the
        process waiting for it (see :func:`cli.agent_files.end_if_threads_left`), and one that ends the process
        ends it with the command's status (:func:`cli.agent_exits.command_ends`)."""
        exits = sys.modules.get("cli.agent_exits")  # loaded only when a command named an agent file
        if exits is not None:  # a command before this one in the process (a test's) ran agents
            exits.command_ends(None)
        try:
            return super().main(*args, **kwargs)
        except SystemExit as exit:
            agent_files = sys.modules.get("cli.agent_files")
            if agent_files is not None:
                agent_files.end_if_threads_left(exit.code)
                sys.modules["cli.agent_exits"].command_ends(agent_files.exit_status(exit.code))
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


@click.group(cls=RulecraftGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulecraft", message="rulecraft %(version)s")
def main() -> None:
    """Rulecraft: play, check and simulate tabletop games written as YAML rulesets."""


for command in (catalog.list_rulesets, checks.validate, catalog.schema, catalog.explain, catalog.new_command, games.play,
                games.replay, runs.simulate, runs.sweep, bench.bench, catalog.compile_command, serve.serve, checks.check):
    main.add_command(command)


if __name__ == "__main__":  # python -m cli.main, as python -m cli
    main(prog_name="rulecraft")
