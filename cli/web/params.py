"""Reading what a page asks for (query parameters, uploaded files) into checked values, or a clear refusal.

>>> seats_of(["2=greedy"], players=3, all_bots=False)
{2: 'greedy', 3: 'random'}
>>> seats_of(["random,greedy"], players=2, all_bots=True)
{1: 'random', 2: 'greedy'}
>>> bot_spec("mcts:100000")
Traceback (most recent call last):
cli.web.params.BadRequest: the page's bots search at most 5000 iterations or 5 seconds a move; 'mcts:100000' asks for more
>>> bot_spec("mcts:c=2:100000")
Traceback (most recent call last):
cli.web.params.BadRequest: the page's bots search at most 5000 iterations or 5 seconds a move; 'mcts:c=2:100000' asks for more
>>> bot_spec("mcts:200:depth=5000")
Traceback (most recent call last):
cli.web.params.BadRequest: the page's bots play rollouts of at most 1000 actions; 'mcts:200:depth=5000' asks for more
>>> bot_spec("policy:/etc/passwd")
Traceback (most recent call last):
cli.web.params.BadRequest: the page's bots read no file: 'policy:FILE' is for the command line (rulecraft play --seat 2=policy:FILE)
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

from cli.agent_files import is_agent_file
from engine.compiling.loading import parse_set_options, parse_variants
from engine.model.savefile import SaveError
from engine.runner.agents import GREEDY_WORK, ROLLOUT_CAP, GreedyAgent, SearchAgent, assign_seats, make_agent
from engine.runner.replay import EXPLICIT_CHANCE_LOG, MAX_BYTES, Replay

MAX_ITERATIONS = 5000
"""The most search iterations a bot on the page may make per move."""

MAX_SECONDS = 5.0
"""The longest a bot on the page may think per move."""

MAX_GREEDY_WORK = 10 * GREEDY_WORK
"""The most random actions the rollouts of a greedy bot on the page may play per move (``greedy:work=N``)."""

MAX_SIMULATED = 2000
"""The most games a simulation started from the page may play."""

FILE_AGENTS = frozenset({"policy"})
"""Agents whose spec names a file to read: a request may not make the server read a file it names."""



class BadRequest(ValueError):
    """What was wrong with a request, in words for the page."""


def single(query: Any, name: str) -> str | None:
    """The one value of query parameter ``name`` (None: not given); given twice, which one was meant is not guessed.

    >>> from starlette.datastructures import QueryParams
    >>> single(QueryParams("seat=2"), "seat"), single(QueryParams(""), "seat")
    ('2', None)
    >>> single(QueryParams("seat=1&seat=2"), "seat")
    Traceback (most recent call last):
    cli.web.params.BadRequest: seat is given 2 times (1, 2): give it once
    """
    values = query.getlist(name)
    if len(values) > 1:
        raise BadRequest(f"{name} is given {len(values)} times ({', '.join(v[:20] for v in values[:5])}): give it once")
    return values[0] if values else None


def integer(text: str | None, what: str, default: int | None = None, low: int | None = None, high: int | None = None) -> int | None:
    """``text`` as an integer between ``low`` and ``high`` (the digits 0-9); ``default`` when it is missing or empty.

    >>> integer(" 12 ", "seat"), integer("", "seat", default=1)
    (12, 1)
    """
    if text is None or not text.strip():
        return default
    text = text.strip()
    if not re.fullmatch(r"-?[0-9]+", text):
        raise BadRequest(f"{what} must be a whole number, not '{text[:40]}'")
    bounds = f"between {low} and {high}" if low is not None and high is not None else "at most 18 digits long"
    if len(text.lstrip("-")) > 18 or (low is not None and int(text) < low) or (high is not None and int(text) > high):
        raise BadRequest(f"{what} must be {bounds}, not {text[:40]}")  # no more than 18 digits are read
    return int(text)


YES, NO = ("1", "true", "on", "yes"), ("0", "false", "off", "no")
"""How a query writes a flag set (a checked box sends ``on``, or its value) and not set (or it is left out)."""


def flag(text: str | None, what: str) -> bool:
    """``text`` as a flag: set (``1``, ``true``, ``on``, ``yes``) or not (left out, empty, ``0``, ``false``, ``off``,
    ``no``), any case; anything else refused, naming ``what``.

    >>> flag("1", "rotate"), flag(None, "rotate"), flag("Off", "rotate")
    (True, False, False)
    >>> flag("maybe", "rotate")
    Traceback (most recent call last):
    cli.web.params.BadRequest: rotate must be 1 or 0 (true or false), not 'maybe'
    """
    word = (text or "").strip().lower()
    if word in YES or word in NO or not word:
        return word in YES
    raise BadRequest(f"{what} must be 1 or 0 (true or false), not {text[:40]!r}")


def variants_of(values: list[str]) -> tuple[str, ...]:
    """Variant names from ``variant=a+b`` (or ``a,b``) or repeated ``variant=`` parameters, read as the command
    line's ``--variant``: RulesetError for a name left empty or given twice.

    >>> variants_of(["a+b", "c"]), variants_of([""])
    (('a', 'b', 'c'), ())
    >>> variants_of(["a,a"])
    Traceback (most recent call last):
    engine.core.errors.RulesetError: variant 'a' is given twice: give it once
    """
    return tuple(parse_variants([value.replace(",", "+") for value in values]))


def plus_kept(query: str, name: str) -> list[str]:
    """The values of ``name`` in the raw query string ``query``, a '+' read as itself: a '+' typed in an address
    (``variant=a+b``, ``set=name=a+b``) would otherwise arrive as a space, while the page's own forms send it as
    ``%2B`` (and a space as ``%20``).

    >>> plus_kept("variant=a+b&variant=c%2Bd&seed=1", "variant"), plus_kept("set=n=%5B1,%202%5D", "set")
    (['a+b', 'c+d'], ['n=[1, 2]'])
    """
    return [value for key, value in parse_qsl(query.replace("+", "%2B"), keep_blank_values=True) if key == name]


def options_of(values: list[str]) -> dict[str, str]:
    """``set=NAME=VALUE`` parameters (one per line also accepted), as the command line's ``--set`` reads them."""
    texts = [line.strip() for value in values for line in value.splitlines() if line.strip()]
    try:
        return parse_set_options(texts)
    except ValueError as err:
        raise BadRequest(f"set: {err}") from None


