"""largest_group on every board shape: the size of the largest connected group of cells, read through a board's
memo of neighbours (``known``) where it has one, equals a plain flood fill calling ``neighbours`` for every cell."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blocks.grid import SquareGrid, largest_group
from engine.blocks.hexgrid import HexGrid

BOARDS = [SquareGrid(), SquareGrid(adjacency="all"), SquareGrid(width=4, height=3), HexGrid(radius=2)]


def flood(cells: set[tuple[int, int]], board: SquareGrid | HexGrid) -> int:
    """The largest group, by a flood fill from every cell."""
    best = 0
    for start in cells:
        seen, todo = {start}, [start]
        while todo:
            for n in board.neighbours(todo.pop()):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        best = max(best, len(seen))
    return best


@settings(max_examples=150, deadline=None)
@given(board=st.sampled_from(range(len(BOARDS))),
       cells=st.sets(st.tuples(st.integers(-3, 4), st.integers(-3, 4)), max_size=20))
def test_largest_group_is_a_flood_fills(board: int, cells: set[tuple[int, int]]) -> None:
    grid = BOARDS[board]
    on = {c for c in cells if grid.contains(c)} if isinstance(grid, SquareGrid) else {c for c in cells if c in grid._around}
    assert grid.largest_group(on) == flood(on, grid) == largest_group(on, grid.neighbours)


def test_group_of_is_the_selected_pieces_connected_to_a_piece() -> None:
    """``group_of(PIECE, SELECTION)`` on tic-tac-toe's board (8 neighbours): X's diagonal pair is one group, O's
    lone mark another; a piece outside the selection, or no piece, is connected to nothing."""
    import engine

    game = engine.load("tic-tac-toe")
    s = game.new_state(2)
    for move in ("place X at 0,0", "place O at 2,0", "place X at 1,1", "place O at 0,2"):
        s.apply(move)

    def holds(text: str) -> bool:
        return game.compile_condition(text).test(s)

    assert holds("count(group_of(at(0, 0), t in board where t.mark == X)) == 2")
    assert holds("all(t.mark == X for t in group_of(at(1, 1), t in board where t.mark == X))")
    assert holds("count(group_of(at(2, 0), t in board where t.mark == O)) == 1")  # 0,2 does not touch it
    assert holds("count(group_of(at(2, 0), t in board where t.mark == X)) == 0")
    assert holds("count(group_of(at(2, 2), t in board)) == 0")  # an empty cell: none
    assert holds("count(group_of(at(1, 1), t in board)) == 4")  # through 1,1 every mark touches


def test_neighbours_are_the_cells_touching_a_cell_under_the_boards_adjacency() -> None:
    """``neighbours(CELL)``: on tic-tac-toe's 3x3 board (8 neighbours) only the cells on it; on the card game's growing
    grid (orthogonal) every adjacent cell; on the board game's hexagon the six around the middle."""
    import engine

    def holds(name: str, players: int, text: str) -> bool:
        game = engine.load(name)
        return game.compile_condition(text).test(game.new_state(players, seed=0))

    assert holds("tic-tac-toe", 2, "count(neighbours((0, 0))) == 3 and "
                                   "all(n in neighbours((0, 0)) for n in [(1, 0), (0, 1), (1, 1)])")
    assert holds("tic-tac-toe", 2, "count(neighbours((1, 1))) == 8 and count(neighbours((5, 5))) == 0")
    assert holds("tic-tac-toe", 2, "all(n.x >= 0 and n.y >= 0 for n in neighbours((0, 0)))")
    assert holds("iconoclasm-cards", 2, "count(neighbours((-7, 3))) == 4 and (-7, 4) in neighbours((-7, 3))")
    assert holds("iconoclasm", 2, "count(neighbours((0, 0))) == 6 and (1, -1) in neighbours((0, 0))")
    assert holds("tic-tac-toe", 2, "count(n in neighbours((1, 1)) where at(n) == none) == 8")
