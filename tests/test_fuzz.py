"""Fuzzing: whatever a ruleset, an effect, an action or a save contains, Rulecraft answers with a clear error.

Property-based (hypothesis).  The only outcomes allowed are success or a
Rulecraft error — :class:`~engine.core.errors.RulesetError` for rulesets and code,
:class:`~engine.core.errors.IllegalActionError` for actions (with the state
unchanged), :class:`~engine.model.savefile.SaveError` for saves — never another
exception, a hang, or a game that silently goes wrong.

* the effect language: random text, and the shipped rulesets' own code with
  tokens deleted, inserted, swapped and replaced, parsed, compiled (through
  ``game.compile_condition`` and the ruleset Builder) and, when it compiles,
  run on positions from real games;
* the loader: mutated copies of every shipped ruleset (keys renamed, values of
  the wrong type, lists emptied, numbers huge or negative, references broken,
  sections deleted), through ``validate_path`` and ``engine.load``; a mutant
  that loads is played, with the engine's own consistency and the declared
  invariants checked after every action;
* hostile YAML through ``rulecraft validate``; hostile effects (the step budget);
* action text and saves.

Sizes: CI-sized by default; ``RULECRAFT_FUZZ=long pytest tests/test_fuzz.py``
runs about thirty times as many examples.  Crashes the fuzzers found are
kept as explicit regression tests at the end of this file.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import string
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import engine
from timelimit import time_limit
from cli.main import main
from engine.blocks.clash import Clashes
from engine.compiling.builder import Builder
from engine.compiling.vocabulary import built_in_functions
from engine.core.compose import compose
from engine.core.errors import Diagnostic, EffectRuntimeError, IllegalActionError, RulecraftError, RulesetError
from engine.core.paths import builtin_names, find_ruleset
from engine.lang.parser import parse_expression, parse_program
from engine.model.savefile import SaveError, position_hash
from engine.model.state import State
from engine.runner.validate import validate_path
from tests.test_invariants import assert_consistent

# ---------------------------------------------------------------- profiles

pytestmark = pytest.mark.fuzz

# Random and larger: RULECRAFT_FUZZ=long (thirty times the CI sizes), or in a campaign (the "campaign" hypothesis
# profile is not derandomized: five times, so that benchmarks/fuzz.py runs many short rounds of fresh examples).
CAMPAIGN = not settings.default.derandomize
LONG = os.environ.get("RULECRAFT_FUZZ", "").lower() == "long" or CAMPAIGN
SCALE = 30 if os.environ.get("RULECRAFT_FUZZ", "").lower() == "long" else 5 if CAMPAIGN else 1
settings.register_profile(
    "rulecraft-fuzz",
    deadline=None,
    derandomize=not LONG,  # CI runs are reproducible; long local runs explore
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
BASE = settings.get_profile("rulecraft-fuzz")


def fuzz(examples: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a fuzz test: ``examples`` in CI, ``SCALE`` times that in a long run or a campaign."""
    return settings(BASE, max_examples=examples * SCALE)


RULESETS = builtin_names()
MAX_ACTIONS = 3000  # no shipped game (or mutant of one) comes near: more is a hang


# ---------------------------------------------------------------- corpus: the shipped rulesets' code

CODE_KEYS = {"setup", "when", "by", "rank", "to", "running_score", "if", "invariants"}
PROGRAM_KEYS = {"setup"}


