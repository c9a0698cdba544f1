"""``walk(CELL, x in COLLECTION [where CONDITION])``: the cells a walk from a cell reaches over the board's
adjacency, never onto a cell where a selected piece stands (docs/effects.md#walk).

The board here is 4x3, with barriers down column 1 but for its bottom cell, and a stone at 3,0::

    .  #  .  S
    .  #  .  .
    .  .  .  .
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError

RULESET = """
name: walk-test
players: [2]
types:
  colour: [Red, Blue]
roles:
  of: colour
  seating: {2: [1, 2]}
components:
  stone:
    attributes: {colour: colour}
    instances:
      - {id: R, colour: Red, count: 6}
  barrier:
    instances:
      - {id: barrier, count: 6}
board:
  kind: square-grid
  width: 4
  height: 3
setup: |
  place(b in supply where b.id == "barrier", (1, 0))
  place(b in supply where b.id == "barrier", (1, 1))
  place(t in supply where t.id == "R", (3, 0))
turn:
  - place: {from: supply, touching: false}
end:
  when: turn > 2
scoring:
  rank: r in roles
  by:
    - count(walk((0, 0), x in board))
  points: key
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    return engine.load(str(path))


def test_the_walk_goes_round_the_selected_pieces_and_over_the_others(tmp_path: Path) -> None:
    """The cells reached, the start first; a cell holding a selected piece is never entered, any other piece is."""
    game = load(tmp_path)
    s = game.new_state(players=2)
    cond = lambda text: game.compile_condition(text).run(s)  # noqa: E731
    # Round the barriers through 1,2, over the stone at 3,0 (it is not selected), the start first.
    walk = 'walk((0, 0), x in board where x.kind == "barrier")'
    assert cond(f"count({walk}) == 10 and nth({walk}, 1) == (0, 0) and (3, 0) in {walk} and (1, 2) in {walk}")
    assert cond(f"not (1, 0) in {walk} and not (1, 1) in {walk}")
    # Every piece bars the way: the stone's cell is left out; a walk from it starts on it all the same.
    assert cond("count(walk((0, 0), x in board)) == 9 and not (3, 0) in walk((0, 0), x in board)")
    assert cond("count(walk((3, 0), x in board)) == 10 and nth(walk((3, 0), x in board), 1) == (3, 0)")
    # A barrier on 1,2 closes the gap: the left column is cut off from the right.
    s.apply("place barrier at 1,2")
    assert cond('walk((0, 0), x in board where x.kind == "barrier") == [(0, 0), (0, 1), (0, 2)]')
    assert cond('not any(c.x == 3 for c in walk((0, 2), x in board where x.kind == "barrier"))')
    assert cond("walk(none, x in board) == []")


def test_the_walk_reads_as_english() -> None:
    """``rulecraft explain`` says what the walk is."""
    from engine.blocks.state_functions import STATE_FUNCTIONS
    from engine.lang.functions import by_name
    from engine.lang.parser import parse_expression

    said = by_name(STATE_FUNCTIONS)["walk"].describe(parse_expression('walk(c, x in board where x.kind == "barrier")'))
    assert said.startswith("the cells a walk from c reaches, never onto the cell of "), said


def test_a_long_walk_spends_the_step_budget(tmp_path: Path) -> None:
    """Each cell the walk reaches is a step: a walk inside a loop that runs long stops with the usual message."""
    game = load(tmp_path, RULESET.replace("width: 4", "width: 100").replace("height: 3", "height: 100"))
    s = game.new_state(players=2)
    with pytest.raises(EffectRuntimeError, match="step budget"):
        game.compile_condition("all(count(walk((0, 0), x in board)) > 0 for n in numbers(1, 20))").run(s)


def test_walk_on_a_growing_board_is_refused_where_written(tmp_path: Path) -> None:
    """A growing board has no edge to stop the walk: the call is refused at its line and column."""
    from engine.runner.validate import validate_path

    text = RULESET.replace("  width: 4\n  height: 3\n", "  max_width: 4\n").replace(
        "  place(b in supply where b.id == \"barrier\", (1, 0))\n  place(b in supply where b.id == \"barrier\", (1, 1))\n"
        "  place(t in supply where t.id == \"R\", (3, 0))\n", "  pass\n").replace("{from: supply, touching: false}", "{from: supply}")
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    found = [f"{d.pos.line}:{d.pos.col} {d.message}" for d in validate_path(str(path))]
    assert "29:13 walk() needs a board with edges, and this ruleset has none" in found, found
