"""A yardstick: the classics written straight in Python, as a programmer would for a quick experiment.

Not a ruleset and not used by the engine: ``benchmarks/openspiel.py`` times
these beside OpenSpiel's C++ games and the rulesets, so its table shows what
plain Python reaches on this machine (issue 19 asks the rulesets for 0.5x of
OpenSpiel).  Each function plays ``playouts`` uniformly random games and
returns the seconds they took and the decisions made.

>>> seconds, decisions = PLAYERS["connect-four"](10, seed=1)
>>> 7 * 10 <= decisions <= 42 * 10
True
"""

from __future__ import annotations

import random
import time
from typing import Callable

_LINES = ((1, 0), (0, 1), (1, 1), (1, -1))


def connect_four(playouts: int, seed: int = 0, width: int = 7, height: int = 6, in_a_row: int = 4) -> tuple[float, int]:
    """Random games of connect-four: a disc falls to its column's lowest empty cell; a line through it may win."""
    choose = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(playouts):
        board = [[0] * height for _ in range(width)]
        heights = [0] * width
        player = 1
        while True:
            open_columns = [c for c in range(width) if heights[c] < height]
            if not open_columns:
                break
            x = open_columns[choose.randrange(len(open_columns))]
            y = heights[x]
            heights[x] = y + 1
            board[x][y] = player
            decisions += 1
            if any(_run(board, x, y, dx, dy, player) + _run(board, x, y, -dx, -dy, player) > in_a_row - 2
                   for dx, dy in _LINES):
                break
            player = 3 - player
    return time.perf_counter() - start, decisions


def _run(board: list[list[int]], x: int, y: int, dx: int, dy: int, player: int) -> int:
    """How many of ``player``'s discs follow (x, y) in direction (dx, dy), not counting (x, y)."""
    n = 0
    x, y = x + dx, y + dy
    while 0 <= x < len(board) and 0 <= y < len(board[0]) and board[x][y] == player:
        n += 1
        x, y = x + dx, y + dy
    return n


def tic_tac_toe(playouts: int, seed: int = 0) -> tuple[float, int]:
    """Random games of tic-tac-toe on a 3x3 board, checking the eight lines after each mark."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    choose = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(playouts):
        board = [0] * 9
        player = 1
        while True:
            empty = [i for i in range(9) if not board[i]]
            if not empty:
                break
            board[empty[choose.randrange(len(empty))]] = player
            decisions += 1
            if any(board[a] == board[b] == board[c] == player for a, b, c in lines):
                break
            player = 3 - player
    return time.perf_counter() - start, decisions


PLAYERS: dict[str, Callable[..., tuple[float, int]]] = {
    "tic-tac-toe": tic_tac_toe,
    "connect-four": connect_four,
    "plain-tic-tac-toe": tic_tac_toe,
    "plain-connect-four": connect_four,
}
"""The rows of ``benchmarks/openspiel.py`` that have a plain Python yardstick."""
