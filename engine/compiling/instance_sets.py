"""Instances made by ``each``: one component for every combination of some attributes' values, as a deck of cards
is every rank of every suit.

::

    instances:
      - each:
          shape: {S: square, T: triangle}   # the name each value gives the id: the value
          size: [1, 2, 3]                   # a list: each value is its own name
        id: "{size}{shape}"                 # 1S, 2S, 3S, 1T, 2T, 3T: the first key outermost
        set: basic                          # any other key: the same for every one

The entry stands for the instances it makes, written out in the ruleset's tree before anything reads them, so the
rest of the compiler (and every block reading ``instances``) sees plain ``{id: ..., attr: value}`` mappings, each
value keeping the place it is written for its messages.

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "components: {tile: {attributes: {shape: text, size: int}, instances: "
...                                 "[{each: {shape: {S: square, T: triangle}, size: [1, 2]}, id: '{size}{shape}'}]}}\\n"))
>>> [(i["id"], i["shape"], i["size"]) for i in expand_instances(b, b.tree["components"]["tile"])]
[('1S', 'square', 1), ('2S', 'square', 2), ('1T', 'triangle', 1), ('2T', 'triangle', 2)]
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from engine.core import limits
from engine.core.errors import SourcePos, did_you_mean
from engine.core.yamlsource import Mapping, Sequence

if TYPE_CHECKING:
    from engine.compiling.builder import Builder

EACH = "each"
_FIELD = re.compile(r"\{([^{}]*)\}")
Choice = tuple[str, Any, SourcePos]  # the value's name in the id, the value, where it is written


def expand_instances(b: "Builder", spec: Mapping) -> Sequence | None:
    """``spec``'s instances with every ``each`` entry written out in its place (the list itself when it has none).

    Problems are reported at the entry (``b.error``) and the entry makes no component."""
    listed = spec.get("instances")
    if not isinstance(listed, Sequence) or not any(isinstance(i, Mapping) and EACH in i for i in listed):
        return listed
    out = Sequence(listed.pos)
    for i, inst in enumerate(listed):
        if isinstance(inst, Mapping) and EACH in inst:
            for made in _made(b, inst):
                out.add(made, made.pos)
        else:
            out.add(inst, listed.pos_of(i))
    return out


def _made(b: "Builder", inst: Mapping) -> list[Mapping]:
    """The instances one ``each`` entry makes: every combination of its values, the first key outermost."""
    each = inst[EACH]
    if not isinstance(each, Mapping) or not each:
        b.error(inst.pos_of(EACH), "'each' takes a mapping: each attribute with its values, e.g. "
                                   "{shape: [square, triangle], size: [1, 2, 3]}")
        return []
    axes = [_choices(b, each, attr) for attr in each]
    if not all(axes) or not _id_names_each(b, inst, each):
        return []
    total = 1
    for axis in axes:
        total *= len(axis)
    most = limits.current().components
    if total > most:
        b.error(inst.pos_of(EACH), f"'each' makes {total:,} components; a ruleset has at most {most:,} "
                                   f"{limits.exceeded('components')}")
        return []
    for attr in each:
        if attr in inst:
            b.error(inst.key_pos.get(attr), f"'{attr}' is given by 'each' too: give it once",
                    "leave it out here, or out of 'each'")
            return []
    template, made = str(inst["id"]), []
    for combination in itertools.product(*axes):
        one = Mapping(inst.pos)
        one.add("id", _FIELD.sub(lambda m: dict(zip(each, (c[0] for c in combination)))[m.group(1)], template),
                inst.key_pos.get("id"), inst.pos_of("id"))
        for attr, (_, value, at) in zip(each, combination):
            one.add(str(attr), value, each.key_pos.get(attr), at)
        for key, value in inst.items():
            if key not in ("id", EACH):
                one.add(key, value, inst.key_pos.get(key), inst.value_pos.get(key))
        made.append(one)
    return made


def _choices(b: "Builder", each: Mapping, attr: str) -> list[Choice]:
    """One attribute's values under ``each``: a list (each value its own name in the id) or a mapping from the name
    to the value; none, reported, when it is neither or empty."""
    values = each[attr]
    if isinstance(values, Sequence) and values:
        return [(str(v), v, values.pos_of(k)) for k, v in enumerate(values)]
    if isinstance(values, Mapping) and values:
        return [(str(name), v, values.pos_of(name)) for name, v in values.items()]
    b.error(each.pos_of(attr), f"'{attr}' under 'each' takes a list of its values, or a mapping from the name each "
                               "value gives the id to the value", _range_written(values) or "e.g. [1, 2, 3] or {S: square, T: triangle}")
    return []


def _range_written(values: object) -> str | None:
    """For a range of numbers written as code or as ``A..B`` (``numbers(3, 35)``, ``3..35``, ``3-35``), the list
    to write instead.

    >>> _range_written("numbers(3, 8)")
    'the numbers are written out: [3, 4, 5, 6, 7, 8]'
    >>> _range_written("1..12")
    'the numbers are written out: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]'
    >>> _range_written("Plum") is None, _range_written("1" * 5000 + "..2") is None
    (True, True)
    """
    found = re.fullmatch(r"\s*(?:numbers\s*\(\s*(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*\)|(-?\d{1,6})\s*(?:\.\.|-|to)\s*(-?\d{1,6}))\s*",
                         str(values))  # numbers of at most 6 digits: int() refuses thousands
    if found is None:
        return None
    low, high = (int(n) for n in (found.group(1, 2) if found.group(1) else found.group(3, 4)))
    if not low < high <= low + 100:
        return None
    return f"the numbers are written out: [{', '.join(map(str, range(low, high + 1)))}]"


def _id_names_each(b: "Builder", inst: Mapping, each: Mapping) -> bool:
    """Whether the entry's ``id`` names every attribute of ``each`` in braces, and nothing else (reported if not):
    without one, two components would share an id."""
    template = inst.get("id")
    if not isinstance(template, str):
        b.error(inst.pos_of("id"), "components made by 'each' need an id, a text naming each attribute in braces",
                "e.g. id: \"{size}{shape}\" makes 1S, 2S, ...")
        return False
    fields = _FIELD.findall(template)
    for field in fields:
        if field not in each:
            b.error(inst.pos_of("id"), f"the id names {{{field}}}, which 'each' does not give",
                    did_you_mean(field, list(each)) or f"'each' gives {', '.join(each)}")
            return False
    missing = [str(attr) for attr in each if attr not in fields]
    if missing:
        b.error(inst.pos_of("id"), f"the id '{template}' leaves out {', '.join('{' + m + '}' for m in missing)}: "
                                   "components that differ only there would share it",
                f"write it in the id, e.g. \"{template}{{{missing[0]}}}\"")
        return False
    return True
