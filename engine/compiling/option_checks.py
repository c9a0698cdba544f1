"""Option checks: a condition an option's value must meet, given the others, refused at load when it fails.

``values`` lists the values one option may take; a ``check`` relates it to the
other options and the components, when the values it may take depend on them::

    options:
      hand_size:
        default: 5
        check: hand_size * 4 <= count(c in cards)     # four hands must be dealt from the deck

A value that fails its check (the default, a variant's, ``--set``'s) is an
error at that value, naming the check in English, with the option's ``doc``
as the hint.  The check is a condition read once, on the game just set up for
its smallest player count before its setup runs (every component in the
supply), and before the setups run for every count: it reads options and
what components are (their attributes), not where they lie.

>>> from engine.compiling.builder import build_game
>>> from engine.core.compose import compose
>>> from engine.core.errors import RulesetError
>>> text = ("name: r\\nplayers: [2]\\noptions:\\n  hand: {default: 9, check: hand <= count(c in cards) / 2}\\n"
...         "components: {card: {instances: [{id: a, count: 4}]}}\\nturn: [{do: {effect: pass}}]\\nend: {when: true}\\n"
...         "scoring: {rank: r in roles, by: [0], points: key}\\n")
>>> try:
...     build_game(compose("r.yaml", text=text))
... except RulesetError as err:
...     print(err.diagnostics[0].headline())
r.yaml:4:19: option 'hand' is 9, but its check does not hold: hand is at most the number of c in cards divided by 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.core.errors import RulecraftError, SourcePos
from engine.core.yamlsource import Mapping, plain, yaml_text
from engine.lang.program import Program

if TYPE_CHECKING:
    from engine.compiling.builder import Builder


class OptionCheck(NamedTuple):
    """One option's ``check``: the condition compiled, where its value was written, and the doc for the hint."""

    name: str
    condition: Program
    value_pos: SourcePos | None
    doc: str


def compile_option_checks(b: "Builder") -> list[OptionCheck]:
    """Each option's ``check``, compiled as a condition (after the vocabulary: it may read anything a condition does);
    its words are kept for ``explain`` (``game.option_checks``)."""
    options = b.tree.get("options") or {}
    checks: list[OptionCheck] = []
    for name, spec in options.items():
        if not isinstance(spec, Mapping) or "check" not in spec:
            continue
        text = spec["check"]
        compiled, slots = b.expression(text, "bool", pos=b.pos(spec, "check"))
        words = b.game.option_checks[str(name)] = b.describe(text)
        checks.append(OptionCheck(str(name), Program(compiled.fn, slots, str(text), words),
                                  b.pos(spec, "default"), str(spec.get("doc") or "").strip()))
    return checks


def refuse_failed_checks(b: "Builder", checks: list[OptionCheck]) -> bool:
    """Report each option whose check does not hold, at its value; whether any was refused (the setups are then
    not tried: a refused value may be why one fails)."""
    if not checks:
        return False
    game = b.game
    try:
        state = game.new_state(players=min(game.player_counts), seed=0, begin=False, set_up=False)
    except RulecraftError:
        return False  # the setups, tried next, say why
    refused = False
    for check in checks:
        value = yaml_text(plain(game.options.get(check.name)))
        try:
            held = check.condition.test(state)
        except RulecraftError as err:  # a check that cannot be read let any value by, without a word
            at, message = getattr(err, "pos", None), getattr(err, "message", None) or str(err)
            b.error(at or check.value_pos, f"option '{check.name}' is {value}, and its check cannot be read for it: "
                                           f"{message}")
            refused = True
            continue
        if not held:
            b.error(check.value_pos, f"option '{check.name}' is {value}, but its check does not hold: "
                                     f"{check.condition.description}", check.doc or None)
            refused = True
    return refused
