"""Decisions in the middle of an effect: ``choose(x in C where P)``.

An effect such as "move one of your pieces to an empty cell" needs the
player's answer half-way through.  The effect runs on the state itself, and
``choose`` pauses it where it stands: the effect runs as a coroutine (a
greenlet) that hands the question to the engine and waits.  The options
become the legal actions of the deciding seat (a :class:`Pending` choice),
and the answer resumes the effect from where it stopped — nothing is run
twice.  An effect of a ruleset that never chooses runs directly, without a
coroutine.

A paused state is an ordinary state: what the effect has done so far is
already on it.  Its :class:`Pending`
keeps, as plain data, how to reach the pause again — which effect, its
starting locals, the answers given so far and the dice rolled so far — and
the position before the effect began.  A clone, a loaded save or a state
answered on another thread has no coroutine of its own: it gets one by
replaying the effect from that position with the answers and dice recorded
(:func:`rebuild`), which is exact because everything an effect reads comes
from the state.  A save writes the position before the effect and the
pending choice, so saves, checksums and replays read as they always did.

Without the ``greenlet`` package the same effects work by replaying: the
effect stops at the question (unwinding) and the state shows what it did so
far, as a paused coroutine's does; each answer replays it from the position
before it.  (A search's sample of such a state is the position before the
effect, drawn again: see :meth:`Pending.sampled`.)

An effect whose only ``choose`` comes before anything it changes
(:func:`~engine.blocks.asking.asks_first`, known when the ruleset is compiled) needs neither a
coroutine nor a copy of the position while it waits: it stops at the
question (unwinding) on a state that is still the position before it, and
the answer runs it again from the start, the choice taking the answer
without listing its options again.  An answer copies the position once, for
an error to put back.

A step runs such an effect with :func:`run_effect` and names it with a key
its :meth:`~engine.blocks.steps.Step.effect` method resolves; when the
effect finishes after a choice, the engine calls the step's ``resume``.

Whether an effect can choose at all is known when the ruleset is compiled:
code that calls ``choose`` can; code that changes the game through a call or
an assignment can if it may run a hook that can.  An effect that cannot runs
directly on the state — no coroutine, no position kept — even in a ruleset
whose other effects choose (:mod:`engine.blocks.asking`).

The ``choose`` function itself is :mod:`engine.blocks.choose_function`; what
the options are called, and what each seat sees of them, is
:mod:`engine.blocks.choice_labels`.

Example (a turn step ``- do: {effect: ...}``)::

    - do:
        effect: |
          let p = choose(c in board where owner_of(c) == current_role)
          move(p, discard)
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.blocks.asking import asks_first, runs_directly
from engine.blocks.choice_labels import lying_apart
from engine.blocks.outside_changes import Noticed, apply_changes
from engine.core.errors import EffectRuntimeError, IllegalActionError
from engine.core.slices import Chance
from engine.lang.budgets import refill

try:  # the coroutines that pause effects; without them every answer replays the effect
    from greenlet import GreenletExit, getcurrent, greenlet
except ImportError:  # pragma: no cover - exercised by forcing the replaying mode in the tests
    greenlet = None

if TYPE_CHECKING:
    from engine.blocks.context import StateView


@dataclass(frozen=True)
class Pending:
    """A choice an effect is waiting for, and how to reach this pause again (see :func:`rebuild`)."""

    step: int  # the turn step whose effect this is
    key: Any  # which of that step's effects (see Step.effect); plain data
    env: tuple[Any, ...]  # the effect's locals when it started
    tape: tuple[Any, ...] = ()  # the answers given so far, in order
    options: tuple[Any, ...] = ()  # what may be chosen now
    labels: tuple[str, ...] = ()  # the options as action text
    seat: int = 0  # who decides
    prompt: str = ""  # what is being chosen, in English
    dice: tuple[int, ...] = ()  # the dice the effect rolled before the choice, in order (replayed when rebuilt)
    components: bool = False  # the options are components (a choice that uses one, for simulate's usage report)
    base: "StateView | None" = field(default=None, init=False, compare=False, repr=False)  # see start
    outside: tuple[Any, ...] = field(default=(), init=False, compare=False, repr=False)  # see start
    noted: tuple[Any, ...] = field(default=(), init=False, compare=False, repr=False)  # see _noted
    here: bool = field(default=False, init=False, compare=False, repr=False)  # see asks_first: the state is the start
    call: int = field(default=-1, init=False, compare=False, repr=False)  # which choose call of the run asks (here)
    hides: bool | None = field(default=None, init=False, compare=False, repr=False)  # see hides_a_component; None: not asked
    logged: int = field(default=0, init=False, compare=False, repr=False)  # replaying: the log lines the effect wrote so far
    at_start: bool = field(default=False, init=False, compare=False, repr=False)  # replaying: the state is the start (a sample)
    asked: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)  # see Tape.asked: by answer, its call
    left: int = field(default=-1, init=False, compare=False, repr=False)  # the coroutine's step budget left at the pause
    drawn: tuple[tuple[int, "StateView"], ...] = field(default=(), init=False, compare=False, repr=False)  # see noting
    refused: tuple[str, ...] = field(default=(), init=False, compare=False, repr=False)  # options its step's refuse_if_after refused
    # the question as written when values of the moment are filled into the prompt ("your bid ({coins(r)} coins)"), for
    # reports that gather the answers to one question; "" when the prompt is the question as written
    question: str = field(default="", init=False, compare=False, repr=False)
    # the prompt as a player reads it, when it differs: the values of the names the engine gives the code told ("choose
    # foe of North's Scout" for "choose foe of self"); not saved nor compared, so a position's checksum keeps the prompt's words
    shown: str = field(default="", init=False, compare=False, repr=False)

    @property
    def words(self) -> str:
        """The question as the player deciding reads it.

        >>> Pending(0, "effect", (), prompt="choose foe of self").words
        'choose foe of self'
        """
        return self.shown or self.prompt

    @property
    def start(self) -> "StateView | None":
        """The position before the effect: ``base`` with what changed ``outside`` it while it waited.

        The changes are kept as data when the answer comes (:meth:`with_outside_changes`) and only put on
        a copy of ``base`` when the position is read — by a save, a clone or a replay of the effect, an
        error — which random playouts never do.  The copy is kept (the position never changes).
        """
        base, outside = self.base, self.outside
        if not outside or base is None:
            return base
        fresh = base.clone()
        apply_changes(fresh, outside)
        object.__setattr__(self, "base", fresh)  # two threads racing here build equal positions: either will do
        object.__setattr__(self, "outside", ())
        return fresh

    def data(self) -> dict[str, Any]:
        """The choice as plain data, for a save (the position before the effect is saved as the position)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        del data["components"]  # not saved: loading runs the effect to this pause again, which says it anew
        return data

    def starting_from(self, start: "StateView", outside: tuple[Any, ...] = ()) -> "Pending":
        """This choice, remembering ``start`` (with the changes ``outside``) as the position before the effect."""
        pending = object.__new__(Pending)  # a copy of every field (the fastest way), then the new start
        fields = pending.__dict__
        fields.update(self.__dict__)
        fields["base"], fields["outside"] = start, outside
        return pending

    def with_options(self, options: tuple[Any, ...]) -> "Pending":
        """This choice offering ``options`` under the same labels (a sample in which other pieces lie on the cells
        offered: see :meth:`engine.core.facedown.FaceDown.determinize`)."""
        pending = object.__new__(Pending)
        pending.__dict__.update(self.__dict__)
        pending.__dict__["options"] = options
        pending.__dict__["hides"] = None  # other components: asked again
        return pending

    def noting(self, s: "StateView") -> "Pending":
        """This choice, taking ``s`` as it is now for the state at the pause: what differs from the pause so far is
        not a change outside the effect (a search's sample, whose redeal is its own: the effect's replay starts from
        the real position before it, with its generator, and the sample's fields are put back after, see
        :func:`rebuild`).

        The sample as drawn is kept with the number of answers given so far (``drawn``): once the sample has been
        answered and has paused again, a copy of it rebuilds its effect by replaying those answers from the real
        position, taking the sample's fields there, then giving the later answers as the sample was given them (they
        were answered on its redeal, which a replay from the real position alone does not reach).

        Example: ``sample.pending = sample.pending.with_outside_changes(sample)``, the redeal, then
        ``sample.pending = sample.pending.noting(sample)``.
        """
        if self.at_start:  # a replaying sample: the position before the effect is its own, as drawn
            pending = self.starting_from(s.clone())
            pending.__dict__["noted"] = _noted(s)
            return pending
        if self.base is None or not self.noted:
            return self
        pending = self.starting_from(self.base, self.outside)
        pending.__dict__["noted"] = _noted(s)
        if greenlet is not None and not _REPLAYING:
            pending.__dict__["drawn"] = self.drawn + ((len(self.tape), s.clone()),)
        return pending

    def sampled(self, s: "StateView") -> "Pending":
        """This choice on ``s``, a clone about to be drawn again for a search (see :func:`noting`): with what the game
        changed while the effect waited kept for its replay.

        Without coroutines an effect's work so far cannot be kept on a sample whose hidden parts are drawn anew (the
        answer replays the effect from the position before it, which the sample's draw does not reach): the sample is
        put back to that position, drawn again there, and its answers replay the effect on it (what was drawn before
        the question may then differ from what the effect recorded: an error in the search, not a leak).
        """
        pending = self.with_outside_changes(s)
        if self.here or not (greenlet is None or _REPLAYING) or pending.base is None:
            return pending
        _restore(s, pending.start)  # type: ignore[arg-type]
        pending = pending.starting_from(pending.base, pending.outside)
        pending.__dict__["at_start"] = True
        return pending

    def with_outside_changes(self, s: "StateView") -> "Pending":
        """This choice, its starting position given what changed on ``s`` since the pause, outside the effect.

        Taking a decision notes things (such as when the last one was taken) while the effect waits;
        a save, a clone or a replay of the effect must start from a position that has them too.
        Single values and the entries of dicts are compared (see :func:`_noted`); what changed is kept
        as data and applied when :attr:`start` is read.
        """
        noted = self.noted
        if self.base is None or not noted:
            return self
        changes = _noticed(type(s)).changes(s, noted)
        return self.starting_from(self.base, self.outside + changes) if changes else self


