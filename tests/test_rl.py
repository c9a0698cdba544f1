"""The PettingZoo environment (engine.rl): PettingZoo's own API and seed tests on every shipped ruleset and
player count, the action table against the engine's legal actions, hidden information, and the errors.

Needs the ``rl`` extra; without it these tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import random
import re
import shlex
import shutil
import warnings
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
from engine.blocks.enumeration import Texts  # noqa: E402
from engine.core.errors import RulecraftError  # noqa: E402
from engine.rl import ActionTable, env  # noqa: E402
from engine.rl.chance import may_draw  # noqa: E402
from tests.conftest import shipped_game  # noqa: E402

# PettingZoo's checker suggests a plain Box; a Dict with "action_mask" is the convention of its own board games.
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning",
                                        "ignore:Observation is not a NumPy array:UserWarning")

CASES = [(name, players) for name in engine.builtin_names() for players in shipped_game(name).player_counts]


@pytest.fixture(scope="module")
def games() -> dict[str, engine.Game]:
    """The shipped rulesets, compiled once per test process (shared with the other modules' tests of them)."""
    return {name: shipped_game(name) for name in engine.builtin_names()}


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_pettingzoo_api_and_seed_tests(name: str, players: int, games: dict[str, engine.Game]) -> None:
    game = games[name]
    pettingzoo_test.api_test(env(game, players=players), num_cycles=1000)
    pettingzoo_test.seed_test(lambda: env(game, players=players), num_cycles=200)


EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "docs" / "examples"
EXAMPLES = sorted(p.name for p in EXAMPLES_DIR.iterdir() if p.is_dir() or p.suffix == ".yaml")


@pytest.mark.parametrize("name", EXAMPLES)
def test_pettingzoo_api_and_seed_tests_on_every_example(name: str) -> None:
    """The example games of docs/examples (hidden hands, dice, sealed bids, 2 to 5 players) pass PettingZoo's API
    test at every player count, and its seed test at the most players: a seed deals and rolls alike whatever the
    count, so one count shows it (two games played side by side, half the test's time when run at every count);
    ``RL_SEED_TESTS=all`` runs it at every count.  A game in which nothing draws (``may_draw``: chess, quoridor) has
    nothing for a seed to deal or roll: its seed test would check only that the action spaces' samples repeat, which
    the shipped games that draw nothing (tic-tac-toe, othello...) check at every count; ``RL_SEED_TESTS=all`` runs it
    there too (chess and quoridor played it for 4 of the module's 70 seconds)."""
    game = shipped_game(str(EXAMPLES_DIR / name))  # compiled once per session, shared with other tests of it
    for players in game.player_counts:
        pettingzoo_test.api_test(env(game, players=players), num_cycles=300)
    every = os.environ.get("RL_SEED_TESTS") == "all"
    for players in game.player_counts if every else [max(game.player_counts)]:
        if every or may_draw(game, players):
            pettingzoo_test.seed_test(lambda: env(game, players=players), num_cycles=100)


VARIANTS = [(name, v) for name in engine.builtin_names() for v in shipped_game(name).available_variants]


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=[f"{n}+{v}" for n, v in VARIANTS])
def test_pettingzoo_api_test_on_every_variant(name: str, variant: str) -> None:
    game = shipped_game(name, variant)
    pettingzoo_test.api_test(env(game, players=min(game.player_counts)), num_cycles=1000)


EVERY = [(name, None) for name in engine.builtin_names()] + VARIANTS


@pytest.mark.parametrize(("name", "variant"), EVERY, ids=[f"{n}+{v}" if v else n for n, v in EVERY])
def test_every_legal_action_is_named_by_one_listed_text(name: str, variant: str | None) -> None:
    """In random games of every shipped ruleset and variant at every player count, each legal action has its own
    index, whose listed text is the action's text (or its shortened form, for a step that lists texts without a
    part the position decides) -- never a ranked index."""
    game = shipped_game(name, variant)
    table = ActionTable(game)
    assert table.ranked == 0 and len(table) == len(table.texts)
    for players in game.player_counts:
        for seed in range(2):
            state = game.new_state(players=players, seed=seed)
            pick = random.Random(seed)
            while not state.is_terminal:
                legal = table.legal(state)
                assert len(legal) == len(state.legal_actions())
                for index, action in legal.items():
                    assert table.texts[index] in (str(action), _shortened(table, state, str(action)))
                state.apply(legal[pick.choice(sorted(legal))])


def _shortened(table: ActionTable, state: Any, text: str) -> str | None:
    canonical = table.canonical.get(None if state.pending is not None else state.step)
    return canonical(text) if canonical is not None else None


def test_spells_are_listed_by_their_places_and_choices_on_the_board_by_place() -> None:
    """Spell Cycles (SpellStackers: stacks too) lists 'match PLACES' for each place sequence a pattern's shape could
    lie on, without which pieces it reads as other colours, and choices on the board by place alone; random games
    offer both kinds of shortened texts, stacks included, and each is listed."""
    game = engine.load("spell-cycles", "spellstackers")
    table = ActionTable(game)
    seen: dict[str, set[str]] = {"match ... with": set(), "match ...:2": set(), "choose at": set()}
    for seed in range(20):
        state = game.new_state(players=2, seed=seed)
        pick = random.Random(seed)
        while not state.is_terminal:
            legal = table.legal(state)
            for action in legal.values():
                text = str(action)
                listed = _shortened(table, state, text) or text
                assert listed in table.index
                if text.startswith("match ") and " with " in text:
                    seen["match ... with"].add(listed)
                if text.startswith("match ") and ":" in text:
                    seen["match ...:2"].add(listed)
                if text.startswith("choose ") and text not in table.index:
                    assert re.fullmatch(r"choose at \d+,\d+(:\d+)?", listed)
                    seen["choose at"].add(listed)
            state.apply(legal[pick.choice(sorted(legal))])
    assert all(seen.values()), {kind: len(texts) for kind, texts in seen.items()}
    lines = table.summary()
    assert any("(cast)" in line and "listed without which pieces a match reads as other values" in line for line in lines)


