"""The agent kinds :func:`make_agent` knows, and the :class:`Agent` protocol they make.

A kind is registered with :func:`agent_kind` under a name; a spec ``name`` or
``name:argument`` makes one, seeded.

>>> make_agent("random", seed=0).name
'random'
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING, Callable, Iterable, Protocol

from engine.core.actions import Action
from engine.core.showtext import cut

if TYPE_CHECKING:
    from engine.model.state import State


class Agent(Protocol):
    """Chooses one of the current player's legal actions: ``state.apply(agent.choose(state))``."""

    @property
    def name(self) -> str:
        """The spec that makes this agent, as play and its hints name it."""
        ...

    def choose(self, state: "State") -> "Action":
        """One of ``state.legal_actions()``, decided from what the seat to move may see."""
        ...


AgentFactory = Callable[[str | None, random.Random], Agent]
"""Makes an agent from the spec's argument (text after ':', or None) and its generator."""

AGENT_KINDS: dict[str, AgentFactory] = {}
AGENT_FORMS: dict[str, str] = {}
"""The spec forms each kind accepts, in words for error messages (``mcts:N, mcts:Ts``)."""

SEARCH_FORMS_NOTE = "searches also take :c=C and :depth=D, e.g. mcts:400:c=2:depth=60"


def agent_kind(name: str, forms: str | None = None) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: register a factory under ``name`` for :func:`make_agent` (``forms`` defaults to the name).

    Specs are read without regard to case, so ``@agent_kind("MyBot")`` is found as ``mybot`` and ``MyBot`` alike.
    """

    def register(factory: AgentFactory) -> AgentFactory:
        AGENT_KINDS[name.strip().lower()] = factory
        AGENT_FORMS[name] = forms or name
        return factory

    return register


def kinds_only_here(specs: Iterable[str]) -> list[str]:
    """The specs whose kind was registered in ``__main__`` (a script run, an interactive session): a worker that is
    not forked from this process (a Ray task) never runs that code, so the kind is unknown there.

    >>> kinds_only_here(["random", "mcts:50"])
    []
    """
    def module(spec: str) -> str | None:
        return getattr(AGENT_KINDS.get(spec.strip().partition(":")[0].strip().lower()), "__module__", None)

    return [spec for spec in specs if module(spec) == "__main__"]

def make_agent(spec: str, seed: int) -> Agent:
    """The agent a spec names (``name`` or ``name:argument``), seeded with ``seed``.

    A spec is text: an agent object is refused with a TypeError saying how to name its kind.

    >>> make_agent("mcts:50", seed=1).name
    'mcts:50'
    """
    if not isinstance(spec, str):
        raise TypeError(f"an agent spec is text such as 'random' or 'mcts:400', not {type(spec).__name__} "
                        f"{cut(repr(spec), 60)} (an agent class of your own is named once registered with "
                        "engine.runner.agents.agent_kind)")
    name, sep, argument = spec.strip().partition(":")
    factory = AGENT_KINDS.get(name.strip().lower())
    if factory is None:
        known = ", ".join(AGENT_FORMS.values())
        raise ValueError(f"unknown agent '{spec}'; known agents: {known} ({SEARCH_FORMS_NOTE})")
    try:
        seeded = random.Random(operator.index(seed))  # NumPy's ints too
    except TypeError:
        raise TypeError(f"an agent's seed is a whole number, not {cut(repr(seed), 60)}") from None
    return factory(argument.strip() if sep else None, seeded)
