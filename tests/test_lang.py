"""The effect language: parsing, static checks with positions, compiled behaviour, English."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, RulesetError
from engine.lang import ast
from engine.lang.parser import parse_expression, parse_program
from engine.lang.scope import english_plural


def errors(game: engine.Game, text: str) -> str:
    with pytest.raises(RulesetError) as info:
        game.compile_condition(text)
    return str(info.value)


def test_precedence_and_describe() -> None:
    assert parse_expression("1 + 2 * 3 == 7 and not false").describe() == (
        "1 plus 2 times 3 is 7 and not (false)"
    )


def grouped(node: ast.Node) -> str:
    """An expression's syntax tree written back with every operation in brackets: ``((not a) and b)``."""
    if isinstance(node, (ast.BoolOp, ast.Compare, ast.BinOp)):
        return f"({grouped(node.left)} {node.op} {grouped(node.right)})"
    if isinstance(node, ast.Not):
        return f"(not {grouped(node.operand)})"
    if isinstance(node, ast.Neg):
        return f"(-{grouped(node.operand)})"
    if isinstance(node, ast.Member):
        return f"({grouped(node.item)} in {grouped(node.collection)})"
    if isinstance(node, ast.Cond):
        return f"(if {grouped(node.test)} then {grouped(node.then)} else {grouped(node.otherwise)})"
    if isinstance(node, ast.Attr):
        return f"{grouped(node.base)}.{node.name}"
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(grouped(a) for a in node.args)})"
    if isinstance(node, ast.Name):
        return node.name
    assert isinstance(node, ast.Literal), node
    return node.describe()


# The precedence table, loosest first: if-then-else, or, and, not, comparisons and `in`,
# + and -, * / and %, unary minus, `.` and calls.  Binary operators group to the left.
@pytest.mark.parametrize("text,tree", [
    ("not a and b", "((not a) and b)"),
    ("a and not b", "(a and (not b))"),
    ("not a or b", "((not a) or b)"),
    ("not not a", "(not (not a))"),
    ("not a == b", "(not (a == b))"),
    ("not a in b", "(not (a in b))"),
    ("a or b and c", "(a or (b and c))"),
    ("a and b or c", "((a and b) or c)"),
    ("a or b or c", "((a or b) or c)"),
    ("a and b and c", "((a and b) and c)"),
    ("a == b and c != d", "((a == b) and (c != d))"),
    ("a < b or c >= d", "((a < b) or (c >= d))"),
    ("a + b == c * d", "((a + b) == (c * d))"),
    ("a + b in c", "((a + b) in c)"),
    ("a + b * c", "(a + (b * c))"),
    ("a * b + c", "((a * b) + c)"),
    ("a - b - c", "((a - b) - c)"),
    ("a - b + c", "((a - b) + c)"),
    ("a / b * c", "((a / b) * c)"),
    ("a % b + c", "((a % b) + c)"),
    ("-a * b", "((-a) * b)"),
    ("- -a", "(-(-a))"),
    ("-a.b", "(-a.b)"),
    ("a.b.c == d", "(a.b.c == d)"),
    ("-f(a) + 1", "((-f(a)) + 1)"),
    ("if a then b else c or d", "(if a then b else (c or d))"),
    ("if a or b then c else d", "(if (a or b) then c else d)"),
    ("if a then b else if c then d else e", "(if a then b else (if c then d else e))"),
    ("(a or b) and c", "((a or b) and c)"),
    ("not (a and b)", "(not (a and b))"),
    ("a * (b + c)", "(a * (b + c))"),
])
def test_the_precedence_table(text: str, tree: str) -> None:
    assert grouped(parse_expression(text)) == tree


@pytest.mark.parametrize("text", ["a == b == c", "a < b < c", "a in b in c", "a == b in c"])
def test_comparisons_do_not_chain(text: str) -> None:
    with pytest.raises(RulesetError, match="<expression>:1:"):
        parse_expression(text)


def test_elif_is_described_as_otherwise_if() -> None:
    text = parse_program("if turn == 1:\n  pass\nelif turn == 2:\n  pass\nelse:\n  pass\n").describe()
    assert "; otherwise, if turn is 2: " in text and text.startswith("if turn is 1: ") and "; otherwise: " in text


def test_syntax_error_position_and_expectation() -> None:
    with pytest.raises(RulesetError) as info:
        parse_expression("count(c in board where")
    message = str(info.value)
    assert message.startswith("<expression>:1:")
    assert "the text ends too early" in message or "expected" in message


@pytest.mark.parametrize("text, parse, message", [
    ("count(deck) === 0", parse_expression, "<expression>:1:15: syntax error: unexpected '===' (to compare, write '==')"),
    ("if turn === 1:\n  pass", parse_program, "<program>:1:11: syntax error: unexpected '===' (to compare, write '==')"),
    ("let n == 3", parse_program,
     "<program>:1:8: syntax error: unexpected '==' after 'let n' (to name a value, write 'let n = ...')"),
])
def test_an_equals_too_many_says_what_to_write(text: str, parse: Callable[[str], object], message: str) -> None:
    """These were told "a comparison can't be a line of a program on its own", in a condition too."""
    with pytest.raises(RulesetError) as info:
        parse(text)
    assert str(info.value) == message


@pytest.mark.parametrize("text, message", [
    ("nth(xs, 1) + xs[2] == 0", "<expression>:1:16: syntax error: unexpected '[' after a value "
     "(to take an item of a list, write nth(LIST, N); 1 is the first)"),
    ("[a, b][i] == 1", "<expression>:1:7: syntax error: unexpected '[' after a value "
     "(to take an item of a list, write nth(LIST, N); 1 is the first)"),
])
def test_indexing_a_list_says_to_write_nth(text: str, message: str) -> None:
    """Was "unexpected '['; expected ')', '*', '/' or '%', ...", without a word on how to take an item."""
    with pytest.raises(RulesetError) as info:
        parse_expression(text)
    assert str(info.value) == message


