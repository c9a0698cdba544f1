"""Delayed actions: ``delay(TARGET [, TURNS])`` in an action's code, and the ``delayed`` step that resolves them.

An action with a ``later`` part (see :mod:`engine.blocks.numbered`) may put it
off: ``delay(t)`` remembers the actor, the action and ``t``; at the start of
the acting player's next turn (or the TURNS-th), the ``delayed`` step runs
``later`` with ``self`` (the actor) and ``target`` (``t``) bound — even if
the actor is out of play since (do as much as you can).  Nothing is delayed for
a ``none`` target.

::

    - delayed: {actions: actions}      # in the opening of the turn

>>> Delayed.keys
('if', 'actions', 'source')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.action_roll import rolled
from engine.blocks.block import Block, declare
from engine.blocks.choices import run_effect
from engine.blocks.hooks import label, local_slot, reach_of
from engine.blocks.numbered import LATER_LOCAL, action_table
from engine.blocks.steps import Step, step_kind
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Fn, Scope
from engine.lang.types import ANY_COMPONENT, EFFECT, INT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


class Delays(NamedTuple):
    """The delayed block's slice of the state: (role, turns left, actor, number, target) for each delayed action."""

    entries: tuple[tuple[Any, ...], ...] | None = None
    block = "delayed"
    saved = ("delayed",)


def _delays(s: "StateView") -> tuple[tuple[Any, ...], ...]:
    part = s.slices.get(Delays.block)
    return part.entries if part else ()


@step_kind
class Delayed(Step):
    """The ``delayed`` step: the ``later`` parts of actions put off with ``delay(TARGET)`` that are due this turn take
    effect.

    Built from, e.g., ``- delayed: {actions: actions, source: units(current_role)}``.
    """
    kind = "delayed"
    keys = ("if", "actions", "source")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        source = str(spec["source"]) if "source" in spec else None
        self.table = action_table(b, str(spec.get("actions", "")), source, True, b.pos(spec, "actions"))

    def enter(self, s: "StateView") -> bool:
        if not any(entry[0] == s.current_role for entry in _delays(s)):
            return False
        return not run_effect(s, self.index, "due", [])

    def effect(self, key: Any) -> Fn:
        return self._resolve

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        return reach_of(act.later for acts in self.table.by_component.values() for act in acts.values())

    def _resolve(self, s: "StateView", e: list[Any]) -> None:
        kept, due = [], []
        for role, turns, actor, number, target in _delays(s):
            if role != s.current_role:
                kept.append((role, turns, actor, number, target))
            elif turns > 1:
                kept.append((role, turns - 1, actor, number, target))
            else:
                due.append((actor, number, target))
        if kept:
            s.slices[Delays.block] = Delays(tuple(kept))
        else:
            del s.slices[Delays.block]
        for actor, number, target in due:
            action = self.table.of(actor)[number]
            s.note(lambda: f"{label(s, actor)}'s delayed {action.name} takes effect")
            assert action.later is not None
            action.later.run(s, actor, target)

    def describe(self) -> str:
        return "the delayed parts of actions due this turn take effect"


@dataclass(frozen=True)
class Delay(Function):
    """``delay(TARGET [, TURNS])``: run this action's ``later`` part at the start of the actor's next (or TURNS-th) turn."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 1, 2)
        if local_slot(scope, LATER_LOCAL) is None:
            scope.error(call.pos, "delay() puts off an action's 'later' part, and this code has none",
                        "give the action a 'later:' program (with self and target)")
        if not args:
            return Compiled(EFFECT, lambda s, e: None)
        target = self.value(scope, args[0], ANY_COMPONENT, "target").fn
        turns = self.value(scope, args[1], INT, "turns").fn if len(args) == 2 else (lambda s, e: 1)
        pos = call.pos

        def delay(s: Any, e: list[Any]) -> None:
            acting = rolled(s).acting
            if acting is None:
                raise EffectRuntimeError("delay() works only in an action being taken", pos)
            who = target(s, e)
            if who is None:
                return
            entry = (s.current_role, max(turns(s, e), 1), acting[0], acting[1], who)
            s.slices[Delays.block] = Delays(_delays(s) + (entry,))
            s.note(lambda: f"{label(s, acting[0])} will act on {label(s, who)} later")

        return Compiled(EFFECT, delay)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        when = (f"at the start of the acting player's turn, {args[1].describe()} of its turns from now" if len(args) == 2
                else "at the start of the acting player's next turn")
        return f"{when}, do the later part to {args[0].describe()}" if args else "delay"


ADDED_FUNCTIONS = (
    Delay("delay", "delay(TARGET [, TURNS])", "In an action with a 'later' part: run it on TARGET at the start of the "
          "acting player's next turn (or TURNS-th).", "delay(choose(c in crew(r)))"),
)


BLOCK = declare(Block(
    "delayed",
    slices=(Delays,),
    steps={
        "delayed": {
            "description": "The delayed parts of actions due this turn take effect.",
            "$ref": "#/$defs/delayedStep",
        },
    },
    defs={
        "delayedStep": {
            "description": ("`delayed: {actions: ATTRIBUTE, source: SOURCE}`: the `later` parts of actions put off "
                            "with `delay(TARGET)` that are due this turn (the acting player's next turn, or the "
                            "TURNS-th) take effect."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "actions": {
                    "description": "The `table` attribute of numbered actions (the same as the action roll's).",
                    "type": "string",
                },
                "source": {
                    "description": "The source of their damage (the same as the action roll's).",
                    "type": "string",
                },
            },
            "required": ["actions"],
            "additionalProperties": False,
        },
    },
    functions=ADDED_FUNCTIONS,
))
