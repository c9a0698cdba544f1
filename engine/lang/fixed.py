"""Whether an expression reads nothing but its bound locals' printed attributes and constants.

Such an expression gives the same value for the same components (showing
the same faces) in every state of every game of one ruleset: ``other.id ==
"5"`` or ``self.value > other.value + 1``, never ``count(c in hand(owner(self)))``.
A block may then work its value out once per pair of components and keep it
in a table instead of running the code at every fight.

Accepted: literals, lists and cells of them, local variables, constants
(options, enum values; not a zone named outright, whose contents change),
attributes read from a local variable (``id``, ``kind``, declared
attributes, on the face shown or a named face), and the
operators (arithmetic, comparisons, ``in``, ``and``/``or``/``not``,
``if ... then ... else``).  Anything else — a function call, a selection, a
state query such as ``turn`` or a counter — reads the state, and is refused.

>>> from engine.lang.parser import parse_expression
>>> from engine.lang.scope import Scope, Vocabulary
>>> from engine.lang.types import INT
>>> scope = Scope(Vocabulary()); _ = scope.bind("x", INT)
>>> reads_only_locals(parse_expression("x + 2 == 5 or not (x in [1, 7])"), scope)
True
>>> reads_only_locals(parse_expression("x + y"), scope)
False
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core.errors import DiagnosticSink
from engine.lang import ast, selections
from engine.lang.scope import Fn, Scope, Vocabulary
from engine.lang.types import ANY_COMPONENT, ZONE, Type

_OPERATORS = (ast.Neg, ast.Not, ast.BinOp, ast.Compare, ast.Member, ast.BoolOp, ast.Cond, ast.ListLit, ast.TupleLit)


def reads_only_locals(node: ast.Node, scope: Scope) -> bool:
    """True when ``node`` (an expression compiled in ``scope``) depends only on the locals' printed attributes and constants.

    ``scope`` is not changed and gets no diagnostics: the names are looked up in a
    scope of its own, over the same locals.
    """
    quiet = Scope(scope.vocab, DiagnosticSink(), scope)
    return _fixed(node, quiet)


def fixed_with(vocab: Vocabulary, node: ast.Node | None, bind: dict[str, Type]) -> bool:
    """Whether ``node``, with ``bind``'s names as its locals (slots 0, 1, ... in order), reads only them and constants."""
    if node is None:
        return False
    scope = Scope(vocab, DiagnosticSink())
    for name, type_ in bind.items():
        scope.bind(name, type_)
    return reads_only_locals(node, scope)


class PairTable:
    """The value of fixed code of two components (``self`` and ``other``, in slots 0 and 1), worked out once per pair.

    A component's attributes depend on the face it shows, so the faces are part of
    the pair.  The first time a pair is asked, the code runs on the state at hand
    (an error it raises is raised as usual and nothing is kept); afterwards its
    value is read back.

    >>> from types import SimpleNamespace
    >>> runs = []
    >>> table = PairTable(lambda s, e: runs.append(e[:2]) or e[0] + e[1], 2)
    >>> s = SimpleNamespace(face=[0, 0, 0])
    >>> table(s, 1, 2), table(s, 1, 2), runs
    (3, 3, [[1, 2]])
    """

    __slots__ = ("fn", "slots", "known")

    def __init__(self, fn: Fn, slots: int) -> None:
        self.fn = fn
        self.slots = slots
        self.known: dict[tuple[int, int, int, int], Any] = {}

    def __call__(self, s: Any, a: int, b: int) -> Any:
        face = s.face
        key = (a, b, face[a], face[b])
        known = self.known
        if key in known:
            return known[key]
        env: list[Any] = [None] * self.slots
        env[0], env[1] = a, b
        value = known[key] = self.fn(s, env)
        return value


def _fixed(node: ast.Node, scope: Scope) -> bool:
    if isinstance(node, ast.Literal):
        return True
    if isinstance(node, ast.Name):
        found = scope.lookup(node.name, None)
        return found.slot is not None or (found.constant and found.type is not ZONE)  # a zone's contents change
    if isinstance(node, ast.Attr):
        return node.compile(scope).table is not None and not scope.sink.items
    if isinstance(node, _OPERATORS):
        return all(_fixed(part, scope) for part in _parts(node))
    return False


