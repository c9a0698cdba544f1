"""The ``cast`` step: use components whose pattern of values lies on the board, one decision at a time.

Settings (all from YAML)::

    - cast:
        from: market                # the zone whose components may be cast
        when: marks(self) > 0       # a condition on `self`: whether it may be cast now
        requires: requires          # a text attribute: a further condition each component may carry
        pattern: pattern            # a list attribute: the values to find on the board, in order
        shape: shape                # a text attribute naming one of `shapes:` (none: a straight line)
        reads: hue                  # the attribute of the board's pieces those values are compared with
        pay: gold                   # a per-role counter the caster pays from
        cost: cost                  # an int attribute: the price of casting
        recolour: 1                 # the price of reading one piece as another value (0: never)
        remove_to: pool             # where the matched pieces go
        replace: first(q in pool where q.hue == p.hue and q.size == previous(p.size))
                                    # what goes where each removed piece p was (none: nothing)
        effect: effect              # a text attribute: each component's program (`self`, `matched`)
        then: PROGRAM               # run after the effect, for every cast (`self`, `matched`)
        rule: rule                  # a text attribute: the rule in English, for explain

A turn's casting is a loop of decisions: ``cast NAME`` (a component that may
be cast now, has a match the player can afford and was not cast this turn) or
``stop``; then ``match 3,4 4,4 5,4 with 4,4 as A`` (where its values lie,
and which pieces are read as another value).  Casting pays ``cost`` plus
``recolour`` per piece read as another value (the thresholds of a ``pay``
meter run, made ``by`` the caster), moves the matched pieces to
``remove_to``, puts on each emptied place what ``replace`` names (lowest in a
stack first), runs the component's ``effect`` and then ``then``.  Both may
``choose``.

>>> Cast.keys[:4]
('if', 'from', 'when', 'requires')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.block import Block, declare
from engine.blocks.choices import run_effect
from engine.blocks.card_code import card_code
from engine.blocks.enumeration import LARGEST, Texts, names, pattern_places, places_text
from engine.blocks.pattern_finding import Board, find, lies_on
from engine.blocks.patterns import shape_named
from engine.blocks.shapes import EMPTY, Match, Shape, empty_problem, values_text
from engine.blocks.pointsboard import NO_SHAPES, POINTS
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace
from engine.core.errors import SourcePos, did_you_mean
from engine.core.information import listed
from engine.core.slice_shapes import ComponentId
from engine.lang.scope import Fn
from engine.lang.types import ANY_COMPONENT, LIST_OF, Component, ListOf

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping

STOP = ("stop",)
MATCH = "match"


class Casts(NamedTuple):
    """The casting block's slice of the state."""

    done: tuple[ComponentId, ...] | None = None  # the components cast this turn
    chosen: ComponentId | None = None  # the component chosen, waiting for its match
    running: tuple[Any, ...] | None = None  # (component, the pieces it matched, the index of the effect running) while they run
    block = "casting"
    saved = ("cast this turn", "casting", "cast effects")


NO_CASTS = Casts()


def _casts(s: "StateView") -> Casts:
    return s.slices.get(Casts.block, NO_CASTS)


PHASES = ("effect", "then")


def without_reading(text: str) -> str:
    """A match's text without which pieces it reads as other values: ``match 3,4 4,4 with 4,4 as A`` -> ``match 3,4 4,4``.

    >>> without_reading("match 3,4 4,4 with 4,4 as A"), without_reading("stop")
    ('match 3,4 4,4', 'stop')
    """
    return text.split(" with ", 1)[0] if text.startswith(f"{MATCH} ") else text


