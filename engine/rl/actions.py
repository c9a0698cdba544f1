"""The fixed action table of a game: every action text its steps and choices could offer, numbered.

Index ``i < len(texts)`` is the action whose text is ``texts[i]`` (see
:mod:`engine.blocks.enumeration`: the steps list them from the compiled game, in
turn-step order, then the answers to ``choose``).  Where a step lists its
texts without a part the position decides (its
:attr:`~engine.blocks.enumeration.Texts.canonical`: a match without which pieces it
reads as other values), an offered text stands at the index of its shortened
form; two legal actions at one index would be a fault of that step, and are
raised, never hidden.  Only when some decision cannot be listed at all (a
choice among computed values) does the table end with ``ranked`` more
indices: index ``len(texts) + k`` is the k-th (from 0) of the position's
legal actions that are not listed, in the engine's order; legal actions
beyond the ``ranked``-th are not offered.

The numbering depends only on the compiled game (ruleset, variants and
options), so a policy trained on it stays valid while the ruleset does not
change.

Example::

    table = ActionTable(engine.load("my-game"))
    legal = table.legal(state)            # {index: engine action} for the seat to move
    state.apply(legal[min(legal)])
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Integral
from typing import TYPE_CHECKING

from engine.blocks.choice_labels import CHOOSE_WORD
from engine.blocks.enumeration import MOST_TEXTS, Texts, choice_texts, distinct
from engine.core.errors import RulecraftError
from engine.core.showtext import cut
from engine.model.game import Game
from engine.model.state import State

if TYPE_CHECKING:
    from engine.core.actions import Action

RANKED = 256
"""Indices kept, by default, for the legal actions of a decision that cannot be listed (only when there is one)."""


@dataclass(frozen=True)
class Source:
    """Where listed actions come from: a turn step (by index) or the answers to ``choose``; and what it lists."""

    name: str
    step: int | None  # None: the answers to choose(...)
    texts: Texts


class ActionTable:
    """Every action text of ``game``, numbered, plus ``ranked`` indices for unlisted decisions (when any)."""

    def __init__(self, game: Game, ranked: int = RANKED) -> None:
        if not isinstance(game, Game):  # a ruleset's name failed deep inside with "'str' object has no attribute 'steps'"
            raise TypeError(f"an action table lists the actions of a compiled game (engine.load(...)), not {cut(repr(game), 60)}")
        if not 0 <= ranked <= MOST_TEXTS:  # each index is an entry of every observation's mask
            raise ValueError(f"ranked must be from 0 to {MOST_TEXTS:,} (the indices kept for actions that cannot be "
                             f"listed), not {ranked:,}")
        self.game = game
        self.sources = [Source(f"step {i + 1} ({step.kind})", i, step.action_texts(game)) for i, step in enumerate(game.steps)]
        self.sources.append(Source(f"{CHOOSE_WORD}(...)", None, choice_texts(game)))
        self.texts: tuple[str, ...] = distinct(t for source in self.sources for t in source.texts.texts)
        self.index = {text: i for i, text in enumerate(self.texts)}
        self.canonical = {s.step: s.texts.canonical for s in self.sources if s.texts.canonical is not None}
        self.unlisted_steps = {s.step for s in self.sources if not s.texts.complete}
        self.ranked = ranked if self.unlisted_steps else 0
        self.cut_short = False  # whether a decision has offered more unlisted actions than the ranked indices (warned once)

    def __len__(self) -> int:
        return len(self.texts) + self.ranked

    def describe(self, index: int) -> str:
        """What an index means: its action text, or ``unlisted option K``; an index outside the table is an IndexError.

        Example: ``ActionTable(engine.load("my-game")).describe(0)`` is the first listed text.
        """
        if isinstance(index, bool) or not isinstance(index, Integral):
            raise TypeError(f"an action index is a whole number, not {cut(repr(index), 60)}")
        if not 0 <= index < len(self):
            raise IndexError(f"action index {index} is outside the action table (0 to {len(self) - 1})")
        if index < len(self.texts):
            return self.texts[index]
        return f"unlisted option {index - len(self.texts) + 1}"

    def legal(self, state: State, seat: int | None = None) -> dict[int, "Action"]:
        """The legal actions of the seat to move, by index (empty once the game is over); with ``seat``, that seat's
        (:meth:`State.legal_actions`: its part of a sealed round decided together, none when it has nothing to decide).

        An action whose text is not listed although its step lists all of
        its texts, or two actions at one index, are a fault of that step's
        ``action_texts``: they are raised, never hidden.  A decision offering more unlisted actions than the
        ``ranked`` indices leaves the rest out, with a warning the first time (a UserWarning).
        """
        if not isinstance(state, State):
            raise TypeError(f"an action table lists the legal actions of a state (game.new_state(...)), not {cut(repr(state), 60)}")
        if state.game is not self.game and state.game.content_hash != self.game.content_hash:
            raise ValueError(f"this action table is of {self.game.name}{_with(self.game)}, not of the state's game, "
                             f"{state.game.name}{_with(state.game)}")
        found: dict[int, "Action"] = {}
        source = None if state.pending is not None else state.step
        canonical = self.canonical.get(source)
        rank = 0
        for action in state.legal_actions(seat):
            text = str(action)
            i = self.index.get(text)
            if i is None and canonical is not None:
                i = self.index.get(canonical(text))
            if i is not None:
                if i in found:
                    raise RulecraftError(f"{self.game.name}: the legal actions '{found[i]}' and '{text}' are both "
                                         f"listed as '{self.texts[i]}' in the action table")
                found[i] = action
                continue
            if source not in self.unlisted_steps:
                raise RulecraftError(f"{self.game.name}: the legal action '{text}' is missing from the action table "
                                     f"(its step should list it in action_texts)")
            if rank < self.ranked:
                found[len(self.texts) + rank] = action
            rank += 1
        if rank > self.ranked and not self.cut_short:
            self.cut_short = True
            warnings.warn(f"{self.game.name}: a decision offers {rank} legal actions the action table cannot list, and "
                          f"only the first {self.ranked} have an index (indices {len(self.texts)} to {len(self) - 1}): "
                          "the others are never offered, so the game learned is not quite the game; give more ranked "
                          "indices (env(..., ranked=N), ActionTable(game, ranked=N))",
                          UserWarning, stacklevel=2)
        return found

    def summary(self) -> list[str]:
        """The table in English: its size, what each step lists (and how it shortens texts), and what is offered by
        rank instead."""
        lines = [f"{len(self)} actions: {len(self.texts)} listed action texts"
                 + (f" and {self.ranked} ranked options" if self.ranked else "")]
        for source in self.sources:
            texts = source.texts
            if texts.texts or texts.unlisted:
                shortened = f"; listed without {texts.shortened}" if texts.canonical is not None else ""
                lines.append(f"  {source.name}: {len(texts.texts)} texts{shortened}"
                             + (f"; not listed: {texts.unlisted}" if texts.unlisted else ""))
        if self.ranked:
            lines.append(f"  indices {len(self.texts)}..{len(self) - 1}: the 1st..{self.ranked}th legal action not listed "
                         "(in the engine's order); further ones are not offered")
        return lines


def _with(game: "Game") -> str:
    """A game's variants and options set, as a note after its name (empty when it has neither).

    >>> import engine
    >>> _with(engine.load(engine.builtin_names()[0]))
    ''
    """
    named = [f"variant {'+'.join(game.variants)}"] * bool(game.variants)
    named += [f"{key}={value}" for key, value in game.set_options.items()]
    return f" ({', '.join(named)})" if named else ""
