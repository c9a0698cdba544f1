"""Cells kept by value (engine/core/kept_cells.py): the sets a state keeps equal a fresh scan of the board after
every action, in clones too, for every attribute of every shipped ruleset with a board."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks.bitboard import BitBoard
from engine.core.kept_cells import CellKind, kept_cells
from engine.model.state import State
from tests import text_games
from tests.conftest import shipped_game
from tests.text_games import game_from_text

BOARDS = [name for name in engine.builtin_names() if shipped_game(name).grid is not None]


def kinds(game: engine.Game) -> list[CellKind]:
    """A kind for every attribute of ``game`` whose values can be grouped (hashable), and one telling every
    component's every face apart."""
    found = [CellKind(values) for values in game.attributes.values()
             if all(isinstance(v, Hashable) for row in values for v in row)]
    faces = max(game.face_count)
    every = [[(c, f) for c in range(len(game.component_names))] for f in range(faces)]
    return [*found, CellKind(every)]


def scanned(s: State) -> dict[CellKind, dict[object, set[tuple[int, int]]]]:
    """Every kind the state keeps, worked out again from the board."""
    fresh: dict[CellKind, dict[object, set[tuple[int, int]]]] = {}
    for kind in s.by_value:
        table = fresh[kind] = {}
        for cell, p in s.grid.items():
            table.setdefault(kind.values[s.face[p]][p], set()).add(cell)
    return fresh


def kept(s: State) -> dict[CellKind, dict[object, set[tuple[int, int]]]]:
    """Every kind the state keeps, as sets (the bits of a kind with ``bits`` read back as the cells they stand for)."""
    def cells(kind: CellKind, kept: set[tuple[int, int]] | int) -> set[tuple[int, int]]:
        if kind.bits is None:
            return kept  # type: ignore[return-value]
        return {cell for cell, bit in kind.bits.items() if bit & kept}  # type: ignore[operator]

    return {kind: {v: cells(kind, found) for v, found in table.items() if found} for kind, table in s.by_value.items()}


def play_checked(game: engine.Game, players: int, seed: int, actions: int = 400) -> int:
    """A random game of at most ``actions`` actions, its kept cells checked after each; how many faces changed
    on the board along the way."""
    s = game.new_state(players=players, seed=seed)
    for kind in kinds(game):
        kept_cells(s, kind)
    choose, turned = random.Random(seed), 0
    for _ in range(actions):
        if s.is_terminal:
            break
        before = {cell: s.face[p] for cell, p in s.grid.items()}
        s.play(choose.randrange(len(s.legal_actions())))
        turned += sum(1 for cell, p in s.grid.items() if cell in before and before[cell] != s.face[p])
        assert kept(s) == scanned(s)
    copy = s.clone()
    assert kept(copy) == kept(s)
    assert all(copy.by_value[k][v] is not s.by_value[k][v] for k in s.by_value for v in s.by_value[k] if k.bits is None)
    assert all(copy.by_value[k] is not s.by_value[k] for k in s.by_value)
    return turned


@pytest.mark.parametrize("name", BOARDS)
def test_kept_cells_equal_a_fresh_scan(name: str) -> None:
    game = shipped_game(name)
    for seed in range(2):
        play_checked(game, game.player_counts[0], seed)


def test_a_clone_keeps_its_own_sets() -> None:
    game = shipped_game("othello")
    s = game.new_state(players=2, seed=4)
    kind = CellKind(game.attributes["colour"])
    kept_cells(s, kind)
    copy = s.clone()
    copy.play(0)
    assert kept(s) == scanned(s) and kept(copy) == scanned(copy) and kept(s) != kept(copy)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(0, 10_000), st.data())
def test_flipping_cells_at_once_is_flipping_each(name: str, seed: int, data: st.DataObject) -> None:
    """``flip_cells`` (a bracket's captures) leaves the state, and every kept table, as a flip of each cell's top
    piece in turn does."""
    game = shipped_game(name)
    s = game.new_state(players=game.player_counts[0], seed=seed)
    choose = random.Random(seed)
    for _ in range(choose.randrange(40)):
        if s.is_terminal:
            break
        s.play(choose.randrange(len(s.legal_actions())))
    for kind in kinds(game):
        kept_cells(s, kind)
    cells = data.draw(st.lists(st.sampled_from(sorted(s.grid)), unique=True)) if s.grid else []
    each = s.clone()
    s.flip_cells(cells)
    for cell in cells:
        each.flip(each.grid[cell])
    assert s == each and s.face == each.face and kept(s) == kept(each) == scanned(s)


