"""A ``commit`` step offers identical copies (``count:``) once, as ``place`` does.

In a racing game whose hands hold copies of energy cards, ``rulecraft play`` listed ``[2] commit E4 to pick`` and
``[3] commit E4 to pick``: the same decision twice, and a random bot twice as likely to seal a card it held two of.
"""

from __future__ import annotations

from pathlib import Path

import engine

RULESET = """\
name: copies
players: [2]
components:
  energy:
    attributes: {value: int}
    instances:
      - {id: E3, value: 3, count: 4}
      - {id: E5, value: 5, count: 4}
slots: {names: [pick], zones: [sealed, shown]}
zones:
  hand: {kind: hand, per: role, hidden: others}
  sealed: {kind: pile, per: role, hidden: others}
  shown: {kind: pile, per: role}
setup: |
  for r in roles:
    move(c in energys where c.value == 3 and c in supply, hand(r), 2)
    move(c in energys where c.value == 5 and c in supply, hand(r), 1)
turn:
  - commit: {from: hand, to: sealed}
  - reveal: {from: sealed, to: shown}
end:
  when: all(count(hand(r)) == 0 for r in roles)
scoring:
  rank: r in roles
  by: [sum(c.value for c in shown(r))]
  points: [1]
"""


def test_copies_in_the_hand_are_one_decision(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    s = engine.load(tmp_path).new_state(players=2, seed=1)
    assert sorted(map(str, s.legal_actions())) == ["commit E3 to pick", "commit E5 to pick"]
    s.apply("commit E3 to pick")
    assert sorted(map(str, s.legal_actions())) == ["commit E3 to pick", "commit E5 to pick"]