def test_spell_lists_hold_every_line_of_the_board() -> None:
    """Every straight line of two on the 8x8 board, read from either end, is listed: 2 x (7x8 + 8x7 + 2x7x7) = 420."""
    game = engine.load("spell-cycles")
    texts = ActionTable(game).texts
    pairs = [t for t in texts if re.fullmatch(r"match \d+,\d+ \d+,\d+", t)]
    assert len(pairs) == 420
    assert "match 0,0 1,1" in pairs and "match 1,1 0,0" in pairs and "match 0,0 2,0" not in pairs


def test_patterns_on_too_many_place_sequences_are_offered_by_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cast whose patterns could lie on more place sequences than the list may hold lists 'stop' and 'cast NAME'
    only, and offers its matches by rank."""
    import engine.blocks.casting as casting

    monkeypatch.setattr(casting, "LARGEST", 1000)
    table = ActionTable(engine.load("spell-cycles"))
    assert table.ranked == 256
    assert not any(t.startswith("match ") for t in table.texts)
    assert "more than 1,000 sequences of places" in "\n".join(table.summary())


def test_two_actions_at_one_index_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shortening that would put two legal actions at one index is a fault, raised rather than hidden."""
    game = engine.load("tutorial-tiles")
    place = game.steps[0]
    full = type(place).action_texts
    first = full(place, game).texts[0]
    monkeypatch.setattr(type(place), "action_texts",
                        lambda self, g: dataclasses.replace(full(self, g), canonical=lambda text: first))
    monkeypatch.setattr(type(place), "format", lambda self, args: "place somewhere")
    with pytest.raises(RulecraftError, match=f"are both listed as '{first}' in the action table"):
        ActionTable(game).legal(game.new_state(players=2, seed=0))


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


def test_only_a_choice_among_computed_values_is_ranked(tmp_path: Path) -> None:
    """A choice among numbers worked out during play cannot be listed: it is offered by rank, after the listed texts."""
    from tests.test_choices import DEAL, RULESET

    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("[1, 2, 3]", "[gold(current_role), gold(current_role) + 1]"))
    game = engine.load(path)
    table = ActionTable(game)
    assert table.ranked == 256 and ActionTable(game, ranked=1).ranked == 1
    assert "not listed: a choice among computed values of type int" in "\n".join(table.summary())
    state = game.new_state(players=2, seed=0)
    state.apply("choose c1")
    legal = table.legal(state)
    assert {i: str(a) for i, a in legal.items()} == {len(table.texts): "choose 2", len(table.texts) + 1: "choose 3"}
    short = ActionTable(game, ranked=1)
    with pytest.warns(UserWarning, match=r"offers 2 legal actions the action table cannot list, and only the first 1 "
                                         r"have an index \(indices \d+ to \d+\).*\(env\(\.\.\., ranked=N\)"):
        assert list(short.legal(state)) == [len(table.texts)]


def test_a_choice_among_truth_values_or_texts_written_out_is_listed_as_offered(tmp_path: Path) -> None:
    """choose(x in [true, false]) is offered as 'choose true', and the table listed it as Python writes it, 'choose
    True': the environment stopped at that action, missing from its table; a text holding a line break likewise."""
    from tests.test_choices import DEAL, RULESET

    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace(
        "let d = choose(x in [1, 2, 3]", 'let t = choose(x in [true, false])\n        let w = choose(x in ["a\\nb", "c"])\n'
                                         "        let d = choose(x in [1, 2, 3]"))
    game = engine.load(path)
    table = ActionTable(game)
    state = game.new_state(players=2, seed=0)
    state.apply("choose c1")
    assert sorted(str(a) for a in table.legal(state).values()) == ["choose false", "choose true"]
    state.apply("choose true")
    assert sorted(str(a) for a in table.legal(state).values()) == ['choose "a\\nb"', "choose c"]


def test_a_game_of_numbers_alone_with_no_ranked_index_is_refused_in_words() -> None:
    """Every action of sealed-bids is a number computed during play: with ranked=0 its action space was empty and
    gymnasium's Discrete(0) said only 'n (counts) have to be positive, actual value: 0'."""
    with pytest.raises(ValueError, match=re.escape("sealed-bids has no action to index, so its action space would be "
                                                   "empty: its actions are computed during play (numbers) and ranked=0 "
                                                   "keeps no index for them: give ranked=N")):
        env(str(EXAMPLES_DIR / "sealed-bids"), players=2, ranked=0)


def test_a_decision_offering_more_unlisted_actions_than_ranked_indices_warns_once(tmp_path: Path) -> None:
    """Frontiers' armies to move (279 of them, past the 256 ranked indices) were cut to 256 without a word: a
    learner never saw the others.  The first such decision warns; a table with enough indices does not."""
    from tests.test_choices import DEAL, RULESET

    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("[1, 2, 3]", "[gold(current_role), gold(current_role) + 1]"))
    game = engine.load(path)
    state = game.new_state(players=2, seed=0)
    state.apply("choose c1")
    short = ActionTable(game, ranked=1)
    with pytest.warns(UserWarning, match="only the first 1 have an index"):
        short.legal(state)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        short.legal(state)  # once
        assert len(ActionTable(game, ranked=2).legal(state)) == 2


BILLIONS = """\
name: billions
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  coin: {instances: [{id: coin}]}
zones:
  pile: {kind: pile}
counters:
  gold: {per: role}
turn:
  - do:
      effect: |
        let n = choose(x in [1, 2])
        gold(current_role) += n * 1500000000
end:
  when: gold(A) > 5000000000
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def test_a_counter_past_int32_shows_as_the_bound_instead_of_crashing_observe(tmp_path: Path) -> None:
    """A counter may hold up to 100 digits; one past 2**31 - 1 (3,000,000,000 gold) crashed observe() with
    "OverflowError: Python integer 3000000000 out of bounds for int32"."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(BILLIONS, encoding="utf-8")
    e = env(engine.load(path), players=2)
    e.reset(seed=1)
    e.step(e.unwrapped.table.texts.index("choose 2"))  # A: 3,000,000,000 gold
    observation = e.observe("player_1")["observation"]
    assert observation[-2:].tolist() == [2**31 - 1, 0] and e.observation_space("player_1").contains(e.observe("player_1"))
    pettingzoo_test.api_test(env(engine.load(path), players=2), num_cycles=100)


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
        observation, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        assert info == {}  # as docs/rl.md says
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


