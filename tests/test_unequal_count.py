"""``count(x in ZONE where x.a != v)`` read from the zone's tally: its size less the count of ``v`` the state keeps.

The loop it replaces spends a step per item of the zone and reads ``v`` once
there is an item; the tally answers the same, spends the same and fails the
same, on any position (hypothesis) and any budget.
"""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import EffectRuntimeError
from engine.lang.functions import Count
from engine.lang.parser import parse_expression
from engine.lang.scope import Compiled, Scope
from tests.conftest import shipped_game

GAME = shipped_game("breakthrough")
TEXT = "count(p in board where p.colour != {}) + count(p in taken where p.colour != {})"


def compiled(text: str) -> Compiled:
    """A number over the game's vocabulary, as a condition's code compiles."""
    scope = Scope(GAME.vocab)
    scope.pure = True
    found = parse_expression(text).compile(scope)
    assert not scope.sink.items
    return found


def conditions() -> tuple[list[Compiled], list[Compiled]]:
    """The counts compiled from the tallies, and as loops."""
    kept = [compiled(TEXT.format(r, r)) for r in GAME.roles.values]
    with mock.patch.object(Count, "_unequal", return_value=None):
        looped = [compiled(TEXT.format(r, r)) for r in GAME.roles.values]
    return kept, looped


KEPT, LOOPED = conditions()


def test_the_count_reads_the_tally() -> None:
    with mock.patch("engine.lang.functions.tally_count", side_effect=AssertionError("the tally was read")):
        s = GAME.new_state(players=2, seed=0)
        try:
            KEPT[0].fn(s, [None] * 4)
        except AssertionError:
            return
    raise AssertionError("the tally was not read")


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_tallied_count_answers_spends_and_fails_as_the_loop(data: st.DataObject) -> None:
    s = GAME.new_state(players=2, seed=0)
    taken = GAME.zone_index[("taken", None)]
    for cid in list(s.zones[GAME.board_zone]):
        if data.draw(st.booleans()):
            s.move(cid, taken)
    budget = data.draw(st.one_of(st.none(), st.integers(0, 70)))
    for kept, looped in zip(KEPT, LOOPED):
        answers = []
        for condition in (kept, looped):
            s.budget = 10**6 if budget is None else budget
            saved = s.budget
            try:
                answers.append((condition.fn(s, [None] * 4), saved - s.budget))
            except EffectRuntimeError as error:
                answers.append((str(error), error.pos))
        assert answers[0] == answers[1]
