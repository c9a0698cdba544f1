"""A card drawn and laid in one move is marked with the role that laid it, on the page and at the terminal: it came
from the deck (nobody's) as the move began, so neither marked it, where the log said 'hand of North: C3 -> table'."""

from __future__ import annotations

import re
from pathlib import Path

import engine
from cli import zone_listing
from cli.piles import pile_arrivals, played_from
from cli.web.view import table_html

DRAW_AND_LAY = """\
name: draw-and-lay
players: [2]
types:
  side: [North, South]
roles:
  of: side
components:
  card:
    instances:
      - {id: C1}
      - {id: C2}
      - {id: C3}
      - {id: C4}
      - {id: C5}
      - {id: C6}
zones:
  stock: {kind: pile, hidden: all}
  hand: {kind: hand, per: role, hidden: others}
  table: {kind: pile}
setup: |
  move(c in supply, stock)
  for r in roles:
    move(c in stock, hand(r), 1)
turn:
  - do:
      effect: |
        move(c in stock, hand(current_role), 1)
        let laid = choose(x in hand(current_role), text = "a card to lay")
        move(c in hand(current_role) where c == laid, table)
end:
  when: count(table) == 4
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_card_drawn_and_laid_in_one_move_says_who_laid_it(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(DRAW_AND_LAY)
    state = engine.load(tmp_path / "ruleset.yaml").new_state(players=2, seed=1, record=True)
    arrived = []
    for _ in range(3):
        before = state.clone()
        state.apply(state.legal_actions()[-1])  # the card just drawn
        arrived.append(pile_arrivals(before, state))
    assert "stock: 1 component -> hand of North" in state.log and "hand of North: C5 -> table" in state.log
    came = played_from(arrived)
    listed = [line.plain for line in zone_listing.zones(state, 1, came_from=came)]
    assert "table: C3 (North), C4 (South), C5 (North)" in listed, listed
    html = table_html(state, 1, came_from=came)
    assert re.findall(r'class="by">([^<]*)', html) == ["North", "South", "North"]
