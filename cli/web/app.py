"""The web application: pages and a small JSON API over the engine's public API (Starlette).

Pages::

    GET  /                                 the rulesets, a settings form, opening a game file
    GET  /play/RULESET?players=2&seed=7    a new game (seat 1 human; &seat=2=greedy, &variant=, &set=NAME=VALUE)
    GET  /watch/RULESET?agents=random,greedy  bots playing each other
    GET  /table/ID                         a game's page (?seat=N: seen by seat N)
    GET  /table/ID?seat=N&key=K            an invitation link: a page whose button (POST) takes seat N
    GET  /table/ID?back=B&back=C           a browser's way back: it holds its seats again (lost cookies)
    GET  /rules/RULESET                    the rules in English (rulecraft explain)
    GET  /simulate/RULESET?n=100           a simulation report with charts (rotate=1: the bots turned round the seats)

At a played table each human seat has a key (:func:`cli.web.tables.new_keys`), held as a cookie by the
browser that opened the table or took the seat with its invitation link: a request naming a seat it holds
no key for is refused (403); naming none, it follows the seats it holds, or is shown what every seat sees.

API (JSON; a refusal is ``{"error": "..."}`` with status 400, 403, 404 or 503)::

    GET  /api/tables/ID?seat=N             the view of a table
    POST /api/tables/ID/act                {"action": "place A at 0,0"} ({"version": N}: refused if the table
                                           changed since the page drew version N)
    POST /api/tables/ID/advance            the bot to move plays one move ({"version": N}: unless the table
                                           changed since the page drew version N)
    POST /api/tables/ID/undo               take back the last human move (watching: the last move); {"version": N}:
                                           refused if the table changed since the page drew version N
    POST /api/tables/ID/goto               {"position": 12} (replays)
    GET  /api/tables/ID/save?seat=N        the game as a save file (the command line's format); refused to one
                                           seat's page while another human's hidden information would be in it
    GET  /api/tables/ID/events?seat=N      server-sent events: the view again whenever the table changes
    POST /api/open?mode=play|replay        body: a save or replay file -> {"url": "/table/ID"}

Every request that loads or runs a ruleset runs in a worker thread under a
wall-clock cap (``cap`` seconds): past it the request is answered with an
error, whatever the work would have changed is dropped, and the server goes
on serving.  Only the catalog's rulesets are ever loaded.

Typical use (a test)::

    client = starlette.testclient.TestClient(create_app(None))
    client.get("/play/my-game?players=2&seed=7")     # -> 303 to /table/t1
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Iterable, TypeVar
from urllib.parse import quote

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cli.explain import explain
from cli.render import run_changes
from cli.web import pages, params, view
from cli.web.catalog import Catalog, UnknownRuleset
from cli.web.charts import report_html
from cli.web.params import BadRequest
from cli.web.slots import Held, Slots
from cli.web.stopping import StoppingExecutor
from cli.piles import laid_on_top, played_from
from cli.web.tables import ServerFull, Table, TableError, Tables
from engine.core.errors import RulecraftError, RulesetError, told_to_seats
from engine.core.information import has_hidden_information
from engine.core.showtext import json_safe, players as players_text
from engine.runner.replay import MAX_BYTES
from engine.runner.simulate import seat_specs, simulate

if TYPE_CHECKING:
    from os import PathLike

    from engine import Game

T = TypeVar("T")

STATIC = Path(__file__).parent / "static"

DEFAULT_CAP = 20.0
"""Seconds a request may spend loading or running a ruleset before it is refused."""

MAX_CAP = 86_400.0
"""The longest cap, a day: a request's lock is waited for that long at most (a longer wait is no number a lock takes)."""

MOVES_SHOWN = 300
"""The most recent moves a view carries for the log."""

MAX_REQUEST = 64 * 1024
"""The most bytes read of a move's request body."""

EVENT_POLL = 0.2
"""Seconds between two looks at a followed table."""


