"""Safe YAML that remembers the ``file:line:col`` of every node.

:func:`load_yaml` turns a YAML file into plain Python data in which every
mapping, list and string knows where it was written, so that any later check
(schema, names, effect language) can point at the offending spot:

>>> tree = load_yaml("rules.yaml", "cards:\\n  - name: Gem\\n    cost: 2\\n")
>>> tree["cards"][0]["name"].pos
SourcePos(file='rules.yaml', line=2, col=11)
>>> tree["cards"][0].pos_of("cost")
SourcePos(file='rules.yaml', line=3, col=11)

The tree holds :class:`Mapping` (a ``dict`` with ``str`` keys),
:class:`Sequence` (a ``list``), :class:`Text` (a ``str``), ``int``, ``float``,
``bool`` and ``None``. Aliases share the anchored value, as PyYAML does, so
treat trees as read-only.

Loading is safe: only the standard scalar, list and mapping tags are
accepted (never Python objects), and oversized files, alias bombs, deep
nesting, duplicate keys and bad encodings are refused. Every failure is a
:class:`~engine.core.errors.RulesetError` with a position, never another exception.

The tree is built from the parser's event stream rather than from
``yaml.compose()``: libyaml's composer recurses in C and crashes the process
on deeply nested input, while its event parser does not recurse.
"""

from __future__ import annotations

import collections.abc
import functools
import re
from pathlib import Path
from typing import Any, Callable

import yaml
from yaml.events import (
    AliasEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from engine.core import limits
from engine.core.confine import FileRefused, read_bytes
from engine.core.errors import RulesetError, SourcePos, remember_source, source_lines
from engine.core.yamlslips import layout_slip

MAX_BYTES = 5 * 1024 * 1024

_YAML_TAG = "tag:yaml.org,2002:"
_PYTHON_TAG = _YAML_TAG + "python/"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_YAML_TAG + t for t in ("str", "int", "float", "bool", "null"))
_SEQ, _MAP = _YAML_TAG + "seq", _YAML_TAG + "map"

_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SAFE = yaml.constructor.SafeConstructor()
_CONSTRUCT: dict[str, Callable[[ScalarNode], Any]] = {
    _INT: _SAFE.construct_yaml_int,
    _FLOAT: _SAFE.construct_yaml_float,
    _BOOL: _SAFE.construct_yaml_bool,
    _NULL: _SAFE.construct_yaml_null,
}
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")
"""YAML 1.1's base-60 numbers (``1:59:59``): plain text here, as in YAML 1.2 (PyYAML reads them in quadratic time)."""
# The SafeLoader's implicit types, minus timestamps, '=' and '<<' (plain text here).
_IMPLICIT: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    first: [(tag, rx) for tag, rx in rules if tag in _CONSTRUCT]
    for first, rules in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_DIGITS_PER_CHAR = {"0x": 1.21, "0b": 0.31, "0o": 0.91, "0": 0.91}
"""Decimal digits per written digit of a hex, binary or octal whole number (to refuse a huge one before reading it)."""
_PROPERTIES = re.compile(r"(?:[&!]\S*\s+)*")
_NON_PRINTABLE: re.Pattern[str] = yaml.reader.Reader.NON_PRINTABLE


class Mapping(dict[str, Any]):
    """A YAML mapping (``str`` keys) with the positions of itself, its keys and values.

    >>> m = load_yaml("r.yaml", "a:\\n  b: 1\\n")
    >>> m["a"].pos_of("b"), m.key_pos["a"]
    (SourcePos(file='r.yaml', line=2, col=6), SourcePos(file='r.yaml', line=1, col=1))
    """

    __slots__ = ("pos", "key_pos", "value_pos")

    def __init__(self, pos: SourcePos) -> None:
        super().__init__()
        self.pos = pos
        self.key_pos: dict[str, SourcePos] = {}
        self.value_pos: dict[str, SourcePos] = {}

    def add(self, key: str, value: Any, key_pos: SourcePos | None, value_pos: SourcePos | None) -> None:
        """Set ``key`` to ``value``, recording where both were written (if known)."""
        self[key] = value
        if key_pos is not None:
            self.key_pos[key] = key_pos
        if value_pos is not None:
            self.value_pos[key] = value_pos

    def pos_of(self, key: str) -> SourcePos:
        """Where the value of ``key`` is, else the key, else the mapping itself."""
        return self.value_pos.get(key) or self.key_pos.get(key) or self.pos


