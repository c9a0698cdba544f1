"""Putting a ruleset together from several files: ``include``, ``extends`` and ``variants``.

**include** — split a ruleset into files. ``include:`` takes a file name or a
list of them, relative to the file that says it; a folder name includes all
the ``*.yaml`` files directly inside it, in name order. The included files
come first, in the order listed, then the including file's own keys on top.
Included files may include further files (but not, in a cycle, themselves)::

    # my-game/ruleset.yaml
    name: my-game
    include: [board.yaml, cards/]      # cards/common.yaml, cards/rare.yaml, ...

**extends** — start from another ruleset. ``extends:`` takes a built-in name
(``my-game``) or a path; that ruleset is put together completely
(with its own ``extends`` and ``include``), then this file goes on top::

    name: my-game-big
    extends: my-game
    options:
      width: {default: 9}         # changes one value, keeps the rest
    players+: [5]                      # adds 5 to the base's list of players
    cards-: [A/A]                      # removes that entry from the base's list

**How files go on top of each other.** Mappings merge key by key, all the way
down. Anything else — a number, a text, a list, ``null`` — replaces what was
there. Two suffixes change that for one key:

* ``key+: [a, b]`` appends ``a`` and ``b`` to the base's list ``key`` (or
  sets ``key`` if the base has none); ``key+: {...}`` merges into the base's
  mapping ``key``, key by key, even where a plain ``key:`` would replace it;
* ``key-: [a, b]`` removes ``a`` and ``b`` from the base's list ``key`` (one
  occurrence each), or the keys ``a`` and ``b`` from the base's mapping
  ``key``; removing something the base does not have is an error.

In one mapping, ``key-`` acts first (on the base), then ``key``, then
``key+``; ``key-`` beside a ``key`` that is a list is refused (the list
replaces the base's whole).

**Definitions are replaced, not merged.** An entry of ``statuses``,
``functions``, ``meter: kinds`` or a named meter's ``kinds`` (``meters: NAME: kinds``; definitions with code)
written again on top of one the base defines replaces it whole (its old
hooks and keys are gone), and :func:`replacements` says so
(``status 'Sting' replaces the one from my-game (statuses.yaml:3:3)``).
To change part of one instead, merge explicitly: ``Sting+: {lasts: 2}``.

A key that is only ``+`` or ``-`` is an ordinary key. ``include`` and
``extends`` are used up and do not appear in the result. Every value keeps the
position of the file it was written in, so errors point into that file.

**variants** — named sets of changes a player can switch on::

    variants:
      quick:
        description: A shorter game.
        options: {width: {default: 5}}
      solo-hard:
        requires: [quick]              # switched on first
        conflicts: [big-board]         # may not be combined with it
        goals-: [balance]

``compose(path, variants=["quick"])`` puts the changes of the named variants
(everything but ``description``, ``requires`` and ``conflicts``) on top of the
ruleset, in the order given, with the same merge rules. The result keeps
``variants`` and gains ``selected_variants``: the names applied, in order.
A variant body is kept as written until it is applied: a file that
``extends`` or ``include``s another replaces a variant of the same name whole.

>>> text = "name: r\\nplayers: [2]\\nvariants:\\n  big: {players+: [3, 4]}\\n"
>>> tree = compose("r.yaml", variants=["big"], text=text)
>>> tree["players"], tree["selected_variants"]
([2, 3, 4], ['big'])
"""

from __future__ import annotations

import collections.abc
import contextvars
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Container

from engine.core import limits
from engine.core.confine import FileRefused, check_inside, roots_for
from engine.core.errors import Diagnostic, RulesetError, SourcePos, did_you_mean
from engine.core.paths import builtin_names, find_ruleset, rulesets_dir
from engine.core.showtext import breaking_character, cut, one_line
from engine.core.yamlsource import Mapping, Sequence, Text, describe_kind, load_yaml, plain, yaml_text

_CONSUMED = ("include", "extends")
DEFINITIONS = {("statuses",): "status", ("functions",): "function", ("meter", "kinds"): "tile kind",
               ("meters", "*", "kinds"): "tile kind"}
"""Where the entries are definitions with code: one written again on top of the base's replaces it whole (``*``: any key)."""
REPLACED = "replaced"
_VARIANTS = "variants"
_VARIANT_META = ("description", "requires", "conflicts")


