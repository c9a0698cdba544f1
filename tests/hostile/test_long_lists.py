"""A long list of plain values is checked against the schema in one pass (engine/compiling/quick_items.py), and
the diagnostics on one long line read only the text near their column (engine/core/errors.py, quoted_window).

jsonschema descended into each item with a validator of its own, a tenth of a
millisecond an item: a scenario of 200,000 loaded dice (600 KB) took 25 s to
check, a file of the largest size minutes. The items that plainly meet their
schema are now passed over; the errors are jsonschema's own, for any list.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.compiling import quick_items, schema
from engine.compiling.quick_items import QuickValidator
from engine.core import errors
from engine.core.errors import QUOTE_WIDTH, RulesetError
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


def test_diagnostics_on_one_long_line_read_only_the_text_near_their_column(tmp_path: Path, monkeypatch: Any) -> None:
    """3,000 actions on one line, each cut by YAML at its comma: a diagnostic each, and each escaped the whole line
    to quote it and searched the whole line before it for the text cut (a scenario of 5,000 such actions, 80 KB, took
    four minutes to report, one of 20,000 numbers more)."""
    read: list[int] = []
    quoted_line = errors.quoted_line

    def quoting(text: str, col: int) -> tuple[str, int]:
        read.append(len(text))
        return quoted_line(text, col)

    search = re.search
    monkeypatch.setattr(errors, "quoted_line", quoting)
    monkeypatch.setattr(schema, "re", SimpleNamespace(search=lambda p, text: read.append(len(text)) or search(p, text),
                                                      match=re.match))
    path = tmp_path / "s.yaml"
    path.write_text("name: s\nruleset: tic-tac-toe\nactions: [" + ", ".join(["place X at 1,1"] * 3000) + "]\n")
    found = schema.schema_errors(load_yaml(str(path), path.read_text()), "scenario")
    text = RulesetError(found).format()
    assert len(found) == 3000 and text.count("YAML cut 'place X at 1,1' at its comma inside [...]") == 3000
    assert len(read) == 6000 and max(read) <= 2 * QUOTE_WIDTH + 2, max(read)


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from("ab,\u202e\x1b\u200b"), max_size=400), st.integers(1, 420), st.integers(5, 120))
def test_the_window_quoted_is_the_one_quoted_from_the_whole_line(line: str, col: int, width: int) -> None:
    assert errors.quoted_window(line, col, width) == errors.clip_line(*errors.quoted_line(line, col), width)