class Sequence(list[Any]):
    """A YAML list with the positions of itself and of each item.

    >>> load_yaml("r.yaml", "- a\\n- [1, 2]\\n").pos_of(1)
    SourcePos(file='r.yaml', line=2, col=3)
    """

    __slots__ = ("pos", "item_pos")

    def __init__(self, pos: SourcePos) -> None:
        super().__init__()
        self.pos = pos
        self.item_pos: list[SourcePos] = []

    def add(self, value: Any, pos: SourcePos) -> None:
        """Append ``value``, written at ``pos``."""
        self.append(value)
        self.item_pos.append(pos)

    def pos_of(self, index: int) -> SourcePos:
        """Where item ``index`` is, else the list itself."""
        try:
            return self.item_pos[index]
        except IndexError:
            return self.pos


class Text(str):
    """A YAML string that knows where it is, and where each of its characters is.

    ``origin`` is the file position of the value's first character; a
    ``literal`` text is a ``|`` block whose lines map one to one onto file lines,
    a ``folded`` one a ``>`` block, whose lines keep what they are indented beyond it.

    >>> t = load_yaml("r.yaml", "effect: |\\n  gain 1\\n  draw x\\n")["effect"]
    >>> t.pos, t.locate(2, 6)
    (SourcePos(file='r.yaml', line=1, col=9), SourcePos(file='r.yaml', line=3, col=8))
    """

    pos: SourcePos
    _origin: SourcePos
    _literal: bool
    _block: bool

    def __new__(
        cls, value: str, pos: SourcePos, origin: SourcePos | None = None, literal: bool = False, folded: bool = False
    ) -> "Text":
        self = super().__new__(cls, value)
        self.pos = pos
        self._origin = origin or pos
        self._literal = literal
        self._block = folded
        return self

    def __getnewargs__(self) -> tuple[str, SourcePos, SourcePos, bool, bool]:  # type: ignore[override]
        return (str(self), self.pos, self._origin, self._literal, self._block)

    def locate(self, line: int, col: int) -> SourcePos:
        """The file position of the 1-based ``(line, col)`` inside this string's value.

        Exact for single-line scalars and ``|`` blocks; for folded ones (``>``,
        or plain text over several lines, whose lines YAML joins with spaces)
        found by walking the source lines, on every line of the value: a ``>``
        block keeps the line breaks around its more-indented lines, so an
        expression whose continuation lines are indented further is several
        lines long there (it was placed at the scalar's start past its first).
        """
        origin = self._origin
        if self._literal:
            return SourcePos(origin.file, origin.line + line - 1, origin.col + col - 1)
        before = str(self).split("\n")[: line - 1]
        return self._folded(sum(len(text) + 1 for text in before) + col)

    def _folded(self, col: int) -> SourcePos:
        """Character ``col`` of a folded value: each source line adds its text and one joining space or line break
        (a blank line adds the break alone); a ``>`` block's lines keep what they are indented beyond the block."""
        origin = self._origin
        lines = source_lines(origin.file)
        block = origin.col if self._block else None
        remaining, number, start = col - 1, origin.line, origin.col
        while 1 <= number <= len(lines):
            content = lines[number - 1].rstrip("\n")[start - 1 :].rstrip()
            if content and remaining <= len(content) or number == len(lines):
                return SourcePos(origin.file, number, start + remaining)
            following = lines[number] if number < len(lines) else ""
            remaining -= len(content) + (1 if following.strip() or not content else 0)
            number += 1
            start = block if block is not None and len(following) - len(following.lstrip()) + 1 >= block else \
                len(following) - len(following.lstrip()) + 1
        return SourcePos(origin.file, origin.line, origin.col + col - 1)


def load_yaml(path: str | Path, text: str | None = None) -> object:
    """Load one YAML document safely, keeping positions; ``None`` for an empty file.

    With ``text``, that text is parsed instead of the file (``path`` still
    names it in positions and error messages).

    >>> load_yaml("r.yaml", "players: [2, 3]\\n")
    {'players': [2, 3]}
    >>> load_yaml("r.yaml", "x: !!python/object:os.system {}\\n")
    Traceback (most recent call last):
    engine.core.errors.RulesetError: r.yaml:1:4: YAML tag '!!python/object:os.system' is not allowed: rulesets cannot build Python objects
    """
    name = str(path)
    if text is None:
        text = _read_text(Path(path), name)
    else:
        _check_size(name, len(text.encode("utf-8", "surrogatepass")))
        _check_encodable(name, text)
    remember_source(name, text)  # the lines its errors quote are the text read now, not an earlier version's
    key = (name, text, limits.current())
    kept = _PARSED.pop(key, _MISSING)
    if kept is _MISSING:
        _check_line_breaks(name, text)
        kept = _parsed(name, text)
    _PARSED[key] = kept  # the most recent last
    while len(_PARSED) > KEPT_TREES:
        del _PARSED[next(iter(_PARSED))]
    return copy_tree(kept)


