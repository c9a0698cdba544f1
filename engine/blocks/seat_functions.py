"""Effect-language functions about the roles and their seats: who plays a role, teams, a seat's place in the
turn order, leaving and rejoining, playing again or next, what a player says, and scores and ranks.

They are part of every ruleset's vocabulary (:data:`engine.blocks.state_functions.STATE_FUNCTIONS`).

>>> team_numbers(((1, 3), (2, 4)))   # the seats of two teams of two: each seat's team
{1: 1, 3: 1, 2: 2, 4: 2}
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.errors import EffectRuntimeError
from engine.core.showtext import breaking_character, invisible_character
from engine.core.slices import TurnOrder
from engine.lang import ast, codegen, shared
from engine.lang.codegen import Code
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, EFFECT, INT, STR, Type


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
