"""Lower layers see the game, the state and the compiler only through the protocols they are written against.

The core, the language and the mechanisms never import ``Game``, ``State`` or
the compiler's ``Builder``, which sit above them — not even for a type
annotation.  They annotate what they receive with protocols
(:mod:`engine.core.views`, :mod:`engine.lang.context`,
:mod:`engine.blocks.context`).  These tests hold both sides of that contract:
the real objects have every member the protocols declare, lower code asks
nothing of what it receives that its protocol leaves out, and a protocol
declares nothing lower code does not use (it stays narrow).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.blocks.context import BuildContext, GameView, StateView
from engine.compiling.builder import Builder
from engine.core.compose import compose
from engine.core.paths import find_ruleset
from engine.core.views import GameData, StateData
from engine.lang.context import CodeContext, CodeGame

ROOT = Path(__file__).resolve().parent.parent
LOWER = [path for folder in ("core", "lang", "blocks") for path in sorted((ROOT / "engine" / folder).rglob("*.py"))]
PROTOCOLS: dict[str, Any] = {p.__name__: p for p in (GameData, StateData, CodeGame, CodeContext, GameView, StateView, BuildContext)}
GAME_OF = {"StateData": "GameData", "StateView": "GameView", "CodeContext": "CodeGame", "BuildContext": "GameView"}
"""The protocol of what ``x.game`` is, for each protocol with a ``game``."""

pytestmark = pytest.mark.xdist_group("views")
"""The scans run in one worker of the run (--dist loadgroup), which parses the lower layers once for them all."""


def members(protocol: Any) -> set[str]:
    """The names a protocol declares, its bases' included.

    >>> sorted(members(CodeGame) - members(GameData))
    ['vocab']
    """
    names: set[str] = set()
    for cls in protocol.__mro__:
        if cls.__module__.startswith("engine."):
            names |= set(vars(cls).get("__annotations__", {}))
            names |= {n for n in vars(cls) if not n.startswith(("__", "_is_", "_abc"))}
    return names


def asked(paths: list[Path]) -> list[tuple[str, str, str]]:
    """Each (protocol, member, where) that code in ``paths`` reads of a parameter or variable annotated with a protocol.

    ``x.game.m`` counts as asking the protocol of ``x``'s game for ``m``, as does ``g.m`` after ``g = x.game``.
    """
    found = []
    for path in paths:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        for fn in ast.walk(parsed(path)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            typed = {a.arg: _protocol(a.annotation) for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
            typed = {name: p for name, p in typed.items() if p}
            for node in ast.walk(fn):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _protocol(node.annotation):
                    typed[node.target.id] = _protocol(node.annotation)
                elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                      and isinstance(node.value, ast.Attribute) and node.value.attr == "game"
                      and isinstance(node.value.value, ast.Name) and typed.get(node.value.value.id) in GAME_OF):
                    typed[node.targets[0].id] = GAME_OF[typed[node.value.value.id]]
            if not typed:
                continue
            for node in ast.walk(fn):
                if not isinstance(node, ast.Attribute):
                    continue
                where = f"{shown}:{node.lineno}"
                base = node.value
                if isinstance(base, ast.Name) and base.id in typed:
                    found.append((typed[base.id], node.attr, where))
                elif (isinstance(base, ast.Attribute) and base.attr == "game" and isinstance(base.value, ast.Name)
                      and typed.get(base.value.id) in GAME_OF):
                    found.append((GAME_OF[typed[base.value.id]], node.attr, where))
    return found


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of a module, read once per test process for the tests that scan it."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def asked_below() -> list[tuple[str, str, str]]:
    """What the lower layers' code asks of the protocols (:func:`asked` of ``LOWER``), scanned once per test process."""
    return asked(LOWER)


def _protocol(annotation: ast.expr | None) -> str | None:
    """The protocol an annotation names (``"StateView"``, ``StateView | None``), if any."""
    if annotation is None:
        return None
    text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) else ast.unparse(annotation)
    named = [name for name in re.findall(r"\w+", text) if name in PROTOCOLS]
    return named[0] if len(named) == 1 else None


def test_lower_code_asks_only_what_its_protocols_declare() -> None:
    unknown = [f"{where}: {protocol} declares no '{member}'" for protocol, member, where in asked_below()
               if member not in members(PROTOCOLS[protocol])]
    assert unknown == []


def test_every_member_a_protocol_declares_is_used_below() -> None:
    """A protocol names only what lower code uses (it is narrow): each member is read or set somewhere below."""
    used = {node.attr for path in LOWER if path.stem not in ("views", "context")
            for node in ast.walk(parsed(path)) if isinstance(node, ast.Attribute)}
    unused = sorted(f"{name}.{member}" for name, protocol in PROTOCOLS.items() for member in members(protocol) if member not in used)
    assert unused == []


def test_the_scan_sees_what_a_block_asks() -> None:
    asks = {(protocol, member) for protocol, member, _ in asked_below()}
    assert {("BuildContext", "zone_ref"), ("StateView", "note"), ("GameView", "parts"), ("StateData", "zones")} <= asks


def test_the_scan_catches_a_member_a_protocol_leaves_out(tmp_path: Path) -> None:
    block = tmp_path / "block.py"
    block.write_text('def f(b: "BuildContext", s: "StateView | None") -> None:\n    b.game.secret\n    g = s.game\n    g.hidden\n')
    assert [(p, m) for p, m, _ in asked([block]) if m not in members(PROTOCOLS[p])] == [("GameView", "secret"), ("GameView", "hidden")]


@pytest.fixture(scope="module")
def builder() -> Builder:
    b = Builder(compose(find_ruleset("tutorial-tiles")))
    b.build()
    return b


def _missing(obj: Any, protocol: Any) -> list[str]:
    return sorted(name for name in members(protocol) if not hasattr(obj, name))


def test_the_builder_is_a_build_context(builder: Builder) -> None:
    assert _missing(builder, BuildContext) == [] and isinstance(builder, BuildContext) and isinstance(builder, CodeContext)


def test_the_game_and_the_state_are_what_blocks_run_against() -> None:
    game = engine.load("tutorial-tiles")
    state = game.new_state(players=2, seed=1)
    assert (_missing(game, GameView), _missing(state, StateView)) == ([], [])
    assert isinstance(game, GameData) and isinstance(game, CodeGame) and isinstance(state, StateData)
