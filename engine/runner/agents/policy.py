"""``policy:FILE``: the legal action a saved table of action values values most.

See :class:`PolicyAgent` for the file's format and docs/rl.md for writing one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from engine.core.actions import Action
from engine.core.confine import FileRefused, read_bytes
from engine.core.errors import RulecraftError
from engine.core.showtext import cut
from engine.runner.agents.registry import Agent, agent_kind
from engine.runner.agents.seats import refuse_no_seat

if TYPE_CHECKING:
    from engine.model.game import Game
    from engine.model.state import State


POLICY_FORMAT = "rulecraft-policy"
"""The ``format`` a policy file declares."""

POLICY_MAX_BYTES = 20 * 1024 * 1024
"""Policy files larger than this are refused unread (a shipped game's whole action table takes under 1 MB)."""


class PolicyAgent:
    """Plays the legal action with the highest value in a table of action texts; ties are broken at random.

    A policy file is JSON: ``{"format": "rulecraft-policy", "ruleset": NAME,
    "default": V, "values": {"ACTION TEXT": VALUE, ...}}``; an action the table
    does not name is valued ``default``.  An action may be named by its text or
    by the shorter text the action table of :mod:`engine.rl` lists it as
    (:attr:`engine.blocks.enumeration.Texts.canonical`), so a policy written from that
    table's texts values every action it learned.  It decides from the seat's
    own legal actions only.

    >>> agent = PolicyAgent({"pick b": 1.0}, default=0.0, rng=random.Random(0))
    >>> agent.best(["pick a", "pick b"])
    'pick b'
    """

    name = "policy"

    def __init__(self, values: dict[str, float], default: float, rng: random.Random, ruleset: str | None = None) -> None:
        self.values = values
        self.default = default
        self.rng = rng
        self.ruleset = ruleset  # the ruleset the policy was written for (None: any)
        self._game: Any = None
        self._shortening: dict[int, Callable[[str], str] | None] = {}

    def best(self, texts: list[str]) -> str:
        """The most valued of ``texts`` (a random one of the best when several tie)."""
        value = self.values.get
        top = max(value(t, self.default) for t in texts)
        best = [t for t in texts if value(t, self.default) == top]
        return best[self.rng.randrange(len(best))]

    def choose(self, state: "State") -> "Action":
        """The legal action whose text the policy values highest (ties broken at random)."""
        refuse_no_seat(state, self.name)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the policy agent was asked to move with no legal action")
        if self.ruleset is not None and self.ruleset != state.game.name:
            raise RulecraftError(f"the policy file was written for the ruleset {cut(self.ruleset, 80)}, not {state.game.name} "
                             "(its 'ruleset' names the game whose action texts it values)")
        texts = [self.named(state, a) for a in actions]
        return actions[texts.index(self.best(texts))]

    def named(self, state: "State", action: "Action") -> str:
        """The text the policy names ``action`` by: its own, else its shortened one if the policy names that."""
        text = str(action)
        if text in self.values:
            return text
        shorten = self._shorten(state.game, action.step.index)
        return shorten(text) if shorten is not None and shorten(text) in self.values else text

    def _shorten(self, game: "Game", step: int) -> Callable[[str], str] | None:
        """How the action table shortens the texts of ``step`` (-1: the answers to ``choose``), kept per game."""
        from engine.blocks.enumeration import choice_texts

        if game is not self._game:
            self._game, self._shortening = game, {}
        if step not in self._shortening:
            texts = choice_texts(game) if step < 0 else game.steps[step].action_texts(game)
            self._shortening[step] = texts.canonical
        return self._shortening[step]


def read_policy(path: str) -> tuple[dict[str, float], float, str | None]:
    """The action values, default value and ruleset (None when not named) of a policy file; ValueError says what is
    wrong with it."""
    try:
        raw = read_bytes(Path(path), POLICY_MAX_BYTES, "policy file")  # a regular file only: never /dev/zero or a FIFO
    except FileRefused as err:
        raise ValueError(str(err)) from None
    except OSError as err:
        raise ValueError(f"cannot read the policy file {path}: {err.strerror or err}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:  # JSONDecodeError is a ValueError
        raise ValueError(f"{path} is not a policy file (not JSON: {err})") from None
    except RecursionError:
        raise ValueError(f"{path} is not a policy file (its JSON nests too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != POLICY_FORMAT:
        raise ValueError(f"{path} is not a policy file (it should say \"format\": \"{POLICY_FORMAT}\")")
    values, default = data.get("values"), data.get("default", 0.0)
    def number(value: object) -> bool:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:  # NaN
            return False
        try:
            float(value)
        except OverflowError:  # a whole number of hundreds of digits
            return False
        return True

    if not isinstance(values, dict) or not all(number(v) for v in values.values()) or not number(default):
        raise ValueError(f"{path}: 'values' should map action texts to numbers, and 'default' be a number")
    ruleset = data.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise ValueError(f"{path}: 'ruleset' should be the name of the ruleset the policy was written for")
    return {str(k): float(v) for k, v in values.items()}, float(default), ruleset


@agent_kind("policy", "policy:FILE")
def _policy(argument: str | None, rng: random.Random) -> Agent:
    if not argument:
        raise ValueError("agent 'policy' needs a policy file: policy:FILE (see docs/rl.md)")
    values, default, ruleset = read_policy(argument)
    return PolicyAgent(values, default, rng, ruleset)
