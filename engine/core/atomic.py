"""Writing a file all at once: the new content whole, or the old file untouched.

Logs, saves, reports and replays of failing games are written to a
temporary file in the same folder, flushed to disk, then moved over the
target with ``os.replace`` (atomic on one file system).  If anything fails
on the way (a full disk, a folder that vanished), the temporary file is
removed, the old file is left as it was, and :class:`WriteFailed` says so.

>>> import tempfile
>>> target = Path(tempfile.mkdtemp()) / "report.txt"
>>> write_atomic(target, "first\\n"); write_atomic(target, "second\\n")
>>> target.read_text()
'second\\n'
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from engine.core.errors import RulecraftError


class WriteFailed(RulecraftError):
    """A file could not be written; the file that was there before is unchanged."""


def write_atomic(path: str | Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) in one step; WriteFailed (old file kept) when that fails."""
    path = Path(path)
    if "\0" in str(path):  # no file is so named, and the file system calls would raise ValueError
        raise WriteFailed(f"cannot write {path}: a file name cannot hold a NUL character (nothing was written)")
    kept = "the old file is kept" if path.exists() else "nothing was written"
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise WriteFailed(f"cannot write {path}: {err.strerror or err} ({kept})") from None
    try:
        os.chmod(temporary, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask())
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as err:
        Path(temporary).unlink(missing_ok=True)
        raise WriteFailed(f"cannot write {path}: {err.strerror or err} ({kept})") from None


def _umask() -> int:
    """The process's file creation mask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
