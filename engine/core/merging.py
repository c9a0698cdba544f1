r"""How one file of a ruleset goes on top of another: mappings merged key by key, ``key+`` appending, ``key-``
removing, definitions with code replaced whole (and noted), named items of a list (turn steps, phases, setup parts)
placed ``after``, ``before``, ``replace`` or ``merge`` another; what putting a ruleset together has spent of its
budgets.  The rules as a designer reads them are in :mod:`engine.core.compose`, which uses this module for
``include``, ``extends`` and variants.

>>> from engine.core.yamlsource import load_yaml, plain
>>> base, over = load_yaml("base.yaml", "a: [1]\nb: {x: 1}"), load_yaml("over.yaml", "a+: [2]\nb: {y: 2}")
>>> plain(merge(base, over))
{'a': [1, 2], 'b': {'x': 1, 'y': 2}}
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Container

from engine.core import limits
from engine.core.errors import RulesetError, SourcePos, did_you_mean
from engine.core.paths import rulesets_dir
from engine.core.yamlsource import Mapping, Sequence, Text, describe_kind


DEFINITIONS = {("statuses",): "status", ("functions",): "function", ("meter", "kinds"): "tile kind",
               ("meters", "*", "kinds"): "tile kind"}
"""Where the entries are definitions with code: one written again on top of the base's replaces it whole (``*``: any key)."""


@dataclass
class Spent:
    """What putting one ruleset together has used so far: files read and values merged."""

    limits: limits.Limits
    files: int = 0
    merged: int = 0
    replaced: list[Text] = field(default_factory=list)
    loaded: list[str] = field(default_factory=list)
    """The files read, in order, as their positions name them."""
    base_files: set[str] = field(default_factory=set)
    """The files of the bases read whole (a base and its includes), whose definitions a note says are "from" the base."""

    def read(self, pos: SourcePos | None) -> None:
        """Count one more file read (an include or a base), refused at ``pos`` past the limit."""
        self.files += 1
        if self.files > self.limits.includes:
            message = f"this ruleset reads more than {self.limits.includes:,} files (include and extends, counted each time)"
            raise RulesetError.at(pos, f"{message} {limits.exceeded('includes')}")

    def expect(self, entries: list[Text]) -> None:
        """Refuse a list of includes longer than the files left to read, before reading any (each entry reads one or more)."""
        left = self.limits.includes - self.files
        if len(entries) > left:
            message = f"this ruleset reads more than {self.limits.includes:,} files (include and extends, counted each time)"
            raise RulesetError.at(entries[max(left, 0)].pos, f"{message} {limits.exceeded('includes')}")

    def merge(self, count: int, pos: SourcePos | None) -> None:
        """Count ``count`` more values merged, refused at ``pos`` past the limit."""
        self.merged += count
        if self.merged > self.limits.merged_nodes:
            message = f"putting this ruleset together merges more than {self.limits.merged_nodes:,} values"
            raise RulesetError.at(pos, f"{message} {limits.exceeded('merged_nodes')}")


SPENT: contextvars.ContextVar[Spent | None] = contextvars.ContextVar("compose_spent", default=None)


def merge(base: Any, over: Any, path: tuple[str, ...] = (), origin: str = "") -> Any:
    """``over`` deep-merged on top of ``base`` (neither is changed), with ``key+`` / ``key-``.

    ``path`` is where the two mappings sit in the ruleset (``("statuses",)``), ``origin`` what the base is
    called in a note (its ``name``, found at the top).

    >>> from engine.core.yamlsource import load_yaml, plain
    >>> merge(load_yaml("a.yaml", "p: [1, 2]\\nq: {x: 1}"), load_yaml("b.yaml", "p-: [1]\\nq: {y: 2}"))
    {'p': [2], 'q': {'x': 1, 'y': 2}}
    """
    if not isinstance(over, Mapping):
        return over
    spent = SPENT.get()
    if spent is not None:
        spent.merge(len(over) + (len(base) if isinstance(base, Mapping) else 0), over.pos)
    if not path and isinstance(base, Mapping) and isinstance(base.get("name"), str):
        origin = str(base["name"])
    result = copy_mapping(base if isinstance(base, Mapping) else Mapping(over.pos), pos=over.pos)
    _refuse_list_with_removal(over)
    for key in sorted(over, key=lambda k: _order(k, over)):
        _OPERATORS.get(operator_of(key), _replace)(result, over, key, path, origin)
    return result


