"""Drawing states for the terminal with rich: the board, the zones a seat sees, the outcome (a simulation's
report is drawn by :mod:`cli.report_tables`).

Square boards are a table, x across and y down: each cell shows the short
label of the face up (coloured by the label's place in its type, never by its
name) and, dimmed, the other faces; cells in a pending decision are
underlined.  Hex boards (``board: {kind: hex}``) are drawn as hexes, each row
shifted by half a hex from the one above (a hexagon back and forth, a rhombus
always right): a piece shows the short label of its value (the first
attribute of a declared type, else its name; its ``display`` short text when
it has one, and the legend says which value it stands for) in that value's colour, ``[..]``
when it is in a pattern group and ``{..}`` at the group's anchor (both
bracketed in the colour of the group's marker), empty hexes next to a piece
show their coordinates, and a line per group names its marker and counts its
pieces.  A square board with edges is drawn whole.  A board of points
(``board: {kind: points}``) is drawn as its points where they lie, each
showing its piece as a square board's cell does, with its links between
(laid out by cli.points_drawing).

A ruleset's ``display:`` gives values their own style and short text: a
piece without faces of its own then reads as the short texts of its values
(``R3``), and a stack as its top piece and, dimmed, how many lie beneath
(``R3+2``).

>>> abbreviations(["North", "Nest", "South"])
{'Nest': 'Ne', 'North': 'No', 'South': 'So'}
>>> abbreviations(["North", "South"], least=2)
{'North': 'No', 'South': 'So'}
>>> winners_text(Outcome.from_scores((2, 1, 2)))
'seats 1 and 3 share the win'
>>> counted(["A", "B", "A"])
['A x2', 'B']

Typical use::

    console = make_console()
    console.print(board(state))
    for line in zones(state, seat=1):
        console.print(line)
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.errors import StyleSyntaxError
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text

from cli.console import make_console  # noqa: F401  (commands call it as render.make_console)
from cli.menu import menu
from cli.points_drawing import layout
from cli.web.sides import MOST_PICTURED, Sides, laid_sides, side_values, tile_sides
from engine.blocks.catalogue import drawings
from engine.blocks.grid import SquareGrid, format_cell
from engine.blocks.hexgrid import HexGrid
from engine.blocks.outcome import Outcome
from engine.blocks.pointsboard import PointsBoard
from engine.core.facedown import NOBODY, face_down, hidden_from
from engine.core.information import SEEN, zone_view
from engine.core.showtext import abbreviations, and_list

if TYPE_CHECKING:
    from engine import Game, State
    from engine.blocks.block import Drawing, Line

GAP = 3
"""The most empty columns (or rows) a drawing of a growing board keeps between two that hold something: a longer
run is drawn as one column marked ``…``, so pieces a billion cells apart draw as a few columns, not a billion."""


def drawn_span(values: Iterable[int]) -> list[int | None]:
    """The columns (or rows) drawn for cells at ``values``, in order: a run of at most :data:`GAP` missing between two
    is drawn whole, a longer one as a single None (a gap).

    >>> drawn_span([5, 0, 1, 1_000_000_000])
    [0, 1, 2, 3, 4, 5, None, 1000000000]
    """
    drawn: list[int | None] = []
    for value in sorted(set(values)):
        last = drawn[-1] if drawn else None
        if last is not None:
            drawn.extend(range(last + 1, value) if value - last - 1 <= GAP else [None])
        drawn.append(value)
    return drawn


PALETTE = tuple(f"color({n})" for n in (1, 2, 4, 3, 5, 6, 9, 10, 12, 11, 13, 14))
"""Terminal colours (the 16-colour ANSI numbers) for the values of a type, by index."""


H = TypeVar("H", bound=Hashable)
"""An item counted by :func:`tallied`."""


def value_styles(game: Game) -> dict[str, str]:
    """A colour for every value of every declared type: its ``display`` style, else one by its index in its type."""
    styles: dict[str, str] = {}
    for values in game.types.values():
        for i, value in enumerate(values):
            styles.setdefault(value, _style(game.display.get(value, {}).get("style")) or PALETTE[i % len(PALETTE)])
    for name, hint in game.display.items():  # a component named in display: its own style, if it gives one
        styles.setdefault(name, _style(hint.get("style")) or "")
    return styles


def _style(text: str | None) -> str | None:
    """A ``display`` style if the terminal understands it (None otherwise)."""
    if not text:
        return None
    try:
        Style.parse(text)
    except StyleSyntaxError:
        return None
    return text


def board(state: State, seat: int | None = None) -> RenderableType:
    """The board as ``seat`` sees it (None: every piece shown): hexes in offset rows for a hex board, points where they
    lie for a board of points, else a table with x across and y down."""
    if isinstance(state.game.grid, HexGrid):
        return hex_board(state, seat)
    if isinstance(state.game.grid, PointsBoard):
        return points_board(state, seat)
    return square_board(state, seat)


def back(state: State, cid: int, styles: dict[str, str]) -> Text:
    """A face-down piece the viewer does not see: ``?``, after the short text of the role that sees it (``R?``)."""
    down = face_down(state)
    role = down.seen_by(cid) if down is not None else None
    if not isinstance(role, str) or role not in state.game.display:
        return Text("?", style="bold")
    return Text(display_text(state.game, role) + "?", style=f"bold {styles.get(role, '')}")


def own_face_down(state: State, cid: int, seat: int | None) -> bool:
    """Whether ``cid`` lies face down but was turned down for ``seat``'s role: it sees the piece, the others its back."""
    return seat is not None and not hidden_from(state, cid, seat) and hidden_from(state, cid, NOBODY)


