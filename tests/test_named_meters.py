"""Named meters (`meters:`): many per ruleset, carried by roles or components, with tiles as data and thresholds.

The rules are checked by the scenario files of docs/examples/standoff (a
role-carried and a component-carried meter, thresholds crossed once per
crossing, tiles that answer the source of a change) and of
tests/data/watched-meters (thresholds crossed by the steps that write a
counter themselves: `advance`, a cast's payment); this file adds what a
scenario can't say: refusals at file:line:col, saves, assignments, explain,
and that every write of a counter passes where thresholds are run.
"""

from __future__ import annotations

import ast as pyast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core.errors import EffectRuntimeError, RulesetError
from engine.runner.scenario import run_scenario

ROOT = Path(__file__).resolve().parent.parent
STANDOFF = ROOT / "docs" / "examples" / "standoff"
WATCHED = ROOT / "tests" / "data" / "watched-meters"

RULESET = """\
name: meters-demo
players: [2]
types:
  side: [North, South]
  cause: [push, lift]
roles:
  of: side
  seating: {2: [1, 2]}
components:
  token:
    attributes: {side: side}
    instances:
      - {id: n, side: North}
      - {id: s, side: South}
counters:
  gold: {per: role, start: 1}
meters:
  morale:
    per: role
    start: 5
    max: 8
    sources: cause
    thresholds:
      - {below: 3, do: "gold(self) += 10"}
      - {above: 6, do: "gold(self) += 100"}
  wear:
    per: token
    start: 0
    max: 4
    thresholds:
      - {at: 4, do: "morale(self.side) -= 1"}
setup: pass
turn:
  - do:
      effect: |
        let n = choose(x in [1, 3])
        morale(current_role) -= n
end:
  when: turn > 6
scoring: {rank: r in roles, by: [morale(r)], points: key}
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(path)


def refused(tmp_path: Path, old: str, new: str) -> str:
    """The message of loading RULESET with ``old`` replaced by ``new`` (which must make it invalid)."""
    assert old in RULESET
    with pytest.raises(RulesetError) as err:
        load(tmp_path, RULESET.replace(old, new))
    return str(err.value)


def run(s: engine.State, code: str) -> None:
    """Run a program on the state, as a scenario's position effect would."""
    from engine.runner.scenario import _position_effect

    _position_effect(s.game, code, None).run(s)


