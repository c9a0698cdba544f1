"""Nested aggregates written inline (engine/lang/inlined.py): a generated function writes the generated functions it
calls where it calls them, and answers, spends and fails as the calls did and as the closures do."""

from __future__ import annotations

import ast as python_ast
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.errors import EffectRuntimeError
from engine.lang import codegen, kept
from engine.lang.codegen import GENERATED
from engine.lang.functions import LANGUAGE, by_name
from engine.lang.inlined import BODY, MARK, Body, inline
from engine.lang.parser import parse_expression
from engine.lang.scope import Scope, Vocabulary
from engine.lang.types import ZONE
from engine.runner.simulate import derive_seed

NESTING = ["nine-domains", "liars-dice", "iconoclasm-cards", "kuhn-poker"]  # shipped rulesets with nested aggregates


def _games(game: engine.Game, seeds: range) -> list[object]:
    """Random playouts' final positions and returns, and the histories of recorded games."""
    seen: list[object] = []
    for index in seeds:
        seed = derive_seed(5, index)
        s, choose = game.new_state(players=2, seed=seed, record=index % 4 == 0), random.Random(seed)
        while not s.is_terminal:
            s.play(choose.randrange(len(s.legal_actions())))
        seen.append((s.returns(), [str(event) for event in s.log] if index % 4 == 0 else s.positions))
    return seen


def _written_inline(game: engine.Game) -> int:
    """How many of a ruleset's generated functions hold a body written inline (under a comment naming its place)."""
    return sum(bool(re.search(r"^ +# .*:\d+:\d+$", text, re.M)) for _, text in game.vocab.data[GENERATED])


def _depth(text: str) -> int:
    """How deep the ``for`` loops of a generated function nest."""

    def deep(node: python_ast.AST) -> int:
        inner = max((deep(child) for child in python_ast.iter_child_nodes(node)), default=0)
        return inner + isinstance(node, python_ast.For)

    return deep(python_ast.parse(text))


