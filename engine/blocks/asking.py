"""Which effects can choose, known when the ruleset is compiled: code that calls ``choose`` can; code that changes
the game through a call or an assignment can if it may run a hook that can (:func:`may_ask`).  An effect that cannot
runs directly on the state — no coroutine, no position kept — even in a ruleset whose other effects choose
(:func:`runs_directly`); one whose only question comes before anything it changes asks first (:func:`asks_first`).

>>> vocab = Vocabulary()
>>> note_asking(vocab, {ASKS, RUNS})   # a hook that chooses: code that changes the game may ask now
>>> may_ask(vocab, frozenset({RUNS}))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.lang.scope import ASKS, ASKS_LATE, RUNS, Vocabulary

if TYPE_CHECKING:
    from engine.blocks.context import GameView


CHOOSES = "chooses"
"""Vocabulary data key: set when some code of the ruleset calls ``choose`` (its effects then run as coroutines)."""


NESTED_ASKS = "nested code asks"
"""Vocabulary data key: set when code that other code may run (a hook) calls ``choose`` (see :func:`may_ask`)."""


def may_ask(vocab: Vocabulary, reach: "frozenset[str] | None") -> bool:
    """Whether code that may do ``reach`` (its scope's :attr:`~engine.lang.scope.Scope.reach`; None: not known) can choose.

    Code that calls ``choose`` can; code that changes the game (``RUNS``) can when a hook of the
    ruleset calls ``choose`` (a change may run such a hook, which may run another).

    >>> vocab = Vocabulary()
    >>> may_ask(vocab, frozenset({RUNS})), may_ask(vocab, frozenset({ASKS})), may_ask(vocab, None)
    (False, True, True)
    >>> vocab.data[NESTED_ASKS] = True
    >>> may_ask(vocab, frozenset({RUNS})), may_ask(vocab, frozenset())
    (True, False)
    """
    if reach is None or ASKS in reach:
        return True
    return RUNS in reach and bool(vocab.data.get(NESTED_ASKS))


def note_asking(vocab: Vocabulary, reach: set[str]) -> None:
    """Record code that other code may run (a hook), compiled with ``reach``: if it chooses, so may what runs it.

    >>> vocab = Vocabulary()
    >>> note_asking(vocab, {RUNS}); may_ask(vocab, frozenset({RUNS}))
    False
    >>> note_asking(vocab, {ASKS, RUNS}); may_ask(vocab, frozenset({RUNS}))
    True
    """
    if ASKS in reach:
        vocab.data[NESTED_ASKS] = True


def runs_directly(game: "GameView", step: int, key: Any) -> bool:
    """Whether the effect ``key`` of turn step ``step`` runs directly on the state: nothing it may do can choose.

    Known from the compiled ruleset (the step says what its effect may do, see
    :meth:`~engine.blocks.steps.Step.effect_reach`); :func:`~engine.blocks.choices.run_effect` runs the
    others as coroutines.  Example: ``runs_directly(game, 2, "effect")`` for a
    ``do`` step whose program never calls ``choose`` nor runs a hook that does.
    """
    if not game.vocab.data.get(CHOOSES):
        return True
    found = game.steps[step]
    known = found.direct
    direct = known.get(key)
    if direct is None:
        direct = known[key] = not may_ask(game.vocab, found.effect_reach(game, key))
    return direct


def asks_first(game: "GameView", step: int, key: Any) -> bool:
    """Whether the effect ``key`` of turn step ``step``, which may choose, can only ask once, before it changes the game.

    Its code has one ``choose``, written before any change and outside loops (no :data:`ASKS_LATE` in its reach),
    and no change it makes can run a hook that chooses.  Such an effect needs no coroutine and no copy of the
    position: it runs on the state and its first question stops it (unwinding) where the state still is the position
    before the effect (its dice, the only thing it may have changed, put back); the answer runs it again from the
    start with the answers (see :func:`engine.blocks.choices.run_effect`).  Example: ``let c = choose(x in empty_cells)`` then ``place(...)``.
    """
    found = game.steps[step]
    known = found.asking
    first = known.get(key)
    if first is None:
        reach = found.effect_reach(game, key)
        first = known[key] = (reach is not None and ASKS in reach and ASKS_LATE not in reach
                              and not (RUNS in reach and game.vocab.data.get(NESTED_ASKS)))
    return first
