"""Any ruleset as an OpenSpiel game, so OpenSpiel's own algorithms — CFR and exploitability, MCTS, its evaluation
tools — run on it (``pip install 'rulecraft[oracle]'``).

The game is registered with OpenSpiel as ``rulecraft``, its parameters the
ruleset (a built-in name or a path), ``players`` (0: the fewest, two if it
can), ``variant`` (``a+b``), ``options`` (``name:value`` pairs joined by
``;``: OpenSpiel's game strings give ``=`` and ``,`` a meaning of their own), ``limits`` (the budgets changed
from their defaults, ``name:value`` pairs joined by ``;`` as ``options``: a game loaded under ``--limit`` or
``limits.using`` keeps them in its string, pickled or loaded in another process) and ``utility``:

* players: seat ``k`` is OpenSpiel's player ``k - 1``; the player to move is
  the seat the engine says decides next (a sealed round is played one seat
  after the other, none seeing the others' sealed decisions);
* actions: the fixed action table of :mod:`engine.rl.actions`, the indices of
  the PettingZoo environment's action space;
* chance: listed exactly, one draw at a time (:mod:`engine.rl.chance`, never
  sampled): each die rolled, seat dealt or item shuffled — in the setup, a
  turn step or a card's code — is a chance node whose outcomes are its
  values, equally likely (a shuffle of n items is n - 1 draws).  A draw among
  more than :data:`engine.rl.chance.LIMIT` values is refused
  (:class:`engine.rl.chance.TooManyOutcomes`): OpenSpiel's algorithms that
  sum over chance (CFR, exploitability) would be wrong on sampled chance;
* information: a seat's observation is the engine's ``state.observation(seat)``
  (as JSON; its tensor is the PettingZoo environment's vector), and its
  information state everything it was shown in order: its observation after
  each move and chance outcome, its own actions, the others' as
  ``state.public_text`` shows them — never what it may not see; a state
  resampled from a seat's information state (OpenSpiel's ISMCTS) deals again
  what the seat may not see;
* length: ``max_game_length`` is a bound every game keeps, the turn limit times
  ``limits.turn_decisions`` (a turn that takes that many decisions stops with
  the engine's error, as in every loop of the engine playing a game), not the
  usual length;
* utility: ``returns`` (``state.returns()``: 1 a sole winner, 1/k for k seats
  sharing a win, else 0 — constant-sum 1 with two seats or more, unless goals
  decide), ``zero-sum-returns`` (the same made zero-sum: each return times the
  number of players, less 1 — with two, 1 a win, -1 a loss, 0 a draw — for the
  algorithms that insist on a zero-sum game, such as
  ``minimax.alpha_beta_search``; not for a game that goals decide),
  ``scores`` (each seat's final score: general-sum) or
  ``zero-sum-scores`` (the scores, which must sum to 0: a final position
  whose scores do not is an error).

Example::

    from open_spiel.python.algorithms import cfr, exploitability
    from engine.rl.openspiel import load_game

    game = load_game("my-card-game", utility="zero-sum-scores")
    solver = cfr.CFRPlusSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    print(exploitability.exploitability(game, solver.average_policy()))   # near 0
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from numbers import Integral, Real
from typing import Any

import numpy as np

from engine.compiling.loading import GameRef, load, parse_set_options
from engine.compiling.seating import MAX_PLAYERS
from engine.core import rng
from engine.core.errors import IllegalActionError, RulecraftError
from engine.core.information import determinize, has_hidden_information
from engine.core.limits import Limits, as_pairs, current, parse_limits, using
from engine.core.showtext import cut
from engine.model.game import Game
from engine.model.savefile import transposition_key
from engine.model.state import State as EngineState
from engine.rl.actions import ActionTable
from engine.rl.chance import LIMIT, Chosen, drawn, may_draw
from engine.rl.encoding import HIGH, LOW, Encoder
from engine.rl.utility import UTILITIES, checked_utility, final_utilities

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the machine
    raise ImportError(f"engine.rl.openspiel needs OpenSpiel ({error.name} is missing): "
                      "pip install 'rulecraft[oracle]'") from None

NAME = "rulecraft"
"""The name the games are registered under: ``pyspiel.load_game("rulecraft(ruleset=my-game)")``."""

PARAMETERS: dict[str, Any] = {"ruleset": "", "players": 0, "variant": "", "options": "", "limits": "",
                               "utility": "returns"}
"""The game's parameters and their defaults."""

