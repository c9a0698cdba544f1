"""A state is made in one place, ``State.__init__``: a new game, a clone, a save read back and a scenario's position."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.model.state import State
from engine.runner.scenario import load_scenario, set_up

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def made(monkeypatch: pytest.MonkeyPatch) -> list[State]:
    """Every state ``State.__init__`` makes while the test runs."""
    states: list[State] = []
    init = State.__init__

    def counted(self: State, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        states.append(self)

    monkeypatch.setattr(State, "__init__", counted)
    return states


def test_new_games_clones_and_saves_are_made_by_the_constructor(made: list[State]) -> None:
    game = engine.load("tutorial-tiles")  # loading tries the setup: states are made
    made.clear()
    fresh = game.new_state(players=2, seed=3)
    fresh.apply(fresh.legal_actions()[0])
    copy = fresh.clone()
    loaded = game.state_from_json(fresh.to_json())
    assert [any(m is s for m in made) for s in (fresh, copy, loaded)] == [True, True, True]
    assert copy == fresh == loaded


def test_a_scenario_position_is_made_by_the_constructor(made: list[State]) -> None:
    scenario = load_scenario(ROOT / "rulesets" / "breakthrough" / "scenarios" / "a-diagonal-capture.yaml")
    made.clear()
    state = set_up(scenario.game, scenario.doc, scenario.doc["position"])
    assert any(m is state for m in made) and state.grid, "the position's state comes from the constructor"


def test_nothing_makes_a_state_behind_the_constructor() -> None:
    found = []
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("cli/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("__new__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert [f for f in found if "State" in f] == []


@pytest.mark.parametrize("name", ["nine-domains", "tic-tac-toe", "spell-cycles"])
def test_a_clone_holds_zones_of_its_own(name: str) -> None:
    """A clone copies every zone's list (in C, one call for them all): emptying each of the clone's zones leaves the
    original's as they were, and a fresh clone still equals the original."""
    import random

    game = engine.load(name)
    s, choose = game.new_state(players=2, seed=4), random.Random(4)
    for _ in range(4):
        s.play(choose.randrange(len(s.legal_actions())))
    before = [list(z) for z in s.zones]
    copy = s.clone()
    assert copy.zones == s.zones and all(a is not b for a, b in zip(copy.zones, s.zones))
    for zone in copy.zones:
        zone.clear()
    assert s.zones == before and s.clone() == s
