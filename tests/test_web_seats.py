"""Seats belong to browsers (``rulecraft serve``, through Starlette's test client).

At a played table each human seat has a key; the browser that opened the
table holds every one (cookies), and hands a seat to another browser with the
seat's invitation link.  A request for a seat's view, moves, undo, events or
save without that seat's key is refused (403); a request naming no seat from a
browser holding none gets what every seat sees.  Each ``TestClient`` here is
one browser (its own cookies).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

try:
    from starlette.testclient import TestClient
except ImportError as missing:  # the web extra is not installed
    if os.environ.get("CI"):
        raise
    pytest.skip(f"the web server's tests need the web extra ({missing.name} is missing)", allow_module_level=True)

from starlette.applications import Starlette

from cli.web.app import create_app
from engine.core.information import SEEN, zone_view
from engine.core.paths import builtin_names
from tests.conftest import shipped_game


@pytest.fixture(scope="module")
def app() -> Starlette:
    return create_app(None)


def browser(app: Starlette) -> TestClient:
    """A new browser: cookies of its own."""
    return TestClient(app, follow_redirects=False)


def start(opener: TestClient, url: str) -> str:
    """Open a table from ``url`` in the browser ``opener``; its id."""
    response = opener.get(url)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


SEAT_2_REQUESTS = [
    ("GET", "/api/tables/{t}?seat=2", None),
    ("GET", "/api/tables/{t}/events?seat=2", None),
    ("GET", "/api/tables/{t}/save?seat=2", None),
    ("POST", "/api/tables/{t}/act", {"action": "choose pass", "seat": 2}),
    ("POST", "/api/tables/{t}/undo?seat=2", {}),
    ("POST", "/api/tables/{t}/advance?seat=2", {}),
]


@pytest.mark.parametrize(("method", "url", "body"), SEAT_2_REQUESTS)
def test_a_browser_without_a_seats_key_is_refused_that_seats_view_and_moves(app: Starlette, method: str, url: str,
                                                                            body: dict[str, Any] | None) -> None:
    """Anyone who knew the table's id saw and played the other human's hand with ?seat=2."""
    opener, stranger = browser(app), browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    before = opener.get(f"/api/tables/{table}").json()
    response = stranger.request(method, url.format(t=table), json=body)
    assert response.status_code == 403
    assert response.json()["error"].startswith("this request carries no key for seat 2: only the browser holding seat 2")
    assert opener.get(f"/api/tables/{table}").json() == before


def test_a_browser_without_the_movers_key_cannot_move_for_it(app: Starlette) -> None:
    opener, stranger = browser(app), browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    mover = opener.get(f"/api/tables/{table}").json()["to_move"]
    response = stranger.post(f"/api/tables/{table}/act", json={"action": "choose pass"})
    assert response.status_code == 403 and response.json() == {
        "error": f"this request carries no key for seat {mover}, whose turn it is: only the browser holding seat {mover} plays it"}
    assert stranger.post(f"/api/tables/{table}/undo", json={}).status_code == 403
    assert opener.get(f"/api/tables/{table}").json()["moves"] == []


@pytest.mark.parametrize("url", ["/play/kuhn-poker?players=2&seed=1&seat=2=human", "/play/tutorial-tiles?players=2&seed=1"])
def test_a_browser_holding_no_seat_sees_what_every_seat_sees(app: Starlette, url: str) -> None:
    opener, stranger = browser(app), browser(app)
    table = start(opener, url)
    data = stranger.get(f"/api/tables/{table}").json()
    assert data["seat"] is None and data["seats"] == [] and data["actions"] == [] and data["invites"] == {}
    state = app.state.server.tables.get(table).state
    game = state.game
    held = {game.piece_names[c] for zi in range(len(game.zone_names)) if game.zone_spec_of[zi].hidden != "none"
            for c in state.zones[zi]} - {game.piece_names[c] for c in state.grid.values()}
    assert held and not [n for n in held if f'data-name="{n}"' in data["html"]]
    mine = {game.piece_names[c] for zi in range(len(game.zone_names)) if zone_view(state, zi, 1) == SEEN
            for c in state.zones[zi]}
    assert any(f'data-name="{n}"' in opener.get(f"/api/tables/{table}?seat=1").json()["html"] for n in held & mine)
    page = stranger.get(f"/table/{table}")
    assert page.status_code == 200 and "no seat: what every seat sees" in page.text


@pytest.mark.parametrize(("name", "variant"), [(name, "") for name in builtin_names()] + [("iconoclasm", "hidden-deities")])
def test_what_every_seat_sees_holds_nothing_some_seat_may_not_see(app: Starlette, name: str, variant: str) -> None:
    opener, stranger = browser(app), browser(app)
    table = start(opener, f"/play/{name}?players=2&seed=2&seat=2=human&variant={variant}")
    for _ in range(4):  # a few moves in, so that something may have been drawn or committed
        data = opener.get(f"/api/tables/{table}").json()
        opener.post(f"/api/tables/{table}/act", json={"action": data["actions"][0]["text"]})
        if opener.get(f"/api/tables/{table}").json()["over"]:  # the end shows every zone: the position before it
            opener.post(f"/api/tables/{table}/undo", json={})
            break
    data = stranger.get(f"/api/tables/{table}").json()
    state = app.state.server.tables.get(table).state
    game = state.game
    shown = {game.piece_names[c] for c in state.grid.values()} | {
        game.piece_names[c] for zi in range(len(game.zone_names)) if game.zone_spec_of[zi].hidden == "none"
        for c in state.zones[zi]}
    unseen = {game.piece_names[c] for zi in range(len(game.zone_names)) for c in state.zones[zi]} - shown
    everything = data["html"] + json.dumps(data["moves"]) + json.dumps(data["situation"])
    assert not [n for n in unseen if f'data-name="{n}"' in everything]
    assert [m["text"] for m in data["moves"]] == [m.public for m in app.state.server.tables.get(table).moves]


def test_a_sealed_move_shows_to_a_browser_holding_no_seat_as_every_seat_sees_it(app: Starlette) -> None:
    opener, stranger = browser(app), browser(app)
    table = start(opener, "/play/nine-domains?players=2&seed=1&seat=2=human")
    opener.post(f"/api/tables/{table}/act", json={"action": "commit 0 to left"})
    assert stranger.get(f"/api/tables/{table}").json()["moves"][0]["text"] == "commit a card to left"


def test_an_invitation_link_hands_a_seat_to_another_browser_once(app: Starlette) -> None:
    opener, second, third = browser(app), browser(app), browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    shared = opener.get(f"/api/tables/{table}").json()
    assert shared["seats"] == [1, 2] and list(shared["invites"]) == ["2"]
    link = shared["invites"]["2"]
    assert link.startswith(f"/table/{table}?seat=2&key=")
    page = second.get(link)  # a link's preview takes nothing: the page asks first
    assert page.status_code == 200 and "take seat 2" in page.text
    assert opener.get(f"/api/tables/{table}?seat=2").status_code == 200
    taken = second.post(link)
    assert taken.status_code == 303 and taken.headers["location"] == f"/table/{table}?seat=2"
    assert second.get(f"/api/tables/{table}?seat=2").json()["seat"] == 2
    assert opener.get(f"/api/tables/{table}?seat=2").status_code == 403  # the opener holds seat 2 no more
    alone = opener.get(f"/api/tables/{table}").json()
    assert alone["seats"] == [1] and alone["invites"] == {} and alone["seat"] == 1  # even on seat 2's turn
    spent = third.post(link)
    assert spent.status_code == 403 and "this link to seat 2 is not valid any more" in spent.text
    assert third.get(link).status_code == 403
    assert second.post(link).headers["location"] == f"/table/{table}?seat=2"  # the browser holding it: its page


def test_two_browsers_play_a_game_to_its_end(app: Starlette) -> None:
    opener, second = browser(app), browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    second.post(opener.get(f"/api/tables/{table}").json()["invites"]["2"])
    pages = {1: opener, 2: second}
    data = opener.get(f"/api/tables/{table}?seat=1").json()
    while not data["over"]:
        mover = data["to_move"]
        other = pages[3 - mover].post(f"/api/tables/{table}/act", json={"action": "choose pass", "seat": mover})
        assert other.status_code == 403
        actions = pages[mover].get(f"/api/tables/{table}?seat={mover}").json()["actions"]
        data = pages[mover].post(f"/api/tables/{table}/act", json={"action": actions[0]["text"], "seat": mover}).json()
    assert second.get(f"/api/tables/{table}/save?seat=2").status_code == 200


def test_a_continued_game_file_gives_its_seats_to_the_browser_that_opened_it(app: Starlette) -> None:
    opener, stranger = browser(app), browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    saved = opener.get(f"/api/tables/{table}/save").content
    url = opener.post("/api/open?mode=play", content=saved).json()["url"]
    continued = url.rsplit("/", 1)[1]
    assert opener.get(f"/api/tables/{continued}?seat=2").status_code == 200
    assert stranger.get(f"/api/tables/{continued}?seat=2").status_code == 403


def test_a_watched_game_is_open_to_every_browser(app: Starlette) -> None:
    opener, stranger = browser(app), browser(app)
    table = start(opener, "/watch/kuhn-poker?players=2&seed=1&agents=random")
    assert stranger.get(f"/api/tables/{table}?seat=2").status_code == 200
    assert stranger.post(f"/api/tables/{table}/advance", json={}).json()["moves"]


def test_what_every_seat_sees_carries_none_of_seat_1s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The public view was seat 1's observation with the hidden zones counted: it kept seat 1's pending choice (its
    hand's cards as options) and actions, and the blocks drew for seat 1."""
    from pathlib import Path

    from cli.web import view
    from engine.core.facedown import NOBODY

    game = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "crazy-eights"))
    state = game.new_state(players=2, seed=3)
    while state.seat_to_move != 1:
        state.apply(state.legal_actions()[0])
    assert state.observation(1)["choice"] is not None  # seat 1 chooses among its hand's cards
    public = view.public_observation(state)
    assert public["choice"] is None and public["legal_actions"] == [] and public["player"] is None
    asked: list[int | None] = []
    monkeypatch.setattr(view, "drawings", lambda s, seat: asked.append(seat) or [])
    view.table_html(state, None)
    assert asked == [NOBODY]