def _code_strings(node: Any, key: str | None = None, found: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Every effect-language text in a YAML tree, split into programs and expressions."""
    found = found if found is not None else {"program": [], "expression": []}
    if isinstance(node, dict):
        for k, v in node.items():
            if key == "invariants" or key == "setup":
                kind = "program" if key == "setup" else "expression"
                if isinstance(v, str):
                    found[kind].append(v)
                continue
            _code_strings(v, str(k), found)
    elif isinstance(node, list):
        for item in node:
            if key == "by" and isinstance(item, str):
                found["expression"].append(item)
            else:
                _code_strings(item, key, found)
    elif isinstance(node, str) and key in CODE_KEYS and key != "by":
        found["program" if key in PROGRAM_KEYS else "expression"].append(node)
    return found


@lru_cache(maxsize=None)
def ruleset_data(name: str) -> Any:
    return yaml.safe_load(find_ruleset(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def corpus() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {"program": [], "expression": []}
    for name in RULESETS:
        _code_strings(ruleset_data(name), None, found)
    found["expression"] += [fn.example for fn in built_in_functions().values()]
    return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}


TOKEN = re.compile(r'"[^"\n]*"|\'[^\'\n]*\'|[A-Za-z_][A-Za-z0-9_]*|\d+|==|!=|<=|>=|\.\.|\n[ \t]*|\s+|.', re.S)
SPARE_TOKENS = [
    "(", ")", "[", "]", ",", ":", ".", "..", "=", "==", "<", "+", "-", "*", "/", "%", "and", "or", "not",
    "in", "where", "for", "if", "then", "else", "elif", "let", "repeat", "roll", "pass", "true", "false", "none",
    "odd", "even", "d6", "d0", "0", "1", "-1", "99999999999999999999", '"x"', '"\\N"', '"\\x"', "'\\u12'", "\n", "\n  ",
    "\n    ", "\t", ";", "#", "\\\n", "&&", "!", "@", "$", "é", "\x00", "count", "sum", "max", "all", "any", "move",
    "place", "flip", "shuffle", "hand", "board", "cards", "roles", "seat", "at", "abs", "roll", "score", "c", "r",
]


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


@st.composite
def mutated_code(draw: st.DrawFn, kind: str) -> str:
    """A shipped program or expression with a few tokens deleted, inserted, swapped, doubled or replaced."""
    pool = corpus()[kind]
    toks = tokens(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "swap", "double", "replace"]))
        if not toks:
            toks = [draw(st.sampled_from(SPARE_TOKENS))]
            continue
        i = draw(st.integers(0, len(toks) - 1))
        if op == "delete":
            del toks[i]
        elif op == "insert":
            toks.insert(i, draw(st.sampled_from(SPARE_TOKENS + toks)))
        elif op == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "double":
            toks.insert(i, toks[i])
        else:
            toks[i] = draw(st.sampled_from(SPARE_TOKENS + toks))
    return "".join(toks)


LANGUAGE_CHARS = string.ascii_letters + string.digits + " \n\t()[],.:;=<>!+-*/%\"'#\\_"
random_code = st.one_of(
    st.text(alphabet=LANGUAGE_CHARS, max_size=60),
    st.text(max_size=40),
    st.lists(st.sampled_from(SPARE_TOKENS), max_size=25).map(" ".join),
)


# ---------------------------------------------------------------- games, positions and a Builder per ruleset


@lru_cache(maxsize=None)
def game_of(name: str) -> engine.Game:
    return engine.load(name)


@lru_cache(maxsize=None)
def builder_of(name: str) -> Builder:
    b = Builder(compose(find_ruleset(name)))
    b.build()
    assert not b.sink.items
    return b


@lru_cache(maxsize=None)
def positions(name: str) -> tuple[State, ...]:
    """A few positions of real games: starts, middles and ends, for every player count."""
    game = game_of(name)
    found = []
    for players in game.player_counts:
        state = game.new_state(players=players, seed=players)
        choose = random.Random(players)
        found.append(state.clone())
        while not state.is_terminal:
            actions = state.legal_actions()
            state.apply(actions[choose.randrange(len(actions))])
            if choose.random() < 0.15:
                found.append(state.clone())
        found.append(state)
    return tuple(found)



def only_ruleset_errors(fn: Callable[[], Any]) -> Any:
    """Run ``fn``; a RulesetError is fine (it must say where), anything else but success fails the test."""
    try:
        return fn()
    except RulesetError as err:
        assert err.diagnostics and all(d.message for d in err.diagnostics)
        return None


def run_compiled(run: Callable[[State], Any], name: str) -> None:
    """Run compiled code on clones of real positions: only Rulecraft errors, and the state stays consistent."""
    for state in positions(name)[::3]:
        s = state.clone()
        try:
            run(s)
        except RulecraftError:
            pass
        assert_consistent(s, live=False)  # setup code run mid-game may leave nothing to decide; that is not a crash


# ---------------------------------------------------------------- the effect language


@fuzz(100)
@given(text=random_code)
@example(text='"\\N"')
@example(text="(" * 600 + "1" + ")" * 600)
@example(text="not " * 800 + "true")
@example(text="d0")
def test_parser_random_text_is_parsed_or_refused_with_a_position(text: str) -> None:
    for parse in (parse_expression, parse_program):
        only_ruleset_errors(lambda: parse(text))


@fuzz(60)
@given(name=st.sampled_from(RULESETS), text=st.one_of(mutated_code("expression"), random_code))
@example(name="tutorial-tiles", text="(" * 600 + "true" + ")" * 600)
@example(name="tutorial-tiles", text="roll(d0) == 1")
def test_mutated_conditions_compile_or_are_refused_and_run_safely(name: str, text: str) -> None:
    game = game_of(name)
    program = only_ruleset_errors(lambda: game.compile_condition(text, "<fuzz>"))
    if program is not None:
        run_compiled(program.test, name)


@fuzz(60)
@given(name=st.sampled_from(RULESETS), text=st.one_of(mutated_code("program"), mutated_code("expression"), random_code))
def test_mutated_programs_compile_through_the_builder_or_are_reported(name: str, text: str) -> None:
    b = builder_of(name)
    b.sink.items.clear()
    try:
        program = b.program(text, None)
        compiled, _ = b.expression(text, "bool")
    finally:
        problems = list(b.sink.items)
        b.sink.items.clear()
    assert all(d.message for d in problems)
    if not problems:
        run_compiled(program.run, name)


# ---------------------------------------------------------------- the loader: mutated rulesets

WRONG_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, -1, -(10**9), 10**30, 2**63, 7]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "none", "board", "hand", "element", "Fire", "x" * 300, "count(c in board)", "{", "*a"]),
    st.builds(list),
    st.builds(dict),
    st.lists(st.one_of(st.integers(-3, 10), st.text(max_size=5)), max_size=4),
    st.dictionaries(st.text(min_size=1, max_size=6), st.integers(-2, 9), max_size=3),
)


def all_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every node below ``data`` (not the root)."""
    found = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found.append(path + (key,))
        found.extend(all_paths(value, path + (key,)))
    return found


def parent_of(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        data = data[key]
    return data


def strings_in(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    items = data.values() if isinstance(data, dict) else data if isinstance(data, list) else ()
    return [s for item in items for s in strings_in(item)] + (list(data) if isinstance(data, dict) else [])


def typo(draw: st.DrawFn, text: str) -> str:
    if len(text) < 2:
        return text + "x"
    i = draw(st.integers(0, len(text) - 2))
    how = draw(st.sampled_from(["swap", "drop", "double", "case", "append"]))
    if how == "swap":
        return text[:i] + text[i + 1] + text[i] + text[i + 2:]
    if how == "drop":
        return text[:i] + text[i + 1:]
    if how == "double":
        return text[:i] + text[i] + text[i:]
    if how == "case":
        return text.swapcase()
    return text + "2"


@st.composite
def mutated_ruleset(draw: st.DrawFn, name: str) -> tuple[Any, list[str]]:
    """A deep copy of a shipped ruleset's YAML data with one to three mutations, and what they were."""
    data = copy.deepcopy(ruleset_data(name))
    done: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = all_paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = parent_of(data, path), path[-1]
        value = parent[key]
        op = draw(st.sampled_from(
            ["rename", "wrong-type", "empty", "number", "reference", "delete", "delete-section", "duplicate", "code"]
        ))
        if op == "rename" and isinstance(parent, dict):
            new = typo(draw, str(key)) if draw(st.booleans()) else draw(st.sampled_from(strings_in(data) or ["x"]))
            if new not in parent:
                parent[new] = parent.pop(key)
        elif op == "wrong-type":
            parent[key] = draw(WRONG_VALUES)
        elif op == "empty" and isinstance(value, (list, dict)):
            parent[key] = type(value)()
        elif op == "number":
            numbers = [p for p in paths if isinstance(parent_of(data, p)[p[-1]], int)]
            if numbers:
                p = draw(st.sampled_from(numbers))
                parent_of(data, p)[p[-1]] = draw(st.sampled_from([0, -1, -7, 10**9, 10**30, 2**64 + 1]))
        elif op == "reference" and isinstance(value, str):
            pool = strings_in(data)
            parent[key] = draw(st.sampled_from(pool)) if draw(st.booleans()) else typo(draw, value)
        elif op == "delete":
            del parent[key]
        elif op == "delete-section":
            del data[path[0]]
        elif op == "duplicate" and isinstance(value, list) and value:
            value.append(copy.deepcopy(value[draw(st.integers(0, len(value) - 1))]))
        elif op == "code" and isinstance(value, str):
            toks = tokens(value)
            if toks:
                i = draw(st.integers(0, len(toks) - 1))
                toks[i] = draw(st.sampled_from(SPARE_TOKENS + toks))
                parent[key] = "".join(toks)
        else:
            continue
        done.append(f"{op} at {'/'.join(map(str, path))}")
    return data, done


def write_yaml(folder: Path, data: Any) -> Path:
    path = folder / "ruleset.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    return path


def check_error_positions(err: RulesetError, path: Path) -> None:
    """A refused mutant is refused with diagnostics that point into the file (when they have a place)."""
    assert err.diagnostics
    for d in err.diagnostics:
        assert d.message
        if d.pos is not None:
            assert d.pos.line >= 1 and d.pos.col >= 1, d
            assert Path(d.pos.file).name == path.name or d.pos.file.startswith("<"), d


def check_diagnostics(diagnostics: list[Diagnostic], path: Path) -> None:
    """What validate_path found in one file: each problem says what is wrong and where in that file."""
    assert isinstance(diagnostics, list)
    lines = path.read_bytes().count(b"\n") + 1
    for d in diagnostics:
        assert isinstance(d, Diagnostic) and d.message.strip(), d
        assert d.pos is not None, d
        assert 1 <= d.pos.line <= lines and d.pos.col >= 1, d
        assert Path(d.pos.file).name == path.name or d.pos.file.startswith("<"), d


def play_checked(game: engine.Game, players: int, seed: int) -> list[str]:
    """A random game with the engine's consistency checked after every action; the invariants it broke.

    Only Rulecraft errors may stop it (a mutant can make an effect fail at run time).
    """
    broken: list[str] = []
    choose = random.Random(seed)
    try:
        state = game.new_state(players=players, seed=seed)
        for _ in range(MAX_ACTIONS):
            assert_consistent(state)
            broken += game.broken_invariants(state)
            if state.is_terminal:
                return broken
            actions = state.legal_actions()
            state.apply(actions[choose.randrange(len(actions))])
        raise AssertionError(f"a game did not end within {MAX_ACTIONS} actions")
    except RulecraftError:
        return broken


@pytest.mark.parametrize("name", RULESETS)
def test_mutated_rulesets_are_diagnosed_or_play_safely(name: str) -> None:
    # the small tutorial is cheap; the others cost ~0.3 s each, iconoclasm's 0.8 s (validate compiles its 7 variants)
    examples = {"tutorial-tiles": 30, "iconoclasm": 8}.get(name, 15)

    @fuzz(examples)
    @given(mutant=mutated_ruleset(name))
    def check(mutant: tuple[Any, list[str]]) -> None:
        data, _ = mutant
        with time_limit(60), tempfile.TemporaryDirectory() as tmp:
            path = write_yaml(Path(tmp), data)
            diagnostics = validate_path(str(path))
            check_diagnostics(diagnostics, path)
            try:
                game = engine.load(path)
            except RulesetError as err:
                check_error_positions(err, path)
                assert diagnostics, "engine.load refused a ruleset that validate accepted"
                return
            # validate also checks the variants, so it may find problems that plain load does not
            for players in game.player_counts[:2]:
                play_checked(game, players, seed=players)

    check()


DEEP_FORMS = {
    "not": lambda n: "not " * n + "true",
    "minus": lambda n: "1" + " - 1" * n,
    "list": lambda n: "[" * n + "1" + "]" * n,
    "cell": lambda n: "(1, " * n + "1" + ")" * n,
    "count": lambda n: "count(" * n + "x in board" + ")" * n,
    "if": lambda n: "if true then " * n + "1" + " else 0" * n,
    "and": lambda n: " and ".join(["true"] * n),
    "program": lambda n: "".join("  " * i + "if true:\n" for i in range(n)) + "  " * n + "pass\n",
}


def code_paths(data: Any, path: tuple[Any, ...] = (), key: str | None = None) -> list[tuple[Any, ...]]:
    """The paths of the effect-language texts in a ruleset's YAML data."""
    found = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        here = path + (k,)
        slot = str(k) if isinstance(data, dict) else key
        if isinstance(v, str) and (slot in CODE_KEYS or key in ("setup", "invariants", "by")):
            found.append(here)
        else:
            found.extend(code_paths(v, here, slot))
    return found


@pytest.mark.parametrize("name", RULESETS)
def test_deeply_nested_code_anywhere_in_a_ruleset_is_reported(name: str) -> None:
    data = ruleset_data(name)
    slots = code_paths(data)
    assert len(slots) >= 5

    @fuzz(5)
    @given(slot=st.sampled_from(slots), form=st.sampled_from(sorted(DEEP_FORMS)), depth=st.sampled_from([150, 330, 380, 450, 700, 2000]))
    def check(slot: tuple[Any, ...], form: str, depth: int) -> None:
        mutant = copy.deepcopy(data)
        parent_of(mutant, slot)[slot[-1]] = DEEP_FORMS[form](depth)
        with tempfile.TemporaryDirectory() as tmp:
            path = write_yaml(Path(tmp), mutant)
            check_diagnostics(validate_path(str(path)), path)
            try:
                engine.load(path)
            except RulesetError as err:
                check_error_positions(err, path)

    check()


# ---------------------------------------------------------------- hostile YAML, end to end


def validate_cli(path: Path) -> tuple[int, str, float]:
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["validate", str(path)])
    seconds = time.perf_counter() - start
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, result.output, seconds


BILLION_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9)
)

