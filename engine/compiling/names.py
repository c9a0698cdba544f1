"""Names: a ruleset's options and types, and the rule that each name it defines means one thing.

::

    types:
      shade: [light, dark]            # a value belongs to one type only
    options:
      rounds: {default: 3, doc: how many rounds a game lasts}
      bonus: 2                        # an option without a doc

Settings read options by name (``max_turns: rounds``); code reads them as
constants.  A value, option, collection, zone, counter or status may not
reuse a name already taken (built-in names and functions included).

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "types: {shade: [light, dark], tone: [dark]}\\noptions: {rounds: {default: 3}}\\n"))
>>> read_options(b); read_types(b)
>>> b.game.options, b.game.types["shade"]
({'rounds': 3}, ('light', 'dark'))
>>> print(b.sink.items[0].headline())
r.yaml:1:38: value 'dark' is already defined in type 'shade'
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.errors import SourcePos, did_you_mean
from engine.core.yamlsource import Mapping, describe_kind, plain, yaml_text
from engine.lang.types import ANY, ListOf, Type

if TYPE_CHECKING:
    from engine.compiling.builder import Builder


def read_options(b: "Builder") -> None:
    """``options``: each option's value (its ``default`` when it is a mapping with one) and its doc.

    ``values: [ring, dealt]`` lists the values the option may take: any other is an error at the value
    (the default, a variant's or ``--set``'s), with a "did you mean".
    """
    options = b.tree.get("options") or Mapping(b.tree.pos)
    for name, spec in options.items():
        b.check_identifier(name, options.key_pos.get(name), "option")
        if isinstance(spec, Mapping) and "default" in spec:
            b.game.options[name] = plain(spec["default"])
            b.game.option_docs[name] = str(spec.get("doc") or "")
            if isinstance(spec.get("values"), list):
                _check_value(b, name, spec)
        else:
            b.game.options[name] = plain(spec)


def report_misused_options(b: "Builder") -> None:
    """One error per option whose value is of a kind its uses cannot take, at the value: the uses are listed.

    ``options: {width: {default: three}}`` used as ``max_width: width`` and in ``x < width``:
    "option 'width' holds text ('three'), but it is used as a whole number at lines 12 and 30".
    """
    options = b.tree.get("options") or {}
    for name, uses in (b.sink.misused or {}).items():
        spec = options.get(name)
        at = b.pos(spec, "default") if isinstance(spec, Mapping) and "default" in spec else b.pos(options, name)
        wanted = {w: [pos for pos, kind in uses if kind == w] for w in dict.fromkeys(kind for _, kind in uses)}
        said = "; ".join(f"as {kind} at {_lines(places, at)}" for kind, places in wanted.items())
        value = b.game.options.get(name)
        if isinstance(spec, Mapping) and isinstance(spec.get("values"), list) and not _listed(value, spec):
            continue  # refused already at the value, for not being one the option lists
        shown = repr(value) if isinstance(value, str) else yaml_text(value)  # 'three', true, [1, 2]
        b.error(at, f"option '{name}' holds {describe_kind(value)} ({shown}), but it is used {said}",
                "change the option's value, or the uses")
    b.sink.misused = None


def _lines(places: list[SourcePos | None], home: SourcePos | None) -> str:
    """``line 3``, ``lines 3, 4 and 9``; lines of another file than ``home`` say which (``folder/file``).

    >>> home = SourcePos("r/r.yaml", 1, 1)
    >>> _lines([SourcePos("r/r.yaml", 4, 1), SourcePos("r/r.yaml", 3, 2), SourcePos("/base/x.yaml", 9, 1)], home)
    'lines 3 and 4, line 9 of base/x.yaml'
    """
    files: dict[str, set[int]] = {}
    for p in sorted((p for p in places if p is not None), key=lambda p: (p.file != (home.file if home else ""), p.file)):
        files.setdefault(p.file, set()).add(p.line)
    said = []
    for file, lines in files.items():
        numbers = [str(n) for n in sorted(lines)]
        listed = numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"
        of = "" if home and file == home.file else f" of {Path(file).parent.name}/{Path(file).name}"
        said.append(f"line{'s' * (len(numbers) > 1)} {listed}{of}")
    return ", ".join(said) or "a line"


def _listed(value: Any, spec: Mapping) -> bool:
    """Whether ``value`` is one of the ``values`` an option's ``spec`` lists."""
    return value in [plain(v) for v in spec["values"]]


def _check_value(b: "Builder", name: str, spec: Mapping) -> None:
    """The option's value is one of its ``values`` (an error at the value otherwise)."""
    allowed = [plain(v) for v in spec["values"]]
    value = b.game.options[name]
    if not _listed(value, spec):
        shown = ", ".join(str(v) for v in allowed)
        texts = [v for v in allowed if isinstance(v, str)]  # a number near another by its digits is no typo
        b.error(b.pos(spec, "default"), f"option '{name}' may be {shown}, not {value!r}",
                did_you_mean(value, texts) if isinstance(value, str) else None)


