"""docs/rulesets.md and docs/effects.md: every top-level section is in the reference table, the general
features are documented in the general part (not only under one game), and its examples there work."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

import engine
from engine.core.paths import schemas_dir

ROOT = Path(__file__).resolve().parent.parent
RULESETS_MD = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
EFFECTS_MD = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")


def _part(text: str, start: str, stop: str) -> str:
    return text[text.index(start):text.index(stop)]


REFERENCE = _part(RULESETS_MD, "## Reference: every section and key", "## Reading a simulation report")
GENERAL = _part(RULESETS_MD, "## The card game, section by section", "## How to: change an option")
NAMES = _part(EFFECTS_MD, "## Names", "## Attributes")
LOADER_KEYS = {"selected_variants", "set_options", "replaced"}  # filled in by the loader, never written


def test_every_top_level_key_of_the_schema_is_in_the_reference_table() -> None:
    sections = json.loads((schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))["properties"]
    missing = [key for key in sections if key not in LOADER_KEYS and f"| `{key}` |" not in REFERENCE]
    assert missing == []


@pytest.mark.parametrize("row", ["| `running_score` |", "| `invariants` |", "| `functions` |", "| `support_tables` |",
                                 "| | `NAME.shown` |"])
def test_reference_rows(row: str) -> None:
    assert row in REFERENCE


def test_me_is_in_the_names_table() -> None:
    assert re.search(r"^\| `me` \| int \| in `running_score` only: the seat being scored", NAMES, re.M)


@pytest.mark.parametrize("heading, words", [
    ("### board", "**A board of a fixed size.** `width` and `height`"),
    ("### turn", "`touching: false` lets it go on any empty cell"),
    ("### functions", "Names for the ruleset's own expressions"),
    ("### running_score", "`me` is the seat"),
    ("### invariants", "Named conditions that must hold after every action"),
])
def test_general_features_are_in_the_general_sections(heading: str, words: str) -> None:
    assert f"\n{heading}\n" in GENERAL
    section = GENERAL.split(f"\n{heading}\n", 1)[1].split("\n### ", 1)[0]
    assert words in section


def _yaml_after(heading: str) -> dict:
    section = GENERAL.split(f"\n{heading}\n", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    return yaml.safe_load(block.group(1))


def test_the_general_examples_work_on_the_card_game(tmp_path: Path) -> None:
    """The functions:, running_score: and invariants: examples, added to the card game, validate and hold."""
    doc = {"name": "docs-examples", "extends": "iconoclasm-cards"}
    for heading in ("### functions", "### running_score", "### invariants"):
        doc.update(_yaml_after(heading))
    path = tmp_path / "ruleset.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    game = engine.load(str(path))
    assert set(_yaml_after("### invariants")["invariants"]) <= set(game.invariants)
    from engine.runner.replay import checked_playout

    assert all(checked_playout(game, 3, seed).ok for seed in range(5))
    state = game.new_state(players=2, seed=1)
    assert game.compile_condition("shown(Fire) == 0 and leads(current_role)").run(state) is True


def test_the_board_examples_use_only_keys_the_schema_knows() -> None:
    """The `### board` examples are copied into new rulesets: a key the schema refuses there (`growing: true` was
    one) fails the designer's first validate."""
    known = set(json.loads((schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
                ["$defs"]["board"]["properties"])
    section = GENERAL.split("\n### board\n", 1)[1].split("\n### ", 1)[0]
    blocks = [yaml.safe_load(b)["board"] for b in re.findall(r"```yaml\n(.*?)```", section, re.S)]
    assert len(blocks) == 4 and all(set(b) <= known for b in blocks), blocks


def test_the_scenario_section_says_turns_without_a_decision_play_out() -> None:
    """A scenario of a dice game passed by luck: after its action, turns with nothing to decide played on (rolling
    the seed's dice) until the game ended, and its `is_over` held.  The page warns of it where scenarios are taught
    (docs/examples/pig's one-loses-the-turns-total.yaml shows the behaviour: seat 2's forced first roll is made)."""
    section = _part(RULESETS_MD, "## How to: write a scenario file", "### Checkpoints, refusals and offered decisions")
    assert "A turn with nothing to decide" in section and "plays out by itself" in section
    assert "load a die for every roll up to the decision you check" in section


def test_the_invariants_section_says_they_are_checked_at_a_question_in_the_middle_of_an_effect() -> None:
    """crazy-eights' first draft played an eight, then asked for its suit: its invariant "an eight on top has named a
    suit" failed at the question, where the state shows what the effect has done so far.  The page says so."""
    section = GENERAL.split("\n### invariants\n", 1)[1].split("\n### ", 1)[0]
    assert "An effect that stops at a [`choose`](effects.md#choose) is checked\nthere too" in section



def test_an_invariant_is_checked_at_a_question_in_the_middle_of_an_effect(tmp_path: Path) -> None:
    """What the invariants section says: the effect moves a card, then asks; at the question the invariant sees the
    card moved and the counter not yet changed."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(
        "name: halfway\nplayers: [2]\ncomponents:\n  card:\n    attributes: {n: int}\n"
        "    instances: [{id: a, n: 1}, {id: b, n: 2}]\nzones:\n  pile: {kind: pile}\ncounters:\n  done: {}\n"
        "turn:\n  - do:\n      effect: |\n        move(c in supply, pile, 1)\n"
        "        let n = choose(x in [1, 2])\n        done += 1\nend: {when: done > 1}\n"
        "scoring: {rank: r in roles, by: [done], points: key}\n"
        "invariants:\n  a card in the pile is counted: count(pile) == done\n", encoding="utf-8")
    game = engine.load(str(path))
    state = game.new_state(players=2, seed=0)
    assert game.broken_invariants(state) == ["a card in the pile is counted"]
    state.apply("choose 1")
    assert game.broken_invariants(state) == ["a card in the pile is counted"]  # the second card, at its question


def _schema_keys(spec: dict, defs: dict, depth: int = 2, seen: tuple[str, ...] = ()) -> set[str]:
    """The key names a schema part accepts, its sub-mappings' keys to `depth` levels (a name per key, not a path)."""
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return set() if name in seen else _schema_keys(defs[name], defs, depth, (*seen, name))
    keys: set[str] = set()
    for key, sub in spec.get("properties", {}).items():
        keys.add(key)
        if depth > 1:
            keys |= _schema_keys(sub, defs, depth - 1, seen)
    for part in [*spec.get("allOf", []), *spec.get("anyOf", []), *spec.get("oneOf", []),
                 *[spec[k] for k in ("then", "else", "additionalProperties") if isinstance(spec.get(k), dict)]]:
        keys |= _schema_keys(part, defs, depth, seen)
    return keys


def _reference_rows(section: str) -> str:
    """The reference table's rows for a section (`| `turn` |` or `| step `place` |`) and the rows after it."""
    rows, taken = [], False
    for line in REFERENCE.splitlines():
        if line.startswith("| ") and not line.startswith("| |"):
            taken = line.startswith(f"| {section} |")
        if taken:
            rows.append(line)
    return "\n".join(rows)


def test_every_key_of_every_section_and_step_is_in_the_reference_table() -> None:
    """The table is "every section and key": `scoring`'s `winners`, a status's `age`, `place`'s `only_triggering`,
    `advance`'s `off_end_when_forced`, `commit`'s `numbers` and the whole `form_groups` step were missing from it."""
    schema = json.loads((schemas_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    parts = {f"`{key}`": spec for key, spec in schema["properties"].items() if key not in LOADER_KEYS}
    parts |= {f"step `{key}`": spec for key, spec in defs["step"]["properties"].items() if key != "name"}
    general = _reference_rows("any step")
    missing = []
    for section, spec in parts.items():
        rows = _reference_rows(section) + "\n" + general
        missing += [f"{section}: {key}" for key in sorted(_schema_keys(spec, defs))
                    if not re.search(rf"[`.]{re.escape(key)}[`.:]", rows)]
    assert missing == []


def test_the_invariants_section_quotes_validate_s_message(tmp_path: Path) -> None:
    """The section quotes what validate says of a file that breaks an invariant of the ruleset it extends; the
    line it named in nine-domains/ruleset.yaml (264) had moved (267), so the quote pointed at another line."""
    section = GENERAL.split("\n### invariants\n", 1)[1].split("\n### ", 1)[0]
    quoted = " ".join(section.split("`invariant '", 1)[1].split(" ...`", 1)[0].split())
    (tmp_path / "ruleset.yaml").write_text(
        "name: no-zero\nextends: nine-domains\nsetup: |\n  for r in roles:\n"
        "    move(c in supply where c.kind == \"card\" and not c.special and c.value > 0, hand(r), 5)\n"
        "    move(c in supply where c.kind == \"card\" and c.special, hand(r), specials_per_player)\n", encoding="utf-8")
    from click.testing import CliRunner

    from cli.main import main

    said = CliRunner().invoke(main, ["validate", str(tmp_path)]).output
    assert "invariant '" + quoted in " ".join(said.split())


def test_turn_in_an_end_condition_is_the_turn_just_played(tmp_path: Path) -> None:
    """A designer wrote a draw after 200 turns as `turn > 200` (the names table said only "+1 after each player's
    turn"): the game went on to turn 201.  The pages say `turn >= N` ends it after N turns, and it does."""
    assert "in `end: when`, checked after a turn, the turn just played (`turn >= 40`" in NAMES
    assert "`when: turn >= 40` ends the game after 40 turns" in GENERAL
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: three-turns\nplayers: [2]\ncounters:\n  moves: {}\n"
                    "turn:\n  - do: {effect: 'moves += 1'}\nend:\n  when: turn >= 3\n"
                    "scoring: {rank: r in roles, by: [moves], points: key}\n")
    state = engine.load(str(path)).new_state(players=2, seed=0)
    assert state.is_terminal and state.counters[0] == 3


def _whole_rulesets(part: str) -> list[str]:
    """The YAML blocks of ``part`` that are whole rulesets building on a built-in one (a ``name:`` and an
    ``extends:`` naming a built-in), as a reader would save them to a file of their own."""
    found = []
    for block in re.findall(r"^```yaml\n(.*?)^```", part, re.S | re.M):
        tree = yaml.safe_load(block)
        if isinstance(tree, dict) and "name" in tree and tree.get("extends") in engine.builtin_names():
            found.append(block)
    return found


BUILD_ON = _part(RULESETS_MD, "## How to: build on another ruleset", "## How to: write a scenario file")


@pytest.mark.parametrize("block", _whole_rulesets(BUILD_ON), ids=lambda b: yaml.safe_load(b)["name"])
def test_the_rulesets_that_build_on_a_built_in_one_validate_as_written(tmp_path: Path, block: str) -> None:
    """iconoclasm-wind, which splits Iconoclasm's place step in two, left the base's `only_triggering` out "for
    brevity": the option it reads was then read nowhere, and the file a reader saved was refused."""
    from engine.runner.validate import validate_path

    path = tmp_path / "ruleset.yaml"
    path.write_text(block, encoding="utf-8")
    assert [d.format() for d in validate_path(str(path))] == []


def test_the_examples_that_build_on_a_built_in_one_are_all_checked() -> None:
    names = {yaml.safe_load(b)["name"] for b in _whole_rulesets(BUILD_ON)}
    assert {"iconoclasm-cards-big", "iconoclasm-cards-no-solo", "iconoclasm-cards-fronts", "iconoclasm-wind",
            "mild-poison", "tiles-encore"} <= names
