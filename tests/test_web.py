"""``rulecraft serve`` without a browser: the pages and the JSON API through Starlette's test client.

What a seat's page shows (never a hidden component), how moves, bots, undo,
saves and replays behave, and that every bad request gets a clear refusal
while the server keeps serving.  The browser itself is exercised in
test_web_browser.py.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import main
import engine
from engine.core.information import SEEN, zone_view
from engine.core.paths import builtin_names, rulesets_dir
from engine.runner.agents import RandomAgent
from engine.runner.replay import Replay

try:
    from starlette.testclient import TestClient
except ImportError as missing:  # the web extra is not installed
    if os.environ.get("CI"):
        raise
    pytest.skip(f"the web server's tests need the web extra ({missing.name} is missing)", allow_module_level=True)

from cli.web.app import create_app
from cli.web.catalog import Catalog
from cli.web.tables import Table
from tests.conftest import shipped_game


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(None), follow_redirects=False)


def start(client: TestClient, url: str) -> str:
    """Open a table from ``url``; its id."""
    response = client.get(url)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def view(client: TestClient, table: str, seat: int | None = None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}" + (f"?seat={seat}" if seat else ""))
    assert response.status_code == 200, response.text
    return response.json()


def test_the_front_page_lists_every_ruleset(client: TestClient) -> None:
    page = client.get("/").text
    for name in builtin_names():
        assert f'href="/play/{name}?players=' in page and f'href="/watch/{name}?players=' in page


def test_the_front_page_of_the_built_in_rulesets_compiles_none_of_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The front page compiled every built-in ruleset to list it: a server's first page took five seconds or more.
    It lists them from what 'rulecraft list' remembers, the same titles, players and variants."""
    from cli.web import catalog

    compiled: list[str] = []
    monkeypatch.setattr(catalog.engine, "load", lambda name, *args, **kwargs: compiled.append(str(name)))
    page = TestClient(create_app(None)).get("/").text
    assert compiled == []
    monkeypatch.undo()
    for name in ("iconoclasm", "tic-tac-toe"):
        game = shipped_game(name)
        row = re.search(rf'<tr data-ruleset="{name}">(.*?)</tr>', page)
        assert row is not None and f"<small>{game.title}</small>" in row[1]
        assert f"<td>{', '.join(map(str, game.player_counts))}</td>" in row[1]
        assert f"<small>{', '.join(game.available_variants) or '-'}</small>" in row[1]


def test_the_front_page_works_out_the_built_in_summaries_once_where_they_cannot_be_remembered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the user's cache folder cannot be written, 'rulecraft list' works its summaries out each time: the
    server keeps its own, so that only its first front page compiles the rulesets."""
    from cli.web import catalog

    worked_out: list[int] = []
    real = catalog.summaries
    monkeypatch.setattr(catalog, "summaries", lambda: worked_out.append(1) or real())
    client = TestClient(create_app(None))
    first, second = client.get("/").text, client.get("/").text
    assert first == second and len(worked_out) == 1


def test_watching_bots_shows_every_hand_but_a_table_with_a_human_keeps_them(client: TestClient) -> None:
    """Watching bots play kuhn poker showed seat 1's card only: a table of bots keeps no secret from its watcher."""
    watched = start(client, "/watch/kuhn-poker?players=2&seed=3&agents=random")
    everyone = view(client, watched)
    assert everyone["seat"] is None and everyone["everyone"] and not everyone["over"]
    assert " hidden</span>" not in everyone["html"] and everyone["html"].count('class="chip"') >= 2
    assert " hidden</span>" in view(client, watched, seat=1)["html"]  # seen by one seat, as before
    page = client.get(f"/table/{watched}").text
    assert '<option value="" selected>everyone: every zone</option>' in page
    played = start(client, "/play/kuhn-poker?players=2&seed=3")
    other = TestClient(client.app, follow_redirects=False)  # a browser holding no seat at a table with a human
    shown = view(other, played)
    assert shown["seat"] is None and not shown["everyone"] and " hidden</span>" in shown["html"]


def test_a_watched_bots_zones_are_not_called_the_watchers(client: TestClient) -> None:
    """Watching bots, the page (seen by seat 1) marked seat 1's hand and party '(yours)': the watcher plays no seat."""
    watched = view(client, start(client, "/watch/tutorial-tiles?players=2&seed=3&agents=random"), seat=1)
    assert watched["seat"] == 1 and "(yours)" not in watched["html"]
    played = view(client, start(client, "/play/tutorial-tiles?players=2&seed=3"), seat=1)
    assert played["html"].count("(yours)") == 1 and 'class="zone mine"' in played["html"]


def test_a_solo_game_is_of_1_player_not_1_players(client: TestClient) -> None:
    table = start(client, "/play/iconoclasm-cards?players=1&seed=3")
    assert view(client, table)["subtitle"] == "1 player, seed 3"
    assert view(client, start(client, "/play/iconoclasm-cards?players=2&seed=3"))["subtitle"] == "2 players, seed 3"


@pytest.mark.parametrize("name", builtin_names())
def test_a_game_page_draws_the_board_as_inline_svg(client: TestClient, name: str) -> None:
    table = start(client, f"/play/{name}?players=2&seed=7&seat=2=human")  # whoever starts, a human is to move
    page = client.get(f"/table/{table}").text
    if shipped_game(name).grid is not None:
        svg = re.search(r'<div id="view">.*?(<svg[^>]*class="board[^"]*".*?</svg>)', page, re.S)
        assert svg is not None and 'data-cell="' in svg.group(1)
    else:  # the zones lie on the table, each once (they were drawn as boxes, then listed again below)
        zones = re.findall(r'data-zone="([^"]*)"', page)
        assert '<div class="zones table"' in page and zones and len(zones) == len(set(zones)), zones
    data = view(client, table)
    assert data["situation"][0].startswith("turn 1: seat ") and data["situation"][0].endswith(" to play")
    assert data["actions"] and data["seat"] == data["to_move"]


def test_the_watchers_of_bots_are_told_the_decision_a_bot_is_making(client: TestClient) -> None:
    """The "everyone" view of a table of bots showed whose turn it was but not the choice pending ("pass or bet"),
    which the seat's own view shows."""
    table = start(client, "/watch/kuhn-poker?players=2&seed=1&agents=random")
    assert view(client, table)["situation"] == ["turn 1: seat 1 (First) to play (a bot)", "deciding: pass or bet"]
    assert view(client, table, seat=1)["situation"][1:] == ["pass or bet:"]
    assert view(client, table, seat=2)["situation"][1:] == []


HIDDEN_CASES = [(name, "") for name in builtin_names()] + [("spell-cycles", "extra-credit"), ("iconoclasm", "hidden-deities")]
"""Every shipped game, and the variants that hide more."""


@pytest.mark.parametrize(("name", "variant"), HIDDEN_CASES)
def test_a_seat_sees_no_hidden_component(client: TestClient, name: str, variant: str) -> None:
    """A component in a zone hidden from seat 1, whose name shows nowhere seat 1 may look, never reaches its view."""
    table = start(client, f"/watch/{name}?players=2&seed=2&agents=random&variant={variant}")
    for _ in range(6):
        client.post(f"/api/tables/{table}/advance", json={})
        if view(client, table)["over"]:  # the end shows every zone (test below): the position before it
            client.post(f"/api/tables/{table}/undo", json={})
            break
    data = view(client, table, seat=1)
    assert not data["over"]
    shown_text = data["html"] + json.dumps(data["moves"]) + json.dumps(data["situation"])
    log = Replay.from_json(client.get(f"/api/tables/{table}/save").json(), "<save>")  # the position, to know what is hidden
    game, state = log.start()
    log.play(state)
    visible = {game.piece_names[c] for zi in range(len(game.zone_names)) if zone_view(state, zi, 1) == SEEN
               for c in state.zones[zi]}
    visible |= {game.piece_names[c] for c in state.grid.values()}
    hidden = {game.piece_names[c] for zi in range(len(game.zone_names)) if zone_view(state, zi, 1) != SEEN
              for c in state.zones[zi]} - visible
    leaked = [n for n in hidden if f'data-name="{n}"' in shown_text]
    assert not leaked, f"seat 1's view shows hidden components: {leaked}"


def test_the_end_of_a_game_shows_every_zone(client: TestClient) -> None:
    """Until the end a seat sees only its own hidden zone; at the end every one, so the loser sees why it lost."""
    table = start(client, "/play/liars-dice?players=2&seed=11")
    state = client.app.state.server.tables.get(table).state  # type: ignore[attr-defined]
    theirs = [state.game.piece_names[c] for c in state.zones[state.game.zone_names.index("cup of Second")]]
    assert "1 hidden" in view(client, table, seat=1)["html"]
    while not (data := view(client, table, seat=1))["over"]:
        if data["bot_to_move"]:
            client.post(f"/api/tables/{table}/advance", json={})
        else:
            client.post(f"/api/tables/{table}/act", json={"action": data["actions"][-1]["text"], "seat": 1})
    assert "hidden" not in data["html"] and all(f'data-name="{name}"' in data["html"] for name in theirs)


def test_an_illegal_action_is_refused_with_the_reason_and_nothing_changes(client: TestClient) -> None:
    table = start(client, "/play/tutorial-tiles?players=2&seed=1")
    before = view(client, table)
    response = client.post(f"/api/tables/{table}/act", json={"action": "place Sun/Sun as Moon at 0,0"})
    assert response.status_code == 400
    assert response.json() == {"error": "Sun/Sun has no face 'Moon' (its faces are Sun and Sun) "
                                        "(did you mean 'place Sun/Moon as Moon at 0,0'?)"}
    assert view(client, table) == before
    assert client.post(f"/api/tables/{table}/act", json={"nothing": 1}).json()["error"].startswith("say which action")
    assert client.post(f"/api/tables/{table}/act", content=b"[").json() == {"error": "the request's body is not JSON"}
    padded = json.dumps({"action": "place Sun/Sun as Sun at 0,0", "note": "x" * 70_000}).encode()
    assert client.post(f"/api/tables/{table}/act", content=padded).json() == {
        "error": "the request's body is larger than 65,536 bytes"}
    assert view(client, table) == before


def test_a_human_move_then_the_bot_then_undo(client: TestClient) -> None:
    table = start(client, "/play/tutorial-tiles?players=2&seed=1&seat=2=greedy")
    first = view(client, table)
    after = client.post(f"/api/tables/{table}/act", json={"action": first["actions"][0]["text"]}).json()
    assert after["bot_to_move"] and after["actions"] == []
    refused = client.post(f"/api/tables/{table}/act", json={"action": "place Star/Star as Star at 1,0"})
    assert refused.json()["error"] == "seat 2 is played by a bot (greedy), not from the page"
    replied = client.post(f"/api/tables/{table}/advance", json={}).json()
    assert [m["seat"] for m in replied["moves"]] == [1, 2] and replied["actions"]
    undone = client.post(f"/api/tables/{table}/undo", json={}).json()
    assert undone["note"] == "took back 2 moves" and undone["html"] == first["html"] and undone["moves"] == []
    assert client.post(f"/api/tables/{table}/undo", json={}).json() == {"error": "nothing to take back: no human has moved yet"}


def test_at_a_table_of_two_humans_only_the_seat_that_moved_takes_its_move_back(client: TestClient) -> None:
    """Seat 2's undo, pressed in its own browser right after seat 1 moved, took back seat 1's move."""
    table = start(client, "/play/tutorial-tiles?players=2&seed=1&seat=2=human")
    first = client.get(f"/api/tables/{table}?seat=1").json()
    client.post(f"/api/tables/{table}/act?seat=1", json={"action": first["actions"][0]["text"]})
    refused = client.post(f"/api/tables/{table}/undo?seat=2", json={})
    assert refused.status_code == 400 and refused.json() == {"error": "the last move was seat 1's: only seat 1 can take it back"}
    assert len(client.get(f"/api/tables/{table}?seat=2").json()["moves"]) == 1
    assert client.post(f"/api/tables/{table}/undo?seat=1", json={}).json()["note"] == "took back 1 move"
    client.post(f"/api/tables/{table}/act", json={"action": first["actions"][0]["text"]})
    assert client.post(f"/api/tables/{table}/undo", json={}).json()["note"] == "took back 1 move"  # one shared screen


def test_a_bot_game_runs_to_the_end_and_steps_back(client: TestClient) -> None:
    table = start(client, "/watch/tutorial-tiles?players=3&seed=4&agents=random,greedy,random")
    data = view(client, table)
    assert data["mode"] == "watch" and data["bots"] == {"1": "random", "2": "greedy", "3": "random"}
    while not data["over"]:
        data = client.post(f"/api/tables/{table}/advance", json={}).json()
    assert data["situation"][0].startswith("game over; scores:")
    length = len(data["moves"])
    back = client.post(f"/api/tables/{table}/undo", json={}).json()
    assert not back["over"] and len(back["moves"]) == length - 1


