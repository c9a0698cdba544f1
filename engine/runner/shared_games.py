"""Games compiled once for everything a run checks: the scenarios of a folder, and the rulesets they play.

``rulecraft check`` and ``rulecraft validate`` of a folder play one game in many files (a folder of thirty
scenarios of one game compiled it thirty times, and ``validate`` compiled it once more for the ruleset itself).
Inside :func:`one_compile_per_game`, :func:`compiled` compiles a ruleset with given variants and options once;
outside it, every call compiles its own.  A game is never changed by what plays it (each game plays its own states),
so sharing one changes no result; files edited while it lasts are not read again.

Example::

    with one_compile_per_game():
        first = compiled(Path("rulesets/my-game/ruleset.yaml"))
        assert compiled(Path("rulesets/my-game/ruleset.yaml")) is first
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from engine.compiling.loading import load_path
from engine.model.game import Game

_GAMES: ContextVar[dict[tuple[object, ...], Game] | None] = ContextVar("shared_games", default=None)
"""The games compiled so far inside :func:`one_compile_per_game` (None outside it: each caller compiles its own)."""


@contextmanager
def one_compile_per_game() -> Iterator[None]:
    """Inside it, :func:`compiled` compiles a ruleset with the same variants and options (set by the same hand)
    once for every caller.

    >>> from engine.core.paths import builtin_names, find_ruleset
    >>> path = find_ruleset(builtin_names()[0])
    >>> with one_compile_per_game():
    ...     compiled(path) is compiled(path)
    True
    >>> compiled(path) is compiled(path)
    False
    """
    token = _GAMES.set({})
    try:
        yield
    finally:
        _GAMES.reset(token)


def compiled(ruleset: Path, variants: Sequence[str] = (), options: Mapping[str, str] | None = None,
             set_by: Mapping[str, str] | None = None) -> Game:
    """``load_path(ruleset, variants, options, set_by)``, or the game it gave before inside
    :func:`one_compile_per_game`."""
    games = _GAMES.get()
    if games is None:
        return load_path(ruleset, variants, options, set_by)
    key = (str(ruleset.resolve()), tuple(variants), tuple(sorted((options or {}).items())),
           tuple(sorted((set_by or {}).items())))
    if key not in games:
        games[key] = load_path(ruleset, variants, options, set_by)
    return games[key]
