"""Tables: clash tables (who flips when two values meet) and support tables (majority with support).

::

    clash_tables:
      beats:
        of: sign                      # a declared type
        missing: nothing              # pairs not listed do nothing (without it, every pair must be listed)
        outcomes:
          rock: {scissors: neighbour, paper: placed}
    support_tables:
      backing:
        of: sign
        supporters: {rock: [paper, scissors]}   # strongest first
        neutral: []
        last_resort: true

Steps name a table (``clash: {table: beats}``) and get it from
:meth:`~engine.compiling.builder.Builder.clash_table` or
:meth:`~engine.compiling.builder.Builder.support_table`.

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "clash_tables: {beats: {of: sign, outcomes: {rock: {scissors: neighbour}}}}\\n"))
>>> b.game.types["sign"] = ("rock", "scissors")
>>> read_clash_tables(b)
>>> b.game.parts["clash"]["beats"].describe()
['rock against scissors: the neighbour flips']
>>> print(b.sink.items[0].message)
clash table 'beats' does not cover 3 pairs (rock/rock, scissors/rock, scissors/scissors)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.clash import OUTCOMES, ClashTable
from engine.blocks.majority import SupportTable
from engine.core.errors import SourcePos, did_you_mean

if TYPE_CHECKING:
    from engine.compiling.builder import Builder


def read_clash_tables(b: "Builder") -> None:
    """``clash_tables``: who flips for each pair of values (see :mod:`engine.blocks.clash`)."""
    g = b.game
    tables = b.tree.get("clash_tables") or {}
    clash = g.parts["clash"] = {}
    for name, spec in tables.items():
        b.unknown_keys(spec, ("of", "missing", "outcomes"), f"clash table '{name}'")
        type_name = str(spec.get("of", ""))
        values = g.types.get(type_name)
        if values is None:
            b.error(b.pos(spec, "of"), f"unknown type '{type_name}'", did_you_mean(type_name, g.types))
            continue
        missing = None
        if "missing" in spec:
            missing = OUTCOMES[b.choice(spec, "missing", tuple(OUTCOMES), "nothing")]
        outcomes: dict[tuple[str, str], tuple[bool, bool]] = {}
        rows = spec.get("outcomes") or {}
        for row, cols in rows.items():
            if row not in values:
                b.error(rows.key_pos.get(row), f"unknown {type_name} '{row}'", did_you_mean(row, values))
                continue
            for col, word in (cols or {}).items():
                if col not in values:
                    b.error(cols.key_pos.get(col), f"unknown {type_name} '{col}'", did_you_mean(col, values))
                    continue
                if word not in OUTCOMES:
                    b.error(cols.pos_of(col), f"unknown outcome '{word}'", did_you_mean(str(word), OUTCOMES) or f"use one of {', '.join(OUTCOMES)}")
                    continue
                outcomes[(row, col)] = OUTCOMES[word]
        if missing is None:
            gaps = [f"{a}/{b}" for a in values for b in values if (a, b) not in outcomes]
            if gaps:
                b.error(b.pos(spec, "outcomes"), f"clash table '{name}' does not cover {len(gaps)} pairs ({', '.join(gaps[:4])}{', ...' if len(gaps) > 4 else ''})",
                        "list them, or say what missing pairs mean with 'missing: nothing'")
        clash[name] = ClashTable(name, outcomes, missing)


def read_support_tables(b: "Builder") -> None:
    """``support_tables``: majority with support (see :mod:`engine.blocks.majority`)."""
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
