"""Keyed counters: one value per owner and key (``key:``), read and changed as ``gems(r, Red)`` or ``height(7)``.

A track per player per resource (gems of each colour), a marker per player per column: before ``key:``, a ruleset
kept one component per step of every column and player.  The keys come from a declared list — a type's values,
a kind's components, whole numbers ``FROM..TO`` — so observations keep a fixed size.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core.errors import RulesetError
from engine.model.savefile import SaveError, counter_values
from engine.rl.encoding import Encoder

RULESET = """\
name: keyed-demo
players: [2]
types:
  side: [A, B]
  colour: [Red, Blue, Green]
roles: {of: side, seating: {2: [1, 2]}}
components:
  column:
    attributes: {top: int}
    instances:
      - {id: low, top: 2}
      - {id: high, top: 4}
counters:
  gems: {per: role, key: colour, min: 0, max: 5, doc: the gems of each colour}
  marker: {per: role, key: column, max: key.top}
  height: {key: 2..4, start: key}
setup: |
  SETUP
turn:
  - do:
      effect: |
        let c = choose(x in colours, text = "take a gem")
        gems(current_role, c) += 1
        marker(current_role, first(x in columns where x.top == 4)) += 3
        height(3) -= 1
end:
  when: END
scoring:
  rank: r in roles
  by: ['sum(gems(r, c) for c in colours)']
  points: key
