"""Patterns on a board (engine/blocks/shapes.py, pattern_finding.py, patterns.py), fixed boards with stacks, and swapping places — on a tiny game;
the pattern functions any code may call (pattern_found, pattern_count, pattern_pieces) and docs/examples/hex-triads."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import engine
from engine.blocks.pattern_finding import _search, find, lies_on, Board
from engine.blocks.shapes import DEFAULT_SHAPE, Match, Shape
from engine.core.errors import EffectRuntimeError

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


# ------------------------------------------------------------------ the search against every place, one by one

SHAPES = (DEFAULT_SHAPE, Shape("one way", "line", directions=((1, 0), (0, 1)), either_end=False), SQUARE,
          Shape("hook", "template", cells=((1, 0, 0), (0, 0, 0), (0, 1, 0)), rotate=True, mirror=True),
          Shape("side", "template", cells=((0, 0, 0), (0, 0, 1), (1, 0, 0)), rotate=True),
          Shape("under", "template", cells=((0, 0, 1), (0, 0, 0), (0, 1, 0)), rotate=True, mirror=True),
          Shape("tower", "stack"))


def every_match(s: engine.State, read: Any, shape: Shape, values: tuple[str, ...], budget: int) -> list[Match]:
    """The matches found the slow way: every layout from every base near the board, every place read from the state."""
    found: dict[frozenset[Any], Match] = {}
    for layout in shape.layouts(len(values)):
        for bx in range(-4, 9):
            for by in range(-4, 9):
                places = tuple(((bx + dx, by + dy), depth) for dx, dy, depth in layout)
                stacks = [s.stack(cell) for cell, _ in places]
                if any((pieces or not (0 <= cell[0] < 5 and 0 <= cell[1] < 5)) if want == "." else depth >= len(pieces)
                       for (cell, depth), pieces, want in zip(places, stacks, values)):  # '.': an empty cell of the board
                    continue
                shown = [read(pieces[depth]) if want != "." else "." for (_, depth), pieces, want in zip(places, stacks, values)]
                bound: dict[str, str] = {}
                if any(bound.setdefault(w, v) != v for w, v in zip(values, shown) if w.startswith("$")):
                    continue
                recolour = tuple(i for i, (w, v) in enumerate(zip(values, shown)) if w != "_" and not w.startswith("$") and w != v)
                if len(recolour) <= budget:
                    found.setdefault(frozenset(zip(places, values)), Match(places, recolour))
    return sorted(found.values(), key=lambda m: m.places)


@given(cells=st.lists(st.sampled_from(["", "", "", "A", "B", "C", "AB", "CA", "BCA"]), min_size=16, max_size=16),
       shape=st.sampled_from(SHAPES), values=st.lists(st.sampled_from("AABBC_.") | st.sampled_from(["$x", "$y"]),
                                                      min_size=2, max_size=4), budget=st.integers(0, 3))
def test_the_search_finds_what_reading_every_place_finds(game: engine.Game, cells: list[str], shape: Shape,
                                                         values: list[str], budget: int) -> None:
    """The windows of a board (read once per layout, each layout from the one a place shorter) miss no match and add none;
    whether there is one, walked out from the pieces (flat shapes, a window given up at its first step or second
    piece when they cannot fit), is the same answer; a board read from an attribute's table is the same board.  A
    pattern asking for empty squares ('.') finds them on the board only, never off its edge."""
    assume(all("".join(cells).count(hue) <= 6 for hue in "ABC"))
    if shape.kind == "template":
        values = (values * 3)[:len(shape.cells)]
    if shape.windowed or set(values) == {"."}:  # an empty square ('.') is asked for in flat shapes, beside a piece
        values = [value if value != "." else "A" for value in values]
    s = board_with(game, [" ".join(cell or "." for cell in cells[row * 4:row * 4 + 4]) for row in range(4)])
    table = game.attributes["hue"]
    read = lambda c: table[0][c]  # noqa: E731
    board = Board(s, read)
    expected = every_match(s, read, shape, tuple(values), budget)
    assert find(board, shape, tuple(values), budget) == expected
    assert lies_on(board, shape, tuple(values), budget) == bool(expected)
    by_table = Board(s, read, table=table)  # the top pieces read from the attribute's table, as casting reads them
    assert (by_table.top, by_table.by_value) == (board.top, board.by_value)
    assert find(by_table, shape, tuple(values), budget) == expected


def every_chain(s: engine.State, read: Any, shape: Shape, values: tuple[str, ...], budget: int) -> list[Match]:
    """A chain's matches found the slow way: every path of adjacent top pieces, no cell twice, read value by value."""
    top = {cell: read(cid) for cell, cid in s.grid.items()}
    paths = [(cell,) for cell in top]
    for _ in values[1:]:
        paths = [(*path, (path[-1][0] + dx, path[-1][1] + dy)) for path in paths for dx, dy in shape.directions
                 if (path[-1][0] + dx, path[-1][1] + dy) in top and (path[-1][0] + dx, path[-1][1] + dy) not in path]
    found: dict[frozenset[Any], Match] = {}
    for path in paths:
        shown = [top[cell] for cell in path]
        bound: dict[str, str] = {}
        if any(bound.setdefault(w, v) != v for w, v in zip(values, shown) if w.startswith("$")):
            continue
        recolour = tuple(i for i, (w, v) in enumerate(zip(values, shown)) if w != "_" and not w.startswith("$") and w != v)
        if len(recolour) <= budget:
            places = tuple((cell, 0) for cell in path)
            found.setdefault(frozenset(zip(places, values)), Match(places, recolour))
    return sorted(found.values(), key=lambda m: m.places)


