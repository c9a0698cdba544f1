"""Finding a pattern among the pieces: the board as one search reads it, and the searches over a shape's layouts.

A shape that reads only top pieces (a line, a flat template) is walked out
from each piece that may hold the first value, as far as its places hold
pieces (:func:`lies_on` stops at the first fit); with values read as others
allowed, only from the pieces with another one the layout's first step away,
which the state keeps (engine/core/kept_pairs.py), and whether the pattern lies
at all reads the windows of a line read from either end once for the values
both ways (:meth:`Shape.both_ways`).  One that reads stacks has a board read each
layout's windows (the values wherever all its places hold a piece) once for
every pattern of that length, from the windows of the layout one place
shorter; a pattern is then one look-up among them (or, with ``budget`` values
that may differ — read as another value at a price — one comparison per
distinct window).

>>> from engine.blocks.shapes import DEFAULT_SHAPE
>>> class Two:
...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
>>> board = Board(Two(), "AB".__getitem__)
>>> lies_on(board, DEFAULT_SHAPE, ("A", "B")), lies_on(board, DEFAULT_SHAPE, ("A", "A"))
(True, False)
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from engine.core.errors import EffectRuntimeError
from engine.core.kept_pairs import kept_pairs
from engine.lang import budgets
from engine.blocks.shapes import ANY_VALUE, EMPTY, Cell, Match, Place, Shape, Spot, empty_problem, fits, is_free, reversed_layout

if TYPE_CHECKING:
    from engine.blocks.context import StateView


class Board:
    """What one search reads of a state: the value each top piece shows, the cells by value, and the windows.

    Built once per decision and shared by every pattern looked for in it: a
    layout's windows (see :meth:`windows`) are read once for all the patterns
    of its length.
    """

    __slots__ = ("state", "read", "top", "stacked", "pairs", "_by_value", "_windows")

    def __init__(self, s: "StateView", read: Callable[[int], Any], pieces: Iterable[tuple[Cell, int]] | None = None,
                 table: Sequence[Sequence[Any]] | None = None, paired: bool = False) -> None:
        """``pieces``: the cells read, with their top pieces (default: the whole board); a piece under one of them that
        is not read is one ``read`` gives :data:`MISSING` for (see :func:`selected_board`).  ``table``: when ``read``
        gives an attribute's value, its table ``[face][component]``, which the top pieces are read from directly
        (``read(c)`` is ``table[s.face[c]][c]``), without a call per piece.  ``paired``: the whole board of a state
        that keeps pairs of pieces (engine/core/kept_pairs.py): ``pairs`` is then the state's, read by :meth:`starts`."""
        self.state = s
        self.read = read
        self.pairs: dict[Cell, set[Cell]] | None = s.pairs if paired and pieces is None else None
        face, read_pieces = s.face, s.grid.items() if pieces is None else pieces
        if table is None:
            self.top: dict[Cell, Any] = {cell: read(cid) for cell, cid in read_pieces}
        elif len(table) == 1:  # one face: no face to read
            column = table[0]
            self.top = {cell: column[cid] for cell, cid in read_pieces}
        else:
            self.top = {cell: table[face[cid]][cid] for cell, cid in read_pieces}
        self.stacked = bool(s.stacks)
        self._by_value: dict[Any, list[Cell]] | None = None
        self._windows: dict[tuple[Spot, ...], dict[tuple[Any, ...], list[Cell]]] = {}

    @property
    def by_value(self) -> dict[Any, list[Cell]]:
        """The cells read, by the value they show (worked out when first asked: many searches need none).

        >>> from engine.blocks.shapes import DEFAULT_SHAPE
        >>> class Two:
        ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
        >>> Board(Two(), "AA".__getitem__).by_value
        {'A': [(0, 0), (1, 0)]}
        """
        found = self._by_value
        if found is None:
            found = self._by_value = {}
            for cell, value in self.top.items():
                cells = found.get(value)
                if cells is None:
                    found[value] = [cell]
                else:
                    cells.append(cell)
        return found

    def share(self, other: "Board | None") -> "Board":
        """This board, reading the windows ``other`` reads when both show the same values on the same cells and
        neither has a stack (a decision that changed nothing the patterns read: their windows are read once).

        >>> class One:
        ...     grid, face, stacks = {(0, 0): 0}, [0], {}
        >>> a, b = Board(One(), "A".__getitem__), Board(One(), "A".__getitem__)
        >>> b.share(a)._windows is a._windows, Board(One(), "B".__getitem__).share(a)._windows is a._windows
        (True, False)
        """
        if other is not None and not (self.stacked or other.stacked) and other.top == self.top:
            self._windows = other._windows
        return self

    def starts(self, step: Cell) -> Iterable[Cell]:
        """The cells read whose piece may have another one ``step`` away: those that do, when the state keeps them
        (see ``paired``); else every cell read.

        >>> class Three:
        ...     grid, face, stacks, pairs = {(0, 0): 0, (1, 0): 1, (5, 5): 2}, [0, 0, 0], {}, {}
        >>> sorted(Board(Three(), "ABC".__getitem__, paired=True).starts((1, 0))), len(Board(Three(), "ABC".__getitem__).starts((1, 0)))
        ([(0, 0)], 3)
        """
        if self.pairs is None:
            return self.top
        cells = self.pairs.get(step)
        return kept_pairs(self.state, step) if cells is None else cells  # type: ignore[arg-type]

    def value_at(self, cell: Cell, depth: int) -> tuple[bool, Any]:
        """(whether a piece is there, the value it shows); ``depth`` 0 is the top piece."""
        if depth == 0:
            return (True, self.top[cell]) if cell in self.top else (False, None)
        pieces = self.state.stack(cell)
        return (True, self.read(pieces[depth])) if depth < len(pieces) else (False, None)

    def windows(self, layout: tuple[Spot, ...]) -> dict[tuple[Any, ...], list[Cell]]:
        """Wherever every place of ``layout`` holds a piece: the values read there, each with the bases (first cells) it is read at.

        Memoised: every pattern of the layout's length reads the same windows.

        >>> from engine.blocks.shapes import DEFAULT_SHAPE
        >>> class Two:
        ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1, (1, 1): 2}, [0, 0, 0], {}
        >>> board = Board(Two(), "ABA".__getitem__)
        >>> board.windows(((0, 0, 0), (1, 0, 0))), board.windows(((0, 0, 0), (0, 1, 0)))
        ({('A', 'B'): [(0, 0)]}, {('B', 'A'): [(1, 0)]})
        """
        found = self._windows.get(layout)
        if found is None:
            found = self._windows[layout] = self._read_windows(layout)
        return found

    def _read_windows(self, layout: tuple[Spot, ...]) -> dict[tuple[Any, ...], list[Cell]]:
        """The windows of ``layout``: those of the same places read backwards, reversed (a line the other way), when
        the board has them; else its shorter layout's (see :func:`_plan`) one place longer, or read cell by cell."""
        backwards, (lx, ly, _) = reversed_layout(layout)
        known = self._windows.get(backwards)
        if known is not None:
            return {read[::-1]: [(bx - lx, by - ly) for bx, by in bases] for read, bases in known.items()}
        shorter, (dx, dy, depth) = _plan(layout)
        found: dict[tuple[Any, ...], list[Cell]] = {}
        missing = MISSING
        if shorter is not None:
            get = self.top.get
            for read, bases in self.windows(shorter).items():
                for bx, by in bases:
                    value = get((bx + dx, by + dy), missing) if depth == 0 else self._read(bx + dx, by + dy, depth)
                    if value is not missing:
                        found.setdefault((*read, value), []).append((bx, by))
        elif len(layout) == 1:  # one top piece: the cells by value
            for value, cells in self.by_value.items():
                found[(value,)] = [(x - dx, y - dy) for x, y in cells]
        else:
            for x, y in self.top:
                bx, by = x - dx, y - dy
                read = tuple(self._read(bx + sx, by + sy, sd) for sx, sy, sd in layout)
                if missing not in read:
                    found.setdefault(read, []).append((bx, by))
        return found

    def _read(self, x: int, y: int, depth: int) -> Any:
        there, value = self.value_at((x, y), depth)
        return value if there else MISSING


