"""The generic blocks Iconica is built from, on a small ruleset of their own.

Meters of tiles (damage and healing with sources, tiles whose code reacts,
nullifiers, the skull), statuses with hooks and durations, functions a
ruleset defines, teams, ``first``, the draft, the action roll and loaded
dice.  Iconica's own rules are checked by its scenario files.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine
from engine.core.errors import EffectRuntimeError, IllegalActionError, RulesetError
from engine.blocks.action_roll import ActionRoll, rolled
from engine.blocks.statuses import Statuses
from engine.core.yamlsource import Mapping, load_yaml
from engine.model.state import Chance
from engine.runner.scenario import set_up

RULESET = """\
name: blocks-demo
players: [2, 4]
types:
  side: [N, E, S, W]
  source: [hit, sting, bounce, lift]
roles:
  of: side
  seating: {2: [1, 2, absent, absent], 4: [1, 2, 3, 4]}
teams: {4: [[1, 3], [2, 4]]}
components:
  unit:
    attributes: {hp: int, big: bool, track: table, moves: table}
    instances:
      - {id: a, hp: 60, big: false, track: {40: spring 10, 30: lift, 20: ward}, moves: {1: {name: Poke, do: "damage(first(foes(self)), 20)"}}}
      - {id: b, hp: 60, big: true, moves: {1: {name: Poke, do: "damage(first(foes(self)), 20)"}, 2: {name: Big Poke, heavy: true, do: "damage(first(foes(self)), 40)"}}}
      - {id: c, hp: 30, big: false, moves: {1: {name: Sting, do: "give(first(foes(self)), Sting)"}}}
zones:
  team_zone: {kind: hand, per: role}
counters:
  hp: {per: unit, start: self.hp, min: 0, max: self.hp}
functions:
  alive(x): x != none and hp(x) > 0
  foes(x):
    is: y in units where alive(y) and owner(y) != none and team(seat(owner(y))) != team(seat(owner(x)))
    text: "foe of {x}"
  strongest(role r): first(y in team_zone(r) where y.big)
meter:
  counter: hp
  tile: 10
  tiles: track
  sources: source
  unstoppable: [bounce]
  kinds:
    spring:
      on_damage: "if source == hit: damage(attacker, value, bounce)"
      on_heal: "if source == lift: damage(attacker, value, bounce)"
    lift:
      on_damage: "if source == hit: heal(self, 10, lift, by = attacker)"
    ward: {nullifies: [Sting]}
statuses:
  Sting:
    kind: major
    only: not self.big
    on:
      before: |
        roll d6:
          odd: remove(self, Sting)
          even: damage(self, 10, sting)
  Daze:
    kind: minor
    lasts: 1
    on:
      on_act: cancel()
      on_damage: remove(self, Daze)
setup: |
  move(u in units where u.id == "a", team_zone(N))
  move(u in units where u.id == "b", team_zone(E))
turn:
  - statuses: {hook: before, turn: start}
  - action_roll:
      actors: u in team_zone(current_role) where alive(u)
      actions: moves
      source: hit
      dice:
        low: {sides: 2}
        high: {sides: 2, only: heavy, bonus: "heal(self, 10)"}
  - statuses: {turn: end}
end: {when: "not any(u in units where alive(u) and owner(u) == N) or not any(u in units where alive(u) and owner(u) == E)"}
scoring: {rank: r in roles, by: ["sum(hp(u) for u in team_zone(r))"], points: key}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    path = tmp_path_factory.mktemp("blocks") / "ruleset.yaml"
    path.write_text(RULESET, encoding="utf-8")
    return engine.load(path)


def state(game: engine.Game, dice: tuple[int, ...] = (), effect: str = "pass") -> engine.State:
    """N's turn with a against E's b, set up as a scenario would: ``effect`` run first, the next die rolls loaded."""
    doc = load_yaml("position.yaml", f"ruleset: x\ndice: {list(dice)}\nposition:\n  zones:\n    team_zone(N): [a]\n"
                                     f"    team_zone(E): [b]\n  effect: '{effect}'\n")
    assert isinstance(doc, Mapping)
    return set_up(game, doc, doc["position"])


def unit(game: engine.Game, name: str) -> int:
    return game.component_ids[name]


