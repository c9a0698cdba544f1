"""Generic building blocks a ruleset wires together: boards, turn steps, clashes, outcomes.

A block module holds, in one place, everything about its mechanism, in its
``Block`` (:mod:`engine.blocks.block`; docs/blocks.md has the whole contract
and an example):

- the ruleset keys and step kinds it reads, as a JSON Schema fragment (the
  ruleset schema is assembled from them), and the effect-language functions
  it offers to rulesets that use it;
- its build hooks, which compile its section into a part kept under its
  name in ``game.parts``;
- the kinds of slice of the state it keeps (typed ``NamedTuple`` classes,
  kept under their names in ``state.slices``), each saying what a seat
  observes of it and how search samples what a seat cannot see;
- what it draws of a position.

Every block, by name (the contract, with a whole example block, is in docs/blocks.md)::

    >>> from engine.blocks.catalogue import all_blocks
    >>> blocks = all_blocks()
    >>> "placement" in blocks, all(block.name == name for name, block in blocks.items())
    (True, True)
"""