class SafeJSONResponse(JSONResponse):
    """A JSON answer whose text is always UTF-8: a lone surrogate quoted from a request (``{"action": "\\ud800"}``
    refused by name) and control characters are written as ``\\u`` escapes (``json_safe``), still valid JSON."""

    def render(self, content: Any) -> bytes:
        return json_safe(json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))).encode("utf-8")


class Refused(Exception):
    """A request answered with an error: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


SIMULATIONS = 2
"""Simulations the page may run at once; one more is refused at once (503).  Forty-five asked together each ran to
the cap, and every other request (a move, a new game) waited for them: 30 s for a new table, 0.04 s otherwise."""


BOTS_THINKING = 4
"""Bots' moves the server runs at once; a page asking for one more waits for a place (without holding a thread), up to
the cap.  Without it forty watched tables of search bots each took a thread for 5 seconds a move, sharing the CPU
forty ways, and a human's move, or a page's view, waited for a thread among them."""


class Server:
    """The state of one server: its rulesets, its tables and its time cap."""

    def __init__(self, catalog: Catalog, cap: float = DEFAULT_CAP) -> None:
        if not 0 < cap <= MAX_CAP:  # not a number (nan) too: every request failed, its lock waited for with it
            raise ValueError(f"the cap is {cap} seconds: it is a number of seconds above 0, at most {MAX_CAP:,.0f} (a day)")
        self.catalog = catalog
        self.cap = cap
        self.tables = Tables()
        self.stopping: Callable[[], bool] = lambda: False  # true once the server is told to stop (Ctrl-C)
        self.name = secrets.token_hex(3)  # in its cookies' names: two servers on one host share the browser's cookies
        self.simulating = threading.BoundedSemaphore(SIMULATIONS)  # the simulations running (see SIMULATIONS)
        self.thinking = Slots(BOTS_THINKING)  # the bots' moves running (see BOTS_THINKING)

    def cookie(self, table: Table, seat: int) -> str:
        """The name of the cookie holding the key of ``table``'s ``seat`` (``rc-1a2b3c-t1-seat2``)."""
        return f"rc-{self.name}-{table.id}-seat{seat}"

    def held(self, request: Request, table: Table) -> frozenset[int]:
        """The human seats of ``table`` whose key ``request`` carries."""
        return table.seats_held(lambda seat: request.cookies.get(self.cookie(table, seat)))

    def give_keys(self, response: Response, table: Table, seats: Iterable[int]) -> Response:
        """``response``, setting the cookies that hold ``seats``' keys (read by the server only, never sent by
        another site's form)."""
        for seat in seats:
            response.set_cookie(self.cookie(table, seat), table.keys[seat], httponly=True, samesite="lax")
        return response

    async def capped(self, work: Callable[[Callable[[], bool]], T], slots: Slots | None = None) -> T:
        """Run ``work(expired)`` in a thread; past the cap, refuse the request (``expired()`` turns true for the work).
        With ``slots``, first wait for a place there (see :data:`BOTS_THINKING`), held until the work ends."""
        over, started = threading.Event(), threading.Event()
        held: Held | None = None

        def run() -> T:
            started.set()
            try:
                return work(over.is_set)
            finally:
                if held is not None:
                    held.let_go()

        try:
            try:
                with anyio.fail_after(self.cap):
                    while slots is not None and held is None:
                        if slots.take():
                            held = Held(slots)
                        else:
                            await anyio.sleep(0.05)
                    return await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
            finally:
                if held is not None and not started.is_set():  # refused or gone before its work began: its place back
                    held.let_go()
        except TimeoutError:
            over.set()
            if slots is not None and held is None:
                raise Refused(503, f"this server's bots were all thinking ({slots.total} moves at once) for "
                                   f"{self.cap:g} seconds: nothing was changed; try again in a moment") from None
            raise Refused(503, f"this took longer than {self.cap:g} seconds and was stopped "
                               "(nothing was changed); try smaller settings or a faster bot") from None

    def locked(self, table: Table, work: Callable[[], T]) -> T:
        """``work()`` holding the table's lock (refused if an earlier request still holds it past the cap)."""
        if not table.lock.acquire(timeout=self.cap):
            raise TableError("this game is still busy with an earlier request")
        try:
            return work()
        finally:
            table.lock.release()

    # ------------------------------------------------------------ making tables

    def game_from(self, request: Request, ruleset: str) -> Game:
        raw = request.url.query  # a '+' typed in the address is itself (variant=a+b, set=name=a+b), not a space
        return self.catalog.load(ruleset, params.variants_of(params.plus_kept(raw, "variant")),
                                 params.options_of(params.plus_kept(raw, "set")))

    def new_table(self, request: Request, ruleset: str, all_bots: bool, expired: Callable[[], bool] = lambda: False) -> Table:
        query = request.query_params
        game = self.game_from(request, ruleset)
        players = params.integer(params.single(query, "players"), "players", low=1, high=64)
        if players is None:
            players = game.default_players
        if players not in game.player_counts:
            raise BadRequest(f"{game.name} is played by {players_text(game.player_counts)}, not {players}")
        seed = params.integer(params.single(query, "seed"), "seed", low=0, high=2**63 - 1)
        seed = secrets.randbits(63) if seed is None else seed  # too many to try them all against one's own hand
        wanted = query.getlist("agents") if all_bots else query.getlist("seat")
        bots = params.seats_of(wanted, players, all_bots)
        table = Table.new(self.tables.next_id(), ruleset, game, players, seed, bots, self.catalog.ref(ruleset))
        return self._add(table, expired)

    def open_file(self, body: bytes, mode: str, expired: Callable[[], bool] = lambda: False) -> Table:
        log = params.game_file(body, "the game file")
        try:
            name = self.catalog.name_of_ref(log.ruleset)
        except UnknownRuleset as err:
            raise BadRequest(str(err)) from None
        game = self.catalog.load(name, tuple(log.variant), log.set_options)
        why = log.changed(game)
        if why is not None:
            raise BadRequest(f"{why}; replay it with 'rulecraft replay --force' to find the first action that diverges")
        return self._add(Table.from_replay(self.tables.next_id(), name, game, log, mode, expired), expired)

    def _add(self, table: Table, expired: Callable[[], bool]) -> Table:
        """Keep ``table``, unless its request was already refused as too long: it was told nothing changed."""
        if expired():
            raise Refused(503, "the request was stopped before its game was ready")
        return self.tables.add(table)

    # ------------------------------------------------------------ views

    def view(self, table: Table, seat: int | None, held: frozenset[int]) -> dict[str, Any]:
        """What the page shows of ``table`` to ``seat`` (by default: the seat to move among those the page may see,
        else the first of them; none: what every seat sees), for a request holding the keys of the seats ``held``."""
        state = table.state
        players = table.log.players
        check_access(table, seat, held)
        unsaved = table.unsaved_for(playing(table, seat, held))
        undo_refused = table.undo_refused(playing(table, seat, held))  # as the page's undo asks: the seat it names, if any
        whole = held >= table.keys.keys()
        seats = list(range(1, players + 1)) if whole else sorted(held)
        links = invites(table, seat, held)
        everyone = seat is None and not table.keys  # bots only (watched, replayed): nothing is secret, every zone shown
        if seat is None and not everyone:
            followed = [s for s in seats if s not in table.bots]
            mover = state.seat_to_move
            seat = mover if mover in followed else (followed[0] if followed else seats[0] if seats else None)
        mover = None if state.is_terminal else state.seat_to_move
        moves = table.moves[:table.position] if table.mode == "replay" else table.moves
        game = state.game
        seed = f"seed {table.log.seed}" if unsaved is None else ""  # shown only where a save (holding it) is given
        data: dict[str, Any] = {
            "id": table.id, "version": table.version, "mode": table.mode, "ruleset": table.ruleset, "seat": seat, "players": players,
            "subtitle": ", ".join(part for part in (run_changes(list(game.variants), game.set_options).strip(" ()"),
                                                    f"{players} player{'s' * (players != 1)}", seed) if part),
            "bots": {str(s): spec for s, spec in table.bots.items()},
            "to_move": mover, "bot_to_move": mover in table.bots, "over": state.is_terminal,
            "situation": view.situation(state, seat, frozenset(table.bots), everything=everyone),
            "html": view.table_html(state, seat, own=seat not in table.bots, everything=everyone, on_top=laid_on_top(m.grew for m in moves),
                                  came_from=played_from(m.arrived for m in moves)),
            "actions": view.actions(state, seat) if table.mode != "replay" and mover not in table.bots else [],
            "typed_cell": game.cell_names.typed_cell,  # a filter that is one cell as a whole (see CellNames.lists)
            "moves": [m.to_json(None if table.mode == "replay" or everyone else seat or 0) for m in moves[-MOVES_SHOWN:]],
            "opening": table.opening if len(moves) <= MOVES_SHOWN else [],  # the start's log, while its moves are shown
            "opening_turns": table.opening_turns if len(moves) <= MOVES_SHOWN else [],  # where its turns begin in it
            "unsaved": unsaved,  # why this page may not save the game now (None: it may)
            "undo_refused": undo_refused,  # why this page may not take back a move now (None: it may try)
            "seats": seats,  # the seats this page may be shown (none: it is shown what every seat sees)
            "seat_names": seat_names(table, seats, has_hidden_information(game)),  # each as "seen by" offers it
            "everyone": not table.keys,  # no human seat: "seat": null shows every zone, not only what every seat sees
            "invites": links,  # seat -> the address that hands it to another browser
            "way_back": way_back(table, held),  # the address giving the seats this browser holds back to it
        }
        data["last_cells"] = view.last_cells(state, moves[-1], data["moves"][-1]["text"], None if everyone else seat) \
            if moves else []
        if table.mode == "replay":
            data.update(position=table.position, length=len(table.log.actions),
                        explanation=table.moves[table.position - 1].to_json(None) if table.position else None)
        return data


