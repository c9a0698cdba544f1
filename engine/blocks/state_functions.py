"""Effect-language functions that read or change a game's state.

They are generic — zones, boards, roles, faces — and every ruleset's
vocabulary offers them (:data:`STATE_FUNCTIONS`), with the pure functions of
:mod:`engine.lang.functions`.  The ruleset's own vocabulary (which roles,
zones and attributes exist) comes from :mod:`engine.compiling.vocabulary`.

>>> from engine.lang.functions import by_name
>>> by_name(STATE_FUNCTIONS)["largest_group"].signature
'largest_group(x in COLLECTION [where CONDITION]) -> int'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from operator import countOf
from typing import Any, ClassVar, Sequence

from engine.blocks.enumeration import out_of_reach
from engine.blocks.placement import Placed, note_placed
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.core.showtext import breaking_character, invisible_character
from engine.core.facedown import NOBODY, back_label, hidden_from, public_name, told_name, turn_down
from engine.core.kept_cells import kept_cells
from engine.core.slices import NO_CHANCE, Chance, TurnOrder
from engine.lang import ast, codegen, shared
from engine.lang.codegen import Code
from engine.lang.fixed import fixed_filter, unkept
from engine.lang.functions import Function, as_selection, board_by_value, describe_selection, unknown_options
from engine.lang.scope import DRAWS, Compiled, Fn, Scope
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, CELL, EFFECT, INT, SEAT, STR, ZONE, Component, ListOf, Type


def role_type(scope: Scope) -> Type:
    """The type of the ruleset's roles (its ``roles: {of: TYPE}``), or any."""
    return scope.vocab.data.get("role_type", ANY)


@dataclass(frozen=True)
class OneArgument(Function):
    """A function of one argument: ``read(state, value)`` is what it computes, ``words`` its English."""

    result: Type = INT
    argument: str = "role"  # "role", "seat" or "item": what the argument must be
    words: str = "{}"
    code: ClassVar[str | None] = None  # the read as Python source over "{}", the argument (None: a call of ``read``)

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        wanted = {"role": role_type(scope), "seat": INT}.get(self.argument)
        if not args:
            return Compiled(self.result, self.closure(lambda s, e: None))
        argument = args[0].compile(scope) if wanted is None else self.value(scope, args[0], wanted, self.argument)
        text, consts = codegen.expr(argument)
        if self.code is not None:
            return Compiled(self.result, self.closure(argument.fn), code=Code(self.code.format(text), None, consts))
        read = codegen.fresh(shared.READ)  # ``read`` changes nothing and spends no step
        return Compiled(self.result, self.closure(argument.fn), code=Code(f"{read}(s, {text})", None, consts + ((read, self.read),)))

    def closure(self, argument: Any) -> Any:
        """The compiled call: ``read`` of what the ``argument`` closure gives (a subclass may read in the same call)."""
        read = self.read
        return lambda s, e: read(s, argument(s, e))

    def read(self, s: Any, value: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self, call: ast.Call) -> str:
        return self.words.format(call.args[0].describe() if call.args else "?")


class SeatArgument(OneArgument):
    """A function of a seat, said "of seat 2" for a plain seat and "of the seat of r" otherwise."""

    def describe(self, call: ast.Call) -> str:
        arg = call.args[0] if call.args else None
        if arg is None or isinstance(arg, (ast.Literal, ast.Name)):
            return super().describe(call)
        return self.words.replace("seat {}", "{}").format(arg.describe())


class Seated(OneArgument):
    """``seated(r)``: whether a seat plays role ``r`` (``if seated(r) then ...``)."""

    code = "(s.seat_of.get({}, 0) != 0)"

    def read(self, s: Any, role: Any) -> bool:
        return s.seat_of.get(role, 0) != 0

    def closure(self, argument: Any) -> Any:
        return lambda s, e: s.seat_of.get(argument(s, e), 0) != 0


class Seat(OneArgument):
    """``seat(r)``: the seat that plays role ``r``, 0 when none does (``seat(current_role) == 1``)."""

    code = "s.seat_of.get({}, 0)"

    def read(self, s: Any, role: Any) -> int:
        return s.seat_of.get(role, 0)

    def closure(self, argument: Any) -> Any:
        return lambda s, e: s.seat_of.get(argument(s, e), 0)


class Team(SeatArgument):
    """``team(n)``: the team of seat ``n``, numbered from 1 as the ruleset lists its teams (each seat its own team
    without teams): ``team(me) == team(seat(r))``."""

    def read(self, s: Any, seat: Any) -> int:
        teams = s.game.teams.get(s.players)
        if not teams or not isinstance(seat, int):
            return seat if isinstance(seat, int) else 0
        return team_numbers(teams).get(seat, 0)


