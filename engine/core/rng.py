"""A tiny seeded random generator whose whole state is one integer.

The state of a game carries its generator, so cloning a state is copying an
int and the same seed gives the same game on any machine (SplitMix64).

>>> r = next_u64(42)
>>> r == next_u64(42)
True
>>> below(7, 10)[1] < 10
True
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

MASK = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new_state, 64-bit output)."""
    state = (state + GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)``: returns (new_state, value) (:func:`next_u64` inlined: every die roll draws).

    >>> st, x = next_u64(9)
    >>> below(9, 6) == (st, (x * 6) >> 64)
    True
    """
    state = (state + GAMMA) & MASK
    z = ((state ^ (state >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


GAMMA, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
"""SplitMix64's constants: the step added to the state, and the two multipliers of its output mix."""


def draws_between(start: int, end: int) -> int:
    """How many draws take the generator from state ``start`` to state ``end`` (each adds GAMMA): a number below
    2**64, small when ``end`` follows ``start`` and huge when it comes before it or on another generator's way.

    >>> state = 5
    >>> for _ in range(3):
    ...     state, _ = below(state, 6)
    >>> draws_between(5, state), draws_between(state, 5) > 2**63
    (3, True)
    """
    return ((end - start) * _GAMMA_INVERSE) & MASK


_GAMMA_INVERSE = pow(GAMMA, -1, 1 << 64)
"""GAMMA's inverse modulo 2**64 (GAMMA is odd), which counts the draws between two states."""

LANES_FROM = 9
"""Shuffles of this many items or more draw all their numbers at once (see :func:`_draws`); smaller ones, one at a time."""


def shuffle(state: int, items: list) -> int:
    """Shuffle ``items`` in place (Fisher–Yates, the same draws as ``below`` from the last index down); the new state.

    >>> a, b = list(range(9)), list(range(9))
    >>> st = 5
    >>> for i in range(8, 0, -1):
    ...     st, j = below(st, i + 1)
    ...     b[i], b[j] = b[j], b[i]
    >>> shuffle(5, a) == st and a == b
    True
    """
    n = len(items)
    if n >= LANES_FROM:
        for i, x in zip(range(n - 1, 0, -1), _draws(state, n - 1)):
            j = (x * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        return (state + (n - 1) * GAMMA) & MASK
    for i in range(n - 1, 0, -1):  # next_u64 and below, inlined: setups shuffle every new game
        state = (state + GAMMA) & MASK
        z = ((state ^ (state >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


def _draws(state: int, count: int) -> tuple[int, ...]:
    """The next ``count`` 64-bit outputs of the generator from ``state``, worked out together: the states
    ``state + k * GAMMA`` are known in advance, so they are laid side by side in one big integer, one per 128-bit
    lane, and each step of the mix runs once over every lane: a shift brings the next lane's low bits into the top
    of each lane, which masking clears before a multiplication (a lane's product with a 64-bit multiplier fits in
    its 128 bits) and the reading of the low 64 bits ignores at the end.

    >>> st, outputs = 7, []
    >>> for _ in range(3):
    ...     st, x = next_u64(st)
    ...     outputs.append(x)
    >>> _draws(7, 3) == tuple(outputs)
    True
    """
    ones, steps, lanes, unpack = _lanes(count)
    z = (state * ones + steps) & lanes
    z = ((z ^ (z >> 30)) & lanes) * MIX1 & lanes
    z = ((z ^ (z >> 27)) & lanes) * MIX2 & lanes
    return unpack((z ^ (z >> 31)).to_bytes(16 * count, "little"))


@lru_cache(maxsize=64)
def _lanes(count: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """For ``count`` lanes: 1 in each lane, the k-th step ``k * GAMMA`` (mod 2**64) in the k-th lane, the 64-bit mask
    of each lane, and the reading of each lane's low 64 bits from its bytes."""
    ones = sum(1 << (128 * k) for k in range(count))
    steps = sum((((k + 1) * GAMMA) & MASK) << (128 * k) for k in range(count))
    return ones, steps, MASK * ones, struct.Struct("<" + "Q8x" * count).unpack


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int)."""
    return next_u64(seed & MASK)[1]


_script = threading.local()  # this thread's script (``draw``) while inside ``scripted``
_scripting = threading.Lock()
_scripted_blocks = 0  # how many threads are inside ``scripted``: while any is, below and shuffle dispatch
_generator_below, _generator_shuffle = below, shuffle


def _scripted_below(state: int, n: int) -> tuple[int, int]:
    """``below``, with the value from this thread's script when it has one (the state moves on as ``below``'s)."""
    draw = getattr(_script, "draw", None)
    if draw is None:
        return _generator_below(state, n)
    return (state + GAMMA) & MASK, draw(n, state)


def _scripted_shuffle(state: int, items: list) -> int:
    """``shuffle``, with each Fisher–Yates draw from this thread's script when it has one."""
    draw = getattr(_script, "draw", None)
    if draw is None:
        return _generator_shuffle(state, items)
    at = state
    for i in range(len(items) - 1, 0, -1):
        j = draw(i + 1, at)
        items[i], items[j] = items[j], items[i]
        at = (at + GAMMA) & MASK
    return at


@contextmanager
def scripted(draw: Callable[[int, int], int]) -> Iterator[None]:
    """Within the block, every draw this thread makes through :func:`below` and :func:`shuffle` is ``draw(n, at)``
    (a value in ``range(n)``; ``at``, the generator's state the draw starts from) instead of the generator's: so a
    caller can walk every way a game's dice and shuffles could fall (``engine.rl.chance``).  The generator's state
    moves on as it would, so a draw made again from the same state (an effect played again from its start after a
    choice) can be given the same value.  Other threads draw as usual.  The engine calls them through the module
    (``rng.below``), which sees them while they are replaced here.

    >>> from engine.core import rng
    >>> items = ["a", "b", "c"]
    >>> with rng.scripted(lambda n, at: 0):  # each draw's first value: the last item swaps with the first, and so on
    ...     rng.below(5, 6)[1], rng.shuffle(5, items) == (5 + 2 * rng.GAMMA) & rng.MASK, items
    (0, True, ['b', 'c', 'a'])
    >>> rng.below(5, 6) == (rng.next_u64(5)[0], (rng.next_u64(5)[1] * 6) >> 64)  # outside: the generator's
    True
    """
    global below, shuffle, _scripted_blocks
    with _scripting:
        if not _scripted_blocks:
            below, shuffle = _scripted_below, _scripted_shuffle
        _scripted_blocks += 1
    outer = getattr(_script, "draw", None)
    _script.draw = draw
    try:
        yield
    finally:
        _script.draw = outer
        with _scripting:
            _scripted_blocks -= 1
            if not _scripted_blocks:
                below, shuffle = _generator_below, _generator_shuffle
