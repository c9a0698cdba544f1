"""Listing the zones a seat sees at the terminal: each zone's pieces (counted when alike, face-down ones as backs),
what the seat has seen of hidden ones, and the counters of each holder.

>>> counted(["A", "B", "A"])
['A x2', 'B']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Iterable, TypeVar

from rich.text import Text

from cli.cell_marks import board_marks
from cli.piece_labels import value_styles
from cli.piles import brought_from
from engine.blocks.catalogue import drawings
from engine.core.information import SEEN, zone_view
from engine.model.savefile import open_observation

if TYPE_CHECKING:
    from engine import Game, State
    from engine.blocks.block import Drawing, Line

H = TypeVar("H", bound=Hashable)
"""An item counted by :func:`tallied`."""


def counted(names: Iterable[str], in_order: bool = False) -> list[str]:
    """Names in first-seen order, repeated ones once with their count (``A x2``); ``in_order`` (a pile, whose order
    the rules may read): only copies lying next to each other are counted together, so the list keeps the order.

    >>> counted(["A", "B", "A"]), counted(["A", "A", "B", "A"], in_order=True)
    (['A x2', 'B'], ['A x2', 'B', 'A'])
    """
    return [name if n == 1 else f"{name} x{n}" for name, n in tallied(names, in_order)]


def tallied(items: Iterable[H], in_order: bool = False) -> list[tuple[H, int]]:
    """Each item once, in first-seen order, with how many there are; ``in_order``: only items next to each other are
    counted together.

    >>> tallied("aba"), tallied("aab", in_order=True), tallied("aba", in_order=True)
    ([('a', 2), ('b', 1)], [('a', 2), ('b', 1)], [('a', 1), ('b', 1), ('a', 1)])
    """
    runs: list[list[Any]] = []
    seen: dict[H, list[Any]] = {}
    for item in items:
        run = (runs[-1] if runs and runs[-1][0] == item else None) if in_order else seen.get(item)
        if run is None:
            run = [item, 0]
            runs.append(run)
            seen[item] = run
        run[1] += 1
    return [(item, n) for item, n in runs]


def in_view(state: State, zone: int, seat: int | None) -> list[int]:
    """A zone's components in the order ``seat`` sees them (a zone it sees without their order, by name and face, as
    its observation lists them); ``seat`` None: as they are.

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> state = game.new_state(players=min(game.player_counts), seed=0)
    >>> in_view(state, 0, 1) == list(state.zones[0]) == in_view(state, 0, None)
    True
    """
    from engine.model.savefile import seen_order

    return list(state.zones[zone]) if seat is None else seen_order(state, zone, seat)


def listing(state: State, zone: int, styles: dict[str, str], seat: int | None = None) -> list[Text]:
    """A zone that ``show``s attributes: one line per component, with its shown values and non-zero counters, in the
    order ``seat`` sees them (see :func:`in_view`)."""
    game = state.game
    lines = []
    for cid in in_view(state, zone, seat):
        line = Text(f"  {game.piece_names[cid]}:")
        head = len(line)
        for attr in game.zone_spec_of[zone].show:
            value = game.attributes[attr][state.face[cid]][cid]
            if game.attribute_types.get(attr) in ("cell", "list of cell") and "cell" not in game.types:
                value = [place_name(game, c) for c in value] if isinstance(value, list) else place_name(game, value)
            if isinstance(value, list):
                for v in value:
                    line.append(f" {v}", style=styles.get(str(v), ""))
            elif value is not None:
                line.append(f"{';' * (len(line) > head)} {attr} {value}")  # 'a: n 5', and after listed values 'a: u v; n 5'
        marks = [f"{name} {state.counters[i]}" for name, spec in game.counters.items()
                 if (i := spec.index_of(cid)) is not None and spec.per not in ("role", "game") and state.counters[i]]
        if marks:  # no line ends in spaces
            line.append("  ")
            line.append(" ".join(marks), style="bold reverse")
        lines.append(line)
    return lines


def place_name(game: Game, cell: tuple[int, int] | None) -> str | None:
    """A cell an attribute of type cell holds, as a player names it: a point's name, else ``x,y`` or the cell's name
    (``cell_names``) (None: none)."""
    if cell is None:
        return None
    name_of = getattr(game.grid, "name_of", None)
    return name_of(cell) if name_of else game.cell_text(cell)


def seen_text(seen: list[list[Any]], count: int) -> str:
    """The components of a hidden zone shown to the seat, as its zone line says them: by name, with their place
    when the zone holds others (``X`` alone; ``X (1st), Y (3rd)`` among more).

    >>> seen_text([[0, "X"]], 1), seen_text([[0, "X"], [2, "Y"]], 3)
    ('X', 'X (1st), Y (3rd)')
    """
    if count == len(seen):
        return ", ".join(name for _, name in seen)
    return ", ".join(f"{name} ({ordinal(i + 1)})" for i, name in seen)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22, 103)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st', '22nd', '103rd']
    """
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


