"""What a seat may know, and full states sampled from it (determinizations).

A zone's declared ``hidden`` level says what each seat sees of it, exactly as
:meth:`State.observation` shows it:

* ``none``: everyone sees the contents in order;
* ``others``: the owning role's seat sees the contents in order, other seats
  only the count (a zone without an owner shows only its count);
* ``order``: the owner sees which components are there but not their order,
  other seats only the count;
* ``all``: everyone sees only the count;
* ``owner``: a per-role zone held facing away (cards their owner may not
  look at): every seat sees the contents in order but the owning role's
  seat, which sees only the count.

A hidden per-role zone may declare ``owner_known: CONDITION``: everyone
knows the components satisfying it stay with that role (say, the base cards
every player holds), though not in which of its unseen zones they are.

Search agents that must not cheat plan on a *determinization*: a clone of the
real state in which everything the seat cannot see is drawn again at random.
The components of every zone the seat sees only as a count are pooled by
kind, sorted by id, shuffled and dealt back zone by zone: each place gets a
component of the kind it held (kinds are public, like the backs of cards),
so each zone keeps its count of each kind; each
such component shows its first face, the face every component starts with
(faces of unseen components are unseen too) — except a kind that ``toss()``
has thrown (dice): its unseen components land on a face drawn at random.
The values of their own counters (``per:`` their kind) are dealt again among
them too, kind by kind: the seat knows how many unseen components hold each
value, not which ones.  Zones whose contents the seat
sees but not their order are reshuffled in place.  With hidden roles
(``roles: {hidden: true}``), the roles dealt at random that the seat does not
play are dealt again among the places they hold, groups dealt as one staying
together (each place keeps its seat and its turns).  A block's slice
that holds something hidden draws it again itself (its ``determinize``,
see :mod:`engine.core.slices`).  The state's own
generator is reseeded, so future chance is not known either.  An effect
waiting for a choice keeps what it did before the question: its dice, and
its replay (a sample has no coroutine of its own) starts from the real
position before the effect with the real generator, so it shuffles and
draws as the game did and reaches the same question; the sample's redeal
is then put back (see engine.blocks.choices).  A copy of a sample answered
since replays to where the sample was drawn, takes the sample's fields as
drawn, then gives the later answers as the sample got them.  Without coroutines (no
``greenlet``) the sample's own position is replayed instead, which may
not reach the question again.

The result depends only on what the seat observes (with the kinds in each
unseen place) and on ``rng``: two states that differ only in what the seat
cannot see give equal determinizations for equal generators.  It is consistent with the current observation, not with
the history of the game (a hand the rules dealt face down is sampled from all
unseen components, even if the rules fixed what it holds).

Example::

    sample = determinize(state, 1, random.Random(0))
    assert sample.observation(1) == state.observation(1)
"""

from __future__ import annotations

import random
from numbers import Integral
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from engine.core.facedown import FaceDown
from engine.core.showtext import cut
from engine.core.shown import places_of, repoint, shown, shown_to
from engine.core.slices import Chance, determinized, observed

if TYPE_CHECKING:
    from engine.core.views import GameData, StateData

S = TypeVar("S", bound="StateData")  # the state given, whatever its class, is the kind of state returned
Marked = list[tuple[list[tuple[int, ...]], list[tuple[int, ...]]]]
"""By kind, the counter slots of each unseen component and the values they hold, sorted (see :func:`_marked_unseen`)."""

SEEN = "seen"
UNORDERED = "unordered"
UNSEEN = "unseen"


def zone_view(state: "StateData", zone: int, seat: int) -> str:
    """How ``seat`` sees a zone: SEEN (contents and order), UNORDERED (contents only) or UNSEEN (count only)."""
    game = state.game
    hidden = game.zone_spec_of[zone].hidden
    if hidden == "none":
        return SEEN
    owner = game.zone_owner[zone]
    mine = owner is not None and state.seat_of.get(owner) == seat
    if hidden == "owner":  # held facing away: every seat sees it but its owner's
        return UNSEEN if mine else SEEN
    if mine and hidden == "others":
        return SEEN
    if mine and hidden == "order":
        return UNORDERED
    return UNSEEN


