"""What the browser table draws, read from its SVG without a browser: stacks of several players' pieces, maps of
named points one apart, tiles whose edges the ruleset declares."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from engine.model.state import State

pytest.importorskip("starlette", reason="the web extra is not installed")

from cli.web.svg import board_svg, value_colours
from cli.web.view import table_html
from tests.conftest import shipped_game

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def majority(placements: list[str], players: int = 3) -> State:
    """A game of the majority map after ``placements``, each ``COLOUR AREA`` (a cube of that colour into that area,
    whoever's turn it is: the map's areas are one apart, Northmarch at 0,0)."""
    state = engine.load(str(DATA / "majority-map")).new_state(players=players, seed=1)
    for text in placements:
        colour, area = text.split()
        cube = next(c for c in state.zones[state.game.zone_names.index(f"stock of {colour}")])
        state.place(cube, state.game.grid.names[area])
    return state


def cell_drawn(svg: str, cell: str) -> str:
    found = re.search(rf'<g class="cell" data-cell="{cell}">(.*?)</g>(?=<g class="cell"|</svg>)', svg)
    assert found is not None, f"no piece drawn at {cell}"
    return found[1]


def test_a_cell_holding_several_players_pieces_shows_each_players_count() -> None:
    """An area holding three Red cubes and two Blue ones was drawn as its top cube with '+4': whose the four were,
    nobody could read. Each player's pieces are now a disc of their colour saying how many, the top one's first."""
    state = majority(["Red Northmarch"] * 3 + ["Blue Northmarch"] * 2 + ["Green Eastwatch"])
    colours = value_colours(state.game)
    drawn = cell_drawn(board_svg(state), "0,0")
    discs = re.findall(r'<circle class="kind"[^>]*fill="([^"]+)"[^>]*/><text[^>]*>(\d+)</text>', drawn)
    assert discs == [(colours["Blue"], "2"), (colours["Red"], "3")]
    assert "above Blue, Red ×3" in drawn  # its title: the pieces from the top down, a run counted
    assert 'class="kind"' not in cell_drawn(board_svg(state), "1,0")  # a piece alone is drawn as before


def test_a_stack_of_one_kind_says_how_many_pieces_lie_there() -> None:
    """'+4' on a stack of five counted the pieces beneath, not how many stood there: the badge says ×5."""
    state = majority(["Red Southfields"] * 5)
    drawn = cell_drawn(board_svg(state), "0,1")
    assert re.search(r'class="stack( small)?"[^>]*>×5</text>', drawn) and 'class="kind"' not in drawn


def test_the_legend_names_the_colours_of_pieces_beneath_a_stacks_top() -> None:
    """The legend named only the top pieces' colours: Blue, every cube of it under a Red one, was missing from it."""
    state = majority(["Blue Westmoor"] * 8 + ["Red Westmoor"])
    assert "Blue" in re.search(r'<ul class="legend">(.*?)</ul>', table_html(state, 1))[1]


def test_the_names_of_points_one_apart_are_written_whole_at_their_size() -> None:
    """On a map whose areas lie one apart their names ran into each other (written small, 'Southfiel…'): the map is
    spread out so that each is whole, at its usual size; a map with room for its names keeps its size."""
    svg = board_svg(majority([]))
    names = re.findall(r'<text [^>]*class="point-name"([^>]*)>([^<]*)</text>', svg)
    assert sorted(name for _, name in names) == ["Eastwatch", "Northmarch", "Southfields", "Westmoor"]
    assert all("font-size" not in attrs for attrs, _ in names)
    across = re.search(r'<line class="link" x1="([\d.]+)" y1="35.0" x2="([\d.]+)" y2="35.0"/>', svg)
    assert float(across[2]) - float(across[1]) == 92  # one step is 92 units, where it was 46
    frontiers = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "frontiers"))
    assert 'viewBox="0 0 346 ' in board_svg(frontiers.new_state(players=2, seed=1))  # 24 + 46 + 6 * 46, as before


EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def placed(ruleset: Path, actions: list[str]) -> State:
    state = engine.load(str(ruleset)).new_state(players=2, seed=1)
    for text in actions:
        state.apply(state.parse_action(text))
    return state


def sides_drawn(svg: str, cell: str) -> list[str]:
    return re.findall(r'<polygon class="side" points="[^"]*" fill="([^"]+)"', cell_drawn(svg, cell))


def test_a_tiles_sides_are_drawn_in_their_values_colours_turned_as_it_lies() -> None:
    """Meadows' tiles (four terrains on their edges, turned by the face up) were drawn as their names with the turn
    written beneath ('0'): nobody could see whether two edges matched. Each side is now drawn in its terrain's
    colour, turned as the tile lies, the terrains in the legend."""
    state = shipped_game(str(EXAMPLES / "meadows")).new_state(players=2, seed=1)
    tile = next(str(a) for a in state.legal_actions() if " as 1 at " in str(a))  # turned once clockwise
    state.apply(state.parse_action(tile))
    cid = state.grid[tuple(int(n) for n in tile.rsplit(" ", 1)[1].split(","))]
    game, colours = state.game, value_colours(state.game)
    north, east, south, west = game.attributes["edges"][state.face[cid]][cid]  # as printed
    cell = tile.rsplit(" ", 1)[1]
    svg = board_svg(state)
    assert sides_drawn(svg, cell) == [colours[v] for v in (west, north, east, south)]  # west's edge now on top
    assert f"sides {west}, {north}, {east}, {south} (clockwise from the top)" in cell_drawn(svg, cell)
    assert not re.search(r'class="(label|face)"', cell_drawn(svg, cell))  # neither its name nor its turn as text
    legend = re.search(r'<ul class="legend">(.*?)</ul>', table_html(state, 1))
    shown = {v for c in state.grid.values() for v in game.attributes["edges"][0][c]}
    assert legend is not None and shown <= set(re.findall(r"</span>(\w+) <small>", legend[1]))
    hand = re.search(r'<section class="zone mine" data-zone="hand of \w+">(.*?)</section>', table_html(state, 2))
    assert hand is not None and hand[1].count('class="side"') == 4  # the tile drawn next: its sides on its chip


def test_a_hex_tiles_six_sides_turn_and_other_lists_are_not_sides() -> None:
    """On a hex board a tile has six sides, from the upper right clockwise; a kind whose lists are not one value per
    side on every component (a marker of three values beside one of six) is drawn as a piece."""
    state = placed(DATA / "hex-sides", ["place one-sea as 2 at 0,0", "place short at 1,0", "place long at -1,0"])
    colours = value_colours(state.game)
    svg = board_svg(state)
    assert sides_drawn(svg, "0,0") == [colours["Sand"]] * 2 + [colours["Sea"]] + [colours["Sand"]] * 3
    assert "(clockwise from the upper right)" in cell_drawn(svg, "0,0")
    assert sides_drawn(svg, "1,0") == sides_drawn(svg, "-1,0") == []


def test_a_points_last_move_outline_goes_around_its_piece() -> None:
    """The last move's outline on a board of points was the small point's, which the piece put there covers: the
    move just made showed nowhere. A ring around the piece (or its stack's discs) is outlined instead."""
    state = majority(["Red Eastwatch"] + ["Red Westmoor", "Blue Westmoor"])
    svg = board_svg(state)
    for cell, piece in (("1,0", r'<circle cx="[\d.]+" cy="[\d.]+" r="([\d.]+)"'), ("1,1", None)):
        drawn = cell_drawn(svg, cell)
        ring = re.search(r'</g><circle class="ring" cx="[\d.]+" cy="[\d.]+" r="([\d.]+)"/>', drawn)  # after the piece
        assert ring is not None
        if piece:
            assert float(ring[1]) > float(re.search(piece, drawn)[1])
        else:  # beyond the farthest of its discs
            discs = re.findall(r'<circle class="kind" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', drawn)
            centre = re.search(r'<circle class="hit" cx="([\d.]+)" cy="([\d.]+)"', drawn)
            assert all(((float(x) - float(centre[1])) ** 2 + (float(y) - float(centre[2])) ** 2) ** 0.5 + float(r)
                       < float(ring[1]) for x, y, r in discs)