@pytest.mark.parametrize("text, parse, message", [
    ("if turn == 1 then 0 elif turn == 2 then 1 else 2", parse_expression,
     "<expression>:1:21: syntax error: unexpected 'elif' (a value chosen by several conditions is written "
     "'if A then X else if B then Y else Z')"),
    ("let n = if turn == 1 then 0 elif turn == 2 then 1 else 2", parse_program,
     "<program>:1:29: syntax error: unexpected 'elif' (a value chosen by several conditions is written "
     "'if A then X else if B then Y else Z')"),
    ("let n = if turn == 1 then 0 else 1\nfor r in roles:\n  pass\nelif turn == 2:\n  pass", parse_program,
     "<program>:4:1: syntax error: unexpected 'elif'; expected"),  # a program's 'elif' after no 'if': no word on values
])
def test_elif_in_a_value_says_to_write_else_if(text: str, parse: Callable[[str], object], message: str) -> None:
    """A function's body written with 'elif', as a program's 'if' takes, was told "unexpected 'elif'; expected ')',
    '*', '/' or '%', '+' or '-', ',', '.', ':', ...", without a word on 'else if'."""
    with pytest.raises(RulesetError) as info:
        parse(text)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("text, message", [
    ("if turn == 1:\nshuffle(deck)\n", "<program>:2:1: syntax error: the lines under 'if turn == 1:' must be indented further than it"),
    ("for r in roles:\n  pass\nshuffle(deck)\n", None),  # a block, then a line after it: fine
])
def test_a_block_whose_lines_are_not_indented_says_so(text: str, message: str | None) -> None:
    """Was "unexpected 'shuffle'; expected the end of the line"."""
    if message is None:
        parse_program(text)
        return
    with pytest.raises(RulesetError) as info:
        parse_program(text)
    assert str(info.value) == message


def test_program_indentation_errors_are_positioned() -> None:
    with pytest.raises(RulesetError) as info:
        parse_program("for r in roles\n  shuffle(deck)\n")
    assert "<program>:1:15" in str(info.value)


def test_unknown_name_has_a_hint(cards: engine.Game) -> None:
    assert "unknown function 'largest_grup' (did you mean 'largest_group'?)" in errors(
        cards, "largest_grup(c in board) > 2"
    )
    assert "unknown name 'Fier' (did you mean 'Fire'?)" in errors(cards, "at(0, 0).element == Fier")


@pytest.mark.parametrize("text, hint", [
    ("len(deck) == 0", "unknown function 'len' (to count a collection, write count(x in COLLECTION) or count(ZONE))"),
    ("turn in range(1, 4)", "unknown function 'range' (write the numbers as a list, like [1, 2, 3])"),
    ("randint(1, 6) > 2", "unknown function 'randint' (to roll a die, write roll(d6))"),
    ("draw(deck, hand(Fire), 2) == none", "unknown function 'draw' (to move the first N components of a zone, "
                                          "write move(x in ZONE, TO_ZONE, N))"),
])
def test_a_function_of_other_languages_says_how_this_one_writes_it(cards: engine.Game, text: str, hint: str) -> None:
    """'len' and 'range' were unknown with no hint, or "did you mean 'rank'?"."""
    assert hint in errors(cards, text)


@pytest.mark.parametrize("text, message", [
    ("turn_number > 3", "unknown name 'turn_number' (the turn number is 'turn')"),
    ("players == 2", "unknown name 'players' (the number of players is 'player_count')"),
    ("me == 1", "unknown name 'me' ('me' is the seat being scored: it is known in 'running_score' only)"),
    ("round > 2", "unknown name 'round'"),  # was "(did you mean 'count'?)": a function is never the name meant
    ("shove", "unknown name 'shove'"),  # was "(did you mean 'is_over'?)": three letters away, half of them shared
    ("is_ovr", "unknown name 'is_ovr' (did you mean 'is_over'?)"),
    ("shove(1)", "unknown function 'shove' (did you mean 'show'?)"),
    ("True", "unknown name 'True' (write 'true', in lower case)"),  # was no hint at all: Python's spelling
    ("None == at(0, 0)", "unknown name 'None' (write 'none', in lower case)"),
])
def test_an_unknown_name_is_never_told_to_be_a_function_and_common_ones_are_answered(
        cards: engine.Game, text: str, message: str) -> None:
    assert errors(cards, text).splitlines()[0] == f"<expression>:1:1: {message}"


def test_a_function_named_without_its_call_says_how_to_call_it(cards: engine.Game) -> None:
    """A zone kept per role, named bare, was answered "unknown name 'hand' (did you mean 'hand'?)"."""
    assert "unknown name 'hand' ('hand' is a function, not a name: write hand(ROLE))" in errors(cards, "count(hand) == 0")


@pytest.mark.parametrize("text", ["at(0, 0).element == 'Fire'", 'any(c in board where "Fire" != c.element)'])
def test_a_declared_value_written_in_quotes_is_told_to_lose_them(cards: engine.Game, text: str) -> None:
    """``c.element == "Fire"`` was only "cannot compare an element with a text", not how to write it."""
    assert "(write Fire without quotes: the values of element are names, not text)" in errors(cards, text)
    assert "without quotes" not in errors(cards, "at(0, 0).element == 'Fier'")  # text that names no value: no hint


def test_a_name_with_an_ending_added_is_told_the_name_it_grew_from() -> None:
    """'Stunned' for the status Stun was "unknown name 'Stunned'" with no hint: three letters away, too far."""
    message = errors(engine.load("iconica"), "count(c in characters where has(c, Stunned)) > 0")
    assert message.splitlines()[0] == "<expression>:1:36: unknown name 'Stunned' (did you mean 'Stun'?)"


def test_type_errors(cards: engine.Game) -> None:
    assert "count() takes 1 argument, not 2" in errors(cards, "count(board, board) > 1")
    assert "'3' is an int, not a collection" in errors(cards, "count(3) > 1")
    assert "cannot compare" in errors(cards, "at(0, 0).element == 3")
    assert "must be true or false" in errors(cards, "count(c in board)")
    assert "has no attribute 'colour'" in errors(cards, "any(c in board where c.colour == Fire)")


def test_conditions_evaluate_against_a_state(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=3)
    assert cards.compile_condition("count(c in board) == 0").run(state) is True
    assert cards.compile_condition("all(count(c in hand(r)) == 4 for r in roles)").run(state) is True
    assert cards.compile_condition("sum(count(c in hand(r)) for r in roles) == 16").run(state) is True
    assert cards.compile_condition("max(count(c in hand(r)) for r in roles) == 4").run(state) is True
    assert cards.compile_condition("(if player_count > 3 then 1 else 2) == 1").run(state) is True
    assert cards.compile_condition("7 / 2 == 3 and 7 % 2 == 1 and -3 < 0").run(state) is True