"""


def build(tmp_path: Path, setup: str = "pass", end: str = "turn >= 3", text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("SETUP", setup.replace("\n", "\n  ")).replace("END", end))
    return engine.load(path)


def played(game: engine.Game, *answers: str) -> engine.State:
    s = game.new_state(players=2, seed=1, record=True)
    for answer in answers:
        s.apply(answer)
    return s


def test_values_are_kept_per_owner_and_key_and_start_from_the_key(tmp_path: Path) -> None:
    s = played(build(tmp_path), "choose Red", "choose Blue", "choose Red")
    assert s.observation(2)["counters"] == {
        "gems": {"A": {"Red": 2, "Blue": 0, "Green": 0}, "B": {"Red": 0, "Blue": 1, "Green": 0}},
        "marker": {"A": {"low": 0, "high": 4}, "B": {"low": 0, "high": 3}},  # max: key.top keeps A's at 4
        "height": {"2": 2, "3": 0, "4": 4}}


def test_changes_are_logged_with_their_key(tmp_path: Path) -> None:
    log = played(build(tmp_path), "choose Green").log or []
    assert "gems of A (Green): 0 -> 1" in log and "height (3): 3 -> 2" in log and "marker of A (high): 0 -> 3" in log


def test_code_reads_compares_and_iterates_the_keys(tmp_path: Path) -> None:
    game = build(tmp_path, setup="gems(A, Blue) = 4\nfor c in colours:\n  gems(B, c) += 1", end="gems(A, Blue) > gems(B, Blue)")
    s = game.new_state(players=2, seed=1)
    assert s.is_terminal is False and s.counters[:6] == [0, 4, 0, 1, 1, 1]
    s.apply("choose Red")
    assert s.is_terminal


def test_saves_keep_them_and_refuse_a_value_out_of_bounds(tmp_path: Path) -> None:
    game = build(tmp_path)
    s = played(game, "choose Red")
    data = s.to_json()
    assert game.state_from_json(data) == s
    data["counters"][0] = 9  # gems of A (Red): max 5
    with pytest.raises(SaveError, match=r"counter gems\(A, Red\)"):
        game.state_from_json(data)


@pytest.mark.parametrize("code, message", [
    ("gems(A) += 1", "gems() takes 2 arguments, not 1"),
    ("gems(A, 3) += 1", "the key of gems() must be a colour"),
    ("height(Red) += 1", "the key of height() must be an int"),
    ("height = 1", "'height' is kept per key: write height(KEY) = ..."),
    ("gems = 1", "'gems' is kept per role and key: write gems(ROLE, KEY) = ..."),
])
def test_misuse_is_a_positioned_error(tmp_path: Path, code: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, setup=code)
    assert message in str(err.value) and "ruleset.yaml:" in str(err.value)


def test_a_number_beyond_the_keys_stops_the_game_saying_the_keys(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"height has no key 7: its keys are 2\.\.4"):
        build(tmp_path, setup="height(7) += 1")


@pytest.mark.parametrize("key, message", [
    ("colours", "a counter's key is a type, a component kind or numbers FROM..TO (like 2..12), not 'colours' "
                "(did you mean 'colour'?)"),
    ("5..1", "the keys 5..1 must run up, at most 1000 numbers (like 2..12)"),
    ("1..5000", "the keys 1..5000 must run up"),
])
def test_keys_must_be_a_declared_list(tmp_path: Path, key: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        build(tmp_path, text=RULESET.replace("key: colour,", f"key: {key},"))
    assert message in str(err.value)


def test_the_rl_vector_holds_every_value_at_a_fixed_place(tmp_path: Path) -> None:
    game = build(tmp_path)
    encoder, s = Encoder(game, 2), played(game, "choose Blue")
    assert "counters: gems of A Red, gems of A Blue" in "\n".join(encoder.describe())
    at = next(seg.offset for seg in encoder.segments if seg.name == "counters")
    assert list(encoder.encode(s.observation(1))[at:at + 13]) == [0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 2, 2, 4]
    assert len(encoder.encode(s.observation(2))) == len(encoder)


def test_a_scenario_position_writes_owner_and_key(tmp_path: Path) -> None:
    from engine.runner.scenario import run_scenario

    build(tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nruleset: ruleset.yaml\nplayers: 2\nposition:\n  counters:\n    gems(A, Blue): 4\n"
                        "    height(2): 0\nactions: [choose Blue]\nexpect:\n  - gems(A, Blue) == 5 and height(2) == 0\n")
    assert run_scenario(scenario).passed
    scenario.write_text(scenario.read_text().replace("gems(A, Blue): 4", "gems(A, Purple): 4"))
    result = run_scenario(scenario)
    assert not result.passed and "write the counter as gems(ROLE, KEY), like gems(A, Red): 'gems' is kept per role " \
        "and key (colour (Red, Blue, Green)), and gems(A, Purple) names none of its values" in "\n".join(result.failures)


def test_play_and_explain_show_them(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli import zone_listing
    from cli.main import main

    s = played(build(tmp_path), "choose Blue")
    assert [line.plain for line in zone_listing.counters(s, seat=1)] == [
        "gems of A: Blue=1", "gems of B: none", "marker of A: high=3", "marker of B: none",
        "        2  3  4", "height  2  2  4"]  # keyed by numbers: a grid, the keys across
    out = CliRunner().invoke(main, ["explain", str(tmp_path / "ruleset.yaml")]).output
    assert "gems: one per role and colour — the gems of each colour" in out and "height: one for each of 2..4" in out


def test_a_key_lying_hidden_is_told_as_an_owner_lying_there_would_be(tmp_path: Path) -> None:
    """A counter keyed by a kind of cards, changed for the card left in a player's hidden hand: the log, which every
    seat reads, said 'seen of seat1 (Guard-3): 0 -> 1', and the other seat's observation held the value under
    Guard-3's name, telling it the card in that hand (a counter per card was told as 'a component in hand of ...')."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "glance" / "ruleset.yaml").read_text()
    played = "        move(x in hand(me) where x == card, discard, 1)\n"
    assert played in text
    text = text.replace("counters:\n", "counters:\n  seen: {per: role, key: card}\n", 1)
    (tmp_path / "ruleset.yaml").write_text(text.replace(played, played + "        seen(me, first(hand(me))) += 1\n"))
    s = engine.load(tmp_path).new_state(players=2, seed=3, record=True)
    s.apply(s.legal_actions()[0])
    held = s.game.component_names[s.zones[s.game.zone_index[("hand", "seat1")]][0]]
    assert "seen of seat1 (a component in hand of seat1) changes" in s.log
    assert not any(held in line for line in s.log if line.startswith("seen"))
    assert s.is_terminal  # the game over, its observations hide nothing: the counters as they were while it went on
    assert all(held not in keyed for keyed in counter_values(s, 2)["seen"].values())
    assert counter_values(s, 1)["seen"]["seat1"][held] == 1  # its holder sees it