def _noted(s: "StateView") -> tuple[Any, ...]:
    """The state's fields at a pause (dicts copied), to find what changes outside the effect (see
    :mod:`~engine.blocks.outside_changes`).  The step budget is left out: every run of an effect begins with the
    whole budget."""
    return _noticed(type(s)).snapshot(s)


@functools.cache
def _noticed(state_class: type) -> Noticed:
    """The fields :func:`_noted` looks at, and the readers generated for them."""
    return Noticed(tuple(name for name in committed(state_class) if name != "budget"))


class NeedChoice(Exception):
    """A question from ``choose``: raised to stop a replaying run, or handed back by a paused coroutine."""

    def __init__(self, options: tuple[Any, ...], labels: tuple[str, ...], seat: int, prompt: str, components: bool = False,
                 call: int = -1, refused: tuple[str, ...] = (), question: str = "", shown: str = "") -> None:
        super().__init__(prompt)
        self.options, self.labels, self.seat, self.prompt, self.components = options, labels, seat, prompt, components
        self.call = call  # how many choose calls of the run came before this one
        self.refused = refused  # the labels of the options its step's refuse_if_after refused
        self.question = question  # the question as written, when the prompt has values filled in (see Pending.question)
        self.shown = shown  # the prompt as a player reads it, when it differs (see Pending.shown)


