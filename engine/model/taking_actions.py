"""Taking an action: action text read against the legal actions, one seat's action applied (put back as it was
when the ruleset fails half-way), every seat's actions of a simultaneous turn at once, chance resolved, and the
playouts' moves by number.

The methods of :class:`~engine.model.state.State` that do it, kept in their own class for the reader
(``State`` inherits it; it holds no data of its own).

Example::

    s.apply("play Ace")                 # text read against the legal actions
    s.play(0)                        # legal action number 0, not built: the playouts' move
"""

from __future__ import annotations

from dataclasses import replace
from numbers import Integral
from typing import TYPE_CHECKING, Any, Callable, Mapping

from engine.blocks import choices
from engine.blocks.choice_labels import CHOICE, parse as parse_answer, public_choice
from engine.core.actions import Action, ActionSpace, find_text, normalise
from engine.core.errors import IllegalActionError
from engine.core.other_names import as_ids
from engine.core.showtext import cut
from engine.core.slices import NO_CHANCE, Chance
from engine.model.state_fields import StateFields
from engine.lang.budgets import refill

if TYPE_CHECKING:
    from engine.model.state import State


def _rules_text(game: Any) -> str:
    """The variants and options ``game`` was loaded with, in words.

    >>> from types import SimpleNamespace
    >>> _rules_text(SimpleNamespace(variants=("short",), set_options={"width": "5"})), _rules_text(SimpleNamespace(variants=(), set_options={}))
    ('variants short, options width=5', 'no variant, no option set')
    """
    variants = f"variants {', '.join(game.variants)}" if game.variants else "no variant"
    options = ", ".join(f"{name}={value}" for name, value in game.set_options.items())
    return f"{variants}, {f'options {options}' if options else 'no option set'}"


_NOT_PUT_BACK = frozenset(("game", "players", "log", "turn_starts", "history", "dropped"))
"""The fields of a state :meth:`TakingActions._put_back` leaves: the position is every other one."""


