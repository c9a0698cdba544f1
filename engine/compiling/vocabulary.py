"""The names a ruleset's effect-language code can use, built from its YAML.

Given a partly compiled :class:`~engine.model.game.Game`, :func:`build_vocabulary`
defines: every enum value, every option (``board_width``), each
component kind's collection (kind ``card`` -> ``cards``), the zones (shared
ones by name, per-role ones as functions: ``hand(r)``), ``roles``,
``player_count``, ``turn``, ``current_role``, ``current_seat``, ``empty_cells``, ``all_cells``, the counters
(``gold(r)``, ``round``), and the
attributes of components (``c.value``, ``c.front.value``, ``c.face``,
``c.id``, ``c.cell``) and cells (``p.x``, ``p.y``).  Its functions are the
language's own and the engine's (:data:`ENGINE_FUNCTIONS`), then the blocks
the ruleset uses add theirs (:func:`engine.blocks.catalogue.offer_functions`)
and the ruleset its own.

>>> names = by_name(ENGINE_FUNCTIONS)
>>> "choose" in names, "damage" in names, "damage" in built_in_functions()
(True, False, True)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from engine.blocks.catalogue import block_functions
from engine.blocks.choose_function import CHOOSE
from engine.blocks.counters import GAME, CounterOf, GameCounter, key_parts
from engine.blocks.keyed_counters import KeyedCounterOf
from engine.blocks.kept_lines import runs_reached
from engine.blocks.keyed_zones import KeyedZone
from engine.blocks.showing import SHOW, SHOWN_TO
from engine.blocks.position_functions import POSITION_FUNCTIONS
from engine.blocks.walls import WALL_FUNCTIONS
from engine.blocks.state_functions import STATE_FUNCTIONS, ZoneOf
from engine.core.specs import ZoneSpec
from engine.lang import codegen
from engine.lang.selections import same_on_every_face
from engine.lang.functions import Function, by_name
from engine.lang.language import LANGUAGE
from engine.lang.kept import FIXED_ATTRIBUTES, ZONE_FAMILIES
from engine.lang.scope import ENGLISH_PLURALS, Compiled, Vocabulary, english_plural
from engine.lang.types import ANY, BOOL, CELL, INT, LIST_OF, SEAT, STR, ZONE, Component, Enum, FaceOf, ListOf, Type
from engine.model.game import Game

PLURAL_SUFFIX = "s"
BUILT_IN_NAMES = ("roles", "current_role", "player_count", "turn", "current_seat", "is_over", "winners", "board", "supply",
                  "empty_cells", "all_cells")
SPOKEN = {"current_role": "the current role", "player_count": "the number of players", "current_seat": "the current seat",
          "is_over": "the game is over", "empty_cells": "the empty cells", "all_cells": "every cell of the board"}
"""How ``rulecraft explain`` says the built-in names that are not English words."""
ENGINE_FUNCTIONS: tuple[Function, ...] = (*LANGUAGE, CHOOSE, *STATE_FUNCTIONS, *POSITION_FUNCTIONS, *WALL_FUNCTIONS, SHOW, SHOWN_TO)
"""The functions every ruleset may call: the language's own, choices, and the generic ones over roles, zones, the board and order."""


def built_in_functions() -> dict[str, Function]:
    """Every function the engine has, by name: those every ruleset may call and those the blocks add (for reference
    documentation and the names a ruleset may not take)."""
    return {**by_name(ENGINE_FUNCTIONS), **block_functions()}


def value_type(value: Any, types: dict[str, tuple[str, ...]] | None = None) -> Type:
    """The effect-language type of an option's value; ``types`` are the ruleset's enum types.

    A list has the type of its items when they all have one: whole numbers,
    true/false, values of one enum type, or other text.

    >>> [str(value_type(v, {"level": ("low", "high")})) for v in ([4, 3], ["low", "high"], ["a", "b"], ["a", 1])]
    ['list of int', 'list of level', 'list of text', 'any']
    """
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if isinstance(value, list) and value:
        kinds = {_item_type(item, types or {}) for item in value}
        if len(kinds) == 1 and ANY not in kinds:
            return ListOf(kinds.pop())
    return ANY


