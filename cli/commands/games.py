"""The commands that play one game: ``play`` at the terminal (humans and bots) and ``replay`` of a game's log.

    $ rulecraft play my-game --seat 2=mcts:400 --log game.json
    $ rulecraft replay game.json --watch
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cli.allow import allow_option
from cli.counts import WHOLE
from cli.extra_words import SpacedValuesCommand
from cli.messages import fail
from cli.options import (AGENT_KINDS_HELP, check_output, limit_option, load_game, pick_players, players_option,
                         variant_option)
from cli.piles import Arrivals, Growth, laid_on_top, pile_arrivals, pile_growth, played_from
from cli.options import agent_timeout_option
import engine
from engine.core.showtext import players as players_text

if TYPE_CHECKING:
    from cli.gamelog import GameLog


UNCHECKED_LOG = ("note: this is a format-1 log, without the recorded positions and ruleset content hash: only "
                 "that each action is legal is checked, not that it leads where it did")
"""What ``replay`` and ``play --load`` say of a log written before logs recorded their positions."""


@click.command(cls=SpacedValuesCommand)
@click.argument("ruleset", required=False)
@allow_option
@variant_option
@players_option
@limit_option
@click.option("--seed", type=WHOLE, help="Seed of the game (default: a random one, printed).")
@click.option(
    "--seat", "seats", multiple=True, metavar="N=WHO",
    help=f"Who plays seat N: human or an agent {AGENT_KINDS_HELP} (default: 1=human, others random).",
)
@click.option(
    "--load", "load_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Continue a game saved with 'save FILE' (it names the ruleset, variants, players and seed).",
)
@click.option(
    "--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log here when the game ends, or the game so far when it stops (quit, Ctrl-C, a failure).",
)
@click.option(
    "--hint-agent", "hint_spec", metavar="SPEC",
    help="The agent that answers 'hint' (default: ismcts:200 where something is hidden, else mcts:200).",
)
@click.option("--watch", is_flag=True, help="Draw the board after every move, bots' moves too (the zones without a board, and with it while it is empty).")
@agent_timeout_option
def play(
    ruleset: str | None,
    variants: tuple[str, ...],
    set_texts: tuple[str, ...],
    players: int | None,
    seed: int | None,
    seats: tuple[str, ...],
    load_path: Path | None,
    log_path: Path | None,
    hint_spec: str | None,
    watch: bool,
) -> None:
    """Play a game at the terminal against bots (or other humans).

    Any mix of humans and bots: --seat 1=human --seat 2=mcts:400.  At a
    human's turn type an action's number or text, or help, board, hint,
    undo (take back the last human move and the bots' replies), save FILE
    or quit.

    \b
    rulecraft play my-game --players 3 --seed 7 --watch
    rulecraft play --load saved.json
    """
    from cli import render
    from cli.play import Session, hint_agent, parse_seats

    if load_path is not None and (ruleset or variants or set_texts or players is not None or seed is not None):
        raise click.UsageError("--load takes the ruleset, variants, options, players and seed from the file; give none of them")
    if load_path is None and ruleset is None:
        raise click.UsageError("give a RULESET (or --load SAVE.json)")
    log, state = _start_loaded(load_path) if load_path else _start_new(str(ruleset), variants, set_texts, players, seed)
    check_output(log_path, "--log", "the log")
    try:
        bots = parse_seats(seats, log.players, log.seed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--seat") from None
    try:
        hint = hint_agent(state.game, hint_spec, log.seed)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--hint-agent") from None
    console = render.make_console()
    humans = [s for s in range(1, log.players + 1) if s not in bots]
    who = f"humans at seat {', '.join(map(str, humans))}" if humans else "bots only"
    changes = render.run_changes(list(state.game.variants), state.game.set_options)
    console.print(f"{state.game.title}{changes}: {players_text(log.players)}, seed {log.seed}; {who}")
    if load_path is not None and not log.checked:
        console.print(UNCHECKED_LOG)
    session = Session(console, state, log, bots, hint, watch=watch, resumed=load_path is not None)
    try:
        session.run()
        interrupted = False
    except KeyboardInterrupt:  # Ctrl-C, at a prompt or while a bot thinks (or kill, or the terminal closed)
        interrupted = True
    if log_path is not None and not session.save(log_path):  # ended or not, the game so far is kept
        raise click.exceptions.Exit(1)
    if interrupted:  # said after the log is written: a terminal that closed may take no more output
        console.print("interrupted; the game is not over")
    if session.failed or interrupted:  # the exit status says it did not end
        raise click.exceptions.Exit(1)


def _start_new(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, seed: int | None
) -> tuple[GameLog, engine.State]:
    from cli.gamelog import GameLog, ruleset_ref

    game = load_game(ruleset, variants, set_texts)
    count = pick_players(game, players)
    import random

    seed = random.randrange(1 << 31) if seed is None else seed
    log = GameLog(ruleset_ref(ruleset), list(game.variants), count, seed, set_options=dict(game.set_options))
    return log, game.new_state(players=count, seed=seed, record=True)


def _start_loaded(path: Path) -> tuple[GameLog, engine.State]:
    from cli.gamelog import GameLog, ReplayDiverged
    from engine.runner.replay import EXPLICIT_CHANCE_LOG

    log = GameLog.read(path)
    if log.explicit_chance:
        fail(f"{path}: {EXPLICIT_CHANCE_LOG}")
    _, state = log.start()
    try:
        log.play(state)  # every position checked against the recorded one, as `rulecraft replay` does
    except ReplayDiverged as err:
        fail(f"{path}: {err}")
    return log, state


@click.command(cls=SpacedValuesCommand)
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@allow_option
@click.option("--step", is_flag=True, help="Wait for Enter between actions.")
@click.option("--force", is_flag=True, help="Replay even if the ruleset changed since; report the first action that diverges.")
@click.option("--watch", is_flag=True, help="Draw the board after every action (the zones without a board, and with it while it is empty).")
@limit_option
def replay(log_file: Path, step: bool, force: bool, watch: bool) -> None:
    """Replay a game log, printing each action and what it did.

    A log records the ruleset's content hash and the position after every
    action: a log whose ruleset changed is refused (unless --force), and an
    action that is refused or leads elsewhere than recorded stops the replay.

    \b
    rulecraft replay game.json --watch
    """
    from cli import render
    from cli.gamelog import GameLog, ReplayDiverged, RulesetChanged
    from cli.play import ask
    from cli.turn_lines import turn_heading, turn_marks
    from engine.blocks.choice_labels import ForcedPicks

    log = GameLog.read(log_file)
    try:
        game, state = log.start(force=force)
    except RulesetChanged as err:
        fail(f"{log_file}: {err}\n(replay it anyway with --force to find the first action that diverges)")
    changed = log.changed(game)
    console = render.make_console()
    if changed:
        console.print(f"warning: {changed}; replaying anyway")
    if not log.checked:
        console.print(UNCHECKED_LOG)
    changes = render.run_changes(list(state.game.variants), state.game.set_options)
    console.print(f"{state.game.title}{changes}: {players_text(log.players)}, seed {log.seed}, {len(log.actions)} actions")
    opening = turn_marks(state, 0, 0, len(state.log or []))  # where the turns begun before the first action begin
    for index, line in enumerate(render.log_lines(state.log or [])):  # what setting up, and the steps before it, did
        if index in opening:
            console.print(turn_heading(state, opening[index]), style="dim")
        console.print(line, style="dim")
    printed = len(state.log or [])

    forced = ForcedPicks(state, telling=True)  # a choice of one option: told with its action's lines (the log has none)
    grown: list[Growth] = []  # the piles each action laid components on (piles laid on top listed from the bottom up)
    arrived: list[Arrivals] = []  # what each action put into piles of nobody's: a trick's cards, with who played them
    before = state.clone()

    turn_before = state.turn_number  # the turn the last action left the game in

    def each(number: int, text: str, seat: int) -> None:
        nonlocal printed, step, before, turn_before
        grown.append(pile_growth(before, state))
        arrived.append(pile_arrivals(before, state))
        before = state.clone()
        console.print(f"{number}. seat {seat}: {text}")
        lines = forced.merged(state.log or [], printed)
        # each turn begun among its lines, headed with whose it is (a turn that asked nobody read as the action's)
        marks = turn_marks(state, printed, turn_before, len(lines), forced.told)
        for index, line in enumerate(render.log_lines(lines)):
            if index in marks:
                console.print(turn_heading(state, marks[index]), style="dim")
            console.print(line, style="dim")
        turn_before = state.turn_number
        forced.told.clear()
        printed = len(state.log or [])
        if watch and number < len(log.actions):  # the board (and the zones while it is empty), all open
            for part in render.watched(state, None, laid_on_top(grown), played_from(arrived)):
                console.print(part)
        if step and number < len(log.actions) and ask("(Enter for the next action)") is None:
            step = False

    try:
        with forced:
            log.play(state, each)
    except ReplayDiverged as err:
        fail(f"{log_file}: {'first divergence: ' if changed else ''}{err}")
    console.rule("the final position", style="dim")
    for part in render.position(state, None, laid_on_top(grown), played_from(arrived)):
        console.print(part)
    for line in render.outcome(state):
        console.print(line)
    if changed:
        console.print("the ruleset (or the log) changed, but every action still leads to the recorded position")
