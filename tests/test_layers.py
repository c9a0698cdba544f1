"""The engine's layers hold: no import goes up a layer, no modules import each other in a circle, cli/ uses the public API.

The layers and the public modules are the tables of "How the engine is
layered" in docs/api.md: this test reads them there, so the page and the
check cannot drift apart.  Every import counts — at the top of a module, inside
a function or a class, in a ``try``, and a type-only one (under ``if TYPE_CHECKING:``) too: lower code
names what higher layers hand it (the game, the state, the compiler) through protocols of its own
layer or below (see tests/test_views.py).

>>> parse_table("| a | `x.y` `z` | words |\\n| b | `w` | more |")
[('a', ['x.y', 'z']), ('b', ['w'])]
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"

@dataclass(frozen=True)
class Import:
    """One import of a module of ours: who imports what, where, and whether it only names types."""

    source: str  # the importing module
    target: str  # the module imported (or whose names are)
    names: tuple[str, ...]  # the names taken from it (empty for ``import x``)
    where: str  # file:line
    type_only: bool


def parse_table(text: str, column: int = 1) -> list[tuple[str, list[str]]]:
    """The rows of a markdown table: the first cell, and the `quoted` names of cell ``column``."""
    rows = []
    for line in text.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or set(cells[0]) <= {"-", " "} or cells[0] in ("layer", "module"):
            continue
        rows.append((cells[0], re.findall(r"`([\w.]+)`", cells[column])))
    return rows


def doc_section(marker: str) -> str:
    """The text between ``<!-- marker -->`` and ``<!-- /marker -->`` in docs/api.md."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n(.*?)<!-- /{marker} -->", text, re.S)
    assert found, f"docs/api.md has no <!-- {marker} --> table"
    return found.group(1)


def modules(root: Path, packages: tuple[str, ...] = ("engine", "cli")) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)
"""The nodes an import may be or be inside (a function, a class, an ``if``, a ``try`` and its handlers, a ``match``'s
cases): the scan walks these only, not the expressions that are most of a module's nodes (walking them took 6 s)."""


