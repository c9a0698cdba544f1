"""Tallies (engine/core/tallies.py): the counts a state keeps up to date equal a recount after every action, in clones too."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.core.information import UNSEEN, determinize, zone_view
from engine.core.tallies import Tally, tally_count
from engine.model.state import State
from tests.conftest import shipped_game


def recounted(s: State) -> dict[object, dict[object, int]]:
    """Every tally the state has made, counted again from its zone."""
    return {tally: {v: n for v, n in Counter(tally.row[c] for c in s.zones[tally.zone]).items()}
            for tally in s.tallies}


def kept(s: State) -> dict[object, dict[object, int]]:
    return {tally: {v: n for v, n in counts.items() if n} for tally, counts in s.tallies.items()}


@pytest.mark.parametrize("name, players", [("iconoclasm", 4), ("iconoclasm", 3), ("banner-clash", 2), ("spell-cycles", 2)])
def test_tallies_follow_every_move(name: str, players: int) -> None:
    game = shipped_game(name)
    made = 0
    for seed in range(3):
        s = game.new_state(players=players, seed=seed)
        choose = random.Random(seed)
        while not s.is_terminal:
            s.play(choose.randrange(len(s.legal_actions())))
            assert kept(s) == recounted(s)
            made = max(made, len(s.tallies))
        copy = s.clone()
        assert kept(copy) == kept(s) and all(copy.tallies[t] is not s.tallies[t] for t in s.tallies)
    if name in ("iconoclasm", "spell-cycles"):
        assert made  # a placement condition counts the supply by one attribute, a die's by two: a tally each


def test_a_count_in_a_named_zone_reads_its_tally() -> None:
    game = shipped_game("iconoclasm")
    s = game.new_state(players=4, seed=1)
    s.legal_actions()
    (tally, counts), = s.tallies.items()
    supply = s.zones[tally.zone]
    cid = supply[0]
    before = counts[tally.row[cid]]
    s.move(cid, game.zone_index[("removed", None)])
    assert counts[tally.row[cid]] == before - 1
    s.swap(supply[0], s.zones[game.zone_index[("removed", None)]][0])  # back, and another one out
    assert kept(s) == recounted(s)


def test_a_dealt_sample_makes_its_tallies_again() -> None:
    """A searcher's sample deals hidden zones anew: a tally made before does not survive into it."""
    game = shipped_game("nine-domains")
    s = game.new_state(players=2, seed=2)
    seat = 1
    hidden = [z for z in range(len(s.zones)) if s.zones[z] and zone_view(s, z, seat) == UNSEEN]
    assert hidden
    ids = list(range(len(game.component_names)))  # each component by itself: a tally lists what a zone holds
    for zone in hidden:
        tally_count(s, Tally(zone, ids), 0)
    changed = 0
    for i in range(5):
        sample = determinize(s, seat, random.Random(i))
        assert kept(sample) == recounted(sample)
        changed += any(sample.zones[z] != s.zones[z] for z in hidden)
    assert changed and kept(s) == recounted(s)


def test_a_dealt_sample_keeps_the_tallies_of_the_zones_it_does_not_deal() -> None:
    """A zone the seat sees is not dealt again: its tally goes into the sample as it is (a search's copies of the
    sample read it instead of counting the zone again), and still counts what a recount counts, in the sample and
    after the sample's own moves."""
    game = shipped_game("spell-cycles")
    s = game.new_state(players=2, seed=3)
    seat = 1
    seen = [z for z in range(len(s.zones)) if s.zones[z] and zone_view(s, z, seat) != UNSEEN]
    hidden = [z for z in range(len(s.zones)) if s.zones[z] and zone_view(s, z, seat) == UNSEEN]
    assert seen and hidden
    ids = list(range(len(game.component_names)))
    for zone in seen + hidden:
        tally_count(s, Tally(zone, ids), 0)
    for i in range(5):
        sample = determinize(s, seat, random.Random(i))
        assert {t.zone for t in sample.tallies} == set(seen)
        assert kept(sample) == recounted(sample) == {t: n for t, n in kept(s).items() if t.zone in seen}
        choose = random.Random(i)
        for _ in range(20):
            if sample.is_terminal:
                break
            sample.play(choose.randrange(len(sample.legal_actions())))
            assert kept(sample) == recounted(sample)


def test_generated_code_reads_a_tally_inline_and_counts_what_a_recount_counts() -> None:
    """A tallied count inside generated code is a look-up written in its source (one attribute or several, a zone
    that starts empty too), and answers as a recount of the zone does after every action of random games."""
    from engine.lang.codegen import GENERATED

    game = shipped_game("iconoclasm")
    made = len(game.vocab.data[GENERATED])
    condition = game.compile_condition('any(count(c in altar where c.deity == d) > 0 or '
                                       'count(c in supply where c.deity == d and c.kind == "follower") > 11 for d in roles)')
    written = "\n".join(text for _, text in game.vocab.data[GENERATED][made:])
    assert "s.tallies.get(" in written and "tally_count" not in written
    deity = game.attributes["deity"][0]
    altar, supply = game.zone_index[("altar", None)], game.zone_index[("supply", None)]
    followers = [c for c in range(len(game.component_names)) if game.component_kind[c] == "follower"]
    seen = set()
    for seed in range(4):
        s, choose = game.new_state(players=4, seed=seed), random.Random(seed)
        while not s.is_terminal:
            expected = any(sum(deity[c] == d for c in s.zones[altar]) > 0
                           or sum(deity[c] == d and c in followers for c in s.zones[supply]) > 11 for d in s.positions)
            assert condition.test(s) == expected
            seen.add(expected)
            s.play(choose.randrange(len(s.legal_actions())))
    assert seen == {True, False}
