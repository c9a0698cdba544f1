"""A PettingZoo parallel environment for any ruleset: every seat that decides now acts in one step.

Most steps have one seat deciding, and a step of the parallel environment then takes that seat's action alone.
A sealed round decided together (the engine's ``SIMULTANEOUS`` node: :meth:`State.simultaneous_seats`) is one
step in which every seat of it acts at once, none seeing the others' decisions, as :meth:`State.apply_joint`
plays them.  Each agent's observation is the AEC environment's (:mod:`engine.rl.environment`): the same vector,
and a mask of the actions it may take now, all zeros for a seat that decides nothing in this step.

``step(actions)`` takes a dict naming every agent that decides now (those with a mask not all zeros); the
actions given for the others are not played (PettingZoo's tools give every live agent an action).  A missing
action, or one that is not legal for its agent, raises ValueError saying which and changes nothing.  Once the game
is over (or stopped: truncated), ``agents`` is empty.

Example::

    from engine.rl.parallel import parallel_env
    e = parallel_env("my-game", players=3)
    observations, infos = e.reset(seed=1)
    while e.agents:
        actions = {a: e.action_space(a).sample(observations[a]["action_mask"]) for a in e.agents}
        observations, rewards, terminations, truncations, infos = e.step(actions)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ParamSpec

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from engine.core.showtext import cut
from engine.model.game import Game
from engine.model.state import State
from engine.rl.actions import ActionTable
from engine.rl.encoding import Encoder
from engine.rl.environment import RulecraftEnv, agent_name

P = ParamSpec("P")


class RulecraftParallelEnv(ParallelEnv):
    """The parallel environment of one game and player count: ``aec``'s, played a step of every deciding seat at a
    time (:func:`parallel_env` makes one from :class:`RulecraftEnv`'s parameters)."""

    metadata = {"name": "rulecraft_parallel_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, aec: RulecraftEnv) -> None:
        self.aec = aec
        self.render_mode = aec.render_mode
        self.possible_agents = self.aec.possible_agents
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space
        self.agents: list[str] = []
        self._started = False  # whether reset() was called: before it there is no game
        self._masks: dict[int, dict[int, Any]] = {}  # the legal actions of each seat deciding now, by index

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (as the AEC environment's)."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent`` (as the AEC environment's)."""
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game, as :meth:`RulecraftEnv.reset` deals it (the same seed, the same game): each agent's
        observation and info."""
        self.aec.reset(seed=seed, options=options)
        self._started = True
        self.agents = self.possible_agents[:]
        self._decide()
        return self._observations(self.agents), {agent: dict(self.aec.infos[agent]) for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                        dict[str, bool], dict[str, Any]]:
        """Play the actions of every seat deciding now, together; each live agent's observation, reward,
        termination, truncation and info after them (rewards 0 until the game ends)."""
        self._check_started("step")
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to start a new one")
        if not isinstance(actions, Mapping):
            raise ValueError(f"step() takes a dict of actions by agent ({{'player_1': 0}}), not {cut(repr(actions), 60)}")
        for agent in actions:
            self.aec._known(agent)
        moves = {}
        for seat, legal in self._masks.items():
            agent = agent_name(seat)
            if actions.get(agent) is None:
                raise ValueError(f"{agent} decides now and was given no action (deciding now: "
                                 f"{', '.join(agent_name(s) for s in self._masks)})")
            moves[seat] = legal[self.aec._legal_index(agent, actions[agent], legal)]
        state = self.aec.game_state
        if len(moves) == 1:
            [move] = moves.values()
            state.apply(move)  # a ruleset failing while carrying the move out leaves the game as it was
        else:
            state.apply_joint(moves)  # likewise: every seat's decision is taken back
        live = self.agents
        self.aec._played(len(moves), "; ".join(f"{agent_name(seat)}: {move}" for seat, move in moves.items()))
        self._decide()
        observations = self._observations(live)
        rewards = {agent: self.aec.rewards[agent] for agent in live}
        terminations = {agent: self.aec.terminations[agent] for agent in live}
        truncations = {agent: self.aec.truncations[agent] for agent in live}
        infos = {agent: dict(self.aec.infos[agent]) for agent in live}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _decide(self) -> None:
        """Note who decides now and their legal actions: every seat of a sealed round decided together, else the
        seat to move (none once the game is over or stopped)."""
        state, aec = self.aec.game_state, self.aec
        if not aec._legal:
            self._masks = {}
            return
        seats = state.simultaneous_seats()
        if len(seats) < 2:
            self._masks = {state.seat_to_move: aec._legal}
        else:
            self._masks = {seat: aec.table.legal(state, seat) for seat in seats}

    def _observations(self, agents: Sequence[str]) -> dict[str, dict[str, np.ndarray]]:
        """Each of ``agents``' observation vector and the mask of its legal actions now (all zeros if none)."""
        state, aec = self.aec.game_state, self.aec
        seen = {}
        for agent in agents:
            seat = aec.seat_of[agent]
            mask = np.zeros(len(aec.table), dtype=np.int8)
            mask[list(self._masks.get(seat, ()))] = 1
            seen[agent] = {"observation": aec.encoder.encode(state.observation(seat)), "action_mask": mask}
        return seen

    def state(self) -> np.ndarray:
        """Every seat's observation vector, seat 1's first (:meth:`RulecraftEnv.state`)."""
        self._check_started("state")
        return self.aec.state()

    def _check_started(self, what: str) -> None:
        """Refuse ``what`` before the first reset() (a RuntimeError saying to call it), or once closed."""
        if not self._started:
            raise RuntimeError(f"reset() needs to be called before {what}(): there is no game yet")
        self.aec._check_open()

    def render(self) -> str | None:
        """The last actions and who decides next (:meth:`RulecraftEnv.render`)."""
        return self.aec.render()

    def close(self) -> None:
        """Close the AEC environment under it; no agent is left."""
        self.aec.close()
        self.agents = []

    @property
    def unwrapped(self) -> "RulecraftParallelEnv":
        """This environment itself (PettingZoo's API: no wrapper around it)."""
        return self

    @property
    def game(self) -> Game:
        """The compiled game played (:attr:`RulecraftEnv.game`)."""
        return self.aec.game

    @property
    def table(self) -> ActionTable:
        """The action table: ``table.describe(i)`` is the text of action ``i`` (:attr:`RulecraftEnv.table`)."""
        return self.aec.table

    @property
    def encoder(self) -> Encoder:
        """The observation vector's layout: ``encoder.split(vector)`` (:attr:`RulecraftEnv.encoder`)."""
        return self.aec.encoder

    @property
    def game_state(self) -> State | None:
        """The engine's state of the game being played (None before reset()): ``game_state.returns()``."""
        return self.aec.game_state

    @property
    def game_seed(self) -> int | None:
        """The seed of the game being played (:attr:`RulecraftEnv.game_seed`)."""
        return self.aec.game_seed


def _parallel(make: Callable[P, RulecraftEnv]) -> Callable[P, RulecraftParallelEnv]:
    """A function taking ``make``'s parameters that returns the parallel form of its environment."""

    def parallel_env(*args: P.args, **kwargs: P.kwargs) -> RulecraftParallelEnv:
        """The parallel environment of a ruleset (a built-in name, a path or a compiled game); the parameters are
        :class:`RulecraftEnv`'s.

        Example: ``parallel_env("my-game", players=3, variant="short")``
        """
        return RulecraftParallelEnv(make(*args, **kwargs))

    parallel_env.__signature__ = inspect.signature(make).replace(  # type: ignore[attr-defined]
        return_annotation=RulecraftParallelEnv)
    return parallel_env


parallel_env = _parallel(RulecraftEnv)
