"""Leduc poker (docs/examples/leduc), written from the docs alone, played beside OpenSpiel's ``leduc_poker`` (its
default options: two players, antes of one, raises of two then four, at most two a round).  Our deal drives both:
OpenSpiel's chance actions are read from our state, each private card when the game starts and the public card when
OpenSpiel asks for it (after the first round).  OpenSpiel's card ``c`` is rank ``c // 2`` (Jack, Queen, King) of suit
``c % 2``: our card ids, ``Jack1`` to ``King2``, name the rank, then the suit.  Its scenarios and random games are
tested with the other genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

from click.testing import CliRunner

from cli.main import main
from tests.oracle import EXAMPLES, needs_oracle, pyspiel
from tests.conftest import shipped_game

SEATS = ("First", "Second")
ACTIONS = {"choose fold": "Fold", "choose call": "Call", "choose raise": "Raise"}


def _hand(s: Any, seat: int) -> str:
    """The id of the card in the hand of ``seat``, as that seat sees it."""
    (card,) = s.observation(seat)["zones"][f"hand of {SEATS[seat - 1]}"]
    return card


def _number(card: str) -> int:
    """OpenSpiel's number of our card ``card`` (ids are Jack1 .. King2: the rank's name, then the suit)."""
    return 2 * "JQK".index(card[0]) + int(card[-1]) - 1


def _chance(s: Any, o: Any) -> None:
    """Give OpenSpiel, at a chance node, the card our state dealt: a private card each, or the public card."""
    while o.is_chance_node():
        dealt = len(o.history())
        if dealt < 2:
            card = _hand(s, dealt + 1)
        else:
            (card,) = s.observation(1)["zones"]["public"]
        o.apply_action(_number(card))


def _play(game: Any, theirs: Any, seed: int, check: Any = None) -> tuple[Any, Any]:
    """One random game of ours beside OpenSpiel's ``theirs`` from our deal; ``check(s, o)`` is called at every
    decision."""
    rng = random.Random(seed)
    s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
    _chance(s, o)
    while not o.is_terminal():
        assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
        ours = {ACTIONS[str(a)]: a for a in s.legal_actions()}
        their = {o.action_to_string(a): a for a in o.legal_actions()}
        assert sorted(ours) == sorted(their), (seed, str(o))
        if check:
            check(s, o)
        move = rng.choice(sorted(ours))
        s.apply(ours[move])
        o.apply_action(their[move])
        _chance(s, o)
    assert s.is_terminal and list(s.outcome.scores) == [int(r) for r in o.returns()], (seed, str(o))
    return s, o


@needs_oracle
def test_leduc_plays_as_openspiels() -> None:
    """Random games beside OpenSpiel's leduc_poker from the same deal: the same player to act and the same moves
    offered at every decision (fold only facing a bet, no third raise in a round), the same public card, and the same
    chips won and lost at the end (a fold, a pair with the public card, the higher card, a split pot).  500 games here
    (LEDUC_GAMES=N for more: 20,000 agreed)."""
    game, theirs, ends = shipped_game(str(EXAMPLES / "leduc")), pyspiel.load_game("leduc_poker"), set()
    for seed in range(int(os.environ.get("LEDUC_GAMES", "500"))):
        s, o = _play(game, theirs, seed)
        ends.add("fold" if any(s.observation(1)["counters"]["folded"].values()) else
                 "split" if o.returns()[0] == 0 else "showdown")
    assert ends == {"fold", "split", "showdown"}


@needs_oracle
def test_no_seat_learns_the_others_card_before_the_showdown() -> None:
    """At every decision of random games, a seat's observation is a function of OpenSpiel's information state for it
    (two positions OpenSpiel's seat cannot tell apart look the same in ours: nothing is shown that the seat may not
    know), it holds its own card and never the other's, and the game's log names the other's card only once the hands
    are shown."""
    seen: dict[tuple[int, str], str] = {}

    def check(s: Any, o: Any) -> None:
        for seat in (1, 2):
            mine = s.observation(seat)
            text = json.dumps(mine, sort_keys=True)
            info = o.information_state_string(seat - 1)
            assert seen.setdefault((seat, info), text) == text, info
            other = _hand(s, 3 - seat)
            assert f"[Private: {_number(_hand(s, seat))}]" in info and other not in json.dumps(mine)

    game, theirs = shipped_game(str(EXAMPLES / "leduc")), pyspiel.load_game("leduc_poker")
    for seed in range(100):
        _play(game, theirs, seed, check)
    for seed in range(100):
        s = game.new_state(players=2, seed=seed, record=True)
        cards = [_hand(s, 1), _hand(s, 2)]
        rng = random.Random(seed)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        log = s.log or []
        shown = next((i for i, line in enumerate(log) if " -> shown of " in line), len(log))
        assert not any(card in line for line in log[:shown] for card in cards), log


def test_rulecraft_play_hides_the_others_card_until_the_game_is_over() -> None:
    """A human at seat 1 against a random bot: while the game goes on the screen shows the human's own card and
    `hand of Second: 1 hidden`, never the bot's card; the final position opens every zone."""
    state = shipped_game(str(EXAMPLES / "leduc")).new_state(players=2, seed=3)
    mine, theirs = _hand(state, 1), _hand(state, 2)
    result = CliRunner().invoke(main, ["play", str(EXAMPLES / "leduc"), "--seed", "3", "--seat", "2=random"],
                                input="2\n" * 10)
    during, final = result.output.split("the final position")
    assert result.exit_code == 0 and f"hand of First (yours): {mine}" in during
    assert "hand of Second: 1 hidden" in during and theirs not in during and theirs in final
