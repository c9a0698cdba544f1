"""``scoring: {points: key, winners: first-ranked}``: the later keys break ties of the first for the win too — the seats
of the items ranked first on every key win — while each item still scores its first key (engine/blocks/outcome.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine


def played(tmp_path: Path, by: str, winners: str = "", points: str = "key") -> engine.Outcome:
    """A game of the tutorial for three, its own moves chosen first, scored by ``by``."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(f"name: ranked\nextends: tutorial-tiles\nscoring:\n  rank: r in roles\n  by: {by}\n  points: {points}\n"
                    f"{winners}", encoding="utf-8")
    s = engine.load(path).new_state(players=3, seed=1)
    while not s.is_terminal:
        s.play(0)
    assert s.outcome is not None
    return s.outcome


def test_the_later_keys_decide_who_wins(tmp_path: Path) -> None:
    outcome = played(tmp_path, "[0, seat(r)]", "  winners: first-ranked\n")
    assert outcome.scores == (0, 0, 0), "each item still scores its first key"
    assert outcome.winners == (3,) and outcome.returns == (0.0, 0.0, 1.0)


def test_by_default_the_most_points_win_and_tie_breaks_only_order_the_ranking(tmp_path: Path) -> None:
    outcome = played(tmp_path, "[0, seat(r)]")
    assert outcome.winners == (1, 2, 3) and outcome.returns == pytest.approx((1 / 3,) * 3)


def test_items_tied_on_every_key_share_the_win(tmp_path: Path) -> None:
    outcome = played(tmp_path, "[0, 'seat(r) / 2']", "  winners: first-ranked\n")  # 0, 1, 1
    assert outcome.winners == (2, 3) and outcome.returns == (0.0, 0.5, 0.5)


def test_items_tied_on_every_key_share_their_place_and_its_points(tmp_path: Path) -> None:
    """Paid by place, items tied on every key each score the first place they share: a full tie paid [1] scored
    1 to the seat listed first and 0 to the others, beside a draw (play printed 'scores: seat 1: 1, seat 2: 0' and
    'a draw'; simulate gave seat 1 a mean of 1.00 points and a margin of 1 in every drawn game)."""
    assert played(tmp_path, "[0]", "  winners: first-ranked\n", "[1]").scores == (1, 1, 1)
    outcome = played(tmp_path, "[0, 'seat(r) / 2']", "  winners: first-ranked\n", "[3, 2, 1]")  # 0, 1, 1
    assert outcome.winners == (2, 3) and outcome.scores == (1, 3, 3), "the next item is paid the place after the tie's"


def test_paid_by_place_without_first_ranked_full_ties_keep_the_order(tmp_path: Path) -> None:
    outcome = played(tmp_path, "[0]", "", "[1]")
    assert outcome.scores == (1, 0, 0) and outcome.winners == (1,) and outcome.tie_by_order


def test_the_first_key_still_comes_first(tmp_path: Path) -> None:
    outcome = played(tmp_path, "[-seat(r), seat(r)]", "  winners: first-ranked\n")
    assert outcome.winners == (1,) and outcome.scores == (-1, -2, -3)


def test_teams_are_refused_at_the_key(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: teamed\nextends: iconica\nscoring:\n  winners: first-ranked\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError, match=r"ruleset.yaml:4:\d+: 'winners: first-ranked' is for seats playing alone"):
        engine.load(path)


def test_another_value_is_refused(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError, match="winners"):
        played(tmp_path, "[0]", "  winners: highest\n")


def test_a_showcase_whose_rules_break_ties_by_a_later_key_wins_by_it() -> None:
    """Sealed Tiles' rules: ties on ruling tiles are broken by the largest group; random games shared the win instead
    whenever the first key tied (a third of them)."""
    import random
    import re

    game, broken = engine.load("sealed-tiles"), 0
    for seed in range(40):
        s, choose = game.new_state(players=2, seed=seed), random.Random(seed)
        while not s.is_terminal:
            s.play(choose.randrange(len(s.legal_actions())))
        assert s.outcome is not None
        rows = [(tuple(map(int, keys.split(", "))), int(seat))
                for keys, seat in re.findall(r"\[([-\d, ]+)\]: \d+ points? to seat (\d+)", s.outcome.text)]
        best = rows[0][0]
        assert s.outcome.winners == tuple(sorted(seat for key, seat in rows if key == best)), s.outcome.text
        broken += rows[0][0][0] == rows[1][0][0] and rows[0][0] != rows[1][0]
    assert broken, "some game must tie on the first key and be broken by the second"


@pytest.mark.parametrize(("by", "winners", "told"), [
    ("[none]", "", "5:8: a ranking key needs a number, not none"),
    ("['if seat(r) == 2 then none else 0']", "", "5:9: nothing if the seat of r is 2, else 0 has no value here"),
    ("['if seat(r) == 2 then none else 0']", "  winners: first-ranked\n", "5:9: nothing if the seat of r is 2"),
    ("[0, none]", "  winners: first-ranked\n", "5:11: a ranking key needs a number, not none")])
def test_a_ranking_key_of_none_stops_the_game_at_the_key(tmp_path: Path, by: str, winners: str, told: str) -> None:
    """A key of none stopped the game's end with a TypeError's traceback (the ranking compares and adds its keys);
    a second key of none tied every item unseen, and the seats shared the win."""
    from engine.core.errors import EffectRuntimeError

    with pytest.raises(EffectRuntimeError, match=re.escape(told)):
        played(tmp_path, by, winners)
