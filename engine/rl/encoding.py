"""What a seat may see, as one vector of integers with a fixed layout per game and player count.

The encoder reads the engine's observation for the seat
(:meth:`engine.model.state.State.observation`), so it shows exactly what the seat
may know: hidden zones only as a count, hidden roles as 0, sealed choices as
the engine hides them.  Names become numbers: a component by its name's
place in the sorted names (1-based, 0 for none), a face by its label's place
in the sorted labels, a role by its place in the roles.  The segments, in
order (``describe`` lists them with their offsets for one game):

* ``seat``: the observing seat, the seat to move (0 once over), the turn
  number, 1 if the seat answers a pending choice, 1 once the game is over;
* ``current role``: the role to move (0 when over or hidden), ``seats``: the
  seat playing each role (0 when nobody or hidden);
* ``board``: per cell, the top piece's name and face (a face-down piece the
  seat does not see: its back, ``face-down tile``, numbered after the names,
  and face 0); ``stacks``: per cell, the pieces beneath from the top down
  (stacking boards only);
* ``zones``: per zone, 1 if its contents are seen, how many components it
  holds, and the names of those seen (in order, or sorted when only the
  contents are known; in a zone seen only as a count, those shown to the
  seat, each at its place, the others 0);
* ``counters``: every counter's value (per owner, and per key of a keyed counter; 0 for a component the seat
  cannot see), held within
  int32: a value past it shows as the bound;
* ``pending`` (games with a ``clash`` step, the one step that leaves pairs to resolve): 1 for each (cell,
  neighbour) pair waiting to be resolved;
* ``zone faces`` (games with a component of several faces): per zone, the
  face each seen component shows, in the order of ``zones`` (a die in
  one's own tray shows what it rolled);
* ``committed cells`` (games whose ``commit`` step seals a cell): per cell,
  how many cells the seat itself sealed there, then per role 1 if that
  role's revealed commitment names the cell;
* ``committed numbers`` (games whose ``commit`` step seals a number): per
  slot, the number the seat itself sealed there plus one (0: none), then per
  role and slot the number revealed plus one (0: none);
* ``face down`` (games with ``face_down: true``): per cell, 1 if the piece
  there lies face down (seen by the seat or not).

Example::

    encoder = Encoder(engine.load("my-game"), players=2)
    vector = encoder.encode(state.observation(1))   # numpy int32, len(encoder) long
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.blocks.clash import Clash
from engine.blocks.enumeration import board_cells, neighbour_pairs
from engine.blocks.grid import format_cell, wall_pair
from engine.blocks.slots import Commit
from engine.core.facedown import FaceDown, back_labels
from engine.core.showtext import cut

if TYPE_CHECKING:
    from engine.model.game import Game

LOW, HIGH = np.iinfo(np.int32).min, np.iinfo(np.int32).max


@dataclass(frozen=True)
class Segment:
    """A named part of the vector: ``length`` integers from ``offset``."""

    name: str
    offset: int
    length: int
    what: str


class Encoder:
    """Turns a seat's observation of ``game`` with ``players`` seats into a fixed-length int32 vector."""

    def __init__(self, game: "Game", players: int) -> None:
        self.game, self.players = game, players
        self.names = {name: i + 1 for i, name in enumerate(sorted(set(game.piece_names)))}
        turning = FaceDown.block in game.parts  # pieces may lie face down: their backs are names too
        if turning:
            backs = back_labels(list(game.component_kind), list(game.roles.values) if game.roles else [])
            known = len(self.names)
            self.names.update((back, known + i + 1) for i, back in enumerate(backs))
        self.faces = {label: i + 1 for i, label in enumerate(sorted({f for labels in game.face_labels for f in labels}))}
        self.roles = list(game.roles.values) if game.roles is not None else []
        self.role_index = {role: i + 1 for i, role in enumerate(self.roles)}
        self.cells = {format_cell(c): i for i, c in enumerate(board_cells(game))}
        self.depth = len(game.component_names) - 1 if game.grid is not None and game.grid.stacking else 0
        self.zones = list(game.zone_names)
        self.capacity = len(game.component_names)
        clashing = game.grid is not None and any(isinstance(step, Clash) for step in game.steps)  # no other step leaves pairs
        self.pairs = {(a, b): i for i, (a, b) in enumerate(neighbour_pairs(game))} if clashing else {}
        self.counters = _counter_keys(game, players)
        self.first_face = {game.piece_names[c]: labels[0] for c, labels in enumerate(game.face_labels)}
        faced = any(len(labels) > 1 for labels in game.face_labels)
        sealing = any(isinstance(step, Commit) and step.cells is not None for step in game.steps)
        slots = game.parts.get("slots")
        self.slot_index = {name: i for i, name in enumerate(slots.names)} if slots is not None else {}
        bidding = any(isinstance(step, Commit) and step.numbers is not None for step in game.steps)
        self.sides = {pair: i for i, pair in enumerate(wall_sides(game.grid))}  # a board with walls: where one may stand
        parts = [
            ("seat", 5, "observing seat, seat to move (0: over), turn number, answering a choice (1/0), over (1/0)"),
            ("current role", 1, "the role to move, 1-based in the roles (0: over or hidden)"),
            ("seats", len(self.roles), "per role: the seat playing it (0: nobody or hidden)"),
            ("board", 2 * len(self.cells), "per cell: top piece's name, its face (0: empty)" + (
                "; a face-down piece the seat does not see: its back, face 0" if turning else "")),
            ("stacks", self.depth * len(self.cells), f"per cell: up to {self.depth} pieces beneath the top, from the top down"),
            ("zones", len(self.zones) * (2 + self.capacity),
             f"per zone: seen (1/0), count, then up to {self.capacity} names (seen zones)"),
            ("counters", len(self.counters), "every counter's value, per owner (past int32: its bound)"),
            ("pending", len(self.pairs), "per (cell, neighbour) pair: waiting to be resolved (1/0)"),
            ("zone faces", len(self.zones) * self.capacity * faced,
             f"per zone: the face each of up to {self.capacity} seen components shows (0: none or unseen)"),
            ("committed cells", (1 + len(self.roles)) * len(self.cells) * sealing,
             "per cell: how many cells this seat sealed there, then per role: its revealed commitment names it (1/0)"),
            ("committed numbers", (1 + len(self.roles)) * len(self.slot_index) * bidding,
             "per slot: the number this seat sealed there plus 1, then per role and slot: the number revealed plus 1 "
             "(0: none)"),
            ("face down", len(self.cells) * turning, "per cell: the piece there lies face down (1/0)"),
            ("walls", len(self.sides), "per pair of neighbouring cells (the lower first): a wall stands between them (1/0)"),
        ]
        self.segments: list[Segment] = []
        offset = 0
        for name, length, what in parts:
            self.segments.append(Segment(name, offset, length, what))
            offset += length
        self.size = offset
        self._at = {s.name: s.offset for s in self.segments}
        self._faced, self._sealing, self._bidding, self._turning = faced, sealing, bidding, turning
        self.low, self.high = self._bounds()

    def __len__(self) -> int:
        return self.size

    def _bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest value each place of the vector can hold, as tight as the game says: names by the
        names, counts by the components, seats by the players, turns by the turn limit, counters by their fixed
        ``min`` and ``max`` (and 0, shown for what the seat cannot see); int32's bounds where nothing is known.

        >>> import engine
        >>> low, high = Encoder(engine.load(engine.builtin_names()[0]), 2)._bounds()
        >>> int(low.min()), int(high[0]), len(high) == len(low)
        (0, 2, True)
        """
        low, high = np.zeros(self.size, dtype=np.int32), np.zeros(self.size, dtype=np.int32)
        names, faces, seats, roles = len(self.names), len(self.faces), self.players, len(self.roles)

        def bound(segment: str, tops: list[int], start: int = 0) -> None:
            at = self._at[segment] + start
            high[at:at + len(tops)] = tops

        bound("seat", [seats, seats, self.game.max_turns, 1, 1])
        low[self._at["seat"]] = 1
        bound("current role", [roles])
        bound("seats", [seats] * roles)
        bound("board", [names, faces] * len(self.cells))
        bound("stacks", [names] * (self.depth * len(self.cells)))
        bound("zones", [1, self.capacity, *[names] * self.capacity] * len(self.zones))
        at = self._at["counters"]
        for k, (name, _owner) in enumerate(self.counters):
            floor, ceiling = self.game.counters[name].fixed_range() if name in self.game.counters else (None, None)
            low[at + k] = LOW if floor is None else min(floor, 0)
            high[at + k] = HIGH if ceiling is None else max(ceiling, 0)
        bound("pending", [1] * len(self.pairs))
        bound("zone faces", [faces] * (len(self.zones) * self.capacity * self._faced))
        width, sealed = 1 + roles, len(self.slot_index) or HIGH  # a seat seals one cell a slot
        bound("committed cells", [sealed, *[1] * roles] * (len(self.cells) * self._sealing))
        numbers = self._at["committed numbers"]
        high[numbers:numbers + width * len(self.slot_index) * self._bidding] = HIGH  # the numbers are the position's
        bound("face down", [1] * (len(self.cells) * self._turning))
        bound("walls", [1] * len(self.sides))
        return low, high

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        """The vector of an observation made by :meth:`State.observation` for this game and player count; one of
        another ruleset or player count is a ValueError (its layout is not this one: a 3-player observation filled
        a 2-player vector as if it were one)."""
        if not isinstance(obs, dict):
            raise ValueError(f"an observation is a dict made by State.observation, not {cut(repr(obs), 60)}")
        if obs.get("ruleset") != self.game.name or obs.get("players") != self.players:
            raise ValueError(f"this encoder reads observations of {self.game.name} for {self.players} players, not "
                             f"of {cut(str(obs.get('ruleset')), 60)} for {cut(str(obs.get('players')), 20)}")
        try:
            return self._vector(obs)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as err:  # made by hand
            raise ValueError(f"this observation of {self.game.name} is not one State.observation makes: "
                             f"{type(err).__name__}: {cut(str(err), 80)}") from None

    def split(self, vector: Any) -> dict[str, np.ndarray]:
        """The parts of a vector of this layout by segment name (those that take room in it), each a view of the
        vector: ``split(v)["board"]`` in place of ``v[8:26]`` copied from ``describe``.  A vector of another length
        (another game's, or an observation dict not taken apart) is a ValueError.

        >>> import engine
        >>> game = engine.load(engine.builtin_names()[0])
        >>> encoder = Encoder(game, 2)
        >>> parts = encoder.split(encoder.encode(game.new_state(players=2).observation(1)))
        >>> list(parts)[:2], int(parts["seat"][0]), sum(map(len, parts.values())) == len(encoder)
        (['seat', 'current role'], 1, True)
        """
        shape = getattr(vector, "shape", None)
        if shape != (self.size,):
            raise ValueError(f"this encoder splits vectors of {self.size} integers (observation['observation'] of "
                             f"{self.game.name} for {self.players} players), not {cut(repr(vector), 60)}")
        return {s.name: vector[s.offset:s.offset + s.length] for s in self.segments if s.length}

    def _vector(self, obs: dict[str, Any]) -> np.ndarray:
        """The vector of ``obs``, an observation of this game and player count."""
        v = np.zeros(self.size, dtype=np.int32)
        over = obs["outcome"] is not None
        at = self._at["seat"]
        v[at:at + 5] = (obs["player"], 0 if over else obs["current_player"], obs["turn"], obs["choice"] is not None, over)
        v[self._at["current role"]] = self.role_index.get(obs["current_role"], 0)
        at = self._at["seats"]
        for role, seat in obs["seats"].items():
            v[at + self.role_index[role] - 1] = seat
        at = self._at["board"]
        for cell, (name, face) in obs["board"].items():
            i = at + 2 * self.cells[cell]
            v[i], v[i + 1] = self.names[name], self.faces.get(face, 0)  # a face-down piece's back shows no face
        at = self._at["stacks"]
        for cell, below in obs.get("stacks", {}).items():
            i = at + self.depth * self.cells[cell]
            v[i:i + len(below)] = [self.names[name] for name in below]
        at, width = self._at["zones"], 2 + self.capacity
        for z, name in enumerate(self.zones):
            held = obs["zones"][name]
            i = at + z * width
            if isinstance(held, dict):
                v[i + 1] = held["hidden"]
                for place, seen in held.get("seen", ()):  # shown to this seat alone: its name at its place
                    v[i + 2 + place] = self.names[seen]
            else:
                v[i], v[i + 1] = 1, len(held)
                v[i + 2:i + 2 + len(held)] = [self.names[n] for n in held]
        at = self._at["counters"]
        values = obs["counters"]
        for k, (name, owner) in enumerate(self.counters):
            value = values[name] if owner is None else _value_at(values[name], owner)
            v[at + k] = value if LOW <= value <= HIGH else HIGH if value > HIGH else LOW  # a counter may hold 100 digits
        at = self._at["pending"]
        for entry in obs["pending"]:
            key = _pair(entry)
            if key in self.pairs:
                v[at + self.pairs[key]] = 1
        if self._faced:
            self._encode_zone_faces(obs, v)
        if self._sealing:
            self._encode_committed_cells(obs, v)
        if self._bidding:
            self._encode_committed_numbers(obs, v)
        if self._turning:
            at = self._at["face down"]
            for cell in obs.get("face_down", ()):
                v[at + self.cells[cell]] = 1
        if self.sides:
            at = self._at["walls"]
            for a, b in obs.get("walls", ()):
                v[at + self.sides[tuple(a), tuple(b)]] = 1
        return v

    def _encode_committed_numbers(self, obs: dict[str, Any], v: np.ndarray) -> None:
        """Write the numbers the seat sealed, and every revealed one, each plus one (0 stays: none)."""
        at, slots = self._at["committed numbers"], len(self.slot_index)
        committed = obs.get("committed_numbers", {})
        for _role, slot, n in committed.get("sealed", ()):
            v[at + self.slot_index[slot]] = n + 1
        for role, slot, n in committed.get("revealed", ()):
            v[at + slots * self.role_index[role] + self.slot_index[slot]] = n + 1

    def _encode_committed_cells(self, obs: dict[str, Any], v: np.ndarray) -> None:
        """Count the seat's own sealed cells, and mark the cells each role's revealed commitment names."""
        at, width = self._at["committed cells"], 1 + len(self.roles)
        committed = obs.get("committed_cells", {})
        for _role, _slot, cell in committed.get("sealed", ()):
            v[at + width * self.cells[cell]] += 1
        for role, _slot, cell in committed.get("revealed", ()):
            v[at + width * self.cells[cell] + self.role_index[role]] = 1

    def _encode_zone_faces(self, obs: dict[str, Any], v: np.ndarray) -> None:
        """Write the face each component of every seen zone shows (its first face where ``obs`` lists none)."""
        at, faces = self._at["zone faces"], obs.get("faces", {})
        for z, name in enumerate(self.zones):
            held = obs["zones"][name]
            if isinstance(held, dict):
                continue
            shown = faces.get(name) or [self.first_face.get(n) for n in held]
            i = at + z * self.capacity
            v[i:i + len(shown)] = [self.faces.get(f, 0) for f in shown]  # None: a face-down piece's

    def describe(self) -> list[str]:
        """The layout in English, one line per segment: offsets, length and meaning."""
        lines = [f"{self.size} integers (int32):"]
        for s in self.segments:
            if s.length:
                lines.append(f"  [{s.offset}:{s.offset + s.length}] {s.name}: {s.what}")
        lines.append(f"  names: {', '.join(f'{i}={n}' for n, i in self.names.items())}")
        if self.faces:
            lines.append(f"  faces: {', '.join(f'{i}={n}' for n, i in self.faces.items())}")
        if self.roles:
            lines.append(f"  roles: {', '.join(f'{i}={n}' for n, i in self.role_index.items())}")
        lines.append(f"  zones: {', '.join(self.zones)}")
        if self.counters:
            lines.append("  counters: " + ", ".join(n if o is None else f"{n} of {' '.join(o)}" for n, o in self.counters))
        return lines


def wall_sides(grid: Any) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every pair of neighbouring cells a wall may stand between, on a board with walls (none on another), the lower
    cell first, in the board's order.

    >>> from engine.blocks.grid import SquareGrid
    >>> wall_sides(SquareGrid(width=2, height=1, walled=True)), wall_sides(SquareGrid(width=2, height=1))
    ([((0, 0), (1, 0))], [])
    """
    if not getattr(grid, "walled", False):
        return []
    return sorted({wall_pair(a, (a[0] + dx, a[1] + dy)) for a in grid.cells for dx, dy in grid.offsets
                   if grid.touches(a, (a[0] + dx, a[1] + dy))})


def _counter_keys(game: "Game", players: int) -> list[tuple[str, tuple[str, ...] | None]]:
    """(counter, where) for every value the observation shows: where is None for a game-wide counter, else the
    owner, or a keyed counter's key, or its owner and key (``("A", "X")``)."""
    from engine.model.savefile import counter_values

    values = counter_values(game.new_state(players=players, seed=0))
    keys: list[tuple[str, tuple[str, ...] | None]] = []
    for name, value in values.items():
        if not isinstance(value, dict):
            keys.append((name, None))
            continue
        for owner, held in value.items():
            keys += [(name, (owner, key)) for key in held] if isinstance(held, dict) else [(name, (owner,))]
    return keys


def _value_at(values: dict[str, Any], where: tuple[str, ...]) -> int:
    """The value an observation's counter holds at ``where`` (its owner, then its key); 0 where it shows none (a
    component the seat cannot see).

    >>> _value_at({"A": {"X": 2}}, ("A", "X")), _value_at({"x1": 3}, ("x1",)), _value_at({}, ("x1",))
    (2, 3, 0)
    """
    value: Any = values
    for part in where:
        value = value.get(part, 0) if isinstance(value, dict) else 0
    return value if isinstance(value, int) else 0


def _pair(entry: Any) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A pending entry ``[[x, y], [x, y]]`` as a pair of cells (None when it is something else)."""
    try:
        (ax, ay), (bx, by) = entry
        return (int(ax), int(ay)), (int(bx), int(by))
    except (TypeError, ValueError):
        return None
