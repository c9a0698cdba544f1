"""An attribute named as every component's own (``kind``, ``face``, ``cell``) is refused once, where it is declared.

A designer who declared ``attributes: {kind: text}`` and gave each card ``kind: suspect`` read the refusal, then one
more problem per card, each saying the card had no attribute 'kind' and to declare it as 'kind: TYPE' — the very
declaration just refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine

RULESET = """\
name: sorts
players: [2]
components:
  card:
    attributes: {kind: text}
    instances:
      - {id: Plum, kind: suspect}
      - {id: Rope, kind: weapon}
      - {id: Hall, kind: room}
turn:
  - do: {effect: pass}
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def problems(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "ruleset.yaml").write_text(text)
    with pytest.raises(engine.RulesetError) as err:
        engine.load(tmp_path)
    return [f"{d.pos.line}: {d.message} ({d.hint})" for d in err.value.diagnostics]


def test_a_refused_declaration_is_the_one_problem(tmp_path: Path) -> None:
    assert problems(tmp_path, RULESET) == [
        "5: 'kind' is already every component's kind (c.kind): an attribute cannot take that name (name it another way, e.g. 'my_kind')"]


def test_a_built_in_name_set_without_a_declaration_says_to_declare_another(tmp_path: Path) -> None:
    found = problems(tmp_path, RULESET.replace("    attributes: {kind: text}\n", ""))
    assert len(found) == 3 and found[0] == (
        "6: 'kind' is already every component's kind (c.kind): a component cannot set it (declare an attribute of another "
        "name, e.g. 'my_kind', under 'components: card: attributes:', and give it here)")


def test_a_keyword_for_a_name_says_it_is_one_and_what_to_write(tmp_path: Path) -> None:
    """A pick-up-and-deliver game's crates declared ``attributes: {from: cell, to: cell}`` and were told only that
    'from' "must be a single word (letters, digits, _) and not a keyword": a single word it is, and nothing said it
    was a keyword (Python's, which the effect language keeps free) nor what to write."""
    found = problems(tmp_path, RULESET.replace("{kind: text}", "{from: text}").replace("kind: ", "from: "))
    assert found[0] == ("5: attribute name 'from' must be a single word (letters, digits, _) and not a keyword ('from' is "
                        "a keyword (Python's, which code keeps free): write from_ or another word)")