@given(cells=st.lists(st.sampled_from(["", "", "A", "B", "C"]), min_size=16, max_size=16),
       values=st.lists(st.sampled_from("AABBC_") | st.sampled_from(["$x", "$y"]), min_size=1, max_size=4),
       budget=st.integers(0, 2))
def test_a_chain_search_finds_what_reading_every_path_finds(game: engine.Game, cells: list[str], values: list[str],
                                                            budget: int) -> None:
    """A chain is searched depth-first, a piece that cannot fit given up before the path goes on: every path of
    adjacent pieces read value by value gives the same matches."""
    assume(all(cells.count(hue) <= 6 for hue in "ABC"))
    chain = Shape("chain", "chain", directions=((1, 0), (-1, 0), (0, 1), (0, -1)))
    s = board_with(game, [" ".join(cell or "." for cell in cells[row * 4:row * 4 + 4]) for row in range(4)])
    table = game.attributes["hue"]
    read = lambda c: table[0][c]  # noqa: E731
    expected = every_chain(s, read, chain, tuple(values), budget)
    assert find(Board(s, read), chain, tuple(values), budget) == expected
    assert lies_on(Board(s, read), chain, tuple(values), budget) == bool(expected)


# ------------------------------------------------------------------ patterns in any code: pattern_found, _count, _pieces

SHAPED = GAME + """
shapes:
  corner: {kind: template, cells: [[0, 0], [1, 0], [0, 1]], rotate: true}
"""


def load_text(tmp_path: Path, text: str) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    return engine.load(path)


def holds(game: engine.Game, s: engine.State, condition: str) -> bool:
    return bool(game.compile_condition(condition).test(s))