@functools.lru_cache(maxsize=64)
def team_numbers(teams: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """Each seat's team, numbered from 1 in the order of ``teams`` (a seat listed twice is in the first).

    >>> team_numbers(((1, 3), (2, 4)))
    {1: 1, 3: 1, 2: 2, 4: 2}
    """
    numbers: dict[int, int] = {}
    for i, team in enumerate(teams, 1):
        for seat in team:
            numbers.setdefault(seat, i)
    return numbers


class TurnPosition(OneArgument):
    """``turn_position(r)``: where role ``r`` comes in the turn order, from 1 (0 when it is not in it: nobody plays it, or it left)."""

    def read(self, s: Any, role: Any) -> int:
        return s.order.index(role) + 1 if role in s.order else 0


class HasLeft(OneArgument):
    """``has_left(r)``: whether role ``r`` has left the turn order (``leave(r)``)."""

    def read(self, s: Any, role: Any) -> bool:
        return role in s.left_roles()


@dataclass(frozen=True)
class Leave(Function):
    """``leave(ROLE)``: the role leaves the turn order (for good, unless ``rejoin(ROLE)`` brings it back); its turns are
    passed over, the rest of this one too.

    It stays in the game otherwise: its components, counters and score remain, and ``has_left(r)`` tells.
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        role = self.value(scope, args[0], role_type(scope), "role").fn if args else (lambda s, e: None)

        def leave(s: Any, e: list[Any]) -> None:
            who = role(s, e)
            left = s.left_roles()
            if who is None or who in left or who not in s.order:
                return
            s.slices[TurnOrder.block] = s.slices.get(TurnOrder.block, TurnOrder())._replace(left=left + (who,))
            s._actions = None
            s.note(lambda: f"{who} leaves the turn order")

        return Compiled(EFFECT, leave)

    def describe(self, call: ast.Call) -> str:
        return f"{call.args[0].describe()} leaves the turn order" if call.args else "leave"


@dataclass(frozen=True)
class Rejoin(Function):
    """``rejoin(ROLE)``: a role that left the turn order (``leave(r)``) comes back into it, its turns taken again from
    the next time the order reaches it — a player out of a round, dealt in for the next.  A role that has not left, or
    that no seat plays, changes nothing.  Example, at a round's end::

        for r in roles where has_left(r):
          rejoin(r)
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        role = self.value(scope, args[0], role_type(scope), "role").fn if args else (lambda s, e: None)
        note_turn_change(scope, call, "rejoin()")

        def rejoin(s: Any, e: list[Any]) -> None:
            who = role(s, e)
            left = s.left_roles()
            if who is None or who not in left:
                return
            part = s.slices[TurnOrder.block]._replace(left=tuple(r for r in left if r != who) or None)
            if part == TurnOrder():
                del s.slices[TurnOrder.block]
            else:
                s.slices[TurnOrder.block] = part
            s._actions = None
            s.note(lambda: f"{who} rejoins the turn order")

        return Compiled(EFFECT, rejoin)

    def describe(self, call: ast.Call) -> str:
        return f"{call.args[0].describe()} rejoins the turn order" if call.args else "rejoin"


NOT_IN_SETUP = ("{} gives the next turn during play, not in setup: the first turn goes to the ruleset's first_seat "
                "(a seat, an option, lowest-roll or highest-roll), or to the role setup names with play_next(ROLE)")
"""play_again() in setup would act only after the first turn: refused, naming what chooses who starts."""

TURN_CHANGES = "turn changes"
"""The vocabulary's list of the calls that change who takes the next turn (``play_again()``, ``play_next()``) and where
they are: a ruleset whose sealed rounds reveal on the last player's turn refuses them (see engine.blocks.slots)."""


def note_turn_change(scope: Scope, call: ast.Call, name: str) -> None:
    """Keep where ``name`` (a call that changes who takes the next turn) is called, for the checks that need it."""
    scope.vocab.data.setdefault(TURN_CHANGES, []).append((name, call.pos))


@dataclass(frozen=True)
class Say(Function):
    """``say("the pot boils over")``: a line of the game's log in the ruleset's own words, as written (every seat
    reads the log, so it tells what everyone may know); the text is written in quotes, with no line break or other
    control character, and nothing in it is filled in."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if scope.pure:
            scope.error(call.pos, "say() writes a line of the log, which a condition or score can't do",
                        "say it in a program (an effect, setup)")
        if not args:
            return Compiled(EFFECT, lambda s, e: None)
        said = self.value(scope, args[0], STR, "text")
        written = said.fn(None, []) if said.constant else None
        words = written if isinstance(written, str) else ""  # say(none): no words either
        problem = _said_wrong(words if said.constant else None) if STR.accepts(said.type) else None  # else: its type's
        if problem is not None:
            scope.error(args[0].pos, *problem)

        def say(s: Any, e: list[Any]) -> None:
            s.note(lambda: words)

        return Compiled(EFFECT, say)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        return f"say {args[0].describe()}" if args else "say"


SAID_MOST = 300
"""The most characters the text of ``say()`` may hold: one line of the log, the terminal and the page."""


def _said_wrong(words: str | None) -> tuple[str, str] | None:
    """What is wrong with the text of ``say()``, ``words`` (None: not written in quotes), and how to write it; None
    when it is one line of words, written as it is to be read.

    >>> _said_wrong("the pot boils over") is None, _said_wrong("a {name} b")[0]
    (True, 'the text of say() is written as it is: a name in braces is not filled in')
    """
    if words is None or not words.strip():
        return "say() writes its text as written: put the words in quotes", 'say("the pot boils over")'
    bad = breaking_character(words)
    if bad is not None:
        return (f"the text of say() holds a line break or another control character ({repr(bad)[1:-1]}): it is one "
                "line of the log", 'say("the pot boils over")')
    hidden = invisible_character(words)
    if hidden is not None:
        return (f"the text of say() holds a character that is not seen where it stands ({repr(hidden)[1:-1]}, a "
                "bidirectional control, zero-width or other format character): the log would read otherwise than "
                "it is written", "write the words with letters, digits, spaces and signs")
    if len(words) > SAID_MOST:
        return (f"the text of say() is {len(words):,} characters long, more than {SAID_MOST:,}: it is one line of "
                "the log", "say it in fewer words; counters and zones show the rest")
    if re.search(r"\{[^{}]*[^{}\s][^{}]*\}", words):
        return ("the text of say() is written as it is: a name in braces is not filled in",
                "say what happened in the same words each time; counters and zones show the rest")
    return None


@dataclass(frozen=True)
class PlayAgain(Function):
    """``play_again()``: the role whose turn it is takes the next turn too, once (calling it again changes nothing).

    The turn order goes on from that role afterwards; a role that leaves the turn order in the same turn is passed
    over all the same.
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        self.arity(call, scope, 0)
        pos = call.pos
        note_turn_change(scope, call, "play_again()")

        def play_again(s: Any, e: list[Any]) -> None:
            if s.step < 0:
                raise EffectRuntimeError(NOT_IN_SETUP.format("play_again()"), pos)
            part = s.slices.get(TurnOrder.block, TurnOrder())
            if part.again:
                return
            s.slices[TurnOrder.block] = part._replace(again=True, next=None)
            s.note(lambda: f"{s.current_role} plays again")

        return Compiled(EFFECT, play_again)

    def describe(self, call: ast.Call) -> str:
        return "the player whose turn it is plays again"


@dataclass(frozen=True)
class PlayNext(Function):
    """``play_next(ROLE)``: the role takes the next turn, and the turn order goes on from it — the winner of a trick
    leads the next one; in setup, the first turn (the holder of the lowest card leads).  The last call of a turn (or
    ``play_again()``) decides; a role nobody plays, or one that has left the turn order, changes nothing.  Example, at
    the end of a trick::

        play_next(trick_winner())   # a function of the ruleset naming a role
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if len(args) != 1:  # told by arity()
            return Compiled(EFFECT, lambda s, e: None)
        role = self.value(scope, args[0], role_type(scope), "role").fn
        note_turn_change(scope, call, "play_next()")

        def play_next(s: Any, e: list[Any]) -> None:
            who = role(s, e)
            if who is None or who not in s.order or who in s.left_roles():
                return
            if s.step < 0:  # in setup, before any turn: the role takes the first turn
                s.turn = s.order.index(who)
                s.note(lambda: f"{who} takes the first turn")
                return
            part = s.slices.get(TurnOrder.block, TurnOrder())
            s.slices[TurnOrder.block] = part._replace(again=None, next=who)
            s.note(lambda: f"{who} plays next")

        return Compiled(EFFECT, play_next)

    def describe(self, call: ast.Call) -> str:
        return f"{call.args[0].describe()} plays next" if call.args else "play next"


class Score(SeatArgument):
    """``score(n)``: seat ``n``'s final score once the game is over, else 0."""

    def read(self, s: Any, seat: Any) -> int:
        o = s.outcome
        return o.scores[seat - 1] if o is not None and isinstance(seat, int) and 1 <= seat <= len(o.scores) else 0


class Points(OneArgument):
    """``points(x)``: the points the final ranking paid ``x`` (a role, a team, an item ranked), else 0."""

    def read(self, s: Any, item: Any) -> int:
        return s.outcome.points.get(str(item), 0) if s.outcome is not None else 0


class Rank(OneArgument):
    """``rank(x)``: ``x``'s place in the final ranking, from 1, once the game is over (0 before, or when unranked)."""

    def read(self, s: Any, item: Any) -> int:
        o = s.outcome
        return o.ranking.index(str(item)) + 1 if o is not None and str(item) in o.ranking else 0


@dataclass(frozen=True)
class LargestGroup(Function):
    """The size of the largest connected group of selected pieces on the board."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        sel = as_selection(args[0]).compile_parts(scope)
        items = sel.items

        def largest(s: Any, e: list[Any]) -> int:
            cell_of = s.cell_of
            return s.game.grid.largest_group([cell_of[c] for c in items(s, e) if cell_of[c] is not None])

        kind = board_by_value(sel, scope)
        if kind is None:
            return Compiled(INT, largest)
        (_, right, _), = sel.fast  # type: ignore[misc]

        def largest_kept(s: Any, e: list[Any]) -> int:
            """``x in board where x.attr == v``: the cells the state keeps for ``v`` (each one piece while nothing is
            stacked)."""
            if s.stacks:
                return largest(s, e)
            cells = kept_cells(s, kind).get(right(s, e))
            return 0 if not cells else s.game.grid.largest_group(cells)

        return Compiled(INT, largest_kept)

    def describe(self, call: ast.Call) -> str:
        return f"the size of the largest connected group of {describe_selection(call.args[0])}" if call.args else "0"


@dataclass(frozen=True)
class GroupOf(Function):
    """``group_of(PIECE, x in COLLECTION [where CONDITION])``: the selected pieces on the board connected to PIECE's
    cell, each touching the next under the board's adjacency — a chain of stones from one edge to another, a group
    and its liberties.  Example: ``any(t.cell.y == 4 for t in group_of(s, x in board where x.colour == s.colour))``.
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(ANY_COMPONENT), lambda s, e: [])
        start = self.value(scope, args[0], ANY_COMPONENT, "piece").fn
        sel = as_selection(args[1]).compile_parts(scope)
        items = sel.items

        def group_of(s: Any, e: list[Any]) -> list[Any]:
            piece = start(s, e)
            cell_of = s.cell_of
            first = cell_of[piece] if piece is not None else None
            if first is None:  # not on the board: connected to nothing
                return []
            chosen = [c for c in items(s, e) if cell_of[c] is not None]
            cells = {cell_of[c] for c in chosen}
            if first not in cells:
                return []
            grid, reached, todo = s.game.grid, {first}, [first]
            while todo:
                for n in grid.neighbours(todo.pop()):
                    if n in cells and n not in reached:
                        reached.add(n)
                        todo.append(n)
            return [c for c in chosen if cell_of[c] in reached]

        item = sel.item_type if isinstance(sel.item_type, Component) else ANY_COMPONENT
        return Compiled(ListOf(item), group_of)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 2:
            return "a group"
        return f"the {describe_selection(call.args[1])} connected to {call.args[0].describe()}"


