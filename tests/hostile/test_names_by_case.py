"""Names that differ by their case alone: a typed action names the one written in its case, never the other.

Actions are read in any case (``CHOOSE guard``), so a hand holding a card
``Guard`` and a card ``guard`` played ``guard`` for ``choose Guard``, typed
as it was listed: the player, a scenario and a replay of the game (whose
log holds the action's text) all got the other card.  Points are typed in
any case too, so two points whose names differ by case alone are refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import IllegalActionError, RulesetError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cased(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    """Glance with its Priests renamed 'guard', beside its Guards."""
    text = (ROOT / "docs" / "examples" / "glance" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "id: Priest" in text
    path = tmp_path_factory.mktemp("cased") / "ruleset.yaml"
    path.write_text(text.replace("id: Priest", "id: guard"), encoding="utf-8")
    return engine.load(path)


def _offering_both(game: engine.Game) -> engine.State:
    for seed in range(50):
        s = game.new_state(players=2, seed=seed, record=True)
        if {"choose Guard", "choose guard"} <= set(s.legal_actions().texts()):
            return s
    raise AssertionError("no seed deals both cards to the first player")


@pytest.mark.parametrize("typed, played", [("choose Guard", "Guard"), ("choose guard", "guard"), ("Guard", "Guard"),
                                           ("  choose   guard ", "guard")])
def test_an_action_typed_in_its_case_plays_that_component(cased: engine.Game, typed: str, played: str) -> None:
    s = _offering_both(cased)
    s.apply(typed)
    discard = s.zones[cased.zone_index[("discard", None)]]
    assert [cased.piece_names[c] for c in discard][:1] == [played]


@pytest.mark.parametrize("typed", ["choose GUARD", "GUARD", "Choose gUARD"])
def test_an_action_matching_two_names_in_another_case_is_refused_as_ambiguous(cased: engine.Game, typed: str) -> None:
    s = _offering_both(cased)
    before = s.clone(record=True)
    with pytest.raises(IllegalActionError, match="ambiguous: it writes (choose )?[gG]uard and (choose )?[gG]uard, "
                                                 "which differ by their case alone"):
        s.apply(typed)
    assert s == before and s.history == before.history


def test_one_name_is_still_typed_in_any_case(cased: engine.Game) -> None:
    s = _offering_both(cased)
    baron = [t for t in s.legal_actions().texts() if t not in ("choose Guard", "choose guard")]
    assert len(baron) <= 1
    if baron:
        s.apply(baron[0].upper())
        assert s.history == [baron[0]]


def test_points_whose_names_differ_by_case_alone_are_refused(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "examples" / "frontiers" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "    Birch: [2, 0]\n" in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("    Birch: [2, 0]\n", "    Birch: [2, 0]\n    ash: [2, 8]\n"), encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    assert f"{path}:" in str(err.value)
    assert "points 'Ash' and 'ash' differ by their case alone" in str(err.value)


ALIKE = """\
name: alike
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
counters:
  picked: {per: role}
turn:
  - do:
      effect: |
        let a = choose(a in ["a, b", "a,b", "(a)", "a", "", " "], always_ask = true)
        picked(current_role) += 1
end:
  when: picked(A) + picked(B) == 2
scoring:
  rank: r in roles
  by: [picked(r)]
  points: key
"""


def test_each_listed_action_plays_itself_beside_others_that_read_alike(tmp_path: Path) -> None:
    """Action text is read with its spacing and brackets forgiven, so of options 'a, b' and 'a,b' (or '(a)' and 'a',
    or '' and ' ') the second, applied by its own text as listed (the web page sends it so, a log replays it so),
    played the first."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(ALIKE, encoding="utf-8")
    game = engine.load(path)
    texts = game.new_state(players=2, seed=0).legal_actions().texts()
    assert len(texts) == 6 and texts[-2:] == ['choose ""', 'choose " "']  # typed, these read as one or none
    for text in texts:
        s = game.new_state(players=2, seed=0, record=True)
        s.apply(text)
        assert s.log[-2:][0] == f"A chooses {text[len('choose '):]}"
    s = game.new_state(players=2, seed=0, record=True)
    before = s.clone(record=True)
    with pytest.raises(IllegalActionError, match=r"'choose a ' is ambiguous: it reads as choose \(a\) and choose a, "
                                                 "which differ by their spacing or brackets alone"):
        s.apply("choose a ")
    assert s == before and s.history == before.history
