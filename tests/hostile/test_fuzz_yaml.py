"""Fuzzing the YAML loader with text that uses everything YAML offers a stranger.

Documents are written as text (never through ``yaml.safe_dump``, which would
write none of this): anchors and aliases (also of long texts, and aliases
of anchors not defined yet), ``<<`` merge keys, standard and Python tags,
and whole numbers in every form YAML 1.1 reads — decimal with ``_``,
``0x`` hex, ``0`` octal, ``0b`` binary, base-60 ``1:59:59`` and huge ones.
Each example must load within a time limit or be refused with a position;
what loads keeps every number within the ``integer_digits`` limit, reads
numbers as PyYAML does (but for base-60 ones, which are text), and goes
through ``engine.load`` as an option's value with positioned errors only.

Marked ``fuzz``: ``pytest -m fuzz`` runs the fuzz tests alone.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.compiling.builder import build_game
from engine.compiling.schema import check_schema
from engine.core import limits
from engine.core.compose import compose
from engine.core.errors import RulesetError
from engine.core.yamlsource import Mapping, Sequence, load_yaml

from budget_cli import BASE, examples
from timelimit import Hang, time_limit

pytestmark = pytest.mark.fuzz

SMALL = limits.Limits(yaml_nodes=20_000, yaml_text=200_000, yaml_depth=40, integer_digits=50)
"""Small budgets, so that an example that runs into one ends quickly."""
SECONDS = 5.0


def _digits(alphabet: str, most: int) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), min_size=1, max_size=most)


WHOLE_NUMBERS = st.one_of(
    st.integers(-10 ** 6, 10 ** 6).map(str),
    st.tuples(st.sampled_from(["", "+", "-"]), _digits("0123456789_", 8)).map(lambda p: p[0] + "1" + p[1]),
    _digits("0123456789abcdefABCDEF_", 60).map("0x{}".format),
    _digits("01234567_", 60).map("0{}".format),
    _digits("01_", 200).map("0b{}".format),
    st.lists(st.integers(0, 59).map(str), min_size=1, max_size=40).map(lambda parts: "1:" + ":".join(parts)),
    st.integers(40, 6000).map(lambda n: "9" * n),
    st.integers(40, 6000).map(lambda n: "0x" + "f" * n),
)
"""Whole numbers as YAML 1.1 writes them, small, large and huge."""

SCALARS = st.one_of(
    WHOLE_NUMBERS,
    st.sampled_from(["1.5", "-.inf", ".nan", "1e400", "1:30.5", "true", "no", "on", "null", "~", "2001-12-14", "=", "<<"]),
    st.text(st.sampled_from("abcxyz {}:%#&*!|>'\"-"), max_size=12).map(lambda t: '"' + t.replace("\\", "").replace('"', "") + '"'),
    st.sampled_from(["abc", "Sun", "x y", "'quoted'", '"{x:>2000000000}"']),
    st.integers(1, 200_000).map(lambda n: '"' + "y" * n + '"'),
)
TAGS = st.sampled_from([""] * 40 + ["!!int ", "!!str ", "!!float ", "!!bool ", "!!null ", "!!binary ", "!!timestamp ",
                        "!!python/object:os.system ", "!!python/name:os.getcwd ", "!local ", "!!set ", "!!omap "])


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A YAML document as text: top-level keys whose flow-style values use anchors, aliases, merges and tags."""
    anchors: list[str] = []
    lines = []
    for index in range(draw(st.integers(1, 8), label="keys")):
        lines.append(f"k{index}: {draw(_node(anchors, 0))}")
    return "\n".join(lines) + "\n"


@st.composite
def _node(draw: st.DrawFn, anchors: list[str], depth: int) -> str:
    kind = draw(st.sampled_from(["scalar", "scalar", "alias", "list", "map", "merge"] if depth < 4 else ["scalar", "alias"]))
    if kind == "alias":
        if draw(st.integers(0, 29)) == 0:
            return "*nowhere"
        if anchors:
            return "*" + draw(st.sampled_from(anchors))
        kind = "scalar"
    anchor = ""
    if draw(st.integers(0, 3)) == 0:
        anchor = f"&a{len(anchors)} "
    tag = draw(TAGS)
    if kind == "scalar":
        text = anchor + tag + draw(SCALARS)
    elif kind == "list":
        items = [draw(_node(anchors, depth + 1)) for _ in range(draw(st.integers(0, 5)))]
        text = anchor + tag.replace("!!int ", "") + "[" + ", ".join(items) + "]"
    else:
        entries = []
        if kind == "merge":
            merged = [f"*{name}" for name in draw(st.lists(st.sampled_from(anchors), max_size=6))] if anchors else []
            entries.append("<<: " + (merged[0] if len(merged) == 1 else "[" + ", ".join(merged) + "]"))
        for index in range(draw(st.integers(0, 4))):
            key = draw(st.sampled_from([f"e{index}"] * 6 + ["0x1f", "on", "1:20", "<<", "~"]))
            entries.append(f"{key}: {draw(_node(anchors, depth + 1))}")
        text = anchor + tag + "{" + ", ".join(entries) + "}"
    if anchor:
        anchors.append(anchor[1:-1])
    return text



def _walk(tree: Any, seen: set[int]) -> Iterator[Any]:
    """Every value of a loaded tree, each shared (aliased) node once."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (Mapping, Sequence)):
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.extend(node.values() if isinstance(node, Mapping) else node)
        yield node


def _same_numbers_as_pyyaml(text: str, tree: Any) -> None:
    """Where PyYAML reads a top-level value as a whole number (not base-60), the loader reads the same number."""
    try:
        with time_limit(1.0):
            reference = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, ValueError, TypeError, Hang, RecursionError):
        return
    if not isinstance(reference, dict) or not isinstance(tree, Mapping):
        return
    for key, value in tree.items():
        theirs = reference.get(key)
        if type(theirs) is int and type(value) is int:
            assert value == theirs, (key, value, theirs)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(text=documents())
def test_hostile_yaml_loads_within_its_budget_or_is_refused_with_a_position(text: str) -> None:
    with limits.using(SMALL), time_limit(SECONDS):
        try:
            tree = load_yaml("fuzzed.yaml", text)
        except RulesetError as err:
            event("refused")
            assert all(d.pos is not None and d.pos.file == "fuzzed.yaml" for d in err.diagnostics), err.format()
            return
    event("loaded")
    for value in _walk(tree, set()):
        if isinstance(value, int) and not isinstance(value, bool):
            assert not SMALL.too_large(value)
    _same_numbers_as_pyyaml(text, tree)


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(text=documents())
def test_hostile_yaml_in_a_ruleset_loads_or_is_refused_with_positions(text: str) -> None:
    options = "options:\n" + "".join(f"  {line}\n" for line in text.splitlines())
    with limits.using(SMALL), time_limit(SECONDS):
        try:
            tree = compose("fuzzed.yaml", text=BASE + options)
            check_schema(tree, "ruleset")
            build_game(tree)
            event("loaded")
        except RulesetError as err:
            event("refused")
            assert err.diagnostics and all(d.pos is not None for d in err.diagnostics), err.format()