def test_max_min_and_sum_of_values_given_one_by_one(cards: engine.Game) -> None:
    """A designer writing `max(1, abs(y - 3))` was told `max() takes 1 argument, not 2` and `'1' is an int, not a
    collection`: values given one by one are now the list of them, as `max([1, abs(y - 3)])`."""
    state = cards.new_state(players=4, seed=3)
    assert cards.compile_condition("max(1, 7 - 5, -3) == 2 and min(4, turn) == 1 and sum(1, 2, 3) == 6").run(state)
    assert cards.compile_condition("max(count(hand(r)) for r in roles) == max(4, 0)").run(state)
    assert "every item of a list must be an int" in errors(cards, "max(1, true) > 0")
    assert "max() takes 1 argument, not 2" in errors(cards, "max(c in board, 2) > 0")


def test_a_list_of_two_types_says_to_ask_two_questions(cards: engine.Game) -> None:
    """A stock-market game offered each trade as one option, `[d, s]` for a deal and a stock: a list holds one
    type, so the designer is told to choose one, then the other; a number among booleans gets no such advice."""
    mixed = errors(cards, "count(list([e, c] for e in roles for c in cards)) > 0")
    assert "every item of a list must be an element, but 'c' is a card" in mixed
    assert "is two choose() one after the other" in mixed
    assert "choose()" not in errors(cards, "max(1, true) > 0")


def test_selection_on_front_and_back_faces(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=3)
    assert cards.compile_condition("count(c in cards where c.front.element == c.back.element) == 4").run(state)
    assert cards.compile_condition("count(c in cards where c.back.element == Fire) == 4").run(state)


def test_division_by_zero_is_an_effect_error(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=3)
    with pytest.raises(EffectRuntimeError, match="division by zero"):
        cards.compile_condition("1 / count(c in board) == 0").run(state)


def _builder() -> "object":
    from engine.compiling.builder import Builder
    from engine.core.compose import compose
    from engine.core.paths import find_ruleset

    builder = Builder(compose(find_ruleset("iconoclasm-cards")))
    builder.build()
    return builder


def test_step_budget_stops_runaway_loops(cards: engine.Game) -> None:
    program = _builder().program("repeat 1000000:\n  repeat 1000000:\n    pass\n", None)
    with pytest.raises(EffectRuntimeError, match="step budget"):
        program.run(cards.new_state(players=4, seed=1))


def test_roll_faces_are_checked_and_rolls_are_seeded(cards: engine.Game) -> None:
    builder = _builder()
    builder.program("roll d6:\n  odd: pass\n  7: pass\n", None)
    assert any("7..7 is not a face of a d6" in d.message for d in builder.sink.items)
    program = builder.program(
        "roll d6:\n  1..3: shuffle(deck)\n  4..6:\n    pass\n", None
    )
    a, b = cards.new_state(players=1, seed=5), cards.new_state(players=1, seed=5)
    program.run(a)
    program.run(b)
    assert a == b and a.rng != cards.new_state(players=1, seed=5).rng


def test_common_slips_get_a_hint() -> None:
    for text, hint in [("a = 1", "write '=='"), ("a && b", "write 'and'"), ("count(c in board", "ends too early")]:
        with pytest.raises(RulesetError, match=hint):
            parse_expression(text)


def test_effects_are_never_values(cards: engine.Game) -> None:
    assert "cannot compare an effect with a none" in errors(cards, "shuffle(deck) == none")


def test_a_program_line_that_computes_nothing_is_an_error() -> None:
    builder = _builder()
    builder.program("count(c in board)\n", None)
    assert any("does nothing with it" in d.message for d in builder.sink.items)


def test_options_holding_lists_of_text_have_the_type_of_their_items(tmp_path: Path) -> None:
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: lists\nextends: tutorial-tiles\ntypes:\n  level: [low, high]\n"
        "options:\n  order: {default: [low, high]}\n  names: {default: [ann, bob]}\n"
    )
    game = engine.load(ruleset)
    game.compile_condition("low in order and count(v in order where v == high) == 1")
    game.compile_condition('count(v in names where v == "ann") == 1')
    assert "the value summed by sum() must be an int, but 'v' is a text" in errors(game, "sum(v for v in names) > 1")
    assert "a level is never in a list of text" in errors(game, "high in names")


def test_a_parameter_named_like_a_die_is_the_parameter(tmp_path: Path) -> None:
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: named-dice\nextends: tutorial-tiles\nfunctions:\n"
        "  twice(int d2): d2 * 2\n"
    )
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("twice(3) == 6").test(state)
    assert not game.compile_condition("twice(3) == 4").test(state)
    assert "twice of 3" in game.compile_condition("twice(3) == 6").description
    # where no name d2 is defined, d2 is still a die
    assert "an int, but 'a 2-sided die' is a die" in errors(game, "d2 * 2 == 4")


