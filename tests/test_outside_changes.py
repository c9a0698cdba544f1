"""What changes on a paused state outside its effect (engine.blocks.outside_changes): found from a snapshot and put
on another copy, it gives that copy the noted fields' new values (numbers, text, tuples, none, dict entries)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.blocks.outside_changes import Noticed, apply_changes

NAMES = ("a", "b", "c", "d")
SINGLES = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=2), st.tuples(st.integers(0, 2)), st.booleans())
DICTS = st.dictionaries(st.integers(0, 5), st.integers(0, 3), max_size=5)
VALUES = st.one_of(SINGLES, DICTS, st.lists(st.integers(0, 3), max_size=3))


class Fields:
    __slots__ = NAMES


def made(values: list[Any]) -> Fields:
    fields = Fields()
    for name, value in zip(NAMES, values):
        setattr(fields, name, value)
    return fields


@given(before=st.lists(VALUES, min_size=4, max_size=4), after=st.lists(VALUES, min_size=4, max_size=4),
       in_place=st.lists(st.booleans(), min_size=4, max_size=4))
def test_the_changes_put_on_a_copy_give_it_the_new_values(before: list[Any], after: list[Any], in_place: list[bool]) -> None:
    noticed = Noticed(NAMES)
    live, other = made(copy.deepcopy(before)), made(copy.deepcopy(before))
    noted = noticed.snapshot(live)
    for name, value, inside in zip(NAMES, after, in_place):
        now = getattr(live, name)
        if inside and isinstance(now, dict) and isinstance(value, dict):
            now.clear()
            now.update(value)  # changed in place: the snapshot still has the old entries
        else:
            setattr(live, name, copy.deepcopy(value))
    changes = noticed.changes(live, noted)
    kept = {name: copy.deepcopy(getattr(other, name)) for name in NAMES}
    apply_changes(other, changes)
    for name, old, new in zip(NAMES, before, after):
        if isinstance(old, (dict, int, str, tuple)) or old is None:
            assert getattr(other, name) == new  # noted: it follows
        else:
            assert getattr(other, name) == kept[name]  # a list is not compared: left as it was
    assert noticed.changes(live, noticed.snapshot(live)) == ()


def test_only_field_names_are_read() -> None:
    with pytest.raises(ValueError, match="not field names"):
        Noticed(("a", "b) or (print(1)"))
