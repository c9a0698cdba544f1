"""A refused cast always says why: at the casting step for every spell, and at any other step of the turn."""

from __future__ import annotations

import random

import pytest

import engine
from engine.blocks.casting import Cast, Casts
from engine.core.errors import IllegalActionError

GENERIC = "is not a legal action now"


def _refusal(state: engine.State, text: str) -> str | None:
    """The reason ``text`` is refused (None when it is legal); the state is left unchanged."""
    before = state.to_json()
    try:
        state.clone().apply(text)
    except IllegalActionError as err:
        assert state.to_json() == before
        return str(err)
    return None


@pytest.mark.parametrize("variant", [None, "duel", "spellstackers"])
def test_every_refused_cast_says_why(variant: str | None) -> None:
    game = engine.load("spell-cycles", variant)
    spells = sorted({game.piece_names[c] for c, k in enumerate(game.component_kind) if k == "spell"})
    rnd = random.Random(5)
    checked = refused = 0
    for seed in range(6):
        state = game.new_state(players=2, seed=seed)
        while not state.is_terminal and checked < 400:
            step = game.steps[state.step]
            if state.pending is None and isinstance(step, Cast) and state.slices.get(Casts.block, Casts()).chosen is None:
                for name in rnd.sample(spells, 4) + [spells[0].lower(), f"{spells[0]}x"]:
                    reason = _refusal(state, f"cast {name}")
                    checked += 1
                    if reason is not None:
                        refused += 1
                        assert GENERIC not in reason, reason
            elif state.pending is None and not isinstance(step, Cast):
                reason = _refusal(state, f"cast {spells[0]}")
                assert reason is not None and "'cast' comes in step" in reason, reason
            state.apply(rnd.choice(list(state.legal_actions())))
    assert checked >= 100 and refused >= 50


def test_malformed_cast_says_how_to_write_it() -> None:
    game = engine.load("spell-cycles")
    state = game.new_state(players=2, seed=1)
    rnd = random.Random(2)
    while not isinstance(game.steps[state.step], Cast) or state.pending is not None:
        state.apply(rnd.choice(list(state.legal_actions())))
    assert _refusal(state, "cast") == "write one name after 'cast' ('cast NAME'), not 'cast'"
    assert _refusal(state, "cast Sparkk") == "there is no 'Sparkk' to cast (did you mean 'Spark'?)"
    assert _refusal(state, "cast Spark on 0,0 1,0 with 1,0 as yellow") == (
        "a cast is two actions: 'cast Spark', then 'match 0,0 1,0 with 1,0 as yellow' (the log writes them together: "
        "'... casts Spark on 0,0 1,0 with 1,0 as yellow')")


def test_a_step_already_past_this_turn_is_said_to_be_past() -> None:
    """After the cast step, 'cast Spark' was told "'cast' comes in step 5 of the turn; this is step 6", as if ahead."""
    game = engine.load("spell-cycles")
    cast_step = next(i for i, step in enumerate(game.steps) if isinstance(step, Cast))
    state = game.new_state(players=2, seed=1)
    rnd = random.Random(3)
    seen: dict[bool, str] = {}
    while len(seen) < 2 and not state.is_terminal:
        if state.pending is None and state.chance is None and state.step != cast_step:
            reason = _refusal(state, "cast Spark")
            assert reason is not None
            seen[state.step > cast_step] = reason
        state.apply(rnd.choice(list(state.legal_actions())))
    assert f"('cast' comes in step {cast_step + 1} of the turn, already past in this one; this is step" in seen[True]
    assert "already past" not in seen[False] and f"'cast' comes in step {cast_step + 1} of the turn; this is step" in seen[False]
