"""The parts of a scenario's ``position``: its components, cells and zones, and a position ``from_setup``.

A written position starts from an empty table; one ``from_setup: true`` starts where the ruleset's own setup
leaves the game and changes only what it lists::

    position:
      from_setup: true
      board:
        "9,5": B/A            # taken from wherever it is; what the setup put here goes to the supply
        "0,0": []             # this cell is emptied
      zones:
        hand(A): [A/B]        # exactly this: what the zone held goes to the supply

Whatever the listed cells and zones held and the position does not list again goes to the ``rest`` zone
(the supply unless ``rest:`` says).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain
from typing import Any

from engine.blocks.cellnames import PLAIN
from engine.blocks.enumeration import out_of_reach
from engine.compiling.zones import keyed_zone_name
from engine.core import limits
from engine.core.errors import RulesetError, SourcePos, did_you_mean
from engine.core.showtext import cut
from engine.core.yamlsource import Mapping, Sequence
from engine.model.game import Game
from engine.model.state import State

Listed = dict[int, "SourcePos | None"]
"""Each component a position has listed so far, and where."""


def list_once(game: Game, listed: Listed, cid: int, pos: SourcePos | None) -> None:
    """Note that the position lists component ``cid`` at ``pos``; a component has one place, so listing it twice is an error."""
    if cid in listed:
        first = listed[cid]
        where = f" (first at line {first.line})" if first is not None and pos is not None and first.file == pos.file else (
            f" (first at {first})" if first is not None else "")
        raise RulesetError.at(pos, f"{game.component_names[cid]} is listed twice{where}: a component is in one place")
    listed[cid] = pos


def read_piece(game: Game, text: Any, pos: SourcePos | None, s: State, pool: int = 0, taken: Listed | None = None,
               here: Iterable[int] = ()) -> tuple[int, int]:
    """``A/B`` (front up) or ``A/B as B``: a component and its face.

    The id of identical copies (``count:``) means the next copy still in the ``pool`` zone (the supply).  From a
    setup (``taken``: the components listed so far), it means a copy not yet listed: one ``here`` (where it is
    listed) first, else one in the pool, else the first other copy, wherever it is.
    """
    m = re.fullmatch(r"\s*(\S+)(?:\s+as\s+(\S+))?\s*", str(text))
    if not m:
        words = "-".join(str(text).split())  # a name in words ("Tall piece") as an id joins them (tall-piece)
        near = did_you_mean(words, [*game.component_ids, *game.identical]) if words else None
        raise RulesetError.at(pos, f"'{text}' is not a component (write 'ID' or 'ID as FACE')", near)
    name, label = m.groups()
    name = game.other_names.get(name, name)  # as a rulebook prints it (also:)
    cid = game.component_ids.get(name)
    if cid is None and name in game.identical:
        if taken is None:
            cid = next((c for c in s.zones[pool] if game.piece_names[c] == name), None)
        else:
            copies = chain(here, s.zones[pool], game.identical[name])
            cid = next((c for c in copies if game.piece_names[c] == name and c not in taken), None)
        if cid is None:
            done = "used" if taken is None else "listed"
            raise RulesetError.at(pos, f"all {len(game.identical[name])} copies of '{name}' are already {done}")
    if cid is None:
        hint = did_you_mean(name, [*game.component_ids, *game.identical]) or known_components(game.piece_names)
        raise RulesetError.at(pos, f"unknown component '{name}'", hint)
    if label is None:
        return cid, 0
    labels = game.face_labels[cid]
    if label in labels:
        return cid, labels.index(label)
    names = game.face_names[game.component_kind[cid]]
    if label in names:
        return cid, names.index(label)
    raise RulesetError.at(pos, f"{name} has no face '{label}'", f"its faces are {' and '.join(labels)}")


def read_cell(text: str, pos: SourcePos | None, game: Game | None = None) -> tuple[int, int]:
    """The cell ``text`` writes: ``"1,0"``, on a board of points a point's name, on a board that names its cells
    (``cell_names``) a cell's name (``e4``) of ``game``."""
    from engine.blocks.grid import parse_cell

    names = getattr(game.grid, "names", None) if game is not None else None
    if names and str(text) in names:
        return names[str(text)]
    named = game is not None and game.cell_names is not PLAIN
    cell = game.read_cell(str(text)) if named else parse_cell(str(text))
    if cell is None and names:
        raise RulesetError.at(pos, f"'{cut(str(text), 60)}' is not a cell (write it like \"1,0\") nor a point's name",
                              did_you_mean(str(text), names))
    if cell is None:
        example = f"\"{game.cell_text((0, 0))}\" or \"0,0\"" if named else "\"1,0\""
        raise RulesetError.at(pos, f"'{cut(str(text), 60)}' is not a cell (write it like {example})")
    if any(limits.current().too_large(v) for v in cell):
        raise RulesetError.at(pos, f"cell '{cut(str(text), 60)}' has a coordinate of more than "
                                   f"{limits.current().integer_digits} digits {limits.exceeded('integer_digits')}")
    return cell


