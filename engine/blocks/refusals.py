"""Actions refused by the position they would leave: a turn step's ``refuse_if_after``.

Many rules forbid a move by what it would leave: a move may not leave one's
own leading piece threatened, a piece may not be placed where its own group
would be left with no empty neighbour.  A step says so with a condition on
the position after the action; the role who acted is ``actor`` in it::

    turn:
      - do:
          effect: |
            let p = choose(x in board where x.owner == current_role, always_ask = true)
            let to = choose(c in all_cells where reaches(p, c), always_ask = true)
            ...
        refuse_if_after:
          when: threatened(actor)
          because: a move may not leave one's own leader threatened

An action the condition refuses is not listed, so every player (random
bots, searches, ``play``, the server, the RL environment) sees the same
legal actions, and typing it is refused with the rule's words.

**After** means: once the step has done everything the action leads to —
its own work, and the rest of the effect it runs — up to its next question
or its end, before the turn moves on to the next step.  An option of a
``choose`` in the middle of an effect (the piece, before the cell it goes
to) is kept when *some* way of answering the effect's later questions
finishes it in a position the condition does not refuse; a ``choose`` left
with no option gives none, as usual (so "no legal move" is a ``choose``
giving none).

Each option is tried on a copy: the effect is run again from the position
before it with the answers so far and the option, its later questions
answered in every way until one is allowed.  The dice it rolled so far are
rolled the same; new dice on a copy come from a generator of its own (they
tell nothing of the game's).  The real state is never changed.  The cost is
one run of the effect per option tried (more for the options of an early
question), all of one listing sharing ten times the step budget (``--limit
steps``).

>>> Refusal(lambda s, e: e[0] == "A", 1, "actor == A", "actor == A", None).refuses(None, "A")
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from engine.blocks.choices import NeedChoice, Pending, Tape, answer
from engine.core.actions import ActionSpace, ListSpace
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.lang.scope import Fn

if TYPE_CHECKING:
    from engine.blocks.context import StateView

TRIAL_SEED = 0x5EED
"""The generator a copy rolls new dice with: never the game's, so that a trial tells nothing of the dice to come."""

TRIAL_COST = 500
"""Steps of the budget each run on a copy costs besides its own (an effect that only asks still costs something)."""

TRIALS_BUDGET = 10
"""The trials of one listing share this many times the step budget (each run on a copy at most the budget itself)."""


class _Trying(threading.local):
    """Whether this thread is trying an option on a copy (its questions are then tried, not judged again)."""

    def __init__(self) -> None:
        self.depth = 0


_TRYING = _Trying()