@step_kind
class Cast(Step):
    """The ``cast`` step: the player casts components of a zone, one after another, each whose pattern of values lies
    on the board: which one and where (``match ...``), paying for pieces read as other values; the matched pieces are
    removed and replaced, then the component's effect runs.

    Built from, e.g., ``- cast: {from: hand, when: charges(self) > 0, pattern: pattern}``.
    """
    kind = "cast"
    verbs = ("cast", MATCH)
    keys = ("if", "from", "when", "requires", "pattern", "shape", "reads", "pay", "cost", "recolour", "remove_to",
            "replace", "effect", "then", "rule")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        g = self.game = b.game
        n = len(g.component_names)
        self.source = b.zone_ref(spec, "from", offered=True)
        me = {"self": ANY_COMPONENT}
        when, self.when_slots = b.expression(spec.get("when", "true"), "bool", bind=me, pos=b.pos(spec, "when"))
        self.when, self.when_text = when.fn, b.describe(spec.get("when", "true"))
        none = (None,) * n
        self.requires = card_code(b, str(spec["requires"]), "bool", "", b.pos(spec, "requires"), bind=me) if "requires" in spec else None
        self.pattern_name = str(spec.get("pattern", ""))
        declared = g.attribute_types.get(self.pattern_name, "")
        self.value_type = declared.removeprefix(LIST_OF) if declared.startswith(LIST_OF) else ""
        self.values, self.shapes = self._patterns(b, spec)
        self.read = self._reads(b, spec)
        self.pay = self._counter(b, spec)
        self.costs: list[Any] = self._attribute(b, spec, "cost", "int") if "cost" in spec else list(none)
        self.price = b.int_setting(spec, "recolour", 0)
        if self.price and self.pay is None:
            b.error(b.pos(spec, "recolour"), "reading pieces as other values costs something: say who pays with 'pay: COUNTER'")
        self.remove_to = b.zone_ref(spec, "remove_to") if "remove_to" in spec else None
        if self.remove_to is None:
            b.error(pos, "step 'cast' needs 'remove_to': the zone the matched pieces go to")
        self.replace: Fn | None = None
        self.replace_slots, self.replace_text = 1, ""
        if "replace" in spec:
            compiled, self.replace_slots = b.expression(spec["replace"], None, bind={"p": ANY_COMPONENT}, pos=b.pos(spec, "replace"))
            if not isinstance(compiled.type, Component) and compiled.type.name not in ("any", "none"):
                b.error(b.pos(spec, "replace"), f"'replace' must give a component (or none), like first(q in pool where ...), not {compiled.type}")
            self.replace, self.replace_text = compiled.fn, b.describe(spec["replace"])
        bind = {"self": ANY_COMPONENT, "matched": ListOf(ANY_COMPONENT)}
        self.effects = (card_code(b, str(spec["effect"]), "", "", b.pos(spec, "effect"), program=True, bind=bind, nested=False)
                        if "effect" in spec else None)
        self.then = b.program(spec["then"], b.pos(spec, "then"), bind=bind, nested=False) if "then" in spec else None
        self.rules: list[Any] = self._attribute(b, spec, "rule", "text") if "rule" in spec else list(none)
        self._recent: Board | None = None  # the board read last: the next one reads its windows if nothing changed
        self.windowed = any(shape is not None and shape.windowed for shape in self.shapes)  # whether a search reads windows
        self.read_attributes = {str(spec[key]) for key in ("requires", "pattern", "shape", "cost", "effect", "rule") if key in spec}

    # -- reading the settings

    def _attribute(self, b: "BuildContext", spec: "Mapping", key: str, type_name: str) -> list[Any]:
        """Per component, the value of the attribute ``spec[key]`` names (of type ``type_name``)."""
        g, name = self.game, str(spec[key])
        if g.attribute_types.get(name) != type_name:
            b.error(b.pos(spec, key), f"'{key}' must name an attribute of type {type_name}, not '{name}'",
                    did_you_mean(name, [a for a, t in g.attribute_types.items() if t == type_name]))
            return [None] * len(g.component_names)
        return list(g.attributes[name][0])

    def _patterns(self, b: "BuildContext", spec: "Mapping") -> tuple[list[tuple[Any, ...] | None], list[Shape | None]]:
        """Per component: its pattern's values (None: it has no pattern) and its shape."""
        from engine.core.yamlsource import Mapping

        g, name = self.game, self.pattern_name
        n = len(g.component_names)
        if not self.value_type:
            b.error(b.pos(spec, "pattern"), f"'pattern' must name a list attribute (declared with 'list: true'), not '{name}'",
                    did_you_mean(name, [a for a, t in g.attribute_types.items() if t.startswith(LIST_OF)]))
            return [None] * n, [None] * n
        shape_attr = str(spec["shape"]) if "shape" in spec else None
        if shape_attr is not None and g.attribute_types.get(shape_attr) != "text":
            b.error(b.pos(spec, "shape"), f"'shape' must name a text attribute holding a shape's name, not '{shape_attr}'")
            shape_attr = None
        shapes = g.parts["patterns"]
        values: list[tuple[Any, ...] | None] = [None] * n
        kinds: list[Shape | None] = [None] * n
        for spec_of_kind in (b.tree.get("components") or {}).values():
            for inst in (spec_of_kind.get("instances") or []) if isinstance(spec_of_kind, Mapping) else []:
                if not isinstance(inst, Mapping) or inst.get(name) is None:
                    continue
                ident = str(inst.get("id", ""))
                if not isinstance(inst[name], list):  # reported with the component's values
                    continue
                pattern = tuple(str(v) for v in inst[name])
                if not pattern:
                    b.error(inst.pos_of(name), f"{ident}'s '{name}' must list at least one value")
                    continue
                shape = shapes["line"]
                if shape.geometry is POINTS:
                    b.error(inst.pos_of(name), f"{ident}'s '{name}' is a pattern of cells; {NO_SHAPES}")
                    return [None] * n, [None] * n
                if shape_attr is not None and inst.get(shape_attr) is not None:
                    shape = shape_named(b, shapes, inst[shape_attr], inst.pos_of(shape_attr))
                if shape.size(len(pattern)) != len(pattern):
                    b.error(inst.pos_of(name), f"{ident}'s '{name}' lists {len(pattern)} values, but shape '{shape.name}' has {shape.size(0)} cells")
                elif empty_problem(shape, pattern):
                    b.error(inst.pos_of(name), f"{ident}'s '{name}' {empty_problem(shape, pattern)}")
                for cid in g.identical.get(ident) or ((g.component_ids[ident],) if ident in g.component_ids else ()):
                    values[cid], kinds[cid] = pattern, shape
        return values, kinds

    def _reads(self, b: "BuildContext", spec: "Mapping") -> list[list[Any]]:
        """The table ``[face][component]`` of the attribute board pieces are read by."""
        g, name = self.game, str(spec.get("reads", ""))
        if name not in g.attributes:
            b.error(b.pos(spec, "reads"), f"unknown attribute '{name}'", did_you_mean(name, g.attributes))
            return [[None] * len(g.component_names)]
        if self.value_type and self.value_type != g.attribute_types[name]:
            b.error(b.pos(spec, "reads"), f"'{name}' holds {g.attribute_types[name]} values, but the patterns list {self.value_type} values")
        return g.attributes[name]

    def _counter(self, b: "BuildContext", spec: "Mapping") -> Any:
        if "pay" not in spec:
            return None
        name = str(spec["pay"])
        counter = self.game.counters.get(name)
        if counter is None or counter.per != "role" or counter.keys is not None:
            b.error(b.pos(spec, "pay"), f"'pay' must name a counter kept per role (without a key), not '{name}'",
                    did_you_mean(name, [c for c, k in self.game.counters.items() if k.per == "role" and k.keys is None]))
            return None
        return counter

    # -- what may be cast

    def board(self, s: "StateView") -> Board:
        """The board as the patterns read it."""
        table, face = self.read, s.face
        board = Board(s, lambda c: table[face[c]][c], table=table, paired=True)
        if self.windowed:  # only windows are worth sharing: a walk reads the pieces themselves
            board = self._recent = board.share(self._recent)
        return board

    def funds(self, s: "StateView") -> int:
        """What the current role may pay (unlimited when nothing is paid)."""
        if self.pay is None:
            return 1 << 30
        return s.counters[self.pay.index_of(s.current_role)]

    def budget(self, s: "StateView", cid: int) -> int:
        """How many pieces the caster could afford to read as other values for ``cid`` (-1: not even its cost)."""
        left = self.funds(s) - (self.costs[cid] or 0)
        if left < 0:
            return -1
        values = self.values[cid]
        return min(left // self.price, len(values)) if self.price and values else 0

    def reason(self, s: "StateView", cid: int) -> str | None:
        """Why ``cid`` may not be cast now (None: it may)."""
        g = self.game
        name = g.piece_names[cid]
        check = self._check(s, cid, self.source(s))
        if isinstance(check, int):
            shape = self.shapes[cid]
            assert shape is not None
            if lies_on(self.board(s), shape, self.values[cid], check):
                return None
            extra = f", even reading {check} of its pieces as other values" if check else ""
            return f"{name}'s {self.pattern_name} ({values_text(self.values[cid])}) is not on the board{extra}"
        if check == "pattern":
            return f"{name} has no {self.pattern_name}"
        if check == "zone":
            return f"{name} is not in the {self.source.name}"
        if check == "done":
            return f"{name} was already cast this turn"
        if check == "when":
            return f"{name} can't be cast now: it needs {self.when_text}"
        if check == "requires":
            return f"{name} can't be cast now: it needs {dict(self.requires.texts).get(name, '')}"
        return f"{name} costs {self.costs[cid]} {self.pay.name}; {s.current_role} has {self.funds(s)}"

    def _check(self, s: "StateView", cid: int, zone: int) -> str | int:
        """What stops ``cid`` being cast now, before looking at the board (``pattern``, ``zone``, ``done``, ``when``,
        ``requires`` or ``cost``); else how many of its pieces the caster could read as other values."""
        if self.values[cid] is None:
            return "pattern"
        if s.zone_of[cid] != zone:
            return "zone"
        if cid in (_casts(s).done or ()):
            return "done"
        env = [None] * self.when_slots
        env[0] = cid
        if not self.when(s, env):
            return "when"
        if self.requires is not None and self.requires.fns[cid] is not None:
            env = [None] * self.requires.slots
            env[0] = cid
            if not self.requires.fns[cid](s, env):
                return "requires"
        budget = self.budget(s, cid)
        return "cost" if budget < 0 else budget

    def castable(self, s: "StateView") -> list[int]:
        """The components the current player may cast now, in their zone's order (the board is read once, if at all).

        :meth:`_check` for each, with what is the same for all read once: what was cast this turn, the funds.
        """
        values, done = self.values, _casts(s).done or ()
        when, requires = self.when, self.requires
        costs, price, funds = self.costs, self.price, None
        board, found = None, []
        env = [None] * self.when_slots  # one for every component: compiled code binds a local before reading it
        for cid in listed(s, self.source(s)):
            pattern = values[cid]
            if pattern is None or cid in done:
                continue
            env[0] = cid
            if not when(s, env):
                continue
            if requires is not None and (need := requires.fns[cid]) is not None:
                env = [None] * requires.slots
                env[0] = cid
                if not need(s, env):
                    continue
            if funds is None:
                funds = self.funds(s)
            left = funds - (costs[cid] or 0)
            if left < 0:
                continue
            board = board or self.board(s)
            if lies_on(board, self.shapes[cid], pattern, min(left // price, len(pattern)) if price else 0):  # type: ignore[arg-type]
                found.append(cid)
        return found

    def matches(self, s: "StateView", cid: int) -> list[Match]:
        """The places on the board where component ``cid``'s shape lies, within what may be spent on casting it."""
        shape = self.shapes[cid]
        assert shape is not None
        return find(self.board(s), shape, self.values[cid], self.budget(s, cid))

    # -- decisions

    def enter(self, s: "StateView") -> bool:
        casts = _casts(s)
        s.slices[Casts.block] = Casts((), casts.chosen, casts.running)
        return self._offer(s)

    def _offer(self, s: "StateView") -> bool:
        """Offer the next cast, or finish (False) when there is nothing left to cast."""
        space = self.actions(s)
        if s.outcome is not None or len(space) <= 1:  # only "stop"
            return False
        s._actions = space
        return True

    def actions(self, s: "StateView") -> ActionSpace:
        cid = _casts(s).chosen
        if cid is not None:
            return ListSpace(self, [(MATCH, cid, m.places, m.recolour) for m in self.matches(s, cid)])
        return ListSpace(self, [STOP, *((c,) for c in self.castable(s))])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        if args == STOP:
            s.note(lambda: f"{s.current_role} stops casting")
            return True
        if len(args) == 1:
            casts = _casts(s)
            s.slices[Casts.block] = Casts(casts.done, args[0], casts.running)
            return False
        _, cid, places, recolour = args
        casts = _casts(s)
        s.slices[Casts.block] = Casts(casts.done, None, casts.running)
        values = self.values[cid]
        taken = places if EMPTY not in values else tuple(p for p, want in zip(places, values) if want != EMPTY)
        pieces = tuple(s.stack(cell)[depth] for cell, depth in taken)
        self._pay(s, cid, len(recolour))
        s.note(lambda: f"{s.current_role} casts {self.game.piece_names[cid]} on {Match(places, recolour).text(values, self.game.cell_text)}")
        self._remove(s, taken, pieces)
        return self._run(s, cid, pieces, 0)

    def _pay(self, s: "StateView", cid: int, recoloured: int) -> None:
        price = (self.costs[cid] or 0) + recoloured * self.price
        if price and self.pay is not None:
            caster = s.current_role
            i = self.pay.index_of(caster)
            s.set_counter(self.pay, caster, i, s.counters[i] - price, caster, None, self.pos)

    def _remove(self, s: "StateView", places: tuple[Any, ...], pieces: tuple[int, ...]) -> None:
        """Matched pieces to ``remove_to``; then what ``replace`` names goes where each was, lowest in a stack first."""
        assert self.remove_to is not None
        zone, names = self.remove_to(s), self.game.piece_names
        for p in pieces:
            s.move(p, zone)
        for (cell, _), p in sorted(zip(places, pieces), key=lambda pair: -pair[0][1]):
            env = [None] * self.replace_slots
            env[0] = p
            q = self.replace(s, env) if self.replace is not None else None
            if q is not None:
                s.place(q, cell)
            s.note(lambda: f"{names[p]} at {s.game.cell_text(cell, brackets=True)} "
                           + (f"is replaced by {names[q]}" if q is not None else "is not replaced"))

    def _run(self, s: "StateView", cid: int, pieces: tuple[int, ...], start: int) -> bool:
        """Run the cast's effects from ``PHASES[start]`` on; True when the step is finished, False while a decision waits."""
        for i in range(start, len(PHASES)):
            code = self._code(PHASES[i], cid)
            if code is None:
                continue
            casts = _casts(s)
            s.slices[Casts.block] = Casts(casts.done, casts.chosen, (cid, pieces, i))
            env = [None] * self.code_slots
            env[0], env[1] = cid, pieces
            if not run_effect(s, self.index, (PHASES[i], cid), env):
                return False
        casts = _casts(s)
        s.slices[Casts.block] = Casts((*(casts.done or ()), cid), casts.chosen, None)
        return not self._offer(s)

    @property
    def code_slots(self) -> int:
        """The locals the cast's programs need (``self`` and ``matched`` first)."""
        return max(self.effects.slots if self.effects else 2, self.then.slots if self.then else 2)

    def _code(self, phase: str, cid: int) -> Fn | None:
        """The compiled ``effect`` of ``cid`` or the step's ``then`` (None: there is none)."""
        if phase == "effect":
            return self.effects.fns[cid] if self.effects is not None else None
        return self.then.fn if self.then is not None else None

    def effect(self, key: Any) -> Fn:
        code = self._code(key[0], key[1])
        assert code is not None
        return code

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        phase, cid = key
        if phase == "effect":
            return self.effects.reaches[cid] if self.effects is not None else frozenset()
        return self.then.reach if self.then is not None else frozenset()

    def resume(self, s: "StateView") -> bool:
        cid, pieces, i = _casts(s).running
        return self._run(s, cid, pieces, i + 1)

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``stop``, ``cast NAME`` for every component with a pattern, and ``match PLACES`` for every place
        sequence its shape could lie on; which pieces a match reads as other values follows from the board and
        the component being cast, so ``match ... with ...`` is listed without it (:func:`without_reading`)."""
        castable = names(game, (cid for cid, values in enumerate(self.values) if values is not None))
        shapes = {(shape.name, len(values)): shape for shape, values in zip(self.shapes, self.values) if shape and values}
        matches: dict[str, None] = {}
        for (_, length), shape in shapes.items():
            for places in pattern_places(game, shape, length):
                matches[f"{MATCH} {places_text(game, places)}"] = None
                if len(matches) > LARGEST:
                    return Texts(("stop", *(f"cast {name}" for name in castable)), unlisted=(
                        f"where a {self.pattern_name} lies ('{MATCH} X,Y ...'): more than {LARGEST:,} sequences of places"))
        return Texts(("stop", *(f"cast {name}" for name in castable), *matches), canonical=without_reading,
                     shortened=f"which pieces a match reads as other values ('with X,Y as V': the board and the {self.pattern_name} decide it)")

    def format(self, args: tuple[Any, ...]) -> str:
        if args == STOP:
            return "stop"
        if len(args) == 1:
            return f"cast {self.game.piece_names[args[0]]}"
        _, cid, places, recolour = args
        return f"{MATCH} {Match(places, recolour).text(self.values[cid], self.game.cell_text)}"

    def used_components(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        return (args[0],) if len(args) == 1 and args != STOP else ()

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        words = text.split()
        casting = _casts(s).chosen
        if casting is not None:
            name = self.game.piece_names[casting]
            if words[:1] != [MATCH]:
                return f"say where {name}'s {self.pattern_name} lies first ('{MATCH} X,Y ...')"
            found = [str(a) for a in self.actions(s)[:3]]
            return f"'{text}' is not where {name}'s {self.pattern_name} ({values_text(self.values[casting])}) lies; it lies at: {'; '.join(found)}"
        verb = words[0].lower() if words else ""
        if verb == MATCH:
            return "say which to cast first ('cast NAME')"
        if verb != "cast":
            return None
        if len(words) > 3 and words[2].lower() == "on":  # the log's form, 'X casts NAME on PLACES', as one action
            return (f"a cast is two actions: 'cast {words[1]}', then '{MATCH} {' '.join(words[3:])}' (the log writes "
                    f"them together: '... casts {words[1]} on {' '.join(words[3:])}')")
        if len(words) != 2:
            return f"write one name after 'cast' ('cast NAME'), not '{text.strip()}'"
        castable = {self.game.piece_names[c]: c for c, values in enumerate(self.values) if values is not None}
        named = {name.lower(): cid for name, cid in castable.items()}
        cid = self.game.component_ids.get(words[1], named.get(words[1].lower()))
        if cid is None:
            hint = did_you_mean(words[1], castable)
            return f"there is no '{words[1]}' to cast" + (f" ({hint})" if hint else "")
        return self.reason(s, cid) or (
            f"{self.game.piece_names[cid]} could be cast, but not as '{text.strip()}': write 'cast {self.game.piece_names[cid]}'")

    def describe(self) -> str:
        pay = f", paying {self.pay.name}" if self.pay is not None else ""
        recolour = (f"; each piece read as another value costs {self.price} {self.pay.name} more"
                    if self.price and self.pay is not None else "")
        replace = f"; on each emptied place goes {self.replace_text} (p: the piece removed)" if self.replace else ""
        then = f"; after every cast: {self.then.description}" if self.then is not None else ""
        return (f"the player may cast, one after the other, components of the {self.source.name} whose "
                f"{self.pattern_name} lies on the board (when {self.when_text}; not the same one twice in a turn){pay}{recolour}; "
                f"the matched pieces go to the {self.remove_to.name if self.remove_to else '?'}{replace}; "
                f"then the component's effect{then}")

    def _others(self, cid: int) -> str:
        """The component's other numbers and words the step does not read itself (a reward the ``then`` reads ...)."""
        g = self.game
        shown = [f"{attr} {value}" for attr, type_name in g.attribute_types.items()
                 if attr not in self.read_attributes and type_name in ("int", "text", "bool")
                 and attr not in g.code_texts and (value := g.attributes[attr][0][cid]) is not None]
        return f"; {', '.join(shown)}" if shown else ""

    def details(self) -> list[str]:
        g, lines = self.game, []
        effects = dict(self.effects.texts) if self.effects is not None else {}
        needs = dict(self.requires.texts) if self.requires is not None else {}
        for cid, values in enumerate(self.values):
            name = g.piece_names[cid]
            if values is None or (cid > 0 and g.piece_names[cid - 1] == name):
                continue
            shape = self.shapes[cid]
            assert shape is not None
            cost = f"; costs {self.costs[cid]}" if self.costs[cid] is not None else ""
            need = f"; needs {needs[name]}" if name in needs else ""
            where = shape.describe() if shape.name == "line" else f"in the shape '{shape.name}': {shape.describe()}"
            lines.append(f"{name}: {values_text(values)} {where}{cost}{need}{self._others(cid)}")
            if self.rules[cid]:
                lines.append(f"  rule: {' '.join(str(self.rules[cid]).split())}")
            if name in effects:
                lines.append(f"  effect: {effects[name]}")
        return lines


BLOCK = declare(Block(
    "casting",
    slices=(Casts,),
    steps={
        "cast": {
            "description": ("The player casts, one after the other, components whose pattern of values lies on the "
                            "board: which one, where (`match ...`), paying for pieces read as other values; the "
                            "matched pieces are removed and replaced, then the component's effect runs."),
            "$ref": "#/$defs/castStep",
        },
    },
    defs={
        "castStep": {
            "description": ("`cast: {from: ZONE, when: CONDITION, pattern: ATTRIBUTE, reads: ATTRIBUTE, remove_to: "
                            "ZONE, ...}`: decisions `cast NAME` / `stop`, then `match 3,4 4,4 5,4 with 4,4 as cyan`."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "from": {
                    "description": "The zone whose components may be cast.",
                    "$ref": "#/$defs/zoneName",
                    "examples": ["line"],
                },
                "when": {
                    "description": "A condition on `self`, the component: whether it may be cast now.",
                    "$ref": "#/$defs/condition",
                    "default": "true",
                    "examples": ["marks(self) > 0"],
                },
                "requires": {
                    "description": ("A text attribute in which a component may carry a further condition on `self` "
                                    "(e.g. a piece in hand to pay with)."),
                    "type": "string",
                    "examples": ["requires"],
                },
                "pattern": {
                    "description": ("A list attribute (`list: true`) holding the values to find on the board, in "
                                    "order."),
                    "type": "string",
                    "examples": ["pattern"],
                },
                "shape": {
                    "description": ("A text attribute naming one of `shapes:` (a component without one uses a "
                                    "straight line, read from either end)."),
                    "type": "string",
                    "examples": ["shape"],
                },
                "reads": {
                    "description": ("The attribute of the board's pieces the pattern's values are compared with "
                                    "(the top piece of a stack unless the shape reaches deeper)."),
                    "type": "string",
                    "examples": ["colour"],
                },
                "pay": {
                    "description": "A counter kept per role that the caster pays `cost` and re-readings from.",
                    "type": "string",
                    "examples": ["gold"],
                },
                "cost": {
                    "description": "An int attribute: what casting the component costs (none: nothing).",
                    "type": "string",
                    "examples": ["cost"],
                },
                "recolour": {
                    "description": ("What reading one piece as another value costs, for this cast only (0: pieces "
                                    "are never read as other values). A number or an option name."),
                    "$ref": "#/$defs/count",
                    "default": 0,
                    "examples": [1, "swap_price"],
                },
                "remove_to": {
                    "description": "The zone the matched pieces go to.",
                    "$ref": "#/$defs/zoneName",
                    "examples": ["pool"],
                },
                "replace": {
                    "description": ("What goes where each removed piece `p` was: an expression giving a component, "
                                    "or none for nothing (lowest in a stack first, after all are removed)."),
                    "$ref": "#/$defs/expression",
                    "examples": ["first(q in pool where q.hue == p.hue and q.size == previous(p.size))"],
                },
                "effect": {
                    "description": ("A text attribute holding each component's program, run after the pieces are "
                                    "replaced (`self`: the component; `matched`: the pieces removed); it may "
                                    "`choose`."),
                    "type": "string",
                    "examples": ["effect"],
                },
                "then": {
                    "description": "A program run after every cast's effect (`self`, `matched`), e.g. the reward.",
                    "$ref": "#/$defs/program",
                },
                "rule": {
                    "description": ("A text attribute holding each component's rule in English, shown by `rulecraft "
                                    "explain`."),
                    "type": "string",
                    "examples": ["rule"],
                },
            },
            "required": ["from", "pattern", "reads", "remove_to"],
            "additionalProperties": False,
        },
    },
))
