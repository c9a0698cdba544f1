"""``place_each(CELL for x in COLLECTION [where CONDITION])``: every selected piece goes to its own cell, all at once
(docs/effects.md#place_each) — a region of the board turned a quarter (Pentago, docs/examples/pentago), a row slid
along.  Each cell is worked out before any piece moves, so a piece may go where another one leaves: piece by piece,
``place`` refuses the second piece of a turned row (its cell is still taken).  Its mistakes are told at the call's
``file:line:col``: when the ruleset loads (no cell before ``for``, a cell that is not one, items that are not
components) or when it runs (no cell, a cell off the board, two pieces onto one cell, onto a piece that stays)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, RulesetError

SETUP = """\
  place(p in supply where p.id == "A", (0, 0))
  place(p in supply where p.id == "B", (1, 0))
  place(p in supply where p.id == "C", (2, 2))
"""


def _game(tmp_path: Path, program: str, *, setup: str = SETUP, stacking: bool = False) -> engine.Game:
    """A 3x3 board holding A at 0,0, B at 1,0 and C at 2,2; each turn runs ``program`` (a ``do`` step, nothing asked)
    and the game ends after one turn."""
    text = f"""\
name: shifting
players: [1]
components:
  stone:
    instances: [{{id: A}}, {{id: B}}, {{id: C}}, {{id: D}}]
board: {{kind: square-grid, width: 3, height: 3, stacking: {str(stacking).lower()}}}
setup: |
{setup}turn:
  - do:
      effect: |
        {program}
end:
  when: turn >= 1
goals:
  any_of:
    done: {{text: play once, when: true}}
"""
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(str(path))


def _cells(state: engine.State) -> dict[str, tuple[int, int]]:
    return {state.game.piece_names[p]: c for c, p in state.grid.items()}


def _played(game: engine.Game) -> engine.State:
    state = game.new_state(players=1, seed=0, record=True)
    assert state.is_terminal  # the one turn decided nothing: it has been played
    return state


def test_a_row_turned_a_quarter_moves_every_piece_at_once(tmp_path: Path) -> None:
    """The top row turned a quarter clockwise about the middle cell becomes the right column: A (0,0) goes to (2,0),
    where nothing stays, and B (1,0) to (2,1); C, not selected, stays.  The log says so in one line."""
    state = _played(_game(tmp_path, "place_each((2 - p.cell.y, p.cell.x) for p in board where p.cell.y == 0)"))
    assert _cells(state) == {"A": (2, 0), "B": (2, 1), "C": (2, 2)}
    assert "pieces move at once: A at (0,0) to (2,0), B at (1,0) to (2,1)" in (state.log or [])


def test_a_piece_goes_where_another_leaves(tmp_path: Path) -> None:
    """Sliding the top row one cell right: B leaves 1,0 as A comes onto it.  Piece by piece, with place(), A would
    land on B's cell while B is still there."""
    state = _played(_game(tmp_path, "place_each((p.cell.x + 1, p.cell.y) for p in board where p.cell.y == 0)"))
    assert _cells(state) == {"A": (1, 0), "B": (2, 0), "C": (2, 2)}
    with pytest.raises(RulesetError, match="which is already taken"):
        _game(tmp_path, "for p in board where p.cell.y == 0:\n          place(q in board where q == p, (p.cell.x + 1, p.cell.y))")


def test_two_pieces_swap_and_pieces_that_stay_are_not_logged(tmp_path: Path) -> None:
    """A and B trade cells; C goes to the cell it is on (it stays): it is not named as moving."""
    state = _played(_game(tmp_path, "place_each((if p.cell == (2, 2) then (2, 2) else (1 - p.cell.x, 0)) for p in board)"))
    assert _cells(state) == {"B": (0, 0), "A": (1, 0), "C": (2, 2)}
    assert "pieces move at once: A at (0,0) to (1,0), B at (1,0) to (0,0)" in (state.log or [])


