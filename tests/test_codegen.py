"""Generated code: the effect language as Python source, checked against the closures it replaces.

The closure compiler stays as the reference: every shipped ruleset plays the
same random games (the same actions, events and positions) with the
generated functions as with the closures.  The source names only what the
generator made up, a ruleset's text stays a literal, and an error in
generated code still points at the ruleset.
"""

from __future__ import annotations

import ast as python_ast
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.errors import EffectRuntimeError
from engine.core.paths import rulesets_dir
from engine.lang import budgets, codegen, selections
from engine.lang.codegen import GENERATED
from engine.runner.replay import state_hash


def playthrough(game: engine.Game, players: int, seed: int) -> list[object]:
    """A random game's actions, events and position hashes."""
    rng = random.Random(seed)
    s = game.new_state(players=players, seed=seed, record=True)
    seen: list[object] = [state_hash(s)]
    while not s.is_terminal:
        action = rng.choice(list(s.legal_actions()))
        s.apply(action)
        seen.append((str(action), state_hash(s)))
    return [seen, s.log, s.returns()]


@pytest.mark.parametrize("name", engine.builtin_names())
def test_generated_code_plays_the_games_the_closures_play(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    generated = engine.load(name)
    assert generated.vocab.data.get(GENERATED), "the ruleset's code is generated"
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = engine.load(name)
    assert not closures.vocab.data.get(GENERATED)
    for players in sorted({min(generated.player_counts), max(generated.player_counts)}):
        for seed in (1, 2):
            assert playthrough(generated, players, seed) == playthrough(closures, players, seed)


PLAIN = Path(__file__).resolve().parent.parent / "benchmarks" / "rulesets"


@pytest.mark.parametrize("name", ["plain-tic-tac-toe", "plain-connect-four"])
def test_plainly_written_rulesets_play_the_same_games_with_calls_written_inline(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    generated = engine.load(str(PLAIN / name))
    written = [text for where, text in generated.vocab.data[GENERATED] if "ruleset.yaml" in where]
    assert not any("call(" in text for text in written)  # the ruleset's code calls its functions inline
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = engine.load(str(PLAIN / name))
    for seed in range(6):
        assert playthrough(generated, 2, seed) == playthrough(closures, 2, seed)


def test_a_function_called_with_constants_is_written_inline_with_them_folded(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("end:\n", "functions:\n  step(int x, int d): x + 2 * d\nend:\n")
                    .replace("  when: gold(A) > 5", "  when: step(gold(A), 1) > 5"))
    game = engine.load(path)
    source = "".join(text for _, text in game.vocab.data[GENERATED])
    assert re.search(r"\(\(s\.counters\[k\d+\['A'\]\] \+ 2\) > 5\)", source) and "call(" not in source  # gold(A) + 2 * 1 > 5
    s = game.new_state(players=2)
    s.apply("choose 2")
    s.apply("choose 2")
    assert not s.is_terminal
    s.apply("choose 2")  # A has 4 gold: 4 + 2 * 1 > 5
    assert s.is_terminal


def test_an_argument_computed_once_is_kept_in_a_python_name_unless_a_closure_may_read_its_slot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An inline call keeps an argument that is not cheap (``gold(A) * 3``) in a Python name (``(v7 := ...)``);
    a body whose source passes the locals to a closure (a selection's) keeps it in a slot, which the closure reads."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("end:\n", "functions:\n  twice(int x): x + x\n"
                                              "  piled(int x): count(c in pile where c.value == x) + x\nend:\n")
                    .replace("  when: gold(A) > 5", "  when: twice(gold(A) * 3) > 30 or piled(gold(B) * 2) > 100"))
    game = engine.load(path)
    source = "".join(text for _, text in game.vocab.data[GENERATED])
    assert re.search(r"\(\(v\d+ := \(", source) and re.search(r"\(v\d+ \+ v\d+\)", source)  # twice: a name
    assert "e.__setitem__(" in source  # piled: a slot
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = engine.load(path)
    for ruleset in (game, closures):
        s = ruleset.new_state(players=2)
        for _ in range(4):  # A and B have 4 gold each
            s.apply("choose 2")
        assert [ruleset.compile_condition(text).test(s) for text in ("twice(gold(A) * 3) == 24",
                                                                    "piled(gold(B) * 2) == 8")] == [True, True]
        assert not s.is_terminal  # 24 is not more than 30, nor 8 more than 100


RULESET = """\
name: generated
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
      - {id: c1, value: 1}
zones:
  pile: {kind: pile}
counters:
  gold: {per: role}
turn:
  - do:
      effect: |
        let n = choose(x in [1, 2])
        if "'); import os; ('" == "x" or gold(current_role) > 2 and nth([1, 2], 5) > 1:
          gold(current_role) += 10
        else:
          gold(current_role) += n
end:
  when: gold(A) > 5
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def test_the_source_names_only_what_the_generator_made_and_text_stays_text(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET)
    game = engine.load(path)
    source = "".join(text for _, text in game.vocab.data[GENERATED])
    text = "'); import os; ('"
    assert repr(text) in source and source.count("import os") == 1  # only inside the literal
    s = game.new_state(players=2)
    for _ in range(4):
        s.apply("choose 1")
    assert s.counters == [2, 2]


def test_an_error_in_generated_code_points_at_the_ruleset(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET)
    s = engine.load(path).new_state(players=2)
    for _ in range(4):
        s.apply("choose 2")
    with pytest.raises(EffectRuntimeError, match=r"ruleset\.yaml:19:84: item 5 of \[1, 2\] has no value here .* so '>' cannot use it"):
        s.apply("choose 2")


def test_compile_prints_the_generated_module() -> None:
    from click.testing import CliRunner

    from cli.main import main

    summary = CliRunner().invoke(main, ["compile", "tic-tac-toe"])
    assert summary.exit_code == 0 and re.fullmatch(r"tic-tac-toe: \d+ functions, \d+ lines of Python generated .*\n", summary.output)
    shown = CliRunner().invoke(main, ["compile", "tic-tac-toe", "--show"])
    module = python_ast.parse(shown.output)  # the source is Python, one function per piece of code
    functions = [node for node in module.body if isinstance(node, python_ast.FunctionDef)]
    *functions, turn, act = functions  # the effect language's functions, then the turn's (tests/test_turn_code.py)
    assert shown.exit_code == 0 and len(functions) == int(summary.output.split()[1])
    assert all([arg.arg for arg in f.args.args] == ["s", "e"] for f in functions)
    assert (turn.name, act.name) == ("turn", "act") and [arg.arg for arg in turn.args.args] == ["s"]


# a difference (written with a try: its arithmetic is plain Python) and a negation (written as "(-...")
@pytest.mark.parametrize("when, written, column", [
    ("gold(A) > 5 or gold(B) - nth([1, 2], gold(B)) > 0", r"except \(?TypeError", 32),
    ("-gold(A) < -5 or -nth([1, 2], gold(B)) > 0", r"\(-", 26),
])
def test_none_met_as_a_number_in_a_condition_is_the_closures_error_at_its_place(
        when: str, written: str, column: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("  when: gold(A) > 5", f"  when: {when}"))
    messages = []
    for generated in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", generated)
        game = engine.load(path)
        source = "".join(text for _, text in game.vocab.data.get(GENERATED, []))
        assert bool(re.search(written, source)) is generated
        with pytest.raises(EffectRuntimeError, match=rf"ruleset\.yaml:24:{column}: .* has no value here .* so '-' cannot use it") as err:
            game.new_state(players=2).apply("choose 2")  # B has no gold: item 0 of the list is none
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_repeat_given_none_is_an_error_at_its_count_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``repeat nth(LIST, N):`` past the list's end raised Python's TypeError with a traceback (an option's list
    shorter than a setup reads: Nim with --set 'piles=[2, 2]'); now it is the error '+' gives, at the count."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("          gold(current_role) += n\n",
                                    "          repeat nth([1, 2], n + 1):\n            gold(current_role) += 1\n"))
    messages = []
    for generated in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", generated)
        s = engine.load(path).new_state(players=2)
        s.apply("choose 1")
        assert s.counters == [2, 0]
        with pytest.raises(EffectRuntimeError, match=r"ruleset\.yaml:22:18: item \(n plus 1\) of \[1, 2\] has no value here "
                                                     r".* so 'repeat' cannot use it"):
            s.apply("choose 2")
        messages.append(str(s.counters))
    assert messages == ["[2, 0]", "[2, 0]"]  # refused whole: the state is unchanged


@pytest.mark.parametrize("expression, word, missing", [
    ("sum(c.value for c in supply)", "sum()", "the value of c"),
    ("max(c.value for c in supply)", "max()", "the value of c"),
    ("min(c.value for c in supply where c.id == \"c2\")", "min()", "the value of c"),
    ("abs(nth([1], n))", "abs()", "item n of [1]"),
    # a statement of its own after "+= 0"; the second move's filter reads printed attributes only (a kept filter)
    ("0\n            move(c in supply, pile, nth([1], n))", "move()'s count", "item n of [1]"),
    ("0\n            move(c in supply where c.id == \"c1\", pile, nth([1], n))", "move()'s count", "item n of [1]"),
])
def test_none_given_to_a_function_that_needs_a_number_is_an_error_not_a_crash(
        expression: str, word: str, missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A value that is none (an attribute a component lacks, an item past a list's end) given to sum, max, min, abs
    or move's count raised Python's TypeError with a traceback (``rulecraft validate`` crashed), or max/min of
    it gave none, which '+=' then ignored; now each is the error '+' gives, in generated code and closures alike."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("      - {id: c1, value: 1}\n", "      - {id: c1, value: 1}\n      - {id: c2}\n")
                    .replace("          gold(current_role) += n\n",
                             f"          gold(current_role) += n\n          if n == 2:\n            gold(current_role) += {expression}\n"))
    for generated in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", generated)
        s = engine.load(path).new_state(players=2)
        s.apply("choose 1")
        with pytest.raises(EffectRuntimeError, match=rf"ruleset\.yaml:\d+:\d+: {re.escape(missing)} has no value here "
                                                     rf"\(nothing is written for it\), so {re.escape(word)} cannot use it"):
            s.apply("choose 2")
        assert s.counters == [1, 0]  # refused whole: the state is unchanged


def test_a_fast_filter_is_generated_and_lists_what_the_closures_list() -> None:
    from types import SimpleNamespace

    from engine.lang.budgets import spending
    from engine.lang.selections import CompiledSelection, _fast_filter
    from engine.lang.scope import Code, Scope, Vocabulary

    colour = [[0, 1, 0, 1, 0]]  # the same on every face
    side = [[0, 0, 1, 1, 0], [1, 0, 0, 1, 1]]  # by face: face 1 shows other values
    fast = ((colour, lambda s, e: e[0], colour[0]), (side, lambda s, e: e[1], None))
    source = spending(lambda s, e: s.zones[2], None, "selection")
    sel = CompiledSelection(source, 2, None, lambda s, e: True, None, fast, listed=Code("s.zones[2]"))
    generated = _fast_filter(sel, Scope(Vocabulary()))
    assert generated is not None and "for" in generated.generated_source
    for e in ([0, 0, None], [0, 1, None], [1, 1, None]):
        states = [SimpleNamespace(zones=[[], [], [4, 0, 2, 3, 1]], face=[0, 1, 0, 1, 1], budget=9) for _ in range(2)]
        assert generated(states[0], e) == CompiledSelection.items(sel, states[1], e)
        assert states[0].budget == states[1].budget == 4
    limits = SimpleNamespace(limits=SimpleNamespace(steps=3))
    poor = SimpleNamespace(zones=[[], [], [4, 0, 2, 3, 1]], face=[0] * 5, budget=3, game=limits)
    with pytest.raises(EffectRuntimeError, match="step budget"):
        generated(poor, [0, 0, None])


def test_counting_a_zone_or_a_constant_list_is_written_inline() -> None:
    """An end condition ``count(c in board) == count(c in cards)``: the zone's length and the list's size are
    written in its source (no call), and it says whether the board holds every card as the board fills."""
    game = engine.load("iconoclasm-cards")
    board, cards = game.board_zone, len(game.component_names)
    condition = game.end_condition
    assert condition is not None and condition.text == "count(c in board) == count(c in cards)"
    assert f"(len(s.zones[{board}]) == {cards})" in condition.fn.generated_source  # type: ignore[attr-defined]
    s, choose = game.new_state(players=4, seed=3), random.Random(3)
    while not s.is_terminal:
        assert condition.test(s) == (len(s.zones[board]) == cards)
        s.play(choose.randrange(len(s.legal_actions())))
    assert condition.test(s)


@pytest.mark.parametrize("steps", [None, 40, 200])
def test_an_aggregate_over_a_fast_filter_tests_each_item_in_its_loop_and_spends_what_its_list_spends(
        steps: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``any(... for p in board where p.colour == r)`` in a function: the loop walks the board and skips what the
    filter rejects (no list of the pieces first), and every position of random games gives the same answer,
    the same steps spent and, on a small budget, the same error at the same place as the loop over the
    filter's list."""
    from types import SimpleNamespace

    from engine.lang import functions

    inline = engine.load(str(PLAIN / "plain-connect-four"))
    written = [text for where, text in inline.vocab.data[GENERATED] if ":58:5" in where]
    assert written and all("continue" in text and "found" not in text for text in written)
    items = functions._items
    monkeypatch.setattr(functions, "_items", lambda sel, x, scope: items(sel, x, SimpleNamespace(pure=False)))
    listed = engine.load(str(PLAIN / "plain-connect-four"))
    assert not any("continue" in text for where, text in listed.vocab.data[GENERATED] if ":58:5" in where)
    for seed in range(4):
        s, choose = inline.new_state(players=2, seed=seed), random.Random(seed)
        while not s.is_terminal:
            answers = []
            for game in (inline, listed):
                t = game.new_state(players=2, seed=seed)
                t.grid, t.cell_of, t.zones = s.grid, s.cell_of, s.zones
                t.budget = steps if steps is not None else t.budget
                try:
                    answers.append((game.end_condition.test(t), t.budget))
                except EffectRuntimeError as error:
                    answers.append((str(error), error.pos))
            assert answers[0] == answers[1]
            s.play(choose.randrange(len(s.legal_actions())))


def test_a_loop_reads_its_item_from_a_python_name_where_its_body_hands_the_locals_to_nothing() -> None:
    """``count(t in board where t.mark == m and t.cell.y == y)``: the filter reads the loop's name ``x..``, not
    the item's slot, which it then does not store either (the closures a failure runs store their items
    themselves); a component of a zone is never none, so its reads are not guarded against none; the games
    played are the closures' (see the test of the plainly written rulesets above)."""
    game = engine.load(str(PLAIN / "plain-tic-tac-toe"))
    loops = [text for where, text in game.vocab.data[GENERATED] if ":52:" in where and "for x" in text]
    assert loops
    for text in loops:
        item = re.search(r"for (x\d+) in", text)
        assert item and f"None if {item.group(1)} is None" not in text
        assert f"[{item.group(1)}]" in text and f"= {item.group(1)}\n" not in text


@given(zone=st.lists(st.integers(0, 5), max_size=8), wanted=st.integers(0, 3), budget=st.integers(0, 10))
def test_first_is_generated_and_finds_spends_and_runs_out_where_the_closure_does(
        zone: list[int], wanted: int, budget: int) -> None:
    """``first(x in ZONE where x.value == wanted)``: the generated loop returns the closure's item, spends the
    zone's steps up front as it does, and runs out of steps in the same place."""
    from types import SimpleNamespace

    from engine.blocks.position_functions import _generated_first
    from engine.lang import ast
    from engine.lang.scope import Code, Scope, Vocabulary

    value = [3, 1, 0, 3, 2, 1]
    where = lambda s, e: value[e[1]] == e[0]
    source = budgets.spending(lambda s, e: s.zones[1], None, "selection")
    sel = selections.CompiledSelection(source, 1, None, where, None, listed=Code("s.zones[1]"),
                                test=Code("(k9[e[1]] == e[0])", None, (("k9", value),)))

    def first(s: object, e: list[object]) -> object:
        for x in source(s, e):
            e[1] = x
            if where(s, e):
                return x
        return None

    generated = _generated_first(sel, ast.Call(None, "first", []), Scope(Vocabulary()), first)
    assert generated is not None and "return x" in generated.generated_source
    answers = []
    for f in (generated, first):
        s = SimpleNamespace(zones=[[], list(zone)], budget=budget, game=SimpleNamespace(limits=SimpleNamespace(steps=9)))
        try:
            answers.append((f(s, [wanted, None]), s.budget))
        except EffectRuntimeError as error:
            answers.append((str(error), s.budget))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("name", ["iconica", "spell-cycles"])
def test_reads_moved_out_of_loops_play_the_games_the_loops_reading_them_each_time_play(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A selection's loop reads what its item does not change once, before it (engine/lang/hoisted.py): the same
    random games as with the reads made for every item."""
    hoisted = engine.load(name)
    assert any("except Exception" in text for _, text in hoisted.vocab.data[GENERATED]), "some read moves"
    monkeypatch.setattr(codegen, "HOISTING", False)
    each_time = engine.load(name)
    assert not any("except Exception" in text for _, text in each_time.vocab.data[GENERATED])
    for seed in (1, 2, 3):
        assert playthrough(hoisted, 2, seed) == playthrough(each_time, 2, seed)


@given(zone=st.lists(st.integers(0, 5), max_size=6), wanted=st.integers(0, 4), budget=st.integers(0, 8),
       unchanging=st.booleans())
def test_a_read_moved_out_of_a_loop_that_fails_leaves_the_answer_the_spending_and_the_error_to_the_closures(
        zone: list[int], wanted: int, budget: int, unchanging: bool) -> None:
    """``count(x in ZONE where x.value == next[wanted])``: ``next[wanted]`` is read once, before the loop, and
    fails for 4 — where the zone is empty the closures answer 0 without reading it, else they fail too; the
    generated count answers, spends and fails as they do.  A loop that may change something reads it each time."""
    from types import SimpleNamespace

    from engine.lang import ast
    from engine.lang.functions import Count
    from engine.lang.scope import Code, Scope, Vocabulary

    value, following = [3, 1, 0, 3, 2, 1], {0: 1, 1: 2, 2: 3, 3: 0}
    where = lambda s, e: value[e[1]] == following[e[0]]
    source = budgets.spending(lambda s, e: s.zones[1], None, "selection")
    a, b = codegen.fresh("k"), codegen.fresh("k")
    sel = selections.CompiledSelection(source, 1, None, where, None, listed=Code("s.zones[1]"),
                                test=Code(f"({a}[e[1]] == {b}[e[0]])", None, ((a, value), (b, following))), pure=unchanging)

    def count(s: object, e: list[object]) -> int:
        n = 0
        for x in source(s, e):
            e[1] = x
            n += bool(where(s, e))
        return n

    generated = Count._generated(sel, ast.Call(None, "count", []), Scope(Vocabulary()), count)
    assert generated is not None
    assert ("h" in re.findall(r"\b([a-z])\d+ = k\d+\[e\[0\]\]", generated.generated_source)) is unchanging
    answers = []
    for f in (generated, count):
        s = SimpleNamespace(zones=[[], list(zone)], budget=budget, game=SimpleNamespace(limits=SimpleNamespace(steps=9)))
        try:
            answers.append((f(s, [wanted, None]), s.budget))
        except (EffectRuntimeError, KeyError) as error:
            answers.append((repr(error), s.budget))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("body", [
    ("for x1 in k1:", "    e.__setitem__(3, x1)", "    n = k2[e[3]]"),  # a local the loop writes
    ("for x1 in k1:", "    e[3] = x1", "    n = k2[e[3]]"),
    ("for x1 in k1:", "    t2 = x1", "    n = k2[t2]"),  # a name it writes
    ("for x1 in k1:", "    n = k2[s.budget]"),  # the step budget
    ("for x1 in k1:", "    s.zones = x1", "    n = k2[e[0]]"),  # a part of the state: nothing moves
    ("for x1 in k1:", "    found.append([x1 for x in k2[e[0]]])"),  # in an expression with names of its own
])
def test_a_read_that_the_loop_may_change_stays_in_it(body: tuple[str, ...]) -> None:
    from engine.lang.hoisted import hoist

    assert hoist(body, codegen.fresh, {"k1": [], "k2": {}}, "k9") == body
    assert hoist(("for x1 in k1:", "    n = k2[e[0]]"), codegen.fresh, {"k1": [], "k2": {}}, "k9")[0] == "try:"


@pytest.mark.parametrize("unchanging", [True, False])
def test_a_loop_that_changes_nothing_walks_the_zone_itself_and_one_that_may_walks_a_copy(unchanging: bool) -> None:
    """``sum(x.value for x in ZONE)``: a loop whose value changes nothing needs no copy of the zone's list."""
    from types import SimpleNamespace

    from engine.lang import ast
    from engine.lang.language import LANGUAGE, by_name
    from engine.lang.scope import Code, Compiled, Scope, Vocabulary
    from engine.lang.types import INT

    value = [3, 1, 0, 3, 2, 1]
    sel = selections.CompiledSelection(budgets.spending(lambda s, e: s.zones[1], None, "selection"), 1, None, None, None,
                                listed=Code("s.zones[1]"), pure=unchanging)
    table = codegen.fresh("k")
    term = Compiled(INT, lambda s, e: value[e[1]], code=Code(f"{table}[e[1]]", None, ((table, value),)))
    scope = Scope(Vocabulary())
    scope.pure = unchanging
    failed = lambda: AssertionError("no value is none")  # noqa: E731
    generated = by_name(LANGUAGE)["sum"]._generated(sel, term, ast.Call(None, "sum", []), scope, None, failed)
    assert ("list(s.zones[1])" in generated.generated_source) is not unchanging
    s = SimpleNamespace(zones=[[], [0, 3, 4]], budget=5)
    assert (generated(s, [None, None]), s.budget) == (8, 2)


def _loaded_both_ways(name: str) -> tuple[engine.Game, engine.Game]:
    """A plainly written ruleset loaded with generated code and with closures alone."""
    generated = engine.load(str(PLAIN / name))
    codegen.ENABLED = False
    try:
        closures = engine.load(str(PLAIN / name))
    finally:
        codegen.ENABLED = True
    return generated, closures


BOTH_WAYS = {name: _loaded_both_ways(name) for name in ("plain-connect-four", "plain-tic-tac-toe")}


def test_kept_reads_are_walked_inline_and_what_a_test_found_present_is_not_asked_again() -> None:
    """The plain Connect Four's loops walk ``empty_cells`` and ``roles`` as the state keeps them (``s.empty``,
    ``s.positions``); ``at(x, y) != none and at(x, y).colour == r`` asks once whether the cell holds a piece
    (by identity), and a piece's cell is read once for its four lines, never asked whether it is none (a piece
    of the board has one)."""
    generated, _ = BOTH_WAYS["plain-connect-four"]
    texts = [text for where, text in generated.vocab.data[GENERATED] if "ruleset.yaml" in where]
    assert any(re.search(r"(t\d+) = s\.empty\n(.*\n)*\s+for x\d+ in \1:", text) for text in texts)
    assert any(re.search(r"(t\d+) = s\.positions\n(.*\n)*\s+for x\d+ in \1:", text) for text in texts)
    assert not any("!= None" in text or "== None" in text for text in texts)
    won = [text for where, text in generated.vocab.data[GENERATED] if ":58:5" in where]
    assert won and all(text.count("s.cell_of[") == 1 and " is None" not in text for text in won)
    assert not any(re.search(r"is not None\) and \(\(None if", text) for text in won)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_generated_code_answers_what_the_closures_answer_on_any_board(data: st.DataObject) -> None:
    """Pieces put anywhere (floating discs, full lines, several lines at once): the plain rulesets' end condition
    and offers are the same with generated code as with closures (a call written inline spends no step of its
    own, so the steps spent may differ)."""
    name = data.draw(st.sampled_from(sorted(BOTH_WAYS)))
    generated, closures = BOTH_WAYS[name]
    cells = list(generated.grid.cells)
    chosen = data.draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)))
    answers = []
    for game in (generated, closures):
        s = game.new_state(players=2, seed=0)
        for i, cell in enumerate(chosen):
            cid = next(c for c in range(len(s.zone_of)) if s.cell_of[c] is None and game.piece_names[c] == s.positions[i % 2])
            s.place(cid, cell)
        answers.append((game.end_condition.test(s), [str(a) for a in s.legal_actions()]))
    assert answers[0] == answers[1]


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_kept_longest_line_read_inline_is_the_longest_line_on_any_board(data: st.DataObject) -> None:
    """``longest_line(d in board where d.colour == r)`` in code that changes nothing reads the answer the state
    keeps inline (``s.lines``); with discs put anywhere and taken off again, the end condition and each seat's
    running score are those of the lines searched afresh."""
    from engine.blocks.grid import longest_line

    game = engine.load("connect-four")
    source = (rulesets_dir() / "connect-four" / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    end = next(i for i, line in enumerate(source, 1) if line.strip().startswith("when: any(line(r)"))
    assert any("s.lines.get(" in text for where, text in game.vocab.data[GENERATED] if f":{end}:" in where)
    cells = list(game.grid.cells)
    moves = data.draw(st.lists(st.tuples(st.sampled_from(cells), st.booleans()), max_size=30))
    s = game.new_state(players=2, seed=0)
    for i, (cell, lift) in enumerate(moves):
        on = s.grid.get(cell)
        if on is not None and lift:
            s.move(on, s.zone_of[next(c for c in range(len(s.zone_of)) if s.cell_of[c] is None
                                      and game.piece_names[c] == game.piece_names[on])])
        elif on is None:
            s.place(next(c for c in range(len(s.zone_of)) if s.cell_of[c] is None
                         and game.piece_names[c] == s.positions[i % 2]), cell)
        lines = {r: longest_line([c for c, p in s.grid.items() if game.piece_names[p] == r], game.grid.offsets)
                 for r in s.positions}
        ended = any(n >= 4 for n in lines.values()) or len(s.grid) == len(cells)
        assert game.end_condition.test(s) == ended
        assert [game.score_of(s, seat) for seat in (1, 2)] == [lines[r] for r in s.positions]


WHILE_GAME = """\
name: while-demo
players: [2]
components:
  chip:
    attributes: {value: int}
    instances: [{id: chip, value: 1, count: 12}]
zones:
  pot: {kind: pile}
  heap: {kind: pile, per: role}
counters:
  taken: {per: role}
setup: |
  move(c in supply, pot)
turn:
  - do:
      effect: |
        let n = choose(x in [1, 2, 3])
        while taken(current_role) < 100 and n > 0 and count(c in pot) > 0:
          move(c in pot, heap(current_role), 1)
          taken(current_role) += n
end:
  when: count(c in pot) == 0
scoring:
  rank: r in roles
  by: [count(c in heap(r))]
  points: key
"""


def test_a_while_loop_is_generated_and_plays_what_the_closures_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ruleset.yaml").write_text(WHILE_GAME)
    generated = engine.load(tmp_path)
    assert any("while " in text for _, text in generated.vocab.data[GENERATED])
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = engine.load(tmp_path)
    for seed in range(4):
        assert playthrough(generated, 2, seed) == playthrough(closures, 2, seed)


def test_generated_source_is_read_back_one_thread_at_a_time() -> None:
    """Three pages of a new server compiling rulesets at once failed with "AST constructor recursion depth mismatch"
    (SystemError): CPython 3.11 counts the depth of the Python syntax tree being built in one counter for all threads.
    Every parse of generated source goes through one lock: while another thread holds it, a parse waits."""
    import threading

    from engine.lang import shared

    done = threading.Event()
    with shared._PARSING:
        worker = threading.Thread(target=lambda: (shared.parse_python("e[1] + 2", "eval"), done.set()))
        worker.start()
        assert not done.wait(0.2)  # waiting for the lock
    worker.join(5)
    assert done.is_set()


def test_plain_othello_plays_the_same_games_with_its_numbers_cells_and_lets_generated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plainly written Othello walks `numbers(1, 8)`, builds cells `(x + k * dx, y + k * dy)` and keeps a `let`
    in a function: each is generated source now (they were closures called from the generated code), and the games
    stay the closures' games."""
    generated = engine.load(str(PLAIN / "plain-othello"))
    written = "".join(text for where, text in generated.vocab.data[GENERATED] if "ruleset.yaml" in where)
    assert re.search(r"t\d+ = k\d+\(s, 1, 8\)", written)  # the loop walks the numbers' list inline
    assert re.search(r"s\.grid\.get\(\(v\d+, v\d+\)\)", written)  # a cell built in the source
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = engine.load(str(PLAIN / "plain-othello"))
    for seed in range(2):  # the actions and log (a paused effect's locals differ in number: inline calls take slots)
        (seen, log, returns), (other, other_log, other_returns) = (playthrough(game, 2, seed) for game in (generated, closures))
        assert [action for action, _ in seen[1:]] == [action for action, _ in other[1:]]  # type: ignore[misc]
        assert (log, returns) == (other_log, other_returns)


LETS = """\
functions:
  spread(int x):
    let:
      y: x * 2
      z: y + x
    is: y + z
  span(int x): count(n in numbers(1, x)) + abs(x - 9) + sgn(x - 3)
  both(int x): spread(x) == 10 and span(x) == 8
end:
"""


@pytest.mark.parametrize("condition, holds", [
    ("spread(gold(A)) == 10", True),  # A has 2 gold: y = 4, z = 4 + 2
    ("spread(gold(A)) == 9", False),
    ("span(gold(A)) == 2 + 7 - 1", True),  # two numbers, |2 - 9|, the sign of 2 - 3
    ("count(n in numbers(gold(A), 1)) == 0", True),
])
def test_a_function_with_lets_numbers_abs_and_sgn_are_generated_and_answer_as_the_closures(
        condition: str, holds: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A function with `let:` is written inline where its lets and body are plain expressions (each let computed
    once, into a Python name); `numbers`, `abs` and `sgn` are source of their own in code that changes nothing."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("end:\n", LETS))
    game = engine.load(path)
    both = next(text for _, text in game.vocab.data[GENERATED] if "== 10)" in text)  # both(x), the others written inline
    assert "call(" not in both and re.search(r"\(\(v\d+ := ", both)  # spread's lets kept in Python names
    called = game.compile_condition(condition)
    monkeypatch.setattr(codegen, "ENABLED", False)
    closures = engine.load(path)
    answers = []
    for ruleset, test in ((game, called), (closures, closures.compile_condition(condition))):
        s = ruleset.new_state(players=2)
        s.apply("choose 2")
        answers.append(test.test(s))
    assert answers == [holds, holds]


@pytest.mark.parametrize("condition, missing, word", [
    ("spread(nth([1], gold(A))) > 0", "x", "'*'"),  # none given to a function whose let multiplies it
    ("span(nth([1], gold(A))) > 0", "x", "'-'"),
    ("abs(nth([1], gold(A))) > 0", "item the gold of A of [1]", "abs()"),
])
def test_none_in_a_generated_let_abs_or_numbers_is_the_closures_error_at_its_place(
        condition: str, missing: str, word: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("end:\n", LETS))
    errors = []
    for generated in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", generated)
        game = engine.load(path)
        s = game.new_state(players=2)
        s.apply("choose 2")
        with pytest.raises(EffectRuntimeError) as caught:
            game.compile_condition(condition).test(s)
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and word in errors[0]


def test_numbers_too_many_is_the_same_error_generated_or_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET)
    errors = []
    for generated in (True, False):
        monkeypatch.setattr(codegen, "ENABLED", generated)
        game = engine.load(path)
        with pytest.raises(EffectRuntimeError) as caught:
            game.compile_condition("count(n in numbers(1, gold(A) + 20000)) > 0").test(game.new_state(players=2))
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and "at most 10000" in errors[0]


def test_a_property_of_the_state_given_as_an_argument_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`current_role` is a property (it looks through the turn's decisions): given to a function written inline it was
    written again at each use of the parameter, read again each time; now it is read once, into a name."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("end:\n", "functions:\n  rich(side r): gold(r) + gold(r) * 2 > 3 or gold(r) == 1\n"
                                              "  mine(): rich(current_role)\nend:\n"))
    game = engine.load(path)
    mine = next(text for _, text in game.vocab.data[GENERATED] if "> 3" in text and "current_role" in text)
    assert mine.count("s.current_role") == 1, mine
    answers = []
    for ruleset in (game, (monkeypatch.setattr(codegen, "ENABLED", False), engine.load(path))[1]):
        s = ruleset.new_state(players=2)
        s.apply("choose 1")  # A has 1 gold; B is to move with none
        answers.append([ruleset.compile_condition(text).test(s) for text in ("mine()", "rich(A)", "rich(B)")])
    assert answers == [[False, True, False]] * 2


def test_the_reads_the_generator_takes_for_properties_are_properties_of_the_state() -> None:
    from engine.lang.shared import COMPUTED
    from engine.model.state import State

    assert COMPUTED and all(isinstance(getattr(State, name, None), property) for name in COMPUTED)
