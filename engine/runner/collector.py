"""The cyclic garbage collector held off while a search runs.

A search keeps what its iterations reach (tree nodes, kept positions: tens of
containers per iteration) until it decides, and frees it all by reference
counting afterwards; the engine's moves make no reference cycles.  Each of
the collector's passes during a search so walks thousands of live objects and
finds nothing to free (5–15% of an MCTS decision's time).  Random playouts
keep nothing and never wake the collector.

Example::

    with collector_paused():
        action = agent.search(state, running)

>>> import gc
>>> with collector_paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold off the cyclic garbage collector inside the block; it runs again afterwards if it was running before
    (also when the block raises).  Reference counting frees as usual meanwhile."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
