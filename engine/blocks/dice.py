"""The ``roll`` step: a die whose faces show values, rolled again while the value it shows is unavailable.

Settings::

    - roll:
        faces: die_faces          # the value on each face, in order (a list, or an option holding one)
        available: any(p in pool where p.hue == outcome)   # a condition on `outcome`, the value rolled
        effect: move(p in pool where p.hue == outcome, hand(current_role), 1)   # a program run with `outcome`

A die with as many sides as there are ``faces`` is rolled with the game's
seeded generator; while the face shows an unavailable value it is rolled
again.  When no face is available at all, that first roll is the last (the
safe stop).
The effect may ``choose``.  Every roll is logged.

>>> Roll.keys
('if', 'faces', 'available', 'effect')
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.choices import run_effect
from engine.blocks.steps import Step, step_kind
from engine.core.decisions import Die
from engine.core.errors import SourcePos, did_you_mean
from engine.lang.scope import Fn
from engine.lang.types import ANY, INT, Enum, Type

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView
    from engine.core.yamlsource import Mapping


@step_kind
class Roll(Step):
    """The ``roll`` step: a die whose faces show values is rolled again while the value rolled is unavailable (nothing
    when no face is), then the step's program runs with ``outcome``.

    Built from, e.g., ``- roll: {faces: faces, available: count(s in bag where s.kind == outcome) > 0}``.
    """
    kind = "roll"
    keys = ("if", "faces", "available", "effect")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        faces = b.setting(spec, "faces", [])
        self.faces: tuple[Any, ...] = tuple(faces) if isinstance(faces, list) else ()
        outcome = self._type(b, spec)
        compiled, self.available_slots = b.expression(spec.get("available", "true"), "bool", bind={"outcome": outcome},
                                                      pos=b.pos(spec, "available"))
        self.available, self.available_text = compiled.fn, b.describe(spec.get("available", "true"))
        self.program = b.program(spec.get("effect", "pass"), b.pos(spec, "effect"), bind={"outcome": outcome}, nested=False)

    def _type(self, b: "BuildContext", spec: "Mapping") -> Type:
        """The type of the faces' values: one declared type, or whole numbers; any type when they are wrong (reported
        here, so the code reading ``outcome`` is not blamed for it too)."""
        if not self.faces:
            b.error(b.pos(spec, "faces"), "'faces' must list the value on each face of the die (or name an option holding the list)")
            return ANY
        if all(isinstance(v, int) and not isinstance(v, bool) for v in self.faces):
            return INT
        types = b.game.types
        owner = next((t for t, values in types.items() if str(self.faces[0]) in values), None)
        strays = [str(v) for v in self.faces if owner is None or str(v) not in types[owner]]
        if strays:
            b.error(b.pos(spec, "faces"), f"the faces must all be values of one declared type (or numbers); '{strays[0]}' is not one of "
                    + (f"{owner}'s values" if owner else "any type's values"),
                    did_you_mean(strays[0], types[owner]) if owner else None)
            return ANY
        self.faces = tuple(str(v) for v in self.faces)
        return Enum(owner)  # type: ignore[arg-type]

    def is_available(self, s: "StateView", value: Any) -> bool:
        """Whether the face ``value`` is available now (the die's ``available`` condition holds of it)."""
        env = [None] * self.available_slots
        env[0] = value
        return bool(self.available(s, env))

    def chances(self, s: "StateView") -> tuple[Die, ...]:
        """The face the die settles on: any available face, equally likely (any face when none is available)."""
        faces = [i for i, v in enumerate(self.faces, 1) if self.is_available(s, v)] or range(1, len(self.faces) + 1)
        return (tuple((face, Fraction(1, len(faces))) for face in faces),)

    def enter(self, s: "StateView") -> bool:
        face = s.roll(len(self.faces))
        value = self.faces[face - 1]
        if not self.is_available(s, value):
            if not any(self.is_available(s, v) for v in self.faces):
                s.note(lambda: f"{s.current_role} rolls {face} ({value}), but no face ({', '.join(map(str, self.faces))}) is available: nothing happens")
                return False
            while not self.is_available(s, value):
                s.note(lambda: f"{s.current_role} rolls {face} ({value}): not available, and rolls again")
                face = s.roll(len(self.faces))
                value = self.faces[face - 1]
        s.note(lambda: f"{s.current_role} rolls {face} ({value})")
        env = [None] * self.program.slots
        env[0] = value
        return not run_effect(s, self.index, "effect", env)

    def effect(self, key: Any) -> Fn:
        return self.program.fn

    def effect_reach(self, game: "GameView", key: Any) -> frozenset[str]:
        return self.program.reach

    def describe(self) -> str:
        faces = ", ".join(f"{i} = {v}" for i, v in enumerate(self.faces, 1))
        return (f"roll a {len(self.faces)}-sided die ({faces}); while the value rolled (outcome) is not available "
                f"(available when {self.available_text}), roll again; then {self.program.description} (if no face is available, nothing is rolled)")


BLOCK = declare(Block(
    "dice",
    steps={
        "roll": {
            "description": ("Roll a die whose faces show values, again while the value rolled is unavailable "
                            "(nothing when no face is), then run a program with `outcome`."),
            "$ref": "#/$defs/rollStep",
        },
    },
    defs={
        "rollStep": {
            "description": ("`roll: {faces: [a, b, ...], available: CONDITION, effect: PROGRAM}`: the die has one "
                            "side per face; `outcome` is the value rolled."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "faces": {
                    "description": ("The value on each face of the die, in order (values of one declared type, or "
                                    "numbers), or an option holding the list."),
                    "type": ["array", "string"],
                    "examples": [["cyan", "magenta", "orange", "grey", "light", "dark"], "die_faces"],
                },
                "available": {
                    "description": ("Whether the value rolled (`outcome`) can be used; if not, the die is rolled "
                                    "again."),
                    "$ref": "#/$defs/condition",
                    "default": "true",
                    "examples": ["any(p in pool where p.hue == outcome)"],
                },
                "effect": {
                    "description": "The program run with the value rolled (`outcome`); it may `choose`.",
                    "$ref": "#/$defs/program",
                },
            },
            "required": ["faces", "effect"],
            "additionalProperties": False,
        },
    },
))
