"""A zone worked out during play that is none (``nth(piles(), 3)`` of two piles), read as a collection, stops the
game with an error at the code that gave it.

An Azul-like game set to deal no tiles chose from nothing, found no factory (``nth(sources(), none)``) and selected
from it: ``simulate`` ended in Python's ``TypeError: list indices must be integers or slices, not NoneType`` and a
traceback, where ``move`` to such a zone already said ``move() needs a zone, but ... is none here``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine

RULESET = """\
name: piles
players: [2]
components:
  chip:
    instances: [{id: chip, count: 3}]
zones:
  a: {kind: pile}
  b: {kind: pile}
functions:
  piles(): "[a, b]"
setup: |
  move(c in chips, a)
turn:
  - do:
      effect: |
        CODE
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


@pytest.mark.parametrize("code, col", [
    ("move(x in nth(piles(), 3), b)", 19),
    ("let n = count(nth(piles(), 3))", 23),
    ("let n = count(c in chips where c in nth(piles(), 3))", 45),
    ("let z = first(p in piles() where count(p) > 5)\n        move(x in z, b)", 19),
])
def test_a_zone_that_is_none_is_an_error_where_it_is_read(tmp_path: Path, code: str, col: int) -> None:
    """Loading plays the start of a game, which meets the code (a game of 2 players, set up, fails ...)."""
    (tmp_path / "ruleset.yaml").write_text(RULESET.replace("CODE", code))
    with pytest.raises(engine.RulesetError) as err:
        engine.load(tmp_path)
    (problem,) = err.value.diagnostics
    assert "there is no zone to read here: '" in problem.message and "' is none" in problem.message
    assert (problem.pos.line, problem.pos.col) == (code.count("\n") + 16, col)