class Tape:
    """The answers an effect reads back, its dice (those rolled before, replayed, then new ones) and its coroutine.

    It is the state's ``tape`` while an effect runs or is paused; a clone has none.
    """

    __slots__ = ("answers", "cursor", "dice", "rolled", "run", "thread", "mark", "calls", "trusted", "label", "apart", "here",
                 "start", "left", "asked", "known", "origin", "forced")

    def __init__(self, answers: tuple[Any, ...], dice: tuple[int, ...] = (), asked: tuple[int, ...] = ()) -> None:
        self.answers = answers
        self.cursor = 0
        self.asked = list(asked)  # by answer, the choose call of the run that asked it (so far as known)
        self.known = len(asked)  # the answers read back as given: each taken by its call without listing the options
        self.dice = dice
        self.rolled: list[int] = []
        self.run: Any = None  # the effect's greenlet while it runs or waits (None when replaying without one)
        self.thread = 0  # the thread the greenlet belongs to (it can only resume there)
        self.mark = 0  # how long the state's log was when the effect began
        self.calls = 0  # the choose calls made so far
        self.trusted = -1  # the choose call whose answer (the last) was one of the options it offered, listed on this very position
        self.label = ""  # that answer's label
        self.apart = False  # its options lay in several zones some seat cannot see into (see lying_apart)
        self.here = False  # the effect runs on the position before it, of which no copy is kept yet (see asks_first)
        self.start: Any = None  # then: a copy of that position, made once the effect may change the game
        self.left = 0  # the coroutine's step budget left when it paused: an answer resumes it with that, not anew
        self.origin: Pending | None = None  # the effect's step, key, locals and start, when its step has a refuse_if_after
        self.forced: dict[int, Any] | None = None  # then: by choose call, what a call that did not ask gave

    def took(self, call: int) -> None:
        """Answer number ``cursor`` was read or given at choose call ``call``: note the call (see :attr:`asked`)."""
        cursor, asked = self.cursor, self.asked
        if cursor < len(asked):
            asked[cursor] = call
        else:
            asked.append(call)
        self.cursor = cursor + 1

    def replay(self) -> int | None:
        """The next die the effect rolled in an earlier run, if it got that far (None: roll a new one)."""
        i = len(self.rolled)
        return self.dice[i] if i < len(self.dice) else None

    def passed(self, s: "StateView") -> None:
        """A choose call goes on without asking: from here on the effect may change ``s``, so keep the position it
        started from if no copy of it is kept yet (see :func:`asks_first`)."""
        if self.here and self.start is None:
            self.start = s.clone()

    def ask(self, question: NeedChoice) -> Any:
        """Pause the effect with ``question``; the answer, once given (raises the question when replaying)."""
        if self.run is None:
            raise question
        return self.run.parent.switch(question)


