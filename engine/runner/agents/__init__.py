"""Agents: who chooses an action when it is a seat's turn.

An agent decides only from what its seat may see: it plans on a
determinization (:func:`engine.core.information.determinize`) of the state, never
on the hidden parts of the real one.  Agents are made from short spec strings,
``name`` or ``name:argument``; each name is registered with :func:`agent_kind`
(with the forms it accepts, for error messages), so new agents slot in without
touching the parser.

* ``random``: a uniformly random legal action;
* ``greedy``: one ply, scored with the ruleset's ``running_score`` (or short
  random rollouts when the ruleset declares none, at most :data:`GREEDY_DEPTH`
  actions each, or D with ``greedy:depth=D``, and :data:`GREEDY_WORK` in all
  a decision, or N with ``greedy:work=N``);
* ``mcts:N`` / ``mcts:Ts``: UCT with random rollouts on one determinization,
  N iterations or T seconds per decision (``mcts:400``, ``mcts:0.5s``);
* ``ismcts:N`` / ``ismcts:Ts``: information-set MCTS, a fresh determinization
  every iteration — the search that suits games with hidden information
  (:func:`default_search`).
* ``policy:FILE``: the legal action a saved policy (JSON, see
  :class:`PolicyAgent`) values most, e.g. one trained with :mod:`engine.rl`.

Both searches keep one tree per seat, each holding the game as that seat
observed it (:class:`MultiObserverSearch`), so a sealed decision — a card
committed face down, revealed later with the others — is searched as
simultaneous: no seat's choice depends on another's sealed choice.

Both searches take an exploration constant as ``:c=C`` (``mcts:400:c=2``), and
the most random actions a rollout plays as ``:depth=D`` (``mcts:200:depth=60``;
default :data:`ROLLOUT_CAP`): a rollout cut off there scores the position by the
ruleset's ``running_score`` (the leading seats share the win), or as a draw
among all seats when the ruleset declares none.  Long games (thousands of
actions) need a depth to be searched in reasonable time.
In a game created with ``explicit_chance=True`` they, and the random rollouts,
draw each chance event's result by its probability (``state.chance_outcomes()``);
the results are edges every seat's tree shares.

Example::

    state = engine.load("my-game").new_state(players=2, seed=7)
    agent = make_agent("mcts:50", seed=1)
    action = agent.choose(state)          # decided from what seat to move may see

>>> make_agent("oracle", seed=0)
Traceback (most recent call last):
ValueError: unknown agent 'oracle'; known agents: random, greedy, mcts:N, mcts:Ts, ismcts:N, ismcts:Ts, policy:FILE (searches also take :c=C and :depth=D, e.g. mcts:400:c=2:depth=60)

The package's modules, each importing only those above it: :mod:`.registry`
(the kinds and the :class:`Agent` protocol), :mod:`.seats` (who plays which
seat, simultaneous decisions), :mod:`.rollouts` (random playouts and their
returns), :mod:`.random_agent`, :mod:`.greedy`, :mod:`.search_specs` (budgets
and spec parsing), :mod:`.search` (MCTS and ISMCTS) and :mod:`.policy`.  This
module hands their public names on.
"""

from __future__ import annotations

from engine.runner.agents.registry import Agent, AgentFactory, AGENT_KINDS, AGENT_FORMS, agent_kind, kinds_only_here, make_agent
from engine.runner.agents.seats import assign_seats, choose_for_seat, default_search, joint_choice, refuse_no_seat
from engine.runner.agents.rollouts import ROLLOUT_CAP, estimated_returns, play_out, rollout, sample_chance
from engine.runner.agents.random_agent import RandomAgent
from engine.runner.agents.greedy import GREEDY_DEPTH, GREEDY_WORK, GreedyAgent
from engine.runner.agents.search_specs import DEFAULT_EXPLORATION, DEFAULT_ITERATIONS, Budget, SearchAgent, SearchSpec
from engine.runner.agents.search import ISMCTSAgent, MCTSAgent, MultiObserverSearch
from engine.runner.agents.policy import POLICY_FORMAT, PolicyAgent, read_policy

__all__ = [
    "Agent",
    "AgentFactory",
    "AGENT_KINDS",
    "AGENT_FORMS",
    "agent_kind",
    "kinds_only_here",
    "make_agent",
    "assign_seats",
    "choose_for_seat",
    "default_search",
    "joint_choice",
    "refuse_no_seat",
    "ROLLOUT_CAP",
    "estimated_returns",
    "play_out",
    "rollout",
    "sample_chance",
    "RandomAgent",
    "GREEDY_DEPTH",
    "GREEDY_WORK",
    "GreedyAgent",
    "DEFAULT_EXPLORATION",
    "DEFAULT_ITERATIONS",
    "Budget",
    "SearchAgent",
    "SearchSpec",
    "ISMCTSAgent",
    "MCTSAgent",
    "MultiObserverSearch",
    "POLICY_FORMAT",
    "PolicyAgent",
    "read_policy",
]
