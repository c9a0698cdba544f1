"""Where a simulation's games may run: the choices of ``--backend``, and how many games one run may play,
without importing any executor.

The command line offers these choices in every ``--help``; the executors
themselves (:mod:`engine.runner.distributed`) load only when a run starts.

>>> BACKENDS
('local', 'ray')
"""

from __future__ import annotations

BACKENDS = ("local", "ray")
"""Where a simulation may run: local worker processes, or a Ray cluster."""

MAX_GAMES = 10_000_000
"""The most games one run plays, on any backend: its work items are listed, and its results kept, all at once
(about 1 KB a game), so ``-n 99999999999999999999`` is refused rather than filling the memory."""
