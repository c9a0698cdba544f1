"""Statuses: named conditions on components, defined in YAML, with hooks in the effect language.

::

    statuses:
      Sting:
        kind: major                  # any word: minor, major, unique, aura ... (a label explain and play show)
        negative: true               # dispel() removes negative statuses (default true)
        lasts: 1                     # removed at the end of the bearer's owner's 1st turn after it was given
                                     # (default: until something removes it)
        age: true                    # count its owner's turns for status_age() even without 'lasts'
        only: self.race == Beast     # who may receive it (a condition on self)
        text: Before the action roll, roll a die ...
        on:
          before_roll: |             # a hook a `statuses` step runs (any name), or on_act / on_damage / on_heal / on_defeat / on_end
            roll d6:
              odd: remove(self, Sting)
              even: damage(self, 10, status)

The status names are the values of a type ``status``.  Code gives, removes
and reads them with ``give(TARGET, STATUS [, SOURCE])``, ``remove(TARGET,
STATUS)``, ``has(TARGET, STATUS)`` and ``dispel(TARGET)``; ``status_age(TARGET,
STATUS)`` reads how many of its owner's turns have begun since the target got
it (a status that ``lasts`` a number of turns, or says ``age: true``).  A status does not
stack: giving one a component already has does nothing.  It can't be given
to a component whose meter is at the bottom (0), nor while its marker rests on a
tile that nullifies it (unless the source is one the meter calls
``unstoppable``).  Hooks run with ``self`` (the bearer), ``attacker``,
``source`` and ``amount`` (the damage that triggered ``on_damage`` or
``on_defeat``, the healing that triggered ``on_heal``) bound:

* ``on_act``: when the bearer tries to act; ``cancel()`` makes the action fail;
* ``on_damage``: when the bearer takes damage (and its meter is not brought to 0);
* ``on_heal``: when the bearer is healed (its marker moved up: healing at the top runs nothing);
* ``on_defeat``: when damage brings the bearer's meter to 0, before its statuses end
  (``attacker`` and ``source`` say who and what defeated it);
* ``on_end``: when the status ends on the bearer, however (its time up, ``remove``,
  ``dispel``, a nullifying tile, the bearer's defeat), just after it is gone;
* any other name: when a ``statuses: {hook: NAME}`` turn step runs it, for
  the components of the role whose turn it is.

A status needs no hooks (``Marked: {kind: minor}``, or just ``Marked:``):
code gives it, reads it with ``has`` and removes it.

Each status is stored as one number per component in the state's counters:
0 when absent, else 1 plus the number of its owner's turns begun since it was
given when its turns are counted (it ``lasts`` a number of them, or says ``age: true``); 1 else.

>>> Status("Sting", 0, lasts=1).expired(3), Status("Sting", 0, lasts=1).expired(1)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.block import Block, Drawing, declare, withdraw_functions
from engine.blocks.choices import run_effect
from engine.blocks.counters import CounterSpec, too_many_values
from engine.blocks.hooks import Hook, Running, ToldAsHidden, compile_hook, label, reach_of, source_of, unseen
from engine.blocks.steps import Step, step_kind
from engine.core.errors import EffectRuntimeError, SourcePos, did_you_mean
from engine.core.yamlsource import Mapping
from engine.lang import ast
from engine.lang.functions import Function
from engine.lang.scope import Compiled, Fn, Scope
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, EFFECT, INT, Enum, ListOf, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping as MappingT

TYPE_NAME = "status"
ENGINE_HOOKS = ("on_act", "on_damage", "on_heal", "on_defeat", "on_end")


class Attempt(NamedTuple):
    """The statuses block's slice of the state: while an action is attempted, whether a status cancelled it."""

    failed: bool | None = None
    block = "statuses"
    saved = ("attempt",)


KEYS = ("kind", "negative", "lasts", "age", "only", "text", "on")

_POSITIVE_KINDS = frozenset({"positive", "buff", "boon", "helpful", "beneficial", "good"})
_NEGATIVE_KINDS = frozenset({"negative", "debuff", "harmful", "bad", "curse"})


def _kind_against_negative(kind: str, negative: bool) -> tuple[str, str] | None:
    """The message and hint for a ``kind`` word that says the opposite of ``negative`` (what dispel() reads), or None.

    >>> _kind_against_negative("positive", True)[0]
    "kind 'positive' does not make the status positive: dispel() removes it"
    >>> _kind_against_negative("major", True), _kind_against_negative("negative", True)
    (None, None)
    """
    label = "'kind' is only a label that explain and play show"
    if kind.lower() in _POSITIVE_KINDS and negative:
        return (f"kind '{kind}' does not make the status positive: dispel() removes it",
                f"{label}; write 'negative: false' for a status that dispel() leaves")
    if kind.lower() in _NEGATIVE_KINDS and not negative:
        return (f"kind '{kind}' says negative, but 'negative: false' makes dispel() leave it",
                f"{label}; leave 'negative: false' out for a status that dispel() removes")
    return None


