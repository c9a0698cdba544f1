"""A duel's two fighters measured together (``ContestRules.measure_both``) give what measuring them one by one gives."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from engine.blocks.contest_rules import ContestRules, Rolls
from engine.runner.simulate import derive_seed


def _rules(game: engine.Game) -> ContestRules:
    rules = game.parts["contest"]
    assert isinstance(rules, ContestRules)
    return rules


def _facing_pairs(game: engine.Game, s: engine.State) -> list[tuple[int, int]]:
    """Every two cards at the same place of East's and West's played rows."""
    east, west = (s.zones[game.zone_index[("played", role)]] for role in ("East", "West"))
    return list(zip(east, west))


def _each_facing_pair(game: engine.Game, seed: int, games: int, choose: random.Random) -> Iterator[tuple[engine.State, int, int]]:
    """Every facing pair at every decision of ``games`` random games seeded from ``seed`` (played on by ``choose``)."""
    for i in range(games):
        s = game.new_state(players=2, seed=derive_seed(seed, i))
        while s.outcome is None:
            for a, b in _facing_pairs(game, s):
                yield s, a, b
            s.play(choose.randrange(len(s.legal_actions())))


@pytest.mark.parametrize("variant", [None, "dice", "mirror", "older-help"])
def test_measuring_both_fighters_together_equals_measuring_each(variant: str | None) -> None:
    # over random games, at every decision: each facing pair, measured together and one by one (with dice rolled
    # for them, as a fight rolls them); the mirror's modifier reads strength() one level deep
    game = engine.load("nine-domains", variant=variant) if variant else engine.load("nine-domains")
    rules, choose, compared = _rules(game), random.Random(7), 0
    for s, a, b in _each_facing_pair(game, 3, 40, choose):
        if rules.sides:
            s.slices[Rolls.block] = Rolls(((a, choose.randint(1, 6)), (b, choose.randint(1, 6))))
        together = rules.measure_both(s, a, b, {})
        alone = rules.measure(s, a, {}), rules.measure(s, b, {})
        assert together == alone, (game.piece_names[a], game.piece_names[b])
        compared += any(x[1] for x in together)  # pairs where a modifier counted
        s.slices.pop(Rolls.block, None)
    assert compared > 50  # the modifiers were in play, not only base strengths


def test_a_fighter_measured_already_is_read_back_not_measured_again() -> None:
    game = engine.load("nine-domains")
    rules, s = _rules(game), game.new_state(players=2, seed=1)
    a, b = s.zones[game.zone_index[("hand", "East")]][:2]
    known = {a: (99, 0, 0)}
    assert rules.measure_both(s, a, b, known) == ((99, 0, 0), rules.measure(s, b, {}))


@pytest.mark.parametrize("variant", [None, "dice", "mirror", "older-help"])
def test_a_quiet_duel_finds_the_winner_and_margin_a_fight_finds(variant: str | None) -> None:
    # each facing pair of random games fights twice on copies of the state: the quiet duel of a contest nothing logs,
    # and the fight with the margin the contest step reads after it; same winner, margin, dice rolled, state
    game = engine.load("nine-domains", variant=variant) if variant else engine.load("nine-domains")
    rules, choose, decided = _rules(game), random.Random(11), 0
    for s, a, b in _each_facing_pair(game, 5, 25, choose):
        quiet, loud = s.clone(), s.clone()
        for t in (quiet, loud):
            t.slices[Rolls.block] = Rolls(((a, 2), (b, 2))) if rules.sides else Rolls()
        winner, margin = rules.quiet_duel(quiet, a, b, {})
        known: dict[int, tuple[int, int, int]] = {}
        fought = rules.fight(loud, a, b, None, known).winner
        strengths = {c: rules.measure(loud, c, known)[0] for c in (a, b)}
        expected = strengths[fought] - strengths[b if fought == a else a] if fought is not None else 0
        assert (winner, margin) == (fought, expected)
        assert quiet == loud
        decided += winner is not None
    assert decided > 100


LIFTING_PRIZES = """\
name: lifting-prizes
extends: nine-domains
components:
  domain:
    attributes:
      modifier: text
    instances+:
      - replace: volcano
        add:
          - {id: volcano, vp: 4, element: red, half: false, modifier: "if owner(target) == owner(self) then 3 else 0"}
contest:
  strength: c.value
  modifier: modifier
  beats: beats
  loses_to: loses_to
  symbol: sign
  ties: tie_breaks
  in_play: [played, won]
turn:
  - commit: {from: hand, to: sealed}
  - reveal: {from: sealed, to: played}
  - contest: {in: played, prizes: [pile1, pile2, pile3], to: won, void: discard, on_win: on_win}
"""


def test_a_prize_carrying_a_modifier_counts_in_the_next_fights_with_or_without_a_log(tmp_path: Path) -> None:
    # the volcano, once won, lifts its owner's cards in the fights after it in the same contest: a game nothing logs
    # (quiet duels, the modifiers in play found once per contest) ends as the same game logged (every fight explained)
    (tmp_path / "lifting-prizes").mkdir()
    (tmp_path / "lifting-prizes" / "ruleset.yaml").write_text(LIFTING_PRIZES)
    game = engine.load(str(tmp_path / "lifting-prizes" / "ruleset.yaml"))
    lifted = 0
    for i in range(80):
        games = []
        for record in (False, True):
            s, choose = game.new_state(players=2, seed=derive_seed(9, i), record=record), random.Random(i)
            while s.outcome is None:
                s.play(choose.randrange(len(s.legal_actions())))
            games.append(s)
        quiet, logged = games
        assert [list(z) for z in quiet.zones] == [list(z) for z in logged.zones]
        lifted += any("+3" in line for line in logged.log or [])
    assert lifted > 5
