"""The turn: setup programs, and the steps of a turn (each a building block named by its kind).

::

    setup: |                          # or one program per player count: {default: ..., 2: ...}
      shuffle(deck)
    turn:
      - draw: {from: deck, to: hand}
      - phase: act                    # steps grouped under a phase name
        steps:
          - place: {from: hand}
          - clash: {table: beats}

Each step kind is a class registered in :data:`engine.blocks.steps.STEP_KINDS`;
the class reads its own settings from the builder.

>>> from engine.compiler import Builder
>>> from engine.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "turn: [{plase: {from: hand}}]\\n"))
>>> compile_turn(b)
>>> print(b.sink.items[0].headline())
r.yaml:1:9: unknown step 'plase' (did you mean 'place'?)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.blocks.steps import STEP_KINDS
from engine.errors import did_you_mean
from engine.yamlsource import Mapping, Sequence

if TYPE_CHECKING:
    from engine.compiler import Builder


def compile_setup(b: "Builder") -> None:
    """``setup``: one program, or one per player count with an optional ``default``."""
    setup = b.tree.get("setup")
    if setup is None:
        return
    if isinstance(setup, str):
        b.game.setup["default"] = b.program(setup, b.pos(b.tree, "setup"))
        return
    for key, text in setup.items():
        if key != "default" and not (key.isdigit() and int(key) in b.game.player_counts):
            b.error(setup.key_pos.get(key), f"setup key '{key}' must be 'default' or a declared player count")
            continue
        b.game.setup[int(key) if key.isdigit() else key] = b.program(text, setup.pos_of(key))


def compile_turn(b: "Builder") -> None:
    """``turn``: the steps of a turn, in order."""
    turn = b.tree.get("turn")
    if not isinstance(turn, list) or not turn:
        b.error(b.pos(b.tree, "turn"), "'turn' must list the steps of a turn")
        return
    _steps(b, turn, "")


def _steps(b: "Builder", entries: Sequence, phase: str) -> None:
    """Compile a list of steps; an entry ``{phase: NAME, steps: [...]}`` groups the steps of one phase."""
    for i, entry in enumerate(entries):
        pos = b.pos(entries, i)
        if isinstance(entry, Mapping) and "phase" in entry and not phase:
            b.unknown_keys(entry, ("phase", "steps"), "a phase")
            inner = entry.get("steps")
            if not isinstance(inner, list) or not inner:
                b.error(entry.pos_of("phase"), "a phase lists its steps: {phase: NAME, steps: [...]}")
                continue
            _steps(b, inner, str(entry["phase"]))
            continue
        if not isinstance(entry, Mapping) or len(entry) != 1:
            b.error(pos, "each turn step is one 'kind: {settings}' entry, like '- place: {from: hand}'")
            continue
        kind, spec = next(iter(entry.items()))
        cls = STEP_KINDS.get(kind)
        if cls is None:
            b.error(entry.key_pos.get(kind, pos), f"unknown step '{kind}'", did_you_mean(kind, STEP_KINDS) or f"known: {', '.join(sorted(STEP_KINDS))}")
            continue
        if not isinstance(spec, Mapping):
            if spec is not None:
                b.error(entry.pos_of(kind), f"the settings of step '{kind}' must be a mapping")
            spec = Mapping(entry.pos_of(kind))
        b.unknown_keys(spec, cls.keys, f"step '{kind}'")
        step = cls(len(b.game.steps), spec, entry.key_pos.get(kind, pos), b)
        step.phase = phase
        b.game.steps.append(step)
