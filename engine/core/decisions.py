"""Who decides next: the markers ``current_player`` reports besides seats, chance events and lent decisions.

``State.current_player`` is a seat (1-based) or one of three markers:

* :data:`TERMINAL` — the game is over;
* :data:`CHANCE` — a game created with ``explicit_chance=True`` waits for a die
  a step rolls: ``state.chance_outcomes()`` lists the results with their
  probabilities, and applying one of them rolls it;
* :data:`SIMULTANEOUS` — several seats make a sealed decision together (a
  ``sealed`` step such as ``commit``): ``state.legal_actions(seat)`` gives each
  seat's actions and ``state.apply_joint({seat: action, ...})`` applies them.

A decision that belongs to a role other than the one whose turn it is (a
draft pick, an exchange, a final act) is a :class:`Decision` on the state's
stack of pending decisions: the role on top of the stack decides, and the turn
itself never changes hands for it.

>>> from fractions import Fraction
>>> die = ChanceEvent(step=2, dice=(tuple((v, Fraction(1, 6)) for v in range(1, 7)),))
>>> len(die.outcomes()), sum(p for _, p in die.outcomes())
(6, Fraction(1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

TERMINAL = -1
"""``current_player`` of a finished game."""

CHANCE = -2
"""``current_player`` while a chance event waits to be resolved (only in games created with ``explicit_chance=True``)."""

SIMULTANEOUS = -3
"""``current_player`` while several seats make a sealed decision together."""

MARKERS = {TERMINAL: "terminal", CHANCE: "chance", SIMULTANEOUS: "simultaneous"}
"""The markers by name, for messages."""

Die = tuple[tuple[int, Fraction], ...]
"""The results one die may give, each with its probability (they sum to 1)."""


@dataclass(frozen=True)
class Decision:
    """A decision lent to ``role`` by turn step ``step``, with the step's own plain ``data`` (e.g. who is still to decide).

    >>> Decision(step=3, role="A", data=((4, 7),)).role
    'A'
    """

    step: int
    role: str
    data: tuple[Any, ...] = ()


@dataclass(frozen=True)
class ChanceEvent:
    """The dice turn step ``step`` rolls when it begins, and the results chosen for the first of them so far."""

    step: int
    dice: tuple[Die, ...]
    results: tuple[int, ...] = ()

    def outcomes(self) -> Die:
        """The results the next die may give, with their probabilities."""
        return self.dice[len(self.results)]


class ChanceFormatter:
    """Formats the actions that resolve a chance event: ``roll 4``."""

    index = CHANCE
    sealed = False  # dice are rolled in the open

    def format(self, args: tuple[Any, ...]) -> str:
        return f"roll {args[0]}"

    def public_format(self, args: tuple[Any, ...]) -> str:
        return self.format(args)


ROLL = ChanceFormatter()
"""The step of every chance action (``Action(ROLL, (4,))`` reads ``roll 4``)."""


def fair_die(sides: int) -> Die:
    """A die whose ``sides`` results are equally likely.

    >>> fair_die(2)
    ((1, Fraction(1, 2)), (2, Fraction(1, 2)))
    """
    return tuple((v, Fraction(1, sides)) for v in range(1, sides + 1))
