"""An exchange's ``when`` that reads only the winner's printed attributes is worked out once per component and face."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.blocks.exchange import Exchange
from engine.runner.simulate import derive_seed


def _exchanges(game: engine.Game) -> list[Exchange]:
    return [step for step in game.steps if isinstance(step, Exchange)]


def test_the_winners_a_kept_when_lets_decide_are_those_the_code_lets_decide() -> None:
    # every two cards, in random positions of random games: the kept answers give the pairs the code gives
    game = engine.load("nine-domains")
    steps, choose = _exchanges(game), random.Random(3)
    assert steps and all(step.when_alone is not None for step in steps)
    cards = game.kinds["card"]
    pairs = tuple((a, b) for a in cards for b in cards if a != b)
    for i in range(15):
        s = game.new_state(players=2, seed=derive_seed(4, i))
        while s.outcome is None:
            for step in steps:
                expected = tuple(p for p in pairs if step.when(s, step._env(p)))
                assert step._holding(s, pairs, step.when_alone) == expected
            s.play(choose.randrange(len(s.legal_actions())))


@pytest.mark.parametrize("when, alone", [
    ('self.id == "2-"', True),
    ('self.value > 2 and self.special', True),
    ('self.id == "2-" and other.value > 2', False),    # the beaten one too: kept per pair instead
    ("count(c in hand(owner(self))) > 2", False),      # the state: never kept
])
def test_only_a_when_reading_the_winner_alone_is_kept_per_component(tmp_path: Path, when: str, alone: bool) -> None:
    (tmp_path / "swap").mkdir()
    (tmp_path / "swap" / "ruleset.yaml").write_text(
        "name: swap\nextends: nine-domains\nturn:\n  - commit: {from: hand, to: sealed}\n"
        "  - reveal: {from: sealed, to: played}\n"
        "  - contest: {in: played, prizes: [pile1, pile2, pile3], to: won, void: discard, strength: c.value, ties: [bonus]}\n"
        f"  - exchange: {{when: '{when}', give: won(owner(self)), take: won(owner(other))}}\n")
    step, = _exchanges(engine.load(str(tmp_path / "swap" / "ruleset.yaml")))
    assert (step.when_alone is not None) == alone
