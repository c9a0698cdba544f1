"""What steps keep or work out once between decisions gives what working it out afresh gives.

A commit step lists the next decision as it applies one; a contest reads a strength that is one printed attribute
from the attribute's table; a game keeps the places of the roles it deals per player count.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.blocks.contest_rules import ContestRules
from engine.core.actions import EachSpace


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.load("nine-domains")


def _positions(game: engine.Game, games: int = 5) -> list[engine.State]:
    """Every position of a few random games."""
    found = []
    for seed in range(games):
        s, choose = game.new_state(players=2, seed=seed), random.Random(seed)
        while s.outcome is None:
            found.append(s.clone())
            s.play(choose.randrange(len(s.legal_actions())))
    return found


def test_listed_commits_are_the_ones_worked_out_afresh(game: engine.Game) -> None:
    for s in _positions(game):
        kept = s.legal_actions().all_args()
        assert game.steps[s.step].actions(s).all_args() == kept or s.pending is not None or s.decisions
        assert s.clone().legal_actions().all_args() == kept
        assert game.state_from_json(s.to_json()).legal_actions().all_args() == kept


def test_each_space_is_a_list_of_its_arguments() -> None:
    space = EachSpace("step", (3, 5, 8), (1,))
    assert [a.args for a in space] == space.all_args() == [(3, 1), (5, 1), (8, 1)]
    assert [space.args_at(i) for i in range(len(space))] == space.all_args()
    assert space[-1].args == (8, 1) and [a.args for a in space[1:]] == [(5, 1), (8, 1)]
    assert space[0] in space and not space.contains_args((3, 2)) and not space.contains_args((3,))


def test_strength_table_reads_what_the_expression_gives(game: engine.Game) -> None:
    rules = game.parts["contest"]
    assert isinstance(rules, ContestRules) and rules.strength_table is not None
    s = game.new_state(players=2, seed=1)
    for c in range(len(game.component_names)):
        env = [None] * rules.strength_slots
        env[0] = c
        assert rules._strength_of(s, c) == rules.strength(s, env)


@pytest.mark.parametrize("name", engine.builtin_names())
def test_deal_places_are_worked_out_once(name: str) -> None:
    game = engine.load(name)
    for players in game.player_counts:
        groups, places = game._deal_places(players)
        again = game._deal_places(players)
        assert again[1] is places and again[0] == groups and again[0] is not groups
        assert game.roles is not None
        assert places == [tuple(game.roles.values.index(r) for r in group) for group in groups]
