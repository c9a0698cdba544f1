"""Zones: the board, the built-in and declared zones, how values look, and what owners of hidden zones show.

::

    board: {kind: square-grid, max_width: 7, max_height: 7}   # or {kind: hex, radius: 4}, or width/height,
                                                              # or {kind: points, points: ..., links: ...}
    zones:
      deck: {kind: pile, hidden: order}
      hand: {kind: hand, per: role, hidden: others, show: [cost],
             owner_known: not self.secret}                   # hidden from others, but these stay known
      passing: {kind: hand, per: role, shown: false}         # not drawn while empty: it fills only mid-effect
    display:
      dark: {style: bold, short: D, colour: "#333"}            # how a value looks in the terminal and the browser

Every game has a ``supply`` zone, and a ``board`` zone when it has a board;
a zone kept ``per: role`` is one zone for each role.

>>> from engine.compiling.builder import Builder
>>> from engine.compiling.seating import read_players, read_roles
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "players: [2]\\nboard: {kind: hex, radius: 2}\\nzones: {hand: {per: role}}\\n"))
>>> read_players(b); read_roles(b); read_board(b); read_zones(b)
>>> b.game.zone_names
['supply', 'board', 'hand of seat1', 'hand of seat2']
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Callable

from engine.blocks.cellnames import POINT_STYLES, STYLES, PointNames, cell_names
from engine.blocks.grid import ADJACENCY, SquareGrid
from engine.blocks.hexgrid import HexGrid
from engine.blocks.counters import RANGE
from engine.compiling.components import check_written_name
from engine.compiling.points import read_points
from engine.compiling.walls import read_walls
from engine.core.errors import SourcePos, did_you_mean
from engine.core.specs import ZoneSpec
from engine.core.yamlsource import Mapping
from engine.lang.types import ANY_COMPONENT

if TYPE_CHECKING:
    from engine.compiling.builder import Builder

MAX_HEX_RADIUS = 100
MAX_CELLS = 10_000
HIDDEN_LEVELS = ("none", "others", "order", "all", "owner")
"""What a zone's ``hidden`` may say (see engine.core.information)."""
SUPPLY = "supply"
BOARD = "board"


def read_board(b: "Builder") -> None:
    """``board``: a hex board of a radius, a board of points and links (engine.compiling.points), or a square grid,
    fixed (``width``, ``height``) or growing."""
    spec = b.tree.get("board")
    if spec is None:
        return
    kind = b.choice(spec, "kind", ("square-grid", "hex", "points"), "square-grid")
    stacking = b.bool_setting(spec, "stacking", False)
    if kind == "hex" and "cell_names" in spec:
        b.error(b.pos(spec, "cell_names"), "'cell_names' names the cells of a square grid ('kind: square-grid' with a "
                                           "'width' and a 'height') or the points of a board of points, not of a hex board")
    if kind == "points":
        b.game.grid = read_points(b, spec, stacking)
        if b.choice(spec, "cell_names", POINT_STYLES, "numbers") == "names":
            if b.game.grid.names:
                b.game.cell_names = PointNames(b.game.grid.names)
            elif b.game.grid.points:
                b.error(b.pos(spec, "cell_names"), "'cell_names: names' writes the points by their names, and these "
                                                   "points have none", "give each a name: points: {a: [0, 0], b: [2, 0]}")
        return
    if kind == "hex":
        b.unknown_keys(spec, ("kind", "radius", "width", "height", "stacking", "cell_names"), "a hex board")
        radius = b.int_setting(spec, "radius", 4)
        if radius > MAX_HEX_RADIUS:  # the board's cells are built at once
            b.error(b.pos(spec, "radius"), f"a hex board's radius is at most {MAX_HEX_RADIUS}, not {radius}")
            radius = 4
        width, height = _sides(b, spec, "a hex board without them is a hexagon of a 'radius'")
        if (width > 0) != (height > 0) or (width and "radius" in spec):
            key = "radius" if width and height else "width" if "width" in spec else "height"
            b.error(b.pos(spec, key), "a hex board is a hexagon of a 'radius', or a rhombus of a 'width' and a "
                                      "'height'")
            width = height = 0
        if width * height > MAX_CELLS:
            b.error(b.pos(spec, "width"), f"a hex board has at most {MAX_CELLS} hexes, not {width * height}")
            width = height = 0
        b.game.grid = HexGrid(radius, stacking, width, height)
        return
    b.unknown_keys(spec, ("kind", "max_width", "max_height", "width", "height", "adjacency", "stacking", "y_axis",
                          "lines_every", "thin", "cell_names", "walls"), "board")
    y_up = b.choice(spec, "y_axis", ("down", "up"), "down") == "up"
    thin = b.choice(spec, "thin", ("none", "odd", "even"), "none")
    adjacency = b.choice(spec, "adjacency", tuple(ADJACENCY), "orthogonal")
    width, height = _sides(b, spec, "a board without them grows")
    if (width > 0) != (height > 0):
        b.error(b.pos(spec, "width" if "width" in spec else "height"), "a fixed board needs both 'width' and 'height'")
        width = height = 0
        b.board_refused = True  # built growing: what needs edges (cell_names, touching: false) is not refused too
    if width * height > MAX_CELLS:  # the board's cells are built at once
        b.error(b.pos(spec, "width"), f"a fixed board has at most {MAX_CELLS} cells, not {width * height}")
        width = height = 0
        b.board_refused = True
    if width and ("max_width" in spec or "max_height" in spec):
        b.error(b.pos(spec, "max_width" if "max_width" in spec else "max_height"),
                "'max_width' and 'max_height' limit a growing board; a fixed board ('width', 'height') has its own edges")
    style = b.choice(spec, "cell_names", STYLES, "numbers")
    if style != "numbers" and not width and not b.board_refused:
        b.error(b.pos(spec, "cell_names"), "'cell_names' names the cells of a board of a fixed size: give 'width' and "
                                           "'height' (a growing board has no first column or row to count from)")
    b.game.cell_names = cell_names(style, width, height)
    b.game.grid = SquareGrid(adjacency, b.int_setting(spec, "max_width", 0), b.int_setting(spec, "max_height", 0),
                             width, height, stacking, y_up, b.int_setting(spec, "lines_every", 0),
                             "" if thin == "none" else thin)
    if "walls" in spec:
        b.game.grid = dataclasses.replace(b.game.grid, walls=read_walls(b, spec, b.game.grid), walled=True)


