"""``rulecraft serve`` in a real browser: headless Chromium (the system's) driven by Playwright.

For every shipped ruleset the page loads and draws the start position; for one ruleset per kind of page (KINDS; the
others' are slow tests, opt-in) a whole game is played to the end by clicking legal actions (long ones clicked for
their first moves, see CLICKED), a bot game is watched to the end, and a replay is scrubbed back and forth; bad requests
get a clear message on the page while the server keeps serving; two browsers
(two profiles, so two sets of cookies) play one table, each seeing only the
seats it holds.

The browser is Debian's ``chromium`` (``apt-get install -y chromium``),
never one Playwright downloads.  Without it these tests are skipped, except
when ``CI`` is set: there they fail.  ``RULECRAFT_SCREENSHOTS=1`` writes the
final position of each watched game (every ruleset's with ``RULECRAFT_SLOW_TESTS=1``), and the balance tab's report,
to docs/images/ (the pictures in docs/web.md).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from engine.core.information import SEEN, zone_view
from engine.core.paths import builtin_names
from engine.model.state import State
from engine.runner.agents import RandomAgent
from engine.runner.replay import Replay

try:
    import uvicorn
    from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright
except ImportError as missing:  # the dev extra is not installed
    if os.environ.get("CI"):
        raise
    pytest.skip(f"the browser tests need the dev extra ({missing.name} is missing)", allow_module_level=True)

from cli.explain import explain
from cli.piece_labels import value_label
from cli.zone_listing import holds_nothing, shown_empty
from cli.web.app import create_app
from cli.web.svg import text_colour
from tests.conftest import shipped_game

CHROMIUM = os.environ.get("RULECRAFT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"

SHORT = {
    "iconoclasm": "players=2&variant=short-game",
    "spell-cycles": "players=2&variant=short",
}
"""Settings that keep each game short (the others: two players)."""


def settings(name: str) -> str:
    return SHORT.get(name, "players=2")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server of the built-in rulesets on a free port, in a thread; its address."""
    yield from serving(None)


@pytest.fixture(scope="module")
def failing_server() -> Iterator[str]:
    """A server of a ruleset whose effect fails on some choices (a division by zero); its address."""
    yield from serving(str(Path(__file__).parent / "data" / "failing-effect"))


def serving(source: str | None) -> Iterator[str]:
    """Serve ``source`` (None: the built-in rulesets) on a free port, in a thread, while the caller runs; its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(create_app(source), host="127.0.0.1", port=port, log_level="warning", log_config=None, timeout_graceful_shutdown=1)
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def examples_server() -> Iterator[str]:
    """A server of docs/examples (boards the built-in rulesets lack, such as a map of named points); its address."""
    yield from serving(str(Path(__file__).resolve().parent.parent / "docs" / "examples"))


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM}: install it with 'apt-get install -y chromium'"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as p:
        yield p


def launched(playwright: Playwright, profile: Path) -> BrowserContext:
    """A browser of its own (its own profile, so its own cookies)."""
    return playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, headless=True,
                                                         args=ARGS, viewport={"width": 1280, "height": 860})


@pytest.fixture(scope="module")
def browser(playwright: Playwright, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    context = launched(playwright, tmp_path_factory.mktemp("chromium-profile"))
    yield context
    context.close()


@pytest.fixture
def other_browser(playwright: Playwright, tmp_path: Path) -> Iterator[BrowserContext]:
    """A second browser, another player's."""
    context = launched(playwright, tmp_path / "other-profile")
    yield context
    context.close()


@pytest.fixture
def page(browser: BrowserContext) -> Iterator[Page]:
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    yield tab
    tab.close()
    assert not errors, f"script errors on the page: {errors}"


def settle(page: Page) -> None:
    """Wait until the page is not waiting for the server; the server must not have failed."""
    page.wait_for_function("document.body.dataset.busy === 'false'")
    assert "could not do this" not in page.locator("#message").inner_text()


def start_state(name: str, seed: int) -> State:
    """The start of ``name`` with the settings the pages use."""
    query = dict(part.split("=") for part in settings(name).split("&"))
    return shipped_game(name, query.get("variant")).new_state(players=int(query["players"]), seed=seed)


@pytest.mark.parametrize("name", builtin_names())
def test_the_start_position_is_drawn(page: Page, server: str, name: str) -> None:
    """The board (or, without one, the table the zones lie on), a section per zone off the board that holds something
    or is a declared zone the seat sees empty (marked so; see cli.zone_listing.shown_empty), each once (a game without
    a board drew a box per zone, then the same zones again below), and a
    legend exactly when some component shown is coloured by a declared type's value or a meter has tiles to explain."""
    page.goto(f"{server}/play/{name}?{settings(name)}&seed=7&seat=2=human")  # whoever starts, a human is to move
    settle(page)
    board = page.locator("#view .board, #view .zones.table")  # an <svg>, or without a board the table of zones
    assert board.count() == 1
    assert len(page.locator("#view").screenshot()) > 5000  # a drawing, not an empty box
    assert board.locator(".cell, .zone").count() > 0
    assert "to play" in page.locator("#situation").inner_text()
    assert page.locator("#actions button.action").count() > 0
    state = start_state(name, 7)
    game = state.game
    seen = state.observation(int(page.locator("#seat").input_value()))["zones"]
    off_board = [name for zi, name in enumerate(game.zone_names) if zi != game.board_zone]
    holding = {zone for zone in off_board if seen[zone] not in ([], {"hidden": 0})}
    unplayed = {game.zone_names[zi] for zi, owner in enumerate(game.zone_owner)  # may be left out: no seat plays it
                if owner is not None and not state.seat_of.get(owner)}
    empty = {zone for zi, zone in enumerate(game.zone_names) if holds_nothing(seen[zone]) and shown_empty(state, zi)}
    listed = page.locator("#view .zone").evaluate_all("sections => sections.map((s) => s.dataset.zone)")
    sections = set(listed)
    assert len(listed) == len(sections), listed  # each zone once
    assert (holding - unplayed) | empty <= sections <= holding | empty
    assert set(page.locator("#view .zone.empty").evaluate_all("sections => sections.map((s) => s.dataset.zone)")) == empty
    if game.grid is None:  # every zone on the table, and nothing else naming a zone
        assert page.locator("#view .zones.table .zone").count() == len(listed) == page.locator("#view [data-zone]").count()
    visible = [cid for cid in state.grid.values()] + [
        game.piece_names.index(piece) for zone in holding if isinstance(seen[zone], list) for piece in seen[zone]]
    typed = {value for values in game.types.values() for value in values}
    coloured = {value_label(game, cid, state.face[cid]) for cid in visible} & typed
    assert page.locator(".legend").count() == (1 if coloured or game.parts.get("meter") is not None else 0)  # a meter explains its tiles


CLICKED = {"breakthrough": (20, {"cell", "several", "list"}), "hex-glyphs": (25, {"cell", "several", "list"}),
           "othello": (20, {"cell", "list"}), "iconica": (12, {"list"}), "iconoclasm": (6, {"several", "list"}),
           "iconoclasm-cards": (6, {"cell", "several", "list"}), "banner-clash": (4, {"cell", "list"})}
"""Long games are clicked for their first moves only, each kind of click they offer made by then (a cell of one
action, a cell of several then the list, the list; by the 6th click) and every kind of action their whole game
clicked (hex-glyphs' place, stop, cast, match and choose by the 19th; Iconica's pick, white and black die actions
and choose by the 11th of its 81; Iconoclasm's place, the cards' place and clash, Banner clash's place by the 5th),
then played to the end through the table, the page following; the others are clicked to the end.  Iconica clicked
to its end took 8.7 s of CPU (Chromium's 6.9), 5.5 s so."""


KINDS = {"tutorial-tiles", "iconoclasm-cards", "kuhn-poker"}
"""One shipped ruleset per kind of page, whose whole game is clicked and whose bot game is watched to the end in every
run, and whose replay is scrubbed: a square board on which a hand's tiles are placed (clicked to its end in 6 clicks: a cell of one action, a cell of
several then the list, the list), a card game placing cards from hands onto a growing board, and hidden hands on a
table without a board.  The other rulesets' are marked slow (the three tests over every ruleset took some 110 s of
CPU, Chromium's included; these three rulesets' 25 s): their pages are drawn in every run
(test_the_start_position_is_drawn) and their games played to the end and back through the server (tests/test_web.py)."""


def kinds() -> list[object]:
    """The shipped rulesets, those not in KINDS marked slow."""
    return [name if name in KINDS else pytest.param(name, marks=pytest.mark.slow) for name in builtin_names()]


@pytest.mark.parametrize("name", kinds())
def test_a_whole_game_is_played_by_clicking(page: Page, server: str, name: str) -> None:
    """Both seats human: every move is a click, on the board where the actions have a place, else in the list (see
    CLICKED for the long games)."""
    page.goto(f"{server}/play/{name}?{settings(name)}&seed=11&seat=2=human")
    pick = random.Random(name)
    clicks, made = 0, set()
    while True:
        settle(page)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        if name in CLICKED and clicks == CLICKED[name][0]:
            assert made == CLICKED[name][1]
            finish(page, server, pick)
            break
        cells = page.locator("#view .cell.playable")
        if cells.count() and pick.random() < 0.5:
            cells.nth(pick.randrange(cells.count())).click()
            settle(page)
            if page.locator("#view .cell.playable").count() and page.locator("#filter").input_value():
                made.add("several")
                continue  # several actions there: the list now shows them; the next round clicks one
            made.add("cell")
        else:
            actions = page.locator("#actions button.action")
            assert actions.count() > 0, "no legal action to click, yet the game is not over"
            actions.nth(pick.randrange(actions.count())).click()
            made.add("list")
        clicks += 1
        assert clicks < 400, "the game did not end"
    assert "game over" in page.locator("#situation").inner_text()
    assert page.locator("#actions button").count() == 0
    assert page.locator("#log li").count() > 0


