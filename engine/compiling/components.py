"""Components: the kinds of component, their attributes, and every instance, as the game's tables.

::

    components:
      tile:
        faces: [up, down]                         # default: one face, "face"
        attributes:
          shade: {type: shade, per_face: true}    # a declared type, or int, text, bool, cell, table
          cost: {type: int, list: true}
          spot: cell                              # a cell of the board: a point's name, "x,y" or [x, y]
        instances:
          - light/dark                            # one value per face of the one per-face attribute
          - {id: t9, shade: [dark, dark], cost: [1, 2], count: 3}   # three identical tiles, t9-1..t9-3

Components are numbered in the order they are listed; each attribute is a
table of rows (one per face) of values (one per component).

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "components: {tile: {attributes: {cost: int}, instances: [{id: t, cost: 2, count: 2}]}}\\n"))
>>> read_components(b)
>>> b.game.component_names, b.game.identical, b.game.attributes["cost"]
(['t-1', 't-2'], {'t': (0, 1)}, [[2, 2]])
>>> check_value(b, "two", "int", None, "a cost")
>>> b.sink.items[-1].message
"a cost must be a whole number, not 'two'"
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from engine.blocks.shapes import ANY_VALUE, EMPTY, VARIABLE, VARIABLE_NAME, is_free
from engine.compiling.instance_sets import expand_instances
from engine.core import limits
from engine.core.errors import SourcePos, did_you_mean
from engine.core.lookalike import skeleton, told_apart
from engine.core.showtext import breaking_character, one_line
from engine.core.yamlsource import Mapping, Sequence, plain, yaml_text
from engine.lang.types import BUILT_IN, LIST_OF

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.compiling.builder import Builder

TABLE = "table"  # an attribute holding structured YAML that a building block reads (code can't)
CELL = "cell"  # a cell of the board (a point's name, "x,y" or [x, y]): engine.compiling.cell_attributes reads it
PLAIN_TYPES = ("int", "text", "bool", CELL, TABLE)
_PLAIN_WORDS = {"number": "int", "integer": "int", "whole number": "int", "str": "text", "string": "text",
                "boolean": "bool", "true/false": "bool", "flag": "bool"}
"""Other names for the plain types, as other languages and schemas write them."""


def read_components(b: "Builder") -> None:
    """``components``: each kind's faces, attributes and instances, as the game's component tables (none: a game of counters)."""
    g = b.game
    kinds = b.tree.get("components") or {}
    attr_decls: dict[str, tuple[str, bool]] = {}
    full = False
    written: dict[str, SourcePos | None] = {}  # each component id, where it is first written
    also: list[tuple[Mapping, str]] = []  # the instances giving other names (``also:``), with their ids
    for kind, spec in kinds.items():
        b.check_identifier(kind, kinds.key_pos.get(kind), "component kind")
        faces = tuple(str(f) for f in spec.get("faces") or ["face"])
        for i, face in enumerate(faces):
            if face in faces[:i]:
                b.error(b.pos(spec.get("faces"), i), f"face '{face}' of {kind} is listed twice")
            check_written_name(b, face, b.pos(spec.get("faces"), i), f"face of {kind}")
        g.face_names[kind] = faces
        attrs = _attribute_decls(b, kind, spec, attr_decls)
        refused = frozenset(name for name in spec.get("attributes") or {} if name in BUILT_IN)  # reported where declared
        defaults = _attribute_defaults(b, spec, attrs)
        if "instances" in spec:  # entries made by `each` written out, for the blocks that read the instances too
            spec["instances"] = expand_instances(b, spec)
        for i, inst in enumerate([] if full else spec.get("instances") or []):
            if not _room_for(b, inst, b.pos(spec["instances"], i)):
                full = True
                break
            _instance(b, kind, faces, attrs, inst, b.pos(spec["instances"], i), defaults, refused)
            ident = inst.get("id") if isinstance(inst, Mapping) else inst
            written.setdefault(str(ident), inst.pos_of("id") if isinstance(inst, Mapping) else b.pos(spec["instances"], i))
            if isinstance(inst, Mapping) and "also" in inst:
                also.append((inst, str(ident)))
        # a kind of no component (its problems reported, or every count 0: a deck of 0 cards) is still a kind: code
        # naming it reads an empty list, where it was told 'unknown name' ('tokens' for a kind 'token' of count 0)
        g.kinds.setdefault(str(kind), [])
    check_told_apart(b, written)
    read_other_names(b, also)
    for attr, (type_name, _) in attr_decls.items():
        g.attribute_types[attr] = type_name
    most = max(map(len, g.face_names.values()), default=1)
    for table in g.attributes.values():  # a row per face even when no component has that many (or none at all)
        while len(table) < most:
            table.append([None] * len(g.component_names))


def read_other_names(b: "Builder", also: list[tuple[Mapping, str]]) -> None:
    """Each instance's ``also:``: other names a user may write for it (in actions, scenarios, look-ups), as a
    rulebook prints it (``*`` for ``star``); the log and saves keep the id.  Each is one word, and names no other
    component, nor another's other name.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "components: {card: {instances: [{id: star, also: '*'}, {id: '0', also: [zero, star]}]}}\\n"))
    >>> read_components(b)
    >>> b.game.other_names, b.sink.items[0].message
    ({'*': 'star', 'zero': '0'}, "'star' is the id of a component, so it cannot also name 0")
    """
    g = b.game
    for inst, ident in also:
        names = inst["also"] if isinstance(inst["also"], list) else [inst["also"]]
        for k, name in enumerate(names):
            pos = b.pos(inst["also"], k) if isinstance(inst["also"], list) else inst.pos_of("also")
            name = str(name)
            if not name or len(name.split()) != 1 or name != name.strip():
                b.error(pos, f"other name '{one_line(name)}' of {ident} must be one word (no spaces)",
                        "an action is read word by word: each other name stands for the id in one word")
            elif not check_written_name(b, name, pos, "other name", "in actions and scenarios"):
                continue
            elif name in g.component_ids or name in g.identical:
                b.error(pos, f"'{name}' is the id of a component, so it cannot also name {ident}")
            elif name in g.other_names and g.other_names[name] != ident:
                b.error(pos, f"'{name}' already names {g.other_names[name]}, so it cannot also name {ident}")
            else:
                g.other_names[name] = ident


TELLING_WORDS = re.compile(r"\s+(from|as|at)\s+", re.IGNORECASE)
"""The words an action tells copies of a component apart by: the zone it lies in (``c1 from z2``), the face it
shows (``c1 as f2``), its cell on the board (``c1 at 3,4``)."""


def check_told_apart(b: "Builder", written: dict[str, SourcePos | None]) -> None:
    """Report each component id that reads as another component told apart from its copies (``c1 from z2`` beside a
    ``c1``): a choice offering both offered one of them, the other lost under the same action text.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "{}"))
    >>> check_told_apart(b, {"c1": None, "c1 from z2": None, "c2 at noon": None})
    >>> print(b.sink.items[0].message)
    component id 'c1 from z2' reads as the component c1 told apart by 'from' (c1 from z2, a copy of c1 lying in z2): a choice offering both would offer them as one action
    """
    names = {name.casefold(): name for name in written}
    for name, pos in written.items():
        for match in TELLING_WORDS.finditer(name):
            other = names.get(name[:match.start()].casefold())
            if other is not None and other != name:
                how = {"from": f"a copy of {other} lying in {name[match.end():]}", "as": f"a copy of {other} showing "
                       f"its face {name[match.end():]}", "at": f"a copy of {other} on the board at {name[match.end():]}"}
                b.error(pos, f"component id '{name}' reads as the component {other} told apart by '{match.group(1)}' "
                             f"({name}, {how[match.group(1).lower()]}): a choice offering both would offer them as one "
                             "action", f"name it otherwise than {other} followed by 'from', 'as' or 'at'")
                break


def check_written_name(b: "Builder", name: str, pos: SourcePos | None, what: str,
                       shown_in: str = "in actions and log lines", line_breaks_only: bool = False) -> bool:
    """Whether ``name`` (a component's id, a face's name, a display's short text) can stand in an action's text or a
    board's cell, else reported: it may hold no line break or other control character, which would split the action,
    the log lines naming it or the board's rows (and forge others at the terminal), and could not be typed
    (``line_breaks_only``: a name only shown, whose other control characters are shown as escapes).

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "{}"))
    >>> check_written_name(b, "Mill 2", None, "component id"), check_written_name(b, "a\\nb", None, "component id")
    (True, False)
    >>> print(b.sink.items[0].message)
    component id 'a\\nb' holds a line break or another control character (\\n): it is written in actions and log lines
    """
    bad = breaking_character(name, line_breaks_only)
    if bad is None:
        return True
    written = one_line(name).replace("\t", "\\t")
    b.error(pos, f"{what} '{written}' holds a line break or another control character ({repr(bad)[1:-1]}): it is "
                 f"written {shown_in}", "write it with letters, digits, spaces and signs")
    return False


def _room_for(b: "Builder", inst: Any, pos: SourcePos | None) -> bool:
    """Whether the components so far and this instance's copies fit the ``components`` limit (reported once when not)."""
    copies = inst.get("count", 1) if isinstance(inst, Mapping) else 1
    copies = copies if isinstance(copies, int) and 0 < copies <= limits.current().copies else 1
    most = limits.current().components
    if len(b.game.component_names) + copies <= most:
        return True
    b.error(pos, f"this ruleset has more than {most:,} components in all (counting every copy) {limits.exceeded('components')}")
    return False