def test_the_game_over_lines_name_each_seats_role_as_the_turn_lines_do(client: TestClient) -> None:
    """The page said "turn 5: seat 1 (X) to play", then "seat 1 wins": the game over now names the roles too."""
    table = start(client, "/play/tic-tac-toe?players=2&seed=3&seat=2=human")
    data = view(client, table)
    assert data["situation"][0] == "turn 1: seat 1 (X) to play"
    for cell in ("0,0", "0,1", "1,0", "1,1", "2,0"):  # X takes the top row
        action = next(a["text"] for a in data["actions"] if a["text"].endswith(f" at {cell}"))
        data = client.post(f"/api/tables/{table}/act", json={"action": action}).json()
    lines = ["game over; scores: seat 1 (X): 1, seat 2 (O): 0", "seat 1 (X) wins",
             "ended because for some r in roles, r's longest line is at least 3", TIC_TAC_TOE_KEYS]
    assert data["over"] and data["situation"] == lines
    assert (f'<div id="situation" aria-live="polite" tabindex="-1"><p>{lines[0]}</p><p>{lines[1]}</p><p>ended because '
            in client.get(f"/table/{table}").text)


def test_a_full_board_with_no_line_is_said_as_a_draw(client: TestClient) -> None:
    """The page said "seats 1 (X) and 2 (O) share the win" of a drawn game: it says a draw now."""
    table = start(client, "/play/tic-tac-toe?players=2&seed=3&seat=2=human")
    data = view(client, table)
    for cell in ("0,0", "1,1", "2,2", "1,0", "1,2", "0,2", "2,0", "2,1", "0,1"):  # X and O in turn, no three in a row
        action = next(a["text"] for a in data["actions"] if a["text"].endswith(f" at {cell}"))
        data = client.post(f"/api/tables/{table}/act", json={"action": action}).json()
    assert data["over"] and data["situation"] == ["game over; scores: seat 1 (X): 0, seat 2 (O): 0",
                                                  "a draw: seats 1 (X) and 2 (O) tie",
                                                  "ended because the number of items in the empty cells is 0",  # why
                                                  TIC_TAC_TOE_KEYS]


# what the [1] and [0] of the log's ranking are ('game over: 1. X [1]: 1 point to seat 1'), said under the outcome
TIC_TAC_TOE_KEYS = "in the ranking, the [ ] of each r in roles holds: 1 if r's longest line is at least 3, else 0"


def test_a_team_that_wins_is_named_with_its_seats(client: TestClient) -> None:
    """The page said "seats 1 (Fire) and 3 (Water) share the win" of a team's win: it names the team now."""
    table = start(client, "/watch/iconoclasm?players=4&seed=3&agents=random&variant=teams")
    data = view(client, table)
    while not data["over"]:
        data = client.post(f"/api/tables/{table}/advance", json={}).json()
    won = re.fullmatch(r"team (\d) wins: seats (\d) \(\w+\) and (\d) \(\w+\)", data["situation"][1])
    assert won is not None, data["situation"]
    assert won.group(2, 3) == (("1", "3") if won[1] == "1" else ("2", "4"))


def test_the_scores_of_a_game_in_teams_are_each_teams_total_said_once(client: TestClient) -> None:
    """Each seat scores its team's total: the scores line gave every seat that total ('seat 3 (Bears): 25') beside
    a ranking paying seat 3 nothing, as if each seat had scored it alone.  It now says each team's total once."""
    table = start(client, "/watch/iconoclasm?players=4&seed=3&agents=random&variant=teams")
    data = view(client, table)
    while not data["over"]:
        data = client.post(f"/api/tables/{table}/advance", json={}).json()
    assert re.fullmatch(r"game over; scores: team 1 \(seats 1 \(\w+\) and 3 \(\w+\)\): -?\d+, "
                        r"team 2 \(seats 2 \(\w+\) and 4 \(\w+\)\): -?\d+", data["situation"][0]), data["situation"]


def test_the_zones_a_seat_sees_have_their_box_even_empty(client: TestClient) -> None:
    """A zone's box appeared only once it held something: the empty zones a seat sees are drawn, marked empty, a
    hidden one too (Stag's sealed tile not yet chosen, a count every seat sees); the built-in supply empty and a
    zone of a role nobody plays are not."""
    table = start(client, "/play/sealed-tiles?players=2&seed=1&seat=2=human")  # nobody plays Wolf
    html = view(client, table, 1)["html"]
    empty = re.findall(r'<section class="zone[^"]* empty" data-zone="([^"]+)"><h3>[^<]*</h3><small class="empty">\(empty\)</small>', html)
    assert empty == ["sealed of Lion", "sealed of Stag", "played of Lion", "played of Stag"]
    assert '<section class="zone mine empty" data-zone="played of Lion"><h3>played of Lion (yours)</h3>' in html
    assert 'data-zone="played of Wolf"' not in html


def test_the_game_over_keeps_hidden_roles_hidden(client: TestClient) -> None:
    table = start(client, "/watch/iconoclasm?players=2&seed=3&agents=random&variant=hidden-deities")
    data = view(client, table)
    while not data["over"]:
        data = client.post(f"/api/tables/{table}/advance", json={}).json()
    assert re.fullmatch(r"game over; scores: seat 1: \d+, seat 2: \d+", data["situation"][0]), data["situation"]


@pytest.mark.parametrize("name", builtin_names())
def test_stepping_back_then_forward_in_a_watched_game_plays_the_same_moves(client: TestClient, name: str) -> None:
    """The bots are put back as they were with the moves taken back: the game ends as it did, whatever it is.
    Spell Cycles plays its short variant (the whole game took 7 s of CPU, as much as the other rulesets together)."""
    short = "&variant=short" if name == "spell-cycles" else ""
    table = start(client, f"/watch/{name}?players=2&seed=5&agents=random,greedy{short}")
    data = view(client, table)
    while not data["over"]:
        data = client.post(f"/api/tables/{table}/advance", json={}).json()
    for _ in range(min(3, len(data["moves"]))):
        back = client.post(f"/api/tables/{table}/undo", json={}).json()
    assert not back["over"]
    again = back
    while not again["over"]:
        again = client.post(f"/api/tables/{table}/advance", json={}).json()
    assert again["moves"] == data["moves"] and again["html"] == data["html"]


def play_out(client: TestClient, table: str) -> dict[str, Any]:
    data = view(client, table)
    while not data["over"]:
        if data["actions"]:
            data = client.post(f"/api/tables/{table}/act", json={"action": data["actions"][-1]["text"]}).json()
        else:
            data = client.post(f"/api/tables/{table}/advance", json={}).json()
    return data


def test_a_saved_game_is_the_command_lines_format(client: TestClient, tmp_path: Path) -> None:
    table = start(client, "/play/iconoclasm-cards?players=2&seed=9&variant=small-grid")
    end = play_out(client, table)
    saved = client.get(f"/api/tables/{table}/save")
    assert saved.headers["content-disposition"] == 'attachment; filename="iconoclasm-cards-seed9.json"'
    path = tmp_path / "game.json"
    path.write_bytes(saved.content)
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert end["situation"][-1] in result.output
    opened = client.post("/api/open?mode=replay", content=saved.content).json()
    replayed = view(client, opened["url"].rsplit("/", 1)[1])
    assert replayed["position"] == replayed["length"] == len(end["moves"]) and replayed["situation"] == end["situation"]


def test_at_a_table_of_two_humans_one_seats_page_saves_only_once_the_game_is_over(client: TestClient) -> None:
    """A save is the seed and every choice: downloaded from seat 1's page, it gave seat 1 seat 2's hidden hand."""
    table = start(client, "/play/tutorial-tiles?players=2&seed=1&seat=2=human")
    refused = client.get(f"/api/tables/{table}/save?seat=1")
    assert refused.status_code == 400 and "seat 2's hidden cards and choices too" in refused.json()["error"]
    assert view(client, table, seat=1)["unsaved"] == refused.json()["error"]
    assert "seat 1's hidden" in client.get(f"/api/tables/{table}/save?seat=2").json()["error"]
    assert client.get(f"/api/tables/{table}/save").status_code == 200 and view(client, table)["unsaved"] is None  # one screen
    play_out(client, table)
    assert client.get(f"/api/tables/{table}/save?seat=1").status_code == 200 and view(client, table, seat=1)["unsaved"] is None


@pytest.mark.parametrize("url", ["/play/tutorial-tiles?players=2&seed=1", "/play/iconoclasm?players=2&seed=1"])
def test_a_human_against_bots_saves_at_any_time(client: TestClient, url: str) -> None:
    table = start(client, url)
    assert client.get(f"/api/tables/{table}/save?seat=1").status_code == 200 and view(client, table, seat=1)["unsaved"] is None
    assert "seed 1" in view(client, table, seat=1)["subtitle"]


def test_at_a_table_of_two_humans_in_a_game_played_in_the_open_one_seats_page_neither_saves_nor_sees_the_seed(
        client: TestClient) -> None:
    """Iconoclasm hides nothing but rolls dice: seat 1's page saved the game (the seed) or read the seed on the page,
    and `rulecraft play --load` showed it the dice to come, to try its moves against them."""
    table = start(client, "/play/iconoclasm?players=2&seed=1&seat=2=human")
    refused = client.get(f"/api/tables/{table}/save?seat=1")
    assert refused.status_code == 400 and "and the seed, which tells the dice still to come" in refused.json()["error"]
    assert "seed" not in view(client, table, seat=1)["subtitle"] and view(client, table, seat=1)["unsaved"]
    assert "seed 1" in view(client, table)["subtitle"] and client.get(f"/api/tables/{table}/save").status_code == 200


def test_two_pages_asking_for_the_move_after_the_same_position_get_one_move(client: TestClient) -> None:
    """Each page of a table runs the bots on a timer: two tabs watching played two moves where one was due."""
    table = start(client, "/watch/tutorial-tiles?players=2&seed=3&agents=random")
    seen = view(client, table)["version"]
    first = client.post(f"/api/tables/{table}/advance", json={"version": seen}).json()
    second = client.post(f"/api/tables/{table}/advance", json={"version": seen}).json()
    assert len(first["moves"]) == len(second["moves"]) == 1 and second["version"] == first["version"] == seen + 1
    assert len(client.post(f"/api/tables/{table}/advance", json={"version": seen + 1}).json()["moves"]) == 2
    assert len(client.post(f"/api/tables/{table}/advance", json={}).json()["moves"]) == 3  # a script names no version
    refused = client.post(f"/api/tables/{table}/advance", json={"version": "3"})
    assert refused.status_code == 400 and refused.json()["error"].startswith("say which version of the table")


