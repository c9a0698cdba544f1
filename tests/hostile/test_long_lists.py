"""A long list of plain values is checked against the schema in one pass (engine/compiling/quick_items.py).

jsonschema descended into each item with a validator of its own, a tenth of a
millisecond an item: a scenario of 200,000 loaded dice (600 KB) took 25 s to
check, a file of the largest size minutes. The items that plainly meet their
schema are now passed over; the errors are jsonschema's own, for any list.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.compiling import quick_items, schema
from engine.compiling.quick_items import QuickValidator
from engine.core.yamlsource import load_yaml

VALUES = st.one_of(st.integers(-3, 8), st.booleans(), st.none(), st.floats(allow_nan=True), st.text(max_size=3),
                   st.lists(st.integers(0, 2), max_size=2))
SCHEMAS = st.sampled_from([
    {"type": "integer", "minimum": 1, "description": "One die's result."},
    {"type": ["integer", "null"], "maximum": 3},
    {"type": "string"},
    {"type": ["boolean", "string"], "title": "t"},
    {"type": "number", "minimum": 0},  # not plain: every item checked the usual way
    {"type": "string", "pattern": "^a"},
])


def found(validator: Any, instance: Any) -> list[tuple[str, list[Any], str]]:
    return sorted((e.message, list(e.absolute_path), e.validator) for e in validator.iter_errors(instance))


@settings(max_examples=80, deadline=None)
@given(SCHEMAS, st.lists(VALUES, max_size=8), st.booleans())
def test_a_list_gets_the_errors_jsonschema_gives(items: dict[str, Any], values: list[Any], prefix: bool) -> None:
    whole = {"type": "object", "properties": {"a": {"type": "array", "items": items}}}
    if prefix:
        whole["properties"]["a"]["prefixItems"] = [{"type": "string"}]
    assert found(QuickValidator(whole), {"a": values}) == found(Draft202012Validator(whole), {"a": values})


def test_a_scenario_s_long_list_of_dice_is_not_descended_into_item_by_item(monkeypatch: Any) -> None:
    """20,000 dice, two of them wrong: two descents, where there were 20,000, and the two errors at their items."""
    counted = {"descents": 0}
    descend = QuickValidator.descend

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        counted["descents"] += 1
        return descend(self, *args, **kwargs)

    monkeypatch.setattr(QuickValidator, "descend", counting)
    dice = ["4"] * 20_000
    dice[7], dice[15_000] = "0", '"six"'
    tree = load_yaml("s.yaml", f"name: s\nruleset: tic-tac-toe\ndice: [{', '.join(dice)}]\n")
    errors = schema.schema_errors(tree, "scenario")
    assert sorted((d.pos.line, d.pos.col, d.message.split(":")[0]) for d in errors) == [
        (3, 29, "dice/7"), (3, 45008, "dice/15000")]
    assert counted["descents"] < 100, counted


def test_a_schema_asking_more_than_a_type_and_bounds_is_checked_the_usual_way() -> None:
    assert quick_items.plainly_valid({"type": "integer", "enum": [1, 2]}) is None
    assert quick_items.plainly_valid({"type": "integer", "minimum": "1"}) is None
    assert quick_items.plainly_valid({"type": "object"}) is None