# ------------------------------------------------------------------ running effects

_DONE = object()  # what a coroutine hands back when its effect has finished


def run_effect(s: "StateView", step: int, key: Any, env: list[Any]) -> bool:
    """Run the effect ``key`` of turn step ``step`` with locals ``env``; False while a choice is pending."""
    game = s.game
    fn = game.steps[step].effect(key)
    refill(s)
    running = s.tape
    if running is not None and (running.run is None or running.run is getcurrent()):
        fn(s, env)  # an effect runs it: then it is part of that effect
        return True
    if running is not None:  # a coroutine abandoned half-way: ended first (most effects run with none)
        _drop(s)
    if runs_directly(game, step, key):
        fn(s, env)  # it cannot ask: nothing to pause, nothing to keep
        return True
    if asks_first(game, step, key):
        return _run_here(s, step, key, tuple(env), (), -1, "", None)
    return _run_coroutine(s, step, key, tuple(env))


def _run_coroutine(s: "StateView", step: int, key: Any, env: tuple[Any, ...], answers: tuple[Any, ...] = ()) -> bool:
    """Run the effect as a coroutine (or replaying), from a copy of the position before it kept for saves and errors;
    a state its maker drops (``s.dropped``, a search's rollout) keeps none, and an error leaves it part-changed."""
    pending = Pending(step, key, env)
    dropped = s.dropped and greenlet is not None and not _REPLAYING  # replaying needs the copy to run the effect again
    if not dropped:
        object.__setattr__(pending, "base", s.clone())
    try:
        return _begin(s, pending, answers, ())
    except BaseException:
        s.tape = s.pending = None
        if not dropped:
            _restore(s, pending.start)  # type: ignore[arg-type]
        raise


def _run_here(s: "StateView", step: int, key: Any, env: tuple[Any, ...], answers: tuple[Any, ...], call: int, label: str,
              start: "StateView | None", apart: bool = False) -> bool:
    """Run an effect that asks first (see :func:`asks_first`) on ``s``, the position before it, reading back ``answers``.

    The last answer is ``label``, given to choose call number ``call`` of the run on this very position: that call
    takes it without listing its options again.  ``start`` is a copy of ``s`` made for the answer (None at the
    effect's beginning: a copy is made only if the effect goes past a choose without asking); ``apart``: the options
    of that call lay in several zones some seat cannot see into (see :func:`lying_apart`).  False while a
    choice is pending: the state is then the position before the effect, and its pending choice says so (``here``).
    An error leaves the state as it was.
    """
    game = s.game
    fn = game.steps[step].effect(key)
    tape = s.tape = Tape(answers)
    tape.trusted, tape.label, tape.apart, tape.here, tape.start = call, label, apart, True, start
    if game.steps[step].refusal is not None:  # its options are tried from the position before it: this one
        tape.origin, tape.forced = Pending(step, key, env), {}
    log = s.log
    mark = tape.mark = len(log) if log is not None else 0
    rng, chance = s.rng, s.slices.get(Chance.block)
    refill(s)
    try:
        fn(s, list(env))
    except NeedChoice as question:
        question.__traceback__ = None  # its frames hold it: let them go now rather than at the next collection
        s.tape = None
        if tape.rolled:  # it rolled dice before asking: run it as a coroutine from the position before it
            _put_back(s, tape.start, rng, chance)
            if log is not None:
                del log[mark:]
            return _run_coroutine(s, step, key, env, answers)
        if log is not None:  # the answers read back noted themselves again: the run that takes the last notes them
            del log[mark:]
        paused = s.pending = object.__new__(Pending)  # every field at once (a frozen dataclass sets them one by one)
        paused.__dict__.update(step=step, key=key, env=env, tape=answers, options=question.options, labels=question.labels,
                               seat=question.seat, prompt=question.prompt, dice=(), components=question.components,
                               base=None, outside=(), noted=(), here=True, call=question.call, hides=None,
                               logged=0, at_start=False, asked=(), left=-1, drawn=(), refused=question.refused,
                               question=question.question, shown=question.shown)
        s._actions = None
        return False
    except BaseException:
        s.tape = None
        _put_back(s, tape.start, rng, chance)
        raise
    return _finished(s)