def replace_by_name(base: Any, over: Any, origin: str = "") -> Any:
    """The base's variants with ``over``'s added; one of the same name replaces the base's whole, noted as replaced
    (``variant 'small' replaces the one from base (ruleset.yaml:40:3)``), as a definition written again is."""
    if not isinstance(base, Mapping) or not isinstance(over, Mapping):
        return over
    result = copy_mapping(base, pos=over.pos)
    for name, body in over.items():
        if name in base:
            _note_replaced(base, name, "variant", over.key_pos.get(name, over.pos), origin)
        result.add(name, body, over.key_pos.get(name), over.value_pos.get(name))
    return result


def copy_mapping(mapping: Mapping, skip: Container[str] = (), pos: SourcePos | None = None) -> Mapping:
    """A shallow copy of ``mapping`` (with positions) without the ``skip`` keys."""
    result = Mapping(pos or mapping.pos)
    for key, value in mapping.items():
        if key not in skip:
            result.add(key, value, mapping.key_pos.get(key), mapping.value_pos.get(key))
    return result


def operator_of(key: str) -> str:
    """The merge operator a key ends with (``key+`` appends to the base's entry, ``key-`` removes from it), or "" for none.

    >>> operator_of("players+"), operator_of("zones-"), operator_of("+"), operator_of("board")
    ('+', '-', '', '')
    """
    return key[-1] if len(key) > 1 and key[-1] in "+-" else ""


def _bare(key: str, over: Mapping) -> Text:
    """``players+`` -> ``players``, positioned where ``players+`` is written."""
    return Text(key[:-1], over.key_pos.get(key, over.pos))


def definition_at(path: tuple[str, ...]) -> str | None:
    """What the entries at ``path`` are, when they are definitions with code (see :data:`DEFINITIONS`), else None.

    >>> definition_at(("meters", "nerve", "kinds")), definition_at(("statuses",)), definition_at(("meters", "nerve"))
    ('tile kind', 'status', None)
    """
    for where, what in DEFINITIONS.items():
        if len(where) == len(path) and all(w in ("*", p) for w, p in zip(where, path)):
            return what
    return None


def _replace(result: Mapping, over: Mapping, key: str, path: tuple[str, ...], origin: str) -> None:
    what = definition_at(path) if result.get(key) is not None else None
    if what is not None:  # a definition written again replaces the base's whole
        _note_replaced(result, key, what, over.key_pos.get(key, over.pos), origin)
        value = over[key]
    else:
        _refuse_empty_merge(result.get(key), over, key)
        value = merge(result.get(key), over[key], path + (str(key),), origin)
        _note_instances_replaced(result, over, key, path, origin)
    result.add(key, value, over.key_pos.get(key), over.value_pos.get(key))


def _note_instances_replaced(result: Mapping, over: Mapping, key: str, path: tuple[str, ...], origin: str) -> None:
    """Note a kind's ``instances:`` list written over the base's: it replaces every instance the base has, where
    ``instances+:`` (the likelier wish, a new card beside the others) adds to them."""
    spent, base = SPENT.get(), result.get(key)
    if spent is None or key != "instances" or path[:1] != ("components",) or not isinstance(base, list) or not base:
        return
    was = result.key_pos.get(key) or result.pos_of(key)
    files = list(dict.fromkeys(at.file for at in map(base.pos_of, range(len(base))) if at))
    if _base_origin(origin, files) and len(files) <= 1:  # the base's own list
        where = f"{Path(was.file).name}:{was.line}:{was.col}" if was else "the base"
        source = f"from {origin} ({where})"
    else:  # gathered by the files included before this one (and the base): named as they were given
        more = f" and {len(files) - 1} more file{'s' * (len(files) > 2)}" if len(files) > 1 else ""
        source = f"written before it ({was.file}:{was.line}:{was.col}{more})" if was else "written before it"
    spent.replaced.append(Text(
        f"the instances of {path[-1]} replace the {len(base)} {source}: "
        "write 'instances+:' to add to them instead", over.key_pos.get(key, over.pos)))