def find(board: Board, shape: Shape, values: tuple[Any, ...], budget: int = 0) -> list[Match]:
    """The matches of ``values`` in ``shape``, with at most ``budget`` values read as another.

    Two layouts that put the same values on the same places are one match (a
    palindrome read from either end): the first layout's is kept (the others
    are not read, :meth:`Shape.distinct`; a chain's paths are merged so).
    Matches come sorted by their places.
    """
    if EMPTY in values:
        return sorted(_with_empty(board, shape, values, budget))
    if not _possible(board, shape, values, budget):
        return []
    matches = _search(board, shape, values, budget)
    if shape.kind != "chain":  # every match is on places of its own
        return sorted(matches)
    found: dict[frozenset[tuple[Place, Any]], Match] = {}
    for match in matches:
        found.setdefault(frozenset(zip(match.places, values)), match)
    return sorted(found.values())


def lies_on(board: Board, shape: Shape, values: tuple[Any, ...], budget: int = 0) -> bool:
    """Whether ``find`` would find a match (stopping at the first one).

    >>> from engine.blocks.shapes import DEFAULT_SHAPE
    >>> class Two:
    ...     grid, face, stacks = {(0, 0): 0, (1, 0): 1}, [0, 0], {}
    >>> board = Board(Two(), "AB".__getitem__)
    >>> lies_on(board, DEFAULT_SHAPE, ("B", "A")), lies_on(board, DEFAULT_SHAPE, ("B", "B")), lies_on(board, DEFAULT_SHAPE, ("B", "B"), 1)
    (True, False, True)
    """
    if EMPTY in values:
        return next(_with_empty(board, shape, values, budget), None) is not None
    if not _possible(board, shape, values, budget):
        return False
    if budget and len(values) > 1 and shape.kind != "chain" and not shape.windowed and True not in _pattern(values)[0]:
        return _lies_walked(board, shape, values, budget)
    return next(_search(board, shape, values, budget), None) is not None


