"""``contest_winner(a, b)`` and the ``contest:`` section: a contest between any two components, wherever they lie.

The rules are declared once (strength, modifiers counted from the zones of
``in_play``, overrides, tie-breaks, a die) and read by the function, by
``strength()`` and by any contest step.  The example docs/examples/skirmish
fights soldiers from two fronts; its scenarios run here by name (and with
every example's, in tests/test_mechanisms_table.py).  Nine Domains, which
declares its rules on its step, fights by those.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path
from typing import Iterator

import pytest

import engine
from engine.core.confine import allowing
from engine.core.errors import RulesetError
from engine.runner.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "docs" / "examples" / "skirmish"


@pytest.fixture(autouse=True)
def extending_the_example(tmp_path: Path) -> Iterator[None]:
    """Rulesets written under tmp_path may extend the example."""
    with allowing([SKIRMISH, tmp_path]):
        yield


@pytest.mark.parametrize("name", ["tie-rolled-off", "terrain-and-drummer", "pike-beats-horse"])
def test_the_skirmish_scenarios_pass(name: str) -> None:
    # a tie rolled off with loaded dice; the terrain and a drummer in hand counted, a tie won by the bonus;
    # the pike's override deciding alone
    result = run_scenario(SKIRMISH / "scenarios" / f"{name}.yaml")
    assert result.passed, "\n".join(result.failures)


def write(folder: Path, name: str, text: str) -> Path:
    (folder / name).mkdir(exist_ok=True)
    path = folder / name / "ruleset.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def scenario(folder: Path, ruleset: str, body: str) -> list[str]:
    """Run a scenario on ``ruleset`` (a built-in name, or a path from ``folder``); its failures (none: it passed)."""
    path = folder / "scenario.yaml"
    path.write_text(f"ruleset: {ruleset}\nplayers: 2\n" + textwrap.dedent(body), encoding="utf-8")
    return run_scenario(path).failures


def test_random_games_play_to_the_end_and_every_round_is_fought() -> None:
    game = engine.load(str(SKIRMISH))
    for seed in range(5):
        s = game.new_state(players=2, seed=seed, record=True)
        pick = random.Random(seed)
        while s.outcome is None:
            actions = list(s.legal_actions())
            s.apply(actions[pick.randrange(len(actions))])
        assert sum(line.startswith("contest: ") for line in s.log) == 8


def test_with_a_die_each_fighter_adds_it_and_strength_reads_it_after_the_fight(tmp_path: Path) -> None:
    # the dice of the last fight stay part of strength(): the round's margin counts them
    write(tmp_path, "dice-skirmish", f"""\
        name: dice-skirmish
        extends: {SKIRMISH / 'ruleset.yaml'}
        contest:
          strength: c.value
          ties: [reroll]
          roll: 6
        """)
    assert scenario(tmp_path, "dice-skirmish/ruleset.yaml", """\
        dice: [6, 1]
        position:
          zones:
            hand(North): [N-foot-1, N-foot-2, N-foot-3]
            hand(South): [S-foot-2, S-foot-1, S-foot-3]
            field: [plain]
        actions:
          - choose N-foot-1
          - choose S-foot-2
          - expect:
              - glory(North) == 2
              - strength(first(c in fallen where c.id == "N-foot-1")) == 7
        expect_log:
          - "contest: N-foot-1 (North) against S-foot-2 (South): strength 7 (1 and a d6 of 6) to 3 (2 and a d6 of 1); N-foot-1 is stronger and wins"
        """) == []


def test_the_dice_of_the_last_fight_are_saved_with_the_position(tmp_path: Path) -> None:
    path = write(tmp_path, "dice-skirmish", f"""\
        name: dice-skirmish
        extends: {SKIRMISH / 'ruleset.yaml'}
        contest: {{roll: 6}}
        """)
    game = engine.load(str(path))
    s = game.new_state(players=2, seed=3)
    for _ in range(2):  # both sides play: the soldiers fight, each with a d6, then fall
        s.apply(list(s.legal_actions())[0])
    fallen = s.zones[game.zone_index[("fallen", None)]]
    assert sorted(c for c, _ in s.slices["contest"].rolled) == sorted(fallen)  # the two soldiers' dice
    loaded = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert loaded == s and loaded.slices["contest"] == s.slices["contest"]


def test_the_nine_domains_rules_declared_on_its_step_fight_cards_anywhere(tmp_path: Path) -> None:
    # cards still in the hands fight by the step's rules: the 0 beats the 5 whatever the strength; a 3 and
    # a 4 compare values; two 2s are identical cards: nobody wins (the log, which every seat reads, names
    # neither card nor strength: the hands are hidden from the others)
    assert scenario(tmp_path, "nine-domains", """\
        position:
          zones:
            hand(East): ["0", "3", "2"]
            hand(West): ["5", "4", "2"]
          effect: |
            let a = contest_winner(first(c in hand(East) where c.id == "0"), first(c in hand(West) where c.id == "5"))
            let b = contest_winner(first(c in hand(East) where c.id == "3"), first(c in hand(West) where c.id == "4"))
            let n = contest_winner(first(c in hand(East) where c.id == "2"), first(c in hand(West) where c.id == "2"))
            move(c in hand(East) where c == a or c == n, discard)
            move(c in hand(West) where c == b, discard)
        expect:
          - count(c in discard) == 2
          - count(c in hand(East) where c.id == "0") == 0 and count(c in hand(West) where c.id == "4") == 0
        expect_log:
          - "contest: a component in hand of East against a component in hand of West: a component in hand of East wins"
          - "contest: a component in hand of East against a component in hand of West: a component in hand of West wins"
          - "contest: a component in hand of East against a component in hand of West: nobody wins"
        """) == []


def problems(path: Path) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        engine.load(str(path))
    return [(f"{d.pos.line}:{d.pos.col}: " if d.pos else "") + d.message + (f" ({d.hint})" if d.hint else "")
            for d in caught.value.diagnostics]


@pytest.mark.parametrize("turn, expected", [
    ("let w = contest_winner(first(front(North)))",
     "6:17: contest_winner() takes 2 arguments, not 1 (usage: contest_winner(COMPONENT, COMPONENT) -> component)"),
    ("let w = contest_winner(1, first(front(North)))",
     "6:32: the first component of contest_winner() must be a component, but '1' is an int"),
])
def test_a_bad_call_is_refused_where_it_is_written(tmp_path: Path, turn: str, expected: str) -> None:
    path = write(tmp_path, "bad", f"""\
        name: bad
        extends: {SKIRMISH / 'ruleset.yaml'}
        turn:
          - do:
              effect: |
                {turn}
        """)
    found = problems(path)
    assert expected in found, found


def test_a_contest_is_refused_in_a_condition_it_would_roll_dice_in(tmp_path: Path) -> None:
    path = write(tmp_path, "bad", f"""\
        name: bad
        extends: {SKIRMISH / 'ruleset.yaml'}
        end:
          when: contest_winner(first(front(North)), first(front(South))) == none
        """)
    found = problems(path)
    assert any(p.startswith("4:9: contest_winner() can't be used in a condition or score: a contest is an event of the game")
               and "strength() and modifier_of()" in p for p in found), found


def test_the_section_s_mistakes_are_reported_where_they_are_written(tmp_path: Path) -> None:
    path = write(tmp_path, "bad", f"""\
        name: bad
        extends: {SKIRMISH / 'ruleset.yaml'}
        contest:
          strength: c.value
          modifier: modifier
          in_play: [feld]
          ties: [bonus, reroll, bonus]
        """)
    found = problems(path)
    assert any(p.startswith("6:13: unknown zone 'feld' (did you mean 'field'?)") for p in found), found
    assert any(p.startswith("7:9: 'ties' must list tie-breaks, each at most once") for p in found), found
    assert len(found) == 2, found  # the default tie-breaks it falls back on raise nothing more
    assert "15:40: 'modifier' needs 'in_play': the zones whose components' modifiers count (say in_play: [board], " \
        "or [played] for every role's played pile)" in problems(write(tmp_path, "bad2", BIDS.format(
            contest="{strength: c.value, modifier: rule, ties: [reroll]}", step="")))


BIDS = """\
name: bids
players: [2]
types:
  side: [North, South]