@dataclass(frozen=True)
class Walk(Function):
    """``walk(CELL, x in COLLECTION [where CONDITION])``: the cells a walk from CELL reaches over the board's
    adjacency, never stepping onto a cell where a selected piece stands — CELL first, then the others in the order the
    walk finds them.  The selected pieces bar the way, every other piece is walked over: the empty region around a
    cell (``walk(c, x in board)``), the squares a piece could still walk to between barriers.  Only on a board with
    edges (a growing board has no end to walk to).  Example::

        any(q.y == 0 for q in walk(p.cell, x in board where x.kind == "barrier"))
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(CELL), lambda s, e: [])
        start = self.value(scope, args[0], CELL, "first argument").fn
        sel = as_selection(args[1]).compile_parts(scope)
        if not scope.vocab.data.get("board_with_edges"):
            scope.error(call.pos, f"{self.name}() needs a board with edges, and this ruleset has none",
                        "give the board a width and a height (or make it hexes or points); on a growing board the "
                        "walk would never end")
            return Compiled(ListOf(CELL), lambda s, e: [])
        items, pos = sel.items, call.pos

        def walk(s: Any, e: list[Any]) -> list[Any]:
            first = start(s, e)
            if first is None:
                return []
            cell_of, around = s.cell_of, s.game.grid.around().get
            seen = {cell for c in items(s, e) if (cell := cell_of[c]) is not None}  # the barred cells: never entered
            seen.add(first)
            found = [first]
            add, append = seen.add, found.append
            for here in found:  # the list grows as the walk goes
                for n in around(here, ()):
                    if n not in seen:
                        add(n)
                        append(n)
            s.budget -= len(found)  # a board with edges has at most 10,000 cells: one walk always ends
            if s.budget < 0:
                raise ast.out_of_steps(s, pos, "walk")
            return found

        return Compiled(ListOf(CELL), walk)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 2:
            return "the cells reached"
        return f"the cells a walk from {ast.grouped(call.args[0])} reaches, never onto the cell of {describe_selection(call.args[1])}"


@dataclass(frozen=True)
class LongestLine(Function):
    """The length of the longest straight line of selected pieces on the board (on a board of points: of linked
    points, every link the same way)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        from engine.blocks.grid import LineMemo

        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(INT, lambda s, e: 0)
        sel = as_selection(args[0]).compile_parts(scope)
        items = sel.items
        if scope.vocab.data.get("geometry") == "points":  # straight runs of linked points

            def along_links(s: Any, e: list[Any]) -> int:
                cell_of = s.cell_of
                return s.game.grid.longest_line([cell for c in items(s, e) if (cell := cell_of[c]) is not None])

            return Compiled(INT, along_links)
        memos: dict[tuple[tuple[int, int], ...], LineMemo] = {}  # by the board's offsets: one per game, in practice

        def longest(s: Any, e: list[Any]) -> int:
            cell_of, offsets = s.cell_of, s.game.grid.offsets
            memo = memos.get(offsets) or memos.setdefault(offsets, LineMemo(offsets))
            return memo.longest([cell for c in items(s, e) if (cell := cell_of[c]) is not None])

        board = scope.vocab.data.get("board_zone")
        if (sel.fast is not None and isinstance(board, int) and sel.constant_source == board
                and all(row is not None for _, _, row in sel.fast)):
            made: list[Any] = [None, None]  # the board last seen and its kind of line: one board per game, in practice
            kept = _kept_longest(sel.fast, board, longest, made)
            right = sel.rights[0] if len(sel.fast) == 1 and sel.rights else None
            return Compiled(INT, kept, code=_kept_code(made, right, kept) if right is not None and scope.pure else None)
        return Compiled(INT, longest)

    def describe(self, call: ast.Call) -> str:
        return f"the length of the longest straight line of {describe_selection(call.args[0])}" if call.args else "0"