@pytest.fixture(scope="module")
def shaped(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    return load_text(tmp_path_factory.mktemp("shaped"), SHAPED)


def test_pattern_functions_find_fixed_values_any_value_and_one_value_on_a_square_board(shaped: engine.Game) -> None:
    s = board_with(shaped, ["A A B . .", "A C . . .", ". . . . .", "B B B . .", ". . . . ."])
    hue = "d.hue for d in board"
    assert holds(shaped, s, f'pattern_found("corner", {hue}, [A, A, A])')          # 0,0 1,0 0,1
    assert holds(shaped, s, f'pattern_found("corner", {hue}, ["$x", "$x", "$x"])')  # one value, whichever
    assert holds(shaped, s, f'pattern_found("corner", {hue}, [A, "_", "_"])')       # A, then any two pieces
    assert not holds(shaped, s, f'pattern_found("corner", {hue}, [B, B, B])')     # the Bs lie in a line
    assert holds(shaped, s, f'pattern_found("corner", {hue}, [C, "$x", "$x"])')     # 1,1 0,1 1,0: turned a half
    assert not holds(shaped, s, f'pattern_found("corner", {hue}, [A, "$x", "$x"], at = (2, 0))')  # 1,0 2,0 1,1: B, C
    assert holds(shaped, s, f'pattern_found("line", {hue}, ["$x", "$x", "$x"])')    # the Bs
    assert holds(shaped, s, f'pattern_found("line", {hue}, [A, C, "_"]) == false')  # 0,0 1,1 2,2: 2,2 is empty
    assert holds(shaped, s, f'pattern_count("line", {hue}, ["$x", "$x", "$x"]) == 1')  # read from either end: once
    assert holds(shaped, s, f'pattern_count("corner", {hue}, [A, "_", "_"]) == 4')   # the corner cell an A: 0,0, 0,1, 1,0 twice
    assert holds(shaped, s, 'pattern_found("corner", d in board)')                    # a template needs no pattern
    assert not holds(shaped, s, 'pattern_found("corner", d in board where d.hue == B)')  # only the Bs are read
    assert holds(shaped, s, f'count(pattern_pieces("line", {hue}, [B, B, B])) == 3')
    assert holds(shaped, s, f'all(p.hue == B for p in pattern_pieces("line", {hue}, ["$x", "$x", "$x"]))')
    assert holds(shaped, s, f'pattern_found("corner", {hue}, [A, A, A], at = (0, 1))')
    assert not holds(shaped, s, f'pattern_found("corner", {hue}, [A, A, A], at = (2, 0))')
    assert holds(shaped, s, f'pattern_count("corner", {hue}, ["$x", "$x", "$x"], at = (4, 4)) == 0')


def test_pattern_functions_read_a_growing_board(tmp_path: Path) -> None:
    growing = load_text(tmp_path, SHAPED.replace("board: {width: 5, height: 5, adjacency: all, stacking: true}",
                                                 "board: {kind: square-grid, max_width: 4, max_height: 4, adjacency: all}")
                       .replace("place: {from: pool, touching: false}", "place: {from: pool}"))
    assert growing.grid is not None and not growing.grid.fixed
    s = growing.new_state(players=2)
    pool = s.zones[growing.zone_index[("pool", None)]]
    for cell, hue in {(0, 0): "c", (-1, 1): "c", (-2, 2): "c", (1, -1): "a"}.items():
        s.place(next(c for c in pool if growing.piece_names[c] == hue), cell)
    assert holds(growing, s, 'pattern_found("line", d.hue for d in board, ["$x", "$x", "$x"])')  # a diagonal, at -2,2
    assert not holds(growing, s, 'pattern_found("corner", d.hue for d in board, [C, A, "_"])')  # 1,-1 touches 0,0
    assert not holds(growing, s, 'pattern_found("corner", d.hue for d in board, [A, C, "_"])')  # only at a corner
    assert holds(growing, s, 'pattern_found("line", d.hue for d in board, [A, C, C])')  # 1,-1 0,0 -1,1: diagonal too


HEX_SHAPED = HEX_GAME + """
functions:
  triad(hue h): pattern_found("triangle", d.hue for d in board, [h, h, h])
"""


def test_pattern_functions_turn_a_hex_template_in_sixths(tmp_path: Path) -> None:
    """The functions read the shapes in the board's geometry, as ``cast`` does: six triangles meet at 0,0, and a
    square board's corner is no triangle on hexes; a ruleset's own function may call them."""
    game = load_text(tmp_path, HEX_SHAPED)
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    for a, b in zip(ring, ring[1:] + ring[:1]):
        s = hex_board_with(game, {(0, 0): "A", a: "A", b: "A"})
        assert holds(game, s, "triad(A) and not triad(B)"), (a, b)
        assert holds(game, s, 'pattern_found("triangle", d.hue for d in board, ["$x", "$x", "$x"], at = (0, 0))')
        assert holds(game, s, 'pattern_count("triangle", d in board) == 1'), (a, b)  # one place, whichever turn found it
    corner = hex_board_with(game, {(0, 0): "A", (1, 0): "A", (1, 1): "A"})  # (0,0) and (1,1) are no hex neighbours
    assert not holds(game, corner, 'pattern_found("triangle", d in board)')
    assert holds(game, corner, 'pattern_found("line", d.hue for d in board, [A, A])')
    assert not holds(game, corner, 'pattern_found("line", d.hue for d in board, ["$x", "_", "$x"])')  # no straight three
    line = hex_board_with(game, {(0, 0): "A", (1, -1): "B", (2, -2): "A"})  # a line along the third hex axis
    assert holds(game, line, 'pattern_found("line", d.hue for d in board, ["$x", "_", "$x"])')
    assert holds(game, line, 'pattern_found("line", d.hue for d in board, ["$x", "$x", "_"]) == false')


def test_pattern_functions_find_what_the_cast_search_finds(tmp_path: Path) -> None:
    """One search: the pieces pattern_pieces() gives are those of :func:`find`'s matches on the same board."""
    game = load_text(tmp_path, HEX_SHAPED)
    s = hex_board_with(game, {(0, 0): "A", (1, 0): "B", (0, 1): "A", (-1, 1): "A", (1, -1): "A", (2, -1): "C"})
    table = game.attributes["hue"]
    found = find(Board(s, lambda c: table[0][c]), game.parts["patterns"]["triangle"], ("$x", "_", "$x"))
    cells = {cell for m in found for cell, _ in m.places}
    assert holds(game, s, f'pattern_count("triangle", d.hue for d in board, ["$x", "_", "$x"]) == {len({frozenset(m.places) for m in found})}')
    assert holds(game, s, f'count(pattern_pieces("triangle", d.hue for d in board, ["$x", "_", "$x"])) == {len(cells)}')


@pytest.mark.parametrize("code, message", [
    ('pattern_found("triangel", d in board)', "unknown shape 'triangel' (did you mean 'triangle'?)"),
    ("pattern_found(triangle, d in board)", 'pattern_found() needs a shape\'s name in quotes first (shapes: "line", "triangle", "snake")'),
    ('pattern_found("triangle", d.hue for d in board, [A, A])', "the pattern lists 2 values, but shape 'triangle' has 3 cells"),
    ('pattern_found("line", d.hue for d in board, [])', "the pattern lists no values: a pattern needs one for each place"),
    ('pattern_found("snake", d in board)', "a chain has no length of its own: give pattern_found() the values to find"),
    ('pattern_found("line", d.hue for d in board, [A, "$two words"])', "'$two words' is not a pattern variable"),
    ('pattern_found("line", d.hue for d in board, [A, 1])', "a value pattern_found() finds must be a hue, but '1' is an int"),
    ('pattern_found("line", d.hue for d in board, [A, A], near = (0, 0))', "pattern_found() has no option 'near'"),
    ('pattern_found("snake", d.hue for d in board, [A, "."])', "the pattern asks for an empty square ('.'), which only a "
     "line or a template of top pieces can hold, not the chain 'snake'"),
    ('pattern_found("line", d.hue for d in board, [".", "."])', "the pattern lists only empty squares ('.')"),
])
def test_a_pattern_function_s_mistakes_are_refused_at_their_place(tmp_path: Path, code: str, message: str) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(HEX_GAME.replace("end: {when: count(d in pool) == 0}", f"end: {{when: 'count(d in pool) == 0 or {code}'}}"))
    with pytest.raises(engine.RulesetError) as raised:
        engine.load(path)
    first = raised.value.diagnostics[0]
    assert message in first.headline()
    line = HEX_GAME.splitlines().index("end: {when: count(d in pool) == 0}") + 1
    assert f"ruleset.yaml:{line}:" in first.headline()


def test_a_pattern_asks_for_an_empty_square_with_a_dot(shaped: engine.Game) -> None:
    """'.' is a square of the board with no piece: not off its edge, and not a piece the selection leaves out."""
    s = board_with(shaped, ["A . A . .", "B . . . .", "C A . . .", ". . . . .", ". . . . ."])
    hue = "d.hue for d in board"
    assert holds(shaped, s, f'pattern_found("line", {hue}, [A, ".", A])')                 # 0,0 1,0 2,0
    assert holds(shaped, s, f'pattern_count("line", {hue}, ["$x", ".", "$x"]) == 1')      # the same, read both ways: once
    assert holds(shaped, s, f'pattern_found("corner", {hue}, [B, ".", C])')              # 0,1 1,1 0,2
    assert holds(shaped, s, f'pattern_found("corner", {hue}, [C, A, "."])')              # 0,2 1,2 0,3
    assert not holds(shaped, s, f'pattern_found("corner", {hue}, [C, B, "."])')          # 0,2 0,1 1,2: 1,2 holds an A
    assert holds(shaped, s, 'count(pattern_pieces("line", d.hue for d in board, [A, ".", A])) == 2')  # no piece for '.'
    assert not holds(shaped, s, f'pattern_found("line", {hue}, [".", C, A])')            # -1,2 is off the board
    # beside the As: 2 squares (0,0), 5 (2,0) and 6 (1,2) without a piece; the B and the C are pieces, selected or not
    assert holds(shaped, s, 'pattern_count("line", d.hue for d in board where d.hue == A, [A, "."]) == 13')


def test_pattern_count_at_a_cell_counts_every_place_through_it_overlapping_ones_each(hex_game: engine.Game) -> None:
    # a row of five: the middle stone lies in three lines of three, the one beside it in two, an end in one;
    # the pieces of those places are the five stones, once each (docs/effects.md, pattern_count)
    s = hex_board_with(hex_game, {(x, 0): "A" for x in range(-2, 3)})
    count = 'pattern_count("line", d.hue for d in board, [A, A, A], at = ({x}, 0)) == {n}'
    assert all(holds(hex_game, s, count.format(x=x, n=n)) for x, n in ((0, 3), (1, 2), (2, 1), (-2, 1)))
    assert holds(hex_game, s, 'count(pattern_pieces("line", d.hue for d in board, [A, A, A], at = (0, 0))) == 5')
    assert holds(hex_game, s, 'pattern_count("line", d.hue for d in board, [A, A, A, A, A], at = (0, 0)) == 1')


LET_PATTERN = HEX_GAME.replace("  - place: {from: pool, touching: false}\n", """\
  - place:
      from: pool
      touching: false
      then: |
        let wanted = PATTERN
        let n = pattern_count("SHAPE", d.hue for d in board, wanted)
""")
"""Each placement counts a pattern kept in a variable: its length is known only when the code runs."""


@pytest.mark.parametrize("shape, pattern, message", [
    ("triangle", "[A, A, A, A]", "pattern_count(): the pattern wanted lists 4 values, but shape 'triangle' has 3 cells"),
    ("line", "[]", "pattern_count(): the pattern wanted lists no values: a pattern needs one for each place of the "
                   "shape 'line'"),
    ("triangle", "if true then none else [A, A, A]", "pattern_count(): the pattern wanted is none, not a list of values"),
])
def test_a_pattern_of_the_wrong_length_in_a_variable_is_an_error_at_the_call(tmp_path: Path, shape: str, pattern: str,
                                                                            message: str) -> None:
    # a written list of the wrong length is refused when the ruleset loads; one read when the code runs stops it there
    text = LET_PATTERN.replace("PATTERN", pattern).replace("SHAPE", shape)
    game = load_text(tmp_path, text)
    s = game.new_state(players=2)
    with pytest.raises(EffectRuntimeError) as raised:
        s.apply(next(iter(s.legal_actions())))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "let n = " in row)
    col = text.splitlines()[line - 1].index("pattern_count(") + 1
    assert str(raised.value) == f"{tmp_path / 'ruleset.yaml'}:{line}:{col}: {message}"


