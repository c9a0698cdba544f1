"""A choice of one option is taken without asking, and the log has no line for it (nobody chose: the game's logs
stay as they were).  The views told nothing of it either: a player saw 'seat2 chooses right' with no word of the
road taken before it.  ``rulecraft play``, ``rulecraft replay`` and the web table now tell it with the move's lines,
where it was taken: ``seat2 chooses north (the only option)``; the log itself is unchanged."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from starlette.testclient import TestClient

import engine
from cli.main import main
from cli.web.app import create_app

FORCED = """\
name: forced
players: [2]
counters:
  picked: {}
turn:
  - do:
      effect: |
        let first = choose(t in ["north"], text = "a road")
        let second = choose(t in ["left", "right"], text = "a side")
        picked += 1
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: [1, 0]
"""

TOLD = "seat2 chooses north (the only option)"


def _ruleset(tmp_path: Path) -> Path:
    folder = tmp_path / "forced"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(FORCED, encoding="utf-8")
    return folder / "ruleset.yaml"


def test_the_log_has_no_line_for_a_choice_of_one_option(tmp_path: Path) -> None:
    s = engine.load(_ruleset(tmp_path)).new_state(players=2, seed=1, record=True)
    s.apply("choose left")
    assert s.log == ["seat1 chooses left", "picked: 0 -> 1"]


def test_play_and_replay_tell_it_where_it_was_taken(tmp_path: Path) -> None:
    path, saved = _ruleset(tmp_path), tmp_path / "game.json"
    played = CliRunner().invoke(main, ["play", str(path), "--players", "2", "--seed", "1", "--log", str(saved)],
                                input="choose left\n")
    assert played.exit_code == 0, played.output
    lines = [line.strip() for line in played.output.splitlines()]
    # the pick was the first thing of seat 2's turn: under its heading (a bot's turn that logs before its move)
    assert lines.index("picked: 0 -> 1") + 2 == lines.index("turn 2: seat 2") + 1 == lines.index(TOLD) < lines.index("seat2 chooses right")
    replayed = CliRunner().invoke(main, ["replay", str(saved)])
    lines = [line.strip() for line in replayed.output.splitlines()]
    # replay heads the turn as play does (it printed none)
    assert lines.index("picked: 0 -> 1") + 2 == lines.index("turn 2: seat 2") + 1 == lines.index(TOLD) == lines.index("2. seat 2: choose right") - 1


def test_the_web_table_tells_it_with_the_move(tmp_path: Path) -> None:
    path = _ruleset(tmp_path)
    client = TestClient(create_app(str(path.parent)), follow_redirects=False)
    table = client.get("/play/forced?players=2&seed=1&seat=2=human").headers["location"].rsplit("/", 1)[1]
    data = client.post(f"/api/tables/{table}/act", json={"action": "choose left"}).json()
    assert data["moves"][0]["lines"] == ["seat1 chooses left", "picked: 0 -> 1", TOLD]


def test_each_is_told_once_however_the_effect_is_run_again(tmp_path: Path) -> None:
    path = _ruleset(tmp_path)
    client = TestClient(create_app(str(path.parent)), follow_redirects=False)
    table = client.get("/play/forced?players=2&seed=1&seat=2=human").headers["location"].rsplit("/", 1)[1]
    client.post(f"/api/tables/{table}/act", json={"action": "choose left"})  # the effect is run again for the answer
    data = client.post(f"/api/tables/{table}/act", json={"action": "choose right"}).json()
    assert [line for move in data["moves"] for line in move["lines"]].count(TOLD) == 1
