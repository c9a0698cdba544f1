"""Seating: how many players a ruleset is for, the roles they take, and their teams.

::

    players: [2, 4]
    roles:
      of: house                       # a declared type: one role per value
      shuffle: {default: false, 4: true, 2: [[A, C], [B, D]]}   # groups of roles are dealt as one
      seating: {2: [1, 2, absent, absent], 4: [1, 2, 3, 4]}
    teams: {4: [[1, 3], [2, 4]]}      # per player count, every seat in one team

Without ``roles`` each seat is its own role, ``seat1``, ``seat2``, ...

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "players: [2, 4]\\nteams: {4: [[1, 3], [2, 4]]}\\n"))
>>> read_players(b); read_roles(b); read_teams(b)
>>> b.game.roles.values, b.game.teams
(('seat1', 'seat2', 'seat3', 'seat4'), {4: ((1, 3), (2, 4))})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.errors import SourcePos, did_you_mean
from engine.core.showtext import players as players_text
from engine.core.specs import RoleSpec
from engine.core.yamlsource import Mapping

if TYPE_CHECKING:
    from engine.compiling.builder import Builder

MAX_PLAYERS = 100


def read_players(b: "Builder") -> None:
    """``players: [2, 3, 4]``: the player counts the ruleset is for (at most ``MAX_PLAYERS``)."""
    players = b.tree.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, int) and p >= 1 for p in players):
        b.error(b.pos(b.tree, "players"), "'players' must be a list of player counts, like [2, 3, 4]")
        b.game.player_counts = (2,)
        return
    if max(players) > MAX_PLAYERS:  # seats, roles and states are sized by it
        b.error(b.pos(b.tree, "players"), f"a game has at most {MAX_PLAYERS} players, not {max(players)}")
        b.game.player_counts = (2,)
        return
    b.game.player_counts = tuple(sorted(set(players)))


def read_roles(b: "Builder") -> None:
    """``roles``: the type whose values are the roles, the seat of each role per player count, shuffling, hiding."""
    g = b.game
    spec = b.tree.get("roles")
    if spec is None:
        g.roles = RoleSpec("seat", tuple(f"seat{i}" for i in range(1, max(g.player_counts) + 1)), {},
                           {n: tuple(i if i <= n else 0 for i in range(1, max(g.player_counts) + 1)) for n in g.player_counts})
        return
    b.unknown_keys(spec, ("of", "shuffle", "hidden", "seating"), "roles")
    type_name = str(spec.get("of", ""))
    if type_name not in g.types:
        b.error(b.pos(spec, "of"), f"roles must be 'of' a declared type, not '{type_name}'", did_you_mean(type_name, g.types))
        return
    values = g.types[type_name]
    seating: dict[int, tuple[int, ...]] = {}
    if "seating" not in spec:  # one role per seat, in the type's order; the roles past the players absent
        seating = _one_role_each(b, spec, values)
    raw = spec.get("seating") or {}
    for count in g.player_counts if "seating" in spec else ():
        row = raw.get(str(count))
        if row is None:
            b.error(b.pos(spec, "seating"), f"roles.seating has no entry for {players_text(count)}")
            continue
        seats = tuple(0 if s == "absent" else s for s in row)
        pos = b.pos(raw, str(count))
        if len(seats) != len(values):
            b.error(pos, f"seating for {players_text(count)} lists {len(seats)} seats but there are {len(values)} roles ({', '.join(values)})")
        elif not all(isinstance(s, int) for s in seats) or sorted(set(seats) - {0}) != list(range(1, count + 1)):
            b.error(pos, f"seating for {players_text(count)} must use seats 1..{count} (or 'absent'), each at least once")
        seating[count] = seats
    groups = _shuffled(b, spec, values)
    shuffled = {count: frozenset(r for group in dealt for r in group) for count, dealt in groups.items()}
    together = {count: dealt for count, dealt in groups.items() if any(len(group) > 1 for group in dealt)}
    g.roles = RoleSpec(type_name, values, shuffled, seating, b.bool_setting(spec, "hidden", False), together)


def _one_role_each(b: "Builder", spec: Mapping, values: tuple[str, ...]) -> dict[int, tuple[int, ...]]:
    """The seating when ``roles`` gives none: seat 1 plays the first role, seat 2 the second ..., the roles past the
    player count absent; a player count with more players than roles is reported.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "players: [2, 3]\\n"))
    >>> read_players(b)
    >>> _one_role_each(b, load_yaml("r.yaml", "of: side\\n"), ("A", "B", "C"))
    {2: (1, 2, 0), 3: (1, 2, 3)}
    """
    too_many = [n for n in b.game.player_counts if n > len(values)]
    if too_many:
        b.error(b.pos(spec, "of"), f"{players_text(max(too_many))} need as many roles, but '{spec.get('of')}' has "
                f"{len(values)} ({', '.join(values)})", "add values to the type, or write 'seating' to give a seat "
                "several roles")
    return {n: tuple(i if i <= n else 0 for i in range(1, len(values) + 1)) for n in b.game.player_counts
            if n <= len(values)}


def _shuffled(b: "Builder", spec: Mapping, values: tuple[str, ...]) -> dict[int, tuple[tuple[str, ...], ...]]:
    """``roles.shuffle``: per player count, the groups of roles dealt at random.

    ``true`` (all), ``false`` (none), a list of roles, a list of groups of
    roles dealt as one (``[[A, C], [B, D]]``: A and C go to the positions of
    B and D, or stay), or a mapping of those by player count with an optional
    ``default``: ``{default: [A, B, C], 5: true}``.
    """
    raw = spec.get("shuffle", False)
    by_count = raw if isinstance(raw, Mapping) else Mapping(b.pos(spec, "shuffle") or spec.pos)
    for key in by_count:
        if key != "default" and not (key.isdigit() and int(key) >= 1):  # a count a variant does not play is ignored
            b.error(by_count.key_pos.get(key), f"shuffle key '{key}' must be 'default' or a player count")
    default = by_count.get("default", False) if isinstance(raw, Mapping) else raw
    default_pos = b.pos(by_count, "default") if isinstance(raw, Mapping) else b.pos(spec, "shuffle")
    shuffled = {}
    for count in b.game.player_counts:
        key = str(count)
        value, pos = (by_count[key], b.pos(by_count, key)) if key in by_count else (default, default_pos)
        shuffled[count] = _role_set(b, value, values, pos)
    return shuffled


def _role_set(b: "Builder", value: Any, values: tuple[str, ...], pos: SourcePos | None) -> tuple[tuple[str, ...], ...]:
    """``true``: every role; ``false``: none; a list: those roles (each checked), alone or in groups of one size."""
    if isinstance(value, bool):
        return tuple((r,) for r in values) if value else ()
    if not isinstance(value, list):
        b.error(pos, "'shuffle' is true, false or a list of roles (or a mapping of those by player count)")
        return ()
    if value and all(isinstance(group, list) for group in value):
        if len({len(group) for group in value}) != 1:
            b.error(pos, "roles dealt in groups need groups of one size, like [[A, C], [B, D]]")
            return ()
        groups = [[(str(r), b.pos(group, i)) for i, r in enumerate(group)] for group in value]
    else:
        groups = [[(str(r), b.pos(value, i))] for i, r in enumerate(value)]
    listed: list[str] = []
    for members in groups:
        for role, where in members:
            if role not in values:
                b.error(where, f"unknown role '{role}'", did_you_mean(role, values))
            elif role in listed:
                b.error(where, f"role '{role}' is listed twice in 'shuffle'")
            listed.append(role)
    if len(groups) == len(listed):  # each role alone: dealt in the type's order
        return tuple((r,) for r in values if r in listed)
    return tuple(tuple(role for role, _ in members) for members in groups)


def read_teams(b: "Builder") -> None:
    """``teams``: per player count, the seats of each team (every seat in exactly one)."""
    g = b.game
    raw = b.tree.get("teams") or Mapping(b.tree.pos)
    for key, teams in raw.items():
        pos = raw.pos_of(key)
        if not (key.isdigit() and int(key) in g.player_counts):
            b.error(raw.key_pos.get(key), f"teams key '{key}' must be a declared player count")
            continue
        count = int(key)
        ok = isinstance(teams, list) and all(isinstance(t, list) and t and all(isinstance(x, int) and not isinstance(x, bool) for x in t) for t in teams)
        seats = sorted(x for t in teams for x in t) if ok else []
        if not ok or seats != list(range(1, count + 1)):
            b.error(pos, f"teams for {players_text(count)} must list every seat 1..{count} exactly once, like [[1, 3], [2, 4]]")
            continue
        g.teams[count] = tuple(tuple(int(x) for x in t) for t in teams)
