"""The shortcuts of the groups and placement code agree with the long way round, in random games.

A placement step that finds no group to form and no clash stores no work; ``completing`` (a piece not put down)
finds what ``candidates`` finds with the piece put down; the board's box, kept or worked out when asked, is the box
of the pieces on it; ``count(empty_cells)``, worked out without listing them, is how many ``empty_cells`` lists.
"""

from __future__ import annotations

import random

import pytest

from engine.blocks.groups import FormGroups, GroupWork
from engine.compiling.vocabulary import _empty_cells
from engine.model.board_views import UNKNOWN, box
from engine.model.state import State
from tests.conftest import shipped_game


def random_states(name: str, players: int, games: int) -> list[State]:
    """Every position of a few random games, in order (copies)."""
    game, states = shipped_game(name), []
    for seed in range(games):
        s = game.new_state(players=players, seed=seed)
        choose = random.Random(seed)
        while not s.is_terminal:
            s.play(choose.randrange(len(s.legal_actions())))
            states.append(s.clone())
    return states


def groups_step(s: State) -> FormGroups:
    return next(step for step in s.game.steps if isinstance(step, FormGroups))


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("iconoclasm", 2)])
def test_completing_is_candidates_with_the_piece_put_down(name: str, players: int) -> None:
    checked = 0
    for s in random_states(name, players, games=3)[::3]:
        step, piece = groups_step(s), s.zones[0][0] if s.zones[0] else 0
        for cell in s.frontier:
            s.grid[cell] = piece
            expected = step.candidates(s, (cell,))
            del s.grid[cell]
            assert step.completing(s, cell) == expected
            checked += bool(expected)
    assert checked  # some cells complete a group


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("iconoclasm", 5)])
def test_the_work_of_groups_is_kept_only_while_a_choice_waits(name: str, players: int) -> None:
    for s in random_states(name, players, games=3):
        waiting = not s.is_terminal and s.game.steps[s.step] is groups_step(s)
        assert (GroupWork.block in s.slices) == waiting


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("banner-clash", 2), ("othello", 2)])
def test_the_box_is_the_box_of_the_pieces(name: str, players: int) -> None:
    unknown = 0
    for s in random_states(name, players, games=3):
        unknown += s._box is UNKNOWN
        assert s._box is UNKNOWN or s._box == box(s.grid)
        assert s.bbox == box(s.grid) and s._box == box(s.grid)
    assert unknown or name != "iconoclasm"  # pieces leave the board's edge there


@pytest.mark.parametrize("name, players", [("connect-four", 2), ("othello", 2), ("tic-tac-toe", 2), ("breakthrough", 2),
                                           ("iconoclasm", 4), ("hex-glyphs", 2)])
def test_the_count_of_empty_cells_is_the_length_of_their_list(name: str, players: int) -> None:
    states = random_states(name, players, games=2)
    game = states[0].game
    counts = {n: game.compile_condition(f"count(empty_cells) == {n}") for n in {len(_empty_cells(s, [])) for s in states}}
    for s in states:
        n = len(_empty_cells(s, []))
        assert counts[n].test(s), (n, s.grid)


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("iconoclasm", 3), ("banner-clash", 2)])
def test_what_the_groups_step_remembers_is_what_it_would_work_out(name: str, players: int) -> None:
    """Verdicts remembered by the weights of the values shown (which values, how often), the cells a reform gives up
    first, the groups overlapping a group and whether a piece on a cell wins a group are what the long way finds, in
    every position of random games (kept without a log)."""
    from engine.blocks.hexgrid import leftmost_key

    checked = 0
    for s in random_states(name, players, games=3)[::2]:
        step = groups_step(s)
        dist = s.game.grid.distance
        for anchor in {a for cell in s.grid for a in step.anchors(cell)}:
            cells = step.members(anchor)
            assert [a for a, group in step.overlapping(anchor) if s.grid.keys() >= group and s.members.keys().isdisjoint(group)] \
                == step.candidates(s, cells)
            if all(c in s.grid for c in cells):
                counts = step.counts(s, (anchor,))
                remembered, worked_out = step.verdict(s, anchor), step.table.decide(counts)
                assert (remembered.winner, remembered.totals, remembered.decided_by) == \
                    (worked_out.winner, worked_out.totals, worked_out.decided_by)
                for cell in cells:
                    rest = step._weight_without(s, anchor, cell)
                    for value in step.through:
                        more = step._counts_without(s, anchor, cell)
                        more[value] = more.get(value, 0) + 1
                        assert step._wins_with(s, anchor, cell, rest, value) == (step.table.decide(more).winner is not None)
                checked += 1
        for a in s.groups:
            for b in s.groups:
                if a != b:
                    value = step.marker_value(s, a)
                    own = [c for c in step.members(a) if step.value(s, c) == value]
                    first = min(own, key=lambda c: (c == a, dist(c, b), -leftmost_key(c, b, a)), default=None)
                    assert next((c for c in step.nearest(a, b) if step.value(s, c) == value), None) == first
                    for among in (None, (value, step.marker_value(s, b))):
                        remembered, worked_out = step.clash_verdict(s, a, b, among), step.table.decide(step.counts(s, (a, b)), among)
                        assert (remembered.winner, remembered.totals, remembered.decided_by) == \
                            (worked_out.winner, worked_out.totals, worked_out.decided_by)
    assert checked


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("iconoclasm", 2)])
def test_the_placements_that_act_are_found_the_long_way_too(name: str, players: int) -> None:
    """``triggering`` (the free cells as one set) finds, for each empty cell and piece, what ``completing``, the paths
    (to groups of at least two markers) and a verdict with the piece counted find."""
    checked = 0
    for s in random_states(name, players, games=2)[::2]:
        step = groups_step(s)
        pieces = [(cid, face) for cid in range(len(s.face)) for face in {0, s.face[cid]} if s.cell_of[cid] is None][:12]
        cells = list(s.frontier)
        paths = step._paths(s) if step.connects and len(s.groups) >= 2 else None
        expected = {}
        for cell in cells:
            anchors = step.completing(s, cell)
            linking = paths is not None and len({step.marker_value(s, a) for a in paths(cell)}) >= 2  # groups of one marker do not clash
            if anchors or linking:
                found = expected[cell] = set()
                for i, (cid, face) in enumerate(pieces):
                    value = step.values[face][cid]
                    for anchor in anchors:
                        counts = step._counts_without(s, anchor, cell)
                        counts[value] = counts.get(value, 0) + 1
                        if step.table.decide(counts).winner is not None:
                            found.add(i)
                    if linking and value in step.through:
                        found.add(i)
        assert step.triggering(s, cells, pieces) == expected
        checked += bool(expected)
    assert checked