@pytest.mark.parametrize("path", sorted((STANDOFF / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_standoff_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


@pytest.mark.parametrize("path", sorted((WATCHED / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_a_step_moving_a_meter_crosses_its_thresholds(path: Path) -> None:
    """`advance` and a cast's payment write counters themselves: the thresholds run all the same, made by the mover."""
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


def test_only_counters_with_thresholds_are_watched(tmp_path: Path) -> None:
    """Whether a change runs thresholds is decided when the ruleset is compiled: the others pay nothing more."""
    game = load(tmp_path, RULESET.replace('    thresholds:\n      - {at: 4, do: "morale(self.side) -= 1"}\n', ""))
    assert game.counters["wear"].watch is None and game.counters["gold"].watch is None
    assert game.counters["morale"].watch is not None
    spells = engine.load("spell-cycles")
    assert all(counter.watch is None for counter in spells.counters.values())


# Where the engine writes the state's counters without State.set_counter, and why no threshold is missed there.
DIRECT_WRITES = {
    ("engine/model/position_edits.py", "set_counter"): "the one place every other change goes through: it tells the counter's watcher",
    ("engine/blocks/meters.py", "_step"): "the meter's own moves (damage, heal, gain, lose): _react runs the thresholds after the tile",
    ("engine/blocks/statuses.py", "give"): "a status's own mark, a counter no meter can be",
    ("engine/blocks/statuses.py", "remove"): "a status's own mark",
    ("engine/blocks/statuses.py", "_run"): "a status's own age, counted at the turn's fixed point",
    ("engine/runner/scenario.py", "_set_counter"): "a scenario's starting position, which crosses nothing",
    ("engine/runner/scenario.py", "_set_keyed"): "a scenario's starting position of a counter kept per key, which no meter is",
    ("engine/core/information.py", "_deal_counters"): "a search's sample dealing unseen components' marks again: no change",
    ("engine/core/facedown.py", "_deal_counters"): "a search's sample dealing face-down pieces' marks again: no change",
}


def _direct_counter_writes() -> set[tuple[str, str]]:
    """Every (file, function) of engine/ that assigns to an item of a state's ``counters`` (``s.counters[i] = ...``)."""
    found = set()
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        for func in pyast.walk(tree):
            if not isinstance(func, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
                continue
            for node in pyast.walk(func):
                targets = node.targets if isinstance(node, pyast.Assign) else [node.target] if isinstance(node, pyast.AugAssign) else []
                for target in targets:
                    item = target.value if isinstance(target, pyast.Subscript) else None
                    game = isinstance(item, pyast.Attribute) and pyast.unparse(item.value) in ("g", "game", "b.game", "self.game")
                    if isinstance(item, pyast.Attribute) and item.attr == "counters" and not game:  # not the game's declarations
                        found.add((path.relative_to(ROOT).as_posix(), func.name))
    return found


def test_every_counter_write_goes_where_thresholds_run() -> None:
    """A new block writing ``s.counters[i]`` itself would bypass the thresholds: it must call State.set_counter."""
    assert _direct_counter_writes() == set(DIRECT_WRITES)


def banners_with(tmp_path: Path, counter: str, threshold: str) -> engine.Game:
    """banner-clash extended with a counter from 0 and one threshold (YAML list item) on its meter, loaded."""
    item = "\n".join("    " + line for line in threshold.splitlines())
    (tmp_path / "ruleset.yaml").write_text(f"name: watched-banners\nextends: banner-clash\ncounters:\n  {counter}: {{start: 0}}\n"
                                           f"meter:\n  thresholds:\n{item}\n", encoding="utf-8")
    return engine.load(tmp_path)


def test_a_step_reaches_the_meter_sections_thresholds_as_no_component(tmp_path: Path) -> None:
    """The ``meter`` section's thresholds read ``by`` as a component: a step's change (by the current role) comes from none."""
    game = banners_with(tmp_path, "unclaimed", '- {below: 3, do: "if by == none: unclaimed += 1"}')
    s = game.new_state(players=2, seed=1, record=True)
    might, blue = game.counters["might"], game.component_ids["Blue-standard"]
    i = might.index_of(blue)
    assert i is not None
    s.set_counter(might, blue, i, 1, by=s.current_role)
    assert s.counters[game.counters["unclaimed"].offset] == 1
    assert "the might of Blue-standard falls below 3" in s.log
    run(s, "might(first(s in standards where s.banner == Red)) -= 3")  # an assignment, by no component: 5 -> 2
    assert s.counters[game.counters["unclaimed"].offset] == 2


def test_an_assignment_crosses_thresholds_once_per_crossing(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=1, record=True)
    s.apply("choose 3")  # North: 5 -> 2, below 3
    assert s.counters[game.counters["gold"].index_of("North")] == 11
    s.apply("choose 1")
    s.apply("choose 1")  # North: 2 -> 1, still below 3: nothing more
    assert s.counters[game.counters["gold"].index_of("North")] == 11
    assert "the morale of North falls below 3" in s.log
    run(s, "morale(North) += 5")  # 1 -> 6: crosses no mark upward past 6
    run(s, "morale(North) += 1")  # 6 -> 7: above 6
    run(s, "morale(North) -= 6")  # 7 -> 1: below 3 again
    assert s.counters[game.counters["gold"].index_of("North")] == 121


def test_a_threshold_changing_another_meter_is_its_cause(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=1, record=True)
    run(s, 'gain(wear(first(t in tokens where t.id == "s")), 9, by = North)')
    assert s.counters[game.counters["wear"].index_of(game.component_ids["s"])] == 4  # kept within its max
    assert s.counters[game.counters["morale"].index_of("South")] == 4
    assert "s gains 4 wear from North: 0 -> 4" in s.log
    assert "the wear of s reaches 4" in s.log


def test_meter_values_survive_a_save(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=4)
    s.apply("choose 3")  # North 5 -> 2: below 3, 10 gold
    s.apply("choose 1")  # South 5 -> 4
    again = game.state_from_json(s.to_json())
    assert again == s
    assert again.counters == s.counters
    for state in (s, again):
        state.apply("choose 1")
        state.apply("choose 3")  # South 4 -> 1 crosses below 3, in the loaded game as in the first
    assert again == s
    assert again.counters[game.counters["gold"].index_of("South")] == 11


@pytest.mark.parametrize(("old", "new", "message"), [
    ("morale(current_role) -= n", "gain(moral(current_role), n)",
     "ruleset.yaml:37:14: the first argument of gain() must be a meter and its carrier, like morale(x), not "
     "'the moral of current_role' (did you mean 'morale'?)"),
    ("morale(current_role) -= n", "gain(gold(current_role), n)",
     "ruleset.yaml:37:14: the first argument of gain() must be a meter and its carrier, like morale(x), not 'the gold of current_role'"),
    ("morale(current_role) -= n", "lose(wear(current_role), n)",
     "ruleset.yaml:37:19: the owner of wear() must be a token, but 'the current role' is a side"),
    ("morale(current_role) -= n", "lose(morale(current_role), n, pusj)", "ruleset.yaml:37:39: unknown name 'pusj' (did you mean 'push'?)"),
    ("    per: token\n", "    per: tokn\n",
     "ruleset.yaml:27:10: a meter is carried by 'role' or a component kind, not 'tokn' (did you mean 'token'?)"),
    ("  wear:\n", "  gold:\n", "ruleset.yaml:26:3: meter 'gold' has the name of a counter; a meter is a counter of its own, so give it another name"),
    ("sources: cause", "sources: causes", "ruleset.yaml:22:14: unknown type 'causes' (did you mean 'cause'?)"),
    ("{below: 3, do:", "{below: 3, at: 2, do:",
     "ruleset.yaml:24:9: a threshold of meter 'morale' says one of below: N, above: N or at: N, not below and at"),
    ('{at: 4, do: "morale(self.side) -= 1"}', "{at: 4}", "ruleset.yaml:31:9: meters/wear/thresholds/0: 'do' is a required property (do: the program run when a change "
     "crosses the mark)"),
    ('{above: 6, do: "gold(self) += 100"}', '{above: 6, do: "gold(self) += nope"}', "ruleset.yaml:25:39: unknown name 'nope'"),
    ("    sources: cause\n", "    sources: cause\n    tiles: mood\n",
     "ruleset.yaml:23:12: the special tiles of meter 'morale', carried by roles, are one mapping for all, like {3: rally 1}"),
    ("    sources: cause\n", "    sources: cause\n    tiles: {4: dip}\n",
     "ruleset.yaml:23:16: unknown tile 'dip' (this meter has no tile kinds: declare them under 'kinds')"),
    ("    sources: cause\n", "    sources: cause\n    kinds: {dip: {nullifies: [x]}}\n",
     "ruleset.yaml:23:19: unknown key 'nullifies' in meters/morale/kinds/dip (known keys: text, on_damage, on_heal)"),
])
def test_bad_meters_are_refused_where_they_are_written(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert f"{tmp_path}/{message}" in refused(tmp_path, old, new).splitlines()


def test_gain_needs_the_meters_section(tmp_path: Path) -> None:
    meters = RULESET[RULESET.index("meters:\n"):RULESET.index("setup:")]
    text = RULESET.replace(meters, "").replace("morale(current_role) -= n", "gain(gold(current_role), n)").replace("morale(r)", "gold(r)")
    with pytest.raises(RulesetError, match=r"ruleset.yaml:22:9: unknown function 'gain' \(gain\(\) comes with the meters block: "
                                           r"it needs a 'meters:' section in the ruleset\)"):
        load(tmp_path, text)


def test_explain_describes_each_meter() -> None:
    from cli.explain import explain, explain_component

    text = "\n".join(explain(engine.load(STANDOFF)))
    assert "\nMeters\n  nerve: one per role, starting at 6, within 0..6 — the side's nerve\n" in text
    assert "    special tiles: second_wind 1 at 4\n" in text
    assert "    below 3: the side is shaken - each of its standing guards loses 1 stamina\n" in text
    assert "  stamina: one per guard, starting at 3, within 0..3" in text
    assert "\nCounters\n" not in text  # the meters are its only counters, listed under Meters
    card = explain_component(engine.load(STANDOFF), "South-veteran")
    assert "stamina meter: 3 start · 2 brace 1 · 1 · 0 bottom" in card


def test_the_meter_that_damage_moves_takes_thresholds_too(tmp_path: Path) -> None:
    game = banners_with(tmp_path, "alarms", """\
- below: 3
  do: |
    if source == battle and by.banner == Red:
      alarms += 1""")
    s = game.new_state(players=2, seed=1, record=True)
    blue, red = "first(s in standards where s.banner == Blue)", "first(s in standards where s.banner == Red)"
    run(s, f"damage({blue}, 2, battle, by = {red})")  # 5 -> 3: not below 3
    assert s.counters[game.counters["alarms"].offset] == 0
    run(s, f"damage({blue}, 2, battle, by = {red})")  # 3 -> 1
    run(s, f"damage({blue}, 1, battle, by = {red})")  # 1 -> 0: still below, nothing more
    assert s.counters[game.counters["alarms"].offset] == 1
    assert "the might of Blue-standard falls below 3" in s.log


def test_thresholds_that_undo_each_other_are_stopped_and_the_move_refused(tmp_path: Path) -> None:
    game = load(tmp_path, RULESET.replace('{below: 3, do: "gold(self) += 10"}', '{below: 3, do: "morale(self) += 5"}')
                                 .replace('{above: 6, do: "gold(self) += 100"}', '{above: 6, do: "morale(self) -= 5"}'))
    s = game.new_state(players=2, seed=1)
    before = s.clone()
    with pytest.raises(EffectRuntimeError) as err:
        s.apply("choose 3")
    assert str(err.value).startswith(f"{tmp_path}/ruleset.yaml:25:25: tiles, thresholds and statuses keep damaging and healing "
                                     "each other (more than 20 deep): the morale threshold below 3, the morale threshold above 6")
    assert s.counters == before.counters and s.current_player == before.current_player


CROSSINGS = """\
name: crossings
players: [2]
types:
  side: [North, South]
roles:
  of: side
  seating: {2: [1, 2]}
components:
  stop:
    attributes: {cap: int, begin: int}
    instances: [{id: a, cap: 10, begin: 5}, {id: b, cap: 100, begin: 50}]
zones:
  line: {kind: pile}
counters:
  fell: {start: 0}
  rose: {start: 0}
  met: {start: 0}
  stepped: {start: 0}
meters:
  level:
    per: stop
    start: self.begin
    max: self.cap
    thresholds:
      - {below: 3, do: "fell += 1"}
      - {above: 7, do: "rose += 1"}
      - {at: 5, do: "met += 1"}
      - {at: 0, do: "if by != none: stepped += 1"}
setup: move(p in stops, line)
turn:
  - advance: {along: line, markers: level}
end: {when: turn > 100}
scoring: {rank: r in roles, by: [level(first(line))], points: key}
"""


@pytest.fixture(scope="module")
def crossings(tmp_path_factory: pytest.TempPathFactory) -> engine.Game:
    folder = tmp_path_factory.mktemp("crossings")
    (folder / "ruleset.yaml").write_text(CROSSINGS, encoding="utf-8")
    return engine.load(folder)


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(["gain", "lose", "set", "advance a", "advance b"]), st.integers(0, 12)), max_size=12))
def test_each_threshold_runs_once_for_every_crossing_of_its_mark(crossings: engine.Game, ops: list[tuple[str, int]]) -> None:
    """Whatever moves the value (gain, lose, assignment, the advance step), a threshold runs once per crossing.

    Counted against a model on stop ``a`` (``b`` stays far above every mark); ``stepped`` counts the crossings
    of 0 made by a step, the only changes made ``by`` someone here.
    """
    s = crossings.new_state(players=2, seed=0)
    value, fell, rose, met, stepped = 5, 0, 0, 0, 0
    for op, n in ops:
        if op == "advance a" and value == 0:
            continue  # no marker on a to move
        if op.startswith("advance"):
            s.apply(f"advance from {op[-1]}")
        else:
            run(s, {"gain": f"gain(level(first(line)), {n})", "lose": f"lose(level(first(line)), {n})",
                    "set": f"level(first(line)) = {n}"}[op])
        new = value - 1 if op == "advance a" else value if op == "advance b" else \
            max(0, min(10, value + n if op == "gain" else value - n if op == "lose" else n))
        fell += value >= 3 > new
        rose += value <= 7 < new
        met += value != 5 and min(value, new) <= 5 <= max(value, new)
        stepped += op == "advance a" and new == 0
        value = new
    counters = s.game.counters
    assert s.counters[counters["level"].index_of(crossings.component_ids["a"])] == value
    assert [s.counters[counters[name].offset] for name in ("fell", "rose", "met", "stepped")] == [fell, rose, met, stepped]


def test_a_named_meters_tile_above_its_max_is_refused(tmp_path: Path) -> None:
    """nerve's max is 6: a tile at 8 was accepted, and never reached."""
    path = tmp_path / "ruleset.yaml"
    text = (STANDOFF / "ruleset.yaml").read_text(encoding="utf-8")
    assert "tiles: {4: second_wind 1}" in text
    path.write_text(text.replace("tiles: {4: second_wind 1}", "tiles: {8: second_wind 1, 4: second_wind 1}"), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    [only] = info.value.diagnostics
    assert only.message == "the tile at 8 is never reached: the marker goes no higher than 6 (the most 'nerve' can hold)"


@pytest.mark.parametrize(("tiles", "said"), [
    ('{"²": banner 1}', ":18:13: a special tile sits at a positive multiple of 1, not at '²'"),
    ('{7: "banner ' + "9" * 5000 + '"}', ":18:16: unknown tile 'banner " + "9" * 53 + "... (5,007 characters)'"),
], ids=["superscript", "long"])
def test_a_tile_written_with_a_digit_that_is_no_number_is_refused_where_it_is_written(
        tmp_path: Path, tiles: str, said: str) -> None:
    """'²' counts as a digit to str.isdigit() but int() reads no number in it, and int() refuses more than 4,300
    digits: each crashed the load with a ValueError; now it is refused at its line and column."""
    from engine.runner.validate import validate_path

    page = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    start = page.index("# example: do\nname: morale-duel")
    text = page[start:page.index("```", start)].replace("tiles: {7: banner 1}", f"tiles: {tiles}")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    found = [d.headline() for d in validate_path(str(path))]
    assert len(found) == 1 and found[0].startswith(f"{path}{said}"), found


def test_an_action_numbered_with_a_digit_that_is_no_number_is_refused_where_it_is_written(tmp_path: Path) -> None:
    """An action roll's table numbered '²' crashed the load (int() reads no number in it); now it is refused."""
    from engine.runner.validate import validate_path

    text = (ROOT / "docs" / "examples" / "arena" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "          5: {name: Rest" in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("          5: {name: Rest", '          "²": {name: Rest'), encoding="utf-8")
    found = [d.headline() for d in validate_path(str(path))]
    assert found == [f"{path}:33:11: an action's number is 1, 2, ..., not '²'"], found