@dataclass
class Status:
    """One declared status."""

    name: str
    index: int
    kind: str = ""
    negative: bool = True
    lasts: int | None = None  # None: until removed; N: the owner's turns it lasts
    aged: bool = False  # ``age: true``: its owner's turns are counted (for status_age) though it may not last a number
    text: str = ""
    only: tuple[Fn, int] | None = None  # a condition on self (its closure and slot count)
    only_text: str = ""
    hooks: dict[str, Hook] = field(default_factory=dict)
    spec: CounterSpec | None = None

    @property
    def counted(self) -> bool:
        """Whether a ``statuses: {turn: start}`` step counts its owner's turns on it (so ``status_age`` can read them)."""
        return self.lasts is not None or self.aged

    def expired(self, value: int) -> bool:
        """Whether a stored value (1 + the owner's turns begun since it was given) has run out its time."""
        return self.lasts is not None and value - 1 >= self.lasts

    def may_receive(self, s: "StateView", cid: int) -> bool:
        """Whether component ``cid`` may be given this status (its ``only`` condition, if any)."""
        if self.only is None:
            return True
        fn, slots = self.only
        env: list[Any] = [None] * slots
        env[0] = cid
        return bool(fn(s, env))

    def describe(self) -> str:
        """The status in English: kind, duration, who may receive it, and its text or hooks."""
        how_long = "until removed" if self.lasts is None else f"for {self.lasts} of its owner's turns"
        head = f"{self.name} ({', '.join(filter(None, [self.kind, 'negative' if self.negative else 'positive']))}; lasts {how_long}"
        head += "; its age counted" if self.aged and self.lasts is None else ""
        head += f"; only when {self.only_text}" if self.only_text else ""
        body = self.text or "; ".join(f"{hook}: {h.words}" for hook, h in self.hooks.items())
        return f"{head})" + (f": {body}" if body else "")


@dataclass
class StatusBook:
    """Every declared status, in order."""

    statuses: list[Status] = field(default_factory=list)
    by_name: dict[str, Status] = field(default_factory=dict)
    step_hooks: set[str] = field(default_factory=set)  # hook names some `statuses` step runs
    step_turns: set[str] = field(default_factory=set)  # "start" / "end": some `statuses` step counts / ends turns
    hooked: dict[str, tuple[tuple[Hook, int, str], ...]] = field(default_factory=dict, repr=False, compare=False)

    def with_hook(self, hook: str) -> tuple[tuple[Hook, int, str], ...]:
        """The statuses that have ``hook``, in order: each one's code, where its values start in ``State.counters``
        and what it is called while it runs (``Sting's before_roll``).

        Worked out once per hook, when the game first runs it.
        """
        found = self.hooked.get(hook)
        if found is None:
            found = self.hooked[hook] = tuple((st.hooks[hook], st.spec.offset, f"{st.name}'s {hook}")  # type: ignore[union-attr]
                                              for st in self.statuses if hook in st.hooks)
        return found

    def stride(self) -> tuple[int, int, int]:
        """Every status's value for component 0 as a slice of ``State.counters`` (start, stop, step); add a component
        id to start and stop for that component's.  The statuses' values lie one component count apart.

        >>> book = StatusBook([Status("A", 0, spec=CounterSpec("A", "component", 5, (0, 1, 2))),
        ...                    Status("B", 1, spec=CounterSpec("B", "component", 8, (0, 1, 2)))])
        >>> book.stride()
        (5, 11, 3)
        """
        specs = [st.spec for st in self.statuses]
        assert specs and all(spec is not None for spec in specs)
        first, step = specs[0].offset, len(specs[0].owners)  # type: ignore[union-attr]
        assert all(spec.offset == first + k * step for k, spec in enumerate(specs))  # type: ignore[union-attr]
        return first, first + len(specs) * step, step

    def of(self, s: "StateView", cid: int) -> list[Status]:
        """The statuses a component has now, in declaration order."""
        return [st for st in self.statuses if st.spec is not None and s.counters[st.spec.offset + cid]]


# ------------------------------------------------------------------ reading the section


