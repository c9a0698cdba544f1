"""What the page shows of a position, as one seat sees it: HTML for the table, words for the situation, the actions.

Everything off the board comes from :meth:`State.observation` of the seat
(so a hidden zone reaches the page only as a count, drawn as card backs)
until the game is over, when every zone is shown;
the board, counters and meters are public, but for the counters of components the seat cannot see.
Names and texts from the ruleset are escaped wherever they reach HTML.

Typical use::

    state = engine.load("my-game").new_state(players=2, seed=1)
    table_html(state, seat=1)      # the board's <svg>, then a <section class="zone"> per zone (without a board: on the table)
    actions(state, seat=1)[0]      # {'text': 'place A as B at 0,0', 'cells': ['0,0'], 'cell_words': ['0,0'], ...}
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from cli import piece_labels, render, zone_listing
from cli.cell_marks import board_marks
from cli.menu import menu, played_components
from cli.piles import brought_from
from cli.web.sides import MOST_PICTURED, Sides, face_sides, glyph_svg, laid_sides, side_count, tile_sides
from cli.web.edges import link_legend
from cli.web.svg import NEUTRAL, board_svg, board_values, legend, role_colours, text_colour, value_colours
from engine.blocks.catalogue import drawings
from engine.blocks.pointsboard import PointsBoard
from engine.core.facedown import NOBODY, back_label, hidden_from
from engine.core.information import SEEN, seen_parts, zone_view
from engine.core.showtext import abbreviations
from engine.core.showtext import html_safe as escape
from engine.model.savefile import counter_values, open_observation

if TYPE_CHECKING:
    from engine import Game, State
    from engine.core.actions import Action
    from cli.web.tables import Move

BACKS_SHOWN = 12
"""Card backs drawn for a hidden zone before the rest is only counted."""


def table_html(state: State, seat: int | None, own: bool = True, everything: bool = False,
               on_top: frozenset[int] = frozenset(), came_from: dict[int, int] | None = None) -> str:
    """The board, the zones ``seat`` may see (the empty ones too, see :func:`cli.zone_listing.shown_empty`; None: what every seat sees; once the game is over, or with
    ``everything`` (a table of bots only, which keeps no secret from its watchers), every zone), the meters, counters,
    the lines blocks draw (see :class:`engine.blocks.block.Drawing`) and a legend, as HTML; ``own``: the page plays
    ``seat``, whose zones are marked "(yours)" (not when it only watches a bot's seat).

    ``on_top``: the piles whose components were laid on their top (:func:`cli.piles.laid_on_top`), listed from
    the bottom up, as they were laid (a row of cards, its last card on top, read backwards); the others as they lie,
    their top first (a trick, each card put under the one led).

    ``came_from``: the zone each component last came from into a pile of nobody's (:func:`cli.piles.played_from`):
    a chip there whose component came from a role's zone is marked with that role (a trick's cards, each with who
    played it)."""
    game = state.game
    # Zones of roles nobody plays are left out, unless roles are hidden: then which roles are played is not known.
    open_roles = game.roles is None or not game.roles.hidden
    over = state.is_terminal or everything  # every zone shown, as the finished game's save (or a bots' table) holds it
    observed = open_observation(state) if over else state.observation(seat) if seat is not None else public_observation(state)
    order_of = None if over else seat  # whose order a zone's components are listed in (None: as they lie)
    faces: dict[str, list[str]] = observed.get("faces", {})  # the face each component shows, where not all show their first
    seen: dict[str, Any] = {name: content for zi, (name, content) in enumerate(observed["zones"].items())
                            if game.zone_owner[zi] is None or not open_roles or state.seat_of.get(game.zone_owner[zi])}
    viewer = None if over else seat if seat is not None else NOBODY  # who sees the face-down pieces
    drawn = board_svg(state, seen, viewer)
    parts = ['<div class="board-wrap">', drawn, "</div>"] if drawn else []
    boxes: list[str] = []  # a section per zone: without a board, laid out as the table itself
    values = board_values(state, viewer)
    tiles = tile_sides(game, side_count(game.grid))  # the kinds whose chips show their sides
    meter = game.parts.get("meter")
    for name, content in seen.items():
        zi = game.zone_names.index(name)
        laid = zi in on_top and isinstance(content, list) and (over or zone_view(state, zi, seat or 0) == SEEN)
        if laid:  # from the bottom up, as laid
            content, faces = content[::-1], {**faces, name: faces[name][::-1]} if name in faces else faces
        empty = zone_listing.holds_nothing(content) and zone_listing.shown_empty(state, zi)  # a zone seen empty (a hidden one too), so that its box is there before it fills
        if not empty and (zi == game.board_zone or zone_listing.holds_nothing(content)):
            continue
        owner = game.zone_owner[zi]
        mine = own and owner is not None and state.seat_of.get(owner) == seat
        heading = escape(name) + (" (yours)" if mine else "")
        order = ' data-order="laid" title="from the bottom up, as laid: the top last"' if laid else ""
        boxes.append(f'<section class="zone{" mine" * mine}{" empty" * empty}" data-zone="{escape(name)}"{order}><h3>{heading}</h3>')
        if empty:
            boxes.append('<small class="empty">(empty)</small>')
        elif isinstance(content, dict):
            shown = min(content["hidden"], BACKS_SHOWN)
            boxes.append('<span class="back"></span>' * shown + f'<span class="count">{content["hidden"]} hidden</span>')
            if content.get("seen"):  # shown to this seat alone (show(..., to = r)), each at its place
                said = escape(zone_listing.seen_text(content["seen"], content["hidden"]))
                boxes.append(f'<span class="seen">you saw: {said}</span>')
        elif meter is not None and owner is not None and all(meter.counter.index_of(c) is not None for c in state.zones[zi]):
            boxes.extend(meter_html(state, cid) for cid in zone_listing.in_view(state, zi, order_of))
        elif game.zone_spec_of[zi].show:  # one line per component, with the attributes the zone shows
            listed = list(zip(zone_listing.in_view(state, zi, order_of), zone_listing.listing(state, zi, {}, order_of)))
            for cid, line in listed[::-1] if laid else listed:
                details = "; ".join(line.plain[len(f"  {game.piece_names[cid]}:"):].strip().split("  "))  # its counters
                # after a '; ' as its attributes: the terminal's two spaces before them collapsed to one ('points 3 charges 2')
                boxes.append(f'<div class="listed">{chip_html(game, game.piece_names[cid])} <small>{escape(details)}</small></div>')
                values.add(piece_labels.value_label(game, cid, 0))
        else:
            pile = game.zone_spec_of[zi].kind == "pile"
            held = zone_listing.as_held(game, zi, content, faces.get(name))
            by = brought_from(state, zi, laid, came_from or {}, [piece for piece, _ in held]) if pile and owner is None else []
            marked = [(piece, up, source) for (piece, up), source in zip(held, by)] if len(by) == len(held) else \
                [(piece, up, None) for piece, up in held]
            for (piece, up, source), n in zone_listing.tallied(marked, in_order=pile):
                boxes.append(chip_html(game, piece, n, up, tiles, source))
                cid = game.piece_names.index(piece)
                values.add(piece_labels.value_label(game, cid, face_index(game, cid, up)))
                values.update(face_sides(game, cid, face_index(game, cid, up), tiles) or ())  # its sides' glyph
            if meter is not None and game.zone_spec_of[zi].kind == "supply":  # components on the meter kept there: their bars
                boxes.extend(meter_html(state, cid) for cid in zone_listing.in_view(state, zi, order_of)
                             if meter.counter.index_of(cid) is not None)
        boxes.append("</section>")
    if boxes:
        table = ' table" role="group" aria-label="the table' if game.grid is None else ""  # no board: the zones are the table
        parts.append(f'<div class="zones{table}">' + "".join(boxes) + "</div>")
    drawn = drawings(state, None if over else seat if seat is not None else NOBODY)  # NOBODY: what every seat sees
    counted = None if over else seat if seat is not None else 0  # seat 0: what every seat sees
    counters = [line.plain for line in zone_listing.counters(state, drawn, counted, grids=False)]
    marks = board_marks(state) if game.grid is not None else None
    if marks is not None and any(cell not in state.grid for cell in marks.values):  # the numbers drawn in the cells
        counters.insert(0, f"{marks.name}: the numbers in the board's empty cells")
    if counters:
        parts.append('<ul class="counters">' + "".join(f"<li>{escape(line)}</li>" for line in counters) + "</ul>")
    parts.extend(grid_html(keys, rows) for keys, rows in zone_listing.key_grids(state, counted, drawn))
    lines = [zone_listing.styled(line).plain for drawing in drawn for line in drawing.lines]  # what blocks draw besides zones
    if lines:
        parts.append('<ul class="drawn">' + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>")
    parts.append(legend_html(game, values, link_legend(game, seen, role_colours(game, state.seat_of))))
    return "".join(parts)


def grid_html(keys: list[str], rows: list[tuple[str, str, list[int]]]) -> str:
    """Counters keyed by numbers as a table (:func:`cli.zone_listing.key_grids`): the keys across, a row per counter
    and owner, ``·`` for 0, as the terminal draws them; it scrolls sideways on a narrow screen.

    >>> grid_html(["2", "3"], [("held", "held", [0, 1])]).count("<td>")  # the corner, and a value a key
    3
    """
    head = "".join(f'<th scope="col">{escape(k)}</th>' for k in keys)
    body = "".join(f'<tr><th scope="row">{escape(label)}</th>' + "".join(f"<td>{v if v else '·'}</td>" for v in values) + "</tr>"
                   for _, label, values in rows)
    return f'<div class="keyed"><table><tr><td></td>{head}</tr>{body}</table></div>'


def public_observation(state: State) -> dict[str, Any]:
    """What every seat sees: seat 1's observation with every zone that is not open to all (``hidden: none``)
    shown only as its count, the counters every seat sees, and none of seat 1's own (its choice, its actions, the
    numbers and cells it sealed, its role when roles are hidden).

    Example: in a game of hands hidden from the other seats, ``public_observation(state)["zones"]["hand of A"]``
    is ``{"hidden": 5}`` for a hand of five cards, whoever holds it; a face-down piece is its back, even one
    turned down for seat 1.  Once the game is over nothing is hidden: it is :func:`engine.model.savefile.open_observation`.
    """
    if state.is_terminal:
        return open_observation(state)
    game = state.game
    observed = state.observation(1)
    shut = {name for zi, name in enumerate(game.zone_names) if game.zone_spec_of[zi].hidden != "none"}
    zones = {name: {"hidden": len(state.zones[game.zone_names.index(name)])} if name in shut else content
             for name, content in observed["zones"].items()}
    faces = {name: shown for name, shown in observed.get("faces", {}).items() if name not in shut}
    observed = {**observed, **seen_parts(state, NOBODY),  # the blocks' parts: no seat's own sealed choices
                "player": None, "choice": None, "legal_actions": [], "counters": counter_values(state, NOBODY)}
    if game.roles is not None and game.roles.hidden:  # seat 1's own role, and the role to move, are seat 1's to know
        observed.update(seats={}, current_role=None)
    if any(hidden_from(state, cid, NOBODY) for cid in state.grid.values()):  # no face-down piece seat 1 alone sees
        board = game.zone_names[game.board_zone]
        zones[board] = [back_label(state, c) if hidden_from(state, c, NOBODY) else game.piece_names[c]
                        for c in state.zones[game.board_zone]]
        faces.pop(board, None)
        shown = {f"{x},{y}": [back_label(state, c), None] for (x, y), c in state.grid.items() if hidden_from(state, c, NOBODY)}
        return {**observed, "zones": zones, "faces": faces, "board": {**observed["board"], **shown}}
    return {**observed, "zones": zones, "faces": faces}


def face_index(game: Game, cid: int, up: str | None) -> int:
    """The index of the face named ``up`` among ``cid``'s faces (0 for None, or a name it has no face of)."""
    labels = game.face_labels[cid]
    return labels.index(up) if up in labels else 0


