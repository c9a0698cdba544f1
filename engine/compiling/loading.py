"""The one load pipeline: compose the YAML, check it against the schema, compile it.

``engine.load`` (names and paths), scenario files and ``rulecraft validate``
all go through :func:`load_path`, so they accept and refuse exactly the same
rulesets.

A compiled game holds compiled code, which ``pickle`` cannot write; it is
sent to another process as a :class:`GameRef` (what it was loaded from) and
loaded again there, refused if its files changed since.  ``pickle.dumps(game)``
does this by itself, so a game can be an argument of a ``multiprocessing``
or Ray task.

>>> parse_variants("short+duel")
['short', 'duel']
>>> parse_variants(["a+b", "c"])
['a', 'b', 'c']
>>> parse_set_options(["width=4", "title = A short game"])
{'width': '4', 'title': 'A short game'}
"""

from __future__ import annotations

import copyreg
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.compiling.blame import blame_extension
from engine.compiling.builder import build_game
from engine.compiling.schema import check_schema
from engine.core import limits
from engine.core.atomic import keep_yaml_in
from engine.core.compose import compose
from engine.core.confine import allowed_folders, allowing
from engine.core.errors import RulecraftError, RulesetError
from engine.core.paths import RULESET_FILE, find_ruleset, rulesets_dir
from engine.core.showtext import cut
from engine.model.game import Game


def parse_variants(variant: str | Sequence[str] | None) -> list[str]:
    """Variant names from ``a+b`` text, a list of such texts, or nothing; TypeError for anything else.

    Spaces around a name are dropped and a text that is empty or blank names no variant (an empty form field); a
    name left empty beside a '+' (``a+``, ``+``) or given twice (``a+a``, or ``a`` in two texts) is refused with
    RulesetError, whichever command, page or game string named it.

    >>> parse_variants("a+b"), parse_variants(["a", " b "]), parse_variants(None), parse_variants("")
    (['a', 'b'], ['a', 'b'], [], [])
    >>> parse_variants("a+")
    Traceback (most recent call last):
    engine.core.errors.RulesetError: 'a+' leaves a variant name empty: variants are names joined by '+' (a+b), a name on each side of every '+'
    >>> parse_variants(["a", "b+a"])
    Traceback (most recent call last):
    engine.core.errors.RulesetError: variant 'a' is given twice: give it once
    >>> parse_variants(3)
    Traceback (most recent call last):
    TypeError: the variants are a name ('a'), names joined by '+' ('a+b') or a list of names, not int 3
    """
    if variant is None:
        return []
    if not isinstance(variant, (str, list, tuple)) or not all(isinstance(v, str) for v in variant):
        raise TypeError(f"the variants are a name ('a'), names joined by '+' ('a+b') or a list of names, "
                        f"not {type(variant).__name__} {cut(repr(variant), 60)}")
    names: list[str] = []
    for text in [variant] if isinstance(variant, str) else variant:
        parts = [part.strip() for part in text.split("+")] if text.strip() else []
        if "" in parts:
            raise RulesetError.at(None, f"{cut(repr(text), 60)} leaves a variant name empty: variants are names "
                                  "joined by '+' (a+b), a name on each side of every '+'")
        for name in parts:
            if name in names:
                raise RulesetError.at(None, f"variant {cut(repr(name), 60)} is given twice: give it once")
            names.append(name)
    return names


