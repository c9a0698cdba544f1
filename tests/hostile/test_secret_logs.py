"""The log tells no seat what it may not see: every seat reads it (``rulecraft play``, a table's moves).

A component lying where some seat cannot see it (a hand hidden from the others) was named in the log lines the
blocks write through ``label`` ("seat1's gem gets Cursed"), and a final act taken from a hidden hand was logged with
the act's name, which says which card it is.  Now such a component is named by where it lies (``a component in hand
of seat1``), as a counter's change and a move name it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, told_to_seats

STATUSES = """\
name: secret-status-logs
players: [2]
components:
  card:
    instances: [{id: gem}, {id: ruby}]
zones:
  hand: {kind: hand, per: role, hidden: HIDDEN}
  played: {kind: pile}
counters:
  gold: {per: role}
statuses:
  Cursed:
    on:
      on_end: |
        gold(current_role) += 1
setup: |
  move(c in cards, hand(nth(roles, 1)))
  for c in cards where c.id == "gem":
    give(c, Cursed)
turn:
  - do:
      effect: |
        let c = choose(x in hand(current_role), text = "lift a card's spell")
        remove(c, Cursed)
        move(x in hand(current_role) where x == c, played)
end:
  when: count(played) >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def played(tmp_path: Path, text: str, hidden: str, action: str) -> engine.State:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("HIDDEN", hidden), encoding="utf-8")
    state = engine.load(str(path)).new_state(players=2, seed=0, record=True)
    state.apply(action)
    return state


def test_a_status_on_a_card_in_a_hidden_hand_is_logged_without_the_card(tmp_path: Path) -> None:
    log = played(tmp_path, STATUSES, "others", "choose gem").log
    assert log is not None
    assert log[0] == "a component in hand of seat1 gets Cursed", log
    assert "Cursed ends on a component in hand of seat1" in log, log
    assert not any("gem" in line for line in log[:log.index("hand of seat1: gem -> played")]), log


def test_a_status_on_an_open_card_is_logged_by_its_name(tmp_path: Path) -> None:
    log = played(tmp_path, STATUSES, "none", "choose gem").log
    assert log is not None and log[0] == "seat1's gem gets Cursed" and "Cursed ends on seat1's gem" in log, log


FINAL_ACTS = """\
name: secret-final-acts
players: [2]
components:
  card:
    attributes: {last: table, doom: int}
    instances:
      - {id: gem, doom: 1, last: {name: Gem Curse, do: "gold(current_role) = 1 OP gold(nth(roles, 2))"}}
      - {id: ruby, doom: 2, last: {name: Ruby Curse, do: "gold(current_role) = 2 OP gold(nth(roles, 2))"}}
zones:
  hand: {kind: hand, per: role, hidden: HIDDEN}
  gone: {kind: pile, per: role}
counters:
  gold: {per: role}
  clock: {}
setup: |
  move(c in cards, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let n = choose(x in numbers(1, 2), text = "wind the clock")
        clock += n
  - final_acts: {from: hand, when: "self.doom <= clock", act: last, to: gone}
end:
  when: clock >= 3
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


@pytest.mark.parametrize("hidden", ["others", "none"])
def test_a_final_act_from_a_hidden_hand_is_logged_without_its_name(tmp_path: Path, hidden: str) -> None:
    """'seat1's gem's final act: Gem Curse' named the card twice to every seat."""
    log = played(tmp_path, FINAL_ACTS.replace("OP", "+"), hidden, "choose 1").log
    assert log is not None
    if hidden == "none":
        assert "seat1's gem's final act: Gem Curse" in log, log
    else:
        assert "a component in hand of seat1 takes its final act" in log, log
        assert not any("gem" in line.lower() for line in log[:-1]), log  # the last: it lies in the open pile


@pytest.mark.parametrize("hidden", ["others", "none"])
def test_a_final_act_failing_in_a_hidden_hand_is_told_at_the_step(tmp_path: Path, hidden: str) -> None:
    """The gem's act failing was told at its own line (':7:'), so every seat learnt that the gem was done for."""
    with pytest.raises(EffectRuntimeError) as err:
        played(tmp_path, FINAL_ACTS.replace("OP", "/"), hidden, "choose 1")
    assert "ruleset.yaml:7:" in str(err.value) and "division by zero" in str(err.value)  # the designer's
    told = told_to_seats(err.value)
    if hidden == "none":
        assert told == str(err.value)
    else:
        line = FINAL_ACTS.splitlines().index('  - final_acts: {from: hand, when: "self.doom <= clock", act: last, to: gone}') + 1
        assert told.startswith(f"{tmp_path / 'ruleset.yaml'}:{line}:5: the final act of a hidden component failed"), told
        assert ":7:" not in told and "division" not in told and "Gem" not in told


