"""Many games between agents, and what they say about a ruleset.

Game ``i`` of a run is seeded from (run seed, ``i``) alone and its agents from
(game seed, seat), so a report depends only on its inputs, never on how
many workers played it.  The games go out in chunks, described by value
(a :class:`~engine.compiling.loading.GameRef`, seeds), to an
:class:`~engine.runner.executor.Executor`: a worker forked from the runner
plays the runner's own compiled game; any other worker loads the ruleset
itself and refuses to play if the file changed since the run started.

Example::

    report = simulate(engine.load("my-game"), players=2, n=1000, seed=0, agents="random", jobs=4)
    print(report.win_rate[1].low, report.win_rate[1].high)   # seat 1's 95% interval

>>> derive_seed(0, 1) == derive_seed(0, 1) != derive_seed(0, 2)
True
"""

from __future__ import annotations

import operator
import os
import shlex
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, replace
from numbers import Integral
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from engine.blocks.choice_labels import ForcedPicks, chosen_components
from engine.compiling.loading import GameRef, keeping, load
from engine.core import rng
from engine.core.decisions import SIMULTANEOUS
from engine.core.actions import Action
from engine.core.errors import EffectRuntimeError, IllegalActionError, SetupError, SourcePos
from engine.core.showtext import cut, players as players_text
from engine.model.game import Game
from engine.model.state import State
from engine.runner.agents import Agent, kinds_only_here, make_agent
from engine.runner.backends import MAX_GAMES
from engine.runner.executor import Executor, LocalExecutor, WorkerLost
from engine.runner.game_measures import (answer_texts, count_lead_changes, dealt_roles, final_margin, held_by_rival,
                                         held_components, leader, opposed, opening_seat, side_scores, sides, teams_of)
from engine.runner.report import GameResult, NotKept, SimulationReport


def derive_seed(seed: int, index: int) -> int:
    """A seed for item ``index`` of something seeded with ``seed`` (games of a run, seats of a game)."""
    return rng.next_u64((rng.seed_state(seed) + index) & rng.MASK)[1]


def whole(name: str, value: Any) -> int:
    """``value`` as a plain int (NumPy's whole numbers too, so that reports stay JSON); anything else, a bool
    included, is a TypeError naming it.

    >>> whole("n", 5), whole("seed", -1)
    (5, -1)
    """
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} is a whole number, not {cut(repr(value), 60)}")
    return operator.index(value)


def seat_specs(agents: Sequence[str] | str, players: int) -> list[str]:
    """One agent spec per seat: one spec for every seat, or exactly one per seat (a list, or a text as --agents takes).

    >>> seat_specs("mcts:50, random", 2), seat_specs("greedy", 3)
    (['mcts:50', 'random'], ['greedy', 'greedy', 'greedy'])
    """
    if not isinstance(agents, Iterable) or isinstance(agents, Mapping):
        raise TypeError(f"agents is a text ('mcts:50, random') or a list of texts, one per seat, not "
                        f"{cut(repr(agents), 60)}")
    specs = [spec.strip() for spec in agents.split(",")] if isinstance(agents, str) else list(agents)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"give one agent for every seat or one per seat ({players}), not {len(specs)}")
    for spec in specs:
        make_agent(spec, 0)
    return specs


_ticking = threading.local()  # .tick while counting_decisions() watches the games this thread plays


@contextmanager
def counting_decisions(tick: Callable[[int], None]) -> Iterator[None]:
    """Call ``tick(decisions)`` after each decision of the games this thread plays meanwhile, with the decisions of
    the game so far: how far a slow game has got (a run's progress counts games, so one long game between search
    bots showed only the clock).  Games played elsewhere (a run's worker processes, a cluster) tick nothing.

    >>> import engine
    >>> ticks = []
    >>> with counting_decisions(ticks.append):
    ...     result = play_game(engine.load(engine.builtin_names()[0]), 2, seed=1, specs=["random", "random"])
    >>> ticks == list(range(1, result.length + 1))
    True
    """
    before = getattr(_ticking, "tick", None)
    _ticking.tick = tick
    try:
        yield
    finally:
        _ticking.tick = before


