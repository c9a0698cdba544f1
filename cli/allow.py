"""``--allow PATH``: folders a command may read besides a ruleset's own (see :mod:`engine.core.confine`).

Every command that loads a ruleset, a log or a scenario takes it::

    @main.command()
    @allow_option
    def validate(...): ...
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def _allow(ctx: click.Context, _param: click.Parameter, folders: tuple[Path, ...]) -> None:
    """Let this command read inside ``folders`` until it ends."""
    from engine.core.confine import allowing

    ctx.with_resource(allowing(folders))


def allow_option(fn: F) -> F:
    """--allow PATH: a folder (with its sub-folders) that rulesets, logs and scenarios may read from."""
    return click.option(
        "--allow", multiple=True, metavar="PATH", expose_value=False, callback=_allow,
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="Also read files in this folder (includes, extends, the ruleset a log names); repeat for several.",
    )(fn)
