"""The functions generated from the effect language, kept between loads under the hash of their code.

Once the syntax trees are kept (:mod:`engine.lang.kept_trees`), most of loading a ruleset is generating its
functions: the sharing and hoisting passes over each function's source, then Python's ``compile``.  Each generated
function's input is written with its names numbered in order of first appearance (:func:`engine.lang.codegen.function`),
so the same code gives the same source at every load, and the finished function — its code object, its source and
the names it gives the closures it falls back on — is kept under a **content hash** of that input, of what the
passes read of its constants, and of the version of everything that turns it into a function (the files
:data:`MADE_FROM` and Python's bytecode magic).  A function found kept is not shared, hoisted, wrapped nor compiled
again.  They are kept

- in memory, for the rest of the process (the latest :data:`MEMORY` made or read from disk);
- on disk, in the folder ``code`` of this user's private cache folder, one file per function, named by its hash
  (the oldest files go when there are more than :data:`ON_DISK`).

They are read back with :mod:`marshal`, whose code objects run, so under the rules of :mod:`engine.core.kept_files`:
only from a folder only this user may write in, only plain files of this user's; a file that cannot be read back
is made again and written anew.

>>> text = "def f1(s, e):\\n    return e[0]\\n"
>>> code = compile(text, "<example>", "exec").co_consts[0]
>>> found = key("an example", text)
>>> keep(found, code, text, ()); built(found)[1:]
('def f1(s, e):\\n    return e[0]\\n', ())
"""

from __future__ import annotations

import hashlib
import marshal
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType

from engine.core.kept_files import KeptFiles, files_digest

MEMORY = 4096
"""How many functions are kept in memory (the latest made or read from disk; past it, the earliest goes)."""
ON_DISK = 20_000
"""How many functions are kept on disk: past it, the older half goes (checked once a process, at its first new one)."""
MADE_FROM = ("codegen.py", "shared.py", "hoisted.py", "kept_code.py")
"""The files that turn code into a function: a change to any of them changes every hash (code compiled as it is
written, as the turn is, depends only on its text and Python's version)."""

Built = tuple[CodeType, str, tuple[str, ...]]
"""A function kept: its code object, its source, and the names its namespace binds to the closures it stands for."""


@lru_cache(maxsize=1)
def _version() -> bytes | None:
    """What a function depends on besides its code: the files that make it and Python's bytecode version (None
    when the files cannot be read: then functions are kept in memory only)."""
    return files_digest(Path(__file__).parent, MADE_FROM, MAGIC_NUMBER)


_KEPT = KeptFiles("code", MEMORY, ON_DISK, usable=lambda: _version() is not None)


def key(*parts: str) -> str:
    """The hash a function is kept under: of ``parts`` (what it is made from, all of it) and :func:`_version`.

    >>> key("a", "bc") != key("ab", "c")
    True
    """
    said = "\0".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256((_version() or b"") + said).hexdigest()


def built(found: str) -> Built | None:
    """The function kept under the hash ``found``, or None (none kept, or a file that does not read back as one)."""
    data = _KEPT.read(found)
    if data is None:
        return None
    try:
        kept = marshal.loads(data)
    except Exception:  # noqa: BLE001 - a file cut short, or damaged: made again, and kept anew
        return None
    if not (type(kept) is tuple and len(kept) == 3 and type(kept[0]) is CodeType and type(kept[1]) is str
            and type(kept[2]) is tuple and all(type(name) is str for name in kept[2])):
        return None
    return kept


def keep(found: str, code: CodeType, text: str, names: tuple[str, ...]) -> None:
    """Keep a function made anew under the hash ``found``, in memory and on disk."""
    _KEPT.keep(found, marshal.dumps((code, text, names)))


def placed(code: CodeType, filename: str) -> CodeType:
    """``code`` (and the code inside it) said to come from ``filename``, as Python's tracebacks then say.

    >>> placed(compile("x = [y for y in z]", "<a>", "exec"), "<b>").co_consts[0].co_filename
    '<b>'
    """
    if code.co_filename == filename:
        return code
    consts = tuple(placed(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def forget() -> None:
    """Forget the functions kept in memory and where the folder on disk is (its files stay): for tests of the disk."""
    _KEPT.forget()
