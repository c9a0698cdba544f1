"""Components' own programs: ``perform(C, ATTRIBUTE)`` runs the program component C carries in a text attribute.

A game whose pieces each do something of their own when used (a deck-builder's
action cards, a card game where every card has its own effect) writes each
piece's effect as effect-language code in a text attribute, lists that
attribute under ``programs:``, and runs it from any program with
``perform(c, on_play)`` (``self`` is the component)::

    programs: [on_play]

    components:
      card:
        attributes: {cost: int, on_play: text}
        instances:
          - {id: a, cost: 3, on_play: "draws(current_role) += 1"}

    turn:
      - do:
          effect: |
            let c = choose(x in hand(current_role), optional = true, text = "play a card")
            perform(c, on_play)

Each component's code is compiled when the ruleset is loaded (a mistake is
reported at its own ``file:line:col``), like a contest's ``on_win`` and a
cast step's ``effect``.  A program may change the game, ``choose`` (the
effect that performs it pauses at the question) and perform other programs,
its own included; each run spends steps of the effect's budget by the size of
its code, and programs running each other more than :data:`MAX_DEPTH` deep
stop with an error naming them.  A component without code there does nothing;
``perform(none, ...)`` does nothing.  The log says whose program runs — "a
hidden component's" while it lies where some seat cannot see it (a hand).

>>> PerformFunction.__name__, ADDED_FUNCTIONS[0].name
('PerformFunction', 'perform')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare, withdraw_functions
from engine.blocks.card_code import CardCode, card_code
from engine.blocks.hooks import Running, ToldAsHidden, label
from engine.core.errors import EffectRuntimeError, did_you_mean
from engine.core.slices import HookTrail
from engine.lang import ast, budgets
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY_COMPONENT, BUILT_IN, EFFECT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView

KEY = "programs"
NAMES = "program attributes"  # vocabulary data: the attributes listed under `programs:`
TABLES = "program tables"  # vocabulary data: attribute -> its CardCode, filled once every program is compiled
MAX_DEPTH = 50  # programs running inside each other (and other hooks running around them) at most: no runaway recursion


def declared(b: "BuildContext") -> list[str]:
    """The text attributes ``programs:`` lists, each checked (an unknown or non-text one is reported and left out)."""
    spec = b.tree.get(KEY)
    if spec is None:
        return []
    if not isinstance(spec, list):
        b.error(b.pos(b.tree, KEY), "'programs' must list text attributes holding each component's program, like [on_play]")
        return []
    found: list[str] = []
    for i, item in enumerate(spec):
        name = str(item)
        type_name = b.game.attribute_types.get(name)
        if name in found:
            b.error(b.pos(spec, i), f"'{name}' is listed twice under 'programs'", "list each attribute once")
        elif name in BUILT_IN:
            b.error(b.pos(spec, i), f"'{name}' is {BUILT_IN[name]}, not a text attribute that can hold a program",
                    "declare one of your own: attributes: {on_play: text}")
        elif type_name != "text":
            known = [a for a, t in b.game.attribute_types.items() if t == "text"]
            hint = (f"'{name}' holds {type_name} values" if type_name else
                    did_you_mean(name, known) or "declare it on a component kind: attributes: {" + f"{name}: text" + "}")
            b.error(b.pos(spec, i), f"'{name}' must be a text attribute holding each component's program", hint)
        else:
            found.append(name)
    return found


def attach(b: "BuildContext") -> None:
    """Tell ``perform`` which attributes hold programs (their code is compiled next); a ruleset without any offers it not."""
    names = declared(b)
    if not names:
        if KEY in b.tree:
            withdraw_functions(b.game.vocab, BLOCK)
            b.game.vocab.elsewhere["perform"] = "perform() runs an attribute 'programs:' lists, and it lists none that holds code"
        return
    b.game.vocab.data[NAMES] = tuple(names)
    b.game.vocab.data[TABLES] = b.game.parts[KEY] = {}


def compile_programs(b: "BuildContext") -> None:
    """Compile every component's program in each listed attribute, with ``self`` bound (``perform`` reads them)."""
    tables: dict[str, CardCode] | None = b.game.vocab.data.get(TABLES)
    for name in b.game.vocab.data.get(NAMES, ()) if tables is not None else ():
        tables[name] = card_code(b, name, "", "", b.pos(b.tree, KEY), program=True, bind={"self": ANY_COMPONENT})


