"""What a building block declares about itself, in one place: the ruleset keys and step kinds it reads, the functions it adds.

Each block module ends with one :class:`Block`, registered with :func:`declare`.
The ruleset JSON Schema (``rulecraft schema``) is assembled from the core's
keys and every block's fragment (see :func:`engine.compiling.schema.ruleset_schema`), so
a block's keys are written once, beside the code that reads them.  A block's
effect-language functions are offered only to rulesets that use the block
(:func:`engine.blocks.catalogue.offer_functions`):

>>> tiles = Block("tiles", keys={"tiles": {"type": "object"}}, steps={"lay": {"$ref": "#/$defs/layStep"}},
...               defs={"layStep": {"type": "object"}})
>>> tiles.uses({"turn": [{"lay": {}}]}), tiles.uses({"tiles": {}}), tiles.uses({"turn": [{"draw": {}}]})
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.lang.functions import Function
    from engine.lang.scope import Vocabulary

JSON = dict[str, Any]


@dataclass(frozen=True)
class Block:
    """A block's name, its schema fragment and its functions.

    ``keys`` are the top-level ruleset keys it reads (key -> JSON Schema),
    ``steps`` the turn-step kinds it adds (kind -> JSON Schema of the step's
    settings), ``defs`` the named schemas those refer to (``#/$defs/NAME``),
    ``functions`` the effect-language functions a ruleset using it may call.
    """

    name: str
    keys: JSON = field(default_factory=dict)
    steps: JSON = field(default_factory=dict)
    defs: JSON = field(default_factory=dict)
    functions: "tuple[Function, ...]" = ()

    def uses(self, tree: Any) -> bool:
        """Whether a composed ruleset tree uses this block: it has one of its keys or one of its step kinds in ``turn``."""
        if not hasattr(tree, "get"):
            return False
        if any(key in tree for key in self.keys):
            return True
        return any(kind in self.steps for kind in _step_kinds(tree.get("turn")))

    def how_to_use(self) -> str:
        """What a ruleset writes to use this block, for messages.

        >>> Block("tiles", keys={"tiles": {}}).how_to_use(), Block("lay", steps={"lay": {}}).how_to_use()
        ("a 'tiles:' section in the ruleset", "a 'lay' step in the turn")
        """
        if self.keys:
            return " or ".join(f"a '{key}:' section" for key in self.keys) + " in the ruleset"
        return " or ".join(f"a '{kind}' step" for kind in self.steps) + " in the turn"


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


def withdraw_functions(vocab: "Vocabulary", block: Block) -> None:
    """Take a block's functions out of a vocabulary again (its section has errors, already reported)."""
    for fn in block.functions:
        vocab.functions.pop(fn.name, None)
