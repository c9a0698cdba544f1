"""Fuzzing multi-file rulesets: include graphs, extends chains and variant sets, written to a folder.

A shipped ruleset is cut into parts by its top-level keys; the parts are
spread over sub-folders and joined by a random include graph (a DAG; a file
may be included twice); an ``extends`` chain of bases in sub-folders may sit
on top, each changing one option; a set of variants may require and exclude
each other.  Then one hostile twist may be applied: an include cycle, a
missing file, or an include that leaves the folder (an absolute path, ``..``,
a symbolic link) towards a file holding a secret.

The oracle: a ruleset without a twist loads and means what its parts say
(the same content hash as the original when nothing is on top; the option
value and the variant order a model predicts otherwise); a twist is refused
with a RulesetError that names it, whose positions are in the generated
files, and whose text never holds the secret.  With the outside folder
allowed (``--allow``), the same ruleset loads.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from campaign import examples
from engine.core.confine import allowing
from engine.core.errors import RulesetError
from engine.core.paths import rulesets_dir

pytestmark = pytest.mark.fuzz

SOURCE = (rulesets_dir() / "tutorial-tiles" / "ruleset.yaml").read_text(encoding="utf-8")
SECRET = "secret-do-not-show-7d3f"
FOLDERS = ["", "parts", "parts/more", "other"]
TWISTS = ["none", "cycle", "missing", "absolute", "dotdot", "symlink"]


def top_level_blocks(text: str) -> list[str]:
    """The YAML text cut before every top-level key (comments dropped)."""
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    blocks: list[list[str]] = []
    for line in lines:
        if re.match(r"[A-Za-z_]", line):
            blocks.append([])
        if blocks:
            blocks[-1].append(line)
    return ["\n".join(block) + "\n" for block in blocks]


BLOCKS = top_level_blocks(SOURCE)


@dataclass
class Plan:
    """A generated multi-file ruleset, before it is written."""

    parts: list[tuple[str, list[int]]]  # (folder, block indexes) per part file; part 0 is the ruleset file
    includes: dict[int, list[int]]  # part -> the parts it includes (earlier parts include later ones)
    bases: list[int]  # board_size set by each base of the extends chain, outermost last
    top_size: int | None  # board_size set by the top ruleset over its bases
    variants: dict[str, tuple[int, list[str], list[str]]] = field(default_factory=dict)  # size, requires, conflicts
    chosen: list[str] = field(default_factory=list)
    twist: str = "none"


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    count = draw(st.integers(1, 5))
    owner = [draw(st.integers(0, count - 1)) for _ in BLOCKS]
    parts = [("" if i == 0 else draw(st.sampled_from(FOLDERS)), [b for b, o in enumerate(owner) if o == i]) for i in range(count)]
    includes: dict[int, list[int]] = {i: [] for i in range(count)}
    for child in range(1, count):
        includes[draw(st.integers(0, child - 1))].append(child)
        if draw(st.booleans()):  # a second path to the same file
            includes[draw(st.integers(0, child - 1))].append(child)
    bases = draw(st.lists(st.integers(3, 6), max_size=2))
    top_size = draw(st.none() | st.integers(3, 6)) if bases else None
    names = draw(st.lists(st.sampled_from(["quick", "wide", "odd", "even"]), unique=True, max_size=4))
    variants = {}
    for index, name in enumerate(names):
        requires = draw(st.lists(st.sampled_from(names), unique=True, max_size=2)) if index else []
        conflicts = draw(st.lists(st.sampled_from(names), unique=True, max_size=1))
        variants[name] = (draw(st.integers(3, 6)), [r for r in requires if r != name], [c for c in conflicts if c != name])
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=2)) if names else []
    twist = draw(st.sampled_from(TWISTS if count > 1 else ["none", "missing", "absolute", "dotdot", "symlink"]))
    return Plan(parts, includes, bases, top_size, variants, chosen, twist)


def part_path(root: Path, plan: Plan, index: int) -> Path:
    folder, _ = plan.parts[index]
    return root / "ruleset.yaml" if index == 0 else root / folder / f"part{index}.yaml"


def write_plan(folder: Path, plan: Plan) -> Path:
    """Write the files; the ruleset the user names (the top of the extends chain) is returned."""
    outside = folder.parent / f"{folder.name}-outside"
    outside.mkdir()
    (outside / "shared.yaml").write_text(f"description: {SECRET}\n", encoding="utf-8")
    base = folder
    for depth in range(len(plan.bases)):  # the innermost base holds the parts
        base = base / f"base{depth}"
    _write_parts(base, plan, outside)
    for depth in reversed(range(len(plan.bases))):
        ruleset = base.parent / "ruleset.yaml"
        size = plan.bases[depth] if depth else plan.top_size
        text = f"name: tutorial-tiles\nextends: {base.name}\n"
        if size is not None:
            text += f"options:\n  board_size: {{default: {size}}}\n"
        ruleset.write_text(text, encoding="utf-8")
        base = base.parent
    return folder / "ruleset.yaml"


def _write_parts(root: Path, plan: Plan, outside: Path) -> None:
    for index, (_, blocks) in enumerate(plan.parts):
        path = part_path(root, plan, index)
        path.parent.mkdir(parents=True, exist_ok=True)
        targets = [os.path.relpath(part_path(root, plan, child), path.parent) for child in plan.includes[index]]
        if index == 0:
            targets += _twisted(root, plan, outside, path)
        text = "".join(BLOCKS[b] for b in blocks)
        if index == 0 and plan.variants:
            text += "variants:\n" + "".join(
                f"  {name}:\n    requires: {requires}\n    conflicts: {conflicts}\n    options: {{board_size: {{default: {size}}}}}\n"
                for name, (size, requires, conflicts) in plan.variants.items()
            )
        if plan.twist == "cycle" and index == max(plan.includes, key=lambda i: (bool(plan.includes[i]), i)) and index:
            targets.append(os.path.relpath(part_path(root, plan, 0), path.parent))
        if targets:
            text = "include: [" + ", ".join(f"'{t}'" for t in targets) + "]\n" + text
        path.write_text(text, encoding="utf-8")
    if plan.twist == "cycle" and not any(plan.includes[i] for i in range(1, len(plan.parts))):
        last = part_path(root, plan, len(plan.parts) - 1)  # a leaf part includes the ruleset file
        target = os.path.relpath(part_path(root, plan, 0), last.parent)
        last.write_text(f"include: ['{target}']\n" + last.read_text(encoding="utf-8"), encoding="utf-8")


def _twisted(root: Path, plan: Plan, outside: Path, ruleset: Path) -> list[str]:
    if plan.twist == "missing":
        return ["parts/nowhere.yaml"]
    if plan.twist == "absolute":
        return [str(outside / "shared.yaml")]
    if plan.twist == "dotdot":
        return [os.path.relpath(outside / "shared.yaml", ruleset.parent)]
    if plan.twist == "symlink":
        (root / "link.yaml").symlink_to(outside / "shared.yaml")
        return ["link.yaml"]
    return []


def variant_order(plan: Plan) -> list[str]:
    """The model of ``requires``: each chosen variant after the ones it requires, each once."""
    order: list[str] = []

    def add(name: str, stack: tuple[str, ...]) -> None:
        if name in order:
            return
        if name in stack:
            raise ValueError("cycle")
        for required in plan.variants[name][1]:
            add(required, stack + (name,))
        order.append(name)

    for name in plan.chosen:
        add(name, ())
    return order


def expected_size(plan: Plan) -> int | None:
    """board_size after the extends chain and the variants, or None when the variants cannot be applied."""
    size = 3
    for written in [*plan.bases[1:], plan.top_size] if plan.bases else []:
        size = written if written is not None else size
    try:
        order = variant_order(plan)
    except ValueError:
        return None
    if any(other in order for name in order for other in plan.variants[name][2]):
        return None
    for name in order:
        size = plan.variants[name][0]
    return size


def assert_clean(err: RulesetError, folder: Path) -> None:
    """Every position is in a generated file (or none); the secret is never shown."""
    shown = err.format()
    assert SECRET not in shown and SECRET not in str(err)
    for diagnostic in err.diagnostics:
        if diagnostic.pos is not None and diagnostic.pos.file.startswith("/"):
            assert Path(diagnostic.pos.file).resolve().is_relative_to(folder.resolve()), diagnostic


@settings(max_examples=examples(40))
@given(plans())
def test_a_generated_multi_file_ruleset_loads_or_is_refused_by_name(plan: Plan) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "game"
        folder.mkdir()
        ruleset = write_plan(folder, plan)
        try:
            game = engine.load(str(ruleset), plan.chosen)
        except RulesetError as err:
            assert_clean(err, folder)
            text = str(err)
            if plan.twist == "cycle":
                assert "include cycle" in text, text
            elif plan.twist == "missing":
                assert "included file 'parts/nowhere.yaml' not found" in text, text
            elif plan.twist != "none":
                assert "is outside the folders it may be read from" in text, text
                if expected_size(plan) is not None:  # allowed, the outside file is read like any part
                    with allowing([folder.parent / "game-outside"]):
                        assert engine.load(str(ruleset), plan.chosen).options["board_size"] == expected_size(plan)
            else:
                assert expected_size(plan) is None, text
                assert "variant" in text, text
            return
        assert plan.twist == "none", f"the twist {plan.twist} was not refused"
        assert game.options["board_size"] == expected_size(plan)
        assert list(game.variants) == variant_order(plan)
        if not plan.bases and not plan.variants:
            assert game.content_hash == engine.load("tutorial-tiles").content_hash  # cutting changes nothing