def test_a_skipped_update_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flip that turns the face without telling the kept cells leaves them stale, and the check says so."""
    def bare_flip(self: State, cid: int) -> None:
        self._actions = None
        self.face[cid] = (self.face[cid] + 1) % self.game.face_count[cid]

    def bare_flip_cells(self: State, cells: list[tuple[int, int]]) -> None:
        for cell in cells:
            bare_flip(self, self.grid[cell])

    import engine
    import engine.compiling.turn_code as turn_code
    monkeypatch.setattr(turn_code, "_flips", lambda game: None)  # the turn through State.flip_cells, not inline
    game = engine.load("othello")
    assert play_checked(game, 2, 0, actions=30)  # bracketed discs turn over
    monkeypatch.setattr(State, "flip", bare_flip)
    monkeypatch.setattr(State, "flip_cells", bare_flip_cells)
    with pytest.raises(AssertionError):
        play_checked(game, 2, 0, actions=30)


RULESET = """
name: sides
players: [3]
types:
  side: [A, B, C]
components:
  stone:
    faces: [up, down, over]
    attributes:
      side: {type: side, per_face: true}
    instances:
      - {id: s, side: [A, B, C], count: 12}
      - {id: t, side: [B, B, A], count: 12}
board: BOARD
roles:
  of: side
  seating: {3: [1, 2, 3]}
turn:
  - place: {from: supply, face: as-is}
end: {when: count(empty_cells) == 0}
scoring:
  rank: r in roles
  by: [count(x in board where x.side == r)]
  points: key
"""

SIDE_BOARDS = {name: text_games.BOARDS[name] for name in ("fixed", "growing", "hex", "stacking")}


def sides_game(board: str) -> engine.Game:
    return game_from_text(RULESET.replace("BOARD", SIDE_BOARDS[board]))


@pytest.mark.parametrize("board", list(SIDE_BOARDS))
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_cells_follow_placements_removals_swaps_and_faces(board: str, seed: int) -> None:
    """Pieces put down (onto others where the board stacks), taken off, swapped, flipped and turned to a face:
    the kept cells equal a scan, and ``count(x in board where x.side == v)`` and ``largest_group(...)`` of the
    same (read from them while nothing is stacked) equal those of the board's pieces."""
    game = sides_game(board)
    cells = game.grid.cells or [(x, y) for x in range(-2, 3) for y in range(-2, 3)]  # type: ignore[union-attr]
    supply = game.zone_index[("supply", None)]
    values = game.attributes["side"]
    s = game.new_state(players=3, seed=1)
    kept_cells(s, CellKind(values))
    if board == "fixed":  # the kept cells as bits too, checked against the scan as well
        kept_cells(s, CellKind(values, bits=BitBoard(game.grid).bits))  # type: ignore[arg-type]
    rng = random.Random(seed)
    for _ in range(60):
        op, a, b, cell = rng.randrange(5), rng.randrange(24), rng.randrange(24), rng.choice(cells)
        if op == 0 and (board == "stacking" or cell not in s.grid):
            s.place(a, cell, rng.randrange(3))
        elif op == 1:
            s.move(a, supply)
        elif op == 2 and a != b:
            s.swap(a, b)
        elif op == 3:
            s.flip(a)
        else:
            s.show(a, rng.randrange(3))
        assert kept(s) == scanned(s)
        on_board = s.zones[game.board_zone]
        for v in "ABC":
            n = sum(1 for c in on_board if values[s.face[c]][c] == v)
            assert game.compile_condition(f"count(x in board where x.side == {v}) == {n}").test(s)
            group = game.grid.largest_group({s.cell_of[c] for c in on_board if values[s.face[c]][c] == v})  # type: ignore[union-attr]
            assert game.compile_condition(f"largest_group(x in board where x.side == {v}) == {group}").test(s)
    assert kept(s.clone()) == kept(s)
