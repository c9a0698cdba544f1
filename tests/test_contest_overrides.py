"""Overrides (``beats`` / ``loses_to``) are looked up only for a pair where a fighter carries override code."""

from __future__ import annotations

import engine
from engine.blocks.contest_rules import NO_OVERRIDES, ContestRules


def _rules(game: engine.Game) -> ContestRules:
    rules = game.parts["contest"]
    assert isinstance(rules, ContestRules)
    return rules


def test_the_components_carrying_override_code_are_known_when_compiled() -> None:
    game = engine.load("nine-domains")
    rules = _rules(game)
    carrying = {game.component_names[c] for c, flag in enumerate(rules.overriding) if flag}
    expected = {game.component_names[c] for c in range(len(game.component_names))
                if rules.beats.fns[c] is not None or rules.loses_to.fns[c] is not None}
    assert carrying == expected and 0 < len(carrying) < len(game.component_names)


def test_every_pair_gets_the_overrides_its_code_gives_and_a_pair_without_code_keeps_nothing() -> None:
    # every pair of components: the answer is the code's; a pair of which neither carries code adds no kept pair
    game = engine.load("nine-domains")
    rules, s = _rules(game), game.new_state(players=2, seed=3)
    n = len(game.component_names)
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            kept = len(rules.overrides_known)
            assert rules._overrides(s, a, b) == rules._override_code(s, a, b)
            if not (rules.overriding[a] or rules.overriding[b]):
                assert rules._overrides(s, a, b) is NO_OVERRIDES and len(rules.overrides_known) == kept
