"""None where a number or a zone is needed (sum, max, min, abs, nth, move, shuffle): a positioned error, never Python's.

A sealed number nobody sealed, or an attribute a component does not have,
reads as none; arithmetic and comparisons on it were already a positioned
error ("... has no value here"), but the folds and ``abs`` let Python's
``TypeError`` out — a traceback from ``rulecraft validate``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.errors import EffectRuntimeError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bids() -> engine.State:
    """A sealed-bid game just set up: nobody has sealed a number, so ``committed_number(r)`` is none."""
    return engine.load(ROOT / "docs" / "examples" / "sealed-bids").new_state(players=2, seed=0)


@pytest.mark.parametrize("code, word", [
    ("max(committed_number(r) for r in roles) == 0", "max()"),
    ("min(committed_number(r) for r in roles) == 0", "min()"),
    ("sum(committed_number(r) for r in roles) == 0", "sum()"),
    ("max(x for x in [1, committed_number(Red)]) == 1", "max()"),
    ("abs(committed_number(Red)) == 0", "abs()"),
])
def test_none_in_a_number_function_is_an_error_at_its_place(bids: engine.State, code: str, word: str) -> None:
    condition = bids.game.compile_condition(code)
    with pytest.raises(EffectRuntimeError, match=rf"^<expression>:1:1: .* has no value here .*, so {word[:-2]}\(\) cannot"):
        condition.test(bids)


def test_nth_at_no_position_is_none(bids: engine.State) -> None:
    assert bids.game.compile_condition("nth(numbers(1, 3), committed_number(Red)) == none").test(bids)


def test_a_fold_of_numbers_still_folds(bids: engine.State) -> None:
    assert bids.game.compile_condition("max(x for x in numbers(1, 5)) == 5 and sum(x for x in [2, 3]) == 5").test(bids)
    assert bids.game.compile_condition("min(x for x in []) == 0 and abs(0 - 4) == 4").test(bids)


def test_validate_reports_a_fold_of_unsealed_numbers_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "bids"
    shutil.copytree(ROOT / "docs" / "examples" / "sealed-bids", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert '"numbers(0, coins(current_role))"' in text
    ruleset.write_text(text.replace('"numbers(0, coins(current_role))"', '"numbers(1, 0)"'))  # nothing to seal
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if row.strip().startswith("top():"))
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"ruleset.yaml:{line}:10: setting up 2 or 3 players fails: the number committed by r has no value here" in result.output


@pytest.mark.parametrize("old, new, said", [
    ("move(c in stock, hand(r), hand_size)", "move(c in stock, hand(r), nth([1], 5))",
     "item 5 of [1] has no value here (nothing is written for it), so move()'s count cannot use it"),
    ("move(c in stock where c.rank != 8, discard, 1, on_top = true)",
     "move(c in stock where c.rank != 8, discard, nth([1], 5), on_top = true)", "so move()'s count cannot use it"),
    ("move(c in stock where c.rank != 8, discard, 1, on_top = true)",
     "move(c in stock where c.rank != 8, if count(stock) > 99 then discard else none, 1)",
     "move() needs a zone, but 'discard if the number of stock is more than 99, else nothing' is none here"),
    ("  shuffle(stock)", "  shuffle(if count(stock) > 99 then stock else none)", "shuffle() needs a zone, but"),
])
def test_a_move_or_shuffle_given_none_is_an_error_at_its_line(tmp_path: Path, old: str, new: str, said: str) -> None:
    folder = tmp_path / "eights"
    shutil.copytree(ROOT / "docs" / "examples" / "crazy-eights", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text()
    assert old in text
    ruleset.write_text(text.replace(old, new))
    line = next(i for i, row in enumerate(ruleset.read_text().splitlines(), 1) if new.strip() in row)
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"ruleset.yaml:{line}:" in result.output and said in result.output, result.output
