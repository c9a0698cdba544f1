"""Two card games OpenSpiel lacks, Trumps (docs/examples/trumps) and Crazy Eights (docs/examples/crazy-eights), played
at random beside a few lines of their rules written here in Python: every card offered or played is one the rules
allow, every trick goes to the card the rules say, its winner leads the next, and the games end and are won as the
rules say.  A card's id is its suit's initial and its rank (``B5``).  Their scenarios and random games are tested
with the other genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.oracle import EXAMPLES
from tests.conftest import shipped_game

PLAY = re.compile(r"^hand of seat(\d): (\w+) -> (?:trick|the top of discard)$")


def _hands(s: Any) -> dict[int, list[str]]:
    """Each seat's hand, as that seat sees it."""
    return {seat: s.observation(seat)["zones"][f"hand of seat{seat}"] for seat in range(1, s.players + 1)}


def _trick_winner(trick: list[tuple[int, str]], trumps: str) -> int:
    """The seat whose card takes the trick: the highest trump, else the highest card of the suit led."""
    led = trick[0][1][0]
    suit = trumps if any(card[0] == trumps for _seat, card in trick) else led
    return max((int(card[1:]), seat) for seat, card in trick if card[0] == suit)[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trumps_follows_its_rules(players: int) -> None:
    """Each card played (asked, or the only one allowed and played at once) follows the suit led when its player
    can; each trick goes to the highest trump, else the highest card of the suit led, whose player leads the next
    trick; when the hands are empty, the most tricks win."""
    game = shipped_game(str(EXAMPLES / "trumps"))
    for seed in range(30):
        rng = random.Random(seed)
        s = game.new_state(players=players, seed=seed, record=True)
        trumps = s.observation(1)["zones"]["turned"][0][0]
        hands, trick, won, leader, seen = _hands(s), [], dict.fromkeys(range(1, players + 1), 0), 1, 0
        while True:
            for line in (s.log or [])[seen:]:
                play = PLAY.match(line)
                if not play:
                    continue
                seat, card = int(play[1]), play[2]
                assert seat == (leader - 1 + len(trick)) % players + 1, (seed, line)
                must = trick[0][1][0] if trick and any(c[0] == trick[0][1][0] for c in hands[seat]) else None
                assert card in hands[seat] and (must is None or card[0] == must), (seed, line, hands[seat])
                hands[seat].remove(card)
                trick.append((seat, card))
                if len(trick) == players:
                    leader = _trick_winner(trick, trumps)
                    won[leader] += 1
                    trick = []
            seen = len(s.log or [])
            if s.is_terminal:
                break
            assert s.current_player == (leader - 1 + len(trick)) % players + 1, seed
            seat = s.current_player
            led = trick[0][1][0] if trick else None
            allowed = [c for c in hands[seat] if led is None or c[0] == led] if any(c[0] == led for c in hands[seat]) \
                else hands[seat]
            assert sorted(s.legal_actions().texts()) == sorted(f"choose {c}" for c in allowed), seed
            s.apply(rng.choice(s.legal_actions()))
        assert not any(hands.values()) and not trick, seed
        assert s.observation(1)["counters"]["tricks"] == {f"seat{k}": won.get(k, 0) for k in range(1, 5)}, seed
        best = max(won.values())
        assert list(s.outcome.winners) == [k for k in range(1, players + 1) if won[k] == best], seed


def _playable(card: str, top: str, called: list[str]) -> bool:
    """An eight, or a card of the suit to follow (the suit an eight named, else the top card's), or of its rank."""
    suit = called[0][0] if top[1:] == "8" else top[0]
    return card[1:] == "8" or card[0] == suit or card[1:] == top[1:]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_crazy_eights_follows_its_rules(players: int) -> None:
    """At every decision the cards offered are exactly those matching the top card's suit (or the suit an eight
    named) or rank, or eights, and there is one (a player who could not play has drawn until they could); an eight
    is followed by naming any of the four suits; the game ends when a hand is empty, or when the stock is empty
    and nobody can play, and the fewest cards win."""
    game = shipped_game(str(EXAMPLES / "crazy-eights"))
    ends = set()
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_state(players=players, seed=seed)
        while not s.is_terminal:
            seen = s.observation(s.current_player)
            zones, hand = seen["zones"], _hands(s)[s.current_player]
            if seen["choice"]["prompt"] == "name the suit to follow":
                assert sorted(seen["choice"]["options"]) == ["Acorns-called", "Bells-called", "Hearts-called",
                                                             "Leaves-called"], seed
            else:
                allowed = [c for c in hand if _playable(c, zones["discard"][0], zones["called"])]
                assert allowed and sorted(seen["choice"]["options"]) == sorted(allowed), (seed, hand, zones)
            s.apply(rng.choice(s.legal_actions()))
        zones, hands = s.observation(1)["zones"], _hands(s)
        emptied = [k for k, h in hands.items() if not h]
        blocked = not zones["stock"] and not any(
            _playable(c, zones["discard"][0], zones["called"]) for h in hands.values() for c in h)
        assert emptied or blocked, seed
        fewest = min(len(h) for h in hands.values())
        assert list(s.outcome.winners) == [k for k, h in hands.items() if len(h) == fewest], seed
        ends.add("emptied" if emptied else "blocked")
    assert ends == {"emptied", "blocked"}  # both ways of ending occur
