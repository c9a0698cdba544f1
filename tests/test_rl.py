"""The PettingZoo environment (engine.rl): PettingZoo's own API and seed tests on every shipped ruleset and
player count, the action table against the engine's legal actions, hidden information, and the errors.

Needs the ``rl`` extra; without it these tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

import engine


def _extra(module: str) -> Any:
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason="needs the rl extra: pip install -e '.[rl]'")


np = _extra("numpy")
_extra("gymnasium")
pettingzoo_test = _extra("pettingzoo.test")

from click.testing import CliRunner  # noqa: E402

from cli.main import main  # noqa: E402
from engine.rl import ActionTable, env  # noqa: E402
from engine.enumeration import Texts  # noqa: E402
from engine.errors import RulecraftError  # noqa: E402

# PettingZoo's checker suggests a plain Box; a Dict with "action_mask" is the convention of its own board games.
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning",
                                        "ignore:Observation is not a NumPy array:UserWarning")

CASES = [(name, players) for name in engine.builtin_names() for players in engine.load(name).player_counts]


@pytest.fixture(scope="module")
def games() -> dict[str, engine.Game]:
    return {name: engine.load(name) for name in engine.builtin_names()}


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_pettingzoo_api_and_seed_tests(name: str, players: int, games: dict[str, engine.Game]) -> None:
    game = games[name]
    pettingzoo_test.api_test(env(game, players=players), num_cycles=1000)
    pettingzoo_test.seed_test(lambda: env(game, players=players), num_cycles=200)


VARIANTS = [(name, v) for name in engine.builtin_names() for v in engine.load(name).available_variants]


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=[f"{n}+{v}" for n, v in VARIANTS])
def test_pettingzoo_api_test_on_every_variant(name: str, variant: str) -> None:
    game = engine.load(name, variant)
    pettingzoo_test.api_test(env(game, players=min(game.player_counts)), num_cycles=1000)


@pytest.mark.parametrize("name", sorted(engine.builtin_names()))
def test_every_legal_action_has_an_index(name: str, games: dict[str, engine.Game]) -> None:
    """In random games at every player count, the mask offers exactly the legal actions (up to the ranked limit),
    and each index plays the action it stands for."""
    game = games[name]
    table = ActionTable(game)
    for players in game.player_counts:
        for seed in range(3):
            state = game.new_state(players=players, seed=seed)
            pick = random.Random(seed)
            while not state.is_terminal:
                legal = table.legal(state)
                actions = state.legal_actions()
                unlisted = _unlisted(table, actions)
                assert len(legal) == len(actions) - unlisted + min(unlisted, table.ranked)
                for index, action in legal.items():
                    assert index >= len(table.texts) or table.texts[index] == str(action)
                state.apply(legal[pick.choice(sorted(legal))])


def _unlisted(table: ActionTable, actions: Any) -> int:
    return sum(1 for a in actions if str(a) not in table.index)


def test_a_step_that_misses_a_text_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = engine.load("tutorial-tiles")
    place = game.steps[0]
    full = type(place).action_texts
    monkeypatch.setattr(type(place), "action_texts", 
                        lambda self, g: Texts(tuple(t for t in full(self, g).texts if not t.endswith(" at 0,0"))))
    table = ActionTable(game)
    state = game.new_state(players=2, seed=0)
    missing = next(str(a) for a in state.legal_actions() if str(a) not in table.index)
    with pytest.raises(RulecraftError, match=f"the legal action '{missing}' is missing from the action table"):
        table.legal(state)


def test_only_unlistable_decisions_are_ranked(games: dict[str, engine.Game]) -> None:
    ranked = {name for name, game in games.items() if ActionTable(game).ranked}
    assert ranked == {"spell-cycles", "hex-glyphs"}  # where a pattern lies on the board is not listed; see docs/rl.md
    assert ActionTable(games["spell-cycles"], ranked=0).ranked == 0


def test_a_sealed_choice_stays_hidden_from_the_other_seat(games: dict[str, engine.Game]) -> None:
    """Two games that differ only in what seat 1 committed look the same to seat 2, not to seat 1."""
    e1, e2 = env(games["nine-domains"], players=2), env(games["nine-domains"], players=2)
    e1.reset(seed=5)
    e2.reset(seed=5)
    assert e1.agent_selection == "player_1"
    legal = sorted(e1.unwrapped.table.legal(e1.unwrapped.game_state))
    e1.step(legal[0])
    e2.step(legal[1])
    assert (e1.observe("player_2")["observation"] == e2.observe("player_2")["observation"]).all()
    assert not (e1.observe("player_1")["observation"] == e2.observe("player_1")["observation"]).all()


def test_rewards_are_the_returns_and_only_the_mover_has_a_mask(games: dict[str, engine.Game]) -> None:
    e = env(games["tutorial-tiles"], players=3)
    e.reset(seed=2)
    totals = {agent: 0.0 for agent in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        for other in e.agents:
            assert e.observe(other)["action_mask"].any() == (other == agent)
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    returns = e.unwrapped.game_state.returns()
    assert totals == {f"player_{seat}": returns[seat - 1] for seat in (1, 2, 3)}
    assert sum(returns) == pytest.approx(1.0)


def test_an_illegal_index_is_refused_and_changes_nothing(games: dict[str, engine.Game]) -> None:
    e = env(games["tutorial-tiles"], players=2)
    e.reset(seed=1)
    state = e.unwrapped.game_state
    before = state.to_json()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal for player_1 now"):
        e.step(illegal)
    assert state.to_json() == before


def test_a_bad_player_count_is_refused(games: dict[str, engine.Game]) -> None:
    with pytest.raises(ValueError, match="is played by 2, 3 players, not 7"):
        env(games["tutorial-tiles"], players=7)


def test_explain_observation_describes_both_spaces() -> None:
    result = CliRunner().invoke(main, ["explain", "tutorial-tiles", "--observation", "--players", "3"])
    assert result.exit_code == 0, result.output
    e = env("tutorial-tiles", players=3)
    assert f"action space: Discrete({e.action_space('player_1').n})" in result.output
    assert f"'observation': Box(int32, {e.observation_space('player_1')['observation'].shape[0]})" in result.output
    assert "[0:5] seat: observing seat" in result.output


# ---------------------------------------------------------------- docs/rl.md

DOC = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_doc_examples_run_and_the_trained_policy_beats_random(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Every Python block of docs/rl.md runs; the policy it trains, played by the doc's command, beats random."""
    policy = tmp_path / "policy.json"
    for block in _blocks("python"):
        exec(compile(block.replace("/tmp/policy.json", str(policy)), str(DOC), "exec"), {})
    assert "actions valued in" in capsys.readouterr().out
    command = next(line for block in _blocks("sh") for line in block.splitlines() if "policy:" in line)
    args = shlex.split(command.replace("/tmp/policy.json", str(policy)))[1:] + ["--format", "json"]
    trained = json.loads(CliRunner().invoke(main, args).output)
    assert trained["agents"] == [f"policy:{policy}", "random"]
    baseline = json.loads(CliRunner().invoke(main, [a if not a.startswith("policy:") else "random" for a in args]).output)
    assert trained["win_rate"]["1"]["low"] > baseline["win_rate"]["1"]["high"]