def test_an_action_picked_on_a_table_that_moved_on_since_plays_nothing(client: TestClient) -> None:
    """A double click at a shared screen sent 'choose pass' twice: seat 1 passed, then seat 2 passed for it."""
    table = start(client, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    shown = view(client, table)
    played = client.post(f"/api/tables/{table}/act", json={"action": "choose pass", "version": shown["version"]}).json()
    again = client.post(f"/api/tables/{table}/act", json={"action": "choose pass", "version": shown["version"]})
    assert again.status_code == 400 and again.json()["error"].startswith("the game moved on since this page showed it")
    assert view(client, table)["moves"] == played["moves"] and len(played["moves"]) == 1
    assert client.post(f"/api/tables/{table}/act", json={"action": "choose pass", "version": "1"}).status_code == 400


def test_an_undo_clicked_twice_on_the_same_table_takes_back_one_move(client: TestClient) -> None:
    """A double click on undo took back the last move, then the one before it too: lost work, with no redo."""
    table = start(client, "/play/tic-tac-toe?players=2&seed=1&seat=2=human")
    for _ in range(2):
        client.post(f"/api/tables/{table}/act", json={"action": view(client, table)["actions"][0]["text"]})
    shown = view(client, table)
    assert client.post(f"/api/tables/{table}/undo", json={"version": shown["version"]}).json()["note"] == "took back 1 move"
    again = client.post(f"/api/tables/{table}/undo", json={"version": shown["version"]})
    assert again.status_code == 400 and again.json()["error"].startswith("the game moved on since this page showed it")
    assert len(view(client, table)["moves"]) == 1


def test_a_replay_moves_to_any_position(client: TestClient) -> None:
    game = shipped_game("tutorial-tiles")
    state = game.new_state(players=2, seed=5, record=True)
    agent = RandomAgent(5)
    while not state.is_terminal:
        state.apply(agent.choose(state))
    body = json.dumps(Replay.record(state, "tutorial-tiles", 5).to_json())
    table = client.post("/api/open?mode=replay", content=body).json()["url"].rsplit("/", 1)[1]
    at_two = client.post(f"/api/tables/{table}/goto", json={"position": 2}).json()
    assert at_two["position"] == 2 and [m["number"] for m in at_two["moves"]] == [1, 2]
    assert at_two["explanation"]["text"] == (state.history or [])[1]
    assert at_two["actions"] == []  # a replay is watched, not played
    assert client.post(f"/api/tables/{table}/goto", json={"position": 99}).json()["error"].startswith("there is no position 99")
    assert client.post(f"/api/tables/{table}/act", json={"action": "x"}).json()["error"].startswith("this is a replay")


@pytest.mark.parametrize(("url", "status", "message"), [
    ("/play/no-such-game", 404, "this server has no ruleset 'no-such-game'"),
    ("/play/tutorial-tiles?players=7", 400, "tutorial-tiles is played by 2, 3 players, not 7"),
    ("/play/tutorial-tiles?seed=abc", 400, "seed must be a whole number, not 'abc'"),
    # a whole number of too many digits was told it is not a whole number
    ("/play/tutorial-tiles?seed=99999999999999999999", 400, "seed must be between 0 and 9223372036854775807, not 99999999999999999999"),
    ("/play/tutorial-tiles?variant=fast", 400, "fast"),
    ("/play/tutorial-tiles?set=board_sise=4", 400, "board_sise"),
    ("/play/tutorial-tiles?seat=2=oracle", 400, "unknown agent 'oracle'"),
    ("/play/tutorial-tiles?seat=5=random", 400, "there is no seat 5 with 2 players"),
    ("/play/tutorial-tiles?seat=2=human&seat=2=random", 400, "seat 2 is named twice (2=human, 2=random)"),
    ("/watch/tutorial-tiles?agents=mcts:100000", 400, "at most 5000 iterations"),
    ("/watch/tutorial-tiles?agents=mcts:c=2:100000", 400, "at most 5000 iterations"),  # the budget after c= got past
    ("/watch/tutorial-tiles?agents=ismcts:c=1:60s", 400, "at most 5000 iterations or 5 seconds"),
    ("/watch/tutorial-tiles?agents=mcts:200:depth=1000000", 400, "rollouts of at most 1000 actions"),
    ("/watch/tutorial-tiles?agents=greedy:depth=1000000", 400, "rollouts of at most 1000 actions"),
    ("/watch/tutorial-tiles?agents=greedy:work=1000000", 400, "greedy bots play at most 20000 random actions a move"),
    ("/table/t999999", 404, "there is no game 't999999' on this server"),
    ("/simulate/tutorial-tiles?n=100000", 400, "games must be between 1 and 2000"),
])
def test_a_bad_page_request_gets_a_clear_error_page(client: TestClient, url: str, status: int, message: str) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert message in response.text.replace("&#x27;", "'") and "Traceback" not in response.text
    assert client.get("/play/tutorial-tiles?players=2").status_code == 303  # still serving


def test_a_plus_in_an_option_typed_in_the_address_is_itself(client: TestClient) -> None:
    """``set=contenders=a+b`` typed in an address reached the ruleset as 'a b' (a '+' read as a space), as
    ``variant=a+b`` once did; a space the page's own forms send, as %20, is still a space."""
    response = client.get("/watch/iconoclasm?players=2&agents=random&set=contenders=a+b")
    assert response.status_code == 400
    assert "'contenders' must be one of groups, all, not 'a+b'" in response.text.replace("&#x27;", "'"), response.text
    table = start(client, "/watch/tutorial-tiles?players=3&agents=random&set=rank_points=%5B5,%202,%200%5D")
    assert view(client, table)["subtitle"].startswith("rank_points=[5, 2, 0], 3 players")


@pytest.mark.parametrize(("body", "message"), [
    (b"", "the file is empty"),
    (b"not json", "not a JSON game file"),
    (b"[" * 100_000, "not a"),
    (b'{"players": 2}', "ruleset"),
    (b'{"ruleset": "/etc/passwd", "players": 2, "seed": 1}', "this server does not offer the ruleset the file names ('/etc/passwd')"),
    (b'{"ruleset": "tutorial-tiles", "players": 2, "seed": 1, "actions": ["fly"]}', "action 1"),
    (b'{"ruleset": "iconica", "players": 2, "seed": 1, "explicit_chance": true}', "rolled its dice as actions"),
])
def test_a_bad_game_file_is_refused_clearly(client: TestClient, body: bytes, message: str) -> None:
    response = client.post("/api/open?mode=play", content=body)
    assert response.status_code == 400 and message in response.json()["error"]


def test_a_request_past_the_time_cap_is_refused_and_the_server_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulation refused stops too, at its next decision: it used to finish the game it was in (a game between
    greedy bots ran on for seconds in its thread, and was still playing when the next test began)."""
    import threading
    import time

    from engine.model.state import State

    applied, calls = State.apply, []
    playing = threading.local()  # set in the threads of this test's request, not in other tests' leftover work

    def counted(self: State, *args: Any, **kwargs: Any) -> Any:
        if getattr(playing, "here", False):
            calls.append(time.monotonic())
        return applied(self, *args, **kwargs)

    from cli.web import stopping
    checked = stopping.StoppingExecutor.check

    def marked(self: Any, decisions: int = 0) -> None:
        playing.here = True
        checked(self, decisions)

    monkeypatch.setattr(State, "apply", counted)
    monkeypatch.setattr(stopping.StoppingExecutor, "check", marked)
    client = TestClient(create_app(None, cap=5), follow_redirects=False)
    assert client.get("/simulate/iconica?n=1&agents=random").status_code == 200  # compiled, so that games begin in time
    client.app.state.server.cap = 0.3  # type: ignore[attr-defined]
    response = client.get("/simulate/iconica?n=2000&agents=greedy")
    assert response.status_code == 503
    assert "took longer than 0.3 seconds and was stopped" in response.text
    assert client.get("/api/tables/t1").json()["error"].startswith("there is no game")
    refused, stopped = time.monotonic(), -1
    while len(calls) != stopped and time.monotonic() < refused + 20:  # wait until the work stops
        stopped = len(calls)
        time.sleep(0.5)
    assert calls and calls[-1] - refused < 2, calls[-1] - refused  # the decision under way at most (a game: 10 s)


def test_a_simulation_past_those_running_at_once_is_refused_at_once() -> None:
    """Forty-five simulations asked together each ran to the cap, and every other request waited for them (a new
    game 30 s instead of 0.04 s); past ``SIMULATIONS`` running, one more is refused at once and the tables go on."""
    from cli.web.app import SIMULATIONS

    client = TestClient(create_app(None), follow_redirects=False)
    server = client.app.state.server  # type: ignore[attr-defined]
    for _ in range(SIMULATIONS):  # as many running as the server runs at once
        assert server.simulating.acquire(blocking=False)
    response = client.get("/simulate/tic-tac-toe?n=5")
    assert response.status_code == 503
    assert f"this server runs at most {SIMULATIONS} simulations at once" in response.text
    assert client.get("/play/tic-tac-toe?players=2").status_code == 303
    server.simulating.release()
    assert client.get("/simulate/tic-tac-toe?n=5").status_code == 200
    assert server.simulating.acquire(blocking=False)  # the one that ran gave its place back


def test_a_bots_move_past_those_thinking_at_once_waits_for_a_place() -> None:
    """Any number of bots' moves ran at once, each holding a thread for up to 5 seconds: forty watched tables of
    search bots shared the CPU forty ways, and a human's move waited for a thread among them.  Past
    ``BOTS_THINKING`` running, a bot's move waits for a place (a human's move does not), and is refused at the cap,
    nothing played, when none came free."""
    import threading

    from cli.web.app import BOTS_THINKING

    client = TestClient(create_app(None), follow_redirects=False)
    server = client.app.state.server  # type: ignore[attr-defined]
    watched = start(client, "/watch/tic-tac-toe?players=2&seed=1&agents=random")
    played = start(client, "/play/tic-tac-toe?players=2&seed=1")
    for _ in range(BOTS_THINKING):  # as many thinking as the server runs at once
        assert server.thinking.take()
    server.cap = 0.5
    refused = client.post(f"/api/tables/{watched}/advance", json={})
    assert refused.status_code == 503 and refused.json()["error"] == (
        f"this server's bots were all thinking ({BOTS_THINKING} moves at once) for 0.5 seconds: nothing was changed; "
        "try again in a moment")
    assert view(client, watched)["moves"] == []
    assert client.post(f"/api/tables/{played}/act", json={"action": "place X at 1,1"}).status_code == 200
    server.cap = 20
    threading.Timer(0.3, server.thinking.give).start()  # a bot's move ends elsewhere
    assert len(client.post(f"/api/tables/{watched}/advance", json={}).json()["moves"]) == 1
    assert server.thinking.take() and not server.thinking.take()  # the move gave its place back


def test_a_bots_move_that_never_began_gives_its_place_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request gone between taking a bot's place and its thread beginning (a page closed at that moment) kept the
    place for good: enough of them, and no bot on the server moved again."""
    from cli.web import app as web_app

    async def gone(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionResetError("the page went away")

    client = TestClient(create_app(None), follow_redirects=False)
    server = client.app.state.server  # type: ignore[attr-defined]
    watched = start(client, "/watch/tic-tac-toe?players=2&seed=1&agents=random")
    monkeypatch.setattr(web_app.anyio.to_thread, "run_sync", gone)
    assert client.post(f"/api/tables/{watched}/advance", json={}).status_code >= 500
    monkeypatch.undo()
    assert all(server.thinking.take() for _ in range(web_app.BOTS_THINKING))


def test_browsers_opening_the_front_page_of_a_new_server_at_once_all_get_it() -> None:
    """Three browsers at the front page of a server just started: it compiled every ruleset in three threads at
    once, and two of them got 'the server could not do this (AssertionError)' or (SystemError)."""
    import threading

    app = create_app(None)
    answers: list[tuple[int, str]] = []

    def visit() -> None:
        response = TestClient(app).get("/")
        answers.append((response.status_code, response.text))

    visitors = [threading.Thread(target=visit) for _ in range(3)]
    for visitor in visitors:
        visitor.start()
    for visitor in visitors:
        visitor.join()
    assert [status for status, _ in answers] == [200] * 3, [re.findall("could not do this[^<]*", t) for _, t in answers]
    assert all(f'href="/play/{name}?players=' in text for _, text in answers for name in builtin_names())


def test_a_game_file_opened_past_the_time_cap_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """/api/open answered 503 'nothing was changed' past the cap, and the abandoned work then added the table anyway."""
    import threading
    import time

    from cli.web import tables

    app = create_app(None)
    client = TestClient(app, follow_redirects=False)
    saved = client.get(f"/api/tables/{start(client, '/play/tutorial-tiles?players=2&seed=3')}/save").content
    app.state.server.cap = 0.3  # only now: a loaded machine may take that long to set the table up
    replayed, finished = tables.Table.from_replay, threading.Event()

    def slowly(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        try:
            return replayed(*args, **kwargs)
        finally:
            finished.set()

    monkeypatch.setattr(tables.Table, "from_replay", slowly)
    response = client.post("/api/open?mode=play", content=saved)
    assert response.status_code == 503 and "nothing was changed" in response.json()["error"]
    assert finished.wait(30)
    time.sleep(0.5)  # the abandoned work has gone on to keep the table, or not
    second = f"t2-{app.state.server.tables.run}"  # the id the file's table would have had
    assert client.get(f"/api/tables/{second}").json()["error"].startswith(f"there is no game '{second}'")


def test_an_action_played_past_the_time_cap_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """/act answered 503 'nothing was changed' past the cap, and the abandoned work then played the move anyway."""
    import threading
    import time

    from engine.model.state import State

    app = create_app(None)
    client = TestClient(app, follow_redirects=False)
    table = start(client, "/play/tutorial-tiles?players=2&seed=3")
    before = view(client, table)
    app.state.server.cap = 0.3  # only now: a loaded machine may take that long to set the table up
    applied, finished = State.apply, threading.Event()

    def slowly(self: State, *args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        try:
            return applied(self, *args, **kwargs)
        finally:
            finished.set()

    monkeypatch.setattr(State, "apply", slowly)
    response = client.post(f"/api/tables/{table}/act", json={"action": before["actions"][0]["text"]})
    assert response.status_code == 503 and "nothing was changed" in response.json()["error"]
    assert finished.wait(30)
    time.sleep(0.5)  # the abandoned work has gone on to keep the move, or not
    assert view(client, table) == before


@pytest.mark.parametrize("request_made", ["undo", "goto"])
def test_an_undo_or_a_replay_move_past_the_time_cap_is_not_kept(monkeypatch: pytest.MonkeyPatch, request_made: str) -> None:
    """/undo and /goto answered 503 'nothing was changed' past the cap, and the abandoned work then changed the table."""
    import threading
    import time

    app = create_app(None)
    client = TestClient(app, follow_redirects=False)
    game = shipped_game("tutorial-tiles")
    if request_made == "undo":
        table = start(client, "/play/tutorial-tiles?players=2&seed=3")
        client.post(f"/api/tables/{table}/act", json={"action": view(client, table)["actions"][0]["text"]})
        body: dict[str, Any] = {}
    else:
        state = game.new_state(players=2, seed=5, record=True)
        while not state.is_terminal:
            state.apply(RandomAgent(5).choose(state))
        saved = json.dumps(Replay.record(state, "tutorial-tiles", 5).to_json())
        table = client.post("/api/open?mode=replay", content=saved).json()["url"].rsplit("/", 1)[1]
        body = {"position": 2}
    before = view(client, table)
    app.state.server.cap = 0.3  # only now: a loaded machine may take that long to set the table up
    started, finished = type(game).new_state, threading.Event()

    def slowly(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        try:
            return started(*args, **kwargs)
        finally:
            finished.set()

    monkeypatch.setattr(type(game), "new_state", slowly)
    response = client.post(f"/api/tables/{table}/{request_made}", json=body)
    assert response.status_code == 503 and "nothing was changed" in response.json()["error"]
    assert finished.wait(30)
    time.sleep(0.5)  # the abandoned work has gone on to change the table, or not
    assert view(client, table) == before


@pytest.mark.parametrize("request_made", ["open", "goto"])
def test_a_long_replay_refused_at_the_time_cap_stops_its_work_too(monkeypatch: pytest.MonkeyPatch, request_made: str) -> None:
    """A game file refused at the cap went on being replayed in its thread to its last action (each such request
    kept a worker thread busy for as long as the whole game took): it now stops between two moves."""
    import threading
    import time

    from engine.model.state import State

    app = create_app(None)
    client = TestClient(app, follow_redirects=False)
    state = shipped_game("othello").new_state(players=2, seed=5, record=True)
    while not state.is_terminal:
        state.apply(RandomAgent(5).choose(state))
    actions = len(state.history or [])  # about 60 moves, 3 s of them below: ten times the cap
    saved = json.dumps(Replay.record(state, "othello", 5).to_json())
    table = client.post("/api/open?mode=replay", content=saved).json()["url"].rsplit("/", 1)[1]
    app.state.server.cap = 0.3
    applied, played, calls = State.apply, Table._play, []
    playing = threading.local()  # set in the thread replaying for this request, not in other tests' leftover work

    def slowly(self: State, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.05)
        if getattr(playing, "here", False):
            calls.append(1)
        return applied(self, *args, **kwargs)

    def marked(self: Table, *args: Any, **kwargs: Any) -> None:
        playing.here = True
        played(self, *args, **kwargs)

    monkeypatch.setattr(State, "apply", slowly)
    monkeypatch.setattr(Table, "_play", marked)
    if request_made == "open":
        response = client.post("/api/open?mode=replay", content=saved)
    else:
        response = client.post(f"/api/tables/{table}/goto", json={"position": actions})
    assert response.status_code == 503
    stopped, deadline = -1, time.monotonic() + 5  # the whole game would take about 3 s: wait until the work stops
    while len(calls) != stopped and time.monotonic() < deadline:  # (a busy machine may run it a little past 0.5 s)
        stopped = len(calls)
        time.sleep(0.5)
    assert len(calls) == stopped < actions, (stopped, actions)  # stopped, well before the game's end


@pytest.mark.parametrize("body", [b'{"action": "\\ud800"}', b'{"action": "place X at 0,\\udfff"}'])
def test_a_move_quoting_a_lone_surrogate_is_refused_in_valid_json(client: TestClient, body: bytes) -> None:
    """A move's text holding a lone surrogate (valid JSON, not valid UTF-8) was refused by name, and the refusal
    itself could not be written: UnicodeEncodeError, no answer, a traceback in the server's output."""
    table = start(client, "/play/tic-tac-toe?players=2&seed=1&seat=2=human")
    before = view(client, table)
    response = client.post(f"/api/tables/{table}/act", content=body)
    assert response.status_code == 400
    assert "\\ud8" in response.text or "\\udf" in response.text  # written as an escape: the body is UTF-8
    assert "is not a" in json.loads(response.content)["error"]
    assert view(client, table) == before


def test_a_page_bots_search_stops_at_the_pages_seconds_whatever_its_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """'mcts:5000' passed the page's caps (5,000 iterations or 5 seconds) and thought 62 s a move on iconica: the
    request was refused at the cap (20 s) and its thread searched on.  A page's bot now stops at the seconds too."""
    import time

    from cli.web import tables

    monkeypatch.setattr(tables, "MAX_SECONDS", 0.3)
    game = shipped_game("iconica")
    table = tables.Table.new("t1", "iconica", game, players=2, seed=1, bots={1: "mcts:5000", 2: "mcts:5000"})
    while len(table.state.legal_actions()) < 2:
        assert table.advance()
    started = time.perf_counter()
    assert table.advance()
    assert time.perf_counter() - started < 5, "the search ran past its seconds"
    assert table.agents[table.moves[-1].seat].last.iterations < 5000


def test_a_page_greedy_bot_tries_no_option_after_the_pages_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A greedy bot on the page tried every option, whatever the time: on a choice among 10,000 numbers, each costing
    a listing of 10,000, a move took minutes, its request refused at the cap and its thread running on."""
    from cli.web import tables
    from engine.runner.agents import GreedyAgent, make_agent
    from tests.test_agents import MANY_OPTIONS

    assert tables.page_agent(make_agent("greedy", 1)).at_most == tables.MAX_SECONDS  # type: ignore[attr-defined]
    monkeypatch.setattr(tables, "MAX_SECONDS", 0.0)
    (tmp_path / "ruleset.yaml").write_text(MANY_OPTIONS, encoding="utf-8")
    game = engine.load(str(tmp_path / "ruleset.yaml"))
    tried: list[int] = []
    real = GreedyAgent._value_after
    monkeypatch.setattr(GreedyAgent, "_value_after", lambda self, s, i, *rest: tried.append(i) or real(self, s, i, *rest))
    table = tables.Table.new("t1", "many-options", game, players=2, seed=1, bots={1: "greedy:work=5000", 2: "random"})
    assert table.advance() and len(tried) == 1  # the first option tried, then the time was up


def test_the_simulation_page_and_simulate_html_draw_the_same_charts(client: TestClient, tmp_path: Path) -> None:
    page = client.get("/simulate/tutorial-tiles?players=3&n=30&agents=random").text
    path = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["simulate", "tutorial-tiles", "--players", "3", "-n", "30", "--html", str(path)])
    assert result.exit_code == 0 and f"report with charts written to {path}" in result.output
    written = path.read_text()
    for html in (page, written):
        # win rates, mean points (three players' ranks pay 3, 1 or 0: a loss pays differently), lengths in actions and
        # in turns, the roles dealt at random (their tiles go with them: no chart of the tiles held), components
        assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') == 6
        assert "tutorial-tiles, 3 players, 30 games, seed 0" in html
        assert not re.search(r"<script|<link|src=|url\(", html)  # self-contained
    charts = re.findall(r"<svg.*?</svg>", written, re.S)
    assert charts == re.findall(r"<svg.*?</svg>", page, re.S)


def test_the_length_histogram_counts_in_words_that_agree_with_the_number() -> None:
    """Its bars' tooltips said "1 games" (and "8 actions" for a bin of one length, right, but "1 actions")."""
    from cli.web.charts import length_histogram
    from engine.runner.simulate import simulate

    report = simulate(shipped_game("tic-tac-toe"), players=2, n=5, seed=0, agents="random")
    titles = re.findall(r"<title>([^<]*)</title>", length_histogram(report))
    assert titles and all(re.fullmatch(r"\d+(–\d+)? actions?: \d+ games?", t) for t in titles), titles
    assert not any(re.search(r"(^|\D)1 (games|actions)", t) for t in titles), titles


def ruleset_copy(tmp_path: Path, display: str) -> Path:
    folder = tmp_path / "tiles"
    shutil.copytree(rulesets_dir() / "tutorial-tiles", folder)
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text() + display)
    return folder


def test_a_display_colour_reaches_the_board(tmp_path: Path) -> None:
    folder = ruleset_copy(tmp_path, '\ndisplay:\n  Sun: {colour: "#123456", short: S}\n')
    client = TestClient(create_app(str(folder)), follow_redirects=False)
    table = start(client, "/play/tiles?players=2&seed=1")
    first = view(client, table)["actions"][0]["text"]
    board = client.post(f"/api/tables/{table}/act", json={"action": first}).json()["html"]
    assert 'fill="#123456"' in board and 'background:#123456' in board


def test_a_colour_word_is_drawn_in_the_colour_a_browser_gives_it() -> None:
    """Colours were read as a terminal's: Connect Four's yellow discs (styled 'bold yellow') were drawn dark olive,
    and a value named for a colour the terminal has no name for fell back on the palette: Banner Clash's Gold
    banner was drawn blue."""
    from cli.web.svg import value_colours

    assert value_colours(shipped_game("connect-four"))["Yellow"] == "#ffff00"
    assert value_colours(shipped_game("banner-clash"))["Gold"] == "#ffd700"
    assert value_colours(shipped_game("spell-cycles"))["yellow"] == "#ffff00"


def test_a_display_colour_must_be_a_colour(tmp_path: Path) -> None:
    folder = ruleset_copy(tmp_path, '\ndisplay:\n  Sun: {colour: "red\\"/><script>"}\n')
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    assert re.search(r"ruleset.yaml:\d+:\d+: 'red\"/><script>' is not a colour", result.output)


def test_a_folder_of_rulesets_is_served_by_folder_name(tmp_path: Path) -> None:
    ruleset_copy(tmp_path, "")
    catalog = Catalog(str(tmp_path))
    assert catalog.names() == ["tiles"]
    assert catalog.load("tiles").name == "tutorial-tiles"


def test_the_ruleset_of_the_folder_the_server_runs_in_is_served_by_that_folder_s_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'rulecraft serve .' listed a ruleset named '' whose every link, /play/?players=2, was 'no ruleset'."""
    monkeypatch.chdir(ruleset_copy(tmp_path, ""))
    assert Catalog(".").names() == Catalog("ruleset.yaml").names() == ["tiles"]


def test_a_ruleset_folder_named_with_a_hash_or_question_mark_is_reached_by_its_links(tmp_path: Path) -> None:
    """The front page wrote a folder's name into its links as it was: 'a#b?' made /play/a#b??players=2."""
    ruleset_copy(tmp_path, "").rename(tmp_path / "a#b?")
    client = TestClient(create_app(str(tmp_path)), follow_redirects=False)
    links = re.findall(r'href="(/(?:play|watch|rules|simulate)/[^"]*)"', client.get("/").text)
    assert links and all(link.startswith(("/play/a%23b%3F?", "/watch/a%23b%3F?", "/rules/a%23b%3F", "/simulate/a%23b%3F?"))
                         for link in links), links
    assert client.get(links[0].replace("&amp;", "&")).status_code == 303
    assert client.get("/rules/a%23b%3F").status_code == 200


def test_a_ruleset_edited_while_the_server_runs_is_served_as_it_now_is(tmp_path: Path) -> None:
    """The server compiled each ruleset once: a designer who edited the YAML and reloaded the page got the old rules
    (and the old title) until the server was restarted, and a ruleset broken by an edit still played."""
    folder = ruleset_copy(tmp_path, "")
    path = folder / "ruleset.yaml"
    client = TestClient(create_app(str(folder)), follow_redirects=False)
    table = start(client, "/play/tiles?players=2&seed=1")
    assert "<h1>Tiles — a tutorial ruleset</h1>" in client.get("/rules/tiles").text
    path.write_text(path.read_text().replace("title: Tiles — a tutorial ruleset", "title: Tiles, edited")
                    .replace("max_width: board_size", "max_width: 2"))
    assert "<h1>Tiles, edited</h1>" in client.get("/rules/tiles").text
    assert "<b>tiles</b><br><small>Tiles, edited</small>" in client.get("/").text
    edited = start(client, "/play/tiles?players=2&seed=1")
    assert "Tiles, edited" in client.get(f"/table/{edited}").text
    assert "Tiles — a tutorial ruleset" in client.get(f"/table/{table}").text  # a game on the table keeps its rules
    (folder / "extra.yaml").write_text("nothing: here\n")  # a file beside it: the ruleset is read again, unchanged
    assert "<h1>Tiles, edited</h1>" in client.get("/rules/tiles").text
    path.write_text(path.read_text().replace("adjacency: orthogonal", "adjacency: sideways"))
    refused = client.get("/play/tiles?players=2&seed=1")
    assert refused.status_code == 400 and re.search(r"ruleset.yaml:\d+:\d+: .*sideways", refused.text)


def test_a_ruleset_broken_by_an_edit_quotes_its_lines_as_they_now_are(tmp_path: Path) -> None:
    """The lines an error quoted beneath its position were those of the file as first read: a designer who broke a
    line of a served ruleset was shown the line before the edit under the caret, the word the message named nowhere."""
    folder = ruleset_copy(tmp_path, "")
    path = folder / "ruleset.yaml"
    client = TestClient(create_app(str(folder)), follow_redirects=False)
    start(client, "/play/tiles?players=2&seed=1")
    for wrong in ("symbl", "symbal"):
        path.write_text(path.read_text().replace("t.front.symbol == r, hand(r)", f"t.front.{wrong} == r, hand(r)")
                        .replace("t.front.symbl == r, hand(r)", f"t.front.{wrong} == r, hand(r)"))
        refused = client.get("/play/tiles?players=2&seed=1")
        assert refused.status_code == 400
        assert re.search(rf"ruleset.yaml:\d+:\d+: a tile has no attribute &#x27;{wrong}&#x27;.*\n +move\(t in tiles "
                         rf"where t.front.{wrong} == r", refused.text), refused.text


@pytest.mark.parametrize("folder", ["über🎲", 'a"b'])
def test_a_game_of_a_folder_named_in_any_characters_can_be_saved(tmp_path: Path, folder: str) -> None:
    from urllib.parse import quote, unquote

    ruleset_copy(tmp_path, "").rename(tmp_path / folder)
    client = TestClient(create_app(str(tmp_path)), follow_redirects=False)
    table = start(client, f"/play/{quote(folder)}?players=2&seed=1")
    response = client.get(f"/api/tables/{table}/save")
    assert response.status_code == 200, response.text
    header = response.headers["content-disposition"]
    assert header.isascii() and header.count('"') == 2
    assert unquote(header.split("filename*=UTF-8''")[1]) == f"{folder}-seed1.json"
    assert json.loads(response.text)["seed"] == 1


class BoundSocket:
    """What the server is handed in place of a real listening socket: its address."""

    def __init__(self, host: str, port: int) -> None:
        self.address = (host, port)

    def getsockname(self) -> tuple[str, int]:
        return self.address


def test_serve_binds_to_localhost_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    import cli.web.serve

    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(cli.web.serve, "listening_socket", BoundSocket)
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets: calls.extend(s.getsockname() for s in sockets))
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 0, result.output
    assert calls == [("127.0.0.1", 8000)]
    assert result.output == "serving the built-in rulesets at http://127.0.0.1:8000/ (Ctrl-C stops)\n"
    result = CliRunner().invoke(main, ["serve", "no-such-game"])
    assert result.exit_code == 1 and "unknown ruleset 'no-such-game'" in result.output


def test_ctrl_c_while_serve_starts_up_stops_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while serve loaded its rulesets (before it listened) printed 'Aborted!' and exited with status 1."""
    import cli.web.app

    def interrupted(source: str | None, cap: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.web.app, "create_app", interrupted)
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert (result.exit_code, result.output) == (0, "")


def test_serve_stopped_at_once_opens_no_page_on_the_server_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """'serve --open' stopped by Ctrl-C within a second still opened the page a second later, on a stopped server
    (the command waited for it to exit)."""
    import time
    import webbrowser

    import uvicorn

    def interrupted(server: object, sockets: object) -> None:
        raise KeyboardInterrupt

    opened: list[str] = []
    monkeypatch.setattr(uvicorn.Server, "run", interrupted)
    monkeypatch.setattr(webbrowser, "open", opened.append)
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--open"])
    assert result.exit_code == 0, result.output
    time.sleep(1.3)
    assert opened == []


def test_serve_on_a_busy_port_says_so_instead_of_announcing_its_address() -> None:
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    finally:
        busy.close()
    assert result.exit_code == 1, result.output
    assert result.output == (f"cannot serve at 127.0.0.1:{port}: Address already in use "
                             "(choose another --port, or a --host of this machine)\n")


def test_serve_on_port_0_announces_the_port_it_got(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    bound: list[int] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets: bound.extend(s.getsockname()[1] for s in sockets))
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 0 and bound and bound[0] != 0, result.output
    assert result.output == f"serving the built-in rulesets at http://127.0.0.1:{bound[0]}/ (Ctrl-C stops)\n"


def test_a_ruleset_that_does_not_load_gets_its_positions_and_the_others_are_served(tmp_path: Path) -> None:
    good = ruleset_copy(tmp_path, "")
    broken = tmp_path / "broken"
    shutil.copytree(good, broken)
    path = broken / "ruleset.yaml"
    path.write_text(path.read_text().replace("symbol: [Sun, Moon, Star]", "symbol: [Sun, Moon, Star]\n  bad: {{{"))
    client = TestClient(create_app(str(tmp_path)), follow_redirects=False)
    front = client.get("/")
    assert front.status_code == 200 and "does not load:" in front.text and 'href="/play/tiles?players=' in front.text
    response = client.get("/play/broken?players=2")
    assert response.status_code == 400 and re.search(r"broken/ruleset.yaml:\d+:\d+: ", response.text)
    assert client.get("/play/tiles?players=2").status_code == 303


def test_a_game_file_is_read_no_further_than_its_size_cap(client: TestClient) -> None:
    from engine.runner.replay import MAX_BYTES

    response = client.post("/api/open?mode=replay", content=b" " * (MAX_BYTES + 5000))
    assert response.status_code == 400 and "a game file is at most 20 MB" in response.json()["error"]


def test_a_sealed_move_shows_as_the_other_seats_see_it(client: TestClient) -> None:
    """Two humans at two pages: seat 2's page never shows what seat 1 committed face down."""
    table = start(client, "/play/nine-domains?players=2&seed=1&seat=2=human")
    first = view(client, table, seat=1)["actions"][0]["text"]
    assert first == "commit 0 to left"
    client.post(f"/api/tables/{table}/act", json={"action": first})
    assert view(client, table, seat=1)["moves"][0]["text"] == "commit 0 to left"
    assert view(client, table, seat=2)["moves"][0]["text"] == "commit a card to left"
    saved = client.get(f"/api/tables/{table}/save").content
    replayed = client.post("/api/open?mode=replay", content=saved).json()["url"].rsplit("/", 1)[1]
    assert view(client, replayed, seat=2)["moves"][0]["text"] == "commit 0 to left"  # a replay shows everything


def test_a_zone_that_shows_attributes_lists_them_beside_each_component(client: TestClient) -> None:
    table = start(client, "/play/spell-cycles?players=2&seed=1")
    html = view(client, table)["html"]
    line = re.search(r'<section class="zone" data-zone="line">(.*?)</section>', html, re.S)
    assert line is not None
    listed = re.findall(r'<div class="listed"><button[^>]*>([^<]*)</button> <small>([^<]*)</small></div>', line.group(1))
    state = shipped_game("spell-cycles").new_state(players=2, seed=1)
    names = [state.game.piece_names[c] for c in state.zones[state.game.zone_names.index("line")]]
    assert [name for name, _ in listed] == names
    assert all(re.fullmatch(r"[a-z ]+; cost \d+(; crescents \d+)?", details) for _, details in listed), listed


def serving(folder: Path, ruleset: str) -> tuple["subprocess.Popen[str]", int]:
    """``rulecraft serve RULESET`` started in its own process from ``folder``, on a free port; the process and port."""
    import socket
    import sys

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen(
        [sys.executable, "-c", "from cli.main import main; main()", "serve", ruleset, "--port", str(port)],
        cwd=folder, env={**os.environ, "PYTHONPATH": str(root)}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    return process, port


def test_rulecraft_serve_answers_at_the_address_it_prints(tmp_path: Path) -> None:
    """The real command in its own process: it prints its address, serves the front page there, stops on a signal."""
    import signal
    import time
    import urllib.request

    process, port = serving(tmp_path, "tutorial-tiles")
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == f"serving tutorial-tiles at http://127.0.0.1:{port}/ (Ctrl-C stops)\n"
        deadline = time.monotonic() + 20
        while True:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "the server did not answer"
                time.sleep(0.1)
        assert 'href="/play/tutorial-tiles?players=2"' in page and "iconica" not in page
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)


def test_ctrl_c_stops_rulecraft_serve_while_a_table_page_is_open(tmp_path: Path) -> None:
    """A table page follows its table's events over a connection that stays open: Ctrl-C waited for that page to be
    closed, for ever, and a second Ctrl-C stopped the server with two tracebacks. Then Ctrl-C printed 'Aborted!' and
    exited with status 1, as if the server had failed: stopped by its user, it stops quietly with status 0."""
    import http.client
    import signal
    import time

    process, port = serving(tmp_path, "tic-tac-toe")
    try:
        assert process.stdout is not None and process.stdout.readline().startswith("serving tic-tac-toe at")
        deadline = time.monotonic() + 20
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                connection.request("GET", "/play/tic-tac-toe?players=2&seed=1")
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "the server did not answer"
                time.sleep(0.1)
        table = connection.getresponse().headers["location"].rsplit("/", 1)[1]
        connection.close()
        events = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        events.request("GET", f"/api/tables/{table}/events")
        stream = events.getresponse()
        assert stream.readline().startswith(b"data: ")  # the page is following its table
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
        assert process.stdout.read() == ""  # no traceback, no 'Aborted!
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def test_the_api_examples_in_docs_web_md_are_real_output() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "web.md").read_text(encoding="utf-8")
    app = create_app(None)
    app.state.server.tables.run = "4f9a2c"  # a fresh server with the mark the page shows: its first game is t1-4f9a2c
    client = TestClient(app, follow_redirects=False)
    assert f"# {client.get('/api/tables/t999').text}\n" in doc
    location = client.get("/play/iconoclasm-cards?players=2&seed=7").headers["location"]
    assert f"# http://127.0.0.1:8000{location}\n" in doc
    refused = client.post("/api/tables/t1-4f9a2c/act", content=b'{"action": "place Air/Air as Fire at 0,0"}').text
    assert f"# {refused}\n" in doc


def test_a_page_left_open_across_a_restart_plays_nothing_in_the_new_servers_games() -> None:
    """Table ids started again at t1 with every server: a page left open while the designer restarted the server
    named the new server's first game, drew it under the old game's title, and its next click was played there."""
    before, after = (TestClient(create_app(None), follow_redirects=False) for _ in range(2))
    stale = start(before, "/play/tic-tac-toe?players=2&seed=1&seat=2=human")
    fresh = start(after, "/play/tic-tac-toe?players=2&seed=1&seat=2=human")
    refused = after.post(f"/api/tables/{stale}/act", json={"action": "place X at 0,0", "seat": 1, "version": 0})
    assert refused.status_code == 404 and "or the server started again since" in refused.json()["error"]
    assert view(after, fresh)["moves"] == []


def test_a_move_the_ruleset_fails_on_is_refused_and_the_table_is_as_it_was() -> None:
    from cli.web.tables import TableError

    folder = Path(__file__).parent / "data" / "failing-effect"
    table = Table.new("t1", str(folder), engine.load(str(folder)), players=2, seed=1, bots={})
    before = table.state.clone(record=True)
    with pytest.raises(TableError, match=r"the ruleset failed while playing 'choose A0': .*division by zero"):
        table.act("choose A0")
    assert table.state == before and table.state.history == before.history
    table.act("choose A1")
    assert table.state.history == ["choose A1"]


def test_a_move_asking_for_a_seat_the_table_lacks_is_refused_before_it_is_played(client: TestClient) -> None:
    table = start(client, "/play/tic-tac-toe?players=2&seed=1&seat=2=human")
    before = view(client, table)
    for seat in (99, 0, -1):
        response = client.post(f"/api/tables/{table}/act", json={"action": "place X at 0,0", "seat": seat})
        assert response.status_code == 400
        assert response.json() == {"error": f"there is no seat {seat} with 2 players"}
        assert view(client, table) == before


def test_a_piece_whose_faces_differ_only_in_name_shows_the_face_up() -> None:
    """A crowned checker is the colour of a man: the face up is written on it, so kings and men tell apart."""
    from cli.web.svg import board_svg

    game = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "checkers"))
    state = game.new_state(players=2, seed=4)
    agent = RandomAgent(2)
    while not any(state.face[cid] == 1 for cid in state.grid.values()):
        state.apply(agent.choose(state))
    drawn = dict(re.findall(r'<title>\w+ as (\w+) at [a-h][1-8]</title><rect[^>]*/>(.*?)</g>', board_svg(state)))
    assert set(drawn) == {"man", "king"}
    assert "king</text>" in drawn["king"] and "man</text>" in drawn["man"]