"""What a final position is worth to each player (see the module's docstring)."""

_GAME_TYPE = dict(
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
    default_loadable=False,  # a ruleset must be named
)


def load_game(ruleset: str | os.PathLike[str], players: int | None = 0, variant: str | Sequence[str] = "",
              set_options: Mapping[str, str] | None = None, utility: str = "returns",
              limits: Limits | None = None) -> "RulecraftGame":
    """The OpenSpiel game of ``ruleset`` (a built-in name or a path), as ``pyspiel.load_game`` makes it, compiled
    afresh (a ruleset edited since the last call is read again).  ``players`` 0 or None: the fewest, two if it can.
    ``limits``: the budgets it runs under (None: those in force, ``--limit`` or ``limits.using``), written in its
    parameters, so that the game pickled or loaded again from its string runs under them too.

    A compiled game, players that are not a whole number, or a variant, utility or set_options of the wrong kind are
    refused with a TypeError (OpenSpiel's own message named only its parameter types; Python's said 'can only join
    an iterable').

    Example: ``load_game("my-game", players=3)``, ``load_game("my-dice-game", utility="zero-sum-scores")``.
    """
    if isinstance(ruleset, os.PathLike):
        ruleset = os.fspath(ruleset)
    if not isinstance(ruleset, str):
        raise TypeError(f"load_game takes a ruleset's name or path (OpenSpiel makes a game from its parameters), "
                        f"not {type(ruleset).__name__}; with its variants and options: load_game(NAME, variant=..., "
                        "set_options=...)")
    if players is None:
        players = 0
    if isinstance(players, bool) or not isinstance(players, Integral):
        raise TypeError(f"players is a whole number (0: the fewest, two if it can), not {cut(repr(players), 60)}")
    players = int(players)
    if not 0 <= players <= MAX_PLAYERS:  # past C++'s int, pybind11's 'Unable to cast Python instance of type int'
        raise ValueError(f"players is from 0 (the fewest, two if it can) to {MAX_PLAYERS}, the most a game has, not "
                         f"{cut(str(players), 60)}")
    if not isinstance(variant, str) and not (isinstance(variant, Sequence) and all(isinstance(v, str) for v in variant)):
        raise TypeError(f"variant is a variant's name, or a list of names, not {cut(repr(variant), 60)}")
    if not isinstance(utility, str):
        raise TypeError(f"utility is a text (returns, zero-sum-returns, scores, zero-sum-scores), not {cut(repr(utility), 60)}")
    if set_options is not None and not isinstance(set_options, Mapping):
        raise TypeError(f"set_options maps option names to values ({{'width': '9'}}), not {cut(repr(set_options), 60)}")
    if limits is not None and not isinstance(limits, Limits):
        raise TypeError(f"limits is an engine.core.limits.Limits (limits.parse_limits(['steps=500'])), "
                        f"not {cut(repr(limits), 60)}")
    _rules_of.cache_clear()
    for name, value in (set_options or {}).items():
        if ";" in f"{name}{value}" or ":" in str(name):
            raise ValueError(f"the option {cut(repr(f'{name}={value}'), 60)} cannot be written in the game's options "
                             "(name:value pairs joined by ';'): a name holds no ':' and neither holds ';'")
    params = {"ruleset": ruleset, "players": players, "variant": variant if isinstance(variant, str) else "+".join(variant),
              "options": ";".join(f"{k}:{v}" for k, v in (set_options or {}).items()),
              "limits": ";".join(f"{k}:{v}" for k, v in as_pairs(limits or current())), "utility": utility}
    return pyspiel.load_game(NAME, {k: v for k, v in params.items() if v != PARAMETERS[k]})


