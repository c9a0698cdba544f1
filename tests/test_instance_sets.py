"""Components made by ``each`` (docs/rulesets.md#components): one component for every combination of some attributes'
values, as a deck of cards is every rank of every suit (docs/examples/hearts writes its 52 cards so).  The id is a
template naming each attribute in braces; a mapping gives each value the name the id takes from it.  Its mistakes are
told at their ``file:line:col``: an id that leaves an attribute out (components would share it) or names one ``each``
does not give, values that are not a list or a mapping, an attribute given twice, a value of the wrong type, an
attribute the kind lacks, more components than a ruleset may have."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.runner.validate import unset_attributes
from engine.core.yamlsource import load_yaml

DECK = """\
      - each:
          suit: {A: Acorns, B: Bells}
          rank: [1, 2, 3]
        id: "{suit}{rank}"
        deck: main
"""


def _ruleset(tmp_path: Path, instances: str = DECK) -> Path:
    """A one-player game of a deck of cards (``instances`` as written under the kind), each turn a card moved to the
    pile; line 9 is the first line of ``instances``."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(f"""\
name: decked
players: [1]
types:
  suit: [Acorns, Bells]
components:
  card:
    attributes: {{suit: suit, rank: int, deck: text}}
    instances:
{instances}zones:
  deck: {{kind: pile}}
  pile: {{kind: pile}}
setup: |
  move(c in cards, deck)
turn:
  - do:
      effect: |
        move(c in deck, pile, 1)
end:
  when: count(deck) == 0
scoring:
  rank: r in roles
  by: [sum(c.rank for c in pile)]
  points: key
""", encoding="utf-8")
    return path


def test_each_makes_every_combination_in_order_the_first_attribute_outermost(tmp_path: Path) -> None:
    """Six cards, A1 A2 A3 B1 B2 B3: each with its suit and rank, and the other keys (``deck``) the same for all;
    code reads them as any component's (the score adds the ranks)."""
    game = engine.load(str(_ruleset(tmp_path)))
    state = game.new_state(players=1, seed=0)  # nothing is asked: the cards go to the pile one a turn, in order
    assert state.is_terminal and state.observation(1)["zones"]["pile"] == ["A1", "A2", "A3", "B1", "B2", "B3"]
    assert state.outcome.scores == (12,)
    suits, ranks, decks = (game.attributes[a][0] for a in ("suit", "rank", "deck"))
    assert list(zip(suits, ranks, decks)) == [("Acorns", 1, "main"), ("Acorns", 2, "main"), ("Acorns", 3, "main"),
                                              ("Bells", 1, "main"), ("Bells", 2, "main"), ("Bells", 3, "main")]


def test_plain_instances_may_stand_beside_it(tmp_path: Path) -> None:
    """An ``each`` entry is written out in its place among the others."""
    game = engine.load(str(_ruleset(tmp_path, "      - {id: first, suit: Bells, rank: 9}\n" + DECK +
                                    "      - {id: last, suit: Acorns, rank: 0}\n")))
    assert game.component_names == ["first", "A1", "A2", "A3", "B1", "B2", "B3", "last"]


def test_validate_counts_the_attributes_each_gives() -> None:
    """``validate`` notes an attribute no component gives; one ``each`` gives is given."""
    tree = load_yaml("r.yaml", "components: {card: {attributes: {suit: text, rank: int, deck: text}, instances: "
                               "[{each: {suit: [a, b], rank: [1]}, id: '{suit}{rank}'}]}}")
    assert [text for _, text in unset_attributes(tree)] == [
        "attribute 'deck' of card is given by no card, so every card reads none"]


@pytest.mark.parametrize("instances, where, message", [
    (DECK.replace('"{suit}{rank}"', '"{suit}"'), (12, 13),
     "the id '{suit}' leaves out {rank}: components that differ only there would share it"),
    (DECK.replace('"{suit}{rank}"', '"{suit}{rnak}"'), (12, 13), "the id names {rnak}, which 'each' does not give"),
    (DECK.replace('        id: "{suit}{rank}"\n', ""), (9, 9), "components made by 'each' need an id, a text naming each"),
    (DECK.replace('"{suit}{rank}"', "7"), (12, 13), "components made by 'each' need an id, a text naming each"),
    (DECK.replace("rank: [1, 2, 3]", "rank: 3"), (11, 17), "'rank' under 'each' takes a list of its values"),
    (DECK.replace("rank: [1, 2, 3]", "rank: []"), (11, 17), "'rank' under 'each' takes a list of its values"),
    (DECK.replace("each:\n          suit: {A: Acorns, B: Bells}\n          rank: [1, 2, 3]\n", "each: {}\n"), (9, 15),
     "'each' takes a mapping: each attribute with its values"),
    (DECK.replace("deck: main", "rank: 4"), (13, 9), "'rank' is given by 'each' too: give it once"),
    (DECK.replace("rank: [1, 2, 3]", "rank: [1, two, 3]"), (11, 21), "two"),
    (DECK.replace("rank: [1, 2, 3]", "rnak: [1, 2, 3]").replace("{rank}", "{rnak}"), (11, 11),
     "card has no attribute 'rnak'"),
    (DECK.replace("Bells}", "Leaves}"), (10, 32), "unknown suit 'Leaves' in suit"),
])
def test_a_mistake_is_told_where_it_is_written(tmp_path: Path, instances: str, where: tuple[int, int],
                                               message: str) -> None:
    with pytest.raises(RulesetError) as info:
        engine.load(str(_ruleset(tmp_path, instances)))
    found = [(d.pos.line, d.pos.col, d.message) for d in info.value.diagnostics if d.pos is not None]
    assert any((line, col) == where and message in text for line, col, text in found), found


def test_too_many_combinations_are_refused_before_any_is_made(tmp_path: Path) -> None:
    """A product past the components limit is refused at ``each``, not made one by one."""
    many = "[" + ", ".join(str(n) for n in range(1000)) + "]"
    instances = f"      - each: {{suit: {many}, rank: {many}}}\n        id: \"{{suit}}-{{rank}}\"\n"
    with pytest.raises(RulesetError) as info:
        engine.load(str(_ruleset(tmp_path, instances)))
    found = [(d.pos.line, d.pos.col, d.message) for d in info.value.diagnostics if d.pos is not None]
    assert any((line, col) == (9, 15) and "'each' makes 1,000,000 components" in text for line, col, text in found), found


def test_a_range_of_numbers_is_told_written_out_and_its_kind_is_still_known(tmp_path: Path) -> None:
    """``rank: numbers(1, 3)`` (or ``1..3``) under ``each`` is told the list to write; and the kind's other uses are
    not told it was never written (``move(c in cards, deck)`` said "unknown name 'cards'" beside it)."""
    for written in ("numbers(1, 3)", "1..3"):
        with pytest.raises(RulesetError) as info:
            engine.load(str(_ruleset(tmp_path, DECK.replace("rank: [1, 2, 3]", f"rank: {written}"))))
        found = info.value.diagnostics
        assert [(d.pos.line, d.pos.col, d.hint) for d in found] == [
            (11, 17, "the numbers are written out: [1, 2, 3]")], [d.message for d in found]
