"""The one load pipeline: compose the YAML, check it against the schema, compile it.

``engine.load`` (names and paths), scenario files and ``rulecraft validate``
all go through :func:`load_path`, so they accept and refuse exactly the same
rulesets.

>>> parse_variants("short+duel")
['short', 'duel']
>>> parse_variants(["a+b", "c"])
['a', 'b', 'c']
>>> parse_set_options(["width=4", "title = A short game"])
{'width': '4', 'title': 'A short game'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.compiling.blame import blame_extension
from engine.compiling.builder import build_game
from engine.compiling.schema import check_schema
from engine.core.compose import compose
from engine.core.errors import RulesetError
from engine.core.paths import find_ruleset
from engine.model.game import Game


def parse_variants(variant: str | Sequence[str] | None) -> list[str]:
    """Variant names from ``a+b`` text, a list of such texts, or nothing."""
    if variant is None:
        return []
    texts = [variant] if isinstance(variant, str) else list(variant)
    return [name for text in texts for name in str(text).split("+") if name]


def parse_set_options(texts: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` texts (``--set``) as a mapping; ValueError names a text without ``=`` or name.

    A name given twice keeps its last value.
    """
    result: dict[str, str] = {}
    for text in texts:
        name, equals, value = str(text).partition("=")
        if not equals or not name.strip():
            raise ValueError(f"'{text}' is not NAME=VALUE (for example width=4)")
        result.pop(name.strip(), None)
        result[name.strip()] = value.strip()
    return result


def load_path(path: str | Path, variants: Sequence[str] = (), set_options: Mapping[str, str] | None = None) -> Game:
    """Compose, schema-check and compile the ruleset at ``path``; RulesetError lists every problem.

    A problem in a ruleset that ``path`` extends is reported at the line of ``path`` that caused it
    (see engine.compiling.blame).
    """
    try:
        tree = compose(path, variants, set_options=set_options)
        check_schema(tree, "ruleset")
        return build_game(tree)
    except RulesetError as err:
        raise blame_extension(Path(path), err) from None


def load(
    name_or_path: str | Path, variant: str | Sequence[str] | None = None, set_options: Mapping[str, str] | None = None
) -> Game:
    """Load, validate and compile a ruleset (a built-in name or a path).

    ``variant`` is one variant name, several joined by '+' (``duel+short``), or a
    list of names; they are applied in order.  ``set_options`` maps option
    names to values written as in YAML (``{"width": "4"}``); they replace
    the options' defaults, after the variants.
    """
    return load_path(find_ruleset(str(name_or_path)), parse_variants(variant), set_options)