def _parts(node: ast.Node) -> list[ast.Node]:
    """The operands of an operator node."""
    if isinstance(node, (ast.Neg, ast.Not)):
        return [node.operand]
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return [node.left, node.right]
    if isinstance(node, ast.Member):
        return [node.item, node.collection]
    if isinstance(node, ast.Cond):
        return [node.test, node.then, node.otherwise]
    assert isinstance(node, (ast.ListLit, ast.TupleLit))
    return list(node.items)


class FixedFilter:
    """A selection whose ``where`` reads only the item's printed attributes, constants and other locals, kept as masks.

    For each value of the other locals it reads (``v`` in ``c in supply where
    c.value == v``), whether each component (showing each face) passes is
    worked out the first time it is asked and then read back: listing the
    selection runs no code for an item seen before.  The items are listed as
    :meth:`CompiledSelection.items` lists them — the same source, the same
    steps spent, the same order, an error raised at the same item.

    In a game whose components have one face each, a value's mask is filled
    for every component at once (:data:`FILLED` components at most) when it
    is first asked: a *whole* mask (no component raised an error) lets
    :meth:`first` stop at the first items that pass, with nothing left unread
    that could have raised.

    >>> from types import SimpleNamespace
    >>> tested = []
    >>> where = lambda s, e: tested.append(e[1]) or e[1] % 2 == e[0]
    >>> keep = FixedFilter(lambda s, e: [1, 2, 3, 4], where, 1, (0,))
    >>> s = SimpleNamespace(face=[0] * 5, game=SimpleNamespace(face_count=[1] * 5))
    >>> keep.items(s, [1, None]), keep.items(s, [1, None]), keep.items(s, [0, None]), len(tested)
    ([1, 3], [1, 3], [2, 4], 10)
    >>> keep.first(s, [1, None], lambda s, e: 1), len(tested)
    ([1], 10)
    """

    __slots__ = ("source", "where", "slot", "keys", "faces", "known", "whole", "filled")
    watching: ClassVar[list[Any] | None] = None  # while set, each listing notes (filter, key) in it (engine.model.dealing)

    def __init__(self, source: Fn, where: Fn, slot: int, keys: tuple[int, ...]) -> None:
        self.source = source  # the selection's source (spending its steps)
        self.where = where
        self.slot = slot  # where the item is bound while tested
        self.keys = keys  # the slots of the other locals the condition reads
        self.faces = 0  # the most faces a component has (read from the game when first listed)
        self.known: dict[tuple[Any, ...], list[bool | None]] = {}  # per value of the keys: per component and face
        self.whole: set[tuple[Any, ...]] = set()  # the values whose mask was filled for every component without an error
        self.filled = 0  # how many components' masks were filled in all

    def items(self, s: Any, e: list[Any]) -> list[Any]:
        """The items of the source the condition keeps, from the masks kept per value of the keys when known."""
        found = self.source(s, e)
        key = tuple([e[i] for i in self.keys])
        try:
            known = key in self.whole and FixedFilter.watching is None
        except TypeError:  # a local holding a list: nothing kept for it
            known = False
        if known:  # a whole mask: every component known
            mask = self.known[key]
            return [x for x in found if mask[x]]
        mask, whole = self._mask(s, e)
        if whole:
            return [x for x in found if mask[x]]
        return self._listed(s, e, found, mask)

    def first(self, s: Any, e: list[Any], count: Fn) -> list[Any]:
        """``items(s, e)[:max(count(s, e), 0)]``, stopping at the last item kept when the mask is whole."""
        found = self.source(s, e)
        mask, whole = self._mask(s, e)
        if not whole:
            return self._listed(s, e, found, mask)[:max(count(s, e), 0)]
        n, out = max(count(s, e), 0), []
        if n > 0:
            for x in found:
                if mask[x]:
                    out.append(x)
                    if len(out) == n:
                        break
        return out

    def _mask(self, s: Any, e: list[Any]) -> tuple[list[bool | None], bool]:
        """The mask for the keys' values in ``e`` (new: filled when it may be), and whether it is whole."""
        key = tuple([e[i] for i in self.keys])
        if FixedFilter.watching is not None:
            FixedFilter.watching.append((self, key))
        faces = self.faces or self._faces(s)
        try:
            mask = self.known.get(key)
        except TypeError:  # a local holding a list: nothing kept for it
            return [None] * len(s.face) * faces, False
        if mask is None:
            mask = self.known[key] = [None] * len(s.face) * faces
            if faces == 1 and self.filled + len(mask) <= FILLED:
                self._fill(s, e, key, mask)
            return mask, key in self.whole
        return mask, key in self.whole

    def _fill(self, s: Any, e: list[Any], key: tuple[Any, ...], mask: list[bool | None]) -> None:
        """Work out the new mask of ``key`` for every component; a component whose test raises is left unknown (it
        raises again when listed)."""
        self.filled += len(mask)
        where, slot, before, whole = self.where, self.slot, e[self.slot], True
        for x in range(len(mask)):
            e[slot] = x
            try:
                mask[x] = bool(where(s, e))
            except Exception:  # noqa: BLE001 - raised again, at its item, when a listing meets it
                whole = False
        e[slot] = before
        if whole:
            self.whole.add(key)

    def _listed(self, s: Any, e: list[Any], found: list[Any], mask: list[bool | None]) -> list[Any]:
        """The items of ``found`` that pass, testing those ``mask`` does not know yet."""
        where, slot, faces = self.where, self.slot, self.faces
        if faces == 1:
            for x in found:
                if mask[x] is None:
                    e[slot] = x
                    mask[x] = bool(where(s, e))
            return [x for x in found if mask[x]]
        face, out = s.face, []
        for x in found:
            at = x * faces + face[x]
            if mask[at] is None:
                e[slot] = x
                mask[at] = bool(where(s, e))
            if mask[at]:
                out.append(x)
        return out

    def _faces(self, s: Any) -> int:
        self.faces = max(s.game.face_count, default=1)
        return self.faces


