"""Blocks as plug-ins: each declares its schema keys and functions, compiles into game.parts, keeps its work in a typed slice."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

import engine
from engine.blocks.catalogue import all_blocks
from engine.compiling.vocabulary import ENGINE_FUNCTIONS
from engine.core.errors import RulesetError
from engine.lang.functions import by_name
from engine.model.savefile import SaveError, position_hash


def test_block_functions_are_not_among_those_every_ruleset_sees() -> None:
    """The functions every ruleset may call are the language's and the engine's own; each block function belongs to one block."""
    offered = [fn.name for block in all_blocks().values() for fn in block.functions]
    assert {"damage", "give", "strength", "slot_of", "delay"} <= set(offered)
    assert len(offered) == len(set(offered)) and not set(offered) & set(by_name(ENGINE_FUNCTIONS))


@pytest.mark.parametrize(("ruleset", "sees", "does_not_see"), [
    ("tutorial-tiles", set(), {"damage", "give", "strength", "slot_of", "delay"}),
    ("nine-domains", {"strength", "slot_of", "slot_facing"}, {"damage", "give", "delay"}),
    ("iconica", {"damage", "heal", "give", "dispel", "delay"}, {"strength", "slot_of"}),
])
def test_a_ruleset_sees_the_functions_of_the_blocks_it_uses(ruleset: str, sees: set[str], does_not_see: set[str]) -> None:
    functions = engine.load(ruleset).vocab.functions
    assert sees <= set(functions)
    assert not does_not_see & set(functions)
    assert set(by_name(ENGINE_FUNCTIONS)) <= set(functions)  # the language's and the engine's own functions are everywhere


def test_calling_a_function_of_an_unused_block_names_the_block_to_declare() -> None:
    game = engine.load("tutorial-tiles")
    with pytest.raises(RulesetError) as caught:
        game.compile_condition("slot_of(first(c in supply)) == 1")
    (problem,) = caught.value.diagnostics
    assert problem.message == "unknown function 'slot_of'"
    assert problem.hint == "slot_of() comes with the slots block: it needs a 'slots:' section in the ruleset"


def test_a_step_block_is_used_through_its_step() -> None:
    game = engine.load("iconoclasm-cards")
    with pytest.raises(RulesetError, match=r"strength\(\) comes with the contest block: it needs a 'contest' step in the turn"):
        game.compile_condition("strength(first(c in supply)) > 0")


def test_a_misspelt_function_still_gets_a_did_you_mean() -> None:
    with pytest.raises(RulesetError, match=r"unknown function 'damag' \(did you mean 'damage'\?\)"):
        engine.load("iconica").compile_condition("damag(first(c in supply), 1) == none")


def test_every_block_function_is_reserved_in_every_ruleset(tmp_path: Path) -> None:
    """A name may not be a block function's, even in a ruleset that does not use the block (it may later)."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: reserved\nextends: tutorial-tiles\noptions: {damage: 3}\n")
    with pytest.raises(RulesetError, match="the name .damage. is already a built-in function"):
        engine.load(str(path))


def test_game_has_no_field_named_after_a_block() -> None:
    """What a block compiles is kept under its name in game.parts, never in a field of Game."""
    fields = {f.name for f in dataclasses.fields(engine.Game)}
    blocks = all_blocks()
    named = set(blocks) | {key for block in blocks.values() for key in block.keys}
    assert not fields & named


@pytest.mark.parametrize(("ruleset", "parts"), [
    ("iconica", {"meter", "statuses"}),
    ("nine-domains", {"slots", "contest"}),
    ("iconoclasm", {"majority", "patterns"}),
])
def test_a_block_s_compiled_part_is_kept_under_its_name(ruleset: str, parts: set[str]) -> None:
    game = engine.load(ruleset)
    assert parts <= {name for name, part in game.parts.items() if part}
    assert set(game.parts) <= set(all_blocks())


# ---------------------------------------------------------------- slices of the state

SAVES = Path(__file__).parent / "data" / "saves"
SAVED_WITH = {"iconoclasm-cards": ("chain-reactions",)}  # the variants the saves were played with


@pytest.mark.parametrize("name", sorted(p.stem for p in SAVES.glob("*.json")))
def test_a_save_written_before_slices_loads_and_writes_the_same_position(name: str) -> None:
    """Saves from before typed slices (every block's work in one untyped mapping) load, with the same checksum and choices."""
    data = json.loads((SAVES / f"{name}.json").read_text(encoding="utf-8"))
    game = engine.load(name, variant="+".join(SAVED_WITH.get(name, ())) or None)
    data["content_hash"] = game.content_hash  # identity, outside the checksum: the ruleset may have changed since
    state = game.state_from_json(data)
    assert state.to_json()["checksum"] == data["checksum"]
    assert [str(a) for a in state.legal_actions()] == (SAVES / f"{name}.next").read_text(encoding="utf-8").split("\n")[:-1]


def test_a_block_s_slice_is_typed_and_a_clone_owns_its_own() -> None:
    data = json.loads((SAVES / "iconoclasm.json").read_text(encoding="utf-8"))
    game = engine.load("iconoclasm")
    data["content_hash"] = game.content_hash
    state = game.state_from_json(data)
    work = state.slices["groups"]
    assert work.forming == ((-3, 1), (-3, 0)) and work.linking == ((-3, 1),) and work.clashes == ()
    clone = state.clone()
    clone.apply(clone.legal_actions()[0])
    assert state.slices["groups"] is work and clone.slices.get("groups") != work


def test_every_slice_saves_under_keys_of_its_own() -> None:
    from engine.core.slices import SLICES

    keys = [key for cls in SLICES.values() for key in cls.saved]
    assert len(keys) == len(set(keys))
    assert {"clash", "groups", "meter", "casting", "chance", "hooks"} <= set(SLICES)


def test_no_untyped_mapping_is_left() -> None:
    """Blocks keep their work in typed slices: the state has no untyped mapping, and the word is left only as the
    key saves have always written the slices under."""
    root = Path(engine.__file__).parent
    users = {str(path.relative_to(root.parent)) for path in root.rglob("*.py")
             if re.search(r"\bscratch\b", path.read_text(encoding="utf-8"))}
    assert users == {"engine/model/savefile.py"}
    assert re.findall(r"\bscratch\b", (root / "model" / "savefile.py").read_text(encoding="utf-8")) == ["scratch"]
    assert not hasattr(engine.load("iconica").new_state(players=2), "scratch")


def test_a_save_keeping_work_no_block_keeps_is_refused() -> None:
    game = engine.load("iconica")
    data = game.new_state(players=2, seed=1).to_json()
    data["scratch"]["turn before"] = 1
    data["checksum"] = position_hash(data)
    with pytest.raises(SaveError, match="keeps work no block keeps: 'turn before'"):
        game.state_from_json(data)
