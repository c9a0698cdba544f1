"""``sgn(N)``, ``between(A, B)`` and a type's plural (every value of the type): built into the effect language,
so that rulesets no longer copy a sign function, a "the line between is clear" function, or a type's values."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"

SMALL = """\
name: small
players: [2]
types:
  side: [A, B]
  way: [north, east, south, west]
roles: {of: side, seating: {2: [1, 2]}}
board: {kind: square-grid, width: 5, height: 5, adjacency: ADJ}
turn:
  - do:
      effect: |
        let w = choose(w in ways, always_ask = true)
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def _game(tmp_path: Path, adjacency: str = "all", text: str = SMALL) -> engine.Game:
    path = tmp_path / "small.yaml"
    path.write_text(text.replace("ADJ", adjacency), encoding="utf-8")
    return engine.load(path)


def _run(game: engine.Game, text: str) -> bool:
    return game.compile_condition(text).run(game.new_state(players=2, seed=1))


def test_sgn_is_the_sign_of_a_number(tmp_path: Path) -> None:
    game = _game(tmp_path)
    assert _run(game, "sgn(7) == 1 and sgn(-3) == -1 and sgn(0) == 0 and sgn(2 - 5) == -1")


@pytest.mark.parametrize("a,b,cells", [
    ("(0, 0)", "(3, 3)", "[(1, 1), (2, 2)]"),
    ("(4, 1)", "(1, 1)", "[(3, 1), (2, 1)]"),
    ("(2, 0)", "(2, 4)", "[(2, 1), (2, 2), (2, 3)]"),
    ("(0, 0)", "(1, 2)", "[]"),   # not on one line
    ("(0, 0)", "(1, 1)", "[]"),   # neighbours: nothing between
    ("(2, 2)", "(2, 2)", "[]"),   # the same cell
])
def test_between_lists_the_cells_strictly_between_two_cells_on_a_line(tmp_path: Path, a: str, b: str, cells: str) -> None:
    assert _run(_game(tmp_path), f"between({a}, {b}) == {cells}")


def test_between_follows_the_board_s_directions(tmp_path: Path) -> None:
    """With orthogonal adjacency a diagonal is no line of the board."""
    game = _game(tmp_path, "orthogonal")
    assert _run(game, "between((0, 0), (3, 3)) == [] and between((0, 0), (3, 0)) == [(1, 0), (2, 0)]")


def test_between_on_a_hex_board_follows_its_six_lines(tmp_path: Path) -> None:
    text = SMALL.replace("board: {kind: square-grid, width: 5, height: 5, adjacency: ADJ}", "board: {kind: hex, radius: 3}")
    assert _run(_game(tmp_path, text=text), "between((0, 0), (0, 3)) == [(0, 1), (0, 2)] and between((0, 0), (1, 2)) == []")


def test_a_clear_line_reads_plainly(tmp_path: Path) -> None:
    game = _game(tmp_path)
    assert _run(game, "all(at(c) == none for c in between((0, 0), (4, 4)))")


def test_sgn_and_between_are_explained_in_english() -> None:
    from engine.blocks.board_functions import Between
    from engine.lang.functions import Sgn
    from engine.lang.parser import parse_expression

    assert Sgn("sgn", "", "", "").describe(parse_expression("sgn(d)")) == "the sign of d (1, 0 or -1)"
    assert Between("between", "", "", "").describe(parse_expression("between(a, b)")) == (
        "the cells strictly between a and b on a line")


def test_misused_they_are_reported_where_they_are_written(tmp_path: Path) -> None:
    game = _game(tmp_path)
    with pytest.raises(RulesetError, match=r"<expression>:1:5: the argument of sgn\(\) must be"):
        game.compile_condition('sgn("x") == 1')
    with pytest.raises(RulesetError, match=r"between\(\) takes 2 arguments, not 1"):
        game.compile_condition("between((0, 0)) == []")


def test_a_type_s_plural_lists_all_its_values_in_order(tmp_path: Path) -> None:
    game = _game(tmp_path)
    assert _run(game, "ways == [north, east, south, west] and count(ways) == 4 and east in ways")
    s = game.new_state(players=2, seed=1)
    assert s.legal_actions().texts() == ["choose north", "choose east", "choose south", "choose west"]


def test_a_type_s_own_name_says_its_plural_lists_its_values(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="'way' is a type, not a list in code: its values are ways"):
        _game(tmp_path).compile_condition("count(way) == 4")


def test_a_ruleset_s_own_name_keeps_its_meaning_over_a_type_s_plural(tmp_path: Path) -> None:
    text = SMALL.replace("roles: {of", "options:\n  ways: {default: 3}\nroles: {of").replace(
        "choose(w in ways, always_ask = true)", "choose(w in [north, east], always_ask = true)")
    assert _run(_game(tmp_path, text=text), "ways == 3")


def test_the_examples_use_them(tmp_path: Path) -> None:
    assert "between(" in (EXAMPLES / "chess" / "ruleset.yaml").read_text()
    assert "between(" in (EXAMPLES / "amazons" / "ruleset.yaml").read_text()
    assert "q in quadrants" in (EXAMPLES / "pentago" / "ruleset.yaml").read_text()
