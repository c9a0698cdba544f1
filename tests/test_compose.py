"""Putting rulesets together (engine/core/compose.py) and finding them (engine/core/paths.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from engine.core.compose import compose, variant_names
from engine.core.merging import merge
from engine.core.confine import allowing
from engine.core.errors import RulesetError, SourcePos
from engine.core.paths import builtin_names, find_ruleset, rulesets_dir, schemas_dir
from engine.core.yamlsource import load_yaml

DATA = Path(__file__).parent / "data" / "loader"


@pytest.fixture(autouse=True)
def _allow_the_loader_data() -> Iterator[None]:
    """The child ruleset extends its sibling ``../base``: allowed as with ``--allow tests/data/loader``.

    (Without it the sibling is refused: tests/hostile/test_files.py.)
    """
    with allowing([DATA]):
        yield


def error_of(path: Path | str, variants: tuple[str, ...] = (), text: str | None = None) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        compose(path, variants, text=text)
    return info.value


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


# --- include ---------------------------------------------------------------------------------


def test_include_of_a_file_and_a_folder() -> None:
    tree = compose(DATA / "include" / "ruleset.yaml")
    assert tree == {
        "board": {"width": 9, "height": 7},
        "players": [2, 3],
        "cards": {"fire": {"power": 1}, "water": {"power": 2}},
        "order": ["fire"],
        "name": "included-game",
        "selected_variants": [],
    }
    assert list(tree["cards"]) == ["fire", "water"]  # folder files in name order
    assert tree["board"].pos_of("height").file.endswith("parts/board.yaml")
    assert tree["board"].pos_of("width").file.endswith("include/ruleset.yaml")
    assert tree["cards"]["water"].pos == SourcePos(str(DATA / "include" / "cards" / "b_water.yaml"), 2, 10)


def test_error_in_an_included_file_points_into_it() -> None:
    err = error_of(DATA / "include_error" / "ruleset.yaml")
    diagnostic = err.diagnostics[0]
    assert diagnostic.pos == SourcePos(str(DATA / "include_error" / "bad.yaml"), 3, 3)
    assert diagnostic.message == "duplicate key 'fire' (first defined at line 2)"


def test_missing_include_points_at_the_entry(tmp_path: Path) -> None:
    write(tmp_path, {"r.yaml": "name: r\ninclude:\n  - here.yaml\n  - gone.yaml\n", "here.yaml": "a: 1\n"})
    diagnostic = error_of(tmp_path / "r.yaml").diagnostics[0]
    assert diagnostic.pos == SourcePos(str(tmp_path / "r.yaml"), 4, 5)
    assert diagnostic.message.startswith("included file 'gone.yaml' not found")


def test_an_include_ending_in_a_slash_that_names_a_file_is_refused(tmp_path: Path) -> None:
    """'include: [x.yaml/]' read the file x.yaml, as if the slash (a folder's mark) were not there."""
    write(tmp_path, {"r.yaml": "name: r\ninclude: [x.yaml/]\n", "x.yaml": "a: 1\n", "cards/one.yaml": "b: 2\n"})
    diagnostic = error_of(tmp_path / "r.yaml").diagnostics[0]
    assert diagnostic.pos == SourcePos(str(tmp_path / "r.yaml"), 2, 11)
    assert diagnostic.message == "included folder 'x.yaml/' is a file, not a folder"
    assert diagnostic.hint == "write 'x.yaml' to include the file"
    (tmp_path / "r.yaml").write_text("name: r\ninclude: [cards/, x.yaml]\n")
    assert compose(tmp_path / "r.yaml") == {"a": 1, "b": 2, "name": "r", "selected_variants": []}


def test_extends_ending_in_a_slash_that_names_a_file_is_refused(tmp_path: Path) -> None:
    """'extends: base.yaml/' read the file base.yaml, as 'include: [x.yaml/]' did; 'extends: base/' is a folder."""
    write(tmp_path, {"r.yaml": "name: r\nextends: base.yaml/\n", "base.yaml": "name: base\na: 1\n",
                     "base/ruleset.yaml": "name: base\nb: 2\n"})
    diagnostic = error_of(tmp_path / "r.yaml").diagnostics[0]
    assert diagnostic.pos == SourcePos(str(tmp_path / "r.yaml"), 2, 10)
    assert (diagnostic.message, diagnostic.hint) == ("extended folder 'base.yaml/' is a file, not a folder",
                                                     "write 'base.yaml' to extend the file")
    (tmp_path / "r.yaml").write_text("name: r\nextends: base/\n")
    assert compose(tmp_path / "r.yaml")["b"] == 2


@pytest.mark.parametrize("entry", ['""', '" "'])
def test_an_empty_include_is_refused_as_naming_no_file(tmp_path: Path, entry: str) -> None:
    """'include: [""]' named the file's own folder, and so the file itself: "include cycle: r.yaml -> r.yaml"."""
    write(tmp_path, {"r.yaml": f"name: r\ninclude: [{entry}]\n"})
    diagnostic = error_of(tmp_path / "r.yaml").diagnostics[0]
    assert diagnostic.message.startswith("this include names no file: give a file's or a folder's name")


def test_include_cycle() -> None:
    diagnostic = error_of(DATA / "cycle" / "a.yaml").diagnostics[0]
    assert diagnostic.message == "include cycle: a.yaml -> b.yaml -> a.yaml"
    assert diagnostic.pos == SourcePos(str(DATA / "cycle" / "b.yaml"), 2, 11)


def test_include_with_text_resolves_relative_to_the_path() -> None:
    tree = compose(DATA / "include" / "ruleset.yaml", text="name: t\ninclude: parts/board.yaml\n")
    assert tree["board"] == {"width": 7, "height": 7}


# --- extends and merging ---------------------------------------------------------------------


def test_extends_appends_removes_and_replaces() -> None:
    tree = compose(DATA / "child" / "ruleset.yaml")
    assert tree["name"] == "child-game"
    assert tree["players"] == [2, 3, 4, 5]
    assert tree["instances"] == ["Fire/Fire", "Water/Water"]
    assert list(tree["clash"]) == ["Fire", "Water"]
    assert tree["board"] == {"width": 9, "height": 7}
    assert list(tree["variants"]) == ["quick", "wide"]
    assert "extends" not in tree and "players+" not in tree and "instances-" not in tree


def test_extended_values_keep_the_positions_of_their_file() -> None:
    tree = compose(DATA / "child" / "ruleset.yaml")
    base, child = str(DATA / "base" / "ruleset.yaml"), str(DATA / "child" / "ruleset.yaml")
    assert tree["players"].pos_of(0) == SourcePos(base, 2, 11)
    assert tree["players"].pos_of(3) == SourcePos(child, 3, 12)
    assert tree["instances"][1].pos == SourcePos(base, 3, 36)  # Water/Water, after the removal
    assert tree["board"].pos_of("height") == SourcePos(base, 10, 11)
    assert tree["board"].pos_of("width") == SourcePos(child, 7, 10)


def test_removing_what_the_base_lacks_points_at_the_item() -> None:
    text = "name: c\nextends: ../base\ninstances-: [Fire/Fire, Air/Air]\n"
    child = DATA / "child" / "other.yaml"
    diagnostic = error_of(child, text=text).diagnostics[0]
    assert diagnostic.pos == SourcePos(str(child), 3, 25)
    assert diagnostic.message == "cannot remove 'Air/Air' from 'instances': the base list does not have it"


def test_appending_to_a_mapping_is_refused() -> None:
    child = DATA / "child" / "other.yaml"
    diagnostic = error_of(child, text="extends: ../base\nboard+: [x]\n").diagnostics[0]
    assert diagnostic.pos == SourcePos(str(child), 2, 1)
    assert diagnostic.message == "cannot append to 'board': it is a mapping, not a list"


def test_adding_to_a_program_the_base_writes_as_one_text_says_what_to_write(tmp_path: Path) -> None:
    """An overlay adding a setup line to a base whose setup is one program (Iconoclasm's) was told "'setup+' takes a
    list of items to append, or a mapping to merge, not text", then, given a list, "cannot append to 'setup': it is
    text, not a list", and not what to write instead; text, a list and a placement are all told so."""
    base = "name: b\nplayers: [2]\nsetup: |\n  pass\nturn: []\n"
    for added in ("setup+: |\n  pass\n", "setup+:\n  - {name: more, do: pass}\n", "setup+: {after: deal, add: []}\n"):
        write(tmp_path, {"base/ruleset.yaml": base, "child.yaml": "extends: base\n" + added})
        diagnostic = error_of(tmp_path / "child.yaml").diagnostics[0]
        assert diagnostic.pos == SourcePos(str(tmp_path / "child.yaml"), 2, 1)
        assert diagnostic.message == "cannot add to 'setup': the base writes it as one text, not a list"
        assert diagnostic.hint is not None and "write 'setup:' whole" in diagnostic.hint


def test_error_in_the_base_file_points_into_it(tmp_path: Path) -> None:
    write(tmp_path, {"base/ruleset.yaml": "name: b\nplayers: [2\n", "child.yaml": "extends: base\n"})
    diagnostic = error_of(tmp_path / "child.yaml").diagnostics[0]
    assert diagnostic.pos is not None and diagnostic.pos.file == str(tmp_path / "base" / "ruleset.yaml")


def test_unknown_base_points_at_extends_with_a_hint() -> None:
    child = DATA / "child" / "other.yaml"
    diagnostic = error_of(child, text="name: c\nextends: ../bas\n").diagnostics[0]
    assert diagnostic.pos == SourcePos(str(child), 2, 10)
    assert diagnostic.message.startswith("unknown ruleset '../bas'")


def test_extends_cycle(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": "extends: b.yaml\n", "b.yaml": "extends: a.yaml\n"})
    diagnostic = error_of(tmp_path / "a.yaml").diagnostics[0]
    assert diagnostic.message == "extends cycle: a.yaml -> b.yaml -> a.yaml"
    assert diagnostic.pos == SourcePos(str(tmp_path / "b.yaml"), 1, 10)


def test_merge_rules() -> None:
    base = load_yaml("a.yaml", "a: {x: 1, y: [1]}\nb: [1, 2, 2]\nc: 3\n")
    over = load_yaml("b.yaml", "a: {y: null}\nb-: [2]\nc: [3]\nd: {e+: [1], f: {g+: [2]}}\n")
    merged = merge(base, over)
    assert merged == {"a": {"x": 1, "y": None}, "b": [1, 2], "c": [3], "d": {"e": [1], "f": {"g": [2]}}}
    assert base == {"a": {"x": 1, "y": [1]}, "b": [1, 2, 2], "c": 3}  # inputs unchanged
    with pytest.raises(RulesetError, match="cannot remove from 'z': the base does not define it"):
        merge(base, load_yaml("c.yaml", "z-: [1]\n"))
    with pytest.raises(RulesetError, match="'b\\+' takes a list of items to append, or a mapping to merge, not a whole number"):
        merge(base, load_yaml("c.yaml", "b+: 3\n"))


# --- variants --------------------------------------------------------------------------------

VARIANTS = DATA / "variants" / "ruleset.yaml"


def test_variants_apply_in_order() -> None:
    assert compose(VARIANTS, ["small", "tall"])["board"] == {"width": 5, "height": 9}
    assert compose(VARIANTS, ["tall", "small"])["board"] == {"width": 5, "height": 5}
    tree = compose(VARIANTS, ["tall", "small"])
    assert tree["selected_variants"] == ["tall", "small"]
    assert tree["selected_variants"][1].pos == SourcePos(str(VARIANTS), 5, 3)
    assert "description" not in tree and list(tree["variants"]) == ["small", "tall", "crowd", "solo"]


def test_variant_requires_and_conflicts() -> None:
    tree = compose(VARIANTS, ["crowd"])
    assert tree["selected_variants"] == ["small", "crowd"]
    assert tree["players"] == [2, 3, 4, 5] and tree["board"]["width"] == 5
    diagnostic = error_of(VARIANTS, ("crowd", "solo")).diagnostics[0]
    assert diagnostic.message == "variant 'solo' cannot be combined with 'crowd'"
    assert diagnostic.pos == SourcePos(str(VARIANTS), 14, 17)


def test_unknown_variant_lists_the_known_ones_with_a_hint() -> None:
    diagnostic = error_of(VARIANTS, ("smal",)).diagnostics[0]
    assert diagnostic.message == "unknown variant 'smal' (known variants: small, tall, crowd, solo)"
    assert diagnostic.hint == "did you mean 'small'?"
    assert diagnostic.pos is None


def test_variants_of_the_base_and_variant_names() -> None:
    child = DATA / "child" / "ruleset.yaml"
    assert variant_names(child) == ["quick", "wide"]
    assert compose(child, ["quick"])["board"]["width"] == 5
    assert compose(child, ["quick", "wide"])["board"]["width"] == 11


# --- paths -----------------------------------------------------------------------------------


def test_find_ruleset_by_path_and_directory(tmp_path: Path) -> None:
    assert find_ruleset(str(DATA / "child")) == DATA / "child" / "ruleset.yaml"
    base = DATA / "base" / "ruleset.yaml"  # without its "child/..", so errors name the file where it is
    assert find_ruleset("../base", relative_to=DATA / "child") == base
    assert find_ruleset(str(VARIANTS)) == VARIANTS
    with pytest.raises(RulesetError, match="has no ruleset.yaml"):
        find_ruleset(str(tmp_path))


def test_builtin_rulesets_are_found_by_name() -> None:
    repo = Path(__file__).resolve().parent.parent
    assert rulesets_dir() == repo / "rulesets" and schemas_dir() == repo / "schemas"
    for name in builtin_names():
        assert find_ruleset(name) == rulesets_dir() / name / "ruleset.yaml"


def test_unknown_ruleset_lists_builtins_with_a_hint() -> None:
    with pytest.raises(RulesetError) as info:
        find_ruleset("no-such-game-anywhere")
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.pos is None
    assert diagnostic.message.startswith("unknown ruleset 'no-such-game-anywhere'")
    assert all(name in diagnostic.message for name in builtin_names())
    if "iconoclasm-cards" in builtin_names():
        with pytest.raises(RulesetError, match="did you mean 'iconoclasm-cards'"):
            find_ruleset("iconoclasm-card")


# ---------------------------------------------------------------- overlays replace definitions, or merge when asked

OVERLAYS = Path(__file__).parent / "data" / "overlays"
BASE_WITH_DEFINITIONS = """\
name: base
players: [2]
statuses:
  Sting: {kind: major, on: {before: "damage(self, 10)"}}
functions:
  alive(x): hp(x) > 0
clash_tables:
  main: {of: side, A: {B: flip}}
meter:
  kinds:
    ward: {nullifies: [Sting]}
meters:
  nerve:
    per: role
    kinds:
      rally: {on_heal: "gain(nerve(self), 1)"}
"""


def composed(tmp_path: Path, overlay: str) -> tuple[dict, list[str]]:
    """The overlay composed on top of BASE_WITH_DEFINITIONS (it says ``extends: ../base``), and what it replaced."""
    from engine.core.compose import replacements

    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "ruleset.yaml").write_text(BASE_WITH_DEFINITIONS, encoding="utf-8")
    (tmp_path / "over").mkdir()
    path = tmp_path / "over" / "ruleset.yaml"
    path.write_text("name: over\nextends: ../base\n" + overlay, encoding="utf-8")
    with allowing([tmp_path]):
        tree = compose(path)
    return tree, [str(note) for note in replacements(tree)]


def test_a_definition_written_again_replaces_the_base_one_whole_and_says_so(tmp_path: Path) -> None:
    tree, notes = composed(tmp_path, "statuses:\n  Sting: {kind: minor}\nfunctions:\n  alive(x): true\n"
                                     "clash_tables:\n  main: {B: {A: flip}}\n")
    assert tree["statuses"]["Sting"] == {"kind": "minor"}  # the base's hook is gone
    assert tree["clash_tables"]["main"] == {"of": "side", "A": {"B": "flip"}, "B": {"A": "flip"}}  # a table is data: merged
    assert notes == ["status 'Sting' replaces the one from base (ruleset.yaml:4:3)",
                     "function 'alive(x)' replaces the one from base (ruleset.yaml:6:3)"]


def test_a_tile_kind_of_the_meter_or_of_a_named_meter_written_again_replaces_the_base_one(tmp_path: Path) -> None:
    """Tile kinds hold code: written again they replace the base's whole (and say so); the meter around them merges."""
    tree, notes = composed(tmp_path, "meter:\n  kinds:\n    ward: {text: a plain tile}\n"
                                     "meters:\n  nerve:\n    start: 3\n    kinds:\n      rally: {text: quiet}\n")
    assert tree["meter"]["kinds"]["ward"] == {"text": "a plain tile"}  # nullifies nothing any more
    assert tree["meters"]["nerve"] == {"per": "role", "kinds": {"rally": {"text": "quiet"}}, "start": 3}
    assert notes == ["tile kind 'ward' replaces the one from base (ruleset.yaml:11:5)",
                     "tile kind 'rally' replaces the one from base (ruleset.yaml:16:7)"]
    (tmp_path / "merged").mkdir()
    tree, notes = composed(tmp_path / "merged", "meters:\n  nerve:\n    kinds:\n      rally+: {text: quiet}\n")
    assert tree["meters"]["nerve"]["kinds"]["rally"] == {"on_heal": "gain(nerve(self), 1)", "text": "quiet"} and notes == []


@pytest.mark.parametrize("key, noted", [("instances", True), ("instances+", False)])
def test_instances_written_over_the_bases_are_noted_as_replacing_them(tmp_path: Path, key: str, noted: bool) -> None:
    """'instances:' in a file extending Iconica to add a character replaced the whole cast: validate said ok and the
    draft offered one character, with no word of it (docs/characters.md warns; nothing else did)."""
    from engine.core.compose import replacements

    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "ruleset.yaml").write_text("name: base\ncomponents:\n  card:\n    instances: [a, b]\n",
                                                   encoding="utf-8")
    path = tmp_path / "ruleset.yaml"
    path.write_text(f"name: over\nextends: base\ncomponents:\n  card:\n    {key}: [c]\n", encoding="utf-8")
    tree = compose(path)
    notes = [(str(note), note.pos.line) for note in replacements(tree)]
    assert notes == ([("the instances of card replace the 2 from base (ruleset.yaml:4:5): write 'instances+:' to add "
                       "to them instead", 5)] if noted else [])
    assert tree["components"]["card"]["instances"] == (["c"] if noted else ["a", "b", "c"])