def play_game(game: Game, players: int, seed: int, specs: Sequence[str]) -> GameResult:
    """One game between the agents ``specs`` (one per seat), seeded with ``seed``.

    Lead changes are counted when the ruleset declares a ``running_score``:
    after each action the leader is the seat with the top score, if it is alone
    there (see :func:`count_lead_changes`).
    """
    state = game.new_state(players=players, seed=seed)
    forced = ForcedPicks(state)  # the pieces effects take as a choice's one option: no decision, but played
    used: list[list[int]] = [[] for _ in range(players)]
    answered: list[list[tuple[str, str]]] = [[] for _ in range(players)]  # per seat: (what was asked, the answer)
    offered: Counter[tuple[str, str]] = Counter()  # how often each answer was offered
    teams = sides(teams_of(game, players), players)

    def count_forced() -> None:
        """The pieces taken as a choice's one option during the last action are used by their chooser, as answers are
        (not those of the set-up and the turns before the first decision: a start many games share is kept)."""
        for chooser, cid, zone in forced.picks:
            if chooser and not held_by_rival(state, cid, chooser, teams, zone):
                used[chooser - 1].append(cid)
        forced.picks.clear()

    seats: list[Agent] = [make_agent(spec, derive_seed(seed, i + 1)) for i, spec in enumerate(specs)]
    dealt, held = dealt_roles(state), held_components(state)
    first = 0 if state.is_terminal else opening_seat(state)
    sealed_start = bool(first) and state.clone().current_player == SIMULTANEOUS  # asked of a copy: the game stays as set up
    track = game.running_score is not None and len(teams) > 1
    leaders: list[int] = []
    leads = True  # the top two running scores were opposite after every action so far
    length = 0
    tick = getattr(_ticking, "tick", None)
    turn, in_turn, most = state.turn_number, 0, game.limits.turn_decisions
    while not state.is_terminal:
        if state.turn_number != turn:
            turn, in_turn = state.turn_number, 0
        elif in_turn >= most:
            raise state.endless_turn(most)
        in_turn += 1
        seat = state.seat_to_move
        action = seats[seat - 1].choose(state)
        if not isinstance(action, Action):
            action = chosen_action(seats[seat - 1], state, action)
        if state.pending is None:
            used[seat - 1].extend(game.steps[state.step].used_components(action.args))
        else:  # an answer to a choice inside an effect: the component it picks, if it picks one of its side's
            picked = chosen_components(state.pending, action.args[0])
            used[seat - 1].extend(cid for cid in picked if not held_by_rival(state, cid, seat, teams))
            tallied = answer_texts(state, str(action.args[0]))
            if tallied is not None:
                asked = state.pending.question or state.pending.prompt or "choose"  # values filled in: one question
                offered.update((asked, text) for text in tallied[0])
                answered[seat - 1].append((asked, tallied[1]))
        with forced:
            state.apply(action, undo=False)  # a game the ruleset fails in is dropped
        if forced.picks:
            count_forced()
        length += 1
        if tick is not None:
            tick(length)
        if track:
            scores = side_scores([game.score_of(state, s) for s in range(1, players + 1)], teams)
            leaders.append(leader(scores))
            leads = leads and opposed(scores)
    assert state.outcome is not None
    return GameResult(
        winners=state.outcome.winners,
        returns=tuple(state.returns()),
        length=length,
        first=first,
        used=tuple(map(tuple, used)),
        lead_changes=count_lead_changes(leaders) if track else None,
        margin=final_margin(game, state, leads),
        team_win=len(state.outcome.winners) > 1 and (not state.outcome.is_draw if state.outcome.teams or state.outcome.together
                                                     else len(teams) == 1),
        seed=seed,
        scores=tuple(state.outcome.scores),
        turn_limit=state.outcome.ended == "turn limit",
        sealed_start=sealed_start,
        tie_by_order=state.outcome.tie_by_order,
        turns=state.turn_number,
        roles=dealt,
        held=held,
        answers=tuple(map(tuple, answered)),
        offered=tuple(offered.items()),
    )


KEEP_AT_MOST = 100_000
"""A run of at most this many games keeps each game's result by default (``simulate(..., keep_results=...)``)."""


