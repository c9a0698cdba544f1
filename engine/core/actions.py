"""Actions and the lazy collections of legal actions.

An :class:`Action` is a step of the turn plus a tuple of arguments; its text
form (``str(action)``) parses back through the state.  Legal actions come as
an :class:`ActionSpace`: a sequence that knows its length and builds an
action only when asked, so a random agent picking one of eighty placements
builds exactly one object.

>>> space = ListSpace(None, [(1,), (2,)])
>>> len(space), (2,) in [a.args for a in space]
(2, True)
"""

from __future__ import annotations

import re
from numbers import Integral
from typing import Any, Iterator, Protocol, Sequence

from engine.core.errors import IllegalActionError
from engine.core.showtext import cut


class Formatter(Protocol):
    """What an action needs from the step that made it."""

    index: int
    sealed: bool  # whether other seats see less of the decision than ``format`` says (``public_format``)

    def format(self, args: tuple[Any, ...]) -> str: ...

    def public_format(self, args: tuple[Any, ...]) -> str: ...


class Action:
    """A decision: which step of the turn it answers and with what arguments."""

    __slots__ = ("step", "args", "origin", "at")

    def __init__(self, step: Formatter, args: tuple[Any, ...], origin: object = None, at: int | None = None) -> None:
        self.step = step
        self.args = args
        self.origin = origin  # the ActionSpace that listed it, and
        self.at = at  # its number there: with both, apply skips a membership test (see ActionSpace.built)

    def __str__(self) -> str:
        return self.step.format(self.args)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.step is self.step and other.args == self.args

    def __hash__(self) -> int:
        return hash((id(self.step), self.args))

    def __copy__(self) -> "Action":
        return self  # never changed: a copy is the action itself, still one of its state's

    def __deepcopy__(self, memo: dict[int, Any]) -> "Action":
        """The action itself: a deep copy copied its step too, and so was no longer a legal action of any state.

        >>> import copy
        >>> a = ListSpace(None, [("pass",)])[0]
        >>> copy.deepcopy([a])[0] is a
        True
        """
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its game (which pickles as what it was loaded from) and the number of its step in the game's
        turn, with its arguments; an answer to a choice or a chance action as its step, which pickles by name.  So
        an action can be the result of a ``multiprocessing`` or Ray task: on the other side, or beside a state of
        another load of the same ruleset, ``state.apply`` takes it as its text.

        >>> import engine, pickle
        >>> state = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> action = state.legal_actions()[2]
        >>> str(pickle.loads(pickle.dumps(action))) == str(action)
        True
        """
        step = self.step
        steps = getattr(getattr(step, "game", None), "steps", ())
        for index, candidate in enumerate(steps):
            if candidate is step:
                return _turn_step_action, (step.game, index, self.args)
        if type(step).__reduce__ is object.__reduce__:  # a step of its own, neither a turn's nor one named by its module
            raise TypeError(f"the action '{self}' cannot be pickled (its step is no step of a game's turn): "
                            f"send its text, str(action), and apply that")
        return Action, (step, self.args)


def _turn_step_action(game: Any, index: int, args: tuple[Any, ...]) -> Action:
    """An action of step number ``index`` of ``game``'s turn, read back from a pickle (see :meth:`Action.__reduce__`)."""
    return Action(game.steps[index], args)


