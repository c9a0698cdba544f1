"""Code that only looks at the game — a condition, a score, a function's body, a question's braces — cannot change it.

A call that changes the game has no value to test, so ``move(...) == none`` was refused for comparing an effect; but
inside a list or an ``if`` it was let through (``count([move(...)]) > 5``), and ran each time the code was read: an
end condition moved a player's tiles to the other's hand at every turn's end, and a question's ``{move(...)}`` moved
them as the question was asked, reading ``none``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.runner.expectations import compile_expectation

from budget_cli import BASE

MOVE = "move(t in hand(Sun), hand(Moon))"
END = "  when: all(count(t in hand(r)) == 0 for r in roles)"


def _refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        engine.load(str(path))
    return str(refused.value)


@pytest.mark.parametrize("condition, column", [
    (f"count([{MOVE}]) > 5", 16),
    (f"count(list({MOVE} for x in numbers(1, 2))) > 5", 20),
    ("count(x in [shuffle(hand(Sun))]) > 5", 21),
    (f"count(if true then [{MOVE}] else []) > 5", 29),
])
def test_an_end_condition_cannot_change_the_game(tmp_path: Path, condition: str, column: int) -> None:
    line = BASE.splitlines().index(END) + 1
    said = _refused(tmp_path, BASE.replace(END, f"  when: {condition}"))
    assert f"ruleset.yaml:{line}:{column}: " in said and "() changes the game, which a condition or score can't do" in said, said


def test_a_functions_body_cannot_change_the_game(tmp_path: Path) -> None:
    said = _refused(tmp_path, BASE.replace("counters:", f"functions:\n  f(): {MOVE}\ncounters:"))
    assert "ruleset.yaml:18:8: move() changes the game" in said, said


def test_a_questions_braces_cannot_change_the_game(tmp_path: Path) -> None:
    asks = (f'  - do: {{effect: "let a = choose(x in numbers(1, 2), always_ask = true, text = \\"now {{{MOVE}}}\\")"}}\n')
    said = _refused(tmp_path, BASE.replace("turn:\n", "turn:\n" + asks, 1))
    assert "move() changes the game, which a condition or score can't do" in said, said


def test_a_program_still_changes_the_game(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(BASE.replace("turn:\n", f"  {MOVE}\nturn:\n", 1), encoding="utf-8")
    game = engine.load(str(path))
    state = game.new_state(players=2, seed=1)
    assert compile_expectation(game, "count(hand(Sun)) == 0 and count(hand(Moon)) == 4").holds(state)
