"""Drawing a board for the terminal with rich, from the labels of :mod:`cli.piece_labels`.

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
(laid out by cli.points_drawing).  A stack reads as its top piece and, dimmed,
how many lie beneath (``R3+2``).  A counter keyed by the cells (``counters: {trail: {key: cell}}``) shows its
value in each empty cell, hex or point where it is not 0 (see :mod:`cli.cell_marks`).

>>> drawn_span([5, 0, 1, 1_000_000_000])   # a growing board's columns: a long empty run is one gap
[0, 1, 2, 3, 4, 5, None, 1000000000]
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, cast

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cli.piece_labels import (
    back, board_labels, display_text, held_values, named_with_face, own_face_down, piece_counts, piece_text, side_letters,
    sides_text, value_label, value_styles,
)
from cli.cell_marks import board_marks
from cli.console import Trimmed
from cli.points_drawing import layout
from cli.wall_drawing import walled_rows
from cli.web.sides import Sides, side_values, tile_sides
from engine.blocks.grid import SquareGrid, format_cell
from engine.blocks.hexgrid import HexGrid
from engine.blocks.pointsboard import PointsBoard
from engine.core.facedown import hidden_from
from engine.core.showtext import abbreviations
from engine.model.savefile import open_observation

if TYPE_CHECKING:
    from engine import Game, State


MARK_STYLE = "bold cyan"
"""How a cell's value of the counter the board draws reads (:mod:`cli.cell_marks`): apart from any piece's label."""

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


def board(state: State, seat: int | None = None) -> RenderableType:
    """The board as ``seat`` sees it (None, or the game over: every piece shown): hexes in offset rows for a hex board,
    points where they lie for a board of points, else a table with x across and y down."""
    seat = None if state.is_terminal else seat
    if isinstance(state.game.grid, HexGrid):
        return hex_board(state, seat)
    if isinstance(state.game.grid, PointsBoard):
        return points_board(state, seat)
    return square_board(state, seat)


def square_board(state: State, seat: int | None = None) -> RenderableType:
    """The cells as a table with x across and y down: a board with edges whole, else the pieces and their empty neighbours.
    A face-down piece ``seat`` does not see shows as ``?`` (None: every piece shown), one it sees with a ``*``.

    Below it, a legend: how a cell reads and what each short text stands for.
    """
    game = state.game
    grid = cast("SquareGrid | None", game.grid)  # board() draws hex boards and boards of points otherwise
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
    marks = board_marks(state)  # a counter keyed by the cells: its value in each empty cell
    marked = marks.values if marks is not None else {}
    kept = piece_counts(state, None if state.is_terminal else seat)  # a piece's own counters, a pit's seeds

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
                mark = marked.get((x, y)) if (x, y) in cells and not any(narrow) else None
                drawn[x, y] = Text(str(mark), style=MARK_STYLE) if mark else \
                    Text("·" if (x, y) in cells and not any(narrow) else " ", style="dim")
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
            if kept.get(cid):
                text.append(":" + ",".join(str(value) for _, value in kept[cid]), style=MARK_STYLE)
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

    stacked = mixed_stacks(state, seat, lambda cid: cell_text(game, state, cid, short, styles))
    legend = square_legend(state, short, styles, seat, tiles, letters, marks.name if marks and any(
        cell not in state.grid for cell in marked) else "", kept_words(kept, set(state.grid.values())))
    if grid is not None and grid.walled:  # the walls between cells drawn as the ruleset draws them
        drawing: RenderableType = walled_rows(drawn, [x for x in xs if x is not None], [y for y in ys if y is not None],
                                              grid.walls, names)
        return Group(drawing, legend, *stacked)
    return Group(Trimmed(ColumnBands(table, xs)), legend, *stacked)


def mixed_stacks(state: State, seat: int | None, label: Callable[[int], Text]) -> list[Text]:
    """A line naming the pieces of each stack, from the top down, whose pieces do not all read alike (``label``):
    a cell shows its top piece and how many lie beneath, which tells a stack of one kind whole but not the order of
    camels carried by those beneath them, or of two players' pieces in a column.  Empty when there is none."""
    game, parts = state.game, []
    for cell in sorted(state.stacks, key=lambda c: (c[1], c[0])):
        pieces = [state.grid[cell], *state.stacks[cell]]
        texts = [back(state, cid, value_styles(game)) if hidden_from(state, cid, seat) else label(cid) for cid in pieces]
        if len({text.plain for text in texts}) > 1:
            part = Text(f"{game.cell_text(cell)}: ", style="dim")
            for i, text in enumerate(texts):
                part.append_text(Text(", ", style="dim") if i else Text()).append_text(text)
            parts.append(part)
    if not parts:
        return []
    line = Text("stacks, from the top down: ", style="dim")
    for i, part in enumerate(parts):
        line.append_text(Text("; ", style="dim") if i else Text()).append_text(part)
    return [line]