def square_board(state: State, seat: int | None = None) -> RenderableType:
    """The cells as a table with x across and y down: a board with edges whole, else the pieces and their empty neighbours.
    A face-down piece ``seat`` does not see shows as ``?`` (None: every piece shown), one it sees with a ``*``.

    Below it, a legend: how a cell reads and what each short text stands for.
    """
    game = state.game
    grid = game.grid
    if grid is not None and grid.fixed and grid.cells:
        cells = set(grid.cells)
    elif not state.grid:
        return Text("(the board is empty)", style="dim")
    else:
        cells = set(state.grid) | {c for c in state.frontier if grid is None or grid.fits(state.bbox, c)}
    xs, ys = drawn_span(x for x, _ in cells), drawn_span(y for _, y in cells)
    if grid is not None and grid.y_up:
        ys = ys[::-1]
    short = abbreviations(label for cid in range(len(game.face_labels)) for label in board_labels(game, cid))
    styles = value_styles(game)
    tiles = tile_sides(game, 4)
    letters = side_letters(game, tiles)
    pending = {tuple(cell) for pair in state.to_json()["scratch"].get("pending") or () for cell in pair}  # pairs still to resolve
    drawn: dict[tuple[int, int], Text] = {}
    kind = grid.thin if grid is not None else ""

    def thin(c: int) -> bool:
        """Whether column or row ``c`` is drawn thin (``thin: odd``): empty, blank; a piece, a bar along it."""
        return bool(kind) and c % 2 == (kind == "odd")

    every = grid.lines_every if grid is not None else 0
    names = game.cell_names  # the edges' labels: x and y, or the names' columns and rows (a b c, 1 2 3)

    def section(c: int | None, before: int | None) -> bool:
        """Whether a heavier line (``lines_every``) goes between ``before`` and ``c``, two columns or rows drawn side by side."""
        return every > 0 and c is not None and before is not None and max(c, before) % every == 0

    for y in ys:
        if y is None:  # rows no piece lies on, left out
            continue
        for x in xs:
            if x is None:  # columns no piece lies on, left out
                continue
            cid = state.grid.get((x, y))
            narrow = thin(x), thin(y)
            if cid is None:
                drawn[x, y] = Text("·" if (x, y) in cells and not any(narrow) else " ", style="dim")
                continue
            if narrow in ((True, False), (False, True)) and not hidden_from(state, cid, seat):  # a bar along its line
                value = value_label(game, cid, state.face[cid])
                drawn[x, y] = Text("┃" if narrow[0] else "━", style=f"bold {styles.get(value, '')}")
                continue
            sides = None if hidden_from(state, cid, seat) else side_values(state, cid, tiles)
            text = (back(state, cid, styles) if hidden_from(state, cid, seat)
                    else sides_text(sides, letters, styles, (x, y) in pending) if sides is not None
                    else cell_text(game, state, cid, short, styles, (x, y) in pending))
            if own_face_down(state, cid, seat):
                text.append("*", style="dim")
            beneath = len(state.stacks.get((x, y), ()))
            if beneath:
                text.append(f"+{beneath}", style="dim")
            drawn[x, y] = text

    def table(columns: Sequence[int | None]) -> Table:
        """The cells of ``columns``, x across and y down, under their x header (a run left out as ``…``, ``⋮``)."""
        made = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, padding=(0, 1))
        made.add_column("" if names.named else "y\\x", justify="right", style="dim")
        shown: list[int | None | str] = []  # the columns, with "│" where a heavier line goes (lines_every)
        for i, x in enumerate(columns):
            if i and section(x, columns[i - 1]):
                shown.append("│")
                made.add_column("", style="dim")
            shown.append(x)
            made.add_column("…" if x is None else "" if thin(x) else names.column(x), justify="center")
        for j, y in enumerate(ys):
            if j and section(y, ys[j - 1]):
                made.rows[-1].end_section = True
            if y is None:
                made.add_row("⋮", *([""] * len(shown)))
            else:
                made.add_row("" if thin(y) else names.row(y),
                              *(Text(x) if isinstance(x, str) else Text("") if x is None else drawn[x, y].copy() for x in shown))
        return made

    return Group(ColumnBands(table, xs), square_legend(state, short, styles, seat, tiles, letters))


def side_letters(game: Game, tiles: dict[str, Sides]) -> dict[str, str]:
    """The letters a tile's sides are drawn with at the terminal (see :func:`sides_text`): each value's ``display``
    short text, else its name cut to the fewest letters that tell the values apart, as many for each.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(attribute_types={"edges": "list of ground"}, types={"ground": ("Alpha", "Altus", "Beta")},
    ...                        display={})
    >>> side_letters(game, {"tile": Sides("edges", "turns")})
    {'Alpha': 'Alp', 'Altus': 'Alt', 'Beta': 'Bet'}
    """
    values = [v for spec in dict.fromkeys(tiles.values())
              for v in game.types.get(game.attribute_types[spec.values].removeprefix("list of "), ())]
    plain = [v for v in dict.fromkeys(values) if "short" not in game.display.get(v, {})]
    cut = abbreviations(plain)
    letters = abbreviations(plain, least=max((len(c) for c in cut.values()), default=1))
    letters.update((v, game.display[v]["short"]) for v in values if "short" in game.display.get(v, {}))
    return letters