def read_zone(game: Game, text: str, pos: SourcePos | None) -> int:
    """The zone ``text`` names: ``discard``, a role's own ``hand(A)``, the zone of a key, ``column(3)``, or of a
    role and a key, ``row(A, X)``."""
    m = re.fullmatch(r"\s*(\w+)\s*\(\s*(-?[\w-]+)\s*(?:,\s*(-?[\w-]+)\s*)?\)\s*", text)
    zone = m.group(1) if m else text.strip()
    spec = game.zone_specs.get(zone)
    args = [a for a in m.groups()[1:] if a is not None] if m else []
    if spec is not None and spec.keys:
        if len(args) != 1 + spec.per_role:
            roles = game.roles.values if game.roles else ()
            example = ", ".join([*roles[:1], spec.key_texts[0]] if spec.per_role else [spec.key_texts[0]])
            raise RulesetError.at(pos, f"zone '{zone}' is kept per {'role and ' if spec.per_role else ''}key "
                                       f"({spec.key_of}): name one of them", f"like {zone}({example})")
        name = keyed_zone_name(zone, *reversed(args))
    elif len(args) == 2:
        raise RulesetError.at(pos, f"zone '{zone}' is not kept per role and key: name it "
                                   f"{zone + '(ROLE)' if spec is not None and spec.per_role else zone}")
    else:
        name = f"{zone} of {args[0]}" if args else zone
    if name in game.zone_names:
        return game.zone_names.index(name)
    if spec is not None and spec.keys:
        roles = game.roles.values if game.roles else ()
        if spec.per_role and args[0] not in roles:
            raise RulesetError.at(pos, f"there is no {zone} of {args[0]}", did_you_mean(args[0], roles))
        raise RulesetError.at(pos, f"{zone} has no key {args[-1]}: its keys are {spec.key_of}",
                              did_you_mean(args[-1], spec.key_texts))
    raise RulesetError.at(pos, f"unknown zone '{text}'", did_you_mean(name, game.zone_names))


