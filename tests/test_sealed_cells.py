"""Sealed commits that hold a cell of the board (``commit: {cells: ...}``), with a component or alone.

The no-cheating property, as for sealed components (tests/test_slots.py): until
the reveal, two states that differ only in the cell a seat sealed look the
same to every other seat — same observation, same offered actions, same
determinizations, same choice by every agent — while the sealing seat sees
its own cell.  Played as one SIMULTANEOUS decision, a round is the same game
as played one decision at a time, and it saves and loads mid-round.  The
example's scenarios (docs/examples/sealed-cells/scenarios) run with every
example's, in tests/test_mechanisms_table.py.  Cells
alone work on any board: square, hex, growing.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.core.information import determinize
from engine.runner.agents import make_agent
from engine.runner.expectations import compile_expectation

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "sealed-cells"
SPECS = ["random", "greedy", "mcts:30", "ismcts:30"]


def holds(state: engine.State, condition: str) -> bool:
    return compile_expectation(state.game, condition).holds(state)


@pytest.fixture(scope="module")
def cells() -> engine.Game:
    return engine.load(str(EXAMPLE))


def second_round(game: engine.Game, lion: str) -> engine.State:
    """Lion has taken 0,0 in round 1 and has just sealed ``lion`` in round 2; Stag is to seal."""
    state = game.new_state(players=2, seed=1)
    for text in ("commit LionSM as Sun to tile at 0,0", "commit StagSM as Moon to tile at 0,0", lion):
        state.apply(text)
    return state


def test_a_sealed_cell_does_not_leak(cells: engine.Game) -> None:
    a = second_round(cells, "commit LionMT as Moon to tile at 1,0")
    b = second_round(cells, "commit LionMT as Moon to tile at 0,-1")
    assert a != b
    seat = a.seat_to_move
    assert seat == 2
    assert a.observation(seat) == b.observation(seat)
    assert a.observation(seat)["committed_cells"]["sealed"] == []
    assert a.legal_actions(seat).texts() == b.legal_actions(seat).texts()
    for i in range(5):
        assert determinize(a, seat, random.Random(i)) == determinize(b, seat, random.Random(i))
    for spec in SPECS:
        assert str(make_agent(spec, seed=4).choose(a)) == str(make_agent(spec, seed=4).choose(b))


def test_the_sealing_seat_sees_its_own_cell_and_everyone_sees_them_revealed(cells: engine.Game) -> None:
    state = second_round(cells, "commit LionMT as Moon to tile at 1,0")
    assert state.observation(1)["committed_cells"]["sealed"] == [["Lion", "tile", "1,0"]]
    assert state.observation(1)["committed_cells"]["revealed"] == state.observation(2)["committed_cells"]["revealed"]
    kept = {tuple(determinize(state, 1, random.Random(i)).to_json()["scratch"]["sealed cells"][0][3:]) for i in range(5)}
    assert kept == {(1, 0)}, "a seat's own sealed cell is never drawn again"
    state.apply("commit StagST as Star to tile at -1,0")
    for seat in (1, 2):
        assert state.observation(seat)["committed_cells"] == {
            "sealed": [], "revealed": [["Lion", "tile", "1,0"], ["Stag", "tile", "-1,0"]]}


def test_a_sample_draws_another_seats_sealed_cell_among_the_cells_offered(cells: engine.Game) -> None:
    state = second_round(cells, "commit LionMT as Moon to tile at 1,0")
    drawn = {tuple(determinize(state, 2, random.Random(i)).to_json()["scratch"]["sealed cells"][0][3:]) for i in range(40)}
    assert drawn == {(1, 0), (-1, 0), (0, 1), (0, -1)}


def test_a_joint_round_is_the_round_played_one_decision_at_a_time(cells: engine.Game) -> None:
    for seed in range(4):
        rand = random.Random(seed)
        joint, one_by_one = cells.new_state(players=2, seed=seed), cells.new_state(players=2, seed=seed)
        texts = []
        while not joint.is_terminal:
            assert joint.current_player == engine.SIMULTANEOUS
            pair = {seat: rand.choice(joint.legal_actions(seat).texts()) for seat in joint.simultaneous_seats()}
            texts += [pair[1], pair[2]]
            joint.apply_joint(pair)
            one_by_one.apply(texts[-2])
            one_by_one.apply(texts[-1])
            for seat in (1, 2):
                assert joint.observation(seat) == one_by_one.observation(seat)
        assert one_by_one.is_terminal and joint.outcome == one_by_one.outcome
        assert joint.zones == one_by_one.zones and joint.grid == one_by_one.grid and joint.rng == one_by_one.rng
        assert joint.to_json()["scratch"]["revealed cells"] == one_by_one.to_json()["scratch"]["revealed cells"]


def test_a_game_saved_with_a_sealed_cell_loads_and_goes_on(cells: engine.Game) -> None:
    state = second_round(cells, "commit LionMT as Moon to tile at 1,0")
    loaded = cells.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded == state
    loaded.apply("commit StagST as Star to tile at -1,0")
    assert holds(loaded, "at(1, 0).house == Lion and committed_cell(Lion) == (1, 0)")


CLAIMS = """
name: sealed-claims
players: [2]
types:
  side: [A, B]