def hp(s: engine.State, name: str) -> int:
    return s.counters[s.game.parts.get("meter").counter.index_of(unit(s.game, name))]


def set_hp(s: engine.State, name: str, value: int) -> None:
    s.counters[s.game.parts.get("meter").counter.index_of(unit(s.game, name))] = value


def run(s: engine.State, code: str) -> None:
    """Run a program on the state, as a scenario's position effect would."""
    from engine.runner.scenario import _position_effect

    _position_effect(s.game, code, None).run(s)


def test_damage_lands_on_a_spring_tile_and_bounces_back(game: engine.Game) -> None:
    s = state(game)
    set_hp(s, "a", 50)
    run(s, 'damage(first(u in units where u.id == "a"), 10, hit, by = first(u in units where u.id == "b"))')
    assert hp(s, "a") == 40 and hp(s, "b") == 50
    assert any("(bounce)" in line for line in s.log)


def test_a_lift_onto_a_spring_bounces_too_and_status_damage_neither_lifts_nor_bounces(game: engine.Game) -> None:
    s = state(game)
    b = 'first(u in units where u.id == "b")'
    run(s, f'damage(first(u in units where u.id == "a"), 30, hit, by = {b})')   # 60 -> 30 (lift) -> 40 (spring)
    assert hp(s, "a") == 40 and hp(s, "b") == 50
    run(s, 'damage(first(u in units where u.id == "a"), 10, sting)')            # 40 -> 30: no lift for a sting
    assert hp(s, "a") == 30 and hp(s, "b") == 50


def test_heal_stops_at_the_start_and_never_lifts_a_skulled_marker(game: engine.Game) -> None:
    s = state(game)
    a = 'first(u in units where u.id == "a")'
    run(s, f"heal({a}, 50, lift)")
    assert hp(s, "a") == 60
    run(s, f"give({a}, Sting, hit)\ndamage({a}, 100, sting)\nheal({a}, 20, lift)")
    assert hp(s, "a") == 0
    assert not any(s.counters[st.spec.offset + unit(game, "a")] for st in game.parts.get("statuses").statuses)
    assert any(line.endswith("a is out") for line in s.log)  # the meter names no bottom: the plain words


