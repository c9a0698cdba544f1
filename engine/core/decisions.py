"""Who decides next: the markers ``current_player`` reports besides seats, chance events and lent decisions.

``State.current_player`` is a seat (1-based) or one of three markers:

* :data:`TERMINAL` — the game is over;
* :data:`CHANCE` — a game created with ``explicit_chance=True`` waits for a die
  a step rolls, or for the component a step draws from a zone whose order no
  one knows: ``state.chance_outcomes()`` lists the results with their
  probabilities, and applying one of them rolls (draws) it;
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
>>> two = ChanceEvent(step=0, pool=(("Oak", 2), ("Elm", 1)), draws=2, results=("Oak",))
>>> two.outcomes(), two.verb
((('Oak', Fraction(1, 2)), ('Elm', Fraction(1, 2))), 'draw')
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
    """What turn step ``step`` leaves to chance as it begins, and the results chosen so far.

    Either ``dice``, each die's results with their probabilities, or ``draws``
    components drawn one by one, without putting back, from ``pool``: the
    names of a zone's components with how many of each, in the zone's order.
    ``seer`` is the seat that learns what is drawn when the draw is ``hidden``
    from the others (0: no seat).
    """

    step: int
    dice: tuple[Die, ...] = ()
    results: tuple[Any, ...] = ()
    pool: tuple[tuple[str, int], ...] = ()
    draws: int = 0
    hidden: bool = False
    seer: int = 0

    @property
    def size(self) -> int:
        """How many results the event needs: one per die, or one per component drawn."""
        return self.draws if self.pool else len(self.dice)

    @property
    def verb(self) -> str:
        """The first word of the actions that resolve it: ``roll`` or ``draw``."""
        return "draw" if self.pool else "roll"

    def outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """The results the next die (or draw) may give, with their probabilities."""
        if not self.pool:
            return self.dice[len(self.results)]
        left = [(name, count - self.results.count(name)) for name, count in self.pool]
        total = sum(count for _, count in left)
        return tuple((name, Fraction(count, total)) for name, count in left if count > 0)


class ChanceFormatter:
    """Formats the actions that resolve a chance event: ``roll 4``, ``draw NAME``."""

    index = CHANCE

    def __init__(self, verb: str, sealed: bool, name: str) -> None:
        self.verb = verb
        self.sealed = sealed  # a hidden draw: the other seats see that a component was drawn, not which
        self.name = name  # the module's name for it

    def __reduce__(self) -> str:
        """Pickled by name, so that a chance action pickled and read back is one of every state's.

        >>> import pickle
        >>> pickle.loads(pickle.dumps(HIDDEN_DRAW)) is HIDDEN_DRAW
        True
        """
        return self.name

    def format(self, args: tuple[Any, ...]) -> str:
        """The chance action's text: its verb and the result (``roll 4``)."""
        return f"{self.verb} {args[0]}"

    def public_format(self, args: tuple[Any, ...]) -> str:
        """The text every seat sees: the component drawn unnamed when the draw is sealed."""
        return f"{self.verb} a component" if self.sealed else self.format(args)


ROLL = ChanceFormatter("roll", sealed=False, name="ROLL")
"""The step of every chance action that rolls a die (``Action(ROLL, (4,))`` reads ``roll 4``)."""

DRAW = ChanceFormatter("draw", sealed=False, name="DRAW")
"""The step of a chance action that draws a component everyone may see (``draw NAME``)."""

HIDDEN_DRAW = ChanceFormatter("draw", sealed=True, name="HIDDEN_DRAW")
"""The step of a chance action that draws a component only its drawer sees (others read ``draw a component``)."""


def formatter(event: ChanceEvent) -> ChanceFormatter:
    """The step the actions resolving ``event`` belong to."""
    if not event.pool:
        return ROLL
    return HIDDEN_DRAW if event.hidden else DRAW


def fair_die(sides: int) -> Die:
    """A die whose ``sides`` results are equally likely.

    >>> fair_die(2)
    ((1, Fraction(1, 2)), (2, Fraction(1, 2)))
    """
    return tuple((v, Fraction(1, sides)) for v in range(1, sides + 1))
