"""Walls between the cells of a square board, built and removed in play, and the functions that read them.

A board that says ``walls:`` (engine.compiling.walls) may have walls standing between neighbouring cells; every
notion of touching follows them (a cell's neighbours, walks, groups, lines, ``move`` steps).  Code changes them
during play and asks about them:

* ``build_wall(a, b)``: a wall goes up between two neighbouring cells (nothing happens if one stands there);
* ``remove_wall(a, b)``: the wall between them comes down (nothing happens if none stands there);
* ``wall_between(a, b)``: whether a wall stands on the straight way from ``a`` to ``b`` — between two neighbours,
  or between any two cells along a row, column or diagonal from one to the other.

The walls standing are the state's, kept in its slice :class:`Walls` (saved, compared, shown to every seat), and
the state plays on the board with those walls: its game is the game on that board
(:meth:`engine.model.game.Game.with_walls`), so whatever reads ``s.game.grid`` reads the walls too.  A board
without ``walls:`` pays nothing: none of this is compiled into its game.

>>> from engine.lang.functions import by_name
>>> by_name(WALL_FUNCTIONS)["wall_between"].signature
'wall_between(CELL, CELL) -> bool'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.blocks.grid import wall_pair
from engine.core.errors import EffectRuntimeError
from engine.core.slices import slice_kind
from engine.lang import ast, budgets
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import BOOL, CELL, EFFECT

Cell = tuple[int, int]


@slice_kind
class Walls(NamedTuple):
    """The walls standing on the board once code has built or removed one, each a pair of cells, the lower first
    (none: the walls the board declares).  Every seat sees them."""

    standing: tuple[tuple[Cell, Cell], ...] | None = None
    block = "walls"
    saved = ("walls",)

    def observe(self, state: Any, seat: int) -> dict[str, Any]:
        """The walls standing, on a board that has walls (``walls``: a list of pairs of cells); nothing on another."""
        grid = state.game.grid
        if not getattr(grid, "walled", False):
            return {}
        return {"walls": [[list(a), list(b)] for a, b in sorted(grid.walls)]}


@dataclass(frozen=True)
class ChangeWall(Function):
    """``build_wall(a, b)`` / ``remove_wall(a, b)``: a wall goes up (``build``) or comes down between two neighbouring
    cells of a board that says ``walls:``; the log says so (``a wall goes up between (1,0) and (1,1)``).  The state's
    board is made anew with the walls: a step of the budget for each 100 of its cells and walls standing, so a loop
    building a wall beside each of 10,000 cells stops at the budget (it took 9 GB and minutes)."""

    build: bool = True

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) != 2:
            return Compiled(EFFECT, lambda s, e: None)
        a, b = (self.value(scope, arg, CELL, "cell").fn for arg in args)
        if not scope.vocab.data.get("walls"):
            scope.error(call.pos, f"{self.name}() changes the walls between a board's cells, and this board has no "
                                  "walls", "give the board 'walls: []' (none standing at the start), or the walls "
                                           "standing at the start")
            return Compiled(EFFECT, lambda s, e: None)
        build, pos, name = self.build, call.pos, self.name

        def change(s: Any, e: list[Any]) -> None:
            here, there = a(s, e), b(s, e)
            grid = s.game.grid
            if here is None or there is None or not grid.touches(here, there):
                shown = " and ".join("none" if c is None else s.game.cell_text(c) for c in (here, there))
                raise EffectRuntimeError(f"{name}() stands a wall between two neighbouring cells of the board, and "
                                         f"{shown} are not", pos)
            wall = wall_pair(here, there)
            if (wall in grid.walls) == build:
                return
            s.budget -= (len(grid.cells) + len(grid.walls)) // 100  # the board made anew: a step per 100 cells and walls
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, f"{name}()")
            if s.log is not None and s.step >= 0:
                s.log.append(f"a wall {'goes up' if build else 'comes down'} between "
                             f"{s.game.cell_text(wall[0], brackets=True)} and {s.game.cell_text(wall[1], brackets=True)}")
            s.set_walls(grid.walls | {wall} if build else grid.walls - {wall})

        return Compiled(EFFECT, change)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 2:
            return self.name
        what = "build a wall" if self.build else "remove the wall"
        return f"{what} between {call.args[0].describe()} and {call.args[1].describe()}"


@dataclass(frozen=True)
class WallBetween(Function):
    """``wall_between(a, b)``: whether a wall stands on the straight way from ``a`` to ``b`` (false on a board
    without walls, and between cells on no row, column or diagonal: a knight's jump crosses no wall)."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) != 2:
            return Compiled(BOOL, lambda s, e: False)
        a, b = (self.value(scope, arg, CELL, "cell").fn for arg in args)
        if not scope.vocab.data.get("walls"):
            return Compiled(BOOL, lambda s, e: False)

        def across(s: Any, e: list[Any]) -> bool:
            here, there = a(s, e), b(s, e)
            return here is not None and there is not None and s.game.grid.wall_across(here, there)

        return Compiled(BOOL, across)

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 2:
            return "a wall stands between"
        return f"a wall stands between {call.args[0].describe()} and {call.args[1].describe()}"


WALL_FUNCTIONS: tuple[Function, ...] = (
    ChangeWall("build_wall", "build_wall(CELL, CELL)", "A wall goes up between two neighbouring cells of a board "
               "with walls (nothing happens if one stands there).", "build_wall(c, (c.x + 1, c.y))"),
    ChangeWall("remove_wall", "remove_wall(CELL, CELL)", "The wall between two neighbouring cells comes down "
               "(nothing happens if none stands there).", "remove_wall(a, b)", build=False),
    WallBetween("wall_between", "wall_between(CELL, CELL) -> bool", "Whether a wall stands on the straight way "
                "between two cells (along a row, a column or a diagonal; false on a board without walls).",
                "not wall_between(p.cell, c)"),
)
"""The functions about walls every ruleset may call (building and removing them needs a board that says ``walls:``)."""