def bot_spec(spec: str) -> str:
    """An agent spec the page may use: a known agent that reads no file, with a search budget and a rollout depth
    (a search's or greedy's) within the page's caps."""
    spec = spec.strip()
    kind = spec.partition(":")[0].strip().lower()
    if kind in FILE_AGENTS:
        raise BadRequest(f"the page's bots read no file: '{kind}:FILE' is for the command line "
                         f"(rulecraft play --seat 2={kind}:FILE)")
    if is_agent_file(spec):  # the server never loads a file a request names (even one a command loaded before)
        raise BadRequest("the page's bots read no file: an agent class of your own file, 'PATH.py:CLASS', is for the "
                         "command line (rulecraft play --seat 2=PATH.py:CLASS)")
    try:
        agent = make_agent(spec, 0)
    except ValueError as err:
        raise BadRequest(str(err)) from None
    if isinstance(agent, SearchAgent):  # its settings as parsed, in whatever order the spec gives them
        budget = agent.spec.budget
        if (budget.seconds or 0) > MAX_SECONDS or budget.seconds is None and budget.iterations > MAX_ITERATIONS:
            raise BadRequest(f"the page's bots search at most {MAX_ITERATIONS} iterations or {MAX_SECONDS:g} seconds "
                             f"a move; '{spec}' asks for more")
    depth = agent.spec.depth if isinstance(agent, SearchAgent) else agent.depth if isinstance(agent, GreedyAgent) else 0
    if depth > ROLLOUT_CAP:
        raise BadRequest(f"the page's bots play rollouts of at most {ROLLOUT_CAP} actions; '{spec}' asks for more")
    if isinstance(agent, GreedyAgent) and agent.work > MAX_GREEDY_WORK:
        raise BadRequest(f"the page's greedy bots play at most {MAX_GREEDY_WORK} random actions a move in their "
                         f"rollouts; '{spec}' asks for more")
    return spec


def seats_of(values: list[str], players: int, all_bots: bool) -> dict[int, str]:
    """The bots by seat.

    ``all_bots``: every seat is a bot; ``values`` is one spec for all, or one per seat (``random,greedy``).
    Otherwise ``values`` are ``N=WHO`` entries (``human`` or a spec); seat 1 is human and the others
    random unless said otherwise, as in ``rulecraft play``.
    """
    if all_bots:
        specs = [s for value in values for s in value.split(",") if s.strip()] or ["random"]
        if len(specs) == 1:
            specs = specs * players
        if len(specs) != players:
            raise BadRequest(f"give one bot for every seat or one per seat ({players}), not {len(specs)}")
        return {seat: bot_spec(spec) for seat, spec in enumerate(specs, 1)}
    try:
        seats = assign_seats([e for value in values for e in value.split(",") if e.strip()], players)
    except ValueError as err:
        raise BadRequest(f"seat: {err}") from None
    return {seat: bot_spec(who) for seat, who in seats.items() if who.lower() != "human"}


def game_file(body: bytes, where: str) -> Replay:
    """An uploaded save or replay (the command line's format); BadRequest naming what is wrong with it."""
    if len(body) > MAX_BYTES:
        raise BadRequest(f"{where}: a game file is at most {MAX_BYTES // (1024 * 1024)} MB; this one is larger")
    if not body.strip():
        raise BadRequest(f"{where}: the file is empty; choose a game saved by 'rulecraft play' or by this page")
    try:
        data: Any = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise BadRequest(f"{where}: not a JSON game file ({err})") from None
    except RecursionError:
        raise BadRequest(f"{where}: not a game file (its JSON nests too deeply)") from None
    try:
        log = Replay.from_json(data, where)
    except SaveError as err:
        raise BadRequest(str(err)) from None
    if log.explicit_chance:
        raise BadRequest(f"{where}: {EXPLICIT_CHANCE_LOG}")
    return log
