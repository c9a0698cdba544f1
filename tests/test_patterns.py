"""Patterns on a board (engine/blocks/patterns.py), fixed boards with stacks, and swapping places — on a tiny game."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.blocks.patterns import DEFAULT_SHAPE, Board, Shape, find

GAME = """
name: dots
players: [2]
types:
  hue: [A, B, C]
components:
  dot:
    attributes: {hue: hue}
    instances:
      - {id: a, hue: A, count: 6}
      - {id: b, hue: B, count: 6}
      - {id: c, hue: C, count: 6}
board: {width: 5, height: 5, adjacency: all, stacking: true}
zones:
  pool: {kind: pile}
setup: move(d in dots, pool)
turn:
  - place: {from: pool, touching: false}
end: {when: count(d in pool) == 0}
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    path: Path = tmp_path_factory.mktemp("dots") / "ruleset.yaml"
    path.write_text(GAME)
    return engine.load(path)


def board_with(game: engine.Game, rows: list[str]) -> engine.State:
    """A state whose board shows ``rows`` (letters A/B/C, '.' empty; a column of letters per cell is a stack, top first)."""
    s = game.new_state(players=2)
    pool = s.zones[game.zone_index[("pool", None)]]
    for y, row in enumerate(rows):
        for x, cell in enumerate(row.split()):
            for hue in reversed(cell.replace(".", "")):
                cid = next(c for c in pool if game.piece_names[c] == hue.lower())
                s.place(cid, (x, y))
    return s


def matches(game: engine.Game, s: engine.State, shape: Shape, values: str, budget: int = 0) -> list[str]:
    table = game.attributes["hue"]
    board = Board(s, lambda c: table[0][c])
    return [m.text(tuple(values)) for m in find(board, shape, tuple(values), budget)]


def test_a_line_reads_in_order_from_either_end(game: engine.Game) -> None:
    s = board_with(game, ["A B C . .", ". . . . .", "C . . . .", ". B . . .", ". . A . ."])
    assert matches(game, s, DEFAULT_SHAPE, "ABC") == ["0,0 1,0 2,0", "2,4 1,3 0,2"]
    assert matches(game, s, DEFAULT_SHAPE, "ACB") == []  # the same colours in another order


def test_a_palindrome_is_one_match(game: engine.Game) -> None:
    s = board_with(game, ["A B A . ."])
    assert matches(game, s, DEFAULT_SHAPE, "ABA") == ["0,0 1,0 2,0"]


def test_values_read_differently_cost_budget(game: engine.Game) -> None:
    s = board_with(game, ["A C C . ."])
    assert matches(game, s, DEFAULT_SHAPE, "ABC") == []
    assert matches(game, s, DEFAULT_SHAPE, "ABC", budget=1) == ["0,0 1,0 2,0 with 1,0 as B"]
    assert matches(game, s, DEFAULT_SHAPE, "ABC", budget=2) == ["0,0 1,0 2,0 with 1,0 as B"]
    assert "2,0 1,0 0,0 with 2,0 as A, 1,0 as B, 0,0 as C" in matches(game, s, DEFAULT_SHAPE, "ABC", budget=3)


def test_a_chain_winds_without_using_a_cell_twice(game: engine.Game) -> None:
    chain = Shape("chain", "chain", directions=((1, 0), (-1, 0), (0, 1), (0, -1)))
    s = board_with(game, ["A B . . .", ". C . . .", "C . . . ."])
    assert matches(game, s, chain, "ABC") == ["0,0 1,0 1,1"]
    assert matches(game, s, chain, "ABA") == []  # the A cell may not be used again


def test_a_template_turns_and_mirrors_only_when_allowed(game: engine.Game) -> None:
    cells = ((0, 0, 0), (1, 0, 0), (1, 1, 0))
    s = board_with(game, [". . . . .", ". . . A .", ". . B C ."])  # the L turned and mirrored
    assert matches(game, s, Shape("l", "template", cells=cells), "ABC") == []
    assert matches(game, s, Shape("l", "template", cells=cells, rotate=True), "ABC") == []
    assert matches(game, s, Shape("l", "template", cells=cells, rotate=True, mirror=True), "CBA") == []
    assert matches(game, s, Shape("l", "template", cells=cells, rotate=True, mirror=True), "ACB") == ["3,1 3,2 2,2"]


