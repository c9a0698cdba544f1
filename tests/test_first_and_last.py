"""``first(x in C where P)`` and ``last(x in C where P)`` (docs/reference.md): one function with a direction, each
held to the plain reading of a shuffled pile in Python — the first / last card passing the filter, none when no
card passes or the pile is empty, the whole pile's end without a filter."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.lang.functions import by_name
from engine.lang.parser import parse_expression
from engine.blocks.position_functions import POSITION_FUNCTIONS

RULESET = """\
name: ends
players: [1]
components:
  card:
    attributes:
      value: int
    instances:
      - {id: a, value: 1}
      - {id: b, value: 2}
      - {id: c, value: 3}
      - {id: d, value: 4}
      - {id: e, value: 5}
      - {id: f, value: 6}
zones:
  pile: {kind: pile}
  spare: {kind: pile}
setup: |
  move(c in cards, pile)
  shuffle(pile)
turn:
  - do:
      effect: move(choose(c in pile, always_ask = true), spare)
end:
  when: count(pile) == 0
scoring:
  rank: r in roles
  by: [count(spare)]
  points: key
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    path: Path = tmp_path_factory.mktemp("ends") / "ruleset.yaml"
    path.write_text(RULESET, encoding="utf-8")
    return engine.load(path)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("end", ["first", "last"])
def test_first_and_last_are_the_ends_of_the_selection(game: engine.Game, seed: int, end: str) -> None:
    state = game.new_state(players=1, seed=seed)
    values = ["abcdef".index(game.component_names[c]) + 1 for c in state.zones[game.zone_index[("pile", None)]]]
    assert sorted(values) == [1, 2, 3, 4, 5, 6]
    holds = lambda text: game.compile_condition(text).test(state)  # noqa: E731
    pick = (lambda xs: xs[0]) if end == "first" else (lambda xs: xs[-1])
    assert holds(f"{end}(pile).value == {pick(values)}")
    for low in range(1, 8):
        passing = [v for v in values if v >= low]
        expected = f".value == {pick(passing)}" if passing else " == none"
        assert holds(f"{end}(c in pile where c.value >= {low}){expected}"), (end, low, values)
    assert holds(f"{end}(spare) == none")
    assert holds(f"{end}(c in spare where c.value > 0) == none")


def test_first_and_last_describe_their_end() -> None:
    functions = by_name(POSITION_FUNCTIONS)
    assert functions["first"].describe(parse_expression("first(pile)")) == "the first of pile"
    assert functions["last"].describe(parse_expression("last(pile)")) == "the last of pile"
    assert functions["last"].describe(parse_expression("last(c in pile where c.value > 2)")) == \
        "the last c in pile where the value of c is more than 2"
    assert type(functions["first"]) is type(functions["last"])
