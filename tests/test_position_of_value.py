"""``position(VALUE)``: a declared type's value's place in its type.

A wall whose columns follow the colours' order (each row shifted one) needed the colour's number, and the language
had none: a designer wrote ``first(i in numbers(1, 4) where nth(colours, i) == k)``, or a chain of if-then-else.
"""

from __future__ import annotations

import pytest

import engine


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.load("iconoclasm-cards")


@pytest.mark.parametrize("text", [
    "position(Fire) == 1 and position(Air) == 4",
    "position(next(Fire)) == 2",
    "sum(position(e) for e in roles) == 10",
])
def test_a_value_reads_as_its_place_in_its_type(game: engine.Game, text: str) -> None:
    assert game.compile_condition(text).test(game.new_state(players=2, seed=1))


def test_a_component_still_reads_as_its_place_in_its_zone(game: engine.Game) -> None:
    s = game.new_state(players=2, seed=1)
    assert game.compile_condition("position(first(deck)) == 1 or count(deck) == 0").test(s)


def test_neither_a_component_nor_a_value_is_refused(game: engine.Game) -> None:
    with pytest.raises(engine.RulesetError) as err:
        game.compile_condition("position(3) == 1")
    assert "position()" in str(err.value)