def _put_back(s: "StateView", start: "StateView | None", rng: Any, chance: Any) -> None:
    """Back to the position before an effect run by :func:`_run_here`: ``start`` (a copy, if one was made) with the
    generator and loaded dice it began with (its dice, rolled before the copy, are all it changed before it)."""
    if start is not None:
        _restore(s, start)
    s.rng = rng
    if chance is None:
        s.slices.pop(Chance.block, None)
    else:
        s.slices[Chance.block] = chance


def answer(s: "StateView", label: str, keep: bool = True) -> bool:
    """Give the pending choice the option labelled ``label``; True when the step that ran the effect is finished.

    An effect that fails puts the state back at its choice; with ``keep=False`` (a caller that drops the state
    when the ruleset fails: playouts, searches) an effect that asks first (see :func:`asks_first`) runs from the
    position before it with no copy made, and is left part-done if it fails."""
    pending = s.pending
    assert pending is not None
    if label not in pending.labels:
        raise IllegalActionError(f"'{label}' is not one of the options: {', '.join(pending.labels)}")
    value = pending.options[pending.labels.index(label)]
    if pending.here:
        return _answer_here(s, pending, value, label, keep)
    pending = s.pending = pending.with_outside_changes(s)
    cut: tuple[int, list[str]] | None = None  # replaying: where the log was cut, and the lines cut
    try:
        if greenlet is None or _REPLAYING:
            if not pending.at_start:
                cut = _rewind(s, pending)
            finished = _begin(s, pending, pending.tape + (value,), pending.dice)
        else:
            if _live(s) is None:
                rebuild(s)
            s.budget = s.tape.left  # type: ignore[union-attr]  # one budget for the whole effect, as when replaying it
            finished = _drive(s, pending, s.tape, value)  # type: ignore[arg-type]
    except BaseException:
        _back_to(s, pending)
        if cut is not None and s.log is not None:  # replaying: the log as it was at the question
            s.log[cut[0]:] = cut[1]
        raise
    if not finished:
        return False
    return s.game.steps[pending.step].resume(s)


def _answer_here(s: "StateView", pending: Pending, value: Any, label: str, keep: bool) -> bool:
    """Answer a choice asked with the state at the position before the effect: run the effect with the answers
    (from a copy of the position kept for errors to put back, with ``keep``)."""
    start = s.clone() if keep else None  # what an error puts back (the answered call passes on without making one)
    try:
        finished = _run_here(s, pending.step, pending.key, pending.env, pending.tape + (value,), pending.call, label, start,
                             pending.components and lying_apart(s, pending.options))
    except BaseException:
        s.pending = pending
        raise
    if not finished:
        return False
    return s.game.steps[pending.step].resume(s)


def _begin(s: "StateView", pending: Pending, answers: tuple[Any, ...], dice: tuple[int, ...],
           asked: tuple[int, ...] = ()) -> bool:
    """Start the pending effect on ``s`` (at its starting position), reading back ``answers`` and ``dice``; the
    first ``len(asked)`` answers, given in a run from this very position, each by the choose call ``asked`` names,
    are taken by those calls without listing their options again (see :func:`rebuild`)."""
    fn = s.game.steps[pending.step].effect(pending.key)
    tape = s.tape = Tape(answers, dice, asked)
    tape.mark = len(s.log) if s.log is not None else 0
    if s.game.steps[pending.step].refusal is not None:  # its options are tried from the position before it
        tape.origin, tape.forced = pending, {}
    refill(s)
    env = list(pending.env)
    if greenlet is None or _REPLAYING:
        try:
            fn(s, env)
        except NeedChoice as question:
            question.__traceback__ = None  # see _run_here
            return _paused(s, pending, tape, question)
        return _finished(s)

    tape.run = _worker()
    tape.run.gr_context = contextvars.copy_context()
    tape.thread = threading.get_ident()
    return _drive(s, pending, tape, (fn, s, env))


