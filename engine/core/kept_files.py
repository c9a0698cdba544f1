"""Bytes kept under a content hash: in memory for the rest of the process, and as files in the private cache folder.

What is kept is worked out again when it is missing, so a lost or damaged file costs time, never an answer.  What
is read back may be run (a pickled syntax tree, a marshalled code object), so files are read only from a folder of
:func:`~engine.core.paths.private_cache_dir` (which only this user may write in), only when they are plain files of
this user's (a link put in their place is not followed, a pipe is not waited on), and are written whole under
another name, then renamed, so a reader meets the whole file or none.  Each file begins with its key, so one put in
another's place (a copy, a rename) is not taken for it.  Where there is no such folder only memory keeps them.  Each
kind of thing kept has a folder of its own, one file per key under the key's first two letters.

>>> kept = KeptFiles("examples", memory=2, on_disk=10, usable=lambda: False)  # in memory only
>>> kept.keep("ab12", b"data"); kept.read("ab12"), kept.read("cd34")
(b'data', None)
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from engine.core.paths import private_cache_dir

LARGEST = 4 << 20
"""A kept file larger than this (in bytes) is not read back."""

_OPENING = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
"""How a kept file is opened: a link is not followed, and a pipe put where the file was does not wait for a writer."""


class KeptFiles:
    """The bytes kept under keys (hex digests) in the folder ``name`` of the private cache folder: the latest
    ``memory`` in memory, at most ``on_disk`` files on disk (past it, the older half goes, checked once a process at
    the first new file).  ``usable()`` False (the version of what is kept cannot be worked out) keeps nothing on
    disk."""

    def __init__(self, name: str, memory: int, on_disk: int, largest: int = LARGEST,
                 usable: Callable[[], bool] = lambda: True) -> None:
        self.name, self.memory, self.on_disk, self.largest, self.usable = name, memory, on_disk, largest, usable
        self._lock = threading.Lock()
        self._kept: dict[str, bytes] = {}
        self._folders: dict[tuple[str | None, str | None], str | None] = {}
        self._made: set[str] = set()
        self._pruned = False

    def read(self, key: str) -> bytes | None:
        """The bytes kept under ``key``, from memory or from disk (then remembered); None when there are none."""
        data = self._kept.get(key)
        return data if data is not None else self._read(key)

    def keep(self, key: str, data: bytes) -> None:
        """Keep ``data`` under ``key`` in memory and on disk (a full disk or a read-only folder: in memory only)."""
        self._remember(key, data)
        folder = self.folder()
        if folder is None:
            return
        try:
            if not self._pruned:
                self._pruned = True
                prune(Path(folder), self.on_disk)
            part = os.path.join(folder, key[:2])
            if part not in self._made:
                for made in (folder, part):  # each only this user's, as the cache folder is
                    os.makedirs(made, mode=0o700, exist_ok=True)
                self._made.add(part)
            partial = os.path.join(part, f".{key}.{os.getpid()}.{threading.get_ident()}")
            with open(partial, "wb") as file:
                file.write(_heading(key) + data)
            os.replace(partial, os.path.join(part, key))
        except OSError:
            self._made.clear()  # a folder deleted meanwhile is made again next time

    def forget(self) -> None:
        """Forget what is kept in memory and where the folder on disk is (its files stay): for tests of the disk."""
        with self._lock:
            self._kept.clear()
            self._folders.clear()
            self._made.clear()

    def folder(self) -> str | None:
        """The folder of the kept files, worked out once per cache location (a test may move it), or None."""
        where = (os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
        found = self._folders.get(where, "")
        if found == "":
            private = private_cache_dir() if self.usable() else None
            found = self._folders[where] = None if private is None else os.path.join(private, self.name)
        return found

    def _read(self, key: str) -> bytes | None:
        folder = self.folder()
        if folder is None:
            return None
        try:
            with open(os.path.join(folder, key[:2], key), "rb", opener=_opened) as file:
                if not own_file(os.fstat(file.fileno())):
                    return None
                heading = _heading(key)
                data = file.read(len(heading) + self.largest + 1)
        except OSError:
            return None
        if not data.startswith(heading) or len(data) > len(heading) + self.largest:
            return None  # another key's file put in its place, or too large
        data = data[len(heading):]
        self._remember(key, data)
        return data

    def _remember(self, key: str, data: bytes) -> None:
        with self._lock:
            if len(self._kept) >= self.memory:
                del self._kept[next(iter(self._kept))]
            self._kept[key] = data


def _heading(key: str) -> bytes:
    """What a kept file begins with: its key, so that a file put in another's place is told apart.

    >>> _heading("ab12")
    b'ab12\\n'
    """
    return key.encode("ascii", "replace") + b"\n"


def _opened(path: str, flags: int) -> int:
    """``open``'s opener for a kept file: :data:`_OPENING` whatever ``flags`` says (reading only)."""
    return os.open(path, _OPENING)


def files_digest(folder: Path, names: Iterable[str], first: bytes) -> bytes | None:
    """The SHA-256 of ``first`` then of the files ``names`` of ``folder``, in order: the version of what makes the
    things kept (None when one of the files cannot be read: then nothing is kept on disk).

    >>> here = Path(__file__)
    >>> files_digest(here.parent, [here.name], b"v1") == hashlib.sha256(b"v1" + here.read_bytes()).digest()
    True
    >>> files_digest(here.parent, ["no such file"], b"") is None
    True
    """
    digest = hashlib.sha256(first)
    try:
        for name in names:
            digest.update((folder / name).read_bytes())
    except OSError:
        return None
    return digest.digest()


def own_file(status: os.stat_result) -> bool:
    """Whether a kept file is one this process may read back: a plain file, this user's (what it holds may run).

    >>> own_file(os.stat(__file__)) == (not hasattr(os, "getuid") or os.stat(__file__).st_uid == os.getuid())
    True
    >>> own_file(os.stat(os.path.dirname(__file__)))
    False
    """
    mine = not hasattr(os, "getuid") or status.st_uid == os.getuid()
    return stat.S_ISREG(status.st_mode) and mine


def prune(folder: Path, most: int) -> None:
    """When ``folder`` holds more than ``most`` files, delete the older half (by when they were written).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as where:
    ...     for n in range(5): _ = (Path(where) / "ab").mkdir(exist_ok=True), (Path(where) / "ab" / f"t{n}").write_bytes(b"")
    ...     prune(Path(where), 4); sorted(p.name for p in (Path(where) / "ab").iterdir())
    ['t3', 't4']
    """
    if not folder.is_dir():
        return
    files = [(entry.stat(follow_symlinks=False).st_mtime_ns, entry.name, entry.path) for part in os.scandir(folder)
             if part.is_dir(follow_symlinks=False)  # a link put in a folder's place: what it leads to is not ours
             for entry in os.scandir(part.path) if entry.is_file(follow_symlinks=False)]
    if len(files) <= most:
        return
    files.sort()
    for _, _, path in files[:len(files) - most // 2]:
        try:
            os.remove(path)
        except OSError:
            pass
