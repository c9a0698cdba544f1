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
from typing import TYPE_CHECKING, Any, Callable, Optional

from engine.core.slices import slice_kind

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView
    from engine.lang.functions import Function
    from engine.lang.scope import Vocabulary

JSON = dict[str, Any]
BuildHook = Callable[["BuildContext"], None]
"""A block's part of compiling a ruleset: it reads its section through the builder and keeps what it compiles in ``game.parts``."""

Run = tuple[str, str]
"""A piece of a drawn line: its text and its terminal style (``"bold"``, ``"dim"``; ``""`` for none)."""

Line = tuple[Run, ...]
"""A drawn line: its pieces in order."""


@dataclass(frozen=True)
class Drawing:
    """What a block draws of a position for the terminal (``rulecraft play``, replays), as styled lines.

    ``components``: a line for each component the block draws itself; a zone
    held by a role whose components all have one is drawn as those lines
    instead of a list of names. ``legend``: lines drawn after the zones once
    one of those component lines is. ``lines``: lines drawn after the zones
    in any case. ``counters``: counters the block draws itself, left out of
    the list of counters.

    >>> Drawing(lines=((("tide: ", ""), ("high", "bold")),)).text()
    ['tide: high']
    """

    components: dict[int, Line] = field(default_factory=dict)
    legend: tuple[Line, ...] = ()
    lines: tuple[Line, ...] = ()
    counters: frozenset[str] = frozenset()

    def text(self) -> list[str]:
        """Every line it draws, unstyled: its component lines (by component), legend, then other lines."""
        drawn = [*(self.components[cid] for cid in sorted(self.components)), *self.legend, *self.lines]
        return ["".join(text for text, _ in line) for line in drawn]


Draw = Callable[["StateView", Optional[int]], Optional[Drawing]]
"""A block's drawing of a position as a seat sees it (None: every zone open); None when it draws nothing there."""

PHASES = ("declare", "attach", "compile", "check")
"""The phases of the build at which blocks compile, in the order they run (see :meth:`Block.hook`):

* ``declare``: once the zones and counters are read, before the effect
  language's vocabulary is built: a block declares the names code may use
  (a type of its values, the counter it reads);
* ``attach``: once the vocabulary exists, before the ruleset's own functions
  are compiled: a block tells its functions what it declared (or withdraws
  them when its section has errors);
* ``compile``: once the ruleset's functions and counters are compiled, before
  setup and the turn: a block compiles its section's code and tables;
* ``check``: once the turn is compiled: checks that need the steps.
"""


@dataclass(frozen=True)
class Block:
    """A block's name, its schema fragment, its functions, the slices it keeps and its build hooks.

    ``keys`` are the top-level ruleset keys it reads (key -> JSON Schema),
    ``steps`` the turn-step kinds it adds (kind -> JSON Schema of the step's
    settings), ``defs`` the named schemas those refer to (``#/$defs/NAME``),
    ``functions`` the effect-language functions a ruleset using it may call,
    ``slices`` the kinds of slice of the state it keeps its work in (typed
    ``NamedTuple`` classes, see :mod:`engine.core.slices`: each may say what a seat
    observes of it and how search draws what a seat cannot see).

    ``declare``, ``attach``, ``compile`` and ``check`` are its build hooks,
    run at the phases of :data:`PHASES` for every ruleset (a hook returns at
    once when the ruleset has no section of its block); within a phase the
    blocks run by ``rank``, lower first, then by name. ``draw``, if given,
    says what it draws of a position (see :class:`Drawing`).
    """

    name: str
    keys: JSON = field(default_factory=dict)
    steps: JSON = field(default_factory=dict)
    defs: JSON = field(default_factory=dict)
    functions: "tuple[Function, ...]" = ()
    slices: tuple[type, ...] = ()
    declare: Optional[BuildHook] = None
    attach: Optional[BuildHook] = None
    compile: Optional[BuildHook] = None
    check: Optional[BuildHook] = None
    rank: int = 100
    draw: Optional[Draw] = None
    usage: str = ""  # what a ruleset writes to use it, for messages, when its keys and steps alone don't say it

    def hook(self, phase: str) -> Optional[BuildHook]:
        """The block's build hook for ``phase`` (one of :data:`PHASES`), None when it has none.

        >>> Block("tiles").hook("compile") is None, Block("tiles", compile=print).hook("compile") is print
        (True, True)
        """
        assert phase in PHASES, phase
        hook: Optional[BuildHook] = getattr(self, phase)
        return hook

    def uses(self, tree: Any) -> bool:
        """Whether a composed ruleset tree uses this block: it has one of its keys or one of its step kinds in ``turn``."""
        if not hasattr(tree, "get"):
            return False
        if any(key in tree for key in self.keys):
            return True
        return any(kind in self.steps for kind in _step_kinds(tree.get("turn")))

    def how_to_use(self) -> str:
        """What a ruleset writes to use this block, for messages (its ``usage`` when it has one).

        >>> Block("tiles", keys={"tiles": {}}).how_to_use(), Block("lay", steps={"lay": {}}).how_to_use()
        ("a 'tiles:' section in the ruleset", "a 'lay' step in the turn")
        """
        if self.usage:
            return self.usage
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
    """Register a block (names are unique) and the kinds of slice it keeps."""
    assert block.name not in BLOCKS, block.name
    for kind in block.slices:
        slice_kind(kind)
    BLOCKS[block.name] = block
    return block


def run_phase(blocks: dict[str, Block], phase: str, b: "BuildContext") -> None:
    """Run every block's hook for ``phase``, by rank then name (see :data:`PHASES`).

    >>> seen = []
    >>> blocks = {"b": Block("b", declare=lambda b: seen.append("b")), "a": Block("a", declare=lambda b: seen.append("a")),
    ...           "c": Block("c", declare=lambda b: seen.append("c"), rank=1)}
    >>> run_phase(blocks, "declare", None)
    >>> seen
    ['c', 'a', 'b']
    """
    for block in sorted(blocks.values(), key=lambda block: (block.rank, block.name)):
        hook = block.hook(phase)
        if hook is not None:
            hook(b)


def withdraw_functions(vocab: "Vocabulary", block: Block) -> None:
    """Take a block's functions out of a vocabulary again (its section has errors, already reported)."""
    for fn in block.functions:
        vocab.functions.pop(fn.name, None)