def _attribute_decls(b: "Builder", kind: str, spec: Mapping, decls: dict[str, tuple[str, bool]]) -> dict[str, tuple[str, bool]]:
    attrs: dict[str, tuple[str, bool]] = {}
    raw = spec.get("attributes") or {}
    for name, decl in raw.items():
        b.check_identifier(name, raw.key_pos.get(name), "attribute")
        if name in BUILT_IN:  # the built-in one would win (c.id) or the instance's key would never reach it (count)
            b.error(raw.key_pos.get(name), f"'{name}' is already {BUILT_IN[name]}: an attribute cannot take that name",
                    f"name it another way, e.g. 'my_{name}'")
            continue
        type_name = str(decl.get("type") if isinstance(decl, Mapping) else decl)
        per_face = bool(decl.get("per_face", False)) if isinstance(decl, Mapping) else False
        if type_name not in b.game.types and type_name not in PLAIN_TYPES:
            plain = _PLAIN_WORDS.get(type_name.lower())
            b.error(b.pos(decl, "type") if isinstance(decl, Mapping) else b.pos(raw, name), f"unknown type '{type_name}'",
                    f"write '{plain}'" if plain else did_you_mean(type_name, [*b.game.types, *PLAIN_TYPES])
                    or f"the types are {', '.join(PLAIN_TYPES[:3])} and those under 'types:'")
        if isinstance(decl, Mapping) and b.bool_setting(decl, "list", False):
            type_name = LIST_OF + type_name
        if isinstance(decl, Mapping) and b.bool_setting(decl, "wildcards", False):
            if type_name.removeprefix(LIST_OF) not in b.game.types or not type_name.startswith(LIST_OF):
                b.error(decl.pos_of("wildcards"), f"'wildcards' needs a list of a declared type's values ('list: true'), not {type_name}")
            b.game.wildcards.add(str(name))
        if name in decls and decls[name][0] != type_name:
            b.error(raw.key_pos.get(name), f"attribute '{name}' has type {decls[name][0]} in another kind")
        attrs[name] = decls[name] = (type_name, per_face)
        b.game.attributes.setdefault(name, [])
    return attrs


