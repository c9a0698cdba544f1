"""The generated turn's source (engine/compiling/turn_code.py) and ``rulecraft compile --show`` under hostile names:
what a ruleset's folder or name says stays in a comment, never becomes code."""

from __future__ import annotations

import ast as python_ast
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.paths import rulesets_dir


def test_a_folder_name_never_becomes_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's comments name each step's file: a folder named with line breaks, quotes and code stays in its
    comment — the ruleset loads, nothing in the name runs, and ``compile --show`` prints valid Python (a ruleset's
    name in the header of the effect language's functions too)."""
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "ran"
    hostile = "x\n            open('ran', 'w')\n            #\r\u2028\"\"\"\\\n            raise SystemExit(3)\n#"
    folder = tmp_path / hostile
    folder.mkdir()
    text = (rulesets_dir() / "tic-tac-toe" / "ruleset.yaml").read_text("utf-8")
    (folder / "ruleset.yaml").write_text(text.replace("name: tic-tac-toe", 'name: "x\\nraise SystemExit(4)"'), "utf-8")
    game = engine.load(str(folder))
    assert game.turn is not None and not marker.exists()
    s = game.new_state(players=2, seed=1)
    s.play_randomly(random.Random(1).random, 100)
    assert s.is_terminal and not marker.exists()
    result = CliRunner().invoke(main, ["compile", str(folder), "--show"])
    assert result.exit_code == 0, result.output
    tree = python_ast.parse(result.output)
    assert [node.name for node in tree.body if isinstance(node, python_ast.FunctionDef)][-2:] == ["turn", "act"]
    assert not any(isinstance(node, (python_ast.Expr, python_ast.Raise)) and "open" in python_ast.unparse(node)
                   for node in python_ast.walk(tree))
