"""Simulation runs, their reports, comparisons and agent benchmarks (engine.runner.simulate, engine.runner.report, engine.runner.executor)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

import pytest

import engine
from engine.compiling.loading import GameRef
from engine.core.errors import RulecraftError
from engine.runner.agents import RandomAgent, make_agent
from engine.runner.bench import bench
from engine.runner.executor import LocalExecutor
from engine.runner.comparison import compare
from engine.runner.report import GameResult, SimulationReport, flat_rows
from engine.runner.significance import STRONG, UNUSED, WEAK, Points, Rate, flag, two_proportion_p, welch_p, wilson
from engine.runner.bench import bench_agent
from engine.runner.simulate import MAX_CHUNK, Chunk, derive_seed, play_chunk, play_game, seat_specs, simulate
from tests.conftest import shipped_game

GAME = shipped_game("iconoclasm-cards")
CARDS = GAME.kinds["card"]


AGENT_SPECS = ["random", "greedy", "mcts:10", "ismcts:10"]
"""The agent specs to run every simulation test with: every kind engine.runner.agents offers (a broken one fails)."""


# ---------------------------------------------------------------- statistics


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def test_two_proportion_test() -> None:
    assert two_proportion_p(60, 100, 40, 100) == pytest.approx(0.00468, abs=1e-5)  # z = 2.83
    assert two_proportion_p(30, 100, 30, 100) == 1.0
    assert two_proportion_p(0, 50, 0, 50) == 1.0 and two_proportion_p(5, 0, 1, 9) == 1.0


def test_welch_test_against_reference_values() -> None:
    a = [3, 5, 4, 6, 5, 7, 4, 5, 6, 3, 8, 5]
    b = [6, 7, 5, 8, 9, 6, 7, 8, 6, 7, 5, 9, 8, 7]
    assert welch_p(a, b) == pytest.approx(0.00232, abs=0.0005)  # SciPy: t = -3.44, v = 22.0, p = 0.00232
    assert welch_p(a, a) == 1.0
    assert welch_p([1, 1, 1], [2, 2, 2]) == 0.0
    assert welch_p([1], [2, 3]) == 1.0


def test_flagging_rule() -> None:
    assert flag(0, Rate(0, 0), 0.25) == UNUSED
    assert flag(40, Rate(20, 40), 0.25) == STRONG  # 50% of 40: interval 35%-65%, all above 25%
    assert flag(40, Rate(2, 40), 0.25) == WEAK  # 5%: interval 1%-17%
    assert flag(40, Rate(12, 40), 0.25) == ""  # 30%: interval 18%-45% contains 25%
    assert flag(4, Rate(2, 4), 0.25) == ""  # 50% of only 4: too few to tell


def test_content_nobody_won_with_is_not_strong_when_no_seat_wins_alone() -> None:
    """A game of secret sides, whose winners always share the win, has a baseline of 0: a card its users never won
    with alone was flagged 'strong' (won 0.0%, interval 0.0% - 1.5%), the interval's low end being 8.7e-19, not 0."""
    assert wilson(0, 255) == (0.0, pytest.approx(0.0148, abs=1e-4)) and wilson(0, 255)[0] == 0.0
    assert wilson(255, 255)[1] == 1.0
    shared = [GameResult((1, 2), (0.5, 0.5, 0.0), 5, first=1, used=((0,), (0,), (1,))) for _ in range(255)]
    report = SimulationReport("r", [], 3, ["random"] * 3, 0, [("a", "card"), ("b", "card")], shared)
    assert report.baseline == 0.0
    assert [(u.name, u.flag) for u in report.content_uses] == [("a", ""), ("b", "")]


# ---------------------------------------------------------------- seeds and agents


def test_derived_seeds_are_stable_and_distinct() -> None:
    # pinned: a run's seed must give the same games in every process, machine and version
    # (SplitMix64, no hash()); a change here changes every recorded seed's games
    assert derive_seed(3, 7) == 14168067888664523901
    assert derive_seed(3, 0) == 13604808898340030615
    assert derive_seed(-1, 1) == derive_seed(2**64 - 1, 1) == 7521888212171461645
    assert len({derive_seed(3, i) for i in range(100)}) == 100
    assert derive_seed(3, 0) != derive_seed(4, 0)


