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
from pathlib import Path
from typing import Any, Callable

from engine.core import limits
from engine.core.confine import FileRefused, check_inside, roots_for
from engine.core.errors import Diagnostic, RulesetError, SourcePos, did_you_mean
from engine.core.merging import SPENT, Spent, copy_mapping, merge, operator_of, replace_by_name
from engine.core.paths import builtin_names, find_ruleset
from engine.core.set_options import apply_options
from engine.core.showtext import breaking_character, cut, one_line
from engine.core.yamlsource import Mapping, Sequence, Text, describe_kind, load_yaml

_CONSUMED = ("include", "extends")
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
    :func:`engine.core.set_options.apply_options`, with ``set_by``) goes on top of the variants.
    """
    token = SPENT.set(Spent(limits.current()))
    try:
        tree = _load(Path(path), text, (), roots_for(Path(path).parent))
        _refuse_loader_keys(tree)
        result = apply_options(apply_variants(tree, variants), set_options or {}, set_by)
        replaced = SPENT.get().replaced  # type: ignore[union-attr]
        if replaced:
            notes = Sequence(result.pos)
            for note in dict.fromkeys(replaced):  # a base composed twice (a variant's and the ruleset's) notes once
                notes.add(note, note.pos)
            result.add(Text(REPLACED, result.pos), notes, None, None)
        return result
    finally:
        SPENT.reset(token)


def replacements(tree: Mapping) -> list[Text]:
    """What the overlays of a composed ruleset replaced, each positioned where the new definition is written.

    >>> base = "name: b\\nstatuses:\\n  Sting: {lasts: 1, on: {on_act: cancel()}}\\n"
    >>> over = load_yaml("o.yaml", "statuses:\\n  Sting: {kind: minor}\\n")
    >>> token = SPENT.set(Spent(limits.current()))
    >>> tree = merge(load_yaml("b.yaml", base), over)
    >>> tree["statuses"]["Sting"], [str(t) for t in SPENT.get().replaced]
    ({'kind': 'minor'}, ["status 'Sting' replaces the one from b (b.yaml:3:3)"])
    >>> SPENT.reset(token)
    """
    found = tree.get(REPLACED)
    return list(found) if isinstance(found, Sequence) else []


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
        result = merge(result, copy_mapping(body, skip=_VARIANT_META))
    result = copy_mapping(result, pos=tree.pos)
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
        bare = key[:-1] if operator_of(key) else key
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
    spent = SPENT.get()
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
            result = _placed(lambda: _load(target, None, chain, roots, result), entry.pos)
    return _stack(result, copy_mapping(doc, skip=_CONSUMED))


def _placed(read: Callable[[], Mapping], pos: SourcePos) -> Mapping:
    """What ``read`` composes of a file an ``include`` or ``extends`` at ``pos`` names; a failure to read that file,
    which has no position of its own (a FIFO, a file past 5 MB, an unreadable one), is told at ``pos``.

    >>> _placed(lambda: _load(Path("/dev/null"), None, (), ()), SourcePos("r.yaml", 2, 10))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.errors.RulesetError: r.yaml:2:10: cannot read '/dev/null': not a regular file ...
    """
    try:
        return read()
    except RulesetError as err:
        if all(d.pos is not None for d in err.diagnostics):
            raise
        raise _relocated(err, pos) from None


def _stack(base: Mapping, over: Mapping) -> Mapping:
    """``over`` merged on ``base``; a variant replaces a base variant of the same name whole.

    Variant bodies stay as written (with their ``key+`` / ``key-``) until applied.
    """
    result = merge(base, copy_mapping(over, skip=(_VARIANTS,)))
    if _VARIANTS in over:
        origin = str(base["name"]) if isinstance(base.get("name"), str) else ""
        variants = replace_by_name(result.get(_VARIANTS), over[_VARIANTS], origin)
        result.add(_VARIANTS, variants, over.key_pos.get(_VARIANTS), over.value_pos.get(_VARIANTS))
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
    spent = SPENT.get()
    if spent is None:
        return _placed(lambda: _load(target, None, chain, roots), pos)
    spent.read(pos)
    first = len(spent.loaded)
    base = _placed(lambda: _load(target, None, chain, roots), pos)
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
