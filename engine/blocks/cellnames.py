"""How a ruleset's cells are written and read: ``x,y`` (the default), or as players of square-board games name them.

A fixed square grid may say ``cell_names: algebraic``: columns ``a``, ``b``, ``c`` ... from x = 0 (after ``z``,
``aa``, ``ab`` ...) and rows ``1``, ``2``, ``3`` ... from y = 0, so ``(4, 1)`` is ``e2``.  The names are the
game's (``game.cell_text``, ``game.read_cell``); every text form of a cell uses them, and ``x,y`` is still read.
Code keeps cells as ``(x, y)``.  A board of points may say ``cell_names: names``: its points are written by their
names (``Alpha``), as :class:`PointNames` does.

>>> PLAIN.text((4, 1)), PLAIN.read("4,1"), PLAIN.read("e2")
('4,1', (4, 1), None)
>>> names = Algebraic(8, 8)
>>> names.text((4, 1)), names.read("e2"), names.read("E2"), names.read("4,1"), names.read("e0")
('e2', (4, 1), (4, 1), (4, 1), None)
>>> column_letters(0), column_letters(25), column_letters(26), column_number("aa")
('a', 'z', 'aa', 27)
"""

from __future__ import annotations

import re

from engine.blocks.grid import Cell, format_cell, parse_cell

STYLES = ("numbers", "algebraic")
"""The values of a square grid's ``cell_names``."""


TYPED_XY = r"-?[0-9]+,-?[0-9]+"
"""A cell written ``x,y``, as a whole typed text."""

CELL_IN_TEXT = re.compile(r"(?<![\w.-])(-?\d+),(-?\d+)(?![\w.])")
"""A cell written ``x,y`` inside an action's text (``at 3,-1``, ``3,-1:2``)."""


class CellNames:
    """Cells written ``x,y`` and read so (``(x, y)`` too): what a ruleset without ``cell_names`` uses."""

    style = "numbers"
    named = False  # cells have names (``e2``), not only ``x,y``

    def text(self, cell: Cell, brackets: bool = False) -> str:
        """The text form of ``cell``; with ``brackets``, as a log line writes it: ``(4,1)`` (a name stands alone)."""
        return f"({cell[0]},{cell[1]})" if brackets else format_cell(cell)

    def read(self, text: str) -> Cell | None:
        """The cell ``text`` writes; None when it writes none."""
        return parse_cell(text)

    def column(self, x: int) -> str:
        """The label of column ``x`` at a drawn board's edge."""
        return str(x)

    def row(self, y: int) -> str:
        """The label of row ``y`` at a drawn board's edge."""
        return str(y)

    def typed(self, text: str) -> str:
        """``text`` with each word that writes a cell ``x,y`` written by its name (the same text without names).

        >>> Algebraic(8, 8).typed("move 4,1 to e4"), PLAIN.typed("move 4,1 to 4,3")
        ('move e2 to e4', 'move 4,1 to 4,3')
        """
        return text

    def found_in(self, text: str) -> list[Cell]:
        """The cells a text (an action's) names by their names, in order; none without names."""
        return []

    typed_cell = TYPED_XY
    """A typed text that is one cell as a whole, lower case: a regular expression that the web page's filter reads too."""

    def cell_words(self, text: str) -> list[str]:
        """How a typed text writes each cell an action's ``text`` names (lower case): ``x,y``, and its name when cells
        have names.

        >>> PLAIN.cell_words("move 0,1 to -1,2"), Algebraic(8, 8).cell_words("move E2 to e4")
        (['0,1', '-1,2'], ['4,1', 'e2', '4,3', 'e4'])
        """
        return [f"{x},{y}" for x, y in CELL_IN_TEXT.findall(text)]

    def lists(self, typed: str, text: str) -> bool:
        """Whether an action's ``text`` is listed for a part of an action a player typed (``rulecraft play``, the web
        page's filter): when ``typed`` is one cell as a whole (``1,1``, ``a1``), the actions naming that very cell (not
        ``11,1`` nor ``a10``); else those whose text contains it, in any case.

        >>> Algebraic(12, 12).lists("a1", "choose P at a10"), Algebraic(12, 12).lists("a1", "choose a1")
        (False, True)
        >>> PLAIN.lists("1,1", "place X at 11,1"), PLAIN.lists("X at", "place X at 11,1")
        (False, True)
        >>> PLAIN.lists("01,00", "place X at 1,0"), PLAIN.lists("1" * 5000 + ",1", "place X at 1,1")
        (True, False)
        """
        typed = typed.strip().lower()
        if re.fullmatch(self.typed_cell, typed):
            return re.sub(r"(?<!\d)0+(?=\d)", "", typed) in self.cell_words(text)  # 01,1 is 1,1
        return typed in text.lower()

    def describe(self) -> str:
        """How cells are named, in English, for ``rulecraft explain`` ("" for ``x,y``)."""
        return ""


PLAIN = CellNames()
"""Cells as ``x,y``."""


def column_letters(x: int) -> str:
    """Column ``x`` (from 0) in letters: ``a`` .. ``z``, then ``aa``, ``ab`` ..."""
    letters = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def column_number(letters: str) -> int:
    """The column (from 1) ``letters`` names: ``a`` is 1, ``aa`` 27."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - ord("a") + 1
    return n


NAME = re.compile(r"([a-zA-Z]{1,3})([1-9][0-9]{0,5})")
"""A cell's name: its column's letters, then its row's number from 1."""

NAMED_IN_TEXT = re.compile(r"(?<![\w.-])([a-zA-Z]{1,3}[1-9][0-9]{0,5})(?![\w.])")
"""A word of a text that may be a cell's name (``at e4``, ``e4:2``)."""