class RulecraftGame(pyspiel.Game):
    """A ruleset, its variants and options, and a player count, as an OpenSpiel game (see the module's docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        rules = _rules_of(tuple(sorted({**PARAMETERS, **(params or {})}.items())))
        # the ruleset as the rules found it (a file by its absolute path): the game's string loads it from any folder;
        # the limits it was compiled under too (those in force when loaded without them): it runs under them anywhere
        carried = ";".join(f"{k}:{v}" for k, v in as_pairs(rules.game.limits))
        super().__init__(rules.game_type, rules.info, {**(params or {}), "ruleset": dict(rules.params)["ruleset"],
                                                       **({"limits": carried} if carried else {})})
        self.rules = rules
        self.root = Node.start(rules)  # every game starts here: a new state is a copy of it

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parameters, loaded again: OpenSpiel's own pickling made a game without its rules (a pool's
        worker failed at ``new_initial_state``: no attribute 'root')."""
        return _loaded_game, (self.get_parameters(),)

    def new_initial_state(self) -> "RulecraftState":
        """The start: the setup's first chance node when it draws, else the first decision."""
        return RulecraftState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "SeatObserver | None":
        """A seat's view: its information state with ``perfect_recall``, else its observation — what is public and
        what the seat alone sees, together.  Any other kind (the public part alone, the private part alone, every
        seat's private information) is not provided: None, as OpenSpiel's ``make_observation`` says of a kind a game
        does not support, rather than the seat's whole view under a name that promises less (its own cards shown
        as "public").

        Example: ``game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))`` (information states).
        """
        if params:
            raise ValueError(f"the observer takes no parameters, not {cut(repr(params), 60)}")
        if iig_obs_type is not None and not (iig_obs_type.public_info
                                             and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            return None
        return SeatObserver(self.rules, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


@dataclass(frozen=True, eq=False)
class Rules:
    """What every state of a game reads: the compiled game, its players, utility, action table, observation
    encoder; and what OpenSpiel is told of the game."""

    game_type: Any  # pyspiel.GameType
    info: Any  # pyspiel.GameInfo
    game: Game
    players: int
    utility: str
    constant_sum: bool
    deterministic: bool  # nothing in the ruleset draws at random (see engine.rl.chance.may_draw): no chance node
    table: ActionTable
    encoder: Encoder
    params: tuple[tuple[str, Any], ...]  # the game's parameters, defaults included, a ruleset's file by its absolute path

    def __deepcopy__(self, memo: dict[int, Any]) -> "Rules":
        return self  # never changed: every copy of a state reads the same

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the game's parameters (OpenSpiel pickles a Python state to serialise it), loaded again."""
        return _rules_of, (self.params,)


@dataclass(frozen=True, eq=False)
class Draws:
    """A step waiting at a chance node: what it plays (a setup, a move), and its next draw: how many values it has
    (the node's outcomes, equally likely) and the generator state it draws from."""

    run: Callable[[], EngineState]
    size: int
    at: int
    what: str  # the step, for errors


@dataclass(frozen=True, eq=False)
class Node:
    """Where a state stands: an engine position, or a chance node, and how it came there.  Never changed (a move
    makes a new node, each move on a clone of the position), so a copy of a state shares it: OpenSpiel copies a
    Python state by deep-copying its attributes.

    Every step is played with the values chosen at the chance nodes so far (:mod:`engine.rl.chance`): an effect
    played again from its start draws them again.  A seat's information state is read back along the nodes that
    led here (each adds a line: the seat's observation of its position, or what the seat was told of a move), when
    first asked for: the searches that never ask (MCTS) spend nothing on it.  Each node keeps its own line once
    read, and the whole text only where the actions that led to it are a power of two (:func:`_kept_whole`): a
    game of 10,000 moves asked at every move (``pyspiel.random_sim_test``) keeps texts of a few times its length,
    not one per move, each as long as the game so far (gigabytes)."""

    rules: Rules
    position: EngineState | None  # the position; at a chance node, the one before its move (None before the setup)
    chance: Draws | None  # at a chance node, the step that waits at it
    legal: Mapping[int, Any]  # the legal actions of the seat to move, by index
    path: tuple[int, ...]  # the actions from the start to here, chance outcomes included
    chosen: Chosen  # the values chosen at the chance nodes of the moves still under way, by the generator state each draws from
    parent: "Node | None" = None  # the node this one followed
    told: tuple[str, ...] | None = None  # what each seat was told of the move made here (None: no move made here)
    observed: bool = False  # whether each seat is shown its observation of the position here
    written: dict[int, str] = field(default_factory=dict)  # information states already written, by player
    said: dict[int, str | None] = field(default_factory=dict)  # this node's own line for each player (None: none)
    in_turn: int = 0  # the decisions made since the turn of ``position`` began (limits.turn_decisions bounds them)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Node":
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and the actions that lead to it, played again from the start when loaded."""
        return _replayed, (self.rules, self.path)

    @classmethod
    def start(cls, rules: Rules) -> "Node":
        """The first node: the setup's first chance node, or the position it sets up when it draws nothing."""
        game, players = rules.game, rules.players
        return cls(rules, None, None, {}, (), {}).drawing(lambda: _new_state(game, players), f"the setup of {game.name}")

    def drawing(self, run: Callable[[], EngineState], what: str) -> "Node":
        """The node where ``run``, its draws taking the values chosen so far, stands: at the next draw's chance
        node, or at the position it leads to."""
        result = drawn(run, self.chosen, what)
        if isinstance(result, tuple):
            if self.rules.deterministic:
                raise RulecraftError(f"{what} draws at random, but nothing in {self.rules.game.name} was known to: "
                                     "the game was declared DETERMINISTIC (engine.rl.chance.may_draw misses a way to draw)")
            size, at = result
            return Node(self.rules, self.position, Draws(run, size, at, what), {}, self.path, self.chosen, self,
                        in_turn=self.in_turn)
        return self.at(result)

    def at(self, position: EngineState) -> "Node":
        """The node standing at ``position``, with its legal actions; each seat is shown its observation of it."""
        legal = {} if position.is_terminal else self.rules.table.legal(position)
        same_turn = self.position is not None and self.position.turn_number == position.turn_number
        return Node(self.rules, position, None, legal, self.path, _still_read(self.chosen, position), self,
                    observed=True, in_turn=self.in_turn if same_turn else 0)

    def after(self, action: int) -> "Node":
        """The node after ``action``: a chance outcome (the next draw's value), or a legal action, told to every seat
        as it sees it (and, if it draws, its first chance node)."""
        path = self.path + (action,)
        if self.chance is not None:
            draws = self.chance
            if not 0 <= action < draws.size:  # a value the draw cannot give would be played as if it could
                raise IllegalActionError(f"{action} is not an outcome of this chance node: {draws.what} draws one of "
                                         f"{draws.size} values, 0 to {draws.size - 1}")
            chosen = {**self.chosen, draws.at: (action, draws.size)}
            return replace(self, path=path, chosen=chosen, written={}, said={}).drawing(draws.run, draws.what)
        before, move = self.position, self.legal.get(action)
        assert before is not None
        if move is None:
            table = self.rules.table
            what = table.describe(action) if 0 <= action < len(table) else "outside the action table"
            now = "the game is over" if before.is_terminal else (
                f"player {before.seat_to_move - 1} may play {sorted(self.legal)[:10]}{' ...' * (len(self.legal) > 10)}")
            raise IllegalActionError(f"action {action} ({what}) is not legal now: {now}")
        limit = self.rules.game.limits.turn_decisions
        if self.in_turn >= limit:  # as every loop of the engine playing a game does: max_game_length counts on it
            raise before.endless_turn(limit)
        mover = before.seat_to_move
        told = tuple(f"I: {move}" if seat == mover else f"seat {mover}: {before.public_text(move)}"
                     for seat in range(1, self.rules.players + 1))
        moved = Node(self.rules, before, None, {}, path, self.chosen, self, told, in_turn=self.in_turn + 1)
        return moved.drawing(lambda: _applied(before, move), f"the move '{move}' of {self.rules.game.name}")

    def information(self, player: int) -> str:
        """Everything ``player`` was shown to come here, one line each: its observation after every move and chance
        outcome, ``I: ACTION`` for its own moves and ``seat K: TEXT`` for the others' as it sees them."""
        behind: list[Node] = []
        node: Node | None = self
        while node is not None and player not in node.written:
            behind.append(node)
            node = node.parent
        parts = [node.written[player]] if node is not None and node.written[player] else []
        for node in reversed(behind):
            line = node.line(player)
            if line is not None:
                parts.append(line)
            if _kept_whole(node):
                parts = ["\n".join(parts)] if parts else []
                node.written[player] = parts[0] if parts else ""
        return "\n".join(parts)

    def line(self, player: int) -> str | None:
        """What ``player`` was shown here: what it was told of the move made here, or its observation of the
        position; None when neither."""
        if player not in self.said:
            self.said[player] = (self.told[player] if self.told is not None
                                 else _observed(self.position, player + 1)
                                 if self.observed and self.position is not None else None)
        return self.said[player]


WINDOW = 2**40
"""A value chosen for a draw this many draws or fewer before the start of the effect waiting at a position is let go."""


def _still_read(chosen: Chosen, position: EngineState) -> Chosen:
    """The values of ``chosen`` a move from ``position`` may draw again: only an effect played again from its start
    (one waiting there for a choice) draws from generator states it drew from before, so the values drawn before
    that start are let go — all of them where no effect waits.  Kept, every move copied them all, and a game of n
    rolls (each roll a turn of its own) took time growing as n squared.  A decision lent to another seat keeps
    them all, as does a value drawn on another generator's way (:func:`engine.core.rng.draws_between`).

    >>> import engine
    >>> position = engine.load(engine.builtin_names()[0]).new_state(players=2)
    >>> _still_read({position.rng: (0, 6)}, position)
    {}
    """
    if position.decisions:
        return chosen
    pending = position.pending
    if pending is None:
        return {}
    start = position.rng if pending.base is None else pending.base.rng  # where the effect began drawing
    if not any(0 < rng.draws_between(at, start) <= WINDOW for at in chosen):
        return chosen
    return {at: value for at, value in chosen.items() if not 0 < rng.draws_between(at, start) <= WINDOW}


def _sampled(sampler: Callable[[], float]) -> int:
    """A seed from ``sampler()``, a number in [0, 1] (OpenSpiel's samplers); anything else is a ValueError saying so:
    a text was multiplied into a string of 2**53 copies (a MemoryError), NaN and infinity were Python's own errors.

    >>> _sampled(lambda: 0.5)
    4503599627370496
    """
    value = sampler()
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 1:
        raise ValueError(f"the sampler gives a number from 0 to 1, not {cut(repr(value), 60)}")
    return int(value * 2**53)


def _kept_whole(node: Node) -> bool:
    """Whether ``node`` keeps a player's whole information state once written: where the actions that led to it
    are a power of two (or none), so the texts kept along a game are a few times its length.

    >>> [depth for depth in range(200) if depth & (depth - 1) == 0]
    [0, 1, 2, 4, 8, 16, 32, 64, 128]
    """
    depth = len(node.path)
    return depth & (depth - 1) == 0


class TooDeep(RulecraftError):
    """A game tree deeper than Python's recursion limit lets a recursive algorithm (CFR) walk."""


class RulecraftState(pyspiel.State):
    """A position of the game (see :class:`Node`)."""

    def __init__(self, game: RulecraftGame) -> None:
        super().__init__(game)
        self.node = game.root

    def current_player(self) -> int:
        """The player to move (seat - 1), CHANCE at a chance node, TERMINAL once the game is over."""
        node = self.node
        if node.chance is not None:
            return pyspiel.PlayerId.CHANCE
        assert node.position is not None
        if node.position.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return node.position.seat_to_move - 1

    def _legal_actions(self, player: int) -> list[int]:
        """The indices in the action table of the legal actions of ``player``, if it is to move."""
        return sorted(self.node.legal) if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The values of the draw this chance node waits for, equally likely; asked elsewhere, a ValueError saying who
        decides there (it was an assertion, and with ``python -O`` an AttributeError)."""
        if self.node.chance is None:
            now = "the game is over" if self.is_terminal() else f"player {self.current_player()} is to move"
            raise ValueError(f"chance_outcomes() is asked at a chance node, and this state is none: {now}")
        size = self.node.chance.size
        return [(value, 1.0 / size) for value in range(size)]

    def _apply_action(self, action: int) -> None:
        try:
            self.node = self.node.after(action)
        except RecursionError:
            raise TooDeep(f"{self.node.rules.game.name}: the game tree goes deeper than Python's recursion lets an "
                          "algorithm that walks the whole tree (CFR, exploitability, alpha-beta) follow (here "
                          f"{len(self.node.path) + 1} actions from the start, chance outcomes included); dice rolled again without end (a tied "
                          "roll-off rolled again, a run of rolls that changes nothing) make such a tree: play it with "
                          "MCTS, which never recurses, or bound it (a variant, fewer turns)") from None

    def undo_action(self, player: int, action: int) -> None:
        """Not offered: OpenSpiel keeps a Python game's history itself and lets it take back no move, so this says
        what to do instead (OpenSpiel's own message said only that the function is not overridden).

        Example: ``after = state.child(action)`` plays a move on a copy; ``state`` stays where it was.
        """
        raise NotImplementedError("a Rulecraft game's state takes back no move (OpenSpiel keeps a Python game's "
                                  "history and gives it no way to take a move off it): play on a copy instead, "
                                  "state.child(action) or state.clone(), and keep the state before the move")

    def _action_to_string(self, player: int, action: int) -> str:
        """An action's text in the action table, or the number of a chance outcome."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance: value {action + 1} of a draw"
        return self.node.rules.table.describe(action)

    def is_terminal(self) -> bool:
        """True when the game is over (not at a chance node)."""
        node = self.node
        return node.chance is None and node.position is not None and node.position.is_terminal

    def returns(self) -> list[float]:
        """Each player's utility: zero until the game is over (see ``utility`` in the module's docstring)."""
        rules, position = self.node.rules, self.node.position
        if not self.is_terminal():
            return [0.0] * rules.players
        assert position is not None and position.outcome is not None
        return final_utilities(position, rules.utility, rules.constant_sum)

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> "RulecraftState":
        """A state ``player`` cannot tell from this one: everything hidden from it dealt again at random
        (:func:`engine.core.information.determinize`, seeded by ``sampler()``, a number in [0, 1)), its
        information state the same.  OpenSpiel's ISMCTS bot asks for one at every iteration of its search.

        Example: ``state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))``
        """
        node = self.node
        players = node.rules.players
        if isinstance(player, bool) or not isinstance(player, Integral) or not 0 <= player < players:
            raise ValueError(f"there is no player {cut(repr(player), 40)}: the players are 0 to {players - 1} "
                             "(OpenSpiel's player k is the ruleset's seat k + 1)")
        sample = self.clone()
        if node.chance is None and node.position is not None and not node.position.is_terminal:
            seen = node.information(player)
            position = determinize(node.position, player + 1, random.Random(_sampled(sampler)))
            sample.node = replace(node, position=position, legal=node.rules.table.legal(position),
                                  written={player: seen}, said={})
        return sample

    def __str__(self) -> str:
        """In a game that never draws, the position's key (:func:`~engine.model.savefile.transposition_key`): two
        orders of moves reaching the same position read alike, as OpenSpiel's tools that tell states by their text
        want (``value_iteration``, ``get_all_states(to_string=str)``), then who moves and the board.  Otherwise the
        actions that led here (so that no two states read alike: what a step draws next depends on the values drawn
        before), the position as its save reads, and at a chance node the draw it waits for."""
        node = self.node
        position = node.position
        if node.rules.deterministic and position is not None:
            board = " ".join(f"{x},{y}:{position.game.piece_names[c]}" for (x, y), c in sorted(position.grid.items()))
            mover = "over" if position.is_terminal else f"seat {position.seat_to_move} to move"
            return f"position {transposition_key(position)}, {mover}; board {board or 'empty'}"
        text = "before the setup" if position is None else json.dumps(
            {k: v for k, v in position.to_json().items() if k != "checksum"}, default=str)
        text = f"after {list(node.path)}: {text}"
        return f"{text} (then a draw among {node.chance.size} values)" if node.chance is not None else text


class SeatObserver:
    """OpenSpiel's observer of a seat: its information state (``perfect_recall``) or its observation, as text and a
    tensor (the observation only: ``information`` has no tensor)."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules, self.perfect_recall = rules, perfect_recall
        self.tensor = None if perfect_recall else np.zeros(len(rules.encoder), np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def set_from(self, state: RulecraftState, player: int) -> None:
        """Fill the tensor with ``player``'s observation of ``state`` (zeros before the setup's deal).  The
        information state has no tensor: asked for one (``state.information_state_tensor(p)``), it says so and
        what to use instead, where an empty list passed for one (a network of no inputs)."""
        if self.tensor is None:
            raise NotImplementedError("a Rulecraft game has no information-state tensor (the game says "
                                      "provides_information_state_tensor=False): use the observation tensor, "
                                      "state.observation_tensor(player), which does not recall the past, or the "
                                      "information state as text, state.information_state_string(player)")
        position = state.node.position
        self.tensor[:] = 0 if position is None else self.rules.encoder.encode(position.observation(player + 1))

    def string_from(self, state: RulecraftState, player: int) -> str:
        """``player``'s information state (one line per thing shown) or observation (JSON; empty before the setup)."""
        node = state.node
        if self.perfect_recall:
            return node.information(player)
        return "" if node.position is None else _observed(node.position, player + 1)


@lru_cache(maxsize=4)
def _rules_of(params: tuple[tuple[str, Any], ...]) -> Rules:
    """The rules of the game of ``params`` (all of them, sorted), compiled once: OpenSpiel loads a game again from
    its name for every state it loads (:func:`load_game` compiles afresh)."""
    given = dict(params)
    for key in ("ruleset", "variant", "options", "limits"):
        _check_writable(key, str(given[key]))
    utility = given["utility"]
    if utility not in UTILITIES:  # before the ruleset is loaded (checked_utility checks the rest once it is)
        raise ValueError(f"utility is one of {', '.join(UTILITIES)}, not {cut(repr(utility), 60)}")
    variant, options = str(given["variant"]), str(given["options"])
    set_options = _options(options) or None
    if not given["ruleset"]:
        raise ValueError(f"the game needs its ruleset, a built-in name or a path: {NAME}(ruleset=NAME)")
    with using(_limits(str(given["limits"]))):
        game = load(str(given["ruleset"]), variant, set_options)
    counts = game.player_counts
    players = int(given["players"]) or game.default_players
    if players not in counts:
        raise ValueError(f"{game.name} is played by {', '.join(map(str, counts))} players, not {players}")
    deterministic = not may_draw(game, players)
    constant = checked_utility(game, players, utility)
    zero_sum = utility in ("zero-sum-returns", "zero-sum-scores")
    game_type = pyspiel.GameType(
        short_name=NAME, long_name=f"Rulecraft: {game.title or game.name}",
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum
        else pyspiel.GameType.Utility.CONSTANT_SUM if constant else pyspiel.GameType.Utility.GENERAL_SUM,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION if has_hidden_information(game)
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC if deterministic
        else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        max_num_players=max(counts), min_num_players=min(counts), **_GAME_TYPE)
    table = ActionTable(game)
    low, high = {"returns": (0.0, 1.0), "zero-sum-returns": (-1.0, players - 1.0)}.get(utility, (float(LOW), float(HIGH)))
    info = pyspiel.GameInfo(num_distinct_actions=len(table), max_chance_outcomes=0 if deterministic else LIMIT, num_players=players,
                            min_utility=low, max_utility=high,
                            utility_sum=0.0 if zero_sum else 1.0 if constant else None,
                            max_game_length=min(game.max_turns * game.limits.turn_decisions, 2**31 - 1))
    found = GameRef.of(game).source  # a built-in's name, else its file's absolute path: read back in any folder
    _check_writable("ruleset", found)
    return Rules(game_type, info, game, players, utility, constant, deterministic, table, Encoder(game, players),
                 tuple(sorted({**given, "ruleset": found}.items())))


def _options(options: str) -> dict[str, str]:
    """The ``options`` parameter, ``name:value`` pairs joined by ``;``, as the command line's ``--set`` reads them:
    spaces around a name or a value left out, an option given two values refused (which one was meant cannot be
    told).

    >>> _options("goal: 50; sides:6")
    {'goal': '50', 'sides': '6'}
    >>> _options("goal:5;goal:6")
    Traceback (most recent call last):
    ValueError: the options 'goal:5;goal:6' set goal twice, to 5 and to 6: give it once
    """
    pairs = [pair.split(":", 1) for pair in options.split(";") if pair.strip()]
    if any(len(pair) != 2 or not pair[0].strip() for pair in pairs):
        raise ValueError(f"options are name:value pairs joined by ';', not {cut(repr(options), 60)}")
    try:
        return parse_set_options([f"{name}={value}" for name, value in pairs])
    except ValueError as err:
        raise ValueError(f"the options {cut(repr(options), 60)} set {str(err).replace(' is set twice', ' twice')}") from None


def _limits(limits: str) -> Limits:
    """The ``limits`` parameter, ``name:value`` pairs joined by ``;`` (as ``--limit NAME=VALUE`` reads them), on top
    of the limits in force.

    >>> _limits("turn_decisions: 5; steps:900").turn_decisions, _limits("").steps == current().steps
    (5, True)
    >>> _limits("stpes:5")
    Traceback (most recent call last):
    ValueError: the limits 'stpes:5': unknown limit 'stpes' (did you mean 'steps'?); limits: yaml_nodes, yaml_text, yaml_depth, includes, merged_nodes, variants, requires_depth, components, copies, counter_values, turns, call_depth, steps, game_steps, answers, turn_decisions, actions, condition_items, integer_digits, code_length, code_total, log_lines
    """
    pairs = [pair.split(":", 1) for pair in limits.split(";") if pair.strip()]
    if any(len(pair) != 2 or not pair[0].strip() for pair in pairs):
        raise ValueError(f"limits are name:value pairs joined by ';', not {cut(repr(limits), 60)}")
    try:
        return parse_limits([f"{name.strip()}={value.strip()}" for name, value in pairs])
    except ValueError as err:
        raise ValueError(f"the limits {cut(repr(limits), 60)}: {err}") from None


STRING_SYNTAX = ",=()"
"""The characters OpenSpiel's game strings give a meaning of their own (``rulecraft(ruleset=a,players=2)``)."""


def _check_writable(key: str, value: str) -> None:
    """Refuse a parameter that OpenSpiel could not read back from the game's string: a ruleset under a folder named
    ``a,b`` would load, but no state of it would deserialise (``pyspiel.deserialize_game_and_state``).

    >>> _check_writable("ruleset", "/tmp/a,b/ruleset.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the ruleset '/tmp/a,b/ruleset.yaml' holds ',', which OpenSpiel's game strings ...
    """
    found = [c for c in STRING_SYNTAX if c in value]
    if found:
        what = "a path without them (rename the folder, or link to it from one)" if key == "ruleset" else "none of them"
        raise ValueError(f"the {key} {cut(repr(value), 80)} holds {', '.join(repr(c) for c in found)}, which "
                         f"OpenSpiel's game strings give a meaning of their own ({NAME}(ruleset=...,players=2)): "
                         f"its states could not be serialised and loaded again; give {what}")


def _loaded_game(params: dict[str, Any]) -> RulecraftGame:
    """The game of ``params`` as OpenSpiel loads it (what a pickled game is loaded as)."""
    return pyspiel.load_game(NAME, params)


def _replayed(rules: Rules, path: tuple[int, ...]) -> Node:
    """The node the actions of ``path`` lead to from the start of ``rules``' game."""
    node = Node.start(rules)
    for action in path:
        node = node.after(action)
    return node


def _new_state(rules: Game, players: int) -> EngineState:
    """A new game of ``rules`` set up the long way, its setup's every draw made: a state that keeps a log is never
    a copy of a start kept from an earlier game, which the engine makes with the seating's draws alone."""
    state = rules.new_state(players=players, seed=0, record=True)
    state.log = state.history = None  # the log was asked for only to set up the long way
    return state


def _applied(before: EngineState, move: Any) -> EngineState:
    """``move`` played on a copy of ``before`` (the copy is all that changes: ``apply`` keeps no second one to put back)."""
    after = before.clone()
    after.apply(move, undo=False)
    return after


def _observed(position: EngineState, seat: int) -> str:
    """``seat``'s observation of ``position`` as JSON, keys sorted."""
    return json.dumps(position.observation(seat), sort_keys=True)


pyspiel.register_game(pyspiel.GameType(
    short_name=NAME, long_name="Rulecraft ruleset", utility=pyspiel.GameType.Utility.GENERAL_SUM,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,  # each ruleset's game says DETERMINISTIC if it is
    max_num_players=100, min_num_players=1, **_GAME_TYPE), RulecraftGame)