def test_the_ruleset_says_what_the_bottom_is_called(tmp_path: Path) -> None:
    """``bottom`` names the tile at 0 on the track, ``at_bottom`` what a component there is, in the log."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("  tile: 10\n", "  tile: 10\n  bottom: wreck\n  at_bottom: wrecked\n"), encoding="utf-8")
    worded = engine.load(path)
    s = state(worded)
    run(s, 'damage(first(u in units where u.id == "a"), 60, sting)')
    assert any(line.endswith("a is wrecked") for line in s.log)
    assert worded.parts["meter"].describe_track(s, unit(worded, "a"))[-1] == "0 wreck"


def test_the_words_for_the_bottom_are_text(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("  tile: 10\n", "  tile: 10\n  at_bottom: ''\n"), encoding="utf-8")
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: the meter's 'at_bottom' is a word or a few, like 'out', not ''"):
        engine.load(path)


def test_a_tile_above_the_carriers_most_is_refused_and_one_at_the_start_is_shown(tmp_path: Path) -> None:
    """hp 60 and {90: ..., 60: ...}: validate said ok, and explain showed neither tile (60 read only 'start')."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("track: {40: spring 10,", "track: {90: ward, 40: spring 10,"), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    [only] = info.value.diagnostics
    assert only.message == "the tile at 90 is never reached: the marker goes no higher than 60 (the most 'hp' can hold)"
    assert only.pos is not None and only.pos.line == RULESET[:RULESET.index("track: {40")].count("\n") + 1
    path.write_text(RULESET.replace("track: {40: spring 10,", "track: {60: ward, 40: spring 10,"), encoding="utf-8")
    at_start = engine.load(path)
    s = state(at_start)
    assert at_start.parts["meter"].describe_track(s, unit(at_start, "a"))[0] == "60 start ward"
    fixed = RULESET.replace("max: self.hp}", "max: 50}").replace("track: {40: spring 10,", "track: {60: ward, 40: spring 10,")
    path.write_text(fixed, encoding="utf-8")
    with pytest.raises(RulesetError, match="the tile at 60 is never reached: the marker goes no higher than 50"):
        engine.load(path)


def test_a_ward_blocks_its_status_and_ends_it_on_landing_unless_the_source_is_unstoppable(game: engine.Game) -> None:
    s = state(game)
    a = 'first(u in units where u.id == "a")'
    run(s, f"give({a}, Sting, hit)\ndamage({a}, 40, sting)")  # lands on the ward at 20: Sting ends
    assert hp(s, "a") == 20 and "Sting" not in statuses(s, "a")
    run(s, f"give({a}, Sting, hit)")  # resting on the ward: blocked
    assert "Sting" not in statuses(s, "a")
    run(s, f"give({a}, Sting, bounce)")  # an unstoppable source
    assert "Sting" in statuses(s, "a")


def statuses(s: engine.State, name: str) -> list[str]:
    from engine.blocks.statuses import statuses_of

    return statuses_of(s, unit(s.game, name))


def test_statuses_do_not_stack_and_respect_only(game: engine.Game) -> None:
    s = state(game)
    b = 'first(u in units where u.id == "b")'
    run(s, f"give({b}, Sting, hit)")
    assert statuses(s, "b") == [] and any("can't receive Sting" in line for line in s.log)
    a = 'first(u in units where u.id == "a")'
    run(s, f"give({a}, Daze, hit)\ngive({a}, Daze, hit)")
    assert statuses(s, "a") == ["Daze"] and sum("gets Daze" in line for line in s.log) == 1


def test_a_minor_status_cancels_the_action_and_lasts_one_of_its_owners_turns(game: engine.Game) -> None:
    s = state(game, dice=(1, 1), effect="give(first(u in units where u.id == \"a\"), Daze, hit)")
    s.apply("low: a 1 Poke")
    assert hp(s, "b") == 60 and "the action fails" in s.log
    assert statuses(s, "a") == []  # given before N's turn began: gone at its end


def test_a_minor_status_given_during_its_owners_turn_lasts_through_the_next(game: engine.Game) -> None:
    s = state(game, dice=(1, 1, 1, 1))
    run(s, 'give(first(u in units where u.id == "a"), Daze, hit)')  # N's turn has begun
    s.apply("low: a 1 Poke")
    assert "the action fails" in s.log and s.current_role == "E"
    assert statuses(s, "a") == ["Daze"]  # it will spoil N's next turn too


def test_the_second_die_needs_the_flag_and_runs_its_bonus(game: engine.Game) -> None:
    s = state(game, dice=(1, 2, 2, 2))
    s.apply("low: a 1 Poke")
    assert [str(a) for a in s.legal_actions()] == ["low: b 2 Big Poke", "high: b 2 Big Poke"]
    set_hp(s, "b", 30)
    s.apply("high: b 2 Big Poke")  # the bonus heals 10 first
    assert hp(s, "b") == 40 and hp(s, "a") == 20


def test_a_refused_action_names_the_legal_ones_and_changes_nothing(game: engine.Game) -> None:
    s = state(game, dice=(1, 1))
    before = s.clone()
    with pytest.raises(IllegalActionError, match="legal actions are: low: a 1 Poke"):
        s.apply("high: a 1 Poke")
    assert s == before


def test_loaded_dice_must_fit_the_die(game: engine.Game) -> None:
    s = game.new_state(players=2, seed=0)
    s.slices[Chance.block] = Chance(loaded=(5,))
    with pytest.raises(EffectRuntimeError, match="shows 5, but a d2 is rolled"):
        s.roll(2)


def test_ruleset_functions_and_first(game: engine.Game) -> None:
    s = state(game)
    assert game.compile_condition('strongest(E).id == "b" and strongest(N) == none').test(s)
    assert game.compile_condition('count(foes(first(u in units where u.id == "a"))) == 1').test(s)
    assert "foe of" in game.compile_condition("count(foes(first(units))) == 1").description


def test_a_function_can_only_call_functions_defined_before_it(tmp_path: Path) -> None:
    text = RULESET.replace("  alive(x): x != none and hp(x) > 0\n", "  alive(x): x != none and hp(x) > 0 and later(x)\n  later(x): true\n")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match="unknown function 'later' \\('later' is defined further down under 'functions:'"):
        engine.load(path)


def test_teams_alternate_in_a_draft(tmp_path: Path) -> None:
    text = """\
name: draft-demo
players: [4]
types: {side: [N, S, E, W]}
roles: {of: side, seating: {4: [1, 2, 3, 4]}}
teams: {4: [[1, 2], [3, 4]]}
components:
  hero:
    attributes: {power: int}
    instances: [{id: h, count: 9, power: 1}]
zones: {band: {kind: hand, per: role}}
turn:
  - draft: {from: supply, to: band, picks: 2, order: teams}
  - draw: {from: supply, to: band}
end: {when: "count(supply) == 0"}
scoring: {rank: r in roles, by: ["count(band(r))"], points: key}
"""
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    s = engine.load(path).new_state(players=4, seed=0, record=True)
    pickers = []
    for _ in range(8):
        pickers.append(s.current_role)
        s.apply("pick h")
    assert pickers == ["N", "E", "S", "W"] * 2  # turn order is N, S, E, W; picks alternate between the teams
    assert s.log[7:9] == ["W picks h", "N draws h"]  # then the first player's turn goes on


CHANCE = """\
name: chance-then-choice
players: [2]
components: {token: {instances: [{id: t}]}}
counters: {gold: {per: role}}
turn:
  - do:
      effect: |
        roll d6:
          odd:
            let c = choose(x in [1, 2])
            gold(current_role) += c
          even: gold(current_role) += 10
        roll d6:
          odd: gold(current_role) += 100
          even: pass
end: {when: "true"}
scoring: {rank: r in roles, by: ["gold(r)"], points: key}
"""


def test_an_effect_waiting_for_a_choice_keeps_the_dice_it_rolled(tmp_path: Path) -> None:
    """Reseeding the generator mid-choice (as a search agent's sample does) changes only the dice still to come."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(CHANCE, encoding="utf-8")
    game = engine.load(path)
    for seed in range(40):
        s = game.new_state(players=2, seed=seed)
        if s.pending is not None:  # the first die was odd: the choice is pending
            break
    straight = s.clone()
    straight.apply("choose 2")
    assert s.pending is not None and s.pending.dice[0] % 2 == 1
    for reseed in range(20):
        sample = s.clone()
        sample.rng ^= 0x9E3779B97F4A7C15 * (reseed + 1)
        sample.apply("choose 2")  # never 'no longer an option': the first die is odd again
        assert sample.counters[0] % 100 == 2
    assert straight == game.state_from_json(straight.to_json())


def test_loaded_dice_are_used_once_across_a_choice(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(CHANCE, encoding="utf-8")
    game = engine.load(path)
    doc = load_yaml("position.yaml", "ruleset: x\ndice: [1, 2]\nposition: {turn: seat1}\n")
    assert isinstance(doc, Mapping)
    s = set_up(game, doc, doc["position"])
    s.apply("choose 2")
    assert s.counters[0] == 2  # first die 1 (odd: choose), second die 2 (even: no 100)


# ---------------------------------------------------------------- statuses without hooks, defeats and their sources

A, B = 'first(u in units where u.id == "a")', 'first(u in units where u.id == "b")'


@pytest.fixture(scope="module")
def grudges(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    """The demo with three statuses that have no hooks and one that answers the blow that skulls its bearer."""
    text = RULESET.replace("statuses:\n", "statuses:\n  Mark: {kind: minor, negative: false}\n  Tag:\n  Blank: {}\n"
                                          "  Grudge:\n    on:\n      on_defeat: 'if source == hit: damage(attacker, amount, bounce)'\n")
    path = tmp_path_factory.mktemp("grudges") / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def holds(s: engine.State, condition: str) -> bool:
    from engine.runner.expectations import compile_expectation

    return compile_expectation(s.game, condition).holds(s)


def test_a_status_may_have_no_hooks_and_is_given_read_described_and_removed(grudges: engine.Game) -> None:
    s = state(grudges)
    run(s, f"give({A}, Mark, hit)\ngive({A}, Tag, hit)\ngive({A}, Blank, hit)")
    assert statuses(s, "a") == ["Mark", "Tag", "Blank"] and holds(s, f"has({A}, Mark) and not has({B}, Mark)")
    run(s, f"remove({A}, Tag)\ndispel({A})")  # Blank is negative by default, Mark is not
    assert statuses(s, "a") == ["Mark"]
    assert grudges.parts.get("statuses").by_name["Mark"].describe() == "Mark (minor, positive; lasts until removed)"


@pytest.mark.parametrize("status, message", [
    ("Boon: {kind: positive}", "kind 'positive' does not make the status positive: dispel() removes it ('kind' is only "
     "a label that explain and play show; write 'negative: false' for a status that dispel() leaves)"),
    ("Hex: {kind: debuff, negative: false}", "kind 'debuff' says negative, but 'negative: false' makes dispel() leave "
     "it ('kind' is only a label that explain and play show; leave 'negative: false' out for a status that dispel() "
     "removes)"),
])
def test_a_kind_that_says_the_opposite_of_negative_is_refused_at_the_kind(tmp_path: Path, status: str, message: str) -> None:
    """'kind: positive' was taken as any word, and dispel() removed the status: kind is a label, 'negative' decides."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("statuses:\n", f"statuses:\n  {status}\n"), encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    line = RULESET.split("\n").index("statuses:") + 2
    assert f"ruleset.yaml:{line}:" in err.value.format() and message in err.value.format(), err.value.format()


def test_hooks_that_are_not_a_mapping_are_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("statuses:\n", "statuses:\n  Odd: {on: [1, 2]}\n"), encoding="utf-8")
    with pytest.raises(RulesetError, match=r"Odd/on: \[1, 2\] is not a mapping \(like \{key: value\}\)"):
        engine.load(path)