def test_a_contest_between_hidden_components_is_logged_without_their_names_or_strengths(tmp_path: Path) -> None:
    """Skirmish with its fronts hidden from the others: ``contest_winner`` logged 'contest: N-foot-2 (North) against
    S-horse-3 (South): strength 2 to 3; ...', naming both hidden soldiers and their strengths to every seat."""
    import random
    import shutil

    folder = tmp_path / "skirmish"
    shutil.copytree(Path(__file__).resolve().parents[2] / "docs" / "examples" / "skirmish", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert "  front: {kind: pile, per: role}" in text
    ruleset.write_text(text.replace("  front: {kind: pile, per: role}", "  front: {kind: pile, per: role, hidden: others}"),
                       encoding="utf-8")
    game = engine.load(str(folder))
    state, choose = game.new_state(players=2, seed=4, record=True), random.Random(4)
    while not state.is_terminal:
        state.play(choose.randrange(len(state.legal_actions())))
    fights = [line for line in state.log or [] if line.startswith("contest:")]
    assert fights and all(" wins" in line for line in fights), fights
    assert fights[0].startswith("contest: a component in front of North against a component in front of South: "), fights
    soldiers = {game.piece_names[c] for c in range(len(game.piece_names))}
    assert not any(name in line or "strength" in line for line in fights for name in soldiers), fights


METERS = """\
name: secret-meter-logs
players: [2]
components:
  card:
    attributes: {fresh: int}
    instances: [{id: gem, fresh: 5}, {id: ruby, fresh: 8}]
zones:
  hand: {kind: hand, per: role, hidden: HIDDEN}
  played: {kind: pile}
counters:
  gold: {per: role}
  charge: {per: card}
meters:
  wear:
    per: card
    start: self.fresh
    max: 9
    thresholds:
      - below: 3
        do: |
          gold(current_role) += 1
setup: |
  move(c in cards, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let c = choose(x in hand(current_role), text = "wear a card")
        if c != none:
          lose(wear(c), 3)
          charge(c) += c.fresh
          move(x in hand(current_role) where x == c, played)
end:
  when: count(played) >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


@pytest.mark.parametrize("hidden", ["others", "none"])
def test_the_values_of_a_hidden_cards_counters_and_meter_are_not_logged(tmp_path: Path, hidden: str) -> None:
    """'a component in hand of seat1 loses 3 wear: 5 -> 2', 'the wear of ... falls below 3' and 'charge of a component
    in hand of seat1: 0 -> 5' told every seat the gem's values (the ruby's are 8), so which card it was."""
    log = played(tmp_path, METERS, hidden, "choose gem").log
    assert log is not None
    turn = log[:next(i for i, line in enumerate(log) if line.startswith("hand of seat1: gem"))]
    if hidden == "none":
        assert "seat1's gem loses 3 wear: 5 -> 2" in turn and "charge of gem: 0 -> 5" in turn, turn
    else:
        assert "a component in hand of seat1 loses wear" in turn, turn
        assert "the wear of a component in hand of seat1 crosses a threshold" in turn, turn
        assert "charge of a component in hand of seat1 changes" in turn, turn
        assert not any(word in line for line in turn for word in ("5", "2", "3", "gem")), turn


def hand_swapping_domains(tmp_path: Path) -> engine.Game:
    """Nine Domains with its 3- swapping a card of its owner's hand for one of the loser's hand."""
    import shutil

    folder = tmp_path / "nine-domains"
    shutil.copytree(Path(__file__).resolve().parents[2] / "rulesets" / "nine-domains", folder)
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("      take: played(owner(self))") == 1
    path.write_text(text.replace("      take: played(owner(self))", "      take: hand(owner(other))"), encoding="utf-8")
    return engine.load(str(folder))


def first_hidden_exchange(game: engine.Game) -> engine.State:
    """A position of a random game where the 3- may swap a card between the hands (some seed gets there)."""
    import random

    for seed in range(200):
        state, choose = game.new_state(players=2, seed=seed, record=True), random.Random(seed)
        while not state.is_terminal:
            actions = state.legal_actions()
            if any(str(a).startswith("exchange") for a in actions):
                return state
            state.apply(actions[choose.randrange(len(actions))])
    raise AssertionError("no 3- won its fight")


def test_an_exchange_between_two_hidden_hands_names_neither_card_to_the_other_seats(tmp_path: Path) -> None:
    """The move every other seat (and the public page) read, and the log, said 'exchange 0 for 3', both cards hidden
    before and after."""
    state = first_hidden_exchange(hand_swapping_domains(tmp_path))
    swap = next(a for a in state.legal_actions() if str(a).startswith("exchange"))
    public = state.public_text(swap)
    assert public.startswith("exchange a card from hand of ") and " for a card from hand of " in public, public
    before = len(state.log or [])
    state.apply(swap)
    said = public.replace("exchange", "exchanges", 1)
    assert any(line.endswith(said) for line in (state.log or [])[before:]), state.log[before:]


@pytest.mark.parametrize("spec", ["mcts:60", "ismcts:60"])
def test_no_seat_sees_inside_the_search_which_cards_another_exchanged_between_hidden_hands(tmp_path: Path, spec: str) -> None:
    """Each exchange was an edge of its own in the other seat's tree: its replies could depend on which cards."""
    from engine.runner.agents import make_agent

    state = first_hidden_exchange(hand_swapping_domains(tmp_path))
    trees, done = make_agent(spec, seed=1).grow(state, lambda i: i < 60)
    me, other = state.seat_to_move, 3 - state.seat_to_move
    assert len(trees[me].children) > 2
    assert {edge[1][0].split(" for ")[0] for edge in trees[other].children} <= {"keep", "exchange a card from hand of East",
                                                                                "exchange a card from hand of West"}