def test_a_selection_whose_items_are_named_like_a_die_names_them(tmp_path: Path) -> None:
    """'move(d2 in rolled, pyramid)' was refused with "a die is never in a list of component" and "'a 2-sided die
    is in rolled' is a bool, not a collection", though 'for d2 in rolled' names its items so: a selection's item
    written like a die is the selection's name, as a loop's and a parameter's are."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: named-dice\nextends: tutorial-tiles\nfunctions:\n"
        "  wide(list of int xs): count(d6 in xs where d6 > 4)\n"
    )
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("count(d2 in [1, 2, 3]) == 3 and count(d2 in [1, 2, 3] where d2 >= 2) == 2").test(state)
    assert game.compile_condition("sum(d8 for d8 in [1, 2]) == 3 and wide([3, 5, 6]) == 2").test(state)
    assert game.compile_condition("count(d2 in hand(Sun)) == count(hand(Sun))").test(state)
    # outside a selection, d2 is still a die
    assert "a die is never in a list of int" in errors(game, "d2 in [1, 2]")


@pytest.mark.parametrize("code", [
    "list(a * 10 + b for a in [1, 2] for b in [3, 4]) == [13, 14, 23, 24]",
    "list(a * 10 + b for a in [1, 2, 3] where a != 2 for b in numbers(a, 3) where b > a) == [12, 13]",
    "sum(a * b for a in [1, 2] for b in [1, 2] for c in [1, 2, 3]) == 27",
    "count(a for a in [1, 2] for b in [1, 2] where a == b) == 2",
    "any(a == b for a in [1, 2] for b in [3, 2]) and not all(a == b for a in [1, 2] for b in [3, 2])",
    "max(a - b for a in [1, 5] for b in [2, 3]) == 3",
    "list((x, y) for x in numbers(0, 1) for y in numbers(0, 1)) == [(0, 0), (0, 1), (1, 0), (1, 1)]",
])
def test_a_comprehension_of_several_loops_gives_every_combination(tmp_path: Path, code: str) -> None:
    """'list(... for a in corners(r) for o in numbers(0, 7))', every way to lay a piece, was a syntax error
    (unexpected 'for'): each 'for' after the first is a loop inside the ones before, reading their names, its
    'where' skipping the items of its own loop."""
    game = engine.load("tutorial-tiles")
    assert game.compile_condition(code).test(game.new_state(players=2, seed=1))


def test_a_comprehension_of_several_loops_hides_no_name_of_the_ruleset(tmp_path: Path) -> None:
    """The chain's values are named by the engine for itself: a name no ruleset can give, so a counter of the
    ruleset's own (called each_, the name it first had) is neither hidden nor refused."""
    (tmp_path / "ruleset.yaml").write_text("name: chains\nextends: tutorial-tiles\ncounters:\n  each_: {start: 3}\n"
                                           "functions:\n  pairs(): count(a for a in [1, 2] for b in [1, 2]) + each_\n")
    game = engine.load(tmp_path)
    assert game.compile_condition("pairs() == 7").test(game.new_state(players=2, seed=1))


def test_a_comprehension_of_several_loops_is_described_loop_by_loop() -> None:
    game = engine.load("tutorial-tiles")
    assert game.compile_condition("list(a + b for a in [1, 2] where a > 1 for b in [3]) == [5]").description == \
        "(the list of a plus b, for a in [1, 2] where a is more than 1 and b in [3]) is [5]"
    assert game.compile_condition("any(a == b for a in [1, 2] for b in [2])").description == \
        "for some a in [1, 2] and b in [2], a is b"
    assert "the condition after 'where' must be a bool, but 'b' is an int" in errors(
        game, "count(a + b for a in [1] for b in [2] where b) == 1")


def test_any_or_all_beside_and_or_is_described_in_brackets() -> None:
    """Rummy's end, ``any(count(hand(r)) == 0 for r in roles) or count(stock) == 0``, was explained "when for some r
    in roles, the number of items in the hand of r is 0 or the number of items in stock is 0": the test of 'some' read
    on to the end of the sentence."""
    game = engine.load("tutorial-tiles")
    assert game.compile_condition("any(r == Sun for r in roles) or count(board) == 0").description == \
        "(for some r in roles, r is Sun) or the number of items in board is 0"
    assert game.compile_condition("count(board) == 0 and all(r == Sun for r in roles)").description == \
        "the number of items in board is 0 and (for every r in roles, r is Sun)"


def test_a_run_of_numbers_known_when_the_ruleset_loads_counts_as_that_many_items(tmp_path: Path) -> None:
    """Loops over numbers(0, 7) were counted as loops over as many items as any list may hold, so four of them
    nested were refused (they 'may look at up to' millions of items); a run of constant numbers is its length."""
    game = engine.load("tutorial-tiles")
    code = f"count(a for a in numbers(1, 2) {' '.join(f'for {v} in numbers(1, 2)' for v in 'bcdefgh')}) == 256"
    assert game.compile_condition(code).test(game.new_state(players=2, seed=1))
    unknown = f"count(a for a in numbers(1, count(board)) {' '.join(f'for {v} in numbers(1, count(board))' for v in 'bcdefgh')}) > 0"
    assert "selections nested this deep" in errors(game, unknown)  # runs of unknown length: as long as any list