def _drive(s: "StateView", pending: Pending, tape: Tape, message: Any) -> bool:
    """Switch into the effect's coroutine (with a job to start, or an answer) until it finishes or asks."""
    run = tape.run
    run.parent = getcurrent()
    got = run.switch(message)
    if got is _DONE:
        _IDLE.workers.append(run)
        return _finished(s)
    if isinstance(got, NeedChoice):
        return _paused(s, pending, tape, got)
    _IDLE.workers.append(run)
    raise got


class _Idle(threading.local):
    """The coroutines of this thread that wait for an effect to run (starting one costs far more than a switch)."""

    def __init__(self) -> None:
        self.workers: list[Any] = []


_IDLE = _Idle()


def _worker() -> Any:
    """An idle coroutine of this thread: it runs the effect it is sent, and hands back done, a question or an error."""
    if _IDLE.workers:
        return _IDLE.workers.pop()
    return greenlet(_serve)


def _serve(job: tuple[Any, "StateView", list[Any]]) -> None:
    while True:
        fn, s, env = job
        try:
            fn(s, env)
            result: Any = _DONE
        except GreenletExit:
            raise
        except BaseException as err:  # handed to the caller, who raises it
            result = err
        job = getcurrent().parent.switch(result)


def _paused(s: "StateView", pending: Pending, tape: Tape, question: NeedChoice) -> bool:
    paused = s.pending = Pending(pending.step, pending.key, pending.env, tape.answers, question.options, question.labels,
                                 question.seat, question.prompt, tuple(tape.rolled), question.components)
    object.__setattr__(paused, "asked", tuple(tape.asked[:tape.cursor]))
    object.__setattr__(paused, "refused", question.refused)
    object.__setattr__(paused, "question", question.question)
    object.__setattr__(paused, "shown", question.shown)
    if tape.run is None:  # replaying: the state shows the effect's work so far; an answer replays it from its start
        start = pending.start
        assert start is not None
        object.__setattr__(paused, "base", start)
        s.tape = None
        if s.log is not None:
            object.__setattr__(paused, "logged", len(s.log) - tape.mark)
    else:
        _keep_few(s, tape)
        tape.left = s.budget
        object.__setattr__(paused, "left", tape.left)
        object.__setattr__(paused, "drawn", pending.drawn)
        object.__setattr__(paused, "base", pending.base)
        object.__setattr__(paused, "outside", pending.outside)
        if pending.base is None:  # a dropped state's: no position before it to bring up to date (see _run_coroutine)
            s._actions = None
            return False
    object.__setattr__(paused, "noted", _noted(s))
    s._actions = None
    return False


def _finished(s: "StateView") -> bool:
    if s.tape is not None:  # most effects run with none: no call then
        _forget(s.tape)
        s.tape = None
    s.pending = None
    s._actions = None
    return True


def _back_to(s: "StateView", pending: Pending) -> None:
    """After an error in a resumed effect: back at the choice it was waiting for (as far as replaying gets)."""
    s.tape = None
    s.pending = pending
    if pending.start is None:  # a dropped state's effect (see _run_coroutine): left part-changed
        return
    _restore(s, pending.start)
    if greenlet is None or _REPLAYING:
        if not pending.at_start:
            _replay_to_pause(s, pending)
        return
    try:
        rebuild(s, keep=False)
    except Exception:  # noqa: BLE001 - the error being raised says what went wrong; the state stays before the effect
        s.tape = None
        s.pending = pending
        _restore(s, pending.start)
    s._actions = None