components:
  card:
    attributes: {{value: int, rule: text}}
    instances:
      - {{id: "1", value: 1, count: 2}}
      - {{id: "2", value: 2, count: 2}}
  prize:
    attributes: {{points: int}}
    instances:
      - {{id: cup, points: 3}}
contest: {contest}
roles:
  of: side
  seating: {{2: [1, 2]}}
slots:
  names: [bid]
  zones: [sealed, played]
zones:
  hand: {{kind: hand, per: role, hidden: others}}
  sealed: {{kind: pile, per: role, hidden: others}}
  played: {{kind: pile, per: role}}
  stakes: {{kind: pile}}
  won: {{kind: pile, per: role}}
  lost: {{kind: pile}}
setup: |
  for r in roles:
    for v in [1, 2]:
      move(c in supply where c.kind == "card" and c.value == v, hand(r), 1)
  move(p in prizes, stakes)
turn:
  - commit: {{from: hand, to: sealed}}
  - reveal: {{from: sealed, to: played}}
  - contest: {{in: played, prizes: [stakes], to: won, void: lost{step}}}
end:
  when: count(p in stakes) == 0
scoring:
  rank: r in roles
  by: [sum(p.points for p in won(r))]
  points: key
"""
"""A sealed bid for one prize: the contest's rules in a section, the step naming only where it fights."""