def _refuse_empty_merge(base: Any, over: Mapping, key: str) -> None:
    """``key: {}`` over a base mapping that has keys would merge nothing into it and change nothing, though it reads
    as emptying it: refused, with the ways to empty it or drop some of its keys.

    >>> from engine.core.yamlsource import load_yaml
    >>> _refuse_empty_merge(load_yaml("a.yaml", "{x: 1}"), load_yaml("b.yaml", "table: {}"), "table")
    Traceback (most recent call last):
    ...
    engine.core.errors.RulesetError: b.yaml:1:1: 'table: {}' changes nothing: a mapping merges into the base's 'table' key by key (to empty it, write 'table: null'; to drop some of its keys, 'table-: [x]')
    """
    if isinstance(over[key], Mapping) and not over[key] and isinstance(base, Mapping) and base:
        first = ", ".join(str(k) for k in list(base)[:2])
        raise RulesetError.at(over.key_pos.get(key, over.pos),
                              f"'{key}: {{}}' changes nothing: a mapping merges into the base's '{key}' key by key "
                              f"(to empty it, write '{key}: null'; to drop some of its keys, '{key}-: [{first}]')")


def _order(key: str, over: Mapping) -> int:
    """When ``key`` acts: ``key-`` first (on the base), ``key+`` after a ``key`` beside it, the rest as written."""
    op = operator_of(key)
    return 0 if op == "-" else 2 if op == "+" and key[:-1] in over else 1


def _note_replaced(base: Mapping, key: str, what: str, pos: SourcePos, origin: str) -> None:
    spent = SPENT.get()
    if spent is None:
        return
    was = base.key_pos.get(key) or base.pos_of(key)
    origin = _base_origin(origin, [was.file] if was else [])
    if origin or not was:
        where = f"{Path(was.file).name}:{was.line}:{was.col}" if was else "the base"
        source = f"from {origin or 'the base'} ({where})"
    else:  # no base: a file included before this one, named as it was given
        source = f"written before it ({was.file}:{was.line}:{was.col})"
    spent.replaced.append(Text(f"{what} '{key}' replaces the one {source}", pos))


def _base_origin(origin: str, files: list[str]) -> str:
    """``origin`` (the base's name) when ``files`` are the base's, else "": a file the ruleset includes itself
    (after its base) is not "from" the base, though the base's name is on what it was merged with.

    >>> _base_origin("base", ["a.yaml"])  # nothing read (a merge outside a compose): taken as the base's
    'base'
    """
    spent = SPENT.get()
    if spent is not None and any(file in spent.loaded and file not in spent.base_files for file in files):
        return ""
    return origin


def _refuse_list_with_removal(over: Mapping) -> None:
    """``key: [...]`` replaces the base's whole list, so ``key-`` beside it in one mapping can only mislead."""
    for key in over:
        if operator_of(key) == "-" and isinstance(over.get(key[:-1]), Sequence):
            message = (f"'{key[:-1]}' and '{key}' in one place: '{key[:-1]}' replaces the base's whole list, so "
                       f"'{key}' has nothing to remove from")
            hint = f"write the list you want in '{key[:-1]}', or remove items with '{key}' and add them with '{key[:-1]}+'"
            raise RulesetError.at(over.key_pos.get(key, over.pos), message, hint)


