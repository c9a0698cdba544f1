"""Patterns on the board: a sequence of values laid out in a shape, found among the pieces.

A ruleset declares shapes under ``shapes:``; a component names one and lists
the values to find, in order (see the ``cast`` step), or any code names one
(see :class:`PatternSearch`)::

    shapes:
      line: {kind: line}                       # a straight line of adjacent cells, read from either end
      chain: {kind: chain}                     # each next piece orthogonally next to the one before
      hook: {kind: template, cells: [[0, 0], [1, 0], [1, 1]], rotate: true, mirror: true}
      tower: {kind: stack}                     # one cell, the pieces from the top down

* ``line``: ``directions`` is ``all`` (the default: orthogonal and diagonal),
  ``orthogonal`` or ``diagonal``; ``either_end: false`` reads lines only left
  to right and top to bottom.
* ``chain``: consecutive values on adjacent cells (``adjacency``, default
  orthogonal), no cell twice.
* ``template``: the cells ``[x, y]`` (or ``[x, y, depth]``: depth 1 is the piece
  right under the top one) of the values, in order; ``rotate`` allows the
  board's turns, ``mirror`` the reflections.

Geometry belongs to the board: on a hexagonal board a line runs along the six
directions between neighbouring hexes (``orthogonal`` and ``diagonal`` are
square words and are refused there), a chain steps between neighbouring hexes,
and a template turns in sixths of a circle.
* ``stack``: every value on one cell, from the top piece down.

A pattern may hold two kinds of free values besides the values to find:
``_`` is any value, and ``$NAME`` (a variable) any value, the same at every
place the same variable appears — ``[$a, $a, $a, $a]`` is four pieces of one
value, whichever.  Free values are never read as another value (they match
anything already), so ``budget`` only ever pays for the fixed ones.  ``.``
asks for a square of the board with no piece (in a line or a template of top
pieces, beside at least one piece: :func:`empty_problem`); it is never read as
another value either, and the search lays such a pattern from its pieces
(:func:`engine.blocks.pattern_finding.find`).

Any code may look for a pattern too (:class:`PatternSearch`): ``pattern_found("hook", s.hue for s in board,
["$a", "_", "$a"])``, ``pattern_count(...)`` and ``pattern_pieces(...)`` read the pieces a selection names, in the
same search.

A cell that is not in a stack is read by its top piece.  The shapes and the
values of a pattern are :mod:`engine.blocks.shapes`; the searches, which read
a shape's layouts once per length, :mod:`engine.blocks.pattern_finding`; this
module reads ``shapes:`` and gives the pattern functions to any code.

>>> [f.name for f in PATTERN_FUNCTIONS]
['pattern_found', 'pattern_count', 'pattern_pieces']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.grid import ADJACENCY, SQUARE, Geometry
from engine.blocks.pointsboard import NO_SHAPES, POINTS
from engine.core.errors import EffectRuntimeError, did_you_mean
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection
from engine.lang.scope import Compiled, Fn, Scope
from engine.blocks.pattern_finding import Board, MISSING, find, lies_on
from engine.blocks.shapes import ANY_VALUE, Cell, DEFAULT_SHAPE, DIRECTIONS, EMPTY, KINDS, SHAPE_KEYS, Shape, Spot, VARIABLE, VARIABLE_NAME, default_shape, empty_problem, is_free
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, CELL, Component, INT, ListOf, STR, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView


def read_shapes(b: "BuildContext") -> None:
    """The ruleset's ``shapes:`` (plus the default ``line`` unless it declares its own), in the board's geometry, kept in
    ``game.parts["patterns"]`` by name (and offered to the pattern functions, :class:`PatternSearch`)."""
    grid = b.game.grid
    geometry: Geometry = grid.geometry if grid is not None else SQUARE
    default = default_shape(geometry)
    shapes = {default.name: default}
    if geometry is POINTS and b.tree.get("shapes"):
        b.error(b.pos(b.tree, "shapes"), NO_SHAPES)
        b.game.parts["patterns"] = b.game.vocab.data["shapes"] = shapes
        return
    for name, spec, pos in b.named_entries("shapes", "shape", "{kind: line}"):
        kind = b.choice(spec, "kind", KINDS, "line")
        b.unknown_keys(spec, SHAPE_KEYS[kind], f"a {kind} shape")
        doc = str(spec.get("doc") or "")
        if kind == "line":
            way = b.choice(spec, "directions", tuple(DIRECTIONS), "all")
            steps = _steps(b, spec, "directions", way, geometry)
            either_end = b.bool_setting(spec, "either_end", True)
            directions = steps if either_end else tuple(d for d in steps if d[1] > 0 or (d[1] == 0 and d[0] > 0))
            shapes[str(name)] = Shape(str(name), kind, directions=directions, way=way, either_end=either_end, doc=doc,
                                      geometry=geometry)
        elif kind == "chain":
            way = b.choice(spec, "adjacency", tuple(ADJACENCY), "orthogonal" if geometry is SQUARE else "all")
            shapes[str(name)] = Shape(str(name), kind, directions=_steps(b, spec, "adjacency", way, geometry), doc=doc,
                                      geometry=geometry)
        elif kind == "template":
            cells = _template_cells(b, spec)
            shapes[str(name)] = Shape(str(name), kind, cells=cells, rotate=b.bool_setting(spec, "rotate", False),
                                      mirror=b.bool_setting(spec, "mirror", False), doc=doc, geometry=geometry)
        else:
            shapes[str(name)] = Shape(str(name), kind, doc=doc, geometry=geometry)
    b.game.parts["patterns"] = b.game.vocab.data["shapes"] = shapes


def _steps(b: "BuildContext", spec: Any, key: str, way: str, geometry: Geometry) -> tuple[Cell, ...]:
    """The steps between neighbouring cells a shape's ``directions``/``adjacency`` word means on this board."""
    steps = geometry.lines.get(way)
    if steps is None:
        b.error(b.pos(spec, key), f"'{key}: {way}' has no meaning on a {geometry.name} board: its lines run along "
                                  "the directions between neighbouring cells", f"write '{key}: all' or leave it out")
        return geometry.lines["all"]
    return steps