def test_env_takes_the_environment_s_parameters_and_enforces_the_call_order() -> None:
    import inspect

    from engine.rl import RulecraftEnv

    assert inspect.signature(env).parameters == inspect.signature(RulecraftEnv).parameters
    e = env("tutorial-tiles", 3, render_mode="ansi")
    assert e.unwrapped.players == 3 and e.unwrapped.render_mode == "ansi"
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):  # PettingZoo's order check
        e.step(0)


def test_pettingzoo_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test makes the environment with render_mode="human" first: it was refused."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env("tutorial-tiles", players=2, render_mode=render_mode))
    assert "to move" in capsys.readouterr().out


def test_render_without_a_render_mode_warns_that_it_draws_nothing() -> None:
    """render() on an environment made without render_mode returned None without a word."""
    e = env("tic-tac-toe")
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render\\(\\) without a render_mode draws nothing: make the environment with "
                                         "render_mode='ansi'"):
        assert e.render() is None
    assert env("tic-tac-toe", render_mode="ansi").unwrapped.render() is None  # not reset yet: nothing to draw


def test_an_agent_the_environment_lacks_is_refused_naming_its_agents() -> None:
    """observe('player_9') and action_space(2) were a bare KeyError of the name."""
    e = env("tic-tac-toe")
    e.reset(seed=0)
    for call in (e.observe, e.action_space, e.observation_space):
        with pytest.raises(KeyError, match="there is no agent 'player_9': the agents are player_1, player_2"):
            call("player_9")
    with pytest.raises(KeyError, match="there is no agent 2: the agents are player_1, player_2"):
        e.action_space(2)  # type: ignore[arg-type]


