"""Majority with support: who wins a count of values, ties broken by a support table.

The relative majority among the contending values wins.  A tie between
several values is broken in stages: each tied value adds the count of its
first supporter, then (if still tied) of its second, and so on; after each
stage only the values with the highest total stay in contention.  A supporter
that is itself among the tied values adds nothing ("no support against own
pieces").  With ``last_resort`` the stages are repeated, if still tied, with
that restriction lifted.  Neutral values never contend nor support.  If no
stage breaks the tie there is no winner.

One table serves every kind of contest: pass the counts of everything that
takes part and the values that may win.

>>> t = SupportTable("t", {"A": ("C", "B"), "B": ("A", "C"), "C": ("B", "A")}, frozenset({"N"}), True)
>>> t.decide({"A": 2, "B": 2, "C": 1, "N": 2}).winner   # A gets C's 1; B's supporter A is tied: nothing
'A'
>>> t.decide({"N": 7}).winner is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable

from engine.blocks.block import Block, declare
from engine.core.errors import SourcePos, did_you_mean
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection, described_value
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, Enum

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext
    from engine.core.yamlsource import Mapping

STAGE_WORDS = ("primary", "secondary", "tertiary")
MEMO_SIZE = 50_000
"""Verdicts a support table remembers before it starts again."""


@dataclass(frozen=True)
class Account:
    """How a verdict was reached, in words: the totals at each stage, and the counts adding up to each total."""

    steps: tuple[str, ...] = ()
    terms: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)  # value -> the counts adding up to its total


@dataclass(frozen=True)
class Verdict:
    """The result of a contest: the winner (None: unresolved), its totals and how it was decided.

    The account in words is worked out only when something asks for it (most verdicts are never told):
    ``retell`` decides the same contest again, in words.
    """

    winner: str | None
    totals: dict[str, int]
    decided_by: str  # "majority", "primary support", ..., "... against own", "no contender", "unresolved"
    retell: Callable[[], Account] = field(default=Account, compare=False, repr=False)

    @cached_property
    def account(self) -> Account:
        """The stages and sums behind the verdict (worked out once, when first asked)."""
        return self.retell()

    @property
    def steps(self) -> tuple[str, ...]:
        """The totals at each stage, in words: ``A 3, D 3, C 1``, ``primary support: D 4, A 3``."""
        return self.account.steps

    @property
    def terms(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Each deciding value's counts that add up to its total."""
        return self.account.terms

    def explain(self) -> str:
        """The arithmetic in words: ``A 3, D 3, C 1; primary support: D 4, A 3``."""
        return "; ".join(self.steps)

    def sums(self) -> str:
        """The deciding totals as sums, best first: ``D 3 + C 1 = 4 beats A 3`` (``ties`` when unresolved).

        >>> SupportTable("t", {"A": ("C",), "D": ("B",)}, frozenset()).decide({"A": 3, "D": 3, "C": 1}, ["A", "D"]).sums()
        'A 3 + C 1 = 4 beats D 3'
        """
        order = sorted(self.terms, key=lambda v: (v != self.winner, -self.totals.get(v, 0)))
        parts = []
        for v in order:
            terms = self.terms[v]
            text = " + ".join(f"{name} {n}" for name, n in terms)
            parts.append(text if len(terms) == 1 else f"{text} = {sum(n for _, n in terms)}")
        return (" beats " if self.winner is not None else " ties ").join(parts)


