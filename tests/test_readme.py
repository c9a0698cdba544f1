"""The README's commands say what they do: its validation example prints what it shows."""

from __future__ import annotations

import re
from pathlib import Path

from engine.validate import validate_path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_validation_example_is_exact(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    old, new = re.search(r"sed -i 's/(.+?)/(.+?)/' /tmp/broken\.yaml", text).groups()
    shown = re.search(r"# /tmp/broken\.yaml:(\d+):(\d+): (.+)", text)
    ruleset = README.parent / "rulesets" / "iconoclasm-cards" / "ruleset.yaml"
    broken = tmp_path / "broken.yaml"
    broken.write_text(ruleset.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    diagnostics = validate_path(str(broken))
    assert len(diagnostics) == 1
    found = diagnostics[0]
    assert (found.pos.line, found.pos.col) == (int(shown.group(1)), int(shown.group(2)))
    assert found.headline().split(": ", 1)[1] == shown.group(3)
