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
from tests.conftest import shipped_game

CODE: list[tuple[str, re.Pattern[str]]] = [
    ("an operator", re.compile(r"==|!=|<=|>=|\+=|-=|\*=|&&|\|\||->")),
    ("a comparison sign", re.compile(r"\s[<>]\s")),
    ("a call", re.compile(r"\b[A-Za-z_]\w*\(")),
    ("an attribute access", re.compile(r"\b[a-z_]\w*\.[a-z_]\w*")),
    ("an identifier", re.compile(r"\b[A-Za-z][A-Za-z0-9]*_\w+")),
    ("words read out from code",
     re.compile(r"\b(the|a|an|every|each) (the|an|every|each)\b|\bthe first (the|an?|every|1 of)\b|\b(seat|role) the\b"
                r"|\b(of|for|to|by|in|at|on|from|with) of\b|\bone of [a-z]\w* in\b")),
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
    "one of c in the party of the current role uses any action",
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
        runs += [(name, variant) for variant in shipped_game(name).available_variants]
    return runs


@pytest.mark.parametrize("name, variant", _runs(), ids=lambda v: v or "as written")
def test_explain_prints_no_code(name: str, variant: str | None) -> None:
    game = shipped_game(name, variant)
    own = own_words(game)
    problems = [f"{problem} in: {line.strip()}" for line in explain(game) for problem in leftover_code(line, own)]
    assert problems == []


@pytest.mark.parametrize("name", engine.builtin_names())
def test_every_components_card_prints_no_code(name: str) -> None:
    game = shipped_game(name)
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


def test_setup_says_otherwise_only_after_the_player_counts_it_is_the_other_case_of() -> None:
    # one program for every count was "otherwise: ..." with nothing before it; a default came before the counts
    one = explain(engine.load("tic-tac-toe"))
    assert one[one.index("Setup") + 1].startswith("  for each r in roles: ")
    several = explain(engine.load("iconoclasm-cards"))
    setup = several[several.index("Setup") + 1:several.index("Turn") - 1]
    assert [line.split(":")[0] for line in setup] == ["  1 player", "  3 players", "  otherwise"]


def test_scoring_by_the_ranked_value_says_so_without_the_designers_word_key() -> None:
    # "each scores its first key" is docs/rulesets.md's word for it, not a player's
    lines = explain(engine.load("othello"))
    assert lines[lines.index("Scoring") + 3] == "    each scores what it is ranked by; the seats with the most points win"


def test_a_ranking_key_negated_reads_the_lower_the_better() -> None:
    # "ties broken by minus (the number of s in the pouch of r)": the code's sign read out, not what it means
    glyphs = explain(engine.load("hex-glyphs"))
    assert "    ties broken by the number of s in the pouch of r, the lower the better" in glyphs
    cards = explain(engine.load("iconoclasm-cards"))
    assert "    ties broken by (the turn position of e if e is played by a seat, else 0), the lower the better" in cards
    assert not [line for line in glyphs + cards if "minus (" in line]


def test_a_key_scored_as_it_is_keeps_its_minus(tmp_path: Path) -> None:
    # with `points: key` an item scores its first key: "the lower the better" would hide that the score is negative
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: fewest\nextends: tutorial-tiles\nscoring:\n  rank: s in roles\n"
                    "  by: ['-count(t in hand(s))', '-count(t in board where t.symbol == s)']\n  points: key\n")
    lines = explain(engine.load(path))
    assert "    rank each s in roles by minus (the number of t in the hand of s)" in lines
    assert "    ties broken by the number of t in board where the symbol of t is s, the lower the better" in lines


def test_a_die_rolled_again_says_when_a_value_is_available() -> None:
    # "while the value rolled (outcome) is not available ((...) is more than 0)" read as if more than 0 were unavailable
    line = next(line for line in explain(engine.load("hex-glyphs")) if "roll a 6-sided die" in line)
    assert ("while the value rolled (outcome) is not available (available when (the number of s in bag where the "
            "colour of s is outcome) is more than 0), roll again") in line


def test_the_roles_one_may_take_over_are_a_filter_not_a_time() -> None:
    # "take over a role nobody plays (when role is not Spirit)" read as if the switch were offered only at some times
    step = next(line for line in explain(engine.load("iconoclasm")) if "take over a role" in line)
    assert "take over a role nobody plays (only a role for which role is not Spirit), choosing which" in step


def test_a_function_s_words_read_with_an_expression_for_its_argument() -> None:
    # iconica's team_health said "the health left on team {t}": called with team(seat(r)) it read
    # "the health left on team the team of the seat of r"
    functions = explain(engine.load("iconica"))
    assert "  the health left on r's team: the health left on the team of the seat of r" in functions
    assert not [line for line in functions if "team the team" in line]


