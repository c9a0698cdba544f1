"""Drawing for the terminal: hex boards as offset rows of hexes, zones with counts, hidden roles left out."""

from __future__ import annotations

from pathlib import Path

from cli import board_drawing, render, zone_listing
import engine
from engine.blocks.outcome import Outcome
from engine.core.paths import rulesets_dir
from engine.model.state import State
from engine.runner.scenario import load_scenario, set_up

SAMPLE = rulesets_dir() / "iconoclasm" / "scenarios" / "sample-end-game-air.yaml"


def position(path: Path) -> State:
    scenario = load_scenario(path)
    return set_up(scenario.game, scenario.doc, scenario.doc["position"])


def plain(renderable: object, width: int = 100) -> list[str]:
    console = render.make_console(width=width)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get().splitlines()


def test_a_hex_board_is_drawn_in_offset_rows() -> None:
    state = position(SAMPLE)
    lines = plain(board_drawing.board(state))
    rows = lines[1:10]  # a header, then the 9 rows of a radius-4 board, r = -4 .. 4
    assert [len(row.split()) for row in rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]

    def centre(row: int, text: str) -> float:
        line = rows[row + 4]
        return line.index(text) + len(text) / 2

    # (1,-2), (0,0) and (-1,2) are straight above one another; (0,-2) is half a hex to the left of (1,-2)
    assert centre(-2, "1,-2") == centre(0, "{Ea}") == centre(2, "-1,2")
    assert centre(-2, "1,-2") - centre(-2, "0,-2") == board_drawing.HEX_WIDTH
    assert centre(0, "{Ea}") - centre(-1, "[Ea]") == board_drawing.HEX_WIDTH / 2


def test_a_hex_board_shows_groups_pieces_and_where_to_place() -> None:
    state = position(SAMPLE)
    text = "\n".join(plain(board_drawing.board(state)))
    assert "[Ai]  {Ea}  [Ea]   Ea   3,0" in text  # in a group, its anchor, a free piece, an empty hex next to one
    assert "group at 0,0: Earth-icon (Earth 4, Air 2, Spirit 1)" in text
    state.apply("place Air at 3,0")
    text = "\n".join(plain(board_drawing.board(state)))
    assert "group at 3,-1: Water-icon (Water 2, Air 2, Fire 1, Earth 1, Spirit 1)" in text
    assert "{Ea}" not in text and "{Ai}" in text