def parse_set_options(texts: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` texts (``--set``) as a mapping; ValueError names a text without ``=`` or name, and a name
    given two values (which one was meant cannot be told; the same value again is no harm).

    >>> parse_set_options(["need=1", "need=5"])
    Traceback (most recent call last):
    ValueError: need is set twice, to 1 and to 5: give it once
    """
    result: dict[str, str] = {}
    for text in texts:
        name, equals, value = str(text).partition("=")
        if not equals or not name.strip():
            raise ValueError(f"'{text}' is not NAME=VALUE (for example width=4)")
        name, value = name.strip(), value.strip()
        if result.get(name, value) != value:
            raise ValueError(f"{name} is set twice, to {result[name]} and to {value}: give it once")
        result[name] = value
    return result


def load_path(
    path: str | Path, variants: Sequence[str] = (), set_options: Mapping[str, str] | None = None,
    set_by: Mapping[str, str] | None = None,
) -> Game:
    """Compose, schema-check and compile the ruleset at ``path``; RulesetError lists every problem.

    A problem in a ruleset that ``path`` extends is reported at the line of ``path`` that caused it
    (see engine.compiling.blame).
    """
    keep_yaml_in(Path(path).parent)  # no log or report written later by this process replaces its files
    try:
        tree = compose(path, variants, set_options=set_options, set_by=set_by)
        check_schema(tree, "ruleset")
        return build_game(tree)
    except RulesetError as err:
        raise blame_extension(Path(path), err) from None


def load(
    name_or_path: str | os.PathLike[str], variant: str | Sequence[str] | None = None, set_options: Mapping[str, str] | None = None,
    set_by: Mapping[str, str] | None = None, *, variants: str | Sequence[str] | None = None,
) -> Game:
    """Load, validate and compile a ruleset (a built-in name or a path).

    ``variant`` is one variant name, several joined by '+' (``duel+short``), or a
    list of names; they are applied in order (``variants=`` is the same, named as
    :attr:`Game.variants` names them).  ``set_options`` maps option
    names to values written as in YAML (``{"width": "4"}``); they replace
    the options' defaults, after the variants.  A wrong value is reported at
    ``set_options['NAME']``, or, for an option set on the command line, at
    ``set_by[NAME] NAME`` (``{"width": "--set"}``).
    """
    if variants is not None:
        if variant is not None:
            raise TypeError("load() takes variant or variants (the same thing), not both")
        variant = variants
    try:
        path = find_ruleset(os.fspath(name_or_path))
    except OSError as err:  # a name too long for the file system
        raise RulesetError.at(None, f"ruleset '{cut(os.fspath(name_or_path), 200)}' cannot be read: {err.strerror}") from None
    return load_path(path, parse_variants(variant), set_options, set_by)


@dataclass(frozen=True)
class GameRef:
    """What a compiled game was loaded from, by value: enough to load it again in any process.

    Typical use (a worker that did not load the game itself)::

        ref = GameRef.of(game)         # picklable: paths, names and numbers
        same = ref.load()              # RulecraftError if the files changed since
    """

    source: str  # a built-in ruleset's name (found wherever the package is installed), else its file's path
    variants: tuple[str, ...]
    content_hash: str
    set_options: tuple[tuple[str, str], ...] = ()  # options set from outside the files (``--set``)
    limits: tuple[tuple[str, int], ...] = ()  # the budgets that differ from the defaults (``--limit``)
    allowed: tuple[str, ...] = ()  # folders the ruleset may read besides its own (``--allow``)

    @classmethod
    def of(cls, game: Game) -> GameRef:
        """The reference of ``game``, with the folders it was loaded with leave to read and those this process
        allows now (a game loaded inside ``allowing([...])`` is loaded again with them, after the block too).

        A file is referred to by its absolute path, so a process working in another folder (a pool, a
        cluster's worker) loads the same file: ``GameRef.of(engine.load("my-game")).source`` is
        ``/home/me/my-game/ruleset.yaml`` when loaded from ``/home/me``.
        """
        path = Path(game.source)
        builtin = path.name == RULESET_FILE and path.parent.parent == rulesets_dir()
        return cls(path.parent.name if builtin else str(path.absolute()), tuple(game.variants), game.content_hash,
                   tuple(game.set_options.items()), limits.as_pairs(game.limits),
                   tuple(dict.fromkeys(map(str, (*game.allowed, *allowed_folders())))))

    def load(self) -> Game:
        """The game, loaded at most once per process (or the one :func:`keeping` lent).

        Refused with a RulecraftError (not a RulesetError, whose positions do
        not survive pickling) when the ruleset no longer loads or its content
        changed since the reference was taken.
        """
        game = _loaded.get(self.key)
        if game is not None:
            return game
        try:
            with limits.using(limits.Limits(**dict(self.limits))), allowing(self.allowed):
                game = load(self.source, list(self.variants), dict(self.set_options))
        except RulesetError as err:
            raise RulecraftError(err.format()) from None
        if game.content_hash != self.content_hash:
            raise RulecraftError(f"{self.source} changed since the game was loaded "
                                 f"(content hash {self.content_hash} then, {game.content_hash} now)")
        if len(_loaded) >= _KEPT:
            del _loaded[next(iter(_loaded))]
        _loaded[self.key] = game
        return game

    @property
    def key(self) -> tuple[str, tuple[str, ...], str, tuple[tuple[str, str], ...]]:
        """What tells two loaded games apart: the file, variants, content and options set from outside."""
        return (self.source, self.variants, self.content_hash, self.set_options)


_KEPT = 8
"""How many games a process keeps loaded from references (the oldest goes first)."""

_loaded: dict[tuple[str, tuple[str, ...], str, tuple[tuple[str, str], ...]], Game] = {}


@contextmanager
def keeping(game: Game) -> Iterator[GameRef]:
    """Lend ``game`` to :meth:`GameRef.load` in this process (and workers forked from it) while the block runs.

    A simulation lends its own game, so its chunks played here or in forked
    workers need no reload::

        with keeping(game) as ref:
            executor.map(play_chunk, [Chunk(ref, ...), ...])
    """
    ref = GameRef.of(game)
    before = _loaded.get(ref.key)
    _loaded[ref.key] = game
    try:
        yield ref
    finally:
        if before is None:
            _loaded.pop(ref.key, None)
        else:
            _loaded[ref.key] = before


def _reduce(game: Game) -> tuple[object, tuple[GameRef]]:
    """How pickle writes a compiled game: its reference, loaded again when read."""
    return GameRef.load, (GameRef.of(game),)


copyreg.pickle(Game, _reduce)
