"""Decisions in the middle of an effect: ``choose(x in C where P)``.

An effect such as "move one of your pieces to an empty cell" needs the
player's answer half-way through.  Compiled effects are plain closures, so
they cannot pause; instead an effect that may choose is run on a *trial*
clone of the state with a tape of the answers given so far:

* when the effect finishes, the trial becomes the state (all at once — the
  state never holds half an effect);
* when ``choose`` finds no answer left on the tape, the trial is dropped and
  the state records a :class:`Pending` choice: the options become the legal
  actions of the deciding seat, and each answer re-runs the effect from the
  start with one more answer on the tape.

Re-running is exact because everything an effect reads comes from the
state, and the dice it rolled before the choice are kept with it and fall
the same way again (so a search agent that reseeds the state's generator
changes only the dice still to come).  A pending choice is plain data (the
step, which of its effects, the effect's starting locals, the tape, the
dice), so it saves and loads like the rest of the state.

A step runs such an effect with :func:`run_effect` and names it with a key
its :meth:`~engine.blocks.steps.Step.effect` method resolves; when the
effect finishes after a choice, the engine calls the step's ``resume``.

Example (a turn step ``- do: {effect: ...}``)::

    - do:
        effect: |
          let p = choose(c in board where owner_of(c) == current_role)
          move(p, discard)
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.actions import normalise
from engine.enumeration import CHOOSE_WORD, record_choice
from engine.errors import EffectRuntimeError, IllegalActionError
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection, register
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, BOOL, Component

if TYPE_CHECKING:
    from engine.state import State

@dataclass(frozen=True)
class Pending:
    """A choice an effect is waiting for, and how to re-run the effect once it is made."""

    step: int  # the turn step whose effect this is
    key: Any  # which of that step's effects (see Step.effect); plain data
    env: tuple[Any, ...]  # the effect's locals when it started
    tape: tuple[Any, ...] = ()  # the answers given so far, in order
    options: tuple[Any, ...] = ()  # what may be chosen now
    labels: tuple[str, ...] = ()  # the options as action text
    seat: int = 0  # who decides
    prompt: str = ""  # what is being chosen, in English
    dice: tuple[int, ...] = ()  # the dice the effect rolled before the choice, in order (replayed when re-run)


class NeedChoice(Exception):
    """Raised inside a trial run when ``choose`` has no answer yet."""

    def __init__(self, options: tuple[Any, ...], labels: tuple[str, ...], seat: int, prompt: str) -> None:
        super().__init__(prompt)
        self.options, self.labels, self.seat, self.prompt = options, labels, seat, prompt
        self.dice: tuple[int, ...] = ()  # set by the trial that raised it


class Tape:
    """The answers a trial run reads back, in order, and its dice: those rolled before, replayed, then new ones."""

    __slots__ = ("answers", "cursor", "dice", "rolled")

    def __init__(self, answers: tuple[Any, ...], dice: tuple[int, ...] = ()) -> None:
        self.answers = answers
        self.cursor = 0
        self.dice = dice
        self.rolled: list[int] = []

    def replay(self) -> int | None:
        """The next die the effect rolled in an earlier run, if it got that far (None: roll a new one)."""
        i = len(self.rolled)
        return self.dice[i] if i < len(self.dice) else None


# ------------------------------------------------------------------ running effects


def run_effect(s: "State", step: int, key: Any, env: list[Any]) -> bool:
    """Run the effect ``key`` of turn step ``step`` with locals ``env``; False while a choice is pending."""
    return attempt(s, Pending(step, key, tuple(env)))


def attempt(s: "State", pending: Pending) -> bool:
    """Run an effect on a trial with the answers on ``pending``'s tape; commit it or record the next choice."""
    trial, need = _trial(s, pending)
    if need is not None:
        s.pending = dataclasses.replace(pending, options=need.options, labels=need.labels, seat=need.seat, prompt=need.prompt,
                                        dice=need.dice)
        s._actions = None
        return False
    log = trial.log
    for name in committed(type(s)):
        setattr(s, name, getattr(trial, name))
    if s.log is not None and log:
        s.log.extend(log)
    s.pending = None
    s._actions = None
    return True


