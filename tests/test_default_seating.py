"""``roles: {of: TYPE}`` without ``seating``: seat 1 plays the first role, seat 2 the second, the rest absent.

A designer naming the players by colour had to write a row of seats for every player count, though it said only the
obvious; leaving it out was an error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine

RULESET = """\
name: colours
players: [2, 3]
types:
  colour: [Red, Blue, White]
roles: {of: colour}
counters:
  steps: {per: role}
turn:
  - do: {effect: "steps(current_role) += 1"}
end:
  when: turn >= 3
scoring:
  rank: r in roles where seated(r)
  by: [steps(r)]
  points: [1]
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    (tmp_path / "ruleset.yaml").write_text(text)
    return engine.load(tmp_path)


@pytest.mark.parametrize("players, seated", [(2, ["Red", "Blue"]), (3, ["Red", "Blue", "White"])])
def test_each_seat_plays_the_role_of_its_number(tmp_path: Path, players: int, seated: list[str]) -> None:
    game = load(tmp_path)
    s = game.new_state(players=players, seed=1)
    assert [r for r in ("Red", "Blue", "White") if game.compile_condition(f"seated({r})").test(s)] == seated
    assert game.compile_condition("seat(Red) == 1 and seat(Blue) == 2").test(s)


def test_more_players_than_roles_is_refused_at_the_type(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError) as err:
        load(tmp_path, RULESET.replace("players: [2, 3]", "players: [2, 4]"))
    (problem,) = err.value.diagnostics
    assert problem.message == "4 players need as many roles, but 'colour' has 3 (Red, Blue, White)"
    assert (problem.pos.line, problem.pos.col) == (5, 13)