def test_a_stacking_maps_names_keep_clear_of_the_stacks_beneath_them(tmp_path: Path) -> None:
    """Short names one step apart down a column of a map that stacks: a name under one stack's discs ran into the
    discs of the stack beneath it. Such a map is spread, so the next point down is past the name."""
    text = (DATA / "majority-map" / "ruleset.yaml").read_text()
    short = text.replace("Northmarch", "N").replace("Eastwatch", "E").replace("Southfields", "S").replace("Westmoor", "W")
    (tmp_path / "ruleset.yaml").write_text(short)
    state = engine.load(str(tmp_path)).new_state(players=3, seed=1)
    for colour in ("Red", "Blue", "Green"):  # three players' cubes in each: discs in two rows
        for area in ("N", "S"):
            cube = next(iter(state.zones[state.game.zone_names.index(f"stock of {colour}")]))
            state.place(cube, state.game.grid.names[area])
    svg = board_svg(state)
    name = re.search(r'<text x="[\d.]+" y="([\d.]+)" class="point-name"[^>]*>N</text>', svg)
    below = re.findall(r'<circle class="kind" cx="[\d.]+" cy="([\d.]+)" r="([\d.]+)"', cell_drawn(svg, "0,1"))
    assert name is not None and below
    assert all(float(cy) - float(r) > float(name[1]) + 2 for cy, r in below)  # the discs beneath start below the name


def test_values_of_two_types_that_colour_pieces_get_different_colours() -> None:
    """Fleet's charts are coloured by their side (North, South), its marks by hit or miss: both types took the
    palette from its start, so North and Hit were one red, South and Miss one green, on the board and in the legend;
    Spell Cycles' diamonds took the palette's green beside its green pyramids.  The palette now goes on from one
    type that colours pieces to the next, passing over a colour close to one a value has of its own."""
    from cli.piece_labels import value_label
    from cli.web.svg import _near, _rgb

    for name in ("fleet", "spell-cycles"):
        game = engine.load(str(DATA.parent.parent / "docs" / "examples" / name) if name == "fleet" else name)
        colours = value_colours(game)
        shown = {value_label(game, c, f) for c, faces in enumerate(game.face_count) for f in range(faces)}
        owner = {value: kind for kind, values in game.types.items() for value in values if value in shown}
        by_colour: dict[str, set[str]] = {}
        for value, kind in owner.items():
            by_colour.setdefault(colours[value], set()).add(kind)
        assert len(set(owner.values())) >= 2 and all(len(kinds) == 1 for kinds in by_colour.values()), (name, by_colour)
        close = [(a, b) for a in owner for b in owner if owner[a] != owner[b] and _near(_rgb(colours[a]), _rgb(colours[b]))]
        assert not close, (name, close)


EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def routes_after(actions: list[str], players: int = 2) -> State:
    """docs/examples/routes (seed 3) after ``actions``, each the text of a legal action."""
    state = shipped_game(str(EXAMPLES / "routes")).new_state(players=players, seed=3)
    for text in actions:
        state.apply(state.parse_action(text))
    return state


def edge_drawn(svg: str, name: str) -> str:
    found = re.search(rf'<g class="edge[^"]*" data-name="{name}"[^>]*>(.*?)</g>', svg)
    assert found is not None, f"{name} is not drawn along its link"
    return found[0]


