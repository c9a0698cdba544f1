"""States as JSON (saves, replays, tests) and per-player observations.

``state_to_json`` writes everything that can change, plus the ruleset's name,
content hash and variants; ``state_from_json`` checks all of it and refuses a
state from another ruleset (or a damaged file) with a reason, never a crash.

>>> import engine
>>> g = engine.load("tutorial-tiles")
>>> s = g.new_state(players=2, seed=5)
>>> g.state_from_json(s.to_json()) == s
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.outcome import Outcome
from engine.errors import RulecraftError

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import State

FORMAT = 1


class SaveError(RulecraftError):
    """A saved state or replay that does not fit the ruleset (or is damaged)."""


def state_to_json(s: "State") -> dict[str, Any]:
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
        "scratch": _scratch_to_json(s.scratch),
        "rng": str(s.rng),
        "outcome": s.outcome.to_json() if s.outcome else None,
    }


def comparable(s: "State") -> tuple[Any, ...]:
    """Everything that defines a state, for equality (the log and history excluded)."""
    return (
        s.game.content_hash, s.players, tuple(s.face), tuple(map(tuple, s.zones)), tuple(s.grid.items()),
        tuple(s.frontier), s.positions, tuple(sorted(s.seat_of.items())), s.order, s.turn, s.turn_number,
        s.step, tuple(sorted(s.scratch.items())), s.rng, s.outcome,
    )


def state_from_json(g: "Game", data: Any) -> "State":
    """Rebuild a state; raises :class:`SaveError` naming what does not fit."""
    from engine.state import State

    try:
        return _read(g, data, State)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise SaveError(f"the saved state is damaged or incomplete ({type(err).__name__}: {err})") from None


def _read(g: "Game", data: Any, State: type) -> "State":
    if not isinstance(data, dict):
        raise SaveError("a saved state must be a JSON object")
    if data.get("format") != FORMAT:
        raise SaveError(f"unknown save format {data.get('format')!r} (this Rulecraft writes format {FORMAT})")
    if data.get("ruleset") != g.name:
        raise SaveError(f"this state is from ruleset '{data.get('ruleset')}', not '{g.name}'")
    if list(data.get("variants", [])) != list(g.variants):
        raise SaveError(f"this state was played with variants {data.get('variants')}, not {list(g.variants)}")
    if data.get("content_hash") != g.content_hash:
        raise SaveError(
            f"ruleset '{g.name}' has changed since this state was saved "
            f"(content hash {data.get('content_hash')} then, {g.content_hash} now)"
        )
    n = len(g.component_names)
    players = int(data["players"])
    if players not in g.player_counts:
        raise SaveError(f"{players} players is not allowed in {g.name}")
    s = State.__new__(State)
    s.game = g
    s.players = players
    s.face = [int(f) for f in data["face"]]
    if len(s.face) != n or any(not 0 <= f < g.face_count[i] for i, f in enumerate(s.face)):
        raise SaveError("the faces do not match the ruleset's components")
    s.zones = [[int(c) for c in z] for z in data["zones"]]
    if len(s.zones) != len(g.zone_names) or sorted(c for z in s.zones for c in z) != list(range(n)):
        raise SaveError("the zones do not hold every component exactly once")
    s.zone_of = [0] * n
    for zi, z in enumerate(s.zones):
        for c in z:
            s.zone_of[c] = zi
    s.grid = {}
    s.cell_of = [None] * n
    for x, y, cid in data["board"]:
        cell = (int(x), int(y))
        s.grid[cell] = int(cid)
        s.cell_of[int(cid)] = cell
    if g.board_zone >= 0 and sorted(s.grid.values()) != sorted(s.zones[g.board_zone]):
        raise SaveError("the board cells do not match the board zone")
    s.frontier = {(int(x), int(y)): None for x, y in data["frontier"]}
    s.bbox = None
    for cell in s.grid:
        s.bbox = g.grid.grow(s.bbox, cell) if g.grid else None
    s.positions = tuple(str(r) for r in data["positions"])
    s.seat_of = {str(k): int(v) for k, v in data["seat_of"].items()}
    s.order = tuple(str(r) for r in data["order"])
    roles = set(g.roles.values) if g.roles else set()
    if set(s.positions) != roles or set(s.seat_of) != roles or not set(s.order) <= roles:
        raise SaveError("the roles do not match the ruleset")
    s.turn, s.turn_number, s.step = int(data["turn"]), int(data["turn_number"]), int(data["step"])
    if not (0 <= s.turn < max(len(s.order), 1)) or not (-1 <= s.step < len(g.steps)):
        raise SaveError("the turn or step is out of range")
    s.scratch = _scratch_from_json(data["scratch"])
    s.rng = int(data["rng"])
    s.budget = 0
    s.outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") else None
    s.log = None
    s.history = None
    s._actions = None
    return s


def _scratch_to_json(scratch: dict[str, Any]) -> dict[str, Any]:
    return {k: _tuples_to_lists(v) for k, v in scratch.items()}


def _scratch_from_json(data: dict[str, Any]) -> dict[str, Any]:
    return {str(k): _lists_to_tuples(v) for k, v in data.items()}


def _tuples_to_lists(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_tuples_to_lists(x) for x in v]
    return v


def _lists_to_tuples(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_lists_to_tuples(x) for x in v)
    return v


def observation(s: "State", player: int) -> dict[str, Any]:
    """What seat ``player`` may know.  Hidden zones show counts, not contents or order."""
    g = s.game
    zones: dict[str, Any] = {}
    for zi, name in enumerate(g.zone_names):
        spec = g.zone_specs[name.split(" of ")[0]]
        owner = g.zone_owner[zi]
        mine = owner is not None and s.seat_of.get(owner) == player
        items = s.zones[zi]
        if spec.hidden == "none" or (spec.hidden == "others" and mine):
            zones[name] = [g.component_names[c] for c in items]
        elif spec.hidden == "order" and mine:
            zones[name] = sorted(g.component_names[c] for c in items)
        else:
            zones[name] = {"hidden": len(items)}
    return {
        "ruleset": g.name,
        "player": player,
        "players": s.players,
        "turn": s.turn_number,
        "current_player": s.current_player,
        "current_role": s.current_role,
        "seats": dict(s.seat_of),
        "board": {f"{x},{y}": [g.component_names[c], g.face_labels[c][s.face[c]]] for (x, y), c in s.grid.items()},
        "zones": zones,
        "pending": _tuples_to_lists(s.scratch.get("pending", [])),
        "legal_actions": [str(a) for a in s.legal_actions()] if s.current_player == player else [],
        "outcome": s.outcome.to_json() if s.outcome else None,
    }
