"""Replays: a game as its ruleset, seed and actions, that refuses to lie.

A replay names what to load (a built-in ruleset by name, any other by
absolute path), the ruleset's **content hash** and **version** when the game
was played, the variants (and the options set from outside the ruleset's
files with ``--set``, as ``"set_options": {"NAME": "VALUE"}``), the number of
players and the seed (and ``"explicit_chance": true`` for a game whose dice were
rolled as actions, ``roll 4``), then the actions in text form.  Because the engine is deterministic, playing the
actions on a new state rebuilds the game exactly.  A replay also stores a
short hash of the state at the start and after every action, so a replay can
tell not only that an action became illegal but that a still-legal action now
leads somewhere else::

    {"format": 2, "ruleset": "my-game", "content_hash": "3f0c...", "version": 1,
     "variant": [], "players": 2, "seed": 0,
     "actions": ["place A at 0,0", ...],
     "hashes": ["9b1d2e0c4f3a", "51c0a9e2d7b8", ...]}

``rulecraft play --log`` / ``save FILE`` write one, ``rulecraft play --load``
continues one and ``rulecraft replay`` plays one back.  Logs written before
hashes existed (no ``format``) are still read; they simply cannot detect a
changed ruleset.

Example::

    state = game.new_state(players=2, seed=4, record=True)
    ...                                          # play to the end
    rec = Replay.record(state, "my-game", seed=4)
    _, again = rec.start()
    rec.play(again)                              # again == state
>>> Replay.from_json({"ruleset": "my-game", "players": "two", "seed": 4}, "log.json")
Traceback (most recent call last):
engine.model.savefile.SaveError: log.json: 'players' must be a number, not 'two'

The module also plays *checked* random games — invariants tested after every
action, any error caught — for ``rulecraft check --invariants`` and the soak
benchmark; a failing game comes back with its seed, the action number and a
replay of it.
"""

from __future__ import annotations

import json
import operator
import random
from dataclasses import dataclass, field
from numbers import Integral
from pathlib import Path
from typing import Any, Callable

from engine.core.atomic import write_atomic
from engine.core.set_options import set_outside
from engine.core.confine import FileRefused, check_name_inside, check_named_ruleset, read_bytes
from engine.core.errors import MESSAGE_LIMIT, IllegalActionError, RulecraftError, RulesetError
from engine.core.paths import builtin_names, find_ruleset
from engine.core.showtext import cut, players as players_text
from engine.model.game import Game
from engine.model.savefile import CHECKSUM, SaveError, state_to_json
from engine.model.state import State

FORMAT = 2
"""The replay format this module writes (1: the first logs, without hashes)."""

EXPLICIT_CHANCE_LOG = ("this game rolled its dice as actions (a state made with explicit_chance=True): it can be "
                       "replayed (rulecraft replay), not played on, where the dice roll themselves")
"""Why a log of a game whose dice were actions is not continued at a table (``play --load``, the browser)."""

MAX_BYTES = 20 * 1024 * 1024
"""Replay files larger than this are refused unread."""



def state_hash(state: State) -> str:
    """A short hash of everything that defines a position (the checksum of its save).

    The ruleset's name, version and content hash are left out, so a replay
    run on a changed ruleset can still compare positions.

    Example: ``state_hash(s) == state_hash(s.clone())`` (12 hex digits).
    """
    return str(state_to_json(state)[CHECKSUM])


class RulesetChanged(SaveError):
    """The ruleset's content is not what the replay was recorded with."""


class ReplayDiverged(SaveError):
    """An action of a replay was refused, or led to another position than the one recorded.

    ``number`` is the action's number (1 = the first; 0 = the starting
    position), ``action`` its text, ``reason`` what went wrong.
    """

    def __init__(self, number: int, action: str, reason: str) -> None:
        self.number, self.action, self.reason = number, action, reason
        where = "the starting position" if number == 0 else f"action {number} '{cut(action, 200)}'"
        super().__init__(f"{where} {cut(reason, MESSAGE_LIMIT)}")

    def __reduce__(self) -> tuple[type, tuple[int, str, str]]:  # type: ignore[override]
        return (type(self), (self.number, self.action, self.reason))


