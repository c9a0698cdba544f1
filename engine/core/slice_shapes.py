"""Checking a loaded slice against the types its fields declare, so that a save edited by hand to hold work of the
wrong shape (a text where a number goes, a record of two where three go, a component that does not exist) is refused
when it is read instead of failing moves later.

A slice's fields say what they hold by their annotations (:mod:`engine.core.slices`): ``int``, ``str``, ``bool``,
``tuple[X, ...]`` (any number of X), ``tuple[X, Y]`` (exactly those), ``X | None``, ``Any`` (not checked), and
:data:`ComponentId`, a component's number, which must be one of the game's.

>>> from typing import NamedTuple
>>> class Work(NamedTuple):
...     done: tuple[tuple[ComponentId, str | None], ...] | None = None
...     block = "work"
...     saved = ("work done",)
>>> misfit(Work(((1, "action"),)), components=3) is None
True
>>> misfit(Work(((7, "action"),)), components=3)
"'work done' holds 7, which is not one of the game's components"
>>> misfit(Work(((1,),)), components=3)
"'work done' holds (1,), which is not a record of 2"
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any, NewType

ComponentId = NewType("ComponentId", int)
"""A component's number (its index in the game's components), as a slice field's type: checked to be one of them."""


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """The field types of slice kind ``cls`` (its annotations, evaluated once; none checked when they cannot be read,
    as a block's written with names imported only for a type checker)."""
    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError):
        return {}


def misfit(part: Any, components: int) -> str | None:
    """What in slice ``part`` does not fit the types of its fields (None: it all fits), in a game of ``components``
    components; the field named by its saved key."""
    hints = _hints(type(part))
    for name, key, value in zip(part._fields, part.saved, part):
        wrong = _wrong(value, hints.get(name, Any), components)
        if wrong is not None:
            return f"{key!r} holds {wrong}"
    return None


def _wrong(value: Any, hint: Any, components: int) -> str | None:
    """Why ``value`` is not of type ``hint`` (None: it is)."""
    if hint is Any:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None:
            return None if type(None) in options else "nothing, where a value goes"
        found = [_wrong(value, option, components) for option in options if option is not type(None)]
        return None if None in found else found[0]
    if hint is ComponentId:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < components:
            return f"{value!r}, which is not one of the game's components"
        return None
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple):
            return f"{value!r}, which is not a list"
        if len(args) == 2 and args[1] is Ellipsis:
            return next((w for w in (_wrong(item, args[0], components) for item in value) if w is not None), None)
        if len(value) != len(args):
            return f"{value!r}, which is not a record of {len(args)}"
        return next((w for w in (_wrong(v, a, components) for v, a in zip(value, args)) if w is not None), None)
    if hint is bool:
        return None if isinstance(value, bool) else f"{value!r}, which is not true or false"
    if hint is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else f"{value!r}, which is not a whole number"
    if hint is str:
        return None if isinstance(value, str) else f"{value!r}, which is not a text"
    return None if isinstance(value, hint) else f"{value!r}, which is not a {hint.__name__}"
