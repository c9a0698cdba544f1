"""What a building block declares about itself, in one place: the ruleset keys and step kinds it reads.

Each block module ends with one :class:`Block`, registered with :func:`declare`.
The ruleset JSON Schema (``rulecraft schema``) is assembled from the core's
keys and every block's fragment (see :func:`engine.schema.ruleset_schema`), so
a block's keys are written once, beside the code that reads them:

>>> tiles = Block("tiles", keys={"tiles": {"type": "object"}}, steps={"lay": {"$ref": "#/$defs/layStep"}},
...               defs={"layStep": {"type": "object"}})
>>> tiles.uses({"turn": [{"lay": {}}]}), tiles.uses({"tiles": {}}), tiles.uses({"turn": [{"draw": {}}]})
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Block:
    """A block's name and its schema fragment.

    ``keys`` are the top-level ruleset keys it reads (key -> JSON Schema),
    ``steps`` the turn-step kinds it adds (kind -> JSON Schema of the step's
    settings), ``defs`` the named schemas those refer to (``#/$defs/NAME``).
    """

    name: str
    keys: JSON = field(default_factory=dict)
    steps: JSON = field(default_factory=dict)
    defs: JSON = field(default_factory=dict)

    def uses(self, tree: Any) -> bool:
        """Whether a composed ruleset tree uses this block: it has one of its keys or one of its step kinds in ``turn``."""
        if not hasattr(tree, "get"):
            return False
        if any(key in tree for key in self.keys):
            return True
        return any(kind in self.steps for kind in _step_kinds(tree.get("turn")))


def _step_kinds(turn: Any) -> list[str]:
    """The kinds of the steps a ``turn`` lists, phases included."""
    kinds: list[str] = []
    for entry in turn if isinstance(turn, list) else ():
        if not hasattr(entry, "get"):
            continue
        if "phase" in entry:
            kinds += _step_kinds(entry.get("steps"))
        else:
            kinds += [str(kind) for kind in entry if kind != "if"]
    return kinds


BLOCKS: dict[str, Block] = {}


def declare(block: Block) -> Block:
    """Register a block (names are unique)."""
    assert block.name not in BLOCKS, block.name
    BLOCKS[block.name] = block
    return block


def all_blocks() -> dict[str, Block]:
    """Every block the engine has, by name in alphabetical order (importing the block modules declares them)."""
    from engine.blocks import (  # noqa: F401
        action_roll, casting, clash, contest, delayed, dice, draft, exchange, final_acts, groups, majority, meters, movement,
        patterns, placement, slots, statuses, steps, switch, team_order, track,
    )

    return dict(sorted(BLOCKS.items()))
