"""A cell in an action is written in the digits 0-9 (engine/blocks/grid.py, ``parse_cell``).

``place X at ０,0`` (a full-width digit), ``place X at ١,0`` (an Arabic-Indic one), ``place X at 0_1,0`` and
``place X at +1,0`` were played as 0,0 / 1,0 / 1,0 / 1,0: the cell was read with Python's ``int()``, which takes
them all, though no action lists a cell so and every other part of an action is matched as written.  Decided: they
are refused with the usual reason, like any text that is not a cell; spaces and brackets are still accepted.
"""

from __future__ import annotations

import re

import pytest

import engine
from engine.core.errors import IllegalActionError


@pytest.mark.parametrize("cell", ["\uff10,0", "\u0661,0", "0_1,0", "+1,0"])
def test_a_cell_in_other_digits_is_refused_and_nothing_changes(cell: str) -> None:
    s = engine.load("tic-tac-toe").new_state(players=2, seed=0)
    before = s.clone()
    with pytest.raises(IllegalActionError, match=re.escape(f"'{cell}' is not a cell; write it like 1,0")):
        s.apply(f"place X at {cell}")
    assert s == before


@pytest.mark.parametrize("cell", ["1,0", " 1 , 0", "(1, 0)"])
def test_a_cell_with_spaces_or_brackets_is_still_read(cell: str) -> None:
    s = engine.load("tic-tac-toe").new_state(players=2, seed=0)
    s.apply(f"place X at {cell}")
    assert s.history is None or s.history[-1] == "place X at 1,0"
    assert s.legal_actions().texts()[0].startswith("place O")
