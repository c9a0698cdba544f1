"""The JSON Schemas in schemas/: valid, complete for designers, and what every shipped file follows."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import engine
from engine.compiling.schema import SCHEMAS, _described_by, schema_errors
from engine.core.errors import RulesetError, SourcePos
from engine.core.paths import builtin_names, find_ruleset, rulesets_dir, schemas_dir
from engine.core.yamlsource import load_yaml, plain
from engine.runner.scenario import load_scenario
from engine.runner.validate import validate_path

KINDS = sorted(SCHEMAS)
SCENARIOS = sorted(rulesets_dir().glob("*/scenarios/**/*.yaml"))
RULESET_FILES = sorted(rulesets_dir().glob("*/ruleset.yaml"))


def schema(kind: str) -> dict[str, Any]:
    return json.loads((schemas_dir() / SCHEMAS[kind]).read_text(encoding="utf-8"))


def nodes(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema (JSON pointer, schema) in a schema document."""
    if isinstance(node, dict):
        yield pointer, node
        for key, value in node.items():
            if key in ("properties", "patternProperties", "$defs"):
                for name, sub in value.items():
                    yield from nodes(sub, f"{pointer}/{key}/{_escape(name)}")
            elif key in ("examples", "enum", "const", "default", "required"):
                continue
            elif isinstance(value, dict):
                yield from nodes(value, f"{pointer}/{key}")
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    yield from nodes(item, f"{pointer}/{key}/{i}")


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def errors(text: str, kind: str = "ruleset", file: str = "r.yaml") -> list[str]:
    return [f"{d.pos.line}:{d.pos.col} {d.message}" + (f" ({d.hint})" if d.hint else "") for d in schema_errors(load_yaml(file, text), kind)]


MINIMAL = """\
name: tiny
players: [2]
types:
  colour: [Red, Blue]
components:
  disc:
    attributes: {colour: colour}
    instances: [{id: r1, colour: Red}, {id: b1, colour: Blue}]
board: {kind: square-grid, max_width: 3, max_height: 3}
turn:
  - place: {from: supply, to: board, face: as-is}
end:
  when: count(c in board) == 2
scoring:
  rank: c in board
  by: [1]
  points: [1, 0]
  to: 1
"""


# --- the schemas themselves -------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_a_valid_2020_12_schema(kind: str) -> None:
    doc = schema(kind)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(doc)


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_has_a_description(kind: str) -> None:
    doc = schema(kind)
    assert doc.get("description")
    missing = [
        f"{pointer}/{key}/{name}"
        for pointer, node in nodes(doc)
        for key in ("properties", "patternProperties")
        for name, sub in (node.get(key) or {}).items()
        if not sub.get("description")
    ]
    missing += [f"{p}/$defs/{name}" for p, node in nodes(doc) for name, sub in (node.get("$defs") or {}).items() if not sub.get("description")]
    assert missing == []


@pytest.mark.parametrize("kind", KINDS)
def test_closed_objects_say_so(kind: str) -> None:
    """Every object with named properties says what else it allows (so typos are caught)."""
    loose = {"/$defs/variant", "/$defs/instance"}  # any ruleset change; a component's attribute values
    open_ = [p for p, node in nodes(schema(kind)) if "properties" in node and "additionalProperties" not in node and p not in loose]
    assert open_ == []
    for p in loose & {p for p, _ in nodes(schema(kind))}:
        assert dict(nodes(schema(kind)))[p]["additionalProperties"] is True


@pytest.mark.parametrize("kind", KINDS)
def test_examples_follow_their_own_schema(kind: str) -> None:
    doc = schema(kind)
    registry = Registry().with_resource(doc["$id"], Resource.from_contents(doc))
    checked = 0
    for pointer, node in nodes(doc):
        for example in node.get("examples", []):
            validator = Draft202012Validator({"$ref": f"{doc['$id']}#{pointer}"}, registry=registry)
            problems = [e.message for e in validator.iter_errors(example)]
            assert problems == [], f"{pointer}: example {example!r}: {problems}"
            checked += 1
    assert checked >= 10


def test_adding_a_section_is_adding_one_property() -> None:
    doc = schema("ruleset")
    assert doc["additionalProperties"] is False
    sections = ("board", "roles", "setup", "end", "scoring", "goals")
    assert all(doc["properties"][s]["$ref"] == f"#/$defs/{s}" for s in sections)


