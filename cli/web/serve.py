"""Running the server: ``rulecraft serve [RULESET|FOLDER] [--host 127.0.0.1] [--port 8000] [--open]``.

Needs the ``web`` extra (``pip install 'rulecraft[web]'``); without it the
command says so instead of failing on an import.

Example::

    $ rulecraft serve my-rulesets/ --port 8001 --open
"""

from __future__ import annotations

import threading
import webbrowser

import click

from engine.core.errors import RulecraftError


def run(source: str | None, host: str, port: int, open_browser: bool, cap: float) -> None:
    """Serve ``source``'s rulesets (None: the built-in ones) until Ctrl-C, printing the address first."""
    try:
        import uvicorn

        from cli.web.app import create_app
    except ImportError as err:
        raise RulecraftError(f"rulecraft serve needs the web extra: pip install 'rulecraft[web]' ({err.name} is missing)") from None
    app = create_app(source, cap)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
    click.echo(f"serving {'the built-in rulesets' if source is None else source} at {url} (Ctrl-C stops)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
