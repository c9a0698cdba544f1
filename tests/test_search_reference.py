"""The MCTS agent against a plain reference search written here: the same statistics and choices, seed for seed.

The agent plays each edge of its tree once and keeps the positions it
reaches, keeps one tree for all seats where they see the same history, keeps
each position's children in a list, pauses the garbage collector, ...  The
reference does none of that: every iteration copies the determinization and
applies ``Action`` objects all the way down, with one tree per seat, as
written in :class:`engine.runner.agents.MultiObserverSearch`'s docstring
(MO-ISMCTS on one determinization).  Both draw the same random numbers in the
same order, so any change to the agent's search that is meant to be only
faster must leave every visit count and total of every seat's tree equal to
the reference's.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from engine.core.decisions import CHANCE
from engine.core.information import determinize
from engine.model.state import State
from engine.runner.agents import DEFAULT_EXPLORATION, MCTSAgent, estimated_returns, make_agent
from tests.conftest import shipped_game


class Node:
    """A node of one seat's tree in the reference search."""

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[Any, Node] = {}


def child(node: Node, key: Any) -> Node:
    return node.children.setdefault(key, Node())


def reference_trees(state: State, iterations: int, seed: int, c: float = DEFAULT_EXPLORATION) -> list[Node]:
    """Every seat's tree (index 0 unused) after ``iterations`` of MO-ISMCTS on one determinization, done plainly."""
    rng = random.Random(seed)
    rand = rng.random
    sample = determinize(state, state.seat_to_move, rng)
    trees = [Node() for _ in range(state.players + 1)]
    seats = range(1, state.players + 1)

    def draw(s: State) -> Any:  # a chance result by its probability
        outcomes, x = s.chance_outcomes(), rand()
        for action, p in outcomes:
            x -= p
            if x < 0:
                return action
        return outcomes[-1][0]

    for _ in range(iterations):
        s, nodes = sample.clone(), trees[:]
        paths: list[list[tuple[Node, int]]] = [[] for _ in trees]
        expanded = False
        while s.outcome is None and not expanded:
            if s.chance is not None:
                action = draw(s)
                hidden, seer = s.chance.hidden, s.chance.seer
                for seat in seats:
                    nodes[seat] = child(nodes[seat], (CHANCE, action.args) if not hidden or seat == seer else (CHANCE, ()))
                s.apply(action)
                continue
            mover, space = s.seat_to_move, s.legal_actions()
            keys = [(space.step.index, action.args) for action in space]
            found = [nodes[mover].children.get(key) for key in keys]
            untried = [i for i, node in enumerate(found) if node is None]
            expanded = bool(untried)
            if expanded:
                index = untried[int(rand() * len(untried))]
            else:
                scores = []
                for node in found:
                    assert node is not None
                    node.available += 1
                    scores.append(node.total / node.visits + c * math.sqrt(math.log(node.available) / node.visits))
                index = scores.index(max(scores))
            action = space[index]
            public = (action.step.index, (action.step.public_format(action.args),)) if action.step.sealed else keys[index]
            for seat in seats:
                nodes[seat] = child(nodes[seat], keys[index] if seat == mover else public)
                paths[seat].append((nodes[seat], mover))
            s.apply(action)
        moves = 0
        while s.outcome is None and moves < 1000:  # the rollout
            s.apply(draw(s) if s.chance is not None else s.legal_actions()[int(rand() * len(s.legal_actions()))])
            moves += 1
        returns = estimated_returns(s)
        for path in paths:
            for node, mover in path:
                node.visits += 1
                node.total += returns[mover - 1]
    return trees


def statistics(node: Any, seat: int, depth: int) -> dict[Any, Any]:
    """A tree's visits and totals to ``depth``, as nested dicts; a node the agent keeps for all seats is followed
    into ``seat``'s own part where it splits."""
    if getattr(node, "seats", None) is not None:
        node = node.seats[seat]
    return {key: (child.visits, child.total, statistics(child, seat, depth - 1) if depth > 1 else None)
            for key, child in node.children.items()}


def load(name: str) -> engine.Game:
    """A shipped ruleset, compiled once per test process and shared with the other modules' tests of it."""
    return shipped_game(name)


RULESETS = [("tic-tac-toe", 2), ("connect-four", 2), ("iconoclasm-cards", 4), ("nine-domains", 2), ("sealed-tiles", 2),
            ("tutorial-tiles", 3), ("kuhn-poker", 2), ("liars-dice", 2), ("banner-clash", 3)]


def position(name: str, players: int, seed: int, moves: int, chance: bool) -> State:
    """A position of a random game after about ``moves`` actions where the seat to move has a choice (dice rolled
    as CHANCE decisions with ``chance``)."""
    state = load(name).new_state(players=players, seed=seed, explicit_chance=chance)
    choose = random.Random(seed)
    while state.outcome is None and (moves > 0 or state.chance is not None or len(state.legal_actions()) < 2):
        state.play(choose.randrange(len(state.legal_actions())))
        moves -= 1
    return state


@pytest.mark.parametrize("name, players", RULESETS)
@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**16), st.integers(0, 30), st.booleans(), st.integers(0, 2**16))
def test_mcts_grows_the_reference_trees(name: str, players: int, seed: int, moves: int, chance: bool, agent_seed: int) -> None:
    state = position(name, players, seed, moves, chance)
    assume(state.outcome is None)
    iterations = 40
    agent = make_agent(f"mcts:{iterations}", agent_seed)
    assert isinstance(agent, MCTSAgent)
    trees, done = agent.grow(state, lambda i: i < iterations)
    expected = reference_trees(state, iterations, agent_seed)
    assert done == iterations
    for seat in range(1, players + 1):
        assert statistics(trees[seat], seat, 6) == statistics(expected[seat], seat, 6), f"seat {seat}"
    reference_choice = max(expected[state.seat_to_move].children.items(), key=lambda kv: (kv[1].visits, kv[1].total))[0]
    chosen = make_agent(f"mcts:{iterations}", agent_seed).choose(state)
    assert (chosen.step.index, chosen.args) == reference_choice


def test_the_logarithms_a_search_reads_are_math_log_s_and_cover_every_availability_count() -> None:
    """UCB reads each availability count's logarithm from a list the search keeps (no call per child): the very
    values ``math.log`` gives, listed beyond the most iterations run (a child is available once an iteration)."""
    state = position("tic-tac-toe", 2, 1, 2, False)
    agent = make_agent("mcts:3000", 5)
    assert isinstance(agent, MCTSAgent)
    trees, done = agent.grow(state, lambda i: i < 3000)
    logs = agent._logs
    assert done == 3000 and len(logs) > done + 2
    assert all(logs[n] == math.log(n) for n in range(1, len(logs)))

    def availability(node: Any) -> int:
        return max([node.available, *(availability(child) for child in node.children.values())])

    assert availability(trees[1]) < len(logs)
    fresh = make_agent("mcts:200", 6)
    fresh.choose(state)
    assert fresh._logs is logs  # listed once for every search: a fresh agent (one per decision) lists nothing again