def chip_html(game: Game, piece: str, count: int = 1, up: str | None = None, tiles: dict[str, Sides] | None = None,
              source: str | None = None) -> str:
    """A component off the board: its name on the colour of the value of the face it shows, ``up`` (None: its first,
    not said), that face named beside it where it is said, the first too, as the terminal's ``die as 1`` (a die
    showing 1 read ``die``, beside ``die (6)``), ``x3`` for identical copies; a tile whose kind has sides
    (``tiles``, :func:`cli.web.sides.tile_sides`) with a small drawing of them before its name, as it would lie.

    Its title (the pointer resting on it, and what a screen reader adds to its name) says what that face holds
    (:func:`attribute_words`): a card's cost and points are read on the page, not only in the rules. ``by``: the
    zone of a role it came from into a pile of nobody's (a trick's card, from a hand), its role written small after
    its name, the zone in its title (see :func:`brought_from`).

    Example: ``chip_html(game, "token", 3, "B")`` for three tokens showing their second face ``B`` is a button
    reading ``token (B) ×3`` on the colour of face B's value.
    """
    cid = game.piece_names.index(piece)
    face = face_index(game, cid, up)
    value = piece_labels.value_label(game, cid, face)
    fill = value_colours(game).get(value, NEUTRAL)
    times = f" ×{count}" if count > 1 else ""
    faces = dict.fromkeys(game.face_labels[cid])
    shown = f"{piece} ({up})" if up is not None and len(faces) > 1 else piece  # a die on its first face too: "die (1)"
    title = f"{piece} (faces {', '.join(faces)})" if len(faces) > 1 else piece
    said = attribute_words(game, cid, face)
    title += (f": {said}" if said else "") + (f"; from {source}" if source else "")
    by = game.zone_owner[game.zone_names.index(source)] if source else None
    mark = f' <small class="by">{escape(by)}</small>' if by else ""
    sides = face_sides(game, cid, face, tiles or {})
    glyph = glyph_svg(sides, len(sides), value_colours(game), NEUTRAL) if sides else ""
    return (f'<button type="button" class="chip" data-name="{escape(piece)}" title="{escape(title)}" '
            f'style="background:{fill};color:{text_colour(fill)}">{glyph}{escape(shown)}{times}{mark}</button>')