def compose(
    path: str | Path,
    variants: collections.abc.Sequence[str] = (),
    text: str | None = None,
    set_options: collections.abc.Mapping[str, Any] | None = None,
    set_by: collections.abc.Mapping[str, str] | None = None,
) -> Mapping:
    """The ruleset at ``path`` with its includes, base, the named variants and the options set applied.

    ``text``, when given, is used instead of reading ``path`` (includes and
    ``extends`` are still found relative to ``path``).  ``set_options`` (see
    :func:`apply_options`, with ``set_by``) goes on top of the variants.
    """
    token = _SPENT.set(_Spent(limits.current()))
    try:
        tree = _load(Path(path), text, (), roots_for(Path(path).parent))
        _refuse_loader_keys(tree)
        result = apply_options(apply_variants(tree, variants), set_options or {}, set_by)
        replaced = _SPENT.get().replaced  # type: ignore[union-attr]
        if replaced:
            notes = Sequence(result.pos)
            for note in dict.fromkeys(replaced):  # a base composed twice (a variant's and the ruleset's) notes once
                notes.add(note, note.pos)
            result.add(Text(REPLACED, result.pos), notes, None, None)
        return result
    finally:
        _SPENT.reset(token)


def replacements(tree: Mapping) -> list[Text]:
    """What the overlays of a composed ruleset replaced, each positioned where the new definition is written.

    >>> base = "name: b\\nstatuses:\\n  Sting: {lasts: 1, on: {on_act: cancel()}}\\n"
    >>> over = load_yaml("o.yaml", "statuses:\\n  Sting: {kind: minor}\\n")
    >>> token = _SPENT.set(_Spent(limits.current()))
    >>> tree = merge(load_yaml("b.yaml", base), over)
    >>> tree["statuses"]["Sting"], [str(t) for t in _SPENT.get().replaced]
    ({'kind': 'minor'}, ["status 'Sting' replaces the one from b (b.yaml:3:3)"])
    >>> _SPENT.reset(token)
    """
    found = tree.get(REPLACED)
    return list(found) if isinstance(found, Sequence) else []


@dataclass
class _Spent:
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


_SPENT: contextvars.ContextVar[_Spent | None] = contextvars.ContextVar("compose_spent", default=None)


_LOADER_KEYS = {
    "selected_variants": "choose variants with --variant NAME",
    "set_options": "set an option for a run with --set NAME=VALUE, or change its default",
    REPLACED: "the loader lists what overlays replace; explain and validate show it",
}


def _refuse_loader_keys(tree: Mapping) -> None:
    """The keys the loader fills in may not be written in a ruleset or in a variant."""
    declared = tree.get(_VARIANTS)
    bodies = [body for body in declared.values() if isinstance(body, Mapping)] if isinstance(declared, Mapping) else []
    for mapping in (tree, *bodies):
        for key, how in _LOADER_KEYS.items():
            if key in mapping:
                raise RulesetError.at(mapping.key_pos.get(key, mapping.pos), f"'{key}' is filled in by the loader: {how}")


def variant_names(path: str | Path) -> list[str]:
    """The names declared under ``variants:`` (after ``extends`` and ``include``), in order."""
    return [str(name) for name in _declared_variants(compose(path))]


def merge(base: Any, over: Any, path: tuple[str, ...] = (), origin: str = "") -> Any:
    """``over`` deep-merged on top of ``base`` (neither is changed), with ``key+`` / ``key-``.

    ``path`` is where the two mappings sit in the ruleset (``("statuses",)``), ``origin`` what the base is
    called in a note (its ``name``, found at the top).

    >>> from engine.core.yamlsource import load_yaml
    >>> merge(load_yaml("a.yaml", "p: [1, 2]\\nq: {x: 1}"), load_yaml("b.yaml", "p-: [1]\\nq: {y: 2}"))
    {'p': [2], 'q': {'x': 1, 'y': 2}}
    """
    if not isinstance(over, Mapping):
        return over
    spent = _SPENT.get()
    if spent is not None:
        spent.merge(len(over) + (len(base) if isinstance(base, Mapping) else 0), over.pos)
    if not path and isinstance(base, Mapping) and isinstance(base.get("name"), str):
        origin = str(base["name"])
    result = _copy(base if isinstance(base, Mapping) else Mapping(over.pos), pos=over.pos)
    _refuse_list_with_removal(over)
    for key in sorted(over, key=lambda k: _order(k, over)):
        _OPERATORS.get(_operator(key), _replace)(result, over, key, path, origin)
    return result


