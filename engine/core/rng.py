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


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int)."""
    return next_u64(seed & MASK)[1]