def _append(result: Mapping, over: Mapping, key: str, path: tuple[str, ...], origin: str) -> None:
    name = _bare(key, over)
    if isinstance(result.get(name), str):  # a program written as one text: no parts to add to or put beside
        message = f"cannot add to '{name}': the base writes it as one text, not a list"
        hint = (f"write '{name}:' whole, the base's text and yours; a base that writes it as a list of named parts "
                f"({{name: NAME, do: ...}}) can be added to with '{name}+'")
        raise RulesetError.at(name.pos, message, hint)
    if _placements(over[key]) is not None and not isinstance(result.get(name), Mapping):  # key+: {after: NAME, add: [...]}
        base = result.get(name)
        if not isinstance(base, Sequence):
            message = f"cannot put items beside a named one in '{name}': the base has no list '{name}'"
            raise RulesetError.at(name.pos, message)
        placed = base
        removed = over.get(f"{name}-")
        for place in _placements(over[key]) or ():
            placed = _place(placed, place, name, removed if isinstance(removed, Sequence) else None, origin)
        result.add(name, placed, result.key_pos.get(name), result.value_pos.get(name))
        return
    if isinstance(over[key], Mapping):  # key+: {...} merges into the base's mapping, definitions too
        base = result.get(name)
        if base is not None and not isinstance(base, Mapping):
            message = f"cannot merge into '{name}': it is {describe_kind(base)}, not a mapping"
            raise RulesetError.at(name.pos, message)
        merged = merge(base, over[key], path + (str(name),), origin)
        result.add(name, merged, result.key_pos.get(name, name.pos), over.value_pos.get(key))
        return
    items = _items(over, key, "append")
    if name not in result:
        result.add(name, items, name.pos, over.value_pos.get(key))
        return
    base = result[name]
    if not isinstance(base, Sequence):
        raise RulesetError.at(name.pos, f"cannot append to '{name}': it is {describe_kind(base)}, not a list")
    joined = Sequence(base.pos)
    for source in (base, items):
        for index, item in enumerate(source):
            joined.add(item, source.pos_of(index))
    result.add(name, joined, result.key_pos.get(name), result.value_pos.get(name))


def _remove(result: Mapping, over: Mapping, key: str, path: tuple[str, ...], origin: str) -> None:
    name, items = _bare(key, over), _items(over, key, "remove")
    if name not in result:
        raise RulesetError.at(name.pos, f"cannot remove from '{name}': the base does not define it")
    base = result[name]
    if isinstance(base, Sequence):
        kept: Any = _without_items(base, items, name)
    elif isinstance(base, Mapping):
        kept = copy_mapping(base, skip=_keys_to_remove(base, items, name))
    else:
        message = f"cannot remove from '{name}': it is {describe_kind(base)}, not a list or mapping"
        raise RulesetError.at(name.pos, message)
    result.add(name, kept, result.key_pos.get(name), result.value_pos.get(name))


_OPERATORS: dict[str, Callable[[Mapping, Mapping, str, tuple[str, ...], str], None]] = {"+": _append, "-": _remove}


def _items(over: Mapping, key: str, verb: str) -> Sequence:
    items = over[key]
    if not isinstance(items, Sequence):
        message = f"'{key}' takes a list of items to {verb}" + (", or a mapping to merge" if verb == "append" else "") + \
            f", not {describe_kind(items)}"
        raise RulesetError.at(over.pos_of(key), message)
    return items


def _without_items(base: Sequence, items: Sequence, name: str) -> Sequence:
    """``base`` minus one occurrence of each of ``items``; a name not in the list removes the item of that name."""
    values, positions = list(base), [base.pos_of(i) for i in range(len(base))]
    for index, item in enumerate(items):
        if item not in values and isinstance(item, str) and item in _names_in(base):
            base = _edited(base, item, lambda _: [])
            values, positions = list(base), [base.pos_of(i) for i in range(len(base))]
            continue
        if item not in values:
            message = f"cannot remove {item!r} from '{name}': the base list does not have it"
            names = _names_in(base)
            if names and isinstance(item, str):
                message += f", nor an item named so (names: {', '.join(names)})"
            raise RulesetError.at(items.pos_of(index), message, did_you_mean(item, names) if isinstance(item, str) else None)
        at = values.index(item)
        del values[at], positions[at]
    kept = Sequence(base.pos)
    for value, pos in zip(values, positions):
        kept.add(value, pos)
    return kept


# --- named items of a list (turn steps, phases, setup parts) -------------------------------


_WHERE = ("after", "before", "replace", "merge")


def _placements(value: Any) -> list[Mapping] | None:
    """``{after: NAME, add: [...]}`` (or ``before`` / ``replace``), or a list of them; None for anything else."""
    listed = list(value) if isinstance(value, Sequence) else [value]
    found = [v for v in listed if isinstance(v, Mapping) and any(w in v for w in _WHERE)]
    return found if found and len(found) == len(listed) else None


def _item_name(item: Any) -> str | None:
    """What an item of a list is called: its ``name`` (a step, a setup part), its ``phase`` or its ``id`` (a component)."""
    if isinstance(item, Mapping):
        for key in ("name", "phase", "id"):
            if isinstance(item.get(key), str):
                return str(item[key])
    return None