def finish(page: Page, server: str, pick: random.Random) -> None:
    """Play the page's game to its end through the table's address, random legal actions, as another page of the
    table would; the page follows by the table's events until it shows the game over."""
    table = page.url.split("?")[0].rsplit("/", 1)[1]
    while not (data := page.request.get(f"{server}/api/tables/{table}").json())["over"]:
        action = pick.choice(data["actions"])["text"]
        page.request.post(f"{server}/api/tables/{table}/act", data={"action": action, "version": data["version"]})
    page.wait_for_function("document.body.dataset.over === 'true'")
    settle(page)


@pytest.mark.parametrize("name", kinds())
def test_a_bot_game_is_watched_to_the_end(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/watch/{name}?{settings(name)}&seed=5&agents=random")
    page.evaluate("document.getElementById('speed').value = 1500")
    page.wait_for_function("document.body.dataset.over === 'true'", timeout=60_000)
    assert "game over" in page.locator("#situation").inner_text()
    if os.environ.get("RULECRAFT_SCREENSHOTS"):  # the pictures of docs/web.md: each game's final position
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.locator("main").screenshot(path=str(IMAGES / f"{name}.png"))
    settle(page)
    # over, nothing plays on: "pause" (which said it played) and "step" did nothing when pressed; "back" still works
    assert page.locator("#playpause").is_disabled() and page.locator("#step").is_disabled()
    assert page.locator("#playpause").inner_text() == "play"
    moves = page.locator("#log > li").count()
    page.click("#back")
    settle(page)
    assert page.locator("#log > li").count() == moves - 1
    assert page.evaluate("document.body.dataset.over") == "false"
    assert page.locator("#step").is_enabled() and page.locator("#playpause").is_enabled()
    page.click("#step")
    settle(page)
    assert page.evaluate("document.body.dataset.over") == "true"


def recorded_game(name: str, tmp_path: Path) -> tuple[Path, int]:
    """A random game saved as a replay file; its path and number of actions."""
    query = dict(part.split("=") for part in settings(name).split("&"))
    game = shipped_game(name, query.get("variant"))
    state = game.new_state(players=int(query["players"]), seed=3, record=True)
    agent = RandomAgent(3)
    while not state.is_terminal:
        state.apply(agent.choose(state))
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(Replay.record(state, name, 3).to_json()))
    return path, len(state.history or [])


@pytest.mark.parametrize("name", kinds())
def test_a_replay_is_scrubbed_back_and_forth(page: Page, server: str, name: str, tmp_path: Path) -> None:
    path, length = recorded_game(name, tmp_path)
    page.goto(server)
    page.set_input_files("#open input[type=file]", str(path))
    page.click("#open button[value=replay]")
    page.wait_for_url("**/table/*")
    settle(page)
    assert page.locator("#position").inner_text() == f"position {length} of {length}"
    assert "game over" in page.locator("#situation").inner_text()
    page.locator("#scrub").fill("1")
    settle(page)
    assert page.locator("#position").inner_text() == f"position 1 of {length}"
    assert page.locator("#explanation").inner_text().startswith("1. seat")
    page.click("#next")
    settle(page)
    assert page.locator("#explanation").inner_text().startswith("2. seat")
    # Two clicks in one go, before the first is answered, are two steps back, not the same one twice.
    page.evaluate("() => { const back = document.getElementById('prev'); back.click(); back.click(); }")
    settle(page)
    assert page.locator("#position").inner_text() == f"position 0 of {length}"
    assert "to play" in page.locator("#situation").inner_text()
    assert page.locator("#explanation").inner_text() == ""


def test_the_replay_slider_redraws_while_its_thumb_is_dragged(page: Page, server: str, tmp_path: Path) -> None:
    """The slider redrew the table only once its thumb was let go: dragged, the table follows it, and the thumb stays
    under the pointer (a redraw of a position it passed does not pull it back)."""
    path, length = recorded_game("connect-four", tmp_path)
    page.goto(server)
    page.set_input_files("#open input[type=file]", str(path))
    page.click("#open button[value=replay]")
    page.wait_for_url("**/table/*")
    settle(page)
    box = page.locator("#scrub").bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] - 4, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, y, steps=10)  # held down: not let go yet
    page.wait_for_function(f"!document.getElementById('position').textContent.startsWith('position {length} ')",
                           timeout=10_000)
    page.mouse.move(box["x"] + 4, y, steps=10)
    page.wait_for_function("document.getElementById('position').textContent.startsWith('position 0 ')")
    assert page.evaluate("document.getElementById('scrub').value") == "0"
    page.mouse.up()
    settle(page)
    assert page.locator("#position").inner_text() == f"position 0 of {length}"
    assert "to play" in page.locator("#situation").inner_text()


def test_bad_requests_get_a_clear_message_and_the_server_goes_on(page: Page, server: str, tmp_path: Path) -> None:
    page.goto(f"{server}/play/no-such-game")
    assert "this server has no ruleset 'no-such-game'" in page.locator("pre.error").inner_text()
    page.goto(f"{server}/play/tutorial-tiles?players=9")
    assert "played by 2, 3 players, not 9" in page.locator("pre.error").inner_text()

    page.goto(f"{server}/play/tutorial-tiles?players=2&seed=1")
    settle(page)
    page.fill("#filter", "place Sun/Sun as Moon")
    assert page.locator("#actions button.action").count() == 0
    page.evaluate("act('place Sun/Sun as Moon at 0,0')")
    settle(page)
    message = page.locator("#message")
    assert message.is_visible() and message.inner_text() == ("Sun/Sun has no face 'Moon' (its faces are Sun and Sun) "
                                                             "(did you mean 'place Sun/Moon as Moon at 0,0'?)")
    assert page.locator("#log li").count() == 0  # nothing was played

    broken = tmp_path / "broken.json"
    broken.write_text('{"ruleset": "tutorial-tiles", "players": 2')
    page.goto(server)
    page.set_input_files("#open input[type=file]", str(broken))
    page.click("#open button[value=play]")
    page.wait_for_selector("#message:not([hidden])")
    assert "not a JSON game file" in page.locator("#message").inner_text()

    page.goto(f"{server}/play/tutorial-tiles?players=2&seed=1")
    settle(page)
    assert page.locator("#view svg.board").count() == 1  # still serving


def test_a_move_on_one_seats_page_shows_on_the_others_at_once(browser: BrowserContext, server: str) -> None:
    """Two humans, each at their own page: the table's events bring each move to the other page."""
    first = browser.new_page()
    first.goto(f"{server}/play/iconoclasm-cards?players=2&seed=3&seat=2=human&seat=1=human")
    settle(first)
    second = browser.new_page()
    second.goto(first.url + "?seat=2")
    settle(second)
    assert second.locator("#actions button.action").count() == 0  # not seat 2's turn
    first.locator("#actions button.action").first.click()
    second.wait_for_selector("#actions button.action")  # no reload: pushed by the server
    assert second.locator("#log li").count() == 1
    second.locator("#actions button.action").first.click()
    first.wait_for_function("document.querySelectorAll('#log li').length === 2")
    first.close()
    second.close()


def test_one_seats_page_at_a_table_of_two_humans_saves_once_the_game_is_over(browser: BrowserContext, server: str) -> None:
    """A save is the whole game: from seat 1's own page it gave away seat 2's hidden hand.  The link says why instead."""
    shared = browser.new_page()
    shared.goto(f"{server}/play/tutorial-tiles?players=2&seed=1&seat=2=human")
    settle(shared)
    with shared.expect_download() as whole:  # one screen shared by both players: saved at any time
        shared.click("#save")
    assert json.loads(Path(whole.value.path()).read_text())["actions"] == []
    first = browser.new_page()
    first.goto(shared.url + "?seat=1")
    settle(first)
    assert first.locator("#save.unavailable").count() == 1 and first.locator("#save").get_attribute("href") is None
    assert first.locator("#seat").is_disabled()  # nor does "seen by" show seat 2's hand
    first.click("#save")
    assert "seat 2's hidden cards and choices too" in first.locator("#message").inner_text()
    table = shared.url.rsplit("/", 1)[1]
    while True:  # both seats play to the end; seat 1's page follows the table's events
        data = first.request.get(f"{server}/api/tables/{table}").json()
        if data["over"]:
            break
        first.request.post(f"{server}/api/tables/{table}/act", data={"action": data["actions"][0]["text"]})
    first.wait_for_function("document.body.dataset.over === 'true'")
    assert first.locator("#save.unavailable").count() == 0 and first.locator("#seat").is_enabled()
    with first.expect_download() as saved:
        first.click("#save")
    assert len(json.loads(Path(saved.value.path()).read_text())["actions"]) == len(data["moves"])
    shared.close()
    first.close()