KEPT_TREES = 8
"""How many parsed files :func:`load_yaml` keeps (by name, text and limits), the most recently read: one command
reads a ruleset's files several times (validate: as written, with each variant, for its notes), each parsed once."""

_PARSED: dict[tuple[str, str, limits.Limits], object] = {}
_BRANCHES = frozenset((Mapping, Sequence))  # the nodes copy_tree copies (the others cannot change)
_MISSING = object()


def _parsed(name: str, text: str) -> object:
    """The tree of ``text`` (a file named ``name``), parsed."""
    try:
        try:
            return _Builder(name, text).document()
        except yaml.MarkedYAMLError as err:
            if _LOADER is yaml.SafeLoader or "nesting depth" not in str(err.problem):
                raise
            # libyaml scans a flow collection ahead and stops at its own depth (1000) before the nesting reaches
            # the parser; Python's parser hands the nodes over as it reads, so the yaml_depth limit says where
            return _Builder(name, text, yaml.SafeLoader).document()
    except yaml.YAMLError as err:
        raise _yaml_error(name, text, err) from None


def copy_tree(tree: object) -> object:
    """A copy of a parsed tree whose mappings and lists are new (its texts and numbers, which cannot change, shared):
    what :func:`load_yaml` gives of a file it parsed before, so that no caller's change reaches another's tree.

    >>> a = load_yaml("r.yaml", "a: [1, {b: 2}]\\n")
    >>> b = copy_tree(a); b["a"][1].add("c", 3, None, None)
    >>> a, b, b["a"].pos_of(1) == a["a"].pos_of(1)
    ({'a': [1, {'b': 2}]}, {'a': [1, {'b': 2, 'c': 3}]}, True)
    """
    kind = tree.__class__
    if kind is Mapping:
        copy = dict.__new__(Mapping)  # its slots set here: __init__ would make dicts replaced at once
        copy.pos, copy.key_pos, copy.value_pos = tree.pos, tree.key_pos.copy(), tree.value_pos.copy()  # type: ignore[attr-defined]
        dict.update(copy, {key: copy_tree(value) if value.__class__ in _BRANCHES else value
                           for key, value in tree.items()})  # type: ignore[attr-defined]
        return copy
    if kind is Sequence:
        listed = list.__new__(Sequence)
        listed.pos, listed.item_pos = tree.pos, tree.item_pos.copy()  # type: ignore[attr-defined]
        list.extend(listed, [copy_tree(item) if item.__class__ in _BRANCHES else item for item in tree])  # type: ignore[attr-defined]
        return listed
    return tree


def pos_of(tree_node: object, default: SourcePos) -> SourcePos:
    """The node's own position if it has one, else ``default``.

    >>> pos_of(3, SourcePos("r.yaml", 1, 1))
    SourcePos(file='r.yaml', line=1, col=1)
    """
    pos = getattr(tree_node, "pos", None)
    return pos if isinstance(pos, SourcePos) else default


def walk_path(tree: object, path: collections.abc.Sequence[str | int]) -> SourcePos | None:
    """The position of the node at a JSON path (like jsonschema's ``absolute_path``).

    Stops at the deepest node that exists, so a path ending at a number or
    ``true`` gives the position of that value.

    >>> walk_path(load_yaml("r.yaml", "a:\\n  - 1\\n  - 2\\n"), ["a", 1])
    SourcePos(file='r.yaml', line=3, col=5)
    """
    pos = getattr(tree, "pos", None)
    node = tree
    for step in path:
        if isinstance(node, Mapping) and str(step) in node:
            pos, node = node.pos_of(str(step)), node[str(step)]
        elif isinstance(node, Sequence) and isinstance(step, int) and -len(node) <= step < len(node):
            pos, node = node.pos_of(step), node[step]
        else:
            break
    return pos


