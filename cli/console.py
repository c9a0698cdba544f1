"""A rich console for the terminal that shows what rulesets say literally: no markup, emoji codes or highlighting,
control characters as escapes.

>>> import io
>>> out = io.StringIO()
>>> make_console(file=out, width=40).print("[bold]a\x1b[31mb")
>>> out.getvalue() == "[bold]a\\\\x1b[31mb\\n"
True
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Iterable, Iterator

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
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


class Trimmed:
    """``renderable`` drawn with no line ending in spaces: a table pads each cell out to its column's width, so every
    row of a board drawn as one ended in the blanks of its last column (and a copied board in trailing spaces).

    >>> import io
    >>> from rich.table import Table
    >>> table = Table("x", "wide heading", show_edge=False)
    >>> table.add_row("a", "b")
    >>> out = io.StringIO()
    >>> make_console(file=out, width=40).print(Trimmed(table))
    >>> [line for line in out.getvalue().splitlines() if line.endswith(" ")]
    []
    """

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for line in console.render_lines(self.renderable, options, pad=False):
            while line and not line[-1].control and not line[-1].text.rstrip():
                line.pop()
            if line and not line[-1].control:
                line[-1] = Segment(line[-1].text.rstrip(), line[-1].style)
            yield from line
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)


def progress_bar(console: Console) -> "Progress":
    """A bar of games on ``console`` (erased when done) that shows the time spent too: a run whose games are slow
    (one long game between search bots) stays at 0% for minutes, and the clock says it is still going.

    >>> [type(column).__name__ for column in progress_bar(make_console()).columns][-1]
    'TimeElapsedColumn'
    """
    from rich.progress import Progress, TimeElapsedColumn

    return Progress(*Progress.get_default_columns(), TimeElapsedColumn(), console=console, transient=True)
