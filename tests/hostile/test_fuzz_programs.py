"""Fuzzing the effect language from its grammar: every generated program ends within its budget.

Programs and expressions are generated from ``engine/lang/grammar.lark``
(``hypothesis.extra.lark.from_lark``), with the ruleset's own names for
``NAME`` so that many of them type-check, and put into a small ruleset as a
function, the setup, a placement's ``then:`` program (run like a hook, each
time a tile is placed) and the end condition.  Each example must end — within
a time limit, under small budgets — with a positioned ``RulesetError`` when
the ruleset is loaded, or with a game that plays: to its end, or to a
Rulecraft error that says where.

Marked ``fuzz``: ``pytest -m fuzz`` runs the fuzz tests alone.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import engine
from engine.compiling.builder import build_game
from engine.compiling.schema import check_schema
from engine.core import limits
from engine.core.compose import compose
from engine.core.errors import RulecraftError, RulesetError
from engine.lang.parser import _parser

from budget_cli import examples
from timelimit import time_limit

pytestmark = pytest.mark.fuzz

SMALL = limits.Limits(steps=5_000, integer_digits=30, call_depth=8, condition_items=100_000)
"""Small budgets, so that an example that runs into one ends quickly."""
SECONDS = 10.0
"""The most one example may take: loading, compiling and playing one game."""

RULESET = """\
name: fuzzed
players: [2]
types:
  symbol: [Sun, Moon]
components:
  tile:
    faces: [front, back]
    attributes:
      symbol: {{type: symbol, per_face: true}}
      value: int
    instances: [{{id: a, symbol: [Sun, Moon], value: 1}}, {{id: b, symbol: [Moon, Sun], value: 2}},
                {{id: c, symbol: [Sun, Sun], value: 3}}, {{id: d, symbol: [Moon, Moon], value: 4}}]
board: {{kind: square-grid, max_width: 3, max_height: 3, adjacency: orthogonal}}
roles:
  of: symbol
  seating: {{2: [1, 2]}}
zones:
  hand: {{kind: hand, per: role}}
counters:
  gold: {{start: 2}}
  mana: {{per: role, start: 1}}
functions:
  fz(int n): {function}
  fy(int n): fz(n) + fz(n) - fz(n)
  fx(int n): fy(n) * fy(n) + count(t in tiles where fy(t.value) > n)
setup: |
  for r in roles:
    move(t in tiles where t.front.symbol == r, hand(r))
{setup}
turn:
  - place:
      from: hand
      face: choose
      then: |
{then}
end:
  when: {end}
scoring:
  rank: s in roles
  by: [count(t in board where t.symbol == s)]
  points: [1, 0]
"""

NAMES = ["n", "t", "r", "s", "x", "tiles", "board", "hand", "roles", "gold", "mana", "fz", "count", "sum", "max", "min",
         "abs", "all", "any", "first", "move", "shuffle", "flip", "roll", "seat", "seated", "owner", "at", "supply",
         "Sun", "Moon", "symbol", "value", "front", "back", "cell", "me", "turn_number", "placed", "none_such", "fy", "fx"]
TOKENS = {
    "NAME": st.sampled_from(NAMES),
    "INT": st.one_of(st.integers(0, 9).map(str), st.integers(0, 10 ** 40).map(str), st.just("9" * 200)),
    "DIE": st.sampled_from(["d2", "d6", "d1000", "d0", "d" + "9" * 50]),
    "STRING": st.sampled_from(['"Sun"', "'x'", '"{n:>2000000000}"', '"\\N"']),
    "_NL": st.just("\n"),  # the blocks of a program are laid out by programs() and indented()
    "_INDENT": st.just("\x01"),
    "_DEDENT": st.just("\x02"),
}


@lru_cache(maxsize=None)
def grammar(start: str) -> st.SearchStrategy[str]:
    """Text the grammar accepts from the rule ``start``.

    Words (``if``, ``not``, names, numbers) are written with spaces around
    them, so that the text reads back as the tokens drawn; what the lexer
    skips (blanks, comments) is one space.
    """
    explicit: dict[str, st.SearchStrategy[str]] = {}
    for terminal in _parser().terminals:
        if terminal.name.startswith("__IGNORE") or terminal.name == "COMMENT":
            explicit[terminal.name] = st.just(" ")
        elif terminal.pattern.type == "str" and terminal.pattern.value.isalpha():
            explicit[terminal.name] = st.just(f" {terminal.pattern.value} ")
    explicit.update({name: strategy.map(" {} ".format) for name, strategy in TOKENS.items() if name in WORDS})
    explicit.update({name: strategy for name, strategy in TOKENS.items() if name not in WORDS})
    return from_lark(_parser(), start=start, explicit=explicit, alphabet=st.characters(codec="ascii", min_codepoint=32))


WORDS = ("NAME", "INT", "DIE")
CONDITION = "not_expr"
"""The grammar's rule for conditions: ``not``, comparisons and everything below (``and``/``or``/``if`` in brackets).

Drawing from the top rule (``expr``) nests so deeply that hypothesis discards most examples; one level
down, ``and``, ``or`` and ``if ... then`` still come in through brackets and arguments.
"""
VALUE = "sum"
"""The grammar's rule for values: arithmetic, calls, selections in arguments, literals."""