def zones(state: State, seat: int | None, on_top: frozenset[int] = frozenset(),
          came_from: dict[int, int] | None = None) -> list[Text]:
    """One line per non-empty zone off the board, as ``seat`` sees it (hidden ones as counts, identical pieces as ``x3``),
    then one naming the empty zones it sees (``empty: discard, hand (yours)``; see :func:`shown_empty`).

    ``on_top``: the piles the rules laid components on top of (:func:`cli.piles.laid_on_top`), listed from the bottom
    up, as they were laid, and said so (``row1 (from the bottom up): 38, 41``), as the browser's table lists them;
    the others as they lie, their top first (a trick, each card put under the one led).

    ``came_from``: the zone each component last came from into a pile of nobody's (:func:`cli.piles.played_from`):
    in a pile open to all, a component that came from a role's zone is followed by that role, ``trick: 5S (A),
    7S (B)`` (a trick's cards, each with who played it), as the browser's table marks them.

    ``seat`` None, or the game over: every zone open (a replay's final position; see
    :func:`engine.model.savefile.open_observation`).  A zone that ``show``s attributes lists its
    components one per line.  What the blocks draw (see :class:`engine.blocks.block.Drawing`) comes in too: a
    zone held by a role whose components a block draws itself is drawn as their lines (then that block's
    legend), then the blocks' other lines and the counters they do not draw.
    """
    game = state.game
    viewer = None if state.is_terminal else seat  # the game over: every zone open, to every seat
    observed = open_observation(state) if viewer is None else state.observation(viewer)
    seen: dict[str, Any] = observed["zones"]
    faces: dict[str, list[str]] = observed.get("faces", {})
    drawn = drawings(state, viewer)
    by_component: dict[int, tuple[int, Line]] = {}
    for i, drawing in enumerate(drawn):
        for cid, component_line in drawing.components.items():
            by_component.setdefault(cid, (i, component_line))
    lines = []
    legends: set[int] = set()
    empty: list[str] = []
    for zi, (name, content) in enumerate(seen.items()):
        owner = game.zone_owner[zi]
        mine = seat is not None and owner is not None and state.seat_of.get(owner) == seat
        if holds_nothing(content):
            if shown_empty(state, zi):
                empty.append(f"{name}{' (yours)' if mine else ''}")
            continue
        if zi == game.board_zone:
            continue
        laid = zi in on_top and isinstance(content, list) and (viewer is None or zone_view(state, zi, viewer) == SEEN)
        if laid:  # from the bottom up, as laid
            content = content[::-1]
            faces = {**faces, name: faces[name][::-1]} if name in faces else faces
        said = " (from the bottom up)" if laid and len(content) > 1 else ""
        line = Text(f"{name}{' (yours)' if mine else ''}{said}: ", style="bold" if mine else "")
        if isinstance(content, dict):
            line.append(f"{content['hidden']} hidden", style="dim")
            if content.get("seen"):  # shown to this seat alone (show(..., to = r))
                line.append(f" (you saw: {seen_text(content['seen'], content['hidden'])})")
        elif owner is not None and all(cid in by_component for cid in state.zones[zi]):
            line.rstrip()  # 'zone of A:', its components on the lines under it
            lines.append(line)
            lines += [styled(by_component[cid][1]) for cid in in_view(state, zi, viewer)]
            legends.update(by_component[cid][0] for cid in state.zones[zi])
            continue
        elif game.zone_spec_of[zi].show:
            line.rstrip()
            lines.append(line)
            listed = listing(state, zi, value_styles(game), viewer)
            lines.extend(listed[::-1] if laid else listed)
            continue
        else:
            held = as_held(game, zi, content, faces.get(name))
            shown = [face for _, face in held] if faces.get(name) else None
            pile = game.zone_spec_of[zi].kind == "pile"  # its order may be the rules': copies apart are not counted as one
            names = _with_faces(game, [piece for piece, _ in held], shown)
            by = brought_from(state, zi, laid, came_from or {}, [piece for piece, _ in held]) if pile and owner is None else []
            if len(by) == len(names):  # a trick's cards, each with the role that played it: '5S (A), 7S (B)'
                names = [f"{n} ({game.zone_owner[game.zone_names.index(z)]})" if z else n for n, z in zip(names, by)]
            line.append(", ".join(counted(names, in_order=pile)))
            supply = game.zone_spec_of[zi].kind == "supply" and isinstance(content, list)
            on_lines = [cid for cid in in_view(state, zi, viewer) if cid in by_component] if supply else []
            if on_lines:  # components a block draws kept in the supply (on a meter): their lines too
                lines.append(line)
                lines += [styled(by_component[cid][1]) for cid in on_lines]
                legends.update(by_component[cid][0] for cid in on_lines)
                continue
        lines.append(line)
    lines += [styled(legend) for i in sorted(legends) for legend in drawn[i].legend]
    if empty:
        lines.append(Text(f"empty: {', '.join(empty)}", style="dim"))
    lines += [styled(extra) for drawing in drawn for extra in drawing.lines]
    return lines + counters(state, drawn, viewer)


