"""Options that count something (games, playouts): a value that is not a whole number is refused by saying what it
counts, and an option spelt for the number of games that the command lacks is pointed at the one it has.

    @click.option("-n", "n", type=Count(1, 1000, "games"))   # -n ten: "'ten' is not a whole number of games ..."
"""

from __future__ import annotations

import re
from typing import Any

import click

AGENT_SECONDS = 60.0
"""The time an agent from a file has for one decision unless ``--agent-timeout`` says otherwise."""

COUNT_SPELLINGS = re.compile(r"--?(n|nb|num|number|count)([-_]?(of[-_]?)?games)?", re.IGNORECASE)
"""Options a user may write for a number of games (``--num-games``, ``--n``, ``--count``)."""


class Count(click.IntRange):
    """A whole number from ``min_value`` to ``max_value`` (None: no most) counting ``counts``, like ``example``.

    >>> Count(1, 10, "games").convert("ten", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: 'ten' is not a whole number of games: write it in digits, e.g. 100
    """

    name = "whole number"

    def __init__(self, min_value: int, max_value: int | None, counts: str, example: int = 100) -> None:
        super().__init__(min_value, max_value)
        self.counts = counts
        self.example = example

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as a whole number in the range, written in digits; anything else refused naming what it counts."""
        from engine.core.numerals import in_digits, not_digits, odd_digits  # not for --help: loaded when a value is read

        if isinstance(value, str) and not in_digits(value):
            odd = f" ({not_digits(value)})" if odd_digits(value) else ""
            self.fail(f"'{value}' is not a whole number of {self.counts}: write it in digits, e.g. {self.example}{odd}",
                      param, ctx)
        return super().convert(value, param, ctx)


class CountOrFile(click.ParamType):
    """A whole number counting ``counts`` (as :class:`Count` reads it), or the path of a file ending ``suffix``:
    ``simulate --games`` is the number of games, as ``sweep --games`` and ``check --games`` are, or the CSV file
    to write each game's row to.

    >>> CountOrFile(Count(1, 10, "games"), ".csv").convert("7", None, None)
    7
    >>> CountOrFile(Count(1, 10, "games"), ".csv").convert("runs.CSV", None, None)
    PosixPath('runs.CSV')
    >>> CountOrFile(Count(1, 10, "games"), ".csv").convert("runs.txt", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: 'runs.txt' is neither a number of games nor a .csv file to write them to
    """

    name = "count or file"

    def __init__(self, count: Count, suffix: str) -> None:
        self.count, self.suffix = count, suffix

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as a count when it is written in digits, else as the path of a file with the suffix."""
        from pathlib import Path

        if isinstance(value, (int, Path)):
            return value
        if str(value).strip().isdigit():
            return self.count.convert(value, param, ctx)
        path = Path(value)
        if path.suffix.lower() != self.suffix:
            self.fail(f"'{value}' is neither a number of {self.count.counts} nor a {self.suffix} file to write them to",
                      param, ctx)
        return path


def _in_digits(kind: click.ParamType, value: Any, whole: bool, param: click.Parameter | None,
               ctx: click.Context | None) -> None:
    """Refuse a number typed with other digits than 0-9 or with underscores, which Python's ``int`` and ``float`` read
    (``٣``, ``1_000``), saying which character is not a digit."""
    from engine.core.numerals import in_digits, not_digits, odd_digits

    if isinstance(value, str) and odd_digits(value) and not in_digits(value, whole):
        kind.fail(f"'{value}' is not a number: {not_digits(value)}", param, ctx)


class Whole(click.types.IntParamType):
    """A whole number written with the digits 0-9 (``type=int`` reads ``٣`` as 3 and ``1_000`` as 1000).

    >>> WHOLE.convert("12", None, None), Whole().convert("-3", None, None)
    (12, -3)
    >>> WHOLE.convert("1_000", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: '1_000' is not a number: '_' is not a digit: write the number with the digits 0-9 alone
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as an int, when written with the digits 0-9 alone."""
        _in_digits(self, value, True, param, ctx)
        return super().convert(value, param, ctx)


WHOLE = Whole()


class WholeRange(click.IntRange):
    """``click.IntRange`` of numbers written with the digits 0-9 (see :class:`Whole`)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as an int in the range, when written with the digits 0-9 alone."""
        _in_digits(self, value, True, param, ctx)
        return super().convert(value, param, ctx)


class DecimalRange(click.FloatRange):
    """``click.FloatRange`` of numbers written with the digits 0-9 (``0.5``, ``2``; not ``٠.٥``), and never ``nan``,
    which a range lets through (it is neither below nor above a bound): ``--agent-timeout nan`` failed inside every
    decision, told as the agent's fault, and ``serve --cap nan`` refused every request.

    >>> DecimalRange(min=0).convert("0.5", None, None)
    0.5
    >>> DecimalRange(min=0).convert("nan", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: 'nan' is not a number
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as a float in the range, written with the digits 0-9, never ``nan``."""
        _in_digits(self, value, False, param, ctx)
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


def count_option_hint(err: click.NoSuchOption) -> click.UsageError | None:
    """The error for an option spelt like a number of games (``--num-games``) when the command counts its games
    with another option (``-n``); None for any other unknown option.

    >>> from cli.main import main
    >>> ctx = click.Context(main.commands["simulate"])
    >>> count_option_hint(click.NoSuchOption("--num-games", ctx=ctx)).format_message()
    "No such option: --num-games (the number of games is given with -n, e.g. -n 100; 'rulecraft simulate --help' lists the options)"
    """
    if err.ctx is None or not COUNT_SPELLINGS.fullmatch(err.option_name):
        return None
    command = err.ctx.command
    counted = next((p for p in command.params if isinstance(p, click.Option) and "-n" in p.opts), None)
    if counted is None:
        return None
    flags = "/".join(counted.opts)
    return click.UsageError(f"No such option: {err.option_name} (the number of games is given with {flags}, e.g. -n 100; "
                            f"'rulecraft {command.name} --help' lists the options)", err.ctx)
