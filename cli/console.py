"""A rich console for the terminal that shows what rulesets say literally: no markup, emoji codes or highlighting,
control characters as escapes.

>>> import io
>>> out = io.StringIO()
>>> make_console(file=out, width=40).print("[bold]a\x1b[31mb")
>>> out.getvalue() == "[bold]a\\\\x1b[31mb\\n"
True
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Iterable

from rich.console import Console
from rich.segment import Segment

from engine.core.showtext import shown

if TYPE_CHECKING:
    from rich.progress import Progress


class SafeConsole(Console):
    """A console that prints the control characters of what it shows as escapes (:func:`engine.core.showtext.shown`).

    Rulesets' titles, names and messages are data: whatever they hold, only
    the console's own styles and controls reach the terminal.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(s if s.control else Segment(shown(s.text), s.style) for s in buffer)


def make_console(width: int | None = None, file: IO[str] | None = None, stderr: bool = False) -> Console:
    """A console that treats text literally (no markup, emoji codes or highlighting) and escapes control characters."""
    return SafeConsole(markup=False, emoji=False, highlight=False, soft_wrap=True, width=width, file=file, stderr=stderr)


def progress_bar(console: Console) -> "Progress":
    """A bar of games on ``console`` (erased when done) that shows the time spent too: a run whose games are slow
    (one long game between search bots) stays at 0% for minutes, and the clock says it is still going.

    >>> [type(column).__name__ for column in progress_bar(make_console()).columns][-1]
    'TimeElapsedColumn'
    """
    from rich.progress import Progress, TimeElapsedColumn

    return Progress(*Progress.get_default_columns(), TimeElapsedColumn(), console=console, transient=True)
