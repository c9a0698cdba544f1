"""Kept values (engine/lang/kept.py): an aggregate kept by the contents of the zones it reads gives what computing it
afresh gives, steps spent included, at every call of random games; and these checks catch a table keyed wrongly."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.errors import EffectRuntimeError
from engine.lang import kept
from engine.lang.language import LANGUAGE, by_name
from engine.lang.parser import parse_expression
from engine.lang.scope import Scope, Vocabulary
from engine.lang.types import ZONE
from engine.runner.simulate import derive_seed

KEEPING_RULESETS = ["nine-domains"]  # the shipped rulesets with kept values


class Mismatch(AssertionError):
    """A kept value that is not the value computed afresh."""


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every kept value made while the test runs also computes its value afresh and compares: the list counts the
    calls that found their value in the table."""
    hits = [0]
    made = kept._generated

    def checking(fn: Any, zones: Any, names: Any, values: Any, call: Any, scope: Any, reference: Any) -> Any:
        value = made(fn, zones, names, values, call, scope, reference) or reference

        def check(s: Any, e: list[Any]) -> Any:
            budget, known = s.budget, len(values)
            want = fn(s, e)
            spent, s.budget = budget - s.budget, budget
            got = value(s, e)
            hits[0] += len(values) == known
            if got != want or budget - s.budget != spent:
                raise Mismatch(f"kept {got!r} ({budget - s.budget} steps), afresh {want!r} ({spent} steps)")
            return got

        return check

    monkeypatch.setattr(kept, "_generated", checking)
    yield hits


def play(game: engine.Game, seeds: range) -> None:
    for index in seeds:
        seed = derive_seed(11, index)
        state, choose = game.new_state(players=2, seed=seed), random.Random(seed)
        while not state.is_terminal:
            state.play(choose.randrange(len(state.legal_actions())))
        state.returns()


@pytest.mark.parametrize("name", KEEPING_RULESETS)
def test_kept_values_are_the_values_computed_afresh(name: str, checked: list[int]) -> None:
    play(engine.load(name), range(150))
    assert checked[0] > 150  # the tables were read, not only filled


def test_the_shipped_rulesets_keeping_values_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    keeping = []
    made = kept.kept
    monkeypatch.setattr(kept, "kept", lambda *args: keeping.append(1) or made(*args))
    found = []
    for name in engine.builtin_names():
        keeping.clear()
        engine.load(name)
        found += [name] * bool(keeping)
    assert found == KEEPING_RULESETS


def test_a_table_keyed_by_too_few_zones_is_caught(monkeypatch: pytest.MonkeyPatch, checked: list[int]) -> None:
    """The check above fails when the key leaves out a zone the value reads: it would catch a wrong key."""
    read = kept.reading
    monkeypatch.setattr(kept, "reading", lambda call, scope: (r := read(call, scope)) and kept.Reading(r.zones[:1], r.names))
    with pytest.raises(Mismatch):
        play(engine.load("nine-domains"), range(150))


def test_a_tallied_count_is_no_nesting() -> None:
    """A count the state tallies, or a zone's size, is read, not walked: the aggregate around it is computed afresh."""
    vocab = Vocabulary(functions=by_name(LANGUAGE))
    vocab.define_constant("pool", ZONE, 0)
    vocab.define_constant("bag", ZONE, 1)
    vocab.data[kept.FIXED_ATTRIBUTES] = {("component", "hue")}
    vocab.define_attribute("component", "hue", ZONE, lambda base: base, "its hue")

    def keeps(text: str) -> bool:
        return kept._nests(parse_expression(text), Scope(vocab), False)

    assert keeps("count(x in pool where count(y in bag where y == x) > 0)")
    assert not keeps("count(x in pool where count(y in bag where y.hue == x) > 0)")
    assert not keeps("count(x in pool where count(y in bag) > x)")
    assert not keeps("count(x in pool where x > 2)")


GAME = SimpleNamespace(limits=SimpleNamespace(steps=30))  # what running out of steps reads
ZONES = st.lists(st.lists(st.integers(0, 4), max_size=4), min_size=2, max_size=2)


@settings(max_examples=60, deadline=None)
@given(st.lists(ZONES, min_size=1, max_size=12))
def test_kept_values_follow_the_zones(contents: list[list[list[int]]]) -> None:
    """A kept aggregate over two zones, read again as their contents change: each value is the one computed afresh."""
    vocab = Vocabulary(functions=by_name(LANGUAGE))
    vocab.define_constant("pool", ZONE, 0)
    vocab.define_constant("bag", ZONE, 1)
    text = "sum(count(y in bag where y == x) for x in pool)"
    value = parse_expression(text).compile(Scope(vocab)).fn
    assert vocab.data[kept.KEPT]  # kept
    for zones in contents:
        s = SimpleNamespace(zones=zones, budget=1000)
        want = sum(zones[1].count(x) for x in zones[0])
        assert value(s, [None] * 4) == want
        spent, s.budget = 1000 - s.budget, 1000
        assert value(s, [None] * 4) == want and 1000 - s.budget == spent == len(zones[0]) * (1 + len(zones[1]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(ZONES, st.integers(0, 30)), min_size=1, max_size=16))
def test_the_value_last_read_is_given_only_for_its_contents(reads: list[tuple[list[list[int]], int]]) -> None:
    """The value last read (compared before the key is made) is given again only for the same contents and a budget
    that covers its steps: reads of changing contents with budgets too short among them each give what computing
    afresh gives, the value and its steps or running out of steps."""
    vocab = Vocabulary(functions=by_name(LANGUAGE))
    vocab.define_constant("pool", ZONE, 0)
    vocab.define_constant("bag", ZONE, 1)
    value = parse_expression("sum(count(y in bag where y == x) for x in pool)").compile(Scope(vocab)).fn
    assert vocab.data[kept.KEPT_LAST]  # the generated function, which keeps the value last read
    for zones, budget in reads:
        spent = len(zones[0]) * (1 + len(zones[1]))
        for steps in (30, budget):  # read, then read again the same contents: from the value last read
            s = SimpleNamespace(zones=[list(z) for z in zones], budget=steps, game=GAME)
            if steps < spent:
                with pytest.raises(EffectRuntimeError, match="step budget"):
                    value(s, [None] * 4)
            else:
                assert value(s, [None] * 4) == sum(zones[1].count(x) for x in zones[0]) and steps - s.budget == spent
