"""Boards of points whose links have kinds (taxi, bus): ``links: {KIND: [paths]}`` and ``neighbours(CELL, KIND)``."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import IllegalActionError, RulesetError

# Taxis join a-b-c, a bus a-c and a-b (a-b both ways), the underground nothing yet.
MAP = """\
name: map
players: [2]
types:
  line: [Taxi, Bus, Tube]
board:
  kind: points
  cell_names: names
  points: {a: [0, 0], b: [2, 0], c: [4, 0], d: [2, 2]}
  links:
LINKS
components:
  pawn: {instances: [P, Q]}
counters:
  moved: {}
setup: |
  place(p in pawns where p.id == "P", a)
turn:
  - do:
      effect: |
        let k = choose(k in lines where count(neighbours(first(p in board where p.id == "P").cell, k)) > 0)
        let to = choose(n in neighbours(first(p in board where p.id == "P").cell, k))
        place(p in pawns where p.id == "P", to)
        moved += 1
end:
  when: moved >= 3
scoring:
  rank: r in roles
  by: [0]
  points: key
"""

KINDS = """\
    Taxi: [[a, b, c], [b, d]]
    Bus: [[c, a, b]]
"""


def load(tmp_path: Path, links: str = KINDS, code: str = "") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    text = MAP.replace("LINKS\n", links)
    path.write_text(text.replace("moved += 1", code) if code else text, encoding="utf-8")
    return engine.load(path)


def test_neighbours_by_kind_follow_only_that_kinds_links(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=1)
    assert sorted(str(a) for a in s.legal_actions()) == ["choose Bus", "choose Taxi"]  # no Tube from a
    s.apply("choose Bus")
    assert sorted(str(a) for a in s.legal_actions()) == ["choose b", "choose c"]
    s.apply("choose b")
    s.apply("choose Taxi")
    assert sorted(str(a) for a in s.legal_actions()) == ["choose a", "choose c", "choose d"]
    holds = lambda text: game.compile_condition(text).test(s)
    assert holds("neighbours(a) == [b, c]")  # the board touches once where two kinds join: a-b by taxi and bus
    assert holds("neighbours(d, Bus) == [] and neighbours(d, Taxi) == [b]")


def test_explain_counts_each_kinds_links(tmp_path: Path) -> None:
    assert load(tmp_path).grid.describe() == "a board of 4 points joined by 4 links (3 Taxi, 2 Bus)"


@pytest.mark.parametrize(("links", "message"), [
    ("    Taxi: [[a, b]]\n    Tram: [[b, c, d]]\n", "link kind 'Tram' is no value of a type"),
    ("    Taxi: [[a, b, c, d]]\n    Bus: [[a, c], [c, a]]\n", "points 'c' and 'a' are linked twice by Bus"),
    ("    Taxi: [[a, b, c, d]]\n    Bus: a\n", "board/links/Bus: 'a' is not a list"),
])
def test_a_wrong_kind_of_link_is_refused_where_written(tmp_path: Path, links: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        load(tmp_path, links)


def test_kinds_of_two_types_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(MAP.replace("  line: [Taxi, Bus, Tube]\n", "  line: [Taxi, Bus, Tube]\n  boat: [Ferry]\n")
                    .replace("LINKS\n", "    Taxi: [[a, b, c, d]]\n    Ferry: [[a, d]]\n"), encoding="utf-8")
    with pytest.raises(RulesetError, match="link kind 'Ferry' is a value of boat, and the kinds before it of line"):
        engine.load(path)


def test_neighbours_by_kind_on_links_without_kinds_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"neighbours\(CELL, KIND\) reads the kinds of a board of points' links, and "
                                           r"this board's links have none"):
        load(tmp_path, "    - [a, b, c, d]\n")


def test_a_point_typed_by_name_and_refused_is_quoted_as_typed(tmp_path: Path) -> None:
    """A name read again as its position and refused was quoted as the position: "'choose 2,2' does not answer the
    question", though the player typed d and the options are written by name."""
    s = load(tmp_path).new_state(players=2, seed=1)
    s.apply("choose Bus")
    with pytest.raises(IllegalActionError, match=r"^'choose d' does not answer the question .*; the options are: "
                                                 r"choose c, choose b$"):
        s.apply("choose d")


def test_the_browser_draws_each_kind_of_link_in_its_colour_side_by_side(tmp_path: Path) -> None:
    """A pair joined by a taxi and a bus line is two lines, each titled with its kind, in the kind's display colour."""
    from cli.web.svg import board_svg

    path = tmp_path / "ruleset.yaml"
    path.write_text(MAP.replace("LINKS\n", KINDS).replace("components:\n", "display:\n  Bus: {colour: '#2ca02c'}\ncomponents:\n"),
                    encoding="utf-8")
    svg = board_svg(engine.load(path).new_state(players=2, seed=1))
    assert svg.count('<line class="link" data-kind="Taxi"') == 3 and svg.count('data-kind="Bus"') == 2
    assert svg.count('<line class="link"') == 5 and svg.count("<title>Bus</title>") == 2
    assert '<line class="link" data-kind="Bus" style="stroke: #2ca02c"' in svg