def _kept_code(made: list[Any], right: Code, kept: Fn) -> Code:
    """The source of ``longest_line(x in board where x.a == v)`` in code that changes nothing: the state's kept
    answer for ``v`` (``right``) read inline, ``kept`` called when there is none yet (or the board stacks).

    ``made`` holds the kind of line ``kept`` made for the board; answers the state keeps under it are the
    state's own, whichever board made it (the state keeps them for its pieces, along its board's lines).
    """
    value, consts = codegen.expr(Compiled(ANY, kept, code=right))
    n, lengths, k, m = codegen.fresh("t"), codegen.fresh("t"), codegen.fresh("k"), codegen.fresh("k")
    return Code(f"({n} if ({lengths} := s.lines.get({m}[1])) is not None and ({n} := {lengths}.get({value})) "
                        f"is not None else {k}(s, e))", None, consts + ((k, kept), (m, made)))


def _kept_longest(fast: tuple[tuple[Any, Fn, Any], ...], board: int, searched: Fn, made: list[Any]) -> Fn:
    """``longest_line(x in board where x.a == u [and x.b == v ...])``, attributes the same on every face: the answer
    the state keeps up to date (:mod:`engine.blocks.kept_lines`); ``searched`` on a board that stacks.  ``made``
    holds the board last seen and its kind of line (one board per game, in practice)."""
    from engine.blocks.kept_lines import LineKind, kept_longest

    if len(fast) == 1:
        (_, right, row), = fast
        rights, attributes = None, None
    else:
        rows, rights = [row for _, _, row in fast], [right for _, right, _ in fast]
        row, attributes = list(zip(*rows)), tuple(map(id, rows))  # each component's values, together

    def longest(s: Any, e: list[Any]) -> int:
        grid = s.game.grid
        if grid.stacking:
            return searched(s, e)
        if made[0] is not grid:
            made[:] = grid, LineKind(row, grid.offsets, attributes, grid.contains if grid.fixed else None)
        kind = made[1]
        value = right(s, e) if rights is None else tuple([right(s, e) for right in rights])
        lengths = s.lines.get(kind)
        n = None if lengths is None else lengths.get(value)
        return kept_longest(s, kind, board, value) if n is None else n

    return longest


@dataclass(frozen=True)
class At(Function):
    """``at(x, y)`` or ``at(cell)``: the piece on a board cell, or none."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1, 2)
        if len(args) == 2:
            cx, cy = (self.value(scope, a, INT, "coordinate") for a in args)
            x, y = cx.fn, cy.fn
            (left, lc), (right, rc) = codegen.expr(cx), codegen.expr(cy)
            return Compiled(ANY_COMPONENT, lambda s, e: s.grid.get((x(s, e), y(s, e))),
                            code=Code(f"s.grid.get(({left}, {right}))", None, lc + rc))
        if not args:
            return Compiled(ANY_COMPONENT, lambda s, e: s.grid.get((0, 0)), code=Code("s.grid.get((0, 0))"))
        c = self.value(scope, args[0], CELL, "cell")
        cell, (text, consts) = c.fn, codegen.expr(c)
        return Compiled(ANY_COMPONENT, lambda s, e: s.grid.get(cell(s, e)), code=Code(f"s.grid.get({text})", None, consts))

    def describe(self, call: ast.Call) -> str:
        return f"the piece at ({', '.join(a.describe() for a in call.args)})"


@dataclass(frozen=True)
class Neighbours(Function):
    """``neighbours(CELL)``: the cells touching CELL under the board's adjacency — on a board with edges (or of hexes)
    only those on it, none for a cell off it.  Example, a piece with an empty cell beside it (a liberty)::

        any(at(n) == none for n in neighbours(c.cell))
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        cell = self.value(scope, args[0], CELL, "cell").fn if args else (lambda s, e: None)

        def neighbours(s: Any, e: list[Any]) -> list[tuple[int, int]]:
            grid, here = s.game.grid, cell(s, e)
            if grid is None or here is None:
                return []
            if grid.fixed:
                return list(grid.neighbours(here))
            x, y = here  # a growing board: every adjacent cell, worked out here (the board's memo is for its pieces)
            return [(x + dx, y + dy) for dx, dy in grid.offsets]

        return Compiled(ListOf(CELL), neighbours)

    def describe(self, call: ast.Call) -> str:
        return f"the cells touching {call.args[0].describe()}" if call.args else "the cells touching"