def test_an_on_defeat_hook_and_defeated_by_know_who_dealt_the_last_blow_and_from_what(grudges: engine.Game) -> None:
    s = state(grudges)
    assert holds(s, f"defeated_by({A}) == none and defeat_source({A}) == none")
    run(s, f"give({A}, Grudge, hit)\ndamage({A}, 50, sting)\ndamage({A}, 30, hit, by = {B})")  # 60 -> 10 -> 0
    assert hp(s, "a") == 0 and hp(s, "b") == 50  # the grudge answers with the blow's amount: 10
    assert holds(s, f"defeated_by({A}) == {B} and defeat_source({A}) == hit")
    assert statuses(s, "a") == []  # the hook ran before the statuses ended
    again = grudges.state_from_json(s.to_json())
    assert holds(again, f"defeated_by({A}) == {B}")


def test_a_component_that_skulls_itself_was_defeated_by_nobody_and_its_grudge_needs_a_hit(grudges: engine.Game) -> None:
    s = state(grudges)
    run(s, f"give({A}, Grudge, hit)\ndamage({A}, 60, sting, by = {A})")
    assert hp(s, "a") == 0 and hp(s, "b") == 60
    assert holds(s, f"defeated_by({A}) == none and defeat_source({A}) == sting")


def test_defeat_order_tells_which_component_reached_the_bottom_first(grudges: engine.Game) -> None:
    """Two sides skulled in one turn: the rules name the side eliminated first the loser, so a scoring rule needs the
    order in which markers reached 0."""
    s = state(grudges)
    assert holds(s, f"defeat_order({A}) == 0 and defeat_order({B}) == 0")
    run(s, f"damage({B}, 60, hit)\ndamage({A}, 60, hit)\ndamage({A}, 10, hit)")  # a third blow at the bottom counts no more
    assert holds(s, f"defeat_order({B}) == 1 and defeat_order({A}) == 2")