def hidden_from(state: State, seat: int) -> set[str]:
    """The components ``state`` holds where ``seat`` sees only a count (and nowhere it sees them)."""
    game = state.game
    seen = {game.piece_names[c] for zi in range(len(game.zone_names)) if zone_view(state, zi, seat) == SEEN
            for c in state.zones[zi]}
    return {game.piece_names[c] for zi in range(len(game.zone_names)) if zone_view(state, zi, seat) != SEEN
            for c in state.zones[zi]} - seen


def test_two_browsers_play_one_table_through_its_invitation_link(browser: BrowserContext, other_browser: BrowserContext,
                                                                 server: str) -> None:
    """Anyone knowing the table's address saw the other human's hand with ?seat=2.  Now the opener's page shows seat
    2's invitation link; the browser that opens it takes seat 2, and each browser sees only its own hand."""
    first = browser.new_page()
    first.goto(f"{server}/play/kuhn-poker?players=2&seed=1&seat=2=human")
    settle(first)
    link = first.locator('#invites a[data-seat="2"]')
    assert link.inner_text() == server + link.get_attribute("href")
    invitation = link.get_attribute("href")
    peeking = other_browser.new_page()  # the table's address alone shows the other browser no hand
    peeking.goto(first.url + "?seat=2")
    assert "this request carries no key for seat 2" in peeking.locator("pre.error").inner_text()
    peeking.goto(first.url)
    settle(peeking)
    assert peeking.locator("#seat").input_value() == "" and peeking.locator(".zone.mine").count() == 0
    second = other_browser.new_page()
    second.goto(server + invitation)
    second.click("#take")
    second.wait_for_url(f"{first.url}?seat=2")
    settle(second)
    first.wait_for_function("document.querySelectorAll('#invites a').length === 0")  # seat 2 is no longer this browser's
    assert first.locator("#seat option").all_inner_texts() == ["seat 1"]
    state = shipped_game("kuhn-poker").new_state(players=2, seed=1)
    pages = {1: first, 2: second}
    while first.evaluate("view.over") is False:
        mover = first.evaluate("view.to_move")
        assert first.locator("#seat").input_value() == "1"  # the opener's page stays with seat 1, even on seat 2's turn
        for seat, tab in pages.items():
            shown = tab.locator("#view").inner_html()
            assert not [n for n in hidden_from(state, seat) if f'data-name="{n}"' in shown]
        count = first.locator("#log li").count()
        pages[mover].locator("#actions button.action").first.click()
        for tab in pages.values():  # each move shows on the other browser's page at once
            tab.wait_for_function(f"document.querySelectorAll('#log li').length === {count + 1}")
        settle(pages[mover])
    second.wait_for_function("document.body.dataset.over === 'true'")
    for tab in (first, second, peeking):
        tab.close()


def test_a_browser_that_forgot_its_cookies_comes_back_by_the_pages_way_back(browser: BrowserContext,
                                                                           other_browser: BrowserContext, server: str) -> None:
    """A seat was lost for good with its browser's cookies; the page now shows its own seat's way back."""
    first = browser.new_page()
    first.goto(f"{server}/play/kuhn-poker?players=2&seed=1")
    settle(first)
    link = first.locator("#way-back a")
    back = link.get_attribute("href")
    assert link.inner_text() == server + back and "?back=" in back
    again = other_browser.new_page()  # as the same person whose browser forgot everything
    again.goto(server + back)
    again.wait_for_url(f"{first.url}?seat=1")
    settle(again)
    assert again.locator(".zone.mine").count() == 1 and again.locator("#actions button.action").count() > 0
    first.close()
    again.close()


def test_one_browser_plays_every_seat_in_turn_on_one_screen(browser: BrowserContext, other_browser: BrowserContext,
                                                            server: str) -> None:
    """Hot seat: the page that names no seat follows the seat to move and shows its hand; another browser opening the
    same address sees no hand at all."""
    page = browser.new_page()
    page.goto(f"{server}/play/kuhn-poker?players=2&seed=1&seat=2=human")
    settle(page)
    watcher = other_browser.new_page()
    watcher.goto(page.url)
    settle(watcher)
    while page.evaluate("view.over") is False:
        mover = page.evaluate("view.to_move")
        assert page.locator("#seat").input_value() == str(mover)
        assert page.locator(".zone.mine").count() >= 1 and watcher.locator(".zone.mine").count() == 0
        assert watcher.locator("#actions button.action").count() == 0
        count = page.locator("#log li").count()
        page.locator("#actions button.action").first.click()
        page.wait_for_function(f"document.querySelectorAll('#log li').length === {count + 1}")
        watcher.wait_for_function(f"document.querySelectorAll('#log li').length === {count + 1}")
        settle(page)
    watcher.wait_for_function("document.body.dataset.over === 'true'")
    page.close()
    watcher.close()


def test_two_tabs_watching_one_table_play_each_move_once(browser: BrowserContext, server: str) -> None:
    """Each tab ran the bots on its own timer: with two tabs the table played a move for each tab's asking, twice as
    fast, every other move hardly shown.  Now it plays once per position, whichever tab asks first."""
    asked: list[str | None] = []  # the bodies of the tabs' requests for a bot's move
    tabs = []
    for _ in range(2):
        tab = browser.new_page()
        tab.route("**/events*", lambda route: route.abort())  # no tab hears of the other's move but by asking
        tab.on("request", lambda request: asked.append(request.post_data) if request.url.endswith("/advance") else None)
        tabs.append(tab)
    tabs[0].goto(f"{server}/watch/tic-tac-toe?players=2&seed=5&agents=random")
    tabs[1].goto(tabs[0].url)
    for tab in tabs:
        tab.wait_for_function("document.body.dataset.over === 'true'")
        settle(tab)
    moves = tabs[0].request.get(tabs[0].url.replace("/table/", "/api/tables/")).json()["moves"]
    positions = {json.loads(body or "{}").get("version") for body in asked}
    assert len(asked) > len(moves) and len(moves) == len(positions), (asked, len(moves))
    for tab in tabs:
        tab.close()


def test_a_double_click_on_an_action_plays_it_once(page: Page, server: str) -> None:
    """At a shared screen the second click of a double click played 'choose pass' again, for the next seat."""
    page.goto(f"{server}/play/kuhn-poker?players=2&seed=1&seat=2=human")
    settle(page)
    page.locator("#actions button.action", has_text="pass").dblclick()
    page.wait_for_function("document.querySelectorAll('#log > li').length >= 1")
    settle(page)
    assert page.locator("#log > li").count() == 1 and page.evaluate("document.body.dataset.over") == "false"
    page.locator("#actions button.action", has_text="bet").click()
    page.wait_for_function("document.querySelectorAll('#log > li').length === 2")
    settle(page)
    page.dblclick("#undo")  # nor does a double click on undo take back both moves
    settle(page)
    page.wait_for_function("document.querySelectorAll('#log > li').length === 1")
    time.sleep(0.5)
    settle(page)
    assert page.locator("#log > li").count() == 1


def test_the_settings_form_starts_a_game_with_options_and_bots(page: Page, server: str) -> None:
    """The options' spaces go as %20: the server reads a '+' as itself (set=name=a+b), so a space sent as '+' would
    reach the ruleset as a '+'."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/watch/" in request.url else None)
    page.goto(server)
    page.select_option("#start select[name=ruleset]", "tutorial-tiles")
    page.fill("#start input[name=players]", "3")
    page.fill("#start input[name=seed]", "12")
    page.fill("#start textarea[name=set]", "rank_points=[5, 2, 0]\nboard_size=4")
    page.fill("#start input[name=agents]", "greedy")
    page.click("#start button[value=watch]")
    page.wait_for_url("**/table/*")
    settle(page)
    assert page.locator("h1 small").inner_text() == "rank_points=[5, 2, 0], board_size=4, 3 players, seed 12"
    assert len(asked) == 1 and "set=rank_points%3D%5B5%2C%202%2C%200%5D&set=board_size%3D4" in asked[0], asked
    assert page.evaluate("document.body.dataset.mode") == "watch"


def test_the_rules_and_balance_tabs(page: Page, server: str) -> None:
    page.goto(f"{server}/play/tutorial-tiles?players=2&seed=1")
    page.click("nav.tabs button[data-tab=rules]")
    rules = page.locator("#tab-rules pre.rules")
    assert rules.is_visible() and rules.inner_text().splitlines() == explain(shipped_game("tutorial-tiles"))
    page.click("nav.tabs button[data-tab=balance]")
    page.fill("#simulate input[name=n]", "20")
    page.click("#simulate button")
    report = page.frame_locator("#report")
    report.locator("svg.chart").first.wait_for()
    assert report.locator("svg.chart").count() == 6  # win rates, mean points (places pay 3, 1, 0), actions, turns, roles dealt, components
    assert "20 games" in report.locator("h1").inner_text()
    if os.environ.get("RULECRAFT_SCREENSHOTS"):
        page.locator("#report").screenshot(path=str(IMAGES / "balance.png"))


def test_a_card_is_playable_only_where_an_action_names_it_whole(page: Page, server: str) -> None:
    """A sealed card '1' is not the hand's '1+': clicking it plays nothing, though 'commit 1+ ...' holds a '1'."""
    page.goto(f"{server}/play/nine-domains?players=2&seed=2&seat=2=human")
    settle(page)
    page.evaluate("act('commit 1 to left')")
    settle(page)
    sealed = page.locator("#view .zone.mine:not(:has-text('hand')) .chip[data-name='1']")
    assert sealed.count() == 1 and "playable" not in (sealed.get_attribute("class") or "")
    assert "playable" in (page.locator("#view .chip[data-name='1+']").get_attribute("class") or "")
    sealed.click()
    settle(page)
    assert page.locator("#log > li").count() == 1  # nothing was played