def test_a_pieces_counters_are_written_on_it() -> None:
    """A Kalah pit's seeds are read on the pit itself, not only in the counters' list by the pits' names."""
    from cli.web.svg import board_svg

    game = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "kalah"))
    state = game.new_state(players=2, seed=1)
    state.apply(state.parse_action("choose S3 at 3,0"))
    drawn = dict(re.findall(r'<title>([\w-]+)(?:, seeds \d+)? at [-\d,]+</title>(.*?)</g>', board_svg(state)))
    counts = {pit: re.findall(r'class="count"[^>]*>(\d+)<', shape) for pit, shape in drawn.items()}
    assert counts["S3"] == [] and counts["S4"] == ["5"] and counts["S1"] == counts["N6"] == ["4"]
    assert counts["South-store"] == ["1"] and counts["North-store"] == []


def test_a_stack_on_a_hex_board_shows_how_many_pieces_lie_there(tmp_path: Path) -> None:
    """A hex board that stacks drew only the top piece: a stack's count was written on square boards alone. A blue
    piece on two red ones, drawn '+2' on square boards, is now a disc of each colour with its count."""
    from cli.web.svg import board_svg, value_colours

    folder = tmp_path / "stacked"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("name: stacked\nextends: hex-glyphs\nboard: {stacking: true}\n")
    state = engine.load(str(folder)).new_state(players=2, seed=1)
    for _ in range(3):
        state.apply(state.parse_action(next(str(a) for a in state.legal_actions() if str(a).endswith(" at 0,0"))))
    top, *beneath = state.stack((0, 0))
    names = state.game.piece_names
    drawn = re.search(r'<g class="piece"><title>([^<]*) at 0,0([^<]*)</title>(.*?)</g>', board_svg(state))
    assert drawn is not None and drawn[1] == names[top]
    assert [names[cid] for cid in state.stack((0, 0))] == ["blue", "red", "red"]
    assert drawn[2] == ", above red ×2"  # a run of one kind counted
    colours = value_colours(state.game)
    discs = re.findall(r'<circle class="kind"[^>]*fill="([^"]+)"[^>]*/><text[^>]*>(\d+)</text>', drawn[3])
    assert discs == [(colours["blue"], "1"), (colours["red"], "2")]  # each kind's count, the top one's first


