"""Generic building blocks a ruleset wires together: boards, turn steps, clashes, outcomes.

A block module holds, in one place, everything about its mechanism:

- its ``Block`` (:mod:`engine.blocks.block`): the ruleset keys and step kinds
  it reads, as a JSON Schema fragment (the ruleset schema is assembled from
  them), and the effect-language functions it offers to rulesets that use it;
- what it compiles, kept under its name in ``game.parts``;
- its slice of the state, a typed ``NamedTuple`` registered with
  :func:`engine.core.slices.slice_kind` and kept under its name in ``state.slices``.
"""