def apply_variants(tree: Mapping, names: collections.abc.Sequence[str]) -> Mapping:
    """``tree`` with the named variants' overrides merged on top, in order (``requires`` first)."""
    declared = _declared_variants(tree)
    order: list[str] = []
    try:
        for name in names:
            _add_variant(declared, name, None, (), order)
    except RecursionError:  # only when requires_depth is raised far past its default
        message = f"variants require each other too deeply to follow (limit requires_depth={limits.current().requires_depth:,})"
        raise RulesetError.at(declared.pos, message) from None
    _check_conflicts(declared, order)
    result = tree
    for name in order:
        body = _variant_body(declared, name)
        _check_variant_keys(name, body)
        _check_variant_options(name, body, result)
        result = merge(result, _copy(body, skip=_VARIANT_META))
    result = _copy(result, pos=tree.pos)
    selected = Sequence(declared.pos)
    for name in order:
        selected.add(Text(name, declared.key_pos[name]), declared.key_pos[name])
    result.add(Text("selected_variants", tree.pos), selected, None, None)
    return result


def _check_variant_keys(name: str, body: Mapping) -> None:
    """Refuse ``include``, ``extends`` and ``variants`` in a variant: the files are put together and the variants
    read before any variant is applied, so the variant would silently change nothing with them.

    >>> _check_variant_keys("big", load_yaml("r.yaml", "extends: other-game\\n"))
    Traceback (most recent call last):
    ...
    engine.core.errors.RulesetError: r.yaml:1:1: a variant cannot use 'extends' (variant 'big'): it would change nothing, as the ruleset's files are put together before a variant is applied (put the 'extends' in a ruleset of its own, or write the variant's changes in it)
    """
    for key in body:
        bare = key[:-1] if _operator(key) else key
        if bare in (*_CONSUMED, _VARIANTS):
            hint = ("declare the variants under the ruleset's own 'variants'" if bare == _VARIANTS else
                    f"put the '{bare}' in a ruleset of its own, or write the variant's changes in it")
            raise RulesetError.at(body.key_pos.get(key, body.pos), f"a variant cannot use '{bare}' (variant '{name}'): it "
                                  "would change nothing, as the ruleset's files are put together before a variant is "
                                  "applied", hint)


def _check_variant_options(name: str, body: Mapping, tree: Mapping) -> None:
    """Refuse an option the variant names that the ruleset lacks but has one a letter or two away: a misspelt name
    adds an option nothing reads, and the variant would silently change nothing.

    >>> tree = load_yaml("r.yaml", "options: {rounds: 7}\\n")
    >>> _check_variant_options("long", load_yaml("r.yaml", "options: {roudns: 9}\\n"), tree)
    Traceback (most recent call last):
    ...
    engine.core.errors.RulesetError: r.yaml:1:11: no option 'roudns' in the ruleset: the variant 'long' would add it and change nothing (did you mean 'rounds'?)
    """
    options, known = body.get("options"), tree.get("options")
    if not isinstance(options, Mapping) or not isinstance(known, Mapping):
        return
    for option in options:
        hint = None if option in known else did_you_mean(str(option), [str(k) for k in known])
        if hint:
            message = f"no option '{option}' in the ruleset: the variant '{name}' would add it and change nothing"
            raise RulesetError.at(options.key_pos.get(option) or options.pos, message, hint)