def declare_statuses(b: "BuildContext") -> None:
    """The status names become the values of type ``status`` (before the vocabulary is built)."""
    section = b.tree.get("statuses")
    if section is None:
        return
    g = b.game
    if not isinstance(section, Mapping) or not section:
        b.error(b.pos(b.tree, "statuses"), "'statuses' must map each status's name to what it does")
        return
    if TYPE_NAME in g.types:
        b.error(b.pos(b.tree, "statuses"), f"a ruleset with statuses can't declare a type named '{TYPE_NAME}' too")
        return
    book = StatusBook()
    for name in section:
        b.check_identifier(name, section.key_pos.get(name), "status")
        status = Status(str(name), len(book.statuses))
        spec = section[name]
        if isinstance(spec, Mapping):  # read before any code, which status_age() checks against
            status.lasts = _lasts(b, spec)
            status.aged = b.bool_setting(spec, "age", False)
        book.statuses.append(status)
        book.by_name[status.name] = status
    g.types[TYPE_NAME] = tuple(book.by_name)
    g.parts["statuses"] = book


def compile_statuses(b: "BuildContext") -> None:
    """Each status's settings and hooks; then one stored number per component for each (after the declared counters)."""
    book, section = b.game.parts.get("statuses"), b.tree.get("statuses")
    if book is None or not isinstance(section, Mapping):
        return
    g = b.game
    bearer = ANY_COMPONENT
    meter = g.parts.get("meter")
    bind: dict[str, Type] = {"self": bearer, "attacker": ANY_COMPONENT, "source": meter.source_type if meter else ANY, "amount": INT}
    for status in book.statuses:
        spec = section[status.name]
        if spec is None:  # just a name: a status with no settings and no hooks
            continue
        if not isinstance(spec, Mapping):
            b.error(section.pos_of(status.name), f"status '{status.name}' must be a mapping such as {{kind: major, on: {{...}}}}")
            continue
        b.unknown_keys(spec, KEYS, f"status '{status.name}'")
        status.kind = str(spec.get("kind") or "")
        status.negative = b.bool_setting(spec, "negative", True)
        if (contradiction := _kind_against_negative(status.kind, status.negative)) is not None:
            b.error(spec.pos_of("kind"), *contradiction)
        status.text = " ".join(str(spec.get("text") or "").split())
        if "only" in spec:
            compiled, slots = b.expression(spec["only"], "bool", bind={"self": bearer}, pos=spec.pos_of("only"))
            status.only = (compiled.fn, slots)
            status.only_text = b.describe(spec["only"])
        hooks = spec.get("on")
        if hooks is None:  # a status may have no hooks: other code reads it with has()
            continue
        if not isinstance(hooks, Mapping):
            b.error(spec.pos_of("on"), "'on' must map hook names (on_act, on_damage, on_heal, on_defeat, on_end, or a statuses step's "
                                       "hook) to programs")
            continue
        for hook, text in hooks.items():
            b.check_identifier(hook, hooks.key_pos.get(hook), "hook")
            status.hooks[str(hook)] = compile_hook(b, text, hooks.pos_of(hook), bind)
    offset = sum(len(c.owners) for c in g.counters.values())
    owners = tuple(range(len(g.component_names)))
    if too_many_values(b, offset, len(owners) * len(book.statuses), b.pos(b.tree, "statuses"),
                       f"each of the {len(book.statuses):,} statuses, one value per component,"):
        owners = ()  # refused: nothing kept
    for status in book.statuses:
        status.spec = CounterSpec(status.name, "component", offset, owners, doc=f"the {status.name} status")
        g.counters[status.name] = status.spec
        offset += len(owners)


def _lasts(b: "BuildContext", spec: "MappingT") -> int | None:
    value = spec.get("lasts", "until removed")
    if value == "until removed":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    b.error(spec.pos_of("lasts"), f"'lasts' is a number of turns (1, 2, ...) or 'until removed', not {value!r}")
    return None