def test_a_function_whose_body_is_true_or_false_loads(tmp_path: Path) -> None:
    """'never(): false' was refused with "unknown name 'False'": YAML reads a bare false as a boolean, and the
    function's body was turned into Python's text of it."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text("name: constants\nextends: tutorial-tiles\nfunctions:\n  never(): false\n  always(): true\n")
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("always() and not never()").test(state)


def test_a_function_named_like_a_built_in_one_is_the_rulesets_own(tmp_path: Path) -> None:
    """A ruleset that defines a function the engine later built in (a ruleset of its own 'sgn' or 'between', before
    either was built in) was refused as 'the name is already defined': its code now calls its own, and validate notes
    it.  A name the ruleset itself gave something else (a zone's function) is still refused, saying what it is."""
    from engine.runner.validate import notes_for_path

    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text("name: named-points\nextends: tutorial-tiles\nfunctions:\n  points(role r): 1\n"
                       "  sgn(int n): n * 10\n  between(int a, int b): a < b\n")
    game = engine.load(ruleset)
    assert game.compile_condition("points(Sun) == 1 and sgn(2) == 20 and between(1, 2)").test(game.new_state(players=2))
    assert [d.message for d in notes_for_path(str(ruleset)) if "built-in" in d.message] == [
        f"function '{name}' has the name of a built-in function ({signature}): this ruleset's code calls its own"
        for name, signature in [("points", "points(ITEM) -> int"), ("sgn", "sgn(NUMBER) -> int"),
                                ("between", "between(CELL, CELL) -> list of cell")]]
    ruleset.write_text("name: named-hand\nextends: tutorial-tiles\nfunctions:\n  hand(role r): 1\n")
    with pytest.raises(RulesetError, match=r"ruleset.yaml:4:3: the name 'hand' is already defined \(hand\(ROLE\) -> "
                                           r"zone: The hand of a role\); pick another name for this function"):
        engine.load(ruleset)


@pytest.mark.parametrize("text, statements", [
    ("pass\n# a comment on its own line\npass\n", 2),
    ("for r in roles:\n  # a comment inside a block: it may say anything, even 'x: y'\n  pass\n  pass\n", 1),
    ("if true:\n  pass\n      # indented anyhow\n\n# and after the block\npass\n", 2),
])
def test_a_comment_on_its_own_line_between_statements(text: str, statements: int) -> None:
    """A comment line after a statement was a syntax error ('unexpected the end of the line'): only comments before
    the first statement or after code on its line parsed.  Comment lines now go with the line break before them."""
    assert len(parse_program(text).body) == statements


def test_numbers_lists_a_run_of_whole_numbers() -> None:
    """``numbers(FROM, TO)``: both ends included, none when TO is smaller; a choice among them offers each."""
    game = engine.load("tic-tac-toe")
    s = game.new_state(2)
    assert game.compile_condition("numbers(2, 5) == [2, 3, 4, 5] and numbers(-1, 0) == [-1, 0]").test(s)
    assert game.compile_condition("count(numbers(3, 2)) == 0 and sum(numbers(1, 4)) == 10").test(s)
    with pytest.raises(RulesetError, match=r"the last number of numbers\(\) must be an int, but '\"x\"' is a text"):
        game.compile_condition('count(numbers(1, "x")) == 0')
    with pytest.raises(RulesetError, match=r"numbers\(\) takes 2 arguments"):
        game.compile_condition("count(numbers(1)) == 0")


def test_numbers_refuses_a_run_too_long_to_list() -> None:
    game = engine.load("tic-tac-toe")
    with pytest.raises(EffectRuntimeError, match=r"numbers\(1, 1000000\) would list 1000000 numbers; at most 10000"):
        game.compile_condition("count(numbers(1, 1000000)) > 0").test(game.new_state(2))


def test_reachable_walks_the_cells_joined_through_the_selected_items() -> None:
    """Whether two places are joined by a path of links a player holds (routes, roads, pipes) had no function: a
    designer unrolled a walk as nine nested calls of a function of their own.  ``reachable(CELL, ENDS for x in C)``
    walks it: the start first, each item joining the cells its ENDS list, none among them joining nothing."""
    game = engine.load("tic-tac-toe")
    s = game.new_state(2)
    chain = "[p, (p.x + 1, p.y)] for p in [(0, 0), (1, 0), (0, 2)]"
    assert game.compile_condition(f"reachable((0, 0), {chain}) == [(0, 0), (1, 0), (2, 0)]").test(s)
    assert game.compile_condition(f"reachable((2, 0), {chain}) == [(2, 0), (1, 0), (0, 0)]").test(s)
    assert game.compile_condition(f"not (0, 2) in reachable((0, 0), {chain}) and reachable((2, 2), {chain}) == [(2, 2)]").test(s)
    assert game.compile_condition("reachable((0, 0), [p, none, (2, 2)] for p in [(0, 0)]) == [(0, 0), (2, 2)]").test(s)
    with pytest.raises(RulesetError, match=r"reachable\(\) needs the cells each item joins, written before 'for'"):
        game.compile_condition("count(reachable((0, 0), p in all_cells)) > 0")
    with pytest.raises(RulesetError, match=r"the ends given to reachable\(\) must be a list of cell"):
        game.compile_condition("count(reachable((0, 0), [1, 2] for p in all_cells)) > 0")


def test_reachable_spends_a_step_per_end() -> None:
    """A walk over many long lists of ends stops at the step budget, as a selection does, rather than run on."""
    game = engine.load(Path(__file__).resolve().parent.parent / "docs" / "examples" / "chess")  # 64 cells
    with pytest.raises(EffectRuntimeError, match=r"ran out of its step budget in this walk"):
        game.compile_condition("count(reachable((0, 0), all_cells for n in numbers(1, 2000))) > 0").test(game.new_state(2))


def test_a_parameter_without_a_type_used_as_another_says_how_to_type_it(tmp_path: Path) -> None:
    """Was only "the role of hand() must be a symbol, but 'r' is a component": the rule that a bare name is a
    component is in docs/effects.md, not in the message."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nfunctions:\n  holds(r): count(t in hand(r)) > 0\n", encoding="utf-8")
    found = [d for d in validate_path(str(path)) if d.pos is not None and d.pos.line == 4]
    assert [d.hint for d in found] == ["'r' is written without a type in 'holds(r)', so it is a component: write 'symbol r'"]


def test_a_parameter_without_a_type_compared_with_a_number_is_named_and_told_how_to_type_it(tmp_path: Path) -> None:
    """``jump(n): if n == 4 then 14 else n`` was "cannot compare a component with an int", naming neither the
    parameter nor the rule that a bare name is a component."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nfunctions:\n  jump(n): if 4 == n then 14 else 0\n"
                    "  far(n): n == 3\n", encoding="utf-8")
    found = sorted((d.pos.line, d.message, d.hint) for d in validate_path(str(path)) if d.pos is not None and d.pos.line >= 4)
    assert found == [
        (4, "cannot compare an int with 'n', a component", "'n' is written without a type in 'jump(n)', so it is a component: write 'int n'"),
        (5, "cannot compare 'n', a component, with an int", "'n' is written without a type in 'far(n)', so it is a component: write 'int n'"),
    ]


def test_braces_in_a_function_text_that_name_no_parameter_are_refused_where_written(tmp_path: Path) -> None:
    """``text: where a pawn moved to {} ends up`` for ``landing(int n)`` was accepted, and explain printed the braces
    as written in every call ("where a pawn moved to {} ends up")."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nfunctions:\n  landing(int n):\n    is: n + 1\n"
                    "    text: past {} and {m}\n  fine(int n):\n    is: n\n    text: '{n} itself'\n", encoding="utf-8")
    found = [(d.pos.line, d.pos.col, d.message, d.hint) for d in validate_path(str(path)) if d.pos is not None and d.pos.line >= 4]
    said = "which names none of its parameters, so explain would print it as written"
    assert found == [(6, 11, f"the text of function 'landing' writes '{{}}', {said}", "write {n} where the argument goes"),
                     (6, 11, f"the text of function 'landing' writes '{{m}}', {said}", "write {n} where the argument goes")]


def test_a_value_of_unknown_type_after_a_reported_problem_is_not_reported_again(tmp_path: Path) -> None:
    """A misspelt zone in 'let q = choose(p in bord)' was one problem and four more: 'cannot read 'cell' of 'q': its
    type is not known' at every use of q."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nend:\n  when: count(c in bord) == 0 and first(c in bord).cell.x == 0\n"
                    "invariants:\n  unknown: nothing.cell == 0\n", encoding="utf-8")
    found = [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]
    assert [line.split(": ", 1)[1] for line in found] == [
        "unknown name 'bord' (did you mean 'board'?)", "unknown name 'bord' (did you mean 'board'?)",
        "unknown name 'nothing'",  # another condition: its own problems are reported
    ], found


