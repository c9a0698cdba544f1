"""The plug-in contract (docs/blocks.md): a block declared outside the engine works with no edit to the core.

The page's example module — a section, a step, a slice with what each seat
hears of it, a function and a drawing — is declared here as a plug-in
would be (imported as a module of its own), its ruleset written where the
page says, and every ``>>>`` example of the page run in order. The other
tests use the same plug-in: the schema checks its section, saves keep its
slice, search plans on samples of it. The registries are put back after
each test, so no other test sees it.

>>> len(FENCES["python"]), len(FENCES["yaml"])
(1, 1)
"""

from __future__ import annotations

import ast
import doctest
import importlib
import json
import random
import re
import sys
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from engine.blocks.block import BLOCKS, PHASES, Block, declare
from engine.blocks.catalogue import all_blocks
from engine.blocks.steps import STEP_KINDS
from engine.compiling.loading import load_path
from engine.compiling.schema import schema_text
from engine.core.errors import RulesetError
from engine.core.information import determinize
from engine.core.slices import SLICES
from engine.runner.agents import make_agent

DOC = Path(__file__).resolve().parent.parent / "docs" / "blocks.md"
TEXT = DOC.read_text(encoding="utf-8")
FENCE = re.compile(r"^```(python|yaml|pycon)\n(.*?)^```", re.S | re.M)
FENCES: dict[str, list[tuple[int, str]]] = {}
for _found in FENCE.finditer(TEXT):
    FENCES.setdefault(_found.group(1), []).append((TEXT.count("\n", 0, _found.start(2)), _found.group(2)))
RULESET = "whisper-game/ruleset.yaml"


@contextmanager
def registries_kept() -> Iterator[None]:
    """Blocks, slices and step kinds declared inside are forgotten afterwards."""
    all_blocks()  # every engine block declared first: the registries are put back as the engine has them
    before = [(registry, dict(registry)) for registry in (BLOCKS, SLICES, STEP_KINDS)]
    try:
        yield
    finally:
        for registry, kept in before:
            registry.clear()
            registry.update(kept)


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """The page's block module, imported; its ruleset at ``whisper-game/ruleset.yaml`` under the working directory."""
    module = types.ModuleType("whispers")
    monkeypatch.setitem(sys.modules, "whispers", module)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "whisper-game").mkdir()
    (tmp_path / RULESET).write_text(FENCES["yaml"][0][1], encoding="utf-8")
    with registries_kept():
        line, code = FENCES["python"][0]
        exec(compile("\n" * line + code, str(DOC), "exec"), module.__dict__)
        yield module


def test_the_blocks_page_runs_as_shown(plugin: types.ModuleType) -> None:
    """Every ``>>>`` example of docs/blocks.md, in order in one namespace; failures name the page's lines."""
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict[str, Any] = {}
    failures: list[str] = []
    for line, block in FENCES["pycon"]:
        test = parser.get_doctest(block, namespace, "docs/blocks.md", str(DOC), line)
        test.globs = namespace
        runner.run(test, out=failures.append, clear_globs=False)
    assert runner.tries >= 10 and runner.failures == 0, "".join(failures)


def test_the_plug_in_is_gone_after_its_test() -> None:
    """The fixture puts the registries back: no other test sees the example block."""
    assert "whispers" not in all_blocks() and "whisper" not in STEP_KINDS and "whispers" not in SLICES
    assert "whispers" not in json.loads(schema_text("ruleset"))["properties"]


def test_the_schema_is_assembled_with_the_plug_in_s_keys(plugin: types.ModuleType) -> None:
    schema = json.loads(schema_text("ruleset"))
    assert schema["properties"]["whispers"] == plugin.BLOCK.keys["whispers"]
    assert "whisper" in schema["$defs"]["step"]["properties"]
    path = Path(RULESET)
    path.write_text(path.read_text(encoding="utf-8").replace("{highest: 3}", "{highest: 3, loudest: 2}"), encoding="utf-8")
    with pytest.raises(RulesetError, match=r"ruleset.yaml:6:\d+: .*loudest"):
        load_path(RULESET)


def test_the_section_compiles_into_a_part_under_the_block_s_name(plugin: types.ModuleType) -> None:
    path = Path(RULESET)
    path.write_text(path.read_text(encoding="utf-8").replace("{highest: 3}", "{highest: 5}"), encoding="utf-8")
    game = load_path(RULESET)
    assert game.parts["whispers"] == 5
    assert [str(a) for a in game.new_state(players=2, seed=1).legal_actions()][-1] == "whisper 5"


def test_the_slice_saves_loads_and_is_cloned_apart(plugin: types.ModuleType) -> None:
    game = load_path(RULESET)
    state = game.new_state(players=2, seed=1)
    state.apply("whisper 2")
    saved = state.to_json()
    assert saved["scratch"]["whispered"] == [2, 0] and saved["scratch"]["largest whisper"] == 3
    loaded = game.state_from_json(saved)
    assert loaded.slices["whispers"] == plugin.Whispers((2, 0), 3) and loaded.to_json() == saved
    twin = state.clone()
    twin.apply("whisper 1")
    assert state.slices["whispers"].numbers == (2, 0) and twin.slices["whispers"].numbers == (2, 1)


def test_a_seat_observes_only_what_the_slice_shows_it(plugin: types.ModuleType) -> None:
    state = load_path(RULESET).new_state(players=2, seed=1)
    state.apply("whisper 3")
    assert state.observation(1)["whispers"] == [3, 0]
    assert state.observation(2)["whispers"] == ["?", 0]
    assert "3" not in json.dumps(state.observation(2)["whispers"])