def test_the_explain_output_in_the_doc_is_real() -> None:
    shown = next(b for b in _blocks("text") if b.startswith("$ rulecraft explain tutorial-tiles --observation"))
    real = CliRunner().invoke(main, ["explain", "tutorial-tiles", "--observation"]).output
    assert shown == "$ rulecraft explain tutorial-tiles --observation\n" + real


def test_a_bad_policy_file_is_refused_with_a_reason(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "2", "--agents", f"policy:{bad}"])
    assert result.exit_code == 2
    assert "is not a policy file" in result.output
    missing = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "2", "--agents", "policy:/nonexistent.json"])
    assert "cannot read the policy file /nonexistent.json" in missing.output


@pytest.mark.parametrize("name", sorted(engine.builtin_names()))
def test_the_encoding_shows_nothing_a_seat_may_not_see(name: str, games: dict[str, engine.Game]) -> None:
    """Redealing everything a seat may not see (a determinization) leaves that seat's vector unchanged."""
    from engine.information import determinize
    from engine.rl import Encoder

    game = games[name]
    players = max(game.player_counts)
    encoder = Encoder(game, players)
    state = game.new_state(players=players, seed=11)
    pick = random.Random(11)
    while not state.is_terminal:
        for seat in range(1, players + 1):
            redealt = determinize(state, seat, random.Random(seat))
            assert (encoder.encode(state.observation(seat)) == encoder.encode(redealt.observation(seat))).all()
        actions = state.legal_actions()
        state.apply(actions[pick.randrange(len(actions))])


def test_every_step_kind_that_offers_actions_lists_them() -> None:
    """A new kind of turn step with decisions must say which action texts it can offer (see engine.enumeration)."""
    from engine.blocks.steps import STEP_KINDS, Step

    silent = [kind for kind, cls in STEP_KINDS.items() if cls.actions is not Step.actions and cls.action_texts is Step.action_texts]
    assert not silent, f"step kinds with decisions but no action_texts: {silent}"