FILLED = 1 << 16  # the most components' masks one filter fills ahead (past it, each is tested when first listed)


def unkept(items: Fn) -> Fn:
    """``items``, noting in :attr:`FixedFilter.watching` (while it is set) that a listing kept nothing."""

    def listing(s: Any, e: list[Any]) -> Any:
        if FixedFilter.watching is not None:
            FixedFilter.watching.append((None, None))
        return items(s, e)

    return listing


def fixed_filter(selection: selections.Selection, source: Fn, where: Fn | None, slot: int, scope: Scope) -> FixedFilter | None:
    """A :class:`FixedFilter` for a compiled selection over components, when its ``where`` qualifies (else None)."""
    if selection.where is None or where is None:
        return None
    quiet = Scope(scope.vocab, DiagnosticSink())
    for name, (at, type_) in _visible_locals(scope).items():
        quiet.locals[name] = (at, type_)
    quiet.locals[selection.var] = (slot, ANY_COMPONENT)
    quiet.counter = scope.counter[:]  # a copy: nothing here may move the slots of the code being compiled
    if not _fixed(selection.where, quiet):
        return None
    keys = tuple(sorted({at for name, (at, _) in quiet.locals.items() if name != selection.var and _reads(selection.where, name)}))
    return FixedFilter(source, where, slot, keys)


def _visible_locals(scope: Scope) -> dict[str, tuple[int, Type]]:
    """Every local variable visible in ``scope`` (inner ones hide outer ones)."""
    chain: list[Scope] = []
    at: Scope | None = scope
    while at is not None:
        chain.append(at)
        at = at.parent
    found: dict[str, tuple[int, Type]] = {}
    for level in reversed(chain):
        found.update(level.locals)
    return found


def _reads(node: ast.Node, name: str) -> bool:
    """Whether the (fixed) expression ``node`` mentions the local ``name``."""
    if isinstance(node, ast.Name):
        return node.name == name
    if isinstance(node, ast.Attr):
        return _reads(node.base, name)
    if isinstance(node, _OPERATORS):
        return any(_reads(part, name) for part in _parts(node))
    return False