def _names_in(items: Sequence) -> list[str]:
    """Every name in a list, those inside its phases' ``steps`` too; then the kind of each unnamed step that is the
    only step of its kind (``place`` for ``{place: {...}}``), so a base that names no steps can be changed by kind.

    >>> from engine.core.yamlsource import load_yaml
    >>> _names_in(load_yaml("t.yaml", "[{name: a, do: {}}, {phase: p, steps: [{name: b, do: {}}]}, {do: {}}]"))
    ['a', 'p', 'b']
    >>> _names_in(load_yaml("t.yaml", "[{roll: {}}, {phase: p, steps: [{place: {}}, {do: {}}, {do: {}}]}]"))
    ['p', 'roll', 'place']
    """
    named = _given_names(items)
    return named + [kind for kind in _unique_kinds(items) if kind not in named]


def _given_names(items: Sequence) -> list[str]:
    """The names written in a list (``name``, ``phase`` or ``id``), those inside its phases' ``steps`` too."""
    names = []
    for item in items:
        if _item_name(item) is not None:
            names.append(str(_item_name(item)))
        if isinstance(item, Mapping) and isinstance(item.get("steps"), Sequence):
            names += _given_names(item["steps"])
    return names


def _step_kind(item: Any) -> str | None:
    """A step's kind, the one key besides its ``name``: ``place`` for ``{place: {...}}``; None for anything else."""
    if not isinstance(item, Mapping):
        return None
    keys = [str(key) for key in item if key != "name"]
    return keys[0] if len(keys) == 1 and keys[0] not in ("phase", "id", "steps") else None


def _kinds(items: Sequence, unnamed_only: bool = False) -> list[str]:
    """The kind of every step in a list (or of every unnamed one), inside phases too, in order."""
    found: list[str] = []
    for item in items:
        kind = _step_kind(item)
        if kind is not None and not (unnamed_only and _item_name(item) is not None):
            found.append(kind)
        if isinstance(item, Mapping) and isinstance(item.get("steps"), Sequence):
            found += _kinds(item["steps"], unnamed_only)
    return found


def _unique_kinds(items: Sequence) -> list[str]:
    """The kinds of the unnamed steps (inside phases too) that no other step shares, in order."""
    every = _kinds(items)
    return [kind for kind in _kinds(items, unnamed_only=True) if every.count(kind) == 1]


def _edited(items: Sequence, target: str, change: Callable[[Any], list[tuple[Any, SourcePos]]],
            by_kind: bool | None = None) -> Sequence:
    """``items`` with the item named ``target`` (found inside phases too) replaced by what ``change`` makes of it.

    ``target`` names an unnamed step by its kind when no item is given that name (``by_kind``, worked out at the top).
    """
    if by_kind is None:
        by_kind = target not in _given_names(items)
    result = Sequence(items.pos)
    for index, item in enumerate(items):
        if _item_name(item) == target or (by_kind and _item_name(item) is None and _step_kind(item) == target):
            for value, pos in change((item, items.pos_of(index))):
                result.add(value, pos)
            continue
        if isinstance(item, Mapping) and isinstance(item.get("steps"), Sequence) and _holds(item["steps"], target, by_kind):
            inner = copy_mapping(item)
            inner.add("steps", _edited(item["steps"], target, change, by_kind), item.key_pos.get("steps"),
                      item.value_pos.get("steps"))
            item = inner
        result.add(item, items.pos_of(index))
    return result


def _holds(items: Sequence, target: str, by_kind: bool) -> bool:
    """Whether ``items`` (or a phase in them) hold the item ``target`` names: by name, or by kind when ``by_kind``."""
    return target in _given_names(items) or (by_kind and any(
        (_item_name(item) is None and _step_kind(item) == target)
        or (isinstance(item, Mapping) and isinstance(item.get("steps"), Sequence) and _holds(item["steps"], target, True))
        for item in items))


