"""Zones kept per key: one zone for each value of a type, each component of a kind, or each of a range of whole
numbers; shared, or one for each role and key.

::

    zones:
      tray: {kind: pile, key: hue}                 # tray(X), tray(Y), ...
      column: {kind: pile, key: {from: 1, to: columns}}   # column(1) .. column(7), columns an option
      under: {kind: pile, key: tile}               # under(t): a pile under each tile
      row: {kind: pile, per: role, key: hue}       # row(r, X): each player's row of each hue

Code names one zone by its key, ``column(3)``, ``tray(c.hue)``, and one of a role's by the role and the key,
``row(r, X)``; the name alone, ``column``, is the list of them all, in the order of their keys (role by role),
and ``row(r)`` the list of the role's (``for z in row(r): ...``).  A key the zone has not stops the game saying
which keys it has.

>>> spec = KeyedZone("column", "column(KEY) -> zone", "", "column(1)", "1..7")
>>> spec.keys_text, spec.per_role
('1..7', False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.blocks.counters import part_type
from engine.blocks.seat_functions import role_type
from engine.blocks.state_functions import zone_of_key
from engine.core.errors import EffectRuntimeError
from engine.core.showtext import cut
from engine.lang import ast, codegen
from engine.lang.codegen import Code
from engine.lang.scope import Compiled, Scope
from engine.lang.functions import Function
from engine.lang.types import ANY, ZONE, ListOf, Type


@dataclass(frozen=True)
class KeyedZone(Function):
    """``column(3)``: the zone of one key of a zone declared with ``key:``; ``row(r, X)`` and ``row(r)`` of one kept
    per role too.  Made by the vocabulary for each one."""

    keys_text: str = ""  # what the keys are, for a message: ``1..7``, the type's or the component kind's name
    per_role: bool = False  # one zone per role and key: ``row(r, X)``
    names: tuple[str, ...] = ()  # keyed by a component kind: every component's name, for a message naming a key

    def key_type(self, scope: Scope) -> Type:
        """A value of the type the zone is keyed by, a component of its kind, or a whole number (anything, when its
        ``key:`` was refused)."""
        return part_type(self.keys_text, scope) if self.keys_text else ANY

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        if self.per_role:
            return self._of_role(call, scope)
        args = self.arity(call, scope, 1)
        compiled = self.value(scope, args[0], self.key_type(scope), "key") if args else Compiled(ANY, lambda s, e: None)
        name, keys = self.name, self.keys_text
        what = cut(args[0].describe(), 60) if args else "the key"
        none = (f"{name} has no key none: {what} is none here (a first() that found nothing, a choose() without an "
                f"option give none); its keys are {keys}")
        return zone_of_key(call, scope, compiled, name, none,
                           lambda k: f"{name} has no key {_said(k, self.names)}: its keys are {keys}")

    def _of_role(self, call: ast.Call, scope: Scope) -> Compiled:
        """``row(r, X)``, the zone of role r and key X; ``row(r)``, the list of role r's zones, in the order of their
        keys."""
        args = self.arity(call, scope, 1, 2)
        role = self.value(scope, args[0], role_type(scope), "role") if args else Compiled(ANY, lambda s, e: None)
        name, keys = self.name, self.keys_text
        who = cut(args[0].describe(), 60) if args else "the role"
        if len(args) != 2:
            return _zones_of_role(call, scope, role, name, who)
        key = self.value(scope, args[1], self.key_type(scope), "key")
        what = cut(args[1].describe(), 60)
        none = (f"there is no {name} of nothing: {who} or {what} is none here (a first() that found nothing, a "
                f"choose() without an option give none); its keys are {keys}")
        read_role, read_key = role.fn, key.fn

        def pair(s: Any, e: list[Any]) -> Any:
            r, k = read_role(s, e), read_key(s, e)
            return None if r is None or k is None else (r, k)

        (rc, rconsts), (kc, kconsts) = codegen.expr(role), codegen.expr(key)
        code = Code(f"(None if {rc} is None or {kc} is None else ({rc}, {kc}))", None, rconsts + kconsts) \
            if role.code is not None and key.code is not None and codegen.LOCAL.fullmatch(rc) and \
            codegen.LOCAL.fullmatch(kc) else None

        roles = {owner_key[0] for zone, owner_key in scope.vocab.data["zone_index"]
                 if zone == name and isinstance(owner_key, tuple)}

        def missing(k: Any) -> str:
            return f"{name} has no key {_said(k, self.names)}: its keys are {keys}" if k[0] in roles \
                else f"there is no {name} of {k[0]}"

        return zone_of_key(call, scope, Compiled(ANY, pair, code=code), name, none, missing)

    def describe(self, call: ast.Call) -> str:
        if self.per_role:
            if len(call.args) == 1:
                return f"every {self.name} of {call.args[0].describe()}"
            return f"the {self.name} of {call.args[0].describe()} and {call.args[1].describe()}" \
                if len(call.args) == 2 else super().describe(call)
        if len(call.args) != 1:
            return super().describe(call)
        key = call.args[0]
        return f"{self.name} {key.describe()}" if isinstance(key, (ast.Literal, ast.Name)) else \
            f"the {self.name} of {key.describe()}"


def _zones_of_role(call: ast.Call, scope: Scope, role: Compiled, name: str, who: str) -> Compiled:
    """``row(r)``: the zones of the role r's ``row``, in the order of their keys."""
    by_role: dict[Any, list[int]] = {}
    for (zone, owner_key), index in scope.vocab.data["zone_index"].items():
        if zone == name and isinstance(owner_key, tuple):
            by_role.setdefault(owner_key[0], []).append(index)
    read, pos = role.fn, call.pos

    def zones(s: Any, e: list[Any]) -> list[int]:
        r = read(s, e)
        try:
            return by_role[r]
        except KeyError:
            raise EffectRuntimeError(f"there is no {name} of nothing: {who} is none here" if r is None
                                     else f"there is no {name} of {r}", pos) from None

    return Compiled(ListOf(ZONE), zones)


def _said(key: Any, names: tuple[str, ...] = ()) -> str:
    """A key as a message names it: a role's pair by its key alone, a component (with ``names``) by its name.

    >>> _said(3), _said(("A", "X")), _said(1, ("T1", "T2"))
    ('3', 'X', 'T2')
    """
    key = key[1] if isinstance(key, tuple) else key
    return names[key] if names and type(key) is int and 0 <= key < len(names) else str(key)
