"""What a seat holds of a board of points' links and points, drawn on them: a route claimed, a road built, a land held.

A ruleset whose players take the links of a board of points (routes, roads, rails) writes each link as a component
naming its two ends by two attributes of type ``cell`` (see the rulesets' guide, *When the links are what players
take*).  A kind is such a kind of links when it has exactly two attributes of type ``cell`` and, on every component
of it, they name two points a link of the board joins: a ticket naming two cities no link joins is not one.  Such a
component is drawn along its link wherever the seat sees it lie: in a zone of a role (claimed, built) as a broad band
in that role's colour with the role's mark at its middle; in a zone of nobody's (open, still to take) as a dashed line
in its own value's colour (the link alone when it has none).  Two such components of one link (a double route) lie
side by side.

A point is held the same way: a kind whose components each name one point of the board by its one attribute of type
``cell`` (a map's lands: ``spot: P``) marks the point of each component lying in a role's zone with a disc in
that role's colour, saying the component's counters there (its armies) or else the seat's number.

Typical use::

    kinds = link_kinds(game)                                  # {'route': ('a', 'b')}
    owners = role_colours(game, state.seat_of)                # cli.web.svg's: {'A': ('#9467bd', '1'), ...}
    parts = links_svg(game, seen, centre, colours, kinds, owners)  # ['<g class="edge" data-name="P-Q" ...', ...]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cli.piece_labels import value_label
from engine.blocks.pointsboard import PointsBoard
from engine.core.showtext import html_safe as escape

if TYPE_CHECKING:
    from engine import Game

Cell = tuple[int, int]

BAND, OPEN = 10.0, 5.0
"""The widths of a link's band in its owner's colour and of a link still to take, in SVG units."""


def link_kinds(game: Game) -> dict[str, tuple[str, str]]:
    """The kinds whose components lie on links, by kind, with their two ``cell`` attributes (none without a board
    of points).

    Example: a kind ``route`` with ``a: cell, b: cell`` and every route's ends linked is ``{'route': ('a', 'b')}``;
    a kind ``ticket`` one of whose tickets names two points no link joins is not listed.
    """
    board = game.grid
    if not isinstance(board, PointsBoard):
        return {}
    cells = [name for name, kind in game.attribute_types.items() if kind == "cell"]
    joined = {frozenset(link) for link in board.links}
    members: dict[str, list[int]] = {}
    for cid, kind in enumerate(game.component_kind):
        members.setdefault(kind, []).append(cid)
    found: dict[str, tuple[str, str]] = {}
    for kind, cids in members.items():
        held = [name for name in cells if all(game.attributes[name][0][cid] is not None for cid in cids)]
        if len(held) == 2 and all(_ends(game, cid, held) in joined for cid in cids):
            found[kind] = (held[0], held[1])
    return found


def _ends(game: Game, cid: int, names: list[str] | tuple[str, str]) -> frozenset[Cell]:
    """The two points component ``cid`` names (its first face's values of the two attributes ``names``)."""
    return frozenset(tuple(game.attributes[name][0][cid]) for name in names)


def links_svg(game: Game, seen: dict[str, Any], centre: Callable[[Cell], tuple[float, float]],
              colours: dict[str, str], kinds: dict[str, tuple[str, str]], owners: dict[str, tuple[str, str]]) -> list[str]:
    """The components of ``kinds`` the seat sees (``seen``: its zones, a hidden one a count) drawn along their links,
    ``centre`` placing a point, ``owners`` each role's colour and mark (:func:`cli.web.svg.role_colours`); a component
    of nobody's zone without a colour of its own is the link itself, not drawn again (but lit, and clicked, where an
    action plays it).

    Example: ``P-Q`` in ``claimed of A`` is ``<g class="edge claimed" data-name="P-Q" data-zone="claimed of A">``
    with a band in A's colour from point P to point Q and A's mark at its middle.
    """
    placed: dict[frozenset[Cell], list[tuple[int, str]]] = {}
    for name, content in seen.items():
        zi = game.zone_names.index(name)
        if zi == game.board_zone or not isinstance(content, list):
            continue
        for piece in content:
            cid = game.piece_names.index(piece)
            ends = kinds.get(game.component_kind[cid])
            if ends is not None:
                placed.setdefault(_ends(game, cid, ends), []).append((cid, name))
    parts: list[str] = []
    for link, lying in placed.items():
        a, b = sorted(link)
        (x1, y1), (x2, y2) = centre(a), centre(b)
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
        across = (-(y2 - y1) / length, (x2 - x1) / length)  # one band beside another on a double route
        for i, (cid, zone) in enumerate(lying):
            shift = (i - (len(lying) - 1) / 2) * (BAND + 2)
            ox, oy = across[0] * shift, across[1] * shift
            drawn = _edge(game, cid, zone, (x1 + ox, y1 + oy, x2 + ox, y2 + oy), colours, owners)
            if drawn:
                parts.append(drawn)
    return parts


def _edge(game: Game, cid: int, zone: str, line: tuple[float, float, float, float], colours: dict[str, str],
          owners: dict[str, tuple[str, str]]) -> str:
    """One component on its link, from ``line``'s first end to its second (see :func:`links_svg`)."""
    zi = game.zone_names.index(zone)
    role = game.zone_owner[zi]
    own = colours.get(value_label(game, cid, 0))
    name = game.piece_names[cid]
    x1, y1, x2, y2 = line
    at = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
    head = f'<g class="edge{" claimed" if role else ""}" data-name="{escape(name)}" data-zone="{escape(zone)}">'
    # a clear band, wider than what is drawn, that takes the clicks and is lit where an action plays the component
    title = f'<title>{escape(name)} in {escape(zone)}</title><polygon class="edge-hit" points="{_band(line, BAND + 8)}"/>'
    if role is None:
        return head + title + (f'<line class="edge-open" {at} stroke="{own}" stroke-width="{OPEN}"/>' if own else "") + "</g>"
    fill, mark = owners.get(role, ("#555", ""))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    stripe = f'<line class="edge-own" {at} stroke="{own}" stroke-width="2"/>' if own else ""
    return (head + title + f'<line class="edge-band" {at} stroke="{fill}" stroke-width="{BAND}"/>' + stripe
            + f'<circle class="edge-disc" cx="{mx:.1f}" cy="{my:.1f}" r="8" fill="{fill}"/>'
            + f'<text class="edge-mark" x="{mx:.1f}" y="{my + 3.5:.1f}" text-anchor="middle">{escape(mark)}</text></g>')


def link_legend(game: Game, seen: dict[str, Any], owners: dict[str, tuple[str, str]]) -> list[tuple[str, str, str]]:
    """``(role, words, colour)`` for the legend: each role holding a component drawn along a link or on a point
    (``seen``, the zones the seat sees), the colour of its bands and discs (``owners``, each role's colour and mark),
    and words saying so (``seat 1's route``, ``seat 2's land``).

    Example: in a game whose seat 1, ``A``, claimed a route, ``[('A', "seat 1's route", '#9467bd')]``.
    """
    kinds = {**link_kinds(game), **point_kinds(game)}
    if not kinds:
        return []
    found: dict[str, str] = {}
    for name, content in seen.items():
        role = game.zone_owner[game.zone_names.index(name)]
        if role in owners and isinstance(content, list):
            found.update((role, game.component_kind[game.piece_names.index(piece)]) for piece in content
                         if game.component_kind[game.piece_names.index(piece)] in kinds and role not in found)
    hidden = game.roles is not None and game.roles.hidden  # the role's own name: its seat is not told
    return [(role, f"{role}'s {kind}" if hidden else f"seat {owners[role][1]}'s {kind}", owners[role][0])
            for role, kind in found.items()]


def _band(line: tuple[float, float, float, float], wide: float) -> str:
    """The corners of a band ``wide`` across along ``line`` (from its first end to its second), as SVG points: a
    shape with an area, which a line drawn thick is not to a page asking whether it shows (a level one is 0 tall).

    >>> _band((0, 0, 10, 0), 4)
    '0.0,-2.0 10.0,-2.0 10.0,2.0 0.0,2.0'
    """
    x1, y1, x2, y2 = line
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ox, oy = -(y2 - y1) / length * wide / 2, (x2 - x1) / length * wide / 2
    corners = ((x1 - ox, y1 - oy), (x2 - ox, y2 - oy), (x2 + ox, y2 + oy), (x1 + ox, y1 + oy))
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def point_kinds(game: Game) -> dict[str, str]:
    """The kinds whose components stand for points of a board of points, by kind, with their ``cell`` attribute: a
    kind with exactly one attribute of type ``cell``, naming a point of the board on every component, each its own
    (none without a board of points).

    Example: a kind ``land`` with ``spot: cell``, each land's spot a point of its own, is ``{'land': 'spot'}``.
    """
    board = game.grid
    if not isinstance(board, PointsBoard):
        return {}
    cells = [name for name, kind in game.attribute_types.items() if kind == "cell"]
    points = set(board.cells)
    members: dict[str, list[int]] = {}
    for cid, kind in enumerate(game.component_kind):
        members.setdefault(kind, []).append(cid)
    found: dict[str, str] = {}
    for kind, cids in members.items():
        held = [name for name in cells if all(game.attributes[name][0][cid] is not None for cid in cids)]
        spots = [tuple(game.attributes[held[0]][0][cid]) for cid in cids] if len(held) == 1 else []
        if spots and len(set(spots)) == len(spots) and set(spots) <= points:
            found[kind] = held[0]
    return found


def held_points(game: Game, seen: dict[str, Any], owners: dict[str, tuple[str, str]]) -> dict[Cell, tuple[int, str]]:
    """The points whose component (:func:`point_kinds`) lies in a role's zone the seat sees (``seen``), each with the
    component and that zone (``owners``: the roles a seat plays, see :func:`cli.web.svg.role_colours`).

    Example: the land ``L`` (spot ``0,2``) in ``held of B`` is ``{(0, 2): (cid of L, 'held of B')}``.
    """
    kinds = point_kinds(game)
    found: dict[Cell, tuple[int, str]] = {}
    for name, content in seen.items():
        role = game.zone_owner[game.zone_names.index(name)]
        if not kinds or role not in owners or not isinstance(content, list):
            continue
        for piece in content:
            cid = game.piece_names.index(piece)
            spot = kinds.get(game.component_kind[cid])
            if spot is not None:
                found[tuple(game.attributes[spot][0][cid])] = (cid, name)
    return found


def held_disc(game: Game, cid: int, zone: str, centre: tuple[float, float], radius: float,
              owners: dict[str, tuple[str, str]], counts: list[tuple[str, int]]) -> str:
    """A point held (:func:`held_points`): a disc of ``radius`` in its holder's colour at ``centre``, saying the
    component's counters (``counts``, :func:`cli.piece_labels.piece_counts`: its armies) or else the seat's number, titled
    with the component, its zone and its counters.

    Example: a land ``L`` held by seat 2 with 3 armies is a disc in seat 2's colour reading ``3``, titled ``L in held
    of B, armies 3``.
    """
    role = game.zone_owner[game.zone_names.index(zone)]
    fill, mark = owners[role] if role in owners else ("#555", "")
    cx, cy = centre
    said = " ".join(str(value) for _, value in counts) or mark
    title = f"{game.piece_names[cid]} in {zone}" + "".join(f", {name} {value}" for name, value in counts)
    return (f'<g class="held" data-name="{escape(game.piece_names[cid])}" data-zone="{escape(zone)}">'
            f'<title>{escape(title)}</title><circle class="held-disc" cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" '
            f'fill="{fill}"/><text class="edge-mark" x="{cx:.1f}" y="{cy + 3.5:.1f}" text-anchor="middle">'
            f'{escape(said)}</text></g>')



def link_lines(board: PointsBoard, centre: Callable[[Cell], tuple[float, float]], colours: dict[str, str]) -> list[str]:
    """The board's links as lines; on a board whose links have kinds (``links: {Taxi: ..., Bus: ...}``), each kind's
    link in the kind's colour, titled with it, the kinds joining one pair side by side.

    >>> board = PointsBoard(points=(("a", (0, 0)), ("b", (1, 0))), links=(((0, 0), (1, 0)),),
    ...                     kinds=(("Road", (((0, 0), (1, 0)),)), ("Rail", (((0, 0), (1, 0)),))), kind_type="way")
    >>> [line.split(" x1")[0] for line in link_lines(board, lambda c: (c[0] * 40.0, 0.0), {"Road": "#aa0000"})]
    ['<line class="link" data-kind="Road" style="stroke: #aa0000"', '<line class="link" data-kind="Rail"']
    """
    if not board.kinds:
        return [_line(centre(a), centre(b), "") for a, b in board.links]
    kinds_of: dict[frozenset[Cell], list[str]] = {}
    for kind, pairs in board.kinds:
        for pair in pairs:
            kinds_of.setdefault(frozenset(pair), []).append(kind)
    lines = []
    for a, b in board.links:
        (x1, y1), (x2, y2) = centre(a), centre(b)
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 or 1.0
        across = (-(y2 - y1) / length, (x2 - x1) / length)  # a unit step sideways to the link
        kinds = kinds_of[frozenset((a, b))]
        for i, kind in enumerate(kinds):
            step = (i - (len(kinds) - 1) / 2) * KIND_GAP
            dx, dy = across[0] * step, across[1] * step
            colour = f' style="stroke: {escape(colours[kind])}"' if kind in colours else ""
            lines.append(_line((x1 + dx, y1 + dy), (x2 + dx, y2 + dy), f' data-kind="{escape(kind)}"{colour}', kind))
    return lines


KIND_GAP = 4.0
"""How far apart, in SVG units, the links of several kinds joining one pair of points are drawn."""


def _line(a: tuple[float, float], b: tuple[float, float], more: str, title: str = "") -> str:
    """One link's line from ``a`` to ``b``, with ``more`` attributes and a title."""
    titled = f"<title>{escape(title)}</title></line>" if title else "/>"
    return (f'<line class="link"{more} x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"'
            + (">" + titled if title else titled))
