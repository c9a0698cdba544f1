"""Once the game is over nothing is hidden, and the three views of a seat agree: the API's observation, the terminal
(``rulecraft play``) and the browser's table.  The page and the terminal opened every zone at the end while the API
kept them hidden: a game whose rules turn a card up at the end (or a loser asking why) showed it in no observation."""

from __future__ import annotations

import random

import engine
from cli import render
from cli.web.view import public_observation, table_html
from engine.model.savefile import open_observation


def finished(name: str, players: int, seed: int) -> engine.State:
    """A random game of ``name`` played to its end."""
    state = engine.load(name).new_state(players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    return state


def terminal_text(state: engine.State, seat: int | None) -> str:
    console = render.make_console(width=80)
    with console.capture() as captured:
        for part in render.position(state, seat):
            console.print(part)
    return captured.get()


def test_every_seats_observation_opens_every_zone_once_the_game_is_over() -> None:
    """Kuhn poker's other hand was ``{"hidden": 1}`` in the observation of the finished game; now each seat sees both
    hands and the deck, in order, as the page and the terminal show them."""
    state = finished("kuhn-poker", 2, 3)
    hands = {name: [state.game.piece_names[c] for c in state.zones[state.game.zone_names.index(name)]]
             for name in ("hand of First", "hand of Second", "deck")}
    for seat in (1, 2):
        seen = state.observation(seat)
        assert {name: seen["zones"][name] for name in hands} == hands
        assert seen["player"] == seat and seen["legal_actions"] == [] and seen["choice"] is None
        assert seen["seats"] == {"First": 1, "Second": 2}
        for name, cards in hands.items():
            for card in cards:
                assert card in table_html(state, seat)  # the page shows the same
                assert card in terminal_text(state, seat)  # and so does the terminal, to any seat
    assert public_observation(state)["zones"] == open_observation(state)["zones"]  # a watcher's page too


def test_the_rule_is_the_engines_while_the_game_goes_on_nothing_changes() -> None:
    """Before the end, a seat's observation still shows the other hand as a count."""
    state = engine.load("kuhn-poker").new_state(players=2, seed=3)
    assert state.observation(1)["zones"]["hand of Second"] == {"hidden": 1}
    assert open_observation(state)["zones"]["hand of Second"] != {"hidden": 1}


def test_face_down_pieces_are_open_at_the_end(tmp_path) -> None:
    """A piece left face down is shown to every seat once the game is over (the page and the terminal showed it)."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(SECRET)
    game = engine.load(ruleset)
    state = game.new_state(players=2, seed=1)
    rng = random.Random(1)
    while not state.is_terminal:
        assert "Spy" not in str(state.observation(1)["board"])
        state.apply(rng.choice(list(state.legal_actions())))
    assert "Spy" in str(state.observation(1)["board"]) and "Spy" in str(state.observation(2)["board"])


SECRET = """\
name: secret-end
players: [2]
roles:
  of: side
types:
  side: [North, South]
components:
  piece:
    attributes: {side: side}
    instances:
      - {id: Spy, side: South}
      - {id: Scout, side: North}
board: {kind: square-grid, width: 2, height: 1}
face_down: true
zones:
  hand: {kind: hand, per: role, hidden: others}
setup: |
  for r in roles:
    move(p in supply where p.side == r, hand(r))
turn:
  - do:
      effect: |
        let c = choose(n in empty_cells, text = "where")
        place_down(x in hand(current_role), c, seen_by = current_role)
end:
  when: count(board) == 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""