def test_the_pattern_functions_come_with_a_shapes_section(game: engine.Game) -> None:
    with pytest.raises(engine.RulesetError) as raised:
        game.compile_condition('pattern_found("line", d in board, [a, a])')
    assert "pattern_found() comes with the patterns block: it needs a 'shapes:' section in the ruleset" in str(raised.value)


def test_validate_names_an_unknown_shape_where_the_example_writes_it(tmp_path: Path) -> None:
    """docs/examples/hex-triads with its triangle misspelt in the place step's code: file:line:col and a suggestion."""
    from engine.runner.validate import validate_path

    source = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hex-triads" / "ruleset.yaml"
    text = source.read_text(encoding="utf-8").replace('pattern_pieces("triangle"', 'pattern_pieces("triangel"')
    (tmp_path / "ruleset.yaml").write_text(text)
    problems = validate_path(str(tmp_path))
    assert len(problems) == 1
    line = next(i for i, row in enumerate(text.splitlines(), 1) if '"triangel"' in row)
    col = text.splitlines()[line - 1].index('"triangel"') + 1
    assert problems[0].headline() == f"{tmp_path / 'ruleset.yaml'}:{line}:{col}: unknown shape 'triangel' (did you mean 'triangle'?)"


def test_the_hex_triads_example_plays_to_its_end_and_keeps_its_invariants() -> None:
    """50 random games end (by the stones or by four of one colour in a line), and no triangle of one colour stays."""
    from engine.runner.simulate import simulate

    folder = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hex-triads"
    game = engine.load(folder)
    report = simulate(game, players=2, n=50, seed=1, agents="random")
    assert report.games == 50
    lines = game.compile_condition('pattern_found("line", s.colour for s in board, ["$a", "$a", "$a", "$a"])')
    triangles = game.compile_condition('pattern_found("triangle", s.colour for s in board, ["$a", "$a", "$a"])')
    ended_by_a_line = 0
    for seed in range(20):
        s, chooser = game.new_state(players=2, seed=seed), random.Random(seed)
        while not s.is_terminal:
            s.apply(chooser.choice(s.legal_actions()))
            assert not triangles.test(s)
        ended_by_a_line += bool(lines.test(s))
    assert 0 < ended_by_a_line < 20  # some games end on a line of four, the others when the stones run out


