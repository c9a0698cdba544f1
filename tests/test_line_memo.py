"""The remembered line search gives longest_line's answers, however the sets of cells grow, shrink or repeat."""

from __future__ import annotations

import random

import pytest

from engine.blocks.grid import ADJACENCY, LineMemo, longest_line


@pytest.mark.parametrize("adjacency", ["orthogonal", "all"])
def test_remembered_lines_are_longest_line(adjacency: str) -> None:
    offsets = ADJACENCY[adjacency]
    memo = LineMemo(offsets, size=64)  # small, so that it also forgets along the way
    rng = random.Random(7)
    for _ in range(60):  # games: cells added one by one, sometimes one taken away or the whole set seen again
        cells: list[tuple[int, int]] = []
        for _ in range(rng.randrange(1, 30)):
            roll = rng.random()
            if roll < 0.1 and cells:
                cells.pop(rng.randrange(len(cells)))
            elif roll < 0.2:
                cells = cells[:]  # the same set again
            else:
                cell = (rng.randrange(7), rng.randrange(6))
                if cell not in cells:
                    cells.append(cell)
            assert memo.longest(cells) == longest_line(cells, offsets), cells
    assert len(memo.seen) <= 64


def test_the_same_cells_in_another_order_have_the_same_line() -> None:
    offsets = ADJACENCY["all"]
    memo = LineMemo(offsets)
    cells = [(0, 0), (3, 3), (1, 1), (2, 2), (5, 0)]
    rng = random.Random(3)
    for _ in range(20):
        rng.shuffle(cells)
        assert memo.longest(cells) == memo.longest(cells + [(4, 4)]) - 1 == 4
    assert memo.longest([]) == 0 and memo.longest([(1, 1)]) == 1
