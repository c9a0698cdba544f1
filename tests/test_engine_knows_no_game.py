"""The engine knows no game: no word of a shipped game appears in engine/ or cli/ (code, docstrings, comments)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from engine.core.compose import compose
from engine.core.paths import builtin_names, find_ruleset
from tests.conftest import shipped_game

ROOT = Path(__file__).resolve().parent.parent

GAME_WORDS = (
    # the Iconoclasm games, Iconica and the Nine Domains
    "fire", "water", "earth", "air", "spirit", "deity", "deities", "iconoclasm", "iconica", "icon", "icons",
    "poison", "siphon", "sarion", "legion", "protectorate", r"nine.domains", "domain", "domains",
    "health", "parry", "parries", "parried", "reaction", "reactions", "skull", "skulls", "skulled",
    "nullifier", "nullifiers", "antidote", "clarity", "courage", "evasion",
    "party", "parties", "roster", "fallen", "altar", "altars", "shrine", "shrines",
    "volcano", "glacier", "meadow", "dusk", "twilight", "element", "elements",
    # banner-clash
    "vigour",
    # Spell Cycles
    r"spell.cycles", "spell", "spells", "essence", "crescent", "crescents", "cauldron", "apothecary", "prestige",
    "pyramid", "pyramids", "knucklebone", "mage", "mages", "certificate", "certificates",
    "red", "yellow", "green", "blue", "white", "black",
    # the classics
    r"tic.tac.toe", r"connect.four", "othello", "breakthrough", "kuhn", "poker", "liar", "liars", "jack", "queen", "king",
    "clubs", "diamonds", "hearts", "spades", "stake", "stakes", "cup", "cups", "pawn", "pawns",
    # what other games call the same things: no shipped ruleset's, but a game's all the same
    "hp", "mana", "hit points",
)
PATTERN = re.compile(r"\b(" + "|".join(GAME_WORDS) + r")\b", re.IGNORECASE)


def engine_lines() -> Iterator[tuple[str, str]]:
    """(``file:line``, text) of every line of code in engine/ and cli/ (the web page's scripts too)."""
    for folder in ("engine", "cli"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".lark", ".js", ".html"):  # the style sheet's words are CSS's (white-space)
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                yield f"{path.relative_to(ROOT)}:{number}", line


def test_no_game_words_in_engine_or_cli() -> None:
    hits = [f"{where}: {line.strip()}" for where, line in engine_lines() if PATTERN.search(line)]
    assert not hits, "the engine should know no game; these lines name one:\n" + "\n".join(hits)


def test_the_check_finds_game_words() -> None:
    assert PATTERN.search("casting a Spell costs Essence")
    assert PATTERN.search("pay: mana") and PATTERN.search("max: self.hp") and PATTERN.search("c.element == e")
    assert not PATTERN.search("a marker moves along a track of components")


# ---------------------------------------------------------------- every name the shipped rulesets define


NAMED_SECTIONS = ("components", "zones", "counters", "statuses", "options", "variants", "functions", "meters", "shapes",
                  "clash_tables", "support_tables", "goals")


def ruleset_words() -> set[str]:
    """Every name a shipped ruleset defines: its own, its types and their values, its components, zones,
    counters, statuses, options, variants, functions, meters, shapes, tables and goals, its attributes and
    kinds of tile, and the names of its pieces."""
    words: set[str] = set()
    for name in builtin_names():
        game = shipped_game(name)
        tree = compose(find_ruleset(name))
        words.add(name)
        words.update(game.types)
        for values in game.types.values():
            words.update(values)
        words.update(game.piece_names)
        words.update(game.attributes)
        for section in NAMED_SECTIONS:
            words.update(str(key).split("(")[0] for key in tree.get(section) or ())  # a function without its parameters
        if game.parts.get("meter") is not None:
            words.update(game.parts.get("meter").kinds)
    return {w for w in words if len(w) > 2}


def engine_keys() -> set[str]:
    """Every key the engine's schemas define (``tie_breaks``, ``first_seat``): the engine's words, which a
    ruleset may also use as its own names."""
    from engine.compiling.schema import schema_text

    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("properties", "$defs") and isinstance(value, dict):
                    found.update(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for kind in ("ruleset", "fragment", "scenario"):
        walk(json.loads(schema_text(kind)))
    return found


def coined(word: str) -> bool:
    """A name a game made up, not a word of plain English: capitalised (``Kestra``, ``Fire``), or joined from
    parts (``final_act``, ``pile1``, ``Fire/Water``, ``iconoclasm-cards``).

    The plain lower-case words rulesets also use (``line``, ``hand``, ``action``) are checked through
    GAME_WORDS above, which lists the ones that belong to a game (``health``, ``parry``, ``antidote``).

    >>> coined("Kestra"), coined("final_act"), coined("line")
    (True, True, False)
    """
    return word[0].isupper() or re.search(r"[\d_/-]", word) is not None


def test_no_name_a_ruleset_coins_in_engine_or_cli() -> None:
    words = sorted(set(filter(coined, ruleset_words())) - engine_keys(), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, words)) + r")(?![\w/-])")
    found = [f"{where}: '{m.group(1)}': {line.strip()}" for where, line in engine_lines() for m in pattern.finditer(line)]
    assert not found, "names a shipped ruleset coins, in the engine:\n" + "\n".join(found)


def test_every_plain_word_of_a_game_is_listed() -> None:
    """The lower-case names of a game's own things are in GAME_WORDS, so no plain word of a game slips through."""
    own = {"health", "parry", "reaction", "antidote", "courage", "evasion", "clarity", "volcano", "glacier", "meadow",
           "essence", "crescents", "prestige", "cauldron", "apothecary", "spell", "pyramid", "certificate", "domain",
           "party", "roster", "fallen", "altar", "shrine", "twilight", "dusk", "stake", "cup", "pawn", "clubs", "hearts"}
    assert own <= ruleset_words()
    assert all(PATTERN.fullmatch(word) for word in own)


def test_the_ruleset_words_include_names_of_every_game() -> None:
    assert {"iconica", "Legion", "Poison", "Kestra", "antidote", "Fire", "volcano", "party", "health", "essence"} <= ruleset_words()
    assert {"Kestra", "Fire", "final_act", "pile1", "iconoclasm-cards"} <= set(filter(coined, ruleset_words()))
    # options, variants, functions, attributes and tables too: the names the schemas' examples once borrowed
    assert {"grid_width", "rank_points", "recolour_price", "element-clash", "last-spirit-ends", "start_essence"} <= ruleset_words()
    assert "first_seat" in engine_keys()  # a key of the engine's (and an option's name): not a game's word