def sides_text(sides: list[str], letters: dict[str, str], styles: dict[str, str], pending: bool = False) -> Text:
    """A tile with sides as the terminal draws it: the letters of the values its sides show as it lies, clockwise from
    the top, each in its value's colour — ``aabc`` an ``a`` at the top and the right, a ``b`` below, a ``c`` on the
    left; its name and the turn it was given told no edge (a cell read ``0/1/2/3``, whatever lay there).

    >>> sides_text(["a1", "a1", "b2", "c3"], {"a1": "a", "b2": "b", "c3": "c"}, {}).plain
    'aabc'
    """
    text = Text()
    for value in sides:
        text.append(letters.get(value, value), style=f"bold {styles.get(value, '')}" + (" underline" if pending else ""))
    return text


class ColumnBands:
    """A table of columns drawn whole when it fits the terminal, else in bands of whole columns one under another,
    each made by ``make`` with its own header (a one-row board of 24 points at 80 characters: two bands, where one
    table would squeeze every cell to ``…``).

    >>> def make(columns: range) -> Table:
    ...     made = Table(*(str(x) for x in columns))
    ...     made.add_row(*("word" for _ in columns))
    ...     return made
    >>> console = make_console(width=40)
    >>> with console.capture() as out:
    ...     console.print(ColumnBands(make, range(12)))
    >>> out.get().count("word"), "…" in out.get()
    (12, False)
    """

    def __init__(self, make: Callable[[Sequence[Any]], Table], columns: Sequence[Any]) -> None:
        self.make, self.columns = make, columns

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        columns, start, end = self.columns, 0, len(self.columns)
        unbounded = options.update(max_width=sys.maxsize)  # a measure within the terminal would be cut to its width

        def fits(stop: int) -> bool:
            return Measurement.get(console, unbounded, self.make(columns[start:stop])).maximum <= options.max_width

        while start < end:
            stop = start + 1  # a band holds one column at least, however narrow the terminal
            while stop < end and fits(stop + 1):
                stop += 1
            yield self.make(columns[start:stop])
            start = stop


def square_legend(state: State, short: dict[str, str], styles: dict[str, str], seat: int | None = None,
                  tiles: dict[str, Sides] | None = None, letters: dict[str, str] | None = None) -> Text:
    """``x across, y down; a cell shows the face up and, dimmed, the other faces: No North, So South``: the board's key.

    Only the short texts of what lies on the board are named, each in its colour (a piece drawn as its whole
    name, like ``P``, needs none): ``x across, y up; · an empty cell; No North, So South``.
    """
    game = state.game
    grid = game.grid
    way = "up" if grid is not None and grid.y_up else "down"
    names = game.cell_names
    parts = [f"columns {names.column(0)}, {names.column(1)} ... across, rows {names.row(0)}, {names.row(1)} ... {way}; "
             "· an empty cell" if names.named else f"x across, y {way}; · an empty cell"]
    shown: dict[str, str] = {}
    tiles, letters = tiles or {}, letters or {}
    with_sides = {cid for cid in state.grid.values() if game.component_kind[cid] in tiles and not hidden_from(state, cid, seat)}
    for cell, cid in sorted(state.grid.items()):
        if hidden_from(state, cid, seat):
            continue
        if cid in with_sides:
            for value in side_values(state, cid, tiles) or ():
                shown.setdefault(letters.get(value, value), value)
            continue
        text = piece_text(game, state, cid, styles)
        if text is not None:
            values = [value for attr, type_name in game.attribute_types.items()
                      if type_name in game.types and (value := game.attributes[attr][state.face[cid]][cid]) is not None]
            if "short" in game.display.get(game.piece_names[cid], {}) or not any(value in game.display for value in values):
                shown.setdefault(text.plain, game.piece_names[cid])  # drawn by its own name's display
                continue
            for value in values:
                shown.setdefault(display_text(game, value) if value in game.display else str(value), str(value))
        else:
            for value in held_values(game, cid):
                shown.setdefault(display_text(game, value), value)
            for label in board_labels(game, cid):
                shown.setdefault(short[label], label)
    if any(len(game.face_labels[cid]) > 1 for cid in state.grid.values() if cid not in with_sides):
        parts.append("a cell shows the face up and, dimmed, the other faces")
    if with_sides:
        parts.append("a tile shows its sides clockwise from the top")
    if state.stacks:
        parts.append("+N: pieces beneath")
    if any(hidden_from(state, cid, seat) for cid in state.grid.values()):
        parts.append("? a face-down piece")
    if any(own_face_down(state, cid, seat) for cid in state.grid.values()):
        parts.append("* face down to the others")
    legend = Text("; ".join(parts), style="dim")
    named = sorted((key, name) for key, name in shown.items() if key != name)  # a piece drawn as its name needs no key
    if named:
        legend.append(": " if parts[-1].endswith(("other faces", "from the top")) else "; ", style="dim")  # never "an empty cell: ..."
        for i, (key, name) in enumerate(named):
            legend.append((", " if i else "") + key, style=f"bold {styles.get(name, '')}")
            legend.append(f" {name}", style="dim")
    return legend


