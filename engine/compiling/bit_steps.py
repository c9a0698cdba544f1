"""A bit board's steps written out as Python lines, for the generated turn: each step's shift a literal number.

:meth:`BitBoard.bracketing <engine.blocks.bitboard.BitBoard.bracketing>` and :meth:`BitBoard.closed
<engine.blocks.bitboard.BitBoard.closed>` loop over the board's steps (a tuple of shifts) for every decision.  On
one board the steps never change, so the generated turn (:mod:`engine.compiling.turn_code`) writes each step's
shift out as its own block: no loop over the steps, no tuple read, the shift a constant of the code.  The lines
read and set plain names, listed in each function's docstring; the board's methods stay the reference
(``tests/test_bit_steps.py`` holds the lines to them on boards of every size and adjacency).  Only numbers are
written into the lines (each shift is an ``int`` of the board's own making).

>>> from engine.blocks.bitboard import BitBoard
>>> from engine.blocks.grid import SquareGrid
>>> print("\\n".join(bracketing_lines(BitBoard(SquareGrid(adjacency="orthogonal", width=3, height=3)))[:6]))
found = 0
run = (own << 1) & rival
while run:
    run <<= 1
    found |= run
    run &= rival
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.blocks.bitboard import BitBoard


def _steps(board: "BitBoard") -> list[tuple[str, int]]:
    """Each step of the board as the operator and the number of bits it shifts by: the board's order of steps."""
    return [("<<", int(n)) for n in board.ups] + [(">>", int(n)) for n in board.downs]


def bracketing_lines(board: "BitBoard") -> list[str]:
    """Lines that set ``found`` to what ``board.bracketing(own, rival, among)`` finds before it keeps ``among``'s
    bits (``found & among`` is its answer), from the names ``own`` and ``rival``; they set ``run`` too."""
    lines = ["found = 0"]
    for op, n in _steps(board):
        lines += [f"run = (own {op} {n}) & rival", "while run:", f"    run {op}= {n}", "    found |= run",
                  "    run &= rival"]
    return lines


def closing_lines(board: "BitBoard") -> list[str]:
    """Lines that set ``flips`` to the bits of ``board.closed(cell, own, rival)`` (what a piece put at the cell whose
    bit is ``bit`` closes off), from the names ``bit``, ``own`` and ``rival``; they set ``run`` and ``line`` too."""
    lines = ["flips = 0"]
    for op, n in _steps(board):
        lines += [f"run = (bit {op} {n}) & rival", "if run:", "    line = 0", "    while run:", "        line |= run",
                  f"        run {op}= {n}", "        if run & own:", "            flips |= line", "            break",
                  "        run &= rival"]
    return lines
