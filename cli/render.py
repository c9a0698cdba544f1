"""Drawing a game for the terminal with rich: the line over a decision, the numbered actions, the whole position a
seat sees (the board from :mod:`cli.board_drawing`, the zones from :mod:`cli.zone_listing`) and the outcome (a
simulation's report is drawn by :mod:`cli.report_tables`).

>>> winners_text(Outcome.from_scores((2, 1, 2)))
'seats 1 and 3 share the win'

Typical use::

    console = make_console()
    for part in position(state, seat=1):
        console.print(part)
    for line in outcome(state):
        console.print(line)
"""

from __future__ import annotations

from textwrap import wrap
from typing import TYPE_CHECKING, Mapping

from rich.console import Group, RenderableType
from rich.text import Text

from cli.board_drawing import board
from cli.console import make_console  # noqa: F401  (commands call it as render.make_console)
from cli.menu import menu
from cli.piece_labels import side_letters, sides_text, value_styles
from cli.web.sides import MOST_PICTURED, laid_sides, tile_sides
from cli.zone_listing import zones
from engine.blocks.grid import SquareGrid
from engine.blocks.outcome import Outcome, Ranking
from engine.core.showtext import and_list

if TYPE_CHECKING:
    from engine import State


def turn_rule(state: State, seat: int, own: bool = True) -> str:
    """The line over a decision: the turn, and the seat deciding; ``turn 2 of seat 2 (South): seat 1 (North) to
    decide`` when the seat is asked during another seat's turn (``choose(..., by = r)``: a challenge, a card to give
    up), each seat with its role (it read ``turn 2 (seat 2's): seat 1 to decide``).  ``own``: as :func:`seat_label`
    has it.

    >>> from types import SimpleNamespace as Seen
    >>> s = Seen(current_role="South", seat_of={"South": 2, "North": 1}, turn_number=5, game=Seen(roles=None))
    >>> turn_rule(s, 2), turn_rule(s, 1)
    ('turn 5: seat 2 (South) to play', 'turn 5 of seat 2 (South): seat 1 (North) to decide')
    """
    turn_seat = state.seat_of.get(state.current_role) if state.current_role is not None else None
    if turn_seat is None or turn_seat == seat:
        return f"turn {state.turn_number}: {seat_label(state, seat, own)} to play"
    return f"turn {state.turn_number} of {seat_label(state, turn_seat, False)}: {seat_label(state, seat, own)} to decide"


def seat_label(state: State, seat: int, own: bool = True, role: str | None = None) -> str:
    """``seat 2 (North)``: a seat and the role it is playing now (or ``role``, one it played: a past turn's).  The
    role playing now is the one whose turn it is, or, for a seat asked in another's turn (a doubt, a challenge),
    the one role it plays: ``seat 2 (South) [random]: choose doubt`` read ``seat 2 [random]``.

    ``own``: the label is shown to that seat itself; to the others, hidden
    roles (``roles: {hidden: true}``) are left out.  A ruleset without
    ``roles`` plays roles named for the seats: ``seat 2``, not ``seat 2 (seat2)``.
    A seat asked during another's turn (``choose(..., by = r)``) is named with
    the role it plays, when it plays one.
    """
    if role is None:
        role = state.current_role
        if role is not None and state.seat_of.get(role) != seat:  # asked during another's turn: the role it plays
            played = [r for r, s in state.seat_of.items() if s == seat]
            role = played[0] if len(played) == 1 else None
    roles = state.game.roles
    if not own and roles is not None and roles.hidden:
        return f"seat {seat}"
    named = role and role != f"seat{seat}" and state.seat_of.get(role) == seat
    return f"seat {seat} ({role})" if named else f"seat {seat}"


LISTED = 60
"""The most actions listed at once; beyond it the list is cut and the human told how to narrow it."""


