"""The game log: a saved game as its ruleset, variants, players, seed and actions in text form.

``rulecraft play`` writes it (``save FILE``, ``--log FILE``) and reads it
(``--load``); ``rulecraft replay`` plays it back.  Replaying the actions on a
new state rebuilds the game exactly, because the engine is deterministic::

    {"ruleset": "my-game", "variant": [], "players": 2, "seed": 0,
     "actions": ["place A at 0,0", ...]}

>>> log = GameLog.from_json({"ruleset": "my-game", "variant": "short+fast", "players": 2, "seed": 4}, "<test>")
>>> log.variant, log.actions
(['short', 'fast'], [])
>>> GameLog.from_json({"ruleset": "my-game", "players": "two", "seed": 4}, "log.json")
Traceback (most recent call last):
engine.savefile.SaveError: log.json: 'players' must be a number, not 'two'

Replaying: ``game, state = log.start(); replay(state, log.actions)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import engine
from engine.errors import IllegalActionError
from engine.game import Game
from engine.paths import builtin_names, find_ruleset
from engine.savefile import SaveError
from engine.state import State


@dataclass
class GameLog:
    """A game that can be replayed: what to load, how to start it, and the actions taken."""

    ruleset: str
    variant: list[str]
    players: int
    seed: int
    actions: list[str] = field(default_factory=list)
    base: Path | None = None  # a relative ruleset path is looked for here first

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "variant": list(self.variant),
            "players": self.players,
            "seed": self.seed,
            "actions": list(self.actions),
        }

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> "GameLog":
        """Read a log file; raises SaveError naming the problem."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise SaveError(f"{path}: cannot read the game log ({err.strerror})") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise SaveError(f"{path}: not a JSON game log ({err})") from None
        log = cls.from_json(data, str(path))
        log.base = path.resolve().parent
        return log

    @classmethod
    def from_json(cls, data: Any, where: str) -> "GameLog":
        """Check the shape of a log; raises SaveError naming the bad field."""
        if not isinstance(data, dict):
            raise SaveError(f"{where}: a game log is a JSON object with 'ruleset', 'players', 'seed' and 'actions'")
        variant = data.get("variant") or []
        if isinstance(variant, str):
            variant = [v for v in variant.split("+") if v]
        return cls(
            ruleset=_field(data, "ruleset", str, where),
            variant=_strings(variant, "variant", where),
            players=_field(data, "players", int, where),
            seed=_field(data, "seed", int, where),
            actions=_strings(data.get("actions", []), "actions", where),
        )

    def start(self) -> tuple[Game, State]:
        """Load the ruleset and make the starting state (recording its log and history)."""
        game = engine.load(find_ruleset(self.ruleset, relative_to=self.base), self.variant)
        return game, game.new_state(players=self.players, seed=self.seed, record=True)


def ruleset_ref(name_or_path: str) -> str:
    """How a log names a ruleset: a built-in by name, anything else by absolute path."""
    if name_or_path in builtin_names():
        return name_or_path
    return str(find_ruleset(name_or_path).resolve())


def replay(state: State, actions: list[str], each: Callable[[int, str, int], None] | None = None) -> None:
    """Apply the actions in order, calling ``each(number, text, seat)`` after each one.

    An action that is not legal raises SaveError with its number and the reason.
    """
    for number, text in enumerate(actions, 1):
        seat = state.current_player
        try:
            state.apply(text)
        except IllegalActionError as err:
            raise SaveError(f"action {number} '{text}' cannot be replayed: {err}") from None
        if each is not None:
            each(number, text, seat)


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveError(f"{where}: '{key}' must be {'a number' if kind is int else 'a string'}, not {value!r}")
    return value


def _strings(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SaveError(f"{where}: '{key}' must be a list of strings")
    return list(value)
