"""Rows of slots, sealed commitments and contests (the generic blocks behind the Nine Domains).

The no-cheating property of sealed commitments: once the first player has
committed, the second sees only how many cards are sealed — two states that
differ only in what was sealed look the same to the second seat, give the
same determinizations, and make every agent choose the same action.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine
from engine.core.information import determinize
from engine.core.slices import TurnOrder
from engine.lang.parser import parse_expression
from engine.lang.scope import Scope
from engine.lang.types import ANY_COMPONENT
from engine.runner.agents import make_agent

SPECS = ["random", "greedy", "mcts:30", "ismcts:30"]


@pytest.fixture(scope="module")
def game() -> engine.Game:
    return engine.load("nine-domains")


def sealed_by_east(game: engine.Game, commits: list[str]) -> engine.State:
    state = game.new_state(players=2, seed=1)
    for text in commits:
        state.apply(text)
    return state


def test_the_first_players_commitments_do_not_leak(game: engine.Game) -> None:
    a = sealed_by_east(game, ["commit 0 to left", "commit 1 to middle", "commit 2 to right"])
    b = sealed_by_east(game, ["commit 5 to left", "commit 4 to middle", "commit 3 to right"])
    assert a != b and a.current_role == b.current_role == "West"
    seat = a.current_player
    assert a.observation(seat) == b.observation(seat)
    assert a.observation(seat)["zones"]["sealed of East"] == {"hidden": 3}
    assert determinize(a, seat, random.Random(3)) == determinize(b, seat, random.Random(3))
    for spec in SPECS:
        assert str(make_agent(spec, seed=4).choose(a)) == str(make_agent(spec, seed=4).choose(b))


def test_commits_fill_the_slots_in_order_and_reveal_together(game: engine.Game) -> None:
    state = game.new_state(players=2, seed=1, record=True)
    assert [str(a) for a in state.legal_actions()][:2] == ["commit 0 to left", "commit 1 to left"]
    for text in ["commit 0 to left", "commit 1 to middle", "commit 2 to right"]:
        state.apply(text)
    assert all(str(a).endswith("to left") for a in state.legal_actions())  # West's turn, first slot
    assert "0" not in "".join(state.log or [])  # the log says a card was committed, not which
    for text in ["commit 3 to left", "commit 4 to middle", "commit 5 to right"]:
        state.apply(text)
    obs = state.observation(1)["zones"]
    assert obs["played of East"] == ["0", "1", "2"] and obs["played of West"] == ["3", "4", "5"]
    assert obs["sealed of East"] == [] and obs["sealed of West"] == {"hidden": 0}
    assert "East reveals 0 at left, 1 at middle, 2 at right" in (state.log or [])


def test_an_illegal_commit_says_what_is_expected(game: engine.Game) -> None:
    state = game.new_state(players=2, seed=1)
    with pytest.raises(engine.IllegalActionError, match="to left"):
        state.apply("commit 0 to right")


def test_slot_functions_read_rows_of_the_zone(game: engine.Game) -> None:
    state = game.new_state(players=2, seed=1)
    for text in ["commit 0 to left", "commit 1 to middle", "commit 2 to right",
                 "commit 3 to left", "commit 4 to middle", "commit 5 to right",
                 "commit 3 to left", "commit 4 to middle", "commit 5 to right"]:
        state.apply(text)
    checks = [
        'all(slot_of(c) == 2 for c in played(East) where c.value == 1)',
        'all(row_of(c) == 1 for c in played(East))',
        'all(row_of(c) == 1 and slot_of(c) == 1 for c in sealed(East) where c.value == 3)',
        'all(count(slot_neighbours(c)) == 2 for c in played(East) where c.value == 1)',
        'all(count(slot_neighbours(c)) == 1 for c in played(East) where c.value != 1)',
        'all(slot_next(c) == none and slot_previous(c) == none for c in played(West))',
        'all(slot_of(c) == 0 and row_of(c) == 0 for c in hand(East))',
    ]
    for text in checks:
        assert game.compile_condition(text).test(state), text


def test_slot_neighbours_stay_in_their_row(game: engine.Game) -> None:
    """Over several rows, a card's neighbours are the cards beside it in its own row: the right card of
    one row never sees the left card of the next (The Nine Domains' modifiers read them)."""
    state = game.new_state(players=2, seed=1)
    while state.turn_number <= 4:  # two rounds: each player's played zone holds two rows of three
        state.apply(state.legal_actions()[0])
    played = state.zones[game.zone_names.index("played of East")]
    assert len(played) == 6
    scope = Scope(game.vocab)
    scope.bind("c", ANY_COMPONENT)
    neighbours = parse_expression("slot_neighbours(c)").compile(scope).fn
    for index, cid in enumerate(played):
        row, slot = divmod(index, 3)
        expected = [played[3 * row + j] for j in (slot - 1, slot + 1) if 0 <= j < 3]
        found = neighbours(state, [cid])
        assert sorted(found) == sorted(expected), f"row {row + 1}, slot {slot + 1}"


@pytest.mark.parametrize("other,star_wins", [
    ("0", False), ("1", False), ("2", False), ("3", True), ("4", True), ("5", True),
    ("1-", False), ("1+", False), ("2-", False), ("2+", False), ("3-", False), ("3+", False), ("4-", True), ("4+", False),
])
def test_the_star_against_each_kind_of_card(game: engine.Game, other: str, star_wins: bool) -> None:
    from engine.core.yamlsource import load_yaml
    from engine.runner.scenario import set_up

    doc = load_yaml("<test>", f'''
position:
  zones:
    hand(East): [star, "2", "3"]
    hand(West): ["{other}", "1", "0"]
    pile1: [volcano]
''')
    state = set_up(game, doc, doc["position"])
    for text in ["commit star to left", "commit 2 to middle", "commit 3 to right",
                 f"commit {other} to left", "commit 1 to middle", "commit 0 to right"]:
        state.apply(text)
    winner = "East" if star_wins else "West"
    assert game.compile_condition(f'count(d in won({winner}) where d.id == "volcano") == 1').test(state)
    assert any("whatever the strength" in line for line in state.log or [])


def test_the_winner_decides_an_exchange_then_the_turn_goes_back(game: engine.Game) -> None:
    from engine.core.yamlsource import load_yaml
    from engine.runner.scenario import set_up

    doc = load_yaml("<test>", '''
position:
  zones:
    won(East): [forge]
    won(West): [glacier]
    hand(East): ["0", 2-, "3", "1", "2", "4"]
    hand(West): ["4", "1", "5", "0", "2", "3"]
    pile2: [lake]
''')
    state = set_up(game, doc, doc["position"])
    for text in ["commit 0 to left", "commit 2- to middle", "commit 3 to right",
                 "commit 4 to left", "commit 1 to middle", "commit 5 to right"]:
        state.apply(text)
    assert state.current_role == "East"  # lent to the winner, although West moved last
    assert [str(a) for a in state.legal_actions()] == ["keep", "exchange forge for glacier", "exchange lake for glacier"]
    state.apply("keep")
    assert state.current_role == "East" and state.turn_number == 3  # West's turn ended; East commits next
    assert str(state.legal_actions()[0]).startswith("commit")


def test_a_win_effect_is_logged_after_the_fight_it_follows(game: engine.Game) -> None:
    """The fights of a row were logged together after the row, so the 3+'s 7 points (moved by its win effect) were
    logged before any fight, as if taken before the 3+ had won."""
    from engine.core.yamlsource import load_yaml
    from engine.runner.scenario import set_up

    doc = load_yaml("<test>", '''
position:
  zones:
    hand(East): [3+, "0", "2"]
    hand(West): ["1", 1-, "4"]
    pile1: [forest]
    pile2: [lake]
    pile3: [shrine]
''')
    state = set_up(game, doc, doc["position"])
    state.log = []
    for text in ["commit 3+ to left", "commit 0 to middle", "commit 2 to right",
                 "commit 1 to left", "commit 4 to middle", "commit 1- to right"]:
        state.apply(text)
    log = state.log
    fight = next(i for i, line in enumerate(log) if line.startswith("left: 3+ (East) against 1 (West)"))
    token = next(i for i, line in enumerate(log) if "seven" in line)
    middle = next(i for i, line in enumerate(log) if line.startswith("middle:"))
    assert fight < token < middle, log


def test_mistakes_in_card_code_and_slots_are_positioned(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from engine.core.paths import find_ruleset

    text = find_ruleset("nine-domains").read_text(encoding="utf-8")
    text = text.replace("then 2 else 0", "then 2 els 0").replace("zones: [sealed, played]", "zones: [sealed, playd]")
    bad = tmp_path / "ruleset.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(engine.RulesetError) as err:
        engine.load(str(bad))
    message = str(err.value)
    line = 1 + next(i for i, row in enumerate(find_ruleset("nine-domains").read_text(encoding="utf-8").splitlines()) if "then 2 else 0" in row)
    assert f"ruleset.yaml:{line}:" in message  # the 1+'s modifier
    assert "unknown zone 'playd' (did you mean 'played'?)" in message


def test_bots_sample_only_what_the_rules_leave_open(game: engine.Game) -> None:
    """Each player's base cards stay theirs in every sample (owner_known), though not where: hand or sealed row."""
    state = sealed_by_east(game, ["commit 0 to left", "commit 1 to middle", "commit 2 to right"])
    names = game.piece_names
    zone = game.zone_index
    sealed_bases = set()
    for i in range(40):
        sample = determinize(state, state.seat_to_move, random.Random(i))
        assert sample.observation(state.seat_to_move) == state.observation(state.seat_to_move)
        east = [c for z in (zone[("hand", "East")], zone[("sealed", "East")]) for c in sample.zones[z]]
        assert sorted(names[c] for c in east if not game.attributes["special"][0][c]) == ["0", "1", "2", "3", "4", "5"]
        sealed_bases.add(sum(not game.attributes["special"][0][c] for c in sample.zones[zone[("sealed", "East")]]))
    assert len(sealed_bases) > 1  # how many base cards East sealed is not known, so samples differ


def test_a_sealed_face_does_not_leak() -> None:
    """``commit: {face: choose}``: the face is sealed with the tile; the other seat cannot tell which."""
    game = engine.load("sealed-tiles")
    a, b = game.new_state(players=2, seed=1), game.new_state(players=2, seed=1)
    a.apply("commit LionSM as Sun to tile")
    b.apply("commit LionSM as Moon to tile")
    assert a != b
    seat = a.current_player
    assert a.observation(seat) == b.observation(seat)
    assert a.observation(seat)["zones"]["sealed of Lion"] == {"hidden": 1}
    assert determinize(a, seat, random.Random(3)) == determinize(b, seat, random.Random(3))
    for spec in SPECS:
        assert str(make_agent(spec, seed=4).choose(a)) == str(make_agent(spec, seed=4).choose(b))


def test_a_commit_finds_the_zone_it_commits_to_once(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    # the zone a commit moves the card to is the one whose size says the next slot: it is resolved at most once
    # (a role's two zones are read together from a table when both are per role), and so is the zone it comes from
    from engine.blocks.context import ZoneRef

    state, resolved = game.new_state(players=2, seed=1), []
    before = state.clone()
    read = ZoneRef.__call__
    monkeypatch.setattr(ZoneRef, "__call__", lambda ref, s: resolved.append(ref.name) or read(ref, s))
    state.apply("commit 0 to left")
    assert resolved.count("sealed") <= 1 and resolved.count("hand") <= 1
    monkeypatch.undo()
    before.apply("commit 0 to left")
    assert state == before and state.legal_actions().all_args() == before.legal_actions().all_args()


def test_slot_functions_agree_with_the_row_over_random_games(game: engine.Game) -> None:
    """The slot functions read the row's sizes once, as they compile (the vocabulary holds the row), and generated
    code calls each as one function of the component: over random games, each gives for every component what the
    row says at that moment, run as a closure and as generated code."""
    from engine.blocks.slots import SLOTS
    from engine.lang.codegen import finish

    row = game.parts["slots"]
    assert game.vocab.data[SLOTS] is row
    n = len(row.names)
    scope = Scope(game.vocab)
    scope.bind("c", ANY_COMPONENT)
    compiled = {}
    for name in ("slot_of", "row_of", "slot_neighbours", "slot_next", "slot_previous"):
        node = parse_expression(f"{name}(c)")
        closure, generated = node.compile(scope).fn, finish(node.compile(scope), None, scope).fn
        assert generated is not closure
        compiled[name] = closure
        compiled[name + " (generated)"] = generated
    rng = random.Random(3)
    for seed in range(12):
        state = game.new_state(players=2, seed=seed)
        while state.outcome is None:
            for cid in range(len(game.component_names)):
                where = row.where(state, cid)
                items, index = where if where is not None else ([], 0)
                start, slot = index - index % n, index % n
                expected = {
                    "slot_of": slot + 1 if where else 0,
                    "row_of": index // n + 1 if where else 0,
                    "slot_neighbours": [items[start + j] for j in row.neighbours[slot] if start + j < len(items)] if where else [],
                    "slot_next": items[index + n] if where and index + n < len(items) else None,
                    "slot_previous": items[index - n] if where and index >= n else None,
                }
                for name, fn in compiled.items():
                    assert fn(state, [cid]) == expected[name.split()[0]], (name, game.component_names[cid])
            state.play(rng.randrange(len(state.legal_actions())))



def test_each_slot_function_reads_what_the_row_says_in_any_row_shape() -> None:
    """Each slot function is made for what it reads (a row further on or back, the neighbours, the slot or row): for
    rows of 1 to 4 slots, ringed or in a line, partly filled, each gives what the row says for every component."""
    from types import SimpleNamespace

    from engine.blocks.slots import ADDED_FUNCTIONS, SlotFunction, SlotRow

    functions = [f for f in ADDED_FUNCTIONS if isinstance(f, SlotFunction) and f.reads != "facing"]
    assert {f.reads for f in functions} == {"slot", "row", "neighbours", "step"}
    for n in range(1, 5):
        line = tuple(tuple(j for j in (i - 1, i + 1) if 0 <= j < n) for i in range(n))
        ring = tuple(tuple(dict.fromkeys(j % n for j in (i - 1, i + 1) if j % n != i)) for i in range(n))
        for near in (line, ring):
            row = SlotRow(tuple(f"s{i}" for i in range(n)), near, frozenset({1}))
            for size in range(3 * n + 1):
                items = list(range(100, 100 + size))
                s = SimpleNamespace(zone_of={c: 1 for c in items} | {7: 0}, zones={0: [7], 1: items})
                for f in functions:
                    fetch = f.fetcher(row)
                    empty = {"int": 0, "component": None, "list": []}[f.gives]
                    assert fetch(s, None) == empty and fetch(s, 7) == empty, f.name
                    for index, c in enumerate(items):
                        start, slot, j = index - index % n, index % n, index + f.rows * n
                        expected = {"slot": slot + 1, "row": index // n + 1,
                                    "neighbours": [items[start + k] for k in near[slot] if start + k < size],
                                    "step": items[j] if 0 <= j < size else None}[f.reads]
                        assert fetch(s, c) == expected, (f.name, n, near, size, index)


def test_a_commit_lists_the_next_decision_as_asking_again_would(game: engine.Game) -> None:
    """A commit works out the next slot's decisions as it applies one: over random games, they are the decisions
    the step lists when asked afresh."""
    rng = random.Random(5)
    for seed in range(20):
        state = game.new_state(players=2, seed=seed)
        while state.outcome is None:
            kept = state.legal_actions()
            step = game.steps[state.step]
            if state.pending is None and state.chance is None and step.kind == "commit":
                assert kept.all_args() == step.actions(state).all_args()
            state.play(rng.randrange(len(kept)))


# ---------------------------------------------------------------- the turn order in sealed rounds

def _extended(tmp_path, turn_end: str):  # type: ignore[no-untyped-def]
    """sealed-tiles with a ``do`` step added at the end of the turn."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(f"name: sealed-changed\nextends: sealed-tiles\nturn+:\n  - do:\n      effect: |\n{turn_end}", encoding="utf-8")
    return path


@pytest.mark.parametrize("call", ["play_again()", "play_next(first(r in roles where seated(r)))"])
def test_a_turn_change_is_refused_in_a_ruleset_of_sealed_rounds(tmp_path, call: str) -> None:  # type: ignore[no-untyped-def]
    """play_again() in sealed-tiles loaded, then the player sealed a tile and played again and again until the game
    stalled with the tile never revealed: the reveal waits for the round's last player."""
    from engine.core.errors import RulesetError

    with pytest.raises(RulesetError) as caught:
        engine.load(_extended(tmp_path, f"        if turn_position(current_role) == 1:\n          {call}\n"))
    (problem,) = caught.value.diagnostics
    assert problem.message.startswith(f"{call.split('(')[0]}() can't be used in a ruleset with a 'reveal' step (")
    assert "reveals on the last one's" in problem.message and (problem.pos.line, problem.pos.col) == (7, 11)


def test_the_reveal_waits_for_the_last_player_still_in_the_turn_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """When the round's last player left the turn order, the others' sealed tiles were never revealed: the game
    stalled. Now the round ends on the turn of the last player still playing."""
    game = engine.load(_extended(tmp_path, "        if turn_position(current_role) == 2 and count(t in board) >= 2:\n"
                                           "          leave(current_role)\n"))
    state = game.new_state(players=2, seed=3, record=True)
    seats = [make_agent("random", 10), make_agent("random", 11)]
    while not state.is_terminal:
        if state.simultaneous_seats():
            assert state.simultaneous_seats() == (state.seat_to_move,) or not state.left_roles()  # a left role decides nothing
        state.apply(seats[state.seat_to_move - 1].choose(state))
    log = state.log
    assert "Stag leaves the turn order" in log
    after = log[log.index("Stag leaves the turn order"):]
    commits = [line for line in after if line == "Lion commits a card face down to tile"]
    assert len(commits) >= 2 and len([line for line in after if line.startswith("Lion reveals ")]) == len(commits)
    assert not any(state.zones[game.zone_index[("sealed", role)]] for role in ("Lion", "Stag"))


def test_a_role_that_left_is_not_one_of_the_seats_deciding_together(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Sealed decisions of the round's later roles are taken together: one that left the turn order has none."""
    game = engine.load(_extended(tmp_path, "        pass\n"))
    state = game.new_state(players=2, seed=3)
    assert state.simultaneous_seats() == (1, 2)
    state.slices[TurnOrder.block] = TurnOrder(left=("Stag",))  # as leave(Stag) would have left it
    assert state.left_roles() == ("Stag",) and state.simultaneous_seats() == (1,)


# ---------------------------------------------------------------- sealed numbers (a sealed bid)

BIDS = Path(__file__).resolve().parent.parent / "docs" / "examples" / "sealed-bids"


def test_a_sealed_step_seals_a_number_the_others_see_only_as_committed() -> None:
    """A sealed bid could only be said with bid cards: commit: {numbers: ...} seals a number alone."""
    import json

    game = engine.load(BIDS)
    state = game.new_state(players=3, seed=1, record=True)
    assert [str(a) for a in state.legal_actions()] == [f"commit {n} to bid" for n in range(6)]
    assert state.simultaneous_seats() == (1, 2, 3)
    state.apply("commit 4 to bid")
    assert state.observation(1)["committed_numbers"]["sealed"] == [["Red", "bid", 4]]
    assert state.observation(2)["committed_numbers"] == {"sealed": [], "revealed": []}
    assert "Red commits a number face down to bid" in state.log
    with pytest.raises(engine.IllegalActionError, match="commit one of the numbers 0 1 2 3 4 5 to bid"):
        state.apply("commit 6 to bid")
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))  # the sealed number is saved with the game
    assert again.observation(1)["committed_numbers"]["sealed"] == [["Red", "bid", 4]]
    for sample in (determinize(state, 2, random.Random(k)) for k in range(20)):  # Red's bid drawn again, 0..5
        (_, _, _, n), = sample.slices["committed numbers"].sealed
        assert 0 <= n <= 5
    state.apply("commit 1 to bid")
    state.apply("commit 4 to bid")  # the last bid reveals them all: Red and Green tie at 4, the vase is lost
    assert state.observation(2)["committed_numbers"]["revealed"] == [["Red", "bid", 4], ["Blue", "bid", 1], ["Green", "bid", 4]]
    assert "Green reveals the number 4 for bid" in state.log and state.current_role == "Red"
    assert [state.game.piece_names[c] for c in state.zones[game.zone_index[("lost", None)]]] == ["vase"]


@pytest.mark.parametrize("spec, says", [
    ("{numbers: 'numbers(0, 3)', from: hand, to: sealed}", "'numbers' seals a number alone: leave out 'from', 'to'"),
    ("{numbers: empty_cells}", "'numbers' must be a list of numbers (say numbers(0, 10)), not list of cell")])
def test_a_sealed_number_step_says_what_is_wrong(tmp_path, spec: str, says: str) -> None:  # type: ignore[no-untyped-def]
    from engine.core.errors import RulesetError

    text = (BIDS / "ruleset.yaml").read_text(encoding="utf-8")
    old = '  - commit: {numbers: "numbers(0, coins(current_role))"}\n'
    assert old in text
    (tmp_path / "ruleset.yaml").write_text(text.replace(old, f"  - commit: {spec}\n"), encoding="utf-8")
    with pytest.raises(RulesetError, match=re.escape(says)):
        engine.load(tmp_path)


@pytest.mark.parametrize("spec", ["ismcts:30", "mcts:30"])
def test_searching_bots_bid_sealed_numbers_to_the_end(spec: str) -> None:
    game = engine.load(BIDS)
    state = game.new_state(players=2, seed=4)
    seats = [make_agent(spec, 1), make_agent("random", 2)]
    while not state.is_terminal:
        state.apply(seats[state.seat_to_move - 1].choose(state))
    assert state.outcome is not None


def test_the_environment_shows_a_sealed_number_to_its_seat_alone_and_offers_bids_by_rank() -> None:
    from engine.rl.actions import ActionTable
    from engine.rl.encoding import Encoder

    game = engine.load(BIDS)
    encoder, table = Encoder(game, 2), ActionTable(game)
    segment = next(s for s in encoder.segments if s.name == "committed numbers")
    state = game.new_state(players=2, seed=1)
    assert sorted(table.legal(state)) == list(range(6))  # six bids, by rank: the numbers are computed during play
    state.apply("commit 4 to bid")
    mine, theirs = (encoder.encode(state.observation(seat))[segment.offset:segment.offset + segment.length] for seat in (1, 2))
    assert list(mine) == [5, 0, 0, 0] and list(theirs) == [0, 0, 0, 0]  # own slot, then Red, Blue, Green revealed
    state.apply("commit 2 to bid")
    assert list(encoder.encode(state.observation(2))[segment.offset:segment.offset + segment.length]) == [0, 5, 3, 0]


@pytest.mark.parametrize("code", ["committed_number(Red, committed_number(Blue)) == none",
                                  "committed_cell(Red, committed_number(Blue)) == none"])
def test_a_slot_that_is_none_reads_none_not_a_crash(code: str) -> None:
    """A slot given by a number not yet revealed (none) was taken 1 from: a TypeError with a traceback."""
    from engine.runner.expectations import compile_expectation

    game = engine.load(BIDS)
    assert compile_expectation(game, code).holds(game.new_state(players=2, seed=1))


def test_a_refused_commit_lists_the_cards_as_the_actions_are_listed() -> None:
    """The cards a refused commit offered were listed as they lay in the hand ('0, 2, 3, 4, 4+, 1+, 3-') while
    rulecraft play and the web list the actions in the order the ruleset declares the cards ('..., 1+, 3-, 4+')."""
    import random

    from cli.menu import menu
    from engine.core.errors import IllegalActionError

    game = engine.load("nine-domains")
    differed = 0
    for seed in range(6):
        s = game.new_state(players=2, seed=seed)
        choose = random.Random(seed)
        for _ in range(choose.randrange(8)):
            s.apply(s.legal_actions()[choose.randrange(len(s.legal_actions()))])
        if s.is_terminal or not all(str(a).startswith("commit ") for a in s.legal_actions()):
            continue
        listed = [str(a).split()[1] for a in menu(s)]
        differed += listed != [str(a).split()[1] for a in s.legal_actions()]
        with pytest.raises(IllegalActionError) as refused:
            s.apply("commit nothing to left")
        assert f"commit one of {', '.join(listed)} to " in str(refused.value), (listed, str(refused.value))
    assert differed  # hands whose cards lie in another order than declared were met
