"""The engine knows no game: no word a shipped ruleset defines appears in engine/ or cli/.

The words are every ruleset's name, the values of its types (elements,
factions, races, statuses, ...), its component names and its tile kinds.
Common words that also name generic ideas (``action``, ``status``, a
sign's ``plus``) are allowed; the list says why each is.
"""

from __future__ import annotations

import re
from pathlib import Path

import engine
from engine.paths import builtin_names

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    # generic words that rulesets happen to use as values too
    "action", "status", "reaction", "parry", "final_act",  # where damage comes from: generic meter words
    "plus", "minus", "plain",                               # signs of a symbol
    "seven", "Special", "Regular",                          # plain English
}


def game_words() -> set[str]:
    words: set[str] = set()
    for name in builtin_names():
        game = engine.load(name)
        words.add(name)
        for values in game.types.values():
            words.update(values)
        words.update(game.piece_names)
        if game.meter is not None:
            words.update(game.meter.kinds)
    return {w for w in words if len(w) > 2} - ALLOWED


def test_no_game_words_in_engine_or_cli() -> None:
    words = game_words()
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b")
    found = []
    for folder in ("engine", "cli"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".lark"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in pattern.finditer(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: '{m.group(1)}': {line.strip()}")
    assert not found, "game words in the engine:\n" + "\n".join(found)


def test_the_words_include_the_names_of_every_game() -> None:
    words = game_words()
    assert {"iconica", "Legion", "Poison", "Kestra", "antidote", "Fire", "volcano"} <= words