# --- every shipped file follows them ------------------------------------------------------------


@pytest.mark.parametrize("name", builtin_names())
def test_shipped_ruleset_validates(name: str) -> None:
    path = find_ruleset(name)
    assert validate_path(str(path.parent)) == []  # the ruleset and each of its variants (schema too)
    engine.load(name)


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.parent.name)
def test_shipped_ruleset_file_as_an_editor_sees_it(path: Path) -> None:
    """The file as written (before extends/include/variants) passes too: no red squiggles."""
    assert schema_errors(load_yaml(path), "ruleset") == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_shipped_scenario_validates(path: Path, compiled_once: None) -> None:
    assert schema_errors(load_yaml(path), "scenario") == []
    load_scenario(path)


# --- positioned errors --------------------------------------------------------------------------


def test_misspelled_top_level_key_is_positioned_with_did_you_mean() -> None:
    text = MINIMAL.replace("players: [2]", "palyers: [2]")
    found = schema_errors(load_yaml("r.yaml", text), "ruleset")
    assert found[0].pos == SourcePos("r.yaml", 2, 1)
    assert found[0].message == "unknown key 'palyers' in the top level"
    assert found[0].hint == "did you mean 'players'?"
    assert str(found[0].pos) == "r.yaml:2:1"  # the file:line:col rulecraft prints
    assert len(found) == 1  # not also "'players' is a required property": the did-you-mean says it


def test_a_key_written_for_the_one_a_section_lacks_is_one_message_naming_it() -> None:
    """``end: {if: ...}`` gave two messages for one slip: "end: 'when' is a required property" and "unknown key
    'if' in end"; now one, at 'if', saying to write 'when:' in its place."""
    assert errors(MINIMAL.replace("  when: count(c in board) == 2", "  if: count(c in board) == 2")) == [
        "13:3 unknown key 'if' in end (end needs 'when' (the condition that ends the game): write 'when:' in place of "
        "'if:'; known keys: when, max_turns, stalled, no_move)"]
    two_unknown = errors(MINIMAL.replace("  when: count(c in board) == 2", "  if: count(c in board) == 2\n  otherwise: 1"))
    assert two_unknown == ["13:3 end: 'when' is a required property (when: the condition that ends the game)",
                           "13:3 unknown key 'if' in end (known keys: when, max_turns, stalled, no_move)"]  # which is meant?


def test_each_required_key_missing_is_told_with_its_own_words() -> None:
    """A mapping lacking two required keys got the first one's words as the hint of both: a zone's ``key: {}`` told
    "'to' is a required property (from: the first number)"."""
    found = errors(MINIMAL.replace("turn:\n", "zones:\n  column: {key: {}}\nturn:\n", 1))
    assert [e for e in found if "required" in e] == [
        "11:17 zones/column/key: 'from' is a required property (from: the first number)",
        "11:17 zones/column/key: 'to' is a required property (to: the last number)"]


def test_a_word_of_another_kind_and_numbers_without_commas_are_told_in_yaml_words() -> None:
    """``hidden: true`` was told "True is not one of ['none', 'others', 'order', 'all']" (Python's words), and
    ``points: [1 0]`` "'1 0' is not a whole number (0: a whole number)"."""
    with_zone = MINIMAL.replace("turn:", "zones:\n  hand: {kind: hand, per: role, hidden: true}\nturn:")
    assert errors(with_zone)[0].startswith("11:41 zones/hand/hidden: true is not one of none, others, order, all, "
                                           "owner (for true write one of others, order, all, owner; hidden: what players cannot "
                                           "see: `none`, `others`")
    assert errors(with_zone.replace("hidden: true", "hidden: false"))[0].startswith(
        "11:41 zones/hand/hidden: false is not one of none, others, order, all, owner (for false write none; "
        "hidden: ")
    assert errors(MINIMAL.replace("points: [1, 0]", "points: [1 0]")) == [
        "17:12 scoring/points/0: '1 0' is not a whole number (YAML reads '1 0' as one item: separate a list's items "
        "with commas, like [1, 0])"]