HOSTILE = {
    "python-object": ("name: x\nplayers: !!python/object/apply:os.system ['echo pwned']\n", "not allowed"),
    "python-name": ("name: !!python/name:os.system\n", "cannot build Python objects"),
    "billion-laughs": ("name: x\n" + BILLION_LAUGHS, "alias bomb"),
    "recursive-alias": ("name: x\nplayers: &a [*a]\n", "refers to no anchor"),
    "deep-nesting-flow": ("name: x\nplayers: " + "[" * 50_000 + "]" * 50_000 + "\n", "nesting deeper than"),
    "deep-nesting-block": ("".join(" " * i + f"k{i}:\n" for i in range(400)) + " " * 400 + "v: 1\n",
                           "nesting deeper than"),
    "huge-number": ("name: x\nplayers: [" + "9" * 100_000 + "]\n", "more than 100 digits"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_yaml_is_refused_quickly_with_a_clear_message(tmp_path: Path, case: str) -> None:
    text, words = HOSTILE[case]
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    code, output, seconds = validate_cli(path)
    assert code == 1, output
    assert words in output, output
    assert seconds < 5, f"{case} took {seconds:.1f} s"
    headline = output.splitlines()[0]
    assert len(headline) < 300, f"the message for {case} is {len(headline)} characters long"


def test_a_six_megabyte_ruleset_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: big\ndescription: " + "x" * (6 * 1024 * 1024) + "\n", encoding="utf-8")
    code, output, seconds = validate_cli(path)
    assert code == 1 and "larger than 5 MB" in output and seconds < 5


def test_non_utf8_bytes_are_refused_with_their_position(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_bytes(b"name: x\ntitle: caf\xe9\n")
    code, output, _ = validate_cli(path)
    assert code == 1 and "not valid UTF-8: byte 0xe9" in output and f"{path}:2:" in output


def test_fuzzed_bytes_never_crash_validate(tmp_path: Path) -> None:
    @fuzz(40)
    @given(data=st.binary(max_size=300) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
    def check(data: bytes) -> None:
        path = tmp_path / "ruleset.yaml"
        path.write_bytes(data)
        diagnostics = validate_path(str(path))
        assert diagnostics, "a few random bytes were accepted as a ruleset"
        check_diagnostics(diagnostics, path)

    check()


# ---------------------------------------------------------------- hostile effects: the step budget


def test_nested_loops_in_setup_stop_at_the_step_budget_naming_the_rule(tmp_path: Path) -> None:
    text = find_ruleset("tutorial-tiles").read_text(encoding="utf-8")
    setup = "    do: |\n      for r in roles where seated(r):\n        move(t in tiles where t.front.symbol == r, hand(r))\n"
    assert setup in text
    hostile = setup + "      repeat 100000:\n        repeat 100000:\n          pass\n"
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(setup, hostile), encoding="utf-8")
    start = time.perf_counter()
    diagnostics = validate_path(str(path))
    assert time.perf_counter() - start < 10
    assert diagnostics, "an endless setup was accepted"
    found = [d for d in diagnostics if "step budget" in d.message]
    assert found, diagnostics
    assert found[0].pos is not None and found[0].pos.file == str(path)
    assert "setting up" in found[0].message and "'repeat'" in found[0].message
    code, output, seconds = validate_cli(path)
    assert code == 1 and "step budget" in output and seconds < 10


# Hooks that trigger each other (a status's damage hook that heals and damages its
# bearer again) are stopped by the nesting limit: see
# test_hooks_that_trigger_each_other_stop_with_an_error_at_the_hook.


# ---------------------------------------------------------------- action text


@fuzz(100)
@given(
    name=st.sampled_from(RULESETS),
    index=st.integers(0, 10_000),
    text=st.one_of(
        st.text(max_size=40),
        st.text(alphabet="place clash as at 0123456789,-() /FireEarthWaterAirSunMoonStar", max_size=40),
        st.lists(st.sampled_from(["place", "clash", "as", "at", "with", "0,0", "1,0", "-1,0", "(0, 1)", "Fire/Fire",
                                  "Sun/Moon", "Sun", "Fire", "1,", ",", "9" * 30 + ",0", "١,٠", "x"]), max_size=7).map(" ".join),
    ),
)
def test_random_action_text_is_refused_and_changes_nothing(name: str, index: int, text: str) -> None:
    states = positions(name)
    state = states[index % len(states)].clone()
    legal = {str(a) for a in state.legal_actions()}
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        state.apply(text)
    except IllegalActionError as err:
        assert str(err)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        return
    # accepted: then it was a legal action in other words
    assert legal, "an action was accepted in a finished game"


# ---------------------------------------------------------------- saves

SAVE_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([-1, 0, 1, 2, 3, 99]),
    st.floats(allow_nan=False), st.text(max_size=8), st.builds(list), st.builds(dict),
    st.lists(st.integers(-2, 20), max_size=4), st.lists(st.lists(st.integers(-2, 5), max_size=3), max_size=3),
)


@st.composite
def edited_save(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = all_paths(data)
        path = draw(st.sampled_from(paths))
        parent, key = parent_of(data, path), path[-1]
        op = draw(st.sampled_from(["value", "delete", "swap", "append"]))
        if op == "value":
            parent[key] = draw(SAVE_VALUES)
        elif op == "delete":
            del parent[key]
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
        elif op == "append" and isinstance(parent[key], list):
            parent[key].append(draw(SAVE_VALUES))
    return data


def load_save(game: engine.Game, data: Any) -> State | None:
    """``state_from_json``: a SaveError, or a state that is consistent and plays on safely."""
    try:
        state = game.state_from_json(data)
    except SaveError as err:
        assert str(err)
        return None
    assert_consistent(state)
    choose = random.Random(0)
    try:
        for _ in range(MAX_ACTIONS):
            if state.is_terminal:
                break
            actions = state.legal_actions()
            state.apply(actions[choose.randrange(len(actions))])
            assert_consistent(state)
    except RulecraftError:
        pass
    return state


@fuzz(60)
@given(name=st.sampled_from(RULESETS), index=st.integers(0, 10_000), forge=st.booleans(), data=st.data())
def test_edited_saves_are_refused_or_load_a_sound_state(name: str, index: int, forge: bool, data: st.DataObject) -> None:
    """An edit is refused by the checksum; a forged one (checksum recomputed) by the checks behind it."""
    states = positions(name)
    state = states[index % len(states)]
    original = state.to_json()
    edited = data.draw(edited_save(original))
    if forge and isinstance(edited, dict):
        edited["checksum"] = position_hash(edited)
    loaded = load_save(state.game, edited)
    if not forge and edited != original:
        assert loaded is None, "an edited save was accepted"


@fuzz(60)
@given(name=st.sampled_from(RULESETS), index=st.integers(0, 10_000), cut=st.integers(0, 10_000))
def test_truncated_saves_are_refused(name: str, index: int, cut: int) -> None:
    states = positions(name)
    text = json.dumps(states[index % len(states)].to_json())
    text = text[: cut % len(text)]
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return
    assert load_save(states[0].game, data) is None


def test_a_save_from_another_ruleset_or_variant_is_refused() -> None:
    cards = game_of("iconoclasm-cards")
    tiles = game_of("tutorial-tiles")
    chain = engine.load("iconoclasm-cards", "chain-reactions")
    saved = cards.new_state(players=2, seed=1).to_json()
    with pytest.raises(SaveError, match="from ruleset 'iconoclasm-cards', not 'tutorial-tiles'"):
        tiles.state_from_json(saved)
    with pytest.raises(SaveError, match="played with variants"):
        chain.state_from_json(saved)
    changed = dict(saved, content_hash="0" * 16)
    with pytest.raises(SaveError, match="has changed since this state was saved"):
        cards.state_from_json(changed)
    with pytest.raises(SaveError, match="unknown save format"):
        cards.state_from_json(dict(saved, format=99))
    for junk in (None, [], "state", 3, {"format": 1}):
        with pytest.raises(SaveError):
            cards.state_from_json(junk)


# ---------------------------------------------------------------- regressions: crashes the fuzzers found


def tiles_variant(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the tutorial ruleset with one piece of text replaced."""
    text = find_ruleset("tutorial-tiles").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("text", ['"\\N"', '"\\x"', "'\\u12'", 'at(0, 0).id == "\\N{bogus}"'])
def test_regression_a_malformed_escape_in_a_text_is_a_positioned_error(text: str) -> None:
    # was: lark VisitError(SyntaxError) out of the parser (engine/lang/parser.py, str_lit)
    with pytest.raises(RulesetError, match="cannot read the text") as caught:
        parse_expression(text)
    assert caught.value.diagnostics[0].pos is not None
    with pytest.raises(RulesetError, match="cannot read the text"):
        game_of("tutorial-tiles").compile_condition(text)


@pytest.mark.parametrize("text", ["[" * 400 + "1" + "]" * 400 + " == 1", "(1, " * 400 + "1" + ")" * 400 + " == (1, 1)"])
def test_regression_deeply_nested_lists_and_cells_are_too_deep_not_a_crash(text: str) -> None:
    # was: RecursionError from str() of a list-of-list... type (engine/compiling/builder.py, compile_condition)
    with pytest.raises(RulesetError, match="nests too deeply"):
        game_of("tutorial-tiles").compile_condition(text)


def test_regression_a_deep_wrong_typed_expression_in_the_builder_is_reported() -> None:
    # was: RecursionError from the "this must be true or false" message (engine/compiling/builder.py, Builder.expression)
    b = builder_of("tutorial-tiles")
    b.sink.items.clear()
    b.expression("[" * 400 + "1" + "]" * 400, "bool")
    problems, b.sink.items[:] = list(b.sink.items), []
    assert any("nests too deeply" in d.message for d in problems)


def test_regression_deep_code_in_a_ranking_key_is_a_ruleset_error(tmp_path: Path) -> None:
    # was: RecursionError out of engine.load from _ranking's descriptions (engine/compiling/outcomes.py)
    deep = "[" * 700 + "1" + "]" * 700
    path = tiles_variant(tmp_path, "- count(t in board where t.symbol == s)", f"- '{deep}'")
    with pytest.raises(RulesetError, match="nests too deeply"):
        engine.load(path)
    assert any("nests too deeply" in d.message for d in validate_path(str(path)))


def test_regression_a_deep_scenario_expectation_is_a_failure_not_a_crash(tmp_path: Path) -> None:
    # was: RecursionError out of `rulecraft check` and `rulecraft validate` (engine/runner/scenario.py, _condition)
    scenario = tmp_path / "deep.yaml"
    deep = "[" * 400 + "1" + "]" * 400 + " == 1"
    scenario.write_text(f"name: deep\nruleset: tutorial-tiles\nplayers: 2\nexpect:\n  - '{deep}'\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1 and "nests too deeply" in result.output
    assert any("nests too deeply" in d.message for d in validate_path(str(scenario)))


def test_regression_a_face_listed_twice_is_an_error_not_a_crash(tmp_path: Path) -> None:
    # was: IndexError in the vocabulary's face attributes (engine/compiling/components.py, read_components)
    path = tiles_variant(tmp_path, "faces: [front, back]", "faces: [front, back, front]")
    with pytest.raises(RulesetError, match="face 'front' of tile is listed twice"):
        engine.load(path)


def test_regression_a_kind_without_instances_is_a_kind_of_none(tmp_path: Path) -> None:
    # the attribute tables get a row per face even without components (engine/compiling/components.py, read_components);
    # the kind is still a kind (code naming it reads an empty list, as for a deck of count 0), so the game plays
    path = tiles_variant(tmp_path, "instances: [Sun/Sun, Sun/Moon, Sun/Star, Moon/Moon, Moon/Star, Moon/Sun, Star/Star, Star/Sun, Star/Moon]",
                         "instances: []")
    game = engine.load(path)
    assert game.component_names == () or list(game.component_names) == []
    assert game.new_state(players=2, seed=1).is_terminal  # nothing to place: the end condition holds at once


def test_regression_a_huge_player_count_is_refused_at_once(tmp_path: Path) -> None:
    # was: a tuple of a billion seat names, eating all memory (engine/compiling/seating.py, read_players)
    path = tiles_variant(tmp_path, "players: [2, 3]", "players: [2, 1000000000]")
    start = time.perf_counter()
    with pytest.raises(RulesetError, match="at most 100 players"):
        engine.load(path)
    assert time.perf_counter() - start < 5


def test_regression_a_huge_number_is_quoted_shortly(tmp_path: Path) -> None:
    # was: a 100,000-digit number repeated in full in the message (engine/core/yamlsource.py, _scalar)
    path = tmp_path / "ruleset.yaml"
    path.write_text("players: [" + "9" * 100_000 + "]\n", encoding="utf-8")
    (problem,) = validate_path(str(path))
    assert "has more than 100 digits" in problem.message and len(problem.message) < 200


def test_regression_edited_saves_are_refused() -> None:
    # was: edits accepted as long as they looked plausible (engine/model/savefile.py: checksum, version, variants)
    state = positions("iconoclasm-cards")[3]
    data = state.to_json()
    game = state.game
    assert game.state_from_json(data) == state
    for edited, words in [
        ({**data, "rng": str(int(data["rng"]) + 1)}, "edited or damaged"),
        ({k: v for k, v in data.items() if k != "checksum"}, "has no checksum"),
        ({k: v for k, v in data.items() if k != "variants"}, "played with variants"),
        ({**data, "version": None}, "version None"),
        ({**data, "turn": float("inf")}, "damaged or incomplete"),
    ]:
        with pytest.raises(SaveError, match=words):
            game.state_from_json(edited)


def forged(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A save changed by someone who also recomputed its checksum."""
    out = {**data, **changes}
    out["checksum"] = position_hash(out)
    return out


def test_regression_forged_saves_that_cannot_go_on_are_refused() -> None:
    # was: KeyError / TypeError / IndexError on the next action after loading (engine/model/savefile.py, _probe)
    game = game_of("iconoclasm-cards")
    state = game.new_state(players=4, seed=2)
    while state.current_player > 0 and not state.slices.get(Clashes.block, Clashes()).pending:
        state.apply(state.legal_actions()[0])
    data = state.to_json()
    for scratch in ({**data["scratch"], "pending": [[[0, 0], [40, 40]]]}, {**data["scratch"], "pending": 0},
                    {**data["scratch"], "pending": [0]}):
        with pytest.raises(SaveError, match="does not hold together|damaged|work does not fit this game"):
            game.state_from_json(forged(data, scratch=scratch))
    start = game.new_state(players=4, seed=2).to_json()
    empty_hands = [z if i < 3 else [] for i, z in enumerate(start["zones"])]
    empty_hands[0] = [c for z in start["zones"] for c in z]
    with pytest.raises(SaveError, match="nothing to decide"):
        game.state_from_json(forged(start, zones=empty_hands))
    outcome = finished_outcome = positions("iconoclasm-cards")[-1].to_json()
    assert finished_outcome["outcome"] is not None
    wrong = {**outcome["outcome"], "returns": outcome["outcome"]["returns"] + [1.0]}
    with pytest.raises(SaveError, match="outcome does not fit"):
        game.state_from_json(forged(outcome, outcome=wrong))


def test_regression_forged_saves_holding_no_whole_numbers_are_refused() -> None:
    # was: a board cell, a component or a turn written 3.7, "3" or true was read as 3, 3 or 1 (int() of it), so a
    # forged save of a position that cannot be loaded as written (engine/model/savefile.py, _whole)
    game = game_of("iconoclasm-cards")
    data = positions("iconoclasm-cards")[3].to_json()
    (x, y, piece), *rest = data["board"]
    for edited in (forged(data, board=[[x + 0.7, y, piece], *rest]), forged(data, board=[[str(x), y, piece], *rest]),
                   forged(data, turn_number=str(data["turn_number"])), forged(data, step=True if data["step"] == 1 else 1.5),
                   forged(data, zones=[[float(c) for c in zone] for zone in data["zones"]])):
        with pytest.raises(SaveError, match="damaged or incomplete .*is no whole number"):
            game.state_from_json(edited)
    assert game.state_from_json(forged(data)) == positions("iconoclasm-cards")[3]

@pytest.mark.parametrize("value, kind", [("null", "null"), ("2.5", "a decimal number"), ("{a: 1}", "a mapping")])
def test_regression_an_option_code_cannot_compute_with_is_a_type_error(tmp_path: Path, value: str, kind: str) -> None:
    # was: TypeError (int - None) out of validate's setup dry run; the option's type was "any"
    # (engine/compiling/names.py, declare_opaque_options)
    path = tiles_variant(tmp_path, "  board_size:\n    default: 3", f"  board_size:\n    default: {value}")
    found = validate_path(str(path))
    assert any(f"option 'board_size' holds {kind}" in d.message for d in found), found
    with pytest.raises(RulesetError, match="option 'board_size' holds"):
        engine.load(path)


def test_hooks_that_trigger_each_other_stop_with_an_error_at_the_hook(tmp_path: Path) -> None:
    """A status whose damage hook heals and damages its bearer again would recurse forever: it stops, positioned and named."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(
        "name: endless-hooks\nextends: iconica\nstatuses:\n  Sleep:\n    on:\n      on_act: cancel()\n"
        "      on_damage: |\n        heal(self, 20, status)\n        damage(self, 10, status)\n",
        encoding="utf-8",
    )
    game = engine.load(path)
    rng = random.Random(1)
    with pytest.raises(EffectRuntimeError) as err:
        for seed in range(200):
            state = game.new_state(players=2, seed=seed)
            while not state.is_terminal:
                state.apply(rng.choice(list(state.legal_actions())))
    assert "keep damaging and healing each other" in str(err.value) and f"{path}:8:9" in str(err.value)
    assert "Sleep's on_damage" in str(err.value).split("deep): ")[1]  # the hooks running when it was cut, named
