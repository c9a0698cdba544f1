"""``end: {no_move: loses | draw | passes}``: what befalls the player to move when the first decision of their turn
has no legal action, judged as ``legal_actions()`` judges it (a ``choose`` of a ``do`` step with nothing to choose,
a ``place`` step with nowhere to place, every action refused by ``refuse_if_after``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError

# Take one or two from a shared pile of five; the player to move facing an empty pile has no legal move.
TAKING = """\
name: taking
players: [2]
types: {side: [A, B]}
roles: {of: side, seating: {2: [1, 2]}}
counters:
  pile: {start: 5}
turn:
  - do:
      effect: |
        let n = choose(k in [1, 2] where k <= pile, always_ask = true, text = "how many to take")
        pile -= n
  - do:
      effect: |
        let again = choose(k in [1] where pile > 10, always_ask = true)
end:
  {END}
scoring:
  rank: r in roles
  by: [0]
  points: key
"""

# Each side adds 1 or 2 to its own total; a total past 3 is refused by the position after it.
COUNTING = """\
name: counting
players: [2]
types: {side: [A, B]}
roles: {of: side, seating: {2: [1, 2]}}
counters:
  total: {per: role}
turn:
  - do:
      effect: |
        let n = choose(k in [1, 2], always_ask = true)
        total(current_role) += n
    refuse_if_after: total(actor) > 3
end:
  when: false
  no_move: loses
scoring:
  rank: r in roles
  by: [0]
  points: key
"""

# Marks on a row of three cells; with REFUSE, no placement may leave more than two marks.
PLACING = """\
name: placing
players: [2]
types: {mark: [X, O]}
components:
  token:
    attributes: {mark: mark}
    instances: [{id: X, mark: X, count: 3}, {id: O, mark: O, count: 3}]
board: {kind: square-grid, width: 3, height: 1}
roles: {of: mark, seating: {2: [1, 2]}}
zones:
  marks: {kind: hand, per: role}
setup: |
  for r in roles:
    move(t in tokens where t.mark == r, marks(r))
turn:
  - place: {from: marks, face: as-is}
    REFUSE
end:
  when: false
  no_move: loses
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def _load(tmp_path: Path, text: str) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def _taking(tmp_path: Path, end: str, record: bool = True) -> engine.State:
    s = _load(tmp_path, TAKING.replace("{END}", end)).new_state(players=2, seed=1, record=record)
    for text in ["choose 2", "choose 2", "choose 1"]:  # A, B, A: the pile is empty with B to move
        s.apply(text)
    return s


def test_a_choose_with_nothing_to_choose_at_the_turn_s_first_decision_loses(tmp_path: Path) -> None:
    s = _taking(tmp_path, "{when: false, no_move: loses}")
    assert s.is_terminal and s.outcome.winners == (1,) and s.returns() == [1.0, 0.0]
    assert s.outcome.ended == "no legal move"
    assert s.log[-1] == "game over: B has no legal move: loses"


def test_no_legal_move_may_be_a_draw(tmp_path: Path) -> None:
    s = _taking(tmp_path, "{when: false, no_move: draw}")
    assert s.is_terminal and s.returns() == [0.5, 0.5] and s.outcome.is_draw


def test_a_player_with_no_legal_move_may_pass_its_turn(tmp_path: Path) -> None:
    s = _taking(tmp_path, "{when: turn >= 6, no_move: passes}")
    assert s.is_terminal and s.turn_number == 6  # B, A and B passed; the sixth turn ends the game by 'when'
    assert s.log.count("B has no legal move and passes") == 2 and s.log.count("A has no legal move and passes") == 1


def test_without_no_move_an_empty_choose_gives_none_as_before(tmp_path: Path) -> None:
    s = _taking(tmp_path, "{when: turn >= 6}")
    assert s.is_terminal and s.turn_number == 6 and s.outcome.ended == "end condition"  # turns went by, nothing asked


