"""Numbered actions written on components: a ``table`` attribute compiled once for the steps that use it.

::

    actions:
      1: {name: Quick Cut, do: "damage(choose(foes(self)), 20)"}
      4:
        name: Storm Call
        break: true                          # a flag a die can require (see action_roll)
        text: Next turn, deal 40 damage to a foe.
        do: delay(choose(foes(self)))        # the `later` part runs at the start of the actor's next turn
        later: damage(target, 40)

Each entry has a ``name``, a ``do`` program (``self`` is the acting
component), optionally ``text`` (the rule in English), ``later`` (a program
with ``self`` and ``target``, run when a ``delayed`` step reaches it) and
flags (``break: true``).  The same shape, without a number, is used for one
action per component (a last action): ``{name: ..., do: ...}``.

>>> Action("Quick Cut", None, "deal 20 damage").describe()
'Quick Cut: deal 20 damage'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.blocks.hooks import Hook, compile_hook
from engine.blocks.meters import instance_tables
from engine.core.limits import whole_key
from engine.core.yamlsource import Mapping
from engine.lang.types import ANY_COMPONENT, BOOL, Component, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext

LATER_LOCAL = "#later"  # bound (never read) in the code of an action that has a `later` part: delay() checks it
ENTRY_KEYS = ("name", "text", "do", "later")


@dataclass(frozen=True)
class Action:
    """One action written on a component."""

    name: str
    do: Hook | None
    text: str = ""
    later: Hook | None = None
    flags: frozenset[str] = frozenset()

    def describe(self) -> str:
        """``Name: what it does`` — its text, else its code in English (and the delayed part)."""
        body = self.text or (self.do.words if self.do else "nothing")
        if not self.text and self.later is not None:
            body += f"; later: {self.later.words}"
        return f"{self.name}: {body}"


@dataclass
class ActionTable:
    """Every component's actions from one attribute: ``by_component[cid][number]`` (number 0 when unnumbered)."""

    attribute: str
    source: str | None = None  # the default source of the damage its code deals
    by_component: dict[int, dict[int, Action]] = field(default_factory=dict)

    def of(self, cid: int) -> dict[int, Action]:
        return self.by_component.get(cid, {})


def action_table(b: "BuildContext", attribute: str, source: str | None, numbered: bool, pos: Any) -> ActionTable:
    """Compile (once per attribute) the actions components list in a ``table`` attribute."""
    cache: dict[str, ActionTable] = b.game.vocab.data.setdefault("action tables", {})
    if attribute in cache:
        if cache[attribute].source != source:
            b.error(pos, f"the steps using '{attribute}' must agree on its 'source' ({cache[attribute].source} or {source}?)")
        return cache[attribute]
    table = cache[attribute] = ActionTable(attribute, source)
    if b.game.attribute_types.get(attribute) != "table":
        b.error(pos, f"'{attribute}' must be a table attribute holding each component's actions")
        return table
    for cids, raw, where in instance_tables(b, attribute):
        kind = b.game.component_kind[cids[0]] if cids else "component"
        actor = Component(kind)
        if numbered:
            if not isinstance(raw, Mapping):
                b.error(where, "numbered actions are a mapping from a number to an action, like {1: {name: Cut, do: ...}}")
                continue
            entries = {}
            for key, entry in raw.items():
                number = whole_key(key)
                if number is None or number < 1:
                    b.error(raw.key_pos.get(key, where), f"an action's number is 1, 2, ..., not '{key}'")
                    continue
                entries[number] = _action(b, entry, raw.pos_of(key), actor, source)
        else:
            entries = {0: _action(b, raw, where, actor, source)}
        for cid in cids:
            table.by_component[cid] = entries
    return table


def _action(b: "BuildContext", entry: Any, pos: Any, actor: Type, source: str | None) -> Action:
    if not isinstance(entry, Mapping) or "name" not in entry:
        b.error(pos, "an action is a mapping with a 'name' and a 'do' program, like {name: Cut, do: ...}")
        return Action("?", None)
    flags = set()
    for key, value in entry.items():
        if key not in ENTRY_KEYS:
            if isinstance(value, bool):
                if value:
                    flags.add(str(key))
            elif value is None and any(isinstance(entry.get(k), str) for k in ("do", "later")):
                b.error(entry.key_pos.get(key, pos), f"unknown setting '{key}' in an action",
                        "YAML ended the code at a comma inside {...}: put the code in quotes, do: \"...\"")
            elif isinstance(value, (str, int, float)):  # a flag's value written another way ('break: "true"')
                shown = f"the text {value!r}" if isinstance(value, str) else str(value)
                b.error(entry.pos_of(key), f"'{key}' in an action is a true/false flag, not {shown}",
                        f"write '{key}: true', or leave '{key}' out for false")
            else:
                b.error(entry.key_pos.get(key, pos), f"unknown setting '{key}' in an action",
                        f"an action has {', '.join(ENTRY_KEYS)} and true/false flags such as 'break: true'")
    bind: dict[str, Type] = {"self": actor}
    if "later" in entry:
        bind[LATER_LOCAL] = BOOL
    do = compile_hook(b, entry["do"], entry.pos_of("do"), bind, source) if "do" in entry else None
    later = None
    if "later" in entry:
        later = compile_hook(b, entry["later"], entry.pos_of("later"), {"self": actor, "target": ANY_COMPONENT}, source)
    return Action(str(entry["name"]), do, " ".join(str(entry.get("text") or "").split()), later, frozenset(flags))
