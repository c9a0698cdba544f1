"""``rulecraft play``: humans and bots at one terminal.

On a human's turn the board, the zones that seat may see, the new log lines
and the numbered legal actions are drawn; the human answers with a number or
an action's text (or ``help``, ``board``, ``save FILE``, ``quit``).  Bots'
moves are printed as they happen.  Works with piped input: the end of input
quits.

>>> sorted(parse_seats(("1=random",), players=3, seed=0))   # seats played by bots
[1, 2, 3]
>>> sorted(parse_seats((), players=3, seed=0))               # seat 1 is human by default
[2, 3]

Typical use::

    log = GameLog("my-game", [], players=2, seed=0)
    game, state = log.start()
    finished = Session(render.make_console(), state, log, parse_seats((), 2, 0)).run()
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console

from cli import render
from cli.gamelog import GameLog
from engine.agents import Agent, make_agent
from engine.errors import IllegalActionError
from engine.state import State

HELP = """Type the number of an action, or its text (e.g. copy one from the list).
  board      draw the board and the actions again
  save FILE  write the game so far as a log (rulecraft play --load FILE, rulecraft replay FILE)
  help       this text
  quit       stop playing"""

RECENT = 8
"""Log lines shown when a session starts (the end of a loaded game's log)."""


@dataclass
class Session:
    """One game at the terminal; a seat without an agent is a human."""

    console: Console
    state: State
    log: GameLog
    bots: dict[int, Agent]
    shown: int = 0  # how many lines of the state's log were printed

    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False)."""
        state = self.state
        self.shown = max(0, len(state.log or []) - RECENT)
        self.print_new_log()
        while not state.is_terminal:
            seat = state.current_player
            bot = self.bots.get(seat)
            if bot is not None:
                self.bot_turn(seat, bot)
            elif not self.human_turn(seat):
                return False
        for line in render.outcome(state):
            self.console.print(line)
        return True

    def bot_turn(self, seat: int, bot: Agent) -> None:
        action = bot.choose(self.state)
        self.console.print(f"{render.seat_label(self.state, seat)} [{bot.name}]: {action}")
        self.state.apply(action)
        self.print_new_log()

    def human_turn(self, seat: int) -> bool:
        """Ask until a legal action is applied (True) or the human quits (False)."""
        self.draw(seat)
        while True:
            answer = ask(f"{render.seat_label(self.state, seat)}>")
            if answer is None or answer == "quit":
                self.console.print("stopped; the game is not over")
                return False
            if self.command(answer, seat):
                continue
            error = self.try_action(answer)
            if error is None:
                return True
            self.console.print(error, style="bold")

    def command(self, answer: str, seat: int) -> bool:
        """Handle ``help``, ``board`` and ``save FILE``; False when ``answer`` is not one."""
        word, _, rest = answer.partition(" ")
        if answer == "help":
            self.console.print(HELP)
        elif answer == "board":
            self.draw(seat)
        elif word == "save" and rest.strip():
            self.save(Path(rest.strip()))
        elif answer == "":
            count = len(self.state.legal_actions())
            self.console.print(f"type a number from 1 to {count}, an action, 'help' or 'quit'")
        else:
            return False
        return True

    def try_action(self, answer: str) -> str | None:
        """Apply the action numbered or written as ``answer``; the reason it is refused, if it is."""
        actions = self.state.legal_actions()
        try:
            if answer.isdigit():
                number = int(answer)
                if not 1 <= number <= len(actions):
                    return f"there is no action {number}: choose one from 1 to {len(actions)}"
                self.state.apply(actions[number - 1])
            else:
                self.state.apply(answer)
        except IllegalActionError as err:
            return str(err)
        self.print_new_log()
        return None

    def draw(self, seat: int) -> None:
        state, console = self.state, self.console
        console.rule(f"turn {state.turn_number}: {render.seat_label(state, seat)} to play", style="dim")
        if state.game.grid is not None:
            console.print(render.board(state))
        for line in render.zones(state, seat):
            console.print(line)
        console.print(render.numbered_actions(state, console.width))

    def print_new_log(self) -> None:
        lines = self.state.log or []
        for line in render.log_lines(lines[self.shown:]):
            self.console.print(line, style="dim")
        self.shown = len(lines)

    def save(self, path: Path) -> None:
        self.log.actions = list(self.state.history or [])
        try:
            self.log.write(path)
        except OSError as err:
            self.console.print(f"cannot write {path}: {err.strerror}", style="bold")
            return
        self.console.print(f"saved {len(self.log.actions)} actions to {path}")


def ask(prompt: str) -> str | None:
    """A line of input (stripped), or None at the end of input."""
    try:
        answer: str = click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        return None
    return answer.strip()


def parse_seats(entries: tuple[str, ...], players: int, seed: int) -> dict[int, Agent]:
    """The bots by seat from ``N=SPEC`` entries (``human`` or an agent spec); seat 1 is human by default.

    Raises ValueError naming a malformed entry, a seat out of range or an unknown agent.
    """
    from engine.simulate import derive_seed

    specs = {seat: "random" for seat in range(2, players + 1)}
    for entry in entries:
        number, sep, spec = entry.partition("=")
        if not sep or not number.strip().isdigit():
            raise ValueError(f"'{entry}' is not SEAT=WHO (e.g. 2=human or 1=random)")
        seat = int(number)
        if not 1 <= seat <= players:
            raise ValueError(f"there is no seat {seat} with {players} players")
        specs[seat] = spec.strip()
    return {
        seat: make_agent(spec, derive_seed(seed, seat)) for seat, spec in specs.items() if spec.lower() != "human"
    }
