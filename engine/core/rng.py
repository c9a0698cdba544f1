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

MASK = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)``: returns (new_state, value)."""
    state, x = next_u64(state)
    return state, (x * n) >> 64


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
    for i in range(len(items) - 1, 0, -1):  # next_u64 and below, inlined: setups shuffle every new game
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int)."""
    return next_u64(seed & MASK)[1]
