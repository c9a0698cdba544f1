"""``show(x in COLLECTION [where CONDITION], to = ROLE)``: components shown to one role (or a list) only.

A player looks at another's hand, peeks at the top card of a deck or at a
piece lying face down: the seat playing ``ROLE`` sees each selected component
where it lies until it moves to another zone (or its zone is shuffled);
every other seat reads in the log only that it was shown something, never
what (:mod:`engine.core.shown` keeps what each role was shown)::

    turn:
      - do:
          effect: |
            let r = choose(x in roles where x != current_role and seated(x), text = "whose hand to look at")
            show(hand(r), to = current_role)          # log: "A is shown a card from hand of B"

``shown_to(c, r)`` asks whether ``c`` was shown to ``r`` (a scenario's expectation, say).

>>> SHOW.signature
'show(x in COLLECTION [where CONDITION], to = ROLE or [ROLE, ...])'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.blocks.choice_labels import unseen_words
from engine.blocks.seat_functions import role_type
from engine.core.facedown import back_label, hidden_from
from engine.core.information import UNSEEN, zone_view
from engine.core.shown import show, shown, shown_to
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection, unknown_options
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY_COMPONENT, BOOL, EFFECT, ListOf


@dataclass(frozen=True)
class ShowTo(Function):
    """``show(x in hand(r), to = current_role)``: the seat playing each role given sees the selected components."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args, to_kw = call.positional(), call.keywords().get("to")
        if not unknown_options(self, call, scope, 1, 1, known=("to",)) and len(args) != 1:
            scope.error(call.pos, f"show() takes 1 argument besides to, not {len(args)}", f"usage: {self.signature}")
        if scope.pure:
            scope.error(call.pos, "show() shows a component to a role, which a condition or score can't do",
                        "show it in a program (an effect, setup)")
        if to_kw is None:
            scope.error(call.pos, "show() needs to = ROLE: the role (or list of roles) whose seat sees the components",
                        f"usage: {self.signature}")
        if len(args) != 1 or to_kw is None:
            return Compiled(EFFECT, lambda s, e: None)
        items = as_selection(args[0]).compile_parts(scope).items
        to = to_kw.value.compile(scope)
        many = isinstance(to.type, ListOf)
        ast.expect(scope, to_kw.value, to, ListOf(role_type(scope)) if many else role_type(scope), "the role of show()")
        whom = to.fn

        def show_to(s: Any, e: list[Any]) -> None:
            given = whom(s, e)
            roles = tuple(r for r in (given if many else (given,)) if r is not None and s.seat_of.get(r))
            for c in items(s, e):
                unseen = tuple(r for r in roles if not_seen(s, c, s.seat_of[r]))
                if unseen:
                    show(s, c, unseen)
                    if s.step >= 0:
                        s.note(lambda c=c, unseen=unseen: f"{' and '.join(unseen)} {'is' if len(unseen) == 1 else 'are'} "
                                                          f"shown {shown_words(s, c)}")

        return Compiled(EFFECT, show_to)

    def describe(self, call: ast.Call) -> str:
        args, to_kw = call.positional(), call.keywords().get("to")
        if not args or to_kw is None:
            return "show"
        what = args[0].describe() if as_selection(args[0]).var == "_" else f"every {describe_selection(args[0])}"
        return f"show {what} to {to_kw.value.describe()}"


@dataclass(frozen=True)
class ShownTo(Function):
    """``shown_to(c, r)``: whether component ``c`` was shown to role ``r`` (``show``) and has not moved away since."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        if len(args) != 2:
            return Compiled(BOOL, lambda s, e: None)
        item = self.value(scope, args[0], ANY_COMPONENT, "component").fn
        role = self.value(scope, args[1], role_type(scope), "role").fn

        def seen(s: Any, e: list[Any]) -> bool | None:
            c, r = item(s, e), role(s, e)
            if c is None or r is None:
                return None
            return shown(s) is not None and r in shown(s).roles_of(c)  # type: ignore[union-attr]

        return Compiled(BOOL, seen)

    def describe(self, call: ast.Call) -> str:
        return f"{call.args[0].describe()} was shown to {call.args[1].describe()}" if len(call.args) == 2 else "shown to"


def not_seen(s: Any, cid: int, seat: int) -> bool:
    """Whether ``seat`` does not see component ``cid`` where it lies now: in a zone it sees only as a count, or face
    down on the board (and it was not shown to it already)."""
    if shown_to(s, cid, seat):
        return False
    if s.cell_of[cid] is not None:
        return hidden_from(s, cid, seat)
    return zone_view(s, s.zone_of[cid], seat) == UNSEEN


def shown_words(s: Any, cid: int) -> str:
    """What every seat reads of a component shown to some: ``a card from hand of B``, ``face-down tile at (1,2)``."""
    cell = s.cell_of[cid]
    if cell is not None:
        return f"{back_label(s, cid)} at {s.game.cell_text(cell, brackets=True)}"
    kind = s.game.component_kind[cid]
    return unseen_words(s, cid) or f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind} from {s.game.zone_names[s.zone_of[cid]]}"


SHOW = ShowTo("show", "show(x in COLLECTION [where CONDITION], to = ROLE or [ROLE, ...])",
              "The seat playing ROLE (each role of a list) sees each selected component where it lies — in a zone it "
              "sees only as a count, or face down on the board — until it moves to another zone or its zone is "
              "shuffled; the other seats read only that it was shown something.",
              "show(hand(r), to = current_role)")
SHOWN_TO = ShownTo("shown_to", "shown_to(COMPONENT, ROLE) -> bool",
                   "Whether the component was shown to ROLE (show) and has not moved to another zone since.",
                   "shown_to(first(hand(r)), current_role)")