def test_key_plus_merges_into_a_definition_and_replaces_nothing(tmp_path: Path) -> None:
    tree, notes = composed(tmp_path, "statuses:\n  Sting+: {lasts: 2}\n  New: {kind: minor}\n")
    assert tree["statuses"] == {"Sting": {"kind": "major", "on": {"before": "damage(self, 10)"}, "lasts": 2},
                                "New": {"kind": "minor"}}
    assert notes == []


def test_removing_then_defining_in_one_file_is_a_fresh_definition(tmp_path: Path) -> None:
    tree, notes = composed(tmp_path, "statuses:\n  Sting: {kind: minor}\nstatuses-: [Sting]\n")
    assert tree["statuses"] == {"Sting": {"kind": "minor"}} and notes == []  # key- acts first, wherever it is written


def test_a_list_beside_its_removal_is_refused_with_what_to_write(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as info:
        composed(tmp_path, "players: [2, 3]\nplayers-: [2]\n")
    message = str(info.value)
    assert "ruleset.yaml:4:1: 'players' and 'players-' in one place: 'players' replaces the base's whole list" in message
    assert "write the list you want in 'players'" in message


def test_merging_a_mapping_into_a_list_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"cannot merge into 'players': it is a list, not a mapping"):
        composed(tmp_path, "players+: {x: 1}\n")


