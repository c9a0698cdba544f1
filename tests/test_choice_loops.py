"""A loop of choices that no answer leaves is stopped by the ``answers`` limit, with a message, soon.

tests/data/endless-picks: a turn effect loops over ``choose(..., optional = true)``, each pick scoring and costing
nothing.  A search bot never passes there, and a paused effect cannot be copied: every sample a search draws at the
pause replays all the answers given so far, so each decision cost more than the last and ``mcts:50`` ran for hours
before the step budget ended the effect.  An effect now takes at most ``answers`` answers in one run (500 by default):
the one after is refused with a message naming the limit, and the state stays at the question.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.blocks import choices
from engine.core import limits
from engine.core.errors import EffectRuntimeError

ENDLESS = Path(__file__).parent / "data" / "endless-picks"


@pytest.mark.parametrize("replaying", [False, True])
def test_the_answer_past_the_limit_is_refused_and_the_state_stays_at_the_question(replaying: bool,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Alike whether the effect waits as a coroutine or replays its answers (without greenlet)."""
    monkeypatch.setattr(choices, "_REPLAYING", replaying)
    with limits.using(limits.parse_limits(["answers=30"])):
        state = engine.load(ENDLESS).new_state(players=2, seed=1)
    for _ in range(29):
        state.apply("choose c2")
    before = state.clone()
    with pytest.raises(EffectRuntimeError, match=r"answered 30 times in one run and asks again \(limit answers=30; raise "
                                                 r"it with --limit answers=N\): does a loop of choices give"):
        state.apply("choose c2")
    assert state == before and state.legal_actions().texts() == before.legal_actions().texts()
    state.apply("choose pass")  # an answer that leaves the loop is taken: the effect asks nothing more
    assert state.turn_number == 2


def test_random_games_stay_far_below_the_default_limit() -> None:
    game = engine.load(ENDLESS)
    assert game.limits.answers == limits.Limits().answers == 500
    most = 0
    for seed in range(20):
        state, rng = game.new_state(players=2, seed=seed), random.Random(seed)
        while not state.is_terminal:
            most = max(most, len(state.pending.tape) if state.pending is not None else 0)
            state.play(rng.randrange(len(state.legal_actions())))  # passes one time in 7
    assert 5 < most < 100


def test_a_search_bot_on_an_endless_loop_of_choices_stops_soon_with_the_limit_named() -> None:
    """``simulate`` with mcts on the endless loop ran for hours; with a limit of 60 answers it stops in seconds, telling
    the limit and how to watch the game."""
    start = time.process_time()
    result = CliRunner().invoke(main, ["simulate", str(ENDLESS), "-n", "1", "--agents", "mcts:20,random", "--seed", "1",
                                       "--limit", "answers=60"])
    told = " ".join(result.output.split())
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "answered 60 times in one run and asks again (limit answers=60; raise it with --limit answers=N)" in told
    assert "--seat 1=mcts:20 --seat 2=random" in told
    assert time.process_time() - start < 60
