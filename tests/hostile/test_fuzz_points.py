"""Fuzzing boards of points (``board: {kind: points}``) and attributes of type ``cell`` with any YAML values.

The points (named or not, positions of every type), the links (paths of
names, positions and junk) and the cell attributes (single or lists) are
drawn from small pools of good and bad values and put into a small ruleset
whose turn places or moves stones (along links, or ``to:`` cells a
condition chooses) and whose end reads ``largest_group`` and
``longest_line``.  Each example must end, within a time limit, with a
``RulesetError`` when it loads, or with a game that plays to its end (or to
a Rulecraft error) and is drawn for the terminal and the browser.

Marked ``fuzz``: ``pytest -m fuzz`` runs the fuzz tests alone.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli import board_drawing, render
from cli.web.svg import board_svg
from engine.compiling.builder import build_game
from engine.core.errors import RulecraftError, RulesetError
from engine.core.yamlsource import load_yaml

from budget_cli import examples
from timelimit import time_limit

pytestmark = pytest.mark.fuzz

SECONDS = 10.0

NAMES = st.sampled_from(["a", "b", "c", "d", "Ash", "x_2", "1", "0,0", "1,0", "", "é", "if", "board", "Red", "stones"])
COORDINATES = st.one_of(st.integers(-3, 3), st.integers(-2000, 2000),
                        st.sampled_from([1.5, True, None, "1", [0], float("nan")]))
POSITIONS = st.one_of(st.lists(COORDINATES, max_size=3), COORDINATES)
REFERENCES = st.one_of(NAMES, st.lists(st.integers(-2, 3), min_size=2, max_size=2),
                       st.sampled_from([None, 1, 1.5, [[0, 0]], {"a": 1}]))
BAD_BOARDS = st.tuples(
    st.one_of(st.dictionaries(NAMES, POSITIONS, max_size=6), st.lists(POSITIONS, max_size=6),
              st.sampled_from([None, 1, "x", []])),
    st.one_of(st.lists(st.one_of(st.lists(REFERENCES, max_size=5), REFERENCES), max_size=5),
              st.sampled_from([None, 1, "a", {}])))


@st.composite
def good_boards(draw: st.DrawFn) -> tuple[dict[str, list[int]], list[list[str]]]:
    """Points a, b and some of c..e at distinct positions, each on a path of links (or no links at all)."""
    names = ["a", "b", *draw(st.lists(st.sampled_from("cde"), max_size=3, unique=True))]
    cells = draw(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=len(names),
                          max_size=len(names), unique=True))
    if draw(st.booleans()):
        return {n: list(c) for n, c in zip(names, cells)}, []
    order = draw(st.permutations(names))
    return {n: list(c) for n, c in zip(names, cells)}, [list(order)]


BOARDS = st.one_of(good_boards(), good_boards(), good_boards(), BAD_BOARDS)
GOOD_SPOT = st.sampled_from("ab")
GOOD_SPOTS = st.lists(GOOD_SPOT, min_size=1, max_size=3)
SPOTS = st.one_of(GOOD_SPOT, GOOD_SPOT, GOOD_SPOT, REFERENCES, st.lists(REFERENCES, max_size=3))
"""A cell attribute's value: a point's name mostly, else anything."""
SPOT_LISTS = st.one_of(GOOD_SPOTS, GOOD_SPOTS, GOOD_SPOTS, st.lists(REFERENCES, max_size=3), REFERENCES)
"""A list of cells' value: point names mostly, else anything."""
STEPS = st.sampled_from([
    "place: {from: pot, face: as-is}",
    "place: {from: pot, face: as-is, touching: false}",
    "move: {side: colour, steps: [{along: link, onto: empty-or-rival}], capture_to: taken}",
    'move: {side: colour, to: "cell in neighbours(piece.cell) or cell == first(x in stones).spot", capture_to: taken}',
])

RULESET = """
name: fuzzed-points
players: [2]
types:
  colour: [Red, Blue]
roles:
  of: colour
  seating: {{2: [1, 2]}}
components:
  stone:
    attributes: {{colour: colour, spot: {spot_type}}}
    instances:
      - {{id: R, colour: Red, count: 2, spot: {spot_red}}}
      - {{id: B, colour: Blue, count: 2, spot: {spot_blue}}}
board:
  kind: points
  points: {points}
  links: {links}
zones:
  pot: {{kind: hand, per: role}}
  taken: {{kind: pile}}
setup: |
  for r in roles:
    move(t in stones where t.colour == r, pot(r))
  place(first(t in stones where t.colour == Red), {first_spot})
turn:
  - {step}
end:
  when: count(empty_cells) == 0 or turn > 8
scoring:
  rank: r in roles
  by: [largest_group(s in board where s.colour == r) + longest_line(s in board where s.colour == r)]
  points: key
"""


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=BOARDS, listed=st.booleans(), data=st.data(), step=STEPS, seed=st.integers(0, 2 ** 16))
def test_any_board_of_points_is_refused_where_written_or_plays(board: tuple[object, object], listed: bool,
                                                                data: st.DataObject, step: str, seed: int) -> None:
    points, links = board
    spot_red, spot_blue = (data.draw(SPOT_LISTS if listed else SPOTS, label=colour) for colour in ("Red", "Blue"))
    text = RULESET.format(points=json.dumps(points), links=json.dumps(links), spot_red=json.dumps(spot_red),
                          spot_blue=json.dumps(spot_blue), step=step,
                          spot_type="{type: cell, list: true}" if listed else "cell",
                          first_spot="first(c in first(t in stones).spot)" if listed else "first(t in stones).spot",
                          ).replace("NaN", ".nan")
    with time_limit(SECONDS):
        try:
            game = build_game(load_yaml("ruleset.yaml", text))
        except RulesetError as refused:
            assert all(d.pos is not None for d in refused.diagnostics), refused.format()
            event("refused when loaded")
            return
        event("loaded")
        try:
            state = game.new_state(players=2, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                state.apply(rng.choice(list(state.legal_actions())))
        except RulecraftError:
            event("stopped by a Rulecraft error")
            return
        console = render.make_console(width=100)
        with console.capture() as drawn:
            console.print(board_drawing.board(state))
        assert drawn.get().strip() and "<svg" in board_svg(state)
