"""Identical components (``count:``): copies share an id, are offered once per choice, and count per kind in zones."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

import engine
from engine.blocks.placement import Place
from engine.core.errors import IllegalActionError
from engine.model.state import State
from tests.conftest import shipped_game

RULESET = """
name: counted
players: [2]
types:
  colour: [Red, Blue]
components:
  disc:
    faces: [up, down]
    attributes: {colour: colour}
    instances:
      - {id: R, colour: Red, count: copies}
      - {id: B, colour: Blue, count: 2}
      - {id: odd, colour: Blue}
options:
  copies: 3
board: {kind: hex, radius: 2}
zones:
  spare: {kind: pile}
setup: |
  place(c in supply where c.id == "R", (0, 0))
  move(c in supply where c.colour == Blue, spare, 1)
turn:
  - place: {from: supply, face: down}
end:
  when: count(c in supply) == 0
scoring:
  rank: r in roles
  by: [turn_position(r)]
  points: [1, 0]
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(textwrap.dedent(text))
    return engine.load(str(path))


def test_copies_share_their_id_and_attributes(tmp_path: Path) -> None:
    g = load(tmp_path)
    assert g.component_names == ["R-1", "R-2", "R-3", "B-1", "B-2", "odd"]
    assert g.piece_names == ["R", "R", "R", "B", "B", "odd"]
    assert g.identical == {"R": (0, 1, 2), "B": (3, 4)}
    s = g.new_state(players=2)
    assert s.grid == {(0, 0): 0}  # place() takes the first of identical copies
    assert [g.component_names[c] for c in s.zones[g.zone_index[("spare", None)]]] == ["B-1"]  # move(..., 1)
    assert g.compile_condition('count(c in supply where c.id == "R") == 2').test(s)


def test_identical_copies_are_offered_once_with_the_named_face(tmp_path: Path) -> None:
    g = load(tmp_path)
    s = g.new_state(players=2)
    texts = [str(a) for a in s.legal_actions()]
    assert len(texts) == 3 * 6 and "place R at 1,0" in texts and "place B at 1,0" in texts and "place odd at 1,0" in texts
    s.apply("place R at 1,0")
    cid = s.grid[(1, 0)]
    assert g.piece_names[cid] == "R" and s.face[cid] == 1  # shows its `down` face
    assert s.parse_action("place R at 2,0") in s.legal_actions()
    s.apply("place R at 2,0")
    with pytest.raises(IllegalActionError, match="no R left in supply"):
        s.apply("place R at 3,0")


def test_an_unknown_face_name_is_reported(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError, match="'face' must be one of choose, as-is, down, up, not 'sideways'"):
        load(tmp_path, RULESET.replace("face: down", "face: sideways"))


def test_a_scenario_names_copies_by_their_id(tmp_path: Path) -> None:
    load(tmp_path)
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(textwrap.dedent(f"""
        name: copies
        ruleset: {tmp_path / 'ruleset.yaml'}
        players: 2
        position:
          board:
            "0,0": R
            "1,0": R as down
          zones:
            spare: [B, B]
        actions:
          - place R at 2,0
        expect:
          - count(c in board where c.id == "R") == 3
          - count(c in spare) == 2 and count(c in supply) == 1
    """))
    from engine.runner.scenario import run_scenario

    result = run_scenario(scenario)
    assert result.passed, result


def offered_the_long_way(step: Place, s: State) -> list[tuple[int, int]]:
    """What ``Place.pieces`` offers, worked out pair by pair: every (component, face) pair of the zone, in order,
    and of pairs with the same name and face only the first."""
    g = step.game
    hand = s.zones[step.source.resolve(s)]
    if step.choose_face:
        pairs = [p for cid in hand for p in g.piece_options[cid]]
    elif step.as_is:
        pairs = [(cid, s.face[cid]) for cid in hand]
    else:
        pairs = [(cid, step.fixed[cid]) for cid in hand if step.fixed[cid] is not None]
    first: dict[tuple[str, int], tuple[int, int]] = {}
    for cid, face in pairs:
        first.setdefault((g.piece_names[cid], face), (cid, face))
    return list(first.values())  # type: ignore[arg-type]


def assert_offers_agree(game: engine.Game, players: int, games: int) -> int:
    """Play random games; at every position each place step offers what the long way finds. How many offers had pieces."""
    steps = [step for step in game.steps if isinstance(step, Place)]
    assert steps
    offers = 0
    for seed in range(games):
        s, choose = game.new_state(players=players, seed=seed), random.Random(seed)
        while not s.is_terminal:
            for step in steps:
                offered = list(step.pieces(s))  # kept offers are tuples
                assert offered == offered_the_long_way(step, s)
                offers += bool(offered)
            s.play(choose.randrange(len(s.legal_actions())))
    return offers


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("iconoclasm-cards", 2), ("connect-four", 2), ("othello", 2),
                                           ("tutorial-tiles", 2), ("banner-clash", 2)])
def test_the_pieces_on_offer_are_the_first_of_each_kind(name: str, players: int) -> None:
    assert assert_offers_agree(shipped_game(name), players, games=3)


@pytest.mark.parametrize("face", ["down", "as-is", "choose"])
def test_copies_are_offered_once_whatever_the_face_rule(tmp_path: Path, face: str) -> None:
    assert assert_offers_agree(load(tmp_path, RULESET.replace("face: down", f"face: {face}")), 2, games=3)