def test_stacks_are_read_from_the_top_down(game: engine.Game) -> None:
    tower = Shape("tower", "stack")
    s = board_with(game, ["AB C . . ."])  # A on top of B at 0,0
    assert s.stack((0, 0)) == (s.grid[(0, 0)], *s.stacks[(0, 0)])
    assert matches(game, s, tower, "AB") == ["0,0 0,0:2"]
    assert matches(game, s, tower, "BA") == []
    assert matches(game, s, DEFAULT_SHAPE, "AC") == ["0,0 1,0"]  # lines read the top pieces
    side = Shape("side", "template", cells=((0, 0, 0), (0, 0, 1), (1, 0, 0)))
    assert matches(game, s, side, "ABC") == ["0,0 0,0:2 1,0"]


def test_layouts_are_computed_once() -> None:
    line = Shape("line", "line", directions=((1, 0), (-1, 0)))
    assert line.layouts(3) is line.layouts(3)
    assert line.layouts(2) == (((0, 0, 0), (1, 0, 0)), ((0, 0, 0), (-1, 0, 0)))


def test_a_fixed_board_offers_every_empty_cell_and_stacks(game: engine.Game) -> None:
    s = board_with(game, ["A . . . ."])
    cells = {a.args[2] for a in s.legal_actions()}
    assert len(cells) == 25 and (0, 0) in cells  # stacking: the occupied cell too
    s.apply("place b at 0,0")
    assert [game.piece_names[c] for c in s.stack((0, 0))] == ["b", "a"]
    assert (4, 4) in s.game.grid.cells and not s.game.grid.contains((5, 0))


def test_lifting_and_swapping_keep_stacks_in_order(game: engine.Game) -> None:
    s = board_with(game, ["ABC A . . ."])
    top, middle, bottom = s.stack((0, 0))
    other = s.grid[(1, 0)]
    s.swap(middle, other)
    assert s.stack((0, 0)) == (top, other, bottom) and s.grid[(1, 0)] == middle
    assert s.cell_of[middle] == (1, 0) and s.cell_of[other] == (0, 0)
    pool = game.zone_index[("pool", None)]
    spare = s.zones[pool][0]
    s.swap(bottom, spare)  # a piece on the board trades places with one in a zone
    assert s.stack((0, 0)) == (top, other, spare) and s.zones[pool][0] == bottom and s.cell_of[bottom] is None
    s.move(other, pool)  # out of the middle of the stack
    assert s.stack((0, 0)) == (top, spare)
    s.move(top, pool)
    assert s.stack((0, 0)) == (spare,) and (0, 0) not in s.stacks
    copy = game.state_from_json(s.to_json())
    assert copy == s and copy.stack((0, 0)) == (spare,)


def test_saved_stacks_round_trip(game: engine.Game) -> None:
    s = board_with(game, ["ABC . . . ."])
    copy = game.state_from_json(s.to_json())
    assert copy == s and copy.stack((0, 0)) == s.stack((0, 0))
    assert s.observation(1)["stacks"] == {"0,0": ["b", "c"]}


# ------------------------------------------------------------------ geometry belongs to the board

HEX_GAME = GAME.replace("board: {width: 5, height: 5, adjacency: all, stacking: true}", "board: {kind: hex, radius: 3}") + """
shapes:
  triangle: {kind: template, cells: [[0, 0], [1, 0], [0, 1]], rotate: true}
  snake: {kind: chain}
"""