def test_nth_takes_a_zone_as_its_list() -> None:
    """Was "the first argument of nth() must be a list, but 'pile1' is not one", though a zone is a collection."""
    game = engine.load("nine-domains")
    state = game.new_state(players=2, seed=3)
    for condition in ("nth(pile1, 2) != none", "nth(pile1, 2) == first(d in pile1 where position(d) == 2)",
                      "nth(pile1, 1) != nth(pile1, 2)", "nth(pile1, 4) == none"):
        assert game.compile_condition(condition).test(state), condition


def test_programs_parsed_in_several_threads_at_once_parse_as_they_do_alone() -> None:
    """The one parser's indentation post-lexer keeps its state while it runs: a server compiling two rulesets for
    two requests at once failed one of them with an AssertionError from inside the parser (a 500 on the page)."""
    import threading

    programs = [f"for r in roles:\n  if gold(r) > {n}:\n    gold(r) -= ({n} + count(x in [1, 2]))\n  else:\n    pass\n"
                for n in range(8)]
    alone = [parse_program(text).describe() for text in programs]
    failures: list[str] = []

    def parse_all() -> None:
        for _ in range(40):
            for text, expected in zip(programs, alone):
                try:
                    assert parse_program(text).describe() == expected
                except Exception as err:  # noqa: BLE001 - any failure of a parse is the defect
                    failures.append(repr(err))

    threads = [threading.Thread(target=parse_all) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_a_function_takes_a_list_and_a_zone_given_for_it(tmp_path: Path) -> None:
    """A parameter could not be a list ('unknown type list'), so a hand's total needed one function per zone:
    ``list of KIND p`` (or ``list of int``, ...) now takes a list, a selection, or a zone read as its contents."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: lists\nextends: tutorial-tiles\nfunctions:\n"
        "  suns(list of tile ts): count(t in ts where t.symbol == Sun)\n"
        "  total(list   of int xs): sum(x for x in xs)\n"
        "  nested(list of list of int xss): sum(total(xs) for xs in xss)\n"
    )
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    same = "suns(hand(r)) == count(t in hand(r) where t.symbol == Sun) for r in roles"
    assert game.compile_condition(f"all({same})").test(state)
    assert game.compile_condition("suns(t in tiles where t.symbol == Sun) == suns(tiles) and suns(tiles) > 0").test(state)
    assert game.compile_condition("total([1, 2, 3]) == 6 and total(numbers(1, 4)) == 10").test(state)
    assert game.compile_condition("nested([[1, 2], [3]]) == 6").test(state)
    assert "suns(list of tile ts) -> int" in game.vocab.functions["suns"].signature
    with pytest.raises(RulesetError, match=r"the argument 'ts' of suns\(\) must be a list of tile, but '3' is an int"):
        game.compile_condition("suns(3) == 0")
    with pytest.raises(RulesetError, match=r"the argument 'xs' of total\(\) must be a list of int, but 'tiles' is a list of tile"):
        game.compile_condition("total(tiles) == 0")


def test_a_selection_without_where_given_for_a_list_parameter_is_its_items(tmp_path: Path) -> None:
    """``suns(t in hand(r) where P)`` was a selection but ``suns(t in hand(r))`` a test of an unknown ``t``: "unknown
    name 't'" and "'t is in hand of r' is a bool". Given for a list parameter, ``x in C`` is a selection, as in count()."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text("name: lists\nextends: tutorial-tiles\nfunctions:\n"
                       "  suns(list of tile ts): count(t in ts where t.symbol == Sun)\n")
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("all(suns(t in hand(r)) == suns(hand(r)) for r in roles)").test(state)
    with pytest.raises(RulesetError, match=r"the argument 'ts' of suns\(\) must be a list of tile, but 'x in roles' is a list"):
        game.compile_condition("suns(x in roles) == 0")


def test_values_of_a_selection_given_for_a_list_parameter_are_the_values(tmp_path: Path) -> None:
    """``total(count(hand(r)) for r in roles)`` was refused ("must be a list of int, but ... is a list of symbol"): a
    selection given as a value dropped what it computes for each item and passed the items themselves."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text("name: lists\nextends: tutorial-tiles\nfunctions:\n  total(list of int xs): sum(x for x in xs)\n"
                       "  held(list of tile ts): count(ts)\n")
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("total(n * 2 for n in [1, 2]) == 6 and total(n + 1 for n in [1, 2] where n > 1) == 3").test(state)
    held = "total(count(hand(r)) for r in roles) == sum(count(hand(r)) for r in roles)"
    assert game.compile_condition(f"{held} and total(count(hand(r)) for r in roles) > 0").test(state)
    assert game.compile_condition("held(t for t in tiles) == count(tiles)").test(state)


def test_an_unknown_list_item_type_is_reported_at_the_type(tmp_path: Path) -> None:
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nfunctions:\n  held(list of tlie ts): count(t in ts)\n", encoding="utf-8")
    found = [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]
    assert found == ["ruleset.yaml:4:8: unknown type 'list of tlie' for parameter 'ts' (did you mean 'tile'?)"]


def test_a_while_loop_runs_while_its_condition_holds_and_a_runaway_one_stops_at_the_budget(cards: engine.Game) -> None:
    builder = _builder()
    program = builder.program("while count(c in hand(Fire)) > 1:\n  move(c in hand(Fire), deck, 1)\n", None)
    state = cards.new_state(players=4, seed=1)
    program.run(state)
    assert [len(state.zones[cards.zone_names.index(name)]) for name in ("hand of Fire", "deck")] == [1, 3]
    runaway = builder.program("while true:\n  pass\n", None)
    with pytest.raises(EffectRuntimeError, match=r"step budget.*'while' loop"):
        runaway.run(cards.new_state(players=4, seed=1))
    builder.program("while 3:\n  pass\n", None)
    assert any("the condition of 'while' must be a bool, but '3' is an int" in d.message for d in builder.sink.items)


@pytest.mark.parametrize("program, at, looping", [
    ("let c = 1\n        while c == 1:\n          let c = 2", "10:11", True),
    ("let total = 0\n        for t in hand(current_role):\n          let total = total + 1", "10:11", True),
    ("let c = 1\n        if c == 1:\n          let c = 2", "10:11", False),
])
def test_a_let_hiding_a_name_of_a_block_around_it_is_refused(tmp_path: Path, program: str, at: str, looping: bool) -> None:
    """'let c = 1', then 'while c == 1:' with 'let c = 2' inside, ran until the step budget stopped it (reported only
    as the budget): the inner let made a second 'c', which the loop's test never read."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nend:\n  when: count(c in board) == 9\n"
                    f"turn:\n  - do:\n      effect: |\n        {program}\n", encoding="utf-8")
    found = [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]
    name = program.split()[1]
    loop = ", so the loop (its test, its next pass) still reads the outer one" if looping else ""
    assert found == [f"ruleset.yaml:{at}: '{name}' is already a name of a block around this one: this 'let' would make a "
                     f"second '{name}', which ends with its block{loop} (a name keeps its value: pick another name here, "
                     f"or keep a value that changes in a counter ('counters:', then '{name} = ...'))"]


