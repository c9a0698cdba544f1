"""Forged saves: a stranger edits a saved state and works its checksum out again (it is no secret), or edits a log.

Whatever numbers a forged save carries, it is refused unless a game of its ruleset could hold them, with the field
named (and the file, when given); the data read is left as it was.  Saves of real games still load.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

import engine
from engine.model.savefile import CHECKSUM, SaveError, position_hash
from engine.core.kept_frontier import frontier_of
from hostile_cli import assert_refused, rulecraft_here

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def forged(data: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """``data`` edited by ``edit``, with its checksum worked out again as a forger would."""
    data = copy.deepcopy(data)
    edit(data)
    data[CHECKSUM] = position_hash(data)
    return data


def played(game: engine.Game, actions: int, players: int = 2, seed: int = 3) -> engine.State:
    s = game.new_state(players=players, seed=seed)
    for _ in range(actions):
        s.play(0)
    return s


def refused(game: engine.Game, data: dict[str, Any], where: str | None = None) -> str:
    """The message a forged save is refused with; the data read is not changed."""
    before = copy.deepcopy(data)
    with pytest.raises(SaveError) as caught:
        game.state_from_json(data, where=where) if where else game.state_from_json(data)
    assert data == before
    return str(caught.value)


def setitem(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.__setitem__(key, value)


def counter(index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["counters"].__setitem__(index, value)


@pytest.mark.parametrize(("edit", "said"), [
    (setitem("turn_number", -5), "the saved turn_number is -5: it is a whole number from 1 to 200"),
    (setitem("turn_number", 0), "the saved turn_number is 0: it is a whole number from 1 to 200"),
    (setitem("turn_number", 201), "the saved turn_number is 201: it is a whole number from 1 to 200"),
    (setitem("turn_number", 10 ** 200), "the saved turn_number is a number of more than 100 digits"),
    (counter(0, 10 ** 200), "the saved counters[0] is a number of more than 100 digits"),
    (counter(0, -3), "the saved counter renown(Amber) is -3: it is a whole number of at least 0 (every change of a "
                     "counter is kept within its min and max)"),
    (lambda data: data["scratch"].__setitem__("decided", 7), "the saved scratch.decided is 7: it is a whole number "
                                                             "from 1 to 6"),
    (setitem("rng", str(2 ** 64)), "the saved rng is 18446744073709551616: it is a whole number from 0 to "),
    (setitem("rng", "-1"), "the saved rng is -1: it is a whole number from 0 to 18446744073709551615"),
    (lambda data: data["board"][0].__setitem__(0, 10 ** 150), "the saved board[0][0] is a number of more than 100 "
                                                              "digits"),
])
def test_a_forged_number_is_refused_naming_its_field(edit: Callable[[dict[str, Any]], None], said: str) -> None:
    """Each of these loaded before (the checksum worked out again, the probe playing on without a crash)."""
    game = engine.load("hex-glyphs")
    data = played(game, 6).to_json()
    assert data["turn_number"] == 6 and data["scratch"]["decided"] == 5 and data["counters"][0] == 0
    assert said in refused(game, forged(data, edit))


def test_the_file_is_named_when_given() -> None:
    game = engine.load("hex-glyphs")
    data = forged(played(game, 6).to_json(), setitem("turn_number", -5))
    assert refused(game, data, where="saved.json").startswith("saved.json: the saved turn_number is -5")


def test_a_counter_past_its_fixed_max_is_refused_and_a_bound_read_from_play_is_not_assumed() -> None:
    """banner-clash's might is kept within 0 and vigour (an option: 5); a counter whose bound reads the position
    (iconica's health, max self.health) is not judged by it."""
    game = engine.load("banner-clash")
    data = played(game, 2).to_json()
    spec = game.counters["might"]
    assert spec.fixed_range() == (0, 5)
    assert "is 6: it is a whole number from 0 to 5" in refused(game, forged(data, counter(spec.offset, 6)))
    assert engine.load("iconica").counters["health"].fixed_range() == (0, None)


def _with_piece_at(game: engine.Game, cell: tuple[int, int]) -> Callable[[dict[str, Any]], None]:
    """Move the last piece put on the board to ``cell``, the frontier worked out again to match."""
    def edit(data: dict[str, Any]) -> None:
        data["board"][-1][0:2] = list(cell)
        grid = {(x, y): c for x, y, c in data["board"]}
        data["frontier"] = [list(c) for c in frontier_of(grid, game.grid.neighbours)]
    return edit


@pytest.mark.parametrize(("ruleset", "cell", "said"), [
    ("iconoclasm-cards", (10 ** 9, 10 ** 9), "cell 1000000000,1000000000 is out of this growing board's reach: its "
                                             "first piece goes at 0,0 and each next one beside another"),
    ("iconoclasm-cards", (-6, 0), "cells -6,0 and 1,0 take the board past its limits (at most 7 wide and 7 tall)"),
    (EXAMPLES / "dominoes", (500, 0), "cell 500,0 is out of this growing board's reach"),
])
def test_a_piece_out_of_a_growing_boards_reach_is_refused(ruleset: Any, cell: tuple[int, int], said: str) -> None:
    """A growing board has no edges, so 'a saved piece lies off the board' never held: a piece at 10**9,10**9 was
    refused only when the probe happened to find nothing to play ('its player has nothing to decide'), and on
    dominoes (no max_width) a tile at 500,0 loaded."""
    game = engine.load(ruleset)
    data = played(game, 3).to_json()
    assert len(data["board"]) >= 2
    message = refused(game, forged(data, _with_piece_at(game, cell)))
    assert "the saved board has a piece no game puts there: " + said in message, message


@pytest.mark.parametrize("ruleset", ["hex-glyphs", "banner-clash", "spell-cycles", "kuhn-poker", "iconoclasm-cards",
                                     "tutorial-tiles", "sealed-tiles", EXAMPLES / "dominoes"])
def test_saves_of_random_games_still_load(ruleset: Any) -> None:
    """The ranges are what games keep: every position of random games loads (their counters at their bounds too)."""
    game = engine.load(ruleset)
    for seed in range(2):
        rng, s = random.Random(seed), game.new_state(players=game.player_counts[0], seed=seed)
        for n in range(150):
            if s.is_terminal:
                break
            if n % 5 == 0:
                assert game.state_from_json(s.to_json()) == s
            s.play(rng.randrange(len(s.legal_actions())))
        assert game.state_from_json(s.to_json()) == s


def test_a_log_for_a_count_of_players_the_ruleset_has_not_names_the_file_and_field(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"ruleset": "tic-tac-toe", "players": -2, "seed": 1, "actions": []}))
    for command in (["replay", str(log)], ["play", "--load", str(log)]):
        assert_refused(rulecraft_here(*command), f"{log}: 'players' is -2, but tic-tac-toe is played by 2 players")