def test_a_seed_given_to_reset_makes_sampled_games_the_same(games: dict[str, engine.Game]) -> None:
    """reset(seed=7) then action_space(agent).sample(mask), as docs/rl.md's first example plays, gives one game."""

    def sampled(seed: int) -> list[int]:
        e = env(games["tutorial-tiles"], players=2)
        e.reset(seed=seed)
        played = []
        for agent in e.agent_iter():
            observation, reward, terminated, truncated, info = e.last()
            action = None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"])
            played.append(action)
            e.step(action)
        return played

    assert sampled(7) == sampled(7)
    assert sampled(-1) == sampled(-1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_without_a_decision_is_refused_at_reset(players: int) -> None:
    """Home run with one piece each never asks anything (each choice has one option): every deal is over before
    anyone decides, which PettingZoo's API cannot express (after reset some agent decides), so reset says so."""
    game = engine.load(EXAMPLES_DIR / "home-run", set_options={"pieces_each": 1})
    e = env(game, players=players)
    with pytest.raises(ValueError, match=r"home-run for \d players was over before anyone decided in 101 deals"):
        e.reset(seed=1)
    with pytest.raises(RuntimeError, match="call reset"):
        e.unwrapped.observe("player_1")


def test_a_deal_over_before_anyone_decides_is_dealt_again_and_pettingzoos_api_test_passes() -> None:
    """Home run with two pieces: seed 0 deals a game over at once, on which PettingZoo's api_test failed inside its
    own code (np.int32(None)); reset deals again from the seed's sequence, the same way every time."""
    game = engine.load(EXAMPLES_DIR / "home-run")
    assert game.new_state(players=2, seed=0).is_terminal
    e = env(game, players=2)
    e.reset(seed=0)
    dealt = e.unwrapped.game_seed
    assert dealt != 0 and not e.unwrapped.game_state.is_terminal and not any(e.terminations.values())
    e.reset(seed=0)
    assert e.unwrapped.game_seed == dealt
    pettingzoo_test.api_test(env(game, players=2), num_cycles=300)


def test_resets_without_a_seed_after_one_with_a_seed_play_the_same_games(games: dict[str, engine.Game]) -> None:
    """reset(seed=3) once, then reset() before each game, as a training loop seeded once does, repeats: each unseeded
    reset drew its game from the operating system, so a run seeded at its start played other games every time."""

    def run() -> list[tuple[int | None, dict[str, Any]]]:
        e = env(games["tutorial-tiles"], players=2)
        e.reset(seed=3)
        played = []
        for _ in range(4):
            e.reset()
            played.append((e.unwrapped.game_seed, e.unwrapped.game_state.to_json()))
        return played

    first = run()
    assert first == run()
    assert len({seed for seed, _ in first}) == 4 and 3 not in {seed for seed, _ in first}


@pytest.mark.parametrize("seed", [np.int64(7), np.uint64(2**63 + 7), np.int32(-7)])
def test_a_numpy_seed_plays_the_game_of_the_same_whole_number(seed: Any, games: dict[str, engine.Game]) -> None:
    """reset(seed=np.int64(7)), a seed as numpy draws it, raised OverflowError from the engine's generator."""

    def start(seed: Any) -> tuple[dict[str, Any], list[int]]:
        e = env(games["tutorial-tiles"], players=2)
        e.reset(seed=seed)
        return e.unwrapped.game_state.to_json(), [e.action_space(a).sample() for a in e.possible_agents]

    assert start(seed) == start(int(seed))
    assert games["tutorial-tiles"].new_state(players=2, seed=seed) == games["tutorial-tiles"].new_state(players=2, seed=int(seed))


@pytest.mark.parametrize("seed", [1.5, "7", True])
def test_a_seed_that_is_not_a_whole_number_is_refused_by_reset(seed: Any, games: dict[str, engine.Game]) -> None:
    e = env(games["tutorial-tiles"], players=2)
    with pytest.raises(ValueError, match=f"seed is a whole number, not {re.escape(repr(seed))}"):
        e.reset(seed=seed)


def test_a_large_board_lists_no_step_past_its_bound_and_plays() -> None:
    """iconoclasm with board_radius 40 listed 12 million 'clash X,Y with X,Y' texts (36 s, 2.3 GB) and radius 100,
    which validate allows, ran out of memory: a step with more than MOST_TEXTS texts is now offered by rank."""
    game = engine.load("iconoclasm", set_options={"board_radius": "40"})
    table = ActionTable(game)
    assert len(table) < 100_000 and table.ranked == 256
    assert any("not listed: which two groups clash ('clash X,Y with X,Y'): 12,105,660 pairs" in line for line in table.summary())
    e = env(game, players=2)
    e.reset(seed=1)
    for played, agent in enumerate(e.agent_iter()):
        observation, reward, terminated, truncated, info = e.last()
        e.step(None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"]))
        if played == 20:
            break


def test_an_index_outside_the_action_table_is_not_described(games: dict[str, engine.Game]) -> None:
    """describe(-1) was the last text and describe(len) 'unlisted option 1' in a table with no ranked options."""
    table = ActionTable(games["tutorial-tiles"])
    assert table.ranked == 0 and table.describe(len(table) - 1) == table.texts[-1]
    for outside in (-1, len(table)):
        with pytest.raises(IndexError, match=f"action index {outside} is outside the action table \\(0 to {len(table) - 1}\\)"):
            table.describe(outside)


def test_an_encoder_or_action_table_refuses_what_another_game_made(games: dict[str, engine.Game]) -> None:
    """A 3-player observation filled a 2-player vector as if it were one; another ruleset's was a bare KeyError; and
    an action table given another game's state blamed its own ruleset for a missing text."""
    from engine.rl.encoding import Encoder

    tiles, table = games["tutorial-tiles"], ActionTable(games["tutorial-tiles"])
    encoder = Encoder(tiles, 2)
    assert len(encoder.encode(tiles.new_state(players=2, seed=0).observation(2))) == len(encoder)
    with pytest.raises(ValueError, match="this encoder reads observations of tutorial-tiles for 2 players, not of "
                                         "tutorial-tiles for 3"):
        encoder.encode(tiles.new_state(players=3, seed=0).observation(1))
    with pytest.raises(ValueError, match="not of tic-tac-toe for 2"):
        encoder.encode(games["tic-tac-toe"].new_state(players=2, seed=0).observation(1))
    assert table.legal(engine.load("tutorial-tiles").new_state(players=2, seed=0))  # the same rules, loaded again
    with pytest.raises(ValueError, match="this action table is of tutorial-tiles, not of the state's game, tic-tac-toe"):
        table.legal(games["tic-tac-toe"].new_state(players=2, seed=0))
    other = engine.load("tutorial-tiles", set_options={"board_size": "4"})
    with pytest.raises(ValueError, match=r"not of the state's game, tutorial-tiles \(board_size=4\)"):
        table.legal(other.new_state(players=2, seed=0))


@pytest.mark.parametrize("forge", [
    lambda o: o.pop("zones"),                                   # a key left out
    lambda o: o.update(board={(99, 99): ("nothing", 0)}),       # a cell and a piece the game has not
    lambda o: o.update(turn="three"),                           # a number written as words
    lambda o: o.update(zones={name: 5 for name in o["zones"]}),  # zones of the wrong shape
    lambda o: o.update(seats={"nobody": 1}),                    # a role the game has not
])
def test_an_encoder_refuses_an_observation_made_by_hand(games: dict[str, engine.Game], forge: Any) -> None:
    """An observation edited by hand (a key left out, a cell off the board, a word for a number) raised a bare
    KeyError, TypeError or ValueError from the encoder's insides: now one ValueError saying what it is."""
    from engine.rl.encoding import Encoder

    tiles = games["tutorial-tiles"]
    obs = tiles.new_state(players=2, seed=0).observation(1)
    forge(obs)
    with pytest.raises(ValueError, match="^this observation of tutorial-tiles is not one State.observation makes: "):
        Encoder(tiles, 2).encode(obs)
    with pytest.raises(ValueError, match="^an observation is a dict made by State.observation, not 'text'"):
        Encoder(tiles, 2).encode("text")  # type: ignore[arg-type]


def test_an_action_table_given_what_is_no_game_state_or_index_says_what_it_takes(games: dict[str, engine.Game]) -> None:
    """ActionTable("tic-tac-toe") was "'str' object has no attribute 'steps'", table.legal(None) an AttributeError of
    its own, table.describe("3") "'<=' not supported between instances of 'int' and 'str'"."""
    with pytest.raises(TypeError, match=r"^an action table lists the actions of a compiled game \(engine.load\(...\)\), "
                                        "not 'tic-tac-toe'$"):
        ActionTable("tic-tac-toe")  # type: ignore[arg-type]
    table = ActionTable(games["tic-tac-toe"])
    with pytest.raises(TypeError, match=r"^an action table lists the legal actions of a state \(game.new_state\(...\)\), "
                                        "not None$"):
        table.legal(None)  # type: ignore[arg-type]
    for index in ("3", 1.0, True):
        with pytest.raises(TypeError, match=f"^an action index is a whole number, not {re.escape(repr(index))}$"):
            table.describe(index)  # type: ignore[arg-type]
    assert table.describe(np.int64(0)) == table.describe(0)


def test_a_bad_player_count_is_refused(games: dict[str, engine.Game]) -> None:
    with pytest.raises(ValueError, match="is played by 2, 3 players, not 7"):
        env(games["tutorial-tiles"], players=7)
    with pytest.raises(ValueError, match="players is a whole number, not '2'"):  # was: 'played by 2, 3 players, not 2'
        env(games["tutorial-tiles"], players="2")
    with pytest.raises(ValueError, match="ranked is a whole number, not 'x'"):  # was: a TypeError comparing str and int
        env(games["tutorial-tiles"], ranked="x")
    with pytest.raises(ValueError, match="ranked must be from 0 to 1,000,000"):  # was: a mask of 10**12 entries made
        env(games["tutorial-tiles"], ranked=10**12)


def test_explain_observation_describes_both_spaces() -> None:
    result = CliRunner().invoke(main, ["explain", "tutorial-tiles", "--observation", "--players", "3"])
    assert result.exit_code == 0, result.output
    e = env("tutorial-tiles", players=3)
    assert f"action space: Discrete({e.action_space('player_1').n})" in result.output
    assert f"'observation': Box(int32, {e.observation_space('player_1')['observation'].shape[0]})" in result.output
    assert "[0:5] seat: observing seat" in result.output


def test_explain_observation_names_a_ruleset_file_by_a_call_that_loads_it(tmp_path: Path,
                                                                          games: dict[str, engine.Game]) -> None:
    """The call ``explain --observation`` prints for a ruleset of one's own makes its environment (not env('its name'))."""
    shutil.copytree(Path(games["tutorial-tiles"].source).parent, tmp_path / "mine")
    ruleset = tmp_path / "mine" / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("name: tutorial-tiles", "name: my-tiles", 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(tmp_path / "mine"), "--observation"])
    assert result.exit_code == 0, result.output
    call = result.output.splitlines()[0].split("from engine.rl import env; ")[1]
    made = eval(call, {"env": env})
    assert made.action_space("player_1").n == env(games["tutorial-tiles"]).action_space("player_1").n


def test_explain_observation_says_goals_pay_every_seat_where_goals_decide() -> None:
    """With goals (solo or cooperative play) every seat's return is 1 when one is reached; the line said "1 a sole
    winner, 1/k for k tied winners" whatever the outcome."""
    lines = {players: CliRunner().invoke(main, ["explain", "iconoclasm-cards", "--observation", "--players", str(players)])
             .output.splitlines()[-1] for players in (1, 2)}
    assert lines[1] == "rewards: 0 until the end, then each seat's return (1 for every seat if a goal is reached, else 0)"
    assert lines[2] == "rewards: 0 until the end, then each seat's return (1 a sole winner, 1/k for k seats sharing a win, else 0)"


def test_explain_observation_of_a_ruleset_read_with_allow_names_the_allowance_its_call_needs(tmp_path: Path) -> None:
    """explain --observation --allow SHARED printed env('.../ruleset.yaml', players=2), which, run as printed, was
    refused: the ruleset includes a file of SHARED, which only the allowance lets it read."""
    from engine.core.confine import allowing

    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "options.yaml").write_text("options:\n  grid_width: {default: 5}\n", encoding="utf-8")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(
        "name: shared-cards\nextends: iconoclasm-cards\ninclude: [../shared/options.yaml]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(tmp_path / "game"), "--allow", str(tmp_path / "shared"),
                                       "--observation", "--players", "2"])
    assert result.exit_code == 0, result.output
    call, folders = result.output.splitlines()[0].split("from engine.rl import env; ")[1].split(
        " inside engine.core.confine.allowing(")
    assert eval(folders.removesuffix(")")) == [str((tmp_path / "shared").resolve())]
    with allowing(eval(folders.removesuffix(")"))):
        assert eval(call, {"env": env}).unwrapped.game.options["grid_width"] == 5


