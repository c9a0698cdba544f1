"""Agents: who chooses an action when it is a seat's turn.

An agent decides only from what its seat may see (the legal actions, and
later ``state.observation(seat)``).  Agents are made from short spec strings,
``name`` or ``name:argument`` (``random``, later ``mcts:400``); each name is
registered with :func:`agent_kind`, so new agents slot in without touching the
parser.

>>> make_agent("random", seed=7).name
'random'
>>> make_agent("oracle", seed=0)
Traceback (most recent call last):
ValueError: unknown agent 'oracle'; known agents: random
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.state import State


class Agent(Protocol):
    """Chooses one of the current player's legal actions: ``state.apply(agent.choose(state))``."""

    name: str

    def choose(self, state: "State") -> "Action": ...


AgentFactory = Callable[[str | None, random.Random], Agent]
"""Makes an agent from the spec's argument (text after ':', or None) and its generator."""

AGENT_KINDS: dict[str, AgentFactory] = {}


def agent_kind(name: str) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: register a factory under ``name`` for :func:`make_agent`."""

    def register(factory: AgentFactory) -> AgentFactory:
        AGENT_KINDS[name] = factory
        return factory

    return register


class RandomAgent:
    """Picks a legal action uniformly at random with an injected generator."""

    name = "random"

    def __init__(self, rng: random.Random | int = 0) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, state: "State") -> "Action":
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the random agent was asked to move with no legal action")
        return actions[self.rng.randrange(len(actions))]


@agent_kind("random")
def _random(argument: str | None, rng: random.Random) -> Agent:
    if argument is not None:
        raise ValueError(f"agent 'random' takes no argument (got 'random:{argument}')")
    return RandomAgent(rng)


def make_agent(spec: str, seed: int) -> Agent:
    """The agent a spec names (``name`` or ``name:argument``), seeded with ``seed``."""
    name, sep, argument = spec.strip().partition(":")
    factory = AGENT_KINDS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown agent '{spec}'; known agents: {', '.join(sorted(AGENT_KINDS))}")
    return factory(argument.strip() if sep else None, random.Random(seed))