def _with_empty(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """The matches of a pattern asking for empty squares (``.``) in a flat shape: each layout laid from every piece
    that may hold its first value asking for a piece; a place asking for an empty square must be on the board with no
    piece there at all (one a selection leaves out is still a piece).  Its place is in the match, read as nothing.

    >>> from engine.blocks.shapes import DEFAULT_SHAPE
    >>> class Three:
    ...     grid, face, stacks, game = {(0, 0): 0, (2, 0): 1, (1, 1): 2}, [0, 0, 0], {}, None
    >>> [m.text(("A", ".", "A")) for m in _with_empty(Board(Three(), "AAA".__getitem__), DEFAULT_SHAPE, ("A", ".", "A"), 0)]
    ['0,0 1,0 2,0']
    """
    problem = empty_problem(shape, values)
    if problem:
        raise EffectRuntimeError(f"the pattern ({', '.join(map(str, values))}) {problem}")
    s, top, missing = board.state, board.top, MISSING
    grid = getattr(s.game, "grid", None)
    on_board: Callable[[Cell], bool] = grid.contains if grid is not None else (lambda cell: True)
    occupied = s.grid
    asked = tuple(i for i, v in enumerate(values) if v != EMPTY)
    wanted = tuple(values[i] for i in asked)
    free = _pattern(wanted)[0]
    first = asked[0]
    starts = board.by_value.get(wanted[0], ()) if budget == 0 and not free[0] else top
    layouts = shape.layouts(len(values))
    for layout in (layouts[i] for i in shape.distinct(values)):
        fx, fy, _ = layout[first]
        for x, y in starts:
            bx, by = x - fx, y - fy
            cells = tuple((bx + dx, by + dy) for dx, dy, _ in layout)
            if any(values[i] == EMPTY and (cell in occupied or not on_board(cell)) for i, cell in enumerate(cells)):
                continue
            read = tuple(top.get(cells[i], missing) for i in asked)
            if missing in read:
                continue
            recolour = _misread(read, wanted, free, budget)
            if recolour is not None:
                yield Match(tuple((cell, 0) for cell in cells), tuple(asked[i] for i in recolour))


def _lies_walked(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> bool:
    """Whether values to find (none free, ``budget`` 1 or more) lie on the top pieces in a flat shape: :func:`_walks`
    with the layouts that read others' places backwards left out, each window of the others read once for the values
    both ways (:meth:`Shape.both_ways`)."""
    top, missing = board.top, MISSING
    get, first, last = top.get, values[0], values[-1]
    for step, both, rows in shape.both_ways(values):
        for x, y in board.starts(step):
            shown = top[(x, y)]
            ahead, behind = shown != first, (shown != last if both else budget + 1)
            for dx, dy, want, back in rows:
                shown = get((x + dx, y + dy), missing)
                if shown is missing:
                    break
                if shown != want:
                    ahead += 1
                if shown != back:
                    behind += 1
                if ahead > budget and behind > budget:
                    break
            else:
                return True
    return False


def _search(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """The matches, one at a time: a chain's path by path, a flat shape's walked out from the pieces, the others'
    from the board's windows."""
    if shape.kind == "chain":
        return _chains(board, shape, values, budget)
    if shape.windowed:
        return _layouts(board, shape, values, budget)
    return _walks(board, shape, values, budget)


def _walks(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """The matches of ``values`` on the top pieces in the layouts of a flat shape, layout by layout: each walked out
    from a piece that may hold the first value, as far as the places hold pieces (one question needs no windows,
    which read them all).

    A window is checked before the rest of its cells are read: a piece with none the layout's first step away
    starts none (the board may keep which, :meth:`Board.starts`), one whose second piece cannot fit (a value to find
    exactly, or the first piece's variable) neither, and without free values a window is given up at the first
    piece missing or read as another value past ``budget``."""
    free = _pattern(values)[0]
    top, missing = board.top, MISSING
    get = top.get
    if True not in free and (budget == 0 or len(values) > 1):
        first = values[0]
        for steps, counted in shape.plan(values):
            if budget == 0:  # only the pieces showing the first value may start a match
                for x, y in board.by_value.get(first, ()):
                    for _, (dx, dy), want in counted:
                        if get((x + dx, y + dy), missing) != want:
                            break
                    else:
                        yield Match((((x, y), 0), *[((x + dx, y + dy), 0) for dx, dy in steps]), ())
                continue
            for x, y in board.starts(steps[0]):
                recolour = () if top[(x, y)] == first else (0,)  # budget is 1 or more here
                for i, (dx, dy), want in counted:
                    shown = get((x + dx, y + dy), missing)
                    if shown is missing:
                        break
                    if shown != want:
                        if len(recolour) == budget:
                            break
                        recolour += (i,)
                else:
                    yield Match((((x, y), 0), *[((x + dx, y + dy), 0) for dx, dy in steps]), recolour)
        return
    # Whether the second piece can be checked before the rest are read: one variable holding the first piece's
    # value, or a value to find exactly.
    want_second = values[1] if len(values) > 1 else ANY_VALUE
    same = free[0] and is_free(want_second) and want_second == values[0] != ANY_VALUE
    exact_second = budget == 0 and not is_free(want_second)
    walks = shape.walks(len(values))
    for steps in (walks[i] for i in shape.distinct(values)):
        if not steps:  # one value: every piece is a window
            for cell, shown in top.items():
                recolour = _misread((shown,), values, free, budget)
                if recolour is not None:
                    yield Match(((cell, 0),), recolour)
            continue
        (sx, sy), rest = steps[0], steps[1:]
        for x, y in board.starts(steps[0]):
            shown = top[(x, y)]
            second = get((x + sx, y + sy), missing)
            if second is missing:  # most pieces have none the first step away: no window starts there
                continue
            if (same and second != shown) or (exact_second and second != want_second):  # the second piece can't fit
                continue
            read = [shown, second]
            for dx, dy in rest:
                shown = get((x + dx, y + dy), missing)
                if shown is missing:
                    break
                read.append(shown)
            else:
                recolour = _misread(read, values, free, budget)
                if recolour is not None:
                    yield Match((((x, y), 0), *(((x + dx, y + dy), 0) for dx, dy in steps)), recolour)




def _possible(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> bool:
    """False when the board has too few pieces for a flat pattern (see :func:`_enough`); else True."""
    return shape.windowed or _enough(board, values, budget)


def _enough(board: Board, values: tuple[Any, ...], budget: int) -> bool:
    """Whether the board holds enough pieces for a flat pattern: as many as its values, and all but ``budget`` showing them."""
    if len(board.top) < len(values):
        return False
    free, wanted = _pattern(values)
    need = len(values) - free.count(True) - budget
    if need <= 0:  # any pieces will do, read as the values
        return True
    by_value, showing = board.by_value, 0
    for value, n in wanted:
        cells = by_value.get(value)
        if cells is not None:
            showing += n if n < len(cells) else len(cells)
    return showing >= need


@lru_cache(maxsize=4096)
def _pattern(values: tuple[Any, ...]) -> tuple[tuple[bool, ...], tuple[tuple[Any, int], ...]]:
    """Which of a pattern's values are free, and how many times each fixed value appears (worked out once).

    >>> _pattern(("A", "_", "A", "$x"))
    ((False, True, False, True), (('A', 2),))
    """
    free = tuple(is_free(v) for v in values)
    return free, tuple(Counter(v for v, loose in zip(values, free) if not loose).items())


def _layouts(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """Every layout of the shape, wherever the board's pieces read the values (see :meth:`Board.windows`)."""
    for layout, bases, recolour in _readings(board, shape, values, budget):
        for bx, by in bases:
            yield Match(tuple(((bx + dx, by + dy), depth) for dx, dy, depth in layout), recolour)


def _readings(board: Board, shape: Shape, values: tuple[Any, ...],
              budget: int) -> Iterator[tuple[tuple[Spot, ...], list[Cell], tuple[int, ...]]]:
    """Each layout of the shape with the bases of its windows that read the values, and the places read otherwise."""
    free = _pattern(values)[0]
    exact = budget == 0 and True not in free
    known, layouts = board._windows, shape.layouts(len(values))
    for layout in (layouts[i] for i in shape.distinct(values)):
        windows = known.get(layout)
        if windows is None:
            windows = board.windows(layout)
        if exact:  # one look-up: the windows reading exactly the values
            bases = windows.get(values)
            if bases is not None:
                yield layout, bases, ()
            continue
        for read, bases in windows.items():
            recolour = _misread(read, values, free, budget)
            if recolour is not None:
                yield layout, bases, recolour


def _misread(read: Sequence[Any], values: tuple[Any, ...], free: tuple[bool, ...], budget: int) -> tuple[int, ...] | None:
    """The places where ``read`` shows other values than ``values`` (None: more than ``budget``, or a variable does not fit).

    >>> _misread(("A", "B", "C"), ("A", "X", "C"), (False, False, False), 1)
    (1,)
    >>> _misread(("A", "B", "C"), ("$a", "$a", "C"), (True, True, False), 1) is None
    True
    """
    recolour: list[int] = []
    bound: dict[Any, Any] = {}
    i = 0
    for value, want, loose in zip(read, values, free):
        if loose:
            if want != ANY_VALUE and bound.setdefault(want, value) != value:  # fits, inline: it runs for every window
                return None
        elif value != want:
            if len(recolour) == budget:
                return None
            recolour.append(i)
        i += 1
    return tuple(recolour)


MISSING = object()


@lru_cache(maxsize=None)
def _plan(layout: tuple[Spot, ...]) -> tuple[tuple[Spot, ...] | None, Spot]:
    """How to read a layout's windows: (the layout one place shorter, the place it adds) when that one has a top
    piece to start from; else (None, the first top piece's place), to read every window from the board's cells.

    >>> _plan(((0, 0, 0), (1, 0, 0))), _plan(((0, 0, 1), (0, 0, 0)))
    ((((0, 0, 0),), (1, 0, 0)), (None, (0, 0, 0)))
    """
    if len(layout) > 1 and any(depth == 0 for _, _, depth in layout[:-1]):
        return layout[:-1], layout[-1]
    return None, next(spot for spot in layout if spot[2] == 0)




def _chains(board: Board, shape: Shape, values: tuple[Any, ...], budget: int) -> Iterator[Match]:
    """Depth-first from every cell that may hold the first value, one adjacent occupied cell at a time (a piece
    that must show a value to find is compared on the spot, without a call)."""
    top, steps, n = board.top, shape.directions, len(values)
    get, missing, free = top.get, MISSING, _pattern(values)[0]
    starts = board.by_value.get(values[0], ()) if budget == 0 and not is_free(values[0]) else top
    s = board.state  # each path looked at spends a step: their number grows exponentially with the chain's length
    for start in starts:
        first = _step(values[0], top[start], {}, (), 0, budget)
        if first is None:
            continue
        stack: list[tuple[tuple[Cell, ...], tuple[int, ...], dict[Any, Any]]] = [((start,), *first)]
        while stack:
            path, recolour, bound = stack.pop()
            try:
                s.budget -= 1
            except AttributeError:  # a board read outside a game (a test's), which has no budget
                pass
            else:
                if s.budget < 0:
                    raise budgets.out_of_steps(s, None, "search for a chain")
            if len(path) == n:
                yield Match(tuple((c, 0) for c in path), recolour)
                continue
            i = len(path)
            x, y = path[-1]
            want, exact = values[i], not free[i] and len(recolour) == budget  # exact: only the value itself fits
            for dx, dy in reversed(steps):
                cell = (x + dx, y + dy)
                value = get(cell, missing)
                if value is missing or cell in path:
                    continue
                if exact:  # what _step says of a value to find when nothing more may be read as another
                    if value == want:
                        stack.append((path + (cell,), recolour, bound))
                    continue
                if not free[i]:  # ... and when one more may
                    stack.append((path + (cell,), recolour if value == want else recolour + (i,), bound))
                    continue
                found = _step(want, value, bound, recolour, i, budget)
                if found is not None:
                    stack.append((path + (cell,), *found))


def _step(want: Any, value: Any, bound: dict[Any, Any], recolour: tuple[int, ...], i: int,
          budget: int) -> tuple[tuple[int, ...], dict[Any, Any]] | None:
    """A chain's next piece at place ``i``: (the places read as another value, the variables bound), or None: it can't be."""
    if is_free(want):
        bound = dict(bound)
        return (recolour, bound) if fits(want, value, bound) else None
    if value == want:
        return recolour, bound
    return (recolour + (i,), bound) if len(recolour) < budget else None