def apply_options(
    tree: Mapping, set_options: collections.abc.Mapping[str, Any], set_by: collections.abc.Mapping[str, str] | None = None
) -> Mapping:
    """``tree`` with options set from outside its files (``rulecraft ... --set NAME=VALUE``).

    Each value is YAML text (or, from Python, the value itself); it replaces the option's ``default`` (or its
    value, for an option written without one) and must be the same kind of
    value as the one it replaces (a whole number for a whole number, and so
    on; an option that holds ``null`` takes anything, and one that lists its ``values`` any of them, whatever
    their kinds: the builder checks the value against the list).  The result gains
    ``set_options``: the names and values, in order, each written in one
    normal form (``04`` is recorded as ``4``).  An unknown name or a value
    of another kind is a RulesetError, reported in the Python API's words
    (``set_options['NAME']``), or at ``set_by[NAME] NAME`` for an option set
    on the command line (``--set``, ``--compare-set``, ``sweep``).

    >>> tree = compose("r.yaml", text="name: r\\noptions:\\n  width: {default: 7}\\n")
    >>> apply_options(tree, {"width": "4"})["options"]
    {'width': {'default': 4}}
    >>> apply_options(tree, {"widht": "4"})
    Traceback (most recent call last):
    engine.core.errors.RulesetError: set_options['widht'] = '4': no option 'widht' in this ruleset (options: width) (did you mean 'width'?)
    >>> apply_options(tree, {"widht": "4"}, {"widht": "--set"})
    Traceback (most recent call last):
    engine.core.errors.RulesetError: --set widht=4: no option 'widht' in this ruleset (options: width) (did you mean 'width'?)
    >>> apply_options(tree, {"width": "four"}, {"width": "--compare-set"})
    Traceback (most recent call last):
    engine.core.errors.RulesetError: --compare-set width=four: option 'width' holds a whole number (7 in the ruleset), not text
    """
    if not set_options:
        return tree
    if not isinstance(set_options, collections.abc.Mapping):  # 'width=4' as --set writes it, say
        raise RulesetError.at(None, f"set_options maps option names to their values ({{'width': '4'}}), "
                                    f"not {cut(repr(set_options), 60)}")
    declared = tree.get("options")
    declared = declared if isinstance(declared, Mapping) else Mapping(tree.pos)
    options = _copy(declared)
    recorded = Mapping(tree.pos)
    for name, text in set_options.items():
        if not isinstance(name, str):
            raise RulesetError.at(None, f"set_options: an option is named by its text, not {cut(repr(name), 60)}")
        flag = (set_by or {}).get(name)
        where = f"{flag} {name}" if flag else f"set_options[{name!r}]"
        if name not in declared:
            known = ", ".join(declared) if declared else "none: this ruleset declares no options"
            raise RulesetError.at(
                None, f"{_assignment(where, str(text))}: no option '{name}' in this ruleset (options: {known})", did_you_mean(name, declared)
            )
        value = load_yaml(where, text) if isinstance(text, str) else python_value(where, text)
        spec = declared[name]
        with_default = isinstance(spec, Mapping) and "default" in spec
        if not (with_default and isinstance(spec.get("values"), list)):  # else the values listed decide, of any kinds
            _check_same_kind(name, spec["default"] if with_default else spec, value, where, str(text))
        pos = SourcePos(where, 1, 1)
        if with_default:  # the value replaces the default whole (a mapping is not merged); the doc stays
            changed = _copy(spec)
            changed.add("default", value, spec.key_pos.get("default"), pos)
            options.add(name, changed, declared.key_pos.get(name), declared.value_pos.get(name))
        else:
            options.add(name, value, declared.key_pos.get(name), pos)
        recorded.add(name, yaml_text(plain(value)), None, pos)  # the position says how it was set (set_in_words)
    result = _copy(tree)
    result.add("options", options, tree.key_pos.get("options"), tree.value_pos.get("options"))
    result.add(Text("set_options", tree.pos), recorded, None, None)
    return result


def python_value(where: str, value: Any) -> Any:
    """An option's value given from Python (not YAML text), read as the YAML it writes, so every YAML limit holds.

    Only what YAML can write is taken: None, true/false, numbers (numpy's too), texts, and lists (or tuples)
    and mappings with text keys of them, nested no deeper than ``yaml_depth``.

    >>> python_value("set_options['sizes']", (4, 5.5, "x"))
    [4, 5.5, 'x']
    >>> python_value("set_options['width']", 10 ** 200)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    engine.core.errors.RulesetError: set_options['width']: '1000...000' has more than 100 digits (limit integer_digits=100; ...)
    >>> python_value("set_options['width']", {4})
    Traceback (most recent call last):
    engine.core.errors.RulesetError: set_options['width']: a value set from Python is null, true or false, a number, a text, or a list or mapping of them, not set {4}
    """
    return load_yaml(where, yaml_text(_plain_python(where, value, limits.current().yaml_depth)))


def _plain_python(where: str, value: Any, depth: int) -> Any:
    """``value`` made of plain Python values only (numpy's numbers as Python's); RulesetError for anything else."""
    if depth < 0:
        raise RulesetError.at(None, f"{where}: the value nests too deeply {limits.exceeded('yaml_depth')}")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_plain_python(where, item, depth - 1) for item in value]
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: _plain_python(where, item, depth - 1) for key, item in value.items()}
    raise RulesetError.at(None, f"{where}: a value set from Python is null, true or false, a number, a text, "
                                f"or a list or mapping of them, not {type(value).__name__} {cut(repr(value), 60)}")


