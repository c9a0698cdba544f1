"""Where a game breaks as it begins: its setup, or a turn played before anyone decides.  A first turn's division by
zero was reported as 'setting up 2 players fails', sending the designer to look for the fault in the setup."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError

GAME = """\
name: broken
players: [2]
counters:
  pot: {min: 0}
setup: |
  pot = SETUP
turn:
  - do:
      effect: |
        pot += 10 / (turn - 1)
end:
  when: turn >= 4
scoring:
  rank: r in roles where seated(r)
  by: [pot]
  points: [1, 0]
"""


@pytest.mark.parametrize("setup, said", [
    ("3", "ruleset.yaml:10:19: a game of 2 players, set up, fails before anyone decides: division by zero"),
    ("3 / 0", "ruleset.yaml:6:11: setting up 2 players fails: division by zero"),
])
def test_a_failure_is_told_as_the_setup_s_only_when_the_setup_breaks(tmp_path: Path, setup: str, said: str) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(GAME.replace("SETUP", setup), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    assert said in str(info.value)
