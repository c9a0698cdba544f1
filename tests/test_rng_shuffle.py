"""The engine's shuffle (engine/core/rng.py) draws a long list's numbers together, in 128-bit lanes of one integer:
it gives the permutation and the generator state the one-draw-at-a-time Fisher–Yates gives, for every seed and size.

The reference below is SplitMix64 written out from its definition, independent of the engine's code.
"""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import rng

M64 = 2**64


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: the new state and its output."""
    state = (state + 0x9E3779B97F4A7C15) % M64
    z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 % M64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB % M64
    return state, z ^ (z >> 31)


def reference_shuffle(state: int, items: list[int]) -> int:
    """Fisher–Yates from the last index down, index ``j`` the output scaled to ``range(i + 1)``, one draw at a time."""
    for i in reversed(range(1, len(items))):
        state, x = splitmix64(state)
        j = x * (i + 1) // M64
        items[i], items[j] = items[j], items[i]
    return state


@settings(max_examples=400, deadline=None)
@given(st.integers(0, M64 - 1), st.integers(0, 140))
def test_the_shuffle_is_the_one_draw_at_a_time_shuffle(seed: int, size: int) -> None:
    items, expected = list(range(size)), list(range(size))
    assert rng.shuffle(seed, items) == reference_shuffle(seed, expected)
    assert items == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(0, M64 - 1), st.integers(1, 70))
def test_the_lanes_are_the_generators_next_outputs(seed: int, count: int) -> None:
    state, outputs = seed, []
    for _ in range(count):
        state, x = splitmix64(state)
        outputs.append(x)
    assert list(rng._draws(seed, count)) == outputs


def test_both_ways_are_taken() -> None:
    """Below ``LANES_FROM`` items one draw at a time, from it in lanes: sizes on both sides of the line are above."""
    assert 2 < rng.LANES_FROM < 140


@settings(max_examples=400, deadline=None)
@given(st.integers(0, M64 - 1), st.integers(1, 1000))
def test_a_number_below_n_is_the_next_output_scaled(seed: int, n: int) -> None:
    """``below`` (SplitMix64 inlined) draws what one step of the reference draws, scaled to ``range(n)``."""
    state, x = splitmix64(seed)
    assert rng.below(seed, n) == (state, x * n // M64)


@functools.cache
def _dice_game() -> engine.Game:
    """A ruleset whose states roll dice, loaded once for every example (a game never changes)."""
    return engine.load("nine-domains")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, M64 - 1), st.lists(st.integers(1, 20), max_size=8))
def test_a_states_die_rolls_are_the_generators_numbers(seed: int, dice: list[int]) -> None:
    """A state's usual roll (nothing loaded, nothing rolled again) takes the generator's next numbers, one per die."""
    s = _dice_game().new_state(players=2, seed=0)
    s.rng = state = seed
    for sides in dice:
        state, x = splitmix64(state)
        assert s.roll(sides) == x * sides // M64 + 1 and s.rng == state


def test_a_scripted_thread_draws_its_script_and_the_others_their_generator() -> None:
    """``rng.scripted`` (the OpenSpiel game's chance nodes) gives its values to the thread inside it only: a game
    played meanwhile in another thread draws from its generator as ever, and so does everything after the block."""
    import threading

    expected = [rng.below(7, 6), rng.shuffle(7, items := list(range(12))), items]
    inside, outside = threading.Event(), threading.Event()
    drawn: list[object] = []

    def other() -> None:
        inside.wait()
        drawn.extend([rng.below(7, 6), rng.shuffle(7, mine := list(range(12))), mine])
        outside.set()

    thread = threading.Thread(target=other)
    thread.start()
    with rng.scripted(lambda n, at: n - 1):
        inside.set()
        outside.wait()
        ordered = list(range(12))
        rng.shuffle(7, ordered)  # each draw its last value: every item stays where it is
        assert rng.below(7, 6)[1] == 5 and ordered == list(range(12))
    thread.join()
    assert drawn == expected
    assert [rng.below(7, 6), rng.shuffle(7, again := list(range(12))), again] == expected


def test_the_engine_draws_through_the_module_so_that_scripted_sees_every_draw() -> None:
    """``rng.scripted`` replaces the module's below and shuffle: a module that took them by name at import
    (``from engine.core.rng import below``) would keep drawing from the generator, and the OpenSpiel game's chance
    nodes would silently miss its draws."""
    import re
    from pathlib import Path

    root = Path(engine.__file__).resolve().parent
    taken = [f"{path.relative_to(root)}: {line.strip()}" for path in root.rglob("*.py") if path.name != "rng.py"
             for line in path.read_text(encoding="utf-8").splitlines()
             if re.match(r"\s*from engine\.core\.rng import .*\b(below|shuffle)\b", line)]
    assert not taken
