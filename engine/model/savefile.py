"""States as JSON (saves, replays, tests) and per-player observations.

``state_to_json`` writes everything that can change, plus the ruleset's name,
content hash and variants, and a checksum of the position; ``state_from_json``
checks all of it and refuses a state from another ruleset, an edited or
damaged one, one holding numbers or cells no game of the ruleset holds (a
forger may work the checksum out again: see :mod:`engine.model.save_ranges`),
or one that cannot go on, with a reason, never a crash.

Example::

    s = game.new_state(players=2, seed=5)
    assert game.state_from_json(s.to_json()) == s
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.blocks.counters import component_key, key_label
from engine.blocks.enumeration import out_of_reach
from engine.blocks.grid import wall_pair
from engine.blocks.outcome import Outcome
from engine.blocks.walls import Walls
from engine.core.decisions import ChanceEvent, Decision
from engine.core.errors import MESSAGE_LIMIT, RulecraftError
from engine.core.facedown import FaceDown, back_label, hidden_from
from engine.core.information import UNORDERED, UNSEEN, zone_view
from engine.core.shown import Shown, seen_in
from engine.core.showtext import cut, players as players_text
from engine.core.slice_shapes import misfit
from engine.core.slices import component_keys, observed, saved_keys, slices_from_json, slices_to_json, unread_keys
from engine.model.save_ranges import Save, out_of_range

if TYPE_CHECKING:
    from engine.blocks.choices import Pending
    from engine.blocks.counters import CounterSpec
    from engine.model.game import Game
    from engine.model.state import State

FORMAT = 1
CHECKSUM = "checksum"
SLICES_KEY = "scratch"  # the blocks' slices of the state: the key saves have always used (a file-format name)
DECIDED = "decided"  # in it: the turn of the last decision
_IDENTITY = ("format", "ruleset", "version", "content_hash", "variants", "set_options", CHECKSUM)
PROBE = 64
"""At most this many of a loaded state's legal actions are tried, to prove it can go on."""


class SaveError(RulecraftError):
    """A saved state or replay that does not fit the ruleset (or is damaged).

    The message may quote what the file holds, so it is cut at ``MESSAGE_LIMIT`` characters.
    """

    def __init__(self, message: str) -> None:
        super().__init__(cut(message, MESSAGE_LIMIT))


def position_hash(data: dict[str, Any]) -> str:
    """The checksum of a saved position: 12 hex digits of the SHA-256 of its canonical JSON.

    The ruleset's identity (name, version, content hash, variants, options set) is left
    out, so positions of a game replayed on a changed ruleset still compare.
    """
    body = {k: v for k, v in data.items() if k not in _IDENTITY}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:12]


def state_to_json(s: "State") -> dict[str, Any]:
    """The whole position as JSON-ready data with its identity and checksum (``State.to_json`` calls this).

    While an effect waits for a choice, the position is the one before the effect began, with the
    pending choice: loading replays the effect to the same pause (see :mod:`engine.blocks.choices`).
    """
    from engine.blocks.choices import before_effect

    pending, s = s.pending, before_effect(s)
    data = _state_data(s)
    if s.game.set_options:  # written only when there are some, so other saves read as before
        data["set_options"] = dict(s.game.set_options)
    if pending is not None:  # an effect waiting for a choice (engine.blocks.choices)
        data["pending"] = _tuples_to_lists(pending.data())
    if s.decisions:  # decisions lent to other roles (engine.core.decisions), written only when there are some
        data["decisions"] = [[d.step, d.role, _tuples_to_lists(d.data)] for d in s.decisions]
    if s.explicit_chance:  # written only when set, so other saves read as before
        data["explicit_chance"] = True
    if s.chance is not None:
        data["chance"] = {"step": s.chance.step, "results": list(s.chance.results),
                          "dice": [[[v, str(p)] for v, p in die] for die in s.chance.dice]}
        if s.chance.pool:  # a draw: written only then, so saves of dice read as before
            data["chance"].update(pool=[list(entry) for entry in s.chance.pool], draws=s.chance.draws,
                                  hidden=s.chance.hidden, seer=s.chance.seer)
    if s.counters:  # written only when declared, so positions of games without counters keep their checksums
        data["counters"] = list(s.counters)
    if s.stacks:  # written only when there are some (pieces beneath others), so other positions keep their checksums
        data["stacks"] = [[x, y, list(below)] for (x, y), below in s.stacks.items()]
    if s.groups:  # written only when there are some, so positions of games without groups keep their checksums
        data["groups"] = [[x, y, marker] for (x, y), marker in s.groups.items()]
        data["members"] = [[x, y, ax, ay] for (x, y), (ax, ay) in s.members.items()]
    data[CHECKSUM] = position_hash(data)
    return data