# ---------------------------------------------------------------- docs/rl.md

DOC = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_doc_examples_run_and_the_trained_policy_beats_random(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Every Python block of docs/rl.md runs (but OpenSpiel's, run by tests/test_openspiel_game.py); the policy it
    trains, played by the doc's command, beats random."""
    policy = tmp_path / "policy.json"
    for block in _blocks("python"):
        if "engine.rl.openspiel" in block:
            continue
        exec(compile(block.replace("/tmp/policy.json", str(policy)), str(DOC), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    shown = re.search(r"^print\(e\.unwrapped\.game_state\.returns\(\)\) +# (\[.*?\]):", _blocks("python")[0], re.M)
    assert shown is not None and printed[0] == shown.group(1)  # the first example's game ends as its comment says
    assert "actions valued in" in printed[-1]
    command = next(line for block in _blocks("sh") for line in block.splitlines() if "policy:" in line)
    args = shlex.split(command.replace("/tmp/policy.json", str(policy)))[1:] + ["--format", "json"]
    trained = json.loads(CliRunner().invoke(main, args).output)
    assert trained["agents"] == [f"policy:{policy}", "random"]
    baseline = json.loads(CliRunner().invoke(main, [a if not a.startswith("policy:") else "random" for a in args]).output)
    assert trained["win_rate"]["1"]["low"] > baseline["win_rate"]["1"]["high"]


def test_the_explain_output_in_the_doc_is_real() -> None:
    """Each ``$ rulecraft explain ... --observation`` block is the command's output (or its first lines, then ``...``)."""
    shown = [b for b in _blocks("text") if b.startswith("$ rulecraft explain ")]
    assert sorted(b.splitlines()[0] for b in shown) == ["$ rulecraft explain spell-cycles --observation",
                                                        "$ rulecraft explain tutorial-tiles --observation"]
    for block in shown:
        command, *lines = block.splitlines()
        real = CliRunner().invoke(main, shlex.split(command)[2:]).output.splitlines()
        if lines[-1] == "...":
            lines, real = lines[:-1], real[:len(lines) - 1]
        assert lines == real, command


def test_a_bad_policy_file_is_refused_with_a_reason(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "2", "--agents", f"policy:{bad}"])
    assert result.exit_code == 2
    assert "is not a policy file" in result.output
    missing = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "2", "--agents", "policy:/nonexistent.json"])
    assert "cannot read the policy file /nonexistent.json" in missing.output


def test_a_policy_file_for_another_ruleset_is_refused_not_played_at_random(tmp_path: Path) -> None:
    """A policy naming its ruleset values none of another game's actions: it was played as a random agent."""
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"format": "rulecraft-policy", "ruleset": "tutorial-tiles", "default": 0.0,
                                  "values": {"clash 0,0 with 0,1": 1.0}}), encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", "liars-dice", "-n", "4", "--agents", f"policy:{policy},random"])
    assert result.exit_code != 0
    assert "the policy file was written for the ruleset tutorial-tiles, not liars-dice" in result.output
    assert "Traceback" not in result.output
    same = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "4", "--agents", f"policy:{policy},random"])
    assert same.exit_code == 0, same.output
    policy.write_text(json.dumps({"format": "rulecraft-policy", "ruleset": 5, "values": {}}), encoding="utf-8")
    odd = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "-n", "4", "--agents", f"policy:{policy}"])
    assert odd.exit_code == 2 and "'ruleset' should be the name of the ruleset the policy was written for" in odd.output


def test_a_policy_names_a_match_by_the_text_the_table_lists() -> None:
    """A policy written from the action table's texts values a match the table lists without its 'with ...' part."""
    from engine.runner.agents import PolicyAgent

    game = engine.load("spell-cycles")
    state, pick = game.new_state(players=2, seed=0), random.Random(0)
    while not any(" with " in str(a) for a in state.legal_actions()):
        actions = state.legal_actions()
        state.apply(actions[pick.randrange(len(actions))])
    wanted = [a for a in state.legal_actions() if " with " in str(a)][-1]
    listed = str(wanted).split(" with ")[0]
    agent = PolicyAgent({listed: 1.0}, default=0.0, rng=random.Random(1))
    assert ActionTable(game).texts.index(listed) in ActionTable(game).legal(state)
    assert agent.choose(state) == wanted