def read_types(b: "Builder") -> None:
    """``types``: each type's values; a value belongs to one type only."""
    seen: dict[str, str] = {}
    for name, values in (b.tree.get("types") or {}).items():
        if not isinstance(values, list) or not values:
            b.error(b.pos(b.tree["types"], name), f"type '{name}' must list its values")
            continue
        for i, value in enumerate(values):
            value = str(value)
            pos = b.pos(values, i)
            b.check_identifier(value, pos, "value")
            if value in seen:
                b.error(pos, f"value '{value}' is already defined in type '{seen[value]}'")
            seen[value] = name
        b.game.types[name] = tuple(dict.fromkeys(str(v) for v in values))  # a value listed twice counts once


_SCORES = {"score": "vp, chips, banked", "points": "vp, chips, banked", "rank": "level, place"}
"""Built-in names a game's own counter is often given (the final score, points and place, read after the game), with
names to give it instead."""


def check_names(b: "Builder") -> None:
    """Every name a ruleset defines means one thing: values, options, collections, zones, built-ins."""
    from engine.compiling.vocabulary import BUILT_IN_NAMES, PLURAL_SUFFIX, built_in_functions

    t = b.tree
    defined: dict[str, str] = {n: "a built-in name" for n in BUILT_IN_NAMES}
    functions = built_in_functions()
    defined.update({n: "a built-in function" for n in functions})
    entries: list[tuple[str, str, SourcePos | None]] = []
    for type_name, values in (t.get("types") or {}).items():
        for i, value in enumerate(values if isinstance(values, list) else []):
            entries.append((str(value), f"a value of type '{type_name}'", b.pos(values, i)))
    for name in t.get("options") or {}:
        entries.append((str(name), "an option", t["options"].key_pos.get(name)))
    for kind in t.get("components") or {}:
        entries.append((kind + PLURAL_SUFFIX, f"the collection of all {kind}{PLURAL_SUFFIX}", t["components"].key_pos.get(kind)))
    for zone in t.get("zones") or {}:
        entries.append((str(zone), "a zone", t["zones"].key_pos.get(zone)))
    for counter in t.get("counters") or {}:
        entries.append((str(counter), "a counter", t["counters"].key_pos.get(counter)))
    statuses = t.get("statuses")
    for status in statuses if isinstance(statuses, Mapping) else {}:
        entries.append((str(status), "a status", statuses.key_pos.get(status)))
    board = t.get("board")
    points = board.get("points") if isinstance(board, Mapping) and board.get("kind") == "points" else None
    for point in points if isinstance(points, Mapping) else {}:
        entries.append((str(point), "a point of the board", points.key_pos.get(point)))
    for name, what, pos in entries:
        if what.startswith("a value of type") and defined.get(name, "").startswith("a value of type"):
            continue  # a value listed twice: read_types said so
        if name in defined:
            taken = functions.get(name) if defined[name] == "a built-in function" else None
            doc = taken.doc.split("\n")[0].rstrip(".") if taken is not None else ""
            hint = f"{taken.signature}: {doc[:1].lower()}{doc[1:]}" if taken is not None and taken.signature else None
            if name in _SCORES:
                hint = f"{hint}; a counter of the game's own is named for what it counts: {_SCORES[name]}"
            b.error(pos, f"the name '{name}' is already {defined[name]}; pick another name for this "
                         f"{what.split(' of ')[0].removeprefix('a ').removeprefix('an ').removeprefix('the ')}", hint)
        else:
            defined[name] = what


def declare_opaque_options(b: "Builder") -> None:
    """Options holding null, a decimal or a mapping: settings may read them, code cannot compute with them; a list
    mixing kinds (``[1, 3, 5, 7.5]``, ``[1, "x"]``): code may count and search it, not compute with its items.

    (Their type would otherwise be "any", which the checker trusts, and
    ``count(...) - option`` or ``repeat nth(option, 2)`` would fail only when run.)
    """
    from engine.compiling.vocabulary import value_type

    for name, value in b.game.options.items():
        if value is None or isinstance(value, (float, dict)):
            kind = describe_kind(value)
            b.game.vocab.define_constant(name, Type(f"option holding {kind}"), value, f"the option {name}")
        elif isinstance(value, list) and value and value_type(value, b.game.types) == ANY:
            b.game.vocab.define_constant(name, ListOf(MIXED), value, f"the option {name}")


MIXED = Type("item of an option's list that mixes kinds")
"""The items of an option's list that mixes kinds: no use in code takes them."""