class ActionSpace(Sequence[Action]):
    """The legal actions of one decision, built lazily."""

    __slots__ = ()
    step: Any

    def contains_args(self, args: tuple[Any, ...]) -> bool:  # pragma: no cover - abstract
        """Whether an action with arguments ``args`` is one of this space's."""
        raise NotImplementedError

    def args_at(self, i: int) -> tuple[Any, ...]:  # pragma: no cover - abstract
        """The arguments of action ``i`` (``0 <= i < len(self)``), without building the action."""
        raise NotImplementedError

    def all_args(self) -> list[tuple[Any, ...]]:  # pragma: no cover - abstract
        """The arguments of every action, in order, without building the actions.

        >>> ProductSpace(None, [("a",), ("b",)], [1, 2]).all_args()
        [('a', 1), ('a', 2), ('b', 1), ('b', 2)]
        """
        raise NotImplementedError

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Action)
            and action.step is self.step
            and self.contains_args(action.args)
        )

    def built(self, action: Action) -> bool:
        """Whether ``action`` is the one this space built as its action number ``action.at``, its arguments still
        those very objects, so it is legal without a membership test.  An action made by hand naming this space as
        its origin, or one of its actions whose arguments were changed since, is not: it is tested as any other.

        >>> space = ListSpace(None, [(1,), (2,)])
        >>> space.built(space[1]), space.built(Action(None, (3,), space, 1)), space.built(Action(None, (2,), space))
        (True, False, False)
        """
        at, args = action.at, action.args
        if action.origin is not self or action.step is not self.step or type(at) is not int or type(args) is not tuple:
            return False
        try:
            own = self.args_at(at)
        except (IndexError, TypeError):
            return False
        if own is args:  # a listed space's own tuple: the common case, at once
            return True
        return len(own) == len(args) and all(mine is theirs for mine, theirs in zip(own, args))

    def texts(self) -> list[str]:
        """Each action's text, in order."""
        return [str(a) for a in self]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as the list of its actions, each pickled as :meth:`Action.__reduce__` says: a task may send back
        the actions it listed (pickling the space raised "Can't pickle local object", its step's code going with it).

        >>> import engine, pickle
        >>> state = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
        >>> [str(a) for a in pickle.loads(pickle.dumps(state.legal_actions()))] == state.legal_actions().texts()
        True
        """
        return list, (list(self),)

    def __copy__(self) -> "ActionSpace":
        return self  # never changed, as its actions are not: a copy is the space itself, still its state's

    def __deepcopy__(self, memo: dict[int, Any]) -> "ActionSpace":
        """The space itself, as a copy of an action is the action (an agent deep-copied keeps its state's actions).

        >>> import copy
        >>> space = ListSpace(None, [("pass",)])
        >>> copy.deepcopy([space])[0] is space
        True
        """
        return self

    def missing(self, i: Any) -> Exception:
        """The error for an index that numbers no action here: an IndexError saying how many there are, or a
        TypeError for what is not a whole number (``legal_actions()[7]`` of seven said only ``7``).

        >>> str(ListSpace(None, [("pass",)]).missing(3)), str(EmptySpace().missing("x"))
        ('there is no legal action number 3: there is 1 (0)', "legal actions are numbered by whole numbers, not str 'x'")
        """
        if not isinstance(i, Integral):
            return TypeError(f"legal actions are numbered by whole numbers, not {type(i).__name__} {cut(repr(i), 60)}")
        count = len(self)
        there = f"there are {count} (0 to {count - 1})" if count > 1 else "there is 1 (0)" if count else "there are none now"
        return IndexError(f"there is no legal action number {i}: {there}")

    def __repr__(self) -> str:
        """How many actions and the first few, as the prompt shows ``state.legal_actions()``.

        >>> from types import SimpleNamespace
        >>> ListSpace(SimpleNamespace(format=" ".join), [("pass",), ("take", "2")])
        <2 actions: 'pass', 'take 2'>
        """
        shown = ", ".join(repr(str(self[i])) for i in range(min(len(self), 3)))
        return f"<{len(self)} action{'s' * (len(self) != 1)}{': ' if shown else ''}{shown}{', ...' * (len(self) > 3)}>"


class ListSpace(ActionSpace):
    """Legal actions given as a list of argument tuples."""

    __slots__ = ("step", "options")

    def __init__(self, step: Any, options: Sequence[tuple[Any, ...]]) -> None:
        self.step = step
        self.options = options

    def __len__(self) -> int:
        return len(self.options)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.options)))]
        try:
            return Action(self.step, self.options[i], self, i)
        except (IndexError, TypeError):
            raise self.missing(i) from None

    def __iter__(self) -> Iterator[Action]:
        step = self.step
        return (Action(step, o, self, i) for i, o in enumerate(self.options))

    def contains_args(self, args: tuple[Any, ...]) -> bool:
        return args in self.options

    def args_at(self, i: int) -> tuple[Any, ...]:
        return self.options[i]

    def all_args(self) -> list[tuple[Any, ...]]:
        return list(self.options)


class ProductSpace(ActionSpace):
    """Every combination of an option tuple ``a`` from ``first`` and a value ``b`` from ``second``: ``args = a + (b,)``."""

    __slots__ = ("step", "first", "second", "size")

    def __init__(self, step: Any, first: Sequence[tuple[Any, ...]], second: Sequence[Any]) -> None:
        self.step = step
        self.first = first
        self.second = second
        self.size = len(first) * len(second)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.size))]
        if type(i) is not int and not isinstance(i, Integral) or not -self.size <= i < self.size:
            raise self.missing(i)
        i %= self.size
        a, b = divmod(i, len(self.second))
        return Action(self.step, self.first[a] + (self.second[b],), self, i)

    def __iter__(self) -> Iterator[Action]:
        step, second = self.step, self.second
        return (Action(step, a + (b,), self, i) for i, (a, b) in enumerate((a, b) for a in self.first for b in second))

    def contains_args(self, args: tuple[Any, ...]) -> bool:
        return args[:-1] in self.first and args[-1] in self.second

    def args_at(self, i: int) -> tuple[Any, ...]:
        a, b = divmod(i, len(self.second))
        return self.first[a] + (self.second[b],)

    def all_args(self) -> list[tuple[Any, ...]]:
        return [a + (b,) for a in self.first for b in self.second]


class ChainSpace(ActionSpace):
    """The actions of one space followed by those of another (of the same step).

    >>> space = ChainSpace(None, ListSpace(None, [("pass",)]), ListSpace(None, [(1,), (2,)]))
    >>> len(space), [a.args for a in space][-1], space.contains_args((2,))
    (3, (2,), True)
    """

    __slots__ = ("step", "first", "second")

    def __init__(self, step: Any, first: ActionSpace, second: ActionSpace) -> None:
        self.step = step
        self.first = first
        self.second = second

    def __len__(self) -> int:
        return len(self.first) + len(self.second)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if type(i) is not int and not isinstance(i, Integral) or not -len(self) <= i < len(self):
            raise self.missing(i)
        i %= len(self)
        n = len(self.first)
        action = self.first[i] if i < n else self.second[i - n]
        return Action(self.step, action.args, self, i)

    def __iter__(self) -> Iterator[Action]:
        step, i = self.step, 0
        for space in (self.first, self.second):
            for action in space:
                yield Action(step, action.args, self, i)
                i += 1

    def contains_args(self, args: tuple[Any, ...]) -> bool:
        return self.first.contains_args(args) or self.second.contains_args(args)

    def args_at(self, i: int) -> tuple[Any, ...]:
        """The arguments of action number ``i`` (from the end when negative, as indexing counts).

        >>> ChainSpace(None, ListSpace(None, [("pass",)]), ListSpace(None, [(1,), (2,)])).args_at(-1)
        (2,)
        """
        n = len(self.first)
        if i < 0:
            i += n + len(self.second)
        return self.first.args_at(i) if i < n else self.second.args_at(i - n)

    def all_args(self) -> list[tuple[Any, ...]]:
        return self.first.all_args() + self.second.all_args()


class EachSpace(ActionSpace):
    """One action per item, the item followed by the same arguments for all: ``args = (item, *rest)``.

    Listing costs a copy of the items, not a tuple per action: a decision among the
    cards of a hand builds only the arguments of the one chosen.

    >>> space = EachSpace(None, [4, 7], (2,))
    >>> len(space), space.args_at(1), space.contains_args((4, 2)), space.contains_args((4, 1)), space.all_args()
    (2, (7, 2), True, False, [(4, 2), (7, 2)])
    """

    __slots__ = ("step", "items", "rest")

    def __init__(self, step: Any, items: Sequence[Any], rest: tuple[Any, ...]) -> None:
        self.step = step
        self.items = items
        self.rest = rest

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.items)))]
        try:
            return Action(self.step, (self.items[i], *self.rest), self, i)
        except (IndexError, TypeError):
            raise self.missing(i) from None

    def __iter__(self) -> Iterator[Action]:
        step, rest = self.step, self.rest
        return (Action(step, (item, *rest), self, i) for i, item in enumerate(self.items))

    def contains_args(self, args: tuple[Any, ...]) -> bool:
        return len(args) == len(self.rest) + 1 and args[1:] == self.rest and args[0] in self.items

    def args_at(self, i: int) -> tuple[Any, ...]:
        return (self.items[i], *self.rest)

    def all_args(self) -> list[tuple[Any, ...]]:
        rest = self.rest
        return [(item, *rest) for item in self.items]


class EmptySpace(ActionSpace):
    """No legal actions (the game is over)."""

    __slots__ = ("step",)

    def __init__(self) -> None:
        self.step = None

    def __len__(self) -> int:
        return 0

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return []
        raise self.missing(i)

    def contains_args(self, args: tuple[Any, ...]) -> bool:
        return False

    def args_at(self, i: int) -> tuple[Any, ...]:
        raise IndexError(i)

    def all_args(self) -> list[tuple[Any, ...]]:
        return []


def normalise(text: str, keep_case: bool = False) -> str:
    """Action text with brackets dropped and spacing collapsed: '(1, 0)' == '1,0'; in lower case unless ``keep_case``."""
    text = re.sub(r"[()]", " ", text.strip() if keep_case else text.strip().lower())
    text = re.sub(r"\s*,\s*", ",", text)
    return re.sub(r"\s+", " ", text).strip()


def find_text(text: str, candidates: Sequence[str]) -> int | None:
    """The position of the candidate ``text`` writes (spacing and brackets forgiven): one written in its case first,
    else one written in another case; None for none.  A text that writes, in another case, candidates that differ by
    their case alone (``Guard`` and ``guard``) names none of them and is refused: taking one would play what the
    player did not mean.

    >>> find_text("choose Guard", ["choose guard", "choose Guard"]), find_text("CHOOSE rook", ["choose Rook"])
    (1, 0)
    >>> find_text("choose GUARD", ["choose guard", "choose Guard"])
    Traceback (most recent call last):
    engine.core.errors.IllegalActionError: 'choose GUARD' is ambiguous: it writes choose guard and choose Guard, which differ by their case alone; type it in the case shown
    >>> find_text("choose a,b", ["choose a, b", "choose a,b"])
    1
    >>> find_text(" choose  a,b ", ["choose a, b", "choose a,b"])
    Traceback (most recent call last):
    engine.core.errors.IllegalActionError: ' choose  a,b ' is ambiguous: it reads as choose a, b and choose a,b, which differ by their spacing or brackets alone; type it as shown
    """
    if text in candidates:  # a candidate's own text is that candidate, whatever others read alike
        return candidates.index(text)
    cased = normalise(text, keep_case=True)
    exact = [i for i, c in enumerate(candidates) if normalise(c, keep_case=True) == cased]
    if len({candidates[i] for i in exact}) > 1:  # 'choose a,b' beside 'choose a, b': which one is not for us to guess
        alike = list(dict.fromkeys(candidates[i] for i in exact))
        raise IllegalActionError(f"'{cut(text, 80)}' is ambiguous: it reads as {' and '.join(alike[:4])}, which differ "
                                 "by their spacing or brackets alone; type it as shown")
    if exact:
        return exact[0]
    loose = normalise(text)
    found = [i for i, c in enumerate(candidates) if normalise(c) == loose]
    written = list(dict.fromkeys(normalise(candidates[i], keep_case=True) for i in found))
    if len(written) > 1:
        raise IllegalActionError(f"'{cut(text, 80)}' is ambiguous: it writes {' and '.join(written[:4])}, which differ "
                                 "by their case alone; type it in the case shown")
    return found[0] if found else None
