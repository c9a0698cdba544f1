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


def test_connect_four_on_a_rack_larger_than_its_discs_fill_ends_once_they_are_played() -> None:
    """A rack of 200 columns (--set columns=200, as a sweep tries) holds more cells than the 42 discs: once both
    stocks were played out without a line nobody could move, turns passed without a decision, and the game stopped
    with an error at the end condition's step budget instead of ending."""
    import random

    state = engine.load("connect-four", set_options={"columns": "200"}).new_state(players=2, seed=0)
    choose = random.Random(0)
    while not state.is_terminal and state.turn_number <= 42:
        actions = state.legal_actions()
        state.apply(actions[choose.randrange(len(actions))])
    assert state.is_terminal and state.turn_number <= 42