class _Builder:
    """Builds the tree of one document from the parser's events."""

    def __init__(self, name: str, text: str, loader: type = _LOADER) -> None:
        self.name = name
        self.text = text
        self.events = loader(text)
        self.anchors: dict[str, tuple[object, int, int]] = {}
        self.count = 0  # nodes and characters of text so far, written out or not: an anchor's size is read from them
        self.chars = 0
        self.added = 0  # what aliases and merge keys added (the limits yaml_nodes and yaml_text bound these)
        self.added_chars = 0
        self.limits = limits.current()
        self._lines: list[str] | None = None

    def document(self) -> object:
        self._next()  # stream start
        if isinstance(self._next(), StreamEndEvent):
            return None
        value, _ = self._value(self._next(), 0)
        self._next()  # document end
        after = self._next()
        if not isinstance(after, StreamEndEvent):
            raise self._error(after, "a ruleset file holds one YAML document; remove the second '---'")
        return value

    def _next(self) -> Event:
        return self.events.get_event()

    def _value(self, event: Event, depth: int) -> tuple[Any, SourcePos]:
        """The node that starts with ``event``, and where it is written."""
        if isinstance(event, AliasEvent):
            return self._alias(event), self._pos(event)
        if depth > self.limits.yaml_depth:
            raise self._error(event, f"nesting deeper than {self.limits.yaml_depth} levels {limits.exceeded('yaml_depth')}")
        start, chars = self.count, self.chars
        self.count += 1  # written out: the file's size bounds these
        self.chars += len(event.value) if isinstance(event, ScalarEvent) else 0
        try:
            value, pos = _BUILD[type(event)](self, event, depth)
        except RecursionError:  # yaml_depth raised past what Python's stack follows: told at the deepest level it can
            raise self._error(event, f"nesting deeper than Python can follow ({depth:,} levels here; the limit "
                                     f"yaml_depth={self.limits.yaml_depth:,} allows more): nest less") from None
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, self.count - start, self.chars - chars)
        return value, pos

    def _alias(self, event: AliasEvent) -> Any:
        if event.anchor not in self.anchors:
            raise self._error(event, f"alias '*{event.anchor}' refers to no anchor defined before it")
        value, size, chars = self.anchors[event.anchor]
        self._tick(size, chars, event)
        return value

    def _tick(self, nodes: int, chars: int, event: Event) -> None:
        """Count ``nodes`` more nodes holding ``chars`` more characters of text that an alias (its anchor's again) or
        a merge key added: a few lines of aliases can stand for millions of nodes, while the nodes written out are
        bounded by the file's size (:data:`MAX_BYTES`), however many a large board or deck has."""
        self.count += nodes
        self.chars += chars
        self.added += nodes
        self.added_chars += chars
        if self.added > self.limits.yaml_nodes:
            message = f"aliases expand the document by too many nodes (alias bomb?): more than {self.limits.yaml_nodes:,}"
            raise self._error(event, f"{message} {limits.exceeded('yaml_nodes')}")
        if self.added_chars > self.limits.yaml_text:
            message = (f"aliases expand the document by too much text (alias bomb?): more than {self.limits.yaml_text:,} "
                       "characters")
            raise self._error(event, f"{message} {limits.exceeded('yaml_text')}")

    def _scalar(self, event: ScalarEvent, depth: int) -> tuple[Any, SourcePos]:
        tag = _scalar_tag(event)
        if tag == _STR:
            text = self._text(event)
            return text, text.pos
        if tag not in _CONSTRUCT:
            raise self._error(event, _tag_message(tag))
        value = event.value if len(event.value) <= 40 else f"{event.value[:20]}...{event.value[-10:]}"
        if tag in (_INT, _FLOAT) and _SEXAGESIMAL.match(event.value):
            raise self._error(event, f"'{value}' is not a valid {_short_tag(tag)}: base-60 numbers are not read (quote it for text)")
        too_large = f"'{value}' has more than {self.limits.integer_digits} digits {limits.exceeded('integer_digits')}"
        if tag == _INT and self._too_many_digits(event.value):  # refused before Python reads it
            raise self._error(event, too_large)
        try:
            number = _CONSTRUCT[tag](ScalarNode(tag, event.value))
        except (ValueError, KeyError, IndexError, TypeError):  # what PyYAML's constructors raise on text they can't read
            raise self._error(event, f"'{value}' is not a valid {_short_tag(tag)}") from None
        if isinstance(number, int) and self.limits.too_large(number):
            raise self._error(event, too_large)
        return number, self._pos(event)

    def _too_many_digits(self, text: str) -> bool:
        """Whether a whole number written as ``text`` (decimal, hex, octal or binary) is over the digit limit."""
        digits = text.lstrip("+-").replace("_", "")
        prefix = digits[:2].lower() if digits[:2].lower() in _DIGITS_PER_CHAR else "0" if digits[:1] == "0" else ""
        body = digits[len(prefix):].lstrip("0")
        return len(body) * _DIGITS_PER_CHAR.get(prefix, 1.0) > self.limits.integer_digits + 2

    def _text(self, event: ScalarEvent) -> Text:
        pos = self._scalar_start(event)
        if event.style in ("|", ">"):
            return Text(event.value, pos, self._block_origin(event), event.style == "|", event.style == ">")
        if event.style in ("'", '"'):
            return Text(event.value, pos, SourcePos(self.name, pos.line, pos.col + 1))
        return Text(event.value, pos)

    def _scalar_start(self, event: ScalarEvent) -> SourcePos:
        """Where the scalar itself starts, after any ``&anchor`` or ``!tag``."""
        mark = event.start_mark
        if event.anchor is None and event.tag is None:
            return SourcePos(self.name, mark.line + 1, mark.column + 1)
        line = self._source_lines()[mark.line]
        col = min(_PROPERTIES.match(line, mark.column).end(), len(line))  # type: ignore[union-attr]
        return SourcePos(self.name, mark.line + 1, col + 1)

    def _block_origin(self, event: ScalarEvent) -> SourcePos:
        """The first content position of a ``|`` or ``>`` block: next line, at its indent."""
        first = event.start_mark.line + 1
        lines = self._source_lines()
        source = next((lines[i] for i in range(first, len(lines)) if lines[i].strip()), "")
        value = next((line for line in event.value.split("\n") if line.strip()), "")
        indent = max(_leading_spaces(source) - _leading_spaces(value), 0)
        return SourcePos(self.name, first + 1, indent + 1)

    def _source_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()  # the same line breaks as YAML's
        return self._lines

    def _sequence(self, event: SequenceStartEvent, depth: int) -> tuple[Sequence, SourcePos]:
        self._check_tag(event, _SEQ, "a list")
        seq = Sequence(self._pos(event))
        while not isinstance(item := self._next(), SequenceEndEvent):
            seq.add(*self._value(item, depth + 1))
        return seq, seq.pos

    def _mapping(self, event: MappingStartEvent, depth: int) -> tuple[Mapping, SourcePos]:
        self._check_tag(event, _MAP, "a mapping")
        mapping = Mapping(self._pos(event))
        merges: list[tuple[Any, SourcePos]] = []
        while not isinstance(key_event := self._next(), MappingEndEvent):
            if _is_merge_key(key_event):
                merges.append(self._value(self._next(), depth + 1))
                continue
            key, key_pos = self._key(key_event, depth + 1)
            if key in mapping:
                first = mapping.key_pos[key].line
                raise RulesetError.at(key_pos, f"duplicate key '{key}' (first defined at line {first})")
            value, value_pos = self._value(self._next(), depth + 1)
            mapping.add(key, value, key_pos, value_pos)
        if merges:
            written = len(mapping)
            mapping = _merged(mapping, merges)
            self._tick(len(mapping) - written, 0, event)  # a merged mapping holds copies of the entries it merges
        return mapping, mapping.pos

    def _key(self, event: Event, depth: int) -> tuple[Text, SourcePos]:
        """A mapping key as text: whole numbers become their digits, ``on``/``yes`` stay words."""
        if isinstance(event, ScalarEvent) and _scalar_tag(event) == _BOOL:
            key = Text(event.value, self._pos(event))
            return key, key.pos
        key, pos = self._value(event, depth)
        if isinstance(key, Text):
            return key, pos
        if isinstance(key, int) and not isinstance(key, bool):
            return Text(str(key), pos), pos
        message = f"a mapping key must be a name or a whole number, not {describe_kind(key)}"
        raise RulesetError.at(pos, message)

    def _check_tag(self, event: MappingStartEvent | SequenceStartEvent, own: str, kind: str) -> None:
        tag = event.tag
        if tag in (None, "!", own):
            return
        if tag in _CONSTRUCT or tag in (_STR, _SEQ, _MAP):
            raise self._error(event, f"YAML tag '{_short_tag(tag)}' cannot be used on {kind}")
        raise self._error(event, _tag_message(tag))

    def _pos(self, event: Event) -> SourcePos:
        return SourcePos(self.name, event.start_mark.line + 1, event.start_mark.column + 1)

    def _error(self, event: Event, message: str) -> RulesetError:
        return RulesetError.at(self._pos(event), message)