def test_a_range_of_player_counts_written_as_a_text_is_told_as_a_list() -> None:
    """``players: 2-4`` was told it is not a list, with the schema's words on what players is; ``[2..4]`` that '2..4'
    is not a whole number. Both are told the list to write."""
    assert errors(MINIMAL.replace("players: [2]", "players: 2-4")) == [
        "2:10 players: '2-4' is not a list (like [a, b]) (a range is written as its every number: [2, 3, 4])"]
    assert errors(MINIMAL.replace("players: [2]", "players: [2..4]")) == [
        "2:11 players/0: '2..4' is not a whole number (a range is written as its every number: [2, 3, 4])"]
    assert errors(MINIMAL.replace("players: [2]", "players: 4-2")) == [
        "2:10 players: '4-2' is not a list (like [a, b]) (a range is written as its every number: [2, 3, 4])"]


def test_a_range_of_thousands_of_digits_is_an_error_not_a_crash() -> None:
    """``players: 111...1-2`` (5,000 digits) crashed validate: the hint read the number with int(), which Python
    refuses past 4,300 digits."""
    found = errors(MINIMAL.replace("players: [2]", "players: " + "1" * 5000 + "-2"))
    assert len(found) == 1 and found[0].startswith("2:10 players: '111") and "is not a list" in found[0]


def test_goals_written_all_of_are_told_there_is_any_of_and_how_to_say_all() -> None:
    """``goals: {all_of: ...}`` was told "did you mean 'any_of'?", which is another rule: the players would win with
    any one of the conditions a cooperative game wanted all of."""
    text = MINIMAL.replace("players: [2]", "players: [1]").split("scoring:")[0]
    assert errors(text + "goals:\n  all_of:\n    full: {text: a full board, when: count(c in board) == 2}\n") == [
        "15:3 unknown key 'all_of' in goals (there is only 'any_of' (any of its conditions holding is enough); for all "
        "of them, write one condition joined with 'and' under any_of)"]


def test_examples_in_hints_are_written_as_yaml_writes_them() -> None:
    """``roles:`` with a ``seating:`` that is no mapping was shown the example {'2': [1, 2, 1, 2], '3': [1, 2, 3,
    'absent']}, with Python's quotes (and player counts as texts); a list example was ['count(c in board where c.hue
    == h)']."""
    assert errors(MINIMAL.replace("turn:", "roles: {of: colour, seating: 3}\nturn:")) == [
        "10:30 roles/seating: 3 is not a mapping (like {key: value}) (seating: for each player count, which seat plays "
        "each role (in the type's order); `absent` for a role nobody plays, like {2: [1, 2, 1, 2], 3: [1, 2, 3, absent]})"]
    by = {"description": "The ranking keys.", "examples": [["count(c in board where c.hue == h)", "yes"]]}
    assert _described_by("by", by) == "by: the ranking keys, like [count(c in board where c.hue == h), 'yes']"


def test_misspelled_nested_key_is_positioned_at_the_key() -> None:
    text = MINIMAL.replace("max_width: 3", "max_widht: 3")
    assert errors(text) == ["9:28 unknown key 'max_widht' in board (did you mean 'max_width'?)"]


def test_misspelled_step_setting() -> None:
    text = MINIMAL.replace("face: as-is", "fase: as-is")
    assert errors(text) == ["11:38 unknown key 'fase' in turn/0/place (did you mean 'face'?)"]


def test_a_text_cut_at_a_comma_in_braces_says_to_quote_it(tmp_path: Path) -> None:
    """``{doc: rolled this turn, lost on a 1}``: YAML makes 'lost on a 1' a key without a value; the message used to
    list the known keys only.  A bare unknown word gets the known keys as before."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(MINIMAL + "counters:\n  pot: {min: 0, doc: rolled this turn, lost on a 1}\n"
                    "  gold: {min: 0, hidden}\n")
    found = sorted((d.pos.line, d.pos.col, d.message, d.hint) for d in schema_errors(load_yaml(path), "ruleset"))
    assert found == [
        (20, 40, "unknown key 'lost on a 1' in counters/pot",
         "YAML ended the value before it at a comma inside {...}: put that value in quotes"),
        (21, 18, "unknown key 'hidden' in counters/gold", "known keys: per, key, start, min, max, doc, shown")]


def test_one_word_cut_from_a_text_at_a_comma_in_braces_says_to_quote_it(tmp_path: Path) -> None:
    """``{doc: the card picked this round, revealed, shown: false}``: the one word after the comma became a key, and
    was told the known keys only, while the same slip with two words was told to quote the text."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(MINIMAL + "counters:\n  pot: {doc: rolled this turn, lost, min: 0}\n  gold: {min: 0, hidden}\n")
    found = sorted((d.pos.line, d.pos.col, d.message, d.hint) for d in schema_errors(load_yaml(path), "ruleset"))
    assert found == [
        (20, 32, "unknown key 'lost' in counters/pot",
         "YAML ended the value before it at a comma inside {...}: put that value in quotes"),
        (21, 18, "unknown key 'hidden' in counters/gold", "known keys: per, key, start, min, max, doc, shown")]