def test_a_component_s_pattern_attribute_is_a_pattern_any_code_may_find() -> None:
    """Hex Glyphs' Delta ([$a, $a, $a] in a triangle) read from its list attribute, outside its cast step."""
    game = engine.load("hex-glyphs")
    s = game.new_state(players=2, seed=0)
    greens = (c for c, name in enumerate(game.piece_names) if name == "green" and s.cell_of[c] is None)
    for cid, cell in zip(greens, [(-1, 1), (-2, 1), (-2, 2)]):
        s.place(cid, cell)
    delta = 'first(g in glyphs where g.shape == "triangle")'
    assert holds(game, s, f'pattern_found("triangle", t.colour for t in board, {delta}.pattern)')
    assert holds(game, s, f'count(pattern_pieces("triangle", t.colour for t in board, {delta}.pattern)) == 3')
    assert not holds(game, s, 'pattern_found("triangle", t.colour for t in board, [red, "$a", "$a"])')


def test_whether_a_pattern_lies_reads_each_window_once() -> None:
    """A line read from either end: whether values lie on it reads four of its eight layouts, each both ways (a
    palindrome one way: its layouts read backwards give the same matches, and are not read); a line read one way
    only reads each of its layouts one way."""
    assert [both for _, both, _ in DEFAULT_SHAPE.both_ways(("A", "B", "C"))] == [True] * 4
    assert [both for _, both, _ in DEFAULT_SHAPE.both_ways(("A", "B", "A"))] == [False] * 4
    one_way = SHAPES[1]
    assert [both for _, both, _ in one_way.both_ways(("A", "B", "C"))] == [False] * 2
    assert len(DEFAULT_SHAPE.distinct(("A", "B", "A"))) == 4 and len(DEFAULT_SHAPE.distinct(("A", "B", "B"))) == 8
    assert len(one_way.distinct(("A", "B", "A"))) == 2