@pytest.mark.parametrize("name", sorted(engine.builtin_names()))
def test_the_encoding_shows_nothing_a_seat_may_not_see(name: str, games: dict[str, engine.Game]) -> None:
    """Redealing everything a seat may not see (a determinization) leaves that seat's vector unchanged."""
    from engine.core.information import determinize
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


def test_the_encoding_shows_what_the_seats_own_dice_rolled() -> None:
    """Deals where seat 1's die shows each face give seat 1 a different vector each (the faces were not encoded)."""
    from engine.rl import Encoder

    game = engine.load("liars-dice")
    encoder = Encoder(game, 2)
    vectors: dict[str, bytes] = {}
    for seed in range(40):
        observation = game.new_state(players=2, seed=seed).observation(1)
        face = observation.get("faces", {}).get("cup of First", ["1"])[0]
        vectors.setdefault(face, encoder.encode(observation).tobytes())
    assert sorted(vectors) == ["1", "2", "3", "4", "5", "6"]
    assert len(set(vectors.values())) == 6


def test_every_step_kind_that_offers_actions_lists_them() -> None:
    """A new kind of turn step with decisions must say which action texts it can offer (see engine.blocks.enumeration)."""
    from engine.blocks.steps import STEP_KINDS, Step

    silent = [kind for kind, cls in STEP_KINDS.items() if cls.actions is not Step.actions and cls.action_texts is Step.action_texts]
    assert not silent, f"step kinds with decisions but no action_texts: {silent}"


@pytest.mark.parametrize("action", [1.7, "3", None, np.array([0, 1]), 2.0, True, False, np.True_], ids=repr)
def test_an_action_that_is_not_a_whole_number_is_refused_and_changes_nothing(games: dict[str, engine.Game], action: object) -> None:
    e = env(games["tutorial-tiles"], players=2)
    e.reset(seed=1)
    state = e.unwrapped.game_state
    before = state.to_json()
    with pytest.raises(ValueError, match=r"an action is the index of one in the action space \(a whole number from 0 to \d+\), "
                                         r"not .*; player_1 is to move"):
        e.step(action)
    assert state.to_json() == before


def test_an_index_may_be_any_whole_number_type(games: dict[str, engine.Game]) -> None:
    e = env(games["tutorial-tiles"], players=2)
    e.reset(seed=1)
    legal = int(np.flatnonzero(e.observe("player_1")["action_mask"])[0])
    e.step(np.int64(legal))
    assert e.agent_selection == "player_2"


@pytest.mark.parametrize("changes", [{"variant": "short-game"}, {"set_options": {"supply_size": "8"}}])
def test_variants_or_options_for_a_compiled_game_are_refused_not_ignored(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"a compiled game has its variants and options already \(iconoclasm: variants none\)"):
        env(engine.load("iconoclasm"), players=2, **changes)  # type: ignore[arg-type]
    game = env("iconoclasm", players=2, **changes).unwrapped.game  # type: ignore[arg-type]
    assert game.variants == ("short-game",) if "variant" in changes else game.options["supply_size"] == 8


def test_a_closed_environment_refuses_moves_until_it_is_reset(games: dict[str, engine.Game]) -> None:
    e = env(games["tutorial-tiles"], players=2)
    e.reset(seed=1)
    e.close()
    for call in (lambda: e.step(0), lambda: e.observe("player_1")):
        with pytest.raises(RuntimeError, match=r"this environment was closed: call reset\(\) to start a new game"):
            call()
    e.reset(seed=1)
    assert e.observe("player_1")["action_mask"].any()


def test_an_environment_pickles_mid_game_and_plays_on_as_the_original(games: dict[str, engine.Game]) -> None:
    import pickle

    e = env(games["nine-domains"], players=2)  # sealed choices: the legal actions hold the steps' own functions
    e.reset(seed=3)
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.agent_selection == e.agent_selection and copy.unwrapped.game_state == e.unwrapped.game_state
    for agent in e.possible_agents:
        assert (copy.observe(agent)["action_mask"] == e.observe(agent)["action_mask"]).all()
    while not e.unwrapped.game_state.is_terminal:
        action = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1])
        e.step(action)
        copy.step(action)
    assert copy.unwrapped.game_state.returns() == e.unwrapped.game_state.returns()


def test_the_encoding_shows_the_cell_a_seat_sealed_to_that_seat_alone() -> None:
    from engine.rl.encoding import Encoder

    game = engine.load(Path(__file__).resolve().parent.parent / "docs" / "examples" / "sealed-cells")
    encoder = Encoder(game, 3)
    state, rng = game.new_state(players=3, seed=1), random.Random(1)
    while True:  # a decision offering one tile, as one face, at two cells or more
        texts = state.legal_actions().texts()
        same = [t for t in texts if t.rsplit(" at ", 1)[0] == texts[0].rsplit(" at ", 1)[0]]
        if len(same) >= 2:
            break
        state.play(rng.randrange(len(texts)))
    mover = state.seat_to_move
    here, there = state.clone(), state.clone()
    here.apply(same[0])
    there.apply(same[1])
    for seat in range(1, 4):
        differ = (encoder.encode(here.observation(seat)) != encoder.encode(there.observation(seat))).any()
        assert differ == (seat == mover), seat
    assert not any(s.name == "committed cells" and s.length for s in Encoder(engine.load("sealed-tiles"), 3).segments)


def test_every_step_kind_that_lists_actions_is_in_the_doc_s_table() -> None:
    """docs/rl.md's table says what each step kind lists: `move` (breakthrough) was missing, and `commit` said only
    `commit NAME to SLOT`, not its faces, cells or numbers (sealed-cells, sealed-bids)."""
    table = DOC.read_text(encoding="utf-8").split("| step kind | texts listed |", 1)[1].split("\n\n", 1)[0]
    examples = sorted(p.parent for p in (DOC.parent / "examples").glob("*/ruleset.yaml"))
    kinds = {source.name.split("(")[1].rstrip(")") for game in [*map(shipped_game, engine.builtin_names()),
                                                                  *map(shipped_game, map(str, examples))]
             for source in ActionTable(game).sources[:-1] if source.texts.texts or source.texts.unlisted}
    assert "commit" in kinds and "move" in kinds
    assert sorted(kind for kind in kinds if f"| `{kind}` |" not in table) == []
    commit = next(line for line in table.splitlines() if line.startswith("| `commit` |"))
    assert all(words in commit for words in ("as FACE", "at X,Y", "commit X,Y to SLOT", "`numbers`"))