def set_outside(file: str) -> bool:
    """True for the position of an option set from outside the files (``--set NAME``, ``sweep NAME``, the API's
    ``set_options['NAME']``).

    >>> set_outside("--compare-set width"), set_outside("sweep width"), set_outside("rules/board.yaml")
    (True, True, False)
    """
    return file.startswith(("--", "sweep ", "set_options["))


def set_in_words(set_options: collections.abc.Mapping[str, str]) -> str:
    """The options set from outside the files, each in the words it was set with: the flag (``--set``,
    ``--compare-set``, ``sweep``) that :func:`apply_options` recorded as its position, else the Python API's.

    >>> tree = compose("r.yaml", text="name: r\\noptions:\\n  width: {default: 7}\\n  label: {default: a}\\n")
    >>> print(set_in_words(apply_options(tree, {"width": "4", "label": "'on'"}, {"width": "--set"})["set_options"]))
    --set width=4, set_options['label'] = "'on'"
    """
    positions = getattr(set_options, "value_pos", {})
    words = []
    for name, text in set_options.items():
        pos = positions.get(name)
        words.append(_assignment(pos.file if pos else f"set_options[{name!r}]", str(text)))
    return ", ".join(words)


def normal_text(text: str) -> str:
    """An option's value given as YAML text, in the one form :func:`apply_options` records (``0x10`` is ``16``,
    ``1 # one`` is ``1``); the text as given when it is no YAML.

    >>> normal_text("0x10"), normal_text("[3,1 , 0]"), normal_text("[3,")
    ('16', '[3, 1, 0]', '[3,')
    """
    try:
        return yaml_text(plain(load_yaml("--set", text)))
    except RulesetError:
        return text


def _assignment(where: str, text: str) -> str:
    """An option set to ``text`` at ``where``, as it was written there.

    >>> _assignment("--set width", "4"), _assignment("set_options['width']", "4")
    ('--set width=4', "set_options['width'] = '4'")
    """
    return f"{where} = {text!r}" if where.startswith("set_options[") else f"{where}={text}"


def _check_same_kind(name: str, old: Any, new: Any, where: str, text: str) -> None:
    """An option set from outside keeps its kind: ``7`` takes ``4``, not ``four``; an error begins with the setting
    as it was written at ``where`` (``--set width=four``).

    >>> _check_same_kind("width", 7, "four", "--set width", "four")
    Traceback (most recent call last):
    engine.core.errors.RulesetError: --set width=four: option 'width' holds a whole number (7 in the ruleset), not text
    """
    was, now = describe_kind(old), describe_kind(new)
    written = _assignment(where, cut(text, 60))
    if was == now and isinstance(old, list) and isinstance(new, list):
        _check_same_items(name, old, new, written)
    if old is None or was == now or (isinstance(old, float) and now == describe_kind(0)):
        return
    shown = repr(old) if isinstance(old, str) else yaml_text(plain(old))  # 'three', false, [6, 3]: as YAML writes it
    message = f"{written}: option '{name}' holds {was} ({shown} in the ruleset), not {now}"
    quoted = f"'{yaml_text(plain(new))}'"
    if where.startswith("--"):
        fixed = f"{where}=\"{quoted}\""
    elif where.startswith("set_options["):  # the Python API
        fixed = f"{where} = {quoted!r}"
    else:  # a sweep's value is quoted in its list
        fixed = quoted
    hint = f"to mean text, quote it: {fixed}" if isinstance(old, str) else None
    raise RulesetError.at(None, message, hint)


_PLURALS = {"a whole number": "whole numbers", "text": "texts", "true/false": "true/false values",
            "a decimal number": "numbers", "a list": "lists", "a mapping": "mappings"}


