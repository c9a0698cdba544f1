"""The board's frontier and box, kept only once asked (engine/model/board_views.py): a state that first reads them at
any moment of a random game, or never before its end, finds what one reading them from the start keeps, in the
same order, and both equal a fresh scan of the board, after every action of random games of every shipped
ruleset with a board (placements, removals, stacks), in clones too; the moves noted once a piece left a board
nobody asked about replay into the same frontier (engine/core/kept_frontier.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.kept_frontier import LOGGED, FrontierLog, frontier_of
from engine.model.board_views import UNKNOWN, box
from engine.model.state import State
from tests.conftest import shipped_game, twin_games

BOARDS = [name for name in engine.builtin_names() if shipped_game(name).grid is not None]
FIXED = [name for name in BOARDS if shipped_game(name).grid.fixed]


def scanned(s: State) -> set[tuple[int, int]]:
    """The empty cells next to a piece, worked out again from the board."""
    around = s.game.grid.neighbours
    return {n for cell in s.grid for n in around(cell) if n not in s.grid}


def play_both(game: engine.Game, seed: int, asks: set[int], actions: int = 250) -> tuple[State, State]:
    """The same random game twice: one state reads the frontier and box from the start and is checked after each
    action, the other reads them only after the actions numbered in ``asks`` (and is cloned unread on the way)."""
    for i, pair in twin_games(game, seed, actions):
        always, lazy = pair
        if i < 0:
            always.frontier, always.bbox
            continue
        assert set(always.frontier) == scanned(always) and always.bbox == box(always.grid)
        if i in asks:
            assert list(lazy.frontier) == list(always.frontier) and lazy.bbox == always.bbox
        elif i % 7 == 3:
            pair[1] = lazy.clone()
    always, lazy = pair
    return always, lazy


@pytest.mark.parametrize("name", BOARDS)
def test_a_frontier_first_read_late_is_the_kept_one(name: str) -> None:
    for seed in range(2):
        always, lazy = play_both(shipped_game(name), seed, asks=set())
        assert list(lazy.frontier) == list(always.frontier) and lazy.bbox == always.bbox
        copy = always.clone()
        assert list(copy.frontier) == list(always.frontier) and copy.frontier is not always.frontier


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(BOARDS), seed=st.integers(0, 10_000), asks=st.sets(st.integers(0, 120), max_size=4))
def test_a_frontier_read_at_any_moment_is_the_kept_one(name: str, seed: int, asks: set[int]) -> None:
    play_both(shipped_game(name), seed, asks, actions=120)


def test_a_fixed_board_keeps_neither_until_asked() -> None:
    """Nothing is kept per move on a board with fixed edges nobody asked about (a growing one keeps them)."""
    game = shipped_game(FIXED[0])
    s = State(game, game.player_counts[0])
    first, second = game.grid.cells[:2]
    s.place(0, first)
    assert s._frontier is None and s._box is UNKNOWN
    assert list(s.frontier) == list(frontier_of(s.grid, game.grid.neighbours)) and s.bbox == box(s.grid)
    s.place(1, second)
    assert s._frontier is not None and list(s.frontier) == list(frontier_of(s.grid, game.grid.neighbours))
    assert s._box == box(s.grid)


def test_a_piece_leaving_an_unread_board_notes_the_moves_until_the_frontier_is_read() -> None:
    """Once a piece leaves a board whose frontier nobody read, the moves are noted (engine/core/kept_frontier.py),
    not kept one by one; the first read replays them into the frontier a state reading it all along keeps."""
    game = shipped_game(FIXED[0])
    lazy, always = State(game, game.player_counts[0]), State(game, game.player_counts[0])
    always.frontier
    cells = game.grid.cells
    for s in (lazy, always):
        for cid, cell in enumerate(cells[:3]):
            s.place(cid, cell)
        s.move(1, 0)  # off the board
        s.place(1, cells[5])
    assert isinstance(lazy._frontier, FrontierLog) and len(lazy._frontier) == 2
    copy = lazy.clone()
    assert list(copy.frontier) == list(always.frontier) and isinstance(lazy._frontier, FrontierLog)
    assert list(lazy.frontier) == list(always.frontier) and not isinstance(lazy._frontier, FrontierLog)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=1, max_size=LOGGED + 40))
def test_a_log_replays_what_keeping_the_frontier_at_every_move_makes(picks: list[int]) -> None:
    """Random moves on a dozen cells of a board (a cell filled when empty, else emptied): the log's replay, and a
    state's frontier past a full log, are the frontier kept move by move."""
    game = shipped_game(FIXED[0])
    cells = [game.grid.cells[i] for i in picks]
    lazy, always = State(game, game.player_counts[0]), State(game, game.player_counts[0])
    always.frontier
    on: dict[tuple[int, int], int] = {}
    free = list(range(len(game.component_names)))
    for cell in cells:
        for s in (lazy, always):
            if cell in on:
                s.move(on[cell], 0)
            else:
                s.place(free[0], cell)
        if cell in on:
            free.insert(0, on.pop(cell))
        else:
            on[cell] = free.pop(0)
        if isinstance(lazy._frontier, FrontierLog):
            assert list(lazy._frontier.copy().replay(game.grid.neighbours)) == list(always.frontier)
    assert list(lazy.frontier) == list(always.frontier)


def test_a_full_log_is_replayed_and_kept() -> None:
    """A clone never copies more than LOGGED moves: past them the state keeps the frontier itself."""
    game = shipped_game(FIXED[0])
    lazy, always = State(game, game.player_counts[0]), State(game, game.player_counts[0])
    always.frontier
    first, second = game.grid.cells[:2]
    for s in (lazy, always):
        s.place(0, first)
        for _ in range(LOGGED // 2 + 1):
            s.place(1, second)
            s.move(1, 0)
    assert isinstance(lazy._frontier, dict) and list(lazy._frontier) == list(always.frontier)


@pytest.mark.parametrize("name", FIXED)
def test_an_effect_placing_on_a_fixed_board_does_not_ask_for_the_box(name: str) -> None:
    """``place()`` in an effect (a setup's opening pieces, say) checks a fixed board's cell without reading the box,
    so a board nobody asks about keeps none, and pays nothing for it at every move."""
    game = shipped_game(name)
    s = game.new_state(players=game.player_counts[0], seed=1)
    assert s._box is UNKNOWN
    assert s.bbox == box(s.grid)
