"""docs/examples/cribbage-show scored beside a scorer written here from the rules alone (fifteens, pairs, the longest
runs, flush, nobs, his heels), over random deals and random discards: the example's ``combinations`` must find every
set the rules count."""

from __future__ import annotations

import random
from itertools import combinations

from tests.oracle import EXAMPLES
from tests.conftest import shipped_game

RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


def _card(name: str) -> tuple[int, str]:
    return RANKS.get(name[0]) or int(name[0]), name[1]


def _show(hand: list[str], starter: str, crib: bool) -> int:
    cards = [_card(c) for c in hand]
    cut = _card(starter)
    five = cards + [cut]
    points = 2 * sum(1 for k in range(2, 6) for s in combinations(five, k) if sum(min(r, 10) for r, _ in s) == 15)
    points += 2 * sum(1 for a, b in combinations(five, 2) if a[0] == b[0])
    for k in (5, 4, 3):
        found = sum(1 for s in combinations(five, k)
                    if len({r for r, _ in s}) == k and max(r for r, _ in s) - min(r for r, _ in s) == k - 1)
        if found:
            points += k * found
            break
    if len({suit for _, suit in cards}) == 1:
        points += 5 if cut[1] == cards[0][1] else 0 if crib else 4
    points += sum(1 for r, suit in cards if r == 11 and suit == cut[1])
    return points


def test_every_hand_scores_as_the_rules_count_it() -> None:
    game = shipped_game(str(EXAMPLES / "cribbage-show"))
    seen_heels = 0
    for seed in range(60):
        s = game.new_state(players=2, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        zones = {name: [game.component_names[c] for c in s.zones[z]] for z, name in enumerate(game.zone_names)}
        starter = zones["starter"][0]
        heels = 2 if starter[0] == "J" else 0
        seen_heels += heels > 0
        pone = _show(zones["hand of pone"], starter, False)
        dealer = _show(zones["hand of dealer"], starter, False) + _show(zones["crib"], starter, True) + heels
        assert tuple(s.outcome.scores) == (pone, dealer), (seed, zones)
