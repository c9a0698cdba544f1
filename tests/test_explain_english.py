"""``rulecraft explain`` prints English: no effect-language code is left in the summary of any shipped
ruleset (with each variant) or on any component's card.

The check looks for what code looks like and English does not: comparison and
assignment operators, calls (``name(``), attribute access (``c.element``),
identifiers joined by ``_`` that are not the ruleset's own words (a designer's
option or counter name is fine; ``current_role`` is not), doubled articles
left by code read out word for word ("move every the ..."), "of seat the
seat of", and conditions that are constants ("when false").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.explain import explain, explain_component
import engine
from engine.compiling.vocabulary import BUILT_IN_NAMES, built_in_functions
from engine.core.compose import compose
from engine.core.yamlsource import Mapping, Sequence
from engine.lang.defined import parse_signature

CODE: list[tuple[str, re.Pattern[str]]] = [
    ("an operator", re.compile(r"==|!=|<=|>=|\+=|-=|\*=|&&|\|\||->")),
    ("a comparison sign", re.compile(r"\s[<>]\s")),
    ("a call", re.compile(r"\b[A-Za-z_]\w*\(")),
    ("an attribute access", re.compile(r"\b[a-z_]\w*\.[a-z_]\w*")),
    ("an identifier", re.compile(r"\b[A-Za-z][A-Za-z0-9]*_\w+")),
    ("words read out from code",
     re.compile(r"\b(the|a|an|every|each) (the|an|every|each)\b|\bthe first (the|an?|every|1 of)\b|\b(seat|role) the\b"
                r"|\b(of|for|to|by|in|at|on|from|with) of\b")),
    ("a constant condition", re.compile(r"\b(when|if|while) (true|false)\b")),
]


def own_words(game: engine.Game) -> set[str]:
    """Every name the ruleset itself writes (keys, one-word values, its functions' names), minus the engine's."""
    words: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                signature = parse_signature(str(key))
                words.add(signature[0] if signature else str(key).rstrip("+-"))
                walk(value)
        elif isinstance(node, Sequence):
            for value in node:
                walk(value)
        elif isinstance(node, str) and re.fullmatch(r"[A-Za-z_][\w-]*", node):
            words.add(node)

    walk(compose(game.source))
    return words - set(BUILT_IN_NAMES) - set(built_in_functions())


def leftover_code(text: str, own: set[str]) -> list[str]:
    """What in ``text`` looks like code rather than English (an identifier of the ruleset's own is English here)."""
    found = []
    for what, pattern in CODE:
        for m in pattern.finditer(text):
            if what == "an identifier" and m.group(0) in own:
                continue
            found.append(f"{what} '{m.group(0)}'")
    return found


# ---------------------------------------------------------------- the check itself


@pytest.mark.parametrize("text", [
    "when false, or after 1000 turns",
    "move the first the number of c in supply where the deity of c is d minus supply_size of c",
    "essence(r) += 1 essence(current_role) += 2",
    "alive(c) = c != none and owner(c) != none and health(c) > 0",
    "move every the q in cauldron chosen by the current player",
    "the team of seat the seat of the owner of c",
    "other.id == \"5\"",
    "add 1 to the essence of current_role",
    "health(c) < c.health",
    "move the first 1 of c in supply to the hand of r",
    "champion of of r",
])
def test_the_check_catches_code(text: str) -> None:
    assert leftover_code(text, {"supply_size", "essence"}) != []


@pytest.mark.parametrize("text", [
    "grid_width = 7: The widest the grid of cards may grow (columns).",
    "add 1 to the essence of the current role (only if the number of players is 1)",
    "for each a in ally of this character: heal a by 20 (with the white or black die)",
    "points by rank: 4, 3, 2, 1; the seats with the most points win",
])
def test_the_check_lets_english_and_the_rulesets_own_words_pass(text: str) -> None:
    assert leftover_code(text, {"grid_width"}) == []


# ---------------------------------------------------------------- every shipped ruleset


def _runs() -> list[tuple[str, str | None]]:
    runs: list[tuple[str, str | None]] = []
    for name in engine.builtin_names():
        runs.append((name, None))
        runs += [(name, variant) for variant in engine.load(name).available_variants]
    return runs


@pytest.mark.parametrize("name, variant", _runs(), ids=lambda v: v or "as written")
def test_explain_prints_no_code(name: str, variant: str | None) -> None:
    game = engine.load(name, variant)
    own = own_words(game)
    problems = [f"{problem} in: {line.strip()}" for line in explain(game) for problem in leftover_code(line, own)]
    assert problems == []


@pytest.mark.parametrize("name", engine.builtin_names())
def test_every_components_card_prints_no_code(name: str) -> None:
    game = engine.load(name)
    own = own_words(game)
    problems = [
        f"{piece}: {problem} in: {line.strip()}"
        for piece in sorted(set(game.piece_names))
        for line in explain_component(game, piece)
        for problem in leftover_code(line, own)
    ]
    assert problems == []


def test_explain_shows_the_support_table_and_each_spells_cost_and_reward() -> None:
    board = "\n".join(explain(engine.load("iconoclasm")))
    assert "Support tables\n  support:\n    Fire is supported by Air, then Water" in board
    spells = "\n".join(explain(engine.load("spell-cycles")))
    assert "Spark: red, yellow in order on a straight orthogonal or diagonal line of adjacent cells, read from either end; costs 0\n" in spells
    assert "Elbow-Ward: red, blue, green in the shape 'elbow'" in spells and "; costs 0; prestige 4\n" in spells


def test_a_delayed_action_says_whose_turn_it_waits_for() -> None:
    # the later part runs in the actor's opening, not the next player's: "the next turn" would be the opponent's
    game = engine.load("iconica")
    lance = next(line for line in explain_component(game, "Pharaxa") if "Orbital Lance" in line)
    fuse = next(line for line in explain_component(game, "Quill") if "Long Fuse" in line)
    assert "Orbital Lance: at the start of the acting player's next turn, do the later part to" in lance
    assert "Long Fuse: at the start of the acting player's turn, 2 of its turns from now, do the later part" in fuse


def test_an_end_left_to_the_steps_is_said_in_words() -> None:
    assert "End\n  only when a step of the turn ends it (see Turn), or after" in "\n".join(explain(engine.load("iconoclasm")))


def test_an_attribute_named_like_a_counter_is_told_apart() -> None:
    functions = explain(engine.load("iconica"))
    assert "  c is wounded: c is in play and the health of c is less than the printed health of c" in functions


def test_a_function_named_with_a_preposition_reads_without_another_of(tmp_path: Path) -> None:
    # champion_of(r) is "champion of r", not "champion of of r"; a name without one keeps its "of"
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: champions\nextends: tutorial-tiles\nfunctions:\n  champion_of(role r): count(t in board where "
                    "t.symbol == r)\n  tiles_left(role r): count(t in hand(r))\n"
                    "running_score: sum(champion_of(r) + tiles_left(r) for r in roles where seat(r) == me)\n")
    text = "\n".join(explain(engine.load(path)))
    assert "champion of r: " in text and "tiles left of r: " in text
    assert "champion of of" not in text and leftover_code(text, own_words(engine.load(path))) == []


@pytest.mark.parametrize("code, english", [
    ("a and b or c", "(a and b) or c"),
    ("a or b and c", "a or (b and c)"),
    ("a and b and c", "a and b and c"),
    ("x in [1, 2, 3]", "x is one of 1, 2 or 3"),
])
def test_english_keeps_the_grouping_of_the_code(code: str, english: str) -> None:
    from engine.lang.parser import parse_expression

    assert parse_expression(code).describe() == english
