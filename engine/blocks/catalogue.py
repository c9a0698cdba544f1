"""Every building block the engine has, and what a ruleset gets from the blocks it uses.

Importing the block modules declares their :class:`~engine.blocks.block.Block`;
this module imports them all (no block imports it), so the list is complete.

>>> blocks = all_blocks()
>>> "meter" in blocks and "damage" in block_functions()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.block import BLOCKS, Block, Drawing

if TYPE_CHECKING:
    from engine.blocks.context import StateView
    from engine.lang.functions import Function
    from engine.lang.scope import Vocabulary


def all_blocks() -> dict[str, Block]:
    """Every block the engine has, by name in alphabetical order (importing the block modules declares them)."""
    from engine.blocks import (  # noqa: F401
        action_roll, casting, clash, contest, delayed, dice, draft, exchange, final_acts, groups, majority, meters, movement,
        named_meters, patterns, placement, programs, repetition, slots, statuses, steps, switch, team_order, track,
        turning,
    )

    return dict(sorted(BLOCKS.items()))


def block_functions() -> "dict[str, Function]":
    """Every function any block adds, by name (for reference documentation and reserved names)."""
    return {fn.name: fn for block in all_blocks().values() for fn in block.functions}


def offer_functions(vocab: "Vocabulary", tree: Any) -> None:
    """Add to a ruleset's vocabulary the functions of the blocks it uses; note how to get the others.

    A call of a function of a block the ruleset does not use is then reported
    as unknown, with a hint naming the block and what to declare.
    """
    for block in all_blocks().values():
        if block.uses(tree):
            vocab.functions.update((fn.name, fn) for fn in block.functions)
        else:
            vocab.elsewhere.update((fn.name, f"{fn.name}() comes with the {block.name} block: it needs {block.how_to_use()}")
                                   for fn in block.functions)


def drawings(state: "StateView", seat: int | None) -> list[Drawing]:
    """What the blocks draw of a position as ``seat`` sees it (None: every zone open), by block name.

    Example: in a game with a meter and statuses, ``drawings(state, 1)`` holds the meter block's drawing (a line
    per component on the meter, and its legend) and the statuses block's (its counters, drawn on those lines).
    """
    found = []
    for block in all_blocks().values():
        drawing = block.draw(state, seat) if block.draw is not None else None
        if drawing is not None:
            found.append(drawing)
    return found