def test_determinization_redraws_what_the_seat_did_not_hear(plugin: types.ModuleType) -> None:
    state = load_path(RULESET).new_state(players=2, seed=1)
    state.apply("whisper 3")
    heard = {determinize(state, 2, random.Random(seed)).slices["whispers"].numbers[0] for seed in range(40)}
    assert heard == {1, 2, 3}  # the other seat's number is sampled, not read
    assert {determinize(state, 1, random.Random(seed)).slices["whispers"].numbers[0] for seed in range(10)} == {3}


def test_search_plays_the_plug_in_s_game_from_what_it_heard(plugin: types.ModuleType) -> None:
    state = load_path(RULESET).new_state(players=2, seed=1)
    state.apply("whisper 2")
    bot = make_agent("ismcts:60", seed=1)
    assert str(bot.choose(state)) == "whisper 3"  # the largest number always wins or ties


def test_the_terminal_draws_what_the_block_draws(plugin: types.ModuleType) -> None:
    from cli import zone_listing

    state = load_path(RULESET).new_state(players=2, seed=1)
    assert [line.plain for line in zone_listing.zones(state, 1)] == ["supply: pebble"]  # nothing whispered: nothing drawn
    state.apply("whisper 2")
    assert [line.plain for line in zone_listing.zones(state, 1)][-1] == "whispers: 2, 0"
    assert [line.plain for line in zone_listing.zones(state, None)][-1] == "whispers: 2, 0"
    assert zone_listing.zones(state, 1)[-1].spans[0].style == "bold"


def test_the_browser_shows_what_the_block_draws_as_the_seat_hears_it(plugin: types.ModuleType) -> None:
    from cli.web.view import table_html

    state = load_path(RULESET).new_state(players=2, seed=1)
    assert 'class="drawn"' not in table_html(state, 1)
    state.apply("whisper 2")
    assert '<ul class="drawn"><li>whispers: 2, 0</li></ul>' in table_html(state, 1)
    assert '<ul class="drawn"><li>whispers: ?, 0</li></ul>' in table_html(state, 2)


def test_build_hooks_run_at_their_phases_by_rank_then_name(plugin: types.ModuleType) -> None:
    """What each phase finds built (docs/blocks.md's table), and the order blocks run in within a phase."""
    seen: list[tuple[str, str, tuple[bool, bool, bool]]] = []

    def probe(name: str, phase: str) -> Any:
        def hook(b: Any) -> None:
            g = b.game
            functions = g.vocab.functions
            seen.append((phase, name, ("whisper_of" in functions, "loud" in functions, bool(g.steps))))
        return hook

    for name, rank in (("probe_b", 100), ("probe_a", 100), ("probe_first", 1)):
        declare(Block(name, **{phase: probe(name, phase) for phase in PHASES}, rank=rank))  # type: ignore[arg-type]
    path = Path(RULESET)
    path.write_text(path.read_text(encoding="utf-8") + "functions:\n  loud(int n): n + 1\n", encoding="utf-8")
    load_path(RULESET)
    assert [(phase, name) for phase, name, _ in seen] == [
        (phase, name) for phase in PHASES for name in ("probe_first", "probe_a", "probe_b")]
    found = {phase: built for phase, _, built in seen}
    assert found == {
        "declare": (False, False, False),  # no vocabulary yet (the blocks' functions come with it)
        "attach": (True, False, False),  # the vocabulary, not yet the ruleset's own functions
        "compile": (True, True, False),  # the ruleset's functions, not yet the turn
        "check": (True, True, True),  # the turn's steps
    }


def test_the_builder_names_no_block() -> None:
    """The builder imports no module that declares a block (the catalogue runs them all), and no string in it is a
    block's name: the blocks' sections are read by their hooks."""
    source = (Path(__file__).resolve().parent.parent / "engine" / "compiling" / "builder.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    blocks = {module for module in imported if module.startswith("engine.blocks.")}
    assert "engine.blocks.catalogue" in blocks
    assert not [module for module in blocks if hasattr(importlib.import_module(module), "BLOCK")]
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not strings & set(all_blocks())


def test_the_command_line_knows_the_block_when_imported_as_the_page_says(tmp_path: Path) -> None:
    """The page showed the block from Python only: a reader who saved it and typed `rulecraft validate whisper-game`
    was told of an unknown key with no word of how the command could know the block.  The page's commands, run as
    written beside the saved module, validate and play the ruleset; without the import the key is unknown."""
    import os
    import shlex
    import subprocess

    from click.testing import CliRunner

    from cli.main import main

    (tmp_path / "whisper-game").mkdir()
    (tmp_path / RULESET).write_text(FENCES["yaml"][0][1], encoding="utf-8")
    (tmp_path / "whispers.py").write_text(FENCES["python"][0][1], encoding="utf-8")
    commands = re.search(r"^```sh\n(.*?)^```", TEXT, re.S | re.M).group(1).splitlines()
    root = str(Path(__file__).resolve().parent.parent)
    for command, answer, shown in zip(commands, ["", "2\n"], ["ok: whisper-game\n", "whispers: 2, "]):
        words = shlex.split(command)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, words[0].removeprefix("PYTHONPATH=")]))
        done = subprocess.run(words[1:], cwd=tmp_path, env=env, input=answer, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0 and shown in done.stdout and "Traceback" not in done.stderr, done
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "ruleset.yaml").write_text(FENCES["yaml"][0][1], encoding="utf-8")
    told = CliRunner().invoke(main, ["validate", str(bare)])
    assert "unknown key 'whispers' in the top level" in told.output, told.output
