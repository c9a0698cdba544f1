"""Static types of the effect language.

Types are small immutable values; the checker uses them to catch mistakes at
load time (``count(3)``, ``c.colour`` on a card without colours) so that the
compiled closures never need to check anything at run time.

>>> str(ListOf(Component("card")))
'list of card'
>>> Enum("hue").accepts(Enum("hue"))
True
>>> INT.accepts(BOOL)
False
"""

from __future__ import annotations

from dataclasses import dataclass

LIST_OF = "list of "
"""The prefix of a list attribute's declared type: ``list of TYPE``."""

BUILT_IN = {"id": "every component's name (c.id)", "kind": "every component's kind (c.kind)",
            "face": "the name of the face a component shows (c.face)", "cell": "the board cell a component is on (c.cell)",
            "count": "an instance's number of copies (count:)", "also": "an instance's other names (also:)"}
"""What every component has already, by name: no attribute of a ruleset may take one of these names."""


@dataclass(frozen=True)
class Type:
    """A named type such as ``int``; parametrised types subclass it."""

    name: str

    def __str__(self) -> str:
        return self.name

    def accepts(self, other: "Type") -> bool:
        """Whether a value of type ``other`` may be used where ``self`` is expected."""
        if (self is EFFECT) != (other is EFFECT) and ANY not in (self, other):
            return False  # an effect changes the game; it is never a value
        return self is ANY or other is ANY or other is NONE_T or self == other


@dataclass(frozen=True)
class Enum(Type):
    """A ruleset-declared enumeration (``types: {hue: [...]}``); values are strings."""


@dataclass(frozen=True)
class Component(Type):
    """A component of a kind (``card``); ``Component("component")`` means any kind."""

    def accepts(self, other: Type) -> bool:
        if isinstance(other, Component):
            return self.name in ("component", other.name) or other.name == "component"
        return super().accepts(other)


@dataclass(frozen=True)
class FaceOf(Type):
    """One named face of a component (``c.front``), read for its attributes."""

    face: int = 0


@dataclass(frozen=True, init=False)
class ListOf(Type):
    """An ordered collection of values of one type."""

    item: Type

    def __init__(self, item: Type) -> None:
        object.__setattr__(self, "name", "list")
        object.__setattr__(self, "item", item)

    def __str__(self) -> str:
        return f"list of {self.item}"

    def accepts(self, other: Type) -> bool:
        if isinstance(other, ListOf):
            return self.item.accepts(other.item)
        return super().accepts(other)


INT = Type("int")
BOOL = Type("bool")
STR = Type("text")
CELL = Type("cell")
SEAT = INT  # seats are numbered 1, 2, ...: plain ints to the checker
ZONE = Type("zone")
DIE = Type("die")
NONE_T = Type("none")
ANY = Type("any")
EFFECT = Type("effect")
ANY_COMPONENT = Component("component")
