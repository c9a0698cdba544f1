"""``strength(c)``: a contest's computed strength, readable by any code, and bounded when cards copy each other."""

from __future__ import annotations

import json
from pathlib import Path

from engine.runner.scenario import run_scenario

MIRRORS = """\
name: two-mirrors
extends: nine-domains
components:
  card:
    instances+:
      - id: mirror
        count: 2
        value: 0
        sign: plus
        special: true
        modifier: if target == self then sum(strength(o) for o in slot_facing(self)) else 0
"""


def scenario(tmp_path: Path, east: list[str], west: list[str], log: str, expect: str) -> list[str]:
    """Play one round of two-mirrors (the cards to left, middle, right); the scenario's failures (none: it passed)."""
    (tmp_path / "two-mirrors").mkdir()
    (tmp_path / "two-mirrors" / "ruleset.yaml").write_text(MIRRORS)
    path = tmp_path / "round.yaml"
    path.write_text(
        "ruleset: two-mirrors/ruleset.yaml\nplayers: 2\nposition:\n  zones:\n"
        f"    hand(East): {json.dumps(east)}\n    hand(West): {json.dumps(west)}\n"
        "    pile1: [volcano]\n    pile2: [lake]\n    pile3: [forest]\n"
        "actions:\n" + "".join(f"  - commit {c} to {s}\n" for c, s in zip(east + west, ["left", "middle", "right"] * 2))
        + f"expect:\n  - {expect}\nexpect_log:\n  - \"{log}\"\n")
    return run_scenario(path).failures


def test_two_mirrors_facing_each_other_read_each_others_base_strength(tmp_path: Path) -> None:
    # each counts the other one level deep, where the other's copy of it gives its base strength 0
    assert scenario(tmp_path, ["mirror", "1", "2"], ["mirror", "0", "3"],
                    "left: mirror (East) against mirror (West): strength 0 to 0; identical cards: nobody wins",
                    "count(d in discard where d.id == \"volcano\") == 1") == []


def test_a_mirror_lifted_by_a_neighbour_is_copied_with_its_lift(tmp_path: Path) -> None:
    # East's mirror gets +1 from the 1- beside it; West's mirror copies East's, one level deep (0+1: there,
    # East's copy of West counts West's base 0); East's copies West's 0+1 the same way (0+0+1: no loop)
    assert scenario(tmp_path, ["mirror", "1-", "2"], ["mirror", "0", "3"],
                    "left: mirror (East) against mirror (West): strength 0+1=1 to 0+1=1; identical cards: nobody wins",
                    "count(d in discard where d.id == \"volcano\") == 1") == []


def test_effects_read_the_strength_the_contest_computed(tmp_path: Path) -> None:
    # after the round the 3 lifted by the 1- still counts 5, and the mirror facing it 5 too
    assert scenario(tmp_path, ["0", "mirror", "2"], ["4", "3", "1-"],
                    "middle: mirror (East) against 3 (West): strength 0+5=5 to 3+2=5; a tie, and mirror has the greater bonus and wins",
                    "all(strength(c) == 5 for c in played(West) where c.id == \"3\") "
                    "and all(strength(c) == 5 for c in played(East) where c.id == \"mirror\")") == []
