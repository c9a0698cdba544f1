"""``rulecraft play``: humans and bots at one terminal.

On a human's turn the board, the zones that seat may see, the new log lines
and the numbered legal actions are drawn (a long list cut short); the human
answers with a number or an action's text, part of an action's text (to list
only the actions containing it), or a command: ``help``, ``board``, ``hint``
(what a bot would play here), ``undo`` (take back the last human move and the
bots' replies), ``save FILE`` or ``quit``.  Bots' moves are printed as they
happen (with ``watch``, the board after every move); at the end the final
position is drawn.  Works with piped input: the end of input quits.

>>> sorted(parse_seats(("1=random",), players=3, seed=0))   # seats played by bots
[1, 2, 3]
>>> sorted(parse_seats((), players=3, seed=0))               # seat 1 is human by default
[2, 3]

Typical use::

    log = GameLog("my-game", [], players=2, seed=0)
    game, state = log.start()
    hint = hint_agent(game, None, seed=0)
    finished = Session(render.make_console(), state, log, parse_seats((), 2, 0), hint).run()
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click
from rich.console import Console
from rich.text import Text

from cli import board_drawing, render, zone_listing
from cli.agent_files import FileAgent, register_agent_files
from cli.gamelog import GameLog, replay
from cli.menu import menu, why_typed_refused
from cli.piles import Arrivals, Growth, laid_on_top, pile_arrivals, pile_growth, played_from
from cli.turn_lines import turn_cut, turn_heading, turn_marks
from engine.blocks.choice_labels import ForcedPicks
from engine.core.atomic import WriteFailed
from engine.core.errors import IllegalActionError, RulecraftError, did_you_mean, told_to_seats
from engine.core.showtext import shown
from engine.runner.agents import Agent, RandomAgent, assign_seats, default_search, make_agent
from engine.runner.simulate import derive_seed

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from engine import Game, State
    from engine.core.actions import Action

HELP = """Type the number of an action (#3 when a number is also an answer: choose 3), or its text,
or part of one (a name, a cell such as 3,4) to list only the actions that contain it (a cell
alone: the actions at that cell, not at 13,4).
  board      draw the board and the actions again
  hint       what a bot would play here (rulecraft play --hint-agent SPEC chooses the bot)
  undo       take back the last move a human made, and the bots' moves after it
             (the game is rebuilt by replaying the moves before it from the seed)
  save FILE  write the game so far as a log (rulecraft play --load FILE, rulecraft replay FILE)
  help       this text
  quit       stop playing"""

T = TypeVar("T")

RECENT = 8
"""Log lines shown when a session starts (the end of a loaded game's log)."""


def is_number(answer: str) -> bool:
    """Whether ``answer`` names an action by its number (``3``, or ``#3``: always the third of the list).

    >>> is_number("3"), is_number("#3"), is_number("3,4"), is_number("#")
    (True, True, False, False)
    """
    digits = answer.removeprefix("#")
    return digits.isascii() and digits.isdigit() and len(digits) < 10


def numbered_action(actions: Sequence[T], answer: str) -> T:
    """The action a number typed at the prompt names (``3``, or ``#3``); IllegalActionError says why it names none.

    A number is the action's place in the list, unless an action answers with that number (its word after the
    verb: a bid, ``choose 1``, ``commit 1 to bid``) and that action is another: then the answer is ambiguous and
    refused, saying both readings (typing ``1`` to bid one must not bid the ``choose 0`` listed first); ``#1`` is
    always the place in the list. With no action at that place, the one action answering with the number is taken.

    >>> numbered_action(["choose 0", "choose 1"], "#1"), numbered_action(["choose 5", "choose 9"], "9")
    ('choose 0', 'choose 9')
    >>> numbered_action(["choose 0", "choose 1"], "1")
    Traceback (most recent call last):
    engine.core.errors.IllegalActionError: '1' is ambiguous: action [1] is 'choose 0', and 'choose 1' answers 1; type the whole action, or #1 for [1]
    """
    number = int(answer.removeprefix("#"))
    listed = actions[number - 1] if 1 <= number <= len(actions) else None
    holding = [] if answer.startswith("#") else [a for a in actions if str(a).split()[1:2] == [answer]]
    if listed is None and len(holding) == 1:
        return holding[0]
    if listed is None:
        raise IllegalActionError(f"there is no action {number}: choose one from 1 to {len(actions)}")
    others = [a for a in holding if a != listed]
    if others:
        said = " and ".join(f"'{a}'" for a in others)
        verb = "answers" if len(others) == 1 else "answer"
        raise IllegalActionError(f"'{answer}' is ambiguous: action [{number}] is '{listed}', and {said} {verb} "
                                 f"{answer}; type the whole action, or #{number} for [{number}]")
    return listed


@dataclass
class Session:
    """One game at the terminal; a seat without an agent is a human."""

    console: Console
    state: State
    log: GameLog
    bots: dict[int, Agent]
    hint: Agent
    shown: int = 0  # how many lines of the state's log were printed
    resumed: bool = False  # a loaded game: its log was seen when it was played, so only its end is shown again
    watch: bool = False  # draw the board after every move
    failed: bool = False  # the ruleset failed on a bot's move (the game stopped, as it was before it), or a turn never ended
    told: ForcedPicks | None = None  # the last move's choices of one option, told with its log lines (the log has none)
    grown: list[Growth] = field(default_factory=list)  # each move's piles laid on (see cli.piles), one per action played
    arrived: list[Arrivals] = field(default_factory=list)  # what each move put into piles of nobody's, and from where
    held: list[str] = field(default_factory=list)  # the log's lines of a human's turn begun: printed under its heading
    printed_turn: int = 0  # the turn the printed log reached

    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False), or a turn takes ``limits.turn_decisions``
        decisions without passing or the ruleset fails between moves (False: the game stops there, as simulate's
        games do).

        A new game's log is shown whole (setup, and every automatic step before the first decision: a game
        without decisions is all there); a resumed one's, only its last ``RECENT`` lines.
        """
        self.shown = max(0, len(self.state.log or []) - RECENT) if self.resumed else 0
        self.print_new_log()
        turn, start, most = -1, 0, self.state.game.limits.turn_decisions  # start: the decisions before this turn
        while not self.state.is_terminal:
            taken = len(self.state.history or [])
            if self.state.turn_number != turn or taken < start:  # a new turn, or one taken back
                turn, start = self.state.turn_number, taken
            elif taken - start >= most:
                self.console.print(f"{self.state.endless_turn(most)}; the game stops here", style="bold")
                self.failed = True
                return False
            seat = self.state.seat_to_move
            bot = self.bots.get(seat)
            try:
                going = self.bot_turn(seat, bot) if bot is not None else self.human_turn(seat)
            except RulecraftError as err:  # the ruleset fails listing the moves (a step offering more than the limit)
                self.console.print(f"{told_to_seats(err)}; the game stops here", style="bold")
                self.failed = True  # and is kept: --log is written (it was lost, the error a traceback's end)
                return False
            if not going:
                return False
        self.console.rule("the final position, every zone open", style="dim")
        for part in render.position(self.state, None, self.on_top(), self.came_from()):  # the game is over: every hand shown, as its log holds them
            self.console.print(part)
        for line in render.outcome(self.state):
            self.console.print(line)
        return True

    def bot_turn(self, seat: int, bot: Agent) -> bool:
        """Let a bot move; False when the ruleset fails on its move, or while the bot weighs its moves (the game
        stops, as it was before it, and is kept: ``--log`` is written)."""
        try:
            with self.thinking(f"{render.seat_label(self.state, seat, own=False)} [{bot.name}]", bot):
                action = bot.choose(self.state)
        except RulecraftError as err:  # a search trying a move the ruleset fails on; an agent from a file failing
            why = str(err) if isinstance(bot, FileAgent) else f"the ruleset failed while it tried its moves: {told_to_seats(err)}"
            self.console.print(f"{render.seat_label(self.state, seat, own=False)} [{bot.name}] could not decide: {why}; "
                               "the game stops here", style="bold")
            self.failed = True
            return False
        shown = self.state.public_text(action)  # what the humans may see of it
        self.console.print(f"{render.seat_label(self.state, seat, own=False)} [{bot.name}]: {shown}")
        failure = self.apply_or_restore(action, shown)
        if failure is not None:
            self.console.print(f"{failure}; the game stops here", style="bold")
            self.failed = True
            return False
        self.print_new_log()
        self.watched(seat)
        return True

    def thinking(self, who: str, bot: Agent) -> AbstractContextManager[object]:
        """Says that ``who`` (a bot, the hint's) is deciding, while ``bot`` does: on a terminal a line with a spinner,
        erased once the move is printed (a search or a greedy bot may take seconds); elsewhere, or for a random bot,
        which decides at once, nothing.

        Example: ``with session.thinking("seat 2 [greedy]", bot): action = bot.choose(state)``.
        """
        if isinstance(bot, RandomAgent):
            return nullcontext()
        return self.console.status(Text(f"{who} is thinking..."), spinner="dots")  # Text: a [name] is not markup

    def apply_or_restore(self, action: Action | str, shown: str | None = None) -> str | None:
        """Apply a legal action; if the ruleset fails while carrying it out, the game is as it was (``State.apply``
        puts it back) and the reason is returned, told as the seats may read it: the action as ``shown`` (a bot's
        move as the humans see it), the error without what some seat may not see (:func:`told_to_seats`).

        An illegal action raises IllegalActionError and changes nothing, as ``State.apply`` does.
        """
        self.on_top()  # the moves so far known (a loaded game's told from its start) before this one is added
        before = self.state.clone()
        try:
            with ForcedPicks(self.state, telling=True) as forced:
                self.state.apply(action)
            self.told = forced
            self.grown.append(pile_growth(before, self.state))
            self.arrived.append(pile_arrivals(before, self.state))
        except IllegalActionError:
            raise
        except RulecraftError as err:
            return (f"the ruleset failed while playing '{action if shown is None else shown}': {told_to_seats(err)} "
                    "(the game is as it was before that move)")
        return None

    def watched(self, seat: int) -> None:
        """With ``watch``, the board after ``seat``'s move (while the game goes on and a bot decides next: a
        human's turn draws it, and the end draws the final position).

        The board (face-down pieces) and the zones :func:`cli.render.watched` adds are drawn as the only human sees them
        (everything open when bots play alone; with several humans, as the seat that moved sees them).
        """
        if not self.watch or self.state.is_terminal or self.state.seat_to_move not in self.bots:
            return  # a human decides next: their turn draws the position, once
        humans = [s for s in range(1, self.log.players + 1) if s not in self.bots]
        viewer = None if not humans else humans[0] if len(humans) == 1 else seat
        for part in render.watched(self.state, viewer, self.on_top(), self.came_from()):
            self.console.print(part)

    def human_turn(self, seat: int) -> bool:
        """Ask until a legal action is applied or a move is undone (True), or the human quits (False)."""
        self.draw(seat)
        while True:
            answer = ask(f"{render.seat_label(self.state, seat)}>")
            if answer is None or answer == "quit":
                self.console.print("stopped; the game is not over")
                return False
            if answer == "undo":
                if self.undo():
                    return True
                continue
            if self.command(answer, seat):
                continue
            error = self.try_action(answer)
            if error is None:
                self.watched(seat)
                return True
            if not error:  # the ruleset failed on the move, which was said; the game is as it was
                continue
            if is_number(answer):  # no number of the list, or an ambiguous one: say so first
                self.console.print(error, style="bold")
                self.list_matching(answer)
                continue
            if self.list_matching(answer):
                continue
            self.console.print(error, style="bold")

    def command(self, answer: str, seat: int) -> bool:
        """Handle ``help``, ``board``, ``hint`` and ``save FILE``; False when ``answer`` is not one."""
        word, _, rest = answer.partition(" ")
        if answer == "help":
            self.console.print(HELP)
        elif answer == "board":
            self.draw(seat)
        elif answer == "hint":
            self.show_hint()
        elif word == "save" and rest.strip():
            self.save(Path(rest.strip()))
        elif answer == "save":
            self.console.print("save where? type save FILE, for example save game.json")
        elif answer == "":
            count = len(self.state.legal_actions())
            self.console.print(f"type a number from 1 to {count}, an action, 'help' or 'quit'")
        else:
            return False
        return True

    def try_action(self, answer: str) -> str | None:
        """Apply the action numbered or written as ``answer``; the reason it is refused, if it is ("" once said)."""
        actions = menu(self.state)  # numbered as listed
        try:
            if is_number(answer):
                failure = self.apply_or_restore(numbered_action(actions, answer))
            else:
                failure = self.apply_or_restore(answer)
        except IllegalActionError as err:  # a text: its part of an action is listed first, if it names some
            return str(err) if is_number(answer) else why_typed_refused(self.state, answer, err)
        if failure is not None:
            self.console.print(failure, style="bold")
            return ""
        self.print_new_log()
        return None

    def list_matching(self, part: str) -> bool:
        """List the actions ``part`` names (with their numbers); False when none does: those at the cell ``part`` is
        as a whole (``1,1``, not ``11,1``; ``a1``, not ``a10``), else those whose text contains it (``CellNames.lists``).
        On a board that names its cells, a cell written ``x,y`` in ``part`` is looked for by its name (``4,1``: ``e2``)."""
        names = self.state.game.cell_names
        part = names.typed(part)
        found = sum(names.lists(part, str(a)) for a in self.state.legal_actions())
        if not found:
            return False
        self.console.print(f"{found} action{'s' * (found != 1)} contain{'s' * (found == 1)} '{part}':")
        self.console.print(render.numbered_actions(self.state, self.console.width, part))
        return True

    def undo(self) -> bool:
        """Take back the last human move and every move after it; False when there is none."""
        history = list(self.state.history or [])
        movers: list[int] = []
        replay(self.fresh_state(), history, lambda number, text, seat: movers.append(seat))
        human_moves = [i for i, seat in enumerate(movers) if seat not in self.bots]
        if not human_moves:
            self.console.print("nothing to undo: no human has moved yet")
            return False
        keep = human_moves[-1]
        asking = self.state.seat_to_move
        state = self.fresh_state()
        replay(state, history[:keep])
        # Only the human move taken back is named, as the seat asking may see it (another human's sealed bid is not
        # told); later moves may be bots' sealed choices.
        named = history[keep] if movers[keep] == asking else state.public_text(history[keep])
        self.state = state
        self.grown, self.arrived = self.grown[:keep], self.arrived[:keep]
        self.shown, self.held, self.printed_turn = len(state.log or []), [], state.turn_number
        taken = len(history) - keep
        self.console.print(f"took back {taken} move{'s' * (taken != 1)}, from '{named}' on")
        return True

    def on_top(self) -> frozenset[int]:
        """The piles laid on their top (:func:`cli.piles.laid_on_top`), listed from the bottom up as the browser's
        table lists them: told from each move played here, a loaded game's moves replayed once from its start."""
        history = self.state.history or []
        if len(self.grown) != len(history) or len(self.arrived) != len(history):  # a loaded game (or a move this
            self.grown, self.arrived, state = [], [], self.fresh_state()        # session did not play): from the start
            for action in history:
                before = state.clone()
                state.apply(action)
                self.grown.append(pile_growth(before, state))
                self.arrived.append(pile_arrivals(before, state))
        return laid_on_top(self.grown)

    def came_from(self) -> dict[int, int]:
        """The zone each component last came from into a pile of nobody's (:func:`cli.piles.played_from`), told from
        the moves as :meth:`on_top` tells them: a trick's cards are listed each with the role that played it."""
        self.on_top()
        return played_from(self.arrived)

    def fresh_state(self) -> State:
        """The game's starting position (recording its log and history)."""
        return self.state.game.new_state(players=self.log.players, seed=self.log.seed, record=True)

    def show_hint(self) -> None:
        """What the hint agent would play here, with its number in the list (or why it has none: the game goes on)."""
        try:
            with self.thinking(f"hint ({self.hint.name})", self.hint):
                action = self.hint.choose(self.state.clone())
        except RulecraftError as err:  # its search tried a move the ruleset fails on
            self.console.print(f"no hint ({self.hint.name}): the ruleset failed while it tried the moves: "
                               f"{told_to_seats(err)}", style="bold")
            return
        number = menu(self.state).index(action) + 1
        self.console.print(f"hint ({self.hint.name}): [{number}] {action}")

    def draw(self, seat: int) -> None:
        """The turn's heading, its lines so far, the board and zones as ``seat`` sees them, and the actions listed."""
        console = self.console
        state = self.state  # mid-effect, it shows what the effect has done so far
        console.rule(render.turn_rule(state, seat), style="dim")
        for line in render.log_lines(self.held):  # what the turn did before this decision: draws, upkeep
            console.print(line, style="dim")
        self.held = []
        if state.game.grid is not None:
            console.print(board_drawing.board(state, seat))
        for zone_line in zone_listing.zones(state, seat, self.on_top(), self.came_from()):
            console.print(zone_line)
        if state.pending is not None:
            console.print(f"{state.pending.words}:")
        else:
            for line in state.game.steps[state.step].situation(state):  # e.g. the dice just rolled
                console.print(line, style="bold")
        console.print(render.numbered_actions(self.state, console.width))

    def print_new_log(self) -> None:
        """The log's lines not printed yet, each choice of one option the last move took told where it was taken;
        when a human decides next in a turn begun among them, the turn's lines are held for :meth:`draw` to print
        under the turn's heading."""
        state = self.state
        lines = state.log or []
        new = self.told.merged(lines, self.shown) if self.told is not None else lines[self.shown:]
        told = self.told.told if self.told is not None else ()
        human_next = not state.is_terminal and state.seat_to_move not in self.bots
        if human_next:
            cut = turn_cut(state, self.shown, self.printed_turn, told)
            if cut is not None:  # a turn begun since the last lines printed
                new, self.held = new[:cut], [*self.held, *new[cut:]]
        marks = turn_marks(state, self.shown, self.printed_turn, len(new), told, current=not human_next)
        self.told = None
        for index, line in enumerate(render.log_lines(new)):
            if index in marks:  # a turn a human does not open with its rule: a bot's, or one that asked nobody
                self.console.print(turn_heading(state, marks[index]), style="dim")
            self.console.print(line, style="dim")
        self.shown, self.printed_turn = len(lines), state.turn_number

    def save(self, path: Path) -> bool:
        """Write the game so far as a log (its positions recomputed, as an undo may have changed them); False if it can't."""
        self.log.actions = list(self.state.history or [])
        self.log.seal(self.state.game)
        try:
            self.log.write(path)
        except WriteFailed as err:
            self.console.print(str(err), style="bold")
            return False
        n = len(self.log.actions)
        self.console.print(f"saved {n} action{'' if n == 1 else 's'} to {path}")
        return True


def ask(prompt: str) -> str | None:
    """A line of input (stripped), or None at the end of input; the prompt's control characters shown escaped."""
    try:
        answer: str = click.prompt(shown(prompt), default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        return None
    return answer.strip()


def parse_seats(entries: tuple[str, ...], players: int, seed: int) -> dict[int, Agent]:
    """The bots by seat from ``N=SPEC`` entries (``human`` or an agent spec); seat 1 is human by default.

    Raises ValueError naming a malformed entry, a seat out of range or an unknown agent.
    """
    specs = assign_seats(entries, players)
    register_agent_files(specs.values())
    bots = {}
    for seat, spec in specs.items():
        if spec.lower() == "human":
            continue
        try:
            bots[seat] = make_agent(spec, derive_seed(seed, seat))
        except ValueError as err:  # 'humn': a person was meant, whom the agents' list does not name
            near = did_you_mean(spec.strip().lower(), ["human"]) if ":" not in spec else None
            raise ValueError(f"{err}; or a person at the keyboard: {near}" if near else str(err)) from None
    return bots


def hint_agent(game: Game, spec: str | None, seed: int) -> Agent:
    """The agent behind ``hint``: ``spec``, or the search that suits the game (``ismcts:200`` where something is
    hidden, else ``mcts:200``).  A ``spec`` that is not an agent raises ValueError."""
    register_agent_files([spec] if spec else [])
    return make_agent(spec or default_search(game), derive_seed(seed, 0))  # seats use indices 1..players