def attribute_words(game: Game, cid: int, face: int) -> str:
    """The values component ``cid``'s face ``face`` holds, as words: each attribute that is a number, a yes or no, a
    declared type's value, a list of them or a cell (by its name), ``cost 3, points 1, action true``; text (a card's program)
    and tables are left out, and so are the attributes of other kinds (None).

    Example: for a card ``{id: Village, cost: 3, points: 0, on_play: ...}``, ``attribute_words(game, cid, 0)`` is
    ``'cost 3, points 0'``.
    """
    words = []
    for attr, kind in game.attribute_types.items():
        value = game.attributes[attr][face][cid]
        if value is None or kind in ("text", "table"):
            continue
        if kind in ("cell", "list of cell") and "cell" not in game.types:
            value = [zone_listing.place_name(game, c) for c in value] if isinstance(value, list) else zone_listing.place_name(game, value)
        if isinstance(value, bool):
            value = str(value).lower()  # as the ruleset writes it: true, false
        words.append(f"{attr} {' '.join(map(str, value)) if isinstance(value, list) else value}")
    return ", ".join(words)


def meter_html(state: State, cid: int) -> str:
    """A component on its meter: name, counter, a bar of tiles (special tiles marked) and its statuses."""
    game = state.game
    meter = game.parts.get("meter")
    assert meter is not None
    value = state.counters[meter.counter.index_of(cid)]
    top = meter.counter.clamp(state, cid, meter.counter.start(state, cid))
    tiles = max(top // meter.size, 1)
    left = max(value, 0) // meter.size
    short = abbreviations(meter.kinds)
    width = 10
    bar = [f'<svg class="meter" width="{tiles * width + 2}" height="34" role="img" aria-label="{value} of {top}">']
    special = meter.tiles.get(cid, {})
    for i in range(tiles):
        at = (i + 1) * meter.size
        fill = "#3a7d44" if i < left else "#e4e0d8"
        bar.append(f'<rect x="{i * width + 1}" y="18" width="{width - 1}" height="14" fill="{fill}"/>')
        if at in special:  # letters on two rows, so that neighbouring tiles' letters do not overlap
            kind, number = special[at]
            bar.append(f'<text x="{i * width + 5}" y="{7 + 8 * (i % 2)}" class="tile" text-anchor="middle">'
                       f'<title>{escape(kind)}{f" {number}" if number else ""} at {at}</title>{escape(short[kind])}</text>')
    bar.append("</svg>")
    book = game.parts.get("statuses")
    statuses = book.of(state, cid) if book else []
    marks = ", ".join(st.name for st in statuses)
    bottom = f' <b class="at-bottom">{escape(meter.at_bottom)}</b>' if value <= 0 else ""
    return (f'<div class="meter-row">{chip_html(game, game.piece_names[cid])} '
            f'<span class="meter-value">{value}/{top}</span> {"".join(bar)}{bottom}'
            f'{f" <b class=statuses>{escape(marks)}</b>" if marks else ""}</div>')


def legend_html(game: Game, values: set[str], owners: Sequence[tuple[str, str, str]] = ()) -> str:
    """What the colours (and, with a meter, the tile letters) mean; ``owners``: the colours of the roles' bands along
    a board's links (:func:`cli.web.edges.link_legend`), ``(role, words, colour)``."""
    named = legend(game, values)
    said = {(value, colour) for _, value, colour in named}  # a role that is a value with a colour is named once
    items = [f'<li><span class="swatch" style="background:{colour}"></span>{escape(value)} <small>({escape(kind)})</small></li>'
             for kind, value, colour in [*named, *((words, role, colour) for role, words, colour in owners
                                                   if (role, colour) not in said)]]
    meter = game.parts.get("meter")
    if meter is not None:
        short = abbreviations(meter.kinds)
        items += [f"<li><b>{escape(short[k])}</b> {escape(k)}: {escape(spec.text)}</li>" for k, spec in meter.kinds.items()]
    return f'<ul class="legend"><li><b>legend</b></li>{"".join(items)}</ul>' if items else ""


def situation(state: State, seat: int | None, bots: frozenset[int] = frozenset(), everything: bool = False) -> list[str]:
    """Whose turn it is, the phase and the pending decision in words (or the outcome); the decision is told to the
    seat to move, and to the watchers of a table that keeps no secret (``everything``)."""
    if state.is_terminal:
        return render.outcome(state)
    shown = state
    mover = state.seat_to_move
    lines = [render.turn_rule(shown, mover, own=mover == seat) + (" (a bot)" if mover in bots else "")]
    step = shown.game.steps[shown.step]
    if step.phase:
        lines.append(f"phase: {step.phase}")
    if mover == seat or everything:
        if shown.pending is not None:  # the seat to move has its choices listed after it; a watcher has none
            lines.append(f"{shown.pending.words}:" if mover == seat else f"deciding: {shown.pending.words}")
        else:
            lines.extend(step.situation(shown))
    return lines


def actions(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The legal actions of ``seat`` (none when it is not to move, or for None), each with the board cells its text
    names, the words a typed filter names those cells by (``x,y`` and a name: see ``CellNames.lists``) and the zones
    of the components it chooses (none known: an action that is no answer to a choice)."""
    if state.is_terminal or state.seat_to_move != seat:
        return []
    names = state.game.cell_names
    listed = [(str(a), a) for a in menu(state)]  # a hand's cards in the hand's order, as rulecraft play lists them
    tiles = tile_sides(state.game, side_count(state.game.grid)) if len(listed) <= MOST_PICTURED else {}
    found = [{"text": text, "cells": cells_in(text, state.game), "cell_words": names.cell_words(text),
              "zones": chosen_zones(state, a)} for text, a in listed]
    for action, (_, a) in zip(found, listed):
        glyph = tile_glyph(state, a, tiles) if tiles else ""
        if glyph:
            action["glyph"] = glyph
    return found


def tile_glyph(state: State, action: Action, tiles: dict[str, Sides]) -> str:
    """A small drawing of the tile ``action`` plays (a kind with sides, ``tiles``: :func:`cli.web.sides.tile_sides`)
    as it would lie, turned as the action turns it (``place T1 as 1 at 2,0``: its sides one step clockwise), for the
    action's entry in the page's list and its preview on the board; ``""`` for an action playing no such tile, or one
    the ruleset fails on.  The action is played on a copy, and the tile's face read there.

    Example: in a game of edge-matching tiles, ``tile_glyph(state, action, tile_sides(game, 4))`` is an ``<svg
    class="tile-glyph">`` of four triangles, the first side's value's colour on top.
    """
    sides = laid_sides(state, action, tiles)
    return glyph_svg(sides, len(sides), value_colours(state.game), NEUTRAL) if sides else ""


def chosen_zones(state: State, action: Action) -> list[str]:
    """Where the components lie that ``action`` chooses, when it answers a choice among components, or plays (places,
    picks, commits, casts: the step's ``used_components``): a chip of that name elsewhere (another player's card or
    piece of the same name, the bag it was drawn from) is not what it picks.

    Example: on a choice among the boxes of one's own sheet, ``chosen_zones(state, action)`` is ``["sheet of seat1"]``;
    for ``place A at 0,0`` from one's own bag, ``["bag of seat1"]``.
    """
    zone_names, zone_of = state.game.zone_names, state.zone_of
    return list(dict.fromkeys(zone_names[zone_of[c]] for c in played_components(state, action)))


def last_cells(state: State, move: "Move", text: str, viewer: int | None) -> list[str]:
    """The cells the page outlines for the last move, each as ``x,y``: those its text (as ``viewer`` reads it) names,
    then those whose change on the board ``viewer`` sees — a piece put down or taken away (every seat sees the
    board's pieces, a face-down one as its back), or a piece replaced or turned over where it sees both now — so a
    move written without its cells (a piece named, a line turned over) still shows where it landed and what it did.

    >>> import engine
    >>> from cli.web.tables import Move, board_changes
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> t = s.clone(); t.apply(t.legal_actions()[0])
    >>> moved = board_changes(s, t)
    >>> last_cells(t, Move(1, 1, "", "", [], moved), "", None) == [f"{x},{y}" for (x, y), _, _ in moved]
    True
    """
    found = cells_in(text, state.game)
    for (x, y), old, new in move.changed:
        seen = old is None or new is None or not hidden_from(state, new, viewer) and (
            old == new or not hidden_from(state, old, viewer))
        if seen and f"{x},{y}" not in found:
            found.append(f"{x},{y}")
    return found


def cells_in(text: str, game: Game) -> list[str]:
    """The board cells an action's text names, each as ``x,y`` (the page's ``data-cell``), read as ``game`` writes
    its cells (``cell_names``: by their names), and, on a board of named points, the points it names by their names
    (a map's land chosen as the component of the land's name, ``choose Hilltop``).

    >>> import engine
    >>> cells_in("move 0,1 to -1,2", engine.load(engine.builtin_names()[0]))
    ['0,1', '-1,2']
    """
    names = game.cell_names
    found = [f"{x},{y}" for x, y in names.found_in(text)] if names.named else names.cell_words(text)
    board = game.grid
    if isinstance(board, PointsBoard) and board.names:
        found += [f"{x},{y}" for x, y in named_points(board, text) if f"{x},{y}" not in found]
    return found


def named_points(board: PointsBoard, text: str) -> list[tuple[int, int]]:
    """The points ``text`` names by their names, each a whole word (or words), in the order it names them.

    >>> board = PointsBoard(points=(("Hilltop", (0, 0)), ("Hilltop Farm", (1, 0)), ("Lakeside", (2, 0))), links=())
    >>> named_points(board, "attack Hilltop Farm from Lakeside"), named_points(board, "choose Hilltops")
    ([(1, 0), (2, 0)], [])
    """
    longest_first = sorted(board.names, key=len, reverse=True)
    pattern = r"(?<!\w)(?:" + "|".join(re.escape(name) for name in longest_first) + r")(?!\w)"
    return [board.names[m.group()] for m in re.finditer(pattern, text)]
