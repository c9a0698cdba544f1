"""Chance one draw at a time, listed exactly: the chance nodes of a game for OpenSpiel (:mod:`engine.rl.openspiel`).

All of the engine's randomness — a setup's shuffles, dealt seats, dice rolled
by a turn step or inside an effect — is drawn through
:func:`engine.core.rng.below` and :func:`engine.core.rng.shuffle`, one uniform
draw at a time (a shuffle of n items is n - 1 draws, Fisher–Yates).
:func:`drawn` runs a step (a game's setup, a move) under
:func:`engine.core.rng.scripted` with the values its first draws are to take,
and gives the state it leads to, or — when it draws once more — how many
values that draw has: a chance node of that many outcomes, equally likely.
Each node is small (a die's faces, a deck's cards), however many draws a step
makes, so a game with a long shuffle or dice rolled until a tie is broken is
still listed exactly, one node after the other.  A draw of one value is no
choice and makes no node; a draw of more than ``limit`` values is refused
(:class:`TooManyOutcomes`).

Example::

    game = engine.load("my-card-game")
    setup = lambda: game.new_state(players=2, seed=0, record=True)   # record: every draw made the long way
    drawn(setup, ())                # 3: the first draw of the setup's shuffle has three values
    drawn(setup, ((2, 3), (0, 2)))  # the state dealt when the shuffle's draws (of 3, then 2 values) give 2, then 0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core import rng
from engine.core.errors import RulecraftError

if TYPE_CHECKING:
    from engine.model.state import State

LIMIT = 4096
"""At most this many values for one draw (a deck of this many cards, a die of this many faces)."""


class TooManyOutcomes(RulecraftError):
    """A draw of more than :data:`LIMIT` values: its chance node is not listed."""


class _Stopped(BaseException):
    """Raised inside the engine at the first draw past the values given, to stop the step there (a BaseException,
    so that no handler of the engine's errors takes it for one; the engine puts its state back and raises it on)."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def drawn(run: Callable[[], "State"], values: tuple[tuple[int, int], ...], what: str = "this step",
          limit: int = LIMIT) -> "State | int":
    """The state ``run()`` gives when its draws (of more than one value each) take ``values`` in order, each given
    as (value, number of values the draw had); or, when it draws once more after them, the number of values of
    that draw.  ``what`` names the step in errors.

    ``run`` must draw the same way each time, given the same values (it plays a copy of the same position).
    """
    made = 0

    def draw(n: int) -> int:
        nonlocal made
        if n <= 1:
            return 0
        if made == len(values):
            if n > limit:
                raise TooManyOutcomes(f"{what} draws among {n} values, more than the {limit} a chance node may list")
            raise _Stopped(n)
        value, size = values[made]
        if size != n:
            raise _unrepeatable(what)
        made += 1
        return value

    try:
        with rng.scripted(draw):
            state = run()
    except _Stopped as stop:
        return stop.size
    if made < len(values):
        raise _unrepeatable(what)
    return state


def _unrepeatable(what: str) -> RulecraftError:
    """The error of a step that drew otherwise when run again with the same values.

    >>> print(_unrepeatable("the setup of my-game"))
    the setup of my-game does not draw the same way when played again: its chance outcomes cannot be listed
    """
    return RulecraftError(f"{what} does not draw the same way when played again: its chance outcomes cannot be listed")