components:
  stone:
    attributes: {side: side}
    instances:
      - {id: a, side: A, count: 9}
      - {id: b, side: B, count: 9}
board: BOARD
roles:
  of: side
  seating: {2: [1, 2]}
zones:
  stock: {kind: pile, per: role}
slots:
  names: [claim]
setup: |
  for r in roles:
    move(s in supply where s.side == r, stock(r))
turn:
  # Each side seals an empty cell alone; when both have, the cells are revealed.
  - commit: {cells: empty_cells}
  - reveal: {}
  # A cell only one side claimed gets its stone; a cell both claimed stays empty.
  - do:
      if: turn_position(current_role) == player_count
      effect: |
        for r in roles where count(o in roles where committed_cell(o) == committed_cell(r)) == 1:
          if committed_cell(r) in empty_cells:   # on a growing board, the first stone may leave no room for the next
            place(first(stock(r)), committed_cell(r))
end:
  when: count(empty_cells) == 0 or all(count(s in stock(r)) == 0 for r in roles)
  max_turns: 40
scoring:
  rank: r in roles
  by: [count(s in board where s.side == r)]
  points: key
"""

BOARDS = {
    "square": "{kind: square-grid, width: 3, height: 3, adjacency: orthogonal}",
    "hex": "{kind: hex, radius: 1}",
    "growing": "{kind: square-grid, max_width: 3, max_height: 3, adjacency: orthogonal}",
}
FIRST_STONE = "  place(first(stock(B)), (0, 0))   # a growing board offers its centre alone until a stone is on it\n"


def claims(tmp_path: Path, board: str, extra: str = "") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    text = CLAIMS.replace("BOARD", BOARDS[board])
    if board == "growing":
        text = text.replace("\nturn:\n", "\n" + FIRST_STONE + "turn:\n")
    path.write_text(text + textwrap.dedent(extra), encoding="utf-8")
    return engine.load(str(path))


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_cells_alone_are_sealed_revealed_and_resolved_on_any_board(tmp_path: Path, board: str) -> None:
    game = claims(tmp_path, board)
    state = game.new_state(players=2, seed=1, record=True)
    assert state.current_player == engine.SIMULTANEOUS
    offered = state.legal_actions(1).texts()
    assert offered == state.legal_actions(2).texts() and all(t.startswith("commit ") and t.endswith(" to claim") for t in offered)
    first, other = offered[0], offered[-1]
    same = state.clone()
    same.apply_joint({1: first, 2: first})  # both claim one cell: nobody gets it
    assert same.grid == state.grid and holds(same, "committed_cell(A) == committed_cell(B)")
    state.apply_joint({1: first, 2: other})  # two cells: each side gets its own
    cell_a, cell_b = first.split()[1], other.split()[1]
    assert holds(state, f"at({cell_a}).side == A and at({cell_b}).side == B")
    assert "A reveals the cell " + cell_a + " for claim" in state.log
    assert "A commits a cell face down to claim" in state.log
    rand = random.Random(2)
    while not state.is_terminal:  # a whole game of cells alone ends
        if state.current_player == engine.SIMULTANEOUS:
            state.apply_joint({seat: rand.choice(state.legal_actions(seat).texts()) for seat in state.simultaneous_seats()})
        else:
            state.apply(rand.choice(state.legal_actions().texts()))
    assert state.outcome is not None and holds(state, "count(s in board where s.side == A) > 0")


def test_a_cell_alone_is_hidden_until_the_reveal(tmp_path: Path) -> None:
    game = claims(tmp_path, "hex")
    a, b = game.new_state(players=2, seed=1), game.new_state(players=2, seed=1)
    a.apply("commit 0,0 to claim")
    b.apply("commit 1,0 to claim")
    assert a != b and a.observation(2) == b.observation(2)
    assert determinize(a, 2, random.Random(1)) == determinize(b, 2, random.Random(1))
    assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]


@pytest.mark.parametrize("extra, message", [
    ("  - commit: {cells: 3}\n", "'cells' must be a list of cells (say empty_cells), not int"),
    ("  - commit: {from: stock}\n", "step 'commit' needs both 'from' and 'to' (or neither, with 'cells', to commit a cell alone)"),
    ("  - commit: {cells: empty_cells, face: choose}\n", "'face: choose' needs components to commit: add 'from' and 'to'"),
    ("  - reveal: {to: stock}\n", "step 'reveal' needs both 'from' and 'to' (or neither, to reveal committed cells alone)"),
])
def test_a_badly_written_cell_commit_is_refused_where_it_is_written(tmp_path: Path, extra: str, message: str) -> None:
    text = CLAIMS.replace("BOARD", BOARDS["square"]).replace("turn:\n", "turn:\n" + extra, 1)
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(str(path))
    line = 1 + text.splitlines().index(extra.rstrip("\n"))
    assert any(f"ruleset.yaml:{line}:" in d.headline() and message in d.headline() for d in info.value.diagnostics), str(info.value)


@pytest.mark.parametrize("board", [None, *sorted(BOARDS)])
def test_every_offered_commit_is_among_the_texts_the_step_lists(tmp_path: Path, board: str | None) -> None:
    """A learning agent's fixed list of actions (Step.action_texts) names every cell commit a game offers."""
    game = engine.load(str(EXAMPLE)) if board is None else claims(tmp_path, board)
    for players in game.player_counts:
        state, pick = game.new_state(players=players, seed=players), random.Random(players)
        while not state.is_terminal:
            if state.pending is None:
                listed = set(game.steps[state.step].action_texts(game).texts)
                assert set(state.legal_actions().texts()) <= listed
            state.apply(pick.choice(list(state.legal_actions())))


def test_each_seat_of_a_cell_round_is_answered_by_its_own_agent(cells: engine.Game) -> None:
    """choose_for_seat samples the earlier seats' sealed cells again, so a later seat's search sees none of them."""
    from engine.runner.agents import choose_for_seat, joint_choice

    state = second_round(cells, "commit LionMT as Moon to tile at 1,0").clone()
    start = cells.new_state(players=2, seed=1)
    start.apply_joint({1: "commit LionSM as Sun to tile at 0,0", 2: "commit StagSM as Moon to tile at 0,0"})
    answers = {str(choose_for_seat(make_agent("ismcts:30", seed=5), start, 2, random.Random(seed))) for seed in range(3)}
    assert answers <= set(start.legal_actions(2).texts())
    bots = {1: make_agent("ismcts:20", seed=1), 2: make_agent("random", seed=2)}
    rand = random.Random(0)
    while not state.is_terminal:
        if state.current_player == engine.SIMULTANEOUS:
            state.apply_joint(joint_choice(bots, state, rand))
        else:
            state.apply(bots[state.seat_to_move].choose(state))
    assert state.outcome is not None
