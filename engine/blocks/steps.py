"""Turn steps: the building blocks a ruleset lists under ``turn:``.

A step is entered when the turn reaches it; it either finishes on its own
(``enter`` returns False) or waits for a decision of the current player,
offered by ``actions`` and answered by ``apply`` (which returns True once the
step is finished).  Every step may carry ``if: CONDITION``.  A step whose
effects may ask the player (``choose``) runs them with
:func:`engine.blocks.choices.run_effect`, names them for ``effect`` and finishes
its work in ``resume``.

New kinds register with :func:`step_kind` as their modules load; the ruleset names them:

>>> from engine.blocks.catalogue import all_blocks
>>> _ = all_blocks()  # loads every block's module
>>> "draw" in STEP_KINDS and "clash" in STEP_KINDS
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from engine.blocks.block import Block, declare
from engine.blocks.choices import run_effect
from engine.blocks.enumeration import Texts
from engine.core.actions import Action, ActionSpace, ListSpace, find_text
from engine.core.decisions import ChanceEvent
from engine.core.errors import IllegalActionError, SourcePos
from engine.core.slices import NO_CHANCE, Chance
from engine.lang.scope import Fn

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.blocks.refusals import Refusal
    from engine.core.decisions import Die
    from engine.core.yamlsource import Mapping

STEP_KINDS: dict[str, type["Step"]] = {}


def step_kind(cls: type["Step"]) -> type["Step"]:
    """Class decorator: register a step kind under ``cls.kind``."""
    STEP_KINDS[cls.kind] = cls
    return cls


class Step:
    """Base of every turn step."""

    kind: ClassVar[str] = ""
    keys: ClassVar[tuple[str, ...]] = ("if",)
    verbs: ClassVar[tuple[str, ...]] = ()  # first words of this step's actions that mean nothing in other steps
    sealed: ClassVar[bool] = False  # True when other seats see less of its decisions (see public_format)
    phase: str = ""  # the phase of the turn it belongs to (``{phase: opening, steps: [...]}``), "" for none
    refusal: "Refusal | None" = None  # its ``refuse_if_after`` (engine.blocks.refusals), set by the compiler

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        self.index = index
        self.pos = pos
        self.game = b.game  # the game whose turn it is a step of: an action of it pickles as that game and its index
        self.condition: Fn | None = None
        self.condition_text = ""
        self.env: list[Any] = [None]  # the condition's locals (pure code: one list is reused)
        self.direct: dict[Any, bool] = {}  # by effect key: whether it runs directly (filled by engine.blocks.choices.runs_directly)
        self.asking: dict[Any, bool] = {}  # by effect key: whether it asks before changing anything (choices.asks_first)
        if "if" in spec:
            compiled, slots = b.expression(spec["if"], "bool")
            self.condition = compiled.fn
            self.env = [None] * slots
            self.condition_text = b.describe(spec["if"])

    def enter(self, s: "StateView") -> bool:
        """Start the step; True when a decision is now pending."""
        return False

    def chances(self, s: "StateView") -> tuple["Die", ...]:
        """The dice this step rolls as it begins in ``s``: each die's results with their probabilities (none by default).

        In a game created with ``explicit_chance=True`` each becomes a CHANCE decision before the step begins,
        and the step then rolls the results chosen.  Example: a step rolling two d6 gives
        ``(fair_die(6), fair_die(6))`` (see :mod:`engine.core.decisions`).
        """
        return ()

    def chance_event(self, s: "StateView") -> "ChanceEvent | None":
        """What this step leaves to chance as it begins in ``s``, in a game created with ``explicit_chance=True``.

        By default the dice of :meth:`chances`, if any; a step that draws from a zone whose order no one knows
        says so here instead.
        """
        dice = self.chances(s)
        return ChanceEvent(self.index, dice) if dice else None

    def actions(self, s: "StateView") -> ActionSpace:
        """The choices this step offers in ``s`` (none by default: a step that only acts)."""
        return ListSpace(self, [])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        """Apply a decision; True when the step is finished."""
        return True

    def effect(self, key: Any) -> Fn:
        """The compiled effect ``key`` names, for :func:`engine.blocks.choices.run_effect` to run (and re-run)."""
        raise KeyError(f"step '{self.kind}' has no effect {key!r}")

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str] | None:
        """What the effect ``key`` may do besides computing, as compiled (see :func:`engine.blocks.choices.may_ask`).

        None (the default) when the step does not say: the effect may choose.  Example: a step that runs one
        program gives ``self.program.reach``; ``frozenset()`` says the effect only reads and computes.
        """
        return None

    def resume(self, s: "StateView") -> bool:
        """An effect this step ran has finished after a choice; True when the step is finished."""
        return True

    def situation(self, s: "StateView") -> list[str]:
        """What the player deciding this step should see besides the components (e.g. the dice just rolled)."""
        return []

    def format(self, args: tuple[Any, ...]) -> str:
        """The action with arguments ``args`` as text that ``State.apply`` reads back (``place A at 0,0``)."""
        return self.kind

    def action_texts(self, game: "GameView") -> Texts:
        """Every action text this step could ever offer in ``game`` (see :mod:`engine.blocks.enumeration`); none by default.

        Example: a step offering ``pick NAME`` lists ``pick`` and each component's name.
        """
        return Texts()

    def public_format(self, args: tuple[Any, ...]) -> str:
        """The decision as the other seats see it (a sealed choice hides what was chosen)."""
        return self.format(args)

    def ends_game_now(self, s: "StateView") -> bool:
        """End the game if this step, reached now, could only end it; True if it did.

        A decision offered before this step asks it first (see ``switch_role``): a
        turn that cannot go on ends the game before anyone decides anything.
        """
        return False

    def triggering(self, s: "StateView", cells: list[tuple[int, int]],
                   pieces: Sequence[tuple[int, int]]) -> dict[tuple[int, int], set[int]]:
        """For each of the empty ``cells``, which of ``pieces`` ((component, face) pairs) put there would make this
        step act (the indices; a cell left out: none; see ``place: only_triggering``).  All cells are asked at
        once, so that a step may share work between them."""
        return {}

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        """The components a decision plays, picks or casts (for per-content statistics)."""
        return ()

    def describe(self) -> str:
        """The step in English, for ``rulecraft explain``."""
        return self.kind

    def details(self) -> list[str]:
        """Further lines for ``rulecraft explain`` (e.g. what each component's code does)."""
        return []

    def describe_component(self, cid: int) -> list[str]:
        """What this step reads on one component, in English (its actions, its last action ...), for its card."""
        return []

    def describe_with_condition(self) -> str:
        """The step in English, with its ``only if`` condition and the refusal of an action, when it has them."""
        text = self.describe()
        text = f"{text} (only if {self.condition_text})" if self.condition_text else text
        return text if self.refusal is None else f"{text}; an action is refused by the position after it: {self.refusal.because}"

    def parse(self, s: "StateView", text: str) -> Action:
        """The legal action written as ``text`` (spacing and brackets are forgiven)."""
        legal = s.legal_actions()
        found = find_text(text, [str(action) for action in legal])
        if found is not None:
            return legal[found]
        raise IllegalActionError(self.why_illegal(s, text) or _not_legal(text, legal))

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        """A specific reason ``text`` is not legal, when the step can tell."""
        return None


def _not_legal(text: str, legal: ActionSpace) -> str:
    sample = [str(a) for a in legal[:6]]
    more = f" (and {len(legal) - 6} more)" if len(legal) > 6 else ""
    return f"'{text}' is not a legal action now; legal actions are: {', '.join(sample)}{more}"


@step_kind
class Draw(Step):
    """``draw: {from: deck, to: hand, count: 1}`` — move the top components of a zone.

    In a game created with ``explicit_chance=True``, drawing from a zone whose
    order no one knows (``hidden: order`` or ``all``) is a CHANCE decision:
    one outcome per name in the zone, as likely as its copies are many.
    """

    kind = "draw"
    keys = ("if", "from", "to", "count")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.source = b.zone_ref(spec, "from")
        self.target = b.zone_ref(spec, "to")
        self.count = b.int_setting(spec, "count", 1)
        drawn = b.game.zone_specs.get(str(spec.get("from", "")))
        if drawn is not None and drawn.refill:  # a chance node is made of what the pile holds: it cannot refill first
            own = "(current_role)" if drawn.per_role else ""
            b.error(b.pos(spec, "from"), f"the draw step does not refill '{drawn.name}' from '{drawn.refill}'",
                    f"draw with move() in a do step, which refills it: move(x in {drawn.name}{own}, TO, N)")

    def chance_event(self, s: "StateView") -> ChanceEvent | None:
        src = self.source(s)
        if s.game.zone_spec_of[src].hidden not in ("order", "all") or not s.zones[src]:
            return None
        names = s.game.component_names
        pool: dict[str, int] = {}
        for cid in s.zones[src]:
            pool[names[cid]] = pool.get(names[cid], 0) + 1
        draws = min(self.count, len(s.zones[src]))
        if len(pool) == 1:  # every outcome is the same: nothing is left to chance
            return None
        dst = self.target(s)
        hidden = s.game.zone_spec_of[dst].hidden != "none"
        role = s.game.zone_owner[dst]
        facing_away = s.game.zone_spec_of[dst].hidden == "owner"  # its owner is the one seat not to learn it: none is told
        owner = s.seat_of.get(role, 0) if hidden and role is not None and not facing_away else 0
        return ChanceEvent(self.index, pool=tuple(pool.items()), draws=draws, hidden=hidden, seer=owner)

    def enter(self, s: "StateView") -> bool:
        src = self.source(s)
        dst = self.target(s)
        for _ in range(self.count):
            if not s.zones[src]:
                break
            cid = self._next(s, src)
            s.move(cid, dst)
            if s.log is not None:
                hidden = s.game.zone_spec_of[dst].hidden != "none"
                s.log.append(f"{s.actor} draws {'a component' if hidden else s.game.piece_names[cid]}")  # copies by their name
        return False

    @staticmethod
    def _next(s: "StateView", src: int) -> int:
        """The component drawn next from zone ``src``: the first of the name chosen at a CHANCE node, else the top one."""
        chance = s.slices.get(Chance.block, NO_CHANCE)
        if not chance.drawn:
            return s.zones[src][0]
        name, rest = chance.drawn[0], chance.drawn[1:]
        s.slices[Chance.block] = chance._replace(drawn=rest or None)
        names = s.game.component_names
        return next(cid for cid in s.zones[src] if names[cid] == name)

    def describe(self) -> str:
        n = "a component" if self.count == 1 else f"{self.count} components"
        return f"draw {n} from the {self.source.name} into the {self.target.name}"


@step_kind
class Do(Step):
    """``do: {effect: PROGRAM}`` — run a program as a step of the turn (it may ``choose``).

    Example::

        - do: {effect: "gold(current_role) += 1"}
    """

    kind = "do"
    keys = ("if", "effect")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        if "effect" not in spec:
            b.error(pos, "step 'do' needs an 'effect': the program to run")
        self.program = b.program(spec.get("effect"), b.pos(spec, "effect"), nested=False)

    def enter(self, s: "StateView") -> bool:
        return not run_effect(s, self.index, "effect", [None] * self.program.slots)

    def effect(self, key: Any) -> Fn:
        return self.program.fn

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        return self.program.reach

    def describe(self) -> str:
        return self.program.description


BLOCK = declare(Block(
    "core_steps",
    steps={
        "draw": {
            "description": "Move the top components of a zone into another (e.g. deck to hand).",
            "$ref": "#/$defs/drawStep",
        },
        "do": {
            "description": "Run a program as a step of the turn; it may ask players with `choose(...)`.",
            "$ref": "#/$defs/doStep",
        },
    },
    defs={
        "drawStep": {
            "description": "`draw: {from: deck, to: hand, count: 1}`.",
            "type": "object",
            "properties": {
                "if": {
                    "description": "Do this step only when the condition holds, e.g. `player_count == 1`.",
                    "$ref": "#/$defs/condition",
                },
                "from": {"description": "The zone to draw from (its top components).", "$ref": "#/$defs/zoneName"},
                "to": {"description": "The zone the drawn components go to.", "$ref": "#/$defs/zoneName"},
                "count": {
                    "description": "How many components to draw (a number or an option name).",
                    "$ref": "#/$defs/count",
                    "default": 1,
                },
            },
            "required": ["from", "to"],
            "additionalProperties": False,
        },
        "doStep": {
            "description": ("`do: {effect: PROGRAM}`: run effect-language statements; `choose(...)` in them asks a "
                            "player, each answer an action."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "effect": {
                    "description": "The program to run, e.g. `gold(current_role) += 1`.",
                    "$ref": "#/$defs/program",
                },
            },
            "required": ["effect"],
            "additionalProperties": False,
        },
    },
))