def test_a_step_does_not_declare_again_what_the_section_declares(tmp_path: Path) -> None:
    path = write(tmp_path, "both", BIDS.format(contest="{strength: c.value, ties: [reroll]}", step=", strength: c.value * 2"))
    assert problems(path) == ["37:76: 'strength' is declared by the 'contest:' section: a contest step reads it from there "
                              "(move it to the section, or remove it from the step)"]


def test_a_step_fights_by_the_section_s_rules(tmp_path: Path) -> None:
    # two 2s bid: a tie, rolled off by the section's reroll (loaded 1 to 4): South takes the cup
    write(tmp_path, "bids", BIDS.format(contest="{strength: c.value, ties: [reroll]}", step=""))
    assert scenario(tmp_path, "bids/ruleset.yaml", """\
        dice: [1, 4]
        actions:
          - commit 2 to bid
          - commit 2 to bid
        expect:
          - count(p in won(South)) == 1
        expect_log:
          - "bid: 2 (North) against 2 (South): strength 2 to 2; a tie, rerolled d6: 1 to 4: 2 wins"
        """) == []


BOARD = """\
name: banners
players: [2]
types:
  side: [Red, Blue]
roles:
  of: side
  seating: {2: [1, 2]}
board: {width: 3, height: 1}
components:
  piece:
    attributes: {side: side, value: int, modifier: text}
    instances:
      - {id: red, side: Red, value: 2}
      - {id: blue, side: Blue, value: 3}
      - {id: banner, side: Red, value: 0, modifier: "if target.side == self.side and target != self then 2 else 0"}
zones:
  out: {kind: pile}
contest:
  strength: c.value
  modifier: modifier
  in_play: [board]
  ties: [reroll]
turn:
  - do:
      effect: |
        let w = contest_winner(at(0, 0), at(1, 0))
        move(x in board where x != w and (x == at(0, 0) or x == at(1, 0)), out)
end:
  when: count(x in out) > 0
scoring:
  rank: r in roles
  by: [count(x in board where x.side == r)]
  points: key
"""
"""Two pieces side by side on a board fight; a banner on the board lifts its side's pieces."""


