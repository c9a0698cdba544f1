"""Agents: spec parsing, legal choices on every shipped ruleset, determinism,
determinizations, no cheating, and a small strength check.

The no-cheating test builds, from one position, a second state that differs
only in what the seat to move may not see (the unseen components dealt
differently and turned over, unordered zones reordered, hidden roles of other
seats dealt differently, the generator of future chance changed) and checks
that every agent, seeded alike, chooses the same action in both.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core.information import SEEN, UNORDERED, UNSEEN, determinize, determinizer, hidden_roles, relabel_roles, zone_view, zones_seen_as
from engine.core.slices import Chance
from engine.model.state import State
from engine.runner import agents
from engine.runner.agents import Budget, GreedyAgent, SearchSpec, make_agent
from tests.conftest import declared, ruleset_configs, shipped_game

SPECS = ["random", "greedy", "mcts:30", "ismcts:30"]


def load(name: str) -> engine.Game:
    """A shipped ruleset, or ``name+variant`` for one with a variant switched on: compiled once per test process,
    shared with every module's tests (the parametrisations of several compile them all at collection)."""
    ruleset, _, variant = name.partition("+")
    return shipped_game(ruleset, variant or None)


def configs() -> list[tuple[str, int]]:
    """Every shipped ruleset with each player count it allows, and each variant with hidden roles
    (written ``ruleset+variant``), read from the rulesets' files (see conftest.declared), not compiled."""
    return [(name, n) for name, variant, n in ruleset_configs() if variant is None] + hidden_role_configs()


def hidden_role_configs() -> list[tuple[str, int]]:
    """Every shipped variant that hides the roles (``roles: {hidden: ...}`` true, or an option's name: the
    compiled games are checked to hide them), as ``ruleset+variant``, with each player count it allows."""
    return [(f"{name}+{variant}", n) for name, variant, n in ruleset_configs()
            if variant is not None and declared(name, variant).get("roles", {}).get("hidden") not in (None, False)]


def positions(name: str, players: int, after: tuple[int, ...] = (0, 3, 8)) -> list[State]:
    """Live positions of one game after the given numbers of random actions."""
    state = load(name).new_state(players=players, seed=11)
    rnd = random.Random(2)
    found = []
    for done in range(max(after) + 1):
        if state.is_terminal:
            break
        if done in after:
            found.append(state.clone())
        state.apply(state.legal_actions()[rnd.randrange(len(state.legal_actions()))])
    return found


def hidden_variant(state: State, seat: int) -> State:
    """A state that differs from ``state`` only in what ``seat`` may not see.

    Unseen components are dealt back in reverse, each place keeping its kind
    of component (kinds are public), except that those a zone marks
    ``owner_known`` stay among their owner's unseen zones.
    """
    other = state.clone()
    game = other.game
    kind_of = game.component_kind
    unseen = zones_seen_as(other, seat, UNSEEN)

    def known(zone: int, cid: int) -> bool:
        test = game.zone_spec_of[zone].owner_known
        return test is not None and test(other, cid)

    kinds = sorted({kind_of[cid] for zone in unseen for cid in other.zones[zone]})
    common = {k: [c for zone in unseen for c in other.zones[zone] if kind_of[c] == k and not known(zone, c)][::-1]
              for k in kinds}
    by_owner: dict[str | None, list[int]] = {}
    for zone in unseen:
        by_owner.setdefault(game.zone_owner[zone], []).append(zone)
    for owned in by_owner.values():
        hands = {}
        for k in kinds:
            hand = [c for zone in owned for c in other.zones[zone] if kind_of[c] == k and known(zone, c)]
            need = sum(kind_of[c] == k for zone in owned for c in other.zones[zone]) - len(hand)
            hands[k], common[k] = (hand + common[k][:need])[::-1], common[k][need:]
        for zone in owned:
            other.zones[zone] = [hands[kind_of[c]].pop() for c in other.zones[zone]]
            for cid in other.zones[zone]:
                other.zone_of[cid] = zone
                other.flip(cid)
    for zone in zones_seen_as(other, seat, UNORDERED):
        other.zones[zone].reverse()
    roles = hidden_roles(other, seat)
    relabel_roles(other, dict(zip(roles, roles[1:] + roles[:1])))
    other.rng ^= 0x5DEECE66D
    return other