@dataclass(frozen=True)
class PerformFunction(Function):
    """``perform(C, ATTRIBUTE)``: run the program component C carries in ATTRIBUTE (one of ``programs:``), ``self`` = C."""

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = self.arity(call, scope, 2)
        names: tuple[str, ...] = scope.vocab.data[NAMES]  # only rulesets with programs offer perform (see attach)
        if scope.pure:
            scope.error(call.pos, "perform() changes the game, which a condition or score can't do")
        if len(args) != 2:
            return Compiled(EFFECT, lambda s, e: None)
        target = self.value(scope, args[0], ANY_COMPONENT, "component").fn
        attribute = args[1].name if isinstance(args[1], ast.Name) else ""
        if attribute not in names:
            scope.error(args[1].pos, f"perform() runs a program attribute 'programs:' lists ({', '.join(names)}), "
                                     f"not '{args[1].describe()}'", did_you_mean(attribute, names) if attribute else None)
            return Compiled(EFFECT, lambda s, e: None)
        tables: dict[str, CardCode] = scope.vocab.data[TABLES]
        pos = call.pos

        def perform(s: "StateView", e: list[Any]) -> None:
            cid = target(s, e)
            table = tables.get(attribute)  # compiled by now: code runs only once the ruleset is built
            if cid is None or table is None or table.fns[cid] is None:
                return
            trail = s.slices.get(HookTrail.block)
            if trail is not None and len(trail.running) >= MAX_DEPTH:
                involved = ", ".join(dict.fromkeys(trail.running))
                raise EffectRuntimeError(f"components' programs keep running each other (more than {MAX_DEPTH} deep): {involved}", pos)
            seen = _seen_by_all(s, cid)
            s.budget -= table.steps[cid]
            if s.budget < 0:
                named = s.game.piece_names[cid] if seen else "a hidden component"
                raise budgets.out_of_steps(s, pos, f"perform() of {named}'s {attribute}")
            s.note(lambda: f"the {attribute} of {label(s, cid) if seen else 'a hidden component'} takes effect")
            running = f"{s.game.piece_names[cid] if seen else 'a hidden component'}'s {attribute}"
            with Running(s, running), ToldAsHidden(s, cid, f"{attribute} of {{}}", pos):  # not its own line: which card
                table(s, cid, None)

        return Compiled(EFFECT, perform)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        if len(args) != 2:
            return self.name
        return f"do what {args[0].describe()}'s {args[1].describe()} says"


def _seen_by_all(s: "StateView", cid: int) -> bool:
    """Whether every seat sees component ``cid`` where it lies (the log, which every seat reads, may name it then).

    A card performed from a hidden hand is "a hidden component" in the log, as a move into a hidden zone is a count.
    """
    zone = s.zone_of[cid]
    return bool(zone == s.game.board_zone or s.game.zone_spec_of[zone].hidden == "none")


ADDED_FUNCTIONS = (
    PerformFunction("perform", "perform(COMPONENT, ATTRIBUTE)",
                    "Run the program a component carries in a text attribute listed under 'programs:' (self: the "
                    "component); nothing for none or a component without one.", "perform(c, on_play)"),
)


BLOCK = declare(Block(
    "programs",
    keys={
        KEY: {
            "description": ("Text attributes holding each component's own program (`self`: the component), compiled "
                            "when the ruleset is loaded and run by `perform(COMPONENT, ATTRIBUTE)` in any program: "
                            "a deck-builder's action cards, cards that each do something of their own."),
            "type": "array",
            "items": {"type": "string"},
            "examples": [["on_play"]],
        },
    },
    functions=ADDED_FUNCTIONS,
    attach=attach,
    compile=compile_programs,
))