def test_what_every_seat_sees_holds_no_bid_seat_1_sealed() -> None:
    """The blocks' parts of the public view were seat 1's: 'committed_numbers' listed seat 1's sealed bid."""
    from pathlib import Path

    from cli.web import view

    game = shipped_game(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "sealed-bids"))
    state = game.new_state(players=2, seed=1)
    state.apply("commit 4 to bid")  # seat 1 seals 4; seat 2 has not bid yet
    assert state.observation(1)["committed_numbers"]["sealed"] == [["Red", "bid", 4]]
    assert view.public_observation(state)["committed_numbers"] == {"sealed": [], "revealed": []}


def test_what_every_seat_sees_does_not_say_which_hidden_role_seat_1_plays() -> None:
    """With hidden deities, the public view kept seat 1's 'seats' ({'Earth': 1}) and 'current_role' on its turn."""
    from cli.web import view

    state = shipped_game("iconoclasm", "hidden-deities").new_state(players=4, seed=0)
    assert state.observation(1)["seats"] == {state.current_role: 1}  # seat 1's own: it plays the first turn
    public = view.public_observation(state)
    assert public["seats"] == {} and public["current_role"] is None, public


def test_a_browser_that_lost_its_cookies_comes_back_to_its_seats_by_its_way_back(app: Starlette) -> None:
    """A seat was lost for good with its browser's cookies: the opener (or whoever took a seat) had no way back.
    Each page now shows its browser's way back, to every seat it holds; a seat handed to another browser leaves it."""
    opener, second, forgetful, third, fourth = browser(app), browser(app), browser(app), browser(app), browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    shown = opener.get(f"/api/tables/{table}").json()
    both = shown["way_back"]  # the opener holds both seats (hot seat): one way back to both
    assert both.startswith(f"/table/{table}?back=") and both.count("back=") == 2
    assert both not in shown["invites"].values()
    assert second.get(f"/api/tables/{table}").json()["way_back"] is None  # a browser holding no seat has none
    returned = forgetful.get(both)
    assert returned.status_code == 303 and returned.headers["location"] == f"/table/{table}"
    assert forgetful.get(f"/api/tables/{table}").json()["seats"] == [1, 2]
    assert opener.get(f"/api/tables/{table}?seat=2").status_code == 200  # nobody lost them
    second.post(shown["invites"]["2"])  # seat 2 handed on
    again = third.get(both)  # the old way back gives seat 1 only
    assert again.status_code == 303 and again.headers["location"] == f"/table/{table}?seat=1"
    assert third.get(f"/api/tables/{table}?seat=2").status_code == 403
    theirs = second.get(f"/api/tables/{table}?seat=2").json()["way_back"]
    assert theirs.count("back=") == 1 and theirs.split("back=")[1] not in both
    assert fourth.get(theirs).headers["location"] == f"/table/{table}?seat=2"
    assert fourth.get(f"/api/tables/{table}?seat=2").status_code == 200
    refused = fourth.get(f"/table/{table}?back=nonsense")
    assert refused.status_code == 403 and "this way back is not valid any more" in refused.text