def test_a_keyword_given_twice_is_refused_at_the_second(tmp_path: Path) -> None:
    """'choose(..., optional = false, optional = true)' was accepted, the last one winning unseen."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\nend:\n  when: count(c in board) == 9\n"
                    "turn:\n  - do:\n      effect: |\n"
                    "        let c = choose(x in hand(current_role), optional = false, optional = true)\n", encoding="utf-8")
    found = [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]
    assert found == ["ruleset.yaml:8:67: choose() is given 'optional' twice (keep one 'optional = ...')"]


@pytest.mark.parametrize("program, message", [
    ("c = choose(x in hand(current_role))",
     "4:3: 'c' is not a counter, so '=' cannot change it (to name a value, write 'let c = ...'; a number that changes "
     "is a counter ('counters:'))"),
    ("let x = 3\n  x += 1",
     "5:3: 'x' is a name ('let' or a loop's), and a name keeps its value: '+=' cannot change it (to keep a number that "
     "changes, declare a counter under 'counters:')"),
    ("if true\n    pass", "4:10: syntax error: unexpected end of the line; expected ':'"),
])
def test_slips_of_a_python_hand_say_what_to_write(tmp_path: Path, program: str, message: str) -> None:
    """'c = choose(...)' (no let) was told to declare a counter, then that the value must be an int; a let name given
    '+=' was told to declare a counter; a missing ':' was 'unexpected the end of the line'."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text(f"name: mine\nextends: tutorial-tiles\nsetup: |\n  {program}\n", encoding="utf-8")
    found = [d.headline().replace(str(path) + ":", "") for d in validate_path(str(path))]
    assert found == [message]


def test_a_component_named_in_code_says_how_to_read_it() -> None:
    """`harm(Chapel) == 0`, Chapel being a house, was told only "unknown name 'Chapel'"; it now says how code reads
    a component by its name (identical copies by the name they share)."""
    storm = engine.load(Path(__file__).resolve().parents[1] / "docs" / "examples" / "storm-watch")
    for code, name, kind in (("harm(Chapel) == 0", "Chapel", "houses"), ("count(deck) > 0 and Rise == none", "Rise", "storms")):
        with pytest.raises(RulesetError) as info:
            storm.compile_condition(code)
        problem = info.value.diagnostics[0]
        assert (problem.message, problem.hint) == (f"unknown name '{name}'", f"'{name}' is the name of a component, not a name "
                                                   f'in code: read it as first(x in {kind} where x.id == "{name}")')
    assert storm.compile_condition('first(x in storms where x.id == "Rise") != none').run(storm.new_state(players=2, seed=1))


def test_a_component_named_in_code_is_read_through_its_kinds_english_plural(tmp_path: Path) -> None:
    """A territory named in code was told to read it as first(x in territorys ...): the list is 'territories' too."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: map\nplayers: [2]\ncomponents:\n  territory: {instances: [North, South]}\n"
                    "turn:\n  - do: {effect: pass}\nend: {when: turn > 2}\nscoring: {rank: r in roles, by: [0], points: key}\n",
                    encoding="utf-8")
    game = engine.load(path)
    with pytest.raises(RulesetError) as info:
        game.compile_condition("North != none")
    assert info.value.diagnostics[0].hint == ("'North' is the name of a component, not a name in code: read it as "
                                              'first(x in territories where x.id == "North")')
    assert game.compile_condition('first(x in territories where x.id == "North") != none').run(game.new_state(players=2))


def test_a_text_in_arithmetic_is_one_problem_saying_texts_are_not_joined(cards: engine.Game) -> None:
    """``["challenge " + act, "allow"]`` (a text joined as in Python) gave four problems: each side of '+' not an
    int, the list's next item not an int, the comparison of an int with a text."""
    found = errors(cards, 'all(count(a in ["take " + c.id, "pass"] where a == "pass") == 1 for c in cards)')
    assert len(found.splitlines()) == 1 and "'+' works on whole numbers, not on texts" in found, found
    assert "texts are not joined or computed: write each text whole" in found


def test_a_choice_among_texts_compared_with_a_text_never_offered_is_an_error(tmp_path: Path) -> None:
    """``if a == "no thank":`` after ``let a = choose(x in ["no thanks", "take"])``: the branch never ran, and nothing
    said so (random games go on without it).  Compared at once or through a 'let', with '==' or '!='."""
    ruleset = tmp_path / "ruleset.yaml"
    body = ('let a = choose(x in ["no thanks", "take"], text = "no thanks or take")\n'
            '        if a == "no thank":\n          pass\n'
            '        if choose(x in ["yes", "no"]) != "Yes":\n          pass\n'
            '        if a == "take" or a != "no thanks":\n          pass\n'
            '        if choose(x in ["buy"], optional = true) == "pass":\n          pass\n')
    ruleset.write_text("name: menu\nextends: tutorial-tiles\nturn+:\n  - do:\n      effect: |\n        " + body)
    with pytest.raises(RulesetError) as info:
        engine.load(ruleset)
    found = [(d.pos.line, d.message, d.hint) for d in info.value.diagnostics]
    assert found == [
        (7, "'no thank' is never chosen here: the texts offered are \"no thanks\", \"take\", so this test never holds",
         "did you mean 'no thanks'?"),
        (9, "'Yes' is never chosen here: the texts offered are \"yes\", \"no\", so this test always holds",
         "did you mean 'yes'?"),
        (13, "'pass' is never chosen here: the texts offered are \"buy\", so this test never holds",
         "a pass (optional = true) gives none: compare with none")], found


