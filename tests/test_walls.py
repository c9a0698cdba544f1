"""Walls between a square board's cells (docs/rulesets.md#board, ``walls:``): declared, built and removed in play, and
followed by every notion of touching — neighbours, walks, steps_to, groups, lines, ``move`` steps, the frontier.

The board here is 4x3, row 0 on top, with a wall down between columns 1 and 2 but for row 2, and one under 0,0::

    +---+---+---+---+
    | .   . | .   . |
    +---+   +   +   +
    | .   . | .   . |
    +   +   +   +   +
    | .   .   .   . |
    +---+---+---+---+
"""

from __future__ import annotations

import importlib.util
import json
import os
import textwrap
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError
from engine.model.savefile import SaveError

RULESET = """
name: walls-test
players: [2]
types:
  colour: [Red, Blue]
roles:
  of: colour
components:
  stone:
    attributes: {colour: colour}
    instances:
      - {id: R, colour: Red, count: 6}
      - {id: B, colour: Blue, count: 6}
board:
  kind: square-grid
  width: 4
  height: 3
  walls: |
    +---+---+---+---+
    | .   . | .   . |
    +---+   +   +   +
    | .   . | .   . |
    +   +   +   +   +
    | .   .   .   . |
    +---+---+---+---+
turn:
  - move:
      side: colour
      forward: {Red: up, Blue: up}
      steps:
        - {by: [1, 0], onto: empty}
        - {by: [-1, 0], onto: empty}
        - {by: [2, 0], onto: empty}
end:
  when: turn > 4
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    return engine.load(str(path))


def problems(tmp_path: Path, text: str) -> list[str]:
    """What validate says of the ruleset ``text``, each as ``line:col message``."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    return [f"{d.pos.line}:{d.pos.col} {d.message}" for d in validate_path(str(path))]


def stone(s: engine.State, name: str, cell: tuple[int, int]) -> None:
    """Put a stone of ``name`` from the supply on ``cell``."""
    s.place(next(c for c in s.zones[0] if s.game.piece_names[c] == name), cell)


def test_the_walls_drawn_part_the_cells_they_stand_between(tmp_path: Path) -> None:
    grid = load(tmp_path).grid
    assert grid.walls == {((0, 0), (0, 1)), ((1, 0), (2, 0)), ((1, 1), (2, 1))}
    assert grid.neighbours((1, 0)) == ((0, 0), (1, 1)) and grid.neighbours((0, 0)) == ((1, 0),)
    assert (2, 2) in grid.neighbours((1, 2)), "no wall in row 2"
    assert grid.rays()[(0, 0)] == () and grid.rays()[(3, 0)] == (((3, 1), (3, 2)),), "a ray stops at a wall"
    assert ((1, 2), (2, 2), (3, 2)) in grid.rays()[(0, 2)]
    listed = load(tmp_path, RULESET.replace(RULESET[RULESET.index("  walls: |"):RULESET.index("turn:")],
                                            '  walls: [["0,0", "0,1"], [[1, 0], [2, 0]], ["1,1", "2,1"]]\n'))
    assert listed.grid.walls == grid.walls


def test_code_follows_the_walls(tmp_path: Path) -> None:
    """neighbours, walk (and its steps), steps_to, wall_between, between, group_of, largest_group, longest_line."""
    game = load(tmp_path)
    s = game.new_state(players=2)
    cond = lambda text: game.compile_condition(text).run(s)  # noqa: E731
    assert cond("neighbours((1, 0)) == [(0, 0), (1, 1)]")
    assert cond("steps_to((1, 0), (2, 0)) == 5 and steps_to((0, 0), (0, 1)) == 3 and steps_to((0, 0), (0, 0)) == 0")
    assert cond("count(walk((0, 0), x in board)) == 12 and walk((0, 0), x in board, steps = 2) == [(0, 0), (1, 0), (1, 1)]")
    assert cond("wall_between((1, 0), (2, 0)) and wall_between((0, 0), (3, 0)) and not wall_between((0, 2), (3, 2))")
    assert cond("not wall_between((0, 0), (2, 1)) and between((0, 0), (3, 0)) == [(1, 0), (2, 0)]")
    for cell in ((0, 0), (1, 0), (2, 0), (3, 0)):
        stone(s, "R", cell)
    assert cond("largest_group(x in board) == 2 and longest_line(x in board) == 2")
    assert cond("count(group_of(at(0, 0), x in board)) == 2 and count(group_of(at(2, 0), x in board)) == 2")
    # Pieces selected bar the way (the last cell may hold one); -1 when nothing reaches it.
    assert cond("steps_to((1, 1), (3, 1), x in board) == 4 and steps_to((1, 1), (3, 0), x in board) == 5")
    stone(s, "B", (1, 2))
    assert cond("steps_to((0, 1), (2, 1), x in board) == -1 and walk((0, 1), x in board) == [(0, 1), (1, 1), (0, 2)]")