def _sides(b: "Builder", spec: Mapping, without: str) -> tuple[int, int]:
    """The board's ``width`` and ``height``, 0 where not written.  One written as 0 (or an option holding 0) is
    refused where it is written, and the board is then built as if neither were (``without`` says what that is): a
    board of ``width: 0, height: 0`` was read as no size given, a growing board, and refused only for what needs
    edges (``touching: false``), away from the 0.

    Example: ``board: {width: 0, height: 0}`` is ``ruleset.yaml:3:10: a board's width is at least 1, not 0 (leave
    out 'width' and 'height': a board without them grows)``.
    """
    width, height = b.int_setting(spec, "width", 0), b.int_setting(spec, "height", 0)
    zero = [key for key, value in (("width", width), ("height", height)) if key in spec and value == 0]
    for key in zero:
        b.error(b.pos(spec, key), f"a board's {key} is at least 1, not 0 (leave out 'width' and 'height': {without})")
    if zero and spec.get("kind") != "hex":
        b.board_refused = True  # built growing: what needs edges (cell_names, touching: false) is not refused too
    return (0, 0) if zero else (width, height)


CSS_COLOUR = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20}")
"""A ``display`` colour: ``#rgb``, ``#rrggbb`` or a colour name (nothing else reaches the page)."""


def read_display(b: "Builder") -> None:
    """``display: {VALUE: {style: bold, short: A, colour: "#c00"}}``: how values look in the terminal and the browser;
    a component's name (its ``id``) may be given too, for pieces that hold no value of a type (``arrow: {short: x}``).
    """
    display = b.tree.get("display") or {}
    known = {v for values in b.game.types.values() for v in values}
    pieces = set(b.game.piece_names)
    for value, spec in display.items():
        if value not in known and value not in pieces:
            b.error(display.key_pos.get(value), f"unknown value or component '{value}': display names a value of a "
                    "declared type or a component's id", did_you_mean(str(value), known | pieces))
            continue
        b.unknown_keys(spec, ("style", "short", "colour"), f"the display of '{value}'")
        if "short" in spec and not check_written_name(b, str(spec["short"]), b.pos(spec, "short"), "the short text",
                                                     "in the board's cells"):
            continue
        colour = spec.get("colour")
        if colour is not None and not CSS_COLOUR.fullmatch(str(colour)):
            b.error(b.pos(spec, "colour"), f"'{colour}' is not a colour: write #rgb, #rrggbb or a colour name such as teal")
            continue
        b.game.display[str(value)] = {k: str(v) for k, v in spec.items()}


