"""Options set from outside a ruleset's files (``--set NAME=VALUE``, ``set_options`` in Python, a sweep's values):
each replaces the option's default, checked to be the same kind of value, and is recorded in one normal form.

>>> normal_text("04"), normal_text("[1,  2]")
('4', '[1, 2]')
"""

from __future__ import annotations

import collections.abc
import numbers
from typing import Any

from engine.core import limits
from engine.core.errors import RulesetError, SourcePos, did_you_mean
from engine.core.merging import copy_mapping
from engine.core.showtext import cut
from engine.core.yamlsource import Mapping, Text, describe_kind, load_yaml, plain, yaml_text


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

    >>> from engine.core.compose import compose
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
    options = copy_mapping(declared)
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
            changed = copy_mapping(spec)
            changed.add("default", value, spec.key_pos.get("default"), pos)
            options.add(name, changed, declared.key_pos.get(name), declared.value_pos.get(name))
        else:
            options.add(name, value, declared.key_pos.get(name), pos)
        recorded.add(name, yaml_text(plain(value)), None, pos)  # the position says how it was set (set_in_words)
    result = copy_mapping(tree)
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

    >>> from engine.core.compose import compose
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