def _item_type(item: Any, types: dict[str, tuple[str, ...]]) -> Type:
    if isinstance(item, str):
        owners = [name for name, values in types.items() if item in values]
        return Enum(owners[0]) if owners else STR
    return value_type(item) if isinstance(item, (bool, int)) else ANY


def build_vocabulary(game: Game) -> Vocabulary:
    """The vocabulary of one ruleset: the functions every ruleset may call, and its own names."""
    v = Vocabulary(functions=by_name(ENGINE_FUNCTIONS), built_in=by_name(ENGINE_FUNCTIONS))
    v.data["types"] = game.types
    v.data["spoken"] = {name: words for name, words in SPOKEN.items() if name not in game.options}
    for type_name, values in game.types.items():
        for value in values:
            v.define_constant(value, Enum(type_name), value)
        plural = type_name + PLURAL_SUFFIX  # every value of the type, in order, as 'cards' is every card
        roles_type = game.roles is not None and game.roles.type_name == type_name  # its values are 'roles'
        if plural not in v.globals and not roles_type:  # (a name declared later, a zone, keeps its meaning)
            v.define_constant(plural, ListOf(Enum(type_name)), list(values), f"the values of {type_name}")
        v.unnamed.setdefault(type_name, f"'{type_name}' is a type, not a list in code: its values are {plural}")
    v.data["options"] = set(game.options)
    for name, value in game.options.items():
        v.define_constant(name, value_type(value, game.types), value, f"the option {name}")
    for kind, cids in game.kinds.items():
        items = list(cids)
        v.define_constant(kind + PLURAL_SUFFIX, ListOf(Component(kind)), items, f"all {kind}{PLURAL_SUFFIX}")
        for name in dict.fromkeys(game.piece_names[c] for c in cids):  # a component named in code: how to read it
            v.unnamed.setdefault(name, _read_component(name, kind + PLURAL_SUFFIX))
        faces = game.face_names.get(kind, ())
        for face in faces if len(faces) > 1 else ():  # a face named bare in code: a face's name is text
            v.unnamed.setdefault(face, f"'{face}' is a face of {kind}, and a face's name is text: write "
                                       f"c.face == \"{face}\"")
    v.data["sizes"] = _sizes(game)
    v.data["limits"] = game.limits
    _define_zones(v, game)
    _define_counters(v, game)
    if game.roles is not None:
        role_type = Enum(game.roles.type_name)
        v.data["role_type"] = role_type
        v.define("roles", ListOf(role_type), lambda s, e: s.positions, "the roles", "s.positions", walkable=True)
        v.define("current_role", role_type, lambda s, e: s.current_role, "the role whose turn it is", "s.current_role")
        for name in (game.roles.type_name, game.roles.type_name + PLURAL_SUFFIX):  # 'for r in sides' for the roles
            v.unnamed[name] = f"the values of {game.roles.type_name} are the roles: write roles"
        if game.roles.type_name not in game.types:  # no `roles:` section: seat1, seat2, ... are not names in code
            v.unnamed.update((role, f"a ruleset without 'roles' does not name its roles in code: the role of seat {i} "
                                    f"is nth(roles, {i})") for i, role in enumerate(game.roles.values, 1))
    v.define("player_count", INT, lambda s, e: s.players, "the number of players", "s.players")
    v.define("turn", INT, lambda s, e: s.turn_number, "the turn number", "s.turn_number")
    v.define("current_seat", SEAT, lambda s, e: s.seat_to_move, "the seat whose turn it is", "s.seat_to_move")
    v.define("is_over", BOOL, lambda s, e: s.outcome is not None, "the game is over")
    v.define("winners", ListOf(SEAT), lambda s, e: list(s.outcome.winners) if s.outcome else [], "the winning seats")
    fixed = game.grid is not None and game.grid.fixed  # the state keeps the empty cells of a board with edges
    v.define("empty_cells", ListOf(CELL), _empty_cells, "the empty cells of the board", "s.empty" if fixed else "",
             size=_empty_cell_count, walkable=fixed)
    _define_all_cells(v, game)
    v.data["geometry"] = game.grid.geometry.name if game.grid is not None else None
    if getattr(game.grid, "kind_type", ""):  # a board of points whose links have kinds: neighbours(CELL, KIND)
        v.data["link_type"] = Enum(game.grid.kind_type)
    v.data["board_with_edges"] = fixed
    v.data["walls"] = getattr(game.grid, "walled", False)  # a board with walls: code reads and changes them
    for point, cell in getattr(game.grid, "names", {}).items():  # a board of points: a point's name is its cell
        v.define_constant(point, CELL, cell, f"the point {point}")
    _define_component_attributes(v, game)
    v.define_attribute("cell", "x", INT, _item(lambda c: c[0], INT, "{x}[0]"), "its column")
    v.define_attribute("cell", "y", INT, _item(lambda c: c[1], INT, "{x}[1]"), "its row")
    _define_english_plurals(v, game)
    _read_components_by_english_plural(v, game)
    return v


