"""Numbers at the edges of what a ruleset writes: refused where they are written, or played sanely.

A board of ``width: 0`` and an ``end: max_turns: 0`` are in the broken-ruleset corpus (tests/data/broken/).
"""

from __future__ import annotations

from pathlib import Path

import engine
from engine.runner.validate import validate_path

TIC_TAC_TOE = (Path(engine.__file__).parents[1] / "rulesets" / "tic-tac-toe" / "ruleset.yaml").read_text()


def test_a_kind_of_no_components_is_a_kind_code_reads_as_an_empty_list(tmp_path: Path) -> None:
    """A deck of 0 cards: every instance of a kind of count 0 made the kind's name unknown in code ('unknown name
    'tokens''), as if the kind were never declared; it is an empty list."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(TIC_TAC_TOE.replace("count: 5", "count: 0").replace("count: 4", "count: 0")
                    .replace("running_score: ", "running_score: count(tokens) + "))
    game = engine.load(path)
    assert game.kinds["token"] == []
    state = game.new_state(players=2, seed=1)
    assert state.is_terminal and state.returns() == [0.5, 0.5]  # nobody can place anything: turns pass to the limit
    assert not any("unknown name" in d.message for d in validate_path(path))
