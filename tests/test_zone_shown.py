"""``shown: false`` on a zone (docs/rulesets.md#zones): a zone for the rules' own use, which holds things only in the
middle of an effect (Orchard's hands on their way to the next player), is not drawn while it is empty, in the terminal
or on the web page, and is drawn like any other while it holds something."""

from __future__ import annotations

from pathlib import Path

import engine
from cli import zone_listing
from cli.web.view import table_html
from tests.oracle import EXAMPLES

ORCHARD = EXAMPLES / "orchard"


def test_an_empty_zone_not_shown_is_left_off_the_empty_line_and_the_table() -> None:
    """Orchard's 'empty:' line named 'passing of seat1, passing of seat2' at every decision."""
    state = engine.load(ORCHARD).new_state(players=2, seed=1)
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    assert "empty: laid of seat1 (yours), laid of seat2, done" in lines, lines
    table = table_html(state, 1)
    assert 'data-zone="laid of seat1"' in table and "passing" not in table


def test_a_zone_not_shown_is_drawn_while_it_holds_something(tmp_path: Path) -> None:
    """Not shown while empty only: what lies in it stays in sight."""
    path = tmp_path / "ruleset.yaml"
    text = ORCHARD.joinpath("ruleset.yaml").read_text(encoding="utf-8")
    dealt = "    move(c in deck, hand(r), hand_size)\n"
    path.write_text(text.replace(dealt, dealt + "    move(c in deck, passing(r), 1)\n", 1), encoding="utf-8")
    state = engine.load(path).new_state(players=2, seed=1)
    assert any(line.plain.startswith("passing of seat1 (yours): ") for line in zone_listing.zones(state, 1))


def test_an_empty_supply_has_no_box_on_a_table_without_a_board() -> None:
    """A game without a board drew "supply: 0 components" beside its hands and piles, a zone it never uses (the
    zones listed below the table already left it out); the supply has a section while it holds something."""
    state = engine.load("kuhn-poker").new_state(players=2, seed=1)
    assert state.observation(1)["zones"]["supply"] == []
    table = table_html(state, 1)
    assert 'data-zone="supply"' not in table and 'data-zone="deck"' in table
    used = engine.load(EXAMPLES / "crazy-eights").new_state(players=2, seed=1)
    assert used.observation(1)["zones"]["supply"] and 'data-zone="supply"' in table_html(used, 1)


PILES = """\
name: piles
players: [2]
components:
  card:
    attributes: {rank: int}
    instances: [{id: R1, rank: 1, count: 4}, {id: G1, rank: 1}, {id: B1, rank: 1}]
zones:
  row: {kind: pile}
  held: {kind: hand}
setup: |
  move(c in supply where c.id == "R1", row, 1)
  move(c in supply where c.id == "G1", row)
  move(c in supply where c.id == "R1", row, 1)
  move(c in supply where c.id == "R1" or c.id == "B1", held)
turn:
  - do:
      effect: |
        let p = choose(x in row, always_ask = true)
        move(c in row where c == p, held)
end:
  when: count(row) == 0
scoring: {rank: r in roles, by: [0], points: key}
"""


def test_a_pile_lists_copies_apart_where_they_lie_and_a_hand_counts_them(tmp_path: Path) -> None:
    """A hand of cards played by their place (a pile, ``R1, G1, R1``) was listed ``R1 x2, G1``, as a hand is: the
    player read the second card as a red one.  A pile counts only copies lying next to each other; a hand, shown
    sorted, counts every copy as before, in the terminal and on the page."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(PILES, encoding="utf-8")
    state = engine.load(path).new_state(players=2, seed=1)
    assert [line.plain for line in zone_listing.zones(state, 1)][:2] == ["row: R1, G1, R1", "held: R1 x2, B1"]
    state.apply("choose G1")  # the pile's copies now lie next to each other
    assert [line.plain for line in zone_listing.zones(state, 1)][:2] == ["row: R1 x2", "held: R1 x2, G1, B1"]
    assert zone_listing.tallied(["R1", "G1", "R1"], in_order=True) == [("R1", 1), ("G1", 1), ("R1", 1)]
    assert zone_listing.counted(["R1", "G1", "R1"]) == ["R1 x2", "G1"]