def test_a_claimed_route_is_drawn_along_its_link_in_its_owners_colour() -> None:
    """A route claimed (a component naming its two points, in its owner's zone) was drawn nowhere on the map: the
    board showed its links alike, claimed or not, and who held which was read from the zones' lists alone. Now a
    route lies along its link, a band in its owner's colour with the seat's number, and an open one is its link
    dashed in the route's own colour; a ticket, whose two cities no link joins, is not taken for a route."""
    from cli.web.edges import link_kinds
    from cli.web.svg import role_colours

    state = routes_after(["choose claim a route", "choose Glenn-Harrow"])
    game = state.game
    assert link_kinds(game) == {"route": ("a", "b")}
    svg = board_svg(state, state.observation(1)["zones"], 1)
    claimed = edge_drawn(svg, "Glenn-Harrow")
    band, mark = role_colours(game, state.seat_of)["seat1"]
    assert 'class="edge claimed"' in claimed and 'data-zone="claimed of seat1"' in claimed
    assert 'class="edge-band"' in claimed and f'stroke="{band}"' in claimed and f">{mark}</text>" in claimed
    ends = {tuple(map(float, re.search(rf'data-cell="{cell}">.*?class="point" cx="([\d.]+)" cy="([\d.]+)"', svg).groups()))
            for cell in ("4,2", "6,2")}  # Glenn's and Harrow's points
    line = re.search(r'class="edge-band" x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"', claimed)
    assert line is not None and {tuple(map(float, line.groups()[:2])), tuple(map(float, line.groups()[2:]))} == ends
    opened = edge_drawn(svg, "Ash-Bray")
    assert 'class="edge"' in opened and 'class="edge-open"' in opened and value_colours(game)["Red"] in opened
    assert "Ash-Dunmore" not in svg and "ticket" not in svg  # tickets lie in hidden zones, and on no link
    assert band not in value_colours(game).values()  # a seat's band is no route's colour
    html = table_html(state, 1)
    assert "seat 1&#x27;s route" in html or "seat 1's route" in html  # the legend names the band's colour


def test_what_lies_on_a_link_is_drawn_only_where_the_seat_sees_it() -> None:
    """The routes drawn come from the zones the seat sees: a route in a zone hidden from it is not drawn (a hidden
    zone reaches the page only as a count)."""
    state = routes_after(["choose claim a route", "choose Glenn-Harrow"])
    seen = state.observation(2)["zones"]
    hidden = {**seen, "claimed of seat1": {"hidden": 1}}
    assert "Glenn-Harrow" in board_svg(state, seen, 2)
    assert "Glenn-Harrow" not in board_svg(state, hidden, 2)


def test_a_land_held_is_marked_on_its_point_in_its_holders_colour_with_its_armies() -> None:
    """Frontiers' lands are components naming their points (spot: cell), held in each player's zone: the map drew
    every point alike, so whose a land was, and its armies, were read from the zones and the counters below. Each
    point held is now a disc in its holder's colour, saying the land's armies."""
    from cli.web.edges import point_kinds
    from cli.web.svg import role_colours

    state = shipped_game(str(EXAMPLES / "frontiers")).new_state(players=2, seed=1)
    game = state.game
    assert point_kinds(game) == {"land": "spot"}
    seen = state.observation(1)["zones"]
    svg = board_svg(state, seen, 1)
    owners = role_colours(game, state.seat_of)
    armies = game.counters["armies"]
    marked = 0
    for zone, lands in seen.items():
        role = game.zone_owner[game.zone_names.index(zone)]
        for land in lands if role in owners else ():
            cid = game.piece_names.index(land)
            found = re.search(rf'<g class="held" data-name="{land}" data-zone="{zone}">(.*?)</g>', svg)
            assert found is not None, land
            army = state.counters[armies.offset + armies.owners.index(cid)]
            assert f'fill="{owners[role][0]}"' in found[1] and f">{army}</text>" in found[1], found[1]
            marked += 1
    assert marked == 9  # every land dealt
    assert len({colour for colour, _ in owners.values()}) == 2