def chosen_action(agent: Agent, state: State, chosen: Any) -> Action:
    """What ``agent`` chose that is not an action object: its text, read as ``state.apply`` reads it; anything else
    is a TypeError naming the agent (a text or an index an agent of one's own returned was AttributeError: 'str'
    object has no attribute 'args').

    >>> import engine
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> chosen_action(make_agent("random", 0), s, str(s.legal_actions()[0])) == s.legal_actions()[0]
    True
    """
    name = getattr(agent, "name", type(agent).__name__)
    if not isinstance(chosen, str):
        raise TypeError(f"the agent {name} chose {cut(repr(chosen), 60)}: choose(state) returns one of "
                        "state.legal_actions() or its text")
    try:
        return state.parse_action(chosen)
    except IllegalActionError as err:
        raise IllegalActionError(f"the agent {name} chose {cut(repr(chosen), 80)}: {err}") from None


Progress = Callable[[int], None]
"""Called with the number of games finished so far."""


MAX_CHUNK = 100
"""At most this many games go to a worker at once (so an interrupted run loses little).

Each chunk costs the runner about 0.1 ms of CPU and a worker about 0.05 ms
(the pool's hand-over between processes and threads), taken from the cores
the workers play on: a few percent of the work of 25 games of the fastest
games, under 1% with 100.
"""