# ---------------------------------------------------------------- specs


@pytest.mark.parametrize(
    ("spec", "name", "budget", "exploration"),
    [
        ("mcts:400", "mcts:400", Budget(iterations=400), 1.4),
        ("mcts", "mcts:400", Budget(iterations=400), 1.4),
        ("mcts:2s", "mcts:2s", Budget(seconds=2.0), 1.4),
        ("mcts:0.5s", "mcts:0.5s", Budget(seconds=0.5), 1.4),
        ("mcts:400:c=2", "mcts:400:c=2", Budget(iterations=400), 2.0),
        ("MCTS: 50 : C=0.7", "mcts:50:c=0.7", Budget(iterations=50), 0.7),
        ("ismcts:400", "ismcts:400", Budget(iterations=400), 1.4),
        ("ismcts:1.5s:c=1", "ismcts:1.5s:c=1", Budget(seconds=1.5), 1.0),
    ],
)
def test_search_specs(spec: str, name: str, budget: Budget, exploration: float) -> None:
    agent = make_agent(spec, seed=0)
    assert agent.name == name
    assert agent.spec == SearchSpec(name.split(":")[0], budget, exploration)  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_simple_specs(spec: str) -> None:
    assert make_agent(spec, seed=0).name == spec


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("oracle", "unknown agent 'oracle'; known agents: random, greedy, mcts:N, mcts:Ts, ismcts:N, ismcts:Ts"),
        ("random:3", "agent 'random' takes no argument"),
        ("greedy:3", "agent 'greedy' takes no argument"),
        ("mcts:abc", "'mcts:abc' is not a valid mcts agent; write mcts:N, mcts:Ts"),
        ("mcts:0", "'mcts:0' is not a valid mcts agent"),
        ("mcts:2.5", "'mcts:2.5' is not a valid mcts agent"),
        ("mcts:-1s", "'mcts:-1s' is not a valid mcts agent"),
        ("mcts:nans", "'mcts:nans' is not a valid mcts agent"),
        ("ismcts:400:c=x", "'ismcts:400:c=x' is not a valid ismcts agent; write ismcts:N, ismcts:Ts"),
        ("ismcts:400:c=-1", "optionally followed by :c=C and :depth=D (N iterations or T seconds per decision"),
        ("mcts:200:depth=0", "D the most random actions a rollout plays before the running score decides"),
        ("mcts:200:depth=2.5", "'mcts:200:depth=2.5' is not a valid mcts agent"),
        ("mcts:200:depth=2000000", "a rollout plays at most 1,000,000 actions"),
        ("mcts:200:depth=5:depth=6", "gives its rollout depth twice: give it once"),
        ("mcts:400::c=1", "is not a valid mcts agent"),
        ("mcts:1e9s", "a search runs at most 3,600 seconds per decision"),
        ("ismcts:10000001", "a search runs at most 10,000,000 iterations per decision"),
    ],
)
def test_bad_specs_say_what_is_known(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        make_agent(spec, seed=0)
    assert message in str(err.value)


@pytest.mark.parametrize("spec", ["mcts:12:depth=3", "ismcts:12:c=2:depth=3"])
def test_a_search_s_depth_cuts_its_rollouts(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``:depth=D`` is the most random actions a rollout plays (Frontiers' rollouts ran 1,000 actions each, with no way
    to say fewer); the spec keeps its name."""
    from engine.runner import agents

    caps, rollout = [], agents.rollout

    def counted(state: object, rand: object, cap: int = agents.ROLLOUT_CAP) -> list[float]:
        caps.append(cap)
        return rollout(state, rand, cap)  # type: ignore[arg-type]

    monkeypatch.setattr(agents.search, "rollout", counted)
    agent = make_agent(spec, seed=0)
    state = load("iconoclasm-cards").new_state(players=2, seed=1)
    assert agent.choose(state) in state.legal_actions() and agent.name == spec
    assert caps and set(caps) == {3}


def test_time_budget_stops() -> None:
    state = load("iconoclasm-cards").new_state(players=2, seed=1)
    for spec in ("mcts:0.05s", "ismcts:0.05s"):
        agent = make_agent(spec, seed=0)
        start = time.perf_counter()
        assert agent.choose(state) in state.legal_actions()
        assert time.perf_counter() - start < 1.0
        assert agent.last.iterations >= 1  # type: ignore[attr-defined]


# ---------------------------------------------------------------- legal and reproducible


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_choices(spec: str) -> None:
    for state in positions("iconoclasm-cards", 2):
        one = [str(make_agent(spec, seed=s).choose(state)) for s in range(3)]
        two = [str(make_agent(spec, seed=s).choose(state)) for s in range(3)]
        assert one == two


def test_greedy_without_running_score_uses_rollouts() -> None:
    game = load("tutorial-tiles")
    blind = dataclasses.replace(game, running_score=None)
    for state in positions("tutorial-tiles", 2):
        state.game = blind
        assert GreedyAgent(random.Random(0), rollouts=2).choose(state) in state.legal_actions()


@pytest.mark.parametrize(("spec", "depth"), [("greedy:work=10000000", agents.GREEDY_DEPTH),
                                             ("greedy:depth=7:work=10000000", 7)])
def test_greedy_rollouts_stop_at_their_depth(spec: str, depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: greedy's rollouts ran up to 1,000 actions each (minutes per decision in a long game without a
    running score, e.g. chess with it left out); they stop at GREEDY_DEPTH, or the D of greedy:depth=D."""
    caps: list[int] = []
    real = agents.play_out
    monkeypatch.setattr(agents.greedy, "play_out", lambda state, rand, cap: caps.append(cap) or real(state, rand, cap))
    blind = dataclasses.replace(load("tutorial-tiles"), running_score=None)
    state = next(iter(positions("tutorial-tiles", 2)))
    state.game = blind
    make_agent(spec, seed=0).choose(state)
    assert caps and set(caps) == {depth} and depth < agents.ROLLOUT_CAP


@pytest.mark.parametrize("spec", ["greedy", "greedy:work=300"])
def test_greedy_rollouts_play_at_most_their_work_a_decision(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: on a long game without a running score the greedy bot played 8 rollouts of 100 actions for every
    option, 16,000 random actions a decision on chess without its running score (12 s); a decision's rollouts now
    play about GREEDY_WORK actions in all (or N of greedy:work=N), shared evenly among the options."""
    played = [0]
    real = State.play_randomly

    def counted(self: State, rand: object, cap: int) -> int:
        done = real(self, rand, cap)  # type: ignore[arg-type]
        played[0] += done
        return done

    monkeypatch.setattr(State, "play_randomly", counted)
    state = load("breakthrough").new_state(players=2, seed=3)
    state.game = dataclasses.replace(load("breakthrough"), running_score=None)
    bot = make_agent(spec, seed=0)
    options = len(state.legal_actions())
    bot.choose(state)
    assert 0 < played[0] <= bot.work + options  # each option's share rounded up


def test_greedy_rollouts_of_a_short_game_are_not_cut() -> None:
    """The work shared among the options cuts nothing in a short game: greedy chooses as it did with no bound."""
    for name in ("kuhn-poker", "liars-dice"):
        for state in positions(name, 2):
            if state.is_terminal or state.chance is not None:
                continue
            bounded = make_agent("greedy", seed=5).choose(state)
            assert bounded == make_agent("greedy:work=100000000", seed=5).choose(state)


class CopyingGreedy(GreedyAgent):
    """The greedy bot as written before it played the last way on from its own positions in place: every option
    tried on a copy, built as an Action and applied."""

    def _value_after(self, s: State, index: int, me: int, budget: list[int], work: float, last: bool = False) -> Any:
        child = s.clone()
        turn = child.turn_number
        child.apply(child.legal_actions()[index], undo=False)
        return self._value(child, me, turn, budget, work)


def test_greedy_playing_its_last_option_in_place_chooses_as_with_a_copy_for_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy plays the last way on from a position of its own turn search on that position, not on a copy (an effect
    waiting on it going on in its own coroutine): its choices are those of the bot that copies for every option, in
    turns where a spell's effect waits on a choice."""
    waited = [0]
    real = GreedyAgent._value_after

    def noted(self: GreedyAgent, s: State, index: int, *rest: Any) -> Any:
        waited[0] += s.pending is not None and bool(rest[-1])
        return real(self, s, index, *rest)

    monkeypatch.setattr(GreedyAgent, "_value_after", noted)
    for state in positions("spell-cycles", 2, after=(5, 6, 7, 13, 14, 15)):  # turns of few options (0.01 s a decision)
        if state.is_terminal or state.chance is not None:
            continue
        for seed in (1, 2):
            assert GreedyAgent(random.Random(seed)).choose(state) == CopyingGreedy(random.Random(seed)).choose(state)
    assert waited[0]  # some last option was played in place on a position whose effect waits


@pytest.mark.parametrize("spec", ["greedy:depth=0", "greedy:depth=x", "greedy:depth=²", "greedy:deep=5", "greedy:depth=2000000",
                                  "greedy:work=0", "greedy:work=200000000", "greedy:depth=5:depth=6", "greedy:", "greedy:3"])
def test_greedy_refuses_a_bad_depth_or_work(spec: str) -> None:
    with pytest.raises(ValueError, match="takes no argument but depth=D.*from 1 to 1,000,000.*work=N.*each once"):
        make_agent(spec, seed=0)


# ---------------------------------------------------------------- determinizations


@pytest.mark.parametrize(("name", "players"), configs())
def test_determinize_keeps_what_the_seat_sees(name: str, players: int) -> None:
    for state in positions(name, players):
        seat = state.seat_to_move
        before = state.to_json()
        sample = determinize(state, seat, random.Random(1))
        assert state.to_json() == before
        assert sample.observation(seat) == state.observation(seat)
        assert sample.rng != state.rng
        for zone, items in enumerate(state.zones):
            view = zone_view(state, zone, seat)
            assert len(sample.zones[zone]) == len(items)
            if view == SEEN:
                assert sample.zones[zone] == items
                assert [sample.face[c] for c in items] == [state.face[c] for c in items]
            elif view == UNORDERED:
                assert sorted(sample.zones[zone]) == sorted(items)
            else:  # unseen: the first face, or any face of a kind thrown like a die
                tossed = state.slices.get(Chance.block, Chance()).tossed or ()
                assert all((sample.face[c] == 0 or state.game.component_kind[c] in tossed) and sample.zone_of[c] == zone
                           for c in sample.zones[zone])
        assert sorted(c for z in sample.zones for c in z) == sorted(c for z in state.zones for c in z)


@pytest.mark.parametrize(("name", "players"), configs())
def test_determinize_depends_only_on_what_the_seat_sees(name: str, players: int) -> None:
    for state in positions(name, players):
        seat = state.seat_to_move
        other = hidden_variant(state, seat)
        assert other != state
        assert determinize(state, seat, random.Random(5)) == determinize(other, seat, random.Random(5))


def test_determinize_refuses_a_seat_the_game_lacks_and_a_generator_that_is_not_one() -> None:
    """determinize(state, 0 or 3 or '1', rng) dealt a sample for a seat the game lacks without a word; an int or None
    for the generator was AttributeError: no attribute 'shuffle'."""
    state = engine.load("kuhn-poker").new_state(players=2, seed=1)
    for seat in (0, 3, "1", True):
        with pytest.raises(ValueError, match=f"^there is no seat {re.escape(repr(seat))}: the seats are 1 to 2$"):
            determinize(state, seat, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^determinize draws from a random.Random, not int$"):
        determinize(state, 1, 5)  # type: ignore[arg-type]
    assert determinize(state, 2, random.Random(0)).observation(2) == state.observation(2)


def test_determinize_resamples_the_unseen() -> None:
    state = load("iconoclasm-cards").new_state(players=2, seed=0)
    seat = state.seat_to_move
    unseen = [z for z in zones_seen_as(state, seat, UNSEEN) if state.zones[z]]
    assert len(unseen) == 2, "the other seat's two hands"
    deals = {tuple(tuple(determinize(state, seat, random.Random(s)).zones[z]) for z in unseen) for s in range(10)}
    assert len(deals) > 5


def test_hidden_roles_are_not_observed_and_are_dealt_again() -> None:
    """With hidden roles a seat sees only its own; determinizations deal the others' again, keeping seats and turns."""
    assert hidden_role_configs(), "a shipped variant hides the roles"
    assert all(load(name).roles.hidden for name, _ in hidden_role_configs())  # the files read as the compiler reads them
    name, players = next((n, p) for n, p in hidden_role_configs() if p == 4)
    state = load(name).new_state(players=players, seed=3)
    seat = state.seat_to_move
    seen = state.observation(seat)
    assert seen["seats"] == {r: seat for r, s in state.seat_of.items() if s == seat}
    assert state.observation(seat % players + 1)["current_role"] is None
    roles = hidden_roles(state, seat)
    assert len(roles) == 3
    deals = set()
    for s in range(12):
        sample = determinize(state, seat, random.Random(s))
        assert [sample.seat_of[r] for r in sample.order] == [state.seat_of[r] for r in state.order]
        assert {r for r in sample.seat_of if sample.seat_of[r] == seat} == set(seen["seats"])
        deals.add(tuple(sample.seat_of[r] for r in roles))
    assert len(deals) > 3


def test_the_no_cheating_check_catches_an_agent_peeking_at_hidden_roles(monkeypatch: pytest.MonkeyPatch) -> None:
    """With determinize replaced by a plain clone, MCTS knows who plays what, and the check notices."""
    monkeypatch.setattr(agents.search, "determinize", lambda state, seat, rng: state.clone())
    states = [state for name, players in hidden_role_configs() for state in positions(name, players, after=(6, 12, 18))]
    assert any(
        str(make_agent("mcts:30", 9).choose(state)) != str(make_agent("mcts:30", 9).choose(hidden_variant(state, state.seat_to_move)))
        for state in states
    )


def test_a_hidden_deck_is_reshuffled() -> None:
    state = load("iconoclasm-cards").new_state(players=1, seed=0)
    deck = state.game.zone_names.index("deck")
    assert zone_view(state, deck, 1) == UNSEEN
    orders = {tuple(determinize(state, 1, random.Random(s)).zones[deck]) for s in range(5)}
    assert len(orders) == 5


# ---------------------------------------------------------------- no cheating


def fewest_and_most() -> list[tuple[str, int]]:
    """:func:`configs` at the fewest and the most players of each: the counts between seat nobody new (a searching
    agent's test over every count took 59 s of CPU, 12 s of it the counts between)."""
    counts: dict[str, list[int]] = {}
    for name, players in configs():
        counts.setdefault(name, []).append(players)
    return [(name, players) for name, players in configs() if players in (min(counts[name]), max(counts[name]))]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(("name", "players"), fewest_and_most())
def test_agents_choose_legal_actions_and_do_not_cheat(name: str, players: int, spec: str) -> None:
    """At live positions of every shipped ruleset (and hidden-role variant) at its fewest and most players, each agent chooses
    a legal action, which plays, without changing the state, and chooses the same in a state that differs only in
    what the seat to move may not see.  One search answers both questions: a test of legal choices alone searched
    the same positions again."""
    for state in positions(name, players):
        other = hidden_variant(state, state.seat_to_move)
        before = state.to_json()
        action = make_agent(spec, seed=9).choose(state)
        assert state.to_json() == before, "choosing must not change the state"
        assert action in state.legal_actions()
        assert str(action) == str(make_agent(spec, seed=9).choose(other))
        state.apply(action)


def test_the_no_cheating_check_catches_a_peeking_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """With determinize replaced by a plain clone, MCTS sees the real hands, and the check notices."""
    monkeypatch.setattr(agents.search, "determinize", lambda state, seat, rng: state.clone())
    differs = []
    for state in positions("iconoclasm-cards", 2) + positions("iconoclasm-cards", 4):
        other = hidden_variant(state, state.seat_to_move)
        differs.append(str(make_agent("mcts:30", 9).choose(state)) != str(make_agent("mcts:30", 9).choose(other)))
    assert any(differs)


# ---------------------------------------------------------------- strength


def test_mcts_beats_random() -> None:
    """mcts:100 wins ~87% of tutorial games against random (fixed seeds); random would pass 14 of 20 ~6% of the time."""
    game = load("tutorial-tiles")
    wins = 0
    for i in range(20):
        state = game.new_state(players=2, seed=100 + i)
        seat = 1 + i % 2
        players = {seat: make_agent("mcts:100", i), 3 - seat: make_agent("random", 1000 + i)}
        while not state.is_terminal:
            state.apply(players[state.seat_to_move].choose(state))
        wins += state.outcome is not None and state.outcome.winners == (seat,)
    assert wins >= 14


@pytest.mark.parametrize(("name", "players"), configs())
def test_a_determinization_keeps_the_kind_of_every_unseen_place(name: str, players: int) -> None:
    for state in positions(name, players):
        seat = state.seat_to_move
        sample = determinize(state, seat, random.Random(4))
        kinds = state.game.component_kind
        for zone in zones_seen_as(state, seat, UNSEEN):
            assert [kinds[c] for c in sample.zones[zone]] == [kinds[c] for c in state.zones[zone]]


def test_searching_bots_play_a_variant_whose_hidden_decks_hold_different_kinds() -> None:
    """Regression: a prestige deck dealt spell cards in a determinization broke the greedy bot's scoring."""
    game = load("spell-cycles+extra-credit")
    for spec in ("greedy", "mcts:10"):
        state = game.new_state(players=3, seed=1)
        bots = [make_agent(spec, seed=1), make_agent("random", seed=2), make_agent("random", seed=3)]
        for _ in range(60):
            if state.is_terminal:
                break
            state.apply(bots[state.seat_to_move - 1].choose(state))


# ---------------------------------------------------------------- sealed decisions stay sealed in the search


@pytest.mark.parametrize("name", engine.builtin_names())
def test_a_step_is_sealed_exactly_when_others_see_less_of_its_decisions(name: str) -> None:
    """``Step.sealed`` is what the searches trust: it must agree with what ``public_format`` hides, along random games."""
    game = load(name)
    state = game.new_state(players=min(game.player_counts), seed=3)
    rnd = random.Random(3)
    seen = 0
    while not state.is_terminal and seen < 300:
        for action in state.legal_actions()[:]:
            hides = action.step.public_format(action.args) != str(action)
            assert action.step.sealed == hides, (str(action), action.step.public_format(action.args))
        state.apply(state.legal_actions()[rnd.randrange(len(state.legal_actions()))])
        seen += 1


@pytest.mark.parametrize("spec", ["mcts:60", "ismcts:60"])
def test_no_seat_answers_a_sealed_choice_inside_the_search(spec: str) -> None:
    """At the first sealed commit, the committing seat's tree tells its cards apart; the other seat's tree, in which
    its own replies are chosen, sees one edge ("a card was committed"), so its reply cannot depend on which."""
    game = load("nine-domains")
    state = game.new_state(players=2, seed=1)
    assert state.legal_actions()[0].step.sealed
    agent = make_agent(spec, seed=1)
    assert isinstance(agent, agents.MultiObserverSearch)
    trees, done = agent.grow(state, lambda i: i < 60)
    me, other = state.seat_to_move, 3 - state.seat_to_move
    assert done == 60
    assert len(trees[me].children) == len({str(a) for a in state.legal_actions()}) > 1
    assert len(trees[other].children) == 1
    (edge,) = trees[other].children
    assert edge[1] == (state.legal_actions()[0].step.public_format(state.legal_actions()[0].args),)


def test_mcts_plays_each_edge_of_its_tree_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """MCTS keeps the positions its iterations reach on its one determinization: near the end of a tic-tac-toe
    game (3 empty cells, at most 15 edges) 200 iterations play about 30 actions, not one descent each."""
    state = load("tic-tac-toe").new_state(players=2, seed=2)
    while len(state.legal_actions()) > 3:
        state.play(0)
    assert state.outcome is None
    played = []
    original = State.play
    monkeypatch.setattr(State, "play", lambda s, index: (played.append(index), original(s, index))[1])
    make_agent("mcts:200", seed=1).choose(state)
    assert len(played) <= 15 + 15 * 3  # each edge once, and a rollout of at most 3 moves after each expansion


@pytest.mark.parametrize("ruleset", ["connect-four", "iconoclasm-cards"])
def test_mcts_past_its_kept_positions_decides_as_it_would_keeping_them(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that may keep only a few positions plays on past them, and chooses what it would have chosen."""
    state = load(ruleset).new_state(players=2, seed=3)
    kept = make_agent("mcts:150", seed=5).choose(state)
    monkeypatch.setattr(agents.search, "KEPT_POSITIONS", 10)
    assert str(make_agent("mcts:150", seed=5).choose(state)) == str(kept)


def test_a_determinizer_draws_what_determinize_draws() -> None:
    """determinizer(state, seat) finds the seat's unseen zones once; its samples are those of determinize."""
    state = load("kuhn-poker").new_state(players=2, seed=4)
    draw = determinizer(state, 1)
    one, other = random.Random(7), random.Random(7)
    for _ in range(5):
        assert draw(one) == determinize(state, 1, other)


def test_a_search_holds_off_the_garbage_collector_and_lets_it_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector would only walk the growing tree during a search (see engine.runner.collector)."""
    seen: list[bool] = []
    original = agents.rollout
    monkeypatch.setattr(agents.search, "rollout", lambda s, rand, cap: (seen.append(gc.isenabled()), original(s, rand, cap))[1])
    make_agent("mcts:20", seed=1).choose(load("tic-tac-toe").new_state(players=2, seed=1))
    assert seen and not any(seen) and gc.isenabled()


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:5", "ismcts:5"])
def test_an_agent_asked_at_a_chance_node_says_no_seat_decides_there(spec: str) -> None:
    state = engine.load("iconica").new_state(players=2, seed=1, explicit_chance=True)
    while state.current_player != engine.CHANCE:  # the party draft, then the dice
        state.apply(state.legal_actions()[0])
    before = state.clone()
    with pytest.raises(ValueError, match=r"asked to choose at a chance node .* apply one of state.chance_outcomes\(\)"):
        make_agent(spec, 1).choose(state)
    with pytest.raises(ValueError, match=r"^joint_choice was asked to choose at a chance node"):
        agents.joint_choice({1: make_agent(spec, 1), 2: make_agent(spec, 2)}, state, random.Random(0))
    assert state == before


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:5", "ismcts:5", "policy"])
def test_an_agent_asked_in_a_game_that_is_over_says_no_seat_decides(spec: str, tmp_path: Path) -> None:
    """greedy raised a ZeroDivisionError, the searches 'max() arg is an empty sequence'."""
    if spec == "policy":
        (tmp_path / "p.json").write_text('{"format": "rulecraft-policy", "values": {}}')
        spec = f"policy:{tmp_path / 'p.json'}"
    over = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    while not over.is_terminal:
        over.apply(over.legal_actions()[0])
    with pytest.raises(ValueError, match=r"was asked to choose in a game that is over \(state.is_terminal\): no seat decides"):
        make_agent(spec, 1).choose(over)


@pytest.mark.parametrize("spec", [None, 3, agents.RandomAgent(1)])
def test_an_agent_spec_that_is_not_text_is_refused_saying_what_a_spec_is(spec: object) -> None:
    """make_agent(None) and simulate(..., agents=[RandomAgent(1), "random"]) raised AttributeError: no attribute 'strip'."""
    from engine.runner.simulate import simulate

    with pytest.raises(TypeError, match="an agent spec is text such as 'random' or 'mcts:400', not "):
        make_agent(spec, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="registered with engine.runner.agents.agent_kind"):
        simulate(engine.load("tic-tac-toe"), players=2, n=1, seed=0, agents=[spec, "random"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="^an agent's seed is a whole number, not None$"):
        make_agent("random", None)  # type: ignore[arg-type]


def test_joint_choice_without_an_agent_for_a_deciding_seat_or_after_the_end_says_so() -> None:
    """joint_choice({1: bot}, state) at a sealed node of two seats, or at the end of a game, raised a bare KeyError."""
    state = engine.load("nine-domains").new_state(players=2, seed=1)
    with pytest.raises(ValueError, match=r"^joint_choice needs an agent for every deciding seat \(1, 2\): none for 2$"):
        agents.joint_choice({1: make_agent("random", 1)}, state, random.Random(0))
    over = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    while not over.is_terminal:
        over.apply(over.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^joint_choice was asked to choose in a game that is over"):
        agents.joint_choice({1: make_agent("random", 1), 2: make_agent("random", 2)}, over, random.Random(0))


def test_an_agent_kind_registered_with_capitals_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """@agent_kind("MyBot") was listed among the known agents yet refused as unknown: specs are read in lower case."""
    from engine.runner import agents

    monkeypatch.setattr(agents.registry, "AGENT_KINDS", dict(agents.AGENT_KINDS))
    monkeypatch.setattr(agents.registry, "AGENT_FORMS", dict(agents.AGENT_FORMS))
    agents.agent_kind("FirstBot")(lambda argument, rng: agents.RandomAgent(0))
    assert make_agent("FirstBot", seed=0).name == make_agent("firstbot", seed=0).name == "random"


MANY_OPTIONS = """
name: many-options
title: Many options
version: 1
description: a choice among a thousand numbers every turn
players: [2]
types:
  side: [A, B]
roles:
  of: side
  seating:
    2: [1, 2]
counters:
  total: {per: role, start: 0}
turn:
  - do:
      effect: |
        total(current_role) += choose(n in numbers(1, 1000))
end:
  when: turn >= 4
scoring:
  rank: r in roles
  by: [total(r)]
  points: key
"""


def test_greedy_tries_no_more_options_than_its_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy tried every option, each costing an action at least (an action of a choice among N numbers costs a
    listing of N): a choice among 10,000 numbers took minutes a decision, its work of 2,000 actions notwithstanding.
    With more options than its work, it tries that many, drawn at random, and still chooses a legal action."""
    (tmp_path / "ruleset.yaml").write_text(MANY_OPTIONS, encoding="utf-8")
    state = engine.load(str(tmp_path / "ruleset.yaml")).new_state(players=2, seed=1)
    tried: list[tuple[int, int]] = []  # the id of the state an option is tried from, and the option
    real = GreedyAgent._value_after

    def counted(self: GreedyAgent, s: State, index: int, *rest: object) -> object:
        tried.append((id(s), index))
        return real(self, s, index, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(GreedyAgent, "_value_after", counted)
    bot = make_agent("greedy:work=10", seed=3)
    action = bot.choose(state)
    assert action in state.legal_actions() and {s for s, _ in tried} == {tried[0][0]}  # one decision's options
    assert len({index for _, index in tried}) == len(tried) == 10
    assert make_agent("greedy:work=10", seed=3).choose(state) == action  # a seed draws the same options again
