"""``board: {kind: points}``: the points (named or not) and the links between them, checked where written.

::

    board:
      kind: points
      points: {a: [0, 0], b: [2, 0], c: [1, 1]}    # a name and where the point is drawn (x across, y down)
      links: [[a, b, c, a]]                          # a path: a-b, b-c, c-a (a link may name "2,0" or [2, 0] too)

``points`` may be a list of positions instead (``[[0, 0], [2, 0]]``): the
points are then named by their positions in links.  Every point needs a
link unless ``links`` is empty; a point named twice, two names that differ
by their case alone (a player types a name in any case) or look alike (a
letter of another script for a Latin one: ``а1``, ``a1``), two points at one
position, a link to itself, a link written twice or to an unknown point are
reported at the place written.

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "board: {kind: points, points: {a: [0, 0], b: [1, 0]}, links: [[a, c]]}\\n"))
>>> board = read_points(b, b.tree["board"], False)
>>> print(b.sink.items[0].headline())
r.yaml:1:67: link to an unknown point 'c'
>>> board.cells
((0, 0), (1, 0))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.grid import format_cell, parse_cell
from engine.blocks.pointsboard import PointsBoard
from engine.core.errors import did_you_mean
from engine.core.lookalike import skeleton, told_apart
from engine.core.yamlsource import Mapping, Sequence

if TYPE_CHECKING:
    from engine.compiling.builder import Builder

Cell = tuple[int, int]
MAX_POINTS = 10_000
MAX_COORDINATE = 999
"""Positions are where points are drawn: -999 .. 999 across and down."""


def read_points(b: "Builder", spec: Mapping, stacking: bool) -> PointsBoard:
    """The board of ``spec`` (``kind: points``); each problem reported, the board built from what is right."""
    b.unknown_keys(spec, ("kind", "points", "links", "stacking", "y_axis", "cell_names"), "a board of points")  # cell_names: read by read_board
    y_up = b.choice(spec, "y_axis", ("down", "up"), "down") == "up"
    points, written_names = _points(b, spec)
    by_name = {name: cell for name, cell in points if name}
    on = {cell for _, cell in points}
    links: list[tuple[Cell, Cell]] = []
    written = spec.get("links")
    by_kind: dict[str, Any] = {"": written}  # the paths of each kind of link; "": links without kinds
    kind_type = ""
    if written is None:
        b.error(b.pos(spec), "a board of points needs 'links': the paths joining its points, e.g. [[a, b, c]] "
                             "(write 'links: []' for none)")
    elif isinstance(written, Mapping):
        kind_type, by_kind = _link_kinds(b, written)
    elif not isinstance(written, Sequence) or isinstance(written, str):
        b.error(b.pos(spec, "links"), "'links' must be a list of paths, each a list of two points or more: [[a, b], "
                                      "[b, c, d]], or a list of them per kind of link: {Road: [[a, b]], Rail: [[b, c]]}")
        by_kind = {}
    kinds: list[tuple[str, tuple[tuple[Cell, Cell], ...]]] = []
    joined: set[frozenset[Cell]] = set()
    for kind, paths in by_kind.items():
        pairs = _links(b, paths if points else None, points, by_name, on, written_names, kind)  # no point read: no link says more
        kinds.append((kind, tuple(pairs)))
        for a, c in pairs:
            if frozenset((a, c)) not in joined:  # two points joined by links of several kinds touch once
                joined.add(frozenset((a, c)))
                links.append((a, c))
    if links:
        linked = {cell for pair in links for cell in pair}
        for name, cell in points:
            if cell not in linked:
                b.error(written_names.get(name or format_cell(cell)), f"point '{name or format_cell(cell)}' has no link",
                        "link it to another point, or leave it out")
    return PointsBoard(tuple(points), tuple(links), stacking, y_up, tuple(kinds) if kind_type else (), kind_type)


def _link_kinds(b: "Builder", written: Mapping) -> tuple[str, dict[str, Any]]:
    """``links: {Road: [...], Rail: [...]}``: the type whose values name the kinds, and each kind's paths; a kind that
    is no value of the type of the first one is reported where written, its paths left out."""
    kinds: dict[str, Any] = {}
    kind_type = ""
    for kind in written:
        where = written.key_pos.get(kind)
        owners = [name for name, values in b.game.types.items() if str(kind) in values]
        if not owners:
            b.error(where, f"link kind '{kind}' is no value of a type: the kinds of link are the values of a type "
                           "declared under 'types:'", f"types: {{line: [{kind}, ...]}}, then links: {{{kind}: [[a, b]]}}")
        elif kind_type and kind_type not in owners:
            b.error(where, f"link kind '{kind}' is a value of {owners[0]}, and the kinds before it of {kind_type}: "
                           "the kinds of link are the values of one type")
        else:
            kind_type = kind_type or owners[0]
            kinds[str(kind)] = written[kind]
    return kind_type, kinds


def _links(b: "Builder", written: Any, points: list[tuple[str, Cell]], by_name: dict[str, Cell], on: set[Cell],
           written_names: dict[str, Any], kind: str) -> list[tuple[Cell, Cell]]:
    """The pairs the paths ``written`` join (of one kind of link, or of the links without kinds: ``kind`` ""), each
    once; each problem reported where written."""
    if written is None:
        return []
    if not isinstance(written, Sequence) or isinstance(written, str):
        b.error(b.pos(written), f"the links of kind {kind} are a list of paths, each a list of two points or more: "
                                f"{kind}: [[a, b], [b, c, d]]")
        return []
    pairs: list[tuple[Cell, Cell]] = []
    seen: set[frozenset[Cell]] = set()
    for i, path in enumerate(written):
        if not isinstance(path, Sequence) or isinstance(path, str) or len(path) < 2 or _position(path) is not None:
            b.error(b.pos(written, i), "a link is a list of two points or more (a path), e.g. [a, b] or [a, b, c]")
            continue
        cells = [_point(b, path, j, by_name, on, written_names) for j in range(len(path))]
        for j in range(1, len(cells)):
            a, c = cells[j - 1], cells[j]
            if a is None or c is None:
                continue
            where = b.pos(path, j)
            if a == c:
                b.error(where, f"a link from point '{_name(points, a)}' to itself")
            elif frozenset((a, c)) in seen:
                b.error(where, f"points '{_name(points, a)}' and '{_name(points, c)}' are linked twice"
                               + (f" by {kind}" if kind else ""))
            else:
                seen.add(frozenset((a, c)))
                pairs.append((a, c))
    return pairs


def _points(b: "Builder", spec: Mapping) -> tuple[list[tuple[str, Cell]], dict[str, Any]]:
    """The points written: ``{name: [x, y]}`` or ``[[x, y], ...]``, in order, without the ones in error; and where
    each point was written, by name (every name written, those in error too: links to them say nothing more)."""
    written = spec.get("points")
    found: list[tuple[str, Cell]] = []
    places: dict[str, Any] = {}
    at: dict[Cell, str] = {}
    if isinstance(written, Mapping):
        entries: list[tuple[Any, Any, Any]] = [(name, written[name], name) for name in written]
    elif isinstance(written, Sequence) and not isinstance(written, str):
        entries = [("", written[i], i) for i in range(len(written))]
    else:
        b.error(b.pos(spec, "points") if "points" in spec else b.pos(spec),
                "a board of points needs 'points': each point's name and position ({a: [0, 0], b: [2, 0]}) or a "
                "list of positions ([[0, 0], [2, 0]])")
        return found, places
    if not entries:
        b.error(b.pos(spec, "points"), "a board of points needs at least one point")
    if len(entries) > MAX_POINTS:
        b.error(b.pos(spec, "points"), f"a board has at most {MAX_POINTS} points, not {len(entries)}")
        return found, places
    folded: dict[str, str] = {}
    for name, value, key in entries:
        where = written.key_pos.get(name) if isinstance(written, Mapping) else b.pos(written, key)
        if name:
            b.check_identifier(str(name), where, "point", any_script=True)  # code reads at(Zürich) too
            places[str(name)] = where
            twin = folded.setdefault(skeleton(str(name)).casefold(), str(name))
            if twin != str(name) and twin.casefold() == str(name).casefold():  # a player types a name in any case
                b.error(where, f"points '{twin}' and '{name}' differ by their case alone, and a player types a "
                               "point's name in any case", "give each point a name of its own")
            elif twin != str(name):  # a letter of another script standing in for a Latin one: one name on screen
                b.error(where, f"points '{twin}' and '{name}' look alike: {told_apart(str(name), twin)}",
                        "give each point a name of its own (a name pasted from elsewhere: type it again)")
        cell = _position(value)
        if cell is None or max(abs(cell[0]), abs(cell[1])) > MAX_COORDINATE:
            b.error(b.pos(written, key), f"a point's position is [x, y], two whole numbers from -{MAX_COORDINATE} to "
                                         f"{MAX_COORDINATE}, not {value!r}")
            continue
        if cell in at:
            other = at[cell] or format_cell(cell)
            b.error(b.pos(written, key), f"two points at {format_cell(cell)}: '{other}' is there already",
                    "each point has a position of its own")
            continue
        at[cell] = str(name)
        found.append((str(name), cell))
        if not name:
            places[format_cell(cell)] = where
    return found, places


def _position(value: Any) -> Cell | None:
    """``[x, y]`` as a cell; None when it is not two whole numbers."""
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2 \
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return (int(value[0]), int(value[1]))
    return None


def _point(b: "Builder", path: Sequence, j: int, by_name: dict[str, Cell], on: set[Cell],
           written: dict[str, Any]) -> Cell | None:
    """The point ``path[j]`` names (a name, ``"x,y"`` or ``[x, y]``); None, reported unless the point itself is in
    error (``written`` holds every name written), when it names none."""
    value = path[j]
    named = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None  # a name (1: [0, 0] too)
    if named is not None and named in written and named not in by_name and parse_cell(named) is None:
        return None
    cell = by_name.get(named) if named is not None else None
    if cell is None:
        cell = parse_cell(value) if isinstance(value, str) else _position(value)
    if cell is None or cell not in on:
        shown = format_cell(cell) if cell is not None else str(value)
        b.error(b.pos(path, j), f"link to an unknown point '{shown}'", did_you_mean(str(value), by_name) if by_name else None)
        return None
    return cell


def _name(points: list[tuple[str, Cell]], cell: Cell) -> str:
    """How a message names a point: its name, else its position."""
    return next((name for name, at in points if at == cell and name), format_cell(cell))