_BUILD: dict[type, Callable[[_Builder, Any, int], Any]] = {
    ScalarEvent: _Builder._scalar,
    SequenceStartEvent: _Builder._sequence,
    MappingStartEvent: _Builder._mapping,
}


def _merged(mapping: Mapping, merges: list[tuple[Any, SourcePos]]) -> Mapping:
    """Apply ``<<`` merge keys: merged entries first; the mapping's own keys win."""
    result = Mapping(mapping.pos)
    for value, pos in merges:
        for source in _merge_sources(value, pos):
            for key, item in source.items():
                if key not in mapping and key not in result:
                    result.add(key, item, source.key_pos.get(key), source.value_pos.get(key))
    for key, item in mapping.items():
        result.add(key, item, mapping.key_pos.get(key), mapping.value_pos.get(key))
    return result


def _merge_sources(value: Any, pos: SourcePos) -> list[Mapping]:
    sources = [value] if isinstance(value, Mapping) else value
    if not isinstance(value, (Mapping, Sequence)) or not all(isinstance(s, Mapping) for s in sources):
        raise RulesetError.at(pos, "a '<<' merge key takes a mapping or a list of mappings")
    return list(sources)


def _scalar_tag(event: ScalarEvent) -> str:
    """The scalar's tag: explicit, or resolved like the SafeLoader for plain scalars."""
    if event.tag is None and event.implicit[0]:
        return _plain_tag(event.value)
    if event.tag in (None, "!"):
        return _STR
    return event.tag