ROADS = """\
name: roads
title: Roads
version: 1
description: Build a road along a link, then settle a point; the most roads win.
players: [2]
types:
  side: [Red, Blue]
roles:
  of: side
board:
  kind: points
  points: {a: [0, 0], b: [2, 0], c: [1, 2]}
  links: [[a, b, c, a]]
components:
  road:
    attributes: {a: cell, b: cell}
    instances: [{id: a-b, a: a, b: b}, {id: b-c, a: b, b: c}, {id: c-a, a: c, b: a}]
  town:
    attributes: {side: side}
    instances: [{id: red-town, side: Red}, {id: blue-town, side: Blue}]
zones:
  free: {kind: pile}
  built: {kind: pile, per: role}
  camp: {kind: pile, per: role}
setup: |
  move(r in roads, free)
  for s in roles:
    move(t in towns where t.side == s, camp(s))
turn:
  - do:
      effect: move(choose(r in free, text = "build a road"), built(current_role))
  - place: {from: camp, touching: false, optional: true}
end:
  when: count(free) == 0
scoring:
  rank: r in roles
  by: [count(built(r))]
  points: key
"""
"""Roads along the links of three points, built by two sides whose roles are values with colours (Red, Blue)."""


def test_a_road_of_a_role_with_a_colour_is_drawn_in_that_colour_and_named_once(tmp_path: Path) -> None:
    """A road built by a role that is a value with a colour (a side Red) takes that colour, and the legend, which
    names Red for its town on the board, does not name it a second time for its roads; a road with no colour of its
    own is its holder's band alone, and an open one its link alone, not drawn again."""
    (tmp_path / "roads").mkdir()
    (tmp_path / "roads" / "ruleset.yaml").write_text(ROADS, encoding="utf-8")
    state = engine.load(str(tmp_path / "roads")).new_state(players=2, seed=1)
    state.apply(state.parse_action("choose a-b"))
    state.apply(state.parse_action("place red-town at 0,0"))
    red = value_colours(state.game)["Red"]
    svg = board_svg(state, state.observation(1)["zones"], 1)
    built = edge_drawn(svg, "a-b")
    assert 'class="edge-band"' in built and f'stroke="{red}"' in built and "edge-own" not in built
    assert "edge-open" not in edge_drawn(svg, "b-c")  # lit and clicked there, but the link is what shows
    legend = re.search(r'<ul class="legend">(.*?)</ul>', table_html(state, 1))
    assert legend is not None and legend[1].count(">Red <") == 1, legend[1]


def test_a_road_of_a_hidden_role_does_not_tell_whose_seat_built_it(tmp_path: Path) -> None:
    """Where roles are hidden, a seat does not know who plays which side: a road marked with its builder's seat number
    (and a legend saying seat 1's road) would tell it. A hidden role's road is marked by the role's own name."""
    (tmp_path / "roads").mkdir()
    (tmp_path / "roads" / "ruleset.yaml").write_text(ROADS.replace("  of: side", "  of: side\n  hidden: true"),
                                                     encoding="utf-8")
    state = engine.load(str(tmp_path / "roads")).new_state(players=2, seed=1)
    state.apply(state.parse_action("choose a-b"))
    builder = state.game.zone_owner[next(zi for zi, zone in enumerate(state.zones)
                                          if state.game.piece_names.index("a-b") in zone)]
    other = 2 if state.seat_of[builder] == 1 else 1
    html = table_html(state, other)
    built = edge_drawn(html, "a-b")
    assert f">{builder[:2]}</text>" in built and ">1</text>" not in built and ">2</text>" not in built
    assert "seat 1&#x27;s" not in html and "seat 1's" not in html and "seat 2's" not in html