def preview(s: "State") -> "State":
    """The state as the pending effect has left it so far (the state itself when nothing is pending)."""
    if s.pending is None:
        return s
    trial, _ = _trial(s, dataclasses.replace(s.pending))
    trial.pending = s.pending
    return trial


def _trial(s: "State", pending: Pending) -> tuple["State", NeedChoice | None]:
    fn = s.game.steps[pending.step].effect(pending.key)
    trial = s.clone()
    trial.pending = None
    trial.log = [] if s.log is not None else None
    trial.tape = Tape(pending.tape, pending.dice)
    trial.budget = s.game.limits.steps
    try:
        fn(trial, list(pending.env))
    except NeedChoice as need:
        need.dice = tuple(trial.tape.rolled)
        return trial, need
    finally:
        trial.tape = None
    return trial, None


# ------------------------------------------------------------------ answering


class ChoiceFormatter:
    """Formats the actions that answer a pending choice: ``choose NAME``."""

    index = -1
    sealed = False  # choices are made in the open

    def format(self, args: tuple[Any, ...]) -> str:
        return f"{CHOOSE_WORD} {args[0]}"

    def public_format(self, args: tuple[Any, ...]) -> str:
        """Choices are made in the open (what is chosen is usually what the effect then shows)."""
        return self.format(args)


CHOICE = ChoiceFormatter()


def answer(s: "State", label: str) -> bool:
    """Give the pending choice the option labelled ``label``; True when the step that ran the effect is finished."""
    pending = s.pending
    assert pending is not None
    if label not in pending.labels:
        raise IllegalActionError(f"'{label}' is not one of the options: {', '.join(pending.labels)}")
    value = pending.options[pending.labels.index(label)]
    if not attempt(s, dataclasses.replace(pending, tape=pending.tape + (value,))):
        return False
    return s.game.steps[pending.step].resume(s)


def parse(s: "State", text: str) -> str:
    """The label a typed answer names (``choose NAME`` or just ``NAME``); raises with the options."""
    pending = s.pending
    assert pending is not None
    wanted = normalise(text)
    for label in pending.labels:
        if wanted in (normalise(label), normalise(f"{CHOOSE_WORD} {label}")):
            return label
    options = ", ".join(f"{CHOOSE_WORD} {label}" for label in pending.labels)
    raise IllegalActionError(f"'{text}' does not answer the question ({pending.prompt}); the options are: {options}")


# ------------------------------------------------------------------ the function


