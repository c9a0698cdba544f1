"""Running the server: ``rulecraft serve [RULESET|FOLDER] [--host 127.0.0.1] [--port 8000] [--open]``.

Needs the ``web`` extra (``pip install 'rulecraft[web]'``); without it the
command says so instead of failing on an import.

Example::

    $ rulecraft serve my-rulesets/ --port 8001 --open
"""

from __future__ import annotations

import socket
import threading
import webbrowser

import click

from engine.core.errors import RulecraftError


def run(source: str | None, host: str, port: int, open_browser: bool, cap: float) -> None:
    """Serve ``source``'s rulesets (None: the built-in ones) until Ctrl-C, printing the address first; Ctrl-C
    returns quietly (the command exits with status 0), while starting up too."""
    try:
        _serve(source, host, port, open_browser, cap)
    except KeyboardInterrupt:  # stopped by its user, not failed: while starting up, or from uvicorn (below)
        pass


def _serve(source: str | None, host: str, port: int, open_browser: bool, cap: float) -> None:
    """Load the app, bind, announce and serve; Ctrl-C raises KeyboardInterrupt (uvicorn stops, then raises it again)."""
    try:
        import uvicorn

        from cli.web.app import create_app
    except ImportError as err:
        raise RulecraftError(f"rulecraft serve needs the web extra: pip install 'rulecraft[web]' ({err.name} is missing)") from None
    app = create_app(source, cap)
    sock = listening_socket(host, port)  # before saying where: a busy port is refused, not announced
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{sock.getsockname()[1]}/"
    click.echo(f"serving {'the built-in rulesets' if source is None else source} at {url} (Ctrl-C stops)")
    opening = threading.Timer(1.0, webbrowser.open, (url,))
    if open_browser:
        opening.start()
    # log_config=None: uvicorn leaves the process's logging as it is (its warnings still reach stderr through
    # Python's last-resort handler) instead of configuring logging anew, which closes every handler made before
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", log_config=None))
    app.state.server.stopping = lambda: server.should_exit  # the pages' event streams end, so Ctrl-C stops at once
    try:
        server.run(sockets=[sock])
    finally:
        opening.cancel()  # stopped within its first second: no page opened on a server that is gone


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: any free one); RulecraftError saying why it cannot be.

    >>> listening_socket("127.0.0.1", 0).getsockname()[1] > 0
    True
    """
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:  # the port is taken, the address is not this machine's or does not resolve
        sock.close()
        raise RulecraftError(f"cannot serve at {host}:{port}: {err.strerror or err} "
                             "(choose another --port, or a --host of this machine)") from None
    sock.set_inheritable(True)
    return sock