def check_hooks(b: "BuildContext") -> None:
    """Every hook a status declares is run by something: the engine (on_act, on_damage, on_heal, on_defeat, on_end) or a
    ``statuses`` step."""
    book, section = b.game.parts.get("statuses"), b.tree.get("statuses")
    if book is None or not isinstance(section, Mapping):
        return
    known = [*ENGINE_HOOKS, *sorted(book.step_hooks)]
    for status in book.statuses:
        spec = section[status.name]
        missing = [turn for turn in ("start", "end") if turn not in book.step_turns]
        if status.aged and status.lasts is None and "start" not in book.step_turns and isinstance(spec, Mapping):
            b.error(spec.pos_of("age"), f"status '{status.name}' counts its age, but no 'statuses' step counts its owner's "
                    "turns (turn: start)", "add '- statuses: {turn: start}' where the turn begins; a step may also run a hook")
        if status.lasts is not None and missing and isinstance(spec, Mapping):
            does = {"start": "counts its owner's turns (turn: start)", "end": "ends it when they are over (turn: end)"}
            b.error(spec.pos_of("lasts"), f"status '{status.name}' lasts {status.lasts} turn{'s' * (status.lasts != 1)}, "
                    f"but no 'statuses' step {' or '.join(does[t] for t in missing)}",
                    "add '- statuses: {turn: start}' where the turn begins and '- statuses: {turn: end}' where it ends "
                    "(a step may also run a hook), or write 'lasts: until removed'")
        hooks = spec.get("on") if isinstance(spec, Mapping) else None
        for hook in status.hooks:
            if hook not in known:
                b.error(hooks.key_pos.get(hook) if isinstance(hooks, Mapping) else None,
                        f"nothing runs the hook '{hook}' of status '{status.name}'", _unrun_hint(book, hook, known))


def _unrun_hint(book: StatusBook, hook: str, known: list[str]) -> str:
    """What to do about a status's hook nothing runs: the hook that runs it was meant to be, or the hooks that run.

    When the name it resembles is a ``statuses`` step's hook that no status has, the step's may be the misspelt one:

    >>> book = StatusBook(step_hooks={"turn_begin"})
    >>> _unrun_hint(book, "turn_start", ["on_act", "turn_begin"])
    "did you mean 'turn_begin'? or is the 'statuses' step's hook misspelt? it runs 'turn_begin', which no status has"
    >>> _unrun_hint(book, "upkeep", ["on_act", "turn_begin"])
    'hooks that run: on_act, turn_begin'
    """
    hint = did_you_mean(hook, known)
    if hint is None:
        return f"hooks that run: {', '.join(known)}"
    meant = hint.split("'")[1]
    if meant in book.step_hooks and not any(meant in st.hooks for st in book.statuses):
        hint += f" or is the 'statuses' step's hook misspelt? it runs '{meant}', which no status has"
    return hint


# ------------------------------------------------------------------ changing the game


def _stored(s: "StateView", status: Status, cid: int) -> int:
    assert status.spec is not None
    return status.spec.offset + cid


def give(s: "StateView", cid: Any, name: str, source: Any = None) -> bool:
    """Give a component a status (do as much as you can); True when it now has it and did not before (no component
    or no status, as ``first(statuses_of(t))`` of a component without one, gives nothing)."""
    book = s.game.parts.get("statuses")
    if cid is None or name is None or book is None:
        return False
    status = book.by_name[name]
    i = _stored(s, status, cid)
    if s.counters[i]:
        return False
    meter = s.game.parts.get("meter")
    mark = meter.counter.index_of(cid) if meter else None
    if meter is not None and mark is not None:
        if s.counters[mark] <= 0:
            return False  # at the bottom of its meter: no statuses any more
        tile = meter.tile_at(cid, s.counters[mark])
        if tile and name in meter.kinds[tile[0]].nullifies and source not in meter.unstoppable:
            s.note(lambda: f"{label(s, cid)}'s {'' if unseen(s, cid) else f'{tile[0]} '}tile blocks {name}")
            return False
    if not status.may_receive(s, cid):
        s.note(lambda: f"{label(s, cid)} can't receive {name}")
        return False
    s.counters[i] = 1
    s._actions = None
    s.note(lambda: f"{label(s, cid)} gets {name}")
    return True


def remove(s: "StateView", cid: Any, name: str, because: str = "", pos: SourcePos | None = None) -> None:
    """End a status on a component (nothing when it has none, or when there is no component or no status); ``pos``:
    the code or step that ends it, where the seats read a failure of its ``on_end`` on a hidden component."""
    book = s.game.parts.get("statuses")
    if cid is None or name is None or book is None:
        return
    status = book.by_name[name]
    i = _stored(s, status, cid)
    if s.counters[i]:
        s.counters[i] = 0
        s._actions = None
        s.note(lambda: f"{name} ends on {label(s, cid)}" + (f" ({because})" if because else ""))
        ending = status.hooks.get("on_end")
        if ending is not None:
            with Running(s, f"{name}'s on_end"), ToldAsHidden(s, cid, "on_end of a status on {}", pos):
                ending.run(s, cid, None, None, 0)


def clear(s: "StateView", cid: int, negative_only: bool = False, pos: SourcePos | None = None) -> None:
    """Remove every status (or every negative one) from a component (``pos`` as for :func:`remove`)."""
    book = s.game.parts.get("statuses")
    for status in book.statuses if book else []:
        if not negative_only or status.negative:
            remove(s, cid, status.name, pos=pos)


