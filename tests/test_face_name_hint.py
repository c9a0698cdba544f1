"""A face's name written bare in code (``c.face == group``) is told to be text: an outsider's rule case wrote it so."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine

RULESET = """\
name: faces
players: [2]
components:
  tile:
    faces: [up, down]
    instances: [a, b]
turn:
  - do: {effect: pass}
end:
  when: count(c in tiles where c.face == down) == 0
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_bare_face_name_is_told_to_be_written_as_text(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    with pytest.raises(engine.RulesetError) as err:
        engine.load(tmp_path)
    assert [(d.message, d.hint) for d in err.value.diagnostics] == [
        ("unknown name 'down'", "'down' is a face of tile, and a face's name is text: write c.face == \"down\"")]


def test_the_face_as_text_is_read(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(RULESET.replace("c.face == down", 'c.face == "down"'))
    assert engine.load(tmp_path).new_state(players=2).is_terminal
