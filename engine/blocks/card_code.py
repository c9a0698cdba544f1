"""Code written on components: a text attribute holding effect-language code (a card's modifier, what it does
when played), compiled once per component that has it, each with its position in the ruleset's files.

>>> code = CardCode(fns=(None, lambda s, e: e[0] + e[1]), slots=2)
>>> code(None, 0, 5), code(None, 1, 5)      # component 0 has no code; component 1 adds the two it is given
(None, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.errors import SourcePos, did_you_mean
from engine.lang import ast, budgets
from engine.lang.fixed import fixed_with
from engine.lang.scope import Fn, Scope
from engine.lang.types import ANY_COMPONENT, INT, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView


@dataclass(frozen=True)
class CardCode:
    """A per-component piece of code read from a text attribute (None where the component has none)."""

    fns: tuple[Fn | None, ...]
    slots: int
    texts: tuple[tuple[str, str], ...] = ()  # (component, the code in English), once per listed component
    reaches: tuple[frozenset[str], ...] = ()  # by component: what its program may do besides computing (Scope.reach)
    fixed: bool = False  # every piece reads only self's and other's printed attributes: a pair gives one value forever
    steps: tuple[int, ...] = ()  # by component: the budget steps one run of its program spends (by its size, see budgets.weight)

    def __call__(self, s: "StateView", holder: int, other: int, *more: Any) -> Any:
        fn = self.fns[holder]
        if fn is None:
            return None
        env = [None] * self.slots
        env[0], env[1] = holder, other
        env[2:2 + len(more)] = more
        return fn(s, env)


def card_code(b: "BuildContext", attribute: str, want: str, other: str, pos: SourcePos | None, program: bool = False,
              bind: dict[str, Type] | None = None, nested: bool = True) -> CardCode:
    """Compile the code every component carries in ``attribute`` (``self`` and ``other`` bound; programs also ``margin``).

    ``bind`` names other locals instead (slots 0, 1, ... in its order); ``nested=False``: only the step that
    compiles the programs runs them (see ``Builder.compile_node``).
    """
    from engine.core.yamlsource import Mapping

    g = b.game
    if g.attribute_types.get(attribute) != "text":
        b.error(pos, f"'{attribute}' must be a text attribute holding effect-language code",
                did_you_mean(attribute, [a for a, t in g.attribute_types.items() if t == "text"]))
        return CardCode((None,) * len(g.component_names), 1)
    fns: list[Fn | None] = [None] * len(g.component_names)
    reaches: list[frozenset[str]] = [frozenset()] * len(g.component_names)
    steps: list[int] = [1] * len(g.component_names)
    texts: list[tuple[str, str]] = []
    slots = 2
    fixed = not program
    for kind, spec in (b.tree.get("components") or {}).items():
        for inst in (spec.get("instances") or []) if isinstance(spec, Mapping) else []:
            if not isinstance(inst, Mapping) or attribute not in inst:
                continue
            ident = str(inst.get("id", ""))
            cids = g.identical.get(ident) or ((g.component_ids[ident],) if ident in g.component_ids else ())
            if isinstance(inst[attribute], list):  # a per-face attribute: one value per face
                b.error(inst.pos_of(attribute), f"'{attribute}' holds effect-language code: one piece per component, "
                                                "not one per face", f"declare it '{attribute}: text', without per_face")
                continue
            if program:
                node = b.parse(inst[attribute], inst.pos_of(attribute), program=True)
                scope = Scope(g.vocab, b.sink)
                for name, type_ in (bind or {"self": ANY_COMPONENT, other: ANY_COMPONENT, "margin": INT}).items():
                    scope.give(name, type_)
                fn = b.compile_node(node, scope, nested).fn if node is not None else (lambda s, e: None)
                slots = max(slots, scope.slots)
                reach = frozenset(scope.reach)
                weight = budgets.weight(ast.nodes(node))
                texts.append((ident, node.describe() if node is not None else str(inst[attribute])))
            else:
                names = bind or {"self": ANY_COMPONENT, other: ANY_COMPONENT}
                reported = len(b.sink.items)
                compiled, n = b.expression(inst[attribute], want, bind=names, pos=inst.pos_of(attribute))
                fn = compiled.fn
                fixed = fixed and len(b.sink.items) == reported and _reads_only(b, inst[attribute], inst.pos_of(attribute), names)
                slots = max(slots, n)
                texts.append((ident, b.describe(inst[attribute])))
            for cid in cids:
                fns[cid] = fn
                if program:
                    reaches[cid], steps[cid] = reach, weight
    g.code_texts.setdefault(attribute, {}).update(texts)  # what the components' cards show instead of the code
    return CardCode(tuple(fns), slots, tuple(texts), tuple(reaches), fixed, tuple(steps))


def _reads_only(b: "BuildContext", text: Any, pos: SourcePos | None, names: dict[str, Type]) -> bool:
    """Whether the expression ``text`` (already compiled without error) reads only the locals ``names`` and constants."""
    return fixed_with(b.game.vocab, b.parse(text, pos), names)
