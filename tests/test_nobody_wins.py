"""``scoring: nobody_wins``: a competitive game that can end with no winner.

In a deduction game every player may accuse wrongly and be out; the ranking then had every seat tied on 0, and a tie
is a shared win: ``simulate`` counted 198 games of 200 as draws that every seat won, where nobody had.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from cli.explain import explain

RACE = """\
name: reach-ten
players: [2, 3]
counters:
  steps: {per: role, min: 0}
turn:
  - do:
      effect: |
        steps(current_role) += choose(n in [0, 4], text = "walk")
end:
  when: turn >= 2 * player_count
scoring:
  rank: r in roles where seated(r)
  by: [steps(r)]
  points: [1]
  nobody_wins: all(steps(r) < 8 for r in roles where seated(r))
"""


def load(tmp_path: Path, text: str = RACE) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(text)
    return engine.load(tmp_path)


def play(game: engine.Game, answers: list[str]) -> engine.State:
    s = game.new_state(players=2, seed=1)
    for answer in answers:
        s.apply(answer)
    assert s.is_terminal
    return s


def test_when_its_condition_holds_at_the_end_nobody_wins(tmp_path: Path) -> None:
    s = play(load(tmp_path), ["choose 4", "choose 0", "choose 0", "choose 4"])  # 4 steps each: nobody reached 8
    assert s.outcome.winners == () and s.returns() == [0.0, 0.0] and not s.outcome.is_draw
    assert s.outcome.text.endswith("nobody wins: for every r in roles where r is played by a seat, the steps of r is less than 8")


def test_otherwise_the_ranking_decides(tmp_path: Path) -> None:
    s = play(load(tmp_path), ["choose 4", "choose 0", "choose 4", "choose 0"])
    assert s.outcome.winners == (1,) and s.returns() == [1.0, 0.0]


def test_explain_says_when_nobody_wins(tmp_path: Path) -> None:
    assert "the seats with the most points win, unless for every r in roles" in "\n".join(explain(load(tmp_path)))


@pytest.mark.parametrize("line, message", [
    ("  nobody_wins: steps(nth(roles, 1))\n", "must be true or false"),
    ("  nobody_wins: all(steps(r) < 8 for r in roles)\nteams: {2: [[1, 2]]}\n", "'nobody_wins' is for seats playing alone"),
])
def test_a_wrong_condition_is_refused_where_it_is_written(tmp_path: Path, line: str, message: str) -> None:
    text = RACE.replace("  nobody_wins: all(steps(r) < 8 for r in roles where seated(r))\n", line)
    with pytest.raises(engine.RulesetError) as err:
        load(tmp_path, text)
    assert any(message in d.message for d in err.value.diagnostics), [d.message for d in err.value.diagnostics]
