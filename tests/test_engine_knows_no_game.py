"""The engine knows no game: no word of a shipped game appears in engine/ or cli/ (code, docstrings, comments)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAME_WORDS = (
    # the Iconoclasm games, Iconica and the Nine Domains
    "fire", "water", "earth", "air", "spirit", "deity", "deities", "iconoclasm", "iconica", "icon", "icons",
    "poison", "siphon", "sarion", "legion", "protectorate", r"nine.domains",
    # Spell Cycles
    r"spell.cycles", "spell", "spells", "essence", "crescent", "crescents", "cauldron", "apothecary", "prestige",
    "pyramid", "pyramids", "knucklebone", "mage", "mages",
    "red", "yellow", "green", "blue", "white", "black",
)
PATTERN = re.compile(r"\b(" + "|".join(GAME_WORDS) + r")\b", re.IGNORECASE)


def test_no_game_words_in_engine_or_cli() -> None:
    hits = []
    for folder in ("engine", "cli"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".lark") or "_builtin" in path.parts:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if PATTERN.search(line):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "the engine should know no game; these lines name one:\n" + "\n".join(hits)


def test_the_check_finds_game_words() -> None:
    assert PATTERN.search("casting a Spell costs Essence")
    assert not PATTERN.search("a marker moves along a track of components")
