"""A stateful fuzz of play: actions, undo, save and load, replay, observation and clone, for every shipped ruleset.

Hypothesis drives a game of each shipped ruleset (a variant and a player
count drawn too) through any sequence of:

- **play** a legal action (chosen by index);
- **undo** the last one to three actions (as ``rulecraft play`` does: the
  history replayed from the start) — the position must be the one reached
  then;
- **save and load** through JSON text — the same position, the same legal
  actions, and play goes on from the loaded state exactly as from the
  original;
- **replay** the game written as a log file and read back — the same
  position, checked action by action against the recorded hashes;
- **observe** from every seat — JSON-ready, and the state unchanged;
- **clone** and play on the clone — the original unchanged.

After every step the engine's own guarantees hold (``assert_consistent``).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from campaign import examples
from conftest import shipped_game
from engine.core.compose import variant_names
from engine.core.paths import builtin_names, find_ruleset
from engine.model.state import State
from engine.runner.replay import Replay, replay
from test_invariants import assert_consistent

pytestmark = pytest.mark.fuzz


def text_round_trip(data: Any) -> Any:
    """``data`` written as JSON text and read back, as a file would carry it."""
    return json.loads(json.dumps(data))


class PlayMachine(RuleBasedStateMachine):
    """Play, undo, save, load, replay, observe and clone one game of ``ruleset``."""

    ruleset = ""
    examples_started = 0  # counted per ruleset, for benchmarks/fuzz.py

    @initialize(data=st.data(), seed=st.integers(0, 2**31 - 1))
    def start(self, data: st.DataObject, seed: int) -> None:
        type(self).examples_started += 1
        self.variant = data.draw(st.sampled_from([None, *variant_names(find_ruleset(self.ruleset))]), label="variant")
        self.game = shipped_game(self.ruleset, self.variant)
        self.players = data.draw(st.sampled_from(self.game.player_counts), label="players")
        self.seed = seed
        self.state = self.fresh()
        self.positions = [self.state.to_json()]  # the position at the start and after each action

    def fresh(self) -> State:
        return self.game.new_state(players=self.players, seed=self.seed, record=True)

    @property
    def history(self) -> list[str]:
        return list(self.state.history or [])

    @precondition(lambda self: not self.state.is_terminal)
    @rule(choice=st.integers(0, 10**6))
    def play(self, choice: int) -> None:
        legal = self.state.legal_actions()
        assert len(legal) > 0, "a game in progress has something to decide"
        self.state.apply(legal[choice % len(legal)])
        self.positions.append(self.state.to_json())

    @precondition(lambda self: bool(self.state.history))
    @rule(steps=st.integers(1, 3))
    def undo(self, steps: int) -> None:
        kept = self.history[: max(0, len(self.history) - steps)]
        state = self.fresh()
        replay(state, kept)
        assert state.to_json() == self.positions[len(kept)]
        self.state, self.positions = state, self.positions[: len(kept) + 1]

    @rule(choice=st.integers(0, 10**6))
    def save_and_load(self, choice: int) -> None:
        saved = text_round_trip(self.state.to_json())
        loaded = self.game.state_from_json(saved)
        assert loaded.to_json() == self.state.to_json()
        assert loaded.is_terminal == self.state.is_terminal
        if not self.state.is_terminal:
            legal = [str(a) for a in self.state.legal_actions()]
            assert [str(a) for a in loaded.legal_actions()] == legal
            going_on = self.state.clone()
            action = legal[choice % len(legal)]
            going_on.apply(action)
            loaded.apply(action)
            assert loaded.to_json() == going_on.to_json()

    @rule()
    def replay_the_log(self) -> None:
        log = Replay.record(self.state, self.ruleset, self.seed)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "game.json"
            log.write(path)
            again = Replay.read(path)
        _, state = again.start()
        again.play(state)
        assert state.to_json() == self.state.to_json()
        assert state.history == self.state.history

    @rule()
    def observe(self) -> None:
        before = self.state.to_json()
        for seat in range(1, self.players + 1):
            json.dumps(self.state.observation(seat))
        assert self.state.to_json() == before

    @precondition(lambda self: not self.state.is_terminal)
    @rule(choice=st.integers(0, 10**6))
    def clone_and_play(self, choice: int) -> None:
        before = self.state.to_json()
        copy = self.state.clone()
        legal = copy.legal_actions()
        copy.apply(legal[choice % len(legal)])
        assert_consistent(copy, live=not copy.is_terminal)
        assert self.state.to_json() == before

    @invariant()
    def consistent(self) -> None:
        if hasattr(self, "state"):
            assert_consistent(self.state, live=not self.state.is_terminal)


def machine_for(name: str) -> type[RuleBasedStateMachine]:
    machine = type(f"Play_{name.replace('-', '_')}", (PlayMachine,), {"ruleset": name})
    machine.TestCase.settings = settings(max_examples=examples(5), stateful_step_count=20)
    machine.TestCase.machine = machine
    return machine


for _name in builtin_names():
    globals()[f"TestPlay_{_name.replace('-', '_')}"] = machine_for(_name).TestCase