def test_a_cell_cut_at_its_comma_in_braces_says_to_quote_it(tmp_path: Path) -> None:
    """A scenario's checkpoint written in braces, ``{action: place X at 5,5, expect_error: ...}``: YAML ends the action
    at the cell's comma and makes its y a key; the message listed the known keys only."""
    path = tmp_path / "scenario.yaml"
    path.write_text("ruleset: tutorial-tiles\nactions:\n"
                    "  - {action: place Sun/Sun as Sun at 5,5, expect_error: does not touch}\n")
    found = [(d.pos.line, d.pos.col, d.message, d.hint) for d in schema_errors(load_yaml(path), "scenario")]
    assert found == [(3, 40, "unknown key '5' in actions/0",
                      "YAML ended the value before it at a comma inside {...}: put that value in quotes")]


def test_load_reports_schema_errors_with_file_line_col(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(MINIMAL.replace("  when:", "  wehn:"))
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    # (the schema also says 'when' is missing: see the report on double diagnostics)
    assert f"{path}:13:3: unknown key 'wehn' in end (did you mean 'when'?)" in str(info.value).splitlines()


def test_minimal_ruleset_is_valid_and_plays(tmp_path: Path) -> None:
    assert errors(MINIMAL) == []
    path = tmp_path / "ruleset.yaml"
    path.write_text(MINIMAL)
    assert validate_path(str(path)) == []


def test_wrong_types_and_closed_choices() -> None:
    assert errors(MINIMAL.replace("players: [2]", "players: four")) == ["2:10 players: 'four' is not a list (like [a, b]) (players: a list of player counts (whole numbers, 1 or more))"]
    assert errors(MINIMAL.replace("kind: square-grid", "kind: circle-grid")) == [
        "9:15 board/kind: 'circle-grid' is not one of square-grid, hex, points (did you mean 'square-grid'?)"
    ]
    # `face` is open in the schema (a face name is allowed); the compiler checks it (tests/test_identical.py).


@pytest.mark.parametrize("value", ["7", "grid_width"])
def test_settings_take_a_number_or_an_option_name(value: str) -> None:
    assert errors(MINIMAL.replace("max_width: 3", f"max_width: {value}")) == []


def test_settings_refuse_other_values() -> None:
    assert errors(MINIMAL.replace("max_width: 3", "max_width: true")) == [
        "9:39 board/max_width: true is not a whole number or a text (max_width: a whole number (0 or more), or the name of "
        "an option holding one, like 7)"
    ]
    assert errors(MINIMAL.replace("max_width: 3", "max_width: -1")) == ["9:39 board/max_width: -1 is less than the minimum of 0"]


def test_player_count_keys_arrive_as_text() -> None:
    text = MINIMAL + "setup:\n  default: pass\n  2: |\n    pass\n"
    assert errors(text) == []
    assert errors(MINIMAL + "setup:\n  two: pass\n")[0].startswith("20:3 unknown key 'two' in setup")


def test_conditions_may_be_plain_true() -> None:
    assert errors(MINIMAL.replace("when: count(c in board) == 2", "when: true")) == []
    assert errors(MINIMAL.replace("when: count(c in board) == 2", "when: 1.5")) == [
        "13:9 end/when: 1.5 is not a text or true/false (when: an effect-language condition (true or false), e.g. "
        "`count(c in board) == count(c in cards)`)"
    ]


def test_variants_are_loose_and_selected_variants_allowed() -> None:
    text = MINIMAL + (
        "variants:\n"
        "  big:\n"
        "    description: A bigger board.\n"
        "    players+: [3]\n"
        "    board: {max_width: 9}\n"
        "  empty:\n"
        "selected_variants: [big]\n"
    )
    assert errors(text) == []
    assert errors(MINIMAL + "variants:\n  big: {description: 3}\n") == [
        "20:22 variants/big/description: 3 is not a text (description: what the variant changes, for people "
        "(`rulecraft explain`, `rulecraft list`))"
    ]


def test_files_that_extend_or_include_need_not_repeat_required_sections() -> None:
    assert errors("name: mine\nextends: iconoclasm-cards\nplayers+: [5]\n") == []
    assert errors("include: [a.yaml]\n") == []
    assert any(e.startswith("1:1 the top level: 'name' is a required property (name: the ruleset's short name")
               for e in errors("title: no name\n"))


def test_scenario_misspelled_key() -> None:
    text = "ruleset: iconoclasm-cards\nplayers: 2\nexpct:\n  - current_role == Fire\n"
    assert errors(text, "scenario") == ["3:1 unknown key 'expct' in the top level (did you mean 'expect'?)"]


def test_a_value_no_form_fits_names_the_kinds_that_do() -> None:
    """An action written as a bare number was "3 is not valid under any of the given schemas"; then it did not say an
    action is its text, not its number in the list play shows."""
    text = "ruleset: iconoclasm-cards\nplayers: 2\nactions:\n  - 3\n"
    assert errors(text, "scenario") == ["4:5 actions/0: 3 is not a text or a mapping (like {key: value}) (0: one action "
                                        "in its text form, e.g. `place Fire/Water as Fire at 0,0` or `clash 1,0`: the "
                                        "text `rulecraft play` lists, not its number in that list)"]


def test_scenario_position_keys() -> None:
    text = (
        "ruleset: iconoclasm-cards\nplayers: 2\nposition:\n  seats: {Fire: 1, Water: 2, Earth: absent}\n"
        "  board: {'0,0': Fire/Fire}\n  zones: {hand(Fire): [Fire/Water as Water]}\n  turn: Fire\n  turn_number: 3\n"
        "  turn_numbr: 3\n"
    )
    assert errors(text, "scenario") == ["9:3 unknown key 'turn_numbr' in position (did you mean 'turn_number'?)"]


def test_scenario_load_reports_schema_errors(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: iconoclasm-cards\nplayers: two\n")
    with pytest.raises(RulesetError) as info:
        load_scenario(path)
    assert str(info.value) == (f"{path}:2:10: players: 'two' is not a whole number (players: the number of players "
                                "(the ruleset's smallest player count if left out), like 4)")


# --- every `required` list is in force ------------------------------------------------------------

def required_keys(kind: str) -> list[tuple[str, str]]:
    """Every (subschema, key) a `required` list demands; lists inside an `if` only test, so they are left out."""
    return [(pointer, key) for pointer, node in nodes(schema(kind)) if "if" not in pointer.split("/")
            for key in node.get("required", [])]


def _form_keys(kind: str) -> set[str]:
    """Keys an `if` tests to choose a form (`phase`: a phase, else a step): without one the mapping takes another form."""
    return {key for pointer, node in nodes(schema(kind)) if pointer.split("/")[-1] == "if" for key in node.get("required", [])}


@functools.cache
def _witnesses(kind: str) -> tuple[tuple[Path, Any], ...]:
    """The shipped files of a kind, loaded once per test process (the documents the required keys are taken out of;
    a test puts back what it takes out)."""
    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    files = SCENARIOS if kind == "scenario" else [*RULESET_FILES, *sorted(examples.glob("*/ruleset.yaml"))]
    return tuple((path, load_yaml(path)) for path in files)


def _mappings(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _mappings(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _mappings(value, (*path, i))


@pytest.mark.parametrize("kind,pointer,key", [(kind, *pair) for kind in KINDS for pair in required_keys(kind)])
def test_each_required_key_is_refused_when_left_out(kind: str, pointer: str, key: str) -> None:
    """Take the key out of a shipped file where the subschema demands it: the schema reports it, at that node.

    (An `end` without `when`, a `clash` step without `table`, ... would otherwise pass an editor.)
    """
    doc = schema(kind)
    registry = Registry().with_resource(doc["$id"], Resource.from_contents(doc))
    sub = Draft202012Validator({"$ref": f"{doc['$id']}#{pointer}"}, registry=registry)
    wanted = dict(nodes(doc))[pointer]["required"]
    tried = 0
    for path, tree in _witnesses(kind):
        for where, node in _mappings(tree):
            if not all(k in node for k in wanted) or not sub.is_valid(node):
                continue
            tried += 1
            value = node.pop(key)
            try:
                found = [d.message for d in schema_errors(tree, kind)]
            finally:
                node[key] = value
            at = "/".join(map(str, where)) or "the top level"
            if f"{at}: '{key}' is a required property" in found:
                return
            if key in _form_keys(kind) and any(message.endswith(f" in {at}") or message.startswith(f"{at}:") for message in found):
                return  # refused as the other form
    pytest.fail(f"no shipped {kind} file shows that {pointer} requires '{key}' ({tried} candidate mappings tried)")


# What each kind of file must say, as the schemas demand it today.  Dropping a key from a `required`
# list (an `end` without `when` passing an editor) fails here; adding one means adding it here.
REQUIRED = {
    "ruleset": {
        "/properties/functions/additionalProperties": ["is"],
        "/properties/procedures/additionalProperties": ["do"],
        "/properties/support_tables/additionalProperties": ["of", "supporters"],
        "/else": ["name", "players", "turn", "end"],
        "/$defs/option/then": ["default"],
        "/$defs/attribute": ["type"],
        "/$defs/instance": ["id"],
        "/$defs/roles": ["of"],
        "/$defs/zone/properties/key": ["from", "to"],
        "/$defs/phase": ["phase", "steps"],
        "/$defs/draftStep": ["from", "to"],
        "/$defs/actionRollStep": ["actors", "actions", "dice"],
        "/$defs/delayedStep": ["actions"],
        "/$defs/finalActsStep": ["from", "when", "to"],
        "/$defs/meter": ["counter"],
        "/$defs/namedMeter": ["per"],
        "/$defs/thresholds/items": ["do"],
        "/$defs/doStep": ["effect"],
        "/$defs/rollStep": ["faces", "effect"],
        "/$defs/castStep": ["from", "pattern", "reads", "remove_to"],
        "/$defs/advanceStep": ["along", "markers"],
        "/$defs/drawStep": ["from", "to"],
        "/$defs/placeStep": ["from"],
        "/$defs/placeStep/properties/bracket": ["attribute"],
        "/$defs/moveStep": ["side"],
        "/$defs/formGroupsStep": ["pattern", "attribute", "support", "face", "marker"],
        "/$defs/formGroupsStep/properties/marker": ["from", "to"],
        "/$defs/formGroupsStep/properties/reform": ["with", "from", "to"],
        "/$defs/slots": ["names"],
        "/$defs/contestStep": ["in", "prizes", "to", "void"],
        "/$defs/exchangeStep": ["when", "give", "take"],
        "/$defs/clashStep": ["table", "attribute"],
        "/$defs/clashTable": ["of", "outcomes"],
        "/$defs/setupPart": ["do"],
        "/$defs/step/properties/refuse_if_after/anyOf/1": ["when"],
        "/$defs/end": ["when"],
        "/$defs/scoring": ["rank"],
        "/$defs/goals": ["any_of"],
        "/$defs/goal": ["when"],
    },
    "scenario": {
        "": ["ruleset"],
    },
}


@pytest.mark.parametrize("kind", sorted(REQUIRED))
def test_the_required_keys_are_these(kind: str) -> None:
    found: dict[str, list[str]] = {}
    for pointer, key in required_keys(kind):
        found.setdefault(pointer, []).append(key)
    assert found == REQUIRED[kind]


# --- included files (fragments) ---------------------------------------------------------------


def _included_files() -> list[Path]:
    """Every shipped YAML file that is neither a ruleset.yaml nor a scenario: the files rulesets include."""
    files = sorted(rulesets_dir().glob("*/**/*.yaml"))
    return [f for f in files if f.name != "ruleset.yaml" and "scenarios" not in f.relative_to(rulesets_dir()).parts]


FRAGMENTS = _included_files()


def test_fragment_schema_is_derived_from_the_ruleset_schema() -> None:
    """schemas/fragment.schema.json is exactly what fragment_schema() makes of the ruleset schema (no drift)."""
    from engine.compiling.schema import fragment_schema

    assert schema("fragment") == fragment_schema(schema("ruleset")), (
        "regenerate schemas/fragment.schema.json from engine.compiling.schema.fragment_schema(ruleset schema)"
    )


@pytest.mark.parametrize("kind", ["ruleset", "fragment"])
def test_schema_files_are_the_generated_schemas(kind: str) -> None:
    """schemas/ruleset.schema.json and fragment.schema.json are, to the byte, what the blocks' fragments assemble to."""
    from engine.compiling.schema import schema_text

    written = (schemas_dir() / SCHEMAS[kind]).read_text(encoding="utf-8")
    assert written == schema_text(kind), f"regenerate it: rulecraft schema {kind} > schemas/{SCHEMAS[kind]}"


def test_every_step_kind_and_block_key_comes_from_one_block() -> None:
    """Each step kind the engine runs is declared by exactly one block, and no block key is also a core key."""
    from engine.blocks.catalogue import all_blocks
    from engine.blocks.steps import STEP_KINDS
    from engine.compiling.core_keys import CORE_SCHEMA

    declared = [kind for block in all_blocks().values() for kind in block.steps]
    assert sorted(declared) == sorted(STEP_KINDS)
    keys = [key for block in all_blocks().values() for key in block.keys]
    assert len(keys) == len(set(keys)) and not set(keys) & set(CORE_SCHEMA["properties"])


def test_a_block_s_keys_reach_the_schema_only_through_its_fragment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking a block away takes its keys and step kinds out of the generated schema."""
    from engine.blocks import catalogue
    from engine.compiling.schema import ruleset_schema

    blocks = catalogue.all_blocks()
    monkeypatch.setattr(catalogue, "BLOCKS", {name: b for name, b in blocks.items() if name != "meter"})
    without = ruleset_schema()
    assert "meter" not in without["properties"] and "meter" not in without["$defs"]
    assert "statuses" in without["properties"] and "place" in without["$defs"]["step"]["properties"]


def test_there_are_shipped_fragments() -> None:
    assert len(FRAGMENTS) >= 16  # iconica's statuses and 14 characters, spell-cycles' spells


@pytest.mark.parametrize("path", FRAGMENTS, ids=lambda p: str(p.relative_to(rulesets_dir())))
def test_shipped_fragment_declares_and_passes_the_fragment_schema(path: Path) -> None:
    """An included file names the fragment schema on its first line, and an editor using it shows no errors."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=") and first.endswith("/schemas/fragment.schema.json")
    assert (path.parent / first.split("=", 1)[1]).resolve() == (schemas_dir() / SCHEMAS["fragment"]).resolve()
    validator = Draft202012Validator(schema("fragment"))
    assert [e.message for e in validator.iter_errors(plain(load_yaml(path)))] == []
    assert schema_errors(load_yaml(path), "fragment") == []


@pytest.mark.parametrize("path", FRAGMENTS[:1] + [p for p in FRAGMENTS if p.name == "spells.yaml"], ids=lambda p: p.name)
def test_shipped_fragment_fails_the_ruleset_schema(path: Path) -> None:
    """Why fragments need their own schema: against the ruleset schema an editor marks them wrong."""
    assert schema_errors(load_yaml(path), "ruleset") != []


def test_fragment_schema_still_catches_mistakes() -> None:
    """Nothing is required in a fragment, but misspelled keys and wrong kinds of value are still errors."""
    text = "components:\n  character:\n    instancez+:\n      - {id: X}\n"
    assert errors(text, "fragment") == ["3:5 unknown key 'instancez+' in components/character (did you mean 'instances'?)"]
    assert errors("statuses:\n  Dazed: {kind: minor, lasts: 0}\n", "fragment") != []
    assert errors("componets: {}\n", "fragment") == ["1:1 unknown key 'componets' in the top level (did you mean 'components'?)"]
    assert errors("components:\n  character:\n    instances+:\n      - {id: X}\n", "fragment") == []


def test_schema_command_prints_the_fragment_schema() -> None:
    from click.testing import CliRunner

    from cli.main import main

    result = CliRunner().invoke(main, ["schema", "fragment"])
    assert result.exit_code == 0
    assert json.loads(result.output) == schema("fragment")


def test_a_file_that_extends_another_passes_the_fragment_schema_in_an_editor() -> None:
    """Partial sections and key+/key- deep inside: the ruleset schema marks them, the fragment schema does not."""
    text = (
        "name: cards-fronts\nextends: iconoclasm-cards\nscoring:\n  by-:\n    - -(if seated(e) then turn_position(e) else 0)\n"
        "  by+:\n    - count(c in board where c.element == e and c.front.element == e)\n"
    )
    assert errors(text, "ruleset") != []
    assert errors(text, "fragment") == []
    assert errors(text.replace("by+:", "bye+:"), "fragment") != []


COUNTERS_ONLY = """\
name: counting
players: [2]
types:
  side: [First, Second]
roles: {of: side, seating: {2: [1, 2]}}
counters:
  total: {per: game, start: 0}
turn:
  - do:
      effect: total += choose(n in [1, 2])
end:
  when: total >= 5
scoring: {rank: r in roles, by: ["0"], points: key}
"""


def test_a_game_of_counters_alone_needs_no_components(tmp_path: Path) -> None:
    """It was refused with "the top level: 'components' is a required property": a designer had to invent a piece."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(COUNTERS_ONLY, encoding="utf-8")
    state = engine.load(path).new_state(players=2, seed=3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.observation(1)["counters"] == {"total": 5}
    from click.testing import CliRunner

    from cli.main import main

    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0 and result.output.startswith("ok: "), result.output


def test_a_missing_or_wrong_kind_of_key_says_what_the_key_is_for() -> None:
    """"'end' is a required property" and "roles/of: ['p1', 'p2'] is not a text" did not say what the key holds: the
    schema's first sentence about it (and its first example, where the sentence gives none) now follows."""
    with_roles = MINIMAL.replace("turn:", "roles:\n  of: [p1, p2]\n  seating: {2: [1, 2]}\nturn:")
    assert "11:7 roles/of: [p1, p2] is not a text (of: the type whose values are the roles, like hue)" in errors(with_roles)
    missing_end = MINIMAL.replace("end:\n  when: count(c in board) == 2\n", "")
    assert "1:1 the top level: 'end' is a required property (end: when the game ends)" in errors(missing_end)
    assert errors(MINIMAL.replace("  rank: c in board\n", "")) == [
        "15:3 scoring: 'rank' is a required property (rank: what is ranked: a selection like `e in roles`; its variable "
        "is visible in `by` and `to`)"]


def test_a_key_with_one_allowed_value_says_so_in_yaml_words() -> None:
    """'face_down: false' was refused with "face_down: True was expected" (jsonschema's words, in Python's spelling)."""
    assert errors(MINIMAL + "face_down: false\n") == [
        "19:12 face_down: false is not allowed: the only value is true (leave 'face_down' out otherwise)"]


def test_a_kind_without_attributes_lists_its_components_by_name(tmp_path: Path) -> None:
    """`house: {instances: [Mill, Bakery]}` was refused with "'Mill' must name one value per face (face) of a kind with
    one per-face attribute", which a kind without attributes cannot have: a text alone is now the component's name.
    A kind with attributes that are not per face is told how to write one."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(MINIMAL.replace("components:\n", "components:\n  house:\n    instances: [Mill, Bakery]\n"))
    game = engine.load(path)
    assert [n for n, k in zip(game.component_names, game.component_kind) if k == "house"] == ["Mill", "Bakery"]
    path.write_text(MINIMAL.replace("[{id: r1, colour: Red}, {id: b1, colour: Blue}]", "[r1, b1]"))
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    assert info.value.diagnostics[0].hint == "write {id: r1, colour: ...}: a text alone names a component of a kind without attributes"


def test_an_attribute_a_component_leaves_out_is_none(tmp_path: Path) -> None:
    """Shipped kinds leave optional attributes out (a spell without 'requires', a card without 'on_win'), so it is no
    error: the component's value is none, which code tests with '== none' (docs/rulesets.md, components)."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(MINIMAL.replace("{id: b1, colour: Blue}", "{id: b1}")
                    + "running_score: count(c in discs where c.colour == none) * 10 + count(c in discs where c.colour == Red)\n")
    game = engine.load(path)
    assert game.score_of(game.new_state(players=2, seed=1), 1) == 11
