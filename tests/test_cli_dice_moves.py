"""A die moved after a toss says the face it landed on: Yacht's ``tray: die -> kept`` did not tell which die a player
kept, though the toss's line had said the faces.  Now a component of a kind ``toss()`` has thrown is named with its
face in a move's log line (``tray: die as 5 -> kept``), where everyone sees it; a die moved in a hidden cup is still
a count, and a component no toss threw keeps its plain name."""

from __future__ import annotations

import re
from pathlib import Path

import engine
from tests.test_cli import run

YACHT = Path(__file__).resolve().parents[1] / "docs" / "examples" / "yacht"


def test_a_kept_die_is_logged_with_the_face_it_landed_on() -> None:
    result = run("play", str(YACHT), "--players", "1", "--seat", "1=random", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    kept = [line for line in lines if line.startswith("tray: ") and line.endswith(" -> kept")]
    assert kept and all(re.fullmatch(r"tray: die as [1-6] -> kept", line) for line in kept), kept
    back = [line for line in lines if line.startswith("kept: ")]
    assert back and all(re.fullmatch(r"kept: die as [1-6](, die as [1-6])* -> tray", line) for line in back), back


def test_the_face_named_is_the_one_the_die_shows() -> None:
    game = engine.load(YACHT)
    state = game.new_state(players=1, seed=3, record=True)
    label = next(t for t in state.legal_actions().texts() if t.startswith("choose die"))
    state.apply(label)
    assert state.log is not None
    moved = [line for line in state.log if line.endswith(" -> kept")]
    assert len(moved) == 1 and moved[0].startswith("tray: die as "), moved
    kept = state.zones[game.zone_index[("kept", None)]]
    assert moved[0] == f"tray: die as {game.face_labels[kept[0]][state.face[kept[0]]]} -> kept"


HIDDEN_CUP = """\
name: cup-and-pile
players: [2]
components:
  die:
    faces: [one, two, three, four, five, six]
    instances:
      - {id: die, count: 2}
  coin:
    faces: [heads, tails]
    instances:
      - {id: coin, count: 1}
zones:
  cup: {kind: hand, per: role, hidden: others}
  pile: {kind: pile}
counters:
  done: {}
setup: |
  move(d in supply where d.kind == "die", cup(first(r in roles)), 1)
  move(d in supply where d.kind == "die", pile, 1)
  toss(d in cup(first(r in roles)))
  toss(d in pile)
turn:
  - do:
      effect: |
        move(d in cup(first(r in roles)), cup(current_role))
        move(c in supply where c.kind == "coin", pile)
        done += 1
end:
  when: done > 0
scoring:
  rank: r in roles
  by: [done]
  points: key
"""


def test_a_die_in_a_hidden_cup_is_still_a_count_and_an_untossed_kind_keeps_its_name(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(HIDDEN_CUP, encoding="utf-8")
    state = engine.load(tmp_path).new_state(players=2, seed=1, record=True)
    assert state.log is not None
    assert "cup of seat1: 1 component -> cup of seat1" in state.log, state.log
    assert "supply: coin -> pile" in state.log, state.log