@pytest.mark.parametrize("banner, loser", [("", "red"), ('\n            "2,0": banner', "blue")])
def test_pieces_on_the_board_fight_and_a_banner_on_the_board_counts(tmp_path: Path, banner: str, loser: str) -> None:
    # red (2) against blue (3): blue wins; with Red's banner on the board, red counts 2+2=4 and wins
    write(tmp_path, "banners", BOARD)
    strength = "strength 2+2=4 to 3; red" if banner else "strength 2 to 3; blue"
    assert scenario(tmp_path, "banners/ruleset.yaml", f"""\
        position:
          board:
            "0,0": red
            "1,0": blue{banner}
        expect:
          - count(x in out where x.id == "{loser}") == 1
        expect_log:
          - "contest: red against blue: {strength} is stronger and wins"
        """) == []


def test_without_ties_the_missing_symbol_says_which_tie_breaks_apply(tmp_path: Path) -> None:
    path = write(tmp_path, "no-ties", BOARD.replace("  ties: [reroll]\n", ""))
    assert any("the 'symbol' tie-break needs 'symbol: ATTRIBUTE' (without 'ties', every tie-break applies in turn" in p
               for p in problems(path))


STRENGTH_OF_NONE = "91:13: the strength of {name} is none: 'c.value' gives nothing for it, and a contest needs a number"
"""The error for a fighter without a value: at the skirmish's ``strength: c.value``, naming the component."""


def test_a_strength_of_none_read_by_strength_is_an_error_at_the_strength_setting(tmp_path: Path) -> None:
    # a terrain has no value: its strength is none, an error where 'strength' is written, never a TypeError
    failures = scenario(tmp_path, str(SKIRMISH / "ruleset.yaml"), """\
        position:
          zones:
            field: [plain]
        expect:
          - strength(first(field)) == 0
        """)
    assert len(failures) == 1 and STRENGTH_OF_NONE.format(name="plain") in failures[0], failures


def test_a_fighter_whose_strength_is_none_is_an_error_when_setting_up_makes_it_fight(tmp_path: Path) -> None:
    # setup itself makes a soldier fight a terrain: validate reports it, at the strength, for every player count
    path = write(tmp_path, "fight-terrain", f"""\
        name: fight-terrain
        extends: {SKIRMISH / 'ruleset.yaml'}
        setup: |
          move(x in soldiers where x.id == "N-foot-1", front(North))
          move(t in terrains where t.id == "hill", field)
          let w = contest_winner(first(front(North)), first(field))
        """)
    found = problems(path)
    # the mistake shows in the base's strength, after this file's changes: the message says both
    assert len(found) == 1 and found[0].startswith("2:10: setting up 2 players fails: the strength of hill is none: "
                                                   "'c.value' gives nothing for it"), found
    assert "skirmish/ruleset.yaml:91:13, in the 'contest' of" in found[0], found


def test_a_strength_written_for_every_component_lets_a_valueless_one_fight(tmp_path: Path) -> None:
    # the way out the message gives: a strength of 0 for what has no value, so the soldier beats the terrain
    write(tmp_path, "fight-terrain", f"""\
        name: fight-terrain
        extends: {SKIRMISH / 'ruleset.yaml'}
        contest:
          strength: if c.value == none then 0 else c.value
          modifier: modifier
          in_play: [field, hand]
          beats: beats
          ties: [bonus, reroll]
        """)
    assert scenario(tmp_path, "fight-terrain/ruleset.yaml", """\
        position:
          zones:
            front(North): [N-foot-1]
            field: [plain]
          effect: |
            let w = contest_winner(first(front(North)), first(field))
        expect:
          - strength(first(field)) == 0
        expect_log:
          - "contest: N-foot-1 (North) against plain: strength 1 to 0; N-foot-1 is stronger and wins"
        """) == []