def test_an_on_heal_hook_runs_when_the_bearer_is_healed_with_how_much_and_not_at_the_top(tmp_path: Path) -> None:
    """A status could answer damage but not healing: 'on_heal' was refused as a hook nothing runs (did you mean
    'on_defeat'?).  Now the engine runs it when the bearer's marker moves up, with the amount healed."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("statuses:\n", "statuses:\n  Sear:\n    on:\n      on_heal: "
                                    "'damage(self, 2 * amount, sting)'\n"), encoding="utf-8")
    seared = engine.load(path)
    s = state(seared)
    run(s, f"give({A}, Sear, hit)\nheal({A}, 20, lift)")  # at the top (60): nothing moves, nothing burns
    assert hp(s, "a") == 60
    run(s, f"damage({A}, 15, sting)\nheal({A}, 10, lift)")  # 60 -> 45 -> 55, then the sear burns 20: 35
    assert hp(s, "a") == 35
    run(s, f"remove({A}, Sear)\nheal({A}, 10, lift)")
    assert hp(s, "a") == 45


@pytest.mark.parametrize("path", sorted((Path(__file__).parent / "data" / "reprisal" / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_reprisal_scenario(path: Path) -> None:
    """Iconica extended in YAML only: a status with no hooks, an on_defeat hook, a final act that strikes back."""
    from engine.runner.scenario import run_scenario

    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


@pytest.mark.parametrize("step, instead, says", [
    ("  - statuses: {hook: before, turn: start}\n", "  - statuses: {hook: before}\n", "counts its owner's turns (turn: start)"),
    ("  - statuses: {turn: end}\n", "", "ends it when they are over (turn: end)")])
def test_a_status_that_lasts_turns_needs_steps_that_count_and_end_them(tmp_path: Path, step: str, instead: str, says: str) -> None:
    """Without a step that counts (or ends) its owner's turns, 'lasts: 1' would silently last for ever."""
    assert step in RULESET
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace(step, instead), encoding="utf-8")
    with pytest.raises(RulesetError, match=rf"ruleset.yaml:\d+:\d+: status 'Daze' lasts 1 turn, but no 'statuses' step {re.escape(says)}"):
        engine.load(path)