def _read_component(name: str, listed: str) -> str:
    """What a component's name written in code is told: how code reads that component."""
    return f"'{name}' is the name of a component, not a name in code: read it as first(x in {listed} where x.id == \"{name}\")"


def _read_components_by_english_plural(v: Vocabulary, game: Game) -> None:
    """The hint for a component's name written in code lists its kind by the English plural where that names the
    list too: ``first(x in territories ...)``, not ``territorys``.

    >>> from types import SimpleNamespace
    >>> v = Vocabulary()
    >>> v.unnamed["North"] = _read_component("North", "territorys")
    >>> v.data[ENGLISH_PLURALS] = {"territories"}
    >>> _read_components_by_english_plural(v, SimpleNamespace(kinds={"territory": [0]}, piece_names=["North"]))
    >>> print(v.unnamed["North"])
    'North' is the name of a component, not a name in code: read it as first(x in territories where x.id == "North")
    """
    english = v.data.get(ENGLISH_PLURALS, set())
    for kind, cids in game.kinds.items():
        plural = english_plural(kind)
        if plural not in english:
            continue
        for name in dict.fromkeys(game.piece_names[c] for c in cids):
            if v.unnamed.get(name) == _read_component(name, kind + PLURAL_SUFFIX):
                v.unnamed[name] = _read_component(name, plural)


def _define_english_plurals(v: Vocabulary, game: Game) -> None:
    """A kind's or a type's English plural, where it is not its name with 's' (``companies``, ``boxes``, ``dice``), is
    the same list as that name, unless the ruleset gives it a meaning of its own: a zone, an option, a counter (one per
    role is called as a function), or a function of that name, defined later, which takes its place (see
    :data:`~engine.lang.scope.ENGLISH_PLURALS`).

    >>> from types import SimpleNamespace
    >>> v = Vocabulary()
    >>> v.define_constant("boxs", ListOf(Component("box")), [0, 1], "all boxs")
    >>> v.define_constant("companys", INT, 3)          # 'companys' is something else here: no 'companies'
    >>> _define_english_plurals(v, SimpleNamespace(kinds={"box": (0, 1), "company": ()}, types={}))
    >>> v.globals["boxes"].fn(None, []), v.globals["boxes"].text, "companies" in v.globals
    ([0, 1], 'all boxes', False)
    """
    lists = [(kind, ListOf(Component(kind))) for kind in game.kinds]
    lists += [(name, ListOf(Enum(name))) for name in game.types]
    for singular, type_ in lists:
        listed = v.globals.get(singular + PLURAL_SUFFIX)
        english = english_plural(singular)
        if listed is not None and listed.type == type_ and english not in v.globals and english not in v.functions:
            text = f"all {english}" if listed.text == f"all {singular}{PLURAL_SUFFIX}" else listed.text
            v.globals[english] = replace(listed, text=text)
            v.data.setdefault(ENGLISH_PLURALS, set()).add(english)


