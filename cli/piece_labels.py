"""How a piece, a value and a face-down card read at the terminal: each value's colour (its ``display`` style, else
one by its place in its type), its short label, a tile's sides as letters, the text of a piece and the values a
holder shows.

A ruleset's ``display:`` gives values their own style and short text: a piece without faces of its own then reads as
the short texts of its values (``R3``).

>>> sides_text(["a1", "a1", "b2", "c3"], {"a1": "a", "b2": "b", "c3": "c"}, {}).plain
'aabc'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.text import Text

from cli.web.sides import Sides
from engine.blocks.catalogue import drawings
from engine.core.facedown import NOBODY, face_down, hidden_from
from engine.core.showtext import abbreviations

if TYPE_CHECKING:
    from engine import Game, State


PALETTE = tuple(f"color({n})" for n in (1, 2, 4, 3, 5, 6, 9, 10, 12, 11, 13, 14))
"""Terminal colours (the 16-colour ANSI numbers) for the values of a type, by index."""


def value_styles(game: Game) -> dict[str, str]:
    """A colour for every value of every declared type: its ``display`` style, else one by its index in its type."""
    styles: dict[str, str] = {}
    for values in game.types.values():
        for i, value in enumerate(values):
            styles.setdefault(value, _style(game.display.get(value, {}).get("style")) or PALETTE[i % len(PALETTE)])
    for name, hint in game.display.items():  # a component named in display: its own style, if it gives one
        styles.setdefault(name, _style(hint.get("style")) or "")
    return styles


def _style(text: str | None) -> str | None:
    """A ``display`` style if the terminal understands it (None otherwise)."""
    if not text:
        return None
    try:
        Style.parse(text)
    except StyleSyntaxError:
        return None
    return text


def back(state: State, cid: int, styles: dict[str, str]) -> Text:
    """A face-down piece the viewer does not see: ``?``, after the short text of the role that sees it (``R?``)."""
    down = face_down(state)
    role = down.seen_by(cid) if down is not None else None
    if not isinstance(role, str) or role not in state.game.display:
        return Text("?", style="bold")
    return Text(display_text(state.game, role) + "?", style=f"bold {styles.get(role, '')}")


def own_face_down(state: State, cid: int, seat: int | None) -> bool:
    """Whether ``cid`` lies face down but was turned down for ``seat``'s role: it sees the piece, the others its back."""
    return seat is not None and not hidden_from(state, cid, seat) and hidden_from(state, cid, NOBODY)


def side_letters(game: Game, tiles: dict[str, Sides]) -> dict[str, str]:
    """The letters a tile's sides are drawn with at the terminal (see :func:`sides_text`): each value's ``display``
    short text, else its name cut to the fewest letters that tell the values apart, as many for each.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(attribute_types={"edges": "list of ground"}, types={"ground": ("Alpha", "Altus", "Beta")},
    ...                        display={})
    >>> side_letters(game, {"tile": Sides("edges", "turns")})
    {'Alpha': 'Alp', 'Altus': 'Alt', 'Beta': 'Bet'}
    """
    values = [v for spec in dict.fromkeys(tiles.values())
              for v in game.types.get(game.attribute_types[spec.values].removeprefix("list of "), ())]
    plain = [v for v in dict.fromkeys(values) if "short" not in game.display.get(v, {})]
    cut = abbreviations(plain)
    letters = abbreviations(plain, least=max((len(c) for c in cut.values()), default=1))
    letters.update((v, game.display[v]["short"]) for v in values if "short" in game.display.get(v, {}))
    return letters


def sides_text(sides: list[str], letters: dict[str, str], styles: dict[str, str], pending: bool = False) -> Text:
    """A tile with sides as the terminal draws it: the letters of the values its sides show as it lies, clockwise from
    the top, each in its value's colour — ``aabc`` an ``a`` at the top and the right, a ``b`` below, a ``c`` on the
    left; its name and the turn it was given told no edge (a cell read ``0/1/2/3``, whatever lay there).

    >>> sides_text(["a1", "a1", "b2", "c3"], {"a1": "a", "b2": "b", "c3": "c"}, {}).plain
    'aabc'
    """
    text = Text()
    for value in sides:
        text.append(letters.get(value, value), style=f"bold {styles.get(value, '')}" + (" underline" if pending else ""))
    return text


def board_labels(game: Game, cid: int) -> tuple[str, ...]:
    """The labels a square board draws for a piece's faces: its faces' labels, or its name for a piece whose one
    face has no name of its own nor values (a kind without ``faces`` or attributes would read ``f face``).

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(face_labels=[("face",), ("up", "down")], face_names={"k": ("face",), "j": ("up", "down")},
    ...                        component_kind=["k", "j"], attribute_types={}, piece_names=["P", "Q"])
    >>> board_labels(game, 0), board_labels(game, 1)
    (('P',), ('up', 'down'))
    """
    labels = game.face_labels[cid]
    if len(labels) == 1 and labels[0] == game.face_names[game.component_kind[cid]][0]:
        return (value_label(game, cid, 0),)
    return labels


