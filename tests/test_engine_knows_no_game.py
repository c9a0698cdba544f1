"""The engine knows no game: no word of a shipped game appears in engine/ or cli/ (code, docstrings, comments)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import engine
from engine.paths import builtin_names

ROOT = Path(__file__).resolve().parent.parent

GAME_WORDS = (
    # the Iconoclasm games, Iconica and the Nine Domains
    "fire", "water", "earth", "air", "spirit", "deity", "deities", "iconoclasm", "iconica", "icon", "icons",
    "poison", "siphon", "sarion", "legion", "protectorate", r"nine.domains",
    # Spell Cycles
    r"spell.cycles", "spell", "spells", "essence", "crescent", "crescents", "cauldron", "apothecary", "prestige",
    "pyramid", "pyramids", "knucklebone", "mage", "mages",
    "red", "yellow", "green", "blue", "white", "black",
    # the classics
    r"tic.tac.toe", r"connect.four", "othello", "breakthrough", "kuhn", "poker", "liar", "liars", "jack", "queen", "king",
)
PATTERN = re.compile(r"\b(" + "|".join(GAME_WORDS) + r")\b", re.IGNORECASE)


def engine_lines() -> Iterator[tuple[str, str]]:
    """(``file:line``, text) of every line of code in engine/ and cli/ (the web page's scripts too)."""
    for folder in ("engine", "cli"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".lark", ".js", ".html") or "_builtin" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                yield f"{path.relative_to(ROOT)}:{number}", line


def test_no_game_words_in_engine_or_cli() -> None:
    hits = [f"{where}: {line.strip()}" for where, line in engine_lines() if PATTERN.search(line)]
    assert not hits, "the engine should know no game; these lines name one:\n" + "\n".join(hits)


def test_the_check_finds_game_words() -> None:
    assert PATTERN.search("casting a Spell costs Essence")
    assert not PATTERN.search("a marker moves along a track of components")


# ---------------------------------------------------------------- every word the shipped rulesets define

ALLOWED = {
    # common words that rulesets also use as values, and that name generic ideas in the engine
    "action", "status", "reaction", "parry", "final_act",  # where damage comes from: generic meter words
    "plus", "minus", "plain",                               # signs of a symbol
    "small", "medium", "large",                             # sizes
    "seven", "Special", "Regular",                          # plain English
    "First", "Second", "die", "disc",                       # plain English; dice and discs are generic shapes
}


def ruleset_words() -> set[str]:
    """Every shipped ruleset's name, its types' values, its components' names and its kinds of tile."""
    words: set[str] = set()
    for name in builtin_names():
        game = engine.load(name)
        words.add(name)
        for values in game.types.values():
            words.update(values)
        words.update(game.piece_names)
        if game.parts.get("meter") is not None:
            words.update(game.parts.get("meter").kinds)
    return {w for w in words if len(w) > 2} - ALLOWED


def test_no_word_a_ruleset_defines_in_engine_or_cli() -> None:
    words = ruleset_words()
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b")
    found = [f"{where}: '{m.group(1)}': {line.strip()}" for where, line in engine_lines() for m in pattern.finditer(line)]
    assert not found, "words of a shipped ruleset in the engine:\n" + "\n".join(found)


def test_the_ruleset_words_include_names_of_every_game() -> None:
    assert {"iconica", "Legion", "Poison", "Kestra", "antidote", "Fire", "volcano"} <= ruleset_words()
