"""Zones kept per key: one zone for each value of a type, or for each of a range of whole numbers.

::

    zones:
      tray: {kind: pile, key: hue}                 # tray(X), tray(Y), ...
      column: {kind: pile, key: {from: 1, to: columns}}   # column(1) .. column(7), columns an option

Code names one zone by its key, ``column(3)``, ``tray(c.hue)``; the
name alone, ``column``, is the list of them all, in the order of their keys
(``for z in column: ...``).  A key the zone has not stops the game saying
which keys it has.

>>> spec = KeyedZone("column", "column(KEY) -> zone", "", "column(1)", "1..7")
>>> spec.keys_text
'1..7'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.showtext import cut
from engine.blocks.state_functions import zone_of_key
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, INT, Enum, Type


@dataclass(frozen=True)
class KeyedZone(Function):
    """``column(3)``: the zone of one key of a zone declared with ``key:``.  Made by the vocabulary for each one."""

    keys_text: str = ""  # what the keys are, for a message: ``1..7``, or the type's name

    def key_type(self, scope: Scope) -> Type:
        """A value of the type the zone is keyed by, or a whole number (anything, when its ``key:`` was refused)."""
        if not self.keys_text:
            return ANY
        return Enum(self.keys_text) if self.keys_text in scope.vocab.data.get("types", {}) else INT

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1)
        compiled = self.value(scope, args[0], self.key_type(scope), "key") if args else Compiled(ANY, lambda s, e: None)
        name, keys = self.name, self.keys_text
        what = cut(args[0].describe(), 60) if args else "the key"
        none = (f"{name} has no key none: {what} is none here (a first() that found nothing, a choose() without an "
                f"option give none); its keys are {keys}")
        return zone_of_key(call, scope, compiled, name, none, lambda k: f"{name} has no key {k}: its keys are {keys}")

    def describe(self, call: ast.Call) -> str:
        if len(call.args) != 1:
            return super().describe(call)
        key = call.args[0]
        return f"{self.name} {key.describe()}" if isinstance(key, (ast.Literal, ast.Name)) else \
            f"the {self.name} of {key.describe()}"