def test_a_move_step_does_not_cross_a_wall(tmp_path: Path) -> None:
    """A step of one or two along a row crosses no wall; the same steps in the open row go."""
    game = load(tmp_path, RULESET.replace("turn:\n", "setup: |\n  place(x in supply where x.id == \"R\", (1, 0))\n"
                                                      "  place(x in supply where x.id == \"R\", (1, 2))\nturn:\n", 1))
    s = game.new_state(players=2)
    assert sorted(map(str, s.legal_actions())) == ["move 1,0 to 0,0", "move 1,2 to 0,2", "move 1,2 to 2,2",
                                                   "move 1,2 to 3,2"]
    s.set_walls(s.game.grid.walls | {((2, 2), (3, 2))})  # as build_wall does: the steps follow the walls standing now
    assert sorted(map(str, s.legal_actions())) == ["move 1,0 to 0,0", "move 1,2 to 0,2", "move 1,2 to 2,2"]
    s.set_walls(game.grid.walls - {((1, 0), (2, 0))})
    assert "move 1,0 to 2,0" in map(str, s.legal_actions()) and "move 1,2 to 3,2" in map(str, s.legal_actions())


BUILDER = RULESET.replace("""turn:
  - move:
      side: colour
      forward: {Red: up, Blue: up}
      steps:
        - {by: [1, 0], onto: empty}
        - {by: [-1, 0], onto: empty}
        - {by: [2, 0], onto: empty}
""", """turn:
  - do:
      effect: |
        let c = choose(x in all_cells where x.x < 3, always_ask = true)
        if wall_between(c, (c.x + 1, c.y)):
          remove_wall(c, (c.x + 1, c.y))
        else:
          build_wall(c, (c.x + 1, c.y))
""")


def test_a_wall_built_in_play_is_the_position_s(tmp_path: Path) -> None:
    """build_wall and remove_wall change the board this state plays on, not the game's nor a clone's; the log says
    so; the walls are saved and read back, compared, pickled, and shown to every seat."""
    import pickle

    game = load(tmp_path, BUILDER)
    s = game.new_state(players=2, record=True)
    before = s.clone()
    s.apply("choose 2,2")
    assert s.game.grid.walls == game.grid.walls | {((2, 2), (3, 2))} and s.game.name == game.name
    assert game.grid.neighbours((2, 2)) == ((3, 2), (1, 2), (2, 1)), "the game's own board is unchanged"
    assert (3, 2) not in s.game.grid.neighbours((2, 2)) and "a wall goes up between (2,2) and (3,2)" in s.log
    assert game.compile_condition("wall_between((2, 2), (3, 2))").run(s)
    assert not game.compile_condition("wall_between((2, 2), (3, 2))").run(before) and s != before
    assert s.observation(2)["walls"] == [[[0, 0], [0, 1]], [[1, 0], [2, 0]], [[1, 1], [2, 1]], [[2, 2], [3, 2]]]
    back = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert back == s and back.game.grid.walls == s.game.grid.walls
    again = pickle.loads(pickle.dumps(s))
    assert again.game.grid.walls == s.game.grid.walls and again.history == s.history
    fresh = s.game.new_state(players=2)  # a new game on the game a state plays on starts with the declared walls
    assert fresh.game is game and fresh.game.grid.walls == game.grid.walls
    assert s.game.state_from_json(before.to_json()).game is game
    s.apply("choose 1,0")  # the wall down between 1,0 and 2,0
    assert (2, 0) in s.game.grid.neighbours((1, 0)) and "a wall comes down between (1,0) and (2,0)" in s.log
    assert game.grid.walls == load(tmp_path).grid.walls


