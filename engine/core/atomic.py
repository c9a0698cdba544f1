"""Writing a file all at once: the new content whole, or the old file untouched.

Logs, saves, reports and replays of failing games are written to a
temporary file in the same folder, flushed to disk, then moved over the
target with ``os.replace`` (atomic on one file system).  If anything fails
on the way (a full disk, a folder that vanished), the temporary file is
removed, the old file is left as it was, and :class:`WriteFailed` says so.
A device or a FIFO (``--out /dev/null``) is written into, never replaced.

None of them is YAML: an existing ``.yaml`` file in the folder of a ruleset
this process has loaded (the ruleset, its includes, its scenarios) is never
written over (``--log my-game/ruleset.yaml`` would replace the ruleset with a
log); see :func:`keep_yaml_in`.

>>> import tempfile
>>> target = Path(tempfile.mkdtemp()) / "report.txt"
>>> write_atomic(target, "first\\n"); write_atomic(target, "second\\n")
>>> target.read_text()
'second\\n'
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from engine.core.errors import RulecraftError


class WriteFailed(RulecraftError):
    """A file could not be written; the file that was there before is unchanged."""


_KEPT_FOLDERS: set[Path] = set()
"""Folders whose existing YAML files this process never writes over (see :func:`keep_yaml_in`)."""


def keep_yaml_in(folder: str | Path) -> None:
    """From now on, refuse to write over an existing ``.yaml``/``.yml`` file in ``folder`` or below it.

    The load pipeline calls it with the folder of every ruleset it loads.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()); (folder / "ruleset.yaml").write_text("name: x")
    7
    >>> keep_yaml_in(folder)
    >>> write_atomic(folder / "ruleset.yaml", "a log")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.atomic.WriteFailed: cannot write .../ruleset.yaml: it is a file of a ruleset in use (nothing was written; choose another name)
    """
    _KEPT_FOLDERS.add(Path(folder).resolve())


def ruleset_file(path: str | Path) -> bool:
    """Whether ``path`` is an existing YAML file that :func:`write_atomic` will not write over (see :func:`keep_yaml_in`);
    a command checks its output files with it before it starts its work."""
    path = Path(path)
    if not _KEPT_FOLDERS or path.suffix.lower() not in (".yaml", ".yml"):
        return False
    try:
        if not path.exists():
            return False
        where = path.resolve()
    except OSError:  # a name too long to be any file's
        return False
    return any(folder == where.parent or folder in where.parents for folder in _KEPT_FOLDERS)


def write_atomic(path: str | Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) in one step; WriteFailed (old file kept) when that fails."""
    path = Path(path)
    if "\0" in str(path):  # no file is so named, and the file system calls would raise ValueError
        raise WriteFailed(f"cannot write {path}: a file name cannot hold a NUL character (nothing was written)")
    if ruleset_file(path):
        raise WriteFailed(f"cannot write {path}: it is a file of a ruleset in use (nothing was written; choose another name)")
    try:
        mode: int | None = path.stat().st_mode  # through a link: /dev/stdout is a pipe or a terminal
    except OSError:  # no file there, or a name too long for one (the temporary file's creation says so)
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        _write_into(path, text, mode)
        return
    kept = "the old file is kept" if mode is not None else "nothing was written"
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise WriteFailed(f"cannot write {path}: {err.strerror or err} ({kept})") from None
    try:
        os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as err:
        Path(temporary).unlink(missing_ok=True)
        raise WriteFailed(f"cannot write {path}: {err.strerror or err} ({kept})") from None


def _write_into(path: Path, text: str, mode: int) -> None:
    """Write ``text`` into a device or a FIFO (``--out /dev/null``), which a file must never replace; anything else
    that is not a regular file (a folder, a block device, a socket) is refused. A FIFO nothing reads is refused
    at once, never waited on.

    >>> write_atomic("/dev/null", "a report")
    >>> Path("/dev/null").is_char_device()
    True
    """
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        raise WriteFailed(f"cannot write {path}: it is not a regular file (nothing was written)")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as err:
        reason = "nothing is reading it" if err.errno == errno.ENXIO else err.strerror or err
        raise WriteFailed(f"cannot write {path}: {reason} (nothing was written)") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
            os.set_blocking(descriptor, True)  # a reader slower than the writer is waited for
            file.write(text)
    except OSError as err:
        raise WriteFailed(f"cannot write {path}: {err.strerror or err}") from None


def _umask() -> int:
    """The process's file creation mask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