def test_a_move_the_ruleset_fails_to_carry_out_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    """A card of rank 3 divides by zero once it is on the discard pile: step() raised the ruleset's error with the
    card moved already and the pile's log changed, and an agent catching the error played on from there."""
    folder = tmp_path / "eights"
    shutil.copytree(Path(__file__).parents[1] / "docs/examples/crazy-eights", folder)
    ruleset = folder / "ruleset.yaml"
    played = "          move(c in cards where c == played, discard, on_top = true)\n"
    text = ruleset.read_text(encoding="utf-8")
    assert played in text
    ruleset.write_text(text.replace(played, played + "          let boom = 1 / (played.rank - 3)\n"), encoding="utf-8")
    e = env(str(ruleset), players=2)
    for seed in range(50):
        e.reset(seed=seed)
        mask = e.observe(e.agent_selection)["action_mask"]
        threes = [i for i in np.flatnonzero(mask) if re.fullmatch(r"choose \w3", e.unwrapped.table.describe(int(i)))]
        if threes:
            break
    else:
        pytest.fail("no seed offers a 3 first")
    before, mover = e.unwrapped.game_state.to_json(), e.agent_selection
    with pytest.raises(RulecraftError, match="division by zero"):
        e.step(int(threes[0]))
    assert e.unwrapped.game_state.to_json() == before and e.agent_selection == mover
    others = [int(i) for i in np.flatnonzero(mask) if i not in threes]
    if others:  # the game plays on from where it was
        e.step(others[0])
        assert e.unwrapped.game_state.to_json() != before


ENDLESS = """\
name: endless
players: [2]
counters:
  asked: {}
turn:
  - do:
      effect: |
        for i in numbers(1, 40):
          let n = choose(k in [1, 2], text = "one more")
          asked += n
end:
  when: turn > 4
scoring:
  rank: r in roles
  by: [0]
  points: [1, 0]
"""


def test_a_turn_that_takes_the_limit_of_decisions_truncates_the_episode_with_the_reason(tmp_path: Path) -> None:
    """A turn that never passes ran step after step for ever, where simulate stops it at turn_decisions: the
    episode is truncated there now, every agent, with the reason in its info (no reward), and ends as PettingZoo's
    truncated episodes do."""
    from engine.core import limits

    path = tmp_path / "ruleset.yaml"
    path.write_text(ENDLESS, encoding="utf-8")
    with limits.using(limits.parse_limits(["turn_decisions=10"])):
        game = engine.load(path)
    e = env(game, players=2)
    e.reset(seed=1)
    steps = 0
    while not any(e.truncations.values()) and steps < 100:
        observation, reward, terminated, truncated, info = e.last()
        e.step(int(observation["action_mask"].argmax()))
        steps += 1
    assert steps == 10 and all(e.truncations.values()) and not any(e.terminations.values())
    reason = "turn 1 has taken 10 decisions without passing: does a step offer choices that never run out?"
    assert all(f"ruleset.yaml:6:5: {reason}" in info["truncated"] for info in e.infos.values())
    assert e.rewards == {agent: 0.0 for agent in e.possible_agents}
    observation, reward, terminated, truncated, info = e.last()
    assert truncated and not observation["action_mask"].any()
    while e.agents:
        e.step(None)
    with pytest.raises(RulecraftError, match=re.escape(reason)):  # simulate stops at the same place
        from engine.runner.simulate import play_game
        play_game(game, 2, 1, ["random", "random"])


def test_reset_plays_on_from_a_position_set_up_through_the_api(games: dict[str, engine.Game]) -> None:
    """``reset(options={"state": STATE})`` starts the episode at a position made with new_state and apply (reset's
    options were ignored: the environment dealt a new game from the seed); the position given is left as it was.
    Other options are left alone, as Gymnasium's environments do (PettingZoo's api_test resets with one)."""
    from engine.rl import Encoder

    game = games["tic-tac-toe"]
    position = game.new_state(players=2, seed=0)
    for move in ("place X at 0,0", "place O at 1,0", "place X at 1,1", "place O at 2,0"):
        position.apply(move)
    before = position.to_json()
    e = env(game, players=2)
    e.reset(seed=5, options={"state": position})
    observation, reward, terminated, truncated, info = e.last()
    table = e.unwrapped.table
    assert e.agent_selection == "player_1" and e.unwrapped.game_seed is None
    assert (observation["observation"] == Encoder(game, 2).encode(position.observation(1))).all()
    assert sorted(table.describe(int(i)) for i in np.flatnonzero(observation["action_mask"])) == sorted(
        position.legal_actions().texts())
    e.step(next(i for i in range(len(table)) if table.describe(i) == "place X at 2,2"))  # three in a line
    assert e.unwrapped.rewards == {"player_1": 1.0, "player_2": 0.0} and all(e.unwrapped.terminations.values())
    assert position.to_json() == before
    e.reset(seed=5, options={"options": 1})
    assert e.unwrapped.game_seed == 5 and e.unwrapped.game_state.turn_number == 1


@pytest.mark.parametrize(("options", "reason"), [
    ({"state": "place X at 0,0"}, "reset()'s option 'state' is a position (game.new_state(...)), not 'place X at 0,0'"),
    ("state", "reset()'s options are a dict ({'state': STATE}), not 'state'"),
    ({"state": ("connect-four", 2)}, "the position given to reset() is of connect-four (variants none, options set "
                                     "none), not of this environment's tic-tac-toe (variants none, options set none)"),
    ({"state": ("tic-tac-toe", "over")}, "the position given to reset() is a game over: nobody decides there"),
    ({"state": ("tic-tac-toe", "chance")}, "the position given to reset() rolls its dice as the caller's decisions"),
])
def test_reset_refuses_an_option_or_a_position_it_cannot_play_and_keeps_its_game(
        games: dict[str, engine.Game], options: Any, reason: str) -> None:
    if isinstance(options, dict) and isinstance(options.get("state"), tuple):
        name, kind = options["state"]
        state = games[name].new_state(players=2, seed=0, explicit_chance=kind == "chance")
        while kind == "over" and not state.is_terminal:
            state.apply(state.legal_actions()[0])
        options = {"state": state}
    e = env(games["tic-tac-toe"], players=2)
    e.reset(seed=1)
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    before = e.unwrapped.game_state.to_json()
    with pytest.raises(ValueError, match=re.escape(reason)):
        e.reset(seed=2, options=options)
    assert e.unwrapped.game_state.to_json() == before and e.agent_selection == "player_2"
    assert e.unwrapped.game_seed == 1