def test_square_boards_are_still_tables() -> None:
    state = engine.load("iconoclasm-cards").new_state(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    assert "y\\x" in "\n".join(plain(board_drawing.board(state)))


def test_zones_count_identical_components() -> None:
    state = engine.load("iconoclasm").new_state(players=2, seed=1)
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    assert "supply: Fire x12, Earth x12, Water x12, Air x12, Spirit x12" in lines


def test_bots_roles_are_left_out_when_roles_are_hidden() -> None:
    hidden = engine.load("iconoclasm", "hidden-deities").new_state(players=4, seed=2)
    seat, role = hidden.current_player, hidden.current_role
    assert render.seat_label(hidden, seat) == f"seat {seat} ({role})"
    assert render.seat_label(hidden, seat, own=False) == f"seat {seat}"
    open_game = engine.load("iconoclasm").new_state(players=4, seed=2)
    first = next(r for r in open_game.order if open_game.seat_of[r] == 1)  # open deities are dealt at random too
    assert render.seat_label(open_game, 1, own=False) == f"seat 1 ({first})"



def test_a_seat_asked_during_anothers_turn_is_named_with_its_role() -> None:
    """In Guilds every player builds when Red takes the Builder: the bots' lines read "seat 1 (Red) [random]:
    choose House", then "seat 2 [random]: choose House", Blue's role left out (the turn's role, Red, is not seat 2's)."""
    state = engine.load(Path(__file__).parent.parent / "docs" / "examples" / "guilds").new_state(players=2, seed=1)
    state.apply("choose Builder")
    state.apply("choose pass")
    assert state.seat_to_move == 2 and state.current_role == "Red"
    assert render.seat_label(state, 2, own=False) == "seat 2 (Blue)" and render.seat_label(state, 1) == "seat 1 (Red)"
    pair = engine.load("iconoclasm").new_state(players=2, seed=1)  # a seat playing two deities: which one is not said
    other = 3 - pair.seat_of[pair.current_role]
    assert render.seat_label(pair, other, own=False) == f"seat {other}"


TWO_SIDED = """\
name: crowned
players: [2]
types:
  colour: [Black, White]
roles: {of: colour, seating: {2: [1, 2]}}
components:
  checker:
    faces: [man, king]
    attributes: {colour: colour}
    instances:
      - {id: Black, colour: Black, count: 2}
      - {id: White, colour: White, count: 2}
board: {kind: square-grid, width: 3, height: 2}
display:
  Black: {short: B}
  White: {short: W}
setup: |
  place(p in supply where p.colour == Black, (0, 0))
  place(p in supply where p.colour == White, (2, 1))
  flip(p in board where p.colour == White)
turn:
  - place: {from: supply, face: as-is, touching: false}
end: {when: count(empty_cells) == 0}
scoring: {rank: r in roles, by: [0], points: key}
"""


def test_a_piece_with_faces_shows_whose_it_is_too(tmp_path: Path) -> None:
    """Faces of its own (man, king) and a colour that is the same on both: the cell shows both, the colour first.

    Before, only the faces were drawn (``m/k`` for a Black man and a White man alike): nobody could tell whose it was.
    """
    path = tmp_path / "ruleset.yaml"
    path.write_text(TWO_SIDED, encoding="utf-8")
    state = engine.load(path).new_state(players=2, seed=0)
    lines = plain(board_drawing.board(state))
    assert "Bm/k" in lines[2] and "Wk/m" in lines[3]  # y down: row 0 (Black's man), then row 1 (White's king)
    assert "B Black" in lines[-1] and "W White" in lines[-1] and "k king" in lines[-1]


def test_a_ruleset_without_roles_labels_a_seat_once(tmp_path: Path) -> None:
    text = (Path(__file__).parents[1] / "docs/examples/grundy/ruleset.yaml").read_text()
    bare = text.replace("types:\n  side: [First, Second]\n", "").replace("roles:\n  of: side\n  seating:\n    2: [1, 2]\n", "")
    (tmp_path / "ruleset.yaml").write_text(bare)
    state = engine.load(tmp_path / "ruleset.yaml").new_state(players=2, seed=1)
    assert engine.load(tmp_path / "ruleset.yaml").roles.type_name == "seat"  # the roles are the seats'
    assert render.seat_label(state, 1) == "seat 1" and render.seat_label(state, 1, own=False) == "seat 1"


DICE_TRAY = """\
name: dice-tray
players: [1]
components:
  die:
    faces: [one, two, three, four, five, six]
    attributes:
      pips: {type: int, per_face: true}
    instances:
      - {id: die, count: 4, pips: [1, 2, 3, 4, 5, 6]}
zones:
  tray: {kind: pile}
  cup: {kind: pile, hidden: others, per: role}
setup: |
  move(d in supply, tray, 3)
  move(d in supply, cup(first(r in roles)))
  toss(d in tray)
  toss(d in cup(first(r in roles)))
turn:
  - do:
      effect: toss(d in tray)
end:
  when: false
  max_turns: 1
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_dice_in_a_zone_show_the_faces_they_landed_on_and_the_log_says_so(tmp_path: Path) -> None:
    """Tossed dice were drawn as 'tray: die x3' whatever they showed, and a toss wrote no log line: a player could not
    see what they rolled.  A zone where some component is off its first face names each by its face, as a choice
    among them does (``die as 5``); a toss logs the faces where everyone sees them, else how many were tossed."""
    (tmp_path / "ruleset.yaml").write_text(DICE_TRAY)
    game = engine.load(tmp_path)
    state = game.new_state(players=1, seed=4, record=True)
    tray = [f"die as {game.face_labels[c][state.face[c]]}" for c in state.zones[game.zone_names.index("tray")]]
    assert any(state.face[c] for c in state.zones[game.zone_names.index("tray")])  # some die is off its first face
    line = next(text.plain for text in zone_listing.zones(state, 1) if text.plain.startswith("tray: "))
    assert line == "tray: " + ", ".join(zone_listing.counted(tray))
    assert f"tray: {', '.join(tray)} tossed" in state.log
    assert "cup of seat1: 1 component tossed" in state.log  # hidden from others: not its face


def test_a_piece_of_one_unnamed_face_is_drawn_by_its_name() -> None:
    """Storm watch's houses (a kind without faces or attributes) were drawn 'f' on every cell, with the legend
    'f face': every piece showed the name of its only face.  They are drawn by name now."""
    game = engine.load(Path(__file__).resolve().parents[1] / "docs" / "examples" / "storm-watch")
    lines = plain(board_drawing.board(game.new_state(players=2, seed=3)))
    assert lines[2].split() == ["0", "Mill", "Bakery", "Chapel", "Forge", "Inn", "Well"], lines
    assert "face" not in " ".join(lines)


def test_a_board_wider_than_the_terminal_is_drawn_in_bands_of_columns() -> None:
    """The 24 points of docs/examples/tables take about 120 columns: at 80 the table shrank every cell to ``…``
    and lost its x header.  It is drawn in bands of whole columns instead, each under its own header."""
    state = engine.load(rulesets_dir().parent / "docs" / "examples" / "tables").new_state(players=2, seed=3)
    lines = plain(board_drawing.board(state), width=80)
    assert "…" not in "\n".join(lines) and all(len(line) <= 80 for line in lines)
    headers = [line.split() for line in lines if line.lstrip().startswith("y\\x")]
    assert len(headers) >= 2 and [x for header in headers for x in header[1:]] == [str(x) for x in range(24)]
    rows = [line.split() for line in lines if line.lstrip().startswith("0 ")]
    assert [cell for row in rows for cell in row[1:]][:6] == ["W+1", "·", "·", "·", "·", "B+4"]
    assert plain(board_drawing.board(state), width=200)[0].split()[-1] == "23"  # wide enough: one table, as before


FAR_APART = """
name: far-apart
players: [2]
types:
  mark: [X, O]
components:
  token:
    attributes: {mark: mark}
    instances:
      - {id: X, mark: X, count: 2}
      - {id: O, mark: O, count: 1}
      - {id: spare, mark: X, count: 10000}
board: {kind: square-grid, adjacency: all}
roles: {of: mark, seating: {2: [1, 2]}}
zones:
  marks: {kind: hand, per: role}
turn:
  - place: {from: marks, face: as-is}
end: {when: turn > 2}
scoring: {rank: r in roles, by: [count(t in board where t.mark == r)], points: [1, 0]}
"""
FAR_POSITION = """
name: far apart
ruleset: ..
players: 2
position:
  board: {"0,0": O, "10000,0": X, "10001,1": X}
expect: [is_over]
"""


def test_pieces_far_apart_on_a_growing_board_are_drawn_with_the_empty_runs_between_left_out(tmp_path: Path) -> None:
    """A board without limits holds pieces as far from 0,0 as its components reach (10,003 here: the spares make
    the reach; a scenario, a save or code may put them apart): two a billion cells apart made ``rulecraft play`` (and
    the browser's table) draw every cell of the box around them, gigabytes and minutes.  A run of more than board_drawing.GAP
    empty columns or rows is now drawn as one, marked '…' (here 10,000 apart: 10,004 columns before)."""
    from cli.web.svg import board_svg

    (tmp_path / "ruleset.yaml").write_text(FAR_APART)
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "far.yaml").write_text(FAR_POSITION)
    state = position(tmp_path / "scenarios" / "far.yaml")
    lines = plain(board_drawing.board(state), width=200)
    assert lines[0].split() == ["y\\x", "-1", "0", "1", "…", "9999", "10000", "10001", "10002"]
    assert [line.split()[0] for line in lines[2:6]] == ["-1", "0", "1", "2"]  # rows are left out alike (drawn_span)
    svg = board_svg(state)  # the game is over (no piece in hand): the pieces alone, with a gap between
    assert svg.count('class="cell"') == 3 and "…" in svg and len(svg) < 5_000


def test_the_end_says_a_draw_only_when_every_seat_or_team_shares_the_win() -> None:
    tied = Outcome.from_scores((4, 4, 4))
    assert render.winners_text(tied, {1: "North"}) == "a draw: seats 1 (North), 2 and 3 tie"
    assert render.winners_text(Outcome.from_scores((4, 4, 1))) == "seats 1 and 2 share the win"  # seat 3 lost
    assert render.winners_text(tied, together=True) == "seats 1, 2 and 3 win together"  # a cooperative game
    assert render.winners_text(Outcome((0, 0), (), (0.0, 0.0)), together=True) == "nobody wins"  # lost together
    teams = ((1, 3), (2, 4))
    assert render.winners_text(Outcome.from_scores((2, 1, 2, 3)).for_teams(teams)) == "a draw: teams 1 and 2 tie: seats 1, 2, 3 and 4"
    assert render.winners_text(Outcome.from_scores((2, 2)).for_teams(((1, 2),))) == "seats 1 and 2 win together"


def test_a_team_that_wins_is_named_with_its_seats() -> None:
    """A team's win read "seats 1 and 3 share the win", as if the two seats had tied: the team wins, named by its number
    in ``teams:`` with its seats and their roles."""
    teams = ((1, 3), (2, 4))
    roles = {1: "X", 2: "Y", 3: "Z", 4: "W"}
    assert render.winners_text(Outcome.from_scores((2, 1, 3, 3)).for_teams(teams), roles) == "team 1 wins: seats 1 (X) and 3 (Z)"
    assert render.winners_text(Outcome.from_scores((0, 4, 1, 0)).for_teams(teams)) == "team 2 wins: seats 2 and 4"
    three = ((1, 4), (2, 5), (3, 6))  # two teams of three tie first, the third lost
    assert render.winners_text(Outcome.from_scores((1, 1, 0, 1, 1, 0)).for_teams(three)) == "teams 1 and 2 share the win: seats 1, 2, 4 and 5"
    assert render.winners_text(Outcome.from_scores((1, 0, 0)).for_teams(((1,), (2, 3)))) == "team 1 wins: seat 1"
    assert render.winners_text(Outcome.from_scores((4, 4, 1)), roles) == "seats 1 (X) and 2 (Y) share the win"  # no teams


def test_the_zones_a_seat_sees_are_named_even_empty() -> None:
    """A player did not see that its sealed, played or won pile existed until it filled: the empty zones it sees are
    named on one line, a hidden one among them (West's sealed choice not yet made: a count every seat sees).  A hidden
    zone is still shown only by its count, the built-in supply only when it holds something, and a zone of a role
    nobody plays not at all."""
    state = engine.load("nine-domains").new_state(players=2, seed=1)  # seat 1 plays East
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    assert lines[-1] == ("empty: sealed of East (yours), sealed of West, played of East (yours), played of West, "
                         "won of East (yours), won of West, vp_tokens of East (yours), vp_tokens of West, discard")
    assert "hand of West: 9 hidden" in lines and not any(line.startswith("sealed of West") for line in lines)
    state = engine.load("sealed-tiles").new_state(players=2, seed=1)  # nobody plays Wolf
    assert [line.plain for line in zone_listing.zones(state, 1)][-1] == (
        "empty: sealed of Lion (yours), sealed of Stag, played of Lion (yours), played of Stag")
    assert [line.plain for line in zone_listing.zones(engine.load("tic-tac-toe").new_state(players=2, seed=1), 1)] == [
        "marks of X (yours): X x5", "marks of O: O x4"]  # an empty supply: nothing


def test_a_hex_board_draws_the_display_short_texts_as_a_square_board_does() -> None:
    """Hex's display gives Red the short text R: a square board drew R, the terminal's hexes drew their own
    abbreviation, Re.  They draw R now, and the key says what it stands for."""
    state = engine.load(Path(__file__).parent.parent / "docs" / "examples" / "hex").new_state(players=2, seed=1)
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    lines = plain(board_drawing.board(state, 1))
    assert lines[0].endswith("{..} the group's anchor; B Blue, R Red")
    hexes = " ".join(lines[1:]).split()
    assert sorted(word for word in hexes if not any(ch.isdigit() for ch in word) and word != "·") == ["B", "R"]



def test_a_hex_boards_abbreviations_are_keyed_as_its_short_texts_are() -> None:
    """Without a display, a hex shows its value abbreviated (Fi for Fire), and the key named only the display's short
    texts: what Fi and Ea stood for was said nowhere beside the board.  The key names every abbreviation on it."""
    iconoclasm = engine.load("iconoclasm").new_state(players=2, seed=1)
    iconoclasm.apply(iconoclasm.legal_actions()[0])
    lines = plain(board_drawing.board(iconoclasm, 1))
    assert lines[0].endswith("{..} the group's anchor; Ai Air, Ea Earth, Fi Fire, Wa Water"), lines[0]
    hexes = {word.strip("[]{}") for word in " ".join(lines[1:]).split() if word.isalpha()}
    assert hexes == {"Ai", "Ea", "Fi", "Wa"}, hexes


def test_a_tile_with_sides_is_drawn_by_its_sides_as_it_lies_and_each_placement_shows_them() -> None:
    """Meadows' tiles (four quarter turns as faces) drew as '0/1/2/3' in every cell, and its placements as 'place FTFW
    as 2 at -1,0': a player at the terminal saw neither which tile lay where nor which way its edges faced."""
    meadows = engine.load(Path(__file__).resolve().parents[1] / "docs" / "examples" / "meadows")
    state = meadows.new_state(players=2, seed=4)
    lines = plain(board_drawing.board(state))
    assert "0/1/2/3" not in "\n".join(lines)
    assert any("FiWaFiWa" in line for line in lines), lines  # FWFW at 0,0: Field, Water, Field, Water from the top
    assert lines[-1].endswith("a tile shows its sides clockwise from the top: Fi Field, Wa Water"), lines[-1]
    listed = plain(render.numbered_actions(state, 100))
    assert "[4] place FTFW as 2 at -1,0  FiWaFiFo" in listed, listed  # printed Field, Forest, Field, Water: turned twice
    assert "[1] place FTFW as 0 at 1,0   FiFoFiWa" in listed, listed


EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def test_a_path_tile_is_drawn_by_its_name_and_the_face_up() -> None:
    """Paths' tiles (35 of them, each turned four ways, faces 0-3 on every tile) drew as '2/0/1/3': which tile lay
    there was said nowhere. The terminal now draws 'T20 1' (the tile, and dimmed its face up), as the page does."""
    state = engine.load(EXAMPLES / "paths").new_state(players=2, seed=2)
    rng = __import__("random").Random(1)
    for _ in range(4):
        state.apply(rng.choice(state.legal_actions()))
    lines = plain(board_drawing.board(state))
    drawn = "\n".join(lines)
    game = state.game
    for (x, y), cid in state.grid.items():
        assert f"{game.piece_names[cid]} {game.face_labels[cid][state.face[cid]]}" in drawn, drawn
    assert "/" not in "\n".join(lines[:-1])
    assert "a piece told by its name shows it and, dimmed, its face up" in lines[-1]


def test_the_counters_of_stacked_copies_say_where_in_the_stack_each_is() -> None:
    """Home run's two Blue pieces on one square were listed 'travelled: ... Blue at (0,0) 4, Blue at (0,0) 4': which
    counter was which piece's could not be told. Each now says its place in the stack, and the stack's height."""
    state = engine.load(EXAMPLES / "home-run").new_state(players=4, seed=27)
    rng = __import__("random").Random(27)
    while not state.stacks:
        state.apply(rng.choice(state.legal_actions()))
    line = next(text.plain for text in zone_listing.counters(state) if text.plain.startswith("travelled: "))
    assert "Blue at (0,0) (top of 2) " in line and "Blue at (0,0) (2nd of 2 from the top) " in line, line


def test_a_stack_of_pieces_that_differ_is_listed_from_the_top_down() -> None:
    """Caravan's camels carry those on top of them, so the order of a stack decides the race; a cell showed its top
    camel and '+2', and which camels lay beneath, in which order, could not be read at the terminal. A stack whose
    pieces do not all read alike is listed under the board, and the key names the pieces beneath too; a stack of
    one kind (Home run's two Blue pieces) is told whole by its top piece and count, and has no line."""
    state = engine.load(EXAMPLES / "caravan").new_state(players=2, seed=3)
    lines = plain(board_drawing.board(state), width=120)
    assert lines[-1] == "stacks, from the top down: 1,0: G, B; 2,0: O, Y, W", lines
    assert "B Blue, G Green, O Orange, W White, Y Yellow" in lines[-2]
    state = engine.load(EXAMPLES / "home-run").new_state(players=4, seed=27)
    rng = __import__("random").Random(27)
    while not state.stacks:
        state.apply(rng.choice(state.legal_actions()))
    assert not any(line.startswith("stacks,") for line in plain(board_drawing.board(state), width=120))


def test_counters_keyed_by_numbers_are_a_grid_the_keys_across() -> None:
    """Column climb's markers (a counter per role keyed 2..12), this turn's climb and who holds each column were
    three lines of text, 'marker of seat1: 3=2, 4=1, 7=6': which column stood where was read key by key. They are
    now one grid, the columns across and a row per counter and owner, at the terminal and as a table on the page."""
    from cli.web.view import table_html

    state = engine.load(EXAMPLES / "column-climb").new_state(players=2, seed=2)
    rng = __import__("random").Random(1)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    lines = [line.plain for line in zone_listing.counters(state)]
    assert lines[0].split() == [str(k) for k in range(2, 13)], lines
    assert [line.split("  ")[0].strip() for line in lines[1:]] == ["marker of seat1", "marker of seat2", "climb", "held"]
    marker = state.game.counters["marker"]
    row = lines[1][len(lines[0]) - len(lines[0].lstrip()):].split()
    assert row == [str(v) if v else "·" for v in state.counters[marker.offset:marker.offset + 11]], (row, lines)
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)
    html = table_html(state, 1)
    assert '<div class="keyed"><table>' in html and '<th scope="row">marker of seat1</th>' in html
    assert "marker of seat1:" not in html and "2=" not in html


def test_the_points_a_seat_holds_are_drawn_on_a_board_of_points() -> None:
    """Frontiers' lands, held in each seat's zone, with armies on them: the page draws each point in its holder's
    colour with its armies, but the terminal drew every point '·' and its key said 'an empty point'. A held point
    now reads '1:2' (seat 1's, 2 armies)."""
    state = engine.load(EXAMPLES / "frontiers").new_state(players=2, seed=5)
    rng = __import__("random").Random(5)
    for _ in range(14):
        state.apply(rng.choice(state.legal_actions()))
    drawn = "\n".join(plain(board_drawing.board(state, 1)))
    game, armies = state.game, state.game.counters["armies"]
    for zone, seat in (("held of seat1", 1), ("held of seat2", 2)):
        for cid in state.zones[game.zone_names.index(zone)]:
            assert f"{seat}:{state.counters[armies.index_of(cid)]}" in drawn, drawn
    assert "N:C a point held by seat N" in drawn, drawn


def test_a_zone_listed_a_line_per_component_ends_no_line_in_spaces() -> None:
    """Routes' open routes were listed 'open_routes: ' then '  Ash-Bray: length 2; colour Red  ', each line ending in
    spaces."""
    state = engine.load(EXAMPLES / "routes").new_state(players=2, seed=5)
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    assert "open_routes:" in lines and "  Ash-Bray: length 2; colour Red" in lines, lines
    assert all(line == line.rstrip() for line in lines)


def test_the_standards_on_a_meter_are_drawn_where_they_lie_among_other_components() -> None:
    """Banner clash's standards keep their vigour on a meter (the score) but lie in the supply among the Gold
    warriors: the meter drew only zones of a role's own, and the counters list leaves a meter's counter to it, so
    their vigour was shown nowhere, at the terminal or on the page. Each is now drawn on its line in the supply; a pile of characters before the draft keeps its chips only."""
    from cli.web.view import table_html

    state = engine.load("banner-clash").new_state(players=2, seed=5)
    lines = [line.plain for line in zone_listing.zones(state, 1)]
    supply = lines.index(next(line for line in lines if line.startswith("supply: ")))
    assert [line.split()[:2] for line in lines[supply + 1:supply + 4]] == [
        ["Red-standard", "5/5"], ["Blue-standard", "5/5"], ["Gold-standard", "5/5"]], lines
    assert any(line.strip().startswith("meters: might") for line in lines), lines
    html = table_html(state, 1)
    assert html.count('class="meter-row"') == 3, html
    iconica = engine.load("iconica").new_state(players=2, seed=5)
    listed = [line.plain for line in zone_listing.zones(iconica, 1)]
    assert listed[0].startswith("roster: ") and listed[1].startswith("empty: "), listed  # no bar per character


def test_a_square_boards_pieces_show_the_counters_they_keep() -> None:
    """Kalah's pits were drawn as their owner's letter alone, 'S', the seeds in them read in a list under the board
    that left out the empty ones, where the page writes each pit's seeds in its corner. A pit now reads 'S:4', a
    store with none 'S', and the key says what the number is."""
    state = engine.load(EXAMPLES / "kalah").new_state(players=2, seed=1)
    drawn = plain(board_drawing.board(state, 1))
    rows = {line.split()[0]: line.split()[1:] for line in drawn[2:4]}  # y 1 (North's row), then y 0 (South's)
    assert sorted(rows["1"]) == ["N", *["N:4"] * 6, "·"] and sorted(rows["0"]) == ["S", *["S:4"] * 6, "·"], drawn
    assert ":N a piece's seeds" in "\n".join(drawn), drawn


def test_a_maps_empty_points_show_their_names_where_they_lie() -> None:
    """Routes' towns were all drawn '·', their names in a list of coordinates under the map, so a route named
    'Ash-Bray' had to be found by its numbers; each town now shows its initial where it lies (Morris's points their
    own short names, 'a7'), the key saying which town each initial is."""
    state = engine.load(EXAMPLES / "routes").new_state(players=2, seed=2)
    drawn = plain(board_drawing.board(state, 1))
    assert drawn[0] == "A───────B───────C───────D" and drawn[-1].startswith("an empty point shows its name; "), drawn
    assert "points: A Ash 0,0, B Bray 2,0," in drawn[-1], drawn
    morris = plain(board_drawing.board(engine.load(EXAMPLES / "morris").new_state(players=2, seed=2), 1))
    assert morris[0] == "a7──────────d7──────────g7" and "points: a7 0,0, d7 3,0," in morris[-1], morris


def test_the_end_says_which_part_of_its_condition_held_with_the_options_it_names() -> None:
    """A race ended 'a draw' without a word of why (its 60 turns run out, not a runner in the heart): the end says
    which part of 'end: when' holds, with the value of the option it names."""
    state = engine.load(EXAMPLES / "labyrinth").new_state(players=2, seed=2)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    lines = render.outcome(state)
    assert lines[1:3] == ["a draw: seats 1 (Red) and 2 (Blue) tie", "ended because turn is more than draw_after (draw_after 60)"]
    assert state.game.end_reasons(engine.load(EXAMPLES / "labyrinth").new_state(players=2, seed=2)) == []  # not over


def test_an_empty_hex_board_shows_every_hexs_coordinates() -> None:
    """Hex's first player read a board of dots over 'place Red at 0,0': only hexes next to a piece showed their
    coordinates, and there was none. An empty board shows them all; once a piece lies there, its neighbours'."""
    state = engine.load(EXAMPLES / "hex").new_state(players=2, seed=2)
    drawn = plain(board_drawing.board(state, 1))
    assert drawn[0].startswith("q,r: every hex shows its coordinates") and drawn[1].split() == ["0,0", "1,0", "2,0", "3,0", "4,0"]
    state.apply("place Red at 0,0")
    drawn = plain(board_drawing.board(state, 1))
    assert drawn[0].startswith("q,r: an empty hex next to a piece") and drawn[1].split()[:3] == ["R", "1,0", "·"]