@dataclass(frozen=True)
class Between(Function):
    """``between(A, B)``: the cells strictly between two cells on one straight line of the board's directions (its
    adjacency: along a row, a column or, with ``adjacency: all``, a diagonal; the six lines of a hex board), from
    A's side; an empty list when they are not on one such line, or are neighbours or the same cell.  Whether the
    way of a piece that slides from a to b is clear::

        all(at(c) == none for c in between(a, b))
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) < 2:
            return Compiled(ListOf(CELL), lambda s, e: [])
        a, b = self.value(scope, args[0], CELL, "first cell").fn, self.value(scope, args[1], CELL, "second cell").fn

        def between(s: Any, e: list[Any]) -> list[tuple[int, int]]:
            grid, start, end = s.game.grid, a(s, e), b(s, e)
            if grid is None or start is None or end is None:
                return []
            return cells_between(start, end, getattr(grid, "offsets", ()))

        return Compiled(ListOf(CELL), between)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        return (f"the cells strictly between {args[0].describe()} and {args[1].describe()} on a line" if len(args) == 2
                else "the cells between")


def cells_between(a: tuple[int, int], b: tuple[int, int], offsets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells strictly between ``a`` and ``b`` when ``b`` is whole steps of one of ``offsets`` from ``a`` (the
    shortest such step), from ``a``'s side; else none.

    >>> all8 = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    >>> cells_between((0, 0), (3, 3), all8), cells_between((4, 1), (1, 1), all8), cells_between((0, 0), (1, 2), all8)
    ([(1, 1), (2, 2)], [(3, 1), (2, 1)], [])
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    most, step = 0, (0, 0)
    for ox, oy in offsets:
        k = dx // ox if ox else dy // oy if oy else 0
        if k > most and k * ox == dx and k * oy == dy:
            most, step = k, (ox, oy)
    if most < 2:
        return []
    return [(a[0] + i * step[0], a[1] + i * step[1]) for i in range(1, most)]


def refill_short(s: Any, zone: int, wanted: int, pos: Any = None) -> None:
    """Before ``wanted`` components are drawn from ``zone``: when it holds fewer and declares ``refill: OTHER``, OTHER
    (the same role's, or the shared one) is shuffled and put under what is left, as a deck-builder's discard pile
    becomes a new deck when the deck runs out.  Each component shuffled spends a step of the budget."""
    g = s.game
    name = g.zone_spec_of[zone].refill
    if not name or len(s.zones[zone]) >= wanted:
        return
    other = g.zone_index.get((name, g.zone_owner[zone]))
    if other is None:
        other = g.zone_index.get((name, None))
    if other is None or not s.zones[other]:
        return
    s.budget -= len(s.zones[other])
    if s.budget < 0:
        raise ast.out_of_steps(s, pos, "refill")
    s.shuffle(other)
    if s.log is not None and s.step >= 0:
        s.log.append(f"{_zone_text(s, other)} is shuffled into {_zone_text(s, zone)}")
    for c in list(s.zones[other]):
        s.move(c, zone)


def _public(s: Any, zone: int) -> bool:
    """Whether every seat sees what a zone holds (the board, or a zone hidden from nobody)."""
    return zone == s.game.board_zone or s.game.zone_spec_of[zone].hidden == "none"


def _zone_text(s: Any, zone: int) -> str:
    return "the board" if zone == s.game.board_zone else s.game.zone_names[zone]


def moved_text(s: Any, chosen: list[int], zone: int, top: bool = False) -> str:
    """The log line of an effect's ``move()``: the components by name where everyone sees where they go or saw where
    they were, else a count.

    ``supply: a, b -> discard`` or ``supply: 2 components -> hand of A``; ``hand of A: a -> the top of discard`` (a
    card played from a hidden hand onto an open pile is seen by everyone once it lies there); ``row: a -> hand of A``
    (a card taken from an open row into a hidden hand was seen by everyone as it lay there).
    """
    g = s.game
    origins = sorted({s.zone_of[c] for c in chosen})
    where = ", ".join(_zone_text(s, z) for z in origins)
    if _public(s, zone) or all(_public(s, z) for z in origins):
        what = ", ".join(g.piece_names[c] for c in chosen)
    else:
        what = f"{len(chosen)} component{'s' if len(chosen) != 1 else ''}"
    return f"{where}: {what} -> {'the top of ' if top else ''}{_zone_text(s, zone)}"


def placed_text(s: Any, cid: int) -> str:
    """A component as a log line names it: by name and where it lies (``A at (1,0)``, ``A in discard``; a face-down
    piece by its back), or only where it lies when not every seat sees it there (``a component in hand of A``)."""
    g = s.game
    cell = s.cell_of[cid]
    if cell is not None:
        return f"{public_name(s, cid, g.piece_names[cid])} at {s.game.cell_text(cell, brackets=True)}"
    if _public(s, s.zone_of[cid]):
        return f"{g.piece_names[cid]} in {_zone_text(s, s.zone_of[cid])}"
    return f"a component in {_zone_text(s, s.zone_of[cid])}"


def flipped_text(s: Any, cid: int) -> str:
    """The log line of an effect's ``flip()``: ``A/B at (1,0) turned over, now B``."""
    g = s.game
    cell = s.cell_of[cid]
    if cell is not None and hidden_from(s, cid, NOBODY):  # a face-down piece: its back, not the face it turns to
        return f"{back_label(s, cid)} at {s.game.cell_text(cell, brackets=True)} turned over"
    if cell is not None:
        return f"{g.piece_names[cid]} at {s.game.cell_text(cell, brackets=True)} turned over, now {g.face_labels[cid][s.face[cid]]}"
    if _public(s, s.zone_of[cid]):
        return f"{g.piece_names[cid]} in {_zone_text(s, s.zone_of[cid])} turned over, now {g.face_labels[cid][s.face[cid]]}"
    return f"a component in {_zone_text(s, s.zone_of[cid])} turned over"


def tossed_text(s: Any, chosen: list[int]) -> list[str]:
    """The log lines of an effect's ``toss()``, one per place: the faces landed on where everyone sees them, else a
    count: ``tray: d6 as 5, d6 as 2 tossed``, ``hand of A: 1 component tossed``, ``d6 at (1,0) tossed, now 4``; a
    face-down piece by its back, without the face it landed on (``face-down die of A at (0,0) tossed``)."""
    g = s.game
    lines, zones = [], {}
    for c in chosen:
        cell = s.cell_of[c]
        if cell is not None and hidden_from(s, c, NOBODY):
            lines.append(f"{back_label(s, c)} at {s.game.cell_text(cell, brackets=True)} tossed")
        elif cell is not None:
            lines.append(f"{g.piece_names[c]} at {s.game.cell_text(cell, brackets=True)} tossed, now {g.face_labels[c][s.face[c]]}")
        else:
            zones.setdefault(s.zone_of[c], []).append(c)
    for zone, tossed in zones.items():
        if _public(s, zone):
            what = ", ".join(f"{g.piece_names[c]} as {g.face_labels[c][s.face[c]]}" for c in tossed)
        else:
            what = f"{len(tossed)} component{'s' if len(tossed) != 1 else ''}"
        lines.append(f"{_zone_text(s, zone)}: {what} tossed")
    return lines


def _counted(count: Fn, node: ast.Node, pos: SourcePos | None) -> Fn:
    """``move()``'s count, refused at the call when it is none (a number nobody sealed, an attribute not written) or
    below 0 (it moved nothing, silently).

    >>> _counted(lambda s, e: None, ast.Name(None, "bid"), None)(None, [])
    Traceback (most recent call last):
    engine.core.errors.EffectRuntimeError: bid has no value here (nothing is written for it), so move()'s count cannot use it
    """

    def counted(s: Any, e: list[Any]) -> int:
        n = count(s, e)
        if n is None:
            raise ast.no_value("move()'s count", ((node, n),), pos)
        if n < 0:
            raise ast.negative_count("move()'s count", node, n, pos)
        return n

    return counted


def _no_zone(word: str, node: ast.Node | None, pos: SourcePos | None) -> EffectRuntimeError:
    """The error for an effect given none where it needs a zone (``if ... then ZONE else none``).

    >>> str(_no_zone("shuffle()", ast.Name(None, "pile"), None))
    "shuffle() needs a zone, but 'pile' is none here"
    """
    return EffectRuntimeError(f"{word} needs a zone, but '{node.describe() if node is not None else 'it'}' is none here", pos)


@dataclass(frozen=True)
class Move(Function):
    """``move(c in cards where ..., zone)``: move each selected component to the end of a zone (``, n``: at most the
    first n; ``on_top = true``: to the top of the zone instead, the first selected on top)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, on_top_kw = call.positional(), call.keywords().get("on_top")
        if not unknown_options(self, call, scope, 2, 3, known=("on_top",)) and not 2 <= len(args) <= 3:
            scope.error(call.pos, f"move() takes 2 to 3 arguments, not {len(args)}", f"usage: {self.signature}")
        if not 2 <= len(args) <= 3:
            return Compiled(EFFECT, lambda s, e: None)
        on_top = self.value(scope, on_top_kw.value, BOOL, "on_top").fn if on_top_kw is not None else None
        selection = as_selection(args[0])
        parts = selection.compile_parts(scope)
        kept = fixed_filter(selection, parts.source, parts.where, parts.slot, scope) if isinstance(parts.item_type, Component) else None
        items = kept.items if kept is not None else unkept(parts.items)  # a filter reading only printed attributes: its answers kept
        limit = None
        if len(args) == 3:
            counted = self.value(scope, args[2], INT, "count")
            ast.refuse_negative_constant(scope, "move()'s count", args[2], counted)
            limit = _counted(counted.fn, args[2], call.pos)
        destination = self.value(scope, args[1], ZONE, "destination")
        zone, pos, to = destination.fn, call.pos, args[1]
        if destination.constant and destination.fn(None, []) == scope.vocab.data.get("board_zone"):
            scope.error(args[1].pos, "move() cannot put components on the board; use place(..., (x, y))")

        first = kept.first if kept is not None and limit is not None else None  # stops at the last one moved
        drawn = _drawn_from(selection, scope) if limit is not None else None  # the top N of a pile that may refill

        def move(s: Any, e: list[Any]) -> None:
            z = zone(s, e)
            if z == s.game.board_zone:
                raise EffectRuntimeError("move() cannot put components on the board; use place()", pos)
            if z is None:
                raise _no_zone("move()", to, pos)
            if drawn is not None and (src := drawn(s, e)) is not None and limit is not None:
                refill_short(s, src, limit(s, e), pos)
            if first is not None:
                chosen = first(s, e, limit)
            else:
                chosen = items(s, e)
                if limit is not None:
                    chosen = chosen[:max(limit(s, e), 0)]
            top = on_top is not None and on_top(s, e)
            if s.log is not None and chosen and s.step >= 0:
                s.log.append(moved_text(s, chosen, z, top))
            for i, c in enumerate(chosen):
                s.move(c, z, i if top else None)

        return Compiled(EFFECT, move)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) < 2:
            return "move"
        what, to = args[0], args[1].describe()
        on_top = call.keywords().get("on_top")
        if on_top is not None:
            to = f"the top of {to}" if isinstance(on_top.value, ast.Literal) else f"{to} (on top if {on_top.value.describe()})"
        if as_selection(what).var == "_":  # one item or a whole collection (a choice, a zone), not a selection
            return f"move {what.describe()} to {to}"
        if len(args) == 3:
            count = args[2]
            if isinstance(count, ast.Literal) and count.value == 1:
                return f"move the first {describe_selection(what)} to {to}"
            amount = count.describe() if isinstance(count, (ast.Literal, ast.Name)) else f"({count.describe()})"
            return f"move the first {amount} of {describe_selection(what)} to {to}"
        return f"move every {describe_selection(what)} to {to}"


def _drawn_from(selection: Any, scope: Scope) -> Fn | None:
    """The zone ``move(x in ZONE, to, N)`` draws the top N of, when some zone of the game declares ``refill`` (so that
    one running short is refilled first); None for a selection with a condition (a search, not a draw)."""
    refills = any(spec.refill for spec in scope.vocab.data.get("zone_specs", {}).values())
    if not refills or selection.where is not None or selection.value is not None or scope.reported_here:
        return None
    source = selection.source.compile(scope)
    if source.type is not ZONE:
        return None
    scope.reach.add(DRAWS)  # a refill shuffles
    return source.fn


@dataclass(frozen=True)
class PlaceOnBoard(Function):
    """``place(c in cards where ..., (x, y))``: put the selected component on a board cell.

    Identical components (``count:``) are interchangeable: when the selection
    holds only copies of one, the first is placed.  On a board with
    ``stacking`` it goes on top of any piece already there.

    With ``down`` (``place_down(..., CELL [, seen_by = ROLE])``, of the face-down block) the piece lands face down,
    seen by nobody or by ROLE's seat alone: no log line nor view shows it face up on the way (a secret set-up).
    """

    down: bool = False

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        if self.down:
            args, keywords = call.positional(), call.keywords()
            if len(args) != 2:
                scope.error(call.pos, f"{self.name}() takes 2 arguments besides seen_by, not {len(args)}",
                            f"usage: {self.signature}")
            for kw in keywords.values():
                if kw.name != "seen_by":
                    scope.error(kw.pos, f"{self.name}() has no option '{kw.name}'", f"usage: {self.signature}")
            by = keywords.get("seen_by")
            seer = self.value(scope, by.value, role_type(scope), "seen_by").fn if by else None
        else:
            args, seer = self.arity(call, scope, 2), None
        if len(args) != 2:
            return Compiled(EFFECT, lambda s, e: None)
        items = as_selection(args[0]).compile_parts(scope).items
        cell = self.value(scope, args[1], CELL, "cell").fn
        pos, down = call.pos, self.down

        def place(s: Any, e: list[Any]) -> None:
            chosen = items(s, e)
            names = s.game.piece_names
            if len(chosen) > 1 and countOf(map(names.__getitem__, chosen), names[chosen[0]]) == len(chosen):
                chosen = chosen[:1]  # copies of one piece (told in C)
            if len(chosen) > 1:
                named = list(dict.fromkeys(names[c] for c in chosen))
                some = ", ".join(named[:4]) + (", ..." if len(named) > 4 else "")
                seen = list(dict.fromkeys(told_name(s, c) or names[c] for c in chosen))  # as every seat may read them
                public = ", ".join(seen[:4]) + (", ..." if len(seen) > 4 else "")
                why = "; it needs exactly one, or copies of one piece (count:), any of which it places"
                told = None if public == some else f"{pos}: {self.name}() selected {len(chosen)} components ({public}){why}"
                raise EffectRuntimeError(f"{self.name}() selected {len(chosen)} components ({some}){why}", pos, told)
            if len(chosen) != 1:
                raise EffectRuntimeError(f"{self.name}() selected 0 components; it needs exactly one (nothing meets "
                                         f"the selection: is what it selects from empty?)", pos)
            where = cell(s, e)
            if where is None:
                raise EffectRuntimeError("place() was given no cell (none): nothing was chosen or found", pos)
            grid = s.game.grid
            if grid is not None and not grid.contains(where):
                raise EffectRuntimeError(f"place() onto {where}, which is not on the board", pos)
            if grid is not None and not grid.fixed and not grid.fits(s.bbox, where):  # a fixed board: on it, as checked
                raise EffectRuntimeError(f"place() onto {where}, which would take the board past its limits", pos)
            if grid is not None and (far := out_of_reach(grid, (where,), len(s.game.component_names))) is not None:
                raise EffectRuntimeError(f"place() onto {where}: {far}", pos)  # the cells a game's lists and saves know
            if where in s.grid and not (grid is not None and grid.stacking):
                raise EffectRuntimeError(f"place() onto {where}, which is already taken", pos)
            s.place(chosen[0], where)
            if down:
                turn_down(s, chosen[0], seer(s, e) if seer is not None else None)
            if s.step >= 0:  # during play (not setup): a later clash or group step acts on this piece
                s.slices[Placed.block] = Placed(chosen[0])
                note_placed(s, chosen[0])
                if s.log is not None:
                    shown = public_name(s, chosen[0], s.game.describe_piece(chosen[0], s.face[chosen[0]]))
                    s.log.append(f"{shown} is put at {s.game.cell_text(where, brackets=True)}")

        return Compiled(EFFECT, place)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) != 2:
            return "place"
        what, how = args[0], " face down" if self.down else ""
        by = call.keywords().get("seen_by")
        seen = f", seen only by {by.value.describe()}" if self.down and by is not None else ""
        if as_selection(what).var == "_":  # one item (a choice, first(...)), not a selection
            return f"place {what.describe()}{how} on the board at {args[1].describe()}{seen}"
        return f"place the {describe_selection(what)}{how} on the board at {args[1].describe()}{seen}"


@dataclass(frozen=True)
class Shuffle(Function):
    """``shuffle(deck)``: the zone in a new order; each component it reorders spends a step of the budget, as each
    item a selection looks at does (so ``repeat 100000: shuffle(deck)`` stops at its budget, not after hours)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        zone = self.value(scope, args[0], ZONE, "zone").fn if args else (lambda s, e: 0)
        scope.reach.add(DRAWS)
        pos, node = call.pos, args[0] if args else None

        def shuffle(s: Any, e: list[Any]) -> None:
            z = zone(s, e)
            if z is None:
                raise _no_zone("shuffle()", node, pos)
            s.budget -= len(s.zones[z])
            if s.budget < 0:
                raise ast.out_of_steps(s, pos, "shuffle")
            s.shuffle(z)
            if s.log is not None and s.step >= 0:  # during play: the order a reader saw is gone
                s.log.append(f"{_zone_text(s, z)} is shuffled")

        return Compiled(EFFECT, shuffle)

    def describe(self, call: ast.Call) -> str:
        return f"shuffle {call.args[0].describe()}" if call.args else "shuffle"


@dataclass(frozen=True)
class Flip(Function):
    """``flip(c in board where ...)``: turn each selected component over to its next face (``flip(d in stock(r))``)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(EFFECT, lambda s, e: None)
        items = as_selection(args[0]).compile_parts(scope).items

        def flip(s: Any, e: list[Any]) -> None:
            for c in items(s, e):
                s.flip(c)
                if s.log is not None and s.step >= 0:
                    s.log.append(flipped_text(s, c))

        return Compiled(EFFECT, flip)

    def describe(self, call: ast.Call) -> str:
        return f"flip every {describe_selection(call.args[0])}" if call.args else "flip"


@dataclass(frozen=True)
class Toss(Function):
    """``toss(x in C)``: each selected component lands on one of its faces at random (a die, a coin)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(EFFECT, lambda s, e: None)
        scope.reach.add(DRAWS)
        items = as_selection(args[0]).compile_parts(scope).items

        def toss(s: Any, e: list[Any]) -> None:
            counts, kinds = s.game.face_count, s.game.component_kind
            chosen = list(items(s, e))
            for c in chosen:
                s.show(c, s.roll(counts[c]) - 1)  # a roll: scenarios may load it like any die
                chance = s.slices.get(Chance.block, NO_CHANCE)
                if kinds[c] not in (chance.tossed or ()):
                    s.slices[Chance.block] = chance._replace(tossed=(*(chance.tossed or ()), kinds[c]))
            if s.log is not None and chosen:
                s.log.extend(tossed_text(s, chosen))

        return Compiled(EFFECT, toss)

    def describe(self, call: ast.Call) -> str:
        return f"toss every {describe_selection(call.args[0])} (each lands on a face at random)" if call.args else "toss"


@dataclass(frozen=True)
class ZoneOf(Function):
    """A per-role zone: ``hand(r)`` is role r's hand.  Made by the vocabulary for each such zone."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        compiled = self.value(scope, args[0], role_type(scope), "role") if args else Compiled(ANY, lambda s, e: None)
        role = compiled.fn
        index = scope.vocab.data["zone_index"]
        name, pos = self.name, call.pos

        def zone(s: Any, e: list[Any]) -> int:
            r = role(s, e)
            try:
                return index[(name, r)]
            except KeyError:
                raise EffectRuntimeError(f"there is no {name} of {'nothing' if r is None else r}", pos) from None

        code = None
        if scope.pure:  # a role without the zone is a KeyError, which the closure says in words (codegen.LOOKUP)
            (who, consts), (text, _), table = codegen.expr(compiled), codegen.constant(name), codegen.fresh("k")
            code = Code(f"{table}[({text}, {who})]", None, consts + ((table, index), (codegen.LOOKUP, True)))
        return Compiled(ZONE, zone, code=code)

    def describe(self, call: ast.Call) -> str:
        return f"the {self.name} of {call.args[0].describe()}" if len(call.args) == 1 else super().describe(call)


@dataclass(frozen=True)
class Owner(Function):
    """``owner(c)``: the role whose per-role zone holds a component, or none."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(role_type(scope), lambda s, e: None, code=Code("None"))
        compiled = self.value(scope, args[0], ANY_COMPONENT, "component")
        item = compiled.fn

        def owner(s: Any, e: list[Any]) -> Any:
            c = item(s, e)
            return None if c is None else s.game.zone_owner[s.zone_of[c]]

        return Compiled(role_type(scope), owner, code=codegen.guarded(compiled, "s.game.zone_owner[s.zone_of[{x}]]"))

    def describe(self, call: ast.Call) -> str:
        return f"the owner of {call.args[0].describe()}" if call.args else "the owner"


STATE_FUNCTIONS: tuple[Function, ...] = (
    Owner("owner", "owner(COMPONENT) -> role", "The role whose per-role zone (hand, pile ...) holds a component, or none.",
          "owner(c) == current_role"),
    Seated("seated", "seated(ROLE) -> bool", "Whether some seat plays the role.", "seated(r)", BOOL, words="{} is played by a seat"),
    Seat("seat", "seat(ROLE) -> seat", "The seat (1, 2, ...) that plays the role, 0 if none.", "seat(r) == 1", SEAT, words="the seat of {}"),
    Team("team", "team(SEAT) -> int", "The number of the seat's team (1, 2, ...; see `teams`); without teams the seat itself, 0 for no seat.",
         "team(seat(r)) == team(me)", INT, argument="seat", words="the team of seat {}"),
    TurnPosition("turn_position", "turn_position(ROLE) -> int", "The role's place in turn order (1 = first), 0 if nobody plays it.",
                 "turn_position(r)", INT, words="the turn position of {}"),
    LargestGroup("largest_group", "largest_group(x in COLLECTION [where CONDITION]) -> int",
                 "Size of the largest group of selected board pieces connected under the board's adjacency.",
                 "largest_group(c in board where c.value == v)"),
    Neighbours("neighbours", "neighbours(CELL) -> list of cell", "The cells touching CELL under the board's adjacency "
               "(on a board with edges, or of hexes, only those on it; on a board of points, the points linked to it).",
               "count(n in neighbours(c.cell) where at(n) == none)"),
    GroupOf("group_of", "group_of(PIECE, x in COLLECTION [where CONDITION]) -> list",
            "The selected board pieces connected to PIECE's cell, each touching the next under the board's adjacency "
            "(none when PIECE is not among them).", "group_of(c, x in board where x.value == c.value)"),
    Walk("walk", "walk(CELL, x in COLLECTION [where CONDITION]) -> list of cell",
           "The cells a walk from CELL reaches over the board's adjacency, never onto a cell where a selected piece "
           "stands (CELL first); only on a board with edges.", "walk(c, x in board where x.kind == \"barrier\")"),
    LongestLine("longest_line", "longest_line(x in COLLECTION [where CONDITION]) -> int",
                "Length of the longest straight line of selected board pieces, each next to the one before in one of "
                "the board's adjacency directions.",
                "longest_line(c in board where c.value == v) >= 3"),
    Between("between", "between(CELL, CELL) -> list of cell", "The cells strictly between two cells on one straight "
            "line of the board's directions (its adjacency), from the first one's side; none when they are not on "
            "one line.", "all(at(c) == none for c in between(a, b))"),
    At("at", "at(X, Y) or at(CELL) -> component", "The piece on a board cell, or none.", "at(0, 0).value == v"),
    Move("move", "move(x in COLLECTION [where CONDITION], ZONE [, COUNT] [, on_top = true])",
         "Move each selected component (or only the first COUNT) to the end of a zone, or with on_top = true to its "
         "top (the first selected on top).",
         "move(c in cards where c.front.value == r, hand(r))"),
    PlaceOnBoard("place", "place(x in COLLECTION where CONDITION, CELL)", "Put the one selected component (or the first of identical copies) on a board cell.",
                 "place(c in cards where c.id == \"first\", (0, 0))"),
    Shuffle("shuffle", "shuffle(ZONE)", "Shuffle a zone with the game's seeded generator.", "shuffle(deck)"),
    Flip("flip", "flip(x in COLLECTION [where CONDITION])", "Turn each selected component to its next face.", "flip(c in board where c.value == v)"),
    Toss("toss", "toss(x in COLLECTION [where CONDITION])",
         "Each selected component lands on one of its faces at random, like a die or a coin (a roll of the game's "
         "seeded generator, so a scenario's loaded dice decide it).", "toss(d in tray(current_role))"),
    Leave("leave", "leave(ROLE)", "The role leaves the turn order, for good unless rejoin(ROLE) brings it back: "
           "its turns (and the rest of this one, if it is its own) are passed over; it keeps its components, "
           "counters and score. A role not played "
           "by a seat, or that has left already, changes nothing.", "if gold(r) == 0: leave(r)"),
    HasLeft("has_left", "has_left(ROLE) -> bool", "Whether the role has left the turn order (see leave).",
            "count(r in roles where seated(r) and not has_left(r)) == 1", BOOL, words="{} has left the turn order"),
    Say("say", "say(TEXT)", "A line of the game's log in the ruleset's own words, as written in quotes (every seat "
        "reads it).", 'say("the pot boils over")'),
    Rejoin("rejoin", "rejoin(ROLE)", "A role that left the turn order comes back into it: its turns are taken again "
           "from the next time the order reaches it (a player out of a round, dealt in for the next). A role that "
           "has not left changes nothing.", "for r in roles where has_left(r): rejoin(r)"),
    PlayAgain("play_again", "play_again()", "The role whose turn it is takes the next turn too, once (the turn "
              "order goes on from it afterwards); a role that leaves the turn order meanwhile is passed over.",
              "if gained > 0: play_again()"),
    PlayNext("play_next", "play_next(ROLE)", "The role takes the next turn, and the turn order goes on from it "
             "(the winner of a trick leads the next); the last call of a turn, or play_again(), decides. In setup: "
             "the role takes the first turn.",
             "play_next(winner)"),
    Score("score", "score(SEAT) -> int", "A seat's final score (0 until the game is over).", "score(1) == 7",
          argument="seat", words="the score of seat {}"),
    Points("points", "points(ITEM) -> int", "The points a ranked item paid (0 until the game is over).", "points(r) == 3",
           argument="item", words="the points paid for {}"),
    Rank("rank", "rank(ITEM) -> int", "A ranked item's final rank, 1 = first (0 until the game is over).", "rank(r) == 1",
         argument="item", words="the rank of {}"),
)
"""The generic functions over roles, seats, zones and the board that every ruleset may call."""