@pytest.mark.parametrize("name", engine.builtin_names())
def test_every_function_of_a_shipped_ruleset_has_words(name: str) -> None:
    # without `text:` a function reads as its name: "when for some r in roles, won of r", "if facing bet of the
    # current role" (breakthrough, kuhn-poker, liars-dice, sealed-tiles and the other classics)
    functions = compose(engine.load(name).source).get("functions") or {}
    assert [key for key, spec in functions.items() if not (isinstance(spec, Mapping) and "text" in spec)] == []


def test_a_choice_s_notes_share_one_bracket_and_a_flag_written_false_is_not_said(tmp_path: Path) -> None:
    # liars-dice read '(a decision even when only one is possible) (asked as "bid higher or call liar")', and
    # `always_ask = false` (or `optional = false`) was explained as if true
    dice = "\n".join(explain(engine.load("liars-dice")))
    assert 'chosen by the current player (asked as "bid higher or call liar"; a decision even when only one is possible)' in dice
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: asks\nextends: tutorial-tiles\nturn+:\n  - do:\n      effect: |\n"
                    "        let c = choose(x in [1, 2], always_ask = false, optional = false)\n", encoding="utf-8")
    step = next(line for line in explain(engine.load(path)) if "let c be" in line)
    assert step.endswith("let c be the x in [1, 2] chosen by the current player")


def test_scoring_names_what_it_ranks() -> None:
    # "rank by the number of t in board where the symbol of t is s" never said what s is
    lines = explain(engine.load("tutorial-tiles"))
    assert lines[lines.index("Scoring") + 2] == "    rank each s in roles by the number of t in board where the symbol of t is s"


@pytest.mark.parametrize("example, english", [
    ("nim", "item (x plus 1) of piles times: "),                  # nth(piles, x + 1): not "item x plus 1 of piles"
    ("kalah", "if the store of pit of ((i plus 1) modulo 14) "),  # pit((i + 1) % 14): not "pit of (i plus 1) modulo 14"
])
def test_an_argument_read_out_with_of_keeps_its_brackets(example: str, english: str) -> None:
    folder = Path(__file__).resolve().parents[1] / "docs" / "examples" / example
    assert english in "\n".join(explain(engine.load(folder)))


@pytest.mark.parametrize("code, english", [
    ("a and b or c", "(a and b) or c"),
    ("a or b and c", "a or (b and c)"),
    ("a and b and c", "a and b and c"),
    ("x in [1, 2, 3]", "x is one of 1, 2 or 3"),
    ("(x + y) % 2 == 0", "(x plus y) modulo 2 is 0"),
    ("x + y % 2", "x plus y modulo 2"),
    ("x - (y - z)", "x minus (y minus z)"),
    ("x * y + z", "x times y plus z"),
    ("(x == 1) == b", "(x is 1) is b"),
    ("(if a then 1 else 2) * 3", "(1 if a, else 2) times 3"),
    ("if b then count(t in hand where t.x == 1) else 0", "(the count of t in hand where the x of t is 1) if b, else 0"),
    ("count(t in hand where t.x == 1) == 2", "(the count of t in hand where the x of t is 1) is 2"),
])
def test_english_keeps_the_grouping_of_the_code(code: str, english: str) -> None:
    from engine.lang.parser import parse_expression

    assert parse_expression(code).describe() == english


def test_a_choice_s_flag_set_by_an_option_says_when_it_holds(tmp_path: Path) -> None:
    """``always_ask = ask_forced`` (an option, false unless set) was explained as "a decision even when only one is
    possible", as if always on; and ``optional = ...`` as if the player could always pass."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: asks\nextends: tutorial-tiles\noptions:\n  ask_forced: {default: false}\nturn+:\n  - do:\n"
                    "      effect: |\n        let c = choose(x in [1, 2], always_ask = ask_forced, optional = ask_forced)\n",
                    encoding="utf-8")
    step = next(line for line in explain(engine.load(path)) if "let c be" in line)
    assert step.endswith("let c be the x in [1, 2] chosen by the current player, or nothing if the player passes when "
                         "ask_forced (a decision even when only one is possible, when ask_forced)")


def test_the_largest_of_a_list_written_out_names_no_variable(tmp_path: Path) -> None:
    """``max([a, b])`` read "the largest of _, over [a, b]", the ``_`` standing for the items a bare list has no name
    for."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: most\nextends: tutorial-tiles\nfunctions:\n  most(int a, int b): max([a, b]) + min([a, 1])\n",
                    encoding="utf-8")
    line = next(line for line in explain(engine.load(path)) if "most of" in line)
    assert line.strip() == "most of a, b: the largest of [a, b] plus the smallest of [a, 1]"


