"""Chance one draw at a time, listed exactly: the chance nodes of a game for OpenSpiel (:mod:`engine.rl.openspiel`).

All of the engine's randomness — a setup's shuffles, dealt seats, dice rolled
by a turn step or inside an effect — is drawn through
:func:`engine.core.rng.below` and :func:`engine.core.rng.shuffle`, one uniform
draw at a time (a shuffle of n items is n - 1 draws), each from a generator
state of its own.  :func:`drawn` runs a step (a game's setup, a move) under
:func:`engine.core.rng.scripted`, giving each draw the value already chosen
for its generator state, and gives the state the step leads to — or, at the
first draw with no value chosen yet, how many values it has and its generator
state: a chance node of that many outcomes, equally likely, after which the
step is run again with one more value chosen.

Values are chosen by generator state, not by their order in the step, so an
effect that is played again from its start when a choice of it is answered
(as the engine does with a copy of a position) draws again from the same
states and gets the same values, as it gets the same values from the
generator itself.  Each node is small (a die's faces, a deck's cards),
however many draws a step makes, so a long shuffle or dice rolled until a tie
is broken are still listed exactly, one node after the other.  A draw of one
value is no choice and makes no node; a draw of more than ``limit`` values is
refused (:class:`TooManyOutcomes`).

Example::

    game = engine.load("my-card-game")
    setup = lambda: game.new_state(players=2, seed=0, record=True)   # record: every draw made the long way
    size, at = drawn(setup, {})       # 3 values: the first draw of the setup's shuffle, from generator state ``at``
    drawn(setup, {at: (2, 3)})        # ... given its third value: the next draw, of two values
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from engine.blocks.action_roll import ActionRoll
from engine.blocks.contest import Contest
from engine.blocks.dice import Roll
from engine.blocks.switch import SwitchRole
from engine.core import rng
from engine.core.errors import RulecraftError
from engine.lang.scope import DRAWS

if TYPE_CHECKING:
    from engine.model.game import Game
    from engine.model.state import State

LIMIT = 4096
"""At most this many values for one draw (a deck of this many cards, a die of this many faces)."""

Chosen = Mapping[int, tuple[int, int]]
"""The values chosen for draws, by the generator state each draws from: (value, how many values the draw had)."""


class TooManyOutcomes(RulecraftError):
    """A draw of more than :data:`LIMIT` values: its chance node is not listed."""


class _Stopped(BaseException):
    """Raised inside the engine at the first draw with no value chosen, to stop the step there (a BaseException, so
    that no handler of the engine's errors takes it for one; the engine puts its state back and raises it on)."""

    def __init__(self, size: int, at: int) -> None:
        super().__init__(size, at)
        self.size, self.at = size, at


def drawn(run: Callable[[], "State"], chosen: Chosen, what: str = "this step",
          limit: int = LIMIT) -> "State | tuple[int, int]":
    """The state ``run()`` gives when each of its draws (of more than one value) takes the value ``chosen`` for
    its generator state; or, at the first draw with none chosen, its number of values and its generator state.
    ``what`` names the step in errors.
    """

    def draw(n: int, at: int) -> int:
        if n <= 1:
            return 0
        value = chosen.get(at)
        if value is None:
            if n > limit:
                raise TooManyOutcomes(f"{what} draws among {n} values, more than the {limit} a chance node may list")
            raise _Stopped(n, at)
        if value[1] != n:
            raise RulecraftError(f"{what} draws among {n} values where it drew among {value[1]} before: its chance "
                                 "outcomes cannot be listed")
        return value[0]

    try:
        with rng.scripted(draw):
            return run()
    except _Stopped as stop:
        return stop.size, stop.at


def may_draw(game: "Game", players: int) -> bool:
    """Whether a game of ``game`` for ``players`` may draw at random at all (roll a die, shuffle, deal seats at
    random), known from the compiled ruleset: True unless nothing that draws is in it.  Every draw site of the
    engine is one of these: the seating (roles dealt at random, a roll-off for the first seat), code that rolls, tosses or
    shuffles, or draws from a pile that refills from its discard (noted when compiled), a step that rolls (a die step, an action roll, a contest's dice or its
    re-rolled ties) and a hidden switch of roles (a role drawn blind).

    Example: ``may_draw(engine.load("my-board-game"), 2)`` is False for a game of placing pieces in the open,
    True as soon as one card's code says ``shuffle(deck)``.
    """
    if game.first_roll or game.vocab.data.get(DRAWS):
        return True
    if game.roles is not None and len(game.roles.groups(players)) > 1:
        return True
    contests = [step.rules for step in game.steps if isinstance(step, Contest)]
    if game.parts.get("contest") is not None:
        contests.append(game.parts["contest"])
    if any(rules.sides or "reroll" in rules.ties for rules in contests):
        return True
    return any(isinstance(step, (Roll, ActionRoll)) or (isinstance(step, SwitchRole) and step.hidden)
               for step in game.steps)