@given(cells=st.lists(st.sampled_from(["", "", "A", "B", "C", "AB", "CA"]), min_size=16, max_size=16),
       shape=st.sampled_from([shape for shape in SHAPES]),
       values=st.lists(st.sampled_from("AABBC_") | st.sampled_from(["$x", "$y"]), min_size=1, max_size=4),
       budget=st.integers(0, 3))
def test_a_search_never_finds_a_match_twice(game: engine.Game, cells: list[str], shape: Shape, values: list[str],
                                           budget: int) -> None:
    """The layouts a search reads (Shape.distinct) never give one match twice, so find() needs no merging: the
    others, which put the values on the same places as one before them, would find only what it finds."""
    assume(all("".join(cells).count(hue) <= 6 for hue in "ABC"))
    if shape.kind == "template":
        values = (values * 3)[:len(shape.cells)]
    if shape.windowed or set(values) == {"."}:  # an empty square ('.') is asked for in flat shapes, beside a piece
        values = [value if value != "." else "A" for value in values]
    s = board_with(game, [" ".join(cell or "." for cell in cells[row * 4:row * 4 + 4]) for row in range(4)])
    table = game.attributes["hue"]
    searched = list(_search(Board(s, lambda c: table[0][c]), shape, tuple(values), budget))
    assert len({frozenset(zip(m.places, values)) for m in searched}) == len(searched)
