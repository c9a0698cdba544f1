"""A PettingZoo AEC environment for any ruleset, variant, options and player count.

Agents are ``player_1`` .. ``player_N`` (seat 1 is ``player_1``).  The agent
selected is always the seat the engine says decides next, so sealed,
simultaneous decisions are submitted one seat after the other and stay
hidden from the others until the ruleset reveals them (the engine's
observation hides them).  Chance (shuffles, dice) happens inside the engine,
from the seed given to :meth:`RulecraftEnv.reset`.

* action space: ``Discrete(n)`` over the game's fixed action table
  (:mod:`engine.rl.actions`);
* observation: ``{"observation": int32 vector, "action_mask": int8 vector}``
  (:mod:`engine.rl.encoding`); the mask is all zeros for a seat not to move;
* rewards: 0 until the game ends, then each seat's return
  (:meth:`State.returns`: 1 for a sole winner, 1/k for k seats sharing a win, else 0), or with
  ``utility=`` the same made zero-sum, or the final scores (:mod:`engine.rl.utility`, as OpenSpiel's game).

An illegal action raises ValueError with the reason and changes nothing.

Example::

    from engine.rl import env
    e = env("my-game", players=2)
    e.reset(seed=7)
    observation, reward, terminated, truncated, info = e.last()
    e.step(int(observation["action_mask"].argmax()))    # the first legal action
"""

from __future__ import annotations

import inspect
import operator
import random
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ParamSpec

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from engine.compiling.loading import load
from engine.core.showtext import cut, shown
from engine.model.game import Game
from engine.model.state import State
from engine.rl.actions import RANKED, ActionTable
from engine.rl.encoding import Encoder
from engine.rl.utility import checked_utility, final_utilities


P = ParamSpec("P")

