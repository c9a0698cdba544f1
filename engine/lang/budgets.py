"""What the effect language's code may spend, and the errors when it spends too much: the step budget a run of
code draws on (a loop's pass, a call of a ruleset's function, each item a selection looks at) and the digits a
number may have, both set by the ruleset's limits (:mod:`engine.core.limits`).

>>> weight(250), weight(6000)      # the steps one pass of 250 and of 6,000 syntax nodes of code spends
(2, 60)
"""

from __future__ import annotations

from typing import Any

from engine.core import limits
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.lang.scope import Fn, Scope


def scope_limits(scope: Scope) -> limits.Limits:
    """The limits the code of ``scope`` is compiled under (the ruleset's, else those in force)."""
    found = scope.vocab.data.get("limits")
    return found if isinstance(found, limits.Limits) else limits.current()


def too_large_message(in_force: limits.Limits) -> str:
    """The error for arithmetic whose result has too many digits."""
    return (f"this computes a number of more than {in_force.integer_digits} digits "
            f"(limit integer_digits={in_force.integer_digits}; raise it with --limit integer_digits=N)")


def within_digits(s: Any, value: int, pos: SourcePos | None) -> int:
    """``value``, unless it has more digits than the game's ``integer_digits`` limit allows."""
    if s.game.limits.too_large(value):
        raise EffectRuntimeError(too_large_message(s.game.limits), pos)
    return value


def out_of_steps(s: Any, pos: SourcePos | None, what: str) -> EffectRuntimeError:
    """The error for code that used up the step budget of one run (see ``Limits.steps``).

    The turns that pass without a decision after an action share its budget, so when a whole round of them
    has passed the message says so: the cause is then a game nobody can move in, not the code it stopped in.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(limits=SimpleNamespace(steps=100))
    >>> str(out_of_steps(SimpleNamespace(game=game, turn_number=40, decided=3, order=("a", "b")), None, "selection"))
    'effect ran out of its step budget in this selection (limit steps=100; raise it with --limit steps=N); 37 turns passed since the last decision, nobody able to act: a ruleset whose players may all be stuck ends the game with end: {stalled: true}'
    """
    steps = s.game.limits.steps
    message = f"effect ran out of its step budget in this {what} (limit steps={steps:,}; raise it with --limit steps=N)"
    order = getattr(s, "order", ())
    silent = getattr(s, "turn_number", 0) - (getattr(s, "decided", None) or 0)
    if order and silent > len(order):
        message += (f"; {silent} turns passed since the last decision, nobody able to act: a ruleset whose players "
                    "may all be stuck ends the game with end: {stalled: true}")
    return EffectRuntimeError(message, pos)



def game_too_long(s: Any, spent: int) -> EffectRuntimeError:
    """The error for a game whose actions together spent more steps than ``Limits.game_steps`` allows: each run stays
    within its own budget, but a game of thousands of turns each doing nearly a budget's work would take many minutes.

    >>> from types import SimpleNamespace
    >>> str(game_too_long(SimpleNamespace(game=SimpleNamespace(limits=SimpleNamespace(game_steps=1000)), turn_number=7), 1200))
    'this game has spent 1,200 steps in all by turn 7, more than one game may (limit game_steps=1,000; raise it with --limit game_steps=N): its effects or conditions (an end condition is tested after every turn) do much work each turn'
    """
    most = s.game.limits.game_steps
    return EffectRuntimeError(f"this game has spent {spent:,} steps in all by turn {s.turn_number}, more than one game may "
                              f"(limit game_steps={most:,}; raise it with --limit game_steps=N): its effects or "
                              f"conditions (an end condition is tested after every turn) do much work each turn", None)


def refill(s: Any) -> None:
    """Give ``s`` the whole step budget for a new run (an action, an effect, a program), first counting what the runs
    before spent toward the game's total (``Limits.game_steps``): each run has its own budget, so without that total
    a game of ten thousand turns each doing nearly a budget's work ran for many minutes.

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(game=SimpleNamespace(limits=SimpleNamespace(steps=100, game_steps=1000)), budget=40, spent=0)
    >>> refill(s); (s.budget, s.spent)
    (100, 60)
    """
    limits = s.game.limits
    spent = s.spent + limits.steps - s.budget
    if spent > limits.game_steps:
        raise game_too_long(s, spent)
    s.spent = spent
    s.budget = limits.steps

STEP_NODES = 100
"""Syntax nodes of code one step of the budget pays for: a loop pass, or a call of a ruleset's function, running
more code than twice this spends a step per this many (see :func:`weight`)."""


def weight(cost: int) -> int:
    """The steps one pass of a loop (or one call of a ruleset's function) spends when it runs ``cost`` syntax nodes
    of code, the bodies of the calls written inline in it included: one, up to twice :data:`STEP_NODES`; then one
    per :data:`STEP_NODES`.  A step stays a bounded amount of work however long the code it pays for: a condition
    after 'where' thousands of nodes long, looked at for each of 10,000 components, runs out of steps at once.

    >>> weight(0), weight(150), weight(250), weight(6000)
    (1, 1, 2, 60)
    """
    return max(1, cost // STEP_NODES)


def spending(source: Fn, pos: SourcePos | None, what: str, steps: int = 1) -> Fn:
    """``source`` (a collection) that spends ``steps`` steps of the state's budget per item it gives.

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(budget=5)
    >>> spending(lambda s, e: [1, 2, 3], None, "selection")(s, []), s.budget
    ([1, 2, 3], 2)
    >>> spending(lambda s, e: None, None, "selection")(s, [])  # none selects nothing
    []
    """

    def spend(s: Any, e: list[Any]) -> Any:
        items = source(s, e)
        try:
            s.budget -= len(items) * steps
        except AttributeError:  # no state: constant code folded while compiling, which spends nothing
            return items
        except TypeError:  # a collection without a length, or none (an item past the end of a list of lists)
            items = [] if items is None else list(items)
            s.budget -= len(items) * steps
        if s.budget < 0:
            raise out_of_steps(s, pos, what)
        return items

    return spend
