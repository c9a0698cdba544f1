"""Majority with support (engine.blocks.majority): the rulebook's tie-breaking, on placeholder values."""

from __future__ import annotations

import pytest

from engine.blocks.majority import SupportTable

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
