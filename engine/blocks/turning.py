"""Pieces turned face down on the board and up again: ``place_down``, ``turn_down``, ``turn_up`` and ``face_up``.

A ruleset says ``face_down: true`` to use them (what a seat sees of a face-down piece, and how bots sample it, is
:mod:`engine.core.facedown`)::

    face_down: true
    setup: |
      shuffle(supply)
      for c in empty_cells:
        place(t in supply where t == first(supply), c)
      turn_down(t in board)                        # nobody sees them
    turn:
      - do:
          effect: |
            let a = choose(t in board where not face_up(t))   # offered as "face-down tile at 1,2"
            turn_up(t in board where t == a)       # everyone sees it now

``turn_down(x in board where ..., seen_by = r)`` leaves the piece seen by the seat playing ``r`` (a player's own
pieces, whose ranks the others may not see).  ``place_down(x in hand(r) where x == p, c, seen_by = r)`` puts a piece
from a hidden hand on the board face down at once, so that nothing shows it face up on its way (a secret set-up).

>>> [fn.name for fn in BLOCK.functions]
['place_down', 'turn_down', 'turn_up', 'face_up']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.blocks.block import BLOCKS, Block, declare
from engine.blocks.state_functions import PlaceOnBoard
from engine.blocks.seat_functions import role_type
from engine.core.errors import EffectRuntimeError
from engine.core.facedown import FaceDown, back_label, face_down, public_name, told_name, turn_down, turn_up
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY_COMPONENT, BOOL, EFFECT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext


@dataclass(frozen=True)
class TurnDown(Function):
    """``turn_down(x in board where ... [, seen_by = ROLE])``: each selected piece lies face down."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, keywords = call.positional(), call.keywords()
        if len(args) != 1:
            scope.error(call.pos, f"turn_down() takes 1 argument besides seen_by, not {len(args)}", f"usage: {self.signature}")
        for kw in keywords.values():
            if kw.name != "seen_by":
                scope.error(kw.pos, f"turn_down() has no option '{kw.name}'", f"usage: {self.signature}")
        if len(args) != 1:
            return Compiled(EFFECT, lambda s, e: None)
        items = as_selection(args[0]).compile_parts(scope).items
        by = keywords.get("seen_by")
        role = self.value(scope, by.value, role_type(scope), "seen_by").fn if by is not None else (lambda s, e: None)
        pos = call.pos

        def down(s: Any, e: list[Any]) -> None:
            who = role(s, e)
            for c in items(s, e):
                cell = s.cell_of[c]
                if cell is None:
                    why = ", which is not on the board: only pieces on the board lie face down"
                    told = told_name(s, c)
                    raise EffectRuntimeError(f"turn_down() of {s.game.piece_names[c]}{why}", pos,
                                             None if told is None else f"{pos}: turn_down() of {told}{why}")
                was = public_name(s, c, s.game.describe_piece(c, s.face[c]))  # its back, when it lay face down already
                turn_down(s, c, who)
                if s.log is not None and s.step >= 0:
                    s.log.append(f"{was} at {s.game.cell_text(cell, brackets=True)} is turned face down")

        return Compiled(EFFECT, down)

    def describe(self, call: ast.Call) -> str:
        if not call.args:
            return "turn down"
        by = call.keywords().get("seen_by")
        return f"turn face down every {describe_selection(call.positional()[0])}" + (
            f", seen only by {by.value.describe()}" if by is not None else "")