def holds_nothing(content: Any) -> bool:
    """Whether a zone as a seat sees it holds nothing: no component, or a hidden zone's count of 0 (an opponent's
    hand played out, a deck drawn to its end: a count every seat sees).

    >>> holds_nothing([]), holds_nothing({"hidden": 0}), holds_nothing({"hidden": 2}), holds_nothing(["a"])
    (True, True, False, False)
    """
    return not content or isinstance(content, dict) and not content.get("hidden")


def shown_empty(state: State, zone: int) -> bool:
    """Whether an empty zone is drawn as such (``empty: discard``), so that a player sees it exists before it fills: a
    zone the ruleset declares, not the board nor the built-in supply (empty in most games, where nothing is kept
    there), nor one of a role nobody plays (when roles are open: which are played is known), nor one the ruleset
    says is not ``shown`` (it fills only in the middle of an effect).

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> shown_empty(game.new_state(players=min(game.player_counts), seed=0), game.zone_names.index("supply"))
    False
    """
    game = state.game
    if zone == game.board_zone or game.zone_spec_of[zone].kind == "supply" or not game.zone_spec_of[zone].shown:
        return False
    owner = game.zone_owner[zone]
    return owner is None or bool(state.seat_of.get(owner)) or (game.roles is not None and game.roles.hidden)


def as_held(game: Game, zone: int, names: list[str], faces: list[str] | None) -> list[tuple[str, str | None]]:
    """A zone's components by name, each with the face it shows (None: not said), as they are listed: a hand
    (``kind: hand``) in the order the ruleset declares its components, as a player sorts a hand (what joined it
    later among the rest, not at its end); a pile as its components lie (the first one put there first).

    >>> from types import SimpleNamespace as S
    >>> game = S(zone_spec_of=[S(kind="hand"), S(kind="pile")], piece_names=["a1", "b2", "c3"])
    >>> as_held(game, 0, ["c3", "a1", "b2"], None), as_held(game, 1, ["c3", "a1"], ["x", "y"])
    ([('a1', None), ('b2', None), ('c3', None)], [('c3', 'x'), ('a1', 'y')])
    """
    listed: list[tuple[str, str | None]] = list(zip(names, faces or [None] * len(names)))
    if game.zone_spec_of[zone].kind == "hand":
        order = {name: i for i, name in reversed(list(enumerate(game.piece_names)))}
        listed.sort(key=lambda item: order.get(item[0], len(order)))
    return listed


def _with_faces(game: Any, names: list[str], faces: list[str] | None) -> list[str]:
    """Each component's name, with the face it shows (``die as 5``) in a zone where some component is not on its
    first face, as a choice among them names them; components of one face keep their names.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(piece_names=["d6", "chip"], face_labels=[("1", "2", "3", "4", "5", "6"), ("chip",)])
    >>> _with_faces(game, ["d6", "d6", "chip"], ["5", "2", "chip"]), _with_faces(game, ["d6"], None)
    (['d6 as 5', 'd6 as 2', 'chip'], ['d6'])
    """
    if not faces:
        return names
    labels = {name: game.face_labels[game.piece_names.index(name)] for name in set(names)}
    return [f"{name} as {face}" if len(labels[name]) > 1 else name for name, face in zip(names, faces)]