def test_an_observation_vector_splits_into_its_named_segments(games: dict[str, engine.Game]) -> None:
    """``Encoder.split`` names the parts of a vector (there was only ``describe``'s text to copy offsets from)."""
    from engine.rl import Encoder

    game = games["tic-tac-toe"]
    state = game.new_state(players=2, seed=0)
    state.apply("place X at 1,1")
    encoder = Encoder(game, 2)
    vector = encoder.encode(state.observation(2))
    parts = encoder.split(vector)
    assert list(parts) == [s.name for s in encoder.segments if s.length]
    assert np.concatenate(list(parts.values())).tolist() == vector.tolist()
    cell = list(encoder.cells).index("1,1")
    assert parts["board"].reshape(-1, 2)[cell].tolist() == [encoder.names["X"], encoder.faces["face"]]
    assert parts["seat"].tolist() == [2, 2, 2, 0, 0]
    with pytest.raises(ValueError, match=r"^this encoder splits vectors of 70 integers .* of tic-tac-toe for 2 players\), not"):
        encoder.split(vector[:-1])


def test_rewards_may_be_the_scores_or_zero_sum_as_openspiel_s_utility(games: dict[str, engine.Game]) -> None:
    """``env(..., utility=...)`` takes OpenSpiel's utilities: Kuhn poker's chips won or lost (``scores``) or ±1
    (``zero-sum-returns``), where a win was worth 1 and a loss 0 whatever the pot (there was no ``utility``)."""
    game = games["kuhn-poker"]
    rewards: dict[str, list[list[float]]] = {}
    for utility in ("returns", "zero-sum-returns", "scores", "zero-sum-scores"):
        e = env(game, players=2, utility=utility)
        for seed in range(6):
            e.reset(seed=seed)
            got = {}
            for agent in e.agent_iter():
                observation, reward, terminated, truncated, info = e.last()
                got[agent] = reward
                e.step(None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"]))
            state = e.unwrapped.game_state
            expected = {"returns": state.returns(), "zero-sum-returns": [2 * r - 1 for r in state.returns()]}.get(
                utility, [float(score) for score in state.outcome.scores])
            rewards.setdefault(utility, []).append([got["player_1"], got["player_2"]])
            assert rewards[utility][-1] == expected
    assert rewards["scores"] == rewards["zero-sum-scores"] and {abs(r[0]) for r in rewards["scores"]} == {1.0, 2.0}
    with pytest.raises(ValueError, match=r"^utility is one of returns, zero-sum-returns, scores, zero-sum-scores, not 'chips'$"):
        env(game, utility="chips")
    with pytest.raises(TypeError, match=r"^utility is a text \(returns, zero-sum-returns, scores, zero-sum-scores\), not 1$"):
        env(game, utility=1)


def test_the_global_state_is_every_seat_s_observation(games: dict[str, engine.Game]) -> None:
    """``state()`` (PettingZoo's global state, for a critic that sees every seat) raised NotImplementedError; it is
    each seat's observation vector in turn: both hands of Kuhn poker, never the card left in the deck."""
    from engine.rl import Encoder

    e = env(games["kuhn-poker"], players=2)
    e.reset(seed=3)
    whole = e.state()
    assert e.state_space.shape == whole.shape and e.state_space.contains(whole)
    game_state, encoder = e.unwrapped.game_state, Encoder(games["kuhn-poker"], 2)
    for seat, part in enumerate(np.split(whole, 2), 1):
        seen = game_state.observation(seat)
        assert (part == encoder.encode(seen)).all() and seen["zones"]["deck"] == {"hidden": 1}
        assert [z for z, held in seen["zones"].items() if isinstance(held, list) and held and z.startswith("hand")]


@pytest.mark.parametrize("name", ["tic-tac-toe", "iconoclasm-cards", "iconica", "spell-cycles"])
def test_the_observation_space_is_as_tight_as_the_game_says_and_holds_every_observation(name: str) -> None:
    """The bounds were int32's whole range for every place of the vector: a learner normalising by them saw nothing.
    Now names are bounded by the names, counts by the components, seats by the players, turns by the turn limit, and
    every observation of random games lies within them."""
    game = engine.load(name)
    e = env(game, players=2)
    space = e.observation_space("player_1")["observation"]
    encoder = e.unwrapped.encoder
    parts = encoder.split(space.high)
    assert parts["seat"].tolist() == [2, 2, game.max_turns, 1, 1] and int(encoder.split(space.low)["seat"][0]) == 1
    assert int(parts.get("board", parts["seat"][:1]).max()) <= max(len(encoder.names), len(encoder.faces))
    assert int(parts["zones"].max()) <= max(len(encoder.names), encoder.capacity)
    choose = random.Random(0)
    for seed in range(2):
        e.reset(seed=seed)
        for agent in e.agent_iter(max_iter=400):
            observation, _, over, cut_short, _ = e.last()
            assert space.contains(observation["observation"]), agent
            e.step(None if over or cut_short else int(choose.choice(observation["action_mask"].nonzero()[0])))


def test_tic_tac_toe_observes_no_pending_pairs_which_no_step_of_it_leaves() -> None:
    """Every game with a board had a ``pending`` segment, one place per (cell, neighbour) pair (40 zeros for
    tic-tac-toe): only a ``clash`` step leaves pairs pending, so a game without one has no such segment."""
    encoder = env(engine.load("tic-tac-toe"), players=2).unwrapped.encoder
    assert [s.name for s in encoder.segments if s.length] == ["seat", "current role", "seats", "board", "zones"]
    assert len(encoder) == 70
    assert "pending" in [s.name for s in env(engine.load("tutorial-tiles"), players=2).unwrapped.encoder.segments if s.length]
