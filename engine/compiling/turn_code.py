"""The turn as generated Python: one function per ruleset that moves a game to its next decision.

:meth:`State.advance <engine.model.state.State.advance>` walks the turn's steps in a general loop: each step's
condition, whether it may wait for dice, whether a rule judges the position after its actions, whether the ruleset
says what befalls a player with no move, then at the turn's end the end condition, the turn limit and the next
player — read from the steps and the game at every step.  Most of that is the same at every step of every game of
one ruleset, so this module writes the loop out for the ruleset as Python source: the steps in order, each with
only the checks it needs, and the turn's end with the end condition called straight away.  The source reads like
the turn (each step under its kind and the place it is written), ``rulecraft compile RULESET --show`` prints it
with the effect language's functions, and the state runs it instead of the loop.  The loop stays as the
reference: ``ENABLED = False`` runs it, and the tests play random games of every ruleset both ways.

Only names this module makes up and ``repr`` of numbers and texts are written into the source; the steps, their
conditions and the end condition are constants the function receives, so nothing a ruleset says becomes code.  The
comments naming a step's kind and file keep to their line (a line break in a file's name is written ``\\n``).

>>> import engine
>>> game = engine.load(engine.builtin_names()[0])
>>> print(source(game).splitlines()[1])
def turn(s):
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from engine.blocks import choices
from engine.blocks.bitboard import CellSpace
from engine.blocks.placement import Place, Placed
from engine.compiling.bit_steps import bracketing_lines, closing_lines
from engine.core.actions import ProductSpace
from engine.core.kept_cells import CellKind, flip_cells, kept_cells
from engine.core.showtext import one_line
from engine.core.slices import TurnOrder
from engine.lang import kept_code
from engine.lang.budgets import game_too_long

if TYPE_CHECKING:
    from engine.blocks.steps import Step
    from engine.model.game import Game

ENABLED = True
"""Whether games run a generated turn (False: :meth:`State.advance`'s loop, the reference)."""

MOST_STEPS = 32
"""A turn of more steps keeps the loop: the generated turn finds where to go on by testing its steps in order, which
costs a test per step before it (no shipped or example ruleset has more than a dozen steps a turn)."""

GENERATED_TURN = "generated turn"
"""Vocabulary data key: the generated turn's source and where the turn is written."""


def generate(game: "Game") -> tuple[Callable[[Any], None], Callable[[Any, tuple[Any, ...], bool], None]] | None:
    """The generated turn of ``game``: ``turn(s)``, which moves the game to its next decision, and ``act(s, args,
    keep)``, which carries out a decision and then calls it (None when generation is off, or the turn has more
    than :data:`MOST_STEPS` steps: the state's loop then runs it).  Their source is kept
    for ``rulecraft compile --show``; their compiled code is kept under the hash of the source
    (:mod:`engine.lang.kept_code`), and not compiled again."""
    if not ENABLED or game.end_condition is None or len(game.steps) > MOST_STEPS:
        return None
    lines, consts = _turn_lines(game)
    more, more_consts = _act_lines(game)
    namespace: dict[str, Any] = {**consts, **more_consts}
    text = "\n".join([*lines, "", "", *more]) + "\n"
    where = _where(game.steps[0]) if game.steps else game.name
    filename = f"<turn generated from {where}>"
    found = kept_code.key("turn", text)  # the whole of what the code is compiled from
    made = kept_code.built(found)
    if made is None:
        made = compile(text, filename, "exec"), text, ()
        kept_code.keep(found, *made)
    exec(kept_code.placed(made[0], filename), namespace)  # noqa: S102 - our own source, see above
    game.vocab.data[GENERATED_TURN] = (where, text)
    return namespace["turn"], namespace["act"]


def source(game: "Game") -> str:
    """The source of ``game``'s generated turn, under the place its turn is written ('' when it has none)."""
    kept = game.vocab.data.get(GENERATED_TURN)
    return "" if kept is None else f"# the turn, from {one_line(kept[0])}\n{kept[1]}"


def _where(step: "Step") -> str:
    pos = step.pos
    return f"{pos.file}:{pos.line}:{pos.col}" if pos is not None else step.kind


def _turn_lines(game: "Game") -> tuple[list[str], dict[str, Any]]:
    """The turn function's lines, and the constants they name."""
    steps = game.steps
    last = len(steps) - 1
    end = game.end_condition
    assert end is not None
    consts: dict[str, Any] = {"g": game, "TURN_ORDER": TurnOrder.block, "END": end.fn, "END_ENV": end.env}
    lines = [
        "def turn(s):",
        f'    """Move to the next step that needs a decision ({len(steps)} step{"s" * (len(steps) != 1)} a turn), '
        'ending turns and the game as due."""',
        "    i = s.step",
        "    explicit = s.explicit_chance",
        "    while True:",
        "        if s.outcome is not None:  # a step ended the game at once",
        "            return",
        # the turn ends after its last step, or once the role whose turn it is left the turn order
        f"        if i >= {last}:" if last <= 0 else
        f"        if i >= {last} or (TURN_ORDER in s.slices and i >= 0 and s._left_mid_turn()):",
        *_turn_end(game),
    ]
    flips, cells = _flips(game), _plain_cells(game)
    for i, step in enumerate(steps):
        consts[f"t{i}"] = step
        lines += [f"        if i < {i}:", f"            i = {i}", f"            # {one_line(f'{step.kind}, {_where(step)}')}"]
        body = _step(game, i, step, last)
        if (flips is not None or cells is not None) and not game.no_move:  # the step's enter written inline first
            at = body.index(f"            entered = t{i}.enter(s)")
            body[at:at] = _entering(flips[1], flips[0]) if flips is not None else _listing()
            consts.update(_place_consts(game, flips, cells))
        if step.condition is not None:
            consts[f"c{i}"], consts[f"e{i}"] = step.condition, step.env
            lines += [f"            if c{i}(s, e{i}):", *("    " + line for line in body)]
        else:
            lines += body
        lines.append("            continue")
    return lines, consts


def _act_lines(game: "Game") -> tuple[list[str], dict[str, Any]]:
    """The lines of ``act(s, args, keep)``: what :meth:`State._act <engine.model.state.State._act>` does, with the
    step that acts read once (the only one, in a turn of one step) and the check of a rule judging the position
    after an action only in a turn that has one."""
    steps = game.steps
    judged = any(step.refusal is not None for step in steps)
    apply = "t0.apply(s, args)" if len(steps) == 1 else "STEPS[s.step].apply(s, args)"
    flips, cells = _flips(game), _plain_cells(game)
    lines = [
        "def act(s, args, keep):",
        '    """Carry out a legal decision given by its arguments, then move on to the next one (``keep=False``: for a',
        '    caller that drops the state if the ruleset fails: no copy is made to put back)."""',
        "    s._actions = None",
        "    spent = s.spent + g.limits.steps - s.budget  # the last action's steps, its turns' end tests included",
        "    if spent > g.limits.game_steps:",
        "        raise game_too_long(s, spent)",
        "    s.spent = spent",
        "    s.budget = g.limits.steps  # each action has the whole step budget",
        "    if s.chance is not None:",
        "        s._resolve_chance(args[0])",
        "        return",
        "    s.decided = s.turn_number  # a round without any decision ends the game",
        "    if s.pending is not None:",
        "        finished = answer(s, args[0], keep)",
        *(_placing(game, flips[1], flips[0]) if flips is not None else _putting() if cells is not None else []),
        "    else:",
        f"        finished = {apply}",
        "    if finished:",
        "        turn(s)",
        *(["    elif s.pending is None and STEPS[s.step].refusal is not None:",
           "        s._actions = None  # what the step listed for its next decision is judged when asked"] if judged else []),
    ]
    consts = {"STEPS": tuple(steps), "answer": choices.answer, "game_too_long": game_too_long}
    return lines, {**consts, **_place_consts(game, flips, cells)}


def _one_place(game: "Game") -> Place | None:
    """The turn's one step, a place step that always runs and that no rule judges after it, or None."""
    steps = game.steps
    if len(steps) != 1 or steps[0].condition is not None or steps[0].refusal is not None:
        return None
    return steps[0] if isinstance(steps[0], Place) else None


def _flips(game: "Game") -> Any:
    """What a turn of one place step that brackets on a bit board and turns over what it brackets writes inline
    (see ``Place.flips_on_bits``), or None."""
    step = _one_place(game)
    return None if step is None else step.flips_on_bits()


def _plain_cells(game: "Game") -> Callable[[Any], list[Any]] | None:
    """For a turn of one place step whose placements are every piece on offer on every cell allowed, nothing
    following a placement (see ``Place.plain_cells``): what lists the cells; else None."""
    step = _one_place(game)
    return None if step is None else step.plain_cells()


def _place_consts(game: "Game", flips: Any, cells: Callable[[Any], list[Any]] | None) -> dict[str, Any]:
    """The constants of the lines written inline for a turn of one place step (none for any other turn)."""
    if flips is None and cells is None:
        return {}
    placing = {"PLACED": Placed.block, "PLACED_BY": game.steps[0].placed}
    if flips is None:
        return {**placing, "CELLS": cells, "ProductSpace": ProductSpace}
    board, kind, values = flips
    return {**placing, "BOARD": board, "KIND": kind, "VALUES": values, "FACES": game.face_count,
            "kept_cells": kept_cells, "flip_cells": flip_cells, "CellSpace": CellSpace,
            "FULL": board.full, "BITS": board.bits, "CELL_OF": {bit: cell for cell, bit in board.bits.items()},
            "OTHER": dict(zip(kind.distinct, reversed(kind.distinct))) if len(kind.distinct) == 2 else None}


def _turns_to_mover(game: "Game", kind: CellKind) -> bool:
    """Whether every piece turned over comes to show the value of the piece that closed it off: the kind has two
    values, and every component two faces that show one each (what turns over shows the other value, the rival's:
    its other face shows the mover's)."""
    values = kind.values
    return (kind.bits is not None and len(kind.distinct) == 2 and len(values) == 2
            and all(n == 2 and values[0][cid] != values[1][cid] for cid, n in enumerate(game.face_count)))


def _sides(kind: CellKind, indent: str) -> list[str]:
    """Lines that set ``value`` to what the piece ``cid`` showing ``face`` shows, and ``own`` and ``rival`` to the
    bits of the cells that show it and of those that show another value (``Bracket._sides``)."""
    lines = ["value = VALUES[face][cid]", "table = s.by_value.get(KIND) or kept_cells(s, KIND)"]
    if len(kind.distinct) == 2:  # every value has its bits in the table: the other one is the rival's
        lines.append("own, rival = table[value], table[OTHER[value]]")
    else:
        lines += ["own, rival = table[value], 0", "for v, bits in table.items():", "    if v != value:",
                  "        rival |= bits"]
    return [indent + line for line in lines]


def _placing(game: "Game", kind: CellKind, board: Any) -> list[str]:
    """``Place.apply`` with its bracket (``Bracket.capture`` on a bit board, flipping), without a log: one
    piece put down, the lines it closes off turned over.  Where every piece turned over comes to show the mover's
    value and the state keeps no other kind of cells, the mover's and the rival's bits change at once and only the
    faces are turned one by one (each a piece of two faces: ``^ 1``)."""
    indent = "        "
    if _turns_to_mover(game, kind):
        turn_over = [
            "        if flips:",
            "            if len(s.by_value) == 1:  # only this kind kept: every piece turned over shows the mover's value",
            "                table[value] |= flips",
            "                table[OTHER[value]] ^= flips",
            "                grid, faces = s.grid, s.face",
            "                while flips:",
            "                    low = flips & -flips",
            "                    flips ^= low",
            "                    faces[grid[CELL_OF[low]]] ^= 1",
            "            else:",
            "                flip_cells(s.by_value, BOARD.cells_of(flips), s.grid, s.face, FACES)",
        ]
    else:
        turn_over = ["        if flips:", "            flip_cells(s.by_value, BOARD.cells_of(flips), s.grid, s.face, FACES)"]
    return [
        "    elif s.log is None and len(args) == 3:  # the place step's placement, its bracketed pieces turned over",
        "        cid, face, cell = args",
        *_sides(kind, indent),
        "        bit = BITS[cell]",
        *(indent + line for line in closing_lines(board)),
        *_PUT_DOWN,
        *turn_over,
        "        finished = True",
    ]


_PUT_DOWN = ["        s.place(cid, cell, face)", "        s.slices[PLACED] = PLACED_BY[cid]"]
"""The lines of ``Place.apply`` that put the piece ``cid`` showing ``face`` down at ``cell``, without a log."""


def _putting() -> list[str]:
    """``Place.apply`` of a step whose placement is followed by nothing, without a log: the piece put down."""
    return [
        "    elif s.log is None and len(args) == 3:  # the place step's placement",
        "        cid, face, cell = args",
        *_PUT_DOWN,
        "        finished = True",
    ]


def _listing() -> list[str]:
    """``Place.enter`` of a step whose placements are every piece on offer on every cell allowed, where there are
    some: every piece times every cell, kept as the state's pending decision; else the step's own ``enter``."""
    return [
        "            pieces = t0.pieces(s)",
        "            if pieces:",
        "                cells = CELLS(s)",
        "                if cells:",
        "                    s._actions = ProductSpace(t0, pieces, cells)",
        "                    return",
    ]


def _entering(kind: CellKind, board: Any) -> list[str]:
    """``Place.enter`` of such a step where its one piece on offer brackets somewhere: the cells where it does, read
    from the bits when asked for; anything else (no piece, several, nowhere to go) is the step's own ``enter``."""
    indent = "                "
    return [
        "            pieces = t0.pieces(s)",
        "            if len(pieces) == 1:",
        "                (cid, face), = pieces",
        *_sides(kind, indent),
        *(indent + line for line in bracketing_lines(board)),
        "                found &= FULL ^ (own | rival)",
        "                if found:",
        "                    s._actions = CellSpace(t0, pieces[0], BOARD, found)",
        "                    return",
    ]


def _step(game: "Game", i: int, step: "Step", last: int) -> list[str]:
    """The lines that begin step ``i``: return when a decision waits, else go on (to the turn's end: no move)."""
    enter = f"s._enter(t{i})" if game.no_move or step.refusal is not None else f"t{i}.enter(s)"
    return [
        f"            s.step = {i}",
        "            if explicit:",
        f"                event = t{i}.chance_event(s)",
        "                if event is not None:",
        "                    s.chance = event",
        "                    s._actions = None",
        "                    return",
        f"            entered = {enter}",
        "            if entered:",
        "                return",
        "            if entered is None:  # no legal move: the game is over, or the turn passes",
        f"                i = {last}",
    ]


def _turn_end(game: "Game") -> list[str]:
    """The lines that end a turn: the game ends (return), or the next player's turn begins (``i = -1``)."""
    stalled = game.end_when_stalled
    return [
        "            s.step = -1",
        "            log = s.log",
        "            if log is not None and len(log) > g.limits.log_lines:",
        "                s._cut_log()",
        "            if TURN_ORDER in s.slices:  # a role left the turn order, plays again or plays next",
        "                if g.end_turn(s):",
        "                    return",
        "            else:",
        *(["                g.record_position(s)  # repetition: the position the turn left"] if game.record_position else []),
        *(["                stalled = s.turn_number - (s.decided or 0) >= len(s.order)"] if stalled else []),
        "                saved = s.budget",
        "                budget = s.budget = g.limits.steps  # the end condition has a step budget of its own",
        "                try:",
        "                    met = END(s, END_ENV)",
        "                finally:",
        "                    s.budget = saved - (budget - s.budget)",
        f"                if met or {'stalled or ' if stalled else ''}s.turn_number >= g.max_turns:",
        "                    g._over(s, 'end condition' if met else "
        + ("'stalled' if stalled else " if stalled else "") + "'turn limit')",
        "                    return",
        "                s.turn = (s.turn + 1) % len(s.order)",
        "                s.turn_number += 1",
        "                if log is not None:  # where the turn begins in the log (State.turn_starts)",
        "                    s.turn_begins()",
        "            i = -1",
        "            continue",
    ]
