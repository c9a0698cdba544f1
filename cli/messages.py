r"""What the command line prints: a line (its control characters shown as escapes), JSON, or an error and exit 1.

>>> echo("a\x1bb")
a\x1bb
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

import click

from engine.core.showtext import json_safe, shown


def echo(message: str = "", err: bool = False, nl: bool = True) -> None:
    """Print ``message`` (to stderr with ``err``), its control characters shown as escapes."""
    click.echo(shown(message), err=err, nl=nl)


def fail(message: str) -> NoReturn:
    """Print ``message`` to stderr and exit with status 1."""
    echo(message, err=True)
    raise click.exceptions.Exit(1)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON (non-ASCII kept as is)."""
    echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))
