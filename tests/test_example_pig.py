"""Pig (docs/examples/pig) played beside OpenSpiel's ``pig(winscore=30)``, the same dice given to both: the same
player to move, roll or bank (OpenSpiel's ``stop``) offered alike, the same end and winner.  OpenSpiel also offers
``stop`` before a turn's first roll, banking nothing; ours rolls at once (every turn starts with a roll), so that first
roll is played there for it.  And once the pot would bring a player to the goal, OpenSpiel offers only ``stop``;
ours lets them roll on (the rules do not forbid it), and the test banks there.  Its scenarios and random games are tested with the other genres'
(tests/test_example_genres.py)."""

from __future__ import annotations

import random

from tests.oracle import EXAMPLES, needs_oracle, pyspiel
from tests.conftest import shipped_game


@needs_oracle
def test_pig_plays_as_openspiels() -> None:
    """60 random games of two players to 30, the dice drawn first and loaded in both games."""
    game, theirs = shipped_game(str(EXAMPLES / "pig")), pyspiel.load_game("pig(winscore=30)")
    winners, lengths = set(), []
    for seed in range(60):
        rng = random.Random(seed)
        dice = [rng.randint(1, 6) for _ in range(600)]
        ours, their, rolled, moves = game.new_state(players=2, seed=seed, dice=tuple(dice)), theirs.new_initial_state(), 0, 0
        while not their.is_terminal():
            if their.is_chance_node():
                their.apply_action(dice[rolled] - 1)
                rolled += 1
                continue
            names = {their.action_to_string(their.current_player(), a): a for a in their.legal_actions()}
            if "Turn total: 0" in str(their):
                their.apply_action(names["roll"])  # a turn's first roll, ours without asking
                continue
            assert not ours.is_terminal and ours.current_player - 1 == their.current_player(), (seed, str(their))
            assert sorted(ours.legal_actions().texts()) == ["choose bank", "choose roll"]
            seen = ours.observation(ours.current_player)["counters"]
            reached = seen["banked"][f"seat{ours.current_player}"] + seen["pot"] >= 30
            assert sorted(names) == (["stop"] if reached else ["roll", "stop"]), (seed, str(their))
            move = "bank" if reached else rng.choice(["roll", "bank"])
            ours.apply(f"choose {move}")
            their.apply_action(names["roll" if move == "roll" else "stop"])
            moves += 1
        assert ours.is_terminal and ours.returns() == [1.0 if r > 0 else 0.0 for r in their.returns()], (seed, str(their))
        winners.add(ours.returns().index(1.0))
        lengths.append(moves)
    assert winners == {0, 1} and max(lengths) > 20