@dataclass(frozen=True)
class SupportTable:
    """Who supports each value, strongest first; values that never take part; whether the last resort applies."""

    name: str
    supporters: dict[str, tuple[str, ...]]
    neutral: frozenset[str]
    last_resort: bool = True
    of: str = ""  # the type whose values contend
    _memo: dict[tuple[object, ...], Verdict] = field(default_factory=dict, compare=False, repr=False)

    def decide(self, counts: dict[str, int], contenders: Iterable[str] | None = None) -> Verdict:
        """The winner among ``contenders`` (default: every non-neutral value counted), by ``counts``.

        Verdicts are remembered (by the counts in their order, and the contenders): the same contest
        recurs often in a game.  Their account in words is worked out only when asked for.
        """
        among = None if contenders is None else tuple(contenders)
        key = (*counts.items(), among)
        verdict = self._memo.get(key)
        if verdict is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            items = key[:-1]
            winner, totals, decided_by, _ = self._decide(counts, among, told=False)
            verdict = self._memo[key] = Verdict(winner, totals, decided_by,
                                                lambda: self._decide(dict(items), among, told=True)[3])  # type: ignore[arg-type]
        return verdict

    def _decide(self, counts: dict[str, int], contenders: tuple[str, ...] | None,
                told: bool) -> tuple[str | None, dict[str, int], str, Account]:
        """The winner, its totals, what decided and (``told``: else an empty one) the account in words.

        >>> SupportTable("t", {"A": ("C",)}, frozenset())._decide({"A": 2, "B": 2, "C": 1}, None, told=True)
        ('A', {'A': 3, 'B': 2}, 'primary support', Account(steps=('A 2, B 2, C 1', 'primary support: A 3, B 2'), \
terms={'A': (('A', 2), ('C', 1)), 'B': (('B', 2),)}))
        """
        pool = [v for v in (counts if contenders is None else contenders) if v not in self.neutral and counts.get(v, 0) > 0]
        if not pool:
            return None, {}, "no contender", Account(("no value can win",))
        top = max(counts[v] for v in pool)
        tied = [v for v in pool if counts[v] == top]
        totals = {v: counts[v] for v in pool}
        steps = [_line(totals, pool)] if told else []
        if len(tied) == 1:
            if not told:
                return tied[0], totals, "majority", Account()
            runner = max((v for v in pool if v != tied[0]), key=lambda v: counts[v], default=None)
            terms = {v: ((v, counts[v]),) for v in (tied[0], runner) if v is not None}
            return tied[0], totals, "majority", Account(tuple(steps), terms)
        depth = max((len(self.supporters.get(v, ())) for v in tied), default=0)
        for against_own in ((False, True) if self.last_resort else (False,)):
            current = {v: counts[v] for v in tied}
            added: dict[str, list[tuple[str, int]]] = {v: [(v, counts[v])] for v in tied} if told else {}
            contending = list(tied)
            blocked = set(tied) if not against_own else set()
            for stage in range(depth):
                taking_part = contending  # the totals told at this stage: those of the values still in contention
                for v in contending:
                    row = self.supporters.get(v, ())
                    if stage < len(row) and row[stage] not in blocked and row[stage] not in self.neutral:
                        current[v] += counts.get(row[stage], 0)
                        if told and counts.get(row[stage], 0):
                            added[v].append((row[stage], counts[row[stage]]))
                best = max(current[v] for v in contending)
                contending = [v for v in contending if current[v] == best]
                if told:
                    steps.append(f"{_stage_word(stage, against_own)}: {_line(current, taking_part)}")
                if len(contending) == 1:
                    account = Account(tuple(steps), {v: tuple(added[v]) for v in tied}) if told else Account()
                    return contending[0], current, _stage_word(stage, against_own), account
        steps.append("still tied: no winner")
        return None, totals, "unresolved", Account(tuple(steps), {v: ((v, counts[v]),) for v in tied}) if told else Account()

    def describe(self) -> list[str]:
        """One English line per value, for ``rulecraft explain``."""
        lines = [f"{v} is supported by {', then '.join(row)}" for v, row in self.supporters.items()]
        if self.neutral:
            neutral = sorted(self.neutral)
            verbs = "wins nor supports" if len(neutral) == 1 else "win nor support"
            lines.append(f"{', '.join(neutral)} neither {verbs}")
        lines.append("no support against own pieces" + ("; if still tied, support against own pieces too" if self.last_resort else ""))
        return lines


def _stage_word(stage: int, against_own: bool) -> str:
    """What decided at a support stage: ``primary support``, ``level 4 support (also against own)``.

    >>> _stage_word(1, True)
    'secondary support (also against own)'
    """
    word = f"{STAGE_WORDS[stage] if stage < len(STAGE_WORDS) else f'level {stage + 1}'} support"
    return word + " (also against own)" if against_own else word


def _line(totals: dict[str, int], order: Iterable[str]) -> str:
    return ", ".join(f"{v} {totals[v]}" for v in sorted(order, key=lambda v: -totals[v]))


def read_support_tables(b: "BuildContext") -> None:
    """``support_tables``: majority with support, kept in ``game.parts["majority"]`` by name (and offered to ``majority()``).

    ::

        support_tables:
          backing:
            of: sign
            supporters: {rock: [paper, scissors]}   # strongest first
            neutral: []
            last_resort: true
    """
    g = b.game
    tables = b.tree.get("support_tables") or {}
    majority = g.parts["majority"] = g.vocab.data["support_tables"] = {}
    for name, spec in tables.items():
        b.unknown_keys(spec, ("of", "supporters", "neutral", "last_resort"), f"support table '{name}'")
        type_name = str(spec.get("of", ""))
        values = g.types.get(type_name)
        if values is None:
            b.error(b.pos(spec, "of"), f"unknown type '{type_name}'", did_you_mean(type_name, g.types))
            continue

        def known(value: Any, pos: SourcePos | None) -> str:
            if str(value) not in values:
                b.error(pos, f"unknown {type_name} '{value}'", did_you_mean(str(value), values))
            return str(value)

        neutral = spec.get("neutral") or []
        neutral_set = frozenset(known(v, b.pos(neutral, i)) for i, v in enumerate(neutral))
        rows = spec.get("supporters") or {}
        supporters = {known(v, rows.key_pos.get(v)): tuple(known(x, b.pos(row, i)) for i, x in enumerate(row or []))
                      for v, row in rows.items()}
        majority[str(name)] = SupportTable(str(name), supporters, neutral_set, b.bool_setting(spec, "last_resort", True), type_name)


