"""Where a simulation's games may run: the choices of ``--backend``, without importing any executor.

The command line offers these choices in every ``--help``; the executors
themselves (:mod:`engine.runner.distributed`) load only when a run starts.

>>> BACKENDS
('local', 'ray')
"""

from __future__ import annotations

BACKENDS = ("local", "ray")
"""Where a simulation may run: local worker processes, or a Ray cluster."""
