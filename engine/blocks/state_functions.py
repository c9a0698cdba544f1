"""Effect-language functions that read or change a game's state: what lies where (move, place, shuffle, flip,
toss, zone_of, owner) here, those about roles and seats in :mod:`engine.blocks.seat_functions` and those about the
board in :mod:`engine.blocks.board_functions`.

They are generic — zones, boards, roles, faces — and every ruleset's
vocabulary offers them (:data:`STATE_FUNCTIONS`), with the pure functions of
:mod:`engine.lang.functions`.  The ruleset's own vocabulary (which roles,
zones and attributes exist) comes from :mod:`engine.compiling.vocabulary`.

>>> from engine.lang.functions import by_name
>>> by_name(STATE_FUNCTIONS)["largest_group"].signature
'largest_group(x in COLLECTION [where CONDITION]) -> int'
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import countOf
from typing import Any, Callable

from engine.blocks.board_functions import At, Between, GroupOf, LargestGroup, LongestLine, Neighbours, StepsTo, Walk
from engine.blocks.enumeration import out_of_reach
from engine.blocks.placement import Placed, note_placed
from engine.blocks.seat_functions import (
    HasLeft, Leave, PlayAgain, PlayNext, Points, Rank, Rejoin, Say, Score, Seat, Seated, Team, TurnPosition, role_type,
)
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.core.showtext import cut
from engine.core.facedown import NOBODY, back_label, hidden_from, public_name, told_name, turn_down
from engine.core.slices import NO_CHANCE, Chance
from engine.lang import ast, budgets, codegen
from engine.lang.codegen import Code
from engine.lang.fixed import fixed_filter, unkept
from engine.lang.functions import Function, as_selection, describe_selection, unknown_options
from engine.lang.scope import DRAWS, Compiled, Fn, Scope
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, CELL, EFFECT, INT, SEAT, ZONE, Component


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
        raise budgets.out_of_steps(s, pos, "refill")
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
    (a card taken from an open row into a hidden hand was seen by everyone as it lay there).  A component of a kind
    ``toss()`` has thrown says the face it landed on, as the toss's line does: ``tray: die as 5 -> kept``.
    """
    g = s.game
    origins = sorted({s.zone_of[c] for c in chosen})
    where = ", ".join(_zone_text(s, z) for z in origins)
    if _public(s, zone) or all(_public(s, z) for z in origins):
        tossed = s.slices.get(Chance.block, NO_CHANCE).tossed or ()
        kinds = g.component_kind
        what = ", ".join(g.describe_piece(c, s.face[c]) if kinds[c] in tossed else g.piece_names[c] for c in chosen)
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
                taken = f"{s.game.cell_text(where, brackets=True)}, which is already taken by {s.game.piece_names[s.grid[where]]}"
                raise EffectRuntimeError(f"place() onto {taken} (pieces share a cell only on a board with stacking: true)", pos)
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
                raise budgets.out_of_steps(s, pos, "shuffle")
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


def zone_of_key(call: ast.Call, scope: Scope, key: Compiled, name: str, none: str,
                missing: Callable[[Any], str]) -> Compiled:
    """The zone ``name`` keeps for the value of ``key`` (a role's hand, a numbered column), compiled: a value it
    keeps none for stops the game with ``none`` (the value is none) or ``missing(value)``; in pure code the
    generated lookup, whose KeyError the closure says in words (``codegen.LOOKUP``).

    Example: ``zone_of_key(call, scope, role, "hand", "no hand of nothing", lambda r: f"no hand of {r}")``.
    """
    index, pos, fn = scope.vocab.data["zone_index"], call.pos, key.fn

    def zone(s: Any, e: list[Any]) -> int:
        k = fn(s, e)
        try:
            return index[(name, k)]
        except KeyError:
            raise EffectRuntimeError(none if k is None else missing(k), pos) from None

    code = None
    if scope.pure:
        (k, consts), (text, _), table = codegen.expr(key), codegen.constant(name), codegen.fresh("k")
        code = Code(f"{table}[({text}, {k})]", None, consts + ((table, index), (codegen.LOOKUP, True)), present=True)
    return Compiled(ZONE, zone, code=code)


@dataclass(frozen=True)
class ZoneOf(Function):
    """A per-role zone: ``hand(r)`` is role r's hand.  Made by the vocabulary for each such zone."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        compiled = self.value(scope, args[0], role_type(scope), "role") if args else Compiled(ANY, lambda s, e: None)
        name = self.name
        what = cut(args[0].describe(), 60) if args else "the role"
        none = (f"there is no {name} of nothing: {what} is none here (a first() that found nothing, a choose() "
                "without an option and an empty cell's attribute give none)")
        return zone_of_key(call, scope, compiled, name, none, lambda r: f"there is no {name} of {r}")

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
    Neighbours("neighbours", "neighbours(CELL [, KIND]) -> list of cell", "The cells touching CELL under the board's "
               "adjacency (on a board with edges, or of hexes, only those on it; on a board of points, the points linked "
               "to it; with KIND, only by links of that kind).",
               "count(n in neighbours(c.cell) where at(n) == none)"),
    GroupOf("group_of", "group_of(PIECE, x in COLLECTION [where CONDITION]) -> list",
            "The selected board pieces connected to PIECE's cell, each touching the next under the board's adjacency "
            "(none when PIECE is not among them).", "group_of(c, x in board where x.value == c.value)"),
    Walk("walk", "walk(CELL, x in COLLECTION [where CONDITION] [, steps = N]) -> list of cell",
           "The cells a walk from CELL reaches over the board's adjacency (and between its walls), never onto a cell "
           "where a selected piece stands (CELL first); with steps, only those N steps away at most; only on a board "
           "with edges.", "walk(c, x in board where x.kind == \"barrier\")"),
    StepsTo("steps_to", "steps_to(CELL, CELL [, x in COLLECTION [where CONDITION]]) -> int",
            "The fewest steps a walk takes from the first cell to the second over the board's adjacency (and between "
            "its walls), never onto a cell where a selected piece stands; -1 when none reaches it.",
            "steps_to(p.cell, (3, 3), x in runners where x != p)"),
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