def _define_all_cells(v: Vocabulary, game: Game) -> None:
    """``all_cells``: every cell of a board with edges, row by row, empty or not — the squares a move may land on
    whatever holds them (a capture), where ``empty_cells`` gives only the free ones.  A growing board has no fixed
    cells: there the name is refused with what to write instead.

    >>> from types import SimpleNamespace
    >>> from engine.blocks.grid import SquareGrid
    >>> v = Vocabulary()
    >>> _define_all_cells(v, SimpleNamespace(grid=SquareGrid(width=2, height=2)))
    >>> v.globals["all_cells"].fn(None, [])
    [(0, 0), (1, 0), (0, 1), (1, 1)]
    """
    if game.grid is not None and game.grid.fixed:
        v.define_constant("all_cells", ListOf(CELL), list(game.grid.cells), "every cell of the board")
    else:
        v.unnamed["all_cells"] = ("all_cells lists the cells of a board with edges (a square grid's width and height, "
                                  "or a hex board); this ruleset has no such board (on a growing board, empty_cells gives the free cells)")


def _empty_cells(s: Any, e: list[Any]) -> list[Any]:
    """Every empty cell of a board with edges; on a growing board, the empty cells touching a piece that keep
    it within its limits (``max_width``, ``max_height``) — the centre, 0,0, while it is empty."""
    grid = s.game.grid
    if grid is None:
        return []
    if grid.fixed:
        return list(s.empty)  # kept by the state
    if not s.grid:
        return [(0, 0)]
    bbox = s.bbox  # worked out when a piece left its edge: read once
    return [c for c in s.frontier if grid.fits(bbox, c)]


def _empty_cell_count(s: Any, e: list[Any]) -> int:
    """How many cells ``empty_cells`` gives: on a board with edges, its cells less those taken (every piece is on one
    of its cells)."""
    grid = s.game.grid
    if grid is not None and grid.fixed:
        return len(grid.cells) - len(s.grid)
    return len(_empty_cells(s, e))


def _define_zones(v: Vocabulary, game: Game) -> None:
    v.data["zone_index"] = game.zone_index
    v.data["board_zone"] = game.board_zone
    v.data["runs_reached"] = runs_reached  # line checks written plainly read the board's kept runs
    v.data["zone_specs"] = game.zone_specs
    families: dict[str, list[int]] = v.data.setdefault(ZONE_FAMILIES, {})
    for (name, role), index in game.zone_index.items():
        if role is not None:
            families.setdefault(name, []).append(index)
    for name, spec in game.zone_specs.items():
        if spec.keys and spec.per_role:  # row(r, X) one zone, row(r) the role's, row every role's
            v.functions[name] = KeyedZone(name, f"{name}(ROLE, KEY) -> zone", spec.doc or
                                          f"The {name} of a role and a key ({spec.key_of}).",
                                          f"{name}(current_role, {spec.key_texts[0]})", spec.key_of, per_role=True,
                                          names=_key_names(game, spec))
            v.define_constant(name, ListOf(ZONE), [i for (n, key), i in game.zone_index.items() if n == name],
                              f"every {name}")
        elif spec.keys:  # column(3) one zone, column the list of them
            v.functions[name] = KeyedZone(name, f"{name}(KEY) -> zone", spec.doc or f"The {name} of a key ({spec.key_of}).",
                                          f"{name}({spec.key_texts[0]})", spec.key_of, names=_key_names(game, spec))
            v.define_constant(name, ListOf(ZONE), [game.zone_index[(name, k)] for k in spec.keys], f"every {name}")
        elif spec.per_role:
            v.functions[name] = ZoneOf(name, f"{name}(ROLE) -> zone", spec.doc or f"The {name} of a role.", f"{name}(current_role)")
        else:
            v.define_constant(name, ZONE, game.zone_index[(name, None)], spec.doc or f"the {name}")


def _key_names(game: Game, spec: ZoneSpec) -> tuple[str, ...]:
    """Every component's name, for a zone keyed by a component kind (its messages name a key so); else none."""
    return tuple(game.component_names) if spec.key_of in game.kinds else ()