def _attribute_defaults(b: "Builder", spec: Mapping, attrs: dict[str, tuple[str, bool]]) -> dict[str, tuple[Any, SourcePos | None]]:
    """Each attribute's ``default`` (checked against its type once, where it is written), with its position: the value
    of a component that leaves the attribute out, as a cost in a colour most cards don't ask for is 0.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "{}"))
    >>> spec = load_yaml("r.yaml", "attributes: {extra: {type: int, default: 0}, size: int}")
    >>> _attribute_defaults(b, spec, {"extra": ("int", False), "size": ("int", False)})["extra"][0]
    0
    """
    found: dict[str, tuple[Any, SourcePos | None]] = {}
    raw = spec.get("attributes") or {}
    for name, decl in raw.items():
        if name not in attrs or not isinstance(decl, Mapping) or "default" not in decl:
            continue
        value, at = decl["default"], decl.pos_of("default")
        type_name = attrs[name][0]
        if type_name.removeprefix(LIST_OF) in (CELL, TABLE):  # read later than components, or by blocks alone
            b.error(at, f"an attribute of type {type_name} has no default: write its value in each component")
            continue
        check_value(b, value, type_name, at, name)
        found[str(name)] = (value, at)
    return found


def _instance(b: "Builder", kind: str, faces: tuple[str, ...], attrs: dict[str, tuple[str, bool]], inst: Any,
              pos: SourcePos | None, defaults: dict[str, tuple[Any, SourcePos | None]] | None = None,
              refused: frozenset[str] = frozenset()) -> None:
    """One instance of ``kind`` as components; ``refused``: built-in names the kind declared as attributes, refused
    there already, which its instances' values are not reported again for."""
    per_face = [a for a, (_, pf) in attrs.items() if pf]
    values: dict[str, list[Any]] = {}
    where: dict[str, list[SourcePos | None]] = {}  # each value's position, for its messages
    copies: int | None = None  # `count: N` makes N identical components sharing the id
    if isinstance(inst, str) and not check_written_name(b, inst, pos, "component id"):
        return
    if isinstance(inst, str) and not attrs:  # a kind without attributes: the text is the component's name
        ident = inst
    elif isinstance(inst, str):
        parts = inst.split("/")
        if len(per_face) != 1 or len(parts) != len(faces):
            first = next(iter(attrs))
            hint = None if per_face else f"write {{id: {inst}, {first}: ...}}: a text alone names a component of a kind without attributes"
            b.error(pos, f"'{inst}' must name one value per face ({'/'.join(faces)}) of a kind with one per-face attribute", hint)
            return
        values[per_face[0]] = parts
        ident = str(inst)
    elif isinstance(inst, Mapping):
        ident = str(inst.get("id", ""))
        if not ident:
            b.error(inst.pos, "a component needs an 'id'")
            return
        if not check_written_name(b, ident, inst.pos_of("id"), "component id"):
            return
        if "count" in inst:
            copies = b.int_setting(inst, "count", 1)
            most = limits.current().copies
            if copies > most:  # each copy is a component of every state
                b.error(inst.pos_of("count"), f"at most {most:,} copies of one component, not {copies:,} {limits.exceeded('copies')}")
                copies = 1
        for attr, value in inst.items():
            if attr in ("id", "count", "also"):
                continue
            if attr not in attrs:
                if attr in BUILT_IN:  # its declaration was refused, saying so; or none: nor could there be one
                    if attr not in refused:
                        b.error(inst.key_pos.get(attr), f"'{attr}' is already {BUILT_IN[attr]}: a component cannot "
                                f"set it", f"declare an attribute of another name, e.g. 'my_{attr}', under "
                                f"'components: {kind}: attributes:', and give it here")
                    continue
                b.error(inst.key_pos.get(attr), f"{kind} has no attribute '{attr}'", _unknown_attribute_hint(kind, attr, attrs))
                continue
            if attrs[attr][1]:
                if not isinstance(value, list) or len(value) != len(faces):
                    b.error(inst.pos_of(attr), f"'{attr}' is per face: give one value per face ({', '.join(faces)})")
                    continue
                values[attr] = list(value)
                where[attr] = [b.pos(value, f) for f in range(len(faces))]
            else:
                values[attr] = [value] * len(faces)
                where[attr] = [inst.pos_of(attr)] * len(faces)
        _refuse_shorthand_id(b, inst, ident, faces, per_face, attrs, values)
    else:
        b.error(pos, "a component is 'Front/Back' text or a mapping with an 'id'")
        return
    for attr, vals in values.items():
        type_name = attrs[attr][0]
        for v, at in zip(vals, where.get(attr) or [pos] * len(vals)):
            at = at or pos
            if attr in b.game.wildcards and isinstance(v, list):
                for item in v:
                    if is_free(item):
                        _check_variable(b, item, getattr(item, "pos", at))
                v = [item for item in v if not is_free(item) and item != EMPTY]
            check_value(b, v, type_name, at, attr, free=attr in b.game.wildcards)
    for attr, (value, _) in (defaults or {}).items():  # checked once, where the default is written
        values.setdefault(attr, [value] * len(faces))
    face_values = {a: values[a] for a in per_face if a in values}
    first = len(b.game.component_names)
    if copies is None:
        _add_component(b, kind, ident, faces, face_values, values, pos)
    elif ident in b.game.identical:
        b.error(pos, f"component '{ident}' is listed twice", _TWICE.format(ident=ident))
    elif _looks_like_another(b, ident, pos):
        return
    else:
        for k in range(1, copies + 1):
            _add_component(b, kind, f"{ident}-{k}", faces, face_values, values, pos, piece_name=ident)
        b.game.identical[ident] = tuple(range(first, len(b.game.component_names)))
    for attr in values:  # where each cell was written: it is read once the board is (engine.compiling.cell_attributes)
        if attrs[attr][0].removeprefix(LIST_OF) == CELL:
            places: list[SourcePos | None | list[SourcePos | None]] = list(where.get(attr) or [pos] * len(faces))
            if attrs[attr][0].startswith(LIST_OF):  # a list of cells: each item where it is written
                places = [[getattr(item, "pos", None) or at for item in v] if isinstance(v, list) else at
                          for v, at in zip(values[attr], places)]
            b.cell_places.update(((attr, cid), places) for cid in range(first, len(b.game.component_names)))