def support_table(b: "BuildContext", spec: "Mapping", key: str) -> SupportTable:
    """The support table ``spec[key]`` names (an empty one, reported, when there is none of that name)."""
    name = str(spec.get(key, ""))
    table = b.game.parts["majority"].get(name)
    if table is None:
        b.error(b.pos(spec, key), f"unknown support table '{name}'", did_you_mean(name, b.game.parts["majority"]))
        return SupportTable(name, {}, frozenset())
    return table


class Majority(Function):
    """``majority(c.sign for c in board where ..., "backing")``: the value a support table makes win a count, or none.

    Any code may call it: the values counted, then a support table's name in quotes.  No group forms and
    nothing moves — the verdict is a value (the table's type), ``none`` when no value wins.
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) != 2:
            return Compiled(ANY, lambda s, e: None)
        tables: dict[str, SupportTable] = scope.vocab.data.get("support_tables", {})
        name = args[1].value if isinstance(args[1], ast.Literal) and isinstance(args[1].value, str) else None
        table = tables.get(name) if name is not None else None
        if table is None:
            known = ", ".join(f'"{n}"' for n in tables) or "none declared"
            scope.error(args[1].pos, f"majority() needs a support table's name in quotes (support tables: {known})",
                        did_you_mean(str(name), tables) if name is not None else None)
            return Compiled(ANY, lambda s, e: None)
        wanted = Enum(table.of)
        sel_node = as_selection(args[0])
        sel = sel_node.compile_parts(scope)
        if sel.value is not None:
            ast.expect(scope, sel_node.value or sel_node, sel.value, wanted, "the values counted by majority()")
            value_fn = sel.value.fn
        else:
            ast.expect(scope, args[0], Compiled(sel.item_type, sel.items), wanted, "the values counted by majority()")
            value_fn = lambda s, e, i=sel.slot: e[i]  # noqa: E731
        items, slot = sel.items, sel.slot

        def verdict(s: Any, e: list[Any]) -> str | None:
            counts: dict[str, int] = {}
            for x in items(s, e):
                e[slot] = x
                v = value_fn(s, e)
                if v is not None:
                    counts[v] = counts.get(v, 0) + 1
            return table.decide(counts).winner

        return Compiled(wanted, verdict)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) != 2:
            return "majority(?)"
        sel = as_selection(args[0])
        return f"the majority of {described_value(sel)} (ties: support table {args[1].describe()}), over {describe_selection(args[0])}"


BLOCK = declare(Block(
    "majority",
    keys={
        "support_tables": {
            "description": ("Majority with support: the relative majority of a count wins; ties are broken by "
                            "adding the counts of each tied value's supporters, strongest first (a supporter that "
                            "is itself tied adds nothing; with `last_resort` that is retried without the "
                            "restriction). Used by `form_groups` steps and by `majority()` in any code."),
            "type": ["object", "null"],
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "of": {"description": "The type whose values contend.", "type": "string", "examples": ["house"]},
                    "supporters": {
                        "description": ("Value -> the values that support it, strongest first (primary, secondary, "
                                        "...)."),
                        "type": "object",
                        "additionalProperties": {"type": "array", "items": {"type": "string"}},
                        "examples": [{"Oak": ["Yew", "Fir"]}],
                    },
                    "neutral": {
                        "description": "Values that never win nor support.",
                        "type": "array",
                        "items": {"type": "string"},
                        "examples": [["Crown"]],
                    },
                    "last_resort": {
                        "description": ("If still tied, repeat allowing support against own pieces (true/false or "
                                        "an option name)."),
                        "$ref": "#/$defs/flag",
                        "default": True,
                    },
                },
                "required": ["of", "supporters"],
                "additionalProperties": False,
            },
        },
    },
    functions=(
        Majority("majority", 'majority(VALUES, "TABLE") -> value',
                 ("The value that wins a count of values by majority with support: the relative majority, ties "
                  "broken by the support table named in quotes; none when no value wins."),
                 'majority(c.sign for c in board, "backing") == rock'),
    ),
    attach=read_support_tables,  # before the ruleset's functions: majority() names a table
    rank=60,
))