@pytest.fixture(scope="module")
def hex_game(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    path: Path = tmp_path_factory.mktemp("hexdots") / "ruleset.yaml"
    path.write_text(HEX_GAME)
    return engine.load(path)


def hex_board_with(game: engine.Game, pieces: dict[tuple[int, int], str]) -> engine.State:
    s = game.new_state(players=2)
    pool = s.zones[game.zone_index[("pool", None)]]
    for cell, hue in pieces.items():
        s.place(next(c for c in pool if game.piece_names[c] == hue.lower()), cell)
    return s


def test_a_hex_line_runs_between_neighbours_only(hex_game: engine.Game) -> None:
    line = hex_game.parts["patterns"]["line"]
    apart = hex_board_with(hex_game, {(0, 0): "A", (1, 1): "A", (2, 2): "A"})  # (1,1) is not a hex neighbour of (0,0)
    assert matches(hex_game, apart, line, "AAA") == []
    for step in ((1, 0), (0, 1), (1, -1)):  # the three axes of a hex board
        cells = {(i * step[0], i * step[1]): "A" for i in range(3)}
        assert len(matches(hex_game, hex_board_with(hex_game, cells), line, "AAA")) == 1, step


def test_a_hex_template_turns_in_sixths(hex_game: engine.Game) -> None:
    triangle = hex_game.parts["patterns"]["triangle"]
    assert len(triangle.layouts(3)) == 6
    # Six triangles meet at 0,0: each pair of neighbouring neighbours makes one, in its own orientation.
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    for a, b in zip(ring, ring[1:] + ring[:1]):
        s = hex_board_with(hex_game, {(0, 0): "A", a: "B", b: "C"})
        found = matches(hex_game, s, triangle, "ABC") + matches(hex_game, s, triangle, "ACB")
        assert len(found) == 1, (a, b)


def test_a_hex_chain_steps_to_all_six_neighbours(hex_game: engine.Game) -> None:
    s = hex_board_with(hex_game, {(0, 0): "A", (1, -1): "B", (0, -1): "C"})  # (1,-1) is a neighbour only on hexes
    assert matches(hex_game, s, hex_game.parts["patterns"]["snake"], "ABC") == ["0,0 1,-1 0,-1"]


def test_explain_says_a_hex_shape_in_the_hex_board_s_words(hex_game: engine.Game) -> None:
    """``rulecraft explain`` describes shapes with Shape.describe: on hexes, lines of neighbours, never 'diagonal'."""
    shapes = hex_game.parts["patterns"]
    assert shapes["line"].describe().startswith("in order on a straight line of neighbouring cells along any of the board's directions")
    assert "diagonal" not in shapes["line"].describe() and "orthogonal" not in shapes["line"].describe()
    assert shapes["triangle"].describe() == "on the cells 0,0 1,0 0,1 of a template (it may be turned)"


def test_square_words_are_refused_on_a_hex_board(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(HEX_GAME + "  straight: {kind: line, directions: orthogonal}\n")
    with pytest.raises(engine.RulesetError) as raised:
        engine.load(path)
    message = str(raised.value)
    assert "'directions: orthogonal' has no meaning on a hexagonal board" in message
    line = HEX_GAME.count("\n") + 1  # the added shape's line; the caret is at its 'orthogonal'
    assert f"ruleset.yaml:{line}:38:" in message.splitlines()[0]


# ---------------------------------------------------------------- free values: `_` and `$NAME`

SQUARE = Shape("square", "template", cells=((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)), rotate=True, mirror=True)


def test_a_variable_asks_for_one_value_whichever(game: engine.Game) -> None:
    s = board_with(game, ["A A B C", "A A B B", ". . C B"])
    assert matches(game, s, SQUARE, ("$x",) * 4) == ["0,0 1,0 1,1 0,1"]  # the As; the Bs make no square
    assert matches(game, s, SQUARE, ("$x", "$x", "$y", "$y")) != []      # two variables may show the same value


def test_any_value_matches_every_piece_but_no_empty_cell(game: engine.Game) -> None:
    s = board_with(game, ["A B A", "C . C"])
    assert matches(game, s, DEFAULT_SHAPE, ("$x", "_", "$x")) == ["0,0 1,0 2,0"]
    assert matches(game, s, DEFAULT_SHAPE, ("_", "_", "_")) == ["0,0 1,0 2,0"]  # row 1 has a hole


def test_free_values_are_never_read_as_another(game: engine.Game) -> None:
    s = board_with(game, ["A A", "A B"])
    assert matches(game, s, SQUARE, ("$x",) * 4, budget=4) == []
    found = matches(game, s, SQUARE, ("A", "$x", "$x", "$x"), budget=1)  # only the fixed A may be the B read as A
    assert len(found) == 1 and found[0].startswith("1,1 ") and found[0].endswith(" with 1,1 as A")


def test_a_chain_keeps_its_variables_along_the_path(game: engine.Game) -> None:
    chain = Shape("chain", "chain", directions=((1, 0), (-1, 0), (0, 1), (0, -1)))
    s = board_with(game, ["A B", "C A"])
    assert matches(game, s, chain, ("$x", "_", "$x")) == ["0,0 0,1 1,1", "0,0 1,0 1,1"]  # each also read backwards: one match
    assert matches(game, s, chain, ("$x", "$x")) == []