@pytest.mark.parametrize("word, plural", [
    ("card", "cards"), ("company", "companies"), ("day", "days"), ("key", "keys"), ("box", "boxes"),
    ("bus", "buses"), ("status", "statuses"), ("church", "churches"), ("quiz", "quizzes"),
    ("hero", "heroes"), ("potato", "potatoes"), ("echo", "echoes"), ("veto", "vetoes"), ("domino", "dominoes"),
    ("photo", "photos"), ("piano", "pianos"), ("radio", "radios"),
    ("wolf", "wolves"), ("knife", "knives"), ("leaf", "leaves"), ("roof", "roofs"), ("chief", "chiefs"),
    ("cliff", "cliffs"), ("crisis", "crises"), ("basis", "bases"), ("axis", "axes"), ("iris", "irises"),
    ("chassis", "chassiss"), ("series", "seriess"), ("stomach", "stomachs"), ("monarch", "monarchs"),
    ("man", "men"), ("woman", "women"), ("human", "humans"), ("shaman", "shamans"), ("person", "people"),
    ("mouse", "mice"), ("child", "children"), ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"),
    ("ox", "oxen"), ("die", "dice"), ("red_die", "red_dice"), ("old_hero", "old_heroes"),
])
def test_the_english_plural_of_a_name(word: str, plural: str) -> None:
    """'hero' made 'heros', 'crisis' 'crisises' and 'stomach' 'stomaches'; where English's rule is not sure from the
    ending (stomach, series), only the plain 's' form is given."""
    assert english_plural(word) == plural


def test_a_kinds_english_plural_in_o_names_its_list(tmp_path: Path) -> None:
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: heroic\nplayers: [2]\ncomponents:\n  hero:\n    instances: [h1, h2]\n  photo:\n    instances: [p1]\n"
        "turn:\n  - do:\n      effect: pass\nend:\n  when: turn > 2\n"
        "scoring:\n  rank: r in roles\n  by: [0]\n  points: key\n")
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("count(heroes) == 2 and count(heros) == 2 and count(photos) == 1").test(state)


def test_the_english_plural_of_a_kind_or_a_type_is_its_list_too(tmp_path: Path) -> None:
    """A kind 'box' is listed as 'boxs'; 'boxes' was an unknown name (told to write 'boxs').  Now the English plural of
    a kind or a type (boxes, companies, dice, cities) is the same list, where the ruleset gives it no meaning of its
    own: a zone or a function named so keeps its meaning, and a local of that name is the local.  A counter per role
    named so kept it too, yet the bare word counted the pieces: it is the counter's now, as a function's is."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: boxed\ntitle: Boxed\nversion: 1\ndescription: x\nplayers: [2]\ntypes:\n  city: [Rome, Oslo]\n"
        "components:\n  box:\n    instances: [b1, b2]\n  company:\n    instances: [c1]\n  die:\n    instances: [d1]\n"
        "  half:\n    instances: [h1]\n"
        "  man:\n    instances: [m1]\n  wolf:\n    instances: [w1]\n"
        "zones:\n  halves: {kind: hand}\n"
        "counters:\n  wolves: {per: role}\n"
        "functions:\n  men(): 7\n"
        "turn:\n  - do:\n      effect: pass\n"
        "end:\n  when: turn > 2\n"
        "scoring:\n  rank: r in roles\n  by: [0]\n  points: key\n")
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    for text in ("count(boxes) == 2 and count(boxs) == 2", "count(companies) == 1 and count(dice) == 1",
                 "cities == citys and cities == [Rome, Oslo]", "count(halves) == 0",  # the zone, not the one half
                 "all(boxes == 2 for boxes in [2])",  # a local of that name
                 "men() == 7 and count(mans) == 1",  # a function of that name
                 "wolves(nth(roles, 1)) == 0 and count(wolfs) == 1"):  # a counter called as a function
        assert game.compile_condition(text).test(state) is True, text
    with pytest.raises(RulesetError, match=r"'wolves' is a function, not a name"):  # it counted the wolf pieces
        game.compile_condition("count(wolves) == 1")


def test_sorted_orders_numbers_lowest_or_highest_first(cards: engine.Game) -> None:
    """The second highest of three dice took 'sum(a) - max(a) - min(a)' (and for two dice 'min(a)'): dice compared
    pair by pair, highest against highest, now read nth(sorted(a, highest_first = true), 2)."""
    state = cards.new_state(players=2, seed=1)
    for condition in ("sorted([3, 6, 1]) == [1, 3, 6]", "sorted([3, 6, 1], highest_first = true) == [6, 3, 1]",
                      "nth(sorted([5, 2, 5, 4], highest_first = true), 2) == 5", "sorted([]) == []",
                      "nth(sorted(count(c in hand(r)) for r in roles), 1) == min(count(c in hand(r)) for r in roles)",
                      "sorted(k * k for k in [-3, 2] where k < 0) == [9]",
                      "sorted([2, 1], highest_first = 1 > 2) == [1, 2]"):
        assert cards.compile_condition(condition).test(state), condition
    assert "needs numbers to sort" in errors(cards, 'count(sorted(["b", "a"])) == 2')
    assert "has no option 'descending'" in errors(cards, "count(sorted([1], descending = true)) == 1")
    assert "highest_first" in errors(cards, "count(sorted([1], highest_first = 1)) == 1")
    with pytest.raises(EffectRuntimeError, match="has no value here"):
        cards.compile_condition("count(sorted([1, none])) == 2").test(state)
    assert cards.compile_condition("sorted([2, 1], highest_first = true) == [2, 1]").description == (
        "the numbers of [2, 1], highest first is [2, 1]")