def _template_cells(b: "BuildContext", spec: Any) -> tuple[Spot, ...]:
    """``cells: [[x, y], [x, y, depth], ...]``: distinct; in each cell the depths used run 0, 1, 2, ... without a gap."""
    raw = spec.get("cells")
    pos = b.pos(spec, "cells")
    if not isinstance(raw, list) or not raw:
        b.error(pos, "a template needs 'cells': a list of [x, y] (or [x, y, depth]) cells, one per value")
        return ((0, 0, 0),)
    cells: list[Spot] = []
    for i, cell in enumerate(raw):
        ok = isinstance(cell, list) and len(cell) in (2, 3) and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        if not ok or (len(cell) == 3 and cell[2] < 0):
            b.error(b.pos(raw, i), f"a template cell is [x, y] or [x, y, depth] (depth 0 or more), not {cell!r}")
            continue
        spot = (cell[0], cell[1], cell[2] if len(cell) == 3 else 0)
        if spot in cells:
            b.error(b.pos(raw, i), f"the template lists {cell!r} twice")
            continue
        cells.append(spot)
    for x, y, _ in cells:
        depths = sorted(d for cx, cy, d in cells if (cx, cy) == (x, y))
        if depths != list(range(len(depths))):
            b.error(pos, f"at {x},{y} the template reads depths {depths}: they must start at 0 (the top piece) without gaps")
            break
    return tuple(cells) or ((0, 0, 0),)


def shape_named(b: "BuildContext", shapes: dict[str, Shape], name: Any, pos: Any) -> Shape:
    """The shape a component names (reported when unknown)."""
    shape = shapes.get(str(name))
    if shape is None:
        b.error(pos, f"unknown shape '{name}'", did_you_mean(str(name), shapes) or f"known: {', '.join(shapes)}")
        return DEFAULT_SHAPE
    return shape


# ------------------------------------------------------------------ patterns in any code