class TakingActions(StateFields):
    """Reading, checking and applying an action: text to action, one seat's move, all seats' moves at once, chance."""

    __slots__ = ()

    def note(self, make: Callable[[], str]) -> None:
        """Record an event in words (only when this state keeps a log, and while it is within ``log_lines``)."""
        if self.log is not None and len(self.log) <= self.game.limits.log_lines:
            self.log.append(make())

    def public_text(self, action: Action | str) -> str:
        """How ``action``, one of the legal actions now (or its text), reads to the seats that do not take it: a sealed commit
        without what it seals, a choice of a component some seat cannot see by its kind and place
        (``choose a card from hand of A``), anything else as it is.  An action not legal now raises
        IllegalActionError, as :meth:`apply` does (what it hides depends on the position it is taken in).

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> s.public_text(s.legal_actions()[0]) == str(s.legal_actions()[0])
        True
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not isinstance(action, Action):
            raise TypeError(f"public_text() takes one of legal_actions() or its text, not {type(action).__name__} "
                            f"{cut(repr(action), 60)}")
        elif not self._listed(action) and not self._offered(action):
            raise IllegalActionError(f"{_told(action)} is not a legal action now")  # its public form is this position's
        if action.step is CHOICE and action.args:
            hidden = public_choice(self, str(action.args[0]))
            if hidden is not None:
                return hidden
        seen = getattr(action.step, "public_text_at", None)  # a step whose public text depends on where things lie
        return seen(self, action.args) if seen is not None else action.step.public_format(action.args)

    def parse_action(self, text: str) -> Action:
        """The legal action written as ``text``; raises IllegalActionError with the reason.

        On a board of points a point may be written by its name (``choose d6``): a text that is not legal as
        written is read again with each word naming a point written as the point's position (``choose 3,1``).
        On a board that names its cells (``cell_names``), a cell written ``x,y`` is read again as its name.
        A component may be written by one of its other names (``also:``, as a rulebook prints it): ``commit * to left``.
        A text that is legal as written is read so first: an other name may be a word the actions are written with
        (``at``, ``1``, a cell ``0,0``), and the log, saves and legal actions write ids, which must read as they did.
        Anything but text raises TypeError saying so (it failed inside, on Python's regular expressions).
        """
        if not isinstance(text, str):
            raise TypeError(f"parse_action() takes the text of an action, not {type(text).__name__} "
                            f"{cut(repr(text), 60)} (legal_actions()[i] is action number i)")
        written = as_ids(text, self.game.other_names)
        if written == text:
            return self._parse_named(text)
        try:
            return self._parse_named(text)
        except IllegalActionError:  # not legal as written: read with the other names written as ids
            pass
        try:
            return self._parse_named(written)
        except IllegalActionError as err:  # refused: quoted as typed ('commit * to left')
            raise IllegalActionError(str(err).replace(f"'{written}'", f"'{text}'")) from None

    def _parse_named(self, text: str) -> Action:
        """The legal action ``text`` writes, a point or a cell written by its name or its position; raises
        IllegalActionError with the reason."""
        try:
            return self._parse_as_written(text)
        except IllegalActionError:
            named = self.game.cell_names.typed(text)  # a cell written x,y on a board that names its cells: its name
            names = getattr(self.game.grid, "names", None)
            words = text.split()
            if named == text and (not names or not any(word in names for word in words)):
                raise
        retry = named if named != text else " ".join(f"{names[w][0]},{names[w][1]}" if w in names else w for w in words)
        try:
            return self._parse_as_written(retry)
        except IllegalActionError as err:  # refused as read again: quoted as typed ('choose Hill', not 'choose 4,2')
            raise IllegalActionError(str(err).replace(f"'{retry}'", f"'{text}'")) from None

    def _parse_as_written(self, text: str) -> Action:
        """The legal action ``text`` writes, each word as it is; raises IllegalActionError with the reason."""
        if self.outcome is not None:
            raise IllegalActionError(f"'{text}' is not possible: the game is over")
        if self.pending is not None:
            return Action(CHOICE, (parse_answer(self, text),), self.legal_actions())
        if self.chance is not None:
            return self._parse_roll(text)
        step = self.game.steps[self.step]
        try:
            action = step.parse(self, text)
        except IllegalActionError as err:
            if step.refusal is not None and any(normalise(str(a)) == normalise(text) for a in step.actions(self)):
                raise IllegalActionError(step.refusal.reason(text)) from None
            verb = text.split()[0].lower() if text.split() else ""
            later = [i for i, step in enumerate(self.game.steps) if i != self.step and verb in step.verbs]
            if later and verb not in self.game.steps[self.step].verbs:
                ahead = [i for i in later if i > self.step]  # a step before this one is over for this turn
                at = ahead[0] if ahead else later[0]
                past = "" if ahead else ", already past in this one"
                raise IllegalActionError(
                    f"{err} ('{verb}' comes in step {at + 1} of the turn{past}; this is step {self.step + 1})") from None
            raise
        if step.refusal is not None and action not in self.legal_actions():  # a step reading text its own way
            raise IllegalActionError(step.refusal.reason(text))
        return action

    def _parse_roll(self, text: str) -> Action:
        """The chance action ``roll N`` / ``draw NAME`` (or just ``N`` / ``NAME``) written as ``text``; raises with the possible results."""
        assert self.chance is not None
        verb = self.chance.verb
        said = " ".join(text.split())
        said = said if said.lower().startswith(verb + " ") else f"{verb} {said}"
        legal = self.legal_actions()
        found = find_text(said, [f"{verb} {action.args[0]}" for action in legal])
        if found is not None:
            return legal[found]
        results = ", ".join(str(a) for a in self.legal_actions())
        what = "the die being rolled" if verb == "roll" else "the draw"
        raise IllegalActionError(f"'{text}' is not a result of {what}; the results are: {results}")

    def apply(self, action: Action | str, undo: bool = True) -> None:
        """Apply a legal action (object or text).  An illegal one raises and changes nothing; so does one the
        ruleset fails to carry out half-way (a card's program dividing by a counter that is 0): with ``undo``
        the state is put back as it was, log and history too, before the error is raised.  ``undo=False``
        makes no copy to put back, for a state its caller drops when the ruleset fails (simulations, searches).

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> s.apply(s.legal_actions()[0]); s.turn_number
        2
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        else:
            try:
                listed = self._listed(action)
            except AttributeError:  # not an Action at all (an index, None): say what apply takes
                raise TypeError(f"apply() takes one of legal_actions() or its text, not {type(action).__name__} "
                                f"{cut(repr(action), 60)} (play(i) applies legal action number i)") from None
            if not listed and not self._offered(action):
                foreign = all(action.step is not step for step in self.game.steps) and action.step is not CHOICE
                if foreign and self._same_ruleset(action):  # another load of these files (a pickled action): its text
                    action = self.parse_action(str(action))
                else:
                    raise IllegalActionError(f"{_told(action)} is not a legal action now" + (self._foreign(action) if foreign else ""))
        if not undo:
            if self.history is not None:
                self.history.append(str(action))
            self._act(action.args, False)
            return
        kept, lengths = self.clone(), self._lengths()
        if self.history is not None:
            self.history.append(str(action))
        try:
            self._act(action.args)
        except BaseException:
            self._put_back(kept, lengths)
            raise

    def _listed(self, action: Action) -> bool:
        """Whether ``action`` is one the legal actions now built, unchanged (no membership test needed); one made
        by hand naming them as its origin is not (``Action(step, args, origin=...)`` was applied untested).

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> first = s.legal_actions()[0]
        >>> s._listed(first), s._listed(Action(first.step, first.args, s.legal_actions()))
        (True, False)
        """
        space = action.origin
        return space is not None and space is self._actions and space.built(action)

    def _offered(self, action: Action) -> bool:
        """Whether ``action`` is one of the legal actions now; an Action made up by hand with arguments no listing
        holds (``Action(step, ("x",))``) is not: the test raised Python's TypeError or IndexError from inside.

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> first = s.legal_actions()[0]
        >>> s._offered(first), s._offered(Action(first.step, ("x",) * len(first.args)))
        (True, False)

        Arguments are data the engine writes (whole numbers, texts, tuples of them, None): an object of another
        type that claims to equal anything (its ``__eq__`` always true) equalled a listed argument and was played,
        failing inside with Python's TypeError.
        """
        return _among(action, self.legal_actions())

    def _same_ruleset(self, action: Action) -> bool:
        """Whether ``action`` belongs to another load of this state's ruleset, the same files with the same variants
        and options (what a pickled action is read back as, in this process or another): its text says it here."""
        other = getattr(action.step, "game", None)
        game = self.game
        return (other is not None and other is not game and getattr(other, "content_hash", None) == game.content_hash
                and getattr(other, "variants", None) == game.variants)

    def _foreign(self, action: Action) -> str:
        """Why ``action``, listed by a state of another game, is refused: the same ruleset loaded with other variants
        or options is another game, whose text would be taken here as a move of this one; another ruleset's, or a
        load of this one some time before, may be sent as its text.

        Example: an action of ``load("my-game", ["short"])`` given to a state of ``load("my-game")`` says so.
        """
        other = getattr(action.step, "game", None)
        if getattr(other, "source", None) == self.game.source and (
                other.variants != self.game.variants or other.set_options != self.game.set_options):
            return (f": this action was listed by a state of {self.game.name} with other variants or options (there "
                    f"{_rules_text(other)}; here {_rules_text(self.game)}), a game of other rules")
        return (": this action was listed by a state of another game (another load of a ruleset lists actions of its "
                "own); apply its text, state.apply(str(action))")

    def _lengths(self) -> tuple[int, int]:
        """How long the log and the history are (0 when not kept): what :meth:`_put_back` cuts them back to."""
        return len(self.log or ()), len(self.history or ())

    def _put_back(self, kept: "State", lengths: tuple[int, int]) -> None:
        """After an action that failed: this state ``kept`` again (a clone made before it, which nobody else
        holds), its log and history cut back to ``lengths``.  An answer whose effect failed has put the position
        back itself, waiting at its choice again (with its coroutine): only the choice as it was asked (not with
        the answer's own changes noted as made outside the effect) and the turn of the last decision are given back."""
        if self.log is not None:
            del self.log[lengths[0]:]
        if self.history is not None:
            del self.history[lengths[1]:]
        if self.pending is not None and kept.pending is not None:
            self.pending, self.decided = kept.pending, kept.decided
        else:
            for name in StateFields.__slots__:
                if name not in _NOT_PUT_BACK:
                    setattr(self, name, getattr(kept, name))
        if self.turn_starts:  # kept beside the log: the turns the failed action began are forgotten with its lines
            for turn in [t for t in self.turn_starts if t > self.turn_number]:
                del self.turn_starts[turn]

    def play(self, index: int) -> None:
        """Apply legal action number ``index`` without building it: the move of random playouts and rollouts.

        The same as ``apply(legal_actions()[index], undo=False)``, with no Action object and
        no text unless the state keeps a history: a ruleset failing half-way leaves the state
        part-changed (a playout drops it); play on a copy, or use :meth:`apply`, to keep it.

        >>> import engine
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1, record=True)
        >>> t = s.clone(); t.history = []
        >>> s.apply(s.legal_actions()[3]); t.play(3)
        >>> t == s and t.history == s.history[-1:]
        True
        """
        space = self._actions  # the pending decision's actions, kept as it was entered
        if space is None:
            space = self.legal_actions()
        if type(index) is bool:  # True is 1 to Python, but no number of an action
            raise TypeError(f"play() takes the number of a legal action (a whole number), not {index}")
        try:
            if index < 0:  # from the end, as legal_actions()[index] counts (a space's own args_at need not)
                index += len(space)
                if index < 0:
                    raise IndexError(index)
            args = space.args_at(index)
        except IndexError:
            count = len(space)
            raise IndexError(f"there is no legal action number {index - count if index < 0 else index}: "
                             + (f"there are {count} (0 to {count - 1})" if count else "there are none now")) from None
        except TypeError:  # 1.5, "3", None: say what play() takes, not how a table was indexed
            raise TypeError(f"play() takes the number of a legal action (a whole number), not {type(index).__name__} "
                            f"{cut(repr(index), 60)} (apply() takes an action or its text)") from None
        if self.history is not None:
            self.history.append(space.step.format(args))
        (self.game.act or TakingActions._act)(self, args, False)  # the generated act, or the method

    def play_randomly(self, rand: Callable[[], float], most: int) -> int:
        """Play random decisions, each ``play(int(rand() * len(legal_actions())))``, until the game ends, the dice wait
        (a CHANCE node) or ``most`` are played; how many were played.  The loop of search rollouts, with the steps of
        :meth:`play` that a drawn index never needs left out.  A turn that takes ``limits.turn_decisions`` of them
        without passing raises :meth:`endless_turn`'s error (one comparison a decision: whether the turn passed).

        >>> import engine, random
        >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> t = s.clone(); a, b = random.Random(5), random.Random(5)
        >>> while s.outcome is None: s.play(int(a.random() * len(s.legal_actions())))
        >>> n = t.play_randomly(b.random, 10_000)
        >>> t == s
        True
        """
        limit = self.game.limits.turn_decisions
        last = most - limit  # past it, a turn beginning can no longer reach the limit before ``most``
        turn, stop = self.turn_number, min(most, limit)  # stop: ``most``, or where this turn reaches the limit first
        played = 0
        if self.history is not None:  # each decision's text is kept: the plain way
            while played < stop and self.outcome is None and self.chance is None:
                self.play(int(rand() * len(self.legal_actions())))
                played += 1
                if self.turn_number != turn:
                    turn, stop = self.turn_number, played + limit if played < last else most
        else:
            act, legal_actions = self.game.act or TakingActions._act, self.legal_actions  # the generated act, or the method
            most_actions = self.game.limits.actions
            while played < stop and self.outcome is None and self.chance is None:
                space = self._actions
                if space is None:
                    space = legal_actions()
                count = len(space)
                if not count:
                    self.play(0)  # raises, saying there is none
                if count > most_actions:
                    raise self.too_many_actions(count)
                act(self, space.args_at(int(rand() * count)), False)
                played += 1
                if self.turn_number != turn:
                    turn, stop = self.turn_number, played + limit if played < last else most
        if played == stop < most and self.outcome is None and self.chance is None:
            raise self.endless_turn(limit)
        return played

    def _act(self, args: tuple[Any, ...], keep: bool = True) -> None:
        """Carry out a legal decision given by its arguments, then move on to the next one (``keep=False``: for a
        caller that drops the state if the ruleset fails, so no copy is made to put back, see :func:`choices.answer`):
        the game's generated ``act`` (:mod:`engine.compiling.turn_code`), or the same here."""
        generated = self.game.act
        if generated is not None:
            generated(self, args, keep)
            return
        self._actions = None
        refill(self)  # each action has the whole step budget
        if self.chance is not None:
            self._resolve_chance(args[0])
            return
        self.decided = self.turn_number  # a round without any decision ends the game
        if self.pending is not None:
            finished = choices.answer(self, args[0], keep)
        else:
            finished = self.game.steps[self.step].apply(self, args)
        if finished:
            self.advance()
        elif self.pending is None and self.game.steps[self.step].refusal is not None:
            self._actions = None  # what the step listed for its next decision is judged when asked

    def apply_joint(self, actions: Mapping[int, Action | str]) -> None:
        """At a SIMULTANEOUS node, apply every seat's sealed decision together: ``{seat: action, ...}``.

        ``actions`` names each of :meth:`simultaneous_seats` once, with one of its
        :meth:`legal_actions` (object or text).  The later seats' decisions are
        taken first, each as if it were its turn, then the seat to move's, which
        moves the game on as :meth:`apply` does.  Anything illegal raises and
        changes nothing; so does the ruleset failing half-way (every seat's
        decision is taken back).

        Example: ``s.apply_joint({1: "commit 0 to left", 2: "commit 3 to left"})``.
        """
        if not isinstance(actions, Mapping):
            raise TypeError(f"apply_joint takes {{seat: action, ...}}, not {type(actions).__name__}")
        seats = self.simultaneous_seats()
        if len(seats) < 2:
            raise IllegalActionError("no simultaneous decision is waiting: apply one action with apply()")
        given = [seat if isinstance(seat, Integral) and not isinstance(seat, bool) else None for seat in actions]
        if None in given or sorted(given) != sorted(seats):  # type: ignore[type-var]  # None was just ruled out
            wanted = ", ".join(map(str, seats))
            named = ", ".join(str(seat) if isinstance(seat, Integral) and not isinstance(seat, bool)
                              else cut(repr(seat), 40) for seat in actions)
            raise IllegalActionError(f"a joint action needs one action for each of the seats {wanted}, not for "
                                     f"{named or 'none'}" + (" (a seat is a whole number)" if None in given else ""))
        chosen: list[tuple[int, Action]] = []
        for seat in seats:
            action, space = actions[seat], self.legal_actions(seat)
            if isinstance(action, str):
                at = find_text(action, [str(a) for a in space])
                if at is None:
                    raise IllegalActionError(f"'{action}' is not a legal action of seat {seat} now")
                action = space[at]
            elif not isinstance(action, Action):
                raise TypeError(f"apply_joint() takes for each seat one of legal_actions(seat) or its text, not "
                                f"{type(action).__name__} {cut(repr(action), 60)}")
            elif not space.built(action) and not _among(action, space):
                found = [a for a in space if str(a) == str(action)] if self._same_ruleset(action) else []
                if not found:  # an action of another load of these files (a pickled one) is taken as its text
                    raise IllegalActionError(f"{_told(action)} is not a legal action of seat {seat} now")
                action = found[0]
            chosen.append((seat, action))
        step = self.game.steps[self.step]
        kept, lengths = self.clone(), self._lengths()
        try:
            self.decided = self.turn_number  # decisions are taken: what they then find empty is no "no legal move"
            for seat, action in chosen[1:]:
                if self.history is not None:
                    self.history.append(str(action))
                self._seat_view(self._turn_of(seat), lambda s: step.apply(s, action.args))
                self._actions = None
            self.apply(chosen[0][1], undo=False)
        except BaseException:  # the ruleset failed half-way: every seat's decision is taken back
            self._put_back(kept, lengths)
            raise

    def _resolve_chance(self, result: Any) -> None:
        """Record a die's result (a drawn component's name); once the event has all it needs, the step begins with them."""
        assert self.chance is not None
        event = replace(self.chance, results=self.chance.results + (result,))
        if len(event.results) < event.size:
            self.chance = event
            return
        self.chance = None
        kept = self.slices.get(Chance.block, NO_CHANCE)
        if event.pool:
            self.slices[Chance.block] = kept._replace(drawn=event.results + (kept.drawn or ()))
        else:
            self.slices[Chance.block] = kept._replace(loaded=event.results + (kept.loaded or ()))
        step = self.game.steps[event.step]
        entered = self._enter(step)
        if entered is None:  # no legal move: the game is over, or the turn passes
            if self.outcome is None:
                self.step = len(self.game.steps) - 1
                self.advance()
        elif not entered:
            self.advance()


def _among(action: Action, space: ActionSpace) -> bool:
    """Whether ``action``, made by hand, is one of ``space``'s: its arguments plain data (see :func:`_plain`) that
    the space holds; arguments it cannot even look up (``("x",)`` where it holds numbers) are not.

    >>> from engine.core.actions import ListSpace
    >>> space = ListSpace(None, [(1,), (2,)])
    >>> _among(Action(None, (2,)), space), _among(Action(None, (object(),)), space)
    (True, False)
    """
    try:
        return _plain(action.args) and action in space
    except (TypeError, ValueError, IndexError, KeyError):
        return False


_PLAIN = (int, str, bool, float, type(None))


def _plain(args: object, depth: int = 0) -> bool:
    """Whether ``args`` is a tuple of data of the kinds an action's arguments hold: whole numbers, texts, None and
    tuples of them (a cell), each of exactly its built-in type (a subclass may redefine equality).

    >>> _plain((3, "a", (1, 0), None)), _plain([3]), _plain((object(),))
    (True, False, False)
    """
    return type(args) is tuple and depth < 8 and all(
        type(item) in _PLAIN or _plain(item, depth + 1) for item in args)


def _told(action: Action) -> str:
    """``action`` quoted as its text, or, made up by hand with arguments its step cannot write, by those arguments.

    >>> _told(Action(CHOICE, ("x",)))
    "'choose x'"
    """
    try:
        return f"'{action}'"
    except (TypeError, ValueError, IndexError, KeyError):
        return f"an action made up with the arguments {cut(repr(action.args), 80)} (no step writes them)"