DEALS = 100
"""How many deals over before anyone decides :meth:`RulecraftEnv.reset` deals again before refusing the game."""


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: ``player_1`` for seat 1."""
    return f"player_{seat}"


class RulecraftEnv(AECEnv):
    """The AEC environment of one game (a name, a path or a compiled :class:`Game`) and player count."""

    metadata = {"name": "rulecraft_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        ruleset: str | Game,
        players: int | None = None,
        variant: str | Sequence[str] | None = None,
        set_options: Mapping[str, str] | None = None,
        ranked: int = RANKED,
        render_mode: str | None = None,
        utility: str = "returns",
    ) -> None:
        super().__init__()
        if isinstance(ruleset, Game) and (variant or set_options):
            raise ValueError(f"a compiled game has its variants and options already ({ruleset.name}: variants "
                             f"{list(ruleset.variants) or 'none'}): load it with the ones wanted, or give the ruleset's name")
        self.game = ruleset if isinstance(ruleset, Game) else load(ruleset, variant, set_options)
        counts = self.game.player_counts
        players, ranked = _whole("players", players), _whole("ranked", ranked)
        self.players = players if players is not None else self.game.default_players
        if self.players not in counts:
            raise ValueError(f"{self.game.name} is played by {', '.join(map(str, counts))} players, not {self.players}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {cut(repr(render_mode), 60)}")
        self.render_mode = render_mode
        # returns checked to sum to 1 only where made zero-sum: a game may end with nobody winning (all 0)
        self.utility = utility
        self._sums_to_one = checked_utility(self.game, self.players, utility) and utility == "zero-sum-returns"
        self.table = ActionTable(self.game, ranked)
        self.encoder = Encoder(self.game, self.players)
        self.possible_agents = [agent_name(seat) for seat in range(1, self.players + 1)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents, 1)}
        n = len(self.table)
        if n == 0:  # gymnasium's Discrete(0) said only "n (counts) have to be positive, actual value: 0"
            why = (f"its actions are computed during play (numbers) and ranked={ranked} keeps no index for them: give "
                   "ranked=N" if self.table.unlisted_steps else "no step of it and no choice offers an action")
            raise ValueError(f"{self.game.name} has no action to index, so its action space would be empty: {why}")
        observation = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.int32),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.state_space = spaces.Box(np.tile(self.encoder.low, self.players), np.tile(self.encoder.high, self.players),
                                      dtype=np.int32)
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.game_state: Any = None
        self.game_seed: int | None = None
        self._seeds = random.Random()  # the seeds of games reset without one: from the last seed given, else at random
        self._legal: dict[int, Any] = {}
        self._last = ""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as its game, its state's save and the rest, without the legal actions (rebuilt from the state),
        so an environment can be sent to another process: ``pickle.loads(pickle.dumps(e))`` plays on."""
        state = self.__dict__.copy()
        del state["_legal"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        playing = self.game_state is not None and not self.game_state.is_terminal
        self._legal = self.table.legal(self.game_state) if playing else {}

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (PettingZoo's API)."""
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent``: an index into the action table."""
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: Any) -> str:
        """``agent`` if it is one of the possible agents, else a KeyError naming them (it said only the name)."""
        if agent not in self.seat_of:
            raise KeyError(f"there is no agent {cut(repr(agent), 60)}: the agents are {', '.join(self.possible_agents)}")
        return agent

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, dealt from ``seed``; without one, from the next seed of a sequence that the last seed given
        starts (as Gymnasium's environments do), or at random if none was ever given.  The game's own seed is kept
        in ``self.game_seed``.  ``options={"state": STATE}`` plays on from a copy of a position set up through the
        API instead (``game.new_state(...)`` then ``apply``); see :func:`_given_state`.

        A deal that is over before anyone decides (every choice forced) is dealt again from the next seed of
        that sequence, since PettingZoo's API wants an agent to decide after ``reset``; a game over at once in
        the first deal and the :data:`DEALS` after it is refused (ValueError): no seat ever decides.

        A seed also seeds each agent's action space, so ``action_space(agent).sample(mask)`` plays
        the same game again: ``e.reset(seed=7)`` twice, sampling the same way, gives the same result, and
        ``e.reset(seed=7)`` once, then ``e.reset()`` before each further game, the same games.
        """
        seed = _whole("seed", seed)  # numpy's whole numbers too, as an RL library's seeds often are
        given = _given_state(self.game, self.players, options)
        if seed is not None:
            self._seeds.seed(seed)
        if given is not None:  # no seed of its own: its generator goes on where the position left it
            self.game_seed, self.game_state = None, given
        else:
            self.game_seed = seed if seed is not None else self._seeds.getrandbits(63)
            self.game_state = self.game.new_state(players=self.players, seed=self.game_seed)
        for _ in range(DEALS):  # a deal over before anyone decides is no episode (PettingZoo's API wants a decision)
            if not self.game_state.is_terminal:
                break
            self.game_seed = self._seeds.getrandbits(63)
            self.game_state = self.game.new_state(players=self.players, seed=self.game_seed)
        else:
            self.game_state = None
            raise ValueError(f"{self.game.name} for {self.players} players was over before anyone decided in "
                             f"{DEALS + 1} deals in a row (every choice has one option): there is nothing to learn, "
                             "and PettingZoo's API wants a decision after reset")
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed((seed + i) % 2**64)  # numpy takes no negative seed
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._last = ""
        self._turn, self._in_turn = self.game_state.turn_number, 0  # the decisions taken in the turn being played
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent``'s seat sees, encoded, and the mask of its legal actions (all 0 when it is not to move)."""
        self._check_open()
        seat = self.seat_of[self._known(agent)]
        mask = np.zeros(len(self.table), dtype=np.int8)
        if self.game_state.seat_to_move == seat:
            mask[list(self._legal)] = 1
        return {"observation": self.encoder.encode(self.game_state.observation(seat)), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state, for learners whose critic sees more than one seat (PettingZoo's ``state()``): every
        seat's observation vector, seat 1's first, so everything some seat knows and nothing that no seat does (a
        shuffled deck's order, a die not yet rolled); ``state_space`` is its space."""
        self._check_open()
        return np.concatenate([self.encoder.encode(self.game_state.observation(seat))
                               for seat in range(1, self.players + 1)])

    def step(self, action: Any) -> None:
        """Play ``action`` (an index into the action table) for the agent selected, and select the next."""
        self._check_open()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._legal[self._legal_index(agent, action, self._legal)]
        self.game_state.apply(move)  # a ruleset failing while carrying the move out leaves the game as it was
        self._cumulative_rewards[agent] = 0.0
        self._played(1, f"{agent}: {move}")

    def _legal_index(self, agent: str, action: Any, legal: Mapping[int, Any]) -> int:
        """``action`` as an index among ``legal``, ``agent``'s legal actions; anything else a ValueError saying why."""
        try:
            if isinstance(action, (bool, np.bool_)):  # true is not action 1
                raise TypeError(action)
            index = operator.index(action)  # a whole number: 1.7, "3" or None is refused, never rounded or parsed
        except TypeError:
            raise ValueError(f"an action is the index of one in the action space (a whole number from 0 to "
                             f"{len(self.table) - 1}), not {cut(repr(action), 60)}; {agent} is to move") from None
        if index not in legal:
            what = self.table.describe(index) if 0 <= index < len(self.table) else "out of range"
            raise ValueError(f"action {index} ({what}) is not legal for {agent} now; "
                             f"legal: {sorted(legal)[:10]}{' ...' if len(legal) > 10 else ''}")
        return index

    def _played(self, decisions: int, text: str) -> None:
        """After ``decisions`` decisions were played on the game (``text`` says what they were): who decides next."""
        self._in_turn += decisions
        self._last = text
        self._after_move()

    def _after_move(self) -> None:
        """Select who decides next, or end the game: rewards from the returns, every agent terminated; or stop a
        turn that has taken the ruleset's ``turn_decisions`` without passing, as every loop playing a game does:
        every agent truncated, rewards 0, the reason under ``infos[agent]["truncated"]``."""
        for agent in self.agents:
            self.rewards[agent] = 0.0
        state, most = self.game_state, self.game.limits.turn_decisions
        if state.turn_number != self._turn:
            self._turn, self._in_turn = state.turn_number, 0
        if not state.is_terminal and self._in_turn >= most:
            reason = str(state.endless_turn(most))
            for agent in self.agents:
                self.truncations[agent] = True
                self.infos[agent] = {"truncated": reason}
            self._legal = {}
            self.agent_selection = self.agents[0]
        elif state.is_terminal:
            returns = final_utilities(self.game_state, self.utility, self._sums_to_one)
            for agent in self.agents:
                self.rewards[agent] = float(returns[self.seat_of[agent] - 1])
                self.terminations[agent] = True
            self._legal = {}
            self.agent_selection = self.agents[0]
        else:
            self._legal = self.table.legal(self.game_state)
            self.agent_selection = agent_name(self.game_state.seat_to_move)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The last action and who decides next: returned as text with ``render_mode="ansi"``, printed with "human";
        without a render mode, nothing, and a warning saying so (as Gymnasium's environments do)."""
        if self.render_mode is None:
            warnings.warn("render() without a render_mode draws nothing: make the environment with "
                          "render_mode='ansi' (the text returned) or 'human' (printed)", UserWarning, stacklevel=2)
            return None
        if self.game_state is None:
            return None
        truncated = self.infos.get(self.agent_selection, {}).get("truncated") if self.agents else None
        now = ("game over: " + str(self.game_state.returns()) if self.game_state.is_terminal
               else f"stopped: {truncated}" if truncated else f"{self.agent_selection} to move")
        text = f"{self._last or 'start'}; {now}"
        if self.render_mode == "human":
            print(shown(text))  # a ruleset's names are data: control characters are escaped on the terminal
            return None
        return text

    def close(self) -> None:
        """Drop the game (``reset()`` starts a new one)."""
        self.game_state = None

    def _check_open(self) -> None:
        """Refuse a move or a look at a closed environment (RuntimeError: reset() opens it again)."""
        if self.game_state is None:
            raise RuntimeError("this environment was closed: call reset() to start a new game")


def _given_state(game: Game, players: int, options: Mapping[str, Any] | None) -> State | None:
    """A copy of the position ``options["state"]`` to play on, checked against ``game`` and ``players``; None without
    one.  A position the environment cannot play (another game or player count, a game over, dice left to the caller)
    is refused with a ValueError saying why.  Other keys are left alone, as Gymnasium's environments leave the options
    they do not know (PettingZoo's ``api_test`` resets with ``options={"options": 1}``).

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> _given_state(game, 2, None) is None, _given_state(game, 2, {"seed": 3}) is None
    (True, True)
    >>> _given_state(game, 2, {"state": "place X at 0,0"})
    Traceback (most recent call last):
    ValueError: reset()'s option 'state' is a position (game.new_state(...)), not 'place X at 0,0'
    """
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise ValueError(f"reset()'s options are a dict ({{'state': STATE}}), not {cut(repr(options), 60)}")
    state = options.get("state")
    if state is None:
        return None
    if not isinstance(state, State):
        raise ValueError(f"reset()'s option 'state' is a position (game.new_state(...)), not {cut(repr(state), 60)}")
    if state.game is not game and state.game.content_hash != game.content_hash:
        raise ValueError(f"the position given to reset() is of {state.game.name} (variants {list(state.game.variants) or 'none'}, "
                         f"options set {dict(state.game.set_options) or 'none'}), not of this environment's "
                         f"{game.name} (variants {list(game.variants) or 'none'}, options set {dict(game.set_options) or 'none'})")
    if state.players != players:
        raise ValueError(f"the position given to reset() has {state.players} players; this environment has {players}")
    if state.is_terminal:
        raise ValueError("the position given to reset() is a game over: nobody decides there")
    if state.explicit_chance:
        raise ValueError("the position given to reset() rolls its dice as the caller's decisions (explicit_chance=True); "
                         "the environment rolls them itself: set it up with new_state(..., explicit_chance=False)")
    return state.clone()


def _whole(name: str, value: Any) -> Any:
    """``value`` as an int when it is a whole number (numpy's too), None as None; anything else is refused.

    >>> _whole("players", None), _whole("players", 2)
    (None, 2)
    """
    if value is None:
        return None
    try:
        if isinstance(value, bool):
            raise TypeError
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{name} is a whole number, not {cut(repr(value), 60)}") from None


def _order_enforced(make: Callable[P, RulecraftEnv]) -> Callable[P, AECEnv]:
    """A function taking ``make``'s parameters that returns its environment wrapped as PettingZoo recommends."""

    def env(*args: P.args, **kwargs: P.kwargs) -> AECEnv:
        """The environment of a ruleset (a built-in name, a path or a compiled game), wrapped as PettingZoo
        recommends (calls in the wrong order raise); the parameters are :class:`RulecraftEnv`'s.

        Example: ``env("my-game", players=2, variant="short")``
        """
        return wrappers.OrderEnforcingWrapper(make(*args, **kwargs))

    env.__signature__ = inspect.signature(make).replace(return_annotation=AECEnv)  # type: ignore[attr-defined]
    return env


env = _order_enforced(RulecraftEnv)