def selected_board(s: "StateView", shown: dict[int, Any]) -> Board:
    """The board as a selection reads it: only the pieces in ``shown`` (piece -> the value it shows) are there.

    >>> class Two:
    ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
    >>> selected_board(Two(), {1: "B"}).top
    {(1, 0): 'B'}
    """
    return Board(s, lambda cid: shown.get(cid, MISSING), [(cell, cid) for cell, cid in s.grid.items() if cid in shown])


def _wrong_length(shape: Shape, length: int) -> str:
    """What is wrong with a pattern of ``length`` values for ``shape`` ("" when it fits).

    >>> _wrong_length(Shape("triangle", "template", cells=((0, 0, 0), (1, 0, 0), (0, 1, 0))), 4)
    "lists 4 values, but shape 'triangle' has 3 cells"
    >>> _wrong_length(Shape("line", "line"), 0)
    "lists no values: a pattern needs one for each place of the shape 'line'"
    """
    if length == 0:
        return f"lists no values: a pattern needs one for each place of the shape '{shape.name}'"
    if shape.size(length) != length:
        return f"lists {length} values, but shape '{shape.name}' has {len(shape.cells)} cells"
    return ""


RESULTS = {"found": BOOL, "count": INT, "pieces": ListOf(ANY_COMPONENT)}
"""What each pattern function gives: whether the pattern lies on the board, in how many places, or its pieces."""