def board_cell(game: Game, s: State, board: Mapping, cell_text: str) -> tuple[tuple[int, int], list[Any]]:
    """A cell listed under a position's ``board`` and what it lists there, top first (``[]`` or nothing: no piece).

    A cell off the board, past a growing board's limits or its reach, or a stack on a board without stacking is an
    error.
    """
    where = board.key_pos.get(cell_text)
    cell = read_cell(cell_text, where, game)
    pieces = board[cell_text]
    stack = list(pieces) if isinstance(pieces, list) else [] if pieces is None else [pieces]
    if game.grid is not None and not game.grid.contains(cell):
        raise RulesetError.at(where, f"cell {cut(cell_text, 60)} is not on the board" + (
            f" (its cells are {game.cell_text(game.grid.cells[0])} to {game.cell_text(game.grid.cells[-1])})"
            if game.cell_names is not PLAIN else ""))
    if stack and game.grid is not None and not game.grid.fixed and not game.grid.fits(s.bbox, cell):
        wide, tall = game.grid.max_width, game.grid.max_height
        bound = " and ".join(x for x in (f"{wide} wide" if wide else "", f"{tall} tall" if tall else "") if x)
        raise RulesetError.at(where, f"cell {cell_text} takes the board past its limits (at most {bound}) "
                                     "with the cells above it")
    if stack and (far := out_of_reach(game.grid, [cell], len(game.component_names))) is not None:
        raise RulesetError.at(where, far)
    if len(stack) > 1 and not (game.grid is not None and game.grid.stacking):
        raise RulesetError.at(where, "only a board with 'stacking' holds several pieces on one cell")
    return cell, stack


def change_setup(game: Game, s: State, position: Mapping, listed: Listed) -> int:
    """Change the state a setup left as a position ``from_setup`` lists; returns the zone of the rest.

    Each listed cell holds exactly the pieces listed there and each listed zone exactly its listed components,
    in order, each taken from wherever it is; what they held and is not listed goes to the rest zone.
    """
    pool = read_zone(game, str(position["rest"]), position.pos_of("rest")) if "rest" in position else 0
    board = position.get("board") or Mapping(position.pos)
    cells: set[tuple[int, int]] = set()
    for cell_text in board:
        cell, stack = board_cell(game, s, board, cell_text)
        if cell in cells:
            raise RulesetError.at(board.key_pos.get(cell_text), f"cell {cell_text} is listed twice")
        cells.add(cell)
        pieces = board[cell_text]
        here = s.stack(cell)
        chosen = []
        for i, text in enumerate(stack):
            pos = pieces.pos_of(i) if isinstance(pieces, Sequence) else board.pos_of(cell_text)
            chosen.append(read_piece(game, text, pos, s, pool, listed, here))
            list_once(game, listed, chosen[-1][0], pos)
        for cid in here:
            s.move(cid, pool)
        for cid, face in reversed(chosen):  # a stack is listed from the top down
            s.place(cid, cell, face)
    zones = position.get("zones") or Mapping(position.pos)
    for zone_text, items in zones.items():
        zone = read_zone(game, zone_text, zones.key_pos.get(zone_text))
        if zone == game.board_zone:
            raise RulesetError.at(zones.key_pos.get(zone_text), "put pieces on the board under 'board:' with their cells")
        if zone == pool:
            raise RulesetError.at(zones.key_pos.get(zone_text), f"'{zone_text}' takes what the position sets aside, "
                                  "so it cannot be listed exactly", "name another zone for the rest under 'rest:'")
        here = tuple(s.zones[zone])
        chosen = []
        for i, text in enumerate(items or []):
            chosen.append(read_piece(game, text, items.pos_of(i), s, pool, listed, here))
            list_once(game, listed, chosen[-1][0], items.pos_of(i))
        for cid in here:
            s.move(cid, pool)
        for cid, face in chosen:
            s.move(cid, zone)
            s.show(cid, face)
    return pool


def known_components(piece_names: Iterable[str], limit: int = 40) -> str:
    """The names a position may use for the game's components, for a name that is none of them and near none.

    A rulebook may call a component otherwise than the ruleset does (a card
    printed "*" that the ruleset names ``star``); no spelling leads from one to
    the other, so the message lists the names, the first ``limit`` of them.

    >>> known_components(["0", "1", "star", "star"])
    'the components are named: 0, 1, star'
    >>> known_components(["0", "1", "star", "star"], limit=2)
    'the components are named: 0, 1, ... (3 names)'
    """
    names = list(dict.fromkeys(piece_names))
    shown = ", ".join(names[:limit]) + (f", ... ({len(names)} names)" if len(names) > limit else "")
    return f"the components are named: {shown}"