def named_with_face(game: Game, cid: int) -> bool:
    """Whether a piece is told apart by its own name alone, its faces being only ways it lies: a component of its own
    (not one of identical copies), with several faces, none of them holding a value of a declared type (a path tile
    turned four ways, faces ``0``-``3`` every tile shares).  The board then shows its name and the face up, as the
    browser's table does, where the faces alone said nothing of which piece lay there.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(face_labels=[("0", "1"), ("up", "down")], component_names=["T1", "d"], piece_names=["T1", "D"],
    ...                        attribute_types={}, types={})
    >>> named_with_face(game, 0), named_with_face(game, 1)
    (True, False)
    """
    name = game.piece_names[cid]
    faces = game.face_labels[cid]
    return (game.component_names[cid] == name and len(set(faces)) > 1
            and all(value_label(game, cid, face) == name for face in range(len(faces))))


def value_label(game: Game, cid: int, face: int) -> str:
    """What a piece shows: its first attribute of a declared type on ``face`` (else its name)."""
    for name, type_name in game.attribute_types.items():
        if type_name in game.types:
            value = game.attributes[name][face][cid]
            if value is not None:
                return str(value)
    return game.piece_names[cid]


def piece_text(game: Game, state: State, cid: int, styles: dict[str, str]) -> Text | None:
    """A piece without faces of its own (one face, no per-face values) as the ``display`` short texts of its values
    (:func:`display_text`).

    None when the ruleset gives no ``display`` for any of them.
    """
    if len(game.face_labels[cid]) > 1 or game.face_labels[cid][0] != game.face_names[game.component_kind[cid]][0]:
        return None
    face = state.face[cid]
    values = [v for a, t in game.attribute_types.items() if t in game.types and (v := game.attributes[a][face][cid]) is not None]
    name = game.piece_names[cid]
    style = next((styles[v] for v in values if game.display.get(v, {}).get("style")), "")
    if "short" in game.display.get(name, {}):  # the piece's own short text says more than its values' (a rank)
        return Text(display_text(game, name), style=f"bold {styles.get(name) or (styles.get(values[0], '') if values else '')}")
    if not any(v in game.display for v in values):
        if name not in game.display:  # a piece named in display itself (one that holds no value shown)
            return None
        return Text(display_text(game, name), style=f"bold {styles.get(name, '')}")
    return Text("".join(display_text(game, v) if v in game.display else v for v in values), style=style)


def display_text(game: Game, name: str) -> str:
    """What a board shows for a value (or a component) that ``display`` names: its short text, else its name
    abbreviated to two letters at least among the names ``display`` gives, as a hex shows a value; the board's key
    says what it stands for.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(display={"North": {"style": "bold"}, "Nest": {}, "South": {"short": "S"}})
    >>> display_text(game, "North"), display_text(game, "South")
    ('No', 'S')
    """
    hint = game.display[name]
    return hint["short"] if "short" in hint else abbreviations((n for n, h in game.display.items() if "short" not in h), least=2)[name]


def held_values(game: Game, cid: int) -> list[str]:
    """The values a piece with faces of its own shows on every face alike and the ruleset gives a ``display`` for.

    A piece with faces ``[plain, crowned]`` and a ``side`` the same on both: ``["North"]`` when ``display`` names
    North, so the board can say whose piece it is as well as which face is up.  Per-face values are its faces' own
    labels already.
    """
    labelled = {part for label in game.face_labels[cid] for part in label.split("/")}
    held = []
    for attr, type_name in game.attribute_types.items():
        if type_name in game.types:
            values = {game.attributes[attr][face][cid] for face in range(game.face_count[cid])}
            value = values.pop() if len(values) == 1 else None
            if value is not None and value in game.display and value not in labelled:
                held.append(value)
    return held


def piece_counts(state: State, viewer: int | None = None) -> dict[int, list[tuple[str, int]]]:
    """The non-zero counters each component keeps, by component: ``{3: [('seeds', 4)]}``.

    As the counters' list below the board: only the shown ones, not those a block draws itself, nor those of a
    face-down piece ``viewer`` does not see (None: every piece seen); a keyed counter is listed there only.
    """
    game = state.game
    by_blocks = {name for drawing in drawings(state, None) for name in drawing.counters}
    counts: dict[int, list[tuple[str, int]]] = {}
    for name, spec in game.counters.items():
        if spec.per in ("game", "role") or spec.keys is not None or not spec.shown or name in by_blocks:
            continue
        for i, owner in enumerate(spec.owners):
            if state.counters[spec.offset + i] and not (isinstance(owner, int) and hidden_from(state, owner, viewer)):
                counts.setdefault(owner, []).append((name, state.counters[spec.offset + i]))
    return counts