def create_app(source: str | PathLike[str] | None, cap: float = DEFAULT_CAP) -> Starlette:
    """The application serving ``source``'s rulesets (None: the built-in ones); see the module's docstring."""
    server = Server(Catalog(source), cap)

    def page_route(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except Exception as err:  # a page always answers in words, and the server goes on
                status, message = refusal(err)
                return HTMLResponse(pages.error_page(message, status), status_code=status)
        return guarded

    def api_route(handler: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            try:
                result = await handler(request)
            except Exception as err:
                status, message = refusal(err)
                return SafeJSONResponse({"error": message}, status_code=status)
            return result if isinstance(result, Response) else SafeJSONResponse(result)
        return guarded

    async def index(request: Request) -> Response:
        def work(expired: Callable[[], bool]) -> str:
            return pages.index_page(server.catalog.entries())

        return HTMLResponse(await server.capped(work))

    def start(all_bots: bool) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            ruleset = request.path_params["ruleset"]
            table = await server.capped(lambda expired: server.new_table(request, ruleset, all_bots, expired))
            return server.give_keys(RedirectResponse(f"/table/{table.id}", status_code=303), table, table.keys)
        return handler

    def seat_of(request: Request) -> int | None:
        return params.integer(params.single(request.query_params, "seat"), "seat", low=1, high=64)

    async def table_page(request: Request) -> Response:
        table = server.tables.get(request.path_params["id"])
        key = request.query_params.get("key")
        if key is not None:
            return await take_seat(request, table, key)
        back = request.query_params.getlist("back")
        if back:
            return await come_back(table, back)

        def work(expired: Callable[[], bool]) -> str:
            data = server.locked(table, lambda: server.view(table, seat_of(request), server.held(request, table)))
            return pages.table_page(data, explain(table.state.game), table.state.game, table.ruleset)

        return HTMLResponse(await server.capped(work))

    async def take_seat(request: Request, table: Table, key: str) -> Response:
        """An invitation link, ``/table/ID?seat=2&key=...``: a page asking to take the seat (a link's preview, fetched
        by a chat program, takes nothing), whose button posts to the same address: the seat's key, renewed, goes to
        this browser, and the browser that held it holds it no more."""
        seat = seat_of(request)
        if seat is None:
            raise BadRequest("an invitation link names its seat: /table/ID?seat=2&key=...")
        page = f"/table/{table.id}?seat={seat}"
        if seat in server.held(request, table):
            return RedirectResponse(page, status_code=303)
        if request.method == "GET":  # the table's lock is waited for in a worker thread, never on the server's loop
            await server.capped(lambda expired: server.locked(table, lambda: check_invitation(table, seat, key)))
            return HTMLResponse(pages.invitation_page(table.state.game, seat))

        def take(expired: Callable[[], bool]) -> None:
            check_invitation(table, seat, key)
            if not expired():  # a request refused already gives no browser the key: the seat stays where it was
                table.renew_key(seat)

        await server.capped(lambda expired: server.locked(table, lambda: take(expired)))
        return server.give_keys(RedirectResponse(page, status_code=303), table, [seat])

    async def come_back(table: Table, tokens: list[str]) -> Response:
        """A browser's way back, ``/table/ID?back=...&back=...``: its holder's own link (shown on its page to keep),
        giving this browser the keys of the seats it held again, for a browser that lost its cookies.  Nobody loses
        a seat, so opening it is enough; handing a seat to another browser with an invitation link ends its part."""
        seats = await server.capped(lambda expired: server.locked(table, lambda: table.seats_returned(tokens)))
        if not seats:
            raise Refused(403, "this way back is not valid any more (its seats were handed to other browsers "
                               "since, or the link is not this table's)")
        page = f"/table/{table.id}" + (f"?seat={seats[0]}" if len(seats) == 1 else "")
        return server.give_keys(RedirectResponse(page, status_code=303), table, seats)

    async def rules(request: Request) -> Response:
        def work(expired: Callable[[], bool]) -> str:
            game = server.game_from(request, request.path_params["ruleset"])
            return pages.rules_page(game, explain(game))

        return HTMLResponse(await server.capped(work))

    async def simulation(request: Request) -> Response:
        query = request.query_params

        def work(expired: Callable[[], bool]) -> str:
            game = server.game_from(request, request.path_params["ruleset"])
            players = params.integer(params.single(query, "players"), "players", low=1, high=64)
            players = players if players is not None else game.default_players
            if players not in game.player_counts:
                raise BadRequest(f"{game.name} is played by {players_text(game.player_counts)}, not {players}")
            n = params.integer(params.single(query, "n"), "games", default=100, low=1, high=params.MAX_SIMULATED)
            seed = params.integer(params.single(query, "seed"), "seed", default=0, low=0, high=2**63 - 1)
            agents = [params.bot_spec(a) for a in (query.get("agents") or "random").split(",") if a.strip()]
            try:
                specs = seat_specs(agents, players)
            except ValueError as err:
                raise BadRequest(str(err)) from None
            rotate = params.flag(params.single(query, "rotate"), "rotate")  # as simulate --rotate-seats
            if not server.simulating.acquire(blocking=False):
                raise Refused(503, f"this server runs at most {SIMULATIONS} simulations at once, and they are running: "
                                   "try again when one is done")
            try:  # held until the games stop, after the request is refused at the cap too: they run until then
                started = time.perf_counter()
                games = int(n or 1)
                report = simulate(game, players, games, int(seed or 0), specs,
                                  executor=StoppingExecutor(expired, games), rotate=rotate)
            finally:
                server.simulating.release()
            return report_html(report, seconds=time.perf_counter() - started)

        return HTMLResponse(await server.capped(work))

    async def table_view(request: Request) -> dict[str, Any]:
        table = server.tables.get(request.path_params["id"])
        return await server.capped(lambda expired: server.locked(
            table, lambda: server.view(table, seat_of(request), server.held(request, table))))

    async def events(request: Request) -> Response:
        table = server.tables.get(request.path_params["id"])
        seat = seat_of(request)
        check_access(table, seat, server.held(request, table))  # refused at once, not in the stream

        async def stream() -> AsyncIterator[str]:
            seen = -1
            while not server.stopping() and not await request.is_disconnected():  # a stopping server waits for its streams
                server.tables.touch(table.id)  # a page following its game asks for it, though nobody clicks
                if table.version != seen:
                    seen = table.version
                    try:
                        data = await server.capped(lambda expired: server.locked(  # the keys held now: a seat taken
                            table, lambda: server.view(table, seat, server.held(request, table))))  # is seen no more
                    except Exception as err:
                        data = {"error": refusal(err)[1]}
                    yield f"data: {json_safe(json.dumps(data, ensure_ascii=False))}\n\n"
                await anyio.sleep(EVENT_POLL)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"cache-control": "no-cache"})

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await limited_body(request, MAX_REQUEST + 1)  # one byte more: a body cut short is said to be too large
        if len(raw) > MAX_REQUEST:
            raise BadRequest(f"the request's body is larger than {MAX_REQUEST:,} bytes")
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            raise BadRequest("the request's body is not JSON") from None
        if not isinstance(data, dict):
            raise BadRequest("the request's body is not a JSON object")
        return data

    async def act(request: Request) -> dict[str, Any]:
        table = server.tables.get(request.path_params["id"])
        data = await body_of(request)
        text = data.get("action")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("say which action: {\"action\": \"...\"}")
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise BadRequest("say which seat moves by its number, {\"seat\": 1}, or leave it out for the seat to move")
        seen = version_in(data)
        typed = data.get("typed") is True  # typed in the page's filter, naming no action listed there

        held = server.held(request, table)

        def work(expired: Callable[[], bool]) -> dict[str, Any]:
            def move() -> dict[str, Any]:
                check_access(table, seat, held)  # before moving: a refused request changes nothing
                mover = seat if seat is not None else table.state.seat_to_move
                if mover in table.keys and mover not in held:
                    raise Refused(403, f"this request carries no key for seat {mover}, whose turn it is: "
                                       f"only the browser holding seat {mover} plays it")
                table.act(text.strip(), seat, seen, expired, typed)
                return server.view(table, seat, held)
            return server.locked(table, move)

        return await server.capped(work)

    async def advance(request: Request) -> dict[str, Any]:
        table = server.tables.get(request.path_params["id"])
        seat = seat_of(request)
        seen = version_in(await body_of(request))
        held = server.held(request, table)
        check_access(table, seat, held)  # a bot's move is no secret, but the seat's view is

        def work(expired: Callable[[], bool]) -> dict[str, Any]:
            return server.locked(table, lambda: (table.advance(expired, seen), server.view(table, seat, held))[1])

        return await server.capped(work, server.thinking)

    async def undo(request: Request) -> dict[str, Any]:
        table = server.tables.get(request.path_params["id"])
        seat = seat_of(request)
        seen = version_in(await body_of(request))
        held = server.held(request, table)
        check_access(table, seat, held)
        if table.mode == "play" and not playing(table, seat, held):
            raise Refused(403, "this request carries no seat's key: only a seat's browser takes back its move")

        def work(expired: Callable[[], bool]) -> dict[str, Any]:
            def back() -> dict[str, Any]:
                done = table.kept_unless(expired, lambda: table.undo(playing(table, seat, held), seen, expired))
                return {**server.view(table, seat, held), "note": done}
            return server.locked(table, back)

        return await server.capped(work)

    async def goto(request: Request) -> dict[str, Any]:
        table = server.tables.get(request.path_params["id"])
        data = await body_of(request)
        position = data.get("position")
        if not isinstance(position, int) or isinstance(position, bool):
            raise BadRequest("say which position: {\"position\": 12}")
        seat = seat_of(request)
        held = server.held(request, table)
        check_access(table, seat, held)

        def work(expired: Callable[[], bool]) -> dict[str, Any]:
            return server.locked(table, lambda: (table.kept_unless(expired, lambda: table.goto(position, expired)),
                                                 server.view(table, seat, held))[1])

        return await server.capped(work)

    async def save(request: Request) -> Response:
        table = server.tables.get(request.path_params["id"])
        seat = seat_of(request)
        held = server.held(request, table)
        check_access(table, seat, held)
        data = await server.capped(lambda expired: server.locked(table, lambda: table.save(playing(table, seat, held))))
        name = f"{table.ruleset}-seed{table.log.seed}.json"
        return Response(json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n", media_type="application/json",
                        headers={"content-disposition": attachment(name)})

    async def open_file(request: Request) -> Response:
        mode = request.query_params.get("mode", "replay")
        if mode not in ("play", "replay"):
            raise BadRequest(f"mode is play (continue the game) or replay, not '{mode[:40]}'")
        body = await limited_body(request, MAX_BYTES + 1)  # one byte more: game_file says when a file is too large
        table = await server.capped(lambda expired: server.open_file(body, mode, expired))
        return server.give_keys(SafeJSONResponse({"url": f"/table/{table.id}"}), table, table.keys)

    routes = [
        Route("/", page_route(index)),
        Route("/play/{ruleset}", page_route(start(False))),
        Route("/watch/{ruleset}", page_route(start(True))),
        Route("/table/{id}", page_route(table_page), methods=["GET", "POST"]),
        Route("/rules/{ruleset}", page_route(rules)),
        Route("/simulate/{ruleset}", page_route(simulation)),
        Route("/api/tables/{id}", api_route(table_view)),
        Route("/api/tables/{id}/act", api_route(act), methods=["POST"]),
        Route("/api/tables/{id}/advance", api_route(advance), methods=["POST"]),
        Route("/api/tables/{id}/undo", api_route(undo), methods=["POST"]),
        Route("/api/tables/{id}/goto", api_route(goto), methods=["POST"]),
        Route("/api/tables/{id}/save", api_route(save)),
        Route("/api/tables/{id}/events", api_route(events)),
        Route("/api/open", api_route(open_file), methods=["POST"]),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.server = server  # its tables and time cap, for whoever embeds the application (and the tests)
    return app


def attachment(name: str) -> str:
    """A ``content-disposition`` header saving a download as ``name``, whatever characters the name holds.

    A header is Latin-1 text: ``filename`` gets the name with anything but printable ASCII (and ``"``, ``\\``)
    as ``_``, and ``filename*`` the name itself, percent-encoded UTF-8, for the browsers that read it.

    >>> attachment("my-game-seed7.json")
    'attachment; filename="my-game-seed7.json"'
    >>> print(attachment('über"🎲-seed7.json'))
    attachment; filename="_ber__-seed7.json"; filename*=UTF-8''%C3%BCber%22%F0%9F%8E%B2-seed7.json
    """
    plain = "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in name)
    if plain == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def version_in(data: dict[str, Any]) -> int | None:
    """The version of the table the page drew, from a request's body (None when it names none).

    >>> version_in({"version": 12}), version_in({})
    (12, None)
    """
    seen = data.get("version")
    if seen is not None and (not isinstance(seen, int) or isinstance(seen, bool)):
        raise BadRequest("say which version of the table the page drew, {\"version\": 12}, or leave it out")
    return seen


def check_access(table: Table, seat: int | None, held: frozenset[int]) -> None:
    """Refuse (403) to show seat ``seat`` to a request that holds the keys of the seats ``held`` only.

    A browser holding every human seat (one screen shared, one human against bots, a watched or replayed game,
    which has none) may be shown any seat; another only the seats it holds (and, naming none, what every seat sees).
    """
    if seat is None:
        return
    check_seat(table, seat)
    if seat not in held and not held >= table.keys.keys():
        raise Refused(403, f"this request carries no key for seat {seat}: only the browser holding seat {seat} "
                           f"sees and plays it (the browser that opened the table, or the one that took seat {seat} "
                           "with its invitation link)")


def playing(table: Table, seat: int | None, held: frozenset[int]) -> frozenset[int]:
    """The human seats a page plays: the one it names, or, naming none (or a bot's seat), every seat it holds.

    >>> playing(Table("t1", "g", None, None, {}, keys={1: "k", 2: "l"}), 2, frozenset({1, 2}))
    frozenset({2})
    """
    return frozenset({seat}) if seat in table.keys else held


def seat_names(table: Table, seats: Iterable[int], hidden: bool) -> dict[str, str]:
    """How "seen by" offers each of ``seats``: ``seat 2``; a bot's seat at a table a human plays, while the game goes
    on, says it is the bot's and, where the game hides anything (``hidden``), that its secrets show: the browser
    holding every human seat may look (its save, holding the seed, tells them anyway), but ``seat 2`` read as the
    table leaking the bot's hand.

    >>> from types import SimpleNamespace
    >>> table = Table("t1", "g", None, SimpleNamespace(is_terminal=False), {2: "random"}, keys={1: "k"})
    >>> seat_names(table, [1, 2], hidden=True)
    {'1': 'seat 1', '2': "seat 2, the bot's: shows what it hides"}
    >>> seat_names(table, [1, 2], hidden=False)["2"]
    "seat 2, the bot's"
    """
    peeks = table.mode == "play" and not table.state.is_terminal
    told = ": shows what it hides" if hidden else ""
    return {str(s): f"seat {s}, the bot's{told}" if peeks and s in table.bots else f"seat {s}" for s in seats}


def invites(table: Table, seat: int | None, held: frozenset[int]) -> dict[str, str]:
    """The addresses handing the seats a browser holds, but the page's own (the one it names, else the first it
    holds), to another browser: ``{"2": "/table/t1?seat=2&key=..."}``."""
    own = seat if seat in held else min(held, default=None)
    return {str(s): f"/table/{table.id}?seat={s}&key={table.keys[s]}" for s in sorted(held) if s != own}


def way_back(table: Table, held: frozenset[int]) -> str | None:
    """The address that gives the seats a browser holds back to it once it lost its cookies (its holder's other
    browser, or the same one cleared): ``/table/t1?back=...&back=...``, a token per seat (None: it holds none)."""
    tokens = [table.returns[s] for s in sorted(held) if s in table.returns]
    return f"/table/{table.id}?" + "&".join(f"back={token}" for token in tokens) if tokens else None


def check_invitation(table: Table, seat: int, key: str) -> None:
    """Refuse (403) an invitation link whose key is not seat ``seat``'s now: used already, or never this table's."""
    if seat not in table.seats_held({seat: key}.get):
        raise Refused(403, f"this link to seat {seat} is not valid any more (it was used, or is not this table's): "
                           f"ask whoever holds seat {seat} for a new one")


def check_seat(table: Table, seat: int) -> None:
    """Refuse a seat the table does not have (BadRequest: ``there is no seat 3 with 2 players``)."""
    if not 1 <= seat <= table.log.players:
        raise BadRequest(f"there is no seat {seat} with {players_text(table.log.players)}")


async def limited_body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than ``limit`` bytes (the rest is never read)."""
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        parts.append(chunk)
        size += len(chunk)
        if size >= limit:
            break
    return b"".join(parts)[:limit]


def refusal(err: Exception) -> tuple[int, str]:
    """The status and the message a request gets for ``err``."""
    if isinstance(err, Refused):
        return err.status, str(err)
    if isinstance(err, UnknownRuleset):
        return 404, str(err)
    if isinstance(err, TableError) and str(err).startswith("there is no game"):
        return 404, str(err)
    if isinstance(err, ServerFull):
        return 503, str(err)
    if isinstance(err, RulesetError):
        return 400, err.format()
    if isinstance(err, (BadRequest, TableError, RulecraftError)):
        return 400, told_to_seats(err)  # a bot's search failing on a hidden card is told without it
    if isinstance(err, RecursionError):
        return 400, "the request nests too deeply"
    return 500, f"the server could not do this ({type(err).__name__}); the server goes on serving"