def _check_same_items(name: str, old: list[Any], new: list[Any], written: str) -> None:
    """A list option whose items are all of one kind takes a list of that kind: ``[4, 3]``, not ``[a, b]``.

    >>> _check_same_items("points", [3, 1, 0], ["a", 2], "--set points=[a, 2]")
    Traceback (most recent call last):
    engine.core.errors.RulesetError: --set points=[a, 2]: option 'points' holds a list of whole numbers ([3, 1, 0] in the ruleset), not a list with text: 'a'
    """
    kinds = {describe_kind(item) for item in old}
    if len(kinds) != 1:
        return
    kind = kinds.pop()
    for item in new:
        if describe_kind(item) != kind and not (kind == "a decimal number" and isinstance(item, int)):
            message = f"{written}: option '{name}' holds a list of {_PLURALS[kind]} ({old!r} in the ruleset), " \
                      f"not a list with {describe_kind(item)}: {yaml_text(plain(item))!r}"
            raise RulesetError.at(None, message)


# --- loading files -------------------------------------------------------------------------


def _load(
    path: Path, text: str | None, chain: tuple[Path, ...], roots: tuple[Path, ...], base: Mapping | None = None
) -> Mapping:
    """One file on its base, with its includes in between.

    The base is the ruleset it ``extends`` or, for an included file, everything
    composed before it — so ``key+`` / ``key-`` in any file act on what came
    before.  Every file read must be inside ``roots`` (see :mod:`engine.core.confine`).
    """
    doc = _as_mapping(load_yaml(path, text), path)
    chain = chain + (path.resolve(),)
    spent = _SPENT.get()
    if spent is not None:
        spent.loaded.append(str(path))
    if "extends" in doc:
        if base is not None:
            raise RulesetError.at(doc.pos_of("extends"), "an included file cannot use 'extends'; put it in the including ruleset")
        result = _extended_base(doc, path, chain, roots)
    else:
        result = base if base is not None else Mapping(doc.pos)
    entries = _names(doc, "include")
    if spent is not None:
        spent.expect(entries)
    for entry in entries:
        for target in _include_targets(entry, path.parent, roots):
            _check_cycle(target, chain, "include", entry.pos)
            if spent is not None:
                spent.read(entry.pos)
            result = _load(target, None, chain, roots, result)
    return _stack(result, _copy(doc, skip=_CONSUMED))


def _stack(base: Mapping, over: Mapping) -> Mapping:
    """``over`` merged on ``base``; a variant replaces a base variant of the same name whole.

    Variant bodies stay as written (with their ``key+`` / ``key-``) until applied.
    """
    result = merge(base, _copy(over, skip=(_VARIANTS,)))
    if _VARIANTS in over:
        origin = str(base["name"]) if isinstance(base.get("name"), str) else ""
        variants = _replace_by_name(result.get(_VARIANTS), over[_VARIANTS], origin)
        result.add(_VARIANTS, variants, over.key_pos.get(_VARIANTS), over.value_pos.get(_VARIANTS))
    return result


def _replace_by_name(base: Any, over: Any, origin: str = "") -> Any:
    """The base's variants with ``over``'s added; one of the same name replaces the base's whole, noted as replaced
    (``variant 'small' replaces the one from base (ruleset.yaml:40:3)``), as a definition written again is."""
    if not isinstance(base, Mapping) or not isinstance(over, Mapping):
        return over
    result = _copy(base, pos=over.pos)
    for name, body in over.items():
        if name in base:
            _note_replaced(base, name, "variant", over.key_pos.get(name, over.pos), origin)
        result.add(name, body, over.key_pos.get(name), over.value_pos.get(name))
    return result


def _as_mapping(tree: object, path: Path) -> Mapping:
    if tree is None:
        return Mapping(SourcePos(str(path), 1, 1))
    if not isinstance(tree, Mapping):
        pos = getattr(tree, "pos", SourcePos(str(path), 1, 1))
        message = f"a ruleset file must be a mapping of keys to values, not {describe_kind(tree)}"
        raise RulesetError.at(pos, message)
    return tree


