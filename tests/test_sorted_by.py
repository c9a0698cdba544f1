"""``sorted(x in COLLECTION [where CONDITION], by = KEY)``: the items themselves in the order of their keys.  ``sorted``
gave numbers only, so cards run by their priority were written as a loop over the sorted values, each pass finding
the card of that value again (and cards of equal value had to be told apart by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.errors import EffectRuntimeError, RulesetError
from tests.test_combinations import BEST_OF, _game

ORDER = "list(c.id for c in sorted(c in cards, by = KEY))"


@pytest.mark.parametrize(("key", "ids"), [
    ("c.rank", ["h2", "s3", "h5", "s7", "s8", "h9"]),
    ("c.rank, highest_first = true", ["h9", "s8", "s7", "h5", "s3", "h2"]),
    ("c.rank % 2", ["h2", "s8", "h9", "h5", "s7", "s3"]),  # equal keys keep the kind's order
])
def test_the_items_come_in_the_order_of_their_keys(tmp_path: Path, key: str, ids: list[str]) -> None:
    game = _game(tmp_path)
    assert game.compile_condition(f"{ORDER.replace('KEY', key)} == {ids!r}".replace("'", '"')).test(
        game.new_state(players=2))


def test_a_hands_cards_by_rank_are_its_components(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = game.new_state(players=2)
    assert game.compile_condition("nth(sorted(c in hand(nth(roles, 1)), by = c.rank), 1).rank == "
                                  "min(c.rank for c in hand(nth(roles, 1)))").test(s)


def test_a_selection_with_a_value_is_refused_with_the_form_to_write(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"sorted\(\.\.\., by = \.\.\.\) orders the items themselves, so it takes a "
                                           r"selection without a value first \(write sorted\(x in COLLECTION, by = KEY\)\)"):
        _game(tmp_path).compile_condition("count(sorted(c.rank for c in cards, by = c.rank)) > 0")


def test_a_key_that_is_no_number_is_refused_and_one_of_none_stops_at_the_call(tmp_path: Path) -> None:
    game = _game(tmp_path, BEST_OF.replace("attributes: {rank: int, suit: suit}", "attributes: {rank: int, suit: suit, "
                                                                               "bonus: int}"))
    with pytest.raises(RulesetError, match="the value ordered by sorted\\(\\) must be an int, but 'the suit of c' is a suit"):
        game.compile_condition("count(sorted(c in cards, by = c.suit)) > 0")
    with pytest.raises(EffectRuntimeError, match="sorted\\(\\)"):
        game.compile_condition("count(sorted(c in cards, by = c.bonus)) > 0").test(game.new_state(players=2))