def _unknown_attribute_hint(kind: str, attr: str, attrs: "Iterable[str]") -> str:
    """What to do about an instance's key its kind does not declare: the near miss, or the kind's attributes and where
    a new one is declared.

    >>> _unknown_attribute_hint("piece", "wieght", ["weight", "size"])
    "did you mean 'weight'?"
    >>> _unknown_attribute_hint("piece", "bonus", ["weight", "size"])
    "piece's attributes: size, weight; a new one is declared first, under 'components: piece: attributes:' as 'bonus: TYPE'"
    """
    return did_you_mean(attr, attrs) or (f"{kind}'s attributes: {', '.join(sorted(attrs)) or 'none'}; a new one is "
                                         f"declared first, under 'components: {kind}: attributes:' as '{attr}: TYPE'")


def _refuse_shorthand_id(b: "Builder", inst: Mapping, ident: str, faces: tuple[str, ...], per_face: list[str],
                        attrs: dict[str, tuple[str, bool]], values: dict[str, list[Any]]) -> None:
    """Report a mapping whose id reads as the 'Front/Back' shorthand but gives no value to the per-face attribute:
    the shorthand is read only from a text alone, so ``{id: light/dark, count: 2}`` had no shade on either face and
    every game of it passed turn after turn, though validate said ok.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "{}"))
    >>> b.game.types["shade"] = ("light", "dark")
    >>> inst = load_yaml("r.yaml", "{id: light/dark, count: 2}")
    >>> _refuse_shorthand_id(b, inst, "light/dark", ("front", "back"), ["shade"], {"shade": ("shade", True)}, {})
    >>> b.sink.items[0].hint
    'add shade: [light, dark]'
    """
    if len(per_face) != 1 or per_face[0] in values:
        return
    parts, known = ident.split("/"), b.game.types.get(attrs[per_face[0]][0])
    if len(parts) == len(faces) > 1 and known and all(part in known for part in parts):
        b.error(inst.pos_of("id"), f"'{ident}' reads as a {per_face[0]} per face, but written as an 'id:' it gives "
                                   f"none: the 'Front/Back' shorthand is read from a component written as text alone",
                f"add {per_face[0]}: [{', '.join(parts)}]")


