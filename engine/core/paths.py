"""Finding rulesets and schemas: built-in names and paths.

The built-in rulesets and schemas live at the top of a source checkout
(``<repo>/rulesets``, ``<repo>/schemas``); an installed wheel ships them inside
the package as ``engine/_builtin/rulesets`` and ``engine/_builtin/schemas``.

>>> find_ruleset(builtin_names()[0]).name
'ruleset.yaml'
"""

from __future__ import annotations

import fnmatch
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core.errors import RulesetError

_ENGINE_DIR = Path(__file__).resolve().parent.parent
RULESET_FILE = "ruleset.yaml"


def _data_dir(name: str) -> Path:
    """``engine/_builtin/<name>`` in an installed wheel, else ``<repo>/<name>``."""
    shipped = _ENGINE_DIR / "_builtin" / name
    return shipped if shipped.is_dir() else _ENGINE_DIR.parent / name


def rulesets_dir() -> Path:
    """The directory holding the built-in rulesets, one sub-directory each."""
    return _data_dir("rulesets")


def schemas_dir() -> Path:
    """The directory holding the JSON Schemas."""
    return _data_dir("schemas")


def builtin_names() -> list[str]:
    """Sorted names of the built-in rulesets (directories with a ``ruleset.yaml``).

    >>> len(builtin_names()) > 0
    True
    """
    root = rulesets_dir()
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir() if (d / RULESET_FILE).is_file())


def find_ruleset(name_or_path: str | os.PathLike[str], relative_to: Path | None = None) -> Path:
    """The ruleset file for a built-in name, a file, or a directory holding ``ruleset.yaml``.

    A built-in name wins over a path of the same spelling. Relative paths are
    tried against ``relative_to`` (a directory) first, then the working
    directory. Raises :class:`RulesetError` (without a position) when nothing
    matches, with a "did you mean" over the built-in names.

    >>> find_ruleset("no-such-game")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.errors.RulesetError: unknown ruleset 'no-such-game': ...
    >>> name = builtin_names()[0]
    >>> find_ruleset(Path(name)) == find_ruleset(name)
    True
    """
    name_or_path = os.fspath(name_or_path)  # a path object (Path("my-game")) reads as its text
    names = builtin_names()
    if name_or_path in names:
        return rulesets_dir() / name_or_path / RULESET_FILE
    if not name_or_path.strip():
        raise _refused(f"no ruleset named: give a built-in name ({', '.join(names) or 'none'}) or a path")
    for candidate in _candidates(Path(name_or_path).expanduser(), relative_to):
        if candidate.is_file():
            return _tidy(candidate)
        if candidate.is_dir():
            return _ruleset_in(_tidy(candidate))
        if candidate.exists():
            raise _refused(f"'{name_or_path}' is not a ruleset file or a folder holding {RULESET_FILE}")
    from engine.core.errors import did_you_mean

    raise _refused(
        f"unknown ruleset '{name_or_path}': no such file or directory, and no built-in "
        f"ruleset of that name (built-in: {', '.join(names) or 'none'})",
        did_you_mean(name_or_path, names) or in_own_folder(name_or_path),
    )


def in_own_folder(name_or_path: str) -> str | None:
    """For a relative path into Rulecraft's own folder (``docs/examples/...`` of a clone) written elsewhere: its full
    path, else None.

    >>> in_own_folder("docs/examples/" + "no-such-example") is None, in_own_folder("/no/such") is None
    (True, True)
    """
    path = Path(name_or_path)
    own = rulesets_dir().parent / path
    if path.is_absolute() or not ((own / RULESET_FILE).is_file() or (own.is_file() and own.suffix == ".yaml")):
        return None
    return f"it is in Rulecraft's own folder: give its whole path, {own}"


def files_below(folder: Path, pattern: str) -> list[Path]:
    """The paths below ``folder`` whose names match ``pattern`` (``*.yaml``), sorted, as ``sorted(folder.rglob(pattern))``
    finds them, but a folder that cannot be listed, or that another process removes or replaces while the walk goes
    on, is passed over: ``rglob`` stopped with FileNotFoundError there (``rulecraft check /`` meets ``/proc``'s
    folders of processes that end); symbolic links to folders are named, not followed.

    >>> import tempfile
    >>> top = Path(tempfile.mkdtemp())
    >>> for name in ("a/x.yaml", "b/c/y.yaml", "b/z.txt"):
    ...     (top / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (top / name).write_text("")
    >>> [p.relative_to(top).as_posix() for p in files_below(top, "*.yaml")]
    ['a/x.yaml', 'b/c/y.yaml']
    """
    found: list[Path] = []
    for parent, folders, files in os.walk(folder, onerror=lambda err: None):
        found += [Path(parent, name) for name in folders + files if fnmatch.fnmatchcase(name, pattern)]
    return sorted(found)


def _tidy(path: Path) -> Path:
    """``path`` without its ``..`` and ``.`` parts when that names the same file (``scenarios/../ruleset.yaml`` is
    ``ruleset.yaml``, as errors then say), else as it is (a ``..`` after a link goes up from the link's target).

    >>> str(_tidy(Path(__file__).parent / ".." / "core" / "paths.py")) == __file__
    True
    """
    tidy = Path(os.path.normpath(path))
    try:
        return tidy if tidy.samefile(path) else path
    except OSError:
        return path


def _candidates(path: Path, relative_to: Path | None) -> list[Path]:
    if path.is_absolute() or relative_to is None:
        return [path]
    return [relative_to / path, path]


def _ruleset_in(directory: Path) -> Path:
    ruleset = directory / RULESET_FILE
    if not ruleset.is_file():
        raise _refused(f"directory '{directory}' has no {RULESET_FILE}")
    return ruleset


def _refused(message: str, hint: str | None = None) -> RulesetError:
    """A :class:`RulesetError` without a position (the errors load only when one is raised: ``rulecraft list`` needs none)."""
    from engine.core.errors import RulesetError

    return RulesetError.at(None, message, hint)


def cache_dir() -> Path:
    """Where Rulecraft keeps what it may compute again: ``$XDG_CACHE_HOME/rulecraft``, else ``~/.cache/rulecraft``.
    A relative ``$XDG_CACHE_HOME`` is ignored, as the XDG specification asks: it would keep a cache in every folder
    a command is run from.

    >>> cache_dir().is_absolute() or not Path.home().is_absolute()
    True
    """
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "rulecraft"


def private_cache_dir() -> Path | None:
    """:func:`cache_dir`, made if missing, when only this user may write in it (None otherwise, or when it cannot
    be made): what is read back from it may be trusted as this user's own.

    >>> folder = private_cache_dir()
    >>> folder is None or not folder.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    True
    """
    folder = cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = folder.stat()
    except (OSError, RuntimeError):  # no home folder, read-only file system, ...
        return None
    mine = not hasattr(os, "getuid") or status.st_uid == os.getuid()
    if not stat.S_ISDIR(status.st_mode) or not mine or status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return folder