def _state_data(s: "State") -> dict[str, Any]:
    g = s.game
    return {
        "format": FORMAT,
        "ruleset": g.name,
        "version": g.version,
        "content_hash": g.content_hash,
        "variants": list(g.variants),
        "players": s.players,
        "face": list(s.face),
        "zones": [list(z) for z in s.zones],
        "board": [[x, y, cid] for (x, y), cid in s.grid.items()],
        "frontier": [list(c) for c in s.frontier],
        "positions": list(s.positions),
        "seat_of": dict(s.seat_of),
        "order": list(s.order),
        "turn": s.turn,
        "turn_number": s.turn_number,
        "step": s.step,
        SLICES_KEY: _slices_to_json(s),
        "rng": str(s.rng),
        "outcome": s.outcome.to_json() if s.outcome else None,
    }


def comparable(s: "State") -> tuple[Any, ...]:
    """Everything that defines a state, for equality (the log and history excluded)."""
    return (
        s.game.content_hash, s.players, tuple(s.face), tuple(map(tuple, s.zones)), frozenset(s.grid.items()), frozenset(s.stacks.items()),
        frozenset(s.frontier), frozenset(s.groups.items()), s.positions, tuple(sorted(s.seat_of.items())), s.order, s.turn, s.turn_number,
        s.step, _slices_to_json(s), s.rng, s.outcome, tuple(s.counters), s.pending,
        s.decisions, s.chance, s.explicit_chance,
    )


def transposition_key(s: "State") -> str:
    """A key equal for equal positions, to key a transposition table or a cache: 32 hex digits.

    Unlike :func:`position_hash` (a save's checksum, which :func:`engine.runner.replay.state_hash` gives), it
    leaves out which of identical copies of a component lies where, and the order pieces came onto the board
    (the board's layout stays): two copies of a piece placed at 0,0 then 2,2, or at 2,2 then 0,0, key alike.
    Copies are renamed in a canonical order (the board's cells in order, then the other zones'
    places), with their faces, own counters and the slices that declare components; a slice that only steps the
    game does not have read (a piece just placed, without a clash or group step) is left out.  A position holding an
    id of a renamed copy in some other part (a slice that declares none, a pending choice, a chance event) keys
    as it is, so two positions never key alike unless they are the same position up to copies; such
    positions then miss each other, as they always did.  Code that lists ``board`` itself sees the order
    pieces came onto it, which the key leaves out.

    Example: ``transposition_key(a) == transposition_key(b)`` for ``a``, ``b`` two orders of the same moves.
    """
    data = {k: v for k, v in state_to_json(s).items() if k not in _IDENTITY}
    unread = unread_keys({step.kind for step in s.game.steps})
    data[SLICES_KEY] = {k: v for k, v in data[SLICES_KEY].items() if k not in unread}
    rename = _canonical_copies(s)
    board = s.game.board_zone
    if not _holds_any(_opaque(data), rename):  # renaming is sound: no part holds a renamed id unsaid
        face = list(data["face"])
        for old, new in rename.items():
            face[new] = data["face"][old]
        data["face"] = face
        data["zones"] = [[rename.get(c, c) for c in zone] for zone in data["zones"]]
        data["board"] = [[x, y, rename.get(c, c)] for x, y, c in data["board"]]
        if "stacks" in data:
            data["stacks"] = [[x, y, [rename.get(c, c) for c in below]] for x, y, below in data["stacks"]]
        if "counters" in data:
            slots, counters = s.game.counter_slots, list(data["counters"])
            for old, new in rename.items():
                for i, j in zip(slots[old], slots[new]):
                    counters[j] = data["counters"][i]
            data["counters"] = counters
        slices = dict(data[SLICES_KEY])
        for key in component_keys() & slices.keys():
            slices[key] = _renamed(slices[key], rename)
        data[SLICES_KEY] = slices
    else:
        data["copies"] = "as they lie"  # never alike a renamed position
    if board >= 0:
        data["zones"][board] = sorted(data["zones"][board])
    for key in ("board", "frontier", "stacks", "groups", "members"):
        if key in data:
            data[key] = sorted(data[key])
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()


