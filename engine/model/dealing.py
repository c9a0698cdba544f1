"""Setups that shuffle a zone and deal out of it by printed attributes: worked out once, replayed for every seed.

A setup such as ::

    shuffle(supply)
    move(t in supply where t.kind == "tile", row, 3)
    for r in roles:
      move(c in supply where c.rare, hand(r), 3)

does the same thing to every new game but for the order the shuffle gives.
Each ``move`` takes the first components of a class (the components its
condition cannot tell apart) in the order they lie, so the setup of a seed
is the setup of the unshuffled zone with, in each class, the k-th component
in the zone's first order replaced by the k-th in the shuffled order.  That
setup is run once (the shuffle left out) and kept as a :class:`Deal`; a new
state shuffles the zone's first order with its own generator — the same
draws as the shuffle makes — and renames the components of the kept result.

It applies only where it is exact, checked when the setup is first run:

* the program is only ``for`` loops over lists of constants or ``roles``,
  ``move`` of a selection whose ``where`` reads only the item's printed
  attributes, constants and loop variables (every move after the shuffle
  has one), into a zone (``pile``, ``hand(r)``), at most a constant number;
  and one ``shuffle`` of a shared zone;
* every component has one face;
* each condition a move after the shuffle used picks one class: the
  components it accepts pass and fail the same conditions as each other;
* nothing is added to the shuffled zone after the shuffle.

Anything else runs the setup program for every state, as before.

>>> from engine.lang.parser import parse_program
>>> plain_deal(parse_program('shuffle(deck)\\nfor r in roles:\\n  move(c in deck where c.kind == "card", hand(r), 2)'),
...            lambda name: name == "deck", lambda name: name == "hand", lambda node, names: True)
True
>>> plain_deal(parse_program("shuffle(deck)\\nflip(c in deck)"), lambda n: True, lambda n: True, lambda node, names: True)
False
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from engine.core import rng
from engine.core.errors import EffectRuntimeError
from engine.lang import ast, selections, statements
from engine.lang.fixed import FixedFilter
from engine.model.state import State

if TYPE_CHECKING:
    from engine.model.game import Game


def plain_deal(program: statements.Block, shared_zone: Callable[[str], bool], role_zone: Callable[[str], bool],
               fixed: Callable[[ast.Node, list[str]], bool], constant: Callable[[str], bool] = lambda name: False) -> bool:
    """Whether ``program`` is a shuffle and moves only (see the module).

    ``fixed(where, locals)`` checks a condition, ``constant(name)`` a count that is a name.
    """
    shuffles: list[str] = []

    def zone(node: ast.Node, names: list[str]) -> bool:
        if isinstance(node, ast.Name):
            return shared_zone(node.name)
        return (isinstance(node, ast.Call) and role_zone(node.func) and len(node.args) == 1
                and isinstance(node.args[0], ast.Name) and node.args[0].name in names)

    def statement(node: ast.Node, names: list[str]) -> bool:
        if isinstance(node, statements.Block):
            return all(statement(part, names) for part in node.body)
        if isinstance(node, statements.For):
            constants = isinstance(node.source, ast.ListLit) and all(isinstance(i, ast.Literal) for i in node.source.items)
            roles = isinstance(node.source, ast.Name) and node.source.name == "roles"
            return node.where is None and (constants or roles) and statement(node.body, names + [node.var])
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Keyword) for a in node.args):
            return False
        if node.func == "shuffle":
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Name) or not shared_zone(node.args[0].name):
                return False
            shuffles.append(node.args[0].name)
            return not names and len(shuffles) == 1  # once, not in a loop
        if node.func != "move" or len(node.args) not in (2, 3):
            return False
        what, count = node.args[0], node.args[2] if len(node.args) == 3 else None
        if not isinstance(what, selections.Selection) or what.value is not None or not zone(what.source, names):
            return False
        if what.where is None and shuffles or what.where is not None and not fixed(what.where, names + [what.var]):
            return False
        constant_count = (count is None or isinstance(count, ast.Literal)
                          or isinstance(count, ast.Name) and count.name not in names and constant(count.name))
        return constant_count and zone(node.args[1], names)

    return statement(program, []) and len(shuffles) == 1


_TRIAL = threading.Lock()


@dataclass(frozen=True)
class Deal:
    """A kept setup: the state it left with the shuffle left out, and where each component of a seed's deal goes.

    A seed's shuffled order, sorted (stably) by class, lists each class's components in
    the order the moves take them: its places are fixed for every seed.  ``plans`` says,
    zone by zone, which place (or which component in ``fixed``, after the places) each
    item of the kept zone is, and ``zone_at`` the zone each place ends in.
    """

    state: "State"  # the setup's result with the shuffled zone in its first order
    zone: int  # the shuffled zone
    before: tuple[int, ...]  # its order when it was shuffled
    class_of: dict[int, int]  # component of ``before`` -> its class (classes numbered in the order of ``before``)
    plans: tuple[tuple[int, tuple[int, ...]], ...]  # (zone, its items as places) for the other zones holding some of ``before``
    fixed: tuple[int, ...]  # the components of those zones not from ``before``, which keep their places
    zone_at: tuple[int, ...]  # by place, the zone its component ends in

    def replay(self, s: "State") -> "State":
        """The state the setup gives ``s`` (just seated, its generator untouched since): a copy of the kept one, renamed."""
        return self.deal(s.game, s.rng)

    def deal(self, game: "Game", generator: int) -> "State":
        """The state the setup gives a state of ``game`` seated as the kept one, whose generator is ``generator``."""
        order = list(self.before)
        drawn = rng.shuffle(generator, order)
        placed = sorted(order, key=self.class_of.__getitem__)  # by class, each in the shuffled order
        placed += self.fixed
        t = self.state.clone()
        t.game, t.rng = game, drawn
        zones, zone_of = t.zones, t.zone_of
        for c, z in zip(placed, self.zone_at):
            zone_of[c] = z
        for z, plan in self.plans:
            zones[z] = [placed[i] for i in plan]
        zone = self.zone
        zones[zone] = [c for c in order if zone_of[c] == zone]
        return t


def make_deal(s: "State", run: Callable[["State"], None]) -> "tuple[State, Deal | None]":
    """Run the setup on ``s`` with its shuffle left out: the deal to keep when the checks hold (see the module).

    Returns the state to play — ``s`` set up by ``run`` as usual when no deal is
    kept, else the deal's replay for ``s`` — and the deal (None: none).
    """
    game = s.game
    if max(game.face_count, default=1) != 1:
        run(s)
        return s, None
    trial = s.clone()
    trial.__class__ = _Unshuffled
    seen: list[tuple[FixedFilter | None, tuple[Any, ...] | None]] = []
    with _TRIAL:  # one trial at a time: the conditions used are noted in one shared list
        _Unshuffled.shuffled = []
        FixedFilter.watching = seen
        try:
            run(trial)
        except EffectRuntimeError:
            trial = None  # type: ignore[assignment]
        finally:
            FixedFilter.watching = None
            shuffled, _Unshuffled.shuffled = _Unshuffled.shuffled, []
    deal = _deal(trial, shuffled, seen) if trial is not None and len(shuffled) == 1 else None
    if deal is None:
        run(s)
        return s, None
    return deal.replay(s), deal


def _deal(trial: "State", shuffled: list[tuple[int, list[int], int]],
          seen: list[tuple[FixedFilter | None, tuple[Any, ...] | None]]) -> Deal | None:
    """The deal the trial run shows, or None when a check fails."""
    zone, before, at = shuffled[0]
    n = len(trial.face)
    signature: list[tuple[bool, ...]] = [()] * n
    accepted: list[list[int]] = []
    for kept, key in seen[at:]:  # the conditions the moves after the shuffle used
        if kept is None:
            return None  # a move whose condition is not kept
        env: list[Any] = [None] * (max((kept.slot, *kept.keys)) + 1)
        for slot, value in zip(kept.keys, key):
            env[slot] = value
        try:
            mask = []
            for c in range(n):
                env[kept.slot] = c
                mask.append(bool(kept.where(trial, env)))
        except (EffectRuntimeError, TypeError):
            return None
        accepted.append([c for c in range(n) if mask[c]])
        signature = [old + (m,) for old, m in zip(signature, mask)]
    if any(len({signature[c] for c in group}) > 1 for group in accepted):
        return None  # a condition accepts components that others tell apart
    left = trial.zones[zone]
    if any(c not in before for c in left) or left != [c for c in before if c in set(left)]:
        return None  # something was added to the shuffled zone, or it was reordered
    classes: dict[tuple[bool, ...], int] = {}
    class_of = {c: classes.setdefault(signature[c], len(classes)) for c in before}
    place = {c: i for i, c in enumerate(sorted(before, key=class_of.__getitem__))}  # the k-th of a class: its place
    touched = [z for z, items in enumerate(trial.zones) if z != zone and any(c in place for c in items)]
    fixed = [c for z in touched for c in trial.zones[z] if c not in place]
    place.update((c, len(before) + i) for i, c in enumerate(fixed))
    plans = tuple((z, tuple(place[c] for c in trial.zones[z])) for z in touched)
    at = {c: z for z in touched for c in trial.zones[z]}
    zone_at = tuple(at.get(c, zone) for c in sorted(before, key=class_of.__getitem__))
    kept_state = trial.clone()
    kept_state.__class__ = State
    return Deal(kept_state, zone, tuple(before), class_of, plans, tuple(fixed), zone_at)


class _Unshuffled(State):
    """A state whose ``shuffle`` leaves the zone as it is and notes it (the trial run of a deal)."""

    __slots__ = ()
    shuffled: list[tuple[int, list[int], int]] = []  # (zone, its order then, how many conditions were used before)

    def shuffle(self, zone: int) -> None:
        watching = FixedFilter.watching
        _Unshuffled.shuffled.append((zone, list(self.zones[zone]), len(watching) if watching is not None else 0))