def listed(state: "StateData", zone: int) -> list[int]:
    """The components of ``zone`` in the order a step offers them to the role deciding: as they lie, unless
    its seat does not see their order (a zone ``hidden: order``, or one it sees only as a count, searched through):
    then in the order the components are declared, so that the order of the actions tells nothing the seat may not
    know (the next draw).

    Example: ``[f"commit {names[c]}" for c in listed(state, hand)]``, for a hand ``hidden:
    order``, in the order the ruleset declares them; for a hand ``hidden: others`` of the role deciding, as it lies.
    """
    items = state.zones[zone]
    game = state.game
    hidden = game.zone_spec_of[zone].hidden
    if hidden == "none" or len(items) < 2 or hidden == "others" and game.zone_owner[zone] == state.acting_role \
            or hidden == "owner" and game.zone_owner[zone] != state.acting_role:
        return items
    return sorted(items)


def seen_parts(state: "StateData", seat: int) -> dict[str, Any]:
    """What the blocks' parts of the state (sealed numbers and cells, face-down cells, ...) show ``seat``, as its
    observation holds them; seat 0, no seat's: what every seat sees of them.

    Example: ``seen_parts(state, 0)["committed_numbers"]["sealed"]`` is ``[]``, whoever sealed a bid.
    """
    return observed(state, seat)


def zones_seen_as(state: "StateData", seat: int, view: str) -> list[int]:
    """The indices of the zones ``seat`` sees as ``view``."""
    return [z for z in range(len(state.zones)) if zone_view(state, z, seat) == view]