def numbered_actions(state: State, width: int, only: str = "") -> RenderableType:
    """The legal actions as ``[n] text``, in as many columns as fit in ``width`` when there are many.

    ``only``: just the actions it names, with their own numbers: those at the cell it is as a whole, else those whose
    text contains it, in any case (``CellNames.lists``).  A list longer than :data:`LISTED` is cut, with a line
    saying how to see the rest.
    """
    listed = menu(state)  # a hand's cards in the hand's order
    numbered = [(i, str(action)) for i, action in enumerate(listed, 1)]
    if only:
        numbered = [(i, text) for i, text in numbered if state.game.cell_names.lists(only, text)]
    items = [Text(f"[{i}] {text}") for i, text in numbered[:LISTED]]
    tiles = tile_sides(state.game, 4) if isinstance(state.game.grid, SquareGrid) and len(listed) <= MOST_PICTURED else {}
    if tiles:  # a tile with sides: how it would lie, as the board draws it, after the action's text
        letters, styles = side_letters(state.game, tiles), value_styles(state.game)
        pad = max((len(item.plain) for item in items), default=0) + 2
        for item, (i, _) in zip(items, numbered):
            sides = laid_sides(state, listed[i - 1], tiles)
            if sides is not None:
                item.pad_right(pad - len(item.plain))
                item.append_text(sides_text(sides, letters, styles))
    widest = max((len(item.plain) for item in items), default=1) + 3
    columns = 1 if len(items) <= 12 else max(1, min(width // widest, 4))
    table = Group(*in_columns(items, columns))
    if len(numbered) <= LISTED:
        return table
    more = Text("\n".join(wrap(f"... and {len(numbered) - LISTED} more: type part of an action (e.g. a cell such as 3,4) "
                               "to list only the actions that contain it", max(width, 20))), style="dim")  # no line ends in a space
    return Group(table, more)


def in_columns(items: list[Text], columns: int, gap: int = 3) -> list[Text]:
    """``items`` down ``columns`` columns, ``gap`` spaces apart, one line per row: no line ends in spaces (a table
    padded every short option out to its column's width, a one-column menu too).

    >>> [line.plain for line in in_columns([Text("[1] a"), Text("[2] bcd"), Text("[3] e")], 2)]
    ['[1] a     [3] e', '[2] bcd']
    """
    rows = -(-len(items) // columns)
    starts = [0]
    for c in range(columns - 1):
        starts.append(starts[-1] + max((len(item.plain) for item in items[c * rows:(c + 1) * rows]), default=0) + gap)
    lines = []
    for r in range(rows):
        line = Text()
        for start, item in zip(starts, items[r::rows]):
            line.append(" " * (start - len(line.plain)))
            line.append_text(item)
        lines.append(line)
    return lines


def watched(state: State, seat: int | None, on_top: frozenset[int] = frozenset(),
            came_from: dict[int, int] | None = None) -> list[RenderableType]:
    """What ``--watch`` draws after a move: the board, or the zones of a game without one — and its zones too while
    no piece is on the board (a map whose lands are held in zones draws an empty board, which tells nothing);
    ``on_top`` and ``came_from`` as :func:`zones` reads them."""
    game = state.game
    if game.grid is None:
        return list(zones(state, seat, on_top, came_from))
    if game.board_zone >= 0 and not state.zones[game.board_zone]:
        return position(state, seat, on_top, came_from)
    return [board(state, seat)]


def position(state: State, seat: int | None, on_top: frozenset[int] = frozenset(),
             came_from: dict[int, int] | None = None) -> list[RenderableType]:
    """The board (with its legend) and the zones as ``seat`` sees them (None: all of them); ``on_top`` and
    ``came_from`` as :func:`zones` reads them."""
    parts: list[RenderableType] = [board(state, seat)] if state.game.grid is not None else []
    return parts + list(zones(state, seat, on_top, came_from))


def outcome(state: State) -> list[str]:
    """The scores and who won, each seat with the roles it plays as the other lines name them (``seat 2 (South)``,
    as :func:`seat_label` does; hidden roles left out); in teams each team's score once, with its seats (``team 1
    (seats 1 and 3): 25``: each seat scores its team's total); the scoring details are in the game's log."""
    result = state.outcome
    if result is None:
        return ["the game is not over"]
    roles = seat_roles(state)
    if len(result.teams) > 1:  # each seat scores its team's total: said once a team, not as if each seat had scored it
        scores = ", ".join(f"team {n} (seats {and_list([f'{seat}{_roles_after(roles, seat)}' for seat in team])}): "
                           f"{result.scores[team[0] - 1]}" for n, team in enumerate(result.teams, 1))
    else:
        scores = ", ".join(f"seat {i + 1}{_roles_after(roles, i + 1)}: {s}" for i, s in enumerate(result.scores))
    lines = [f"game over; scores: {scores}", winners_text(result, roles, state.game.cooperative(state.players))]
    if result.ended == "end condition":
        lines += ended_because(state)
    broken = tie_broken(result)
    if broken:
        lines.append(broken)
    keys = ranking_keys(state)
    if keys:
        lines.append(keys)
    if result.ended == "turn limit":  # not by a rule of the game: say so, or it reads as a real ending
        lines.append(f"stopped by the turn limit (end: max_turns, {state.game.max_turns}): 'end: when' never held")
    return lines


def ended_because(state: State) -> list[str]:
    """Why a game its ``end: when`` ended did end: the parts of the condition that hold, in words, with the values
    of the options they name (a draw after 60 turns said only ``a draw``); none where no part holds (the game
    ended otherwise).

    >>> import engine
    >>> state = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> ended_because(state)  # the game goes on
    []
    """
    reasons = state.game.end_reasons(state)
    if not reasons:
        return []
    words = {word for reason in reasons for word in reason.replace(",", " ").replace(")", " ").split()}
    named = [f"{name} {value}" for name, value in state.game.options.items() if name in words]
    return [f"ended because {' and '.join(shortened(reason) for reason in reasons)}" + (f" ({', '.join(named)})" if named else "")]


def ranking_keys(state: State) -> str:
    """What the numbers in brackets of a ranking's lines are (``1. North [3, 2]: 1 point to seat 1``, the game over's
    lines of the log): the ranking's keys in words, from the game's ``by``; "" where no ranking scored the game.
    The log's words stay as they are (a position's checksum holds them, and saved games replay against it).

    >>> from types import SimpleNamespace
    >>> block = Ranking(None, 0, (), (1, 0), None, 1, ("the gold of r", "the gems of r"), items_text="r in roles")
    >>> done = SimpleNamespace(outcome=Outcome((1, 0), (1,), (1.0, 0.0), ranking=("a", "b")), players=2,
    ...                        game=SimpleNamespace(outcomes=[((2,), block)]))
    >>> print(ranking_keys(done))
    in the ranking, the [ ] of each r in roles hold: the gold of r, then (breaking ties) the gems of r
    """
    if state.outcome is None or not state.outcome.ranking:
        return ""
    block = next((b for counts, b in state.game.outcomes if state.players in counts), None)
    if not isinstance(block, Ranking) or not block.key_texts:
        return ""
    each = f" of each {block.items_text}" if block.items_text else ""
    first, *ties = [shortened(text) for text in block.key_texts]
    verb = "hold" if ties else "holds"
    return f"in the ranking, the [ ]{each} {verb}: {first}" + "".join(f", then (breaking ties) {text}" for text in ties)


def shortened(words: str) -> str:
    """A condition's or a key's words, cut past :data:`KEY_WORDS` characters at a word's end, with ``…``: the
    functions they call are written out, and a paragraph of them stood under the winner.

    >>> shortened("the gold of r"), len(shortened("the gold of r " * 40)) <= KEY_WORDS + 1
    ('the gold of r', True)
    """
    if len(words) <= KEY_WORDS:
        return words
    return words[:KEY_WORDS].rsplit(" ", 1)[0].rstrip(",(") + "…"


KEY_WORDS = 160  # a ranking key's or an end's words past this many characters are cut


def tie_broken(result: Outcome) -> str:
    """Why the seats that won did, when a seat that lost scored as much (the ranking's later keys, or its order, broke
    the tie: ``scores: ... 4, ... 4`` over ``seat 2 wins`` read as a mistake); "" otherwise, and in teams.

    >>> tie_broken(Outcome((4, 4), (2,), (0.0, 1.0), ranking=("South", "North")))
    "tied on points: the ranking's later keys broke the tie (the last move's log gives each seat's keys)"
    >>> tie_broken(Outcome((0, 0), (2,), (0.0, 1.0)))  # no ranking: a rule named the winner
    ''
    """
    won = {result.scores[seat - 1] for seat in result.winners}
    lost = [score for seat, score in enumerate(result.scores, 1) if seat not in result.winners]
    if not result.ranking or len(result.teams) > 1 or len(won) != 1 or not lost or max(lost) != min(won):
        return ""
    if result.tie_by_order:
        return "tied on points and on every key of the ranking: the first place went by the order it lists them"
    return "tied on points: the ranking's later keys broke the tie (the last move's log gives each seat's keys)"


def seat_roles(state: State) -> dict[int, str]:
    """The roles each seat plays, joined by ', ' (``{1: 'North', 2: 'South'}``), for the lines told to every seat:
    none when roles are hidden (``roles: {hidden: true}``), and none named for its seat (``seat2``)."""
    roles = state.game.roles
    if roles is not None and roles.hidden:
        return {}
    played: dict[int, list[str]] = {}
    for role, seat in state.seat_of.items():
        if role != f"seat{seat}":
            played.setdefault(seat, []).append(role)
    return {seat: ", ".join(names) for seat, names in played.items()}


def _roles_after(roles: Mapping[int, str], seat: int) -> str:
    return f" ({roles[seat]})" if seat in roles else ""


def log_lines(lines: list[str]) -> list[str]:
    """Log lines indented under the action that caused them; a line's later lines (a game over's ranking, a place a
    line) indented under its first, after its label where it has a short one: they read as lines of their own.

    >>> print("\\n".join(log_lines(["a d6 is rolled: 3", "game over: 1. A [2]: 2 points to seat 1\\n2. B [0]: 0 points"])))
      a d6 is rolled: 3
      game over: 1. A [2]: 2 points to seat 1
                 2. B [0]: 0 points
    """
    return ["  " + line.replace("\n", "\n  " + " " * _hanging(line)) for line in lines]


def _hanging(line: str) -> int:
    """How far a log line's later lines stand in from its first: past its label (``game over: ``) when short, else 2.

    >>> _hanging("game over: 1. A"), _hanging("a long sentence that says a lot before it comes to: the point")
    (11, 2)
    """
    label = line.split("\n", 1)[0].find(": ")
    return label + 2 if 0 < label <= LABEL_WIDTH else 2


LABEL_WIDTH = 20
"""The longest label (``game over``) a log line's later lines are written past, under its text."""


def winners_text(result: Outcome, roles: Mapping[int, str] | None = None, together: bool = False) -> str:
    """Who won, as players read it: ``seat 2 wins``, ``nobody wins``, ``a draw: seats 1 and 2 tie`` when every seat
    shares the win, ``seats 1 and 2 win together`` when every seat wins in a cooperative game (``together``) or as one
    team, or when some seats win as one side (``winners: together``), else ``seats 1 and 3 share the win`` (the others
    lost); each seat followed by the roles it plays when
    ``roles`` names them (:func:`seat_roles`).  In teams (numbered as ``teams:`` lists them) the team wins, with its
    seats: ``team 1 wins: seats 1 and 3``, ``a draw: teams 1 and 2 tie: seats 1, 2, 3 and 4`` when every team shares
    the win, ``teams 1 and 2 share the win: ...`` when some do.

    >>> winners_text(Outcome.from_scores((3, 7)), {1: "North", 2: "South"})
    'seat 2 (South) wins'
    >>> winners_text(Outcome.from_scores((1, 1)), {1: "X", 2: "O"}), winners_text(Outcome.from_scores((1, 1)), together=True)
    ('a draw: seats 1 (X) and 2 (O) tie', 'seats 1 and 2 win together')
    >>> winners_text(Outcome.from_scores((2, 1, 0, 0)).for_teams(((1, 3), (2, 4))), {1: "X", 3: "Z"})
    'team 1 wins: seats 1 (X) and 3 (Z)'
    """
    named = [f"{seat}{_roles_after(roles or {}, seat)}" for seat in result.winners]
    if not named:
        return "nobody wins"
    seats = f"seat {named[0]}" if len(named) == 1 else f"seats {and_list(named)}"
    if len(result.teams) > 1 and not together:
        won = [str(n) for n, team in enumerate(result.teams, 1) if set(team) & set(result.winners)]
        if len(won) == 1:
            return f"team {won[0]} wins: {seats}"
        teams = f"teams {and_list(won)}"
        return f"a draw: {teams} tie: {seats}" if len(won) == len(result.teams) else f"{teams} share the win: {seats}"
    if len(named) == 1:
        return f"{seats} wins"
    if len(named) < len(result.scores):
        return f"{seats} win together" if result.together else f"{seats} share the win"
    return f"a draw: {seats} tie" if result.is_draw and not together else f"{seats} win together"


def run_changes(variants: list[str], set_options: dict[str, str]) -> str:
    """What a run changed from the ruleset as written: `` (variant a+b, width=4)``, or nothing.

    >>> run_changes(["short"], {"width": "4"}), run_changes([], {})
    (' (variant short, width=4)', '')
    """
    parts = [f"variant {'+'.join(variants)}"] if variants else []
    parts += [f"{name}={text}" for name, text in set_options.items()]
    return f" ({', '.join(parts)})" if parts else ""


