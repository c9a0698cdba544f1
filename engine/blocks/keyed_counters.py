"""Keyed counters: one value per owner and key, a counter declared with ``key:``.

A track per player per resource, a marker per player per column, a score per
category: the keys come from a declared list (a type's values, a component
kind's components, or the numbers ``FROM..TO``), so how many values there
are is known when the ruleset loads::

    counters:
      stock: {per: role, key: hue, min: 0}   # stock(r, X)
      climbed: {per: role, key: 2..12}          # climbed(r, 7)
      height: {key: 2..12}                      # height(7): one per key for the whole game

Code reads ``stock(r, X)`` and changes it with ``=``, ``+=``, ``-=`` as any
counter; the keys are listed by the type's plural (``hues``), the kind's
(``columns``) or ``numbers(2, 12)``.  The owners of a keyed counter's values
are ``(owner, key)`` pairs (``(None, key)`` for a game-wide one):

>>> from engine.blocks.counters import CounterSpec
>>> spec = CounterSpec("stock", "role", 0, (("A", "X"), ("A", "Y")), keys=("X", "Y"), key_of="hue")
>>> spec.index_of(("A", "Y"))
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from engine.blocks.counters import CELL_KEYS, GAME, CounterSpec, key_label, key_parts, no_counter, owner_type, part_type, writer
from engine.core.errors import EffectRuntimeError
from engine.lang import ast, statements
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import INT

Index = Callable[[Any, list[Any]], int]


def keys_text(s: Any, spec: CounterSpec) -> str:
    """The keys of a counter, for a message: ``2..12``, or the type's or kind's values (the first few)."""
    if spec.keys is None or ".." in spec.key_of or len(key_parts(spec)) > 1:
        return spec.key_of
    if spec.key_of == CELL_KEYS:
        return f"the {len(spec.keys)} cells of the board"
    labels = [key_label(s.game, spec, k) for k in spec.keys[:6]]
    return f"{spec.key_of} ({', '.join(labels)}{', ...' if len(spec.keys) > 6 else ''})"


@dataclass(frozen=True)
class KeyedCounterOf(Function):
    """``stock(r, X)``, ``height(7)``: the value of a keyed counter.  Made by the vocabulary for each one."""

    spec: CounterSpec | None = None
    bare: ClassVar[bool] = False

    @property
    def form(self) -> str:
        """How a call is written, for a message: ``stock(ROLE, KEY)``."""
        return self.signature.split(" -> ")[0]

    @property
    def kept(self) -> str:
        """Whose values it keeps, for a message: ``kept per role and key``."""
        return "kept per key" if self.spec is None or self.spec.per == GAME else f"kept per {self.spec.per} and key"

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        index = self.compile_index(call, scope)
        return Compiled(INT, lambda s, e: s.counters[index(s, e)])

    def compile_index(self, call: ast.Call, scope: Scope) -> Index:
        """A closure giving the slot of the value ``call`` names (an error at run time for an owner or key without one)."""
        spec = self.spec
        assert spec is not None
        game_wide, parts = spec.per == GAME, key_parts(spec)
        wanted = len(parts) + (0 if game_wide else 1)
        args = self.arity(call, scope, wanted)
        if len(args) != wanted:
            return lambda s, e: 0  # reported by arity
        keys = [self.value(scope, node, part_type(part, scope), "key" if len(parts) == 1 else ("row key", "column key")[i]).fn
                for i, (node, part) in enumerate(zip(args[wanted - len(parts):], parts))]
        owner = (lambda s, e: None) if game_wide else self.value(scope, args[0], owner_type(spec, scope), "owner").fn
        slots, pos = spec._index, call.pos
        if len(keys) == 1:
            key = keys[0]
        else:
            row, column = keys

            def key(s: Any, e: list[Any]) -> Any:  # the pair of keys a counter kept per two is kept by
                return row(s, e), column(s, e)

        def index(s: Any, e: list[Any]) -> int:
            who, k = owner(s, e), key(s, e)
            i = slots.get((who, k))
            if i is None:
                raise _no_value(s, spec, who, k, pos)
            return i

        return index

    def compile_write(self, target: ast.Node, scope: Scope) -> statements.Writer:
        """``stock(r, X) += 2``: the closure that changes the named value."""
        assert isinstance(target, ast.Call) and self.spec is not None
        return writer(self.spec, self.compile_index(target, scope))

    def describe(self, call: ast.Call) -> str:
        keys = len(key_parts(self.spec)) if self.spec is not None else 1
        if self.spec is not None and self.spec.per != GAME and len(call.args) == keys + 1:
            return f"the {self.name} of {call.args[0].describe()} for {', '.join(a.describe() for a in call.args[1:])}"
        if len(call.args) == keys:
            return f"the {self.name} for {', '.join(a.describe() for a in call.args)}"
        return super().describe(call)


def _no_value(s: Any, spec: CounterSpec, who: Any, key: Any, pos: Any) -> EffectRuntimeError:
    """The error for a keyed counter read or written for an owner or a key it has not."""
    if spec.per != GAME and spec.index_of((who, spec.keys[0] if spec.keys else None)) is None:
        return no_counter(s, spec, who, pos)
    if isinstance(key, tuple) and len(key_parts(spec)) > 1:  # of two keys: each as it is named, or as it is
        shown = "(" + ", ".join("none" if k is None else repr(k) if not isinstance(k, (int, str)) else str(k) for k in key) + ")"
    else:
        shown = "none" if key is None else key_label(s.game, spec, key) if isinstance(key, (int, str)) else repr(key)
    return EffectRuntimeError(f"{spec.name} has no key {shown}: its keys are {keys_text(s, spec)}", pos)
