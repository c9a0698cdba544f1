"""``move(..., on_top = true)``: components put on the top of a zone (a card played onto a discard pile, a card put
back on a deck), the first selected on top; ``first()`` reads it.  Without it a component goes to the end of a zone,
the bottom of a pile, and a designer reading the discard pile's top card with ``first()`` read the oldest card."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError

RULESET = """\
name: on-top
players: [2]
components:
  card:
    attributes: {n: int}
    instances:
      - {id: a, n: 1}
      - {id: b, n: 2}
      - {id: c, n: 3}
      - {id: d, n: 4}
zones:
  deck: {kind: pile}
  pile: {kind: pile}
counters:
  done: {}
setup: |
  move(x in cards, deck)
  SETUP
turn:
  - do:
      effect: |
        let n = choose(n in [1, 2, 3, 4] where any(y in deck where y.n == n), always_ask = true)
        move(x in deck where x.n == n, pile, on_top = true)
        done += 1
end:
  when: done > 1
scoring:
  rank: r in roles
  by: [done]
  points: key
"""


def load(tmp_path: Path, setup: str = "pass") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", setup.replace("\n", "\n  ")), encoding="utf-8")
    return engine.load(path)


def names(game: engine.Game, state: engine.State, zone: str) -> list[str]:
    return [game.component_names[c] for c in state.zones[game.zone_index[(zone, None)]]]


def test_the_selected_components_go_on_top_the_first_selected_topmost(tmp_path: Path) -> None:
    game = load(tmp_path, "move(x in deck where x.n >= 3, deck, on_top = true)")
    s = game.new_state(players=2, seed=0)
    assert names(game, s, "deck") == ["c", "d", "a", "b"]
    assert game.compile_condition('first(deck).id == "c"').test(s)


def test_a_card_played_on_top_is_the_first_of_the_pile_and_the_log_says_so(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0, record=True)
    s.apply("choose 2")
    s.apply("choose 4")
    assert names(game, s, "pile") == ["d", "b"]
    assert game.compile_condition('first(pile).id == "d"').test(s)
    assert "deck: d -> the top of pile" in s.log


def test_a_count_takes_the_first_ones_and_puts_them_on_top(tmp_path: Path) -> None:
    game = load(tmp_path, "move(x in deck where x.n >= 2, pile, 1)\nmove(x in deck, pile, 2, on_top = true)")
    assert names(game, game.new_state(players=2, seed=0), "pile") == ["a", "c", "b"]


def test_explain_says_the_top(tmp_path: Path) -> None:
    game = load(tmp_path, "move(x in deck where x.n >= 3, deck, on_top = true)")
    assert "move every x in deck where the n of x is at least 3 to the top of deck" in game.setup["default"].description


@pytest.mark.parametrize("call, message", [
    ("move(x in deck, pile, top = true)", "move() has no option 'top'"),
    ("move(x in deck, pile, on_top = 1)", "the on_top of move() must be"),
    ("move(x in deck, on_top = true)", "move() takes 2 to 3 arguments, not 1"),
])
def test_a_wrong_option_is_refused_at_load(tmp_path: Path, call: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load(tmp_path, call)
