"""``random``: a uniformly random legal action.

>>> import engine
>>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
>>> RandomAgent(0).choose(s) in s.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.core.actions import Action
from engine.runner.agents.registry import Agent, agent_kind
from engine.runner.agents.seats import refuse_no_seat

if TYPE_CHECKING:
    from engine.model.state import State


class RandomAgent:
    """Picks a legal action uniformly at random with an injected generator."""

    name = "random"

    def __init__(self, rng: random.Random | int = 0) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, state: "State") -> "Action":
        """One of the legal actions, each as likely as the others."""
        if state.chance is not None or state.outcome is not None:
            refuse_no_seat(state, self.name)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the random agent was asked to move with no legal action")
        return actions[self.rng.randrange(len(actions))]


@agent_kind("random")
def _random(argument: str | None, rng: random.Random) -> Agent:
    if argument is not None:
        raise ValueError(f"agent 'random' takes no argument (got 'random:{argument}')")
    return RandomAgent(rng)
