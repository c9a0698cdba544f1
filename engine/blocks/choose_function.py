"""The effect language's ``choose``: the item a player picks from a collection, as a function every ruleset may
call (:data:`CHOOSE`).  Its question pauses the effect (:mod:`engine.blocks.choices`); what its options are called
is :mod:`engine.blocks.choice_labels`.

>>> CHOOSE.name, PASS
('choose', 'pass')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.blocks.asking import CHOOSES
from engine.blocks.choice_labels import (CHOOSE_WORD, ForcedPicks, distinct_options, held_away_from, labeller, listed_as_seen,
                                         lying_apart, seen_label)
from engine.blocks.choices import NeedChoice
from engine.blocks.enumeration import record_choice
from engine.blocks.question_text import Question, compile_question, naming_given
from engine.core.errors import EffectRuntimeError
from engine.core.limits import exceeded
from engine.core.slices import HookTrail
from engine.core.showtext import as_one_line, breaking_character, invisible_character
from engine.lang import ast
from engine.lang.functions import Function, as_selection, describe_selection
from engine.lang.scope import ASKS, ASKS_LATE, RUNS, Compiled, Scope
from engine.lang.types import ANY, BOOL, STR, Component, ListOf

if TYPE_CHECKING:
    from engine.blocks.context import StateView


PASS = "pass"
"""The answer of a player who passes a ``choose(..., optional = true)``: ``choose pass``, giving none."""


@dataclass(frozen=True)
class Choose(Function):
    """``choose(x in C where P [, by = ROLE] [, always_ask = true] [, optional = true] [, text = "..."])``: the item
    the deciding player picks.

    A single option is taken without asking, unless ``always_ask`` holds: then even a forced choice is a decision
    (an action of the deciding seat), as when a game counts a forced move as a move.  ``optional`` adds ``pass``
    to the options (when there are any), answered by none.  ``text`` is the question as the player reads it
    (``text = "play a card"``), instead of the selection in English; code in braces in it is read when it is asked
    (``text = "pay how many of your {gold(current_role)} coins?"``, see :mod:`engine.blocks.question_text`).
    """

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        args = call.positional()
        if len(args) != 1:
            question = args[1] if len(args) == 2 and isinstance(args[1], ast.Literal) and args[1].type is STR else None
            scope.error(call.pos, f"choose() takes 1 argument, not {len(args)}",
                        f"the question is an option: write text = {json.dumps(question.value, ensure_ascii=False)}" if question
                        else f"usage: {self.signature}")
            return Compiled(ANY, lambda s, e: None)
        if scope.pure:
            scope.error(call.pos, "choose() asks a player, which a condition or score can't do",
                        "choose in a program (an effect) and keep the answer with 'let'")
        elif scope.in_where:
            scope.error(call.pos, "choose() in the condition after 'where' would ask the player once for every item "
                                  "the selection looks at", "ask once before it and keep the answer: let p = choose(...), "
                                                            "then move(c in row where c == p, ...)")
        keywords = call.keywords()
        for name, kw in keywords.items():
            if name not in ("by", "always_ask", "text", "optional"):
                scope.error(kw.pos, f"choose() has no option '{name}'",
                            'choose(x in C where P, by = ROLE, always_ask = true, optional = true, text = "the question")')
        by = self.value(scope, keywords["by"].value, scope.vocab.data.get("role_type", ANY), "by") if "by" in keywords else None
        always = self.value(scope, keywords["always_ask"].value, BOOL, "always_ask").fn if "always_ask" in keywords else None
        optional = self.value(scope, keywords["optional"].value, BOOL, "optional").fn if "optional" in keywords else None
        if optional is not None:
            record_choice(scope.vocab.data, STR, (PASS,))
        selection = as_selection(args[0])
        parts = selection.compile_parts(scope)
        label = labeller(parts.item_type)
        record_choice(scope.vocab.data, parts.item_type, _written_out(selection.source))
        items, by_fn, pos, prompt = parts.items, by.fn if by else None, call.pos, f"choose {describe_selection(args[0])}"
        question: Question | None = None
        named: Question | None = None
        if "text" in keywords:
            text = self.value(scope, keywords["text"].value, STR, "text")
            if not text.constant:
                scope.error(keywords["text"].pos, "the text of choose() is the question as written: put it in quotes, "
                            "with any value of the moment in braces", 'text = "pay how many of your {gold(current_role)} coins?"')
            else:
                prompt = str(text.fn(None, []))
                bad = breaking_character(prompt) or invisible_character(prompt)
                if bad is not None:  # a line break printed a line of its own under the question, looking like an option
                    scope.error(keywords["text"].pos, f"the question of choose() holds a line break, a control or an "
                                f"invisible character ({as_one_line(bad)}): it is one line, shown as written",
                                'text = "play a card"')
                else:
                    question = compile_question(prompt, keywords["text"].value.pos, scope)
                    if question.fixed:
                        question = None
        else:  # the question a player reads names the values of the names the engine gives ("foe of North's Scout", not "of self")
            named = naming_given(args[0], lambda: f"choose {describe_selection(args[0])}", scope)
        item = parts.item_type.item if isinstance(parts.item_type, ListOf) else parts.item_type
        components = isinstance(item, Component)  # components, or lists of them: the log says what all may know

        def choose(s: "StateView", e: list[Any]) -> Any:
            tape = s.tape
            call = -1
            if tape is not None:
                call = tape.calls
                tape.calls = call + 1
                cursor = tape.cursor
                if cursor < tape.known and tape.asked[cursor] == call:  # a rebuild reads back what this call was answered
                    tape.cursor = cursor + 1
                    return tape.answers[cursor]
                if call == tape.trusted:  # answered on this very position: one of the options, no need to list them
                    value = tape.answers[tape.cursor]
                    tape.took(call)
                    if s.log is not None:
                        s.log.append(f"{by_fn(s, e) if by_fn else s.current_role} chooses "
                                     f"{seen_label(s, value, tape.label, components, tape.apart)}")
                    return value
                if tape.forced and call in tape.forced:  # a copy trying an option: what the run it tries took here
                    return tape.forced[call]
            options, labels = distinct_options(list(items(s, e)), label, s)
            if components and len(options) > 1:
                options, labels = listed_as_seen(s, options, labels, by_fn(s, e) if by_fn else s.current_role)
            if (optional is not None and optional(s, e)  # passing is one more option, answered by none: with no other
                    and (options or always is not None and always(s, e))):  # only when a forced pass is asked too
                if PASS in labels:
                    raise EffectRuntimeError(f"choose(optional = true) offers '{PASS}' itself, so an option may not be "
                                             f"called '{PASS}' too", pos)
                options, labels = [*options, None], [*labels, PASS]
            refused: tuple[str, ...] = ()
            origin = tape.origin if tape is not None else None
            if origin is not None and options:  # its step refuses some positions after it: keep the options it allows
                options, labels, refused = s.game.steps[origin.step].refusal.kept(
                    s, tape, options, labels, by_fn(s, e) if by_fn else s.current_role, call)
            if not options:
                if tape is not None:
                    if not tape.answers and s.game.no_move:  # perhaps the turn's first decision, with nothing to offer
                        s.no_move(by_fn(s, e) if by_fn else s.current_role)
                    tape.passed(s)
                    if origin is not None:
                        tape.forced[call] = None
                return None
            if len(options) == 1 and not (always is not None and always(s, e)):
                if tape is not None:
                    tape.passed(s)
                    if tape.cursor >= len(tape.answers):  # not a replay up to an answer given later
                        ForcedPicks.note(s, by_fn(s, e) if by_fn else s.current_role, options[0], labels[0], components)
                    if origin is not None:
                        tape.forced[call] = options[0]
                return options[0]
            if tape is None:
                raise EffectRuntimeError("choose() needs a player to decide, so it works only in effects run during play "
                                         "by a step that allows choices (not in setup)", pos)
            role = by_fn(s, e) if by_fn else s.current_role
            if components and (away := held_away_from(s, options, role)) is not None:
                raise EffectRuntimeError(
                    f"choose() would name to {role} the components of {away}, which is held facing away from its "
                    f"owner (hidden: owner): choose a place in it instead, e.g. let i = choose(n in numbers(1, "
                    f"count(ZONE))) then nth(ZONE, i)", pos)
            if tape.cursor < len(tape.answers):
                value = tape.answers[tape.cursor]
                tape.took(call)
                if value not in options:
                    raise EffectRuntimeError(f"a recorded choice ({value!r}) is no longer an option here", pos)
                s.note(lambda: f"{role} chooses "
                               f"{seen_label(s, value, labels[options.index(value)], components, components and lying_apart(s, options))}")
                return value
            seat = s.seat_of.get(role, 0) if role is not None else 0
            if role is None:
                raise EffectRuntimeError("choose(by = ...) names no role here (it is none), so nobody may decide", pos)
            if not seat:
                raise EffectRuntimeError(f"choose(by = {role}): nobody plays {role}", pos)
            answered = tape.cursor
            if answered >= s.game.limits.answers:  # a loop of choices that no answer leaves (see limits.DESCRIPTIONS)
                raise EffectRuntimeError(
                    f"this effect was answered {answered:,} times in one run and asks again "
                    f"{exceeded('answers', s.game.limits.answers)}: does a loop of choices give the player no reason to stop? (a "
                    f"search bot never stops one where every pass gains it something)", pos)
            trail = s.slices.get(HookTrail.block)  # asked by a component's program or a status's hook: say whose
            words = question.fill(s, e) if question is not None else prompt
            asker = f" (asked by {trail.running[-1]})" if trail is not None and trail.running else ""
            value = tape.ask(NeedChoice(tuple(options), tuple(labels), seat, words + asker, components, call, refused,
                                        prompt if question is not None else "",
                                        named.fill(s, e) + asker if named is not None else ""))
            tape.answers += (value,)
            tape.took(call)
            s.note(lambda: f"{role} chooses "
                           f"{seen_label(s, value, labels[options.index(value)], components, components and lying_apart(s, options))}")
            return value

        scope.vocab.data[CHOOSES] = True
        if ASKS in scope.reach or RUNS in scope.reach or scope.looping:  # it may ask after a change, or a second time
            scope.reach.add(ASKS_LATE)
        scope.reach.add(ASKS)
        written = _written_out(selection.source) if parts.item_type == STR else None
        texts = written if written is not None and all(isinstance(v, str) for v in written) else None
        return Compiled(parts.item_type, choose, texts=texts)

    def describe(self, call: ast.Call) -> str:
        args = call.positional()
        who = call.keywords().get("by")
        chooser = f" chosen by {who.value.describe()}" if who else " chosen by the current player"
        optional, always = _switched_on(call, "optional"), _switched_on(call, "always_ask")
        passes = f", or nothing if the player passes{optional}" if optional is not None else ""
        text = call.keywords().get("text")
        notes = [f'asked as "{text.value.value}"'] if text and isinstance(text.value, ast.Literal) else []
        notes += [f"a decision even when only one is possible{',' if always else ''}{always}"] if always is not None else []
        said = f" ({'; '.join(notes)})" if notes else ""
        return f"the {describe_selection(args[0])}{chooser}{passes}{said}" if args else "a choice"


def _switched_on(call: ast.Call, name: str) -> str | None:
    """When a flag of ``choose`` holds, in words: None when it is left out or written ``false`` (``always_ask = false``
    asks as usual), ``""`` when written ``true``, else `` when`` and its condition (an option, say).

    >>> from engine.lang.parser import parse_expression
    >>> [_switched_on(parse_expression(f"choose(x in hand, optional = {v})"), "optional") for v in ("true", "false", "quick")]
    ['', None, ' when quick']
    """
    flag = call.keywords().get(name)
    if flag is None or isinstance(flag.value, ast.Literal) and flag.value.value is False:
        return None
    return "" if isinstance(flag.value, ast.Literal) and flag.value.value is True else f" when {flag.value.describe()}"


def _written_out(source: ast.Node) -> tuple[Any, ...] | None:
    """The items of a collection written out as a list of plain values (``["a", "b"]``), else None."""
    if isinstance(source, ast.ListLit) and all(isinstance(item, ast.Literal) for item in source.items):
        return tuple(item.value for item in source.items)  # type: ignore[attr-defined]
    return None


CHOOSE = Choose(CHOOSE_WORD, "choose(x in COLLECTION [where CONDITION] [, by = ROLE] [, always_ask = BOOL] "
                            "[, optional = BOOL] [, text = \"QUESTION\"]) -> item",
               "The item a player picks (the current player, or the one playing ROLE); an empty collection gives none, "
               "a single item is taken without asking unless always_ask is true (a forced move the game counts); "
               "with optional true the player may also pass (choose pass), which gives none; "
               "text is the question in the game's words, code in braces filled in when it is asked.",
               "let p = choose(c in hand(current_role) where c.value > 2)")
"""``choose``: every ruleset may call it."""
