"""A component's other name (``also:``) that is also a word the actions are written with: ``at``, ``place``, a cell.

Actions were read with every word that is an other name written as its id first, so a mark ``O`` also written
``at`` made ``place X at 0,0`` read ``place X O 0,0``: the ruleset validated and simulated, but no action could be
typed, and ``rulecraft play --log`` lost the game at its end (the log is sealed by reading its actions again:
``action 1 'place X at 0,0' cannot be replayed``).  A text legal as written is now read so first; the log, saves and
legal actions write ids, which read as they did.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.model.state import State
from hostile_cli import rulecraft_here as rulecraft

TIC_TAC_TOE = (Path(engine.__file__).parents[1] / "rulesets" / "tic-tac-toe" / "ruleset.yaml").read_text()


def written(tmp_path: Path, other: str) -> Path:
    """Tic-tac-toe whose mark O is also written ``other``."""
    text = TIC_TAC_TOE.replace("{id: O, mark: O, count: 4}", f"{{id: O, mark: O, count: 4, also: ['{other}']}}")
    assert text != TIC_TAC_TOE
    (tmp_path / "ruleset.yaml").write_text(text)
    return tmp_path


@pytest.mark.parametrize("other", ["at", "place", "0,0"])
def test_a_game_logged_with_such_an_other_name_is_kept_and_replays(tmp_path: Path, other: str) -> None:
    folder = written(tmp_path, other)
    log = tmp_path / "game.json"
    played = rulecraft("play", str(folder), "--seat", "1=random", "--seed", "3", "--log", str(log))
    assert played.code == 0 and "Traceback" not in played.text, played.text
    assert json.loads(log.read_text())["actions"][0].startswith("place X at ")
    replayed = rulecraft("replay", str(log))
    assert replayed.code == 0 and "wins" in replayed.text, replayed.text


@pytest.mark.parametrize("other", ["at", "place", "0,0"])
def test_every_legal_action_reads_as_itself(tmp_path: Path, other: str) -> None:
    state = engine.load(written(tmp_path, other)).new_state(players=2, seed=1)
    while not state.is_terminal:
        actions = state.legal_actions()
        for action in actions:
            assert state.parse_action(str(action)) == action
        state.apply(str(actions[len(actions) // 2]))


def test_an_other_name_still_names_its_component_where_it_is_no_word_of_the_action(tmp_path: Path) -> None:
    state = engine.load(written(tmp_path, "nought")).new_state(players=2, seed=1, record=True)
    state.apply("place X at 0,0")
    state.apply("place nought at 1,1")
    assert state.history == ["place X at 0,0", "place O at 1,1"]


def test_a_refusal_with_an_other_name_quotes_the_action_as_typed_and_changes_nothing(tmp_path: Path) -> None:
    state: State = engine.load(written(tmp_path, "at")).new_state(players=2, seed=1)
    before = state.to_json()
    with pytest.raises(engine.IllegalActionError, match=r"^'place at at 1,1' is not a placement"):
        state.apply("place at at 1,1")
    assert state.to_json() == before