def test_a_piece_from_a_zone_is_placed_with_the_others(tmp_path: Path) -> None:
    """A component off the board (D, in the supply) is placed like the rest, where A leaves."""
    state = _played(_game(tmp_path, 'place_each((if p.id == "D" then (0, 0) else (0, 1)) for p in stones where p.id == "A" or p.id == "D")'))
    assert _cells(state) == {"D": (0, 0), "A": (0, 1), "B": (1, 0), "C": (2, 2)}


def test_on_a_board_with_stacking_pieces_may_share_a_cell(tmp_path: Path) -> None:
    """With stacking, A and B both go to 1,1, stacked in the order selected (the last on top)."""
    state = _played(_game(tmp_path, "place_each((1, 1) for p in board where p.cell.y == 0)", stacking=True))
    assert [state.game.piece_names[p] for p in state.stack((1, 1))] == ["B", "A"]


@pytest.mark.parametrize("program, message", [
    ("place_each((1, 1) for p in board where p.cell.y == 0)",
     "place_each() would put A at (0,0) and B at (1,0) both onto 1,1"),
    ("place_each((2, 2) for p in board where p.id == \"A\")",
     "place_each() would put A at (0,0) onto 2,2, which C at (2,2) holds and does not leave"),
    ("place_each((p.cell.x + 3, 0) for p in board where p.id == \"B\")",
     "place_each() would put B at (1,0) onto 4,0, which is not on the board"),
    ("place_each(first(c in empty_cells where c.x > 5) for p in board where p.id == \"A\")",
     "place_each() was given no cell (none) for A at (0,0)"),
])
def test_a_cell_it_cannot_use_stops_the_game_at_the_call(tmp_path: Path, program: str, message: str) -> None:
    """Loading plays the turn (it asks nothing), so the ruleset is refused at the call, as validate reports it."""
    with pytest.raises(RulesetError) as info:
        _game(tmp_path, program)
    found = [(d.pos.line, d.pos.col, d.message) for d in info.value.diagnostics]
    assert found == [(14, 9, f"a game of 1 player, set up, fails before anyone decides: {message}")]


def test_in_play_the_action_is_refused_and_the_state_unchanged(tmp_path: Path) -> None:
    """Turned after a choice, during play: the effect's error names the call, and the game stays at the question."""
    game = _game(tmp_path, "let c = choose(c in empty_cells where c.x == 0, always_ask = true)\n"
                           "        place_each(c for p in board where p.cell.y == 0)")
    state = game.new_state(players=1, seed=0)
    with pytest.raises(EffectRuntimeError) as info:
        state.apply("choose 0,1")
    assert info.value.message == "place_each() would put A at (0,0) and B at (1,0) both onto 0,1"
    assert info.value.pos is not None and (info.value.pos.line, info.value.pos.col) == (15, 9)
    assert _cells(state) == {"A": (0, 0), "B": (1, 0), "C": (2, 2)} and not state.is_terminal


@pytest.mark.parametrize("program, message", [
    ("place_each(p in board where p.cell.y == 0)", "place_each() needs the cell each piece goes to, written before 'for'"),
    ("place_each(p.id for p in board)", "the cell each piece goes to in place_each()"),
    ("place_each((1, 1) for n in [1, 2])", "place_each() moves components, not int"),
])
def test_a_call_that_cannot_work_is_refused_when_the_ruleset_loads(tmp_path: Path, program: str, message: str) -> None:
    with pytest.raises(RulesetError) as info:
        _game(tmp_path, program)
    found = [(d.pos.line, d.message) for d in info.value.diagnostics]
    assert any(line == 14 and message in text for line, text in found), found


def test_setup_may_turn_pieces_too(tmp_path: Path) -> None:
    """In setup (before play) it moves the pieces and writes no log line, as place() does."""
    turned = SETUP + "  place_each((2 - p.cell.y, p.cell.x) for p in board where p.cell.y == 0)\n"
    state = _game(tmp_path, "pass", setup=turned).new_state(players=1, seed=0, record=True)
    assert _cells(state) == {"A": (2, 0), "B": (2, 1), "C": (2, 2)}
    assert not any("move at once" in line for line in state.log or [])
