"""The ``advance`` step: markers standing on a line of components move one place along it.

The line is a zone: its components, in order, are the places.  How many
markers stand on each is a counter kept per component (``counters: {marks:
{per: card, min: 0}}``), so code reads ``marks(c) > 0`` ("c is marked") and
effects move markers with ``marks(c) -= 1`` and ``marks(following(c)) += 1``.
The step asks the current player which place to move a marker from; it goes
to the next component, or off the end of the line and out of play.  When the
counter is a meter with thresholds (``meters:``), each of the two changes
runs the thresholds it crosses, made ``by`` the current role::

    - advance: {along: line, markers: marks}

With ``off_end_when_forced: true`` (or an option holding it) a marker on the
last component may move off the end only when no marker stands anywhere
else ("if you must move it off the last one, remove it").

Text form: ``advance from NAME``.  Every move is a decision, even when there
is one place to move from (a turn always has one); with no marker left on the
line the step does nothing.

>>> Advance.keys
('if', 'along', 'markers', 'off_end_when_forced')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import Texts, names
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace
from engine.core.errors import SourcePos, did_you_mean

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


@step_kind
class Advance(Step):
    """The ``advance`` step: the player moves one marker (a unit of a per-component counter) from a component of a
    zone to the next one along it; past the last it leaves play.

    Built from, e.g., ``- advance: {along: track, markers: tokens}``.
    """
    kind = "advance"
    keys = ("if", "along", "markers", "off_end_when_forced")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.line = b.zone_ref(spec, "along")
        self.slots: list[int | None] = []  # see _slots
        self.forced = b.bool_setting(spec, "off_end_when_forced", False)
        name = str(spec.get("markers", ""))
        self.counter = b.game.counters.get(name)
        if self.counter is None or self.counter.per in ("role", "game") or self.counter.keys is not None:
            b.error(b.pos(spec, "markers"), f"'markers' must name a counter kept per component (how many markers stand on each), not '{name}'",
                    did_you_mean(name, [c for c, k in b.game.counters.items() if k.per not in ("role", "game") and k.keys is None]))

    def marked(self, s: "StateView") -> list[int]:
        """The components of the line with a marker on them, in line order: those a marker may move from (with
        ``off_end_when_forced``, the last one only when it is the only one).

        Example: markers on the first and the last of three components give ``[first, last]``, or ``[first]`` with
        ``off_end_when_forced``.
        """
        slots, values, line = self.slots or self._slots(), s.counters, s.zones[self.line(s)]
        found = [c for c in line if (i := slots[c]) is not None and values[i] > 0]
        if self.forced and len(found) > 1 and found[-1] == line[-1]:
            found.pop()
        return found

    def _slots(self) -> list[int | None]:
        """Each component's slot of the markers' counter in ``State.counters`` (None: it has none), worked out once.

        >>> from types import SimpleNamespace
        >>> step = SimpleNamespace(counter=SimpleNamespace(index_of={1: 7}.get), game=SimpleNamespace(component_names="abc"))
        >>> Advance._slots(step)
        [None, 7, None]
        """
        assert self.counter is not None
        index = self.counter.index_of
        self.slots = [index(c) for c in range(len(self.game.component_names))]
        return self.slots

    def enter(self, s: "StateView") -> bool:
        if self.counter is None:
            return False
        marked = self.marked(s)
        if marked:
            s.listed(ListSpace(self, [(c,) for c in marked]))  # the decision waits on these: not worked out again
        return bool(marked)

    def actions(self, s: "StateView") -> ActionSpace:
        return ListSpace(self, [(c,) for c in self.marked(s)])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        assert self.counter is not None
        (cid,) = args
        line, names, spec = s.zones[self.line(s)], self.game.piece_names, self.counter
        here = spec.index_of(cid)
        assert here is not None
        mover = s.current_role if spec.watch is not None else None  # who moved it: asked only where thresholds read it
        s.set_counter(spec, cid, here, s.counters[here] - 1, mover, None, self.pos)
        at = line.index(cid) + 1
        if at < len(line) and (there := spec.index_of(line[at])) is not None:
            s.set_counter(spec, line[at], there, s.counters[there] + 1, mover, None, self.pos)
            s.note(lambda: f"{s.current_role} moves one of the {spec.name} on {names[cid]} to {names[line[at]]}")
        else:
            s.note(lambda: f"{s.current_role} moves one of the {spec.name} on {names[cid]} off the end of the {self.line.name}")
        return True

    def action_texts(self, game: "GameView") -> Texts:
        """``advance from NAME`` for every component."""
        return Texts(tuple(f"advance from {name}" for name in names(game)))

    def format(self, args: tuple[Any, ...]) -> str:
        return f"advance from {self.game.piece_names[args[0]]}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        words = text.split()
        if words[:2] != ["advance", "from"] or len(words) != 3:
            return None
        cid = self.game.component_ids.get(words[2])
        line = s.zones[self.line(s)]
        if cid is None or cid not in line:
            return f"there is no '{words[2]}' in the {self.line.name}"
        name = self.counter.name if self.counter else "markers"
        if self.forced and self.counter is not None and cid == line[-1] and (i := self.counter.index_of(cid)) is not None \
                and s.counters[i] > 0:
            return (f"the {name} on {words[2]} may leave the end of the {self.line.name} only when no other "
                    f"{name} can move")
        return f"there are no {name} on {words[2]}"

    def describe(self) -> str:
        name = self.counter.name if self.counter else "markers"
        forced = f", and only when no other {name} can move" if self.forced else ""
        return (f"the player moves one of the {name} one place along the {self.line.name} "
                f"(from a component to the next; past the last one it leaves play{forced})")


BLOCK = declare(Block(
    "track",
    steps={
        "advance": {
            "description": ("The player moves one marker (a unit of a per-component counter) from a component of a "
                            "zone to the next one; past the last it leaves play."),
            "$ref": "#/$defs/advanceStep",
        },
    },
    defs={
        "advanceStep": {
            "description": "`advance: {along: ZONE, markers: COUNTER}`: decision `advance from NAME`.",
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "along": {
                    "description": "The zone whose components, in order, are the places markers move along.",
                    "$ref": "#/$defs/zoneName",
                    "examples": ["line"],
                },
                "markers": {
                    "description": "A counter kept per component of that zone: how many markers stand on each.",
                    "type": "string",
                    "examples": ["marks"],
                },
                "off_end_when_forced": {
                    "description": ("A marker on the last component may move off the end only when no marker "
                                    "stands anywhere else: true/false or an option name."),
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
            },
            "required": ["along", "markers"],
            "additionalProperties": False,
        },
    },
))
