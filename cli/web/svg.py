"""The board as an inline SVG, drawn from what the compiled game declares — never from its name.

A square board is drawn as squares (x across, y down, or up where the board says `y_axis: up`) with its coordinates
along the edges (the columns' letters and the rows' numbers where the board names its cells, ``cell_names``): a fixed board whole, a growing one as its pieces and the
empty cells a piece may go to next (none once the game is over).  A hex board is drawn as pointy-top
hexes in axial coordinates ``q,r``, every hex labelled.  A board of points is its links as lines and its points
as small circles where they lie, each titled with its name, a named one (a map's land) with its name beneath it (the
map spread out where names one step apart would run into each other).  A piece is a
rounded tile (square) or a disc (hex) in the colour of its value (see
:func:`value_colours`) with its short text (and beneath it the face up, when the faces differ but not
in colour, as a crowned piece does) and, small in its corner, the counters it keeps that are not 0; a stack of one kind
shows ``×N`` for the pieces there, a stack of several kinds (several players' pieces in one area) a small disc per kind
with its count; a tile whose kind has sides (:mod:`cli.web.sides`) shows each side's value, turned as it lies; a piece
in a pattern group gets its group marker's colour as a ring.  A face-down piece the viewer may not see is its back, a ``?`` in the colour of the role it was turned
down for; one it sees (its own) is ringed with a dashed line.  A counter keyed by the cells (:mod:`cli.cell_marks`) writes
its value in each empty cell, hex or point where it is not 0, and in every cell's title.  Every cell carries ``data-cell="x,y"`` so the page can offer
the actions played there.

Typical use::

    state = engine.load("my-game").new_state(players=2, seed=1)
    html = f"<div>{board_svg(state)}</div>"       # '<svg ... <g class="cell" data-cell="0,0">...'
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from rich.color import Color, ColorParseError

from cli.board_drawing import drawn_span
from cli.cell_marks import BoardMarks, board_marks
from cli.piece_labels import own_face_down, piece_counts, piece_text, value_label, value_styles
from cli.web.edges import held_disc, held_points, link_kinds, link_lines, links_svg
from cli.web.sides import Sides, hex_corners, side_count, side_values, sides_svg, square_corners, tile_sides
from engine.blocks.grid import format_cell
from engine.blocks.hexgrid import HexGrid
from engine.blocks.pointsboard import PointsBoard
from engine.core.facedown import back_label, face_down, hidden_from
from engine.core.showtext import abbreviations
from engine.core.showtext import html_safe as escape

if TYPE_CHECKING:
    from engine import Game, State

PALETTE = ("#d62728", "#2ca02c", "#1f77b4", "#e6b000", "#9467bd", "#17becf",
           "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#393b79")
"""Colours for the values of a type, by index, when the ruleset gives none."""

COLOUR_WORDS: dict[str, str] = json.loads((Path(__file__).parent / "colour_words.json").read_text(encoding="utf-8"))
"""Colour words as a browser reads them (CSS's own values), for the common words the terminal's colour names lack or
read otherwise (its ANSI colour 3 is a dark olive): a value named for one of them, or a piece styled with it, is drawn
in that colour.  A table of CSS's, kept beside this module, as the style sheet keeps CSS's other words."""

NEUTRAL = "#c8c2b4"
"""The colour of a piece whose value has no colour (no declared type)."""

CELL = 46
"""Side of a square cell (and twice a hex's radius), in SVG units."""

MARGIN = 24
"""Room for the coordinates around the board."""

FACE_CHARS = 7
"""The most characters of a face's name written under a piece's label (longer ones are cut, with '…')."""

POINT_CHARS = 10
"""The characters of a point's name always written beneath it, however little room it has (written smaller); where
there is room for more, as many as fit (longer names are cut, with '…'; its title says it whole)."""


def _cut(text: str, most: int) -> str:
    """``text``, cut to ``most`` characters with '…' when longer.

    >>> _cut("short", 10), _cut("rather long words", 10)
    ('short', 'rather lo…')
    """
    return text if len(text) <= most else text[:most - 1] + "…"


def value_colours(game: Game) -> dict[str, str]:
    """A CSS colour for every value of every declared type.

    A ``display`` entry's ``colour`` wins, then the colour named in its
    terminal ``style`` (``bold magenta`` -> magenta), then the colour the value's
    own name is, if it names one (a value ``teal`` is teal), then the palette in its order, one colour a value, going
    on from one type that colours pieces (a piece's first attribute of a declared type) to the next, and passing over
    a colour close to one a value that colours pieces has of its own: a game's sides and its marks each took the
    palette from its start, so its first side and its first mark were drawn alike, on the board and in the legend,
    and a value took the palette's colour next to a value named for nearly that colour.

    >>> _style_colour("bold magenta"), _style_colour("bold")
    ('#800080', None)
    """
    styles = value_styles(game)
    own = {value: colour for values in game.types.values() for value in values
           if (colour := _own_colour(game.display.get(value, {}), value))}
    shown = {value_label(game, c, f) for c, faces in enumerate(game.face_count) for f in range(faces)}
    taken = [rgb for value, colour in own.items() if value in shown and (rgb := _rgb(colour)) is not None]
    free = [colour for colour in PALETTE if not any(_near(_rgb(colour), rgb) for rgb in taken)] or list(PALETTE)
    colours: dict[str, str] = {}
    start = 0  # where the palette goes on for the next type that colours pieces
    for values in game.types.values():
        unowned = [value for value in values if value not in own]
        for i, value in enumerate(values):
            colours.setdefault(value, own.get(value) or free[(start + unowned.index(value)) % len(free)])
        if shown.intersection(map(str, values)):
            start += len(unowned)
    for name, hint in game.display.items():  # a component named in display
        if name not in colours and (hint.get("colour") or _style_colour(hint.get("style"))):
            colours[name] = hint.get("colour") or _style_colour(hint.get("style")) or NEUTRAL
    for value, style in styles.items():
        colours.setdefault(value, _style_colour(style) or NEUTRAL)
    return colours


def role_colours(game: Game, seat_of: dict[str, int]) -> dict[str, tuple[str, str]]:
    """A colour and a mark for every role a seat plays (``seat_of``), for what it holds along a board's links
    (:mod:`cli.web.edges`): its own colour where the role is a value with one, else the palette's in the roles'
    order, passing over the colours near a value's (so a seat's band is not taken for the colour a component on
    the link shows: the palette's first colour beside a value of nearly that colour); its mark, the seat's number.

    Example: roles ``A``, ``B`` of seats 1 and 2 in a game whose values take the palette's first four colours are
    given the fifth and the sixth, ``{'A': ('#9467bd', '1'), 'B': ('#17becf', '2')}``.
    """
    colours = value_colours(game)
    taken = [rgb for colour in colours.values() if (rgb := _rgb(colour)) is not None]
    free = [colour for colour in PALETTE if not any(_near(_rgb(colour), rgb, 0.35) for rgb in taken)] or list(PALETTE)
    found: dict[str, tuple[str, str]] = {}
    unowned = 0
    hidden = game.roles is not None and game.roles.hidden  # which seat plays a role is not told: nor which are played
    for role in game.roles.values if game.roles is not None else ():
        if hidden or seat_of.get(role):
            own = colours.get(role)
            found[role] = (own or free[unowned % len(free)], role[:2] if hidden else str(seat_of[role]))
            unowned += own is None
    return found


def _own_colour(hint: dict[str, Any], value: str) -> str | None:
    """The colour a value has of its own: its ``display`` colour, its style's, or the colour its name is (None)."""
    return hint.get("colour") or _style_colour(hint.get("style")) or _style_colour(value)


def _rgb(colour: str) -> tuple[int, int, int] | None:
    """A CSS colour (``#rgb``, ``#rrggbb`` or a name) as its three channels, 0 to 255, or None when it cannot be read.

    >>> _rgb("#f00"), _rgb("teal"), _rgb("no such colour")
    ((255, 0, 0), (0, 128, 128), None)
    """
    text = colour.strip().lower()
    if len(text) == 4 and text.startswith("#"):
        text = "#" + "".join(c * 2 for c in text[1:])
    try:
        found = Color.parse(COLOUR_WORDS.get(text, text)).get_truecolor()
    except ColorParseError:
        return None
    first, second, third = found
    return first, second, third


def _near(a: tuple[int, int, int] | None, b: tuple[int, int, int], apart: float = 0.2) -> bool:
    """Whether two colours are close enough to be taken for one another (closer than ``apart`` of the way across the
    colour cube, corner to corner: a fifth).

    >>> _near((127, 127, 127), (128, 128, 128)), _near((214, 39, 40), (0, 128, 0)), _near((214, 39, 40), (128, 0, 0), 0.35)
    (True, False, True)
    """
    return a is not None and sum((x - y) ** 2 for x, y in zip(a, b)) < (apart * 441.7) ** 2


def _style_colour(style: str | None) -> str | None:
    """The CSS colour of the first colour word in a terminal style, or in a value's name (None when it names none).

    >>> _style_colour("bold orange"), _style_colour("Teal"), _style_colour("bright_black")
    ('#ffa500', '#008080', '#808080')
    """
    for word in (style or "").split():
        if word.lower() in COLOUR_WORDS:
            return COLOUR_WORDS[word.lower()]
        try:
            return Color.parse(word).get_truecolor().hex
        except ColorParseError:
            continue
    return None


def text_colour(fill: str) -> str:
    """Dark or light text, whichever reads better on ``fill`` (a ``#rrggbb`` or ``#rgb`` colour, or a colour's name,
    as ``display`` may give them).

    >>> text_colour("#ffffff"), text_colour("#000000"), text_colour("#222"), text_colour("navy")
    ('#111', '#fff', '#fff', '#fff')
    """
    if len(fill) == 4 and fill.startswith("#"):  # #rgb: each digit twice
        fill = "#" + "".join(digit * 2 for digit in fill[1:])
    elif not fill.startswith("#"):
        fill = _style_colour(fill) or ""
    if not (fill.startswith("#") and len(fill) == 7):
        return "#111"
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


BACK = "#5b5b66"
"""The colour of a face-down piece's back (turned down for nobody, or for a role without a colour)."""


def piece_look(game: Game, state: State, cid: int, colours: dict[str, str],
               short: dict[str, str], viewer: int | None = None) -> tuple[str, str, str, str]:
    """``(fill, label, title, face)`` of a piece as it lies: its value's colour, its short text, its full name, and
    the face up when its faces differ but not in value, so not in colour (a crowned piece): else ``""``.  A face-down
    piece ``viewer`` does not see (None: every piece seen) is its back: ``?`` in the colour of the role that sees it;
    one it sees says so in its title."""
    if hidden_from(state, cid, viewer):
        down = face_down(state)
        role = down.seen_by(cid) if down is not None else None
        fill = colours.get(role, BACK) if isinstance(role, str) else BACK
        return fill, "?", back_label(state, cid), ""
    if own_face_down(state, cid, viewer):
        fill, label, title, face = piece_look(game, state, cid, colours, short)
        return fill, label, f"{title} (face down to the others)", face
    value = value_label(game, cid, state.face[cid])
    fill = colours.get(value, NEUTRAL)
    shown = piece_text(game, state, cid, value_styles(game))
    label = shown.plain if shown is not None else short.get(value, value)
    labels = game.face_labels[cid]
    up = labels[state.face[cid]]
    title = game.piece_names[cid] if len(labels) < 2 else f"{game.piece_names[cid]} as {up}"
    alike = len({value_label(game, cid, face) for face in range(len(labels))}) == 1
    face = _cut(up, FACE_CHARS) if alike and len(set(labels)) > 1 else ""
    return fill, label, title, face


def _count_text(x: float, y: float, counts: list[tuple[str, int]], fill: str, ringed: bool = False) -> str:
    """A piece's counters, written small in its corner, ending at ``x`` (their names in the piece's title);
    ``ringed``: with a light halo, so that they read where they reach over a disc of any colour."""
    if not counts:
        return ""
    text = " ".join(str(value) for _, value in counts)
    return (f'<text x="{x:.1f}" y="{y:.1f}" class="count{" ringed" * ringed}" fill="{fill}" '
            f'text-anchor="end">{escape(text)}</text>')


def _mark_title(marks: BoardMarks | None, value: int | None) -> str:
    """What a cell's title adds for its value of the counter the board draws (:mod:`cli.cell_marks`): ``, trail 1``.

    >>> _mark_title(BoardMarks("trail", {}), 1), _mark_title(None, None)
    (', trail 1', '')
    """
    return f", {marks.name} {value}" if marks is not None and value else ""


def _counted_title(title: str, counts: list[tuple[str, int]]) -> str:
    return title + "".join(f", {name} {value}" for name, value in counts)


STACK_SHOWN = 9
"""The kinds of piece a stack's cell draws a disc for; past them, one grey disc counts the rest (``+N``)."""


def stack_groups(state: State, cell: tuple[int, int], colours: dict[str, str], short: dict[str, str],
                 viewer: int | None) -> list[tuple[tuple[str, str, str], int]]:
    """The pieces at ``cell`` grouped by how they look to ``viewer`` (colour, label, face: usually, by the player whose
    pieces they are), with how many of each, the top piece's group first, then in the order they first lie from the
    top down.

    Example: three pieces of value ``a`` under two of ``b`` are ``[(("#00f", "b", ""), 2), (("#f00", "a", ""), 3)]``;
    a piece alone (no stack), ``[]``.
    """
    if not state.stacks.get(cell):
        return []
    groups: dict[tuple[str, str, str], int] = {}
    for cid in state.stack(cell):
        fill, label, _, face = piece_look(state.game, state, cid, colours, short, viewer)
        groups[(fill, label, face)] = groups.get((fill, label, face), 0) + 1
    return list(groups.items())


def _stack_discs(cx: float, cy: float, side: float, groups: list[tuple[tuple[str, str, str], int]], ring: str) -> str:
    """A cell holding pieces of several kinds: a small disc per kind (:func:`stack_groups`), in rows inside a square of
    ``side`` centred at ``(cx, cy)``, each saying how many pieces it stands for (with their label too when two kinds
    share a colour), the top piece's disc first and outlined (``ring``, a pending or group ring, else a dark line).

    >>> _stack_discs(0, 0, 38, [(("#f00", "R", ""), 3), (("#00f", "B", ""), 2)], "").count("<circle")
    2
    """
    if len(groups) > STACK_SHOWN:  # the rest counted on one grey disc
        rest = sum(n for _, n in groups[STACK_SHOWN - 1:])
        groups = groups[:STACK_SHOWN - 1] + [((NEUTRAL, "+", ""), rest)]
    fills = [fill for (fill, _, _), _ in groups]
    named = len(set(fills)) < len(fills)  # two kinds in one colour: the labels tell them apart
    across = math.ceil(math.sqrt(len(groups)))
    down = math.ceil(len(groups) / across)
    step = side / across
    radius = step * 0.46
    parts = []
    for i, ((fill, label, _), n) in enumerate(groups):
        x = cx - side / 2 + step * (i % across + 0.5)
        y = cy - step * down / 2 + step * (i // across + 0.5)
        outline = (ring or ' stroke="#222" stroke-width="1.5"') if i == 0 else ' stroke="#fff" stroke-width="1"'
        text = f"{label}{n}" if named or label == "+" else str(n)
        px = max(8.0, radius * 1.1)
        squeeze = min(1.0, radius * 1.8 / (len(text) * CHAR_WIDTH * px))  # a long label: smaller, to stay on its disc
        parts.append(f'<circle class="kind" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{fill}"{outline}/>'
                     f'<text x="{x:.1f}" y="{y + px * squeeze * 0.36:.1f}" class="kind-count" fill="{text_colour(fill)}" '
                     f'text-anchor="middle" style="font-size: {px * squeeze:.1f}px">{escape(text)}</text>')
    return "".join(parts)


def _stack_badge(x: float, y: float, state: State, cell: tuple[int, int], inside: bool = False) -> str:
    """How many pieces a stack of one kind holds (``×5``), on a dark badge at ``(x, y)``, its lower right corner, that
    reads on any piece (nothing for a piece alone); ``inside``: a smaller badge whose top middle is ``(x, y)``, on a
    disc's lower half, that stays inside a hex (see :func:`_disc`)."""
    many = len(state.stacks.get(cell, ())) + 1
    if many < 2:
        return ""
    text = f"×{many}"
    if inside:
        wide = len(text) * 6 + 4
        return (f'<rect class="stack-badge" x="{x - wide / 2:.1f}" y="{y:.1f}" width="{wide}" height="12" rx="6"/>'
                f'<text x="{x:.1f}" y="{y + 9.5:.1f}" class="stack small" text-anchor="middle">{text}</text>')
    wide = len(text) * 7 + 5
    return (f'<rect class="stack-badge" x="{x - wide:.1f}" y="{y - 15:.1f}" width="{wide}" height="15" rx="7"/>'
            f'<text x="{x - wide / 2:.1f}" y="{y - 3.5:.1f}" class="stack" text-anchor="middle">{text}</text>')


def _beneath_title(state: State, cell: tuple[int, int]) -> str:
    """The pieces beneath the top one at ``cell``, from the top down, for its title, a run of one name counted:
    ``", above C, A ×2"`` (or ``""``).

    >>> from types import SimpleNamespace as S
    >>> _beneath_title(S(stacks={(0, 0): (2, 0, 0)}, game=S(piece_names=["A", "B", "C"])), (0, 0))
    ', above C, A ×2'
    """
    runs: list[list[Any]] = []
    for cid in state.stacks.get(cell, ()):
        name = state.game.piece_names[cid]
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    return ", above " + ", ".join(name + (f" ×{n}" if n > 1 else "") for name, n in runs) if runs else ""


def board_svg(state: State, seen: dict[str, Any] | None = None, viewer: int | None = None) -> str:
    """The board of ``state`` as an ``<svg>`` drawing, as seat ``viewer`` sees it (None: every piece shown; 0: what
    every seat sees); without a board, nothing (the zones' sections are the table, see :func:`cli.web.view.table_html`).
    ``seen``: the zones as the seat sees them (None: every component), from which a board of points draws what lies
    on its links (:mod:`cli.web.edges`)."""
    grid = state.game.grid
    if grid is None:
        return ""
    if isinstance(grid, HexGrid):
        return _hex_svg(state, grid, viewer)
    if isinstance(grid, PointsBoard):
        every = {name: [state.game.piece_names[c] for c in zone] for name, zone in zip(state.game.zone_names, state.zones)}
        return _points_svg(state, grid, viewer, seen if seen is not None else every)
    return _square_svg(state, viewer)


def _labels(game: Game) -> dict[str, str]:
    values = {value_label(game, c, f) for c in range(len(game.face_count)) for f in range(game.face_count[c])}
    return abbreviations(values, least=2)


def _square_cells(state: State) -> set[tuple[int, int]]:
    grid = state.game.grid
    assert grid is not None and not isinstance(grid, (HexGrid, PointsBoard))
    if grid.fixed and grid.cells:
        return set(grid.cells)
    cells = set(state.grid)
    if not state.is_terminal:  # the cells a piece may go to next: none once the game is over
        cells |= {c for c in state.frontier if grid.fits(state.bbox, c)}
    return cells or {(0, 0)}


THIN = 14
"""Width of a thin column or row (``thin: odd``: the lines between squares), in SVG units."""


def _spans(coords: list[int | None], thin: str) -> list[tuple[float, float]]:
    """Where each drawn column (or row) starts and how wide it is: ``CELL``, or ``THIN`` for a number of the
    ``thin`` kind (``"odd"``, ``"even"``, ``""`` for none).

    >>> _spans([0, 1, 2], "odd")
    [(24, 46), (70, 14), (84, 46)]
    """
    spans: list[tuple[float, float]] = []
    at: float = MARGIN
    for c in coords:
        size = THIN if c is not None and thin and c % 2 == (thin == "odd") else CELL
        spans.append((at, size))
        at += size
    return spans


def _section_lines(xs: list[int | None], ys: list[int | None], cols: list[tuple[float, float]],
                   rows: list[tuple[float, float]], every: int) -> list[str]:
    """The heavier lines of ``lines_every``: before each column (row) whose number is a multiple of ``every`` and
    follows the one before it, across the drawn board."""
    if every <= 0:
        return []
    lines = []
    top, bottom = rows[0][0], rows[-1][0] + rows[-1][1]
    left, right = cols[0][0], cols[-1][0] + cols[-1][1]
    for i in range(1, len(xs)):
        x = xs[i]
        if x is not None and xs[i - 1] is not None and x % every == 0:
            lines.append(f'<line class="section" x1="{cols[i][0]}" y1="{top}" x2="{cols[i][0]}" y2="{bottom}"/>')
    for j in range(1, len(ys)):
        y, before = ys[j], ys[j - 1]
        if y is not None and before is not None and max(y, before) % every == 0:
            lines.append(f'<line class="section" x1="{left}" y1="{rows[j][0]}" x2="{right}" y2="{rows[j][0]}"/>')
    return lines


def wall_lines(xs: list[int | None], ys: list[int | None], cols: list[tuple[float, float]],
               rows: list[tuple[float, float]], walls: frozenset[tuple[tuple[int, int], tuple[int, int]]],
               named: Callable[[tuple[int, int]], str] = format_cell) -> list[str]:
    """The walls standing between cells (a board with ``walls:``), each a thick line along the side two cells share
    (across the corner where two cells touch only there).

    >>> wall_lines([0, 1], [0], [(24, 46), (70, 46)], [(24, 46)], frozenset({((0, 0), (1, 0))}))
    ['<line class="wall" x1="70" y1="24" x2="70" y2="70"><title>a wall between 0,0 and 1,0</title></line>']
    """
    column = {x: span for x, span in zip(xs, cols) if x is not None}
    row = {y: span for y, span in zip(ys, rows) if y is not None}
    lines = []
    for a, b in sorted(walls):
        if a[0] not in column or b[0] not in column or a[1] not in row or b[1] not in row:
            continue
        (ax, aw), (bx, _), (ay, ah), (by, _) = column[a[0]], column[b[0]], row[a[1]], row[b[1]]
        if a[1] == b[1]:  # side by side: the line between their columns
            x = max(ax, bx)
            x1, y1, x2, y2 = x, ay, x, ay + ah
        elif a[0] == b[0]:  # one above the other: the line between their rows
            y = max(ay, by)
            x1, y1, x2, y2 = ax, y, ax + aw, y
        else:  # corner to corner: a short stroke across the corner they share, as drawn
            x, y, tilt = max(ax, bx), max(ay, by), ah / 4 if (ax < bx) == (ay < by) else -ah / 4
            x1, y1, x2, y2 = x - aw / 4, y + tilt, x + aw / 4, y - tilt
        lines.append(f'<line class="wall" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}">'
                     f'<title>a wall between {escape(named(a))} and {escape(named(b))}</title></line>')
    return lines


def _square_svg(state: State, viewer: int | None) -> str:
    game = state.game
    grid = game.grid
    assert grid is not None and not isinstance(grid, (HexGrid, PointsBoard))
    cells = _square_cells(state)
    xs, ys = drawn_span(x for x, _ in cells), drawn_span(y for _, y in cells)  # a long empty run: one gap
    if grid.y_up:
        ys = ys[::-1]
    cols, rows = _spans(xs, grid.thin), _spans(ys, grid.thin)
    width, height = cols[-1][0] + cols[-1][1] + 4, rows[-1][0] + rows[-1][1] + 4
    colours, short = value_colours(game), _labels(game)
    pending = {tuple(cell) for pair in state.to_json()["scratch"].get("pending") or () for cell in pair}  # pairs still to resolve
    counted = piece_counts(state, viewer)
    tiles = tile_sides(game, side_count(grid))
    names = game.cell_names  # the edges: column and row numbers, or the names' letters and numbers
    marks = board_marks(state)  # a counter keyed by the cells: its value in each empty cell
    marked = marks.values if marks is not None else {}
    parts = [_open(width, height, "square")]
    for (left, size), x in zip(cols, xs):
        if size == CELL:  # a thin column's number would crowd its neighbours' (its cells' titles say it)
            parts.append(_text(left + CELL / 2, MARGIN - 8, "…" if x is None else names.column(x), "coord"))
    for (top, size), y in zip(rows, ys):
        if size == CELL:
            parts.append(_text(MARGIN - 10, top + CELL / 2 + 4, "⋮" if y is None else names.row(y), "coord"))
    for (top, tall), y in zip(rows, ys):
        for (left, wide), x in zip(cols, xs):
            if x is None or y is None or (x, y) not in cells:
                continue
            key = f"{x},{y}"
            named = game.cell_text((x, y))  # its title: x,y or its name (e2)
            mark = marked.get((x, y))
            parts.append(f'<g class="cell" data-cell="{key}"><title>{named}{_mark_title(marks, mark)}</title>'
                         f'<rect class="square" x="{left}" y="{top}" width="{wide}" height="{tall}"/>')
            cid = state.grid.get((x, y))
            if cid is None and mark:
                parts.append(_text(left + wide / 2, top + tall / 2 + 5, str(mark), "mark"))
            if cid is not None and (wide, tall) != (CELL, CELL):
                parts.append(_bar(state, cid, (x, y), named, (left, top, wide, tall), colours, short, viewer))
            elif cid is not None:
                fill, label, title, face = piece_look(game, state, cid, colours, short, viewer)
                ring = (' stroke="#000" stroke-width="3"' if (x, y) in pending
                        else ' stroke="#333" stroke-width="2" stroke-dasharray="4 3"' if own_face_down(state, cid, viewer) else "")
                lift = 4 if face else 0  # room for the face's name beneath the label
                counts = counted.get(cid, [])
                groups = stack_groups(state, (x, y), colours, short, viewer)
                head = (f'<g class="piece{_dim(state, cid, viewer)}"><title>{escape(_counted_title(title, counts))} at {named}'
                        f'{escape(_beneath_title(state, (x, y)) + _sides_title(state, cid, viewer, tiles))}</title>')
                tile = _tile(state, cid, viewer, tiles, colours, look=(fill, label, title, face), ring=ring,
                             corners=square_corners(left + 4, top + 4, CELL - 8))
                if len(groups) > 1:  # pieces of several kinds: a disc for each, with its count
                    parts.append(head + _stack_discs(left + CELL / 2, top + CELL / 2, CELL - 4, groups, ring) + "</g>")
                else:
                    drawn = tile if tile is not None else (
                        f'<rect x="{left + 4}" y="{top + 4}" width="{CELL - 8}" height="{CELL - 8}" rx="6" fill="{fill}"{ring}/>'
                        + _label(left + CELL / 2, top + CELL / 2 + 5 - lift, label, text_colour(fill), CELL - 12)
                        + (_text(left + CELL / 2, top + CELL - 9, face, "face", text_colour(fill)) if face else ""))
                    parts.append(head + drawn + _count_text(left + CELL - 7, top + 15, counts, text_colour(fill))
                                 + _stack_badge(left + CELL - 1, top + CELL - 1, state, (x, y)) + "</g>")
            parts.append("</g>")
    parts.extend(_section_lines(xs, ys, cols, rows, grid.lines_every))
    parts.extend(wall_lines(xs, ys, cols, rows, grid.walls, game.cell_text))
    parts.append("</svg>")
    return "".join(parts)


def _tile(state: State, cid: int, viewer: int | None, tiles: dict[str, Sides], colours: dict[str, str], *,
          look: tuple[str, str, str, str], ring: str, corners: list[tuple[float, float]]) -> str | None:
    """A piece whose kind has sides (:func:`cli.web.sides.tile_sides`) drawn as its sides, each in the colour of the
    value it shows, turned as the piece lies, inside ``corners``; its label on a small disc at the middle only when
    it shows a value of its own (a tile known by its sides alone has its name in its title); the face up is not
    written, its turn being drawn.  None for any other piece, and for a face-down piece ``viewer`` does not see.

    Example: a tile printed ``a, a, b, c`` (north, east, south, west) turned once is four triangles: ``c`` on top,
    then ``a``, ``a``, ``b`` clockwise.
    """
    values = None if hidden_from(state, cid, viewer) else side_values(state, cid, tiles)
    if values is None:
        return None
    fill, label, _, _ = look
    cx, cy = sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners)
    outline = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
    valued = value_label(state.game, cid, state.face[cid]) != state.game.piece_names[cid]
    middle = (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="10" fill="{fill}" stroke="#fff"/>'
              + _label(cx, cy + 4, label, text_colour(fill), 18, 11)) if valued else ""
    ring = ring or ' stroke="#555"'
    return (sides_svg(corners, (cx, cy), values, colours, NEUTRAL)
            + f'<polygon class="tile-outline" points="{outline}" fill="none"{ring}/>' + middle)


def _sides_title(state: State, cid: int, viewer: int | None, tiles: dict[str, Sides]) -> str:
    """What a tile's sides show, for its title, from the first side clockwise: ``"; sides a, b, a, c (clockwise from
    the top)"``, a hex's from the upper right (``""`` for a piece without sides, or face down to ``viewer``)."""
    values = None if hidden_from(state, cid, viewer) else side_values(state, cid, tiles)
    start = "the top" if len(values or ()) == 4 else "the upper right"  # a square's side 0, a pointy-top hex's
    return f"; sides {', '.join(values)} (clockwise from {start})" if values else ""


def _dim(state: State, cid: int, viewer: int | None) -> str:
    """``" dim"`` (a class) for a piece whose value's terminal ``style`` is ``dim``, drawn faint on the page as in the
    terminal (a marker beside the pieces that move), else ``""``; a face-down piece ``viewer`` does not see is its back."""
    if hidden_from(state, cid, viewer):
        return ""
    value = value_label(state.game, cid, state.face[cid])
    return " dim" if "dim" in value_styles(state.game).get(value, "").split() else ""


def _bar(state: State, cid: int, cell: tuple[int, int], key: str, box: tuple[float, float, float, float],
         colours: dict[str, str], short: dict[str, str], viewer: int | None) -> str:
    """A piece in a thin column or row (``thin: odd``) drawn as what fills it: a bar along the line between two
    squares, a small square where a thin column meets a thin row.  Too thin for its label, it is named by its title.

    Example: ``_bar(state, 3, (1, 0), "1,0", (70, 24, 14, 46), colours, short, None)`` is one ``<g>``.
    """
    left, top, wide, tall = box
    fill, _, title, _ = piece_look(state.game, state, cid, colours, short, viewer)
    return (f'<g class="piece bar"><title>{escape(title)} at {key}{escape(_beneath_title(state, cell))}</title>'
            f'<rect x="{left}" y="{top}" width="{wide}" height="{tall}" fill="{fill}"/></g>')


def hex_centre(q: int, r: int, left: float, top: int) -> tuple[float, float]:
    """The centre of hex ``q,r`` (pointy-top, axial), in SVG units, on a board whose leftmost hex has ``q + r/2``
    at ``left`` and whose top row is ``top``.

    >>> hex_centre(0, 0, 0, 0), hex_centre(0, 0, -1, 0)[0] > hex_centre(0, 0, 0, 0)[0]
    ((27.0, 27.0), True)
    """
    size = CELL / 2
    x = size * math.sqrt(3) * (q + r / 2 - left) + size + 4
    y = size * 1.5 * (r - top) + size + 4
    return x, y


def _hex_svg(state: State, grid: HexGrid, viewer: int | None) -> str:
    game = state.game
    left, right = min(q + r / 2 for q, r in grid.cells), max(q + r / 2 for q, r in grid.cells)
    top, bottom = min(r for _, r in grid.cells), max(r for _, r in grid.cells)
    size = CELL / 2
    width = size * math.sqrt(3) * (right - left + 1) + 2 * size
    height = size * 1.5 * (bottom - top) + 2 * size + 8
    colours, short = value_colours(game), _labels(game)
    counted = piece_counts(state, viewer)
    tiles = tile_sides(game, side_count(grid))
    marks = board_marks(state)  # a counter keyed by the hexes: its value in each empty one
    marked = marks.values if marks is not None else {}
    parts = [_open(width, height, "hex")]
    for _, row in grid.rows():
        for q, r in row:
            cx, cy = hex_centre(q, r, left, top)
            key = f"{q},{r}"
            corners = " ".join(
                f"{cx + size * math.cos(math.radians(60 * k - 30)):.1f},{cy + size * math.sin(math.radians(60 * k - 30)):.1f}"
                for k in range(6)
            )
            mark = marked.get((q, r))
            parts.append(f'<g class="cell" data-cell="{key}"><title>{key}{_mark_title(marks, mark)}</title>'
                         f'<polygon class="hexagon" points="{corners}"/>')
            cid = state.grid.get((q, r))
            if cid is None and mark:
                parts.append(_text(cx, cy + 5, str(mark), "mark"))
            elif cid is None:
                parts.append(_text(cx, cy + 4, key, "coord"))
            else:
                look = piece_look(game, state, cid, colours, short, viewer)
                anchor = state.members.get((q, r))
                ring = ' stroke="#333" stroke-width="2" stroke-dasharray="4 3"' if own_face_down(state, cid, viewer) else ""
                if anchor is not None:
                    marker = state.groups.get(anchor, -1)
                    colour = colours.get(value_label(game, marker, state.face[marker]), "#000") if marker >= 0 else "#000"
                    ring = f' stroke="{colour}" stroke-width="{5 if anchor == (q, r) else 3}"'
                tile = _tile(state, cid, viewer, tiles, colours, look=look, ring=ring, corners=hex_corners(cx, cy, size - 3))
                parts.append(_disc(state, (q, r), key + escape(_sides_title(state, cid, viewer, tiles)), cx, cy, size, look,
                                   ring, counted.get(cid, []), _dim(state, cid, viewer),
                                   stack_groups(state, (q, r), colours, short, viewer), tile=tile))
            parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _disc(state: State, cell: tuple[int, int], where: str, cx: float, cy: float, size: float,
          look: tuple[str, str, str, str], ring: str, counts: list[Any], dim: str,
          groups: list[tuple[tuple[str, str, str], int]], spread: float = 1.0, tile: str | None = None) -> str:
    """A piece drawn as a disc at ``(cx, cy)`` (a hex's or a point's): titled with what it is ``at where`` and what
    lies beneath, its label and face, its counters and, on a stack of one kind, how many lie there; a cell holding
    pieces of several kinds (``groups``, :func:`stack_groups`) is a small disc for each kind with its count instead,
    in a square ``spread`` times as wide as a lone piece's disc (a spread map of points has room for larger ones).
    A tile drawn by its sides (:func:`_tile`) is ``tile``, drawn in the disc's place.
    ``look`` is :func:`piece_look`'s fill, label, title and face, ``where`` the place's text, already escaped;
    ``dim``, :func:`_dim`'s class.

    Example: ``_disc(state, (0, 0), "0,0", 30.0, 30.0, 20.0, ("#fff", "X", "X", ""), "", [], "", [])`` is one ``<g>``.
    """
    fill, label, title, face = look
    head = (f'<g class="piece{dim}"><title>{escape(_counted_title(title, counts))} at {where}'
            f'{escape(_beneath_title(state, cell))}</title>')
    if len(groups) > 1:
        return head + _stack_discs(cx, cy, size * 1.5 * spread, groups, ring) + "</g>"
    # A stack's count and the counters stay inside the hex: beyond it the next hex, drawn after, covered them (a
    # stack's ×3 cut in half, a counter on the line between two hexes, read as the neighbour's).
    badge = _stack_badge(cx, cy + 5 + 3 * bool(face), state, cell, inside=True)
    up = 4 * bool(badge)  # the label (and face) lifted above the badge
    drawn = tile if tile is not None else (
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.72:.1f}" fill="{fill}"{ring}/>'
        + _label(cx, cy + 5 - 4 * bool(face) - up, label, text_colour(fill), size * 1.44 - 6)
        + (_text(cx, cy + 11 - up, face, "face", text_colour(fill)) if face else ""))
    return head + drawn + _count_text(cx + size * 0.84, cy - size * 0.4, counts, "#333", ringed=True) + badge + "</g>"


def _points_svg(state: State, board: PointsBoard, viewer: int | None, seen: dict[str, Any]) -> str:
    """A board of points: each link a line, with the components lying on it that the seat sees in ``seen`` (its
    zones; see :mod:`cli.web.edges`), each point a circle where it lies (a piece on it as a disc), titled with
    its name and position; y grows down (up with ``y_axis: up``)."""
    game = state.game
    xs, ys = [x for x, _ in board.cells], [y for _, y in board.cells]
    size = CELL / 2
    top, left = max(ys) if board.y_up else min(ys), min(xs)
    near = _row_neighbours(board)
    unit = _point_unit(board, near)
    spread = min(unit / CELL, 1.5) if board.stacking else 1.0  # a stack's discs take the room a spread map leaves

    before, after = _name_overhang(board, unit)  # room at the sides for the names of the points nearest them

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        return before + MARGIN / 2 + size + (cell[0] - left) * unit, MARGIN / 2 + size + abs(cell[1] - top) * unit

    width = before + MARGIN + CELL + (max(xs) - min(xs)) * unit + after
    height = MARGIN + CELL + (max(ys) - min(ys)) * unit
    height += max(0.0, _reach(size, spread) - size * 0.72) if board.stacking else 0  # names beneath larger stacks
    colours, short = value_colours(game), _labels(game)
    counted = piece_counts(state, viewer)
    parts = [_open(width, height, "points")]
    parts.extend(link_lines(board, centre, colours))  # each kind of link in its colour, where links have kinds
    owners = role_colours(game, state.seat_of)
    kinds = link_kinds(game)
    if kinds:  # what lies on a link (a route claimed, a road built), along it
        parts.extend(links_svg(game, seen, centre, colours, kinds, owners))
    held = held_points(game, seen, owners)  # the points a seat holds (a land), each marked in its colour
    marks = board_marks(state)  # a counter keyed by the points: its value on each empty one
    marked = marks.values if marks is not None else {}
    for cell in board.cells:
        cx, cy = centre(cell)
        key = format_cell(cell)
        name = board.name_of(cell)
        title = (f"{name} ({key})" if name != key else key) + _mark_title(marks, marked.get(cell))
        # the hit: a clear disc, a piece's size, that takes the clicks around the small point (a link there did)
        parts.append(f'<g class="cell" data-cell="{key}"><title>{escape(title)}</title>'
                     f'<circle class="hit" cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.72:.1f}"/>'
                     f'<circle class="point" cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.3:.1f}"/>')
        cid = state.grid.get(cell)
        if cid is None and cell not in held and marked.get(cell):
            parts.append(_text(cx, cy + 5, str(marked[cell]), "mark"))
        reach = size * 0.72  # how far from the point its piece (or its stack's discs) reaches
        if cell in held and cid is None:  # a point held, and no piece on it: a disc in its holder's colour
            land, zone = held[cell]
            parts.append(held_disc(game, land, zone, (cx, cy), size * 0.5, owners, counted.get(land, [])))
        if cid is not None:
            look = piece_look(game, state, cid, colours, short, viewer)
            ring = ' stroke="#333" stroke-width="2" stroke-dasharray="4 3"' if own_face_down(state, cid, viewer) else ""
            groups = stack_groups(state, cell, colours, short, viewer)
            parts.append(_disc(state, cell, escape(title), cx, cy, size, look, ring, counted.get(cid, []),
                               _dim(state, cid, viewer), groups, spread))
            reach = _reach(size, spread) if len(groups) > 1 else reach
            # the last move's outline: around the piece, which covers the small point it would outline
            parts.append(f'<circle class="ring" cx="{cx:.1f}" cy="{cy:.1f}" r="{reach + 3:.1f}"/>')
        if name != key:  # a named point (a map's land) says its name beneath it, clear of a piece's disc
            across = min(_name_room(near[cell], unit), 2 * min(cx, width - cx) - 4)  # and inside the board
            most = max(POINT_CHARS, int(across / (CHAR_WIDTH * 8)))  # as many letters as fit, down to 8 pixels
            parts.append(_label(cx, cy + reach + 10, _cut(name, most), None, across, POINT_NAME_PX, "point-name"))
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


POINT_NAME_PX, WIDEST_SPREAD = 10, 3
"""The size of a point's name, in pixels (as the style sheet says), and the most a map of named points is spread out
for its names (three times its usual size)."""


def _reach(size: float, spread: float) -> float:
    """How far from its point a stack's discs reach (:func:`_stack_discs` in a square of ``1.5 * size * spread``,
    four discs at most in two rows before they shrink), in SVG units.

    >>> round(_reach(23, 1.0), 1)
    20.1
    """
    side = size * 1.5 * spread
    return side / 4 * math.sqrt(2) + side * 0.23


def _name_width(board: PointsBoard, cell: tuple[int, int]) -> float:
    """How wide the point's name is written at its size, in SVG units (0 for a point without a name, which writes
    none)."""
    name = board.name_of(cell)
    return 0.0 if name == format_cell(cell) else len(name) * CHAR_WIDTH * POINT_NAME_PX


def _row_neighbours(board: PointsBoard) -> dict[tuple[int, int], list[tuple[int, float]]]:
    """For each point, the nearest point of its row on either side: how far (in the board's coordinates) and how
    wide its name is; a point alone in its row has none.

    >>> b = PointsBoard(points=(("abc", (0, 0)), ("", (2, 0)), ("d", (0, 1))), links=())
    >>> _row_neighbours(b)[(0, 0)], _row_neighbours(b)[(2, 0)][0][0], _row_neighbours(b)[(0, 1)]
    ([(2, 0.0)], 2, [])
    """
    rows: dict[int, list[int]] = {}
    for x, y in board.cells:
        rows.setdefault(y, []).append(x)
    near: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for y, xs in rows.items():
        xs.sort()
        for i, x in enumerate(xs):
            near[(x, y)] = [(abs(xs[j] - x), _name_width(board, (xs[j], y))) for j in (i - 1, i + 1) if 0 <= j < len(xs)]
    return near


def _name_room(near: list[tuple[int, float]], unit: float) -> float:
    """The width a point's name may take beneath it, in SVG units: up to the name of the nearest point of its row on
    either side (at least to that point less a gap), given :func:`_row_neighbours`' ``near``.

    >>> _name_room([(1, 0.0)], 46), _name_room([(1, 60.0)], 46), _name_room([], 46) > 1000
    (82.0, 36.0, True)
    """
    return min((max(gap * unit - 10.0, 2 * gap * unit - 10 - wide) for gap, wide in near), default=10.0**6)


def _name_overhang(board: PointsBoard, unit: float) -> tuple[float, float]:
    """How far the names of the points nearest the board's left and right sides reach past its usual margin, in SVG
    units, each side at most a step of ``unit``: room added there, where a long name was written small to stay
    inside (a name of eleven letters on a map's left side).

    Example: a map whose leftmost point's name has eleven letters needs about 9 units more on the left, one of ``A``
    none.
    """
    xs = [x for x, _ in board.cells]
    reach = {x: max((_name_width(board, cell) / 2 + 2 for cell in board.cells if cell[0] == x), default=0.0)
             for x in (min(xs), max(xs))}
    usual = MARGIN / 2 + CELL / 2
    return min(unit, max(0.0, reach[min(xs)] - usual)), min(unit, max(0.0, reach[max(xs)] - usual))


def _point_unit(board: PointsBoard, near: dict[tuple[int, int], list[tuple[int, float]]]) -> float:
    """The SVG units between two points one apart: a cell's width, or twice or three times as much where the names of
    two points of a row would run into each other (a small map of named areas, its points one apart), so that each
    name is written whole at its size; never more than :data:`WIDEST_SPREAD` times (longer names are made smaller).

    On a board that stacks, a named point's name also needs room between its stack's discs and those of the point
    beneath it in its column, so such a map one step apart down its columns is spread too.

    Example: a map with points of ten-letter names at ``[0, 0]`` and ``[1, 0]`` is drawn at 92 units a step,
    where ``A`` and ``B`` there keep 46 (unless the board stacks and they lie in one column).
    """
    need = max((((_name_width(board, cell) + wide) / 2 + 10) / gap for cell, sides in near.items()
                for gap, wide in sides if _name_width(board, cell)), default=0.0)
    if board.stacking:  # a name between two stacks' discs, one above the other
        reach = _reach(CELL / 2, 1.0)
        columns: dict[int, list[int]] = {}
        for x, y in board.cells:
            columns.setdefault(x, []).append(y)
        for x, ys in columns.items():
            ys.sort()
            need = max([need, *((2 * reach + POINT_NAME_PX + 4) / (b - a) for a, b in zip(ys, ys[1:])
                                if _name_width(board, (x, a if not board.y_up else b)))])
    return CELL * min(WIDEST_SPREAD, max(1, math.ceil(need / CELL)))


LEAST_SCALE, LAPTOP, LEGIBLE = 0.75, 780.0, 0.6
"""The most a board is shrunk to fit a narrow window (a phone): beyond it, it scrolls sideways (see the style sheet);
but a board wider than a laptop's column beside the actions (``LAPTOP`` pixels, a window 1280 wide) shrinks to that
column, down to ``LEGIBLE`` of its size, where a piece's label still reads (8 pixels), so a long track fits a laptop."""


def least_width(width: float) -> float:
    """The narrowest a board ``width`` units wide is drawn, in pixels: three quarters of it, or less for a board
    wider than a laptop's column, down to the column (``LAPTOP``) but no smaller than ``LEGIBLE`` of it.

    >>> least_width(400), least_width(1132), least_width(3000)
    (300.0, 780.0, 1800.0)
    """
    return max(width * LEGIBLE, min(width * LEAST_SCALE, LAPTOP))


def _open(width: float, height: float, kind: str) -> str:
    least = f' style="min-width: {least_width(width):.0f}px"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board {kind}" role="img" aria-label="the board" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}"{least}>')