def _work_afresh(step: Statuses, s: engine.State) -> str | None:
    """What a statuses step has to do, read status by status and component by component."""
    book = s.game.parts["statuses"]
    mine = [cid for z, owner in enumerate(s.game.zone_owner) if owner == s.current_role for cid in s.zones[z]]
    has = [(st, cid) for st in book.statuses for cid in mine if s.counters[st.spec.offset + cid]]
    if any(step.hook in st.hooks for st, _ in has):
        return "hooks"
    if step.turn != "none" and any(st.lasts is not None for st, _ in has):
        return "turns"
    return None


@pytest.mark.parametrize("name,players", [("iconica", 2), ("iconica", 4)])
def test_a_statuses_step_finds_its_work_as_a_status_by_status_reading_does(name: str, players: int) -> None:
    """The step skips a component with no status through one slice of the counters: the same answer in every state."""
    game = engine.load(name)
    steps = [step for step in game.steps if isinstance(step, Statuses)]
    pick, seen = random.Random(5), set()
    for seed in range(12):
        s = game.new_state(players=players, seed=seed)
        while s.outcome is None:
            for step in steps:
                found = step._work(s)
                seen.add(found)
                assert found == _work_afresh(step, s)
            s.play(pick.randrange(len(s.legal_actions())))
    assert seen == {None, "hooks", "turns"}


def _options_afresh(step: ActionRoll, s: engine.State) -> list[tuple[int, int, int]]:
    """The action roll's options, read from the actions' table die by die and actor by actor."""
    dice = dict(rolled(s).dice or ())
    out = []
    for i, die in enumerate(step.dice):
        number = dice.get(die.name)
        for actor in step.actors(s):
            action = step.table.of(actor).get(number or 0)
            if action is not None and (die.only is None or die.only in action.flags):
                out.append((i, actor, number))
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_the_action_roll_offers_what_its_table_allows(players: int) -> None:
    """The numbers each die may pick for an actor are kept per actor: the options are those the table gives."""
    game = engine.load("iconica")
    step = next(step for step in game.steps if isinstance(step, ActionRoll))
    pick, asked = random.Random(3), 0
    for seed in range(8):
        s = game.new_state(players=players, seed=seed)
        while s.outcome is None:
            if s.step == step.index and rolled(s).dice:
                assert step._options(s) == _options_afresh(step, s) == [a.args for a in s.legal_actions()]
                asked += 1
            s.play(pick.randrange(len(s.legal_actions())))
    assert asked > 50