def _extended_base(doc: Mapping, path: Path, chain: tuple[Path, ...], roots: tuple[Path, ...]) -> Mapping:
    entry = doc["extends"]
    pos = doc.pos_of("extends")
    if not isinstance(entry, str):
        raise RulesetError.at(pos, "'extends' names one ruleset: a built-in name or a path")
    try:
        if entry not in builtin_names():  # refuse a path outside before looking at it
            check_inside(path.parent / Path(entry).expanduser(), roots, "extended ruleset", entry)
        target = find_ruleset(entry, relative_to=path.parent)
        check_inside(target, roots, "extended ruleset", entry)
        if entry.endswith("/") and (path.parent / Path(entry).expanduser()).is_file():  # the path drops the slash
            raise RulesetError.at(pos, f"extended folder '{cut(entry, 200)}' is a file, not a folder",
                                  f"write '{cut(entry.rstrip('/'), 200)}' to extend the file")
    except FileRefused as err:
        raise RulesetError.at(pos, str(err)) from None
    except RulesetError as err:
        raise _relocated(err, pos) from None
    except OSError as err:  # a name too long for the file system
        raise RulesetError.at(pos, f"extended ruleset '{cut(entry, 200)}' cannot be read: {err.strerror}") from None
    _check_cycle(target, chain, "extends", pos)
    spent = _SPENT.get()
    if spent is None:
        return _load(target, None, chain, roots)
    spent.read(pos)
    first = len(spent.loaded)
    base = _load(target, None, chain, roots)
    spent.base_files.update(spent.loaded[first:])
    return base


def _include_targets(entry: Text, folder: Path, roots: tuple[Path, ...]) -> list[Path]:
    """The files an ``include`` entry names, each refused (unread) when outside ``roots``."""
    if not entry.strip():  # the folder of the file itself, which holds that file: read as an include cycle
        raise RulesetError.at(entry.pos, "this include names no file: give a file's or a folder's name, relative to "
                                         "this file ('cards/' for every file in the folder cards)")
    target = folder / entry
    try:
        check_inside(target, roots, "included file", entry)
        if target.is_dir():
            files = sorted(target.glob("*.yaml"), key=lambda p: p.name)
            for file in files:  # a link inside the folder may point outside
                check_inside(file, roots, "included file")
            return files
        if target.exists() and str(entry).endswith("/"):  # the path drops the slash: 'x.yaml/' would read x.yaml
            message = f"included folder '{cut(entry, 200)}' is a file, not a folder"
            raise RulesetError.at(entry.pos, message, f"write '{cut(entry.rstrip('/'), 200)}' to include the file")
        if target.exists():  # a file; anything else (a FIFO, a device) is refused when read
            return [target]
    except FileRefused as err:
        raise RulesetError.at(entry.pos, str(err)) from None
    except OSError as err:  # a name too long for the file system
        raise RulesetError.at(entry.pos, f"included file '{cut(entry, 200)}' cannot be read: {err.strerror}") from None
    raise RulesetError.at(entry.pos, f"included file '{entry}' not found (looked for {target})")


def _check_cycle(target: Path, chain: tuple[Path, ...], directive: str, pos: SourcePos) -> None:
    resolved = target.resolve()
    if resolved not in chain:
        return
    cycle = chain[chain.index(resolved) :] + (resolved,)
    root = cycle[0].parent
    shown = " -> ".join(str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in cycle)
    raise RulesetError.at(pos, f"{directive} cycle: {shown}")


def _relocated(err: RulesetError, pos: SourcePos) -> RulesetError:
    """``err`` with its position-less diagnostics placed at ``pos``."""
    return RulesetError([Diagnostic(d.pos or pos, d.message, d.hint) for d in err.diagnostics])


def _names(mapping: Mapping, key: str) -> list[Text]:
    """The value of ``key`` as a list of names: one text, or a list of texts (none if absent)."""
    value = mapping.get(key)
    if value is None:
        return []
    if isinstance(value, Text):
        return [value]
    if not isinstance(value, Sequence):
        message = f"'{key}' takes a name or a list of names, not {describe_kind(value)}"
        raise RulesetError.at(mapping.pos_of(key), message)
    for index, item in enumerate(value):
        if not isinstance(item, Text):
            raise RulesetError.at(value.pos_of(index), f"'{key}' lists names, not {describe_kind(item)}")
    return list(value)


# --- merging -------------------------------------------------------------------------------


def _copy(mapping: Mapping, skip: Container[str] = (), pos: SourcePos | None = None) -> Mapping:
    """A shallow copy of ``mapping`` (with positions) without the ``skip`` keys."""
    result = Mapping(pos or mapping.pos)
    for key, value in mapping.items():
        if key not in skip:
            result.add(key, value, mapping.key_pos.get(key), mapping.value_pos.get(key))
    return result


def _operator(key: str) -> str:
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
    spent, base = _SPENT.get(), result.get(key)
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
    op = _operator(key)
    return 0 if op == "-" else 2 if op == "+" and key[:-1] in over else 1