def styled(line: Line) -> Text:
    """A line a block drew, in the terminal's styles.

    >>> styled((("70/110 ", ""), ("██", "bold"))).plain
    '70/110 ██'
    """
    text = Text()
    for piece, style in line:
        text.append(piece, style=style)
    return text


def counters(state: State, drawn: list[Drawing] | None = None, seat: int | None = None, grids: bool = True) -> list[Text]:
    """One line per declared counter: ``gold: A 3, B 5`` (or ``round: 2``): roles that are played (every role when
    roles are hidden: which are played is not known); components where it is not 0.

    A counter a block draws itself (in ``drawn``, what the blocks draw, asked for when not given; see :func:`zones`)
    or declared ``shown: false`` is not drawn, nor, for ``seat``, one of a component it cannot see, nor one of a
    component in a zone that ``show``s attributes, which its own line there lists (:func:`listing`: a glyph's charges
    were listed twice, beside it and on a line of their own).  Counters keyed
    by numbers come last, as grids (:func:`key_grids`): the keys across, a row per owner; ``grids`` False leaves them
    out (the page draws them as tables).  The counter the board draws in its cells (:func:`cli.cell_marks.board_marks`)
    lists only its values under pieces, where the board shows the piece.
    """
    from engine.model.savefile import counter_values

    game = state.game
    open_roles = game.roles is None or not game.roles.hidden
    by_blocks = {name for drawing in (drawings(state, None) if drawn is None else drawn) for name in drawing.counters}
    lines = []
    numbered = key_grids(state, seat, drawn)
    gridded = {name for _, rows in numbered for name, _, _ in rows}
    listed = {game.component_names[cid] for zi, spec in enumerate(game.zone_spec_of)
              if spec.show and zi != game.board_zone for cid in state.zones[zi]}
    marks = board_marks(state)
    for name, values in counter_values(state, seat).items():
        if name in by_blocks or not game.counters[name].shown or name in gridded:
            continue
        per = game.counters[name].per
        if marks is not None and name == marks.name:  # drawn in the board's cells: what lies under pieces only
            under = marks.under_line(state)
            lines += [Text(under)] if under else []
            continue
        if game.counters[name].keys is not None:
            lines += keyed_lines(state, name, values, open_roles)
            continue
        if isinstance(values, dict) and per == "role":
            values = {owner: value for owner, value in values.items() if state.seat_of.get(owner) or not open_roles}
        elif isinstance(values, dict):
            values = {owner: value for owner, value in values.items() if value and owner not in listed}
            if not values:
                continue
        if isinstance(values, dict):
            shown = ", ".join(f"{owner if per == 'role' else holder_label(state, owner)} {value}" for owner, value in values.items())
        else:
            shown = str(values)
        lines.append(Text(f"{name}: {shown}"))
    if grids:
        lines += [line for keys, rows in numbered for line in grid_lines(keys, rows)]
    return lines


GRID_WIDTH = 80
"""The widest a grid of counters keyed by numbers may be drawn (:func:`key_grids`); a wider one is listed as text."""


def key_grids(state: State, seat: int | None = None, drawn: list[Drawing] | None = None) -> list[tuple[list[str], list[tuple[str, str, list[int]]]]]:
    """The counters keyed by numbers (``key: 2..12``: one value a column, a track, a year), those sharing their keys
    drawn together as one grid: its keys, and a row per counter and owner, ``(counter, label, values)`` (``marker of
    A``; roles that are played, components holding one that is not 0), the values in the order of the keys.  Only
    those listed under the board (see :func:`counters`) and only grids :data:`GRID_WIDTH` characters wide at most.

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> key_grids(game.new_state(players=min(game.player_counts)))
    []
    """
    from engine.model.savefile import keyed_values

    game = state.game
    open_roles = game.roles is None or not game.roles.hidden
    by_blocks = {name for drawing in (drawings(state, None) if drawn is None else drawn) for name in drawing.counters}
    grids: dict[tuple[Any, ...], list[tuple[str, str, list[int]]]] = {}
    for name, spec in game.counters.items():
        columns = spec.columns
        if columns is None or name in by_blocks or not spec.shown:
            continue
        values = keyed_values(state, spec, seat)
        rows = grids.setdefault(columns, [])
        keys = [str(k) for k in columns]
        paired = columns != spec.keys  # kept per a row and a number: a line per row
        if spec.per == "game":
            rows += [(name, f"{name} ({row})" if paired else name, [keyed.get(k, 0) for k in keys])
                     for row, keyed in (by_row(values) if paired else {"": values}).items()]
            continue
        for owner, keyed in values.items():
            if spec.per == "role" and open_roles and not state.seat_of.get(owner) or spec.per != "role" and not any(keyed.values()):
                continue
            label = owner if spec.per == "role" else holder_label(state, owner)
            rows += [(name, f"{name} of {label} ({row})" if paired else f"{name} of {label}", [cells.get(k, 0) for k in keys])
                     for row, cells in (by_row(keyed) if paired else {"": keyed}).items()]
    found = []
    for columns, rows in grids.items():
        if rows and len(grid_lines([str(k) for k in columns], rows)[0]) <= GRID_WIDTH:
            found.append(([str(k) for k in columns], rows))
    return found


