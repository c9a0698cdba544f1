"""A per-role zone asked of no role (a first() that found none): the error names what gave none."""

from __future__ import annotations

import pytest

import engine
from engine.core.errors import EffectRuntimeError
from tests.conftest import shipped_game


@pytest.mark.parametrize(("text", "said"), [
    ("count(hand(first(r in roles where false))) == 0", "the first r in roles where false"),  # compiled as Python
    ("count(hand(if true then first(r in roles where false) else none)) == 0",
     "(the first r in roles where false) if true, else nothing"),
])
def test_a_zone_of_no_role_names_the_code_that_gave_none(text: str, said: str) -> None:
    """It said only 'there is no hand of nothing', which read as a zone named so."""
    game = shipped_game("kuhn-poker")
    state = game.new_state(players=2, seed=1)
    with pytest.raises(EffectRuntimeError) as err:
        game.compile_condition(text).test(state)
    assert err.value.message == (f"there is no hand of nothing: {said} is none here (a first() that found nothing, a "
                                 "choose() without an option and an empty cell's attribute give none)")


def test_a_zone_of_a_role_without_it_still_says_which() -> None:
    game = engine.load("kuhn-poker")
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("count(hand(first(r in roles))) == 1").test(state)