def imports(root: Path, known: dict[str, Path]) -> list[Import]:
    """Every import of a module in ``known`` made anywhere in the modules of ``known``."""
    found: list[Import] = []

    def target_of(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    def visit(module: str, path: Path, node: ast.AST, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, HOLDS_STATEMENTS):
                continue  # an expression, an argument, a name: no statement (so no import) inside
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for inner in child.body:
                    visit_one(module, path, inner, True)
                for inner in child.orelse:
                    visit_one(module, path, inner, type_only)
            else:
                visit_one(module, path, child, type_only)

    def visit_one(module: str, path: Path, node: ast.AST, type_only: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            where = f"{path.relative_to(root)}:{node.lineno}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = target_of(alias.name)
                if target is not None:
                    found.append(Import(module, target, (), where, type_only))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    found.append(Import(module, submodule, (), where, type_only))
                elif (target := target_of(base)) is not None:
                    found.append(Import(module, target, (alias.name,), where, type_only))
        visit(module, path, node, type_only)

    for module, path in known.items():
        visit(module, path, ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return found


def layer_of(module: str, layers: list[tuple[str, list[str]]]) -> int | None:
    """The index of the layer holding ``module``: the layer naming it or its most specific package."""
    best: tuple[int, int] | None = None
    for index, (_, names) in enumerate(layers):
        for name in names:
            if (module == name or module.startswith(name + ".")) and (best is None or len(name) > best[1]):
                best = (index, len(name))
    return None if best is None else best[0]


def upward(found: list[Import], layers: list[tuple[str, list[str]]]) -> list[str]:
    """Each import that goes to a higher layer, type-only ones included."""
    problems = []
    for imp in found:
        low, high = layer_of(imp.source, layers), layer_of(imp.target, layers)
        if low is None or high is None or high <= low:
            continue
        kind = "a type-only import of" if imp.type_only else "an import of"
        problems.append(f"{imp.where}: {kind} {imp.target} ({layers[high][0]}) in {imp.source} ({layers[low][0]})")
    return problems


def cycles(found: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (imports that run only; Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for imp in found:
        if not imp.type_only and imp.target != imp.source:
            graph.setdefault(imp.source, set()).add(imp.target)
            graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    result: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                result.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def outside_public_api(found: list[Import], public: list[str], exported: set[str]) -> list[str]:
    """Each import in cli/ of an engine module that is not public, or of a name the engine package does not export."""
    problems = []
    for imp in found:
        if not imp.source.startswith("cli") or not (imp.target == "engine" or imp.target.startswith("engine.")):
            continue
        if imp.target == "engine":
            hidden = [name for name in imp.names if name not in exported]
            if hidden:
                problems.append(f"{imp.where}: {imp.source} takes {', '.join(hidden)} from engine, which does not export it")
        elif not any(imp.target == name or imp.target.startswith(name + ".") for name in public):
            problems.append(f"{imp.where}: {imp.source} imports {imp.target}, which is not part of the public API")
    return problems


# ---------------------------------------------------------------- the engine as it is


LAYERS = parse_table(doc_section("layers"))
PUBLIC = [name for _, names in parse_table(doc_section("public"), column=0) for name in names]
KNOWN = modules(ROOT)


pytestmark = pytest.mark.xdist_group("layers")
"""The tests of the scan run in one worker of the run (--dist loadgroup), which reads the modules once for them all."""


@functools.cache
def found() -> list[Import]:
    """Every import among the engine's and the command line's modules, read once per test process, when a test
    first asks (not while the tests are collected: reading every module takes seconds, in each worker)."""
    return imports(ROOT, KNOWN)


def test_the_layers_are_the_documented_ones() -> None:
    assert [name for name, _ in LAYERS] == ["core", "language", "mechanisms", "model", "compiler", "runner", "api", "cli"]


def test_every_module_has_a_layer() -> None:
    assert [m for m in KNOWN if layer_of(m, LAYERS) is None] == []


def test_each_layer_is_a_folder() -> None:
    """A reader sees the layers in the folders: every layer below the api is whole packages, and only the package's own ``__init__`` sits at the top of ``engine/``."""
    for name, packages in LAYERS:
        if name in ("api", "cli"):
            continue
        assert all(KNOWN[p].name == "__init__.py" for p in packages), f"layer {name} names a single module: {packages}"
    assert [m for m in KNOWN if m.startswith("engine.") and m.count(".") == 1 and KNOWN[m].name != "__init__.py"] == []


def test_no_import_goes_up_a_layer() -> None:
    assert upward(found(), LAYERS) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert cycles(found()) == []


def test_the_command_line_uses_only_the_public_api() -> None:
    assert outside_public_api(found(), PUBLIC, set(engine.__all__)) == []


def test_the_public_modules_exist() -> None:
    assert [name for name in PUBLIC if name not in KNOWN] == []


def test_imports_inside_functions_count() -> None:
    inside = [imp for imp in found() if imp.source == "engine.model.game" and imp.target == "engine.model.state" and not imp.type_only]
    assert inside, "Game.new_state imports State inside the method; the scan must see it"


# ---------------------------------------------------------------- the checks catch what they should


def _tree(tmp_path: Path, files: dict[str, str]) -> tuple[dict[str, Path], list[Import]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    known = modules(tmp_path, ("engine", "cli"))
    return known, imports(tmp_path, known)


TOY_LAYERS = [("core", ["engine.low"]), ("game", ["engine.model.state"]), ("runner", ["engine.high"]), ("api", ["engine"]),
              ("cli", ["cli"])]


def test_an_import_inside_a_function_going_up_is_caught(tmp_path: Path) -> None:
    _, found = _tree(tmp_path, {
        "engine/__init__.py": "", "engine/high.py": "",
        "engine/low.py": "def f():\n    from engine import high\n    return high\n",
    })
    assert upward(found, TOY_LAYERS) == ["engine/low.py:2: an import of engine.high (runner) in engine.low (core)"]


def test_a_type_only_import_going_up_is_caught(tmp_path: Path) -> None:
    """Naming a higher layer's class only in annotations still ties the lower layer to it: lower code names a protocol."""
    _, found = _tree(tmp_path, {
        "engine/__init__.py": "", "engine/model/state.py": "class State: ...\n",
        "engine/low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.model.state import State\n",
    })
    assert upward(found, TOY_LAYERS) == ["engine/low.py:3: a type-only import of engine.model.state (game) in engine.low (core)"]


def test_a_circle_of_imports_is_caught_even_within_a_layer(tmp_path: Path) -> None:
    _, found = _tree(tmp_path, {
        "engine/__init__.py": "", "engine/a.py": "from . import b\n", "engine/b.py": "def f():\n    import engine.a\n",
        "engine/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine import a\n",
        "engine/d.py": "import engine.c\n",
    })
    assert cycles(found) == [["engine.a", "engine.b"]]


def test_the_command_line_reaching_inside_the_engine_is_caught(tmp_path: Path) -> None:
    _, found = _tree(tmp_path, {
        "engine/__init__.py": "", "engine/low.py": "", "engine/model/state.py": "",
        "cli/__init__.py": "", "cli/main.py": "from engine import load, secret\nfrom engine.model.state import State\nimport engine.low\n",
    })
    assert outside_public_api(found, ["engine.low"], {"load"}) == [
        "cli/main.py:1: cli.main takes secret from engine, which does not export it",
        "cli/main.py:2: cli.main imports engine.model.state, which is not part of the public API",
    ]