def determinize(state: S, seat: int, rng: random.Random) -> S:
    """A clone of ``state`` with everything ``seat`` may not see drawn at random from ``rng`` (a ``random.Random``:
    anything else is a TypeError).  A seat the game lacks is a ValueError, as in ``state.observation(seat)``."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"determinize draws from a random.Random, not {type(rng).__name__}")
    return determinizer(state, seat)(rng)


def determinizer(state: S, seat: int) -> Callable[[random.Random], S]:
    """``determinize(state, seat, rng)`` for one state and seat, drawn many times (ISMCTS draws one per iteration):
    which zones the seat cannot see, or sees without their order, is worked out once.

    Example: ``draw = determinizer(state, 1); samples = [draw(rng) for _ in range(100)]`` draws what
    ``[determinize(state, 1, rng) for _ in range(100)]`` does.
    """
    if isinstance(seat, bool) or not isinstance(seat, Integral) or not 1 <= seat <= state.players:
        raise ValueError(f"there is no seat {cut(repr(seat), 60)}: the seats are 1 to {state.players}")
    unseen, unordered = zones_seen_as(state, seat, UNSEEN), zones_seen_as(state, seat, UNORDERED)
    marked = _marked_unseen(state, unseen)
    return lambda rng: _determinized(state, seat, rng, unseen, unordered, marked)


def _determinized(state: S, seat: int, rng: random.Random, unseen: list[int], unordered: list[int], marked: Marked) -> S:
    """:func:`determinize`, given the zones ``seat`` cannot see and those it sees without their order, and the
    counters of the unseen components (:func:`_marked_unseen`)."""
    sample = state.clone()
    paused = sample.pending
    if paused is not None:  # an effect waits: what the game changed while it waited is kept for its replay ...
        sample.pending = paused.sampled(sample)
    places = places_of(sample)  # what some roles were shown: what lies there after the deal is what they saw
    _deal_unseen(sample, unseen, rng, _pinned(sample, unseen, seat))
    _deal_counters(sample, marked, rng)
    for zone in unordered:
        items = sample.zones[zone]
        items.sort()
        rng.shuffle(items)
    _deal_roles(sample, seat, rng)
    sample.slices = determinized(sample, seat, rng)
    repoint(sample, places)
    sample.rng = rng.getrandbits(64)
    if sample.pending is not None:  # ... the redeal is not: the effect replays on the real position, then this one's
        sample.pending = sample.pending.noting(sample)
    sample._actions = None  # a different position: its legal actions are worked out again
    return sample


def _marked_unseen(state: "StateData", zones: list[int]) -> Marked:
    """For each kind with counters of its own among the components of ``zones``: the slots of those counters, by
    component in the order of their ids, and the values they hold, sorted (which component holds which is left out);
    a kind whose components all hold the same values is left out.

    Example: two unseen tiles of one kind, one of them marked once: ``[([(4,), (5,)], [(0,), (1,)])]``.
    """
    slots_of, kind_of = state.game.counter_slots, state.game.component_kind
    by_kind: dict[str, list[int]] = {}
    for zone in zones:
        for cid in state.zones[zone]:
            if slots_of[cid]:
                by_kind.setdefault(kind_of[cid], []).append(cid)
    marked = []
    for kind in sorted(by_kind):
        slots = [slots_of[cid] for cid in sorted(by_kind[kind])]
        values = sorted(tuple(state.counters[i] for i in slot) for slot in slots)
        if values[0] != values[-1]:  # all alike (unmarked cards): nothing to deal, no number drawn
            marked.append((slots, values))
    return marked


def _deal_counters(sample: "StateData", marked: Marked, rng: random.Random) -> None:
    """Deal the values of the unseen components' own counters again among the components of each kind: the seat
    knows how many of them hold each value, not which (a mark on a hidden card travels with the card's secret)."""
    for slots, values in marked:
        dealt = values[:]
        rng.shuffle(dealt)
        for slot, value in zip(slots, dealt):
            for i, v in zip(slot, value):
                sample.counters[i] = v


def has_hidden_information(game: "GameData") -> bool:
    """Whether some seat may not see everything: a hidden zone, hidden roles, a sealed decision, or pieces that may lie
    face down (``face_down: true``).

    Example: a game whose hands are ``hidden: others`` has hidden information; a board game played in the open
    has none (search bots pick ISMCTS for the first and plain MCTS for the second).
    """
    if any(spec.hidden != "none" for spec in game.zone_specs.values()):
        return True
    if game.roles is not None and game.roles.hidden:
        return True
    return any(step.sealed for step in game.steps) or FaceDown.block in game.parts


def hidden_roles(state: "StateData", seat: int) -> list[str]:
    """The roles ``seat`` cannot tell apart, in the order they are dealt: with hidden roles, those of
    the groups dealt at random (``roles.shuffle``) that hold none of its own; otherwise none.  A
    single such group is known by elimination: none then.

    Example: four roles A-D all dealt at random and hidden, seat 1 playing B: ``['A', 'C', 'D']``;
    dealt in pairs ``[[A, C], [B, D]]``, seat 1 playing B and D: ``[]``.
    """
    return [r for group in _hidden_groups(state, seat) for r in group]


def _hidden_groups(state: "StateData", seat: int) -> list[tuple[str, ...]]:
    """The groups of roles dealt at random that ``seat`` does not play; none when that is a single group of
    several roles, which the seat knows by elimination."""
    roles = state.game.roles
    if roles is None or not roles.hidden:
        return []
    groups = [g for g in roles.groups(state.players) if all(state.seat_of.get(r) != seat for r in g)]
    return groups if len(groups) > 1 or any(len(g) == 1 for g in groups) else []


def relabel_roles(state: "StateData", mapping: dict[str, str]) -> None:
    """Each role ``r`` in ``mapping`` is replaced by ``mapping[r]``: in the deal, the seating and the turn order.

    ``mapping`` must be a permutation of its keys.  Example: ``relabel_roles(s, {"A": "C", "C": "A"})``
    gives A's seat and turns to C and C's to A.
    """
    state.positions = tuple(mapping.get(r, r) for r in state.positions)
    state.seat_of = {mapping.get(r, r): seat for r, seat in state.seat_of.items()}
    state.order = tuple(mapping.get(r, r) for r in state.order)


def _deal_roles(sample: "StateData", seat: int, rng: random.Random) -> None:
    """Deal the groups of roles ``seat`` cannot tell apart again among the places in the deal that they hold."""
    groups = _hidden_groups(sample, seat)
    if len(groups) < 2:
        return
    drawn = groups[:]
    rng.shuffle(drawn)
    places = sorted((tuple(sample.positions.index(r) for r in g) for g in groups), key=min)
    relabel_roles(sample, {sample.positions[i]: role for group, place in zip(drawn, places) for role, i in zip(group, place)})


def _pinned(state: "StateData", zones: list[int], seat: int) -> set[int]:
    """The components of ``zones`` shown to ``seat`` (``show(..., to = r)``): it knows them where they lie."""
    if shown(state) is None:
        return set()
    return {cid for zone in zones for cid in state.zones[zone] if shown_to(state, cid, seat)}


def _drop_kept_counts(sample: "StateData", dealt: set[int]) -> None:
    """Forget the counts the state keeps of the zones about to be ``dealt`` anew (their components change, and turn to
    their first face or a thrown one), and the board's cells by value if the board is one of them; the counts of every
    other zone stay exact, so a search's copies of the sample read them instead of counting those zones again.

    >>> from engine.core.tallies import Tally
    >>> class Sample:
    ...     game = type("G", (), {"board_zone": -1})
    ...     tallies = {Tally(0, ["a"]): {"a": 1}, Tally(1, ["a"]): {"a": 0}}
    ...     face_tallies, same_faces, by_value = {}, {}, {}
    >>> s = Sample(); _drop_kept_counts(s, {0}); [tally.zone for tally in s.tallies]
    [1]
    """
    sample.tallies = {tally: counts for tally, counts in sample.tallies.items() if tally.zone not in dealt}
    sample.face_tallies = {tally: counts for tally, counts in sample.face_tallies.items() if tally.zone not in dealt}
    sample.same_faces = {tally: value for tally, value in sample.same_faces.items() if tally.zone not in dealt}
    if sample.game.board_zone in dealt:
        sample.by_value = {}


def _deal_unseen(sample: "StateData", zones: list[int], rng: random.Random, pinned: set[int]) -> None:
    """Pool the components of ``zones`` by kind, shuffle them and deal them back: every place gets a
    component of the kind it held, so each zone keeps its count of each kind.

    A component's kind is taken as public, like the back of a card (a deck of
    one kind of card is never dealt another kind).  Components a zone's
    ``owner_known`` condition marks are known to stay with that zone's owner:
    they are dealt again only among the owner's unseen zones, topped up from
    the common pool of their kind.  The ``pinned`` components (shown to the
    seat) stay where they lie, and are dealt to no other place.
    """
    game = sample.game
    kind_of = game.component_kind
    chance = sample.slices.get(Chance.block)  # the kinds thrown like dice
    tossed = set(chance.tossed or ()) if chance else set()
    kept: dict[tuple[str | None, str], list[int]] = {}
    common: dict[str, list[int]] = {}
    for zone in zones:
        owner, known = game.zone_owner[zone], game.zone_spec_of[zone].owner_known
        for cid in sample.zones[zone]:
            if cid in pinned:
                continue
            kind = kind_of[cid]
            pool = kept.setdefault((owner, kind), []) if known is not None and known(sample, cid) else common.setdefault(kind, [])
            pool.append(cid)
    for kind in sorted(common):
        common[kind].sort()
        rng.shuffle(common[kind])
    by_owner: dict[str | None, list[int]] = {}
    for zone in zones:
        by_owner.setdefault(game.zone_owner[zone], []).append(zone)
    _drop_kept_counts(sample, set(zones))
    for owner, owned in by_owner.items():
        places: dict[str, int] = {}
        for zone in owned:
            for cid in sample.zones[zone]:
                if cid not in pinned:
                    places[kind_of[cid]] = places.get(kind_of[cid], 0) + 1
        hands: dict[str, list[int]] = {}
        for kind in sorted(places):
            hand = sorted(kept.get((owner, kind), []))
            need = places[kind] - len(hand)
            pool = common.get(kind, [])  # none when every unseen component of the kind stays with its owner
            hand += pool[:need]
            del pool[:need]
            rng.shuffle(hand)
            hands[kind] = hand
        for zone in owned:
            sample.zones[zone] = [cid if cid in pinned else hands[kind_of[cid]].pop() for cid in sample.zones[zone]]
            for cid in sample.zones[zone]:
                if cid in pinned:
                    continue
                sample.zone_of[cid] = zone
                sample.face[cid] = rng.randrange(game.face_count[cid]) if kind_of[cid] in tossed else 0
