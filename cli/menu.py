"""The legal actions in the order a player reads them: those playing a card from a hand in the hand's own order.

A hand (``kind: hand``) is listed in the order the ruleset declares its components (see
:func:`cli.zone_listing.as_held`), so the actions that play or choose a card from the hand the seat sees are listed in
that order too, at the terminal (``rulecraft play``, whose numbers count in this list) and on the web page alike;
every other action keeps its place.  Only the listing changes: the engine's actions, their order for bots and
replays, and every log stay as they are.

Typical use::

    for number, action in enumerate(menu(state), 1):
        print(f"[{number}] {action}")             # the cards of a hand as the hand shows them, not as dealt
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cli.nearest import nearest
from engine.blocks.choice_labels import chosen_components
from engine.core.errors import did_you_mean
from engine.core.information import UNSEEN, zone_view

if TYPE_CHECKING:
    from engine import State
    from engine.core.actions import Action
    from engine.core.errors import IllegalActionError


def played_components(state: State, action: Action) -> list[int]:
    """The components ``action`` plays: the one it chooses when it answers a choice among components (each of a list
    chosen together), else those its
    step uses (places, picks, commits, casts: the step's ``used_components``); none for any other action (a pass).

    Example: for ``place A at 0,0`` from a bag, ``played_components(state, action)`` is ``[cid]``, A's component.
    """
    pending = state.pending  # while a choice is pending, every legal action answers it with one of its labels
    if pending is None:
        used = state.game.steps[state.step].used_components(action.args)
        return [c for c in used if isinstance(c, int) and 0 <= c < len(state.zone_of)]
    return list(chosen_components(pending, action.args[0]))  # each of a list of them chosen together too


def menu(state: State) -> list[Action]:
    """``state``'s legal actions as they are listed: the actions playing a card from a hand the seat to move sees
    sorted among themselves by the order the ruleset declares the cards (a stable sort: one card's actions keep
    their order), each in the place one of them held; the others where the engine lists them.

    Example: a hand dealt ``A7, A4`` offers ``choose A7, choose A4``; listed, ``choose A4, choose A7``, as the hand
    shows them.
    """
    actions = list(state.legal_actions())
    seat = state.seat_to_move
    if seat is None:
        return actions
    game = state.game
    rank = {name: i for i, name in reversed(list(enumerate(game.piece_names)))}
    ranks: dict[int, tuple[int, ...]] = {}  # an action's place -> the declared places of the cards it plays from a hand
    for i, action in enumerate(actions):
        held = sorted(rank[game.piece_names[cid]] for cid in played_components(state, action)
                      if game.zone_spec_of[state.zone_of[cid]].kind == "hand"
                      and zone_view(state, state.zone_of[cid], seat) != UNSEEN)
        if held:  # several cards chosen together: by their places, the lowest first
            ranks[i] = tuple(held)
    places = sorted(ranks)
    listed = list(actions)
    for place, i in zip(places, sorted(places, key=lambda i: ranks[i])):
        listed[place] = actions[i]
    return listed


MOST_SUGGESTED = 2000
"""The most legal actions an action refused is compared with for a "did you mean" (more: the reason alone)."""


def why_refused(state: State, text: str, err: IllegalActionError) -> str:
    """The engine's reason ``text`` is not a legal action now (``err``), with the legal action nearest it, as the
    engine suggests a name near a misspelt one: what ``rulecraft play`` and the web table say alike.

    Example: on a choice among ``choose A7``, ``choose B4``, ``why_refused(state, "chose A7", err)``
    ends ``(did you mean 'choose A7'?)``; an action whose numbers alone are wrong is told the one of its words with
    the nearest numbers (:func:`cli.nearest.nearest`): ``place X at 9,9`` on a 3x3 board, ``place X at 2,2``.
    """
    legal = state.legal_actions()
    if not 0 < len(legal) <= MOST_SUGGESTED:
        return str(err)
    listed = [str(a) for a in menu(state)]
    near = nearest(text, listed)  # the same words, the nearest numbers (a cell off the board: the nearest on it)
    hint = f"did you mean '{near}'?" if near is not None else did_you_mean(text, listed)
    return f"{err} ({hint})" if hint else str(err)


def why_typed_refused(state: State, text: str, err: IllegalActionError) -> str:
    """Why ``text``, typed where actions are looked for by a part of them and naming none, is refused: a single word
    is said to name no action, then read as one (:func:`why_refused`), as ``rulecraft play`` says it.

    Example: ``why_typed_refused(state, "zz", err)`` starts ``no action contains 'zz'; read as an action: ``.
    """
    reason = why_refused(state, text, err)
    return reason if any(c.isspace() for c in text.strip()) else f"no action contains '{text}'; read as an action: {reason}"