@dataclass(frozen=True)
class TurnUp(Function):
    """``turn_up(x in board where ...)``: each selected piece lies face up, seen by everyone."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(EFFECT, lambda s, e: None)
        items = as_selection(args[0]).compile_parts(scope).items

        def up(s: Any, e: list[Any]) -> None:
            for c in items(s, e):
                was = back_label(s, c) if face_down(s) is not None else ""
                if turn_up(s, c) and s.log is not None and s.step >= 0:
                    s.log.append(f"{was} at {s.game.cell_text(s.cell_of[c], brackets=True)} is turned up: {s.game.describe_piece(c, s.face[c])}")

        return Compiled(EFFECT, up)

    def describe(self, call: ast.Call) -> str:
        return f"turn face up every {describe_selection(call.args[0])}" if call.args else "turn up"


@dataclass(frozen=True)
class FaceUp(Function):
    """``face_up(PIECE)``: false for a piece lying face down on the board, true for any other component."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        if not args:
            return Compiled(BOOL, lambda s, e: None)
        item = self.value(scope, args[0], ANY_COMPONENT, "piece").fn

        def up(s: Any, e: list[Any]) -> bool | None:
            c = item(s, e)
            if c is None:
                return None
            down = face_down(s)
            return down is None or down.seen_by(c) is False

        return Compiled(BOOL, up)

    def describe(self, call: ast.Call) -> str:
        return f"{call.args[0].describe()} lies face up" if call.args else "face up"


READERS = ("clash", "groups", "majority", "patterns", "casting")
"""Blocks that read the values of the board's pieces and say them (a clash, a group, a pattern cast): not together
with face-down pieces, whose values would be told."""


def check_board(b: "BuildContext") -> None:
    """``face_down: true`` needs a board, without stacking (a face-down piece beneath another would be named), open
    roles, and none of the blocks that say the values of the board's pieces (:data:`READERS`)."""
    if b.tree.get("face_down") is None:
        return
    for name in READERS:
        if BLOCKS[name].uses(b.tree):
            b.error(b.pos(b.tree, "face_down"), f"face_down: true is not possible with the {name} block ("
                    f"{BLOCKS[name].how_to_use()}): it reads and tells the values of the board's pieces, face-down ones too")
    roles = b.game.roles
    if roles is not None and roles.hidden:
        b.error(b.pos(b.tree, "face_down"), "face_down: true is not possible with hidden roles (a piece's back names the "
                "role it was turned down for, and bots deal hidden roles again)", "leave out roles: {hidden: true}, or face_down")
    grid = b.game.grid
    if grid is None:
        b.error(b.pos(b.tree, "face_down"), "face_down: true turns pieces on the board face down, but the ruleset has no board",
                "declare a board (board: {kind: square-grid, width: 4, height: 4})")
    elif grid.stacking:
        b.error(b.pos(b.tree, "face_down"), "face_down: true is not possible on a board with stacking (the pieces "
                "beneath a face-down one would say what it is)", "leave out stacking, or face_down")
    b.game.parts[FaceDown.block] = True


BLOCK = declare(Block(
    "face_down",
    keys={
        "face_down": {
            "description": ("`face_down: true`: pieces on the board may lie face down. `turn_down(x in board where ... "
                            "[, seen_by = ROLE])` turns them down (seen by nobody, or only by ROLE's seat), "
                            "`turn_up(...)` up again, `face_up(PIECE)` asks. Another seat sees only the back: "
                            "`face-down KIND` (`of ROLE`) at its cell. A piece leaving the board is turned up."),
            "const": True,
        },
    },
    functions=(
        PlaceOnBoard("place_down", "place_down(x in COLLECTION where CONDITION, CELL [, seen_by = ROLE])",
                     "Put the one selected component on a board cell face down, as place() does: no seat sees what it is "
                     "(with seen_by, only the seat playing ROLE), not even on its way from a hidden hand (a secret set-up).",
                     "place_down(x in hand(current_role) where x == p, c, seen_by = current_role)", down=True),
        TurnDown("turn_down", "turn_down(x in COLLECTION [where CONDITION] [, seen_by = ROLE])",
                 "Each selected piece on the board lies face down: no seat sees what it is (with seen_by, only the seat "
                 "playing ROLE), only its back at its cell.", "turn_down(p in board where p.side == current_role, "
                 "seen_by = current_role)"),
        TurnUp("turn_up", "turn_up(x in COLLECTION [where CONDITION])",
               "Each selected piece lying face down is turned up: every seat sees it.", "turn_up(t in board where t.cell == c)"),
        FaceUp("face_up", "face_up(PIECE) -> bool",
               "False for a piece lying face down on the board (turn_down), true for any other component.",
               "not face_up(at(c))"),
    ),
    check=check_board,
))
