"""A few places for one kind of work the server runs in its threads: bots' moves, each up to a bot's time a move.

A request waits for a place without holding a thread (a thread waiting would keep the others' moves and views
waiting too), and gives it back when its work ends, even once the request itself was refused at the cap.

>>> places = Slots(1)
>>> places.take(), places.take()
(True, False)
>>> places.give(); places.take()
True
"""

from __future__ import annotations

import threading


class Slots:
    """``total`` places, taken and given back from any thread (an event loop's, a worker's)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self._free = total
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Take a place if one is free (True), else take none (False)."""
        with self._lock:
            if not self._free:
                return False
            self._free -= 1
            return True

    def give(self) -> None:
        """Give a place back."""
        with self._lock:
            self._free = min(self.total, self._free + 1)


class Held:
    """One place taken from ``slots``, given back once whoever lets it go first (the work when it ends, or its request
    refused before the work began).

    >>> places = Slots(1)
    >>> held = Held(places) if places.take() else None
    >>> held.let_go(); held.let_go(); places.take(), places.take()
    (True, False)
    """

    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self._held = True
        self._lock = threading.Lock()

    def let_go(self) -> None:
        """Give the place back, unless it was given already."""
        with self._lock:
            held, self._held = self._held, False
        if held:
            self.slots.give()
