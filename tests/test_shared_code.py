"""Shared sub-expressions in generated code: a repeated pure read is computed once, and nothing else changes.

A generated function names the first occurrence of a pure read that is
written again where the first is always evaluated before it, and reads the
name there (engine/lang/shared.py).  Checked three ways: the read is counted
(it runs once), random expressions with short-circuits, errors and writes in
between give the same values, errors and writes shared as unshared
(hypothesis), and the shipped and plainly written rulesets play the same
games shared as unshared.
"""

from __future__ import annotations

import ast as python_ast
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.lang import codegen
from engine.lang.codegen import GENERATED
from engine.lang.shared import share
from tests.test_codegen import playthrough


TABLE = {0: 1, 1: 2, 2: 0, 3: -1}
TABLES = {"k1": TABLE, "k5": TABLE}
"""The constants of the test's source: one table under two names, as two reads of one table are written."""


class CountingGrid(dict):
    """A grid that counts its reads."""

    reads = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.reads += 1
        return super().get(key, default)


class FakeState:
    """What the generated source reads of a state: a grid."""

    def __init__(self, grid: dict[Any, Any]) -> None:
        self.grid = CountingGrid(grid)


def run(lines: tuple[str, ...], grid: dict[Any, Any], slots: list[Any]) -> tuple[Any, ...]:
    """Run a body ``f(s, e)`` of ``lines``: what it returned or raised, the slots and grid after, the reads."""
    names: dict[str, Any] = {**TABLES}

    def change(s: Any, e: list[Any]) -> int:  # a library closure: changes the state and a slot
        s.grid[(0, 0)] = (s.grid.get((0, 0)) or 0) + 1
        e[0] = (e[0] or 0) + 1
        return 1

    names["k9"] = change
    names["range"] = range
    text = "def f(s, e):\n" + "".join(f"    {line}\n" for line in lines)
    with warnings.catch_warnings():  # `1 is None` drawn from the parts is fine here
        warnings.simplefilter("ignore", SyntaxWarning)
        exec(compile(text, "<test>", "exec"), names)  # noqa: S102 - the test's own source
    s, e = FakeState(grid), list(slots)
    try:
        outcome: tuple[Any, ...] = ("value", names["f"](s, e))
    except Exception as err:  # noqa: BLE001 - the kind of error is what is compared
        outcome = ("error", type(err).__name__)
    return outcome, e, dict(s.grid), s.grid.reads


def test_a_read_written_twice_is_computed_once() -> None:
    body = ("return ((s.grid.get((e[1], e[2])) != None) and (k1[s.grid.get((e[1], e[2]))] == e[0]))",)
    shared = share(body, codegen.fresh)
    assert shared != body
    for lines, reads in ((body, 2), (shared, 1)):
        assert run(lines, {(1, 2): 3}, [-1, 1, 2]) == (("value", True), [-1, 1, 2], {(1, 2): 3}, reads)


def test_a_read_only_on_one_branch_is_not_shared_with_what_follows_the_branch() -> None:
    body = ("return ((e[0] and s.grid.get((e[1], 0))) or s.grid.get((e[1], 0)))",)
    shared = share(body, codegen.fresh)
    assert "".join(shared).count("s.grid.get") == 2
    for slots in ([0, 1], [1, 1], [1, 5]):
        assert run(shared, {(1, 0): 7}, slots) == run(body, {(1, 0): 7}, slots)


def test_a_write_between_two_reads_keeps_both() -> None:
    body = ("return (k1[e[1]] + (e.__setitem__(1, 2) or k1[e[1]]) + k9(s, e) + s.grid.get((0, 0)) + s.grid.get((0, 0)))",)
    shared = "".join(share(body, codegen.fresh))
    assert shared.count("k1[e[1]]") == 2 and shared.count("s.grid.get") == 1  # the second grid read follows no write
    assert run((shared,), {(0, 0): 1}, [0, 0])[:3] == run(body, {(0, 0): 1}, [0, 0])[:3]


def test_two_names_of_one_table_read_the_same() -> None:
    body = ("return (k1[e[1]] + k5[e[1]])",)
    assert "".join(share(body, codegen.fresh, {"k1": {}, "k5": {}})).count("[e[1]]") == 2  # two tables
    table: dict[int, int] = {}
    assert "".join(share(body, codegen.fresh, {"k1": table, "k5": table})).count("[e[1]]") == 1


# ---------------------------------------------------------------- random expressions


LEAVES = st.sampled_from(["e[0]", "e[1]", "e[2]", "0", "1", "2", "None", "s.grid.get((e[1], e[2]))",
                          "s.grid.get((0, 0))", "k1[e[1]]", "k5[e[2]]"])


