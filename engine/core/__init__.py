"""The core: data and rules every other layer stands on, importing nothing above it.

Errors and source positions, actions and their text, the seeded generator,
budgets, reading ruleset files (YAML with positions, ``extends`` overlays),
the typed slices of a state, what a seat may see, and who decides next (the
``CHANCE``, ``SIMULTANEOUS`` and ``TERMINAL`` markers)::

    >>> from engine.core import rng
    >>> rng.below(rng.seed_state(1), 6) == rng.below(rng.seed_state(1), 6)
    True
"""
