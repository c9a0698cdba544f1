"""``scoring: winners: together``: sides dealt in secret, whose players all score their side's result, win as one
side.  Every game was a tie of the winning side's seats, so ``simulate`` counted it a shared win (a draw) and gave
every seat 0% wins; ``rulecraft play`` said the seats "share the win"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from cli.render import winners_text
from cli.report_tables import _flag_legend
from engine.blocks.outcome import Outcome
from engine.core.errors import RulesetError
from engine.runner.simulate import simulate

SIDES = """\
name: sides
players: [4]
types: {side: [Loyal, Spy]}
components:
  badge:
    attributes: {side: side}
    instances: [{id: LoyalBadge, side: Loyal, count: 3}, {id: SpyBadge, side: Spy}]
zones:
  deal: {kind: pile, hidden: all}
  allegiance: {kind: hand, per: role, hidden: others}
counters:
  caught: {doc: 1 when the spy was named}
  named: {shown: false}
functions:
  spy(role r): count(b in allegiance(r) where b.side == Spy) > 0
setup: |
  move(b in badges, deal)
  shuffle(deal)
  for r in roles:
    move(b in deal, allegiance(r), 1)
turn:
  - do:
      effect: |
        let r = choose(x in roles where x != current_role, text = "name the spy")
        named += 1
        if spy(r):
          caught = 1
end:
  when: named >= 4
scoring:
  rank: r in roles
  by:
    - if spy(r) == (caught == 0) then 1 else 0
  points: key
  winners: WINNERS
"""


def _game(tmp_path: Path, winners: str = "together") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(SIDES.replace("WINNERS", winners), encoding="utf-8")
    return engine.load(path)


def test_the_winning_side_wins_together_and_a_report_counts_a_win_for_each_of_its_seats(tmp_path: Path) -> None:
    report = simulate(_game(tmp_path), players=4, n=40, seed=1, agents="random")
    loyal = sum(len(r.winners) == 3 for r in report.results)  # games the three loyal seats won
    assert 0 < loyal < 40 and report.draws == 0
    assert sum(report.wins_by_seat.values()) == 3 * loyal + (40 - loyal)  # a win for each seat of the winning side
    assert "won: the share of those it (or its side, winners: together) won alone" in " ".join(_flag_legend(report).split())
    plain = simulate(_game(tmp_path, "most-points"), players=4, n=40, seed=1, agents="random")
    assert plain.draws == loyal and sum(plain.wins_by_seat.values()) == 40 - loyal  # as it was: a side's win a draw


def test_play_says_the_side_wins_together_and_the_outcome_keeps_it_through_a_save(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = game.new_state(players=4, seed=3)
    while not s.is_terminal:
        s.play(0)
    outcome = s.outcome
    assert outcome is not None and outcome.together and not outcome.is_draw and len(outcome.winners) in (1, 3)
    if len(outcome.winners) == 3:
        assert winners_text(outcome).endswith("win together")
    assert Outcome.from_json(outcome.to_json()) == outcome
    assert game.state_from_json(s.to_json()).outcome == outcome
    tie = Outcome.ranked((1, 1), ("a", "b"), {}, "", together=True)
    assert tie.is_draw and winners_text(tie) == "a draw: seats 1 and 2 tie"  # every seat sharing is still a draw
    side = Outcome.ranked((1, 0, 1), ("a", "b", "c"), {}, "", together=True)
    assert winners_text(side) == "seats 1 and 3 win together"
    assert winners_text(Outcome.ranked((1, 0, 1), ("a", "b", "c"), {}, "")) == "seats 1 and 3 share the win"
    result = CliRunner().invoke(main, ["explain", str(tmp_path / "ruleset.yaml")])
    assert "the seats with the most points win together, as one side" in result.output


def test_winners_together_is_refused_beside_teams(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(SIDES.replace("WINNERS", "together").replace("players: [4]", "players: [4]\nteams: {4: [[1, 3], [2, 4]]}"),
                    encoding="utf-8")
    with pytest.raises(RulesetError, match="'winners: together' is for seats playing alone"):
        engine.load(path)