def test_a_saved_wall_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    game = load(tmp_path, BUILDER)
    data = game.new_state(players=2).to_json()
    data["scratch"]["walls"] = [[[0, 0], [2, 2]]]
    with pytest.raises(SaveError, match="the saved walls do not fit"):
        game.state_from_json(data)


@pytest.mark.parametrize("walls, found", [
    ('[["0,0", "2,0"]]', "18:11 a wall stands between two cells that touch, and 0,0 and 2,0 do not (the board's adjacency is orthogonal)"),
    ('[["0,0", "9,0"]]', "18:19 '9,0' is no cell of the board"),
    ('[["0,0", "1,0"], [[1, 0], [0, 0]]]', "18:27 the wall between 0,0 and 1,0 is listed twice"),
    ('[["0,0"]]', "18:11 board/walls/0: ['0,0'] is too short"),
    ('"+---+\\n| . |\\n+---+\\n"', "18:10 the walls drawn have 3 lines, and a board 3 cells high is drawn in 7: a line for each row of cells, one between rows and the frame"),
])
def test_walls_that_do_not_fit_are_refused_where_written(tmp_path: Path, walls: str, found: str) -> None:
    text = RULESET.replace(RULESET[RULESET.index("  walls: |"):RULESET.index("turn:")], f"  walls: {walls}\n")
    assert found in problems(tmp_path, text)


def test_walls_on_a_growing_board_and_build_wall_without_walls_are_refused(tmp_path: Path) -> None:
    growing = RULESET.replace("  width: 4\n  height: 3\n", "  max_width: 4\n")
    assert any("walls stand between the cells of a board with edges, and this board grows" in p
               for p in problems(tmp_path, growing))
    plain = BUILDER.replace(BUILDER[BUILDER.index("  walls: |"):BUILDER.index("turn:")], "")
    assert any("build_wall() changes the walls between a board's cells, and this board has no walls" in p
               for p in problems(tmp_path, plain))


def test_build_wall_between_cells_that_do_not_touch_stops_the_game(tmp_path: Path) -> None:
    game = load(tmp_path, BUILDER.replace("build_wall(c, (c.x + 1, c.y))", "build_wall(c, (c.x + 2, c.y))"))
    s = game.new_state(players=2)
    with pytest.raises(EffectRuntimeError, match="stands a wall between two neighbouring cells of the board, and 0,2 "
                                                 "and 2,2 are not"):
        s.apply("choose 0,2")


def test_a_board_without_walls_is_its_game_s_own(tmp_path: Path) -> None:
    """Nothing of walls reaches a board without them: the game is its own, no walls in the observation."""
    game = load(tmp_path, RULESET.replace(RULESET[RULESET.index("  walls: |"):RULESET.index("turn:")], ""))
    s = game.new_state(players=2)
    assert game.with_walls(frozenset()) is game and "walls" not in s.observation(1)
    assert not game.grid.walled and game.compile_condition("not wall_between((1, 0), (2, 0))").run(s)


def test_the_walls_are_drawn_at_the_terminal_and_on_the_page(tmp_path: Path) -> None:
    from rich.console import Console

    from cli.board_drawing import board
    from cli.web.svg import board_svg

    game = load(tmp_path)
    console = Console(width=80, record=True, color_system=None)
    console.print(board(game.new_state(players=2)))
    drawn = console.export_text()
    assert "| ·   · | ·   · |" in drawn and "+---+   +   +   +" in drawn, drawn
    svg = board_svg(game.new_state(players=2))
    assert svg.count('class="wall"') == 3 and "a wall between 1,0 and 2,0" in svg


def test_the_learning_environment_sees_the_walls(tmp_path: Path) -> None:
    """The observation vector of a board with walls has a segment with 1 for each wall standing, built ones too."""
    if importlib.util.find_spec("numpy") is None and not os.environ.get("CI"):
        pytest.skip("needs the rl extra: pip install -e '.[rl]'")
    from engine.rl.encoding import Encoder

    game = load(tmp_path, BUILDER)
    encoder = Encoder(game, 2)
    s = game.new_state(players=2)
    assert len(encoder.split(encoder.encode(s.observation(1)))["walls"]) == 17  # 4x3 cells: 9 + 8 pairs side by side
    assert int(encoder.split(encoder.encode(s.observation(1)))["walls"].sum()) == 3
    s.apply("choose 2,2")
    walls = encoder.split(encoder.encode(s.observation(2)))["walls"]
    assert int(walls.sum()) == 4 and walls[encoder.sides[(2, 2), (3, 2)]] == 1