TYPED_CELL = re.compile(r"(?<![\w,.-])(-?[0-9]+),(-?[0-9]+)(?![\w,.])")
"""A cell written ``x,y`` inside a typed action (as a word or before ``:2``)."""


class Algebraic(CellNames):
    """Columns in letters from x = 0, rows numbered from 1 at y = 0: ``e2`` is ``(4, 1)`` (``cell_names: algebraic``).

    The names of a board's cells are worked out once; a cell off the board is named as well (``d4`` typed on a 3x3
    board reads back as ``d4``), but for one left of column a or below row 1, or past what a name writes (column
    ``zzz``, row 999999), which reads ``x,y``.

    >>> Algebraic(3, 3).text((3, 3)), Algebraic(3, 3).text((-1, 0)), Algebraic(3, 3).text((99999, 0))
    ('d4', '-1,0', '99999,0')
    """

    style = "algebraic"
    named = True

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self._texts = {(x, y): f"{column_letters(x)}{y + 1}" for x in range(width) for y in range(height)}

    def text(self, cell: Cell, brackets: bool = False) -> str:
        found = self._texts.get(cell)
        if found is not None:
            return found
        x, y = cell
        name = f"{column_letters(x)}{y + 1}" if x >= 0 and y >= 0 else ""
        return name if NAME.fullmatch(name) else super().text(cell, brackets)

    def read(self, text: str) -> Cell | None:
        m = NAME.fullmatch(text.strip())
        if m:
            return column_number(m.group(1).lower()) - 1, int(m.group(2)) - 1
        return parse_cell(text)

    def column(self, x: int) -> str:
        return column_letters(x) if x >= 0 else str(x)

    def row(self, y: int) -> str:
        return str(y + 1) if y >= 0 else str(y)

    def describe(self) -> str:
        """
        >>> Algebraic(8, 8).describe()
        'cells named by column and row: columns a to h from x = 0, rows 1 to 8 from y = 0 (a1 is 0,0, h8 is 7,7)'
        """
        last = (self.width - 1, self.height - 1)
        return (f"cells named by column and row: columns a to {self.column(last[0])} from x = 0, rows 1 to "
                f"{self.row(last[1])} from y = 0 (a1 is 0,0, {self.text(last)} is {format_cell(last)})")

    def found_in(self, text: str) -> list[Cell]:
        """
        >>> Algebraic(8, 8).found_in("move e2 to e4"), Algebraic(8, 8).found_in("take z9 at h8:2")
        ([(4, 1), (4, 3)], [(7, 7)])
        """
        return [cell for word in NAMED_IN_TEXT.findall(text) if (cell := self.read(word)) in self._texts]

    typed_cell = f"[a-z]{{1,3}}[1-9][0-9]{{0,5}}|{TYPED_XY}"

    def cell_words(self, text: str) -> list[str]:
        return [word for cell in self.found_in(text) for word in (format_cell(cell), self.text(cell))]

    def typed(self, text: str) -> str:
        return TYPED_CELL.sub(lambda m: m.group() if (cell := parse_cell(m.group())) is None else self.text(cell), text)


POINT_STYLES = ("numbers", "names")
"""The values of a board of points' ``cell_names``."""


class PointNames(CellNames):
    """A board of points whose points are written by their names (``cell_names: names``): ``place R at Alpha``, the
    log's ``at Alpha``; ``x,y`` is still read, and a name typed in any case.

    >>> names = PointNames({"Alpha": (0, 0), "Beta": (2, 0)})
    >>> names.text((2, 0)), names.text((2, 0), brackets=True), names.text((5, 5)), names.read("beta"), names.read("0,0")
    ('Beta', 'Beta', '5,5', (2, 0), (0, 0))
    >>> names.found_in("move Alpha to Beta:2"), names.typed("place R at 2,0"), names.cell_words("choose Beta")
    ([(0, 0), (2, 0)], 'place R at Beta', ['2,0', 'beta'])
    >>> names.lists("alpha", "choose Alpha"), names.lists("alp", "choose Alpha")
    (True, True)
    """

    style = "names"
    named = True

    def __init__(self, points: dict[str, Cell]) -> None:
        self.points = dict(points)
        self._texts = {cell: name for name, cell in self.points.items()}
        self._folded = {name.casefold(): cell for name, cell in self.points.items()}
        self.typed_cell = "|".join([*(re.escape(name.casefold()) for name in self.points), TYPED_XY])

    def text(self, cell: Cell, brackets: bool = False) -> str:
        found = self._texts.get(cell)
        return found if found is not None else super().text(cell, brackets)

    def read(self, text: str) -> Cell | None:
        text = text.strip()
        return self.points.get(text) or self._folded.get(text.casefold()) or parse_cell(text)

    def describe(self) -> str:
        """
        >>> PointNames({"Alpha": (0, 0)}).describe()
        'points written by their names in actions and logs (Alpha is 0,0)'
        """
        name, cell = next(iter(self.points.items()))
        return f"points written by their names in actions and logs ({name} is {format_cell(cell)})"

    def found_in(self, text: str) -> list[Cell]:
        return [cell for word in re.split(r"[\s:]+", text) if (cell := self._folded.get(word.casefold())) is not None]

    def cell_words(self, text: str) -> list[str]:
        return [word for cell in self.found_in(text) for word in (format_cell(cell), self.text(cell).casefold())]

    def typed(self, text: str) -> str:
        return TYPED_CELL.sub(lambda m: m.group() if (cell := parse_cell(m.group())) is None else self.text(cell), text)


def cell_names(style: str, width: int, height: int) -> CellNames:
    """The naming a fixed ``width`` x ``height`` grid's ``cell_names: STYLE`` gives."""
    return Algebraic(width, height) if style == "algebraic" else PLAIN