def test_a_cards_chip_says_what_its_face_holds_not_only_its_name() -> None:
    """A card of the market row was a chip with its name alone ('Village'): what it cost and the points it was worth
    were read in the rules, nowhere on the table. Its title (the pointer resting on it, a screen reader's description)
    now says each number, value and cell its face holds; its program's text stays out, and a hidden card has no chip."""
    state = shipped_game(str(EXAMPLES / "market-row")).new_state(players=2, seed=4)
    html = table_html(state, 1)
    row = re.search(r'data-zone="row">(.*?)</section>', html)
    assert row is not None
    titles = dict(re.findall(r'data-name="([^"]+)" title="([^"]+)"', row[1]))
    game = state.game
    for name, title in titles.items():
        cid = game.piece_names.index(name)
        assert title == f"{name}: cost {game.attributes['cost'][0][cid]}, coins {game.attributes['coins'][0][cid]}, " \
                        f"points {game.attributes['points'][0][cid]}"
    assert titles and "current_role" not in html
    market = [game.piece_names[c] for c in state.zones[game.zone_names.index("market")]]
    assert not [name for name in set(market) - set(titles) if f'data-name="{name}"' in html]  # face down: no chip
    chess = shipped_game(str(EXAMPLES / "chess")).new_state(players=2, seed=1)
    assert 'title="Q: colour White, figure queen"' in table_html(chess, 1)  # a value of a type, by its attribute
    homestead = shipped_game(str(EXAMPLES / "homestead")).new_state(players=2, seed=1)
    assert 'title="Forest: capacity 1, wood_cost 0, stone_cost 0, grows false"' in table_html(homestead, 1)  # as written


TOWERS = """\
name: towers
title: Towers
version: 1
description: Discs of two colours stacked on a small hex board, each with a power counter.
players: [2]
types:
  colour: [Red, Blue]
roles:
  of: colour
  seating:
    2: [1, 2]
components:
  disc:
    attributes: {colour: colour}
    instances:
      - {id: Red, colour: Red, count: 6}
      - {id: Blue, colour: Blue, count: 6}
counters:
  power: {per: disc, min: 0}
board:
  kind: hex
  width: 4
  height: 4
  stacking: true
zones:
  bowl: {kind: pile, per: role}
setup: |
  for r in roles:
    move(s in discs where s.colour == r, bowl(r))
turn:
  - place:
      from: bowl
      touching: false
      then: power(placed) += 10 + count(stack(placed.cell))
end:
  when: all(count(bowl(r)) == 0 for r in roles)
scoring:
  rank: r in roles
  by: [count(bowl(r))]
  points: key
"""


def test_a_hex_stacks_count_and_a_discs_counters_stay_inside_its_hex(tmp_path: Path) -> None:
    """On a hex board a stack's ×3 was drawn at the disc's lower right, past its hex's edge, where the next hex,
    drawn after it, covered half of it; a disc's counters were written on the line between two hexes, as if the
    neighbour's. Both now lie inside the hex: the badge on the disc's lower half, the label lifted above it."""
    (tmp_path / "towers").mkdir()
    (tmp_path / "towers" / "ruleset.yaml").write_text(TOWERS, encoding="utf-8")
    state = engine.load(str(tmp_path / "towers")).new_state(players=2, seed=1)
    for text in ["place Red at 1,1", "place Blue at 2,1", "place Red at 1,1", "place Blue at 0,0", "place Red at 1,1"]:
        state.apply(state.parse_action(text))
    drawn = cell_drawn(board_svg(state), "1,1")
    corners = [tuple(map(float, point.split(","))) for point in re.search(r'class="hexagon" points="([^"]+)"', drawn)[1].split()]
    cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
    half_width = max(x for x, _ in corners) - cx  # the hex's flat sides, left and right

    def inside(x: float, y: float) -> bool:  # within the hex: between its sides, under and over its slanted edges
        return abs(x - cx) <= half_width and abs(y - cy) <= half_width * 2 / 3 ** 0.5 - abs(x - cx) / 3 ** 0.5

    badge = re.search(r'<rect class="stack-badge" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', drawn)
    assert badge is not None and re.search(r'>×3</text>', drawn)
    x, y, wide, high = map(float, badge.groups())
    assert all(inside(px, py) for px in (x, x + wide) for py in (y, y + high)), (badge.groups(), cx, cy)
    count = re.search(r'<text x="([\d.]+)" y="([\d.]+)" class="count ringed"[^>]*>(\d+)</text>', drawn)
    assert count is not None and count[3] == "13"  # the top disc's power: 10 and the three discs there
    assert inside(float(count[1]), float(count[2])) and inside(float(count[1]) - 14, float(count[2]) - 9)  # two digits
