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
in, and only plain files of this user's (:mod:`engine.core.kept_files`); where that does not hold nothing is kept on
disk.  A file that cannot be read back is parsed again and written anew.  Positions are kept relative to the code's
own text and placed again where the code stands now: the same code moved within a file, or into another, reports
errors at its own file:line:col.

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
import pickle
import threading
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any, Callable

from engine.core import limits
from engine.core.errors import SourcePos
from engine.core.kept_files import LARGEST, KeptFiles, files_digest
from engine.lang import types

Locate = Callable[[int, int], SourcePos]
Parse = Callable[[str, str, Locate], Any]

MEMORY = 4096
"""How many trees are kept in memory (the latest parsed or read from disk; past it, the earliest goes)."""
ON_DISK = 10_000
"""How many trees are kept on disk: past it, the older half goes (checked once a process, at its first new tree)."""
MADE_FROM = ("grammar.lark", "ast.py", "statements.py", "selections.py", "parser.py", "types.py", "kept_trees.py")
"""The effect language's files that build a syntax tree: a change to any of them changes every hash."""

_PLACING = threading.local()
"""The ``locate`` of the tree being read back, on its thread (see :func:`_placed`)."""


def parsed(text: str, start: str, locate: Locate, parse: Parse | None) -> Any:
    """The syntax tree of ``text`` read by the grammar's rule ``start``, its positions placed by ``locate``: as kept,
    or ``parse(text, start, locate)`` (whose errors pass through: nothing is kept of code that fails).  With
    ``parse`` None, LookupError when nothing is kept."""
    key = _key(start, text)
    data = _KEPT.read(key)
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
    _KEPT.keep(key, buffer.getvalue())
    return tree


def forget() -> None:
    """Forget the trees kept in memory and where the folder on disk is (its trees stay): for tests of the disk.

    >>> forget(); len(_KEPT._kept)
    0
    """
    _KEPT.forget()


@lru_cache(maxsize=1)
def _version() -> bytes | None:
    """What a tree depends on besides its code: the files that build it, the version of Python's bytecode and lark's
    (whose parse they transform), or None when the files cannot be read (installed where there are no files: then
    trees are kept in memory only)."""
    import lark

    return files_digest(Path(__file__).parent, MADE_FROM, MAGIC_NUMBER + lark.__version__.encode())


def _key(start: str, text: str) -> str:
    """The hash a tree is kept under: of its code, its rule, what builds it, and the limits parsing checks (the
    digits of a number: a tree read under a higher limit is not one under the usual limit)."""
    said = f"{start}\0{limits.current().integer_digits}\0{text}"
    return hashlib.sha256((_version() or b"") + said.encode("utf-8", "surrogatepass")).hexdigest()


_KEPT = KeptFiles("trees", MEMORY, ON_DISK, LARGEST, usable=lambda: _version() is not None)
"""The trees kept, pickled (no tree of code within the limits is nearly :data:`LARGEST` bytes)."""


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
