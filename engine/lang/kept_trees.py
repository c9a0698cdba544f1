"""The syntax trees of effect-language code, kept between compilations under the hash of the code's text.

Parsing is the largest part of compiling a ruleset (about a third of it), and a ruleset is compiled again at every
command, by every worker of a simulation, at every request of a server and many times in a test run.  So each piece
of code's syntax tree is kept under a **content hash** (of the code's text, the grammar's rule it was read by, the
limits parsing checks, and the version of everything that builds the tree): an unchanged ruleset, or the unchanged
code of an edited one, is not parsed again.  Trees are kept

- in memory, for the rest of the process (the latest :data:`MEMORY` parsed or read from disk);
- on disk, in the folder ``trees`` of this user's private cache folder (:func:`~engine.core.paths.private_cache_dir`),
  one file per piece of code, named by its hash (the oldest files go when there are more than :data:`ON_DISK`).

They are read back with :mod:`pickle`, which can run code, so only from that folder, which only this user may write
in; where that does not hold nothing is kept on disk.  A file that cannot be read back is parsed again and written
anew.  Positions are kept relative to the code's own text and placed again where the code stands now: the same code
moved within a file, or into another, reports errors at its own file:line:col.

>>> from engine.core.errors import SourcePos
>>> read = lambda text, start, locate: ("a tree", locate(1, 3))  # a parser of a made-up rule, "example"
>>> parsed("1 + 2", "example", lambda line, col: SourcePos("a.yaml", 10 + line, 4 + col), read)[1]
SourcePos(file='a.yaml', line=11, col=7)
>>> parsed("1 + 2", "example", lambda line, col: SourcePos("b.yaml", line, col), None)[1]  # kept: not read again
SourcePos(file='b.yaml', line=1, col=3)
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
import stat
import threading
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any, Callable

from engine.core import limits
from engine.core.errors import SourcePos
from engine.core.paths import private_cache_dir
from engine.lang import types

Locate = Callable[[int, int], SourcePos]
Parse = Callable[[str, str, Locate], Any]

MEMORY = 4096
"""How many trees are kept in memory (the latest parsed or read from disk; past it, the earliest goes)."""
ON_DISK = 10_000
"""How many trees are kept on disk: past it, the older half goes (checked once a process, at its first new tree)."""
LARGEST = 4 << 20
"""A kept file larger than this (in bytes) is not read back: no tree of code within the limits is nearly so large."""
MADE_FROM = ("grammar.lark", "ast.py", "parser.py", "types.py", "kept_trees.py")
"""The effect language's files that build a syntax tree: a change to any of them changes every hash."""

_LOCK = threading.Lock()
_trees: dict[str, bytes] = {}
_folders: dict[tuple[str | None, str | None], str | None] = {}
_made: set[str] = set()
_pruned = False
_PLACING = threading.local()
"""The ``locate`` of the tree being read back, on its thread (see :func:`_placed`)."""


