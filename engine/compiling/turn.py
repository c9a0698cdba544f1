"""The turn: setup programs, and the steps of a turn (each a building block named by its kind).

::

    setup: |                          # or one program per player count: {default: ..., 2: ...}
      shuffle(deck)
    turn:
      - draw: {from: deck, to: hand}
      - phase: act                    # steps grouped under a phase name
        steps:
          - place: {from: hand}
          - name: fight               # a name, so that a file extending this one can change the step
            clash: {table: beats}

A setup program may also be a list of named parts, run in order, so that a
file extending the ruleset can add, change or remove one (``setup+: {after:
deal, add: [...]}``, ``setup-: [deal]``; see engine.core.compose)::

    setup:
      - {name: deck, do: shuffle(deck)}
      - {name: deal, do: "move(c in deck, hand(r), 3) for r in roles"}

Each step kind is a class registered in :data:`engine.blocks.steps.STEP_KINDS`;
the class reads its own settings from the builder.

>>> from engine.compiling.builder import Builder
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "turn: [{plase: {from: hand}}]\\n"))
>>> compile_turn(b)
>>> print(b.sink.items[0].headline())
r.yaml:1:9: unknown step 'plase' (did you mean 'place'?)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.refusals import Refusal
from engine.blocks.steps import STEP_KINDS
from engine.core.errors import SourcePos, did_you_mean
from engine.core.yamlsource import Mapping, Sequence
from engine.lang.program import Program
from engine.lang.types import ANY, ANY_COMPONENT

if TYPE_CHECKING:
    from engine.compiling.builder import Builder


def compile_setup(b: "Builder") -> None:
    """``setup``: one program, or one per player count with an optional ``default``."""
    setup = b.tree.get("setup")
    if setup is None:
        return
    if isinstance(setup, (str, Sequence)):
        b.game.setup["default"] = _setup_program(b, setup, b.pos(b.tree, "setup"))
        return
    for key, text in setup.items():
        if key != "default" and not (key.isdigit() and int(key) in b.game.player_counts):
            counts = ", ".join(str(n) for n in sorted(b.game.player_counts))
            b.error(setup.key_pos.get(key),
                    f"setup key '{key}' must be 'default' or one of the player counts in 'players' ([{counts}])")
            continue
        b.game.setup[int(key) if key.isdigit() else key] = _setup_program(b, text, setup.pos_of(key))


def _setup_program(b: "Builder", value: Any, pos: SourcePos | None) -> Program:
    """One setup program: a text, or a list of named parts ``{name: N, do: PROGRAM}`` run in order."""
    if not isinstance(value, Sequence):
        return b.program(value, pos)
    parts = []
    _unique_names(b, value, "setup parts")
    for i, part in enumerate(value):
        if not isinstance(part, Mapping) or "do" not in part:
            b.error(b.pos(value, i), "a setup part is {name: NAME, do: PROGRAM}")
            continue
        b.unknown_keys(part, ("name", "do"), "a setup part")
        parts.append(b.program(part["do"], part.pos_of("do")))

    def run(s: Any, e: list[Any]) -> None:
        for program in parts:
            program.fn(s, [None] * program.slots)

    described = "; ".join(f"{part['name']}: {program.description}" if isinstance(part.get("name"), str) else program.description
                          for part, program in zip((p for p in value if isinstance(p, Mapping) and "do" in p), parts))
    return Program(run, 0, "\n".join(program.text for program in parts), described)


def _unique_names(b: "Builder", items: Sequence, what: str, seen: set[str] | None = None) -> None:
    """Names in a list (and in its phases' steps) are unique, so that a change by name finds one item."""
    seen = set() if seen is None else seen
    for item in items:
        if not isinstance(item, Mapping):
            continue
        key = "name" if "name" in item else "phase" if "phase" in item else None
        if key is not None and isinstance(item[key], str):
            if item[key] in seen:
                b.error(item.pos_of(key), f"two {what} are named '{item[key]}': a name must be unique")
            seen.add(str(item[key]))
        if isinstance(item.get("steps"), Sequence):
            _unique_names(b, item["steps"], what, seen)


def compile_turn(b: "Builder") -> None:
    """``turn``: the steps of a turn, in order."""
    turn = b.tree.get("turn")
    if not isinstance(turn, list) or not turn:
        b.error(b.pos(b.tree, "turn"), "'turn' must list the steps of a turn")
        return
    if isinstance(turn, Sequence):
        _unique_names(b, turn, "steps (or phases)")
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
        if isinstance(entry, Mapping) and "name" in entry:  # the name is for overlays: see engine.core.compose
            if not isinstance(entry["name"], str):
                b.error(entry.pos_of("name"), "a step's name is a text")
            entry = _without(entry, "name")
        refused = None
        if isinstance(entry, Mapping) and REFUSE in entry:
            refused = (entry[REFUSE], entry.pos_of(REFUSE))
            entry = _without(entry, REFUSE)
        if not isinstance(entry, Mapping) or len(entry) != 1:
            b.error(pos, "each turn step is one 'kind: {settings}' entry (and an optional name), like '- place: {from: hand}'")
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
        refusal = None if refused is None else _refusal(b, *refused, placing=kind == "place")
        if refusal is not None:
            if step.sealed:
                b.error(refusal.pos, f"step '{kind}' is sealed (the seats decide it together, unseen): "
                                     f"{REFUSE} cannot judge its decisions one by one")
            step.refusal = refusal
        b.game.steps.append(step)


def _without(entry: Mapping, name: str) -> Mapping:
    """A step entry without its key ``name`` (``name``, ``refuse_if_after``): the ``kind: {settings}`` pair left."""
    result = Mapping(entry.pos)
    for key, value in entry.items():
        if key != name:
            result.add(key, value, entry.key_pos.get(key), entry.value_pos.get(key))
    return result


REFUSE = "refuse_if_after"
"""The step key whose condition on the position after an action refuses it (see engine.blocks.refusals)."""


def _refusal(b: "Builder", value: Any, pos: SourcePos | None, placing: bool = False) -> Refusal:
    """``refuse_if_after: CONDITION`` or ``{when: CONDITION, because: "the rule in words"}``; ``actor`` in the
    condition is the role who acted, and on a ``place`` step (``placing``) ``placed`` the piece it placed (none for
    a pass): a tile's edges are checked against its neighbours', not every tile's against theirs.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> b = Builder(load_yaml("r.yaml", "x: {when: 'actor ==', because: the rule}\\n"))
    >>> refusal = _refusal(b, b.tree["x"], b.tree.pos_of("x"))
    >>> print(b.sink.items[0].headline())
    r.yaml:1:18: syntax error: the text ends too early; expected '(', '-', '[', 'false', 'none', 'true'
    """
    because = None
    if isinstance(value, Mapping):
        b.unknown_keys(value, ("when", "because"), REFUSE)
        if "when" not in value:
            b.error(pos, f"{REFUSE} needs 'when': the condition on the position after an action that refuses it",
                    f'{REFUSE}: {{when: CONDITION, because: "the rule in words"}}')
        if "because" in value and not isinstance(value["because"], str):
            b.error(value.pos_of("because"), "'because' is the rule in words: a text")
        because = value.get("because") if isinstance(value.get("because"), str) else None
        pos, value = value.pos_of("when") if "when" in value else pos, value.get("when")
    role = b.game.vocab.data.get("role_type", ANY)
    bind = {"actor": role, "placed": ANY_COMPONENT} if placing else {"actor": role}
    compiled, slots = b.expression(value, "bool", bind=bind, pos=pos)
    text = " ".join(str(value).split())
    return Refusal(compiled.fn, slots, text, because or f"after it, {b.describe(value)}", pos, placing)
