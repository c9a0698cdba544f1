"""Programs that building blocks run with some names bound: a tile's ``on_damage``, a status's hooks, an action.

A block compiles the code with the names it provides (``self``, ``target``,
...) in slots 0, 1, ... and, optionally, the *source* its code deals damage
from (an action's code deals ``action`` damage, a status's ``status``
damage), kept in a hidden local that ``damage``, ``heal`` and ``give`` read
when no source is written.  ``run`` fills the slots and runs it::

    hook = compile_hook(b, spec["on_damage"], spec.pos_of("on_damage"), {"self": bearer, "amount": INT}, "status")
    hook.run(s, cid, 20)

>>> Hook(lambda s, e: e[0] + e[1], 3, 2, "add").run(None, 1, 2)
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from engine.core.errors import EffectRuntimeError, SourcePos, did_you_mean
from engine.core.facedown import public_name, told_name
from engine.core.slices import HookTrail
from engine.lang.scope import Fn, Scope
from engine.lang.types import ANY, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.lang import ast
    from engine.lang.functions import Function

SOURCE_LOCAL = "#source"  # not a name code can write: only the functions that need a default source look it up


class Running:
    """``with Running(s, what):`` notes that the hook ``what`` runs (so a runaway cycle of hooks can be named, and its
    dice logged), for as long as it runs.

    A class rather than a generator: it runs around every hook, and costs less so.

    >>> class S: slices = {}
    >>> s = S()
    >>> with Running(s, "a tile"):
    ...     with Running(s, "a status"):
    ...         s.slices[HookTrail.block].running
    ('a tile', 'a status')
    >>> s.slices
    {}
    """

    __slots__ = ("s", "what", "outer")

    def __init__(self, s: "StateView", what: str) -> None:
        self.s, self.what = s, what

    def __enter__(self) -> None:
        slices = self.s.slices
        outer = self.outer = slices.get(HookTrail.block)
        slices[HookTrail.block] = HookTrail((*outer.running, self.what) if outer else (self.what,))

    def __exit__(self, *exc: object) -> None:
        if self.outer:
            self.s.slices[HookTrail.block] = self.outer
        else:
            del self.s.slices[HookTrail.block]


HIDDEN_FAILURE = ("what went wrong is kept from the seats, as it would tell what the component is; "
                  "replay or simulate the game to read it")


class ToldAsHidden:
    """``with ToldAsHidden(s, cid, what, pos):`` around code run for component ``cid`` (its own program, a status's
    hook on it, a threshold or tile of its meter; for anything else, a role, it does nothing): when it fails while ``cid`` lies where some seat can't see it, the seats read the failure at ``pos``
    as "the WHAT failed" (``{}`` in ``what``: the component as the log names it), not at the line that failed, which
    would say which component, or which status, it is (see :func:`engine.core.errors.told_to_seats`).  The outermost
    such run is the one told.  The one place that decides this: every block running such code goes through it.

    >>> class Game: board_zone, zone_spec_of = 0, [None, type("Spec", (), {"hidden": "others"})]
    >>> class S: game, zone_of, slices = Game, [1], {}
    >>> err = EffectRuntimeError("division by zero", SourcePos("r.yaml", 9, 4))
    >>> try:
    ...     with ToldAsHidden(S, 0, "on_end of a status on {}"):
    ...         raise err
    ... except EffectRuntimeError:
    ...     err.public.split(" (")[0]
    'the on_end of a status on a hidden component failed'
    """

    __slots__ = ("cid", "pos", "s", "what", "zone")

    def __init__(self, s: "StateView", cid: Any, what: str, pos: SourcePos | None = None) -> None:
        self.s, self.cid, self.what, self.pos = s, cid, what, pos

    def __enter__(self) -> None:
        # where it lay when it began (it may move before it fails); a role or the game (a meter's owner) lies nowhere
        self.zone = self.s.zone_of[self.cid] if type(self.cid) is int else None

    def __exit__(self, kind: object, err: object, trace: object) -> None:
        if self.zone is not None and isinstance(err, EffectRuntimeError):
            tell_as_hidden(self.s, self.cid, self.what, self.pos, err, self.zone)


def tell_as_hidden(s: "StateView", cid: int, what: str, pos: SourcePos | None, err: EffectRuntimeError,
                   zone: int | None = None) -> None:
    """What :class:`ToldAsHidden` does, for code run where a ``with`` would cost (a contest's modifiers, in a loop
    under ``try``): ``err``, raised by component ``cid``'s own code, is told to the seats as "the WHAT failed" when
    ``cid`` lies (lay, ``zone``) where some seat can't see it; without a position, :func:`told_at` may give one.

    Example: ``except EffectRuntimeError as err: tell_as_hidden(s, giver, "modifier of {}", None, err); raise``.
    """
    told = told_name(s, cid, zone)
    if told is not None:
        where = f"{pos}: " if pos else ""
        err.public = f"{where}the {what.format(told)} failed ({HIDDEN_FAILURE})"
        err.unplaced = pos is None  # type: ignore[attr-defined]  # told_at may say where


def told_at(err: EffectRuntimeError, pos: SourcePos | None) -> None:
    """Give ``pos`` (the code or step that ran it) to a failure :func:`tell_as_hidden` told the seats without one.

    >>> err = EffectRuntimeError("division by zero", public="the modifier of a hidden component failed")
    >>> err.unplaced = True
    >>> told_at(err, SourcePos("r.yaml", 3, 5)); err.public
    'r.yaml:3:5: the modifier of a hidden component failed'
    """
    if pos is not None and getattr(err, "unplaced", False) and err.public is not None:
        err.public, err.unplaced = f"{pos}: {err.public}", False  # type: ignore[attr-defined]


def unseen(s: "StateView", owner: Any) -> bool:
    """Whether ``owner`` (a component, a role, the game; with a keyed counter's key) is a component lying where some seat does not see it: the log,
    which every seat reads, then tells neither its name nor its values (its meter's marker, the thresholds it crosses).

    >>> class Spec: hidden = "others"
    >>> class Game: board_zone, zone_spec_of = 0, [None, Spec]
    >>> class S: game, zone_of, slices = Game, [1], {}
    >>> unseen(S, 0), unseen(S, "North")
    (True, False)
    """
    if type(owner) is tuple:  # a keyed counter's (owner, key)
        owner = owner[0]
    return type(owner) is int and told_name(s, owner) is not None


@dataclass(frozen=True)
class Hook:
    """A compiled program with ``bound`` names in its first slots (and the default source after them)."""

    fn: Fn
    slots: int
    bound: int
    words: str = ""
    source: str | None = None
    reach: frozenset[str] = frozenset()  # what it may do besides computing (see Scope.reach)

    def run(self, s: Any, *values: Any) -> Any:
        """Run with the bound names set to ``values``, in the order they were bound."""
        env: list[Any] = [None] * self.slots
        env[:len(values)] = values
        if self.source is not None:
            env[self.bound] = self.source
        return self.fn(s, env)


def reach_of(codes: "Iterable[Hook | None]") -> frozenset[str]:
    """What any of ``codes`` may do besides computing (see :attr:`Hook.reach`); none for no code.

    >>> sorted(reach_of([Hook(print, 1, 0, reach=frozenset({"runs"})), None]))
    ['runs']
    """
    found: frozenset[str] = frozenset()
    for code in codes:
        if code is not None:
            found |= code.reach
    return found


def compile_hook(b: "BuildContext", text: Any, pos: SourcePos | None, bind: dict[str, Type], source: str | None = None) -> Hook:
    """Compile a program with ``bind``'s names in slots 0, 1, ... and, when given, a default damage ``source``."""
    node = b.parse(text, pos, program=True)
    if node is None:
        return Hook(lambda s, e: None, len(bind) + 1, len(bind), str(text))
    scope = Scope(b.game.vocab, b.sink)
    for name, type_ in bind.items():
        scope.give(name, type_)
    if source is not None:
        scope.bind(SOURCE_LOCAL, source_type(b, source, pos))
    compiled = b.compile_node(node, scope)
    try:
        words = node.describe()
    except RecursionError:
        words = str(text)
    return Hook(compiled.fn, max(scope.slots, 1), len(bind), words, source, frozenset(scope.reach))


def source_type(b: "BuildContext", source: str, pos: SourcePos | None) -> Type:
    """The type of damage sources (the meter's), checking that ``source`` is one of them."""
    meter = b.game.parts.get("meter")
    if meter is None:
        b.error(pos, "a damage source needs a 'meter' section naming the type of sources")
        return ANY
    values = b.game.types.get(meter.source_type.name, ())
    if source not in values:
        b.error(pos, f"unknown damage source '{source}'", did_you_mean(source, values) or f"known: {', '.join(values)}")
    return meter.source_type


def label(s: Any, cid: Any) -> str:
    """A component in a log line, which every seat reads: its name and, when a role holds it, the role (``North's
    Scout``); only where it lies when some seat does not see it there (``a component in hand of North``).

    >>> class Spec: hidden = "others"
    >>> class Game: board_zone, zone_spec_of, zone_names, piece_names = 0, [None, Spec], ["board", "hand of A"], ["gem"]
    >>> class S: game, zone_of, slices = Game, [1], {}
    >>> label(S, 0)
    'a component in hand of A'
    """
    if cid is None:
        return "nothing"
    g, zone = s.game, s.zone_of[cid]
    if zone != g.board_zone and g.zone_spec_of[zone].hidden != "none":
        return f"a component in {g.zone_names[zone]}"
    name = public_name(s, cid, g.piece_names[cid])  # a face-down piece by its back
    owner = g.zone_owner[zone]
    return f"{owner}'s {name}" if owner else name


def source_of(fn: Function, scope: Scope, call: ast.Call, node: ast.Node | None, type_: Type) -> Any:
    """The closure giving a call's source: written, or the default the block running the code set."""
    if node is not None:
        return fn.value(scope, node, type_, "source").fn
    found = local_slot(scope, SOURCE_LOCAL)
    if found is None:
        scope.error(call.pos, f"{fn.name}() needs a source here (where does it come from?)", f"usage: {fn.signature}")
        return lambda s, e: None
    slot = found[0]
    return lambda s, e: e[slot]


def local_reader(scope: Scope, name: str) -> Fn:
    """A closure reading the local ``name`` where the code has one (a hook's ``self``, its default source), else none."""
    found = local_slot(scope, name)
    if found is None:
        return lambda s, e: None
    slot = found[0]
    return lambda s, e: e[slot]


def local_slot(scope: Scope, name: str) -> tuple[int, Type] | None:
    """The slot and type of a local variable visible in ``scope`` (None when there is none)."""
    current: Scope | None = scope
    while current is not None:
        if name in current.locals:
            return current.locals[name]
        current = current.parent
    return None