def _place(base: Sequence, place: Mapping, name: str, removed: Sequence | None = None, origin: str = "") -> Sequence:
    """``base`` with ``place['add']`` put after, before or instead of the item ``place`` names, or with
    ``place['with']`` merged into that item (``{merge: place, with: {place: {touching: false}}}``: one setting of a
    step changed, the rest kept).

    ``removed``: the items the same file removes from the list (``name-``), which act first; ``origin``: the
    base's name, for the messages.
    """
    where = [w for w in _WHERE if w in place]
    merging = where == ["merge"]
    unknown = [k for k in place if k not in (*_WHERE, "with" if merging else "add")]
    shape_ok = isinstance(place.get("with"), Mapping) if merging else isinstance(place.get("add", Sequence(place.pos)), Sequence)
    if len(where) != 1 or unknown or not shape_ok:
        message = (f"a change of '{name}' by name is {{after: NAME, add: [...]}}, {{before: NAME, add: [...]}}, "
                   f"{{replace: NAME, add: [...]}} or {{merge: NAME, with: {{...}}}}")
        raise RulesetError.at(place.key_pos.get(unknown[0]) if unknown else place.pos, message)
    target = place[where[0]]
    names = _names_in(base)
    if not isinstance(target, str) or target not in names:
        raise _no_item(base, names, place.pos_of(where[0]), str(target), name, removed, origin)
    if merging:
        return _edited(base, str(target), lambda old: [(merge(old[0], place["with"], (name,), origin), old[1])])
    added = place.get("add") or Sequence(place.pos)
    new = [(value, added.pos_of(i)) for i, value in enumerate(added)]
    return _edited(base, str(target), lambda old: {"after": [old, *new], "before": [*new, old], "replace": new}[where[0]])


def _no_item(base: Sequence, names: list[str], pos: SourcePos | None, target: str, name: str,
             removed: Sequence | None, origin: str) -> RulesetError:
    """Why ``name`` has no item named ``target`` to put items beside: removed by this file, unnamed in the base, or
    misspelt."""
    gone = [i for i, item in enumerate(removed or ()) if item == target]
    if removed is not None and gone:
        at = removed.pos_of(gone[0])
        line = f" (at {at.line}:{at.col})" if at is not None else ""
        return RulesetError.at(pos, f"'{name}' has no item named '{target}' any more: this file removes it with "
                                    f"'{name}-'{line}, and removals act first",
                               f"to put the new items where '{target}' was, write {name}+: {{replace: {target}, add: [...]}} "
                               f"and leave '{target}' out of '{name}-'")
    whose = f"'{name}' of {origin}" if origin else f"base's '{name}'"
    forms = (f"add to its end with '{name}+: [...]', remove an item by writing it whole in '{name}-: [...]', or write "
             f"the whole list in this file ('{name}: [...]' replaces it) with your items where you want them")
    where = f" in {Path(base.pos.file).name}" if base.pos is not None else ""
    fix = forms if _built_in(base.pos) else f"give them a 'name:'{where}, or {forms}"
    alike = _kinds(base).count(target)
    if alike > 1:
        return RulesetError.at(pos, f"'{name}' has {alike} '{target}' steps, so '{target}' does not say which: an "
                                    f"unnamed step is named by its kind only when no other step of the {whose} has it",
                               fix)
    if names:
        return RulesetError.at(pos, f"'{name}' has no item named '{target}' (names: {', '.join(names)})",
                               did_you_mean(target, names))
    if _built_in(base.pos):
        return RulesetError.at(pos, f"'{name}' has no item named '{target}': the items of the {whose} (a built-in "
                                    "ruleset) have no names, so none can be placed by name", fix)
    return RulesetError.at(pos, f"'{name}' has no item named '{target}': the items of the {whose} have no names", fix)


def _built_in(pos: SourcePos | None) -> bool:
    """Whether ``pos`` lies in a built-in ruleset's files (which a designer does not edit)."""
    return pos is not None and Path(pos.file).resolve().is_relative_to(rulesets_dir().resolve())


def _keys_to_remove(base: Mapping, items: Sequence, name: str) -> set[str]:
    keys: set[str] = set()
    for index, item in enumerate(items):
        key = str(item) if isinstance(item, int) and not isinstance(item, bool) else item
        if not isinstance(key, str) or key not in base:
            message = f"cannot remove {item!r} from '{name}': the base mapping has no such key"
            raise RulesetError.at(items.pos_of(index), message)
        keys.add(key)
    return keys
