"""Which way a pile grew: the piles whose components the rules lay on their top are listed from the bottom up.

A pile (``kind: pile``) lies top first.  Most piles grow underneath (a trick: each card put under the card led, so
listed as it lies it reads in the order played), but a pile the rules lay components on top of (``move(...,
on_top = true)``: a row of cards, a discard pile) lies the last laid first: listed as it lies, a row laid 38, then
41 read ``41, 38``.  The terminal (``rulecraft play``) and the browser's table tell which way each pile grew from
the moves played, each pile by the last move that laid a component beside others there, and list a pile laid on
its top from the bottom up, as it was laid, its top last.

A pile of nobody's (a trick, a discard pile) also tells whose each component is: the browser's table and the terminal
name, beside each, the role whose zone the move that put it there took it from (``5S A`` on the page, ``5S (A)`` at
the terminal: role A played it), told from the same moves.

Typical use::

    grown = [pile_growth(before, after)]      # after each move: [((3, True),)]: pile 3 was laid on its top
    on_top = laid_on_top(grown)               # frozenset({3}): list pile 3 reversed
    came = played_from([pile_arrivals(before, after)])   # {17: 5}: component 17 came from zone 5 (a hand)
    brought_from(after, 3, False, came, names)         # ['hand of A', None]: the first came from A's hand
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from engine import Game, State

Growth = tuple[tuple[int, bool], ...]
"""The piles one move laid components on while others stayed there, each with whether on top (True) or under."""


def pile_growth(before: State, after: State) -> Growth:
    """Each pile (``kind: pile``) that components joined while others stayed in it, and whether they went on its top
    (True: before every component already there, as ``move(..., on_top = true)`` puts them) or under it (False: after
    them, a move's usual way); a pile that was empty tells neither.

    >>> import engine
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> pile_growth(s, s.clone())
    ()
    """
    game, grown = after.game, []
    for zi, spec in enumerate(game.zone_spec_of):
        if spec.kind != "pile" or before.zones[zi] == after.zones[zi]:
            continue
        was = set(before.zones[zi])
        joined = [i for i, c in enumerate(after.zones[zi]) if c not in was]
        stayed = [i for i, c in enumerate(after.zones[zi]) if c in was]
        if joined and stayed and (max(joined) < min(stayed) or min(joined) > max(stayed)):
            grown.append((zi, max(joined) < min(stayed)))
    return tuple(grown)


def laid_on_top(grown: Iterable[Growth]) -> frozenset[int]:
    """The piles the last of the moves (``grown``, each one's :func:`pile_growth`, in the order played) to grow them
    grew on their top: their components lie the last laid first, so they are listed from the bottom up.

    >>> laid_on_top([((3, True), (4, False)), ((4, True),)])
    frozenset({3, 4})
    """
    on_top: dict[int, bool] = {}
    for growth in grown:
        on_top.update(growth)
    return frozenset(zone for zone, top in on_top.items() if top)


Arrivals = tuple[tuple[int, int], ...]
"""The components one move put into piles of nobody's, each with the zone it lay in before the move (-1: none)."""


def pile_arrivals(before: State, after: State) -> Arrivals:
    """Each component that joined a pile no role owns (``kind: pile``, not ``per: role``) in the move from ``before``
    to ``after``, with the zone it lay in before (-1: none, a component new to the game).

    >>> import engine
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> pile_arrivals(s, s.clone())
    ()
    """
    game, arrived = after.game, []
    where = {c: zi for zi, zone in enumerate(before.zones) for c in zone}
    told = (after.log or [])[len(before.log or []):]  # what the move's log said, every seat reading it
    for zi, spec in enumerate(game.zone_spec_of):
        if spec.kind != "pile" or game.zone_owner[zi] is not None or before.zones[zi] == after.zones[zi]:
            continue
        was = set(before.zones[zi])
        for c in after.zones[zi]:
            if c not in was:
                source = where.get(c, -1)
                if source < 0 or game.zone_owner[source] is None:  # drawn and laid in one move: from the hand it passed
                    source = told_from(game, told, game.piece_names[c], zi, source)
                arrived.append((c, source))
    return tuple(arrived)


def told_from(game: Game, told: list[str], piece: str, pile: int, otherwise: int) -> int:
    """The zone of a role the log lines ``told`` last said ``piece`` went from into ``pile`` (``hand of A: 5S ->
    trick``), else ``otherwise``: a card drawn and laid in one move came from the deck, but was laid from a hand.

    >>> from types import SimpleNamespace as S
    >>> game = S(zone_names=["deck", "hand of A", "trick"], zone_owner=[None, "A", None])
    >>> told_from(game, ["deck: 1 component -> hand of A", "hand of A: 5S -> trick"], "5S", 2, 0)
    1
    """
    into = (f" -> {game.zone_names[pile]}", f" -> the top of {game.zone_names[pile]}")
    for line in reversed(told):
        if not line.endswith(into):
            continue
        where, _, names = line[:line.rindex(" -> ")].partition(": ")
        if where in game.zone_names and piece in names.split(", "):
            zone = game.zone_names.index(where)
            return zone if game.zone_owner[zone] is not None else otherwise
    return otherwise


def played_from(arrivals: Iterable[Arrivals]) -> dict[int, int]:
    """The zone each component last came from into a pile of nobody's, over the moves' :func:`pile_arrivals` in the
    order played (a later arrival, from anywhere, replaces an earlier one).

    >>> played_from([((7, 2),), ((7, 4), (8, -1))])
    {7: 4, 8: -1}
    """
    came: dict[int, int] = {}
    for arrived in arrivals:
        came.update(arrived)
    return came


def brought_from(state: State, zone: int, laid: bool, came_from: dict[int, int], listed: list[str]) -> list[str | None]:
    """For each component of pile ``zone`` as a view lists it (``listed``, by name: reversed when ``laid`` on its
    top), the zone of a role it came from (``came_from``, :func:`played_from`), None where it came from
    nobody's zone or before the first move; only in a pile open to all, where the log told every seat from where it
    came (else, or where the list is not the pile as it lies, ``[]``: none marked).

    Example: a pile where role A laid a card from its hand, then role B: ``['hand of A', 'hand of B']``.
    """
    game = state.game
    if game.zone_spec_of[zone].hidden != "none":
        return []
    cids = list(state.zones[zone])[::-1] if laid else list(state.zones[zone])
    if [game.piece_names[c] for c in cids] != listed:
        return []
    return [game.zone_names[came_from[c]] if came_from.get(c, -1) >= 0 and game.zone_owner[came_from[c]] else None
            for c in cids]