def by_row(keyed: dict[str, int]) -> dict[str, dict[str, int]]:
    """The values of a counter kept per a row and a number, by key as observations name them (``X, 7``), split by
    row, then number.

    >>> by_row({"X, 1": 0, "X, 2": 1, "Y, 1": 3})
    {'X': {'1': 0, '2': 1}, 'Y': {'1': 3}}
    """
    rows: dict[str, dict[str, int]] = {}
    for key, value in keyed.items():
        row, _, column = key.rpartition(", ")
        rows.setdefault(row, {})[column] = value
    return rows


def grid_lines(keys: list[str], rows: list[tuple[str, str, list[int]]]) -> list[Text]:
    """A grid of counters keyed by numbers (:func:`key_grids`) as aligned lines: the keys across, a row per counter
    and owner, ``·`` for 0.

    >>> [line.plain for line in grid_lines(["2", "3"], [("held", "held", [0, 12])])]
    ['       2   3', 'held   ·  12']
    """
    label = max(len(text) for _, text, _ in rows)
    width = max([len(k) for k in keys] + [len(str(v)) for _, _, values in rows for v in values])
    lines = [Text(" " * label + "".join(f"  {k:>{width}}" for k in keys), style="dim")]
    for _, text, values in rows:
        cells = "".join(f"  {str(v) if v else '·':>{width}}" for v in values)
        lines.append(Text(f"{text:<{label}}{cells}".rstrip()))
    return lines


def keyed_lines(state: State, name: str, values: dict[str, Any], open_roles: bool) -> list[Text]:
    """A keyed counter's lines under the board: ``height: 2=1, 7=3`` for a game-wide one, else one line per owner,
    ``stock of A: X=2, Y=1`` — the keys that are not 0 (``none`` when all are), roles that are played, components
    holding one that is not 0.

    >>> from types import SimpleNamespace as Seen
    >>> s = Seen(seat_of={"A": 1, "B": 0}, game=Seen(counters={"stock": Seen(per="role")}))
    >>> [line.plain for line in keyed_lines(s, "stock", {"A": {"X": 2, "Y": 0}, "B": {"X": 1}}, True)]
    ['stock of A: X=2']
    """
    def shown(keyed: dict[str, int]) -> str:
        return ", ".join(f"{key}={value}" for key, value in keyed.items() if value) or "none"

    per = state.game.counters[name].per
    if per == "game":
        return [Text(f"{name}: {shown(values)}")]
    lines = []
    for owner, keyed in values.items():
        if per == "role" and open_roles and not state.seat_of.get(owner) or per != "role" and not any(keyed.values()):
            continue
        lines.append(Text(f"{name} of {owner if per == 'role' else holder_label(state, owner)}: {shown(keyed)}"))
    return lines


def holder_label(state: State, owner: str) -> str:
    """A counter's owner as a line under the board names it (:func:`engine.model.savefile.owner_label`), with, for
    one of identical copies lying in a stack, its place there: two copies on one cell read ``X at (0,0) (top of
    2)`` and ``X at (0,0) (2nd of 2 from the top)``, where both read ``X at (0,0)``.

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> holder_label(game.new_state(players=min(game.player_counts)), "nobody")
    'nobody'
    """
    from engine.model.savefile import owner_label

    label = owner_label(state, owner)
    cid = state.game.component_ids.get(owner)
    if cid is None or label == owner or state.cell_of[cid] is None:
        return label
    pile = state.stack(state.cell_of[cid])
    if len(pile) < 2 or cid not in pile:
        return label
    place = pile.index(cid)
    return f"{label} (top of {len(pile)})" if place == 0 else f"{label} ({ordinal(place + 1)} of {len(pile)} from the top)"
