"""``list(VALUE for x in COLLECTION [where CONDITION])``: a list built from a comprehension.  A game of pieces of
several squares (in the manner of Blokus) could not offer a placement as the cells it covers: no expression built a
list of cells (``sorted`` builds numbers only), so the player was asked for a number for the piece's turn, then for a
cell for its corner, eight turns offered for a single square."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError

PIECES = """\
name: pieces
players: [2]
components:
  piece:
    attributes: {size: int, shape: {type: int, list: true}}
    instances:
      - {id: domino, size: 2, shape: [0, 0, 1, 0]}
  square:
    instances: [{id: sq, count: 8}]
board: {kind: square-grid, width: 3, height: 2}
zones:
  pieces_left: {kind: hand}
functions:
  cells_of(piece p, cell a): list((a.x + nth(p.shape, 2 * i - 1), a.y + nth(p.shape, 2 * i)) for i in numbers(1, p.size))
  fits(list of cell cs): all(c.x < 3 and at(c) == none for c in cs)
  placements(piece p): list(cells_of(p, a) for a in all_cells where fits(cells_of(p, a)))
setup: |
  move(p in pieces, pieces_left)
turn:
  - do:
      effect: |
        let cs = choose(x in placements(first(pieces_left)), text = "the squares it covers")
        for c in cs:
          place(s in supply where s.kind == "square", c)
end:
  when: count(board) >= 4
scoring:
  rank: r in roles where seated(r)
  by: [0]
  points: key
"""


def _game(tmp_path: Path, text: str = PIECES) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def test_each_placement_is_offered_as_the_cells_it_covers(tmp_path: Path) -> None:
    s = _game(tmp_path).new_state(players=2)
    assert [str(a) for a in s.legal_actions()] == ["choose [0,0, 1,0]", "choose [1,0, 2,0]", "choose [0,1, 1,1]",
                                                   "choose [1,1, 2,1]"]
    s.apply("choose [1,0, 2,0]")
    assert [str(a) for a in s.legal_actions()] == ["choose [0,1, 1,1]", "choose [1,1, 2,1]"]  # the cells it took


@pytest.mark.parametrize(("code", "holds"), [
    ("list(c.cell for c in board) == []", True),
    ("count(list(r in roles where seated(r))) == 2 and nth(list(r in roles where seated(r)), 2) == nth(roles, 2)", True),
    ("count(list((x, x + 1) for x in numbers(1, 3))) == 3", True),
    ("nth(list((x, x + 1) for x in numbers(1, 3) where x > 1), 1) == (2, 3)", True),
    ("nth(list(list(y for y in numbers(1, x)) for x in numbers(1, 3)), 3) == [1, 2, 3]", True),
])
def test_the_values_are_kept_in_order_whatever_their_type(tmp_path: Path, code: str, holds: bool) -> None:
    game = _game(tmp_path)
    s = game.new_state(players=2)
    assert game.compile_condition(code).fn(s, [None] * 8) is holds


def test_a_list_with_no_selection_is_refused_with_its_usage(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"list\(\) takes 1 argument, not 2 \(usage: list\(VALUE for x in COLLECTION"):
        _game(tmp_path).compile_condition("count(list(1, 2)) == 2")


def test_explain_reads_it_as_the_list_of_its_values(tmp_path: Path) -> None:
    described = _game(tmp_path).compile_condition("(0, 1) in list(c.cell for c in board)").description
    assert described == "(0, 1) is in the list of the cell of c, for c in board"