def test_a_seat_cannot_move_when_it_is_another_seats_turn(client: TestClient) -> None:
    """Seat 1's page, a click late, must not play seat 2's sealed move (the same words are legal for both)."""
    table = start(client, "/play/nine-domains?players=2&seed=3&seat=2=human")
    for text in ("commit 2 to left", "commit 3 to middle", "commit 4 to right"):
        assert "error" not in client.post(f"/api/tables/{table}/act", json={"action": text, "seat": 1}).json()
    before = view(client, table, 2)
    response = client.post(f"/api/tables/{table}/act", json={"action": "commit 2 to left", "seat": 1})
    assert response.status_code == 400
    assert response.json() == {"error": "it is seat 2's turn, not seat 1's: nothing was played"}
    assert view(client, table, 2) == before
    assert "error" not in client.post(f"/api/tables/{table}/act", json={"action": "commit 2 to left", "seat": 2}).json()


def test_a_listed_component_whose_first_shown_attribute_is_a_number_has_no_stray_semicolon(client: TestClient) -> None:
    """Liar's dice shows the die in one's cup as 'die pips 5', not 'die ; pips 5' (nor 'die:; pips 5' in the terminal)."""
    table = start(client, "/play/liars-dice?players=2&seed=6")
    listed = re.findall(r'<div class="listed"><button[^>]*>([^<]*)</button> <small>([^<]*)</small></div>', view(client, table)["html"])
    assert listed == [("die", "pips 5")]


