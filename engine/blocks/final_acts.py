"""The ``final_acts`` step: components that are done for take their last action, then leave play.

::

    - final_acts:
        from: crew                   # a per-role zone: every role's is looked at
        when: hits(self) == 0        # who is done for (a condition on self)
        act: last_words              # a table attribute: {name: ..., do: PROGRAM} (see engine.blocks.numbered)
        to: wrecks                   # where each goes afterwards: its owner's zone of this name
        source: last_words           # where the damage and statuses its code deals come from

Each eligible component — the current player's first, then the other roles'
in turn order — runs its act with ``self`` bound, while the decision belongs
to its owner (a pending decision on the state's stack, see
:mod:`engine.core.decisions`, so ``choose`` asks the owner), then moves to ``to``.
Components made eligible by a final act take theirs in the same step.  The
act runs even when nothing else could (nothing prevents it).

>>> FinalActs.keys
('if', 'from', 'when', 'act', 'to', 'source')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.choices import run_effect
from engine.blocks.hooks import ToldAsHidden, label, reach_of
from engine.blocks.numbered import action_table
from engine.blocks.steps import Step, step_kind
from engine.core.decisions import Decision
from engine.core.errors import SourcePos
from engine.core.facedown import told_name
from engine.lang.scope import Fn
from engine.lang.types import ANY_COMPONENT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


@step_kind
class FinalActs(Step):
    """The ``final_acts`` step: every component of a ``from`` zone for which ``when`` holds takes its final act (its
    owner decides its choices), then goes to its owner's ``to`` zone.

    Built from, e.g., ``- final_acts: {from: units, when: strength(self) <= 0, act: last_words, to: out}``.
    """
    kind = "final_acts"
    keys = ("if", "from", "when", "act", "to", "source")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        g = self.game = b.game
        self.zones = {}
        for key in ("from", "to"):
            name = str(spec.get(key, ""))
            b.zone_ref(spec, key)
            if name in g.zone_specs and not g.zone_specs[name].per_role:
                b.error(b.pos(spec, key), f"'{key}' must be a per-role zone ('per: role')")
            self.zones[key] = name
        compiled, self.slots_when = b.expression(spec.get("when", "false"), "bool", bind={"self": ANY_COMPONENT}, pos=b.pos(spec, "when"))
        self.when = compiled.fn
        self.when_text = b.describe(spec.get("when", "false"))
        source = str(spec["source"]) if "source" in spec else None
        self.table = action_table(b, str(spec.get("act", "")), source, False, b.pos(spec, "act"))
        self._from: dict[Any, int] = {}  # see _from_zones

    def _eligible(self, s: "StateView", done: set[int]) -> int | None:
        """The next component to take its final act (the current role's first), or None."""
        when, zones, order = self.when, s.zones, s.order
        env: list[Any] = [None] * self.slots_when  # a condition: one list serves every component
        of_role = self._from or self._from_zones()
        for role in order[s.turn:] + order[:s.turn]:
            for cid in zones[of_role[role]]:
                env[0] = cid
                if cid not in done and when(s, env):
                    return cid
        return None

    def _from_zones(self) -> dict[Any, int]:
        """Each role's ``from`` zone, as an index of ``State.zones`` (worked out once)."""
        zone = self.zones["from"]
        self._from = {role: i for (name, role), i in self.game.zone_index.items() if name == zone}
        return self._from

    def enter(self, s: "StateView") -> bool:
        if self._eligible(s, set()) is None:
            return False
        return not run_effect(s, self.index, "acts", [])

    def effect(self, key: Any) -> Fn:
        return self._run

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        return reach_of(act.do for acts in self.table.by_component.values() for act in acts.values())

    def _run(self, s: "StateView", e: list[Any]) -> None:
        done: set[int] = set()
        while (cid := self._eligible(s, done)) is not None:
            done.add(cid)
            owner = self.game.zone_owner[s.zone_of[cid]]
            act = self.table.of(cid).get(0)
            if act is not None and act.do is not None:
                s.note(lambda: f"{label(s, cid)}'s final act: {act.name}" if told_name(s, cid) is None  # else the act's
                       else f"{label(s, cid)} takes its final act")  # name would say which component it is
                lent = owner in s.order
                if lent:
                    s.decisions += (Decision(self.index, str(owner)),)
                with ToldAsHidden(s, cid, "final act of {}", self.pos):
                    act.do.run(s, cid)
                if lent:
                    s.decisions = s.decisions[:-1]
            s.move(cid, self.game.zone_index[(self.zones["to"], owner)])
            s.note(lambda: f"{label(s, cid)} is out of the game")

    def describe_component(self, cid: int) -> list[str]:
        act = self.table.of(cid).get(0)
        return [f"final act — {act.describe()}"] if act is not None else []

    def describe(self) -> str:
        return (f"every component of a {self.zones['from']} for which {self.when_text} takes its final act "
                f"(its owner decides), then goes to its owner's {self.zones['to']}")


BLOCK = declare(Block(
    "final_acts",
    steps={
        "final_acts": {
            "description": "Components that are done for take their final act, then leave play.",
            "$ref": "#/$defs/finalActsStep",
        },
    },
    defs={
        "finalActsStep": {
            "description": ("`final_acts: {from: crew, when: CONDITION, act: ATTRIBUTE, to: gone, source: "
                            "SOURCE}`: every component of a `from` zone for which `when` holds takes its final act "
                            "(its owner decides its choices), then goes to its owner's `to` zone."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {"description": "A per-role zone: every role's is looked at.", "$ref": "#/$defs/zoneName"},
                "when": {
                    "description": "Who takes a final act now: a condition on `self`.",
                    "$ref": "#/$defs/condition",
                    "examples": ["stamina(self) == 0"],
                },
                "act": {
                    "description": ("The `table` attribute holding each component's final act: `{name: ..., do: "
                                    "PROGRAM}`."),
                    "type": "string",
                },
                "to": {
                    "description": "A per-role zone: where each goes afterwards (its owner's).",
                    "$ref": "#/$defs/zoneName",
                },
                "source": {
                    "description": "The source of the damage and statuses its code deals.",
                    "type": "string",
                    "examples": ["last_gasp"],
                },
            },
            "required": ["from", "when", "to"],
            "additionalProperties": False,
        },
    },
))