@pytest.mark.parametrize(("value", "said"), [
    ("[1, *a]", "set_options['rank_points'] (column 5): alias '*a' refers to no anchor defined before it"),
    ("!!python/object/apply:os.system [id]", "set_options['rank_points']: YAML tag '!!python/object/apply:os.system' is "
                                             "not allowed"),
])
def test_an_option_a_log_sets_that_is_no_yaml_value_names_the_log(tmp_path: Path, value: str, said: str) -> None:
    """Refused at a place in the option's value, it was told without the log's name, as if a ruleset's file had it."""
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"ruleset": "tutorial-tiles", "players": 2, "seed": 1, "actions": [],
                               "set_options": {"rank_points": value}}))
    for command in (["replay", str(log)], ["play", "--load", str(log)]):
        assert_refused(rulecraft_here(*command), f"{log}: the variants and options the game log names: {said}")


FAR = """\
name: far
players: [2]
types: {side: [A, B]}
components:
  stone:
    attributes: {side: side}
    instances: [{id: S, side: A, count: 3}]
board: {kind: square-grid, adjacency: orthogonal}
roles: {of: side, seating: {2: [1, 2]}}
options:
  far: {default: 2}
setup: |
  place(first(x in stones), (0, 0))
  place(first(x in stones where x.cell == none), (far, 0))
turn:
  - do:
      effect: pass
end:
  when: turn > 3
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_code_places_no_piece_beyond_the_reach_saves_are_held_to(tmp_path: Path) -> None:
    """place() on a growing board checked only its limits (none here), so a ruleset's code could put a piece where no
    listed action, observation or save reaches; within reach, a piece touching none is a position code can make."""
    (tmp_path / "ruleset.yaml").write_text(FAR, encoding="utf-8")
    game = engine.load(tmp_path / "ruleset.yaml")
    s = game.new_state(players=2, seed=1)
    assert sorted(s.grid) == [(0, 0), (2, 0)] and game.state_from_json(s.to_json()) == s
    with pytest.raises(engine.RulesetError, match=r"14:3: setting up 2 players fails: place\(\) onto \(50, 0\): cell 50,0 "
                                                  r"is out of this growing board's reach: .* with 3 components a piece "
                                                  r"stands at most 2 across"):
        engine.load(tmp_path / "ruleset.yaml", set_options={"far": "50"})


def _with_work(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["scratch"].__setitem__(key, value)


@pytest.mark.parametrize(("key", "value", "said"), [
    ("defeats", [[99999, None, "action"]], "'defeats' holds 99999, which is not one of the game's components"),
    ("defeats", [[-1, None, "action"]], "'defeats' holds -1, which is not one of the game's components"),
    ("defeats", [[True, None, "action"]], "'defeats' holds True, which is not one of the game's components"),
    ("defeats", [[1]], "'defeats' holds (1,), which is not a record of 3"),
    ("defeats", "zz", "'defeats' holds 'zz', which is not a list"),
    ("defeats", [[1, 2, 3]], "'defeats' holds 3, which is not a text"),
    ("hits", [[1, "action", 5]], "'hits' holds (1, 'action', 5), which is not a record of 2"),
    ("meter depth", "deep", "'meter depth' holds 'deep', which is not a whole number"),
    ("placed", 10 ** 6, "'placed' holds 1000000, which is not one of the game's components"),
])
def test_a_blocks_work_of_the_wrong_shape_is_refused_naming_its_key(key: str, value: Any, said: str) -> None:
    """A block's saved work edited to hold what its fields cannot (a component the game does not have, a record of
    the wrong size, a text for a number) was loaded and failed moves later (`not enough values to unpack`) or played
    on with it; each field's declared type is checked when the save is read."""
    game = engine.load("iconica")
    s, rng = game.new_state(players=2, seed=3), random.Random(1)
    while not s.slices.get("meter", ()) or not s.slices["meter"].defeats:  # until a character has fallen
        s.play(rng.randrange(len(s.legal_actions())))
    data = s.to_json()
    assert game.state_from_json(data) == s  # real work loads
    message = refused(game, forged(data, _with_work(key, value)))
    assert message == "the saved work does not fit this game: " + said, message


def test_every_kind_of_saved_work_says_what_its_fields_hold() -> None:
    """The check reads each slice kind's field annotations: every kind's must be readable when a save is loaded."""
    from engine.core.slice_shapes import _hints
    from engine.core.slices import SLICES

    for name in engine.builtin_names():
        engine.load(name)  # registers every block's kinds
    for cls in SLICES.values():
        assert set(_hints(cls)) == set(cls._fields), cls


@pytest.mark.parametrize(("field", "value"), [("env", "x"), ("env", None), ("env", 1.5), ("tape", None), ("tape", {}),
                                              ("dice", ["x"]), ("seat", True), ("labels", [1])])
def test_a_forged_pending_choice_of_another_shape_is_refused(field: str, value: Any) -> None:
    """A save waiting in an effect's choice (the light trails' question where a rider goes) whose locals or answers
    were forged into something else failed inside the replay of the effect: TypeError, IndexError."""
    game = engine.load(str(EXAMPLES / "trails"))
    state = game.new_state(players=2, seed=3)
    assert state.to_json().get("pending") is not None
    data = forged(state.to_json(), lambda d: d["pending"].__setitem__(field, value))
    assert "the saved pending choice" in refused(game, data)