def test_an_action_whose_code_yaml_cut_at_a_comma_says_to_quote_it(tmp_path: Path) -> None:
    """'{name: Flare, do: damage(choose(foes(self)), 20)}' unquoted: YAML makes '20)' a key of its own."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: flare\nextends: iconica\ncomponents:\n  character:\n    instances+:\n"
                    "      - {id: Tamsin, faction: Independent, race: Human, archetype: Duelist, calling: Offensive,\n"
                    "         rank: Regular, health: 90, text: Fire.,\n"
                    "         actions: {1: {name: Flare, do: damage(choose(foes(self)), 20)}}}\n", encoding="utf-8")
    found = [d for d in validate_path(str(path)) if "unknown setting" in d.message]
    assert [(d.message, d.hint) for d in found] == [
        ("unknown setting '20)' in an action", "YAML ended the code at a comma inside {...}: put the code in quotes, do: \"...\"")]


@pytest.fixture(scope="module")
def ending(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    """The demo with an ``on_end`` hook on Daze, counting on its bearer how often it ended."""
    text = RULESET.replace("  hp: {per: unit, ", "  ended: {per: unit, start: 0}\n  hp: {per: unit, ")
    text = text.replace("      on_damage: remove(self, Daze)\n", "      on_damage: remove(self, Daze)\n      on_end: ended(self) += 1\n")
    assert "on_end" in text and "ended:" in text
    path = tmp_path_factory.mktemp("ending") / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def test_on_end_runs_when_a_status_ends_however_it_ends(ending: engine.Game) -> None:
    """A status could not clean up after itself (a counter it kept growing on its bearer, say): nothing ran when it ended."""
    a = 'first(u in units where u.id == "a")'
    s = state(ending, dice=(1, 1), effect=f"give({a}, Daze, hit)")
    s.apply("low: a 1 Poke")  # its time is up at the end of N's turn
    assert statuses(s, "a") == [] and holds(s, f"ended({a}) == 1")
    run(s, f"give({a}, Daze, hit)\nremove({a}, Daze)\nremove({a}, Daze)")  # removed once: the second does nothing
    assert holds(s, f"ended({a}) == 2")
    run(s, f"give({a}, Daze, hit)\ndamage({a}, 10, sting)")  # its on_damage removes it
    assert holds(s, f"ended({a}) == 3") and "Daze ends on" in " ".join(s.log)



def _turn_hooks(status_hook: str, step_hook: str) -> str:
    """The demo with Sting's hook and the first statuses step's hook renamed, and a second step running 'turn_end'."""
    text = RULESET.replace("      before: |\n", f"      {status_hook}: |\n")
    text = text.replace("{hook: before, turn: start}", f"{{hook: {step_hook}, turn: start}}")
    text = text.replace("  - statuses: {turn: end}\n", "  - statuses: {hook: turn_end, turn: end}\n")
    assert f"      {status_hook}: |" in text and f"{{hook: {step_hook}, turn: start}}" in text and "hook: turn_end" in text
    return text


@pytest.mark.parametrize("status_hook, step_hook, says", [
    ("turn_begin", "turn_start", "nothing runs the hook 'turn_begin' of status 'Sting' (did you mean 'turn_start'?"),
    ("start_turn", "turn_start", "nothing runs the hook 'start_turn' of status 'Sting' (did you mean 'turn_start'?"),
    ("turn_start", "turn_begin", "nothing runs the hook 'turn_start' of status 'Sting' (did you mean 'turn_begin'? or is the "
                                 "'statuses' step's hook misspelt? it runs 'turn_begin', which no status has)")])
def test_a_hook_said_another_way_is_told_the_hook_meant(tmp_path: Path, status_hook: str, step_hook: str, says: str) -> None:
    """'turn_begin' was told "did you mean 'turn_end'" (closer in letters) when 'turn_start' runs: the same words come first;
    and when the step's hook is the misspelt one, the message says so too."""
    engine.load(_write(tmp_path, _turn_hooks("turn_start", "turn_start")))  # as meant: it loads
    with pytest.raises(RulesetError) as caught:
        engine.load(_write(tmp_path, _turn_hooks(status_hook, step_hook)))
    assert says in str(caught.value), str(caught.value)


