"""The README's commands say what they do: its validation example prints what it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click

from engine.runner.validate import validate_path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_validation_example_is_exact(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    old, new = re.search(r"sed -i 's/(.+?)/(.+?)/' broken/ruleset\.yaml", text).groups()
    shown = re.search(r"# broken/ruleset\.yaml:(\d+):(\d+): (.+)", text)
    ruleset = README.parent / "rulesets" / "iconoclasm-cards" / "ruleset.yaml"
    broken = tmp_path / "broken.yaml"
    broken.write_text(ruleset.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    diagnostics = validate_path(str(broken))
    assert len(diagnostics) == 1
    found = diagnostics[0]
    assert (found.pos.line, found.pos.col) == (int(shown.group(1)), int(shown.group(2)))
    assert found.headline().split(": ", 1)[1] == shown.group(3)


def test_ci_runs_exactly_the_readme_set_up_commands() -> None:
    """CI must set up a fresh machine the way a reader would: the README's set-up block, line for line."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## Set-up\n.*?```sh\n(.*?)```", text, re.S).group(1)
    readme_commands = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    ci_commands = [line.strip() for line in ci.splitlines()
                   if line.strip() and not line.startswith(("#", "set ", "cd "))]
    assert ci_commands == readme_commands


def test_the_readme_commands_name_real_commands_and_options() -> None:
    """A reader's first ten minutes type the README's commands as written: each ``rulecraft ...`` line of its shell
    blocks names a command there is, with options that command takes (a renamed option left the page stale)."""
    from cli.main import main

    text = README.read_text(encoding="utf-8")
    lines = [line.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()
             if line.strip().startswith("rulecraft ")]
    assert len(lines) >= 15
    for line in lines:
        words = shlex.split(line, comments=True)[1:]
        command: click.Command = main
        if not words[0].startswith("-"):
            assert words[0] in main.commands, line
            command, words = main.commands[words[0]], words[1:]
        options = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
        assert [word for word in words if word.startswith("-") and word.split("=")[0] not in options] == [], line
