"""``serve``: the browser's table for the built-in rulesets, one ruleset, or every ruleset in a folder.

    $ rulecraft serve my-game --open
"""

from __future__ import annotations


import click

from cli.counts import DecimalRange, WholeRange
from cli.extra_words import SpacedValuesCommand
from cli.places import named


@click.command(cls=SpacedValuesCommand)
@click.argument("ruleset", required=False, callback=named)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (other machines can reach 0.0.0.0).")
@click.option("--port", type=WholeRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free one, printed).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--cap", type=DecimalRange(min=0.1, max=86_400.0), default=20.0, show_default=True,
              help="Seconds a request may spend loading or running a ruleset before it is refused (at most a day).")
def serve(ruleset: str | None, host: str, port: int, open_browser: bool, cap: float) -> None:
    """Play, watch and replay games in the browser: the built-in rulesets, RULESET, or every ruleset in a FOLDER.

    \b
    rulecraft serve --open
    rulecraft serve my-game --port 8080
    """
    from cli.stop_signals import handled_as_before
    from cli.web.serve import run

    with handled_as_before():  # the server handles being told to stop itself
        run(ruleset, host, port, open_browser, cap)