def run_hook(s: "StateView", cid: int, hook: str, attacker: Any = None, source: Any = None, amount: int = 0,
             pos: SourcePos | None = None) -> None:
    """Run ``hook`` of every status the component has (each checked again just before: a hook may end another);
    ``pos``: the code or step that runs them, where the seats read a failure on a hidden component."""
    book = s.game.parts.get("statuses")
    if book is None:
        return
    for code, offset, what in book.with_hook(hook):
        if s.counters[offset + cid]:
            with Running(s, what), ToldAsHidden(s, cid, f"{hook} of a status on {{}}", pos):
                code.run(s, cid, attacker, source, amount)


def hook_reach(game: "GameView", hook: str) -> frozenset[str]:
    """What the statuses' ``hook`` code may do besides computing (none when no status has that hook)."""
    book = game.parts.get("statuses")
    return reach_of(status.hooks.get(hook) for status in book.statuses) if book else frozenset()


# ------------------------------------------------------------------ the step


class StepPlan(NamedTuple):
    """What a ``statuses`` step reads, as offsets of the statuses' values in ``State.counters`` (add a component id)."""

    hooked: tuple[int, ...]  # statuses with the step's hook
    counted: tuple[int, ...]  # statuses whose turns the step counts or ends
    lasting: tuple[int, ...]  # statuses whose turns are counted (they last a number of turns, or keep their age)
    ending: tuple[tuple[Status, int], ...]  # statuses that last a number of turns, with their status
    every: tuple[int, int, int]  # every status: (start, stop, step) of a slice, shifted by the component id