def _sizes(game: Game) -> dict[str, int]:
    """How many values each type has, for the static bound on nested selections (see engine.lang.ast)."""
    sizes = {"*": max(len(game.component_names), 1), "component": max(len(game.component_names), 1)}
    sizes.update({kind: len(cids) for kind, cids in game.kinds.items()})
    sizes.update({name: len(values) for name, values in game.types.items()})
    return sizes


def _define_counters(v: Vocabulary, game: Game) -> None:
    """``gold(r)`` / ``round``: read a counter; the same names are the targets of ``=``, ``+=``, ``-=``."""
    assignable = v.data.setdefault("assignable", {})
    for name, spec in game.counters.items():
        if spec.keys is not None:
            owner = "" if spec.per == GAME else "ROLE, " if spec.per == "role" else f"{spec.per.upper()}, "
            keys, example = ("KEY", "k") if len(key_parts(spec)) == 1 else ("ROW, COLUMN", "k, n")
            fn = KeyedCounterOf(name, f"{name}({owner}{keys}) -> int", spec.doc or f"The {name} for each of {spec.key_of}.",
                                f"{name}({owner.replace('ROLE', 'current_role').lower()}{example}) >= 1", spec)
            v.functions[name] = assignable[name] = fn
        elif spec.per == GAME:
            i = spec.offset
            v.define(name, INT, lambda s, e, i=i: s.counters[i], spec.doc or f"the {name}", f"s.counters[{i}]")
            assignable[name] = GameCounter(spec)
        else:
            owner = "ROLE" if spec.per == "role" else spec.per.upper()
            fn = CounterOf(name, f"{name}({owner}) -> int", spec.doc or f"The {name} of a {spec.per}.", f"{name}(x) >= 1", spec)
            v.functions[name] = assignable[name] = fn


def _item(get: Callable[[Any], Any], type_: Type, code: str = "") -> Callable[[Compiled], Compiled]:
    """An attribute compiler applying ``get`` to the base value (none stays none); ``code`` is ``get`` as a
    Python expression over ``{x}``, the base's value."""

    def compile_(base: Compiled) -> Compiled:
        f = base.fn

        def read(s: Any, e: list[Any]) -> Any:
            x = f(s, e)
            return None if x is None else get(x)

        return Compiled(type_, read, code=codegen.guarded(base, code) if code else None)

    return compile_


def _state_item(get: Callable[[Any, int], Any], type_: Type, code: str = "") -> Callable[[Compiled], Compiled]:
    """An attribute compiler reading the state for a component (none stays none); ``code`` as for :func:`_item`."""

    def compile_(base: Compiled) -> Compiled:
        f = base.fn

        def read(s: Any, e: list[Any]) -> Any:
            c = f(s, e)
            return None if c is None else get(s, c)

        return Compiled(type_, read, code=codegen.guarded(base, code) if code else None)

    return compile_


def _define_component_attributes(v: Vocabulary, game: Game) -> None:
    attr_types = _attribute_types(game)
    face_names = [game.face_names[game.component_kind[c]] for c in range(len(game.component_names))]
    names = game.piece_names  # identical copies share their id
    kinds = game.component_kind
    most_faces = max(game.face_count, default=1)
    fixed: set[tuple[str, str]] = v.data.setdefault(FIXED_ATTRIBUTES, set())
    for kind in [*game.kinds, "component"]:
        fixed.update([(kind, "id"), (kind, "kind")])
        for attr, type_ in attr_types.items():
            table = game.attributes[attr]
            fixed.add((f"face of {kind}", attr))  # one face's value
            if same_on_every_face(table) is not None:
                fixed.add((kind, attr))
            v.define_attribute(kind, attr, type_, _per_face(table, type_), f"its {attr}")
            v.define_attribute(f"face of {kind}", attr, type_, _face_attr(table, type_), f"its {attr}")
        v.define_attribute(kind, "face", STR, _state_item(lambda s, c: face_names[c][s.face[c]], STR), "the name of the face it shows")
        v.define_attribute(kind, "id", STR, _fixed(names, STR, most_faces), "its name")
        v.define_attribute(kind, "kind", STR, _fixed(kinds, STR, most_faces), "its kind")
        v.define_attribute(kind, "cell", CELL, _state_item(lambda s, c: s.cell_of[c], CELL, "s.cell_of[{x}]"), "the board cell it is on")
        for i, face in enumerate(_faces(game, kind)):
            v.define_attribute(kind, face, FaceOf(kind, i), _face_of(i), f"its {face} face")