def _write(folder: Path, text: str) -> Path:
    path = folder / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def aging(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    """The demo with a status that keeps its age and wears off after two of its owner's turns (no 'lasts')."""
    worn = ("  Worn:\n    age: true\n    on:\n      before: |\n        if status_age(self, Worn) == 2:\n"
            "          remove(self, Worn)\n")
    text = RULESET.replace("setup: |\n", worn + "setup: |\n", 1)
    path = tmp_path_factory.mktemp("aging") / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def test_a_status_reads_how_many_of_its_owners_turns_it_has_lasted(aging: engine.Game) -> None:
    """A status could not say "after two turns of this status, ...": nothing read how long it had lasted."""
    a = 'first(u in units where u.id == "a")'
    s = state(aging, dice=(1,) * 8)
    run(s, f"give({a}, Worn, hit)")  # N's turn has begun: its first counted turn is the next
    ages = [holds(s, f"status_age({a}, Worn) == 0") and holds(s, f"status_age({a}, Daze) == 0")]
    for turn in range(2):
        s.apply("low: a 1 Poke")
        s.apply("low: b 1 Poke")  # N's turn begins: Worn's age grows by one, and at 2 its hook ends it
        ages.append(holds(s, f"status_age({a}, Worn) == {1 - turn}"))
    assert ages == [True, True, True] and statuses(s, "a") == []
    assert "Worn ends on N's a" in " ".join(s.log)
    assert "its age counted" in aging.parts["statuses"].by_name["Worn"].describe()


def test_the_age_of_no_status_is_0_not_a_crash(tmp_path: Path) -> None:
    """status_age(t, first(statuses_of(t))) of a component with no status looked up a status named none: a KeyError."""
    text = RULESET.replace("  Sting:\n    kind: major\n", "  Sting:\n    kind: major\n    age: true\n")
    text = text.replace("  Daze:\n    kind: minor\n", "  Daze:\n    kind: minor\n    age: true\n")
    assert text.count("age: true") == 2
    game = engine.load(_write(tmp_path, text))
    s = state(game)
    assert holds(s, 'status_age(first(u in units where u.id == "a"), first(statuses_of(first(u in units where u.id == "a")))) == 0')


@pytest.mark.parametrize("old, new, says", [
    ("    age: true\n", "", "status 'Worn' keeps no age: nothing counts its owner's turns"),
    ("{hook: before, turn: start}", "{hook: before}", "status 'Worn' counts its age, but no 'statuses' step counts its "
                                                      "owner's turns (turn: start)"),
    ("status_age(self, Worn)", "status_age(self, first(statuses_of(self)))", "status_age() reads a status named where it is "
                                                                              "called (status_age(t, Sting)), unless every "
                                                                              "status keeps its age: Sting keeps none")])
def test_an_age_nothing_counts_is_refused_where_it_is_read(tmp_path: Path, old: str, new: str, says: str) -> None:
    """Without 'age: true' (or 'lasts') nothing counts a status's turns: its age would read 0 for ever."""
    worn = ("  Worn:\n    age: true\n    on:\n      before: |\n        if status_age(self, Worn) == 2:\n"
            "          remove(self, Worn)\n")
    text = RULESET.replace("setup: |\n", worn + "setup: |\n", 1)
    assert old in text
    with pytest.raises(RulesetError, match=re.escape(says)):
        engine.load(_write(tmp_path, text.replace(old, new)))


def test_the_cinder_witch_example_pins_its_statuses_and_fails_without_them(tmp_path: Path) -> None:
    """docs/examples/cinder-witch (docs/characters.md): Sear's on_heal, Fuse's age and Switch's swap each decide a
    scenario; a copy whose Sear ignores healing fails the healing one."""
    import shutil

    from engine.runner.scenario import run_scenario

    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "cinder-witch"
    for path in sorted((example / "scenarios").glob("*.yaml")):
        result = run_scenario(path)
        assert result.passed, "\n".join(result.failures)
    copy = tmp_path / "cinder-witch"
    shutil.copytree(example, copy)
    ruleset = copy / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("on_heal: damage(self, 2 * amount, status)",
                                                                   "on_heal: pass"), encoding="utf-8")
    result = run_scenario(copy / "scenarios" / "healing-burns.yaml")
    assert not result.passed and "== 40" in result.failures[0], result.failures