def test_a_component_off_the_board_is_drawn_in_the_colour_of_the_face_it_shows(client: TestClient) -> None:
    """Othello's white stock holds discs showing White: drawn white and named so, not as black discs."""
    table = start(client, "/play/othello?players=2&seed=1")
    html = view(client, table)["html"]
    chips = r'<section class="zone[^"]*" data-zone="([^"]+)">.*?style="background:([^;]+);[^>]*>([^<]*)</button>'
    stocks = {zone: (fill, text) for zone, fill, text in re.findall(chips, html)}
    assert set(stocks) == {"stock of Black", "stock of White"}
    black, white = stocks["stock of Black"], stocks["stock of White"]
    assert black[1] == "disc ×60" and white[1] == "disc (White) ×60"
    assert black[0] != white[0]


@pytest.mark.parametrize("seat", [True, "1", 1.0, [1]])
def test_a_move_naming_its_seat_by_other_than_a_number_is_refused_clearly(client: TestClient, seat: Any) -> None:
    table = start(client, "/play/tic-tac-toe?players=2&seed=1&seat=2=human")
    before = view(client, table)
    response = client.post(f"/api/tables/{table}/act", json={"action": "place X at 0,0", "seat": seat})
    assert response.status_code == 400
    assert response.json() == {"error": 'say which seat moves by its number, {"seat": 1}, or leave it out for the seat to move'}
    assert view(client, table) == before


@pytest.mark.parametrize("url", [
    "/play/tutorial-tiles?seat=2=policy:/etc/passwd",
    "/watch/tutorial-tiles?agents=random,Policy:/etc/hostname",
    "/simulate/tutorial-tiles?n=5&agents=policy:/no/such/file,random",
    "/play/tutorial-tiles?seat=2=/tmp/bots.py:Cautious",
    "/watch/tutorial-tiles?agents=random,../my_bots.PY:First",
])
def test_a_page_cannot_make_the_server_read_a_file_it_names(client: TestClient, url: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot spec naming a file (policy:FILE, or PATH.py:CLASS, an agent class of the command line's) is refused by
    name before anything is read: a request could otherwise probe the server's files ('not JSON' for a file that
    exists, 'No such file' for one that does not), or run one."""
    opened: list[str] = []
    monkeypatch.setattr("engine.runner.agents.policy.read_policy", lambda path: opened.append(path) or ({}, 0.0, None))
    monkeypatch.setattr("cli.agent_files._load", lambda path: opened.append(path))
    response = client.get(url)
    assert response.status_code == 400 and opened == []
    assert "the page's bots read no file" in response.text.replace("&#x27;", "'")
    assert client.get("/play/tutorial-tiles?players=2").status_code == 303  # still serving


def test_a_growing_board_draws_no_empty_cell_once_the_game_is_over() -> None:
    """At the end of every iconoclasm-cards game the board still drew the empty cells a piece could go to next."""
    from cli.web.svg import board_svg

    state = shipped_game("iconoclasm-cards").new_state(players=2, seed=4)
    agent = RandomAgent(4)
    while not state.is_terminal:
        before = board_svg(state)
        state.apply(agent.choose(state))
    occupied = {f"{x},{y}" for x, y in state.grid}
    assert set(re.findall(r'data-cell="([-\d,]+)"', before)) > occupied  # the last move's frontier was drawn
    assert set(re.findall(r'data-cell="([-\d,]+)"', board_svg(state))) == occupied


STONE_AND_DYE_COLOURS = {"amber", "jade", "onyx", "crimson", "azure", "scarlet", "emerald", "ruby", "sapphire", "ochre",
                         "cobalt", "ivory", "ebony", "vermilion", "cerulean", "saffron"}
"""Colour names a designer gives a side, which a browser either does not know or reads otherwise (its azure is a
near-white)."""


@pytest.mark.parametrize("name", builtin_names())
def test_a_shipped_value_named_for_a_colour_says_which_colour_it_is(name: str) -> None:
    """Iconica's banners Amber and Jade were drawn green and yellow, colours of the palette: a value named for a
    colour the page does not know gives that colour in its ruleset's display."""
    game = shipped_game(name)
    named = [v for values in game.types.values() for v in values if v.lower() in STONE_AND_DYE_COLOURS]
    assert [v for v in named if not game.display.get(v, {}).get("colour")] == []


def test_opening_many_tables_forgets_neither_a_game_being_played_nor_one_asked_for_lately() -> None:
    """Past the server's 200 tables, bot games and finished ones go first, then the least recently asked for:
    a page opening bot games again and again used to close the oldest table, a game in the middle of being played."""
    app = create_app(None)
    app.state.server.tables.limit = 20  # type: ignore[attr-defined]  # as 200, sooner (400 tables opened took 6 s)
    mine, stranger = (TestClient(app, follow_redirects=False) for _ in range(2))
    playing = start(mine, "/play/tic-tac-toe?players=2&seed=1")
    assert mine.post(f"/api/tables/{playing}/act", json={"action": "place X at 0,0"}).status_code == 200
    watched = [start(stranger, "/watch/tic-tac-toe?players=2&seed=1") for _ in range(21)]
    assert [m["text"] for m in view(mine, playing)["moves"]] == ["place X at 0,0"]
    assert stranger.get(f"/api/tables/{watched[0]}").status_code == 404  # the oldest bot game went instead
    lately = start(mine, "/play/tic-tac-toe?players=2&seed=2")
    for _ in range(19):
        start(stranger, "/play/tic-tac-toe?players=2&seed=3")
        view(mine, playing)  # a page following its game asks for it
    assert view(mine, playing)["moves"] and mine.get(f"/api/tables/{lately}").status_code == 404


@pytest.mark.parametrize("cap", ["nan", "inf", "1e300"])
def test_a_cap_that_is_no_number_of_seconds_a_lock_takes_is_refused_at_the_start(cap: str) -> None:
    """'serve --cap nan' (or inf, 1e300) started, then answered every move with 500 (OverflowError, the table's lock
    waited for that long); it is refused as the server starts, and by the command line."""
    from click.testing import CliRunner

    from cli.main import main

    with pytest.raises(ValueError, match=re.escape(f"the cap is {float(cap)} seconds: it is a number of seconds above 0, "
                                                   "at most 86,400")):
        create_app(None, cap=float(cap))
    ended = CliRunner().invoke(main, ["serve", "tic-tac-toe", "--cap", cap])
    assert ended.exit_code == 2 and "Invalid value for '--cap'" in ended.output, ended.output


def test_a_stranger_opening_table_after_table_closes_nobodys_game() -> None:
    """A stranger opening played tables (and moving once at each, so none is a game merely opened) forgot the least
    recently asked for: a game whose player was thinking, page open, was closed with every move made.  Now a game
    being played, asked for lately, is kept and the new table refused (503) while none may go."""
    app = create_app(None)
    app.state.server.tables.limit = 6  # type: ignore[attr-defined]  # as 200, sooner
    mine, stranger = TestClient(app, follow_redirects=False), TestClient(app, follow_redirects=False)
    playing = start(mine, "/play/tic-tac-toe?players=2&seed=1")
    assert mine.post(f"/api/tables/{playing}/act", json={"action": "place X at 0,0"}).status_code == 200
    for _ in range(5):
        table = start(stranger, "/play/tic-tac-toe?players=2&seed=3")
        assert stranger.post(f"/api/tables/{table}/act", json={"action": "place X at 1,1"}).status_code == 200
    for url in ["/play/tic-tac-toe?players=2&seed=3", "/watch/tic-tac-toe?players=2&seed=3"]:
        refused = stranger.get(url)
        assert refused.status_code == 503 and "this server keeps at most 6 tables, and each is a game being " \
                                                "played, asked for in the last 60 minutes" in refused.text
    assert [m["text"] for m in view(mine, playing)["moves"]] == ["place X at 0,0"]


def test_a_game_nobody_asked_for_in_an_hour_makes_room_for_a_new_one() -> None:
    """Games left half-played do not fill the server for good: past ``idle`` seconds unasked, one may go."""
    app = create_app(None)
    now = [0.0]
    tables = app.state.server.tables  # type: ignore[attr-defined]
    tables.limit, tables.clock = 2, lambda: now[0]
    browser = TestClient(app, follow_redirects=False)
    first, second = (start(browser, f"/play/tic-tac-toe?players=2&seed={seed}") for seed in (1, 2))
    for table in (first, second):
        assert browser.post(f"/api/tables/{table}/act", json={"action": "place X at 0,0"}).status_code == 200
    assert browser.get("/play/tic-tac-toe?players=2&seed=3").status_code == 503
    now[0] = 3000.0
    view(browser, second)  # asked for lately: kept
    now[0] = 3700.0
    third = start(browser, "/play/tic-tac-toe?players=2&seed=3")
    assert browser.get(f"/api/tables/{first}").status_code == 404
    assert view(browser, second)["moves"] and view(browser, third)["moves"] == []


EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def test_a_board_drawn_with_lines_every_marks_its_sections() -> None:
    """Pentago's 6x6 board was drawn as 36 like squares: which quadrant a marble lay in, the one a turn rotates, the
    eye had to count.  ``board: {lines_every: 3}`` draws a heavier line between the quadrants, once across, once down."""
    from cli.web.svg import board_svg

    svg = board_svg(shipped_game(str(EXAMPLES / "pentago")).new_state(players=2, seed=1))
    lines = re.findall(r'<line class="section" x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"/>', svg)
    assert len(lines) == 2, lines
    (x1, _, x2, _), (_, y1, _, y2) = lines
    assert float(x1) == float(x2) == float(y1) == float(y2) == 24 + 3 * 46  # between cells 2 and 3, each way


def test_a_boards_thin_rows_and_columns_draw_a_piece_there_as_a_bar() -> None:
    """Quoridor's 17x17 board of squares, grooves and posts drew every groove and post as a full square, each post
    a tile reading 'po': the 9x9 squares a pawn walks were lost among them.  ``board: {thin: odd}`` draws the odd
    columns and rows thin, and a piece there as the bar (a wall) or small square (a post) filling its cell."""
    from cli.web.svg import CELL, THIN, board_svg

    state = shipped_game(str(EXAMPLES / "quoridor")).new_state(players=2, seed=1)
    state.apply("choose 1,0")  # an upright wall: the grooves 1,0 and 1,2 and the post 1,1 between them
    svg = board_svg(state)

    def cell(key: str) -> str:
        found = re.search(rf'<g class="cell" data-cell="{key}">(.*?)</g>(?=<g class="cell"|<line|</svg>)', svg)
        assert found is not None, key
        return found.group(1)

    assert f'width="{CELL}" height="{CELL}"' in cell("0,0")                 # a square
    assert f'width="{THIN}" height="{CELL}"' in cell("3,0")                 # an empty groove
    for key, size in (("1,0", (THIN, CELL)), ("1,1", (THIN, THIN)), ("1,2", (THIN, CELL)), ("3,3", (THIN, THIN))):
        bar = re.search(r'<g class="piece bar"><title>(\w+) at [\d,]+</title><rect [^>]*width="([\d.]+)" height="([\d.]+)"',
                        cell(key))
        assert bar is not None and (int(bar.group(2)), int(bar.group(3))) == size, key
        assert bar.group(1) == ("post" if key == "3,3" else "wall")
    assert ">po<" not in svg and "</text>" not in cell("1,1")               # too thin for a label: titled only


def test_a_board_setting_for_the_eye_is_checked(tmp_path: Path) -> None:
    folder = tmp_path / "quoridor"
    shutil.copytree(EXAMPLES / "quoridor", folder)
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text().replace("thin: odd", "thin: sideways"))
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1 and re.search(r"ruleset.yaml:\d+:\d+: board/thin: 'sideways' is", result.output)