@pytest.mark.parametrize("name", NESTING)
def test_nested_aggregates_written_inline_play_the_games_the_calls_play(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    inlined = engine.load(name)
    monkeypatch.setattr(codegen, "INLINING", False)
    called = engine.load(name)
    assert _written_inline(inlined) and not _written_inline(called)
    assert _games(inlined, range(24)) == _games(called, range(24))


def test_the_elements_held_are_counted_in_one_function_of_nested_loops() -> None:
    """The Nine Domains' count of the players holding every element: one function walks the roles, the elements and
    each role's won cards, reading the role and the element from the loops' own names, each body written inline
    under a comment naming where it is written."""
    game = engine.load("nine-domains")
    texts = [text for where, text in game.vocab.data[GENERATED] if where.endswith(":234:11") and "for " in text]
    whole = [text for text in texts if _depth(text) == 3]
    assert whole
    for text in whole:
        assert not re.search(r"\bk\d+\(s, e\)", text.split("except")[0])  # no generated function called
        assert "e[0]" not in text.split("except")[0] and "e[1]" not in text.split("except")[0]
        assert "# " in text and MARK not in text and "ruleset.yaml:234:38" in text


# ------------------------------------------------------------------ any nesting, against the closures


def _vocabulary() -> Vocabulary:
    vocab = Vocabulary(functions=by_name(LANGUAGE))
    vocab.define_constant("pool", ZONE, 0)
    vocab.define_constant("bag", ZONE, 1)
    vocab.data[kept.KEEPING] = True  # compiled as written, not kept (kept values have tests of their own)
    return vocab


SOURCES = ["pool", "bag", "[1, none, 3]", "[0, 2]"]


def _condition(draw: Any, bound: list[str], depth: int) -> str:
    """A condition over the variables ``bound``: comparisons, and/or/not/if, and aggregates nesting further."""
    v = draw(st.sampled_from(bound))
    n = draw(st.integers(0, 4))
    plain = [f"{v} == {n}", f"{v} > {n}", f"{v} + {n} >= 3"]
    choice = draw(st.integers(0, 9 if depth < 3 else 2))
    if choice <= 2:
        return plain[choice]
    if choice == 3:
        return f"({_condition(draw, bound, depth + 1)} or {_condition(draw, bound, depth + 1)})"
    if choice == 4:
        return f"({_condition(draw, bound, depth + 1)} and {_condition(draw, bound, depth + 1)})"
    if choice == 5:
        return f"not {_condition(draw, bound, depth + 1)}"
    if choice == 6:
        return (f"(if {_condition(draw, bound, depth + 1)} then {_condition(draw, bound, depth + 1)} "
                f"else {_condition(draw, bound, depth + 1)})")
    return f"{_aggregate(draw, bound, depth + 1)} {draw(st.sampled_from(['>=', '==', '<']))} {n}" if choice == 7 \
        else _aggregate(draw, bound, depth + 1, boolean=True)


def _aggregate(draw: Any, bound: list[str], depth: int, boolean: bool = False) -> str:
    """``count``, ``sum``, ``max`` (a number) or ``any``, ``all`` (a truth value) over a source, nesting conditions."""
    var = "abcdefgh"[len(bound)]
    inner = [*bound, var]
    source = draw(st.sampled_from(SOURCES))
    test = _condition(draw, inner, depth)
    if boolean:
        return f"{draw(st.sampled_from(['any', 'all']))}({test} for {var} in {source})"
    kind = draw(st.sampled_from(["count", "sum", "max"]))
    if kind == "count":
        return f"count({var} in {source} where {test})"
    return f"{kind}({var} + 1 for {var} in {source} where {test})"


@st.composite
def nested(draw: Any) -> str:
    return f"count(a in pool where {_condition(draw, ['a'], 0)})" if draw(st.booleans()) \
        else _aggregate(draw, [], 0, boolean=draw(st.booleans()))


def _run(text: str, zones: list[list[int]], budget: int) -> list[Any]:
    """What ``text`` gives, then spends, compiled written inline, as calls, and as closures (or the error it raises)."""
    answers = []
    for enabled, inlining in ((True, True), (True, False), (False, False)):
        codegen.ENABLED, codegen.INLINING = enabled, inlining
        try:
            fn = parse_expression(text).compile(Scope(_vocabulary())).fn
        finally:
            codegen.ENABLED, codegen.INLINING = True, True
        s = SimpleNamespace(zones=[list(z) for z in zones], budget=budget, game=SimpleNamespace(limits=SimpleNamespace(steps=9)))
        try:
            answers.append(("value", fn(s, [None] * 12), budget - s.budget))
        except EffectRuntimeError as error:
            answers.append(("error", str(error), None))
    return answers


@settings(max_examples=150, deadline=None)
@given(text=nested(), zones=st.lists(st.lists(st.integers(0, 4), max_size=4), min_size=2, max_size=2))
def test_any_nesting_written_inline_answers_spends_and_fails_as_the_closures(text: str, zones: list[list[int]]) -> None:
    inlined, called, closures = _run(text, zones, 10_000)
    assert inlined == closures, text
    assert called == closures, text


@settings(max_examples=80, deadline=None)
@given(text=nested(), zones=st.lists(st.lists(st.integers(0, 4), max_size=4), min_size=2, max_size=2),
       budget=st.integers(0, 40))
def test_any_nesting_written_inline_runs_out_of_steps_where_the_closures_do(text: str, zones: list[list[int]],
                                                                           budget: int) -> None:
    """With a short budget: the same answers and steps wherever the closures answer, and an error wherever they fail
    (a function that fails runs its closures again from its start, which may then run out of steps first)."""
    inlined, _, closures = _run(text, zones, budget)
    assert inlined[0] == closures[0], text
    if closures[0] == "value":
        assert inlined == closures, text


def test_a_nested_aggregate_is_written_inline() -> None:
    """Not only the same answers: the outer function holds the inner loop and calls no function for it."""
    fn = parse_expression("count(a in pool where any(b == a for b in bag) or count(b in bag where b > a) >= 2)").compile(
        Scope(_vocabulary())).fn
    text = fn.generated_source
    assert _depth(text) == 2 and not re.search(r"\bk\d+\(s, e\)", text.split("except")[0])


@pytest.mark.parametrize("lines", [
    ("return [k1(s, e) for x in k2]",),  # in an expression with names of its own
    ("return k3(s, e) < k1(s, e) < 2",),  # a chained comparison
])
def test_a_call_in_code_that_cannot_be_taken_apart_stays_a_call(lines: tuple[str, ...]) -> None:
    def k1(s: Any, e: Any) -> None:
        """A generated function handing over its body."""

    setattr(k1, BODY, Body(("return 1",), {}, False, False, "x"))
    namespace = {"k1": k1, "k2": [], "k3": k1}
    assert inline(lines, namespace, codegen.fresh, retry=True) == (lines, False, False)
