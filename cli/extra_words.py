"""Words left over on a command line because an option's values were separated by spaces.

``--agents greedy random`` gives ``--agents`` the value ``greedy`` and leaves ``random`` over, which click
answers "Got unexpected extra argument (random)" without saying why.  :class:`SpacedValuesCommand` says which
option the word followed and how to write it::

    @main.command(cls=SpacedValuesCommand)
    @click.option("--agents")
    def simulate(agents): ...
"""

from __future__ import annotations

import click

LISTS_WITH_COMMAS = frozenset({"--agents"})
"""Options whose one value is a list separated by commas (one agent per seat)."""


def option_before(command: click.Command, ctx: click.Context, args: list[str], word: str) -> click.Option | None:
    """The option taking a value that ``word`` comes straight after (as that option's value's neighbour), if any.

    >>> cmd = click.Command("sim", params=[click.Option(["--agents"]), click.Option(["-v"], is_flag=True)])
    >>> ctx = click.Context(cmd)
    >>> option_before(cmd, ctx, ["x", "--agents", "greedy", "random"], "random").name
    'agents'
    >>> option_before(cmd, ctx, ["x", "--agents=greedy", "random"], "random").name
    'agents'
    >>> option_before(cmd, ctx, ["x", "-v", "random"], "random") is None
    True
    """
    valued = {opt: param for param in command.get_params(ctx) if isinstance(param, click.Option)
              and not param.is_flag and not param.count for opt in param.opts}
    last: click.Option | None = None
    i = 0
    while i < len(args):
        token = args[i]
        name = token.split("=", 1)[0]
        if name in valued:
            last = valued[name]
            i += 1 if "=" in token else 2  # the option and its value
            if i < len(args) and args[i] == word:
                return last
            continue
        i += 1
    return None


def spaced_values_hint(command: click.Command, ctx: click.Context, args: list[str]) -> str | None:
    """How to write the value of the option that the command line's extra words followed, or None.

    >>> cmd = click.Command("sim", params=[click.Argument(["ruleset"]), click.Option(["--agents"]),
    ...                                    click.Option(["--seat"], multiple=True)])
    >>> spaced_values_hint(cmd, click.Context(cmd), ["g", "--agents", "greedy", "random"])
    '--agents takes one value: separate the agents of several seats by commas, without spaces (--agents greedy,random)'
    >>> spaced_values_hint(cmd, click.Context(cmd), ["g", "--seat", "1=greedy", "2=random"])
    '--seat takes one value: give it again for each (--seat 1=greedy --seat 2=random)'
    >>> cmd.params.append(click.Option(["--set"], multiple=True, metavar="NAME=VALUE"))
    >>> spaced_values_hint(cmd, click.Context(cmd), ["g", "--set", "width", "5"])
    '--set takes NAME=VALUE as one word: --set width=5'
    """
    parsed, extra, _order = command.make_parser(ctx).parse_args(args=list(args))
    if not extra:
        return None
    option = option_before(command, ctx, args, extra[0])
    if option is None:
        return _argument_before(command, ctx, args, parsed, extra)
    flag = max(option.opts, key=len)
    value = parsed.get(option.name)
    first = value[-1] if isinstance(value, list) and value else value
    if not isinstance(first, str):
        return None
    if "=" in (option.metavar or "") and "=" not in first and len(extra) == 1 and "=" not in extra[0]:
        return f"{flag} takes {option.metavar} as one word: {flag} {first}={extra[0]}"  # --set width 5
    if option.multiple:
        again = " ".join(f"{flag} {word}" for word in [first, *extra])
        return f"{flag} takes one value: give it again for each ({again})"
    if flag in LISTS_WITH_COMMAS:
        return (f"{flag} takes one value: separate the agents of several seats by commas, without spaces "
                f"({flag} {','.join([first, *extra])})")
    return f"{flag} takes one value: put one with spaces in quotes ({flag} '{' '.join([first, *extra])}')"


def _argument_before(command: click.Command, ctx: click.Context, args: list[str], parsed: dict[str, object],
                     extra: list[str]) -> str | None:
    """How to write a path argument (``new``'s NAME) given with spaces (``new my game``), or None.

    >>> cmd = click.Command("new", params=[click.Argument(["name"], type=click.Path())])
    >>> _argument_before(cmd, click.Context(cmd), ["my", "game"], {"name": "my"}, ["game"])
    "NAME takes one word: put a name with spaces in quotes ('my game'), or join its words (my-game)"
    """
    for param in command.get_params(ctx):
        value = parsed.get(param.name or "")
        if (isinstance(param, click.Argument) and isinstance(param.type, click.Path) and param.nargs == 1
                and isinstance(value, str) and value in args):  # the parser's values are the words as given
            if args.index(value) + 1 < len(args) and args[args.index(value) + 1] == extra[0]:
                words = [value, *extra]
                return (f"{param.make_metavar(ctx)} takes one word: put a name with spaces in quotes "
                        f"('{' '.join(words)}'), or join its words ({'-'.join(words)})")
    return None


class SpacedValuesCommand(click.Command):
    """A command that answers words left over after an option's value with how to write that value."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Click's parsing, with words left over after an option's value told how to write that value."""
        given = list(args)
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            if not err.message.startswith("Got unexpected extra argument"):
                raise
            hint = spaced_values_hint(self, ctx, given)
            if hint is None:
                raise
            raise click.UsageError(f"{err.message}: {hint}", ctx) from None
