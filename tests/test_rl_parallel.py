"""The PettingZoo parallel environment (engine.rl.parallel): PettingZoo's parallel_api_test on every shipped ruleset
and player count, a sealed round played in one step, the same game as the AEC environment, and the errors.

Needs the ``rl`` extra; without it these tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import importlib
import os
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from tests.conftest import shipped_game


def _extra(module: str) -> Any:
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason="needs the rl extra: pip install -e '.[rl]'")


np = _extra("numpy")
pettingzoo_test = _extra("pettingzoo.test")

from engine.rl import env  # noqa: E402
from engine.rl.parallel import parallel_env  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning",
                                        "ignore:Observation is not a NumPy array:UserWarning")

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
CASES = [(name, players) for name in engine.builtin_names() for players in shipped_game(name).player_counts]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_pettingzoo_parallel_api_test(name: str, players: int) -> None:
    pettingzoo_test.parallel_api_test(parallel_env(shipped_game(name), players=players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoo_parallel_api_test_on_sealed_bids(players: int) -> None:
    pettingzoo_test.parallel_api_test(parallel_env(str(EXAMPLES / "sealed-bids" / "ruleset.yaml"), players=players,
                                                   ranked=64), num_cycles=1000)


def _play(e: Any, seed: int) -> tuple[list[dict[str, int]], dict[str, float]]:
    """A game of the parallel environment ``e`` with sampled legal actions: the actions of each step, the rewards."""
    observations, _ = e.reset(seed=seed)
    steps, rewards = [], {}
    while e.agents:
        deciding = [a for a in e.agents if observations[a]["action_mask"].any()]
        actions = {a: int(e.action_space(a).sample(observations[a]["action_mask"])) for a in deciding}
        steps.append(actions)
        observations, rewards, _, _, _ = e.step(actions)
    return steps, rewards


def test_a_sealed_round_is_one_step_of_every_seat_and_plays_the_game_the_aec_environment_plays() -> None:
    game = shipped_game("nine-domains")
    steps, rewards = _play(parallel_env(game, players=2), seed=3)
    assert sum(len(actions) == 2 for actions in steps) >= 3  # the three sealed cards of a round: both seats at once
    queue = {agent: [actions[agent] for actions in steps if agent in actions] for agent in ("player_1", "player_2")}
    aec = env(game, players=2)
    aec.reset(seed=3)
    for agent in aec.agent_iter():  # the same seed and each seat's actions in order: the same game, the same result
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else queue[agent].pop(0))
    assert not any(queue.values())
    assert list(rewards.values()) == aec.unwrapped.game_state.returns()
    assert _play(parallel_env(game, players=2), seed=3) == (steps, rewards)  # a seed repeats the game


def test_a_seat_deciding_nothing_has_no_mask_and_its_action_is_not_played() -> None:
    e = parallel_env("tic-tac-toe", players=2)
    observations, infos = e.reset(seed=0)
    assert observations["player_1"]["action_mask"].sum() == 9 and not observations["player_2"]["action_mask"].any()
    assert infos == {"player_1": {}, "player_2": {}}
    e.step({"player_1": 0, "player_2": 5})  # player_2's is what PettingZoo's tools give a seat with nothing to decide
    assert e.unwrapped.aec.game_state.seat_to_move == 2 and len(e.unwrapped.aec.game_state.grid) == 1


def test_wrong_actions_are_refused_saying_why_and_change_nothing() -> None:
    e = parallel_env("nine-domains", players=2)
    observations, _ = e.reset(seed=1)
    state = e.unwrapped.aec.game_state
    before = state.to_json()
    legal = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in e.agents}
    with pytest.raises(ValueError, match="player_2 decides now and was given no action"):
        e.step({"player_1": legal["player_1"]})
    illegal = int(np.flatnonzero(observations["player_2"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal for player_2 now"):
        e.step({**legal, "player_2": illegal})
    with pytest.raises(ValueError, match="not 'commit'"):
        e.step({**legal, "player_2": "commit"})
    with pytest.raises(KeyError, match="there is no agent 'player_3': the agents are player_1, player_2"):
        e.step({**legal, "player_3": 0})
    with pytest.raises(ValueError, match="step\\(\\) takes a dict of actions by agent"):
        e.step([legal["player_1"], legal["player_2"]])
    assert state.to_json() == before
    e.step(legal)
    assert state.to_json() != before


def test_the_game_over_empties_the_agents_and_a_further_step_is_refused() -> None:
    e = parallel_env("tic-tac-toe", players=2)
    _, rewards = _play(e, seed=5)
    assert e.agents == [] and sorted(rewards.values()) in ([0.0, 1.0], [0.5, 0.5])
    with pytest.raises(RuntimeError, match="the game is over: call reset"):
        e.step({"player_1": 0})
    e.close()
    with pytest.raises(RuntimeError, match="closed"):
        e.step({"player_1": 0})


def test_the_doc_s_example_prints_what_its_comment_says(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    block, = (b for b in re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M) if "parallel_env(" in b)
    exec(compile(block, "docs/rl.md", "exec"), {})
    shown = re.search(r"^print\(rewards\) +# (.*)$", block, re.M)
    assert shown is not None and capsys.readouterr().out.strip() == shown.group(1)


def test_a_step_or_a_look_before_the_first_reset_says_to_call_it() -> None:
    """It said 'this environment was closed', of an environment never reset."""
    e = parallel_env("tic-tac-toe", players=2)
    for call in (lambda: e.step({"player_1": 0}), e.state):
        with pytest.raises(RuntimeError, match=r"^reset\(\) needs to be called before (step|state)\(\): there is no game yet$"):
            call()


def test_an_environment_pickled_mid_game_plays_on_as_the_original() -> None:
    e = parallel_env("nine-domains", players=2)
    observations, _ = e.reset(seed=4)
    actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in e.agents}
    copy = pickle.loads(pickle.dumps(e))
    assert copy.aec.game_state is not e.aec.game_state
    results = [env.step(actions) for env in (e, copy)]
    assert all(np.array_equal(results[0][0][agent]["observation"], results[1][0][agent]["observation"])
               for agent in e.agents)
    assert copy.aec.game_state.to_json() == e.aec.game_state.to_json()


def test_the_table_encoder_state_and_seed_are_the_aec_environments() -> None:
    """A researcher reads actions' texts and the game's seed off the parallel environment as off the AEC one
    (``e.unwrapped.table`` was an AttributeError there: the parts were only behind ``e.aec``)."""
    e, aec = parallel_env("liars-dice", players=2), env("liars-dice", players=2)
    assert e.game_state is None and e.game_seed is None
    e.reset(seed=5)
    aec.reset(seed=5)
    u = e.unwrapped
    assert u.game is u.aec.game and u.game.name == "liars-dice"
    assert [u.table.describe(i) for i in range(len(u.table))] == [aec.unwrapped.table.describe(i)
                                                                   for i in range(len(aec.unwrapped.table))]
    assert u.encoder.segments == aec.unwrapped.encoder.segments
    assert u.game_seed == aec.unwrapped.game_seed == 5
    assert u.game_state.observation(1) == aec.unwrapped.game_state.observation(1)