def test_a_piece_styled_dim_is_drawn_faint() -> None:
    """Amazons' arrows (``display: {arrow: {style: dim}}``), dim in the terminal, were drawn on the page as grey tiles
    much like the White amazons beside them; a dim piece is now drawn faint."""
    from cli.web.svg import board_svg

    state = shipped_game(str(EXAMPLES / "amazons")).new_state(players=2, seed=1)
    for _ in range(3):  # an amazon, where it goes, where it shoots
        state.apply(state.legal_actions()[0])
    svg = board_svg(state)
    assert svg.count('<g class="piece dim"><title>arrow at') == 1
    assert '<g class="piece"><title>White at' in svg and '<g class="piece dim"><title>White' not in svg


def test_a_hand_is_listed_in_the_order_its_components_are_declared() -> None:
    """Hearts' hands are dealt sorted, by suit then rank, but the three cards passed to a player joined the end of
    their hand, so that the page showed '... 9H 2S KS' with a heart among the spades.  A hand (``kind: hand``) is
    listed as its components are declared, as a player sorts one; a pile keeps its order (a trick's, the card led
    first)."""
    from cli.web.view import table_html

    game = shipped_game(str(EXAMPLES / "hearts"))
    state = game.new_state(players=4, seed=5)
    agent = RandomAgent(1)
    passed = False
    for _ in range(40):
        html = table_html(state, None, everything=True)
        for hand in re.findall(r'<section class="zone" data-zone="hand of \w+">(.*?)</section>', html):
            names = re.findall(r'data-name="(\w+)"', hand)
            assert names == sorted(names, key=game.piece_names.index), names
        before = [list(state.zones[i]) for i in range(len(state.zones))]
        state.apply(agent.choose(state))
        passed = passed or any(len(z) > len(b) for z, b in zip(state.zones, before) if z and b)
    assert passed


def test_a_display_colour_written_short_or_by_name_gets_text_that_reads_on_it(tmp_path: Path) -> None:
    """Text on a piece or chip was dark unless its colour was written ``#rrggbb``: Hearts' spades, ``colour: "#222"``,
    were dark letters on a near-black chip.  ``#rgb`` and a colour's name are read as the colour they are."""
    folder = ruleset_copy(tmp_path, '\ndisplay:\n  Sun: {colour: "#222"}\n  Moon: {colour: navy}\n')
    client = TestClient(create_app(str(folder)), follow_redirects=False)
    html = view(client, start(client, "/play/tiles?players=2&seed=1"), 1)["html"]
    assert re.search(r'style="background:#222;color:#fff">Sun/', html), html
    assert re.search(r'style="background:navy;color:#fff">Moon/', html), html


def test_a_land_chosen_by_its_name_lights_its_point_on_the_map() -> None:
    """Frontiers' lands are chosen as components named after their points (``choose Cedar``): the map lit none of
    its points, so the land could be chosen only in the list or among the chips, and the last land chosen was not
    outlined on the map.  A point a text names by its name is now one of the cells it names."""
    client = TestClient(create_app(str(EXAMPLES)), follow_redirects=False)
    table = start(client, "/play/frontiers?players=2&seed=1")
    shown = view(client, table)
    board = shipped_game(str(EXAMPLES / "frontiers")).grid
    where = {f"{x},{y}": name for name, (x, y) in board.names.items()}
    chosen = [a for a in shown["actions"] if a["text"].startswith("choose ")]
    assert chosen and all(a["cells"] == [next(k for k, n in where.items() if a["text"] == f"choose {n}")] for a in chosen)
    played = client.post(f"/api/tables/{table}/act", json={"action": chosen[0]["text"]}).json()
    assert where[played["last_cells"][0]] == chosen[0]["text"].removeprefix("choose ")


def test_a_placed_piece_lights_only_the_chips_of_the_zone_it_is_placed_from(client: TestClient) -> None:
    """'place red at 0,-2' lit every chip named 'red': the bag's and the other players' pouches' too, as if a piece
    could be played from them (a click there listed one's own placements).  An action that plays a component now
    says the zone it lies in, so only the chips there are lit."""
    table = start(client, "/play/hex-glyphs?players=3&seed=3")
    shown = view(client, table)
    placed = [a for a in shown["actions"] if a["text"].startswith("place ")]
    own = re.findall(r'data-zone="(pouch of [^"]+)"><h3>[^<]*\(yours\)', shown["html"])
    assert placed and len(own) == 1, own
    assert all(a["zones"] == own for a in placed), {tuple(a["zones"]) for a in placed}
    assert re.search(r'data-zone="bag".*data-name="red"', shown["html"])  # a chip of the same name elsewhere