@dataclass(frozen=True)
class Choose(Function):
    """``choose(x in C where P [, by = ROLE] [, always_ask = true])``: the item the deciding player picks.

    A single option is taken without asking, unless ``always_ask`` holds: then even a forced choice is a decision
    (an action of the deciding seat), as when a game counts a forced move as a move.
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = call.positional()
        if len(args) != 1:
            scope.error(call.pos, f"choose() takes 1 argument, not {len(args)}", f"usage: {self.signature}")
            return Compiled(ANY, lambda s, e: None)
        if scope.pure:
            scope.error(call.pos, "choose() asks a player, which a condition or score can't do",
                        "choose in a program (an effect) and keep the answer with 'let'")
        keywords = call.keywords()
        for name, kw in keywords.items():
            if name not in ("by", "always_ask"):
                scope.error(kw.pos, f"choose() has no option '{name}'", "choose(x in C where P, by = ROLE, always_ask = true)")
        by = self.value(scope, keywords["by"].value, scope.vocab.data.get("role_type", ANY), "by") if "by" in keywords else None
        always = self.value(scope, keywords["always_ask"].value, BOOL, "always_ask").fn if "always_ask" in keywords else None
        selection = as_selection(args[0])
        parts = selection.compile_parts(scope)
        label = _labeller(parts.item_type)
        record_choice(scope.vocab.data, parts.item_type, _written_out(selection.source))
        items, by_fn, pos, prompt = parts.items, by.fn if by else None, call.pos, f"choose {describe_selection(args[0])}"

        def choose(s: "State", e: list[Any]) -> Any:
            options, labels = _distinct(list(items(s, e)), label, s)
            if not options:
                return None
            if len(options) == 1 and not (always is not None and always(s, e)):
                return options[0]
            tape = s.tape
            if tape is None:
                raise EffectRuntimeError("choose() needs a player to decide, so it works only in effects run during play "
                                         "by a step that allows choices (not in setup)", pos)
            role = by_fn(s, e) if by_fn else s.current_role
            if tape.cursor < len(tape.answers):
                value = tape.answers[tape.cursor]
                tape.cursor += 1
                if value not in options:
                    raise EffectRuntimeError(f"a recorded choice ({value!r}) is no longer an option here", pos)
                s.note(lambda: f"{role} chooses {labels[options.index(value)]}")
                return value
            seat = s.seat_of.get(role, 0) if role is not None else 0
            if not seat:
                raise EffectRuntimeError(f"choose(by = {role}): nobody plays {role}", pos)
            raise NeedChoice(tuple(options), tuple(labels), seat, prompt)

        return Compiled(parts.item_type, choose)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        who = call.keywords().get("by")
        chooser = f" chosen by {who.value.describe()}" if who else " chosen by the current player"
        forced = " (a decision even when only one is possible)" if "always_ask" in call.keywords() else ""
        return f"the {describe_selection(args[0])}{chooser}{forced}" if args else "a choice"


def _written_out(source: ast.Node) -> tuple[Any, ...] | None:
    """The items of a collection written out as a list of plain values (``["a", "b"]``), else None."""
    if isinstance(source, ast.ListLit) and all(isinstance(item, ast.Literal) for item in source.items):
        return tuple(item.value for item in source.items)  # type: ignore[attr-defined]
    return None


def _labeller(item: Any) -> Any:
    """How an option reads in action text: components by name, cells as x,y, the rest as written."""
    if isinstance(item, Component):
        return _component_label
    return lambda s, v: ",".join(map(str, v)) if isinstance(v, tuple) else str(v)


def _component_label(s: "State", cid: int) -> str:
    """A component by name; one on the board by name and place (``pawn at 3,4``; ``:2``: second from the top of a stack)."""
    name = s.game.piece_names[cid]
    cell = s.cell_of[cid]
    if cell is None:
        return name
    depth = s.stack(cell).index(cid)
    return f"{name} at {cell[0]},{cell[1]}" + (f":{depth + 1}" if depth else "")


def _distinct(values: list[Any], label: Any, s: "State") -> tuple[list[Any], list[str]]:
    """The options with one per label (identical copies of a component are one choice); none is never an option."""
    options: list[Any] = []
    labels: list[str] = []
    for v in values:
        if v is None:
            continue
        text = label(s, v)
        if text not in labels:
            options.append(v)
            labels.append(text)
    return options, labels


KEPT = ("game", "players", "pending", "tape", "log", "history", "_actions")
"""State fields a finished trial does not hand back (the rest — the game's whole position — it does)."""


@functools.cache
def committed(state_class: type) -> tuple[str, ...]:
    """The fields of ``state_class`` a finished trial hands back to the state."""
    return tuple(name for name in state_class.__slots__ if name not in KEPT)

register(Choose(CHOOSE_WORD, "choose(x in COLLECTION [where CONDITION] [, by = ROLE] [, always_ask = BOOL]) -> item",
                "The item a player picks (the current player, or the one playing ROLE); an empty collection gives none, "
                "a single item is taken without asking unless always_ask is true (a forced move the game counts).",
                "let p = choose(c in hand(current_role) where c.value > 2)"))