_TWICE = ("to change one a base defines, replace it by its id: instances+: {{replace: {ident}, add: [...]}}, "
          "or remove it: instances-: [{ident}]")


def _check_variable(b: "Builder", value: Any, pos: SourcePos | None) -> None:
    """Report a free pattern value that is neither ``_`` nor ``$`` and one word (``$a``, ``$same_colour``)."""
    if value != ANY_VALUE and not VARIABLE_NAME.match(str(value)):
        b.error(pos, f"'{value}' is not a pattern variable: write '{VARIABLE}' and one word, like '{VARIABLE}a'")


def check_value(b: "Builder", value: Any, type_name: str, pos: SourcePos | None, what: str, free: bool = False) -> None:
    """Report ``value`` at ``pos`` if it is not of type ``type_name`` (``what`` names it in the message); ``free``: a
    pattern's free values (``_``, ``$NAME``) and its empty square (``.``) are allowed too, and the hint says so.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "{}"))
    >>> b.game.types["shade"] = ("light", "dark")
    >>> check_value(b, ["light", "hollow"], "list of shade", None, "pattern", free=True)
    >>> b.sink.items[-1].message, b.sink.items[-1].hint
    ("unknown shade 'hollow' in an item of pattern", "shade is one of light, dark; or '_' (any shade), '$' and a word \
(one shade, whichever, the same wherever the word is) or '.' (an empty square)")
    """
    g = b.game
    if type_name.startswith(LIST_OF):
        if not isinstance(value, list):
            b.error(pos, f"{what} must be a list, like [a, b], not '{value}'")
            return
        for item in value:
            check_value(b, item, type_name.removeprefix(LIST_OF), getattr(item, "pos", pos), f"an item of {what}", free)
        return
    if type_name in g.types:
        if str(value) not in g.types[type_name]:
            b.error(pos, f"unknown {type_name} '{value}' in {what}",
                    did_you_mean(str(value), g.types[type_name]) or _values_hint(type_name, g.types[type_name], free))
    elif type_name == "int" and not (isinstance(value, int) and not isinstance(value, bool)):
        b.error(pos, f"{what} must be a whole number, not '{value}'")
    elif type_name == "bool" and not isinstance(value, bool):
        b.error(pos, f"{what} must be true or false, not '{value}'")
    elif type_name == CELL and not (isinstance(value, str) or is_pair(value)):
        b.error(pos, f"{what} is a cell of the board: a point's name, \"x,y\" or [x, y] of whole numbers, "
                     f"not '{yaml_text(plain(value))}'")
    elif type_name == TABLE and not isinstance(value, (Mapping, Sequence)):
        b.error(pos, f"{what} must be a mapping or a list (a table read by a building block), not '{value}'")