def test_random_agent_uses_its_injected_generator() -> None:
    state = GAME.new_state(players=4, seed=1)
    picks = [RandomAgent(random.Random(9)).choose(state) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    assert picks[0] in state.legal_actions()


@pytest.mark.parametrize("spec", ["oracle", "random:3"])
def test_unknown_or_malformed_agent_specs(spec: str) -> None:
    with pytest.raises(ValueError, match="random"):
        make_agent(spec, 0)


def test_seat_specs() -> None:
    assert seat_specs("random", 3) == ["random"] * 3
    assert seat_specs(["random", "random"], 2) == ["random", "random"]
    assert seat_specs("greedy, random,mcts:5", 3) == ["greedy", "random", "mcts:5"]  # written as --agents takes it
    with pytest.raises(ValueError, match="one per seat"):
        seat_specs(["random", "random"], 3)


def test_simulate_takes_a_ruleset_name_and_defaults_as_the_command_does() -> None:
    """simulate("tic-tac-toe", ...) was AttributeError: 'str' object has no attribute 'piece_names'; players and
    agents had to be given though the command (and the environment) default them; n="5" failed comparing str to int."""
    named = simulate("tic-tac-toe", n=6, seed=3)
    assert named.players == 2 and named.agents == ["random", "random"]
    assert named.to_json()["wins_by_seat"] == simulate(engine.load("tic-tac-toe"), 2, 6, 3, "random").to_json()["wins_by_seat"]
    assert engine.load("tic-tac-toe").new_state(seed=3) == engine.load("tic-tac-toe").new_state(2, seed=3)
    assert engine.load("iconoclasm-cards").default_players == 2  # 1 to 4 players: the smallest from 2 up
    with pytest.raises(TypeError, match="^n is a whole number, not '5'$"):
        simulate(GAME, players=2, n="5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^seed is a whole number, not None$"):
        simulate(GAME, players=2, n=5, seed=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a ruleset's name or path, not dict"):
        simulate({"ruleset": "tic-tac-toe"})  # type: ignore[arg-type]


def test_simulate_refuses_odd_arguments_saying_what_it_takes() -> None:
    """players=-1 was told to give one agent per seat (-1); agents=None, jobs="2" and progress=5 were bare TypeErrors
    of Python's ('NoneType' object is not iterable, '<' not supported, 'int' object is not callable)."""
    with pytest.raises(engine.RulecraftError, match=r"^tic-tac-toe is played by 2 players, not -1$"):
        simulate("tic-tac-toe", players=-1, n=1)
    with pytest.raises(TypeError, match=r"^agents is a text .* not None$"):
        simulate(GAME, players=2, n=1, agents=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^jobs is a whole number, not '2'$"):
        simulate(GAME, players=2, n=1, jobs="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^progress is a function .* not 5$"):
        simulate(GAME, players=2, n=1, progress=5)  # type: ignore[arg-type]


def test_a_simulation_given_numpy_numbers_reports_plain_json() -> None:
    """players=np.int64(2) made a report whose to_json() json.dumps refused: 'Object of type int64 is not JSON
    serializable'."""
    numpy = pytest.importorskip("numpy")
    report = simulate("tic-tac-toe", players=numpy.int64(2), n=numpy.int64(4), seed=numpy.int64(3))
    assert json.loads(json.dumps(report.to_json()))["players"] == 2


def test_an_agent_kind_registered_in_main_is_refused_for_workers_that_never_run_main(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind registered in a script or a session ran on Ray as a task's traceback ending in 'unknown agent'; forked
    local workers have it and play it."""
    from engine.runner import agents

    monkeypatch.setattr(agents.registry, "AGENT_KINDS", dict(agents.AGENT_KINDS))
    monkeypatch.setattr(agents.registry, "AGENT_FORMS", dict(agents.AGENT_FORMS))

    def mine(argument: str | None, rng: random.Random) -> agents.Agent:
        return RandomAgent(rng)

    mine.__module__ = "__main__"
    agents.agent_kind("mine")(mine)

    class Elsewhere:  # an executor whose workers are not forked from this process, as Ray's
        workers = 1

        def map(self, fn: Callable[[Chunk], list[object]], items: Sequence[Chunk]) -> Iterator[list[object]]:
            return map(fn, items)

    with pytest.raises(ValueError, match="^the agent mine is of a kind registered in __main__ .* workers of Elsewhere never run"):
        simulate(GAME, players=2, n=2, seed=0, agents="mine,random", executor=Elsewhere())
    assert simulate(GAME, players=2, n=2, seed=0, agents="mine,random", executor=LocalExecutor(1)).games == 2
    assert simulate(GAME, players=2, n=2, seed=0, agents="random", executor=Elsewhere()).games == 2


def test_an_agent_of_ones_own_may_answer_with_an_actions_text_and_is_named_when_it_answers_badly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent kind whose choose returned the text state.apply takes, or an index, failed in the run with
    AttributeError: 'str' object has no attribute 'args'."""
    from engine.runner import agents

    monkeypatch.setattr(agents.registry, "AGENT_KINDS", dict(agents.AGENT_KINDS))
    monkeypatch.setattr(agents.registry, "AGENT_FORMS", dict(agents.AGENT_FORMS))

    class Answer:
        def __init__(self, name: str, answer: Callable[[engine.State], object]) -> None:
            self.name, self.answer = name, answer

        def choose(self, state: engine.State) -> object:
            return self.answer(state)

    agents.agent_kind("text")(lambda argument, rng: Answer("text", lambda s: str(s.legal_actions()[-1])))
    agents.agent_kind("index")(lambda argument, rng: Answer("index", lambda s: 0))
    agents.agent_kind("off")(lambda argument, rng: Answer("off", lambda s: "place X at 9,9"))
    game = engine.load("tic-tac-toe")
    assert simulate(game, n=3, agents="text,random").games == 3
    with pytest.raises(TypeError, match="^the agent index chose 0: choose\\(state\\) returns one of state.legal_actions"):
        simulate(game, n=1, agents="index,random")
    with pytest.raises(engine.IllegalActionError, match="^the agent off chose 'place X at 9,9': "):
        simulate(game, n=1, agents="off,random")


# ---------------------------------------------------------------- a run's report


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_report_accounts_for_every_game(players: int) -> None:
    report = simulate(GAME, players=players, n=20, seed=2, agents="random")
    assert report.games == 20
    assert sum(report.wins_by_seat.values()) + report.draws + report.no_winner == 20
    length = report.length
    assert length.min <= length.median <= length.max and length.min <= length.mean <= length.max
    expected = report.wins_by_seat[1] / 20 if players == 1 else 1.0  # a solo win is the only one
    assert sum(report.mean_returns.values()) == pytest.approx(expected)
    for seat, rate in report.win_rate.items():
        assert rate.low <= rate.rate <= rate.high
        assert rate.rate == report.wins_by_seat[seat] / 20


@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_every_agent_plays_whole_games(spec: str) -> None:
    report = simulate(GAME, players=2, n=2, seed=1, agents=spec)
    assert report.games == 2 and report.win_rate_by_agent[spec].trials == 4


def test_win_rate_by_agent_pools_its_seats() -> None:
    report = simulate(GAME, players=3, n=12, seed=5, agents=["random", "random", "random"])
    (rate,) = report.win_rate_by_agent.values()
    assert rate.trials == 36 and rate.wins == sum(report.wins_by_seat.values())


def test_a_stronger_agent_wins_more_than_its_share() -> None:
    report = simulate(GAME, players=4, n=40, seed=0, agents=["random", "random", "random", "greedy"])
    rates = report.win_rate_by_agent
    assert rates["greedy"].low > rates["random"].high


def test_mcts_seats_are_simulated() -> None:
    report = simulate(GAME, players=2, n=4, seed=0, agents=["mcts:20", "random"])
    assert report.agents == ["mcts:20", "random"] and report.games == 4


def test_first_player_is_the_seat_that_moved_first() -> None:
    report = simulate(GAME, players=2, n=30, seed=3, agents="random")
    first = report.first_player
    assert first is not None and all(r.first == 1 for r in report.results)  # the ruleset's first_seat is 1
    assert first.first == Rate(report.wins_by_seat[1], 30)
    assert first.others == Rate(report.wins_by_seat[2], 30)
    assert simulate(GAME, players=1, n=2, seed=0, agents="random").first_player is None


def test_the_first_player_is_the_seat_whose_turn_came_first_though_that_turn_asked_nothing() -> None:
    """In Ladders a first roll of 1 ends the first turn before it asks anything: the seat to decide first was then
    the second, and the report counted that seat as the first player (+14.5 points where seat 1 won 10 more than
    the others)."""
    ladders = engine.load(Path(__file__).resolve().parents[1] / "docs" / "examples" / "ladders")
    report = simulate(ladders, players=3, n=60, seed=0, agents="random")
    first = report.first_player
    assert first is not None and {r.first for r in report.results} == {1}
    assert first.first == Rate(report.wins_by_seat[1], 60)
    assert any(ladders.new_state(players=3, seed=derive_seed(0, i)).seat_to_move != 1 for i in range(60))


def test_lead_changes_and_margins_with_a_running_score() -> None:
    report = simulate(GAME, players=4, n=30, seed=1, agents="random")
    changes, margin = report.lead_changes, report.margin
    assert changes is not None and margin is not None
    assert all(0 <= r.lead_changes < r.length for r in report.results if r.lead_changes is not None)
    assert changes.mean > 0 and 0 <= report.games_without_lead_change < 30
    assert margin.max > margin.min  # not a constant: the running score separates some games more than others
    for index in range(3):  # replay a few games: the margin is the top running score minus the next one
        seed = derive_seed(1, index)
        state = GAME.new_state(players=4, seed=seed)
        agents = [make_agent("random", derive_seed(seed, seat)) for seat in range(1, 5)]
        length = 0
        while not state.is_terminal:
            state.apply(agents[state.seat_to_move - 1].choose(state))
            length += 1
        result = report.results[index]
        assert state.outcome is not None and (state.outcome.winners, length) == (result.winners, result.length)
        top, second = sorted((GAME.score_of(state, seat) for seat in range(1, 5)), reverse=True)[:2]
        assert result.margin == top - second


def _replayed(game: engine.Game, players: int, run_seed: int, index: int) -> engine.State:
    """Game ``index`` of a run of random agents seeded ``run_seed``, played again to its end."""
    seed = derive_seed(run_seed, index)
    state = game.new_state(players=players, seed=seed)
    agents = [make_agent("random", derive_seed(seed, seat)) for seat in range(1, players + 1)]
    while not state.is_terminal:
        state.apply(agents[state.seat_to_move - 1].choose(state))
    return state


def test_the_margin_of_a_running_score_that_is_a_lead_already_is_that_lead() -> None:
    # breakthrough scores "my pieces minus theirs": the winner's score is its lead, the loser's its opposite;
    # the top score minus the next counted that lead twice
    game = engine.load("breakthrough")
    report = simulate(game, players=2, n=8, seed=1, agents="random")
    for index, result in enumerate(report.results):
        state = _replayed(game, 2, 1, index)
        mine, theirs = (game.score_of(state, seat) for seat in (1, 2))
        assert mine == -theirs and result.margin == abs(mine)
    assert report.margin is not None and report.margin.max > 0


def test_teams_lead_and_finish_ahead_as_teams() -> None:
    # 2 against 2: both seats of a team score the team's lead, so no seat was ever alone at the top
    # (no lead change was ever counted) and the top seat minus the next (its partner) was always 0
    game = engine.load("iconica")
    report = simulate(game, players=4, n=4, seed=1, agents="random")
    assert report.lead_changes is not None and report.lead_changes.max > 0
    for index, result in enumerate(report.results):
        state = _replayed(game, 4, 1, index)
        team = {seat: game.score_of(state, seat) for seat in range(1, 5)}
        assert team[1] == team[3] == -team[2] == -team[4] and result.margin == abs(team[1])
    assert report.margin is not None and report.margin.max > 0


def test_with_teams_the_first_player_is_measured_against_the_other_team_not_its_partner() -> None:
    # 2 against 2: the first mover's partner wins whenever it does, and counted among "each other seat" it
    # pulled the others' rate towards the first mover's, hiding most of the advantage
    report = simulate(engine.load("iconica"), players=4, n=12, seed=1, agents="random")
    first = report.first_player
    assert first is not None and report.teams == ((1, 3), (2, 4))
    rivals = [(r, seat) for r in report.results for seat in (2, 4) if r.first in (1, 3)]
    rivals += [(r, seat) for r in report.results for seat in (1, 3) if r.first in (2, 4)]
    assert first.others == Rate(sum(r.won(seat) for r, seat in rivals), 2 * report.games) and len(rivals) == 2 * report.games


def test_a_team_margin_in_a_score_that_is_not_a_lead_is_the_difference_between_the_teams() -> None:
    game = engine.load("iconoclasm", variant="teams")
    report = simulate(game, players=4, n=2, seed=1, agents="random")
    for index, result in enumerate(report.results):
        state = _replayed(game, 4, 1, index)
        ones, twos = game.score_of(state, 1), game.score_of(state, 2)
        assert ones != -twos and result.margin == abs(ones - twos)


def test_no_lead_changes_without_a_running_score() -> None:
    game = dataclasses.replace(GAME, running_score=None)
    report = simulate(game, players=4, n=5, seed=1, agents="random")
    assert report.lead_changes is None and report.to_json()["lead_changes"] is None
    assert report.margin is not None  # in the final scores instead
    assert all(r.margin == 1.0 for r in report.results)  # 4 players: ranks pay 4, 3, 2, 1


def test_a_game_result_lists_the_cards_each_seat_placed() -> None:
    result = play_game(GAME, players=2, seed=9, specs=["random", "random"])
    assert sorted(cid for used in result.used for cid in used) == sorted(CARDS)  # each placed once
    assert len(result.used[0]) == len(result.used[1]) == 8  # two hands of four each
    assert result.length >= len(CARDS)  # and the clash orders chosen


# ---------------------------------------------------------------- per-content statistics


@pytest.mark.parametrize("players", [2, 4])
def test_every_card_is_used_in_every_game(players: int) -> None:
    report = simulate(GAME, players=players, n=20, seed=4, agents="random")
    assert [c.name for c in report.content_uses] == GAME.component_names
    for card in report.content_uses:
        assert card.uses == card.games == 20 and card.flag != UNUSED
        assert card.users.trials == 20  # one hand holds each card
    (kind,) = report.kind_uses
    assert kind.name == "card" and kind.uses == 20 * len(CARDS) and kind.users.trials == 20 * players


@pytest.mark.parametrize("players", [2, 4])
def test_a_rival_piece_chosen_as_a_target_is_not_used_by_the_chooser(players: int) -> None:
    """Iconica's actions choose a foe (``choose Brask``): the chooser aimed at it, it did not play it.

    Counting the target as the chooser's made both sides users of nearly every character in every game,
    so each character's users won about half the time and the table could flag none (docs/characters.md).
    """
    game = engine.load("iconica")
    for index in range(6):
        result = play_game(game, players, derive_seed(3, index), ["random"] * players)
        state = _replayed(game, players, 3, index)
        teams = {seat: side for side in (game.teams.get(players) or ((s,) for s in range(1, players + 1)))
                 for seat in side}
        for seat, used in enumerate(result.used, 1):
            for cid in used:  # every character a seat used ends in a party (or among the fallen) of its side
                holder = state.seat_of[game.zone_owner[state.zone_of[cid]]]
                assert holder in teams[seat], (index, seat, game.component_names[cid])


def test_a_card_placed_by_the_setup_is_flagged_unused() -> None:
    report = simulate(GAME, players=3, n=1, seed=0, agents="random")  # 3 players: the absent single starts on the board
    unused = [c for c in report.content_uses if c.flag == UNUSED]
    assert len(unused) == 1 and unused[0].uses == 0
    assert unused[0].name.split("/")[0] == unused[0].name.split("/")[1]


def test_content_whose_users_always_win_is_flagged_strong(tmp_path: Path) -> None:
    favoured = tmp_path / "favoured.yaml"
    favoured.write_text(
        "name: fire-favoured\nextends: iconoclasm-cards\n"
        "scoring:\n  by:\n    - if e == Fire then 1 else 0\n    - count(c in board where c.element == e)\n",
        encoding="utf-8",
    )
    report = simulate(engine.load(favoured), players=4, n=30, seed=0, agents="random")
    flags = {c.name: c.flag for c in report.content_uses}
    assert {name for name, f in flags.items() if f == STRONG} == {n for n in flags if n.startswith("Fire/")}
    assert {name for name, f in flags.items() if f == WEAK} == {n for n in flags if not n.startswith("Fire/")}


FORCED_PICKS = """\
name: forced-picks
title: Forced picks
version: 1
description: Each turn two cards are chosen around a token that is the one option of its choice.
players: [2]
types:
  side: [First, Second]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {side: side}
    instances: [{id: A1, side: First}, {id: A2, side: First}, {id: A3, side: First}, {id: A4, side: First},
                {id: B1, side: Second}, {id: B2, side: Second}, {id: B3, side: Second}, {id: B4, side: Second}]
  token:
    attributes: {side: side}
    instances: [{id: TA, side: First}, {id: TB, side: Second}]
zones:
  hand: {kind: hand, per: role}
  bag: {kind: hand, per: role}
  played: {kind: pile}
setup: |
  for r in roles:
    move(c in cards where c.side == r, hand(r))
    move(t in tokens where t.side == r, bag(r))
turn:
  - do:
      effect: |
        let a = choose(c in hand(current_role))
        move(a, played)
        let t = choose(x in bag(current_role))
        let b = choose(c in hand(current_role))
        move(b, played)
end:
  when: count(hand(Second)) == 0
scoring:
  rank: r in roles
  by: [count(c in played where c.side == r)]
  points: key
"""


@pytest.mark.parametrize("replaying", [False, True])
@pytest.mark.parametrize("agent", ["random", "mcts:10"])
def test_a_piece_taken_as_the_one_option_of_a_choice_is_used(tmp_path: Path, replaying: bool, agent: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a choice with one option is taken without asking, so its piece counted as never used and was
    flagged unused though every game played it (the token here; the last card of a hand too).  It counts once per
    pick: not again when the effect replays to a later answer, nor for a search's copies."""
    from engine.blocks import choices
    monkeypatch.setattr(choices, "_REPLAYING", replaying)
    path = tmp_path / "forced.yaml"
    path.write_text(FORCED_PICKS, encoding="utf-8")
    report = simulate(engine.load(path), players=2, n=5, seed=1, agents=agent)
    uses = {c.name: (c.uses, c.flag) for c in report.content_uses}
    assert uses["TA"] == uses["TB"] == (10, "")  # two turns a game each
    assert all(uses[f"{side}{n}"][0] == 5 for side in "AB" for n in range(1, 5))  # every card, once a game


def test_content_statistics_from_made_up_games() -> None:
    content = [("Sword", "weapon"), ("Shield", "armour"), ("Bow", "weapon")]
    games = [GameResult((1,), (1.0, 0.0), 3, 1, used=((0, 0), (1,))) for _ in range(30)]
    games += [GameResult((2,), (0.0, 1.0), 3, 1, used=((1,), (0,))) for _ in range(10)]
    report = SimulationReport("made-up", [], 2, ["random", "random"], 0, content, games)
    sword, shield, bow = report.content_uses
    assert (sword.uses, sword.games, sword.users) == (70, 40, Rate(40, 40)) and sword.flag == STRONG
    assert (shield.uses, shield.users) == (40, Rate(0, 40)) and shield.flag == WEAK
    assert (bow.uses, bow.games, bow.flag) == (0, 0, UNUSED)
    weapon, armour = report.kind_uses
    assert (weapon.name, weapon.uses, weapon.users) == ("weapon", 70, Rate(40, 40))
    assert (armour.name, armour.users) == ("armour", Rate(0, 40))


# ---------------------------------------------------------------- reproducible runs and executors


def test_same_seed_same_games_other_seed_other_games() -> None:
    first = simulate(GAME, players=2, n=15, seed=1, agents="random").results
    assert simulate(GAME, players=2, n=15, seed=1, agents="random").results == first
    assert simulate(GAME, players=2, n=15, seed=2, agents="random").results != first


def test_parallel_runs_match_serial_runs() -> None:
    serial = simulate(GAME, players=4, n=9, seed=3, agents="random", jobs=1)
    done: list[int] = []
    parallel = simulate(GAME, players=4, n=9, seed=3, agents="random", jobs=2, progress=done.append)
    assert serial.to_json() == parallel.to_json()
    assert serial.results == parallel.results
    assert done[-1] == 9


T = TypeVar("T")
R = TypeVar("R")


class ReversingExecutor:
    """Runs the items last first (as a remote pool might finish them), then gives results in order."""

    workers = 3

    def __init__(self) -> None:
        self.items = 0

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        self.items += len(items)
        return iter(list(reversed([fn(item) for item in reversed(items)])))


def test_any_executor_gives_the_same_report() -> None:
    executor = ReversingExecutor()
    other = simulate(GAME, players=2, n=10, seed=6, agents="random", executor=executor)
    assert executor.items > 1
    assert other.to_json() == simulate(GAME, players=2, n=10, seed=6, agents="random").to_json()


def test_local_executor_keeps_the_order() -> None:
    assert list(LocalExecutor(2).map(abs, [-3, 1, -2, 5])) == [3, 1, 2, 5]
    with pytest.raises(ValueError):
        LocalExecutor(0)


def test_a_parallel_run_plays_the_game_it_was_given_though_its_file_changed(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    shutil.copy(GAME.source, path)
    game = engine.load(path)
    path.write_text(path.read_text(encoding="utf-8").replace("types:", "typos:"), encoding="utf-8")
    parallel = simulate(game, players=2, n=6, seed=0, agents="random", jobs=2)
    assert parallel.results == simulate(game, players=2, n=6, seed=0, agents="random", jobs=1).results


@pytest.mark.parametrize("change, reason", [(("types:", "typos:"), "typos"),
                                            (("name:", "name: renamed #"), "changed since the game was loaded")])
def test_a_worker_loading_the_ruleset_refuses_a_file_changed_since_the_run_started(
        tmp_path: Path, change: tuple[str, str], reason: str) -> None:
    path = tmp_path / "ruleset.yaml"
    shutil.copy(GAME.source, path)
    game = engine.load(path)
    path.write_text(path.read_text(encoding="utf-8").replace(*change, 1), encoding="utf-8")
    chunk = Chunk(GameRef.of(game), 2, ("random", "random"), 0, 0, 2)  # as a spawned worker gets it
    with pytest.raises(RulecraftError, match=reason):
        play_chunk(chunk)


# ---------------------------------------------------------------- comparing runs


def test_a_ruleset_compared_with_itself_shows_no_difference() -> None:
    report = simulate(GAME, players=2, n=40, seed=8, agents="random")
    comparison = compare(report, simulate(GAME, players=2, n=40, seed=8, agents="random"))
    rows = [*comparison.seats.values(), comparison.draws, comparison.length]
    assert all(d.difference == 0 and d.p == 1.0 and not d.significant for d in rows)


def test_a_points_table_that_keeps_the_order_keeps_the_winners() -> None:
    richer = engine.load("iconoclasm-cards", "winner-takes-more")  # 6/3/1/0: the same order as 4/3/2/1
    report = simulate(GAME, players=4, n=40, seed=2, agents="random")
    other = simulate(richer, players=4, n=40, seed=2, agents="random")
    assert other.wins_by_seat == report.wins_by_seat
    assert not any(d.significant for d in compare(report, other).seats.values())


def test_a_points_table_that_breaks_ties_is_a_significant_change() -> None:
    # Two players own two elements each: 4+1 ties 3+2 under 4/3/2/1, but 6+0 beats 3+1 under 6/3/1/0.
    richer = engine.load("iconoclasm-cards", "winner-takes-more")
    report = simulate(GAME, players=2, n=60, seed=2, agents="random")
    comparison = compare(report, simulate(richer, players=2, n=60, seed=2, agents="random"))
    assert comparison.draws.this > 0.1 and comparison.draws.other == 0.0
    assert comparison.draws.significant and not comparison.length.significant


def test_comparing_different_player_counts_is_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        compare(simulate(GAME, 2, 2, 0, "random"), simulate(GAME, 3, 2, 0, "random"))


# ---------------------------------------------------------------- json and csv


def test_json_keys() -> None:
    data = simulate(GAME, players=2, n=5, seed=0, agents="random").to_json()
    assert {"games", "wins_by_seat", "draws", "mean_length", "win_rate", "win_rate_by_agent", "first_player",
            "lead_changes", "margin", "content", "kinds", "length", "mean_seat_win_rate"} <= set(data)
    assert set(data["content"]) == set(GAME.component_names)


def test_flat_rows_hold_one_value_each() -> None:
    data = simulate(GAME, players=2, n=5, seed=0, agents="random").to_json()
    rows = list(flat_rows(data))
    assert all(len(row) == 4 for row in rows)
    assert ("run", "", "games", 5) in rows
    assert ("content", "Fire/Fire", "uses", 5) in rows
    assert ("win_rate", "1", "low", data["win_rate"]["1"]["low"]) in rows


# ---------------------------------------------------------------- benchmarks


def test_bench_reports_speed_and_length() -> None:
    result = bench(GAME, players=2, playouts=4, seed=0)
    wanted = {"playouts_per_second", "actions_per_game", "ruleset", "players", "playouts", "seconds", "python"}
    assert wanted <= set(result)
    assert result["playouts"] == 4 and result["actions_per_game"] > 0


def test_bench_takes_numpy_numbers_and_refuses_what_is_no_whole_number() -> None:
    """bench(game, np.int64(2), np.int64(20), np.int64(1)) failed in random.Random: 'The only supported seed types
    are: None, int, float, str, bytes, and bytearray'."""
    numpy = pytest.importorskip("numpy")
    result = bench(GAME, numpy.int64(2), numpy.int64(5), numpy.int64(1), repeats=1)
    assert json.loads(json.dumps(result))["playouts"] == 5
    with pytest.raises(TypeError, match="^playouts is a whole number, not '5'$"):
        bench(GAME, 2, "5", 1)  # type: ignore[arg-type]
    timed = bench_agent(GAME, numpy.int64(2), "mcts:5", numpy.int64(2), numpy.int64(1), repeats=1)  # was an OverflowError
    assert json.loads(json.dumps(timed))["decisions"] == 2


def test_bench_agent_without_iterations() -> None:
    result = bench_agent(GAME, players=2, spec="random", decisions=3, seed=0, repeats=1)
    assert result["decisions"] == 3 and result["decisions_per_second"] > 0
    assert result["iterations_per_second"] is None


def test_bench_agent_counts_search_iterations() -> None:
    result = bench_agent(GAME, players=2, spec="mcts:20", decisions=2, seed=0, repeats=1)
    assert result["iterations_per_decision"] == 20
    assert result["iterations_per_second"] == pytest.approx(20 * result["decisions_per_second"])


PICKS = """
name: picks
players: [2]
components:
  spell:
    instances: [{id: Bolt}, {id: Ward}, {id: Haste}]
zones:
  book: {kind: pile}
  spent: {kind: pile}
setup: move(c in spells, book)
turn:
  - do:
      effect: |
        let n = choose(k in [1, 2])
        move(choose(c in book), spent)
end: {when: count(c in book) == 0}
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_components_picked_by_choose_in_an_effect_count_as_used(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(PICKS)
    report = simulate(engine.load(path), players=2, n=20, seed=1, agents="random")
    uses = {c.name: c.uses for c in report.content_uses}
    assert all(n > 0 for n in uses.values()) and all(c.flag != UNUSED for c in report.content_uses), uses
    # every spell is played once a game: two by a decision, the last as a choice's one option; a number is no component
    assert sum(uses.values()) == 3 * 20


# ---------------------------------------------------------------- a game without decisions

NO_DECISIONS = Path(__file__).parent / "data" / "no-decisions"


def test_a_game_without_decisions_has_no_first_mover_and_flags_no_component() -> None:
    # every step runs on its own: nobody moved first, and no decision could use a component, so none is "unused"
    from click.testing import CliRunner

    from cli.main import main

    report = simulate(engine.load(str(NO_DECISIONS)), players=2, n=5, seed=0, agents="random")
    assert report.no_decisions and report.games_without_decisions == 5 and report.first_player is None
    assert all(c.uses == 0 and c.flag == "" for c in [*report.content_uses, *report.kind_uses])
    data = report.to_json()
    assert data["first_player"] is None and data["games_without_decisions"] == 5
    text = " ".join(CliRunner().invoke(main, ["simulate", str(NO_DECISIONS), "-n", "5"]).output.split())
    assert "first player: none: no game had a decision (every step ran on its own), so no seat moved first" in text
    assert "per component: not counted: no game had a decision" in text
    assert "moved first won" not in text and UNUSED not in text


def test_the_first_mover_is_counted_over_the_games_with_a_decision() -> None:
    # one game over before anyone moved, one won by the seat that moved first: the first mover won 1 of 1
    from cli.report_tables import simulation_report

    results = [GameResult((1,), (1.0, 0.0), 3, first=1, used=((1,), ())), GameResult((2,), (0.0, 1.0), 0, first=0)]
    report = SimulationReport("r", [], 2, ["random", "random"], 0, [("a", "card"), ("b", "card")], results)
    first = report.first_player
    assert not report.no_decisions and report.games_without_decisions == 1
    assert first is not None and first.first == Rate(1, 1) and first.others == Rate(0, 1)
    assert report.content_uses[0].flag == UNUSED  # decisions were made, one used a card: none used this one
    lines = [part for part in simulation_report(report) if isinstance(part, str)]
    assert any(line.endswith("(over the 1 game with a first mover; 1 had no decision)") for line in lines), lines


@pytest.mark.parametrize("name", ["nine-domains", "sealed-tiles"])
def test_a_game_that_opens_with_a_sealed_decision_has_no_first_mover(name: str) -> None:
    # both seats seal their choice at once; seat 1 was named "the seat that moved first" in every game, and its
    # own win rate, printed again as the first player's advantage
    from cli.report_tables import simulation_report

    report = simulate(shipped_game(name), players=2, n=6, seed=0, agents="random")
    assert report.games_opened_sealed == 6 and report.first_player is None and not report.no_decisions
    assert report.to_json()["first_player"] is None and report.to_json()["games_opened_sealed"] == 6
    lines = [part for part in simulation_report(report) if isinstance(part, str)]
    assert "first player: none: every game opened with a sealed decision, every seat choosing at once, " \
           "so no seat moved first" in lines, lines
    mixed = dataclasses.replace(report, results=[*report.results, GameResult((1,), (1.0, 0.0), 3, first=2)])
    assert mixed.first_player is not None and mixed.first_player.first == Rate(0, 1)


def test_games_stopped_by_the_turn_limit_are_counted_and_said(tmp_path: Path) -> None:
    """An end condition that never holds: every game ran to max_turns, and the report did not say so."""
    from click.testing import CliRunner

    from cli.main import main

    path = tmp_path / "never.yaml"
    path.write_text("name: never\nextends: tutorial-tiles\nend: {when: 'false', stalled: false, max_turns: 12}\n")
    report = simulate(engine.load(str(path)), players=2, n=4, seed=0, agents="random")
    assert report.games_at_turn_limit == 4 and report.to_json()["games_at_turn_limit"] == 4
    assert simulate(GAME, players=2, n=4, seed=0, agents="random").games_at_turn_limit == 0
    text = " ".join(CliRunner().invoke(main, ["simulate", str(path), "-n", "4"]).output.split())
    assert "games stopped by the turn limit (end: max_turns): 4 (100.0%): their 'end: when' never held" in text


def test_an_effect_failing_in_a_simulated_game_names_that_game() -> None:
    """Only 'ruleset.yaml:26:17: division by zero' came out: no way to find, let alone watch, the game."""
    from engine.core.errors import EffectRuntimeError

    failing = engine.load(str(Path(__file__).parent / "data" / "failing-effect"))
    with pytest.raises(EffectRuntimeError) as info:
        simulate(failing, players=2, n=20, seed=0, agents="random")
    seed = int(re.search(r"in the game of seed (\d+);", info.value.message).group(1))
    assert f"rulecraft play {failing.source} --players 2 --seed {seed} --seat 1=random --seat 2=random" in info.value.message
    with pytest.raises(EffectRuntimeError):  # that game, played again, fails the same way
        play_game(failing, 2, seed, ["random", "random"])


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_game_failing_keeps_every_game_finished_before_it(tmp_path: Path, jobs: int) -> None:
    """The run kept only the chunks finished before the failing game's own (25 games of 200 where 39 had been
    played before it): the games of its chunk before it were lost, in this process and from a worker alike."""
    from engine.runner.simulate import GameFailed

    text = (Path(__file__).parent / "data" / "failing-effect" / "ruleset.yaml").read_text(encoding="utf-8")
    tokens = "".join(f"      - {{id: {m}{i}, mark: {m}, weight: {int(m + str(i) != 'A0')}}}\n" for m in "AB" for i in range(30))
    text = re.sub(r"(    instances:\n)(      - .*\n)+", lambda found: found[1] + tokens, text)
    (tmp_path / "ruleset.yaml").write_text(text.replace("count(y in pile) >= 4", "count(y in pile) >= 2"), encoding="utf-8")
    rare = engine.load(str(tmp_path))  # one token of sixty divides by zero: about one game in thirty fails
    first = next(i for i in range(1000) if _fails(rare, derive_seed(0, i)))
    with pytest.raises(GameFailed) as info:
        simulate(rare, players=2, n=200, seed=0, agents="random", jobs=jobs)
    assert f"in the game of seed {derive_seed(0, first)};" in info.value.message
    kept = info.value.report.results
    assert len(kept) == first and [r.seed for r in kept] == [derive_seed(0, i) for i in range(first)]
    assert first % 25, "the failing game should not start a chunk (25 games each here), or the test shows nothing"


def _fails(game: engine.Game, seed: int) -> bool:
    """Whether the game of ``seed`` between random agents fails."""
    from engine.core.errors import EffectRuntimeError

    try:
        play_game(game, 2, seed, ["random", "random"])
    except EffectRuntimeError:
        return True
    return False


def test_an_effect_failing_in_a_bench_playout_names_that_playout() -> None:
    """``rulecraft bench`` said only 'ruleset.yaml:26:17: division by zero': not which of its games failed."""
    from engine.core.errors import EffectRuntimeError

    failing = engine.load(str(Path(__file__).parent / "data" / "failing-effect"))
    with pytest.raises(EffectRuntimeError) as info:
        bench(failing, players=2, playouts=200, seed=0, repeats=1)
    found = re.search(r"\(in random playout (\d+) of seed 0, a game of seed (\d+); bench --seed 0 --playouts (\d+) meets "
                      r"it again\)$", info.value.message)
    assert found and found[1] == found[3] and int(found[2]) == derive_seed(0, int(found[1]) - 1)
    with pytest.raises(EffectRuntimeError, match=f"in random playout {found[1]} of seed 0"):
        bench(failing, players=2, playouts=int(found[1]), seed=0, repeats=1)
    if int(found[1]) > 1:
        assert bench(failing, players=2, playouts=int(found[1]) - 1, seed=0, repeats=1)["playouts"] == int(found[1]) - 1


@pytest.mark.parametrize("playouts, repeats", [(0, 1), (-3, 1), (2, 0)])
def test_bench_of_no_playout_or_no_run_is_refused(playouts: int, repeats: int) -> None:
    """bench(game, 2, playouts=0) was a ZeroDivisionError, repeats=0 'max() arg is an empty sequence'; bench_agent's
    decisions=0 or repeats=0 the same of min()."""
    with pytest.raises(ValueError, match=f"^bench plays at least one playout in at least one run, not {playouts} in {repeats}$"):
        bench(GAME, 2, playouts=playouts, seed=0, repeats=repeats)
    with pytest.raises(ValueError, match=f"^bench_agent times at least one decision in at least one run, not {playouts} "):
        bench_agent(GAME, 2, "random", playouts, 0, repeats=repeats)


def test_the_docs_give_the_chunk_size_the_runner_uses() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs"
    assert f"in chunks of at most {MAX_CHUNK}," in (docs / "hardening.md").read_text(encoding="utf-8")
    assert f"(at most\n{MAX_CHUNK}, so an interrupted run loses little)" in (docs / "scaling.md").read_text(encoding="utf-8")


def test_a_numpy_integer_seed_runs_the_games_of_its_value_and_the_report_is_json() -> None:
    numpy = pytest.importorskip("numpy")
    import json

    report = simulate(GAME, players=2, n=4, seed=numpy.int64(3), agents="greedy,random")
    assert report.to_json() == simulate(GAME, players=2, n=4, seed=3, agents="greedy,random").to_json()
    assert json.loads(json.dumps(report.to_json()))["seed"] == 3
    state = GAME.new_state(players=2, seed=1)
    assert str(make_agent("mcts:5", numpy.int64(2)).choose(state)) == str(make_agent("mcts:5", 2).choose(state))


def test_seats_with_different_bots_have_no_first_player_advantage() -> None:
    # --agents greedy,random,random,random reported "advantage +57.7 points": the greedy bot's edge, not the seat's
    from cli.report_tables import simulation_report
    from cli.web.charts import report_html

    report = simulate(GAME, players=4, n=6, seed=0, agents="greedy,random,random,random")
    assert report.mixed_agents and report.first_player is None and report.to_json()["first_player"] is None
    text = " ".join(part for part in simulation_report(report) if isinstance(part, str))
    assert "first player: not measured: the seats have different bots (greedy, random, random, random)" in text
    assert "advantage" not in text
    assert "advantage" not in report_html(report) and "first player: not measured" in report_html(report)
    assert simulate(GAME, players=2, n=4, seed=0, agents="greedy").first_player is not None


def test_a_report_whose_decisions_use_no_component_says_so_instead_of_a_table_of_unused_rows(tmp_path: Path) -> None:
    """A game whose choices are words (hit or stand) listed every component as "unused", and a game without components
    (Pig) drew an empty table: each now gets one line saying why there is nothing to compare."""
    from click.testing import CliRunner

    from cli.main import main

    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(
        "name: words\nplayers: [2]\ncomponents:\n  card:\n    attributes: {rank: int}\n"
        "    instances: [{id: low, rank: 1}, {id: high, rank: 2}]\nzones:\n  deck: {kind: pile}\n"
        "setup: move(c in supply, deck)\ncounters:\n  stops: {per: role, min: 0}\n"
        "turn:\n  - do:\n      effect: |\n        if choose(w in [\"go\", \"stop\"]) == \"stop\":\n          stops(current_role) += 1\n"
        "end:\n  when: any(stops(r) > 0 for r in roles)\n  max_turns: 50\n"
        "scoring:\n  rank: r in roles\n  by: [stops(r)]\n  points: key\n")
    text = " ".join(CliRunner().invoke(main, ["simulate", str(ruleset), "-n", "20"]).output.split())
    assert "per component: no decision used a component (the choices were among words or numbers)" in text
    assert UNUSED not in text and "┃ component" not in text
    pig = Path(__file__).resolve().parent.parent / "docs" / "examples" / "pig"
    text = " ".join(CliRunner().invoke(main, ["simulate", str(pig), "-n", "5"]).output.split())
    assert "per component: none: the ruleset has no components" in text and "┃ component" not in text


def test_a_cooperative_game_is_won_or_lost_by_all_the_players_together() -> None:
    """A game whose outcome is `goals` (docs/examples/storm-watch) was reported as if every won game were a draw:
    each seat 0 wins, `shared wins (draws): 180 (60.0%)`, the first player 'advantage +0.0 points'.  Every seat now
    wins the games the players win together, no game is a draw, and nobody plays against the first mover."""
    from click.testing import CliRunner

    from cli.main import main

    storm = Path(__file__).resolve().parents[1] / "docs" / "examples" / "storm-watch"
    report = simulate(engine.load(storm), players=3, n=40, seed=1, agents="random")
    won = report.games - report.no_winner
    assert report.together and 0 < won < 40 and report.draws == 0 and report.first_player is None
    assert [rate.wins for rate in report.win_rate.values()] == [won] * 3 and report.to_json()["together"] is True
    assert not simulate(GAME, players=2, n=2, seed=0, agents="random").together
    text = " ".join(CliRunner().invoke(main, ["simulate", str(storm), "--players", "3", "-n", "40", "--seed", "1"]).output.split())
    assert f"won together: {won} ({won / 40:.1%}); lost together: {40 - won}" in text
    assert "first player: not measured: the players win or lose together" in text and "draws" not in text


def test_content_no_decision_could_choose_and_a_cooperative_game_s_content_are_not_flagged() -> None:
    """Storm watch's storm cards (turned up by the game itself) were all 'unused', and with enough games its houses
    'strong': in a cooperative game every seat shares each result, so a house's users won as often as the games that
    lasted long enough to walk to it.  A kind no decision used at all is not flagged, and a cooperative game flags
    nothing strong or weak; a kind some decision used still flags its unused components, and rivals' content is judged."""
    storm = Path(__file__).resolve().parents[1] / "docs" / "examples" / "storm-watch"
    report = simulate(engine.load(storm), players=2, n=300, seed=1, agents="random")
    assert report.together and {u.kind for u in report.kind_uses if not u.uses} == {"storm"}
    assert [u.name for u in report.content_uses + report.kind_uses if u.flag] == []
    wins = [GameResult((1,), (1.0, 0.0), 5, first=1, used=((0, 1), (1,))) for _ in range(40)]
    content = [("a", "card"), ("b", "card"), ("c", "card"), ("t", "token")]
    rivals = SimulationReport("r", [], 2, ["random"] * 2, 0, content, wins)
    assert [(u.name, u.flag) for u in rivals.content_uses] == [("a", STRONG), ("b", ""), ("c", UNUSED), ("t", "")]
    assert [(u.name, u.flag) for u in rivals.kind_uses] == [("card", ""), ("token", "")]
    together = [dataclasses.replace(r, winners=(1, 2), returns=(1.0, 1.0), team_win=True) for r in wins[:20]]
    together += [dataclasses.replace(r, winners=(), returns=(0.0, 0.0), used=((), (1,))) for r in wins[20:]]
    team = SimulationReport("r", [], 2, ["random"] * 2, 0, content, together, teams=((1, 2),))
    assert team.baseline is None and team.content_uses[0].users.rate == 1.0
    assert [(u.name, u.flag) for u in team.content_uses] == [("a", ""), ("b", ""), ("c", UNUSED), ("t", "")]


def test_points_per_seat_are_reported_when_a_result_pays_different_points() -> None:
    """Kuhn poker pays a win 1 or 2 chips (a loss -1 or -2): the report gave only win rates, and how much each seat
    won per game was in the --games CSV alone.  Each seat's points now come with their mean, its 95% interval and how
    many games paid each value; a game whose points only say who won (a win 1, a loss 0) gets nothing new."""
    report = simulate(engine.load("kuhn-poker"), players=2, n=40, seed=1, agents="random")
    assert report.points_vary and report.points is not None
    for seat, paid in report.points.items():
        scores = [r.scores[seat - 1] for r in report.results]
        assert paid.counts == {value: scores.count(value) for value in sorted(set(scores))}
        assert set(paid.counts) <= {-2, -1, 1, 2} and paid.games == 40
        assert paid.mean == pytest.approx(sum(scores) / 40) and paid.low < paid.mean < paid.high
    data = report.to_json()["points"]
    assert data["1"]["counts"] == {str(v): n for v, n in report.points[1].counts.items()}
    assert data["2"]["mean"] == report.points[2].mean
    plain = simulate(engine.load("tic-tac-toe"), players=2, n=20, seed=1, agents="random")
    assert not plain.points_vary and plain.points is None and "points" not in plain.to_json()


def test_points_vary_by_result_not_by_seat_and_their_interval_stays_within_the_values_paid() -> None:
    """A win worth 1 to one seat and 2 to another varies too; a draw paying 0 beside wins paying 1 does not."""
    def game(winners: tuple[int, ...], scores: tuple[int, ...]) -> GameResult:
        return GameResult(winners, tuple(1.0 / len(winners) if s in winners else 0.0 for s in (1, 2)), 5, scores=scores)

    def report(*games: GameResult) -> SimulationReport:
        return SimulationReport("g", [], 2, ["random"] * 2, 0, [], list(games))

    assert not report(game((1,), (1, 0)), game((2,), (0, 1)), game((1, 2), (0, 0))).points_vary
    assert report(game((1,), (1, 0)), game((2,), (0, 2))).points_vary
    assert report(game((1,), (1, 0)), game((1, 2), (0, 1))).points_vary  # a shared win paid 0 to one seat, 1 to the other
    assert Points({0: 7, 2: 1}).low == 0.0 and Points({3: 1}).low == Points({3: 1}).high == 3.0


def endless_ruleset(tmp_path: Path) -> Path:
    """Iconoclasm without its groups' 'deform' and 'if_same': groups that form and clash again without end, the player
    asked which goes first each time, in one turn of endless decisions (four players, most seeds under 10)."""
    folder = tmp_path / "endless"
    shutil.copytree(Path(engine.load("iconoclasm").source).parent, folder)
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    for line in ("        if_same: win", "      deform: {"):
        text = "\n".join(row for row in text.split("\n") if not row.startswith(line))
    path.write_text(text, encoding="utf-8")
    return path


def test_a_turn_whose_choices_never_run_out_stops_at_the_step_asking(tmp_path: Path) -> None:
    """Groups that form and clash again without end, the player asked which goes first each time (iconoclasm without
    its 'deform' and 'if_same'), made one turn of endless decisions: validate ran for hours. A game simulate or
    validate plays stops after ``turn_decisions`` decisions in one turn, at the line of the step asking."""
    from engine.core.limits import Limits, using
    from engine.runner.validate import validate_path

    path = endless_ruleset(tmp_path)
    game = engine.load(path)
    step = next(s for s in game.steps if s.kind == "form_groups")
    with using(Limits(turn_decisions=2_000)):
        game = engine.load(path)
        with pytest.raises(RulecraftError, match=r"has taken 2,000 decisions without passing: .* "
                                                 r"\(limit turn_decisions=2,000; raise it with --limit turn_decisions=N\)") as caught:
            for seed in range(10):
                play_game(game, 4, seed, ["random"] * 4)
    assert caught.value.pos == step.pos
    problems = validate_path(path)
    assert [(p.pos.line, "without passing" in p.message) for p in problems if p.pos is not None] == [(step.pos.line, True)]


def test_an_endless_turn_stops_bench_playouts_search_rollouts_and_play_at_the_step_asking(tmp_path: Path) -> None:
    """Only simulate and validate stopped a turn of endless decisions: 'rulecraft bench''s playouts, the random
    rollouts of the searches (whatever their depth) and a game at 'rulecraft play' went on for as long as one let
    them.  Each now stops with the same error, at the step asking, after ``turn_decisions`` decisions in one turn."""
    from click.testing import CliRunner

    from cli.main import main
    from engine.core.limits import Limits, using
    from engine.runner.agents import play_out
    from engine.runner.bench import playout

    path = endless_ruleset(tmp_path)
    said = r"turn \d+ has taken 200 decisions without passing: .* \(limit turn_decisions=200; raise it with"
    with using(Limits(turn_decisions=200)):
        game = engine.load(path)
        step = next(s for s in game.steps if s.kind == "form_groups")
        with pytest.raises(RulecraftError, match=said) as caught:
            playout(game, 4, 0, random.Random(0))
        assert caught.value.pos == step.pos
        for record in (False, True):  # the rollouts' kernel, and its plain loop for a state keeping its history
            state = game.new_state(players=4, seed=14, record=record)
            with pytest.raises(RulecraftError, match=said) as caught:
                play_out(state, random.Random(14).random, 1_000_000)
            assert caught.value.pos == step.pos
    result = CliRunner().invoke(main, ["play", str(path), "--players", "4", "--seed", "0", "--seat", "1=random",
                                       "--limit", "turn_decisions=200"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.rstrip().endswith(f"{step.pos}: turn 35 has taken 200 decisions without passing: does a step "
                                           "offer choices that never run out? (limit turn_decisions=200; raise it with "
                                           "--limit turn_decisions=N); the game stops here"), result.output[-500:]


# ---------------------------------------------------------------- a worker that dies


_KILLED_WORKER = '''
import os, signal
import engine.runner.agents as agents
from engine.runner.simulate import GameFailed, simulate

parent = os.getpid()

class Killed:
    """Plays the first action; in a worker process, killed at its 400th decision (as the out-of-memory killer would)."""
    name, calls = "killed", 0
    def choose(self, state):
        Killed.calls += 1
        if os.getpid() != parent and Killed.calls > 400:
            os.kill(os.getpid(), signal.SIGKILL)
        return state.legal_actions()[0]

agents.agent_kind("killed")(lambda argument, rng: Killed())
try:
    simulate("tic-tac-toe", n=2000, agents="killed,random", jobs=2)
except GameFailed as err:
    print(err.report.games, err.report.partial)
    print(err)
'''


def test_a_worker_process_that_dies_stops_the_run_with_the_games_before_it() -> None:
    """A local worker killed (SIGKILL: the out-of-memory killer, a kill -9) hung the run for ever: the pool put a new
    worker in its place and waited for the lost games.  The run now stops within seconds with the report of the games
    before them, marked partial, and says which worker died and how."""
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", _KILLED_WORKER], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the run waited for ever for the games of a worker that had died")
    games, partial, message = done.stdout.strip().split(maxsplit=2)
    assert int(games) < 2000 and games != "0" and partial == "True", done.stdout + done.stderr
    assert re.fullmatch(r"worker process \d+ was killed by SIGKILL \(the out-of-memory killer sends it, as kill -9 does\): "
                        r"the work it was running was lost with it \(nothing is retried\); the run stopped at game "
                        + str(int(games) + 1) + " of 2000", message), message



def test_an_interrupted_run_resumes_from_its_partial_report_to_the_whole_run_s_report() -> None:
    """``simulate(..., resume=partial)`` plays only the games an interrupted run lacks (a run could only start again
    from its first game), and gives the report of the run never interrupted; a report of another run is refused."""

    def stop_after_some(finished: int) -> None:
        if finished >= 20:
            raise KeyboardInterrupt

    partial = simulate(GAME, players=2, n=60, seed=4, agents="random", progress=stop_after_some)
    assert partial.partial and 20 <= partial.games < 60
    played: list[int] = []
    resumed = simulate(GAME, players=2, n=60, seed=4, agents="random", jobs=2, resume=partial, progress=played.append)
    whole = simulate(GAME, players=2, n=60, seed=4, agents="random")
    assert not resumed.partial and resumed.results == whole.results and resumed.to_json() == whole.to_json()
    assert played[0] > partial.games and played[-1] == 60
    with pytest.raises(ValueError, match=r"^the report resumed is of another run: its seed is 4, this run's 5$"):
        simulate(GAME, players=2, n=60, seed=5, agents="random", resume=partial)
    with pytest.raises(ValueError, match=r"^the report resumed is of another run: its agents are \['random', 'random'\], "
                                         r"this run's \['greedy', 'random'\]$"):
        simulate(GAME, players=2, n=60, seed=4, agents="greedy,random", resume=partial)
    with pytest.raises(ValueError, match=rf"^the report resumed holds {partial.games} games, more than the 10 of this run$"):
        simulate(GAME, players=2, n=10, seed=4, agents="random", resume=partial)