@functools.lru_cache(maxsize=4096)
def _plain_tag(value: str) -> str:
    if ":" in value and _SEXAGESIMAL.match(value):
        return _STR
    for tag, rx in _IMPLICIT.get(value[:1], ()):
        if rx.match(value):
            return tag
    return _STR


def _is_merge_key(event: Event) -> bool:
    return isinstance(event, ScalarEvent) and event.tag is None and event.implicit[0] and event.value == "<<"


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag


def _tag_message(tag: str) -> str:
    if tag.startswith(_PYTHON_TAG):
        return f"YAML tag '{_short_tag(tag)}' is not allowed: rulesets cannot build Python objects"
    return (
        f"YAML tag '{_short_tag(tag)}' is not allowed: rulesets use only text, numbers, "
        "true/false, null, lists and mappings"
    )


def describe_kind(value: object) -> str:
    """How a designer would name the kind of a tree value, for error messages.

    >>> describe_kind(None), describe_kind(2.5), describe_kind([1])
    ('null', 'a decimal number', 'a list')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "a mapping"


def plain(value: Any) -> Any:
    """YAML nodes as plain Python values (Text -> str, Sequence -> list, Mapping -> dict).

    >>> tree = load_yaml("r.yaml", "a: [x, {b: 1}]\\n")
    >>> type(tree["a"][0]).__name__, type(plain(tree)["a"][0]).__name__
    ('Text', 'str')
    """
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def yaml_text(value: Any) -> str:
    """A plain value (see :func:`plain`) as one line of YAML that reads back as the same value.

    >>> [yaml_text(v) for v in (4, "on", "abc", [6, 3, 1, 0], {"a": 1}, 1e20, None)]
    ['4', "'on'", 'abc', '[6, 3, 1, 0]', '{a: 1}', '1.0e+20', 'null']
    """
    text = yaml.safe_dump(value, default_flow_style=True, width=1 << 30, allow_unicode=True, sort_keys=False)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def _leading_spaces(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _read_text(path: Path, name: str) -> str:
    """The file's text, refusing unreadable, oversized, non-regular and non-UTF-8 files."""
    try:
        data = read_bytes(path, MAX_BYTES, "YAML file")
    except FileRefused as err:
        raise RulesetError.at(None, str(err)) from None
    except OSError as err:
        raise RulesetError.at(None, f"cannot read '{name}': {err.strerror or err}") from None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        raise _decode_error(name, data, err.start) from None


