"""The log, the terminal and the page name what a reader can tell apart: a copy among identical ones by where it
lies, and a swap at all.

Identical copies share a name (``X``) that actions and the board use; their ids (``X-1``) are the loader's, read
nowhere else.  ``swap(a, b)`` moves two components, so it says so, as ``move()`` does.
"""

from __future__ import annotations

import random
from pathlib import Path

import engine

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"


def copies_game(tmp_path: Path) -> engine.Game:
    """Tic-tac-toe, each mark placed wearing a counter of its own and then swapped for one still in hand."""
    text = (RULESETS / "tic-tac-toe" / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("name: tic-tac-toe", "name: copies").replace(
        "  marks: {kind: hand, per: role}\n", "  marks: {kind: hand, per: role}\ncounters:\n  worn: {per: token, start: 0}\n"
    ).replace("  - place: {from: marks, face: as-is, touching: false}\n",
              "  - place: {from: marks, face: as-is, touching: false}\n  - do:\n      effect: |\n"
              "        worn(first(t in board)) += 1\n        swap(first(t in board), first(t in marks(current_role)))\n")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(str(path))


def test_a_counter_of_a_copy_names_it_by_where_it_lies_and_a_swap_is_logged(tmp_path: Path) -> None:
    """'worn of X-1: 0 -> 1' named a copy by an id no action, board or page shows; swap() wrote no line, so the log
    showed an X leaving the board for a hand with no word of it."""
    game = copies_game(tmp_path)
    state = game.new_state(players=2, seed=1, record=True)
    for _ in range(2):
        state.apply(random.Random(1).choice(state.legal_actions()))
    assert state.log is not None and state.log[:3] == [
        "X places X at (2,0)", "worn of X at (2,0): 0 -> 1", "X at (2,0) and X in marks of X swap places"]
    assert not [line for line in state.log if "X-" in line or "O-" in line], state.log


def test_a_counter_of_a_component_of_its_own_name_is_logged_by_that_name_alone() -> None:
    """A component no other shares names itself: its line is as it was (the shipped games' logs keep theirs)."""
    game = engine.load("spell-cycles")
    state = game.new_state(players=2, seed=3, record=True)
    rng = random.Random(3)
    while not any(line.startswith("crescents of ") for line in state.log or []):
        state.apply(rng.choice(state.legal_actions()))
    line = next(line for line in state.log or [] if line.startswith("crescents of "))
    name = line.removeprefix("crescents of ").split(":")[0]
    assert name in game.component_names and name in game.piece_names, line


def test_the_counters_line_names_a_copy_by_where_it_lies_at_the_terminal_and_on_the_page(tmp_path: Path) -> None:
    """'worn: X-1 1, X-2 1, O-2 1' under the board, on the terminal and the page: which X is X-1?"""
    from cli import zone_listing
    from cli.web.view import table_html

    game = copies_game(tmp_path)
    state = game.new_state(players=2, seed=1)
    rng = random.Random(1)
    for _ in range(3):
        state.apply(rng.choice(state.legal_actions()))
    line = "worn: X at (1,1) 1, X in marks of O 1, O in marks of X 1"
    assert [text.plain for text in zone_listing.zones(state, 1)][-1] == line
    assert line in table_html(state, 1)
    assert state.observation(1)["counters"]["worn"]["X-1"] == 1  # the observation keeps the ids (its keys are data)


def test_a_clash_and_a_draw_name_copies_by_their_shared_name(tmp_path: Path) -> None:
    """'Sun/Star-2 at (0,0) flipped from Sun to Star' and 'Sun draws X-3': the loader's ids, where the board, the
    actions and every other line say 'Sun/Star' and 'X'."""
    ids = ["Sun/Sun", "Sun/Moon", "Sun/Star", "Moon/Moon", "Moon/Star", "Moon/Sun", "Star/Star", "Star/Sun", "Star/Moon"]
    text = (RULESETS / "tutorial-tiles" / "ruleset.yaml").read_text(encoding="utf-8").replace(
        "name: tutorial-tiles", "name: twice").replace(
        f"instances: [{', '.join(ids)}]",
        "instances: [" + ", ".join(f"{{id: {i}, symbol: [{i.replace('/', ', ')}], count: 2}}" for i in ids) + "]")
    (tmp_path / "twice").mkdir()
    (tmp_path / "twice" / "ruleset.yaml").write_text(text, encoding="utf-8")
    game = engine.load(str(tmp_path / "twice"))
    state, rng = game.new_state(players=2, seed=0, record=True), random.Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    flips = [line for line in state.log or [] if "clash with" in line]
    assert flips[0] == "Sun/Star at (0,0) flipped from Sun to Star: clash with Star at (-1,0)", flips

    text = (RULESETS / "tic-tac-toe" / "ruleset.yaml").read_text(encoding="utf-8").replace(
        "name: tic-tac-toe", "name: drawn").replace(
        "  marks: {kind: hand, per: role}\n", "  marks: {kind: hand, per: role}\n  pool: {kind: pile, hidden: none}\n").replace(
        "    move(t in tokens where t.mark == r, marks(r))\n", "    move(t in tokens where t.mark == r, pool)\n").replace(
        "  - place: {from: marks, face: as-is, touching: false}\n",
        "  - draw: {from: pool, to: marks}\n  - place: {from: marks, face: as-is, touching: false}\n")
    (tmp_path / "drawn").mkdir()
    (tmp_path / "drawn" / "ruleset.yaml").write_text(text, encoding="utf-8")
    state = engine.load(str(tmp_path / "drawn")).new_state(players=2, seed=0, record=True)
    assert state.log is not None and state.log[0] == "X draws X"


def test_a_swap_names_face_down_pieces_by_their_backs(tmp_path: Path) -> None:
    """A swap's line names what every seat sees: a face-down piece by its back, never the piece it is."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "hidden-duel" / "ruleset.yaml").read_text(
        encoding="utf-8").replace("turn:\n  - do:\n", "turn:\n  - do:\n      effect: |\n        if turn == 1:\n"
                                  "          swap(first(x in board where x.side == North), first(x in board where x.side == South))\n"
                                  "  - do:\n", 1)
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    state = engine.load(str(path)).new_state(players=2, seed=0, record=True)
    assert state.log is not None
    assert state.log[0] == "face-down piece of North at (0,0) and face-down piece of South at (0,3) swap places"