def parsed(text: str, start: str, locate: Locate, parse: Parse | None) -> Any:
    """The syntax tree of ``text`` read by the grammar's rule ``start``, its positions placed by ``locate``: as kept,
    or ``parse(text, start, locate)`` (whose errors pass through: nothing is kept of code that fails).  With
    ``parse`` None, LookupError when nothing is kept."""
    key = _key(start, text)
    data = _trees.get(key)
    if data is None:
        data = _read(key)
    if data is not None:
        _PLACING.locate = locate
        try:
            return pickle.loads(data)
        except Exception:  # noqa: BLE001 - a file cut short, or written by another version: parse again, and keep that
            pass
        finally:
            _PLACING.locate = None
    if parse is None:
        raise LookupError(text)
    made: dict[int, tuple[SourcePos, int, int]] = {}

    def noting(line: int, col: int) -> SourcePos:
        pos = locate(line, col)
        noted = made.setdefault(id(pos), (pos, line, col))  # the position itself kept too: its id is not used again
        if noted[1:] != (line, col):  # one position for several places (a locate giving a constant): not kept, since
            made[id(pos)] = (pos, -1, -1)  # another locate would place each of them where this one never said
        return pos

    tree = parse(text, start, noting)
    buffer = io.BytesIO()
    try:
        _pickler(buffer, made).dump(tree)
    except (_NotKept, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return tree  # a position locate did not make, or something pickle cannot write: not kept
    _keep(key, buffer.getvalue())
    return tree


def forget() -> None:
    """Forget the trees kept in memory and where the folder on disk is (its trees stay): for tests of the disk.

    >>> forget(); len(_trees)
    0
    """
    with _LOCK:
        _trees.clear()
        _folders.clear()
        _made.clear()


@lru_cache(maxsize=1)
def _version() -> bytes | None:
    """What a tree depends on besides its code: the files that build it, the version of Python's bytecode and lark's
    (whose parse they transform), or None when the files cannot be read (installed where there are no files: then
    trees are kept in memory only)."""
    import lark

    digest = hashlib.sha256(MAGIC_NUMBER + lark.__version__.encode())
    here = Path(__file__).parent
    try:
        for name in MADE_FROM:
            digest.update((here / name).read_bytes())
    except OSError:
        return None
    return digest.digest()


def _key(start: str, text: str) -> str:
    """The hash a tree is kept under: of its code, its rule, what builds it, and the limits parsing checks (the
    digits of a number: a tree read under a higher limit is not one under the usual limit)."""
    said = f"{start}\0{limits.current().integer_digits}\0{text}"
    return hashlib.sha256((_version() or b"") + said.encode("utf-8", "surrogatepass")).hexdigest()


def _folder() -> str | None:
    """The folder of kept trees, worked out once per cache location (a test may move it), or None."""
    where = (os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
    found = _folders.get(where, "")
    if found == "":
        private = private_cache_dir() if _version() is not None else None
        found = _folders[where] = None if private is None else os.path.join(private, "trees")
    return found


def _read(key: str) -> bytes | None:
    """The bytes kept on disk under ``key``; None when there are none (or no private folder, or too many bytes)."""
    folder = _folder()
    if folder is None:
        return None
    try:
        with open(os.path.join(folder, key[:2], key), "rb", opener=_opened) as file:
            if not _own_file(os.fstat(file.fileno())):
                return None
            data = file.read(LARGEST + 1)
    except OSError:
        return None
    if len(data) > LARGEST:
        return None
    _remember(key, data)
    return data


_OPENING = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
"""How a kept file is opened: a link is not followed, and a pipe put where the file was does not wait for a writer."""


def _opened(path: str, flags: int) -> int:
    """``open``'s opener for a kept file: :data:`_OPENING` whatever ``flags`` says (reading only)."""
    return os.open(path, _OPENING)


def _own_file(status: os.stat_result) -> bool:
    """Whether a kept file is one this process may read back: a plain file, this user's (pickle may run code).

    >>> _own_file(os.stat(__file__)) == (not hasattr(os, "getuid") or os.stat(__file__).st_uid == os.getuid())
    True
    >>> _own_file(os.stat(os.path.dirname(__file__)))
    False
    """
    mine = not hasattr(os, "getuid") or status.st_uid == os.getuid()
    return stat.S_ISREG(status.st_mode) and mine


def _remember(key: str, data: bytes) -> None:
    """Keep ``data`` in memory under ``key``, the earliest kept going past :data:`MEMORY`."""
    with _LOCK:
        if len(_trees) >= MEMORY:
            del _trees[next(iter(_trees))]
        _trees[key] = data


def _keep(key: str, data: bytes) -> None:
    """Keep a new tree in memory and on disk (written whole under another name, then renamed, so a reader meets the
    whole file or none; a full disk or a read-only folder keeps it in memory only)."""
    global _pruned
    _remember(key, data)
    folder = _folder()
    if folder is None:
        return
    try:
        if not _pruned:
            _pruned = True
            _prune(Path(folder))
        part = os.path.join(folder, key[:2])
        if part not in _made:
            for made in (folder, part):  # each only this user's, as the cache folder is
                os.makedirs(made, mode=0o700, exist_ok=True)
            _made.add(part)
        partial = os.path.join(part, f".{key}.{os.getpid()}.{threading.get_ident()}")
        with open(partial, "wb") as file:
            file.write(data)
        os.replace(partial, os.path.join(part, key))
    except OSError:
        _made.clear()  # a folder deleted meanwhile is made again next time


def _prune(folder: Path, most: int = ON_DISK) -> None:
    """When ``folder`` holds more than ``most`` trees, delete the older half (by when they were written).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as where:
    ...     for n in range(5): _ = (Path(where) / "ab").mkdir(exist_ok=True), (Path(where) / "ab" / f"t{n}").write_bytes(b"")
    ...     _prune(Path(where), 4); sorted(p.name for p in (Path(where) / "ab").iterdir())
    ['t3', 't4']
    """
    if not folder.is_dir():
        return
    files = [(entry.stat().st_mtime_ns, entry.name, entry.path) for part in os.scandir(folder) if part.is_dir()
             for entry in os.scandir(part.path) if entry.is_file()]
    if len(files) <= most:
        return
    files.sort()
    for _, _, path in files[:len(files) - most // 2]:
        try:
            os.remove(path)
        except OSError:
            pass


class _NotKept(Exception):
    """A syntax tree holds a position :func:`parsed`'s ``locate`` did not make, or made for several places: it is
    not kept."""


_TYPES = {id(value): name for name, value in vars(types).items() if isinstance(value, types.Type)}
"""The effect language's own types (``INT``, ``BOOL``, ...) by name: syntax trees tell them apart by identity."""


def _pickler(file: io.BytesIO, made: dict[int, tuple[SourcePos, int, int]]) -> pickle.Pickler:
    """A pickler writing a syntax tree's positions as the line and column ``locate`` was given (:func:`_placed` reads
    them back), and the language's types by name (:func:`_named`); everything else as pickle does, in C."""

    def position(pos: SourcePos) -> tuple[Any, ...]:
        found = made.get(id(pos))
        if found is None or found[1] < 0:
            raise _NotKept(pos)
        return _placed, (found[1], found[2])

    def named(value: Any) -> Any:
        name = _TYPES.get(id(value))
        return (_named, (name,)) if name is not None else value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)

    pickler = pickle.Pickler(file, protocol=pickle.HIGHEST_PROTOCOL)
    table: dict[type, Any] = dict(copyreg.dispatch_table)
    table.update({type(value): named for value in vars(types).values() if isinstance(value, types.Type)})
    table[SourcePos] = position
    pickler.dispatch_table = table
    return pickler


def _placed(line: int, col: int) -> SourcePos:
    """A position read back: placed by the ``locate`` of the tree being read."""
    return _PLACING.locate(line, col)


def _named(name: str) -> types.Type:
    """One of the language's own types, read back by name."""
    return getattr(types, name)
