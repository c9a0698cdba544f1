"""Drawings made with rich, remembered between runs for the terminal they were drawn for.

``rulecraft list`` prints a table, and drawing it with rich (importing rich,
laying the table out) costs more than everything else a remembered ``list``
does.  What rich draws depends only on what it is given and on where it
prints: the environment variables, whether standard output is a terminal and
its encoding, and the size of the terminal of standard input, output or
error.  :func:`print_drawing` keeps the last drawing in the cache folder
under a key made of all of those, of the code of rich and of this package,
and of what is drawn, and prints it again byte for byte while they stay the
same; otherwise it draws with rich, printing as it goes, and remembers what
was printed.  On Windows, and inside IPython or IDLE, where rich asks the
system more, it always draws.  What it prints from memory is what it
printed itself (control characters escaped by the console), read back from
the user's own cache folder.

Example::

    print_drawing(entries, lambda console: console.print(table_of(entries)))
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable

from engine.core.paths import cache_dir

if TYPE_CHECKING:
    from rich.console import Console

CLI_DIR = Path(__file__).resolve().parent
DRAWING_FILE = "drawn.json"
"""The file in the cache folder holding the last drawing and its key."""


def print_drawing(subject: Any, draw: Callable[[Console], None]) -> None:
    """Print on standard output what ``draw`` prints on a console (see :func:`cli.console.make_console`), from memory
    when ``subject`` (what is drawn, as JSON) and everything rich would look at are those of the last drawing."""
    key = drawing_key(subject)
    path = cache_dir() / DRAWING_FILE
    kept = _read(path, key) if key is not None else None
    if kept is not None:
        sys.stdout.write(kept)
        sys.stdout.flush()
        return
    from cli.console import make_console

    if key is None:
        draw(make_console())
        return
    printed = _Copying(sys.stdout)
    draw(make_console(file=printed))  # type: ignore[arg-type]  # standard output in every way rich looks at
    from engine.core.atomic import WriteFailed, write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"key": key, "text": "".join(printed.copy)}, ensure_ascii=False))
    except (OSError, WriteFailed):  # a read-only home: print without remembering
        pass


def drawing_key(subject: Any) -> str | None:
    """A hash of ``subject`` and of everything rich's drawing depends on; None where that cannot be known."""
    if sys.platform == "win32" or hasattr(builtins, "get_ipython") or getattr(sys.stdin, "__module__", "").startswith("idlelib"):
        return None
    rich = find_spec("rich")
    if rich is None or rich.origin is None:
        return None
    try:
        output = [sys.stdout.isatty(), sys.stdout.encoding]
    except (AttributeError, ValueError):  # no standard output, or a closed one
        return None
    sizes: list[list[int] | None] = []
    for descriptor in (0, 1, 2):
        try:
            sizes.append(list(os.get_terminal_size(descriptor)))
        except (AttributeError, ValueError, OSError):
            sizes.append(None)
    code = [_stamps(Path(rich.origin).parent), _stamps(CLI_DIR)]
    text = json.dumps([subject, sorted(os.environ.items()), output, sizes, sys.version, code])
    return hashlib.sha256(text.encode()).hexdigest()  # JSON's escapes leave only ASCII


def _stamps(folder: Path) -> list[tuple[str, int, int, int, int]]:
    """Name, size, modification and change times and inode of each Python file in ``folder`` (not its sub-folders)."""
    stamps = []
    with os.scandir(folder) as scan:
        for entry in scan:
            if entry.name.endswith(".py"):
                info = entry.stat()
                stamps.append((entry.name, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino))
    return sorted(stamps)


def _read(path: Path, key: str) -> str | None:
    """The drawing kept at ``path`` when it was made under ``key``; None when there is none or it is damaged."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("key") != key or not isinstance(kept.get("text"), str):
        return None
    return kept["text"]


class _Copying:
    """Standard output, keeping a copy of what is written through it; everything else is standard output's own."""

    def __init__(self, file: IO[str]) -> None:
        self.file = file
        self.copy: list[str] = []

    def write(self, text: str) -> int:
        written = self.file.write(text)
        self.copy.append(text)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)