def test_explain_says_how_the_game_is_drawn_when_the_ruleset_says() -> None:
    """explain said nothing of display's short texts and styles nor of the board's drawing settings: a section says
    them now, only for a ruleset that sets some."""
    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    title = "Drawing (in play and on the web page; no rule changes)"

    def drawing(where: str | Path) -> list[str]:
        lines = explain(engine.load(where))
        at = lines.index(title)
        return [line.strip() for line in lines[at + 1:lines.index("", at)]]

    assert drawing(examples / "pentago") == ["the board: a heavier line every 3 cells (lines_every: 3)",
                                             "White: short text W, style bold", "Black: short text B"]
    assert drawing(examples / "quoridor")[0] == "the board: the odd columns and rows thin, a piece there a bar (thin: odd)"
    assert "arrow: short text x, style dim (drawn faint)" in drawing(examples / "amazons")
    assert drawing("connect-four")[0] == "the board: row 0 at the bottom (y_axis: up)"
    assert "Amber: colour #ffbf00" in drawing("hex-glyphs")
    assert title not in explain(engine.load("iconoclasm"))  # it sets none


def test_the_teams_are_numbered_as_the_end_of_a_game_names_them() -> None:
    """The end of a team game says "team 1 wins: ..."; explain says which seats each team number holds."""
    lines = [line.strip() for line in explain(engine.load("iconoclasm", "teams"))]
    assert ("in teams: team 1 (seats 1 and 3) against team 2 (seats 2 and 4); a team's seats pool their points and win "
            "together") in lines


def test_values_given_one_by_one_to_max_and_min_are_each_said() -> None:
    """``min(2, coins(t))`` read "the smallest of 2": the values after the first were left out of the English."""
    game = engine.load("tutorial-tiles")
    assert game.compile_condition("min(2, count(hand(Sun)), 4) > 0").description == (
        "the smallest of 2, the number of items in the hand of Sun and 4 is more than 0")
    assert game.compile_condition("max(1, 3) == 3").description == "the largest of 1 and 3 is 3"


def test_nested_blocks_read_as_they_nest() -> None:
    """A program's blocks were read out with no mark of where each ends: 'if A: if B: X; otherwise: Y; otherwise, if
    C: Z' did not say which 'if' each 'otherwise' is of, nor 'if A: X; then Y' whether Y is done only when A holds."""
    from engine.lang.parser import parse_program

    program = parse_program("if a > 1:\n  if b > 1:\n    pass\n  else:\n    a = 1\nelif c > 1:\n  b = 1\n"
                            "if d > 1:\n  c = 1\nd = 1\n")
    assert program.describe() == ("(if a is more than 1: (if b is more than 1: do nothing; otherwise: set a to 1); "
                                  "otherwise, if c is more than 1: set b to 1); then (if d is more than 1: set c to 1); "
                                  "then set d to 1")


def test_a_role_s_own_zone_hidden_by_order_shows_its_owner_what_it_holds() -> None:
    """A deck-builder's deck, ``hidden: order`` and one per role, was told "order and contents hidden": its owner
    sees what it holds (``rulecraft play`` lists it), only the order is hidden.  A shared one hides both."""
    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    lines = explain(engine.load(examples / "market-row"))
    assert "  deck: a pile, one per role, order hidden, contents seen by its owner only" in lines
    assert "  market: a pile, hidden from everyone" in lines
    assert "  deck: a pile, order and contents hidden" in explain(engine.load("iconoclasm-cards"))


def test_a_choice_inside_and_keeps_its_grouping_in_english() -> None:
    """`count(z) > 0 and (if is_set(z) then a and b else c)` read 'the number of items in z is more than 0 and a and b
    if is set of z, else c', as though the 'if' chose between the whole of it."""
    from engine.lang.parser import parse_expression

    said = parse_expression("n > 0 and (if s then a and b else c)").describe()
    assert said == "n is more than 0 and ((a and b) if s, else c)"


@pytest.mark.parametrize(("code", "words"), [
    ("count(c in board where c.element == Fire) * 2 > count(deck)",
     "(the number of c in board where the element of c is Fire) times 2 is more than the number of items in deck"),
    ("max(count(c in board where c.element == e) for e in roles) - 1 > 0",
     "(the largest of the number of c in board where the element of c is e, over e in roles) minus 1 is more than 0"),
    ("1 + count(c in board where c.element == Fire) * 2 > 3",
     "(1 plus (the number of c in board where the element of c is Fire) times 2) is more than 3"),
])
def test_a_count_or_a_largest_in_arithmetic_is_read_in_brackets(code: str, words: str) -> None:
    """Read out bare, the operation after a selection's condition seemed part of it: "the number of r in players
    where for some b in the votes of r, the yes of b times 2" (the yes of b times 2?)."""
    assert engine.load("iconoclasm-cards").compile_condition(code).description == words