def simulate(
    game: Game | str | os.PathLike[str],
    players: int | None = None,
    n: int = 100,
    seed: int = 0,
    agents: Sequence[str] | str = "random",
    jobs: int = 1,
    progress: Progress | None = None,
    executor: Executor | None = None,
    rotate: bool = False,
    resume: SimulationReport | None = None,
    keep_results: bool | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> SimulationReport:
    """Play ``n`` games on ``executor`` (default: ``jobs`` local processes) and report on them.

    The report counts the games as they arrive (:class:`~engine.runner.tally.RunTally`), so its memory does not grow
    with ``n``; it also keeps each game's :class:`GameResult` in ``report.results`` when ``keep_results`` says so, by
    default for runs of at most :data:`KEEP_AT_MOST` games (about 1.5 KB a game: ten million would take 15 GB).
    ``on_game(result)`` sees each game's result as it arrives, in the order of the seeds (to write it to disk).

    ``resume``, the report of an earlier run of the same game, players, seed, agents and seating — interrupted, or
    finished with fewer games — goes on from its last game: only the games it lacks are played, and the report is
    the one the whole run would have given (game ``i`` is seeded from the run's seed and ``i`` alone).  A report of another run is a ValueError.  It
    may be read back from the JSON the run wrote (:meth:`SimulationReport.from_json`); the games' results are kept
    only when ``resume`` kept its own.

    With ``rotate``, game ``i`` seats the agents turned round by ``i`` places (see :func:`rotated`): every agent
    plays every seat in turn, so agents of different strength are told apart from the seats they play.

    ``game`` is a compiled game or a ruleset's name or path (loaded as written); ``players``
    defaults to the game's :attr:`~engine.model.game.Game.default_players`, ``agents`` to
    random bots at every seat, as ``rulecraft simulate`` does.

    Interrupted (Ctrl-C), it returns the report of the games finished so far, marked ``partial``; a game failing, or a
    worker dying, raises :class:`GameFailed` holding that report.
    Raises ValueError unless ``1 <= n <= MAX_GAMES``.

    >>> import engine
    >>> simulate(engine.builtin_names()[0], n=2).games
    2
    """
    if isinstance(game, (str, os.PathLike)):
        game = load(game)
    elif not isinstance(game, Game):
        raise TypeError(f"simulate plays a compiled game (engine.load) or a ruleset's name or path, not "
                        f"{type(game).__name__}")
    players = game.default_players if players is None else players
    players, n, seed = whole("players", players), whole("n", n), whole("seed", seed)
    if players not in game.player_counts:  # before the agents are counted: -1 seats were 'give one agent ... (-1)'
        raise SetupError(f"{game.name} is played by {players_text(game.player_counts)}, not {players}")
    if not 1 <= n <= MAX_GAMES:
        raise ValueError(f"a run plays from 1 to {MAX_GAMES:,} games (n is outside)")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress is a function taking the number of games played so far, not {cut(repr(progress), 60)}")
    specs = seat_specs(agents, players)
    executor = executor or LocalExecutor(whole("jobs", jobs))
    here = [] if isinstance(executor, LocalExecutor) else kinds_only_here(specs)
    if here:  # the workers would each fail with 'unknown agent', in a task's traceback
        raise ValueError(f"the agent {here[0]} is of a kind registered in __main__ (this script or session), which the "
                         f"workers of {type(executor).__name__} never run: register it with agent_kind at the top level "
                         "of a module they import")
    content = list(zip(game.piece_names, game.component_kind))  # identical copies count as one piece of content
    if on_game is not None and not callable(on_game):
        raise TypeError(f"on_game is a function taking each game's result, not {cut(repr(on_game), 60)}")
    report = SimulationReport(game.name, list(game.variants), players, specs, seed, content, set_options=dict(game.set_options),
                              teams=teams_of(game, players), rotated=bool(rotate) and len(set(specs)) > 1,
                              secret_roles=game.roles is not None and game.roles.hidden, content_hash=game.content_hash)
    if resume is not None:
        report = _resumed(resume, report, n)
    if not (n <= KEEP_AT_MOST if keep_results is None else keep_results) or not report.kept:
        report.forget_results()

    def arrived(results: Sequence[GameResult]) -> None:
        report.add(results)
        if on_game is not None:
            for result in results:
                on_game(result)
    size = max(1, min(n // (executor.workers * 8), MAX_CHUNK))
    with keeping(game) as ref:
        chunks = [Chunk(ref, players, tuple(specs), seed, start, min(start + size, n), report.rotated)
                  for start in range(report.games, n, size)]
        read = 0  # the chunks whose games are in the report
        try:
            for part in executor.map(play_chunk, chunks):
                arrived(part)
                read += 1
                if progress:
                    progress(report.games)
        except KeyboardInterrupt:  # Ctrl-C: keep the games finished so far (whole chunks: a prefix of the seeds)
            report.planned = n
        except EffectRuntimeError as err:  # a game failed: the games before it are kept, a prefix of the seeds
            arrived(getattr(err, "finished", ()))
            report.planned, report.failed = n, str(err)
            raise GameFailed(err.message, err.pos, err.public, report) from None
        except WorkerLost as err:  # a worker died: the games before those it held are kept, as when a game fails
            report.planned = n
            report.failed = f"{err}; the run stopped at game {chunks[read].start + 1} of {n}"
            raise GameFailed(report.failed, report=report) from None
    return report


def _resumed(resume: SimulationReport, report: SimulationReport, n: int) -> SimulationReport:
    """``report``, a new run of ``n`` games, with the games of ``resume`` it goes on from (their counts, and their
    results when ``resume`` kept them); a report of another run (another game, players, seed, agents or seating) or
    of more games than ``n`` is refused (ValueError) naming what differs, since its games are not this run's first
    ones.

    >>> run = SimulationReport("my-game", [], 2, ["random", "random"], 7, [], planned=100)
    >>> _resumed(run, replace(run, planned=None), 100).games
    0
    >>> _resumed(run, replace(run, seed=8, planned=None), 100)
    Traceback (most recent call last):
    ValueError: the report resumed is of another run: its seed is 7, this run's 8
    """
    if not isinstance(resume, SimulationReport):
        raise TypeError(f"resume takes the SimulationReport of an interrupted run, not {cut(repr(resume), 60)}")
    if resume.content_hash != report.content_hash:  # the games it counts were played by other rules
        raise ValueError(f"the report resumed is of another run: its ruleset has changed since (content hash "
                         f"{resume.content_hash[:12]} then, {report.content_hash[:12]} now), so its games were "
                         "played by other rules: run them again")
    for what in ("ruleset", "variants", "set_options", "players", "seed", "agents", "rotated", "content"):
        theirs, ours = getattr(resume, what), getattr(report, what)
        if theirs != ours:
            shown = ("" if what == "content" else f" {cut(repr(theirs), 60)}, this run's {cut(repr(ours), 60)}")
            verb = ("are" if what in ("variants", "set_options", "agents") else "is") if shown else "differs"
            raise ValueError(f"the report resumed is of another run: its {what.replace('_', ' ')} {verb}{shown}")
    if resume.games > n:
        raise ValueError(f"the report resumed holds {resume.games} games, more than the {n} of this run")
    return replace(report, results=list(resume.results) if resume.kept else NotKept(resume.tally))


class GameFailed(EffectRuntimeError):
    """An effect failed in one game of a run (the message names its seed), or the worker playing it died
    (:class:`~engine.runner.executor.WorkerLost`: the message says how, and the game the run stopped at); ``report``
    holds the games finished before it, a prefix of the seeds, marked partial, with this error as its ``failed``.

    >>> GameFailed("division by zero (in the game of seed 7; ...)").report is None
    True
    """

    def __init__(self, message: str, pos: SourcePos | None = None, public: str | None = None,
                 report: SimulationReport | None = None) -> None:
        super().__init__(message, pos, public)
        self.report = report


# ---------------------------------------------------------------- work items



@dataclass(frozen=True)
class Chunk:
    """Games ``start..stop-1`` of a run, for a worker: everything it needs, by value."""

    game: GameRef
    players: int
    specs: tuple[str, ...]
    seed: int
    start: int
    stop: int
    rotate: bool = False  # game i seats the agents turned round by i places


def rotated(specs: Sequence[str], index: int) -> tuple[str, ...]:
    """The agents of game ``index`` of a run that turns them round: seat 1's agent moves to seat 2, and so on, one
    place a game.

    >>> rotated(["greedy", "random", "random"], 0), rotated(["greedy", "random", "random"], 1)
    (('greedy', 'random', 'random'), ('random', 'greedy', 'random'))
    """
    turn = index % len(specs)
    return (*specs[-turn:], *specs[:-turn]) if turn else tuple(specs)


def play_command(ruleset: str, variants: Sequence[str], set_options: Mapping[str, str], players: int, seed: int,
                 agents: Sequence[str], allowed: Sequence[str] = (), limits: Sequence[tuple[str, int]] = ()) -> str:
    """The shell command that plays game ``seed`` again, every seat played by its bot, with the folders the
    ruleset was allowed to read (``--allow``) and the budgets it ran under (``--limit``), so it runs as printed.

    >>> play_command("my-game", ["short"], {"width": "5"}, 2, 42, ["random", "mcts:50"])
    'rulecraft play my-game --variant short --set width=5 --players 2 --seed 42 --seat 1=random --seat 2=mcts:50'
    >>> play_command("big", [], {}, 2, 7, ["random"] * 2, allowed=["/srv/base"], limits=[("steps", 9000)])
    'rulecraft play big --allow /srv/base --limit steps=9000 --players 2 --seed 7 --seat 1=random --seat 2=random'
    """
    words = ["rulecraft", "play", ruleset]
    words += [w for v in variants for w in ("--variant", v)]
    words += [w for name, value in set_options.items() for w in ("--set", f"{name}={value}")]
    words += [w for folder in allowed for w in ("--allow", folder)]
    words += [w for name, value in limits for w in ("--limit", f"{name}={value}")]
    words += ["--players", str(players), "--seed", str(seed)]
    words += [w for seat, spec in enumerate(agents, 1) for w in ("--seat", f"{seat}={spec}")]
    return shlex.join(words)


def play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play a chunk of games (in any process), loading the ruleset at most once per process.

    A worker forked from the runner plays the runner's own game (lent by
    :func:`~engine.compiling.loading.keeping`); any other loads the ruleset
    and refuses to play if it changed since the run started.  An effect failing
    in a game names that game, so that it can be watched again.
    """
    game = chunk.game.load()
    results = []
    for index in range(chunk.start, chunk.stop):
        seed = derive_seed(chunk.seed, index)
        specs = rotated(chunk.specs, index) if chunk.rotate else chunk.specs
        try:
            result = play_game(game, chunk.players, seed, specs)
            results.append(replace(result, agents=specs) if chunk.rotate else result)
        except EffectRuntimeError as err:
            ref = chunk.game
            again = play_command(ref.source, ref.variants, dict(ref.set_options), chunk.players, seed, specs,
                                 ref.allowed, ref.limits)
            raise ChunkStopped(f"{err.message} (in the game of seed {seed}; watch it: {again})", err.pos,
                               finished=tuple(results)) from None
    return results


class ChunkStopped(EffectRuntimeError):
    """A game of a chunk failed: its error, naming the game, with the games of the chunk ``finished`` before it (which
    the run keeps, as it keeps the chunks before), carried along when the error crosses to the runner's process.

    >>> import pickle
    >>> pickle.loads(pickle.dumps(ChunkStopped("division by zero (in the game of seed 7)", finished=(1, 2)))).finished
    (1, 2)
    """

    def __init__(self, message: str, pos: SourcePos | None = None, public: str | None = None,
                 finished: tuple[GameResult, ...] = ()) -> None:
        super().__init__(message, pos, public)
        self.finished = finished

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:  # type: ignore[override]
        return type(self), (self.message, self.pos, self.public, self.finished)