def test_a_bracket_ends_at_a_wall_declared_or_built(tmp_path: Path) -> None:
    """Othello with a wall between the centre's d4 (3,3) and e4 (4,3): Black at c4 (2,3) would close the White disc
    on d4 with its own on e4, across the wall.  The move was offered (the bits of the board saw no wall) and then
    turned nothing over (the lines did); now neither a declared wall nor one built in play is crossed."""
    text = (Path(__file__).parent.parent / "rulesets" / "othello" / "ruleset.yaml").read_text()
    board = "  adjacency: all\n"
    declared = load(tmp_path, text.replace(board, board + '  walls: [["3,3", "4,3"]]\n')).new_state(players=2)
    assert "place disc as Black at 2,3" not in [str(a) for a in declared.legal_actions()]
    s = load(tmp_path, text.replace(board, board + "  walls: []\n")).new_state(players=2)
    assert "place disc as Black at 2,3" in [str(a) for a in s.legal_actions()]
    s.set_walls(frozenset({((3, 3), (4, 3))}))
    assert [str(a) for a in s.legal_actions()] == [str(a) for a in declared.legal_actions()]
    s.apply("place disc as Black at 4,5")  # down the e file: e5 (4,4) is turned; no wall there
    assert s.face[s.grid[(4, 4)]] == s.face[s.grid[(4, 3)]]


def test_groups_part_at_a_wall_built_in_play(tmp_path: Path) -> None:
    """Banner Clash on a row of four squares, its groups two side by side: a Red group on 0,0-1,0 and a Blue one on
    2,0-3,0 touch and clash, unless a wall built in play stands between 1,0 and 2,0 (form_groups read the board's
    own neighbours, and saw only the walls it declares)."""
    text = (Path(__file__).parent.parent / "rulesets" / "banner-clash" / "ruleset.yaml").read_text()
    text = text.replace("board:\n  kind: hex\n  radius: 3", "board:\n  kind: square-grid\n  width: 4\n  height: 1\n"
                        "  walls: []").replace("pattern: [[0, 0], [1, 0], [0, 1]]", "pattern: [[0, 0], [1, 0]]")
    game = load(tmp_path, text)
    logs = []
    for walls in (frozenset(), frozenset({((1, 0), (2, 0))})):
        s = game.new_state(players=2, seed=1, record=True)
        s.set_walls(walls)
        for action in ("place Red at 0,0", "place Blue at 3,0", "place Red at 1,0", "place Blue at 2,0"):
            s.apply(action)
        assert s.log is not None and "a group forms at (2,0): Blue 2 — Blue wins (majority); Blue-flag placed" in s.log
        logs.append(any(line.startswith("external clash") for line in s.log))
    assert logs == [True, False]


def test_a_diagonal_step_does_not_slip_through_the_joint_of_two_walls(tmp_path: Path) -> None:
    """With ``adjacency: all``, 1,0 and 2,1 touch at a corner that the wall down between columns 1 and 2 runs
    through: they are no neighbours, and no line runs between them (a diagonal went through wherever no wall stood
    between the two cells themselves, which a drawn wall never does).  Past the end of a wall, 1,1 to 2,2, and
    beside a single wall, 0,0 to 1,1, the diagonal is open."""
    game = load(tmp_path, RULESET.replace("  height: 3\n", "  height: 3\n  adjacency: all\n"))
    grid = game.grid
    assert (2, 1) not in grid.neighbours((1, 0)) and (1, 0) not in grid.neighbours((2, 1))
    assert (2, 2) in grid.neighbours((1, 1)) and (1, 1) in grid.neighbours((0, 0))
    s = game.new_state(players=2)
    assert game.compile_condition("wall_between((1, 0), (2, 1)) and not wall_between((0, 0), (2, 2))").run(s)
    assert game.compile_condition("steps_to((1, 0), (2, 1)) == 3").run(s)