def program() -> st.SearchStrategy[str]:
    """A program: a simple statement from the grammar, alone or under a block (``if``, ``for``, ``repeat``).

    Few draws from the grammar per example: hypothesis discards a draw that nests too deeply, and the
    grammar's expressions nest deeply enough on their own.
    """
    line = grammar("simple_stmt").map(lambda text: text + "\n")
    header = st.one_of(
        grammar(CONDITION).map("if {}".format),
        st.tuples(st.sampled_from(["t", "r", "x"]), grammar(VALUE)).map(lambda p: f"for {p[0]} in {p[1]}"),
        grammar(VALUE).map("repeat {}".format),
    )
    return st.one_of(line, st.tuples(header, line).map(lambda p: f"{p[0]}:\n\x01{p[1]}\x02"))


PLAIN = {"function": "n + 1", "setup": "pass", "then": "pass", "end": "all(count(t in hand(r)) == 0 for r in roles)"}
"""Code for the slots an example leaves alone."""
SLOTS = {"function": grammar(VALUE), "setup": program(), "then": program(), "end": grammar(CONDITION)}
"""Generated code for each slot: the body of a function, the setup, a placement's ``then:`` and the end condition."""


def indented(text: str, margin: int) -> str:
    """Generated program text with its indentation markers (\\x01 in, \\x02 out) laid out as spaces, ``margin`` deep.

    >>> indented("if x:\\n\\x01pass\\n\\x02gold = 1\\n", 2)
    '  if x:\\n    pass\\n  gold = 1\\n'
    """
    out, level, start = [" " * margin], 0, False
    for char in text:
        if char == "\x01":
            level += 1
        elif char == "\x02":
            level = max(level - 1, 0)
        elif char in "\r\n":
            start = True
        else:
            if start:
                out.append("\n" + " " * (margin + 2 * level))
                start = False
            out.append(char)
    return "".join(out) + "\n"


def _one_line(text: str) -> str:
    """An expression on one line of YAML, quoted so that YAML reads it as written."""
    return "'" + " ".join(text.split()).replace("'", "''") + "'" if text.strip() else "'true'"



def load_or_refuse(text: str) -> engine.Game | None:
    """The ruleset in ``text`` compiled under :data:`SMALL`, or None when it is refused with positions."""
    try:
        with limits.using(SMALL):
            tree = compose("fuzzed.yaml", text=text)
            check_schema(tree, "ruleset")
            return build_game(tree)
    except RulesetError as err:
        assert err.diagnostics and all(d.pos is not None for d in err.diagnostics), err.format()
        return None


def play_to_the_end(game: engine.Game, seed: int) -> None:
    """A random game: it ends, or stops at a Rulecraft error that says where it happened."""
    chooser = random.Random(seed)
    try:
        state = game.new_state(players=2, seed=seed)
        for _ in range(40):
            if state.is_terminal:
                event("played to the end")
                return
            actions = list(state.legal_actions())
            state.apply(actions[chooser.randrange(len(actions))])
    except RulecraftError as err:
        event("stopped by an error in play")
        assert getattr(err, "pos", None) is not None or ":" in str(err), str(err)


def check_example(function: str, setup: str, then: str, end: str, seed: int) -> None:
    text = RULESET.format(function=_one_line(function), setup=indented(setup, 2).rstrip("\n"),
                          then=indented(then, 8).rstrip("\n"), end=_one_line(end))
    with time_limit(SECONDS):
        game = load_or_refuse(text)
        event("refused when loaded" if game is None else "loaded and played")
        if game is not None:
            assert game.limits == SMALL
            play_to_the_end(game, seed)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(slot=st.sampled_from(sorted(SLOTS)), data=st.data(), seed=st.integers(0, 2 ** 16))
def test_generated_code_ends_within_its_budget(slot: str, data: st.DataObject, seed: int) -> None:
    code = {**PLAIN, slot: data.draw(SLOTS[slot], label=slot)}
    check_example(code["function"], code["setup"], code["then"], code["end"], seed)


STATEMENTS = st.sampled_from([
    "gold = gold * gold", "gold += fx(gold)", "repeat fx(3):\n\x01gold += 1\n\x02", "mana(Sun) += fy(gold)",
    "for t in tiles where fx(t.value) > 0:\n\x01gold -= 1\n\x02", "let x = count(t in board where fx(t.value) > 1)",
    "repeat gold:\n\x01repeat gold:\n\x01gold += 1\n\x02\x02", "roll d6:\n\x01odd: gold += fy(gold)\neven: pass\n\x02",
])
BODIES = st.sampled_from([
    "n * n * n * n", "n + count(t in tiles where t.value > n)", "sum(t.value * n for t in tiles)", "n * 100000000000000",
    "gold * gold", "if n > 0 then n - 1 else gold",
])
CONDITIONS = st.sampled_from([
    "fx(gold) > 1", "count(t in tiles where fx(t.value) > gold) > 2", "all(fy(mana(r)) > 0 for r in roles)",
    "gold > 1000", "all(count(t in hand(r)) == 0 for r in roles)", "any(fx(t.value) > 5 for t in board)",
])


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(function=BODIES, setup=st.lists(STATEMENTS, max_size=4).map("\n".join),
       then=st.lists(STATEMENTS, max_size=4).map("\n".join), end=CONDITIONS, seed=st.integers(0, 2 ** 16))
def test_costly_programs_made_of_known_pieces_end_within_their_budget(function: str, setup: str, then: str,
                                                                        end: str, seed: int) -> None:
    check_example(function, setup, then, end, seed)