def test_the_last_moves_cells_are_marked_on_the_board(page: Page, server: str) -> None:
    """A bot's reply is found at a glance: its cell is outlined; after an undo, nothing is."""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=4")
    settle(page)
    assert page.locator("#view .cell.last").count() == 0
    page.locator("#view .cell.playable").first.click()
    page.wait_for_function("document.querySelectorAll('#log > li').length === 2")
    settle(page)
    reply = page.locator("#log > li").nth(1).inner_text().splitlines()[0]
    marked = page.locator("#view .cell.last").evaluate_all("cells => cells.map((c) => c.dataset.cell)")
    assert marked == [reply.rsplit(" at ", 1)[1]]
    page.click("#undo")
    settle(page)
    assert page.locator("#view .cell.last").count() == 0


def test_a_stacks_counts_read_on_the_discs_they_are_written_on(page: Page, server: str) -> None:
    """'+N' beneath a stack's top piece was dark grey whatever the piece's colour: on a dark piece it could not be read.
    A stack of several kinds is now a disc per kind with its count, each count dark or light as its disc needs."""
    page.goto(f"{server}/play/spell-cycles?players=2&variant=spellstackers%2Bshort&seed=1&seat=2=human")
    settle(page)
    table = page.url
    api = table.replace("/table/", "/api/tables/")
    page.goto("about:blank")  # the moves are made through the table's address: the page would draw each of them
    for _ in range(12):  # every placement on 0,0, on top of the pieces there
        texts = [a["text"] for a in page.request.get(api).json()["actions"]]
        on = [t for t in texts if t.startswith("place") and t.endswith(" at 0,0")]
        page.request.post(api + "/act", data={"action": (on or texts)[0]})
    page.goto(table)
    settle(page)
    cell = page.locator("#view .cell[data-cell='0,0']")
    discs, counts = cell.locator("circle.kind"), cell.locator(".kind-count")
    assert sum(int(n) for n in counts.all_text_contents()) == 6  # six pyramids of four colours
    fill = "(text) => getComputedStyle(text).fill"
    for i in range(discs.count()):
        dark = text_colour(discs.nth(i).get_attribute("fill") or "") == "#111"
        assert counts.nth(i).evaluate(fill) == ("rgb(17, 17, 17)" if dark else "rgb(255, 255, 255)")


def test_the_last_moves_outline_is_not_covered_by_the_cells_after_it(page: Page, server: str) -> None:
    """The outline of the last move's cell lost its right and bottom sides under the cells drawn after it."""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=4&seat=2=human")
    settle(page)
    page.locator("#view .cell[data-cell='0,0']").click()
    settle(page)
    box = page.locator("#view .cell[data-cell='0,0'] .square").bounding_box()  # the square with its outline
    assert box is not None
    right, bottom = box["x"] + box["width"] - 0.75, box["y"] + box["height"] - 0.75  # the outline's outer half
    for x, y in ((right, box["y"] + box["height"] / 2), (box["x"] + box["width"] / 2, bottom)):
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.cell').dataset.cell", [x, y])
        assert hit == "0,0"


