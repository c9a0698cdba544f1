"""The actions listed in the order a player reads them: a hand's cards as the hand shows them, at the terminal and
on the web page alike, while the engine's own order (bots, replays, logs) stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

import engine
from cli import render
from cli.main import main
from cli.menu import menu

CRAZY_EIGHTS = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "crazy-eights")


def dealt() -> engine.State:
    """Crazy eights for three, seed 2: seat 1 plays first from a hand dealt A7 before A4 (the ruleset declares A4
    first)."""
    state = engine.load(CRAZY_EIGHTS).new_state(players=3, seed=2)
    assert [str(a) for a in state.legal_actions()] == ["choose A7", "choose A4"]  # the engine's order: as dealt
    return state


def test_a_hands_cards_are_offered_in_the_order_the_hand_shows_them() -> None:
    """The hand was shown sorted (A4, A7) and its cards offered as dealt (choose A7, choose A4): the terminal and the
    page now list them as the hand shows them, numbered so; the engine's order is untouched."""
    state = dealt()
    assert [str(a) for a in menu(state)] == ["choose A4", "choose A7"]
    listed = render.numbered_actions(state, 80)
    console = Console(width=80, record=True)
    console.print(listed)
    assert console.export_text().split() == ["[1]", "choose", "A4", "[2]", "choose", "A7"]
    assert [str(a) for a in state.legal_actions()] == ["choose A7", "choose A4"]


def test_the_number_typed_at_the_terminal_plays_the_action_listed_with_it(tmp_path: Path) -> None:
    """'1' plays the first action as listed (A4), not the engine's first (A7); the game's log records the move as
    played, and replays."""
    log = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", CRAZY_EIGHTS, "--players", "3", "--seed", "2", "--log", str(log)],
                                input="1\nquit\n")
    assert "Traceback" not in result.output, result.output
    assert "[1] choose A4" in result.output
    assert json.loads(log.read_text())["actions"][0] == "choose A4"


def test_the_page_lists_a_hands_cards_as_the_terminal_does() -> None:
    from cli.web.view import actions

    state = dealt()
    assert [a["text"] for a in actions(state, 1)] == ["choose A4", "choose A7"]


def test_the_menu_ends_no_line_in_spaces_at_any_width() -> None:
    """The one-column menu padded short options with spaces out to the longest ('[2] choose bet '), and so did the
    columns of a long one: at 40, 80 and 200 columns no line ends in a space, and each column starts where it did."""
    kuhn = engine.load("kuhn-poker").new_state(players=2, seed=3)
    gomoku = engine.load(Path(__file__).resolve().parent.parent / "docs" / "examples" / "gomoku").new_state(players=2, seed=1)
    for width in (40, 80, 200):
        for state in (kuhn, gomoku):
            console = Console(width=width, record=True)
            console.print(render.numbered_actions(state, width))
            lines = console.export_text().splitlines()
            assert lines and all(line == line.rstrip() for line in lines), (width, lines)
            assert all(len(line) <= width for line in lines), (width, lines)
            starts = {line.index("[", 1) for line in lines if "[" in line[1:]}  # the second column's start
            assert len(starts) <= 1, (width, lines)
    console = Console(width=80, record=True)
    console.print(render.numbered_actions(kuhn, 80))
    assert console.export_text().splitlines() == ["[1] choose pass", "[2] choose bet"]