def _canonical_copies(s: "State") -> dict[int, int]:
    """The renaming of identical copies that puts them in a canonical order: each set of copies, its ids in
    order, given to its copies as they come on the board's cells in order (each cell's pile from the top), then in
    the other zones in order.  Only the copies that change their id are in it (empty: none does)."""
    g = s.game
    order = [c for cell in sorted(s.grid) for c in (s.grid[cell], *s.stacks.get(cell, ()))]
    order += [c for z, zone in enumerate(s.zones) if z != g.board_zone for c in zone]
    rename: dict[int, int] = {}
    for copies in g.identical.values():
        if len(copies) > 1:
            members = set(copies)
            placed = [c for c in order if c in members]
            placed += sorted(members.difference(placed))
            rename.update((old, new) for old, new in zip(placed, sorted(copies)) if old != new)
    return rename


def _opaque(data: dict[str, Any]) -> list[Any]:
    """The parts of a saved position that may hold components' ids but say nothing of which do."""
    known = component_keys() | {DECIDED}
    return [{k: v for k, v in data[SLICES_KEY].items() if k not in known},
            *(data.get(key) for key in ("pending", "decisions", "chance"))]  # an outcome holds seats, scores, texts


def _holds_any(value: Any, ids: dict[int, int]) -> bool:
    """Whether ``value`` (JSON-ready data) holds a whole number among ``ids``' keys, at any depth."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value in ids
    if isinstance(value, dict):
        return any(_holds_any(v, ids) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_any(v, ids) for v in value)
    return False


def _renamed(value: Any, rename: dict[int, int]) -> Any:
    """``value`` (an id, or lists of them) with each id renamed."""
    if isinstance(value, list):
        return [_renamed(v, rename) for v in value]
    return rename.get(value, value) if isinstance(value, int) and not isinstance(value, bool) else value


def _whole(value: Any) -> int:
    """A whole number of a saved state; ValueError (the state is damaged) for anything else, never rounded or parsed.

    >>> _whole(3)
    3
    >>> _whole(3.7)
    Traceback (most recent call last):
    ValueError: 3.7 is no whole number
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{cut(repr(value), 40)} is no whole number")
    return value


def state_from_json(g: "Game", data: Any, state_class: "type[State]", where: str | None = None) -> "State":
    """Rebuild a state of ``state_class`` (the Game passes engine.model.state.State); raises :class:`SaveError` naming
    what does not fit, after ``where`` (the file it was read from) when given."""
    try:
        try:
            s = _read(g, data, state_class)
            _check_sum(data)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError, RecursionError) as err:
            raise SaveError(f"the saved state is damaged or incomplete ({type(err).__name__}: {err})") from None
        if s.pending is not None:
            _replay_pending(s)
        _probe(s)
    except SaveError as err:
        if where is None:
            raise
        raise SaveError(f"{where}: {err}") from None
    return s


def _replay_pending(s: "State") -> None:
    """Replay the effect a loaded state waits in to its choice (the save holds the position before it)."""
    from engine.blocks.choices import restore

    try:
        restore(s)
    except RulecraftError as err:
        raise SaveError(f"the saved pending choice does not fit this game: replaying its effect fails ({err})") from None
    except (TypeError, ValueError, IndexError, KeyError):  # locals or answers of another shape than the effect's
        raise SaveError("the saved pending choice does not fit this game: its effect's locals or answers are not "
                        "the effect's") from None


def _check_sum(data: dict[str, Any]) -> None:
    """Refuse a state whose content does not match its checksum (edited by hand, or damaged)."""
    if CHECKSUM not in data:
        raise SaveError("the saved state has no checksum: it was not written by Rulecraft (or was edited)")
    if data[CHECKSUM] != position_hash(data):
        raise SaveError("the saved state was edited or damaged: its content does not match its checksum")