def combine(part: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Expressions over ``part``: arithmetic (errors on none and zero), comparisons, short-circuits, writes, calls."""
    two = st.tuples(part, part)
    return st.one_of(
        two.map(lambda p: f"({p[0]} + {p[1]})"),
        two.map(lambda p: f"({p[0]} - {p[1]})"),
        two.map(lambda p: f"({p[0]} // {p[1]})"),
        two.map(lambda p: f"({p[0]} == {p[1]})"),
        two.map(lambda p: f"({p[0]} < {p[1]})"),
        two.map(lambda p: f"(0 < {p[0]} < {p[1]})"),
        two.map(lambda p: f"({p[0]} and {p[1]})"),
        two.map(lambda p: f"({p[0]} or {p[1]})"),
        st.tuples(part, part, part).map(lambda p: f"({p[1]} if {p[0]} else {p[2]})"),
        st.tuples(st.sampled_from("012"), part, part).map(lambda p: f"(e.__setitem__({p[0]}, {p[1]}) or {p[2]})"),
        part.map(lambda p: f"(k9(s, e) and {p})"),
        part.map(lambda p: f"s.grid.get(({p}, 0))"),
        part.map(lambda p: f"k1[{p}]"),
        part.map(lambda p: f"(None if {p} is None else k1[{p}])"),
    )


SHAPES = st.recursive(st.one_of(LEAVES, st.sampled_from(["P0", "P1", "P2"])), combine, max_leaves=12)
"""Expressions over the leaves and three places for parts (``P0``..``P2``), built once: a recursive strategy built
anew at every example (over that example's parts) had hypothesis check it again each time, most of the test's time."""


@st.composite
def expressions(draw: st.DrawFn) -> str:
    """An expression written from a few parts drawn once and used again and again, as inlined code is."""
    parts = draw(st.lists(combine(LEAVES), min_size=1, max_size=3))
    return re.sub(r"P([0-2])", lambda place: parts[int(place[1]) % len(parts)], draw(SHAPES))


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, ...]:
    """A function body: an expression, or writes of slots and an ``if`` before it."""
    value = draw(expressions())
    kind = draw(st.sampled_from(["return", "assign", "if", "for"]))
    if kind == "return":
        return (f"return {value}",)
    other = draw(expressions())
    if kind == "assign":
        return (f"e[1] = {other}", f"return ({other}, {value})")
    if kind == "if":
        return (f"if {other}:", f"    return {value}", f"return ({other}, {value})")
    return ("for x in range(2):", f"    e[2] = {other}", f"    e[0] = {value}", f"return {value}")


SLOTS = st.lists(st.one_of(st.none(), st.integers(-1, 3)), min_size=3, max_size=3)
GRIDS = st.dictionaries(st.tuples(st.integers(-1, 3), st.integers(-1, 3)), st.one_of(st.none(), st.integers(-1, 3)),
                        max_size=6)


@settings(max_examples=200, deadline=None)
@given(bodies(), GRIDS, SLOTS)
def test_shared_code_gives_what_unshared_code_gives(body: tuple[str, ...], grid: dict[Any, Any], slots: list[Any]) -> None:
    shared = share(body, codegen.fresh, TABLES)
    python_ast.parse("def f(s, e):\n" + "".join(f"    {line}\n" for line in shared))
    before, after = run(body, grid, slots), run(shared, grid, slots)
    assert after[:3] == before[:3]  # the same value or error, the same writes, in the same order
    assert after[3] <= before[3]  # never a read more


# ---------------------------------------------------------------- whole games


PLAIN = Path(__file__).resolve().parent.parent / "benchmarks" / "rulesets"
RULESETS = [*engine.builtin_names(), str(PLAIN / "plain-tic-tac-toe"), str(PLAIN / "plain-connect-four")]


@pytest.mark.parametrize("name", RULESETS, ids=lambda name: Path(name).name)
def test_rulesets_play_the_same_games_shared_as_unshared(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = engine.load(name)
    monkeypatch.setattr(codegen, "SHARING", False)
    unshared = engine.load(name)
    players = min(shared.player_counts)
    for seed in (1, 2):
        assert playthrough(shared, players, seed) == playthrough(unshared, players, seed)


def test_the_plain_connect_four_reads_each_cell_once_per_test(monkeypatch: pytest.MonkeyPatch) -> None:
    def reads() -> int:
        game = engine.load(str(PLAIN / "plain-connect-four"))
        return sum(text.count("s.grid.get") for _, text in game.vocab.data[GENERATED])

    shared = reads()
    monkeypatch.setattr(codegen, "SHARING", False)
    assert shared * 3 < reads() * 2  # `at(x, y) != none and at(x, y).colour == r` reads the cell once
