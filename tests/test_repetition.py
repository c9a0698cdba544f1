"""Positions seen before (``repetition:``, ``times_seen()``): a game drawn on a position's third time, a move refused
for bringing back an earlier position (superko), the positions kept by saves and copies, and nothing kept by a game
without the section.  Before it a ruleset kept its past in counters, a number per position (chess wrote each
square's man in base 13 into a counter of one component per move)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.blocks.repetition import Seen
from engine.core.errors import IllegalActionError, RulesetError

SHUTTLE = """\
name: shuttle
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  token: {instances: [{id: token}]}
board: {kind: square-grid, width: 4, height: 1}
counters:
  moves: {}
  mark: {}
REPETITION
setup: |
  place(t in supply, (0, 0))
turn:
  - do:
      effect: |
        let t = first(board)
        let to = choose(c in all_cells where abs(c.x - t.cell.x) == 1, optional = true, text = "move the token")
        if to != none:
          place(x in board where x == t, to)
        moves += 1
    REFUSE
end:
  when: END
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def build(tmp_path: Path, repetition: str = "repetition: {}", refuse: str = "", end: str = "times_seen() >= 3") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(SHUTTLE.replace("REPETITION", repetition).replace("    REFUSE\n", refuse).replace("END", end))
    return engine.load(path)


def played(game: engine.Game, *moves: str) -> engine.State:
    s = game.new_state(players=2, seed=1)
    for move in moves:
        s.apply(f"choose {move}")
    return s


def test_the_third_time_a_position_stands_ends_the_game(tmp_path: Path) -> None:
    """The token at 0,0 with A to move: at the start, after two moves and after four; the moves counter, not listed
    under repetition, is no part of the position."""
    game = build(tmp_path)
    s = played(game, "1,0", "0,0", "1,0")
    assert not s.is_terminal
    s.apply("choose 0,0")
    assert s.is_terminal and s.outcome.ended == "end condition"


def test_the_player_to_move_is_part_of_the_position(tmp_path: Path) -> None:
    """A pass leaves the board as it was, with the other player to move: another position.  The start (A to move)
    comes again after two passes and a third time after four."""
    game = build(tmp_path)
    s = played(game, "pass", "pass", "pass")
    assert not s.is_terminal
    s.apply("choose pass")
    assert s.is_terminal


def test_a_move_bringing_back_an_earlier_position_is_refused(tmp_path: Path) -> None:
    """Superko: ``refuse_if_after: times_seen() > 0`` reads the position after the move before it is noted."""
    refuse = ("    refuse_if_after:\n      when: times_seen() > 0\n"
              "      because: no move may bring back an earlier position\n")
    game = build(tmp_path, refuse=refuse, end="moves >= 3")
    s = played(game, "1,0")
    assert s.legal_actions().texts() == ["choose 2,0", "choose pass"]  # 0,0 with A to move: where the game began
    with pytest.raises(IllegalActionError, match="no move may bring back an earlier position"):
        s.apply("choose 0,0")
    s.apply("choose 2,0")
    assert s.legal_actions().texts() == ["choose 3,0", "choose pass"]  # 1,0 with B to move: after the first move


def test_listed_counters_are_part_of_the_position(tmp_path: Path) -> None:
    """With moves listed, no position comes again (the count grows): the game never ends by repetition."""
    game = build(tmp_path, repetition="repetition: {counters: [moves]}", end="times_seen() >= 2 or moves >= 6")
    s = played(game, "1,0", "0,0", "1,0", "0,0", "1,0")
    assert not s.is_terminal
    s.apply("choose 0,0")
    assert s.is_terminal and s.outcome.ended == "end condition"
    assert s.slices[Seen.block].seen is not None and len(set(s.slices[Seen.block].seen)) == 7


def test_saves_and_copies_keep_the_positions_seen(tmp_path: Path) -> None:
    game = build(tmp_path)
    s = played(game, "1,0", "0,0", "1,0")
    for copy in (s.clone(), game.state_from_json(s.to_json())):
        assert copy.slices[Seen.block] == s.slices[Seen.block]
        copy.apply("choose 0,0")
        assert copy.is_terminal


def test_a_game_without_the_section_keeps_nothing(tmp_path: Path) -> None:
    game = build(tmp_path, repetition="", end="moves >= 4")
    assert game.record_position is None
    s = played(game, "1,0", "0,0", "1,0")
    assert Seen.block not in s.slices


@pytest.mark.parametrize("repetition, end, message", [
    ("", "times_seen() >= 3", r"ruleset.yaml:\d+:\d+: unknown function 'times_seen'.*comes with the repetition block: "
                              r"it needs a 'repetition:' section in the ruleset"),
    ("repetition: {counters: [move]}", "moves > 3",
     r"ruleset.yaml:12:25: unknown counter 'move' in repetition's counters \(did you mean 'moves'\?\)"),
    ("repetition: {count: [moves]}", "moves > 3",
     r"ruleset.yaml:12:14: unknown key 'count' in repetition \(did you mean 'counters'\?\)"),
])
def test_misuse_is_refused_where_it_is_written(tmp_path: Path, repetition: str, end: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        build(tmp_path, repetition=repetition, end=end)