def _probe(s: "State") -> None:
    """Prove that a loaded game in progress can go on: some legal actions, which apply without crashing.

    A Rulecraft error from an effect is the ruleset's business, not the
    save's; any other exception means the saved state does not hold together.
    """
    if s.outcome is not None:
        return
    try:
        count = len(s.legal_actions())
        if count == 0:
            raise SaveError("the saved game is in progress, but its player has nothing to decide")
        picks = range(count) if count <= PROBE else sorted({i * (count - 1) // (PROBE - 1) for i in range(PROBE)})
        for i in picks:
            trial = s.clone()
            try:
                trial.apply(trial.legal_actions()[i], undo=False)  # a trial copy: nothing to put back
            except RulecraftError:
                continue
    except SaveError:
        raise
    except Exception as err:  # noqa: BLE001 - any crash means the state is inconsistent
        raise SaveError(f"the saved state does not hold together: playing on from it fails ({type(err).__name__})") from None
    finally:
        s._actions = None


def _shown(set_options: Any) -> str:
    """``a=1; b=2`` (as the command line and the Python API both set them), or ``none``.

    >>> _shown({"a": "1", "b": "[2, 3]"}), _shown({})
    ('a=1; b=[2, 3]', 'none')
    """
    if not isinstance(set_options, dict) or not set_options:
        return "none" if not set_options else repr(set_options)
    return "; ".join(f"{name}={text}" for name, text in set_options.items())


def _read(g: "Game", data: Any, state_class: "type[State]") -> "State":
    if not isinstance(data, dict):
        raise SaveError("a saved state must be a JSON object")
    if data.get("format") != FORMAT:
        raise SaveError(f"unknown save format {data.get('format')!r} (this Rulecraft writes format {FORMAT})")
    if data.get("ruleset") != g.name:
        raise SaveError(f"this state is from ruleset '{data.get('ruleset')}', not '{g.name}'")
    if data.get("variants") != list(g.variants):
        raise SaveError(f"this state was played with variants {data.get('variants')}, not {list(g.variants)}")
    if data.get("content_hash") != g.content_hash and data.get("set_options", {}) != g.set_options:
        raise SaveError(f"this state was played with options set {_shown(data.get('set_options', {}))}, not {_shown(g.set_options)}")
    if data.get("content_hash") != g.content_hash:
        raise SaveError(
            f"ruleset '{g.name}' has changed since this state was saved "
            f"(content hash {data.get('content_hash')} then, {g.content_hash} now)"
        )
    if data.get("version") != g.version:
        raise SaveError(f"this state says it was saved with version {data.get('version')!r} of '{g.name}', not {g.version}")
    n = len(g.component_names)
    players = data["players"]
    if not isinstance(players, int) or players not in g.player_counts:
        raise SaveError(f"{players_text(players)} is not allowed in {g.name}")
    if (wrong := out_of_range(g, Save(data, SLICES_KEY, DECIDED))) is not None:
        raise SaveError(wrong)
    face = [_whole(f) for f in data["face"]]
    if len(face) != n or any(not 0 <= f < g.face_count[i] for i, f in enumerate(face)):
        raise SaveError("the faces do not match the ruleset's components")
    zones = [[_whole(c) for c in z] for z in data["zones"]]
    if len(zones) != len(g.zone_names) or sorted(c for z in zones for c in z) != list(range(n)):
        raise SaveError("the zones do not hold every component exactly once")
    zone_of = [0] * n
    for zi, z in enumerate(zones):
        for c in z:
            zone_of[c] = zi
    grid = {}
    cell_of = [None] * n
    for x, y, cid in data["board"]:
        cell = (_whole(x), _whole(y))
        grid[cell] = _whole(cid)
        cell_of[_whole(cid)] = cell
    stacks = {(_whole(x), _whole(y)): tuple(_whole(c) for c in below) for x, y, below in data.get("stacks", [])}
    for cell, below in stacks.items():
        if cell not in grid or not below or not (g.grid is not None and g.grid.stacking):
            raise SaveError("the saved stacks do not match the board")
        for cid in below:
            cell_of[cid] = cell
    on_board = [*grid.values(), *(c for below in stacks.values() for c in below)]
    if g.board_zone >= 0 and sorted(on_board) != sorted(zones[g.board_zone]):
        raise SaveError("the board cells do not match the board zone")
    if g.grid is not None and not all(g.grid.contains(cell) for cell in grid):
        raise SaveError("a saved piece lies off the board")
    if (far := out_of_reach(g.grid, grid, n)) is not None:
        raise SaveError(f"the saved board has a piece no game puts there: {far}")
    frontier = {(_whole(x), _whole(y)): None for x, y in data["frontier"]}
    if Walls.saved[0] in data[SLICES_KEY]:  # the board the state plays on: the frontier follows its walls
        g = _on_walls(g, slices_from_json(data[SLICES_KEY])[Walls.block])
    if g.grid is not None:
        around = {n for cell in grid for n in g.grid.neighbours(cell) if n not in grid}
        if set(frontier) != around:
            raise SaveError("the saved frontier does not match the board")
    groups = {(_whole(x), _whole(y)): _whole(marker) for x, y, marker in data.get("groups", [])}
    if any(cell not in grid for cell in groups) or any(not -1 <= m < n for m in groups.values()):
        raise SaveError("the saved groups do not match the board")
    members = {(_whole(x), _whole(y)): (_whole(ax), _whole(ay)) for x, y, ax, ay in data.get("members", [])}
    if any(cell not in grid or anchor not in groups for cell, anchor in members.items()) or set(members.values()) != set(groups):
        raise SaveError("the saved group members do not match the groups")
    bbox = None
    for cell in grid:
        bbox = g.grid.grow(bbox, cell) if g.grid else None
    positions = tuple(str(r) for r in data["positions"])
    seat_of = {str(k): _whole(v) for k, v in data["seat_of"].items()}
    order = tuple(str(r) for r in data["order"])
    roles = set(g.roles.values) if g.roles else set()
    if set(positions) != roles or set(seat_of) != roles or not set(order) <= roles:
        raise SaveError("the roles do not match the ruleset")
    if len(set(order)) != len(order) or [r for r in positions if seat_of[r]] != sorted(
        order, key=positions.index
    ):
        raise SaveError("the turn order does not match the seated roles")
    if any(not 0 <= seat <= players for seat in seat_of.values()) or sorted(set(seat_of.values()) - {0}) != list(
        range(1, players + 1)
    ):
        raise SaveError(f"the seats do not match {players_text(players)}")
    turn, turn_number, step = _whole(data["turn"]), _whole(data["turn_number"]), _whole(data["step"])
    live = data.get("outcome") is None
    if not (0 <= turn < max(len(order), 1)) or not ((0 if live else -1) <= step < len(g.steps)):
        raise SaveError("the turn or step is out of range")
    saved = data[SLICES_KEY]
    unknown = sorted(str(k) for k in saved if k not in saved_keys() and k != DECIDED)
    if unknown:
        raise SaveError(f"the saved state keeps work no block keeps: {', '.join(map(repr, unknown))}")
    slices = slices_from_json(saved)
    for part in slices.values():
        wrong = misfit(part, len(g.component_kind))
        if wrong is not None:
            raise SaveError(f"the saved work does not fit this game: {wrong}")
    _check_face_down(g, slices.get(FaceDown.block), cell_of)
    _check_shown(g, slices.get(Shown.block))
    decided = _whole(saved[DECIDED]) if DECIDED in saved else None
    counters = _counters(g, data.get("counters", []))
    pending = _pending(g, data.get("pending"), players)
    decisions = _decisions(g, data.get("decisions", []), order)
    chance = _chance(g, data.get("chance"))
    rng = int(data["rng"])
    outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") else None
    if outcome is not None and not (
        len(outcome.scores) == len(outcome.returns) == players
        and all(isinstance(r, (int, float)) for r in outcome.returns)
        and set(outcome.winners) <= set(range(1, players + 1))
    ):
        raise SaveError(f"the saved outcome does not fit {players_text(players)}")
    return state_class(g, players, face, zone_of, zones, grid, stacks, cell_of, frontier, bbox, groups, members, positions,
                       seat_of, order, turn, turn_number, step, slices, decided, counters, rng, 0, outcome, pending,
                       decisions, chance, data.get("explicit_chance") is True)


def _on_walls(g: "Game", walls: Walls) -> "Game":
    """The game on its board with the saved walls standing; refused when its board has no walls, or a wall does not
    stand between two neighbouring cells."""
    grid = g.grid
    try:
        standing = frozenset((tuple(a), tuple(b)) for a, b in walls.standing or ())
        fits = (getattr(grid, "walled", False) and all(len(c) == 2 and all(isinstance(v, int) for v in c)
                                                        for pair in standing for c in pair)
                and all(grid.touches(a, b) and (a, b) == wall_pair(a, b) for a, b in standing))  # type: ignore[union-attr]
    except (TypeError, ValueError):
        fits = False
    if not fits:
        raise SaveError("the saved walls do not fit this game's board")
    return g.with_walls(standing)


def _check_face_down(g: "Game", down: FaceDown | None, cell_of: list[Any]) -> None:
    """Refuse saved face-down pieces that do not fit: a game without ``face_down``, a piece off the board or twice,
    a role the game does not have."""
    if down is None:
        return
    roles = set(g.roles.values) if g.roles is not None else set()
    try:
        pieces = [(int(cid), role) for cid, role in down.pieces or ()]
        fits = (g.parts.get(FaceDown.block) is not None and len({cid for cid, _ in pieces}) == len(pieces) > 0
                and all(0 <= cid < len(cell_of) and cell_of[cid] is not None and (role is None or role in roles)
                        for cid, role in pieces))
    except (TypeError, ValueError):
        fits = False
    if not fits:
        raise SaveError("the saved face-down pieces do not fit this game")


def _check_shown(g: "Game", seen: Shown | None) -> None:
    """Refuse saved shown components that do not fit: no component of the game, one listed twice, no role or a role
    the game does not have."""
    if seen is None:
        return
    roles = set(g.roles.values) if g.roles is not None else set()
    try:
        entries = [(int(cid), tuple(map(str, who))) for cid, who in seen.entries or ()]
        fits = (len({cid for cid, _ in entries}) == len(entries) > 0
                and all(0 <= cid < len(g.component_names) and who and set(who) <= roles for cid, who in entries))
    except (TypeError, ValueError):
        fits = False
    if not fits:
        raise SaveError("the saved components shown to some roles do not fit this game")


def counter_values(s: "State", seat: int | None = None) -> dict[str, Any]:
    """Every counter by name: one number for a game-wide counter, else a number per owner; a keyed counter a number
    per key (``{"7": 2}``), per owner (``{"A": {"X": 1, ...}}``).  With ``seat``, a counter of a component lying
    where that seat sees only a count is left out: its name would say where it is."""
    g = s.game
    values: dict[str, Any] = {}
    for name, spec in g.counters.items():
        if spec.keys is not None:
            values[name] = keyed_values(s, spec, seat)
        elif spec.per == "game":
            values[name] = s.counters[spec.offset]
        else:
            values[name] = {
                g.component_names[o] if isinstance(o, int) else o: s.counters[spec.offset + i] for i, o in enumerate(spec.owners)
                if seat is None or not isinstance(o, int) or zone_view(s, s.zone_of[o], seat) != UNSEEN and not hidden_from(s, o, seat)
            }
    return values


def keyed_values(s: "State", spec: "CounterSpec", seat: int | None) -> dict[str, Any]:
    """A keyed counter's values as :func:`counter_values` gives them: by key (a game-wide counter), else by owner, then
    by key; keys and owners as observations name them (a number as text), owners and keys ``seat`` cannot see left
    out (a component lying hidden from it, as an owner or as the key of a counter keyed by a kind)."""
    g = s.game
    by_owner: dict[Any, dict[str, int]] = {}
    for i, (owner, key) in enumerate(spec.owners):
        if seat is None or _seen_by(s, owner, seat) and _seen_by(s, component_key(spec, (owner, key)), seat):
            by_owner.setdefault(owner, {})[key_label(g, spec, key)] = s.counters[spec.offset + i]
    if spec.per == "game":
        return by_owner.get(None, {})
    return {g.component_names[o] if isinstance(o, int) else o: keyed for o, keyed in by_owner.items()}


def _seen_by(s: "State", owner: Any, seat: int) -> bool:
    """Whether ``seat`` may read a counter of ``owner`` (or keyed by it): a role, nothing, or a component it sees."""
    return not isinstance(owner, int) or zone_view(s, s.zone_of[owner], seat) != UNSEEN and not hidden_from(s, owner, seat)


def owner_label(s: "State", owner: str) -> str:
    """A counter's owner as :func:`counter_values` names it (a role, a component's id), told as a reader tells it:
    one of identical copies (whose ids no board or action shows) by its name and where it lies, ``X at (1,1)``."""
    from engine.blocks.state_functions import placed_text

    g = s.game
    cid = g.component_ids.get(owner)
    if cid is None or g.component_names[cid] == g.piece_names[cid]:
        return owner
    return placed_text(s, cid)


def _pending(g: "Game", data: Any, players: int) -> "Pending | None":
    """A saved pending choice, checked for shape (whether it still fits is proved by re-running it)."""
    from engine.blocks.choices import Pending

    if data is None:
        return None
    try:
        pending = Pending(**{k: _lists_to_tuples(v) if k != "step" else int(v) for k, v in data.items()})
    except (TypeError, ValueError):
        raise SaveError("the saved pending choice is damaged") from None
    if not all(isinstance(getattr(pending, name), tuple) for name in ("env", "tape", "options", "labels", "dice")) \
            or type(pending.seat) is not int or not isinstance(pending.prompt, str) \
            or not all(isinstance(label, str) for label in pending.labels) \
            or not all(type(die) is int for die in pending.dice):  # a forged save's env of 'x' failed inside the replay
        raise SaveError("the saved pending choice is damaged")
    if not (0 <= pending.step < len(g.steps) and 1 <= pending.seat <= players and len(pending.options) == len(pending.labels) >= 1):
        raise SaveError("the saved pending choice does not fit this game")
    return pending


def _decisions(g: "Game", data: Any, order: tuple[str, ...]) -> tuple[Decision, ...]:
    """The saved stack of lent decisions, checked for shape: each names a step of the game and a seated role."""
    try:
        decisions = tuple(Decision(int(step), str(role), _lists_to_tuples(rest)) for step, role, rest in data)
    except (TypeError, ValueError):
        raise SaveError("the saved pending decisions are damaged") from None
    if any(not 0 <= d.step < len(g.steps) or d.role not in order for d in decisions):
        raise SaveError("the saved pending decisions do not fit this game")
    return decisions


def _chance(g: "Game", data: Any) -> ChanceEvent | None:
    """The saved chance event (dice a step waits for, or components it draws), checked for shape."""
    if data is None:
        return None
    try:
        dice = tuple(tuple((int(v), Fraction(p)) for v, p in die) for die in data["dice"])
        if "pool" in data:
            pool = tuple((str(name), int(count)) for name, count in data["pool"])
            event = ChanceEvent(int(data["step"]), (), tuple(str(r) for r in data["results"]), pool,
                                int(data["draws"]), data["hidden"] is True, int(data["seer"]))
        else:
            event = ChanceEvent(int(data["step"]), dice, tuple(int(r) for r in data["results"]))
    except (TypeError, ValueError, KeyError, ZeroDivisionError):
        raise SaveError("the saved chance event is damaged") from None
    if not (0 <= event.step < len(g.steps) and len(event.results) < event.size
            and all(die and sum(p for _, p in die) == 1 for die in dice)
            and all(count > 0 and name in g.component_names for name, count in event.pool)
            and all(event.results.count(name) <= count for name, count in event.pool)
            and (not event.pool or set(event.results) <= {name for name, _ in event.pool})):
        raise SaveError("the saved chance event does not fit this game")
    return event


def _counters(g: "Game", data: Any) -> list[int]:
    """The saved counters, checked against the ruleset's declarations."""
    size = sum(len(spec.owners) for spec in g.counters.values())
    if not isinstance(data, list) or len(data) != size or not all(isinstance(v, int) and not isinstance(v, bool) for v in data):
        raise SaveError(f"the saved counters do not match the ruleset ({size} values expected)")
    return list(data)


def _slices_to_json(s: "State") -> dict[str, Any]:
    """The slices of the state, the turn of the last decision with them, as saves have always written them."""
    data: dict[str, Any] = {} if s.decided is None else {DECIDED: s.decided}
    data.update(slices_to_json(s.slices))
    return data


def _tuples_to_lists(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_tuples_to_lists(x) for x in v]
    return v


def _lists_to_tuples(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_lists_to_tuples(x) for x in v)
    return v


def seen_order(s: "State", zone: int, seat: int) -> list[int]:
    """The components of a zone ``seat`` sees, in the order it sees them: a zone it sees UNORDERED by name and face
    (the same for every order of the same contents), any other as it is.

    Example: ``[game.piece_names[c] for c in seen_order(state, zone, 1)]`` is the list ``observation(1)`` shows.
    """
    items = s.zones[zone]
    if zone_view(s, zone, seat) != UNORDERED:
        return list(items)
    g = s.game
    return sorted(items, key=lambda c: (g.piece_names[c], s.face[c]))


def observation(s: "State", player: int) -> dict[str, Any]:
    """What seat ``player`` may know.  Each zone shows as :func:`engine.core.information.zone_view` says; hidden roles
    show only the seat's own (``seats`` lists its roles, ``current_role`` is None on others' turns).  A zone the seat
    sees whose components do not all show their first face also lists every component's face under ``faces``
    (a die in one's own tray shows what it rolled).  A slice of the state may show more with an ``observe`` method
    (committed cells: the seat's own sealed ones and every revealed one).  A zone the seat sees only as a count lists
    under ``seen`` the components shown to it there (``show(..., to = r)``), each with its place in the zone:
    ``{"hidden": 2, "seen": [[0, "X"]]}``.  A face-down piece the seat does not see
    shows on the board only as its back, ``["face-down tile", None]`` (see :mod:`engine.core.facedown`), and
    ``face_down`` lists the cells of every face-down piece.  Once the game is over nothing is hidden any more: every
    seat's observation is :func:`open_observation` (the hands, the deck's order, the face-down pieces, every role)."""
    if s.outcome is not None:
        return open_observation(s, player)
    g = s.game
    hidden_roles = g.roles is not None and g.roles.hidden
    seats = {r: seat for r, seat in s.seat_of.items() if seat == player or not hidden_roles}
    to_move = s.outcome is None and s.seat_to_move == player
    zones: dict[str, Any] = {}
    faces: dict[str, list[str]] = {}  # seen zones holding a component that does not show its first face: every face
    for zi, name in enumerate(g.zone_names):
        items = s.zones[zi]
        view = zone_view(s, zi, player)
        if view == UNSEEN:
            zones[name] = {"hidden": len(items)}
            seen = seen_in(s, zi, player)
            if seen:  # shown to this seat alone: each at its place in the zone
                zones[name]["seen"] = [[i, g.piece_names[c]] for i, c in seen]
            continue
        if view == UNORDERED:
            items = seen_order(s, zi, player)
        if zi == g.board_zone and any(hidden_from(s, c, player) for c in items):  # face-down pieces: their backs
            zones[name] = [back_label(s, c) if hidden_from(s, c, player) else g.piece_names[c] for c in items]
            if any(s.face[c] for c in items if not hidden_from(s, c, player)):
                faces[name] = [None if hidden_from(s, c, player) else g.face_labels[c][s.face[c]] for c in items]
            continue
        zones[name] = [g.piece_names[c] for c in items]
        if any(s.face[c] for c in items):
            faces[name] = [g.face_labels[c][s.face[c]] for c in items]
    return {
        "ruleset": g.name,
        "player": player,
        "players": s.players,
        "turn": s.turn_number,
        "current_player": s.seat_to_move,
        "current_role": s.current_role if to_move or not hidden_roles else None,
        "seats": seats,
        "board": {f"{x},{y}": [back_label(s, c), None] if hidden_from(s, c, player) else [g.piece_names[c], g.face_labels[c][s.face[c]]]
                  for (x, y), c in s.grid.items()},
        **({"stacks": {f"{x},{y}": [g.piece_names[c] for c in below] for (x, y), below in s.stacks.items()}} if s.stacks else {}),
        "zones": zones,
        **({"faces": faces} if faces else {}),
        "counters": counter_values(s, player),
        **observed(s, player),  # what the blocks' slices show this seat
        "choice": {"prompt": s.pending.words, "options": list(s.pending.labels)} if s.pending and s.pending.seat == player else None,
        "legal_actions": ([str(a) for a in s.legal_actions()] if to_move  # a later seat's part of a sealed step too
                          else [str(a) for a in s.legal_actions(player)] if player in s.simultaneous_seats() else []),
        "outcome": s.outcome.to_json() if s.outcome else None,
    }


def open_observation(s: "State", player: int | None = None) -> dict[str, Any]:
    """Everything open: every zone in the order its components lie, with the faces they show, every face-down piece,
    every counter and every seat's role.  It is every seat's observation once the game is over (as the finished
    game's save holds it), so that a loser sees why; the terminal and the web table show the same, and a table of
    bots alone, which keeps no secret from its watchers, shows it throughout.  ``player``: the seat it is made for
    (None: nobody's; the blocks' parts of the state as every seat sees them); it has no choice and no legal actions.

    Example: at the end of a game of hidden hands, ``open_observation(state)["zones"]["hand of A"]`` lists the cards
    A still held, in order, where A's opponent saw ``{"hidden": 2}`` while the game went on.
    """
    g = s.game
    zones = {name: [g.piece_names[c] for c in s.zones[zi]] for zi, name in enumerate(g.zone_names)}
    faces = {name: [g.face_labels[c][s.face[c]] for c in s.zones[zi]]
             for zi, name in enumerate(g.zone_names) if any(s.face[c] for c in s.zones[zi])}
    return {
        "ruleset": g.name,
        "player": player,
        "players": s.players,
        "turn": s.turn_number,
        "current_player": s.seat_to_move,
        "current_role": s.current_role,
        "seats": dict(s.seat_of),
        "board": {f"{x},{y}": [g.piece_names[c], g.face_labels[c][s.face[c]]] for (x, y), c in s.grid.items()},
        **({"stacks": {f"{x},{y}": [g.piece_names[c] for c in below] for (x, y), below in s.stacks.items()}} if s.stacks else {}),
        "zones": zones,
        **({"faces": faces} if faces else {}),
        "counters": counter_values(s),
        **observed(s, player or 0),  # what the blocks' slices show this seat (seat 0: every seat)
        "choice": None,
        "legal_actions": [],
        "outcome": s.outcome.to_json() if s.outcome else None,
    }