@dataclass(frozen=True)
class Refusal:
    """A step's ``refuse_if_after``: the compiled condition (``actor`` in slot 0), as written, and the rule's words."""

    test: Fn
    slots: int
    text: str
    because: str
    pos: SourcePos | None
    placed: bool = False  # a ``place`` step's: ``placed`` (slot 1) is the piece the action placed, none for a pass

    def refuses(self, s: "StateView", actor: Any, placed: Any = None) -> bool:
        """Whether the position ``s`` is refused for ``actor``, the role who acted (having placed ``placed``)."""
        env: list[Any] = [None] * self.slots
        env[0] = actor
        if self.placed:
            env[1] = placed
        return bool(self.test(s, env))

    def reason(self, text: str) -> str:
        """Why an action typed as ``text`` is refused.

        >>> Refusal(None, 1, "threatened(actor)", "a leader may not be left threatened", None).reason("choose 4,1")
        "'choose 4,1' is refused: a leader may not be left threatened (refuse_if_after: threatened(actor))"
        """
        return f"'{text}' is refused: {self.because} (refuse_if_after: {self.text})"

    # ---------------------------------------------------------------- a step's own actions

    def allowed(self, s: "StateView", step: Any, space: ActionSpace) -> ActionSpace:
        """The actions of ``space`` (those ``step`` offers in ``s``) that the condition does not refuse."""
        if _TRYING.depth:
            return space
        actor, pool = s.current_role, _Pool(s)
        with _trying(), _told():
            kept = [args for args in space.all_args() if self._step_allows(s, step, args, actor, pool)]
        return ListSpace(space.step, kept)

    def _step_allows(self, s: "StateView", step: Any, args: tuple[Any, ...], actor: Any, pool: "_Pool") -> bool:
        trial = _copy(s)
        trial._actions = None
        pool.run(trial, lambda: step.apply(trial, args))
        used = step.used_components(args) if self.placed else ()
        return self._answers_allow(trial, step.index, actor, pool, used[0] if used else None)

    def _answers_allow(self, trial: "StateView", step: int, actor: Any, pool: "_Pool", placed: Any = None) -> bool:
        """Whether ``trial``, after an action, is allowed: at once, or by some answers to its step's questions."""
        pending = trial.pending
        if pending is None or pending.step != step:
            return not self.refuses(trial, actor, placed)
        for label in pending.labels:
            again = _copy(trial)
            pool.run(again, lambda: answer(again, label))  # an answer that finishes the effect resumes its step
            if self._answers_allow(again, step, actor, pool, placed):
                return True
        return False

    # ---------------------------------------------------------------- a choose in the middle of an effect

    def kept(self, s: "StateView", tape: Tape, options: Sequence[Any], labels: Sequence[str], actor: Any,
             call: int) -> tuple[list[Any], list[str], tuple[str, ...]]:
        """The options of choose call ``call`` of the effect ``tape`` runs that some way of finishing it allows, their
        labels, and the labels refused (for the reason given when one is typed)."""
        if _TRYING.depth:
            return list(options), list(labels), ()
        origin = tape.origin
        assert origin is not None
        start = origin.start if origin.base is not None else tape.start if tape.start is not None else s
        done = (tape.answers[:tape.cursor], tuple(tape.asked[:tape.cursor]), dict(tape.forced or {}), tuple(tape.rolled))
        pool = _Pool(s)
        kept, shown, refused = [], [], []
        with _trying(), _told():
            for option, label in zip(options, labels):
                answers, asked, forced, dice = done
                if self._effect_allows(start, origin, answers + (option,), asked + (call,), forced, dice, actor, pool):
                    kept.append(option)
                    shown.append(label)
                else:
                    refused.append(label)
        return kept, shown, tuple(refused)

    def _effect_allows(self, start: "StateView", origin: Pending, answers: tuple[Any, ...], asked: tuple[int, ...],
                       forced: dict[int, Any], dice: tuple[int, ...], actor: Any, pool: "_Pool") -> bool:
        """Whether the effect, run from ``start`` with ``answers`` (each taken by the call ``asked`` names), finishes
        allowed, for some answers to the questions it asks after them."""
        trial = _copy(start)
        trial.pending = None
        tape = trial.tape = Tape(answers, dice, asked)
        tape.forced = forced
        step = trial.game.steps[origin.step]
        fn = step.effect(origin.key)
        try:
            pool.run(trial, lambda: fn(trial, list(origin.env)))
        except NeedChoice as question:
            question.__traceback__ = None
            return any(self._effect_allows(start, origin, answers + (option,), asked + (question.call,), forced, dice,
                                           actor, pool)
                       for option in question.options)
        trial.tape = None
        pool.run(trial, lambda: step.resume(trial))
        return self._answers_allow(trial, origin.step, actor, pool)


class _trying:
    """While trying options on copies: their own questions are tried, not judged again."""

    def __enter__(self) -> None:
        _TRYING.depth += 1

    def __exit__(self, *exc: object) -> None:
        _TRYING.depth -= 1


class _told:
    """An error of the ruleset's code met on a copy says so (the game itself did not fail there)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, err: BaseException | None, trace: object) -> None:
        if isinstance(err, EffectRuntimeError) and not err.message.endswith(TRIED):
            public = None if err.public is None else err.public + TRIED
            raise EffectRuntimeError(err.message + TRIED, err.pos, public) from None


TRIED = " (met trying an option on a copy of the position, for refuse_if_after)"
"""What an error of the ruleset's code met on a copy adds to its message."""


class _Pool:
    """The budget the trials of one listing share, ``TRIALS_BUDGET`` times the step budget: each run on a copy spends
    its own steps (at most the step budget, as any run) and ``TRIAL_COST``."""

    def __init__(self, s: "StateView") -> None:
        self.left = s.game.limits.steps * TRIALS_BUDGET

    def run(self, trial: "StateView", job: Any) -> Any:
        """Run ``job`` on ``trial`` with what is left of the budget; raise once the budget is spent."""
        steps = trial.game.limits.steps
        self.left -= TRIAL_COST
        if self.left < 0:
            raise self.spent(steps)
        given = trial.budget = min(self.left, steps)
        try:
            return job()
        except EffectRuntimeError:
            if given < steps and trial.budget < 0:  # what was left of the trials' budget ran out, not a run's own
                raise self.spent(steps) from None
            raise
        finally:
            self.left -= max(given - trial.budget, 0)

    @staticmethod
    def spent(steps: int) -> EffectRuntimeError:
        """The error of trials that ran out of their step budget."""
        return EffectRuntimeError(f"ran out of the step budget of its trials ({TRIALS_BUDGET} times the limit "
                                  f"steps={steps:,}; raise it with --limit steps=N)")


def _copy(s: "StateView") -> "StateView":
    """A copy of ``s`` to try an option on: no log, no history, its own generator for new dice."""
    trial = s.clone()
    trial.rng = TRIAL_SEED
    trial.decided = trial.turn_number  # a copy tries a decision: what it then finds empty is no "no legal move"
    return trial
