"""Majority with support (engine.blocks.majority): the rulebook's tie-breaking, on placeholder values."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.blocks.majority import SupportTable
from engine.core.errors import RulesetError

# A cycle A -> B -> C -> D -> A: each value gives primary support to the next, secondary to the one after.
CYCLE = SupportTable("cycle", {"A": ("D", "C"), "B": ("A", "D"), "C": ("B", "A"), "D": ("C", "B")}, frozenset({"N"}), True)


@pytest.mark.parametrize("counts,contenders,winner,decided_by", [
    ({"A": 4, "B": 3}, None, "A", "majority"),
    ({"D": 3, "A": 3, "C": 1}, None, "D", "primary support"),              # C supports D; D does not support A against D
    ({"C": 2, "D": 2, "A": 1, "N": 2}, None, "C", "secondary support"),   # C's primary B is absent; A is its secondary
    ({"A": 3, "D": 3, "N": 1}, None, "A", "primary support (also against own)"),
    ({"A": 1, "D": 1, "C": 1, "N": 4}, None, "A", "secondary support (also against own)"),
    ({"A": 1, "B": 1, "C": 1, "D": 1, "N": 3}, None, None, "unresolved"),
    ({"N": 7}, None, None, "no contender"),
    ({"D": 5, "B": 5, "C": 2, "A": 1}, ["D", "B"], "D", "primary support"),  # only two contend; the others support
])
def test_decide(counts: dict[str, int], contenders: list[str] | None, winner: str | None, decided_by: str) -> None:
    verdict = CYCLE.decide(counts, contenders)
    assert (verdict.winner, verdict.decided_by) == (winner, decided_by)


def test_without_the_last_resort_a_tie_stays_unresolved() -> None:
    strict = SupportTable("strict", CYCLE.supporters, CYCLE.neutral, last_resort=False)
    assert strict.decide({"A": 3, "D": 3, "N": 1}).winner is None


def test_the_verdict_explains_its_arithmetic() -> None:
    assert CYCLE.decide({"D": 5, "B": 5, "C": 2, "A": 1}, ["D", "B"]).explain() == "D 5, B 5; primary support: D 7, B 6"


def test_a_value_out_of_contention_is_no_longer_told() -> None:
    """A three-way tie (the board game's chapter 11): C drops out at the primary support against own; the next stage
    told its count as it stood, as if C's secondary supporter had added nothing: it tells only A and D now."""
    assert CYCLE.decide({"A": 1, "D": 1, "C": 1, "N": 4}).explain() == (
        "A 1, D 1, C 1; primary support: A 1, D 1, C 1; secondary support: A 1, D 1, C 1; "
        "primary support (also against own): A 2, D 2, C 1; secondary support (also against own): A 3, D 2")



@pytest.mark.parametrize("last_resort", [True, False])
def test_a_verdict_decided_without_words_is_the_one_told(last_resort: bool) -> None:
    """Verdicts are decided without their account in words, which is worked out when asked: both ways agree."""
    table = SupportTable("t", CYCLE.supporters, CYCLE.neutral, last_resort)
    choose = random.Random(1)
    for _ in range(2000):
        counts = {v: choose.randrange(4) for v in choose.sample("ABCDN", choose.randrange(1, 6))}
        contenders = None if choose.random() < 0.5 else choose.sample("ABCD", 2)
        verdict = table.decide(counts, contenders)
        winner, totals, decided_by, account = table._decide(counts, None if contenders is None else tuple(contenders), told=True)
        assert (verdict.winner, verdict.totals, verdict.decided_by) == (winner, totals, decided_by)
        assert (verdict.steps, verdict.terms) == (account.steps, account.terms) and verdict.explain() and verdict.account is verdict.account

# ---------------------------------------------------------------- majority() in any code

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tiles-by-majority"  # its scenario: test_mechanisms_table


def majority_ruleset(tmp_path: Path, functions: str) -> Path:
    text = (EXAMPLE / "ruleset.yaml").read_text(encoding="utf-8") + "functions:\n" + functions
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_ruleset_function_may_call_majority(tmp_path: Path) -> None:
    """Support tables are read before the ruleset's own functions, so a function can name one."""
    from engine.runner.expectations import compile_expectation

    game = engine.load(str(majority_ruleset(tmp_path, '  leads(role r): majority(t.symbol for t in board, "backing") == r\n')))
    state = game.new_state(players=2, seed=1)
    assert not compile_expectation(game, "leads(Sun) or leads(Star)").holds(state)
    state.apply("place Sun/Sun as Sun at 0,0")
    assert compile_expectation(game, "leads(Sun) and not leads(Star)").holds(state)


@pytest.mark.parametrize("body, message", [
    ('majority(t.symbol for t in board, "backin")', "majority() needs a support table's name in quotes "
                                                    "(support tables: \"backing\") (did you mean 'backing'?)"),
    ("majority(t.symbol for t in board, backing)", "majority() needs a support table's name in quotes"),
    ('majority(t for t in board, "backing")', "the values counted by majority() must be a symbol, but 't' is a component"),
    ('majority(t.symbol for t in board)', "majority() takes 2 arguments, not 1"),
])
def test_a_bad_majority_call_is_refused_where_it_is_written(tmp_path: Path, body: str, message: str) -> None:
    path = majority_ruleset(tmp_path, f"  leads(role r): {body} == r\n")
    with pytest.raises(RulesetError) as info:
        engine.load(str(path))
    line = len(path.read_text(encoding="utf-8").splitlines())
    assert any(f"ruleset.yaml:{line}:" in d.headline() and message in d.headline() for d in info.value.diagnostics), str(info.value)