def test_a_later_decision_of_the_turn_finding_nothing_is_no_lost_game(tmp_path: Path) -> None:
    """The second step's choose never has an option (the pile is never past 10): the turn goes on as usual."""
    s = _load(tmp_path, TAKING.replace("{END}", "{when: false, no_move: loses}")).new_state(players=2, seed=1)
    s.apply("choose 1")
    assert not s.is_terminal and s.seat_to_move == 2


def test_every_action_refused_by_refuse_if_after_is_no_legal_move(tmp_path: Path) -> None:
    s = _load(tmp_path, COUNTING).new_state(players=2, seed=1)
    for text in ["choose 2", "choose 2", "choose 1", "choose 1"]:  # both totals are 3 now: A may add nothing
        s.apply(text)
    assert s.is_terminal and s.outcome.winners == (2,)


def test_random_games_of_a_refusing_step_end_by_no_move(tmp_path: Path) -> None:
    game = _load(tmp_path, COUNTING)
    for seed in range(5):
        s = game.new_state(players=2, seed=seed)
        while not s.is_terminal:
            assert len(s.legal_actions()), "a position left with no legal action that is not over"
            s.play(seed % len(s.legal_actions()))
        assert s.outcome.ended == "no legal move"


def test_a_place_step_with_nowhere_to_place_loses(tmp_path: Path) -> None:
    s = _load(tmp_path, PLACING.replace("REFUSE", "")).new_state(players=2, seed=1)
    for cell in ["0,0", "1,0", "2,0"]:  # X, O, X: the row is full with O to move
        s.apply(next(a for a in s.legal_actions().texts() if a.endswith(cell)))
    assert s.is_terminal and s.outcome.winners == (1,)


def test_a_block_step_whose_every_action_is_refused_loses(tmp_path: Path) -> None:
    refuse = "refuse_if_after: count(board) > 2"
    s = _load(tmp_path, PLACING.replace("REFUSE", refuse)).new_state(players=2, seed=1)
    for cell in ["0,0", "1,0"]:  # X, O: any mark X adds now leaves three
        s.apply(next(a for a in s.legal_actions().texts() if a.endswith(cell)))
    assert s.is_terminal and s.outcome.winners == (2,)


def test_a_misspelt_no_move_is_reported_where_it_is_written(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:
        _load(tmp_path, TAKING.replace("{END}", "{when: false, no_move: lose}"))
    assert "ruleset.yaml:16:26: end/no_move: 'lose' is not one of loses, draw, passes (did you mean 'loses'?)" in str(err.value)


def test_explain_says_what_befalls_a_player_with_no_legal_move(tmp_path: Path) -> None:
    from cli.explain import _end

    game = _load(tmp_path, TAKING.replace("{END}", "{when: false, no_move: loses}"))
    assert _end(game) == ["only when the player to move has no legal move (that player loses), or after 1000 turns"]
    game = _load(tmp_path, TAKING.replace("{END}", "{when: turn >= 6, no_move: passes}"))
    assert _end(game) == ["when turn is at least 6, or after 1000 turns; a player with no legal move on their turn "
                          "passes"]


@pytest.mark.parametrize("replaying", [False, True], ids=["coroutine", "replaying"])
def test_what_the_effect_did_before_finding_nothing_is_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               replaying: bool) -> None:
    """The effect counts the turn before it asks: a turn with no legal move counts nothing, log and counter alike
    (an effect that changes the game before asking runs as a coroutine, or replaying without one)."""
    from engine.blocks import choices

    monkeypatch.setattr(choices, "_REPLAYING", replaying)
    counting = TAKING.replace("pile: {start: 5}", "pile: {start: 5}\n  asked: {per: role}").replace(
        "        let n = choose(", "        asked(current_role) += 1\n        let n = choose(")
    s = _load(tmp_path, counting.replace("{END}", "{when: turn >= 6, no_move: passes}")).new_state(
        players=2, seed=1, record=True)
    for text in ["choose 2", "choose 2", "choose 1"]:
        s.apply(text)
    assert s.is_terminal
    asked = s.game.compile_condition("asked(A) == 2 and asked(B) == 1 and pile == 0")
    assert asked.run(s)
    assert "asked of A: 1 -> 2" in s.log and not any(line.startswith("asked of B: 1 -> 2") for line in s.log)