def test_overlay_scenarios_replace_and_merge() -> None:
    """Iconica's Poison replaced (its hook gone) and merged (its hook kept), proved in play."""
    from engine.runner.scenario import run_scenario

    paths = sorted(OVERLAYS.glob("*/scenarios/*.yaml"))
    assert len(paths) == 2
    for path in paths:
        result = run_scenario(path)
        assert result.passed, "\n".join(result.failures)


def test_validate_and_explain_say_what_an_overlay_replaces() -> None:
    from click.testing import CliRunner

    from cli.main import main

    line = (rulesets_dir() / "iconica" / "statuses.yaml").read_text().splitlines().index("  Poison:") + 1
    note = f"status 'Poison' replaces the one from iconica (statuses.yaml:{line}:3)"
    result = CliRunner().invoke(main, ["validate", str(OVERLAYS / "replace"), str(OVERLAYS / "merge")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"note: {OVERLAYS / 'replace' / 'ruleset.yaml'}:10:3: {note}",
                                          f"ok: {OVERLAYS / 'replace'}", f"ok: {OVERLAYS / 'merge'}"]
    explained = CliRunner().invoke(main, ["explain", str(OVERLAYS / "replace")])
    assert f"Replaced from the base\n  {note} at {OVERLAYS / 'replace' / 'ruleset.yaml'}:10" in explained.output
    assert "Replaced from the base" not in CliRunner().invoke(main, ["explain", str(OVERLAYS / "merge")]).output


# ---------------------------------------------------------------- setup parts and turn steps changed by name

NAMED_BASE = """\
name: base
setup:
  - {name: deal, do: deal()}
turn:
  - {name: draw, draw: {from: deck, to: hand}}
  - phase: act
    steps:
      - {name: place, place: {from: hand}}
      - {name: clash, clash: {table: beats}}
"""


def steps(tree: dict) -> list[str]:
    """The names of a composed turn's steps and phases, phases' steps in brackets."""
    return [f"{s['phase']}[{', '.join(i['name'] for i in s['steps'])}]" if "phase" in s else s["name"] for s in tree["turn"]]


def named(tmp_path: Path, overlay: str) -> dict:
    path = tmp_path / "ruleset.yaml"
    (tmp_path / "base.yaml").write_text(NAMED_BASE, encoding="utf-8")
    path.write_text("name: over\nextends: base.yaml\n" + overlay, encoding="utf-8")
    return compose(path)


def test_a_step_is_put_after_before_or_instead_of_a_named_one_inside_a_phase_too(tmp_path: Path) -> None:
    tree = named(tmp_path, "turn+:\n  - {after: place, add: [{name: bonus, do: {effect: pass}}]}\n"
                           "  - {before: draw, add: [{name: upkeep, do: {effect: pass}}]}\n"
                           "  - {replace: clash, add: [{name: clash, clash: {table: other}}]}\n")
    assert steps(tree) == ["upkeep", "draw", "act[place, bonus, clash]"]
    assert tree["turn"][2]["steps"][2]["clash"] == {"table": "other"}


def test_a_named_step_and_a_phase_are_removed_and_a_setup_part_put_after_one_by_name(tmp_path: Path) -> None:
    tree = named(tmp_path, "turn-: [clash]\nsetup+: {after: deal, add: [{name: more, do: more()}]}\n")
    assert steps(tree) == ["draw", "act[place]"]
    assert [part["name"] for part in tree["setup"]] == ["deal", "more"]
    assert steps(named(tmp_path, "turn-: [act]\n")) == ["draw"]


def test_a_setup_part_is_replaced_or_removed_by_name(tmp_path: Path) -> None:
    tree = named(tmp_path, "setup+: {replace: deal, add: [{name: deal, do: fewer()}, {name: more, do: more()}]}\n")
    assert [(part["name"], part["do"]) for part in tree["setup"]] == [("deal", "fewer()"), ("more", "more()")]
    assert named(tmp_path, "setup-: [deal]\n")["setup"] == []


def test_an_unknown_name_is_refused_with_the_names_there_are(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as info:
        named(tmp_path, "turn+: {after: plaec, add: []}\n")
    assert "ruleset.yaml:3:16: 'turn' has no item named 'plaec' (names: draw, act, place, clash) (did you mean 'place'?)" in str(info.value)
    with pytest.raises(RulesetError, match=r"cannot remove 'nope' from 'turn': the base list does not have it, nor an item "
                                           r"named so \(names: draw, act, place, clash\)"):
        named(tmp_path, "turn-: [nope]\n")
    with pytest.raises(RulesetError, match=r"a change of 'turn' by name is \{after: NAME, add: \[...\]\}"):
        named(tmp_path, "turn+: {after: draw, before: draw, add: []}\n")


def test_a_name_this_file_removes_is_said_to_be_removed_here(tmp_path: Path) -> None:
    # removals act first: 'deal' is gone when 'setup+' looks for it, and the message says so, with the way to replace it
    with pytest.raises(RulesetError) as info:
        named(tmp_path, "setup-: [deal]\nsetup+: {after: deal, add: [{name: bag, do: bag()}]}\n")
    (problem,) = info.value.diagnostics
    assert str(problem.pos).endswith("ruleset.yaml:4:17")
    assert problem.message == "'setup' has no item named 'deal' any more: this file removes it with 'setup-' (at 3:10), " \
                              "and removals act first"
    assert problem.hint == "to put the new items where 'deal' was, write setup+: {replace: deal, add: [...]} and leave " \
                           "'deal' out of 'setup-'"


def test_a_misspelt_name_to_remove_gets_a_suggestion(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as info:
        named(tmp_path, "setup-: [dael]\n")
    (problem,) = info.value.diagnostics
    assert problem.message == "cannot remove 'dael' from 'setup': the base list does not have it, nor an item named so " \
                              "(names: deal)"
    assert problem.hint == "did you mean 'deal'?"


def test_a_built_in_base_without_names_has_its_steps_named_by_their_kind(tmp_path: Path) -> None:
    # was: "'turn' has no item named 'place': the items of the 'turn' of iconoclasm (a built-in ruleset) have no names"
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: over\nextends: iconoclasm\nturn+:\n  replace: place\n  add:\n"
                    "    - {place: {from: supply, face: single, touching: false}}\n    - {name: note, do: {effect: pass}}\n")
    turn = compose(path)["turn"]
    assert [next(k for k in step if k != "name") for step in turn] == ["switch_role", "place", "do", "form_groups"]
    assert turn[1]["place"]["touching"] is False
    path.write_text("name: over\nextends: connect-four\nturn-: [place]\nturn+: [{name: note, do: {effect: pass}}]\n")
    assert compose(path)["turn"] == [{"name": "note", "do": {"effect": "pass"}}]


def test_a_kind_several_unnamed_steps_share_names_none_of_them(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: over\nextends: iconica\nturn+:\n  after: statuses\n  add: [{name: note, do: {effect: pass}}]\n")
    with pytest.raises(RulesetError) as info:
        compose(path)
    (problem,) = info.value.diagnostics
    assert problem.message == "'turn' has 3 'statuses' steps, so 'statuses' does not say which: an unnamed step is " \
                              "named by its kind only when no other step of the 'turn' of iconica has it"
    assert problem.hint is not None and "give" not in problem.hint
    assert problem.hint.startswith("add to its end with 'turn+: [...]'") and "('turn: [...]' replaces it)" in problem.hint


def test_a_base_file_without_names_is_named_where_to_give_them(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("name: base\nturn:\n  - {draw: {from: deck, to: hand}}\n"
                                        "  - {draw: {from: deck, to: hand}}\n", encoding="utf-8")
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: over\nextends: base.yaml\nturn+: {after: draw, add: []}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        compose(path)
    (problem,) = info.value.diagnostics
    assert problem.message.startswith("'turn' has 2 'draw' steps, so 'draw' does not say which")
    assert problem.hint is not None and problem.hint.startswith("give them a 'name:' in base.yaml, or add to its end")
    (tmp_path / "base.yaml").write_text("name: base\nturn:\n  - {draw: {from: deck, to: hand}}\n", encoding="utf-8")
    path.write_text("name: over\nextends: base.yaml\nturn+: {after: drop, add: []}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"'turn' has no item named 'drop' \(names: draw\)"):
        compose(path)


def test_names_are_unique_in_a_turn() -> None:
    tree = "name: n\nplayers: [2]\nturn:\n  - {name: a, draw: {from: x, to: y}}\n  - {name: a, draw: {from: x, to: y}}\n"
    with pytest.raises(RulesetError, match=r"r.yaml:5:12: two steps \(or phases\) are named 'a': a name must be unique"):
        load_text_game(tree)


def load_text_game(text: str) -> object:
    from engine.compiling.builder import build_game

    return build_game(compose("r.yaml", text=text))


def test_the_encore_example_adds_a_round_and_replaces_a_step_in_a_few_lines() -> None:
    from engine.runner.scenario import run_scenario

    folder = Path(__file__).resolve().parents[1] / "docs" / "examples" / "tiles-encore"
    assert len((folder / "ruleset.yaml").read_text(encoding="utf-8").splitlines()) < 30
    for path in sorted((folder / "scenarios").glob("*.yaml")):
        result = run_scenario(path)
        assert result.passed, "\n".join(result.failures)

    from cli.explain import explain

    lines = explain(__import__("engine").load(folder))
    setup = lines[lines.index("Setup") + 1]
    assert setup.startswith("  deal: for each r in roles") and "; encore: for each r in roles" in setup
    assert "in a fixed order" in lines[lines.index("Turn") + 2]


def test_a_component_is_replaced_or_removed_by_its_id_and_listing_it_twice_says_how(tmp_path: Path) -> None:
    import engine

    path = tmp_path / "ruleset.yaml"
    aelin = ("{id: Aelin, count: 2, faction: Protectorate, race: Human, archetype: Healer, calling: Supportive, "
             "rank: Regular, health: 90, actions: {1: {name: Mend, do: 'heal(self, 10)'}}}")
    path.write_text(f"name: x\nextends: iconica\ncomponents:\n  character:\n    instances+: {{replace: Aelin, add: [{aelin}]}}\n",
                    encoding="utf-8")
    game = engine.load(path)
    assert game.compile_condition('all(c.health == 90 for c in characters where c.id == "Aelin")').test(game.new_state(players=2))
    path.write_text("name: x\nextends: iconica\ncomponents:\n  character:\n    instances-: [Aelin]\n", encoding="utf-8")
    assert "Aelin" not in engine.load(path).identical
    path.write_text(f"name: x\nextends: iconica\ncomponents:\n  character:\n    instances+: [{aelin}]\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    assert ("component 'Aelin' is listed twice (to change one a base defines, replace it by its id: "
            "instances+: {replace: Aelin, add: [...]}, or remove it: instances-: [Aelin])") in str(info.value)


def test_an_empty_mapping_over_a_base_mapping_is_refused_as_changing_nothing(tmp_path: Path) -> None:
    """'outcomes: {}' over the card game's clash table merged nothing, so every clash still flipped; validate said ok."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: calm\nextends: iconoclasm-cards\nclash_tables:\n  element-clash:\n    outcomes: {}\n")
    with pytest.raises(RulesetError) as info:
        compose(path)
    (problem,) = info.value.diagnostics
    assert (problem.pos.line, problem.pos.col) == (5, 5)
    assert problem.message == "'outcomes: {}' changes nothing: a mapping merges into the base's 'outcomes' key by key " \
                              "(to empty it, write 'outcomes: null'; to drop some of its keys, 'outcomes-: [Fire, Earth]')"
    path.write_text("name: calm\nextends: iconoclasm-cards\nclash_tables:\n  element-clash:\n    outcomes: null\n")
    assert compose(path)["clash_tables"]["element-clash"]["outcomes"] is None


def test_a_variant_written_again_is_noted_as_replacing_the_bases(tmp_path: Path) -> None:
    """A base's variant written again replaced it whole (its other options gone) with no word from validate or explain,
    though a status or function written again is noted."""
    from engine.runner.validate import notes_for_path

    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: iconoclasm-cards\nvariants:\n  small-grid:\n    description: six wide\n"
                    "    options: {grid_width: {default: 6}}\n", encoding="utf-8")
    notes = [d.headline() for d in notes_for_path(str(path))]
    assert len(notes) == 1, notes
    assert notes[0].startswith(f"{path}:4:3: variant 'small-grid' replaces the one from iconoclasm-cards (ruleset.yaml:")


def test_a_named_step_is_merged_with_one_setting_changed_and_the_rest_kept(tmp_path: Path) -> None:
    """Changing one setting of a step meant writing the whole step again in 'replace' (Iconoclasm's place step,
    with its only_triggering and if_none, for 'touching: false')."""
    tree = named(tmp_path, "turn+:\n  merge: place\n  with:\n    place: {face: choose}\n")
    assert steps(tree) == ["draw", "act[place, clash]"]
    assert tree["turn"][1]["steps"][0]["place"] == {"from": "hand", "face": "choose"}
    path = tmp_path / "loose.yaml"
    path.write_text("name: loose\nextends: iconoclasm\nturn+: {merge: place, with: {place: {touching: false}}}\n")
    place = compose(path)["turn"][1]["place"]
    assert place["touching"] is False and place["if_none"] == "end" and "only_triggering" in place
    with pytest.raises(RulesetError, match=r"or \{merge: NAME, with: \{...\}\}"):
        named(tmp_path, "turn+: {merge: place, add: [{name: x, do: {}}]}\n")


def test_instances_written_over_the_ones_of_included_files_name_those_files(tmp_path: Path) -> None:
    """A character file with 'instances:' among files adding theirs with 'instances+:' was noted as replacing the
    ones "from the base (a.yaml:3:5)": there is no base, and the list came from every file included before it."""
    from engine.core.compose import replacements

    (tmp_path / "cast").mkdir()
    for name, key in (("a", "instances+"), ("b", "instances+"), ("c", "instances")):
        (tmp_path / "cast" / f"{name}.yaml").write_text(f"components:\n  card:\n    {key}: [{name}]\n", encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text("name: mine\ninclude: [cast/]\n", encoding="utf-8")
    notes = [(str(note), Path(note.pos.file).name) for note in replacements(compose(tmp_path / "ruleset.yaml"))]
    first = tmp_path / "cast" / "a.yaml"
    assert notes == [(f"the instances of card replace the 2 written before it ({first}:3:5 and 1 more file): "
                      "write 'instances+:' to add to them instead", "c.yaml")]


def test_a_definition_written_over_an_included_files_names_that_file(tmp_path: Path) -> None:
    """A status defined again in a character file said it "replaces the one from the base (statuses.yaml:2:3)":
    there is no base, only the file included before it."""
    from engine.core.compose import replacements

    (tmp_path / "statuses.yaml").write_text("statuses:\n  Sting: {kind: minor}\n", encoding="utf-8")
    (tmp_path / "more.yaml").write_text("statuses:\n  Sting: {kind: major}\n", encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text("name: mine\ninclude: [statuses.yaml, more.yaml]\n", encoding="utf-8")
    notes = [str(note) for note in replacements(compose(tmp_path / "ruleset.yaml"))]
    assert notes == [f"status 'Sting' replaces the one written before it ({tmp_path / 'statuses.yaml'}:2:3)"]


def test_a_definition_written_again_in_a_file_an_overlay_includes_names_that_file_not_the_base(tmp_path: Path) -> None:
    """A ruleset extending a base and including two files of its own that define one status: the second was said to
    replace "the one from base (a.yaml:2:3)", though the base never defined it."""
    from engine.core.compose import replacements

    write(tmp_path, {"base/ruleset.yaml": "name: base\nstatuses:\n  Poison: {kind: minor}\n",
                     "over/a.yaml": "statuses:\n  Sting: {kind: minor}\n  Poison: {kind: major}\n",
                     "over/b.yaml": "statuses:\n  Sting: {kind: major}\n",
                     "over/ruleset.yaml": "name: over\nextends: ../base\ninclude: [a.yaml, b.yaml]\n"})
    with allowing([tmp_path]):
        notes = [str(note) for note in replacements(compose(tmp_path / "over" / "ruleset.yaml"))]
    assert notes == ["status 'Poison' replaces the one from base (ruleset.yaml:3:3)",
                     f"status 'Sting' replaces the one written before it ({tmp_path / 'over' / 'a.yaml'}:2:3)"]


@pytest.mark.parametrize("key", ["extends", "include", "include+", "variants"])
def test_a_variant_using_extends_include_or_variants_is_refused_at_the_key(tmp_path: Path, key: str) -> None:
    """Such a variant was accepted and changed nothing: the files are put together, and the variants read, before
    any variant is applied (``--variant bigger`` with ``extends: iconoclasm-cards`` played the tutorial tiles)."""
    value = {"extends": "iconoclasm-cards", "variants": "{inner: {description: x}}"}.get(key.rstrip("+"), "[more.yaml]")
    write(tmp_path, {"more.yaml": "options: {board_size: {default: 5}}\n",
                     "r.yaml": f"name: r\nextends: tutorial-tiles\nvariants:\n  bigger:\n    description: x\n    {key}: {value}\n"})
    err = error_of(tmp_path / "r.yaml", ("bigger",))
    assert str(err).startswith(f"{tmp_path / 'r.yaml'}:6:5: a variant cannot use '{key.rstrip('+')}' (variant 'bigger'): "
                               "it would change nothing"), err


def test_a_variant_name_holding_a_plus_is_refused_at_its_key(tmp_path: Path) -> None:
    """A variant named 'a+b' was accepted, but '--variant a+b' chooses the variants a and b: it could never be played
    ("unknown variant 'a' (known variants: a+b)")."""
    write(tmp_path, {"r.yaml": "name: r\nextends: tutorial-tiles\nvariants:\n  a+b:\n    description: x\n"})
    with allowing([tmp_path]), pytest.raises(RulesetError) as err:
        variant_names(tmp_path / "r.yaml")
    assert str(err.value).startswith(f"{tmp_path / 'r.yaml'}:4:3: variant name 'a+b' holds '+'"), err.value
