"""Which files a ruleset may read, and reading a file without trusting it.

A ruleset is put together from files (``include``, ``extends``), and replays,
saves and scenario files name a ruleset.  Every such file must lie inside
one of the **allowed folders**: the folder tree of the file that names it
(the ruleset's own folder, or the replay's or scenario's), the built-in
rulesets, and the folders the user allows for one run (``--allow PATH``,
:func:`allowing`); a log or scenario may also name the ruleset its folder
belongs to, or one in the folder Rulecraft runs in (:func:`check_named_ruleset`).  A path that leaves them, through ``..``, an absolute
path or a symbolic link, is refused before anything is read, and the
refusal never quotes the file.

Every file Rulecraft reads from the user goes through :func:`read_bytes`:
only regular files (a FIFO or a device is refused at once, never waited
on), and at most a given number of bytes.

>>> root = Path("/games/my-game")
>>> outside(Path("/games/my-game/parts/board.yaml"), [root]) is None
True
>>> outside(Path("/etc/passwd"), [root])
PosixPath('/etc/passwd')
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import stat
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from engine.core.errors import RulecraftError
from engine.core.paths import RULESET_FILE, builtin_names, rulesets_dir
from engine.core.showtext import cut

_ALLOWED: contextvars.ContextVar[tuple[Path, ...]] = contextvars.ContextVar("allowed_folders", default=())

ALLOW_HINT = (
    "Rulecraft reads only files inside the folder of the file that names them, the built-in rulesets "
    "and folders given with --allow PATH"
)


class FileRefused(RulecraftError):
    """A file that may not be read: outside the allowed folders, not a regular file, or too large."""


@contextlib.contextmanager
def allowing(folders: Iterable[str | Path]) -> Iterator[tuple[Path, ...]]:
    """Allow reading inside ``folders`` (and their sub-folders) for the duration of the block.

    >>> with allowing(["/srv/shared"]) as allowed:
    ...     Path("/srv/shared") in allowed_folders()
    True
    >>> Path("/srv/shared") in allowed_folders()
    False
    """
    added = tuple(Path(folder).expanduser().resolve() for folder in folders)
    token = _ALLOWED.set(_ALLOWED.get() + added)
    try:
        yield _ALLOWED.get()
    finally:
        _ALLOWED.reset(token)


def allowed_folders() -> tuple[Path, ...]:
    """The folders allowed by the enclosing :func:`allowing` blocks (not the built-in rulesets)."""
    return _ALLOWED.get()


def roots_for(folder: Path) -> tuple[Path, ...]:
    """Where files named from ``folder`` may be: its tree, the built-in rulesets, the allowed folders."""
    return (folder.resolve(), rulesets_dir().resolve(), *allowed_folders())


def resolved(path: Path) -> Path:
    """``path`` with its symbolic links followed; OSError when they lead round in a loop (``Path.resolve`` raises
    RuntimeError for that before Python 3.13).

    >>> import tempfile
    >>> link = Path(tempfile.mkdtemp()) / "loop.yaml"
    >>> link.symlink_to(link.name)
    >>> resolved(link)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    OSError: [Errno 40] Too many levels of symbolic links: '.../loop.yaml'
    """
    try:
        return path.resolve()
    except RuntimeError:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from None


def outside(path: Path, roots: Sequence[Path]) -> Path | None:
    """``path`` resolved (symbolic links followed) when it is outside every root, else None."""
    found = resolved(path)
    return None if any(found.is_relative_to(root) for root in roots) else found


def check_inside(path: Path, roots: Sequence[Path], what: str, written: str | None = None) -> Path:
    """``path`` resolved, or FileRefused when outside ``roots`` (or when its symbolic links lead round in a loop).

    The refusal names ``what`` and the path (as ``written``, if given), never the file's content.
    """
    try:
        far = outside(path, roots)
    except UnicodeError:  # a lone surrogate (a JSON file's "\ud800"), which no file name's bytes can say
        shown = written or str(path)
        lone = next((f"U+{ord(c):04X}" for c in shown if 0xD800 <= ord(c) <= 0xDFFF), "a character")
        raise FileRefused(f"{what} '{cut(shown, 200)}' is not a file name (it holds {lone}, half of a character "
                          "that no text can hold alone)") from None
    except ValueError:  # a NUL character, which no file name holds
        raise FileRefused(f"{what} '{cut(written or str(path), 200)}' is not a file name (it holds a NUL character)") from None
    except OSError as err:  # symbolic links in a loop
        raise FileRefused(f"{what} '{cut(written or str(path), 200)}' cannot be read: {err.strerror}") from None
    if far is None:
        return resolved(path)
    raise FileRefused(f"{what} '{written or path}' is outside the folders it may be read from ({ALLOW_HINT})")


def check_named_ruleset(ruleset: Path, folder: Path, what: str, written: str | None = None) -> Path:
    """The ruleset named by a replay, save or scenario in ``folder``, refused outside its places.

    Besides the allowed folders of ``folder`` (see :func:`roots_for`), a
    scenario kept in a ruleset's folder may name that ruleset
    (``ruleset: ..`` from ``my-game/scenarios/``), and a log may name a
    ruleset in the folder tree Rulecraft runs in (``check --save failures/``
    then ``replay`` from the project's folder).  Anything else needs
    ``--allow``; ``/etc/passwd`` or a link to it is refused unread.

    >>> check_named_ruleset(Path("/etc/passwd"), Path("/tmp/logs"), "ruleset")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.confine.FileRefused: ruleset '/etc/passwd' is outside the folders it may be read from ...
    """
    owner = folder.resolve().parent
    try:
        found = resolved(ruleset)
    except (ValueError, OSError):  # a NUL character, links in a loop: check_inside says which
        found = None
    if found in (owner, owner / RULESET_FILE) and (owner / RULESET_FILE).is_file():
        return found
    return check_inside(ruleset, (*roots_for(folder), Path.cwd().resolve()), what, written)


def check_name_inside(named: str, folder: Path, what: str) -> None:
    """Refuse (FileRefused) the ruleset a replay, save or scenario in ``folder`` names when the path it writes leads
    outside its places (see :func:`check_named_ruleset`), before anything there is looked at: a folder or file
    outside is refused alike whether it exists, holds a ruleset or not, so the refusal tells nothing of what lies
    there.  A built-in name passes (it names no path).

    >>> check_name_inside("../../../../root", Path("/tmp/logs"), "ruleset")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.confine.FileRefused: ruleset '../../../../root' is outside the folders it may be read from ...
    """
    if named in builtin_names() or not named.strip():
        return
    check_named_ruleset(folder / Path(named).expanduser(), folder, what, named)


def read_bytes(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; FileRefused otherwise, OSError when unreadable.

    The file is opened without blocking, so a FIFO is refused at once.

    >>> read_bytes(Path("/dev/null"), 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.confine.FileRefused: cannot read '/dev/null': not a regular file ...
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as file:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise FileRefused(f"cannot read '{path}': not a regular file (a {what} must be a file)")
        _check_size(path, status.st_size, limit, what)
        data = file.read(limit + 1)  # the file may have grown since fstat()
    _check_size(path, len(data), limit, what)
    return data


def _check_size(path: Path, size: int, limit: int, what: str) -> None:
    if size > limit:
        most = _megabytes(limit)
        raise FileRefused(f"'{path}' is larger than {most} ({size:,} bytes): a {what} is at most {most}")


def _megabytes(limit: int) -> str:
    """``5 MB`` for 5 MiB; ``1000 bytes`` below one MB.

    >>> _megabytes(5 * 1024 * 1024), _megabytes(1000)
    ('5 MB', '1,000 bytes')
    """
    mb = limit / (1024 * 1024)
    return f"{mb:g} MB" if mb >= 1 else f"{limit:,} bytes"