def _note_replaced(base: Mapping, key: str, what: str, pos: SourcePos, origin: str) -> None:
    spent = _SPENT.get()
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
    spent = _SPENT.get()
    if spent is not None and any(file in spent.loaded and file not in spent.base_files for file in files):
        return ""
    return origin


def _refuse_list_with_removal(over: Mapping) -> None:
    """``key: [...]`` replaces the base's whole list, so ``key-`` beside it in one mapping can only mislead."""
    for key in over:
        if _operator(key) == "-" and isinstance(over.get(key[:-1]), Sequence):
            message = (f"'{key[:-1]}' and '{key}' in one place: '{key[:-1]}' replaces the base's whole list, so "
                       f"'{key}' has nothing to remove from")
            hint = f"write the list you want in '{key[:-1]}', or remove items with '{key}' and add them with '{key[:-1]}+'"
            raise RulesetError.at(over.key_pos.get(key, over.pos), message, hint)


def _append(result: Mapping, over: Mapping, key: str, path: tuple[str, ...], origin: str) -> None:
    name = _bare(key, over)
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
        kept = _copy(base, skip=_keys_to_remove(base, items, name))
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
            inner = _copy(item)
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


# --- variants ------------------------------------------------------------------------------


def _declared_variants(tree: Mapping) -> Mapping:
    declared = tree.get(_VARIANTS)
    if declared is None:
        return Mapping(tree.pos)
    if not isinstance(declared, Mapping):
        raise RulesetError.at(tree.pos_of(_VARIANTS), "'variants' must map variant names to their changes")
    most = limits.current().variants
    if len(declared) > most:
        message = f"this ruleset declares {len(declared):,} variants, more than {most:,} {limits.exceeded('variants')}"
        raise RulesetError.at(tree.pos_of(_VARIANTS), message)
    for name in declared:
        bad = breaking_character(str(name))
        if bad is not None:  # it is typed on the command line and shown in one line of reports and file names
            raise RulesetError.at(declared.key_pos.get(name) or declared.pos_of(name),
                                  f"variant name '{one_line(str(name))}' holds a line break or another control "
                                  f"character ({repr(bad)[1:-1]}): it is typed after --variant and written in reports",
                                  "name it with letters, digits, '-' and '_'")
        if "+" in str(name):  # --variant a+b applies a, then b: a variant of that name could never be chosen
            raise RulesetError.at(declared.key_pos.get(name) or declared.pos_of(name),
                                  f"variant name '{name}' holds '+', which joins variants ('--variant a+b' plays a, then b)",
                                  f"name it {str(name).replace('+', '_')}")
    return declared


def _variant_body(declared: Mapping, name: str) -> Mapping:
    body = declared[name]
    if body is None:
        return Mapping(declared.pos_of(name))
    if not isinstance(body, Mapping):
        message = f"variant '{name}' must be a mapping of changes, not {describe_kind(body)}"
        raise RulesetError.at(declared.pos_of(name), message)
    return body


def _add_variant(
    declared: Mapping, name: str, pos: SourcePos | None, stack: tuple[str, ...], order: list[str]
) -> None:
    """Append ``name`` to ``order`` after the variants it ``requires``."""
    _check_known(declared, name, pos)
    if name in order:
        return
    if name in stack:
        raise RulesetError.at(pos, f"variants require each other in a cycle: {' -> '.join(stack + (name,))}")
    most = limits.current().requires_depth
    if len(stack) >= most:
        message = f"variant '{name}' is reached through a chain of more than {most} variants requiring each other"
        raise RulesetError.at(pos, f"{message} {limits.exceeded('requires_depth')}")
    for required in _names(_variant_body(declared, name), "requires"):
        _add_variant(declared, required, required.pos, stack + (name,), order)
    order.append(name)


def _check_known(declared: Mapping, name: str, pos: SourcePos | None) -> None:
    if name in declared:
        return
    known = ", ".join(declared) if declared else "none: this ruleset declares no variants"
    hint = did_you_mean(name, declared)
    raise RulesetError.at(pos, f"unknown variant '{name}' (known variants: {known})", hint)


def _check_conflicts(declared: Mapping, order: list[str]) -> None:
    for name in order:
        for other in _names(_variant_body(declared, name), "conflicts"):
            _check_known(declared, other, other.pos)
            if other in order:
                raise RulesetError.at(other.pos, f"variant '{name}' cannot be combined with '{other}'")