@pytest.mark.parametrize("link", ["invites", "way_back"])
def test_a_seat_link_waits_for_a_busy_table_without_stopping_the_server(link: str) -> None:
    """An invitation link (and a way back) waited for the table's lock on the server's own loop: while a bot
    thought at that table, every other request of the server waited with it, up to the cap."""
    import threading
    import time

    app = create_app(None, cap=30.0)  # opening the table compiles the ruleset: a loaded 2-core machine took 6 s
    with TestClient(app, follow_redirects=False) as client:  # one loop for every request, as a real server has
        table = start(client, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
        data = client.get(f"/api/tables/{table}").json()
        url = data["invites"]["2"] if link == "invites" else data["way_back"]
        client.cookies.clear()  # a browser holding no seat opens it
        busy = app.state.server.tables.get(table).lock
        busy.acquire()  # as a bot thinking at that table holds it
        try:
            opening = threading.Thread(target=lambda: client.get(url))
            opening.start()
            time.sleep(0.3)
            started = time.perf_counter()
            assert client.get("/api/tables/t999").status_code == 404  # no work: answered on the loop at once
            assert time.perf_counter() - started < 3.0, "the request waited for another table's lock"
        finally:
            busy.release()
            opening.join()


@pytest.mark.parametrize("query", ["seat=1&seat=2", "seat=2&seat=2", "seat=%EF%BC%92"])
def test_a_seat_given_twice_or_in_other_digits_is_refused_not_guessed(app: Starlette, query: str) -> None:
    """``?seat=1&seat=2`` was read as seat 2 (the last one), ``?seat=２`` (a full-width digit) as seat 2."""
    opener = browser(app)
    table = start(opener, "/play/tutorial-tiles?players=2&seed=1")
    response = opener.get(f"/api/tables/{table}?{query}")
    assert response.status_code == 400, response.text
    assert ("seat is given 2 times" in response.text) == ("&" in query), response.text
    assert opener.get(f"/api/tables/{table}?seat=2").status_code == 200  # and it keeps serving


def test_a_new_table_given_two_player_counts_is_refused(app: Starlette) -> None:
    response = browser(app).get("/play/tutorial-tiles?players=2&players=3&seed=1")
    assert response.status_code == 400 and "players is given 2 times (2, 3): give it once" in response.text, response.text


def test_a_move_that_showed_its_seat_the_others_sealed_card_is_not_taken_back(app: Starlette) -> None:
    """Seat 2 sealed its card last, the cards were revealed, and seat 2 took its move back: it had seen seat 1's
    card and could seal another against it.  At a table of two browsers a move that showed its seat components
    it could not see before is not taken back; one that showed nothing is (seat 1's sealed card, before seat 2's)."""
    opener, second = browser(app), browser(app)
    table = start(opener, "/play/nine-domains?players=2&seed=1&seat=2=human")
    second.post(opener.get(f"/api/tables/{table}").json()["invites"]["2"])
    opener.post(f"/api/tables/{table}/act", json={"action": "commit 0 to left", "seat": 1})
    assert opener.post(f"/api/tables/{table}/undo?seat=1", json={}).json()["moves"] == []  # it showed nothing
    pages = {1: opener, 2: second}
    data = opener.get(f"/api/tables/{table}?seat=1").json()
    for mover in (1, 2):  # seat 1 seals its three cards, then seat 2, whose last one reveals them all
        while data["to_move"] == mover:
            first = pages[mover].get(f"/api/tables/{table}?seat={mover}").json()["actions"][0]["text"]
            data = pages[mover].post(f"/api/tables/{table}/act", json={"action": first, "seat": mover}).json()
    assert any("reveals" in line for line in data["moves"][-1]["lines"])
    refused = second.post(f"/api/tables/{table}/undo?seat=2", json={})
    assert refused.status_code == 400
    assert "showed seat 2 what it could not see before" in refused.json()["error"]
    kept = second.get(f"/api/tables/{table}?seat=2").json()
    assert kept["version"] == data["version"] and len(kept["moves"]) == len(data["moves"])


def test_one_screen_playing_both_seats_takes_back_a_move_that_revealed_cards(app: Starlette) -> None:
    """A browser holding every human seat (hot seat) sees each seat's cards already: its undo is not refused."""
    opener = browser(app)
    table = start(opener, "/play/nine-domains?players=2&seed=1&seat=2=human")
    data = opener.get(f"/api/tables/{table}").json()
    while len(data["moves"]) < 6:  # three sealed cards each: seat 2's last reveals them all
        data = opener.post(f"/api/tables/{table}/act", json={"action": data["actions"][0]["text"]}).json()
    assert any("reveals" in line for line in data["moves"][-1]["lines"])
    assert len(opener.post(f"/api/tables/{table}/undo", json={}).json()["moves"]) == 5


def test_a_bid_that_revealed_the_others_sealed_bid_is_not_taken_back() -> None:
    """Sealed numbers too: seat 2 bid last, saw seat 1's bid revealed, and could take its bid back to outbid it."""
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "docs" / "examples"
    app = create_app(str(examples / "sealed-bids"))
    opener, second = browser(app), browser(app)
    table = start(opener, "/play/sealed-bids?players=2&seed=1&seat=2=human")
    second.post(opener.get(f"/api/tables/{table}").json()["invites"]["2"])
    opener.post(f"/api/tables/{table}/act", json={"action": "commit 3 to bid", "seat": 1})
    assert len(opener.post(f"/api/tables/{table}/undo?seat=1", json={}).json()["moves"]) == 0  # it showed nothing
    opener.post(f"/api/tables/{table}/act", json={"action": "commit 3 to bid", "seat": 1})
    second.post(f"/api/tables/{table}/act", json={"action": "commit 1 to bid", "seat": 2})
    refused = second.post(f"/api/tables/{table}/undo?seat=2", json={})
    assert refused.status_code == 400 and "showed seat 2" in refused.json()["error"]


PEEK = """\
name: peek
players: [2]
types: {side: [A, B]}
roles: {of: side, seating: {2: [1, 2]}}
components:
  gem:
    instances: [{id: g, count: 3}]
counters:
  worth: {per: gem, shown: false}
zones:
  pouch: {kind: hand, per: role, hidden: others}
setup: |
  move(nth(supply, 1), pouch(A))
  move(nth(supply, 1), pouch(A))
  move(nth(supply, 1), pouch(B))
  worth(nth(pouch(A), 1)) = 5
turn:
  - do:
      effect: |
        let how = choose(t in ["look", "wait"], text = "look or wait")
        if how == "look" and current_role == B:
          worth(nth(pouch(B), 1)) = worth(nth(pouch(A), 1))
end:
  when: turn >= 4
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def test_a_move_that_showed_its_seat_a_counter_of_a_hidden_card_is_not_taken_back(tmp_path: Any) -> None:
    """Seat 2 copied the worth of a gem in seat 1's hidden pouch onto its own: no component came into its view, so
    the undo was allowed, and seat 2 could play again knowing which of seat 1's gems is worth 5.  Its view as a
    whole is compared now: what it saw changes with what it could not see; a move that showed nothing is taken back."""
    (tmp_path / "peek").mkdir()
    (tmp_path / "peek" / "ruleset.yaml").write_text(PEEK, encoding="utf-8")
    app = create_app(str(tmp_path / "peek"))
    opener, second = browser(app), browser(app)
    table = start(opener, "/play/peek?players=2&seed=1&seat=2=human")
    second.post(opener.get(f"/api/tables/{table}").json()["invites"]["2"])
    opener.post(f"/api/tables/{table}/act", json={"action": "choose wait", "seat": 1})
    second.post(f"/api/tables/{table}/act", json={"action": "choose wait", "seat": 2})
    assert len(second.post(f"/api/tables/{table}/undo?seat=2", json={}).json()["moves"]) == 1  # it showed nothing
    data = second.post(f"/api/tables/{table}/act", json={"action": "choose look", "seat": 2}).json()
    refused = second.post(f"/api/tables/{table}/undo?seat=2", json={})
    assert refused.status_code == 400, refused.text
    assert "seat 2's last move showed seat 2 what it could not see before" in refused.json()["error"]
    assert second.get(f"/api/tables/{table}?seat=2").json()["version"] == data["version"]


def test_the_undo_button_shows_only_to_the_page_that_may_take_back_the_last_move(app: Starlette) -> None:
    """At a table of two browsers the page of seat 2 showed an undo button after seat 1's move, which it could
    only be refused; so did a page holding no seat, and every page before any move."""
    opener, second, stranger = browser(app), browser(app), browser(app)
    table = start(opener, "/play/nine-domains?players=2&seed=1&seat=2=human")
    second.post(opener.get(f"/api/tables/{table}").json()["invites"]["2"])
    assert opener.get(f"/api/tables/{table}?seat=1").json()["undo_refused"] == "nothing to take back: no human has moved yet"
    opener.post(f"/api/tables/{table}/act", json={"action": "commit 0 to left", "seat": 1})
    assert opener.get(f"/api/tables/{table}?seat=1").json()["undo_refused"] is None
    assert second.get(f"/api/tables/{table}?seat=2").json()["undo_refused"] == \
        "the last move was seat 1's: only seat 1 can take it back"
    assert stranger.get(f"/api/tables/{table}").json()["undo_refused"] == \
        "this page plays no seat: only a seat's browser takes back its move"
    assert '<button id="undo" hidden>' in second.get(f"/table/{table}?seat=2").text
    assert '<button id="undo">' in opener.get(f"/table/{table}?seat=1").text


MASKS = """\
name: masks
players: [2]
types: {side: [A, B, C]}
roles: {of: side, shuffle: true, hidden: true, seating: {2: [1, 2, absent]}}
counters:
  flag: {}
turn:
  - do:
      effect: |
        let how = choose(t in ["on", "off"], text = "on or off")
        if current_role == A:
          flag += 1
end:
  when: turn >= 4
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


@pytest.mark.parametrize(("seed", "roles", "shown"), [(1, {"A": 1, "C": 2, "B": 0}, True),
                                                      (2, {"C": 1, "A": 2, "B": 0}, False)])
def test_a_move_telling_a_hidden_role_showed_it(tmp_path: Any, seed: int, roles: dict[str, int], shown: bool) -> None:
    """Seat 1's move raises a public flag only if seat 1 plays A: seat 2, not knowing seat 1's role (B or A, C
    playing nobody), learns it from the flag; seat 2 playing A knows already; seat 1 learns nothing from its own."""
    import engine
    from cli.web.tables import showed_hidden

    (tmp_path / "ruleset.yaml").write_text(MASKS, encoding="utf-8")
    before = engine.load(tmp_path / "ruleset.yaml").new_state(players=2, seed=seed, record=True)
    after = before.clone(record=True)
    after.apply("choose on")
    assert before.seat_of == roles
    assert showed_hidden(before, ["choose on"], after, 2) is shown
    assert showed_hidden(before, ["choose on"], after, 1) is False


def test_one_screen_playing_both_seats_is_shown_the_undo_button_whoever_moved_last(app: Starlette) -> None:
    """The page's view named the seat to move, and the button was hidden as if that seat were asking: one screen
    shared asks with no seat, for every seat it holds, and takes back the other seat's move."""
    opener = browser(app)
    table = start(opener, "/play/kuhn-poker?players=2&seed=1&seat=2=human")
    opener.post(f"/api/tables/{table}/act", json={"action": "choose pass"})
    data = opener.post(f"/api/tables/{table}/act", json={"action": "choose bet"}).json()
    assert data["seat"] == 1 and data["undo_refused"] is None
    assert '<button id="undo">' in opener.get(f"/table/{table}").text
    assert len(opener.post(f"/api/tables/{table}/undo", json={}).json()["moves"]) == 1