def _attribute_types(game: Game) -> dict[str, Type]:
    """Declared attribute types: an enum name, ``int``, ``text``, ``bool`` or ``cell`` (``table`` ones are for blocks,
    not code)."""
    simple = {"int": INT, "text": STR, "bool": BOOL}
    if "cell" not in game.types:  # a ruleset's own type of that name keeps its values
        simple["cell"] = CELL

    def type_of(t: str) -> Type:
        if t.startswith(LIST_OF):
            return ListOf(type_of(t.removeprefix(LIST_OF)))
        return simple.get(t) or (Enum(t) if t in game.types else ANY)

    return {attr: type_of(t) for attr, t in game.attribute_types.items() if t != "table"}


def _per_face(table: list[list[Any]], type_: Type) -> Callable[[Compiled], Compiled]:
    """``c.hue``: the attribute on the face the component shows (hot path: kept flat)."""
    same = same_on_every_face(table)

    def compile_(base: Compiled) -> Compiled:
        if same is not None:
            code = codegen.guarded(base, "{k}[{x}]", same)
        else:
            code = codegen.guarded(base, "{k}[s.face[{x}]][{x}]", table)
        if base.slot is not None:
            i = base.slot

            def read_local(s: Any, e: list[Any]) -> Any:
                c = e[i]
                return None if c is None else table[s.face[c]][c]

            return Compiled(type_, read_local, table=(i, table), code=code)
        f = base.fn

        def read(s: Any, e: list[Any]) -> Any:
            c = f(s, e)
            return None if c is None else table[s.face[c]][c]

        return Compiled(type_, read, code=code)

    return compile_


def _face_attr(table: list[list[Any]], type_: Type) -> Callable[[Compiled], Compiled]:
    """``c.front.hue``: the attribute on a fixed face."""

    def compile_(base: Compiled) -> Compiled:
        assert isinstance(base.type, FaceOf)
        row, f = table[base.type.face], base.fn
        code = codegen.guarded(base, "{k}[{x}]", row)
        if base.slot is not None:
            i = base.slot
            same_row = [row] * len(table)  # table[face][x] == row[x] whatever the face
            return Compiled(type_, lambda s, e: row[e[i]] if e[i] is not None else None, table=(i, same_row), code=code)

        def read(s: Any, e: list[Any]) -> Any:
            c = f(s, e)
            return None if c is None else row[c]

        return Compiled(type_, read, code=code)

    return compile_


def _fixed(row: list[Any], type_: Type, faces: int) -> Callable[[Compiled], Compiled]:
    """``c.id``, ``c.kind``: a value per component, whatever face it shows (selections filter on it fast)."""

    def compile_(base: Compiled) -> Compiled:
        code = codegen.guarded(base, "{k}[{x}]", row)
        if base.slot is not None:
            i = base.slot
            same_row = [row] * faces  # table[face][x] == row[x] whatever the face
            return Compiled(type_, lambda s, e: row[e[i]] if e[i] is not None else None, table=(i, same_row), code=code)
        f = base.fn

        def read(s: Any, e: list[Any]) -> Any:
            c = f(s, e)
            return None if c is None else row[c]

        return Compiled(type_, read, code=code)

    return compile_


def _faces(game: Game, kind: str) -> tuple[str, ...]:
    """The face names of a kind; for any component, those all kinds share (in the same order)."""
    if kind in game.face_names:
        return game.face_names[kind]
    lists = set(game.face_names.values())
    return next(iter(lists)) if len(lists) == 1 else ()


def _face_of(index: int) -> Callable[[Compiled], Compiled]:
    """``c.front``: a view of one face, read by the attribute after it."""

    def compile_(base: Compiled) -> Compiled:
        return Compiled(FaceOf(base.type.name, index), base.fn, slot=base.slot)

    return compile_
