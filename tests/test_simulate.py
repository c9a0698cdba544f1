"""Agents, simulation reports and benchmarks (engine.agents, engine.simulate, engine.bench)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import engine
from engine.errors import RulecraftError
from engine.agents import RandomAgent, make_agent
from engine.bench import bench
from engine.simulate import derive_seed, seat_specs, simulate, wilson

GAME = engine.load("iconoclasm-cards")


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(3, 7) == derive_seed(3, 7)
    assert len({derive_seed(3, i) for i in range(100)}) == 100
    assert derive_seed(3, 0) != derive_seed(4, 0)


def test_random_agent_uses_its_injected_generator() -> None:
    state = GAME.new_state(players=4, seed=1)
    picks = [RandomAgent(random.Random(9)).choose(state) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    assert picks[0] in state.legal_actions()


@pytest.mark.parametrize("spec", ["oracle", "mcts:400", "random:3"])
def test_unknown_or_malformed_agent_specs(spec: str) -> None:
    with pytest.raises(ValueError, match="random"):
        make_agent(spec, 0)


def test_seat_specs() -> None:
    assert seat_specs("random", 3) == ["random"] * 3
    assert seat_specs(["random", "random"], 2) == ["random", "random"]
    with pytest.raises(ValueError, match="one per seat"):
        seat_specs(["random", "random"], 3)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_report_accounts_for_every_game(players: int) -> None:
    report = simulate(GAME, players=players, n=20, seed=2, agents="random")
    assert report.games == 20
    assert sum(report.wins_by_seat.values()) + report.draws + report.no_winner == 20
    assert report.min_length <= report.median_length <= report.max_length
    assert report.min_length <= report.mean_length <= report.max_length
    expected = report.wins_by_seat[1] / 20 if players == 1 else 1.0  # a solo win is the only one
    assert sum(report.mean_returns.values()) == pytest.approx(expected)
    for seat, (rate, low, high) in report.win_rate.items():
        assert low <= rate <= high
        assert rate == report.wins_by_seat[seat] / 20


def test_same_seed_same_games_other_seed_other_games() -> None:
    first = simulate(GAME, players=2, n=15, seed=1, agents="random").results
    assert simulate(GAME, players=2, n=15, seed=1, agents="random").results == first
    assert simulate(GAME, players=2, n=15, seed=2, agents="random").results != first


def test_parallel_runs_match_serial_runs() -> None:
    serial = simulate(GAME, players=4, n=9, seed=3, agents="random", jobs=1)
    done: list[int] = []
    parallel = simulate(GAME, players=4, n=9, seed=3, agents="random", jobs=2, progress=done.append)
    assert serial.to_json() == parallel.to_json()
    assert done[-1] == 9


def test_a_ruleset_broken_during_a_parallel_run_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    shutil.copy(GAME.source, path)
    game = engine.load(path)
    path.write_text(path.read_text(encoding="utf-8").replace("types:", "typos:"), encoding="utf-8")
    with pytest.raises(RulecraftError, match="typos"):
        simulate(game, players=2, n=4, seed=0, agents="random", jobs=2)


def test_bench_reports_speed_and_length() -> None:
    result = bench(GAME, players=2, playouts=4, seed=0)
    wanted = {"playouts_per_second", "actions_per_game", "ruleset", "players", "playouts", "seconds", "python"}
    assert wanted <= set(result)
    assert result["playouts"] == 4 and result["actions_per_game"] > 0
