"""Positions seen before: ``times_seen()``, how many times the game has stood in the position it is in now.

A game that forbids repeating an earlier whole position (a superko) or ends drawn when a position comes a third time
reads the game's past, which code does not keep.  A ruleset with a ``repetition:`` section has the engine keep it:
after setup and after every turn it notes the position — the pieces on every cell by name and face, top to bottom
(identical copies alike), the values of the counters the section lists, and the role whose turn comes next — and
``times_seen()`` counts the notes of the position the game is in now::

    repetition:
      counters: [rights]          # counters that are part of a position besides the board (none by default)
    end:
      when: times_seen() >= 3     # the same position, the same player to move, for the third time

It counts the position as a turn leaves it (the role after the current one to move).  The note of a turn is made
before the end condition reads it, so ``end: when`` counts the position the turn left; a step's ``refuse_if_after``
and the turn's own effect read the position after the move before any note of it: ``times_seen() > 0`` there is a
move that would bring back an earlier position.  A ruleset without the section keeps nothing and pays nothing.

>>> Seen(("a1", "b2", "a1")).seen.count("a1"), Seen.block
(2, 'positions seen')
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.block import Block, declare
from engine.core.errors import SourcePos, did_you_mean
from engine.core.slices import TurnOrder
from engine.lang import ast
from engine.lang.budgets import out_of_steps
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import INT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView

KEY = "repetition"


class Seen(NamedTuple):
    """The positions noted so far, oldest first, each as a short digest (see :func:`position_key`)."""

    seen: tuple[str, ...] | None = None
    block = "positions seen"
    saved = ("positions seen",)


@dataclass(frozen=True)
class Repetition:
    """What a ruleset's ``repetition:`` says is part of a position besides the board: the slots of its counters."""

    slots: tuple[int, ...] = ()

    def note(self, s: "StateView", first: bool = False) -> None:
        """Note the position ``s`` is in: after setup (``first``: the role to move is the one whose turn it is), or
        at the end of a turn (the role whose turn comes next)."""
        part = s.slices.get(Seen.block)
        seen = part.seen if part is not None and part.seen is not None else ()
        s.slices[Seen.block] = Seen((*seen, position_key(s, self.slots, first)))

    def times_seen(self, s: "StateView") -> int:
        """How many of the notes are of the position ``s`` is in (the role whose turn comes next to move)."""
        part = s.slices.get(Seen.block)
        return 0 if part is None or part.seen is None else part.seen.count(position_key(s, self.slots, False))


def position_key(s: "StateView", slots: tuple[int, ...], first: bool) -> str:
    """A digest of the position: every cell's pieces by name and face, top first, the counters at ``slots`` and the
    role to move (``first``: the role whose turn it is; else the one whose turn comes after it)."""
    names, faces = s.game.piece_names, s.face
    board = sorted((cell, tuple((names[c], faces[c]) for c in s.stack(cell))) for cell in s.grid)
    role = s.order[s.turn] if first else _next_role(s)
    text = repr((board, tuple(s.counters[i] for i in slots), role))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def _next_role(s: "StateView") -> Any:
    """The role whose turn comes after this one, as the turn's end will give it (a play_again, a play_next, the
    roles that left), without spending what decides it."""
    part = s.slices.get(TurnOrder.block)
    if part is None:
        return s.order[(s.turn + 1) % len(s.order)]
    if part.again or part.next is not None:
        chosen = s.order[s.turn] if part.again else part.next
        if chosen not in (part.left or ()):
            return chosen
    return s.order[s.next_in_order()]


def compile_repetition(b: "BuildContext") -> None:
    """Read ``repetition:``: the counters it lists (each checked), and have the game note its positions."""
    spec = b.tree.get(KEY)
    if spec is None:
        return
    if not hasattr(spec, "get"):
        b.error(b.pos(b.tree, KEY), "'repetition' is a mapping: repetition: {counters: [NAME, ...]} (or {} for the "
                                    "board alone)")
        return
    for key in spec:
        if key != "counters":
            b.error(b.pos(spec, key), f"repetition has no key '{key}'",
                    "repetition: {counters: [NAME, ...]}: the counters that are part of a position besides the board")
    listed = spec.get("counters") or []
    if not isinstance(listed, list):
        b.error(b.pos(spec, "counters"), "repetition's counters are a list of counter names, like [rights]")
        listed = []
    slots: list[int] = []
    for i, name in enumerate(listed):
        counter = b.game.counters.get(str(name))
        if counter is None:
            b.error(b.pos(listed, i), f"unknown counter '{name}' in repetition's counters",
                    did_you_mean(str(name), b.game.counters))
            continue
        slots += range(counter.offset, counter.offset + len(counter.owners))
    repetition = b.game.parts[KEY] = Repetition(tuple(slots))
    b.game.record_position = repetition.note


@dataclass(frozen=True)
class TimesSeen(Function):
    """``times_seen()``: how many times the game has stood in the position it is in now (see the module)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        self.arity(call, scope, 0)
        pos = call.pos

        def times_seen(s: "StateView", e: list[Any]) -> int:
            repetition = s.game.parts.get(KEY)
            if repetition is None:
                return 0
            spend_on_board(s, len(s.grid), pos)
            return repetition.times_seen(s)

        return Compiled(INT, times_seen)

    def describe(self, call: ast.Call) -> str:
        return "the times the game has stood in this position"


def spend_on_board(s: Any, pieces: int, pos: SourcePos | None) -> None:
    """Spend a step of ``s``'s budget for each cell of the board holding pieces, and one more: ``times_seen()`` reads
    the whole board, as a selection of its pieces does.  Free, it was a thousand steps' work in one (a board of 2,500
    pieces took 40 ms a call), and a condition calling it for each of 9,000 numbers ran for minutes, not 100,000
    steps.

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(budget=10)
    >>> spend_on_board(s, 4, None); s.budget
    5
    """
    try:
        s.budget -= pieces + 1
    except AttributeError:  # no state: constant code folded while compiling, which spends nothing
        return
    if s.budget < 0:
        raise out_of_steps(s, pos, "times_seen(), which reads every piece on the board")


ADDED_FUNCTIONS = (
    TimesSeen("times_seen", "times_seen() -> int",
              "How many times the game has stood in the position it is in now, with the same player to move: after "
              "setup and after each turn (the turn just ended included, in the end condition).",
              "times_seen() >= 3"),
)


BLOCK = declare(Block(
    "repetition",
    keys={
        KEY: {
            "description": ("Keep the positions the game has been in, for `times_seen()`: after setup and after every "
                            "turn, the pieces on the board, the counters listed and the player to move. A game that "
                            "forbids an earlier position (superko) or is drawn on the third repetition."),
            "type": "object",
            "properties": {
                "counters": {
                    "description": "Counters that are part of a position besides the board (the rights a player still has, a point that may not be played).",
                    "type": "array",
                    "items": {"type": "string"},
                },
            },
            "additionalProperties": False,
            "examples": [{}, {"counters": ["rights"]}],
        },
    },
    functions=ADDED_FUNCTIONS,
    slices=(Seen,),
    compile=compile_repetition,
))