@dataclass(frozen=True)
class PatternSearch(Function):
    """``pattern_found("SHAPE", VALUES [, PATTERN] [, at = CELL])`` and its siblings ``pattern_count``, ``pattern_pieces``.

    ``VALUES`` selects the board's pieces that are read and what each shows
    (``s.colour for s in board where ...``; a plain selection reads the pieces
    themselves); ``PATTERN`` is the list of values to find in the shape's order
    (``"_"`` is any piece, ``"$a"`` one value whichever; left out, a template
    asks for any piece on every cell); ``at`` keeps the places that use a cell.
    The search is the ``cast`` step's (:func:`find`, :func:`lies_on`) in the
    board's own geometry.
    """

    result: str = "found"  # found, count or pieces (:data:`RESULTS`)

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, result, kind = call.positional(), RESULTS[self.result], self.result
        nothing: Fn = lambda s, e: [] if kind == "pieces" else 0 if kind == "count" else False  # noqa: E731
        keywords = call.keywords()
        for name, kw in keywords.items():
            if name != "at":
                scope.error(kw.pos, f"{self.name}() has no option '{name}'", f"usage: {self.signature}")
        if not 2 <= len(args) <= 3:
            scope.error(call.pos, f"{self.name}() takes 2 to 3 arguments, not {len(args)}", f"usage: {self.signature}")
            return Compiled(result, nothing)
        shape = self._shape(scope, args[0])
        sel_node = as_selection(args[1])
        sel = sel_node.compile_parts(scope)
        if sel.value is not None:
            value_type, value_fn = sel.value.type, sel.value.fn
        else:
            value_type, slot_of = sel.item_type, sel.slot
            value_fn = lambda s, e: e[slot_of]  # noqa: E731
        if not isinstance(sel.item_type, Component) and sel.item_type is not ANY:
            scope.error(args[1].pos, f"{self.name}() reads pieces on the board, so its second argument selects components "
                                     f"(like s.colour for s in board), not {sel.item_type} values")
        pattern = self._pattern(scope, args[2] if len(args) == 3 else None, shape, value_type, call)
        at = self.value(scope, keywords["at"].value, CELL, "at").fn if "at" in keywords else None
        if shape is None or pattern is None:
            return Compiled(result, nothing)
        items, slot = sel.items, sel.slot
        written, pos = (args[2].describe() if len(args) == 3 else ""), call.pos

        def search(s: Any, e: list[Any]) -> Any:
            shown: dict[int, Any] = {}
            for x in items(s, e):
                e[slot] = x
                shown[x] = value_fn(s, e)
            found = pattern(s, e)
            values = () if found is None else tuple(found)
            if found is None or _wrong_length(shape, len(values)):
                raise EffectRuntimeError(f"{self.name}(): the pattern {written} is none, not a list of values" if found is None else
                                         f"{self.name}(): the pattern {written} {_wrong_length(shape, len(values))}", pos)
            board = selected_board(s, shown)
            try:
                if kind == "found" and at is None:
                    return lies_on(board, shape, values)
                matches = find(board, shape, values)
            except EffectRuntimeError as err:  # a chain's search out of steps: said at this call
                if err.pos is not None:
                    raise
                raise EffectRuntimeError(err.message, pos) from None
            if at is not None:
                cell = at(s, e)
                matches = [m for m in matches if any(c == cell for c, _ in m.places)]
            if kind == "found":
                return bool(matches)
            if kind == "count":
                return len({frozenset(m.places) for m in matches})
            return list(dict.fromkeys(s.stack(c)[depth] for m in matches for (c, depth), want in zip(m.places, values)
                                      if want != EMPTY))

        return Compiled(result, search)

    def _shape(self, scope: Scope, node: ast.Node) -> Shape | None:
        """The shape a call names in quotes (reported, None, when it names none)."""
        shapes: dict[str, Shape] = scope.vocab.data.get("shapes", {})
        if any(shape.geometry is POINTS for shape in shapes.values()):
            scope.error(node.pos, f"{self.name}() looks for a pattern of cells; {NO_SHAPES}")
            return None
        name = node.value if isinstance(node, ast.Literal) and isinstance(node.value, str) else None
        shape = shapes.get(name) if name is not None else None
        if shape is None and name is not None:
            scope.error(node.pos, f"unknown shape '{name}'", did_you_mean(name, shapes) or f"known: {', '.join(shapes)}")
        elif shape is None:
            known = ", ".join(f'"{n}"' for n in shapes)
            scope.error(node.pos, f"{self.name}() needs a shape's name in quotes first (shapes: {known})")
        return shape

    def _pattern(self, scope: Scope, node: ast.Node | None, shape: Shape | None, value_type: Type,
                 call: ast.Call) -> Fn | None:
        """The values to find, as a closure: a list literal may hold ``"_"``, ``"$NAME"`` and ``"."`` among values of
        ``value_type``; any other list is read as it is when the code runs; none: any piece on each cell of a template."""
        if node is None:
            if shape is not None and shape.kind != "template":
                scope.error(call.pos, f"a {shape.kind} has no length of its own: give {self.name}() the values to find",
                            f'like {self.name}("{shape.name}", s.colour for s in board, ["_", "_", "_"])')
                return None
            free = (ANY_VALUE,) * (len(shape.cells) if shape is not None else 0)
            return lambda s, e: free
        if not isinstance(node, ast.ListLit):
            whole = node.compile(scope)
            ast.expect(scope, node, whole, ListOf(value_type), f"the values {self.name}() finds")
            return whole.fn
        if shape is not None and _wrong_length(shape, len(node.items)):
            scope.error(node.pos, f"the pattern {_wrong_length(shape, len(node.items))}")
        parts: list[Fn] = []
        written = [item.value if isinstance(item, ast.Literal) else ANY_VALUE for item in node.items]  # code: a piece
        problem = empty_problem(shape, written) if shape is not None else ""
        if problem:
            scope.error(node.pos, f"the pattern {problem}")
        for item in node.items:
            if isinstance(item, ast.Literal) and item.type is STR and item.value == EMPTY:
                parts.append(lambda s, e: EMPTY)
                continue
            if isinstance(item, ast.Literal) and item.type is STR and is_free(item.value):
                if item.value != ANY_VALUE and not VARIABLE_NAME.match(item.value):
                    scope.error(item.pos, f"'{item.value}' is not a pattern variable: "
                                          f"write '{VARIABLE}' and one word, like '{VARIABLE}a'")
                parts.append(lambda s, e, v=item.value: v)
                continue
            part = item.compile(scope)
            ast.expect(scope, item, part, value_type, f"a value {self.name}() finds")
            parts.append(part.fn)
        return lambda s, e: [part(s, e) for part in parts]

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) < 2:
            return self.name
        sel = as_selection(args[1])
        shown = f", each piece read as {sel.value.describe()}" if sel.value is not None else ""
        pattern = args[2].describe() if len(args) == 3 else "pieces on every cell"
        at = call.keywords().get("at")
        through = f" through {at.value.describe()}" if at is not None else ""
        where = f"{pattern} lies in the shape {args[0].describe()}{through} (among {describe_selection(args[1])}{shown})"
        return {"found": "", "count": "the number of places where ", "pieces": "the pieces where "}[self.result] + where


