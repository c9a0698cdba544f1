"""The turn's walk: entering the steps of the turn, finding the next decision, ending the turn and passing it to
the next role in order.

The methods of :class:`~engine.model.state.State` that do it, kept in their own class for the reader
(``State`` inherits it; it holds no data of its own).

Example::

    s.advance()                      # walk the turn to its next decision
    s.next_turn()                    # what a turn's end does
"""

from __future__ import annotations

from typing import Any

from engine.core import limits
from engine.core.errors import EffectRuntimeError, NoMove
from engine.core.slices import TurnOrder
from engine.model.state_fields import StateFields, TurnStart


class TurnFlow(StateFields):
    """The turn's walk: entering its steps, ending it, passing to the next role."""

    __slots__ = ()

    def advance(self) -> None:
        """Move to the next step that needs a decision, ending turns and the game as due: the game's generated turn
        (:mod:`engine.compiling.turn_code`), or the same in a loop over the steps (:meth:`walk_turn`)."""
        turn = self.game.turn
        if turn is not None:
            turn(self)
            return
        self.walk_turn()

    def turn_begins(self) -> None:
        """Note that turn ``turn_number`` begins here: in :attr:`turn_starts` (kept beside the log, with it), the log's
        length now and the role whose turn it is, so that a view prints the turn's own lines (draws, upkeep) under
        its heading, which names whose turn it is even when it asked nobody.

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> turn = s.turn_number; s.play(0)
        >>> s.turn_number == turn or (s.turn_starts[s.turn_number].at <= len(s.log) and s.turn_starts[s.turn_number].role == s.order[s.turn])
        True
        """
        if self.log is not None and self.turn_starts is not None:
            self.turn_starts[self.turn_number] = TurnStart(len(self.log), self.order[self.turn])

    def walk_turn(self) -> None:
        """:meth:`advance` as a loop over the turn's steps, reading each step's settings as it goes: the reference
        the generated turn is tested against, and the turn of a game built without one."""
        steps = self.game.steps
        last = len(steps) - 1
        i = self.step
        turn_order, explicit = TurnOrder.block, self.explicit_chance  # read once: a state never changes the latter
        while True:
            if self.outcome is not None:  # a step ended the game at once
                return
            if i >= last or (turn_order in self.slices and i >= 0 and self._left_mid_turn()):
                self.step = -1
                if self.log is not None and len(self.log) > self.game.limits.log_lines:
                    self._cut_log()
                if self.game.end_turn(self):
                    return
                i = -1
                continue
            i += 1
            step = steps[i]
            condition = step.condition
            if condition is not None and not condition(self, step.env):
                continue
            self.step = i
            if explicit:
                event = step.chance_event(self)
                if event is not None:
                    self.chance = event
                    self._actions = None
                    return
            entered = step.enter(self) if not self.game.no_move and step.refusal is None else self._enter(step)
            if entered is None:  # no legal move: the game is over, or the turn passes
                i = last
                continue
            if entered:
                return

    def _enter(self, step: Any) -> bool | None:
        """Begin ``step`` as :meth:`advance` does (True: a decision waits), in a ruleset that says what befalls a
        player with no legal move (``end: {no_move: ...}``): None when the step, at the first decision of the turn,
        offers nothing (every action refused by ``refuse_if_after`` too), the game then ended or the turn to pass.
        What the step did is undone, its log lines too.

        A step of its own actions (a ``place``, a ``move``) whose every action its ``refuse_if_after`` refuses
        passes (False), as it does with nothing to offer, without ``no_move`` or past the turn's first decision:
        the player was asked with no legal action (a random player failed with a ValueError)."""
        mark = len(self.log) if self.log is not None else 0
        try:
            entered = step.enter(self)
            if not entered or step.refusal is None:
                return entered
            self._actions = None  # what the step listed as it began is judged: now, or when asked (a question)
            if self.pending is not None or len(self.legal_actions()):
                return True
            if not self.game.no_move or self.decided == self.turn_number:
                self._actions = None
                self.note(lambda: f"{self.actor} has nothing to do that the rules allow ({step.refusal.because}) "
                                  "and passes")
                return False
            role = self.acting_role
        except NoMove as stuck:
            role = stuck.role
        if self.log is not None:
            del self.log[mark:]
        self._actions = None
        self.game.cannot_move(self, role)
        return None

    def no_move(self, role: str) -> None:
        """A step (or a ``choose``) found nothing to offer ``role``: at the first decision of a turn, in a ruleset
        that says what then happens (``end: {no_move: ...}``), raise :class:`NoMove` for :meth:`advance` to catch;
        else return, the step passing as usual.  Example: a step with no move calls ``s.no_move(s.acting_role)``."""
        if self.game.no_move and self.decided != self.turn_number:
            raise NoMove(role)

    def _cut_log(self) -> None:
        """Leave out the lines past the ``log_lines`` limit (a ruleset logging 60,000 changes a turn filled the
        memory of ``rulecraft play``); the first line left out becomes one saying so.  (Counter changes and noted
        events stop at the limit as they come; other lines, each a step of the budget at most, wait for the turn's end.)

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> s.log = ["a line"] * (s.game.limits.log_lines + 5); s._cut_log(); s._cut_log()
        >>> len(s.log) - s.game.limits.log_lines, s.log[-1][:31]
        (1, '... the log stops here: it has ')
        """
        most = self.game.limits.log_lines
        if len(self.log or ()) <= most:
            return
        assert self.log is not None
        del self.log[most:]
        self.log.append(f"... the log stops here: it has {most:,} lines, and the game's later lines are left out "
                        f"{limits.exceeded('log_lines', most)}")

    def _left_mid_turn(self) -> bool:
        """Whether the role whose turn it is left the turn order during it: the rest of its turn is skipped."""
        return self.order[self.turn] in self.left_roles()

    def next_turn(self) -> int:
        """The index in turn order of the role that plays the next turn: the same one when it was given another turn
        (``play_again()``), the one named by ``play_next(r)`` — either spent here — when it is still in the turn
        order, else the next one that has not left."""
        part = self.slices.get(TurnOrder.block)
        if part is None:
            return (self.turn + 1) % len(self.order)
        if part.again or part.next is not None:
            if part.left is None:
                del self.slices[TurnOrder.block]
            else:
                self.slices[TurnOrder.block] = part._replace(again=None, next=None)
            chosen = self.turn if part.again else self.order.index(part.next)
            if self.order[chosen] not in (part.left or ()):
                return chosen
        return self.next_in_order()

    def left_roles(self) -> tuple[str, ...]:
        """The roles that left the turn order (``leave(r)``), in the order they left."""
        part = self.slices.get(TurnOrder.block)
        return part.left if part is not None and part.left else ()

    def next_in_order(self) -> int:
        """The index in turn order of the role that plays after the current one, passing over those that left."""
        left = self.left_roles()
        turn = (self.turn + 1) % len(self.order)
        for _ in range(len(self.order) - 1):
            if self.order[turn] not in left:
                break
            turn = (turn + 1) % len(self.order)
        return turn

    def endless_turn(self, most: int) -> EffectRuntimeError:
        """The error of a turn that has taken ``most`` decisions (``limits.turn_decisions``) without passing, at the
        step asking for the next one: what every loop playing a game decision after decision raises there (simulate
        and validate's games, ``rulecraft bench``'s playouts, search rollouts, ``rulecraft play``).

        >>> import engine
        >>> err = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1).endless_turn(3)
        >>> print(err.message)  # doctest: +NORMALIZE_WHITESPACE
        turn 1 has taken 3 decisions without passing: does a step offer choices that never run out?
        (limit turn_decisions=3; raise it with --limit turn_decisions=N)
        """
        step = self.game.steps[self.step] if 0 <= self.step < len(self.game.steps) else None
        return EffectRuntimeError(
            f"turn {self.turn_number} has taken {most:,} decisions without passing: does a step offer choices that "
            f"never run out? {limits.exceeded('turn_decisions', most)}", step.pos if step is not None else None)
