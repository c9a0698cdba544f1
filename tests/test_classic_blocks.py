"""The generic blocks the classic games brought, on small rulesets of their own.

``place: drop``, ``place: bracket`` (flip or capture to a zone),
``if_none: must-pass``, the ``move`` step, ``end: {stalled: ...}``,
``choose(..., always_ask = true)``, ``toss``, ``longest_line``, ``nth`` and
functions with ``cell`` parameters and ``let``.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

import engine
from engine.blocks.bracket import bracketed
from engine.core.errors import IllegalActionError
from engine.runner.validate import validate_path

BASE = """
name: blocks
players: [2]
types:
  side: [A, B]
components:
  stone:
    faces: [up, down]
    attributes:
      side: {type: side, per_face: true}
    instances:
      - {id: s, side: [A, B], count: 40}
board: {kind: square-grid, width: 4, height: 3, adjacency: all}
roles:
  of: side
  seating: {2: [1, 2]}
zones:
  stock: {kind: hand, per: role}
  out: {kind: pile}
setup: |
  move(x in supply, stock(A), 20)
  move(x in supply, stock(B))
  flip(x in stock(B))
"""
OUTCOME = """
scoring:
  rank: r in roles
  by: [count(x in board where x.side == r)]
  points: key
"""


def load(tmp_path: Path, text: str) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(BASE) + textwrap.dedent(text) + textwrap.dedent(OUTCOME))
    return engine.load(str(path))


def texts(state: engine.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_drop_offers_the_lowest_empty_cell_of_each_column(tmp_path: Path) -> None:
    g = load(tmp_path, """
    turn:
      - place: {from: stock, face: as-is, drop: true}
    end: {when: count(empty_cells) == 0}
    """)
    s = g.new_state(players=2)
    assert texts(s) == [f"place s as A at {x},0" for x in range(4)]
    s.apply("place s as A at 2,0")
    assert "place s as B at 2,1" in texts(s) and "place s as B at 2,0" not in texts(s)
    with pytest.raises(IllegalActionError, match="not the lowest empty cell of its column"):
        s.apply("place s as B at 1,2")
    for _ in range(2):
        s.apply("place s as B at 2,1" if s.current_role == "B" else "place s as A at 2,2")
    assert texts(s) == ["place s as B at 0,0", "place s as B at 1,0", "place s as B at 3,0"]  # column 2 is full


def test_bracket_flips_every_closed_line_and_a_placement_must_bracket(tmp_path: Path) -> None:
    g = load(tmp_path, """
    turn:
      - place:
          from: stock
          face: as-is
          touching: false
          bracket: {attribute: side}
          if_none: must-pass
    end: {when: count(empty_cells) == 0}
    """)
    s = g.new_state(players=2)
    assert texts(s) == []  # nothing to bracket on an empty board ...
    assert s.is_terminal  # ... for either player: the game ends before anyone moves
    s = g.new_state(players=2)
    s.outcome = None
    stock_a = s.zones[g.zone_index[("stock", "A")]]
    stock_b = s.zones[g.zone_index[("stock", "B")]]
    s.place(stock_a[0], (0, 0))
    s.place(stock_b[0], (1, 0))
    s.place(stock_b[0], (1, 1))
    s.place(stock_a[0], (2, 2))
    s.turn, s.step, s._actions = 0, 0, None
    assert set(texts(s)) == {"place s as A at 2,0"}  # the one cell closing a line of B: 1,0, against 0,0
    s.apply("place s as A at 2,0")
    assert g.compile_condition("count(x in board where x.side == A) == 4").test(s)


def test_bracket_may_capture_to_a_zone(tmp_path: Path) -> None:
    g = load(tmp_path, """
    turn:
      - place:
          from: stock
          face: as-is
          touching: false
          bracket: {attribute: side, capture: out, required: false}
    end: {when: count(empty_cells) == 0}
    """)
    s = g.new_state(players=2)
    s.place(s.zones[g.zone_index[("stock", "A")]][0], (0, 0))
    s.place(s.zones[g.zone_index[("stock", "B")]][0], (1, 0))
    s._actions = None
    assert len(texts(s)) == 10  # not required: any empty cell
    s.apply("place s as A at 2,0")
    assert s.grid.get((1, 0)) is None and len(s.zones[g.zone_index[("out", None)]]) == 1


def test_must_pass_is_the_only_action_when_blocked_and_counts_as_a_move(tmp_path: Path) -> None:
    g = load(tmp_path, """
    turn:
      - place:
          from: stock
          face: as-is
          touching: false
          bracket: {attribute: side}
          if_none: must-pass
    end: {when: count(empty_cells) == 0}
    """)
    s = g.new_state(players=2, record=True)
    s.outcome = None
    s.place(s.zones[g.zone_index[("stock", "A")]][0], (0, 0))
    s.place(s.zones[g.zone_index[("stock", "B")]][0], (1, 0))
    s.turn, s.step, s._actions = 1, 0, None  # B cannot bracket the corner stone; A can
    assert texts(s) == ["pass"] and s.current_player == 2
    s.apply("pass")
    assert s.current_player == 1 and "place s as A at 2,0" in texts(s)
    assert s.history == ["pass"]


def test_stalled_is_an_end_only_where_a_ruleset_states_it(tmp_path: Path) -> None:
    nothing = """
    turn:
      - place: {from: out, face: as-is, touching: false}
    end: {when: false, max_turns: 30%s}
    """
    quiet = load(tmp_path, nothing % "").new_state(players=2)
    assert quiet.is_terminal and quiet.outcome.ended == "turn limit" and quiet.turn_number == 30
    stalled = load(tmp_path, nothing % ", stalled: true").new_state(players=2)
    assert stalled.is_terminal and stalled.outcome.ended == "stalled" and stalled.turn_number == 2


def test_always_ask_makes_a_single_option_a_decision(tmp_path: Path) -> None:
    program = """
    turn:
      - do:
          effect: |
            let x = choose(y in stock(current_role)%s)
            place(z in stock(current_role) where z == x, first(c in empty_cells))
    end: {when: count(empty_cells) == 0}
    """
    silent = load(tmp_path, program % "").new_state(players=2)
    assert silent.is_terminal  # one kind of stone in each stock: every choice is taken without asking
    asked = load(tmp_path, program % ", always_ask = true").new_state(players=2)
    assert texts(asked) == ["choose s"]
    asked.apply("choose s")
    assert asked.current_player == 2 and len(asked.grid) == 1
    assert asked.game.state_from_json(asked.to_json()) == asked


def test_move_steps_are_relative_to_the_way_each_role_faces(tmp_path: Path) -> None:
    g = load(tmp_path, """
    turn:
      - move:
          side: side
          forward: {A: up, B: down}
          steps:
            - {by: [0, 1], onto: empty}
            - {by: [1, 1], onto: rival}
          capture_to: out
    end: {when: count(x in board where x.side == A) == 0 or count(x in board where x.side == B) == 0}
    """)
    s = g.new_state(players=2)
    a, b = (s.zones[g.zone_index[("stock", r)]][0] for r in "AB")
    s.place(a, (1, 0))
    s.place(b, (2, 1))
    s.outcome, s.turn, s.step, s._actions = None, 0, 0, None  # the empty board had ended the game: start again here
    assert texts(s) == ["move 1,0 to 1,1", "move 1,0 to 2,1"]  # ahead, and ahead-right only onto a rival
    with pytest.raises(IllegalActionError, match="cannot move to 0,1"):
        s.apply("move 1,0 to 0,1")
    s.apply("move 1,0 to 1,1")
    assert texts(s) == ["move 2,1 to 2,0"]  # B faces down: its ahead-right is 1,0, empty, so no capture there
    s.place(s.zones[g.zone_index[("stock", "A")]][0], (1, 0))
    s._actions = None
    assert texts(s) == ["move 2,1 to 2,0", "move 2,1 to 1,0"]
    s.apply("move 2,1 to 1,0")
    assert s.grid[(1, 0)] == b and len(s.zones[g.zone_index[("out", None)]]) == 1


def test_move_settings_are_checked_with_positions(tmp_path: Path) -> None:
    def problems(forward: str) -> list[str]:
        path = tmp_path / "ruleset.yaml"
        path.write_text(textwrap.dedent(BASE) + textwrap.dedent(f"""
        turn:
          - move:
              side: side
              forward: {forward}
              steps:
                - {{by: [0, 1], onto: rival}}
        end: {{when: false}}
        """) + textwrap.dedent(OUTCOME))
        return [d.format().splitlines()[0] for d in validate_path(str(path))]

    assert problems("{A: upward, B: down}") == [f"{tmp_path}/ruleset.yaml:28:20: turn/0/move/forward/A: 'upward' is not one of "
                                                "up, down, right, left"]
    assert sorted(problems("{A: up, C: down}")) == [
        f"{tmp_path}/ruleset.yaml:26:5: a move that captures needs 'capture_to': the zone captured pieces go to",
        f"{tmp_path}/ruleset.yaml:28:16: 'forward' gives no direction for B (give every role the way it faces: up, down, left "
        "or right)",
        f"{tmp_path}/ruleset.yaml:28:24: unknown role 'C'",
    ]


def test_toss_lands_on_every_face(tmp_path: Path) -> None:
    g = load(tmp_path, """
    turn:
      - do: {effect: "toss(x in stock(current_role))"}
    end: {when: turn >= 1}
    """)
    seen = set()
    for seed in range(40):
        s = g.new_state(players=2, seed=seed)
        seen.add(tuple(s.face[c] for c in s.zones[g.zone_index[("stock", "A")]])[:1])
    assert seen == {(0,), (1,)}


def test_longest_line_nth_cell_parameters_and_let(tmp_path: Path) -> None:
    g = load(tmp_path, """
    options:
      targets: {default: [3, 1, 2]}
    functions:
      beside(cell c, int dx):
        let:
          there: at(c.x + dx, c.y)
          wanted: nth(targets, 2)
        is: there != none and wanted == 1
    turn:
      - place: {from: stock, face: as-is, touching: false}
    end: {when: count(empty_cells) == 0}
    """)
    s = g.new_state(players=2)
    for cell in [(0, 0), (1, 1), (2, 2)]:
        s.place(s.zones[g.zone_index[("stock", "A")]][0], cell)
    cond = g.compile_condition
    assert cond("longest_line(x in board where x.side == A) == 3").test(s)
    assert cond("longest_line(x in board where x.side == B) == 0").test(s)
    assert cond("beside((0, 1), 1)").test(s) and not cond("beside((0, 1), 2)").test(s)
    assert cond("nth(targets, 3) == 2 and nth(targets, 4) == none and nth(targets, 0) == none").test(s)
    assert "where there = at(c.x + dx, c.y), wanted = nth(targets, 2)" in g.vocab.functions["beside"].doc


@pytest.mark.parametrize(("text", "message"), [
    ("turn:\n  - place: {from: stock, face: as-is, touching: false, bracket: {attribute: side, capture: stock}}\nend: {when: false}\n",
     "'capture' must be 'flip' or a shared zone; 'stock' is one zone per role"),
    ("turn:\n  - move: {side: side, forward: {A: up}, steps: [{by: [0, 1]}]}\nend: {when: false}\n",
     "'forward' gives no direction for B"),
    ("functions:\n  f(cell c):\n    let:\n      c: 3\n    is: c > 0\nturn:\n  - place: {from: stock, face: as-is, touching: false}\n"
     "end: {when: false}\n", "'c' is already a parameter or an earlier 'let'"),
    ("turn:\n  - place: {from: stock, face: as-is, touching: false}\nend:\n  when: nth(3, 1) == 1\n",
     "the first argument of nth() must be a list, but '3' is not one"),
    ("turn:\n  - do: {effect: 'let x = choose(y in stock(current_role), always_ask = 3)'}\nend: {when: false}\n",
     "the always_ask of choose() must be a bool"),
    ("board: {kind: hex, radius: 2}\nturn:\n  - place: {from: stock, face: as-is, drop: true}\nend: {when: false}\n",
     "'drop: true' needs a square board with fixed edges"),
])
def test_new_settings_are_diagnosed_in_the_designers_words(tmp_path: Path, text: str, message: str) -> None:
    base = textwrap.dedent(BASE)
    if text.startswith("board:"):
        base = base.replace("board: {kind: square-grid, width: 4, height: 3, adjacency: all}\n", "")
    path = tmp_path / "ruleset.yaml"
    path.write_text(base + text + textwrap.dedent(OUTCOME))
    found = [d.format() for d in validate_path(str(path))]
    assert any(message in f and f.startswith(f"{path}:") for f in found), found


def test_a_die_nobody_sees_is_drawn_again_on_any_face() -> None:
    from random import Random

    from engine.core.information import determinize

    game = engine.load("liars-dice")
    state = game.new_state(players=2, seed=1)
    mine, theirs = (state.zones[game.zone_index[("cup", role)]][0] for role in ("First", "Second"))
    faces = set()
    for seed in range(40):
        sample = determinize(state, 1, Random(seed))
        assert sample.observation(1) == state.observation(1)  # seat 1's own die is kept
        faces.add(sample.face[sample.zones[game.zone_index[("cup", "Second")]][0]])
    assert faces == set(range(6))  # the other die could show anything
    assert state.face[mine] == 2 and state.face[theirs] == 5


@pytest.mark.parametrize("board", [
    "{kind: square-grid, width: 5, height: 4, adjacency: all}",
    "{kind: square-grid, width: 3, height: 6, adjacency: all}",
    "{kind: square-grid, width: 1, height: 7, adjacency: all}",
    "{kind: square-grid, width: 6, height: 5, adjacency: orthogonal}",
    "{kind: square-grid, width: 5, height: 5, adjacency: diagonal}",
    "{kind: square-grid, adjacency: all}",
    "{kind: hex, radius: 3}",
])
def test_bracketing_agrees_with_walking_the_board(tmp_path: Path, board: str) -> None:
    """On every board kind, the cells found to bracket something are those a walk along each line finds."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(BASE).replace("board: {kind: square-grid, width: 4, height: 3, adjacency: all}",
                                                  f"board: {board}") + textwrap.dedent("""
    turn:
      - place: {from: stock, face: as-is, bracket: {attribute: side}}
    end: {when: false}
    """) + textwrap.dedent(OUTCOME))
    g = engine.load(str(path))
    bracket, grid = g.steps[0].bracket, g.grid
    assert (bracket.board is not None) == (grid.fixed and "square" in board)  # bits on a square board with edges
    cells = list(grid.cells) if grid.fixed else [(x, y) for y in range(-3, 4) for x in range(-3, 4)]
    rng = random.Random(1)
    for _ in range(40):
        s = g.new_state(players=2)
        stocks = [s.zones[g.zone_index[("stock", r)]] for r in ("A", "B")]
        for cell in rng.sample(cells, min(len(cells), rng.randrange(2, 30))):
            stock = rng.choice([z for z in stocks if z])
            s.place(stock[0], cell)
        for value in ("A", "B"):
            def value_at(c: tuple[int, int]) -> str | None:
                p = s.grid.get(c)
                return None if p is None else bracket.values[s.face[p]][p]
            walked = [c for c in cells if bracketed(g.grid.offsets, value_at, c, value)]
            assert bracket.bracketing(s, cells, value) == walked
            empty = [c for c in cells if c not in s.grid]
            assert bracket.bracketing(s, empty, value) == [c for c in walked if c in empty]
            if bracket.board is not None:  # read from the bits the state keeps
                assert bracket.anywhere(s, value) == [c for c in walked if c in empty]