def _text(x: float, y: float, text: str, cls: str, fill: str | None = None) -> str:
    colour = f' fill="{fill}"' if fill else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}"{colour} text-anchor="middle">{escape(text)}</text>'


LABEL_PX, CHAR_WIDTH = 13, 0.62
"""A piece's label's size in pixels (as the style sheet says), and a bold character's width, about, in font sizes."""


def _label(x: float, y: float, text: str, fill: str | None, room: float, px: int = LABEL_PX, cls: str = "label") -> str:
    """Bold text centred at ``(x, y)`` (a piece's label, or ``cls``): at its usual size ``px`` when it fits in ``room``
    units across, else written smaller (down to 8 pixels) and held to ``room``, so that it stays on its piece.

    >>> "font-size" in _label(0, 0, "ab", "#000", 34), "textLength" in _label(0, 0, "sixsix", "#000", 34)
    (False, True)
    """
    wide = len(text) * CHAR_WIDTH * px
    if wide <= room:
        return _text(x, y, text, cls, fill)
    colour = f' fill="{fill}"' if fill else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}"{colour} text-anchor="middle" '
            f'style="font-size: {max(8.0, px * room / wide):.1f}px" textLength="{room:.0f}" '
            f'lengthAdjust="spacingAndGlyphs">{escape(text)}</text>')


def board_values(state: State, viewer: int | None) -> set[str]:
    """The values the board shows ``viewer`` (None: every piece seen), for the legend: every piece's in a stack, not
    only the top one's, and the values a tile's sides show (:mod:`cli.web.sides`); none of a face-down piece it does
    not see."""
    game = state.game
    tiles = tile_sides(game, side_count(game.grid))
    values: set[str] = set()
    for cell in state.grid:
        for cid in state.stack(cell):
            if not hidden_from(state, cid, viewer):
                values.add(value_label(game, cid, state.face[cid]))
                values.update(side_values(state, cid, tiles) or ())
    return values


def legend(game: Game, values: Iterable[str] | None = None) -> list[tuple[str, str, str]]:
    """``(type, value, colour)`` for the values of every declared type (or only ``values``), in the type's order."""
    colours = value_colours(game)
    wanted = None if values is None else set(values)
    return [(type_name, value, colours[value]) for type_name, members in game.types.items()
            for value in members if wanted is None or value in wanted]