PATTERN_FUNCTIONS: tuple[Function, ...] = (
    PatternSearch("pattern_found", 'pattern_found("SHAPE", VALUES [, PATTERN] [, at = CELL]) -> bool',
                  ("Whether the pattern lies on the board in the shape named in quotes, among the pieces VALUES "
                   "selects and reading what it says of each; the pattern may hold \"_\" (any piece), \"$NAME\" "
                   "(one value, whichever) and \".\" (a square with no piece); a template without one asks for any piece on every cell; at: only "
                   "places using that cell."),
                  'pattern_found("triangle", s.colour for s in board, ["$a", "$a", "$a"])'),
    PatternSearch("pattern_count", 'pattern_count("SHAPE", VALUES [, PATTERN] [, at = CELL]) -> int',
                  ("How many places the pattern lies on (as pattern_found() finds it; the same cells count once, "
                   "however the shape is turned or read)."),
                  'pattern_count("line", s.colour for s in board, [dark, dark, dark])', result="count"),
    PatternSearch("pattern_pieces", 'pattern_pieces("SHAPE", VALUES [, PATTERN] [, at = CELL]) -> list',
                  "The pieces of every place the pattern lies on (as pattern_found() finds it), each once.",
                  'count(pattern_pieces("triangle", s in board where s.colour == dark))', result="pieces"),
)
"""The functions that find a pattern in any code of a ruleset with ``shapes:``."""


BLOCK = declare(Block(
    "patterns",
    keys={
        "shapes": {
            "description": ("Shapes patterns of values may take on the board (used by `cast` steps, and by "
                            "`pattern_found()`, `pattern_count()` and `pattern_pieces()` in any code): `line` (a "
                            "straight line of adjacent cells; declared or not, it is the default), `chain` (each "
                            "value next to the one before), `template` (given cells, which may turn and mirror) or "
                            "`stack` (one cell, from the top piece down)."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/shape"},
            "examples": [
                {"hook": {"kind": "template", "cells": [[0, 0], [1, 0], [1, 1]], "rotate": True, "mirror": True}},
            ],
        },
    },
    defs={
        "shape": {
            "description": ("One shape of pattern. `line`: `directions` (all, orthogonal, diagonal) and "
                            "`either_end`; `chain`: `adjacency`; `template`: `cells`, `rotate`, `mirror`; `stack`: "
                            "nothing more."),
            "type": "object",
            "properties": {
                "kind": {
                    "description": "`line`, `chain`, `template` or `stack`.",
                    "enum": ["line", "chain", "template", "stack"],
                    "default": "line",
                },
                "directions": {
                    "description": ("Lines: the directions a line may run: `all` (across, down and diagonal), "
                                    "`orthogonal` or `diagonal`."),
                    "enum": ["all", "orthogonal", "diagonal"],
                    "default": "all",
                },
                "either_end": {
                    "description": ("Lines: whether a line may be read from either end (false: only left to right "
                                    "and top to bottom)."),
                    "$ref": "#/$defs/flag",
                    "default": True,
                },
                "adjacency": {
                    "description": ("Chains: how each value's cell touches the one before: `orthogonal`, `diagonal` "
                                    "or `all`."),
                    "enum": ["orthogonal", "diagonal", "all"],
                    "default": "orthogonal",
                },
                "cells": {
                    "description": ("Templates: the cell of each value, in order, as [x, y] (or [x, y, depth]: "
                                    "depth 1 is the piece under the top one)."),
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 3},
                    "examples": [[[0, 0], [1, 0], [1, 1]]],
                },
                "rotate": {
                    "description": "Templates: whether the quarter turns of the template match too.",
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "mirror": {
                    "description": "Templates: whether the mirror images of the template match too.",
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "doc": {"description": "The shape in English, for people.", "type": "string"},
            },
            "additionalProperties": False,
        },
    },
    functions=PATTERN_FUNCTIONS,
    attach=read_shapes,  # before the ruleset's functions: the pattern functions name shapes
    rank=10,
))