def rebuild(s: "StateView", keep: bool = True) -> None:
    """Give a paused state that has no coroutine of its own one, at the same pause.

    The effect is replayed from the position before it with the answers and
    dice recorded; with ``keep``, every field then gets back the value it
    had (in place, so the resumed effect sees exactly the state it was
    asked from — a clone's own changes included).

    The answers a coroutine was given (its pause knows which call took each, and
    the step budget it had left) are read back by those calls without listing
    their options again: a search rebuilds a sample at every iteration, and an
    effect paused after many answers would replay them all at the cost of
    asking them (the cost grew with the square of the answers over a turn).
    """
    pending = s.pending
    assert pending is not None
    if pending.start is None:
        raise RuntimeError("a state marked dropped (kept no position before its effect) was copied or saved while its "
                           "effect waited; only a copy nobody reads after it is played on may be marked dropped")
    now = {name: getattr(s, name) for name in committed(type(s))}
    log, s.log = s.log, None  # what the effect logged before the choice is logged already
    _orphan(s)
    _restore(s, pending.start)
    left, drawn, answers = pending.left, pending.drawn, pending.tape
    first = drawn[0][0] if drawn else len(answers)
    try:
        if _begin(s, pending, answers[:first], pending.dice, pending.asked[:first] if left >= 0 else ()):
            raise EffectRuntimeError("the effect no longer stops at the choice it was waiting for")
        for i, (at, position) in enumerate(drawn):  # a sample's: its own fields where it was drawn, then its answers
            fresh = position.clone()
            for name in committed(type(s)):
                _assign(s, name, getattr(fresh, name))
            for value in answers[at:drawn[i + 1][0] if i + 1 < len(drawn) else len(answers)]:
                tape = s.tape
                assert tape is not None and s.pending is not None
                s.budget = tape.left
                if _drive(s, s.pending, tape, value):
                    raise EffectRuntimeError("the effect no longer stops at the choice it was waiting for")
    finally:
        s.log = log
    if left >= 0:  # the calls that took their answers unlisted spent fewer steps: the budget is the one it had
        s.tape.left = left  # type: ignore[union-attr]
        object.__setattr__(s.pending, "left", left)
    if keep:
        for name, value in now.items():
            _assign(s, name, value)


def restore(s: "StateView") -> None:
    """A loaded state's pending effect, replayed to its pause (the save holds the position before the effect)."""
    pending = s.pending
    assert pending is not None
    start = s.clone()
    start.pending = None
    s.pending = pending.starting_from(start)
    if greenlet is None or _REPLAYING:
        _replay_to_pause(s, s.pending)
        object.__setattr__(s.pending, "noted", _noted(s))  # what changes outside it from now on is found as after a pause
        return
    rebuild(s, keep=False)


def _rewind(s: "StateView", pending: Pending) -> tuple[int, list[str]] | None:
    """Replaying: put a paused state back to the position before its effect, and take off the log the lines the
    effect wrote so far (its replay writes them again); where the log was cut and those lines, for an error to put
    back (None when the state keeps no log)."""
    _restore(s, pending.start)  # type: ignore[arg-type]
    log = s.log
    if log is None:
        return None
    at = len(log) - pending.logged
    cut = log[at:]
    del log[at:]
    return at, cut


def _replay_to_pause(s: "StateView", pending: Pending) -> None:
    """Replaying: take ``s``, at the position before the effect, to the pause ``pending`` waits at (nothing logged);
    if the effect no longer stops there, ``s`` stays at that position."""
    fn = s.game.steps[pending.step].effect(pending.key)
    log, s.log = s.log, None
    tape = s.tape = Tape(pending.tape, pending.dice)
    if s.game.steps[pending.step].refusal is not None:  # its options are tried as when it was asked (see _begin)
        tape.origin, tape.forced = pending, {}
    refill(s)
    try:
        fn(s, list(pending.env))
    except NeedChoice as question:
        question.__traceback__ = None  # see _run_here
        object.__setattr__(pending, "refused", question.refused)  # the rule's reason, when a refused option is typed
        object.__setattr__(pending, "question", question.question)  # a loaded save's pending choice holds neither
        object.__setattr__(pending, "shown", question.shown)
    except Exception:  # noqa: BLE001 - it no longer reaches its pause: the position before it stays
        _restore(s, pending.start)  # type: ignore[arg-type]
    else:
        _restore(s, pending.start)  # type: ignore[arg-type]
    finally:
        s.tape, s.log, s.pending = None, log, pending


def before_effect(s: "StateView") -> "StateView":
    """The position a save writes: before the pending effect began (the state itself when nothing is pending)."""
    pending = s.pending
    return s if pending is None or pending.here or pending.start is None else pending.start


def _restore(s: "StateView", start: "StateView") -> None:
    """Put ``s`` back to the position ``start`` (which stays as it is)."""
    fresh = start.clone()
    for name in committed(type(s)):
        setattr(s, name, getattr(fresh, name))


