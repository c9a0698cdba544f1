"""A problem that shows in a base ruleset but was caused by the file extending it is reported in that file."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.compiling.blame import blame_extension
from engine.core.errors import Diagnostic, RulesetError, SourcePos
from engine.runner.validate import validate_path


def _problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return [d.headline().replace(str(tmp_path) + "/", "") for d in validate_path(str(path))]


def test_the_change_that_caused_it_is_named(tmp_path: Path) -> None:
    found = _problems(tmp_path, "name: mine\nextends: tutorial-tiles\ntypes:\n  symbol: [Sun, Moon, Stars]\n")
    assert found and all(line.startswith("ruleset.yaml:4:23: unknown symbol 'Star'") for line in found)
    assert all("(which this file extends), because of this change (" in line for line in found)
    assert all("fix it here: undo this change, or override" in line for line in found)


def test_a_removed_item_is_named(tmp_path: Path) -> None:
    found = _problems(tmp_path, "name: mine\nextends: tutorial-tiles\nplayers: [2, 3, 4]\n")
    assert found == ["ruleset.yaml:3:1: roles.seating has no entry for 4 players -- at tutorial-tiles/ruleset.yaml:44:5, "
                     "in the 'roles' of tutorial-tiles (which this file extends), because of this change "
                     "(fix it here: undo this change, or override 'roles' in this file)"]


def test_without_a_named_change_it_points_at_the_extends_line(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\ntitle: Mine\n", encoding="utf-8")
    base = engine.core.paths.find_ruleset("tutorial-tiles")
    err = RulesetError([Diagnostic(SourcePos(str(base), 40, 3), "something went wrong here")])
    moved = blame_extension(path, err).diagnostics
    assert [(d.pos.line, d.pos.col) for d in moved] == [(2, 10)]
    assert moved[0].message.startswith("something went wrong here -- at tutorial-tiles/ruleset.yaml:40:3, in the ")
    assert moved[0].message.endswith("(which this file extends), after the changes this file makes")
    assert moved[0].hint is not None and moved[0].hint.startswith("fix it here: override ")


def test_a_problem_in_the_designers_own_file_stays_where_it_is(tmp_path: Path) -> None:
    found = _problems(tmp_path, "name: mine\nextends: tutorial-tiles\nend:\n  when: count(t in bord) == 0\n")
    assert found == ["ruleset.yaml:4:20: unknown name 'bord' (did you mean 'board'?)"]


def test_engine_load_reports_it_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: mine\nextends: tutorial-tiles\ntypes:\n  symbol: [Sun, Moon, Stars]\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(str(path))
    assert {(d.pos.line, d.pos.col) for d in info.value.diagnostics} == {(4, 23)}
    assert Path(info.value.diagnostics[0].pos.file).resolve() == path.resolve()


def test_a_value_the_message_names_beats_a_key_it_names(tmp_path: Path) -> None:
    found = _problems(tmp_path, "name: mine\nextends: tutorial-tiles\nplayers: [2]\ntypes:\n  symbol+: [Comet]\n")
    assert found and all(line.startswith("ruleset.yaml:5:13: ") for line in found), found


def test_a_player_count_without_an_outcome_is_reported_at_the_players_line(tmp_path: Path) -> None:
    found = _problems(tmp_path, "name: mine\nextends: iconoclasm-cards\nplayers: [2, 3, 4, 5]\n")
    assert ("ruleset.yaml:3:10: no 'scoring' or 'goals' for 5 players (add 5 to 'players' under 'scoring' "
            "(now [2, 3, 4]) or 'players' under 'goals' (now [1]))") in found, found


def test_a_number_the_message_names_is_weaker_than_a_key_it_names(tmp_path: Path) -> None:
    """A five-player overlay of the card game was told that the base's setup for 3 and for 1 players was broken by
    the 3 and the 1 of its new points per rank ([5, 4, 3, 2, 1]): a number named is blamed only when no key is."""
    found = _problems(tmp_path, "name: mine\nextends: iconoclasm-cards\nplayers: [5]\noptions:\n"
                                "  rank_points: {default: [5, 4, 3, 2, 1]}\nroles:\n  seating: {5: [1, 2, 3, 4, 5]}\n"
                                "scoring:\n  players: [5]\ngoals: null\nvariants-: [winner-takes-more]\n")
    setup = [line for line in found if "setup key" in line]
    assert sorted(line.split(" -- ")[0] for line in setup) == [
        "ruleset.yaml:3:1: setup key '1' must be 'default' or one of the player counts in 'players' ([5])",
        "ruleset.yaml:3:1: setup key '3' must be 'default' or one of the player counts in 'players' ([5])"], found