def test_a_bot_move_the_ruleset_fails_on_stops_the_bots_instead_of_being_asked_for_again(page: Page, failing_server: str) -> None:
    """A bot's move that failed was asked for again and again, several times a second, for as long as the page was
    open (a searching bot spent up to 5 seconds on each); the page now stops the bots there and says how to go on."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/advance") else None)
    page.goto(f"{failing_server}/watch/failing-effect?players=2&seed=1&agents=random")
    page.wait_for_selector("#message:not([hidden])")
    time.sleep(2)
    settle(page)
    assert "division by zero" in page.locator("#message").inner_text()
    assert "The bots stop here: press play or step to try again." in page.locator("#message").inner_text()
    assert len(asked) == 1 and page.locator("#playpause").inner_text() == "play"
    page.click("#playpause")  # asked again, once
    page.wait_for_function("document.getElementById('playpause').textContent === 'play'")
    time.sleep(1)
    assert len(asked) == 2


def test_on_a_phone_a_cell_with_several_actions_brings_them_into_view(browser: BrowserContext, server: str) -> None:
    """A phone puts the actions below the board: a tap on a cell listing several actions seemed to do nothing, the
    list being far below the screen."""
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/play/spell-cycles?players=2&seed=7&seat=2=human")
    settle(page)
    page.locator("#view .cell[data-cell='1,1']").click()
    settle(page)
    assert page.locator("#filter").input_value() == "1,1" and page.locator("#actions button.action").count() > 1
    listed = page.locator("#actions").bounding_box()
    assert listed is not None and 0 <= listed["y"] and listed["y"] + listed["height"] <= 845  # within a pixel
    page.close()


def test_a_page_whose_table_is_gone_says_so_without_being_clicked(page: Page, server: str) -> None:
    """A page left open across a restart of the server looked alive until its next click; now the page says at
    once that its game is gone.  (The server's answers for a table it no longer has are stood in for here.)"""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=1")
    settle(page)
    gone = json.dumps({"error": "there is no game 't1-x' on this server (it may have been closed, or the server "
                                "started again since: start a new one)"})
    page.route("**/api/tables/**", lambda route: route.fulfill(status=404, content_type="application/json", body=gone))
    page.evaluate("follow()")  # the events of the table, asked for again as after a restart
    page.wait_for_selector("#message:not([hidden])", timeout=5000)
    assert "or the server started again since" in page.locator("#message").inner_text()


def test_the_log_stays_where_the_reader_scrolled_it(page: Page, server: str) -> None:
    """Each move drew the log again scrolled to its end: reading an earlier move while the bots played was not
    possible, every move pulled the log back down.  At its end, the log still follows the newest move."""
    page.goto(f"{server}/watch/iconica?players=2&seed=5&agents=random")
    page.wait_for_function("document.querySelector('#log').scrollHeight > document.querySelector('#log').clientHeight + 200",
                           timeout=60_000)
    page.click("#playpause")  # paused
    settle(page)
    log = page.locator("#log")
    at_end = "(log) => log.scrollTop + log.clientHeight >= log.scrollHeight - 4"
    assert log.evaluate(at_end)
    page.click("#step")
    settle(page)
    assert log.evaluate(at_end)  # following the newest move
    log.evaluate("(log) => { log.scrollTop = 0; }")
    moves = page.locator("#log > li").count()
    page.click("#step")
    page.wait_for_function(f"document.querySelectorAll('#log > li').length > {moves}")
    settle(page)
    assert log.evaluate("(log) => log.scrollTop") == 0


def test_each_turn_a_move_began_is_headed_in_the_log_with_whose_it_is(page: Page, examples_server: str) -> None:
    """Crazy Eights' seat 2, left one card to play, plays it unasked in the middle of seat 1's move: the log headed
    only the turn the move ended in, 'turn 5', so seat 2's card read as seat 1's.  Each turn is headed, and says whose."""
    page.goto(f"{examples_server}/play/crazy-eights?players=2&seed=5")
    settle(page)
    table = page.url.split("?")[0].rsplit("/", 1)[1]
    for _ in range(3):  # seat 1, the bot's reply, seat 1
        data = page.request.get(f"{examples_server}/api/tables/{table}").json()
        if data["bot_to_move"]:
            page.request.post(f"{examples_server}/api/tables/{table}/advance", data={"version": data["version"]})
        else:
            page.request.post(f"{examples_server}/api/tables/{table}/act",
                              data={"action": data["actions"][0]["text"], "version": data["version"]})
    page.reload()
    settle(page)
    third = page.locator("#log li").nth(2)
    assert third.locator("b.turn").all_inner_texts() == ["turn 4: seat 2", "turn 5: seat 1"]
    assert "B2" in third.locator(".lines").nth(1).inner_text()  # seat 2's card, under seat 2's turn


def test_the_first_turns_own_lines_are_under_its_heading_at_the_start(page: Page, server: str) -> None:
    """Hex glyphs' setup charges the glyphs, then turn 1 rolls the die and fills Amber's pouch: the page's log put
    the roll under "the start" with the setup, no turn heading anywhere, where rulecraft play heads it "turn 1".
    The start's box ends on that roll, in view; a turn with no line there yet is not headed (last in the box, its
    heading read as that of the scrolled log's first lines below it)."""
    page.set_viewport_size({"width": 1280, "height": 700})
    page.goto(f"{server}/play/hex-glyphs?players=2&seed=5")
    settle(page)
    opening = page.locator("#opening")
    assert opening.locator("b").all_inner_texts() == ["the start", "turn 1: seat 1 (Amber)"]
    assert opening.locator(".lines").all_inner_texts() == [
        "charges of Ember: 0 -> 2\ncharges of Tide: 0 -> 2\ncharges of Delta: 0 -> 2\ncharges of Braid: 0 -> 2",
        "Amber rolls 6 (green)\nbag: green -> pouch of Amber"]
    assert opening.evaluate("(box) => box.scrollTop + box.clientHeight >= box.scrollHeight - 4")
    page.goto(f"{server}/play/liars-dice?players=2&seed=3")  # turn 1 begins where the start ends: no heading yet
    settle(page)
    assert page.locator("#opening b").all_inner_texts() == ["the start"]


def test_a_click_on_a_cell_lists_the_actions_at_that_cell_only(page: Page, server: str) -> None:
    """A click on hex 1,1 listed the actions at -1,1 as well, whose text holds '1,1': one click away from placing a
    piece on the wrong hex."""
    page.goto(f"{server}/play/iconoclasm?players=2&seed=7")
    settle(page)
    page.locator("#view .cell[data-cell='1,1']").click()
    settle(page)
    listed = [a.inner_text() for a in page.locator("#actions button.action").all()]
    assert len(listed) == 5 and all(text.endswith(" at 1,1") for text in listed), listed
    page.fill("#filter", "Fire")  # a filter that is not a cell still finds actions by their text
    assert page.locator("#actions button.action").count() == 13


def test_a_filter_that_is_a_cell_name_lists_that_cell_only(page: Page, tmp_path: Path) -> None:
    """On a board of twelve rows naming its cells, the filter 'a1' listed the actions at a10, a11 and a12 too, whose
    text holds 'a1' (the filter '0,0' found the cell alone): a name is now a cell too, as at the terminal."""
    from tests.test_cell_names import MARKS

    (tmp_path / "wide-marks").mkdir()
    (tmp_path / "wide-marks" / "ruleset.yaml").write_text(
        MARKS.replace("name: marks", "name: wide-marks").replace("width: 3", "width: 12").replace("height: 3", "height: 12"))
    serve = serving(str(tmp_path))
    try:
        page.goto(f"{next(serve)}/play/wide-marks?players=2&seed=1")
        settle(page)
        for typed in ("a1", "A1", "0,0", "00,0"):  # 00,0 (a leading zero) listed nothing: the filter compared texts
            page.fill("#filter", typed)
            assert [a.inner_text() for a in page.locator("#actions button.action").all()] == ["place X at a1"], typed
        page.fill("#filter", "X at a1")  # not a cell: every action containing it
        assert page.locator("#actions button.action").count() == 4
    finally:
        serve.close()


def test_a_game_over_says_beside_the_winner_why_it_ended(page: Page, server: str) -> None:
    """At the end the page said who won, but why (the scoring, the goal reached) only at the foot of the log,
    below the fold on a phone; the move that ended the game is now explained beside the outcome."""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=3&seat=2=human")
    for cell in ("0,0", "0,1", "1,0", "1,1", "2,0"):  # X takes the top row
        settle(page)
        page.locator(f"#view .cell[data-cell='{cell}']").click()
    page.wait_for_function("document.body.dataset.over === 'true'")
    settle(page)
    explained = page.locator("#explanation").inner_text().splitlines()
    assert explained[0] == "5. seat 1: place X at 2,0"
    assert [line for line in page.locator("#situation").inner_text().splitlines() if line] == [
        "game over; scores: seat 1 (X): 1, seat 2 (O): 0", "seat 1 (X) wins",  # the roles, as "seat 1 (X) to play"
        "ended because for some r in roles, r's longest line is at least 3",  # which part of 'end: when' held
        "in the ranking, the [ ] of each r in roles holds: 1 if r's longest line is at least 3, else 0"]  # what [1] is
    # the lines under the scores and the winner explain them: not headings in bold as those two are
    weights = page.locator("#situation p").evaluate_all("(ps) => ps.map((p) => getComputedStyle(p).fontWeight)")
    assert weights == ["700", "700", "400", "400"], weights
    assert "game over: 1. X [1]: 1 point to seat 1" in explained and "2. O [0]: 0 points to seat 2" in explained
    # the ranking's second place is a later line of the game over's one log line: it hangs under the first, where it
    # stood level with it, read as a line of the log of its own (so in the log too)
    for box in ("#explanation", "#log"):
        assert page.evaluate("""(box) => {
            const entry = [...document.querySelectorAll(`${box} div`)].find((d) => d.textContent.startsWith("game over"));
            const text = entry.firstChild, at = text.data.indexOf("\\n2. ") + 1, range = document.createRange();
            range.setStart(text, at); range.setEnd(text, at + 2);
            return range.getBoundingClientRect().left - entry.getBoundingClientRect().left;
        }""", box) > 10


def test_a_bot_thinking_for_seconds_shows_the_page_is_waiting(page: Page, server: str) -> None:
    """A searching bot thinks for seconds, and the page showed nothing meanwhile: it looked stuck.  Then it said
    "waiting for the server…" and nothing more for as long as the bot thought: the seconds are counted now."""
    page.goto(f"{server}/play/iconoclasm?players=2&seed=1&seat=2=mcts:2s")
    settle(page)
    waiting = page.locator("#waiting")
    assert waiting.is_hidden()
    page.locator("#actions button.action").first.click()
    page.wait_for_function("document.getElementById('waiting').textContent === 'waiting for the server…'"
                           " && !document.getElementById('waiting').hidden", timeout=1500)
    page.wait_for_function("document.getElementById('waiting').textContent === 'waiting for the server… 1 s'", timeout=1500)
    settle(page)
    assert waiting.is_hidden() and page.locator("#log > li").count() == 2


def test_on_a_phone_the_list_of_rulesets_fits_the_screen(browser: BrowserContext, server: str) -> None:
    """The front page's table of rulesets was some 50 pixels wider than a phone: the whole page scrolled sideways,
    its header bar stopping short (and at 375 pixels still by 10, the variants' column as wide as its longest line)."""
    page = browser.new_page()
    for width in (390, 375):
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(server)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.close()


def test_on_a_phone_a_balance_report_fits_the_screen_its_charts_shrunk_or_scrolled(browser: BrowserContext, server: str) -> None:
    """The balance report's charts kept their width on a phone: the whole report scrolled sideways, and a chart's
    labels past the screen's edge ('211 (58% won) str').  Each chart is now shrunk to the screen (at most to three
    quarters of its size, as a board is) and beyond that scrolls in its own place, the page staying still."""
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/simulate/tic-tac-toe?players=2&n=20")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    charts = page.locator("svg.chart")
    assert charts.count() >= 3
    for i in range(charts.count()):
        scale = charts.nth(i).evaluate("(svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
        assert 0.74 <= scale < 1, scale
    page.close()


def test_a_maps_points_say_their_names_on_the_board(page: Page, examples_server: str) -> None:
    """A board of named points (a map's lands) drew blank circles: which one was Cedar, the land an action attacks,
    only the pointer resting on it told.  Each named point now says its name beneath it, inside the board."""
    page.goto(f"{examples_server}/play/frontiers?players=2&seed=1")
    settle(page)
    board = page.locator("#view svg.board").bounding_box()
    assert board is not None
    for name in ("Ash", "Birch", "Cedar", "Dune", "Elm", "Fen", "Glen", "Heath", "Isle"):
        cell = page.locator("#view .cell", has=page.locator("title", has_text=f"{name} ("))
        written = cell.locator("text", has_text=name)
        assert written.count() == 1, name
        box = written.bounding_box()
        assert box is not None and board["x"] <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
        assert box["y"] + box["height"] <= board["y"] + board["height"]
        # a link may pass under the name (a morris board's names lie on its lines): a halo of the board's colour
        halo = written.evaluate("(t) => [getComputedStyle(t).paintOrder, getComputedStyle(t).stroke]")
        board_colour = page.locator("#view svg.board").evaluate("(svg) => getComputedStyle(svg).backgroundColor")
        assert halo[0].startswith("stroke") and halo[1] == board_colour, halo


def test_a_point_is_clicked_anywhere_on_its_disc_not_only_on_its_small_circle(page: Page, examples_server: str) -> None:
    """A point took clicks only on its small circle: a click a little off it (at the middle of the point and its name,
    where a browser test clicks) landed on the link passing there, and nothing was played.  Each point now takes
    the clicks on a disc of a piece's size around it."""
    page.goto(f"{examples_server}/play/morris?players=2&seed=3")
    settle(page)
    points = page.locator("#view .cell.playable")
    assert points.count() == 24
    missed = points.evaluate_all("""(cells) => cells.filter((cell) => {
        const box = cell.querySelector('.point').getBoundingClientRect(), whole = cell.getBoundingClientRect();
        const x = box.x + box.width / 2, y = box.y + box.height / 2;  // 12 pixels off the point, each way, and the middle
        const spots = [[x + 12, y], [x - 12, y], [x, y + 12], [x, y - 12], [whole.x + whole.width / 2, whole.y + whole.height / 2]];
        return spots.some(([a, b]) => !cell.contains(document.elementFromPoint(a, b)));
    }).map((cell) => cell.dataset.cell)""")
    assert missed == [], missed
    points.filter(has=page.locator("title", has_text="g7")).click()
    settle(page)
    assert page.locator("#log > li").first.inner_text().splitlines()[0] == "seat 1: choose g7"


def test_a_long_last_move_scrolls_in_its_box_showing_who_won(page: Page, examples_server: str) -> None:
    """The move that ended the game is explained beside the scores: one that played a long chain of forced steps
    (a race game's dice and runs, bots' turns among them) made a box as tall as two screens, the log pushed below
    it.  The box now scrolls, at its end: the ranking, who won and why."""
    page.goto(f"{examples_server}/play/home-run?players=3&seed=3")
    for _ in range(20):
        settle(page)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        actions = page.locator("#actions button.action")
        if actions.count():
            actions.first.click()
        else:
            page.wait_for_timeout(200)  # a bot's turn
    box = page.locator("#explanation")
    assert "game over" in box.inner_text()
    tall = box.evaluate("(box) => [box.scrollHeight, box.clientHeight, box.scrollTop]")
    assert tall[0] > tall[1] * 2, tall  # a long explanation: more than twice what shows
    assert tall[1] < 400 and tall[2] + tall[1] >= tall[0] - 2, tall  # a box of some lines, scrolled to its end
    last = box.locator("div").last.bounding_box()
    shown = box.bounding_box()
    assert last is not None and shown is not None and last["y"] + last["height"] <= shown["y"] + shown["height"] + 1


def test_a_board_naming_its_squares_reads_so_on_its_edges_and_at_a_click(page: Page, examples_server: str) -> None:
    """Chess names its squares (``cell_names: algebraic``): the edges read a..h and 8..1 (rank 1 at the bottom), a
    click on e2 plays the pawn there (the action 'choose P at e2' found at the square 4,1), and the squares it may go
    to are the ones offered, outlined as the last move's square."""
    page.goto(f"{examples_server}/play/chess?players=2&seed=1&seat=2=human")
    settle(page)
    edges = page.locator("#view svg.board text.coord").all_text_contents()
    assert edges == [*"abcdefgh", *"87654321"], edges
    assert page.locator("#view .cell[data-cell='4,1'] > title").text_content() == "e2"
    page.locator("#view .cell[data-cell='4,1']").click()
    settle(page)
    assert page.locator("#log > li").first.inner_text().splitlines()[0] == "seat 1: choose P at e2"
    playable = page.locator("#view .cell.playable").evaluate_all("cells => cells.map((c) => c.dataset.cell)")
    assert sorted(playable) == ["4,2", "4,3"], playable
    marked = page.locator("#view .cell.last").evaluate_all("cells => cells.map((c) => c.dataset.cell)")
    assert marked == ["4,1"], marked


def test_a_log_line_of_one_long_word_wraps_inside_the_log(page: Page, examples_server: str) -> None:
    """A log line holding one long word (a counter's number of some forty digits, a long name) ran past the log's
    right edge, cut off there; long words now break inside the log.  (The chess example's position number, the long
    word this looked at, is bookkeeping no longer logged: a line of the same make as the page's is added here.)"""
    page.goto(f"{examples_server}/play/chess?players=2&seed=1&seat=2=human")
    settle(page)
    page.locator("#actions button.action").first.click()
    settle(page)
    log = page.locator("#log")
    log.evaluate("""(log) => {  // as drawLog writes a move and its lines
        const item = document.createElement("li"); item.textContent = "seat 1: a move";
        const lines = document.createElement("div"); lines.className = "lines";
        lines.textContent = "snapshot: 0 -> " + "1234567890".repeat(6); item.append(lines); log.append(item); }""")
    assert any(len(word) > 30 for word in log.inner_text().split())  # the long word is there
    assert log.evaluate("(log) => log.scrollWidth <= log.clientWidth")


def test_a_pieces_long_label_stays_on_its_piece(page: Page, examples_server: str) -> None:
    """A piece's label was written at one size whatever its length: a six-letter name ran over the piece's edges
    into the next cell's piece ('Chapel' over 'Bakery' and 'Forge').  A long label is now written smaller, to fit."""
    page.goto(f"{examples_server}/play/storm-watch?players=2&seed=1")
    settle(page)
    pieces = page.locator("#view .piece")
    assert pieces.count() >= 6
    labels = [pieces.nth(i).locator(".label").text_content() for i in range(pieces.count())]
    assert any(len(label or "") >= 6 for label in labels), labels  # a long label is there
    for i in range(pieces.count()):
        piece, label = pieces.nth(i).locator("rect, circle").first.bounding_box(), pieces.nth(i).locator(".label").bounding_box()
        assert piece is not None and label is not None
        assert piece["x"] <= label["x"] and label["x"] + label["width"] <= piece["x"] + piece["width"], labels[i]


def test_a_chosen_card_is_playable_only_in_the_zone_it_is_chosen_from(page: Page, examples_server: str) -> None:
    """'choose chance' (a box of one's own sheet) lit every chip named 'chance': the other player's sheet's and the
    supply's too, as if they could be clicked.  Only the chips in the zone the choice takes from are lit now."""
    page.goto(f"{examples_server}/play/yacht?players=2&seed=3&seat=2=human")
    for _ in range(20):  # pass until the dice are scored
        settle(page)
        texts = [a.inner_text() for a in page.locator("#actions button.action").all()]
        if "choose chance" in texts:
            break
        page.locator("#actions button.action", has_text="pass").first.click()
    assert "choose chance" in texts
    lit = page.locator("#view .chip.playable").evaluate_all("chips => chips.map((c) => c.closest('.zone').dataset.zone)")
    assert lit and set(lit) == {"sheet of seat1"}, lit
    page.locator("#view .zone[data-zone='sheet of seat1'] .chip[data-name='chance']").click()
    settle(page)
    assert "seat 1: choose chance" in page.locator("#log").inner_text()


def test_a_wall_clicked_into_a_thin_groove_is_drawn_as_a_bar_between_squares(page: Page, examples_server: str) -> None:
    """Quoridor's grooves and posts (``board: {thin: odd}``) were full squares like those a pawn walks, a wall three
    tiles reading 'wa' and 'po'.  Clicking a groove now places a wall drawn as one bar between the squares, as thin
    as the groove, through the post it covers."""
    page.goto(f"{examples_server}/play/quoridor?players=2&seed=1")
    settle(page)
    square = page.locator("#view .cell[data-cell='0,0'] .square").bounding_box()
    page.locator("#view .cell[data-cell='1,0'].playable").click()  # the upright wall from 1,0 down to 1,2
    settle(page)
    assert "seat 1: choose 1,0" in page.locator("#log").inner_text()
    boxes = [page.locator(f"#view .cell[data-cell='{key}'] .piece").bounding_box() for key in ("1,0", "1,1", "1,2")]
    assert square is not None and all(boxes), boxes
    top, bottom = boxes[0], boxes[2]
    assert all(abs(box["x"] - top["x"]) < 1 and box["width"] < square["width"] / 2 for box in boxes), boxes  # thin, in line
    assert abs(top["height"] - square["height"]) < 1.5 and boxes[1]["height"] < square["height"] / 2
    assert abs(bottom["y"] + bottom["height"] - (top["y"] + square["height"] * 2 + boxes[1]["height"])) < 3  # no gap
    assert page.locator("#view svg.board text", has_text="wa").count() == 0


def test_a_long_lists_numbers_are_not_cut_at_its_left_edge(page: Page, server: str) -> None:
    """The actions and the log are numbered lists, with room for two digits and a dot: the 192 actions of
    spell-cycles' first move, and a long game's moves past 99, showed their numbers cut at the left edge."""
    page.goto(f"{server}/play/spell-cycles?players=2&seed=7&seat=2=human")
    settle(page)
    actions = page.locator("#actions button.action").count()
    assert actions >= 100
    for list_id in ("actions", "log"):
        fits = page.evaluate("""([id, n]) => {
            const list = document.getElementById(id), style = getComputedStyle(list);
            const pen = document.createElement("canvas").getContext("2d");
            pen.font = `${style.fontSize} ${style.fontFamily}`;
            return pen.measureText(`${n}. `).width <= parseFloat(style.paddingLeft);
        }""", [list_id, 9999 if list_id == "log" else actions])
        assert fits, list_id


@pytest.fixture(scope="module")
def long_names_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of liars-dice whose roles have long names (so its zones do: 'cup of Firstcomer_at_table'); its address."""
    folder = tmp_path_factory.mktemp("long-names") / "liars-dice"
    folder.mkdir()
    source = (Path(__file__).resolve().parent.parent / "rulesets" / "liars-dice" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "position: [First, Second]" in source
    (folder / "ruleset.yaml").write_text(source.replace("position: [First, Second]",
                                                        "position: [Firstcomer_at_table, Secondcomer_at_table]"))
    yield from serving(str(folder))


def test_a_zones_long_name_stays_in_its_box(page: Page, long_names_server: str) -> None:
    """A game without a board drew a box per zone with its name cut at 22 characters, but the box holds some 19 at
    that size: 'cup of Firstcomer_at_table' ran over both sides of its box.  A long name is written whole, inside
    its zone's section, on a phone too."""
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(f"{long_names_server}/play/liars-dice?players=2&seed=1")
    settle(page)
    sections = page.locator("#view .zone")
    assert sections.count() >= 3
    for i in range(sections.count()):
        box, name = sections.nth(i).bounding_box(), sections.nth(i).locator("h3").bounding_box()
        assert box is not None and name is not None
        assert box["x"] <= name["x"] and name["x"] + name["width"] <= box["x"] + box["width"], sections.nth(i).text_content()
        assert sections.nth(i).locator("h3").inner_text().startswith(sections.nth(i).get_attribute("data-zone"))  # whole


def test_on_a_phone_the_zones_of_a_game_without_a_board_wrap_to_its_width(browser: BrowserContext,
                                                                           examples_server: str) -> None:
    """A game without a board drew its zones as an SVG of four boxes a row, 640 pixels wide: on a phone the last
    boxes of each row were cut off (skirmish's), reached only by scrolling the drawing sideways.  They now wrap, and
    the table comes first, above the actions, as a board does."""
    page = browser.new_page()
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(f"{examples_server}/play/skirmish?players=2&seed=3")
    settle(page)
    sections = page.locator("#view .zones.table .zone")
    assert sections.count() >= 5
    table = page.locator("#view .zones.table").bounding_box()
    actions = page.locator("#actions").bounding_box()
    assert table is not None and actions is not None and table["x"] + table["width"] <= 375
    assert table["y"] + table["height"] <= actions["y"]
    for i in range(sections.count()):
        box = sections.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= table["x"] + table["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.close()


def test_on_a_phone_a_long_board_scrolls_rather_than_shrinking_past_reading(browser: BrowserContext, examples_server: str) -> None:
    """A board wider than a phone was shrunk to its width whatever its length: home-run's track of 16 cells came
    down to 21-pixel cells, its pieces' letters some 6 pixels high, too small to read or tap.  It now shrinks to three
    quarters at most and scrolls sideways beyond that, the page itself not."""
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{examples_server}/play/home-run?players=2&seed=1")
    settle(page)
    scale = page.locator("#view svg.board").evaluate("(svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
    assert scale >= 0.74
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


def test_the_balance_charts_long_labels_stay_on_the_chart(page: Page, server: str) -> None:
    """The win-rate chart wrote each seat's label to the left of a fixed 140-unit column: a searching bot named with
    its settings ('seat 1 (mcts:5:c=2:depth=3)') began off the chart's left edge, cut."""
    page.goto(f"{server}/simulate/tic-tac-toe?players=2&n=2&agents=mcts:5:c=2:depth=3,greedy:depth=2")
    chart = page.locator("svg.chart").first
    box = chart.bounding_box()
    assert box is not None
    labels = chart.locator("text")
    assert "seat 1 (mcts:5:c=2:depth=3)" in labels.all_text_contents()
    for i in range(labels.count()):
        text = labels.nth(i).bounding_box()
        assert text is not None and text["x"] >= box["x"] and text["x"] + text["width"] <= box["x"] + box["width"], \
            labels.nth(i).text_content()


@pytest.fixture(scope="module")
def close_points_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of docs/examples/frontiers with its lands Ash and Birch renamed Ashenglade and Birchwoods, Birch moved
    next to Ash (one unit apart, where the map had two); its address."""
    folder = tmp_path_factory.mktemp("close-points") / "frontiers"
    folder.mkdir()
    source = (Path(__file__).resolve().parent.parent / "docs" / "examples" / "frontiers" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "Birch: [2, 0]" in source
    (folder / "ruleset.yaml").write_text(source.replace("Birch: [2, 0]", "Birch: [1, 0]").replace("Birch", "Birchwoods")
                                         .replace("Ash", "Ashenglade"))
    yield from serving(str(folder))


def test_the_names_of_two_points_side_by_side_do_not_overlap(page: Page, close_points_server: str) -> None:
    """A point's name was written at one size whatever room its neighbours left: two points one unit apart,
    'Ashenglade' and 'Birchwoods', wrote their names into each other.  A name is now written smaller when the next
    point is close."""
    page.goto(f"{close_points_server}/play/frontiers?players=2&seed=1")
    settle(page)
    names = {text.text_content(): text.bounding_box() for text in page.locator("#view .point-name").all()}
    ash, birch = names["Ashenglade"], names["Birchwoods"]
    assert ash is not None and birch is not None
    assert ash["x"] + ash["width"] <= birch["x"], (ash, birch)


ROADS = """\
name: roads
title: Roads
version: 1
description: Players take turns to claim a road between two towns; the most roads wins.
players: [2]
board:
  kind: points
  points: {Ash: [0, 0], Bray: [2, 0], Corran: [1, 2]}
  links: [[Ash, Bray, Corran, Ash]]
components:
  road:
    attributes: {a: cell, b: cell}
    instances:
      - {id: Ash-Bray, a: Ash, b: Bray}
      - {id: Bray-Corran, a: Bray, b: Corran}
      - {id: Ash-Corran, a: Ash, b: Corran}
zones:
  open: {kind: pile}
  claimed: {kind: pile, per: role}
setup: move(r in roads, open)
turn:
  - do:
      effect: move(choose(r in open, text = "claim a road"), claimed(current_role))
end:
  when: count(open) == 0
scoring:
  rank: r in roles
  by: [count(claimed(r))]
  points: key
"""
"""Roads between three towns, each a component naming its two towns: a choice of roads lights both towns of each."""


@pytest.fixture(scope="module")
def roads_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of ROADS; its address."""
    folder = tmp_path_factory.mktemp("roads") / "roads"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(ROADS, encoding="utf-8")
    yield from serving(str(folder))


def test_a_click_on_a_point_named_in_several_actions_lists_them(page: Page, roads_server: str) -> None:
    """A click on the town Bray, lit for 'choose Ash-Bray' and 'choose Bray-Corran', put '2,0' in the filter, which
    lists the actions whose text names the cell 2,0: none, an empty list under a lit town.  A click lists the actions
    it lit, the filter saying where, and typing there filters by text again."""
    page.goto(f"{roads_server}/play/roads?players=2&seed=1")
    settle(page)
    page.locator("#view .cell[data-cell='2,0']").click()
    listed = [a.inner_text() for a in page.locator("#actions button.action").all()]
    assert listed == ["choose Ash-Bray", "choose Bray-Corran"], listed
    assert page.locator("#filter").input_value() == "Bray (2,0)"
    page.locator("#filter").press("End")
    page.locator("#filter").press("Backspace")  # typed: a filter by text again, 'Bray (2,0' naming no action
    assert page.locator("#actions button.action").count() == 0
    page.fill("#filter", "Corran")
    assert page.locator("#actions button.action").count() == 2
    page.locator("#view .cell[data-cell='2,0']").click()
    page.locator("#actions button.action", has_text="Bray-Corran").click()
    settle(page)
    assert "seat 1: choose Bray-Corran" in page.locator("#log").inner_text()
    assert page.locator("#filter").input_value() == ""


def focused(page: Page) -> str:
    """What has the keyboard's focus: ``#id``, ``cell x,y``, or the tag's name (``BODY``)."""
    return page.evaluate("(() => { const a = document.activeElement;"
                         " return a.id ? '#' + a.id : a.dataset && a.dataset.cell ? 'cell ' + a.dataset.cell : a.tagName; })()")


def test_a_game_against_a_bot_is_played_from_the_keyboard_alone(page: Page, server: str) -> None:
    """The board's cells took no focus, so Tab never reached them; and after a move the focus fell to the page's start
    (the filter is hidden and the list drawn anew while the bot replies): every move began with a walk through the
    links.  A playable cell is reached with Tab and played with Enter, and after the bot's reply the focus is back
    where the move was made (the filter, when the cell is taken)."""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=3")
    settle(page)
    for _ in range(30):
        page.keyboard.press("Tab")
        if focused(page).startswith("cell "):
            break
    cell = focused(page)
    assert cell.startswith("cell "), cell
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#log > li').length === 2 && document.body.dataset.busy === 'false'")
    assert f"seat 1: place X at {cell[5:]}" in page.locator("#log").inner_text()
    assert focused(page) == "#filter"
    free = page.locator("#actions button.action").first.inner_text().rsplit(" ", 1)[1]
    page.keyboard.type(free)
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#log > li').length === 4 && document.body.dataset.busy === 'false'")
    assert focused(page) == "#filter"
    page.keyboard.press("Tab")  # the first action listed, played with Enter
    assert page.evaluate("document.activeElement.className") == "action"
    page.keyboard.press("Enter")
    page.wait_for_function("(document.querySelectorAll('#log > li').length === 6 || document.body.dataset.over === 'true')"
                           " && document.body.dataset.busy === 'false'")
    assert focused(page) == "#filter" or page.evaluate("document.body.dataset.over") == "true"


def test_on_a_phone_the_links_to_the_seats_do_not_widen_the_page(browser: BrowserContext, server: str) -> None:
    """A table of two humans shows the way back to both seats, one long word ('...?back=...&back=...'): on a phone it
    ran past the screen's edge and the whole page scrolled sideways, the board and the actions with it."""
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=7&seat=2=human")
    settle(page)
    assert page.locator("#way-back a").inner_text().count("back=") == 2
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.close()


def test_the_actions_after_a_move_are_listed_from_their_top(page: Page, server: str) -> None:
    """The actions list scrolls in its box: after a move picked far down it, the next turn's list stayed scrolled
    there (two humans at one screen: the list is never empty between them), its first actions out of sight.  A new
    list starts at its top."""
    page.goto(f"{server}/play/iconoclasm?players=2&seed=7&seat=2=human")
    settle(page)
    listed = page.locator("#actions")
    assert listed.evaluate("box => box.scrollHeight > box.clientHeight")  # enough actions to scroll
    page.locator("#actions button.action").last.click()  # scrolled into view to be clicked
    page.wait_for_function("document.querySelectorAll('#log > li').length === 1 && document.body.dataset.busy === 'false'")
    assert listed.evaluate("box => box.scrollHeight > box.clientHeight")
    assert listed.evaluate("box => box.scrollTop") == 0


def test_on_a_phone_whose_turn_it_is_comes_right_after_the_board(browser: BrowserContext, server: str) -> None:
    """A phone put the situation and the actions below the whole table (every zone, the counters, the legend): whose
    turn it was, and what to decide, was a long way down from the board.  They come right after the board now, the
    zones after them, the log last."""
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/play/iconoclasm-cards?players=2&seed=7")
    settle(page)
    top = {name: page.locator(name).first.bounding_box()["y"]  # type: ignore[index]
           for name in ("#view svg.board", "#situation", "#actions", "#view .zone", "#view .legend", "#log")}
    assert top["#view svg.board"] < top["#situation"] < top["#actions"] < top["#view .zone"] < top["#view .legend"] < top["#log"], top
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.close()


def test_a_tiles_turn_is_drawn_in_the_list_and_on_its_cell(page: Page, examples_server: str) -> None:
    """'place FTFW as 1 at -1,0' told a tile's turn as a number alone.  Each such action shows the tile as it would
    lie, and pointing at it draws the tile on its cell; pointing away takes it off."""
    page.goto(f"{examples_server}/play/meadows?players=2&seed=5")
    settle(page)
    actions = page.locator("#actions button.action")
    assert actions.count() >= 2 and actions.locator("svg.tile-glyph").count() == actions.count()
    actions.nth(1).hover()
    cell = page.locator("#view svg.preview").evaluate("(glyph) => glyph.closest('.cell').dataset.cell")
    assert f" at {cell}" in actions.nth(1).inner_text()
    page.locator("h1").hover()
    assert page.locator("#view svg.preview").count() == 0


def test_enter_on_a_filter_naming_no_action_says_why_it_is_refused(page: Page, examples_server: str) -> None:
    """Enter in the filter played the action only when one was left: typed text naming none did nothing, where
    rulecraft play says why and suggests the nearest action.  The page now sends it and shows the reason; a number
    naming no action (#2) plays the list's action of that number, as rulecraft play does."""
    page.goto(f"{examples_server}/play/skirmish?players=2&seed=3")
    settle(page)
    page.locator("#filter").fill("chose N-foot-1")
    assert page.locator("#actions button.action").count() == 0
    page.locator("#filter").press("Enter")
    settle(page)
    assert "did you mean 'choose N-foot-1'?" in page.locator("#message").inner_text()
    page.locator("#filter").fill("")
    second = page.locator("#actions button.action").nth(1).inner_text()
    page.locator("#filter").fill("#2")  # a number no action holds: the list's second, as rulecraft play reads it
    page.locator("#filter").press("Enter")
    settle(page)
    assert page.locator("#log > li").first.inner_text().startswith(f"seat 1: {second}")


def test_a_road_is_clicked_on_its_link_and_drawn_there_once_claimed(page: Page, roads_server: str) -> None:
    """A road (a component naming its two towns) was played from its chip or its towns only, and once claimed the map
    showed nothing of it: every link looked alike. The road is now lit on its link, played by a click there, and
    drawn along it in its owner's colour, the seat's number at its middle."""
    page.goto(f"{roads_server}/play/roads?players=2&seed=1")
    settle(page)
    lit = page.locator("#view svg .edge.playable")
    assert sorted(lit.evaluate_all("(es) => es.map((e) => e.dataset.name)")) == ["Ash-Bray", "Ash-Corran", "Bray-Corran"]
    lit.filter(has=page.locator("title", has_text="Ash-Bray in")).click()
    settle(page)
    assert page.locator("#log > li").first.inner_text().splitlines()[0] == "seat 1: choose Ash-Bray"
    claimed = page.locator("#view svg .edge.claimed")
    assert claimed.count() == page.locator("#log > li").count()  # seat 1's road, and the bot's replies
    mine = page.locator("#view svg .edge.claimed[data-name='Ash-Bray']")
    zone = mine.get_attribute("data-zone")
    assert zone is not None and zone.startswith("claimed of ")
    assert mine.locator("title").text_content() == f"Ash-Bray in {zone}"
    assert mine.locator("text.edge-mark").text_content() == "1"


def test_a_lit_route_is_played_from_the_keyboard(page: Page, examples_server: str) -> None:
    """A route lit on its link takes the focus (Tab) and is played with Enter, as a cell is."""
    page.goto(f"{examples_server}/play/routes?players=2&seed=3")
    settle(page)
    page.locator("#actions button.action", has_text="claim a route").click()
    settle(page)
    lit = page.locator("#view svg .edge.playable")
    assert lit.count() == 2 and lit.first.get_attribute("tabindex") == "0"
    name = lit.first.get_attribute("data-name")
    lit.first.focus()
    page.keyboard.press("Enter")
    settle(page)
    assert f"seat 1: choose {name}" in page.locator("#log").inner_text()
    assert page.locator(f"#view svg .edge.claimed[data-name='{name}']").count() == 1


def test_a_long_track_fits_a_laptops_window_shrunk_but_legible(page: Page, examples_server: str) -> None:
    """Backgammon's track of 24 points scrolled sideways in its box in a window 1280 pixels wide, its last points out
    of sight: a board shrank to three quarters of its size at most. A board wider than a laptop's column beside the
    actions now shrinks to it, down to 60% of its size, where a checker's letter still reads."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{examples_server}/play/tables?players=2&seed=3")
    settle(page)
    wrap = page.locator("#view .board-wrap")
    assert wrap.evaluate("(w) => w.scrollWidth <= w.clientWidth"), "the track scrolls in its box"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    scale = page.locator("#view svg.board").evaluate("(svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
    assert 0.6 <= scale < 0.75, scale
    label = page.locator("#view svg.board .piece text.label").first
    assert label.evaluate("(t) => t.getBoundingClientRect().height") >= 8  # legible: at least 8 pixels


def test_a_land_held_shows_when_it_is_lit(page: Page, examples_server: str) -> None:
    """A land held is drawn as a disc in its holder's colour over its point, which showed the point lit for an action
    (yellow) and outlined for the last move: covered, a lit land looked like any other. The disc takes those states."""
    page.goto(f"{examples_server}/play/frontiers?players=2&seed=4")
    settle(page)
    lit = page.locator("#view .cell.playable .held-disc")
    unlit = page.locator("#view .cell:not(.playable) .held-disc")
    assert lit.count() == page.locator("#actions button.action").count() == 5 and unlit.count() == 4
    stroke = "(disc) => getComputedStyle(disc).stroke"
    assert {lit.nth(i).evaluate(stroke) for i in range(5)} == {"rgb(240, 180, 0)"}
    assert "rgb(240, 180, 0)" not in {unlit.nth(i).evaluate(stroke) for i in range(4)}


def test_a_screen_reader_hears_what_stands_on_a_cell_and_whose_turn_it_is(page: Page, examples_server: str) -> None:
    """A playable square was a button named by the square alone ('e2'), whatever stood there; every chip was a Tab
    stop, so the keyboard went through the supply's chips, which play nothing, on its way from the board to the
    actions; and the line saying whose turn it is changed silently. Now a playable cell is named by what lies there,
    a chip that plays nothing is passed by, and the situation is a polite live region."""
    page.goto(f"{examples_server}/play/chess?players=2&seed=1")
    settle(page)
    assert page.get_by_role("button", name="P at e2", exact=True).count() == 1
    assert page.locator("#situation").get_attribute("aria-live") == "polite"
    idle = page.locator("#view .chip:not(.playable)")
    assert idle.count() > 0 and set(idle.evaluate_all("chips => chips.map((c) => c.tabIndex)")) == {-1}
    page.locator('#view .cell[data-cell="6,0"]').focus()  # the last playable square, the knight at g1
    page.keyboard.press("Tab")
    assert focused(page) == "#filter"
    page.locator('#view .cell[data-cell="4,1"]').focus()
    page.keyboard.press("Enter")  # the pawn at e2: chosen, then its square to go to, from the keyboard too
    page.wait_for_function("document.querySelectorAll('#log > li').length === 1 && document.body.dataset.busy === 'false'")
    target = page.get_by_role("button", name="e4", exact=True)
    assert target.count() == 1  # an empty square is named by its name
    target.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#log > li').length === 4 && document.body.dataset.busy === 'false'"
                           " && document.getElementById('situation').innerText.includes('seat 1 (White) to play')")
    assert focused(page) == "cell 4,3"  # back where the move was made, now named by the pawn standing there
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "P at e4"


def test_a_game_ended_from_the_keyboard_leaves_the_focus_on_who_won(page: Page, server: str) -> None:
    """The move that ended a game played from the keyboard left the focus nowhere (the filter and the actions hidden):
    it fell to the page's start. It goes to the situation, which says who won."""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=3&seat=2=human")
    settle(page)
    for cell in ("0,0", "1,0", "0,1", "1,1", "0,2"):  # X takes the first column
        page.locator("#filter").fill(f"{cell}")
        page.locator("#filter").press("Enter")
        settle(page)
    assert page.evaluate("document.body.dataset.over") == "true"
    assert focused(page) == "#situation" and "game over" in page.locator("#situation").inner_text()


def test_a_table_drawn_again_keeps_the_keyboards_place(page: Page, server: str) -> None:
    """A table drawn again while the keyboard was on a cell or an action (the bot's reply drawn by its call and again
    by the table's events; the other player's move at a table of two humans) dropped the focus to the page's start:
    the next move began with a walk through the links. The focus stays on the cell, or the action, drawn anew."""
    page.goto(f"{server}/play/tic-tac-toe?players=2&seed=3&seat=2=human")
    settle(page)
    page.locator('#view .cell[data-cell="1,1"]').focus()
    page.evaluate("draw(view)")
    assert focused(page) == "cell 1,1"
    page.locator("#actions button.action").nth(2).focus()
    text = page.evaluate("document.activeElement.textContent")
    page.evaluate("draw(view)")
    assert page.evaluate("document.activeElement.textContent") == text