def _assign(s: "StateView", name: str, value: Any) -> None:
    """Give field ``name`` of ``s`` ``value``, changing lists and dicts in place (paused code may hold them)."""
    current = getattr(s, name)
    if current is value or current == value:
        return
    if isinstance(current, list) and isinstance(value, list):
        current[:] = value
    elif isinstance(current, dict) and isinstance(value, dict):
        current.clear()
        current.update(value)
    else:
        setattr(s, name, value)


def _drop(s: "StateView") -> None:
    """End a coroutine the state still holds (an effect abandoned half-way), before anything else runs."""
    tape = _live(s)
    if tape is None:
        _orphan(s)
        return
    _forget(tape)
    s.tape = None
    tape.run.throw(GreenletExit)


PAUSED_MOST = 1000
"""How many states of a thread may keep a coroutine waiting at a question.  A paused coroutine and its state hold
each other through the coroutine's frame, which the garbage collector cannot see into, so a state dropped while its
effect waits would never be freed (a search drops thousands); past this many, the coroutine waiting longest is ended
and its state, if still in use, replays its effect when answered, as a clone does."""


class _Waiting(threading.local):
    """The states of this thread whose effect waits in a coroutine, by their tape, the longest waiting first."""

    def __init__(self) -> None:
        self.states: dict[int, tuple["StateView", Tape]] = {}


_WAITING = _Waiting()


def _keep_few(s: "StateView", tape: Tape) -> None:
    """Note that ``s`` waits in ``tape``'s coroutine; end the longest waiting past :data:`PAUSED_MOST` (see there).

    Ending one unwinds its effect, which may touch its state: the state is put back as it was, its work so far kept.
    """
    waiting = _WAITING.states
    waiting.pop(id(tape), None)
    waiting[id(tape)] = (s, tape)
    while len(waiting) > PAUSED_MOST:
        old, old_tape = waiting.pop(next(iter(waiting)))
        if old is s or _live(old) is not old_tape:  # answered to its end, or moved to another thread
            continue
        shown = old.clone()
        old.tape = None
        old_tape.run.parent = getcurrent()
        old_tape.run.throw(GreenletExit)
        _restore(old, shown)


def _forget(tape: Tape | None) -> None:
    """The coroutine of ``tape`` no longer waits for its state (finished, ended, or let go)."""
    if tape is not None:
        _WAITING.states.pop(id(tape), None)


_ORPHANS: dict[int, list[Any]] = {}
"""Coroutines left paused on another thread's stack, by that thread: kept while it lives, since letting go of one
then would have that thread end it, running its cleanup on a live state.  Once the thread is gone they are let go:
greenlet frees a dead thread's coroutines without running them."""
_ORPHANS_LOCK = threading.Lock()


def _orphan(s: "StateView") -> None:
    """Let go of the state's coroutine, which cannot resume on this thread (it must never be ended from afar)."""
    tape = s.tape
    if tape is None:
        return
    s.tape = None
    _forget(tape)
    if tape.run is None or tape.run.dead:
        return
    with _ORPHANS_LOCK:
        _let_go_of_ended_threads()
        _ORPHANS.setdefault(tape.thread, []).append(tape.run)


def _let_go_of_ended_threads() -> None:
    """Forget the orphans of threads that have ended (call it holding ``_ORPHANS_LOCK``)."""
    living = {thread.ident for thread in threading.enumerate()}
    for ident in [ident for ident in _ORPHANS if ident not in living]:
        del _ORPHANS[ident]


def _live(s: "StateView") -> Tape | None:
    """The state's own paused coroutine, if it can resume here."""
    tape = s.tape
    if tape is None or tape.run is None or tape.run.dead or tape.thread != threading.get_ident():
        return None
    return tape


_REPLAYING = False  # True: run effects without coroutines, replaying them after each answer (the tests force it)


KEPT = ("players", "pending", "tape", "log", "turn_starts", "history", "_actions", "dropped")
"""State fields that are not the game's position (the rest is: it is put back when an effect is undone or rebuilt).
The game is: on a board with walls the state plays on the game with the walls standing (engine.blocks.walls)."""


@functools.cache
def committed(state_class: type) -> tuple[str, ...]:
    """The fields of ``state_class`` that make up the game's position (its slots, wherever in its bases declared)."""
    return tuple(name for c in reversed(state_class.__mro__) for name in vars(c).get("__slots__", ()) if name not in KEPT)
