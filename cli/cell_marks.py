"""A counter keyed by the board's cells (``counters: {trail: {key: cell}}``) drawn on the board: its value in each
cell where no piece stands, in the terminal and on the page, where a player looks for it (it was listed under the
board, ``trail: 0,0=1, 1,0=1, 6,5=2``, to be matched cell by cell with the drawing).

One such counter is drawn: the game's only one kept for the whole game (``per: game``) and shown; with several none
is, nor one per role (``seen: {per: role, key: cell}``: a value per player in each cell): they are listed as any
keyed counter.  What the board cannot show, a value under a piece, is listed under it, ``trail under pieces: 3,0=1``.

Typical use::

    marks = board_marks(state)             # BoardMarks(name='trail', values={(0, 0): 1, (6, 6): 2}) or None
    marks.values.get((0, 0))               # 1: the cell's value, drawn where no piece stands
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from engine import State

Cell = tuple[int, int]
CELLS = "cell"
"""What ``key:`` says of a counter keyed by the board's cells, as the ruleset writes it."""


class BoardMarks(NamedTuple):
    """The counter drawn on the board: its name and each cell's value where it is not 0."""

    name: str
    values: dict[Cell, int]

    def under_pieces(self, state: State) -> dict[Cell, int]:
        """The values of the cells a piece stands on, which the board shows the piece of, not the value.

        >>> from types import SimpleNamespace as Seen
        >>> BoardMarks("trail", {(0, 0): 1, (1, 0): 2}).under_pieces(Seen(grid={(1, 0): 5}))
        {(1, 0): 2}
        """
        return {cell: value for cell, value in self.values.items() if cell in state.grid}

    def under_line(self, state: State) -> str:
        """The line under the board listing :meth:`under_pieces` (``""``: none), cells named as the board names them.

        >>> from types import SimpleNamespace as Seen
        >>> state = Seen(grid={(1, 0): 5}, game=Seen(cell_text=lambda cell: f"{cell[0]},{cell[1]}"))
        >>> BoardMarks("trail", {(0, 0): 1, (1, 0): 2}).under_line(state)
        'trail under pieces: 1,0=2'
        """
        under = self.under_pieces(state)
        if not under:
            return ""
        return f"{self.name} under pieces: " + ", ".join(f"{state.game.cell_text(cell)}={value}" for cell, value in under.items())


def board_marks(state: State) -> BoardMarks | None:
    """The one shown game-wide counter keyed by the board's cells, with its values that are not 0; None when the game
    has none or several (each is listed then), or only one per role.

    >>> import engine
    >>> game = engine.load(engine.builtin_names()[0])
    >>> board_marks(game.new_state(players=min(game.player_counts))) is None
    True
    """
    drawn = [spec for spec in state.game.counters.values() if spec.key_of == CELLS and spec.per == "game" and spec.shown]
    if len(drawn) != 1:
        return None
    spec = drawn[0]
    values = {key: state.counters[spec.offset + i] for i, (_, key) in enumerate(spec.owners)}
    return BoardMarks(spec.name, {cell: value for cell, value in values.items() if value})
