"""Invariants: the engine's own (true of every state of every ruleset) and the ones rulesets declare.

* :func:`assert_consistent` checks what the engine guarantees whatever the
  ruleset says: every component is in exactly one zone, the board, the cells
  and the frontier agree, faces and seats are in range, a game in progress has
  a decision to make, and the state survives a JSON round trip.  The fuzz
  tests call it on mutated rulesets, edited saves and after random effects.
* The rulesets' declared ``invariants:`` hold after every action of random
  games (a CI-sized soak: a few hundred games over every ruleset x variant x
  player count, through ``benchmarks/soak.py``).
* ``rulecraft check --invariants`` reports a broken invariant with the game's
  seed and the action number, and exits 1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner, Result

from cli.main import main
import engine
from engine.core.decisions import TERMINAL
from engine.model.state import State
from engine.runner.replay import Replay, checked_playout
from tests.conftest import shipped_game

ROOT = Path(__file__).resolve().parent.parent
CARDS_DIR = ROOT / "rulesets" / "iconoclasm-cards"


def assert_consistent(state: State, live: bool = True) -> None:
    """What the engine guarantees of any state, whatever its ruleset; ``live``: also that play can go on."""
    g = state.game
    n = len(g.component_names)
    assert len(state.zones) == len(g.zone_names)
    assert sorted(c for z in state.zones for c in z) == list(range(n)), "a component is in no zone or in two"
    for zi, zone in enumerate(state.zones):
        assert all(state.zone_of[c] == zi for c in zone), "zone_of disagrees with the zones"
    assert len(state.face) == n and all(0 <= f < g.face_count[c] for c, f in enumerate(state.face))
    on_board = sorted(state.zones[g.board_zone]) if g.board_zone >= 0 else []
    beneath = {c: cell for cell, below in state.stacks.items() for c in below}  # pieces under a stack's top one
    assert all(cell in state.grid for cell in state.stacks), "a stack without a top piece"
    assert sorted([*state.grid.values(), *beneath]) == on_board, "the board cells disagree with the board zone"
    assert all(state.cell_of[c] == cell for cell, c in state.grid.items())
    assert all(state.cell_of[c] == cell for c, cell in beneath.items())
    assert sum(cell is not None for cell in state.cell_of) == len(state.grid) + len(beneath)
    if g.grid is not None:
        frontier = {m for cell in state.grid for m in g.grid.neighbours(cell) if m not in state.grid}
        assert set(state.frontier) == frontier, "the frontier is not the empty cells next to the pieces"
        box = None
        for cell in state.grid:
            box = g.grid.grow(box, cell)
        assert state.bbox == box, "the bounding box is stale"
    assert set(state.positions) == set(g.roles.values) if g.roles else True
    assert set(state.order) <= set(state.positions)
    assert sorted({state.seat_of[r] for r in state.order}) == list(range(1, state.players + 1))
    if state.is_terminal:
        assert state.current_player == TERMINAL and len(state.legal_actions()) == 0
        assert len(state.returns()) == state.players
    elif live:
        assert 1 <= state.seat_to_move <= state.players
        assert len(state.legal_actions()) > 0, "a game in progress with nothing to decide"
        if state.current_player == engine.SIMULTANEOUS:  # every seat of a simultaneous decision has its part
            seats = state.simultaneous_seats()
            assert len(seats) > 1 and seats[0] == state.seat_to_move
            assert all(len(state.legal_actions(seat)) > 0 for seat in seats)
        else:
            assert state.current_player == state.seat_to_move
    restored = g.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored == state, "the JSON round trip changed the state"


# ---------------------------------------------------------------- declared invariants, soaked


@pytest.fixture(scope="module")
def soak() -> ModuleType:
    """benchmarks/soak.py, playing the games the tests compiled (each shipped ruleset and variant compiled once per
    test process, shared with the other modules' tests of them)."""
    spec = importlib.util.spec_from_file_location("soak", ROOT / "benchmarks" / "soak.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module
    spec.loader.exec_module(module)
    module._game = shipped_game
    return module


@pytest.mark.parametrize("name", engine.builtin_names())
def test_soak_a_few_hundred_games_of_every_configuration(name: str, soak: ModuleType) -> None:
    """The CI-sized soak: no error and no broken invariant in any ruleset x variant x player count.  Three games of
    each of the 107 configurations (seeds 0-2), a ruleset's configurations in a test of their own, so that the
    suite's workers share them; ``SOAK_GAMES=N`` plays about N in all (1,000: nine of each, as the suite did
    before); ``benchmarks/soak.py`` is the full soak."""
    configs = soak.configurations([name])
    games = max(2, int(os.environ.get("SOAK_GAMES", "330")) // len(soak.configurations()))
    rows = soak.soak(configs, games=games, jobs=1, seed=0)
    assert len(rows) == len(configs)
    for row in rows:
        assert row.games == games
        assert row.errors == 0 and row.broken == 0, row.failures
        assert row.actions_per_game > 0
    table = soak.table(rows)
    assert table.count("\n") == len(rows) + 1 and "| broken invariants |" in table


def test_every_shipped_ruleset_declares_invariants() -> None:
    for name in engine.builtin_names():
        game = shipped_game(name)
        assert len(game.invariants) >= 2, f"{name} declares fewer than two invariants"


def test_checked_playout_reports_the_first_broken_invariant_with_seed_and_action(tmp_path: Path) -> None:
    game = _ruleset_with(tmp_path, "at most two cards: count(c in board) <= 2")
    result = checked_playout(game, players=2, seed=5)
    assert not result.ok and result.broken == ["at most two cards"]
    assert result.failed_at == 3 and len(result.actions) == 3
    assert result.problem().startswith("game seed 5: invariant 'at most two cards' broken after action 3 'place ")


def test_checked_playout_reports_an_invariant_that_fails_to_run(tmp_path: Path) -> None:
    game = _ruleset_with(tmp_path, "divides: 12 / (count(c in board) - 1) != 0")
    result = checked_playout(game, players=2, seed=1)
    assert not result.ok and not result.crash
    assert result.failed_at == 1 and "division by zero" in (result.error or "")


def test_checked_playout_stops_a_game_that_does_not_end() -> None:
    result = checked_playout(shipped_game("iconoclasm-cards"), players=2, seed=1, max_actions=5)
    assert not result.ok and result.failed_at == 5 and "did not end within 5 actions" in (result.error or "")


def test_a_healthy_game_passes() -> None:
    result = checked_playout(shipped_game("tutorial-tiles"), players=3, seed=2)
    assert result.ok and result.finished and result.problem() == ""


# ---------------------------------------------------------------- rulecraft check --invariants


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_check_invariants_passes_on_the_shipped_rulesets() -> None:
    for name in engine.builtin_names():
        result = run("check", "--invariants", name, "--games", "3")
        assert result.exit_code == 0, result.output
        assert " 0 failed" in result.output and "invariant" in result.output


def test_check_invariants_with_a_variant_and_a_player_count() -> None:
    result = run("check", "--invariants", "iconoclasm-cards", "--variant", "chain-reactions", "--players", "3",
                 "--games", "4")
    assert result.exit_code == 0, result.output
    assert "variant chain-reactions" in result.output and "3 players: 4 games" in result.output
    assert "2 players" not in result.output


def test_check_invariants_reports_a_broken_one_and_saves_a_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _ruleset_with(tmp_path, "at most two cards: count(c in board) <= 2")
    folder = tmp_path / "failures"
    result = run("check", "--invariants", str(tmp_path / "cards"), "--players", "2", "--games", "2", "--seed", "5",
                 "--save", str(folder))
    assert result.exit_code == 1
    assert "game seed 5: invariant 'at most two cards' broken after action 3" in result.output
    assert "game seed 6:" in result.output and "0 games passed, 2 failed" in result.output
    saved = sorted(folder.glob("*.json"))
    assert len(saved) == 2
    log = Replay.read(saved[0])
    assert len(log.actions) == 3 and log.seed == 5 and len(log.hashes) == 4
    assert run("replay", str(saved[0])).exit_code == 1  # the ruleset is outside the log's places, seen from here
    assert run("replay", str(saved[0]), "--allow", str(tmp_path / "cards")).exit_code == 0
    monkeypatch.chdir(tmp_path)  # replayed from the project's folder, which holds both
    assert run("replay", str(saved[0])).exit_code == 0


def test_check_invariants_lists_ten_failing_games_and_counts_the_rest(tmp_path: Path) -> None:
    """An invariant every game breaks listed every game, a line each: a wall of 100 lines for the default --games."""
    _ruleset_with(tmp_path, "at most two cards: count(c in board) <= 2")
    result = run("check", "--invariants", str(tmp_path / "cards"), "--players", "2", "--games", "13")
    assert result.exit_code == 1
    assert result.output.count("invariant 'at most two cards' broken") == 10
    assert "... and 3 more failing games (--save DIR writes a replay of each)" in result.output
    assert "0 games passed, 13 failed" in result.output
    folder = tmp_path / "failures"
    saved = run("check", "--invariants", str(tmp_path / "cards"), "--players", "2", "--games", "12", "--save", str(folder))
    assert f"... and 2 more failing games (their replays are in {folder})" in saved.output
    assert len(list(folder.glob("*.json"))) == 12


def test_check_invariants_usage_errors(tmp_path: Path) -> None:
    # click also exits 2 for an unknown option: the message shows which mistake was caught
    usage = {
        ("check",): "give scenario files or folders (or --invariants RULESET)",
        ("check", str(CARDS_DIR / "scenarios"), "--invariants", "iconoclasm-cards"):
            "give scenario files or --invariants RULESET, not both",
        ("check", "--invariants", "iconoclasm-cards", "--players", "9"):
            "Invalid value for --players: iconoclasm-cards is played by 1, 2, 3, 4 players, not 9",
        ("check", "--invariants", "iconoclasm-cards", "--games", "0"):
            "Invalid value for '--games': 0 is not in the range 1<=x<=10000000",
    }
    for args, message in usage.items():
        result = run(*args)
        assert result.exit_code == 2 and f"Error: {message}" in result.output, result.output
    unknown = run("check", "--invariants", "no-such-game")
    assert unknown.exit_code == 1 and "unknown ruleset 'no-such-game'" in unknown.output


def test_check_invariants_written_as_a_flag_after_the_ruleset_says_how_to_write_it() -> None:
    """``check iconoclasm-cards --invariants --games 5``: --invariants took '--games' as its ruleset.

    The '5' left over was then refused as a scenario folder ("no file or folder '5'"), which said
    nothing of the mistake.
    """
    result = run("check", "iconoclasm-cards", "--invariants", "--games", "5")
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--invariants'" in result.output and "was given the option '--games'" in result.output
    assert "rulecraft check --invariants RULESET" in result.output and "'5'" not in result.output


@pytest.mark.parametrize("args", [("--invariants",), ("iconoclasm-cards", "--invariants")])
def test_check_invariants_without_its_ruleset_says_what_goes_after_it(args: tuple[str, ...]) -> None:
    """``check --invariants`` (nothing after it) said only "Option '--invariants' requires an argument"."""
    result = run("check", *args)
    assert result.exit_code == 2, result.output
    assert "the ruleset whose games to play goes after it" in result.output
    assert "rulecraft check --invariants RULESET" in result.output


def _ruleset_with(tmp_path: Path, invariant: str) -> engine.Game:
    """A copy of the card game with one more invariant (``name: condition``)."""
    folder = tmp_path / "cards"
    shutil.copytree(CARDS_DIR, folder)
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\ninvariants:\n" in text
    path.write_text(text.replace("\ninvariants:\n", f"\ninvariants:\n  {invariant}\n"), encoding="utf-8")
    return engine.load(path)


def test_regression_pieces_beneath_a_stack_are_on_the_board() -> None:
    """Found by the stateful fuzz: a piece under another (a stacking board) is in the board zone but not a top cell."""
    game = shipped_game("spell-cycles", "spellstackers")
    state = game.new_state(players=2, seed=0)
    for _ in range(3):
        state.apply(state.legal_actions()[0])  # the second large pyramid goes on the first
    assert state.stacks
    assert_consistent(state)


def test_validate_reports_an_invariant_broken_once_the_game_is_set_up(tmp_path: Path) -> None:
    """validate said 'ok' for a variant dealing six cards where the base's invariant counts nine; only
    check --invariants (every game 'broken after setup') told.  (The variant now deals the base cards but the 0.)"""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: no-zero\nextends: nine-domains\nsetup: |\n  for r in roles:\n"
                    "    move(c in supply where c.kind == \"card\" and not c.special and c.value > 0, hand(r), 5)\n"
                    "    move(c in supply where c.kind == \"card\" and c.special, hand(r), specials_per_player)\n",
                    encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert (f"{path}:2:10: invariant 'every player holds the base cards and their specials' does not hold once 2 "
            "players are set up -- at nine-domains/ruleset.yaml:") in result.output
    assert "(rulecraft check --invariants" in result.output and "override 'invariants' in this file" in result.output
    path.write_text(path.read_text() + "invariants:\n  every player holds the base cards and their specials: true\n",
                    encoding="utf-8")
    assert run("validate", str(path)).exit_code == 0