def cell_text(game: Game, state: State, cid: int, short: dict[str, str], styles: dict[str, str], pending: bool = False) -> Text:
    """How a cell shows its piece: the piece's own text, else its values' and face's short texts (underlined while
    ``pending``), the other faces dimmed."""
    shown = piece_text(game, state, cid, styles)
    if shown is not None:
        return shown
    labels = board_labels(game, cid)
    up = labels[state.face[cid]]
    text = Text()
    for value in held_values(game, cid):  # whose it is, whichever face is up
        text.append(display_text(game, value), style=f"bold {styles.get(value, '')}")
    text.append(short[up], style=f"bold {styles.get(up, '')}" + (" underline" if pending else ""))
    for other in dict.fromkeys(labels):
        if other != up:
            text.append("/" + short[other].lower(), style=f"dim {styles.get(other, '')}")
    return text


def points_board(state: State, seat: int | None = None) -> RenderableType:
    """The board of points as ``seat`` sees it (None: every piece shown): each point's piece where it lies, as a
    square board's cell shows it, ``·`` for an empty point; then the links drawn crooked and a key."""
    game = state.game
    board = game.grid
    assert isinstance(board, PointsBoard)
    lines, where, crooked = layout(board)
    short = abbreviations(label for cid in range(len(game.face_labels)) for label in board_labels(game, cid))
    styles = value_styles(game)
    shown: dict[int, dict[int, Text]] = {}
    for cell, (r, c) in where.items():
        cid = state.grid.get(cell)
        if cid is None:
            text = Text("·", style="dim")
        else:
            text = back(state, cid, styles) if hidden_from(state, cid, seat) else cell_text(game, state, cid, short, styles)
            if own_face_down(state, cid, seat):
                text.append("*", style="dim")
            beneath = len(state.stacks.get(cell, ()))
            if beneath:
                text.append(f"+{beneath}", style="dim")
        shown.setdefault(r, {})[c] = text
    drawn: list[RenderableType] = []
    for r, line in enumerate(lines):
        out, c = Text(), 0
        for col in sorted(shown.get(r, {})):
            text = shown[r][col]
            start = max(c, col - (len(text.plain) - 1) // 2)
            out.append(line[c:start], style="dim")
            out.append_text(text)
            c = start + len(text.plain)
        out.append(line[c:], style="dim")
        drawn.append(out)
    names = ", ".join(f"{name} {format_cell(cell)}" for name, cell in board.points if name)
    key = "· an empty point" + (f"; points: {names}" if names else "")
    if crooked:
        key += "; also linked: " + ", ".join(f"{board.name_of(a)}-{board.name_of(b)}" for a, b in crooked)
    drawn.append(Text(key, style="dim"))
    return Group(*drawn)


HEX_WIDTH = 6
"""Characters per hex across a row; rows are shifted by half of it."""


def hex_board(state: State, seat: int | None = None) -> RenderableType:
    """Every hex of a hex board in rows of ``r``, each shifted by half a hex, then a line per group; a face-down piece
    ``seat`` does not see shows as ``?`` (None: every piece shown), one it sees with a ``*``."""
    game = state.game
    grid = game.grid
    assert isinstance(grid, HexGrid)
    labels = hex_labels(game)
    styles = value_styles(game)
    key = "q,r: an empty hex next to a piece shows its coordinates; [..] a piece in a group, {..} the group's anchor"
    shown = sorted({value for cid in state.grid.values() if not hidden_from(state, cid, seat)
                    and labels[value := value_label(game, cid, state.face[cid])] != value})
    lines = [Text(key, style="dim")]
    for i, value in enumerate(shown):  # each short text on the board: the display's, or the name abbreviated (Fi)
        lines[0].append("; " if i == 0 else ", ", style="dim")
        lines[0].append(labels[value], style=f"bold {styles.get(value, '')}").append(f" {value}", style="dim")
    for indent, row in grid.rows():
        line = Text(" " * (indent * HEX_WIDTH // 2))
        for cell in row:
            cid = state.grid.get(cell)
            shown = back(state, cid, styles) if cid is not None and hidden_from(state, cid, seat) else None
            if shown is None and cid is not None and own_face_down(state, cid, seat):  # (no groups with face_down)
                value = value_label(game, cid, state.face[cid])
                shown = Text(labels[value], style=f"bold {styles.get(value, '')}").append("*", style="dim")
            line.append_text(_centred(shown) if shown is not None else _hex(state, cell, labels, styles))
        lines.append(line)
    lines += [_group_line(state, anchor, styles) for anchor in sorted(state.groups)]
    return Group(*lines)


def hex_labels(game: Game) -> dict[str, str]:
    """What a hex shows for each value a piece may show (see :func:`value_label`): its ``display`` short text, as a
    square board's cell shows it, else the value abbreviated to two letters at least.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(face_count=[1, 1], attribute_types={"side": "side"}, types={"side": ("North", "South")},
    ...                        attributes={"side": [["North", "South"]]}, display={"North": {"short": "N"}})
    >>> hex_labels(game)
    {'North': 'N', 'South': 'So'}
    """
    values = {value_label(game, c, f) for c in range(len(game.face_count)) for f in range(game.face_count[c])}
    labels = abbreviations(values, least=2)
    labels.update({value: hint["short"] for value, hint in game.display.items() if "short" in hint and value in values})
    return labels


def board_labels(game: Game, cid: int) -> tuple[str, ...]:
    """The labels a square board draws for a piece's faces: its faces' labels, or its name for a piece whose one
    face has no name of its own nor values (a kind without ``faces`` or attributes would read ``f face``).

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(face_labels=[("face",), ("up", "down")], face_names={"k": ("face",), "j": ("up", "down")},
    ...                        component_kind=["k", "j"], attribute_types={}, piece_names=["P", "Q"])
    >>> board_labels(game, 0), board_labels(game, 1)
    (('P',), ('up', 'down'))
    """
    labels = game.face_labels[cid]
    if len(labels) == 1 and labels[0] == game.face_names[game.component_kind[cid]][0]:
        return (value_label(game, cid, 0),)
    return labels


def value_label(game: Game, cid: int, face: int) -> str:
    """What a piece shows: its first attribute of a declared type on ``face`` (else its name)."""
    for name, type_name in game.attribute_types.items():
        if type_name in game.types:
            value = game.attributes[name][face][cid]
            if value is not None:
                return str(value)
    return game.piece_names[cid]


def _hex(state: State, cell: tuple[int, int], labels: dict[str, str], styles: dict[str, str]) -> Text:
    """One hex, :data:`HEX_WIDTH` characters wide: a piece, the coordinates of an empty neighbour, or a dot."""
    game = state.game
    cid = state.grid.get(cell)
    if cid is None:
        shown = f"{cell[0]},{cell[1]}" if cell in state.frontier else "·"
        return _centred(Text(shown, style="dim"))
    value = value_label(game, cid, state.face[cid])
    label = Text(labels[value], style=f"bold {styles.get(value, '')}")
    anchor = state.members.get(cell)
    if anchor is None:
        return _centred(label)
    marker = state.groups.get(anchor, -1)
    colour = styles.get(value_label(game, marker, state.face[marker]), "") if marker >= 0 else ""
    left, right = "{}" if anchor == cell else "[]"
    return _centred(Text(left, style=f"bold {colour}").append_text(label).append(right, style=f"bold {colour}"))


def _centred(text: Text) -> Text:
    """``text`` padded with spaces to :data:`HEX_WIDTH` characters, centred (an odd space goes right)."""
    pad = HEX_WIDTH - len(text.plain)
    left = pad // 2
    return Text(" " * left).append_text(text).append(" " * (pad - left))


def _group_line(state: State, anchor: tuple[int, int], styles: dict[str, str]) -> Text:
    """``group at 0,0: A-marker (A 4, B 2, N 1)``: the marker of the group anchored there and its pieces by value."""
    game = state.game
    marker = state.groups[anchor]
    counts: dict[str, int] = {}
    for cell in sorted(cell for cell, a in state.members.items() if a == anchor):
        value = value_label(game, state.grid[cell], state.face[state.grid[cell]])
        counts[value] = counts.get(value, 0) + 1
    rank = {v: i for values in game.types.values() for i, v in enumerate(values)}
    most = sorted(counts.items(), key=lambda item: (-item[1], rank.get(item[0], len(rank))))  # ties: in the type's order
    pieces = ", ".join(f"{value} {n}" for value, n in most)
    name = game.piece_names[marker] if marker >= 0 else "no marker"
    style = styles.get(value_label(game, marker, state.face[marker]), "") if marker >= 0 else ""
    line = Text(f"group at {anchor[0]},{anchor[1]}: ")
    return line.append(name, style=f"bold {style}").append(f" ({pieces})")


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


def piece_text(game: Game, state: State, cid: int, styles: dict[str, str]) -> Text | None:
    """A piece without faces of its own (one face, no per-face values) as the ``display`` short texts of its values
    (:func:`display_text`).

    None when the ruleset gives no ``display`` for any of them.
    """
    if len(game.face_labels[cid]) > 1 or game.face_labels[cid][0] != game.face_names[game.component_kind[cid]][0]:
        return None
    face = state.face[cid]
    values = [v for a, t in game.attribute_types.items() if t in game.types and (v := game.attributes[a][face][cid]) is not None]
    name = game.piece_names[cid]
    style = next((styles[v] for v in values if game.display.get(v, {}).get("style")), "")
    if "short" in game.display.get(name, {}):  # the piece's own short text says more than its values' (a rank)
        return Text(display_text(game, name), style=f"bold {styles.get(name) or (styles.get(values[0], '') if values else '')}")
    if not any(v in game.display for v in values):
        if name not in game.display:  # a piece named in display itself (one that holds no value shown)
            return None
        return Text(display_text(game, name), style=f"bold {styles.get(name, '')}")
    return Text("".join(display_text(game, v) if v in game.display else v for v in values), style=style)


def display_text(game: Game, name: str) -> str:
    """What a board shows for a value (or a component) that ``display`` names: its short text, else its name
    abbreviated to two letters at least among the names ``display`` gives, as a hex shows a value; the board's key
    says what it stands for.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(display={"North": {"style": "bold"}, "Nest": {}, "South": {"short": "S"}})
    >>> display_text(game, "North"), display_text(game, "South")
    ('No', 'S')
    """
    hint = game.display[name]
    return hint["short"] if "short" in hint else abbreviations((n for n, h in game.display.items() if "short" not in h), least=2)[name]


def held_values(game: Game, cid: int) -> list[str]:
    """The values a piece with faces of its own shows on every face alike and the ruleset gives a ``display`` for.

    A piece with faces ``[plain, crowned]`` and a ``side`` the same on both: ``["North"]`` when ``display`` names
    North, so the board can say whose piece it is as well as which face is up.  Per-face values are its faces' own
    labels already.
    """
    labelled = {part for label in game.face_labels[cid] for part in label.split("/")}
    held = []
    for attr, type_name in game.attribute_types.items():
        if type_name in game.types:
            values = {game.attributes[attr][face][cid] for face in range(game.face_count[cid])}
            value = values.pop() if len(values) == 1 else None
            if value is not None and value in game.display and value not in labelled:
                held.append(value)
    return held


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
        line.append("  ")
        marks = [f"{name} {state.counters[i]}" for name, spec in game.counters.items()
                 if (i := spec.index_of(cid)) is not None and spec.per not in ("role", "game") and state.counters[i]]
        if marks:
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


def zones(state: State, seat: int | None, on_top: frozenset[int] = frozenset()) -> list[Text]:
    """One line per non-empty zone off the board, as ``seat`` sees it (hidden ones as counts, identical pieces as ``x3``),
    then one naming the empty zones it sees (``empty: discard, hand (yours)``; see :func:`shown_empty`).

    ``on_top``: the piles the rules laid components on top of (:func:`cli.piles.laid_on_top`), listed from the bottom
    up, as they were laid, and said so (``row1 (from the bottom up): 38, 41``), as the browser's table lists them;
    the others as they lie, their top first (a trick, each card put under the one led).

    ``seat`` None: every zone open (a replay's final position).  A zone that ``show``s attributes lists its
    components one per line.  What the blocks draw (see :class:`engine.blocks.block.Drawing`) comes in too: a
    zone held by a role whose components a block draws itself is drawn as their lines (then that block's
    legend), then the blocks' other lines and the counters they do not draw.
    """
    game = state.game
    if seat is None:
        seen: dict[str, Any] = {name: [game.piece_names[c] for c in state.zones[zi]] for zi, name in enumerate(game.zone_names)}
        faces = {name: [game.face_labels[c][state.face[c]] for c in state.zones[zi]]
                 for zi, name in enumerate(game.zone_names) if any(state.face[c] for c in state.zones[zi])}
    else:
        observed = state.observation(seat)
        seen, faces = observed["zones"], observed.get("faces", {})
    drawn = drawings(state, seat)
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
        if not content and shown_empty(state, zi):
            empty.append(f"{name}{' (yours)' if mine else ''}")
        if zi == game.board_zone or not content or content == {"hidden": 0}:
            continue
        laid = zi in on_top and isinstance(content, list) and (seat is None or zone_view(state, zi, seat) == SEEN)
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
            lines.append(line)
            lines += [styled(by_component[cid][1]) for cid in in_view(state, zi, seat)]
            legends.update(by_component[cid][0] for cid in state.zones[zi])
            continue
        elif game.zone_spec_of[zi].show:
            lines.append(line)
            listed = listing(state, zi, value_styles(game), seat)
            lines.extend(listed[::-1] if laid else listed)
            continue
        else:
            held = as_held(game, zi, content, faces.get(name))
            shown = [face for _, face in held] if faces.get(name) else None
            pile = game.zone_spec_of[zi].kind == "pile"  # its order may be the rules': copies apart are not counted as one
            line.append(", ".join(counted(_with_faces(game, [piece for piece, _ in held], shown), in_order=pile)))
        lines.append(line)
    lines += [styled(legend) for i in sorted(legends) for legend in drawn[i].legend]
    if empty:
        lines.append(Text(f"empty: {', '.join(empty)}", style="dim"))
    lines += [styled(extra) for drawing in drawn for extra in drawing.lines]
    return lines + counters(state, drawn, seat)


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


def counters(state: State, drawn: list[Drawing] | None = None, seat: int | None = None) -> list[Text]:
    """One line per declared counter: ``gold: A 3, B 5`` (or ``round: 2``): roles that are played (every role when
    roles are hidden: which are played is not known); components where it is not 0.

    A counter a block draws itself (in ``drawn``, what the blocks draw, asked for when not given; see :func:`zones`)
    or declared ``shown: false`` is not drawn, nor, for ``seat``, one of a component it cannot see.
    """
    from engine.model.savefile import counter_values, owner_label

    game = state.game
    open_roles = game.roles is None or not game.roles.hidden
    by_blocks = {name for drawing in (drawings(state, None) if drawn is None else drawn) for name in drawing.counters}
    lines = []
    for name, values in counter_values(state, seat).items():
        if name in by_blocks or not game.counters[name].shown:
            continue
        per = game.counters[name].per
        if game.counters[name].keys is not None:
            lines += keyed_lines(state, name, values, open_roles)
            continue
        if isinstance(values, dict) and per == "role":
            values = {owner: value for owner, value in values.items() if state.seat_of.get(owner) or not open_roles}
        elif isinstance(values, dict):
            values = {owner: value for owner, value in values.items() if value}
            if not values:
                continue
        if isinstance(values, dict):
            shown = ", ".join(f"{owner if per == 'role' else owner_label(state, owner)} {value}" for owner, value in values.items())
        else:
            shown = str(values)
        lines.append(Text(f"{name}: {shown}"))
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
    from engine.model.savefile import owner_label

    def shown(keyed: dict[str, int]) -> str:
        return ", ".join(f"{key}={value}" for key, value in keyed.items() if value) or "none"

    per = state.game.counters[name].per
    if per == "game":
        return [Text(f"{name}: {shown(values)}")]
    lines = []
    for owner, keyed in values.items():
        if per == "role" and open_roles and not state.seat_of.get(owner) or per != "role" and not any(keyed.values()):
            continue
        lines.append(Text(f"{name} of {owner if per == 'role' else owner_label(state, owner)}: {shown(keyed)}"))
    return lines


def turn_rule(state: State, seat: int, own: bool = True) -> str:
    """The line over a decision: the turn, and the seat deciding; ``turn 2 (seat 2's): seat 1 to decide`` when the
    seat is asked during another seat's turn (``choose(..., by = r)``: a challenge, a card to give up).  ``own``: as
    :func:`seat_label` has it.

    >>> from types import SimpleNamespace as Seen
    >>> s = Seen(current_role="seat2", seat_of={"seat2": 2}, turn_number=5, game=Seen(roles=None))
    >>> turn_rule(s, 2), turn_rule(s, 1)
    ('turn 5: seat 2 to play', "turn 5 (seat 2's): seat 1 to decide")
    """
    turn_seat = state.seat_of.get(state.current_role) if state.current_role is not None else None
    if turn_seat is None or turn_seat == seat:
        return f"turn {state.turn_number}: {seat_label(state, seat, own)} to play"
    return f"turn {state.turn_number} (seat {turn_seat}'s): seat {seat} to decide"


def seat_label(state: State, seat: int, own: bool = True) -> str:
    """``seat 2 (North)``: a seat and the role it is playing now.

    ``own``: the label is shown to that seat itself; to the others, hidden
    roles (``roles: {hidden: true}``) are left out.  A ruleset without
    ``roles`` plays roles named for the seats: ``seat 2``, not ``seat 2 (seat2)``.
    """
    role = state.current_role
    roles = state.game.roles
    if not own and roles is not None and roles.hidden:
        return f"seat {seat}"
    named = role and role != f"seat{seat}" and state.seat_of.get(role) == seat
    return f"seat {seat} ({role})" if named else f"seat {seat}"


LISTED = 60
"""The most actions listed at once; beyond it the list is cut and the human told how to narrow it."""


def numbered_actions(state: State, width: int, only: str = "") -> RenderableType:
    """The legal actions as ``[n] text``, in as many columns as fit in ``width`` when there are many.

    ``only``: just the actions it names, with their own numbers: those at the cell it is as a whole, else those whose
    text contains it, in any case (``CellNames.lists``).  A list longer than :data:`LISTED` is cut, with a line
    saying how to see the rest.
    """
    listed = menu(state)  # a hand's cards in the hand's order
    numbered = [(i, str(action)) for i, action in enumerate(listed, 1)]
    if only:
        numbered = [(i, text) for i, text in numbered if state.game.cell_names.lists(only, text)]
    items = [Text(f"[{i}] {text}") for i, text in numbered[:LISTED]]
    tiles = tile_sides(state.game, 4) if isinstance(state.game.grid, SquareGrid) and len(listed) <= MOST_PICTURED else {}
    if tiles:  # a tile with sides: how it would lie, as the board draws it, after the action's text
        letters, styles = side_letters(state.game, tiles), value_styles(state.game)
        pad = max((len(item.plain) for item in items), default=0) + 2
        for item, (i, _) in zip(items, numbered):
            sides = laid_sides(state, listed[i - 1], tiles)
            if sides is not None:
                item.pad_right(pad - len(item.plain))
                item.append_text(sides_text(sides, letters, styles))
    widest = max((len(item.plain) for item in items), default=1) + 3
    columns = 1 if len(items) <= 12 else max(1, min(width // widest, 4))
    rows = -(-len(items) // columns)
    table = Table.grid(padding=(0, 3))
    for _ in range(columns):
        table.add_column(no_wrap=True)
    for r in range(rows):
        table.add_row(*items[r::rows])
    if len(numbered) <= LISTED:
        return table
    more = Text(f"... and {len(numbered) - LISTED} more: type part of an action (e.g. a cell such as 3,4) "
                "to list only the actions that contain it", style="dim")
    return Group(table, more)


def watched(state: State, seat: int | None, on_top: frozenset[int] = frozenset()) -> list[RenderableType]:
    """What ``--watch`` draws after a move: the board, or the zones of a game without one — and its zones too while
    no piece is on the board (a map whose lands are held in zones draws an empty board, which tells nothing);
    ``on_top`` as :func:`zones` reads it."""
    game = state.game
    if game.grid is None:
        return list(zones(state, seat, on_top))
    if game.board_zone >= 0 and not state.zones[game.board_zone]:
        return position(state, seat, on_top)
    return [board(state, seat)]


def position(state: State, seat: int | None, on_top: frozenset[int] = frozenset()) -> list[RenderableType]:
    """The board (with its legend) and the zones as ``seat`` sees them (None: all of them); ``on_top`` as
    :func:`zones` reads it."""
    parts: list[RenderableType] = [board(state, seat)] if state.game.grid is not None else []
    return parts + list(zones(state, seat, on_top))


def outcome(state: State) -> list[str]:
    """The scores and who won, each seat with the roles it plays as the other lines name them (``seat 2 (South)``,
    as :func:`seat_label` does; hidden roles left out); in teams each team's score once, with its seats (``team 1
    (seats 1 and 3): 25``: each seat scores its team's total); the scoring details are in the game's log."""
    result = state.outcome
    if result is None:
        return ["the game is not over"]
    roles = seat_roles(state)
    if len(result.teams) > 1:  # each seat scores its team's total: said once a team, not as if each seat had scored it
        scores = ", ".join(f"team {n} (seats {and_list([f'{seat}{_roles_after(roles, seat)}' for seat in team])}): "
                           f"{result.scores[team[0] - 1]}" for n, team in enumerate(result.teams, 1))
    else:
        scores = ", ".join(f"seat {i + 1}{_roles_after(roles, i + 1)}: {s}" for i, s in enumerate(result.scores))
    lines = [f"game over; scores: {scores}", winners_text(result, roles, state.game.cooperative(state.players))]
    broken = tie_broken(result)
    if broken:
        lines.append(broken)
    if result.ended == "turn limit":  # not by a rule of the game: say so, or it reads as a real ending
        lines.append(f"stopped by the turn limit (end: max_turns, {state.game.max_turns}): 'end: when' never held")
    return lines


def tie_broken(result: Outcome) -> str:
    """Why the seats that won did, when a seat that lost scored as much (the ranking's later keys, or its order, broke
    the tie: ``scores: ... 4, ... 4`` over ``seat 2 wins`` read as a mistake); "" otherwise, and in teams.

    >>> tie_broken(Outcome((4, 4), (2,), (0.0, 1.0), ranking=("South", "North")))
    "tied on points: the ranking's later keys broke the tie (the last move's log gives each seat's keys)"
    >>> tie_broken(Outcome((0, 0), (2,), (0.0, 1.0)))  # no ranking: a rule named the winner
    ''
    """
    won = {result.scores[seat - 1] for seat in result.winners}
    lost = [score for seat, score in enumerate(result.scores, 1) if seat not in result.winners]
    if not result.ranking or len(result.teams) > 1 or len(won) != 1 or not lost or max(lost) != min(won):
        return ""
    if result.tie_by_order:
        return "tied on points and on every key of the ranking: the first place went by the order it lists them"
    return "tied on points: the ranking's later keys broke the tie (the last move's log gives each seat's keys)"


def seat_roles(state: State) -> dict[int, str]:
    """The roles each seat plays, joined by ', ' (``{1: 'North', 2: 'South'}``), for the lines told to every seat:
    none when roles are hidden (``roles: {hidden: true}``), and none named for its seat (``seat2``)."""
    roles = state.game.roles
    if roles is not None and roles.hidden:
        return {}
    played: dict[int, list[str]] = {}
    for role, seat in state.seat_of.items():
        if role != f"seat{seat}":
            played.setdefault(seat, []).append(role)
    return {seat: ", ".join(names) for seat, names in played.items()}


def _roles_after(roles: Mapping[int, str], seat: int) -> str:
    return f" ({roles[seat]})" if seat in roles else ""


def log_lines(lines: list[str]) -> list[str]:
    """Log lines indented under the action that caused them (continuation lines too)."""
    return ["  " + line.replace("\n", "\n  ") for line in lines]


def winners_text(result: Outcome, roles: Mapping[int, str] | None = None, together: bool = False) -> str:
    """Who won, as players read it: ``seat 2 wins``, ``nobody wins``, ``a draw: seats 1 and 2 tie`` when every seat
    shares the win, ``seats 1 and 2 win together`` when every seat wins in a cooperative game (``together``) or as one
    team, or when some seats win as one side (``winners: together``), else ``seats 1 and 3 share the win`` (the others
    lost); each seat followed by the roles it plays when
    ``roles`` names them (:func:`seat_roles`).  In teams (numbered as ``teams:`` lists them) the team wins, with its
    seats: ``team 1 wins: seats 1 and 3``, ``a draw: teams 1 and 2 tie: seats 1, 2, 3 and 4`` when every team shares
    the win, ``teams 1 and 2 share the win: ...`` when some do.

    >>> winners_text(Outcome.from_scores((3, 7)), {1: "North", 2: "South"})
    'seat 2 (South) wins'
    >>> winners_text(Outcome.from_scores((1, 1)), {1: "X", 2: "O"}), winners_text(Outcome.from_scores((1, 1)), together=True)
    ('a draw: seats 1 (X) and 2 (O) tie', 'seats 1 and 2 win together')
    >>> winners_text(Outcome.from_scores((2, 1, 0, 0)).for_teams(((1, 3), (2, 4))), {1: "X", 3: "Z"})
    'team 1 wins: seats 1 (X) and 3 (Z)'
    """
    named = [f"{seat}{_roles_after(roles or {}, seat)}" for seat in result.winners]
    if not named:
        return "nobody wins"
    seats = f"seat {named[0]}" if len(named) == 1 else f"seats {and_list(named)}"
    if len(result.teams) > 1 and not together:
        won = [str(n) for n, team in enumerate(result.teams, 1) if set(team) & set(result.winners)]
        if len(won) == 1:
            return f"team {won[0]} wins: {seats}"
        teams = f"teams {and_list(won)}"
        return f"a draw: {teams} tie: {seats}" if len(won) == len(result.teams) else f"{teams} share the win: {seats}"
    if len(named) == 1:
        return f"{seats} wins"
    if len(named) < len(result.scores):
        return f"{seats} win together" if result.together else f"{seats} share the win"
    return f"a draw: {seats} tie" if result.is_draw and not together else f"{seats} win together"


def run_changes(variants: list[str], set_options: dict[str, str]) -> str:
    """What a run changed from the ruleset as written: `` (variant a+b, width=4)``, or nothing.

    >>> run_changes(["short"], {"width": "4"}), run_changes([], {})
    (' (variant short, width=4)', '')
    """
    parts = [f"variant {'+'.join(variants)}"] if variants else []
    parts += [f"{name}={text}" for name, text in set_options.items()]
    return f" ({', '.join(parts)})" if parts else ""