@dataclass
class Replay:
    """A game that can be replayed: what to load, how to start it, the actions and the positions."""

    ruleset: str
    variant: list[str]
    players: int
    seed: int
    actions: list[str] = field(default_factory=list)
    base: Path | None = None  # a relative ruleset path is looked for here first (the log's folder)
    file: Path | None = field(default=None, compare=False)  # the file it was read from
    content_hash: str | None = None
    version: int | None = None
    hashes: list[str] = field(default_factory=list)  # position at the start, then after each action
    set_options: dict[str, str] = field(default_factory=dict)  # options set from outside the files (``--set``)
    explicit_chance: bool = False  # the dice turn steps roll are actions of the log (``roll 4``), not the seed's
    game: Game | None = field(default=None, repr=False, compare=False)  # the game it was played with, once known

    @property
    def variants(self) -> list[str]:
        """The variants the game was played with (the log's ``variant`` list)."""
        return self.variant

    # ------------------------------------------------------------ making

    @classmethod
    def record(cls, state: State, ruleset: str, seed: int) -> "Replay":
        """The replay of a game played from ``game.new_state(players, seed, record=True)`` (with
        ``explicit_chance=True`` too: the dice rolled are then actions of the replay).

        ``ruleset`` is how to name it (see :func:`ruleset_ref`).  The positions
        are recomputed by playing the history again, and must end where
        ``state`` is.
        """
        if state.history is None:
            raise SaveError("this game was not recorded: create it with new_state(..., record=True)")
        if isinstance(seed, bool) or not isinstance(seed, Integral):
            raise TypeError(f"the seed is a whole number, not {cut(repr(seed), 60)}")
        seed = operator.index(seed)  # NumPy's as a plain int: the log is JSON
        game = state.game
        if ruleset in builtin_names() and ruleset != game.name:  # a log that would load another game
            raise SaveError(f"this is a game of {game.name}, not of the built-in ruleset {ruleset}: name the "
                            "ruleset the game was loaded from")
        log = cls(ruleset, list(game.variants), state.players, seed, list(state.history), set_options=dict(game.set_options),
                  explicit_chance=state.explicit_chance)
        log.seal(game)
        if log.hashes[-1] != state_hash(state):
            raise SaveError(f"replaying this game's actions from seed {seed} does not reach its position (was it set "
                            "up with another seed, or by hand?)")
        return log

    def seal(self, game: Game | None = None) -> None:
        """Fill in the content hash, version and positions by replaying the actions on ``game``.

        Without ``game``, the one the replay was started with, else the ruleset
        loaded again.
        """
        game = game or self.game or self._load()
        self.game = game
        self.content_hash, self.version = game.content_hash, game.version
        state = game.new_state(players=self.players, seed=self.seed, explicit_chance=self.explicit_chance)
        hashes = [state_hash(state)]
        for number, text in enumerate(self.actions, 1):
            try:
                state.apply(text)
            except IllegalActionError as err:
                raise ReplayDiverged(number, text, f"cannot be replayed: {err}") from None
            hashes.append(state_hash(state))
        self.hashes = hashes

    # ------------------------------------------------------------ files

    def to_json(self) -> dict[str, Any]:
        """The log as its file holds it: format, ruleset, seed, players, actions, and what else it records."""
        data: dict[str, Any] = {"format": FORMAT, "ruleset": self.ruleset}
        if self.content_hash is not None:
            data["content_hash"] = self.content_hash
            data["version"] = self.version
        data["variant"] = list(self.variant)
        if self.set_options:
            data["set_options"] = dict(self.set_options)
        data.update(players=self.players, seed=self.seed, actions=list(self.actions))
        if self.explicit_chance:
            data["explicit_chance"] = True
        if self.hashes:
            data["hashes"] = list(self.hashes)
        return data

    def write(self, path: Path) -> None:
        """Write the replay as JSON (atomically), sealing it first if its positions are not known yet."""
        if len(self.hashes) != len(self.actions) + 1:
            self.seal()
        write_atomic(path, json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def read(cls, path: Path) -> "Replay":
        """Read a replay file; raises SaveError naming the problem."""
        path = Path(path)
        try:
            data = read_bytes(path, MAX_BYTES, "game log")
        except FileRefused as err:
            raise SaveError(str(err)) from None
        except OSError as err:
            raise SaveError(f"{path}: cannot read the game log ({err.strerror or err})") from None
        try:
            parsed = json.loads(data.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as err:  # JSONDecodeError is a ValueError
            raise SaveError(f"{path}: not a JSON game log ({err})") from None
        except RecursionError:
            raise SaveError(f"{path}: not a game log (its JSON nests too deeply)") from None
        log = cls.from_json(parsed, str(path))
        log.base, log.file = path.resolve().parent, path
        return log

    @classmethod
    def from_json(cls, data: Any, where: str) -> "Replay":
        """Check the shape of a replay; raises SaveError naming the bad field."""
        if not isinstance(data, dict):
            raise SaveError(f"{where}: a game log is a JSON object with 'ruleset', 'players', 'seed' and 'actions'")
        if CHECKSUM in data and "actions" not in data:  # state.to_json(): a position, not the moves that led to it
            raise SaveError(f"{where}: this is a saved position (state.to_json()), not a game log of actions: load it "
                            "in Python with game.state_from_json(...)")
        form = data.get("format", 1)
        if form not in (1, FORMAT) or isinstance(form, bool):
            raise SaveError(f"{where}: unknown game log format {form!r} (this Rulecraft reads formats 1 and {FORMAT})")
        variant = data.get("variant", data.get("variants")) or []
        if isinstance(variant, str):
            variant = [v for v in variant.split("+") if v]
        log = cls(
            ruleset=_field(data, "ruleset", str, where),
            variant=_strings(variant, "variant", where),
            players=_field(data, "players", int, where),
            seed=_field(data, "seed", int, where),
            actions=_strings(data.get("actions", []), "actions", where),
            set_options=_texts_by_name(data.get("set_options", {}), "set_options", where),
            explicit_chance=data.get("explicit_chance", False),
        )
        if not isinstance(log.explicit_chance, bool):
            raise SaveError(f"{where}: 'explicit_chance' must be true or false, not {cut(repr(log.explicit_chance), 60)}")
        if "content_hash" in data:
            log.content_hash = _field(data, "content_hash", str, where)
            log.version = _field(data, "version", int, where)
        hashes = _strings(data.get("hashes", []), "hashes", where)
        if hashes and len(hashes) != len(log.actions) + 1:
            raise SaveError(
                f"{where}: 'hashes' must hold one position per action plus the start "
                f"({len(log.actions) + 1}), not {len(hashes)}: the log is damaged"
            )
        if not hashes and (form == FORMAT or "content_hash" in data):  # a log of this format with its checks cut out
            said = f"says 'format': {form!r}" if form == FORMAT else f"has a 'content_hash' (only format-{FORMAT} logs do)"
            raise SaveError(
                f"{where}: the log {said} but has no 'hashes', the positions a format-{FORMAT} log records after "
                "every action: the log is damaged, and its actions cannot be checked"
            )
        log.hashes = hashes
        return log

    @property
    def checked(self) -> bool:
        """Whether playing it back checks every position (a format-1 log only checks that each action is legal).

        >>> Replay("my-game", [], 2, 0).checked
        False
        """
        return bool(self.hashes)

    # ------------------------------------------------------------ playing back

    def changed(self, game: Game) -> str | None:
        """Why ``game`` is not the ruleset this replay was recorded with (None when it is, or unknown): its content
        hash differs, or its version (the hash covers the version, so a version that alone differs was edited in the
        log, as a save's is refused).

        >>> import engine
        >>> name = engine.builtin_names()[0]
        >>> game = engine.load(name)
        >>> Replay(name, [], 2, 0, content_hash=game.content_hash, version=game.version).changed(game) is None
        True
        >>> Replay(name, [], 2, 0, content_hash=game.content_hash, version=game.version + 1).changed(game)[:21]
        'the log says version '
        """
        if self.content_hash is None or (self.content_hash == game.content_hash
                                         and self.version in (None, game.version)):
            return None
        if self.content_hash == game.content_hash:
            return (f"the log says version {self.version} of '{game.name}', but its content hash is that of version "
                    f"{game.version}, as the ruleset is now: the log was edited")
        then = f"version {self.version}, content hash {self.content_hash}"
        now = f"version {game.version}, content hash {game.content_hash}"
        named = [f"variant {'+'.join(self.variant)}"] * bool(self.variant) + [f"{k}={v}" for k, v in self.set_options.items()]
        edited = (f" (with {', '.join(named)}), or the variants or options the log names were edited" if named else
                  ", or the log was edited (it names no variant or option: one may have been taken out of it)")
        return f"ruleset '{game.name}' has changed since this game was recorded{edited} ({then} then; {now} now)"

    def start(self, force: bool = False) -> tuple[Game, State]:
        """Load the ruleset and make the starting state (recording its log and history).

        Refuses (:class:`RulesetChanged`) when the ruleset's content changed
        since the game was recorded, unless ``force``.
        """
        game = self._load()
        why = self.changed(game)
        if why is not None and not force:
            raise RulesetChanged(why)
        self.game = game
        if self.players not in game.player_counts:
            raise SaveError(f"{self.file or self.base or 'the game log'}: 'players' is {self.players}, but {game.name} is "
                            f"played by {players_text(game.player_counts)}")
        return game, game.new_state(players=self.players, seed=self.seed, record=True, explicit_chance=self.explicit_chance)

    def play(self, state: State, each: Callable[[int, str, int], None] | None = None) -> None:
        """Apply the actions to the starting state, checking each position against the recorded one.

        Calls ``each(number, text, seat)`` after every action; raises
        :class:`ReplayDiverged` at the first action that is refused or leads
        elsewhere than recorded.
        """
        replay(state, self.actions, each, self.hashes or None)

    def _load(self) -> Game:
        from engine.compiling.loading import load

        try:
            if self.base is not None:  # a path outside is refused before it is looked at
                check_name_inside(self.ruleset, self.base, "the game log's ruleset")
            path = find_ruleset(self.ruleset, relative_to=self.base)
        except FileRefused as err:
            raise SaveError(f"{self.file or self.base}: {err}") from None
        except OSError as err:  # a name too long for the file system
            raise SaveError(f"{self.file or self.base}: the game log's ruleset '{cut(self.ruleset, 200)}' cannot be "
                            f"read: {err.strerror}") from None
        if self.base is not None and self.ruleset not in builtin_names():
            try:
                check_named_ruleset(path, self.base, "the game log's ruleset", self.ruleset)
            except FileRefused as err:
                raise SaveError(f"{self.file or self.base}: {err}") from None
        try:
            return load(path, self.variant, self.set_options)
        except RulesetError as err:
            if any(d.pos is not None and not set_outside(d.pos.file) for d in err.diagnostics):
                raise  # the ruleset's own files, at their lines
            # the log's own words: an option's value it sets is told at its place in that value, after the log's name
            named = "; ".join(d.headline() for d in err.diagnostics)
            raise SaveError(f"{self.file or self.base}: the variants and options the game log names: {named}") from None


GameLog = Replay
"""The name ``rulecraft play`` first used for replays."""


def ruleset_ref(name_or_path: str) -> str:
    """How a replay names a ruleset: a built-in by name, anything else by absolute path."""
    if name_or_path in builtin_names():
        return name_or_path
    return str(find_ruleset(name_or_path).resolve())


def replay(
    state: State,
    actions: list[str],
    each: Callable[[int, str, int], None] | None = None,
    hashes: list[str] | None = None,
) -> None:
    """Apply the actions in order, calling ``each(number, text, seat)`` after each one.

    An action that is not legal raises :class:`ReplayDiverged` (a SaveError)
    with its number and the reason; with ``hashes`` (the positions at the
    start and after each action), so does a position that differs.
    """
    if hashes:
        _compare(state, hashes[0], 0, "")
    for number, text in enumerate(actions, 1):
        seat = state.seat_to_move
        try:
            state.apply(text)
        except IllegalActionError as err:
            raise ReplayDiverged(number, text, f"cannot be replayed: {err}") from None
        if hashes:
            _compare(state, hashes[number], number, text)
        if each is not None:
            each(number, text, seat)


def _compare(state: State, recorded: str, number: int, text: str) -> None:
    now = state_hash(state)
    if now != recorded:
        verb = "differs from" if number == 0 else "leads to a position that differs from"
        raise ReplayDiverged(number, text, f"{verb} the recorded one (position hash {recorded} then, {now} now)")


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveError(f"{where}: '{key}' must be {'a number' if kind is int else 'a string'}, not {value!r}")
    return value


def _strings(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SaveError(f"{where}: '{key}' must be a list of strings")
    return list(value)


def _texts_by_name(value: Any, key: str, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise SaveError(f"{where}: '{key}' must map option names to values written as text, like {{\"width\": \"4\"}}")
    return dict(value)


# ---------------------------------------------------------------- checked random games


@dataclass
class Playout:
    """One random game played with checks: where it failed (if it did) and how to replay it.

    ``failed_at`` is the number of actions applied when the failure showed
    (0: right after setup); ``broken`` names the invariants that did not hold
    there; ``error`` is the message of an error raised by the engine, and
    ``crash`` is True when that error was not a Rulecraft error (a bug in
    Rulecraft itself, not in the ruleset).
    """

    seed: int
    players: int
    actions: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    error: str | None = None
    crash: bool = False
    failed_at: int | None = None
    finished: bool = False

    @property
    def ok(self) -> bool:
        """True when no check of the game failed."""
        return self.failed_at is None

    def problem(self) -> str:
        """The failure in words (empty when the game was fine)."""
        if self.ok:
            return ""
        where = "after setup" if self.failed_at == 0 else (
            f"after action {self.failed_at} '{self.actions[self.failed_at - 1]}'"
            if self.failed_at and self.failed_at <= len(self.actions) else f"at action {self.failed_at}"
        )
        if self.broken:
            names = ", ".join(f"'{n}'" for n in self.broken)
            return f"game seed {self.seed}: invariant{'s' * (len(self.broken) > 1)} {names} broken {where}"
        kind = "internal error" if self.crash else "error"
        return f"game seed {self.seed}: {kind} {where}: {self.error}"

    def replay(self, ruleset: str, game: Game) -> Replay:
        """The game so far as a replay (up to and including the failing action)."""
        return Replay(
            ruleset, list(game.variants), self.players, self.seed, list(self.actions), set_options=dict(game.set_options), game=game
        )


def checked_playout(
    game: Game, players: int, seed: int, max_actions: int = 10_000, invariants: bool = True
) -> Playout:
    """Play one game choosing uniformly at random (choices seeded by ``seed`` too), checking as it goes.

    After setup and after every action the ruleset's invariants are tested
    (unless ``invariants`` is False); the first broken one, any error, or a
    game longer than ``max_actions`` stops the game and is reported.  Never
    raises for a problem of the game itself.
    """
    result = Playout(seed, players)
    choose = random.Random(seed)
    applied = 0
    try:
        state = game.new_state(players=players, seed=seed)
        while True:
            if invariants and game.invariants:
                broken = game.broken_invariants(state)
                if broken:
                    result.broken, result.failed_at = broken, applied
                    return result
            if state.is_terminal:
                result.finished = True
                return result
            if applied >= max_actions:
                result.error, result.failed_at = f"the game did not end within {max_actions} actions", applied
                return result
            legal = state.legal_actions()
            if len(legal) == 0:
                result.error, result.failed_at = f"seat {state.seat_to_move} has no legal action", applied
                return result
            action = legal[choose.randrange(len(legal))]
            result.actions.append(str(action))
            applied += 1
            state.apply(action)
    except RulecraftError as err:
        result.error, result.failed_at = str(err), applied
    except Exception as err:  # noqa: BLE001 - reported (with a replay) rather than raised
        result.error, result.crash, result.failed_at = f"{type(err).__name__}: {err}", True, applied
    return result