MAP = """\
name: map
players: [2]
components:
  cart: {instances: [{id: cart, count: 4}]}
board:
  kind: points
  points: {North_Gate: [0, 0], Market_Square: [2, 0], Old_Mill: [4, 0], Riverside_Wharf: [1, 2], Chapel: [3, 2],
           The_Long_Forgotten_Abbey_Of_Saint_Sebastian: [0, 4]}
  links: [[North_Gate, Market_Square, Old_Mill], [North_Gate, Riverside_Wharf, Chapel, Old_Mill],
          [Riverside_Wharf, The_Long_Forgotten_Abbey_Of_Saint_Sebastian]]
turn:
  - place: {from: supply}
end:
  when: count(c in board) == 4
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_points_name_is_written_whole_where_there_is_room_for_it(tmp_path: Path) -> None:
    """A point's name was cut at ten letters whatever the room beside it ('Market_Sq…', 'Riverside…' between points
    two cells apart, where the whole name fits); it is cut only where the room ends, and stays inside the board."""
    from cli.web.svg import board_svg

    (tmp_path / "ruleset.yaml").write_text(MAP)
    svg = board_svg(engine.load(str(tmp_path)).new_state(players=2, seed=1))
    written = re.findall(r'<text[^>]*class="point-name"[^>]*>([^<]*)</text>', svg)
    assert {"North_Gate", "Market_Square", "Old_Mill", "Riverside_Wharf", "Chapel"} <= set(written), written
    long = next(name for name in written if name.startswith("The_Long"))
    assert long.endswith("…") and len(long) < 40, long  # at the board's edge (a step of room added there): cut there


def test_the_app_takes_a_folder_given_as_a_path_object() -> None:
    """create_app(Path("docs/examples/fleet")) stopped with "'PosixPath' object has no attribute 'strip'" where
    engine.load takes a Path; a path object reads as its text, as a folder or file named on the command line."""
    folder = Path(__file__).resolve().parents[1] / "docs" / "examples" / "fleet"
    page = TestClient(create_app(folder)).get("/").text
    assert "/play/fleet?players=2" in page


def test_a_game_kept_on_counters_alone_draws_no_empty_box_for_its_table() -> None:
    """Pig keeps its scores on counters and has no zone but the empty built-in supply: its page drew the zones'
    overview as an empty box above the counters.  Nothing is drawn where there is nothing to draw."""
    from cli.web.view import table_html

    state = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "pig")).new_state(players=2, seed=1)
    drawn = table_html(state, 1)
    assert "<svg" not in drawn and "board-wrap" not in drawn
    assert "banked" in drawn  # its counters are still listed


def test_a_win_on_a_tie_break_says_the_tie_was_broken() -> None:
    """Standoff's scores read 3 and 3 over 'seat 2 (South) wins', as if the page had made a mistake: the ranking's
    second key broke the tie, said only in the log.  The page (and the terminal) now says so under the winner."""
    from cli.web.view import situation

    state = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "standoff")).new_state(players=2, seed=9)
    agent = RandomAgent(9)
    while not state.is_terminal:
        state.apply(agent.choose(state))
    broken = "tied on points: the ranking's later keys broke the tie (the last move's log gives each seat's keys)"
    said = situation(state, 1)
    keys = said[4]
    assert said[:2] + said[3:4] == ["game over; scores: seat 1 (North): 3, seat 2 (South): 3", "seat 2 (South) wins", broken]
    assert keys.startswith("in the ranking, the [ ] of each r in roles hold: ") and ", then (breaking ties) " in keys


def test_the_last_move_outlines_what_it_changed_on_the_board_as_the_seat_sees_it() -> None:
    """The last move was outlined only at the cells its text names: an Othello move lit the disc put down, not the
    discs it turned over, and a move whose text names no cell (a piece chosen by name) lit nothing.  The cells whose
    top piece a move changed are outlined too, where the seat sees the change: a piece put down or taken away always
    (the board shows a face-down piece's back), a piece replaced or turned over only where the seat sees it."""
    from cli.web.tables import Move, board_changes
    from cli.web.view import last_cells

    client = TestClient(create_app(None), follow_redirects=False)
    table = start(client, "/play/othello?players=2&seed=1")
    action = view(client, table)["actions"][0]["text"]
    played = client.post(f"/api/tables/{table}/act", json={"action": action}).json()
    board = played["last_cells"]
    assert board[0] == action.rsplit(" ", 1)[1] and len(board) >= 2, board  # the disc put down, then those turned over

    game = shipped_game(str(EXAMPLES / "hidden-duel"))
    state = game.new_state(players=2, seed=1)
    south = sorted(cid for cell, cid in state.grid.items() if cell[1] == 3)  # South's row, face down to North
    cell = state.cell_of[south[0]]
    replaced = Move(1, 2, "a move", "a move", [], ((cell, south[0], south[1]),))
    turned = Move(1, 2, "a move", "a move", [], ((cell, south[0], south[0]),))
    emptied = Move(1, 2, "a move", "a move", [], ((cell, south[0], None),))
    key = f"{cell[0]},{cell[1]}"
    assert [last_cells(state, m, "a move", 1) for m in (replaced, turned, emptied)] == [[], [], [key]]  # North
    assert [last_cells(state, m, "a move", 2) for m in (replaced, turned, emptied)] == [[key]] * 3  # South: its own
    before, turn = state.clone(), state.turn_number
    while state.turn_number == turn:  # North's first move: a piece, then where it goes (the rows are apart: no fight)
        state.apply(state.legal_actions()[0])
    (left, gone, none), (came, nothing, arrived) = board_changes(before, state)
    assert (none, nothing, gone) == (None, None, arrived) and (left, came) == (before.cell_of[gone], state.cell_of[gone])


def zone_chips(html: str, zone: str) -> list[str]:
    """The names of the chips a zone's box lists, in the order the page lists them."""
    box = re.search(rf'<section class="zone[^"]*" data-zone="{re.escape(zone)}"[^>]*>(.*?)</section>', html)
    return re.findall(r'data-name="([^"]+)"', box[1]) if box else []


def test_a_pile_laid_on_its_top_is_listed_as_it_was_laid() -> None:
    """Take six lays each card on the top of its row (move(..., on_top = true)), so a row lies its last card first:
    the page listed rows backwards, '41, 38' for a row laid 38 then 41.  A pile whose cards went on its top is now
    listed from the bottom up, as laid; a pile whose cards went under (a trick, the card led first) as it lies."""
    client = TestClient(create_app(EXAMPLES), follow_redirects=False)
    table = start(client, "/watch/take-six?players=3&seed=2")
    rows = {}
    for _ in range(40):
        client.post(f"/api/tables/{table}/advance", json={})
        html = view(client, table)["html"]
        rows = {zone: [int(card) for card in zone_chips(html, zone)] for zone in ("row1", "row2", "row3", "row4")}
        if sum(len(cards) > 1 for cards in rows.values()) >= 2:
            break
    assert sum(len(cards) > 1 for cards in rows.values()) >= 2, rows
    assert all(cards == sorted(cards) for cards in rows.values()), rows  # each card higher than the one before it
    led = start(client, "/watch/hearts?players=4&seed=1")
    for _ in range(60):
        client.post(f"/api/tables/{led}/advance", json={})
        state = client.app.state.server.tables.get(led).state
        trick = [state.game.piece_names[c] for c in state.zones[state.game.zone_names.index("trick")]]
        if len(trick) > 1:
            break
    assert len(trick) > 1 and zone_chips(view(client, led)["html"], "trick") == trick  # as it lies, the card led first


def test_an_action_turning_a_tile_is_drawn_with_the_tile_as_it_would_lie() -> None:
    """Meadows offers 'place FTFW as 1 at 2,0', a tile's turn written as a number: which way its edges would face,
    the list did not show.  Each action playing a tile with sides carries a small drawing of it as the action turns
    it (the page draws it in the list, and on the cell while the action is pointed at)."""
    client = TestClient(create_app(EXAMPLES), follow_redirects=False)
    data = view(client, start(client, "/play/meadows?players=2&seed=5"))
    fills = {a["text"]: re.findall(r'fill="([^"]+)"', a["glyph"]) for a in data["actions"] if "glyph" in a}
    assert len(fills) == len(data["actions"]) >= 2
    turned = {int(re.search(r" as (\d) ", text)[1]): sides for text, sides in fills.items()}
    first, then = min(turned), max(turned)
    assert turned[then] == turned[first][-(then - first):] + turned[first][:-(then - first)]  # turned clockwise
    assert all("glyph" not in a for a in view(client, start(client, "/play/take-six?players=2&seed=5"))["actions"])


def test_an_action_refused_names_the_legal_action_nearest_it() -> None:
    """An action posted or typed that the table does not offer was refused with the engine's reason alone, where
    rulecraft play now suggests the nearest legal action: both say it alike (cli.menu.why_refused), and a word typed
    in the page's filter naming no action is read as one, as the terminal reads it."""
    client = TestClient(create_app(EXAMPLES), follow_redirects=False)
    table = start(client, "/play/skirmish?players=2&seed=3")
    posted = client.post(f"/api/tables/{table}/act", json={"action": "chose N-foot-1"})
    assert posted.status_code == 400 and posted.json()["error"].endswith("(did you mean 'choose N-foot-1'?)")
    typed = client.post(f"/api/tables/{table}/act", json={"action": "N-fot-1", "typed": True}).json()["error"]
    assert typed.startswith("no action contains 'N-fot-1'; read as an action: ") and "did you mean" in typed
    assert view(client, table)["moves"] == []  # nothing was played


def test_the_log_starts_with_what_ran_before_the_first_move() -> None:
    """Glance's first turn draws a card and, the Princess never played, plays the Guard without asking: the page's
    log began with the next move ('seat 1: choose 4', naming a rank), and where the Guard went it never said, where
    rulecraft play prints the game's log from its start.  The view now holds the start's lines, as a replay's."""
    client = TestClient(create_app(EXAMPLES), follow_redirects=False)
    table = start(client, "/play/glance?players=2&seed=4")
    fresh = shipped_game(str(EXAMPLES / "glance")).new_state(players=2, seed=4, record=True)
    assert view(client, table)["opening"] == fresh.log and "hand of seat1: Guard -> discard" in fresh.log
    saved = client.get(f"/api/tables/{table}/save").content
    replayed = client.post("/api/open?mode=replay", content=saved).json()["url"].rsplit("/", 1)[1]
    assert view(client, replayed)["opening"] == fresh.log


def test_the_start_says_where_its_turns_begin(client: TestClient) -> None:
    """Hex glyphs' turn 1 begins after the setup's four lines: the view says so, as a move says the turn it began
    ('turn': {'at', 'number', 'whose'}), so the page heads the roll that fills the pouch 'turn 1: seat 1 (Amber)',
    not the setup's."""
    table = start(client, "/play/hex-glyphs?players=2&seed=5")
    data = view(client, table)
    assert data["opening_turns"] == [{"at": 4, "number": 1, "whose": "seat 1 (Amber)"}]
    assert data["opening"][4] == "Amber rolls 6 (green)"
    glance = TestClient(create_app(EXAMPLES), follow_redirects=False)
    assert [turn["at"] for turn in view(glance, start(glance, "/play/glance?players=2&seed=4"))["opening_turns"]] == [0]


def test_the_balance_tab_turns_the_bots_round_the_seats_as_simulate_rotate_seats(client: TestClient) -> None:
    """simulate --rotate-seats turns the bots round one seat a game, so that bots of different strength are measured
    apart from the seats; the balance tab had no such choice, each bot kept in its seat. Its form now has a box
    'rotate seats' (rotate=1), and the report is the command line's with --rotate-seats."""
    from click.testing import CliRunner as Runner

    from cli.main import main as command

    table = client.get(client.get("/play/tic-tac-toe?players=2&seed=1").headers["location"])
    assert 'name="rotate"' in table.text and "rotate seats" in table.text
    rotated = client.get("/simulate/tic-tac-toe?players=2&n=20&agents=random,greedy&rotate=1").text
    kept = client.get("/simulate/tic-tac-toe?players=2&n=20&agents=random,greedy").text
    said = "the bots (random, greedy) turned round one seat a game"
    assert said in rotated and said not in kept
    line = Runner().invoke(command, ["simulate", "tic-tac-toe", "-n", "20", "--agents", "random,greedy", "--rotate-seats"])
    verdict = next(text for text in line.output.splitlines() if text.startswith("bots: "))
    assert verdict.replace("'", "&#x27;") in rotated or verdict in rotated
    refused = client.get("/simulate/tic-tac-toe?players=2&n=5&rotate=maybe")
    assert refused.status_code == 400 and "rotate must be 1 or 0" in refused.text


def test_the_words_after_a_components_bar_stay_on_the_chart() -> None:
    """The chart of the components used most left 120 units after the longest bar for its words, and '137 (68% won)
    strong' takes some 140: the flag was cut at the chart's edge ('stro'). The bars leave room for the longest."""
    from cli.web.charts import LABEL_CHAR, WIDTH, usage_chart
    from engine.runner.simulate import simulate

    report = simulate(shipped_game("tic-tac-toe"), players=2, n=40, seed=0, agents=["random", "greedy"], rotate=True)
    words = re.findall(r'<text x="([\d.]+)" y="[\d.]+">([^<]*\(\d+% won\)[^<]*)</text>', usage_chart(report))
    assert any(text.endswith(("strong", "weak")) for _, text in words), words
    assert all(float(x) + LABEL_CHAR * len(text) <= WIDTH for x, text in words), words


def test_a_move_that_begins_a_turn_says_where_among_its_lines(client: TestClient) -> None:
    table = start(client, "/play/iconica?players=2&seed=3&seat=1=random&seat=2=random")
    for _ in range(12):
        client.post(f"/api/tables/{table}/advance", json={})
    moves = view(client, table)["moves"]
    begun = [(m, turn) for m in moves for turn in m.get("turns", [])]
    assert begun and all(0 <= turn["at"] <= len(m["lines"]) for m, turn in begun)
    rolled = [(m, turn) for m, turn in begun if any(" rolls white" in line for line in m["lines"][turn["at"]:])]
    assert rolled and not any(" rolls white" in line for m, turn in rolled for line in m["lines"][:turn["at"]])
    # and whose turn it is: the role that rolls first in it (the heading said 'turn 5' alone)
    for m, turn in rolled:
        roller = next(line for line in m["lines"][turn["at"]:] if " rolls white" in line).split("'")[0].split()[0]
        assert turn["whose"] == f"seat {1 if roller == 'Crimson' else 2} ({roller})", (m, roller)


def test_a_turn_that_asked_nobody_in_the_middle_of_a_move_has_its_own_heading() -> None:
    """Crazy Eights' seat 2 with one card to play plays it without being asked: the page's log put those lines
    under seat 1's move with no heading, as if seat 1 had played both cards; only the turn the move ended in was
    headed.  Each turn begun among a move's lines is headed with whose it is."""
    client = TestClient(create_app(EXAMPLES), follow_redirects=False)
    table = start(client, "/play/crazy-eights?players=2&seed=5")
    for _ in range(3):
        data = view(client, table)
        if data["bot_to_move"]:
            client.post(f"/api/tables/{table}/advance", json={"version": data["version"]})
        else:
            client.post(f"/api/tables/{table}/act", json={"action": data["actions"][0]["text"], "version": data["version"]})
    third = view(client, table)["moves"][2]
    assert third["seat"] == 1 and third["turns"] == [{"at": 2, "number": 4, "whose": "seat 2"},
                                                     {"at": 4, "number": 5, "whose": "seat 1"}], third
    assert third["lines"][2:4] == ["seat2 chooses a card from hand of seat2 (the only option)",
                                   "hand of seat2: B2 -> the top of discard"]


def test_a_tricks_cards_say_who_played_each() -> None:
    """A trick (a pile of nobody's) listed its cards alone, '2C, 3S, AC': who led and who played which was read in the
    log. Each card of a pile open to all now says the role whose zone the move took it from, as the log told it
    ('hand of West: 3S -> trick'), in its chip, and that zone in its title; a pile of a role's own marks none."""
    client = TestClient(create_app(EXAMPLES), follow_redirects=False)
    table = start(client, "/watch/hearts?players=4&seed=3&agents=random")
    trick: list[tuple[str, str]] = []
    for _ in range(200):
        client.post(f"/api/tables/{table}/advance", json={})
        html = view(client, table)["html"]
        section = re.search(r'<section class="zone[^"]*" data-zone="trick">(.*?)</section>', html)
        trick = re.findall(r'data-name="([^"]+)"[^>]*>[^<]*<small class="by">([^<]+)</small>', section[1]) if section else []
        if len(trick) >= 3:
            break
    assert len(trick) >= 3
    lines = [line for move in view(client, table)["moves"] for line in move["lines"]]
    for card, role in trick:
        told = [found[1] for line in lines if (found := re.fullmatch(rf"hand of (\w+): {card} -> trick", line))]
        assert told and told[-1] == role, (card, role, told)
        assert f'title="{card}: suit' in html and f"; from hand of {role}\"" in html
    assert len({role for _, role in trick}) == len(trick)  # each card its own player's, not merged
    owned = re.findall(r'<section class="zone[^"]*" data-zone="(?:won|hand) of [^"]+">(.*?)</section>', html)
    assert owned and not any('class="by"' in section for section in owned)


def test_a_table_whose_log_says_a_lone_surrogate_is_drawn_with_it_as_an_escape(tmp_path: Path) -> None:
    """A ruleset's say("\\ud800") (the effect language reads the escape; YAML refuses it) put half a character in
    the data the table's page carries, and the page, UTF-8, could not be written: a 500 for every table of it."""
    folder = ruleset_copy(tmp_path, "")
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text().replace("    do: |\n", '    do: |\n      say("\\ud800 begins")\n', 1))
    client = TestClient(create_app(str(folder)), follow_redirects=False)
    table = start(client, "/watch/tiles?players=2&seed=1")
    page = client.get(f"/table/{table}")
    assert page.status_code == 200 and "\\ud800 begins" in page.text, page.text[:2000]


def test_seen_by_names_a_bots_seat_as_the_bots_while_the_game_goes_on(client: TestClient) -> None:
    """One human against a bot may look at the table as the bot sees it (the browser holds every human seat; its
    save, holding the seed, tells the bot's cards anyway), but "seen by: seat 2" showing the bot's hand read as the
    page leaking it: the option says it is the bot's and, where the game hides anything, that it shows it."""
    table = start(client, "/play/kuhn-poker?players=2&seed=4")
    data = view(client, table)
    assert data["seats"] == [1, 2] and data["seat_names"] == {"1": "seat 1", "2": "seat 2, the bot's: shows what it hides"}
    assert '<option value="2">seat 2, the bot&#x27;s: shows what it hides</option>' in client.get(f"/table/{table}").text
    open_game = start(client, "/play/tic-tac-toe?players=2&seed=4")  # nothing hidden: only whose seat it is
    assert view(client, open_game)["seat_names"]["2"] == "seat 2, the bot's"
    while not (data := view(client, table, seat=1))["over"]:
        if data["bot_to_move"]:
            client.post(f"/api/tables/{table}/advance", json={})
        else:
            client.post(f"/api/tables/{table}/act", json={"action": data["actions"][0]["text"], "seat": 1})
    assert data["seat_names"] == {"1": "seat 1", "2": "seat 2"}  # the end opens every zone to every seat


def test_a_die_showing_its_first_face_says_it_as_the_others_do() -> None:
    """Yacht's tray read 'die' beside 'die (6)', 'die (4)': a die showing 1, its first face, was drawn by its name
    alone, as a card on its usual face is. Where a zone says its components' faces (some show another than their
    first), each chip says its own, as the terminal's 'die as 1' does."""
    from cli.web.view import table_html

    state = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "yacht")).new_state(players=2, seed=2)
    state.apply("choose die as 3")
    tray = table_html(state, 1).split('data-zone="tray"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'data-name="die"[^>]*>([^<]*)<', tray) == ["die (1)", "die (6)", "die (4)", "die (6)"], tray