def is_pair(value: Any) -> bool:
    """Whether ``value`` is a cell written as ``[x, y]``: a list of two whole numbers (true is no number).

    >>> is_pair([2, 0]), is_pair([True, 1]), is_pair([1, 2, 3]), is_pair("2,0")
    (True, False, False, False)
    """
    return (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value))


def _values_hint(type_name: str, values: tuple[str, ...], free: bool) -> str:
    """The values a type has (the first dozen), and a pattern's free values when they are allowed.

    >>> _values_hint("shade", ("light", "dark"), False)
    'shade is one of light, dark'
    """
    if len(values) > 12:
        listed = f"{', '.join(values[:12])}, ..."
    else:
        listed = ", ".join(values) or "nothing yet"
    hint = f"{type_name} is one of {listed}"
    if free:
        hint += (f"; or '{ANY_VALUE}' (any {type_name}), '{VARIABLE}' and a word (one {type_name}, whichever, the same "
                 f"wherever the word is) or '{EMPTY}' (an empty square)")
    return hint


def _looks_like_another(b: "Builder", ident: str, pos: SourcePos | None) -> bool:
    """Whether ``ident`` looks like a component id listed before (a letter of another script standing in for a
    Latin one, ``Tоken`` beside ``Token``), which is then refused where written: actions, scenarios and the log name
    components by id, and nobody could tell the two apart there.  Else it is noted, and False.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "name: r\\n"))
    >>> _looks_like_another(b, "Token", None), _looks_like_another(b, "T\u043eken", None)
    (False, True)
    >>> b.sink.items[0].message
    "component 'T\u043eken' looks like the component 'Token' listed before: its '\u043e' is CYRILLIC SMALL LETTER O (U+043E), not the Latin 'o'"
    """
    twin = b.id_shapes.setdefault(skeleton(ident), ident)
    if twin == ident:
        return False
    b.error(pos, f"component '{ident}' looks like the component '{twin}' listed before: {told_apart(ident, twin)}",
            "give each component an id of its own (an id pasted from elsewhere: type it again)")
    return True


def _add_component(b: "Builder", kind: str, ident: str, faces: tuple[str, ...], face_values: dict[str, list[Any]],
                   values: dict[str, list[Any]], pos: SourcePos | None, piece_name: str | None = None) -> None:
    g = b.game
    if ident in g.component_ids or ident in g.identical:
        b.error(pos, f"component '{ident}' is listed twice", _TWICE.format(ident=ident))
        return
    if piece_name is None and _looks_like_another(b, ident, pos):
        return
    cid = len(g.component_names)
    g.component_ids[ident] = cid
    g.component_names.append(ident)
    g.piece_names.append(piece_name or ident)
    g.component_kind.append(kind)
    g.kinds.setdefault(kind, []).append(cid)
    g.face_count.append(len(faces))
    for attr, table in g.attributes.items():
        while len(table) < len(faces):
            table.append([None] * cid)
        for f, row in enumerate(table):
            vals = values.get(attr)
            row.append(plain(vals[f]) if vals and f < len(vals) else None)
    labels = tuple("/".join(str(v[f]) for v in face_values.values()) or faces[f] for f in range(len(faces)))
    g.face_labels.append(labels)
    seen: dict[str, int] = {}
    for f, label in enumerate(labels):
        seen.setdefault(label, f)
    g.distinct_faces.append(tuple(sorted(seen.values())))
    g.piece_options.append(tuple((cid, f) for f in g.distinct_faces[-1]))