def _check_encodable(name: str, text: str) -> None:
    """Refuse text holding a lone surrogate (undecodable bytes smuggled in as ``\\udcff``): YAML cannot read it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        before = text[: err.start]
        pos = SourcePos(name, before.count("\n") + 1, err.start - (before.rfind("\n") + 1) + 1)
        raise RulesetError.at(pos, f"text is not valid UTF-8: character {text[err.start]!r} (save it as UTF-8)") from None


UNSEEN_BREAKS = {"\u2028": "line separator U+2028", "\u2029": "paragraph separator U+2029", "\x85": "next line U+0085"}
"""Characters YAML reads as line breaks although editors show none (and count no line)."""


def _check_line_breaks(name: str, text: str) -> None:
    """Refuse a character YAML takes for a line break that an editor does not show: inside a comment it ended the
    comment (the rest was read as YAML) and every position after it was off by a line.

    >>> _check_line_breaks("r.yaml", "# a\\u2028b\\nx: 1\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.core.errors.RulesetError: r.yaml:1:4: a line separator U+2028: YAML reads it as a line break ...
    """
    start = min((i for i in map(text.find, UNSEEN_BREAKS) if i >= 0), default=-1)
    if start < 0:
        return
    before = text[:start]
    pos = SourcePos(name, before.count("\n") + 1, start - (before.rfind("\n") + 1) + 1)
    raise RulesetError.at(pos, f"a {UNSEEN_BREAKS[text[start]]}: YAML reads it as a line break that editors do not "
                               "show; remove it (in a double-quoted text, write it as an escape such as \\u2028)")


def _check_size(name: str, size: int) -> None:
    if size > MAX_BYTES:
        raise RulesetError.at(None, f"'{name}' is larger than {MAX_BYTES // (1024 * 1024)} MB ({size} bytes)")


def _decode_error(name: str, data: bytes, offset: int) -> RulesetError:
    line_start = data.rfind(b"\n", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    pos = SourcePos(name, data.count(b"\n", 0, offset) + 1, col)
    return RulesetError.at(pos, f"file is not valid UTF-8: byte 0x{data[offset]:02x} (save it as UTF-8)")


def _clamped(name: str, text: str, line: int, column: int) -> SourcePos:
    """The 0-based ``line`` and ``column`` as a position inside ``text``: the parser marks the end of a file that has
    no final newline one line past it, which would point at a line the file does not have.

    >>> _clamped("r.yaml", "[", 1, 0)
    SourcePos(file='r.yaml', line=1, col=2)
    """
    lines = text.split("\n")
    if line < len(lines):
        return SourcePos(name, line + 1, column + 1)
    return SourcePos(name, len(lines), len(lines[-1]) + 1)


def _tab_at(text: str, line: int, column: int) -> bool:
    """Whether the character YAML stopped at (0-based line and column) is a tab.

    >>> _tab_at("a:\\n\\tb: 1\\n", 1, 0), _tab_at("a: 1\\n", 0, 0)
    (True, False)
    """
    lines = text.split("\n")
    return 0 <= line < len(lines) and lines[line][column:column + 1] == "\t"


def _yaml_error(name: str, text: str, err: yaml.YAMLError) -> RulesetError:
    """A parser error as a positioned diagnostic."""
    if isinstance(err, yaml.MarkedYAMLError):
        mark = err.problem_mark or err.context_mark
        pos = _clamped(name, text, mark.line, mark.column) if mark else SourcePos(name, 1, 1)
        context = err.context_mark
        hint = f"{err.context} at line {_clamped(name, text, context.line, context.column).line}" if err.context and context else None
        if mark is not None and _tab_at(text, mark.line, mark.column):  # YAML's own words do not say 'tab'
            hint = "YAML indents with spaces, never tabs: replace the tab with spaces"
        elif mark is not None:
            slip = layout_slip(text, str(err.problem or err.context), mark.line, mark.column,
                               context.line if context else None)
            if slip is not None:
                hint = slip.hint
                pos = pos if slip.column is None else _clamped(name, text, slip.line, slip.column)
        return RulesetError.at(pos, f"invalid YAML: {err.problem or err.context}", hint)
    bad = _NON_PRINTABLE.search(text)
    if bad is None:
        return RulesetError.at(SourcePos(name, 1, 1), f"invalid YAML: {err}")
    offset = bad.start()
    pos = SourcePos(name, text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset))
    return RulesetError.at(pos, f"invalid YAML: character U+{ord(text[offset]):04X} is not allowed")