class ColumnBands:
    """A table of columns drawn whole when it fits the terminal, else in bands of whole columns one under another,
    each made by ``make`` with its own header (a one-row board of 24 points at 80 characters: two bands, where one
    table would squeeze every cell to ``…``).

    >>> def make(columns: range) -> Table:
    ...     made = Table(*(str(x) for x in columns))
    ...     made.add_row(*("word" for _ in columns))
    ...     return made
    >>> from cli.console import make_console
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
                  tiles: dict[str, Sides] | None = None, letters: dict[str, str] | None = None, marks: str = "",
                  kept: str = "") -> Text:
    """``x across, y down; a cell shows the face up and, dimmed, the other faces: No North, So South``: the board's key.

    Only the short texts of what lies on the board are named, each in its colour (a piece drawn as its whole
    name, like ``P``, needs none): ``x across, y up; · an empty cell; No North, So South``.  ``marks``: the counter
    whose values empty cells show (:func:`cli.cell_marks.board_marks`), said after the empty cell's dot; ``kept``:
    the counters the pieces keep, written after a piece (:func:`kept_words`).
    """
    game = state.game
    grid = cast("SquareGrid | None", game.grid)  # the key of a square board's table
    way = "up" if grid is not None and grid.y_up else "down"
    names = game.cell_names
    parts = [f"columns {names.column(0)}, {names.column(1)} ... across, rows {names.row(0)}, {names.row(1)} ... {way}; "
             "· an empty cell" if names.named else f"x across, y {way}; · an empty cell"]
    if marks:
        parts.append(f"a number: the {marks} of an empty cell")
    shown: dict[str, str] = {}
    tiles, letters = tiles or {}, letters or {}
    with_sides = {cid for cid in state.grid.values() if game.component_kind[cid] in tiles and not hidden_from(state, cid, seat)}
    beneath = [(cell, cid) for cell, pieces in sorted(state.stacks.items()) for cid in pieces]  # named in a stack's line
    for cell, cid in [*sorted(state.grid.items()), *beneath]:
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
        elif not named_with_face(game, cid):
            for value in held_values(game, cid):
                shown.setdefault(display_text(game, value), value)
            for label in board_labels(game, cid):
                shown.setdefault(short[label], label)
    faced = [cid for cid in state.grid.values() if cid not in with_sides and len(game.face_labels[cid]) > 1]
    if any(not named_with_face(game, cid) for cid in faced):
        parts.append("a cell shows the face up and, dimmed, the other faces")
    if any(named_with_face(game, cid) for cid in faced):
        parts.append("a piece told by its name shows it and, dimmed, its face up")
    if with_sides:
        parts.append("a tile shows its sides clockwise from the top")
    if state.stacks:
        parts.append("+N: pieces beneath")
    if kept:
        parts.append(kept)
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
    if named_with_face(game, cid):  # a tile told by its name, its faces only how it is turned: 'T7 1'
        text = Text(game.piece_names[cid], style="bold" + " underline" * pending)
        text.append(f" {up}", style="dim")
        return text
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
    held = held_here(state, seat)
    marks = board_marks(state)  # a counter keyed by the points: its value on each empty one
    marked = marks.values if marks is not None else {}
    named = point_labels(board)
    shown: dict[int, dict[int, Text]] = {}
    for cell, (r, c) in where.items():
        cid = state.grid.get(cell)
        if cid is None and cell in held:
            text = Text(held[cell], style="bold")
        elif cid is None and marked.get(cell):
            text = Text(str(marked[cell]), style=MARK_STYLE)
        elif cid is None:
            text = Text(named[cell], style="italic") if cell in named else Text("·", style="dim")
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
    names = ", ".join(f"{named[cell] + ' ' if named.get(cell, name) != name else ''}{name} {format_cell(cell)}"
                      for name, cell in board.points if name)
    unnamed = any(cell not in named for cell in where)
    key = ("· an empty point" if unnamed else "an empty point shows its name") + ("; a name: an empty point" if unnamed and named else "") + ("; N:C a point held by seat N, C its counters (as on the page)" if held else "") \
        + (f"; a number: the {marks.name} of an empty point" if marks and any(c not in state.grid for c in marked) else "") \
        + (f"; points: {names}" if names else "")
    if crooked:
        key += "; also linked: " + ", ".join(f"{board.name_of(a)}-{board.name_of(b)}" for a, b in crooked)
    drawn.append(Text(key, style="dim"))
    drawn += mixed_stacks(state, seat, lambda cid: cell_text(game, state, cid, short, styles))
    return Group(*drawn)


def point_labels(board: PointsBoard) -> dict[tuple[int, int], str]:
    """What an empty named point shows on the terminal's drawing: its name, or its shortest telling abbreviation
    (``Upton`` and ``Vale`` are ``U`` and ``V``, ``a7`` itself), as the page writes each name beneath its
    point: the terminal drew every point ``·``, the names only in the key below.  None for names that do not fit
    between two points (abbreviated past three letters): those points stay ``·``, named in the key.

    >>> board = PointsBoard(points=(("Upton", (0, 0)), ("Vale", (2, 0)), ("", (4, 0))), links=())
    >>> point_labels(board)
    {(0, 0): 'U', (2, 0): 'V'}
    """
    names = {cell: name for name, cell in board.points if name}
    short = abbreviations(names.values(), least=1)
    if any(len(label) > 3 for label in short.values()):
        return {}
    return {cell: name if len(name) <= 2 else short[name] for cell, name in names.items()}


def held_here(state: State, seat: int | None) -> dict[tuple[int, int], str]:
    """The points of a board of points a seat holds through a component of its zone (a land in ``held of A``, see
    :func:`cli.web.edges.held_points`), as ``seat`` sees them (None: all), each as its holder's seat and the counters
    the component keeps, ``1:3`` (seat 1's, a counter at 3), as the page draws them: the terminal drew every such point
    as empty.

    Example: a point's component held in seat 1's zone, keeping a counter at 2: ``{(2, 4): '1:2'}``.
    """
    from cli.web.edges import held_points

    observed = open_observation(state) if seat is None or state.is_terminal else state.observation(seat)
    played = {role: ("", "") for role, at in state.seat_of.items() if at}
    points = held_points(state.game, observed["zones"], played)
    if not points:
        return {}
    counts = piece_counts(state, None if state.is_terminal else seat)
    out = {}
    for cell, (cid, zone) in points.items():
        role = state.game.zone_owner[state.game.zone_names.index(zone)]
        said = ",".join(str(value) for _, value in counts.get(cid, ()))
        out[cell] = f"{state.seat_of[role]}" + (f":{said}" if said else "")
    return out


HEX_WIDTH = 6
"""Characters per hex across a row; rows are shifted by half of it."""


def kept_words(kept: dict[int, list[tuple[str, int]]], drawn: set[int]) -> str:
    """What ``:N`` after a piece says, in a board's key: the counters the pieces ``drawn`` keep that are not 0 (a
    pit's seeds, as the page writes them in its corner: the terminal drew a pit as its owner's letter alone).

    >>> kept_words({3: [("seeds", 4)]}, {3}), kept_words({3: [("seeds", 4)]}, {7})
    (":N a piece's seeds", '')
    >>> kept_words({3: [("seeds", 1), ("age", 2)]}, {3})
    ":N a piece's counters that are not 0 (seeds, age: named in the list below)"
    """
    names = list(dict.fromkeys(name for cid in sorted(drawn) for name, _ in kept.get(cid, ())))
    if len(names) > 1:
        return f":N a piece's counters that are not 0 ({', '.join(names)}: named in the list below)"
    return f":N a piece's {names[0]}" if names else ""


def hex_board(state: State, seat: int | None = None) -> RenderableType:
    """Every hex of a hex board in rows of ``r``, each shifted by half a hex, then a line per group; a face-down piece
    ``seat`` does not see shows as ``?`` (None: every piece shown), one it sees with a ``*``."""
    game = state.game
    grid = game.grid
    assert isinstance(grid, HexGrid)
    labels = hex_labels(game)
    styles = value_styles(game)
    # an empty board shows every hex's coordinates: the first player read only dots, nothing to tell '0,0' by
    near = "every hex shows its coordinates" if not state.grid else "an empty hex next to a piece shows its coordinates"
    key = f"q,r: {near}; [..] a piece in a group, {{..}} the group's anchor"
    marks = board_marks(state)  # a counter keyed by the hexes: its value in each empty one
    marked = marks.values if marks is not None else {}
    if marks is not None and any(cell not in state.grid for cell in marked):
        key += f"; a number: the {marks.name} of an empty hex"
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
            drawn = back(state, cid, styles) if cid is not None and hidden_from(state, cid, seat) else None
            if drawn is None and cid is not None and own_face_down(state, cid, seat):  # (no groups with face_down)
                value = value_label(game, cid, state.face[cid])
                drawn = Text(labels[value], style=f"bold {styles.get(value, '')}").append("*", style="dim")
            if drawn is None and cid is None and marked.get(cell):
                drawn = Text(str(marked[cell]), style=MARK_STYLE)
            line.append_text(_centred(drawn) if drawn is not None else _hex(state, cell, labels, styles))
        line.rstrip()  # the last hex's padding
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


def _hex(state: State, cell: tuple[int, int], labels: dict[str, str], styles: dict[str, str]) -> Text:
    """One hex, :data:`HEX_WIDTH` characters wide: a piece, the coordinates of an empty neighbour (of every hex of an
    empty board), or a dot."""
    game = state.game
    cid = state.grid.get(cell)
    if cid is None:
        shown = f"{cell[0]},{cell[1]}" if cell in state.frontier or not state.grid else "·"  # an empty board: each
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