def read_zones(b: "Builder") -> None:
    """The built-in supply (and board, with a ``board``), then the ``zones`` the ruleset declares."""
    g = b.game
    _add_zone(b, ZoneSpec(SUPPLY, "supply", False, "none"))
    if g.grid is not None:
        _add_zone(b, ZoneSpec(BOARD, "board", False, "none"))
        g.board_zone = g.zone_index[(BOARD, None)]
    zones = b.tree.get("zones") or {}
    for name, spec in zones.items():
        b.check_identifier(name, zones.key_pos.get(name), "zone", read_as="read per role ({n}(r))")
        if name in (SUPPLY, BOARD):
            b.error(zones.key_pos.get(name), f"'{name}' is a built-in zone")
            continue
        b.unknown_keys(spec, ("kind", "per", "key", "hidden", "owner_known", "show", "shown", "doc", "refill"),
                       f"zone '{name}'")
        kind = b.choice(spec, "kind", ("pile", "hand"), "pile")
        per = b.choice(spec, "per", ("role", "shared"), "shared")
        keys, key_of = read_zone_keys(b, spec) if "key" in spec else ((), "")
        hidden = b.choice(spec, "hidden", HIDDEN_LEVELS, "none")
        if hidden == "owner" and per != "role":
            b.error(b.pos(spec, "hidden"), f"'hidden: owner' hides a zone from the role it belongs to, and zone "
                                           f"'{name}' belongs to nobody", "add 'per: role' (a hand held facing away "
                                           "from its owner), or choose 'all' (nobody sees it)")
        _add_zone(b, ZoneSpec(str(name), kind, per == "role", hidden, _shown(b, spec), doc=str(spec.get("doc") or ""),
                              shown=b.bool_setting(spec, "shown", True), refill=str(spec.get("refill") or ""),
                              keys=keys, key_of=key_of, key_texts=_key_texts(b, keys, key_of)))
    _check_refills(b, zones)


def _check_refills(b: "Builder", zones: Mapping) -> None:
    """``refill: ZONE`` on a pile: the zone exists, is another, and belongs to the same role or to nobody."""
    specs = b.game.zone_specs
    for name, spec in specs.items():
        if not spec.refill:
            continue
        where = b.pos(zones[name], "refill")
        other = specs.get(spec.refill)
        if other is None or spec.refill in (SUPPLY, BOARD):
            b.error(where, f"zone '{name}' is refilled from '{spec.refill}', which is no zone declared under 'zones'",
                    did_you_mean(spec.refill, [z for z in specs if z not in (SUPPLY, BOARD, name)]))
        elif other is spec:
            b.error(where, f"zone '{name}' cannot be refilled from itself", "name the pile its cards are discarded to")
        elif spec.keys or other.keys:
            b.error(where, f"zone '{name if spec.keys else spec.refill}' is kept per key: 'refill' joins two single "
                           "zones (or the zones of one role)", "write the reshuffle in code, where the game draws")
        elif spec.kind != "pile":
            b.error(where, f"zone '{name}' is a hand: 'refill' is for a pile drawn from (kind: pile)")
        elif other.per_role and not spec.per_role:
            b.error(where, f"zone '{name}' is shared and '{spec.refill}' is kept per role: whose would refill it?",
                    "refill a per-role pile from its role's own zone, or a shared pile from a shared one")


def _shown(b: "Builder", spec: Mapping) -> tuple[str, ...]:
    """``show: [attribute, ...]``: what the terminal shows beside each component of the zone."""
    shown = spec.get("show") or []
    for i, attr in enumerate(shown):
        if attr not in b.game.attributes:
            b.error(b.pos(shown, i), f"unknown attribute '{attr}'", did_you_mean(str(attr), b.game.attributes))
    return tuple(str(a) for a in shown if a in b.game.attributes)


def _key_texts(b: "Builder", keys: tuple[Any, ...], key_of: str) -> tuple[str, ...]:
    """Each key as a zone's name writes it: a component by its name, a value or a number as it is."""
    if key_of in b.game.kinds:
        return tuple(b.game.component_names[k] for k in keys)
    return tuple(str(k) for k in keys)


def _add_zone(b: "Builder", spec: ZoneSpec) -> None:
    """Index the zones ``spec`` declares: one, one per role, one per key (``(name, key)``: of nobody), or one per role
    and key (``(name, (role, key))``: the role's)."""
    g = b.game
    g.zone_specs[spec.name] = spec
    owners: tuple[str | None, ...] = g.roles.values if spec.per_role and g.roles else (None,)
    for owner in owners:
        for key, text in zip(spec.keys, spec.key_texts or map(str, spec.keys)):  # column(3) is named "column 3"
            g.zone_index[(spec.name, key if owner is None else (owner, key))] = len(g.zone_names)
            g.zone_names.append(keyed_zone_name(spec.name, text, owner))
            g.zone_spec_of.append(spec)
            g.zone_owner.append(owner)
        if not spec.keys:
            g.zone_index[(spec.name, owner)] = len(g.zone_names)
            g.zone_names.append(spec.name if owner is None else f"{spec.name} of {owner}")
            g.zone_spec_of.append(spec)
            g.zone_owner.append(owner)