@step_kind
class Statuses(Step):
    """``statuses: {hook: before_roll, turn: start}`` — run a hook of the statuses of the current role's components.

    ``turn: start`` first counts a turn of their owner for statuses that last
    a number of turns or keep their age; ``turn: end`` afterwards removes those
    whose turns are over.  Hooks may ``choose``.
    """

    kind = "statuses"
    keys = ("if", "hook", "turn")

    def __init__(self, index: int, spec: "MappingT", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        self.hook = str(spec.get("hook") or "")
        self.turn = b.choice(spec, "turn", ("start", "end", "none"), "none")
        book = b.game.parts.get("statuses")
        if book is None:
            b.error(pos, "a 'statuses' step needs a 'statuses' section")
        else:
            book.step_hooks.update([self.hook] if self.hook else [])
            book.step_turns.update([self.turn] if self.turn != "none" else [])
        if self.hook in ENGINE_HOOKS:
            b.error(b.pos(spec, "hook"), f"'{self.hook}' is run by the engine itself; name another hook here")
        self._offsets: StepPlan | None = None  # see _plan
        self._own_zones: dict[Any, tuple[int, ...]] = {}  # by role: its own zones (see _mine)

    def enter(self, s: "StateView") -> bool:
        work = self._work(s)
        if work is None:
            return False
        return not run_effect(s, self.index, work, [])

    def _own(self, s: "StateView") -> tuple[int, ...]:
        """The current role's own zones, in order (worked out once per role)."""
        role = s.current_role
        zones = self._own_zones.get(role)
        if zones is None:
            zones = self._own_zones[role] = tuple(z for z, owner in enumerate(s.game.zone_owner) if owner == role)
        return zones

    def _mine(self, s: "StateView") -> list[int]:
        """The components in the current role's own zones, zone by zone, in order."""
        return [cid for z in self._own(s) for cid in s.zones[z]]

    def _plan(self, s: "StateView") -> StepPlan:
        """Where the values of the statuses this step reads start in ``State.counters`` (worked out once)."""
        book = s.game.parts.get("statuses")
        assert book is not None
        lasting = tuple(_stored(s, st, 0) for st in book.statuses if st.counted)
        plan = self._offsets = StepPlan(
            tuple(_stored(s, st, 0) for st in book.statuses if self.hook in st.hooks),
            lasting if self.turn != "none" else (),
            lasting,
            tuple((st, _stored(s, st, 0)) for st in book.statuses if st.lasts is not None),
            book.stride(),
        )
        return plan

    def _work(self, s: "StateView") -> str | None:
        """What this step has to do for the current role's components, as the key of its effect.

        ``"hooks"``: one has a status whose hook it runs; ``"turns"``: no hook runs, but one has a status
        whose turns it counts or ends (no code runs, so that effect never chooses); None: nothing.
        A component with no status at all is passed over with one slice of the counters.
        """
        plan = self._offsets or self._plan(s)
        hooked, counted = plan.hooked, plan.counted
        if not (hooked or counted):
            return None
        first, stop, stride = plan.every
        counters, zones = s.counters, s.zones
        turns = False
        for z in self._own(s):
            for cid in zones[z]:
                if not any(counters[first + cid:stop + cid:stride]):
                    continue
                for offset in hooked:
                    if counters[offset + cid]:
                        return "hooks"
                if not turns:
                    for offset in counted:
                        if counters[offset + cid]:
                            turns = True
                            break
        return "turns" if turns else None

    def effect(self, key: Any) -> Fn:
        return self._run

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        """What the statuses' hooks this step runs may do; counting and ending statuses (key ``"turns"``) runs only
        the ``on_end`` hooks of those that end."""
        return (hook_reach(game, self.hook) if key == "hooks" else frozenset()) | hook_reach(game, "on_end")

    def _run(self, s: "StateView", e: list[Any]) -> None:
        plan = self._offsets or self._plan(s)
        mine = self._mine(s)
        counters = s.counters
        if self.turn == "start":
            for offset in plan.lasting:
                for cid in mine:
                    if counters[offset + cid]:
                        s.counters[offset + cid] += 1
        if self.hook:
            for cid in mine:
                run_hook(s, cid, self.hook, pos=self.pos)
        if self.turn == "end":
            for status, offset in plan.ending:
                for cid in mine:
                    if status.expired(counters[offset + cid]):
                        remove(s, cid, status.name, because="its time is up", pos=self.pos)

    def describe(self) -> str:
        parts = []
        if self.turn == "start":
            parts.append("count a new turn for them")
        if self.hook:
            parts.append(f"run their '{self.hook}' hooks")
        if self.turn == "end":
            parts.append("end those whose turns are over")
        return "the statuses of the current player's components: " + ", then ".join(parts)


# ------------------------------------------------------------------ the functions


@dataclass(frozen=True)
class StatusFunction(Function):
    """give / remove / has / statuses_of / status_age / dispel / cancel: one class, ``verb`` says which."""

    verb: str = "give"

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        if self.verb == "cancel":  # (only rulesets with statuses offer these functions: see attach)
            return self._cancel(call, scope)
        wanted = {"give": (2, 3), "remove": (2, 2), "has": (2, 2), "dispel": (1, 1), "statuses_of": (1, 1), "age": (2, 2)}[self.verb]
        args = self.arity(call, scope, *wanted)
        status_type = scope.vocab.data["status_type"]
        if len(args) < wanted[0]:
            return Compiled({"has": BOOL, "age": INT, "statuses_of": ListOf(status_type)}.get(self.verb, EFFECT), lambda s, e: None)
        target = self.value(scope, args[0], ANY_COMPONENT, "target").fn
        if self.verb == "dispel":
            return Compiled(EFFECT, lambda s, e: _each_negative(s, target(s, e), call.pos))
        if self.verb == "statuses_of":
            return Compiled(ListOf(status_type), lambda s, e: statuses_of(s, target(s, e)))
        compiled = self.value(scope, args[1], status_type, "status")
        status = compiled.fn
        if self.verb == "has":
            if compiled.constant:  # the usual case, has(t, Sting): read its stored number directly
                name = status(None, [])
                return Compiled(BOOL, lambda s, e: (c := target(s, e)) is not None and s.counters[s.game.parts["statuses"].by_name[name].spec.offset + c] > 0)
            return Compiled(BOOL, lambda s, e: has(s, target(s, e), status(s, e)))
        if self.verb == "age":
            return _age(scope, call, compiled, target)
        if self.verb == "remove":
            return Compiled(EFFECT, lambda s, e: remove(s, target(s, e), status(s, e), pos=call.pos))
        meter = scope.vocab.data.get("meter")
        source = source_of(self, scope, call, args[2] if len(args) == 3 else None, meter.source_type) if meter else (lambda s, e: None)

        def give_(s: Any, e: list[Any]) -> None:
            give(s, target(s, e), status(s, e), source(s, e))

        return Compiled(EFFECT, give_)

    def _cancel(self, call: ast.Call, scope: Scope) -> Compiled:
        self.arity(call, scope, 0)
        pos = call.pos

        def cancel(s: Any, e: list[Any]) -> None:
            if Attempt.block not in s.slices:
                raise EffectRuntimeError("cancel() stops an action being attempted; nothing is being attempted now", pos)
            s.slices[Attempt.block] = Attempt(True)
            s.note(lambda: "the action fails")

        return Compiled(EFFECT, cancel)

    def describe(self, call: ast.Call) -> str:
        args = [a.describe() for a in call.positional()]
        if self.verb == "cancel":
            return "the action fails"
        if len(args) < (1 if self.verb == "dispel" else 2):
            return self.name
        return {"give": "give {0} {1}", "remove": "end {1} on {0}", "has": "{0} has {1}", "statuses_of": "the statuses of {0}",
                "age": "the turns of its owner begun since {0} got {1}",
                "dispel": "dispel {0} (end its negative statuses)"}[self.verb].format(*args)


def _age(scope: Scope, call: ast.Call, status: Compiled, target: Fn) -> Compiled:
    """``status_age(TARGET, STATUS)``: its owner's turns begun since the target got the status (0 when it has not got
    it).  Only a status whose turns are counted has an age: one that ``lasts`` a number of turns, or says ``age: true``."""
    book: StatusBook = scope.vocab.data["status_book"]
    uncounted = [st.name for st in book.statuses if not st.counted]
    if status.constant and status.fn(None, []) in uncounted:
        name = status.fn(None, [])
        scope.error(call.pos, f"status '{name}' keeps no age: nothing counts its owner's turns",
                    f"say 'age: true' in status '{name}', or give it 'lasts: N'")
    elif not status.constant and uncounted:
        scope.error(call.pos, "status_age() reads a status named where it is called (status_age(t, Sting)), unless every "
                              f"status keeps its age: {', '.join(uncounted)} {'keeps' if len(uncounted) == 1 else 'keep'} none",
                    "say 'age: true' in those statuses")

    def age(s: "StateView", e: list[Any]) -> int:
        cid, name = target(s, e), status.fn(s, e)
        if cid is None or name is None:  # no target, or no status (first(statuses_of(t)) of a component with none)
            return 0
        stored = s.counters[book.by_name[name].spec.offset + cid]  # type: ignore[union-attr]
        return stored - 1 if stored else 0

    return Compiled(INT, age)


def has(s: "StateView", cid: Any, name: Any) -> bool:
    """Whether component ``cid`` has the status called ``name`` now (false for no component or no status)."""
    book = s.game.parts.get("statuses")
    return cid is not None and name is not None and book is not None and bool(s.counters[_stored(s, book.by_name[name], cid)])


def statuses_of(s: "StateView", cid: Any) -> list[str]:
    """The names of the statuses a component has, in declaration order."""
    book = s.game.parts.get("statuses")
    if cid is None or book is None:
        return []
    counters = s.counters
    return [st.name for st in book.statuses if counters[st.spec.offset + cid]]  # type: ignore[union-attr]


def _each_negative(s: "StateView", cid: Any, pos: SourcePos) -> None:
    if cid is not None:
        clear(s, cid, negative_only=True, pos=pos)


def attach(b: "BuildContext") -> None:
    """Tell the status functions the type of statuses (once the vocabulary exists); statuses with errors (reported) offer none."""
    if b.game.parts.get("statuses") is not None:
        b.game.vocab.data["status_type"] = Enum(TYPE_NAME)
        b.game.vocab.data["status_book"] = b.game.parts["statuses"]
    else:
        withdraw_functions(b.game.vocab, BLOCK)


def draw(s: "StateView", seat: int | None) -> Drawing | None:
    """The statuses are drawn with their bearers (by the meter's lines), not in the list of counters that keeps them."""
    book = s.game.parts.get("statuses")
    return Drawing(counters=frozenset(book.by_name)) if book is not None else None


ADDED_FUNCTIONS = (
    StatusFunction("give", "give(TARGET, STATUS [, SOURCE])", "Give a component a status (see statuses:), unless it has it, "
                   "may not receive it, has its meter at 0, or rests on a tile that nullifies it.", "give(t, Sting)"),
    StatusFunction("remove", "remove(TARGET, STATUS)", "End a status on a component.", "remove(self, Sting)", verb="remove"),
    StatusFunction("has", "has(TARGET, STATUS) -> bool", "Whether a component has a status.", "has(t, Sting)", verb="has"),
    StatusFunction("statuses_of", "statuses_of(TARGET) -> list of status", "The statuses a component has, in declaration order.",
                   "count(statuses_of(t)) == 0", verb="statuses_of"),
    StatusFunction("status_age", "status_age(TARGET, STATUS) -> int",
                   "How many of its owner's turns have begun since a component got a status (0 when it has not got it); "
                   "the status must count them: 'lasts: N' or 'age: true'.", "status_age(self, Sting) >= 3", verb="age"),
    StatusFunction("dispel", "dispel(TARGET)", "End every negative status of a component.", "dispel(self)", verb="dispel"),
    StatusFunction("cancel", "cancel()", "In an on_act hook: the action being attempted fails.", "cancel()", verb="cancel"),
)


BLOCK = declare(Block(
    "statuses",
    slices=(Attempt,),
    keys={
        "statuses": {
            "description": ("Statuses components may have, by name (the names become the values of type `status`): "
                            "their kind, duration, who may receive them, and hooks in the effect language. Code "
                            "uses `give(TARGET, STATUS)`, `remove(...)`, `has(...)`, `dispel(TARGET)` and, in "
                            "`on_act` hooks, `cancel()`."),
            "type": ["object", "null"],
            "additionalProperties": {"$ref": "#/$defs/status"},
            "examples": [
                {
                    "Sting": {
                        "kind": "major",
                        "on": {
                            "before_roll": "roll d6:\n  odd: remove(self, Sting)\n  even: damage(self, 10, status)\n",
                        },
                    },
                },
            ],
        },
    },
    steps={
        "statuses": {
            "description": "Run a hook of the statuses of the current player's components; count or end their turns.",
            "$ref": "#/$defs/statusesStep",
        },
    },
    defs={
        "status": {
            "description": ("One status: `{kind: major, negative: true, lasts: 1, age: true, only: CONDITION, text: ..., on: "
                            "{HOOK: PROGRAM}}`. Every key is optional: a status with no hooks (`Marked: {kind: "
                            "minor}`, or just `Marked:`) is given, read with `has` and removed by other code."),
            "type": ["object", "null"],
            "properties": {
                "kind": {
                    "description": ("A word saying what sort of status it is (e.g. minor, major, unique, aura); "
                                    "shown by explain and play, and deciding nothing: `negative` says whether "
                                    "dispel removes it."),
                    "type": "string",
                    "examples": ["minor", "major", "unique"],
                },
                "negative": {
                    "description": "Whether `dispel` removes it (true/false or an option name).",
                    "$ref": "#/$defs/flag",
                    "default": True,
                },
                "lasts": {
                    "description": ("How long it lasts: a number of its owner's turns (it ends at the end of the "
                                    "owner's Nth turn begun after it was given, when a `statuses: {turn: end}` step "
                                    "runs), or `until removed`."),
                    "type": ["integer", "string"],
                    "minimum": 1,
                    "default": "until removed",
                    "examples": [1, "until removed"],
                },
                "age": {
                    "description": ("Count its owner's turns while it lasts, as a `statuses: {turn: start}` step begins "
                                    "them, so `status_age(TARGET, STATUS)` can read them (a status that `lasts` a "
                                    "number of turns counts them already)."),
                    "$ref": "#/$defs/flag",
                    "default": False,
                },
                "only": {
                    "description": "Who may receive it: a condition on `self`.",
                    "$ref": "#/$defs/condition",
                    "examples": ["self.race == Beast"],
                },
                "text": {"description": "What it does, in English (for explain).", "type": "string"},
                "on": {
                    "description": ("Hooks, each a program with `self` (the bearer), `attacker`, `source` and "
                                    "`amount` bound: `on_act` (the bearer tries to act; `cancel()` makes it fail), "
                                    "`on_damage` (it takes damage), `on_heal` (it is healed: `amount` is how much), "
                                    "`on_defeat` (damage brings its meter to 0: "
                                    "`attacker` and `source` say who and what did it), `on_end` (the status ends on "
                                    "it, however), or a name a `statuses` step "
                                    "runs (e.g. `before_roll`). Optional: a status may have no hooks."),
                    "type": ["object", "null"],
                    "additionalProperties": {"$ref": "#/$defs/program"},
                },
            },
            "additionalProperties": False,
        },
        "statusesStep": {
            "description": ("`statuses: {hook: before_roll, turn: start}`: run a hook of the statuses of the "
                            "current player's components."),
            "type": ["object", "null"],
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "hook": {
                    "description": "The hook to run (a name the statuses use under `on:`).",
                    "type": "string",
                    "examples": ["before_roll", "turn_end"],
                },
                "turn": {
                    "description": ("`start`: first count a new turn of their owner for statuses that last a number "
                                    "of turns; `end`: afterwards end those whose turns are over; `none`."),
                    "enum": ["start", "end", "none"],
                    "default": "none",
                },
            },
            "additionalProperties": False,
        },
    },
    functions=ADDED_FUNCTIONS,
    declare=declare_statuses,
    attach=attach,
    compile=compile_statuses,
    check=check_hooks,
    rank=30,
    draw=draw,
))
