"""Components chosen among several zones: copies lying apart are different options, and a name chosen among zones
some seat cannot see into does not tell the other seats which zone holds it.

Azul's factories: "take every tile of one colour from a factory" offered ``choose Blue`` once for the blue tiles of
every factory, and took the first factory's, whichever the player meant.  Clue's suggestion, written as a choice of a
suspect card wherever it lies, told every seat ``seat1 chooses a card from solution``: where the suspect lay, the
very thing the game is about deducing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine

FACTORIES = """\
name: factories
players: [2]
types:
  colour: [Blue, Red]
components:
  tile:
    attributes: {colour: colour}
    instances:
      - {id: Blue, colour: Blue, count: 4}
      - {id: Red, colour: Red, count: 4}
zones:
  f1: {kind: pile}
  f2: {kind: pile}
  taken: {kind: pile, per: role}
setup: |
  move(t in tiles where t.colour == Blue, f1, 2)
  move(t in tiles where t.colour == Red, f1, 1)
  move(t in tiles where t in supply and t.colour == Blue, f2, 1)
turn:
  - do:
      effect: |
        let t = choose(x in tiles where x in f1 or x in f2, text = "take a colour")
        let from = if t in f1 then f1 else f2
        move(x in from where x.colour == t.colour, taken(current_role))
end:
  when: count(f1) + count(f2) == 0
scoring:
  rank: r in roles
  by: [count(taken(r))]
  points: key
"""

SUSPECTS = """\
name: suspects
players: [3]
components:
  card:
    attributes: {suspect: bool}
    instances:
      - {id: Plum, suspect: true}
      - {id: Green, suspect: true}
      - {id: Mustard, suspect: true}
      - {id: Rope, suspect: false}
zones:
  solution: {kind: pile, hidden: all}
  hand: {kind: hand, per: role, hidden: others}
  named: {kind: pile}
setup: |
  move(c in cards where c.id == "Plum", solution)
  move(c in cards where c.id == "Green", hand(nth(roles, 2)))
  move(c in cards where c.id == "Mustard" or c.id == "Rope", hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let c = choose(x in cards where x.suspect, text = "name a suspect")
        move(x in named, solution)
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def load(tmp_path: Path, text: str) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(text)
    return engine.load(tmp_path)


def test_copies_in_different_zones_are_told_apart_by_their_zone(tmp_path: Path) -> None:
    game = load(tmp_path, FACTORIES)
    s = game.new_state(players=2, seed=1, record=True)
    assert sorted(map(str, s.legal_actions())) == ["choose Blue from f1", "choose Blue from f2", "choose Red"]
    s.apply("choose Blue from f2")
    assert game.compile_condition("count(f1) == 3 and count(f2) == 0").test(s)  # the factory not chosen keeps its tiles
    assert "seat1 chooses Blue from f2" in s.log


@pytest.mark.parametrize("name, word", [("Blue from f2", "from"), ("blue AS Red", "AS"), ("Blue at 0,0", "at")])
def test_a_component_named_as_another_told_apart_is_refused_where_written(tmp_path: Path, name: str, word: str) -> None:
    """A card named 'Blue from f2' lying in f1, beside Blue's copies in f1 and f2, was never offered: the copy in f2
    was told apart as 'choose Blue from f2', the same text, and the choice kept one option per text."""
    text = FACTORIES.replace("      - {id: Red, colour: Red, count: 4}\n",
                             f'      - {{id: Red, colour: Red, count: 4}}\n      - {{id: "{name}", colour: Red}}\n')
    with pytest.raises(engine.RulesetError, match=rf"ruleset.yaml:\d+:\d+: component id '{name}' reads as the "
                                                  rf"component Blue told apart by '{word}'"):
        load(tmp_path, text)
    text = text.replace(f'{{id: "{name}", colour: Red}}', "{id: Shot at Dawn, colour: Red}")  # no component Shot
    assert "Shot at Dawn" in load(tmp_path, text).component_names


def test_a_name_chosen_among_hidden_zones_tells_nobody_where_it_lay(tmp_path: Path) -> None:
    s = load(tmp_path, SUSPECTS).new_state(players=3, seed=1, record=True)
    for name in ("Plum", "Green", "Mustard"):
        assert s.public_text(s.parse_action(f"choose {name}")) == "choose a card"
    s.apply("choose Plum")
    assert "seat1 chooses a card" in s.log and not any("solution" in line for line in s.log)


def test_a_search_of_another_seat_cannot_tell_where_the_named_card_lay(tmp_path: Path) -> None:
    from engine.runner.agents.search import _public_key

    s = load(tmp_path, SUSPECTS).new_state(players=3, seed=1)
    keys = {_public_key(s, a.step, (a.step.index, a.args)) for a in s.legal_actions()}
    assert len(keys) == 1


def test_zones_are_offered_by_name(tmp_path: Path) -> None:
    """A choice among zones (which factory to take from) was offered as ``choose 1``, ``choose 2``: the numbers the
    state keeps the zones under."""
    text = FACTORIES.replace('let t = choose(x in tiles where x in f1 or x in f2, text = "take a colour")\n'
                             '        let from = if t in f1 then f1 else f2',
                             'let from = choose(z in [f1, f2] where count(z) > 0, text = "a factory")\n'
                             '        let t = first(from)')
    s = load(tmp_path, text).new_state(players=2, seed=1, record=True)
    assert list(map(str, s.legal_actions())) == ["choose f1", "choose f2"]
    s.apply("choose f2")
    assert "seat1 chooses f2" in s.log


def test_values_are_offered_as_the_language_writes_them(tmp_path: Path) -> None:
    """Truth values were offered as Python writes them (``choose True``), dice by their sides alone (``choose 6``),
    a list of zones by their numbers (``choose [1, 2]``), a list of values with Python's quotes (``choose ['Blue',
    'Red']``)."""
    for code, offered in [("choose(x in [true, false])", ["choose true", "choose false"]),
                          ("choose(x in [d6, d8])", ["choose d6", "choose d8"]),
                          ("choose(x in [[f1, f2], [f2, f1]])", ["choose [f1, f2]", "choose [f2, f1]"]),
                          ("choose(x in [[Blue, Red], [Red, Blue]])", ["choose [Blue, Red]", "choose [Red, Blue]"]),
                          # a text that would read as two items, or none, is quoted: ["a, b"] and [a, b] were one option
                          ('choose(x in [["a, b"], ["a", "b"], ["x]"], ["x", "]"], [""]])',
                           ['choose ["a, b"]', "choose [a, b]", 'choose ["x]"]', 'choose [x, "]"]', 'choose [""]']),
                          ("choose(x in [[first(t in tiles where t.id == \"Blue, Red\")], [first(t in tiles where "
                           "t.colour == Blue), first(t in tiles where t.id == \"Red\")]])",
                           ['choose ["Blue, Red"]', "choose [Blue, Red]"])]:
        text = FACTORIES.replace('let t = choose(x in tiles where x in f1 or x in f2, text = "take a colour")\n'
                                 '        let from = if t in f1 then f1 else f2',
                                 f'let v = {code}\n        let from = f1\n        let t = first(from)')
        text = text.replace("      - {id: Red, colour: Red, count: 4}\n",
                            '      - {id: Red, colour: Red, count: 4}\n      - {id: "Blue, Red", colour: Red}\n')
        s = load(tmp_path, text).new_state(players=2, seed=1)
        assert list(map(str, s.legal_actions())) == offered