def keyed_zone_name(name: str, key: Any, owner: str | None = None) -> str:
    """How the log, the terminal, the page and saves name the zone of one key (of one role, for a zone kept per role
    and key).

    >>> keyed_zone_name("column", 3), keyed_zone_name("tray", "X"), keyed_zone_name("row", "X", "A")
    ('column 3', 'tray X', 'row X of A')
    """
    return f"{name} {key}" if owner is None else f"{name} {key} of {owner}"


MOST_KEYED_ZONES = 1000
"""The most zones one ``key:`` may make."""


def read_zone_keys(b: "Builder", spec: Mapping) -> tuple[tuple[Any, ...], str]:
    """A zone's ``key:``: a type (one zone per value), a component kind (one per component), whole numbers
    ``FROM..TO``, or ``{from: FROM, to: TO}`` whose ends may be options; the keys and what they are (``hue``,
    ``tile``, ``1..7``), or :data:`REFUSED_KEYS` and "" with an error.

    Example: ``column: {key: {from: 1, to: columns}}`` with the option ``columns`` at 7 is seven zones, ``column(1)``
    to ``column(7)``.
    """
    written, pos = spec.get("key"), b.pos(spec, "key")
    if isinstance(written, Mapping):  # the schema asks for both ends, and nothing else
        low, high = b.int_setting(written, "from", 1, negative=True), b.int_setting(written, "to", 1, negative=True)
    elif str(written) in b.game.types:
        return tuple(b.game.types[str(written)]), str(written)
    elif str(written) in b.game.kinds:
        return _kind_keys(b, str(written), pos)
    elif (m := RANGE.fullmatch(str(written))) is not None:
        low, high = int(m.group(1)), int(m.group(2))
    else:
        b.error(pos, f"a zone's key is a type (one zone per value), a component kind (one zone per component) or "
                     f"whole numbers FROM..TO (like 1..7, or {{from: 1, to: OPTION}}), not '{written}'",
                did_you_mean(str(written), [*b.game.types, *b.game.kinds]))
        return REFUSED_KEYS, ""
    if low > high or high - low >= MOST_KEYED_ZONES:
        b.error(pos, f"the keys {low}..{high} must run up, at most {MOST_KEYED_ZONES} numbers (like 1..7)")
        return REFUSED_KEYS, ""
    return tuple(range(low, high + 1)), f"{low}..{high}"


def _kind_keys(b: "Builder", kind: str, pos: "SourcePos | None") -> tuple[tuple[Any, ...], str]:
    """The keys of a zone keyed by a component kind: its components, at most :data:`MOST_KEYED_ZONES` of them."""
    keys = tuple(b.game.kinds[kind])
    if not keys or len(keys) > MOST_KEYED_ZONES:
        b.error(pos, f"a zone keyed by '{kind}' is one zone per {kind}, and there are {len(keys):,} of them (at least "
                     f"1, at most {MOST_KEYED_ZONES:,})")
        return REFUSED_KEYS, ""
    return keys, kind


REFUSED_KEYS = (None,)
"""The keys of a zone whose ``key:`` is refused: one zone, read on as kept per key (``tray(X)`` is then no
error of its own), keys of any type (see engine.blocks.keyed_zones)."""


def compile_owner_known(b: "Builder") -> None:
    """``owner_known: CONDITION`` on a hidden per-role zone: components (``self``) everyone knows stay with that role."""
    zones = b.tree.get("zones") or {}
    for name, spec in zones.items():
        if not isinstance(spec, Mapping) or "owner_known" not in spec or str(name) not in b.game.zone_specs:
            continue
        pos = b.pos(spec, "owner_known")
        compiled, slots = b.expression(spec["owner_known"], "bool", bind={"self": ANY_COMPONENT}, pos=pos)
        zone = b.game.zone_specs[str(name)]
        if zone.hidden == "none" or not zone.per_role:
            b.error(pos, f"'owner_known' is for hidden zones kept per role, and zone '{name}' is not one")
        replaced = dataclasses.replace(zone, owner_known=_bound_test(compiled.fn, slots))
        b.game.zone_specs[str(name)] = replaced
        b.game.zone_spec_of = [replaced if z is zone else z for z in b.game.zone_spec_of]


def _bound_test(fn: Callable[[Any, list[Any]], Any], slots: int) -> Callable[[Any, int], bool]:
    """A condition of ``self`` as a plain ``test(state, item)``."""

    def test(s: Any, item: int) -> bool:
        env: list[Any] = [None] * slots
        env[0] = item
        return bool(fn(s, env))

    return test
