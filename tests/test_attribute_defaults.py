"""An attribute's ``default`` (docs/rulesets.md#components): the value of every component that leaves the attribute
out, as a cost in each of four colours where most cards ask for one or two of them is 0 for the others.  Without it
such a component reads none, and ``c.red - discount`` failed when a game ran ("has no value here"), so each card had
to write every colour's 0.  A default of the wrong type is told where it is written, once."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.core.yamlsource import load_yaml
from engine.runner.validate import unset_attributes

RULESET = """\
name: costs
players: [1]
types:
  colour: [Red, Blue]
components:
  card:
    attributes:
      colour: colour
      red: {type: int, default: DEFAULT}
      blue: {type: int, default: 0}
      needs: {type: colour, list: true, default: []}
    instances:
      - {id: cheap, colour: Red, blue: 1}
      - {id: dear, colour: Blue, red: 3, needs: [Red]}
      - each: {colour: {R: Red, B: Blue}}
        id: "plain{colour}"
zones:
  pile: {kind: pile}
setup: move(c in cards, pile)
turn:
  - do:
      effect: move(c in pile, supply, 1)
end:
  when: count(pile) == 0
scoring:
  rank: r in roles
  by: [sum(c.red - c.blue for c in cards)]
  points: key
"""


def _load(tmp_path: Path, default: str = "0") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("DEFAULT", default), encoding="utf-8")
    return engine.load(path)


def test_a_component_leaving_an_attribute_out_reads_its_default(tmp_path: Path) -> None:
    game = _load(tmp_path)
    state = game.new_state(players=1)
    holds = lambda text: game.compile_condition(text).test(state)
    assert holds('first(c in cards where c.id == "cheap").red == 0')
    assert holds('first(c in cards where c.id == "cheap").blue == 1')
    assert holds('first(c in cards where c.id == "dear").red == 3')
    assert holds('count(first(c in cards where c.id == "cheap").needs) == 0')
    assert holds('count(first(c in cards where c.id == "dear").needs) == 1')
    assert holds("all(c.red == 0 and c.blue == 0 for c in cards where c.id == \"plainRed\" or c.id == \"plainBlue\")")
    assert holds("sum(c.red - c.blue for c in cards) == 2")


def test_a_default_of_the_wrong_type_is_told_where_it_is_written(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:
        _load(tmp_path, "lots")
    [found] = err.value.diagnostics
    assert (found.pos.line, found.pos.col) == (9, 33)  # the line of red: {type: int, default: lots}
    assert found.message == "red must be a whole number, not 'lots'"


def test_an_attribute_with_a_default_is_not_noted_as_given_by_none() -> None:
    """A kind whose every card leaves ``bonus`` out has it on purpose when it gives a default: not "likely forgotten"."""
    tree = load_yaml("r.yaml", RULESET.replace("DEFAULT", "0").replace("      colour: colour\n",
                                                                       "      colour: colour\n      bonus: {type: int, default: 1}\n"))
    assert "bonus" in tree["components"]["card"]["attributes"]
    assert unset_attributes(tree) == []


def test_a_number_left_out_and_computed_with_says_a_default_would_give_one(tmp_path: Path) -> None:
    """The failure of ``c.red - c.blue`` for a card leaving red out named what had no value, not why nor what to do."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("red: {type: int, default: DEFAULT}", "red: int"), encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    assert ("the red of c has no value here (nothing is written for it), so '-' cannot use it; a component that "
            "leaves out red reads none: write it, or give the attribute a default (red: {type: int, default: 0})"
            ) in str(err.value)
